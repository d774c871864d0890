"""Counter-based randomness: every random draw is a pure function of (key, stream, index).

A row's deals derive from its key (a hash of the seed), the episode index and the deal number,
so the deals never depend on the actions taken, a vector row and a single env given the same
seed play the identical game, and no kernel touches a global RNG.

``stream`` packs the episode above the deal number into 64 bits (``episode << 20``), so only an
episode's low ``EPISODE_BITS`` (44) bits count: episode ``2**44`` would deal episode 0's game.
Episodes are therefore bounded to ``0..MAX_EPISODE`` (``2**44 - 1``) where a user gives one: the
AEC env's ``reset(options={"episode": k})`` (and its next episode after a ``reset()`` without a
seed) and a record's ``episode``. The packing itself is kept, so every existing seed and episode
deals as before.
"""

from __future__ import annotations

import secrets

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_C1 = np.uint64(0xBF58476D1CE4E5B9)
_C2 = np.uint64(0x94D049BB133111EB)
MAX_SEED = 2**63 - 1
EPISODE_BITS = 44  # the bits of an episode index that ``stream`` keeps (64 - 20 for the deal)
MAX_EPISODE = 2**EPISODE_BITS - 1  # the largest episode index that deals its own games


@njit(cache=True, forceinline=True)
def mix64(x):
    """splitmix64 finaliser: a bijective 64-bit hash."""
    z = np.uint64(x) + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _C1
    z = (z ^ (z >> np.uint64(27))) * _C2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream(key, episode, deal):
    """The base counter of the random stream for one deal of one episode."""
    return mix64(key ^ mix64((np.uint64(episode) << np.uint64(20)) ^ np.uint64(deal)))


@njit(cache=True, forceinline=True)
def draw(base, i, n):
    """The ``i``-th uniform integer in ``[0, n)`` of the stream ``base``."""
    r = mix64(base + np.uint64(i)) >> np.uint64(32)
    return np.int64((r * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def shuffle(base, out):
    """Fisher-Yates shuffle of ``out`` in place with the stream ``base``."""
    n = out.shape[0]
    for i in range(n - 1, 0, -1):
        j = draw(base, i, i + 1)
        t = out[i]
        out[i] = out[j]
        out[j] = t


def key_from_seed(seed: int) -> np.uint64:
    """The row key for an integer seed."""
    return np.uint64(mix64(np.uint64(seed)))


def check_seed(seed, rows: int = 1) -> int:
    """Validate a user seed (``None`` draws a fresh one from the OS).

    Every seed is in ``0..MAX_SEED``. A batched engine of ``rows`` rows seeds row ``b`` with
    ``seed + b``, so for it every row seed must be one a single env accepts: ``seed`` must be in
    ``0..MAX_SEED - rows + 1`` (``None`` draws one there), else ``ValueError`` names that bound.
    """
    top = MAX_SEED - (rows - 1)  # the largest seed whose rows' seeds are all at most MAX_SEED
    if seed is None:
        return secrets.randbelow(top)
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be an int in 0..{top} or None, got {seed!r}")
    if not 0 <= int(seed) <= top:
        if rows == 1:
            raise ValueError(f"seed must be in 0..{MAX_SEED}, got {seed}")
        raise ValueError(
            f"seed must be in 0..{top} for {rows} rows (row b is seeded with seed + b, and a "
            f"seed is at most {MAX_SEED}), got {seed}"
        )
    return int(seed)


def check_row_seeds(seeds, rows: int) -> tuple[int, ...]:
    """Validate one seed per row of a batched engine (a 1-D sequence of ``rows`` ints, each in
    ``0..MAX_SEED``; seeds may repeat: rows with one seed deal the same cards), else
    ``ValueError`` naming what is wrong."""
    try:
        arr = np.asarray(seeds, dtype=object)
    except Exception:  # noqa: BLE001 - any unreadable sequence is a bad seed
        arr = None
    if arr is None or arr.ndim != 1 or arr.shape[0] != rows:
        shape = None if arr is None else arr.shape
        raise ValueError(
            f"seed as a sequence must hold one int per row ({rows}), got shape {shape}"
        )
    out = []
    for b, x in enumerate(arr):
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
            raise ValueError(f"seed[{b}] must be an int in 0..{MAX_SEED}, got {x!r}")
        if not 0 <= int(x) <= MAX_SEED:
            raise ValueError(f"seed[{b}] must be in 0..{MAX_SEED}, got {x}")
        out.append(int(x))
    return tuple(out)
