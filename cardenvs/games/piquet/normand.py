"""Piquet normand (``piquet_normand-v0``): three-handed Piquet. Rules and spec:
``games.piquet.multi`` (the engine shared with partnership Piquet, built on ``rules``)."""

from __future__ import annotations

from ...core.aec import CardAECEnv
from ...core.vector import CardVectorEnv
from . import multi as M
from .multi import NormandConfig as Config
from .multi_render import render as _render

GAME = M.game_def(M.NAME_NORMAND, Config, 3, _render)
VECTOR_CLASS = "PiquetNormandVectorEnv"


class PiquetNormandVectorEnv(CardVectorEnv):
    """N games of Piquet normand stepped at once (see ``cardenvs.core.vector``)."""

    game = GAME


class PiquetNormandEnv(CardAECEnv):
    """Piquet normand (3 players) as a PettingZoo AEC env (rules: ``games.piquet.multi``)."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "piquet_normand_v0",
        "is_parallelizable": False,
    }
    vector_cls = PiquetNormandVectorEnv


def env(**kwargs) -> PiquetNormandEnv:
    """PettingZoo-style constructor (the env enforces call order itself; not wrapped)."""
    return PiquetNormandEnv(**kwargs)


raw_env = env

__all__ = ["GAME", "Config", "PiquetNormandEnv", "PiquetNormandVectorEnv", "env", "raw_env"]
