"""Piquet normand (``piquet_normand-v0``): three-handed Piquet. Rules and spec:
``games.piquet.multi`` (the engine shared with partnership Piquet, built on two-handed Piquet's
primitives)."""

from __future__ import annotations

from ...core.aec import front_ends
from .multi import REWARDS, game_def
from .multi.config import NormandConfig as Config
from .multi.constants import NAME_NORMAND
from .multi.scene import scene as _scene
from .multi.text import render as _render

GAME = game_def(NAME_NORMAND, Config, 3, _render, _scene, __name__)


#: the front ends (``core.aec.front_ends``), which ``cardenvs.registry.classes`` hands out
FRONT_ENDS = front_ends(GAME, "PiquetNormand", __name__, "Piquet normand (3 players)")
PiquetNormandVectorEnv, PiquetNormandEnv, env = FRONT_ENDS
raw_env = env

__all__ = [
    "FRONT_ENDS",
    "GAME",
    "REWARDS",
    "Config",
    "PiquetNormandEnv",
    "PiquetNormandVectorEnv",
    "env",
    "raw_env",
]
