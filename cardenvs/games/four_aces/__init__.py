"""Four Aces (``four_aces-v0``): draw, discard, jokers and hand combinations, 3–5 players."""

from __future__ import annotations

from ...core.aec import front_ends
from ...core.game import GameDef, HandLimit
from . import config, constants, determinization, kernels, layout, record, text
from . import scene as _scene
from .config import Config
from .rulings import score_breakdown, score_cards

#: the reward table (``core.game.reward_table``, ``python -m cardenvs.docs``): (episode, reward,
#: what each seat gets), paid on the step that ends the episode; zero-sum
REWARDS = (
    ("game", "win", "winners share +1, the others share −1 (all level: 0)"),
    (
        "game",
        "score",
        "own total minus the mean total (a four-aces win: +`target`, the others share −`target`)",
    ),
    ("deal", "win", "the round's best scorers share +1, the others share −1"),
    ("deal", "score", "own round score minus the mean round score"),
)


def num_seats(config) -> int:
    """The number of seats of a game with ``config`` (module-level, so a ``GameDef`` pickles)."""
    return config.num_players


GAME = GameDef.from_rules(
    constants,
    config,
    layout,
    kernels,
    record,
    determinization,
    render=text.render,
    scene=_scene.scene,
    num_seats=num_seats,
    module=__name__,
    compile_seconds=15,
    hand_limit=HandLimit("max_rounds", "rounds"),
)
#: the front ends (``core.aec.front_ends``), which ``cardenvs.registry.classes`` hands out
FRONT_ENDS = front_ends(GAME, "FourAces", __name__, "Four Aces (3–5 players)")
FourAcesVectorEnv, FourAcesEnv, env = FRONT_ENDS
raw_env = env

__all__ = [
    "FRONT_ENDS",
    "GAME",
    "REWARDS",
    "Config",
    "FourAcesEnv",
    "FourAcesVectorEnv",
    "env",
    "raw_env",
    "score_breakdown",
    "score_cards",
]
