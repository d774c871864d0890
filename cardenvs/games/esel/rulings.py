"""Esel's rules answered in Python for cards given as strings: ``trick_winner``, who takes a
trick (rules: ``docs/games/esel.md`` 4.3-4.6, 5)."""

from __future__ import annotations

import numpy as np

from ...core.cards import SUITS, format_cards
from .config import C_COMMON_TRUMPS, Config
from .constants import DECK, MAX_SEATS, RANK_8
from .layout import F_SUIT_CLASS, F_TRUMP, new_state
from .rules import trick_row


def trick_winner(cards, trumps=None, trump_option: int = 1, **config) -> int:
    """Index of the card that takes a trick (spec 4.3, 4.4, 4.6).

    Args:
        cards: the trick's cards in play order, leader first (card strings or one string),
            one per player (2–4).
        trumps: option 1: each position's own trump suit (``"S" "H" "D" "C"`` or ``None``), a
            list as long as ``cards`` (default: nobody plays his own trump). Options 3/4: the
            common trump suit(s), e.g. ``"H"`` or ``"HS"``; ignored for options 2 and 5.
        trump_option: 1–5.
        **config: other ``Config`` options (``retroactive_chain``, ``fightback``, ...).

    An off-suit 8 counts as an eight interruption (legal play guarantees its player was void in
    the main suit); other players are taken to hold the main suit or not as their card implies.
    """
    ids = [DECK.check_card(c) for c in (cards.split() if isinstance(cards, str) else cards)]
    n = len(ids)
    if not 2 <= n <= MAX_SEATS:
        raise ValueError(f"a trick has one card per player, 2-4 cards; got {n}")
    if len(set(ids)) != n:
        raise ValueError(f"a trick cannot hold a card twice: {format_cards(ids)}")
    kw = dict(config, num_players=n, trump_option=trump_option)
    if trump_option in (3, 4):
        if not isinstance(trumps, str):
            raise ValueError(f"option {trump_option} needs the common trump suit(s), e.g. 'H'")
        kw["common_trumps"] = trumps
    cfg = Config.from_kwargs(**kw).to_array()
    s = new_state(1)
    if trump_option == 1:
        own = [None] * n if trumps is None else list(trumps)
        if len(own) != n:
            raise ValueError(
                f"trumps must give one suit (or None) per card: {n} expected, got {len(own)}"
            )
        for p, t in enumerate(own):
            if t is not None and t not in SUITS:
                raise ValueError(f"trump suit {t!r} must be one of 'S', 'H', 'D', 'C' or None")
            s.f[0, F_TRUMP + p] = -1 if t is None else SUITS.index(t)
    elif trump_option in (3, 4):
        for suit in range(4):
            s.f[0, F_SUIT_CLASS + suit] = (int(cfg[C_COMMON_TRUMPS]) >> suit) & 1
    elif trump_option == 5:
        s.f[0, F_SUIT_CLASS + 0], s.f[0, F_SUIT_CLASS + 2] = 2, 1
    cards_a = np.array(ids, np.int8)
    seats = np.arange(n, dtype=np.int8)
    voids = np.zeros(n, np.bool_)
    main = ids[0] // 13
    for i in range(1, n):
        c = ids[i]
        if c % 13 == RANK_8 and c // 13 != main:
            voids[i] = True
            main = c // 13  # after an eight its suit is the main suit for the later players
    return int(trick_row(s, 0, cfg, cards_a, seats, voids))
