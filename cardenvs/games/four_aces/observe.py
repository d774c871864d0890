"""Four Aces' observation kernel: one seat's view of a row as the flat vector of ``layout.py``'s
``OBS_LAYOUT`` (what is public: ``docs/games/four_aces.md`` section 8, "Information"; A18)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.bitmask import popcount, spread
from ...core.cards import NUM_CARDS
from ...core.seats import at, seat_mod
from .config import C_MAX_ROUNDS, C_TURN_CAP_FACTOR
from .constants import NATURALS
from .layout import (
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_DRAWN,
    F_JOKERS_HELD,
    F_JOKERS_PLAYED,
    F_LIMIT,
    F_PHASE,
    F_PILE,
    F_PILE_N,
    F_PILE_POS,
    F_STOCK_POS,
    M_EXPOSED,
    M_HIDDEN,
    O_DEALER,
    O_DRAWN,
    O_EXPOSED,
    O_HIDDEN,
    O_HIDDEN_SIZE,
    O_JOKERS_HELD,
    O_JOKERS_PLAYED,
    O_LIMIT,
    O_PHASE,
    O_PILE,
    O_PILE_TOP,
    O_ROUND,
    O_SEATS,
    O_STOCK,
    O_TO_ACT,
    O_TOTAL,
    O_TURN,
    OBS_DIM,
    V_TOTAL,
    V_TURNS,
)
from .rules import _num_players


@njit(cache=True, inline="always")
def _plane52(mask, out, off):
    """One-hot the 52 natural cards of ``mask`` into ``out[off:off+52]``."""
    x = np.int64(mask & NATURALS)
    spread(x, 52, out, off)


@njit(cache=True, inline="always")  # into step_rows; the other callers: observe_row
def _observe(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (length OBS_DIM)."""
    P = _num_players(cfg)
    for i in range(O_PILE_TOP, O_DRAWN + 52):
        out[i] = 0.0
    for i in range(O_HIDDEN_SIZE, OBS_DIM):
        out[i] = 0.0
    for i in range(O_EXPOSED + 52 * P, O_PILE):
        out[i] = 0.0
    _plane52(s.m[b, at(M_HIDDEN, seat)], out, O_HIDDEN)
    for k in range(P):
        p = seat_mod(seat + k, P)
        _plane52(s.m[b, at(M_EXPOSED, p)], out, O_EXPOSED + 52 * k)
        out[O_HIDDEN_SIZE + k] = (
            popcount(s.m[b, at(M_HIDDEN, p)]) + s.f[b, at(F_JOKERS_HELD, p)]
        ) * (1.0 / 5.0)
        out[O_LIMIT + k] = s.f[b, at(F_LIMIT, p)] * (1.0 / 5.0)
        out[O_JOKERS_PLAYED + k] = s.f[b, at(F_JOKERS_PLAYED, p)] * (1.0 / 2.0)
        out[O_TOTAL + k] = min(max(s.v[b, at(V_TOTAL, p)] * (1.0 / 20.0), -100.0), 100.0)
        out[O_SEATS + k] = 1.0
    dealer = s.f[b, F_DEALER]
    if dealer >= 0:
        out[O_DEALER + seat_mod(dealer - seat, P)] = 1.0
    # the pile plane from each card's kept position: a fixed, vectorised pass over the 52 cards
    # instead of a scatter along the pile (faster, the same values: docs/history.md)
    for c in range(52):
        out[O_PILE + c] = s.f[b, F_PILE_POS + c] * (1.0 / 54.0)
    n = s.f[b, F_PILE_N]
    if n > 0:
        out[at(O_PILE_TOP, s.f[b, F_PILE + n - 1])] = 1.0
    if s.f[b, F_DRAWN] >= 0:
        out[at(O_DRAWN, s.f[b, F_DRAWN])] = 1.0
    out[O_JOKERS_HELD] = s.f[b, at(F_JOKERS_HELD, seat)] * (1.0 / 2.0)
    out[O_STOCK] = (NUM_CARDS - s.f[b, F_STOCK_POS]) * (1.0 / 54.0)
    out[at(O_PHASE, s.f[b, F_PHASE])] = 1.0
    out[O_TO_ACT] = 1.0 if s.f[b, F_CURRENT] == seat else 0.0
    out[O_ROUND] = s.f[b, F_DEAL_NO] / cfg[C_MAX_ROUNDS]
    out[O_TURN] = s.v[b, V_TURNS] / (cfg[C_TURN_CAP_FACTOR] * (NUM_CARDS - 6 * P))
