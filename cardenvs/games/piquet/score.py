"""Two-handed Piquet's scoring events: points in hand (repique) and in play (pique) (2.6, with
Auction Piquet's thresholds, 3.2 item 8), the cards and capot (2.8), au cent's target (3.1, A13),
the deal's points added to the totals, and the end of the episode with its result (Rubicon 2.10,
au cent 3.1 b). Rules: ``docs/games/piquet.md``.
"""

from __future__ import annotations

from numba import njit

from ...core.game import EPISODE_DEAL
from .cards import _elder
from .config import (
    AU_CENT_END_IMMEDIATE,
    C_AU_CENT_END,
    C_DOUBLE_BELOW,
    C_EPISODE,
    C_GAME,
    C_PIQUE_MINUS,
    C_PIQUE_PLUS,
    C_REPIQUE_MINUS,
    C_REPIQUE_PLUS,
    C_RUBICON,
    C_TARGET,
    GAME_AU_CENT,
    GAME_AUCTION,
)
from .constants import BONUS_PIQUE, BONUS_REPIQUE, PHASE_OVER, PIQUE_AT, PIQUE_BONUS, REPIQUE_BONUS
from .layout import (
    F_BID,
    F_BONUS,
    F_CURRENT,
    F_PHASE,
    F_WINNER,
    V_DEAL_SCORE,
    V_LAST_POINTS,
    V_RESULT_POINTS,
    V_TOTAL,
)


@njit(cache=True)
def _score_hand(s, b, cfg, seat, pts):
    """Reckon ``pts`` in hand for ``seat``; 30 before the opponent scores → repique (2.6)."""
    if pts <= 0 or s.f[b, F_PHASE] == PHASE_OVER:
        return
    s.v[b, V_DEAL_SCORE + seat] += pts
    if (
        s.f[b, F_BONUS + 0] == 0
        and s.f[b, F_BONUS + 1] == 0
        and s.v[b, V_DEAL_SCORE + 1 - seat] == 0
        and s.v[b, V_DEAL_SCORE + seat] >= _threshold(s, b, cfg, True)
    ):
        s.v[b, V_DEAL_SCORE + seat] += REPIQUE_BONUS
        s.f[b, F_BONUS + seat] = BONUS_REPIQUE
    _check_target(s, b, cfg, seat)


@njit(cache=True)
def _elder_pique(s, b, cfg, elder, extra):
    """Elder at 30 in hand and play (+ ``extra``) before younger scores → pique (2.6)."""
    if (
        s.f[b, F_BONUS + 0] == 0
        and s.f[b, F_BONUS + 1] == 0
        and s.v[b, V_DEAL_SCORE + 1 - elder] == 0
        and s.v[b, V_DEAL_SCORE + elder] + extra >= _threshold(s, b, cfg, False)
    ):
        s.v[b, V_DEAL_SCORE + elder] += PIQUE_BONUS
        s.f[b, F_BONUS + elder] = BONUS_PIQUE
        _check_target(s, b, cfg, elder)


@njit(cache=True, forceinline=True)
def _threshold(s, b, cfg, repique):
    """30 (2.6); in Auction Piquet by the contract: plus 29 / 30, minus 21 / 21 (3.2 item 8)."""
    if cfg[C_GAME] != GAME_AUCTION:
        return PIQUE_AT
    minus = s.f[b, F_BID] >= 0 and s.f[b, F_BID] % 2 == 1
    if repique:
        return cfg[C_REPIQUE_MINUS] if minus else cfg[C_REPIQUE_PLUS]
    return cfg[C_PIQUE_MINUS] if minus else cfg[C_PIQUE_PLUS]


@njit(cache=True, forceinline=True)
def _score_play(s, b, cfg, seat, pts):
    """Score ``pts`` in play for ``seat``, checking elder's pique."""
    if pts <= 0 or s.f[b, F_PHASE] == PHASE_OVER:
        return
    s.v[b, V_DEAL_SCORE + seat] += pts
    elder = _elder(s, b)
    if seat == elder:
        _elder_pique(s, b, cfg, elder, 0)
    _check_target(s, b, cfg, seat)


@njit(cache=True)
def _score_end(s, b, cfg, seat, pts):
    """Score the cards or capot (after play: never toward pique, 2.6)."""
    if pts <= 0 or s.f[b, F_PHASE] == PHASE_OVER:
        return
    s.v[b, V_DEAL_SCORE + seat] += pts
    _check_target(s, b, cfg, seat)


@njit(cache=True, forceinline=True)
def _check_target(s, b, cfg, seat):
    """Au cent (3.1, A13): checked after every scoring event, in reckoning order; the first
    score to reach the target ends the game at once (the rest of the deal is not played)."""
    if (
        cfg[C_GAME] == GAME_AU_CENT
        and cfg[C_AU_CENT_END] == AU_CENT_END_IMMEDIATE
        and s.f[b, F_PHASE] != PHASE_OVER
        and s.v[b, V_TOTAL + seat] + s.v[b, V_DEAL_SCORE + seat] >= cfg[C_TARGET]
    ):
        _add_deal_to_totals(s, b, 1)
        _finish(s, b, cfg)


@njit(cache=True)
def _add_deal_to_totals(s, b, weight):
    for seat in range(2):
        s.v[b, V_LAST_POINTS + seat] = weight * s.v[b, V_DEAL_SCORE + seat]
        s.v[b, V_TOTAL + seat] += weight * s.v[b, V_DEAL_SCORE + seat]


@njit(cache=True, forceinline=True)
def _finish(s, b, cfg):
    """End the episode: by the deal's points (``episode="deal"``), else by the totals."""
    if cfg[C_EPISODE] == EPISODE_DEAL:
        _game_over(s, b, cfg, s.v[b, V_DEAL_SCORE + 0], s.v[b, V_DEAL_SCORE + 1], False)
    else:
        _game_over(s, b, cfg, s.v[b, V_TOTAL + 0], s.v[b, V_TOTAL + 1], True)


@njit(cache=True)
def partie_points(a, b, rubicon):
    """Rubicon result (2.10): (winner seat or -1, points won)."""
    if a == b:
        return -1, 0
    w, hi, lo = (0, a, b) if a > b else (1, b, a)
    if lo >= rubicon:
        return w, hi - lo + rubicon
    return w, hi + lo + rubicon


@njit(cache=True)
def au_cent_points(a, b, double_below):
    """Au cent result (3.1): (winner seat or -1, the difference, doubled if the loser has
    less than ``double_below``)."""
    if a == b:
        return -1, 0
    w, hi, lo = (0, a, b) if a > b else (1, b, a)
    return w, (hi - lo) * (2 if lo < double_below else 1)


@njit(cache=True)
def _game_over(s, b, cfg, a, c, partie):
    s.f[b, F_PHASE] = PHASE_OVER
    s.f[b, F_CURRENT] = -1
    if partie and cfg[C_GAME] == GAME_AU_CENT:
        w, pts = au_cent_points(a, c, cfg[C_DOUBLE_BELOW])
    elif partie:
        w, pts = partie_points(a, c, cfg[C_RUBICON])
    else:
        w = -1 if a == c else (0 if a > c else 1)
        pts = abs(a - c)
    s.f[b, F_WINNER] = w
    s.v[b, V_RESULT_POINTS] = pts
