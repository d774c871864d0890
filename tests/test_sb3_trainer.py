"""``train/sb3_ppo.py`` (the SB3 route) end to end on a tiny budget, in a subprocess (needs the
train extra)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.wrappers import SingleAgentEnv

ROOT = Path(__file__).resolve().parent.parent


def tiny_config(game: str) -> dict:
    """One deal, with the fewest players the game allows."""
    config_cls = cardenvs.game_info(game).config_cls
    for n in (2, 3):
        try:
            config_cls(episode="deal", num_players=n)
            return {"episode": "deal", "num_players": n}
        except (TypeError, ValueError):
            pass
    return {"episode": "deal"}


@pytest.mark.parametrize("game", cardenvs.GAMES)
def test_train__tiny_run_writes_a_loadable_model(tmp_path, game, capsys):
    """The command line (``python -m train.sb3_ppo``, in a subprocess) for piquet-v0; the same
    ``main`` in this process for the other ids (a subprocess would import torch and SB3 again
    for each)."""
    config = tiny_config(game)
    pytest.importorskip("sb3_contrib", reason="needs the train extra: pip install -e '.[train]'")
    from sb3_contrib import MaskablePPO

    out = tmp_path / "run"
    argv = ["--game", game, "--config", json.dumps(config)]
    argv += ["--eval-config", "{}"]  # evaluate on single deals too (fast)
    argv += ["--total-timesteps", "1024", "--eval-every", "512", "--eval-games", "8"]
    argv += ["--num-envs", "8", "--n-steps", "64", "--batch-size", "128", "--out", str(out)]
    if game == "piquet-v0":
        cmd = [sys.executable, "-m", "train.sb3_ppo", *argv]
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        stdout = done.stdout
    else:
        from train import sb3_ppo

        sb3_ppo.main(argv)
        stdout = capsys.readouterr().out
    progress = [line for line in stdout.splitlines() if line.endswith(" left")]
    assert progress and progress[-1].startswith("[" + "#" * 30 + "] 1,024/1,024 steps")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["timesteps"] == 1024 and len(summary["final"]) == 2
    rows = (out / "eval.csv").read_text().splitlines()
    assert len(rows) == 1 + 4 and rows[0].startswith("opponent,games,win_rate")
    assert (out / "progress.csv").exists()
    MaskablePPO.load(out / "model.zip")


def test_train__bad_arguments_exit():
    done = subprocess.run(
        [sys.executable, "-m", "train.sb3_ppo", "--config", "{nope", "--total-timesteps", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "--config is not JSON" in done.stderr


# --- the learner's seat and rewards: a scripted deal with a known return ----------------------
WORKED = [
    json.loads(line)
    for line in (ROOT / "tests/golden/piquet/worked_examples.jsonl").read_text().splitlines()
]


class Script:
    """Plays the next action of a recorded game, whoever is to move (learner or opponent)."""

    def __init__(self, names):
        self.ids = [cardenvs.game_info("piquet-v0").action_names.index(n) for n in names]
        self.calls = 0

    def act(self, observation, action_mask):
        a = self.ids.pop(0)
        assert action_mask[a], "the script's next action must be legal"
        self.calls += 1
        return a


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("example", WORKED, ids=["cavendish_28_23", "pagat_41_11"])
def test_train__learner_return_of_a_scripted_deal_is_its_score_difference(example, seat):
    """The worked deals of the Piquet spec end A 28 / B 23 and Bill 11 / Ann 41: a learner in
    either seat, scored by deal points, must receive exactly its own points minus the other's."""
    script = Script(example["actions"])
    env = SingleAgentEnv("piquet-v0", seat=seat, opponents=script, episode="deal", reward="score")
    env.reset(seed=0, options={"deck": example["deck"], "dealer": example["dealer"]})
    total, done, steps = 0.0, False, 0
    while not done:
        _, r, done, _, _ = env.step(script.act(None, env.action_masks()))
        total += r
        steps += 1
    pts = example["points"]
    assert total == pts[seat] - pts[1 - seat]
    assert not script.ids and steps > 0


def test_train__opponent_pool_gives_each_game_its_own_member():
    from train.sb3_ppo import OpponentPool

    class Const:
        def __init__(self, k):
            self.k = k

        def act_batch(self, observations, masks):
            return np.full(len(masks), self.k, np.int64)

    pool = OpponentPool([Const(3), Const(5), Const(7)], num_envs=64, seed=0)
    rows = np.arange(0, 64, 2)
    got = pool.act_rows(rows, np.zeros((rows.size, 4)), np.ones((rows.size, 9), bool))
    assert got.tolist() == [(3, 5, 7)[pool.assign[b]] for b in rows]
    assert set(pool.assign.tolist()) == {0, 1, 2}
    before = pool.assign.copy()
    pool.redraw()
    assert not np.array_equal(before, pool.assign)


# --- a saved model: train/evaluate.py, the tournament, PolicyAgent ---------------------------
@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    pytest.importorskip("sb3_contrib", reason="needs the train extra: pip install -e '.[train]'")
    out = tmp_path_factory.mktemp("ppo") / "run"
    cmd = [sys.executable, "-m", "train.sb3_ppo", "--game", "piquet-v0", "--config"]
    cmd += ['{"episode": "deal"}', "--eval-config", "{}", "--total-timesteps", "512"]
    cmd += ["--eval-every", "256"]
    cmd += ["--eval-games", "4", "--num-envs", "8", "--n-steps", "32", "--batch-size", "64"]
    cmd += ["--opponent", "self", "--pool-size", "1", "--out", str(out)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(p.name for p in out.glob("checkpoint_*.zip")) == [
        "checkpoint_256.zip",
        "checkpoint_512.zip",
    ]
    summary = json.loads((out / "summary.json").read_text())
    assert 0 < summary["env_share"] < 1 and 0 <= summary["opponent_share"] < 1
    return out / "model.zip"


def test_train__evaluate_plays_a_saved_model_against_agents(tiny_model, tmp_path):
    """``train.evaluate`` on an SB3 ``.zip`` path with ``--trusted`` plays it (issue 48, item 2:
    loading a ``.zip`` unpickles it, so the command line says it trusts the file); without the
    flag the refusal is a usage error that says why and names the flag, not a traceback."""
    report = tmp_path / "eval.json"
    cmd = [sys.executable, "-m", "train.evaluate", str(tiny_model), "--game", "piquet-v0"]
    cmd += ["--config", '{"episode": "deal"}', "--against", "random", "heuristic", "--n", "6"]
    cmd += ["--json", str(report)]
    refused = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr[-2000:]
    assert (
        "model.zip' is an SB3 .zip model: loading it runs the code its pickles hold; give "
        "--trusted if you trust this file" in refused.stderr
    )
    assert not report.exists()
    done = subprocess.run(
        [*cmd, "--trusted"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = json.loads(report.read_text())["results"]
    assert [r["opponent"] for r in rows] == ["random", "heuristic"]
    for r in rows:
        assert r["games"] == 12 and r["ci_low"] <= r["win_rate"] <= r["ci_high"]
    assert "piquet-v0 vs random" in done.stdout


def test_train__a_saved_model_is_a_tournament_agent(tiny_model, tmp_path, capsys):
    """``ppo:<zip>`` plays in the tournament once trusted (``run(..., trusted=True)``, the
    command line's ``--trusted``); untrusted, ``run`` refuses it with ``PolicyAgent``'s
    ValueError and the command line with a usage error naming the flag."""
    from benchmarks import tournament
    from cardenvs.agents.policy import PolicyAgent

    agents = [f"ppo:{tiny_model}", "random"]
    report = tournament.run(["piquet-v0"], agents, 4, 0, {"episode": "deal"}, True, trusted=True)
    row = report["games"]["piquet-v0"]["agents"][f"ppo:{tiny_model}"]
    assert row["seats_played"] == 8
    with pytest.raises(ValueError, match=r"model\.zip.*trusted=True"):
        tournament.run(["piquet-v0"], agents, 4, 0, {"episode": "deal"}, True)
    argv = ["--games", "piquet-v0", "--agents", *agents, "--n", "2", "--config"]
    argv += ['{"episode": "deal"}', "--quiet", "--out", str(tmp_path / "t")]
    with pytest.raises(SystemExit) as e:
        tournament.main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and f"--agents ppo:{tiny_model}: " in err and "--trusted" in err
    assert not (tmp_path / "t").exists()
    report = tournament.main([*argv, "--trusted"])
    assert report["games"]["piquet-v0"]["agents"][f"ppo:{tiny_model}"]["seats_played"] == 4
    assert (tmp_path / "t" / "tournament.json").is_file()
    agent = PolicyAgent(tiny_model, "piquet-v0", trusted=True)
    env = cardenvs.make("piquet-v0", episode="deal")
    env.reset(seed=1)
    obs, *_ = env.last()
    a = agent.act(obs["observation"], obs["action_mask"])
    assert obs["action_mask"][a] and agent.act(obs["observation"], obs["action_mask"]) == a
    with pytest.raises(ValueError, match="trained on another game"):
        PolicyAgent(tiny_model, "banque-v0", trusted=True)
    with pytest.raises(ValueError, match="no saved model"):
        PolicyAgent(tiny_model.parent / "nope.zip", "piquet-v0", trusted=True)


def test_train__policy_agent_plays_what_predict_plays(tiny_model):
    """The deterministic agent's direct forward pass picks exactly ``model.predict``'s action,
    on real observations from every phase of random deals."""
    from cardenvs.agents.policy import PolicyAgent

    agent = PolicyAgent(tiny_model, "piquet-v0", trusted=True)
    venv = cardenvs.make_vector("piquet-v0", 64, seed=3, episode="deal")
    obs, mask, _ = venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        expected, _ = agent.model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        assert np.array_equal(agent.act_batch(obs, mask), expected)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, mask, *_ = venv.step(actions)


def test_train__per_game_defaults_under_the_command_line():
    from train import hyperparams
    from train.sb3_ppo import parse

    piquet = parse(["--game", "piquet-v0"])
    assert (piquet.gamma, piquet.opponent, piquet.total_timesteps) == (0.99, "mix", 1_500_000)
    assert piquet.config == {"episode": "deal"}
    banque = parse(["--game", "banque-v0"])
    tuned = hyperparams.TUNED["banque-v0"]
    assert (banque.gamma, banque.opponent) == (tuned["gamma"], tuned["opponent"])
    assert banque.total_timesteps == tuned["total_timesteps"] != piquet.total_timesteps
    given = parse(["--game", "banque-v0", "--gamma", "0.95", "--opponent", "mix"])
    assert (given.gamma, given.opponent) == (0.95, "mix")
    assert parse(["--game", "partnership_piquet-v0"]).team and not piquet.team
    assert not parse(["--game", "partnership_piquet-v0", "--no-team"]).team


def test_train__hyperparams_name_only_games_and_arguments(monkeypatch):
    from train import hyperparams
    from train.sb3_ppo import parse

    assert set(hyperparams.TUNED) <= set(cardenvs.GAMES)
    for game in cardenvs.GAMES:
        parse(["--game", game])  # every tuned key is an argument (checked in parse)
    monkeypatch.setitem(hyperparams.TUNED, "esel-v0", {"gama": 1.0})
    with pytest.raises(KeyError, match="gama"):
        parse(["--game", "esel-v0"])
