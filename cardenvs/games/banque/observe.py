"""Banque's observation kernel ``_observe``: what a seat sees of a row, written into the flat
vector of ``layout.OBS_LAYOUT`` (the hand hidden during the trump choice, 3.2; the bank with its
owners, 4.1; the stock order and the other hands never); rules: ``docs/games/banque.md``."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.bitmask import clear, popcount
from ...core.seats import at, seat_mod
from .beating import _num_players, index_of
from .config import C_DRAWS_PER_FAILURE, C_MAX_HANDS, C_TARGET_SCORE
from .constants import NUM_CARDS, PHASE_INTERRUPT, PHASE_TRUMP
from .layout import (
    F_BANK,
    F_BANK_N,
    F_CONTENDER,
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_DRAWS,
    F_FAILS,
    F_NEXT_MOVER,
    F_OUT,
    F_OWNER,
    F_PHASE,
    F_SEVEN,
    F_SITTING,
    F_STOCK_POS,
    F_SUIT_CLASS,
    F_TRUMP,
    M_DRAWN,
    M_HAND,
    M_TAKEN,
    O_BANK_OWNER,
    O_BANK_POINTS,
    O_BANK_POS,
    O_BONUS,
    O_CONTENDER,
    O_DEALER,
    O_DRAWN,
    O_DRAWS,
    O_FAILS,
    O_HAND,
    O_HAND_NO,
    O_HAND_SIZE,
    O_MOVER,
    O_OUT,
    O_PHASE,
    O_SEATS,
    O_SEVEN,
    O_SITTING,
    O_STOCK,
    O_SUIT_CLASS,
    O_TAKEN,
    O_TO_ACT,
    O_TOP,
    O_TOTAL,
    O_TRUMPS,
    OBS_DIM,
    V_BANK_POINTS,
    V_BONUS,
    V_TOTAL,
)
from .rules import _planes


@njit(cache=True, forceinline=True)  # into step_rows; the other callers: observe_row
def _observe(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (length OBS_DIM)."""
    P = _num_players(cfg)
    ph = s.f[b, F_PHASE]
    _planes(s.m[b, M_HAND + seat] if ph != PHASE_TRUMP else np.uint64(0), out, O_HAND)
    n = s.f[b, F_BANK_N]
    for i in range(O_BANK_OWNER, O_TAKEN):
        out[i] = 0.0
    for i in range(n):
        # owner blocks egocentric (the observer's first), then "no owner"; written card by card
        # into the zeroed blocks, faster than five one-hot planes of owner masks (docs/history.md)
        c = index_of(s.f[b, F_BANK + i])
        o = s.f[b, F_OWNER + i]
        k = 4 if o < 0 else seat_mod(o - seat, P)
        out[O_BANK_OWNER + 36 * k + c] = 1.0
        out[O_BANK_POS + c] = (i + 1) * (1.0 / 36.0)
    if n > 0:
        out[O_TOP + index_of(s.f[b, F_BANK + n - 1])] = 1.0
    _planes(_taken_all(s, b, cfg), out, O_TAKEN)
    mine = s.f[b, F_CURRENT] == seat
    _planes(s.m[b, M_DRAWN] if mine else np.uint64(0), out, O_DRAWN)
    _observe_numbers(s, b, cfg, seat, out)


@njit(cache=True, forceinline=True)
def _taken_all(s, b, cfg):
    taken = np.uint64(0)
    for p in range(_num_players(cfg)):
        taken |= s.m[b, M_TAKEN + p]
    return taken


@njit(cache=True, forceinline=True)
def _observe_numbers(s, b, cfg, seat, out):
    """The numeric blocks of the observation (from ``hand_size`` on).

    The seat loop indexes the state through unsigned seats (no negative-index wraparound for
    numba to add) and multiplies by the target's reciprocal, read once: a faster observation with
    the same float32 values (checked for every total and allowed target; measurements:
    ``docs/history.md``, "From the code")."""
    P = _num_players(cfg)
    ph = s.f[b, F_PHASE]
    clear(out, O_HAND_SIZE, OBS_DIM)
    per_target = 1.0 / cfg[C_TARGET_SCORE]
    for k in range(P):
        p = seat_mod(seat + k, P)
        if ph != PHASE_TRUMP:
            out[O_HAND_SIZE + k] = popcount(s.m[b, at(M_HAND, p)]) * (1.0 / 36.0)
        t = s.f[b, at(F_TRUMP, p)]
        out[O_TRUMPS + 5 * k + (t if t >= 0 else 4)] = 1.0
        out[O_OUT + k] = s.f[b, at(F_OUT, p)] * (1.0 / 3.0)
        out[O_BANK_POINTS + k] = s.v[b, at(V_BANK_POINTS, p)] * (1.0 / 124.0)
        out[O_BONUS + k] = min(s.v[b, at(V_BONUS, p)] * 0.01, 4.0)
        total = s.v[b, at(V_TOTAL, p)] * per_target
        out[O_TOTAL + k] = min(max(total, -20.0), 20.0)
        out[O_SITTING + k] = s.f[b, at(F_SITTING, p)]
        out[O_CONTENDER + k] = s.f[b, at(F_CONTENDER, p)]
        out[O_SEATS + k] = 1.0
    dealer = s.f[b, F_DEALER]
    if dealer >= 0:
        out[O_DEALER + seat_mod(dealer - seat, P)] = 1.0
    mine = s.f[b, F_CURRENT] == seat
    for suit in range(4):
        out[O_SUIT_CLASS + suit] = s.f[b, F_SUIT_CLASS + suit] * (1.0 / 2.0)
    mover = s.f[b, F_NEXT_MOVER] if ph == PHASE_INTERRUPT else s.f[b, F_CURRENT]
    if mover >= 0:
        out[O_MOVER + seat_mod(mover - seat, P)] = 1.0
    out[O_STOCK] = (NUM_CARDS - s.f[b, F_STOCK_POS]) * (1.0 / 36.0)
    out[O_PHASE + ph] = 1.0
    out[O_TO_ACT] = 1.0 if mine else 0.0
    if s.f[b, F_SEVEN] > 0 and ph != PHASE_INTERRUPT:
        out[O_SEVEN + s.f[b, F_SEVEN] - 1] = 1.0
    out[O_DRAWS] = s.f[b, F_DRAWS] / cfg[C_DRAWS_PER_FAILURE] if ph != PHASE_INTERRUPT else 0.0
    out[O_FAILS] = min(s.f[b, F_FAILS], 4) * (1.0 / 4.0)
    out[O_HAND_NO] = s.f[b, F_DEAL_NO] / cfg[C_MAX_HANDS]
