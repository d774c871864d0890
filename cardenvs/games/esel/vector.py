"""The batched Esel engine: ``CardVectorEnv`` bound to the Esel kernels."""

from __future__ import annotations

from ...core.game import GameDef
from ...core.vector import CardVectorEnv
from . import render as _render
from . import rules as R


def num_seats(config) -> int:
    """The number of seats of a game with ``config`` (module-level, so a ``GameDef`` pickles)."""
    return config.num_players


GAME = GameDef.from_rules(R, _render.render, num_seats=num_seats)


class EselVectorEnv(CardVectorEnv):
    """N games of Esel stepped at once (see ``cardenvs.core.vector`` for the contract)."""

    game = GAME
