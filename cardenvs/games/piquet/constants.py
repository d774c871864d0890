"""Two-handed Piquet's fixed facts (``piquet-v0``, ``piquet_au_cent-v0``, ``auction_piquet-v0``):
the deck, the actions and their table, the phases, the scores and the codes the kernels write.

Rules: ``docs/games/piquet.md`` (2.1 cards, 2.5-2.8 scores, 3.1 b the au cent partie, 3.2 bids,
6.1 actions).
"""

from __future__ import annotations

import numpy as np

from ...core.cards import Deck, format_card, piquet_deck
from ...core.game import action_table

NAME = "piquet"
VERSION = 0
NUM_SEATS = 2
DECK = Deck("piquet", piquet_deck())
NUM_CARDS = 32
HAND = 12
TALON = 8
ELDER_MAX = 5
MAX_DEALS = 8

# --- actions -----------------------------------------------------------------------------------
ACTION_DISCARD = 0
ACTION_PLAY = 32
ACTION_STOP = 64
ACTION_LOOK = 65
ACTION_DONT_LOOK = 66
ACTION_CLAIM = 67
ACTION_DONT_CLAIM = 68
ACTION_DECLARE = 69
ACTION_SINK = 70
ACTION_ANSWER = 71
ACTION_CONCEDE = 72
ACTION_PASS = 73
ACTION_BID = 74  # 74..85: bid 7+, 7-, 8+, 8-, ..., 12+, 12-
ACTION_DOUBLE = 86
ACTION_REDOUBLE = 87
NUM_ACTIONS = 88
NUM_BIDS = 12
NUM_OTHER_ACTIONS = NUM_ACTIONS - ACTION_STOP
ACTION_NAMES = tuple(
    [f"discard {format_card(c)}" for c in DECK.cards.tolist()]
    + [f"play {format_card(c)}" for c in DECK.cards.tolist()]
    + ["stop", "look", "dont_look", "claim", "dont_claim"]
    + ["declare", "sink", "answer", "concede"]
    + ["pass"]
    + [f"bid {n}{sign}" for n in range(7, 13) for sign in "+-"]
    + ["double", "redouble"]
)

# --- phases ------------------------------------------------------------------------------------
PHASE_CLAIM = 0
PHASE_EXCHANGE = 1
PHASE_LOOK = 2
PHASE_PLAY = 3
PHASE_OVER = 4
PHASE_DECLARE = 5
PHASE_BID = 6
PHASE_NAMES = ("claim", "exchange", "look", "play", "over", "declare", "bid")

# --- scoring constants (spec 2.5, 2.6, 2.8) ----------------------------------------------------
CARTE_BLANCHE = 10
PIQUE_AT = 30
PIQUE_BONUS = 30
REPIQUE_BONUS = 60
CARDS_BONUS = 10
CAPOT_BONUS = 40
# point value of piquet ranks 7 8 9 10 J Q K A
POINT_VALUE = np.array([7, 8, 9, 10, 10, 10, 10, 11], np.int64)
# declaration categories and their outcome codes
CAT_POINT, CAT_SEQUENCE, CAT_SETS = 0, 1, 2
OUTCOME_NONE, OUTCOME_EQUAL, OUTCOME_PENDING = 2, 3, 4  # 0/1 = the winning seat
# how a category was called (``decl_call``): mechanically (no sinking), or the 6.1 v2 choices
CALL_AUTO = 0  # resolved mechanically, both declaring their best (A3 v1)
CALL_OPEN = 1  # nothing said yet
CALL_ELDER = 2  # elder declared his best; younger to answer
CALL_ELDER_SILENT = 3  # elder sank it (or holds none); younger to declare or not
CALL_ANSWERED = 4  # elder declared, younger answered truthfully: compared
CALL_CONCEDED = 5  # elder declared, younger conceded ("good"): elder scores
CALL_YOUNGER = 6  # elder silent, younger declared his best: younger scores
CALL_SILENT = 7  # both silent: nobody scores
# bonus codes
BONUS_PIQUE, BONUS_REPIQUE = 1, 2
# au cent partie (3.1 b, CAV): the first to three games wins; "three games out of five"
PARTIE_GAMES_TO_WIN = 3
PARTIE_MAX_GAMES = 5
PARTIE_MAX_DEALS = 25  # max_deals bound with a partie: 5 x 25 deals fit the int8 deal counter


# legal-action bits of the actions from ``ACTION_STOP`` on (the third value of ``_legal_sets``)
BIT_DECLARE = 1 << (ACTION_DECLARE - ACTION_STOP)
BIT_SINK = 1 << (ACTION_SINK - ACTION_STOP)
BIT_ANSWER = 1 << (ACTION_ANSWER - ACTION_STOP)
BIT_CONCEDE = 1 << (ACTION_CONCEDE - ACTION_STOP)
BIT_PASS = 1 << (ACTION_PASS - ACTION_STOP)
BIT_DOUBLE = 1 << (ACTION_DOUBLE - ACTION_STOP)
BIT_REDOUBLE = 1 << (ACTION_REDOUBLE - ACTION_STOP)


# when each action (a row of ``core.game.action_groups``) is legal: the action table of the
# docstrings and of the rules page (``python -m cardenvs.docs``)
ACTION_DOCS = {
    "discard": "exchanging; card index above the last discard",
    "play": "trick play; must follow suit if able",
    "stop": "end one's discards (at least the minimum made)",
    "look": "younger, after the exchange, when cards are left",
    "dont_look": "likewise",
    "claim": "a carte-blanche holder, before the exchange (`carte_blanche_auto=False`)",
    "dont_claim": "likewise; the hand then stays secret and scores nothing",
    "declare": "sinking: elder calls his best of the category; younger, after elder's silence, "
    "calls his (only with a combination to call)",
    "sink": "sinking: say nothing in the category",
    "answer": "sinking: younger answers elder's call truthfully (good / not good / equal)",
    "concede": 'sinking: younger says "good" whatever he holds, forfeiting the category',
    "pass": "auction: no (higher) bid; after a bid it ends the auction, after a double it "
    "accepts it",
    "bid": "auction: `bid N+` takes at least N tricks, `bid N-` at most 12 − N; above the "
    "current bid",
    "double": "auction: the opponent's bid stands doubled (ends the bidding but for a redouble)",
    "redouble": "auction: the doubled bidder redoubles (ends the auction)",
}
ACTION_TABLE = action_table(ACTION_NAMES, ACTION_DOCS)
