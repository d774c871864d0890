"""``core.entry_points``: a kernel's compiled entry point, looked up once, computes what the kernel
computes; the engines step through such entries with actions of any integer layout."""

from __future__ import annotations

import numpy as np
from numba import njit

import cardenvs
from cardenvs.core.entry_points import entry_for
from cardenvs.core.vector import RandomLegal


@njit
def _scaled_sum(x, k):
    return x.sum() * k


def test_direct__entry_computes_what_the_kernel_does_compiled_or_not_yet():
    x = np.arange(5.0)
    fresh = njit(_scaled_sum.py_func)  # no version compiled yet: entry_for compiles one
    entry = entry_for(fresh, (x, 3))
    assert entry is not fresh and entry(x, 3) == 30.0 == fresh(x, 3)
    assert len(fresh.overloads) == 1  # the dispatcher found the version entry_for compiled
    _scaled_sum(x, 2)
    assert entry_for(_scaled_sum, (x, 2))(x, 4) == 40.0


def test_direct__a_plain_python_function_is_its_own_entry():
    assert entry_for(_scaled_sum.py_func, (np.arange(3.0), 2)) is _scaled_sum.py_func


def test_direct__the_engine_steps_the_same_for_every_layout_of_the_actions():
    """``step`` makes the actions a C-contiguous int64 array, the type its compiled kernels are
    for: strided, Fortran-order, read-only, narrow, unsigned and byte-swapped actions play the
    same games as a plain int64 array."""
    n = 6

    def play(convert):
        venv = cardenvs.make_vector("four_aces-v0", num_envs=n, seed=3)
        pol = RandomLegal(seed=1)
        _, mask, _ = venv.reset()
        out = []
        for _ in range(40):
            a = pol(mask).copy()
            obs, mask, rew, term, *_ = venv.step(convert(a))
            out.append((obs.copy(), mask.copy(), rew.copy(), term.copy()))
        return out

    def strided(a):
        wide = np.zeros(2 * n, np.int64)
        wide[::2] = a
        return wide[::2]

    def readonly(a):
        a.flags.writeable = False
        return a

    want = play(lambda a: a)
    for convert in [
        strided,
        readonly,
        lambda a: a.astype(np.int16),
        lambda a: a.astype(np.uint8),
        lambda a: a.astype(">i8"),
        lambda a: np.asfortranarray(a.reshape(n, 1))[:, 0],
    ]:
        got = play(convert)
        for w, g in zip(want, got, strict=True):
            for x, y in zip(w, g, strict=True):
                assert np.array_equal(x, y)
