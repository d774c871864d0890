"""Partnership Piquet (``partnership_piquet-v0``): four-handed Piquet, 2 v 2. Rules and spec:
``games.piquet.multi`` (the engine shared with Piquet normand, built on ``rules``)."""

from __future__ import annotations

from ...core.aec import front_ends
from . import multi as M
from .multi import PartnershipConfig as Config
from .multi_render import render as _render

GAME = M.game_def(M.NAME_PARTNERSHIP, Config, 4, _render)


PartnershipPiquetVectorEnv, PartnershipPiquetEnv, env = front_ends(
    GAME, "PartnershipPiquet", __name__, "Partnership Piquet (4 players, 2 v 2)"
)
raw_env = env

__all__ = ["GAME", "Config", "PartnershipPiquetEnv", "PartnershipPiquetVectorEnv", "env", "raw_env"]
