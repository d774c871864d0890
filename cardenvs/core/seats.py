"""Seat arithmetic for kernels."""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def seat_mod(d, n):
    """``d % n`` for ``-n <= d < 2 * n`` without a division: a seat ``d`` places round the table
    (``seat_mod(seat + k, n)``, ``seat_mod(other - seat, n)``). An integer division is the
    slowest instruction an observation kernel would otherwise run."""
    if d < 0:
        return d + n
    if d >= n:
        return d - n
    return d
