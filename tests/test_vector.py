"""The batched engine beyond its contract (``test_contract_vector.py``: rows equal the AEC env
bit for bit, autoreset, independence, seeds, bad input, for every id): ``RandomLegal``, the
prefetching observation pass of big batches, borrowed views, configs compiled into kernels, the
step kernel of each seat count, and the sides of partners."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs.core.vector import RandomLegal

NUM_ACTIONS = 88


# --- RandomLegal ---------------------------------------------------------------------------------
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
