"""The batched Piquet engine: ``CardVectorEnv`` bound to the Piquet kernels."""

from __future__ import annotations

from ...core.game import GameDef
from ...core.vector import CardVectorEnv
from . import render as _render
from . import rules as R

GAME = GameDef.from_rules(R, _render.render, num_seats=lambda config: R.NUM_SEATS)


class PiquetVectorEnv(CardVectorEnv):
    """N games of Piquet stepped at once (see ``cardenvs.core.vector`` for the contract)."""

    game = GAME
