"""Two-handed Piquet's packed state (``STATE_FIELDS``, ``LAYOUT``, the ``M_``/``V_``/``F_``
offsets) and observation layout (``OBS_LAYOUT``, the ``O_`` offsets, ``OBS_DIM``), shared by the
three two-handed ids.

Rules: ``docs/games/piquet.md`` 6.2 (what each seat may know).
"""

from __future__ import annotations

from ...core.game import ObsField, layout_offsets
from ...core.state import PackedState, StateLayout
from .constants import MAX_DEALS, NAME, NUM_BIDS, PHASE_NAMES

# --- state -------------------------------------------------------------------------------------
# Packed into three arrays (core.state); ``LAYOUT.field(state, name)`` reads a field.
STATE_FIELDS = (
    # (name, array, size, meaning); arrays: m uint64, v int16, f int8 (see core.state)
    ("hand", "m", 2, "cards held per seat"),
    ("dealt", "m", 2, "the hands as dealt (carte blanche is judged on these)"),
    ("discards", "m", 2, "cards each seat discarded this deal"),
    ("seen", "m", 2, "talon cards each seat has seen"),
    ("shown", "m", 2, "public cards of each seat's scored or equal combinations"),
    ("cb_shown", "m", 2, "a carte-blanche holder's dealt hand, once public"),
    ("played", "m", 2, "cards each seat has played this deal"),
    ("key", "m", 1, "the row's random key (from the seed)"),
    ("episode", "m", 1, "episode index since the last seeding"),
    ("legal", "m", 2, "legal actions of the seat to act (bit a of word a // 64; a cache)"),
    # v (int16: -32,768..32,767) bounds under the widest legal config (tests/test_score_bounds.py
    # derives them from the Config bounds); no v field is ever negative. One seat in one deal:
    # carte blanche 10 + point 8 + sequences <= 3 a card (36) + sets <= 3.5 a card (42) + pique
    # or repique 60 + play <= 21 + cards or capot 40 = 217; Auction Piquet: play 13 and, for the
    # cards, the contract <= (5 x 10 + make bonus 100) x factor 16 = 2,400, so 2,569 (both seats
    # together 2,579). A partie is at most 8 deal-equivalents (6 + 2 tie-break deals, or 4 with
    # two doubled + 2).
    ("deal_score", "v", 2, "points scored this deal per seat"),  # <= 2,569 (217 but auction)
    # partie <= 8 x 2,569 = 20,552 (8 x 217 = 1,736 but auction); au cent <= max_deals 100 x 217
    # = 21,700 (ties at the target play on)
    ("total", "v", 2, "partie totals per seat"),
    ("last_points", "v", 2, "what the last finished deal added to the totals"),  # <= 2 x 2,569
    # Rubicon <= both totals + rubicon: 8 x 2,579 + 1,000 = 21,632 (2,848 but auction); au cent:
    # the difference <= 21,700, doubled only for a loser under double_below <= target, so the
    # winner had < target one deal earlier: 2 x (1,000 + 217) = 2,434
    ("result_points", "v", 1, "Rubicon result of the finished partie (0 if drawn)"),
    ("decl_pts", "v", 6, "points per seat (x3) per category (point, sequence, sets)"),  # <= 42
    ("deck", "f", 32, "this deal's deck order (elder 12, younger 12, talon 8)"),
    ("deal_no", "f", 1, "current deal of the partie, 0-based"),
    ("dealer", "f", 1, "seat of the dealer (younger); elder = 1 - dealer unless ``swapped``"),
    ("current", "f", 1, "seat to act, -1 when the game is over"),
    ("phase", "f", 1, "PHASE_*"),
    ("cb", "f", 2, "1 if the seat's dealt hand is a carte blanche (private)"),
    ("cb_claim", "f", 2, "carte blanche claimed (public): -1 undecided, 0 no, 1 yes"),
    ("xcount", "f", 2, "cards exchanged per seat (public)"),
    ("exch", "f", 1, "0 = first exchanger's turn, 1 = second's"),
    ("ndisc", "f", 1, "cards discarded so far in the current exchange"),
    ("last_disc", "f", 1, "card index of the last discard (-1 none)"),
    ("talon_pos", "f", 1, "index of the next talon card to draw"),
    ("looked", "f", 1, "-1 undecided or no leftovers, 0 did not look, 1 looked"),
    ("trick_card", "f", 1, "card led to the current trick, -1 if none"),
    ("trick_leader", "f", 1, "seat that led the current trick"),
    ("tricks", "f", 2, "tricks won this deal per seat"),
    ("decl_win", "f", 3, "per category: winning seat, OUTCOME_NONE or OUTCOME_EQUAL"),
    ("calls", "f", 6, "elder's public calls (see _declare)"),
    ("bonus", "f", 2, "BONUS_PIQUE / BONUS_REPIQUE won this deal per seat"),
    ("winner", "f", 1, "winning seat of the finished episode, -1 drawn"),
    ("void", "f", 2, "suits each seat is known to lack (bit per suit): it failed to follow"),
    ("decl_stage", "f", 1, "sinking: next declaration decision, 2 * category + (younger)"),
    ("decl_call", "f", 3, "per category: CALL_* (how it was called)"),
    ("redeals", "f", 1, "auction: redeals this episode (both passed); deal_no counts them"),
    ("bid", "f", 1, "auction: the highest bid so far, 0..11 (7+, 7-, ..., 12-), -1 none"),
    ("bidder", "f", 1, "auction: the seat that made it, -1 none"),
    ("doubled", "f", 1, "auction: 0, 1 doubled, 2 redoubled"),
    ("bid_acts", "f", 1, "auction: bidding actions taken this deal"),
    ("last_contract", "f", 3, "auction: the last finished deal's bid, bidder, doubled (-1 redeal)"),
    ("swapped", "f", 1, "auction: 1 once a younger declarer took elder's role (elder = dealer)"),
    ("games_won", "f", 2, "au cent partie: games won per seat (a double game counts 2)"),
    ("games", "f", 1, "au cent partie: games finished"),
    ("game_start", "f", 1, "au cent partie: deal_no of the current game's first deal"),
    (
        "last_trick",
        "f",
        4,
        "the deal's last finished trick (the scene): leader, his card, the other card, the "
        "winner; -1 none",
    ),
)

LAYOUT = StateLayout(NAME, STATE_FIELDS)
M_HAND, M_DEALT, M_DISCARDS, M_SEEN = (
    LAYOUT.offset(k) for k in ("hand", "dealt", "discards", "seen")
)
M_SHOWN, M_CB_SHOWN, M_PLAYED = (LAYOUT.offset(k) for k in ("shown", "cb_shown", "played"))
M_KEY, M_EPISODE, M_LEGAL = (LAYOUT.offset(k) for k in ("key", "episode", "legal"))
V_DEAL_SCORE, V_TOTAL, V_LAST_POINTS = (
    LAYOUT.offset(k) for k in ("deal_score", "total", "last_points")
)
V_RESULT_POINTS, V_DECL_PTS = LAYOUT.offset("result_points"), LAYOUT.offset("decl_pts")
F_DECK, F_DEAL_NO, F_DEALER, F_CURRENT, F_PHASE = (
    LAYOUT.offset(k) for k in ("deck", "deal_no", "dealer", "current", "phase")
)
F_CB, F_XCOUNT, F_EXCH, F_NDISC, F_LAST_DISC = (
    LAYOUT.offset(k) for k in ("cb", "xcount", "exch", "ndisc", "last_disc")
)
F_CB_CLAIM = LAYOUT.offset("cb_claim")
F_TALON_POS, F_LOOKED, F_TRICK_CARD, F_TRICK_LEADER = (
    LAYOUT.offset(k) for k in ("talon_pos", "looked", "trick_card", "trick_leader")
)
F_TRICKS, F_DECL_WIN, F_CALLS, F_BONUS, F_WINNER = (
    LAYOUT.offset(k) for k in ("tricks", "decl_win", "calls", "bonus", "winner")
)
F_VOID = LAYOUT.offset("void")
F_DECL_STAGE, F_DECL_CALL = LAYOUT.offset("decl_stage"), LAYOUT.offset("decl_call")
F_REDEALS, F_BID, F_BIDDER, F_DOUBLED, F_BID_ACTS, F_LAST_CONTRACT = (
    LAYOUT.offset(k) for k in ("redeals", "bid", "bidder", "doubled", "bid_acts", "last_contract")
)
F_SWAPPED, F_GAMES_WON, F_GAMES, F_GAME_START = (
    LAYOUT.offset(k) for k in ("swapped", "games_won", "games", "game_start")
)
F_LAST_TRICK = LAYOUT.offset("last_trick")

State = PackedState


new_state = LAYOUT.new  # new_state(n): a zeroed state for n games
field = LAYOUT.field  # field(state, name): a writable view of one named field over all rows


# --- observation layout (spec 6.2: what each seat may know) ------------------------------------
OBS_LAYOUT = (
    ObsField("hand", 32, 1.0, "own hand"),
    ObsField("own_discards", 32, 1.0, "own discards this deal"),
    ObsField(
        "talon_seen",
        32,
        1.0,
        "talon cards seen and not held: elder's untaken five; leftovers looked at "
        "(by younger at once, by both after elder's first lead)",
    ),
    ObsField(
        "opp_carte_blanche",
        32,
        1.0,
        "opponent's dealt hand, once his carte blanche is shown (after own exchange)",
    ),
    ObsField("own_shown", 32, 1.0, "own cards of scored or equal combinations"),
    ObsField("opp_shown", 32, 1.0, "opponent's cards of scored or equal combinations"),
    ObsField("own_played", 32, 1.0, "cards own seat played this deal"),
    ObsField("opp_played", 32, 1.0, "cards the opponent played this deal"),
    ObsField("trick_lead", 32, 1.0, "card led to the current trick (if any)"),
    ObsField("phase", len(PHASE_NAMES), 1.0, "one-hot: " + ", ".join(PHASE_NAMES)),
    ObsField("to_act", 1, 1.0, "1 if the observing seat is to act"),
    ObsField("is_elder", 1, 1.0, "1 if the observing seat is elder this deal"),
    ObsField("exchanged", 2, 1.0, "cards exchanged by own / opponent, / 8"),
    ObsField("talon_left", 1, 1.0, "cards left in the talon, / 8"),
    ObsField("leftovers", 2, 1.0, "younger looked / did not look at the leftovers"),
    ObsField("carte_blanche", 2, 1.0, "own / opponent claimed carte blanche"),
    ObsField(
        "decl_outcome",
        9,
        1.0,
        "per category (point, sequence, sets): won by own / by opponent / nobody",
    ),
    ObsField("decl_points", 6, 5.0, "per category: own points, opponent points, / 20"),
    ObsField(
        "elder_calls",
        6,
        2.0,
        "elder's calls: point cards /12, point value /100 (if counts tied), best sequence "
        "length /8, its top (1..8) /8 (if lengths tied), best set size /4, its rank /8",
    ),
    ObsField("bonus", 4, 1.0, "own pique, own repique, opponent pique, opponent repique"),
    ObsField("tricks", 2, 1.0, "tricks won by own / opponent, / 12"),
    ObsField("deal_score", 2, 5.0, "own / opponent points this deal, / 100 (clipped at 5)"),
    ObsField("total", 2, 40.0, "own / opponent partie totals, / 100 (clipped at 40)"),
    ObsField("deal_no", MAX_DEALS, 1.0, "one-hot deal number (6 regular + 2 tie-break)"),
    ObsField("deal_double", 1, 1.0, "1 if this deal counts double (four-deal partie)"),
    ObsField(
        "decl_calls",
        12,
        1.0,
        "sinking, per category (point, sequence, sets): elder declared / elder silent / younger "
        "declared after elder's silence / younger silent after it (a concession looks like "
        "'good')",
    ),
    ObsField("contract", NUM_BIDS, 1.0, "auction: the highest bid so far, 7+, 7-, ..., 12-"),
    ObsField(
        "contract_by",
        2,
        1.0,
        "auction: it is own / the opponent's; au cent with ``au_cent_partie`` (no contracts "
        "there): games won by own / opponent, a double counting 2, / 3",
    ),
    ObsField("contract_doubled", 2, 1.0, "auction: doubled / redoubled"),
    ObsField("auction_passed", 2, 1.0, "auction: own / opponent passed before any bid"),
    ObsField("redeals", 1, 5.0, "auction: redeals this partie, / 10"),
)
_OFF = layout_offsets(OBS_LAYOUT)
O_HAND = _OFF["hand"]
O_OWN_DISCARDS = _OFF["own_discards"]
O_TALON_SEEN = _OFF["talon_seen"]
O_OPP_CARTE_BLANCHE = _OFF["opp_carte_blanche"]
O_OWN_SHOWN = _OFF["own_shown"]
O_OPP_SHOWN = _OFF["opp_shown"]
O_OWN_PLAYED = _OFF["own_played"]
O_OPP_PLAYED = _OFF["opp_played"]
O_TRICK_LEAD = _OFF["trick_lead"]
O_PHASE = _OFF["phase"]
O_TO_ACT = _OFF["to_act"]
O_IS_ELDER = _OFF["is_elder"]
O_EXCHANGED = _OFF["exchanged"]
O_TALON_LEFT = _OFF["talon_left"]
O_LEFTOVERS = _OFF["leftovers"]
O_CARTE_BLANCHE = _OFF["carte_blanche"]
O_DECL_OUTCOME = _OFF["decl_outcome"]
O_DECL_POINTS = _OFF["decl_points"]
O_ELDER_CALLS = _OFF["elder_calls"]
O_BONUS = _OFF["bonus"]
O_TRICKS = _OFF["tricks"]
O_DEAL_SCORE = _OFF["deal_score"]
O_TOTAL = _OFF["total"]
O_DEAL_NO = _OFF["deal_no"]
O_DEAL_DOUBLE = _OFF["deal_double"]
O_DECL_CALLS = _OFF["decl_calls"]
O_CONTRACT, O_CONTRACT_BY = _OFF["contract"], _OFF["contract_by"]
O_CONTRACT_DOUBLED, O_AUCTION_PASSED, O_REDEALS = (
    _OFF["contract_doubled"],
    _OFF["auction_passed"],
    _OFF["redeals"],
)
OBS_DIM = sum(f.size for f in OBS_LAYOUT)
