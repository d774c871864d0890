"""Piquet: two-handed Rubicon Piquet (``piquet-v0``). Rules and spec: ``rules``."""

from __future__ import annotations

from ...core.aec import front_ends
from ...core.game import GameDef
from . import render as _render
from . import rules as R
from .rules import Config, declarations, partie_result


def num_seats(config) -> int:
    """Two seats whatever the config (module-level, so a ``GameDef`` pickles)."""
    return R.NUM_SEATS


GAME = GameDef.from_rules(R, render=_render.render, num_seats=num_seats)
PiquetVectorEnv, PiquetEnv, env = front_ends(GAME, "Piquet", __name__, "Two-handed Rubicon Piquet")
raw_env = env

__all__ = [
    "GAME",
    "Config",
    "PiquetEnv",
    "PiquetVectorEnv",
    "declarations",
    "env",
    "partie_result",
    "raw_env",
]
