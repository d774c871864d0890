"""cardenvs.demo tells a game: trick winners, deal summaries with declarations and points,
visible draws and jokers, the winners or the winning side, the hand limit, "N random agents",
--config, no colour codes when piped; make demo honours GAME=, SEED= and CONFIG=."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardenvs.ui import demo

ROOT = Path(__file__).resolve().parents[1]


def run_demo(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run(
        [sys.executable, "-m", "cardenvs.demo", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def test_demo__piped_tells_the_tricks_deals_and_winner_without_colour_codes():
    out = run_demo("--game", "esel-v0", "--seed", "1", "--config", '{"max_hands": 3}')
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "\x1b[" not in text
    assert text.startswith("esel-v0: one game between 4 random agents (seed 1)")
    assert re.search(r"player_\d wins the trick \(\S+\)", text)
    assert re.search(r"player_\d wins the last trick \(\S+\)", text)
    assert re.search(r"hand 1 ends: player_0 -?\d+, .*; banks player_0 \d", text)
    assert "hand 2 begins" in text
    assert re.search(r"player_\d draws \S+ from the stock", text)  # the open view names draws
    assert re.search(r"game over: (player_\d( and player_\d)* wins?|drawn)", text)


def test_demo__names_the_winning_side_and_every_deal():
    lines = []
    record = demo.play("partnership_piquet-v0", seed=1, color=False, say=lines.append)
    text = "\n".join(lines)
    res = record["result"]
    a, b = res["winners"]
    assert f"game over: player_{a} and player_{b} win" in text
    assert text.startswith("partnership_piquet-v0: one game between 4 random agents")
    for i, deal in enumerate(record["deals"]):
        p = deal["points"]
        assert (
            f"deal {i + 1} ends: player_0 and player_2 {p[0]}, player_1 and player_3 {p[1]}" in text
        )
        t = deal["totals"]
        assert f"totals player_0 and player_2 {t[0]}, player_1 and player_3 {t[1]}" in text


def test_demo__deal_summaries_carry_declarations_and_points():
    lines = []
    record = demo.play("piquet-v0", seed=5, color=False, say=lines.append)
    ends = [x.strip() for x in lines if re.match(r"\s*deal \d+ ends: ", x)]
    assert len(ends) == len(record["deals"]) >= 6
    for text, deal in zip(ends, record["deals"], strict=True):
        assert f"player_0 {deal['points'][0]}, player_1 {deal['points'][1]}" in text
        assert "Point: " in text and "totals " in text
    assert any(x.strip().startswith("declarations: Point: ") for x in lines)
    assert lines[-1].startswith(f"player_{record['result']['winner']} wins (points: ")


def test_demo__names_the_hand_limit():
    lines = []
    demo.play("banque-v0", seed=0, color=False, config={"max_hands": 1}, say=lines.append)
    assert "  the game stops at its limit of 1 hand (max_hands=1)" in lines
    assert any(re.match(r"  hand 1 ends: .*ended by ", x) for x in lines)


def test_demo__says_when_a_joker_is_drawn():
    for seed in range(8):
        lines = []
        demo.play(
            "four_aces-v0", seed=seed, color=False, config={"episode": "deal"}, say=lines.append
        )
        jokers = [x for x in lines if "a joker from the stock (hidden limit " in x]
        if jokers:
            break
    assert jokers, "no joker drawn in 8 rounds"


def test_demo__colour_only_when_asked_or_on_a_terminal(capsys):
    demo.play("piquet-v0", seed=0, config={"episode": "deal"})  # captured: not a terminal
    assert "\x1b[" not in capsys.readouterr().out
    lines = []
    demo.play("piquet-v0", seed=0, color=True, config={"episode": "deal"}, say=lines.append)
    assert any("\x1b[31m" in x for x in lines)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--config", "{nope"], "--config must be a JSON object"),
        (["--game", "esel-v0", "--config", '{"num_players": 9}'], "--config: "),
        (["--game", "chess-v0"], "invalid choice: 'chess-v0'"),
        # issue 48, item 12: a seed outside the engine's range (it was a numpy traceback)
        (["--seed", "-1"], "--seed must be in 0..9223372036854775807, got -1"),
        (["--seed", str(2**63)], f"--seed must be in 0..{2**63 - 1}, got {2**63}"),
    ],
)
def test_demo__command_line_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        demo.main(argv)
    assert e.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_demo__honours_game_seed_and_config():
    out = subprocess.run(
        ["make", "-n", "demo", "GAME=esel-v0", "SEED=3", 'CONFIG={"episode": "deal"}'],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    want = """-m cardenvs.demo --game esel-v0 --seed 3 --config '{"episode": "deal"}'"""
    assert want in out.stdout
    out = subprocess.run(["make", "-n", "demo"], capture_output=True, text=True, cwd=ROOT)
    assert "-m cardenvs.demo --game piquet-v0 --seed 0" in out.stdout
    assert "--config" not in out.stdout.splitlines()[-1]
