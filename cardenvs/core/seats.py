"""Seat arithmetic for kernels, and the seat check of the front ends."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, forceinline=True)
def seat_mod(d, n):
    """``d % n`` for ``-n <= d < 2 * n`` without a division: a seat ``d`` places round the table
    (``seat_mod(seat + k, n)``, ``seat_mod(other - seat, n)``). An integer division is the
    slowest instruction an observation kernel would otherwise run."""
    if d < 0:
        return d + n
    if d >= n:
        return d - n
    return d


@njit(cache=True, forceinline=True)
def at(base, k):
    """``base + k`` as an unsigned index, for ``k >= 0`` (a seat from ``seat_mod``, say).

    numba adds a negative-index wraparound to every array access through a signed index that it
    cannot prove non-negative, and a seat computed at run time is one; an access through ``at``
    has none (a faster observation: ``docs/history.md``, "From the code")."""
    return np.uint64(base) + np.uint64(k)


def check_seats(seats: np.ndarray, num_seats: int) -> None:
    """Raise ``ValueError`` unless every seat of ``seats`` is in ``0..num_seats - 1``: the kernels
    index the state by seat without bounds checks."""
    if ((seats < 0) | (seats >= num_seats)).any():
        raise ValueError(f"seats must be in 0..{num_seats - 1}, got {np.asarray(seats).tolist()}")
