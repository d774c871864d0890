"""Piquet for three and four: Piquet normand and partnership Piquet, one multi-seat engine.

Two registered ids share this engine (``game_def`` builds each one's ``GameDef``):

- ``piquet_normand-v0`` (3 players, spec 3.4, seed "Picket Norman");
- ``partnership_piquet-v0`` (4 players, 2 v 2, spec 3.3, seed "Picket Diebe" = Piquet voleur).

Rules: ``docs/games/piquet.md`` sections 2 (the base game), 3.3, 3.4, 4 (A21-A23) and 6; the
choices the engine makes where the spec is open are listed in ``rules``. The modules:
``constants``, ``config``, ``layout``, ``rules``, ``observe``, ``kernels``,
``determinization``, ``record``, ``rulings``, ``text`` and ``scene``, built on two-handed
Piquet's primitives (``games.piquet.cards``, ``games.piquet.declare``).

Episodes and rewards
--------------------
Every game ends with winners and losers: the losers pay each winner (a draw: nobody pays).

{reward_table}

Winners and losers: normand game, the two who reached the target / the one who failed (normand
rewards +1, +1, −2); partnership game, the side with the higher total (+1, +1, −1, −1); a
deal, the highest deal points (partnership: side points) / the rest; all equal: a draw (0).

Rewards are zero-sum across seats, partners always get the same, and all are paid on the step
that ends the episode.

Actions (65)
------------
{action_table}

Card index = suit * 8 + (rank − 7), suits S, H, D, C, ranks 7 8 9 10 J Q K A.

``options={"deck": [...]}`` lists the 32 cards: the hands in seat order from the dealer's left
(normand: 10, 10, 10 with the dealer's last; partnership: 8 each, the dealer's last), then
the talon from the top (normand: 2 cards). ``options={"dealer": seat}`` fixes the first dealer
(else drawn from the seed).

Observation
-----------
A flat ``float32`` vector, egocentric: seat-indexed blocks are relative to the observer
(block ``k`` = the seat ``k`` places to his left; ``k = 0`` is himself). Partnership: the
partner is ``k = 2``. Per-side numbers are written for every seat of the side. Tables:

Piquet normand (3 seats):

{obs_table_3}

Partnership Piquet (4 seats):

{obs_table_4}

Config
------
``piquet_normand-v0``:

{config_normand}

``partnership_piquet-v0``:

{config_partnership}

Version history
---------------
- v0: first release of both ids. Later, same version (rules, observations and records
  unchanged): the ``void`` state field and the determinization for search; then the ``legal``
  state field (the legal set of the seat to act, written with each mask and read to check the
  next action); then the ``last_table`` and ``last_trick`` state fields (the deal's last
  finished trick, public, for the scene: ``core.scene``).
"""

from __future__ import annotations

from ....core.game import GameDef, action_table, layout_table, reward_table
from ..constants import DECK
from ..scene import trick_rule
from .config import NormandConfig, PartnershipConfig
from .constants import ACTION_DOCS, ACTION_NAMES, NUM_ACTIONS, VERSION
from .determinization import determinize
from .kernels import legal_row, observe_rows, reset_rows, step_for, step_rows
from .layout import LAYOUT, OBS_LAYOUTS
from .record import deal_extras, deck_strings, result

#: the reward table of both ids (``core.game.reward_table``): (episode, reward, what each seat
#: gets)
REWARDS = (
    ("game", "win", "winners +1 each; the losers share the payment"),
    ("game", "score", "winners + (own total − the losers' mean total); losers share it"),
    ("deal", "win", 'as `"win"`, by the deal\'s points'),
    ("deal", "score", 'as `"score"`, with the deal\'s points'),
)

__doc__ = (
    __doc__.replace("{obs_table_3}", layout_table(OBS_LAYOUTS[3]))
    .replace("{action_table}", action_table(ACTION_NAMES, ACTION_DOCS))
    .replace("{reward_table}", reward_table(REWARDS))
    .replace("{obs_table_4}", layout_table(OBS_LAYOUTS[4]))
    .replace("{config_normand}", NormandConfig.describe())
    .replace("{config_partnership}", PartnershipConfig.describe())
)


def _three_seats(config) -> int:
    """``GameDef.num_seats`` of Piquet normand (module-level, so a ``GameDef`` pickles)."""
    return 3


def _four_seats(config) -> int:
    """``GameDef.num_seats`` of partnership Piquet."""
    return 4


def _partners_opposite(config) -> tuple:
    """``GameDef.sides`` of partnership Piquet: partners sit opposite (spec 3.3)."""
    return ((0, 2), (1, 3))


def game_def(name: str, config_cls, num_seats: int, render, scene, module: str) -> GameDef:
    """The ``GameDef`` of one of the two ids (the kernels are shared; the config class, the
    seat count and the observation layout differ); ``render`` and ``scene`` are the package's
    (``text.py``, ``scene.py``), ``module`` the id's module (``__name__``)."""
    return GameDef(
        name=name,
        version=VERSION,
        deck=DECK,
        config_cls=config_cls,
        num_actions=NUM_ACTIONS,
        action_names=ACTION_NAMES,
        obs_layout=OBS_LAYOUTS[num_seats],
        num_seats=_four_seats if num_seats == 4 else _three_seats,
        layout=LAYOUT,
        reset_rows=reset_rows,
        step_rows=step_rows,
        step_for=step_for,
        observe_rows=observe_rows,
        result=result,
        render=render,
        scene=scene,
        deck_strings=deck_strings,
        legal_row=legal_row,
        deal_extras=deal_extras,
        determinize=determinize,
        # partnership: partners sit opposite (spec 3.3); normand: every player for himself
        sides=_partners_opposite if num_seats == 4 else None,
        module=module,
        family="piquet",
        compile_seconds=25,
        trick_rule=trick_rule,  # two-handed Piquet's: the highest card of the suit led
    )
