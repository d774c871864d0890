"""The single-agent Gymnasium view (``cardenvs.wrappers.SingleAgentEnv``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cardenvs
from cardenvs.wrappers import SingleAgentEnv

SMALL = {
    "piquet-v0": {"episode": "deal"},
    "esel-v0": {"episode": "deal", "num_players": 3},
    "banque-v0": {"episode": "deal", "num_players": 2},
    "four_aces-v0": {"episode": "deal", "num_players": 3},
}


class FirstLegal:
    """An opponent that plays its first legal action (and counts its calls)."""

    def __init__(self):
        self.calls = 0

    def act(self, observation, action_mask):
        self.calls += 1
        return int(np.flatnonzero(action_mask)[0])


def play(env, rng, seed=None):
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        assert env.observation_space.contains(obs)
        mask = env.action_masks()
        assert mask.any() and np.array_equal(mask, info["action_mask"].astype(bool))
        obs, r, done, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not trunc
        total += r
        steps += 1
    return total, steps, info


@pytest.mark.parametrize("env_id", list(SMALL))
def test_wrappers__gymnasium_check_env(env_id):
    check_env(SingleAgentEnv(env_id, **SMALL[env_id]), skip_render_check=True)


@pytest.mark.parametrize("env_id", list(SMALL))
def test_wrappers__learner_acts_only_for_its_seat_and_gets_its_reward(env_id):
    """Every observation is the learner's, with the learner to act; the return is the
    learner's reward from the engine; seat rotation visits every seat."""
    env = SingleAgentEnv(env_id, seat="rotate", **SMALL[env_id])
    rng = np.random.default_rng(0)
    seats = set()
    lo = cardenvs.game_info(env_id)
    to_act = sum(f.size for f in lo.obs_layout[: [f.name for f in lo.obs_layout].index("to_act")])
    for episode in range(2 * env.num_seats):
        obs, info = env.reset(seed=episode if episode == 0 else None)
        seats.add(info["seat"])
        assert obs[to_act] == 1.0
        done = False
        total = 0.0
        while not done:
            obs, r, done, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            total += r
            if not done:
                assert obs[to_act] == 1.0, "the learner is to act whenever it observes"
        assert -1.0 <= total <= 1.0
        assert total == pytest.approx(float(env._engine._rewards[0, env.seat]))
    assert seats == set(range(env.num_seats))


def test_wrappers__opponents_play_the_other_seats():
    opp = FirstLegal()
    env = SingleAgentEnv("banque-v0", seat=1, opponents=opp, num_players=2, episode="deal")
    play(env, np.random.default_rng(1), seed=3)
    assert opp.calls > 0
    per_seat = {0: FirstLegal()}
    env = SingleAgentEnv("piquet-v0", seat=1, opponents=per_seat, episode="deal")
    play(env, np.random.default_rng(1), seed=3)
    assert per_seat[0].calls > 0


def test_wrappers__same_seed_same_episode():
    a = SingleAgentEnv("esel-v0", num_players=2, episode="deal")
    b = SingleAgentEnv("esel-v0", num_players=2, episode="deal")
    ra = play(a, np.random.default_rng(5), seed=11)
    rb = play(b, np.random.default_rng(5), seed=11)
    assert ra[:2] == rb[:2]


def test_wrappers__illegal_actions_and_bad_arguments():
    env = SingleAgentEnv("piquet-v0", episode="deal")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs, r, done, trunc, info = env.step(illegal)
    assert r == -1.0 and done and info["illegal_move"] and not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env = SingleAgentEnv("piquet-v0", illegal_action="raise", episode="deal")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match="seat must be"):
        SingleAgentEnv("piquet-v0", seat=2)
    with pytest.raises(ValueError, match="illegal_action"):
        SingleAgentEnv("piquet-v0", illegal_action="ignore")
    with pytest.raises(ValueError, match="act"):
        SingleAgentEnv("piquet-v0", opponents=object())
    with pytest.raises(ValueError, match="unknown config"):
        SingleAgentEnv("piquet-v0", num_players=3)
    assert "SingleAgentEnv('piquet-v0'" in repr(env)
    env = SingleAgentEnv("banque-v0", render_mode="ansi", num_players=2)
    env.reset(seed=0)
    assert "Banque" in env.render()


def test_wrappers__sb3_vec_env_runs_maskable_ppo():
    """The SB3 VecEnv over the batched engine: learner seats rotate over rows, terminal
    observations follow SB3's convention, masks reach MaskablePPO, and a short training runs."""
    pytest.importorskip("sb3_contrib", reason="needs the train extra: pip install -e '.[train]'")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks

    from cardenvs.wrappers import sb3_vec_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # SB3 warns about any attribute it misses (render_mode)
        venv = sb3_vec_env("banque-v0", num_envs=4, seed=0, num_players=2, episode="deal")
    assert venv.render_mode is None
    obs = venv.reset()
    assert obs.shape == (4, cardenvs.game_info("banque-v0").obs_dim)
    assert venv.seats.tolist() == [0, 1, 0, 1]
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(400):
        masks = get_action_masks(venv)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = venv.step(actions)
        for b in np.flatnonzero(dones):
            assert "terminal_observation" in infos[b] and rewards[b] in (-1.0, 0.0, 1.0)
            ends += 1
        assert (rewards[~dones] == 0).all()
        cur = venv.engine.current_player
        assert (cur == venv.seats).all(), "every row waits for its learner"
    assert ends > 0
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, seed=0, verbose=0)
    model.learn(256)
    a, _ = model.predict(venv.reset(), action_masks=get_action_masks(venv))
    assert get_action_masks(venv)[np.arange(4), a].all()


def test_wrappers__sb3_vec_env_team_plays_both_partners():
    """With ``team=True`` the learner plays every seat of its side, each move observed from the
    seat that makes it, and gets the side's reward; without partners it is the plain env."""
    pytest.importorskip("stable_baselines3", reason="needs the train extra")
    from cardenvs.wrappers import sb3_vec_env

    venv = sb3_vec_env("partnership_piquet-v0", num_envs=4, seed=3, team=True, episode="deal")
    sides = [{0, 2}, {1, 3}, {0, 2}, {1, 3}]
    assert [set(np.flatnonzero(row)) for row in venv.learner] == sides
    obs = venv.reset()
    rng = np.random.default_rng(0)
    acted = [set() for _ in range(4)]
    ends = 0
    for _ in range(300):
        cur = venv.engine.current_player.astype(int)
        for b in range(4):
            assert cur[b] in sides[b], "every row waits for one of its learner's seats"
            acted[b].add(cur[b])
        np.testing.assert_array_equal(obs, venv.engine.observe(cur))
        masks = venv.action_masks()
        obs, rewards, dones, infos = venv.step([rng.choice(np.flatnonzero(m)) for m in masks])
        for b in np.flatnonzero(dones):
            assert rewards[b] in (-1.0, 0.0, 1.0) and "terminal_observation" in infos[b]
            ends += 1
        assert (rewards[~dones] == 0).all()
    assert ends > 0 and all(len(a) == 2 for a in acted), "the learner moved for both partners"
    plain = sb3_vec_env("piquet-v0", num_envs=4, seed=3, episode="deal")
    alone = sb3_vec_env("piquet-v0", num_envs=4, seed=3, team=True, episode="deal")
    np.testing.assert_array_equal(plain.learner, alone.learner)
    np.testing.assert_array_equal(plain.reset(), alone.reset())


def test_wrappers__rgb_array_draws_the_table_in_the_render_seat_s_view():
    """``render_mode="rgb_array"``: a picture of the table (``core.picture``) in the view of
    ``render_seat``, as the AEC env draws it: the open view by default, a seat's view with the
    others' cards face down, ``"current"`` the learner's view while the game runs (it follows
    the learner round the table with ``seat="rotate"``) and the open view once it is over."""
    from cardenvs.core.picture import SHAPE, draw

    config = {"episode": "deal", "num_players": 3}
    frames = {}
    for view in (None, 1, "current"):
        env = SingleAgentEnv("esel-v0", seat=1, render_mode="rgb_array", render_seat=view, **config)
        env.reset(seed=5)
        frames[view] = env.render()
        assert frames[view].shape == SHAPE and frames[view].dtype == np.uint8
        scene = env._engine.scene(0, 1 if view == "current" else view)
        assert np.array_equal(frames[view], draw(scene))
    assert np.array_equal(frames[1], frames["current"])
    assert not np.array_equal(frames[None], frames[1])  # the open view shows every hand
    env = SingleAgentEnv("esel-v0", seat="rotate", render_mode="rgb_array", render_seat="current")
    rng = np.random.default_rng(0)
    for episode in range(2):
        env.reset(seed=7 if episode == 0 else None)
        assert env.seat == episode
        done = False
        while not done:
            assert np.array_equal(env.render(), draw(env._engine.scene(0, env.seat)))
            _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        assert np.array_equal(env.render(), draw(env._engine.scene(0, None)))


def test_wrappers__gymnasium_check_env_renders_rgb_array():
    """Gymnasium's checks with its render check: no warning but that the env is not registered
    with ``gymnasium.make`` (so the other render modes are not tried)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = SingleAgentEnv("piquet-v0", render_mode="rgb_array", render_seat=0, episode="deal")
        check_env(env, skip_render_check=False)
    said = [str(w.message) for w in caught if "not having a spec" not in str(w.message)]
    assert said == [] and env.metadata["render_fps"] > 0


def test_wrappers__bad_render_arguments_are_clear_errors():
    with pytest.raises(ValueError, match=r"render_mode must be one of \[None, 'ansi', 'rgb_a"):
        SingleAgentEnv("piquet-v0", render_mode="human")
    with pytest.raises(ValueError, match=r"render_seat: view seat must be None .* in 0\.\.1"):
        SingleAgentEnv("piquet-v0", render_mode="rgb_array", render_seat=2)
    with pytest.raises(ValueError, match="render_seat: "):
        SingleAgentEnv("piquet-v0", render_mode="rgb_array", render_seat="learner")
    env = SingleAgentEnv("piquet-v0", render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="reset"):
        env.render()


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (
            lambda ok: np.where(np.arange(4) == 1, 1.7, ok),
            r"row 1: action 1\.7 is not an integer: actions must be integers in 0\.\.\d+ "
            r"\(an integer dtype\), got dtype float64",
        ),
        (
            lambda ok: ok.astype(np.float64),
            r"row 0: action \d\.0 is not an integer: .*got dtype float64",
        ),
        (
            lambda ok: np.where(np.arange(4) == 2, 10**6, ok),
            r"row 2: action 1000000 is outside the action space 0\.\.\d+",
        ),
        (
            lambda ok: np.where(np.arange(4) == 3, -1, ok),
            r"row 3: action -1 is outside the action space 0\.\.\d+",
        ),
        (lambda ok: ok > 0, r"row 0: action (True|False) is a bool: actions must be integers"),
        (
            lambda ok: np.array(["a", *ok[1:]], object),
            r"row 0: action 'a' is not an integer: .*got dtype object",
        ),
        (lambda ok: ok[:3], r"actions must be 4 integers \(one per row\), got shape \(3,\)"),
    ],
    ids=["float-1.7", "whole-floats", "too-large", "negative", "bools", "strings", "too-few"],
)
def test_wrappers__sb3_vec_env_checks_actions_as_the_engine_does(actions, message):
    """Issue 48, item 13: the SB3 ``VecEnv`` takes integer actions in ``0..N-1``, one per row,
    as ``CardVectorEnv.step`` does: a float (1.7 was played as 1), a bool, an id out of range
    (numpy's ``IndexError``) or a wrong count is a ``ValueError`` naming the row, the value and
    what is allowed; nothing is stepped, and legal integer actions of any integer dtype play."""
    pytest.importorskip("stable_baselines3", reason="needs the train extra")
    from cardenvs.wrappers import sb3_vec_env

    venv = sb3_vec_env("piquet-v0", num_envs=4, seed=3, episode="deal")
    venv.reset()
    ok = np.array([np.flatnonzero(m)[0] for m in venv.action_masks()], np.int64)
    before = venv.engine.observe(venv.engine.current_player)
    with pytest.raises(ValueError, match=message):
        venv.step(actions(ok))
    np.testing.assert_array_equal(venv.engine.observe(venv.engine.current_player), before)
    venv.step(ok.astype(np.uint8))  # any integer dtype plays
    venv.step([int(np.flatnonzero(m)[0]) for m in venv.action_masks()])  # a list of ints too
