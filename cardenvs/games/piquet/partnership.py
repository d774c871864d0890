"""Partnership Piquet (``partnership_piquet-v0``): four-handed Piquet, 2 v 2. Rules and spec:
``games.piquet.multi`` (the engine shared with Piquet normand, built on two-handed Piquet's
primitives)."""

from __future__ import annotations

from ...core.aec import front_ends
from .multi import REWARDS, game_def
from .multi.config import PartnershipConfig as Config
from .multi.constants import NAME_PARTNERSHIP
from .multi.scene import scene as _scene
from .multi.text import render as _render

GAME = game_def(NAME_PARTNERSHIP, Config, 4, _render, _scene, __name__)


#: the front ends (``core.aec.front_ends``), which ``cardenvs.registry.classes`` hands out
FRONT_ENDS = front_ends(
    GAME, "PartnershipPiquet", __name__, "Partnership Piquet (4 players, 2 v 2)"
)
PartnershipPiquetVectorEnv, PartnershipPiquetEnv, env = FRONT_ENDS
raw_env = env

__all__ = [
    "FRONT_ENDS",
    "GAME",
    "REWARDS",
    "Config",
    "PartnershipPiquetEnv",
    "PartnershipPiquetVectorEnv",
    "env",
    "raw_env",
]
