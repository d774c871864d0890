"""Banque (``banque-v0``): the shedding game to 248 with a shared bank, 2–4 players."""

from __future__ import annotations

from ...core.aec import front_ends
from ...core.game import GameDef, HandLimit
from . import config, constants, determinization, kernels, layout, record, text
from . import scene as _scene
from .config import Config
from .rulings import Table, beats

#: the reward table (``core.game.reward_table``, ``python -m cardenvs.docs``): (episode, reward,
#: what each seat gets), paid on the step that ends the episode; zero-sum
REWARDS = (
    ("game", "win", "winners share +1, the others share −1 (all players winners: 0)"),
    ("game", "score", "own total minus the mean total"),
    ("deal", "win", "the hand's best scorers share +1, the others share −1"),
    ("deal", "score", "own hand score minus the mean hand score"),
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
    compile_seconds=30,
    hand_limit=HandLimit("max_hands", "hands"),
)
#: the front ends (``core.aec.front_ends``), which ``cardenvs.registry.classes`` hands out
FRONT_ENDS = front_ends(GAME, "Banque", __name__, "Banque (2–4 players)")
BanqueVectorEnv, BanqueEnv, env = FRONT_ENDS
raw_env = env

__all__ = [
    "FRONT_ENDS",
    "GAME",
    "REWARDS",
    "BanqueEnv",
    "BanqueVectorEnv",
    "Config",
    "Table",
    "beats",
    "env",
    "raw_env",
]
