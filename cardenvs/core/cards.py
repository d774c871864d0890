"""One card encoding for every game.

A card is an integer ``suit * 13 + rank`` with ranks ``2..A`` mapped to ``0..12`` and suits in the
order spades, hearts, diamonds, clubs (``S H D C``); the two jokers are ``52`` and ``53``. A game's
deck is a subset of these 54 ids, listed in a ``Deck`` table that also gives each card a *local*
index ``0..len(deck)-1`` (used for action ids and observation planes).

Strings: rank then suit, ``"AS"``, ``"10H"`` (``"TH"`` is accepted on input), ``"QD"``, and
``"JK"`` for a joker (``"JK1"``/``"JK2"`` name the two jokers explicitly; in a deck order ``"JK"``
may stand twice, for both).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from numba import njit

from .checks import brief

NUM_SUITS = 4
NUM_RANKS = 13
NUM_CARDS = 54
JOKER_1 = 52
JOKER_2 = 53
NO_CARD = -1

SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_INDEX = {r: i for i, r in enumerate(RANKS)} | {"T": 8}
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


@njit(cache=True, forceinline=True)
def card_of_index(index, ranks_per_suit, lowest_rank):
    """The card id of a deck's local index ``index`` (kernels), for a deck of ``ranks_per_suit``
    consecutive ranks from ``lowest_rank`` in every suit, suit by suit (Piquet: 8 from the
    seven; Esel and Banque: 9 from the six)."""
    return (index // ranks_per_suit) * NUM_RANKS + (index % ranks_per_suit) + lowest_rank


@njit(cache=True, forceinline=True)
def index_of_card(card, ranks_per_suit, lowest_rank):
    """The local index of card id ``card`` in such a deck (``card_of_index`` reversed)."""
    return (card // NUM_RANKS) * ranks_per_suit + (card % NUM_RANKS) - lowest_rank


def make_card(rank: int, suit: int) -> int:
    """Card id of ``rank`` (0 = two .. 12 = ace) in ``suit`` (0..3 = S H D C)."""
    return suit * NUM_RANKS + rank


def suit_of(card: int) -> int:
    """Suit index 0..3 of a non-joker card."""
    return card // NUM_RANKS


def rank_of(card: int) -> int:
    """Rank index 0..12 (two..ace) of a non-joker card."""
    return card % NUM_RANKS


def format_card(card: int) -> str:
    """``12 -> "AS"``; jokers format as ``"JK"``."""
    card = int(card)
    if card in (JOKER_1, JOKER_2):
        return "JK"
    if not 0 <= card < 52:
        raise ValueError(f"card id {card} is out of range: allowed ids are 0..53")
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def format_cards(cards: Iterable[int]) -> str:
    """Space-separated card strings."""
    return " ".join(format_card(c) for c in cards)


def parse_card(text: str) -> int:
    """Parse one card string (``"AS"``, ``"10H"``, ``"TH"``, ``"qd"``, ``"JK"``, ``"JK2"``).

    Raises:
        ValueError: naming the string and the accepted form.
    """
    if not isinstance(text, str):
        raise ValueError(f"card must be a string like 'AS' or '10H', got {brief(text)}")
    t = text.strip().upper()
    if t in ("JK", "JK1"):
        return JOKER_1
    if t == "JK2":
        return JOKER_2
    if len(t) >= 2 and t[:-1] in RANK_INDEX and t[-1] in SUIT_INDEX:
        return make_card(RANK_INDEX[t[:-1]], SUIT_INDEX[t[-1]])
    raise ValueError(
        f"unknown card {brief(text)}: a card is a rank (2-10, J, Q, K, A; T for ten) followed by a "
        "suit (S, H, D, C), e.g. 'AS', '10H', 'QD', or 'JK' for a joker"
    )


def parse_cards(cards: str | Iterable[str | int]) -> list[int]:
    """Parse a space-separated string or an iterable of card strings (ints pass through)."""
    if isinstance(cards, str):
        items: Iterable[str | int] = cards.split()
    else:
        items = cards
    out = []
    for c in items:
        if isinstance(c, (int, np.integer)) and not isinstance(c, bool):
            format_card(int(c))  # range check
            out.append(int(c))
        else:
            out.append(parse_card(c))
    return out


class Deck:
    """A game's deck: an ordered table of card ids with local indices.

    Args:
        name: the game's name, used in error messages.
        cards: the card ids of the deck in local-index order (each once).
    """

    def __init__(self, name: str, cards: Sequence[int]):
        self.name = name
        self.cards = np.asarray(cards, dtype=np.int8)
        if len(set(self.cards.tolist())) != len(self.cards):
            raise ValueError(f"deck {name!r} lists a card twice")
        self.size = len(self.cards)
        #: global card id -> local index, -1 for cards not in the deck.
        self.local = np.full(NUM_CARDS, -1, dtype=np.int8)
        self.local[self.cards] = np.arange(self.size, dtype=np.int8)
        self.mask = np.uint64(0)
        for c in self.cards.tolist():
            self.mask |= np.uint64(1) << np.uint64(c)

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {self.size} cards)"

    def __contains__(self, card: int) -> bool:
        return 0 <= int(card) < NUM_CARDS and self.local[int(card)] >= 0

    def check_card(self, card: str | int) -> int:
        """Parse one card and check that it belongs to this deck."""
        c = parse_cards([card])[0]
        if c not in self:
            raise ValueError(
                f"card {format_card(c)!r} is not in the {self.name} deck "
                f"({format_cards(self.cards)})"
            )
        return c

    def check_order(self, cards: str | Sequence[str | int] | np.ndarray) -> np.ndarray:
        """Validate a full deck order: every card of this deck exactly once.

        Args:
            cards: a string of space-separated cards, or a list, tuple or 1-D array of card
                strings or ids.

        Returns:
            The card ids as an ``int8`` array, in the given order.

        Raises:
            ValueError: another kind of value (a dict, a set, an int, a generator ...), wrong
                length, unknown strings, foreign cards or duplicates.
        """
        if not (
            isinstance(cards, (str, list, tuple))
            or (isinstance(cards, np.ndarray) and cards.ndim == 1)
        ):
            raise ValueError(
                f"a deck order must be a string of cards or a list of card strings or ids, "
                f"got {brief(cards)} ({type(cards).__name__})"
            )
        ids = parse_cards(cards)
        if ids.count(JOKER_1) == 2 and JOKER_2 not in ids:
            # the two jokers are alike: "JK" twice names both
            ids[len(ids) - 1 - ids[::-1].index(JOKER_1)] = JOKER_2
        foreign = [format_card(c) for c in ids if c not in self]
        if foreign:
            raise ValueError(
                f"deck order has cards that are not in the {self.name} deck: {foreign}; "
                f"allowed: {format_cards(self.cards)}"
            )
        seen: set[int] = set()
        dup = sorted({format_card(c) for c in ids if c in seen or seen.add(c)})
        if dup:
            raise ValueError(f"deck order lists cards more than once: {dup}")
        if len(ids) != self.size:
            missing = [format_card(c) for c in self.cards.tolist() if c not in seen]
            raise ValueError(
                f"deck order must list all {self.size} cards of the {self.name} deck once, "
                f"got {len(ids)}; missing: {missing}"
            )
        return np.asarray(ids, dtype=np.int8)


def piquet_deck() -> list[int]:
    """The 32-card piquet pack (7..A in each suit), in id order."""
    return [make_card(r, s) for s in range(NUM_SUITS) for r in range(5, NUM_RANKS)]
