"""Four Aces' packed state layout (``STATE_FIELDS``, ``LAYOUT``, the ``M_``/``V_``/``F_`` offsets)
and observation layout (``OBS_LAYOUT``, the ``O_`` offsets, ``OBS_DIM``); what the observation
shows is public by ``docs/games/four_aces.md`` section 8 ("Information") and A18.

Observation
-----------
A flat ``float32`` vector, egocentric: seat blocks are ordered from the observer (0) clockwise;
blocks for seats beyond ``num_players`` stay zero. The whole discard pile is public, in order
(A18): the observation encodes each pile card's position from the bottom.

{obs_table}
"""

from __future__ import annotations

from ...core.game import ObsField, layout_offsets, layout_table
from ...core.state import PackedState, StateLayout
from .constants import NAME

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
F_DECK, F_PILE, F_PILE_N, F_STOCK_POS, F_DEAL_NO, F_DEALER = (
    _o(k) for k in ("deck", "pile", "pile_n", "stock_pos", "deal_no", "dealer")
)
F_PILE_POS = _o("pile_pos")
F_CURRENT, F_PHASE, F_WINNER, F_WINNERS, F_LIMIT = (
    _o(k) for k in ("current", "phase", "winner", "winners", "limit")
)
F_JOKERS_HELD, F_JOKERS_PLAYED, F_SKIP, F_DRAWN = (
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
O_HIDDEN, O_EXPOSED, O_PILE, O_PILE_TOP, O_DRAWN = (
    _OFF[k] for k in ("hidden", "exposed", "pile", "pile_top", "drawn")
)
O_HIDDEN_SIZE, O_LIMIT, O_JOKERS_PLAYED, O_JOKERS_HELD, O_TOTAL, O_SEATS, O_DEALER = (
    _OFF[k]
    for k in ("hidden_size", "limit", "jokers_played", "jokers_held", "total", "seats", "dealer")
)
O_STOCK, O_PHASE, O_TO_ACT, O_ROUND, O_TURN = (
    _OFF[k] for k in ("stock", "phase", "to_act", "round", "turn")
)

__doc__ = __doc__.replace("{obs_table}", layout_table(OBS_LAYOUT))
