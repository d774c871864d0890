"""train.imitate: behaviour cloning of a teacher agent, the start of a kickstarted PPO run."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

import cardenvs  # noqa: E402
from cardenvs.agents.policy import NumpyPolicy, PolicyAgent  # noqa: E402
from cardenvs.arena import make_agent  # noqa: E402
from train import imitate  # noqa: E402

ESEL2 = '{"num_players": 2, "episode": "deal", "reward": "win"}'


def test_collect__the_teacher_s_actions_and_each_seat_s_return_to_the_game_s_end():
    args = imitate.parse(
        ["--game", "esel-v0", "--config", ESEL2, "--decisions", "3000"]
        + ["--num-envs", "16", "--explore", "0", "--out", "m.npz"]
    )
    venv = cardenvs.make_vector("esel-v0", 16, seed=0, **args.config)
    teacher = make_agent("heuristic", "esel-v0", config=args.config)
    X, M, A, R, row = imitate.collect(args, venv, teacher)
    assert 0 < len(A) <= 16 * (3000 // 16 + 2) and X.shape == (len(A), venv.obs_dim)
    assert M[np.arange(len(A)), A].all()  # every example's action is legal
    # with no exploration the teacher's action is what it plays again from the same state
    again = make_agent("heuristic", "esel-v0", config=args.config)
    assert (again.act_batch(X[:500].astype(np.float32), M[:500].astype(np.int8)) == A[:500]).all()
    # one game, one deal, the winner +1 and the loser -1 at its end: every return is one of them
    assert set(np.unique(R)) <= {-1.0, 0.0, 1.0} and (R != 0).any()


def test_imitate__a_cloned_network_agrees_with_its_teacher_more_than_before(tmp_path):
    out = tmp_path / "bc.npz"
    summary = imitate.main(
        ["--game", "esel-v0", "--config", ESEL2, "--decisions", "6000", "--num-envs", "32"]
        + ["--epochs", "3", "--minibatch-size", "256", "--net", "64", "--out", str(out)]
    )
    assert summary["agreement"] > summary["agreement_before"] + 0.1
    policy = NumpyPolicy.load(out)
    assert policy.header["game"] == "esel-v0" and policy.header["config"]["num_players"] == 2
    assert policy.header["command"].startswith("python -m train.imitate")
    agent = PolicyAgent(str(out), "esel-v0")
    env = cardenvs.make("esel-v0", num_players=2)
    env.reset(seed=1)
    for _ in range(40):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(agent.act(obs["observation"], obs["action_mask"]))


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--game", "go-v0"], "not a game id"),
        (["--config", "[1]"], "JSON object"),
        (["--explore", "1.5"], "--explore"),
        (["--decisions", "0"], "--decisions"),
        (["--out", "model.zip"], ".npz"),
    ],
)
def test_imitate__bad_arguments_are_refused_with_a_clear_message(argv, message, capsys):
    base = {"--game": "esel-v0", "--out": "m.npz"}
    for k, v in zip(argv[::2], argv[1::2], strict=True):
        base[k] = v
    with pytest.raises(SystemExit):
        imitate.parse([x for kv in base.items() for x in kv])
    assert message in capsys.readouterr().err
