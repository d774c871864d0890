"""The contract of every id's batched engine (``cardenvs.make_vector``; docs/testing.md, layer 6),
written once and run on every id and its main configs (``contract_cases``): rows equal their
twin AEC envs bit for bit; autoreset; rows independent; seeds; reset options per row; bad
actions name the row and change nothing; observation and action spaces; copies; read-only
outputs. ``pytest -k <id>`` (or ``-k piquet``) selects one game's cases."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from contract_cases import (
    AUTORESET_CASES,
    EVERY_SEAT_EVERY,
    ID_PARAMS,
    SCRATCH_FIELDS,
    SEAT_CASES,
    VECTOR_CASES,
    ZERO_SUM_TOL,
)
from harness import (
    aec_envs,
    assert_engines_play_alike,
    assert_row_matches_env,
    check_autoreset,
    check_out_of_range_action,
    check_vector_rows_equal_aec,
    choose,
    differing_fields,
)

import cardenvs
from cardenvs.core.vector import RandomLegal


def states_equal(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def row_state(vec, b: int) -> list[np.ndarray]:
    return [x[b].copy() for x in vec.state]


def views(vec) -> list[np.ndarray]:
    """Every seat's observation of every row."""
    return [vec.observe(s).copy() for s in range(vec.num_seats)]


# --- the batched engine equals the AEC env -------------------------------------------------------
@pytest.mark.parametrize(("env_id", "config", "n", "seed"), VECTOR_CASES)
def test_contract__vector_rows_equal_aec_envs_bit_for_bit(env_id, config, n, seed):
    check_vector_rows_equal_aec(
        env_id,
        config,
        n=n,
        seed=seed,
        max_steps=50_000,
        every=EVERY_SEAT_EVERY.get(env_id, 7),
        zero_sum_tol=ZERO_SUM_TOL.get(env_id, 0.0),
    )


@pytest.mark.parametrize(("env_id", "config", "n", "seed", "max_steps"), AUTORESET_CASES)
def test_contract__autoreset_reports_the_end_then_the_next_episode(
    env_id, config, n, seed, max_steps
):
    check_autoreset(
        env_id,
        config,
        n=n,
        seed=seed,
        max_steps=max_steps,
        zero_sum_tol=ZERO_SUM_TOL.get(env_id, 0.0),
        scratch=SCRATCH_FIELDS.get(env_id, ()),
    )


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__autoreset_mask_is_never_empty_and_rewards_come_at_the_end(env_id):
    vec = cardenvs.make_vector(env_id, num_envs=8, seed=1, episode="deal")
    _, mask, _ = vec.reset()
    pick, ends = RandomLegal(seed=2), 0
    tol = ZERO_SUM_TOL.get(env_id, 0.0)
    for _ in range(400):
        assert (mask.sum(axis=1) > 0).all()
        _, mask, rewards, terminated, truncated, _ = vec.step(pick(mask))
        assert not truncated.any()
        ends += int(terminated.sum())
        assert (rewards[~terminated] == 0).all()
        assert (np.abs(rewards.sum(axis=1)) <= tol).all()
    assert ends > 0


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__a_finished_row_without_autoreset_rejects_actions(env_id):
    vec = cardenvs.make_vector(env_id, num_envs=1, seed=3, autoreset=False, episode="deal")
    _, mask, _ = vec.reset()
    pick = RandomLegal(seed=0)
    for _ in range(5000):
        _, mask, rewards, terminated, _, _ = vec.step(pick(mask).copy())
        if terminated[0]:
            break
    assert terminated[0] and mask[0].sum() == 0
    assert abs(rewards[0].sum()) <= ZERO_SUM_TOL.get(env_id, 0.0)
    with pytest.raises(ValueError, match="row 0"):
        vec.step(np.array([0]))


# --- rows and seeds ------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__rows_are_independent(env_id):
    n = 3
    a = cardenvs.make_vector(env_id, num_envs=n, seed=5)
    b = cardenvs.make_vector(env_id, num_envs=n, seed=5)
    obs_a, mask_a, _ = a.reset()
    obs_b, mask_b, _ = b.reset()
    g = np.random.default_rng(2)
    row0_differs = False
    for _ in range(300):
        act_a = choose(mask_a, g)
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
    for r in range(1, n):
        assert states_equal(row_state(a, r), row_state(b, r))


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__same_seed_same_trajectories_across_autoresets(env_id):
    n = 4
    engines = [cardenvs.make_vector(env_id, num_envs=n, seed=7, episode="deal") for _ in range(2)]
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
    assert states_equal(engines[0].state, engines[1].state)


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__row_b_of_seed_s_is_row_0_of_seed_s_plus_b(env_id):
    a = cardenvs.make_vector(env_id, num_envs=3, seed=7)
    b = cardenvs.make_vector(env_id, num_envs=3, seed=8)
    obs_a, *_ = a.reset()
    obs_b, *_ = b.reset()
    assert not states_equal(row_state(a, 0), row_state(b, 0))
    assert not states_equal(row_state(a, 0), row_state(a, 1))
    for r in (1, 2):
        assert states_equal(row_state(a, r), row_state(b, r - 1))
        assert np.array_equal(obs_a[r], obs_b[r - 1])


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__reset_with_the_seed_restarts_and_without_it_continues(env_id):
    vec = cardenvs.make_vector(env_id, num_envs=3, seed=9)
    first_obs, *_ = vec.reset()
    first = [x.copy() for x in vec.state]
    first_obs = first_obs.copy()
    again, *_ = vec.reset(seed=9)
    assert states_equal(first, vec.state) and np.array_equal(first_obs, again)
    vec.reset()
    assert not states_equal(first, vec.state)
    assert vec.seed == 9


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__reset_rows_restarts_only_those_rows_like_autoreset(env_id):
    a = cardenvs.make_vector(env_id, 3, seed=8, autoreset=False)
    a.reset()
    rng = np.random.default_rng(0)
    for _ in range(5):
        a.step(choose(a.action_mask, rng))
    before = [x.copy() for x in a.state]
    a.reset_rows([1])
    for x, y in zip(before, a.state, strict=True):
        assert np.array_equal(x[[0, 2]], y[[0, 2]])
    fresh = cardenvs.make_vector(env_id, 3, seed=8)
    fresh.reset()
    fresh.reset()  # the next episode of every row, as autoreset would start it
    scratch = SCRATCH_FIELDS.get(env_id, ())
    assert not differing_fields(a.game.layout, a.state, 1, fresh.state, 1, scratch)
    assert np.array_equal(a.observe(a.current_player)[1], fresh.observe(fresh.current_player)[1])
    with pytest.raises(ValueError, match="rows must be in 0..2"):
        a.reset_rows([3])
    with pytest.raises(RuntimeError, match="reset"):
        cardenvs.make_vector(env_id, 2).reset_rows([0])


@pytest.mark.parametrize(("env_id", "config"), SEAT_CASES)
def test_contract__per_row_deck_and_dealer_options_deal_like_the_aec_env(env_id, config):
    """Each row starts from its own deck and dealer, exactly as an AEC env reset with the same
    seed and options (state, observation, mask and seat to act)."""
    n, seed = 3, 0
    probe = cardenvs.make(env_id, **config)
    p = len(probe.possible_agents)
    decks = []
    for i in range(n):
        probe.reset(seed=50 + i)
        deck = probe.unwrapped.record()["deals"][0]["deck"]
        decks.append([c for c in deck if c != "JK"] + [c for c in deck if c == "JK"])
    dealers = [(b + 1) % p for b in range(n)]
    vec = cardenvs.make_vector(env_id, num_envs=n, seed=seed, **config)
    obs, mask, info = vec.reset(options={"deck": decks, "dealer": dealers})
    envs = [cardenvs.make(env_id, **config) for _ in range(n)]
    for b, env in enumerate(envs):
        env.reset(seed=seed + b, options={"deck": decks[b], "dealer": dealers[b]})
        rec = env.unwrapped.record()["deals"][0]
        assert rec["deck"] == decks[b] and rec["dealer"] == dealers[b]
        assert_row_matches_env(env, vec, b, obs[b], mask[b], info["current_player"][b])
    # one deck for every row
    obs, mask, info = vec.reset(seed=seed, options={"deck": decks[0], "dealer": 0})
    for b, env in enumerate(envs):
        env.reset(seed=seed + b, options={"deck": decks[0], "dealer": 0})
        assert_row_matches_env(env, vec, b, obs[b], mask[b], info["current_player"][b])
    with pytest.raises(ValueError, match="dealer"):
        vec.reset(options={"dealer": [0, 1, p]})
    with pytest.raises(ValueError, match="unknown reset option"):
        vec.reset(options={"decks": decks})


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__a_refused_reset_changes_nothing(env_id):
    vec = cardenvs.make_vector(env_id, num_envs=2, seed=5)
    obs, _, _ = vec.reset()
    before, state = obs.copy(), [x.copy() for x in vec.state]
    with pytest.raises(ValueError, match="options\\['deck'\\]"):
        vec.reset(seed=9, options={"deck": ["AS"]})
    assert vec.seed == 5 and states_equal(state, vec.state)
    np.testing.assert_array_equal(vec.observe(vec.current_player), before)


# --- bad actions and arguments -------------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "config"), SEAT_CASES)
def test_contract__out_of_range_actions_name_the_row_and_the_action(env_id, config):
    n = cardenvs.game_info(env_id).num_actions
    for row, action in ((0, n), (2, 999), (1, -1)):
        check_out_of_range_action(env_id, row, action, **config)
    for validate in (True, False):
        vec = cardenvs.make_vector(env_id, num_envs=2, seed=0, validate=validate, **config)
        _, mask, _ = vec.reset()
        actions = choose(mask, np.random.default_rng(0))
        actions[1] = n
        with pytest.raises(ValueError, match="row 1"):
            vec.step(actions)


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__bad_actions_arguments_and_seeds_raise(env_id):
    vec = cardenvs.make_vector(env_id, num_envs=3, seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        vec.step(np.zeros(3, np.int64))
    vec.reset()
    for actions in (
        np.zeros(4, np.int64),
        np.zeros((3, 1), np.int64),
        np.int64(0),
        np.zeros(3, np.float64),
        np.zeros(3, np.bool_),
        ["a", "b", "c"],
    ):
        with pytest.raises(ValueError, match=r"shape \(3,\)"):
            vec.step(actions)
    for num_envs in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="num_envs"):
            cardenvs.make_vector(env_id, num_envs=num_envs, seed=0)
    for seed in (-1, 1.5, "x"):
        with pytest.raises(ValueError, match="seed"):
            cardenvs.make_vector(env_id, num_envs=2, seed=seed).reset()


@pytest.mark.parametrize(("env_id", "config"), SEAT_CASES)
def test_contract__illegal_actions_name_the_row_and_the_action_and_change_nothing(env_id, config):
    """Every action row 2 may not take, at the start, after one step and after nine: the error
    names the row, the action and its name; no row moves, and the engine then plays on exactly
    like one that never saw the illegal actions."""
    n, p = 3, None
    vec = cardenvs.make_vector(env_id, num_envs=n, seed=20, **config)
    ref = cardenvs.make_vector(env_id, num_envs=n, seed=20, **config)
    _, mask, _ = vec.reset()
    ref.reset()
    p = vec.num_seats
    g = np.random.default_rng(1)
    for steps in (0, 1, 8):
        for _ in range(steps):
            actions = choose(mask, g)
            _, mask, *_ = vec.step(actions)
            ref.step(actions)
        before, mask_before = views(vec), mask.copy()
        state_before = copy.deepcopy(vec.state)
        legal = choose(mask, g)
        for bad in np.flatnonzero(mask[2] == 0).tolist():
            actions = legal.copy()
            actions[2] = bad
            with pytest.raises(ValueError) as e:
                vec.step(actions)
            assert f"row 2: action {bad} ({vec.action_name(bad)!r}) is not legal" in str(e.value)
        assert np.array_equal(vec.action_mask, mask_before)
        assert states_equal(vec.state, state_before)
        for s in range(p):
            assert np.array_equal(vec.observe(s), before[s])
    g1, g2 = np.random.default_rng(5), np.random.default_rng(5)
    m1, m2 = mask, ref.action_mask
    for _ in range(50):
        o1, m1, *_ = vec.step(choose(m1, g1))
        o2, m2, *_ = ref.step(choose(m2, g2))
        assert np.array_equal(o1, o2) and np.array_equal(m1, m2)


@pytest.mark.parametrize(("env_id", "config"), SEAT_CASES)
def test_contract__an_illegal_action_without_validation_leaves_its_row_unchanged(env_id, config):
    """``validate=False``: an illegal action is a no-op for its row (state, every seat's view, no
    reward), the other rows step, and the row then plays on like the same game never given it."""
    vec = cardenvs.make_vector(env_id, num_envs=2, seed=30, validate=False, **config)
    ref = cardenvs.make_vector(env_id, num_envs=1, seed=31, **config)  # row 1 on its own
    obs, mask, _ = vec.reset()
    ref.reset()
    p = vec.num_seats
    g = np.random.default_rng(4)
    for _ in range(12):  # into the game
        actions = choose(mask, g)
        obs, mask, *_ = vec.step(actions)
        ref.step(actions[1:])
    row1, before = row_state(vec, 1), [v[1] for v in views(vec)]
    row0 = row_state(vec, 0)
    actions = choose(mask, g)
    actions[1] = int(np.flatnonzero(mask[1] == 0)[0])
    obs, mask, rewards, terminated, _, _ = vec.step(actions)
    assert not states_equal(row0, row_state(vec, 0))  # row 0 moved on
    assert states_equal(row1, row_state(vec, 1))
    assert rewards[1].tolist() == [0.0] * p and not terminated[1]
    for s in range(p):
        assert np.array_equal(vec.observe(s)[1], before[s])
    for _ in range(200):
        actions = choose(mask, g)
        obs, mask, rewards, *_ = vec.step(actions)
        ref_obs, ref_mask, ref_rewards, *_ = ref.step(actions[1:])
        assert np.array_equal(obs[1], ref_obs[0]) and np.array_equal(mask[1], ref_mask[0])
        assert np.array_equal(rewards[1], ref_rewards[0])


# --- observations and spaces ---------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__observe_any_seat_of_every_row(env_id):
    n = 3
    vec = cardenvs.make_vector(env_id, num_envs=n, seed=11)
    obs, _, info = vec.reset()
    p = vec.num_seats
    v = views(vec)
    for view in v:
        assert view.shape == (n, vec.obs_dim) and view.dtype == np.float32
    envs = aec_envs(env_id, 11, n)
    for b in range(n):
        for seat in range(p):
            assert np.array_equal(v[seat][b], envs[b].observe(f"player_{seat}")["observation"])
    seats = [b % p for b in range(n)]
    mixed = vec.observe(seats)
    for b in range(n):
        assert np.array_equal(mixed[b], v[seats[b]][b])
    # the returned observation is the one of the seat to act
    assert np.array_equal(vec.observe(info["current_player"]), obs)
    # a new array each time, not the engine's buffer
    v[0][:] = -1
    assert not np.array_equal(vec.observe(0), v[0])
    with pytest.raises(ValueError, match="seats"):
        vec.observe(p)
    with pytest.raises(ValueError, match="seats"):
        vec.observe([0, 1, -1])


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__observations_in_their_space_and_random_legal_picks_legal_actions(env_id):
    n = 4
    vec = cardenvs.make_vector(env_id, num_envs=n, seed=12)
    obs, mask, _ = vec.reset()
    space = vec.single_observation_space
    assert vec.single_action_space.n == cardenvs.game_info(env_id).num_actions
    assert obs.shape == (n, vec.obs_dim) and mask.shape == (n, vec.num_actions)
    pick = RandomLegal(seed=3)
    for t in range(300):
        for b in range(n):
            assert space.contains(obs[b])
        if t % 10 == 0:
            for view in views(vec):
                assert all(space.contains(x) for x in view)
        actions = pick(mask)
        assert actions.shape == (n,) and (mask[np.arange(n), actions] == 1).all()
        obs, mask, *_ = vec.step(actions)


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__outputs_the_caller_may_not_write_are_read_only(env_id):
    venv = cardenvs.make_vector(env_id, num_envs=3, seed=0)
    obs, mask, info = venv.reset()
    out = venv.step(RandomLegal(0)(mask))
    read_only = {
        "reset mask": mask,
        "reset current_player": info["current_player"],
        "step mask": out[1],
        "terminated": out[3],
        "truncated": out[4],
        "step current_player": out[5]["current_player"],
        "action_mask": venv.action_mask,
        "current_player": venv.current_player,
    }
    for name, a in read_only.items():
        assert not a.flags.writeable, name
        with pytest.raises(ValueError, match="read-only"):
            a[0] = 1
        with pytest.raises(ValueError):
            a.flags.writeable = True
    assert info["current_player"].dtype == np.int8
    # obs and rewards stay writable: the engine never reads them and rewrites every row
    assert obs.flags.writeable and out[2].flags.writeable


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__repr_names_the_rows_seed_and_config(env_id):
    vec = cardenvs.make_vector(env_id, num_envs=3, seed=4, episode="deal")
    vec.reset()
    text = repr(vec)
    assert "num_envs=3" in text and "seed=4" in text and "episode='deal'" in text


# --- copies --------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__engine_deep_copies_and_pickles_play_on_as_the_original(env_id):
    """A deep copy mid-game plays the same games and is independent of the original; a pickle
    before reset and mid-game plays on as the original; a shallow copy is refused."""
    venv = cardenvs.make_vector(env_id, num_envs=3, seed=21)
    with pytest.raises(TypeError, match="deepcopy"):
        copy.copy(venv)
    fresh = pickle.loads(pickle.dumps(venv))  # before reset: a seed, no state yet
    for x, y in zip(venv.reset(), fresh.reset(), strict=True):
        if isinstance(x, dict):
            x, y = x["current_player"], y["current_player"]
        assert np.array_equal(x, y)
    with pytest.raises(TypeError, match="deepcopy"):
        copy.copy(venv)
    pick = RandomLegal(5)
    for _ in range(40):
        venv.step(pick(venv.action_mask))
    before = [a.copy() for a in venv.state]
    clone = copy.deepcopy(venv)
    for _ in range(30):  # the copy plays; the original does not move
        clone.step(pick(clone.action_mask))
    assert states_equal(before, venv.state)
    clone = copy.deepcopy(venv)
    # the copy's field views are views of its own state, not of the original's
    assert np.shares_memory(clone._current, clone.state.f)
    assert not np.shares_memory(clone._current, venv.state.f)
    assert_engines_play_alike(venv, clone, steps=400)
    pickled = pickle.loads(pickle.dumps(venv))
    assert repr(pickled) == repr(venv)
    assert_engines_play_alike(venv, pickled, steps=200, seed=3)
