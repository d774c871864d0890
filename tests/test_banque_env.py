"""Banque (``banque-v0``): what its environment checks hold beyond the contract suite (PettingZoo
api/seed tests, registry, vector == AEC, autoreset, bad actions, action names, reset options,
config errors, records and replays, render: ``test_contract_aec.py``, ``test_contract_vector.py``).

1. hypothesis properties over random legal play: cards conserved, masks non-empty exactly while
   the game runs (and equal to a reference reading of spec 4.1-4.4), steps per hand bounded,
   observations inside their space and equal to the documented layout, rewards zero-sum and as
   the reward table says, no hidden-information leak (spec 3-4: the bank, its owners, the taken
   cards, trumps, hand sizes and scores are public; each hand, the stock order and the cards
   another player drew are private; during the trump choice nobody sees his cards);
2. the action table, deals from fixed decks, what a record's hands hold, the render's views.

State fields are reached with ``rules.field(state, name)`` (a writable view over all rows).
Card masks are ``uint64`` with global ids ``suit * 13 + rank`` (rank 0 = two .. 12 = ace);
Banque uses ranks 4..12 (6..A). Card index in observations and actions: suit * 9 + rank - 4.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections import Counter

import harness
import numpy as np
import pytest
from harness import (
    act,
    bits,
    choose,
    legal_names,
    obs_block_name,
    observe_state,
)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import cardenvs
from cardenvs.games.banque import config as C
from cardenvs.games.banque import constants as K
from cardenvs.games.banque import layout as R
from cardenvs.games.banque import record as T

ENV_ID = "banque-v0"
NUM_ACTIONS = 111
NUM_CARDS = 36
SUITS = "SHDC"
NAT_RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")  # global ranks 4..12
GAME_ORDER = ("6", "7", "8", "9", "J", "Q", "K", "10", "A")  # spec 2: the beating order
CARD_POINTS = {"A": 12, "10": 10, "K": 5, "Q": 3, "J": 1}  # spec 2 / 5.1, the rest 0
BANQUE_IDS = np.array([s * 13 + r for s in range(4) for r in range(4, 13)], np.int64)
ALL36 = sum(1 << int(c) for c in BANQUE_IDS)
CARD_STRINGS = [f"{r}{s}" for s in SUITS for r in NAT_RANKS]
# Steps per hand (see test_banque__steps_per_hand_are_bounded for the derivation)
HAND_BOUND = 332
HAND_BOUND_OUT_OF_TURN = 1103


def config_id(c: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in c.items()) or "default"


SETTINGS = settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
seeds = st.integers(min_value=0, max_value=2**31 - 1)


def obs_block(i: int) -> str:
    return obs_block_name(R.OBS_LAYOUT, i)


aec_envs = functools.partial(harness.aec_envs, ENV_ID)


def config_strategy(max_hands=(1, 2, 3)):
    """Configurations whose legal moves ``expected_legal`` knows (default beating rules);
    ``max_hands`` and ``target_score`` keep whole games short where a test plays them."""
    return st.fixed_dictionaries(
        {
            "num_players": st.integers(2, 4),
            "trump_option": st.integers(1, 5),
            "trump_assignment": st.sampled_from(["choose_in_turn", "random", "by_seat"]),
            "seven_effect": st.sampled_from(["control", "draw_then_move", "draw_and_skip", "none"]),
            "specials_out_of_turn": st.booleans(),
            "bank_take": st.sampled_from(["all_but_top", "all"]),
            "centre_card": st.booleans(),
            "episode": st.sampled_from(["game", "deal"]),
            "reward": st.sampled_from(["win", "score"]),
            "target_score": st.sampled_from([60, 248]),
            "win_tie_break": st.sampled_from(["extra_hand_all_players", "extra_hand_tied_only"]),
            "max_hands": st.sampled_from(max_hands),
        }
    )


def rule_strategy(max_hands=(1, 2, 3)):
    """``config_strategy`` plus the other rule options (beating, drawing, follow-ups, scoring)."""
    return st.tuples(
        config_strategy(max_hands),
        st.fixed_dictionaries(
            {},
            optional={
                "hand_size": st.integers(1, 8),
                "beat_step": st.sampled_from(["any_lower", "next_lower_only"]),
                "same_rank_always_beats": st.booleans(),
                "forced_play": st.booleans(),
                "voluntary_draw": st.booleans(),
                "draws_per_failure": st.integers(1, 3),
                "after_draw_play": st.sampled_from(["any_legal", "drawn_card_only"]),
                "eights_wild": st.booleans(),
                "eight_followup": st.sampled_from(["none", "optional", "mandatory_if_able"]),
                "four_of_a_kind": st.booleans(),
                "quad_followup": st.sampled_from(["none", "optional", "mandatory_if_able"]),
                "sequence_order": st.sampled_from(["game_order", "natural"]),
                "sequence_followup": st.sampled_from(["none", "optional"]),
                "four_kings_take_bank": st.sampled_from(["always", "only_when_going_out"]),
                "unowned_top_failure": st.sampled_from(["nobody_takes", "previous_owner"]),
                "final_bank": st.sampled_from(["nobody", "top_owner"]),
                "common_trumps_beat_each_other": st.booleans(),
                "penalty_mode": st.sampled_from(
                    ["card_points", "fixed", "per_card", "card_points_plus_per_zero_card"]
                ),
                "allow_negative_totals": st.booleans(),
                "next_dealer": st.sampled_from(
                    ["loser", "finisher", "starter", "highest_score", "lowest_score"]
                ),
            },
        ),
    ).map(lambda t: {**t[0], **t[1]})


configs = config_strategy()
rule_configs = rule_strategy()


# --- helpers -----------------------------------------------------------------------------------
def popcount(x) -> np.ndarray:
    """Bits set in each uint64 of ``x``."""
    x = np.ascontiguousarray(x, dtype=np.uint64)
    return np.unpackbits(x.view(np.uint8).reshape(*x.shape, 8), axis=-1).sum(-1).astype(np.int64)


def local(c: int) -> int:
    """Banque card index (suit * 9 + rank - 6) of global card id ``c``."""
    return (c // 13) * 9 + c % 13 - 4


def name(c: int) -> str:
    """Card string of global card id ``c``."""
    return NAT_RANKS[c % 13 - 4] + SUITS[c // 13]


def card_of(text: str) -> int:
    """Global card id of a card string."""
    return SUITS.index(text[-1]) * 13 + NAT_RANKS.index(text[:-1]) + 4


def points(c: int) -> int:
    return CARD_POINTS.get(NAT_RANKS[c % 13 - 4], 0)


def swap_bits(m: int, a: int, c: int) -> int:
    if ((m >> a) & 1) != ((m >> c) & 1):
        m ^= (1 << a) | (1 << c)
    return m


def row_masks(s, b: int, field: str) -> list[int]:
    return [int(x) for x in R.field(s, field)[b]]


def bank_cards(s, b: int) -> list[tuple[int, int]]:
    """The bank of row ``b`` from the bottom: ``(card, owner)`` pairs."""
    n = int(R.field(s, "bank_n")[b])
    return [
        (int(c), int(o))
        for c, o in zip(R.field(s, "bank")[b, :n], R.field(s, "owner")[b, :n], strict=True)
    ]


def undrawn_stock(s) -> np.ndarray:
    """(N,) uint64: the stock cards not drawn yet (deck positions stock_pos .. 35)."""
    deck = R.field(s, "deck").astype(np.int64)
    card_bits = np.left_shift(np.uint64(1), deck.astype(np.uint64))
    pos = R.field(s, "stock_pos").astype(np.int64)
    undrawn = np.arange(NUM_CARDS)[None, :] >= pos[:, None]
    return np.bitwise_or.reduce(np.where(undrawn, card_bits, np.uint64(0)), axis=1)


def participants(s, b: int, P: int) -> list[int]:
    """Seats taking part in the current hand, from the dealer's left."""
    dealer = int(R.field(s, "dealer")[b])
    order = [(dealer + 1 + i) % P for i in range(P)]
    return [p for p in order if not R.field(s, "sitting")[b, p]]


def check_cards(s, config: C.Config, where: str = "") -> None:
    """Cards are conserved in every row of state ``s``: the hands, the taken cards, the bank and
    the undrawn stock are disjoint and make the 36 cards; and the bookkeeping around them."""
    P = config.num_players
    deck = R.field(s, "deck").astype(np.int64)
    bad = np.flatnonzero((np.sort(deck, axis=1) != BANQUE_IDS[None, :]).any(axis=1))
    assert bad.size == 0, f"{where}row {bad[0]}: deck is not the 36 banque cards: {deck[bad[0]]}"
    hand, taken = R.field(s, "hand"), R.field(s, "taken")
    assert not hand[:, P:].any() and not taken[:, P:].any(), (
        f"{where}cards held by a seat beyond num_players={P}"
    )
    n = deck.shape[0]
    bank = np.zeros(n, np.uint64)
    bank_count = np.zeros(n, np.int64)
    for b in range(n):
        for c, _ in bank_cards(s, b):
            bank[b] |= np.uint64(1 << c)
            bank_count[b] += 1
    stock = undrawn_stock(s)
    parts = np.concatenate([hand[:, :P], taken[:, :P], bank[:, None], stock[:, None]], axis=1)
    union = np.bitwise_or.reduce(parts, axis=1)
    counts = popcount(parts)
    total = counts.sum(axis=1)
    bad = np.flatnonzero(
        (union != np.uint64(ALL36)) | (total != NUM_CARDS) | (bank_count != counts[:, -2])
    )
    assert bad.size == 0, (
        f"{where}row {bad[0]}: cards not conserved; sizes (hands, taken, bank, stock) = "
        f"{counts[bad[0]].tolist()} (bank list {bank_count[bad[0]]}), union "
        f"{int(union[bad[0]]):#x}, expected {ALL36:#x}"
    )
    h = config.hand_size
    phase = R.field(s, "phase")
    for b in range(n):
        ph = int(phase[b])
        hands, tk = row_masks(s, b, "hand"), row_masks(s, b, "taken")
        bank_list = bank_cards(s, b)
        pos = int(R.field(s, "stock_pos")[b])
        seats = participants(s, b, P)
        dealt = h * len(seats) + int(config.centre_card)
        assert dealt <= pos <= NUM_CARDS, f"{where}row {b}: stock_pos {pos}, dealt {dealt}"
        for c, o in bank_list:
            assert o == -1 or (o in seats), f"{where}row {b}: bank card {name(c)} owner {o}"
        for p in range(P):
            pts = sum(points(c) for c in bits(tk[p]))
            got = int(R.field(s, "bank_points")[b, p])
            assert got == pts, f"{where}row {b}: seat {p} bank points {got}, taken cards {pts}"
            if p not in seats:
                assert hands[p] == 0 and tk[p] == 0, f"{where}row {b}: sitting seat {p} plays"
        out = [int(x) for x in R.field(s, "out")[b, :P]]
        n_out = int(R.field(s, "n_out")[b])
        assert sorted(x for x in out if x) == list(range(1, n_out + 1)), (
            f"{where}row {b}: finishing positions {out}, n_out {n_out}"
        )
        if ph == K.PHASE_OVER:
            continue
        cur = int(R.field(s, "current")[b])
        assert cur in seats, f"{where}row {b}: seat {cur} to act"
        drawn = int(R.field(s, "drawn")[b])
        assert drawn & ~hands[cur] == 0, f"{where}row {b}: drawn cards not in the mover's hand"
        for p in range(P):
            if out[p]:
                assert hands[p] == 0, f"{where}row {b}: seat {p} is out with cards"
        if ph == K.PHASE_TRUMP:
            for i, p in enumerate(seats):
                want = sum(1 << int(c) for c in deck[b, h * i : h * i + h])
                assert hands[p] == want, f"{where}row {b}: seat {p} is not dealt its cards"
            centre = [(int(deck[b, h * len(seats)]), -1)] if config.centre_card else []
            assert bank_list == centre and pos == dealt and not any(tk) and not any(out), (
                f"{where}row {b}: cards moved during the trump choice"
            )
        else:
            holders = sum(1 for p in seats if hands[p])
            assert holders >= 2, f"{where}row {b}: the hand goes on with {holders} holder(s)"
            assert hands[cur] != 0, f"{where}row {b}: seat {cur} to act without cards"


def aec_walk(env, rng, max_iter=200_000):
    """Play one AEC episode with random legal actions; yield ``(agent, obs, reward, done)``
    (what ``env.last()`` says) before each step, dead steps included."""
    for agent in env.agent_iter(max_iter=max_iter):
        obs, reward, term, trunc, _ = env.last()
        done = term or trunc
        yield agent, obs, reward, done
        env.step(None if done else int(choose(obs["action_mask"][None, :], rng)[0]))


# --- reference readings of the layout and of the legal moves -----------------------------------
def ref_beats(s, b: int, config: C.Config, x: int, t: int, seat: int) -> bool:
    """Spec 4.2 with the default beating options: a lower card of the suit in the game order,
    the same rank, or a trump the option allows (3.2)."""
    if x // 13 == t // 13 and GAME_ORDER.index(name(x)[:-1]) < GAME_ORDER.index(name(t)[:-1]):
        return True
    if x % 13 == t % 13:
        return True
    opt = config.trump_option
    if opt == 1:
        own = int(R.field(s, "trump")[b, seat])
        return own >= 0 and x // 13 == own and t // 13 != own
    if opt == 2:
        return False
    cls = R.field(s, "suit_class")[b]
    return int(cls[x // 13]) > int(cls[t // 13])


def expected_legal(s, b: int, config: C.Config) -> set[str]:
    """The legal action names of the seat to act by the module docstring's action table and
    spec 4.1-4.4 (default beating, drawing and follow-up options)."""
    P = config.num_players
    ph = int(R.field(s, "phase")[b])
    if ph == K.PHASE_OVER:
        return set()
    if ph == K.PHASE_TRUMP:
        taken = {int(t) for t in R.field(s, "trump")[b, :P] if t >= 0}
        return {f"trump {SUITS[x]}" for x in range(4) if x not in taken}
    seat = int(R.field(s, "current")[b])
    hand = bits(int(R.field(s, "hand")[b, seat]))
    bank = bank_cards(s, b)
    top = bank[-1][0] if bank else None
    beat = {c for c in hand if top is None or ref_beats(s, b, config, c, top, seat)}
    eights = {c for c in hand if name(c)[:-1] == "8"}
    legal = set()
    if ph != K.PHASE_INTERRUPT:
        legal |= {f"play {name(c)}" for c in beat - eights}
    if ph == K.PHASE_FOLLOW:
        assert beat, f"row {b}: a follow-up is asked without a possible beat"
        return legal | {f"eight {name(c)}" for c in beat & eights} | {"stop"}
    legal |= {f"eight {name(c)}" for c in eights}
    held = {name(c) for c in hand}
    for r in NAT_RANKS:
        if all(r + x in held for x in SUITS):
            legal |= {f"quad {r} top {x}" for x in SUITS}
    for x in SUITS:
        for i in range(len(GAME_ORDER) - 3):
            if all(r + x in held for r in GAME_ORDER[i : i + 4]):
                legal.add(f"sequence {x} {GAME_ORDER[i]}")
    if ph == K.PHASE_INTERRUPT:
        return legal | {"stop"}
    if not beat:  # no normal beat (an eight that beats counts, A13): draw while allowed, then fail
        draws = int(R.field(s, "draws")[b])
        can_draw = int(R.field(s, "stock_pos")[b]) < NUM_CARDS and draws < config.draws_per_failure
        legal.add("draw" if can_draw else "pass")
    return legal


def expected_obs(s, b: int, config: C.Config, seat: int) -> np.ndarray:
    """``seat``'s observation of row ``b`` as the observation table of the rules module says."""
    P = config.num_players
    x = np.zeros(R.OBS_DIM, np.float64)

    def f(key):
        return R.field(s, key)[b]

    ph, cur = int(f("phase")), int(f("current"))
    if ph != K.PHASE_TRUMP:
        for c in bits(int(f("hand")[seat])):
            x[R.O_HAND + local(c)] = 1
    bank = bank_cards(s, b)
    for i, (c, o) in enumerate(bank):
        block = 4 if o < 0 else (o - seat) % P
        x[R.O_BANK_OWNER + 36 * block + local(c)] = 1
        x[R.O_BANK_POS + local(c)] = (i + 1) / 36
    if bank:
        x[R.O_TOP + local(bank[-1][0])] = 1
    for p in range(P):
        for c in bits(int(f("taken")[p])):
            x[R.O_TAKEN + local(c)] = 1
    if cur == seat:
        for c in bits(int(f("drawn"))):
            x[R.O_DRAWN + local(c)] = 1
    for k in range(P):
        p = (seat + k) % P
        if ph != K.PHASE_TRUMP:
            x[R.O_HAND_SIZE + k] = bin(int(f("hand")[p])).count("1") / 36
        t = int(f("trump")[p])
        x[R.O_TRUMPS + 5 * k + (t if t >= 0 else 4)] = 1
        x[R.O_OUT + k] = int(f("out")[p]) / 3
        x[R.O_BANK_POINTS + k] = int(f("bank_points")[p]) / 124
        x[R.O_BONUS + k] = int(f("bonus")[p]) / 100
        x[R.O_TOTAL + k] = np.clip(int(f("total")[p]) / config.target_score, -20, 20)
        x[R.O_SITTING + k] = int(f("sitting")[p])
        x[R.O_CONTENDER + k] = int(f("contender")[p])
        x[R.O_SEATS + k] = 1
        x[R.O_DEALER + k] = float(p == int(f("dealer")))
    for suit in range(4):
        x[R.O_SUIT_CLASS + suit] = int(f("suit_class")[suit]) / 2
    mover = int(f("next_mover")) if ph == K.PHASE_INTERRUPT else cur
    if mover >= 0:
        x[R.O_MOVER + (mover - seat) % P] = 1
    x[R.O_STOCK] = (NUM_CARDS - int(f("stock_pos"))) / 36
    x[R.O_PHASE + ph] = 1
    x[R.O_TO_ACT] = float(cur == seat)
    seven = int(f("seven"))
    if seven and ph != K.PHASE_INTERRUPT:
        x[R.O_SEVEN + seven - 1] = 1
    if ph != K.PHASE_INTERRUPT:
        x[R.O_DRAWS] = int(f("draws")) / config.draws_per_failure
    x[R.O_FAILS] = min(int(f("fails")), 4) / 4
    x[R.O_HAND_NO] = int(f("deal_no")) / config.max_hands
    return x.astype(np.float32)


def check_layout(venv, seat: int) -> None:
    """Every seat's observation equals the documented layout, block by block."""
    view = venv.observe(seat)
    for b in range(venv.num_envs):
        want = expected_obs(venv.state, b, venv.config, seat)
        bad = np.flatnonzero(~np.isclose(view[b], want, atol=1e-6))
        assert bad.size == 0, (
            f"row {b}, seat {seat}, phase {K.PHASE_NAMES[int(R.field(venv.state, 'phase')[b])]}: "
            f"{[obs_block(i) for i in bad]} are {view[b, bad].tolist()}, the layout says "
            f"{want[bad].tolist()}"
        )


# --- 1. PettingZoo conformance -----------------------------------------------------------------
# --- 2. hypothesis properties ------------------------------------------------------------------
@SETTINGS
@example(seed=0, action_seed=0, config={"max_hands": 3})
@example(seed=1, action_seed=2, config={"num_players": 2, "max_hands": 3, "hand_size": 8})
@example(
    seed=2,
    action_seed=1,
    config={"num_players": 3, "win_tie_break": "extra_hand_tied_only", "target_score": 20},
)
@given(seed=seeds, action_seed=seeds, config=rule_configs)
def test_banque__cards_conserved_at_every_step(seed, action_seed, config):
    cfg = C.Config(**config)
    venv = cardenvs.make_vector(ENV_ID, 8, seed=seed, **config)
    rng = np.random.default_rng(action_seed)
    _, mask, _ = venv.reset()
    check_cards(venv.state, cfg, "after reset: ")
    for t in range(160):  # two hands or more (autoreset included)
        _, mask, *_ = venv.step(choose(mask, rng))
        check_cards(venv.state, cfg, f"step {t}: ")


def test_banque__cards_check_can_fail():
    cfg = C.Config(num_players=3)
    venv = cardenvs.make_vector(ENV_ID, 2, seed=3, num_players=3)
    venv.reset()
    check_cards(venv.state, cfg)
    bad = copy.deepcopy(venv.state)
    hand = R.field(bad, "hand")
    hand[1, 0] = hand[1, 0] | hand[1, 1]  # one card in two hands
    with pytest.raises(AssertionError, match="row 1"):
        check_cards(bad, cfg)
    bad = copy.deepcopy(venv.state)
    R.field(bad, "stock_pos")[0] += 1  # a stock card lost
    with pytest.raises(AssertionError, match="row 0"):
        check_cards(bad, cfg)
    bad = copy.deepcopy(venv.state)
    R.field(bad, "bank_n")[1] = 2  # a stock card also in the bank
    R.field(bad, "bank")[1, 1] = R.field(bad, "deck")[1, 35]
    with pytest.raises(AssertionError, match="row 1: cards not conserved"):
        check_cards(bad, cfg)


@SETTINGS
@example(seed=0, action_seed=0, config={"num_players": 4, "max_hands": 2})
@example(
    seed=1,
    action_seed=1,
    config={"num_players": 3, "specials_out_of_turn": True, "seven_effect": "draw_then_move"},
)
@given(seed=seeds, action_seed=seeds, config=configs)
def test_banque__aec_mask_nonempty_until_the_end_and_as_the_rules_say(seed, action_seed, config):
    cfg = C.Config(**config)
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=seed)
    core = env.unwrapped
    state = core._engine.state
    rng = np.random.default_rng(action_seed)
    live = 0
    phases = Counter()
    for agent, obs, _, done in aec_walk(env, rng):
        if done:
            for a in env.possible_agents:
                m = env.observe(a)["action_mask"]
                assert not m.any(), f"{a}: non-empty mask {np.flatnonzero(m)} after the end"
            continue
        live += 1
        mask = obs["action_mask"]
        legal = set(np.flatnonzero(mask).tolist())
        assert legal, f"{agent}: empty action mask before the end (step {live})"
        assert legal == set(core.legal_actions())
        for a in env.possible_agents:
            if a != agent:
                assert not env.observe(a)["action_mask"].any(), f"{a} may act out of turn"
        seat = core.agent_name_mapping[agent]
        assert int(R.field(state, "current")[0]) == seat
        ph = int(R.field(state, "phase")[0])
        phases[K.PHASE_NAMES[ph]] += 1
        want = expected_legal(state, 0, cfg)
        got = legal_names(core)
        assert got == want, (
            f"{agent} in phase {K.PHASE_NAMES[ph]}, hand "
            f"{[name(c) for c in bits(int(R.field(state, 'hand')[0, seat]))]}, bank "
            f"{[(name(c), o) for c, o in bank_cards(state, 0)]}: legal {sorted(got)}, the rules "
            f"say {sorted(want)}"
        )
        if ph == K.PHASE_PLAY and not int(R.field(state, "seven")[0]):
            assert int(R.field(state, "draws")[0]) == 0, "a turn starts with draws used"
        if ph == K.PHASE_DRAWN:
            assert int(R.field(state, "draws")[0]) >= 1
    assert not env.agents, "the episode did not end"
    assert phases["play"] > 0


@SETTINGS
@given(seed=seeds, action_seed=seeds, config=rule_configs)
def test_banque__vector_mask_nonempty_exactly_while_live(seed, action_seed, config):
    n = 8
    venv = cardenvs.make_vector(ENV_ID, n, seed=seed, autoreset=False, validate=False, **config)
    rng = np.random.default_rng(action_seed)
    _, mask, _ = venv.reset()
    done = np.zeros(n, bool)
    bound = HAND_BOUND_OUT_OF_TURN if venv.config.specials_out_of_turn else HAND_BOUND
    for _ in range(venv.config.max_hands * bound + 2):
        live = R.field(venv.state, "phase") != K.PHASE_OVER
        assert (live == ~done).all()
        assert (mask.any(axis=1) == live).all(), f"rows {np.flatnonzero(mask.any(1) != live)}"
        assert ((R.field(venv.state, "current") >= 0) == live).all()
        if done.all():
            break
        _, mask, _, terminated, _, _ = venv.step(choose(mask, rng))
        done |= terminated
    assert done.all()


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@example(seed=0, action_seed=0, config={"num_players": 4, "max_hands": 3})
@example(seed=1, action_seed=1, config={"num_players": 2, "max_hands": 3})
@example(
    seed=2,
    action_seed=2,
    config={"num_players": 4, "specials_out_of_turn": True, "max_hands": 3},
)
@example(
    seed=3,
    action_seed=3,
    config={"num_players": 4, "draws_per_failure": 3, "voluntary_draw": True, "max_hands": 2},
)
@given(seed=seeds, action_seed=seeds, config=rule_configs)
def test_banque__steps_per_hand_are_bounded(seed, action_seed, config):
    """Every hand ends within a bounded number of agent actions.

    Per hand, with P <= 4 players and 36 cards:

    - trump choices: <= P <= 4 (option 1, chosen in turn);
    - plays (``play``, ``eight``, ``quad``, ``sequence``): <= 36, since each play moves at least
      one card from a hand to the bank and bank cards never return to a hand;
    - draws: <= 36 (each takes a stock card);
    - passes while the stock has cards: a pass needs the turn's draws used up, so it follows a
      draw (<= 36) or a control seven (<= one per play, <= 36);
    - passes on an empty stock: at most P = 4 between two plays before the deadlock ends the
      hand, <= 4 * 37 = 148;
    - stops (declined follow-ups): <= one per play, <= 36.

    So <= 4 + 36 + 36 + 36 + 36 + 148 + 36 = 332 without ``specials_out_of_turn``. With it each
    turn start may add <= P - 1 = 3 declined out-of-turn questions; turn starts <= plays +
    passes + 1 <= 36 + 220 + 1 = 257, so <= 332 + 3 * 257 = 1103. Random play typically needs
    fewer than 100.
    """
    n = 16
    venv = cardenvs.make_vector(ENV_ID, n, seed=seed, autoreset=False, validate=False, **config)
    cfg = venv.config
    bound = HAND_BOUND_OUT_OF_TURN if cfg.specials_out_of_turn else HAND_BOUND
    hands_hi = 1 if cfg.episode == "deal" else cfg.max_hands
    hands, longest = play_counting_hands(venv, np.random.default_rng(action_seed), bound)
    assert ((hands >= 1) & (hands <= hands_hi)).all(), f"hands per episode {hands}"
    assert (R.field(venv.state, "deal_no").astype(np.int64) + 1 == hands).all()
    assert 0 < longest <= bound


def play_counting_hands(venv, rng, bound: int) -> tuple[np.ndarray, int]:
    """Play every row to its end with random legal actions, asserting that no hand takes more
    than ``bound`` agent actions (a hand ends when ``deal_no`` changes or the game ends);
    returns the hands per row and the longest hand."""
    n = venv.num_envs
    hands_hi = 1 if venv.config.episode == "deal" else venv.config.max_hands
    _, mask, _ = venv.reset()
    done = np.zeros(n, bool)
    hand_len = np.zeros(n, np.int64)
    hands = np.zeros(n, np.int64)
    longest = 0
    for _ in range(hands_hi * bound + 1):
        if done.all():
            break
        before = R.field(venv.state, "deal_no").astype(np.int64).copy()
        _, mask, _, terminated, _, _ = venv.step(choose(mask, rng))
        live = ~done
        hand_len[live] += 1
        over = np.flatnonzero(hand_len > bound)
        assert over.size == 0, f"rows {over}: a hand took more than {bound} steps"
        ended = live & ((R.field(venv.state, "deal_no") != before) | terminated)
        longest = max(longest, int(hand_len[ended].max(initial=0)))
        hands[ended] += 1
        hand_len[ended] = 0
        done |= terminated
    assert done.all(), f"rows {np.flatnonzero(~done)} still running"
    return hands, longest


def test_banque__step_bound_check_can_fail():
    """The per-hand count sees a hand's length: random hands of 4 players take more than 20
    actions, so a bound of 20 is reported broken."""
    venv = cardenvs.make_vector(ENV_ID, 4, seed=5, autoreset=False, validate=False, max_hands=2)
    hands, longest = play_counting_hands(venv, np.random.default_rng(0), HAND_BOUND)
    assert (hands == 2).all() and 20 < longest <= HAND_BOUND
    with pytest.raises(AssertionError, match="more than 20 steps"):
        play_counting_hands(venv, np.random.default_rng(0), 20)


@SETTINGS
@example(seed=0, action_seed=0, config={"num_players": 4, "max_hands": 2})
@given(seed=seeds, action_seed=seeds, config=configs)
def test_banque__observations_inside_their_space(seed, action_seed, config):
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(action_seed)
    P = C.Config(**config).num_players
    for _ in aec_walk(env, rng):
        for a in env.possible_agents:
            space = env.observation_space(a)
            ob = env.observe(a)
            x, m = ob["observation"], ob["action_mask"]
            assert x.shape == (R.OBS_DIM,) and x.dtype == np.float32
            bad = np.flatnonzero((x < space["observation"].low) | (x > space["observation"].high))
            assert space["observation"].contains(x), (
                f"{a}: observation outside its space at {[obs_block(i) for i in bad]}: "
                f"{x[bad].tolist()}"
            )
            assert space["action_mask"].contains(m), f"{a}: mask outside its space: {m}"
            assert space.contains(ob)
            # seat blocks beyond num_players stay zero
            assert x[R.O_SEATS : R.O_SEATS + 4].tolist() == [1.0] * P + [0.0] * (4 - P)
    venv = cardenvs.make_vector(ENV_ID, 8, seed=seed, **config)
    box = venv.single_observation_space
    obs, mask, _ = venv.reset()
    for _ in range(80):
        for seat in range(P):
            for row in venv.observe(seat):
                assert box.contains(row)
        for row in obs:
            assert box.contains(row)
        assert ((mask == 0) | (mask == 1)).all()
        obs, mask, *_ = venv.step(choose(mask, rng))


@pytest.mark.parametrize("num_players", [2, 4])
def test_banque__extreme_totals_stay_inside_the_space(num_players):
    """Totals are shown as total / target clipped to +-20: a small target and a large penalty
    push them far outside +-1, and they stay inside the box."""
    config = {
        "num_players": num_players,
        "target_score": 1,
        "penalty_mode": "fixed",
        "penalty_fixed": 56,
        "max_hands": 1,
    }
    venv = cardenvs.make_vector(
        ENV_ID, 8, seed=num_players, autoreset=False, validate=False, **config
    )
    box = venv.single_observation_space
    _, mask, _ = venv.reset()
    rng = np.random.default_rng(0)
    while mask.any():
        _, mask, *_ = venv.step(choose(mask, rng))
    totals = R.field(venv.state, "total")[:, :num_players]
    assert (np.abs(totals) > 20).any(), totals
    for seat in range(num_players):
        view = venv.observe(seat)
        for b in range(8):
            assert box.contains(view[b]), f"row {b}, seat {seat}: totals {totals[b]}"
            ego = [int(totals[b, (seat + k) % num_players]) for k in range(num_players)]
            got = view[b, R.O_TOTAL : R.O_TOTAL + num_players]
            assert np.allclose(got, np.clip(ego, -20, 20)), (got, ego)


@pytest.mark.parametrize("target", [1, 3, 7, 31, 124, 248, 997, 4999, 5000])
def test_banque__total_entries_are_exactly_total_over_target(target):
    """The kernel multiplies a total by the target's reciprocal; every total a seat can hold
    (-30,000..30,000; capped at 30,000) comes out as the float32 of total / target, clipped at
    +-20, to the last bit."""
    n, P = 4096, 4
    venv = cardenvs.make_vector(ENV_ID, n, seed=0, target_score=target)
    venv.reset()
    totals = np.arange(-30_000, 30_001)
    for lo in range(0, totals.size, n * P):
        chunk = np.resize(totals[lo : lo + n * P], n * P).reshape(n, P)
        R.field(venv.state, "total")[:, :P] = chunk
        got = venv.observe(0)[:, R.O_TOTAL : R.O_TOTAL + P]
        want = np.clip(chunk / target, -20.0, 20.0).astype(np.float32)
        bad = np.flatnonzero((got != want).any(axis=1))
        assert bad.size == 0, (target, chunk[bad[:3]], got[bad[:3]], want[bad[:3]])


def expected_rewards(s, b: int, config: C.Config) -> list[float]:
    """The reward table of the rules module, computed from the finished row ``b``."""
    P = config.num_players
    winners = [p for p in range(P) if R.field(s, "winners")[b, p]]
    if config.reward == "win":
        k = len(winners)
        if k == P:
            return [0.0] * P
        return [1.0 / k if p in winners else -1.0 / (P - k) for p in range(P)]
    key = "total" if config.episode == "game" else "last_points"
    vals = [int(x) for x in R.field(s, key)[b, :P]]
    return [v - np.mean(vals) for v in vals]


def check_game_end(s, b: int, config: C.Config) -> None:
    """The match ends (5.4) at the end of a hand in which a total reached the target with one
    highest total (among the tied leaders during a tie-break hand), or after ``max_hands``
    (the highest totals share the win); a one-hand episode: the hand's best scorers win."""
    P = config.num_players
    totals = [int(x) for x in R.field(s, "total")[b, :P]]
    last = [int(x) for x in R.field(s, "last_points")[b, :P]]
    winners = [p for p in range(P) if R.field(s, "winners")[b, p]]
    hands = int(R.field(s, "deal_no")[b]) + 1
    w = int(R.field(s, "winner")[b])
    assert w == (winners[0] if len(winners) == 1 else -1), f"row {b}: winner {w}, {winners}"
    if config.episode == "deal":
        assert hands == 1
        assert winners == [p for p in range(P) if last[p] == max(last)], (b, last, winners)
        return
    assert 1 <= hands <= config.max_hands, f"row {b}: {hands} hands"
    tiebreak = int(R.field(s, "tiebreak")[b])
    cand = [p for p in range(P) if (R.field(s, "contender")[b, p] if tiebreak else True)]
    best = max(totals[p] for p in cand)
    assert winners == [p for p in cand if totals[p] == best], (
        f"row {b}: totals {totals}, candidates {cand}, winners {winners}"
    )
    if hands < config.max_hands:
        assert len(winners) == 1 and (tiebreak or max(totals) >= config.target_score), (
            f"row {b}: the match ended after hand {hands} with totals {totals}"
        )
    if not config.allow_negative_totals:
        assert min(totals) >= 0, totals


@SETTINGS
@example(seed=0, action_seed=0, config={"num_players": 4, "max_hands": 3})
@example(seed=0, action_seed=0, config={"num_players": 3, "target_score": 60, "max_hands": 60})
@example(seed=2, action_seed=0, config={"num_players": 2, "reward": "score", "episode": "deal"})
@example(seed=2, action_seed=0, config={"num_players": 4, "reward": "win", "episode": "deal"})
@example(
    seed=3,
    action_seed=1,
    config={"win_tie_break": "extra_hand_tied_only", "target_score": 30, "max_hands": 60},
)
@given(seed=seeds, action_seed=seeds, config=rule_configs)
def test_banque__rewards_zero_sum_and_match_the_reward_table(seed, action_seed, config):
    n = 16
    venv = cardenvs.make_vector(ENV_ID, n, seed=seed, autoreset=False, validate=False, **config)
    cfg, P = venv.config, venv.config.num_players
    rng = np.random.default_rng(action_seed)
    _, mask, _ = venv.reset()
    done = np.zeros(n, bool)
    final = np.full((n, P), np.nan)
    bound = HAND_BOUND_OUT_OF_TURN if cfg.specials_out_of_turn else HAND_BOUND
    for _ in range(cfg.max_hands * bound + 2):
        if done.all():
            break
        _, mask, rewards, terminated, _, _ = venv.step(choose(mask, rng))
        assert rewards.shape == (n, P)
        assert np.abs(rewards.sum(axis=1)).max() < 1e-3, f"not zero-sum: {rewards}"
        new = terminated & ~done
        assert (rewards[~new] == 0).all(), "reward paid on a step that did not end the episode"
        final[new] = rewards[new]
        done |= terminated
    assert done.all()
    s = venv.state
    for b in range(n):
        check_game_end(s, b, cfg)
        expected = expected_rewards(s, b, cfg)
        assert np.allclose(final[b], expected, rtol=1e-5, atol=1e-4), (
            f"row {b}: rewards {final[b]}, expected {expected} ({cfg.episode}/{cfg.reward})"
        )
        if cfg.reward == "win":
            k = int(R.field(s, "winners")[b, :P].sum())
            assert 1 <= k <= P
            if k == 1:
                assert sorted(final[b].tolist()) == sorted(
                    [1.0] + [np.float32(-1.0 / (P - 1)).item()] * (P - 1)
                ), final[b]


@SETTINGS
@example(seed=4, action_seed=4, config={"num_players": 3, "reward": "win", "max_hands": 3})
@example(seed=5, action_seed=5, config={"num_players": 4, "reward": "score", "episode": "deal"})
@given(seed=seeds, action_seed=seeds, config=configs)
def test_banque__aec_rewards_zero_sum_and_paid_at_the_end(seed, action_seed, config):
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(action_seed)
    final = None
    for agent, _obs, reward, done in aec_walk(env, rng):
        if not done:
            assert reward == 0, f"{agent}: reward {reward} before the end"
            continue
        if final is None:
            final = dict(env.unwrapped.rewards)
        assert reward == final[agent], f"{agent}: last() says {reward}, rewards {final}"
    assert final is not None and set(final) == set(env.possible_agents)
    assert abs(sum(final.values())) < 1e-3, f"not zero-sum: {final}"
    cfg = C.Config(**config)
    P = cfg.num_players
    res = env.unwrapped.record()["result"]
    if cfg.reward == "win":
        k = len(res["winners"])
        for p in range(P):
            want = 0.0 if k == P else (1.0 / k if p in res["winners"] else -1.0 / (P - k))
            assert np.isclose(final[f"player_{p}"], want), (final, res)
        if res["winner"] is not None:
            assert final[f"player_{res['winner']}"] == 1.0


# --- no hidden-information leak ----------------------------------------------------------------
def transpose(s, b: int, a: int, c: int) -> None:
    """Exchange cards ``a`` and ``c`` (in hands or the stock) in row ``b``: in every hand, in the
    drawn cards and in the deck order (who was dealt or drew which card is relabelled)."""
    hand = R.field(s, "hand")
    for p in range(4):
        hand[b, p] = np.uint64(swap_bits(int(hand[b, p]), a, c))
    drawn = R.field(s, "drawn")
    drawn[b] = np.uint64(swap_bits(int(drawn[b]), a, c))
    deck = R.field(s, "deck")
    ia = int(np.flatnonzero(deck[b] == a)[0])
    ic = int(np.flatnonzero(deck[b] == c)[0])
    deck[b, ia], deck[b, ic] = c, a


def pick_hidden_swap(s, P: int, b: int, seat: int, rng) -> tuple[str, int, int] | None:
    """Two cards whose places ``seat`` cannot know: two other players' hands, another player's
    hand (or the cards he just drew) and the undrawn stock, two stock cards (the stock order).
    During the trump choice nobody has seen his cards, so any two cards in hands or the stock
    qualify, the seat's own included."""
    hand = row_masks(s, b, "hand")
    stock = int(undrawn_stock(s)[b])
    others = [p for p in range(P) if p != seat]
    cur = int(R.field(s, "current")[b])
    drawn = int(R.field(s, "drawn")[b]) if cur != seat else 0
    kinds = []
    if int(R.field(s, "phase")[b]) == K.PHASE_TRUMP:
        unseen = stock
        for p in range(P):
            unseen |= hand[p]
        kinds.append(("trump phase", bits(unseen), bits(unseen)))
    for i, o1 in enumerate(others):
        for o2 in others[i + 1 :]:
            kinds.append(("hand-hand", bits(hand[o1]), bits(hand[o2])))
        kinds.append(("hand-stock", bits(hand[o1]), bits(stock)))
    if drawn:
        kinds.append(("drawn-stock", bits(drawn), bits(stock)))
        kinds.append(("drawn-hand", bits(drawn), bits(hand[cur] & ~drawn)))
    kinds.append(("stock-stock", bits(stock), bits(stock)))
    for k in rng.permutation(len(kinds)).tolist():
        kind, xs, ys = kinds[k]
        pairs = [(x, y) for x in xs for y in ys if x != y]
        if pairs:
            x, y = pairs[int(rng.integers(len(pairs)))]
            return kind, x, y
    return None


def pick_own_swap(s, P: int, b: int, seat: int, rng) -> tuple[int, int] | None:
    """A card of ``seat``'s hand and a card in another hand or the stock."""
    hand = row_masks(s, b, "hand")
    other = int(undrawn_stock(s)[b])
    for p in range(P):
        if p != seat:
            other |= hand[p]
    mine, rest = bits(hand[seat]), bits(other)
    if not mine or not rest:
        return None
    return int(rng.choice(mine)), int(rng.choice(rest))


def check_no_leak(venv, seat: int, rng, tested: Counter) -> None:
    """Relabel, in every row, hidden cards (two swaps): ``seat``'s observation must not move.
    Then exchange a card of its own hand with another card: its observation must move, except
    during the trump choice, when nobody has seen his cards."""
    n, cfg = venv.num_envs, venv.config
    P = cfg.num_players
    seats = np.full(n, seat, np.int64)
    before = venv.observe(seats)
    hidden = copy.deepcopy(venv.state)
    control = copy.deepcopy(venv.state)
    swaps: dict[int, list] = {}
    expect_move = np.zeros(n, bool)
    phase = R.field(venv.state, "phase")
    for b in range(n):
        for _ in range(2):
            pick = pick_hidden_swap(hidden, P, b, seat, rng)
            if pick is not None:
                transpose(hidden, b, pick[1], pick[2])
                swaps.setdefault(b, []).append(pick)
                tested[(int(phase[b]), pick[0])] += 1
        own = pick_own_swap(control, P, b, seat, rng)
        if own is not None:
            transpose(control, b, *own)
            expect_move[b] = int(phase[b]) != K.PHASE_TRUMP
    # the random key only shapes later deals: also hidden
    R.field(hidden, "key")[:] = rng.integers(0, 2**63, size=n, dtype=np.uint64)
    check_cards(hidden, cfg, "relabelled state: ")
    check_cards(control, cfg, "control state: ")
    after = observe_state(venv, hidden, seats)
    diff = np.flatnonzero((after != before).any(axis=1))
    if diff.size:
        b = int(diff[0])
        idx = np.flatnonzero(after[b] != before[b])
        raise AssertionError(
            f"information leak: seat {seat}, row {b}, phase {K.PHASE_NAMES[phase[b]]}: "
            f"exchanging hidden cards {swaps.get(b)} (global ids) changed "
            f"{[obs_block(i) for i in idx]} from {before[b, idx]} to {after[b, idx]}"
        )
    ctrl = observe_state(venv, control, seats)
    moved = (ctrl != before).any(axis=1)
    assert (moved == expect_move).all(), (
        f"seat {seat}: rows {np.flatnonzero(moved != expect_move)} (phases "
        f"{phase[moved != expect_move]}) did not react to a change of the seat's own hand, or "
        "reacted during the trump choice"
    )


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@example(seed=0, action_seed=0, config={"num_players": 4})
@example(seed=1, action_seed=1, config={"num_players": 3, "seven_effect": "draw_then_move"})
@example(seed=2, action_seed=2, config={"num_players": 2, "trump_option": 5})
@example(seed=3, action_seed=3, config={"num_players": 4, "specials_out_of_turn": True})
@given(
    seed=seeds,
    action_seed=seeds,
    config=st.fixed_dictionaries(
        {
            "num_players": st.integers(2, 4),
            "trump_option": st.integers(1, 5),
            "seven_effect": st.sampled_from(["control", "draw_then_move", "draw_and_skip"]),
            "specials_out_of_turn": st.booleans(),
            "bank_take": st.sampled_from(["all_but_top", "all"]),
        }
    ),
)
def test_banque__no_hidden_information_leak_and_layout_as_documented(seed, action_seed, config):
    n = 6
    P = C.Config(**config).num_players
    venv = cardenvs.make_vector(ENV_ID, n, seed=seed, **config)
    rng = np.random.default_rng(action_seed)
    _, mask, _ = venv.reset()
    tested: Counter = Counter()
    for _ in range(70):  # a hand and the start of the next in most rows
        for seat in range(P):
            check_layout(venv, seat)
            check_no_leak(venv, seat, rng, tested)
        _, mask, *_ = venv.step(choose(mask, rng))
    kinds = {k for _, k in tested}
    assert {"stock-stock", "hand-stock", "drawn-stock"} <= kinds, tested
    if P >= 3:
        assert "hand-hand" in kinds, tested
    phases = {ph for ph, _ in tested}
    assert {K.PHASE_PLAY, K.PHASE_DRAWN} <= phases, tested
    if config.get("trump_option", 1) == 1:
        assert tested[(K.PHASE_TRUMP, "trump phase")] > 0, tested


def test_banque__leak_check_can_fail():
    """An observation that read another player's hand would be caught."""
    venv = cardenvs.make_vector(ENV_ID, 4, seed=11, num_players=3, trump_option=2)
    venv.reset()
    rng = np.random.default_rng(0)
    real_observe = venv.observe

    def leaky_observe(seats):
        out = real_observe(seats)
        s = np.broadcast_to(np.asarray(seats), (venv.num_envs,))
        nxt = R.field(venv.state, "hand")[np.arange(venv.num_envs), (s + 1) % 3]
        out[:, -1] = (nxt % np.uint64(997)).astype(np.float32)
        return out

    venv.observe = leaky_observe
    with pytest.raises(AssertionError, match="information leak"):
        for _ in range(8):  # one swap could miss the leaked value; several cannot all miss
            check_no_leak(venv, 0, rng, Counter())


def test_banque__leak_check_sees_the_stock_order_and_drawn_cards():
    """Positive controls for the two other hidden things: an observation showing the next stock
    card, or another player's drawn card, would be caught."""
    venv = cardenvs.make_vector(ENV_ID, 4, seed=12, num_players=3, trump_option=2)
    venv.reset()
    rng = np.random.default_rng(1)
    real_observe = venv.observe

    def stock_leak(seats):
        out = real_observe(seats)
        s = venv.state
        pos = np.minimum(R.field(s, "stock_pos").astype(np.int64), NUM_CARDS - 1)
        out[:, -1] = R.field(s, "deck")[np.arange(venv.num_envs), pos].astype(np.float32)
        return out

    venv.observe = stock_leak
    with pytest.raises(AssertionError, match="information leak"):
        for _ in range(8):
            check_no_leak(venv, 0, rng, Counter())
    # another player's drawn card, shown to everybody
    venv = cardenvs.make_vector(ENV_ID, 4, seed=12, num_players=3, trump_option=2)
    _, mask, _ = venv.reset()
    for _ in range(40):
        if (R.field(venv.state, "phase") == K.PHASE_DRAWN).any():
            break
        _, mask, *_ = venv.step(choose(mask, rng))
    rows = np.flatnonzero(R.field(venv.state, "phase") == K.PHASE_DRAWN)
    assert rows.size, "no row has a drawn card"
    watcher = (int(R.field(venv.state, "current")[rows[0]]) + 1) % 3
    real_observe = venv.observe

    def drawn_leak(seats):
        out = real_observe(seats)
        d = R.field(venv.state, "drawn")
        out[:, -1] = (d % np.uint64(997)).astype(np.float32)
        return out

    venv.observe = drawn_leak
    with pytest.raises(AssertionError, match="information leak"):
        for _ in range(12):
            check_no_leak(venv, watcher, rng, Counter())


def test_banque__layout_check_can_fail():
    venv = cardenvs.make_vector(ENV_ID, 2, seed=4, num_players=3, trump_option=2)
    venv.reset()
    check_layout(venv, 1)
    real_observe = venv.observe

    def wrong(seats):
        out = real_observe(seats)
        out[:, R.O_BANK_OWNER : R.O_BANK_OWNER + 36 * 5] = np.roll(
            out[:, R.O_BANK_OWNER : R.O_BANK_OWNER + 36 * 5], 36, axis=1
        )
        return out

    venv.observe = wrong
    with pytest.raises(AssertionError, match="bank_owner"):
        check_layout(venv, 1)


def test_banque__trump_choice_hides_every_hand_even_from_its_holder():
    env = cardenvs.make(ENV_ID, num_players=4)
    env.reset(seed=5)
    state = env.unwrapped._engine.state
    assert int(R.field(state, "phase")[0]) == K.PHASE_TRUMP
    for a in env.possible_agents:
        x = env.observe(a)["observation"]
        assert not x[R.O_HAND : R.O_HAND + NUM_CARDS].any()
        assert not x[R.O_HAND_SIZE : R.O_HAND_SIZE + 4].any()
        assert x[R.O_PHASE + K.PHASE_TRUMP] == 1.0
        assert x[R.O_BANK_OWNER + 4 * 36 : R.O_BANK_OWNER + 5 * 36].sum() == 1  # the centre card
    # the hands are dealt already; once the trump choice is over every seat sees its own
    chosen = []
    for _ in range(4):
        a = env.unwrapped.legal_actions()[0]
        chosen.append(a - K.ACTION_TRUMP)
        env.step(a)
    assert sorted(chosen) == [0, 1, 2, 3]  # four different suits (3.2)
    assert int(R.field(state, "phase")[0]) == K.PHASE_PLAY
    for seat, a in enumerate(env.possible_agents):
        x = env.observe(a)["observation"]
        own = {local(c) for c in bits(int(R.field(state, "hand")[0, seat]))}
        assert len(own) == 4
        assert set(np.flatnonzero(x[R.O_HAND : R.O_HAND + NUM_CARDS]).tolist()) == own
        assert np.allclose(x[R.O_HAND_SIZE : R.O_HAND_SIZE + 4], 4 / 36)
        for k in range(4):  # trumps per seat, egocentric
            t = int(R.field(state, "trump")[0, (seat + k) % 4])
            assert x[R.O_TRUMPS + 5 * k + t] == 1.0


# --- 3. vector engine == AEC env ---------------------------------------------------------------
# --- 4. the contract ---------------------------------------------------------------------------
def test_banque__action_names_as_documented():
    """The action table of the rules page (the round trip of every name in any spelling is the
    contract's, ``test_contract_aec.py``)."""
    names = [cardenvs.make(ENV_ID).unwrapped.action_name(a) for a in range(NUM_ACTIONS)]
    assert names[:36] == [f"play {c}" for c in CARD_STRINGS]
    assert names[36:40] == [f"eight 8{s}" for s in SUITS]
    assert names[40:76] == [f"quad {r} top {s}" for r in NAT_RANKS for s in SUITS]
    lows = ("6", "7", "8", "9", "10", "J", "Q")
    assert names[76:104] == [f"sequence {s} {low}" for s in SUITS for low in lows]
    assert names[104:] == ["draw", "pass", "stop", "trump S", "trump H", "trump D", "trump C"]
    assert (K.ACTION_EIGHT, K.ACTION_QUAD, K.ACTION_SEQ) == (36, 40, 76)
    assert (K.ACTION_DRAW, K.ACTION_PASS, K.ACTION_STOP, K.ACTION_TRUMP) == (104, 105, 106, 107)


def random_record(seed: int, **config) -> dict:
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=seed)
    for _ in aec_walk(env, np.random.default_rng(seed)):
        pass
    return env.unwrapped.record()


PLAY_WORDS = ("play", "eight", "quad", "sequence")


def deal_score_problems(i: int, n: int, deal: dict, cfg: C.Config, players: set) -> list[str]:
    """What is wrong with the scores in record ``deal`` (hand ``i`` of ``n``): the hand score is
    bank card points + bonuses - penalty (5.4); finishing positions 1, 2, .. (all but one player
    out when the hand ends by going out); who went out pays no penalty and has a bonus (5.3);
    the fixed penalty (5.2 option 2a) for everybody else."""
    shown = {k: deal[k] for k in ("points", "bank_points", "bonus", "penalty", "out")}
    where = f"deal {i} of {n}: {shown}"
    problems = []
    for p in sorted(players):
        if deal["points"][p] != deal["bank_points"][p] + deal["bonus"][p] - deal["penalty"][p]:
            problems.append(f"{where}: seat {p} points != bank_points + bonus - penalty")
        pos = deal["out"][p]
        if pos and (deal["penalty"][p] != 0 or deal["bonus"][p] < cfg.finish_bonus[pos - 1]):
            problems.append(f"{where}: seat {p} went out {pos}")
        if not pos and deal["bonus"][p] != 0:
            problems.append(f"{where}: seat {p} has a bonus without going out")
        if cfg.penalty_mode == "fixed" and deal["penalty"][p] != (0 if pos else cfg.penalty_fixed):
            problems.append(f"{where}: seat {p} fixed penalty")
    if sum(deal["bank_points"]) > 124:
        problems.append(f"{where}: more than 124 bank points")
    n_out = sum(1 for x in deal["out"] if x)
    if sorted(x for x in deal["out"] if x) != list(range(1, n_out + 1)):
        problems.append(f"{where}: finishing positions")
    want = len(players) - 1 if deal["ended_by"] == "going out" else None
    if (want is not None and n_out != want) or (want is None and n_out > len(players) - 2):
        problems.append(f"{where}: {n_out} out of {sorted(players)}, ended by {deal['ended_by']}")
    return problems


RECORD_CONFIGS = [
    {"num_players": 2, "max_hands": 3},
    {"num_players": 3, "trump_option": 3, "common_trumps": "H", "next_dealer": "starter"},
    {"num_players": 4, "next_dealer": "finisher", "specials_out_of_turn": True, "max_hands": 3},
    {"num_players": 4, "trump_option": 5, "episode": "deal", "reward": "score"},
    {"num_players": 3, "penalty_mode": "fixed", "win_tie_break": "extra_hand_tied_only"},
    {"num_players": 4, "finish_bonus": (25, 15, 5), "finish_king_extra": [1, 2, 3]},
]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("config", RECORD_CONFIGS, ids=config_id)
def test_banque__record_deals_follow_the_rules(seed, config):
    """What a Banque record holds beyond the contract's checks (``test_contract_aec.py``: JSON,
    fields, config with JSON lists, seed, replay, on these configs): the result and its
    winners, each hand's scores, extras and length, the trump choice and the next dealer."""
    config = {"target_score": 60, "max_hands": 4, **config}
    rec = random_record(seed, **config)
    cfg = C.Config(**config)
    P = cfg.num_players
    res = rec["result"]
    assert set(res) == {"winner", "winners", "totals", "hands"}
    assert res["hands"] == len(rec["deals"]) and len(res["totals"]) == P
    assert res["totals"] == rec["deals"][-1]["totals"]
    assert res["winners"] and res["winner"] == (
        res["winners"][0] if len(res["winners"]) == 1 else None
    )
    assert len({res["totals"][w] for w in res["winners"]}) == 1
    if cfg.episode == "deal":
        assert len(rec["deals"]) == 1
        pts = rec["deals"][0]["points"]
        assert res["winners"] == [p for p in range(P) if pts[p] == max(pts)]
    else:
        assert 1 <= len(rec["deals"]) <= cfg.max_hands
        if len(rec["deals"]) < cfg.max_hands:
            assert max(res["totals"]) >= cfg.target_score and len(res["winners"]) == 1
    bound = HAND_BOUND_OUT_OF_TURN if cfg.specials_out_of_turn else HAND_BOUND
    totals = [0] * P
    extras = {"bank_points", "bonus", "penalty", "out", "ended_by", "totals"}
    score_errors = []
    for i, deal in enumerate(rec["deals"]):
        assert {"deck", "dealer", "actions", "points"} | extras <= set(deal)
        assert sorted(deal["deck"]) == sorted(CARD_STRINGS)
        assert 0 <= deal["dealer"] < P
        for key in ("points", "bank_points", "bonus", "penalty", "out", "totals"):
            assert len(deal[key]) == P, key
        assert 0 < len(deal["actions"]) <= bound
        for p in range(P):
            totals[p] += deal["points"][p]
        assert deal["totals"] == totals, f"deal {i}: totals"
        assert deal["ended_by"] in ("going out", "deadlock")
        actors = {seat for seat, _ in deal["actions"]}
        # with the trump choice in turn every player of the hand acts; else all seats play
        choosing = cfg.trump_option == 1 and cfg.trump_assignment == "choose_in_turn"
        players = actors if choosing else set(range(P))
        score_errors += deal_score_problems(i, len(rec["deals"]), deal, cfg, players)
        if cfg.trump_option == 1 and cfg.trump_assignment == "choose_in_turn":
            seats = sorted(actors, key=lambda p: (p - deal["dealer"] - 1) % P)
            head = deal["actions"][: len(seats)]
            assert [s for s, _ in head] == seats, f"deal {i}: trump choice order"
            assert all(nm.startswith("trump ") for _, nm in head)
            assert len({nm for _, nm in head}) == len(seats)
        assert not any(nm.startswith("trump ") for _, nm in deal["actions"][P:])
        if i:
            prev = rec["deals"][i - 1]
            moves = [(s, nm) for s, nm in prev["actions"] if not nm.startswith("trump ")]
            plays = [s for s, nm in moves if nm.split()[0] in PLAY_WORDS]
            if cfg.next_dealer == "starter":
                assert deal["dealer"] == moves[0][0], f"deal {i}: dealer"
            if cfg.next_dealer == "finisher":
                assert deal["dealer"] == plays[-1], f"deal {i}: dealer"
    assert not score_errors, f"{len(score_errors)} problems, the first: {score_errors[:3]}"


def test_banque__replay_accepts_a_config_with_lists_and_the_record_is_json():
    config = {"finish_bonus": [25, 15, 5], "finish_sequence_extra": (1, 2, 3), "max_hands": 2}
    rec = random_record(3, num_players=3, **config)
    text = json.dumps(rec)
    back = json.loads(text)
    assert back["config"]["finish_bonus"] == [25, 15, 5]
    assert back["config"]["finish_sequence_extra"] == [1, 2, 3]
    assert cardenvs.replay(back) == rec
    env = cardenvs.make(ENV_ID, **back["config"])  # a JSON config makes the same game
    assert env.unwrapped.config == C.Config(num_players=3, **config)


def first_mover(hands: list[list[str]], centre: str | None, dealer: int, P: int) -> int:
    """Spec 3.4: a holder of a lower card of the centre card's suit, else of a higher one, else
    the dealer's left; several: the first clockwise from the dealer's left."""
    order = [(dealer + 1 + i) % P for i in range(P)]
    if centre is not None:
        suit, rank = centre[-1], GAME_ORDER.index(centre[:-1])
        for lower in (True, False):
            for p in order:
                ranks = [GAME_ORDER.index(c[:-1]) for c in hands[p] if c[-1] == suit]
                if any((r < rank) == lower for r in ranks):
                    return p
    return order[0]


@pytest.mark.parametrize(("num_players", "dealer"), [(2, 1), (3, 2), (4, 3), (4, 0), (3, 0)])
def test_banque__deck_and_dealer_options_fix_the_first_deal(num_players, dealer):
    P = num_players
    for k in range(6):
        deck = [str(c) for c in np.random.default_rng(10 * dealer + k).permutation(CARD_STRINGS)]
        env = cardenvs.make(ENV_ID, num_players=P, trump_option=2)
        env.reset(seed=11, options={"deck": deck, "dealer": dealer})
        core = env.unwrapped
        first = core.record()["deals"][0]
        assert first["deck"] == deck and first["dealer"] == dealer
        state = core._engine.state
        hands = [[] for _ in range(P)]
        for i in range(P):
            hands[(dealer + 1 + i) % P] = deck[4 * i : 4 * i + 4]
        centre = deck[4 * P]
        for seat in range(P):
            x = env.observe(f"player_{seat}")["observation"]
            want = {local(card_of(c)) for c in hands[seat]}
            assert set(np.flatnonzero(x[R.O_HAND : R.O_HAND + NUM_CARDS]).tolist()) == want
            assert np.flatnonzero(x[R.O_TOP : R.O_TOP + NUM_CARDS]).tolist() == [
                local(card_of(centre))
            ]
            no_owner = x[R.O_BANK_OWNER + 4 * 36 : R.O_BANK_OWNER + 5 * 36]
            assert np.flatnonzero(no_owner).tolist() == [local(card_of(centre))]
            assert not x[R.O_BANK_OWNER : R.O_BANK_OWNER + 4 * 36].any()
            assert np.isclose(x[R.O_STOCK], (NUM_CARDS - 4 * P - 1) / 36)
            assert x[R.O_DEALER + (dealer - seat) % P] == 1.0
        assert bank_cards(state, 0) == [(card_of(centre), -1)]
        assert int(R.field(state, "stock_pos")[0]) == 4 * P + 1
        assert T.deck_strings(state, 0) == deck
        # the first move by 3.4
        mover = first_mover(hands, centre, dealer, P)
        assert env.agent_selection == f"player_{mover}", (hands, centre, dealer)


def test_banque__first_move_goes_by_the_centre_card():
    """3.4 a-c with a fixed deal: lower card of the suit, else higher, else the dealer's left."""

    def deck_for(hands, centre):
        used = [c for h in hands for c in h] + [centre]
        return used + [c for c in CARD_STRINGS if c not in used]

    cases = [  # dealer 3: the hands of seats 0, 1, 2, 3; the centre card; the first mover
        ("6S 7S 9C 10C|KH 6D 7D 9S|QH 6C 7C 9D|JH 10D QD KD", "AH", 1),  # lower: 1, 2, 3
        ("6S 7S 9C 10C|AH 6D 7D 9S|10H 6C 7C 9D|JH 10D QD KD", "KH", 3),  # lower: only 3
        ("6S 7S 9C 10C|AH 6D 7D 9S|10H 6C 7C 9D|KS 10D QD KD", "QH", 1),  # higher: 1, 2
        ("6S 7S 9C 10C|AS 6D 7D 9S|10S 6C 7C 9D|KS 10D QD KD", "QH", 0),  # no heart
    ]
    cases = [([h.split() for h in hands.split("|")], c, w) for hands, c, w in cases]
    for hands, centre, want in cases:
        env = cardenvs.make(ENV_ID, num_players=4, trump_option=2)
        env.reset(seed=0, options={"deck": deck_for(hands, centre), "dealer": 3})
        assert env.agent_selection == f"player_{want}", (hands, centre)
        assert first_mover(hands, centre, 3, 4) == want


# a known deal for the scenario tests: dealer 3, so the hands below are seats 0, 1, 2, 3;
# the centre card AH, then the stock from the top (AS first)
SCENARIO_HANDS = [
    ["6S", "7S", "9C", "10C"],
    ["KH", "6D", "7D", "9S"],
    ["QH", "6C", "7C", "9D"],
    ["JH", "10D", "QD", "KD"],
]
SCENARIO_STOCK = ["AS"] + [
    c for c in CARD_STRINGS if c not in {"AH", "AS"} and all(c not in h for h in SCENARIO_HANDS)
]
SCENARIO_DECK = [c for h in SCENARIO_HANDS for c in h] + ["AH"] + SCENARIO_STOCK


def scenario_env(**config):
    env = cardenvs.make(ENV_ID, num_players=4, trump_option=2, **config)
    env.reset(seed=0, options={"deck": SCENARIO_DECK, "dealer": 3})
    return env, env.unwrapped


def bank_owner_blocks(x) -> list[set[str]]:
    """The five bank-owner planes of an observation as card strings."""
    out = []
    for k in range(5):
        plane = x[R.O_BANK_OWNER + 36 * k : R.O_BANK_OWNER + 36 * (k + 1)]
        out.append({CARD_STRINGS[i] for i in np.flatnonzero(plane)})
    return out


def test_banque__known_deal_observations_follow_the_bank():
    assert len(SCENARIO_DECK) == 36 and sorted(SCENARIO_DECK) == sorted(CARD_STRINGS)
    env, core = scenario_env()
    state = core._engine.state
    assert env.agent_selection == "player_1"  # KH is a lower heart, seat 1 first clockwise
    assert legal_names(core) == {"play KH"}  # the only beat, and a player must beat (4.4)
    act(env, core, "play KH")
    assert legal_names(core) == {"play QH"}
    act(env, core, "play QH")
    assert legal_names(core) == {"play JH", "play QD"}  # a lower heart, or the same rank
    act(env, core, "play JH")
    assert env.agent_selection == "player_0"
    text = re.sub(r"\x1b\[[0-9;]*m", "", core._engine.render(0))
    assert "bank (4, top first, /owner, · none): J♥/p3, Q♥/p2, K♥/p1, A♥·" in text
    assert legal_names(core) == {"draw"}  # no beat: draw
    # the bank from each seat's view: its own cards in block 0, then clockwise; AH: nobody
    for seat in range(4):
        x = env.observe(f"player_{seat}")["observation"]
        blocks = bank_owner_blocks(x)
        want = [set(), set(), set(), set(), {"AH"}]
        for card, owner in (("KH", 1), ("QH", 2), ("JH", 3)):
            want[(owner - seat) % 4].add(card)
        assert blocks == want, (seat, blocks)
        for i, card in enumerate(["AH", "KH", "QH", "JH"]):
            assert np.isclose(x[R.O_BANK_POS + CARD_STRINGS.index(card)], (i + 1) / 36)
        assert np.flatnonzero(x[R.O_TOP : R.O_TOP + 36]).tolist() == [CARD_STRINGS.index("JH")]
        sizes = [4, 3, 3, 3]
        want_sizes = [sizes[(seat + k) % 4] / 36 for k in range(4)]
        assert np.allclose(x[R.O_HAND_SIZE : R.O_HAND_SIZE + 4], want_sizes)
        assert np.isclose(x[R.O_STOCK], 19 / 36)
        assert x[R.O_MOVER + (0 - seat) % 4] == 1.0
        assert x[R.O_TO_ACT] == float(seat == 0)
        assert x[R.O_PHASE + K.PHASE_PLAY] == 1.0
        assert not x[R.O_TRUMPS : R.O_TRUMPS + 20].reshape(4, 5)[:, :4].any()  # option 2
    act(env, core, "draw")
    assert legal_names(core) == {"pass"}  # AS does not beat JH
    x0 = env.observe("player_0")["observation"]
    assert np.flatnonzero(x0[R.O_DRAWN : R.O_DRAWN + 36]).tolist() == [CARD_STRINGS.index("AS")]
    assert x0[R.O_HAND + CARD_STRINGS.index("AS")] == 1.0
    assert x0[R.O_PHASE + K.PHASE_DRAWN] == 1.0 and np.isclose(x0[R.O_DRAWS], 1.0)
    assert np.isclose(x0[R.O_STOCK], 18 / 36) and np.isclose(x0[R.O_HAND_SIZE], 5 / 36)
    for seat in (1, 2, 3):
        x = env.observe(f"player_{seat}")["observation"]
        assert not x[R.O_DRAWN : R.O_DRAWN + 36].any(), f"seat {seat} sees the drawn card"
        assert not x[R.O_HAND + CARD_STRINGS.index("AS")]
        assert np.isclose(x[R.O_HAND_SIZE + (0 - seat) % 4], 5 / 36)
    act(env, core, "pass")
    # 4.5: the owner of JH (seat 3) takes AH KH QH (12 + 5 + 3); JH stays as an unowned base
    assert bank_cards(state, 0) == [(card_of("JH"), -1)]
    assert int(R.field(state, "taken")[0, 3]) == sum(1 << card_of(c) for c in ("AH", "KH", "QH"))
    assert int(R.field(state, "bank_points")[0, 3]) == 20
    assert env.agent_selection == "player_1"
    assert legal_names(core) == {"draw"}
    for seat in range(4):
        x = env.observe(f"player_{seat}")["observation"]
        assert bank_owner_blocks(x) == [set(), set(), set(), set(), {"JH"}]
        taken = {CARD_STRINGS[i] for i in np.flatnonzero(x[R.O_TAKEN : R.O_TAKEN + 36])}
        assert taken == {"AH", "KH", "QH"}
        want = [20 / 124 if (seat + k) % 4 == 3 else 0.0 for k in range(4)]
        assert np.allclose(x[R.O_BANK_POINTS : R.O_BANK_POINTS + 4], want)
        assert not x[R.O_DRAWN : R.O_DRAWN + 36].any()
        assert np.isclose(x[R.O_FAILS], 0.0)  # the stock still has cards: no deadlock count
    # the render shows the bank top first with owners, the viewer's hand only, sizes, stock
    text = re.sub(r"\x1b\[[0-9;]*m", "", core._engine.render(0))
    assert "J♥·" in text and "stock: 18" in text and "no trumps" in text
    assert "▶ player_1" in text and "6♦" in text and "9♠" in text  # seat 1 to act: its hand
    lines = {ln[2:10]: ln for ln in text.splitlines()[2:]}
    assert lines["player_0"].endswith("hand: 5 cards") and "banks  20" in lines["player_3"]
    assert lines["player_2"].endswith("hand: 3 cards")
    for hidden in ("6♠", "7♠", "A♠", "6♣", "10♦"):
        assert hidden not in text, (hidden, text)


@pytest.mark.parametrize("max_hands", [1, 2])
@pytest.mark.parametrize(
    ("hand", "action", "bank_points", "bonus"),
    [
        (["9H", "JH", "QH", "KH"], "sequence H 9", 0, 20 + 30),  # 1st + sequence extra
        (["9S", "9H", "9D", "9C"], "quad 9 top H", 0, 20 + 75),  # 1st + four of a kind
        # four Kings take the bank (AH KH KD KC; KS stays as the base) + 1st + King extra
        (["KS", "KH", "KD", "KC"], "quad K top S", 12 + 5 + 5 + 5, 20 + 30),
    ],
    ids=["sequence", "quad", "four-kings"],
)
def test_banque__going_out_scores_in_the_record_and_observation(
    hand, action, bank_points, bonus, max_hands
):
    """A two-player hand from a known deal, ended by going out at the first move (4.8, 5.3):
    the record holds the hand's scores (also when another hand follows), and the next hand's
    observation shows the totals."""
    other = ["AS", "KS", "QS", "JS"] if "KS" not in hand else ["AS", "10S", "QS", "JS"]
    centre = "AH"
    rest = [c for c in CARD_STRINGS if c != centre and c not in hand + other]
    deck = hand + other + [centre] + rest
    env = cardenvs.make(ENV_ID, num_players=2, trump_option=2, max_hands=max_hands)
    env.reset(seed=0, options={"deck": deck, "dealer": 1})
    core = env.unwrapped
    assert env.agent_selection == "player_0"  # a lower heart than AH (3.4)
    assert action in legal_names(core)
    act(env, core, action)
    rec = core.record()
    deal = rec["deals"][0]
    penalty = sum(points(card_of(c)) for c in other)  # Rule II option 1: card points left
    assert deal["points"] == [bank_points + bonus, -penalty] == deal["totals"]
    assert deal["ended_by"] == "going out" and deal["penalty"] == [0, penalty]
    extras = {k: deal[k] for k in ("out", "bank_points", "bonus")}
    assert extras == {"out": [1, 0], "bank_points": [bank_points, 0], "bonus": [bonus, 0]}, (
        f"the record of hand 1 of {len(rec['deals'])} lost its scores: {extras}"
    )
    if max_hands == 1:
        assert not env.agents or all(env.terminations.values())
        assert rec["result"]["winners"] == [0] and rec["result"]["totals"] == deal["totals"]
        return
    state = core._engine.state
    assert int(R.field(state, "deal_no")[0]) == 1 and env.agents  # the next hand is dealt
    assert rec["deals"][1]["dealer"] == 1  # the loser deals (3.1)
    for seat in range(2):
        x = env.observe(f"player_{seat}")["observation"]
        ego = [(seat + k) % 2 for k in range(2)]
        assert np.allclose(x[R.O_TOTAL : R.O_TOTAL + 2], [deal["totals"][p] / 248 for p in ego])
        assert np.isclose(x[R.O_HAND_NO], 1 / 2)
        assert not x[R.O_OUT : R.O_OUT + 4].any()  # a new hand: nobody is out
        assert not x[R.O_BONUS : R.O_BONUS + 4].any() and not x[R.O_TAKEN : R.O_TAKEN + 36].any()
        assert np.allclose(x[R.O_HAND_SIZE : R.O_HAND_SIZE + 2], 4 / 36)


def strip(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_banque__render_hides_hands_during_the_trump_choice_then_shows_the_viewers():
    env = cardenvs.make(ENV_ID, num_players=4, render_mode="ansi")
    env.reset(seed=0, options={"deck": SCENARIO_DECK, "dealer": 3})
    text = strip(env.render())
    assert "A♥·" in text and "stock: 19" in text
    assert text.count("face down") == 4
    for hand in SCENARIO_HANDS:
        for c in hand:
            sym = c[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[c[-1]]
            assert not re.search(rf"(?<![0-9]){re.escape(sym)}", text), (c, text)
    core = env.unwrapped
    act(env, core, "trump S", "trump H", "trump D", "trump C")
    text = strip(env.render())
    viewer = core.agent_name_mapping[env.agent_selection]
    assert f"▶ player_{viewer}" in text
    for p in range(4):
        assert f"player_{p} trump {SUITS[p]}" in text
    for p, hand in enumerate(SCENARIO_HANDS):
        line = next(ln for ln in text.splitlines() if ln[2:].startswith(f"player_{p} "))
        shown = line.split("hand:")[1]
        for c in hand:
            sym = c[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[c[-1]]
            assert (sym in shown) == (p == viewer), (p, c, line)
        if p != viewer:
            assert "4 cards" in shown
    assert "total    0" in text
