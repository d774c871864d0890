"""Esel rules: the spec's worked examples and one scenario per rule clause (docs/games/esel.md
sections 2-7).

Tricks are checked through the rules helper ``trick_winner`` (the same kernels as the game) and
through the env from fixed decks; scoring and the end of the game through whole hands and through
crafted states (``R._end_hand``, as the piquet tests do with ``_end_deal``). Every expected value
was worked out by hand from the spec; the reasoning is in the comments.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from harness import act, legal_names, seat_of

import cardenvs
from cardenvs.core.cards import format_card, parse_cards
from cardenvs.core.game import layout_offsets
from cardenvs.games.esel import config as C
from cardenvs.games.esel import constants as K
from cardenvs.games.esel import layout as L
from cardenvs.games.esel import rules as R
from cardenvs.games.esel import trick_winner

GOLDEN = Path(__file__).parent / "golden" / "esel"
SUITS = "SHDC"
RANKS = ("6", "7", "8", "9", "J", "Q", "K", "10", "A")  # Esel rank order, low -> high (spec 2)
ALL_CARDS = [r + s for s in SUITS for r in RANKS]
# card points (spec 2), written out by hand
POINTS = {"8": 16, "A": 12, "10": 10, "K": 5, "Q": 3, "J": 1, "9": 0, "7": 0, "6": -1}
# points needed to discharge a bank (spec 3.4): players -> (go, no)
THRESHOLDS = {2: (44, 68), 3: (56, 80), 4: (68, 92)}


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


# --- helpers ------------------------------------------------------------------------------------
def new_env(**config):
    env = cardenvs.make("esel-v0", illegal_action="raise", **config)
    return env, env.unwrapped


def field(core, name):
    return L.field(core._engine.state, name)[0]


def legal_cards(core) -> set[str]:
    return {n.removeprefix("play ") for n in legal_names(core)}


def cards_of(mask) -> set[str]:
    m = int(mask)
    return {format_card(c) for c in range(64) if (m >> c) & 1}


def build_deck(hands: dict, dealer: int, num_players: int = 4, stock=()) -> list[str]:
    """The deck order for ``reset``: each seat's hand from the dealer's left, then ``stock`` from
    the top, then every other card.

    Hands given with fewer than 4 cards are topped up with cards that are not diamonds, so the
    only diamonds dealt are the ones named here (the lowest diamond decides the first leader).
    """
    named = [c for h in hands.values() for c in h] + list(stock)
    assert len(named) == len(set(named)), f"a card is named twice: {named}"
    assert set(named) <= set(ALL_CARDS), f"not Esel cards: {set(named) - set(ALL_CARDS)}"
    filler = [c for c in ALL_CARDS if c not in named and suit(c) != "D"]
    deck = []
    for i in range(num_players):
        hand = list(hands.get((dealer + 1 + i) % num_players, ()))
        assert len(hand) <= 4
        while len(hand) < 4:
            hand.append(filler.pop())
        deck += hand
    deck += list(stock)
    deck += [c for c in ALL_CARDS if c not in deck]
    assert len(deck) == 36 and len(set(deck)) == 36 and set(deck) == set(ALL_CARDS)
    for i in range(num_players):  # the deal puts exactly these hands in these seats
        seat = (dealer + 1 + i) % num_players
        assert set(hands.get(seat, ())) <= set(deck[4 * i : 4 * i + 4])
    return deck


def complete_trumps(given: dict, num_players: int = 4, forbidden: dict | None = None) -> dict:
    """Distinct own trump suits per seat (option 1): the ``given`` ones, no seat holding a suit
    that ``forbidden`` excludes for it, the rest the first free suits."""
    forbidden = forbidden or {}
    for perm in itertools.permutations(SUITS, num_players):
        if all(perm[s] == t for s, t in given.items()) and all(
            perm[s] not in bad for s, bad in forbidden.items()
        ):
            return dict(enumerate(perm))
    raise AssertionError(f"no trump assignment with {given} avoiding {forbidden}")


def start(hands, dealer, trumps=None, decls=None, stock=(), num_players=4, **config):
    """Reset with a fixed deck, choose the trumps (option 1, from the dealer's left) and declare
    (everybody "no" unless ``decls`` says otherwise); returns at the first lead."""
    env, core = new_env(num_players=num_players, **config)
    deck = build_deck(hands, dealer, num_players, stock)
    env.reset(seed=0, options={"deck": deck, "dealer": dealer})
    order = [(dealer + 1 + i) % num_players for i in range(num_players)]
    if field(core, "phase") == K.PHASE_TRUMP:
        own = complete_trumps(trumps or {}, num_players)
        for seat in order:
            assert seat_of(env) == seat
            act(env, core, f"trump {own[seat]}")
    for seat in order:
        assert seat_of(env) == seat and legal_names(core) == {"go", "no"}
        act(env, core, (decls or {}).get(seat, "no"))
    assert field(core, "phase") == K.PHASE_PLAY
    return env, core


def play_hand(env, core):
    """Play the current hand to its end with the first legal action."""
    deal_no = int(field(core, "deal_no"))
    while not any(env.terminations.values()) and int(field(core, "deal_no")) == deal_no:
        env.step(core.legal_actions()[0])


def end_hand(num_players=4, banks=None, points=None, decl=None, taken=None, deal_no=0, **config):
    """Score a crafted hand: ``R._end_hand`` on a state holding the given banks, points (card
    points of the tricks), declarations and taken cards (for the bonuses)."""
    P = num_players
    cfg = C.Config(num_players=P, **config).to_array()
    s = L.new_state(1)
    L.field(s, "key")[0] = 5
    L.field(s, "deal_no")[0] = deal_no
    L.field(s, "dealer")[0] = 0
    L.field(s, "first_leader")[0] = 2
    L.field(s, "winner")[0] = -1
    L.field(s, "banks")[0][:P] = banks if banks is not None else [3] * P
    L.field(s, "points")[0][:P] = points if points is not None else [0] * P
    L.field(s, "decl")[0][:P] = [1 if d == "go" else 0 for d in (decl or ["no"] * P)]
    for p, cards in (taken or {}).items():
        L.field(s, "taken")[0][p] = np.uint64(sum(1 << c for c in parse_cards(cards)))
    R._end_hand(s, 0, cfg)
    return s


# --- the worked examples (spec 6) ---------------------------------------------------------------
WORKED = [json.loads(line) for line in (GOLDEN / "worked_examples.jsonl").read_text().splitlines()]
ROW_IDS = [f"row{ex['row']:02d}" for ex in WORKED]


def test_worked_examples__golden_table_has_all_23_rows():
    assert [ex["row"] for ex in WORKED] == list(range(1, 24))
    for ex in WORKED:
        assert len(ex["cards"]) == 4 and len(set(ex["cards"])) == 4
        assert set(ex["cards"]) <= set(ALL_CARDS) and 1 <= ex["winner"] <= 4


def trumps_of(example) -> list:
    """Option 1 own trumps per position: only the one in force (spec 6: "Own trump in force")."""
    own = [None] * 4
    if example["trump"]:
        own[example["trump"]["player"] - 1] = example["trump"]["suit"]
    return own


@pytest.mark.parametrize("example", WORKED, ids=ROW_IDS)
def test_worked_example__trick_winner(example):
    assert trick_winner(example["cards"], trumps_of(example)) == example["winner"] - 1


def test_worked_example__row_22_retroactive_chain_gives_p2():
    # A1 (ii): after KS 9S QS JS the 9S (one lower than the JS) rejoins the chain K<-Q<-J<-9
    ex = WORKED[21]
    assert ex["row"] == 22 and ex["retroactive_winner"] == 2
    assert trick_winner(ex["cards"], retroactive_chain=True) == 1
    assert trick_winner(ex["cards"], retroactive_chain=False) == 3


def play_worked_row(example, **config):
    """Play the row's trick as the first trick of a hand with 4 players (option 1, trumps chosen
    by actions); returns (the position -> seat function, env, core).

    P1 sits in a seat that rotates with the row; the dealer is P2 (P1's left), so the dealer's left
    is P3 and only P1's 6D (the lowest diamond) makes P1 lead. Each player holds his card of the
    row plus diamonds and hearts: the main suit is spades (clubs after an eight), so every player
    who plays off-suit is void in it and each play is legal (4.5).
    """
    cards = example["cards"]
    p1 = (example["row"] - 1) % 4

    def seat(pos):  # position P1..P4 (1..4) -> seat
        return (p1 + pos - 1) % 4

    dealer = seat(2)
    led = suit(cards[0])
    given = {}
    if example["trump"]:
        given[seat(example["trump"]["player"])] = example["trump"]["suit"]
    # nobody else plays a card of his own trump suit off the led suit
    forbidden = {
        seat(k + 1): {suit(c)}
        for k, c in enumerate(cards)
        if suit(c) != led and seat(k + 1) not in given
    }
    trumps = complete_trumps(given, 4, forbidden)
    if example["trump"]:
        assert trumps[seat(example["trump"]["player"])] == example["trump"]["suit"]
    pool = [c for c in ALL_CARDS if suit(c) in "HD" and c not in cards and c != "6D"]
    hands = {seat(1): [cards[0], "6D", pool.pop(), pool.pop()]}
    for k in range(1, 4):
        hands[seat(k + 1)] = [cards[k], pool.pop(), pool.pop(), pool.pop()]
    for k, c in enumerate(cards):  # only the played card can be a spade or a club
        assert all(suit(x) in "HD" for x in hands[seat(k + 1)] if x != c)
    env, core = start(hands, dealer, trumps, **config)
    for k, c in enumerate(cards):
        assert seat_of(env) == seat(k + 1)
        assert f"play {c}" in legal_names(core)
        act(env, core, f"play {c}")
    return seat, env, core


@pytest.mark.parametrize("example", WORKED, ids=ROW_IDS)
def test_worked_example__env_first_trick(example):
    seat, env, core = play_worked_row(example)
    want = seat(example["winner"])
    assert field(core, "last_win")[0] == want
    assert seat_of(env) == want  # the winner leads the next trick
    assert field(core, "tricks").tolist() == [int(s == want) for s in range(4)]


def test_worked_example__env_row_22_retroactive_chain():
    seat, env, core = play_worked_row(WORKED[21], retroactive_chain=True)
    assert field(core, "last_win")[0] == seat(2) and seat_of(env) == seat(2)


# --- the beat table (4.2) -----------------------------------------------------------------------
# spec 4.2 lookup matrix, transcribed: row X placed on column Y of the same suit; "Y" beats,
# "(Y)" beats only the unkilled led card or one-lower chain, "." does not beat
MATRIX = """
6   -   Y   .   Y   .   .   Y   Y   Y
7   .   -   .   .   .   .   .   .   .
8   Y   Y   -   Y   Y   .   .   Y   Y
9   .   Y   .   -  (Y)  .   .   .   .
J   .   Y   .   Y   -  (Y)  .   .   .
Q   Y   Y   Y   Y   Y   -  (Y)  .   .
K   .   Y   Y   Y   Y   Y   -  (Y)  .
10  .   Y   .   Y   Y   Y   Y   -  (Y)
A   .   Y   .   Y   Y   Y   Y   Y   -
"""
BEAT = {}
for _line in MATRIX.strip().splitlines():
    _x, *_cells = _line.split()
    for _y, _cell in zip(RANKS, _cells, strict=True):
        BEAT[_x, _y] = _cell
SAME_SUIT_PAIRS = [(x, y) for x in RANKS for y in RANKS if x != y]


def test_beat_table__constant_matches_the_spec_matrix():
    code = {"Y": 1, "(Y)": 2, ".": 0, "-": 0}
    expected = [[code[BEAT[x, y]] for y in RANKS] for x in RANKS]
    assert K.BEAT.tolist() == expected


@pytest.mark.parametrize("x, y", SAME_SUIT_PAIRS, ids=[f"{x}on{y}" for x, y in SAME_SUIT_PAIRS])
def test_beat_table__same_suit_pair_on_the_led_card(x, y):
    # Y is led and unkilled, so both "Y" and "(Y)" entries take; no fight-back can follow, since
    # the matrix never has "Y" both ways
    takes = BEAT[x, y] in ("Y", "(Y)")
    assert trick_winner([y + "S", x + "S"]) == (1 if takes else 0)


BRACKETS = [("9", "J"), ("J", "Q"), ("Q", "K"), ("K", "10"), ("10", "A")]


@pytest.mark.parametrize("x, y", BRACKETS, ids=[f"{x}on{y}" for x, y in BRACKETS])
def test_beat_table__bracket_refused_on_a_killer(x, y):
    # 7S led, Y kills it (every J..A beats a 7; the 7 beats nothing, so no fight-back), then X,
    # one lower than Y: "(Y)" counts only on the led card or a chain, not on a killer (row 20)
    assert BEAT[y, "7"] == "Y" and BEAT[x, y] == "(Y)"
    assert trick_winner(["7S", y + "S", x + "S"]) == 1


CROSS_PAIRS = [(x, y) for x in RANKS for y in RANKS]


@pytest.mark.parametrize("x, y", CROSS_PAIRS, ids=[f"{x}Hon{y}S" for x, y in CROSS_PAIRS])
def test_beat_table__other_suit_only_same_value_or_eight(x, y):
    # 4.2 "other suit" column, no trumps: X beats a card of another suit only with its rank, or
    # as an 8 (an eight interruption: the helper takes its player to be void in spades)
    takes = x == y or x == "8"
    assert trick_winner([y + "S", x + "H"]) == (1 if takes else 0)


def test_beat_table__seven_never_beats():
    # A16: no "7 on 8"; a 7 takes nothing of its suit, only a 7 of another suit (same value)
    for y in RANKS:
        if y != "7":
            assert trick_winner([y + "S", "7S"]) == 0


# --- more trick clauses (4.3, 4.4) --------------------------------------------------------------
@pytest.mark.parametrize(
    "cards, trumps, winner",
    [
        # one-lower chain K<-Q<-J, then the 10S kills the JS (10 on J is "Y"); the led KS does
        # not fight back (K on 10 is only "(Y)") -> P4
        ("KS QS JS 10S", None, 3),
        # 8S kills 7S, QS kills 8S (a 7 never fights back); J on Q is only "(Y)", refused after a
        # kill -> P3
        ("7S 8S QS JS", None, 2),
        # ... whereas K on Q is "Y": the KS kills the QS, and the led 6S beats the K and fights
        # back (row 7 with one more kill) -> P1
        ("6S 8S QS KS", None, 0),
        # a same-value card takes a one-lower card (rule c): JS led, 9S one lower (chain), JH has
        # the value of the main card JS and takes it -> P3
        ("JS 9S JH 7C", None, 2),
        # later same-value card takes an earlier one (V, V): row 11 without the discard
        ("6S 6C 6H 6D", None, 3),
        # VT takes from a player who killed the main card before it (rule c): QS kills 6S, then
        # P3's own-trump 6C of the main card's value takes it (P3)
        ("6S QS 6C 7H", [None, None, "C", None], 2),
        # VT is taken only by a later VT (A7): P3's 6H (own trump) takes P2's 6C (own trump)
        ("6S 6C 6H 7D", [None, "C", "H", None], 2),
        # a trump does not take an 8 of its own suit (rule b): P2's 8C interrupts the 6S (P2 void
        # in spades) and clubs become the main suit; P3's own-trump 10C is then a club on an 8
        # (10 on 8 is ".") -> the 8C keeps it (P2)
        ("6S 8C 10C 7H", [None, None, "C", None], 1),
        # an eight interruption takes a trump (A8): P2's 10C is a trump (10 > 7), P3's 8H (void
        # in spades) interrupts: the 10C is not of the 8's suit (P3)
        ("7S 10C 8H 9D", [None, "C", None, None], 2),
        # an eight interruption takes a same-value own trump (A7): P2's 6C (VT), P3's 8H (void
        # in spades) -> P3
        ("6S 6C 8H 7D", [None, "C", None, None], 2),
        # an eight does not take a Q or K of its own suit (A8): P2's QH is P2's own trump (Q > 7);
        # P3's 8H interrupts but 8 on Q is "." -> the QH stays (P2)
        ("7S QH 8H 9D", [None, "H", None, None], 1),
    ],
)
def test_trick__clauses_of_4_3_and_4_4(cards, trumps, winner):
    assert trick_winner(cards, trumps) == winner


# --- legal plays (4.5) --------------------------------------------------------------------------
LEGAL_CASES = [
    # (lead by P1, P2's hand, P2's own trump, config, P2's legal cards)
    # nothing outranks an A (so no trump can take it) and P2 holds no A: he does not beat, so he
    # must follow with a spade; the 7 never beats but is a legal main-suit card
    ("AS", "7S 9H JC KD", "H", {}, {"7S"}),
    # off-suit takers are legal while holding spades: 7H same value, QC own trump (Q > 7); the
    # 10D is neither (not P2's trump, not a 7) and P2 holds a spade: illegal
    ("7S", "9S 7H QC 10D", "C", {}, {"9S", "7H", "QC"}),
    # an off-suit 8 only from a player void in the main suit: P2 holds the 9S
    ("7S", "8H 9S JD QD", "C", {}, {"9S"}),
    # void in spades: anything, the 8H included
    ("7S", "8H 9H JD QD", "C", {}, {"8H", "9H", "JD", "QD"}),
    # beating is optional (A4): 9S (9 on K is ".") as well as the takers QS (one lower than the
    # unkilled led K), KH (same value) and AC (own trump, A > K)
    ("KS", "9S QS KH AC", "C", {}, {"9S", "QS", "KH", "AC"}),
    # must_beat: only the takers
    ("KS", "9S QS KH AC", "C", {"must_beat": True}, {"QS", "KH", "AC"}),
    # must_beat with no taker: 7 and 9 do not beat an A, JD/QD are not trumps -> follow suit
    ("AS", "7S 9S JD QD", "C", {"must_beat": True}, {"7S", "9S"}),
    # own trumps too small (row 23: 9 and J are below K in rank order) are discards: illegal
    ("KS", "9C JC 7S 7D", "C", {}, {"7S"}),
    # own trump of the main card's value (VT) is a taker; 9S is a non-taking spade
    ("6S", "6C 9S JD QD", "C", {}, {"6C", "9S"}),
]


@pytest.mark.parametrize("lead, hand, trump, config, expected", LEGAL_CASES)
def test_legal__follower_after_the_lead(lead, hand, trump, config, expected):
    # seat 0 (P1) holds the 6D, the lowest diamond, and leads; P2 sits in seat 1
    env, core = start({0: [lead, "6D"], 1: hand.split()}, dealer=3, trumps={1: trump}, **config)
    assert seat_of(env) == 0
    act(env, core, f"play {lead}")
    assert seat_of(env) == 1
    assert legal_cards(core) == expected
    mask = core.observe("player_1")["action_mask"]
    assert {core.action_name(a).removeprefix("play ") for a in np.flatnonzero(mask)} == expected


def test_legal__leader_plays_any_card():
    env, core = start({0: ["6D", "AS", "9H", "8C"]}, dealer=3)
    assert seat_of(env) == 0 and legal_cards(core) == {"6D", "AS", "9H", "8C"}


def test_legal__illegal_card_raises_and_changes_nothing():
    env, core = start({0: ["AS", "6D"], 1: "7S 9H JC KD".split()}, dealer=3, trumps={1: "H"})
    act(env, core, "play AS")
    before = field(core, "hand").copy()
    with pytest.raises(ValueError):
        act(env, core, "play KD")  # a discard while holding the 7S
    assert field(core, "hand").tolist() == before.tolist() and seat_of(env) == 1


def test_legal__after_an_eight_its_suit_is_the_main_suit():
    # 7S led; P2 (void in spades) interrupts with the 8H: hearts are the main suit now. P3 holds
    # 9S 9H 6C JD with own trump D: the 9H is a main-suit card (9 on 8 is ".", still legal), the JD
    # is a trump (J above 7 and 8), the 9S is now off-suit and not a taker, the 6C a discard
    hands = {0: ["7S", "6D"], 1: "8H 10C QC KC".split(), 2: "9S 9H 6C JD".split()}
    env, core = start(hands, dealer=3, trumps={1: "C", 2: "D"})
    act(env, core, "play 7S")
    assert "play 8H" in legal_names(core)
    act(env, core, "play 8H")
    assert field(core, "main_suit") == SUITS.index("H")
    assert legal_cards(core) == {"9H", "JD"}


# --- trump choice, declarations, first leader, refill (3, 4.1) -----------------------------------
def test_trump_choice__in_turn_from_the_dealers_left_each_a_free_suit():
    env, core = new_env()
    env.reset(seed=0, options={"deck": build_deck({}, 1), "dealer": 1})
    hand = layout_offsets(L.OBS_LAYOUT)["hand"]
    assert seat_of(env) == 2  # the dealer's left
    # nobody sees his cards before the trump choice is over (3.2: chosen before the deal)
    assert core.observe("player_2")["observation"][hand : hand + 36].sum() == 0
    assert legal_names(core) == {"trump S", "trump H", "trump D", "trump C"}
    act(env, core, "trump H")
    assert seat_of(env) == 3 and legal_names(core) == {"trump S", "trump D", "trump C"}
    act(env, core, "trump S")
    act(env, core, "trump C")
    assert seat_of(env) == 1 and legal_names(core) == {"trump D"}
    act(env, core, "trump D")
    assert field(core, "trump").tolist() == [3, 2, 1, 0]  # seat 0 C, 1 D, 2 H, 3 S
    assert field(core, "phase") == K.PHASE_DECLARE and seat_of(env) == 2
    assert core.observe("player_2")["observation"][hand : hand + 36].sum() == 4


def test_declaration__go_and_no_in_turn_from_the_dealers_left():
    env, core = start({}, dealer=2, decls={3: "go", 0: "no", 1: "go", 2: "no"})
    assert field(core, "decl").tolist() == [0, 1, 0, 1]


@pytest.mark.parametrize(
    "hands, dealer, num_players, leader",
    [
        ({1: ["AD", "10D"], 2: ["9D"], 3: ["JD"]}, 0, 4, 2),  # 9 < J < 10 < A: 9D is lowest
        ({1: ["10D"], 3: ["JD"]}, 0, 4, 3),  # J < 10 in the Esel rank order: JD, not 10D
        ({2: ["7D"], 0: ["8D", "6S"]}, 2, 4, 2),  # the dealer himself may hold it
        ({0: ["KD"], 2: ["QD"]}, 0, 3, 2),  # Q < K
        ({1: ["AD"]}, 1, 2, 1),  # 2 players: the only diamond, held by the dealer
        ({}, 1, 4, 2),  # nobody holds a diamond: the dealer's left
        ({}, 3, 4, 0),
        ({}, 0, 3, 1),
        ({}, 1, 2, 0),
    ],
)
def test_first_leader__lowest_diamond_else_dealers_left(hands, dealer, num_players, leader):
    env, core = start(hands, dealer, num_players=num_players)
    assert seat_of(env) == leader and field(core, "first_leader") == leader


def test_refill__to_four_after_each_trick_the_winner_first():
    # 7S led (seat 0 holds the 6D); JS kills it (7 never fights back); 9S on the killer JS is
    # refused (bracket after a kill), 6 on J is ".": seat 1 takes and draws the top of the stock,
    # then seats 2, 3, 0
    hands = {0: ["7S", "6D"], 1: ["JS"], 2: ["9S"], 3: ["6S"]}
    env, core = start(hands, dealer=3, stock=["AC", "KC", "QC", "JC"])
    act(env, core, "play 7S", "play JS", "play 9S", "play 6S")
    assert field(core, "last_win")[0] == 1 and seat_of(env) == 1
    held = [cards_of(m) for m in field(core, "hand")]
    assert [len(h) for h in held] == [4, 4, 4, 4]
    assert "AC" in held[1] and "KC" in held[2] and "QC" in held[3] and "JC" in held[0]
    assert field(core, "stock_pos") == 20


# --- card points and bonuses (2, 5.1) -----------------------------------------------------------
def test_card_points__table_and_deck_total():
    for r, pts in POINTS.items():
        assert K.POINTS[parse_cards(r + "S")[0] % 13] == pts
    assert sum(POINTS[rank(c)] for c in ALL_CARDS) == 184  # 4 x 46


@pytest.mark.parametrize(
    "cards, num_players, config, winner, points",
    [
        # K led, Q one lower (chain), A kills Q (K on A is ".": no fight-back), 10 on A is "(Y)"
        # after a kill: refused -> seat 2 takes 5 + 3 + 12 + 10 = 30
        ("KS QS AS 10S", 4, {"four_suit_bonus": 0}, 2, 30),
        ("KS QS AS 10S", 4, {}, 2, 40),  # four cards of one suit: +10 (A9)
        ("KS QS AS 10S", 4, {"four_suit_bonus": 7}, 2, 37),
        ("KS QS AS", 3, {}, 2, 20),  # only a 4-card trick earns the bonus
        # 8 kills 6 (6 on 8 is "."), J and 9 do not beat an 8: -1 + 16 + 1 + 0 = 16
        ("6H 8H JH 9H", 4, {"four_suit_bonus": 0}, 1, 16),
        # A kills 7; 10 on A refused after a kill; 6 on A is "Y" (7 on 6 is "."): 0+12+10-1 = 21
        ("7C AC 10C 6C", 4, {"four_suit_bonus": 0}, 3, 21),
    ],
)
def test_card_points__trick_goes_to_its_taker(cards, num_players, config, winner, points):
    cards = cards.split()
    hands = {i: [c] for i, c in enumerate(cards)}
    hands[0].append("6D")  # seat 0 leads
    env, core = start(hands, dealer=num_players - 1, num_players=num_players, **config)
    for c in cards:
        act(env, core, f"play {c}")
    assert field(core, "last_win")[0] == winner
    expected = [0] * 4
    expected[winner] = points
    assert field(core, "points").tolist() == expected


@pytest.mark.parametrize(
    "taken, config, bonus",
    [
        ("KS QS", {}, 25),  # a king-queen pair of one suit (A9)
        ("KS QS KH QH", {}, 50),  # one per pair
        ("QS JD", {}, 15),  # queen of spades and jack of diamonds
        ("KS QS JD", {}, 40),
        ("KS QH JS QD", {}, 0),  # no pair of one suit, no QS + JD
        ("KS QS", {"marriage_bonus": 0}, 0),  # 0 disables
        ("QS JD", {"queen_jack_bonus": 0}, 0),
        ("KC QC QS JD", {"marriage_bonus": 40, "queen_jack_bonus": 1}, 41),
    ],
)
def test_bonuses__counted_at_the_end_of_the_hand(taken, config, bonus):
    s = end_hand(taken={0: taken}, episode="deal", **config)
    assert L.field(s, "last_points")[0][0] == bonus


def test_bonuses__count_toward_the_threshold():
    # 70 card points + 25 for K+Q of spades = 95 >= 92: the "no" player discharges a bank
    s = end_hand(points=[70, 70, 0, 0], taken={0: "KS QS"}, episode="deal")
    assert L.field(s, "bank_change")[0][:4].tolist() == [-1, 0, 0, 0]


# --- thresholds and banks (3.4, 5.2) ------------------------------------------------------------
@pytest.mark.parametrize(
    "num_players, decl, points, change",
    [
        (2, "go", 44, -1),  # reaching = at least
        (2, "go", 43, +1),  # "go" failed: a bank more
        (2, "no", 68, -1),
        (2, "no", 67, 0),  # "no" failed: nothing happens
        (2, "no", 44, 0),  # the "go" threshold does not help a "no"
        (3, "go", 56, -1),
        (3, "go", 55, +1),
        (3, "no", 80, -1),
        (3, "no", 79, 0),
        (4, "go", 68, -1),
        (4, "go", 67, +1),
        (4, "no", 92, -1),
        (4, "no", 91, 0),
        (4, "go", 150, -1),
        (4, "go", -4, +1),
    ],
)
def test_thresholds__bank_change_per_player_count(num_players, decl, points, change):
    P = num_players
    s = end_hand(P, points=[points] + [0] * (P - 1), decl=[decl] + ["no"] * (P - 1), episode="deal")
    assert L.field(s, "bank_change")[0][:P].tolist() == [change] + [0] * (P - 1)
    assert L.field(s, "banks")[0][:P].tolist() == [3 + change] + [3] * (P - 1)
    assert L.field(s, "last_points")[0][0] == points


def test_observation__thresholds_block_per_player_count():
    off = layout_offsets(L.OBS_LAYOUT)["thresholds"]
    for P, (go, no) in THRESHOLDS.items():
        env, core = new_env(num_players=P)
        env.reset(seed=1)
        obs = core.observe("player_0")["observation"]
        assert obs[off : off + 2].tolist() == pytest.approx([go / 100, no / 100])


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("bonuses", [False, True], ids=["no_bonus", "bonus"])
def test_whole_hand__points_refill_and_banks(num_players, bonuses):
    P = num_players
    cfg = {} if bonuses else {"marriage_bonus": 0, "queen_jack_bonus": 0, "four_suit_bonus": 0}
    env, core = new_env(num_players=P, episode="deal", **cfg)
    env.reset(seed=10 + P)
    refills = (36 - 4 * P) // P  # 14 / 8 / 5 (3.3)
    decls, four, done = {}, [0] * P, 0
    while not any(env.terminations.values()):
        seat, phase = seat_of(env), int(field(core, "phase"))
        if phase == K.PHASE_DECLARE:
            decls[seat] = "go" if seat % 2 == 0 else "no"
            act(env, core, decls[seat])
            continue
        if phase == K.PHASE_PLAY and field(core, "trick_n") == 0:
            # at each trick's start every hand holds the same number of cards: 4 while the stock
            # lasts, then one fewer per trick
            sizes = {len(cards_of(m)) for m in field(core, "hand")[:P]}
            assert sizes == {4 if done <= refills else 4 - (done - refills)}
        env.step(core.legal_actions()[0])
        if int(field(core, "tricks").sum()) > done:
            done += 1
            trick = {format_card(int(c)) for c in field(core, "last_trick")[:P]}
            if P == 4 and len({suit(c) for c in trick}) == 1:
                four[field(core, "last_win")[0]] += 1
    assert done == 36 // P
    deal = core.record()["deals"][0]
    taken = [cards_of(m) for m in field(core, "taken")[:P]]
    assert sum(len(t) for t in taken) == 36
    cards_pts = [sum(POINTS[rank(c)] for c in t) for t in taken]
    assert sum(cards_pts) == 184
    go_at, no_at = THRESHOLDS[P]
    for p in range(P):
        bonus = 0
        if bonuses:
            bonus += 25 * sum({"K" + s, "Q" + s} <= taken[p] for s in SUITS)
            bonus += 15 * ({"QS", "JD"} <= taken[p]) + 10 * four[p]
        assert deal["points"][p] == cards_pts[p] + bonus
        pts = deal["points"][p]
        if decls[p] == "go":
            change = -1 if pts >= go_at else 1
        else:
            change = -1 if pts >= no_at else 0
        assert deal["bank_change"][p] == change and deal["banks"][p] == 3 + change


# --- end of the game (5.3), next dealer (A12) ---------------------------------------------------
@pytest.mark.parametrize(
    "banks, decl, points, config, deal_no, after, winner",
    [
        # a player who discharges his last bank wins
        ([1, 3, 3, 3], ["no"] * 4, [92, 0, 0, 0], {}, 0, [0, 3, 3, 3], 0),
        # a player reaches 6 (a failed "go"): the fewest banks win
        ([5, 2, 3, 4], ["go", "no", "no", "no"], [0] * 4, {}, 0, [6, 2, 3, 4], 1),
        # ... but a tie for fewest plays on (A13)
        ([5, 2, 2, 4], ["go", "no", "no", "no"], [0] * 4, {}, 0, [6, 2, 2, 4], None),
        # two players reach 0 in the same hand: play on
        ([1, 1, 3, 3], ["no"] * 4, [92, 92, 0, 0], {}, 0, [0, 0, 3, 3], None),
        # the next hand: seat 0 stays at 0 (never below), seat 1 fails his "go": seat 0 wins
        ([0, 0, 3, 3], ["no", "go", "no", "no"], [92, 0, 0, 0], {}, 0, [0, 1, 3, 3], 0),
        # the max_hands cap: after the last hand the fewest banks win, a tie is a draw
        ([2, 3, 4, 3], ["no"] * 4, [0] * 4, {"max_hands": 5}, 4, [2, 3, 4, 3], 0),
        ([2, 2, 4, 3], ["no"] * 4, [0] * 4, {"max_hands": 5}, 4, [2, 2, 4, 3], -1),
        ([2, 2, 4, 3], ["no"] * 4, [0] * 4, {"max_hands": 5}, 3, [2, 2, 4, 3], None),
    ],
)
def test_end_of_game__zero_wins_six_loses_ties_play_on(
    banks, decl, points, config, deal_no, after, winner
):
    s = end_hand(4, banks=banks, points=points, decl=decl, deal_no=deal_no, **config)
    assert L.field(s, "banks")[0].tolist() == after
    if winner is None:
        assert L.field(s, "phase")[0] != K.PHASE_OVER
        assert L.field(s, "deal_no")[0] == deal_no + 1
        assert L.field(s, "winner")[0] == -1
        assert L.field(s, "dealer")[0] == 2  # the first leader of the hand deals next
    else:
        assert L.field(s, "phase")[0] == K.PHASE_OVER
        assert L.field(s, "winner")[0] == winner


@pytest.mark.parametrize(
    "banks, decl, points, deal_no, after, winner",
    [
        # two players reach 0 together: the one with more points in that hand wins at once
        ([1, 1, 3, 3], ["no"] * 4, [100, 95, 0, 0], 0, [0, 0, 3, 3], 0),
        ([1, 1, 3, 3], ["no"] * 4, [95, 100, 0, 0], 0, [0, 0, 3, 3], 1),
        # only the tied players count: seat 2 took more points but is not at 0
        ([1, 1, 3, 3], ["no"] * 4, [95, 97, 100, 0], 0, [0, 0, 2, 3], 1),
        # equal points too: play on, the next hand decides
        ([1, 1, 3, 3], ["no"] * 4, [95, 95, 0, 0], 0, [0, 0, 3, 3], None),
        # the fewest banks tied when someone reaches 6: the tied player with more points wins
        ([5, 2, 2, 4], ["go", "no", "no", "no"], [0, 30, 40, 0], 0, [6, 2, 2, 4], 2),
        # a tie for fewest with nobody at 6 is no end: play on
        ([3, 2, 2, 4], ["no"] * 4, [0, 30, 40, 0], 0, [3, 2, 2, 4], None),
        # after max_hands a tie for fewest is decided by the hand's points, not drawn
        ([2, 2, 4, 3], ["no"] * 4, [10, 20, 0, 0], 4, [2, 2, 4, 3], 1),
        ([2, 2, 4, 3], ["no"] * 4, [20, 20, 0, 0], 4, [2, 2, 4, 3], -1),
    ],
)
def test_end_of_game__hand_points_tie_break(banks, decl, points, deal_no, after, winner):
    """``tie_break="hand_points"`` (the decisive reading of A13): a tie that would play on goes
    to the tied player with the most points in the hand where it arose."""
    s = end_hand(
        4,
        banks=banks,
        points=points,
        decl=decl,
        deal_no=deal_no,
        max_hands=5,
        tie_break="hand_points",
    )
    assert L.field(s, "banks")[0].tolist() == after
    if winner is None:
        assert L.field(s, "phase")[0] != K.PHASE_OVER
        assert L.field(s, "deal_no")[0] == deal_no + 1
    else:
        assert L.field(s, "phase")[0] == K.PHASE_OVER
        assert L.field(s, "winner")[0] == winner
    # the default rule (A13) plays every one of these ties on, or draws at the cap
    s = end_hand(4, banks=banks, points=points, decl=decl, deal_no=deal_no, max_hands=5)
    if deal_no < 4:
        assert L.field(s, "phase")[0] != K.PHASE_OVER
    else:
        assert L.field(s, "winner")[0] == -1


def test_end_of_game__hand_points_two_players_end_in_the_hand_that_settles_the_tie():
    """Two players both discharge their last bank in a hand (the usual two-player ending): with
    ``hand_points`` the higher hand total wins then; by default the game plays on."""
    s = end_hand(2, banks=[1, 1], points=[95, 89], decl=["no", "no"], tie_break="hand_points")
    assert L.field(s, "phase")[0] == K.PHASE_OVER and L.field(s, "winner")[0] == 0
    s = end_hand(2, banks=[1, 1], points=[95, 89], decl=["no", "no"])
    assert L.field(s, "phase")[0] != K.PHASE_OVER


@pytest.mark.parametrize("next_dealer, expected", [("first_leader", 2), ("left", 1), ("same", 0)])
def test_next_dealer__first_leader_of_the_previous_hand(next_dealer, expected):
    # dealer 0; seat 2 holds the 6D and leads the first trick (not the dealer's left, seat 1)
    env, core = start({2: ["6D"]}, dealer=0, next_dealer=next_dealer)
    assert field(core, "first_leader") == 2
    play_hand(env, core)
    assert field(core, "deal_no") == 1 and field(core, "dealer") == expected
    assert core.record()["deals"][1]["dealer"] == expected
    assert seat_of(env) == (expected + 1) % 4  # the trump choice starts at his left


# --- trump options 2-5 (3.2, 4.6) ---------------------------------------------------------------
@pytest.mark.parametrize(
    "cards, trumps, option, winner",
    [
        # option 2: no trumps; a same-value card still takes (6H), the 10C is a discard
        ("6S JS 6H 10C", None, 2, 2),
        # the same cards under option 1 with P4's own trump C: 10 > 6, and the winner 6H is not
        # of the trump's suit -> the trump takes the same-value card
        ("6S JS 6H 10C", [None, None, None, "C"], 1, 3),
        # option 3, hearts: the 10H is a trump (10 > 6); the ordinary same-value 6C does not take
        # a trump
        ("6S JS 10H 6C", "H", 3, 2),
        # option 3: the QS kills the 7S, but ordinary cards never beat trumps: the 10H keeps it
        ("7S 10H QS 9C", "H", 3, 1),
        # ... while under option 1 (P2's own trump H) the kill takes the trump (rule e, row 5)
        ("7S 10H QS 9C", [None, "H", None, None], 1, 2),
        # option 3: a trump suit led; the ordinary 6S of the same rank still takes (S2 overlap)
        ("6H 7S 6S 9C", "H", 3, 2),
        # option 4, hearts and clubs of equal standing: the AC tops the 10H (A above 10)
        ("7S 10H AC 9D", "HC", 4, 2),
        # ... the 10H is not above the AC that already held the trick
        ("7S AC 10H 9D", "HC", 4, 1),
        # ... diamonds are ordinary: the AD is a discard
        ("7S 10H AD 9C", "HC", 4, 1),
        # option 5: the junior 9D is a trump over the ordinary 7H; the senior AS takes it
        ("7H 9D AS 6C", None, 5, 2),
        # a junior trump cannot take a senior trump (AD after 9S)
        ("7H 9S AD 6C", None, 5, 1),
        # ... except by the same rank: 9S led (senior), the junior 9D takes it
        ("9S 9D AH 6C", None, 5, 1),
        # ... and an ordinary card of the same rank too
        ("9S 6C 9H 7C", None, 5, 2),
        # a junior trump is not a trump against a senior main suit (AD after 9S led)
        ("9S AD 7H 6C", None, 5, 0),
        # an ordinary 8 (8C, void in hearts) cannot take a trump (the senior 9S)
        ("7H 9S 8C 6D", None, 5, 1),
        # ... while with no trumps (option 2) the 8C interrupts the 7H
        ("7H 9S 8C 6D", None, 2, 2),
        # a senior 8 (8S, void in hearts) interrupts over the junior 9D
        ("7H 9D 8S 6C", None, 5, 2),
    ],
)
def test_trump_options__beating_by_class(cards, trumps, option, winner):
    assert trick_winner(cards, trumps, trump_option=option) == winner


@pytest.mark.parametrize(
    "config, classes",
    [
        ({"trump_option": 2}, [0, 0, 0, 0]),
        ({"trump_option": 3, "common_trumps": "H"}, [0, 1, 0, 0]),
        ({"trump_option": 4, "common_trumps": "SC"}, [1, 0, 0, 1]),
        ({"trump_option": 5}, [2, 0, 1, 0]),  # spades senior, diamonds junior
    ],
)
def test_trump_options__classes_fixed_and_no_trump_choice(config, classes):
    env, core = new_env(**config)
    env.reset(seed=3, options={"dealer": 0})
    assert field(core, "suit_class").tolist() == classes
    assert field(core, "phase") == K.PHASE_DECLARE and seat_of(env) == 1
    assert legal_names(core) == {"go", "no"}


@pytest.mark.parametrize("option, count", [(3, 1), (4, 2)])
def test_trump_options__random_common_trumps(option, count):
    env, core = new_env(trump_option=option)
    for seed in range(5):
        env.reset(seed=seed)
        classes = field(core, "suit_class").tolist()
        assert sorted(classes) == [0] * (4 - count) + [1] * count


def test_trump_options__random_own_trumps_are_distinct():
    env, core = new_env(trump_assignment="random")
    env.reset(seed=4)
    assert sorted(field(core, "trump").tolist()) == [0, 1, 2, 3]
    assert field(core, "phase") == K.PHASE_DECLARE


# --- config alternatives (7) --------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards, trumps, config, winner",
    [
        # A5: JS led, KS kills it (J on K is "."), 6S kills KS (6 on K is "Y"); the J does not
        # beat the 6 (6/J neutral): default (i) P3; (ii) the 6 does not beat the J: P1 retakes
        ("JS KS 6S", None, {}, 2),
        ("JS KS 6S", None, {"fightback": "not_beaten"}, 0),
        # A15: the 6S fights back against the KS (row 7) and counts as killed: the same-value 6C
        # is then a discard; "revived" lets it take
        ("6S 8S KS 6C", None, {}, 0),
        ("6S 8S KS 6C", None, {"after_fightback": "revived"}, 3),
        # A6: after 6S 8S KS (fight-back) P4's own-trump 9C is above M (6) and W (6S) but not
        # above the 8 and K that held the trick
        ("6S 8S KS 9C", [None, None, None, "C"], {}, 0),
        ("6S 8S KS 9C", [None, None, None, "C"], {"trump_must_exceed": "main_and_winner"}, 3),
        # A14: after 7S, JS (kill), AC (P3's trump) a 9S must beat the JS (9 on J is "(Y)", no);
        # alternative: it only has to beat M = 7S (9 on 7 is "Y")
        ("7S JS AC 9S", [None, None, "C", None], {}, 2),
        ("7S JS AC 9S", [None, None, "C", None], {"kill_after_trump_beats": "main_card"}, 3),
        # A7: P2's own-trump 6C (VT); a later QS kills the 6S: not by default, yes with the flag
        ("6S 6C QS 7H", [None, "C", None, None], {}, 1),
        ("6S 6C QS 7H", [None, "C", None, None], {"same_trump_taken_by_kill": True}, 2),
        # A1 (row 22)
        ("KS 9S QS JS", None, {"retroactive_chain": True}, 1),
    ],
)
def test_config__spec_alternatives(cards, trumps, config, winner):
    assert trick_winner(cards, trumps, **config) == winner


def test_config__fightback_alternative_through_the_env():
    # the A5 trick in the env (3 players): JS led by seat 0 (holds the 6D), KS, 6S
    for config, winner in (({}, 2), ({"fightback": "not_beaten"}, 0)):
        hands = {0: ["JS", "6D"], 1: ["KS"], 2: ["6S"]}
        env, core = start(hands, dealer=2, num_players=3, **config)
        act(env, core, "play JS", "play KS", "play 6S")
        assert field(core, "last_win")[0] == winner


# --- bad input ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "config, match",
    [
        ({"num_players": 5}, "num_players"),
        ({"num_players": 1}, "num_players"),
        ({"trump_option": 0}, "trump_option"),
        ({"trump_option": 6}, "trump_option"),
        ({"common_trumps": "X"}, "common_trumps"),
        ({"common_trumps": "HH"}, "common_trumps"),
        ({"trump_option": 4, "common_trumps": "H"}, "common_trumps"),
        ({"trump_option": 3, "common_trumps": "HS"}, "common_trumps"),
        ({"fightback": "sometimes"}, "fightback"),
        ({"marriage_bonus": -1}, "marriage_bonus"),
        ({"max_hands": 0}, "max_hands"),
        ({"no_such_option": 1}, "unknown config"),
    ],
)
def test_bad_input__config_raises(config, match):
    with pytest.raises(ValueError, match=match):
        cardenvs.make("esel-v0", **config)


@pytest.mark.parametrize(
    "cards, kwargs, match",
    [
        ("6S", {}, "2-4 cards"),
        ("6S 7S 8S 9S JS", {}, "2-4 cards"),
        ("6S 6S", {}, "twice"),
        ("2S JS", {}, "not in the esel deck"),
        ("6S JS", {"trumps": ["S"]}, "one suit"),
        ("6S JS 7S", {"trumps": ["S", None, "H", "C"]}, "one suit"),
        ("6S JS", {"trumps": ["S", "X"]}, "trump suit"),
        ("6S JS", {"trump_option": 3}, "common trump"),
        ("6S JS", {"trump_option": 3, "trumps": "X"}, "common_trumps"),
        ("6S JS", {"trump_option": 4, "trumps": "H"}, "common_trumps"),
        ("6S JS", {"trump_option": 0}, "trump_option"),
        ("6S JS", {"fightback": "x"}, "fightback"),
    ],
)
def test_bad_input__trick_winner_raises(cards, kwargs, match):
    with pytest.raises(ValueError, match=match):
        trick_winner(cards, **kwargs)


def test_bad_input__reset_deck_and_dealer():
    env, _ = new_env()
    deck = build_deck({}, 0)
    with pytest.raises(ValueError, match="36"):
        env.reset(seed=0, options={"deck": deck[:35]})
    with pytest.raises(ValueError, match="more than once"):
        env.reset(seed=0, options={"deck": deck[:35] + deck[:1]})
    with pytest.raises(ValueError, match="not in the esel deck"):
        env.reset(seed=0, options={"deck": deck[:35] + ["2S"]})
    with pytest.raises(ValueError, match="dealer"):
        env.reset(seed=0, options={"deck": deck, "dealer": 4})


@pytest.mark.parametrize(
    "reading, taken, expected",
    [
        # the four kings taken: 4 x 5 points, plus 10 only under the "four of a rank" reading
        ("four_of_a_rank", "KS KH KD KC", 4 * 5 + 10),
        ("one_suit_trick", "KS KH KD KC", 4 * 5),
        # three kings and a queen: no four of a rank; 3 x 5 + 3, and the KS+QS marriage 25
        ("four_of_a_rank", "KS KH KD QS", 3 * 5 + 3 + 25),
    ],
)
def test_bonus__four_cards_alternative_reading(reading, taken, expected):
    cfg = C.Config(four_cards_reading=reading, queen_jack_bonus=0).to_array()
    s = L.new_state(1)
    L.field(s, "dealer")[0] = 0
    L.field(s, "banks")[0] = [3, 3, 3, 3]
    L.field(s, "decl")[0] = [0, 0, 0, 0]
    L.field(s, "key")[0] = 5
    mask = 0
    for c in parse_cards(taken):
        mask |= 1 << c
    L.field(s, "taken")[0, 0] = mask
    # card points are counted as tricks are taken; here only the bonuses are added at the end
    L.field(s, "points")[0, 0] = sum(int(K.POINTS[c % 13]) for c in parse_cards(taken))
    R._end_hand(s, 0, cfg)
    assert L.field(s, "last_points")[0, 0] == expected
