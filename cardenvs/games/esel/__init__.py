"""Esel (Donkey, ``esel-v0``): trick-taking with personal trumps, eights and banks."""

from __future__ import annotations

from ...core.aec import front_ends
from ...core.game import GameDef, HandLimit
from . import config, constants, determinization, kernels, layout, record, text
from . import scene as _scene
from .config import Config
from .rulings import trick_winner

#: the reward table (``core.game.reward_table``, ``python -m cardenvs.docs``): (episode, reward,
#: what each seat gets), paid on the step that ends the episode; zero-sum
REWARDS = (
    ("game", "win", "+1 for the winner, −1/(P−1) for every other player, 0 for all in a draw"),
    ("game", "score", "the mean bank count of all players minus his own"),
    ("deal", "win", "the mean bank change of the hand minus his own"),
    ("deal", "score", "his points in the hand minus the mean points"),
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
    hand_limit=HandLimit("max_hands", "hands"),
    trick_rule=_scene.trick_rule,
)
#: the front ends (``core.aec.front_ends``), which ``cardenvs.registry.classes`` hands out
FRONT_ENDS = front_ends(GAME, "Esel", __name__, "Esel (2–4 players)")
EselVectorEnv, EselEnv, env = FRONT_ENDS
raw_env = env

__all__ = [
    "FRONT_ENDS",
    "GAME",
    "REWARDS",
    "Config",
    "EselEnv",
    "EselVectorEnv",
    "env",
    "raw_env",
    "trick_winner",
]
