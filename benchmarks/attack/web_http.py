"""The ``web`` surface's plumbing: ``WebTarget`` (a ``cardenvs.ui.web.make_server`` serving in a
thread on 127.0.0.1, a free port, every socket with a timeout), raw HTTP requests over sockets
(``http_request``, ``web_headers``), and ``web_case``: a request and the checks every answer
must pass (a 4xx with a JSON ``{"error": ...}``, never a 500 or a dropped connection; the game
unchanged by a refused request; neither the hand nor the token in an answer to a request
without the token or from a foreign host or origin).
"""

from __future__ import annotations

import contextlib
import http.client
import io
import json
import socket
import threading
from pathlib import Path

from benchmarks.attack.common import NET_TIMEOUT, Case, Finding, short

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
        from cardenvs.agents import RandomAgent
        from cardenvs.ui import web

        self.folder = folder
        self.server = web.make_server(
            "piquet-v0",
            0,
            RandomAgent(opponent_seed),
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
