"""Checks shared by the tests of the two multi-seat Piquet ids (``games.piquet.multi``):
card conservation, random-play properties and the hidden-information leak check."""

from __future__ import annotations

import copy

import numpy as np
from harness import bits, choose, obs_block_name, observe_state

import cardenvs
from cardenvs.games.piquet.multi import constants as MK
from cardenvs.games.piquet.multi import layout as ML

SUITS = "SHDC"
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
CARDS = [f"{r}{s}" for s in SUITS for r in RANKS]  # card index order
ALL32 = sum(1 << (s * 13 + 5 + r) for s in range(4) for r in range(8))


def card_of(text: str) -> int:
    """Global card id of a card string."""
    return SUITS.index(text[-1]) * 13 + RANKS.index(text[:-1]) + 5


def local(text: str) -> int:
    """Piquet card index (suit * 8 + rank - 7) of a card string."""
    return SUITS.index(text[-1]) * 8 + RANKS.index(text[:-1])


def mask(cards: str) -> int:
    return sum(1 << card_of(c) for c in cards.split())


def names(m: int) -> set[str]:
    return {CARDS[(c // 13) * 8 + c % 13 - 5] for c in bits(int(m))}


def deck_for(hands: list[str], talon: str = "") -> list[str]:
    """A deck order: the hands in seat order from the dealer's left, then the talon."""
    order = " ".join(hands + [talon]).split()
    assert sorted(order) == sorted(CARDS), "the test deck must hold the 32 cards once"
    return order


def block(obs: np.ndarray, p: int, name: str) -> np.ndarray:
    """Block ``name`` of a ``p``-seat observation."""
    off = 0
    for f in ML.OBS_LAYOUTS[p]:
        if f.name == name:
            return obs[..., off : off + f.size]
        off += f.size
    raise KeyError(name)


def check_cards(s, p: int, hand_size: int, where: str = "") -> None:
    """Every row holds the 32 cards once: hands, played cards, the dealer's discards, the talon
    cards not taken and the dead packets of players who are out."""
    f = ML.field
    for b in range(s.m.shape[0]):
        deck = [int(c) for c in f(s, "deck")[b]]
        assert sorted(deck) == sorted(bits(ALL32)), f"{where}row {b}: deck {deck}"
        dealer = int(f(s, "dealer")[b])
        parts = [int(x) for x in f(s, "hand")[b, :p]] + [int(x) for x in f(s, "played")[b, :p]]
        parts.append(int(f(s, "discards")[b]))
        top = p * hand_size
        taken = int(f(s, "talon_pos")[b])
        phase = int(f(s, "phase")[b])
        if phase == MK.PHASE_EXCHANGE:
            taken = 0
        parts.append(sum(1 << c for c in deck[top + taken :]))
        deal_no = int(f(s, "deal_no")[b])
        for k in range(p):
            seat = (dealer + 1 + k) % p
            if 0 < int(f(s, "finished")[b, seat]) <= deal_no:  # out before this deal
                parts.append(sum(1 << c for c in deck[k * hand_size : (k + 1) * hand_size]))
        union = 0
        for x in parts:
            assert not union & x, f"{where}row {b}: a card is in two places"
            union |= x
        assert union == ALL32, f"{where}row {b}: cards missing {names(ALL32 & ~union)}"
        assert not f(s, "hand")[b, p:].any(), f"{where}row {b}: cards beyond seat {p - 1}"


def hidden_from(s, b: int, seat: int, p: int) -> int:
    """Cards whose place ``seat`` cannot know: everything but his hand (and, as the dealer, his
    discards and the talon cards he saw), the played and the shown cards."""
    f = ML.field
    known = int(f(s, "hand")[b, seat])
    if int(f(s, "dealer")[b]) == seat:
        known |= int(f(s, "discards")[b]) | int(f(s, "seen")[b])
    for t in range(p):
        known |= int(f(s, "played")[b, t]) | int(f(s, "shown")[b, t])
    return ALL32 & ~known


def relabel(s, b: int, a: int, c: int) -> None:
    """Exchange cards ``a`` and ``c`` everywhere in row ``b`` (every card set and the deck)."""
    for name in ("hand", "dealt", "shown", "played", "discards", "seen", "table"):
        arr = ML.field(s, name)
        row = arr[b] if arr.ndim == 2 else arr[b : b + 1]
        for i in range(row.shape[0]):
            m = int(row[i])
            if ((m >> a) & 1) != ((m >> c) & 1):
                row[i] = np.uint64(m ^ ((1 << a) | (1 << c)))
    deck = ML.field(s, "deck")
    ia = int(np.flatnonzero(deck[b] == a)[0])
    ic = int(np.flatnonzero(deck[b] == c)[0])
    deck[b, ia], deck[b, ic] = c, a


def check_no_leak(venv, seat: int, rng, hand_size: int) -> int:
    """Relabel two hidden cards in every row (where there are two): ``seat``'s observation
    must not move; returns how many rows were tested."""
    p = venv.num_seats
    n = venv.num_envs
    seats = np.full(n, seat, np.int64)
    before = venv.observe(seats)
    hidden = copy.deepcopy(venv.state)
    tested = 0
    for b in range(n):
        cand = bits(hidden_from(hidden, b, seat, p))
        if len(cand) >= 2:
            a, c = rng.choice(cand, size=2, replace=False).tolist()
            relabel(hidden, b, a, c)
            tested += 1
    ML.field(hidden, "key")[:] = rng.integers(0, 2**63, size=n, dtype=np.uint64)
    check_cards(hidden, p, hand_size, "relabelled state: ")
    after = observe_state(venv, hidden, seats)
    diff = np.flatnonzero((after != before).any(axis=1))
    if diff.size:
        b = int(diff[0])
        idx = np.flatnonzero(after[b] != before[b])
        raise AssertionError(
            f"information leak: seat {seat}, row {b}: relabelling hidden cards changed "
            f"{[obs_block_name(ML.OBS_LAYOUTS[p], i) for i in idx]}"
        )
    return tested


def random_play_properties(env_id: str, seed: int, n: int = 6, leak_every: int = 5, **config):
    """Random legal play of ``n`` whole games on the batched engine, checking at every step:
    cards conserved, a non-empty mask exactly while a game runs, observations inside their
    space, rewards zero at every step but the last, zero-sum and equal for partners at the end,
    episodes bounded; and every ``leak_every`` steps the leak check for every seat."""
    venv = cardenvs.make_vector(env_id, n, seed=seed, autoreset=False, validate=False, **config)
    p, h = venv.num_seats, MK.PARTNERSHIP_HAND if p_is_4(venv) else MK.NORMAND_HAND
    space = venv.single_observation_space
    obs, mask, _ = venv.reset()
    rng = np.random.default_rng(seed)
    done = np.zeros(n, bool)
    steps = np.zeros(n, int)
    totals = np.zeros((n, p))
    leak_rows = 0
    # a deal is at most 2 discards + one card per player per trick; the deals are bounded
    bound = MK.MAX_DEALS * (2 + 32)
    for t in range(bound):
        live = ~done
        assert (mask[live].sum(axis=1) > 0).all(), "a running game has no legal action"
        assert (mask[done].sum(axis=1) == 0).all()
        for b in np.flatnonzero(live):
            assert space.contains(obs[b]), f"row {b}: observation outside its space"
        if t % leak_every == 0:
            for seat in range(p):
                leak_rows += check_no_leak(venv, seat, rng, h)
        obs, mask, rewards, terminated, truncated, _ = venv.step(choose(mask, rng))
        steps[live] += 1
        check_cards(venv.state, p, h)
        assert not truncated.any()
        new = terminated & ~done
        assert (rewards[~new] == 0).all()
        for b in np.flatnonzero(new):
            assert abs(rewards[b].sum()) < 1e-4, rewards[b]
            if p == 4:
                assert rewards[b, 0] == rewards[b, 2] and rewards[b, 1] == rewards[b, 3]
            totals[b] = rewards[b]
        done |= terminated
        if done.all():
            break
    assert done.all(), "some games never ended"
    assert leak_rows > 0
    return totals, steps


def p_is_4(venv) -> bool:
    return venv.num_seats == 4
