"""Auction Piquet (``auction_piquet-v0``): two-handed Piquet with a contract auction.

Rules: ``docs/games/piquet.md`` section 3.2 (the source's "Picket gegen den
Menschenhandel", a garbled machine translation; almost every rule is reconstructed and each
reconstruction is an option). The rules are those of ``piquet-v0``
(``cardenvs.games.piquet``, the same kernels; nothing is copied) except:

- **Bidding** (items 2-7), after the exchange and before the declarations by default
  (``bidding``): the first speaker (``first_bidder``, elder) ``pass``es or bids; then the players
  alternate. A bid ``bid N+`` undertakes to win at least N tricks, ``bid N-`` at most 12 − N,
  N = 7..12; each bid must outrank the last (by N, then minus above plus at an equal N,
  ``minus_outranks_plus_at_equal_level``). Facing a bid a player passes (the bid becomes the
  contract), bids higher or ``double``s; the doubled bidder ``pass``es (accepts) or
  ``redouble``s, which ends the auction. If both pass before any bid, the same dealer deals
  again (item 3): a **redeal**.
- **Tricks** (item 9): 1 point per trick won, whoever led; nothing for leading or capturing;
  the last trick scores nothing extra (``auction_last_trick_extra``); no 10 for the cards, no
  capot (item 10: replaced by the contract).
- **Contract** (items 10, 11): the declarer scores 10 per trick beyond a plus contract (below a
  minus contract's limit) plus ``auction_make_bonus`` (0); if it fails, the opponent scores 10 per
  missing (excess) trick. Doubled ×``double_factor`` (2), redoubled ×``redouble_factor`` (4), the
  whole contract score.
- **Pique and repique** (item 8): thresholds by the contract: pique at 29 in a plus contract and
  21 in a minus one, repique at 30 and 21 (``pique_plus`` ... ``repique_minus``); the bonuses stay
  30 and 60; pique is still elder's only.
- **Partie** (item 12): six deals (the tie-break and four-deal options of ``piquet-v0``), Rubicon
  and game bonus 150.
- Declarations and carte blanche as standard in plus and minus contracts (item 13;
  ``minus_combinations="none"``: nothing is declared in a minus contract).
- **Roles** (3.2, "whether elder/younger roles change according to the declarer", default no):
  elder and younger keep their roles whoever declares; with ``declarer_becomes_elder=True`` a
  declarer who was dealt younger takes elder's role for the rest of the deal once the contract
  stands (see below).

"Die Spieler können nicht klappen" (item 1) is read, by default, as **no sinking**
(``auction_sentence_reading="no_sinking"``: ``allow_sinking=True`` is rejected). The other
readings: ``"no_carte_blanche"`` (no carte blanche exists), ``"no_opening_pass"`` (the first
speaker must bid, so there is never a redeal), ``"no_exchange"`` (no discarding: the talon stays
face down and nobody sees it); under them ``allow_sinking`` may be set.

Choices where the spec is silent
--------------------------------
- A redeal keeps the dealer (the seed: "the dealer reshuffles and deals again"), is a deal of
  the episode (``deal_no`` counts it; the record gets an entry with 0 points and
  ``"contract": None``) but not of the partie (the ``deal_no`` observation block and the result's
  ``deals`` count partie deals; the result adds ``redeals``). Its cards come from the row's
  random stream (``options={"deck": ...}`` fixes only the first deal).
- Bounded episodes: after ``max_redeals`` (10) redeals in a partie, the second speaker may not
  pass after the first speaker's pass (a forced bid).
- A double is possible only of the opponent's standing bid and ends the bidding, but for the
  bidder's redouble (bridge-like overcalls of a doubled bid are not modelled).
- Elder and younger keep their roles whoever declares by default (the spec's default): elder
  calls first and leads.
- ``declarer_becomes_elder=True``: the roles change when the auction ends (the final ``pass``
  or the ``redouble``), and only if the declarer was dealt younger (the dealer). From then on
  everything the rules give elder or younger follows the new roles: carte blanche is reckoned
  declarer first; the declarer calls first (with sinking: declares or sinks first, the other
  answers); he leads the first trick; pique (elder's only) is his, at the contract's threshold;
  the ``is_elder`` observation says so. With ``bidding="before_exchange"`` the exchange is still
  to come, so it follows the new roles too: the declarer exchanges first (up to five, and sees
  the untaken cards of his five), the other second (``younger_min_exchange``, the ``look``
  decision); ``first_exchanger="dealer"`` then means the player in younger's role, the dealer's
  usual role. What does not change: who dealt (the deal still alternates; the record's
  ``dealer``), the deal itself (``options={"deck": ...}`` still lists the non-dealer's twelve
  first), the bidding order, carte blanche claims (made before the bidding) and, with the default
  bidding after the exchange, the exchange already made. A redeal has no declarer: nothing
  changes.
- A minus contract counts the declarer's tricks: made when he wins at most 12 − N.
- The make bonus and the margin are both multiplied by a double or redouble.
- The multipliers are bounded (the spec: "the price of double and redouble may vary"; its ×2
  and ×4 are the defaults): ``double_factor`` and ``redouble_factor`` 1..16 (the redouble
  factor was 1..64), ``auction_make_bonus`` 0..100, so that no legal config can overflow the
  scores, which the batched state keeps in int16 (at most 32,767). A deal then adds at most
  (5 × 10 + 100) × 16 = 2,400 for the contract and 169 else to one seat (2,569), a partie of
  at most 8 deal-equivalents totals at most 20,552 per seat and its Rubicon result at most
  21,632 (at ×64 a total could reach 78,152, and redoubled games wrapped to negative totals).
  Bounding keeps the state (and the engine's speed) as it is; the spec's values stay reachable.
- Rewards: as ``piquet-v0`` (``"score"``: ± the Rubicon result with 150).

Episodes and rewards
--------------------
{reward_table}

Actions ({num_actions}), shared with every two-handed Piquet id
------------------------------------------------------------
{action_table}

``options={"deck": [...]}`` lists the 32 cards of the first deal: elder's 12, younger's 12, then
the talon from the top; ``options={"dealer": seat}`` fixes the first dealer.

Observation (the ``piquet-v0`` layout; the auction blocks are at its end)
-------------------------------------------------------------------------
{obs_table}

Config
------
{config_table}

Version history
---------------
- v0: first release.
- v0 (same id, default play unchanged): ``declarer_becomes_elder`` added (default False, the
  spec's default); it appears in a record only when True, so earlier records replay unchanged.
- v0 (same id, default play unchanged): ``redouble_factor`` at most 16 (was 64): larger factors
  could overflow the int16 scores (see "Choices"); configs of 17..64 are refused.
"""

from __future__ import annotations

import dataclasses

from ...core.aec import front_ends
from ...core.game import reward_table
from ..piquet import GAME as _PIQUET
from ..piquet import spec_doc
from ..piquet.config import AuctionConfig
from ..piquet.record import auction_deal_extras

#: the reward table (``core.game.reward_table``): (episode, reward, what each seat gets)
REWARDS = (
    ("game", "win", "+1 partie won, −1 lost, 0 drawn"),
    ("game", "score", "± the Rubicon result, Rubicon 150 (winner +points, loser −points)"),
    ("deal", "win", "+1 / −1 / 0 by the deal's points"),
    ("deal", "score", "own deal points − opponent's deal points"),
)
__doc__ = spec_doc(__doc__, AuctionConfig).replace("{reward_table}", reward_table(REWARDS))

Config = AuctionConfig
GAME = dataclasses.replace(
    _PIQUET,
    name="auction_piquet",
    version=0,
    config_cls=Config,
    deal_extras=auction_deal_extras,
    module=__name__,
)


#: the front ends (``core.aec.front_ends``), which ``cardenvs.registry.classes`` hands out
FRONT_ENDS = front_ends(GAME, "AuctionPiquet", __name__, "Auction Piquet")
AuctionPiquetVectorEnv, AuctionPiquetEnv, env = FRONT_ENDS
raw_env = env

__all__ = [
    "FRONT_ENDS",
    "GAME",
    "REWARDS",
    "AuctionPiquetEnv",
    "AuctionPiquetVectorEnv",
    "Config",
    "env",
    "raw_env",
]
