"""Layer 6: the batched engine equals the AEC env row for row, bit for bit; rows are
independent; autoreset is correct; bad input is rejected naming the row and the action."""

from __future__ import annotations

import functools

import harness
import numpy as np
import pytest

import cardenvs
from cardenvs.core.vector import RandomLegal

ENV_ID = "piquet-v0"
NUM_ACTIONS = 88


aec_envs = functools.partial(harness.aec_envs, ENV_ID)


def pick(mask: np.ndarray, g: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (0 for rows without one)."""
    out = np.zeros(mask.shape[0], np.int64)
    for b in range(mask.shape[0]):
        legal = np.flatnonzero(mask[b])
        if legal.size:
            out[b] = g.choice(legal)
    return out


def assert_row_matches_env(env, obs_row, mask_row, current):
    agent = env.agent_selection
    assert agent == f"player_{int(current)}"
    o = env.observe(agent)
    assert np.array_equal(o["observation"], obs_row)
    assert np.array_equal(o["action_mask"], mask_row)


def first_illegal(mask_row: np.ndarray) -> int:
    return int(np.flatnonzero(mask_row == 0)[0])


# --- vector engine == AEC env --------------------------------------------------------------------
@pytest.mark.parametrize(
    "config",
    [{}, {"reward": "score", "partie": "four_deals"}, {"episode": "deal", "set_ranks": "KQJT"}],
    ids=["default", "score-four_deals", "deal-KQJT"],
)
def test_vector__rows_equal_aec_envs_bit_for_bit(config):
    n, seed = 4, 100
    vec = cardenvs.make_vector(
        ENV_ID, num_envs=n, seed=seed, autoreset=False, validate=False, **config
    )
    obs, mask, info = vec.reset()
    assert obs.shape == (n, vec.obs_dim) and obs.dtype == np.float32
    assert mask.shape == (n, NUM_ACTIONS) and mask.dtype == np.int8
    envs = aec_envs(seed, n, **config)
    for b in range(n):
        assert_row_matches_env(envs[b], obs[b], mask[b], info["current_player"][b])
    g = np.random.default_rng(0)
    done = np.zeros(n, bool)
    for _ in range(3000):
        actions = pick(mask, g)
        obs, mask, rewards, terminated, truncated, info = vec.step(actions)
        assert not truncated.any()
        for b in range(n):
            if done[b]:
                # a finished row stays finished and pays nothing more
                assert rewards[b].tolist() == [0.0, 0.0]
                assert mask[b].sum() == 0
                continue
            env = envs[b]
            env.step(int(actions[b]))
            if all(env.terminations.values()):
                assert terminated[b], f"row {b} should have ended"
                expected = [env.rewards["player_0"], env.rewards["player_1"]]
                assert rewards[b].tolist() == expected
                assert rewards[b].sum() == 0
                assert mask[b].sum() == 0
                done[b] = True
            else:
                assert not terminated[b]
                assert rewards[b].tolist() == [0.0, 0.0]
                assert_row_matches_env(env, obs[b], mask[b], info["current_player"][b])
        if done.all():
            break
    assert done.all(), "some rows never finished"


def test_vector__observe_other_seat_equals_aec_observe():
    n, seed = 3, 40
    vec = cardenvs.make_vector(ENV_ID, num_envs=n, seed=seed)
    obs, mask, info = vec.reset()
    envs = aec_envs(seed, n)
    g = np.random.default_rng(1)
    for _ in range(60):
        for seat in (0, 1):
            view = vec.observe(seat)
            for b in range(n):
                ref = envs[b].observe(f"player_{seat}")["observation"]
                assert np.array_equal(view[b], ref)
        actions = pick(mask, g)
        obs, mask, _, terminated, _, info = vec.step(actions)
        assert not terminated.any()
        for b in range(n):
            envs[b].step(int(actions[b]))


# --- independence and determinism ----------------------------------------------------------------
def test_vector__rows_are_independent():
    n = 3
    a = cardenvs.make_vector(ENV_ID, num_envs=n, seed=5)
    b = cardenvs.make_vector(ENV_ID, num_envs=n, seed=5)
    obs_a, mask_a, _ = a.reset()
    obs_b, mask_b, _ = b.reset()
    g = np.random.default_rng(2)
    row0_differs = False
    for _ in range(300):
        act_a = pick(mask_a, g)
        act_b = act_a.copy()
        # row 0 plays differently in the two engines: first vs last legal action
        act_a[0] = np.flatnonzero(mask_a[0])[0]
        act_b[0] = np.flatnonzero(mask_b[0])[-1]
        obs_a, mask_a, rew_a, term_a, _, _ = a.step(act_a)
        obs_b, mask_b, rew_b, term_b, _, _ = b.step(act_b)
        for r in range(1, n):
            assert np.array_equal(obs_a[r], obs_b[r])
            assert np.array_equal(mask_a[r], mask_b[r])
            assert np.array_equal(rew_a[r], rew_b[r])
            assert term_a[r] == term_b[r]
        row0_differs |= not np.array_equal(obs_a[0], obs_b[0])
    assert row0_differs


def test_vector__same_seed_same_trajectories():
    n = 4
    engines = [cardenvs.make_vector(ENV_ID, num_envs=n, seed=7) for _ in range(2)]
    pickers = [RandomLegal(seed=1), RandomLegal(seed=1)]
    outs = [e.reset() for e in engines]
    assert np.array_equal(outs[0][0], outs[1][0])
    ended = 0
    for _ in range(400):
        steps = [e.step(p(o[1]).copy()) for e, p, o in zip(engines, pickers, outs, strict=True)]
        for x, y in zip(steps[0][:5], steps[1][:5], strict=True):
            assert np.array_equal(x, y)
        assert np.array_equal(steps[0][5]["current_player"], steps[1][5]["current_player"])
        ended += int(steps[0][3].sum())
        outs = steps
    assert ended > 0  # the comparison covered autoresets


def test_vector__different_seeds_differ_and_rows_differ():
    a = cardenvs.make_vector(ENV_ID, num_envs=3, seed=7)
    b = cardenvs.make_vector(ENV_ID, num_envs=3, seed=8)
    obs_a = a.reset()[0].copy()
    obs_b = b.reset()[0].copy()
    assert not np.array_equal(obs_a, obs_b)
    # row b of seed s is row 0 of seed s + b
    assert np.array_equal(obs_a[1], obs_b[0])
    assert np.array_equal(obs_a[2], obs_b[1])
    assert not np.array_equal(obs_a[0], obs_a[1])


def test_vector__reset_with_same_seed_restarts_and_without_seed_continues():
    vec = cardenvs.make_vector(ENV_ID, num_envs=3, seed=9)
    first = vec.reset()[0].copy()
    again = vec.reset(seed=9)[0].copy()
    assert np.array_equal(first, again)
    nxt = vec.reset()[0].copy()
    assert not np.array_equal(first, nxt)
    # a seedless reset continues the episode counter like an AEC env's seedless reset
    env = cardenvs.make(ENV_ID)
    env.reset(seed=10)
    env.reset()
    agent = env.agent_selection
    assert np.array_equal(env.observe(agent)["observation"], nxt[1])


# --- autoreset -----------------------------------------------------------------------------------
@pytest.mark.parametrize("config", [{"episode": "deal"}, {}], ids=["deal", "game"])
def test_vector__autoreset_reports_end_then_fresh_episode(config):
    n, seed = 3, 60
    vec = cardenvs.make_vector(ENV_ID, num_envs=n, seed=seed, **config)
    obs, mask, info = vec.reset()
    envs = aec_envs(seed, n, **config)
    g = np.random.default_rng(3)
    episodes = np.zeros(n, int)
    for _ in range(3000):
        actions = pick(mask, g)
        obs, mask, rewards, terminated, _, info = vec.step(actions)
        for b in range(n):
            env = envs[b]
            env.step(int(actions[b]))
            ended = all(env.terminations.values())
            assert bool(terminated[b]) == ended
            if ended:
                assert rewards[b].tolist() == [env.rewards["player_0"], env.rewards["player_1"]]
                assert rewards[b].sum() == 0
                assert mask[b].sum() > 0  # the next episode has started
                episodes[b] += 1
                old_deck = env.unwrapped.record()["deals"][0]["deck"]
                env.reset()  # the next episode of the same seed
                assert env.unwrapped.record()["deals"][0]["deck"] != old_deck
            else:
                assert rewards[b].tolist() == [0.0, 0.0]
            assert_row_matches_env(env, obs[b], mask[b], info["current_player"][b])
        if (episodes >= 2).all() or (config == {} and (episodes >= 1).all()):
            break
    assert (episodes >= 1).all()


def test_vector__autoreset_mask_never_empty():
    vec = cardenvs.make_vector(ENV_ID, num_envs=8, seed=1, episode="deal")
    _, mask, _ = vec.reset()
    pick_ = RandomLegal(seed=2)
    ends = 0
    for _ in range(300):
        assert (mask.sum(axis=1) > 0).all()
        _, mask, rewards, terminated, _, _ = vec.step(pick_(mask))
        ends += int(terminated.sum())
        assert (rewards[~terminated] == 0).all()
        assert (rewards.sum(axis=1) == 0).all()
    assert ends > 0


# --- bad input -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "actions",
    [
        np.zeros(4, np.int64),
        np.zeros((3, 1), np.int64),
        np.int64(0),
        np.zeros(3, np.float64),
        np.zeros(3, np.bool_),
        ["a", "b", "c"],
    ],
    ids=["too-long", "2d", "scalar", "float", "bool", "strings"],
)
def test_vector__actions_of_wrong_shape_or_dtype_raise(actions):
    vec = cardenvs.make_vector(ENV_ID, num_envs=3, seed=0)
    vec.reset()
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        vec.step(actions)


@pytest.mark.parametrize(("row", "action"), [(0, 88), (2, 999), (1, -1)])
def test_vector__out_of_range_action_names_row_and_action(row, action):
    vec = cardenvs.make_vector(ENV_ID, num_envs=3, seed=0)
    _, mask, _ = vec.reset()
    actions = pick(mask, np.random.default_rng(0))
    actions[row] = action
    with pytest.raises(ValueError) as e:
        vec.step(actions)
    msg = str(e.value)
    assert f"row {row}" in msg and str(action) in msg


@pytest.mark.parametrize("validate", [True, False])
def test_vector__out_of_range_action_raises_even_without_validation(validate):
    vec = cardenvs.make_vector(ENV_ID, num_envs=2, seed=0, validate=validate)
    vec.reset()
    with pytest.raises(ValueError, match="row 1"):
        vec.step(np.array([0, NUM_ACTIONS]))


def test_vector__illegal_action_names_row_and_action_and_changes_nothing():
    n = 3
    vec = cardenvs.make_vector(ENV_ID, num_envs=n, seed=20)
    _, mask, _ = vec.reset()
    before = [vec.observe(s) for s in (0, 1)]
    mask_before = mask.copy()
    actions = pick(mask, np.random.default_rng(0))
    bad = first_illegal(mask[2])
    actions[2] = bad
    with pytest.raises(ValueError) as e:
        vec.step(actions)
    msg = str(e.value)
    assert "row 2" in msg and str(bad) in msg and vec.action_name(bad) in msg
    # no row moved, and the engine goes on exactly like an untouched one
    assert np.array_equal(vec.action_mask, mask_before)
    for s in (0, 1):
        assert np.array_equal(vec.observe(s), before[s])
    ref = cardenvs.make_vector(ENV_ID, num_envs=n, seed=20)
    ref.reset()
    g1, g2 = np.random.default_rng(5), np.random.default_rng(5)
    m1 = m2 = mask_before
    for _ in range(50):
        o1, m1, *_ = vec.step(pick(m1, g1))
        o2, m2, *_ = ref.step(pick(m2, g2))
        assert np.array_equal(o1, o2) and np.array_equal(m1, m2)


def test_vector__finished_row_without_autoreset_rejects_actions():
    vec = cardenvs.make_vector(ENV_ID, num_envs=1, seed=3, autoreset=False, episode="deal")
    _, mask, _ = vec.reset()
    pick_ = RandomLegal(seed=0)
    for _ in range(500):
        _, mask, rewards, terminated, _, _ = vec.step(pick_(mask).copy())
        if terminated[0]:
            break
    assert terminated[0]
    assert rewards[0].sum() == 0 and np.abs(rewards[0]).sum() in (0.0, 2.0)
    with pytest.raises(ValueError, match="row 0"):
        vec.step(np.array([0]))


def test_vector__illegal_action_without_validation_leaves_row_unchanged():
    n, seed = 2, 30
    vec = cardenvs.make_vector(ENV_ID, num_envs=n, seed=seed, validate=False)
    obs, mask, _ = vec.reset()
    ref = cardenvs.make_vector(ENV_ID, num_envs=1, seed=seed + 1)  # row 1 on its own
    ref_obs, ref_mask, _ = ref.reset()
    g = np.random.default_rng(4)
    # advance both a little so the illegal action hits a row in play
    for _ in range(5):
        actions = pick(mask, g)
        obs, mask, *_ = vec.step(actions)
        ref_obs, ref_mask, *_ = ref.step(actions[1:])
    before = [vec.observe(s)[1].copy() for s in (0, 1)]
    row1_obs, row1_mask = obs[1].copy(), mask[1].copy()
    row0_obs = obs[0].copy()
    actions = pick(mask, g)
    actions[1] = first_illegal(mask[1])
    obs, mask, rewards, terminated, _, _ = vec.step(actions)
    assert not np.array_equal(obs[0], row0_obs)  # row 0 moved on
    assert np.array_equal(obs[1], row1_obs)
    assert np.array_equal(mask[1], row1_mask)
    assert rewards[1].tolist() == [0.0, 0.0] and not terminated[1]
    for s in (0, 1):
        assert np.array_equal(vec.observe(s)[1], before[s])
    # row 1 goes on exactly like the same game played without the illegal action
    for _ in range(200):
        actions = pick(mask, g)
        obs, mask, rewards, *_ = vec.step(actions)
        ref_obs, ref_mask, ref_rewards, *_ = ref.step(actions[1:])
        assert np.array_equal(obs[1], ref_obs[0])
        assert np.array_equal(mask[1], ref_mask[0])
        assert np.array_equal(rewards[1], ref_rewards[0])


def test_vector__step_before_reset_raises():
    vec = cardenvs.make_vector(ENV_ID, num_envs=2, seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        vec.step(np.zeros(2, np.int64))


@pytest.mark.parametrize("num_envs", [0, -1, 1.5, True, "2"])
def test_vector__bad_num_envs_raises(num_envs):
    with pytest.raises(ValueError, match="num_envs"):
        cardenvs.make_vector(ENV_ID, num_envs=num_envs, seed=0)


@pytest.mark.parametrize("seed", [-1, 1.5, "x"])
def test_vector__bad_seed_raises(seed):
    with pytest.raises(ValueError, match="seed"):
        vec = cardenvs.make_vector(ENV_ID, num_envs=2, seed=seed)
        vec.reset()


def test_vector__bad_reset_options_raise():
    vec = cardenvs.make_vector(ENV_ID, num_envs=2, seed=0)
    with pytest.raises(ValueError, match="'shuffle'"):
        vec.reset(options={"shuffle": True})
    with pytest.raises(ValueError, match="dealer"):
        vec.reset(options={"dealer": [0, 2]})
    with pytest.raises(ValueError, match="'2S'"):
        vec.reset(options={"deck": ["2S"] * 32})


def test_vector__per_row_deck_and_dealer_options():
    strings = [f"{r}{s}" for s in "SHDC" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]
    decks = [list(np.random.default_rng(i).permutation(strings)) for i in range(2)]
    vec = cardenvs.make_vector(ENV_ID, num_envs=2, seed=0)
    _, mask, info = vec.reset(options={"deck": decks, "dealer": [0, 1]})
    # elder (the non-dealer) acts first and may discard any of the first twelve cards
    assert info["current_player"].tolist() == [1, 0]
    for b in range(2):
        legal = {vec.action_name(a) for a in np.flatnonzero(mask[b])}
        assert legal == {f"discard {c}" for c in decks[b][:12]}


# --- observe, spaces, RandomLegal ----------------------------------------------------------------
def test_vector__observe_shapes_and_seat_selection():
    n = 3
    vec = cardenvs.make_vector(ENV_ID, num_envs=n, seed=11)
    obs, _, info = vec.reset()
    v0, v1 = vec.observe(0), vec.observe(1)
    assert v0.shape == (n, vec.obs_dim) and v0.dtype == np.float32
    mixed = vec.observe([0, 1, 0])
    assert mixed.shape == (n, vec.obs_dim)
    assert np.array_equal(mixed[0], v0[0])
    assert np.array_equal(mixed[1], v1[1])
    assert np.array_equal(mixed[2], v0[2])
    assert not np.array_equal(v0, v1)
    # the returned observation is the one of the seat to act
    assert np.array_equal(vec.observe(info["current_player"]), obs)
    # a new array each time, not the engine's buffer
    v0[:] = -1
    assert not np.array_equal(vec.observe(0), v0)
    with pytest.raises(ValueError, match="seats"):
        vec.observe(2)
    with pytest.raises(ValueError, match="seats"):
        vec.observe([0, 1, -1])


def test_vector__observations_inside_space():
    vec = cardenvs.make_vector(ENV_ID, num_envs=4, seed=12)
    obs, mask, _ = vec.reset()
    space = vec.single_observation_space
    assert vec.single_action_space.n == NUM_ACTIONS
    pick_ = RandomLegal(seed=3)
    for _ in range(300):
        for b in range(4):
            assert space.contains(obs[b])
        obs, mask, *_ = vec.step(pick_(mask))


def test_vector__repr_is_informative():
    vec = cardenvs.make_vector(ENV_ID, num_envs=3, seed=4, episode="deal")
    vec.reset()
    text = repr(vec)
    assert "num_envs=3" in text and "seed=4" in text and "episode='deal'" in text


def test_vector__random_legal_picks_legal_actions_only():
    vec = cardenvs.make_vector(ENV_ID, num_envs=8, seed=13)
    _, mask, _ = vec.reset()
    pick_ = RandomLegal(seed=0)
    for _ in range(300):
        actions = pick_(mask)
        assert actions.shape == (8,)
        assert (mask[np.arange(8), actions] == 1).all()
        _, mask, *_ = vec.step(actions)


def test_vector__random_legal_is_seeded_uniformish_and_flags_empty_rows():
    mask = np.zeros((3, NUM_ACTIONS), np.int8)
    mask[0, [3, 10, 64]] = 1
    mask[2, 5] = 1
    a, b, c = RandomLegal(seed=4), RandomLegal(seed=4), RandomLegal(seed=5)
    seen = []
    seq_a, seq_c = [], []
    for _ in range(300):
        x = a(mask).copy()
        assert np.array_equal(x, b(mask))
        seq_a.append(int(x[0]))
        seq_c.append(int(c(mask)[0]))
        assert x[1] == -1 and x[2] == 5
        seen.append(int(x[0]))
    counts = {k: seen.count(k) for k in (3, 10, 64)}
    assert set(seen) == {3, 10, 64}
    assert min(counts.values()) > 60
    assert seq_a != seq_c


def test_vector__bad_reset_changes_nothing():
    vec = cardenvs.make_vector(ENV_ID, num_envs=2, seed=5)
    obs, _, _ = vec.reset()
    before = obs.copy()
    with pytest.raises(ValueError, match="options\\['deck'\\]"):
        vec.reset(seed=9, options={"deck": ["AS"]})
    assert vec.seed == 5
    np.testing.assert_array_equal(vec.observe(vec.current_player), before)


def test_vector__reset_rows_restarts_only_those_rows_like_autoreset():
    a = cardenvs.make_vector("piquet-v0", 3, seed=8, autoreset=False)
    b = cardenvs.make_vector("piquet-v0", 3, seed=8, autoreset=False)
    a.reset()
    b.reset()
    rng = np.random.default_rng(0)
    for _ in range(5):
        acts = pick(a.action_mask, rng)
        a.step(acts)
        b.step(acts)
    before = [x.copy() for x in a.state]
    a.reset_rows([1])
    for x, y in zip(before, a.state, strict=True):
        assert np.array_equal(x[[0, 2]], y[[0, 2]])
    fresh = cardenvs.make_vector("piquet-v0", 3, seed=8)
    fresh.reset()
    fresh.reset()  # the next episode of every row, as autoreset would start it
    assert np.array_equal(a.state.f[1], fresh.state.f[1])
    with pytest.raises(ValueError, match="rows must be in 0..2"):
        a.reset_rows([3])
    with pytest.raises(RuntimeError, match="reset"):
        cardenvs.make_vector("piquet-v0", 2).reset_rows([0])


# --- big batches: the observation pass prefetches rows ahead -----------------------------------
@pytest.mark.parametrize("env_id", sorted(cardenvs.GAMES))
def test_vector__big_batch_observations_equal_a_fresh_observe(env_id):
    """Above ``PREFETCH_MIN_BYTES`` of observations the step's observation pass issues prefetch
    hints; every row still holds exactly the current seat's observation (recomputed by
    ``observe``, which issues none)."""
    from cardenvs.core.prefetch import PREFETCH_MIN_BYTES

    probe = cardenvs.make_vector(env_id, num_envs=1, seed=0)
    n = PREFETCH_MIN_BYTES // (4 * probe.obs_dim) + 40  # just above the threshold
    venv = cardenvs.make_vector(env_id, num_envs=n, seed=3)
    obs, mask, _ = venv.reset()
    assert obs.nbytes >= PREFETCH_MIN_BYTES
    policy = RandomLegal(5)
    for _ in range(25):
        obs, mask, *_ = venv.step(policy(mask))
        seats = np.maximum(venv.current_player, 0)
        assert np.array_equal(obs, venv.observe(seats))


def test_prefetch__hint_changes_no_value():
    from numba import njit

    from cardenvs.core.prefetch import PREFETCH_ROWS, prefetch_ahead

    @njit
    def touch_all(out):
        for b in range(out.shape[0]):
            prefetch_ahead(out, b)

    big = np.arange(2 * (1 << 20), dtype=np.float32).reshape(-1, 512)  # 8 MiB: hints issued
    before = big.copy()
    touch_all(big)
    assert np.array_equal(big, before) and big.shape[0] > PREFETCH_ROWS
    small = np.ones((3, 5), np.float32)
    touch_all(small)
    assert (small == 1).all()


def test_borrowed__views_the_same_memory_with_the_same_shape_and_strides():
    """``borrowed`` (the step's arrays without numba's reference counting) is a view: writes go
    through to the caller's array, and shape and strides are kept, for strided views too."""
    from numba import njit

    from cardenvs.core.step_args import borrowed, borrowed_step

    @njit
    def write_through(a, value):
        view = borrowed(a)
        for idx in np.ndindex(view.shape):
            view[idx] = value
        return view.shape, view.strides

    for arr in (
        np.zeros(7, np.int8),
        np.zeros((4, 9), np.float32),
        np.zeros((6, 10), np.uint64)[::2, 1::3],  # a strided (non-contiguous) view
    ):
        shape, strides = write_through(arr, 3)
        assert (shape, strides) == (arr.shape, arr.strides)
        assert (arr == 3).all()

    @njit
    def step_args_through(s, cfg, obs, mask, rewards):
        s2, cfg2, obs2, mask2, rewards2 = borrowed_step(s, cfg, obs, mask, rewards)
        s2.m[1, 0] = 5
        s2.v[1, 1] = -6
        s2.f[0, 2] = 7
        cfg2[0] = 8
        obs2[1, 3] = 0.5
        mask2[0, 1] = 1
        rewards2[1, 0] = -1.0

    venv = cardenvs.make_vector("esel-v0", 2, seed=0)
    venv.reset()
    s, cfg = venv.state, venv._cfg.copy()
    args = (venv._obs.copy(), venv._mask.copy(), venv._rewards.copy())
    step_args_through(s, cfg, *args)
    obs, mask, rewards = args
    assert (s.m[1, 0], s.v[1, 1], s.f[0, 2], cfg[0]) == (5, -6, 7, 8)
    assert (obs[1, 3], mask[0, 1], rewards[1, 0]) == (0.5, 1, -1.0)


def test_fixed_config__reads_the_array_with_one_item_a_checked_constant():
    """``fixed_config``: the config vector as a tuple, the same values, item ``index`` the
    constant it was compiled with; a config with another value there, or another length, is
    refused."""
    from numba import njit

    from cardenvs.core.step_args import fixed_config

    @njit
    def as_tuple(cfg):
        return fixed_config(cfg, 5, 2, 7)

    cfg = np.array([4, -1, 7, 2**40, 0], np.int64)
    assert as_tuple(cfg) == (4, -1, 7, 2**40, 0)
    assert as_tuple(cfg[::-1][::-1]) == (4, -1, 7, 2**40, 0)
    with pytest.raises(ValueError, match="another value"):
        as_tuple(np.array([4, -1, 6, 0, 0], np.int64))
    with pytest.raises(ValueError, match="wrong length"):
        as_tuple(np.array([4, -1, 7, 0], np.int64))


@pytest.mark.parametrize(
    "env_id, values",
    [("banque-v0", [2, 3, 4]), ("four_aces-v0", [3, 4, 5])],
)
def test_step_kernels__one_per_player_count_and_each_refuses_another_count(env_id, values):
    """Banque and Four Aces step through a kernel compiled for the config's number of players
    (``StepKernels``); the engine keeps the one of its config, and a kernel handed a config of
    another count raises instead of playing it with the wrong seats."""
    from cardenvs.core.game import StepKernels

    game = cardenvs.game_info(env_id)
    assert isinstance(game.step_for, StepKernels) and sorted(game.step_for.kernels) == values
    assert "num_players" in repr(game.step_for)
    for p in values:
        v = cardenvs.make_vector(env_id, 3, seed=1, num_players=p)
        assert v._step_rows is game.step_for.kernels[p] is game.step_kernel(v._cfg)
    other = cardenvs.make_vector(env_id, 3, seed=1, num_players=values[0])
    other.reset(seed=2)
    actions = np.zeros(3, np.int64)
    args = (actions, True, other._obs, other._mask, other._rewards, other._terminated)
    with pytest.raises(ValueError, match="another value"):
        game.step_for.kernels[values[1]](other.state, other._cfg, *args)
    bad = other._cfg.copy()
    bad[game.step_for.index] = 9
    with pytest.raises(ValueError, match=r"num_players = 9; allowed: \[" + str(values[0])):
        game.step_for(bad)
    # step_rows (for callers that keep no kernel) goes through the kernel of the config
    before = [f.copy() for f in other.state]
    legal = RandomLegal(0)(other._mask)
    game.step_rows(other.state, other._cfg, legal, True, *args[2:])
    assert any((a != b).any() for a, b in zip(before, other.state, strict=True))


def test_multi_step_kernels__each_variant_refuses_the_other_config():
    """Piquet normand and partnership each step through a kernel of their own, with the
    variant's mode, seat count and hand size constants in it; each refuses the other's
    config."""
    from cardenvs.games.piquet.multi import kernels as multi_kernels
    from cardenvs.games.piquet.multi.constants import MODE_NORMAND, MODE_PARTNERSHIP

    normand = cardenvs.make_vector("piquet_normand-v0", 2, seed=0)
    partners = cardenvs.make_vector("partnership_piquet-v0", 2, seed=0)
    for_normand = multi_kernels.step_for.kernels[MODE_NORMAND]
    for_partners = multi_kernels.step_for.kernels[MODE_PARTNERSHIP]
    assert normand._step_rows is for_normand and partners._step_rows is for_partners
    normand.reset()
    args = (np.zeros(2, np.int64), True, normand._obs, normand._mask)
    args += (normand._rewards, normand._terminated)
    with pytest.raises(ValueError, match="normand config"):
        for_normand(normand.state, partners._cfg, *args)
    with pytest.raises(ValueError, match="partnership Piquet config"):
        for_partners(normand.state, normand._cfg, *args)


@pytest.mark.parametrize("env_id", cardenvs.GAMES)
def test_vector__sides_partition_the_seats_and_partners_share_rewards(env_id):
    venv = cardenvs.make_vector(env_id, 64, seed=5, episode="deal")
    seats = sorted(p for side in venv.sides for p in side)
    assert seats == list(range(venv.num_seats))
    expected = ((0, 2), (1, 3)) if env_id == "partnership_piquet-v0" else None
    assert venv.sides == (expected or tuple((p,) for p in range(venv.num_seats)))
    aec = cardenvs.make(env_id).unwrapped
    assert aec.sides == tuple(tuple(f"player_{p}" for p in side) for side in venv.sides)
    obs, mask, _ = venv.reset()
    policy, ended = RandomLegal(1), 0
    while ended < 64:
        obs, mask, rewards, terminated, _, _ = venv.step(policy(mask))
        for side in venv.sides:
            assert (rewards[:, list(side)] == rewards[:, [side[0]]]).all()
        ended += int(terminated.sum())
