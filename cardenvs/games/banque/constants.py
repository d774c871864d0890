"""Banque's fixed facts: the deck, the action ids and names (``docs/games/banque.md``, "Engine
notes": the action table), the phases, the card order and points (section 2), and the card
tables the kernels read (what covers what, 4.2; the sequences of four, 4.3)."""

from __future__ import annotations

import numpy as np

from ...core.cards import SUITS, Deck, format_card, make_card

NAME = "banque"
VERSION = 0
MAX_SEATS = 4
NUM_CARDS = 36
DECK = Deck("banque", [make_card(r, s) for s in range(4) for r in range(4, 13)])

# --- actions -----------------------------------------------------------------------------------
RANK_NAMES = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")  # natural order, global ranks 4..12
SEQ_LOWS = ("6", "7", "8", "9", "10", "J", "Q")
ACTION_PLAY = 0
ACTION_EIGHT = 36
ACTION_QUAD = 40
ACTION_SEQ = 76
ACTION_DRAW = 104
ACTION_PASS = 105
ACTION_STOP = 106
ACTION_TRUMP = 107
NUM_ACTIONS = 111
ACTION_NAMES = tuple(
    [f"play {format_card(c)}" for c in DECK.cards.tolist()]
    + [f"eight 8{s}" for s in SUITS]
    + [f"quad {r} top {s}" for r in RANK_NAMES for s in SUITS]
    + [f"sequence {s} {low}" for s in SUITS for low in SEQ_LOWS]
    + ["draw", "pass", "stop"]
    + [f"trump {s}" for s in SUITS]
)
# when each action (a row of ``core.game.action_groups``) is legal (``python -m cardenvs.docs``)
ACTION_DOCS = {
    "play": "a normal beat of the top card (any card on an empty bank)",
    "eight": "an eight on any top card (`eights_wild`)",
    "quad": "all four cards of a rank, the named one on top",
    "sequence": "four consecutive cards of a suit, named by the lowest rank (6 7 8 9 J Q under "
    '`sequence_order="game_order"`, 6 7 8 9 10 J under `"natural"`)',
    "draw": "no normal beat: take a card from the stock",
    "pass": "no normal beat and no draw left: fail",
    "stop": "decline a follow-up (or, out of turn, a special play)",
    "trump": "option 1 trump choice (a suit nobody has taken)",
}

PHASE_TRUMP = 0
PHASE_PLAY = 1
PHASE_DRAWN = 2
PHASE_FOLLOW = 3
PHASE_INTERRUPT = 4
PHASE_OVER = 5
PHASE_NAMES = ("trump", "play", "drawn", "follow-up", "out of turn", "over")

KIND_NORMAL = 0
KIND_EIGHT = 1
KIND_QUAD = 2
KIND_SEQ = 3

# --- cards (2) ---------------------------------------------------------------------------------
# game order 6 7 8 9 J Q K 10 A, indexed by the global rank 0..12 = 2..A (the deck uses 4..12)
ORDER = np.array([-1, -1, -1, -1, 0, 1, 2, 3, 7, 4, 5, 6, 8], np.int64)
POINTS = np.array([0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 3, 5, 12], np.int64)  # A 12 ... J 1 (2)
RANK_7, RANK_8, RANK_K = 5, 6, 11
GAME_ORDER_RANKS = (4, 5, 6, 7, 9, 10, 11, 8, 12)  # global ranks, low to high, in game order
NATURAL_RANKS = (4, 5, 6, 7, 8, 9, 10, 11, 12)


def _sequence_tables():
    """SEQ_RANKS[order][low]: the four global ranks (high to low: the placing order) of the
    sequence whose lowest card is ``SEQ_LOWS[low]``, or -1 where that sequence does not exist."""
    out = np.full((2, len(SEQ_LOWS), 4), -1, np.int64)
    for o, ranks in enumerate((GAME_ORDER_RANKS, NATURAL_RANKS)):
        for i in range(len(ranks) - 3):
            low = RANK_NAMES[ranks[i] - 4]
            out[o, SEQ_LOWS.index(low)] = ranks[i : i + 4][::-1]
    return out


SEQ_RANKS = _sequence_tables()


# --- beating (4.2) -----------------------------------------------------------------------------
def _beat_tables():
    """BY_SUIT[step][t]: the cards of ``t``'s suit that beat ``t`` (4.2 rule 1; step 0 any lower,
    1 only the next lower); BY_RANK[t]: the other cards of ``t``'s rank (rule 2)."""
    by_suit = np.zeros((2, 64), np.uint64)
    by_rank = np.zeros(64, np.uint64)
    for t in DECK.cards.tolist():
        for x in DECK.cards.tolist():
            if x == t:
                continue
            if x // 13 == t // 13:
                d = ORDER[t % 13] - ORDER[x % 13]
                if d > 0:
                    by_suit[0, t] |= np.uint64(1 << x)
                if d == 1:
                    by_suit[1, t] |= np.uint64(1 << x)
            if x % 13 == t % 13:
                by_rank[t] |= np.uint64(1 << x)
    return by_suit, by_rank


BY_SUIT, BY_RANK = _beat_tables()
SUIT_CARDS = np.array([0x1FF << (13 * s + 4) for s in range(4)], np.uint64)


# --- sequences of four (4.3) -------------------------------------------------------------------
def _sequence_starts():
    """SEQ_STARTS[order, suit bits]: bit ``low`` (index into SEQ_LOWS) set for each sequence
    that the 9 bits of one suit (ranks 6..A in natural order) contain."""
    out = np.zeros((2, 512), np.int64)
    for o in range(2):
        for bits in range(512):
            for low in range(len(SEQ_LOWS)):
                ranks = SEQ_RANKS[o, low]
                if ranks[0] >= 0 and all((bits >> (r - 4)) & 1 for r in ranks):
                    out[o, bits] |= 1 << low
    return out


SEQ_STARTS = _sequence_starts()
