"""``uint64`` hand bitmasks: bit ``c`` is set when card id ``c`` is in the set.

All helpers are numba kernels usable from other kernels and from Python.
"""

from __future__ import annotations

import numpy as np
from numba import njit

ONE = np.uint64(1)
ZERO = np.uint64(0)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def bit(card):
    """The mask holding only ``card``."""
    return np.uint64(1) << np.uint64(card)


@njit(cache=True, inline="always")
def has(mask, card):
    """True when ``card`` is in ``mask``."""
    return (mask >> np.uint64(card)) & np.uint64(1) != np.uint64(0)


@njit(cache=True, inline="always")
def byte_counts(mask):
    """The number of set bits of each byte of ``mask``, in that byte (the first steps of a SWAR
    popcount)."""
    x = np.uint64(mask)
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    return (x + (x >> np.uint64(4))) & _M4


@njit(cache=True, inline="always")
def popcount(mask):
    """Number of cards in ``mask`` (SWAR popcount)."""
    return np.int64((byte_counts(mask) * _H01) >> np.uint64(56))


@njit(cache=True, inline="always")
def lowest(mask):
    """Card id of the lowest set bit (``mask`` must be non-zero)."""
    x = np.uint64(mask)
    return popcount((x & (np.uint64(0) - x)) - np.uint64(1))


@njit(cache=True)
def to_cards(mask, out):
    """Write the card ids of ``mask`` in increasing order to ``out``; return how many."""
    n = 0
    x = np.uint64(mask)
    while x != np.uint64(0):
        out[n] = lowest(x)
        x &= x - np.uint64(1)
        n += 1
    return n


@njit(cache=True)
def to_onehot(mask, deck, out):
    """``out[i] = 1`` where ``deck[i]`` is in ``mask``, else ``0``."""
    for i in range(deck.shape[0]):
        out[i] = (mask >> np.uint64(deck[i])) & np.uint64(1)


@njit(cache=True)
def from_cards(cards, n):
    """Mask of the first ``n`` card ids in ``cards``."""
    m = np.uint64(0)
    for i in range(n):
        m |= np.uint64(1) << np.uint64(cards[i])
    return m


# bit i of byte x, as int8 (for masks) and float32 (for observations): writing a card set eight
# cards at a time through these tables is several times faster than testing bit by bit
BYTE_BITS_I8 = np.array([[(x >> i) & 1 for i in range(8)] for x in range(256)], np.int8)
BYTE_BITS_F32 = BYTE_BITS_I8.astype(np.float32)


@njit(cache=True, inline="always")
def spread(x, nbytes, table, out, off):
    """Write the low ``8 * nbytes`` bits of ``x`` as 0/1 into ``out[off:off + 8 * nbytes]``,
    looking each byte up in ``table`` (``BYTE_BITS_I8`` or ``BYTE_BITS_F32``).

    The indices are unsigned on purpose: numba adds a negative-index wraparound to every access
    through a signed index it cannot prove non-negative (an offset read from an array, say), and
    that alone keeps LLVM from turning the eight-element copies into vector loads and stores.
    ``off`` must be non-negative."""
    base = np.uint64(off)
    ux = np.uint64(x)
    for k in range(nbytes):
        row = (ux >> np.uint64(8 * k)) & np.uint64(0xFF)
        for i in range(8):
            out[base + np.uint64(8 * k + i)] = table[row, i]


@njit(cache=True, inline="always")
def clear(out, lo, hi):
    """``out[lo:hi] = 0`` through unsigned indices (vectorised; see ``spread``); ``lo >= 0``."""
    for i in range(np.uint64(lo), np.uint64(hi)):
        out[i] = 0


@njit(cache=True, inline="always")
def action_in(lo, hi, a, num_actions):
    """Is action ``a`` in the two-word action set ``(lo, hi)``: bit ``a`` of ``lo`` for ``a < 64``,
    bit ``a - 64`` of ``hi`` above? False outside ``0..num_actions - 1`` (the legality caches
    that Banque and Piquet keep in their states)."""
    if a < 0 or a >= num_actions:
        return False
    if a < 64:
        return (np.uint64(lo) >> np.uint64(a)) & np.uint64(1) == np.uint64(1)
    return (np.uint64(hi) >> np.uint64(a - 64)) & np.uint64(1) == np.uint64(1)
