"""Four Aces' rules answered in Python for cards given as strings: the hand scorer
``score_cards`` / ``score_breakdown`` (``docs/games/four_aces.md`` 5.3-5.5)."""

from __future__ import annotations

import numpy as np

from ...core.cards import JOKER_1, JOKER_2, format_card
from .config import C_PAIR_VALUE, C_RUN2_VALUE, C_RUN_MODE, Config
from .constants import DECK, SUIT_VALUE
from .scoring import _rank_block, _suit_and_runs, score_mask


def _natural_mask(cards) -> int:
    ids = [DECK.check_card(c) for c in (cards.split() if isinstance(cards, str) else cards)]
    jokers = [c for c in ids if c in (JOKER_1, JOKER_2)]
    if len(jokers) > 2:  # ("JK" twice names both jokers, as in a deck order)
        raise ValueError(f"there are only two jokers; got {len(jokers)}")
    naturals = [c for c in ids if c < 52]
    if len(set(naturals)) != len(naturals):
        dup = sorted({format_card(c) for c in naturals if naturals.count(c) > 1})
        raise ValueError(f"cards listed more than once: {dup}")
    m = 0
    for c in ids:
        if c not in (JOKER_1, JOKER_2):
            m |= 1 << c
    return m


def score_cards(cards, **config) -> int:
    """Round score of a player's cards (spec 5.3; jokers ignored), e.g. ``"7H 8H 9H KS KD KC"``.

    With ``score_mode="per_hand"`` this scores the cards as one hand.
    """
    cfg = Config.from_kwargs(**config).to_array()
    return int(score_mask(np.uint64(_natural_mask(cards)), cfg))


def score_breakdown(cards, **config) -> dict:
    """The three blocks of ``score_cards``: ``{"rank": A, "suit_and_runs": B + C, "suit": B,
    "runs": C, "total": A + B + C}`` (under ``run_mode="replace"``, ``runs`` is what the suits
    score beyond their plain suit values)."""
    c = Config.from_kwargs(**config)
    cfg = c.to_array()
    m = np.uint64(_natural_mask(cards))
    rank = int(_rank_block(m, cfg[C_PAIR_VALUE]))
    both = int(_suit_and_runs(m, cfg[C_RUN_MODE], cfg[C_RUN2_VALUE]))
    suit = 0
    for s_ in range(4):
        suit += int(SUIT_VALUE[int((int(m) >> (13 * s_)) & 0x1FFF).bit_count()])
    return {
        "rank": rank,
        "suit": suit,
        "runs": both - suit,
        "suit_and_runs": both,
        "total": rank + both,
    }
