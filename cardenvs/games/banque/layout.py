"""Banque's packed state (``STATE_FIELDS``, ``LAYOUT``, the ``M_``/``V_``/``F_`` offsets) and
its observation (``OBS_LAYOUT``, the ``O_`` offsets, ``OBS_DIM``); rules: ``docs/games/banque.md``.

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
    ("taken", "m", 4, "cards of the banks each seat took this hand"),
    ("drawn", "m", 1, "cards the seat to act drew this turn"),
    ("key", "m", 1, "the row's random key"),
    ("episode", "m", 1, "episode index since the last seeding"),
    ("legal", "m", 2, "legal actions of the seat to act (bit a of word a // 64; a cache)"),
    # v (int16) bounds under the widest legal config (tests/test_score_bounds.py): a hand's
    # penalty <= 220 (card points 124 + 6 x 16 zero-point cards; per card 6 x 36 = 216), its
    # bonuses <= 4 x 1,000 = 4,000 (the option bounds), its bank points <= 124. So total
    # -28,160..30,000: >= -(max_hands 128 x 220), negative totals allowed; <= 30,000, capped
    # in _end_hand (tie-break hands may go on to max_hands); last_points -220..4,124;
    # bank_points, last_bank_points <= 124; bonus, last_bonus <= 4,000; penalty <= 220.
    ("total", "v", 4, "match totals per seat"),
    ("last_points", "v", 4, "scores of the last finished hand per seat"),
    ("bank_points", "v", 4, "card points of the banks taken this hand per seat"),
    ("bonus", "v", 4, "going-out bonuses this hand per seat"),
    ("penalty", "v", 4, "penalty of the last finished hand per seat"),
    ("last_bank_points", "v", 4, "bank points of the last finished hand per seat"),
    ("last_bonus", "v", 4, "going-out bonuses of the last finished hand per seat"),
    ("deck", "f", 36, "this hand's deck order (hands from the dealer's left, centre, stock)"),
    ("bank", "f", 36, "the bank, bottom card first"),
    ("owner", "f", 36, "owner seat of each bank card, -1 none"),
    ("bank_n", "f", 1, "cards in the bank"),
    ("base_prev", "f", 1, "owner of the base card before it became the base, -1 none"),
    ("stock_pos", "f", 1, "deck index of the next stock card"),
    # int8: deal_no <= max_hands - 1 = 127
    ("deal_no", "f", 1, "hand number, 0-based"),
    ("dealer", "f", 1, "seat of the dealer"),
    ("current", "f", 1, "seat to act, -1 when the game is over"),
    ("phase", "f", 1, "PHASE_*"),
    ("winner", "f", 1, "the winning seat of the finished episode, -1 none or several"),
    ("winners", "f", 4, "1 for each winner of the finished episode"),
    ("trump", "f", 4, "option 1: each seat's own trump suit, -1 none"),
    ("suit_class", "f", 4, "options 3-5: class of each suit (0 plain, 1 trump/junior, 2 senior)"),
    ("out", "f", 4, "finishing position per seat this hand (1, 2, 3), 0 not out"),
    ("n_out", "f", 1, "players gone out this hand"),
    ("sitting", "f", 4, "1 for a seat sitting this hand out (tie-break, tied only)"),
    ("contender", "f", 4, "1 for a seat that can still win (a tie-break is on)"),
    ("tiebreak", "f", 1, "1 while a tie-break hand is being played"),
    ("seven", "f", 1, "the seven effect on this turn: 0 none, 1 control, 2 drew first"),
    ("seven_next", "f", 1, "1 if a seven was just put on top (affects the next mover)"),
    ("draws", "f", 1, "cards drawn this turn"),
    ("fails", "f", 1, "failures on an empty stock since the last play (deadlock count)"),
    ("follow", "f", 1, "KIND_* of the special play being followed up"),
    ("starter", "f", 1, "seat that made the first move of the hand"),
    ("last_player", "f", 1, "seat that made the last play"),
    ("next_mover", "f", 1, "out of turn: the seat whose turn comes after the questions"),
    ("ended_by", "f", 1, "how the last hand ended: 0 going out, 1 deadlock"),
    ("last_out", "f", 4, "finishing positions of the last finished hand per seat"),
)
LAYOUT = StateLayout(NAME, STATE_FIELDS)
_o = LAYOUT.offset
M_HAND, M_TAKEN, M_DRAWN, M_KEY, M_EPISODE, M_LEGAL = (
    _o(k) for k in ("hand", "taken", "drawn", "key", "episode", "legal")
)
V_TOTAL, V_LAST_POINTS, V_BANK_POINTS, V_BONUS, V_PENALTY = (
    _o(k) for k in ("total", "last_points", "bank_points", "bonus", "penalty")
)
V_LAST_BANK_POINTS, V_LAST_BONUS, F_LAST_OUT = (
    _o("last_bank_points"),
    _o("last_bonus"),
    _o("last_out"),
)
F_DECK, F_BANK, F_OWNER, F_BANK_N, F_BASE_PREV, F_STOCK_POS = (
    _o(k) for k in ("deck", "bank", "owner", "bank_n", "base_prev", "stock_pos")
)
F_DEAL_NO, F_DEALER, F_CURRENT, F_PHASE, F_WINNER, F_WINNERS = (
    _o(k) for k in ("deal_no", "dealer", "current", "phase", "winner", "winners")
)
F_TRUMP, F_SUIT_CLASS, F_OUT, F_N_OUT, F_SITTING, F_CONTENDER, F_TIEBREAK = (
    _o(k) for k in ("trump", "suit_class", "out", "n_out", "sitting", "contender", "tiebreak")
)
F_SEVEN, F_SEVEN_NEXT, F_DRAWS, F_FAILS, F_FOLLOW, F_STARTER, F_LAST_PLAYER = (
    _o(k) for k in ("seven", "seven_next", "draws", "fails", "follow", "starter", "last_player")
)
F_NEXT_MOVER, F_ENDED_BY = _o("next_mover"), _o("ended_by")
State = PackedState
new_state = LAYOUT.new  # new_state(n): a zeroed state for n games
field = LAYOUT.field  # field(state, name): a writable view of one named field over all rows

# --- observation -------------------------------------------------------------------------------
OBS_LAYOUT = (
    ObsField("hand", 36, 1.0, "own hand (empty until the trump choice is over)"),
    ObsField("bank_owner", 5 * 36, 1.0, "bank cards by owner: seat blocks, then 'no owner'"),
    ObsField("bank_pos", 36, 1.0, "bank cards: position from the bottom / 36, 0 = absent"),
    ObsField("top", 36, 1.0, "the bank's top card"),
    ObsField("taken", 36, 1.0, "cards of the banks taken this hand (out of play)"),
    ObsField("drawn", 36, 1.0, "cards the observer drew this turn (while to act)"),
    ObsField("hand_size", 4, 1.0, "cards in hand per seat / 36"),
    ObsField("stock", 1, 1.0, "cards left in the stock / 36"),
    ObsField("trumps", 4 * 5, 1.0, "per seat: own trump S, H, D, C or none (option 1)"),
    ObsField("suit_class", 4, 1.0, "options 3-5: class of S, H, D, C / 2"),
    ObsField("out", 4, 1.0, "finishing position per seat / 3, 0 = not out"),
    ObsField("bank_points", 4, 1.0, "card points of the banks taken this hand / 124"),
    ObsField("bonus", 4, 4.0, "going-out bonuses this hand / 100 (clipped at 4)"),
    ObsField("total", 4, 20.0, "match totals / target", -20.0),
    ObsField("sitting", 4, 1.0, "1 for a seat sitting this hand out"),
    ObsField("contender", 4, 1.0, "tie-break: 1 for a seat that can still win"),
    ObsField("seats", 4, 1.0, "1 for each seat in the game"),
    ObsField("dealer", 4, 1.0, "the dealer, one-hot"),
    ObsField("mover", 4, 1.0, "the seat whose turn it is (out of turn: the next mover)"),
    ObsField("phase", 6, 1.0, "trump choice, play, drawn, follow-up, out of turn, over"),
    ObsField("to_act", 1, 1.0, "1 if the observing seat is to act"),
    ObsField("seven", 2, 1.0, "this turn: control (no draw), drew first"),
    ObsField("draws", 1, 1.0, "cards drawn this turn / draws_per_failure"),
    ObsField("fails", 1, 1.0, "failures on an empty stock since the last play / 4"),
    ObsField("hand_no", 1, 1.0, "hand number / max_hands"),
)
_OFF = layout_offsets(OBS_LAYOUT)
OBS_DIM = sum(f.size for f in OBS_LAYOUT)
O_HAND, O_BANK_OWNER, O_BANK_POS, O_TOP, O_TAKEN, O_DRAWN = (
    _OFF[k] for k in ("hand", "bank_owner", "bank_pos", "top", "taken", "drawn")
)
O_HAND_SIZE, O_STOCK, O_TRUMPS, O_SUIT_CLASS, O_OUT, O_BANK_POINTS, O_BONUS, O_TOTAL = (
    _OFF[k]
    for k in (
        "hand_size",
        "stock",
        "trumps",
        "suit_class",
        "out",
        "bank_points",
        "bonus",
        "total",
    )
)
O_SITTING, O_CONTENDER, O_SEATS, O_DEALER, O_MOVER, O_PHASE, O_TO_ACT = (
    _OFF[k] for k in ("sitting", "contender", "seats", "dealer", "mover", "phase", "to_act")
)
O_SEVEN, O_DRAWS, O_FAILS, O_HAND_NO = (_OFF[k] for k in ("seven", "draws", "fails", "hand_no"))

__doc__ = __doc__.replace("{obs_table}", layout_table(OBS_LAYOUT))
