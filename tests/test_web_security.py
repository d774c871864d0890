"""The web game (``cardenvs.web``) as a player's data would have it: its seeds (an independent
one per game unless the player asked for one, shown only once the game is over), the unfinished
game saved on ``POST /new`` and when the server stops, ``record_path`` checked before play, and
a viewer command that survives a path with spaces.
"""

from __future__ import annotations

import http.client
import json
import re
import shlex
import threading
import time

import pytest

import cardenvs
from agents.base import RandomAgent
from cardenvs import web

CONFIG = {"episode": "deal"}
DATA = re.compile(r'<script type="application/json" id="cardenvs-data">(.*?)</script>', re.S)


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
