"""Banque's rule options: ``Config`` (``docs/games/banque.md`` section 8; the open choices of
section 6 name their fields), the option index constants ``C_...`` and the choice codes the
kernels compare with.

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

Config
------
{config_table}
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...core.cards import SUITS
from ...core.checks import brief
from ...core.game import GameConfig, option
from .constants import NUM_CARDS

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
CONFIG_SIZE = len(dataclasses.fields(Config))  # entries of the config vector
C_EPISODE = _ci("episode")
C_REWARD = _ci("reward")
C_NUM_PLAYERS = _ci("num_players")
C_TARGET_SCORE = _ci("target_score")
C_WIN_TIE_BREAK = _ci("win_tie_break")
C_NEXT_DEALER = _ci("next_dealer")
C_TRUMP_OPTION = _ci("trump_option")
C_TRUMP_ASSIGNMENT = _ci("trump_assignment")
C_COMMON_TRUMPS = _ci("common_trumps")
C_COMMON_TRUMPS_BEAT_EACH_OTHER = _ci("common_trumps_beat_each_other")
C_TRUMP_KING = _ci("trump_king")
C_HAND_SIZE = _ci("hand_size")
C_CENTRE_CARD = _ci("centre_card")
C_BEAT_STEP = _ci("beat_step")
C_SAME_RANK_ALWAYS_BEATS = _ci("same_rank_always_beats")
C_FORCED_PLAY = _ci("forced_play")
C_VOLUNTARY_DRAW = _ci("voluntary_draw")
C_DRAWS_PER_FAILURE = _ci("draws_per_failure")
C_AFTER_DRAW_PLAY = _ci("after_draw_play")
C_SPECIALS_OUT_OF_TURN = _ci("specials_out_of_turn")
C_EIGHTS_WILD = _ci("eights_wild")
C_EIGHT_FOLLOWUP = _ci("eight_followup")
C_FOUR_OF_A_KIND = _ci("four_of_a_kind")
C_QUAD_FOLLOWUP = _ci("quad_followup")
C_SEQUENCE_OF_FOUR = _ci("sequence_of_four")
C_SEQUENCE_ORDER = _ci("sequence_order")
C_SEQUENCE_FOLLOWUP = _ci("sequence_followup")
C_FOUR_KINGS_TAKE_BANK = _ci("four_kings_take_bank")
C_FOUR_KINGS_FOLLOW_UP = _ci("four_kings_follow_up")
C_SEVEN_EFFECT = _ci("seven_effect")
C_BANK_TAKE = _ci("bank_take")
C_UNOWNED_TOP_FAILURE = _ci("unowned_top_failure")
C_FINAL_BANK = _ci("final_bank")
C_FINISH_BONUS = _ci("finish_bonus")
C_FINISH_KING_EXTRA = _ci("finish_king_extra")
C_FINISH_SEQUENCE_EXTRA = _ci("finish_sequence_extra")
C_FINISH_QUAD_NON_KING = _ci("finish_quad_non_king")
C_FINISH_TRUMP_KING_TAKES_BANK = _ci("finish_trump_king_takes_bank")
C_BONUSES_STACK = _ci("bonuses_stack")
C_HAND_PENALTY = _ci("hand_penalty")
C_PENALTY_MODE = _ci("penalty_mode")
C_PENALTY_FIXED = _ci("penalty_fixed")
C_PENALTY_PER_CARD = _ci("penalty_per_card")
C_ALLOW_NEGATIVE_TOTALS = _ci("allow_negative_totals")
C_MAX_HANDS = _ci("max_hands")
SEVEN_CONTROL, SEVEN_DRAW_MOVE, SEVEN_DRAW_SKIP, SEVEN_NONE = range(4)
FOLLOW_NONE, FOLLOW_OPTIONAL, FOLLOW_MANDATORY = range(3)
PEN_POINTS, PEN_FIXED, PEN_PER_CARD, PEN_POINTS_PLUS, PEN_POINTS_ELSE = range(5)

__doc__ = __doc__.replace("{config_table}", Config.describe())


# --- named choice codes: the int the kernels see for a choice (``GameConfig.code``) -------
AFTER_DRAW_PLAY_DRAWN_CARD_ONLY = Config.code("after_draw_play", "drawn_card_only")
FOUR_KINGS_TAKE_BANK_ALWAYS = Config.code("four_kings_take_bank", "always")
TRUMP_ASSIGNMENT_CHOOSE_IN_TURN = Config.code("trump_assignment", "choose_in_turn")
TRUMP_ASSIGNMENT_RANDOM = Config.code("trump_assignment", "random")
