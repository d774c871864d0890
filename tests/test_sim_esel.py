"""Esel determinization (``cardenvs.games.esel.determinization.determinize``) and ISMCTS on
esel-v0: the same properties as ``tests/test_sim.py``, plus the voids revealed by play (4.5)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from harness import determinize_and_check, play_out_with, walk  # noqa: E402
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardenvs
from cardenvs.games.esel import constants as K
from cardenvs.games.esel import determinization as S
from cardenvs.games.esel import layout as L

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from cardenvs.agents.ismcts import ISMCTSAgent  # noqa: E402

GAME = "esel-v0"
CONFIGS = [
    {},
    {"num_players": 2},
    {"num_players": 3, "trump_option": 5},
    {"trump_option": 3, "common_trumps": "H", "must_beat": True},
]
ALL = (1 << 64) - 1


def bits(m) -> list[int]:
    return [c for c in range(64) if (int(m) >> c) & 1]


def suit_mask(voids: int) -> int:
    return sum(0x1FF << (13 * s + 4) for s in range(4) if (voids >> s) & 1)


def check_cards(s, P: int) -> None:
    """Hands, played cards and the stock hold the 36 cards once each; the cards taken are the
    cards played less the current trick."""
    cards = []
    for name in ("hand", "played"):
        for m in L.field(s, name)[0][:P].tolist():
            cards += bits(m)
    cards += L.field(s, "deck")[0][int(L.field(s, "stock_pos")[0]) :].tolist()
    assert sorted(cards) == sorted(K.DECK.cards.tolist())
    taken = played = 0
    for p in range(P):
        taken |= int(L.field(s, "taken")[0][p])
        played |= int(L.field(s, "played")[0][p])
    table = L.field(s, "trick_cards")[0][: int(L.field(s, "trick_n")[0])].tolist()
    assert taken == played & ~sum(1 << c for c in table) & ALL


def check_voids(s, P: int) -> None:
    """No hand holds a card of a suit its seat is known to lack."""
    for p in range(P):
        v = int(L.field(s, "void")[0][p])
        assert int(L.field(s, "hand")[0][p]) & suit_mask(v) == 0


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
    seat_shift=st.integers(0, 3),
)
def test_sim_esel__determinization_keeps_the_seats_information(config, seed, steps, seat_shift):
    """The seat's observation of a determinized copy equals its observation of the game (and,
    for the seat to act, the legal mask too); every card stays once; the known voids hold; the
    live game is untouched."""
    env = cardenvs.make(GAME, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    walk(env, rng, steps)
    core = env.unwrapped
    P = len(env.possible_agents)
    seat = seat_shift % P
    before, d = determinize_and_check(env, seat, rng)
    sim = core.simulator()
    check_cards(before, P)
    check_cards(d, P)
    check_voids(before, P)
    check_voids(d, P)
    for a, b in zip(before, core.state_copy(), strict=True):
        assert np.array_equal(a, b)
    # a determinized copy plays on legally to the end of its hand
    s = d
    for _ in range(60):
        mask = sim.legal(s)
        if not mask.any():
            break
        _, done, _ = sim.step(s, int(rng.choice(np.flatnonzero(mask))))
        check_cards(s, P)
        check_voids(s, P)
        if done or int(L.field(s, "phase")[0]) == K.PHASE_TRUMP:
            break


@pytest.mark.parametrize("config", CONFIGS)
def test_sim_esel__voids_are_recorded_true_and_cleared_on_a_draw(config):
    """Along random games the void bits are set (off-suit plays happen), are always true of the
    real hands, and are cleared when the seat draws."""
    env = cardenvs.make(GAME, **config)
    P = len(env.possible_agents)
    seen = 0
    for seed in range(6):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        core = env.unwrapped
        for _ in range(300):
            legal = core.legal_actions()
            if not legal:
                break
            s0 = core.state_copy()
            env.step(int(rng.choice(legal)))
            s = core.state_copy()
            check_voids(s, P)
            seen += int(L.field(s, "void")[0].any())
            same_hand = int(L.field(s, "deal_no")[0]) == int(L.field(s0, "deal_no")[0])
            drew = int(L.field(s, "stock_pos")[0]) - int(L.field(s0, "stock_pos")[0])
            if same_hand and drew == P:  # a trick ended with a full refill
                assert not L.field(s, "void")[0].any()
    assert seen > 0


@pytest.mark.parametrize("config", CONFIGS)
def test_sim_esel__determinization_redraws_what_the_seat_cannot_see(config):
    """Positive control: across draws, another seat's observation (its own hand) changes."""
    env = cardenvs.make(GAME, **config)
    env.reset(seed=4)
    walk(env, np.random.default_rng(4), 12)
    core = env.unwrapped
    sim = core.simulator()
    rng = np.random.default_rng(0)
    seen = {sim.observe(core.determinize(0, rng), 1).tobytes() for _ in range(20)}
    assert len(seen) > 1


def test_sim_esel__trump_choice_hides_every_hand_even_its_own():
    env = cardenvs.make(GAME)
    env.reset(seed=3)
    core = env.unwrapped
    assert core.state_copy().f[0, L.F_PHASE] == K.PHASE_TRUMP
    acting = core.agent_name_mapping[env.agent_selection]
    rng = np.random.default_rng(0)
    own = {int(L.field(core.determinize(acting, rng), "hand")[0][acting]) for _ in range(10)}
    assert len(own) > 1


def _void_position(config, seed_range=range(50)):
    """A live game where some seat other than 0 is known void and the pool still holds cards of
    that suit (so the constraint bites)."""
    for seed in seed_range:
        env = cardenvs.make(GAME, **config)
        env.reset(seed=seed)
        core = env.unwrapped
        rng = np.random.default_rng(seed)
        for _ in range(300):
            legal = core.legal_actions()
            if not legal:
                break
            env.step(int(rng.choice(legal)))
            s = core.state_copy()
            P = len(env.possible_agents)
            pool = 0
            for p in range(1, P):
                pool |= int(L.field(s, "hand")[0][p])
            for c in L.field(s, "deck")[0][int(L.field(s, "stock_pos")[0]) :].tolist():
                pool |= 1 << c
            for p in range(1, P):
                v = int(L.field(s, "void")[0][p])
                if v and pool & suit_mask(v) and int(L.field(s, "hand")[0][p]):
                    return env, p
    raise AssertionError("no void position found")


def test_sim_esel__voids_are_respected_and_would_be_violated_by_a_plain_redraw(monkeypatch):
    """Negative control for the voids: a draw that ignores them gives the void seat a card of
    its void suit in some draws; the determinization never does, also on its constructive
    fallback path. (With 2 players a void never bites: the trick ends at once, and once the
    stock is empty the opponent's hand is all that is hidden.)"""
    env, p = _void_position({})
    core = env.unwrapped
    s = core.state_copy()
    v = int(L.field(s, "void")[0][p])
    hand = int(L.field(s, "hand")[0][p])
    pool = L.field(s, "deck")[0][int(L.field(s, "stock_pos")[0]) :].tolist()
    for q in range(1, 4):
        pool += bits(L.field(s, "hand")[0][q])
    sim = core.simulator()
    plain_violations = 0
    rng = np.random.default_rng(0)
    for tries in (1, 0):  # 0: always the constructive draw
        monkeypatch.setattr(S, "DETERMINIZE_TRIES", tries)
        for _ in range(100):
            d = core.determinize(0, rng)
            check_voids(d, 4)
            check_cards(d, 4)
            assert np.array_equal(sim.observe(d, 0), env.observe("player_0")["observation"])
            # the same uniform draw without the check: a random hand of the same size
            pick = rng.choice(pool, size=len(bits(hand)), replace=False)
            plain_violations += any((v >> (int(c) // 13)) & 1 for c in pick)
    assert plain_violations > 0


def test_sim_esel__impossible_voids_fall_back_to_the_true_hands():
    """If no deal respects the voids (here forced by writing every suit as void), the true hands
    are kept and only the stock order is redrawn."""
    env = cardenvs.make(GAME, num_players=2)
    env.reset(seed=1)
    walk(env, np.random.default_rng(1), 6)
    core = env.unwrapped
    L.field(core._engine.state, "void")[0][1] = 0xF
    s = core.state_copy()
    d = core.determinize(0, np.random.default_rng(0))
    assert np.array_equal(L.field(d, "hand")[0], L.field(s, "hand")[0])
    sp = int(L.field(s, "stock_pos")[0])
    assert sorted(L.field(d, "deck")[0][sp:]) == sorted(L.field(s, "deck")[0][sp:])
    check_cards(d, 2)


def test_sim_esel__consistency_check_can_fail():
    """Negative control: a 'determinization' that swaps one of the seat's own cards with an
    opponent's changes the seat's observation, so the property above would catch it."""
    env = cardenvs.make(GAME, num_players=2)
    env.reset(seed=5)
    walk(env, np.random.default_rng(5), 4)  # past the trump choice: hands are seen
    core = env.unwrapped
    assert core.state_copy().f[0, L.F_PHASE] != K.PHASE_TRUMP
    sim = core.simulator()
    d = core.determinize(0, np.random.default_rng(0))
    assert np.array_equal(sim.observe(d, 0), env.observe("player_0")["observation"])
    hands = L.field(d, "hand")[0]
    mine = int(hands[0]) & -int(hands[0])
    theirs = int(hands[1]) & -int(hands[1])
    hands[0] = np.uint64(int(hands[0]) ^ mine ^ theirs)
    hands[1] = np.uint64(int(hands[1]) ^ mine ^ theirs)
    assert not np.array_equal(sim.observe(d, 0), env.observe("player_0")["observation"])


@pytest.mark.parametrize("config", CONFIGS)
def test_ismcts_esel__plays_legal_actions_to_the_end_of_a_deal(config):
    env = cardenvs.make(GAME, illegal_action="raise", episode="deal", **config)
    env.reset(seed=2)
    play_out_with(ISMCTSAgent(GAME, iterations=8, max_rollout=200, seed=1), env)
