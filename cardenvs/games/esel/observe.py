"""Esel's observation kernel: ``_observe`` writes one seat's egocentric view of a row (the
layout and its table are in ``layout.py``).

Rules: ``docs/games/esel.md`` (what each player may see: 3.2 hands hidden during the trump
choice, 4.3 the trick state; section 10).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.bitmask import bit, popcount, spread
from ...core.seats import at, seat_mod
from .config import C_MAX_HANDS
from .constants import NUM_CARDS, PHASE_TRUMP, THRESHOLDS
from .layout import (
    F_BANKS,
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_DECL,
    F_FIGHTBACK,
    F_MAIN_CARD,
    F_MAIN_SUIT,
    F_PHASE,
    F_STOCK_POS,
    F_SUIT_CLASS,
    F_TRICK_CARDS,
    F_TRICK_N,
    F_TRICK_SEATS,
    F_TRICKS,
    F_TRUMP,
    F_WIN_SEAT,
    F_WIN_TYPE,
    M_HAND,
    M_PLAYED,
    O_BANKS,
    O_DEALER,
    O_DECL,
    O_FIGHTBACK,
    O_HAND,
    O_HAND_NO,
    O_HAND_SIZE,
    O_LEADER,
    O_MAIN_CARD,
    O_MAIN_SUIT,
    O_PHASE,
    O_PLAYED,
    O_POINTS,
    O_SEATS,
    O_STOCK,
    O_SUIT_CLASS,
    O_TABLE,
    O_THRESHOLDS,
    O_TO_ACT,
    O_TRICKS,
    O_TRUMPS,
    O_WIN_SEAT,
    O_WIN_TYPE,
    OBS_DIM,
    V_POINTS,
)
from .rules import _local36, _num_players, index_of


@njit(cache=True, forceinline=True)
def _planes(mask, out, off):
    """One-hot the 36 cards of ``mask`` into ``out[off:off+36]``."""
    x = _local36(mask)
    spread(x, 36, out, off)


@njit(cache=True, forceinline=True)  # into step_rows; the other callers: observe_row
def _observe(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (length OBS_DIM)."""
    P = _num_players(cfg)
    ph = s.f[b, F_PHASE]
    # card planes of present seats are written whole; zero the rest
    for i in range(O_PLAYED + 36 * P, O_TABLE):
        out[i] = 0.0
    for i in range(O_MAIN_CARD, OBS_DIM):
        out[i] = 0.0
    _planes(s.m[b, M_HAND + seat] if ph != PHASE_TRUMP else np.uint64(0), out, O_HAND)
    for k in range(P):
        p = seat_mod(seat + k, P)
        _planes(s.m[b, at(M_PLAYED, p)], out, O_PLAYED + 36 * k)
        t = s.f[b, at(F_TRUMP, p)]
        out[O_TRUMPS + 5 * k + (t if t >= 0 else 4)] = 1.0
        out[O_DECL + 3 * k + s.f[b, at(F_DECL, p)] + 1] = 1.0
        out[O_BANKS + k] = min(s.f[b, at(F_BANKS, p)], 12) * (1.0 / 6.0)
        out[O_POINTS + k] = min(s.v[b, at(V_POINTS, p)] * (1.0 / 100.0), 10.0)  # the bound
        out[O_TRICKS + k] = s.f[b, at(F_TRICKS, p)] * (1.0 / 18.0)
        if ph != PHASE_TRUMP:
            out[O_HAND_SIZE + k] = popcount(s.m[b, at(M_HAND, p)]) * (1.0 / 4.0)
        out[O_SEATS + k] = 1.0
    dealer = s.f[b, F_DEALER]
    if dealer >= 0:
        out[O_DEALER + seat_mod(dealer - seat, P)] = 1.0
    table = np.uint64(0)
    for i in range(s.f[b, F_TRICK_N]):
        table |= bit(s.f[b, F_TRICK_CARDS + i])
    _planes(table, out, O_TABLE)
    if s.f[b, F_TRICK_N] > 0:
        out[O_LEADER + seat_mod(s.f[b, F_TRICK_SEATS] - seat, P)] = 1.0
    if s.f[b, F_TRICK_N] > 0:
        out[O_MAIN_CARD + index_of(s.f[b, F_MAIN_CARD])] = 1.0
        out[O_MAIN_SUIT + s.f[b, F_MAIN_SUIT]] = 1.0
        out[O_WIN_SEAT + seat_mod(s.f[b, F_WIN_SEAT] - seat, P)] = 1.0
        out[O_WIN_TYPE + s.f[b, F_WIN_TYPE]] = 1.0
        out[O_FIGHTBACK] = s.f[b, F_FIGHTBACK]
    for suit in range(4):
        out[O_SUIT_CLASS + suit] = s.f[b, F_SUIT_CLASS + suit] * (1.0 / 2.0)
    out[O_STOCK] = (NUM_CARDS - s.f[b, F_STOCK_POS]) * (1.0 / 36.0)
    out[O_PHASE + ph] = 1.0
    out[O_TO_ACT] = 1.0 if s.f[b, F_CURRENT] == seat else 0.0
    out[O_THRESHOLDS] = THRESHOLDS[P, 0] * (1.0 / 100.0)
    out[O_THRESHOLDS + 1] = THRESHOLDS[P, 1] * (1.0 / 100.0)
    out[O_HAND_NO] = s.f[b, F_DEAL_NO] / cfg[C_MAX_HANDS]
