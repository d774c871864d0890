"""Banque's scoring (5): the going-out bonuses (5.3), the end of a hand with its card points
and penalties (5.1, 5.2), the match end and the tie-break (5.4), the next dealer (3.1) and the
end of the episode; rules: ``docs/games/banque.md``."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.bitmask import bit, lowest, popcount
from ...core.game import EPISODE_DEAL
from .beating import _num_players
from .config import (
    C_ALLOW_NEGATIVE_TOTALS,
    C_BONUSES_STACK,
    C_EPISODE,
    C_FINAL_BANK,
    C_FINISH_BONUS,
    C_FINISH_KING_EXTRA,
    C_FINISH_QUAD_NON_KING,
    C_FINISH_SEQUENCE_EXTRA,
    C_HAND_PENALTY,
    C_MAX_HANDS,
    C_NEXT_DEALER,
    C_PENALTY_FIXED,
    C_PENALTY_MODE,
    C_PENALTY_PER_CARD,
    C_TARGET_SCORE,
    C_WIN_TIE_BREAK,
    PEN_FIXED,
    PEN_PER_CARD,
    PEN_POINTS,
    PEN_POINTS_PLUS,
)
from .constants import KIND_QUAD, KIND_SEQ, PHASE_OVER, POINTS, RANK_K
from .deal import _shuffle_deck, _start_hand
from .layout import (
    F_BANK,
    F_BANK_N,
    F_CONTENDER,
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_ENDED_BY,
    F_LAST_OUT,
    F_LAST_PLAYER,
    F_OUT,
    F_OWNER,
    F_PHASE,
    F_SITTING,
    F_STARTER,
    F_TIEBREAK,
    F_WINNER,
    F_WINNERS,
    M_HAND,
    M_TAKEN,
    V_BANK_POINTS,
    V_BONUS,
    V_LAST_BANK_POINTS,
    V_LAST_BONUS,
    V_LAST_POINTS,
    V_PENALTY,
    V_TOTAL,
)


@njit(cache=True)
def _hand_points(mask):
    pts = 0
    x = mask
    while x != np.uint64(0):
        c = lowest(x)
        x &= x - np.uint64(1)
        pts += POINTS[c % 13]
    return pts


@njit(cache=True)
def _bonus(cfg, pos, kind, top):
    """Going-out bonus of finishing position ``pos`` (1..3) with play ``kind`` (5.3)."""
    sh = np.int64(10 * (pos - 1))
    parts = np.zeros(4, np.int64)
    parts[0] = (cfg[C_FINISH_BONUS] >> sh) & 1023
    if top % 13 == RANK_K:
        parts[1] = (cfg[C_FINISH_KING_EXTRA] >> sh) & 1023
    if kind == KIND_SEQ:
        parts[2] = (cfg[C_FINISH_SEQUENCE_EXTRA] >> sh) & 1023
    if kind == KIND_QUAD and top % 13 != RANK_K:
        parts[3] = cfg[C_FINISH_QUAD_NON_KING]
    if cfg[C_BONUSES_STACK]:
        return parts[0] + parts[1] + parts[2] + parts[3]
    return max(max(parts[0], parts[1]), max(parts[2], parts[3]))


@njit(cache=True)
def _end_hand(s, b, cfg, deadlock):
    """Score the hand (5), decide the match or deal the next hand (3.1, 5.4)."""
    P = _num_players(cfg)
    s.f[b, F_ENDED_BY] = deadlock
    n = s.f[b, F_BANK_N]
    if cfg[C_FINAL_BANK] and n > 0 and s.f[b, F_OWNER + n - 1] >= 0:
        owner = s.f[b, F_OWNER + n - 1]
        for i in range(n):
            c = s.f[b, F_BANK + i]
            s.m[b, M_TAKEN + owner] |= bit(c)
            s.v[b, V_BANK_POINTS + owner] += POINTS[c % 13]
        s.f[b, F_BANK_N] = 0
    dealer = s.f[b, F_DEALER]
    loser, loser_pts = -1, -1
    for k in range(1, P + 1):
        p = (dealer + k) % P
        if s.f[b, F_SITTING + p]:
            s.v[b, V_LAST_POINTS + p] = 0
            s.v[b, V_PENALTY + p] = 0
            s.v[b, V_LAST_BANK_POINTS + p] = 0
            s.v[b, V_LAST_BONUS + p] = 0
            s.f[b, F_LAST_OUT + p] = 0
            continue
        hand = s.m[b, M_HAND + p]
        pen = 0
        if hand != np.uint64(0):
            pts = _hand_points(hand)
            if pts > loser_pts:
                loser, loser_pts = p, pts
            if cfg[C_HAND_PENALTY]:
                mode = cfg[C_PENALTY_MODE]
                cards = popcount(hand)
                if mode == PEN_POINTS:
                    pen = pts
                elif mode == PEN_FIXED:
                    pen = cfg[C_PENALTY_FIXED]
                elif mode == PEN_PER_CARD:
                    pen = cfg[C_PENALTY_PER_CARD] * cards
                elif mode == PEN_POINTS_PLUS:
                    zero = 0
                    x = hand
                    while x != np.uint64(0):
                        c = lowest(x)
                        x &= x - np.uint64(1)
                        if POINTS[c % 13] == 0:
                            zero += 1
                    pen = pts + cfg[C_PENALTY_PER_CARD] * zero
                else:
                    pen = pts if pts > 0 else cfg[C_PENALTY_FIXED]
        s.v[b, V_LAST_BANK_POINTS + p] = s.v[b, V_BANK_POINTS + p]
        s.v[b, V_LAST_BONUS + p] = s.v[b, V_BONUS + p]
        s.f[b, F_LAST_OUT + p] = s.f[b, F_OUT + p]
        score = s.v[b, V_BANK_POINTS + p] + s.v[b, V_BONUS + p] - pen
        s.v[b, V_PENALTY + p] = pen
        s.v[b, V_LAST_POINTS + p] = score
        total = s.v[b, V_TOTAL + p] + score
        if not cfg[C_ALLOW_NEGATIVE_TOTALS] and total < 0:
            total = 0
        s.v[b, V_TOTAL + p] = min(total, 30000)
    if cfg[C_EPISODE] == EPISODE_DEAL:
        vals = np.zeros(P, np.int64)
        for p in range(P):
            vals[p] = s.v[b, V_LAST_POINTS + p]
        _game_over(s, b, cfg, vals, np.ones(P, np.int64))
        return
    # the match (5.4): checked at the end of each hand
    cand = np.zeros(P, np.int64)
    tb = s.f[b, F_TIEBREAK]
    reached = tb == 1
    for p in range(P):
        cand[p] = s.f[b, F_CONTENDER + p] if tb else 1
        if s.v[b, V_TOTAL + p] >= cfg[C_TARGET_SCORE]:
            reached = True
    vals = np.zeros(P, np.int64)
    for p in range(P):
        vals[p] = s.v[b, V_TOTAL + p]
    last = s.f[b, F_DEAL_NO] + 1 >= cfg[C_MAX_HANDS]
    if reached or last:
        best, n_best = -(1 << 30), 0
        for p in range(P):
            if cand[p]:
                if vals[p] > best:
                    best, n_best = vals[p], 1
                elif vals[p] == best:
                    n_best += 1
        if n_best == 1 or last:
            _game_over(s, b, cfg, vals, cand)
            return
        s.f[b, F_TIEBREAK] = 1  # equal highest totals: one more hand (5.4)
        for p in range(P):
            tied = cand[p] == 1 and vals[p] == best
            s.f[b, F_CONTENDER + p] = 1 if tied else 0
            s.f[b, F_SITTING + p] = 1 if (cfg[C_WIN_TIE_BREAK] and not tied) else 0
    # the next dealer (3.1)
    rule = cfg[C_NEXT_DEALER]
    nd = dealer
    if rule == 0:
        nd = loser if loser >= 0 else dealer
    elif rule == 1:
        nd = s.f[b, F_LAST_PLAYER] if s.f[b, F_LAST_PLAYER] >= 0 else dealer
    elif rule == 2:
        nd = s.f[b, F_STARTER]
    else:
        best = 0
        for k in range(1, P + 1):
            p = (dealer + k) % P
            t = s.v[b, V_TOTAL + p]
            if k == 1 or (rule == 3 and t > best) or (rule == 4 and t < best):
                nd, best = p, t
    s.f[b, F_DEALER] = nd
    s.f[b, F_DEAL_NO] += 1
    _shuffle_deck(s, b)
    _start_hand(s, b, cfg)


@njit(cache=True)
def _game_over(s, b, cfg, values, cand):
    """End the episode; the candidates with the highest ``values`` win (co-winners share)."""
    P = _num_players(cfg)
    best = -(1 << 30)
    for p in range(P):
        if cand[p]:
            best = max(best, values[p])
    n = 0
    for p in range(P):
        s.f[b, F_WINNERS + p] = 1 if (cand[p] and values[p] == best) else 0
        n += s.f[b, F_WINNERS + p]
    s.f[b, F_WINNER] = -1
    if n == 1:
        for p in range(P):
            if s.f[b, F_WINNERS + p]:
                s.f[b, F_WINNER] = p
    s.f[b, F_PHASE] = PHASE_OVER
    s.f[b, F_CURRENT] = -1
