"""The batched Four Aces engine: ``CardVectorEnv`` bound to the Four Aces kernels."""

from __future__ import annotations

from ...core.game import GameDef
from ...core.vector import CardVectorEnv
from . import render as _render
from . import rules as R

GAME = GameDef.from_rules(R, _render.render, num_seats=lambda config: config.num_players)


class FourAcesVectorEnv(CardVectorEnv):
    """N games of Four Aces stepped at once (see ``cardenvs.core.vector`` for the contract)."""

    game = GAME
