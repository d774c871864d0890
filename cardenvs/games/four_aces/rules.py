"""Four Aces (Vier Asse, by Jeff Ferraro): the rules, as numba kernels over batched NumPy state.

Rules: ``docs/games/four_aces.md``, the project's rules page (ruleset R, sections 2–8). The
comments below cite its sections ("5.3") and its choices ("A13"); "the spec" is that page.

Rules summary (defaults)
------------------------
- 3–5 players (``num_players``, default 4); 52 cards and 2 jokers; ace high only (2).
- Each round (3): 3 hidden cards and 3 exposed (face-up) cards each; the rest is the stock; the
  discard pile starts empty; the dealer's left plays first; the deal passes left each round.
  A joker met while dealing is set aside, replaced by the next card, and shuffled into the
  stock (A17).
- A turn (4): draw the top stock card into the hidden hand, or the top discard into the exposed
  hand (``draw stock`` / ``draw discard``; not from an empty pile). A hand that now holds all four
  aces wins the game at once. A drawn joker raises the player's hidden limit by one (3 → 4 → 5)
  and ends the turn without a discard. Otherwise reduce: after a stock draw discard a hidden
  natural card (``discard <card>``, the drawn one allowed) or play a held joker on the left
  neighbour (``joker``: it leaves play, the limit stays raised); after a discard draw discard one
  of the three other exposed cards.
- The round ends when the stock is empty after a turn, or after a turn cap of 5 × the initial
  stock (A7); then every player scores his natural cards (hidden and exposed pooled) and the
  scores are added to the totals; the game ends when a total reaches 20 (the highest total
  wins, exact ties are co-winners, A9) or after ``max_rounds`` rounds (A8).
- Scoring (5.3): (A) rank block, maximised over disjoint splits: pair 1, three of a kind 2, two
  pairs 3, full house 10, four of a kind 10; (B) same-suit groups, mandatory, per suit: 2 cards
  −2, 3 cards 0, 4 cards 2, 5+ cards 6; (C) maximal same-suit runs: 2 → 1, 3 → 2, 4 → 6, 5 → 14,
  longer runs as their best split; score = A + B + C. Jokers never score.

Choices where the spec leaves things open
-----------------------------------------
- The four-aces call is automatic (4, step 2), checked on the hand that just received a card.
- Rewards are zero-sum: the winners share +1, the others share −1 (one winner: +1 and
  −1/(P−1)); an exact tie of everybody is a draw (0).
- ``run_mode="replace"`` (5.5): a suit whose cards form one single run scores only that run's
  value; any other suit scores its suit-group value and no run.
- ``pair_value=-1`` (S3 reading, 5.5): a rank group of exactly two that is not part of a bigger
  combination costs −1 (pairs are mandatory); ``run2_value=-1``: a maximal run of exactly two
  costs −1. Runs longer than five score their best split into pieces of 1 (worth 0) to 5 cards,
  so under ``run2_value=-1`` a 7-run scores 14 (5 + 1 + 1), not 13 (5 + 2).
- ``pair_value`` and ``run2_value`` take exactly the two readings, 1 or -1 (A13); 0 is refused:
  the seed scores a pair and a 2-card run +1, S3 scores each -1 (a pair then mandatory), and
  neither source has one that counts nothing (a pair worth 0 would be a third game).
- Scoring a hand (``score_mask``) takes about 0.3–0.4 µs in the kernel (``benchmarks/scoring.py``).
- ``joker_target_effect="skip"`` (A3 alternative): the left neighbour misses his next turn.
- The whole discard pile is public, in order (A18); the observation encodes each pile card's
  position from the bottom.

Episodes and rewards
--------------------
| ``episode`` | ``reward`` | reward at the end, per seat |
|---|---|---|
| ``"game"`` (default) | ``"win"`` (default) | winners share +1, the others share −1 |
| ``"game"`` | ``"score"`` | own total − mean total |
| ``"deal"`` (one round) | ``"win"`` | the round's best scorers share +1, the others share −1 |
| ``"deal"`` | ``"score"`` | own round score − mean round score |

A game won by four aces in one hand ends before any scoring; under ``"score"`` its winner gets
+``target`` and the others share −``target`` (with round scores all 0 and totals that may favour
a loser, the margins would pay the win nothing or less).

Actions (55)
------------
| ids | name | when |
|---|---|---|
| 0 | ``draw stock`` | start of a turn |
| 1 | ``draw discard`` | start of a turn, pile not empty (and ``allow_discard_draw``) |
| 2–53 | ``discard <card>`` | a hidden card after a stock draw, an exposed one after a pile draw |
| 54 | ``joker`` | after a stock draw, holding a joker |

``options={"deck": [...]}`` lists the 54 cards: for each seat from the dealer's left its 3 hidden
then 3 exposed cards, then the stock from the top (a joker among the first ones is set aside and
the next card dealt in its place; set-aside jokers are shuffled into the stock).

Observation
-----------
A flat ``float32`` vector, egocentric: seat blocks are ordered from the observer (0) clockwise;
blocks for seats beyond ``num_players`` stay zero.

{obs_table}

Config
------
{config_table}

Version history
---------------
- v0: first release.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import njit

from cardenvs.core.prefetch import STEP_BLOCK, prefetch_ahead

from ...core import rng
from ...core.bitmask import bit, popcount, spread
from ...core.borrow import borrowed_step, fixed_config
from ...core.cards import JOKER_1, JOKER_2, NUM_CARDS, Deck, format_card, format_cards
from ...core.game import GameConfig, ObsField, StepKernels, layout_offsets, layout_table, option
from ...core.seats import at, seat_mod
from ...core.state import PackedState, StateLayout

NAME = "four_aces"
VERSION = 0
MAX_SEATS = 5
DECK = Deck("four_aces", list(range(NUM_CARDS)))
NATURALS = np.uint64((1 << 52) - 1)
ACES = np.uint64(sum(1 << (s * 13 + 12) for s in range(4)))
START_LIMIT = 3
MAX_LIMIT = 5

ACTION_DRAW_STOCK = 0
ACTION_DRAW_DISCARD = 1
ACTION_DISCARD = 2
ACTION_JOKER = 54
NUM_ACTIONS = 55
ACTION_NAMES = tuple(
    ["draw stock", "draw discard"] + [f"discard {format_card(c)}" for c in range(52)] + ["joker"]
)

PHASE_DRAW = 0
PHASE_REDUCE_HIDDEN = 1
PHASE_REDUCE_EXPOSED = 2
PHASE_OVER = 3
PHASE_NAMES = ("draw", "reduce hidden", "reduce exposed", "over")

# --- scoring tables (5.3) ----------------------------------------------------------------------
SUIT_VALUE = np.array([0, 0, -2, 0, 2, 6, 6, 6, 6, 6, 6, 6, 6, 6], np.int64)


def _run_table(run2: int) -> list[int]:
    """Value of a maximal same-suit run by length: 2-5 as the table (5.3 C), longer runs as their
    best split into pieces of 1 (worth 0) to 5 cards (f(6) = 14, f(7) = 15, f(8) = 16)."""
    base = {2: run2, 3: 2, 4: 6, 5: 14}
    f = [0, 0]
    for n in range(2, 14):
        if n <= 5:
            f.append(base[n])  # a run of 2-5 scores its own line, also when that is negative
        else:
            f.append(max([f[n - 1]] + [f[n - k] + v for k, v in base.items()]))
    return f


RUN_VALUE = np.array([_run_table(1), _run_table(-1)], np.int64)  # [run2 = +1 | -1][length]


@dataclasses.dataclass(frozen=True)
class Config(GameConfig):
    """Four Aces rule options (spec sections 5.5, 6, 8). See the module docstring."""

    num_players: int = option(4, low=3, high=5, doc="players (2: 3–5)")
    allow_discard_draw: bool = option(
        True, doc="players may take the top discard (A1; False = the seed-literal game)"
    )
    joker_target_effect: str = option(
        "none",
        ("none", "skip"),
        doc="a joker played on the left neighbour: no effect, or skip (A3)",
    )
    score_mode: str = option(
        "pooled", ("pooled", "per_hand"), doc="score hidden+exposed together or each hand (5.5)"
    )
    run_mode: str = option(
        "additive", ("additive", "replace"), doc="runs add to the suit value or replace it (A12)"
    )
    # two readings, no third (see "Choices" in the module docstring): 0 is refused
    pair_value: int = option(1, (1, -1), doc="a pair: +1 (seed) or -1 (S3, mandatory) (A13)")
    run2_value: int = option(1, (1, -1), doc="a 2-card run: +1 (seed) or -1 (S3) (A13)")
    target: int = option(20, low=1, high=200, doc="a total that ends the game (4.1)")
    max_rounds: int = option(
        100, low=1, high=120, doc="rounds after which the game is decided (A8)"
    )
    turn_cap_factor: int = option(5, low=1, high=20, doc="turn cap per round = factor x stock (A7)")
    ties: str = option(
        "co_winners", ("co_winners", "play_on"), doc="equal highest totals at the end (A9)"
    )

    def encode(self, name: str, value) -> int:
        if name in ("pair_value", "run2_value"):  # the value itself (the kernels add it)
            return int(value)
        return super().encode(name, value)


C_SIZE = len(dataclasses.fields(Config))  # entries of the config vector
C_EPISODE = Config.index("episode")
C_REWARD = Config.index("reward")
C_PLAYERS = Config.index("num_players")
C_PILE_DRAW = Config.index("allow_discard_draw")
C_SKIP = Config.index("joker_target_effect")
C_PER_HAND = Config.index("score_mode")
C_REPLACE = Config.index("run_mode")
C_PAIR = Config.index("pair_value")
C_RUN2 = Config.index("run2_value")
C_TARGET = Config.index("target")
C_MAX_ROUNDS = Config.index("max_rounds")
C_CAP = Config.index("turn_cap_factor")
C_TIES = Config.index("ties")

# --- state -------------------------------------------------------------------------------------
STATE_FIELDS = (
    ("hidden", "m", 5, "hidden hand per seat (natural cards)"),
    ("exposed", "m", 5, "exposed hand per seat"),
    ("key", "m", 1, "the row's random key"),
    ("episode", "m", 1, "episode index since the last seeding"),
    # v (int16) bounds under the widest legal config (tests/test_score_bounds.py): a round
    # scores at most 8 natural cards: rank block <= 2.5 a card, suit groups <= 6 / 5 a card,
    # runs <= 14 / 5 a card (52); >= -1 a pair, -2 a suit per scored hand (two per_hand), -1 a
    # 2-run (-24)
    ("total", "v", 5, "game totals per seat"),  # max_rounds 120 x (-24..52) = -2,880..6,240
    ("last_points", "v", 5, "round scores of the last finished round"),  # -24..52
    ("turns", "v", 1, "turns played this round"),  # <= cap 20 x (54 - 6 x 3) = 720
    ("deck", "f", 54, "this round's deck order (as dealt; see the deck option)"),
    ("pile", "f", 54, "the discard pile, bottom first"),
    ("pile_n", "f", 1, "cards on the discard pile"),
    ("pile_pos", "f", 52, "each natural card's pile position from the bottom, 1-based (0 = off)"),
    ("stock_pos", "f", 1, "deck index of the next stock card"),
    ("deal_no", "f", 1, "round number, 0-based"),
    ("dealer", "f", 1, "seat of the dealer"),
    ("current", "f", 1, "seat to act, -1 when the game is over"),
    ("phase", "f", 1, "PHASE_*"),
    ("winner", "f", 1, "winning seat (-1 none; several winners: see winners)"),
    ("winners", "f", 5, "1 for each winner of the finished episode"),
    ("limit", "f", 5, "hidden-hand limit per seat (3 + jokers drawn, at most 5)"),
    ("jokers_held", "f", 5, "jokers held per seat"),
    ("jokers_played", "f", 5, "jokers played per seat this round"),
    ("skip", "f", 5, "1 if the seat misses its next turn (joker_target_effect='skip')"),
    ("drawn", "f", 1, "the card just taken from the pile (-1 none)"),
)
LAYOUT = StateLayout(NAME, STATE_FIELDS)
_o = LAYOUT.offset
M_HIDDEN, M_EXPOSED, M_KEY, M_EPISODE = (_o(k) for k in ("hidden", "exposed", "key", "episode"))
V_TOTAL, V_LAST_POINTS, V_TURNS = (_o(k) for k in ("total", "last_points", "turns"))
F_DECK, F_PILE, F_PILE_N, F_STOCK, F_DEAL_NO, F_DEALER = (
    _o(k) for k in ("deck", "pile", "pile_n", "stock_pos", "deal_no", "dealer")
)
F_PILE_POS = _o("pile_pos")
F_CURRENT, F_PHASE, F_WINNER, F_WINNERS, F_LIMIT = (
    _o(k) for k in ("current", "phase", "winner", "winners", "limit")
)
F_JK_HELD, F_JK_PLAYED, F_SKIP, F_DRAWN = (
    _o(k) for k in ("jokers_held", "jokers_played", "skip", "drawn")
)
State = PackedState
new_state = LAYOUT.new  # new_state(n): a zeroed state for n games
field = LAYOUT.field  # field(state, name): a writable view of one named field over all rows

# --- observation -------------------------------------------------------------------------------
OBS_LAYOUT = (
    ObsField("hidden", 52, 1.0, "own hidden natural cards"),
    ObsField("exposed", 5 * 52, 1.0, "each seat's exposed hand (seat blocks)"),
    ObsField("pile", 52, 1.0, "discard pile: a card's position from the bottom / 54, 0 = absent"),
    ObsField("pile_top", 52, 1.0, "the top card of the discard pile"),
    ObsField("drawn", 52, 1.0, "the card just taken from the pile (reducing the exposed hand)"),
    ObsField("hidden_size", 5, 2.0, "items in each seat's hidden hand (jokers too) / 5"),
    ObsField("limit", 5, 1.0, "each seat's hidden limit / 5"),
    ObsField("jokers_played", 5, 1.0, "jokers each seat played this round / 2"),
    ObsField("jokers_held", 1, 1.0, "own jokers held / 2"),
    ObsField("total", 5, 100.0, "game totals / 20 (clipped to -100..100)", -100.0),
    ObsField("seats", 5, 1.0, "1 for each seat in the game"),
    ObsField("dealer", 5, 1.0, "the dealer, one-hot"),
    ObsField("stock", 1, 1.0, "cards left in the stock / 54"),
    ObsField("phase", 4, 1.0, "draw, reduce hidden, reduce exposed, over"),
    ObsField("to_act", 1, 1.0, "1 if the observing seat is to act"),
    ObsField("round", 1, 1.0, "round number / max_rounds"),
    ObsField("turn", 1, 1.0, "turns this round / the turn cap"),
)
_OFF = layout_offsets(OBS_LAYOUT)
OBS_DIM = sum(f.size for f in OBS_LAYOUT)
O_HIDDEN, O_EXPOSED, O_PILE, O_TOP, O_DRAWN = (
    _OFF[k] for k in ("hidden", "exposed", "pile", "pile_top", "drawn")
)
O_HSIZE, O_LIMIT, O_JKP, O_JKH, O_TOTAL, O_SEATS, O_DEALER = (
    _OFF[k]
    for k in ("hidden_size", "limit", "jokers_played", "jokers_held", "total", "seats", "dealer")
)
O_STOCK, O_PHASE, O_TO_ACT, O_ROUND, O_TURN = (
    _OFF[k] for k in ("stock", "phase", "to_act", "round", "turn")
)

__doc__ = __doc__.replace("{obs_table}", layout_table(OBS_LAYOUT)).replace(
    "{config_table}", Config.describe()
)


@njit(cache=True, inline="always")
def _np(cfg):
    return cfg[C_PLAYERS]


@njit(cache=True, inline="always")
def _plane52(mask, out, off):
    """One-hot the 52 natural cards of ``mask`` into ``out[off:off+52]``."""
    x = np.int64(mask & NATURALS)
    spread(x, 52, out, off)


# --- scoring (5.3, 5.4, 5.5) -------------------------------------------------------------------
@njit(cache=True)
def _rank_block(mask, pair_value):
    """Rank combinations, maximised over disjoint splits (5.3 A); with ``pair_value < 0`` a rank
    group of exactly two that is in no bigger combination costs ``pair_value``."""
    ranks_c = np.zeros(13, np.int64)
    for r in range(13):
        c = 0
        for suit in range(4):
            c += (mask >> np.uint64(suit * 13 + r)) & np.uint64(1)
        ranks_c[r] = c
    # the ranks that can form combinations, and each one's count
    cs = np.zeros(4, np.int64)
    k = 0
    for r in range(13):
        if ranks_c[r] >= 2:
            cs[k] = ranks_c[r]
            k += 1
    best = -1000
    # each rank with count c chooses a split: 0 none, 1 a pair, 2 a trio, 3 a quad, 4 two pairs
    total = 5**k
    for code in range(total):
        x = code
        pairs = trios = quads = dup = 0
        ok = True
        for i in range(k):
            choice = x % 5
            x //= 5
            c = cs[i]
            if choice == 0:
                if c == 2 and pair_value < 0:
                    ok = False  # a group of exactly two must count as a pair (S3 reading)
            elif choice == 1:
                pairs += 1
            elif choice == 2:
                if c < 3:
                    ok = False
                trios += 1
            elif choice == 3:
                if c < 4:
                    ok = False
                quads += 1
            else:
                if c < 4:
                    ok = False
                pairs += 2
                dup += 1
        if not ok:
            continue
        # full houses first (a trio with a pair of another rank), pairs from doubled ranks first
        f = min(trios, pairs)
        left = pairs - f
        left_dup = max(dup - f, 0)
        maxmult = 2 if left_dup > 0 else 1
        two = min(left // 2, left - maxmult) if left > 0 else 0
        two = max(two, 0)
        score = 10 * quads + 10 * f + 2 * (trios - f) + 3 * two + pair_value * (left - 2 * two)
        if score > best:
            best = score
    return best if k > 0 else 0


@njit(cache=True)
def _suit_and_runs(mask, replace, run2):
    """Same-suit groups (mandatory, 5.3 B) and maximal same-suit runs (5.3 C)."""
    total = 0
    table = 0 if run2 > 0 else 1
    for suit in range(4):
        bits = np.int64((mask >> np.uint64(suit * 13)) & np.uint64(0x1FFF))
        n = 0
        runs = 0
        n_runs = 0
        r = 0
        while r < 13:
            if (bits >> r) & 1:
                start = r
                while r < 13 and (bits >> r) & 1:
                    r += 1
                length = r - start
                n += length
                n_runs += 1
                runs += RUN_VALUE[table, length]
            else:
                r += 1
        if replace and n_runs == 1 and n >= 2:
            total += RUN_VALUE[table, n]  # a single run replaces the suit value (5.5)
        elif replace:
            total += SUIT_VALUE[n]
        else:
            total += SUIT_VALUE[n] + runs
    return total


@njit(cache=True)
def score_mask(mask, cfg):
    """Round score of the natural cards in ``mask`` (jokers ignored): A + B + C (5.3)."""
    m = mask & NATURALS
    return _rank_block(m, cfg[C_PAIR]) + _suit_and_runs(m, cfg[C_REPLACE], cfg[C_RUN2])


@njit(cache=True)
def _round_score(s, b, cfg, p):
    h, e = s.m[b, M_HIDDEN + p], s.m[b, M_EXPOSED + p]
    if cfg[C_PER_HAND]:
        return score_mask(h, cfg) + score_mask(e, cfg)
    return score_mask(h | e, cfg)


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
    P = _np(cfg)
    for p in range(MAX_SEATS):
        s.m[b, M_HIDDEN + p] = 0
        s.m[b, M_EXPOSED + p] = 0
        s.f[b, F_LIMIT + p] = START_LIMIT if p < P else 0
        s.f[b, F_JK_HELD + p] = 0
        s.f[b, F_JK_PLAYED + p] = 0
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
    s.f[b, F_STOCK] = 6 * P
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
        dealer = rng.draw(rng.stream(key, episode, 2000), 0, _np(cfg))  # at random (3.1)
    s.f[b, F_DEALER] = dealer
    _start_round(s, b, cfg)


@njit(cache=True, inline="always")
def _game_over(s, b, cfg, values):
    """End the episode; the seats with the highest ``values`` win (A9)."""
    P = _np(cfg)
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
    P = _np(cfg)
    vals = np.zeros(P, np.int64)
    vals[seat] = 1
    _game_over(s, b, cfg, vals)


@njit(cache=True)
def _end_round(s, b, cfg):
    """Score every player, add to the totals; end the game or deal the next round (4.1)."""
    P = _np(cfg)
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
    if cfg[C_EPISODE] == 1:
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
        if n_best == 1 or cfg[C_TIES] == 0 or last:
            _game_over(s, b, cfg, totals)
            return
    s.f[b, F_DEAL_NO] += 1
    s.f[b, F_DEALER] = (s.f[b, F_DEALER] + 1) % P  # the deal passes left
    _shuffle_deck(s, b)
    _start_round(s, b, cfg)


@njit(cache=True, inline="always")
def _end_turn(s, b, cfg):
    """The round ends when the stock is empty or at the turn cap (4, step 5; A7)."""
    P = _np(cfg)
    s.v[b, V_TURNS] += 1
    cap = cfg[C_CAP] * (NUM_CARDS - 6 * P)
    if s.f[b, F_STOCK] >= NUM_CARDS or s.v[b, V_TURNS] >= cap:
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


# --- legal actions, step, observation ----------------------------------------------------------
@njit(cache=True, inline="always")  # into step_rows; the other callers: legal_row
def _legal(s, b, cfg, out):
    """Write the legal-action mask of the seat to act into ``out``."""
    for i in range(NUM_ACTIONS):
        out[i] = 0
    ph = s.f[b, F_PHASE]
    seat = s.f[b, F_CURRENT]
    if ph == PHASE_DRAW:
        out[ACTION_DRAW_STOCK] = 1
        if cfg[C_PILE_DRAW] and s.f[b, F_PILE_N] > 0:
            out[ACTION_DRAW_DISCARD] = 1
    elif ph == PHASE_REDUCE_HIDDEN:
        x = np.int64(s.m[b, M_HIDDEN + seat] & NATURALS)
        spread(x, 52, out, ACTION_DISCARD)
        if s.f[b, F_JK_HELD + seat] > 0:
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
        return a == ACTION_DRAW_DISCARD and cfg[C_PILE_DRAW] == 1 and s.f[b, F_PILE_N] > 0
    if ph == PHASE_REDUCE_HIDDEN:
        if a == ACTION_JOKER:
            return s.f[b, F_JK_HELD + seat] > 0
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
    P = _np(cfg)
    seat = s.f[b, F_CURRENT]
    ph = s.f[b, F_PHASE]
    if ph == PHASE_DRAW:
        if a == ACTION_DRAW_STOCK:
            c = s.f[b, F_DECK + s.f[b, F_STOCK]]
            s.f[b, F_STOCK] += 1
            if c >= 52:
                # a joker: the limit goes up, the turn ends without a discard (4, step 3)
                s.f[b, F_JK_HELD + seat] += 1
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
        s.f[b, F_JK_HELD + seat] -= 1
        s.f[b, F_JK_PLAYED + seat] += 1
        if cfg[C_SKIP]:
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


@njit(cache=True, inline="always")  # into step_rows; the other callers: observe_row
def _observe(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (length OBS_DIM)."""
    P = _np(cfg)
    for i in range(O_TOP, O_DRAWN + 52):
        out[i] = 0.0
    for i in range(O_HSIZE, OBS_DIM):
        out[i] = 0.0
    for i in range(O_EXPOSED + 52 * P, O_PILE):
        out[i] = 0.0
    _plane52(s.m[b, at(M_HIDDEN, seat)], out, O_HIDDEN)
    for k in range(P):
        p = seat_mod(seat + k, P)
        _plane52(s.m[b, at(M_EXPOSED, p)], out, O_EXPOSED + 52 * k)
        out[O_HSIZE + k] = (popcount(s.m[b, at(M_HIDDEN, p)]) + s.f[b, at(F_JK_HELD, p)]) * (
            1.0 / 5.0
        )
        out[O_LIMIT + k] = s.f[b, at(F_LIMIT, p)] * (1.0 / 5.0)
        out[O_JKP + k] = s.f[b, at(F_JK_PLAYED, p)] * (1.0 / 2.0)
        out[O_TOTAL + k] = min(max(s.v[b, at(V_TOTAL, p)] * (1.0 / 20.0), -100.0), 100.0)
        out[O_SEATS + k] = 1.0
    dealer = s.f[b, F_DEALER]
    if dealer >= 0:
        out[O_DEALER + seat_mod(dealer - seat, P)] = 1.0
    # the pile plane from each card's kept position: a fixed, vectorised pass over the 52 cards
    # instead of a scatter along the pile (the batched step 1.1x faster, same values)
    for c in range(52):
        out[O_PILE + c] = s.f[b, F_PILE_POS + c] * (1.0 / 54.0)
    n = s.f[b, F_PILE_N]
    if n > 0:
        out[at(O_TOP, s.f[b, F_PILE + n - 1])] = 1.0
    if s.f[b, F_DRAWN] >= 0:
        out[at(O_DRAWN, s.f[b, F_DRAWN])] = 1.0
    out[O_JKH] = s.f[b, at(F_JK_HELD, seat)] * (1.0 / 2.0)
    out[O_STOCK] = (NUM_CARDS - s.f[b, F_STOCK]) * (1.0 / 54.0)
    out[at(O_PHASE, s.f[b, F_PHASE])] = 1.0
    out[O_TO_ACT] = 1.0 if s.f[b, F_CURRENT] == seat else 0.0
    out[O_ROUND] = s.f[b, F_DEAL_NO] / cfg[C_MAX_ROUNDS]
    out[O_TURN] = s.v[b, V_TURNS] / (cfg[C_CAP] * (NUM_CARDS - 6 * P))


@njit(cache=True)
def _write_rewards(s, b, cfg, out):
    """Zero-sum rewards of a finished episode (see the reward table)."""
    P = _np(cfg)
    for p in range(P):
        out[p] = 0.0
    if cfg[C_REWARD] == 0:
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
    src = V_TOTAL if cfg[C_EPISODE] == 0 else V_LAST_POINTS
    mean = 0.0
    for p in range(P):
        mean += s.v[b, src + p] / P
    for p in range(P):
        out[p] = s.v[b, src + p] - mean


# --- batched kernels (the only entry points the front ends call) -------------------------------
_NO_DECK = np.full(1, -1, np.int8)


@njit(cache=True)
def reset_rows(s, cfg, rows, keys, episodes, decks, dealers, obs, mask):
    """Start a game in each row of ``rows``; write its first observation and mask."""
    for i in range(rows.shape[0]):
        b = rows[i]
        _reset(s, b, cfg, keys[b], episodes[b], decks[b], dealers[b])
        legal_row(s, b, cfg, mask[b])
        observe_row(s, b, cfg, s.f[b, F_CURRENT], obs[b])


@njit(cache=True, inline="always")
def _step_rows(s, cfg, actions, autoreset, obs, mask, rewards, terminated):
    """Apply ``actions[b]`` in every row; write rewards, termination, next observation and mask.

    A row whose game is over (without autoreset) or whose action is illegal is left unchanged.
    """
    n = actions.shape[0]
    for lo in range(0, n, STEP_BLOCK):  # a block's state stays in cache for its passes
        hi = min(lo + STEP_BLOCK, n)
        for b in range(lo, hi):
            for p in range(rewards.shape[1]):
                rewards[b, p] = 0.0
            if s.f[b, F_PHASE] == PHASE_OVER:
                continue
            terminated[b] = False
            if not _is_legal(s, b, cfg, actions[b]):  # never trust a buffer the caller could write
                continue
            _apply(s, b, cfg, actions[b])
            if s.f[b, F_PHASE] == PHASE_OVER:
                terminated[b] = True
                _write_rewards(s, b, cfg, rewards[b])
                if autoreset:
                    _reset(s, b, cfg, s.m[b, M_KEY], s.m[b, M_EPISODE] + np.uint64(1), _NO_DECK, -1)
        # the masks and the observations in passes of their own over the rows: each pass keeps
        # one kernel hot (Banque 15% faster than doing everything row by row, the others level)
        for b in range(lo, hi):
            _legal(s, b, cfg, mask[b])
        for b in range(lo, hi):
            prefetch_ahead(obs, b)  # big batches: fetch a later row while this one is written
            cur = s.f[b, F_CURRENT]
            _observe(s, b, cfg, cur if cur >= 0 else 0, obs[b])


def _step_kernel(players: int):
    """``_step_rows`` compiled for ``players`` seats: the seat count is a constant in it
    (``core.borrow.fixed_config``), so every loop over the seats has a known trip count, and
    the config's values stay in registers. At N = 1024 in alternating process pairs the default
    four-handed step got 1.15-1.37 times faster (4 pairs) than one kernel reading the array; the
    same outputs, hashed over 600 steps of 512 rows and 400 steps for the other counts."""

    @njit(cache=True)
    def step_rows(s, cfg, actions, autoreset, obs, mask, rewards, terminated):
        s, cfg, obs, mask, rewards = borrowed_step(s, cfg, obs, mask, rewards)  # no refcounting
        fixed = fixed_config(cfg, C_SIZE, C_PLAYERS, players)  # the config in registers
        _step_rows(s, fixed, actions, autoreset, obs, mask, rewards, terminated)

    return step_rows


# the step kernels, one per seat count (each compiled on first use); ``step_rows`` for callers
# that do not keep the kernel of their config (``GameDef.step_kernel``)
step_for = StepKernels(_step_kernel, range(3, 6), C_PLAYERS, "num_players")
step_rows = step_for.step_rows


@njit(cache=True)
def observe_rows(s, cfg, seats, out):
    """Write each row's observation for ``seats[b]`` into ``out[b]``."""
    for b in range(seats.shape[0]):
        observe_row(s, b, cfg, seats[b], out[b])


@njit(cache=True)
def observe_row(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (``_observe`` as a call of its own,
    so that only ``step_rows`` inlines it)."""
    _observe(s, b, cfg, seat, out)


@njit(cache=True)
def legal_row(s, b, cfg, out):
    """Write the legal-action mask of row ``b`` into ``out`` (search on state copies)."""
    _legal(s, b, cfg, out)


# --- Python-side helpers -----------------------------------------------------------------------
def result(s: PackedState, b: int, config: Config) -> dict:
    """JSON-able result of the finished episode in row ``b``."""
    P = config.num_players
    w = int(s.f[b, F_WINNER])
    return {
        "winner": None if w < 0 else w,
        "winners": [p for p in range(P) if s.f[b, F_WINNERS + p]],
        "totals": s.v[b, V_TOTAL : V_TOTAL + P].tolist(),
        "rounds": int(s.f[b, F_DEAL_NO]) + 1,
    }


def deck_strings(s: PackedState, b: int) -> list[str]:
    """The current round's deck order (hands from the dealer's left, then the stock)."""
    return format_cards(s.f[b, F_DECK : F_DECK + NUM_CARDS]).split()


def determinize(s: PackedState, b: int, config: Config, seat: int, rng) -> None:
    """Redraw in place what ``seat`` cannot see in row ``b``: the other players' hidden natural
    cards and the order of the stock. Each hidden hand keeps its number of natural cards; the
    jokers each player holds are public (limit − 3 − jokers played) and stay; the stock keeps
    its jokers. Exposed hands and the discard pile are public. A draw that would give another
    player all four aces (the game would have ended) is redrawn.
    """
    P = config.num_players
    others = [p for p in range(P) if p != seat]
    sp = int(s.f[b, F_STOCK])
    stock = s.f[b, F_DECK + sp : F_DECK + NUM_CARDS].tolist()
    naturals = [c for c in stock if c < 52]
    jokers = [c for c in stock if c >= 52]
    sizes = []
    for p in others:
        m = int(s.m[b, M_HIDDEN + p])
        cards = [c for c in range(52) if (m >> c) & 1]
        naturals += cards
        sizes.append(len(cards))
    aces = int(ACES)
    for _ in range(100):
        pool = [naturals[i] for i in rng.permutation(len(naturals))]
        hands, k = [], 0
        for n in sizes:
            m = 0
            for c in pool[k : k + n]:
                m |= 1 << c
            hands.append(m)
            k += n
        exposed = [int(s.m[b, M_EXPOSED + p]) for p in others]
        if all((h | e) & aces != aces for h, e in zip(hands, exposed, strict=True)):
            break
    for p, m in zip(others, hands, strict=True):
        s.m[b, M_HIDDEN + p] = np.uint64(m)
    rest = pool[k:] + jokers
    s.f[b, F_DECK + sp : F_DECK + NUM_CARDS] = [rest[i] for i in rng.permutation(len(rest))]


def _natural_mask(cards) -> int:
    ids = [DECK.check_card(c) for c in (cards.split() if isinstance(cards, str) else cards)]
    jokers = [c for c in ids if c in (JOKER_1, JOKER_2)]
    if len(jokers) > 2:  # ("JK" twice names both jokers, as in a deck order)
        raise ValueError(f"there are only two jokers; got {len(jokers)}")
    naturals = [c for c in ids if c < 52]
    if len(set(naturals)) != len(naturals):
        dup = sorted({format_card(c) for c in naturals if naturals.count(c) > 1})
        raise ValueError(f"cards listed more than once: {dup}")
    m = 0
    for c in ids:
        if c not in (JOKER_1, JOKER_2):
            m |= 1 << c
    return m


def score_cards(cards, **config) -> int:
    """Round score of a player's cards (spec 5.3; jokers ignored), e.g. ``"7H 8H 9H KS KD KC"``.

    With ``score_mode="per_hand"`` this scores the cards as one hand.
    """
    cfg = Config.from_kwargs(**config).to_array()
    return int(score_mask(np.uint64(_natural_mask(cards)), cfg))


def score_breakdown(cards, **config) -> dict:
    """The three blocks of ``score_cards``: ``{"rank": A, "suit_and_runs": B + C, "suit": B,
    "runs": C, "total": A + B + C}`` (under ``run_mode="replace"``, ``runs`` is what the suits
    score beyond their plain suit values)."""
    c = Config.from_kwargs(**config)
    cfg = c.to_array()
    m = np.uint64(_natural_mask(cards))
    rank = int(_rank_block(m, cfg[C_PAIR]))
    both = int(_suit_and_runs(m, cfg[C_REPLACE], cfg[C_RUN2]))
    suit = 0
    for s_ in range(4):
        suit += int(SUIT_VALUE[int((int(m) >> (13 * s_)) & 0x1FFF).bit_count()])
    return {
        "rank": rank,
        "suit": suit,
        "runs": both - suit,
        "suit_and_runs": both,
        "total": rank + both,
    }
