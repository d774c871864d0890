"""Search support for Piquet normand and partnership Piquet (``cardenvs.core.sim`` on
``games.piquet.multi``): the determinization keeps everything the seat has observed (its
observation, its legal mask, its own and the public cards, every card once, the voids, a public
carte blanche and the declarations the others revealed), redraws what it cannot see, the copy
plays on to the end, and the ISMCTS agent plays legal actions with it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from harness import act, bits, determinize_and_check, play_out_with, walk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from piquet_multi_checks import check_cards, deck_for, mask
from test_piquet_normand import DECK as NORMAND_DECK
from test_piquet_normand import TRICKS as NORMAND_TRICKS

import cardenvs
from cardenvs.core.sim import Simulator
from cardenvs.games.piquet import cards as CD
from cardenvs.games.piquet.multi import config as MC
from cardenvs.games.piquet.multi import constants as MK
from cardenvs.games.piquet.multi import determinization as MS
from cardenvs.games.piquet.multi import layout as ML
from cardenvs.games.piquet.multi.layout import field
from cardenvs.games.piquet.multi.rules import declare_row

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from cardenvs.agents.ismcts import ISMCTSAgent  # noqa: E402

NORMAND, PARTNERSHIP = "piquet_normand-v0", "partnership_piquet-v0"
CASES = [
    (NORMAND, {}),
    (NORMAND, {"normand_dealer_exchange": "may"}),
    (NORMAND, {"target": 20}),  # a player drops out after a deal or two: a dead packet
    (NORMAND, {"carte_blanche": False, "set_ranks": "KQJT"}),
    (PARTNERSHIP, {}),
    (PARTNERSHIP, {"point_minimum": 0, "target": 30}),
]
SUIT = [sum(1 << (s * 13 + r) for r in range(5, 13)) for s in range(4)]
FACES = sum(1 << (s * 13 + r) for s in range(4) for r in (9, 10, 11))  # J, Q, K
# fields a determinization may change: the others' private cards, the deck, the row key
# ``legal`` caches the legal actions of the seat to act, which depend on its hidden hand
PRIVATE = {"hand", "dealt", "discards", "seen", "cb", "deck", "key", "last_disc", "legal"}
DECL_PUBLIC = ("decl_win", "decl_pts", "shown")


def sizes(game: str) -> tuple[int, int]:
    return (3, MK.NORMAND_HAND) if game == NORMAND else (4, MK.PARTNERSHIP_HAND)


def f(s, name: str):
    return field(s, name)[0]


def packets(s, p: int, h: int) -> dict[int, int]:
    """Each seat's packet (the cards at its deck positions: the dealer's left first)."""
    deck = [int(c) for c in f(s, "deck")]
    dealer = int(f(s, "dealer"))
    return {
        t: sum(1 << c for c in deck[k * h : (k + 1) * h])
        for k, t in ((k, (dealer + 1 + k) % p) for k in range(p))
    }


def in_deal(s, t: int) -> bool:
    fin = int(f(s, "finished")[t])
    return fin == 0 or fin > int(f(s, "deal_no"))


def inconsistencies(d, before, seat: int, game: str, config: dict) -> list[str]:
    """Why ``d`` is not a state the game could be in given what ``seat`` knows of ``before``
    (empty if it is one), checked from the state fields and the rules alone."""
    p, h = sizes(game)
    cfg = cardenvs.game_info(game).config_cls.from_kwargs(**config).to_array()
    normand = game == NORMAND
    bad = []
    phase, dealer = int(f(d, "phase")), int(f(d, "dealer"))
    for name, _, _, _ in ML.STATE_FIELDS:
        a, b = f(before, name), f(d, name)
        if name not in PRIVATE and not np.array_equal(a, b):
            bad.append(f"public field {name} changed")
        elif name in {"hand", "dealt"} and a[seat] != b[seat]:
            bad.append(f"own {name} changed")
    if normand and seat == dealer:
        for name in ("discards", "seen"):
            if f(before, name) != f(d, name):
                bad.append(f"own {name} changed")
    new, old = packets(d, p, h), packets(before, p, h)
    if in_deal(d, seat) and new[seat] != old[seat]:
        bad.append("own packet moved")
    deck = [int(c) for c in f(d, "deck")]
    talon = deck[p * h :]
    exch_done = normand and phase != MK.PHASE_EXCHANGE
    if (
        normand
        and seat == dealer
        and exch_done
        and talon != [int(c) for c in f(before, "deck")[p * h :]]
    ):
        bad.append("the talon the dealer saw changed")
    taken = int(f(d, "talon_pos")) if exch_done else 0
    for t in range(p):
        hand, played, shown = int(f(d, "hand")[t]), int(f(d, "played")[t]), int(f(d, "shown")[t])
        dealt = int(f(d, "dealt")[t])
        if not in_deal(d, t):
            if hand or dealt:
                bad.append(f"seat {t} is out but holds cards")
            continue
        if dealt != new[t]:
            bad.append(f"dealt[{t}] is not its packet")
        if normand and t == dealer:
            disc = int(f(d, "discards"))
            if disc & ~dealt or disc.bit_count() != int(f(d, "ndisc")):
                bad.append("the discards are not the dealer's")
            after = (dealt & ~disc) | sum(1 << c for c in talon[:taken])
            if exch_done and int(f(d, "seen")) != sum(1 << c for c in talon[taken:]):
                bad.append("seen is not the talon cards left")
            last = int(f(d, "last_disc"))
            if disc and last != (max(bits(disc)) // 13) * 8 + max(bits(disc)) % 13 - 5:
                bad.append("last_disc is not the highest discard")
        else:
            after = dealt
        if played & ~after or hand != after & ~played:
            bad.append(f"seat {t}: hand, played cards and packet do not add up")
        if shown & ~(after | dealt):
            bad.append(f"seat {t} showed a card he never held")
        for suit in range(4):
            if (int(f(d, "void")[t]) >> suit) & 1 and hand & SUIT[suit]:
                bad.append(f"seat {t} holds a card of suit {suit}, which he failed to follow")
        cb = int(bool(cfg[MC.C_CARTE_BLANCHE]) and dealt != 0 and not dealt & FACES)
        if int(f(d, "cb")[t]) != cb:
            bad.append(f"cb[{t}] disagrees with the dealt hand")
        if phase >= MK.PHASE_PLAY and cb != int(f(before, "cb")[t]):
            bad.append(f"seat {t}'s carte blanche (public from the play) changed")
    if phase >= MK.PHASE_PLAY:
        t_ = Simulator.copy_row(d, 0)
        for t in range(p):
            if in_deal(d, t):
                field(t_, "finished")[0, t] = 0
                field(t_, "hand")[0, t] = f(d, "hand")[t] | f(d, "played")[t]
        for name in ("shown", "decl_pts", "deal_score", "bonus"):
            field(t_, name)[0] = 0
        field(t_, "decl_win")[0] = MK.OUTCOME_NONE
        declare_row(t_, 0, cfg)
        for name in DECL_PUBLIC:
            if not np.array_equal(f(t_, name), f(d, name)):
                bad.append(f"the hands do not give the declarations' {name}")
    try:
        check_cards(d, p, h)
    except AssertionError as e:
        bad.append(f"cards not conserved: {e}")
    return bad


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10_000), steps=st.integers(0, 90))
def test_sim_piquet_multi__determinization_keeps_the_seats_information(case, seed, steps):
    """For every seat: its observation of a determinized copy equals its observation of the
    game (and its legal mask when it is to act); every card stays once; the copy is a state the
    game could be in given what the seat knows (own cards, public cards, voids, carte blanche,
    declarations); the live game is untouched."""
    game, config = case
    env = cardenvs.make(game, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    walk(env, rng, steps)
    core = env.unwrapped
    p, h = sizes(game)
    live = core.state_copy()
    for seat in range(p):
        for _ in range(2):
            before, d = determinize_and_check(env, seat, rng)
            check_cards(d, p, h)
            assert inconsistencies(d, before, seat, game, config) == []
    for a, b in zip(live, core.state_copy(), strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("game, config", CASES)
def test_sim_piquet_multi__every_step_of_a_game_determinizes_consistently(game, config):
    """The same checks at every step of a whole game of random play, for the seat to act (the
    one a search determinizes for); every deal of it is covered, the exchange included."""
    env = cardenvs.make(game, **config)
    env.reset(seed=7)
    core = env.unwrapped
    rng = np.random.default_rng(7)
    phases = set()
    while core.legal_actions():
        seat = core.agent_name_mapping[env.agent_selection]
        before, d = determinize_and_check(env, seat, rng)
        assert inconsistencies(d, before, seat, game, config) == []
        phases.add(int(f(before, "phase")))
        env.step(int(rng.choice(core.legal_actions())))
    assert MK.PHASE_PLAY in phases and (game == PARTNERSHIP or MK.PHASE_EXCHANGE in phases)


@pytest.mark.parametrize("game, config", CASES)
@pytest.mark.parametrize("steps", [0, 1, 5, 20, 40])
def test_sim_piquet_multi__determinization_redraws_what_the_seat_cannot_see(game, config, steps):
    """Positive control: across draws the other seats' hands change (each other seat's
    observation, its own hand included, takes several values), before, during and after the
    normand exchange and in trick play (for every other seat holding cards the seat has not
    seen); the seat's own view never does."""
    env = cardenvs.make(game, **config)
    env.reset(seed=4)
    assert walk(env, np.random.default_rng(4), steps)
    core = env.unwrapped
    sim = core.simulator()
    rng = np.random.default_rng(0)
    p, _ = sizes(game)
    live = core.state_copy()
    for seat in range(p):
        if not in_deal(live, seat):
            continue
        draws = [core.determinize(seat, rng) for _ in range(12)]
        own = {sim.observe(d, seat).tobytes() for d in draws}
        assert len(own) == 1
        # the other seats holding cards this seat has not seen (not shown); with one alone
        # and no talon or dead packet his cards would be forced
        unseen = [
            t for t in range(p) if t != seat and int(f(live, "hand")[t]) & ~int(f(live, "shown")[t])
        ]
        if len(unseen) < 2 and game == PARTNERSHIP:
            continue
        for other in unseen:
            hands = {int(f(d, "hand")[other]) for d in draws}
            assert len(hands) > 1, f"seat {other}'s hand never changes for seat {seat}"


def test_sim_piquet_multi__the_dealers_discards_and_talon_are_redrawn_for_the_others():
    """Normand, after the exchange: the dealer's discards and the talon cards he took are
    hidden from the others (redrawn, and his hand with them) but kept for him."""
    env = cardenvs.make(NORMAND, normand_dealer_exchange="may")
    env.reset(seed=3)
    core = env.unwrapped
    dealer = int(f(core.state_copy(), "dealer"))
    act(env, core, next(core.action_name(a) for a in core.legal_actions() if a < MK.ACTION_PLAY))
    act(env, core, "stop")
    s = core.state_copy()
    assert int(f(s, "phase")) == MK.PHASE_PLAY and int(f(s, "talon_pos")) == 1
    rng = np.random.default_rng(0)
    other = (dealer + 1) % 3
    discs, seens = set(), set()
    for _ in range(30):
        d = core.determinize(other, rng)
        assert inconsistencies(d, s, other, NORMAND, {"normand_dealer_exchange": "may"}) == []
        discs.add(int(f(d, "discards")))
        seens.add(int(f(d, "seen")))
        d = core.determinize(dealer, rng)
        for name in ("discards", "seen"):
            assert f(d, name) == f(s, name)
        assert list(f(d, "deck")[30:]) == list(f(s, "deck")[30:])
    assert len(discs) > 1 and len(seens) > 1


# a normand dealer with a carte blanche (no K, Q, J), public once play starts
CB_DEALER = "7S 8S 9S 10S AS 7H 8H 9H 10H AH"
# (he takes 7D 8D, which no declaration of his shows: only the others' hands tell them)
CB_DECK = deck_for(
    ["AD KD QD JD 10D AC KC QC JC 10C", "9D QH JH 9C 8C 7C KS QS JS KH", CB_DEALER], "7D 8D"
)


@pytest.mark.parametrize("game, config", [CASES[1], CASES[4]])
def test_sim_piquet_multi__the_fallback_walk_keeps_every_guarantee(game, config, monkeypatch):
    """With no uniform draw allowed, the fallback (swaps of hidden cards from the true deal,
    each kept only if the deal stays consistent) still gives consistent copies, and moves
    cards away from the true deal."""
    monkeypatch.setattr(MS, "DETERMINIZE_TRIES", 0)
    env = cardenvs.make(game, **config)
    env.reset(seed=6)
    core = env.unwrapped
    rng = np.random.default_rng(6)
    p, _ = sizes(game)
    moved = 0
    for steps in (0, 2, 9, 14):
        assert walk(env, rng, steps)
        live = core.state_copy()
        for seat in range(p):
            before, d = determinize_and_check(env, seat, rng)
            assert inconsistencies(d, before, seat, game, config) == []
            moved += sum(int(f(d, "hand")[t]) != int(f(live, "hand")[t]) for t in range(p))
    assert moved > 0


def test_sim_piquet_multi__a_public_carte_blanche_is_kept_and_only_its_discards_redrawn():
    env = cardenvs.make(NORMAND)
    env.reset(seed=0, options={"deck": CB_DECK, "dealer": 2})
    core = env.unwrapped
    act(env, core, "discard 7S", "discard 8S")
    s = core.state_copy()
    assert list(f(s, "cb")[:3]) == [0, 0, 1] and int(f(s, "shown")[2]) & mask(CB_DEALER) == mask(
        CB_DEALER
    )
    walk(env, np.random.default_rng(1), 4)
    s = core.state_copy()
    rng = np.random.default_rng(2)
    discs, talon_cards = set(), set()
    for seat in (0, 1):
        for _ in range(40):
            d = core.determinize(seat, rng)
            assert int(f(d, "dealt")[2]) == mask(CB_DEALER)
            assert inconsistencies(d, s, seat, NORMAND, {}) == []
            discs.add(int(f(d, "discards")))
            talon_cards.add(int(f(d, "hand")[2]) & ~mask(CB_DEALER))
    assert len(discs) > 1 and len(talon_cards) > 1


def test_sim_piquet_multi__a_dead_packet_is_hidden_from_everybody():
    """After the dealer of the hand-checked deal drops out (target 50), his packet in the next
    deal is set aside unseen: redrawn for both players, never in a hand."""
    env = cardenvs.make(NORMAND, target=50)
    env.reset(seed=0, options={"deck": NORMAND_DECK, "dealer": 2})
    core = env.unwrapped
    act(env, core, "discard 7D", "discard 8D")
    for trick in NORMAND_TRICKS:
        for card in trick:
            act(env, core, f"play {card}")
    walk(env, np.random.default_rng(0), 6)
    s = core.state_copy()
    assert list(f(s, "finished")[:3]) == [0, 0, 1] and int(f(s, "phase")) == MK.PHASE_PLAY
    rng = np.random.default_rng(1)
    dead_pos = ((2 - int(f(s, "dealer")) - 1) % 3) * 10
    for seat in (0, 1, 2):
        dead = set()
        for _ in range(10):
            d = core.determinize(seat, rng)
            assert inconsistencies(d, s, seat, NORMAND, {"target": 50}) == []
            assert int(f(d, "hand")[2]) == 0
            dead.add(tuple(sorted(int(c) for c in f(d, "deck")[dead_pos : dead_pos + 10])))
        assert len(dead) > 1


def test_sim_piquet_multi__void_is_set_when_a_player_fails_to_follow_and_reset_each_deal():
    for game in (NORMAND, PARTNERSHIP):
        env = cardenvs.make(game)
        env.reset(seed=11)
        core = env.unwrapped
        rng = np.random.default_rng(11)
        deal, found = 0, False
        while core.legal_actions():
            s = core.state_copy()
            led = int(f(s, "led"))
            seat = int(f(s, "current"))
            a = int(rng.choice(core.legal_actions()))
            env.step(a)
            t = core.state_copy()
            if int(f(t, "deal_no")) != deal:
                deal = int(f(t, "deal_no"))
                assert not f(t, "void").any()
                continue
            if led >= 0 and MK.ACTION_PLAY <= a < MK.ACTION_STOP:
                card = int(CD.card_of(a - MK.ACTION_PLAY))
                before, after = int(f(s, "void")[seat]), int(f(t, "void")[seat])
                if card // 13 != led // 13:
                    found = True
                    assert after == before | (1 << (led // 13))
                    assert not int(f(s, "hand")[seat]) & SUIT[led // 13]
                else:
                    assert after == before
        assert found and deal > 0


def test_sim_piquet_multi__consistency_checks_can_fail():
    """Negative controls: moving one of the seat's cards to another seat changes its
    observation; giving a seat a card of a suit he failed to follow, or breaking the
    declarations by exchanging hidden cards between two other seats, leaves the seat's
    observation unchanged, so only the consistency check catches it."""
    env = cardenvs.make(PARTNERSHIP)
    env.reset(seed=5)
    core = env.unwrapped
    sim = core.simulator()
    d = core.determinize(0, np.random.default_rng(0))
    hands = field(d, "hand")[0]
    swap = np.uint64((1 << bits(int(hands[0]))[0]) | (1 << bits(int(hands[1]))[0]))
    hands[0] ^= swap
    hands[1] ^= swap
    assert not np.array_equal(sim.observe(d, 0), env.observe("player_0")["observation"])
    rng = np.random.default_rng(1)
    void_caught = decl_caught = False
    for seed in range(100):
        env.reset(seed=seed)
        while core.legal_actions() and not (void_caught and decl_caught):
            env.step(int(rng.choice(core.legal_actions())))
            s = core.state_copy()
            if int(f(s, "phase")) != MK.PHASE_PLAY:
                continue
            assert inconsistencies(s, s, 0, PARTNERSHIP, {}) == []
            for a_, b_ in ((1, 2), (2, 3), (1, 3)):
                ha, hb = int(f(s, "hand")[a_]), int(f(s, "hand")[b_])
                hidden_a = ha & ~int(f(s, "shown")[a_])
                hidden_b = hb & ~int(f(s, "shown")[b_])
                if not hidden_a or not hidden_b:
                    continue
                x, y = bits(hidden_a)[0], bits(hidden_b)[0]
                d = Simulator.copy_row(s, 0)
                relabel_between(d, a_, b_, x, y, p=4, h=8)
                assert np.array_equal(sim.observe(d, 0), sim.observe(s, 0))
                why = inconsistencies(d, s, 0, PARTNERSHIP, {})
                void_caught |= any("failed to follow" in w for w in why)
                decl_caught |= any("declarations" in w for w in why)
        if void_caught and decl_caught:
            return
    pytest.fail(f"void caught {void_caught}, declarations caught {decl_caught}")


def relabel_between(d, a: int, b: int, x: int, y: int, p: int, h: int) -> None:
    """Move hidden card ``x`` from seat ``a`` to seat ``b`` and ``y`` the other way (hands,
    dealt hands and the deck)."""
    for name in ("hand", "dealt"):
        arr = field(d, name)[0]
        arr[a] ^= np.uint64((1 << x) | (1 << y))
        arr[b] ^= np.uint64((1 << x) | (1 << y))
    deck = field(d, "deck")[0]
    ix, iy = int(np.flatnonzero(deck == x)[0]), int(np.flatnonzero(deck == y)[0])
    deck[ix], deck[iy] = y, x


@pytest.mark.parametrize("game, config", CASES)
def test_sim_piquet_multi__a_determinized_copy_plays_on_to_the_end(game, config):
    """From determinized copies at several points, random legal actions play the whole game
    out on the kernels: every card once after every step, a legal action until the end."""
    env = cardenvs.make(game, **config)
    env.reset(seed=9)
    core = env.unwrapped
    sim = core.simulator()
    rng = np.random.default_rng(9)
    p, h = sizes(game)
    for steps in (0, 3, 17, 25):
        if not walk(env, rng, steps):
            break
        seat = core.agent_name_mapping[env.agent_selection]
        d = core.determinize(seat, rng)
        mask_ = sim.legal(d)
        for _ in range(20_000):
            assert mask_.any()
            _, done, mask_ = sim.step(d, int(rng.choice(np.flatnonzero(mask_))))
            check_cards(d, p, h)
            if done:
                break
        assert done and sim.current(d) == -1


@pytest.mark.parametrize("game", [NORMAND, PARTNERSHIP])
def test_ismcts_piquet_multi__plays_legal_actions_to_the_end_of_a_game(game):
    env = cardenvs.make(game, illegal_action="raise", target=30)
    env.reset(seed=2)
    play_out_with(ISMCTSAgent(game, iterations=4, max_rollout=200, seed=1), env)


@pytest.mark.parametrize("game", [NORMAND, PARTNERSHIP])
def test_ismcts_piquet_multi__act_row_picks_legal_actions_on_the_batched_engine(game):
    venv = cardenvs.make_vector(game, 2, seed=3)
    _, mask_, _ = venv.reset()
    agent = ISMCTSAgent(game, iterations=6, max_rollout=100, seed=0)
    for _ in range(12):
        actions = np.array([agent.act_row(venv, b) for b in range(2)])
        assert mask_[np.arange(2), actions].all()
        _, mask_, _, _, _, _ = venv.step(actions)
