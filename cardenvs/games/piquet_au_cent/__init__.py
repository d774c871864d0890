"""Piquet au cent (``piquet_au_cent-v0``): two-handed Piquet played to 100.

Rules: ``docs/games/piquet.md`` section 3.1 (the source's "Picket für Penny", CAV's
"Laws of Piquet au cent"). The rules are those of ``piquet-v0`` (``cardenvs.games.piquet``, the
same kernels; nothing is copied), with these differences:

- **No fixed number of deals** (3.1): the deal alternates until a score reaches ``target``
  (100). With ``au_cent_end="immediate"`` (default, A13) the score is checked after every
  scoring event in the reckoning order of 2.6 (carte blanche, point, sequences, sets, each lead
  and capture as it happens, the last trick, the cards or capot): the first to reach the target
  wins at once and the rest of the deal is not played. With ``"end_of_deal"`` the deal is
  finished and the higher total wins.
- **Result** (3.1, seed): the winner scores the difference of the totals, doubled when the
  loser has less than ``double_below`` (50).
- **Younger need not discard** (CAV au cent): ``younger_min_exchange`` defaults to 0 (he may
  ``stop`` at once).
- **Elder calls in full** (CAV au cent: "elder must call the value of his point", "must state
  the top card of a sequence"): ``elder_calls_in_full=True`` (default) makes his point's value
  and his best sequence's top card public whatever younger holds (the ``elder_calls`` block);
  in ``piquet-v0`` they are public only when younger's equal count or length asks for them.
- CAV's "by agreement" rules are options: ``point_ending_in_4_minus_one`` and
  ``low_cards_score_in_play=False``.
- Sinking (``allow_sinking=True``, off by default) works as in ``piquet-v0`` (see
  ``docs/games/piquet.md`` 2.5); a declaration that reaches the target ends the game at once.

Choices where the spec is silent
--------------------------------
- A tie at the end of a deal in which the target was reached (possible only with
  ``"end_of_deal"``) is played on: another deal, until the totals differ.
- Episode bound: the game also ends after ``max_deals`` deals (20 by default; random play
  needs about 3-5): the higher total wins by the au cent result, equal totals are a draw. The
  observation's ``deal_no`` block shows deals past the eighth in its last slot.
- CAV's partie of "three games out of five, a double counting as two" (3.1 b) is an option,
  ``au_cent_partie`` (default False: an episode is one game to the target). With it an episode
  (``episode="game"``) is a partie:

  - each game is played exactly as without the option (the target, ``au_cent_end``, ties,
    ``max_deals`` per game) and won by the au cent rules; it counts 2 game-wins to its winner
    if the loser has less than ``double_below`` (a double game, the same threshold that doubles
    the au cent result), else 1; a drawn game (only at the ``max_deals`` bound) counts nothing;
  - the next game starts at 0 - 0 with the next deal: the deal keeps alternating across games,
    and its cards come from the row's random stream;
  - the partie ends as soon as a player has 3 game-wins (from 2, a double takes him to 4), or
    after 5 games ("three games out of five"; reachable only through drawn games): more
    game-wins wins, equal is a draw;
  - ``max_deals`` is then at most 25 (5 games of at most 25 deals);
  - observation: ``total`` and ``deal_no`` are the current game's; the partie standing, games
    won by own / opponent (/ 3, capped at 3), is in the ``contract_by`` block, which au cent
    never uses otherwise (no contracts): the observation's size and offsets are unchanged;
  - record: the deals of all games in order, each deal's ``points`` what it added to its game's
    totals; the result's ``totals`` are the last game's and it adds ``games_won`` (per seat)
    and ``games`` (games played); ``points`` is the game-wins margin;
  - with ``episode="deal"`` the option is accepted and does nothing (one deal is never a
    partie), so one config can train on deals and be evaluated on parties.
- The deal's ``points`` in the record are what it added to the totals; when the game ends in
  the middle of a deal, what it had added by then.
- ``episode="deal"``: one deal, scored as in ``piquet-v0``; the target still ends it at once if a
  score reaches it within the deal.
- Rubicon, the partie options and ``rubicon`` of ``piquet-v0`` do not apply and are not offered.

Episodes and rewards
--------------------
{reward_table}

Actions ({num_actions}), shared with every two-handed Piquet id
------------------------------------------------------------
{action_table}

``options={"deck": [...]}`` lists the 32 cards of the first deal: elder's 12, younger's 12, then
the talon from the top; ``options={"dealer": seat}`` fixes the first dealer.

Observation (the ``piquet-v0`` layout)
--------------------------------------
{obs_table}

Config
------
{config_table}

Version history
---------------
- v0: first release.
- v0 (same id, default play unchanged): ``au_cent_partie`` added (default False); it appears
  in a record only when True, so earlier records replay unchanged. The observation is unchanged
  in size and layout (the partie standing uses the ``contract_by`` block, zero in au cent
  before).
"""

from __future__ import annotations

import dataclasses

from ...core.aec import front_ends
from ...core.game import HandLimit, reward_table
from ..piquet import GAME as _PIQUET
from ..piquet import spec_doc
from ..piquet.config import AuCentConfig

#: the reward table (``core.game.reward_table``): (episode, reward, what each seat gets)
REWARDS = (
    ("game", "win", "+1 game won, −1 lost, 0 drawn (`max_deals`)"),
    ("game", "score", "± the au cent result (difference, doubled under `double_below`)"),
    ("game, au_cent_partie", "win", "+1 partie won, −1 lost, 0 drawn"),
    ("game, au_cent_partie", "score", "± the game-wins margin (winner's − loser's)"),
    ("deal", "win", "+1 / −1 / 0 by the deal's points"),
    ("deal", "score", "own deal points − opponent's deal points"),
)
__doc__ = spec_doc(__doc__, AuCentConfig).replace("{reward_table}", reward_table(REWARDS))

Config = AuCentConfig
GAME = dataclasses.replace(
    _PIQUET,
    name="piquet_au_cent",
    version=0,
    config_cls=Config,
    module=__name__,
    # a partie's games each stop at max_deals: the limit ends a game, not the partie
    hand_limit=HandLimit("max_deals", "deals", unless="au_cent_partie"),
)


#: the front ends (``core.aec.front_ends``), which ``cardenvs.registry.classes`` hands out
FRONT_ENDS = front_ends(GAME, "PiquetAuCent", __name__, "Piquet au cent")
PiquetAuCentVectorEnv, PiquetAuCentEnv, env = FRONT_ENDS
raw_env = env

__all__ = [
    "FRONT_ENDS",
    "GAME",
    "REWARDS",
    "Config",
    "PiquetAuCentEnv",
    "PiquetAuCentVectorEnv",
    "env",
    "raw_env",
]
