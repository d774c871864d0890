"""The batched Banque engine: ``CardVectorEnv`` bound to the Banque kernels."""

from __future__ import annotations

from ...core.game import GameDef
from ...core.vector import CardVectorEnv
from . import render as _render
from . import rules as R

GAME = GameDef.from_rules(R, _render.render, num_seats=lambda config: config.num_players)


class BanqueVectorEnv(CardVectorEnv):
    """N games of Banque stepped at once (see ``cardenvs.core.vector`` for the contract)."""

    game = GAME
