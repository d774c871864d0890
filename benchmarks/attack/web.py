"""The ``web`` surface: ``cardenvs.ui.web.make_server`` serving in a thread on 127.0.0.1 (a free
port), raw HTTP over sockets: foreign ``Host`` headers (DNS rebinding), cross-site ``Origin``,
missing or wrong tokens, other content types, malformed, huge, negative and non-ASCII
``Content-Length``, ``Transfer-Encoding``, deeply nested, non-JSON and non-UTF-8 bodies,
ill-typed and out-of-range actions and steps, unknown paths and methods, ``HEAD``, malformed
request lines and HTTP versions.

Expected: a 4xx with a JSON ``{"error": ...}`` (an HTTP/0.9 request line gets its JSON body
alone, as HTTP/0.9 has no status line; an HTTP version above 1.x gets 505), never a 500 or a
dropped connection; the game unchanged by a refused request; neither the hand nor the token in
an answer to a request without the token or from a foreign host or origin. Also: the records the
server saves (a finished game, then an unfinished one on ``POST /new``) never overwrite a file,
and a bad ``record_path`` is refused before play.

``surface_web`` runs the controls (``web_controls``), the catalogue (``web_catalogue``; a seeded
sample of it when the budget is smaller) and seeded random requests beyond it (``web_fuzz``),
then a control that the server still answers and the saves (``web_saves``).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import cardenvs
from benchmarks.attack.common import (
    MARKUP,
    Case,
    Finding,
    Folders,
    Outcome,
    choose,
    refuses,
    run_cases,
    short,
)
from benchmarks.attack.web_http import (
    WebTarget,
    _allows_get_and_post,
    action_body,
    http_request,
    legal_body,
    web_case,
    web_headers,
)
from cardenvs.core.checks import brief

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
            from cardenvs.agents import RandomAgent
            from cardenvs.ui import web

            folder = folders.new("web-path")
            (folder / "old.json").write_text("keep")
            path = {
                "an existing file": folder / "old.json",
                "a directory": folder,
                "a missing directory": folder / "missing" / "g.json",
            }[kind]
            refuses(
                lambda: web.make_server(
                    "piquet-v0", 0, RandomAgent(0), record_path=path
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
