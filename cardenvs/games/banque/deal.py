"""Banque's hands (3): the seats taking part and still holding cards, the shuffle, the deal
and the trump arrangement (3.2, 3.3), and who moves first (3.4); rules:
``docs/games/banque.md``."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core import rng
from ...core.bitmask import bit, lowest
from ...core.seats import seat_mod
from .beating import _num_players, _rank_mask, card_of
from .config import (
    C_CENTRE_CARD,
    C_COMMON_TRUMPS,
    C_EIGHTS_WILD,
    C_HAND_SIZE,
    C_TRUMP_ASSIGNMENT,
    C_TRUMP_OPTION,
    TRUMP_ASSIGNMENT_CHOOSE_IN_TURN,
    TRUMP_ASSIGNMENT_RANDOM,
)
from .constants import MAX_SEATS, NUM_CARDS, ORDER, PHASE_PLAY, PHASE_TRUMP, RANK_8
from .layout import (
    F_BANK,
    F_BANK_N,
    F_BASE_PREV,
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_DECK,
    F_DRAWS,
    F_FAILS,
    F_FOLLOW,
    F_LAST_PLAYER,
    F_N_OUT,
    F_NEXT_MOVER,
    F_OUT,
    F_OWNER,
    F_PHASE,
    F_SEVEN,
    F_SEVEN_NEXT,
    F_SITTING,
    F_STARTER,
    F_STOCK_POS,
    F_SUIT_CLASS,
    F_TRUMP,
    M_DRAWN,
    M_EPISODE,
    M_HAND,
    M_KEY,
    M_TAKEN,
    V_BANK_POINTS,
    V_BONUS,
)


# --- hands -------------------------------------------------------------------------------------
@njit(cache=True)
def _shuffle_deck(s, b):
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], s.f[b, F_DEAL_NO])
    for i in range(NUM_CARDS):
        s.f[b, F_DECK + i] = card_of(i)
    rng.shuffle(base, s.f[b, F_DECK : F_DECK + NUM_CARDS])


@njit(cache=True, forceinline=True)
def _in_hand(s, b, p):
    """Is seat ``p`` taking part in this hand and still holding cards?"""
    return s.f[b, F_SITTING + p] == 0 and s.m[b, M_HAND + p] != np.uint64(0)


@njit(cache=True, forceinline=True)
def _holders(s, b, cfg):
    n = 0
    for p in range(_num_players(cfg)):
        if _in_hand(s, b, p):
            n += 1
    return n


@njit(cache=True, forceinline=True)
def _next_holder(s, b, cfg, seat):
    """The next seat clockwise after ``seat`` still holding cards (``seat`` itself if none)."""
    P = _num_players(cfg)
    for k in range(1, P + 1):
        p = seat_mod(seat + k, P)
        if _in_hand(s, b, p):
            return p
    return seat


@njit(cache=True, forceinline=True)
def _first_participant(s, b, cfg):
    """The first seat clockwise from the dealer's left taking part in the hand."""
    P = _num_players(cfg)
    for k in range(1, P + 1):
        p = seat_mod(s.f[b, F_DEALER] + k, P)
        if s.f[b, F_SITTING + p] == 0:
            return p
    return seat_mod(s.f[b, F_DEALER] + 1, P)


@njit(cache=True)
def _start_hand(s, b, cfg):
    """Deal the row's deck (3.3): ``hand_size`` cards to each player from the dealer's left,
    the centre card, the rest as the stock; fix the trump arrangement (3.2)."""
    P = _num_players(cfg)
    h = cfg[C_HAND_SIZE]
    for p in range(MAX_SEATS):
        s.m[b, M_HAND + p] = 0
        s.m[b, M_TAKEN + p] = 0
        s.v[b, V_BANK_POINTS + p] = 0
        s.v[b, V_BONUS + p] = 0
        s.f[b, F_TRUMP + p] = -1
        s.f[b, F_SUIT_CLASS + p] = 0
        s.f[b, F_OUT + p] = 0
    s.m[b, M_DRAWN] = 0
    k = 0
    for i in range(1, P + 1):
        seat = (s.f[b, F_DEALER] + i) % P
        if s.f[b, F_SITTING + seat]:
            continue
        for _ in range(h):
            s.m[b, M_HAND + seat] |= bit(s.f[b, F_DECK + k])
            k += 1
    s.f[b, F_BANK_N] = 0
    if cfg[C_CENTRE_CARD]:
        s.f[b, F_BANK] = s.f[b, F_DECK + k]
        s.f[b, F_OWNER] = -1  # the centre card belongs to nobody
        s.f[b, F_BANK_N] = 1
        k += 1
    s.f[b, F_STOCK_POS] = k
    s.f[b, F_BASE_PREV] = -1
    s.f[b, F_N_OUT] = 0
    s.f[b, F_SEVEN] = 0
    s.f[b, F_SEVEN_NEXT] = 0
    s.f[b, F_DRAWS] = 0
    s.f[b, F_FAILS] = 0
    s.f[b, F_FOLLOW] = 0
    s.f[b, F_LAST_PLAYER] = -1
    s.f[b, F_NEXT_MOVER] = -1
    opt = cfg[C_TRUMP_OPTION]
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], 1000 + s.f[b, F_DEAL_NO])
    choose = False
    if opt == 1:
        if cfg[C_TRUMP_ASSIGNMENT] == TRUMP_ASSIGNMENT_CHOOSE_IN_TURN:
            choose = True
        elif cfg[C_TRUMP_ASSIGNMENT] == TRUMP_ASSIGNMENT_RANDOM:
            suits = np.arange(4, dtype=np.int8)
            rng.shuffle(base, suits)
            for p in range(P):
                s.f[b, F_TRUMP + p] = suits[p]
        else:
            for p in range(P):
                s.f[b, F_TRUMP + p] = p
    elif opt == 3 or opt == 4:
        common = cfg[C_COMMON_TRUMPS]
        if common == 0:
            suits = np.arange(4, dtype=np.int8)
            rng.shuffle(base, suits)
            for j in range(opt - 2):
                common |= 1 << suits[j]
        for suit in range(4):
            s.f[b, F_SUIT_CLASS + suit] = (common >> suit) & 1
    elif opt == 5:
        s.f[b, F_SUIT_CLASS + 0] = 2  # spades: senior trumps
        s.f[b, F_SUIT_CLASS + 2] = 1  # diamonds: junior trumps
    if choose:
        s.f[b, F_PHASE] = PHASE_TRUMP
        s.f[b, F_CURRENT] = _first_participant(s, b, cfg)
    else:
        _first_move(s, b, cfg)


@njit(cache=True)
def _first_move(s, b, cfg):
    """Who moves first (3.4): a holder of a lower card of the centre card's suit, else of a
    higher one, else the dealer's left; ties go to the first clockwise from the dealer's left."""
    P = _num_players(cfg)
    who = _first_participant(s, b, cfg)
    if s.f[b, F_BANK_N] > 0:
        t = s.f[b, F_BANK]
        suit_cards = np.uint64(0x1FF) << np.uint64((t // 13) * 13 + 4)
        found = False
        for step in range(2):
            for k in range(1, P + 1):
                p = (s.f[b, F_DEALER] + k) % P
                if s.f[b, F_SITTING + p]:
                    continue
                x = s.m[b, M_HAND + p] & suit_cards
                if cfg[C_EIGHTS_WILD]:
                    x &= ~_rank_mask(RANK_8)  # eights do not count (3.4)
                while x != np.uint64(0):
                    c = lowest(x)
                    x &= x - np.uint64(1)
                    lower = ORDER[c % 13] < ORDER[t % 13]
                    if lower == (step == 0):
                        found = True
                        break
                if found:
                    who = p
                    break
            if found:
                break
    s.f[b, F_STARTER] = who
    s.f[b, F_PHASE] = PHASE_PLAY
    s.f[b, F_CURRENT] = who
    s.f[b, F_DRAWS] = 0
