"""Four Aces rules: the scoring table (spec 5.3-5.6), the ambiguity choices (spec 6) and the
turn-flow scenarios (spec 7), through ``score_cards`` / ``score_breakdown`` and through the env
from fixed decks.

Every expected score was worked out by hand from spec 5.3; the arithmetic is in the comments as
``rank + suit + runs``. Suits: S H D C; rank order 2..10 J Q K A, ace high only.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import act, legal_names, seat_of
from hypothesis import given, settings
from hypothesis import strategies as st

import cardenvs
from cardenvs.core.cards import format_card
from cardenvs.games.four_aces import constants as K
from cardenvs.games.four_aces import layout as L
from cardenvs.games.four_aces import score_breakdown, score_cards

SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
NATURALS = [r + s for s in SUITS for r in RANKS]


def cards(text: str) -> list[str]:
    return text.split()


# --- scorer: hand-computed table (spec 5.3, defaults) -------------------------------------------
# (cards, rank, suit, runs, total)
SCORE_TABLE = [
    # empty and singletons
    ("", 0, 0, 0, 0),
    ("2S", 0, 0, 0, 0),
    ("2S 9H", 0, 0, 0, 0),  # two suits of one card each
    # rank block (A): cards of different suits so suits/runs add nothing
    ("7S 7H", 1, 0, 0, 1),  # pair 1
    ("7S 7H 7D", 2, 0, 0, 2),  # trio 2
    ("7S 7H 7D 7C", 10, 0, 0, 10),  # four of a kind 10
    ("7S 7H KD KC", 3, 0, 0, 3),  # two pairs 3
    # full house 777 KK = 10; suits S {7,K} -2, H {7,K} -2, D {7} 0 -> 10 - 4 = 6
    ("7S 7H 7D KS KH", 10, -4, 0, 6),
    # 777 KKK = full house 10 (not 2 + 2); suits S,H,D {7,K} -2 each -> 10 - 6 = 4
    ("7S 7H 7D KS KH KD", 10, -6, 0, 4),
    # 77 99 KK = two pairs 3 + pair 1 = 4; suits S {7,9} -2, H {7,K} -2, D {9}, C {K} -> 4 - 4
    ("7S 7H 9S 9D KH KC", 4, -4, 0, 0),
    # 7777 KK 99: quad 10 + two pairs 3 = 13; S {7,9,K} 0, H {7,9,K} 0, no runs -> 13
    ("7S 7H 7D 7C KS KH 9S 9H", 13, 0, 0, 13),
    # 7777 999: quad 10 + trio 2 = 12 (beats full house 999 77 = 10 + leftover);
    # S {7,9} -2, H {7,9} -2, D {7,9} -2, C {7} 0 -> 12 - 6 = 6
    ("7S 7H 7D 7C 9S 9H 9D", 12, -6, 0, 6),
    # 777 999 KK: full house 777KK 10 + trio 999 2 = 12; S {7,9,K} 0, H {7,9,K} 0, D {7,9} -2
    ("7S 7H 7D 9S 9H 9D KS KH", 12, -2, 0, 10),
    # 77 99 KKK: full house KKK77 10 + pair 99 1 = 11; S {7,9,K} 0, H {7,9,K} 0, D {K} 0
    ("7S 7H 9S 9H KS KH KD", 11, 0, 0, 11),
    # 77 99 QQ KK (8): two pairs + two pairs = 6; S {7,9,Q,K} +2 run QK +1, H same,
    # -> 6 + 4 + 2 = 12
    ("7S 7H 9S 9H QS QH KS KH", 6, 4, 2, 12),
    # 777 KKK QQ: two trios + pair: full house 777QQ 10 + trio KKK 2 = 12 (or KKKQQ + 777);
    # S {7,Q,K} 0 + run QK 1, H {7,Q,K} 0 + run QK 1, D {7,K} -2 -> 12 - 2 + 2 = 12
    ("7S 7H 7D KS KH KD QS QH", 12, -2, 2, 12),
    # suit groups (B): ranks far apart, no runs
    ("2S 5S", 0, -2, 0, -2),
    ("2S 5S 9S", 0, 0, 0, 0),
    ("2S 5S 9S QS", 0, 2, 0, 2),
    ("2S 5S 7S 9S QS", 0, 6, 0, 6),
    ("2S 5S 7S 9S JS KS", 0, 6, 0, 6),  # 6 of a suit: capped at 6
    ("2S 5S 7S 9S JS KS 3H", 0, 6, 0, 6),
    ("2S 5S 9H", 0, -2, 0, -2),  # mandatory: the -2 cannot be avoided
    ("2S 5S 3H 9H", 0, -4, 0, -4),
    # runs (C), same suit only, additive
    ("2S 3S", 0, -2, 1, -1),
    ("7H 8H", 0, -2, 1, -1),  # spec 5.3: 7H 8H alone is -2 + 1 = -1
    ("6H 7H 8H", 0, 0, 2, 2),  # one 3-run (2), not two 2-runs
    ("5H 6H 7H 8H", 0, 2, 6, 8),
    ("5H 6H 7H 8H 9H", 0, 6, 14, 20),  # straight flush of 5: 6 + 14 = 20
    ("5H 6H 7H 8H 9H 10H", 0, 6, 14, 20),  # f(6) = 14
    ("5H 6H 7H 8H 9H 10H JH", 0, 6, 15, 21),  # f(7) = 14 + 1 = 15
    ("5H 6H 7H 8H 9H 10H JH QH", 0, 6, 16, 22),  # f(8) = 14 + 2 = 16
    ("QH KH AH", 0, 0, 2, 2),  # ace high
    ("AH 2H", 0, -2, 0, -2),  # no A-2
    ("KH AH 2H", 0, 0, 1, 1),  # no wrap: only K-A
    ("AH 2H 3H 4H", 0, 2, 2, 4),  # 2-3-4 is a 3-run; a wrap would make a 4-run (6)
    ("2H 3H 6H 7H", 0, 2, 2, 4),  # two separate 2-runs
    ("5S 6H 7D", 0, 0, 0, 0),  # mixed suits are no run
    ("10H JH QH KH AH", 0, 6, 14, 20),  # royal run
    # mixed: trio K 2; H {7,8,9} 0 + run 2; S, D, C one each -> 4
    ("7H 8H 9H KS KD KC", 2, 0, 2, 4),
    # split aces (spec 7.9): four of a kind 10; S {A,2,9} 0, others one card -> 10
    ("AS AH AD AC 2S 9S", 10, 0, 0, 10),
]


@pytest.mark.parametrize("text, rank, suit, runs, total", SCORE_TABLE, ids=lambda v: str(v))
def test_score__hand_computed_table(text, rank, suit, runs, total):
    b = score_breakdown(cards(text))
    assert (b["rank"], b["suit"], b["runs"], b["total"]) == (rank, suit, runs, total)
    assert b["suit_and_runs"] == suit + runs
    assert score_cards(cards(text)) == total
    assert score_cards(text) == total  # a space-separated string works too


def test_score__eight_card_rank_splits():
    # 777 999 QQ: full house 777QQ 10 + trio 999 2 = 12 (FH 777 99 + pair QQ is only 11);
    # S {7,9,Q} 0, H {7,9} -2, D {7,9} -2, C {Q} 0 -> 12 - 4 = 8
    assert score_breakdown("7S 7H 7D 9S 9H 9D QS QC") == {
        "rank": 12,
        "suit": -4,
        "runs": 0,
        "suit_and_runs": -4,
        "total": 8,
    }
    # 7777 KKKK: two quads 20; each suit {7,K} -2 x 4 = -8 -> 12
    assert score_breakdown("7S 7H 7D 7C KS KH KD KC")["rank"] == 20
    assert score_cards("7S 7H 7D 7C KS KH KD KC") == 12
    # 777 888 99: FH 777 99 10 + trio 888 2 = 12; S {7,8,9} 0 + run 2, H {7,8,9} 0 + run 2,
    # D {7,8} -2 + run 1 -> 12 - 2 + 5 = 15
    b = score_breakdown("7S 7H 7D 8S 8H 8D 9S 9H")
    assert (b["rank"], b["suit"], b["runs"], b["total"]) == (12, -2, 5, 15)


# --- jokers --------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["7H 8H", "7S 7H 7D KS KH", "2S 5S 7S 9S QS", ""])
def test_score__jokers_are_ignored(text):
    base = score_cards(cards(text))
    assert score_cards(cards(text) + ["JK"]) == base
    assert score_cards(cards(text) + ["JK1", "JK2"]) == base


def test_score__two_plain_jk_strings_name_both_jokers():
    # a player may hold both jokers (limit 5); the deck option accepts "JK" twice for them
    assert score_cards(["7H", "8H", "JK", "JK"]) == -1


# --- variants (spec 5.5, A12, A13) ---------------------------------------------------------------
VARIANT_TABLE = [
    # run_mode="replace": a suit that is one complete run scores only the run value
    ("7H 8H", {"run_mode": "replace"}, 1),  # run 1 instead of -2 + 1
    ("6H 7H 8H", {"run_mode": "replace"}, 2),  # run 2 instead of 0 + 2
    ("5H 6H 7H 8H", {"run_mode": "replace"}, 6),  # instead of 2 + 6
    ("5H 6H 7H 8H 9H", {"run_mode": "replace"}, 14),  # instead of 6 + 14
    ("5H 6H 7H 8H 9H 10H", {"run_mode": "replace"}, 14),  # f(6)
    ("2H 3H 6H", {"run_mode": "replace"}, 0),  # not one run: suit value 0, no run
    ("2H 3H 6H 7H", {"run_mode": "replace"}, 2),  # not one run: suit value +2 only
    ("2H 5H", {"run_mode": "replace"}, -2),  # no run: suit value
    ("2H", {"run_mode": "replace"}, 0),
    # rank combos unchanged under replace: trio K 2 + H run 3 -> 2 + 2
    ("7H 8H 9H KS KD KC", {"run_mode": "replace"}, 4),
    # pair_value=-1: pairs mandatory, -1 each unless in a bigger combination
    ("7S 7H", {"pair_value": -1}, -1),
    ("7S 7H KD KC", {"pair_value": -1}, 3),  # two pairs +3
    ("7S 7H 9S 9D KH KC", {"pair_value": -1}, 2 - 4),  # two pairs 3 + pair -1; suits -4
    ("7S 7H 7D", {"pair_value": -1}, 2),
    ("7S 7H 7D 7C", {"pair_value": -1}, 10),
    ("7S 7H 7D KS KH", {"pair_value": -1}, 10 - 4),  # full house; suits -4
    # 77 999 KK: FH 999 77 10 + KK -1 = 9 (or FH 999KK + 77 -1); 2 pairs 3 + trio 2 = 5 is worse
    # suits: S {7,9,K} 0, H {7,9,K} 0, D {9} 0 -> 9
    ("7S 7H 9S 9H 9D KS KH", {"pair_value": -1}, 9),
    ("7S 7H 9S 9H 9D KS KH", {}, 11),  # default: 10 + 1
    # run2_value=-1 (additive): 7H 8H = -2 - 1 = -3; longer runs unchanged
    ("7H 8H", {"run2_value": -1}, -3),  # spec 5.5 spells this out: -2 - 1 = -3
    ("6H 7H 8H", {"run2_value": -1}, 2),
    ("2H 3H 6H 7H", {"run2_value": -1}, 2 - 2),  # suit 2, two 2-runs -1 each
    # S3 reading: replace + run2 = -1 -> a 2-run scores -1 (better than -2 for a plain pair)
    ("7H 8H", {"run2_value": -1, "run_mode": "replace"}, -1),
    ("7S 7H", {"pair_value": -1, "run2_value": -1, "run_mode": "replace"}, -1),
]


@pytest.mark.parametrize("text, config, total", VARIANT_TABLE, ids=lambda v: str(v))
def test_score_variants__hand_computed_table(text, config, total):
    assert score_cards(cards(text), **config) == total
    b = score_breakdown(cards(text), **config)
    assert b["total"] == total == b["rank"] + b["suit_and_runs"]


# --- bad input ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args, config",
    [
        (["7H", "7H"], {}),
        (["7H", "8H", "7H"], {}),
        (["1H"], {}),
        (["7X"], {}),
        (["XX"], {}),
        (["7H"], {"pair_value": 0}),
        (["7H"], {"pair_value": 2}),
        (["7H"], {"run2_value": 0}),
        (["7H"], {"run_mode": "other"}),
        (["7H"], {"no_such_option": 1}),
    ],
)
def test_bad_input__score_cards_raises(args, config):
    with pytest.raises(ValueError):
        score_cards(args, **config)
    with pytest.raises(ValueError):
        score_breakdown(args, **config)


@pytest.mark.parametrize(
    "config",
    [
        {"num_players": 2},
        {"num_players": 6},
        {"pair_value": 0},
        {"pair_value": 2},
        {"run2_value": 0},
        {"score_mode": "x"},
        {"joker_target_effect": "gift"},
    ],
)
def test_bad_input__config_raises(config):
    with pytest.raises(ValueError):
        cardenvs.make("four_aces-v0", **config)


# --- hypothesis properties of the scorer ----------------------------------------------------------
hands = st.lists(st.sampled_from(NATURALS), min_size=0, max_size=8, unique=True)
big_hands = st.lists(st.sampled_from(NATURALS), min_size=6, max_size=8, unique=True)
configs = st.fixed_dictionaries(
    {
        "run_mode": st.sampled_from(["additive", "replace"]),
        "pair_value": st.sampled_from([1, -1]),
        "run2_value": st.sampled_from([1, -1]),
    }
)
PROPS = settings(max_examples=150, deadline=None)


@PROPS
@given(hand=hands, config=configs, data=st.data())
def test_score_property__order_does_not_matter(hand, config, data):
    perm = data.draw(st.permutations(hand))
    assert score_cards(perm, **config) == score_cards(hand, **config)


@PROPS
@given(hand=hands, config=configs, data=st.data())
def test_score_property__jokers_are_ignored(hand, config, data):
    jokers = data.draw(st.sampled_from([["JK"], ["JK1"], ["JK2"], ["JK1", "JK2"]]))
    mixed = data.draw(st.permutations(hand + jokers))
    assert score_cards(mixed, **config) == score_cards(hand, **config)


@PROPS
@given(hand=hands, config=configs, data=st.data())
def test_score_property__suit_relabelling_is_invariant(hand, config, data):
    perm = data.draw(st.permutations(SUITS))
    relabel = dict(zip(SUITS, perm, strict=True))
    moved = [c[:-1] + relabel[c[-1]] for c in hand]
    assert score_cards(moved, **config) == score_cards(hand, **config)


@PROPS
@given(hand=hands, config=configs)
def test_score_property__breakdown_sums_to_total(hand, config):
    b = score_breakdown(hand, **config)
    assert b["rank"] + b["suit"] + b["runs"] == b["total"] == score_cards(hand, **config)
    assert b["suit_and_runs"] == b["suit"] + b["runs"]


@PROPS
@given(hand=big_hands)
def test_score_property__bounds_for_six_to_eight_cards(hand):
    # defaults: rank >= 0 and runs >= 0; suit >= -2 per suit -> >= -8.
    # rank <= 20 (two quads or two full houses need all 8 cards); suit + runs <= 6 + 16 = 22
    # (8 cards of one suit in one run); so -8 <= total <= 42
    b = score_breakdown(hand)
    assert 0 <= b["rank"] <= 20
    assert -8 <= b["suit"] <= 6 and b["runs"] >= 0
    assert -8 <= b["total"] <= 42
    # per suit: a suit with n cards contributes SUIT_VALUE[n]; recompute by hand
    expected_suit = 0
    for s in SUITS:
        n = sum(c[-1] == s for c in hand)
        expected_suit += {0: 0, 1: 0, 2: -2, 3: 0, 4: 2}.get(n, 6)
    assert b["suit"] == expected_suit


@PROPS
@given(hand=hands)
def test_score_property__adding_a_card_of_a_new_rank_and_suit_keeps_rank_block(hand):
    # a card of a rank absent from the hand, in a suit absent from the hand, changes nothing:
    # it forms no rank group, its suit group has one card (0), and it is in no run
    used_ranks = {c[:-1] for c in hand}
    used_suits = {c[-1] for c in hand}
    free = [r + s for r in RANKS for s in SUITS if r not in used_ranks and s not in used_suits]
    if free:
        assert score_cards(hand + free[:1]) == score_cards(hand)


# --- env helpers ---------------------------------------------------------------------------------
def new_env(**config):
    config.setdefault("num_players", 4)
    env = cardenvs.make("four_aces-v0", illegal_action="raise", **config)
    return env, env.unwrapped


def field(core, name):
    return L.field(core._engine.state, name)[0]


def cards_of(mask) -> set[str]:
    m = int(mask)
    return {format_card(c) for c in range(52) if (m >> c) & 1}


def build_deck(hands: dict, dealer: int = 3, num_players: int = 4, stock=()) -> list[str]:
    """The deck order for ``reset``: for each seat from the dealer's left its ``(hidden, exposed)``
    cards (3 + 3, topped up with filler), then ``stock`` from the top, then the rest.

    Filler avoids aces (they go to the bottom of the stock) so no one meets four aces by chance;
    jokers not named in ``stock`` go to the very bottom.
    """
    named = [c for h in hands.values() for part in h for c in cards(part)]
    named += [c for c in stock if c != "JK"]
    assert len(named) == len(set(named)), named
    rest = [c for c in NATURALS if c not in named]
    # rank-major order (2S 2H 2D 2C 3S ...): no long runs, so nobody reaches the target by chance
    rest.sort(key=lambda c: (RANKS.index(c[:-1]), SUITS.index(c[-1])))
    filler = [c for c in rest if not c.startswith("A")] + [c for c in rest if c.startswith("A")]
    deck = []
    for i in range(num_players):
        hidden, exposed = (cards(x) for x in hands.get((dealer + 1 + i) % num_players, ("", "")))
        for part in (hidden, exposed):
            part = list(part)
            while len(part) < 3:
                part.append(filler.pop(0))
            deck += part
    deck += list(stock)
    deck += [c for c in filler if c not in deck]
    deck += ["JK"] * (2 - deck.count("JK"))
    assert len(deck) == 54 and len(set(deck) - {"JK"}) == 52
    return deck


def start(hands, stock=(), dealer=3, **config):
    env, core = new_env(**config)
    deck = build_deck(hands, dealer, config.get("num_players", 4), stock)
    env.reset(seed=0, options={"deck": deck, "dealer": dealer})
    return env, core, deck


def pass_turn(env, core):
    """Draw from the stock and discard the drawn card (no-op for the hands)."""
    seat = seat_of(env)
    before = cards_of(field(core, "hidden")[seat])
    act(env, core, "draw stock")
    if int(field(core, "phase")) == K.PHASE_REDUCE_HIDDEN and seat_of(env) == seat:
        (drawn,) = cards_of(field(core, "hidden")[seat]) - before
        act(env, core, f"discard {drawn}")


def pile(core) -> list[str]:
    n = int(field(core, "pile_n"))
    return [format_card(int(c)) for c in field(core, "pile")[:n]]


# --- turn-flow scenarios (spec 7; 4 players, P4 = seat 3 deals, P1 = seat 0 starts) ------------
def test_scenario_01__opening_with_empty_pile():
    env, core, _ = start({0: ("2S 5D 8H", "3C 6S JD")}, stock=["9C"])
    assert seat_of(env) == 0 and pile(core) == []
    assert legal_names(core) == {"draw stock"}
    with pytest.raises(ValueError):
        act(env, core, "draw discard")
    act(env, core, "draw stock")
    assert cards_of(field(core, "hidden")[0]) == {"2S", "5D", "8H", "9C"}
    assert legal_names(core) == {"discard 2S", "discard 5D", "discard 8H", "discard 9C"}
    act(env, core, "discard 9C")  # the seed's "flip the top reserve card"
    assert pile(core) == ["9C"] and cards_of(field(core, "hidden")[0]) == {"2S", "5D", "8H"}
    assert seat_of(env) == 1 and legal_names(core) == {"draw stock", "draw discard"}


def test_scenario_02__opening_joker():
    env, core, _ = start({0: ("2S 5D 8H", "3C 6S JD")}, stock=["JK"])
    act(env, core, "draw stock")
    assert field(core, "limit")[0] == 4 and field(core, "jokers_held")[0] == 1
    assert cards_of(field(core, "hidden")[0]) == {"2S", "5D", "8H"}
    assert pile(core) == [] and seat_of(env) == 1
    assert legal_names(core) == {"draw stock"}  # P2 must also draw from the stock


def test_scenario_03__discard_pile_draw_may_not_discard_the_taken_card():
    env, core, _ = start({0: ("QD 5D 8H", ""), 1: ("", "QS QH 4C")}, stock=["9C"])
    act(env, core, "draw stock", "discard QD")
    assert seat_of(env) == 1
    act(env, core, "draw discard")
    assert cards_of(field(core, "exposed")[1]) == {"QS", "QH", "QD", "4C"}
    assert legal_names(core) == {"discard QS", "discard QH", "discard 4C"}
    with pytest.raises(ValueError):
        act(env, core, "discard QD")
    with pytest.raises(ValueError):
        act(env, core, "joker")
    act(env, core, "discard 4C")
    assert cards_of(field(core, "exposed")[1]) == {"QS", "QH", "QD"}
    assert pile(core) == ["4C"] and seat_of(env) == 2


def test_scenario_04__playing_a_joker():
    env, core, _ = start({0: ("2S 5D 8H", "")}, stock=["JK", "3D", "4D", "6D", "5H"])
    act(env, core, "draw stock")  # the joker
    for _ in range(3):
        pass_turn(env, core)
    top = pile(core)
    assert seat_of(env) == 0 and top == ["3D", "4D", "6D"]
    act(env, core, "draw stock")
    assert "joker" in legal_names(core)
    act(env, core, "joker")
    assert cards_of(field(core, "hidden")[0]) == {"2S", "5D", "8H", "5H"}
    assert field(core, "limit")[0] == 4 and field(core, "jokers_held")[0] == 0
    assert field(core, "jokers_played")[0] == 1
    assert pile(core) == top and seat_of(env) == 1  # nothing discarded, no effect by default


def test_scenario_05__no_joker_play_after_a_pile_draw():
    env, core, _ = start({0: ("2S 5D 8H", "3C 6S JD")}, stock=["JK", "3D", "4D", "6D"])
    act(env, core, "draw stock")
    for _ in range(3):
        pass_turn(env, core)
    act(env, core, "draw discard")  # P1 takes the 6D into the exposed hand
    assert legal_names(core) == {"discard 3C", "discard 6S", "discard JD"}
    with pytest.raises(ValueError):
        act(env, core, "joker")
    assert field(core, "jokers_held")[0] == 1


def test_scenario_06__second_joker_raises_limit_to_five():
    stock = ["3D", "4D", "JK", "6D", "7D", "9D", "JK", "10D"]
    stock += ["2C", "4C", "5H", "7C", "8C", "9C", "6H", "10C"]
    env, core, _ = start({2: ("2S 5D 8H", "")}, stock=stock)
    for t in range(16):
        seat = seat_of(env)
        assert seat == t % 4
        if seat == 2 and t >= 10:
            act(env, core, "draw stock", "joker")
        else:
            pass_turn(env, core)
        if t == 2:
            assert field(core, "limit")[2] == 4 and field(core, "jokers_held")[2] == 1
        if t == 6:
            assert field(core, "limit")[2] == 5 and field(core, "jokers_held")[2] == 2
            assert cards_of(field(core, "hidden")[2]) == {"2S", "5D", "8H"}
    # two joker plays after stock draws (5H at t=10, 6H at t=14): five naturals, limit 5
    assert cards_of(field(core, "hidden")[2]) == {"2S", "5D", "8H", "5H", "6H"}
    assert field(core, "limit")[2] == 5 and field(core, "jokers_held")[2] == 0
    assert field(core, "jokers_played")[2] == 2


def test_scenario_07__four_aces_hidden_win():
    env, core, _ = start({1: ("AS AD AC", "2S 5D 8H")}, stock=["3D", "AH"])
    pass_turn(env, core)
    act(env, core, "draw stock")  # P2 draws the AH and wins before discarding
    assert all(env.terminations.values())
    assert field(core, "phase") == K.PHASE_OVER and field(core, "winner") == 1
    assert list(field(core, "winners")[:4]) == [0, 1, 0, 0]
    rewards = [env.rewards[a] for a in env.possible_agents]
    assert rewards == pytest.approx([-1 / 3, 1.0, -1 / 3, -1 / 3])


def test_scenario_08__four_aces_exposed_win():
    env, core, _ = start(
        {1: ("AC 5D 8H", ""), 2: ("2S 3S 4H", "AS AH AD")}, stock=["3D", "9C", "6C"]
    )
    pass_turn(env, core)
    act(env, core, "draw stock", "discard AC")  # P2 discards the fourth ace
    act(env, core, "draw discard")  # P3 takes it into the exposed hand
    assert field(core, "phase") == K.PHASE_OVER and field(core, "winner") == 2
    assert all(env.terminations.values())


def test_scenario_08__aces_spread_over_two_hands_do_not_win():
    env, core, _ = start({0: ("AS AH 2D", "AD 5C 8H")}, stock=["AC"])
    act(env, core, "draw stock")  # three aces hidden + one exposed: no win
    assert field(core, "phase") == K.PHASE_REDUCE_HIDDEN and field(core, "winner") == -1


def play_round(env, core):
    deal_no = int(field(core, "deal_no"))
    while not any(env.terminations.values()) and int(field(core, "deal_no")) == deal_no:
        pass_turn(env, core)


def test_scenario_09_10__split_aces_and_end_of_round():
    # P4 holds AS AH 9S hidden, AD AC 2S exposed: four of a kind 10; S {A,2,9} 0 -> 10
    hands = {3: ("AS AH 9S", "AD AC 2S"), 1: ("2H 5D 8C", "3C 6S JD")}
    env, core, deck = start(hands, stock=["3D", "JK", "4D", "JK"])  # no joker last
    for t in range(29):
        assert seat_of(env) == t % 4 and int(field(core, "deal_no")) == 0
        pass_turn(env, core)
    assert int(field(core, "stock_pos")) == 53 and seat_of(env) == 1  # one card left, P2 to go
    act(env, core, "draw stock")
    assert int(field(core, "deal_no")) == 0 and field(core, "phase") == K.PHASE_REDUCE_HIDDEN
    (drawn,) = cards_of(field(core, "hidden")[1]) - {"2H", "5D", "8C"}
    act(env, core, f"discard {drawn}")
    assert int(field(core, "deal_no")) == 1 and int(field(core, "dealer")) == 0
    assert seat_of(env) == 1  # the new dealer's left
    points = list(field(core, "last_points")[:4])
    assert points[3] == 10 == score_cards("AS AH 9S AD AC 2S")
    # everyone kept the dealt hand: the round score is the score of the dealt six cards
    for seat in range(4):
        i = (seat - 3 - 1) % 4
        assert points[seat] == score_cards(deck[6 * i : 6 * i + 6])
    assert list(field(core, "total")[:4]) == points
    # P2 holds the joker drawn at t=1: it scores nothing
    assert points[1] == score_cards("2H 5D 8C 3C 6S JD")


def test_scenario_11__joker_as_last_stock_card_ends_the_round():
    env, core, deck = start({1: ("2H 5D 8C", "3C 6S JD")})  # both jokers at the bottom
    assert deck[-2:] == ["JK", "JK"]
    for _ in range(28):
        pass_turn(env, core)
    assert seat_of(env) == 0 and int(field(core, "stock_pos")) == 52
    act(env, core, "draw stock")  # P1 draws the first joker, no discard
    assert seat_of(env) == 1 and int(field(core, "deal_no")) == 0
    act(env, core, "draw stock")  # P2 draws the last card, a joker: the round ends
    assert int(field(core, "deal_no")) == 1
    # 2H 5D 8C 3C 6S JD: D {5,J} -2, C {3,8} -2, H, S one each -> -4; the joker scores nothing
    assert field(core, "last_points")[1] == -4


def test_scenario_13__turn_cap_ends_the_round():
    env, core, _ = start({}, turn_cap_factor=1)  # cap = 1 x 30 turns
    pass_turn(env, core)  # P1 must open from the stock
    for t in range(1, 30):
        assert int(field(core, "deal_no")) == 0 and int(field(core, "turns")) == t
        act(env, core, "draw discard")
        act(env, core, sorted(legal_names(core))[0])
    assert int(field(core, "deal_no")) == 1 and int(field(core, "stock_pos")) == 24
    assert int(field(core, "turns")) == 0


def test_scenario_13__turn_cap_default_is_five_times_the_stock():
    env, core, _ = start({})
    L.field(core._engine.state, "turns")[0] = 148  # the cap is 5 x 30 = 150 turns
    pass_turn(env, core)
    assert int(field(core, "deal_no")) == 0 and int(field(core, "turns")) == 149
    pass_turn(env, core)
    assert int(field(core, "deal_no")) == 1


def test_scenario_14__joker_in_the_deal_is_replaced():
    env, core = new_env()
    deck = build_deck({}, 3)
    jk = [i for i, c in enumerate(deck) if c == "JK"]
    # move one joker into P2's first exposed position (deck index 9)
    deck[jk[0]], deck[9] = deck[9], deck[jk[0]]
    natural = [c for c in deck if c != "JK"]
    env.reset(seed=0, options={"deck": deck, "dealer": 3})
    assert cards_of(field(core, "hidden")[1]) == set(deck[6:9])
    assert cards_of(field(core, "exposed")[1]) == set(deck[10:13])  # the next cards
    assert cards_of(field(core, "hidden")[2]) == set(natural[12:15])
    assert cards_of(field(core, "exposed")[3]) == set(natural[21:24])
    dealt = [int(c) for c in field(core, "deck")]
    assert sorted(dealt[24:]).count(52) + sorted(dealt[24:]).count(53) == 2  # both in the stock
    assert int(field(core, "stock_pos")) == 24 and len(dealt) == 54


def test_scenario_15__four_aces_win_despite_negative_total():
    env, core, _ = start({3: ("AS AD AC", "2S 5D 8H")}, stock=["3D", "4D", "6D", "AH"])
    L.field(core._engine.state, "total")[0][:4] = [3, 1, 0, -5]
    L.field(core._engine.state, "deal_no")[0] = 2
    for _ in range(3):
        pass_turn(env, core)
    act(env, core, "draw stock")
    assert field(core, "winner") == 3 and field(core, "phase") == K.PHASE_OVER
    assert env.rewards[env.possible_agents[3]] == pytest.approx(1.0)


@pytest.mark.parametrize("episode", ["deal", "game"])
def test_scenario_15__a_four_aces_win_pays_the_target_under_score_rewards(episode):
    # rewarded by score margins, a four-aces win has no round scores to compare (all 0) and
    # totals where the winner trails: it pays +target, the others share -target
    env, core, _ = start(
        {3: ("AS AD AC", "2S 5D 8H")},
        stock=["3D", "4D", "6D", "AH"],
        reward="score",
        episode=episode,
    )
    L.field(core._engine.state, "total")[0][:4] = [3, 1, 0, -5]
    for _ in range(3):
        pass_turn(env, core)
    act(env, core, "draw stock")
    assert field(core, "winner") == 3 and all(env.terminations.values())
    rewards = [env.rewards[a] for a in env.possible_agents]
    assert rewards == pytest.approx([-20 / 3, -20 / 3, -20 / 3, 20.0])


# --- config flags ---------------------------------------------------------------------------------
@pytest.mark.parametrize("effect, next_seat", [("none", 1), ("skip", 2)])
def test_joker_target_effect__skip_makes_left_neighbour_miss_a_turn(effect, next_seat):
    env, core, _ = start(
        {0: ("2S 5D 8H", "")}, stock=["JK", "3D", "4D", "6D", "5H"], joker_target_effect=effect
    )
    act(env, core, "draw stock")
    for _ in range(3):
        pass_turn(env, core)
    act(env, core, "draw stock", "joker")
    assert seat_of(env) == next_seat
    pass_turn(env, core)
    assert seat_of(env) == next_seat + 1  # the skip is used up


def test_allow_discard_draw_false__never_offers_draw_discard():
    env, core, _ = start({}, allow_discard_draw=False)
    for _ in range(12):
        assert legal_names(core) == {"draw stock"}
        pass_turn(env, core)
    assert len(pile(core)) > 0
    with pytest.raises(ValueError):
        act(env, core, "draw discard")


def test_score_mode_per_hand__through_round_end():
    # P1: hidden 7H 8H 9H, exposed 10H JH QH.
    # pooled: a 6-run: suit 6 + f(6) 14 = 20; per hand: two 3-runs, (0 + 2) + (0 + 2) = 4
    # P2: hidden 7S 7C 2D, exposed 7D 4C 9S: pooled trio 2; S {7,9} -2, C {7,4} -2, D {2,7} -2
    # -> -4; per hand: pair 1 + C? hidden {7S,7C,2D} 1, exposed {7D,4C,9S} 0 -> 1
    hands = {0: ("7H 8H 9H", "10H JH QH"), 1: ("7S 7C 2D", "7D 4C 9S")}
    for mode, expect in [("pooled", [20, -4]), ("per_hand", [4, 1])]:
        env, core, _ = start(hands, stock=["3D", "JK"], score_mode=mode, target=200)
        play_round(env, core)
        assert list(field(core, "last_points")[:2]) == expect
        assert score_cards("7H 8H 9H 10H JH QH") == 20
        assert score_cards("7H 8H 9H") + score_cards("10H JH QH") == 4


def test_reset__deck_with_jk_twice_is_accepted_and_dealt_in_order():
    env, core, deck = start({0: ("2S 5D 8H", "3C 6S JD"), 1: ("4H 6H 9D", "KS QS 10C")})
    assert deck.count("JK") == 2
    assert cards_of(field(core, "hidden")[0]) == {"2S", "5D", "8H"}
    assert cards_of(field(core, "exposed")[0]) == {"3C", "6S", "JD"}
    assert cards_of(field(core, "hidden")[1]) == {"4H", "6H", "9D"}
    assert cards_of(field(core, "exposed")[1]) == {"KS", "QS", "10C"}
    assert np.all(field(core, "limit")[:4] == 3) and int(field(core, "stock_pos")) == 24
