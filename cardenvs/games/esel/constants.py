"""Esel's fixed facts: name and version, seats, the 36-card deck, the action ids and names, the
phases, and the card tables (rank order, card points, the beat table, the go/no thresholds, the
ways a card holds a trick).

Rules: ``docs/games/esel.md`` (2.2 rank order, 2.4 card points, 3.4 thresholds, 4.2 beat table,
4.3 kinds of play; section 10 lists the action ids). Version history: v0, first release.
"""

from __future__ import annotations

import numpy as np

from ...core.cards import SUITS, Deck, format_card, make_card

NAME = "esel"
VERSION = 0
MAX_SEATS = 4
HAND = 4
NUM_CARDS = 36
DECK = Deck("esel", [make_card(r, s) for s in range(4) for r in range(4, 13)])
START_BANKS = 3
LOSE_BANKS = 6

# --- actions -----------------------------------------------------------------------------------
ACTION_PLAY = 0
ACTION_GO = 36
ACTION_NO = 37
ACTION_TRUMP = 38
NUM_ACTIONS = 42
ACTION_NAMES = tuple(
    [f"play {format_card(c)}" for c in DECK.cards.tolist()]
    + ["go", "no"]
    + [f"trump {s}" for s in SUITS]
)
# when each action (a row of ``core.game.action_groups``) is legal (``python -m cardenvs.docs``)
ACTION_DOCS = {
    "play": "trick play (4.5)",
    "go": "declaration (3.4)",
    "no": "declaration (3.4)",
    "trump": "option 1 trump choice: a suit nobody has taken (3.2)",
}

PHASE_TRUMP = 0
PHASE_DECLARE = 1
PHASE_PLAY = 2
PHASE_OVER = 3
PHASE_NAMES = ("trump", "declare", "play", "over")

# --- cards (2) ---------------------------------------------------------------------------------
# rank order for beating, "one lower" and comparing trumps: 6 7 8 9 J Q K 10 A
# (indexed by the global rank 0..12 = 2..A; the 36-card deck uses 4..12)
ORDER = np.array([-1, -1, -1, -1, 0, 1, 2, 3, 7, 4, 5, 6, 8], np.int64)
POINTS = np.array([0, 0, 0, 0, -1, 0, 16, 0, 10, 1, 3, 5, 12], np.int64)  # 6 = -1 ... 8 = 16
RANK_8 = 6
RANK_6 = 4
RANK_Q, RANK_K, RANK_J = 10, 11, 9
# the beat table (4.2): BEAT[x][y] for card x placed on card y of the same suit, by rank order
# (6 7 8 9 J Q K 10 A): 1 = beats ("kill"), 2 = beats only while y is the unkilled led card or an
# unkilled one-lower chain ("(Y)"), 0 = does not beat
BEAT = np.array(
    [
        [0, 1, 0, 1, 0, 0, 1, 1, 1],  # 6
        [0, 0, 0, 0, 0, 0, 0, 0, 0],  # 7
        [1, 1, 0, 1, 1, 0, 0, 1, 1],  # 8
        [0, 1, 0, 0, 2, 0, 0, 0, 0],  # 9
        [0, 1, 0, 1, 0, 2, 0, 0, 0],  # J
        [1, 1, 1, 1, 1, 0, 2, 0, 0],  # Q
        [0, 1, 1, 1, 1, 1, 0, 2, 0],  # K
        [0, 1, 0, 1, 1, 1, 1, 0, 2],  # 10
        [0, 1, 0, 1, 1, 1, 1, 1, 0],  # A
    ],
    np.int64,
)
# thresholds (3.4) by number of players: (go, no)
THRESHOLDS = np.array([[0, 0], [0, 0], [44, 68], [56, 80], [68, 92]], np.int64)

# how the current winner of a trick got there (4.3)
W_LEAD, W_ONE_LOWER, W_KILL, W_EIGHT, W_SAME, W_SAME_TRUMP, W_TRUMP, W_LEAD_KILLED = range(8)
WIN_NAMES = (
    "led",
    "one lower",
    "kill",
    "eight",
    "same value",
    "same value + trump",
    "trump",
    "led card fought back",
)
