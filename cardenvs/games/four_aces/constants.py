"""Four Aces' fixed facts: name and version, the deck, hand limits, the actions, the phases and
the scoring tables (``docs/games/four_aces.md``: 2 components, 4 a turn, 5.3 scoring, 8 actions)."""

from __future__ import annotations

import numpy as np

from ...core.cards import NUM_CARDS, Deck, format_card

NAME = "four_aces"
VERSION = 0  # v0: first release
MAX_SEATS = 5
DECK = Deck("four_aces", list(range(NUM_CARDS)))
NATURALS = np.uint64((1 << 52) - 1)
ACES = np.uint64(sum(1 << (s * 13 + 12) for s in range(4)))
START_LIMIT = 3
MAX_LIMIT = 5

ACTION_DRAW_STOCK = 0
ACTION_DRAW_DISCARD = 1
ACTION_DISCARD = 2
ACTION_JOKER = 54
NUM_ACTIONS = 55
ACTION_NAMES = tuple(
    ["draw stock", "draw discard"] + [f"discard {format_card(c)}" for c in range(52)] + ["joker"]
)
# when each action (a row of ``core.game.action_groups``) is legal (``python -m cardenvs.docs``)
ACTION_DOCS = {
    "draw stock": "start of a turn",
    "draw discard": "start of a turn, pile not empty, `allow_discard_draw` on",
    "discard": "a hidden card after a stock draw, an exposed card after a pile draw",
    "joker": "after a stock draw, holding a joker",
}

PHASE_DRAW = 0
PHASE_REDUCE_HIDDEN = 1
PHASE_REDUCE_EXPOSED = 2
PHASE_OVER = 3
PHASE_NAMES = ("draw", "reduce hidden", "reduce exposed", "over")

# --- scoring tables (5.3) ----------------------------------------------------------------------
SUIT_VALUE = np.array([0, 0, -2, 0, 2, 6, 6, 6, 6, 6, 6, 6, 6, 6], np.int64)


def _run_table(run2: int) -> list[int]:
    """Value of a maximal same-suit run by length: 2-5 as the table (5.3 C), longer runs as their
    best split into pieces of 1 (worth 0) to 5 cards (f(6) = 14, f(7) = 15, f(8) = 16)."""
    base = {2: run2, 3: 2, 4: 6, 5: 14}
    f = [0, 0]
    for n in range(2, 14):
        if n <= 5:
            f.append(base[n])  # a run of 2-5 scores its own line, also when that is negative
        else:
            f.append(max([f[n - 1]] + [f[n - k] + v for k, v in base.items()]))
    return f


RUN_VALUE = np.array([_run_table(1), _run_table(-1)], np.int64)  # [run2 = +1 | -1][length]
