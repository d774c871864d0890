"""Piquet: two-handed Rubicon Piquet (``piquet-v0``).

Rules: ``docs/games/piquet.md`` (sections 2, 4 and 6; the choices the engine makes where the
spec is open are listed in ``rules``). The engine's modules: ``constants``, ``config``,
``layout``, ``rules`` (with ``cards``, ``score``, ``declare``, ``exchange`` and ``auction``),
``observe``, ``kernels``, ``determinization``, ``record``, ``rulings``, ``text`` and ``scene``;
``piquet_au_cent-v0`` and ``auction_piquet-v0`` run on the same kernels, and ``multi`` is the
three- and four-handed engine.

Episodes and rewards
--------------------
{reward_table}

Rewards are zero-sum and paid on the step that ends the episode.

Actions ({num_actions})
------------
{action_table}

Card index = suit * 8 + (rank − 7), suits S, H, D, C, ranks 7 8 9 10 J Q K A.

``options={"deck": [...]}`` lists the 32 cards: elder's 12, younger's 12, then the talon from the
top (elder draws from the top first, younger then from the top of what is left).

Observation
-----------
A flat ``float32`` vector, egocentric ("own" = the observing seat). Card planes use the card
index above. The table is generated from ``OBS_LAYOUT``:

{obs_table}

Config
------
{config_table}

Version history
---------------
- v0: first release (two-handed Rubicon Piquet, auto-declared combinations).
- v0 (issue 6, same id, default play unchanged): actions 69-72 (``declare``, ``sink``,
  ``answer``, ``concede``) appended, masked off unless ``allow_sinking=True``; phase ``declare``
  and the ``decl_calls`` block appended to the observation (its dimension grew; the earlier
  blocks keep their meaning); ``allow_sinking`` appears in a record only when True, so earlier
  records replay and compare unchanged. Au cent (``piquet_au_cent-v0``) shares these kernels.
- v0 (issue 6, same id, default play unchanged): actions 73-87 (``pass``, ``bid 7+`` ..
  ``bid 12-``, ``double``, ``redouble``) appended for ``auction_piquet-v0``, always masked off
  here; phase ``bid`` and the auction blocks (``contract`` .. ``redeals``, always zero here)
  appended to the observation.
- v0 (same id, default play unchanged): kernel options ``declarer_becomes_elder``
  (``auction_piquet-v0``) and ``au_cent_partie`` (``piquet_au_cent-v0``) appended, not offered
  here; state fields ``swapped``, ``games_won``, ``games``, ``game_start`` appended. The
  observation is unchanged (its size too); au cent's partie standing reuses ``contract_by``.
- v0 (same id, play, observations and records unchanged): state field ``legal`` (the legal set
  of the seat to act, written with each mask and read to check the next action) added.
- v0 (same id, play, observations and records unchanged): state field ``last_trick`` (the
  deal's last finished trick, public, for the scene: ``core.scene``) added.
- v0 (same id, a rules fix): a partie level after the regular deals plays both extra deals
  (2.10, A9; it ended after the first when that broke the tie), here and in
  ``auction_piquet-v0``. Kernel option ``legacy_tie_break`` appended and offered by both ids for
  old records only: it is in every new record (False), and a record without it replays with the
  old end (``Config.RECORD_DEFAULTS``). Observations unchanged.
"""

from __future__ import annotations

from ...core.aec import front_ends
from ...core.game import GameDef, layout_table, reward_table
from . import config, constants, determinization, kernels, layout, record, text
from . import scene as _scene
from .config import Config
from .rulings import declarations, partie_result


def spec_doc(doc: str, config_cls) -> str:
    """Fill a two-handed id's docstring (this package's, Piquet au cent's, Auction Piquet's): its
    config table, the shared action and observation tables."""
    return (
        doc.replace("{obs_table}", layout_table(layout.OBS_LAYOUT))
        .replace("{config_table}", config_cls.describe())
        .replace("{action_table}", constants.ACTION_TABLE)
        .replace("{num_actions}", str(constants.NUM_ACTIONS))
    )


#: the reward table (``core.game.reward_table``): (episode, reward, what each seat gets)
REWARDS = (
    ("game", "win", "+1 partie won, −1 lost, 0 drawn"),
    ("game", "score", "± the Rubicon result (winner +points, loser −points)"),
    ("deal", "win", "+1 / −1 / 0 by the deal's points"),
    ("deal", "score", "own deal points − opponent's deal points"),
)
__doc__ = spec_doc(__doc__, Config).replace("{reward_table}", reward_table(REWARDS))


def num_seats(config) -> int:
    """Two seats whatever the config (module-level, so a ``GameDef`` pickles)."""
    return constants.NUM_SEATS


GAME = GameDef.from_rules(
    constants,
    config,
    layout,
    kernels,
    record,
    determinization,
    render=text.render,
    scene=_scene.scene,
    num_seats=num_seats,
    module=__name__,
    compile_seconds=30,
    trick_rule=_scene.trick_rule,
)
#: the front ends (``core.aec.front_ends``), which ``cardenvs.registry.classes`` hands out
FRONT_ENDS = front_ends(GAME, "Piquet", __name__, "Two-handed Rubicon Piquet")
PiquetVectorEnv, PiquetEnv, env = FRONT_ENDS
raw_env = env

__all__ = [
    "FRONT_ENDS",
    "GAME",
    "REWARDS",
    "Config",
    "PiquetEnv",
    "PiquetVectorEnv",
    "declarations",
    "env",
    "partie_result",
    "raw_env",
    "spec_doc",
]
