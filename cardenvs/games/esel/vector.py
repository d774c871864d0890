"""The batched Esel engine: ``CardVectorEnv`` bound to the Esel kernels."""

from __future__ import annotations

from ...core.game import GameDef
from ...core.vector import CardVectorEnv
from . import render as _render
from . import rules as R

GAME = GameDef.from_rules(R, _render.render, num_seats=lambda config: config.num_players)


class EselVectorEnv(CardVectorEnv):
    """N games of Esel stepped at once (see ``cardenvs.core.vector`` for the contract)."""

    game = GAME
