"""Piquet normand and partnership Piquet's fixed facts: names, seat and hand sizes, the actions,
the phases, the variants' modes, the scores and the codes the kernels write (the deck is
two-handed Piquet's). Rules: ``docs/games/piquet.md`` 3.3, 3.4 (2.5, 2.8 the scores).
"""

from __future__ import annotations

from ....core.cards import format_card
from ..constants import DECK

VERSION = 0
NAME_NORMAND = "piquet_normand"
NAME_PARTNERSHIP = "partnership_piquet"
MAX_SEATS = 4
NUM_CARDS = 32
NORMAND_HAND = 10
NORMAND_TALON = 2
PARTNERSHIP_HAND = 8
MAX_DEALS = 120

# --- actions -----------------------------------------------------------------------------------
ACTION_DISCARD = 0
ACTION_PLAY = 32
ACTION_STOP = 64
NUM_ACTIONS = 65
ACTION_NAMES = tuple(
    [f"discard {format_card(c)}" for c in DECK.cards.tolist()]
    + [f"play {format_card(c)}" for c in DECK.cards.tolist()]
    + ["stop"]
)
# when each action (a row of ``core.game.action_groups``) is legal (``python -m cardenvs.docs``)
ACTION_DOCS = {
    "discard": "normand dealer's exchange; card index above the last discard",
    "play": "trick play; must follow suit if able",
    "stop": 'normand, `normand_dealer_exchange="may"`: end the exchange early',
}

# --- phases ------------------------------------------------------------------------------------
PHASE_EXCHANGE = 0
PHASE_PLAY = 1
PHASE_OVER = 2
PHASE_NAMES = ("exchange", "play", "over")

# --- variants and scoring constants (spec 3.3, 3.4, 2.5, 2.8) ----------------------------------
MODE_NORMAND = 0
MODE_PARTNERSHIP = 1
CARTE_BLANCHE = 10
PIQUE_AT = 20  # "20 → 60" / "20 → 90" (seed; ADP)
PIQUE_BONUS = 40  # 20 becomes 60
REPIQUE_BONUS = 70  # 20 becomes 90
CARDS_BONUS = 10
NORMAND_CAPOT = 20
PARTNERSHIP_CAPOT = 40
PARTNERSHIP_MAJORITY = 5
CAT_POINT, CAT_SEQUENCE, CAT_SETS = 0, 1, 2
OUTCOME_EQUAL, OUTCOME_NONE = 4, 5  # 0..3 = the winning seat
BONUS_PIQUE, BONUS_REPIQUE = 1, 2
