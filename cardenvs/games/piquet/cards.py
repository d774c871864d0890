"""Two-handed Piquet's card helpers (piquet card index and global card id, a suit's rank bits,
card planes, face cards: ``docs/games/piquet.md`` 2.1, 2.3) and the seats' roles (elder, the
exchangers: 2.1, 2.4, A1, 3.2 "Roles").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.bitmask import dense_suits, spread
from ...core.cards import card_of_index, index_of_card
from .config import C_FIRST_EXCHANGER, FIRST_EXCHANGER_DEALER
from .layout import F_DEALER, F_SWAPPED


# --- card helpers ------------------------------------------------------------------------------
@njit(cache=True, forceinline=True)
def card_of(i):
    """The card id of piquet deck index ``i`` (8 ranks from the seven, ``core.cards``)."""
    return card_of_index(i, 8, 5)


@njit(cache=True, forceinline=True)
def index_of(c):
    """The piquet deck index of card id ``c``."""
    return index_of_card(c, 8, 5)


@njit(cache=True, forceinline=True)
def _suit_bits(mask, suit):
    """8-bit mask of ``suit`` in ``mask``: bit r = piquet rank r (0 = seven .. 7 = ace)."""
    return np.int64((mask >> np.uint64(suit * 13 + 5)) & np.uint64(0xFF))


@njit(cache=True, forceinline=True)
def _from_suit_bits(bits, suit):
    return np.uint64(bits) << np.uint64(suit * 13 + 5)


@njit(cache=True, forceinline=True)
def _local32(mask):
    """The piquet cards of ``mask`` as a 32-bit set of card indices, suit by suit (one pext where
    the CPU runs it fast: ``core.bitmask.dense_suits``)."""
    return dense_suits(mask, 5, 8)


@njit(cache=True, forceinline=True)
def _planes(mask, out, off):
    """One-hot the 32 piquet cards of ``mask`` into ``out[off:off+32]``."""
    spread(_local32(mask), 32, out, off)


@njit(cache=True, forceinline=True)
def _holds_face_card(mask):
    # K, Q, J are piquet ranks 4, 5, 6 in every suit (carte blanche, 2.3)
    faces = np.uint64(0)
    for suit in range(4):
        faces |= np.uint64(0x70) << np.uint64(suit * 13 + 5)
    return (mask & faces) != np.uint64(0)


# --- roles ------------------------------------------------------------------------------------
@njit(cache=True, forceinline=True)
def _elder(s, b):
    """Elder's seat: the non-dealer (2.1), or the dealer once an Auction Piquet declarer who was
    dealt younger has taken elder's role (``declarer_becomes_elder``, 3.2)."""
    dealer = np.int64(s.f[b, F_DEALER])
    return dealer if s.f[b, F_SWAPPED] != 0 else 1 - dealer


@njit(cache=True, forceinline=True)
def _exchanger(s, b, cfg, k):
    """Seat making exchange ``k`` (0 first, 1 second); elder first by default (2.4, A1), else
    younger (the dealer's role)."""
    first = 1 - _elder(s, b) if cfg[C_FIRST_EXCHANGER] == FIRST_EXCHANGER_DEALER else _elder(s, b)
    return first if k == 0 else 1 - first
