"""Piquet's declaration helpers (point, sequences, sets) against rank-by-rank references.

The kernels read each suit's 8 rank bits through per-suit tables (``rules._suit_tables``); the
references below walk the ranks one by one, as the rules say a player reckons them (2.5, 3.3):
the tables must agree with them on every suit pattern and on whole hands.
"""

from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.cards import parse_cards
from cardenvs.games.piquet import declare as D
from cardenvs.games.piquet import determinization as S
from cardenvs.games.piquet.multi import rules as MR

PIPS = [7, 8, 9, 10, 10, 10, 10, 11]  # seven .. ace (A7)


def _suit(mask: int, suit: int) -> int:
    return (mask >> (suit * 13 + 5)) & 0xFF


def _card_bits(bits: int, suit: int) -> int:
    return bits << (suit * 13 + 5)


def _cards_and_value(mask: int, suit: int) -> tuple[int, int]:
    ranks = [r for r in range(8) if _suit(mask, suit) >> r & 1]
    return len(ranks), sum(PIPS[r] for r in ranks)


def ref_point(mask: int, minus_one_at_4: bool):
    """Most cards, then highest value; ties keep the first suit."""
    best_n, best_v, best_s = 0, 0, -1
    for suit in range(4):
        n, v = _cards_and_value(mask, suit)
        if n > best_n or (n == best_n and v > best_v):
            best_n, best_v, best_s = n, v, suit
    score = best_n - (1 if minus_one_at_4 and best_v % 10 == 4 else 0)
    return best_n, best_v, best_s, score


def ref_point_by_value(mask: int):
    """Highest value, then most cards; ties keep the first suit."""
    best_v, best_n, best_s = 0, 0, -1
    for suit in range(4):
        n, v = _cards_and_value(mask, suit)
        if v > best_v or (v == best_v and n > best_n):
            best_v, best_n, best_s = v, n, suit
    return best_v, best_n, best_s


def ref_sequences(mask: int):
    """Every run of 3+ scores (3, 4: its length; 5-8: length + 10); the best is the longest,
    then the highest top, the first found on ties (suits in order, ranks upwards)."""
    best_len, best_top, total, cards, best_cards = 0, -1, 0, 0, 0
    for suit in range(4):
        bits = _suit(mask, suit)
        r = 0
        while r < 8:
            if not bits >> r & 1:
                r += 1
                continue
            start = r
            while r < 8 and bits >> r & 1:
                r += 1
            n = r - start
            if n >= 3:
                run = _card_bits(((1 << n) - 1) << start, suit)
                cards |= run
                total += n if n <= 4 else n + 10
                if n > best_len or (n == best_len and r - 1 > best_top):
                    best_len, best_top, best_cards = n, r - 1, run
    return best_len, best_top, total, cards, best_cards


def ref_sets(mask: int, highest: int):
    """Trios (3) and quatorzes (14) of ranks 10 .. ``highest``; the best: the larger, then the
    higher rank."""
    best_n, best_r, total, cards = 0, -1, 0, 0
    for r in range(3, highest + 1):
        held = [suit for suit in range(4) if _suit(mask, suit) >> r & 1]
        if len(held) >= 3:
            cards |= sum(_card_bits(1 << r, suit) for suit in held)
            total += 3 if len(held) == 3 else 14
            if len(held) > best_n or (len(held) == best_n and r > best_r):
                best_n, best_r = len(held), r
    return best_n, best_r, total, cards


def _hands() -> list[int]:
    """Every pattern of one suit in each suit, every pair of patterns in two suits (spades and
    hearts), and random hands of 0 to 32 cards."""
    hands = [_card_bits(bits, suit) for suit in range(4) for bits in range(256)]
    hands += [_card_bits(a, 0) | _card_bits(b, 1) for a in range(0, 256, 3) for b in range(256)]
    rng = np.random.default_rng(0)
    deck = [suit * 13 + 5 + r for suit in range(4) for r in range(8)]
    for _ in range(20_000):
        k = int(rng.integers(0, 33))
        hands.append(sum(1 << int(c) for c in rng.choice(deck, size=k, replace=False)))
    return hands


HANDS = _hands()


def _as_ints(t) -> tuple[int, ...]:
    return tuple(int(x) for x in t)


@pytest.mark.parametrize("minus_one_at_4", [False, True])
def test_piquet_declarations__point_matches_the_rank_by_rank_count(minus_one_at_4):
    for mask in HANDS:
        got = _as_ints(D.point_of(np.uint64(mask), minus_one_at_4))
        assert got == ref_point(mask, minus_one_at_4), hex(mask)


def test_piquet_declarations__point_by_value_matches_the_rank_by_rank_count():
    for mask in HANDS:
        assert _as_ints(MR.point_by_value(np.uint64(mask))) == ref_point_by_value(mask), hex(mask)


def test_piquet_declarations__sequences_match_the_rank_by_rank_runs():
    for mask in HANDS:
        assert _as_ints(D.sequences_of(np.uint64(mask))) == ref_sequences(mask), hex(mask)


@pytest.mark.parametrize("highest", [6, 7])
def test_piquet_declarations__sets_match_the_rank_by_rank_count(highest):
    for mask in HANDS:
        assert _as_ints(D.sets_of(np.uint64(mask), highest)) == ref_sets(mask, highest), hex(mask)


def test_piquet_declarations__known_hands():
    # 7 8 9 10 J of spades (a quint: 15) and A K Q of hearts (a tierce: 3); three aces
    hand = np.uint64(S._mask_of(parse_cards("7S 8S 9S 10S JS AH KH QH AD AC")))
    assert _as_ints(D.sequences_of(hand))[:3] == (5, 4, 18)
    assert _as_ints(D.point_of(hand, False)) == (5, 44, 0, 5)
    aces = S._mask_of(parse_cards("AH AD AC"))
    assert _as_ints(D.sets_of(hand, 7)) == (3, 7, 3, aces)
