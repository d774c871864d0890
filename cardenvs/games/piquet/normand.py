"""Piquet normand (``piquet_normand-v0``): three-handed Piquet. Rules and spec:
``games.piquet.multi`` (the engine shared with partnership Piquet, built on ``rules``)."""

from __future__ import annotations

from ...core.aec import front_ends
from . import multi as M
from .multi import NormandConfig as Config
from .multi_render import render as _render

GAME = M.game_def(M.NAME_NORMAND, Config, 3, _render)


PiquetNormandVectorEnv, PiquetNormandEnv, env = front_ends(
    GAME, "PiquetNormand", __name__, "Piquet normand (3 players)"
)
raw_env = env

__all__ = ["GAME", "Config", "PiquetNormandEnv", "PiquetNormandVectorEnv", "env", "raw_env"]
