"""Hostile input against every surface of cardenvs that listens or loads: a seeded attack script.

    python -m benchmarks.attack                                  # 1,700 cases, seed 0
    python -m benchmarks.attack --seed 3 --cases 5000 --json attack.json
    python -m benchmarks.attack --surfaces web records --list    # every case and its outcome
    python -m benchmarks.attack --per-surface 15                 # 15 cases on each surface

Each case is ``(surface, name, outcome)``: ``ok`` (refused or handled as expected) or
``finding``, with a severity: ``security`` (a cross-site or rebinding request served, the hand
or the token served without the token, code run by a model file, hidden cards recoverable from a
seat's page, markup of a record unescaped in a page, a forged record that replays as another),
``data-loss`` (a record not saved or overwritten) or ``error-type`` (a traceback of the wrong
type, a 500 or no answer, a malformed value taken silently, a refusal without a message). The
output gives the cases per surface, every finding and every note (a case handled as expected,
with a remark); the exit code is 1 when there is a finding. The cases are a function of
``--seed`` (each surface draws from its own generator: ``--surfaces`` picks the same cases of a
surface as a run of all of them), and so are the outcomes (the server's token and the temporary
paths aside).

Surfaces (``--cases`` is shared among them in the proportions of ``WEIGHTS``, ``--per-surface``
gives each the same number; each has controls that must pass, a catalogue of hand-written cases,
a seeded sample of it when the budget is smaller, and seeded random cases beyond it):

- ``web``: ``cardenvs.web.make_server`` serving in a thread on 127.0.0.1 (a free port), raw HTTP
  over sockets: foreign ``Host`` headers (DNS rebinding), cross-site ``Origin``, missing or wrong
  tokens, other content types, malformed, huge, negative and non-ASCII ``Content-Length``,
  ``Transfer-Encoding``, deeply nested, non-JSON and non-UTF-8 bodies, ill-typed and
  out-of-range actions and steps, unknown paths and methods, ``HEAD``, malformed request lines
  and HTTP versions. Expected: a 4xx with a JSON ``{"error": ...}`` (an HTTP/0.9 request line
  gets its JSON body alone, as HTTP/0.9 has no status line; an HTTP version above 1.x gets
  505), never a 500 or a dropped connection; the game unchanged by a refused request; neither
  the hand nor the token in an answer to a request without the token or from a foreign host or
  origin. Also: the records the server saves (a finished game, then an unfinished one on
  ``POST /new``) never overwrite a file, and a bad ``record_path`` is refused before play.
- ``models``: files built in a temporary folder (empty, truncated, random bytes, ``.npy``,
  pickles and zips of pickles whose ``__reduce__`` would create a marker file, object arrays,
  members without ``.npy`` data, headers of the wrong types, missing fields, huge sizes, JSON
  nested 100,000 deep, non-finite or mis-shaped weights, random bytes changed; foreign models
  beside a valid one in a zoo folder), loaded by ``NumpyPolicy.load``, ``read_header``,
  ``agents.policy.PolicyAgent`` and ``cardenvs.zoo.list`` / ``load``. Expected: ``ValueError``
  naming the file (the loaders that read only the header may take a file whose weights are bad;
  a model of another game loads, and ``PolicyAgent`` refuses it); the marker never created.
- ``records``: mutations of records of random legal games (every id; finished, unfinished, ended
  on an illegal move, a later episode of a seed; single deals, a whole game, two deals): wrong
  types, missing fields, forged extras, swapped seats, illegal or other actions, huge episodes
  and seeds, unicode and markup, extra keys, deep nesting, random fields replaced. Expected:
  ``cardenvs.replay`` raises ``ValueError``, or replays, and then the record is its replay
  (every field of ``cardenvs.records.FIELDS`` and ``episode``, types included), or the replay
  is the original record (a note: an action name the replay reads in another spelling, such as
  upper case or trailing white space, which ``replay`` returns as the game writes it).
- ``viewer``: every seat's page (``cardenvs.view.html``) of the single-deal records: no seed,
  config, episode, deal or deck in its data, no integer of the page that re-deals the record's
  first deck as a seed (with episode 0 or the record's; a control finds the seed in the open
  page), no card the seat never saw in its data; markup (``<!--``, ``</script>``, U+2028,
  U+2029) in the strings of a record either refused or never in the page unescaped (four
  ``<script>`` elements, each closed once); ill-typed seats refused.
- ``cli``: ``main(argv)`` of ``cardenvs.play`` (stdin at its end: the game is left at once),
  ``cardenvs.view``, ``cardenvs.demo`` (single deals where a whole game is long),
  ``train.evaluate`` (one game) and ``train.ppo`` (``parse``, and two ``main`` calls that must
  stop before training, with a one-update budget should they not), in-process in a fresh folder:
  negative, huge and non-numeric numbers, unknown ids and options, bad and deeply nested JSON
  configs, paths that are folders, missing, existing, non-UTF-8 or hostile files. Expected:
  ``SystemExit`` 2 with an ``error:`` message, or a clean run; a game played saved its record,
  which replays; no file overwritten (``--record`` an existing file, the viewer's page over its
  own record); no pickle run. ``--web`` serves and stops at once; no browser is ever opened.
- ``wrappers``: ``SingleAgentEnv`` (and its opponents' actions), the SB3 ``VecEnv``
  (``sb3_vec_env``) and ``RLlibEnv`` (left out without Ray): actions of the wrong type, dtype,
  shape or range, bad constructor arguments and reset options. Expected: ``ValueError`` or
  ``TypeError`` with a message, the engine's state unchanged; never an ``IndexError``, never a
  non-integer action taken (a 0-d integer array is an integer; SB3's ``(num_envs, 1)`` batch
  of integers is its own convention).
- ``engine``: the batched engine's ``step``, ``reset`` (seeds, decks, dealers, episodes),
  ``reset_rows`` and constructor (every option of every id with values of the wrong type: taken
  or refused), and the AEC env's ``step`` and ``reset`` (an unknown reset option is ignored with
  a warning, as documented): the same expectations.

Every network call has a timeout, every server binds 127.0.0.1 and is stopped at the end, every
file is written in a temporary folder (``--keep DIR`` writes and keeps them there), and every
case has a deadline (``--case-timeout``, SIGALRM).
"""

from __future__ import annotations

import argparse
import builtins
import contextlib
import copy
import dataclasses
import http.client
import io
import json
import os
import pickle
import re
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import traceback
import warnings
import webbrowser
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # agents/ and train/ import from the checkout
    sys.path.insert(0, str(ROOT))

import cardenvs  # noqa: E402
from cardenvs.core.messages import brief  # noqa: E402
from cardenvs.core.rng import MAX_EPISODE, MAX_SEED  # noqa: E402

SURFACES = ("web", "models", "records", "viewer", "cli", "wrappers", "engine")
#: each surface's share of ``--cases`` (the default count is their sum)
WEIGHTS = {
    "web": 400,
    "models": 300,
    "records": 300,
    "viewer": 120,
    "cli": 220,
    "wrappers": 180,
    "engine": 180,
}
DEFAULT_CASES = sum(WEIGHTS.values())
SEVERITIES = ("security", "data-loss", "error-type")
NET_TIMEOUT = 10.0  # seconds: every socket of the web cases
CASE_TIMEOUT = 180.0  # seconds: a case's deadline
#: a string that must never reach a page unescaped (``<!--``, ``</script>``, U+2028, U+2029)
MARKUP = "<!--x--></script><script>window.attackMarker=1</script>\u2028\u2029"


# =============================================================================================
# Cases and outcomes
# =============================================================================================
class Finding(Exception):
    """A case's finding: ``severity`` (one of ``SEVERITIES``) and what happened."""

    def __init__(self, severity: str, detail: str):
        super().__init__(detail)
        self.severity = severity
        self.detail = detail


class Note(Exception):
    """A case handled as expected, with a remark for the report (outcome ``ok``)."""


class CaseTimeout(BaseException):
    """A case ran past its deadline (BaseException: product code catching Exception lets it
    through)."""


@dataclasses.dataclass
class Case:
    name: str
    run: Callable[[], None]  # raises Finding for a finding


@dataclasses.dataclass
class Outcome:
    surface: str
    name: str
    outcome: str  # "ok" or "finding"
    severity: str | None = None
    detail: str = ""
    seconds: float = 0.0


def short(text, n: int = 500) -> str:
    text = str(text)
    return text if len(text) <= n else text[: n // 2] + " ... " + text[-n // 2 :]


def where(exc: BaseException) -> str:
    """The innermost frame of ``exc``'s traceback inside the repository, outside this script."""
    frames = traceback.extract_tb(exc.__traceback__)
    mine = Path(__file__).resolve()
    inside = [
        f
        for f in frames
        if str(ROOT) in f.filename
        and Path(f.filename).resolve() != mine
        and ".venv" not in f.filename
    ]
    frame = (inside or frames or [None])[-1]
    if frame is None:
        return "?"
    name = frame.filename
    with contextlib.suppress(ValueError):
        name = str(Path(name).resolve().relative_to(ROOT))
    return f"{name}:{frame.lineno} in {frame.name}"


def describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {short(exc, 300)} (at {where(exc)})"


def refuses(
    call: Callable[[], object],
    types: tuple = (ValueError,),
    names: tuple = (),
    accept: bool = False,
    what: str = "",
):
    """Run ``call``: it must raise one of ``types`` with a message holding each of ``names``
    (``accept``: or return). Any other exception, or a return without ``accept``, is a finding
    of severity error-type. Returns what ``call`` returned (None when it raised)."""
    try:
        value = call()
    except Finding:
        raise
    except types as e:
        message = str(e)
        if not message.strip():
            raise Finding("error-type", f"{type(e).__name__} without a message") from None
        for name in names:
            if name not in message:
                raise Finding(
                    "error-type",
                    f"{type(e).__name__} does not name {name!r}: {short(message, 300)}",
                ) from None
        return None
    except Exception as e:  # noqa: BLE001 - the point: any other type is a finding
        expected = " or ".join(t.__name__ for t in types)
        raise Finding("error-type", f"{describe(e)}; expected {expected}") from None
    if not accept:
        raise Finding("error-type", f"accepted{what}: returned {short(brief(value), 200)}")
    return value


@contextlib.contextmanager
def deadline(seconds: float):
    """``CaseTimeout`` after ``seconds`` (SIGALRM, main thread only; elsewhere no deadline)."""
    usable = (
        seconds
        and hasattr(signal, "SIGALRM")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def fire(signum, frame):
        raise CaseTimeout(f"over {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_cases(surface: str, cases: list[Case], timeout: float) -> list[Outcome]:
    out = []
    for case in cases:
        t0 = time.perf_counter()
        try:
            with deadline(timeout):
                case.run()
        except Finding as f:
            got = Outcome(surface, case.name, "finding", f.severity, f.detail)
        except Note as note:
            got = Outcome(surface, case.name, "ok", None, f"note: {note}")
        except CaseTimeout:
            got = Outcome(surface, case.name, "finding", "error-type", f"took over {timeout} s")
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # noqa: BLE001 - SystemExit from a library is a finding too
            got = Outcome(surface, case.name, "finding", "error-type", describe(e))
        else:
            got = Outcome(surface, case.name, "ok")
        got.seconds = round(time.perf_counter() - t0, 3)
        out.append(got)
    return out


def choose(rng, catalogue: list[Case], fuzz, n: int, first=(), last=()) -> list[Case]:
    """``first``, then ``n - len(first) - len(last)`` cases (the catalogue, a seeded sample of
    it when that is fewer, ``fuzz(k)`` cases beyond it), then ``last``."""
    rest = max(0, n - len(first) - len(last))
    if rest < len(catalogue):
        picked = [catalogue[i] for i in sorted(rng.choice(len(catalogue), rest, replace=False))]
    else:
        picked = list(catalogue) + [fuzz(k) for k in range(rest - len(catalogue))]
    return [*first, *picked, *last][: max(n, 0)]


class Folders:
    """Fresh numbered folders under one temporary root."""

    def __init__(self, root: Path):
        self.root = root
        self.k = 0

    def new(self, tag: str = "case") -> Path:
        self.k += 1
        path = self.root / f"{tag}-{self.k:04d}"
        path.mkdir(parents=True)
        return path


# =============================================================================================
# Records of random legal games (the records, viewer and cli surfaces)
# =============================================================================================
#: (name, id, config, seed, how): how is "end", a number of actions to stop after, "illegal"
#: (an illegal move after 5 actions, penalized) or "episode2" (the seed's third game)
BASES = (
    ("piquet deal", "piquet-v0", {"episode": "deal"}, 48_123_457, "end"),
    ("piquet game", "piquet-v0", {}, 7_001, "end"),
    ("au cent 2 deals", "piquet_au_cent-v0", {"max_deals": 2}, 7_002, "end"),
    ("auction deal", "auction_piquet-v0", {"episode": "deal"}, 7_003, "end"),
    ("esel 3p deal", "esel-v0", {"episode": "deal", "num_players": 3}, 7_004, "end"),
    ("esel 2p deal", "esel-v0", {"episode": "deal", "num_players": 2}, 7_005, "end"),
    ("banque 3p deal", "banque-v0", {"episode": "deal", "num_players": 3}, 7_006, "end"),
    ("four aces 5p deal", "four_aces-v0", {"episode": "deal", "num_players": 5}, 7_007, "end"),
    ("normand deal", "piquet_normand-v0", {"episode": "deal"}, 7_008, "end"),
    ("partnership deal", "partnership_piquet-v0", {"episode": "deal"}, 7_009, "end"),
    ("piquet unfinished", "piquet-v0", {"episode": "deal"}, 7_010, 12),
    ("piquet illegal end", "piquet-v0", {"episode": "deal"}, 7_011, "illegal"),
    ("piquet episode 2", "piquet-v0", {"episode": "deal"}, 7_012, "episode2"),
)
_RECORDS: dict[str, dict] = {}


def base_records() -> dict[str, dict]:
    """``{name: record}`` of ``BASES`` (random legal actions from a generator seeded with the
    game's seed; made once per process)."""
    if _RECORDS:
        return _RECORDS
    for name, env_id, config, seed, how in BASES:
        env = cardenvs.make(env_id, **config)
        env.reset(seed=seed)
        if how == "episode2":
            env.reset()
            env.reset()
        core = env.unwrapped
        rng = np.random.default_rng(seed)
        n = 0
        while core.legal_actions():
            if how == "illegal" and n == 5:
                legal = set(core.legal_actions())
                env.step(next(a for a in range(core.game.num_actions) if a not in legal))
                break
            if isinstance(how, int) and n >= how:
                break
            env.step(int(rng.choice(core.legal_actions())))
            n += 1
        _RECORDS[name] = core.record()
    return _RECORDS


def same(a, b) -> bool:
    from cardenvs.records import _same

    return _same(a, b)


def claimed_differs(record: dict, out: dict) -> str | None:
    """Where ``record`` claims other than its replay ``out`` says (``cardenvs.records.FIELDS``
    and ``episode``, types included), or None."""
    from cardenvs.records import FIELDS

    for key in (*FIELDS, "episode"):
        default = 0 if key == "episode" else None
        said, got = record.get(key, default), out.get(key, default)
        if not same(said, got):
            return first_difference(said, got, [key])
    return None


def first_difference(a, b, path: list) -> str:
    """The first place where the JSON values ``a`` (the record) and ``b`` (the replay) differ."""
    for _ in range(64):
        if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
            key = next(k for k in a if not same(a[k], b[k]))
        elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
            key = next(i for i in range(len(a)) if not same(a[i], b[i]))
        else:
            break
        a, b = a[key], b[key]
        path.append(key)
    where = "".join(f"[{k!r}]" for k in path)
    return f"{where}: record {short(brief(a), 100)}, replay {short(brief(b), 100)}"


# =============================================================================================
# web
# =============================================================================================
OWN = object()  # the server's own Host / token / content type / length


class WebTarget:
    """A ``make_server`` game (piquet-v0, whole games, seat 0, seed 11) serving in a thread."""

    def __init__(
        self,
        folder: Path,
        record_name: str = "web-game.json",
        opponent_seed: int = 1,
        episode: str = "game",
    ):
        from cardenvs import web
        from cardenvs.play import RandomPlayer

        self.folder = folder
        self.server = web.make_server(
            "piquet-v0",
            0,
            RandomPlayer(opponent_seed),
            config={"episode": episode},
            seed=11,
            record_path=folder / record_name,
        )
        self.port = self.server.server_address[1]
        self.token = self.server.token
        self.own = f"127.0.0.1:{self.port}"
        self.game = self.server.game
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.thread.join(30)
        self.server.server_close()

    # -- the game, read in-process ------------------------------------------------------------
    def snapshot(self):
        g = self.game
        with g.lock:
            return g.games, g.step, len(g.log), json.dumps(g.core.record()["deals"])

    def legal(self) -> int:
        """A legal action of the human now (a new game first when this one is over)."""
        g = self.game
        with g.lock:
            if g.over():
                g.new()
            return g.state()["legal"][0]["id"]

    def illegal(self) -> int:
        g = self.game
        with g.lock:
            legal = {x["id"] for x in g.state()["legal"]}
            return next(a for a in range(g.core.game.num_actions) if a not in legal)

    def fill(self, value):
        """``value`` with ``{port}`` and ``{token}`` filled in (strings, bytes, lists)."""
        if isinstance(value, list):
            return [self.fill(v) for v in value]
        if isinstance(value, str):
            return value.replace("{port}", str(self.port)).replace("{token}", self.token)
        if isinstance(value, bytes):
            return value.replace(b"{port}", str(self.port).encode()).replace(
                b"{token}", self.token.encode()
            )
        return value

    # -- HTTP ---------------------------------------------------------------------------------
    def send(self, data: bytes, method: str = "GET"):
        """``(status, headers, body)`` of the answer to ``data`` sent on a new connection (its
        write side shut after it: the server reads to the end and closes); status 0 for an
        answer without a status line (HTTP/0.9: the body alone); ``(None, {}, why)`` when no
        answer came."""
        chunks = []
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=NET_TIMEOUT) as s:
                with contextlib.suppress(OSError):  # the server may answer before reading all
                    s.sendall(data)
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_WR)
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    chunks.append(chunk)
        except OSError as e:
            if not chunks:
                return None, {}, f"{type(e).__name__}: {e}".encode()
        answer = b"".join(chunks)
        if not answer:
            return None, {}, b"the connection closed without an answer"
        if not answer.startswith(b"HTTP/"):
            return 0, {}, answer
        try:
            r = http.client.HTTPResponse(_Replay(answer), method=method)
            r.begin()
            body = r.read()
        except (http.client.HTTPException, ValueError) as e:
            return (
                None,
                {},
                f"a malformed answer ({type(e).__name__}: {e}): {answer[:200]!r}".encode(),
            )
        return r.status, {k.lower(): v for k, v in r.getheaders()}, body


class _Replay:
    """Bytes received, as the socket ``http.client.HTTPResponse`` reads."""

    def __init__(self, data: bytes):
        self.file = io.BytesIO(data)

    def makefile(self, *args, **kwargs):
        return self.file


def _enc(x) -> bytes:
    return x if isinstance(x, bytes) else str(x).encode("utf-8")


def http_request(method, path, headers, body: bytes = b"", version: str = "HTTP/1.1") -> bytes:
    lines = [_enc(method) + b" " + _enc(path) + (b" " + _enc(version) if version else b"")]
    lines += [_enc(k) + b": " + _enc(v) for k, v in headers]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def _many(value) -> list:
    return value if isinstance(value, list) else [value]


def web_headers(t: WebTarget, body, host=OWN, origin=None, token=OWN, ctype=OWN, length=OWN):
    h = []
    if host is OWN:
        h.append(("Host", t.own))
    elif host is not None:
        h += [("Host", x) for x in _many(t.fill(host))]
    if origin is not None:
        h += [("Origin", x) for x in _many(t.fill(origin))]
    if token is OWN:
        h.append(("X-Cardenvs-Token", t.token))
    elif token is not None:
        h += [("X-Cardenvs-Token", x) for x in _many(t.fill(token))]
    if body is not None:
        if ctype is OWN:
            h.append(("Content-Type", "application/json"))
        elif ctype is not None:
            h.append(("Content-Type", ctype))
        if length is OWN:
            h.append(("Content-Length", str(len(body))))
        elif length is not None:
            h += [("Content-Length", x) for x in _many(length)]
    h.append(("Connection", "close"))
    return h


def web_case(
    t: WebTarget,
    name: str,
    method: str,
    path,
    *,
    expect,
    body=None,
    refused: bool = True,
    unauth: bool = False,
    version: str = "HTTP/1.1",
    raw: bytes | None = None,
    extra=(),
    check=None,
    **h,
) -> Case:
    """One request and its checks (see the module docstring). ``body``: bytes, or a callable
    ``(t) -> bytes`` made when the case runs (a legal action then); ``unauth``: the request
    lacks the token or comes from a foreign host or origin; ``refused``: the game must be
    unchanged; ``raw``: these bytes instead (an HTTP/0.9 answer: the body alone)."""
    expect = set(expect)

    def run():
        payload = body(t) if callable(body) else body  # first: it may start a new game
        before = t.snapshot()
        if raw is not None:
            data = t.fill(raw)
        else:
            headers = web_headers(t, payload, **h) + list(extra)
            data = http_request(method, t.fill(path), headers, payload or b"", version)
        status, head, text = t.send(data, method)
        after = t.snapshot()
        if status is None:
            raise Finding("error-type", f"no HTTP answer: {text.decode('utf-8', 'replace')}")
        shown = text.decode("utf-8", "replace")
        if unauth and 200 <= status < 300:
            raise Finding(
                "security", f"served {status} without the token or cross-site: {short(shown, 200)}"
            )
        if unauth and (t.token in shown or '"scene"' in shown or '"legal"' in shown):
            raise Finding(
                "security", f"answer {status} holds the token or the hand: {short(shown, 200)}"
            )
        if refused and after != before:
            raise Finding(
                "security" if unauth else "error-type",
                f"the game changed (step {before[1]} -> {after[1]}, games {before[0]} -> "
                f"{after[0]}) on a request answered {status}",
            )
        if status not in expect:
            raise Finding(
                "error-type", f"answered {status} (expected {sorted(expect)}): {short(shown, 300)}"
            )
        if (status >= 400 or status == 0) and method != "HEAD":
            if status and "application/json" not in head.get("content-type", ""):
                raise Finding("error-type", f"{status} answered as {head.get('content-type')!r}")
            try:
                reason = json.loads(shown).get("error")
            except (ValueError, AttributeError):
                reason = None
            if not isinstance(reason, str) or not reason:
                raise Finding(
                    "error-type",
                    f"{status or 'HTTP/0.9'} without a JSON reason: {short(shown, 200)}",
                )
        if check is not None:
            check(status, head, text)

    return Case(name, run)


def _allows_get_and_post(status, head, body) -> None:
    if "GET" not in head.get("allow", "") or "POST" not in head.get("allow", ""):
        raise Finding("error-type", f"405 without Allow: GET, POST: {head}")


def legal_body(t: WebTarget) -> bytes:
    return json.dumps({"action": t.legal(), "step": t.game.step}).encode()


def action_body(value=None, step=None, text=None):
    """A ``POST /act`` body: ``{"action": value}`` (``text``: the action's JSON text as is; a
    callable ``value(t)`` is called when the case runs), with ``step`` when given."""

    def make(t: WebTarget) -> bytes:
        t.legal()  # a game in progress
        v = value(t) if callable(value) else value
        action = text if text is not None else json.dumps(v)
        s = "" if step is None else f', "step": {json.dumps(step(t) if callable(step) else step)}'
        return f'{{"action": {action}{s}}}'.encode()

    return make


FOREIGN_HOSTS = [
    "evil.example",
    "evil.example:{port}",
    "127.0.0.1:1",
    "localhost",
    "127.0.0.1",
    "[::1]:{port}",
    "",
    "127.0.0.1:{port}.evil.example",
    "evil.example#@127.0.0.1:{port}",
    "127.0.0.2:{port}",
    "0.0.0.0:{port}",
    "localhost.:{port}",
    "127.1:{port}",
    "2130706433:{port}",
    "l\u043ecalhost:{port}",
    "127.0.0.1:0{port}",
    "127.0.0.1:+{port}",
    "http://127.0.0.1:{port}",
    "127.0.0.1:{port} evil.example",
    ["127.0.0.1:{port}", "evil.example"],
    ["127.0.0.1:{port}", "127.0.0.1:{port}"],
    None,  # no Host header
]
FOREIGN_ORIGINS = [
    "http://evil.example",
    "null",
    "http://127.0.0.1:1",
    "https://127.0.0.1:{port}",
    "x",
    "http://127.0.0.1:{port}.evil.example",
    "http://localhost:{port}",
    "http://127.0.0.1:{port}/",
    "",
    "http://127.0.0.1:{port}@evil.example",
    "file://",
    ["http://127.0.0.1:{port}", "http://evil.example"],
    ["http://127.0.0.1:{port}", "http://127.0.0.1:{port}"],
]
BAD_TOKENS = [
    None,
    "",
    "x",
    "{token}x",
    "Bearer {token}",
    "{token}{token}",
    "\u00e9",
    b"\xff\xfe{token}",
    "a" * 5000,
    ["x", "{token}"],
    "{token}\x00",
    "{token},{token}",
]
BAD_CTYPES = [
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    None,
    "",
    "application/json5",
    "application/jsonp",
    "text/json",
    "application/ld+json",
    "json",
    "application/javascript",
    "text/plain; application/json",
    "application/json\x00",
]
BAD_LENGTHS = [
    None,
    "-1",
    "-2",
    "abc",
    "\u00b2",
    "\u0662".encode(),
    "0x2",
    "1e3",
    "+2",
    "2.0",
    "99999999999999999999",
    "4097",
    "100000",
    "",
    " ",
    "2, 2",
    ["2", "2"],
    ["2", "3"],
    "1" * 13,
]
MALFORMED = [  # bodies no JSON parser reads as a value
    ("arrays nested 2000 deep", b"[" * 2000 + b"]" * 2000),
    ("objects nested 1000 deep", b'{"a":' * 1000 + b"1" + b"}" * 1000),
    ("action nested 1500 deep", b'{"action": ' + b"[" * 1500 + b"]" * 1500 + b"}"),
    ("not JSON", b"{oops"),
    ("non-UTF-8", b"\xff\xfe"),
    ("UTF-16 JSON", '{"action": 1}'.encode("utf-16")),
    ("a UTF-8 BOM", b"\xef\xbb\xbf{}"),
    ("NUL bytes", b"\x00" * 10),
    ("trailing garbage", b"{}x"),
    ("a trailing comma", b"[1,]"),
    ("single quotes", b"{'action': 1}"),
    ("an unterminated string", b'"abc'),
    ("a lone surrogate byte", b'{"action": "\xed\xa0\x80"}'),
]
NOT_AN_ACT = [  # JSON that is no {"action": ...} object
    ("null", b"null"),
    ("a list", b"[]"),
    ("a string", b'"play"'),
    ("a number", b"1"),
    ("true", b"true"),
    ("NaN", b"NaN"),
    ("an object without action", b'{"x": 1}'),
    ("whitespace only", b"   "),
    ("empty", b""),
]


def bad_actions() -> list[tuple[str, Callable]]:
    """``(name, body maker)`` for ``POST /act``: actions and steps of the wrong type or range."""
    n = cardenvs.game_info("piquet-v0").num_actions
    values = [
        ("-1", -1),
        ("num_actions", n),
        ("num_actions + 1000", n + 1000),
        ("10**30", 10**30),
        ("-10**30", -(10**30)),
        ("1.5", 1.5),
        ("True", True),
        ("False", False),
        ("null", None),
        ("empty string", ""),
        ("blank string", " "),
        ("an unknown name", "nonsense"),
        ("a digit string", "1"),
        ("U+2028", "\u2028"),
        ("markup", MARKUP),
        ("a long string", "a" * 3000),
        ("a list", [0]),
        ("an object", {"id": 0}),
    ]
    out = [(f"action {name}", action_body(v)) for name, v in values]
    out += [
        ("action NaN", action_body(text="NaN")),
        ("action Infinity", action_body(text="Infinity")),
        ("action -Infinity", action_body(text="-Infinity")),
        ("action 1e999", action_body(text="1e999")),
        ("action of 4000 digits", action_body(text="9" * 4000)),
        ("action: a legal id as a float", action_body(text=None, value=lambda t: float(t.legal()))),
        ("action: a legal id as a list", action_body(value=lambda t: [t.legal()])),
        ("action: a legal id as a string", action_body(value=lambda t: str(t.legal()))),
        ("action: an illegal id", action_body(value=lambda t: t.illegal())),
        (
            "action: an illegal action's name",
            action_body(value=lambda t: t.game.core.action_name(t.illegal())),
        ),
    ]
    steps = [
        ("-1", -1),
        ("the next step", lambda t: t.game.step + 1),
        ("a string", "0"),
        ("1.5", 1.5),
        ("True", True),
        ("a list", []),
        ("an object", {}),
        ("10**30", 10**30),
        ("a float of the step", lambda t: float(t.game.step)),
    ]
    out += [(f"step {name}", action_body(value=lambda t: t.legal(), step=s)) for name, s in steps]
    return out


GET_UNKNOWN = [
    "/index.html",
    "/state/",
    "/../etc/passwd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/state%00",
    "/act",
    "/new",
    "/" + "a" * 5000,
    b"/\xc3\xa9",
    "/state;x",
    "/STATE",
    "/favicon.ico",
    "*",
    "http://evil.example/state",
    "/state%0d%0aSet-Cookie:%20x=1",
]
POST_UNKNOWN = ["/", "/state", "/act/", "/new/", "/reset", "/ACT", "/../act", "*"]
METHODS = ["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "FOO", "get"]


def web_catalogue(t: WebTarget) -> list[Case]:
    cases = []
    add = cases.append
    new_body = b"{}"
    targets = [
        ("GET /", "GET", "/", None),
        ("GET /state", "GET", "/state", None),
        ("POST /act", "POST", "/act", legal_body),
        ("POST /new", "POST", "/new", new_body),
    ]
    for host in FOREIGN_HOSTS:
        for label, method, path, body in targets:
            add(
                web_case(
                    t,
                    f"Host {brief(host)}: {label}",
                    method,
                    path,
                    body=body,
                    host=host,
                    expect={421},
                    unauth=True,
                )
            )
    for origin in FOREIGN_ORIGINS:
        for label, method, path, body in targets:
            add(
                web_case(
                    t,
                    f"Origin {brief(origin)}: {label}",
                    method,
                    path,
                    body=body,
                    origin=origin,
                    expect={403},
                    unauth=True,
                )
            )
    for token in BAD_TOKENS:
        for label, method, path, body in targets[1:]:
            add(
                web_case(
                    t,
                    f"token {short(brief(token), 40)}: {label}",
                    method,
                    path,
                    body=body,
                    token=token,
                    expect={403},
                    unauth=True,
                )
            )
    add(
        web_case(
            t,
            "token in the query, not the header: GET /state?token=",
            "GET",
            "/state?token={token}",
            token=None,
            expect={403},
            unauth=True,
        )
    )
    add(
        web_case(
            t,
            "token in a cookie: GET /state",
            "GET",
            "/state",
            token=None,
            extra=[("Cookie", "X-Cardenvs-Token={token}")],
            expect={403},
            unauth=True,
        )
    )
    for ctype in BAD_CTYPES:
        for label, method, path, body in targets[2:]:
            add(
                web_case(
                    t,
                    f"Content-Type {brief(ctype)}: {label}",
                    method,
                    path,
                    body=body,
                    ctype=ctype,
                    expect={415},
                )
            )
    for ctype in ("APPLICATION/JSON", "application/json; charset=utf-8", " application/json "):
        add(
            web_case(
                t,
                f"Content-Type {ctype!r} with an illegal action",
                "POST",
                "/act",
                body=action_body(value=lambda t: t.illegal()),
                ctype=ctype,
                expect={409},
            )
        )
    for length in BAD_LENGTHS:
        add(
            web_case(
                t,
                f"Content-Length {brief(length)}: POST /act",
                "POST",
                "/act",
                body=b"",
                length=length,
                expect={400, 411, 413},
            )
        )
    add(
        web_case(
            t,
            "Transfer-Encoding chunked: POST /act",
            "POST",
            "/act",
            body=b"",
            length=None,
            extra=[("Transfer-Encoding", "chunked")],
            expect={411},
        )
    )
    add(
        web_case(
            t,
            "Transfer-Encoding and Content-Length: POST /new",
            "POST",
            "/new",
            body=b"",
            extra=[("Transfer-Encoding", "chunked")],
            expect={411},
        )
    )
    add(
        web_case(
            t,
            "Content-Length shorter than the body: POST /new",
            "POST",
            "/new",
            body=b"[1]",
            length="2",
            expect={400},
        )
    )
    add(
        web_case(
            t,
            "Content-Length longer than the body: POST /new",
            "POST",
            "/new",
            body=b"[1",
            length="100",
            expect={400},
        )
    )
    for label, body in MALFORMED:
        for path in ("/act", "/new"):
            add(
                web_case(
                    t, f"body {label}: POST {path}", "POST", path, body=body, expect={400, 413}
                )
            )
    for label, body in NOT_AN_ACT:
        add(web_case(t, f"body {label}: POST /act", "POST", "/act", body=body, expect={400}))
    for label, body in bad_actions():
        add(web_case(t, f"{label}: POST /act", "POST", "/act", body=body, expect={400, 409}))
    for path in GET_UNKNOWN:
        add(web_case(t, f"GET {short(brief(path), 50)}", "GET", path, expect={404}))
        add(
            web_case(
                t,
                f"GET {short(brief(path), 50)} without the token",
                "GET",
                path,
                token=None,
                expect={404},
                unauth=True,
            )
        )
    for path in POST_UNKNOWN:
        add(web_case(t, f"POST {path}", "POST", path, body=legal_body, expect={404}))
    for method in METHODS:
        for path in ("/", "/act", "*"):
            add(
                web_case(
                    t,
                    f"{method} {path}",
                    method,
                    path,
                    body=b"{}",
                    expect={405},
                    check=_allows_get_and_post,
                )
            )
    for path in ("/", "/state"):
        add(web_case(t, f"HEAD {path}", "HEAD", path, expect={405}))
    own = "Host: 127.0.0.1:{port}\r\nX-Cardenvs-Token: {token}\r\nConnection: close\r\n"
    malformed = [
        ("a request line of one word", b"GET\r\n\r\n", {0}),
        ("an HTTP/0.9 GET", b"GET /state\r\n", {0}),
        ("an HTTP/0.9 POST", b"POST /act\r\n", {0}),
        ("HTTP/9.9", f"GET /state HTTP/9.9\r\n{own}\r\n".encode(), {0, 505}),
        ("HTTP/1.x", f"GET /state HTTP/1.x\r\n{own}\r\n".encode(), {0, 400}),
        ("a foreign protocol", f"GET /state FOO/1.1\r\n{own}\r\n".encode(), {0, 400}),
        ("four words", f"GET /a b HTTP/1.1\r\n{own}\r\n".encode(), {400}),
        ("a URL of 70000 bytes", b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n", {414}),
        (
            "120 headers",
            b"GET /state HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(120)) + b"\r\n",
            {431},
        ),
        (
            "a header of 70000 bytes",
            b"GET /state HTTP/1.1\r\nX: " + b"a" * 70000 + b"\r\n\r\n",
            {431},
        ),
        (
            "a TLS ClientHello",
            b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 40,
            {0, 400},
        ),
        ("a NUL in the path", f"GET /\x00 HTTP/1.1\r\n{own}\r\n".encode(), {404}),
    ]
    for label, data, expect in malformed:
        add(
            web_case(
                t,
                f"malformed: {label}",
                "GET",
                "/",
                raw=data,
                expect=expect,
                unauth=True,
            )
        )
    return cases


def web_fuzz(t: WebTarget, rng) -> Callable[[int], Case]:
    """Random hostile requests: one to three hostile parts (host, origin, token, path, content
    type, length, body), the rest as the page sends them; the answer must be one of the
    statuses of the hostile parts, the game unchanged."""
    acts = bad_actions()

    def pick(seq):
        return seq[int(rng.integers(len(seq)))]

    def make(k: int) -> Case:
        method = "GET" if rng.random() < 0.3 else "POST"
        path = "/state" if method == "GET" else pick(["/act", "/new"])
        parts = ["host", "origin", "token", "path"]
        if method == "POST":
            parts += ["ctype", "length", "body"]
        hostile = [
            parts[i] for i in sorted(rng.choice(len(parts), int(rng.integers(1, 4)), replace=False))
        ]
        h: dict = {}
        expect: set = set()
        unauth = False
        label = []
        body = None
        if method == "POST":
            body = legal_body if path == "/act" else b"{}"
        if rng.random() < 0.3 and "origin" not in hostile:
            h["origin"] = "http://127.0.0.1:{port}"
        for part in hostile:
            if part == "host":
                h["host"] = pick(FOREIGN_HOSTS)
                expect.add(421)
                unauth = True
                label.append(f"Host {short(brief(h['host']), 30)}")
            elif part == "origin":
                h["origin"] = pick(FOREIGN_ORIGINS)
                expect.add(403)
                unauth = True
                label.append(f"Origin {short(brief(h['origin']), 30)}")
            elif part == "token":
                h["token"] = pick(BAD_TOKENS)
                expect.add(403)
                unauth = True
                label.append(f"token {short(brief(h['token']), 20)}")
            elif part == "path":
                path = pick(GET_UNKNOWN if method == "GET" else POST_UNKNOWN)
                expect.add(404)
                label.append(f"path {short(brief(path), 30)}")
            elif part == "ctype":
                h["ctype"] = pick(BAD_CTYPES)
                expect.add(415)
                label.append(f"Content-Type {brief(h['ctype'])}")
            elif part == "length":
                h["length"] = pick(BAD_LENGTHS)
                body = b""
                expect |= {400, 411, 413}
                label.append(f"Content-Length {brief(h['length'])}")
            elif part == "body" and "length" not in hostile:
                if path == "/act" and rng.random() < 0.6:
                    name, body = pick(acts)
                    expect |= {400, 409}
                else:
                    name, body = pick(MALFORMED)
                    expect |= {400, 413}
                label.append(f"body {name}")
        if not expect:  # "body" drawn with "length": the length is the hostile part
            expect = {400, 411, 413}
        name = f"fuzz {k}: {method} {short(brief(path), 30)}, " + ", ".join(label)
        return web_case(t, name, method, path, body=body, expect=expect, unauth=unauth, **h)

    return make


def web_controls(t: WebTarget) -> list[Case]:
    """What the page does is served: the harness's refusals mean something."""

    def page():
        status, _, text = t.send(http_request("GET", "/", web_headers(t, None, token=None)))
        if status != 200 or t.token.encode() not in text:
            raise Finding(
                "error-type",
                f"GET / of the own host: {status}, token in it: {t.token.encode() in text}",
            )

    def state():
        status, _, text = t.send(http_request("GET", "/state", web_headers(t, None)))
        if status != 200 or b'"scene"' not in text:
            raise Finding("error-type", f"GET /state with the token: {status} {short(text, 200)}")

    def act():
        before = t.game.step
        body = legal_body(t)
        status, _, text = t.send(http_request("POST", "/act", web_headers(t, body), body), "POST")
        if status != 200 or t.game.step <= before:
            raise Finding("error-type", f"POST /act of a legal action: {status} {short(text, 200)}")

    def localhost():
        h = web_headers(t, None, host="LOCALHOST:{port}", origin="http://localhost:{port}")
        status, _, text = t.send(http_request("GET", "/state", h))
        if status != 200:
            raise Finding("error-type", f"GET /state as localhost: {status} {short(text, 200)}")

    return [
        Case("control: GET / of the own host serves the page with its token", page),
        Case("control: GET /state with the token serves the state", state),
        Case("control: POST /act of a legal action plays it", act),
        Case("control: LOCALHOST:port with its own origin is served", localhost),
    ]


def web_saves(folders: Folders) -> list[Case]:
    """The records the web game writes: never over a file, the unfinished game saved."""

    def lifecycle():
        folder = folders.new("web-life")
        (folder / "life-2.json").write_text("keep")
        t = WebTarget(folder, "life.json", opponent_seed=2, episode="deal")
        try:
            # game 1 (a whole game of seed 11): the page's legal moves to the end
            guard = 0
            while not t.game.over():
                body = json.dumps({"action": t.game.state()["legal"][0]["id"]}).encode()
                status, _, text = t.send(
                    http_request("POST", "/act", web_headers(t, body), body), "POST"
                )
                if status != 200:
                    raise Finding(
                        "error-type", f"a legal move answered {status}: {short(text, 200)}"
                    )
                guard += 1
                if guard > 2000:
                    raise Finding("error-type", "game 1 does not end")
            for _ in range(2):  # game 2: one move, then a new game (game 2 saved unfinished)
                body = b"{}"
                status, _, _ = t.send(
                    http_request("POST", "/new", web_headers(t, body), body), "POST"
                )
                if status != 200:
                    raise Finding("error-type", f"POST /new answered {status}")
                if t.game.games == 2:
                    body = json.dumps({"action": t.game.state()["legal"][0]["id"]}).encode()
                    t.send(http_request("POST", "/act", web_headers(t, body), body), "POST")
        finally:
            t.close()
        if (folder / "life-2.json").read_text() != "keep":
            raise Finding("data-loss", "the web game overwrote life-2.json")
        saved = sorted(p.name for p in folder.iterdir())
        first, second = folder / "life.json", folder / "life-2-2.json"
        for path, finished in ((first, True), (second, False)):
            if not path.is_file():
                raise Finding("data-loss", f"{path.name} was not saved; the folder holds {saved}")
            record = json.loads(path.read_text())
            if (record["result"] is not None) != finished:
                raise Finding("data-loss", f"{path.name}: result {record['result']!r}")
            cardenvs.replay(record)

    def checked_first(kind):
        def run():
            from cardenvs import web
            from cardenvs.play import RandomPlayer

            folder = folders.new("web-path")
            (folder / "old.json").write_text("keep")
            path = {
                "an existing file": folder / "old.json",
                "a directory": folder,
                "a missing directory": folder / "missing" / "g.json",
            }[kind]
            refuses(
                lambda: web.make_server(
                    "piquet-v0", 0, RandomPlayer(0), record_path=path
                ).server_close(),
                names=("record_path",),
            )
            if (folder / "old.json").read_text() != "keep":
                raise Finding("data-loss", "make_server overwrote old.json")

        return run

    return [
        Case(
            "saves: a finished and an unfinished game, next to a file it must not overwrite",
            lifecycle,
        ),
        *(
            Case(f"saves: record_path {kind} is refused before play", checked_first(kind))
            for kind in ("an existing file", "a directory", "a missing directory")
        ),
    ]


def surface_web(rng, n: int, folders: Folders, timeout: float) -> list[Outcome]:
    t = WebTarget(folders.new("web"))
    try:
        cases = choose(
            rng,
            web_catalogue(t),
            web_fuzz(t, rng),
            n,
            first=web_controls(t),
            last=[
                Case("control: the server still answers after every case", web_controls(t)[1].run),
                *web_saves(folders),
            ],
        )
        return run_cases("web", cases, timeout)
    finally:
        t.close()


# =============================================================================================
# models
# =============================================================================================
class Marker:
    """Unpickled, creates the file ``path`` (``open(path, "w")``): code a model must not run."""

    def __init__(self, path: str):
        self.path = path

    def __reduce__(self):
        return (builtins.open, (self.path, "w"))


class ModelLab:
    """A valid piquet-v0 model (an MLP of one hidden layer of 8), and writers of its hostile
    variants."""

    GAME = "piquet-v0"

    def __init__(self):
        from cardenvs.policy import FORMAT, FORMAT_VERSION, actions_id, layout_id

        info = cardenvs.game_info(self.GAME)
        self.header = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.GAME,
            "config": {"episode": "deal"},
            "obs_dim": int(info.obs_dim),
            "num_actions": int(info.num_actions),
            "obs_layout": layout_id(self.GAME),
            "actions": actions_id(self.GAME),
            "net": {"hidden": [8], "activation": "tanh"},
            "command": "benchmarks.attack",
            "timesteps": 0,
            "zoo": {"name": "attack", "play_config": {}, "evaluation": {}},
        }
        rng = np.random.default_rng(0)
        self.arrays = {}
        for prefix, out in (("pi", info.num_actions), ("vf", 1)):
            sizes = [info.obs_dim, 8, out]
            for k in range(2):
                w = rng.standard_normal((sizes[k + 1], sizes[k])).astype(np.float32) * 0.1
                self.arrays[f"{prefix}.{k}.weight"] = w
                self.arrays[f"{prefix}.{k}.bias"] = np.zeros(sizes[k + 1], np.float32)

    def write(self, path: Path, header=None, arrays=None, header_array=None, drop=()) -> None:
        entries = dict(self.arrays if arrays is None else arrays)
        if header_array is None:
            header_array = np.array(json.dumps(self.header if header is None else header))
        entries["header"] = header_array
        for key in drop:
            entries.pop(key, None)
        with open(path, "wb") as f:
            np.savez(f, **entries)

    def valid_bytes(self, folder: Path) -> bytes:
        path = folder / "valid.npz"
        self.write(path)
        return path.read_bytes()


def _header_with(lab: ModelLab, **changes) -> dict:
    h = copy.deepcopy(lab.header)
    for key, value in changes.items():
        if value is _DROP:
            h.pop(key, None)
        else:
            h[key] = value
    return h


_DROP = object()


def model_variants(lab: ModelLab) -> list[tuple[str, Callable, str]]:
    """``(name, writer(path, marker), kind)``: kind "bad" (every loader refuses it, naming the
    file), "arrays" (a well-formed header but bad weights: the loaders that read the weights
    refuse it, naming the file), "foreign" (a well-formed model of another game or layout: the
    agent refuses it), "either" (well-formed enough: loading may succeed)."""
    v: list[tuple[str, Callable, str]] = []

    def header(name, kind="bad", **changes):
        v.append((f"header {name}", lambda p, m: lab.write(p, _header_with(lab, **changes)), kind))

    def net(name, value, kind="bad"):
        header(f"net {name}", kind, net=value)

    from cardenvs.policy import HEADER_FIELDS

    for field in HEADER_FIELDS:
        header(f"without {field!r}", **{field: _DROP})
    for value in ("other", 1, None):
        header(f"format {brief(value)}", format=value)
    for value in (2, "1", 1.0, True, None, 10**30):
        header(f"format_version {brief(value)}", format_version=value)
    for value in (1, None, ["piquet-v0"]):
        header(f"game {brief(value)}", game=value)
    header("game of an unknown id", "foreign", game="nonexistent-v0")
    header("game of another id", "foreign", game="esel-v0")
    for value in ([], "x", None):
        header(f"config {brief(value)}", config=value)
    for key in ("obs_dim", "num_actions"):
        for value in (0, -1, "5", 5.0, True, None):
            header(f"{key} {brief(value)}", **{key: value})
        for value in (10**12, 2**63, 10**100):
            header(f"{key} {brief(value)}", "arrays", **{key: value})
    for key in ("obs_layout", "actions"):
        for value in (1, None):
            header(f"{key} {brief(value)}", **{key: value})
        header(f"{key} of another layout", "foreign", **{key: "sha256:0000000000000000"})
    for name, value in (
        ("a list", []),
        ("a string", "x"),
        ("hidden a string", {"hidden": "8", "activation": "tanh"}),
        ("hidden [0]", {"hidden": [0], "activation": "tanh"}),
        ("hidden [-1]", {"hidden": [-1], "activation": "tanh"}),
        ("hidden [8.0]", {"hidden": [8.0], "activation": "tanh"}),
        ("hidden [true]", {"hidden": [True], "activation": "tanh"}),
        ("activation sigmoid", {"hidden": [8], "activation": "sigmoid"}),
        ("activation null", {"hidden": [8], "activation": None}),
        ("without activation", {"hidden": [8]}),
    ):
        net(name, value)
    for name, value in (
        ("hidden [10**9]", {"hidden": [10**9], "activation": "tanh"}),
        ("hidden [8, 8]", {"hidden": [8, 8], "activation": "tanh"}),
        ("hidden []", {"hidden": [], "activation": "tanh"}),
    ):
        net(name, value, "arrays")

    def header_text(name, text, kind="bad"):
        v.append(
            (f"header text {name}", lambda p, m: lab.write(p, header_array=np.array(text)), kind)
        )

    header_text("a list", "[]")
    header_text("a number", "1")
    header_text("null", "null")
    header_text("not JSON", "{")
    header_text("NaN", "NaN")
    header_text("nested 100000 deep", "[" * 100_000 + "]" * 100_000)
    header_text("an object nested 100000 deep", '{"a":' * 100_000 + "1" + "}" * 100_000)
    header_text("of U+2028 and markup", json.dumps(MARKUP))
    v.append(
        (
            "header of 1 MB (a long command)",
            lambda p, m: lab.write(p, _header_with(lab, command="x" * 1_000_000)),
            "either",
        )
    )
    v.append(
        (
            "header as bytes",
            lambda p, m: lab.write(p, header_array=np.bytes_(json.dumps(lab.header).encode())),
            "bad",
        )
    )
    v.append(
        (
            "header a 1-d array",
            lambda p, m: lab.write(p, header_array=np.array([json.dumps(lab.header)])),
            "bad",
        )
    )
    v.append(("header an int array", lambda p, m: lab.write(p, header_array=np.arange(3)), "bad"))

    def obj_header(p, m):
        a = np.empty((), object)
        a[()] = Marker(m)
        lab.write(p, header_array=a)

    v.append(("header a pickled object (marker)", obj_header, "bad"))
    v.append(("without a header", lambda p, m: lab.write(p, drop=("header",)), "bad"))

    def weights(name, key, value, kind="arrays"):
        def write(p, m):
            arrays = dict(lab.arrays)
            arrays[key] = value(arrays[key], m) if callable(value) else value
            lab.write(p, arrays=arrays)

        v.append((f"{key} {name}", write, kind))

    def filled(x):
        return lambda a, m: np.full_like(a, x)

    weights("nan", "pi.0.weight", filled(np.nan))
    weights("inf", "pi.1.bias", filled(np.inf))
    weights("-inf", "vf.0.weight", filled(-np.inf))
    weights("1e39 (beyond float32)", "pi.0.weight", lambda a, m: np.full(a.shape, 1e39))
    weights("bool", "pi.0.weight", lambda a, m: a > 0)
    weights("complex", "pi.0.weight", lambda a, m: a.astype(np.complex64))
    weights("strings", "pi.0.bias", lambda a, m: a.astype(str))
    weights("transposed", "pi.0.weight", lambda a, m: a.T.copy())
    weights("3-d", "pi.0.weight", lambda a, m: a[None])
    weights("0-d", "pi.0.bias", np.float32(0))
    weights("empty", "pi.1.weight", np.zeros((0, 8), np.float32))
    weights("int", "pi.0.weight", lambda a, m: (a * 10).astype(np.int32), "either")
    weights("float16", "pi.0.weight", lambda a, m: a.astype(np.float16), "either")
    weights("3e38 (finite)", "pi.1.weight", lambda a, m: np.full_like(a, 3e38), "either")

    def obj_weights(a, m):
        b = np.empty(a.shape[:1], object)
        b[0] = Marker(m)
        return b

    weights("a pickled object array (marker)", "pi.0.weight", obj_weights)
    for key in ("pi.0.bias", "vf.1.weight"):
        v.append((f"without {key}", lambda p, m, key=key: lab.write(p, drop=(key,)), "arrays"))

    def extra(key, kind):
        def write(p, m):
            arrays = dict(lab.arrays)
            arrays[key] = np.zeros((3, 3), np.float32)
            lab.write(p, arrays=arrays)

        v.append((f"an extra array {key!r}", write, kind))

    extra("pi.2.weight", "arrays")
    extra("vf.9.bias", "arrays")
    extra("foo", "either")

    # files that are no model at all
    def data(name, make):
        v.append((name, make, "bad"))

    data("an empty file", lambda p, m: p.write_bytes(b""))
    data("random bytes", lambda p, m: p.write_bytes(np.random.default_rng(1).bytes(5000)))
    data("a zip signature and garbage", lambda p, m: p.write_bytes(b"PK\x03\x04" + b"\x00" * 100))
    data("a .npy array", lambda p, m: _npy(p, np.zeros(3)))
    data("a .npy object array (marker)", lambda p, m: _npy(p, np.array([Marker(m)], object)))
    data("a pickle (marker)", lambda p, m: p.write_bytes(pickle.dumps(Marker(m))))
    data("JSON text", lambda p, m: p.write_text(json.dumps(lab.header)))

    def zipped(entries):
        def write(p, m):
            with zipfile.ZipFile(p, "w") as z:
                for name, content in entries(m).items():
                    z.writestr(name, content)

        return write

    data("a zip of garbage entries", zipped(lambda m: {"a.txt": b"x", "header": b"y"}))
    data(
        "a zip whose header.npy is random",
        zipped(lambda m: {"header.npy": np.random.default_rng(2).bytes(300)}),
    )
    data(
        "a zip whose header.npy is a pickle (marker)",
        zipped(lambda m: {"header.npy": pickle.dumps(Marker(m))}),
    )
    data("a zip holding a zip", zipped(lambda m: {"inner.zip": b"PK\x05\x06" + b"\x00" * 18}))
    data(
        "an SB3-like zip of pickles (marker)",
        zipped(
            lambda m: {
                "data": b"{}",
                "policy.pth": pickle.dumps(Marker(m)),
                "pytorch_variables.pth": pickle.dumps(Marker(m)),
            }
        ),
    )

    def truncated(frac):
        def write(p, m):
            full = lab.valid_bytes(p.parent)
            p.write_bytes(full[: max(1, int(len(full) * frac))])

        return write

    for frac in (0.001, 0.1, 0.5, 0.9, 0.999):
        data(f"the model truncated to {frac:.1%}", truncated(frac))
    return v


def _npy(path: Path, array: np.ndarray) -> None:
    with open(path, "wb") as f:
        np.save(f, array, allow_pickle=True)


def model_entries(lab: ModelLab):
    """The loaders: ``(name, call(path), checks the game, reads the weights)``."""
    from agents.policy import PolicyAgent
    from cardenvs import zoo
    from cardenvs.policy import NumpyPolicy, read_header

    def zoo_list(path: Path):
        # the case's folder: the file and a valid zoo model beside it
        lab.write(path.parent / "aaa-valid.npz")
        return zoo.list(path.parent)

    # (name, call, checks the game, reads the weights)
    return [
        ("NumpyPolicy.load", NumpyPolicy.load, False, True),
        ("read_header", read_header, False, False),
        ("PolicyAgent", lambda p: PolicyAgent(p, lab.GAME), True, True),
        ("zoo.list", zoo_list, False, False),
    ]


def model_case(lab, folders, variant, entry, file_name="model.npz") -> Case:
    (vname, write, kind), (ename, load, agent, weights) = variant, entry

    def run():
        folder = folders.new("model")
        path = folder / file_name
        marker = folder / "MARKER"
        write(path, str(marker))
        try:
            if kind == "bad" or (kind == "arrays" and weights):
                refuses(lambda: load(path), names=(path.name,))
            elif kind == "foreign" and agent:
                refuses(lambda: load(path))
            else:
                refuses(lambda: load(path), accept=True)
        finally:
            if marker.exists():
                raise Finding(
                    "security", f"loading {vname} with {ename} ran its pickle (the marker exists)"
                )

    return Case(f"{ename}: {vname}", run)


def model_extra_cases(lab: ModelLab, folders: Folders) -> list[Case]:
    from agents.policy import PolicyAgent
    from cardenvs import zoo
    from cardenvs.policy import NumpyPolicy

    cases = []

    def agent_suffix(suffix, trusted=False):
        def run():
            folder = folders.new("model")
            path = folder / f"model{suffix}"
            marker = folder / "MARKER"
            path.write_bytes(pickle.dumps(Marker(str(marker))))
            try:
                refuses(lambda: PolicyAgent(path, lab.GAME, trusted=trusted), names=(path.name,))
            finally:
                if marker.exists():
                    raise Finding("security", f"PolicyAgent ran the pickle of a {suffix} file")

        return run

    for suffix in (".zip", ".ZIP", ".pkl", ".pt", ".pth", ".npz.zip", ""):
        cases.append(
            Case(
                f"PolicyAgent: a pickle named model{suffix} (marker), untrusted",
                agent_suffix(suffix),
            )
        )

    def missing(kind):
        def run():
            folder = folders.new("model")
            path = {
                "a missing file": folder / "missing.npz",
                "a directory": folder,
                "a directory named .npz": folder / "d.npz",
            }[kind]
            if kind == "a directory named .npz":
                path.mkdir()
            refuses(lambda: NumpyPolicy.load(path), names=(path.name,))
            refuses(lambda: PolicyAgent(path, lab.GAME))

        return run

    for kind in ("a missing file", "a directory", "a directory named .npz"):
        cases.append(Case(f"NumpyPolicy.load, PolicyAgent: {kind}", missing(kind)))

    def nul_path():
        refuses(lambda: NumpyPolicy.load("model\x00.npz"))

    cases.append(Case("NumpyPolicy.load: a path with a NUL byte", nul_path))

    def zoo_block(name, value):
        def run():
            folder = folders.new("zoo")
            lab.write(folder / "aaa-valid.npz")
            h = copy.deepcopy(lab.header)
            if value is _DROP:
                h.pop("zoo")
            else:
                h["zoo"] = value
            bad = folder / "foreign.npz"
            lab.write(bad, h)
            refuses(lambda: zoo.list(folder), names=(bad.name,))
            refuses(lambda: zoo.load(lab.GAME, directory=folder), names=(bad.name,))

        return run

    for name, value in (
        ("without a zoo block", _DROP),
        ("a zoo block that is a string", "x"),
        ("play_config a list", {"play_config": [], "evaluation": {}}),
        ("evaluation a list", {"play_config": {}, "evaluation": []}),
        ("play_config num_players 99", {"play_config": {"num_players": 99}}),
        ("play_config num_players '2'", {"play_config": {"num_players": "2"}}),
        ("play_config an unknown option", {"play_config": {"frobnicate": 1}}),
        ("play_config episode 5", {"play_config": {"episode": 5}}),
    ):
        cases.append(
            Case(f"zoo.list, zoo.load: a model {name} beside a valid one", zoo_block(name, value))
        )

    def zoo_control():
        folder = folders.new("zoo")
        lab.write(folder / "aaa-valid.npz")
        models = zoo.list(folder)
        if len(models) != 1:
            raise Finding("error-type", f"zoo.list of one valid model: {models}")
        zoo.load(lab.GAME, directory=folder)
        NumpyPolicy.load(folder / "aaa-valid.npz")
        PolicyAgent(folder / "aaa-valid.npz", lab.GAME)

    return [Case("control: the valid model loads everywhere", zoo_control)], cases


def surface_models(rng, n: int, folders: Folders, timeout: float) -> list[Outcome]:
    lab = ModelLab()
    variants = model_variants(lab)
    entries = model_entries(lab)
    first, extra = model_extra_cases(lab, folders)
    catalogue = [model_case(lab, folders, v, e) for v in variants for e in entries] + extra

    def fuzz(k: int) -> Case:
        flips = int(rng.integers(1, 9))
        seed = int(rng.integers(2**31))
        entry = entries[int(rng.integers(len(entries)))]

        def write(p, m):
            data = bytearray(lab.valid_bytes(p.parent))
            r = np.random.default_rng(seed)
            for i in r.integers(0, len(data), flips):
                data[i] = int(r.integers(256))
            p.write_bytes(bytes(data))

        return model_case(
            lab, folders, (f"fuzz {k}: {flips} random byte(s) changed", write, "either"), entry
        )

    return run_cases("models", choose(rng, catalogue, fuzz, n, first=first), timeout)


# =============================================================================================
# records
# =============================================================================================
def record_case(name: str, original: dict, mutate: Callable[[dict], object]) -> Case:
    def run():
        mutated = mutate(copy.deepcopy(original))
        try:
            out = cardenvs.replay(mutated)
        except ValueError as e:
            if not str(e).strip():
                raise Finding("error-type", "ValueError without a message") from None
            return
        except Exception as e:  # noqa: BLE001
            raise Finding("error-type", f"{describe(e)}; expected ValueError") from None
        diff = claimed_differs(mutated, out)
        if diff and claimed_differs(original, out):
            raise Finding("security", f"a forged record replays as something else: {diff}")
        if diff:  # the change is one the replay reads as the original (a name's spelling)
            raise Note(f"replays as the original record, which replay returns: {diff}")

    return Case(name, run)


def _set(path):
    """A mutation setting the value at ``path`` (keys and indices) to ``value``."""

    def with_value(value):
        def mutate(r):
            node = r
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value() if callable(value) else value
            return r

        return mutate

    return with_value


def _drop(path):
    def mutate(r):
        node = r
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
        return r

    return mutate


def deep(depth: int = 100_000):
    """A list nested ``depth`` deep (made without recursion)."""
    x: list = []
    for _ in range(depth):
        x = [x]
    return x


HOSTILE = [  # values put in place of a record's field
    ("None", None),
    ("True", True),
    ("-1", -1),
    ("0", 0),
    ("2**63", 2**63),
    ("2**64", 2**64),
    ("-2**63 - 1", -(2**63) - 1),
    ("10**30", 10**30),
    ("1.5", 1.5),
    ("1.0", 1.0),
    ("nan", float("nan")),
    ("inf", float("inf")),
    ("empty string", ""),
    ("a digit string", "0"),
    ("a card", "AS"),
    ("markup", MARKUP),
    ("NUL", "\x00"),
    ("a long string", "a" * 5000),
    ("empty list", []),
    ("[None]", [None]),
    ("[1, 2]", [1, 2]),
    ("empty dict", {}),
    ("a dict", {"a": 1}),
    ("a tuple", ("t",)),
    ("nested 100000 deep", deep),
]


def record_mutations(name: str, r: dict) -> list[tuple[str, Callable]]:
    """Targeted mutations of the record ``r`` (see the module docstring)."""
    from cardenvs.records import FIELDS

    m: list[tuple[str, Callable]] = []
    deals = r["deals"]
    last = len(deals) - 1
    d0 = deals[0]
    seats = len(cardenvs.make(f"{r['game']}-v{r['version']}", **r["config"]).possible_agents)
    acts = d0["actions"]

    for value in (None, [], "record", 5):
        m.append((f"the record is {brief(value)}", lambda r, value=value: value))
    m.append(("the record in a list", lambda r: [r]))
    for key in FIELDS:
        m.append((f"without {key!r}", _drop([key])))
    for key, values in (
        (
            "game",
            (
                1,
                None,
                ["piquet"],
                "piquet\x00",
                "../../etc/passwd",
                "\u00e9" * 1000,
                MARKUP,
                "esel",
            ),
        ),
        ("version", ("0", 0.0, True, -1, 2**70, 1, None)),
        (
            "config",
            (
                [],
                "x",
                None,
                {1: 2},
                {"render_mode": "human"},
                {"illegal_action": "penalize"},
                {"render_seat": 0},
                {"frobnicate": 1},
                {"episode": 5},
                {"episode": "deal\u2028"},
                {"episode": MARKUP},
            ),
        ),
        ("seed", ("1", 1.0, True, -1, 2**63, 2**64, 10**100, MARKUP)),
        ("episode", (-1, 2**44, MAX_EPISODE, 2**64, 10**30, True, "1", 1.0, None, MARKUP)),
        (
            "result",
            (
                {},
                "win",
                1,
                [],
                {"winner": None},
                {"illegal_move": 0},
                {"illegal_move": "0", "action": 0},
                {"illegal_move": 0, "action": 10**9},
                {"illegal_move": -1, "action": 0},
                MARKUP,
            ),
        ),
        ("deals", ([], {}, "x", [None], [{}], deep)),
    ):
        for value in values:
            m.append((f"{key} {label_of(value)}", _set([key])(value)))
    for key, value in r["config"].items():
        for bad in ("x", 1.5, None, [], -1, 10**9, MARKUP):
            m.append((f"config {key!r} {short(brief(bad), 30)}", _set(["config", key])(bad)))
        del value
    m.append(("config with a forged option", _set(["config", "x_forged"])(1)))
    m.append(("a top-level extra key (ignored)", _set(["players"])(["human", MARKUP])))
    m.append(("a top-level __proto__ key (ignored)", _set(["__proto__"])({"polluted": True})))
    # the first deal
    for key in ("deck", "dealer", "actions"):
        m.append((f"deal 0 without {key!r}", _drop(["deals", 0, key])))
    deck = d0["deck"]
    m += [
        ("deck: two cards swapped", _set(["deals", 0, "deck"])([deck[1], deck[0], *deck[2:]])),
        (
            "deck: the last two cards swapped",
            _set(["deals", 0, "deck"])([*deck[:-2], deck[-1], deck[-2]]),
        ),
        ("deck: a card missing", _set(["deals", 0, "deck"])(deck[:-1])),
        ("deck: a card twice", _set(["deals", 0, "deck"])([deck[0], *deck[:-1]])),
        ("deck: a card lower-case", _set(["deals", 0, "deck"])([deck[0].lower(), *deck[1:]])),
        ("deck: a foreign card", _set(["deals", 0, "deck"])(["XX", *deck[1:]])),
        ("deck: a card id", _set(["deals", 0, "deck"])([0, *deck[1:]])),
        ("deck: markup", _set(["deals", 0, "deck"])([MARKUP, *deck[1:]])),
        ("deck: 100000 cards", _set(["deals", 0, "deck"])(deck * (100_000 // len(deck)))),
        ("deck: a string", _set(["deals", 0, "deck"])(" ".join(deck))),
    ]
    for value in (-1, seats, 2**70, True, "0", 1.0, None, (d0["dealer"] + 1) % seats):
        m.append((f"dealer {brief(value)}", _set(["deals", 0, "dealer"])(value)))
    if acts:
        seat, action = acts[0]
        other = (seat + 1) % seats
        m += [
            ("action 0 by the other seat", _set(["deals", 0, "actions", 0])([other, action])),
            ("every action's seat swapped", lambda r: _swap_seats(r, seats)),
            ("action 0 seat -1", _set(["deals", 0, "actions", 0])([-1, action])),
            ("action 0 seat 99", _set(["deals", 0, "actions", 0])([99, action])),
            ("action 0 seat True", _set(["deals", 0, "actions", 0])([True, action])),
            ("action 0 an unknown name", _set(["deals", 0, "actions", 0])([seat, "fly"])),
            ("action 0 markup", _set(["deals", 0, "actions", 0])([seat, MARKUP])),
            (
                "action 0 a name with U+2028",
                _set(["deals", 0, "actions", 0])([seat, action + "\u2028"]),
            ),
            ("action 0 an id", _set(["deals", 0, "actions", 0])([seat, 0])),
            ("action 0 [seat]", _set(["deals", 0, "actions", 0])([seat])),
            ("action 0 [seat, name, extra]", _set(["deals", 0, "actions", 0])([seat, action, 1])),
            ("action 0 a string", _set(["deals", 0, "actions", 0])(action)),
            ("action 0 a dict", _set(["deals", 0, "actions", 0])({"seat": seat, "action": action})),
            ("action 0 removed", lambda r: (r["deals"][0]["actions"].pop(0), r)[1]),
            (
                "action 0 twice",
                lambda r: (
                    r["deals"][0]["actions"].insert(0, list(r["deals"][0]["actions"][0])),
                    r,
                )[1],
            ),
            ("the last action of deal 0 removed", lambda r: (r["deals"][0]["actions"].pop(), r)[1]),
            (
                "an action appended to the last deal",
                lambda r: (
                    (r["deals"][-1]["actions"].append(list(r["deals"][-1]["actions"][-1])), r)[1]
                    if r["deals"][-1]["actions"]
                    else r
                ),
            ),
        ]
        names = cardenvs.game_info(f"{r['game']}-v{r['version']}").action_names
        for k in (0, len(names) // 2, len(names) - 1):
            if names[k] != action:
                m.append(
                    (
                        f"action 0 the game's action {names[k]!r}",
                        _set(["deals", 0, "actions", 0])([seat, names[k]]),
                    )
                )
        m.append(
            ("action 0 in upper case", _set(["deals", 0, "actions", 0])([seat, action.upper()]))
        )
        if len(acts) > 1:
            m.append(
                ("actions 0 and 1 swapped", lambda r: _swap(r["deals"][0]["actions"], 0, 1) or r)
            )
            j = len(acts) // 2
            m.append(
                (
                    f"action {j} by the other seat",
                    _set(["deals", 0, "actions", j])([(acts[j][0] + 1) % seats, acts[j][1]]),
                )
            )
    # points and extras of the finished deals
    for i, deal in enumerate(deals):
        if "points" not in deal:
            continue
        pts = deal["points"]
        m += [
            (f"deal {i} points +1", _set(["deals", i, "points", 0])(pts[0] + 1)),
            (f"deal {i} points as floats", _set(["deals", i, "points"])([float(p) for p in pts])),
            (f"deal {i} points as strings", _set(["deals", i, "points"])([str(p) for p in pts])),
            (f"deal {i} points one more", _set(["deals", i, "points"])([*pts, 0])),
            (f"deal {i} points one fewer", _set(["deals", i, "points"])(pts[:-1])),
            (f"deal {i} points 10**30", _set(["deals", i, "points", 0])(10**30)),
            (f"deal {i} points True", _set(["deals", i, "points", 0])(True)),
            (f"deal {i} without points", _drop(["deals", i, "points"])),
        ]
        for key in sorted(k for k in deal if k not in ("deck", "dealer", "actions", "points")):
            value = deal[key]
            m += [
                (f"deal {i} without its extra {key!r}", _drop(["deals", i, key])),
                (f"deal {i} extra {key!r} None", _set(["deals", i, key])(None)),
                (f"deal {i} extra {key!r} markup", _set(["deals", i, key])(MARKUP)),
                (f"deal {i} extra {key!r} nested deep", _set(["deals", i, key])(deep)),
            ]
            if isinstance(value, int) and not isinstance(value, bool):
                m += [
                    (f"deal {i} extra {key!r} + 1", _set(["deals", i, key])(value + 1)),
                    (f"deal {i} extra {key!r} as a float", _set(["deals", i, key])(float(value))),
                ]
            if isinstance(value, list) and value:
                m.append(
                    (
                        f"deal {i} extra {key!r} reversed",
                        _set(["deals", i, key])(
                            value[::-1] if value[::-1] != value else [*value, 0]
                        ),
                    )
                )
        for key, value in (
            ("banks", [0] * seats),
            ("bonus", 5),
            ("contract", "x"),
            ("ended_by", "me"),
            ("x_forged", MARKUP),
        ):
            if key not in deal:
                m.append((f"deal {i} with a forged extra {key!r}", _set(["deals", i, key])(value)))
    if "points" not in deals[last]:
        m.append(("the open deal with points", _set(["deals", last, "points"])([0] * seats)))
        m.append(("the open deal with a forged extra", _set(["deals", last, "banks"])([0] * seats)))
    # the result
    result = r["result"]
    if isinstance(result, dict) and "illegal_move" not in result:
        for key in sorted(result):
            value = result[key]
            m += [
                (f"result without {key!r}", _drop(["result", key])),
                (f"result {key!r} markup", _set(["result", key])(MARKUP)),
                (f"result {key!r} nested deep", _set(["result", key])(deep)),
            ]
            if isinstance(value, int) and not isinstance(value, bool):
                m.append((f"result {key!r} + 1", _set(["result", key])(value + 1)))
                m.append((f"result {key!r} as a float", _set(["result", key])(float(value))))
            if value is None:
                m.append((f"result {key!r} 0", _set(["result", key])(0)))
        m.append(("result with a forged key", _set(["result", "x_forged"])(1)))
        m.append(("result None for a finished game", _set(["result"])(None)))
    elif result is None:
        m.append(
            ("result of a finished game for an unfinished one", _set(["result"])({"winner": 0}))
        )
    else:  # ended on an illegal move
        m += [
            (
                "illegal move by the other seat",
                _set(["result", "illegal_move"])((result["illegal_move"] + 1) % seats),
            ),
            ("illegal move a legal action", lambda r: _legal_instead(r)),
            ("illegal move action -1", _set(["result", "action"])(-1)),
            ("illegal move action 10**9", _set(["result", "action"])(10**9)),
            ("illegal move action True", _set(["result", "action"])(True)),
            ("illegal move with a forged key", _set(["result", "x_forged"])(1)),
        ]
    if len(deals) > 1:
        m += [
            ("deals 0 and 1 swapped", lambda r: _swap(r["deals"], 0, 1) or r),
            ("the last deal removed", lambda r: (r["deals"].pop(), r)[1]),
            ("deal 0 twice", lambda r: (r["deals"].insert(0, copy.deepcopy(r["deals"][0])), r)[1]),
        ]
    m.append(("deal 0 repeated 1000 times", lambda r: {**r, "deals": [r["deals"][0]] * 1000}))
    return m


def label_of(value) -> str:
    return "nested 100000 deep" if value is deep else short(brief(value), 40)


def _swap(seq, i, j):
    seq[i], seq[j] = seq[j], seq[i]


def _swap_seats(r, seats):
    for deal in r["deals"]:
        for pair in deal["actions"]:
            pair[0] = (pair[0] + 1) % seats
    return r


def _legal_instead(r):
    """The record's illegal move replaced by an action legal there (its first legal action)."""
    env = cardenvs.make(f"{r['game']}-v{r['version']}", **r["config"])
    options = {"deck": r["deals"][0]["deck"], "dealer": r["deals"][0]["dealer"]}
    env.reset(seed=r["seed"], options=options)
    for _, name in r["deals"][0]["actions"]:
        env.step(env.unwrapped.action_id(name))
    r["result"]["action"] = env.unwrapped.legal_actions()[0]
    return r


def _paths(x, prefix=(), out=None, depth=0):
    """Every path (keys and indices) of the JSON tree ``x``, to depth 6."""
    out = [] if out is None else out
    if depth > 6:
        return out
    if isinstance(x, dict):
        for k in x:
            out.append((*prefix, k))
            _paths(x[k], (*prefix, k), out, depth + 1)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out.append((*prefix, i))
            _paths(v, (*prefix, i), out, depth + 1)
    return out


def surface_records(rng, n: int, folders: Folders, timeout: float) -> list[Outcome]:
    bases = base_records()

    def control():
        for name, r in bases.items():
            out = cardenvs.replay(copy.deepcopy(r))
            diff = claimed_differs(r, out)
            if diff:
                raise Finding("error-type", f"{name} does not replay as itself: {diff}")

    first = [Case(f"control: the {len(bases)} records replay as themselves", control)]
    catalogue = [
        record_case(f"{name}: {label}", r, mutate)
        for name, r in bases.items()
        for label, mutate in record_mutations(name, r)
    ]
    names = list(bases)

    def fuzz(k: int) -> Case:
        name = names[int(rng.integers(len(names)))]
        r = bases[name]
        paths = _paths(r)
        path = list(paths[int(rng.integers(len(paths)))])
        op = rng.random()
        if op < 0.15 and isinstance(path[-1], str):
            return record_case(f"fuzz {k}: {name}: without {path}", r, _drop(path))
        if op < 0.25:
            key = f"x{int(rng.integers(1000))}"
            parent = path[:-1]
            return record_case(
                f"fuzz {k}: {name}: a forged key {key!r} at {parent}",
                r,
                lambda x, parent=parent, key=key: _forge(x, parent, key),
            )
        label, value = HOSTILE[int(rng.integers(len(HOSTILE)))]
        return record_case(f"fuzz {k}: {name}: {path} = {label}", r, _set(path)(value))

    return run_cases("records", choose(rng, catalogue, fuzz, n, first=first), timeout)


def _forge(r, parent, key):
    node = r
    for k in parent:
        node = node[k]
    if isinstance(node, dict):
        node[key] = MARKUP
    elif isinstance(node, list):
        node.append(MARKUP)
    return r


# =============================================================================================
# viewer
# =============================================================================================
DATA_RE = re.compile(r'<script type="application/json" id="cardenvs-data">(.*?)</script>', re.S)


def first_deck(env, seed: int, episode: int) -> list[str]:
    env.reset(seed=seed, options={"episode": episode})
    return env.unwrapped.record()["deals"][0]["deck"]


def re_dealing_seeds(page: str, record: dict) -> list[int]:
    """Every integer of ``page`` that, as a seed (episode 0 or the record's), deals the
    record's first deck."""
    from cardenvs.registry import classes

    _, env_cls, _ = classes(f"{record['game']}-v{record['version']}")
    config = env_cls.vector_cls.game.config_cls.RECORD_DEFAULTS | record["config"]
    probe = env_cls(**config)
    deck = record["deals"][0]["deck"]
    episodes = sorted({0, int(record.get("episode", 0))})
    numbers = sorted({int(x) for x in re.findall(r"\d+", page)})
    return [
        s
        for s in numbers
        if s <= MAX_SEED and any(first_deck(probe, s, e) == deck for e in episodes)
    ]


def seat_page_case(name: str, record: dict, seat: int) -> Case:
    from cardenvs import view
    from cardenvs.core.scene import face_up

    def run():
        page = view.html(record, seat)
        m = DATA_RE.search(page)
        if not m:
            raise Finding("error-type", "the page has no #cardenvs-data element")
        text = m.group(1)
        data = json.loads(text)
        held = [k for k in ("seed", "config", "episode", "deals", "deck") if k in data]
        if held:
            raise Finding("security", f"player_{seat}'s page holds {held}")
        seeds = re_dealing_seeds(page, record)
        if seeds:
            raise Finding(
                "security", f"player_{seat}'s page holds {seeds}, which re-deal the hidden cards"
            )
        if f"seed {record['seed']}" in page:
            raise Finding("security", f"player_{seat}'s page names the seed")
        seen = set()
        for scene in view.scenes(record, seat):
            seen |= set(face_up(scene))
        cards = {c for deal in record["deals"] for c in deal["deck"]}
        named = set(view.CARD_RE.findall(text)) & (cards - seen)
        if named:
            raise Finding(
                "security", f"player_{seat}'s page names cards it never saw: {sorted(named)}"
            )
        if (
            json.dumps(record["deals"][0]["deck"]) in page
            or ",".join(record["deals"][0]["deck"]) in page
        ):
            raise Finding("security", f"player_{seat}'s page holds the deck")
        _script_safe(page)

    return Case(name, run)


def _script_safe(page: str) -> None:
    """The page's scripts cannot be ended or commented out by data: four ``<script`` elements,
    each closed once, and no ``<!--``, U+2028 or U+2029 in the JSON data."""
    opened, closed = page.count("<script"), page.count("</script>")
    if opened != 4 or closed != 4:
        raise Finding(
            "security", f"the page has {opened} <script and {closed} </script> (4 of each expected)"
        )
    for m in re.finditer(r'<script type="application/json"[^>]*>(.*?)</script>', page, re.S):
        for bad in ("<!--", "<", "\u2028", "\u2029"):
            if bad in m.group(1):
                raise Finding("security", f"the page's JSON data holds {bad!r} unescaped")
    if "window.attackMarker" in page:
        raise Finding("security", "a record's markup is in the page")


def open_page_control(record: dict) -> Case:
    from cardenvs import view

    def run():
        page = view.html(record)
        if re_dealing_seeds(page, record) != [record["seed"]]:
            raise Finding(
                "error-type",
                "the re-deal search does not find the seed in the open page: it checks nothing",
            )

    return Case("control: the open page's seed re-deals the deck (the search works)", run)


def markup_case(name: str, record: dict, mutate, seat) -> Case:
    from cardenvs import view

    def run():
        mutated = mutate(copy.deepcopy(record))
        try:
            page = view.html(mutated, seat)
        except ValueError:
            return
        except Exception as e:  # noqa: BLE001
            raise Finding("error-type", f"{describe(e)}; expected ValueError") from None
        _script_safe(page)

    return Case(name, run)


def _markup_everywhere(r: dict) -> dict:
    """``MARKUP`` in every string of ``r`` (keys of extras too) and as extra keys."""

    def walk(x):
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v) for v in x]
        if isinstance(x, str):
            return x + MARKUP
        return x

    out = walk(r)
    out["players"] = [MARKUP]
    return out


def markup_mutations(r: dict) -> list[tuple[str, Callable]]:
    out = [
        ("a top-level extra key", lambda x: {**x, "players": [MARKUP], MARKUP: MARKUP}),
        ("every string", _markup_everywhere),
        ("the game", lambda x: {**x, "game": MARKUP}),
        ("a config value", lambda x: {**x, "config": {**x["config"], "episode": MARKUP}}),
        ("a config key", lambda x: {**x, "config": {**x["config"], MARKUP: 1}}),
        ("a card of the deck", lambda x: _set(["deals", 0, "deck", 0])(MARKUP)(x)),
        ("a deal extra", lambda x: _set(["deals", 0, MARKUP])(MARKUP)(x)),
        ("the result", lambda x: {**x, "result": {"winner": MARKUP}}),
    ]
    if r["deals"][0]["actions"]:
        out.append(("an action name", lambda x: _set(["deals", 0, "actions", 0, 1])(MARKUP)(x)))
        name = r["deals"][0]["actions"][0][1]
        for tail in ("\u2028", "\u2029", " <!--"):
            out.append(
                (
                    f"{tail!r} after an action name",
                    lambda x, t=tail: _set(["deals", 0, "actions", 0, 1])(name + t)(x),
                )
            )
    return out


def surface_viewer(rng, n: int, folders: Folders, timeout: float) -> list[Outcome]:
    from cardenvs import view

    bases = base_records()
    first = [open_page_control(bases["piquet deal"])]
    catalogue = []
    for name, r in bases.items():
        if name in ("piquet game", "au cent 2 deals"):
            continue  # whole games: their pages are slow to check; the single deals cover them
        seats = len(cardenvs.make(f"{r['game']}-v{r['version']}", **r["config"]).possible_agents)
        for seat in range(seats):
            catalogue.append(seat_page_case(f"{name}: player_{seat}'s page", r, seat))
    r = bases["piquet deal"]
    for label, mutate in markup_mutations(r):
        for seat in (None, 1):
            catalogue.append(
                markup_case(
                    f"markup in {label}: {'open' if seat is None else 'seat'} page", r, mutate, seat
                )
            )
    p = 2
    for seat in (-1, p, p + 5, "0", 1.0, True, np.bool_(True), [0], "current", 2**70):
        for what, call in (
            ("html", lambda s: view.html(r, s)),
            ("data", lambda s: view.data(r, s)),
            ("scenes", lambda s: view.scenes(r, s)),
            ("Replay", lambda s: view.Replay(r, s)),
        ):
            catalogue.append(
                Case(
                    f"{what}(record, seat={brief(seat)})",
                    lambda call=call, seat=seat: refuses(lambda: call(seat), names=("seat",)),
                )
            )
    names = [k for k in bases if k not in ("piquet game", "au cent 2 deals")]

    def fuzz(k: int) -> Case:
        name = names[int(rng.integers(len(names)))]
        rec = bases[name]
        muts = markup_mutations(rec)
        label, mutate = muts[int(rng.integers(len(muts)))]
        seats = len(rec["deals"][0].get("points") or [0, 0])
        seat = None if rng.random() < 0.3 else int(rng.integers(seats))
        return markup_case(f"fuzz {k}: {name}: markup in {label}, seat {seat}", rec, mutate, seat)

    return run_cases("viewer", choose(rng, catalogue, fuzz, n, first=first), timeout)


# =============================================================================================
# cli
# =============================================================================================
@dataclasses.dataclass
class Run:
    kind: str  # "return", "exit" or "raise"
    value: object
    out: str
    err: str
    browser: list


class Sandbox:
    """What the CLI cases read: a valid record, models, hostile files (made once)."""

    def __init__(self, folder: Path):
        self.dir = folder
        rec = base_records()["piquet deal"]
        self.record = folder / "record.json"
        self.record.write_text(json.dumps(rec))
        self.model = folder / "model.npz"
        shutil.copy(cardenvs.zoo.MODELS / "piquet-v0.npz", self.model)
        self.esel_model = folder / "esel.npz"
        shutil.copy(cardenvs.zoo.MODELS / "esel-v0.npz", self.esel_model)
        self.random_npz = folder / "random.npz"
        self.random_npz.write_bytes(np.random.default_rng(5).bytes(3000))
        self.marker = folder / "MARKER"
        self.pickle_zip = folder / "model.zip"
        with zipfile.ZipFile(self.pickle_zip, "w") as z:
            z.writestr("data", "{}")
            z.writestr("policy.pth", pickle.dumps(Marker(str(self.marker))))
        self.pickle_npz = folder / "pickle.npz"
        self.pickle_npz.write_bytes(pickle.dumps(Marker(str(self.marker))))
        self.dir_npz = folder / "folder.npz"
        self.dir_npz.mkdir()
        self.non_utf8 = folder / "latin1.json"
        self.non_utf8.write_bytes(b'{"game": "caf\xe9"}\xff\xfe')
        self.empty = folder / "empty.json"
        self.empty.write_bytes(b"")
        self.deep = folder / "deep.json"
        self.deep.write_text("[" * 100_000 + "]" * 100_000)
        self.nan = folder / "nan.json"
        self.nan.write_text(json.dumps({**rec, "seed": float("nan")}))
        self.list_json = folder / "list.json"
        self.list_json.write_text("[]")
        self.not_record = folder / "dict.json"
        self.not_record.write_text("{}")
        self.missing = folder / "missing" / "x.json"

    def fill(self, argv: list[str]) -> list[str]:
        names = {
            "{record}": self.record,
            "{model}": self.model,
            "{esel_model}": self.esel_model,
            "{random_npz}": self.random_npz,
            "{pickle_zip}": self.pickle_zip,
            "{pickle_npz}": self.pickle_npz,
            "{dir_npz}": self.dir_npz,
            "{non_utf8}": self.non_utf8,
            "{empty}": self.empty,
            "{deep}": self.deep,
            "{nan}": self.nan,
            "{list_json}": self.list_json,
            "{not_record}": self.not_record,
            "{missing}": self.missing,
            "{dir}": self.dir,
        }
        out = []
        for a in argv:
            for k, v in names.items():
                a = a.replace(k, str(v))
            out.append(a)
        return out


def invoke(main, argv: list[str], cwd: Path, stdin: str = "") -> Run:
    """``main(argv)`` in-process in ``cwd``, its output captured, stdin ``stdin``, the
    browser and the web server's wait stubbed (``--web`` serves and stops at once)."""
    from cardenvs import web

    out, err = io.StringIO(), io.StringIO()
    opened: list = []
    real_serve, real_open, real_stdin = web.serve, webbrowser.open, sys.stdin
    stop = threading.Event()
    stop.set()

    def quick_serve(*args, **kwargs):
        if kwargs.get("open_browser"):
            opened.append("open_browser")
        kwargs["open_browser"] = False
        kwargs["stop"] = stop
        return real_serve(*args, **kwargs)

    old = os.getcwd()
    os.chdir(cwd)
    web.serve = quick_serve
    webbrowser.open = lambda *a, **k: opened.append(a) or True
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                value = main(argv)
            except SystemExit as e:
                return Run("exit", e.code, out.getvalue(), err.getvalue(), opened)
            except CaseTimeout:
                raise
            except Exception as e:  # noqa: BLE001 - reported as a finding
                return Run("raise", e, out.getvalue(), err.getvalue(), opened)
        return Run("return", value, out.getvalue(), err.getvalue(), opened)
    finally:
        sys.stdin = real_stdin
        web.serve = real_serve
        webbrowser.open = real_open
        os.chdir(old)


def _ppo_parse(argv):
    from train import ppo

    ppo.parse(argv)


def _ppo_main(argv):
    from train import ppo

    return ppo.main(argv)


def programs() -> dict[str, Callable]:
    from cardenvs import demo, play, view
    from train import evaluate

    return {
        "play": play.main,
        "view": view.main,
        "demo": demo.main,
        "evaluate": evaluate.main,
        "ppo.parse": _ppo_parse,
        "ppo.main": _ppo_main,
    }


def cli_case(
    sandbox: Sandbox, folders: Folders, prog: str, argv: list[str], check=None, prepare=None
) -> Case:
    def run():
        cwd = folders.new("cli")
        args = sandbox.fill(argv)
        if prepare is not None:
            args = prepare(cwd, args)
        res = invoke(programs()[prog], args, cwd)
        if sandbox.marker.exists():
            sandbox.marker.unlink()
            raise Finding(
                "security", f"{prog} ran a pickle of a file it was given (the marker exists)"
            )
        if res.kind == "raise":
            raise Finding("error-type", f"traceback: {describe(res.value)}")
        if res.kind == "exit":
            code = res.value
            if code == 2 and "error:" not in res.err:
                raise Finding(
                    "error-type", f"exit 2 without an error message: {short(res.err, 200)}"
                )
            if code not in (0, 2) and not isinstance(code, str):
                raise Finding("error-type", f"exit {code!r}: {short(res.err, 200)}")
        if check is not None:
            check(res, cwd, args)

    label = " ".join(argv)
    return Case(f"{prog} {short(label, 120)}", run)


def _saved_record(res: Run, cwd: Path, args: list[str]) -> None:
    """A game that ran saved its record (where --record says, else under runs/play) and it
    replays."""
    if res.kind != "return":
        return
    if "--record" in args:
        paths = [Path(args[args.index("--record") + 1])]
        paths = [p if p.is_absolute() else cwd / p for p in paths]
    else:
        paths = sorted((cwd / "runs" / "play").glob("*.json"))
    if "--web" in args:
        return  # served and stopped before a move: nothing to save
    if not paths or not paths[0].is_file():
        raise Finding("data-loss", f"the game ran but no record was saved ({paths})")
    try:
        cardenvs.replay(json.loads(paths[0].read_text()))
    except ValueError as e:
        raise Finding("data-loss", f"the saved record does not replay: {e}") from None


def _existing_untouched(name: str, content: str):
    def prepare(cwd, args):
        (cwd / name).write_text(content)
        return args

    def check(res, cwd, args):
        if (cwd / name).read_text() != content:
            raise Finding("data-loss", f"{name} was overwritten")

    return prepare, check


def _record_kept(name: str):
    """The record file ``name`` (the valid record, copied into the case's folder) still holds
    the record afterwards."""

    def prepare(cwd, args):
        (cwd / name).write_text(json.dumps(base_records()["piquet deal"]))
        return args

    def check(res, cwd, args):
        try:
            json.loads((cwd / name).read_text())
        except ValueError:
            raise Finding("data-loss", f"the record {name} was overwritten by the page") from None

    return prepare, check


def cli_catalogue(sandbox: Sandbox, folders: Folders) -> list[Case]:
    c = []

    def add(prog, argv, check=None, prepare=None):
        c.append(cli_case(sandbox, folders, prog, argv, check, prepare))

    deal = '{"episode": "deal"}'
    configs = [
        "{",
        "[]",
        '"x"',
        "null",
        "NaN",
        '{"episode": 5}',
        '{"frobnicate": 1}',
        '{"episode": "deal", "reward": "x"}',
        '{"num_players": 3}',
        '{"episode": "deal", "render_mode": "human"}',
        "[" * 100_000 + "]" * 100_000,
        '{"episode": "' + MARKUP + '"}',
    ]
    seeds = [
        "-1",
        "-9223372036854775808",
        "9223372036854775808",
        "18446744073709551616",
        "abc",
        "1e3",
        "0x10",
        "",
        "1.5",
    ]
    # play: the game is left at once (stdin at its end) and saved
    add("play", [])
    add("play", ["nope-v0"])
    add("play", ["--help"])
    add("play", ["piquet-v0", "--frobnicate"])
    for seat in ["-1", "2", "99", "abc", "1.5", "", "99999999999999999999999"]:
        add("play", ["piquet-v0", "--seat", seat, "--config", deal])
    for seed in seeds:
        add("play", ["piquet-v0", "--seed", seed, "--config", deal], _saved_record)
    add("play", ["piquet-v0", "--seed", str(MAX_SEED), "--config", deal], _saved_record)
    for config in configs:
        add("play", ["piquet-v0", "--config", config], _saved_record)
    for against in [
        "nobody",
        "zoo",
        "{missing}.npz",
        "{dir_npz}",
        "{random_npz}",
        "{pickle_npz}",
        "{pickle_zip}",
        "{esel_model}",
        "heuristic",
        "ismcts",
    ]:
        add(
            "play",
            ["piquet-v0", "--against", against, "--config", deal, "--iterations", "5"],
            _saved_record,
        )
    for iterations in ["0", "-1", "x"]:
        add("play", ["piquet-v0", "--against", "ismcts", "--iterations", iterations])
    prep, chk = _existing_untouched("old.json", "keep")
    add("play", ["piquet-v0", "--record", "old.json", "--config", deal], chk, prep)
    add("play", ["piquet-v0", "--record", "{dir}", "--config", deal])
    add("play", ["piquet-v0", "--record", "{missing}", "--config", deal])
    add("play", ["piquet-v0", "--record", "rec.json", "--config", deal], _saved_record)
    add("play", ["piquet-v0", "--record", "caf\udcff.json", "--config", deal], _saved_record)
    add("play", ["piquet-v0", "--record", "", "--config", deal], _saved_record)
    add("play", ["piquet-v0", "--record", "/dev/null", "--config", deal])
    add("play", ["piquet-v0", "--web", "--no-browser", "--config", deal, "--record", "w.json"])
    add("play", ["piquet-v0", "--web", "--config", deal])
    prep, chk = _existing_untouched("old.json", "keep")
    add("play", ["piquet-v0", "--web", "--no-browser", "--record", "old.json"], chk, prep)
    add("play", ["piquet-v0", "--seat", "1", "--config", deal], _saved_record)
    add("play", ["esel-v0", "--seat", "3", "--config", '{"episode": "deal", "num_players": 3}'])
    # view
    add("view", [])
    add("view", ["--help"])
    add("view", ["{record}", "--frobnicate"])
    for src in [
        "{missing}",
        "{dir}",
        "{non_utf8}",
        "{empty}",
        "{deep}",
        "{nan}",
        "{list_json}",
        "{not_record}",
        "{random_npz}",
    ]:
        add("view", [src, "-o", "out.html"])
    add("view", ["{record}", "-o", "out.html"])
    for seat in ["-1", "2", "99", "abc", "1.5", "", "1", "0"]:
        add("view", ["{record}", "--seat", seat, "-o", "out.html"])
    add("view", ["{record}", "-o", "{missing}"])
    add("view", ["{record}", "-o", "{dir}"])
    prep, chk = _record_kept("rec.json")
    add("view", ["rec.json", "-o", "rec.json"], chk, prep)
    prep, chk = _record_kept("rec.html")
    add("view", ["rec.html"], chk, prep)
    # demo (single deals where a whole game would be long)
    add("demo", ["--help"])
    add("demo", ["--frobnicate"])
    add("demo", ["--game", "nope-v0"])
    add("demo", ["--game", "piquet-v0"])
    for seed in seeds + [str(MAX_SEED)]:
        add("demo", ["--seed", seed, "--config", deal])
    for config in configs:
        add("demo", ["--config", config])
    for game in cardenvs.GAMES:
        add("demo", ["--game", game, "--config", deal, "--seed", "3"])
    # train.evaluate: one game against random
    base = ["--game", "piquet-v0", "--n", "1", "--against", "random", "--config", deal]
    add("evaluate", [])
    add("evaluate", ["{model}", "--n", "1", "--against", "random"])
    add("evaluate", ["{model}", *base])
    for model in [
        "{missing}",
        "{dir}",
        "{dir_npz}",
        "{random_npz}",
        "{pickle_npz}",
        "{pickle_zip}",
        "{esel_model}",
        "{record}",
    ]:
        add("evaluate", [model, *base])
    for n in ["0", "-1", "abc", "1.5"]:
        add("evaluate", ["{model}", "--game", "piquet-v0", "--n", n])
    for config in ["{", "[]", "null", '{"episode": 5}', '{"frobnicate": 1}', "[" * 100_000]:
        add(
            "evaluate",
            [
                "{model}",
                "--game",
                "piquet-v0",
                "--n",
                "1",
                "--against",
                "random",
                "--config",
                config,
            ],
        )
    for against in ["nobody", "ppo:{missing}", "ppo:{random_npz}", "ppo:{pickle_zip}"]:
        add(
            "evaluate",
            ["{model}", "--game", "piquet-v0", "--n", "1", "--config", deal, "--against", against],
        )
    for seed in ["-1", "18446744073709551616", "abc"]:
        add("evaluate", ["{model}", *base, "--seed", seed])
    add("evaluate", ["{model}", *base, "--search", "-1"])
    add("evaluate", ["{model}", *base, "--side", "--all-seatings"])
    add("evaluate", ["{model}", *base, "--json", "{missing}"])
    add("evaluate", ["{model}", *base, "--json", "{dir}"])
    # train.ppo: its arguments (parse), and main only where it stops before training
    add("ppo.parse", ["--help"])
    add("ppo.parse", ["--frobnicate"])
    add("ppo.parse", ["--game", "nope-v0"])
    for key, values in (
        ("--config", ["{", "[]", "null", '{"episode": 5}', '{"frobnicate": 1}', "[" * 100_000]),
        ("--eval-config", ["{", "[]", '{"episode": 5}']),
        ("--total-timesteps", ["0", "-1", "abc", "1e3"]),
        ("--minutes", ["-1", "nan", "abc"]),
        ("--num-envs", ["0", "-1"]),
        ("--net", ["0", "-1", "a"]),
        ("--activation", ["sigmoid"]),
        ("--league-share", ["2", "-0.1", "nan"]),
        (
            "--league",
            [
                "nobody",
                "model:{missing}",
                "model:{random_npz}",
                "model:{pickle_zip}",
                "model:{esel_model}",
                "ppo:x",
            ],
        ),
        ("--gamma", ["2", "nan"]),
        ("--learning-rate", ["0", "-1"]),
        ("--seed", ["-1", "abc", "18446744073709551616"]),
        ("--eval-seating", ["nobody"]),
    ):
        for value in values:
            add("ppo.parse", [key, value])
    tiny = [
        "--total-timesteps",
        "1",
        "--minutes",
        "0.05",
        "--num-envs",
        "1",
        "--num-steps",
        "1",
        "--eval-every",
        "1",
        "--eval-games",
        "1",
        "--threads",
        "1",
        "--no-progress",
    ]
    add("ppo.main", [*tiny, "--device", "nope"])
    add("ppo.main", [*tiny, "--out", "{record}"])
    return c


def cli_fuzz(sandbox: Sandbox, folders: Folders, rng):
    """Random argv of demo and play: options from hostile lists, single deals."""
    values = {
        "--seed": ["-1", "0", "7", "2**64", "18446744073709551616", "x", "", "1.5"],
        "--config": [
            '{"episode": "deal"}',
            "{",
            "[]",
            '{"episode": 5}',
            '{"episode": "deal", "num_players": 9}',
        ],
        "--seat": ["0", "1", "-1", "9", "x"],
        "--against": ["random", "nobody", "{random_npz}", "{pickle_zip}"],
        "--game": ["piquet-v0", "esel-v0", "nope"],
    }

    def make(k: int) -> Case:
        prog = "demo" if rng.random() < 0.5 else "play"
        keys = ["--seed", "--config"] + (["--seat", "--against"] if prog == "play" else ["--game"])
        argv = ["piquet-v0"] if prog == "play" else []
        for key in keys:
            if rng.random() < 0.6:
                options = values[key]
                argv += [key, options[int(rng.integers(len(options)))]]
        if "--config" not in argv or argv[argv.index("--config") + 1] == '{"episode": "deal"}':
            argv = [a for a in argv]
            if "--config" not in argv:
                argv += ["--config", '{"episode": "deal"}']
        return cli_case(sandbox, folders, prog, argv, _saved_record if prog == "play" else None)

    return make


def surface_cli(rng, n: int, folders: Folders, timeout: float) -> list[Outcome]:
    import cardenvs.zoo  # noqa: F401  (the sandbox copies its models)

    sandbox = Sandbox(folders.new("cli-files"))
    return run_cases(
        "cli",
        choose(rng, cli_catalogue(sandbox, folders), cli_fuzz(sandbox, folders, rng), n),
        timeout,
    )


# =============================================================================================
# wrappers and engine
# =============================================================================================
def action_kinds() -> list[tuple[str, Callable[[int, int], object], bool]]:
    """``(name, make(legal id, num_actions), integer)``: actions that are no action id (the
    wrong type, or out of range: refused), and with ``integer`` an integer of another type (a
    0-d integer array: it may be taken)."""
    return [
        ("a float of a legal id", lambda a, n: float(a), False),
        ("np.float64 of a legal id", lambda a, n: np.float64(a), False),
        ("np.float32 of a legal id", lambda a, n: np.float32(a), False),
        ("1.5", lambda a, n: 1.5, False),
        ("True", lambda a, n: True, False),
        ("np.bool_(True)", lambda a, n: np.bool_(True), False),
        ("a digit string", lambda a, n: str(a), False),
        ("None", lambda a, n: None, False),
        ("-1", lambda a, n: -1, False),
        ("np.int64(-1)", lambda a, n: np.int64(-1), False),
        ("num_actions", lambda a, n: n, False),
        ("2**64", lambda a, n: 2**64, False),
        ("np.uint64(2**63)", lambda a, n: np.uint64(2**63), False),
        ("nan", lambda a, n: float("nan"), False),
        ("inf", lambda a, n: float("inf"), False),
        ("a 0-d array of a legal id", lambda a, n: np.array(a), True),
        ("a 0-d float array of a legal id", lambda a, n: np.array(float(a)), False),
        ("a 1-element array", lambda a, n: np.array([a]), False),
        ("a list", lambda a, n: [a], False),
        ("a complex", lambda a, n: complex(a), False),
        ("a dict", lambda a, n: {"action": a}, False),
    ]


def step_case(name, step, snapshot, legal, n, make, integer, ready=None) -> Case:
    """``step(action)`` with ``make(legal(), n)``: a ``ValueError`` or ``TypeError`` with a
    message, ``snapshot()`` unchanged; a return only for an ``integer``."""

    def run():
        if ready is not None:
            ready()
        value = make(legal(), n)
        before = snapshot()
        try:
            step(value)
        except (ValueError, TypeError) as e:
            if not str(e).strip():
                raise Finding("error-type", f"{type(e).__name__} without a message") from None
            if not same_state(before, snapshot()):
                raise Finding("error-type", "the state changed on a refused step") from None
            return
        except Exception as e:  # noqa: BLE001
            raise Finding(
                "error-type", f"{describe(e)}; expected ValueError or TypeError"
            ) from None
        if not integer:
            raise Finding("error-type", f"took {short(brief(value), 80)} as an action")

    return Case(name, run)


def same_state(a, b) -> bool:
    if isinstance(a, list):
        return unchanged(a, b)
    return a == b


def bad_batches(legal: np.ndarray, n: int) -> list[tuple[str, object]]:
    """Action batches for an engine of ``len(legal)`` rows that are no int array of actions."""
    b = len(legal)
    return [
        ("floats of legal ids", legal.astype(np.float64)),
        ("float32 of legal ids", legal.astype(np.float32)),
        ("1.5 in every row", np.full(b, 1.5)),
        ("nan", np.full(b, np.nan)),
        ("bools", np.ones(b, bool)),
        ("shape (b - 1,)", legal[:-1]),
        ("shape (b, 1)", legal[:, None]),
        ("a scalar", int(legal[0])),
        ("a list with a float", [float(legal[0]), *legal[1:].tolist()]),
        ("an object array", legal.astype(object)),
        ("strings", legal.astype(str)),
        ("complex", legal.astype(np.complex128)),
        ("-1", np.full(b, -1)),
        ("num_actions", np.full(b, n)),
        ("uint64 2**63", np.full(b, 2**63, np.uint64)),
        ("Python ints 2**64", [2**64] * b),
        ("None", None),
        ("a ragged list", [[1], [1, 2]] + [[0]] * (b - 2)),
        ("int64 min", np.full(b, np.iinfo(np.int64).min)),
    ]


def state_of(engine) -> list[np.ndarray]:
    return [np.array(a, copy=True) for a in engine.state] + [
        np.array(engine._obs, copy=True),
        np.array(engine._mask, copy=True),
    ]


def unchanged(before, after) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))


def refuse_unchanged(call, engine, types=(ValueError, TypeError), what=" a non-action") -> None:
    before = state_of(engine)
    refuses(call, types=types, what=what)
    if not unchanged(before, state_of(engine)):
        raise Finding("error-type", "the state changed on a refused call")


def bad_options(deck: list[str], p: int, rows: int) -> list[tuple[str, object]]:
    return [
        ("a list", [1]),
        ("a string", "deck"),
        ("an unknown key", {"frobnicate": 1}),
        ("deck: a foreign card", {"deck": ["XX", *deck[1:]]}),
        ("deck: a card twice", {"deck": [deck[0], *deck[:-1]]}),
        ("deck: short", {"deck": deck[:-1]}),
        ("deck: long", {"deck": [*deck, deck[0]]}),
        ("deck: ids out of range", {"deck": [-1] + list(range(1, len(deck)))}),
        ("deck: ids 0..n - 1 as floats", {"deck": [float(i) for i in range(len(deck))]}),
        ("deck: None cards", {"deck": [None] * len(deck)}),
        ("deck: an int", {"deck": 5}),
        ("deck: a dict", {"deck": {"a": 1}}),
        ("deck: per row, too few", {"deck": [deck] * (rows + 1)}),
        ("deck: nested three deep", {"deck": [[deck]] * rows}),
        ("deck: markup", {"deck": [MARKUP, *deck[1:]]}),
        ("deck: a 2-d float array", {"deck": np.zeros((rows, len(deck)))}),
        ("dealer -1", {"dealer": -1}),
        ("dealer p", {"dealer": p}),
        ("dealer 1.5", {"dealer": 1.5}),
        ("dealer True", {"dealer": True}),
        ("dealer '0'", {"dealer": "0"}),
        ("dealer per row, too many", {"dealer": [0] * (rows + 1)}),
        ("dealer a 0-d float array", {"dealer": np.array(1.0)}),
        ("dealer 2**64", {"dealer": 2**64}),
        ("episode -1", {"episode": -1}),
        ("episode 2**44", {"episode": 2**44}),
        ("episode 1.5", {"episode": 1.5}),
        ("episode True", {"episode": True}),
        ("episode '1'", {"episode": "1"}),
        ("episode np.uint64(2**63)", {"episode": np.uint64(2**63)}),
        ("episode 2**70", {"episode": 2**70}),
        ("episode None", {"episode": None}),
    ]


BAD_SEEDS = [
    ("-1", -1),
    ("2**63", 2**63),
    ("2**64", 2**64),
    ("1.5", 1.5),
    ("'1'", "1"),
    ("True", True),
    ("np.float64(1)", np.float64(1)),
    ("a list", [1]),
]


def config_values() -> list[tuple[str, object]]:
    return [
        ("'x'", "x"),
        ("1.5", 1.5),
        ("None", None),
        ("[]", []),
        ("True", True),
        ("-1", -1),
        ("10**30", 10**30),
        ("a dict", {"a": 1}),
    ]


def engine_cases(rng) -> tuple[list[Case], list[Case]]:
    from cardenvs.core.vector import RandomLegal  # noqa: F401  (compiled with the engine)

    rows = 4
    eng = cardenvs.make_vector("piquet-v0", rows, seed=0, episode="deal")
    eng.reset(seed=0)
    n = eng.num_actions
    deck = cardenvs.make("piquet-v0", episode="deal")
    deck.reset(seed=0)
    order = deck.unwrapped.record()["deals"][0]["deck"]
    p = eng.num_seats

    def legal_now():
        return np.array([int(np.flatnonzero(m)[0]) for m in eng.action_mask], np.int64)

    cases, first = [], []

    def control():
        eng.step(legal_now())
        eng.step(legal_now().tolist())

    first.append(Case("control: legal actions (an array, a list) step", control))
    for k, (name, _) in enumerate(bad_batches(legal_now(), n)):
        cases.append(
            step_case(
                f"step {name}",
                eng.step,
                lambda: state_of(eng),
                legal_now,
                n,
                lambda legal, n, k=k: bad_batches(legal, n)[k][1],
                False,
            )
        )
    cases.append(
        Case(
            "step an illegal action in range",
            lambda: refuse_unchanged(
                lambda: eng.step(
                    np.array([int(np.flatnonzero(m == 0)[0]) for m in eng.action_mask])
                ),
                eng,
            ),
        )
    )
    for name, options in bad_options(order, p, rows):
        cases.append(
            Case(
                f"reset options {name}",
                lambda o=options: refuse_unchanged(lambda: eng.reset(seed=0, options=o), eng),
            )
        )
    for name, seed in [*BAD_SEEDS, ("MAX_SEED (4 rows)", MAX_SEED)]:
        cases.append(
            Case(
                f"reset seed {name}",
                lambda s=seed: refuse_unchanged(lambda: eng.reset(seed=s), eng),
            )
        )
    for name, value in (
        ("[-1]", [-1]),
        ("[4]", [rows]),
        ("[1.5]", [1.5]),
        ("[[0]]", [[0]]),
        ("'0'", "0"),
        ("None", None),
        ("[True]", [True]),
        ("2**64", [2**64]),
    ):
        cases.append(
            Case(
                f"reset_rows {name}",
                lambda v=value: refuse_unchanged(lambda: eng.reset_rows(v), eng),
            )
        )
    for name, num in (
        ("0", 0),
        ("-1", -1),
        ("1.5", 1.5),
        ("True", True),
        ("'2'", "2"),
        ("None", None),
    ):
        cases.append(
            Case(
                f"make_vector num_envs {name}",
                lambda x=num: refuses(
                    lambda: cardenvs.make_vector("piquet-v0", x), types=(ValueError, TypeError)
                ),
            )
        )
    for name, seed in BAD_SEEDS:
        cases.append(
            Case(
                f"make_vector seed {name}",
                lambda s=seed: refuses(
                    lambda: cardenvs.make_vector("piquet-v0", 2, seed=s),
                    types=(ValueError, TypeError),
                ),
            )
        )
    cases.append(
        Case(
            "make_vector an unknown id", lambda: refuses(lambda: cardenvs.make_vector("nope-v0", 2))
        )
    )
    cases.append(
        Case(
            "make_vector an id of another type", lambda: refuses(lambda: cardenvs.make_vector(5, 2))
        )
    )

    def fresh():
        e = cardenvs.make_vector("piquet-v0", 1)
        refuses(lambda: e.step(np.zeros(1, np.int64)), types=(RuntimeError,))
        refuses(lambda: e.reset_rows([0]), types=(RuntimeError,))

    cases.append(Case("step and reset_rows before reset", fresh))
    # the AEC env's step
    aec = cardenvs.make("piquet-v0", episode="deal", illegal_action="raise")
    aec.reset(seed=0)

    def aec_state():
        return json.dumps(aec.unwrapped.record()), aec.agent_selection

    def aec_ready():
        if not aec.unwrapped.legal_actions():
            aec.reset(seed=0)

    for name, make, integer in action_kinds():
        cases.append(
            step_case(
                f"AEC step {name}",
                aec.step,
                aec_state,
                lambda: aec.unwrapped.legal_actions()[0],
                n,
                make,
                integer,
                aec_ready,
            )
        )

    def unknown_option():
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            refuses(lambda: aec.reset(seed=0, options={"frobnicate": 1}), accept=True)
        if not any("frobnicate" in str(w.message) for w in seen):
            raise Finding("error-type", "an unknown reset option ignored without a warning")

    cases.append(Case("AEC reset options an unknown key (ignored with a warning)", unknown_option))
    for name, options in bad_options(order, 2, 1):
        if "per row" in name or "2-d" in name or "unknown key" in name:
            continue
        cases.append(
            Case(
                f"AEC reset options {name}",
                lambda o=options: refuses(
                    lambda: aec.reset(seed=0, options=o), types=(ValueError, TypeError)
                ),
            )
        )
    for name, seed in BAD_SEEDS:
        cases.append(
            Case(
                f"AEC reset seed {name}",
                lambda s=seed: refuses(lambda: aec.reset(seed=s), types=(ValueError, TypeError)),
            )
        )
    return first, cases


def config_cases() -> dict[str, list[Case]]:
    """Every option of every id with values of the wrong type, per id: accepted or refused
    (``ValueError``, ``TypeError``), never another error."""
    from cardenvs.registry import lookup

    out = {}
    for env_id in cardenvs.GAMES:
        game, defaults = lookup(env_id)
        out[env_id] = [
            Case(
                f"config {env_id} {key}={name}",
                lambda e=env_id, k=key, v=value: refuses(
                    lambda: cardenvs.make_vector(e, 1, **{k: v}),
                    types=(ValueError, TypeError),
                    accept=True,
                ),
            )
            for key in game.config_cls.from_kwargs(**defaults).to_dict()
            for name, value in config_values()
        ]
    return out


def surface_engine(rng, n: int, folders: Folders, timeout: float) -> list[Outcome]:
    first, catalogue = engine_cases(rng)
    configs = config_cases()
    # the catalogue has one config case per id; fuzz draws more
    catalogue += [cases[int(rng.integers(len(cases)))] for cases in configs.values()]
    pool = [c for cases in configs.values() for c in cases]

    def fuzz(k: int) -> Case:
        return pool[int(rng.integers(len(pool)))]

    return run_cases("engine", choose(rng, catalogue, fuzz, n, first=first), timeout)


def wrapper_cases(rng) -> tuple[list[Case], list[Case]]:
    from cardenvs.wrappers import SingleAgentEnv, sb3_vec_env

    cases: list[Case] = []
    first: list[Case] = []
    single = SingleAgentEnv("piquet-v0", episode="deal", illegal_action="raise")
    single.reset(seed=0)
    n = int(single.action_space.n)
    order = cardenvs.make("piquet-v0", episode="deal")
    order.reset(seed=0)
    deck = order.unwrapped.record()["deals"][0]["deck"]

    def single_legal():
        return int(np.flatnonzero(single.action_masks())[0])

    def single_control():
        single.step(single_legal())
        single.reset(seed=0)

    first.append(Case("control: SingleAgentEnv steps a legal action", single_control))

    def single_ready():
        if single._done:
            single.reset(seed=0)

    for name, make, integer in action_kinds():
        cases.append(
            step_case(
                f"SingleAgentEnv.step {name}",
                single.step,
                lambda: state_of(single._engine),
                single_legal,
                n,
                make,
                integer,
                single_ready,
            )
        )
    for name, options in bad_options(deck, 2, 1):
        if "per row" in name or "2-d" in name:
            continue
        cases.append(
            Case(
                f"SingleAgentEnv.reset options {name}",
                lambda o=options: refuses(
                    lambda: single.reset(seed=0, options=o), types=(ValueError, TypeError)
                ),
            )
        )
    for name, kwargs in (
        ("seat -1", {"seat": -1}),
        ("seat 2", {"seat": 2}),
        ("seat 1.5", {"seat": 1.5}),
        ("seat True", {"seat": True}),
        ("seat 'x'", {"seat": "x"}),
        ("illegal_action 'x'", {"illegal_action": "x"}),
        ("render_mode 'human'", {"render_mode": "human"}),
        ("render_seat 5", {"render_seat": 5}),
        ("opponents without act", {"opponents": object()}),
        ("episode 5", {"episode": 5}),
        ("an unknown option", {"frobnicate": 1}),
    ):
        cases.append(
            Case(
                f"SingleAgentEnv({name})",
                lambda k=kwargs: refuses(
                    lambda: SingleAgentEnv("piquet-v0", **k), types=(ValueError, TypeError)
                ),
            )
        )

    class Opponent:
        def __init__(self, value):
            self.value = value

        def act(self, observation, mask):
            return self.value(observation, mask)

    for name, make, integer in action_kinds():

        def opponent(make=make, integer=integer):
            def act(observation, mask):
                return make(int(np.flatnonzero(mask)[0]), n)

            env = SingleAgentEnv("piquet-v0", seat=1, opponents=Opponent(act), episode="deal")
            refuses(
                lambda: env.reset(seed=0),
                types=(ValueError, TypeError),
                accept=integer,
                what=" an opponent's non-action",
            )

        cases.append(Case(f"SingleAgentEnv opponent plays {name}", opponent))
    # SB3
    try:
        vec = sb3_vec_env("piquet-v0", 4, seed=0, episode="deal")
    except ImportError:
        vec = None
    if vec is not None:
        vec.reset()

        def vec_legal():
            return np.array([int(np.flatnonzero(m)[0]) for m in vec.action_masks()], np.int64)

        def vec_control():
            vec.step_async(vec_legal())
            vec.step_wait()

        first.append(Case("control: the SB3 VecEnv steps legal actions", vec_control))

        def vec_call(value):
            vec.step_async(value)
            return vec.step_wait()

        for k, (name, _) in enumerate(bad_batches(vec_legal(), n)):
            cases.append(
                step_case(
                    f"SB3 VecEnv step {name}",
                    vec_call,
                    lambda: state_of(vec.engine),
                    vec_legal,
                    n,
                    lambda legal, n, k=k: bad_batches(legal, n)[k][1],
                    name == "shape (b, 1)",  # SB3's (num_envs, 1): integers, taken
                )
            )
        for name, kwargs in (
            ("num_envs 0", {"num_envs": 0}),
            ("num_envs -1", {"num_envs": -1}),
            ("num_envs 1.5", {"num_envs": 1.5}),
            ("num_envs '2'", {"num_envs": "2"}),
            ("seed -1", {"seed": -1}),
            ("seed 'x'", {"seed": "x"}),
            ("seed 2**64", {"seed": 2**64}),
            ("episode 5", {"episode": 5}),
            ("an unknown option", {"frobnicate": 1}),
        ):
            cases.append(
                Case(
                    f"sb3_vec_env({name})",
                    lambda k=kwargs: refuses(
                        lambda: sb3_vec_env("piquet-v0", **{"num_envs": 2, **k}),
                        types=(ValueError, TypeError),
                    ),
                )
            )

        def vec_opponent(value):
            def run():
                v = sb3_vec_env(
                    "piquet-v0", 2, seed=0, opponents=lambda obs, masks: value, episode="deal"
                )
                refuses(
                    lambda: v.reset(),
                    types=(ValueError, TypeError),
                    what=" an opponent's non-action",
                )

            return run

        for name, value in (
            ("floats", np.full(2, 1.5)),
            ("-1", np.full(2, -1)),
            ("num_actions", np.full(2, n)),
            ("None", None),
            ("nan", np.full(2, np.nan)),
        ):
            cases.append(Case(f"SB3 VecEnv opponent plays {name}", vec_opponent(value)))
    # RLlib (when Ray is installed)
    try:
        from cardenvs.wrappers.rllib import RLlibEnv
    except ImportError:
        RLlibEnv = None
    if RLlibEnv is not None:
        env = RLlibEnv({"env_id": "piquet-v0", "episode": "deal"})
        obs, _ = env.reset(seed=0)

        def agent_now():
            return env._to_act

        def rl_legal():
            return int(np.flatnonzero(env._engine.action_mask[0])[0])

        def rl_control():
            env.step({agent_now(): rl_legal()})
            env.reset(seed=0)

        first.append(Case("control: RLlibEnv steps a legal action", rl_control))

        def rl_ready():
            if env._done:
                env.reset(seed=0)

        for name, make, integer in action_kinds():
            cases.append(
                step_case(
                    f"RLlibEnv.step {name}",
                    lambda v: env.step({agent_now(): v}),
                    lambda: state_of(env._engine),
                    rl_legal,
                    n,
                    make,
                    integer,
                    rl_ready,
                )
            )
        for name, make in (
            ("the other agent", lambda: {f"player_{1 - int(agent_now()[-1])}": rl_legal()}),
            ("both agents", lambda: {"player_0": rl_legal(), "player_1": rl_legal()}),
            ("no agent", lambda: {}),
            ("None", lambda: None),
            ("a list", lambda: [rl_legal()]),
            ("an unknown agent", lambda: {"player_9": rl_legal()}),
        ):
            cases.append(
                Case(
                    f"RLlibEnv.step for {name}",
                    lambda make=make: refuse_unchanged(lambda: env.step(make()), env._engine),
                )
            )
        for name, config in (
            ("no env_id", {}),
            ("env_id 5", {"env_id": 5}),
            ("an unknown env_id", {"env_id": "nope-v0"}),
            ("render_mode 'human'", {"env_id": "piquet-v0", "render_mode": "human"}),
            ("episode 5", {"env_id": "piquet-v0", "episode": 5}),
            ("a list", [1]),
        ):
            cases.append(
                Case(
                    f"RLlibEnv({name})",
                    lambda c=config: refuses(lambda: RLlibEnv(c), types=(ValueError, TypeError)),
                )
            )
        for name, options in bad_options(deck, 2, 1):
            if "per row" in name or "2-d" in name:
                continue
            cases.append(
                Case(
                    f"RLlibEnv.reset options {name}",
                    lambda o=options: refuses(
                        lambda: env.reset(seed=0, options=o), types=(ValueError, TypeError)
                    ),
                )
            )
    return first, cases


def surface_wrappers(rng, n: int, folders: Folders, timeout: float) -> list[Outcome]:
    first, catalogue = wrapper_cases(rng)

    def fuzz(k: int) -> Case:  # the catalogue again, in a random order (the envs have moved on)
        case = catalogue[int(rng.integers(len(catalogue)))]
        return Case(f"again {k}: {case.name}", case.run)

    return run_cases("wrappers", choose(rng, catalogue, fuzz, n, first=first), timeout)


# =============================================================================================
# The run
# =============================================================================================
RUNNERS = {
    "web": surface_web,
    "models": surface_models,
    "records": surface_records,
    "viewer": surface_viewer,
    "cli": surface_cli,
    "wrappers": surface_wrappers,
    "engine": surface_engine,
}


def budgets(total: int, surfaces) -> dict[str, int]:
    """``total`` cases shared among ``surfaces`` in the proportions of ``WEIGHTS``."""
    weights = [WEIGHTS[s] for s in surfaces]
    out = [total * w // sum(weights) for w in weights]
    for i in range(total - sum(out)):
        out[i % len(out)] += 1
    return dict(zip(surfaces, out, strict=True))


def attack(
    seed: int = 0,
    cases: int = DEFAULT_CASES,
    surfaces=SURFACES,
    per_surface: dict | None = None,
    timeout: float = CASE_TIMEOUT,
    keep: Path | None = None,
    progress=None,
) -> dict:
    """Run the cases (see the module docstring); the report: ``seed``, ``counts`` per surface
    (``cases``, ``ok``, ``findings``, ``seconds``), ``findings`` and every ``case``."""
    surfaces = [s for s in SURFACES if s in surfaces]
    plan = per_surface or budgets(cases, surfaces)
    outcomes: list[Outcome] = []
    counts = {}
    if keep is not None:
        Path(keep).mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="cardenvs-attack-", dir=keep))
    folders = Folders(root)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for surface in surfaces:
                rng = np.random.default_rng([seed, SURFACES.index(surface)])
                t0 = time.perf_counter()
                with (
                    contextlib.redirect_stdout(io.StringIO()),
                    contextlib.redirect_stderr(io.StringIO()),
                ):
                    got = RUNNERS[surface](rng, plan[surface], folders, timeout)
                seconds = time.perf_counter() - t0
                outcomes += got
                bad = [o for o in got if o.outcome == "finding"]
                counts[surface] = {
                    "cases": len(got),
                    "ok": len(got) - len(bad),
                    "findings": len(bad),
                    "seconds": round(seconds, 1),
                }
                if progress is not None:
                    progress(surface, counts[surface])
    finally:
        if keep is None:
            shutil.rmtree(root, ignore_errors=True)
    findings = [dataclasses.asdict(o) for o in outcomes if o.outcome == "finding"]
    by_severity = {s: sum(f["severity"] == s for f in findings) for s in SEVERITIES}
    return {
        "seed": seed,
        "total": len(outcomes),
        "counts": counts,
        "by_severity": by_severity,
        "findings": findings,
        "cases": [dataclasses.asdict(o) for o in outcomes],
    }


def text_report(report: dict, every: bool = False) -> str:
    lines = [f"benchmarks.attack, seed {report['seed']}: {report['total']} cases"]
    for surface, c in report["counts"].items():
        lines.append(
            f"  {surface:9s} {c['cases']:5d} cases  {c['ok']:5d} ok  {c['findings']:4d} findings"
            f"  ({c['seconds']} s)"
        )
    sev = report["by_severity"]
    lines.append(
        f"findings: {len(report['findings'])} ("
        + ", ".join(f"{k} {v}" for k, v in sev.items())
        + ")"
    )
    for f in report["findings"]:
        lines.append(f"  [{f['severity']}] {f['surface']}: {f['name']}\n      {f['detail']}")
    notes = [o for o in report["cases"] if o["outcome"] == "ok" and o["detail"]]
    if notes:
        lines.append(f"notes (handled as expected, with a remark): {len(notes)}")
        for o in notes:
            lines.append(f"  {o['surface']}: {o['name']}\n      {o['detail']}")
    if every:
        lines.append("every case:")
        for o in report["cases"]:
            lines.append(f"  {o['surface']:9s} {o['outcome']:8s} {o['name']}")
    return "\n".join(lines)


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.attack",
        description="Hostile input against cardenvs's surfaces (web, models, records, viewer, "
        "CLI, wrappers, engine); exit 1 on any finding.",
    )
    p.add_argument("--seed", type=int, default=0, help="the cases' seed (default 0)")
    p.add_argument(
        "--cases", type=int, default=DEFAULT_CASES, help=f"cases in all (default {DEFAULT_CASES})"
    )
    p.add_argument("--surfaces", nargs="+", choices=SURFACES, default=list(SURFACES))
    p.add_argument(
        "--per-surface",
        type=int,
        metavar="N",
        help="N cases on each surface instead of --cases shared among them",
    )
    p.add_argument("--json", help="write the report (every case) as JSON here")
    p.add_argument("--list", action="store_true", help="print every case and its outcome")
    p.add_argument(
        "--case-timeout", type=float, default=CASE_TIMEOUT, help="a case's deadline in seconds"
    )
    p.add_argument(
        "--keep", metavar="DIR", help="write the cases' files in a new folder under DIR, kept"
    )
    a = p.parse_args(argv)
    if a.cases < len(a.surfaces):
        p.error(f"--cases must be at least one per surface ({len(a.surfaces)}), got {a.cases}")
    if a.per_surface is not None and a.per_surface < 1:
        p.error(f"--per-surface must be at least 1, got {a.per_surface}")
    if a.case_timeout <= 0:
        p.error(f"--case-timeout must be above 0 seconds, got {a.case_timeout}")

    def progress(surface, c):
        print(
            f"{surface}: {c['cases']} cases, {c['findings']} findings ({c['seconds']} s)",
            file=sys.stderr,
            flush=True,
        )

    report = attack(
        a.seed,
        a.cases,
        a.surfaces,
        per_surface=None if a.per_surface is None else dict.fromkeys(a.surfaces, a.per_surface),
        timeout=a.case_timeout,
        keep=None if a.keep is None else Path(a.keep),
        progress=progress,
    )
    print(text_report(report, a.list))
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1, default=str))
    return report


if __name__ == "__main__":
    sys.exit(1 if main()["findings"] else 0)
