"""The batched Four Aces engine: ``CardVectorEnv`` bound to the Four Aces kernels."""

from __future__ import annotations

from ...core.game import GameDef
from ...core.vector import CardVectorEnv
from . import render as _render
from . import rules as R

GAME = GameDef(
    name=R.NAME,
    version=R.VERSION,
    deck=R.DECK,
    config_cls=R.Config,
    num_actions=R.NUM_ACTIONS,
    action_names=R.ACTION_NAMES,
    obs_layout=R.OBS_LAYOUT,
    num_seats=lambda config: config.num_players,
    layout=R.LAYOUT,
    reset_rows=R.reset_rows,
    step_rows=R.step_rows,
    observe_rows=R.observe_rows,
    result=R.result,
    render=_render.render,
    deck_strings=R.deck_strings,
)


class FourAcesVectorEnv(CardVectorEnv):
    """N games of Four Aces stepped at once (see ``cardenvs.core.vector`` for the contract)."""

    game = GAME
