"""Two-handed Piquet's observation kernel ``_observe``: what a seat may know
(``docs/games/piquet.md`` 6.2), written into the blocks of ``layout.OBS_LAYOUT``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.bitmask import spread
from ...core.seats import at
from .cards import _elder, _planes, index_of
from .config import C_AU_CENT_PARTIE, C_GAME, C_PARTIE, GAME_AU_CENT, PARTIE_FOUR_DEALS
from .constants import (
    BONUS_PIQUE,
    BONUS_REPIQUE,
    CALL_ANSWERED,
    CALL_CONCEDED,
    CALL_ELDER,
    CALL_ELDER_SILENT,
    CALL_SILENT,
    CALL_YOUNGER,
    MAX_DEALS,
    OUTCOME_PENDING,
    PARTIE_GAMES_TO_WIN,
    PHASE_BID,
    TALON,
)
from .layout import (
    F_BID,
    F_BID_ACTS,
    F_BIDDER,
    F_BONUS,
    F_CALLS,
    F_CB_CLAIM,
    F_CURRENT,
    F_DEAL_NO,
    F_DECL_CALL,
    F_DECL_WIN,
    F_DOUBLED,
    F_GAME_START,
    F_GAMES_WON,
    F_LOOKED,
    F_PHASE,
    F_REDEALS,
    F_TALON_POS,
    F_TRICK_CARD,
    F_TRICKS,
    F_XCOUNT,
    M_CB_SHOWN,
    M_DISCARDS,
    M_HAND,
    M_PLAYED,
    M_SEEN,
    M_SHOWN,
    O_AUCTION_PASSED,
    O_BONUS,
    O_CARTE_BLANCHE,
    O_CONTRACT,
    O_CONTRACT_BY,
    O_CONTRACT_DOUBLED,
    O_DEAL_DOUBLE,
    O_DEAL_NO,
    O_DEAL_SCORE,
    O_DECL_CALLS,
    O_DECL_OUTCOME,
    O_DECL_POINTS,
    O_ELDER_CALLS,
    O_EXCHANGED,
    O_HAND,
    O_IS_ELDER,
    O_LEFTOVERS,
    O_OPP_CARTE_BLANCHE,
    O_OPP_PLAYED,
    O_OPP_SHOWN,
    O_OWN_DISCARDS,
    O_OWN_PLAYED,
    O_OWN_SHOWN,
    O_PHASE,
    O_REDEALS,
    O_TALON_LEFT,
    O_TALON_SEEN,
    O_TO_ACT,
    O_TOTAL,
    O_TRICK_LEAD,
    O_TRICKS,
    OBS_DIM,
    V_DEAL_SCORE,
    V_DECL_PTS,
    V_TOTAL,
)


@njit(cache=True, forceinline=True)  # into step_rows; the other callers: observe_row
def _observe(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (length OBS_DIM)."""
    for i in range(O_PHASE, OBS_DIM):
        out[i] = 0.0
    opp = 1 - seat
    _planes(s.m[b, at(M_HAND, seat)], out, O_HAND)
    _planes(s.m[b, at(M_DISCARDS, seat)], out, O_OWN_DISCARDS)
    _planes(s.m[b, at(M_SEEN, seat)] & ~s.m[b, at(M_HAND, seat)], out, O_TALON_SEEN)
    _planes(s.m[b, at(M_CB_SHOWN, opp)], out, O_OPP_CARTE_BLANCHE)
    _planes(s.m[b, at(M_SHOWN, seat)], out, O_OWN_SHOWN)
    _planes(s.m[b, at(M_SHOWN, opp)], out, O_OPP_SHOWN)
    _planes(s.m[b, at(M_PLAYED, seat)], out, O_OWN_PLAYED)
    _planes(s.m[b, at(M_PLAYED, opp)], out, O_OPP_PLAYED)
    led = s.f[b, F_TRICK_CARD]
    spread(np.int64(1) << index_of(led) if led >= 0 else 0, 32, out, O_TRICK_LEAD)
    out[O_PHASE + s.f[b, F_PHASE]] = 1.0
    out[O_TO_ACT] = 1.0 if s.f[b, F_CURRENT] == seat else 0.0
    elder = _elder(s, b)
    out[O_IS_ELDER] = 1.0 if seat == elder else 0.0
    out[O_EXCHANGED] = s.f[b, at(F_XCOUNT, seat)] * (1.0 / 8.0)
    out[O_EXCHANGED + 1] = s.f[b, at(F_XCOUNT, opp)] * (1.0 / 8.0)
    out[O_TALON_LEFT] = (TALON - s.f[b, F_TALON_POS]) * (1.0 / 8.0)
    if s.f[b, F_LOOKED] == 1:
        out[O_LEFTOVERS] = 1.0
    elif s.f[b, F_LOOKED] == 0:
        out[O_LEFTOVERS + 1] = 1.0
    out[O_CARTE_BLANCHE] = 1.0 if s.f[b, at(F_CB_CLAIM, seat)] == 1 else 0.0
    out[O_CARTE_BLANCHE + 1] = 1.0 if s.f[b, at(F_CB_CLAIM, opp)] == 1 else 0.0
    for c in range(3):
        # a category's outcome is public once it is resolved; elder's calls as he makes them
        w = s.f[b, F_DECL_WIN + c]
        if w != OUTCOME_PENDING:
            k = 0 if w == seat else (1 if w == opp else 2)
            out[O_DECL_OUTCOME + 3 * c + k] = 1.0
            out[O_DECL_POINTS + 2 * c] = s.v[b, V_DECL_PTS + 3 * seat + c] * (1.0 / 20.0)
            out[O_DECL_POINTS + 2 * c + 1] = s.v[b, V_DECL_PTS + 3 * opp + c] * (1.0 / 20.0)
        mode = s.f[b, F_DECL_CALL + c]
        if mode == CALL_ELDER or mode == CALL_ANSWERED or mode == CALL_CONCEDED:
            out[O_DECL_CALLS + 4 * c] = 1.0
        elif mode == CALL_ELDER_SILENT or mode == CALL_YOUNGER or mode == CALL_SILENT:
            out[O_DECL_CALLS + 4 * c + 1] = 1.0
            if mode == CALL_YOUNGER:
                out[O_DECL_CALLS + 4 * c + 2] = 1.0
            elif mode == CALL_SILENT:
                out[O_DECL_CALLS + 4 * c + 3] = 1.0
    out[O_ELDER_CALLS] = s.f[b, F_CALLS + 0] * (1.0 / 12.0)
    out[O_ELDER_CALLS + 1] = s.f[b, F_CALLS + 1] * (1.0 / 100.0)
    out[O_ELDER_CALLS + 2] = s.f[b, F_CALLS + 2] * (1.0 / 8.0)
    out[O_ELDER_CALLS + 3] = s.f[b, F_CALLS + 3] * (1.0 / 8.0)
    out[O_ELDER_CALLS + 4] = s.f[b, F_CALLS + 4] * (1.0 / 4.0)
    out[O_ELDER_CALLS + 5] = s.f[b, F_CALLS + 5] * (1.0 / 8.0)
    for k in range(2):
        who = seat if k == 0 else opp
        if s.f[b, at(F_BONUS, who)] == BONUS_PIQUE:
            out[O_BONUS + 2 * k] = 1.0
        elif s.f[b, at(F_BONUS, who)] == BONUS_REPIQUE:
            out[O_BONUS + 2 * k + 1] = 1.0
    out[O_TRICKS] = s.f[b, at(F_TRICKS, seat)] * (1.0 / 12.0)
    out[O_TRICKS + 1] = s.f[b, at(F_TRICKS, opp)] * (1.0 / 12.0)
    # clipped to the blocks' bounds (only Auction Piquet's largest factors get there)
    out[O_DEAL_SCORE] = min(s.v[b, at(V_DEAL_SCORE, seat)] * (1.0 / 100.0), 5.0)
    out[O_DEAL_SCORE + 1] = min(s.v[b, at(V_DEAL_SCORE, opp)] * (1.0 / 100.0), 5.0)
    out[O_TOTAL] = min(s.v[b, at(V_TOTAL, seat)] * (1.0 / 100.0), 40.0)
    out[O_TOTAL + 1] = min(s.v[b, at(V_TOTAL, opp)] * (1.0 / 100.0), 40.0)
    n = s.f[b, F_DEAL_NO] - s.f[b, F_REDEALS] - s.f[b, F_GAME_START]
    out[O_DEAL_NO + min(n, MAX_DEALS - 1)] = 1.0
    k = s.f[b, F_BID]
    if k >= 0:
        out[O_CONTRACT + k] = 1.0
        out[O_CONTRACT_BY + (0 if s.f[b, F_BIDDER] == seat else 1)] = 1.0
    if s.f[b, F_DOUBLED] > 0:
        out[O_CONTRACT_DOUBLED + s.f[b, F_DOUBLED] - 1] = 1.0
    if k < 0 and s.f[b, F_BID_ACTS] == 1 and s.f[b, F_PHASE] == PHASE_BID:
        # the first speaker passed; the one to act now is the other
        out[O_AUCTION_PASSED + (1 if s.f[b, F_CURRENT] == seat else 0)] = 1.0
    out[O_REDEALS] = s.f[b, F_REDEALS] * (1.0 / 10.0)
    if cfg[C_AU_CENT_PARTIE] and cfg[C_GAME] == GAME_AU_CENT:
        # no contracts in au cent: its partie standing reuses the ``contract_by`` block
        out[O_CONTRACT_BY] = min(s.f[b, at(F_GAMES_WON, seat)], PARTIE_GAMES_TO_WIN) * (1.0 / 3.0)
        out[O_CONTRACT_BY + 1] = min(s.f[b, at(F_GAMES_WON, opp)], PARTIE_GAMES_TO_WIN) * (
            1.0 / 3.0
        )
    out[O_DEAL_DOUBLE] = (
        1.0
        if (
            cfg[C_GAME] != GAME_AU_CENT
            and cfg[C_PARTIE] == PARTIE_FOUR_DEALS
            and (n == 0 or n == 3)
        )
        else 0.0
    )
