"""Piquet normand and partnership Piquet's rule kernels (``piquet_normand-v0``,
``partnership_piquet-v0``): seats and sides, carte blanche and the declarations among three or
four hands, the deal, the normand dealer's exchange, trick play, the end of a deal and of the
game, the rewards, the legal actions and applying an action. The primitives are two-handed
Piquet's (``games.piquet.cards``; ``games.piquet.declare``: ``point_of``, ``sequences_of``,
``sets_of`` and the per-suit tables); nothing of the declaration or card logic is copied.

Rules: ``docs/games/piquet.md`` sections 2 (the base game), 3.3, 3.4, 4 (A21-A23) and 6.

Choices where the spec leaves things open (each on the page)
------------------------------------------------------------
- Carte blanche in both variants, holders reckoned from eldest, shown when play starts (3.3, 3.4).
- An equal best point (normand) or sequence between any two players cancels it for all (3.3, 3.4).
- Partnership point: by value from ``point_minimum``; a tie goes to the earlier speaker (A21, 3.3).
- Partnership point of two equal suits: the longer, then the first in S, H, D, C (3.3).
- Only outcomes, the winners' points and shown cards are public; losing calls are not (6.2).
- A trick the partner led scores no capture (3.3); the 10/20/40 never count toward pique (A11).
- Normand dealer: canonical discards, draws from the top, sees the talon cards he left (3.4, 6.1).
- Normand end: checked after each deal; the two left play on, the third packet dead (3.4).
- Partnership end: the higher side total at or over the target; equal totals play on (3.3).
- Safety bound: 120 deals; normand, the lowest total still in fails; else the higher wins (3.4).
- A deal's record ``points`` are each seat's side's, 0 for a normand player who is out (3.4).
- ``allow_sinking=True`` is refused: the declarations are always mechanical (A3).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....core import rng
from ....core.bitmask import action_in, bit, spread
from ....core.game import EPISODE_DEAL, REWARD_WIN
from ....core.seats import at, seat_mod
from ....core.step_args import config_tuple
from ..cards import _from_suit_bits, _local32, _suit_bits, card_of
from ..declare import _VALUE_KEY, point_of, sequences_of, sets_of
from .config import (
    C_CARTE_BLANCHE,
    C_EPISODE,
    C_HAND_SIZE,
    C_MODE,
    C_NORMAND_DEALER_EXCHANGE,
    C_NUM_SEATS,
    C_POINT_MINIMUM,
    C_REWARD,
    C_SET_RANKS,
    C_TARGET,
    CONFIG_SIZE,
)
from .constants import (
    ACTION_DISCARD,
    ACTION_PLAY,
    ACTION_STOP,
    BONUS_PIQUE,
    BONUS_REPIQUE,
    CARDS_BONUS,
    CARTE_BLANCHE,
    CAT_POINT,
    CAT_SEQUENCE,
    CAT_SETS,
    MAX_DEALS,
    MAX_SEATS,
    MODE_NORMAND,
    MODE_PARTNERSHIP,
    NORMAND_CAPOT,
    NORMAND_HAND,
    NORMAND_TALON,
    NUM_ACTIONS,
    NUM_CARDS,
    OUTCOME_EQUAL,
    OUTCOME_NONE,
    PARTNERSHIP_CAPOT,
    PARTNERSHIP_HAND,
    PARTNERSHIP_MAJORITY,
    PHASE_EXCHANGE,
    PHASE_OVER,
    PHASE_PLAY,
    PIQUE_AT,
    PIQUE_BONUS,
    REPIQUE_BONUS,
)
from .layout import (
    F_BEST,
    F_BEST_CARD,
    F_BONUS,
    F_CB,
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_DECK,
    F_DECL_WIN,
    F_FINISHED,
    F_LAST_DISC,
    F_LAST_TRICK,
    F_LED,
    F_NDISC,
    F_OUTCOME,
    F_PHASE,
    F_TALON_POS,
    F_TRICK_LEADER,
    F_TRICK_N,
    F_TRICKS,
    F_VOID,
    F_WINNER,
    M_DEALT,
    M_DISCARDS,
    M_EPISODE,
    M_HAND,
    M_KEY,
    M_LAST_TABLE,
    M_LEGAL,
    M_PLAYED,
    M_SEEN,
    M_SHOWN,
    M_TABLE,
    V_DEAL_SCORE,
    V_DECL_PTS,
    V_LAST_POINTS,
    V_TOTAL,
)


# --- seats and sides ---------------------------------------------------------------------------
@njit(cache=True, forceinline=True)
def _side(cfg, seat):
    """The side a seat scores for: his own (normand) or his partnership (seat % 2)."""
    return seat & 1 if cfg[C_MODE] == MODE_PARTNERSHIP else seat


@njit(cache=True, forceinline=True)
def _num_sides(cfg):
    return 2 if cfg[C_MODE] == MODE_PARTNERSHIP else cfg[C_NUM_SEATS]


@njit(cache=True, forceinline=True)
def _in_game(s, b, seat):
    """The seat (``>= 0``) still plays (normand: has not reached the target and dropped out)."""
    return s.f[b, at(F_FINISHED, seat)] == 0


@njit(cache=True, forceinline=True)
def _next_in_game(s, b, cfg, seat):
    """The next seat to the left of ``seat`` still in the game (play and deal go clockwise)."""
    p = cfg[C_NUM_SEATS]
    for k in range(1, p + 1):
        t = seat_mod(seat + k, p)
        if _in_game(s, b, t):
            return t
    return seat


@njit(cache=True, forceinline=True)
def _players(s, b, cfg):
    n = 0
    for seat in range(cfg[C_NUM_SEATS]):
        if _in_game(s, b, seat):
            n += 1
    return n


@njit(cache=True, forceinline=True)
def _has_face(mask):
    # K, Q, J are piquet ranks 4, 5, 6 in every suit (carte blanche, 2.3)
    for suit in range(4):
        if _suit_bits(mask, suit) & 0x70:
            return True
    return False


# --- declarations (2.5, 3.3, 3.4) --------------------------------------------------------------
@njit(cache=True)
def point_by_value(mask):
    """Best point of a hand by pip total (3.3, A21): (value, cards, suit); equal values: the
    longer suit, then the lower suit index (one table lookup per suit: ``rules._suit_tables``)."""
    best_key, best_s = 0, -1
    for suit in range(4):
        key = _VALUE_KEY[_suit_bits(mask, suit)]  # value * 16 + cards
        if key > best_key:
            best_key, best_s = key, suit
    return best_key >> 4, best_key & 15, best_s


@njit(cache=True)
def _score_hand(s, b, cfg, side, pts):
    """Reckon ``pts`` in hand for ``side``; 20 before any other side scores → 90 (repique)."""
    if pts <= 0:
        return
    s.v[b, V_DEAL_SCORE + side] += pts
    _bonus(s, b, cfg, side, REPIQUE_BONUS, BONUS_REPIQUE)


@njit(cache=True, forceinline=True)
def _score_play(s, b, cfg, side, pts):
    """Score ``pts`` in play for ``side``; 20 in hand and play before any other side scores →
    60 (pique, any side, A23)."""
    if pts <= 0:
        return
    s.v[b, V_DEAL_SCORE + side] += pts
    _bonus(s, b, cfg, side, PIQUE_BONUS, BONUS_PIQUE)


@njit(cache=True)
def _bonus(s, b, cfg, side, amount, code):
    if s.v[b, V_DEAL_SCORE + side] < PIQUE_AT:
        return
    for t in range(_num_sides(cfg)):
        if s.f[b, F_BONUS + t] != 0 or (t != side and s.v[b, V_DEAL_SCORE + t] != 0):
            return
    s.v[b, V_DEAL_SCORE + side] += amount
    s.f[b, F_BONUS + side] = code


@njit(cache=True)
def _point_key(s, b, cfg, seat):
    """(comparison key or -1 if he cannot announce, points, suit) of a seat's point."""
    hand = s.m[b, M_HAND + seat]
    if cfg[C_MODE] == MODE_PARTNERSHIP:
        v, n, suit = point_by_value(hand)
        if v < cfg[C_POINT_MINIMUM] or n == 0:
            return -1, 0, suit
        return v, n, suit
    n, v, suit, score = point_of(hand, False)
    if n == 0:
        return -1, 0, suit
    return n * 256 + v, score, suit


@njit(cache=True)
def _declare(s, b, cfg):
    """Resolve the three categories among the seats in the game, reckoned in the order point,
    sequences, sets; speakers from eldest round. Writes ``decl_win``, ``decl_pts``, ``shown`` and
    the deal scores (2.5, 3.3, 3.4)."""
    p = cfg[C_NUM_SEATS]
    dealer = s.f[b, F_DEALER]
    partnership = cfg[C_MODE] == MODE_PARTNERSHIP
    # point: normand by cards then value, equal best cancels; partnership by value from the
    # minimum, a player speaks only with a higher point (the earlier speaker keeps a tie)
    best, w, pts, wsuit, equal = -1, -1, 0, -1, False
    for k in range(1, p + 1):
        seat = (dealer + k) % p
        if not _in_game(s, b, seat):
            continue
        key, sc, suit = _point_key(s, b, cfg, seat)
        if key > best:
            best, w, pts, wsuit, equal = key, seat, sc, suit, False
        elif key == best and key >= 0 and not partnership:
            equal = True
    if best < 0:
        s.f[b, F_DECL_WIN + CAT_POINT] = OUTCOME_NONE
    elif equal:
        s.f[b, F_DECL_WIN + CAT_POINT] = OUTCOME_EQUAL
        for seat in range(p):
            if _in_game(s, b, seat):
                key, sc, suit = _point_key(s, b, cfg, seat)
                if key == best:
                    s.m[b, M_SHOWN + seat] |= s.m[b, M_HAND + seat] & _from_suit_bits(0xFF, suit)
    else:
        s.f[b, F_DECL_WIN + CAT_POINT] = w
        s.m[b, M_SHOWN + w] |= s.m[b, M_HAND + w] & _from_suit_bits(0xFF, wsuit)
        s.v[b, V_DECL_PTS + CAT_POINT] = pts
        _score_hand(s, b, cfg, _side(cfg, w), pts)
    # sequences: length, then top card; the best scores all his; an equal best cancels all
    best, w, equal = -1, -1, False
    for k in range(1, p + 1):
        seat = (dealer + k) % p
        if not _in_game(s, b, seat):
            continue
        ln, top, tot, cards, bcards = sequences_of(s.m[b, M_HAND + seat])
        key = ln * 8 + top if ln >= 3 else -1
        if key > best:
            best, w, equal = key, seat, False
        elif key == best and key >= 0:
            equal = True
    if best < 0:
        s.f[b, F_DECL_WIN + CAT_SEQUENCE] = OUTCOME_NONE
    elif equal:
        s.f[b, F_DECL_WIN + CAT_SEQUENCE] = OUTCOME_EQUAL
        for seat in range(p):
            if _in_game(s, b, seat):
                ln, top, tot, cards, bcards = sequences_of(s.m[b, M_HAND + seat])
                if ln >= 3 and ln * 8 + top == best:
                    s.m[b, M_SHOWN + seat] |= bcards
    else:
        ln, top, tot, cards, bcards = sequences_of(s.m[b, M_HAND + w])
        s.f[b, F_DECL_WIN + CAT_SEQUENCE] = w
        s.m[b, M_SHOWN + w] |= cards
        s.v[b, V_DECL_PTS + CAT_SEQUENCE] = tot
        _score_hand(s, b, cfg, _side(cfg, w), tot)
    # sets: a quatorze beats a trio, then the rank; no equality is possible
    best, w = -1, -1
    for k in range(1, p + 1):
        seat = (dealer + k) % p
        if not _in_game(s, b, seat):
            continue
        n, r, tot, cards = sets_of(s.m[b, M_HAND + seat], cfg[C_SET_RANKS])
        key = n * 8 + r if n >= 3 else -1
        if key > best:
            best, w = key, seat
    if best < 0:
        s.f[b, F_DECL_WIN + CAT_SETS] = OUTCOME_NONE
    else:
        n, r, tot, cards = sets_of(s.m[b, M_HAND + w], cfg[C_SET_RANKS])
        s.f[b, F_DECL_WIN + CAT_SETS] = w
        s.m[b, M_SHOWN + w] |= cards
        s.v[b, V_DECL_PTS + CAT_SETS] = tot
        _score_hand(s, b, cfg, _side(cfg, w), tot)


# --- deal flow ---------------------------------------------------------------------------------
@njit(cache=True)
def _deal(s, b, cfg, dealer):
    """Deal the row's deck: packets in seat order from the dealer's left, then the talon; the
    packet of a normand player who is out is set aside unseen."""
    p, h = cfg[C_NUM_SEATS], cfg[C_HAND_SIZE]
    s.f[b, F_DEALER] = dealer
    for k in range(p):
        seat = (dealer + 1 + k) % p
        m = np.uint64(0)
        if _in_game(s, b, seat):
            for i in range(h):
                m |= bit(s.f[b, F_DECK + k * h + i])
        s.m[b, M_HAND + seat] = m
        s.m[b, M_DEALT + seat] = m
        s.f[b, F_CB + seat] = (
            1 if (cfg[C_CARTE_BLANCHE] and m != np.uint64(0) and not _has_face(m)) else 0
        )
    for seat in range(MAX_SEATS):
        s.m[b, M_SHOWN + seat] = 0
        s.m[b, M_PLAYED + seat] = 0
        s.f[b, F_TRICKS + seat] = 0
        s.f[b, F_VOID + seat] = 0
        s.f[b, F_BONUS + seat] = 0
        s.v[b, V_DEAL_SCORE + seat] = 0
        if seat >= p:
            s.m[b, M_HAND + seat] = 0
            s.m[b, M_DEALT + seat] = 0
            s.f[b, F_CB + seat] = 0
    for c in range(3):
        s.f[b, F_DECL_WIN + c] = OUTCOME_NONE
        s.v[b, V_DECL_PTS + c] = 0
    s.m[b, M_DISCARDS] = 0
    s.m[b, M_SEEN] = 0
    s.m[b, M_TABLE] = 0
    s.m[b, M_LAST_TABLE] = 0
    s.f[b, F_LAST_TRICK] = -1
    s.f[b, F_LAST_TRICK + 1] = -1
    s.f[b, F_NDISC] = 0
    s.f[b, F_LAST_DISC] = -1
    s.f[b, F_TALON_POS] = 0
    s.f[b, F_TRICK_N] = 0
    s.f[b, F_LED] = -1
    s.f[b, F_BEST] = -1
    s.f[b, F_BEST_CARD] = -1
    s.f[b, F_TRICK_LEADER] = _next_in_game(s, b, cfg, dealer)
    if cfg[C_MODE] == MODE_NORMAND:
        s.f[b, F_PHASE] = PHASE_EXCHANGE  # only the dealer exchanges (3.4)
        s.f[b, F_CURRENT] = dealer
    else:
        _start_play(s, b, cfg)  # no talon, no exchange (3.3)


@njit(cache=True, forceinline=True)
def _carte_blanche_and_declarations(s, b, cfg):
    """Carte blanche (shown and scored from the dealer's left, 2.3), then the declarations
    (2.5)."""
    p = cfg[C_NUM_SEATS]
    dealer = s.f[b, F_DEALER]
    for k in range(1, p + 1):
        seat = (dealer + k) % p
        if s.f[b, F_CB + seat]:
            s.m[b, M_SHOWN + seat] |= s.m[b, M_DEALT + seat]
            _score_hand(s, b, cfg, _side(cfg, seat), CARTE_BLANCHE)
    _declare(s, b, cfg)


@njit(cache=True)
def _start_play(s, b, cfg):
    """Carte blanche, then the declarations, then eldest leads (2.3, 2.5, 2.7)."""
    _carte_blanche_and_declarations(s, b, cfg)
    s.f[b, F_PHASE] = PHASE_PLAY
    eldest = _next_in_game(s, b, cfg, s.f[b, F_DEALER])
    s.f[b, F_CURRENT] = eldest
    s.f[b, F_TRICK_LEADER] = eldest


@njit(cache=True)
def _shuffled_deck(s, b):
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], s.f[b, F_DEAL_NO])
    for i in range(NUM_CARDS):
        s.f[b, F_DECK + i] = card_of(i)
    rng.shuffle(base, s.f[b, F_DECK : F_DECK + NUM_CARDS])


@njit(cache=True)
def _reset(s, b, cfg, key, episode, deck, dealer):
    """Start a game in row ``b`` (``deck[0] < 0``: shuffle; ``dealer < 0``: draw)."""
    s.m[b, M_KEY] = key
    s.m[b, M_EPISODE] = episode
    s.f[b, F_DEAL_NO] = 0
    for seat in range(MAX_SEATS):
        s.v[b, V_TOTAL + seat] = 0
        s.v[b, V_LAST_POINTS + seat] = 0
        s.f[b, F_FINISHED + seat] = 0
        s.f[b, F_OUTCOME + seat] = 0
    s.f[b, F_WINNER] = -1
    if deck[0] < 0:
        _shuffled_deck(s, b)
    else:
        for i in range(NUM_CARDS):
            s.f[b, F_DECK + i] = deck[i]
    if dealer < 0:
        dealer = rng.draw(rng.stream(key, episode, MAX_DEALS), 0, cfg[C_NUM_SEATS])
    _deal(s, b, cfg, dealer)


@njit(cache=True)
def _finish_exchange(s, b, cfg):
    """The dealer takes as many talon cards as he discarded, from the top, and sees the rest
    (3.4); then play starts."""
    dealer = s.f[b, F_DEALER]
    k = s.f[b, F_NDISC]
    top = cfg[C_NUM_SEATS] * cfg[C_HAND_SIZE]
    for i in range(NORMAND_TALON):
        c = bit(s.f[b, F_DECK + top + i])
        if i < k:
            s.m[b, M_HAND + dealer] |= c
        else:
            s.m[b, M_SEEN] |= c
    s.f[b, F_TALON_POS] = k
    _start_play(s, b, cfg)


@njit(cache=True, forceinline=True)
def _play(s, b, cfg, card):
    seat = s.f[b, F_CURRENT]
    s.m[b, M_HAND + seat] &= ~bit(card)
    s.m[b, M_PLAYED + seat] |= bit(card)
    s.m[b, M_TABLE] |= bit(card)
    if s.f[b, F_TRICK_N] == 0:
        s.f[b, F_LED] = card
        s.f[b, F_BEST] = seat
        s.f[b, F_BEST_CARD] = card
        s.f[b, F_TRICK_LEADER] = seat
        _score_play(s, b, cfg, _side(cfg, seat), 1)  # 1 for the card led (2.8)
    elif card // 13 != s.f[b, F_LED] // 13:
        s.f[b, F_VOID + seat] |= 1 << (s.f[b, F_LED] // 13)  # he cannot follow: void (2.7)
    elif card % 13 > s.f[b, F_BEST_CARD] % 13:
        # the highest card of the led suit wins (2.7)
        s.f[b, F_BEST] = seat
        s.f[b, F_BEST_CARD] = card
    s.f[b, F_TRICK_N] += 1
    if s.f[b, F_TRICK_N] < _players(s, b, cfg):
        s.f[b, F_CURRENT] = _next_in_game(s, b, cfg, seat)
        return
    w = np.int64(s.f[b, F_BEST])
    leader = np.int64(s.f[b, F_TRICK_LEADER])
    if _side(cfg, w) != _side(cfg, leader):
        _score_play(s, b, cfg, _side(cfg, w), 1)  # winning a trick an opponent led (2.8)
    s.f[b, F_TRICKS + w] += 1
    s.m[b, M_LAST_TABLE] = s.m[b, M_TABLE]  # kept for the scene (core.scene), read by no rule
    s.f[b, F_LAST_TRICK] = leader
    s.f[b, F_LAST_TRICK + 1] = w
    s.f[b, F_TRICK_N] = 0
    s.f[b, F_LED] = -1
    s.f[b, F_BEST] = -1
    s.f[b, F_BEST_CARD] = -1
    s.m[b, M_TABLE] = 0
    done = 0
    for t in range(cfg[C_NUM_SEATS]):
        done += s.f[b, F_TRICKS + t]
    if done == cfg[C_HAND_SIZE]:
        _score_play(s, b, cfg, _side(cfg, w), 1)  # the last trick (2.8)
        _end_deal(s, b, cfg)
        return
    s.f[b, F_CURRENT] = w
    s.f[b, F_TRICK_LEADER] = w


@njit(cache=True)
def _end_deal(s, b, cfg):
    """The cards / capot, the totals, then the next deal or the end (3.3, 3.4)."""
    p, h = cfg[C_NUM_SEATS], cfg[C_HAND_SIZE]
    if cfg[C_MODE] == MODE_NORMAND:
        # a strict plurality of the 10 tricks scores 10, all 10 (capot) 20; a tie nothing (A22)
        most, who, ties = -1, -1, 0
        for seat in range(p):
            t = s.f[b, F_TRICKS + seat]
            if t > most:
                most, who, ties = t, seat, 1
            elif t == most:
                ties += 1
        if ties == 1:
            s.v[b, V_DEAL_SCORE + who] += NORMAND_CAPOT if most == h else CARDS_BONUS
    else:
        # pooled tricks: 5-7 score 10 for the side, all 8 (capot) 40 (3.3)
        for side in range(2):
            t = s.f[b, F_TRICKS + side] + s.f[b, F_TRICKS + side + 2]
            if t == h:
                s.v[b, V_DEAL_SCORE + side] += PARTNERSHIP_CAPOT
            elif t >= PARTNERSHIP_MAJORITY:
                s.v[b, V_DEAL_SCORE + side] += CARDS_BONUS
    for side in range(_num_sides(cfg)):
        s.v[b, V_TOTAL + side] += s.v[b, V_DEAL_SCORE + side]
    for seat in range(MAX_SEATS):
        s.v[b, V_LAST_POINTS + seat] = 0
        if seat < p and _in_game(s, b, seat):
            s.v[b, V_LAST_POINTS + seat] = s.v[b, V_DEAL_SCORE + _side(cfg, seat)]
    played = s.f[b, F_DEAL_NO] + 1
    if cfg[C_EPISODE] == EPISODE_DEAL:
        _outcome_by(s, b, cfg, V_DEAL_SCORE)
        return
    if cfg[C_MODE] == MODE_PARTNERSHIP:
        t0, t1 = s.v[b, V_TOTAL], s.v[b, V_TOTAL + 1]
        if (max(t0, t1) >= cfg[C_TARGET] and t0 != t1) or played >= MAX_DEALS:
            _outcome_by(s, b, cfg, V_TOTAL)
            return
    else:
        # who has reached the target drops out; the game goes on while two still play (3.4)
        for seat in range(p):
            if _in_game(s, b, seat) and s.v[b, V_TOTAL + seat] >= cfg[C_TARGET]:
                s.f[b, F_FINISHED + seat] = played
        left = _players(s, b, cfg)
        if left <= 1 or played >= MAX_DEALS:
            _normand_outcome(s, b, cfg, played, left)
            return
    s.f[b, F_DEAL_NO] = played
    _shuffled_deck(s, b)
    _deal(s, b, cfg, _next_in_game(s, b, cfg, s.f[b, F_DEALER]))


@njit(cache=True)
def _outcome_by(s, b, cfg, off):
    """End the game: the seats whose side has the highest ``v[off + side]`` win, the others
    lose; all equal: a draw."""
    p = cfg[C_NUM_SEATS]
    top = -32768
    for seat in range(p):
        top = max(top, np.int64(s.v[b, off + _side(cfg, seat)]))
    n_win = 0
    for seat in range(p):
        win = s.v[b, off + _side(cfg, seat)] == top
        s.f[b, F_OUTCOME + seat] = 1 if win else -1
        n_win += 1 if win else 0
    if n_win == p:
        for seat in range(p):
            s.f[b, F_OUTCOME + seat] = 0
    _game_over(s, b, cfg)


@njit(cache=True)
def _normand_outcome(s, b, cfg, played, left):
    """Normand end (3.4): the player who failed to reach the target pays both winners. When
    the last reach it in the same deal, the lowest total among them fails (equal: together)."""
    p = cfg[C_NUM_SEATS]
    # the candidates to fail: those still in (one, or more at the deal bound), else those who
    # finished in this very deal
    low = 32767
    for seat in range(p):
        cand = s.f[b, F_FINISHED + seat] == 0 if left >= 1 else s.f[b, F_FINISHED + seat] == played
        if cand:
            low = min(low, np.int64(s.v[b, V_TOTAL + seat]))
    n_lose = 0
    for seat in range(p):
        cand = s.f[b, F_FINISHED + seat] == 0 if left >= 1 else s.f[b, F_FINISHED + seat] == played
        lose = cand and s.v[b, V_TOTAL + seat] == low
        s.f[b, F_OUTCOME + seat] = -1 if lose else 1
        n_lose += 1 if lose else 0
    if n_lose == p:
        for seat in range(p):
            s.f[b, F_OUTCOME + seat] = 0
    _game_over(s, b, cfg)


@njit(cache=True)
def _game_over(s, b, cfg):
    """Phase over; ``winner``: partnership the winning side; normand the first winner to have
    finished (then the higher total, then the lower seat); -1 for a draw."""
    s.f[b, F_PHASE] = PHASE_OVER
    s.f[b, F_CURRENT] = -1
    w = -1
    for seat in range(cfg[C_NUM_SEATS]):
        if s.f[b, F_OUTCOME + seat] != 1:
            continue
        if w < 0:
            w = seat
            continue
        fw, fs = s.f[b, F_FINISHED + w], s.f[b, F_FINISHED + seat]
        fw = 127 if fw == 0 else fw
        fs = 127 if fs == 0 else fs
        if fs < fw or (fs == fw and s.v[b, V_TOTAL + seat] > s.v[b, V_TOTAL + w]):
            w = seat
    if w >= 0 and cfg[C_MODE] == MODE_PARTNERSHIP:
        w = w & 1
    s.f[b, F_WINNER] = w


@njit(cache=True)
def _write_rewards(s, b, cfg, out):
    """Zero-sum rewards of a finished episode (see the reward table): the losers pay each
    winner 1 (``"win"``) or his lead over their mean (``"score"``), sharing the payment."""
    p = cfg[C_NUM_SEATS]
    off = V_DEAL_SCORE if cfg[C_EPISODE] == EPISODE_DEAL else V_TOTAL
    n_win, n_lose, lose_sum = 0, 0, 0.0
    for seat in range(p):
        o = s.f[b, F_OUTCOME + seat]
        if o == 1:
            n_win += 1
        elif o == -1:
            n_lose += 1
            lose_sum += s.v[b, off + _side(cfg, seat)]
    for seat in range(p):
        out[seat] = 0.0
    if n_win == 0 or n_lose == 0:
        return
    lose_mean = lose_sum / n_lose
    paid = 0.0
    for seat in range(p):
        if s.f[b, F_OUTCOME + seat] == 1:
            pay = 1.0 if cfg[C_REWARD] == REWARD_WIN else s.v[b, off + _side(cfg, seat)] - lose_mean
            out[seat] = pay
            paid += pay
    for seat in range(p):
        if s.f[b, F_OUTCOME + seat] == -1:
            out[seat] = -paid / n_lose


# --- legal actions, step, observation ----------------------------------------------------------
@njit(cache=True, forceinline=True)
def _legal_sets(s, b, cfg):
    """Legal actions of the seat to act: (discard card set, play card set, stop legal)."""
    ph = s.f[b, F_PHASE]
    if ph == PHASE_OVER:
        return 0, 0, 0
    seat = s.f[b, F_CURRENT]
    hand = s.m[b, M_HAND + seat]
    if ph == PHASE_EXCHANGE:
        disc = 0
        if s.f[b, F_NDISC] < NORMAND_TALON:
            # canonical order: only cards above the last discard (6.1)
            disc = _local32(hand) & ~((np.int64(1) << (s.f[b, F_LAST_DISC] + 1)) - 1)
            if s.f[b, F_NDISC] + 1 < cfg[C_NORMAND_DEALER_EXCHANGE]:
                # a forced second discard must find a card above this one: not the highest
                for i in range(31, -1, -1):
                    if (disc >> i) & 1:
                        disc &= ~(np.int64(1) << i)
                        break
        return disc, 0, 1 if s.f[b, F_NDISC] >= cfg[C_NORMAND_DEALER_EXCHANGE] else 0
    led = s.f[b, F_LED]
    if led >= 0:
        follow = hand & _from_suit_bits(0xFF, led // 13)
        if follow != np.uint64(0):
            hand = follow  # must follow suit if able (2.7)
    return 0, _local32(hand), 0


@njit(cache=True, forceinline=True)  # into step_rows; the other callers: legal_row
def _legal(s, b, cfg, out):
    """Write the legal-action mask of the seat to act into ``out`` (all zero when over) and keep
    it in the state (``legal``, read by ``_is_legal``)."""
    disc, play, stop = _legal_sets(s, b, cfg)
    s.m[b, M_LEGAL] = np.uint64(disc) | (np.uint64(play) << np.uint64(ACTION_PLAY))
    s.m[b, M_LEGAL + 1] = np.uint64(stop)
    spread(disc, 32, out, ACTION_DISCARD)
    spread(play, 32, out, ACTION_PLAY)
    out[ACTION_STOP] = stop


@njit(cache=True, forceinline=True)
def _is_legal(s, b, cfg, a):
    """Is action ``a`` legal for the seat to act (the set ``_legal`` last wrote)?"""
    return action_in(s.m[b, M_LEGAL], s.m[b, M_LEGAL + 1], a, NUM_ACTIONS)


@njit(cache=True, inline="always")
def _apply(s, b, cfg, a):
    """Apply legal action ``a`` of the seat to act."""
    if s.f[b, F_PHASE] == PHASE_EXCHANGE:
        if a == ACTION_STOP:
            _finish_exchange(s, b, cfg)
            return
        card = card_of(a - ACTION_DISCARD)
        dealer = s.f[b, F_DEALER]
        s.m[b, M_HAND + dealer] &= ~bit(card)
        s.m[b, M_DISCARDS] |= bit(card)
        s.f[b, F_NDISC] += 1
        s.f[b, F_LAST_DISC] = a - ACTION_DISCARD
        if s.f[b, F_NDISC] >= NORMAND_TALON:
            _finish_exchange(s, b, cfg)
    else:
        _play(s, b, cfg, card_of(a - ACTION_PLAY))


# The config vector's fields that each id fixes (``config.MultiKernelOptions``, ``FIXED``): every
# id has its own step kernel in which they are constants (``specialise``).
assert (C_EPISODE, C_REWARD, C_MODE, C_NUM_SEATS, C_HAND_SIZE, CONFIG_SIZE) == (0, 1, 2, 3, 4, 10)


# --- the step kernels (``core.kernel_template``: ``kernels.step_for``) -------------------------
# one step kernel per variant (``game_def`` hands each id the kernels; the config selects its own)
STEP_VALUES = (MODE_NORMAND, MODE_PARTNERSHIP)
STEP_INDEX = C_MODE
STEP_OPTION = None  # fixed by the id


@njit(cache=True, inline="always")
def specialise(cfg, mode):
    """``cfg`` as the step kernel of variant ``mode`` reads it: a tuple in which the variant's
    mode, seat count and hand size are constants (normand: 3 seats of 10 cards, partnership: 4
    of 8; ``to_array`` writes the same values); a config of the other variant raises
    ``ValueError``.

    The kernels index the config with constant positions, so they read a tuple as they read the
    array; inlined into a step kernel that passes ``mode`` as a constant, every seat loop has a
    known trip count and every mode test is decided at compile time, and the config's values stay
    in registers (``core.step_args.fixed_config``): a faster step with the same outputs
    (measurements: ``docs/history.md``, "From the code")."""
    seats = 4 if mode == MODE_PARTNERSHIP else 3
    hand = PARTNERSHIP_HAND if mode == MODE_PARTNERSHIP else NORMAND_HAND
    if cfg[C_MODE] != mode or cfg[C_NUM_SEATS] != seats or cfg[C_HAND_SIZE] != hand:
        if mode == MODE_PARTNERSHIP:
            raise ValueError("this step kernel needs a partnership Piquet config")
        raise ValueError("this step kernel needs a Piquet normand config (NormandConfig)")
    return (cfg[0], cfg[1], mode, seats, hand, cfg[5], cfg[6], cfg[7], cfg[8], cfg[9])


@njit(cache=True, inline="always")
def general(cfg):
    """The config as the kernels other than the step read it: a tuple of the type ``specialise``
    gives, every value read from the array (``core.step_args.config_tuple``), so that the helpers
    both call compile once."""
    return config_tuple(cfg, CONFIG_SIZE)


@njit(cache=True)
def declare_row(s, b, cfg):
    """Run carte blanche and the declarations of row ``b`` (for the rules helper)."""
    _carte_blanche_and_declarations(s, b, cfg)
