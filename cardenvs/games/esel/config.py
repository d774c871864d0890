"""Esel's rule options: the ``Config`` dataclass, its validator and the option indices (``C_*``)
that the kernels read from the config array.

Rules: ``docs/games/esel.md`` section 8 (every option with its default) and section 7 (the
choices A1-A16 that the options select between).

Config
------
{config_table}
"""

from __future__ import annotations

import dataclasses

from ...core.cards import SUITS
from ...core.game import GameConfig, option


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
    # --- options added later (left out of records while at their default) --------------------
    tie_break: str = option(
        "play_on",
        ("play_on", "hand_points"),
        doc="a tie at the end (5.3): play on until it is broken (A13), or the tied player "
        "with the most points in that hand wins, else the next hand's decide",
    )

    LATER = ("tie_break",)

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
C_NUM_PLAYERS = Config.index("num_players")
C_TRUMP_OPTION = Config.index("trump_option")
C_TRUMP_ASSIGNMENT = Config.index("trump_assignment")
C_COMMON_TRUMPS = Config.index("common_trumps")
C_MUST_BEAT = Config.index("must_beat")
C_RETROACTIVE_CHAIN = Config.index("retroactive_chain")
C_FIGHTBACK = Config.index("fightback")
C_AFTER_FIGHTBACK = Config.index("after_fightback")
C_TRUMP_MUST_EXCEED = Config.index("trump_must_exceed")
C_SAME_TRUMP_TAKEN_BY_KILL = Config.index("same_trump_taken_by_kill")
C_KILL_AFTER_TRUMP_BEATS = Config.index("kill_after_trump_beats")
C_MARRIAGE_BONUS = Config.index("marriage_bonus")
C_QUEEN_JACK_BONUS = Config.index("queen_jack_bonus")
C_FOUR_SUIT_BONUS = Config.index("four_suit_bonus")
C_FOUR_CARDS_READING = Config.index("four_cards_reading")
C_NEXT_DEALER = Config.index("next_dealer")
C_MAX_HANDS = Config.index("max_hands")
C_TIE_BREAK = Config.index("tie_break")

__doc__ = __doc__.replace("{config_table}", Config.describe())


# --- named choice codes: the int the kernels see for a choice (``GameConfig.code``) -------
FIGHTBACK_BEATS = Config.code("fightback", "beats")
FOUR_CARDS_READING_FOUR_OF_A_RANK = Config.code("four_cards_reading", "four_of_a_rank")
FOUR_CARDS_READING_ONE_SUIT_TRICK = Config.code("four_cards_reading", "one_suit_trick")
KILL_AFTER_TRUMP_BEATS_LAST_MAIN = Config.code("kill_after_trump_beats", "last_main")
NEXT_DEALER_FIRST_LEADER = Config.code("next_dealer", "first_leader")
NEXT_DEALER_LEFT = Config.code("next_dealer", "left")
TRUMP_ASSIGNMENT_CHOOSE = Config.code("trump_assignment", "choose")
TRUMP_ASSIGNMENT_RANDOM = Config.code("trump_assignment", "random")
TRUMP_MUST_EXCEED_ALL = Config.code("trump_must_exceed", "all")
TIE_BREAK_HAND_POINTS = Config.code("tie_break", "hand_points")
