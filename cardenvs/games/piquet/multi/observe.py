"""Piquet normand and partnership Piquet's observation kernel ``_observe``: what a seat may know
(``docs/games/piquet.md`` 6.2), written into the blocks of ``layout.OBS_LAYOUTS``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....core.bitmask import clear, spread
from ....core.seats import at, seat_mod
from ..cards import _planes, index_of
from .config import C_MODE, C_NUM_SEATS, C_TARGET
from .constants import (
    BONUS_PIQUE,
    BONUS_REPIQUE,
    MODE_NORMAND,
    OUTCOME_EQUAL,
    OUTCOME_NONE,
    PHASE_PLAY,
)
from .layout import (
    _OBS_OFF,
    B_BONUS,
    B_CARTE_BLANCHE,
    B_DEAL_NO,
    B_DEAL_SCORE,
    B_DEALER,
    B_DECL_OUTCOME,
    B_DECL_POINTS,
    B_END,
    B_EXCHANGED,
    B_HAND,
    B_IN_GAME,
    B_OWN_DISCARDS,
    B_PHASE,
    B_PLAYED,
    B_SHOWN,
    B_TABLE,
    B_TALON_SEEN,
    B_TARGET,
    B_TO_ACT,
    B_TOTAL,
    B_TRICK_LEAD,
    B_TRICK_LEADER,
    B_TRICKS,
    F_BONUS,
    F_CB,
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_DECL_WIN,
    F_LED,
    F_PHASE,
    F_TALON_POS,
    F_TRICK_LEADER,
    F_TRICK_N,
    F_TRICKS,
    M_DISCARDS,
    M_HAND,
    M_PLAYED,
    M_SEEN,
    M_SHOWN,
    M_TABLE,
    V_DEAL_SCORE,
    V_DECL_PTS,
    V_TOTAL,
)
from .rules import _in_game, _side


@njit(cache=True, forceinline=True)  # into step_rows; the other callers: observe_row
def _observe(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (see the layout tables)."""
    p = cfg[C_NUM_SEATS]
    o = _OBS_OFF[p]
    clear(out, o[B_PHASE], o[B_END])
    dealer = s.f[b, F_DEALER]
    _planes(s.m[b, at(M_HAND, seat)], out, o[B_HAND])
    own_exchange = seat == dealer and cfg[C_MODE] == MODE_NORMAND
    _planes(s.m[b, M_DISCARDS] if own_exchange else np.uint64(0), out, o[B_OWN_DISCARDS])
    _planes(s.m[b, M_SEEN] if own_exchange else np.uint64(0), out, o[B_TALON_SEEN])
    for k in range(p):
        t = seat_mod(seat + k, p)
        _planes(s.m[b, at(M_PLAYED, t)], out, o[B_PLAYED] + 32 * k)
        _planes(s.m[b, at(M_SHOWN, t)], out, o[B_SHOWN] + 32 * k)
    led = s.f[b, F_LED]
    spread(np.int64(1) << index_of(led) if led >= 0 else 0, 32, out, o[B_TRICK_LEAD])
    _planes(s.m[b, M_TABLE], out, o[B_TABLE])
    ph = s.f[b, F_PHASE]
    out[at(o[B_PHASE], ph)] = 1.0
    out[at(o[B_TO_ACT], 0)] = 1.0 if s.f[b, F_CURRENT] == seat else 0.0
    out[at(o[B_DEALER], seat_mod(dealer - seat, p))] = 1.0
    if s.f[b, F_TRICK_N] > 0:
        out[at(o[B_TRICK_LEADER], seat_mod(s.f[b, F_TRICK_LEADER] - seat, p))] = 1.0
    for k in range(p):
        t = seat_mod(seat + k, p)
        side = _side(cfg, t)
        out[at(o[B_IN_GAME], k)] = 1.0 if _in_game(s, b, t) else 0.0
        if ph >= PHASE_PLAY and s.f[b, at(F_CB, t)]:
            out[at(o[B_CARTE_BLANCHE], k)] = 1.0
        if s.f[b, at(F_BONUS, side)] == BONUS_PIQUE:
            out[at(o[B_BONUS], 2 * k)] = 1.0
        elif s.f[b, at(F_BONUS, side)] == BONUS_REPIQUE:
            out[at(o[B_BONUS], 2 * k + 1)] = 1.0
        out[at(o[B_TRICKS], k)] = s.f[b, at(F_TRICKS, t)] * (1.0 / 10.0)
        # deal scores stay below 2 (199 points); totals are clipped to the block's bound
        out[at(o[B_DEAL_SCORE], k)] = s.v[b, at(V_DEAL_SCORE, side)] * (1.0 / 100.0)
        out[at(o[B_TOTAL], k)] = min(s.v[b, at(V_TOTAL, side)] * (1.0 / 100.0), 10.0)
    if ph >= PHASE_PLAY:
        for c in range(3):
            w = s.f[b, F_DECL_WIN + c]
            if w == OUTCOME_EQUAL:
                k = p
            elif w == OUTCOME_NONE:
                k = p + 1
            else:
                k = seat_mod(w - seat, p)
            out[at(o[B_DECL_OUTCOME], (p + 2) * c + k)] = 1.0
            out[at(o[B_DECL_POINTS], c)] = s.v[b, V_DECL_PTS + c] * (1.0 / 20.0)
        out[at(o[B_EXCHANGED], 0)] = s.f[b, F_TALON_POS] * (1.0 / 2.0)
    out[at(o[B_TARGET], 0)] = cfg[C_TARGET] * (1.0 / 300.0)
    out[at(o[B_DEAL_NO], 0)] = s.f[b, F_DEAL_NO] * (1.0 / 120.0)
