"""Banque's card helpers and what covers what: the normal beats of a top card (4.2), the cards
a seat may use, and the special plays a hand holds (4.3: eights, four of a kind, sequences of
four); rules: ``docs/games/banque.md``."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.bitmask import bit
from ...core.cards import card_of_index, index_of_card
from .config import (
    C_AFTER_DRAW_PLAY,
    C_BEAT_STEP,
    C_COMMON_TRUMPS_BEAT_EACH_OTHER,
    C_DRAWS_PER_FAILURE,
    C_EIGHTS_WILD,
    C_FOUR_OF_A_KIND,
    C_NUM_PLAYERS,
    C_SAME_RANK_ALWAYS_BEATS,
    C_SEQUENCE_OF_FOUR,
    C_SEQUENCE_ORDER,
    C_TRUMP_OPTION,
)
from .constants import (
    BY_RANK,
    BY_SUIT,
    NUM_CARDS,
    PHASE_DRAWN,
    RANK_8,
    SEQ_RANKS,
    SEQ_STARTS,
    SUIT_CARDS,
)
from .layout import (
    F_BANK,
    F_BANK_N,
    F_DRAWS,
    F_PHASE,
    F_STOCK_POS,
    F_SUIT_CLASS,
    F_TRUMP,
    M_DRAWN,
    M_HAND,
)


# --- card helpers ------------------------------------------------------------------------------
@njit(cache=True, forceinline=True)
def card_of(i):
    """The card id of Banque deck index ``i`` (9 ranks from the six, ``core.cards``)."""
    return card_of_index(i, 9, 4)


@njit(cache=True, forceinline=True)
def index_of(c):
    """The Banque deck index of card id ``c``."""
    return index_of_card(c, 9, 4)


@njit(cache=True, forceinline=True)
def _num_players(cfg):
    return cfg[C_NUM_PLAYERS]


@njit(cache=True, forceinline=True)
def _has(mask, c):
    return (mask >> np.uint64(c)) & np.uint64(1) == np.uint64(1)


@njit(cache=True, forceinline=True)
def _rank_mask(rank):
    """The four cards of global rank ``rank``."""
    one = np.uint64(1)
    r = np.uint64(rank)
    return (
        (one << r)
        | (one << (r + np.uint64(13)))
        | (one << (r + np.uint64(26)))
        | (one << (r + np.uint64(39)))
    )


@njit(cache=True, forceinline=True)
def _seq_mask(cfg, suit, low):
    """The four cards of sequence ``low`` (index into SEQ_LOWS) in ``suit``; 0 if invalid."""
    o = cfg[C_SEQUENCE_ORDER]
    if SEQ_RANKS[o, low, 0] < 0:
        return np.uint64(0)
    m = np.uint64(0)
    for k in range(4):
        m |= bit(suit * 13 + SEQ_RANKS[o, low, k])
    return m


# --- beating (4.2) -----------------------------------------------------------------------------
@njit(cache=True, forceinline=True)
def _beat_set(s, b, cfg, seat, t):
    """Every card that ``seat`` could put on top card ``t`` as a normal beat (4.2), as a mask:
    the same suit and lower, the same rank, or a trump the option allows."""
    out = BY_SUIT[cfg[C_BEAT_STEP], t]
    if cfg[C_SAME_RANK_ALWAYS_BEATS]:
        out |= BY_RANK[t]
    opt = cfg[C_TRUMP_OPTION]
    ts = t // 13
    if opt == 1:
        own = s.f[b, F_TRUMP + seat]
        if own >= 0 and own != ts:
            out |= SUIT_CARDS[own]  # own trump on another suit
    elif opt >= 3:
        ct = s.f[b, F_SUIT_CLASS + ts]
        for suit in range(4):
            cx = s.f[b, F_SUIT_CLASS + suit]
            if cx > ct or (
                opt == 4
                and cfg[C_COMMON_TRUMPS_BEAT_EACH_OTHER] == 1
                and cx == 1
                and ct == 1
                and suit != ts
            ):
                out |= SUIT_CARDS[suit]  # a trump on a lower class (option 5: senior/junior)
    return out


@njit(cache=True, forceinline=True)
def _beat_mask(s, b, cfg, seat, cards):
    """The cards of ``cards`` that are a normal beat of the top card (any card on an empty
    bank)."""
    n = s.f[b, F_BANK_N]
    if n == 0:
        return cards
    return cards & _beat_set(s, b, cfg, seat, s.f[b, F_BANK + n - 1])


@njit(cache=True, forceinline=True)
def _usable(s, b, cfg, seat):
    """The cards the seat to act may use: after a draw under ``drawn_card_only``, the drawn
    cards only (4.4, A14)."""
    hand = s.m[b, M_HAND + seat]
    if s.f[b, F_PHASE] == PHASE_DRAWN and cfg[C_AFTER_DRAW_PLAY]:
        return hand & s.m[b, M_DRAWN]
    return hand


@njit(cache=True, forceinline=True)
def _quad_ranks(hand):
    """Bit r set for each global rank r of which ``hand`` holds all four cards."""
    return (
        hand & (hand >> np.uint64(13)) & (hand >> np.uint64(26)) & (hand >> np.uint64(39))
    ) & np.uint64(0x1FF0)


@njit(cache=True, forceinline=True)
def _seq_starts(cfg, cards, suit):
    """Bit ``low`` set for each sequence of ``suit`` that ``cards`` contain."""
    return SEQ_STARTS[cfg[C_SEQUENCE_ORDER], (cards >> np.uint64(suit * 13 + 4)) & np.uint64(0x1FF)]


@njit(cache=True, forceinline=True)
def _has_special(s, b, cfg, seat):
    """Does the seat hold any special play (for the out-of-turn questions)?"""
    hand = s.m[b, M_HAND + seat]
    if cfg[C_EIGHTS_WILD] and hand & _rank_mask(RANK_8) != np.uint64(0):
        return True
    if cfg[C_FOUR_OF_A_KIND] and _quad_ranks(hand) != np.uint64(0):
        return True
    if cfg[C_SEQUENCE_OF_FOUR]:
        for suit in range(4):
            if _seq_starts(cfg, hand, suit) != 0:
                return True
    return False


@njit(cache=True, forceinline=True)
def _can_draw(s, b, cfg):
    return s.f[b, F_STOCK_POS] < NUM_CARDS and s.f[b, F_DRAWS] < cfg[C_DRAWS_PER_FAILURE]
