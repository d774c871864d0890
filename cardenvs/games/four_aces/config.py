"""Four Aces' rule options: the ``Config`` dataclass and the index of each option in the config
vector the kernels read (``C_...``); the options are listed on ``docs/games/four_aces.md``
("Config options"; choices A1-A13, 5.5).

Config
------
{config_table}
"""

from __future__ import annotations

import dataclasses

from ...core.game import GameConfig, option


@dataclasses.dataclass(frozen=True)
class Config(GameConfig):
    """Four Aces rule options (spec sections 5.5, 6, 8). See the module docstring."""

    num_players: int = option(4, low=3, high=5, doc="players (2: 3–5)")
    allow_discard_draw: bool = option(
        True, doc="players may take the top discard (A1; False = the seed-literal game)"
    )
    joker_target_effect: str = option(
        "none",
        ("none", "skip"),
        doc="a joker played on the left neighbour: no effect, or skip (A3)",
    )
    score_mode: str = option(
        "pooled", ("pooled", "per_hand"), doc="score hidden+exposed together or each hand (5.5)"
    )
    run_mode: str = option(
        "additive", ("additive", "replace"), doc="runs add to the suit value or replace it (A12)"
    )
    # two readings, no third (see "Choices" in rules.py's docstring; the page's 5.5): 0 is refused
    pair_value: int = option(1, (1, -1), doc="a pair: +1 (seed) or -1 (S3, mandatory) (A13)")
    run2_value: int = option(1, (1, -1), doc="a 2-card run: +1 (seed) or -1 (S3) (A13)")
    target: int = option(20, low=1, high=200, doc="a total that ends the game (4.1)")
    max_rounds: int = option(
        100, low=1, high=120, doc="rounds after which the game is decided (A8)"
    )
    turn_cap_factor: int = option(5, low=1, high=20, doc="turn cap per round = factor x stock (A7)")
    ties: str = option(
        "co_winners", ("co_winners", "play_on"), doc="equal highest totals at the end (A9)"
    )

    def encode(self, name: str, value) -> int:
        if name in ("pair_value", "run2_value"):  # the value itself (the kernels add it)
            return int(value)
        return super().encode(name, value)


CONFIG_SIZE = len(dataclasses.fields(Config))  # entries of the config vector
C_EPISODE = Config.index("episode")
C_REWARD = Config.index("reward")
C_NUM_PLAYERS = Config.index("num_players")
C_ALLOW_DISCARD_DRAW = Config.index("allow_discard_draw")
C_JOKER_TARGET_EFFECT = Config.index("joker_target_effect")
C_SCORE_MODE = Config.index("score_mode")
C_RUN_MODE = Config.index("run_mode")
C_PAIR_VALUE = Config.index("pair_value")
C_RUN2_VALUE = Config.index("run2_value")
C_TARGET = Config.index("target")
C_MAX_ROUNDS = Config.index("max_rounds")
C_TURN_CAP_FACTOR = Config.index("turn_cap_factor")
C_TIES = Config.index("ties")

__doc__ = __doc__.replace("{config_table}", Config.describe())


# --- named choice codes: the int the kernels see for a choice (``GameConfig.code``) -------
TIES_CO_WINNERS = Config.code("ties", "co_winners")
