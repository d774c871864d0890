"""The web game (``cardenvs.web``) against hostile input: a per-server token in the page that
``GET /state`` and every POST need, only its own ``Host`` (DNS rebinding) and ``Origin``
(cross-site requests), JSON bodies only as ``application/json``, clear 4xx answers (never a 500)
to malformed bodies; a page of another origin in headless Chromium can neither play a move nor
throw the game away. Also the web game's seeds (an independent one per game unless the player
asked for one, shown only once the game is over), the unfinished game saved on ``POST /new`` and
when the server stops, ``record_path`` checked before play, and a viewer command that survives a
path with spaces. Raw HTTP through ``http.client`` against servers started here; one browser
(``tests/browser.py``; it fails, not skips, without Chromium).
"""

from __future__ import annotations

import http.client
import http.server
import json
import re
import shlex
import threading
import time

import pytest
from browser import chrome

import cardenvs
from cardenvs.agents.base import RandomAgent
from cardenvs.ui import web

CONFIG = {"episode": "deal"}
DATA = re.compile(r'<script type="application/json" id="cardenvs-data">(.*?)</script>', re.S)


class Served:
    """A ``make_server`` server serving in a thread; ``seen``: ``(method, path, status)`` of
    every answer it sent."""

    def __init__(self, server, seen):
        self.server, self.seen = server, seen
        self.port = server.server_address[1]
        self.game = server.game

    def request(self, method, path, body=None, headers=None, token=True):
        """``(status, headers, parsed JSON or text)``; ``token``: send the page's token (the
        ``X-Cardenvs-Token`` header) as the page does; ``headers`` may set ``Host`` and
        ``Content-Length`` themselves (http.client then adds none)."""
        headers = dict(headers or {})
        if token and page_token(self.port):
            headers.setdefault("X-Cardenvs-Token", page_token(self.port))
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        return raw(self.port, method, path, body, headers)

    def state(self) -> dict:
        status, _, value = self.request("GET", "/state")
        assert status == 200, value
        return value

    def posts(self) -> list[tuple[str, int]]:
        return [(path, status) for method, path, status in self.seen if method == "POST"]


def raw(port, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        text = r.read().decode("utf-8", "replace")
        head = {k.lower(): v for k, v in r.getheaders()}
    finally:
        conn.close()
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = text
    return r.status, head, value


def page_data(port, host=None) -> dict:
    status, _, text = raw(port, "GET", "/", headers={"Host": host} if host else {})
    assert status == 200, text
    return json.loads(DATA.search(text).group(1))


def page_token(port):
    return page_data(port).get("token")


@pytest.fixture
def served(tmp_path):
    """``start(**make_server kwargs)``: a piquet-v0 deal (seat 0, against ``RandomAgent(1)``)
    served in a thread; every server started is stopped at the end."""
    started = []

    def start(**kwargs):
        kwargs.setdefault("config", CONFIG)
        kwargs.setdefault("record_path", tmp_path / "g.json")
        opponent = kwargs.pop("opponent", RandomAgent(1))
        server = web.make_server("piquet-v0", 0, opponent, **kwargs)
        seen = []

        class Spy(server.RequestHandlerClass):
            def send_response(self, code, message=None):
                seen.append((self.command, self.path.split("?", 1)[0], code))
                super().send_response(code, message)

        server.RequestHandlerClass = Spy
        t = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
        t.start()
        started.append((server, t))
        return Served(server, seen)

    yield start
    for server, t in started:
        server.shutdown()
        t.join(30)
        server.server_close()


def unchanged(s: Served, before: dict) -> None:
    """Nothing was played and no new game started since ``before`` (a state)."""
    assert s.game.games == 1
    after = s.state()
    assert after["step"] == before["step"] and after["scene"] == before["scene"]


# --- token, Host, Origin, Content-Type (issue 48 item 1) -----------------------------------------
def test_web__the_page_carries_a_random_per_server_token_that_state_requires(served):
    a, b = served(), served()
    ta, tb = page_token(a.port), page_token(b.port)
    assert isinstance(ta, str) and len(ta) >= 32 and ta != tb
    status, _, reply = a.request("GET", "/state", token=False)
    assert status == 403 and "token" in reply["error"]
    for wrong in (tb, ta[:-1], ta + "x", "", "é"):
        status, _, reply = a.request("GET", "/state", headers={"X-Cardenvs-Token": wrong})
        assert status == 403 and "token" in reply["error"], wrong
    status, _, state = a.request("GET", "/state")
    assert status == 200 and state["seat"] == 0


def test_web__posts_need_the_token(served):
    s = served()
    before = s.state()
    legal = before["legal"][0]["id"]
    for path, body in (("/act", {"action": legal, "step": before["step"]}), ("/new", {})):
        status, _, reply = s.request("POST", path, body, token=False)
        assert status == 403 and "token" in reply["error"], (path, reply)
    unchanged(s, before)
    status, _, state = s.request("POST", "/act", {"action": legal, "step": before["step"]})
    assert status == 200 and state["step"] > before["step"]


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:{port}", "127.0.0.1:1", "localhost", "[::1]:{port}", ""]
)
def test_web__a_foreign_host_is_refused_dns_rebinding(served, host):
    s = served()
    host = host.format(port=s.port)
    token = page_token(s.port) or ""
    for path in ("/", "/state", "/nothing"):
        status, _, reply = raw(
            s.port, "GET", path, headers={"Host": host, "X-Cardenvs-Token": token}
        )
        assert status == 421 and "Host" in reply["error"], (path, reply)
        assert token not in json.dumps(reply)
    body = json.dumps({"action": s.state()["legal"][0]["id"]}).encode()
    headers = {"Host": host, "X-Cardenvs-Token": token, "Content-Type": "application/json"}
    before = s.state()
    status, _, reply = raw(s.port, "POST", "/act", body, headers)
    assert status == 421 and "Host" in reply["error"]
    unchanged(s, before)


def test_web__its_own_hosts_are_served(served):
    s = served()
    for host in (f"127.0.0.1:{s.port}", f"localhost:{s.port}", f"LOCALHOST:{s.port}"):
        assert page_data(s.port, host)["game"] == "piquet-v0"
        status, _, _ = s.request("GET", "/state", headers={"Host": host})
        assert status == 200, host


@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1:{port}", "x"],
)
def test_web__a_cross_origin_request_is_refused(served, origin):
    s = served()
    origin = origin.format(port=s.port)
    before = s.state()
    legal = before["legal"][0]["id"]
    for path, body in (("/act", {"action": legal}), ("/new", {})):
        status, _, reply = s.request("POST", path, body, headers={"Origin": origin})
        assert status == 403 and "Origin" in reply["error"], (path, reply)
    status, _, reply = s.request("GET", "/state", headers={"Origin": origin})
    assert status == 403 and "Origin" in reply["error"]
    unchanged(s, before)
    # the page's own origin is fine
    own = {"Origin": f"http://127.0.0.1:{s.port}"}
    status, _, state = s.request("POST", "/act", {"action": legal}, headers=own)
    assert status == 200 and state["step"] > before["step"]


@pytest.mark.parametrize(
    "kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]
)
def test_web__a_json_body_needs_the_json_content_type(served, kind):
    s = served()
    before = s.state()
    body = json.dumps({"action": before["legal"][0]["id"]}).encode()
    headers = {} if kind is None else {"Content-Type": kind}
    for path in ("/act", "/new"):
        status, _, reply = s.request("POST", path, body, headers=headers)
        assert status == 415 and "application/json" in reply["error"], (path, reply)
    unchanged(s, before)
    headers = {"Content-Type": "application/json; charset=utf-8"}
    status, _, state = s.request("POST", "/act", body, headers=headers)
    assert status == 200 and state["step"] > before["step"]


def test_web__answers_forbid_framing_and_sniffing(served):
    s = served()
    status, head, _ = raw(s.port, "GET", "/")
    assert status == 200
    assert head["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in head["content-security-policy"]
    assert head["x-content-type-options"] == "nosniff"


ATTACK = """<!DOCTYPE html><html><body>
<iframe name="sink1"></iframe><iframe name="sink2"></iframe>
<form id="f1" method="POST" action="TARGET/new" enctype="text/plain" target="sink1">
<input name='{"x": "' value='"}'></form>
<form id="f2" method="POST" action="TARGET/act" enctype="text/plain" target="sink2">
<input name='{"action": ACTION, "x": "' value='"}'></form>
<script>
var n = 0;
function done() { n += 1; document.body.dataset.fetched = String(n); }
function post(path, body) {
  return fetch("TARGET" + path, {method: "POST", mode: "no-cors",
    headers: {"Content-Type": "text/plain"}, body: body}).then(done, done);
}
post("/act", JSON.stringify({action: ACTION, step: STEP}))
  .then(function () { return post("/act", JSON.stringify({action: ACTION})); })
  .then(function () { return post("/new", "{}"); })
  .then(function () {
    document.getElementById("f2").submit();
    document.getElementById("f1").submit();
  });
</script></body></html>"""


def test_web__a_page_of_another_origin_cannot_play_or_start_a_new_game(served):
    """A second local server (another port: another origin) serves a page whose script posts
    moves and a new game to the game server as "simple" requests (``fetch`` in ``no-cors`` mode
    with ``text/plain`` bodies that are JSON) and by form posts: every one reaches the server and
    is refused; the game is as it was."""
    s = served()
    before = s.state()
    target = f"http://127.0.0.1:{s.port}"
    html = (
        ATTACK.replace("TARGET", target)
        .replace("ACTION", str(before["legal"][0]["id"]))
        .replace("STEP", str(before["step"]))
    ).encode()

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(html)))
            self.end_headers()
            self.wfile.write(html)

        def log_message(self, *args):
            pass

    evil = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    worker = threading.Thread(target=evil.serve_forever, args=(0.05,), daemon=True)
    worker.start()
    driver = chrome()
    try:
        driver.get(f"http://127.0.0.1:{evil.server_address[1]}/")
        t0 = time.time()
        while len(s.posts()) < 5:  # three fetches and two form posts
            assert time.time() - t0 < 120, f"the attack did not reach the server: {s.seen}"
            time.sleep(0.05)
        fetched = driver.execute_script("return document.body.dataset.fetched;")
        assert fetched == "3"
    finally:
        driver.quit()
        evil.shutdown()
        worker.join(30)
        evil.server_close()
    posts = s.posts()
    assert {p for p, _ in posts} == {"/act", "/new"}
    assert all(status == 403 for _, status in posts), posts
    unchanged(s, before)


# --- malformed bodies (issue 48 item 14) ---------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "length", "status", "words"),
    [
        (b"[" * 2000 + b"]" * 2000, None, 400, "nested"),
        (b'{"action": ' + b"[" * 1500 + b"]" * 1500 + b"}", None, 400, "nested"),
        (b"{}", "\u00b2", 400, "Content-Length"),
        (b"{}", "-2", 400, "Content-Length"),
        (b"{}", "2 ", 200, ""),
        (b"{}", "0x2", 400, "Content-Length"),
        (b"", "100000", 413, "at most"),
        (b"{oops", None, 400, "not JSON"),
        (b"\xff\xfe", None, 400, "not JSON"),
    ],
)
def test_web__malformed_bodies_are_clear_4xx_answers(served, body, length, status, words):
    s = served()
    headers = {"Content-Type": "application/json"}
    if length is not None:
        headers["Content-Length"] = length
    got, _, reply = s.request("POST", "/new", body, headers=headers)
    assert got == status, reply
    if status != 200:
        assert words in reply["error"], reply


def test_web__a_post_without_a_length_and_other_methods_are_refused(served):
    s = served()
    conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=60)
    try:
        conn.putrequest("POST", "/new")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("X-Cardenvs-Token", page_token(s.port) or "")
        conn.endheaders()
        r = conn.getresponse()
        assert r.status == 411 and "Content-Length" in json.loads(r.read())["error"]
    finally:
        conn.close()
    for method in ("PUT", "DELETE", "PATCH", "OPTIONS"):
        status, head, reply = s.request(method, "/act", b"{}")
        assert status == 405 and "GET" in head["allow"] and "POST" in head["allow"], method
        assert "not allowed" in reply["error"]


# --- the seeds of web games (issue 48 item 4) ----------------------------------------------------
class FirstLegal:
    def act_env(self, env):
        return env.unwrapped.legal_actions()[0]


def finish(game) -> dict:
    while not game.over():
        state = game.state()
        assert "seed" not in state or state["seed"] is None
        game.act(state["legal"][0]["id"])
    return game.core.record()


def test_web__each_game_draws_its_own_seed_shown_only_once_it_is_over(tmp_path):
    game = web.Game("piquet-v0", 0, FirstLegal(), CONFIG, None, tmp_path / "g.json")
    during = json.dumps(game.state())
    first = finish(game)
    assert str(first["seed"]) not in during
    shown = game.state().get("seed")
    assert json.loads((tmp_path / "g.json").read_text())["seed"] == first["seed"]
    game.new()
    second = game.core.record()
    assert "episode" not in second and second["seed"] != first["seed"]
    assert shown == first["seed"]
    assert str(second["seed"]) not in json.dumps(game.state())
    # game 1's record does not deal game 2
    again = cardenvs.make("piquet-v0", **CONFIG)
    again.reset(seed=first["seed"])
    again.reset()
    assert again.unwrapped.record()["deals"][0]["deck"] != second["deals"][0]["deck"]


def test_web__a_seed_asked_for_keeps_games_reproducible(tmp_path):
    game = web.Game("piquet-v0", 0, FirstLegal(), CONFIG, 7, tmp_path / "g.json")
    assert game.core.record()["seed"] == 7
    finish(game)
    game.new()
    second = game.core.record()
    assert second["seed"] == 7 and second["episode"] == 1


# --- unfinished web games are saved (issue 48 item 5) --------------------------------------------
def test_web__a_new_game_saves_the_unfinished_one_and_says_where(tmp_path, capsys):
    path = tmp_path / "g.json"
    game = web.Game("piquet-v0", 0, FirstLegal(), CONFIG, 3, path)
    game.act(game.state()["legal"][0]["id"])
    game.new()
    assert game.saved == [path]
    record = json.loads(path.read_text())
    assert record["result"] is None and record["deals"][0]["actions"]
    assert cardenvs.replay(record) == record
    assert str(path) in capsys.readouterr().out
    assert str(path) in json.dumps(game.state()["log"])  # and the page's log says so
    finish(game)
    assert game.saved == [path, tmp_path / "g-2.json"]


def test_web__stopping_the_server_saves_the_unfinished_game_and_says_where(tmp_path, capsys):
    path = tmp_path / "stop.json"
    urls, stop, out = [], threading.Event(), {}

    def run():
        out["saved"] = web.serve(
            "piquet-v0", 0, FirstLegal(), CONFIG, 2, record_path=path, ready=urls.append, stop=stop
        )

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t0 = time.time()
    while not urls:
        assert t.is_alive() and time.time() - t0 < 60, "serve did not start"
        time.sleep(0.02)
    port = int(urls[0].rsplit(":", 1)[1].strip("/"))
    headers = {"Content-Type": "application/json"}
    if page_token(port):
        headers["X-Cardenvs-Token"] = page_token(port)
    status, _, state = raw(port, "GET", "/state", headers=headers)
    body = json.dumps({"action": state["legal"][0]["id"]}).encode()
    status, _, state = raw(port, "POST", "/act", body, headers)
    assert status == 200 and not state["over"]
    stop.set()
    t.join(60)
    assert out["saved"] == [path]
    record = json.loads(path.read_text())
    assert record["result"] is None and record["deals"][0]["actions"]
    assert f"unfinished game saved: {path}" in capsys.readouterr().out


# --- the record path is checked first (issue 48 item 6) ------------------------------------------
def test_web__an_unwritable_record_path_is_refused_before_play(tmp_path):
    (tmp_path / "old.json").write_text("keep")
    for path, words in (
        (tmp_path, "is a directory"),
        (tmp_path / "old.json", "already exists"),
        (tmp_path / "missing" / "g.json", "does not exist"),
    ):
        with pytest.raises(ValueError, match=f"record_path .*{words}"):
            web.make_server("piquet-v0", 0, RandomAgent(0), CONFIG, record_path=path)
    assert (tmp_path / "old.json").read_text() == "keep"


# --- the viewer's command quotes the path (issue 48 item 15) -------------------------------------
def test_web__the_viewer_command_quotes_a_path_with_spaces(tmp_path):
    folder = tmp_path / "my games"
    folder.mkdir()
    path = folder / "a game's.json"
    game = web.Game("piquet-v0", 0, FirstLegal(), CONFIG, 1, path)
    finish(game)
    command = game.state()["viewer_command"]
    assert shlex.split(command) == [
        "python",
        "-m",
        "cardenvs.view",
        str(path),
        "-o",
        str(path.with_suffix(".html")),
    ]
