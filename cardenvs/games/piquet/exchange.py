"""Two-handed Piquet's exchange (``docs/games/piquet.md`` 2.4, A1, A4, A5): the discard limits,
the draw from the talon, the leftovers, then the bidding (Auction Piquet) or the declarations.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.bitmask import bit
from .auction import _start_bidding
from .cards import _elder
from .config import BIDDING_AFTER_EXCHANGE, C_BIDDING, C_GAME, C_YOUNGER_MIN_EXCHANGE, GAME_AUCTION
from .constants import ELDER_MAX, HAND, PHASE_LOOK, TALON
from .declare import _start_declarations
from .layout import (
    F_BIDDER,
    F_CB_CLAIM,
    F_CURRENT,
    F_DECK,
    F_EXCH,
    F_LAST_DISC,
    F_NDISC,
    F_PHASE,
    F_TALON_POS,
    F_XCOUNT,
    M_CB_SHOWN,
    M_DEALT,
    M_HAND,
    M_SEEN,
)


@njit(cache=True, forceinline=True)
def _exchange_limits(s, b, cfg):
    """(min, max) cards the current exchanger may discard (2.4, A1, A4): the first exchanger
    up to five, the second up to what is left of the talon; elder at least one, younger at
    least ``younger_min_exchange`` whether he exchanges second or (``first_exchanger="dealer"``)
    first."""
    lo = 1 if s.f[b, F_CURRENT] == _elder(s, b) else cfg[C_YOUNGER_MIN_EXCHANGE]
    if s.f[b, F_EXCH] == 0:
        return lo, ELDER_MAX
    return lo, TALON - s.f[b, F_TALON_POS]


@njit(cache=True)
def _finish_exchange(s, b, cfg):
    """Draw as many cards as were discarded from the top of the talon, then move on (2.4)."""
    seat = s.f[b, F_CURRENT]
    k = s.f[b, F_NDISC]
    for i in range(k):
        s.m[b, M_HAND + seat] |= bit(s.f[b, F_DECK + 2 * HAND + s.f[b, F_TALON_POS] + i])
    s.f[b, F_TALON_POS] += k
    s.f[b, F_XCOUNT + seat] = k
    other = 1 - seat
    if s.f[b, F_EXCH] == 0:
        # the first exchanger may look at the untaken cards of his five
        for i in range(s.f[b, F_TALON_POS], ELDER_MAX):
            s.m[b, M_SEEN + seat] |= bit(s.f[b, F_DECK + 2 * HAND + i])
        # a carte blanche is shown after the opponent's discard (2.3)
        if s.f[b, F_CB_CLAIM + other] == 1:
            s.m[b, M_CB_SHOWN + other] = s.m[b, M_DEALT + other]
        s.f[b, F_EXCH] = 1
        s.f[b, F_NDISC] = 0
        s.f[b, F_LAST_DISC] = -1
        s.f[b, F_CURRENT] = other
        return
    if s.f[b, F_CB_CLAIM + other] == 1:
        s.m[b, M_CB_SHOWN + other] = s.m[b, M_DEALT + other]
    s.f[b, F_EXCH] = 2  # both exchanges made
    if s.f[b, F_TALON_POS] < TALON:
        s.f[b, F_PHASE] = PHASE_LOOK
        return
    _after_exchange(s, b, cfg)


@njit(cache=True)
def _leftovers(s, b):
    m = np.uint64(0)
    for i in range(s.f[b, F_TALON_POS], TALON):
        m |= bit(s.f[b, F_DECK + 2 * HAND + i])
    return m


@njit(cache=True)
def _after_exchange(s, b, cfg):
    """After the exchange: the bidding (Auction Piquet, by default), else the declarations."""
    if (
        cfg[C_GAME] == GAME_AUCTION
        and cfg[C_BIDDING] == BIDDING_AFTER_EXCHANGE
        and s.f[b, F_BIDDER] < 0
    ):
        _start_bidding(s, b, cfg)
        return
    _start_declarations(s, b, cfg)
