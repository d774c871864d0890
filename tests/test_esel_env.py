"""Esel (``esel-v0``): what its environment checks hold beyond the contract suite (PettingZoo
api/seed tests, registry, vector == AEC, autoreset, bad actions, action names, reset options,
config errors, records and replays, render: ``test_contract_aec.py``, ``test_contract_vector.py``).

1. hypothesis properties over random legal play: cards conserved, masks non-empty exactly while
   the game runs (and as the rules say in each phase), episodes bounded, observations inside
   their space, rewards zero-sum and as the reward table says, no hidden-information leak (spec
   2-5: played cards, the trick, declarations, trumps, banks and points taken are public; each
   hand and the stock order are private; during the trump choice nobody sees his cards);
2. the action table, the deal from a fixed deck and dealer, and what a record's deals hold.

State fields are reached with ``rules.field(state, name)`` (a writable view over all rows).
Card masks are ``uint64`` with global ids ``suit * 13 + rank`` (rank 0 = two .. 12 = ace);
Esel uses ranks 4..12 (6..A).
"""

from __future__ import annotations

import copy
import functools
from collections import Counter

import harness
import numpy as np
import pytest
from harness import (
    bits,
    choose,
    obs_block_name,
    observe_state,
)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import cardenvs
from cardenvs.games.esel import config as C
from cardenvs.games.esel import constants as K
from cardenvs.games.esel import layout as L

ENV_ID = "esel-v0"
NUM_ACTIONS = 42
NUM_CARDS = 36
HAND = 4
ESEL_IDS = np.array([s * 13 + r for s in range(4) for r in range(4, 13)], np.int64)
ALL36 = sum(1 << int(c) for c in ESEL_IDS)
CARD_STRINGS = [f"{r}{s}" for s in "SHDC" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")]
# card points by global rank (spec 2): 6 = -1, 8 = 16, 10 = 10, J = 1, Q = 3, K = 5, A = 12
CARD_POINTS = {4: -1, 5: 0, 6: 16, 7: 0, 8: 10, 9: 1, 10: 3, 11: 5, 12: 12}

SETTINGS = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
seeds = st.integers(min_value=0, max_value=2**31 - 1)


def obs_block(i: int) -> str:
    return obs_block_name(L.OBS_LAYOUT, i)


aec_envs = functools.partial(harness.aec_envs, ENV_ID)


def config_strategy(max_hands=(1, 2, 3)):
    """Random configurations; ``max_hands`` keeps whole games short where a test plays them."""
    return st.fixed_dictionaries(
        {
            "num_players": st.integers(2, 4),
            "trump_option": st.integers(1, 5),
            "trump_assignment": st.sampled_from(["choose", "random"]),
            "must_beat": st.booleans(),
            "episode": st.sampled_from(["game", "deal"]),
            "reward": st.sampled_from(["win", "score"]),
            "max_hands": st.sampled_from(max_hands),
            "tie_break": st.sampled_from(["play_on", "hand_points"]),
        }
    )


configs = config_strategy()


# --- helpers -----------------------------------------------------------------------------------
def popcount(x) -> np.ndarray:
    """Bits set in each uint64 of ``x``."""
    x = np.ascontiguousarray(x, dtype=np.uint64)
    return np.unpackbits(x.view(np.uint8).reshape(*x.shape, 8), axis=-1).sum(-1).astype(np.int64)


def local(c: int) -> int:
    """Esel card index (suit * 9 + rank - 6) of global card id ``c``."""
    return (c // 13) * 9 + c % 13 - 4


def swap_bits(m: int, a: int, c: int) -> int:
    if ((m >> a) & 1) != ((m >> c) & 1):
        m ^= (1 << a) | (1 << c)
    return m


def row_masks(s, b: int, name: str) -> list[int]:
    return [int(x) for x in L.field(s, name)[b]]


def undrawn_stock(s) -> np.ndarray:
    """(N,) uint64: the stock cards not drawn yet (deck positions stock_pos .. 35)."""
    deck = L.field(s, "deck").astype(np.int64)
    card_bits = np.left_shift(np.uint64(1), deck.astype(np.uint64))
    pos = L.field(s, "stock_pos").astype(np.int64)
    undrawn = np.arange(NUM_CARDS)[None, :] >= pos[:, None]
    return np.bitwise_or.reduce(np.where(undrawn, card_bits, np.uint64(0)), axis=1)


def trump_phase_steps(config: dict) -> int:
    """Actions of the trump choice per hand (option 1 with suits chosen in turn only)."""
    p = config.get("num_players", 4)
    choose = config.get("trump_option", 1) == 1 and config.get("trump_assignment") != "random"
    return p if choose else 0


def hand_steps(config: dict) -> int:
    """Every hand takes exactly: the trump choice, one declaration per seat, 36 cards."""
    return trump_phase_steps(config) + config.get("num_players", 4) + NUM_CARDS


def check_cards(s, P: int, where: str = "") -> None:
    """Cards are conserved in every row of state ``s`` (and the bookkeeping around them)."""
    deck = L.field(s, "deck").astype(np.int64)
    bad = np.flatnonzero((np.sort(deck, axis=1) != ESEL_IDS[None, :]).any(axis=1))
    assert bad.size == 0, f"{where}row {bad[0]}: deck is not the 36 esel cards: {deck[bad[0]]}"
    hand, played, taken = L.field(s, "hand"), L.field(s, "played"), L.field(s, "taken")
    assert not hand[:, P:].any() and not played[:, P:].any() and not taken[:, P:].any(), (
        f"{where}cards held by a seat beyond num_players={P}"
    )
    stock = undrawn_stock(s)
    parts = np.concatenate([hand[:, :P], played[:, :P], stock[:, None]], axis=1)
    union = np.bitwise_or.reduce(parts, axis=1)
    counts = popcount(parts)
    bad = np.flatnonzero((union != np.uint64(ALL36)) | (counts.sum(axis=1) != NUM_CARDS))
    assert bad.size == 0, (
        f"{where}row {bad[0]}: cards not conserved; sizes (hands, played, stock) = "
        f"{counts[bad[0]].tolist()}, union {int(union[bad[0]]):#x}, expected {ALL36:#x}"
    )
    phase = L.field(s, "phase")
    pos = L.field(s, "stock_pos").astype(np.int64)
    dealer = L.field(s, "dealer").astype(np.int64)
    trick_n = L.field(s, "trick_n").astype(np.int64)
    for b in range(deck.shape[0]):
        ph = int(phase[b])
        h, pl, tk = row_masks(s, b, "hand"), row_masks(s, b, "played"), row_masks(s, b, "taken")
        assert HAND * P <= pos[b] <= NUM_CARDS, f"{where}row {b}: stock_pos {pos[b]}"
        # the cards of the finished tricks are exactly the taken cards, each taken once
        tcards = [int(c) for c in L.field(s, "trick_cards")[b, : trick_n[b]]]
        tseats = [int(x) for x in L.field(s, "trick_seats")[b, : trick_n[b]]]
        on_table = sum(1 << c for c in tcards)
        all_played = 0
        for m in pl:
            all_played |= m
        all_taken = 0
        for m in tk[:P]:
            assert all_taken & m == 0, f"{where}row {b}: a card taken by two seats"
            all_taken |= m
        assert all_taken == all_played & ~on_table, (
            f"{where}row {b}: taken {all_taken:#x} != played cards of finished tricks "
            f"{all_played & ~on_table:#x}"
        )
        for c, p in zip(tcards, tseats, strict=True):
            assert (pl[p] >> c) & 1, f"{where}row {b}: trick card {c} not played by seat {p}"
        dealt = [sum(1 << int(c) for c in deck[b, HAND * i : HAND * i + HAND]) for i in range(P)]
        dealt_to = {(int(dealer[b]) + 1 + i) % P: dealt[i] for i in range(P)}
        if ph in (K.PHASE_TRUMP, K.PHASE_DECLARE):
            assert not any(pl) and pos[b] == HAND * P and trick_n[b] == 0, (
                f"{where}row {b}: cards moved before the play ({K.PHASE_NAMES[ph]})"
            )
            assert all(h[p] == dealt_to[p] for p in range(P)), (
                f"{where}row {b}: hands are not the deal from the dealer's left"
            )
        elif ph == K.PHASE_PLAY:
            for p in range(P):
                assert dealt_to[p] & ~(h[p] | pl[p]) == 0, (
                    f"{where}row {b}: seat {p} lost a dealt card"
                )
            # all players hold the same number of cards, counting the one on the trick (3.3)
            sizes = {bin(h[p]).count("1") + (p in tseats) for p in range(P)}
            assert len(sizes) == 1, f"{where}row {b}: hand sizes differ: {sizes}"
            # points so far: card points of the tricks taken, plus four-of-a-suit tricks (A9)
            pts = [int(x) for x in L.field(s, "points")[b, :P]]
            for p in range(P):
                card_pts = sum(CARD_POINTS[c % 13] for c in bits(tk[p]))
                extra = pts[p] - card_pts
                assert extra == 0 or (P == 4 and extra > 0 and extra % 10 == 0), (
                    f"{where}row {b}: seat {p} has {pts[p]} points, its cards make {card_pts}"
                )
        else:
            assert not any(h) and all_played == ALL36 and all_taken == ALL36, (
                f"{where}row {b}: the game is over with cards left"
            )


def aec_walk(env, rng, max_iter=100_000):
    """Play one AEC episode with random legal actions; yield ``(agent, obs, reward, done)``
    (what ``env.last()`` says) before each step, dead steps included."""
    for agent in env.agent_iter(max_iter=max_iter):
        obs, reward, term, trunc, _ = env.last()
        done = term or trunc
        yield agent, obs, reward, done
        env.step(None if done else int(choose(obs["action_mask"][None, :], rng)[0]))


# --- 1. PettingZoo conformance -----------------------------------------------------------------
# --- 2. hypothesis properties ------------------------------------------------------------------
@SETTINGS
@example(seed=0, action_seed=0, config={"num_players": 4, "max_hands": 3})
@example(seed=1, action_seed=2, config={"num_players": 2, "max_hands": 3})
@given(seed=seeds, action_seed=seeds, config=configs)
def test_esel__cards_conserved_at_every_step(seed, action_seed, config):
    P = C.Config(**config).num_players
    venv = cardenvs.make_vector(ENV_ID, 8, seed=seed, **config)
    rng = np.random.default_rng(action_seed)
    _, mask, _ = venv.reset()
    check_cards(venv.state, P, "after reset: ")
    for t in range(2 * hand_steps(config) + 5):  # more than two hands (autoreset included)
        _, mask, *_ = venv.step(choose(mask, rng))
        check_cards(venv.state, P, f"step {t}: ")


def test_esel__cards_check_can_fail():
    venv = cardenvs.make_vector(ENV_ID, 2, seed=3, num_players=3)
    venv.reset()
    check_cards(venv.state, 3)
    hand = L.field(venv.state, "hand")
    hand[1, 0] = hand[1, 0] | hand[1, 1]  # one card in two hands
    with pytest.raises(AssertionError, match="row 1"):
        check_cards(venv.state, 3)


@SETTINGS
@example(seed=0, action_seed=0, config={"num_players": 3, "max_hands": 2})
@given(seed=seeds, action_seed=seeds, config=configs)
def test_esel__aec_mask_nonempty_until_the_end_then_empty(seed, action_seed, config):
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=seed)
    core = env.unwrapped
    state = core._engine.state
    rng = np.random.default_rng(action_seed)
    live = 0
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
        assert int(L.field(state, "current")[0]) == seat
        phase = int(L.field(state, "phase")[0])
        if phase == K.PHASE_TRUMP:  # a suit nobody has taken yet
            taken = {int(t) for t in L.field(state, "trump")[0] if t >= 0}
            assert legal == {K.ACTION_TRUMP + x for x in range(4) if x not in taken}
        elif phase == K.PHASE_DECLARE:
            assert legal == {K.ACTION_GO, K.ACTION_NO}
        else:
            assert phase == K.PHASE_PLAY
            hand = {local(c) for c in bits(int(L.field(state, "hand")[0, seat]))}
            assert legal <= hand, f"{agent} may play cards he does not hold"
            if L.field(state, "trick_n")[0] == 0:
                assert legal == hand, "the leader may lead any card (4.5)"
    assert not env.agents, "the episode did not end"
    assert live >= hand_steps(config)


@SETTINGS
@given(seed=seeds, action_seed=seeds, config=configs)
def test_esel__vector_mask_nonempty_exactly_while_live(seed, action_seed, config):
    n = 8
    venv = cardenvs.make_vector(ENV_ID, n, seed=seed, autoreset=False, validate=False, **config)
    rng = np.random.default_rng(action_seed)
    _, mask, _ = venv.reset()
    done = np.zeros(n, bool)
    for _ in range(C.Config(**config).max_hands * hand_steps(config) + 2):
        live = L.field(venv.state, "phase") != K.PHASE_OVER
        assert (live == ~done).all()
        assert (mask.any(axis=1) == live).all(), f"rows {np.flatnonzero(mask.any(1) != live)}"
        assert ((L.field(venv.state, "current") >= 0) == live).all()
        if done.all():
            break
        _, mask, _, terminated, _, _ = venv.step(choose(mask, rng))
        done |= terminated
    assert done.all()


@SETTINGS
@example(seed=0, action_seed=0, config={"num_players": 4, "max_hands": 60})
@example(seed=3, action_seed=1, config={"num_players": 2, "max_hands": 60, "trump_option": 2})
@given(
    seed=seeds,
    action_seed=seeds,
    config=config_strategy(max_hands=(1, 2, 5, 60)),
)
def test_esel__episodes_are_bounded(seed, action_seed, config):
    n = 16
    venv = cardenvs.make_vector(ENV_ID, n, seed=seed, autoreset=False, validate=False, **config)
    cfg = C.Config(**config)
    hands_hi = 1 if cfg.episode == "deal" else cfg.max_hands
    # banks start at 3 and move by at most 1 a hand: 0 or 6 takes at least 3 hands (5.2, 5.3)
    hands_lo = 1 if cfg.episode == "deal" else min(3, cfg.max_hands)
    per_hand = hand_steps(config)
    rng = np.random.default_rng(action_seed)
    _, mask, _ = venv.reset()
    done = np.zeros(n, bool)
    hand_len = np.zeros(n, np.int64)
    hands = np.zeros(n, np.int64)
    for _ in range(hands_hi * per_hand + 1):
        if done.all():
            break
        before = L.field(venv.state, "deal_no").astype(np.int64).copy()
        _, mask, _, terminated, _, _ = venv.step(choose(mask, rng))
        live = ~done
        hand_len[live] += 1
        ended = live & ((L.field(venv.state, "deal_no") != before) | terminated)
        for b in np.flatnonzero(ended).tolist():
            assert hand_len[b] == per_hand, f"row {b}: hand {hands[b]} took {hand_len[b]} steps"
        hands[ended] += 1
        hand_len[ended] = 0
        done |= terminated
    assert done.all(), f"rows {np.flatnonzero(~done)} still running"
    assert ((hands >= hands_lo) & (hands <= hands_hi)).all(), f"hands per episode {hands}"
    assert (L.field(venv.state, "deal_no").astype(np.int64) + 1 == hands).all()


@SETTINGS
@example(seed=0, action_seed=0, config={"num_players": 4, "max_hands": 2})
@given(seed=seeds, action_seed=seeds, config=configs)
def test_esel__observations_inside_their_space(seed, action_seed, config):
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(action_seed)
    P = C.Config(**config).num_players
    for _ in aec_walk(env, rng):
        for a in env.possible_agents:
            space = env.observation_space(a)
            ob = env.observe(a)
            x, m = ob["observation"], ob["action_mask"]
            assert x.shape == (L.OBS_DIM,) and x.dtype == np.float32
            bad = np.flatnonzero((x < space["observation"].low) | (x > space["observation"].high))
            assert space["observation"].contains(x), (
                f"{a}: observation outside its space at {[obs_block(i) for i in bad]}: "
                f"{x[bad].tolist()}"
            )
            assert space["action_mask"].contains(m), f"{a}: mask outside its space: {m}"
            assert space.contains(ob)
            # seat blocks beyond num_players stay zero
            assert x[L.O_SEATS : L.O_SEATS + 4].tolist() == [1.0] * P + [0.0] * (4 - P)
    venv = cardenvs.make_vector(ENV_ID, 8, seed=seed, **config)
    box = venv.single_observation_space
    obs, mask, _ = venv.reset()
    for _ in range(hand_steps(config) + 5):
        for seat in range(P):
            for row in venv.observe(seat):
                assert box.contains(row)
        for row in obs:
            assert box.contains(row)
        assert ((mask == 0) | (mask == 1)).all()
        obs, mask, *_ = venv.step(choose(mask, rng))


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_esel__negative_points_stay_inside_the_space(num_players):
    """Sixes count -1 (spec 2): a seat whose tricks hold only sixes and blanks has negative
    points, and the observation space has room for them (points low -0.1)."""
    venv = cardenvs.make_vector(ENV_ID, 16, seed=num_players, num_players=num_players)
    box = venv.single_observation_space
    assert (box.low[L.O_POINTS : L.O_POINTS + 4] < 0).all()
    _, mask, _ = venv.reset()
    rng = np.random.default_rng(0)
    found = 0
    for _ in range(600):
        _, mask, *_ = venv.step(choose(mask, rng))
        pts = L.field(venv.state, "points")[:, :num_players]
        rows = np.flatnonzero((pts < 0).any(axis=1))
        for seat in range(num_players):
            view = venv.observe(seat)
            for b in rows.tolist():
                assert box.contains(view[b]), f"row {b}, seat {seat}: points {pts[b]}"
                ego = [int(pts[b, (seat + k) % num_players]) for k in range(num_players)]
                got = view[b, L.O_POINTS : L.O_POINTS + num_players]
                assert np.allclose(got, np.array(ego) / 100.0), (got, ego)
        found += rows.size
        if found >= 5:
            break
    assert found >= 5, "random play never produced negative points"


def expected_rewards(s, b: int, config: C.Config) -> list[float]:
    """The reward table of the rules module, computed from the finished row ``b``."""
    P = config.num_players
    f = {k: [int(x) for x in L.field(s, k)[b, :P]] for k in ("banks", "bank_change")}
    last_points = [int(x) for x in L.field(s, "last_points")[b, :P]]
    w = int(L.field(s, "winner")[b])
    if config.episode == "game" and config.reward == "win":
        return [0.0] * P if w < 0 else [1.0 if p == w else -1.0 / (P - 1) for p in range(P)]
    if config.episode == "game":
        return [np.mean(f["banks"]) - f["banks"][p] for p in range(P)]
    if config.reward == "win":
        return [np.mean(f["bank_change"]) - f["bank_change"][p] for p in range(P)]
    return [last_points[p] - np.mean(last_points) for p in range(P)]


def check_game_end(s, b: int, config: C.Config) -> None:
    """The game ends (5.3, A13) when exactly one player is at 0 banks (he wins), or someone has
    6 banks and the fewest are unique (they win), or after max_hands (fewest win, tie drawn).
    With ``tie_break="hand_points"`` a tie that would play on (several at 0, or the fewest tied
    at 6 banks or after max_hands) goes to the tied player with the most points in that hand,
    unless those are tied too."""
    P = config.num_players
    banks = [int(x) for x in L.field(s, "banks")[b, :P]]
    points = [int(x) for x in L.field(s, "last_points")[b, :P]]
    hands = int(L.field(s, "deal_no")[b]) + 1
    w = int(L.field(s, "winner")[b])
    low = min(banks)
    unique_low = banks.count(low) == 1
    tied = [p for p in range(P) if banks[p] == low]
    top = max(points[p] for p in tied)
    by_points = [p for p in tied if points[p] == top]
    decisive = config.tie_break == "hand_points" and len(by_points) == 1
    if banks.count(0) == 1:
        assert w == banks.index(0), f"row {b}: banks {banks}, winner {w}"
    elif (max(banks) >= K.LOSE_BANKS or hands == config.max_hands) and unique_low:
        assert w == banks.index(low), f"row {b}: banks {banks}, winner {w}"
    elif decisive and (
        banks.count(0) >= 2 or max(banks) >= K.LOSE_BANKS or hands == config.max_hands
    ):
        assert w == by_points[0], f"row {b}: banks {banks}, hand points {points}, winner {w}"
    elif hands == config.max_hands:
        assert w == -1, f"row {b}: banks {banks} after the last hand, winner {w}"
    elif config.episode == "deal":
        assert w == -1 and hands == 1, f"row {b}: a one-hand episode with winner {w}"
    else:
        raise AssertionError(f"row {b}: the game ended early: banks {banks}, hand {hands}")
    assert all(0 <= k for k in banks), f"row {b}: negative banks {banks}"


@SETTINGS
@example(seed=0, action_seed=0, config={"num_players": 4, "reward": "win", "max_hands": 60})
@example(seed=0, action_seed=0, config={"num_players": 3, "reward": "win", "max_hands": 60})
@example(seed=1, action_seed=0, config={"num_players": 4, "reward": "win", "max_hands": 2})
@example(seed=2, action_seed=0, config={"num_players": 2, "reward": "score", "episode": "deal"})
@example(seed=2, action_seed=0, config={"num_players": 4, "reward": "win", "episode": "deal"})
@given(
    seed=seeds,
    action_seed=seeds,
    config=config_strategy(max_hands=(1, 3, 60)),
)
def test_esel__rewards_zero_sum_and_match_the_reward_table(seed, action_seed, config):
    n = 16
    venv = cardenvs.make_vector(ENV_ID, n, seed=seed, autoreset=False, validate=False, **config)
    cfg, P = venv.config, venv.config.num_players
    rng = np.random.default_rng(action_seed)
    _, mask, _ = venv.reset()
    done = np.zeros(n, bool)
    final = np.full((n, P), np.nan)
    for _ in range(cfg.max_hands * hand_steps(config) + 2):
        if done.all():
            break
        _, mask, rewards, terminated, _, _ = venv.step(choose(mask, rng))
        assert rewards.shape == (n, P)
        assert np.abs(rewards.sum(axis=1)).max() < 1e-4, f"not zero-sum: {rewards}"
        new = terminated & ~done
        assert (rewards[~new] == 0).all(), "reward paid on a step that did not end the episode"
        final[new] = rewards[new]
        done |= terminated
    assert done.all()
    s = venv.state
    for b in range(n):
        check_game_end(s, b, cfg)
        expected = expected_rewards(s, b, cfg)
        assert np.allclose(final[b], expected, atol=1e-5), (
            f"row {b}: rewards {final[b]}, expected {expected} ({cfg.episode}/{cfg.reward})"
        )
        if cfg.episode == "game" and cfg.reward == "win":
            assert sorted(final[b].tolist()) in (
                [0.0] * P,
                sorted([1.0] + [np.float32(-1.0 / (P - 1)).item()] * (P - 1)),
            ), final[b]


@SETTINGS
@example(seed=4, action_seed=4, config={"num_players": 3, "reward": "win", "max_hands": 60})
@example(seed=5, action_seed=5, config={"num_players": 4, "reward": "score", "episode": "deal"})
@given(seed=seeds, action_seed=seeds, config=configs)
def test_esel__aec_rewards_zero_sum_and_paid_at_the_end(seed, action_seed, config):
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
    assert abs(sum(final.values())) < 1e-4, f"not zero-sum: {final}"
    cfg = C.Config(**config)
    P = cfg.num_players
    if cfg.episode == "game" and cfg.reward == "win":
        vals = sorted(final.values())
        assert vals == [0.0] * P or (vals[-1] == 1.0 and np.allclose(vals[:-1], -1.0 / (P - 1))), (
            final
        )
        w = env.unwrapped.record()["result"]["winner"]
        if w is not None:
            assert final[f"player_{w}"] == 1.0


# --- no hidden-information leak ----------------------------------------------------------------
def transpose(s, b: int, a: int, c: int) -> None:
    """Exchange unplayed cards ``a`` and ``c`` in row ``b``: in every hand and in the deck
    order (so who was dealt or drew which card is relabelled consistently)."""
    hand = L.field(s, "hand")
    for p in range(4):
        hand[b, p] = np.uint64(swap_bits(int(hand[b, p]), a, c))
    deck = L.field(s, "deck")
    ia = int(np.flatnonzero(deck[b] == a)[0])
    ic = int(np.flatnonzero(deck[b] == c)[0])
    deck[b, ia], deck[b, ic] = c, a


def pick_hidden_swap(s, P: int, b: int, seat: int, rng) -> tuple[str, int, int] | None:
    """Two cards whose places ``seat`` cannot know, with suit counts kept where they matter:
    two other players' hands (same suit), another player's hand and the undrawn stock (same
    suit), two stock cards (the stock order). During the trump choice nobody has seen his cards,
    so any two unplayed cards qualify, the seat's own included."""
    hand = row_masks(s, b, "hand")
    stock = int(undrawn_stock(s)[b])
    others = [p for p in range(P) if p != seat]
    kinds = []
    if int(L.field(s, "phase")[b]) == K.PHASE_TRUMP:
        unplayed = stock
        for p in range(P):
            unplayed |= hand[p]
        kinds.append(("trump phase", bits(unplayed), bits(unplayed), False))
    for i, o1 in enumerate(others):
        for o2 in others[i + 1 :]:
            kinds.append(("hand-hand", bits(hand[o1]), bits(hand[o2]), True))
        kinds.append(("hand-stock", bits(hand[o1]), bits(stock), True))
    kinds.append(("stock-stock", bits(stock), bits(stock), False))
    order = rng.permutation(len(kinds))
    for k in order.tolist():
        name, xs, ys, same_suit = kinds[k]
        pairs = [(x, y) for x in xs for y in ys if x != y and (not same_suit or x // 13 == y // 13)]
        if pairs:
            x, y = pairs[int(rng.integers(len(pairs)))]
            return name, x, y
    return None


def pick_own_swap(s, P: int, b: int, seat: int, rng) -> tuple[int, int] | None:
    """A card of ``seat``'s hand and an unplayed card it does not hold."""
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
    n, P = venv.num_envs, venv.config.num_players
    seats = np.full(n, seat, np.int64)
    before = venv.observe(seats)
    hidden = copy.deepcopy(venv.state)
    control = copy.deepcopy(venv.state)
    swaps: dict[int, list] = {}
    expect_move = np.zeros(n, bool)
    phase = L.field(venv.state, "phase")
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
    L.field(hidden, "key")[:] = rng.integers(0, 2**63, size=n, dtype=np.uint64)
    check_cards(hidden, P, "relabelled state: ")
    check_cards(control, P, "control state: ")
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


def check_own_blocks(venv, seat: int) -> None:
    """The hand block is the seat's own hand, empty during the trump choice; the played blocks
    are the played cards seat by seat from the observer clockwise."""
    P = venv.config.num_players
    view = venv.observe(seat)
    s = venv.state
    for b in range(venv.num_envs):
        hand_block = view[b, L.O_HAND : L.O_HAND + NUM_CARDS]
        if int(L.field(s, "phase")[b]) == K.PHASE_TRUMP:
            assert not hand_block.any(), f"row {b}: seat {seat} sees its cards before the deal"
            sizes = view[b, L.O_HAND_SIZE : L.O_HAND_SIZE + 4]
            assert not sizes.any(), f"row {b}: hand sizes shown during the trump choice"
        else:
            own = {local(c) for c in bits(int(L.field(s, "hand")[b, seat]))}
            assert set(np.flatnonzero(hand_block).tolist()) == own, f"row {b}: hand block"
        for k in range(4):
            block = view[b, L.O_PLAYED + NUM_CARDS * k : L.O_PLAYED + NUM_CARDS * (k + 1)]
            cards = (
                {local(c) for c in bits(int(L.field(s, "played")[b, (seat + k) % P]))}
                if k < P
                else set()
            )
            assert set(np.flatnonzero(block).tolist()) == cards, f"row {b}: played block {k}"


@SETTINGS
@example(seed=0, action_seed=0, config={"num_players": 4, "trump_option": 1})
@example(seed=1, action_seed=1, config={"num_players": 3, "trump_option": 1})
@example(seed=2, action_seed=2, config={"num_players": 2, "trump_option": 5})
@given(
    seed=seeds,
    action_seed=seeds,
    config=st.fixed_dictionaries(
        {
            "num_players": st.integers(2, 4),
            "trump_option": st.integers(1, 5),
            "trump_assignment": st.sampled_from(["choose", "random"]),
            "must_beat": st.booleans(),
        }
    ),
)
def test_esel__no_hidden_information_leak(seed, action_seed, config):
    n = 6
    P = C.Config(**config).num_players
    venv = cardenvs.make_vector(ENV_ID, n, seed=seed, **config)
    rng = np.random.default_rng(action_seed)
    _, mask, _ = venv.reset()
    tested: Counter = Counter()
    for _ in range(hand_steps(config) + trump_phase_steps(config) + 3):  # a hand and the next
        for seat in range(P):
            check_own_blocks(venv, seat)
            check_no_leak(venv, seat, rng, tested)
        _, mask, *_ = venv.step(choose(mask, rng))
    kinds = {k for _, k in tested}
    assert {"stock-stock", "hand-stock"} <= kinds, tested
    if P >= 3:
        assert "hand-hand" in kinds, tested
    phases = {ph for ph, _ in tested}
    assert {K.PHASE_DECLARE, K.PHASE_PLAY} <= phases, tested
    if trump_phase_steps(config):
        assert tested[(K.PHASE_TRUMP, "trump phase")] > 0, tested


def test_esel__leak_check_can_fail():
    """An observation that read another player's hand would be caught."""
    venv = cardenvs.make_vector(ENV_ID, 4, seed=11, num_players=3)
    venv.reset()
    rng = np.random.default_rng(0)
    real_observe = venv.observe

    def leaky_observe(seats):
        out = real_observe(seats)
        s = np.broadcast_to(np.asarray(seats), (venv.num_envs,))
        nxt = L.field(venv.state, "hand")[np.arange(venv.num_envs), (s + 1) % 3]
        out[:, -1] = (nxt % np.uint64(997)).astype(np.float32)
        return out

    venv.observe = leaky_observe
    with pytest.raises(AssertionError, match="information leak"):
        for _ in range(8):  # one swap could miss the leaked value; several cannot all miss
            check_no_leak(venv, 0, rng, Counter())


def test_esel__trump_choice_hides_every_hand_even_from_its_holder():
    env = cardenvs.make(ENV_ID, num_players=4)
    env.reset(seed=5)
    state = env.unwrapped._engine.state
    assert int(L.field(state, "phase")[0]) == K.PHASE_TRUMP
    for a in env.possible_agents:
        x = env.observe(a)["observation"]
        assert not x[L.O_HAND : L.O_HAND + NUM_CARDS].any()
        assert x[L.O_PHASE + K.PHASE_TRUMP] == 1.0
    # the hands are dealt already; once the trump choice is over every seat sees its own
    for _ in range(4):
        env.step(env.unwrapped.legal_actions()[0])
    assert int(L.field(state, "phase")[0]) == K.PHASE_DECLARE
    for seat, a in enumerate(env.possible_agents):
        x = env.observe(a)["observation"]
        own = {local(c) for c in bits(int(L.field(state, "hand")[0, seat]))}
        assert len(own) == HAND
        assert set(np.flatnonzero(x[L.O_HAND : L.O_HAND + NUM_CARDS]).tolist()) == own


# --- 3. vector engine == AEC env ---------------------------------------------------------------
# --- 4. the contract ---------------------------------------------------------------------------
def test_esel__action_names_as_documented():
    """The action table of the rules page (the round trip of every name in any spelling is the
    contract's, ``test_contract_aec.py``)."""
    names = [cardenvs.make(ENV_ID).unwrapped.action_name(a) for a in range(NUM_ACTIONS)]
    assert names[:36] == [f"play {c}" for c in CARD_STRINGS]
    assert names[36:] == ["go", "no", "trump S", "trump H", "trump D", "trump C"]
    assert (K.ACTION_GO, K.ACTION_NO, K.ACTION_TRUMP) == (36, 37, 38)


def random_record(seed: int, **config) -> dict:
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=seed)
    for _ in aec_walk(env, np.random.default_rng(seed)):
        pass
    return env.unwrapped.record()


RECORD_CONFIGS = [
    {"num_players": 2, "max_hands": 5},
    {"num_players": 3, "trump_option": 3, "next_dealer": "left"},
    {"num_players": 4, "trump_assignment": "random", "must_beat": True, "next_dealer": "same"},
    {"num_players": 4, "trump_option": 5, "episode": "deal", "reward": "score"},
    {"num_players": 3, "common_trumps": "HS", "trump_option": 4, "max_hands": 3},
]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize(
    "config", RECORD_CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items())
)
def test_esel__record_deals_follow_the_rules(seed, config):
    """What an Esel record holds beyond the contract's checks (``test_contract_aec.py``: JSON,
    fields, config, seed, replay, on these configs): the result, the number of hands, each
    hand's actions (the trump choice and the declarations from the dealer's left, then the 36
    cards) and the next dealer."""
    rec = random_record(seed, **config)
    cfg = C.Config(**config)
    P = cfg.num_players
    res = rec["result"]
    assert set(res) == {"winner", "banks", "hands"} and res["hands"] == len(rec["deals"])
    assert len(res["banks"]) == P
    if cfg.episode == "deal":
        assert len(rec["deals"]) == 1
    else:
        assert min(3, cfg.max_hands) <= len(rec["deals"]) <= cfg.max_hands
    per_hand = hand_steps(config)
    for i, deal in enumerate(rec["deals"]):
        assert {"deck", "dealer", "actions", "points"} <= set(deal)
        assert sorted(deal["deck"]) == sorted(CARD_STRINGS)
        assert 0 <= deal["dealer"] < P
        assert len(deal["points"]) == P
        assert len(deal["actions"]) == per_hand
        plays = [(seat, name) for seat, name in deal["actions"] if name.startswith("play ")]
        assert sorted(name[5:] for _, name in plays) == sorted(CARD_STRINGS)
        # trumps and declarations go clockwise from the dealer's left
        for j, (seat, _) in enumerate(deal["actions"][: per_hand - NUM_CARDS]):
            assert seat == (deal["dealer"] + 1 + j) % P
        if i:
            prev = rec["deals"][i - 1]
            first_leader = next(s for s, n in prev["actions"] if n.startswith("play "))
            expected = {
                "first_leader": first_leader,
                "left": (prev["dealer"] + 1) % P,
                "same": prev["dealer"],
            }[cfg.next_dealer]
            assert deal["dealer"] == expected, f"deal {i}: dealer"


@pytest.mark.parametrize(("num_players", "dealer"), [(2, 1), (3, 2), (4, 3), (4, 0)])
def test_esel__deck_and_dealer_options_fix_the_first_deal(num_players, dealer):
    deck = [str(c) for c in np.random.default_rng(dealer).permutation(CARD_STRINGS)]
    env = cardenvs.make(ENV_ID, num_players=num_players, trump_option=2)
    env.reset(seed=11, options={"deck": deck, "dealer": dealer})
    first = env.unwrapped.record()["deals"][0]
    assert first["deck"] == deck and first["dealer"] == dealer
    left = (dealer + 1) % num_players
    assert env.agent_selection == f"player_{left}"  # declarations from the dealer's left
    state = env.unwrapped._engine.state
    core = env.unwrapped
    for i in range(num_players):
        seat = (dealer + 1 + i) % num_players
        cards = {core.action_id(f"play {c}") for c in deck[HAND * i : HAND * (i + 1)]}
        obs = env.observe(f"player_{seat}")["observation"]
        assert set(np.flatnonzero(obs[L.O_HAND : L.O_HAND + NUM_CARDS]).tolist()) == cards
    assert int(L.field(state, "stock_pos")[0]) == HAND * num_players
    for _ in range(num_players):
        env.step(K.ACTION_NO)
    # the leader may lead any of his four cards
    leader = core.agent_name_mapping[env.agent_selection]
    i = (leader - dealer - 1) % num_players
    assert set(core.legal_actions()) == {
        core.action_id(f"play {c}") for c in deck[HAND * i : HAND * (i + 1)]
    }
