"""Search support for Piquet (``cardenvs.core.sim``): the determinization keeps everything the
seat has observed (its observation, its legal mask, every card once, the talon structure, the
voids and declarations the opponent revealed), redraws what it cannot see, and the ISMCTS agent
plays legal actions with it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from harness import determinize_and_check, play_out_with, walk  # noqa: E402
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardenvs
from cardenvs.core.cards import format_card
from cardenvs.core.sim import Simulator
from cardenvs.games.piquet import cards as CD
from cardenvs.games.piquet import config as C
from cardenvs.games.piquet import constants as K
from cardenvs.games.piquet import layout as L
from cardenvs.games.piquet.declare import declare_row
from cardenvs.games.piquet.layout import field

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from cardenvs.agents.ismcts import ISMCTSAgent  # noqa: E402

GAME = "piquet-v0"
CONFIGS = [
    {},
    {"carte_blanche_auto": False},
    {"first_exchanger": "dealer"},
    {"younger_min_exchange": 0},
]
HAND, TALON_START = 12, 24
PIQUET_IDS = sorted(s * 13 + r for s in range(4) for r in range(5, 13))
FACES = sum(1 << (s * 13 + r) for s in range(4) for r in (9, 10, 11))  # J, Q, K
SUIT = [sum(1 << (s * 13 + r) for r in range(5, 13)) for s in range(4)]
# fields the determinization may change: the opponent's private cards, the deck, the row key
# ``legal`` caches the legal actions of the seat to act, which depend on its hidden hand
PRIVATE = {"hand", "dealt", "discards", "seen", "cb", "deck", "key", "last_disc", "legal"}
DECL_PUBLIC = ("decl_win", "decl_pts", "calls", "shown")


def cards(m) -> list[int]:
    return [c for c in range(64) if (int(m) >> c) & 1]


def card_multiset(s) -> list[int]:
    """Every card of a one-row state, wherever it is (hands, discards, played cards and the
    current trick, the undrawn talon), sorted."""
    out = []
    for name in ("hand", "discards", "played"):
        for m in field(s, name)[0].tolist():
            out += cards(m)
    tp = int(field(s, "talon_pos")[0])
    out += field(s, "deck")[0][TALON_START + tp :].tolist()
    return sorted(out)


def talon_drawers(s, config) -> list[int]:
    """Who drew each talon position so far (-1: nobody yet)."""
    ph = int(field(s, "phase")[0])
    elder = 1 - int(field(s, "dealer")[0])
    x1 = 1 - elder if config.get("first_exchanger") == "dealer" else elder
    x1_done = ph >= K.PHASE_LOOK or (ph == K.PHASE_EXCHANGE and int(field(s, "exch")[0]) == 1)
    k1 = int(field(s, "xcount")[0, x1]) if x1_done else 0
    k2 = int(field(s, "xcount")[0, 1 - x1]) if ph >= K.PHASE_LOOK else 0
    return [x1] * k1 + [1 - x1] * k2 + [-1] * (8 - k1 - k2)


def inconsistencies(d, before, seat: int, config: dict) -> list[str]:
    """Why ``d`` is not a state the game could be in given what ``seat`` knows of ``before``
    (empty if it is one): public and own fields kept, the deal reachable (the dealt hands are
    the deck, the opponent's hand is his kept dealt cards and his talon draws less what he
    played), his voids and declarations respected, the talon structure kept."""
    bad = []
    opp = 1 - seat
    for name, _, _, _ in L.STATE_FIELDS:
        a, b = field(before, name)[0], field(d, name)[0]
        if name not in PRIVATE and not np.array_equal(a, b):
            bad.append(f"public field {name} changed")
        elif name in {"hand", "dealt", "discards", "seen"} and a[seat] != b[seat]:
            bad.append(f"own {name} changed")
    deck = field(d, "deck")[0].astype(int).tolist()
    if sorted(deck) != PIQUET_IDS:
        bad.append("deck is not the 32 piquet cards")
    elder = 1 - int(field(d, "dealer")[0])
    first = {elder: 0, 1 - elder: HAND}
    own_deck = field(before, "deck")[0].astype(int).tolist()
    if set(deck[first[seat] : first[seat] + HAND]) != set(
        own_deck[first[seat] : first[seat] + HAND]
    ):
        bad.append("own dealt cards moved")
    drawer = talon_drawers(d, config)
    for p in range(2):
        dealt = sum(1 << c for c in deck[first[p] : first[p] + HAND])
        if int(field(d, "dealt")[0, p]) != dealt:
            bad.append(f"dealt[{p}] is not its deck cards")
        if int(field(d, "cb")[0, p]) != (0 if dealt & FACES else 1):
            bad.append(f"cb[{p}] disagrees with the dealt hand")
        disc = int(field(d, "discards")[0, p])
        drawn = sum(1 << deck[TALON_START + j] for j in range(8) if drawer[j] == p)
        after = (dealt & ~disc) | drawn
        played = int(field(d, "played")[0, p])
        if disc & ~dealt or played & ~after or int(field(d, "hand")[0, p]) != after & ~played:
            bad.append(f"seat {p}: hand, discards and draws do not add up")
    for j in range(8):  # what the seat saw of the talon stays where it was
        c0, c1 = own_deck[TALON_START + j], deck[TALON_START + j]
        if (int(field(before, "seen")[0, seat]) >> c0) & 1 or drawer[j] == seat:
            if c0 != c1:
                bad.append(f"talon card {j} known to the seat changed")
        seen0 = (int(field(before, "seen")[0, opp]) >> c0) & 1
        if seen0 != (int(field(d, "seen")[0, opp]) >> c1) & 1:
            bad.append(f"whether the opponent saw talon card {j} changed")
    hand = int(field(d, "hand")[0, opp])
    for s_ in range(4):
        if (int(field(d, "void")[0, opp]) >> s_) & 1 and hand & SUIT[s_]:
            bad.append(f"opponent holds a card of suit {s_}, which he failed to follow")
    if int(field(d, "cb_claim")[0, opp]) == 1 and int(field(d, "dealt")[0, opp]) & FACES:
        bad.append("a claimed carte blanche holds a face card")
    if config.get("carte_blanche_auto", True) and int(field(d, "cb_claim")[0, opp]) == 0:
        if not int(field(d, "dealt")[0, opp]) & FACES:
            bad.append("an unclaimed (automatic) carte blanche")
    if int(field(d, "phase")[0]) >= K.PHASE_PLAY:
        t = L.new_state(1)
        field(t, "dealer")[0] = field(d, "dealer")[0]
        field(t, "cb_claim")[0] = field(d, "cb_claim")[0]
        field(t, "hand")[0] = field(d, "hand")[0] | field(d, "played")[0]
        field(t, "decl_win")[0] = K.OUTCOME_NONE
        declare_row(t, 0, C.Config.from_kwargs(**config).to_array())
        for name in DECL_PUBLIC:
            if not np.array_equal(field(t, name)[0], field(d, name)[0]):
                bad.append(f"the hands do not give the declarations' {name}")
    if card_multiset(d) != PIQUET_IDS:
        bad.append("cards not conserved")
    return bad


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 120),
    seat=st.integers(0, 1),
)
def test_sim_piquet__determinization_keeps_the_seats_information(config, seed, steps, seat):
    """The seat's observation of a determinized copy equals its observation of the game (and,
    for the seat to act, the legal mask too); every card stays once; the copy is a state the
    game could be in given what the seat knows; the live game is untouched."""
    env = cardenvs.make(GAME, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    walk(env, rng, steps)
    core = env.unwrapped
    for _ in range(3):
        before, d = determinize_and_check(env, seat, rng)
        assert card_multiset(d) == card_multiset(before) == PIQUET_IDS
        assert inconsistencies(d, before, seat, config) == []
    for a, b in zip(before, core.state_copy(), strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("steps", [0, 4, 12, 30])
def test_sim_piquet__determinization_redraws_what_the_seat_cannot_see(config, steps):
    """Positive control: across draws, the other seat's observation (its own hand) changes,
    before, during and after the exchange and in trick play."""
    env = cardenvs.make(GAME, **config)
    env.reset(seed=4)
    assert walk(env, np.random.default_rng(4), steps)
    core = env.unwrapped
    sim = core.simulator()
    rng = np.random.default_rng(0)
    for seat in (0, 1):
        seen = {sim.observe(core.determinize(seat, rng), 1 - seat).tobytes() for _ in range(20)}
        assert len(seen) > 1


def test_sim_piquet__consistency_checks_can_fail():
    """Negative controls: swapping one of the seat's cards with an opponent's changes its
    observation; giving the opponent a card of a suit he failed to follow leaves the seat's
    observation unchanged, so only the reachability check catches it."""
    env = cardenvs.make(GAME)
    env.reset(seed=5)
    core = env.unwrapped
    sim = core.simulator()
    d = core.determinize(0, np.random.default_rng(0))
    hands = field(d, "hand")[0]
    mine, theirs = cards(hands[0])[0], cards(hands[1])[0]
    swap = np.uint64((1 << mine) | (1 << theirs))
    hands[0] ^= swap
    hands[1] ^= swap
    assert not np.array_equal(sim.observe(d, 0), env.observe("player_0")["observation"])
    # play random deals until seat 1 fails to follow while a card of that suit is hidden from 0
    rng = np.random.default_rng(1)
    for seed in range(200):
        env.reset(seed=seed)
        while core.legal_actions():
            env.step(int(rng.choice(core.legal_actions())))
            s = core.state_copy()
            if int(field(s, "phase")[0]) != K.PHASE_PLAY or not int(field(s, "void")[0, 1]):
                continue
            suit = cards(int(field(s, "void")[0, 1]))[0]  # bit k = suit k
            hidden = int(field(s, "discards")[0, 1]) & SUIT[suit]
            kept = int(field(s, "hand")[0, 1]) & int(field(s, "dealt")[0, 1]) & ~SUIT[suit]
            if not hidden or not kept:
                break
            d = Simulator.copy_row(s, 0)
            swap = np.uint64((1 << cards(hidden)[0]) | (1 << cards(kept)[0]))
            field(d, "hand")[0, 1] ^= swap
            field(d, "discards")[0, 1] ^= swap
            assert inconsistencies(s, s, 0, {}) == []
            assert np.array_equal(sim.observe(d, 0), sim.observe(s, 0))
            assert any("failed to follow" in x for x in inconsistencies(d, s, 0, {}))
            return
    pytest.fail("no deal with a revealed void and a hidden card of that suit")


def test_sim_piquet__void_is_set_when_a_player_fails_to_follow_and_reset_each_deal():
    env = cardenvs.make(GAME)
    env.reset(seed=11)
    core = env.unwrapped
    rng = np.random.default_rng(11)
    deal, found = 0, False
    while core.legal_actions():
        s = core.state_copy()
        led = int(field(s, "trick_card")[0])
        seat = int(field(s, "current")[0])
        a = int(rng.choice(core.legal_actions()))
        env.step(a)
        t = core.state_copy()
        if int(field(t, "deal_no")[0]) != deal:
            deal = int(field(t, "deal_no")[0])
            assert not field(t, "void")[0].any()
            continue
        if led >= 0 and a >= K.ACTION_PLAY and a < K.ACTION_STOP:
            card = int(CD.card_of(a - K.ACTION_PLAY))
            before = int(field(s, "void")[0, seat])
            after = int(field(t, "void")[0, seat])
            if card // 13 != led // 13:
                found = True
                assert after == before | (1 << (led // 13))
                assert not int(field(s, "hand")[0, seat]) & SUIT[led // 13]
            else:
                assert after == before
    assert found and deal > 0


def test_sim_piquet__a_shown_carte_blanche_is_kept():
    """Opponent's dealt hand public (carte blanche shown): it is kept exactly, only which of
    its cards he discarded is redrawn."""
    cb = "7S 8S 9S 10S AS 7H 8H 9H 10H AH 7D 8D".split()
    rest = [format_card(c) for c in K.DECK.cards.tolist() if format_card(c) not in cb]
    env = cardenvs.make(GAME)
    env.reset(seed=0, options={"deck": rest[:12] + cb + rest[12:], "dealer": 1})
    core = env.unwrapped
    # elder (seat 0) discards 3 and stops; younger (seat 1, carte blanche) discards 2
    rng = np.random.default_rng(3)
    for _ in range(3):
        env.step(int([a for a in core.legal_actions() if a < K.ACTION_PLAY][0]))
    env.step(K.ACTION_STOP)
    s = core.state_copy()
    assert int(field(s, "cb_shown")[0, 1]) != 0
    for _ in range(2):
        env.step(int([a for a in core.legal_actions() if a < K.ACTION_PLAY][0]))
    env.step(K.ACTION_STOP)
    walk(env, rng, 3)
    s = core.state_copy()
    discs = set()
    for _ in range(30):
        d = core.determinize(0, rng)
        assert field(d, "dealt")[0, 1] == field(s, "dealt")[0, 1]
        assert inconsistencies(d, s, 0, {}) == []
        discs.add(int(field(d, "discards")[0, 1]))
    assert len(discs) > 1


@pytest.mark.parametrize("config", CONFIGS)
def test_ismcts_piquet__plays_legal_actions_to_the_end_of_a_deal(config):
    env = cardenvs.make(GAME, illegal_action="raise", episode="deal", **config)
    env.reset(seed=2)
    play_out_with(ISMCTSAgent(GAME, iterations=8, max_rollout=200, seed=1), env)
