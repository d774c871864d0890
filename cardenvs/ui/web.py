"""A game against an agent in the browser: a small HTTP server on 127.0.0.1 (stdlib only).

Usage::

    from cardenvs.agents import RandomAgent            # the baselines
    from cardenvs.web import serve
    serve("piquet-v0", seat=0, opponent=RandomAgent(0), open_browser=True)   # Ctrl-C stops

``python -m cardenvs.play <id> --seat 0 --against ... --web`` calls ``serve``. The page is the
replay viewer's table (``cardenvs/ui/view_assets/table.js``, the look of ``core.picture``) drawn
from the human seat's view. A card of the human's hand (or exposed cards) that a legal action
plays, discards or uses is lifted with a gold edge and played by a click; every other legal
action is a button. A choice of several cards (Piquet's exchange) is made in any order: the
cards are clicked (again to put one back), then one button plays them together, in the
engine's order. The table is scaled to the window (a 1024 x 700 one shows it with the
actions; on a phone's width the side panel goes under the felt); during Esel's trump choice a
line on the felt says why the own hand is face down (the rule). The log shows what happened as
the human's seat saw it, in the sentences of the terminal game and the viewer (``ui.events``:
"player_1 plays KH", "you win the trick (KH)", deal ends, the result; the page writes the cards
with suit symbols, K♥), what happened since the human's last move highlighted. When the game
ends the page shows the result, the game's seed and where the record was saved, with the
viewer's command, and a "new game" button.

Seeds: without ``seed`` every game draws its own seed from the OS (``secrets``), so no game's
record tells anything about the next one; a game's seed is shown (``"seed"`` of the state) only
once it is over, and its record holds it. With ``seed`` the first game is that seed's and each
later one the seed's next game (``reset()`` without a seed): reproducible, as asked for.

Every game is saved as a record (``env.unwrapped.record()``, the format of ``cardenvs.records``)
when it ends, and so is a game left unfinished (at least one action played) by ``POST /new`` or
by stopping the server (Ctrl-C, SIGTERM or SIGHUP); each save prints its path. The first game
goes to ``record_path`` (checked before play: it must be a new file in an existing, writable
directory; an existing file is never overwritten), the second to ``NAME-2.json``, ... (the next
free name), or by default to ``runs/play/<id>-<timestamp>.json``. A record replays with
``cardenvs.replay`` and opens in ``python -m cardenvs.view``.

Who may talk to it. The server answers only requests whose ``Host`` is its own
(``127.0.0.1:PORT`` or ``localhost:PORT``; any other is 421: a page of another site that
reached it by DNS rebinding), refuses a request whose ``Origin`` header, when present, is not
the server's own origin (403: a cross-site request), and needs the server's token (a random
``secrets.token_urlsafe(32)`` drawn when the server starts, put in the page it serves, sent back
by the page's script in the ``X-Cardenvs-Token`` header and compared with
``hmac.compare_digest``) on ``GET /state`` and on every POST (403 without it). A POST body is
JSON of at most ``MAX_BODY`` bytes sent as ``Content-Type: application/json`` (else 415), with a
``Content-Length`` (411 without one, 400 for one that is not a number, 413 over the limit).
Every refusal is a 4xx answer ``{"error": message}`` saying what was wrong; pages are never
framed (``X-Frame-Options: DENY``).

The HTTP interface (JSON):

- ``GET /``: the page; ``GET /state``: ``{"game", "seat", "step" (actions so far), "scene" (the
  human seat's view, ``core.scene``), "legal": [{"id", "name", "card"}] (``card``: the card of
  the human's hand the action plays, else null; empty unless it is the human's turn),
  "to_act", "over", "result", "seed" (null until the game is over), "log": [{"step", "kind",
  "seat", "text"}] since the start, "timeline", "deal_starts", "record_path" (once saved),
  "viewer_command"}``;
- ``POST /act`` with ``{"action": id or name, "step": n}`` (``step`` optional: the state the
  click was made on): plays the human's action, then the opponents' until it is the human's turn
  again or the game is over, and returns the new state. An action that is not legal now, a stale
  ``step`` or a game that is over answer 409, a malformed request 400, each with ``{"error":
  message}`` saying what was wrong and what is allowed;
- ``POST /act`` with ``{"cards": [card, ...], "step": n}``: a choice of several cards (the
  state's ``"choice"``: ``{"verb": "discard", "cards", "min", "max"}`` during Piquet's exchange,
  else null; ``cardenvs.ui.card_sets.card_choice``), the cards in any order: the whole set is
  checked (409 saying why: a card not in hand, too many, too few), then played in the engine's order
  (``discard`` by card index, then ``stop`` when fewer than the maximum);
- ``POST /new``: the next game (the same seat and opponent); an unfinished game is saved first.

Method: one AEC env (``cardenvs.make``, ``illegal_action="raise"``) behind a lock; the
server (``http.server.ThreadingHTTPServer``) binds 127.0.0.1 only. An opponent is any object
with ``act(observation, action_mask)`` (agents, ``cardenvs.zoo.load``, ``NumpyAgent``), or
``act_env(env)`` (search agents such as ``agents.ismcts.ISMCTSAgent``), which is preferred; it
plays every seat but the human's.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
import shlex
import signal
import sys
import threading
import time
import webbrowser
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from ..core.checks import brief
from ..core.rng import MAX_SEED
from ..records import record_path_problem
from . import view
from .card_sets import card_choice, card_plan

#: the hosts ``serve`` binds (the loopback interface only)
HOSTS = ("127.0.0.1", "localhost")
MAX_BODY = 4096  # bytes of a POST body
TOKEN_HEADER = "X-Cardenvs-Token"  # the header that carries the server's token
_LENGTH = re.compile(r"[0-9]{1,12}")  # a Content-Length (ASCII digits only: not "²")


class WebError(Exception):
    """A request the game refuses: ``status`` (400, 409) and a message for the page."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def card_of(name: str) -> str | None:
    """The card an action plays, discards or uses (``"play KH"`` -> ``"KH"``, Four Aces'
    ``"joker"`` -> ``"JK"``); None for an action without one."""
    if name == "joker":
        return "JK"
    last = name.rsplit(" ", 1)[-1]
    return last if " " in name and view.CARD_RE.fullmatch(last) else None


class Game:
    """One seat against ``opponent`` (see the module docstring); the server's state. Methods
    are thread-safe."""

    def __init__(self, env_id: str, seat: int, opponent, config=None, seed=None, record_path=None):
        import cardenvs

        if record_path is not None:
            problem = record_path_problem(record_path)
            if problem:
                raise ValueError(f"record_path {str(record_path)!r} {problem}")
        if not (hasattr(opponent, "act_env") or hasattr(opponent, "act")):
            raise ValueError(
                "opponent must have act(observation, action_mask) or act_env(env) (an agent), "
                f"got {brief(opponent)}"
            )
        self.env = cardenvs.make(env_id, illegal_action="raise", **(config or {}))
        self.core = self.env.unwrapped
        self.env_id = env_id
        p = len(self.core.possible_agents)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < p:
            raise ValueError(f"seat must be a seat of {env_id}: 0..{p - 1}, got {brief(seat)}")
        self.seat = seat
        self.opponent = opponent
        self.record_path = None if record_path is None else Path(record_path)
        self.saved: list[Path] = []
        self.seed = seed  # the player's seed, or None: a fresh one for every game
        self.lock = threading.RLock()
        self.games = 0
        self.new()

    # -- the game --------------------------------------------------------------------------------
    def new(self) -> None:
        """Start a game (see the module docstring for its seed), after saving the current one
        if it is unfinished."""
        with self.lock:
            left = self.save_unfinished() if self.games else None
            if self.seed is None:
                seed = secrets.randbelow(MAX_SEED + 1)  # independent of every earlier game
            else:
                seed = self.seed if self.games == 0 else None  # the seed's next game
            self.env.reset(seed=seed)
            self.games += 1
            self.step = 0
            self.path = None
            scene = self.core.scene(self.seat)
            self.log = [view.log_entry(0, "start", f"start: {scene['title']}")]
            if left is not None:
                self.log.append(
                    view.log_entry(0, "start", f"the unfinished game was saved: {left}")
                )
            self.timeline = view.timeline([scene])
            self.deal_starts = [0]
            self.finished = 0  # deals finished
            self._opponents()

    def over(self) -> bool:
        return not self.core.legal_actions()

    def _to_act(self) -> int:
        return self.core.agent_name_mapping[self.env.agent_selection]

    def _apply(self, action: int) -> None:
        core = self.core
        actor, name = self._to_act(), core.action_name(action)
        before = core.scene(self.seat)
        self.env.step(action)
        self.step += 1
        after = core.scene(self.seat)
        record = core.record()
        self.log += view.log_entries(
            self.step, before, after, actor, name, self.seat, record, you=True
        )
        done = sum("points" in d for d in record["deals"])
        over = self.over()
        if done > self.finished:
            self.finished = done
            if not over:
                self.deal_starts.append(self.step)
        self.timeline += view.timeline([after])
        if over:
            self._save()

    def _opponents(self) -> None:
        """Play the opponents' moves until the human is to act or the game is over."""
        while not self.over() and self._to_act() != self.seat:
            agent = self.env.agent_selection
            opp = self.opponent
            if hasattr(opp, "act_env"):
                action = opp.act_env(self.env)
            else:
                obs = self.env.observe(agent)
                action = opp.act(obs["observation"], obs["action_mask"])
            legal = self.core.legal_actions()
            if isinstance(action, bool) or int(action) != action or int(action) not in legal:
                raise RuntimeError(
                    f"the opponent {opp!r} chose {brief(action)} for {agent}, which is not "
                    f"legal; legal: {[self.core.action_name(a) for a in legal]}"
                )
            self._apply(int(action))

    def save_unfinished(self) -> Path | None:
        """Save the current game if it is unfinished and an action was played; its path, or
        None (nothing to save, or the save failed: printed and logged)."""
        with self.lock:
            if self.over() or self.step == 0 or self.path is not None:
                return None
            return self._save()

    def _save(self) -> Path | None:
        """Write the record to the game's path (a new file, never one that exists), print
        where and log it; None when it could not be written (printed and logged, no raise)."""
        if self.record_path is None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            base = Path("runs/play") / f"{self.env_id}-{stamp}.json"
        elif self.games == 1:
            base = self.record_path
        else:
            base = self.record_path.with_name(
                f"{self.record_path.stem}-{self.games}{self.record_path.suffix}"
            )
        record = self.core.record()
        what = "record saved" if record["result"] is not None else "unfinished game saved"
        path, k = base, 2
        try:
            if self.record_path is None:
                path.parent.mkdir(parents=True, exist_ok=True)
            while True:
                try:
                    with path.open("x", encoding="utf-8") as f:  # "x": never overwrite
                        f.write(json.dumps(record))
                    break
                except FileExistsError:
                    path = base.with_name(f"{base.stem}-{k}{base.suffix}")
                    k += 1
        except OSError as e:
            text = f"could not save the record to {path}: {e.strerror or e}"
            print(text, flush=True)
            self.log.append(view.log_entry(self.step, "result", text))
            return None
        self.path = path
        self.saved.append(path)
        print(f"{what}: {path}", flush=True)
        self.log.append(
            view.log_entry(self.step, "result", f"{what}: {path} (seed {record['seed']})")
        )
        return path

    def _check_current(self, step) -> None:
        """``WebError`` 409 when the game is over or ``step`` (the step the action was chosen
        at, if given) is not the current one."""
        if self.over():
            raise WebError(409, "the game is over; POST /new starts the next one")
        if step is not None and step != self.step:
            raise WebError(
                409,
                f"stale action: it was chosen at step {step}, the game is at step {self.step}; "
                "reload the state (GET /state)",
            )

    def act(self, action, step=None) -> None:
        """Play the human's ``action`` (an id or a name) and the opponents' replies;
        ``WebError`` for an action that is not legal now or a stale ``step``."""
        with self.lock:
            self._check_current(step)
            if self._to_act() != self.seat:  # cannot happen between requests; kept as a guard
                raise WebError(409, f"it is player_{self._to_act()}'s turn, not yours")
            legal = self.core.legal_actions()
            names = [self.core.action_name(a) for a in legal]
            if isinstance(action, str):
                try:
                    action = self.core.action_id(action)
                except ValueError:
                    raise WebError(
                        400,
                        f"{brief(action)} is not an action of {self.env_id}; legal now: {names}",
                    ) from None
            elif isinstance(action, bool) or not isinstance(action, int):
                raise WebError(
                    400, f"action must be an action id (int) or name (string), got {brief(action)}"
                )
            if action not in legal:
                what = (
                    repr(self.core.action_name(action))
                    if 0 <= action < self.core.game.num_actions
                    else f"action {action}"
                )
                raise WebError(409, f"{what} is not legal now; legal: {names}")
            self._apply(action)
            self._opponents()

    def act_cards(self, cards, step=None) -> None:
        """Play the human's choice of several cards (``cards``: card strings in any order, the
        ``"choice"`` of the state: Piquet's discards) in the engine's order
        (``cardenvs.ui.card_sets.card_plan``), then the opponents' replies; ``WebError`` saying what
        is wrong with the set (nothing is played then)."""
        with self.lock:
            self._check_current(step)
            if (
                not isinstance(cards, list)
                or len(cards) > 32
                or not all(isinstance(c, str) and view.CARD_RE.fullmatch(c) for c in cards)
            ):
                raise WebError(400, f"cards must be a list of cards such as 7S, got {brief(cards)}")
            if self._to_act() != self.seat:
                raise WebError(409, f"it is player_{self._to_act()}'s turn, not yours")
            actions, message = card_plan(self.env, self.seat, cards)
            if not actions:
                raise WebError(409, f"not played: {message}")
            for a in actions:
                self._apply(a)
            self._opponents()

    def state(self) -> dict:
        """The state the page draws (see the module docstring)."""
        with self.lock:
            scene = self.core.scene(self.seat)
            mine = self._to_act() == self.seat and not self.over()
            claimed, legal = set(), []
            for a in self.core.legal_actions() if mine else []:
                name = self.core.action_name(a)
                card = card_of(name)
                shown = scene["seats"][self.seat]
                if card in claimed or (card not in shown["hand"] and card not in shown["exposed"]):
                    card = None
                claimed.add(card)
                legal.append({"id": a, "name": name, "card": card})
            path = None if self.path is None else str(self.path)
            over = self.over()
            return {
                "game": self.env_id,
                "seat": self.seat,
                "step": self.step,
                "scene": scene,
                "legal": legal,
                "choice": card_choice(self.env, self.seat) if mine else None,
                "to_act": None if over else self._to_act(),
                "over": over,
                "result": scene["result"],
                "seed": self.core.record()["seed"] if over else None,
                "log": self.log,
                "timeline": self.timeline,
                "deal_starts": self.deal_starts,
                "names": list(self.core.possible_agents),
                "record_path": path,
                "viewer_command": None if path is None else viewer_command(path),
            }


def viewer_command(path) -> str:
    """The shell command that opens the record at ``path`` in the viewer (paths quoted)."""
    html = Path(path).with_suffix(".html")
    return f"python -m cardenvs.view {shlex.quote(str(path))} -o {shlex.quote(str(html))}"


WEB_BODY = """<div class="app web" id="app">
<div id="table"></div>
<div class="bar"><span id="prompt" class="note"></span><div id="actions" class="actions"></div>
</div>
<div id="message" class="bar msg" hidden></div>
<div class="lower">
  <div class="box" style="flex:1;min-width:0"><h2>log</h2><div id="log" class="log"></div></div>
  <div class="box chart"><h2>score</h2><div id="chart"></div></div>
</div>
</div>"""


def page(game: Game, token: str = "") -> str:
    """The game's page: the table and controls, and the server's ``token`` for its script;
    the state comes from ``GET /state``."""
    title = f"{game.env_id}: player_{game.seat} — cardenvs"
    return view.page(
        title,
        WEB_BODY,
        {"game": game.env_id, "seat": game.seat, "token": token},
        view.asset("web.js"),
    )


def _handler(game: Game, quiet: bool, token: str):
    class Handler(BaseHTTPRequestHandler):
        server_version = "cardenvs-web"
        timeout = 60  # seconds a connection may stay silent (a body promised but not sent)

        def log_message(self, fmt, *args):
            if not quiet:
                super().log_message(fmt, *args)

        # -- answers ---------------------------------------------------------------------------
        def _send(self, status: int, body: bytes, kind: str, allow: str | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("X-Frame-Options", "DENY")
            self.send_header("Content-Security-Policy", "frame-ancestors 'none'")
            self.send_header("Referrer-Policy", "no-referrer")
            if allow is not None:
                self.send_header("Allow", allow)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _json(self, status: int, value, allow: str | None = None) -> None:
            self._send(status, json.dumps(value).encode(), "application/json", allow)

        def send_error(self, code, message=None, explain=None):
            """The standard library's refusals (a malformed request line, headers too long,
            an unknown method) as JSON; an unknown method is 405, not 501."""
            allow = None
            if code == HTTPStatus.NOT_IMPLEMENTED:
                code, allow = HTTPStatus.METHOD_NOT_ALLOWED, "GET, POST"
                message = (
                    f"method {brief(self.command)} is not allowed: GET / or /state, "
                    "POST /act or /new"
                )
                self._raw = None
                self._drain()
            self.close_connection = True
            try:
                self._json(int(code), {"error": message or HTTPStatus(code).phrase}, allow)
            except OSError:  # the client has gone
                pass

        # -- checks ------------------------------------------------------------------------------
        def _hosts(self) -> tuple[str, ...]:
            port = self.server.server_address[1]
            hosts = tuple(f"{h}:{port}" for h in HOSTS)
            return hosts + (HOSTS if port == 80 else ())

        def _check_host(self) -> str:
            """The request's Host when it is this server's, else 421; then a present Origin
            that is not this server's own origin is 403."""
            hosts = self.headers.get_all("Host") or []
            host = hosts[0].strip().lower() if len(hosts) == 1 else None
            if host not in self._hosts():
                raise WebError(
                    421,
                    f"Host {brief(hosts[0] if len(hosts) == 1 else hosts)} is not this server's: "
                    f"it answers only to Host {' or '.join(self._hosts())}",
                )
            origins = self.headers.get_all("Origin") or []
            if origins and (len(origins) > 1 or origins[0].strip().lower() != f"http://{host}"):
                raise WebError(
                    403,
                    f"cross-origin request refused: Origin {brief(origins)} is not this "
                    f"server's own origin http://{host}",
                )
            return host

        def _check_token(self) -> None:
            given = self.headers.get(TOKEN_HEADER)
            good = given is not None and hmac.compare_digest(
                given.strip().encode("utf-8", "backslashreplace"), token.encode()
            )
            if not good:
                raise WebError(
                    403,
                    f"{'no' if given is None else 'a wrong'} token: the page of this server "
                    f"sends its token in the {TOKEN_HEADER} header (reload the page)",
                )

        # -- the body ----------------------------------------------------------------------------
        def _length(self) -> int:
            """The body's length from Content-Length, or ``WebError`` (411, 400, 413)."""
            if self.headers.get("Transfer-Encoding") is not None:
                raise WebError(411, "Transfer-Encoding is not supported: send a Content-Length")
            n = self.headers.get_all("Content-Length") or []
            if not n:
                raise WebError(
                    411, f"a POST needs a Content-Length (a JSON body of at most {MAX_BODY} bytes)"
                )
            if len(n) > 1 or not _LENGTH.fullmatch(n[0].strip()):
                raise WebError(
                    400, f"Content-Length must be a number of bytes (0-9 only), got {brief(n)}"
                )
            if int(n[0]) > MAX_BODY:
                raise WebError(
                    413, f"the body is {int(n[0])} bytes: a POST takes at most {MAX_BODY}"
                )
            return int(n[0])

        def _drain(self) -> bytes:
            """Read the body (once) when its length is valid, so that a refusal is read by the
            client rather than lost to a reset connection; b"" otherwise."""
            if getattr(self, "_raw", None) is None:
                try:
                    self._raw = self.rfile.read(self._length())
                except WebError:
                    self._raw = b""
            return self._raw

        def _body(self):
            kind = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                raise WebError(
                    415,
                    f"a POST body is JSON sent as Content-Type: application/json, got "
                    f"{brief(self.headers.get('Content-Type'))}",
                )
            self._length()  # its refusal, if any
            raw = self._drain()
            if not raw.strip():
                return {}
            try:
                return json.loads(raw.decode("utf-8"))
            except RecursionError:
                raise WebError(400, "the body is JSON nested too deeply") from None
            except (ValueError, UnicodeDecodeError):  # json.JSONDecodeError is a ValueError
                raise WebError(400, f"the body is not JSON: {brief(raw)}") from None

        # -- the methods -------------------------------------------------------------------------
        def do_GET(self):
            path = self.path.split("?", 1)[0]
            try:
                self._check_host()
                if path == "/":
                    self._send(200, page(game, token).encode(), "text/html; charset=utf-8")
                elif path == "/state":
                    self._check_token()
                    self._json(200, game.state())
                else:
                    raise WebError(404, f"no page {path}; GET / or /state")
            except WebError as e:
                self._json(e.status, {"error": str(e)})

        def do_POST(self):
            path = self.path.split("?", 1)[0]
            self._raw = None
            self._drain()  # a timeout here ends the connection (handle_one_request)
            try:
                self._check_host()
                self._check_token()
                if path not in ("/act", "/new"):
                    raise WebError(404, f"no action {path}; POST /act or /new")
                body = self._body()
                if path == "/act":
                    if not isinstance(body, dict) or ("action" in body) == ("cards" in body):
                        raise WebError(
                            400,
                            'POST /act takes {"action": id or name, "step": n} or {"cards": '
                            '[card, ...], "step": n}',
                        )
                    step = body.get("step")
                    if step is not None and (isinstance(step, bool) or not isinstance(step, int)):
                        raise WebError(400, f"step must be an int, got {brief(step)}")
                    if "cards" in body:
                        game.act_cards(body["cards"], step)
                    else:
                        game.act(body["action"], step)
                else:
                    game.new()
            except WebError as e:
                self._json(e.status, {"error": str(e)})
                return
            except Exception as e:  # an opponent's failure, say: the page shows it
                self.log_error("%s failed: %r", path, e)
                self._json(500, {"error": f"the server failed: {type(e).__name__}: {e}"})
                return
            self._json(200, game.state())

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        """A client that went away (a reset or broken connection, a timeout) is no error of
        the server's: no traceback; anything else is reported as usual."""
        if isinstance(sys.exc_info()[1], OSError):
            return
        super().handle_error(request, client_address)


def make_server(
    env_id,
    seat,
    opponent,
    config=None,
    seed=None,
    host="127.0.0.1",
    port=0,
    record_path=None,
    quiet=True,
) -> ThreadingHTTPServer:
    """The server of one game (not yet serving): ``.url``, ``.game`` (the ``Game``), ``.token``
    (what the page sends back, see the module docstring), ``serve_forever()``, ``shutdown()``,
    ``server_close()``."""
    if host not in HOSTS:
        raise ValueError(
            f"host must be one of {list(HOSTS)} (the game binds 127.0.0.1 only), got {brief(host)}"
        )
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ValueError(f"port must be an int in 0..65535 (0: any free port), got {brief(port)}")
    game = Game(env_id, seat, opponent, config, seed, record_path)
    token = secrets.token_urlsafe(32)
    server = _Server(("127.0.0.1", port), _handler(game, quiet, token))
    server.game = game
    server.token = token
    server.url = f"http://127.0.0.1:{server.server_address[1]}/"
    return server


def _stop_on_signals() -> dict:
    """Make SIGTERM and SIGHUP raise ``KeyboardInterrupt`` in the main thread; returns the
    handlers they had (none is touched outside the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return {}

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            previous[sig] = signal.signal(sig, interrupt)
    return previous


def serve(
    env_id,
    seat,
    opponent,
    config=None,
    seed=None,
    host="127.0.0.1",
    port=0,
    record_path=None,
    open_browser=False,
    ready=None,
    stop=None,
    quiet=True,
) -> list[Path]:
    """Serve a game of ``env_id`` for seat ``seat`` against ``opponent`` (see the module
    docstring) until Ctrl-C or until ``stop`` (a ``threading.Event``) is set, then save the game
    if it is unfinished; returns the records saved. ``port`` 0 picks a free one; ``ready(url)``
    is called once the server listens; ``open_browser`` opens the page; ``quiet`` False logs
    every request."""
    server = make_server(env_id, seat, opponent, config, seed, host, port, record_path, quiet)
    print(f"{env_id}: you are player_{seat}; open {server.url} (Ctrl-C stops)", flush=True)
    try:
        if ready is not None:
            ready(server.url)
        if open_browser:
            webbrowser.open(server.url)
        if stop is None:
            # SIGTERM (``kill``) and SIGHUP (the terminal closed) stop it as Ctrl-C does, so the
            # unfinished game is saved then too
            previous = _stop_on_signals()
            try:
                server.serve_forever(poll_interval=0.2)
            except KeyboardInterrupt:
                pass
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)
        else:
            worker = threading.Thread(target=server.serve_forever, args=(0.2,), daemon=True)
            worker.start()
            stop.wait()
            server.shutdown()
            worker.join()
    finally:
        server.server_close()
        server.game.save_unfinished()  # prints where
    return list(server.game.saved)
