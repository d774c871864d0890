"""Four Aces (Vier Asse, by Jeff Ferraro): the rule kernels over batched NumPy state: dealing,
rounds and the game's end, legal actions, applying an action, rewards. The hand scorer is in
``scoring.py``.

Rules: ``docs/games/four_aces.md``, the project's rules page (ruleset R, sections 2–8). The
comments below cite its sections ("5.3") and its choices ("A13"); "the spec" is that page.

Choices where the spec leaves things open
-----------------------------------------
- The four-aces call is automatic, on the hand that just received a card (4 step 2; 6).
- Rewards are zero-sum; an exact tie of everybody is a draw (0) (8, "Episodes and rewards").
- ``run_mode="replace"``: a suit forming one single run scores only that run (5.5, A12).
- ``pair_value=-1``: a rank group of exactly two in no bigger combination costs −1 (5.5, A13).
- ``run2_value=-1``: a maximal run of exactly two costs −1; a 7-run then scores 14 (5.4, 5.5).
- ``pair_value`` and ``run2_value`` take exactly the two readings 1 and -1; 0 is refused (5.6).
- ``joker_target_effect="skip"``: the left neighbour misses his next turn (A3).
- The whole discard pile is public, in order (A18).
- A four-aces win under ``reward="score"`` pays +``target`` to the winner (8).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core import rng
from ...core.bitmask import bit, spread
from ...core.cards import NUM_CARDS
from ...core.game import EPISODE_DEAL, EPISODE_GAME, REWARD_WIN
from ...core.seats import at, seat_mod
from ...core.step_args import config_tuple, fixed_config
from .config import (
    C_ALLOW_DISCARD_DRAW,
    C_EPISODE,
    C_JOKER_TARGET_EFFECT,
    C_MAX_ROUNDS,
    C_NUM_PLAYERS,
    C_REWARD,
    C_TARGET,
    C_TIES,
    C_TURN_CAP_FACTOR,
    CONFIG_SIZE,
    TIES_CO_WINNERS,
)
from .constants import (
    ACES,
    ACTION_DISCARD,
    ACTION_DRAW_DISCARD,
    ACTION_DRAW_STOCK,
    ACTION_JOKER,
    MAX_LIMIT,
    MAX_SEATS,
    NATURALS,
    NUM_ACTIONS,
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_REDUCE_EXPOSED,
    PHASE_REDUCE_HIDDEN,
    START_LIMIT,
)
from .layout import (
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_DECK,
    F_DRAWN,
    F_JOKERS_HELD,
    F_JOKERS_PLAYED,
    F_LIMIT,
    F_PHASE,
    F_PILE,
    F_PILE_N,
    F_PILE_POS,
    F_SKIP,
    F_STOCK_POS,
    F_WINNER,
    F_WINNERS,
    M_EPISODE,
    M_EXPOSED,
    M_HIDDEN,
    M_KEY,
    V_LAST_POINTS,
    V_TOTAL,
    V_TURNS,
)
from .scoring import _round_score


@njit(cache=True, inline="always")
def _num_players(cfg):
    return cfg[C_NUM_PLAYERS]


# --- rounds ------------------------------------------------------------------------------------
@njit(cache=True)
def _shuffle_deck(s, b):
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], s.f[b, F_DEAL_NO])
    for i in range(NUM_CARDS):
        s.f[b, F_DECK + i] = i
    rng.shuffle(base, s.f[b, F_DECK : F_DECK + NUM_CARDS])


@njit(cache=True)
def _start_round(s, b, cfg):
    """Deal 3 hidden then 3 exposed cards to each seat from the dealer's left; set jokers aside
    and shuffle them into the stock (3, A17)."""
    P = _num_players(cfg)
    for p in range(MAX_SEATS):
        s.m[b, M_HIDDEN + p] = 0
        s.m[b, M_EXPOSED + p] = 0
        s.f[b, F_LIMIT + p] = START_LIMIT if p < P else 0
        s.f[b, F_JOKERS_HELD + p] = 0
        s.f[b, F_JOKERS_PLAYED + p] = 0
        s.f[b, F_SKIP + p] = 0
    # deal the deck in order, setting aside any joker met while dealing
    dealt = np.empty(6 * P, np.int8)
    stock = np.empty(NUM_CARDS, np.int8)
    jokers = np.empty(2, np.int8)
    nd = ns = nj = 0
    for i in range(NUM_CARDS):
        c = s.f[b, F_DECK + i]
        if nd < 6 * P:
            if c >= 52:
                jokers[nj] = c
                nj += 1
            else:
                dealt[nd] = c
                nd += 1
        else:
            stock[ns] = c
            ns += 1
    for i in range(P):
        seat = (s.f[b, F_DEALER] + 1 + i) % P
        for k in range(6):
            c = dealt[6 * i + k]
            if k < 3:
                s.m[b, M_HIDDEN + seat] |= bit(c)
            else:
                s.m[b, M_EXPOSED + seat] |= bit(c)
    # the set-aside jokers go into the stock at uniform positions (A17)
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], 1000 + s.f[b, F_DEAL_NO])
    for j in range(nj):
        at = rng.draw(base, j, ns + 1)
        for t in range(ns, at, -1):
            stock[t] = stock[t - 1]
        stock[at] = jokers[j]
        ns += 1
    # the deck as dealt: the hands, then the stock from the top
    for i in range(nd):
        s.f[b, F_DECK + i] = dealt[i]
    for i in range(ns):
        s.f[b, F_DECK + nd + i] = stock[i]
    s.f[b, F_STOCK_POS] = 6 * P
    s.f[b, F_PILE_N] = 0
    for c in range(52):
        s.f[b, F_PILE_POS + c] = 0
    s.f[b, F_DRAWN] = -1
    s.v[b, V_TURNS] = 0
    s.f[b, F_PHASE] = PHASE_DRAW
    s.f[b, F_CURRENT] = (s.f[b, F_DEALER] + 1) % P  # the dealer's left plays first


@njit(cache=True)
def _reset(s, b, cfg, key, episode, deck, dealer):
    """Start a game in row ``b`` (``deck[0] < 0``: shuffle; ``dealer < 0``: draw)."""
    s.m[b, M_KEY] = key
    s.m[b, M_EPISODE] = episode
    s.f[b, F_DEAL_NO] = 0
    s.f[b, F_WINNER] = -1
    for p in range(MAX_SEATS):
        s.v[b, V_TOTAL + p] = 0
        s.v[b, V_LAST_POINTS + p] = 0
        s.f[b, F_WINNERS + p] = 0
    if deck[0] < 0:
        _shuffle_deck(s, b)
    else:
        for i in range(NUM_CARDS):
            s.f[b, F_DECK + i] = deck[i]
    if dealer < 0:
        dealer = rng.draw(rng.stream(key, episode, 2000), 0, _num_players(cfg))  # at random (3.1)
    s.f[b, F_DEALER] = dealer
    _start_round(s, b, cfg)


@njit(cache=True, inline="always")
def _game_over(s, b, cfg, values):
    """End the episode; the seats with the highest ``values`` win (A9)."""
    P = _num_players(cfg)
    best = -(1 << 30)
    for p in range(P):
        best = max(best, values[p])
    n = 0
    for p in range(P):
        s.f[b, F_WINNERS + p] = 1 if values[p] == best else 0
        n += s.f[b, F_WINNERS + p]
    s.f[b, F_WINNER] = -1
    if n == 1:
        for p in range(P):
            if s.f[b, F_WINNERS + p]:
                s.f[b, F_WINNER] = p
    if n == P:
        for p in range(P):
            s.f[b, F_WINNERS + p] = 0  # everybody equal: a draw
    s.f[b, F_PHASE] = PHASE_OVER
    s.f[b, F_CURRENT] = -1


@njit(cache=True)
def _four_aces(s, b, cfg, seat):
    """Four aces in one hand win the game at once (4, step 2)."""
    P = _num_players(cfg)
    vals = np.zeros(P, np.int64)
    vals[seat] = 1
    _game_over(s, b, cfg, vals)


@njit(cache=True)
def _end_round(s, b, cfg):
    """Score every player, add to the totals; end the game or deal the next round (4.1)."""
    P = _num_players(cfg)
    totals = np.zeros(P, np.int64)
    scores = np.zeros(P, np.int64)
    reached = False
    for p in range(P):
        sc = _round_score(s, b, cfg, p)
        scores[p] = sc
        s.v[b, V_LAST_POINTS + p] = sc
        s.v[b, V_TOTAL + p] += sc
        totals[p] = s.v[b, V_TOTAL + p]
        reached = reached or totals[p] >= cfg[C_TARGET]
    if cfg[C_EPISODE] == EPISODE_DEAL:
        _game_over(s, b, cfg, scores)
        return
    last = s.f[b, F_DEAL_NO] + 1 >= cfg[C_MAX_ROUNDS]
    if reached or last:
        best, n_best = -(1 << 30), 0
        for p in range(P):
            if totals[p] > best:
                best, n_best = totals[p], 1
            elif totals[p] == best:
                n_best += 1
        if n_best == 1 or cfg[C_TIES] == TIES_CO_WINNERS or last:
            _game_over(s, b, cfg, totals)
            return
    s.f[b, F_DEAL_NO] += 1
    s.f[b, F_DEALER] = (s.f[b, F_DEALER] + 1) % P  # the deal passes left
    _shuffle_deck(s, b)
    _start_round(s, b, cfg)


@njit(cache=True, inline="always")
def _end_turn(s, b, cfg):
    """The round ends when the stock is empty or at the turn cap (4, step 5; A7)."""
    P = _num_players(cfg)
    s.v[b, V_TURNS] += 1
    cap = cfg[C_TURN_CAP_FACTOR] * (NUM_CARDS - 6 * P)
    if s.f[b, F_STOCK_POS] >= NUM_CARDS or s.v[b, V_TURNS] >= cap:
        _end_round(s, b, cfg)
        return
    s.f[b, F_PHASE] = PHASE_DRAW
    s.f[b, F_DRAWN] = -1
    nxt = seat_mod(s.f[b, F_CURRENT] + 1, P)
    for _ in range(P):
        if s.f[b, F_SKIP + nxt]:
            s.f[b, F_SKIP + nxt] = 0  # a joker was played on him: he misses this turn (A3)
            nxt = seat_mod(nxt + 1, P)
        else:
            break
    s.f[b, F_CURRENT] = nxt


# --- legal actions, step -----------------------------------------------------------------------
@njit(cache=True, inline="always")  # into step_rows; the other callers: legal_row
def _legal(s, b, cfg, out):
    """Write the legal-action mask of the seat to act into ``out``."""
    for i in range(NUM_ACTIONS):
        out[i] = 0
    ph = s.f[b, F_PHASE]
    seat = s.f[b, F_CURRENT]
    if ph == PHASE_DRAW:
        out[ACTION_DRAW_STOCK] = 1
        if cfg[C_ALLOW_DISCARD_DRAW] and s.f[b, F_PILE_N] > 0:
            out[ACTION_DRAW_DISCARD] = 1
    elif ph == PHASE_REDUCE_HIDDEN:
        x = np.int64(s.m[b, M_HIDDEN + seat] & NATURALS)
        spread(x, 52, out, ACTION_DISCARD)
        if s.f[b, F_JOKERS_HELD + seat] > 0:
            out[ACTION_JOKER] = 1
    elif ph == PHASE_REDUCE_EXPOSED:
        x = np.int64(s.m[b, M_EXPOSED + seat] & ~bit(s.f[b, F_DRAWN]))
        spread(x, 52, out, ACTION_DISCARD)


@njit(cache=True, inline="always")
def _is_legal(s, b, cfg, a):
    ph = s.f[b, F_PHASE]
    seat = s.f[b, F_CURRENT]
    if ph == PHASE_DRAW:
        if a == ACTION_DRAW_STOCK:
            return True
        return a == ACTION_DRAW_DISCARD and cfg[C_ALLOW_DISCARD_DRAW] == 1 and s.f[b, F_PILE_N] > 0
    if ph == PHASE_REDUCE_HIDDEN:
        if a == ACTION_JOKER:
            return s.f[b, F_JOKERS_HELD + seat] > 0
        if ACTION_DISCARD <= a < ACTION_JOKER:
            c = a - ACTION_DISCARD
            return (s.m[b, M_HIDDEN + seat] >> np.uint64(c)) & np.uint64(1) == np.uint64(1)
        return False
    if ph == PHASE_REDUCE_EXPOSED and ACTION_DISCARD <= a < ACTION_JOKER:
        c = a - ACTION_DISCARD
        return c != s.f[b, F_DRAWN] and (s.m[b, M_EXPOSED + seat] >> np.uint64(c)) & np.uint64(
            1
        ) == np.uint64(1)
    return False


@njit(cache=True, inline="always")  # into step_rows, its only caller
def _apply(s, b, cfg, a):
    """Apply legal action ``a`` of the seat to act (4)."""
    P = _num_players(cfg)
    seat = s.f[b, F_CURRENT]
    ph = s.f[b, F_PHASE]
    if ph == PHASE_DRAW:
        if a == ACTION_DRAW_STOCK:
            c = s.f[b, F_DECK + s.f[b, F_STOCK_POS]]
            s.f[b, F_STOCK_POS] += 1
            if c >= 52:
                # a joker: the limit goes up, the turn ends without a discard (4, step 3)
                s.f[b, F_JOKERS_HELD + seat] += 1
                s.f[b, F_LIMIT + seat] = min(s.f[b, F_LIMIT + seat] + 1, MAX_LIMIT)
                _end_turn(s, b, cfg)
                return
            s.m[b, M_HIDDEN + seat] |= bit(c)
            if s.m[b, M_HIDDEN + seat] & ACES == ACES:
                _four_aces(s, b, cfg, seat)
                return
            s.f[b, F_PHASE] = PHASE_REDUCE_HIDDEN
        else:
            n = s.f[b, F_PILE_N] - 1
            c = s.f[b, F_PILE + n]
            s.f[b, F_PILE_N] = n
            s.f[b, at(F_PILE_POS, c)] = 0
            s.m[b, M_EXPOSED + seat] |= bit(c)
            s.f[b, F_DRAWN] = c
            if s.m[b, M_EXPOSED + seat] & ACES == ACES:
                _four_aces(s, b, cfg, seat)
                return
            s.f[b, F_PHASE] = PHASE_REDUCE_EXPOSED
        return
    if a == ACTION_JOKER:
        # the joker leaves play in front of the left neighbour; the limit stays raised
        s.f[b, F_JOKERS_HELD + seat] -= 1
        s.f[b, F_JOKERS_PLAYED + seat] += 1
        if cfg[C_JOKER_TARGET_EFFECT]:
            s.f[b, F_SKIP + seat_mod(seat + 1, P)] = 1
        _end_turn(s, b, cfg)
        return
    c = a - ACTION_DISCARD
    if ph == PHASE_REDUCE_HIDDEN:
        s.m[b, M_HIDDEN + seat] &= ~bit(c)
    else:
        s.m[b, M_EXPOSED + seat] &= ~bit(c)
    s.f[b, F_PILE + s.f[b, F_PILE_N]] = c
    s.f[b, F_PILE_N] += 1
    s.f[b, at(F_PILE_POS, c)] = s.f[b, F_PILE_N]  # kept for the observation's pile plane
    _end_turn(s, b, cfg)


# --- rewards (8) -------------------------------------------------------------------------------
@njit(cache=True)
def _write_rewards(s, b, cfg, out):
    """Zero-sum rewards of a finished episode (see the reward table: the page's section 8)."""
    P = _num_players(cfg)
    for p in range(P):
        out[p] = 0.0
    if cfg[C_REWARD] == REWARD_WIN:
        n = 0
        for p in range(P):
            n += s.f[b, F_WINNERS + p]
        if 0 < n < P:
            for p in range(P):
                out[p] = 1.0 / n if s.f[b, F_WINNERS + p] else -1.0 / (P - n)
        return
    # a game won by four aces in one hand (4, step 2) ends before any scoring, so there are no
    # scores to compare: the winner gets +target and the others share -target (no other end
    # leaves four aces in one hand: the check runs whenever an ace joins a hand)
    w = s.f[b, F_WINNER]
    if w >= 0 and (s.m[b, M_HIDDEN + w] & ACES == ACES or s.m[b, M_EXPOSED + w] & ACES == ACES):
        for p in range(P):
            out[p] = cfg[C_TARGET] if p == w else -cfg[C_TARGET] / (P - 1)
        return
    src = V_TOTAL if cfg[C_EPISODE] == EPISODE_GAME else V_LAST_POINTS
    mean = 0.0
    for p in range(P):
        mean += s.v[b, src + p] / P
    for p in range(P):
        out[p] = s.v[b, src + p] - mean


# --- the step kernels (``core.kernel_template``: ``kernels.step_for``) -------------------------
# one step kernel per seat count, each compiled on first use
STEP_VALUES = range(3, 6)
STEP_INDEX = C_NUM_PLAYERS
STEP_OPTION = "num_players"


@njit(cache=True, inline="always")
def specialise(cfg, players):
    """The config as the step kernel compiled for ``players`` seats reads it: the seat count is a
    constant in it (``core.step_args.fixed_config``), so every loop over the seats has a known trip
    count, and the config's values stay in registers: a faster step than one kernel reading the
    array, with the same outputs (measurements: ``docs/history.md``, "From the code")."""
    return fixed_config(cfg, CONFIG_SIZE, C_NUM_PLAYERS, players)


@njit(cache=True, inline="always")
def general(cfg):
    """The config as the kernels other than the step read it: a tuple of the type ``specialise``
    gives, every value read from the array (``core.step_args.config_tuple``), so that the helpers
    both call compile once."""
    return config_tuple(cfg, CONFIG_SIZE)
