"""The batched Piquet engine: ``CardVectorEnv`` bound to the Piquet kernels."""

from __future__ import annotations

from ...core.game import GameDef
from ...core.vector import CardVectorEnv
from . import render as _render
from . import rules as R


def num_seats(config) -> int:
    """Two seats whatever the config (module-level, so a ``GameDef`` pickles)."""
    return R.NUM_SEATS


GAME = GameDef.from_rules(R, _render.render, num_seats=num_seats)


class PiquetVectorEnv(CardVectorEnv):
    """N games of Piquet stepped at once (see ``cardenvs.core.vector`` for the contract)."""

    game = GAME
