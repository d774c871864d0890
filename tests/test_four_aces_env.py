"""Four Aces (``four_aces-v0``): what its environment checks hold beyond the contract suite
(PettingZoo api/seed tests, registry, vector == AEC, autoreset, bad actions, action names, reset
options, config errors, records and replays: ``test_contract_aec.py``, ``test_contract_vector.py``).

1. hypothesis properties over random legal play: cards conserved, hand sizes between turns,
   masks non-empty exactly while the game runs (and as the rules say in each phase),
   observations inside their space, rewards zero-sum, no hidden-information leak (spec 3-4, 8:
   exposed hands, the discard pile in order, the stock size, each hidden-hand size, limits,
   jokers played and totals are public; each hidden hand and the stock order are private);
2. the action table, deals from fixed decks (jokers included), what a record's rounds hold.

State fields are reached with ``rules.field(state, name)`` (a writable view over all rows).
Card masks are ``uint64`` with global ids ``suit * 13 + rank``; the jokers (52, 53) are never in
the masks: the jokers a seat holds are the field ``jokers_held``.
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
)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import cardenvs
from cardenvs.games.four_aces import config as C
from cardenvs.games.four_aces import constants as K
from cardenvs.games.four_aces import layout as L

ENV_ID = "four_aces-v0"
NUM_ACTIONS = 55
ALL52 = (1 << 52) - 1
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
CARD_STRINGS = [f"{r}{s}" for s in "SHDC" for r in RANKS]
DECK54 = CARD_STRINGS + ["JK", "JK"]

SETTINGS = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
seeds = st.integers(min_value=0, max_value=2**31 - 1)
configs = st.fixed_dictionaries(
    {
        "num_players": st.integers(3, 5),
        "joker_target_effect": st.sampled_from(["none", "skip"]),
        "allow_discard_draw": st.booleans(),
        "run_mode": st.sampled_from(["additive", "replace"]),
        "episode": st.sampled_from(["game", "deal"]),
        "reward": st.sampled_from(["win", "score"]),
        "max_rounds": st.sampled_from([1, 2]),
    }
)


# --- helpers -----------------------------------------------------------------------------------
def obs_block(i: int) -> str:
    return obs_block_name(L.OBS_LAYOUT, i)


aec_envs = functools.partial(harness.aec_envs, ENV_ID)


def row_masks(s, b: int, name: str) -> list[int]:
    return [int(x) for x in L.field(s, name)[b]]


def undrawn(s, b: int) -> list[int]:
    """The deck entries not drawn yet in row ``b`` (jokers included), from the top."""
    pos = int(L.field(s, "stock_pos")[b])
    return [int(c) for c in L.field(s, "deck")[b, pos:54]]


def check_cards(s, P: int, where: str = "") -> None:
    """Cards are conserved in every row of state ``s``; hand sizes fit the phase."""
    for b in range(L.field(s, "deck").shape[0]):
        deck = sorted(int(c) for c in L.field(s, "deck")[b])
        assert deck == list(range(54)), f"{where}row {b}: deck is not the 54 cards: {deck}"
        hidden, exposed = row_masks(s, b, "hidden"), row_masks(s, b, "exposed")
        assert not any(hidden[P:]) and not any(exposed[P:]), f"{where}row {b}: seat beyond P"
        n = int(L.field(s, "pile_n")[b])
        pile = [int(c) for c in L.field(s, "pile")[b, :n]]
        # the kept pile positions (read by the observation) agree with the pile itself
        want = [0] * 52
        for i, c in enumerate(pile):
            want[c] = i + 1
        got = [int(x) for x in L.field(s, "pile_pos")[b]]
        assert got == want, f"{where}row {b}: pile_pos {got} disagrees with the pile {pile}"
        stock = undrawn(s, b)
        parts = hidden[:P] + exposed[:P] + [sum(1 << c for c in pile)]
        parts.append(sum(1 << c for c in stock if c < 52))
        union, size = 0, 0
        for m in parts:
            assert m >> 52 == 0, f"{where}row {b}: a joker bit in a mask {m:#x}"
            union |= m
            size += bin(m).count("1")
        assert len(set(pile)) == len(pile), f"{where}row {b}: pile repeats a card {pile}"
        assert union == ALL52 and size == 52, (
            f"{where}row {b}: cards not conserved: union {union:#x}, {size} cards"
        )
        held = [int(x) for x in L.field(s, "jokers_held")[b, :P]]
        played = [int(x) for x in L.field(s, "jokers_played")[b, :P]]
        in_stock = sum(c >= 52 for c in stock)
        assert min(held + played) >= 0, f"{where}row {b}: negative jokers {held} {played}"
        assert sum(held) + sum(played) + in_stock == 2, (
            f"{where}row {b}: jokers held {held} + played {played} + stock {in_stock} != 2"
        )
        phase = int(L.field(s, "phase")[b])
        if phase == K.PHASE_OVER:
            continue
        limit = [int(x) for x in L.field(s, "limit")[b, :P]]
        cur = int(L.field(s, "current")[b])
        for p in range(P):
            assert 3 <= limit[p] <= 5, f"{where}row {b}: seat {p} limit {limit[p]}"
            assert limit[p] == 3 + held[p] + played[p], (
                f"{where}row {b}: seat {p} limit {limit[p]}, jokers {held[p]} + {played[p]}"
            )
            extra_h = int(p == cur and phase == K.PHASE_REDUCE_HIDDEN)
            extra_e = int(p == cur and phase == K.PHASE_REDUCE_EXPOSED)
            nh = bin(hidden[p]).count("1") + held[p]
            ne = bin(exposed[p]).count("1")
            assert nh == limit[p] + extra_h, (
                f"{where}row {b}: seat {p} holds {nh} hidden items, limit {limit[p]} "
                f"({K.PHASE_NAMES[phase]})"
            )
            assert ne == 3 + extra_e, f"{where}row {b}: seat {p} exposes {ne} cards"


def aec_walk(env, rng, max_iter=200_000):
    """Play one AEC episode with random legal actions; yield ``(agent, obs, reward, done)``."""
    for agent in env.agent_iter(max_iter=max_iter):
        obs, reward, term, trunc, _ = env.last()
        done = term or trunc
        yield agent, obs, reward, done
        env.step(None if done else int(choose(obs["action_mask"][None, :], rng)[0]))


def observe_state(venv, s, seats) -> np.ndarray:
    own = venv.state
    venv.state = s
    try:
        return venv.observe(seats)
    finally:
        venv.state = own


# --- 1. PettingZoo conformance -----------------------------------------------------------------
# --- 2. hypothesis properties ------------------------------------------------------------------
@SETTINGS
@example(seed=0, action_seed=0, config={"num_players": 5, "joker_target_effect": "skip"})
@example(seed=1, action_seed=2, config={"num_players": 3, "allow_discard_draw": False})
@given(seed=seeds, action_seed=seeds, config=configs)
def test_four_aces__cards_conserved_at_every_step(seed, action_seed, config):
    P = C.Config(**config).num_players
    venv = cardenvs.make_vector(ENV_ID, 6, seed=seed, **config)
    rng = np.random.default_rng(action_seed)
    _, mask, _ = venv.reset()
    check_cards(venv.state, P, "after reset: ")
    for t in range(250):  # more than a round in most rows (autoreset included)
        _, mask, *_ = venv.step(choose(mask, rng))
        check_cards(venv.state, P, f"step {t}: ")


def test_four_aces__cards_check_can_fail():
    venv = cardenvs.make_vector(ENV_ID, 2, seed=3, num_players=3)
    venv.reset()
    check_cards(venv.state, 3)
    hidden = L.field(venv.state, "hidden")
    hidden[1, 0] = hidden[1, 0] | hidden[1, 1]  # one card in two hands
    with pytest.raises(AssertionError, match="row 1"):
        check_cards(venv.state, 3)
    venv.reset()
    L.field(venv.state, "jokers_held")[0, 2] = 1  # a third joker
    with pytest.raises(AssertionError, match="row 0"):
        check_cards(venv.state, 3)


@SETTINGS
@example(seed=0, action_seed=0, config={"num_players": 4, "max_rounds": 1})
@given(seed=seeds, action_seed=seeds, config=configs)
def test_four_aces__aec_mask_nonempty_until_the_end_then_empty(seed, action_seed, config):
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=seed)
    core = env.unwrapped
    state = core._engine.state
    rng = np.random.default_rng(action_seed)
    live = 0
    for agent, obs, _, done in aec_walk(env, rng):
        if done:
            for a in env.possible_agents:
                assert not env.observe(a)["action_mask"].any(), f"{a}: mask after the end"
            continue
        live += 1
        legal = set(np.flatnonzero(obs["action_mask"]).tolist())
        assert legal, f"{agent}: empty action mask before the end (step {live})"
        assert legal == set(core.legal_actions())
        for a in env.possible_agents:
            if a != agent:
                assert not env.observe(a)["action_mask"].any(), f"{a} may act out of turn"
        seat = core.agent_name_mapping[agent]
        assert int(L.field(state, "current")[0]) == seat
        phase = int(L.field(state, "phase")[0])
        if phase == K.PHASE_DRAW:
            pile = int(L.field(state, "pile_n")[0]) > 0 and core.config.allow_discard_draw
            assert legal == ({0, 1} if pile else {0})
        elif phase == K.PHASE_REDUCE_HIDDEN:
            hidden = {K.ACTION_DISCARD + c for c in bits(int(L.field(state, "hidden")[0, seat]))}
            joker = {K.ACTION_JOKER} if L.field(state, "jokers_held")[0, seat] > 0 else set()
            assert legal == hidden | joker
        else:
            assert phase == K.PHASE_REDUCE_EXPOSED
            drawn = int(L.field(state, "drawn")[0])
            exposed = bits(int(L.field(state, "exposed")[0, seat]))
            assert drawn in exposed
            assert legal == {K.ACTION_DISCARD + c for c in exposed if c != drawn}
    assert not env.agents, "the episode did not end"
    assert live > 0


@SETTINGS
@given(seed=seeds, action_seed=seeds, config=configs)
def test_four_aces__vector_mask_nonempty_exactly_while_live(seed, action_seed, config):
    n = 6
    venv = cardenvs.make_vector(ENV_ID, n, seed=seed, autoreset=False, validate=False, **config)
    rng = np.random.default_rng(action_seed)
    _, mask, _ = venv.reset()
    done = np.zeros(n, bool)
    for _ in range(100_000):
        live = L.field(venv.state, "phase") != K.PHASE_OVER
        assert (live == ~done).all()
        assert (mask.any(axis=1) == live).all(), f"rows {np.flatnonzero(mask.any(1) != live)}"
        assert ((L.field(venv.state, "current") >= 0) == live).all()
        if done.all():
            break
        _, mask, _, terminated, _, _ = venv.step(choose(mask, rng))
        done |= terminated
    assert done.all()
    rounds = L.field(venv.state, "deal_no").astype(np.int64) + 1
    assert (rounds <= (1 if config["episode"] == "deal" else config["max_rounds"])).all()


@SETTINGS
@example(seed=0, action_seed=0, config={"num_players": 5, "max_rounds": 1})
@given(seed=seeds, action_seed=seeds, config=configs)
def test_four_aces__observations_inside_their_space(seed, action_seed, config):
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(action_seed)
    P = C.Config(**config).num_players
    for i, _ in enumerate(aec_walk(env, rng)):
        if i % 3:
            continue
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
            assert space["action_mask"].contains(m)
            assert x[L.O_SEATS : L.O_SEATS + 5].tolist() == [1.0] * P + [0.0] * (5 - P)


@SETTINGS
@example(seed=2, action_seed=0, config={"num_players": 3, "reward": "score", "episode": "deal"})
@example(seed=2, action_seed=0, config={"num_players": 5, "reward": "win", "max_rounds": 2})
@example(  # a four-aces win under "score" (row 1)
    seed=1761,
    action_seed=100,
    config={"num_players": 4, "reward": "score", "allow_discard_draw": False, "max_rounds": 1},
)
@given(seed=seeds, action_seed=seeds, config=configs)
def test_four_aces__rewards_zero_sum_and_match_the_reward_table(seed, action_seed, config):
    n = 8
    venv = cardenvs.make_vector(ENV_ID, n, seed=seed, autoreset=False, validate=False, **config)
    cfg, P = venv.config, venv.config.num_players
    rng = np.random.default_rng(action_seed)
    _, mask, _ = venv.reset()
    done = np.zeros(n, bool)
    final = np.full((n, P), np.nan)
    for _ in range(100_000):
        if done.all():
            break
        _, mask, rewards, terminated, _, _ = venv.step(choose(mask, rng))
        assert np.abs(rewards.sum(axis=1)).max() < 1e-4, f"not zero-sum: {rewards}"
        new = terminated & ~done
        assert (rewards[~new] == 0).all(), "reward paid on a step that did not end the episode"
        final[new] = rewards[new]
        done |= terminated
    assert done.all()
    s = venv.state
    for b in range(n):
        totals = [int(x) for x in L.field(s, "total")[b, :P]]
        last = [int(x) for x in L.field(s, "last_points")[b, :P]]
        winners = [int(x) for x in L.field(s, "winners")[b, :P]]
        w = int(L.field(s, "winner")[b])
        aces = int(K.ACES)
        hands = (int(L.field(s, "hidden")[b, w]), int(L.field(s, "exposed")[b, w]))
        if cfg.reward == "score" and w >= 0 and any(h & aces == aces for h in hands):
            # four aces in one hand end the game before any scoring: +target against the others'
            # shared -target (the rules page, section 8)
            expected = [cfg.target if p == w else -cfg.target / (P - 1) for p in range(P)]
        elif cfg.reward == "score":
            src = last if cfg.episode == "deal" else totals
            expected = [v - np.mean(src) for v in src]
        else:
            k = sum(winners)
            expected = [0.0] * P if k in (0, P) else [1 / k if w else -1 / (P - k) for w in winners]
        assert np.allclose(final[b], expected, atol=1e-4), (b, final[b], expected, totals)


# --- no hidden-information leak ----------------------------------------------------------------
def swap_cards(s, b: int, a: int, c: int) -> None:
    """Exchange cards ``a`` and ``c`` in row ``b``: in every hidden hand and the deck order."""
    hidden = L.field(s, "hidden")
    for p in range(5):
        m = int(hidden[b, p])
        if ((m >> a) & 1) != ((m >> c) & 1):
            hidden[b, p] = np.uint64(m ^ ((1 << a) | (1 << c)))
    deck = L.field(s, "deck")
    ia = int(np.flatnonzero(deck[b] == a)[0])
    ic = int(np.flatnonzero(deck[b] == c)[0])
    deck[b, ia], deck[b, ic] = c, a


def pick_hidden_swap(s, P: int, b: int, seat: int, rng):
    """Two cards whose places ``seat`` cannot know: two other hidden hands, another hidden hand
    and the undrawn stock, or two undrawn stock entries (jokers included: the stock order)."""
    hidden = row_masks(s, b, "hidden")
    stock = undrawn(s, b)
    others = [p for p in range(P) if p != seat]
    kinds = []
    for i, o1 in enumerate(others):
        for o2 in others[i + 1 :]:
            kinds.append(("hidden-hidden", bits(hidden[o1]), bits(hidden[o2])))
        kinds.append(("hidden-stock", bits(hidden[o1]), [c for c in stock if c < 52]))
    kinds.append(("stock-stock", stock, stock))
    for k in rng.permutation(len(kinds)).tolist():
        name, xs, ys = kinds[k]
        pairs = [(x, y) for x in xs for y in ys if x != y]
        if pairs:
            x, y = pairs[int(rng.integers(len(pairs)))]
            return name, x, y
    return None


def check_no_leak(venv, seat: int, rng, tested: Counter) -> None:
    """Relabel hidden cards in every row: ``seat``'s observation must not move. Then exchange a
    card of its own hidden hand with another seat's hidden card: it must move."""
    n, P = venv.num_envs, venv.config.num_players
    seats = np.full(n, seat, np.int64)
    before = venv.observe(seats)
    hidden = copy.deepcopy(venv.state)
    control = copy.deepcopy(venv.state)
    swaps: dict[int, list] = {}
    live = L.field(venv.state, "phase") != K.PHASE_OVER
    for b in range(n):
        for _ in range(2):
            pick = pick_hidden_swap(hidden, P, b, seat, rng)
            if pick is not None:
                swap_cards(hidden, b, pick[1], pick[2])
                swaps.setdefault(b, []).append(pick)
                tested[pick[0]] += 1
        mine = bits(int(L.field(control, "hidden")[b, seat]))
        other = bits(int(L.field(control, "hidden")[b, (seat + 1) % P]))
        swap_cards(control, b, int(rng.choice(mine)), int(rng.choice(other)))
    L.field(hidden, "key")[:] = rng.integers(0, 2**63, size=n, dtype=np.uint64)
    check_cards(hidden, P, "relabelled state: ")
    after = observe_state(venv, hidden, seats)
    diff = np.flatnonzero((after != before).any(axis=1))
    if diff.size:
        b = int(diff[0])
        idx = np.flatnonzero(after[b] != before[b])
        raise AssertionError(
            f"information leak: seat {seat}, row {b}: exchanging hidden cards {swaps.get(b)} "
            f"changed {[obs_block(i) for i in idx]} from {before[b, idx]} to {after[b, idx]}"
        )
    moved = (observe_state(venv, control, seats) != before).any(axis=1)
    assert moved[live].all(), f"seat {seat}: rows {np.flatnonzero(live & ~moved)} ignore own hand"


@SETTINGS
@example(seed=0, action_seed=0, config={"num_players": 3, "joker_target_effect": "skip"})
@example(seed=1, action_seed=1, config={"num_players": 5, "allow_discard_draw": False})
@given(
    seed=seeds,
    action_seed=seeds,
    config=st.fixed_dictionaries(
        {
            "num_players": st.integers(3, 5),
            "joker_target_effect": st.sampled_from(["none", "skip"]),
            "allow_discard_draw": st.booleans(),
        }
    ),
)
def test_four_aces__no_hidden_information_leak(seed, action_seed, config):
    n = 4
    P = config["num_players"]
    venv = cardenvs.make_vector(ENV_ID, n, seed=seed, **config)
    rng = np.random.default_rng(action_seed)
    _, mask, _ = venv.reset()
    tested: Counter = Counter()
    for t in range(60):
        if t % 2 == 0:
            for seat in range(P):
                view = venv.observe(seat)
                for b in range(n):
                    own = bits(int(L.field(venv.state, "hidden")[b, seat]))
                    got = np.flatnonzero(view[b, L.O_HIDDEN : L.O_HIDDEN + 52]).tolist()
                    assert got == own, f"row {b}, seat {seat}: hidden block {got} != {own}"
                check_no_leak(venv, seat, rng, tested)
        _, mask, *_ = venv.step(choose(mask, rng))
    assert {"hidden-hidden", "hidden-stock", "stock-stock"} <= set(tested), tested


def test_four_aces__leak_check_can_fail():
    """An observation that read another player's hidden hand would be caught."""
    venv = cardenvs.make_vector(ENV_ID, 4, seed=11, num_players=3)
    venv.reset()
    rng = np.random.default_rng(0)
    real_observe = venv.observe

    def leaky_observe(seats):
        out = real_observe(seats)
        s = np.broadcast_to(np.asarray(seats), (venv.num_envs,))
        nxt = L.field(venv.state, "hidden")[np.arange(venv.num_envs), (s + 1) % 3]
        out[:, -1] = (nxt % np.uint64(997)).astype(np.float32)
        return out

    venv.observe = leaky_observe
    with pytest.raises(AssertionError, match="information leak"):
        for _ in range(8):
            check_no_leak(venv, 0, rng, Counter())


def test_four_aces__public_information_is_observed():
    """Exposed hands, the pile in order and its top, hidden sizes and the stock size are shown."""
    venv = cardenvs.make_vector(ENV_ID, 3, seed=5, num_players=4, joker_target_effect="skip")
    _, mask, _ = venv.reset()
    rng = np.random.default_rng(2)
    for _ in range(40):
        _, mask, *_ = venv.step(choose(mask, rng))
    s = venv.state
    for seat in range(4):
        view = venv.observe(seat)
        for b in range(3):
            x = view[b]
            for k in range(4):
                p = (seat + k) % 4
                block = x[L.O_EXPOSED + 52 * k : L.O_EXPOSED + 52 * (k + 1)]
                assert np.flatnonzero(block).tolist() == bits(int(L.field(s, "exposed")[b, p]))
                size = bin(int(L.field(s, "hidden")[b, p])).count("1")
                size += int(L.field(s, "jokers_held")[b, p])
                assert x[L.O_HIDDEN_SIZE + k] == pytest.approx(size / 5)
            n = int(L.field(s, "pile_n")[b])
            pile = [int(c) for c in L.field(s, "pile")[b, :n]]
            assert n > 0
            order = x[L.O_PILE : L.O_PILE + 52]
            assert [int(c) for c in np.argsort(order)[-n:]] == pile
            assert np.flatnonzero(x[L.O_PILE_TOP : L.O_PILE_TOP + 52]).tolist() == [pile[-1]]
            assert x[L.O_STOCK] == pytest.approx(len(undrawn(s, b)) / 54)


# --- 3. vector engine == AEC env ---------------------------------------------------------------
# --- 4. the contract ---------------------------------------------------------------------------
def test_four_aces__action_names_as_documented():
    """The action table of the rules page (the round trip of every name in any spelling is the
    contract's, ``test_contract_aec.py``)."""
    names = [cardenvs.make(ENV_ID).unwrapped.action_name(a) for a in range(NUM_ACTIONS)]
    assert names[:2] == ["draw stock", "draw discard"]
    assert names[2:54] == [f"discard {c}" for c in CARD_STRINGS]
    assert names[54] == "joker"


def random_record(seed: int, options=None, **config) -> dict:
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=seed, options=options)
    for _ in aec_walk(env, np.random.default_rng(seed)):
        pass
    return env.unwrapped.record()


RECORD_CONFIGS = [
    {"num_players": 3, "max_rounds": 2},
    {"num_players": 5, "joker_target_effect": "skip", "max_rounds": 2},
    {"num_players": 4, "allow_discard_draw": False, "run_mode": "replace", "max_rounds": 1},
    {"num_players": 4, "episode": "deal", "reward": "score"},
]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize(
    "config", RECORD_CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items())
)
def test_four_aces__record_rounds_follow_the_rules(seed, config):
    """What a Four Aces record holds beyond the contract's checks (``test_contract_aec.py``:
    JSON, fields, config, seed, deck, replay, on these configs): the rounds, and each round
    started by the dealer's left."""
    rec = random_record(seed, **config)
    cfg = C.Config(**config)
    P = cfg.num_players
    assert rec["result"]["rounds"] == len(rec["deals"])
    assert len(rec["deals"]) <= (1 if cfg.episode == "deal" else cfg.max_rounds)
    for deal in rec["deals"]:
        assert sorted(deal["deck"]) == sorted(DECK54)
        assert 0 <= deal["dealer"] < P and len(deal["points"]) == P
        assert deal["actions"][0][0] == (deal["dealer"] + 1) % P  # the dealer's left starts


@pytest.mark.parametrize("joker_at", [[0, 5], [40, 53], [2, 50]], ids=["dealt", "stock", "mix"])
def test_four_aces__deck_with_two_jokers_replays(joker_at):
    rest = [str(c) for c in np.random.default_rng(sum(joker_at)).permutation(CARD_STRINGS)]
    deck = list(rest)
    for i in joker_at:
        deck.insert(i, "JK")
    assert len(deck) == 54
    rec = random_record(3, options={"deck": deck, "dealer": 1}, num_players=4, max_rounds=1)
    first = rec["deals"][0]
    assert first["dealer"] == 1 and first["deck"].count("JK") == 2
    # the natural cards are dealt in the given order; dealt jokers are set aside into the stock
    assert [c for c in first["deck"] if c != "JK"] == rest
    if min(joker_at) >= 24:
        assert first["deck"] == deck
    else:
        assert "JK" not in first["deck"][:24]
    assert cardenvs.replay(rec) == rec


@pytest.mark.parametrize(("num_players", "dealer"), [(3, 2), (4, 0), (5, 4)])
def test_four_aces__deck_and_dealer_options_fix_the_first_deal(num_players, dealer):
    deck = [str(c) for c in np.random.default_rng(dealer).permutation(CARD_STRINGS)] + ["JK"] * 2
    env = cardenvs.make(ENV_ID, num_players=num_players)
    env.reset(seed=11, options={"deck": deck, "dealer": dealer})
    assert env.unwrapped.record()["deals"][0]["deck"] == deck
    assert env.agent_selection == f"player_{(dealer + 1) % num_players}"
    state = env.unwrapped._engine.state
    for i in range(num_players):
        seat = (dealer + 1 + i) % num_players
        ids = [CARD_STRINGS.index(c) for c in deck[6 * i : 6 * i + 6]]
        assert bits(int(L.field(state, "hidden")[0, seat])) == sorted(ids[:3])
        assert bits(int(L.field(state, "exposed")[0, seat])) == sorted(ids[3:])
    assert int(L.field(state, "stock_pos")[0]) == 6 * num_players
