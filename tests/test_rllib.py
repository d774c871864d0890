"""Ray RLlib: the turn-based MultiAgentEnv, the masked PPO module and ``train/rllib_ppo.py``
(``cardenvs.wrappers.rllib``). The training tests start a local Ray with two CPUs."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.policy import NumpyPolicy, actions_id, layout_id

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="module", autouse=True)
def _rllib():
    """Ray RLlib and torch, imported when this module's first test runs rather than when it is
    collected: every pytest-xdist worker collects every module, and these imports take 5-6 s;
    only the worker that runs the Ray tests needs them."""
    global torch, Columns, check_multiagent_environments
    global AgentModule, LegalDiscrete, MaskedPPOModule, RLlibEnv, rllib_ppo, to_numpy_policy
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    from cardenvs.wrappers.rllib import AgentModule, LegalDiscrete, MaskedPPOModule, RLlibEnv
    from train import rllib_ppo
    from train.model_file import to_numpy_policy


def random_game(env, rng, seed=None):
    """Play one game with random legal actions; return the actions and the last step."""
    obs, _ = env.reset(seed=seed)
    actions = []
    while True:
        assert len(obs) == 1  # only the agent to act observes
        ((agent, o),) = obs.items()
        assert env.observation_spaces[agent].contains(o)
        a = int(rng.choice(np.flatnonzero(o["action_mask"])))
        actions.append((agent, a))
        obs, rewards, terminated, truncated, infos = env.step({agent: a})
        assert truncated == {"__all__": False}
        if terminated["__all__"]:
            return actions, obs, rewards, terminated
        assert rewards == {agent: 0.0}


@pytest.mark.parametrize("env_id", list(cardenvs.GAMES))
def test_rllib__env_passes_rllib_s_env_checker(env_id):
    check_multiagent_environments(RLlibEnv({"env_id": env_id}))


@pytest.mark.parametrize("env_id", list(cardenvs.GAMES))
def test_rllib__every_agent_gets_its_final_reward_as_the_pettingzoo_env_pays_it(env_id):
    """The same seed and actions in the PettingZoo env: the same rewards, to every seat, on the
    last step (also to the seats that did not act on it), with a final observation each."""
    rng = np.random.default_rng(7)
    env = RLlibEnv({"env_id": env_id, "episode": "deal"})
    for seed in (3, 4):
        actions, obs, rewards, terminated = random_game(env, rng, seed)
        assert set(obs) == set(rewards) == set(env.possible_agents)
        assert all(terminated[a] for a in env.possible_agents) and terminated["__all__"]
        assert all(not o["action_mask"].any() for o in obs.values())
        aec = cardenvs.make(env_id, episode="deal")
        aec.reset(seed=seed)
        for agent, a in actions:
            assert aec.agent_selection == agent
            aec.step(a)
        for agent in env.possible_agents:
            assert rewards[agent] == pytest.approx(aec._cumulative_rewards[agent], abs=1e-6)
            seat = int(agent.split("_")[1])
            expect = aec.unwrapped._engine.observe(seat)[0]
            np.testing.assert_array_equal(obs[agent]["observations"], expect)


def test_rllib__partners_are_sides_and_share_the_reward():
    from ray.tune.registry import register_env

    from cardenvs.wrappers.rllib import env_creator

    register_env("cardenvs-partnership", env_creator)  # the tune-registry route
    env = env_creator({"env_id": "partnership_piquet-v0"})
    assert isinstance(env, RLlibEnv) and repr(env).startswith("RLlibEnv('partnership_piquet-v0'")
    assert env.sides == (("player_0", "player_2"), ("player_1", "player_3"))
    _, _, rewards, _ = random_game(env, np.random.default_rng(0), 1)
    assert rewards["player_0"] == rewards["player_2"] == -rewards["player_1"]


def test_rllib__illegal_and_misdirected_actions_raise_clear_errors():
    env = RLlibEnv({"env_id": "piquet-v0"})
    obs, _ = env.reset(seed=0)
    ((agent, o),) = obs.items()
    other = next(a for a in env.possible_agents if a != agent)
    illegal = int(np.flatnonzero(o["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal|illegal|masked"):
        env.step({agent: illegal})
    with pytest.raises(ValueError, match=f"{agent!r}"):
        env.step({other: 0})
    with pytest.raises(ValueError, match="the agent to act"):
        env.step({})
    for bad in (True, 1.0, "3", None):
        with pytest.raises(ValueError, match="integer"):
            env.step({agent: bad})
    for bad in (env.num_actions, -1, 2**70):
        with pytest.raises(ValueError, match="outside"):
            env.step({agent: bad})
    legal = int(np.flatnonzero(o["action_mask"])[0])
    env.step({agent: np.int64(legal)})  # nothing was applied by the failed steps
    with pytest.raises(ValueError, match="env_id"):
        RLlibEnv({"game": "piquet-v0"})
    with pytest.raises(ValueError, match="no-such"):
        RLlibEnv({"env_id": "no-such-v0"})
    with pytest.raises(ValueError, match="num_players"):
        RLlibEnv({"env_id": "esel-v0", "num_players": 9})


def test_rllib__action_space_samples_legal_actions_and_pickles_plain():
    import copy
    import pickle

    env = RLlibEnv({"env_id": "esel-v0"})
    obs, _ = env.reset(seed=5)
    ((agent, o),) = obs.items()
    legal = set(np.flatnonzero(o["action_mask"]).tolist())
    space = env.action_spaces[agent]
    assert {int(space.sample()) for _ in range(200)} <= legal
    for clone in (copy.deepcopy(space), pickle.loads(pickle.dumps(space))):
        assert isinstance(clone, LegalDiscrete) and clone._legal is None and clone == space


def module(env_id="esel-v0", hidden=(32, 32)):
    env = RLlibEnv({"env_id": env_id})
    agent = env.possible_agents[0]
    return MaskedPPOModule(
        observation_space=env.observation_spaces[agent],
        action_space=env.action_spaces[agent],
        model_config={"fcnet_hiddens": list(hidden), "fcnet_activation": "tanh"},
    )


def random_batch(m, n, rng):
    obs = rng.standard_normal((n, m.actor[0].in_features)).astype(np.float32)
    mask = (rng.random((n, m.actor[-1].out_features)) < 0.15).astype(np.float32)
    mask[np.arange(n), rng.integers(0, mask.shape[1], n)] = 1.0  # at least one legal
    return {Columns.OBS: {"observations": torch.from_numpy(obs), "action_mask": torch.tensor(mask)}}


def test_rllib__masked_module_never_samples_or_picks_an_illegal_action():
    torch.manual_seed(0)
    m = module()
    rng = np.random.default_rng(0)
    batch = random_batch(m, 512, rng)
    mask = batch[Columns.OBS]["action_mask"].clone()
    dist_cls = m.get_exploration_action_dist_cls()
    for forward in (m.forward_exploration, m.forward_train):
        logits = forward(batch)[Columns.ACTION_DIST_INPUTS]
        dist = dist_cls.from_logits(logits)
        for _ in range(20):
            a = dist.sample()
            assert mask[torch.arange(512), a].all()
        assert (logits[mask == 0] == -1e9).all()
    greedy = m.get_inference_action_dist_cls().from_logits(
        m.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    )
    assert mask[torch.arange(512), greedy.to_deterministic().sample()].all()
    # the batch is read, never changed (RLlib reuses it for the value function)
    assert set(batch[Columns.OBS]) == {"observations", "action_mask"}
    assert torch.equal(batch[Columns.OBS]["action_mask"], mask)
    values = m.compute_values(batch)
    assert values.shape == (512,)


def test_rllib__numpy_export_equals_the_torch_forward_pass():
    """to_numpy_policy writes the module as the .npz model; NumPy's logits and values equal
    torch's within 1e-5 (float32), and its greedy actions are the module's."""
    torch.manual_seed(1)
    m = module("piquet-v0", (64, 48))
    header = {
        "format": "cardenvs-policy",
        "format_version": 1,
        "game": "piquet-v0",
        "config": {},
        "obs_dim": m.actor[0].in_features,
        "num_actions": m.actor[-1].out_features,
        "net": {"hidden": [64, 48], "activation": "tanh"},
        "obs_layout": layout_id("piquet-v0"),
        "actions": actions_id("piquet-v0"),
    }
    policy = to_numpy_policy(m, header)
    batch = random_batch(m, 64, np.random.default_rng(2))
    x = batch[Columns.OBS]["observations"].numpy()
    mask = batch[Columns.OBS]["action_mask"].numpy()
    with torch.no_grad():
        logits = m.actor(batch[Columns.OBS]["observations"]).numpy()
        values = m.compute_values(batch).numpy()
        masked = m.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].numpy()
    np.testing.assert_allclose(policy.logits(x), logits, atol=1e-5)
    np.testing.assert_allclose(policy.value(x), values, atol=1e-5)
    greedy = np.where(mask > 0, policy.logits(x), -np.inf).argmax(axis=1)
    np.testing.assert_array_equal(greedy, masked.argmax(axis=1))


def test_rllib__agent_module_plays_fixed_players_legally():
    env = RLlibEnv({"env_id": "esel-v0"})
    agent = env.possible_agents[0]
    rng = np.random.default_rng(3)
    for kind in ("random", "heuristic", "zoo"):
        m = AgentModule(
            observation_space=env.observation_spaces[agent],
            action_space=env.action_spaces[agent],
            model_config={"env_id": "esel-v0", "agent": kind, "seed": 0},
        )
        mask = np.zeros((8, env.num_actions), np.float32)
        obs = []
        for i in range(8):
            o, _ = env.reset(seed=i)
            ((_, o),) = o.items()
            obs.append(o["observations"])
            mask[i] = o["action_mask"]
        batch = {
            Columns.OBS: {
                "observations": torch.tensor(np.array(obs)),
                "action_mask": torch.tensor(mask),
            }
        }
        a = m.forward_exploration(batch)[Columns.ACTIONS]
        assert mask[np.arange(8), a].all(), kind
        with pytest.raises(NotImplementedError, match="does not learn"):
            m.forward_train(batch)
    del rng
    with pytest.raises(ValueError, match="agent must be"):
        AgentModule(
            observation_space=env.observation_spaces[agent],
            action_space=env.action_spaces[agent],
            model_config={"env_id": "esel-v0", "agent": "genius"},
        )


def test_rllib__policy_mapping_keeps_partners_together_and_main_in_every_game():
    sides = (("player_0", "player_2"), ("player_1", "player_3"))
    fn = rllib_ppo.mapping_fn(sides, ["random", "snap_0"], 0.5, seed=0)

    class Episode:
        def __init__(self, i):
            self.id_ = f"ep{i}"

    seen = set()
    for i in range(400):
        ep = Episode(i)
        m = {a: fn(a, ep) for side in sides for a in side}
        assert m["player_0"] == m["player_2"] and m["player_1"] == m["player_3"]
        assert "main" in m.values()
        assert m == {a: fn(a, ep) for a in m}  # the same for the whole episode
        seen.add(tuple(sorted(set(m.values()))))
    assert seen == {("main",), ("main", "random"), ("main", "snap_0")}


TINY = ["--train-batch", "400", "--minibatch-size", "200", "--epochs", "1", "--net", "32"]
TINY += ["--envs-per-runner", "8", "--eval-games", "8", "--num-cpus", "2"]


@pytest.mark.parametrize(
    "env_id, extra",
    [
        ("piquet-v0", ["--num-env-runners", "0", "--league", "random", "heuristic", "self"]),
        (
            "esel-v0",
            ["--num-env-runners", "1", "--num-learners", "1", "--league", "random", "zoo", "self"],
        ),
    ],
)
def test_rllib__ppo_trains_checkpoints_restores_and_saves_a_model_agents_load(
    env_id, extra, tmp_path, capsys
):
    """Two PPO iterations on RLlib (a local Ray with two CPUs) with the league; the env checks
    every action (an illegal one would stop the run: env-runner restarts are off); the
    checkpoint restores and plays as the exported model does; the model loads in agents.policy
    and plays whole games."""
    out = tmp_path / "run"
    argv = ["--game", env_id, "--iterations", "2", "--eval-every", "1", "--out", str(out)]
    summary = rllib_ppo.main(argv + TINY + extra)
    assert summary["iterations"] == 2 and summary["main_trained"] > 0
    assert {r["opponent"] for r in summary["final"]} == {"random", "heuristic"}
    printed = capsys.readouterr().out
    for r in summary["final"]:  # the games won, drawn and lost beside the win rate
        assert r["wins"] + r["draws"] + r["losses"] == r["games"]
        assert f", W/D/L {r['wins']}/{r['draws']}/{r['losses']}, mean reward " in printed
    assert (out / "progress.csv").read_text().count("\n") == 3
    assert json.loads((out / "summary.json").read_text())["game"] == env_id

    from cardenvs.agents.policy import PolicyAgent
    from train.evaluate import evaluate

    policy = NumpyPolicy.load(out / "model.npz")
    assert policy.header["game"] == env_id and policy.header["command"].startswith(
        "python -m train.rllib_ppo"
    )
    agent = PolicyAgent(str(out / "model.npz"), env_id)
    rows = evaluate(str(out / "model.npz"), env_id, {"episode": "deal"}, ["random"], 2, seed=3)
    assert rows[0]["games"] > 0

    # the checkpoint restores, and its main module plays as the exported model
    import ray
    from ray.rllib.core.rl_module.rl_module import RLModule

    restored = RLModule.from_checkpoint(
        out / "checkpoint" / "learner_group" / "learner" / "rl_module" / "main"
    )
    env = RLlibEnv({"env_id": env_id})
    obs, _ = env.reset(seed=11)
    for _ in range(20):
        ((aid, o),) = obs.items()
        batch = {
            Columns.OBS: {k: torch.from_numpy(v[None]) for k, v in o.items()},
        }
        with torch.no_grad():
            logits = restored.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].numpy()
        a = int(logits.argmax())
        assert a == agent.act(o["observations"], o["action_mask"].astype(np.int8))
        obs, _, term, _, _ = env.step({aid: a})
        if term["__all__"]:
            break
    assert not ray.is_initialized()  # the trainer shut its Ray down
    if env_id != "piquet-v0":
        return
    # --restore continues the algorithm from the checkpoint (its counters too) and evaluates
    again = rllib_ppo.main(
        ["--game", env_id, "--iterations", "1", "--restore", str(out / "checkpoint")]
        + TINY
        + extra
        + ["--out", str(tmp_path / "again")]
    )
    assert again["env_steps"] > summary["env_steps"]
    assert {r["opponent"] for r in again["final"]} == {"random", "heuristic"}


def test_rllib__an_illegal_action_stops_the_run(tmp_path, monkeypatch):
    """The check can fail: a module that ignores the mask makes the env raise, and with
    env-runner restarts off the error reaches the caller."""
    from cardenvs.wrappers import rllib as wr

    def unmasked(self, batch, **kwargs):
        x, mask = wr.split_obs(batch[Columns.OBS])
        logits = torch.zeros(mask.shape)
        logits[:, 0] = 10.0  # action 0 whatever the mask says
        return {Columns.ACTION_DIST_INPUTS: logits + 0 * self.actor(x).sum()}

    monkeypatch.setattr(wr.MaskedPPOModule, "_forward", unmasked)
    argv = ["--game", "piquet-v0", "--iterations", "1", "--league-share", "0"]
    with pytest.raises(Exception, match="not legal|illegal"):
        rllib_ppo.main(argv + TINY + ["--out", str(tmp_path / "bad")])
    import ray

    assert not ray.is_initialized()


def test_rllib__speed_benchmark_runs_end_to_end_on_a_tiny_budget(tmp_path, capsys):
    from benchmarks import rllib_speed

    out = tmp_path / "speed.json"
    argv = ["--setups", "0:0", "--sweep", "--iterations", "2", "--train-batch", "400"]
    argv += ["--envs-per-runner", "8", "--native-seconds", "3", "--json", str(out)]
    result = rllib_speed.main(argv)
    (row,) = result["rllib"]
    for key in ("sampling_steps_per_s", "learner_decisions_per_s", "end_to_end_decisions_per_s"):
        assert row[key] > 0 and result["native"][key] > 0 and row["native_ratio"][key] > 0
    assert 0 < row["env_share"] < 1
    assert json.loads(out.read_text())["game"] == "piquet-v0"
    assert "native / RLlib" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--league", "genius"], "--league 'genius'"),
        (["--minibatch-size", "500", "--train-batch", "400"], "at most --train-batch"),
        (["--config", "{not json"], "not JSON"),
        (["--config", '{"num_players": 9}', "--game", "esel-v0"], "num_players"),
        (["--league-share", "1.5"], "league-share"),
        (["--epochs", "0"], "epochs"),
        (["--gpus-per-learner", "-1"], "--gpus-per-learner"),
    ],
)
def test_rllib__trainer_refuses_bad_arguments_with_a_clear_message(argv, message, capsys):
    with pytest.raises(SystemExit):
        rllib_ppo.parse(argv)
    assert message in capsys.readouterr().err


def test_rllib__trains_on_a_ray_cluster_joined_with_address(tmp_path):
    """The documented cluster route on one machine: ``ray start --head`` (in its own temp dir,
    blocking, so ending it stops only its processes), then the trainer with ``--address``: it
    ships the checkout as the job's working dir and its env runner plays the heuristic. Ray's
    clusters check a token: a client given an explicit address needs ``RAY_AUTH_MODE=token``
    (the head's token is in ``~/.ray/auth_token`` here)."""
    import shutil
    import socket
    import subprocess
    import tempfile
    import time

    ray_bin = shutil.which("ray", path=str(Path(sys.executable).parent))
    assert ray_bin, "the ray command comes with the rllib extra"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    temp = tempfile.mkdtemp(prefix="r", dir="/tmp")  # short: Ray's socket paths have a limit
    head = subprocess.Popen(
        [ray_bin, "start", "--head", f"--port={port}", "--num-cpus=2", "--block"]
        + ["--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.time() + 120
        while time.time() < deadline:  # the head's GCS listens on the port once it is up
            assert head.poll() is None, "ray start --head exited"
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(1)
        else:
            raise AssertionError("the Ray head did not come up in 120 s")
        argv = ["--game", "esel-v0", "--address", f"127.0.0.1:{port}", "--iterations", "1"]
        argv += ["--league", "heuristic", "--league-share", "1", "--out", str(tmp_path / "run")]
        argv += TINY[: TINY.index("--num-cpus")] + ["--num-env-runners", "1"]
        run = subprocess.run(  # the command line, as on a cluster's head node
            [sys.executable, "-m", "train.rllib_ppo", *argv],
            cwd=ROOT,
            env=os.environ | {"RAY_AUTH_MODE": "token"},
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert run.returncode == 0, run.stderr[-3000:]
        summary = json.loads((tmp_path / "run" / "summary.json").read_text())
        assert summary["iterations"] == 1 and summary["main_trained"] > 0
        assert NumpyPolicy.load(tmp_path / "run" / "model.npz").header["game"] == "esel-v0"
    finally:
        head.terminate()
        head.wait(timeout=120)
        shutil.rmtree(temp, ignore_errors=True)
