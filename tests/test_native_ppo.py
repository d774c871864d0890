"""``train/ppo.py``, the native PPO: credit assignment per seat (hand-computed returns and
advantages), masking, determinism, the ``.npz`` model format, and end-to-end runs of both
trainers in a subprocess (torch needed for all but the credit and format tests)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.agents.policy import NumpyPolicy, PolicyAgent, layout_id
from train.credit import Pending, assign_credit, trajectory_groups

ROOT = Path(__file__).resolve().parent.parent
GAMMA, LAM = 0.9, 0.8


def credit(seats, rewards, dones, values, groups, learn=None, pending=None, lam=LAM):
    """``assign_credit`` on lists (one row unless the lists are 2-D)."""
    seats = np.asarray(seats)
    if seats.ndim == 1:
        seats = seats[:, None]
        rewards = np.asarray(rewards, float)[:, None, :]
        dones = np.asarray(dones)[:, None]
        values = np.asarray(values, float)[:, None]
        learn = None if learn is None else np.asarray(learn)[:, None]
    group_of_seat, rep_seat = groups
    if learn is None:
        learn = np.ones(seats.shape, bool)
    if pending is None:
        pending = Pending.empty(seats.shape[1], len(rep_seat))
    return assign_credit(
        seats, learn, rewards, dones, values, group_of_seat, rep_seat, GAMMA, lam, pending
    )


def two_seats():
    return trajectory_groups(2, ((0,), (1,)), "side")


# --- credit assignment: hand-computed values ---------------------------------------------------
def test_credit__two_seats_game_ends_mid_rollout_then_rollout_boundary():
    """Rollout 1: seats 0 1 0 | 1 0 1 (seat 0's move at t=2 ends the game, +1/-1; autoreset,
    the next game starts with seat 1); rollout 2: seats 0, 1, the second ends the game -1/+1.
    Every number below is worked by hand (gamma 0.9, lambda 0.8, gamma * lambda 0.72)."""
    r1 = [[0, 0], [0, 0], [1, -1], [0, 0], [0, 0], [0, 0]]
    out, pend = credit(
        [0, 1, 0, 1, 0, 1], r1, [0, 0, 1, 0, 0, 0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], two_seats()
    )
    # seat 0: t0 -> t2 (terminal, +1): delta2 = 1 - 0.3; delta0 = 0.9 * 0.3 - 0.1
    # seat 1: t1 is terminal (the game ended at t2, on seat 0's move): -1 - 0.2
    #         t3 -> t5 (still open): delta3 = 0.9 * 0.6 - 0.4, truncated there
    np.testing.assert_allclose(out.adv[:4, 0], [0.17 + 0.72 * 0.7, -1.2, 0.7, 0.14], atol=1e-6)
    np.testing.assert_allclose(out.ret[:4, 0], [0.774, -1.0, 1.0, 0.54], atol=1e-6)
    assert out.valid[:, 0].tolist() == [True, True, True, True, False, False]
    assert not out.carry_valid.any()
    # open at the boundary: seat 0's decision at t4, seat 1's at t5
    assert pend.live[0].tolist() == [True, True] and pend.src[0].tolist() == [4, 5]
    np.testing.assert_allclose(pend.value[0], [0.5, 0.6])

    pend.src[:] = -1  # the trainer moved them to its carry buffers
    out2, pend2 = credit([0, 1], [[0, 0], [-1, 1]], [0, 1], [0.7, 0.8], two_seats(), pending=pend)
    # seat 0: carried t4 (V 0.5) -> r2 t0 (V 0.7) -> terminal with -1: A = -1.7
    #         carried: delta = 0.9 * 0.7 - 0.5 = 0.13; A = 0.13 + 0.72 * (-1.7)
    # seat 1: carried t5 (V 0.6) -> r2 t1 (V 0.8, terminal +1: A = 0.2)
    #         carried: delta = 0.9 * 0.8 - 0.6 = 0.12; A = 0.12 + 0.72 * 0.2
    np.testing.assert_allclose(out2.adv[:, 0], [-1.7, 0.2], atol=1e-6)
    np.testing.assert_allclose(out2.carry_adv[0], [0.13 - 0.72 * 1.7, 0.12 + 0.72 * 0.2], atol=1e-6)
    np.testing.assert_allclose(out2.carry_ret[0], [0.5 + 0.13 - 1.224, 0.6 + 0.264], atol=1e-6)
    assert out2.valid[:, 0].all() and out2.carry_valid[0].all()
    assert not pend2.live.any()


def test_credit__three_seats_with_repeated_turns_and_a_quiet_seat():
    """Three seats, the same seat deciding twice in a row (as in Piquet's exchange), and a game
    in which seat 2 never decides before it ends: its reward has no decision to go to."""
    seats = [0, 0, 1, 2, 1, 0, 1]
    values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    rewards = np.zeros((7, 3))
    rewards[4] = [2, -1, -1]  # game 1 ends on seat 1's move at t4
    rewards[6] = [-2, 1, 1]  # game 2 ends on seat 1's move at t6; seat 2 never moved in it
    dones = [0, 0, 0, 0, 1, 0, 1]
    out, pend = credit(
        seats, rewards, dones, values, trajectory_groups(3, ((0,), (1,), (2,)), "seat")
    )
    g = 0.9
    # seat 0: t0 -> t1 -> terminal (+2). seat 1: t2 -> t4 terminal (-1). seat 2: t3 terminal (-1)
    # game 2: seat 0 t5 terminal (-2), seat 1 t6 terminal (+1); seat 2's +1 is dropped
    d = {1: 2 - 2.0, 0: g * 2.0 - 1.0, 4: -1 - 5.0, 2: g * 5.0 - 3.0, 3: -1 - 4.0}
    d |= {5: -2 - 6.0, 6: 1 - 7.0}
    expected = [d[0] + 0.72 * d[1], d[1], d[2] + 0.72 * d[4], d[3], d[4], d[5], d[6]]
    np.testing.assert_allclose(out.adv[:, 0], expected, atol=1e-5)
    np.testing.assert_allclose(out.ret[:, 0], np.add(expected, values), atol=1e-5)
    assert out.valid.all() and not pend.live.any()


def test_credit__four_seats_interleaved_over_rows_and_a_rollout_boundary():
    """Four seats in two rows with different turn orders; a trajectory open at the boundary
    gets its successor in the next rollout. Against hand-worked deltas (lambda 0 makes each
    advantage its own delta; the GAE recursion is the other tests' subject)."""
    P = 4
    groups = trajectory_groups(P, tuple((p,) for p in range(P)), "seat")
    seats = np.array([[0, 3], [1, 2], [2, 1], [3, 0], [0, 3]])
    values = np.arange(10, dtype=float).reshape(5, 2) / 10
    rewards = np.zeros((5, 2, P))
    rewards[3, 1] = [3, -1, -1, -1]  # row 1 ends at t3 (seat 0's move)
    dones = np.zeros((5, 2), bool)
    dones[3, 1] = True
    out, pend = credit(seats, rewards, dones, values, groups, lam=0.0)
    # row 0: every seat once, then seat 0 again at t4: only seat 0's t0 has its successor
    assert out.valid[:, 0].tolist() == [True, False, False, False, False]
    assert out.adv[0, 0] == pytest.approx(0.9 * 0.8 - 0.0)
    # row 1: seats 3 2 1 0 (t3 ends the game) then seat 3 opens game 2
    np.testing.assert_allclose(out.adv[:4, 1], [-1 - 0.1, -1 - 0.3, -1 - 0.5, 3 - 0.7])
    assert out.valid[:, 1].tolist() == [True, True, True, True, False]
    assert pend.src[0].tolist() == [4, 1, 2, 3] and pend.src[1].tolist() == [-1, -1, -1, 4]
    pend.src[pend.live] = -1
    seats2 = np.array([[1, 3], [2, 2]])
    out2, _ = credit(
        seats2,
        np.zeros((2, 2, P)),
        np.zeros((2, 2), bool),
        np.full((2, 2), 2.0),
        groups,
        pending=pend,
        lam=0.0,
    )
    # row 0: seat 1 (carried V 0.2) and seat 2 (carried V 0.4) get their successors
    np.testing.assert_allclose(out2.carry_adv[0, 1:3], [0.9 * 2 - 0.2, 0.9 * 2 - 0.4])
    assert out2.carry_valid[0].tolist() == [False, True, True, False]
    # row 1: seat 3 (carried V 0.9) -> seat 3 again at t0
    assert out2.carry_adv[1, 3] == pytest.approx(0.9 * 2 - 0.9)
    assert out2.carry_valid[1].tolist() == [False, False, False, True]


def test_credit__sides_share_rewards_in_one_trajectory():
    """Partnership: sides (0, 2) and (1, 3). Per side, the partners' decisions are one
    trajectory and the side's reward is credited once, to its last decision; per seat, each
    partner gets the reward at its own last decision."""
    sides = ((0, 2), (1, 3))
    seats = [0, 1, 2, 3, 0]
    values = [0.1, 0.2, 0.3, 0.4, 0.5]
    rewards = np.zeros((5, 4))
    rewards[4] = [1, -1, 1, -1]  # seat 0's move ends the game
    dones = [0, 0, 0, 0, 1]
    per_side, _ = credit(seats, rewards, dones, values, trajectory_groups(4, sides, "side"))
    # side 0: t0 -> t2 -> t4 (terminal +1); side 1: t1 -> t3 (terminal -1)
    d4, d2, d0 = 1 - 0.5, 0.9 * 0.5 - 0.3, 0.9 * 0.3 - 0.1
    d3, d1 = -1 - 0.4, 0.9 * 0.4 - 0.2
    expected = [d0 + 0.72 * (d2 + 0.72 * d4), d1 + 0.72 * d3, d2 + 0.72 * d4, d3, d4]
    np.testing.assert_allclose(per_side.adv[:, 0], expected, atol=1e-6)
    per_seat, _ = credit(seats, rewards, dones, values, trajectory_groups(4, sides, "seat"))
    # seat 0: t0 -> t4 (+1); seat 2: t2 terminal (+1); seat 1 -1 at t1; seat 3 -1 at t3
    d0s = 0.9 * 0.5 - 0.1
    expected = [d0s + 0.72 * 0.5, -1 - 0.2, 1 - 0.3, -1 - 0.4, 0.5]
    np.testing.assert_allclose(per_seat.adv[:, 0], expected, atol=1e-6)
    with pytest.raises(ValueError, match="credit must be"):
        trajectory_groups(4, sides, "team")


def test_credit__league_seats_are_not_trajectories():
    """Seat 1 is a league opponent (learn False): its decisions are no training data and its
    reward goes nowhere; seat 0's trajectory skips its moves."""
    out, pend = credit(
        [0, 1, 0, 1],
        [[0, 0], [0, 0], [0, 0], [-1, 1]],
        [0, 0, 0, 1],
        [0.1, 9, 0.3, 9],
        two_seats(),
        learn=[1, 0, 1, 0],
    )
    np.testing.assert_allclose(
        out.adv[:, 0], [0.9 * 0.3 - 0.1 + 0.72 * -1.3, 0, -1.3, 0], atol=1e-6
    )
    assert out.valid[:, 0].tolist() == [True, False, True, False] and not pend.live.any()


def reference_gae(seats, rewards, dones, values, group_of_seat, rep_seat, gamma, lam):
    """Per trajectory over one whole rollout, the textbook way: lists of (t, reward, done)."""
    T, N = seats.shape
    adv = np.zeros((T, N))
    valid = np.zeros((T, N), bool)
    for b in range(N):
        for g in range(len(rep_seat)):
            traj, game_of = [], []  # decisions (t), and rewards/dones per decision
            game = 0
            for t in range(T):
                if group_of_seat[seats[t, b]] == g:
                    traj.append([t, 0.0, False])
                    game_of.append(game)
                if traj and game_of[-1] == game and not traj[-1][2]:
                    traj[-1][1] += rewards[t, b, rep_seat[g]]
                if dones[t, b]:
                    if traj and game_of[-1] == game:
                        traj[-1][2] = True
                    game += 1
            a_next = 0.0
            for i in range(len(traj) - 1, -1, -1):
                t, r, done = traj[i]
                if not done and i == len(traj) - 1:
                    continue  # open at the end: no successor yet
                v_next = 0.0 if done else values[traj[i + 1][0], b]
                nxt_valid = not done and (i + 1 < len(traj) - 1 or traj[i + 1][2])
                delta = r + gamma * v_next - values[t, b]
                a = delta + (gamma * lam * a_next if nxt_valid else 0.0)
                adv[t, b], valid[t, b] = a, True
                a_next = a
    return adv, valid


@pytest.mark.parametrize("credit_by", ["side", "seat"])
@pytest.mark.parametrize("sides", [((0,), (1,)), ((0,), (1,), (2,)), ((0, 2), (1, 3))])
def test_credit__random_sequences_match_the_textbook_per_trajectory_gae(sides, credit_by):
    rng = np.random.default_rng(len(sides) * 7 + len(credit_by))
    P = sum(len(s) for s in sides)
    T, N = 40, 16
    seats = rng.integers(P, size=(T, N))
    dones = rng.random((T, N)) < 0.1
    rewards = np.where(dones[..., None], rng.normal(size=(T, N, P)), 0.0)
    for side in sides:  # partners' rewards are equal
        rewards[..., list(side)] = rewards[..., [side[0]]]
    values = rng.normal(size=(T, N))
    group_of_seat, rep_seat = trajectory_groups(P, sides, credit_by)
    out, _ = assign_credit(
        seats,
        np.ones((T, N), bool),
        rewards,
        dones,
        values,
        group_of_seat,
        rep_seat,
        0.97,
        0.9,
        Pending.empty(N, len(rep_seat)),
    )
    adv, valid = reference_gae(seats, rewards, dones, values, group_of_seat, rep_seat, 0.97, 0.9)
    assert np.array_equal(out.valid, valid)
    np.testing.assert_allclose(out.adv[valid], adv[valid], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out.ret[valid], adv[valid] + values[valid], rtol=1e-5, atol=1e-5)


def test_credit__split_rollouts_give_the_same_deltas_as_one():
    """With lambda 0 the advantage is the one-step delta, which the rollout boundary must not
    change: one rollout of 30 steps and three of 10 (carrying the open decisions) agree."""
    rng = np.random.default_rng(5)
    P, T, N = 3, 30, 8
    seats = rng.integers(P, size=(T, N))
    dones = rng.random((T, N)) < 0.15
    rewards = np.where(dones[..., None], rng.normal(size=(T, N, P)), 0.0)
    values = rng.normal(size=(T, N))
    groups = trajectory_groups(P, ((0,), (1,), (2,)), "seat")
    whole, _ = credit(seats, rewards, dones, values, groups, lam=0.0)
    pend = Pending.empty(N, P)
    carried = {}  # (b, g) -> the global step of the carried decision
    got = np.full((T, N), np.nan)
    for k in range(3):
        s = slice(10 * k, 10 * k + 10)
        out, pend = credit(seats[s], rewards[s], dones[s], values[s], groups, pending=pend, lam=0.0)
        got[s][out.valid] = out.adv[out.valid]
        for (b, g), t in carried.items():
            if out.carry_valid[b, g]:
                got[t, b] = out.carry_adv[b, g]
        carried = {k2: t for k2, t in carried.items() if pend.live[k2] and pend.src[k2] < 0}
        for b, g in zip(*np.nonzero(pend.live & (pend.src >= 0)), strict=True):
            carried[(b, g)] = 10 * k + pend.src[b, g]
        pend.src[pend.live] = -1
    done_mask = whole.valid
    np.testing.assert_allclose(got[done_mask], whole.adv[done_mask], atol=1e-6)


def test_credit__bad_shapes_raise():
    groups = two_seats()
    with pytest.raises(ValueError, match="must all be"):
        assign_credit(
            np.zeros((3, 2), int),
            np.ones((3, 1), bool),
            np.zeros((3, 2, 2)),
            np.zeros((3, 2), bool),
            np.zeros((3, 2)),
            *groups,
            0.9,
            0.9,
            Pending.empty(2, 2),
        )
    with pytest.raises(ValueError, match="pending state"):
        credit([0, 1], [[0, 0], [0, 0]], [0, 0], [0, 0], groups, pending=Pending.empty(3, 2))


# --- masking -----------------------------------------------------------------------------------
def test_masking__no_illegal_action_in_1e5_samples():
    torch = pytest.importorskip("torch")
    from train.ppo import MASKED_LOGIT, autocast, build_agent, sample_actions

    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    n, A, D = 100_000, 88, 32
    mask = rng.random((n, A)) < rng.uniform(0.02, 0.6, size=(n, 1))
    single = rng.random(n) < 0.25  # a quarter of the rows have one legal action
    only = rng.integers(A, size=n)
    mask[single] = False
    mask[single, only[single]] = True
    mask[~mask.any(axis=1), 0] = True
    m = torch.from_numpy(mask)
    # illegal actions get the largest raw logits: only the mask keeps them out
    raw = torch.randn(n, A) * 5 + torch.where(m, 0.0, 50.0)
    actions, logp = sample_actions(torch.where(m, raw, MASKED_LOGIT))
    a = actions.numpy()
    assert mask[np.arange(n), a].all()
    assert (a[single] == only[single]).all() and np.allclose(logp.numpy()[single], 0.0)
    # the network's own masked forward pass, in fp32 and under bf16 autocast
    agent = build_agent(D, A, [16], "tanh")
    for precision in ("fp32", "bf16"):
        with torch.no_grad(), autocast(torch.device("cpu"), precision):
            logits, values = agent(torch.randn(n, D) * 10, m)
            actions, _ = sample_actions(logits)
        assert logits.dtype == values.dtype == torch.float32  # the heads come back in fp32
        assert mask[np.arange(n), actions.numpy()].all()
        assert torch.softmax(logits, 1)[~m].max() == 0.0


def test_precision__auto_resolves_by_device_and_explicit_values_stay():
    torch = pytest.importorskip("torch")
    from train.ppo import resolve_precision

    cpu = torch.device("cpu")
    assert resolve_precision("fp32", cpu) == "fp32"
    assert resolve_precision("bf16", cpu) == "bf16"
    native = torch.backends.mkldnn.is_available() and torch.ops.mkldnn._is_mkldnn_bf16_supported()
    assert resolve_precision("auto", cpu) == ("bf16" if native else "fp32")


def test_masking__numpy_policy_never_plays_an_illegal_action():
    torch = pytest.importorskip("torch")
    from train.ppo import build_agent

    game = cardenvs.game_info("piquet-v0")
    policy = export(build_agent(game.obs_dim, game.num_actions, [8], "relu"), torch)
    rng = np.random.default_rng(1)
    n = 20_000
    mask = rng.random((n, game.num_actions)) < 0.1
    mask[np.arange(n), rng.integers(game.num_actions, size=n)] = True
    obs = rng.random((n, game.obs_dim)).astype(np.float32)
    for deterministic in (True, False):
        agent = PolicyAgent(policy, "piquet-v0", deterministic=deterministic, seed=3)
        a = agent.act_batch(obs, mask)
        assert mask[np.arange(n), a].all()


# --- the model file ----------------------------------------------------------------------------
def export(agent, torch, game: str = "piquet-v0") -> NumpyPolicy:
    """A torch agent as a NumpyPolicy with the header train/ppo.py writes."""
    import argparse

    from train.model_file import model_header, to_numpy_policy

    sizes = [m.out_features for m in agent.actor if isinstance(m, torch.nn.Linear)][:-1]
    act = "tanh" if any(isinstance(m, torch.nn.Tanh) for m in agent.actor) else "relu"
    args = argparse.Namespace(game=game, net=sizes, activation=act, command="pytest")
    return to_numpy_policy(agent, model_header(args, cardenvs.make_vector(game, 1, seed=0), 7))


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_model__round_trip_gives_the_torch_policy(tmp_path, activation):
    torch = pytest.importorskip("torch")
    from train.ppo import build_agent

    torch.manual_seed(2)
    venv = cardenvs.make_vector("piquet-v0", 64, seed=4, episode="deal")
    agent = build_agent(venv.obs_dim, venv.num_actions, [64, 32], activation)
    for p in agent.parameters():  # away from the tiny initial policy head
        p.data.normal_(0, 0.3)
    path = tmp_path / "model.npz"
    export(agent, torch).save(path)
    policy = NumpyPolicy.load(path)
    h = policy.header
    assert h["game"] == "piquet-v0" and h["obs_layout"] == layout_id("piquet-v0")
    assert h["net"] == {"hidden": [64, 32], "activation": activation}
    assert (h["obs_dim"], h["num_actions"]) == (venv.obs_dim, venv.num_actions)
    assert h["config"]["episode"] == "game" and h["timesteps"] == 7 and "git_commit" in h
    obs, mask, _ = venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(20):  # observations from every phase of real deals
        with torch.no_grad():
            logits, values = agent(torch.from_numpy(obs), torch.from_numpy(mask.astype(bool)))
        expected = torch.softmax(logits, dim=1).numpy()
        np.testing.assert_allclose(policy.probabilities(obs, mask), expected, atol=1e-5)
        np.testing.assert_allclose(policy.value(obs), values.numpy(), rtol=1e-4, atol=1e-5)
        played = PolicyAgent(path, "piquet-v0").act_batch(obs, mask)
        assert np.array_equal(played, expected.argmax(axis=1))
        obs, mask, *_ = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in mask]))


def test_model__loading_refuses_another_game_or_layout(tmp_path):
    torch = pytest.importorskip("torch")
    from train.ppo import build_agent

    game = cardenvs.game_info("piquet-v0")
    policy = export(build_agent(game.obs_dim, game.num_actions, [8], "tanh"), torch)
    path = tmp_path / "m.npz"
    policy.save(path)
    # au cent has the very same observation layout: still another game
    assert layout_id("piquet_au_cent-v0") == layout_id("piquet-v0")
    for other in ("piquet_au_cent-v0", "banque-v0"):
        with pytest.raises(ValueError, match="trained on another game: 'piquet-v0'"):
            PolicyAgent(path, other)
    stale = NumpyPolicy(policy.header | {"obs_layout": "sha256:0000000000000000"}, _arrays(policy))
    stale.save(tmp_path / "stale.npz")
    with pytest.raises(ValueError, match="another observation layout of piquet-v0"):
        PolicyAgent(tmp_path / "stale.npz", "piquet-v0")
    with pytest.raises(ValueError, match="format version"):
        NumpyPolicy(policy.header | {"format_version": 99}, _arrays(policy))
    arrays = _arrays(policy)
    arrays["pi.0.weight"] = arrays["pi.0.weight"][:, :-1]
    with pytest.raises(ValueError, match="pi.0: weight"):
        NumpyPolicy(policy.header, arrays)
    np.savez(tmp_path / "plain.npz", x=np.zeros(3))
    with pytest.raises(ValueError, match="no header"):
        PolicyAgent(tmp_path / "plain.npz", "piquet-v0")


def _arrays(policy: NumpyPolicy) -> dict:
    out = {}
    for prefix, layers in (("pi", policy.pi), ("vf", policy.vf)):
        for k, (wt, b) in enumerate(layers):
            out[f"{prefix}.{k}.weight"], out[f"{prefix}.{k}.bias"] = wt.T.copy(), b
    return out


def test_model__a_npz_model_plays_without_torch(tmp_path):
    """A saved model is read and played in a fresh interpreter where torch cannot import."""
    torch = pytest.importorskip("torch")
    from train.ppo import build_agent

    game = cardenvs.game_info("piquet-v0")
    export(build_agent(game.obs_dim, game.num_actions, [8], "tanh"), torch).save(tmp_path / "m.npz")
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import cardenvs\n"
        "from agents.policy import PolicyAgent\n"
        f"agent = PolicyAgent({str(tmp_path / 'm.npz')!r}, 'piquet-v0')\n"
        "env = cardenvs.make('piquet-v0', episode='deal'); env.reset(seed=0)\n"
        "obs, *_ = env.last()\n"
        "a = agent.act(obs['observation'], obs['action_mask'])\n"
        "assert obs['action_mask'][a]\n"
        "print('played', a)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0 and "played" in done.stdout, done.stderr[-2000:]


# --- the trainer ---------------------------------------------------------------------------------
def tiny_args(out: Path, game: str = "piquet-v0", *extra) -> list[str]:
    return [
        "--game",
        game,
        "--config",
        '{"episode": "deal"}',
        "--eval-config",
        "{}",
        "--num-envs",
        "16",
        "--num-steps",
        "16",
        "--total-timesteps",
        "1200",
        "--net",
        "32",
        "--minibatch-size",
        "128",
        "--epochs",
        "2",
        "--eval-every",
        "600",
        "--eval-games",
        "4",
        "--snapshot-every",
        "300",
        "--league-share",
        "0.5",
        "--threads",
        "1",
        "--no-progress",
        "--out",
        str(out),
        *extra,
    ]


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_trainer__same_seed_same_weights_other_seed_other_weights(tmp_path, precision):
    pytest.importorskip("torch")
    from train.ppo import main

    runs = [
        main(tiny_args(tmp_path / f"run{k}", "piquet-v0", "--seed", s, "--precision", precision))
        for k, s in enumerate(("3", "3", "4"))
    ]
    assert runs[0]["updates"] >= 3 and runs[0]["precision"] == precision
    weights = [NumpyPolicy.load(r["model"]) for r in runs]
    first = _arrays(weights[0])
    assert all(np.array_equal(first[k], v) for k, v in _arrays(weights[1]).items())
    assert not np.array_equal(first["pi.0.weight"], _arrays(weights[2])["pi.0.weight"])


def test_trainer__parse_rejects_bad_arguments_and_reads_the_native_defaults(capsys):
    from train import hyperparams
    from train.ppo import parse

    args = parse(["--game", "banque-v0"])
    assert args.gamma == 1.0 and args.config == {"episode": "deal"}
    assert args.eval_config == {"episode": "game", "reward": "win"}
    four_aces = parse(["--game", "four_aces-v0"])  # trained on score margins, judged on wins
    assert four_aces.config == {"episode": "deal", "reward": "score"}
    assert four_aces.eval_config == {"episode": "game", "reward": "win"}
    assert parse(["--game", "piquet-v0"]).gamma == hyperparams.NATIVE["gamma"]
    for game in cardenvs.GAMES:
        parse(["--game", game])  # every tuned key is an argument (checked in parse)
    for bad, message in (
        (["--league-share", "1.5"], "--league-share must be in"),
        (["--num-envs", "0"], "--num-envs must be at least 1"),
        (["--config", "[1]"], "--config must be a JSON object"),
        (["--config", "{nope"], "--config is not JSON"),
        (["--minutes", "-1"], "--minutes must be >= 0"),
    ):
        with pytest.raises(SystemExit) as exit_:
            parse(bad)
        assert exit_.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--device", "foo"], "--device 'foo' cannot be used: "),
        (["--config", '{"foo": 1}'], "--config: unknown config option(s) ['foo'] for piquet-v0"),
        (["--eval-config", '{"foo": 1}'], "--eval-config: unknown config option(s) ['foo']"),
        (["--seed", "-1"], "--seed must be in 0..9223372036854775792 (the engine's rows are"),
        (["--seed", str(2**63 - 1)], f"--seed must be in 0..{2**63 - 16}"),
        (["--learning-rate", "nan"], "--learning-rate must be a finite number above 0, got nan"),
        (["--learning-rate", "inf"], "--learning-rate must be a finite number above 0, got inf"),
        (["--minutes", "nan"], "--minutes must be >= 0 and finite (0: no time budget), got nan"),
        (["--ent-coef", "nan"], "--ent-coef must be a finite number, got nan"),
        (["--max-grad-norm", "0"], "--max-grad-norm must be a finite number above 0, got 0.0"),
        (["--out", "FILE"], "is a file: give a folder"),
        (["--out", "FILE/run"], "cannot be made: "),
        (["--league", "model:m.zip"], "--league model:m.zip: model:<path> takes a .npz model"),
    ],
    ids=lambda x: x if isinstance(x, str) else "-".join(x),
)
def test_trainer__bad_arguments_are_usage_errors_before_anything_is_written(
    tmp_path, capsys, extra, message
):
    """Issue 48, item 12: each of these exits with argparse's usage error naming the argument,
    its value and what is allowed (an unknown device, an unknown option and a file as --out were
    tracebacks; nan and inf were taken), and --out is not made before every argument is
    checked."""
    pytest.importorskip("torch")
    from train.ppo import main

    out = tmp_path / "run"
    (tmp_path / "file").write_text("keep")
    extra = [x.replace("FILE", str(tmp_path / "file")) for x in extra]
    with pytest.raises(SystemExit) as e:
        main(tiny_args(out, "piquet-v0", *extra))
    err = capsys.readouterr().err
    assert e.value.code == 2 and "usage: python -m train.ppo" in err
    assert message in err, err
    assert sorted(f.name for f in tmp_path.iterdir()) == ["file"]
    assert (tmp_path / "file").read_text() == "keep"


def test_trainer__ctrl_c_saves_the_last_completed_update_without_a_traceback(tmp_path):
    """Issue 48, item 12: Ctrl-C (SIGINT, as a shell sends it) once an update has been logged
    ends the run with a short message and exit status 130, no traceback, and leaves in --out a
    loadable model.npz of the last completed update (the numpy policy and PolicyAgent load it;
    its header counts that update's learner decisions)."""
    pytest.importorskip("torch")
    import signal
    import time

    out = tmp_path / "run"
    args = tiny_args(out, "piquet-v0", "--total-timesteps", "1000000000")
    args += ["--eval-every", "1000000000", "--minutes", "0"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "train.ppo", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C as in a shell: a pytest-xdist worker ignores SIGINT, and a Python started with
        # SIGINT ignored installs no KeyboardInterrupt handler (tests/test_play.py does the same)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    progress = out / "progress.csv"
    try:
        deadline = time.monotonic() + 600
        while not (progress.exists() and len(progress.read_text().splitlines()) >= 2):
            assert proc.poll() is None, proc.communicate()[1][-3000:]
            assert time.monotonic() < deadline, "no update was logged in 10 minutes"
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, stderr[-3000:]
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr[-3000:]
    assert "interrupted (Ctrl-C): saved the model of the last completed update" in stderr
    logged = [int(r["timesteps"]) for r in csv.DictReader(progress.open())]
    model = NumpyPolicy.load(out / "model.npz")
    # the model's update is the last logged one, or the one just after it (saved before its row)
    assert model.header["timesteps"] >= logged[-1] > 0
    assert f"{model.header['timesteps']:,} learner decisions" in stderr
    assert not list(out.glob("*.part"))
    venv = cardenvs.make_vector("piquet-v0", 8, seed=1, episode="deal")
    obs, mask, _ = venv.reset()
    actions = PolicyAgent(out / "model.npz", "piquet-v0").act_batch(obs, mask)
    assert mask[np.arange(8), actions].all()


# --- train.evaluate's command line (issue 48, items 12 and 2; a newcomer's finding) -----------
GAME = ("--game", "piquet-v0")


@pytest.fixture
def models(tmp_path):
    """A piquet model (header config: single deals), a two-player Esel model and a file named
    like an SB3 .zip (refused before anything reads it), in ``tmp_path``."""
    import zipfile

    from harness import random_model

    piquet = random_model(tmp_path / "piquet.npz", "piquet-v0", config={"episode": "deal"})
    esel = random_model(
        tmp_path / "esel2.npz", "esel-v0", config={"episode": "deal", "num_players": 2}
    )
    with zipfile.ZipFile(tmp_path / "sb3.zip", "w") as z:
        z.writestr("data", "{}")
    return {"piquet": str(piquet), "esel": str(esel), "zip": str(tmp_path / "sb3.zip")}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["piquet", "--game", "esel-v0"],
            "--game esel-v0: the model 'PATH/piquet.npz' plays piquet-v0 (its header)",
        ),
        (["piquet", *GAME, "--config", '{"foo": 1}'], "--config: unknown config option(s) ['foo']"),
        (["piquet", *GAME, "--config", "[1]"], "--config must be a JSON object of piquet-v0's"),
        (
            ["piquet", *GAME, "--seed", "-1"],
            "--seed must be in 0..9223372036854775806 (the 2 games",
        ),
        (
            ["zip", "--game", "piquet-v0"],
            "'PATH/sb3.zip' is an SB3 .zip model: loading it runs the code its pickles hold; "
            "give --trusted if you trust this file",
        ),
        (
            ["zip", "--trusted"],
            "--game is needed for an SB3 .zip model (it has no header to read it from)",
        ),
        (
            ["piquet", *GAME, "--against", "random", "ppo:ZIP"],
            "--against ppo:PATH/sb3.zip: 'PATH/sb3.zip' is an SB3 .zip model: loading it runs",
        ),
        (
            ["piquet", *GAME, "--against", "ppo:PATH/esel2.npz"],
            "--against ppo:PATH/esel2.npz: the model was trained on another game: 'esel-v0', "
            "not 'piquet-v0'",
        ),
    ],
    ids=[
        "other-game",
        "unknown-option",
        "config-not-object",
        "seed",
        "zip-untrusted",
        "zip-no-game",
        "opponent-zip-untrusted",
        "opponent-other-game",
    ],  # fmt: skip
)
def test_evaluate__bad_arguments_are_usage_errors(models, tmp_path, capsys, argv, message):
    """Each exits with argparse's usage error naming the argument, its value and what is allowed
    (another game's model, an unknown option and a negative seed were tracebacks; an SB3 .zip
    was refused with PolicyAgent's ValueError, a traceback: it needs --trusted); no result is
    written."""
    from train import evaluate

    paths = {"piquet": models["piquet"], "zip": models["zip"], "ppo:ZIP": f"ppo:{models['zip']}"}
    argv = [paths.get(x, x).replace("PATH", str(tmp_path)) for x in argv]
    report = tmp_path / "r.json"
    with pytest.raises(SystemExit) as e:
        evaluate.main([*argv, "--n", "1", "--json", str(report)])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "usage: python -m train.evaluate" in err, err
    assert message.replace("PATH", str(tmp_path)) in err, err
    assert not report.exists()


def test_evaluate__plays_the_config_of_the_model_s_header_and_says_which(models, tmp_path, capsys):
    """Newcomer finding: a model is evaluated under the game and config its header records (a
    two-player Esel model at two players, not at Esel's default four), and the command says
    which config it used; an explicit --config option wins over the header's, with a warning
    naming it where it differs."""
    from train import evaluate

    report = tmp_path / "r.json"
    rows = evaluate.main([models["esel"], "--n", "1", "--against", "random", "--json", str(report)])
    out = capsys.readouterr()
    assert rows[0]["games"] == 2  # one game in each of the two seats
    saved = json.loads(report.read_text())
    assert saved["game"] == "esel-v0" and saved["config"]["num_players"] == 2
    # the header's rules, not its training episodes (single deals): whole games, won or lost
    assert saved["config"].get("episode", "game") == "game"
    assert (
        f"evaluating {models['esel']} on esel-v0 with the model's training config (its header): "
        '{"num_players": 2}' in out.out
    )
    assert "warning" not in out.err
    rows = evaluate.main([models["esel"], "--config", '{"num_players": 4, "episode": "deal"}',
                          "--n", "1", "--against", "random", "--json", str(report)])  # fmt: skip
    out = capsys.readouterr()
    assert rows[0]["games"] == 4  # four seats now
    assert json.loads(report.read_text())["config"]["num_players"] == 4
    assert (
        "warning: --config num_players=4 differs from the model's training config "
        "(num_players=2, its header)" in out.err
    )
    assert "episode" not in out.err  # not a rule option of the header's: no warning
    assert (
        '{"episode": "deal", "num_players": 4}' in out.out
        and "(its header) and --config over it: " in out.out
    )


def test_trainer__league_seats_one_learner_side_per_league_game():
    from train.league import League

    sides = ((0, 2), (1, 3))
    league = League("partnership_piquet-v0", ["random"], 0.5, sides, 4, 400, 3, seed=0)
    in_league = league.member >= 0
    assert 0.35 < in_league.mean() < 0.65
    assert league.learner[~in_league].all()
    held = league.learner[in_league]
    assert ((held == [1, 0, 1, 0]).all(axis=1) | (held == [0, 1, 0, 1]).all(axis=1)).all()
    actions = np.full(400, -1)
    learn = league.learner[:, 1]  # every row's seat 1 is to act
    mask = np.zeros((400, 5), np.int8)
    mask[:, 2:4] = 1
    league.act(np.zeros((400, 3), np.float32), mask, learn, actions)
    assert (actions[learn] == -1).all() and np.isin(actions[~learn], [2, 3]).all()
    alone = League("piquet-v0", ["random"], 0.0, ((0,), (1,)), 2, 50, 3, seed=0)
    assert (alone.member == -1).all() and alone.learner.all()


def run_module(module: str, args: list[str]) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


@pytest.fixture(scope="module")
def native_run(request, tmp_path_factory):
    """A seconds-long ``python -m train.ppo`` run: (game, its output folder, its stdout)."""
    pytest.importorskip("torch")
    out = tmp_path_factory.mktemp("native") / "run"
    done = run_module("train.ppo", tiny_args(out, request.param))
    return request.param, out, done.stdout


@pytest.mark.parametrize("native_run", ["piquet-v0", "partnership_piquet-v0"], indirect=True)
def test_trainer__end_to_end_native_run_writes_model_logs_plot(native_run, tmp_path):
    game, out, stdout = native_run
    summary = json.loads((out / "summary.json").read_text())
    assert summary["timesteps"] >= 1200 and summary["decisions_per_s"] > 0
    assert 0 < summary["shares"]["env"] < 1 and 0 < summary["shares"]["update"] < 1
    assert summary["args"]["game"] == game and len(summary["final"]) == 2
    assert sorted(p.name for p in out.glob("checkpoint_*.npz"))
    for name in ("model.npz", "progress.csv", "eval.csv", "learning_curve.png"):
        assert (out / name).is_file(), name
    evals = (out / "eval.csv").read_text().splitlines()
    assert evals[0].startswith("opponent,games,win_rate") and len(evals) == 1 + 2 * 2
    assert f"model: {out / 'model.npz'}" in stdout
    # every evaluation counts the games won, drawn and lost, and the mean reward's interval
    for r in csv.DictReader((out / "eval.csv").open()):
        assert int(r["wins"]) + int(r["draws"]) + int(r["losses"]) == int(r["games"])
        lo, hi = float(r["return_ci_low"]), float(r["return_ci_high"])
        assert lo <= float(r["mean_return"]) <= hi
    for r in summary["final"]:
        assert f"W/D/L {r['wins']} / {r['draws']} / {r['losses']}, mean reward " in stdout
    seating = ["--n", "2", *(["--side"] if game.startswith("partnership") else [])]
    report = tmp_path / "eval.json"
    cmd = [str(out / "model.npz"), "--game", game, "--config", '{"episode": "deal"}', *seating]
    printed = run_module("train.evaluate", [*cmd, "--json", str(report)]).stdout
    rows = json.loads(report.read_text())["results"]
    assert [r["opponent"] for r in rows] == ["random", "heuristic"]
    assert all(r["games"] == 4 for r in rows)  # 2 games in each of the 2 seats or sides
    for r in rows:
        assert r["wins"] + r["draws"] + r["losses"] == r["games"]
        assert r["return_ci_low"] <= r["mean_return"] <= r["return_ci_high"]
        counts = f"W/D/L {r['wins']} / {r['draws']} / {r['losses']}"
        assert f"over 4 games: {counts}, mean reward {r['mean_return']:+.3f} ± " in printed
    # the model through ISMCTS, rolling out with itself (search at play time)
    run_module("train.evaluate", [*cmd, "--n", "1", "--search", "3", "--against", "heuristic",
                                  "--json", str(report)])  # fmt: skip
    searched = json.loads(report.read_text())
    assert searched["search"] == 3 and searched["results"][0]["games"] == 2


@pytest.mark.parametrize("native_run", ["piquet-v0"], indirect=True)
def test_trainer__end_to_end_sb3_run_plays_beside_a_native_model(native_run, tmp_path):
    pytest.importorskip("sb3_contrib", reason="needs the train extra: pip install -e '.[train]'")
    game, native, _ = native_run
    out = tmp_path / "sb3"
    cmd = ["--game", game, "--config", '{"episode": "deal"}', "--eval-config", "{}"]
    cmd += ["--total-timesteps", "512", "--eval-every", "512", "--eval-games", "4"]
    cmd += ["--num-envs", "8", "--n-steps", "32", "--batch-size", "128", "--out", str(out)]
    run_module("train.sb3_ppo", cmd)
    from benchmarks.tournament import main

    # the SB3 .zip is trusted on the command line (--trusted: loading it runs its pickles)
    agents = [f"ppo:{out / 'model.zip'}", f"ppo:{native / 'model.npz'}"]
    argv = ["--games", game, "--agents", *agents, "--n", "2", "--config", '{"episode": "deal"}']
    argv += ["--quiet", "--out", str(tmp_path / "t")]
    report = main([*argv, "--trusted"])
    rows = report["games"][game]["agents"]
    seats = cardenvs.make_vector(game, 1, seed=0).num_seats
    assert [r["seats_played"] for r in rows.values()] == [2 * seats * (2**seats - 2) // 2] * 2
    # without --trusted: a usage error that says why (never a traceback, nothing written)
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.tournament", *argv[:-1], str(tmp_path / "u")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert "model.zip' is an SB3 .zip model: loading it runs the code" in done.stderr
    assert "give --trusted if you trust this file" in done.stderr
    assert not (tmp_path / "u").exists()


def test_train_speed__measures_both_trainers_side_by_side(tmp_path, capsys):
    pytest.importorskip("sb3_contrib", reason="needs the train extra: pip install -e '.[train]'")
    import torch

    from benchmarks import train_speed
    from train.ppo import resolve_precision

    report = train_speed.main(["--seconds", "2", "--net", "16", "--json", str(tmp_path / "r.json")])
    sb3, native, *fp32 = report["rows"]
    default = resolve_precision("auto", torch.device("cpu"))
    assert sb3["trainer"].startswith("sb3") and native["trainer"] == f"native, {default}"
    # where the default is bf16, an fp32 run follows: the ratio at equal arithmetic
    assert [r["trainer"] for r in fp32] == ([] if default == "fp32" else ["native, fp32"])
    for row in (sb3, native, *fp32):
        assert row["decisions"] > 0 and row["decisions_per_s"] > 0
        assert sum(row["shares"].values()) == pytest.approx(1.0)
        assert 0 < row["shares"]["update"] < 1
    assert native["ratio"] == pytest.approx(native["decisions_per_s"] / sb3["decisions_per_s"])
    assert json.loads((tmp_path / "r.json").read_text())["rows"][1]["ratio"] == native["ratio"]
    assert "x SB3" in capsys.readouterr().out


def test_table__runs_a_setting_keeps_its_results_and_writes_the_table(tmp_path):
    """``train.table`` end to end on one setting, seconds long: the trainer's run, the ISMCTS
    evaluation of Piquet, the kept files, the table row built from them."""
    pytest.importorskip("torch")
    docs, runs = tmp_path / "docs", tmp_path / "runs"
    small = "--num-envs 16 --num-steps 8 --net 16 --eval-games 4 --total-timesteps 300"
    done = run_module(
        "train.table",
        ["--only", "piquet-v0", "--minutes", "1", "--trainer-args", small, "--ismcts-n", "1"]
        + ["--ismcts-iterations", "4", "--docs", str(docs), "--runs", str(runs)],
    )
    kept = sorted(p.name for p in (docs / "piquet-v0").iterdir())
    kept_files = ["eval.csv", "ismcts.json", "learning_curve.png", "progress.csv", "summary.json"]
    assert kept == kept_files
    summary = json.loads((docs / "piquet-v0" / "summary.json").read_text())
    ismcts = json.loads((docs / "piquet-v0" / "ismcts.json").read_text())["results"][0]
    assert ismcts["opponent"] == "ismcts" and ismcts["games"] == 2  # one deal from each seat
    row = [line for line in done.stdout.splitlines() if line.startswith("| [piquet-v0]")]
    assert len(row) == 1 and "(docs/training/native/piquet-v0/learning_curve.png)" in row[0]
    cells = [c.strip() for c in row[0].strip("|").split("|")]
    final = {r["opponent"]: r for r in summary["final"]}
    assert cells[1] == "2" and cells[5] == "0.50"
    assert cells[6].startswith(f"{final['random']['win_rate']:.3f} (")
    assert cells[7].startswith(f"{final['heuristic']['win_rate']:.3f} (")
    # each result shows the games won / drawn / lost and the mean reward beside the win rate
    for cell, r in ((cells[6], final["random"]), (cells[7], final["heuristic"])):
        assert f"); W/D/L {r['wins']}/{r['draws']}/{r['losses']}; reward " in cell
    # one deal from each seat, on duplicate deals: one deck, so no interval of the mean reward
    assert ismcts["deals"] == "duplicate" and ismcts["decks"] == 1
    assert ismcts["return_ci_low"] is None and ismcts["return_ci_high"] is None
    assert cells[8] == (
        f"{ismcts['win_rate']:.3f} ({ismcts['ci_low']:.3f}–{ismcts['ci_high']:.3f}); W/D/L "
        f"{ismcts['wins']}/{ismcts['draws']}/{ismcts['losses']}; reward "
        f"{ismcts['mean_return']:+.3f}, 2 deals"
    )
    table_md = (docs / "table.md").read_text()
    assert "(piquet-v0/learning_curve.png)" in table_md  # links relative to the table's folder


def test_table__a_result_cell_shows_draws_where_the_run_counted_them():
    from train.table import ci, outcome_text

    old = {"win_rate": 0.45, "ci_low": 0.4, "ci_high": 0.5, "mean_return": -0.02}
    assert ci(old) == "0.450 (0.400–0.500)"  # stored before draws were counted
    new = old | {"wins": 12, "draws": 170, "losses": 18, "return_ci_low": -0.05}
    new["return_ci_high"] = 0.01
    assert ci(new) == "0.450 (0.400–0.500); W/D/L 12/170/18; reward -0.020 ± 0.030"
    # eval.csv's strings, and the zoo header's interval as a list
    text = {k: str(v) for k, v in new.items()}
    assert outcome_text(text) == "; W/D/L 12/170/18; reward -0.020 ± 0.030"
    zoo = {k: v for k, v in new.items() if not k.startswith("return_ci")}
    assert outcome_text(zoo | {"return_ci95": [-0.05, 0.01]}) == outcome_text(new)
    assert outcome_text(zoo | {"return_ci95": [None, None]}) == "; W/D/L 12/170/18; reward -0.020"


def test_table__a_failed_setting_is_reported_and_exits_nonzero(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "train.table", "--only", "esel-v0", "--minutes", "1"]
        + ["--trainer-args", "--num-envs 0", "--docs", str(tmp_path / "d")]
        + ["--runs", str(tmp_path / "r")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode != 0 and "failed: esel-v0" in done.stderr
    assert "--num-envs must be at least 1" in (tmp_path / "r" / "esel-v0.log").read_text()


def test_table__the_readme_shows_the_committed_runs():
    """The README's training table is ``train.table``'s table of the runs kept in
    ``docs/training/native`` (rebuild it with ``python -m train.table --collect``)."""
    from train.table import DOCS, SETTINGS, table

    kept = [name for name in SETTINGS if (DOCS / name / "summary.json").exists()]
    assert kept == list(SETTINGS), f"settings without a kept run: {set(SETTINGS) - set(kept)}"
    assert table() in (ROOT / "README.md").read_text()


def test_trainer__init_starts_from_a_models_weights(tmp_path, capsys):
    """``--init model.npz``: the network takes the model's sizes and weights (a best response
    can start from the zoo's model); a model of another game is a usage error."""
    pytest.importorskip("torch")
    from harness import random_model

    from train.model_file import load_numpy_policy, to_numpy_policy
    from train.ppo import build_agent, parse

    path = random_model(tmp_path / "m.npz", "piquet-v0", hidden=(8, 4), seed=2)
    args = parse(["--game", "piquet-v0", "--init", str(path), "--net", "64"])
    assert args.net == [8, 4] and args.activation == args.init_policy.header["net"]["activation"]
    policy = args.init_policy
    agent = build_agent(policy.obs_dim, policy.num_actions, args.net, args.activation)
    load_numpy_policy(agent, policy)
    again = to_numpy_policy(agent, policy.header)
    for (w, b), (w2, b2) in zip(policy.pi + policy.vf, again.pi + again.vf, strict=True):
        np.testing.assert_array_equal(w, w2)
        np.testing.assert_array_equal(b, b2)
    load_numpy_policy(agent, policy, temperature=4.0)  # the same preferences, less sure
    softer = to_numpy_policy(agent, policy.header)
    np.testing.assert_allclose(softer.pi[-1][0], policy.pi[-1][0] / 4.0, rtol=1e-6)
    np.testing.assert_array_equal(softer.pi[0][0], policy.pi[0][0])
    np.testing.assert_array_equal(softer.vf[-1][0], policy.vf[-1][0])
    esel = random_model(tmp_path / "e.npz", "esel-v0")
    with pytest.raises(SystemExit):
        parse(["--game", "piquet-v0", "--init", str(esel)])
    assert f"--init '{esel}'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parse(["--game", "piquet-v0", "--init", str(path), "--init-temperature", "0"])
    assert "--init-temperature must be a positive number" in capsys.readouterr().err


def test_magnet__the_loss_pulls_the_policy_toward_the_magnet_and_is_zero_at_it():
    """Issue 51: ``--magnet-coef`` adds the reverse KL from the policy to the magnet. At the
    magnet the KL is 0 and the loss is the plain PPO loss; away from it the KL is positive over
    the legal actions only, and gradient steps on the loss alone shrink it."""
    torch = pytest.importorskip("torch")
    import argparse

    from train.ppo import build_agent, masked_logits, ppo_loss

    torch.manual_seed(0)
    agent = build_agent(6, 5, [16], "tanh")
    obs = torch.randn(64, 6)
    mask = torch.rand(64, 5) < 0.7
    mask[:, 0] = True
    acts = torch.zeros(64, dtype=torch.long)
    zeros = torch.zeros(64)
    args = argparse.Namespace(clip_coef=0.2, clip_vloss=False, ent_coef=0.0, vf_coef=0.0)
    args.magnet_coef = 1.0
    with torch.no_grad():
        own = torch.log_softmax(masked_logits(agent.actor, obs, mask), dim=1)
    plain, s0 = ppo_loss(
        agent, obs, mask, acts, own.gather(1, acts[:, None])[:, 0], zeros, zeros, zeros, args
    )
    at, s1 = ppo_loss(
        agent, obs, mask, acts, own.gather(1, acts[:, None])[:, 0], zeros, zeros, zeros, args, own
    )
    assert float(s0[5]) == 0.0 and abs(float(s1[5])) < 1e-6
    assert torch.allclose(plain, at, atol=1e-6)
    # another policy, far from the (near-uniform) starting one: the magnet
    rho = torch.log_softmax(torch.where(mask, 3 * torch.randn(64, 5), -1e9), dim=1)
    kl = []
    opt = torch.optim.Adam(agent.actor.parameters(), lr=1e-2)
    args.magnet_coef = 10.0  # the pull dominates the (zero-advantage) policy loss
    for _ in range(60):
        loss, s = ppo_loss(
            agent,
            obs,
            mask,
            acts,
            own.gather(1, acts[:, None])[:, 0],
            zeros,
            zeros,
            zeros,
            args,
            rho,
        )
        kl.append(float(s[5]))
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert kl[0] > 0.01 and np.isfinite(kl).all()
    assert kl[-1] < 0.6 * kl[0]  # (a small network cannot match 64 random rows exactly)


def test_magnet__a_run_with_a_magnet_logs_its_kl_and_bad_values_are_usage_errors(tmp_path, capsys):
    pytest.importorskip("torch")
    from train.ppo import main, parse

    out = tmp_path / "run"
    main(tiny_args(out, "piquet-v0", "--magnet-coef", "0.5", "--magnet-every", "200"))
    rows = list(csv.DictReader(open(out / "progress.csv")))
    assert len(rows) >= 3 and all(np.isfinite(float(r["magnet_kl"])) for r in rows)
    assert any(float(r["magnet_kl"]) > 0 for r in rows)
    for bad, message in (
        (["--magnet-coef", "-0.1"], "--magnet-coef must be a finite number >= 0"),
        (["--magnet-coef", "nan"], "--magnet-coef must be a finite number >= 0"),
        (["--magnet-every", "0"], "--magnet-every must be at least 1"),
    ):
        with pytest.raises(SystemExit):
            parse(bad)
        assert message in capsys.readouterr().err
