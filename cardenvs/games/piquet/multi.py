"""Piquet for three and four: Piquet normand and partnership Piquet, one multi-seat engine.

Two registered ids share this module, which shares the two-handed rules module
(``games.piquet.rules``) for every primitive: the 32-card deck and card indices, point values,
``point_of`` (point by cards then value), ``sequences_of``, ``sets_of``, the card-set helpers and
the action naming. Nothing of the declaration or card logic is copied here.

- ``piquet_normand-v0`` (3 players, spec 3.4, seed "Picket Norman");
- ``partnership_piquet-v0`` (4 players, 2 v 2, spec 3.3, seed "Picket Diebe" = Piquet voleur).

Rules: ``docs/games/piquet.md`` sections 2 (the base game), 3.3, 3.4, 4 (A21-A23) and 6 ("the
spec" below).

Rules summary (defaults)
------------------------
Common to both (spec 2, "the usual rules of Piquet"): 32 cards, A K Q J 10 9 8 7, no trumps;
seats clockwise, the deal passes to the left; **eldest** = the dealer's left, who is reckoned
first and leads the first trick. Declarations are resolved automatically (no sinking, A3):
carte blanche (10, a dealt hand without K, Q, J), point, sequences (3, 4, then n + 10; the
best player scores all his sequences), sets of A K Q J 10 (trio 3, quatorze 14; the best player
scores all his sets). The cards of scored or equal combinations and a carte blanche become
public. **Repique**: a side reaching 20 in hand alone (reckoning order: carte blanche, point,
sequences, sets) before any other side has scored anything goes to 90 (+70) and counts on.
**Pique**: a side reaching 20 in hand and play before any other side has scored goes to 60
(+40) and counts on (A23: any side). Play: follow suit if able, the highest card of the led
suit wins, the winner leads; 1 for each card led, 1 for winning a trick an opponent led, +1
for the last trick.

Piquet normand (3.4): 10 cards each, a 2-card talon for the dealer only, who discards 2 and
takes the talon (``normand_dealer_exchange="must"``; ``"may"``: 0-2). Declarations compared
among the three: point by cards then value. The player taking the most of the 10 tricks
(strictly) scores 10; all 10 tricks (capot) 20 instead; a tie for most scores nothing (A22).
The game goes to ``target`` (default 100): a player who has reached it at the end of a deal
drops out, the other two continue, and the one who fails to reach it pays both winners.

Partnership Piquet (3.3): 4 players, partners opposite (seats 0 & 2 v 1 & 3), 8 cards each,
no talon, no exchange. The point is compared by value (pip total) and may be announced only
from ``point_minimum`` (30); a player speaks only with a higher point than the one announced
(the seed's partner restriction, ADP's "speaks only if he has a higher point"), so an equal
point goes to the earlier speaker from eldest round; the winner scores one per card of it. The
best player of each category scores all his own combinations of it for his side. Tricks are
pooled: the side taking 5-8 tricks scores 10, all 8 (capot) 40 instead. The game goes to
``target`` (default 100) side points.

Choices where the spec leaves things open
-----------------------------------------
- Carte blanche applies in both variants (the seed: "the usual rules of Piquet"; the spec is
  silent), ``carte_blanche=True``; the holder's dealt hand becomes public when play starts
  (after the normand dealer's exchange, the latest point at which 2.3 shows it). Several
  holders all score 10, in order from eldest.
- Equalities (normand point and sequences, partnership sequences): an equal best between any
  two players cancels the category for everybody (2.5 "equality nullifies"); each tied player's
  point suit or best sequence is shown. Sets cannot tie.
- Partnership point: two suits of one hand with the same value: the longer one is his point
  (it scores more), then the lower suit index. Ties between players go to the earlier speaker,
  partners and opponents alike (ADP).
- Only the declarations' outcome, the winner's points and the shown cards are public; the
  calls of losing hands are not modelled (at the table some of them are heard).
- Capture: winning a trick led by an opponent scores 1 (partnership: a trick the partner led
  scores no capture, 2.8 "a trick the opponent led"). The 10/20/40 for the cards never counts
  toward a pique (A11 default). Every card scores in play (A6 default).
- Normand dealer's exchange: canonical order (each discard a higher card index than the last:
  suits S, H, D, C, ranks 7..A), drawing from the top of the talon; with ``"may"`` he ends
  with ``stop`` after 0-1 discards and privately sees the talon cards he left (as elder sees
  his untaken cards in 2.4); the number he took is public.
- Normand end: "reaching the target" is checked at the end of each deal (not mid-deal). The
  players who reach it drop out; while two or more players have not, the game goes on. After
  one player has dropped out the other two play on with the same deal: the dealer (the next
  remaining player to the left) still deals three packets of 10 and the talon; the packet of
  the player who is out is set aside unseen ("dead"), and the two play 10 tricks with the
  normand scoring (plurality = 6+ tricks, 5-5 scores nothing, capot 20). When the last two
  reach the target in the same deal, the lower total fails (equal totals fail together); when
  all three reach it in one deal, the lowest total fails (all equal: a draw).
- Partnership end: a side at or over ``target`` at the end of a deal with the higher total
  wins; equal totals at or over it play another deal.
- Safety bound: the game also ends after ``MAX_DEALS`` (120) deals (unreachable with
  target <= 300 in practice): normand, the lowest total among the players still in fails;
  partnership, the higher total wins, equal totals draw.
- A deal's ``points`` in the record are what each seat's side scored in that deal (partners
  show the same number; a normand player who is out shows 0); ``totals`` are added per deal.
- ``allow_sinking=True`` is rejected (sinking is not implemented for these variants).
- Determinization for search (``env.unwrapped.determinize``, ISMCTS; see ``determinize``):
  a seat keeps its own cards (the normand dealer: his discards, and the talon once he has
  taken it), every card played, the shown cards and a public carte blanche; everything else is
  redrawn uniformly among the deals that agree with what it observed: voids shown in play (the
  ``void`` state field, not observed as such: every seat watched the tricks), the cards each
  seat played or showed in his hand, carte blanche or not, and the declarations (the redrawn
  hands must reproduce their outcomes, points and shown cards exactly). Not used: what the
  others' free choices (which card, how many exchanged) suggest. Approximation: when no
  uniform draw agrees within ``DETERMINIZE_TRIES`` (rare: heavily constrained positions), a
  random walk of consistent swaps from the true deal is used instead -- still consistent, but
  not exactly uniform and possibly correlated with the true cards.

Episodes and rewards
--------------------
Every game ends with winners and losers: the losers pay each winner (a draw: nobody pays).

| ``episode`` | ``reward`` | reward per seat at the end |
|---|---|---|
| ``"game"`` (default) | ``"win"`` (default) | winners +1 each; the losers share the payment |
| ``"game"`` | ``"score"`` | winners + (own total − the losers' mean total); losers share it |
| ``"deal"`` | ``"win"`` | as ``"win"``, by the deal's points |
| ``"deal"`` | ``"score"`` | as ``"score"``, with the deal's points |

Winners and losers: normand game, the two who reached the target / the one who failed (normand
rewards +1, +1, −2); partnership game, the side with the higher total (+1, +1, −1, −1); a
deal, the highest deal points (partnership: side points) / the rest; all equal: a draw (0).

Rewards are zero-sum across seats, partners always get the same, and all are paid on the step
that ends the episode.

Actions (65)
------------
| ids | name | when |
|---|---|---|
| 0–31 | ``discard <card>`` | normand dealer's exchange; card index above the last discard |
| 32–63 | ``play <card>`` | trick play; must follow suit if able |
| 64 | ``stop`` | normand, ``normand_dealer_exchange="may"``: end the exchange early |

Card index = suit * 8 + (rank − 7), suits S, H, D, C, ranks 7 8 9 10 J Q K A.

``options={"deck": [...]}`` lists the 32 cards: the hands in seat order from the dealer's left
(normand: 10, 10, 10 with the dealer's last; partnership: 8 each, the dealer's last), then
the talon from the top (normand: 2 cards). ``options={"dealer": seat}`` fixes the first dealer
(else drawn from the seed).

Observation
-----------
A flat ``float32`` vector, egocentric: seat-indexed blocks are relative to the observer
(block ``k`` = the seat ``k`` places to his left; ``k = 0`` is himself). Partnership: the
partner is ``k = 2``. Per-side numbers are written for every seat of the side. Tables:

Piquet normand (3 seats):

{obs_table_3}

Partnership Piquet (4 seats):

{obs_table_4}

Config
------
``piquet_normand-v0``:

{config_normand}

``partnership_piquet-v0``:

{config_partnership}

Version history
---------------
- v0: first release of both ids. Later, same version (rules, observations and records
  unchanged): the ``void`` state field and the determinization for search; then the ``legal``
  state field (the legal set of the seat to act, written with each mask and read to check the
  next action).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from numba import njit

from cardenvs.core.prefetch import STEP_BLOCK, prefetch_ahead

from ...core import rng
from ...core.bitmask import action_in, bit, clear, spread
from ...core.borrow import borrowed_step
from ...core.cards import format_card, format_cards
from ...core.game import GameConfig, GameDef, ObsField, layout_offsets, layout_table, option
from ...core.seats import at, seat_mod
from ...core.state import PackedState, StateLayout
from .cards import _from_suit_bits, _local32, _planes, _suit_bits, gid, lid
from .constants import DECK
from .declare import _VALUE_KEY, point_of, sequences_of, sets_of
from .search import _cards_of, _mask_of

VERSION = 0
NAME_NORMAND = "piquet_normand"
NAME_PARTNERSHIP = "partnership_piquet"
MAX_SEATS = 4
NUM_CARDS = 32
NORMAND_HAND = 10
NORMAND_TALON = 2
PARTNERSHIP_HAND = 8
MAX_DEALS = 120

# --- actions -----------------------------------------------------------------------------------
ACTION_DISCARD = 0
ACTION_PLAY = 32
ACTION_STOP = 64
NUM_ACTIONS = 65
ACTION_NAMES = tuple(
    [f"discard {format_card(c)}" for c in DECK.cards.tolist()]
    + [f"play {format_card(c)}" for c in DECK.cards.tolist()]
    + ["stop"]
)

# --- phases ------------------------------------------------------------------------------------
PHASE_EXCHANGE = 0
PHASE_PLAY = 1
PHASE_OVER = 2
PHASE_NAMES = ("exchange", "play", "over")

# --- variants and scoring constants (spec 3.3, 3.4, 2.5, 2.8) ----------------------------------
MODE_NORMAND = 0
MODE_PARTNERSHIP = 1
CARTE_BLANCHE = 10
PIQUE_AT = 20  # "20 → 60" / "20 → 90" (seed; ADP)
PIQUE_BONUS = 40  # 20 becomes 60
REPIQUE_BONUS = 70  # 20 becomes 90
CARDS_BONUS = 10
NORMAND_CAPOT = 20
PARTNERSHIP_CAPOT = 40
PARTNERSHIP_MAJORITY = 5
CAT_POINT, CAT_SEQUENCE, CAT_SETS = 0, 1, 2
OUTCOME_EQUAL, OUTCOME_NONE = 4, 5  # 0..3 = the winning seat
BONUS_PIQUE, BONUS_REPIQUE = 1, 2

# --- kernel config vector (``Config.to_array``) ------------------------------------------------
K_EPISODE, K_REWARD, K_MODE, K_SEATS, K_HAND, K_TARGET = 0, 1, 2, 3, 4, 5
K_EXCH_MIN, K_SETS_HIGH, K_CB, K_POINT_MIN = 6, 7, 8, 9
K_SIZE = 10


@dataclasses.dataclass(frozen=True)
class _MultiConfig(GameConfig):
    """The options both multi-seat variants offer, and their kernel encoding."""

    set_ranks: str = option(
        "AKQJT", ("AKQJT", "KQJT"), doc="ranks that form trios/quatorzes (A2; 'KQJT' = seed)"
    )
    carte_blanche: bool = option(True, doc="a dealt hand without K, Q, J scores 10 (2.3)")
    allow_sinking: bool = option(False, doc="not supported: must be False (A3)")

    def __post_init__(self):
        super().__post_init__()
        if self.allow_sinking:
            raise self.error(
                "allow_sinking",
                "= True is not supported: this variant resolves the declarations "
                "automatically; allowed: False",
            )

    def _common_array(self, mode: int, seats: int, hand: int) -> np.ndarray:
        out = np.zeros(K_SIZE, np.int64)
        out[K_EPISODE] = self.encode("episode", self.episode)
        out[K_REWARD] = self.encode("reward", self.reward)
        out[K_MODE], out[K_SEATS], out[K_HAND] = mode, seats, hand
        out[K_TARGET] = self.target
        out[K_SETS_HIGH] = 7 if self.set_ranks == "AKQJT" else 6
        out[K_CB] = int(self.carte_blanche)
        return out


@dataclasses.dataclass(frozen=True)
class NormandConfig(_MultiConfig):
    """Piquet normand options (spec 3.4). See the module docstring for the table."""

    target: int = option(100, low=1, high=300, doc="points that end a player's game (3.4)")
    normand_dealer_exchange: str = option(
        "must", ("must", "may"), doc="the dealer exchanges exactly 2 cards, or 0-2 (3.4)"
    )

    def to_array(self) -> np.ndarray:
        out = self._common_array(MODE_NORMAND, 3, NORMAND_HAND)
        out[K_EXCH_MIN] = NORMAND_TALON if self.normand_dealer_exchange == "must" else 0
        return out


@dataclasses.dataclass(frozen=True)
class PartnershipConfig(_MultiConfig):
    """Partnership Piquet options (spec 3.3). See the module docstring for the table."""

    target: int = option(100, low=1, high=300, doc="side points that end the game (3.3)")
    point_minimum: int = option(
        30, low=0, high=88, doc="the least point value that may be announced (A21)"
    )

    def to_array(self) -> np.ndarray:
        out = self._common_array(MODE_PARTNERSHIP, 4, PARTNERSHIP_HAND)
        out[K_POINT_MIN] = self.point_minimum
        return out


# --- state -------------------------------------------------------------------------------------
# Per-side fields: normand side = seat, partnership side = seat % 2 (0 = seats 0 & 2).
STATE_FIELDS = (
    ("hand", "m", 4, "cards held per seat"),
    ("dealt", "m", 4, "the hands as dealt (carte blanche is judged on these)"),
    ("shown", "m", 4, "public cards per seat: scored or equal combinations, a carte blanche"),
    ("played", "m", 4, "cards each seat has played this deal"),
    ("discards", "m", 1, "the normand dealer's discards this deal"),
    ("seen", "m", 1, "talon cards the normand dealer saw and did not take"),
    ("table", "m", 1, "cards of the current trick"),
    ("key", "m", 1, "the row's random key (from the seed)"),
    ("episode", "m", 1, "episode index since the last seeding"),
    ("legal", "m", 2, "legal actions of the seat to act (bit a of word a // 64; a cache)"),
    # v (int16) bounds (tests/test_score_bounds.py), never negative. A side in one deal:
    # partnership 2 x carte blanche 10 + one 8-card hand's point 8 + sequences <= 24 + sets
    # <= 28 + repique 70 + play 8 + 1 + capot 40 = 199 (normand 184)
    ("deal_score", "v", 4, "points scored this deal per side"),  # <= 199
    ("total", "v", 4, "game totals per side"),  # <= MAX_DEALS 120 x 199 = 23,880
    ("last_points", "v", 4, "per seat: what the last finished deal added to his side"),  # <= 199
    ("decl_pts", "v", 3, "per category (point, sequence, sets): the winner's points"),  # <= 35
    ("deck", "f", 32, "this deal's deck order (hands from the dealer's left, then the talon)"),
    ("deal_no", "f", 1, "current deal, 0-based"),
    ("dealer", "f", 1, "seat of the dealer"),
    ("current", "f", 1, "seat to act, -1 when the game is over"),
    ("phase", "f", 1, "PHASE_*"),
    ("finished", "f", 4, "normand: the deal (1-based) in which the seat reached the target"),
    ("cb", "f", 4, "1 if the seat's dealt hand is a carte blanche (public from the play)"),
    ("ndisc", "f", 1, "cards the dealer has discarded so far"),
    ("last_disc", "f", 1, "card index of the last discard (-1 none)"),
    ("talon_pos", "f", 1, "talon cards taken (the number the dealer exchanged, public)"),
    ("trick_leader", "f", 1, "seat that led the current trick"),
    ("trick_n", "f", 1, "cards played to the current trick"),
    ("led", "f", 1, "card led to the current trick (global id, -1 none)"),
    ("best", "f", 1, "seat holding the current trick so far"),
    ("best_card", "f", 1, "the card holding the current trick"),
    ("tricks", "f", 4, "tricks won this deal per seat"),
    (
        "void",
        "f",
        4,
        "suits each seat is known to lack this deal (bit per suit): it failed to follow",
    ),
    ("decl_win", "f", 3, "per category: winning seat, OUTCOME_EQUAL or OUTCOME_NONE"),
    ("bonus", "f", 4, "per side: BONUS_PIQUE / BONUS_REPIQUE this deal"),
    ("outcome", "f", 4, "per seat once the game is over: 1 winner, -1 loser, 0 neither"),
    ("winner", "f", 1, "a winning seat (normand: the first to finish; partnership: side), -1"),
)

LAYOUT = StateLayout("piquet_multi", STATE_FIELDS)
State = PackedState
M_HAND, M_DEALT, M_SHOWN, M_PLAYED = (
    LAYOUT.offset(k) for k in ("hand", "dealt", "shown", "played")
)
M_DISCARDS, M_SEEN, M_TABLE = (LAYOUT.offset(k) for k in ("discards", "seen", "table"))
M_KEY, M_EPISODE, M_LEGAL = (LAYOUT.offset(k) for k in ("key", "episode", "legal"))
V_DEAL_SCORE, V_TOTAL, V_LAST_POINTS, V_DECL_PTS = (
    LAYOUT.offset(k) for k in ("deal_score", "total", "last_points", "decl_pts")
)
F_DECK, F_DEAL_NO, F_DEALER, F_CURRENT, F_PHASE = (
    LAYOUT.offset(k) for k in ("deck", "deal_no", "dealer", "current", "phase")
)
F_FINISHED, F_CB, F_NDISC, F_LAST_DISC, F_TALON_POS = (
    LAYOUT.offset(k) for k in ("finished", "cb", "ndisc", "last_disc", "talon_pos")
)
F_TRICK_LEADER, F_TRICK_N, F_LED, F_BEST, F_BEST_CARD = (
    LAYOUT.offset(k) for k in ("trick_leader", "trick_n", "led", "best", "best_card")
)
F_TRICKS, F_DECL_WIN, F_BONUS, F_OUTCOME, F_WINNER = (
    LAYOUT.offset(k) for k in ("tricks", "decl_win", "bonus", "outcome", "winner")
)
F_VOID = LAYOUT.offset("void")


def new_state(n: int) -> State:
    """A zeroed state for ``n`` games."""
    return LAYOUT.new(n)


def field(s: State, name: str) -> np.ndarray:
    """A writable view of state field ``name`` over all rows."""
    return LAYOUT.field(s, name)


# --- observation -------------------------------------------------------------------------------
def obs_layout(p: int) -> tuple[ObsField, ...]:
    """The observation blocks for ``p`` seats (relative seat ``k`` = ``k`` places to the left)."""
    return (
        ObsField("hand", 32, 1.0, "own cards"),
        ObsField("own_discards", 32, 1.0, "own discards this deal (normand dealer)"),
        ObsField("talon_seen", 32, 1.0, "talon cards seen and not taken (normand dealer, 'may')"),
        ObsField("played", 32 * p, 1.0, "cards each relative seat played this deal"),
        ObsField(
            "shown",
            32 * p,
            1.0,
            "public cards per relative seat: scored/equal combinations, "
            "a carte blanche's dealt hand",
        ),
        ObsField("trick_lead", 32, 1.0, "card led to the current trick (if any)"),
        ObsField("table", 32, 1.0, "cards of the current trick"),
        ObsField("phase", 3, 1.0, "one-hot: exchange, play, over"),
        ObsField("to_act", 1, 1.0, "1 if the observing seat is to act"),
        ObsField("dealer", p, 1.0, "one-hot relative seat of the dealer"),
        ObsField("trick_leader", p, 1.0, "one-hot relative seat that led the current trick"),
        ObsField("in_game", p, 1.0, "per relative seat: still playing (normand: not dropped out)"),
        ObsField("carte_blanche", p, 1.0, "per relative seat: holds a carte blanche (from play)"),
        ObsField(
            "decl_outcome",
            3 * (p + 2),
            1.0,
            "per category (point, sequence, sets): won by relative seat 0..P-1 / equal / nobody",
        ),
        ObsField("decl_points", 3, 2.0, "per category: the winner's points, / 20"),
        ObsField("bonus", 2 * p, 1.0, "per relative seat: his side's pique, repique"),
        ObsField("exchanged", 1, 1.0, "cards the normand dealer exchanged, / 2"),
        ObsField("tricks", p, 1.0, "tricks won per relative seat, / 10"),
        ObsField("deal_score", p, 5.0, "his side's points this deal per relative seat, / 100"),
        ObsField(
            "total", p, 10.0, "his side's game total per relative seat, / 100 (clipped at 10)"
        ),
        ObsField("target", 1, 1.0, "the target, / 300"),
        ObsField("deal_no", 1, 1.0, "deal number (0-based), / 120"),
    )


OBS_LAYOUTS = {3: obs_layout(3), 4: obs_layout(4)}
OBS_NAMES = tuple(f.name for f in OBS_LAYOUTS[3])
# start offset of every block per seat count: _OBS_OFF[p, block index]
_OBS_OFF = np.zeros((5, len(OBS_NAMES) + 1), np.int64)
for _p, _lay in OBS_LAYOUTS.items():
    _off = layout_offsets(_lay)
    for _i, _name in enumerate(OBS_NAMES):
        _OBS_OFF[_p, _i] = _off[_name]
    _OBS_OFF[_p, len(OBS_NAMES)] = sum(f.size for f in _lay)
(
    B_HAND,
    B_DISC,
    B_SEEN,
    B_PLAYED,
    B_SHOWN,
    B_LEAD,
    B_TABLE,
    B_PHASE,
    B_TO_ACT,
    B_DEALER,
    B_LEADER,
    B_IN_GAME,
    B_CB,
    B_OUTCOME,
    B_DPTS,
    B_BONUS,
    B_XCH,
    B_TRICKS,
    B_DSCORE,
    B_TOTAL,
    B_TARGET,
    B_DEALNO,
    B_END,
) = range(len(OBS_NAMES) + 1)
OBS_DIMS = {p: int(_OBS_OFF[p, B_END]) for p in OBS_LAYOUTS}


__doc__ = (
    __doc__.replace("{obs_table_3}", layout_table(OBS_LAYOUTS[3]))
    .replace("{obs_table_4}", layout_table(OBS_LAYOUTS[4]))
    .replace("{config_normand}", NormandConfig.describe())
    .replace("{config_partnership}", PartnershipConfig.describe())
)

_NO_DECK = np.full(1, -1, np.int8)


# --- seats and sides ---------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _side(cfg, seat):
    """The side a seat scores for: his own (normand) or his partnership (seat % 2)."""
    return seat & 1 if cfg[K_MODE] == MODE_PARTNERSHIP else seat


@njit(cache=True, inline="always")
def _num_sides(cfg):
    return 2 if cfg[K_MODE] == MODE_PARTNERSHIP else cfg[K_SEATS]


@njit(cache=True, inline="always")
def _in_game(s, b, seat):
    """The seat (``>= 0``) still plays (normand: has not reached the target and dropped out)."""
    return s.f[b, at(F_FINISHED, seat)] == 0


@njit(cache=True, inline="always")
def _next_in_game(s, b, cfg, seat):
    """The next seat to the left of ``seat`` still in the game (play and deal go clockwise)."""
    p = cfg[K_SEATS]
    for k in range(1, p + 1):
        t = seat_mod(seat + k, p)
        if _in_game(s, b, t):
            return t
    return seat


@njit(cache=True, inline="always")
def _players(s, b, cfg):
    n = 0
    for seat in range(cfg[K_SEATS]):
        if _in_game(s, b, seat):
            n += 1
    return n


@njit(cache=True, inline="always")
def _has_face(mask):
    # K, Q, J are piquet ranks 4, 5, 6 in every suit (carte blanche, 2.3)
    for suit in range(4):
        if _suit_bits(mask, suit) & 0x70:
            return True
    return False


# --- declarations (2.5, 3.3, 3.4) --------------------------------------------------------------
@njit(cache=True)
def point_by_value(mask):
    """Best point of a hand by pip total (3.3, A21): (value, cards, suit); equal values: the
    longer suit, then the lower suit index (one table lookup per suit: ``rules._suit_tables``)."""
    best_key, best_s = 0, -1
    for suit in range(4):
        key = _VALUE_KEY[_suit_bits(mask, suit)]  # value * 16 + cards
        if key > best_key:
            best_key, best_s = key, suit
    return best_key >> 4, best_key & 15, best_s


@njit(cache=True)
def _score_hand(s, b, cfg, side, pts):
    """Reckon ``pts`` in hand for ``side``; 20 before any other side scores → 90 (repique)."""
    if pts <= 0:
        return
    s.v[b, V_DEAL_SCORE + side] += pts
    _bonus(s, b, cfg, side, REPIQUE_BONUS, BONUS_REPIQUE)


@njit(cache=True, inline="always")
def _score_play(s, b, cfg, side, pts):
    """Score ``pts`` in play for ``side``; 20 in hand and play before any other side scores →
    60 (pique, any side, A23)."""
    if pts <= 0:
        return
    s.v[b, V_DEAL_SCORE + side] += pts
    _bonus(s, b, cfg, side, PIQUE_BONUS, BONUS_PIQUE)


@njit(cache=True)
def _bonus(s, b, cfg, side, amount, code):
    if s.v[b, V_DEAL_SCORE + side] < PIQUE_AT:
        return
    for t in range(_num_sides(cfg)):
        if s.f[b, F_BONUS + t] != 0 or (t != side and s.v[b, V_DEAL_SCORE + t] != 0):
            return
    s.v[b, V_DEAL_SCORE + side] += amount
    s.f[b, F_BONUS + side] = code


@njit(cache=True)
def _point_key(s, b, cfg, seat):
    """(comparison key or -1 if he cannot announce, points, suit) of a seat's point."""
    hand = s.m[b, M_HAND + seat]
    if cfg[K_MODE] == MODE_PARTNERSHIP:
        v, n, suit = point_by_value(hand)
        if v < cfg[K_POINT_MIN] or n == 0:
            return -1, 0, suit
        return v, n, suit
    n, v, suit, score = point_of(hand, False)
    if n == 0:
        return -1, 0, suit
    return n * 256 + v, score, suit


@njit(cache=True)
def _declare(s, b, cfg):
    """Resolve the three categories among the seats in the game, reckoned in the order point,
    sequences, sets; speakers from eldest round. Writes ``decl_win``, ``decl_pts``, ``shown`` and
    the deal scores (2.5, 3.3, 3.4)."""
    p = cfg[K_SEATS]
    dealer = s.f[b, F_DEALER]
    partnership = cfg[K_MODE] == MODE_PARTNERSHIP
    # point: normand by cards then value, equal best cancels; partnership by value from the
    # minimum, a player speaks only with a higher point (the earlier speaker keeps a tie)
    best, w, pts, wsuit, equal = -1, -1, 0, -1, False
    for k in range(1, p + 1):
        seat = (dealer + k) % p
        if not _in_game(s, b, seat):
            continue
        key, sc, suit = _point_key(s, b, cfg, seat)
        if key > best:
            best, w, pts, wsuit, equal = key, seat, sc, suit, False
        elif key == best and key >= 0 and not partnership:
            equal = True
    if best < 0:
        s.f[b, F_DECL_WIN + CAT_POINT] = OUTCOME_NONE
    elif equal:
        s.f[b, F_DECL_WIN + CAT_POINT] = OUTCOME_EQUAL
        for seat in range(p):
            if _in_game(s, b, seat):
                key, sc, suit = _point_key(s, b, cfg, seat)
                if key == best:
                    s.m[b, M_SHOWN + seat] |= s.m[b, M_HAND + seat] & _from_suit_bits(0xFF, suit)
    else:
        s.f[b, F_DECL_WIN + CAT_POINT] = w
        s.m[b, M_SHOWN + w] |= s.m[b, M_HAND + w] & _from_suit_bits(0xFF, wsuit)
        s.v[b, V_DECL_PTS + CAT_POINT] = pts
        _score_hand(s, b, cfg, _side(cfg, w), pts)
    # sequences: length, then top card; the best scores all his; an equal best cancels all
    best, w, equal = -1, -1, False
    for k in range(1, p + 1):
        seat = (dealer + k) % p
        if not _in_game(s, b, seat):
            continue
        ln, top, tot, cards, bcards = sequences_of(s.m[b, M_HAND + seat])
        key = ln * 8 + top if ln >= 3 else -1
        if key > best:
            best, w, equal = key, seat, False
        elif key == best and key >= 0:
            equal = True
    if best < 0:
        s.f[b, F_DECL_WIN + CAT_SEQUENCE] = OUTCOME_NONE
    elif equal:
        s.f[b, F_DECL_WIN + CAT_SEQUENCE] = OUTCOME_EQUAL
        for seat in range(p):
            if _in_game(s, b, seat):
                ln, top, tot, cards, bcards = sequences_of(s.m[b, M_HAND + seat])
                if ln >= 3 and ln * 8 + top == best:
                    s.m[b, M_SHOWN + seat] |= bcards
    else:
        ln, top, tot, cards, bcards = sequences_of(s.m[b, M_HAND + w])
        s.f[b, F_DECL_WIN + CAT_SEQUENCE] = w
        s.m[b, M_SHOWN + w] |= cards
        s.v[b, V_DECL_PTS + CAT_SEQUENCE] = tot
        _score_hand(s, b, cfg, _side(cfg, w), tot)
    # sets: a quatorze beats a trio, then the rank; no equality is possible
    best, w = -1, -1
    for k in range(1, p + 1):
        seat = (dealer + k) % p
        if not _in_game(s, b, seat):
            continue
        n, r, tot, cards = sets_of(s.m[b, M_HAND + seat], cfg[K_SETS_HIGH])
        key = n * 8 + r if n >= 3 else -1
        if key > best:
            best, w = key, seat
    if best < 0:
        s.f[b, F_DECL_WIN + CAT_SETS] = OUTCOME_NONE
    else:
        n, r, tot, cards = sets_of(s.m[b, M_HAND + w], cfg[K_SETS_HIGH])
        s.f[b, F_DECL_WIN + CAT_SETS] = w
        s.m[b, M_SHOWN + w] |= cards
        s.v[b, V_DECL_PTS + CAT_SETS] = tot
        _score_hand(s, b, cfg, _side(cfg, w), tot)


# --- deal flow ---------------------------------------------------------------------------------
@njit(cache=True)
def _deal(s, b, cfg, dealer):
    """Deal the row's deck: packets in seat order from the dealer's left, then the talon; the
    packet of a normand player who is out is set aside unseen."""
    p, h = cfg[K_SEATS], cfg[K_HAND]
    s.f[b, F_DEALER] = dealer
    for k in range(p):
        seat = (dealer + 1 + k) % p
        m = np.uint64(0)
        if _in_game(s, b, seat):
            for i in range(h):
                m |= bit(s.f[b, F_DECK + k * h + i])
        s.m[b, M_HAND + seat] = m
        s.m[b, M_DEALT + seat] = m
        s.f[b, F_CB + seat] = 1 if (cfg[K_CB] and m != np.uint64(0) and not _has_face(m)) else 0
    for seat in range(MAX_SEATS):
        s.m[b, M_SHOWN + seat] = 0
        s.m[b, M_PLAYED + seat] = 0
        s.f[b, F_TRICKS + seat] = 0
        s.f[b, F_VOID + seat] = 0
        s.f[b, F_BONUS + seat] = 0
        s.v[b, V_DEAL_SCORE + seat] = 0
        if seat >= p:
            s.m[b, M_HAND + seat] = 0
            s.m[b, M_DEALT + seat] = 0
            s.f[b, F_CB + seat] = 0
    for c in range(3):
        s.f[b, F_DECL_WIN + c] = OUTCOME_NONE
        s.v[b, V_DECL_PTS + c] = 0
    s.m[b, M_DISCARDS] = 0
    s.m[b, M_SEEN] = 0
    s.m[b, M_TABLE] = 0
    s.f[b, F_NDISC] = 0
    s.f[b, F_LAST_DISC] = -1
    s.f[b, F_TALON_POS] = 0
    s.f[b, F_TRICK_N] = 0
    s.f[b, F_LED] = -1
    s.f[b, F_BEST] = -1
    s.f[b, F_BEST_CARD] = -1
    s.f[b, F_TRICK_LEADER] = _next_in_game(s, b, cfg, dealer)
    if cfg[K_MODE] == MODE_NORMAND:
        s.f[b, F_PHASE] = PHASE_EXCHANGE  # only the dealer exchanges (3.4)
        s.f[b, F_CURRENT] = dealer
    else:
        _start_play(s, b, cfg)  # no talon, no exchange (3.3)


@njit(cache=True)
def _start_play(s, b, cfg):
    """Carte blanche, then the declarations, then eldest leads (2.3, 2.5, 2.7)."""
    p = cfg[K_SEATS]
    dealer = s.f[b, F_DEALER]
    for k in range(1, p + 1):
        seat = (dealer + k) % p
        if s.f[b, F_CB + seat]:
            s.m[b, M_SHOWN + seat] |= s.m[b, M_DEALT + seat]
            _score_hand(s, b, cfg, _side(cfg, seat), CARTE_BLANCHE)
    _declare(s, b, cfg)
    s.f[b, F_PHASE] = PHASE_PLAY
    eldest = _next_in_game(s, b, cfg, dealer)
    s.f[b, F_CURRENT] = eldest
    s.f[b, F_TRICK_LEADER] = eldest


@njit(cache=True)
def _shuffled_deck(s, b):
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], s.f[b, F_DEAL_NO])
    for i in range(NUM_CARDS):
        s.f[b, F_DECK + i] = gid(i)
    rng.shuffle(base, s.f[b, F_DECK : F_DECK + NUM_CARDS])


@njit(cache=True)
def _reset(s, b, cfg, key, episode, deck, dealer):
    """Start a game in row ``b`` (``deck[0] < 0``: shuffle; ``dealer < 0``: draw)."""
    s.m[b, M_KEY] = key
    s.m[b, M_EPISODE] = episode
    s.f[b, F_DEAL_NO] = 0
    for seat in range(MAX_SEATS):
        s.v[b, V_TOTAL + seat] = 0
        s.v[b, V_LAST_POINTS + seat] = 0
        s.f[b, F_FINISHED + seat] = 0
        s.f[b, F_OUTCOME + seat] = 0
    s.f[b, F_WINNER] = -1
    if deck[0] < 0:
        _shuffled_deck(s, b)
    else:
        for i in range(NUM_CARDS):
            s.f[b, F_DECK + i] = deck[i]
    if dealer < 0:
        dealer = rng.draw(rng.stream(key, episode, MAX_DEALS), 0, cfg[K_SEATS])
    _deal(s, b, cfg, dealer)


@njit(cache=True)
def _finish_exchange(s, b, cfg):
    """The dealer takes as many talon cards as he discarded, from the top, and sees the rest
    (3.4); then play starts."""
    dealer = s.f[b, F_DEALER]
    k = s.f[b, F_NDISC]
    top = cfg[K_SEATS] * cfg[K_HAND]
    for i in range(NORMAND_TALON):
        c = bit(s.f[b, F_DECK + top + i])
        if i < k:
            s.m[b, M_HAND + dealer] |= c
        else:
            s.m[b, M_SEEN] |= c
    s.f[b, F_TALON_POS] = k
    _start_play(s, b, cfg)


@njit(cache=True, inline="always")
def _play(s, b, cfg, card):
    seat = s.f[b, F_CURRENT]
    s.m[b, M_HAND + seat] &= ~bit(card)
    s.m[b, M_PLAYED + seat] |= bit(card)
    s.m[b, M_TABLE] |= bit(card)
    if s.f[b, F_TRICK_N] == 0:
        s.f[b, F_LED] = card
        s.f[b, F_BEST] = seat
        s.f[b, F_BEST_CARD] = card
        s.f[b, F_TRICK_LEADER] = seat
        _score_play(s, b, cfg, _side(cfg, seat), 1)  # 1 for the card led (2.8)
    elif card // 13 != s.f[b, F_LED] // 13:
        s.f[b, F_VOID + seat] |= 1 << (s.f[b, F_LED] // 13)  # he cannot follow: void (2.7)
    elif card % 13 > s.f[b, F_BEST_CARD] % 13:
        # the highest card of the led suit wins (2.7)
        s.f[b, F_BEST] = seat
        s.f[b, F_BEST_CARD] = card
    s.f[b, F_TRICK_N] += 1
    if s.f[b, F_TRICK_N] < _players(s, b, cfg):
        s.f[b, F_CURRENT] = _next_in_game(s, b, cfg, seat)
        return
    w = np.int64(s.f[b, F_BEST])
    leader = np.int64(s.f[b, F_TRICK_LEADER])
    if _side(cfg, w) != _side(cfg, leader):
        _score_play(s, b, cfg, _side(cfg, w), 1)  # winning a trick an opponent led (2.8)
    s.f[b, F_TRICKS + w] += 1
    s.f[b, F_TRICK_N] = 0
    s.f[b, F_LED] = -1
    s.f[b, F_BEST] = -1
    s.f[b, F_BEST_CARD] = -1
    s.m[b, M_TABLE] = 0
    done = 0
    for t in range(cfg[K_SEATS]):
        done += s.f[b, F_TRICKS + t]
    if done == cfg[K_HAND]:
        _score_play(s, b, cfg, _side(cfg, w), 1)  # the last trick (2.8)
        _end_deal(s, b, cfg)
        return
    s.f[b, F_CURRENT] = w
    s.f[b, F_TRICK_LEADER] = w


@njit(cache=True)
def _end_deal(s, b, cfg):
    """The cards / capot, the totals, then the next deal or the end (3.3, 3.4)."""
    p, h = cfg[K_SEATS], cfg[K_HAND]
    if cfg[K_MODE] == MODE_NORMAND:
        # a strict plurality of the 10 tricks scores 10, all 10 (capot) 20; a tie nothing (A22)
        most, who, ties = -1, -1, 0
        for seat in range(p):
            t = s.f[b, F_TRICKS + seat]
            if t > most:
                most, who, ties = t, seat, 1
            elif t == most:
                ties += 1
        if ties == 1:
            s.v[b, V_DEAL_SCORE + who] += NORMAND_CAPOT if most == h else CARDS_BONUS
    else:
        # pooled tricks: 5-7 score 10 for the side, all 8 (capot) 40 (3.3)
        for side in range(2):
            t = s.f[b, F_TRICKS + side] + s.f[b, F_TRICKS + side + 2]
            if t == h:
                s.v[b, V_DEAL_SCORE + side] += PARTNERSHIP_CAPOT
            elif t >= PARTNERSHIP_MAJORITY:
                s.v[b, V_DEAL_SCORE + side] += CARDS_BONUS
    for side in range(_num_sides(cfg)):
        s.v[b, V_TOTAL + side] += s.v[b, V_DEAL_SCORE + side]
    for seat in range(MAX_SEATS):
        s.v[b, V_LAST_POINTS + seat] = 0
        if seat < p and _in_game(s, b, seat):
            s.v[b, V_LAST_POINTS + seat] = s.v[b, V_DEAL_SCORE + _side(cfg, seat)]
    played = s.f[b, F_DEAL_NO] + 1
    if cfg[K_EPISODE] == 1:
        _outcome_by(s, b, cfg, V_DEAL_SCORE)
        return
    if cfg[K_MODE] == MODE_PARTNERSHIP:
        t0, t1 = s.v[b, V_TOTAL], s.v[b, V_TOTAL + 1]
        if (max(t0, t1) >= cfg[K_TARGET] and t0 != t1) or played >= MAX_DEALS:
            _outcome_by(s, b, cfg, V_TOTAL)
            return
    else:
        # who has reached the target drops out; the game goes on while two still play (3.4)
        for seat in range(p):
            if _in_game(s, b, seat) and s.v[b, V_TOTAL + seat] >= cfg[K_TARGET]:
                s.f[b, F_FINISHED + seat] = played
        left = _players(s, b, cfg)
        if left <= 1 or played >= MAX_DEALS:
            _normand_outcome(s, b, cfg, played, left)
            return
    s.f[b, F_DEAL_NO] = played
    _shuffled_deck(s, b)
    _deal(s, b, cfg, _next_in_game(s, b, cfg, s.f[b, F_DEALER]))


@njit(cache=True)
def _outcome_by(s, b, cfg, off):
    """End the game: the seats whose side has the highest ``v[off + side]`` win, the others
    lose; all equal: a draw."""
    p = cfg[K_SEATS]
    top = -32768
    for seat in range(p):
        top = max(top, np.int64(s.v[b, off + _side(cfg, seat)]))
    n_win = 0
    for seat in range(p):
        win = s.v[b, off + _side(cfg, seat)] == top
        s.f[b, F_OUTCOME + seat] = 1 if win else -1
        n_win += 1 if win else 0
    if n_win == p:
        for seat in range(p):
            s.f[b, F_OUTCOME + seat] = 0
    _game_over(s, b, cfg)


@njit(cache=True)
def _normand_outcome(s, b, cfg, played, left):
    """Normand end (3.4): the player who failed to reach the target pays both winners. When
    the last reach it in the same deal, the lowest total among them fails (equal: together)."""
    p = cfg[K_SEATS]
    # the candidates to fail: those still in (one, or more at the deal bound), else those who
    # finished in this very deal
    low = 32767
    for seat in range(p):
        cand = s.f[b, F_FINISHED + seat] == 0 if left >= 1 else s.f[b, F_FINISHED + seat] == played
        if cand:
            low = min(low, np.int64(s.v[b, V_TOTAL + seat]))
    n_lose = 0
    for seat in range(p):
        cand = s.f[b, F_FINISHED + seat] == 0 if left >= 1 else s.f[b, F_FINISHED + seat] == played
        lose = cand and s.v[b, V_TOTAL + seat] == low
        s.f[b, F_OUTCOME + seat] = -1 if lose else 1
        n_lose += 1 if lose else 0
    if n_lose == p:
        for seat in range(p):
            s.f[b, F_OUTCOME + seat] = 0
    _game_over(s, b, cfg)


@njit(cache=True)
def _game_over(s, b, cfg):
    """Phase over; ``winner``: partnership the winning side; normand the first winner to have
    finished (then the higher total, then the lower seat); -1 for a draw."""
    s.f[b, F_PHASE] = PHASE_OVER
    s.f[b, F_CURRENT] = -1
    w = -1
    for seat in range(cfg[K_SEATS]):
        if s.f[b, F_OUTCOME + seat] != 1:
            continue
        if w < 0:
            w = seat
            continue
        fw, fs = s.f[b, F_FINISHED + w], s.f[b, F_FINISHED + seat]
        fw = 127 if fw == 0 else fw
        fs = 127 if fs == 0 else fs
        if fs < fw or (fs == fw and s.v[b, V_TOTAL + seat] > s.v[b, V_TOTAL + w]):
            w = seat
    if w >= 0 and cfg[K_MODE] == MODE_PARTNERSHIP:
        w = w & 1
    s.f[b, F_WINNER] = w


@njit(cache=True)
def _write_rewards(s, b, cfg, out):
    """Zero-sum rewards of a finished episode (see the reward table): the losers pay each
    winner 1 (``"win"``) or his lead over their mean (``"score"``), sharing the payment."""
    p = cfg[K_SEATS]
    off = V_DEAL_SCORE if cfg[K_EPISODE] == 1 else V_TOTAL
    n_win, n_lose, lose_sum = 0, 0, 0.0
    for seat in range(p):
        o = s.f[b, F_OUTCOME + seat]
        if o == 1:
            n_win += 1
        elif o == -1:
            n_lose += 1
            lose_sum += s.v[b, off + _side(cfg, seat)]
    for seat in range(p):
        out[seat] = 0.0
    if n_win == 0 or n_lose == 0:
        return
    lose_mean = lose_sum / n_lose
    paid = 0.0
    for seat in range(p):
        if s.f[b, F_OUTCOME + seat] == 1:
            pay = 1.0 if cfg[K_REWARD] == 0 else s.v[b, off + _side(cfg, seat)] - lose_mean
            out[seat] = pay
            paid += pay
    for seat in range(p):
        if s.f[b, F_OUTCOME + seat] == -1:
            out[seat] = -paid / n_lose


# --- legal actions, step, observation ----------------------------------------------------------
@njit(cache=True, inline="always")
def _legal_sets(s, b, cfg):
    """Legal actions of the seat to act: (discard card set, play card set, stop legal)."""
    ph = s.f[b, F_PHASE]
    if ph == PHASE_OVER:
        return 0, 0, 0
    seat = s.f[b, F_CURRENT]
    hand = s.m[b, M_HAND + seat]
    if ph == PHASE_EXCHANGE:
        disc = 0
        if s.f[b, F_NDISC] < NORMAND_TALON:
            # canonical order: only cards above the last discard (6.1)
            disc = _local32(hand) & ~((np.int64(1) << (s.f[b, F_LAST_DISC] + 1)) - 1)
            if s.f[b, F_NDISC] + 1 < cfg[K_EXCH_MIN]:
                # a forced second discard must find a card above this one: not the highest
                for i in range(31, -1, -1):
                    if (disc >> i) & 1:
                        disc &= ~(np.int64(1) << i)
                        break
        return disc, 0, 1 if s.f[b, F_NDISC] >= cfg[K_EXCH_MIN] else 0
    led = s.f[b, F_LED]
    if led >= 0:
        follow = hand & _from_suit_bits(0xFF, led // 13)
        if follow != np.uint64(0):
            hand = follow  # must follow suit if able (2.7)
    return 0, _local32(hand), 0


@njit(cache=True, inline="always")  # into step_rows; the other callers: legal_row
def _legal(s, b, cfg, out):
    """Write the legal-action mask of the seat to act into ``out`` (all zero when over) and keep
    it in the state (``legal``, read by ``_is_legal``)."""
    disc, play, stop = _legal_sets(s, b, cfg)
    s.m[b, M_LEGAL] = np.uint64(disc) | (np.uint64(play) << np.uint64(ACTION_PLAY))
    s.m[b, M_LEGAL + 1] = np.uint64(stop)
    spread(disc, 32, out, ACTION_DISCARD)
    spread(play, 32, out, ACTION_PLAY)
    out[ACTION_STOP] = stop


@njit(cache=True, inline="always")
def _is_legal(s, b, cfg, a):
    """Is action ``a`` legal for the seat to act (the set ``_legal`` last wrote)?"""
    return action_in(s.m[b, M_LEGAL], s.m[b, M_LEGAL + 1], a, NUM_ACTIONS)


@njit(cache=True, inline="always")
def _apply(s, b, cfg, a):
    """Apply legal action ``a`` of the seat to act."""
    if s.f[b, F_PHASE] == PHASE_EXCHANGE:
        if a == ACTION_STOP:
            _finish_exchange(s, b, cfg)
            return
        card = gid(a - ACTION_DISCARD)
        dealer = s.f[b, F_DEALER]
        s.m[b, M_HAND + dealer] &= ~bit(card)
        s.m[b, M_DISCARDS] |= bit(card)
        s.f[b, F_NDISC] += 1
        s.f[b, F_LAST_DISC] = a - ACTION_DISCARD
        if s.f[b, F_NDISC] >= NORMAND_TALON:
            _finish_exchange(s, b, cfg)
    else:
        _play(s, b, cfg, gid(a - ACTION_PLAY))


@njit(cache=True, inline="always")  # into step_rows; the other callers: observe_row
def _observe(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (see the layout tables)."""
    p = cfg[K_SEATS]
    o = _OBS_OFF[p]
    clear(out, o[B_PHASE], o[B_END])
    dealer = s.f[b, F_DEALER]
    _planes(s.m[b, at(M_HAND, seat)], out, o[B_HAND])
    own_exchange = seat == dealer and cfg[K_MODE] == MODE_NORMAND
    _planes(s.m[b, M_DISCARDS] if own_exchange else np.uint64(0), out, o[B_DISC])
    _planes(s.m[b, M_SEEN] if own_exchange else np.uint64(0), out, o[B_SEEN])
    for k in range(p):
        t = seat_mod(seat + k, p)
        _planes(s.m[b, at(M_PLAYED, t)], out, o[B_PLAYED] + 32 * k)
        _planes(s.m[b, at(M_SHOWN, t)], out, o[B_SHOWN] + 32 * k)
    led = s.f[b, F_LED]
    spread(np.int64(1) << lid(led) if led >= 0 else 0, 32, out, o[B_LEAD])
    _planes(s.m[b, M_TABLE], out, o[B_TABLE])
    ph = s.f[b, F_PHASE]
    out[at(o[B_PHASE], ph)] = 1.0
    out[at(o[B_TO_ACT], 0)] = 1.0 if s.f[b, F_CURRENT] == seat else 0.0
    out[at(o[B_DEALER], seat_mod(dealer - seat, p))] = 1.0
    if s.f[b, F_TRICK_N] > 0:
        out[at(o[B_LEADER], seat_mod(s.f[b, F_TRICK_LEADER] - seat, p))] = 1.0
    for k in range(p):
        t = seat_mod(seat + k, p)
        side = _side(cfg, t)
        out[at(o[B_IN_GAME], k)] = 1.0 if _in_game(s, b, t) else 0.0
        if ph >= PHASE_PLAY and s.f[b, at(F_CB, t)]:
            out[at(o[B_CB], k)] = 1.0
        if s.f[b, at(F_BONUS, side)] == BONUS_PIQUE:
            out[at(o[B_BONUS], 2 * k)] = 1.0
        elif s.f[b, at(F_BONUS, side)] == BONUS_REPIQUE:
            out[at(o[B_BONUS], 2 * k + 1)] = 1.0
        out[at(o[B_TRICKS], k)] = s.f[b, at(F_TRICKS, t)] * (1.0 / 10.0)
        # deal scores stay below 2 (199 points); totals are clipped to the block's bound
        out[at(o[B_DSCORE], k)] = s.v[b, at(V_DEAL_SCORE, side)] * (1.0 / 100.0)
        out[at(o[B_TOTAL], k)] = min(s.v[b, at(V_TOTAL, side)] * (1.0 / 100.0), 10.0)
    if ph >= PHASE_PLAY:
        for c in range(3):
            w = s.f[b, F_DECL_WIN + c]
            if w == OUTCOME_EQUAL:
                k = p
            elif w == OUTCOME_NONE:
                k = p + 1
            else:
                k = seat_mod(w - seat, p)
            out[at(o[B_OUTCOME], (p + 2) * c + k)] = 1.0
            out[at(o[B_DPTS], c)] = s.v[b, V_DECL_PTS + c] * (1.0 / 20.0)
        out[at(o[B_XCH], 0)] = s.f[b, F_TALON_POS] * (1.0 / 2.0)
    out[at(o[B_TARGET], 0)] = cfg[K_TARGET] * (1.0 / 300.0)
    out[at(o[B_DEALNO], 0)] = s.f[b, F_DEAL_NO] * (1.0 / 120.0)


# --- batched kernels (the only entry points the front ends call) -------------------------------
@njit(cache=True)
def reset_rows(s, cfg, rows, keys, episodes, decks, dealers, obs, mask):
    """Start a game in each row of ``rows``; write its first observation and mask."""
    for i in range(rows.shape[0]):
        b = rows[i]
        _reset(s, b, cfg, keys[b], episodes[b], decks[b], dealers[b])
        legal_row(s, b, cfg, mask[b])
        observe_row(s, b, cfg, s.f[b, F_CURRENT], obs[b])


# The config vector's fields that each id fixes (``_MultiConfig._common_array``): every id has its
# own step kernel in which they are constants (``_fixed``).
assert (K_EPISODE, K_REWARD, K_MODE, K_SEATS, K_HAND, K_SIZE) == (0, 1, 2, 3, 4, 10)


@njit(cache=True, inline="always")
def _fixed(cfg, mode):
    """``cfg`` as a tuple in which the variant's mode, seat count and hand size are constants
    (normand: 3 seats of 10 cards, partnership: 4 of 8; ``to_array`` writes the same values).

    The kernels index the config with constant positions, so they read a tuple as they read the
    array; inlined into a step kernel that passes ``mode`` as a constant, every seat loop has a
    known trip count and every mode test is decided at compile time, and the config's values stay
    in registers (``core.borrow.fixed_config``). In alternating process pairs at N = 1024 the
    step got 1.27-1.54 times faster for normand and 1.22-1.87 for partnership (5 pairs each;
    the same outputs, hashed over 600 steps of 512 rows)."""
    seats = 4 if mode == MODE_PARTNERSHIP else 3
    hand = PARTNERSHIP_HAND if mode == MODE_PARTNERSHIP else NORMAND_HAND
    return (cfg[0], cfg[1], mode, seats, hand, cfg[5], cfg[6], cfg[7], cfg[8], cfg[9])


def _variant_step(mode: int, seats: int, hand: int, refusal: str):
    """The step kernel of one variant: ``_step_rows`` with the variant's config constants
    (``_fixed``); a config of another variant raises ``ValueError(refusal)``."""

    @njit(cache=True)
    def step_rows(s, cfg, actions, autoreset, obs, mask, rewards, terminated):
        if cfg[K_MODE] != mode or cfg[K_SEATS] != seats or cfg[K_HAND] != hand:
            raise ValueError(refusal)
        s, cfg, obs, mask, rewards = borrowed_step(s, cfg, obs, mask, rewards)  # no refcounting
        _step_rows(s, _fixed(cfg, mode), actions, autoreset, obs, mask, rewards, terminated)

    return step_rows


@njit(cache=True, inline="always")
def _step_rows(s, cfg, actions, autoreset, obs, mask, rewards, terminated):
    """Apply ``actions[b]`` in every row; write rewards, termination, next observation and mask
    (``cfg`` from ``_fixed``; the arrays borrowed).

    A row whose game is over (without autoreset) or whose action is illegal is left unchanged.
    """
    no_deck = _NO_DECK
    p = cfg[K_SEATS]
    n = actions.shape[0]
    for lo in range(0, n, STEP_BLOCK):  # a block's state stays in cache for its passes
        hi = min(lo + STEP_BLOCK, n)
        for b in range(lo, hi):
            for seat in range(p):
                rewards[b, seat] = 0.0
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
                    _reset(s, b, cfg, s.m[b, M_KEY], s.m[b, M_EPISODE] + np.uint64(1), no_deck, -1)
        # the masks and the observations in passes of their own over the rows: each pass keeps
        # one kernel hot (Banque 15% faster than doing everything row by row, the others level)
        for b in range(lo, hi):
            _legal(s, b, cfg, mask[b])
        for b in range(lo, hi):
            prefetch_ahead(obs, b)  # big batches: fetch a later row while this one is written
            _observe(s, b, cfg, s.f[b, F_CURRENT] if s.f[b, F_CURRENT] >= 0 else 0, obs[b])


# each id's step kernel (game_def hands the id its own)
step_rows_normand = _variant_step(
    MODE_NORMAND, 3, NORMAND_HAND, "this step kernel needs a Piquet normand config (NormandConfig)"
)
step_rows_partnership = _variant_step(
    MODE_PARTNERSHIP, 4, PARTNERSHIP_HAND, "this step kernel needs a partnership Piquet config"
)


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


@njit(cache=True)
def declare_row(s, b, cfg):
    """Run carte blanche and the declarations of row ``b`` (for the rules helper)."""
    p = cfg[K_SEATS]
    dealer = s.f[b, F_DEALER]
    for k in range(1, p + 1):
        seat = (dealer + k) % p
        if s.f[b, F_CB + seat]:
            s.m[b, M_SHOWN + seat] |= s.m[b, M_DEALT + seat]
            _score_hand(s, b, cfg, _side(cfg, seat), CARTE_BLANCHE)
    _declare(s, b, cfg)


# --- Python-side helpers -----------------------------------------------------------------------
def result(s: State, b: int, config) -> dict:
    """JSON-able result of the finished episode in row ``b``: ``winner`` (see ``_game_over``;
    ``None`` for a draw), ``winners``/``losers`` (seats), ``totals`` per seat (his side's),
    ``finished`` (normand: the deal each seat reached the target in, 0 = never), ``deals``."""
    cfg = config.to_array()
    p = int(cfg[K_SEATS])
    w = int(s.f[b, F_WINNER])
    out = [int(x) for x in s.f[b, F_OUTCOME : F_OUTCOME + p]]
    side = (lambda t: t % 2) if cfg[K_MODE] == MODE_PARTNERSHIP else (lambda t: t)
    res = {
        "winner": None if w < 0 else w,
        "winners": [t for t in range(p) if out[t] == 1],
        "losers": [t for t in range(p) if out[t] == -1],
        "totals": [int(s.v[b, V_TOTAL + side(t)]) for t in range(p)],
        "deals": int(s.f[b, F_DEAL_NO]) + 1,
    }
    if cfg[K_MODE] == MODE_NORMAND:
        res["finished"] = [int(x) for x in s.f[b, F_FINISHED : F_FINISHED + p]]
    return res


def deck_strings(s: State, b: int) -> list[str]:
    """The current deal's deck order (hands from the dealer's left, then the talon)."""
    return format_cards(s.f[b, F_DECK : F_DECK + NUM_CARDS]).split()


def deal_extras(s: State, b: int, config) -> dict:
    """Extra fields of a finished deal in the record: the totals per seat after it."""
    cfg = config.to_array()
    p = int(cfg[K_SEATS])
    side = (lambda t: t % 2) if cfg[K_MODE] == MODE_PARTNERSHIP else (lambda t: t)
    return {"totals": [int(s.v[b, V_TOTAL + side(t)]) for t in range(p)]}


# --- determinization (search on state copies, ``core.sim``) -----------------------------------
DETERMINIZE_TRIES = 300  # uniform draws tried before the fallback chain (see ``determinize``)
DETERMINIZE_SWAPS = 40  # fallback: swap proposals per hidden place
_SUIT_MASKS = tuple(0xFF << (suit * 13 + 5) for suit in range(4))
_ALL_CARDS = sum(_SUIT_MASKS)
_FACES = sum(0x70 << (suit * 13 + 5) for suit in range(4))  # J, Q, K (carte blanche, 2.3)


def _void_split(caps: list[int], allowed: list[int], pool: int, rng) -> list[list[int]]:
    """How many cards of each suit of ``pool`` each constrained group of places takes: group
    ``g`` has ``caps[g]`` places and takes only ``allowed[g]`` cards; the other places take
    the rest. Drawn with the probability of the counts under a uniform deal of ``pool``
    conditioned on every group's constraint (a dynamic programme over the suits)."""
    n = [(pool & m).bit_count() for m in _SUIT_MASKS]
    ok = [[bool(a & _SUIT_MASKS[suit]) for suit in range(4)] for a in allowed]
    after = [sum(n[k:]) for k in range(5)]
    memo: dict = {}

    def options(suit: int, left: tuple) -> list[tuple[tuple, float]]:
        """(counts per group, weight 1 / prod x!) for ``suit`` given the places left."""
        free_left = after[suit] - sum(left)
        out = []

        def rec(g: int, xs: tuple, w: float, used: int) -> None:
            if g == len(left):
                x_free = n[suit] - used
                if 0 <= x_free <= free_left:
                    out.append((xs, w / math.factorial(x_free)))
                return
            top = min(left[g], n[suit] - used) if ok[g][suit] else 0
            for x in range(top + 1):
                rec(g + 1, xs + (x,), w / math.factorial(x), used + x)

        rec(0, (), 1.0, 0)
        return out

    def count(suit: int, left: tuple) -> float:
        if suit == 4:
            return 1.0 if not any(left) else 0.0
        key = (suit, left)
        if key not in memo:
            memo[key] = sum(
                w * count(suit + 1, tuple(a - x for a, x in zip(left, xs, strict=True)))
                for xs, w in options(suit, left)
            )
        return memo[key]

    left = tuple(caps)
    if count(0, left) == 0.0:
        raise RuntimeError("piquet determinize: the voids leave no deal")
    per_group = [[0] * 4 for _ in caps]
    for suit in range(4):
        opts = options(suit, left)
        weights = np.array(
            [
                w * count(suit + 1, tuple(a - x for a, x in zip(left, xs, strict=True)))
                for xs, w in opts
            ]
        )
        xs = opts[int(rng.choice(len(opts), p=weights / weights.sum()))][0]
        for g, x in enumerate(xs):
            per_group[g][suit] = x
        left = tuple(a - x for a, x in zip(left, xs, strict=True))
    return per_group


class _Deal:
    """Where every card of row ``b``'s deal may lie, as ``seat`` knows it: deck positions (the
    packets from the dealer's left, then the normand talon) and, per other seat, which of its
    positions hold its hand after the exchange (``after``) and which its discards (``disc``).

    The normand dealer's packet is taken in the order kept cards, then discards (the order
    within a packet is never read again; the talon's is: the dealer takes it from the top)."""

    def __init__(self, s: State, b: int, config, seat: int):
        cfg = config.to_array()
        self.s, self.b, self.seat, self.cfg = s, b, seat, cfg
        p, h = int(cfg[K_SEATS]), int(cfg[K_HAND])
        self.p = p
        self.normand = int(cfg[K_MODE]) == MODE_NORMAND
        self.phase = ph = int(s.f[b, F_PHASE])
        self.dealer = dealer = int(s.f[b, F_DEALER])
        deal_no = int(s.f[b, F_DEAL_NO])
        # seats dealt a packet this deal (a normand player out before it has a dead packet)
        self.dealt_in = [
            int(s.f[b, F_FINISHED + t]) == 0 or int(s.f[b, F_FINISHED + t]) > deal_no
            for t in range(p)
        ]
        deck = [int(c) for c in s.f[b, F_DECK : F_DECK + NUM_CARDS]]
        self.exch_done = self.normand and ph != PHASE_EXCHANGE
        self.ndisc = int(s.f[b, F_NDISC]) if self.normand else 0
        taken = int(s.f[b, F_TALON_POS]) if self.exch_done else 0
        talon = list(range(p * h, NUM_CARDS)) if self.normand else []
        packet = {t: [((t - dealer - 1) % p) * h + i for i in range(h)] for t in range(p)}
        self.talon = talon
        self.taken = {}  # per other seat: the talon positions he drew (the normand dealer)
        # the true deal in the structure above (the dealer's kept cards before his discards)
        truth = list(deck)
        fixed = set()  # positions whose card ``seat`` knows
        if self.dealt_in[seat]:
            fixed |= set(packet[seat])
        if self.normand and seat == dealer and self.exch_done:
            fixed |= set(talon)
        self.after, self.disc, self.held, self.packet_set = {}, {}, {}, {}
        self.may_hold = {}
        for t in range(p):
            if t == seat or not self.dealt_in[t]:
                continue
            pk = packet[t]
            nd = self.ndisc if (self.normand and t == dealer) else 0
            kept_pos, disc_pos = pk[: h - nd], pk[h - nd :]
            if nd:
                disc_true = int(s.m[b, M_DISCARDS])
                cards = [deck[i] for i in pk]
                order = [c for c in cards if not (disc_true >> c) & 1] + [
                    c for c in cards if (disc_true >> c) & 1
                ]
                for i, c in zip(pk, order, strict=True):
                    truth[i] = c
            taken_pos = talon[:taken] if (self.normand and t == dealer) else []
            self.taken[t] = taken_pos
            self.after[t] = kept_pos + taken_pos
            self.disc[t] = disc_pos
            played, shown = int(s.m[b, M_PLAYED + t]), int(s.m[b, M_SHOWN + t])
            voids = int(s.f[b, F_VOID + t])
            self.may_hold[t] = _ALL_CARDS & ~sum(
                m for k, m in enumerate(_SUIT_MASKS) if (voids >> k) & 1
            )
            if ph >= PHASE_PLAY and int(s.f[b, F_CB + t]):
                # a carte blanche's dealt hand is public: its packet is known as a set, only
                # which of it the dealer discarded is hidden; shown cards beyond it he took
                dealt = int(s.m[b, M_DEALT + t])
                self.packet_set[t] = dealt
                self.held[t] = played | (shown & ~dealt)
            else:
                self.held[t] = played | shown  # in his hand after the exchange
        self.truth = truth
        self.fixed = fixed
        self.hidden = [i for i in range(NUM_CARDS) if i not in fixed]
        # what each hidden position is to the rules: a seat's kept or discarded packet card
        # (positions within one are interchangeable), else its own (a talon place, a dead card)
        self.place = {i: i for i in self.hidden}
        for t, pos in self.after.items():
            for i in pos:
                if i not in self.taken[t]:
                    self.place[i] = (t, "kept")
            for i in self.disc[t]:
                self.place[i] = (t, "disc")
        self.deck = deck
        self._t = PackedState(*(a[b : b + 1].copy() for a in s))
        self._want = None
        if ph >= PHASE_PLAY:
            self._want = [
                s.f[b, F_DECL_WIN : F_DECL_WIN + 3].copy(),
                s.v[b, V_DECL_PTS : V_DECL_PTS + 3].copy(),
                s.m[b, M_SHOWN : M_SHOWN + MAX_SEATS].copy(),
            ]
            t_ = self._t
            for t in range(p):
                if self.dealt_in[t]:
                    t_.f[0, F_FINISHED + t] = 0  # in the deal (the game may be over)
                    t_.m[0, M_HAND + t] = s.m[b, M_HAND + t] | s.m[b, M_PLAYED + t]

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, rng) -> list[int]:
        """A deal drawn uniformly among those that put each other seat's known cards in his
        hand after the exchange (and a public carte blanche's cards in his packet): the known
        cards take random places among their seat's ``after`` positions, every other hidden card
        a random hidden place left."""
        new = list(self.deck)
        free_pos = set(self.hidden)
        pool = _ALL_CARDS & ~_mask_of(new[i] for i in self.fixed)

        def place(cards: int, positions: list[int]) -> list[int]:
            """Put ``cards`` at random positions among ``positions``; return the positions."""
            cs = _cards_of(cards)
            at = [positions[k] for k in rng.permutation(len(positions))[: len(cs)]]
            for i, c in zip(at, cs, strict=True):
                new[i] = c
            return at

        for t, pos in self.after.items():
            held = self.held[t]
            if t in self.packet_set:
                # a public carte blanche: the cards he played are among those he kept, the
                # rest of his dealt hand anywhere in his packet, the cards he showed beyond it
                # at the talon places he drew
                dealt = self.packet_set[t]
                kept_pos = [i for i in pos if i not in self.taken[t]]
                at = place(held & dealt, kept_pos)
                packet_left = [i for i in kept_pos + self.disc[t] if i not in at]
                place(dealt & ~held, packet_left)
                at_talon = place(held & ~dealt, self.taken[t])
                free_pos -= set(kept_pos) | set(self.disc[t]) | set(at_talon)
                pool &= ~(dealt | held)
            else:
                free_pos -= set(place(held, pos))
                pool &= ~held
        free = sorted(free_pos)
        if pool.bit_count() != len(free):
            raise RuntimeError(f"piquet determinize: {pool.bit_count()} cards, {len(free)} places")
        # the hidden cards: a seat void in a suit takes none of it in his hand, uniformly
        # among the ways that respect every void (the suit counts per seat drawn first)
        groups, rest = [], list(free)
        for t, pos in self.after.items():
            if self.may_hold[t] != _ALL_CARDS:
                mine = [i for i in rest if i in set(pos)]
                groups.append((mine, self.may_hold[t]))
                rest = [i for i in rest if i not in set(mine)]
        if groups:
            counts = _void_split([len(g) for g, _ in groups], [a for _, a in groups], pool, rng)
            for (positions, _), per_suit in zip(groups, counts, strict=True):
                cards = 0
                for suit, n in enumerate(per_suit):
                    cs = _cards_of(pool & _SUIT_MASKS[suit])
                    pick = [cs[k] for k in rng.permutation(len(cs))[:n]]
                    cards |= _mask_of(pick)
                    pool &= ~_mask_of(pick)
                place(cards, positions)
        place(pool, rest)
        return new

    # -- checking -----------------------------------------------------------------------------
    def hands(self, new: list[int]):
        """Per other seat: (dealt hand, hand after the exchange, discards) of a drawn deal."""
        out = {}
        for t, pos in self.after.items():
            after = _mask_of(new[i] for i in pos)
            disc = _mask_of(new[i] for i in self.disc[t])
            taken = _mask_of(new[i] for i in self.taken[t])
            out[t] = ((after & ~taken) | disc, after, disc)
        return out

    def consistent(self, new: list[int]) -> bool:
        """Whether a drawn deal agrees with everything ``seat`` has observed (see
        ``determinize``)."""
        s, b, cfg = self.s, self.b, self.cfg
        hands = self.hands(new)
        for t, (dealt, after, disc) in hands.items():
            if self.held[t] & ~after:
                return False  # a card he played or showed was not in his hand
            if (after & ~int(s.m[b, M_PLAYED + t])) & ~self.may_hold[t]:
                return False  # he holds a card of a suit he failed to follow
            if t in self.packet_set and dealt != self.packet_set[t]:
                return False
            if self.phase >= PHASE_PLAY:
                cb = 1 if (cfg[K_CB] and dealt and not dealt & _FACES) else 0
                if cb != int(s.f[b, F_CB + t]):
                    return False  # carte blanche (public from the play) or not
            elif self.ndisc == 1 and t == self.dealer and self.ndisc < cfg[K_EXCH_MIN]:
                # a forced second discard must find a card above the first (canonical order)
                if max(_cards_of(after)) < _cards_of(disc)[0]:
                    return False
        if self._want is None:
            return True
        t_ = self._t
        for t, (dealt, after, _) in hands.items():
            t_.m[0, M_HAND + t] = np.uint64(after)
            t_.m[0, M_DEALT + t] = np.uint64(dealt)
        t_.m[0, M_SHOWN : M_SHOWN + MAX_SEATS] = 0
        t_.v[0, V_DECL_PTS : V_DECL_PTS + 3] = 0
        t_.v[0, V_DEAL_SCORE : V_DEAL_SCORE + MAX_SEATS] = 0
        t_.f[0, F_BONUS : F_BONUS + MAX_SEATS] = 0
        t_.f[0, F_DECL_WIN : F_DECL_WIN + 3] = OUTCOME_NONE
        declare_row(t_, 0, cfg)
        w_win, w_pts, w_shown = self._want
        return (
            np.array_equal(t_.f[0, F_DECL_WIN : F_DECL_WIN + 3], w_win)
            and np.array_equal(t_.v[0, V_DECL_PTS : V_DECL_PTS + 3], w_pts)
            and np.array_equal(t_.m[0, M_SHOWN : M_SHOWN + MAX_SEATS], w_shown)
        )

    def walk(self, rng, start: list[int]) -> list[int]:
        """From a consistent deal, random swaps of two hidden cards in different places, each
        kept only if the deal stays consistent (a Metropolis walk whose stationary law is the
        uniform one over the consistent deals it can reach)."""
        cur = list(start)
        hidden = self.hidden
        if len(hidden) < 2:
            return cur
        for _ in range(DETERMINIZE_SWAPS * len(hidden)):
            i, j = (hidden[k] for k in rng.choice(len(hidden), 2, replace=False))
            if self.place[i] == self.place[j]:
                continue  # the same place: a swap changes nothing the rules read
            cur[i], cur[j] = cur[j], cur[i]
            if not self.consistent(cur):
                cur[i], cur[j] = cur[j], cur[i]
        return cur

    def write(self, new: list[int]) -> None:
        """Write a drawn deal into the row: the deck, and every other seat's dealt hand, hand,
        carte blanche flag and (normand dealer) discards, talon cards seen and last discard."""
        s, b, cfg = self.s, self.b, self.cfg
        s.f[b, F_DECK : F_DECK + NUM_CARDS] = new
        for t, (dealt, after, disc) in self.hands(new).items():
            s.m[b, M_DEALT + t] = np.uint64(dealt)
            s.m[b, M_HAND + t] = np.uint64(after & ~int(s.m[b, M_PLAYED + t]))
            s.f[b, F_CB + t] = 1 if (cfg[K_CB] and dealt and not dealt & _FACES) else 0
            if self.normand and t == self.dealer:
                s.m[b, M_DISCARDS] = np.uint64(disc)
                s.f[b, F_LAST_DISC] = int(lid(max(_cards_of(disc)))) if disc else -1
                if self.exch_done:  # the talon cards he left (``"may"``)
                    untaken = self.talon[len(self.taken[t]) :]
                    s.m[b, M_SEEN] = np.uint64(_mask_of(new[i] for i in untaken))


def determinize(s: State, b: int, config, seat: int, rng) -> None:
    """Redraw in place what ``seat`` cannot see in row ``b``, consistently with what it saw.

    Redrawn: the cards of every other seat's hand (partner included) that ``seat`` does not
    know; the normand dealer's discards and the talon (its cards he took and those he left),
    unless ``seat`` is the dealer after his exchange (then he knows them all; during his
    exchange the talon is still hidden from him); the dead packet of a normand player who is
    out; and the row key (so the next deals are unknown too). Recomputed from them: the other
    seats' ``hand``, ``dealt`` and ``cb``, the dealer's ``discards``, ``seen`` and
    ``last_disc``, and the deck order.

    Kept (the seat's own or public): its own packet, hand, discards and talon cards; every card
    played (by whom, the current trick included); the shown cards (declarations, a carte
    blanche); the counts (cards exchanged), outcomes, points, scores, bonuses, tricks and
    voids. Each hand keeps its size, so every card stays once.

    Constraints enforced on the redrawn deal (every one is tested):

    - a card a seat played or showed was in his hand after the exchange (the normand dealer:
      kept from his packet or taken from the talon places he drew);
    - voids shown in trick play (the ``void`` state field): no seat holds a card of a suit he
      failed to follow this deal;
    - a public carte blanche: its packet is its dealt hand exactly (the normand dealer's
      discards among it are redrawn); from the play on, every other seat's dealt hand holds a
      K, Q or J (``carte_blanche=True``), since his carte blanche would have been shown;
    - the declarations: from the play on, the hands after the exchange give exactly the same
      outcomes, points and shown cards (a winner holds no card that would have lengthened or
      raised what he showed, nobody else a better point, sequence or set; an equality stays an
      equality, "nobody" stays nobody);
    - during the exchange, the canonical order: with a forced second discard, the first one
      is not the dealer's highest card.

    Knowingly left out (strategy, not rules: the search's business): what the others' choices
    say about their cards (which card a player chose when he could choose, how many the dealer
    exchanged with ``"may"``).

    The draw: up to ``DETERMINIZE_TRIES`` uniform draws (each seat's known cards take random
    places among his hand after the exchange, every other hidden card a random hidden place);
    the first consistent one is taken, so the result is uniform over the consistent deals.
    If none is (very constrained positions: many voids, or declarations only a few deals
    reproduce), the fallback is a random walk of swaps of hidden cards started from the true
    deal, each swap kept only if the deal stays consistent (``DETERMINIZE_SWAPS`` proposals per
    hidden card): always consistent, close to uniform when the consistent deals are connected
    by swaps, but correlated with the true cards when few swaps are accepted (an approximation,
    never an inconsistent state).
    """
    deal = _Deal(s, b, config, seat)
    s.m[b, M_KEY] = np.uint64(int(rng.integers(0, 2**63 - 1, dtype=np.int64)))
    if not deal.hidden:
        return
    for _ in range(DETERMINIZE_TRIES):
        new = deal.draw(rng)
        if deal.consistent(new):
            break
    else:
        new = deal.walk(rng, deal.truth)
    deal.write(new)


def _three_seats(config) -> int:
    """``GameDef.num_seats`` of Piquet normand (module-level, so a ``GameDef`` pickles)."""
    return 3


def _four_seats(config) -> int:
    """``GameDef.num_seats`` of partnership Piquet."""
    return 4


def _partners_opposite(config) -> tuple:
    """``GameDef.sides`` of partnership Piquet: partners sit opposite (spec 3.3)."""
    return ((0, 2), (1, 3))


def game_def(name: str, config_cls, num_seats: int, render) -> GameDef:
    """The ``GameDef`` of one of the two ids (the kernels are shared; the config class, the
    seat count and the observation layout differ)."""
    return GameDef(
        name=name,
        version=VERSION,
        deck=DECK,
        config_cls=config_cls,
        num_actions=NUM_ACTIONS,
        action_names=ACTION_NAMES,
        obs_layout=OBS_LAYOUTS[num_seats],
        num_seats=_four_seats if num_seats == 4 else _three_seats,
        layout=LAYOUT,
        reset_rows=reset_rows,
        step_rows=step_rows_partnership if num_seats == 4 else step_rows_normand,
        observe_rows=observe_rows,
        result=result,
        render=render,
        deck_strings=deck_strings,
        legal_row=legal_row,
        deal_extras=deal_extras,
        determinize=determinize,
        # partnership: partners sit opposite (spec 3.3); normand: every player for himself
        sides=_partners_opposite if num_seats == 4 else None,
    )


# --- rules helpers (public) --------------------------------------------------------------------
def declarations(hands, dealer: int | None = None, variant: str = "normand", **config) -> dict:
    """Score the declarations of the hands after the exchange (spec 2.3, 2.5, 3.3, 3.4).

    Args:
        hands: one hand per seat (card strings, or one space-separated string each): 3 for
            ``variant="normand"``, 4 for ``"partnership"``.
        dealer: the dealer's seat (eldest = his left speaks first); default the last seat.
        variant: ``"normand"`` or ``"partnership"``.
        **config: that variant's ``Config`` options (e.g. ``point_minimum=29``).

    Returns:
        ``{"point": {"winner": seat | "equal" | None, "points": n}, "sequence": {...},
        "sets": {...}, "carte_blanche": [seats], "repique": side | None,
        "scores": per side (normand: per seat; partnership: sides 0 (seats 0 & 2), 1)}``;
        carte blanche is judged on the hands given.
    """
    if variant not in ("normand", "partnership"):
        raise ValueError(f"variant must be 'normand' or 'partnership', got {variant!r}")
    cls = NormandConfig if variant == "normand" else PartnershipConfig
    cfg = cls.from_kwargs(**config).to_array()
    p = int(cfg[K_SEATS])
    if len(hands) != p:
        raise ValueError(f"{variant} needs {p} hands, got {len(hands)}")
    dealer = p - 1 if dealer is None else dealer
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < p:
        raise ValueError(f"dealer must be a seat in 0..{p - 1}, got {dealer!r}")
    s = new_state(1)
    seen = 0
    for seat, cards in enumerate(hands):
        ids = [DECK.check_card(c) for c in (cards.split() if isinstance(cards, str) else cards)]
        m = sum(1 << c for c in set(ids))
        if len(set(ids)) != len(ids) or m & seen:
            raise ValueError(f"hand {seat} repeats a card or shares one with another hand")
        seen |= m
        s.m[0, M_HAND + seat] = m
        s.m[0, M_DEALT + seat] = m
        s.f[0, F_CB + seat] = int(bool(cfg[K_CB]) and m != 0 and not _has_face(np.uint64(m)))
    s.f[0, F_DEALER] = dealer
    declare_row(s, 0, cfg)

    def who(w):
        if w == OUTCOME_EQUAL:
            return "equal"
        return None if w == OUTCOME_NONE else int(w)

    out = {}
    for c, name in ((CAT_POINT, "point"), (CAT_SEQUENCE, "sequence"), (CAT_SETS, "sets")):
        out[name] = {
            "winner": who(int(s.f[0, F_DECL_WIN + c])),
            "points": int(s.v[0, V_DECL_PTS + c]),
        }
    out["carte_blanche"] = [t for t in range(p) if s.f[0, F_CB + t]]
    sides = 2 if variant == "partnership" else p
    rep = [t for t in range(sides) if s.f[0, F_BONUS + t] == BONUS_REPIQUE]
    out["repique"] = rep[0] if rep else None
    out["scores"] = [int(x) for x in s.v[0, V_DEAL_SCORE : V_DEAL_SCORE + sides]]
    return out
