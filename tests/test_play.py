"""cardenvs.play as a person plays it: driven through a pseudo-terminal to a finished game
(answers by number, once by name, once a bad one), a four-seat game, leaving early; the saved
records replay; the answer parser and the command line's errors; the seed shown only once the
game is over unless asked for, ``--record`` checked before play, the viewer's command quoted;
``--web`` played over HTTP with the page's token, and Ctrl-C saving an unfinished web game."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from harness import random_model

import cardenvs
from cardenvs.agents import RandomAgent
from cardenvs.arena import make_agent
from cardenvs.ui import play

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;]*m")
MENU = re.compile(r"^\s*(\d+) (\S.*?)\s*$")


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("NO_COLOR", None)
    return env


class Terminal:
    """``python -m cardenvs.play ARGS`` on a pseudo-terminal: ``screen()`` waits for the next
    prompt and returns what was printed since the last answer (colour codes kept in ``raw``)."""

    def __init__(self, args, cwd: Path):
        master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardenvs.play", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=_env(),
            close_fds=True,
        )
        os.close(slave)
        self.fd = master
        self.raw = ""
        self.done = False
        self._mark = 0

    def screen(self, timeout: float = 120.0) -> str:
        """The text since the last answer, once the program asks again (ends with the prompt)
        or has exited."""
        end = time.monotonic() + timeout
        while True:
            text = ANSI.sub("", self.raw[self._mark :]).replace("\r\n", "\n")
            if text.endswith("\n> ") or text == "> ":
                return text
            if self.done:
                return text
            left = end - time.monotonic()
            if left <= 0:
                self.proc.kill()
                raise AssertionError(f"no prompt within {timeout} s; the screen:\n{text[-3000:]}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # EIO: the program has exited and the pty is closed
                chunk = b""
            if not chunk:
                self.done = True
                self.proc.wait(timeout=30)
                continue
            self.raw += chunk.decode("utf-8", errors="replace")

    def answer(self, text: str) -> None:
        self._mark = len(self.raw)
        os.write(self.fd, text.encode() + b"\n")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)
        os.close(self.fd)


def menu(screen: str) -> list[str]:
    """The numbered legal actions of the last menu on the screen, in order."""
    block = screen.rsplit("Your move:\n", 1)[1].rsplit("\n> ", 1)[0]
    items = {}
    for line in block.splitlines():
        for cell in re.split(r"(?<=\S)\s{2,}(?=\d+ )", line.strip()):
            m = MENU.match(cell)
            if m:
                items[int(m.group(1))] = m.group(2)
    return [items[k] for k in sorted(items)]


def plain_name(label: str) -> str:
    """A menu label (``play Q♥``) as the action's name (``play QH``)."""
    for letter, sym in play.SUIT_SYMBOL.items():
        label = label.replace(sym, letter)
    return label


def test_play__a_whole_deal_through_a_pseudo_terminal(tmp_path):
    record_path = tmp_path / "game.json"
    config = '{"episode": "deal"}'
    args = ["piquet-v0", "--seat", "0", "--against", "random", "--config", config, "--seed", "5"]
    term = Terminal([*args, "--record", str(record_path)], tmp_path)
    by_name = bad = None
    moves = exchanges = 0
    try:
        screen = term.screen()
        assert "piquet-v0: you are player_0" in screen and "? for help" in screen
        while not term.done:
            assert "Piquet: one deal" in screen and "> you" in screen, screen
            options = menu(screen)
            assert options, screen
            if bad is None:  # a bad answer first: asked again with the reason
                term.answer("xyzzy")
                bad = term.screen()
                assert "'xyzzy' is neither a number" in bad and bad.endswith("> ")
                term.answer("?")
                assert "unique beginning" in term.screen()
            exchanges += "cards at once, in any order" in screen  # one card: it and stop
            if by_name is None and len(options) > 1:
                by_name = plain_name(options[-1])
                term.answer(by_name.upper())  # case does not matter
            else:
                term.answer("1")
            moves += 1
            screen = term.screen()
    finally:
        term.close()
    assert "\x1b[" in term.raw  # colours on a terminal
    assert term.proc.returncode == 0, screen
    assert "game over: " in screen and "Result: " in screen
    assert f"Record: {record_path}" in screen
    assert f"python -m cardenvs.view {record_path} -o game.html" in screen
    record = json.loads(record_path.read_text())
    assert record["result"] is not None and record["players"] == ["human", "random"]
    assert cardenvs.replay(record)["result"] == record["result"]
    mine = [name for seat, name in record["deals"][0]["actions"] if seat == 0]
    assert len(mine) == moves + exchanges and by_name in mine and exchanges == 1


def test_play__a_four_seat_game_and_what_the_others_did(tmp_path):
    record_path = tmp_path / "esel.json"
    args = ["esel-v0", "--seat", "2", "--config", '{"episode": "deal"}', "--seed", "1"]
    term = Terminal([*args, "--record", str(record_path), "--no-color"], tmp_path)
    screens = []
    try:
        screen = term.screen()
        while not term.done:
            screens.append(screen)
            term.answer("" if len(menu(screen)) == 1 else "1")
            screen = term.screen()
    finally:
        term.close()
    # no colour (numba may still reset the terminal's style at exit on a terminal: "\x1b[0m")
    assert "\x1b[31m" not in term.raw and "\x1b[1m" not in term.raw
    text = "\n".join(screens) + screen
    assert "player_1 takes " in text and " as trump" in text  # the others' moves are told
    assert re.search(r"(you|player_\d) wins? the trick \(", text)
    assert "each draw a card from the stock" in text
    record = json.loads(record_path.read_text())
    assert record["players"] == ["random", "random", "human", "random"]
    cardenvs.replay(record)


def test_play__leaving_early_saves_an_unfinished_record(tmp_path):
    record_path = tmp_path / "left.json"
    args = ["piquet-v0", "--seed", "2", "--record", str(record_path), "--no-color"]
    term = Terminal(args, tmp_path)
    try:
        term.screen()
        term.answer("1")
        term.screen()
        term.answer("q")
        screen = term.screen()
    finally:
        term.close()
    assert "You left the game" in screen and f"Record: {record_path}" in screen
    record = json.loads(record_path.read_text())
    assert record["result"] is None and record["deals"][0]["actions"]
    cardenvs.replay(record)


def test_play__piped_output_has_no_colour_codes(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "cardenvs.play", "piquet-v0", "--record", str(tmp_path / "r.json")],
        input="1\nq\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(),
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "Your move:" in out.stdout and "\x1b[" not in out.stdout


LEGAL = ["play AS", "play KS", "play QH", "play 10H", "pass"]


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("1", 0),
        ("5", 4),
        ("PLAY qh", 2),
        ("play q♥", 2),
        ("  play   10h ", 3),
        ("pa", 4),
        ("play a", 0),
        ("10h", 3),
    ],
)
def test_resolve__numbers_names_prefixes_and_cards(text, index):
    assert play.resolve(text, LEGAL) == (index, "")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0", "there is no action 0: choose 1..5"),
        ("9", "there is no action 9: choose 1..5"),
        ("play", "'play' fits 4 actions (play A♠, play K♠, play Q♥, play 10♥): type more of it"),
        ("", "type a number 1..5 or an action's name (? for help)"),
        ("play JD", "'play JD' is not legal now; choose one of the 5 listed"),
        ("jd", "'jd' is not legal now; choose one of the 5 listed"),
        ("hello", "'hello' is neither a number 1..5 nor a legal action's name"),
    ],
)
def test_resolve__says_what_was_wrong(text, message):
    index, said = play.resolve(text, LEGAL, ["play JD", *LEGAL])
    assert index is None and said.startswith(message)


def test_resolve__enter_plays_the_only_action():
    assert play.resolve("", ["stop"]) == (0, "")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["piquet-v0", "--seat", "2"], "--seat must be a seat of piquet-v0 with this config: 0..1"),
        (["esel-v0", "--seat", "3", "--config", '{"num_players": 3}'], "0..2, got 3"),
        (
            ["piquet-v0", "--against", "nobody"],
            "--against: unknown agent 'nobody'; available: random, heuristic",
        ),
        (["piquet-v0", "--against", "missing.npz"], "no saved model at 'missing.npz'"),
        (["piquet-v0", "--config", "{episode"], "--config must be a JSON object"),
        (["piquet-v0", "--config", "[1]"], "--config must be a JSON object such as"),
        (["piquet-v0", "--config", '{"episode": "forever"}'], "--config: "),
        (["nogame-v0"], "invalid choice: 'nogame-v0'"),
        # issue 48, item 12: a seed outside the engine's range (it was a numpy traceback)
        (["piquet-v0", "--seed", "-1"], "--seed must be in 0..9223372036854775807, got -1"),
        (["piquet-v0", "--seed", str(2**63)], f"--seed must be in 0..{2**63 - 1}, got {2**63}"),
    ],
)
def test_command_line__errors_name_what_is_allowed(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        play.main(argv)
    assert e.value.code == 2
    assert message in capsys.readouterr().err


def test_menu__cards_in_the_order_hands_are_shown():
    names = ["discard 7S", "discard AS", "discard 8H", "discard KD", "discard JS", "stop"]
    order = play.menu_order(names)
    assert [names[i] for i in order] == [
        "discard AS",
        "discard JS",
        "discard 7S",
        "discard 8H",
        "discard KD",
        "stop",
    ]


# --- the agents of --against, played through play_game (answers "1" to every question) ---------
def scripted_game(tmp_path, against: str, env_id="piquet-v0", **kw) -> tuple[dict, list[str]]:
    config = {"episode": "deal"}
    spec = play.against_spec(against, **kw)
    agents = {1: make_agent(spec, env_id, seed=3, config=config, name=against)}
    said = []
    record = play.play_game(
        env_id,
        0,
        agents,
        config=config,
        seed=4,
        record_path=tmp_path / "g.json",
        ask=lambda prompt: "1",
        say=said.append,
        against=against,
    )
    return record, said


@pytest.mark.parametrize("against", ["random", "heuristic", "model"])
def test_play_game__against_each_kind_of_agent(tmp_path, against):
    if against == "model":
        against = str(random_model(tmp_path / "m.npz", "piquet-v0"))
    record, said = scripted_game(tmp_path, against)
    assert record["result"] is not None and record["players"] == ["human", against]
    assert cardenvs.replay(json.loads((tmp_path / "g.json").read_text()))["result"]
    assert any(x.startswith("Result: ") for x in said)


def test_play_game__against_ismcts(tmp_path):
    record, _ = scripted_game(tmp_path, "ismcts", iterations=4)
    assert record["result"] is not None and record["players"] == ["human", "ismcts"]


def test_make_agent__zoo_loads_the_model_or_says_there_is_none():
    import cardenvs.zoo

    if cardenvs.zoo.has("piquet-v0"):
        assert make_agent("zoo", "piquet-v0").name == "zoo"
    else:
        with pytest.raises(ValueError, match="the zoo has no piquet-v0 model"):
            make_agent("zoo", "piquet-v0")
    with pytest.raises(ValueError, match="unknown agent 'x'"):
        make_agent("x", "piquet-v0")


def test_make_agent__a_model_of_another_game_is_refused(tmp_path):
    path = random_model(tmp_path / "esel.npz", "esel-v0")
    with pytest.raises(ValueError):
        make_agent(f"model:{path}", "piquet-v0")


def test_web__says_when_the_browser_front_end_is_missing(capsys, monkeypatch):
    import cardenvs.ui

    monkeypatch.setitem(sys.modules, "cardenvs.ui.web", None)
    # an earlier test's import left the module as an attribute of its package, which
    # ``from . import web`` reads before sys.modules: without it the server would start
    monkeypatch.delattr(cardenvs.ui, "web", raising=False)
    monkeypatch.delattr(cardenvs, "web", raising=False)
    with pytest.raises(SystemExit) as e:
        play.main(["piquet-v0", "--web"])
    assert e.value.code == 2
    assert "--web needs cardenvs.ui.web" in capsys.readouterr().err


def _web_process(args, cwd) -> subprocess.Popen:
    """``python -m cardenvs.play ARGS`` in ``cwd``, its output piped, with SIGINT's default
    disposition: Ctrl-C as in a shell (a pytest-xdist worker ignores SIGINT, and a Python started
    with SIGINT ignored installs no KeyboardInterrupt handler, so the server would not stop)."""
    import signal

    return subprocess.Popen(
        [sys.executable, "-m", "cardenvs.play", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=cwd,
        env=_env(),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _printed_address(proc) -> str:
    """The address the web game prints when it listens."""
    for line in proc.stdout:
        m = re.search(r"open (http://127\.0\.0\.1:\d+)", line)
        if m:
            return m.group(1)
    raise AssertionError("no address printed")


def test_web__the_command_serves_a_game_that_plays_to_the_end(tmp_path):
    """``--web`` wiring: the address printed, the seat and config asked for, a whole deal
    played through the HTTP interface, the record saved where --record says."""
    import signal
    import urllib.request

    record_path = tmp_path / "web.json"
    args = ["piquet-v0", "--web", "--no-browser", "--seat", "1", "--seed", "2"]
    args += ["--config", '{"episode": "deal"}', "--record", str(record_path)]
    proc = _web_process(args, tmp_path)
    try:
        url = _printed_address(proc)

        token = page_token(url)

        def call(path, body=None):
            data = None if body is None else json.dumps(body).encode()
            req = urllib.request.Request(url + path, data=data, method="POST" if data else "GET")
            req.add_header("Content-Type", "application/json")
            req.add_header("X-Cardenvs-Token", token)
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read())

        state = call("/state")
        assert state["game"] == "piquet-v0" and state["seat"] == 1
        assert state["scene"]["title"] == "Piquet: one deal"
        while not state["over"]:
            state = call("/act", {"action": state["legal"][0]["id"], "step": state["step"]})
        assert state["record_path"] == str(record_path)
    finally:
        proc.send_signal(signal.SIGINT)
        try:  # read what is left (a full pipe must not hold the process), then it must end
            rest, _ = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            rest, _ = proc.communicate()
            raise AssertionError(f"the server did not stop on Ctrl-C; it printed: {rest}") from None
    assert proc.returncode == 0, rest
    record = json.loads(record_path.read_text())
    assert record["result"] is not None and record["config"]["episode"] == "deal"
    cardenvs.replay(record)


# --- the seed: drawn afresh and shown only once the game is over, unless asked for (--seed) ----
def said_game(tmp_path, seed, answers=None, name="g.json") -> tuple[dict, list[str]]:
    said = []
    answers = iter(answers or [])
    record = play.play_game(
        "piquet-v0",
        0,
        {1: RandomAgent(3)},
        config={"episode": "deal"},
        seed=seed,
        record_path=tmp_path / name,
        ask=lambda prompt: next(answers, "1"),
        say=said.append,
        against="random",
    )
    return record, said


def test_play_game__the_seed_is_shown_only_once_the_game_is_over(tmp_path):
    record, said = said_game(tmp_path, None)
    seed = record["seed"]
    moves = [i for i, line in enumerate(said) if "Your move:" in line]
    assert moves and all(str(seed) not in line for line in said[: moves[-1] + 1])
    assert all("seed" not in line for line in said[: moves[-1] + 1])
    end = "\n".join(said[moves[-1] + 1 :])
    assert f"seed {seed}" in end
    assert json.loads((tmp_path / "g.json").read_text())["seed"] == seed
    # a game left early shows it once left
    record, said = said_game(tmp_path, None, ["q"], name="left.json")
    assert "seed" not in "\n".join(said[:-3]) and f"seed {record['seed']}" in "\n".join(said[-3:])
    # each game draws its own
    assert said_game(tmp_path, None, name="3.json")[0]["seed"] != seed


def test_play_game__a_seed_asked_for_is_shown_and_kept(tmp_path):
    record, said = said_game(tmp_path, 4)
    assert record["seed"] == 4 and "(seed 4)" in said[0]


# --- --record is checked before play starts ----------------------------------------------------
@pytest.mark.parametrize("web", [False, True])
@pytest.mark.parametrize(
    ("where", "words"),
    [
        ("directory", "is a directory"),
        ("existing file", "already exists"),
        ("missing parent", "does not exist"),
    ],
)
def test_command_line__an_unwritable_record_path_is_refused_before_play(
    tmp_path, monkeypatch, capsys, where, words, web
):
    import io

    import cardenvs.ui.web

    (tmp_path / "old.json").write_text("keep")
    path = {
        "directory": tmp_path,
        "existing file": tmp_path / "old.json",
        "missing parent": tmp_path / "no" / "g.json",
    }[where]
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))  # were it to play: leave at once

    def serve(*args, **kwargs):
        raise AssertionError("the web game was served")

    monkeypatch.setattr(cardenvs.ui.web, "serve", serve)
    argv = ["piquet-v0", "--record", str(path), *(["--web", "--no-browser"] if web else [])]
    with pytest.raises(SystemExit) as e:
        play.main(argv)
    assert e.value.code == 2
    out = capsys.readouterr()
    assert "--record" in out.err and words in out.err and "usage:" in out.err
    assert "Your move" not in out.out
    assert (tmp_path / "old.json").read_text() == "keep"
    assert not (tmp_path / "no").exists()


def test_command_line__the_default_record_path_is_made_where_none_is_yet(
    tmp_path, monkeypatch, capsys
):
    """Without ``--record`` the game is saved under ``runs/play/``, created when missing (a
    fresh checkout has none; it was a ``ValueError`` traceback before play)."""
    import io

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))  # leave at once: the record is saved
    record = play.main(["piquet-v0", "--seed", "5", "--no-color"])
    saved = list((tmp_path / "runs" / "play").glob("piquet-v0-*.json"))
    assert len(saved) == 1 and json.loads(saved[0].read_text())["seed"] == 5 == record["seed"]
    assert f"Record: {Path('runs') / 'play' / saved[0].name}" in capsys.readouterr().out


# --- the viewer's command survives a path with spaces ------------------------------------------
def test_play_game__the_view_command_quotes_the_record_path(tmp_path):
    import shlex

    folder = tmp_path / "my games"
    folder.mkdir()
    record, said = said_game(folder, 2, name="it's mine.json")
    line = next(x for x in said if x.startswith("View it: "))
    path = folder / "it's mine.json"
    assert shlex.split(line.removeprefix("View it: ")) == [
        "python",
        "-m",
        "cardenvs.view",
        str(path),
        "-o",
        "game.html",
    ]


# --- --web: Ctrl-C saves the unfinished game and says where -------------------------------------
@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_web__ctrl_c_saves_the_unfinished_game(tmp_path, stop):
    """Ctrl-C (SIGINT), ``kill`` (SIGTERM) and a closed terminal (SIGHUP) all stop the server
    after saving the unfinished game (the last two killed it without saving)."""
    import signal
    import urllib.request

    record_path = tmp_path / "left.json"
    args = ["piquet-v0", "--web", "--no-browser", "--seed", "2", "--config", '{"episode": "deal"}']
    proc = _web_process([*args, "--record", str(record_path)], tmp_path)
    try:
        url = _printed_address(proc)
        token = page_token(url)
        headers = {"Content-Type": "application/json", "X-Cardenvs-Token": token or ""}
        req = urllib.request.Request(url + "/state", headers=headers)
        with urllib.request.urlopen(req, timeout=60) as r:
            state = json.loads(r.read())
        body = json.dumps({"action": state["legal"][0]["id"], "step": state["step"]}).encode()
        req = urllib.request.Request(url + "/act", data=body, headers=headers)
        with urllib.request.urlopen(req, timeout=60) as r:
            assert not json.loads(r.read())["over"]
    finally:
        proc.send_signal(getattr(signal, stop))
        try:
            rest, _ = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            rest, _ = proc.communicate()
            raise AssertionError(f"the server did not stop on {stop}; it printed: {rest}") from None
    assert proc.returncode == 0, rest
    assert f"unfinished game saved: {record_path}" in rest and "Traceback" not in rest
    record = json.loads(record_path.read_text())
    assert record["result"] is None and record["deals"][0]["actions"]
    cardenvs.replay(record)


def page_token(url: str):
    """The web game's token, from its page (``#cardenvs-data``), as the page's script reads it."""
    import urllib.request

    with urllib.request.urlopen(url + "/", timeout=60) as r:
        text = r.read().decode()
    m = re.search(r'<script type="application/json" id="cardenvs-data">(.*?)</script>', text, re.S)
    return json.loads(m.group(1)).get("token")


# --- a choice of several cards (Piquet's exchange): named together, in any order ---------------
def exchange_game(tmp_path, answers, env_id="piquet-v0", seat=0, seed=1, **config):
    """A deal of ``env_id`` in ``seat`` answered by ``answers`` then "1" (quit after 400
    questions: a test that cannot end fails instead of hanging)."""
    said, asked = [], []
    answers = iter(answers)

    def ask(prompt):
        asked.append(prompt)
        if len(asked) > 400:
            raise EOFError
        return next(answers, "1")

    record = play.play_game(
        env_id,
        seat,
        {s: RandomAgent(s) for s in range(4) if s != seat},
        config={"episode": "deal"} | config,
        seed=seed,
        record_path=tmp_path / "g.json",
        ask=ask,
        say=said.append,
    )
    assert record["result"] is not None, said[-30:]
    return [a for a in record["deals"][0]["actions"] if a[0] == seat], said


# seed 1, elder (player_0) holds A♠ Q♠ 10♠ 7♠  A♥ K♥ 10♥ 8♥  A♣ 9♣  A♦ 9♦ (menu 1..12 in that order)
@pytest.mark.parametrize(
    "answer", ["discard 7S 10S 8H QS", "7♠ 10♠ 8♥ Q♠", "8, 4 3 2", "discard qs 8h 10s 7s"]
)
def test_play_game__discards_are_named_together_in_any_order(tmp_path, answer):
    mine, said = exchange_game(tmp_path, [answer])
    # played in the engine's order (card index: suits S H D C), then stop (fewer than 5)
    assert mine[:5] == [[0, "discard 7S"], [0, "discard 10S"], [0, "discard QS"]] + [
        [0, "discard 8H"],
        [0, "stop"],
    ]
    assert any("Discard 1 to 5 cards at once, in any order" in line for line in said)


def test_play_game__a_set_of_discards_is_checked_whole_before_anything_is_played(tmp_path):
    bad = {
        "7S 10S 7S": "7♠ is named twice",
        "7S QC": "Q♣ is not in your hand",
        "7S 10S 8H QS AS AH": "you may discard 1 to 5 cards, not 6",
        "stop": "not legal now",
        "3 99": "99 is not a card to discard",
        "7S xx": "'xx' is not a card",
    }
    mine, said = exchange_game(tmp_path, [*bad, "1"])
    for message in bad.values():
        assert any(message in line for line in said), message
    # the bad answers played nothing: the first discard is the one card of the answer "1"
    assert mine[:2] == [[0, "discard AS"], [0, "stop"]]


def test_play_game__the_normand_dealer_s_exchange_may_end_on_the_highest_card(tmp_path):
    # seed 1: the dealer (player_2) holds J♠ 7♥ Q♣ J♣ 10♣ Q♦ J♦ 10♦ 8♦ 7♦ and must discard 2;
    # Q♣ (the highest index) can only be the second, so it is offered and played second
    answers = ["QC", "QC JS"]
    mine, said = exchange_game(tmp_path, answers, "piquet_normand-v0", seat=2)
    assert any("you must discard exactly 2 cards, not 1" in line for line in said)
    assert mine[:2] == [[2, "discard JS"], [2, "discard QC"]]
    assert [2, "stop"] not in mine
