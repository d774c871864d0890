"""Esel (Donkey, Russian "Осёл"): the rules, as numba kernels over batched NumPy state.

Rules: ``docs/games/esel.md``, the project's rules page (reconstructed from a twice machine-
translated copy of the Russian page). The comments below cite its sections ("4.5") and its
choices ("A9"); "the spec" is that page.

Rules summary (defaults)
------------------------
- 2–4 players (``num_players``, default 4), 36 cards 6..A; rank order 6 < 7 < 8 < 9 < J < Q < K <
  10 < A (2). Card points: 8 = 16, A = 12, 10 = 10, K = 5, Q = 3, J = 1, 9 and 7 = 0, 6 = −1.
- Every player starts with 3 banks; fewer is better. A player who discharges all his banks wins;
  when a player reaches 6 banks the game ends and the fewest banks win (5.3).
- Each hand (3): the trump arrangement is fixed (option 1: from the dealer's left each player
  chooses a suit nobody has taken, an action ``trump <suit>``, before the cards are seen; or
  ``trump_assignment="random"``); 4 cards each, the rest is the stock; from the dealer's left each
  player declares ``go`` (threshold 24 lower; success −1 bank, failure +1 bank) or ``no`` (success
  −1 bank, failure nothing). Thresholds (go / no): 2 players 44 / 68, 3: 56 / 80, 4: 68 / 92.
- Play (4): the holder of the lowest diamond leads first (else the dealer's left); one card per
  player per trick, clockwise; the trick is resolved by the algorithm of 4.4 (beat table with
  one-lower chains, kills, the led card fighting back, same-value and own-trump interruptions,
  eights of another suit that change the main suit); its winner takes all its cards, draws first
  from the stock (hands are refilled to 4, clockwise) and leads next.
- Legal plays (4.5): the leader plays anything. A follower may play a main-suit card, or an
  off-suit card that takes the trick (same value, own trump); an off-suit 8 only when void in the
  main suit (it interrupts); a follower who does not take the trick must play a main-suit card if
  he has one. Beating is optional (``must_beat=True``: compulsory when possible).
- Trump options 2–5 (3.2, 4.6): no trumps; one or two common trumps; spades senior and diamonds
  junior trumps. Under 3–5 a card of lower class never takes a higher-class winner except by
  being of the same rank, and main-suit cards do not take a higher-class trump.
- Scoring (5): card points of the tricks taken plus the configured bonuses (A9: each king-queen
  pair of one suit taken 25, Q♠ with J♦ taken 15, a four-card trick all of one suit 10), compared
  with the declared threshold (reaching = at least).

Choices where the spec leaves things open
-----------------------------------------
- The trump arrangement is chosen per hand, before the deal (3.2 "chosen before the deal; fixed
  for the hand"); the hands are dealt into the state at the start of the hand but nobody sees his
  cards until the trump choice is over. Under options 3–4 with ``common_trumps="random"`` the
  common suit(s) are drawn each hand from the seed.
- Every trick has exactly ``num_players`` cards; hands are refilled to 4 after every trick from
  the stock, the winner first, then clockwise (A10). The hand ends when every card is played.
- Next dealer: the first leader of the previous hand (A12; ``next_dealer`` offers "left" and
  "same"). The first dealer is drawn from the seed; ``options={"dealer": seat}`` fixes it.
- Ties at the end (A13): play on until they are broken; a bank count never goes below 0, so
  when several players discharge their last bank in the same hand, the first of them to stay at
  0 while the others fail wins. To guarantee termination the game also
  ends after ``max_hands`` hands (default 60): then the fewest banks win, a tie for fewest is a
  draw.
- Rewards are zero-sum: the winner gets +1 and every other player −1/(P−1); a draw gives 0.
- The first lead goes to the lowest diamond in the rank order (6♦ lowest, A♦ highest; A2).
- Own trumps under option 1 are distinct suits (A3); with 2–3 players the unchosen suits are
  ordinary for everybody.
- An eight of another suit (from a player void in the main suit) takes a trump or a same-value
  trump; it does not take a card of its own suit that the table protects (A8). Under options
  3–5 an ordinary eight never takes a trump.
- The seed's cross-game rating formula (5.4) is not part of the game and is not implemented.
- Row 22 of the worked examples follows A1 (i): one-lower cards count only as they are played
  (``retroactive_chain=True`` gives (ii)). A4–A8, A14–A15 follow the spec's recommendations, each
  with a config option for the alternative.
- Under options 3–5 a same-value card of the main card's rank always takes the trick from the
  main-suit cards (S2: "cards of the same denomination are allowed to overlap"), a higher-class
  same-value card counts as a same-value trump (VT).

Episodes and rewards
--------------------
| ``episode`` | ``reward`` | reward at the end, per seat |
|---|---|---|
| ``"game"`` (default) | ``"win"`` (default) | +1 for the winner, −1/(P−1) for the others, 0 drawn |
| ``"game"`` | ``"score"`` | mean banks of all players − own banks |
| ``"deal"`` (one hand) | ``"win"`` | mean bank change − own bank change |
| ``"deal"`` | ``"score"`` | own points − mean points of the hand |

Actions (42)
------------
| ids | name | when |
|---|---|---|
| 0–35 | ``play <card>`` | trick play (legal plays above) |
| 36 | ``go`` | declaration |
| 37 | ``no`` | declaration |
| 38–41 | ``trump S`` .. ``trump C`` | option 1 trump choice (a suit nobody has taken) |

Card index = suit * 9 + (rank − 6 in 6 7 8 9 10 J Q K A order), suits S, H, D, C.
``options={"deck": [...]}`` lists the 36 cards as the hands in seat order from the dealer's left
(4 each), then the stock from the top.

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
from ...core.bitmask import bit, dense_suits, lowest, popcount, spread
from ...core.borrow import borrowed_step
from ...core.cards import SUITS, Deck, format_card, format_cards, make_card
from ...core.game import GameConfig, ObsField, layout_offsets, layout_table, option
from ...core.seats import at, seat_mod
from ...core.state import PackedState, StateLayout

NAME = "esel"
VERSION = 0
MAX_SEATS = 4
HAND = 4
NUM_CARDS = 36
DECK = Deck("esel", [make_card(r, s) for s in range(4) for r in range(4, 13)])
START_BANKS = 3
LOSE_BANKS = 6

# --- actions -----------------------------------------------------------------------------------
ACTION_PLAY = 0
ACTION_GO = 36
ACTION_NO = 37
ACTION_TRUMP = 38
NUM_ACTIONS = 42
ACTION_NAMES = tuple(
    [f"play {format_card(c)}" for c in DECK.cards.tolist()]
    + ["go", "no"]
    + [f"trump {s}" for s in SUITS]
)

PHASE_TRUMP = 0
PHASE_DECLARE = 1
PHASE_PLAY = 2
PHASE_OVER = 3
PHASE_NAMES = ("trump", "declare", "play", "over")

# --- cards (2) ---------------------------------------------------------------------------------
# rank order for beating, "one lower" and comparing trumps: 6 7 8 9 J Q K 10 A
# (indexed by the global rank 0..12 = 2..A; the 36-card deck uses 4..12)
ORDER = np.array([-1, -1, -1, -1, 0, 1, 2, 3, 7, 4, 5, 6, 8], np.int64)
POINTS = np.array([0, 0, 0, 0, -1, 0, 16, 0, 10, 1, 3, 5, 12], np.int64)  # 6 = -1 ... 8 = 16
RANK_8 = 6
RANK_6 = 4
RANK_Q, RANK_K, RANK_J = 10, 11, 9
# the beat table (4.2): BEAT[x][y] for card x placed on card y of the same suit, by rank order
# (6 7 8 9 J Q K 10 A): 1 = beats ("kill"), 2 = beats only while y is the unkilled led card or an
# unkilled one-lower chain ("(Y)"), 0 = does not beat
BEAT = np.array(
    [
        [0, 1, 0, 1, 0, 0, 1, 1, 1],  # 6
        [0, 0, 0, 0, 0, 0, 0, 0, 0],  # 7
        [1, 1, 0, 1, 1, 0, 0, 1, 1],  # 8
        [0, 1, 0, 0, 2, 0, 0, 0, 0],  # 9
        [0, 1, 0, 1, 0, 2, 0, 0, 0],  # J
        [1, 1, 1, 1, 1, 0, 2, 0, 0],  # Q
        [0, 1, 1, 1, 1, 1, 0, 2, 0],  # K
        [0, 1, 0, 1, 1, 1, 1, 0, 2],  # 10
        [0, 1, 0, 1, 1, 1, 1, 1, 0],  # A
    ],
    np.int64,
)
# thresholds (3.4) by number of players: (go, no)
THRESHOLDS = np.array([[0, 0], [0, 0], [44, 68], [56, 80], [68, 92]], np.int64)

# how the current winner of a trick got there (4.3)
W_LEAD, W_ONE_LOWER, W_KILL, W_EIGHT, W_SAME, W_SAME_TRUMP, W_TRUMP, W_LEAD_KILLED = range(8)
WIN_NAMES = (
    "led",
    "one lower",
    "kill",
    "eight",
    "same value",
    "same value + trump",
    "trump",
    "led card fought back",
)


def _check_common(value: str, where: str) -> None:
    if value != "random" and (
        not value or any(c not in SUITS for c in value) or len(set(value)) != len(value)
    ):
        raise ValueError(
            f"{where} = {value!r} is not allowed; use 'random' or "
            "distinct suit letters from 'SHDC' (one for option 3, two for option 4)"
        )


@dataclasses.dataclass(frozen=True)
class Config(GameConfig):
    """Esel rule options (spec sections 3–7). See the module docstring for the table."""

    num_players: int = option(4, low=2, high=4, doc="players (A10: 2–4)")
    trump_option: int = option(1, low=1, high=5, doc="trump arrangement 1–5 (3.2)")
    trump_assignment: str = option(
        "choose", ("choose", "random"), doc="option 1: suits chosen in turn, or random (A3)"
    )
    common_trumps: str = option(
        "random", doc="options 3/4: 'random' (drawn per hand) or suit letters, e.g. 'H', 'HS'"
    )
    must_beat: bool = option(False, doc="beating is compulsory when possible (A4)")
    retroactive_chain: bool = option(
        False, doc="earlier one-lower cards rejoin the chain (A1 (ii): row 22 goes to P2)"
    )
    fightback: str = option(
        "beats",
        ("beats", "not_beaten"),
        doc="the led card retakes if it beats the killer, or if the killer does not beat it (A5)",
    )
    after_fightback: str = option(
        "killed",
        ("killed", "revived"),
        doc="after fighting back the led card counts as killed (A15)",
    )
    trump_must_exceed: str = option(
        "all",
        ("all", "main_and_winner"),
        doc="a trump must outrank every card that held the trick, or only M and W (A6)",
    )
    same_trump_taken_by_kill: bool = option(
        False, doc="a later main-suit kill takes a same-value own trump (A7 alternative)"
    )
    kill_after_trump_beats: str = option(
        "last_main",
        ("last_main", "main_card"),
        doc="a kill after a trump/same value must beat the last main-suit holder, or M (A14)",
    )
    marriage_bonus: int = option(25, low=0, high=100, doc="K+Q of one suit taken (A9)")
    queen_jack_bonus: int = option(15, low=0, high=100, doc="Q♠ and J♦ taken (A9)")
    four_suit_bonus: int = option(10, low=0, high=100, doc="a 4-card trick all of one suit (A9)")
    four_cards_reading: str = option(
        "one_suit_trick",
        ("one_suit_trick", "four_of_a_rank"),
        doc="what earns four_suit_bonus: a 4-card trick of one suit, or all 4 cards of a rank (A9)",
    )
    next_dealer: str = option(
        "first_leader", ("first_leader", "left", "same"), doc="dealer of the next hand (A12)"
    )
    max_hands: int = option(60, low=1, high=120, doc="hands after which the game is decided")

    def __post_init__(self):
        super().__post_init__()
        # common_trumps is a str here (GameConfig checked it)
        _check_common(self.common_trumps, f"{self.env_label()}: option common_trumps")
        if self.common_trumps != "random" and self.trump_option in (3, 4):
            need = self.trump_option - 2
            if len(self.common_trumps) != need:
                raise self.error(
                    "common_trumps",
                    f"= {self.common_trumps!r}: option {self.trump_option} needs {need} suit "
                    "letter(s) or 'random'",
                )

    def encode(self, name: str, value) -> int:
        if name == "common_trumps":  # the common trump suits as a 4-bit set, 0 = draw each hand
            return sum(1 << SUITS.index(c) for c in value) if value != "random" else 0
        return super().encode(name, value)


C_EPISODE = Config.index("episode")
C_REWARD = Config.index("reward")
C_PLAYERS = Config.index("num_players")
C_OPTION = Config.index("trump_option")
C_RANDOM_TRUMPS = Config.index("trump_assignment")
C_COMMON = Config.index("common_trumps")
C_MUST_BEAT = Config.index("must_beat")
C_RETRO = Config.index("retroactive_chain")
C_FIGHTBACK = Config.index("fightback")
C_REVIVED = Config.index("after_fightback")
C_EXCEED = Config.index("trump_must_exceed")
C_VT_KILL = Config.index("same_trump_taken_by_kill")
C_KILL_REF = Config.index("kill_after_trump_beats")
C_MARRIAGE = Config.index("marriage_bonus")
C_QJ = Config.index("queen_jack_bonus")
C_FOUR = Config.index("four_suit_bonus")
C_FOUR_RANK = Config.index("four_cards_reading")
C_NEXT_DEALER = Config.index("next_dealer")
C_MAX_HANDS = Config.index("max_hands")

# --- state -------------------------------------------------------------------------------------
STATE_FIELDS = (
    # (name, array, size, meaning); arrays: m uint64, v int16, f int8 (see core.state)
    ("hand", "m", 4, "cards held per seat"),
    ("played", "m", 4, "cards each seat played this hand"),
    ("taken", "m", 4, "cards in the tricks each seat took this hand"),
    ("key", "m", 1, "the row's random key"),
    ("episode", "m", 1, "episode index since the last seeding"),
    ("legal", "m", 1, "the legal cards of the seat to act (written with the mask, a cache)"),
    # v (int16) bounds under the widest legal config (tests/test_score_bounds.py), per hand:
    # -4 (the four sixes alone) .. card points 188 (all but the sixes) + 4 marriages x 100 + Q/J
    # 100 + 9 four-card tricks (or ranks) x 100 = 1,588
    ("points", "v", 4, "points taken this hand per seat (card points and bonuses so far)"),
    ("last_points", "v", 4, "points of the last finished hand per seat"),  # -4..1,588
    ("deck", "f", 36, "this hand's deck order (hands from the dealer's left, then the stock)"),
    ("deal_no", "f", 1, "hand number, 0-based"),
    ("dealer", "f", 1, "seat of the dealer"),
    ("current", "f", 1, "seat to act, -1 when the game is over"),
    ("phase", "f", 1, "PHASE_*"),
    ("winner", "f", 1, "winning seat of the finished episode, -1 none / drawn"),
    ("trump", "f", 4, "option 1: each seat's own trump suit, -1 none"),
    (
        "suit_class",
        "f",
        4,
        "options 3-5: class of each suit (0 ordinary, 1 trump/junior, 2 senior)",
    ),
    ("decl", "f", 4, "declaration per seat: -1 not yet, 0 no, 1 go"),
    ("banks", "f", 4, "banks per seat"),  # int8: <= 3 + max_hands 120 (ties at 6 play on)
    ("bank_change", "f", 4, "bank change of the last finished hand per seat"),
    ("stock_pos", "f", 1, "deck index of the next stock card"),
    ("first_leader", "f", 1, "seat that led the first trick of the hand"),
    ("tricks", "f", 4, "tricks taken this hand per seat"),
    ("trick_n", "f", 1, "cards played to the current trick"),
    ("trick_cards", "f", 4, "cards of the current trick in play order"),
    ("trick_seats", "f", 4, "who played them"),
    ("main_suit", "f", 1, "S: the main suit (changed by an eight)"),
    ("main_card", "f", 1, "M: the main card (the led card, or the interrupting eight)"),
    ("win_card", "f", 1, "W: the card currently taking the trick"),
    ("win_seat", "f", 1, "who played W"),
    ("win_type", "f", 1, "W_*: how W took the trick"),
    ("win_class", "f", 1, "trump class of W as played"),
    ("main_ref", "f", 1, "R: the last main-suit card that held the trick"),
    ("fightback", "f", 1, "1 while the led card may still fight back"),
    ("max_order", "f", 1, "highest rank order among the cards that held the trick"),
    ("last_trick", "f", 4, "the last finished trick's cards (render), -1 none"),
    ("last_win", "f", 2, "its winner seat and W_* type"),
    (
        "void",
        "f",
        4,
        "suits each seat is known to lack since its last draw (bit per suit; see determinize)",
    ),
)
LAYOUT = StateLayout(NAME, STATE_FIELDS)
_o = LAYOUT.offset
M_HAND, M_PLAYED, M_TAKEN, M_KEY, M_EPISODE, M_LEGAL = (
    _o(k) for k in ("hand", "played", "taken", "key", "episode", "legal")
)
V_POINTS, V_LAST_POINTS = _o("points"), _o("last_points")
F_DECK, F_DEAL_NO, F_DEALER, F_CURRENT, F_PHASE, F_WINNER = (
    _o(k) for k in ("deck", "deal_no", "dealer", "current", "phase", "winner")
)
F_TRUMP, F_CLASS, F_DECL, F_BANKS, F_BANK_CHANGE = (
    _o(k) for k in ("trump", "suit_class", "decl", "banks", "bank_change")
)
F_STOCK, F_FIRST_LEADER, F_TRICKS, F_TRICK_N, F_TRICK_CARDS, F_TRICK_SEATS = (
    _o(k) for k in ("stock_pos", "first_leader", "tricks", "trick_n", "trick_cards", "trick_seats")
)
F_MAIN_SUIT, F_MAIN_CARD, F_WIN_CARD, F_WIN_SEAT, F_WIN_TYPE, F_WIN_CLASS = (
    _o(k) for k in ("main_suit", "main_card", "win_card", "win_seat", "win_type", "win_class")
)
F_MAIN_REF, F_FIGHTBACK, F_MAX_ORDER, F_LAST_TRICK, F_LAST_WIN, F_VOID = (
    _o(k) for k in ("main_ref", "fightback", "max_order", "last_trick", "last_win", "void")
)
State = PackedState


new_state = LAYOUT.new  # new_state(n): a zeroed state for n games
field = LAYOUT.field  # field(state, name): a writable view of one named field over all rows


# --- observation -------------------------------------------------------------------------------
OBS_LAYOUT = (
    ObsField("hand", 36, 1.0, "own hand (empty until the trump choice is over)"),
    ObsField("played", 4 * 36, 1.0, "cards each seat played this hand (seat blocks)"),
    ObsField("table", 36, 1.0, "cards on the current trick (who played each: see played)"),
    ObsField("main_card", 36, 1.0, "M: the main card of the current trick"),
    ObsField("main_suit", 4, 1.0, "S: the main suit, one-hot"),
    ObsField("win_seat", 4, 1.0, "seat whose card takes the trick now, one-hot"),
    ObsField(
        "win_type",
        8,
        1.0,
        "how: led, one lower, kill, eight, same value, same value + "
        "trump, trump, led card fought back",
    ),
    ObsField("fightback", 1, 1.0, "1 while the led card may still fight back"),
    ObsField("trumps", 4 * 5, 1.0, "per seat: own trump S, H, D, C or none (option 1)"),
    ObsField("suit_class", 4, 1.0, "options 3-5: class of S, H, D, C / 2"),
    ObsField("decl", 4 * 3, 1.0, "per seat: not yet, no, go"),
    ObsField("banks", 4, 2.0, "banks per seat / 6 (clipped at 12)"),
    ObsField("points", 4, 10.0, "points this hand per seat / 100 (sixes -1; clipped at 10)", -0.1),
    ObsField("tricks", 4, 1.0, "tricks taken this hand per seat / 18"),
    ObsField("hand_size", 4, 1.0, "cards in hand per seat / 4"),
    ObsField("seats", 4, 1.0, "1 for each seat in the game"),
    ObsField("dealer", 4, 1.0, "the dealer, one-hot"),
    ObsField("leader", 4, 1.0, "who led the current trick, one-hot"),
    ObsField("stock", 1, 1.0, "cards left in the stock / 36"),
    ObsField("phase", 4, 1.0, "trump choice, declaration, play, over"),
    ObsField("to_act", 1, 1.0, "1 if the observing seat is to act"),
    ObsField("thresholds", 2, 2.0, "points needed after go / no, / 100"),
    ObsField("hand_no", 1, 1.0, "hand number / max_hands"),
)
_OFF = layout_offsets(OBS_LAYOUT)
OBS_DIM = sum(f.size for f in OBS_LAYOUT)
O_HAND, O_PLAYED, O_TABLE, O_MAIN_CARD, O_MAIN_SUIT = (
    _OFF[k] for k in ("hand", "played", "table", "main_card", "main_suit")
)
O_WIN_SEAT, O_WIN_TYPE, O_FIGHTBACK, O_TRUMPS, O_CLASS, O_DECL = (
    _OFF[k] for k in ("win_seat", "win_type", "fightback", "trumps", "suit_class", "decl")
)
O_BANKS, O_POINTS, O_TRICKS, O_HAND_SIZE, O_SEATS, O_DEALER, O_LEADER = (
    _OFF[k] for k in ("banks", "points", "tricks", "hand_size", "seats", "dealer", "leader")
)
O_STOCK, O_PHASE, O_TO_ACT, O_THRESH, O_HAND_NO = (
    _OFF[k] for k in ("stock", "phase", "to_act", "thresholds", "hand_no")
)

__doc__ = __doc__.replace("{obs_table}", layout_table(OBS_LAYOUT)).replace(
    "{config_table}", Config.describe()
)


# --- card helpers ------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def gid(i):
    """Global card id of Esel card index ``i``."""
    return (i // 9) * 13 + (i % 9) + 4


@njit(cache=True, inline="always")
def lid(c):
    """Esel card index of global card id ``c``."""
    return (c // 13) * 9 + (c % 13) - 4


@njit(cache=True, inline="always")
def _local36(mask):
    """The cards of ``mask`` as a 36-bit set of Esel card indices, suit by suit (one pext where
    the CPU runs it fast: ``core.bitmask.dense_suits``)."""
    return dense_suits(mask, 4, 9)


@njit(cache=True, inline="always")
def _planes(mask, out, off):
    """One-hot the 36 cards of ``mask`` into ``out[off:off+36]``."""
    x = _local36(mask)
    spread(x, 36, out, off)


@njit(cache=True, inline="always")
def _suit_mask(suit):
    return np.uint64(0x1FF) << np.uint64(suit * 13 + 4)


@njit(cache=True, inline="always")
def _order(card):
    return ORDER[card % 13]


@njit(cache=True, inline="always")
def _beat(x, y):
    """Beat-table entry for card ``x`` placed on card ``y`` of the same suit (0, 1 or 2)."""
    return BEAT[ORDER[x % 13], ORDER[y % 13]]


@njit(cache=True, inline="always")
def _np(cfg):
    return cfg[C_PLAYERS]


# --- classes of cards (3.2, 4.6) ---------------------------------------------------------------
@njit(cache=True, inline="always")
def _class(s, b, cfg, card, seat):
    """Trump class of ``card`` played by ``seat``: option 1, 1 for the player's own trump;
    options 3-5, the class of its suit; option 2, always 0."""
    opt = cfg[C_OPTION]
    if opt == 1:
        return 1 if s.f[b, F_TRUMP + seat] == card // 13 else 0
    if opt == 2:
        return 0
    return s.f[b, F_CLASS + card // 13]


@njit(cache=True, inline="always")
def _main_class(s, b, cfg, suit):
    """Class of the main suit: 0 under options 1-2 (a trump is a card of another suit)."""
    if cfg[C_OPTION] <= 2:
        return 0
    return s.f[b, F_CLASS + suit]


# --- trick resolution (4.3, 4.4, 4.6) ----------------------------------------------------------
@njit(cache=True, inline="always")
def _resolve(s, b, cfg, card, seat, void, commit):
    """Does ``card`` played by ``seat`` take the current trick (4.4)?

    ``void``: the player holds no card of the main suit. With ``commit`` the trick state is
    updated (the card is placed); without, nothing is written. Returns True if it takes.

    Inlined at its call sites (``commit`` a constant in each): as a call of its own, numba passes
    the state's three arrays field by field on every call, for each candidate card of the legal
    mask; inlined, Esel's batched step got 1.07-1.29 times faster at N = 1024 (6 alternating
    pairs, median 1.16), with the same outputs.
    """
    S = s.f[b, F_MAIN_SUIT]
    M = s.f[b, F_MAIN_CARD]
    W = s.f[b, F_WIN_CARD]
    wt = s.f[b, F_WIN_TYPE]
    cW = s.f[b, F_WIN_CLASS]
    R = s.f[b, F_MAIN_REF]
    suit = card // 13
    rank = card % 13
    oc = ORDER[rank]
    opt35 = cfg[C_OPTION] >= 3
    cC = _class(s, b, cfg, card, seat)
    cS = _main_class(s, b, cfg, S)
    new_type = -1
    if rank == RANK_8 and suit != S and void:
        # E: an eight of another suit, from a player void in the main suit, interrupts and its
        # suit becomes the main suit; it takes W unless W is of its suit and the table refuses
        ok = W // 13 != suit or _beat(card, W) == 1
        if opt35 and cC < cW:
            ok = False  # an ordinary eight never takes a trump (4.6)
        if ok:
            new_type = W_EIGHT
    elif suit == S:
        if W // 13 == S:
            if (wt == W_LEAD or wt == W_EIGHT or wt == W_ONE_LOWER) and _beat(card, W) == 2:
                new_type = W_ONE_LOWER  # one lower than the unkilled led card or chain
            elif _beat(card, W) == 1:
                new_type = W_KILL
        elif wt == W_TRUMP or wt == W_SAME or (wt == W_SAME_TRUMP and cfg[C_VT_KILL]):
            # a main-suit card takes a trump or same-value card (rule e) if it kills the last
            # main-suit card that held the trick (A14); not a higher-class trump (4.6)
            ref = R if cfg[C_KILL_REF] == 0 else M
            if not (opt35 and cW > cS) and _beat(card, ref) == 1:
                new_type = W_KILL
    elif rank == M % 13:
        if cC > cS:
            if not opt35 or cC >= cW or rank == W % 13:
                new_type = W_SAME_TRUMP  # own trump of the main card's value takes anything
        elif wt == W_LEAD or wt == W_ONE_LOWER or wt == W_SAME:
            new_type = W_SAME
    elif cC > cS and wt != W_SAME_TRUMP:
        # T: own trump (higher class) above M and every card that held the trick (A6)
        exceed = s.f[b, F_MAX_ORDER] if cfg[C_EXCEED] == 0 else max(ORDER[M % 13], ORDER[W % 13])
        if (
            oc > ORDER[M % 13]
            and oc > exceed
            and (W // 13 != suit or _beat(card, W) == 1)
            and (not opt35 or cC >= cW)
        ):
            new_type = W_TRUMP
    if new_type < 0:
        return False
    if not commit:
        return True
    s.f[b, F_WIN_CARD] = card
    s.f[b, F_WIN_SEAT] = seat
    s.f[b, F_WIN_TYPE] = new_type
    s.f[b, F_WIN_CLASS] = cC
    if oc > s.f[b, F_MAX_ORDER]:
        s.f[b, F_MAX_ORDER] = oc
    if new_type == W_EIGHT:
        s.f[b, F_MAIN_SUIT] = suit
        s.f[b, F_MAIN_CARD] = card
        s.f[b, F_MAIN_REF] = card
        s.f[b, F_FIGHTBACK] = 0
    elif new_type == W_ONE_LOWER or new_type == W_KILL:
        s.f[b, F_MAIN_REF] = card
    if new_type == W_KILL and s.f[b, F_FIGHTBACK]:
        # the led card fights back against a killer it beats (rows 7, 8; A5)
        L = s.f[b, F_TRICK_CARDS]
        if cfg[C_FIGHTBACK] == 0:
            back = _beat(L, card) == 1
        else:
            back = _beat(card, L) != 1
        if back:
            s.f[b, F_WIN_CARD] = L
            s.f[b, F_WIN_SEAT] = s.f[b, F_TRICK_SEATS]
            s.f[b, F_WIN_TYPE] = W_LEAD if cfg[C_REVIVED] else W_LEAD_KILLED
            s.f[b, F_WIN_CLASS] = _class(s, b, cfg, L, s.f[b, F_TRICK_SEATS])
            s.f[b, F_MAIN_REF] = L
    return True


@njit(cache=True)
def _retro_chain(s, b, cfg):
    """A1 (ii): earlier main-suit cards one lower than the new chain card rejoin the chain."""
    changed = True
    while changed and s.f[b, F_WIN_TYPE] == W_ONE_LOWER:
        changed = False
        for i in range(s.f[b, F_TRICK_N]):
            c = s.f[b, F_TRICK_CARDS + i]
            W = s.f[b, F_WIN_CARD]
            if c != W and c // 13 == s.f[b, F_MAIN_SUIT] and _beat(c, W) == 2:
                s.f[b, F_WIN_CARD] = c
                s.f[b, F_WIN_SEAT] = s.f[b, F_TRICK_SEATS + i]
                s.f[b, F_MAIN_REF] = c
                changed = True
                break


@njit(cache=True, inline="always")
def _lead(s, b, card, seat):
    """Start a trick with ``card`` led by ``seat``: L = M = W, S = its suit (4.1)."""
    s.f[b, F_TRICK_N] = 1
    s.f[b, F_TRICK_CARDS] = card
    s.f[b, F_TRICK_SEATS] = seat
    s.f[b, F_MAIN_SUIT] = card // 13
    s.f[b, F_MAIN_CARD] = card
    s.f[b, F_WIN_CARD] = card
    s.f[b, F_WIN_SEAT] = seat
    s.f[b, F_WIN_TYPE] = W_LEAD
    s.f[b, F_WIN_CLASS] = 0
    s.f[b, F_MAIN_REF] = card
    s.f[b, F_FIGHTBACK] = 1
    s.f[b, F_MAX_ORDER] = ORDER[card % 13]


@njit(cache=True, inline="always")
def _follow(s, b, cfg, card, seat, void):
    """Place a following card on the trick and resolve it; True if it takes the trick now."""
    n = s.f[b, F_TRICK_N]
    s.f[b, F_TRICK_CARDS + n] = card
    s.f[b, F_TRICK_SEATS + n] = seat
    s.f[b, F_TRICK_N] = n + 1
    took = _resolve(s, b, cfg, card, seat, void, True)
    if took and cfg[C_RETRO]:
        _retro_chain(s, b, cfg)
    return took


@njit(cache=True)
def trick_row(s, b, cfg, cards, seats, voids):
    """Resolve one whole trick in row ``b`` (for the rules helper); returns the winning index."""
    _lead(s, b, cards[0], seats[0])
    for i in range(1, cards.shape[0]):
        _follow(s, b, cfg, cards[i], seats[i], voids[i])
    w = s.f[b, F_WIN_CARD]
    for i in range(cards.shape[0]):
        if cards[i] == w:
            return i
    return -1


# --- hands, declarations, scoring (3, 5) -------------------------------------------------------
@njit(cache=True)
def _shuffle_deck(s, b):
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], s.f[b, F_DEAL_NO])
    for i in range(NUM_CARDS):
        s.f[b, F_DECK + i] = gid(i)
    rng.shuffle(base, s.f[b, F_DECK : F_DECK + NUM_CARDS])


@njit(cache=True)
def _start_hand(s, b, cfg):
    """Deal the row's deck: 4 cards each from the dealer's left, the rest is the stock; fix the
    trump arrangement (3.2, 3.3)."""
    P = _np(cfg)
    dealer = s.f[b, F_DEALER]
    for p in range(MAX_SEATS):
        s.m[b, M_HAND + p] = 0
        s.m[b, M_PLAYED + p] = 0
        s.m[b, M_TAKEN + p] = 0
        s.v[b, V_POINTS + p] = 0
        s.f[b, F_TRICKS + p] = 0
        s.f[b, F_TRUMP + p] = -1
        s.f[b, F_CLASS + p] = 0
        s.f[b, F_DECL + p] = -1
        s.f[b, F_LAST_TRICK + p] = -1
        s.f[b, F_VOID + p] = 0
    for i in range(P):
        seat = (dealer + 1 + i) % P
        for k in range(HAND):
            s.m[b, M_HAND + seat] |= bit(s.f[b, F_DECK + HAND * i + k])
    s.f[b, F_STOCK] = HAND * P
    s.f[b, F_TRICK_N] = 0
    s.f[b, F_LAST_WIN] = -1
    s.f[b, F_LAST_WIN + 1] = -1
    opt = cfg[C_OPTION]
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], 1000 + s.f[b, F_DEAL_NO])
    if opt == 1 and cfg[C_RANDOM_TRUMPS] == 1:
        # random distinct own trumps (A3 alternative)
        suits = np.arange(4, dtype=np.int8)
        rng.shuffle(base, suits)
        for p in range(P):
            s.f[b, F_TRUMP + p] = suits[p]
    elif opt == 3 or opt == 4:
        common = cfg[C_COMMON]
        if common == 0:
            suits = np.arange(4, dtype=np.int8)
            rng.shuffle(base, suits)
            for k in range(opt - 2):
                common |= 1 << suits[k]
        for suit in range(4):
            s.f[b, F_CLASS + suit] = (common >> suit) & 1
    elif opt == 5:
        s.f[b, F_CLASS + 0] = 2  # spades: senior trumps
        s.f[b, F_CLASS + 2] = 1  # diamonds: junior trumps
    left = (dealer + 1) % P
    s.f[b, F_CURRENT] = left
    s.f[b, F_PHASE] = PHASE_TRUMP if (opt == 1 and cfg[C_RANDOM_TRUMPS] == 0) else PHASE_DECLARE


@njit(cache=True)
def _first_leader(s, b, cfg):
    """The holder of the lowest diamond leads; nobody: the dealer's left (4.1)."""
    P = _np(cfg)
    best, who = 99, (s.f[b, F_DEALER] + 1) % P
    for p in range(P):
        dia = (s.m[b, M_HAND + p] >> np.uint64(2 * 13)) & np.uint64(0x1FFF)
        for r in range(4, 13):
            if (dia >> np.uint64(r)) & np.uint64(1) and ORDER[r] < best:
                best, who = ORDER[r], p
    return who


@njit(cache=True)
def _reset(s, b, cfg, key, episode, deck, dealer):
    """Start a game in row ``b`` (``deck[0] < 0``: shuffle; ``dealer < 0``: draw)."""
    s.m[b, M_KEY] = key
    s.m[b, M_EPISODE] = episode
    s.f[b, F_DEAL_NO] = 0
    s.f[b, F_WINNER] = -1
    for p in range(MAX_SEATS):
        s.f[b, F_BANKS + p] = START_BANKS if p < _np(cfg) else 0
        s.f[b, F_BANK_CHANGE + p] = 0
        s.v[b, V_LAST_POINTS + p] = 0
    if deck[0] < 0:
        _shuffle_deck(s, b)
    else:
        for i in range(NUM_CARDS):
            s.f[b, F_DECK + i] = deck[i]
    if dealer < 0:
        dealer = rng.draw(rng.stream(key, episode, 2000), 0, _np(cfg))  # by lot (3.1)
    s.f[b, F_DEALER] = dealer
    _start_hand(s, b, cfg)


@njit(cache=True, inline="always")
def _take_trick(s, b, cfg):
    """The trick goes to W's player; refill hands, the winner first (3.3, 4.1)."""
    P = _np(cfg)
    w = s.f[b, F_WIN_SEAT]
    suit0 = s.f[b, F_TRICK_CARDS] // 13
    one_suit = True
    for i in range(P):
        c = s.f[b, F_TRICK_CARDS + i]
        s.m[b, M_TAKEN + w] |= bit(c)
        s.v[b, V_POINTS + w] += POINTS[c % 13]
        one_suit = one_suit and c // 13 == suit0
        s.f[b, F_LAST_TRICK + i] = c
    if P == 4 and one_suit and cfg[C_FOUR_RANK] == 0:
        s.v[b, V_POINTS + w] += cfg[C_FOUR]  # four cards of one suit (A9)
    s.f[b, F_LAST_WIN] = w
    s.f[b, F_LAST_WIN + 1] = s.f[b, F_WIN_TYPE]
    s.f[b, F_TRICKS + w] += 1
    s.f[b, F_TRICK_N] = 0
    for i in range(P):
        p = seat_mod(w + i, P)
        if s.f[b, F_STOCK] < NUM_CARDS:
            s.m[b, M_HAND + p] |= bit(s.f[b, F_DECK + s.f[b, F_STOCK]])
            s.f[b, F_STOCK] += 1
            s.f[b, F_VOID + p] = 0  # a drawn card may be of a suit he was known to lack
    if s.m[b, M_HAND + w] == np.uint64(0):
        _end_hand(s, b, cfg)
    else:
        s.f[b, F_CURRENT] = w


@njit(cache=True)
def _end_hand(s, b, cfg):
    """Score the hand, move the banks, decide the game or deal the next hand (5)."""
    P = _np(cfg)
    go_at, no_at = THRESHOLDS[P, 0], THRESHOLDS[P, 1]
    for p in range(P):
        t = s.m[b, M_TAKEN + p]
        for suit in range(4):
            if (
                (t >> np.uint64(suit * 13 + RANK_K))
                & (t >> np.uint64(suit * 13 + RANK_Q))
                & np.uint64(1)
            ):
                s.v[b, V_POINTS + p] += cfg[C_MARRIAGE]  # king and queen of one suit
        if (t >> np.uint64(RANK_Q)) & (t >> np.uint64(2 * 13 + RANK_J)) & np.uint64(1):
            s.v[b, V_POINTS + p] += cfg[C_QJ]  # queen of spades and jack of diamonds
        if cfg[C_FOUR_RANK] == 1:
            for r in range(4, 13):  # A9 alternative: all four cards of one rank taken
                if (
                    (t >> np.uint64(r))
                    & (t >> np.uint64(13 + r))
                    & (t >> np.uint64(26 + r))
                    & (t >> np.uint64(39 + r))
                    & np.uint64(1)
                ):
                    s.v[b, V_POINTS + p] += cfg[C_FOUR]
        pts = s.v[b, V_POINTS + p]
        change = 0
        if s.f[b, F_DECL + p] == 1:
            change = -1 if pts >= go_at else 1
        elif pts >= no_at:
            change = -1
        if s.f[b, F_BANKS + p] + change < 0:
            change = 0  # all banks discharged: a bank count never goes below 0
        s.f[b, F_BANK_CHANGE + p] = change
        s.f[b, F_BANKS + p] += change
        s.v[b, V_LAST_POINTS + p] = pts
    # the end of the game (5.3): one player at 0 banks wins; at 6 banks the fewest win; ties
    # play on (A13); after max_hands the fewest win, a tie is drawn
    zero, n_zero, six = -1, 0, False
    low, n_low, low_seat = 127, 0, -1
    for p in range(P):
        k = s.f[b, F_BANKS + p]
        if k <= 0:
            zero, n_zero = p, n_zero + 1
        if k >= LOSE_BANKS:
            six = True
        if k < low:
            low, n_low, low_seat = k, 1, p
        elif k == low:
            n_low += 1
    last = s.f[b, F_DEAL_NO] + 1 >= cfg[C_MAX_HANDS]
    if n_zero == 1:
        _game_over(s, b, cfg, zero)
        return
    if (six or last) and n_low == 1:
        _game_over(s, b, cfg, low_seat)
        return
    if last:
        _game_over(s, b, cfg, -1)
        return
    if cfg[C_EPISODE] == 1:
        _game_over(s, b, cfg, -1)
        return
    first = s.f[b, F_FIRST_LEADER]
    if cfg[C_NEXT_DEALER] == 0:
        s.f[b, F_DEALER] = first
    elif cfg[C_NEXT_DEALER] == 1:
        s.f[b, F_DEALER] = (s.f[b, F_DEALER] + 1) % P
    s.f[b, F_DEAL_NO] += 1
    _shuffle_deck(s, b)
    _start_hand(s, b, cfg)


@njit(cache=True, inline="always")
def _game_over(s, b, cfg, winner):
    s.f[b, F_PHASE] = PHASE_OVER
    s.f[b, F_CURRENT] = -1
    s.f[b, F_WINNER] = winner


@njit(cache=True)
def _write_rewards(s, b, cfg, out):
    """Zero-sum rewards of a finished episode (see the reward table)."""
    P = _np(cfg)
    for p in range(P):
        out[p] = 0.0
    if cfg[C_EPISODE] == 0:
        if cfg[C_REWARD] == 0:
            w = s.f[b, F_WINNER]
            if w >= 0:
                for p in range(P):
                    out[p] = 1.0 if p == w else -1.0 / (P - 1)
        else:
            mean = 0.0
            for p in range(P):
                mean += s.f[b, F_BANKS + p] / P
            for p in range(P):
                out[p] = mean - s.f[b, F_BANKS + p]
    else:
        mean = 0.0
        for p in range(P):
            mean += (
                s.f[b, F_BANK_CHANGE + p] if cfg[C_REWARD] == 0 else s.v[b, V_LAST_POINTS + p]
            ) / P
        for p in range(P):
            if cfg[C_REWARD] == 0:
                out[p] = mean - s.f[b, F_BANK_CHANGE + p]
            else:
                out[p] = s.v[b, V_LAST_POINTS + p] - mean


# --- legal actions, step, observation ----------------------------------------------------------
@njit(cache=True, inline="always")
def _legal_cards(s, b, cfg):
    """The cards the player to act may play, as a card mask (4.5)."""
    seat = s.f[b, F_CURRENT]
    hand = s.m[b, M_HAND + seat]
    if s.f[b, F_TRICK_N] == 0:
        return hand  # the leader plays anything
    S = s.f[b, F_MAIN_SUIT]
    main = hand & _suit_mask(S)
    void = main == np.uint64(0)
    takers = np.uint64(0)
    others = np.uint64(0)
    x = hand
    if not cfg[C_MUST_BEAT]:
        # a main-suit card (any card, from a player void in it) is legal whether or not it takes:
        # only the other cards need the trick resolved (the loop below, short-circuited)
        others = hand if void else main
        x = hand & ~others
    while x != np.uint64(0):
        low = x & (np.uint64(0) - x)
        c = lowest(x)
        x ^= low
        if c % 13 == RANK_8 and c // 13 != S and not void:
            continue  # an off-suit 8 only from a player void in the main suit
        if _resolve(s, b, cfg, c, seat, void, False):
            takers |= low
        elif c // 13 == S or void:
            others |= low  # not taking: a main-suit card if he has one, else anything
    if cfg[C_MUST_BEAT] and takers != np.uint64(0):
        return takers
    return takers | others


@njit(cache=True, inline="always")  # into step_rows; the other callers: legal_row
def _legal(s, b, cfg, out):
    """Write the legal-action mask of the seat to act into ``out``."""
    for i in range(NUM_ACTIONS):
        out[i] = 0
    ph = s.f[b, F_PHASE]
    if ph == PHASE_PLAY:
        cards = _legal_cards(s, b, cfg)
        s.m[b, M_LEGAL] = cards  # kept for checking the next action without recomputing
        x = _local36(cards)
        spread(x, 36, out, ACTION_PLAY)
    elif ph == PHASE_DECLARE:
        out[ACTION_GO] = 1
        out[ACTION_NO] = 1
    elif ph == PHASE_TRUMP:
        for suit in range(4):
            taken = False
            for p in range(_np(cfg)):
                taken = taken or s.f[b, F_TRUMP + p] == suit
            out[ACTION_TRUMP + suit] = 0 if taken else 1


@njit(cache=True, inline="always")
def _is_legal(s, b, cfg, a):
    ph = s.f[b, F_PHASE]
    if ph == PHASE_PLAY:
        if a >= ACTION_GO:
            return False
        c = gid(a - ACTION_PLAY)
        # the legal cards written with the last mask, and (never trusting a cache blindly) in hand
        ok = s.m[b, M_LEGAL] & s.m[b, M_HAND + s.f[b, F_CURRENT]]
        return (ok >> np.uint64(c)) & np.uint64(1) == np.uint64(1)
    if ph == PHASE_DECLARE:
        return a == ACTION_GO or a == ACTION_NO
    if ph == PHASE_TRUMP:
        if a < ACTION_TRUMP:
            return False
        for p in range(_np(cfg)):
            if s.f[b, F_TRUMP + p] == a - ACTION_TRUMP:
                return False
        return True
    return False


@njit(cache=True, inline="always")  # into step_rows, its only caller
def _apply(s, b, cfg, a):
    """Apply legal action ``a`` of the seat to act."""
    P = _np(cfg)
    seat = s.f[b, F_CURRENT]
    ph = s.f[b, F_PHASE]
    if ph == PHASE_TRUMP:
        s.f[b, F_TRUMP + seat] = a - ACTION_TRUMP
        nxt = seat_mod(seat + 1, P)
        if nxt == seat_mod(s.f[b, F_DEALER] + 1, P):
            s.f[b, F_PHASE] = PHASE_DECLARE
        s.f[b, F_CURRENT] = nxt
        return
    if ph == PHASE_DECLARE:
        s.f[b, F_DECL + seat] = 1 if a == ACTION_GO else 0
        nxt = seat_mod(seat + 1, P)
        if nxt == seat_mod(s.f[b, F_DEALER] + 1, P):
            s.f[b, F_PHASE] = PHASE_PLAY
            lead = _first_leader(s, b, cfg)
            s.f[b, F_FIRST_LEADER] = lead
            s.f[b, F_CURRENT] = lead
        else:
            s.f[b, F_CURRENT] = nxt
        return
    card = gid(a - ACTION_PLAY)
    void = s.m[b, M_HAND + seat] & _suit_mask(s.f[b, F_MAIN_SUIT]) == np.uint64(0)
    s.m[b, M_HAND + seat] &= ~bit(card)
    s.m[b, M_PLAYED + seat] |= bit(card)
    if s.f[b, F_TRICK_N] == 0:
        _lead(s, b, card, seat)
    else:
        S = s.f[b, F_MAIN_SUIT]
        took = _follow(s, b, cfg, card, seat, void)
        if card // 13 != S and (card % 13 == RANK_8 or not took):
            # 4.5: an off-suit card that does not take, or an off-suit eight, is only legal
            # from a player void in the main suit; everybody saw it (kept for determinize)
            s.f[b, F_VOID + seat] |= np.int8(1 << S)
    if s.f[b, F_TRICK_N] == P:
        _take_trick(s, b, cfg)
    else:
        s.f[b, F_CURRENT] = seat_mod(seat + 1, P)


@njit(cache=True, inline="always")  # into step_rows; the other callers: observe_row
def _observe(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (length OBS_DIM)."""
    P = _np(cfg)
    ph = s.f[b, F_PHASE]
    # card planes of present seats are written whole; zero the rest
    for i in range(O_PLAYED + 36 * P, O_TABLE):
        out[i] = 0.0
    for i in range(O_MAIN_CARD, OBS_DIM):
        out[i] = 0.0
    _planes(s.m[b, M_HAND + seat] if ph != PHASE_TRUMP else np.uint64(0), out, O_HAND)
    for k in range(P):
        p = seat_mod(seat + k, P)
        _planes(s.m[b, at(M_PLAYED, p)], out, O_PLAYED + 36 * k)
        t = s.f[b, at(F_TRUMP, p)]
        out[O_TRUMPS + 5 * k + (t if t >= 0 else 4)] = 1.0
        out[O_DECL + 3 * k + s.f[b, at(F_DECL, p)] + 1] = 1.0
        out[O_BANKS + k] = min(s.f[b, at(F_BANKS, p)], 12) * (1.0 / 6.0)
        out[O_POINTS + k] = min(s.v[b, at(V_POINTS, p)] * (1.0 / 100.0), 10.0)  # the bound
        out[O_TRICKS + k] = s.f[b, at(F_TRICKS, p)] * (1.0 / 18.0)
        if ph != PHASE_TRUMP:
            out[O_HAND_SIZE + k] = popcount(s.m[b, at(M_HAND, p)]) * (1.0 / 4.0)
        out[O_SEATS + k] = 1.0
    dealer = s.f[b, F_DEALER]
    if dealer >= 0:
        out[O_DEALER + seat_mod(dealer - seat, P)] = 1.0
    table = np.uint64(0)
    for i in range(s.f[b, F_TRICK_N]):
        table |= bit(s.f[b, F_TRICK_CARDS + i])
    _planes(table, out, O_TABLE)
    if s.f[b, F_TRICK_N] > 0:
        out[O_LEADER + seat_mod(s.f[b, F_TRICK_SEATS] - seat, P)] = 1.0
    if s.f[b, F_TRICK_N] > 0:
        out[O_MAIN_CARD + lid(s.f[b, F_MAIN_CARD])] = 1.0
        out[O_MAIN_SUIT + s.f[b, F_MAIN_SUIT]] = 1.0
        out[O_WIN_SEAT + seat_mod(s.f[b, F_WIN_SEAT] - seat, P)] = 1.0
        out[O_WIN_TYPE + s.f[b, F_WIN_TYPE]] = 1.0
        out[O_FIGHTBACK] = s.f[b, F_FIGHTBACK]
    for suit in range(4):
        out[O_CLASS + suit] = s.f[b, F_CLASS + suit] * (1.0 / 2.0)
    out[O_STOCK] = (NUM_CARDS - s.f[b, F_STOCK]) * (1.0 / 36.0)
    out[O_PHASE + ph] = 1.0
    out[O_TO_ACT] = 1.0 if s.f[b, F_CURRENT] == seat else 0.0
    out[O_THRESH] = THRESHOLDS[P, 0] * (1.0 / 100.0)
    out[O_THRESH + 1] = THRESHOLDS[P, 1] * (1.0 / 100.0)
    out[O_HAND_NO] = s.f[b, F_DEAL_NO] / cfg[C_MAX_HANDS]


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


@njit(cache=True)
def step_rows(s, cfg, actions, autoreset, obs, mask, rewards, terminated):
    """Apply ``actions[b]`` in every row; write rewards, termination, next observation and mask.

    A row whose game is over (without autoreset) or whose action is illegal is left unchanged.
    """
    s, cfg, obs, mask, rewards = borrowed_step(s, cfg, obs, mask, rewards)  # no refcounting
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
    w = int(s.f[b, F_WINNER])
    P = config.num_players
    return {
        "winner": None if w < 0 else w,
        "banks": s.f[b, F_BANKS : F_BANKS + P].tolist(),
        "hands": int(s.f[b, F_DEAL_NO]) + 1,
    }


def deal_extras(s: PackedState, b: int, config: Config) -> dict:
    """Record fields of a finished hand: each seat's bank change and banks after it."""
    P = config.num_players
    return {
        "bank_change": s.f[b, F_BANK_CHANGE : F_BANK_CHANGE + P].tolist(),
        "banks": s.f[b, F_BANKS : F_BANKS + P].tolist(),
    }


DETERMINIZE_TRIES = 100  # uniform draws tried before the constructive draw (see determinize)
_SUIT_OF = {c: c // 13 for c in DECK.cards.tolist()}


def determinize(s: PackedState, b: int, config: Config, seat: int, rng) -> None:
    """Redraw in place what ``seat`` cannot see in row ``b``, consistently with what it saw.

    Redrawn: the other players' hands and the order of the stock (during the trump choice every
    hand, its own too: nobody has seen his cards yet). Each hand keeps its size; the cards drawn
    are the ones in those hands and the stock, so every card stays once.

    Kept (public or the seat's own): its own hand, the cards each seat played, the current trick
    and its resolution state, the cards taken, declarations, trumps and suit classes, points,
    tricks, banks, the dealer, the first leader and the stock size.

    Enforced constraint: the voids revealed by play (4.5). A follower who plays an off-suit card
    that does not take the trick, or an off-suit eight, holds no card of the main suit; the
    ``void`` state field keeps these suits per seat until that seat next draws from the stock
    (then the bits are cleared) and a hand is never redrawn with a card of a suit in its
    ``void`` bits. The draw is uniform among the allowed deals: up to ``DETERMINIZE_TRIES``
    uniform permutations, the first one that respects every void is taken (rejection sampling).
    If none does, a constructive draw deals the most constrained seats first, each uniformly from
    the remaining cards it may hold (not exactly uniform); if even that runs out of cards, the
    true hands are kept (only the stock order is redrawn) -- an information leak to the search
    in that rare case, never an inconsistent state.

    Knowingly left out (a determinization may contradict them):
    - after a draw a known void becomes "at most as many cards of that suit as cards drawn since";
      only the certain void until the next draw is kept;
    - ``must_beat=True``: a follower who did not take revealed he held no card that would take;
    - the first lead (4.1): its player held the lowest diamond dealt and nobody a lower one (no
      diamond at all in any hand when the dealer's left led without one);
    - inferences from the declarations and from how the others chose their plays (strategy, not
      rules: the search's business);
    - the deck order before the stock (the dealt cards and the draws so far) is left as it was;
      the rules never read it again, but in a copy it need not match the redrawn hands.
    """
    P = config.num_players
    hidden_own = int(s.f[b, F_PHASE]) == PHASE_TRUMP
    seats = [p for p in range(P) if p != seat or hidden_own]
    sp = int(s.f[b, F_STOCK])
    stock = s.f[b, F_DECK + sp : F_DECK + NUM_CARDS].tolist()
    pool = list(stock)
    true_hands, sizes, voids = [], [], []
    for p in seats:
        m = int(s.m[b, M_HAND + p])
        cards = [c for c in DECK.cards.tolist() if (m >> c) & 1]
        pool += cards
        true_hands.append(m)
        sizes.append(len(cards))
        voids.append(int(s.f[b, F_VOID + p]) & 0xF)
    k = sum(sizes)
    pool_a = np.array(pool, np.int64)
    suits = pool_a // 13
    slot_void = np.repeat(np.array(voids, np.int64), sizes) if seats else np.zeros(0, np.int64)
    order = None
    for _ in range(DETERMINIZE_TRIES if any(voids) else 1):
        perm = rng.permutation(len(pool))
        if not ((slot_void >> suits[perm[:k]]) & 1).any():
            order = pool_a[perm].tolist()
            break
    hands = None
    if order is not None:
        hands, i = [], 0
        for n in sizes:
            hands.append(sum(1 << c for c in order[i : i + n]))
            i += n
        rest = order[k:]
    else:
        hands = _constructive_hands(pool, sizes, voids, rng)
        if hands is None:
            hands = true_hands  # fall back to the true hands (see the docstring)
        used = 0
        for m in hands:
            used |= m
        rest = [c for c in pool if not (used >> c) & 1]
        rest = [rest[i] for i in rng.permutation(len(rest))]
    for p, m in zip(seats, hands, strict=True):
        s.m[b, M_HAND + p] = np.uint64(m)
    s.f[b, F_DECK + sp : F_DECK + NUM_CARDS] = rest


def _constructive_hands(pool, sizes, voids, rng):
    """Deal the most constrained seats first, each uniformly from the cards it may hold; None if
    some seat cannot be filled."""
    hands = [0] * len(sizes)
    left = list(pool)
    for i in sorted(range(len(sizes)), key=lambda i: -bin(voids[i]).count("1")):
        ok = [c for c in left if not (voids[i] >> _SUIT_OF[c]) & 1]
        if len(ok) < sizes[i]:
            return None
        pick = [ok[j] for j in rng.choice(len(ok), size=sizes[i], replace=False).tolist()]
        for c in pick:
            hands[i] |= 1 << c
        chosen = set(pick)
        left = [c for c in left if c not in chosen]
    return hands


def deck_strings(s: PackedState, b: int) -> list[str]:
    """The current hand's deck order (hands from the dealer's left, then the stock)."""
    return format_cards(s.f[b, F_DECK : F_DECK + NUM_CARDS]).split()


def trick_winner(cards, trumps=None, trump_option: int = 1, **config) -> int:
    """Index of the card that takes a trick (spec 4.3, 4.4, 4.6).

    Args:
        cards: the trick's cards in play order, leader first (card strings or one string),
            one per player (2–4).
        trumps: option 1: each position's own trump suit (``"S" "H" "D" "C"`` or ``None``), a
            list as long as ``cards`` (default: nobody plays his own trump). Options 3/4: the
            common trump suit(s), e.g. ``"H"`` or ``"HS"``; ignored for options 2 and 5.
        trump_option: 1–5.
        **config: other ``Config`` options (``retroactive_chain``, ``fightback``, ...).

    An off-suit 8 counts as an eight interruption (legal play guarantees its player was void in
    the main suit); other players are taken to hold the main suit or not as their card implies.
    """
    ids = [DECK.check_card(c) for c in (cards.split() if isinstance(cards, str) else cards)]
    n = len(ids)
    if not 2 <= n <= MAX_SEATS:
        raise ValueError(f"a trick has one card per player, 2-4 cards; got {n}")
    if len(set(ids)) != n:
        raise ValueError(f"a trick cannot hold a card twice: {format_cards(ids)}")
    kw = dict(config, num_players=n, trump_option=trump_option)
    if trump_option in (3, 4):
        if not isinstance(trumps, str):
            raise ValueError(f"option {trump_option} needs the common trump suit(s), e.g. 'H'")
        kw["common_trumps"] = trumps
    cfg = Config.from_kwargs(**kw).to_array()
    s = new_state(1)
    if trump_option == 1:
        own = [None] * n if trumps is None else list(trumps)
        if len(own) != n:
            raise ValueError(
                f"trumps must give one suit (or None) per card: {n} expected, got {len(own)}"
            )
        for p, t in enumerate(own):
            if t is not None and t not in SUITS:
                raise ValueError(f"trump suit {t!r} must be one of 'S', 'H', 'D', 'C' or None")
            s.f[0, F_TRUMP + p] = -1 if t is None else SUITS.index(t)
    elif trump_option in (3, 4):
        for suit in range(4):
            s.f[0, F_CLASS + suit] = (int(cfg[C_COMMON]) >> suit) & 1
    elif trump_option == 5:
        s.f[0, F_CLASS + 0], s.f[0, F_CLASS + 2] = 2, 1
    cards_a = np.array(ids, np.int8)
    seats = np.arange(n, dtype=np.int8)
    voids = np.zeros(n, np.bool_)
    main = ids[0] // 13
    for i in range(1, n):
        c = ids[i]
        if c % 13 == RANK_8 and c // 13 != main:
            voids[i] = True
            main = c // 13  # after an eight its suit is the main suit for the later players
    return int(trick_row(s, 0, cfg, cards_a, seats, voids))
