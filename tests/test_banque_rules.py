"""Banque rules: one scenario per rule clause of the spec (docs/games/banque.md sections 3-5),
the beating order of section 2, the choices of section 6 and the options of section 8.

Positions are built mid-hand with the rules helper ``Table`` (the engine's own kernels, one row)
and the beating rule is asked through ``beats``; the deal, the trump choice, the dealer and the
first mover are checked through the env from fixed decks. Every expected value was worked out by
hand from the spec; the arithmetic is in the comments.
"""

from __future__ import annotations

import pytest
from harness import act, legal_names, seat_of

import cardenvs
from cardenvs.core.cards import format_card
from cardenvs.games.banque import Config, Table, beats
from cardenvs.games.banque import constants as K
from cardenvs.games.banque import layout as R

SUITS = "SHDC"
RANKS = ("6", "7", "8", "9", "J", "Q", "K", "10", "A")  # game order, low -> high (spec 2)
ALL_CARDS = [r + s for s in SUITS for r in RANKS]
POINTS = {"A": 12, "10": 10, "K": 5, "Q": 3, "J": 1, "9": 0, "8": 0, "7": 0, "6": 0}  # spec 2
TRUMP_ACTIONS = {f"trump {s}" for s in SUITS}


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def cards(text: str) -> set[str]:
    return set(text.split())


def val(v):
    """A state field as a plain int or list."""
    return v.tolist() if getattr(v, "ndim", 0) else int(v)


def tf(t: Table, name: str, n: int | None = None):
    """Field ``name`` of a Table (the first ``n`` entries of a per-seat field)."""
    v = val(t.field(name))
    return v[:n] if n is not None else v


# --- env helpers --------------------------------------------------------------------------------
def new_env(**config):
    env = cardenvs.make("banque-v0", illegal_action="raise", **config)
    return env, env.unwrapped


def field(core, name):
    return val(R.field(core._engine.state, name)[0])


def hand_of(core, seat: int) -> set[str]:
    m = int(R.field(core._engine.state, "hand")[0][seat])
    return {format_card(c) for c in range(64) if (m >> c) & 1}


def bank_of(core) -> list[tuple[str, int | None]]:
    n = field(core, "bank_n")
    bank, owner = field(core, "bank"), field(core, "owner")
    return [(format_card(bank[i]), None if owner[i] < 0 else owner[i]) for i in range(n)]


def build_deck(hands: dict, dealer: int, centre: str, num_players: int = 4, stock=()) -> list:
    """The ``reset`` deck: the full 4-card hands in seat order from the dealer's left, the centre
    card, ``stock`` from the top, then every other card in deck order."""
    deck = []
    for i in range(num_players):
        hand = hands[(dealer + 1 + i) % num_players].split()
        assert len(hand) == 4
        deck += hand
    deck += [centre, *stock]
    deck += [c for c in ALL_CARDS if c not in deck]
    assert len(deck) == 36 and set(deck) == set(ALL_CARDS), deck
    return deck


def start(hands: dict, dealer: int, centre: str, stock=(), num_players=4, **config):
    """Reset from a fixed deck; returns (env, core) at the first move (no trump choice)."""
    config.setdefault("trump_option", 2)
    env, core = new_env(num_players=num_players, **config)
    deck = build_deck(hands, dealer, centre, num_players, stock)
    env.reset(seed=0, options={"deck": deck, "dealer": dealer})
    return env, core


# =================================================================================================
# Section 2: cards, card points, beating order
# =================================================================================================
@pytest.mark.parametrize("r", RANKS)
def test_banque__card_points_per_rank(r):
    """2: a taken card scores A 12, 10 10, K 5, Q 3, J 1, 9/8/7/6 0."""
    # seat 1 owns the top 8S; seat 0 cannot beat it and fails, so seat 1 takes the r♣ below it
    t = Table(["AH", "KD"], bank=f"{r}C 8S", owners=[None, 1], num_players=2)
    assert t.legal() == {"pass"}
    t.act("pass")
    assert t.taken(1) == f"{r}C"
    assert tf(t, "bank_points", 2) == [0, POINTS[r]]


def test_banque__deck_holds_124_points():
    """2: 31 points a suit, 124 the deck; four Kings take all of the bank but the top King."""
    assert sum(POINTS.values()) * 4 == 124
    hand0, hand1 = "KS KH KD KC 9S", "9H"
    bank = [c for c in ALL_CARDS if c not in cards(hand0) | cards(hand1)]
    t = Table([hand0, hand1], bank=" ".join(bank), num_players=2)
    t.act("quad K top H")
    # the bank held 124 - 4 * 5 = 104 points; seat 0 takes it plus KS KD KC: 104 + 15 = 119
    assert tf(t, "bank_points", 2) == [119, 0]
    assert t.bank() == [("KH", None)]


def test_banque__beating_order_same_suit():
    """2, 4.2: inside a suit a card beats exactly the cards above it in 6<7<8<9<J<Q<K<10<A."""
    for x in RANKS:
        for top in RANKS:
            if x == top:
                continue
            want = RANKS.index(x) < RANKS.index(top)
            assert beats(x + "H", top + "H", trump_option=2) is want, (x, top)


def test_banque__plain_cards_of_other_suits_never_beat_except_same_rank():
    """4.2: a plain card beats a card of another plain suit only by the same rank."""
    for x in ("6H", "9H", "KH", "AH"):
        for top in ALL_CARDS:
            if suit(top) == "H":
                continue
            assert beats(x, top, trump_option=2) is (rank(x) == rank(top)), (x, top)


# =================================================================================================
# Section 3.1: the dealer
# =================================================================================================
def test_banque__first_dealer_by_lot_is_reproducible():
    """3.1: the first dealer is drawn by lot from the seed; options={"dealer": d} fixes it."""
    env, core = new_env()
    dealers = []
    for seed in range(12):
        env.reset(seed=seed)
        d = field(core, "dealer")
        env.reset(seed=seed)
        assert field(core, "dealer") == d  # the same seed draws the same dealer
        dealers.append(d)
    assert len(set(dealers)) > 1  # a lot, not a fixed seat
    env.reset(seed=0, options={"dealer": 2})
    assert field(core, "dealer") == 2
    assert seat_of(env) == 3  # the trump choice starts at the dealer's left (3.2)


def _end_by_going_out(next_dealer, dealer=0, totals=(200, 10, 100, 80)):
    """4 players: seat 0 is out already; seat 1 (the starter) goes out 2nd with 9H, seat 2 goes
    out 3rd with 6H and the hand ends with seat 3 holding AS (the loser)."""
    t = Table(
        ["", "9H", "6H", "AS"],
        bank="10H",
        current=1,
        dealer=dealer,
        totals=list(totals),
        next_dealer=next_dealer,
    )
    t.act("play 9H")
    assert t.current == 2
    t.act("play 6H")
    return t


@pytest.mark.parametrize(
    "rule, expected",
    [
        ("loser", 3),  # seat 3 was still holding cards
        ("finisher", 2),  # seat 2's play ended the hand
        ("starter", 1),  # seat 1 made the first move of the hand
        ("highest_score", 0),  # totals after the hand: 200, 20, 110, 68
        ("lowest_score", 1),
    ],
)
def test_banque__next_dealer(rule, expected):
    """3.1: the next dealer by each of the five options."""
    t = _end_by_going_out(rule)
    # hand scores: seat 1 2nd +10, seat 2 3rd +10, seat 3 penalty AS 12 (5.2, 5.3)
    assert tf(t, "last_points", 4) == [0, 10, 10, -12]
    assert tf(t, "total", 4) == [200, 20, 110, 68]
    assert tf(t, "deal_no") == 1
    assert tf(t, "dealer") == expected
    assert t.phase == "trump" and t.current == (expected + 1) % 4  # the next hand has started


@pytest.mark.parametrize(
    "rule, totals, dealer, expected",
    [
        # totals after the hand: seat 1 +10, seat 3 -12 -> seats 1 and 3 tie on 110
        ("highest_score", (50, 100, 50, 122), 0, 1),  # from dealer 0's left: 1, 2, 3, 0
        ("highest_score", (50, 100, 50, 122), 2, 3),  # from dealer 2's left: 3, 0, 1, 2
        # seats 1 and 3 tie on 10 at the bottom
        ("lowest_score", (50, 0, 50, 22), 0, 1),
        ("lowest_score", (50, 0, 50, 22), 2, 3),
    ],
)
def test_banque__next_dealer_score_ties(rule, totals, dealer, expected):
    """3.1: ties under options 4 and 5 go to the first tied player clockwise from the previous
    dealer's left."""
    t = _end_by_going_out(rule, dealer=dealer, totals=totals)
    assert tf(t, "dealer") == expected


def _deadlock(hands, dealer, **config):
    """3 players, empty stock, an unowned 6S on top that nobody can beat: all three fail."""
    t = Table(hands, bank="6S", current=0, dealer=dealer, num_players=3, **config)
    for seat in (0, 1, 2):
        assert t.current == seat and t.legal() == {"pass"}
        t.act("pass")
    return t


@pytest.mark.parametrize(
    "hands, dealer, expected",
    [
        (["AH", "KC", "10D"], 2, 0),  # 12 > 10 > 5 points held: seat 0
        (["KH", "AC", "AD"], 0, 1),  # seats 1 and 2 hold 12; from dealer 0's left: 1 first
        (["KH", "AC", "AD"], 1, 2),  # from dealer 1's left: 2, 0, 1
    ],
)
def test_banque__next_dealer_loser_after_deadlock(hands, dealer, expected):
    """3.1, A18: after a deadlock the loser who deals is the one holding the most card points,
    then the first of them clockwise from the previous dealer's left."""
    t = _deadlock(hands, dealer)
    assert tf(t, "ended_by") == 1
    assert tf(t, "dealer") == expected


def test_banque__next_dealer_finisher_after_deadlock():
    """3.1: after a deadlock the finisher is the last player who made a successful play."""
    t = Table(["AH", "9S KC", "AD"], bank="10S", current=0, num_players=3, next_dealer="finisher")
    assert tf(t, "dealer") == 2  # the seat before the first mover
    t.act("pass")  # seat 0 cannot beat 10S; nobody owns it
    t.act("play 9S")  # seat 1 plays: the deadlock count starts again
    t.act("pass")  # seat 2: seat 1 takes 10S, 9S stays as the base
    t.act("pass")  # seat 0
    assert tf(t, "deal_no") == 0
    t.act("pass")  # seat 1: three failures in a row with the stock empty: deadlock
    assert tf(t, "ended_by") == 1 and tf(t, "deal_no") == 1
    assert tf(t, "dealer") == 1


# =================================================================================================
# Section 3.2: trumps
# =================================================================================================
def test_banque__trump_choice_in_turn_only_free_suits():
    """3.2 option 1, A3: from the dealer's left each player picks a suit nobody has taken."""
    env, core = new_env()
    env.reset(seed=3, options={"dealer": 1})
    assert field(core, "phase") == K.PHASE_TRUMP
    steps = [(2, TRUMP_ACTIONS, "trump H"), (3, {"trump S", "trump D", "trump C"}, "trump S")]
    steps += [(0, {"trump D", "trump C"}, "trump C"), (1, {"trump D"}, "trump D")]
    for seat, legal, choice in steps:
        assert seat_of(env) == seat
        assert legal_names(core) == legal
        assert field(core, "phase") == K.PHASE_TRUMP
        act(env, core, choice)
    assert field(core, "phase") == K.PHASE_PLAY
    assert field(core, "trump")[:4] == [3, 2, 1, 0]  # seats 0..3: C, D, H, S
    assert seat_of(env) == field(core, "starter")  # then the first mover (3.4) moves
    assert not legal_names(core) & TRUMP_ACTIONS  # fixed for the hand


def test_banque__trump_choice_two_players_leaves_suits_unowned():
    """3.2 option 1: with 2 players two suits are picked and the other two belong to nobody."""
    env, core = new_env(num_players=2)
    env.reset(seed=0, options={"dealer": 0})
    assert seat_of(env) == 1 and legal_names(core) == TRUMP_ACTIONS
    act(env, core, "trump D")
    assert seat_of(env) == 0 and legal_names(core) == {"trump S", "trump H", "trump C"}
    act(env, core, "trump S")
    assert field(core, "phase") == K.PHASE_PLAY
    assert field(core, "trump")[:2] == [0, 2]
    # an unpicked suit is plain: seat 0 (spades) beats hearts with spades, but clubs do nothing
    assert beats("AS", "6H", trumps=["S", "D"], seat=0)
    assert not beats("6C", "AH", trumps=["S", "D"], seat=0)


def test_banque__trump_random_assignment():
    """3.2 option 1, A3: random distinct suits, drawn from the seed, with no choice phase."""
    env, core = new_env(trump_assignment="random")
    seen = set()
    for seed in range(8):
        env.reset(seed=seed)
        assert field(core, "phase") == K.PHASE_PLAY
        trumps = tuple(field(core, "trump"))
        assert sorted(trumps) == [0, 1, 2, 3]
        env.reset(seed=seed)
        assert tuple(field(core, "trump")) == trumps
        seen.add(trumps)
    assert len(seen) > 1
    env3, core3 = new_env(trump_assignment="random", num_players=3)
    env3.reset(seed=1)
    trumps = field(core3, "trump")
    assert len(set(trumps[:3])) == 3 and all(0 <= x < 4 for x in trumps[:3])


def test_banque__trump_by_seat():
    """3.2 option 1, A3: by_seat gives seat p the suit p of S H D C."""
    env, core = new_env(trump_assignment="by_seat")
    env.reset(seed=5)
    assert field(core, "phase") == K.PHASE_PLAY
    assert field(core, "trump") == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "config, classes",
    [
        ({"trump_option": 2}, [0, 0, 0, 0]),
        ({"trump_option": 3, "common_trumps": "H"}, [0, 1, 0, 0]),
        ({"trump_option": 4, "common_trumps": "HS"}, [1, 1, 0, 0]),
        ({"trump_option": 5}, [2, 0, 1, 0]),  # spades senior, diamonds junior
    ],
)
def test_banque__common_trump_arrangements(config, classes):
    """3.2 options 2-5: the arrangement is fixed before the deal; nobody has an own trump."""
    env, core = new_env(**config)
    env.reset(seed=0)
    assert field(core, "phase") == K.PHASE_PLAY  # no choice phase
    assert field(core, "suit_class") == classes
    assert field(core, "trump") == [-1, -1, -1, -1]


@pytest.mark.parametrize("option, n", [(3, 1), (4, 2)])
def test_banque__common_trumps_random(option, n):
    """3.2, A4: common_trumps="random" draws one (option 3) or two (option 4) suits per hand."""
    env, core = new_env(trump_option=option)
    seen = set()
    for seed in range(8):
        env.reset(seed=seed)
        classes = field(core, "suit_class")
        assert sorted(classes) == [0] * (4 - n) + [1] * n
        seen.add(tuple(classes))
    assert len(seen) > 1


# =================================================================================================
# Section 3.3: the deal
# =================================================================================================
@pytest.mark.parametrize("num_players, stock", [(2, 27), (3, 23), (4, 19)])
def test_banque__deal_from_deck(num_players, stock):
    """3.3: 4 cards each from the dealer's left, one unowned centre card, the rest is the
    stock (27 / 23 / 19 cards)."""
    deck = ALL_CARDS[7:] + ALL_CARDS[:7]
    env, core = new_env(num_players=num_players, trump_option=2)
    env.reset(seed=0, options={"deck": deck, "dealer": 1})
    for i in range(num_players):
        seat = (1 + 1 + i) % num_players
        assert hand_of(core, seat) == set(deck[4 * i : 4 * i + 4])
    centre = deck[4 * num_players]
    assert bank_of(core) == [(centre, None)]
    assert 36 - field(core, "stock_pos") == stock


# =================================================================================================
# Section 3.4: the first move
# =================================================================================================
FIRST = [
    # (dealer, hands by seat, centre, expected first mover); order = dealer's left clockwise
    # a: only seat 3 holds a heart lower than Q; seat 1 (earlier) holds only a higher one
    (0, {0: "KS QD 10C AC", 1: "AH 9S JD 7C", 2: "10S 9D JC QC", 3: "9H AS KD 6C"}, "QH", 3),
    # a, tie: seats 2 and 0 hold lower hearts; from dealer 0's left (1 2 3 0) seat 2 is first
    (0, {0: "6H KS 10C AC", 1: "AH 9S JD 7C", 2: "JH 9D JC QC", 3: "AS KD 6C 9C"}, "QH", 2),
    # the same hands dealt by seat 2 (order 3 0 1 2): seat 0 is first
    (2, {0: "6H KS 10C AC", 1: "AH 9S JD 7C", 2: "JH 9D JC QC", 3: "AS KD 6C 9C"}, "QH", 0),
    # b: no lower heart; seats 0 and 3 hold higher ones; order 1 2 3 0: seat 3
    (0, {0: "KH KS 10C AC", 1: "9S JD 7C 6S", 2: "10S 9D JC QC", 3: "AH AS KD 6C"}, "QH", 3),
    # c: nobody holds a heart: the dealer's left
    (0, {0: "KS QD 10C AC", 1: "AS 9S JD 7C", 2: "10S 9D JC QC", 3: "6S JS KD 6C"}, "QH", 1),
    (3, {0: "KS QD 10C AC", 1: "AS 9S JD 7C", 2: "10S 9D JC QC", 3: "6S JS KD 6C"}, "QH", 0),
    # same rank does not count: seat 2's QS is no "lower heart"; seat 3's AH is higher (b)
    (0, {0: "KS QD 10C AC", 1: "AS 9S JD 7C", 2: "QS 9D JC QC", 3: "AH JS KD 6C"}, "QH", 3),
]


@pytest.mark.parametrize("dealer, hands, centre, expected", FIRST)
def test_banque__first_mover(dealer, hands, centre, expected):
    """3.4 a/b/c: a lower card of the centre card's suit, else a higher one, else the dealer's
    left; ties go to the first clockwise from the dealer's left; same rank does not count."""
    env, core = start(hands, dealer, centre)
    assert seat_of(env) == expected
    assert field(core, "starter") == expected
    assert bank_of(core) == [(centre, None)]


def test_banque__first_mover_ignores_trumps_and_eights():
    """3.4: trumps and eights do not count; seat 2's own trump 6D and seat 3's eight do not
    make them start, nobody holds a heart, so the dealer's left moves."""
    hands = {0: "KS QD 10C AC", 1: "AS 9S JD 7C", 2: "6D QS JC QC", 3: "8C JS KD 6C"}
    env, core = start(hands, 0, "QH", trump_option=1, trump_assignment="by_seat")
    assert field(core, "trump") == [0, 1, 2, 3]  # seat 2 has diamonds
    assert seat_of(env) == 1


def test_banque__first_mover_ignores_an_eight_of_the_centre_suit():
    """3.4: eights do not count when deciding who starts: seat 3's 8♥ (an eight, played as a
    special) is no "lower heart", so seat 1, holding the higher A♥, starts by step b."""
    hands = {0: "KS QD 10C AC", 1: "AH 9S JD 7C", 2: "10S 9D JC QC", 3: "8H AS KD 6C"}
    env, core = start(hands, 0, "QH")
    assert seat_of(env) == 1


def test_banque__first_mover_must_beat_the_centre_card():
    """3.4, A5: the first mover plays against the centre card; failing against it gives the
    bank to nobody (4.5)."""
    hands = {0: "KS QD 10C AC", 1: "9H 9S JD 7C", 2: "10S 9D JC QC", 3: "6S JS KD 6C"}
    env, core = start(hands, 0, "QH", stock=("AD",))
    assert seat_of(env) == 1 and legal_names(core) == {"play 9H"}  # duty to beat (A13)
    hands = {0: "KS QD 10C AC", 1: "AS 9S JD 7C", 2: "10S 9D JC QC", 3: "6S JS KD 6C"}
    env, core = start(hands, 0, "QH", stock=("AD",))
    assert seat_of(env) == 1 and legal_names(core) == {"draw"}
    act(env, core, "draw", "pass")  # AD does not beat QH
    assert bank_of(core) == [("QH", None)]
    assert field(core, "taken") == [0, 0, 0, 0] and field(core, "bank_points") == [0, 0, 0, 0]
    assert seat_of(env) == 2


# =================================================================================================
# Section 4.2: beating
# =================================================================================================
def test_banque__king_of_hearts_beats_only_ten_and_ace():
    """4.2: K♥ beats only 10♥ and A♥ among the hearts; Q♥ J♥ 9♥ 8♥ 7♥ 6♥ all beat K♥."""
    hearts = [r + "H" for r in RANKS]
    assert {t for t in hearts if t != "KH" and beats("KH", t, trump_option=2)} == {"10H", "AH"}
    assert {x for x in hearts if x != "KH" and beats(x, "KH", trump_option=2)} == {
        "QH",
        "JH",
        "9H",
        "8H",
        "7H",
        "6H",
    }


def test_banque__six_beats_its_suit_and_is_beaten_only_by_a_six_or_a_trump():
    """4.2, 4.7: a 6 beats every card of its suit; only another 6 or an allowed trump beats it."""
    assert all(beats("6H", r + "H", trump_option=2) for r in RANKS[1:])
    beaters = {x for x in ALL_CARDS if x != "6H" and beats(x, "6H", trump_option=2)}
    assert beaters == {"6S", "6D", "6C"}
    assert beats("AS", "6H", trumps="S")  # option 1: the mover's own trump
    assert beats("AS", "6H", trump_option=3, trumps="S")  # option 3: a common trump


BEATS = [
    # (card, top, kwargs, expected)
    # option 1 (default): own trumps
    ("6S", "AH", {"trumps": "S"}, True),  # own trump on another suit
    ("AS", "6H", {"trumps": "S"}, True),  # any own trump, whatever its rank
    ("AS", "6H", {"trumps": None}, False),  # no trump: a plain card of another suit
    ("AS", "KS", {"trumps": "S"}, False),  # own trump on own trump: only the suit rule
    ("KS", "AS", {"trumps": "S"}, True),
    ("9H", "6S", {"trumps": ["H", "S"], "seat": 0}, True),  # own trump on another's trump
    ("9C", "6S", {"trumps": ["H", "S"], "seat": 0}, False),  # another's trump is not plain-beaten
    ("9S", "AH", {"trumps": ["H", "S"], "seat": 0}, False),  # another's trump is plain for me
    ("9S", "AH", {"trumps": ["H", "S"], "seat": 1}, True),  # ... and a trump for its owner
    ("KD", "KS", {"trumps": ["H", "S"], "seat": 0}, True),  # same rank onto a trump
    ("6D", "AC", {"trumps": ["H", "S"], "seat": 0}, False),  # unpicked suits are plain
    # option 2: no trumps
    ("AS", "6H", {"trump_option": 2}, False),
    ("9S", "9H", {"trump_option": 2}, True),
    # option 3: one common trump (hearts)
    ("AH", "6S", {"trump_option": 3, "trumps": "H"}, True),  # trump on plain
    ("6S", "AH", {"trump_option": 3, "trumps": "H"}, False),  # plain never beats trump
    ("KS", "KH", {"trump_option": 3, "trumps": "H"}, True),  # ... except by same rank
    ("9H", "10H", {"trump_option": 3, "trumps": "H"}, True),
    ("10H", "9H", {"trump_option": 3, "trumps": "H"}, False),
    # option 4: two equal common trumps (hearts, spades)
    ("AH", "6C", {"trump_option": 4, "trumps": "HS"}, True),
    ("AS", "6D", {"trump_option": 4, "trumps": "HS"}, True),
    ("6S", "AH", {"trump_option": 4, "trumps": "HS"}, False),  # trumps are equal (A4)
    ("6H", "AS", {"trump_option": 4, "trumps": "HS"}, False),
    ("6D", "AH", {"trump_option": 4, "trumps": "HS"}, False),  # plain never beats trump
    ("KD", "KS", {"trump_option": 4, "trumps": "HS"}, True),  # same rank
    ("6S", "AH", {"trump_option": 4, "trumps": "HS", "common_trumps_beat_each_other": True}, True),
    ("6D", "AH", {"trump_option": 4, "trumps": "HS", "common_trumps_beat_each_other": True}, False),
    # option 5: spades senior, diamonds junior
    ("AS", "6D", {"trump_option": 5}, True),
    ("AS", "6H", {"trump_option": 5}, True),
    ("AD", "6H", {"trump_option": 5}, True),
    ("AD", "6C", {"trump_option": 5}, True),
    ("6D", "AS", {"trump_option": 5}, False),  # junior never beats senior
    ("6H", "AD", {"trump_option": 5}, False),
    ("6H", "AC", {"trump_option": 5}, False),  # hearts and clubs beat only their own suit
    ("6C", "AS", {"trump_option": 5}, False),
    ("9C", "9S", {"trump_option": 5}, True),  # same rank, whatever the trump
    ("KS", "AS", {"trump_option": 5}, True),
    ("AS", "KS", {"trump_option": 5}, False),
    # beat_step="next_lower_only" (A2)
    ("KH", "10H", {"trump_option": 2, "beat_step": "next_lower_only"}, True),
    ("QH", "10H", {"trump_option": 2, "beat_step": "next_lower_only"}, False),
    ("10H", "AH", {"trump_option": 2, "beat_step": "next_lower_only"}, True),
    ("6H", "7H", {"trump_option": 2, "beat_step": "next_lower_only"}, True),
    ("6H", "AH", {"trump_option": 2, "beat_step": "next_lower_only"}, False),
    ("9S", "9H", {"trump_option": 2, "beat_step": "next_lower_only"}, True),
    # same_rank_always_beats=False
    ("9S", "9H", {"trump_option": 2, "same_rank_always_beats": False}, False),
    ("9H", "10H", {"trump_option": 2, "same_rank_always_beats": False}, True),
]


@pytest.mark.parametrize("card, top, kwargs, expected", BEATS)
def test_banque__beats(card, top, kwargs, expected):
    """4.2, 3.2: same suit lower, same rank, and trumps per option (A2, A3, A4)."""
    assert beats(card, top, **kwargs) is expected


# =================================================================================================
# Section 4.1 / 4.4: the duty to play, drawing, failing
# =================================================================================================
def test_banque__must_play_a_normal_beat():
    """4.1, 4.4, A13: a player holding a normal beat may not draw or pass."""
    t = Table(["9H AS", "KC"], bank="10H", stock="6D", num_players=2)
    assert t.legal() == {"play 9H"}


def test_banque__own_trumps_in_play():
    """4.2, 3.2 option 1: each player beats with his own trump suit only; another player's
    trump suit is plain for him."""
    t = Table(["AS 9C", "KH"], bank="6H", trumps=["S", "D"], stock="7D", num_players=2)
    assert t.legal() == {"play AS"}
    t = Table(["9C", "AS KD"], bank="6H", trumps=["S", "D"], current=1, num_players=2)
    assert t.legal() == {"play KD"}  # diamonds are seat 1's; spades are plain for seat 1


def test_banque__turn_skips_players_who_are_out():
    """4.1, 4.8: the turn passes to the next player clockwise who still holds cards."""
    t = Table(["9H AS", "", "KC", "QD"], bank="10H", stock="7D")
    t.act("play 9H")
    assert t.current == 2


def test_banque__special_plays_allowed_with_a_beat():
    """4.3: eights and quads may be made even when a normal beat is available."""
    t = Table(["9H 8C 9S 9D 9C", "KC"], bank="JH", stock="6D", num_players=2)
    quads = {f"quad 9 top {s}" for s in SUITS}
    assert t.legal() == {"play 9H", "eight 8C"} | quads


def test_banque__no_beat_draw_then_play():
    """4.4: without a normal beat the player draws one card; a beat must then be played."""
    t = Table(["AS KD", "KC"], bank="10H", owners=[1], stock="6H QC", num_players=2)
    assert t.legal() == {"draw"}
    t.act("draw")
    assert t.phase == "drawn" and cards(t.hand(0)) == {"AS", "KD", "6H"}
    assert t.stock() == 1
    assert t.legal() == {"play 6H"}  # the duty to play holds again
    t.act("play 6H")
    assert t.bank() == [("10H", 1), ("6H", 0)] and t.current == 1


def test_banque__draw_then_any_legal_play():
    """4.4, A14: after the draw any legal play is allowed, a special held before included."""
    t = Table(["AS 8C", "KC"], bank="10H", owners=[1], stock="6H", num_players=2)
    assert t.legal() == {"eight 8C", "draw"}
    t.act("draw")
    assert t.legal() == {"play 6H", "eight 8C"}


@pytest.mark.parametrize("drawn, legal", [("6H", {"play 6H"}), ("QC", {"pass"})])
def test_banque__after_draw_drawn_card_only(drawn, legal):
    """A14 (after_draw_play="drawn_card_only"): after the draw only the drawn card may be used."""
    t = Table(
        ["AS 8C", "KC"],
        bank="10H",
        owners=[1],
        stock=drawn,
        num_players=2,
        after_draw_play="drawn_card_only",
    )
    t.act("draw")
    assert t.legal() == legal


def test_banque__fail_after_a_failed_draw():
    """4.4, 4.5: a player whose draw does not help fails; the top card's owner takes the bank
    and the turn passes; a failure while the stock holds cards is no deadlock step."""
    t = Table(["AS KD", "QC", "JD"], bank="AH 10H", owners=[None, 2], stock="9C 6S", num_players=3)
    t.act("draw")
    assert t.legal() == {"pass"}  # 9C does not beat 10H
    t.act("pass")
    assert t.taken(2) == "AH" and tf(t, "bank_points", 3) == [0, 0, 12]
    assert t.bank() == [("10H", None)] and t.current == 1
    assert tf(t, "fails") == 0 and t.stock() == 1


def test_banque__empty_stock_pass_directly():
    """4.4: with an empty stock the player fails without drawing."""
    t = Table(["AS KD", "QC"], bank="10H", owners=[1], num_players=2)
    assert t.legal() == {"pass"}
    t.act("pass")
    assert tf(t, "fails") == 1  # a failure on an empty stock counts towards a deadlock (4.9)


def test_banque__draws_per_failure():
    """4.4 (draws_per_failure=2): a player may draw again while still without a beat."""
    t = Table(["AS", "QC"], bank="10H", stock="KD JS 6H", num_players=2, draws_per_failure=2)
    t.act("draw")
    assert t.legal() == {"draw"}
    t.act("draw")
    assert t.legal() == {"pass"}
    assert cards(t.hand(0)) == {"AS", "KD", "JS"} and t.stock() == 1


def test_banque__one_draw_per_turn_by_default():
    """4.4: a player never draws more than one card per turn."""
    t = Table(["AS", "QC"], bank="10H", stock="KD JS 6H", num_players=2)
    t.act("draw")
    assert t.legal() == {"pass"} and t.stock() == 2


@pytest.mark.parametrize("config", [{"voluntary_draw": True}, {"forced_play": False}])
def test_banque__voluntary_draw(config):
    """A13 (voluntary_draw / forced_play=False): a player may draw, then fail, though able to
    beat."""
    t = Table(["9H", "KC"], bank="10H", owners=[1], stock="QC", num_players=2, **config)
    assert t.legal() == {"play 9H", "draw"}
    t.act("draw")
    assert t.legal() == {"play 9H", "pass"}
    t.act("pass")
    assert t.taken(1) == "" and t.bank() == [("10H", None)]  # seat 1 took nothing but the base


# =================================================================================================
# Section 4.3: special plays
# =================================================================================================
def test_banque__eight_on_any_top_and_chain():
    """4.3: an eight goes on any top card, even a 6; another eight is a chained eight."""
    t = Table(["8C AS 8D", "KH QH"], bank="6S", owners=[1], stock="9D", num_players=2)
    assert t.legal() == {"eight 8C", "eight 8D", "draw"}
    t.act("eight 8C")
    assert t.phase == "follow-up" and t.current == 0
    assert t.legal() == {"eight 8D", "stop"}  # 8D covers 8C by the same rank
    t.act("eight 8D")
    # nothing in AS beats 8D: the turn passes at once
    assert t.phase == "play" and t.current == 1
    assert t.bank() == [("6S", 1), ("8C", 0), ("8D", 0)]


def test_banque__eight_that_beats_is_still_an_eight():
    """4.3: with eights wild an eight is always played as an eight, never as "play 8X"; it counts
    as a beat for the duty to play."""
    t = Table(["8C AS", "KH"], bank="9C", stock="7D", num_players=2)
    assert t.legal() == {"eight 8C"}


def test_banque__eight_optional_follow_up():
    """4.3, A9: after an eight one more normal beat of the eight is optional."""
    t = Table(["8C 6C AS", "KH QH"], bank="AD", owners=[1], stock="9D", num_players=2)
    t.act("eight 8C")
    assert t.legal() == {"play 6C", "stop"}
    t.act("play 6C")
    assert t.current == 1 and t.bank()[-2:] == [("8C", 0), ("6C", 0)]
    t = Table(["8C 6C AS", "KH QH"], bank="AD", owners=[1], stock="9D", num_players=2)
    t.act("eight 8C", "stop")
    assert t.current == 1 and t.bank()[-1] == ("8C", 0)  # the next player must beat the eight


@pytest.mark.parametrize(
    "mode, legal",
    [("none", None), ("optional", {"play 6C", "stop"}), ("mandatory_if_able", {"play 6C"})],
)
def test_banque__eight_followup_modes(mode, legal):
    """A9: eight_followup none / optional / mandatory_if_able."""
    t = Table(
        ["8C 6C AS", "KH QH"], bank="AD", owners=[1], stock="9D", num_players=2, eight_followup=mode
    )
    t.act("eight 8C")
    if legal is None:
        assert t.current == 1 and t.phase == "play"
    else:
        assert t.current == 0 and t.phase == "follow-up" and t.legal() == legal


def test_banque__eights_not_wild():
    """4.3 (eights_wild=False): eights are ordinary cards; no "eight" actions."""
    t = Table(["8C AS 8S", "KH"], bank="9S", stock="7D", num_players=2, eights_wild=False)
    assert t.legal() == {"play 8S"}
    t = Table(["8C AS 8S", "KH"], bank="KD", stock="7D", num_players=2, eights_wild=False)
    assert t.legal() == {"draw"}


def test_banque__quad_choice_of_top_and_follow_up():
    """4.3: all four cards of a rank on any top card; the player chooses the top card and may
    follow up by the rules."""
    t = Table(["9S 9H 9D 9C 6H", "KH"], bank="7C", owners=[1], stock="7D", num_players=2)
    quads = {f"quad 9 top {s}" for s in SUITS}
    assert t.legal() == quads | {"draw"}  # 9♣ is above 7♣, nothing beats 7♣ normally
    t.act("quad 9 top H")
    bank = t.bank()
    assert len(bank) == 5 and bank[-1] == ("9H", 0)
    assert {c for c, _ in bank[1:]} == {"9S", "9H", "9D", "9C"} and {o for _, o in bank[1:]} == {0}
    assert t.phase == "follow-up" and t.legal() == {"play 6H", "stop"}


def test_banque__quad_followup_none():
    """A9 (quad_followup="none"): the turn passes after the quad."""
    t = Table(["9S 9H 9D 9C 6H", "KH"], bank="7C", stock="7D", num_players=2, quad_followup="none")
    t.act("quad 9 top H")
    assert t.current == 1 and t.phase == "play"


@pytest.mark.parametrize("follow_up", [True, False])
def test_banque__four_kings_take_the_bank(follow_up):
    """4.3, A11: four Kings take the bank at once: all but the top King, which stays unowned;
    then the quad's follow-up onto that King (``four_kings_follow_up=False``: the turn ends)."""
    t = Table(
        ["KS KH KD KC QH 6C", "QD 9C"],
        bank="AS 10S",
        owners=[None, 1],
        num_players=2,
        four_kings_follow_up=follow_up,
    )
    t.act("quad K top H")
    # AS 12 + 10S 10 + KS KD KC 15 = 37
    assert cards(t.taken(0)) == {"AS", "10S", "KS", "KD", "KC"}
    assert tf(t, "bank_points", 2) == [37, 0]
    assert t.bank() == [("KH", None)]
    if follow_up:
        assert t.current == 0 and t.phase == "follow-up" and t.legal() == {"play QH", "stop"}
        t.act("play QH")  # the follow-up card is his, on the unowned King
        assert t.bank() == [("KH", None), ("QH", 0)]
    assert t.current == 1 and t.phase == "play"  # without it QH could beat KH, but the turn is over


def _four_kings_deal(**config):
    """3 players from a fixed deck, dealer 2: seat 1 (holding the only lower diamond, 7D) moves
    first and covers the centre JD with JH (same rank); seat 2 beats JH with 9H; seat 0 (KH KD
    KC QS) cannot beat 9H, draws KS and lays the four Kings with KS on top."""
    hands = {0: "KH KD KC QS", 1: "JH 7D AS AC", 2: "9H 10S 10C AD"}
    env, core = start(hands, dealer=2, centre="JD", stock=["KS"], num_players=3, **config)
    assert seat_of(env) == 1
    act(env, core, "play JH")
    assert seat_of(env) == 2
    act(env, core, "play 9H")
    assert seat_of(env) == 0 and legal_names(core) == {"draw"}
    act(env, core, "draw")
    assert legal_names(core) == {f"quad K top {s}" for s in SUITS} | {"pass"}
    act(env, core, "quad K top S")
    # the take: JD 1 + JH 1 + 9H 0 + KH KD KC 15 = 17; KS stays as the unowned base card
    assert field(core, "bank_points")[:3] == [17, 0, 0]
    assert bank_of(core) == [("KS", None)]
    return env, core


def test_banque__four_kings_follow_up_from_a_deal():
    """4.3 (default): after the four Kings' take the player is offered ``play QS`` (QS is below
    KS) and ``stop``; playing QS goes out 1st, and seat 1 must beat QS."""
    env, core = _four_kings_deal()
    assert seat_of(env) == 0 and legal_names(core) == {"play QS", "stop"}
    act(env, core, "play QS")
    assert bank_of(core) == [("KS", None), ("QS", 0)]
    assert hand_of(core, 0) == set() and field(core, "out")[:3] == [1, 0, 0]
    assert field(core, "bonus")[:3] == [20, 0, 0]  # 1st, by QS: no King extra
    assert seat_of(env) == 1
    assert legal_names(core) == {"draw"}  # 7D AS AC: no spade below QS, no Queen: a draw
    act(env, core, "draw")  # the stock's next card is 6S (the deck's order): a beat of QS
    assert "play 6S" in legal_names(core)


def test_banque__four_kings_follow_up_stop_from_a_deal():
    """4.3: ``stop`` declines the follow-up: seat 1 must beat the unowned KS, seat 0 keeps QS."""
    env, core = _four_kings_deal()
    act(env, core, "stop")
    assert seat_of(env) == 1 and bank_of(core) == [("KS", None)]
    assert hand_of(core, 0) == {"QS"}
    # seat 1 holds 7D AS AC: no spade below KS (AS is above it), no King: a draw
    assert legal_names(core) == {"draw"}


def test_banque__four_kings_no_follow_up_from_a_deal():
    """``four_kings_follow_up=False`` (the rule before the option): the take ends the turn."""
    env, core = _four_kings_deal(four_kings_follow_up=False)
    assert seat_of(env) == 1 and bank_of(core) == [("KS", None)]
    assert hand_of(core, 0) == {"QS"}


def test_banque__record_without_four_kings_follow_up_replays_with_the_old_rule():
    """A record made before ``four_kings_follow_up`` existed has no such key in its config; it
    was played with the take ending the turn, and replays that way (``RECORD_DEFAULTS``)."""
    env, core = _four_kings_deal(four_kings_follow_up=False)
    act(env, core, "draw")  # seat 1 goes on: the game continues under the old rule
    record = core.record()
    del record["config"]["four_kings_follow_up"]
    assert cardenvs.replay(record)["deals"] == record["deals"]
    record["config"]["four_kings_follow_up"] = True  # the new rule gives seat 0 a follow-up
    with pytest.raises(ValueError, match="the replay has seat 0 to act"):
        cardenvs.replay(record)


@pytest.mark.parametrize(
    "config, legal",
    [
        ({}, {"play 9H", "stop"}),  # 9H is below KH; QS is of another suit
        ({"quad_followup": "mandatory_if_able"}, {"play 9H"}),
        ({"quad_followup": "none"}, None),  # the quad's follow-up rule governs the Kings' too
        ({"bank_take": "all"}, None),  # the take leaves no King to beat
    ],
)
def test_banque__four_kings_follow_up_rules(config, legal):
    """4.3: the follow-up after the four Kings' take is the quad's (``quad_followup``), and needs
    the King left on top; with none the turn ends at the take."""
    t = Table(["KS KH KD KC 9H QS", "QD 9C"], bank="AS", owners=[1], num_players=2, **config)
    t.act("quad K top H")
    if legal is None:
        assert t.current == 1 and t.phase == "play"
    else:
        assert t.current == 0 and t.phase == "follow-up" and t.legal() == legal


def test_banque__four_kings_only_when_going_out():
    """A11 (four_kings_take_bank="only_when_going_out"): no take unless the Kings go out."""
    t = Table(
        ["KS KH KD KC QH", "QD 9C"],
        bank="AS 10S",
        owners=[None, 1],
        num_players=2,
        four_kings_take_bank="only_when_going_out",
    )
    t.act("quad K top H")
    assert len(t.bank()) == 6 and t.taken(0) == ""
    assert t.phase == "follow-up" and t.legal() == {"play QH", "stop"}
    t = Table(
        ["KS KH KD KC", "QD 9C"],
        bank="AS 10S",
        owners=[None, 1],
        num_players=2,
        four_kings_take_bank="only_when_going_out",
        episode="deal",
    )
    t.act("quad K top H")
    # going out 1st with four Kings: takes 37 (as above); bonus 20 + King extra 30, no +75
    assert tf(t, "bank_points", 2) == [37, 0]
    assert tf(t, "bonus", 2) == [50, 0]


def test_banque__sequence_game_order():
    """4.3, A10: four consecutive cards of a suit in game order (J Q K 10), placed highest
    first so the lowest ends on top; no follow-up by default."""
    t = Table(["JH QH KH 10H 9H", "AC"], bank="6S", owners=[1], stock="7D", num_players=2)
    assert "sequence H J" in t.legal()
    t.act("sequence H J")
    assert t.bank() == [("6S", 1), ("10H", 0), ("KH", 0), ("QH", 0), ("JH", 0)]
    assert t.current == 1 and t.phase == "play"  # 9H could beat JH, but there is no follow-up


def test_banque__sequence_followup_optional():
    """A10 (sequence_followup="optional"): one more normal beat after a sequence."""
    t = Table(
        ["JH QH KH 10H 9H", "AC"],
        bank="6S",
        stock="7D",
        num_players=2,
        sequence_followup="optional",
    )
    t.act("sequence H J")
    assert t.phase == "follow-up" and t.legal() == {"play 9H", "stop"}


@pytest.mark.parametrize(
    "order, lows",
    [("game_order", ["6", "7", "8", "9", "J", "Q"]), ("natural", ["6", "7", "8", "9", "10", "J"])],
)
def test_banque__sequence_lows(order, lows):
    """4.3, A10: the valid sequences in game order (6789 ... QK10A) and in natural order."""
    hearts = " ".join(r + "H" for r in RANKS)
    t = Table([hearts, "AC"], bank="6S", stock="7D", num_players=2, sequence_order=order)
    assert {a for a in t.legal() if a.startswith("sequence")} == {f"sequence H {x}" for x in lows}


def test_banque__sequence_natural_order_placement():
    """A10 (sequence_order="natural"): 9 10 J Q is a sequence, placed Q J 10 9 (9 on top);
    in game order it is not one."""
    hand = "9H 10H JH QH 6C"
    t = Table([hand, "AC"], bank="6S", stock="7D", num_players=2)
    assert not any(a.startswith("sequence") for a in t.legal())
    t = Table([hand, "AC"], bank="6S", stock="7D", num_players=2, sequence_order="natural")
    assert "sequence H 9" in t.legal()
    t.act("sequence H 9")
    assert [c for c, _ in t.bank()] == ["6S", "QH", "JH", "10H", "9H"]


# =================================================================================================
# Section 4.5: taking the bank
# =================================================================================================
def test_banque__owner_takes_all_but_top():
    """4.5: the owner of the top card takes all but it; it stays as an unowned base; the turn
    passes from the failing player."""
    t = Table(["AD", "AC", "QS", "JD"], bank="AS 10S KS", owners=[None, 0, 3], current=1, dealer=0)
    t.act("pass")
    assert cards(t.taken(3)) == {"AS", "10S"}
    assert tf(t, "bank_points") == [0, 0, 0, 22]  # 12 + 10
    assert t.bank() == [("KS", None)]
    assert t.current == 2 and t.legal() == {"play QS"}  # seat 2 must beat the base card


def test_banque__unowned_top_nobody_takes():
    """4.5: failing against an unowned card (centre or base) hands the bank to nobody."""
    t = Table(["AD", "AC", "QS"], bank="KS", num_players=3)
    t.act("pass")
    assert t.bank() == [("KS", None)] and tf(t, "bank_points", 3) == [0, 0, 0]
    assert t.current == 1


def test_banque__own_card_nobody_takes():
    """4.5: a player never takes the bank through his own failure."""
    t = Table(["AD", "AC"], bank="AH 10C", owners=[None, 0], num_players=2)
    t.act("pass")
    assert t.bank() == [("AH", None), ("10C", 0)]
    assert t.taken(0) == "" and tf(t, "bank_points", 2) == [0, 0]


def test_banque__owner_already_out_still_takes():
    """4.5: the owner takes even if he has gone out."""
    t = Table(["AD", "QD", ""], bank="AS 10S", owners=[None, 2], num_players=3)
    assert tf(t, "out", 3) == [0, 0, 1]
    t.act("pass")
    assert t.taken(2) == "AS" and tf(t, "bank_points", 3) == [0, 0, 12]
    assert t.current == 1


def test_banque__bank_take_all_then_free_lead():
    """A7 (bank_take="all"): the owner takes every card; the next player leads any card."""
    t = Table(
        ["AD", "9C JC", "QH 6D"],
        bank="AS 10S KS",
        owners=[None, 1, 2],
        num_players=3,
        bank_take="all",
    )
    t.act("pass")
    assert cards(t.taken(2)) == {"AS", "10S", "KS"}
    assert tf(t, "bank_points", 3) == [0, 0, 27]  # 12 + 10 + 5
    assert t.bank() == [] and t.current == 1
    assert t.legal() == {"play 9C", "play JC"}  # no draw needed on an empty bank


def test_banque__unowned_top_previous_owner():
    """A15 (unowned_top_failure="previous_owner"): failing against a base card hands the bank
    to the player who owned that card before it became the base.

    Expected (my reading): the previous owner (seat 2) takes the bank, i.e. the base card KS
    (the only card), since taking "all but the top" of a one-card bank would make the option
    a no-op; the next player then leads freely."""
    t = Table(
        ["AD 9H", "AC", "JD"],
        bank="AS 10S KS",
        owners=[None, 1, 2],
        num_players=3,
        unowned_top_failure="previous_owner",
    )
    t.act("pass")  # seat 0 fails: seat 2 takes AS 10S; KS stays as the base (prev. owner 2)
    assert t.bank() == [("KS", None)] and tf(t, "bank_points", 3) == [0, 0, 22]
    t.act("pass")  # seat 1 fails against the base: seat 2 takes it
    assert tf(t, "bank_points", 3) == [0, 0, 27]  # 22 + KS 5
    assert t.bank() == []


def test_banque__unowned_centre_previous_owner_nobody():
    """A15: the centre card has no previous owner; nobody takes even under previous_owner."""
    t = Table(["AD", "AC"], bank="QS", num_players=2, unowned_top_failure="previous_owner")
    t.act("pass")
    assert t.bank() == [("QS", None)] and tf(t, "bank_points", 2) == [0, 0]


# =================================================================================================
# Section 4.6: sevens
# =================================================================================================
def _seven(hand1, effect="control", stock="6H", **config):
    """Seat 0 puts 7H on an unowned AH; seat 1 then answers the seven."""
    t = Table(
        ["7H AS", hand1], bank="AH", stock=stock, num_players=2, seven_effect=effect, **config
    )
    t.act("play 7H")
    assert t.current == 1
    return t


@pytest.mark.parametrize(
    "hand1, legal",
    [("KC QD", {"pass"}), ("KC 7D", {"play 7D"}), ("8C KD", {"eight 8C", "pass"})],
)
def test_banque__seven_control(hand1, legal):
    """4.6 control, A12: no rescue draw; the next player beats, plays a special, or fails."""
    t = _seven(hand1)
    assert tf(t, "seven") == 1 and t.stock() == 1
    assert t.legal() == legal


def test_banque__seven_control_failure_gives_the_bank_to_the_sevens_owner():
    """4.6 control: a failure against the seven hands the bank to its owner (4.5)."""
    t = _seven("KC QD")
    t.act("pass")
    assert t.taken(0) == "AH" and tf(t, "bank_points", 2) == [12, 0]
    assert t.bank() == [("7H", None)] and t.current == 0 and t.stock() == 1


@pytest.mark.parametrize("stock, legal", [("6H QC", {"play 6H"}), ("QC 6H", {"pass"})])
def test_banque__seven_draw_then_move(stock, legal):
    """4.6 draw_then_move: the card is drawn at the start of the next turn; no second draw."""
    t = _seven("KC QD", "draw_then_move", stock=stock)
    drawn = stock.split()[0]
    assert cards(t.hand(1)) == {"KC", "QD", drawn} and t.stock() == 1
    assert tf(t, "seven") == 2 and t.phase == "play"
    assert t.legal() == legal


def test_banque__seven_draw_and_skip():
    """4.6 draw_and_skip: the next player draws and loses the turn without a take; the player
    after him must beat the seven."""
    t = Table(
        ["7H AS", "KC QD", "6H 9S"],
        bank="AH",
        stock="QC",
        num_players=3,
        seven_effect="draw_and_skip",
    )
    t.act("play 7H")
    assert t.current == 2
    assert cards(t.hand(1)) == {"KC", "QD", "QC"} and t.stock() == 0
    assert t.bank() == [("AH", None), ("7H", 0)] and t.taken(0) == ""
    assert t.legal() == {"play 6H"}


def test_banque__seven_draw_and_skip_two_players_own_card():
    """4.6 draw_and_skip, 4.5: with 2 players the skip brings the turn back to the seven's
    owner; failing against his own card hands the bank to nobody."""
    t = Table(
        ["7H AS", "KC QD"], bank="AH", stock="QC", num_players=2, seven_effect="draw_and_skip"
    )
    t.act("play 7H")
    assert t.current == 0 and cards(t.hand(1)) == {"KC", "QD", "QC"}
    assert t.legal() == {"pass"}  # AS does not beat 7H and the stock is empty
    t.act("pass")
    assert t.bank() == [("AH", None), ("7H", 0)] and tf(t, "bank_points", 2) == [0, 0]
    assert t.current == 1


def test_banque__seven_none():
    """4.6 none: the seven is an ordinary card; the next player may draw."""
    t = _seven("KC QD", "none")
    assert tf(t, "seven") == 0 and t.legal() == {"draw"}


@pytest.mark.parametrize(
    "hand0, play, seven",
    [
        ("7S 7H 7D 7C AS", "quad 7 top H", True),  # a quad of sevens leaves a seven on top
        ("7H 8H 9H JH AS", "sequence H 7", True),  # 7 8 9 J: the 7 ends on top
        ("6H 7H 8H 9H AS", "sequence H 6", False),  # 6 7 8 9: the 6 on top, the 7 inside
    ],
)
def test_banque__seven_inside_a_special_play(hand0, play, seven):
    """A23: a seven counts when it is on top after a special play, not when it is inside."""
    t = Table([hand0, "KC QD"], bank="10D", stock="6D", num_players=2)
    t.act(play)
    assert t.current == 1
    assert t.legal() == ({"pass"} if seven else {"draw"})


def test_banque__seven_as_centre_card_has_no_effect():
    """4.6: a seven turned up as the centre card has no effect; the first mover may draw."""
    hands = {0: "KS QD 10C AC", 1: "AS 9S JD 9C", 2: "10S 9D JC QC", 3: "6S JS KD 6C"}
    env, core = start(hands, 0, "7H", stock=("AD",))
    assert seat_of(env) == 1  # nobody holds a heart (3.4 c)
    assert legal_names(core) == {"draw"}


# =================================================================================================
# Sections 4.8, 4.9: going out, the end of the hand
# =================================================================================================
def test_banque__finishing_positions_and_end_by_going_out():
    """4.8, 4.9: players go out 1st, 2nd, 3rd; the hand ends when all but one are out."""
    t = Table(["JH", "9H", "6H", "AS KS"], bank="QH", episode="deal")
    t.act("play JH")
    assert tf(t, "out") == [1, 0, 0, 0] and t.current == 1
    t.act("play 9H")
    assert tf(t, "out") == [1, 2, 0, 0] and t.phase == "play"
    t.act("play 6H")
    assert t.phase == "over" and tf(t, "ended_by") == 0
    assert tf(t, "out") == [1, 2, 3, 0] and tf(t, "n_out") == 3
    # bonuses 20/10/10; seat 3 holds AS KS: penalty 12 + 5 = 17 (5.2)
    assert tf(t, "bonus") == [20, 10, 10, 0] and tf(t, "penalty") == [0, 0, 0, 17]
    assert tf(t, "last_points") == [20, 10, 10, -17]


def test_banque__going_out_card_can_give_its_owner_the_bank():
    """4.8: a going-out card is not returned; if the next player fails, its owner takes."""
    t = Table(["9H", "AS KS", "QC JC"], bank="AH 10H", owners=[None, 2], num_players=3)
    t.act("play 9H")
    assert tf(t, "out", 3) == [1, 0, 0] and t.current == 1
    t.act("pass")
    assert cards(t.taken(0)) == {"AH", "10H"} and tf(t, "bank_points", 3) == [22, 0, 0]
    assert t.bank() == [("9H", None)] and t.current == 2


def test_banque__deadlock_penalises_every_holder():
    """4.9: stock empty, every holder fails in turn: deadlock; all holders are losers."""
    t = _deadlock(["AH 9C", "KC", "10D QS"], dealer=2, episode="deal")
    assert t.phase == "over" and tf(t, "ended_by") == 1
    assert tf(t, "out", 3) == [0, 0, 0]
    # penalties: AH 9C = 12, KC = 5, 10D QS = 13
    assert tf(t, "penalty", 3) == [12, 5, 13]
    assert tf(t, "last_points", 3) == [-12, -5, -13]


def test_banque__no_deadlock_while_the_stock_has_cards():
    """4.9: failures only count towards a deadlock once the stock is empty."""
    t = Table(["AH", "KC"], bank="6S", stock="QD JD", num_players=2)
    t.act("draw", "pass")  # seat 0 draws QD and fails; JD is left: no count
    assert tf(t, "fails") == 0 and t.current == 1
    t.act("draw", "pass")  # seat 1 draws the last card and fails on the empty stock: 1
    assert tf(t, "fails") == 1 and t.phase == "play" and t.current == 0
    assert t.legal() == {"pass"}
    t.act("pass")  # seat 0: 2 = both holders: deadlock (episode="game": the next hand starts)
    assert tf(t, "ended_by") == 1 and tf(t, "deal_no") == 1


# =================================================================================================
# A8: specials out of turn
# =================================================================================================
def _out_of_turn():
    t = Table(
        ["9H AS", "KC QD", "8C JD"],
        bank="10H",
        stock="6S 7D",
        num_players=3,
        specials_out_of_turn=True,
    )
    t.act("play 9H")
    return t


def test_banque__out_of_turn_question_and_stop():
    """A8 (specials_out_of_turn): a player holding a special is asked; "stop" declines."""
    t = _out_of_turn()
    assert t.phase == "out of turn" and t.current == 2
    assert t.legal() == {"eight 8C", "stop"}
    t.act("stop")
    assert t.phase == "play" and t.current == 1


def test_banque__out_of_turn_special_then_play_from_interrupters_left():
    """A8: an interrupter's special is placed; play continues from the interrupter's left."""
    t = _out_of_turn()
    t.act("eight 8C")
    assert t.bank() == [("10H", None), ("9H", 0), ("8C", 2)]
    assert t.phase == "play" and t.current == 0  # seat 1 is passed over


def test_banque__no_out_of_turn_by_default():
    """A8: by default nobody plays out of turn."""
    t = Table(["9H AS", "KC QD", "8C JD"], bank="10H", stock="6S 7D", num_players=3)
    t.act("play 9H")
    assert t.phase == "play" and t.current == 1


# =================================================================================================
# Section 5: scoring
# =================================================================================================
def test_banque__hand_score_is_banks_plus_bonus_minus_penalty():
    """5.1, 5.4: hand score = card points of the banks taken + bonuses - penalty."""
    t = Table(["9H", "KS 6D"], bank="10H", num_players=2, taken=["AC", "10D QD"], episode="deal")
    t.act("play 9H")
    # seat 0: 12 + 20 = 32; seat 1: 10 + 3 - KS 5 = 8
    assert tf(t, "bank_points", 2) == [12, 13]
    assert tf(t, "last_points", 2) == [32, 8] and tf(t, "total", 2) == [32, 8]


def _loser(loser="AS 9C 6D KH", **config):
    """2 players: seat 0 goes out 1st (+20) with 9H; seat 1 keeps ``loser``."""
    config.setdefault("episode", "deal")
    t = Table(["9H", loser], bank="10H", num_players=2, **config)
    t.act("play 9H")
    return t


PENALTIES = [
    # AS 9C 6D KH: 17 card points, 4 cards, 2 of them without points
    ("AS 9C 6D KH", {}, 17),
    ("AS 9C 6D KH", {"hand_penalty": False}, 0),  # Rule I
    ("AS 9C 6D KH", {"penalty_mode": "fixed"}, 31),
    ("AS 9C 6D KH", {"penalty_mode": "fixed", "penalty_fixed": 15}, 15),
    ("AS 9C 6D KH", {"penalty_mode": "fixed", "penalty_fixed": 56}, 56),
    ("AS 9C 6D KH", {"penalty_mode": "per_card"}, 12),  # 4 x 3
    ("AS 9C 6D KH", {"penalty_mode": "per_card", "penalty_per_card": 6}, 24),  # 4 x 6
    ("AS 9C 6D KH", {"penalty_mode": "card_points_plus_per_zero_card"}, 23),  # 17 + 2 x 3
    (
        "AS 9C 6D KH",
        {"penalty_mode": "card_points_plus_per_zero_card", "penalty_per_card": 6},
        29,  # 17 + 2 x 6
    ),
    ("AS 9C 6D KH", {"penalty_mode": "card_points_else_fixed"}, 17),
    # 9C 6D 7S: no card points, 3 cards
    ("9C 6D 7S", {}, 0),
    ("9C 6D 7S", {"penalty_mode": "card_points_else_fixed"}, 31),
    ("9C 6D 7S", {"penalty_mode": "card_points_else_fixed", "penalty_fixed": 48}, 48),
    ("9C 6D 7S", {"penalty_mode": "card_points_plus_per_zero_card"}, 9),  # 0 + 3 x 3
    ("9C 6D 7S", {"penalty_mode": "per_card", "penalty_per_card": 6}, 18),
    ("9C 6D 7S", {"penalty_mode": "fixed", "penalty_fixed": 23}, 23),
]


@pytest.mark.parametrize("loser, config, penalty", PENALTIES)
def test_banque__penalty(loser, config, penalty):
    """5.2: Rule I (no penalty) and Rule II with each penalty mode; the player who went out
    pays nothing."""
    t = _loser(loser, **config)
    assert tf(t, "penalty", 2) == [0, penalty]
    assert tf(t, "last_points", 2) == [20, -penalty]
    assert tf(t, "total", 2) == [20, -penalty]


def test_banque__negative_totals():
    """5.2: scores may go below zero; allow_negative_totals=False stops totals at 0."""
    assert tf(_loser(), "total", 2) == [20, -17]
    t = _loser(allow_negative_totals=False, totals=[0, 5])
    assert tf(t, "last_points", 2) == [20, -17]
    assert tf(t, "total", 2) == [20, 0]  # 5 - 17 < 0 -> 0


def _bonus_table(kind: str, pos: int, **config):
    """Seat 0 goes out in position ``pos`` (the first pos - 1 other seats are out already) with
    a play of the given kind; returns the table."""
    hand, bank, play = {
        "normal": ("9H", "10H", "play 9H"),
        "king": ("KH", "10H", "play KH"),
        "sequence": ("9H JH QH KH", "6S", "sequence H 9"),
        "quad": ("9S 9H 9D 9C", "6C", "quad 9 top H"),
        "kings": ("KS KH KD KC", "10C", "quad K top H"),
    }[kind]
    others = ["JS", "JD", "JC"]
    for i in range(pos - 1):
        others[i] = ""
    t = Table([hand, *others], bank=bank, episode="deal", **config)
    t.act(play)
    assert tf(t, "out")[0] == pos
    return t


BONUSES = [
    # (kind, position, bonus): base 20/10/10, King +30/20/10, sequence +30/25/20, quad +75
    ("normal", 1, 20),
    ("normal", 2, 10),
    ("normal", 3, 10),
    ("king", 1, 50),
    ("king", 2, 30),
    ("king", 3, 20),
    ("sequence", 1, 50),
    ("sequence", 2, 35),
    ("sequence", 3, 30),
    ("quad", 1, 95),
    ("quad", 2, 85),
    ("quad", 3, 85),
    ("kings", 1, 50),  # four Kings: the King extra, not the +75
    ("kings", 2, 30),
    ("kings", 3, 20),
]


@pytest.mark.parametrize("kind, pos, bonus", BONUSES)
def test_banque__going_out_bonus(kind, pos, bonus):
    """5.3: going-out bonuses by position and play, added together (A20)."""
    t = _bonus_table(kind, pos)
    assert tf(t, "bonus")[0] == bonus


@pytest.mark.parametrize("follow_up", [True, False])
def test_banque__four_kings_going_out_take_the_bank(follow_up):
    """5.3, 4.3: four Kings as the going-out play take the bank (all but the top King); with no
    card left there is no follow-up under either setting of ``four_kings_follow_up``."""
    t = _bonus_table("kings", 1, four_kings_follow_up=follow_up)
    # 10C 10 + KS KD KC 15 = 25
    assert tf(t, "bank_points")[0] == 25 and t.bank() == [("KH", None)]
    assert tf(t, "bonus")[0] == 50  # 1st 20 + King extra 30
    assert t.current == 1 and t.phase == "play"


@pytest.mark.parametrize(
    "kind, pos, bonus",
    [
        ("normal", 1, 20),
        ("king", 1, 30),  # max(20, 30)
        ("sequence", 1, 30),  # max(20, 30)
        ("sequence", 2, 25),  # max(10, 25)
        ("quad", 1, 75),  # max(20, 75)
        ("kings", 3, 10),  # max(10, 10)
    ],
)
def test_banque__bonuses_do_not_stack(kind, pos, bonus):
    """A20 (bonuses_stack=False): only the largest single amount is paid."""
    assert tf(_bonus_table(kind, pos, bonuses_stack=False), "bonus")[0] == bonus


@pytest.mark.parametrize(
    "kind, pos, bonus",
    [
        ("normal", 1, 5),
        ("king", 1, 12),  # 5 + 7
        ("sequence", 2, 12),  # 4 + 8
        ("quad", 3, 14),  # 3 + 11
        ("kings", 2, 10),  # 4 + 6
    ],
)
def test_banque__custom_bonus_tables(kind, pos, bonus):
    """8: finish_bonus, finish_king_extra, finish_sequence_extra, finish_quad_non_king."""
    config = {
        "finish_bonus": (5, 4, 3),
        "finish_king_extra": (7, 6, 5),
        "finish_sequence_extra": (9, 8, 7),
        "finish_quad_non_king": 11,
    }
    assert tf(_bonus_table(kind, pos, **config), "bonus")[0] == bonus


def test_banque__quad_with_follow_up_counts_by_the_last_card():
    """5.3: a quad followed by a follow-up card goes out with that card: no +75."""
    t = Table(["9S 9H 9D 9C 6H", "JS", "JD", "JC"], bank="7C", episode="deal")
    t.act("quad 9 top H", "play 6H")
    assert tf(t, "out")[0] == 1 and tf(t, "bonus")[0] == 20


TRUMP_KINGS = [
    # (config, card, bank, takes): seat 0 goes out with the card on bank (unowned, owned by 1)
    ({"trumps": ["H", "S", "D", "C"]}, "KH", "AS 10H", True),  # option 1: own trump King
    ({"trumps": ["S", "H", "D", "C"]}, "KH", "AS 10H", False),  # another's trump suit
    ({"trump_option": 2}, "KH", "AS 10H", False),  # no trumps, no trump King
    ({"trump_option": 3, "trumps": "H"}, "KH", "AS 10H", True),
    ({"trump_option": 3, "trumps": "S"}, "KH", "AS 10H", False),
    ({"trump_option": 4, "trumps": "DH"}, "KH", "AS 10H", True),
    ({"trump_option": 5}, "KS", "AH 10S", True),  # senior
    ({"trump_option": 5}, "KD", "AH 10D", True),  # junior
    ({"trump_option": 5, "trump_king": "senior_only"}, "KD", "AH 10D", False),
    ({"trump_option": 5}, "KC", "AH 10C", False),
    (
        {"trumps": ["H", "S", "D", "C"], "finish_trump_king_takes_bank": False},
        "KH",
        "AS 10H",
        False,
    ),
]


@pytest.mark.parametrize("config, card, bank, takes", TRUMP_KINGS)
def test_banque__trump_king_finishing_card_takes_the_bank(config, card, bank, takes):
    """5.3, A24, 3.2: a trump King as the finishing card takes the bank (all but the King), and
    the King extra applies either way."""
    t = Table([card, "JS", "JD", "JC"], bank=bank, owners=[None, 1], episode="deal", **config)
    t.act(f"play {card}")
    assert tf(t, "bonus")[0] == 50  # 1st: 20 + King 30
    if takes:
        assert tf(t, "bank_points")[0] == 22  # A 12 + 10 10
        assert t.bank() == [(card, None)]
    else:
        assert tf(t, "bank_points")[0] == 0 and len(t.bank()) == 3


def test_banque__trump_king_not_finishing_takes_nothing():
    """5.3: a trump King takes the bank only as the finishing card."""
    t = Table(
        ["KH 9C", "JS", "JD", "JC"], bank="AS 10H", owners=[None, 1], trumps=["H", "S", "D", "C"]
    )
    t.act("play KH")
    assert tf(t, "bank_points") == [0, 0, 0, 0] and len(t.bank()) == 3


@pytest.mark.parametrize("final_bank, points", [("nobody", 20), ("top_owner", 42)])
def test_banque__final_bank(final_bank, points):
    """4.9, A16: the bank left at the end scores for nobody; top_owner gives it all to the
    owner of the top card."""
    t = Table(
        ["9H", "QC"],
        bank="AH 10H",
        owners=[None, 1],
        num_players=2,
        final_bank=final_bank,
        episode="deal",
    )
    t.act("play 9H")
    # top_owner: seat 0 owns the top 9H and takes AH 10H 9H = 22, plus 20 for going out
    assert tf(t, "last_points", 2) == [points, -3]


# =================================================================================================
# Section 5.4: the match
# =================================================================================================
def test_banque__target_reached_at_hand_end():
    """5.4, A21: a total >= 248 at the end of a hand ends the match; highest total wins."""
    t = _loser(episode="game", totals=[228, 0])  # 228 + 20 = 248
    assert t.phase == "over" and tf(t, "total", 2) == [248, -17]
    assert tf(t, "winner") == 0 and tf(t, "winners", 2) == [1, 0]


def test_banque__target_not_reached():
    """5.4: 247 is not enough; the next hand is dealt."""
    t = _loser(episode="game", totals=[227, 0])
    assert t.phase == "trump" and tf(t, "deal_no") == 1 and tf(t, "winner") == -1
    assert tf(t, "total", 2) == [247, -17]


def test_banque__target_checked_only_at_hand_end():
    """A21: the match is not decided mid-hand."""
    t = Table(["9H", "JS", "JD"], bank="10H", num_players=3, totals=[240, 0, 0])
    t.act("play 9H")  # seat 0 goes out 1st (+20) but the hand goes on
    assert t.phase == "play" and tf(t, "total", 3) == [240, 0, 0]


def test_banque__highest_total_wins():
    """5.4: when several reach the target the highest total wins."""
    t = _loser("9C", episode="game", totals=[240, 270])  # 260 against 270
    assert t.phase == "over" and tf(t, "winner") == 1


def test_banque__custom_target_score():
    """8: target_score."""
    t = _loser(episode="game", totals=[80, 0], target_score=100)
    assert t.phase == "over" and tf(t, "winner") == 0


def test_banque__tie_starts_a_tie_break_hand():
    """5.4: equal highest totals play one more hand."""
    t = _loser("9C", episode="game", totals=[230, 250])  # 250 and 250
    assert t.phase != "over" and tf(t, "winner") == -1
    assert tf(t, "tiebreak") == 1 and tf(t, "contender", 2) == [1, 1]
    assert tf(t, "deal_no") == 1


@pytest.mark.parametrize(
    "mode, sitting", [("extra_hand_all_players", [0, 0, 0]), ("extra_hand_tied_only", [0, 1, 0])]
)
def test_banque__tie_break_players(mode, sitting):
    """5.4: by default everybody plays the tie-break hand; extra_hand_tied_only seats out the
    others (no cards)."""
    # seat 1 is out already; seat 0 goes out 2nd (+10): 250; seat 2 keeps 9C (0): 250
    t = Table(
        ["9H", "", "9C"], bank="10H", num_players=3, totals=[240, 100, 250], win_tie_break=mode
    )
    t.act("play 9H")
    assert tf(t, "tiebreak") == 1 and tf(t, "contender", 3) == [1, 0, 1]
    assert tf(t, "sitting", 3) == sitting
    assert (t.hand(1) == "") is bool(sitting[1])


def test_banque__tie_break_decided_among_contenders():
    """5.4: in the tie-break hand only the tied leaders can win; the higher total wins."""
    t = Table(["9H", "", "AS"], bank="10H", num_players=3, totals=[250, 400, 250])
    R.field(t.state, "tiebreak")[0] = 1
    R.field(t.state, "contender")[0][:3] = [1, 0, 1]
    t.act("play 9H")  # seat 0 2nd: 260; seat 2: 250 - 12 = 238; seat 1 keeps 400
    assert t.phase == "over" and tf(t, "winner") == 0


def test_banque__tie_break_repeats_while_tied():
    """5.4: still tied after the tie-break hand: one more hand."""
    t = Table(["9H", "9C"], bank="10H", num_players=2, totals=[240, 260])
    R.field(t.state, "tiebreak")[0] = 1
    R.field(t.state, "contender")[0][:2] = [1, 1]
    t.act("play 9H")  # 260 and 260
    assert t.phase != "over" and tf(t, "tiebreak") == 1 and tf(t, "deal_no") == 1


@pytest.mark.parametrize(
    "totals, winners",
    [([0, 0], [1, 0]), ([0, 37], [1, 1])],  # 20/-17; 20/20: shared
)
def test_banque__max_hands(totals, winners):
    """Config max_hands: the match ends after that many hands; the highest total wins, equal
    highest totals share the win."""
    t = _loser(episode="game", totals=totals, max_hands=1)
    assert t.phase == "over" and tf(t, "winners", 2) == winners


# =================================================================================================
# Bad input
# =================================================================================================
@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"hands": ["9H XX", "KC"], "num_players": 2}, "unknown card 'XX'"),
        ({"hands": ["2S", "KC"], "num_players": 2}, "not in the banque deck"),
        ({"hands": ["9H", "9H"], "num_players": 2}, "more than once"),
        ({"hands": ["9H", "KC"], "bank": "9H", "num_players": 2}, "more than once"),
        ({"hands": ["9H", "KC"]}, "4 expected, got 2"),
        ({"hands": ["9H", "KC"], "bank": "10H", "owners": [5], "num_players": 2}, "owners"),
        ({"hands": ["9H", "KC"], "bank": "10H", "owners": [0, 1], "num_players": 2}, "owners"),
        ({"hands": ["", "KC"], "num_players": 2}, "current"),
        ({"hands": ["9H", "KC"], "num_players": 2, "trumps": ["H", "H"]}, "different suits"),
        ({"hands": ["9H", "KC"], "num_players": 2, "penalty_fixed": 30}, "penalty_fixed"),
    ],
)
def test_banque__table_bad_input(kwargs, message):
    """Table refuses bad positions with a helpful message."""
    with pytest.raises(ValueError, match=message):
        Table(**kwargs)


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (("9H", "9H"), {}, "cannot cover itself"),
        (("2S", "9H"), {}, "not in the banque deck"),
        (("9H", "ZZ"), {}, "unknown card"),
        (("9H", "10H"), {"trumps": "X"}, "trump suit"),
        (("9H", "10H"), {"trump_option": 3}, "common trump"),
        (("9H", "10H"), {"trump_option": 3, "trumps": "HS"}, "1 common trump"),
        (("9H", "10H"), {"seat": 4}, "seat"),
        (("9H", "10H"), {"trump_option": 6}, "trump_option"),
    ],
)
def test_banque__beats_bad_input(args, kwargs, message):
    """beats refuses bad cards and trumps with a helpful message."""
    with pytest.raises(ValueError, match=message):
        beats(*args, **kwargs)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"penalty_fixed": 30}, "penalty_fixed"),
        ({"penalty_per_card": 4}, "penalty_per_card"),
        ({"finish_bonus": (1, 2)}, "finish_bonus"),
        ({"finish_king_extra": "abc"}, "finish_king_extra"),
        ({"common_trumps": "X"}, "common_trumps"),
        ({"trump_option": 4, "common_trumps": "H"}, "common_trumps"),
        ({"num_players": 5}, "num_players"),
        ({"seven_effect": "bogus"}, "seven_effect"),
        ({"next_dealer": "winner"}, "next_dealer"),
    ],
)
def test_banque__config_bad_values(kwargs, message):
    """Config refuses values outside section 8's options."""
    with pytest.raises(ValueError, match=message):
        Config(**kwargs)


def test_banque__reset_bad_deck():
    """3.3: a reset deck must hold the 36 cards once each."""
    env, _ = new_env()
    with pytest.raises(ValueError):
        env.reset(seed=0, options={"deck": ALL_CARDS[:-1] + ALL_CARDS[:1]})
