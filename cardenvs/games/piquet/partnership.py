"""Partnership Piquet (``partnership_piquet-v0``): four-handed Piquet, 2 v 2. Rules and spec:
``games.piquet.multi`` (the engine shared with Piquet normand, built on ``rules``)."""

from __future__ import annotations

from ...core.aec import CardAECEnv
from ...core.vector import CardVectorEnv
from . import multi as M
from .multi import PartnershipConfig as Config
from .multi_render import render as _render

GAME = M.game_def(M.NAME_PARTNERSHIP, Config, 4, _render)
VECTOR_CLASS = "PartnershipPiquetVectorEnv"


class PartnershipPiquetVectorEnv(CardVectorEnv):
    """N games of partnership Piquet stepped at once (see ``cardenvs.core.vector``)."""

    game = GAME


class PartnershipPiquetEnv(CardAECEnv):
    """Partnership Piquet (4 players, 2 v 2) as a PettingZoo AEC env (``games.piquet.multi``)."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "partnership_piquet_v0",
        "is_parallelizable": False,
    }
    vector_cls = PartnershipPiquetVectorEnv


def env(**kwargs) -> PartnershipPiquetEnv:
    """PettingZoo-style constructor (the env enforces call order itself; not wrapped)."""
    return PartnershipPiquetEnv(**kwargs)


raw_env = env

__all__ = ["GAME", "Config", "PartnershipPiquetEnv", "PartnershipPiquetVectorEnv", "env", "raw_env"]
