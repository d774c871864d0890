"""Banque (Bank, Russian "Банк"): the rules, as numba kernels over batched NumPy state.

Rules: ``docs/games/banque.md``, the project's rules page (reconstructed from a twice machine-
translated copy of the Russian page "Банк"). The comments below cite its sections ("4.3") and
its choices ("A14"); "the spec" is that page.

Rules summary (defaults)
------------------------
- 2–4 players (``num_players``, default 4); 36 cards 6..A; order 6 < 7 < 8 < 9 < J < Q < K < 10
  < A (2); card points A 12, 10 10, K 5, Q 3, J 1, the rest 0 (31 a suit, 124 the deck).
- Each hand (3): the trump arrangement (3.2; option 1: from the dealer's left each player
  chooses a suit nobody has taken, an action ``trump <suit>``, before the cards are seen);
  4 cards each from the dealer's left, one card face up in the centre (the first, unowned card
  of the **bank**), the rest is the stock. The first move (3.4) goes to a holder of a lower card
  of the centre card's suit, else of a higher one, else to the dealer's left (ties: the first
  clockwise from the dealer's left).
- A turn (4.1): beat the bank's top card (``play <card>``, 4.2: a lower card of its suit, a card
  of the same rank, or a trump the option allows), or make a special play on any top card
  (4.3: ``eight 8C``; ``quad 9 top H``, all four cards of a rank with the chosen card on top;
  ``sequence H 6``, four consecutive cards of a suit in game order, lowest card on top); an eight
  or a quad may be followed by one normal beat of the new top card (``stop`` declines). A player
  without a normal beat draws one card (``draw``) and may then play; a player who still does not
  play fails (``pass``, also used when the stock is empty, 4.4). A player holding a normal beat
  must play (a beat or a special play).
- A failure hands the bank to the owner of its top card (4.5): all bank cards except the top
  card, which stays as an unowned base card; an unowned top card (the centre card, a base card)
  or the failing player's own card is taken by nobody. Play passes to the next player holding
  cards.
- A seven put on top (4.6) constrains the next player: ``control`` (default: no rescue draw),
  ``draw_then_move``, ``draw_and_skip`` or ``none``.
- Going out (4.8, 5.3): a player whose hand is empty finishes (1st, 2nd, 3rd) and scores
  20/10/10, plus 30/20/10 if the last card was a King, plus 30/25/20 if the going-out play was a
  sequence, plus 75 for a four of a kind that is not Kings. Four Kings take the bank at once
  (and, still holding cards, the player may follow up onto the King left on top); a trump King
  as the finishing card takes the bank.
- The hand ends (4.9) when all players but one are out, or on a deadlock (the stock is empty and
  every player holding cards has failed in turn with no play between). Hand score (5): card
  points of the banks taken + bonuses − penalty (Rule II, default: the card points left in the
  hand of each player still holding cards). The match ends at the end of a hand in which a total
  reaches 248; the highest total wins; equal highest totals play one more hand in which only they
  can win.

Choices where the spec leaves things open
-----------------------------------------
- Default ``num_players=4`` (the spec allows 2–4 and names no default; Esel, its sister game,
  uses 4 too).
- The trump arrangement is fixed per hand before the deal (3.2): the hands are dealt into the
  state at the start of the hand, but nobody sees his cards until the trump choice is over.
  Options 3/4 with ``common_trumps="random"`` draw the common suit(s) each hand.
- Eights: with ``eights_wild`` an eight is always played as ``eight <card>`` (also when it would
  beat the top card normally), so every eight put on the bank gives the follow-up of 4.3;
  ``play 8X`` is then never legal. An eight that beats the top card normally still counts as a
  normal beat for the duty to play (A13). Without ``eights_wild`` eights are ordinary cards.
- A follow-up (4.3) is one normal beat of the new top card; when that card is an eight it is an
  eight again (a chain). No follow-up is offered when none is possible or the player has gone
  out; ``mandatory_if_able`` removes ``stop`` while a follow-up is possible.
- Four Kings that take the bank keep the follow-up of any four of a kind (4.3: "one more normal
  move by the rules, as with eights"; the take does not withdraw it): the take happens first (all
  but the top King, which stays as an unowned base card), then the player may beat that King
  with one normal beat (a lower card of its suit or a permitted trump; no card of the same rank
  is left) or ``stop``, under ``quad_followup`` like any quad; the beat is his card. No follow-up
  when the take leaves the bank empty (``bank_take="all"``) or the Kings went out.
  ``four_kings_follow_up=False`` ends the turn at the take instead.
- The first turn of a hand goes by 3.4; with ``centre_card=False`` the bank starts empty and the
  dealer's left leads any card. On an empty bank (also after ``bank_take="all"``) every card is a
  legal lead and drawing is not needed.
- After a draw the duty to play holds again (the seed: "if he cannot play this card the move
  passes"): ``pass`` is legal only without a normal beat (or with ``voluntary_draw``).
  ``draws_per_failure`` > 1 lets a player draw again while he still has no beat.
- Under ``seven_effect="control"`` the next player may not draw: with no normal beat he plays a
  special or passes (fails). Under ``draw_then_move`` the card is drawn automatically at the start
  of his turn, under ``draw_and_skip`` the card is drawn and the turn passes without a failure;
  no decision is asked for either. An empty stock means no card is drawn.
- Who moves first (3.4): with ``eights_wild`` eights do not count as lower or higher cards of
  the centre card's suit (they are special cards); without it they are ordinary cards.
- Deadlock (4.9): a failure made when the stock is empty counts; a play resets the count; a
  failure while the stock still has cards resets it too (a later player can still draw). The
  hand ends when the count reaches the number of players holding cards.
- ``bonuses_stack=False`` pays only the largest single amount that applies (base, King extra,
  sequence extra, quad).
- ``final_bank="top_owner"``: the owner of the top card takes the whole bank at the end of the
  hand (an unowned top: nobody). ``unowned_top_failure="previous_owner"``: a failure against an
  unowned base card hands the bank to the player who owned that card before it became the base
  (never to the failing player; the centre card has no previous owner). As the base card is then
  the whole bank, he takes it and the next player leads any card.
- ``specials_out_of_turn=True`` (A8, not recommended by the spec): whenever the turn passes, every
  other player holding a possible special play is asked in turn, clockwise from the next mover's
  left, to make one (a special action, or ``stop`` to let it go). An interrupting special play
  is placed and followed up as on the player's own turn; the turn then passes to the
  interrupter's left and the round of questions starts again. Nobody is asked before the first
  move of a hand.
- ``win_tie_break="extra_hand_tied_only"``: the other players sit the extra hand out (they get
  no cards, no turns, and score nothing in it).
- To guarantee termination the match also ends after ``max_hands`` hands (default 60): the
  highest total (among the tied leaders during a tie-break) wins; equal highest totals share
  the win.
- Rewards are zero-sum: the winners share +1, the others share −1 (one winner: +1 and
  −1/(P−1)); if every player is a winner it is a draw (0).
- Next dealer ``loser`` after a hand with several losers: the one holding the most card points,
  then the first clockwise from the previous dealer's left (3.1); ties under
  ``highest_score``/``lowest_score`` likewise.

Spec section 8 → ``Config``
---------------------------
| spec key | Config field |
|---|---|
| ``players`` | ``num_players`` |
| ``target_score`` | ``target_score`` |
| ``win_tie_break`` | ``win_tie_break`` |
| ``dealer.first_hand: random`` | always by lot from the seed; ``options={"dealer": seat}`` |
| ``dealer.next_hand`` | ``next_dealer`` |
| ``trumps.mode`` own / none / common_one / common_two / senior_junior | ``trump_option`` 1–5 |
| ``trumps.own_assignment`` | ``trump_assignment`` (random_distinct = ``random``) |
| ``trumps.common_suits`` | ``common_trumps`` |
| ``trumps.common_two_trumps_beat_each_other`` | ``common_trumps_beat_each_other`` |
| ``trumps.senior_junior`` | fixed by the source: spades senior, diamonds junior |
| ``trumps.trump_king`` | ``trump_king`` |
| ``deal.hand_size`` | ``hand_size`` |
| ``deal.centre_card`` | ``centre_card`` |
| ``deal.first_mover_tiebreak`` | fixed: clockwise from the dealer's left |
| ``beating.rank_order`` | fixed: 6 7 8 9 J Q K 10 A |
| ``beating.beat_step`` | ``beat_step`` |
| ``beating.same_rank_always_beats`` | ``same_rank_always_beats`` |
| ``turn.forced_play_if_normal_beat`` | ``forced_play`` |
| ``turn.voluntary_draw`` | ``voluntary_draw`` |
| ``turn.draws_per_failure`` | ``draws_per_failure`` |
| ``turn.after_draw_play`` | ``after_draw_play`` |
| ``specials.out_of_turn`` | ``specials_out_of_turn`` |
| ``specials.eights_wild`` | ``eights_wild`` |
| ``specials.eight_followup`` | ``eight_followup`` |
| ``specials.four_of_a_kind`` | ``four_of_a_kind`` |
| ``specials.quad_followup`` | ``quad_followup`` |
| ``specials.sequence_of_four`` | ``sequence_of_four`` |
| ``specials.sequence_order`` | ``sequence_order`` |
| ``specials.sequence_followup`` | ``sequence_followup`` |
| ``specials.four_kings_take_bank`` | ``four_kings_take_bank`` |
| (4.3: the follow-up after the four Kings' take) | ``four_kings_follow_up`` |
| ``sevens.effect`` | ``seven_effect`` |
| ``bank.take`` | ``bank_take`` |
| ``bank.unowned_top_failure`` | ``unowned_top_failure`` |
| ``bank.final_bank`` | ``final_bank`` |
| ``scoring.card_points`` | fixed: A 12, 10 10, K 5, Q 3, J 1 |
| ``scoring.finish_bonus``, ``finish_king_extra``, ``finish_sequence_extra`` | same (3 ints) |
| ``scoring.finish_quad_non_king`` | ``finish_quad_non_king`` |
| ``scoring.finish_trump_king_takes_bank`` | ``finish_trump_king_takes_bank`` |
| ``scoring.bonuses_stack`` | ``bonuses_stack`` |
| ``scoring.hand_penalty.enabled`` | ``hand_penalty`` |
| ``scoring.hand_penalty.mode`` | ``penalty_mode`` |
| ``scoring.hand_penalty.fixed_amount`` | ``penalty_fixed`` |
| ``scoring.hand_penalty.per_card`` | ``penalty_per_card`` |
| ``scoring.allow_negative_totals`` | ``allow_negative_totals`` |
| (termination guarantee) | ``max_hands`` |

Episodes and rewards
--------------------
| ``episode`` | ``reward`` | reward at the end, per seat |
|---|---|---|
| ``"game"`` (default) | ``"win"`` (default) | winners share +1, the others share −1 |
| ``"game"`` | ``"score"`` | own total − mean total |
| ``"deal"`` (one hand) | ``"win"`` | the hand's best scorers share +1, the others share −1 |
| ``"deal"`` | ``"score"`` | own hand score − mean hand score |

Actions (111)
-------------
| ids | name | when |
|---|---|---|
| 0–35 | ``play <card>`` | a normal beat of the top card (any card on an empty bank) |
| 36–39 | ``eight 8S`` .. ``eight 8C`` | an eight on any top card (``eights_wild``) |
| 40–75 | ``quad <rank> top <suit>`` | all four cards of a rank, the named one on top |
| 76–103 | ``sequence <suit> <low>`` | four consecutive cards of a suit, lowest rank named (1) |
| 104 | ``draw`` | no normal beat: take a card from the stock |
| 105 | ``pass`` | no normal beat and no draw left: fail |
| 106 | ``stop`` | decline a follow-up (or, out of turn, a special play) |
| 107–110 | ``trump S`` .. ``trump C`` | option 1 trump choice (a suit nobody has taken) |

(1) Lowest ranks 6 7 8 9 J Q under ``sequence_order="game_order"``, 6 7 8 9 10 J under
``"natural"``; the names cover both (6 7 8 9 10 J Q).

Card index = suit * 9 + (rank − 6 in 6 7 8 9 10 J Q K A order), suits S, H, D, C.
``options={"deck": [...]}`` lists the 36 cards as the hands in seat order from the dealer's left
(``hand_size`` each), then the centre card, then the stock from the top.

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
- v0 (same id, default play changed): ``four_kings_follow_up`` added, default True: after four
  Kings take the bank the player is offered the quad's follow-up onto the King left on top, as
  4.3 grants after any four of a kind (before, the take ended the turn; ``False`` keeps that).
  A record made before the option (its config has no ``four_kings_follow_up``) replays with the
  old rule (``Config.RECORD_DEFAULTS``).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import njit

from cardenvs.core.prefetch import STEP_BLOCK, prefetch_ahead

from ...core import rng
from ...core.bitmask import action_in, bit, clear, dense_suits, lowest, popcount, spread
from ...core.borrow import borrowed_step, fixed_config
from ...core.cards import SUITS, Deck, format_card, format_cards, make_card
from ...core.game import GameConfig, ObsField, StepKernels, layout_offsets, layout_table, option
from ...core.messages import brief
from ...core.seats import at, seat_mod
from ...core.state import PackedState, StateLayout

NAME = "banque"
VERSION = 0
MAX_SEATS = 4
NUM_CARDS = 36
DECK = Deck("banque", [make_card(r, s) for s in range(4) for r in range(4, 13)])

# --- actions -----------------------------------------------------------------------------------
RANK_NAMES = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")  # natural order, global ranks 4..12
SEQ_LOWS = ("6", "7", "8", "9", "10", "J", "Q")
ACTION_PLAY = 0
ACTION_EIGHT = 36
ACTION_QUAD = 40
ACTION_SEQ = 76
ACTION_DRAW = 104
ACTION_PASS = 105
ACTION_STOP = 106
ACTION_TRUMP = 107
NUM_ACTIONS = 111
ACTION_NAMES = tuple(
    [f"play {format_card(c)}" for c in DECK.cards.tolist()]
    + [f"eight 8{s}" for s in SUITS]
    + [f"quad {r} top {s}" for r in RANK_NAMES for s in SUITS]
    + [f"sequence {s} {low}" for s in SUITS for low in SEQ_LOWS]
    + ["draw", "pass", "stop"]
    + [f"trump {s}" for s in SUITS]
)

PHASE_TRUMP = 0
PHASE_PLAY = 1
PHASE_DRAWN = 2
PHASE_FOLLOW = 3
PHASE_INTERRUPT = 4
PHASE_OVER = 5
PHASE_NAMES = ("trump", "play", "drawn", "follow-up", "out of turn", "over")

KIND_NORMAL = 0
KIND_EIGHT = 1
KIND_QUAD = 2
KIND_SEQ = 3

# --- cards (2) ---------------------------------------------------------------------------------
# game order 6 7 8 9 J Q K 10 A, indexed by the global rank 0..12 = 2..A (the deck uses 4..12)
ORDER = np.array([-1, -1, -1, -1, 0, 1, 2, 3, 7, 4, 5, 6, 8], np.int64)
POINTS = np.array([0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 3, 5, 12], np.int64)  # A 12 ... J 1 (2)
RANK_7, RANK_8, RANK_K = 5, 6, 11
GAME_ORDER_RANKS = (4, 5, 6, 7, 9, 10, 11, 8, 12)  # global ranks, low to high, in game order
NATURAL_RANKS = (4, 5, 6, 7, 8, 9, 10, 11, 12)


def _sequence_tables():
    """SEQ_RANKS[order][low]: the four global ranks (high to low: the placing order) of the
    sequence whose lowest card is ``SEQ_LOWS[low]``, or -1 where that sequence does not exist."""
    out = np.full((2, len(SEQ_LOWS), 4), -1, np.int64)
    for o, ranks in enumerate((GAME_ORDER_RANKS, NATURAL_RANKS)):
        for i in range(len(ranks) - 3):
            low = RANK_NAMES[ranks[i] - 4]
            out[o, SEQ_LOWS.index(low)] = ranks[i : i + 4][::-1]
    return out


SEQ_RANKS = _sequence_tables()

PENALTY_FIXED = (15, 23, 31, 40, 48, 56)
PENALTY_PER_CARD = (3, 6)
TRIPLE_FIELDS = ("finish_bonus", "finish_king_extra", "finish_sequence_extra")


def _check_common(value: str, where: str = "common_trumps") -> None:
    if not isinstance(value, str) or (
        value != "random"
        and (not value or any(c not in SUITS for c in value) or len(set(value)) != len(value))
    ):
        raise ValueError(
            f"{where} = {brief(value)} is not allowed; use 'random' or "
            "distinct suit letters from 'SHDC' (one for option 3, two for option 4)"
        )


@dataclasses.dataclass(frozen=True)
class Config(GameConfig):
    """Banque rule options: the spec's section 8, one field per setting (see the mapping table
    in the module docstring)."""

    # records made before the four Kings' follow-up (v0's first rule) replay with it off
    RECORD_DEFAULTS = {"four_kings_follow_up": False}

    num_players: int = option(4, low=2, high=4, doc="players (2: 2–4)")
    target_score: int = option(248, low=1, high=5000, doc="a total that ends the match (5.4)")
    win_tie_break: str = option(
        "extra_hand_all_players",
        ("extra_hand_all_players", "extra_hand_tied_only"),
        doc="equal highest totals: one more hand with everybody, or only the tied (5.4)",
    )
    next_dealer: str = option(
        "loser",
        ("loser", "finisher", "starter", "highest_score", "lowest_score"),
        doc="dealer of later hands (3.1)",
    )
    trump_option: int = option(
        1,
        low=1,
        high=5,
        doc="1 own trumps, 2 none, 3 one common, 4 two common, 5 senior ♠ / junior ♦ (3.2)",
    )
    trump_assignment: str = option(
        "choose_in_turn",
        ("choose_in_turn", "random", "by_seat"),
        doc="option 1: chosen in turn from the dealer's left, random distinct, or seat p gets "
        "suit p of S H D C (A3)",
    )
    common_trumps: str = option(
        "random", doc="options 3/4: 'random' (drawn per hand) or suit letters, e.g. 'H', 'HS'"
    )
    common_trumps_beat_each_other: bool = option(
        False, doc="option 4: a trump beats a card of the other trump suit (A4)"
    )
    trump_king: str = option(
        "per_mode",
        ("per_mode", "senior_only"),
        doc="the trump King (3.2); senior_only: under option 5 only K♠",
    )
    hand_size: int = option(4, low=1, high=8, doc="cards dealt to each player (3.3)")
    centre_card: bool = option(True, doc="a face-up centre card starts the bank (3.3)")
    beat_step: str = option(
        "any_lower",
        ("any_lower", "next_lower_only"),
        doc="a same-suit beat: any lower card, or only the next lower (A2)",
    )
    same_rank_always_beats: bool = option(True, doc="a card of the same rank always beats (4.2)")
    forced_play: bool = option(True, doc="a player with a normal beat must play (A13)")
    voluntary_draw: bool = option(False, doc="a player may draw (or fail) instead of beating")
    draws_per_failure: int = option(1, low=1, high=3, doc="cards a player may draw in a turn (4.4)")
    after_draw_play: str = option(
        "any_legal",
        ("any_legal", "drawn_card_only"),
        doc="after drawing: any legal play, or only plays with a drawn card (A14)",
    )
    specials_out_of_turn: bool = option(False, doc="special plays also out of turn (A8)")
    eights_wild: bool = option(True, doc="an eight may be put on any top card (4.3)")
    eight_followup: str = option(
        "optional",
        ("none", "optional", "mandatory_if_able"),
        doc="one more normal beat after an eight (A9)",
    )
    four_of_a_kind: bool = option(True, doc="all four cards of a rank at once (4.3)")
    quad_followup: str = option(
        "optional",
        ("none", "optional", "mandatory_if_able"),
        doc="one more normal beat after a four of a kind (A9)",
    )
    sequence_of_four: bool = option(True, doc="four consecutive cards of a suit at once (4.3)")
    sequence_order: str = option(
        "game_order",
        ("game_order", "natural"),
        doc="consecutive in 6 7 8 9 J Q K 10 A, or in 6 7 8 9 10 J Q K A (A10)",
    )
    sequence_followup: str = option(
        "none", ("none", "optional"), doc="one more normal beat after a sequence (A10)"
    )
    four_kings_take_bank: str = option(
        "always", ("always", "only_when_going_out"), doc="four Kings take the bank (A11)"
    )
    four_kings_follow_up: bool = option(
        True,
        doc="after four Kings take the bank, the follow-up of a quad onto the King left on top "
        "(4.3); False: the take ends the turn",
    )
    seven_effect: str = option(
        "control",
        ("control", "draw_then_move", "draw_and_skip", "none"),
        doc="what a seven on top does to the next player (4.6)",
    )
    bank_take: str = option(
        "all_but_top",
        ("all_but_top", "all"),
        doc="a take leaves the top card as an unowned base, or takes all (A7)",
    )
    unowned_top_failure: str = option(
        "nobody_takes",
        ("nobody_takes", "previous_owner"),
        doc="failing against an unowned base card (A15)",
    )
    final_bank: str = option(
        "nobody", ("nobody", "top_owner"), doc="the bank left at the end of a hand (A16)"
    )
    finish_bonus: tuple = option(
        (20, 10, 10), low=0, high=1000, doc="going out 1st, 2nd, 3rd (5.3; three ints)"
    )
    finish_king_extra: tuple = option(
        (30, 20, 10), low=0, high=1000, doc="extra when the finishing card is a King (5.3)"
    )
    finish_sequence_extra: tuple = option(
        (30, 25, 20), low=0, high=1000, doc="extra when the going-out play is a sequence (5.3)"
    )
    finish_quad_non_king: int = option(
        75, low=0, high=1000, doc="going out with a four of a kind, not Kings (5.3)"
    )
    finish_trump_king_takes_bank: bool = option(
        True, doc="a trump King as the finishing card takes the bank (5.3)"
    )
    bonuses_stack: bool = option(
        True, doc="going-out bonuses add up (A20); False: only the largest"
    )
    hand_penalty: bool = option(True, doc="Rule II: cards left in hand cost points (5.2)")
    penalty_mode: str = option(
        "card_points",
        (
            "card_points",
            "fixed",
            "per_card",
            "card_points_plus_per_zero_card",
            "card_points_else_fixed",
        ),
        doc="option 1, 2a, 2b, or a hybrid (5.2)",
    )
    penalty_fixed: int = option(31, PENALTY_FIXED, doc="the fixed penalty of option 2a")
    penalty_per_card: int = option(3, PENALTY_PER_CARD, doc="points per card of option 2b")
    allow_negative_totals: bool = option(True, doc="totals may go below zero (5.2)")
    max_hands: int = option(
        60,
        low=1,
        high=128,
        doc="hands after which the match is decided (at most 128: the hand counter is an int8)",
    )

    def __post_init__(self):
        for name in TRIPLE_FIELDS:
            value = getattr(self, name)
            if (
                not isinstance(value, (tuple, list, np.ndarray))  # not a dict, set, str, ...
                or len(value) != 3
                or not all(
                    isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 0 <= x <= 1000
                    for x in value
                )
            ):
                raise self.error(
                    name,
                    f"= {brief(value)} is not allowed; give three integers in 0..1000 "
                    "(1st, 2nd, 3rd finisher) as a tuple or list",
                )
            object.__setattr__(self, name, tuple(int(x) for x in value))
        super().__post_init__()
        _check_common(self.common_trumps, f"{self.env_label()}: option common_trumps")
        if self.common_trumps != "random" and self.trump_option in (3, 4):
            need = self.trump_option - 2
            if len(self.common_trumps) != need:
                raise self.error(
                    "common_trumps",
                    f"= {self.common_trumps!r}: option {self.trump_option} needs {need} suit "
                    "letter(s) or 'random'",
                )
        if self.num_players * self.hand_size + 1 > NUM_CARDS:
            raise self.error(
                "hand_size",
                f"= {self.hand_size} is too large for {self.num_players} players: "
                f"num_players * hand_size + 1 must not exceed {NUM_CARDS}",
            )

    def encode(self, name: str, value) -> int:
        if name == "common_trumps":  # the common trump suits as a 4-bit set, 0 = draw each hand
            return sum(1 << SUITS.index(c) for c in value) if value != "random" else 0
        if name in TRIPLE_FIELDS:
            return value[0] | (value[1] << 10) | (value[2] << 20)
        if name in ("penalty_fixed", "penalty_per_card"):
            return int(value)
        return super().encode(name, value)


_ci = Config.index
C_SIZE = len(dataclasses.fields(Config))  # entries of the config vector
C_EPISODE, C_REWARD, C_PLAYERS, C_TARGET, C_TIED_ONLY, C_NEXT_DEALER = (
    _ci(k)
    for k in ("episode", "reward", "num_players", "target_score", "win_tie_break", "next_dealer")
)
C_OPTION, C_ASSIGN, C_COMMON, C_EACH_OTHER, C_SENIOR_KING = (
    _ci(k)
    for k in (
        "trump_option",
        "trump_assignment",
        "common_trumps",
        "common_trumps_beat_each_other",
        "trump_king",
    )
)
C_HAND, C_CENTRE, C_STEP, C_SAME_RANK, C_FORCED, C_VOLUNTARY, C_DRAWS, C_DRAWN_ONLY = (
    _ci(k)
    for k in (
        "hand_size",
        "centre_card",
        "beat_step",
        "same_rank_always_beats",
        "forced_play",
        "voluntary_draw",
        "draws_per_failure",
        "after_draw_play",
    )
)
C_OUT_OF_TURN, C_EIGHTS, C_EIGHT_FU, C_QUADS, C_QUAD_FU, C_SEQS, C_SEQ_ORDER, C_SEQ_FU = (
    _ci(k)
    for k in (
        "specials_out_of_turn",
        "eights_wild",
        "eight_followup",
        "four_of_a_kind",
        "quad_followup",
        "sequence_of_four",
        "sequence_order",
        "sequence_followup",
    )
)
C_KINGS, C_KINGS_FU, C_SEVEN, C_TAKE_ALL, C_PREV_OWNER, C_FINAL_BANK = (
    _ci(k)
    for k in (
        "four_kings_take_bank",
        "four_kings_follow_up",
        "seven_effect",
        "bank_take",
        "unowned_top_failure",
        "final_bank",
    )
)
C_BONUS, C_KING_EXTRA, C_SEQ_EXTRA, C_QUAD_BONUS, C_TRUMP_KING, C_STACK = (
    _ci(k)
    for k in (
        "finish_bonus",
        "finish_king_extra",
        "finish_sequence_extra",
        "finish_quad_non_king",
        "finish_trump_king_takes_bank",
        "bonuses_stack",
    )
)
C_PENALTY, C_PEN_MODE, C_PEN_FIXED, C_PEN_CARD, C_NEGATIVE, C_MAX_HANDS = (
    _ci(k)
    for k in (
        "hand_penalty",
        "penalty_mode",
        "penalty_fixed",
        "penalty_per_card",
        "allow_negative_totals",
        "max_hands",
    )
)
SEVEN_CONTROL, SEVEN_DRAW_MOVE, SEVEN_DRAW_SKIP, SEVEN_NONE = range(4)
FOLLOW_NONE, FOLLOW_OPTIONAL, FOLLOW_MANDATORY = range(3)
PEN_POINTS, PEN_FIXED, PEN_PER_CARD, PEN_POINTS_PLUS, PEN_POINTS_ELSE = range(5)

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
V_LAST_BANK, V_LAST_BONUS, F_LAST_OUT = _o("last_bank_points"), _o("last_bonus"), _o("last_out")
F_DECK, F_BANK, F_OWNER, F_BANK_N, F_BASE_PREV, F_STOCK = (
    _o(k) for k in ("deck", "bank", "owner", "bank_n", "base_prev", "stock_pos")
)
F_DEAL_NO, F_DEALER, F_CURRENT, F_PHASE, F_WINNER, F_WINNERS = (
    _o(k) for k in ("deal_no", "dealer", "current", "phase", "winner", "winners")
)
F_TRUMP, F_CLASS, F_OUT, F_N_OUT, F_SITTING, F_CONTENDER, F_TIEBREAK = (
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
O_HAND_SIZE, O_STOCK, O_TRUMPS, O_CLASS, O_OUT, O_BANK_POINTS, O_BONUS, O_TOTAL = (
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

__doc__ = __doc__.replace("{obs_table}", layout_table(OBS_LAYOUT)).replace(
    "{config_table}", Config.describe()
)


# --- card helpers ------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def gid(i):
    """Global card id of Banque card index ``i``."""
    return (i // 9) * 13 + (i % 9) + 4


@njit(cache=True, inline="always")
def lid(c):
    """Banque card index of global card id ``c``."""
    return (c // 13) * 9 + (c % 13) - 4


@njit(cache=True, inline="always")
def _local36(mask):
    """The cards of ``mask`` as a 36-bit set of Banque card indices, suit by suit (one pext where
    the CPU runs it fast: ``core.bitmask.dense_suits``)."""
    return dense_suits(mask, 4, 9)


@njit(cache=True, inline="always")
def _planes(mask, out, off):
    """One-hot the 36 cards of ``mask`` into ``out[off:off+36]`` (every entry written)."""
    x = _local36(mask)
    spread(x, 36, out, off)


@njit(cache=True, inline="always")
def _np(cfg):
    return cfg[C_PLAYERS]


@njit(cache=True, inline="always")
def _has(mask, c):
    return (mask >> np.uint64(c)) & np.uint64(1) == np.uint64(1)


@njit(cache=True, inline="always")
def _rank_mask(rank):
    """The four cards of global rank ``rank``."""
    one = np.uint64(1)
    r = np.uint64(rank)
    return (
        (one << r)
        | (one << (r + np.uint64(13)))
        | (one << (r + np.uint64(26)))
        | (one << (r + np.uint64(39)))
    )


@njit(cache=True, inline="always")
def _seq_mask(cfg, suit, low):
    """The four cards of sequence ``low`` (index into SEQ_LOWS) in ``suit``; 0 if invalid."""
    o = cfg[C_SEQ_ORDER]
    if SEQ_RANKS[o, low, 0] < 0:
        return np.uint64(0)
    m = np.uint64(0)
    for k in range(4):
        m |= bit(suit * 13 + SEQ_RANKS[o, low, k])
    return m


@njit(cache=True)
def _hand_points(mask):
    pts = 0
    x = mask
    while x != np.uint64(0):
        c = lowest(x)
        x &= x - np.uint64(1)
        pts += POINTS[c % 13]
    return pts


# --- beating (4.2) -----------------------------------------------------------------------------
def _beat_tables():
    """BY_SUIT[step][t]: the cards of ``t``'s suit that beat ``t`` (4.2 rule 1; step 0 any lower,
    1 only the next lower); BY_RANK[t]: the other cards of ``t``'s rank (rule 2)."""
    by_suit = np.zeros((2, 64), np.uint64)
    by_rank = np.zeros(64, np.uint64)
    for t in DECK.cards.tolist():
        for x in DECK.cards.tolist():
            if x == t:
                continue
            if x // 13 == t // 13:
                d = ORDER[t % 13] - ORDER[x % 13]
                if d > 0:
                    by_suit[0, t] |= np.uint64(1 << x)
                if d == 1:
                    by_suit[1, t] |= np.uint64(1 << x)
            if x % 13 == t % 13:
                by_rank[t] |= np.uint64(1 << x)
    return by_suit, by_rank


BY_SUIT, BY_RANK = _beat_tables()
SUIT_CARDS = np.array([0x1FF << (13 * s + 4) for s in range(4)], np.uint64)


@njit(cache=True, inline="always")
def _beat_set(s, b, cfg, seat, t):
    """Every card that ``seat`` could put on top card ``t`` as a normal beat (4.2), as a mask:
    the same suit and lower, the same rank, or a trump the option allows."""
    out = BY_SUIT[cfg[C_STEP], t]
    if cfg[C_SAME_RANK]:
        out |= BY_RANK[t]
    opt = cfg[C_OPTION]
    ts = t // 13
    if opt == 1:
        own = s.f[b, F_TRUMP + seat]
        if own >= 0 and own != ts:
            out |= SUIT_CARDS[own]  # own trump on another suit
    elif opt >= 3:
        ct = s.f[b, F_CLASS + ts]
        for suit in range(4):
            cx = s.f[b, F_CLASS + suit]
            if cx > ct or (
                opt == 4 and cfg[C_EACH_OTHER] == 1 and cx == 1 and ct == 1 and suit != ts
            ):
                out |= SUIT_CARDS[suit]  # a trump on a lower class (option 5: senior/junior)
    return out


@njit(cache=True, inline="always")
def _beat_mask(s, b, cfg, seat, cards):
    """The cards of ``cards`` that are a normal beat of the top card (any card on an empty
    bank)."""
    n = s.f[b, F_BANK_N]
    if n == 0:
        return cards
    return cards & _beat_set(s, b, cfg, seat, s.f[b, F_BANK + n - 1])


@njit(cache=True, inline="always")
def _usable(s, b, cfg, seat):
    """The cards the seat to act may use: after a draw under ``drawn_card_only``, the drawn
    cards only (4.4, A14)."""
    hand = s.m[b, M_HAND + seat]
    if s.f[b, F_PHASE] == PHASE_DRAWN and cfg[C_DRAWN_ONLY]:
        return hand & s.m[b, M_DRAWN]
    return hand


@njit(cache=True, inline="always")
def _quad_ranks(hand):
    """Bit r set for each global rank r of which ``hand`` holds all four cards."""
    return (
        hand & (hand >> np.uint64(13)) & (hand >> np.uint64(26)) & (hand >> np.uint64(39))
    ) & np.uint64(0x1FF0)


def _sequence_starts():
    """SEQ_STARTS[order, suit bits]: bit ``low`` (index into SEQ_LOWS) set for each sequence
    that the 9 bits of one suit (ranks 6..A in natural order) contain."""
    out = np.zeros((2, 512), np.int64)
    for o in range(2):
        for bits in range(512):
            for low in range(len(SEQ_LOWS)):
                ranks = SEQ_RANKS[o, low]
                if ranks[0] >= 0 and all((bits >> (r - 4)) & 1 for r in ranks):
                    out[o, bits] |= 1 << low
    return out


SEQ_STARTS = _sequence_starts()


@njit(cache=True, inline="always")
def _seq_starts(cfg, cards, suit):
    """Bit ``low`` set for each sequence of ``suit`` that ``cards`` contain."""
    return SEQ_STARTS[cfg[C_SEQ_ORDER], (cards >> np.uint64(suit * 13 + 4)) & np.uint64(0x1FF)]


@njit(cache=True, inline="always")
def _has_special(s, b, cfg, seat):
    """Does the seat hold any special play (for the out-of-turn questions)?"""
    hand = s.m[b, M_HAND + seat]
    if cfg[C_EIGHTS] and hand & _rank_mask(RANK_8) != np.uint64(0):
        return True
    if cfg[C_QUADS] and _quad_ranks(hand) != np.uint64(0):
        return True
    if cfg[C_SEQS]:
        for suit in range(4):
            if _seq_starts(cfg, hand, suit) != 0:
                return True
    return False


@njit(cache=True, inline="always")
def _can_draw(s, b, cfg):
    return s.f[b, F_STOCK] < NUM_CARDS and s.f[b, F_DRAWS] < cfg[C_DRAWS]


# --- hands -------------------------------------------------------------------------------------
@njit(cache=True)
def _shuffle_deck(s, b):
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], s.f[b, F_DEAL_NO])
    for i in range(NUM_CARDS):
        s.f[b, F_DECK + i] = gid(i)
    rng.shuffle(base, s.f[b, F_DECK : F_DECK + NUM_CARDS])


@njit(cache=True, inline="always")
def _in_hand(s, b, p):
    """Is seat ``p`` taking part in this hand and still holding cards?"""
    return s.f[b, F_SITTING + p] == 0 and s.m[b, M_HAND + p] != np.uint64(0)


@njit(cache=True, inline="always")
def _holders(s, b, cfg):
    n = 0
    for p in range(_np(cfg)):
        if _in_hand(s, b, p):
            n += 1
    return n


@njit(cache=True, inline="always")
def _next_holder(s, b, cfg, seat):
    """The next seat clockwise after ``seat`` still holding cards (``seat`` itself if none)."""
    P = _np(cfg)
    for k in range(1, P + 1):
        p = seat_mod(seat + k, P)
        if _in_hand(s, b, p):
            return p
    return seat


@njit(cache=True, inline="always")
def _first_participant(s, b, cfg):
    """The first seat clockwise from the dealer's left taking part in the hand."""
    P = _np(cfg)
    for k in range(1, P + 1):
        p = seat_mod(s.f[b, F_DEALER] + k, P)
        if s.f[b, F_SITTING + p] == 0:
            return p
    return seat_mod(s.f[b, F_DEALER] + 1, P)


@njit(cache=True)
def _start_hand(s, b, cfg):
    """Deal the row's deck (3.3): ``hand_size`` cards to each player from the dealer's left,
    the centre card, the rest as the stock; fix the trump arrangement (3.2)."""
    P = _np(cfg)
    h = cfg[C_HAND]
    for p in range(MAX_SEATS):
        s.m[b, M_HAND + p] = 0
        s.m[b, M_TAKEN + p] = 0
        s.v[b, V_BANK_POINTS + p] = 0
        s.v[b, V_BONUS + p] = 0
        s.f[b, F_TRUMP + p] = -1
        s.f[b, F_CLASS + p] = 0
        s.f[b, F_OUT + p] = 0
    s.m[b, M_DRAWN] = 0
    k = 0
    for i in range(1, P + 1):
        seat = (s.f[b, F_DEALER] + i) % P
        if s.f[b, F_SITTING + seat]:
            continue
        for _ in range(h):
            s.m[b, M_HAND + seat] |= bit(s.f[b, F_DECK + k])
            k += 1
    s.f[b, F_BANK_N] = 0
    if cfg[C_CENTRE]:
        s.f[b, F_BANK] = s.f[b, F_DECK + k]
        s.f[b, F_OWNER] = -1  # the centre card belongs to nobody
        s.f[b, F_BANK_N] = 1
        k += 1
    s.f[b, F_STOCK] = k
    s.f[b, F_BASE_PREV] = -1
    s.f[b, F_N_OUT] = 0
    s.f[b, F_SEVEN] = 0
    s.f[b, F_SEVEN_NEXT] = 0
    s.f[b, F_DRAWS] = 0
    s.f[b, F_FAILS] = 0
    s.f[b, F_FOLLOW] = 0
    s.f[b, F_LAST_PLAYER] = -1
    s.f[b, F_NEXT_MOVER] = -1
    opt = cfg[C_OPTION]
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], 1000 + s.f[b, F_DEAL_NO])
    choose = False
    if opt == 1:
        if cfg[C_ASSIGN] == 0:
            choose = True
        elif cfg[C_ASSIGN] == 1:
            suits = np.arange(4, dtype=np.int8)
            rng.shuffle(base, suits)
            for p in range(P):
                s.f[b, F_TRUMP + p] = suits[p]
        else:
            for p in range(P):
                s.f[b, F_TRUMP + p] = p
    elif opt == 3 or opt == 4:
        common = cfg[C_COMMON]
        if common == 0:
            suits = np.arange(4, dtype=np.int8)
            rng.shuffle(base, suits)
            for j in range(opt - 2):
                common |= 1 << suits[j]
        for suit in range(4):
            s.f[b, F_CLASS + suit] = (common >> suit) & 1
    elif opt == 5:
        s.f[b, F_CLASS + 0] = 2  # spades: senior trumps
        s.f[b, F_CLASS + 2] = 1  # diamonds: junior trumps
    if choose:
        s.f[b, F_PHASE] = PHASE_TRUMP
        s.f[b, F_CURRENT] = _first_participant(s, b, cfg)
    else:
        _first_move(s, b, cfg)


@njit(cache=True)
def _first_move(s, b, cfg):
    """Who moves first (3.4): a holder of a lower card of the centre card's suit, else of a
    higher one, else the dealer's left; ties go to the first clockwise from the dealer's left."""
    P = _np(cfg)
    who = _first_participant(s, b, cfg)
    if s.f[b, F_BANK_N] > 0:
        t = s.f[b, F_BANK]
        suit_cards = np.uint64(0x1FF) << np.uint64((t // 13) * 13 + 4)
        found = False
        for step in range(2):
            for k in range(1, P + 1):
                p = (s.f[b, F_DEALER] + k) % P
                if s.f[b, F_SITTING + p]:
                    continue
                x = s.m[b, M_HAND + p] & suit_cards
                if cfg[C_EIGHTS]:
                    x &= ~_rank_mask(RANK_8)  # eights do not count (3.4)
                while x != np.uint64(0):
                    c = lowest(x)
                    x &= x - np.uint64(1)
                    lower = ORDER[c % 13] < ORDER[t % 13]
                    if lower == (step == 0):
                        found = True
                        break
                if found:
                    who = p
                    break
            if found:
                break
    s.f[b, F_STARTER] = who
    s.f[b, F_PHASE] = PHASE_PLAY
    s.f[b, F_CURRENT] = who
    s.f[b, F_DRAWS] = 0


@njit(cache=True)
def _reset(s, b, cfg, key, episode, deck, dealer):
    """Start a match in row ``b`` (``deck[0] < 0``: shuffle; ``dealer < 0``: by lot)."""
    s.m[b, M_KEY] = key
    s.m[b, M_EPISODE] = episode
    s.f[b, F_DEAL_NO] = 0
    s.f[b, F_WINNER] = -1
    s.f[b, F_TIEBREAK] = 0
    s.f[b, F_ENDED_BY] = 0
    for p in range(MAX_SEATS):
        s.v[b, V_TOTAL + p] = 0
        s.v[b, V_LAST_POINTS + p] = 0
        s.v[b, V_PENALTY + p] = 0
        s.v[b, V_LAST_BANK + p] = 0
        s.v[b, V_LAST_BONUS + p] = 0
        s.f[b, F_LAST_OUT + p] = 0
        s.f[b, F_WINNERS + p] = 0
        s.f[b, F_SITTING + p] = 0
        s.f[b, F_CONTENDER + p] = 0
    if deck[0] < 0:
        _shuffle_deck(s, b)
    else:
        for i in range(NUM_CARDS):
            s.f[b, F_DECK + i] = deck[i]
    if dealer < 0:
        dealer = rng.draw(rng.stream(key, episode, 2000), 0, _np(cfg))  # by lot (3.1)
    s.f[b, F_DEALER] = dealer
    _start_hand(s, b, cfg)


# --- the bank (4.5) ----------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _take(s, b, cfg, taker):
    """``taker`` takes the bank: all but the top card, which stays as an unowned base card
    (A7; ``bank_take="all"``: everything)."""
    n = s.f[b, F_BANK_N]
    keep = 0 if cfg[C_TAKE_ALL] else 1
    for i in range(n - keep):
        c = s.f[b, F_BANK + i]
        s.m[b, M_TAKEN + taker] |= bit(c)
        s.v[b, V_BANK_POINTS + taker] += POINTS[c % 13]
    if keep and n > 0:
        s.f[b, F_BASE_PREV] = s.f[b, F_OWNER + n - 1]
        s.f[b, F_BANK] = s.f[b, F_BANK + n - 1]
        s.f[b, F_OWNER] = -1
        s.f[b, F_BANK_N] = 1
    else:
        s.f[b, F_BASE_PREV] = -1
        s.f[b, F_BANK_N] = 0


@njit(cache=True, inline="always")
def _place(s, b, card, seat):
    """Put ``card`` from ``seat``'s hand on the bank, owned by ``seat``."""
    n = s.f[b, F_BANK_N]
    s.f[b, F_BANK + n] = card
    s.f[b, F_OWNER + n] = seat
    s.f[b, F_BANK_N] = n + 1
    s.m[b, M_HAND + seat] &= ~bit(card)


@njit(cache=True)
def _is_trump_king(s, b, cfg, card, seat):
    """Is ``card`` the trump King for ``seat`` (3.2)?"""
    if card % 13 != RANK_K:
        return False
    opt = cfg[C_OPTION]
    if opt == 1:
        return s.f[b, F_TRUMP + seat] == card // 13
    if opt == 2:
        return False
    c = s.f[b, F_CLASS + card // 13]
    if opt == 5 and cfg[C_SENIOR_KING]:
        return c == 2
    return c >= 1


# --- turns -------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _begin_turn(s, b, cfg, seat):
    """Start ``seat``'s turn; apply a pending seven (4.6: control, draw then move)."""
    s.f[b, F_CURRENT] = seat
    s.f[b, F_PHASE] = PHASE_PLAY
    s.f[b, F_DRAWS] = 0
    s.f[b, F_SEVEN] = 0
    s.m[b, M_DRAWN] = 0
    if s.f[b, F_SEVEN_NEXT] == 0:
        return
    s.f[b, F_SEVEN_NEXT] = 0
    if cfg[C_SEVEN] == SEVEN_CONTROL:
        s.f[b, F_SEVEN] = 1
        s.f[b, F_DRAWS] = cfg[C_DRAWS]  # no rescue draw
    elif cfg[C_SEVEN] == SEVEN_DRAW_MOVE:
        s.f[b, F_SEVEN] = 2
        s.m[b, M_DRAWN] = _draw_one(s, b, seat)
        s.f[b, F_DRAWS] = cfg[C_DRAWS]  # no second draw


@njit(cache=True, inline="always")
def _draw_one(s, b, seat):
    """``seat`` draws the top stock card (none if the stock is empty); returns it as a mask."""
    if s.f[b, F_STOCK] >= NUM_CARDS:
        return np.uint64(0)
    c = s.f[b, F_DECK + s.f[b, F_STOCK]]
    s.f[b, F_STOCK] += 1
    s.m[b, M_HAND + seat] |= bit(c)
    return bit(c)


@njit(cache=True, inline="always")
def _pass_turn(s, b, cfg, seat):
    """The turn passes from ``seat`` to the next player holding cards (a seven under
    ``draw_and_skip`` makes him draw and lose the turn, 4.6); out of turn, the others holding
    a special play are asked first (A8)."""
    nxt = _next_holder(s, b, cfg, seat)
    if s.f[b, F_SEVEN_NEXT] and cfg[C_SEVEN] == SEVEN_DRAW_SKIP:
        s.f[b, F_SEVEN_NEXT] = 0
        _draw_one(s, b, nxt)
        nxt = _next_holder(s, b, cfg, nxt)  # the turn is lost, not failed
    if cfg[C_OUT_OF_TURN]:
        s.f[b, F_NEXT_MOVER] = nxt
        if _ask_next(s, b, cfg, nxt):
            return
    _begin_turn(s, b, cfg, nxt)


@njit(cache=True, inline="always")
def _ask_next(s, b, cfg, after):
    """Ask the next seat clockwise after ``after`` (before the next mover) holding a special play;
    False if there is none left."""
    P = _np(cfg)
    nxt = s.f[b, F_NEXT_MOVER]
    p = after
    for _ in range(P):
        p = seat_mod(p + 1, P)
        if p == nxt:
            return False
        if _in_hand(s, b, p) and _has_special(s, b, cfg, p):
            s.f[b, F_PHASE] = PHASE_INTERRUPT
            s.f[b, F_CURRENT] = p
            s.f[b, F_DRAWS] = 0
            s.f[b, F_SEVEN] = 0
            s.m[b, M_DRAWN] = 0
            return True
    return False


@njit(cache=True, inline="always")
def _end_turn(s, b, cfg, seat):
    """A play is complete: a seven left on top affects the next player (4.6, A23)."""
    n = s.f[b, F_BANK_N]
    s.f[b, F_SEVEN_NEXT] = 0
    if (
        cfg[C_SEVEN] != SEVEN_NONE
        and n > 0
        and s.f[b, F_BANK + n - 1] % 13 == RANK_7
        and s.f[b, F_OWNER + n - 1] == seat
    ):
        s.f[b, F_SEVEN_NEXT] = 1
    _pass_turn(s, b, cfg, seat)


@njit(cache=True, inline="always")
def _fail(s, b, cfg, seat):
    """``seat`` fails against the top card: its owner takes the bank (4.5); deadlock (4.9)."""
    n = s.f[b, F_BANK_N]
    if n > 0:
        owner = s.f[b, F_OWNER + n - 1]
        if owner >= 0 and owner != seat:
            _take(s, b, cfg, owner)
        elif owner < 0 and cfg[C_PREV_OWNER] and 0 <= s.f[b, F_BASE_PREV] != seat:
            # A15 alternative: the base card's previous owner takes it (the whole bank); the
            # next player leads freely
            prev = s.f[b, F_BASE_PREV]
            for i in range(n):
                c = s.f[b, F_BANK + i]
                s.m[b, M_TAKEN + prev] |= bit(c)
                s.v[b, V_BANK_POINTS + prev] += POINTS[c % 13]
            s.f[b, F_BANK_N] = 0
            s.f[b, F_BASE_PREV] = -1
    if s.f[b, F_STOCK] >= NUM_CARDS:
        s.f[b, F_FAILS] += 1
        if s.f[b, F_FAILS] >= _holders(s, b, cfg):
            _end_hand(s, b, cfg, 1)
            return
    else:
        s.f[b, F_FAILS] = 0
    _pass_turn(s, b, cfg, seat)


@njit(cache=True)
def _bonus(cfg, pos, kind, top):
    """Going-out bonus of finishing position ``pos`` (1..3) with play ``kind`` (5.3)."""
    sh = np.int64(10 * (pos - 1))
    parts = np.zeros(4, np.int64)
    parts[0] = (cfg[C_BONUS] >> sh) & 1023
    if top % 13 == RANK_K:
        parts[1] = (cfg[C_KING_EXTRA] >> sh) & 1023
    if kind == KIND_SEQ:
        parts[2] = (cfg[C_SEQ_EXTRA] >> sh) & 1023
    if kind == KIND_QUAD and top % 13 != RANK_K:
        parts[3] = cfg[C_QUAD_BONUS]
    if cfg[C_STACK]:
        return parts[0] + parts[1] + parts[2] + parts[3]
    return max(max(parts[0], parts[1]), max(parts[2], parts[3]))


@njit(cache=True, inline="always")
def _after_play(s, b, cfg, seat, kind):
    """Everything that follows a play by ``seat``: going out and its bonuses (4.8, 5.3), the
    four Kings' and the trump King's take, the follow-up (4.3) or the end of the turn."""
    s.f[b, F_FAILS] = 0
    s.f[b, F_LAST_PLAYER] = seat
    n = s.f[b, F_BANK_N]
    top = s.f[b, F_BANK + n - 1]
    gone = s.m[b, M_HAND + seat] == np.uint64(0)
    kings = kind == KIND_QUAD and top % 13 == RANK_K and (cfg[C_KINGS] == 0 or gone)
    if gone:
        pos = s.f[b, F_N_OUT] + 1
        s.f[b, F_N_OUT] = pos
        s.f[b, F_OUT + seat] = pos
        s.v[b, V_BONUS + seat] += _bonus(cfg, pos, kind, top)
        if cfg[C_TRUMP_KING] and _is_trump_king(s, b, cfg, top, seat):
            kings = True  # a trump King as the finishing card takes the bank
    if kings:
        _take(s, b, cfg, seat)
    if _holders(s, b, cfg) <= 1:
        _end_hand(s, b, cfg, 0)
        return
    # the four Kings' take keeps the quad's follow-up onto the King left on top (4.3)
    if not gone and (not kings or (cfg[C_KINGS_FU] and s.f[b, F_BANK_N] > 0)):
        mode = FOLLOW_NONE
        if kind == KIND_EIGHT:
            mode = cfg[C_EIGHT_FU]
        elif kind == KIND_QUAD:
            mode = cfg[C_QUAD_FU]
        elif kind == KIND_SEQ:
            mode = cfg[C_SEQ_FU]
        if mode != FOLLOW_NONE:
            s.f[b, F_PHASE] = PHASE_FOLLOW
            s.f[b, F_CURRENT] = seat
            s.f[b, F_FOLLOW] = kind
            if _beat_mask(s, b, cfg, seat, s.m[b, M_HAND + seat]) != np.uint64(0):
                return  # a follow-up is possible: the player decides
    _end_turn(s, b, cfg, seat)


@njit(cache=True)
def _end_hand(s, b, cfg, deadlock):
    """Score the hand (5), decide the match or deal the next hand (3.1, 5.4)."""
    P = _np(cfg)
    s.f[b, F_ENDED_BY] = deadlock
    n = s.f[b, F_BANK_N]
    if cfg[C_FINAL_BANK] and n > 0 and s.f[b, F_OWNER + n - 1] >= 0:
        owner = s.f[b, F_OWNER + n - 1]
        for i in range(n):
            c = s.f[b, F_BANK + i]
            s.m[b, M_TAKEN + owner] |= bit(c)
            s.v[b, V_BANK_POINTS + owner] += POINTS[c % 13]
        s.f[b, F_BANK_N] = 0
    dealer = s.f[b, F_DEALER]
    loser, loser_pts = -1, -1
    for k in range(1, P + 1):
        p = (dealer + k) % P
        if s.f[b, F_SITTING + p]:
            s.v[b, V_LAST_POINTS + p] = 0
            s.v[b, V_PENALTY + p] = 0
            s.v[b, V_LAST_BANK + p] = 0
            s.v[b, V_LAST_BONUS + p] = 0
            s.f[b, F_LAST_OUT + p] = 0
            continue
        hand = s.m[b, M_HAND + p]
        pen = 0
        if hand != np.uint64(0):
            pts = _hand_points(hand)
            if pts > loser_pts:
                loser, loser_pts = p, pts
            if cfg[C_PENALTY]:
                mode = cfg[C_PEN_MODE]
                cards = popcount(hand)
                if mode == PEN_POINTS:
                    pen = pts
                elif mode == PEN_FIXED:
                    pen = cfg[C_PEN_FIXED]
                elif mode == PEN_PER_CARD:
                    pen = cfg[C_PEN_CARD] * cards
                elif mode == PEN_POINTS_PLUS:
                    zero = 0
                    x = hand
                    while x != np.uint64(0):
                        c = lowest(x)
                        x &= x - np.uint64(1)
                        if POINTS[c % 13] == 0:
                            zero += 1
                    pen = pts + cfg[C_PEN_CARD] * zero
                else:
                    pen = pts if pts > 0 else cfg[C_PEN_FIXED]
        s.v[b, V_LAST_BANK + p] = s.v[b, V_BANK_POINTS + p]
        s.v[b, V_LAST_BONUS + p] = s.v[b, V_BONUS + p]
        s.f[b, F_LAST_OUT + p] = s.f[b, F_OUT + p]
        score = s.v[b, V_BANK_POINTS + p] + s.v[b, V_BONUS + p] - pen
        s.v[b, V_PENALTY + p] = pen
        s.v[b, V_LAST_POINTS + p] = score
        total = s.v[b, V_TOTAL + p] + score
        if not cfg[C_NEGATIVE] and total < 0:
            total = 0
        s.v[b, V_TOTAL + p] = min(total, 30000)
    if cfg[C_EPISODE] == 1:
        vals = np.zeros(P, np.int64)
        for p in range(P):
            vals[p] = s.v[b, V_LAST_POINTS + p]
        _game_over(s, b, cfg, vals, np.ones(P, np.int64))
        return
    # the match (5.4): checked at the end of each hand
    cand = np.zeros(P, np.int64)
    tb = s.f[b, F_TIEBREAK]
    reached = tb == 1
    for p in range(P):
        cand[p] = s.f[b, F_CONTENDER + p] if tb else 1
        if s.v[b, V_TOTAL + p] >= cfg[C_TARGET]:
            reached = True
    vals = np.zeros(P, np.int64)
    for p in range(P):
        vals[p] = s.v[b, V_TOTAL + p]
    last = s.f[b, F_DEAL_NO] + 1 >= cfg[C_MAX_HANDS]
    if reached or last:
        best, n_best = -(1 << 30), 0
        for p in range(P):
            if cand[p]:
                if vals[p] > best:
                    best, n_best = vals[p], 1
                elif vals[p] == best:
                    n_best += 1
        if n_best == 1 or last:
            _game_over(s, b, cfg, vals, cand)
            return
        s.f[b, F_TIEBREAK] = 1  # equal highest totals: one more hand (5.4)
        for p in range(P):
            tied = cand[p] == 1 and vals[p] == best
            s.f[b, F_CONTENDER + p] = 1 if tied else 0
            s.f[b, F_SITTING + p] = 1 if (cfg[C_TIED_ONLY] and not tied) else 0
    # the next dealer (3.1)
    rule = cfg[C_NEXT_DEALER]
    nd = dealer
    if rule == 0:
        nd = loser if loser >= 0 else dealer
    elif rule == 1:
        nd = s.f[b, F_LAST_PLAYER] if s.f[b, F_LAST_PLAYER] >= 0 else dealer
    elif rule == 2:
        nd = s.f[b, F_STARTER]
    else:
        best = 0
        for k in range(1, P + 1):
            p = (dealer + k) % P
            t = s.v[b, V_TOTAL + p]
            if k == 1 or (rule == 3 and t > best) or (rule == 4 and t < best):
                nd, best = p, t
    s.f[b, F_DEALER] = nd
    s.f[b, F_DEAL_NO] += 1
    _shuffle_deck(s, b)
    _start_hand(s, b, cfg)


@njit(cache=True)
def _game_over(s, b, cfg, values, cand):
    """End the episode; the candidates with the highest ``values`` win (co-winners share)."""
    P = _np(cfg)
    best = -(1 << 30)
    for p in range(P):
        if cand[p]:
            best = max(best, values[p])
    n = 0
    for p in range(P):
        s.f[b, F_WINNERS + p] = 1 if (cand[p] and values[p] == best) else 0
        n += s.f[b, F_WINNERS + p]
    s.f[b, F_WINNER] = -1
    if n == 1:
        for p in range(P):
            if s.f[b, F_WINNERS + p]:
                s.f[b, F_WINNER] = p
    s.f[b, F_PHASE] = PHASE_OVER
    s.f[b, F_CURRENT] = -1


# --- legal actions, step, observation ----------------------------------------------------------
@njit(cache=True, inline="always")
def _follow_mode(s, b, cfg):
    k = s.f[b, F_FOLLOW]
    if k == KIND_EIGHT:
        return cfg[C_EIGHT_FU]
    if k == KIND_QUAD:
        return cfg[C_QUAD_FU]
    return cfg[C_SEQ_FU]


@njit(cache=True, inline="always")
def _with(lo, hi, a):
    """Add action ``a`` to the two-word action set ``(lo, hi)``."""
    if a < 64:
        return lo | (np.uint64(1) << np.uint64(a)), hi
    return lo, hi | (np.uint64(1) << np.uint64(a - 64))


@njit(cache=True, inline="always")
def _legal_set(s, b, cfg):
    """The legal actions of the seat to act as two words (bit ``a`` of ``lo``, bit ``a - 64`` of
    ``hi``)."""
    lo = np.uint64(0)
    hi = np.uint64(0)
    ph = s.f[b, F_PHASE]
    seat = s.f[b, F_CURRENT]
    if ph == PHASE_OVER:
        return lo, hi
    if ph == PHASE_TRUMP:
        free = 15
        for p in range(_np(cfg)):
            if s.f[b, F_TRUMP + p] >= 0:
                free &= ~(1 << s.f[b, F_TRUMP + p])  # a suit nobody has taken
        return lo, hi | (np.uint64(free) << np.uint64(ACTION_TRUMP - 64))
    usable = _usable(s, b, cfg, seat)
    beat = _beat_mask(s, b, cfg, seat, usable)
    eights = _rank_mask(RANK_8) if cfg[C_EIGHTS] else np.uint64(0)
    # normal beats; with eights_wild an eight is always played as an eight
    if ph != PHASE_INTERRUPT:
        lo |= np.uint64(_local36(beat & ~eights))
    e = (beat if ph == PHASE_FOLLOW else usable) & eights
    if e != np.uint64(0):
        e >>= np.uint64(RANK_8)  # the eights of S H D C at bits 0, 13, 26, 39
        one = np.uint64(1)
        suits = (
            (e & one)
            | (((e >> np.uint64(13)) & one) << one)
            | (((e >> np.uint64(26)) & one) << np.uint64(2))
            | (((e >> np.uint64(39)) & one) << np.uint64(3))
        )
        lo |= suits << np.uint64(ACTION_EIGHT)
    if ph == PHASE_FOLLOW:
        if _follow_mode(s, b, cfg) != FOLLOW_MANDATORY:
            lo, hi = _with(lo, hi, ACTION_STOP)
        return lo, hi
    hand = s.m[b, M_HAND + seat]
    restrict = ph == PHASE_DRAWN and cfg[C_DRAWN_ONLY] == 1
    if cfg[C_QUADS]:
        q = _quad_ranks(hand)
        while q != np.uint64(0):
            r = lowest(q)
            q &= q - np.uint64(1)
            if restrict and _rank_mask(r) & usable == np.uint64(0):
                continue  # after a draw: only plays with a drawn card (A14)
            for suit in range(4):
                lo, hi = _with(lo, hi, ACTION_QUAD + 4 * (r - 4) + suit)
    if cfg[C_SEQS]:
        for suit in range(4):
            st = _seq_starts(cfg, hand, suit)
            if st == 0:
                continue
            if restrict:
                for low in range(7):
                    if (st >> low) & 1 and _seq_mask(cfg, suit, low) & usable == np.uint64(0):
                        st &= ~(1 << low)  # after a draw: only with a drawn card (A14)
            hi |= np.uint64(st) << np.uint64(ACTION_SEQ - 64 + 7 * suit)
    if ph == PHASE_INTERRUPT:
        lo, hi = _with(lo, hi, ACTION_STOP)
    elif cfg[C_VOLUNTARY] or cfg[C_FORCED] == 0 or beat == np.uint64(0):
        # no normal beat (A13): draw while allowed, then fail
        lo, hi = _with(lo, hi, ACTION_DRAW if _can_draw(s, b, cfg) else ACTION_PASS)
    return lo, hi


@njit(cache=True, inline="always")  # into step_rows; the other callers: legal_row
def _legal(s, b, cfg, out):
    """Write the legal-action mask of the seat to act into ``out`` and keep it in the state
    (``legal``, read by ``_is_legal``)."""
    lo, hi = _legal_set(s, b, cfg)
    s.m[b, M_LEGAL] = lo
    s.m[b, M_LEGAL + 1] = hi
    spread(lo, 64, out, 0)
    spread(hi, NUM_ACTIONS - 64, out, 64)


@njit(cache=True, inline="always")
def _is_legal(s, b, cfg, a):
    """Is action ``a`` legal for the seat to act (the set ``_legal`` last wrote)?"""
    return action_in(s.m[b, M_LEGAL], s.m[b, M_LEGAL + 1], a, NUM_ACTIONS)


@njit(cache=True, inline="always")  # into step_rows, its only caller besides apply_row
def _apply(s, b, cfg, a):
    """Apply legal action ``a`` of the seat to act."""
    P = _np(cfg)
    seat = s.f[b, F_CURRENT]
    ph = s.f[b, F_PHASE]
    if ph == PHASE_TRUMP:
        s.f[b, F_TRUMP + seat] = a - ACTION_TRUMP
        nxt = seat
        for k in range(1, P + 1):
            nxt = seat_mod(seat + k, P)
            if s.f[b, F_SITTING + nxt] == 0:
                break
        if nxt == _first_participant(s, b, cfg):
            _first_move(s, b, cfg)
        else:
            s.f[b, F_CURRENT] = nxt
        return
    if a == ACTION_DRAW:
        s.m[b, M_DRAWN] |= _draw_one(s, b, seat)
        s.f[b, F_DRAWS] += 1
        s.f[b, F_PHASE] = PHASE_DRAWN
        return
    if a == ACTION_PASS:
        _fail(s, b, cfg, seat)
        return
    if a == ACTION_STOP:
        if ph == PHASE_INTERRUPT:
            if not _ask_next(s, b, cfg, seat):
                _begin_turn(s, b, cfg, s.f[b, F_NEXT_MOVER])
            return
        _end_turn(s, b, cfg, seat)
        return
    if ph == PHASE_INTERRUPT:
        s.f[b, F_SEVEN_NEXT] = 0  # the interrupted mover's seven is covered
    s.m[b, M_DRAWN] = 0
    if a < ACTION_EIGHT:
        _place(s, b, gid(a), seat)
        kind = KIND_NORMAL
    elif a < ACTION_QUAD:
        _place(s, b, (a - ACTION_EIGHT) * 13 + RANK_8, seat)
        kind = KIND_EIGHT
    elif a < ACTION_SEQ:
        r = (a - ACTION_QUAD) // 4 + 4
        top = (a - ACTION_QUAD) % 4
        for suit in range(4):
            if suit != top:
                _place(s, b, suit * 13 + r, seat)
        _place(s, b, top * 13 + r, seat)  # the chosen card ends on top
        kind = KIND_QUAD
    else:
        i = a - ACTION_SEQ
        suit, low = i // 7, i % 7
        o = cfg[C_SEQ_ORDER]
        for k in range(4):
            _place(s, b, suit * 13 + SEQ_RANKS[o, low, k], seat)  # highest first
        kind = KIND_SEQ
    # one call site: an inline="always" helper is compiled into every place that calls it
    _after_play(s, b, cfg, seat, kind)


@njit(cache=True, inline="always")  # into step_rows; the other callers: observe_row
def _observe(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (length OBS_DIM)."""
    P = _np(cfg)
    ph = s.f[b, F_PHASE]
    _planes(s.m[b, M_HAND + seat] if ph != PHASE_TRUMP else np.uint64(0), out, O_HAND)
    n = s.f[b, F_BANK_N]
    for i in range(O_BANK_OWNER, O_TAKEN):
        out[i] = 0.0
    for i in range(n):
        # owner blocks egocentric (the observer's first), then "no owner"; written card by card
        # into the zeroed blocks, 20% faster than five one-hot planes of owner masks
        c = lid(s.f[b, F_BANK + i])
        o = s.f[b, F_OWNER + i]
        k = 4 if o < 0 else seat_mod(o - seat, P)
        out[O_BANK_OWNER + 36 * k + c] = 1.0
        out[O_BANK_POS + c] = (i + 1) * (1.0 / 36.0)
    if n > 0:
        out[O_TOP + lid(s.f[b, F_BANK + n - 1])] = 1.0
    _planes(_taken_all(s, b, cfg), out, O_TAKEN)
    mine = s.f[b, F_CURRENT] == seat
    _planes(s.m[b, M_DRAWN] if mine else np.uint64(0), out, O_DRAWN)
    _observe_numbers(s, b, cfg, seat, out)


@njit(cache=True, inline="always")
def _taken_all(s, b, cfg):
    taken = np.uint64(0)
    for p in range(_np(cfg)):
        taken |= s.m[b, M_TAKEN + p]
    return taken


@njit(cache=True, inline="always")
def _observe_numbers(s, b, cfg, seat, out):
    """The numeric blocks of the observation (from ``hand_size`` on).

    The seat loop indexes the state through unsigned seats (no negative-index wraparound for
    numba to add) and multiplies by the target's reciprocal, read once: 13% off the whole
    observation, with the same float32 values (checked for every total and allowed target)."""
    P = _np(cfg)
    ph = s.f[b, F_PHASE]
    clear(out, O_HAND_SIZE, OBS_DIM)
    per_target = 1.0 / cfg[C_TARGET]
    for k in range(P):
        p = seat_mod(seat + k, P)
        if ph != PHASE_TRUMP:
            out[O_HAND_SIZE + k] = popcount(s.m[b, at(M_HAND, p)]) * (1.0 / 36.0)
        t = s.f[b, at(F_TRUMP, p)]
        out[O_TRUMPS + 5 * k + (t if t >= 0 else 4)] = 1.0
        out[O_OUT + k] = s.f[b, at(F_OUT, p)] * (1.0 / 3.0)
        out[O_BANK_POINTS + k] = s.v[b, at(V_BANK_POINTS, p)] * (1.0 / 124.0)
        out[O_BONUS + k] = min(s.v[b, at(V_BONUS, p)] * 0.01, 4.0)
        total = s.v[b, at(V_TOTAL, p)] * per_target
        out[O_TOTAL + k] = min(max(total, -20.0), 20.0)
        out[O_SITTING + k] = s.f[b, at(F_SITTING, p)]
        out[O_CONTENDER + k] = s.f[b, at(F_CONTENDER, p)]
        out[O_SEATS + k] = 1.0
    dealer = s.f[b, F_DEALER]
    if dealer >= 0:
        out[O_DEALER + seat_mod(dealer - seat, P)] = 1.0
    mine = s.f[b, F_CURRENT] == seat
    for suit in range(4):
        out[O_CLASS + suit] = s.f[b, F_CLASS + suit] * (1.0 / 2.0)
    mover = s.f[b, F_NEXT_MOVER] if ph == PHASE_INTERRUPT else s.f[b, F_CURRENT]
    if mover >= 0:
        out[O_MOVER + seat_mod(mover - seat, P)] = 1.0
    out[O_STOCK] = (NUM_CARDS - s.f[b, F_STOCK]) * (1.0 / 36.0)
    out[O_PHASE + ph] = 1.0
    out[O_TO_ACT] = 1.0 if mine else 0.0
    if s.f[b, F_SEVEN] > 0 and ph != PHASE_INTERRUPT:
        out[O_SEVEN + s.f[b, F_SEVEN] - 1] = 1.0
    out[O_DRAWS] = s.f[b, F_DRAWS] / cfg[C_DRAWS] if ph != PHASE_INTERRUPT else 0.0
    out[O_FAILS] = min(s.f[b, F_FAILS], 4) * (1.0 / 4.0)
    out[O_HAND_NO] = s.f[b, F_DEAL_NO] / cfg[C_MAX_HANDS]


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
    four-handed step got 1.12-1.15 times faster (4 pairs) than one kernel reading the array; the
    same outputs, hashed over 600 steps of 512 rows and 400 steps for the other counts."""

    @njit(cache=True)
    def step_rows(s, cfg, actions, autoreset, obs, mask, rewards, terminated):
        s, cfg, obs, mask, rewards = borrowed_step(s, cfg, obs, mask, rewards)  # no refcounting
        fixed = fixed_config(cfg, C_SIZE, C_PLAYERS, players)  # the config in registers
        _step_rows(s, fixed, actions, autoreset, obs, mask, rewards, terminated)

    return step_rows


# the step kernels, one per seat count (each compiled on first use); ``step_rows`` for callers
# that do not keep the kernel of their config (``GameDef.step_kernel``)
step_for = StepKernels(_step_kernel, range(2, 5), C_PLAYERS, "num_players")
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
    """The legal-action mask of row ``b`` (for the rules helpers)."""
    _legal(s, b, cfg, out)


@njit(cache=True)
def apply_row(s, b, cfg, a):
    """Apply action ``a`` in row ``b`` if legal; returns whether it was (rules helpers)."""
    if not _is_legal(s, b, cfg, a):
        return False
    _apply(s, b, cfg, a)
    legal_row(s, b, cfg, np.zeros(NUM_ACTIONS, np.int8))
    return True


@njit(cache=True)
def beats_row(s, b, cfg, x, t, seat):
    """Does card ``x`` played by ``seat`` beat top card ``t`` (for the rules helper)?"""
    return _has(_beat_set(s, b, cfg, seat, t), x)


# --- Python-side helpers -----------------------------------------------------------------------
def result(s: PackedState, b: int, config: Config) -> dict:
    """JSON-able result of the finished episode in row ``b``."""
    P = config.num_players
    w = int(s.f[b, F_WINNER])
    return {
        "winner": None if w < 0 else w,
        "winners": [p for p in range(P) if s.f[b, F_WINNERS + p]],
        "totals": s.v[b, V_TOTAL : V_TOTAL + P].tolist(),
        "hands": int(s.f[b, F_DEAL_NO]) + 1,
    }


def deal_extras(s: PackedState, b: int, config: Config) -> dict:
    """Record fields of a finished hand: bank points, bonuses, penalties, finishing positions,
    how it ended, and the totals after it."""
    P = config.num_players
    return {
        "bank_points": s.v[b, V_LAST_BANK : V_LAST_BANK + P].tolist(),
        "bonus": s.v[b, V_LAST_BONUS : V_LAST_BONUS + P].tolist(),
        "penalty": s.v[b, V_PENALTY : V_PENALTY + P].tolist(),
        "out": s.f[b, F_LAST_OUT : F_LAST_OUT + P].tolist(),
        "ended_by": "deadlock" if s.f[b, F_ENDED_BY] else "going out",
        "totals": s.v[b, V_TOTAL : V_TOTAL + P].tolist(),
    }


def deck_strings(s: PackedState, b: int) -> list[str]:
    """The current hand's deck order (hands from the dealer's left, centre card, stock)."""
    return format_cards(s.f[b, F_DECK : F_DECK + NUM_CARDS]).split()


def determinize(s: PackedState, b: int, config: Config, seat: int, rng) -> None:
    """Redraw in place what ``seat`` cannot see in row ``b``: the other players' hands and the
    stock order (during the trump choice, every hand, its own too). Each hand keeps its size; a
    player to act who drew this turn keeps that many of his new cards as "drawn". Everything
    else (the bank and its owners, the cards taken, trumps, scores) is public and kept.
    """
    P = config.num_players
    hidden_own = s.f[b, F_PHASE] == PHASE_TRUMP
    seats = [p for p in range(P) if p != seat or hidden_own]
    pool = []
    sizes = []
    for p in seats:
        m = int(s.m[b, M_HAND + p])
        cards = [c for c in DECK.cards.tolist() if (m >> c) & 1]
        pool += cards
        sizes.append(len(cards))
    sp = int(s.f[b, F_STOCK])
    stock = s.f[b, F_DECK + sp : F_DECK + NUM_CARDS].tolist()
    pool += stock
    pool = [pool[i] for i in rng.permutation(len(pool))]
    k = 0
    for p, n in zip(seats, sizes, strict=True):
        m = 0
        for c in pool[k : k + n]:
            m |= 1 << c
        s.m[b, M_HAND + p] = np.uint64(m)
        k += n
    s.f[b, F_DECK + sp : F_DECK + NUM_CARDS] = pool[k:]
    cur = int(s.f[b, F_CURRENT])
    if cur >= 0 and cur != seat and s.m[b, M_DRAWN]:
        n = bin(int(s.m[b, M_DRAWN])).count("1")
        h = int(s.m[b, M_HAND + cur])
        held = [c for c in DECK.cards.tolist() if (h >> c) & 1]
        m = 0
        for c in rng.choice(held, size=n, replace=False).tolist():
            m |= 1 << c
        s.m[b, M_DRAWN] = np.uint64(m)


def _trump_state(s, config: Config, trumps, seat: int) -> None:
    """Write the trump arrangement of row 0 from the helpers' ``trumps`` argument."""
    opt = config.trump_option
    if opt == 1:
        own = trumps
        if own is None or isinstance(own, str):
            own = {seat: own}
        elif not isinstance(own, dict):
            own = dict(enumerate(own))
        for p, t in own.items():
            if not (isinstance(p, int) and 0 <= p < config.num_players):
                raise ValueError(f"trumps: seat {p!r} is not in 0..{config.num_players - 1}")
            if t is not None and t not in SUITS:
                raise ValueError(f"trump suit {t!r} must be one of 'S', 'H', 'D', 'C' or None")
            s.f[0, F_TRUMP + p] = -1 if t is None else SUITS.index(t)
        chosen = [t for t in own.values() if t is not None]
        if len(set(chosen)) != len(chosen):
            raise ValueError(f"option 1 trumps must be different suits, got {trumps!r}")
    elif opt in (3, 4):
        if not isinstance(trumps, str):
            raise ValueError(f"option {opt} needs the common trump suit(s), e.g. 'H' or 'HS'")
        _check_common(trumps)
        if len(trumps) != opt - 2:
            raise ValueError(f"option {opt} needs {opt - 2} common trump suit(s), got {trumps!r}")
        for suit in range(4):
            s.f[0, F_CLASS + suit] = 1 if SUITS[suit] in trumps else 0
    elif opt == 5:
        s.f[0, F_CLASS + 0], s.f[0, F_CLASS + 2] = 2, 1


def beats(card, top, trumps=None, trump_option: int = 1, seat: int = 0, **config) -> bool:
    """Does ``card``, played by ``seat``, legally cover ``top`` by a normal beat (spec 4.2)?

    Args:
        card: the card played, e.g. ``"9H"``.
        top: the bank's top card.
        trumps: option 1: the seat's own trump suit (``"S" "H" "D" "C"`` or ``None``), or one
            suit (or ``None``) per seat as a list or dict; options 3/4: the common trump
            suit(s), e.g. ``"H"`` or ``"HS"``; ignored for options 2 and 5.
        trump_option: 1–5 (3.2).
        seat: the seat playing ``card``.
        **config: other ``Config`` options (``beat_step``, ``same_rank_always_beats``,
            ``common_trumps_beat_each_other``, ``num_players``).

    Special plays (eights, quads, sequences) are not normal beats; see ``Table`` for them.
    """
    x, t = DECK.check_card(card), DECK.check_card(top)
    if x == t:
        raise ValueError(f"a card cannot cover itself: {format_card(x)}")
    c = Config.from_kwargs(**dict(config, trump_option=trump_option))
    if not (isinstance(seat, int) and 0 <= seat < c.num_players):
        raise ValueError(f"seat must be in 0..{c.num_players - 1}, got {seat!r}")
    s = new_state(1)
    for p in range(MAX_SEATS):
        s.f[0, F_TRUMP + p] = -1
    _trump_state(s, c, trumps, seat)
    return bool(beats_row(s, 0, c.to_array(), x, t, seat))


class Table:
    """A Banque position built from card strings, for scenario tests and analysis.

    It is one row of the engine started mid-hand: ``legal()`` lists the legal action names of
    the seat to act, ``act(name)`` applies one (``ValueError`` if illegal), and the accessors read
    the state. Example::

        t = Table(hands=["9H 6S", "KH 7C"], bank="10H", stock="AS 7D", current=0)
        t.legal()  # {'play 9H', ...}
        t.act("play 9H")

    Args:
        hands: one card string per seat (``num_players`` of them).
        bank: the bank from the bottom, a card string.
        owners: owner seat of each bank card (``None`` = no owner; default: nobody).
        stock: the stock from the top (default empty).
        current: the seat to act (it must hold cards).
        dealer: the dealer (default: the seat before ``current``).
        trumps: as in ``beats`` (option 1: one suit or ``None`` per seat).
        totals: match totals per seat (default 0).
        taken: cards each seat already took this hand (card strings).
        **config: ``Config`` options.
    """

    def __init__(
        self,
        hands,
        bank="",
        owners=None,
        stock="",
        current=0,
        dealer=None,
        trumps=None,
        totals=None,
        taken=None,
        **config,
    ):
        self.config = Config.from_kwargs(**config)
        self.cfg = self.config.to_array()
        P = self.config.num_players
        if len(hands) != P:
            raise ValueError(f"hands: one card string per seat, {P} expected, got {len(hands)}")
        hand_ids = [self._cards(h) for h in hands]
        bank_ids = self._cards(bank)
        stock_ids = self._cards(stock)
        taken_ids = [self._cards(t) for t in (taken or [""] * P)]
        used = [c for h in hand_ids for c in h] + bank_ids + stock_ids
        used += [c for t in taken_ids for c in t]
        dup = sorted({format_card(c) for c in used if used.count(c) > 1})
        if dup:
            raise ValueError(f"cards listed more than once: {dup}")
        owners = [None] * len(bank_ids) if owners is None else list(owners)
        if len(owners) != len(bank_ids):
            raise ValueError(f"owners: one per bank card, {len(bank_ids)} expected")
        if not (isinstance(current, int) and 0 <= current < P and hand_ids[current]):
            raise ValueError(f"current must be a seat in 0..{P - 1} holding cards")
        s = self.state = new_state(1)
        for p in range(MAX_SEATS):
            s.f[0, F_TRUMP + p] = -1
        deck = [c for c in DECK.cards.tolist() if c not in stock_ids] + stock_ids
        s.f[0, F_DECK : F_DECK + NUM_CARDS] = deck
        s.f[0, F_STOCK] = NUM_CARDS - len(stock_ids)
        for p, h in enumerate(hand_ids):
            for c in h:
                s.m[0, M_HAND + p] |= np.uint64(1 << c)
        for p, t in enumerate(taken_ids):
            for c in t:
                s.m[0, M_TAKEN + p] |= np.uint64(1 << c)
                s.v[0, V_BANK_POINTS + p] += POINTS[c % 13]
        for i, (c, o) in enumerate(zip(bank_ids, owners, strict=True)):
            if o is not None and not (isinstance(o, int) and 0 <= o < P):
                raise ValueError(f"owners: {o!r} is not a seat in 0..{P - 1} or None")
            s.f[0, F_BANK + i] = c
            s.f[0, F_OWNER + i] = -1 if o is None else o
        s.f[0, F_BANK_N] = len(bank_ids)
        s.f[0, F_BASE_PREV] = -1
        s.f[0, F_DEALER] = (current - 1) % P if dealer is None else dealer
        s.f[0, F_WINNER] = -1
        s.f[0, F_LAST_PLAYER] = -1
        s.f[0, F_NEXT_MOVER] = -1
        s.f[0, F_STARTER] = current
        for p, v in enumerate(totals or [0] * P):
            s.v[0, V_TOTAL + p] = v
        _trump_state(s, self.config, trumps, current)
        # out of cards already: finishing positions in seat order
        for p in range(P):
            if not hand_ids[p]:
                s.f[0, F_N_OUT] += 1
                s.f[0, F_OUT + p] = s.f[0, F_N_OUT]
        _begin_turn(s, 0, self.cfg, current)
        legal_row(s, 0, self.cfg, np.zeros(NUM_ACTIONS, np.int8))

    @staticmethod
    def _cards(text) -> list[int]:
        items = text.split() if isinstance(text, str) else list(text)
        return [DECK.check_card(c) for c in items]

    def field(self, name: str):
        """A state field of the position (see ``STATE_FIELDS``)."""
        return field(self.state, name)[0]

    def legal(self) -> set[str]:
        """Names of the legal actions of the seat to act."""
        out = np.zeros(NUM_ACTIONS, np.int8)
        legal_row(self.state, 0, self.cfg, out)
        return {ACTION_NAMES[i] for i in np.flatnonzero(out)}

    def act(self, *names: str) -> Table:
        """Apply actions by name, in order; ``ValueError`` on an illegal one."""
        from ...core.vector import _normalise

        table = {_normalise(n): i for i, n in enumerate(ACTION_NAMES)}
        for name in names:
            a = table.get(_normalise(name))
            if a is None or not apply_row(self.state, 0, self.cfg, a):
                raise ValueError(f"action {name!r} is not legal now; legal: {sorted(self.legal())}")
        return self

    @property
    def current(self) -> int:
        return int(self.field("current"))

    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.field("phase"))]

    def hand(self, seat: int) -> str:
        """The seat's hand as card strings, in card order."""
        m = int(self.field("hand")[seat])
        return format_cards(c for c in DECK.cards.tolist() if (m >> c) & 1)

    def bank(self) -> list[tuple[str, int | None]]:
        """The bank from the bottom: ``(card, owner)`` pairs."""
        n = int(self.field("bank_n"))
        return [
            (format_card(int(c)), None if o < 0 else int(o))
            for c, o in zip(self.field("bank")[:n], self.field("owner")[:n], strict=True)
        ]

    def taken(self, seat: int) -> str:
        m = int(self.field("taken")[seat])
        return format_cards(c for c in DECK.cards.tolist() if (m >> c) & 1)

    def stock(self) -> int:
        return NUM_CARDS - int(self.field("stock_pos"))

    def __repr__(self) -> str:
        return f"Table(phase={self.phase!r}, current={self.current}, bank={self.bank()})"
