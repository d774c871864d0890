"""Esel's packed state layout (``STATE_FIELDS``, ``LAYOUT`` and the ``M_``/``V_``/``F_`` offsets)
and its observation layout (``OBS_LAYOUT``, the ``O_`` offsets, ``OBS_DIM``).

Rules: ``docs/games/esel.md`` (4.3-4.4 name the trick state S, M, W, R kept here; section 10
describes the observation).

Observation
-----------
A flat ``float32`` vector, egocentric: seat blocks are ordered from the observer (0) clockwise;
blocks for seats beyond ``num_players`` stay zero.

{obs_table}
"""

from __future__ import annotations

from ...core.game import ObsField, layout_offsets, layout_table
from ...core.state import PackedState, StateLayout
from .constants import NAME

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
F_TRUMP, F_SUIT_CLASS, F_DECL, F_BANKS, F_BANK_CHANGE = (
    _o(k) for k in ("trump", "suit_class", "decl", "banks", "bank_change")
)
F_STOCK_POS, F_FIRST_LEADER, F_TRICKS, F_TRICK_N, F_TRICK_CARDS, F_TRICK_SEATS = (
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
O_WIN_SEAT, O_WIN_TYPE, O_FIGHTBACK, O_TRUMPS, O_SUIT_CLASS, O_DECL = (
    _OFF[k] for k in ("win_seat", "win_type", "fightback", "trumps", "suit_class", "decl")
)
O_BANKS, O_POINTS, O_TRICKS, O_HAND_SIZE, O_SEATS, O_DEALER, O_LEADER = (
    _OFF[k] for k in ("banks", "points", "tricks", "hand_size", "seats", "dealer", "leader")
)
O_STOCK, O_PHASE, O_TO_ACT, O_THRESHOLDS, O_HAND_NO = (
    _OFF[k] for k in ("stock", "phase", "to_act", "thresholds", "hand_no")
)


__doc__ = __doc__.replace("{obs_table}", layout_table(OBS_LAYOUT))
