"""Piquet normand and partnership Piquet's packed state (``STATE_FIELDS``, ``LAYOUT``, the
``M_``/``V_``/``F_`` offsets) and observation layouts for 3 and 4 seats (``obs_layout``,
``OBS_LAYOUTS``, the ``B_`` block indices, ``OBS_DIMS``). Rules: ``docs/games/piquet.md`` 6.2.
"""

from __future__ import annotations

import numpy as np

from ....core.game import ObsField, layout_offsets
from ....core.state import PackedState, StateLayout

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
    ("last_table", "m", 1, "cards of the deal's last finished trick (the scene)"),
    ("last_trick", "f", 2, "its leader and winner, -1 none"),
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
M_LAST_TABLE, F_LAST_TRICK = LAYOUT.offset("last_table"), LAYOUT.offset("last_trick")


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
    B_OWN_DISCARDS,
    B_TALON_SEEN,
    B_PLAYED,
    B_SHOWN,
    B_TRICK_LEAD,
    B_TABLE,
    B_PHASE,
    B_TO_ACT,
    B_DEALER,
    B_TRICK_LEADER,
    B_IN_GAME,
    B_CARTE_BLANCHE,
    B_DECL_OUTCOME,
    B_DECL_POINTS,
    B_BONUS,
    B_EXCHANGED,
    B_TRICKS,
    B_DEAL_SCORE,
    B_TOTAL,
    B_TARGET,
    B_DEAL_NO,
    B_END,
) = range(len(OBS_NAMES) + 1)
OBS_DIMS = {p: int(_OBS_OFF[p, B_END]) for p in OBS_LAYOUTS}
