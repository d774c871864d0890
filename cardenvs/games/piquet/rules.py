"""Piquet (two-handed Rubicon Piquet): the rules, as numba kernels over batched NumPy state.

Rules: ``docs/games/piquet.md``, the project's rules page (sections 2, 4 and 6; reconstructed
from a Russian → German machine translation of "Пикет" and the classic sources). Every rule
below cites the section ("2.5") or choice ("A3") of that page it comes from; "the spec" is that
page.

Rules summary (defaults)
------------------------
- 32 cards, A K Q J 10 9 8 7 per suit, no trumps (2.1). Elder = non-dealer, younger = dealer.
- Deal 12 each, 8-card talon (2.2). The first dealer is drawn from the seed (2.2, "for RL, pick
  at random"); ``options={"dealer": seat}`` fixes it. The deal alternates.
- Carte blanche (2.3): a dealt hand with no K, Q or J scores 10, auto-claimed; the holder's whole
  dealt hand becomes public once the opponent has finished his exchange.
- Exchange (2.4, 6.1): elder discards 1–5 cards, one ``discard <card>`` action per card in
  canonical order (each discard must be a higher card index than the previous one: suits S, H,
  D, C, ranks 7..A), then ``stop``; he draws as many from the top of the talon. Discarding the
  maximum ends the exchange without ``stop``. Elder then sees the untaken cards of his five.
  Younger discards 1..(cards left) the same way and draws from the top of what is left. If cards
  remain, younger chooses ``look`` or ``dont_look``: if he looks he sees them at once and they
  become public after elder's first lead; if not, nobody sees them. Exchange counts are public;
  each player sees his own discards only.
- Declarations (2.5), resolved automatically by default (no sinking, A3 v1; see "Sinking"):
  point (count, then total value; 1 per card), sequence (length, then top card; 3, 4, then
  n + 10; the winner scores all his sequences; an equal best cancels all), sets of A, K, Q, J,
  10 (quatorze 14 beats trio 3, then rank; the winner scores all his sets). The cards of scored
  or equal combinations become public, and so does what elder calls (his point count, his best
  sequence's length, his best set).
- Pique and repique (2.6) in the reckoning order carte blanche, point, sequences, sets, play:
  30 in hand alone before the opponent scores anything → +60 (repique, either player); elder
  reaching 30 in hand and play before younger scores anything → +30 (pique). Equalities do not
  save; capot and (by default) the cards bonus do not count toward pique.
- Play (2.7, 2.8): elder leads; follow suit if able; the higher card of the led suit wins; the
  winner leads. 1 for each card led, 1 for winning a trick the opponent led, +1 for the last
  trick, 10 for 7+ tricks, 40 instead for all 12 (capot); 6–6 scores nothing.
- Partie (2.10): six deals; tied totals → two more deals, then a draw. Rubicon: if the loser has
  at least 100, the winner scores (W − L) + 100, else (W + L) + 100.

Sinking (``allow_sinking=True``; spec 2.5 "Sinking", 6.1 v2, A3, A12)
----------------------------------------------------------------------
After the exchange (and the look decision) a ``declare`` phase replaces the mechanical
declarations. Carte blanche is reckoned first, as always. Then, for the point, the sequences and
the sets in turn:

1. elder ``declare``s his best combination of the category (legal only if he holds one) or
   ``sink``s it (says nothing; simplification a: no deliberately lower call);
2. if elder declared, younger ``answer``s truthfully ("good", "not good" or "equal", compared
   as without sinking) or ``concede``s ("good" whatever he holds, forfeiting the category,
   simplification b); if elder was silent, younger ``declare``s his own best (then he scores it
   whatever elder sank) or ``sink``s it (nobody scores).

The category is scored as soon as younger has spoken, so the reckoning order (and with it
repique, pique and au cent's target) is unchanged; the winner scores all his combinations of the
category and an equal point or best sequence cancels, as without sinking.

Public information (6.2, simplification c): elder's call at once (point count, sequence length,
set size and rank: the ``elder_calls`` block); the point's value / the sequence's top card only
when a truthful "equal" on the count / length asks for it (always with ``elder_calls_in_full``);
each category's outcome, points and the cards of scored or equal combinations once resolved
(``decl_outcome``, ``decl_points``, ``opp_shown``); who was silent (``decl_calls``). Not public:
whether a "good" was a concession, and whether a silence was a sunk combination or none held
(only ``sink`` is legal without one, so the turn itself betrays nothing).

Choices where the spec leaves things open
-----------------------------------------
- Both players holding carte blanche both score 10, so neither can repique or pique.
- Pique is elder's only (2.6 "elder reaches 30 ..."), also when ``low_cards_score_in_play`` is
  False and elder's first lead scores nothing.
- Among two suits of equal point (count and value), the lower suit index (S, H, D, C) is the one
  named and shown.
- An equal sequence makes public the equal best sequence of each player (not their lower ones).
- ``point_ending_in_4_minus_one``: a point whose value ends in 4 (34, 44, ...) scores its card
  count minus one.
- ``cards_bonus_counts_for_pique``: the moment elder wins his 7th trick, the 10 for the cards
  counts toward his pique (it is still scored at the end of the deal).
- ``low_cards_score_in_play=False`` (old French rule): a lead or capture scores only with a 10 or
  higher; the last-trick point is kept (2.8).
- ``first_exchanger="dealer"`` (the seed's literal reading, 2.4): the dealer exchanges first with
  up to five cards, elder second; the second exchanger is the one who may look at leftovers;
  elder still leads. ``younger_min_exchange`` applies to younger whichever order.
- ``partie="four_deals"``: the four-deal partie of CAV's note to Law 71, the 1st and 4th deals
  counting double (the tie-break deals single).
- A deal's ``points`` in the record are what the deal added to the partie score (so doubled
  deals show doubled points).
- ``carte_blanche_auto=False``: at every deal each seat, elder first, says ``claim`` or
  ``dont_claim`` before the exchange (only a holder may claim; everyone decides, so the turn
  order does not betray a declined carte blanche); an unclaimed one scores nothing and is never
  shown.
  The observation's ``carte_blanche`` block shows claims, not holdings.
- ``trick_scoring="ten_for_last"`` (PAR's variant): no lead or capture points; 1 per trick won,
  10 (instead of 1) for the last trick, no 10 for the majority; a capot still scores 40.
- Play points (2.8): every lead scores even when the opponent then captures the trick, so a
  deal's play points are 12 leads + the captures + 1, as the Cavendish deal (28/23, 7.1) needs;
  the source's summary "they sum to 13" does not fit that deal and is not followed.

Episodes and rewards
--------------------
| ``episode`` | ``reward`` | reward at the end, per seat |
|---|---|---|
| ``"game"`` (default) | ``"win"`` (default) | +1 partie won, −1 lost, 0 drawn |
| ``"game"`` | ``"score"`` | ± the Rubicon result (winner +points, loser −points) |
| ``"deal"`` | ``"win"`` | +1 / −1 / 0 by the deal's points |
| ``"deal"`` | ``"score"`` | own deal points − opponent's deal points |

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
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np
from numba import njit

from cardenvs.core.prefetch import STEP_BLOCK, prefetch_ahead

from ...core import rng
from ...core.bitmask import action_in, bit, dense_suits, popcount, spread
from ...core.borrow import borrowed_step
from ...core.cards import Deck, format_card, format_cards, piquet_deck
from ...core.game import GameConfig, ObsField, layout_offsets, layout_table, option
from ...core.seats import at
from ...core.state import PackedState, StateLayout

NAME = "piquet"
VERSION = 0
NUM_SEATS = 2
DECK = Deck("piquet", piquet_deck())
NUM_CARDS = 32
HAND = 12
TALON = 8
ELDER_MAX = 5
MAX_DEALS = 8

# --- actions -----------------------------------------------------------------------------------
ACTION_DISCARD = 0
ACTION_PLAY = 32
ACTION_STOP = 64
ACTION_LOOK = 65
ACTION_DONT_LOOK = 66
ACTION_CLAIM = 67
ACTION_DONT_CLAIM = 68
ACTION_DECLARE = 69
ACTION_SINK = 70
ACTION_ANSWER = 71
ACTION_CONCEDE = 72
ACTION_PASS = 73
ACTION_BID = 74  # 74..85: bid 7+, 7-, 8+, 8-, ..., 12+, 12-
ACTION_DOUBLE = 86
ACTION_REDOUBLE = 87
NUM_ACTIONS = 88
NUM_BIDS = 12
NUM_OTHER_ACTIONS = NUM_ACTIONS - ACTION_STOP
ACTION_NAMES = tuple(
    [f"discard {format_card(c)}" for c in DECK.cards.tolist()]
    + [f"play {format_card(c)}" for c in DECK.cards.tolist()]
    + ["stop", "look", "dont_look", "claim", "dont_claim"]
    + ["declare", "sink", "answer", "concede"]
    + ["pass"]
    + [f"bid {n}{sign}" for n in range(7, 13) for sign in "+-"]
    + ["double", "redouble"]
)

# --- phases ------------------------------------------------------------------------------------
PHASE_CLAIM = 0
PHASE_EXCHANGE = 1
PHASE_LOOK = 2
PHASE_PLAY = 3
PHASE_OVER = 4
PHASE_DECLARE = 5
PHASE_BID = 6
PHASE_NAMES = ("claim", "exchange", "look", "play", "over", "declare", "bid")

# --- scoring constants (spec 2.5, 2.6, 2.8) ----------------------------------------------------
CARTE_BLANCHE = 10
PIQUE_AT = 30
PIQUE_BONUS = 30
REPIQUE_BONUS = 60
CARDS_BONUS = 10
CAPOT_BONUS = 40
# point value of piquet ranks 7 8 9 10 J Q K A
POINT_VALUE = np.array([7, 8, 9, 10, 10, 10, 10, 11], np.int64)
# declaration categories and their outcome codes
CAT_POINT, CAT_SEQUENCE, CAT_SETS = 0, 1, 2
OUTCOME_NONE, OUTCOME_EQUAL, OUTCOME_PENDING = 2, 3, 4  # 0/1 = the winning seat
# how a category was called (``decl_call``): mechanically (no sinking), or the 6.1 v2 choices
CALL_AUTO = 0  # resolved mechanically, both declaring their best (A3 v1)
CALL_OPEN = 1  # nothing said yet
CALL_ELDER = 2  # elder declared his best; younger to answer
CALL_ELDER_SILENT = 3  # elder sank it (or holds none); younger to declare or not
CALL_ANSWERED = 4  # elder declared, younger answered truthfully: compared
CALL_CONCEDED = 5  # elder declared, younger conceded ("good"): elder scores
CALL_YOUNGER = 6  # elder silent, younger declared his best: younger scores
CALL_SILENT = 7  # both silent: nobody scores
# bonus codes
BONUS_PIQUE, BONUS_REPIQUE = 1, 2
# au cent partie (3.1 b, CAV): the first to three games wins; "three games out of five"
PARTIE_GAMES_TO_WIN = 3
PARTIE_MAX_GAMES = 5
PARTIE_MAX_DEALS = 25  # max_deals bound with a partie: 5 x 25 deals fit the int8 deal counter


@dataclasses.dataclass(frozen=True)
class KernelOptions(GameConfig):
    """Every option the two-handed kernels read, in kernel order: ``cfg[KernelOptions.index(n)]``.

    Not an id's config: each registered id (``piquet-v0``, ``piquet_au_cent-v0``, ...) has its
    own ``Config`` class offering the options that make sense for it, with its own defaults; the
    options it does not offer take the value in its ``FIXED`` table, else the default here. So
    one kernel array layout serves every id and no id accepts another id's switches.
    """

    first_exchanger: str = option(
        "elder", ("elder", "dealer"), doc="who exchanges first (A1; 'dealer' = seed literal)"
    )
    set_ranks: str = option(
        "AKQJT", ("AKQJT", "KQJT"), doc="ranks that form trios/quatorzes (A2; 'KQJT' = seed)"
    )
    younger_min_exchange: int = option(1, low=0, high=1, doc="younger's minimum exchange (A4)")
    low_cards_score_in_play: bool = option(True, doc="9/8/7 score when leading or capturing (A6)")
    point_ending_in_4_minus_one: bool = option(
        False, doc="a point of value 34/44/... scores one less (A7)"
    )
    cards_bonus_counts_for_pique: bool = option(
        False, doc="the 10 for the cards counts toward pique once 7 tricks are won (A11)"
    )
    partie: str = option(
        "six_deals",
        ("six_deals", "four_deals"),
        doc="six deals, or four with the 1st and 4th doubled (2.10)",
    )
    rubicon: int = option(100, low=0, high=1000, doc="Rubicon threshold and game bonus (2.10)")
    carte_blanche_auto: bool = option(
        True, doc="carte blanche is always claimed; False: the holder chooses (A10, 6.1)"
    )
    trick_scoring: str = option(
        "standard",
        ("standard", "ten_for_last"),
        doc="'ten_for_last' (PAR): 1 per trick won, 10 for the last trick, no cards bonus (2.8)",
    )
    # --- options added with the variants (issue 6); kernel order continues here ------------------
    game: str = option(
        "partie",
        ("partie", "au_cent", "auction"),
        doc="the scoring frame: Rubicon partie, au cent (3.1) or Auction Piquet (3.2)",
    )
    elder_calls_in_full: bool = option(
        False,
        doc="elder calls his point's value and his sequence's top card whatever younger holds "
        "(CAV au cent); False: only when needed to decide",
    )
    target: int = option(100, low=1, high=1000, doc="au cent: the score that wins the game (3.1)")
    au_cent_end: str = option(
        "immediate",
        ("immediate", "end_of_deal"),
        doc="au cent: the game ends the moment a score reaches the target, in reckoning order "
        "(A13), or at the end of that deal",
    )
    double_below: int = option(
        50, low=0, high=1000, doc="au cent: the result is doubled when the loser has less (3.1)"
    )
    max_deals: int = option(
        20,
        low=1,
        high=100,
        doc="au cent: a safety bound on the deals of a game; then the higher total wins",
    )
    allow_sinking: bool = option(
        False,
        doc="declarations are choices (A3, 6.1 v2): elder declares or sinks each category, "
        "younger answers truthfully or concedes, and declares what elder sank",
    )
    auction_sentence_reading: str = option(
        "no_sinking",
        ("no_sinking", "no_carte_blanche", "no_opening_pass", "no_exchange"),
        doc="auction: what 'die Spieler können nicht klappen' forbids (3.2 item 1): sinking, "
        "carte blanche, passing at one's first turn, or the exchange",
    )
    first_bidder: str = option(
        "elder", ("elder", "younger"), doc="auction: who speaks first (3.2 item 2, a guess)"
    )
    bidding: str = option(
        "after_exchange",
        ("after_exchange", "before_exchange"),
        doc="auction: bidding after the exchange (before the declarations) or before it (3.2)",
    )
    minus_outranks_plus_at_equal_level: bool = option(
        True, doc="auction: at an equal number, a minus bid outranks a plus bid (3.2 item 6)"
    )
    pique_plus: int = option(
        29, low=1, high=100, doc="auction: pique threshold in a plus contract (3.2 item 8)"
    )
    pique_minus: int = option(
        21, low=1, high=100, doc="auction: pique threshold in a minus contract (3.2 item 8)"
    )
    repique_plus: int = option(
        30, low=1, high=100, doc="auction: repique threshold in a plus contract (3.2 item 8)"
    )
    repique_minus: int = option(
        21, low=1, high=100, doc="auction: repique threshold in a minus contract (3.2 item 8)"
    )
    auction_last_trick_extra: bool = option(
        False, doc="auction: the last trick scores 1 extra (3.2 item 9)"
    )
    auction_make_bonus: int = option(
        0,
        low=0,
        high=100,
        doc="auction: points for making the contract, before any doubling (3.2 item 10)",
    )
    double_factor: int = option(
        2, low=1, high=16, doc="auction: multiplier of a doubled contract's score (3.2 item 7)"
    )
    redouble_factor: int = option(
        4,
        low=1,
        high=16,
        doc="auction: multiplier of a redoubled contract's score (item 11; at most 16 so that "
        "the int16 scores cannot overflow)",
    )
    minus_combinations: str = option(
        "score",
        ("score", "none"),
        doc="auction: in a minus contract combinations are declared as usual, or not at all "
        "(3.2 item 13)",
    )
    max_redeals: int = option(
        10,
        low=0,
        high=50,
        doc="auction: redeals (both passed) allowed in a partie; then the second speaker must bid",
    )
    # --- options added later (same ids; left out of records while at their default) -----------
    declarer_becomes_elder: bool = option(
        False,
        doc="auction: a declarer dealt younger takes elder's role once the bidding ends: he calls "
        "first, leads, may pique, and exchanges first if the bidding came first (3.2 'whether "
        "roles change'; default: no)",
    )
    au_cent_partie: bool = option(
        False,
        doc="au cent, episode 'game': CAV's partie, games to the target until one player has won "
        "three, a double game (loser under double_below) counting two (3.1 b)",
    )


def _opt(name: str, default=dataclasses.MISSING, doc: str | None = None):
    """An id's config field for kernel option ``name`` (its choices and bounds, maybe another
    default or doc)."""
    f = next(f for f in dataclasses.fields(KernelOptions) if f.name == name)
    m = f.metadata
    return option(
        f.default if default is dataclasses.MISSING else default,
        m["choices"],
        m["low"],
        m["high"],
        doc=m["doc"] if doc is None else doc,
    )


@dataclasses.dataclass(frozen=True)
class TwoHandedConfig(GameConfig):
    """Base of the two-handed ids' configs: the kernel array is laid out by ``KernelOptions``.

    ``FIXED`` holds the kernel values of the options an id does not offer; ``LATER`` names
    options added after the id's first release, left out of its records while at their default
    (so the records of earlier releases replay and compare unchanged).
    """

    FIXED = {}
    LATER = ()

    @classmethod
    def index(cls, name: str) -> int:
        return KernelOptions.index(name)

    def encode(self, name: str, value) -> int:
        f = next(f for f in dataclasses.fields(KernelOptions) if f.name == name)
        if f.metadata.get("choices") is not None:
            return f.metadata["choices"].index(value)
        return int(value)

    def to_array(self) -> np.ndarray:
        own = {f.name for f in dataclasses.fields(self)}
        values = []
        for f in dataclasses.fields(KernelOptions):
            v = getattr(self, f.name) if f.name in own else self.FIXED.get(f.name, f.default)
            values.append(self.encode(f.name, v))
        return np.asarray(values, dtype=np.int64)

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        defaults = {f.name: f.default for f in dataclasses.fields(self)}
        for name in self.LATER:
            if d[name] == defaults[name]:
                del d[name]
        return d

    def _bad(self, name: str, allowed: str):
        raise self.error(name, f"= {getattr(self, name)!r} is not allowed here; allowed: {allowed}")


@dataclasses.dataclass(frozen=True)
class Config(TwoHandedConfig):
    """Piquet (``piquet-v0``) rule options (spec section 4). See the module docstring."""

    first_exchanger: str = _opt("first_exchanger")
    set_ranks: str = _opt("set_ranks")
    younger_min_exchange: int = _opt("younger_min_exchange")
    low_cards_score_in_play: bool = _opt("low_cards_score_in_play")
    point_ending_in_4_minus_one: bool = _opt("point_ending_in_4_minus_one")
    cards_bonus_counts_for_pique: bool = _opt("cards_bonus_counts_for_pique")
    partie: str = _opt("partie")
    rubicon: int = _opt("rubicon")
    carte_blanche_auto: bool = _opt("carte_blanche_auto")
    trick_scoring: str = _opt("trick_scoring")
    allow_sinking: bool = _opt("allow_sinking")

    FIXED = {"game": "partie"}
    LATER = ("allow_sinking",)


@dataclasses.dataclass(frozen=True)
class AuCentConfig(TwoHandedConfig):
    """Piquet au cent (``piquet_au_cent-v0``) rule options (spec 3.1). See
    ``cardenvs.games.piquet_au_cent``."""

    first_exchanger: str = _opt("first_exchanger")
    set_ranks: str = _opt("set_ranks")
    younger_min_exchange: int = _opt(
        "younger_min_exchange", 0, doc="younger's minimum exchange (CAV au cent: he need not)"
    )
    low_cards_score_in_play: bool = _opt(
        "low_cards_score_in_play",
        doc="9/8/7 score when leading or capturing (CAV: by agreement not)",
    )
    point_ending_in_4_minus_one: bool = _opt(
        "point_ending_in_4_minus_one",
        doc="a point of value 34/44/... scores one less (CAV: by agreement)",
    )
    cards_bonus_counts_for_pique: bool = _opt("cards_bonus_counts_for_pique")
    carte_blanche_auto: bool = _opt("carte_blanche_auto")
    trick_scoring: str = _opt("trick_scoring")
    elder_calls_in_full: bool = _opt("elder_calls_in_full", True)
    target: int = _opt("target")
    au_cent_end: str = _opt("au_cent_end")
    double_below: int = _opt("double_below")
    max_deals: int = _opt(
        "max_deals",
        doc="au cent: a safety bound on the deals of a game; then the higher total wins (at "
        "most 25 with au_cent_partie)",
    )
    allow_sinking: bool = _opt("allow_sinking")
    au_cent_partie: bool = _opt("au_cent_partie")

    FIXED = {"game": "au_cent"}
    LATER = ("au_cent_partie",)

    def __post_init__(self):
        super().__post_init__()
        if self.double_below > self.target:
            self._bad("double_below", f"an integer in 0..target ({self.target})")
        if self.au_cent_partie and self.max_deals > PARTIE_MAX_DEALS:
            # a partie has at most PARTIE_MAX_GAMES games of at most max_deals deals each, and
            # the deal counter is an int8
            self._bad(
                "max_deals",
                f"an integer in 1..{PARTIE_MAX_DEALS} while au_cent_partie is True "
                f"(at most {PARTIE_MAX_GAMES} games of max_deals deals)",
            )


@dataclasses.dataclass(frozen=True)
class AuctionConfig(TwoHandedConfig):
    """Auction Piquet (``auction_piquet-v0``) rule options (spec 3.2). See
    ``cardenvs.games.auction_piquet``."""

    first_exchanger: str = _opt("first_exchanger")
    set_ranks: str = _opt("set_ranks")
    younger_min_exchange: int = _opt("younger_min_exchange")
    point_ending_in_4_minus_one: bool = _opt("point_ending_in_4_minus_one")
    partie: str = _opt("partie")
    rubicon: int = _opt("rubicon", 150, doc="Rubicon threshold and game bonus (3.2 item 12)")
    carte_blanche_auto: bool = _opt("carte_blanche_auto")
    allow_sinking: bool = _opt("allow_sinking")
    auction_sentence_reading: str = _opt("auction_sentence_reading")
    first_bidder: str = _opt("first_bidder")
    bidding: str = _opt("bidding")
    minus_outranks_plus_at_equal_level: bool = _opt("minus_outranks_plus_at_equal_level")
    pique_plus: int = _opt("pique_plus")
    pique_minus: int = _opt("pique_minus")
    repique_plus: int = _opt("repique_plus")
    repique_minus: int = _opt("repique_minus")
    auction_last_trick_extra: bool = _opt("auction_last_trick_extra")
    auction_make_bonus: int = _opt("auction_make_bonus")
    double_factor: int = _opt("double_factor")
    redouble_factor: int = _opt("redouble_factor")
    minus_combinations: str = _opt("minus_combinations")
    max_redeals: int = _opt("max_redeals")
    declarer_becomes_elder: bool = _opt("declarer_becomes_elder")

    FIXED = {"game": "auction"}
    LATER = ("declarer_becomes_elder",)

    def __post_init__(self):
        super().__post_init__()
        reading = self.auction_sentence_reading
        if self.allow_sinking and reading == "no_sinking":
            self._bad(
                "allow_sinking",
                "False while auction_sentence_reading is 'no_sinking' (the default reading: "
                "everything held must be declared); choose another reading to allow it",
            )
        if not self.carte_blanche_auto and reading == "no_carte_blanche":
            self._bad(
                "carte_blanche_auto",
                "True while auction_sentence_reading is 'no_carte_blanche' (there is none)",
            )
        if self.bidding == "before_exchange" and reading == "no_exchange":
            self._bad(
                "bidding",
                "'after_exchange' while auction_sentence_reading is 'no_exchange' (no exchange)",
            )


C_EPISODE = Config.index("episode")
C_REWARD = Config.index("reward")
C_FIRST_EXCHANGER = Config.index("first_exchanger")
C_SET_RANKS = Config.index("set_ranks")
C_YOUNGER_MIN = Config.index("younger_min_exchange")
C_LOW_CARDS = Config.index("low_cards_score_in_play")
C_POINT_4 = Config.index("point_ending_in_4_minus_one")
C_CARDS_PIQUE = Config.index("cards_bonus_counts_for_pique")
C_PARTIE = Config.index("partie")
C_RUBICON = Config.index("rubicon")
C_CB_AUTO = Config.index("carte_blanche_auto")
C_TEN_FOR_LAST = Config.index("trick_scoring")
C_GAME = Config.index("game")
C_FULL_CALLS = Config.index("elder_calls_in_full")
C_TARGET = Config.index("target")
C_AU_CENT_END = Config.index("au_cent_end")
C_DOUBLE_BELOW = Config.index("double_below")
C_MAX_DEALS = Config.index("max_deals")
C_SINKING = Config.index("allow_sinking")
C_READING = Config.index("auction_sentence_reading")
C_FIRST_BIDDER = Config.index("first_bidder")
C_BIDDING = Config.index("bidding")
C_MINUS_OUTRANKS = Config.index("minus_outranks_plus_at_equal_level")
C_PIQUE_PLUS = Config.index("pique_plus")
C_PIQUE_MINUS = Config.index("pique_minus")
C_REPIQUE_PLUS = Config.index("repique_plus")
C_REPIQUE_MINUS = Config.index("repique_minus")
C_LAST_EXTRA = Config.index("auction_last_trick_extra")
C_MAKE_BONUS = Config.index("auction_make_bonus")
C_DOUBLE = Config.index("double_factor")
C_REDOUBLE = Config.index("redouble_factor")
C_MINUS_COMB = Config.index("minus_combinations")
C_MAX_REDEALS = Config.index("max_redeals")
C_DECLARER_ELDER = Config.index("declarer_becomes_elder")
C_AU_CENT_PARTIE = Config.index("au_cent_partie")
GAME_AUCTION = 2
READ_NO_SINKING, READ_NO_CB, READ_NO_OPENING_PASS, READ_NO_EXCHANGE = 0, 1, 2, 3
GAME_PARTIE, GAME_AU_CENT = 0, 1


# --- state -------------------------------------------------------------------------------------
# Packed into three arrays (core.state); ``LAYOUT.field(state, name)`` reads a field.
STATE_FIELDS = (
    # (name, array, size, meaning); arrays: m uint64, v int16, f int8 (see core.state)
    ("hand", "m", 2, "cards held per seat"),
    ("dealt", "m", 2, "the hands as dealt (carte blanche is judged on these)"),
    ("discards", "m", 2, "cards each seat discarded this deal"),
    ("seen", "m", 2, "talon cards each seat has seen"),
    ("shown", "m", 2, "public cards of each seat's scored or equal combinations"),
    ("cb_shown", "m", 2, "a carte-blanche holder's dealt hand, once public"),
    ("played", "m", 2, "cards each seat has played this deal"),
    ("key", "m", 1, "the row's random key (from the seed)"),
    ("episode", "m", 1, "episode index since the last seeding"),
    ("legal", "m", 2, "legal actions of the seat to act (bit a of word a // 64; a cache)"),
    # v (int16: -32,768..32,767) bounds under the widest legal config (tests/test_score_bounds.py
    # derives them from the Config bounds); no v field is ever negative. One seat in one deal:
    # carte blanche 10 + point 8 + sequences <= 3 a card (36) + sets <= 3.5 a card (42) + pique
    # or repique 60 + play <= 21 + cards or capot 40 = 217; Auction Piquet: play 13 and, for the
    # cards, the contract <= (5 x 10 + make bonus 100) x factor 16 = 2,400, so 2,569 (both seats
    # together 2,579). A partie is at most 8 deal-equivalents (6 + 2 tie-break deals, or 4 with
    # two doubled + 2).
    ("deal_score", "v", 2, "points scored this deal per seat"),  # <= 2,569 (217 but auction)
    # partie <= 8 x 2,569 = 20,552 (8 x 217 = 1,736 but auction); au cent <= max_deals 100 x 217
    # = 21,700 (ties at the target play on)
    ("total", "v", 2, "partie totals per seat"),
    ("last_points", "v", 2, "what the last finished deal added to the totals"),  # <= 2 x 2,569
    # Rubicon <= both totals + rubicon: 8 x 2,579 + 1,000 = 21,632 (2,848 but auction); au cent:
    # the difference <= 21,700, doubled only for a loser under double_below <= target, so the
    # winner had < target one deal earlier: 2 x (1,000 + 217) = 2,434
    ("result_points", "v", 1, "Rubicon result of the finished partie (0 if drawn)"),
    ("decl_pts", "v", 6, "points per seat (x3) per category (point, sequence, sets)"),  # <= 42
    ("deck", "f", 32, "this deal's deck order (elder 12, younger 12, talon 8)"),
    ("deal_no", "f", 1, "current deal of the partie, 0-based"),
    ("dealer", "f", 1, "seat of the dealer (younger); elder = 1 - dealer unless ``swapped``"),
    ("current", "f", 1, "seat to act, -1 when the game is over"),
    ("phase", "f", 1, "PHASE_*"),
    ("cb", "f", 2, "1 if the seat's dealt hand is a carte blanche (private)"),
    ("cb_claim", "f", 2, "carte blanche claimed (public): -1 undecided, 0 no, 1 yes"),
    ("xcount", "f", 2, "cards exchanged per seat (public)"),
    ("exch", "f", 1, "0 = first exchanger's turn, 1 = second's"),
    ("ndisc", "f", 1, "cards discarded so far in the current exchange"),
    ("last_disc", "f", 1, "card index of the last discard (-1 none)"),
    ("talon_pos", "f", 1, "index of the next talon card to draw"),
    ("looked", "f", 1, "-1 undecided or no leftovers, 0 did not look, 1 looked"),
    ("trick_card", "f", 1, "card led to the current trick, -1 if none"),
    ("trick_leader", "f", 1, "seat that led the current trick"),
    ("tricks", "f", 2, "tricks won this deal per seat"),
    ("decl_win", "f", 3, "per category: winning seat, OUTCOME_NONE or OUTCOME_EQUAL"),
    ("calls", "f", 6, "elder's public calls (see _declare)"),
    ("bonus", "f", 2, "BONUS_PIQUE / BONUS_REPIQUE won this deal per seat"),
    ("winner", "f", 1, "winning seat of the finished episode, -1 drawn"),
    ("void", "f", 2, "suits each seat is known to lack (bit per suit): it failed to follow"),
    ("decl_stage", "f", 1, "sinking: next declaration decision, 2 * category + (younger)"),
    ("decl_call", "f", 3, "per category: CALL_* (how it was called)"),
    ("redeals", "f", 1, "auction: redeals this episode (both passed); deal_no counts them"),
    ("bid", "f", 1, "auction: the highest bid so far, 0..11 (7+, 7-, ..., 12-), -1 none"),
    ("bidder", "f", 1, "auction: the seat that made it, -1 none"),
    ("doubled", "f", 1, "auction: 0, 1 doubled, 2 redoubled"),
    ("bid_acts", "f", 1, "auction: bidding actions taken this deal"),
    ("last_contract", "f", 3, "auction: the last finished deal's bid, bidder, doubled (-1 redeal)"),
    ("swapped", "f", 1, "auction: 1 once a younger declarer took elder's role (elder = dealer)"),
    ("games_won", "f", 2, "au cent partie: games won per seat (a double game counts 2)"),
    ("games", "f", 1, "au cent partie: games finished"),
    ("game_start", "f", 1, "au cent partie: deal_no of the current game's first deal"),
)

LAYOUT = StateLayout(NAME, STATE_FIELDS)
M_HAND, M_DEALT, M_DISCARDS, M_SEEN = (
    LAYOUT.offset(k) for k in ("hand", "dealt", "discards", "seen")
)
M_SHOWN, M_CB_SHOWN, M_PLAYED = (LAYOUT.offset(k) for k in ("shown", "cb_shown", "played"))
M_KEY, M_EPISODE, M_LEGAL = (LAYOUT.offset(k) for k in ("key", "episode", "legal"))
V_DEAL_SCORE, V_TOTAL, V_LAST_POINTS = (
    LAYOUT.offset(k) for k in ("deal_score", "total", "last_points")
)
V_RESULT_POINTS, V_DECL_PTS = LAYOUT.offset("result_points"), LAYOUT.offset("decl_pts")
F_DECK, F_DEAL_NO, F_DEALER, F_CURRENT, F_PHASE = (
    LAYOUT.offset(k) for k in ("deck", "deal_no", "dealer", "current", "phase")
)
F_CB, F_XCOUNT, F_EXCH, F_NDISC, F_LAST_DISC = (
    LAYOUT.offset(k) for k in ("cb", "xcount", "exch", "ndisc", "last_disc")
)
F_CB_CLAIM = LAYOUT.offset("cb_claim")
F_TALON_POS, F_LOOKED, F_TRICK_CARD, F_TRICK_LEADER = (
    LAYOUT.offset(k) for k in ("talon_pos", "looked", "trick_card", "trick_leader")
)
F_TRICKS, F_DECL_WIN, F_CALLS, F_BONUS, F_WINNER = (
    LAYOUT.offset(k) for k in ("tricks", "decl_win", "calls", "bonus", "winner")
)
F_VOID = LAYOUT.offset("void")
F_DECL_STAGE, F_DECL_CALL = LAYOUT.offset("decl_stage"), LAYOUT.offset("decl_call")
F_REDEALS, F_BID, F_BIDDER, F_DOUBLED, F_BID_ACTS, F_LAST_CONTRACT = (
    LAYOUT.offset(k) for k in ("redeals", "bid", "bidder", "doubled", "bid_acts", "last_contract")
)
F_SWAPPED, F_GAMES_WON, F_GAMES, F_GAME_START = (
    LAYOUT.offset(k) for k in ("swapped", "games_won", "games", "game_start")
)

State = PackedState


new_state = LAYOUT.new  # new_state(n): a zeroed state for n games
field = LAYOUT.field  # field(state, name): a writable view of one named field over all rows


# --- observation layout (spec 6.2: what each seat may know) ------------------------------------
OBS_LAYOUT = (
    ObsField("hand", 32, 1.0, "own hand"),
    ObsField("own_discards", 32, 1.0, "own discards this deal"),
    ObsField(
        "talon_seen",
        32,
        1.0,
        "talon cards seen and not held: elder's untaken five; leftovers looked at "
        "(by younger at once, by both after elder's first lead)",
    ),
    ObsField(
        "opp_carte_blanche",
        32,
        1.0,
        "opponent's dealt hand, once his carte blanche is shown (after own exchange)",
    ),
    ObsField("own_shown", 32, 1.0, "own cards of scored or equal combinations"),
    ObsField("opp_shown", 32, 1.0, "opponent's cards of scored or equal combinations"),
    ObsField("own_played", 32, 1.0, "cards own seat played this deal"),
    ObsField("opp_played", 32, 1.0, "cards the opponent played this deal"),
    ObsField("trick_lead", 32, 1.0, "card led to the current trick (if any)"),
    ObsField("phase", len(PHASE_NAMES), 1.0, "one-hot: " + ", ".join(PHASE_NAMES)),
    ObsField("to_act", 1, 1.0, "1 if the observing seat is to act"),
    ObsField("is_elder", 1, 1.0, "1 if the observing seat is elder this deal"),
    ObsField("exchanged", 2, 1.0, "cards exchanged by own / opponent, / 8"),
    ObsField("talon_left", 1, 1.0, "cards left in the talon, / 8"),
    ObsField("leftovers", 2, 1.0, "younger looked / did not look at the leftovers"),
    ObsField("carte_blanche", 2, 1.0, "own / opponent claimed carte blanche"),
    ObsField(
        "decl_outcome",
        9,
        1.0,
        "per category (point, sequence, sets): won by own / by opponent / nobody",
    ),
    ObsField("decl_points", 6, 5.0, "per category: own points, opponent points, / 20"),
    ObsField(
        "elder_calls",
        6,
        2.0,
        "elder's calls: point cards /12, point value /100 (if counts tied), best sequence "
        "length /8, its top (1..8) /8 (if lengths tied), best set size /4, its rank /8",
    ),
    ObsField("bonus", 4, 1.0, "own pique, own repique, opponent pique, opponent repique"),
    ObsField("tricks", 2, 1.0, "tricks won by own / opponent, / 12"),
    ObsField("deal_score", 2, 5.0, "own / opponent points this deal, / 100 (clipped at 5)"),
    ObsField("total", 2, 40.0, "own / opponent partie totals, / 100 (clipped at 40)"),
    ObsField("deal_no", MAX_DEALS, 1.0, "one-hot deal number (6 regular + 2 tie-break)"),
    ObsField("deal_double", 1, 1.0, "1 if this deal counts double (four-deal partie)"),
    ObsField(
        "decl_calls",
        12,
        1.0,
        "sinking, per category (point, sequence, sets): elder declared / elder silent / younger "
        "declared after elder's silence / younger silent after it (a concession looks like "
        "'good')",
    ),
    ObsField("contract", NUM_BIDS, 1.0, "auction: the highest bid so far, 7+, 7-, ..., 12-"),
    ObsField(
        "contract_by",
        2,
        1.0,
        "auction: it is own / the opponent's; au cent with ``au_cent_partie`` (no contracts "
        "there): games won by own / opponent, a double counting 2, / 3",
    ),
    ObsField("contract_doubled", 2, 1.0, "auction: doubled / redoubled"),
    ObsField("auction_passed", 2, 1.0, "auction: own / opponent passed before any bid"),
    ObsField("redeals", 1, 5.0, "auction: redeals this partie, / 10"),
)
_OFF = layout_offsets(OBS_LAYOUT)
O_HAND = _OFF["hand"]
O_DISC = _OFF["own_discards"]
O_SEEN = _OFF["talon_seen"]
O_OPP_CB = _OFF["opp_carte_blanche"]
O_OWN_SHOWN = _OFF["own_shown"]
O_OPP_SHOWN = _OFF["opp_shown"]
O_OWN_PLAYED = _OFF["own_played"]
O_OPP_PLAYED = _OFF["opp_played"]
O_TRICK = _OFF["trick_lead"]
O_PHASE = _OFF["phase"]
O_TO_ACT = _OFF["to_act"]
O_ELDER = _OFF["is_elder"]
O_XCOUNT = _OFF["exchanged"]
O_TALON = _OFF["talon_left"]
O_LEFT = _OFF["leftovers"]
O_CB = _OFF["carte_blanche"]
O_OUTCOME = _OFF["decl_outcome"]
O_DPTS = _OFF["decl_points"]
O_CALLS = _OFF["elder_calls"]
O_BONUS = _OFF["bonus"]
O_TRICKS = _OFF["tricks"]
O_DSCORE = _OFF["deal_score"]
O_TOTAL = _OFF["total"]
O_DEALNO = _OFF["deal_no"]
O_DOUBLE = _OFF["deal_double"]
O_DECL_CALLS = _OFF["decl_calls"]
O_CONTRACT, O_CONTRACT_BY = _OFF["contract"], _OFF["contract_by"]
O_DOUBLED, O_PASSED, O_REDEALS = _OFF["contract_doubled"], _OFF["auction_passed"], _OFF["redeals"]
OBS_DIM = sum(f.size for f in OBS_LAYOUT)

ACTION_TABLE = """| ids | name | when |
|---|---|---|
| 0–31 | ``discard <card>`` | exchanging; card index above the last discard |
| 32–63 | ``play <card>`` | trick play; must follow suit if able |
| 64 | ``stop`` | end one's discards (at least the minimum made) |
| 65 | ``look`` | younger, after the exchange, when cards are left |
| 66 | ``dont_look`` | likewise |
| 67 | ``claim`` | a carte-blanche holder, before the exchange (``carte_blanche_auto=False``) |
| 68 | ``dont_claim`` | likewise; the hand then stays secret and scores nothing |
| 69 | ``declare`` | sinking: elder calls his best of the category; younger, after elder's \
silence, calls his (only with a combination to call) |
| 70 | ``sink`` | sinking: say nothing in the category |
| 71 | ``answer`` | sinking: younger answers elder's call truthfully (good / not good / equal) |
| 72 | ``concede`` | sinking: younger says "good" whatever he holds, forfeiting the category |
| 73 | ``pass`` | auction: no (higher) bid; after a bid it ends the auction, after a double it \
accepts it |
| 74–85 | ``bid 7+``, ``bid 7-``, …, ``bid 12-`` | auction: take at least N tricks (+) or at \
most 12 − N (−); above the current bid |
| 86 | ``double`` | auction: the opponent's bid stands doubled (ends the bidding but for a \
redouble) |
| 87 | ``redouble`` | auction: the doubled bidder redoubles (ends the auction) |"""


def spec_doc(doc: str, config_cls) -> str:
    """Fill a two-handed id's docstring: its config table, the shared action and observation
    tables."""
    return (
        doc.replace("{obs_table}", layout_table(OBS_LAYOUT))
        .replace("{config_table}", config_cls.describe())
        .replace("{action_table}", ACTION_TABLE)
        .replace("{num_actions}", str(NUM_ACTIONS))
    )


__doc__ = spec_doc(__doc__, Config)


_NO_DECK = np.full(1, -1, np.int8)  # "shuffle a new deck" for _reset


# --- card helpers ------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def gid(i):
    """Global card id of piquet card index ``i``."""
    return (i >> 3) * 13 + (i & 7) + 5


@njit(cache=True, inline="always")
def lid(c):
    """Piquet card index of global card id ``c``."""
    return (c // 13) * 8 + (c % 13) - 5


@njit(cache=True, inline="always")
def _suit_bits(mask, suit):
    """8-bit mask of ``suit`` in ``mask``: bit r = piquet rank r (0 = seven .. 7 = ace)."""
    return np.int64((mask >> np.uint64(suit * 13 + 5)) & np.uint64(0xFF))


@njit(cache=True, inline="always")
def _from_suit_bits(bits, suit):
    return np.uint64(bits) << np.uint64(suit * 13 + 5)


@njit(cache=True, inline="always")
def _local32(mask):
    """The piquet cards of ``mask`` as a 32-bit set of card indices, suit by suit (one pext where
    the CPU runs it fast: ``core.bitmask.dense_suits``)."""
    return dense_suits(mask, 5, 8)


@njit(cache=True, inline="always")
def _planes(mask, out, off):
    """One-hot the 32 piquet cards of ``mask`` into ``out[off:off+32]``."""
    spread(_local32(mask), 32, out, off)


@njit(cache=True, inline="always")
def _holds_face_card(mask):
    # K, Q, J are piquet ranks 4, 5, 6 in every suit (carte blanche, 2.3)
    faces = np.uint64(0)
    for suit in range(4):
        faces |= np.uint64(0x70) << np.uint64(suit * 13 + 5)
    return (mask & faces) != np.uint64(0)


# --- roles ------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _elder(s, b):
    """Elder's seat: the non-dealer (2.1), or the dealer once an Auction Piquet declarer who was
    dealt younger has taken elder's role (``declarer_becomes_elder``, 3.2)."""
    dealer = np.int64(s.f[b, F_DEALER])
    return dealer if s.f[b, F_SWAPPED] != 0 else 1 - dealer


# --- declarations (2.5) ------------------------------------------------------------------------
@njit(cache=True)
def _point(mask, cfg):
    """Best point of a hand: (cards, value, suit, score)."""
    return point_of(mask, cfg[C_POINT_4] != 0)


def _suit_tables():
    """Per-suit tables of the declarations, indexed by a suit's 8 rank bits (bit r = piquet rank
    r): a hand's point, sequences and sets are then a few lookups per suit instead of a loop over
    its ranks whose branches follow the cards (each a likely misprediction when the rows of a
    batch hold different hands: a three-handed deal's declarations took 640 ns, now 230 ns).

    ``point``: cards * 256 + pip value (A7: ace 11, court cards 10, others their number);
    ``value``: pip value * 16 + cards (3.3's point by value); ``seq_key``: the suit's best
    sequence of 3 or more as length * 8 + top rank (the longer, then the higher top), -1 if none;
    ``seq_best``: its rank bits; ``seq_cards``: the rank bits of all its sequences of 3 or more;
    ``seq_total``: what they score (3 or 4 cards: their length; 5 to 8: length + 10)."""
    point, value, seq_key, seq_best, seq_cards, seq_total = np.zeros((6, 256), np.int64)
    pips = POINT_VALUE.tolist()
    for bits in range(256):
        ranks = [r for r in range(8) if bits >> r & 1]
        n, v = len(ranks), sum(pips[r] for r in ranks)
        point[bits], value[bits] = n * 256 + v, v * 16 + n
        key, best, cards, total = -1, 0, 0, 0
        held = "".join("1" if bits >> r & 1 else "0" for r in range(8))  # seven first
        for run in re.finditer("1{3,}", held):  # the maximal runs of 3 or more ranks
            length, top = len(run.group()), run.end() - 1
            bits_of_run = ((1 << length) - 1) << run.start()
            cards |= bits_of_run
            total += length if length <= 4 else length + 10
            if length * 8 + top > key:
                key, best = length * 8 + top, bits_of_run
        seq_key[bits], seq_best[bits], seq_cards[bits], seq_total[bits] = key, best, cards, total
    return point, value, seq_key, seq_best, seq_cards, seq_total


_POINT_KEY, _VALUE_KEY, _SEQ_KEY, _SEQ_BEST, _SEQ_CARDS, _SEQ_TOTAL = _suit_tables()
# the four cards of each piquet rank (0 = seven .. 7 = ace)
_RANK_CARDS = np.array(
    [sum(1 << (suit * 13 + 5 + r) for suit in range(4)) for r in range(8)], np.uint64
)


@njit(cache=True)
def point_of(mask, minus_one_at_4):
    """Best point of a hand: (cards, value, suit, score); ``minus_one_at_4``: A7. The most
    cards, then the highest value; between equal suits the first (spades, hearts, diamonds,
    clubs)."""
    best_key, best_s = 0, -1
    for suit in range(4):
        key = _POINT_KEY[_suit_bits(mask, suit)]  # cards * 256 + value
        if key > best_key:
            best_key, best_s = key, suit
    best_n, best_v = best_key >> 8, best_key & 0xFF
    score = best_n
    if minus_one_at_4 and best_v % 10 == 4:
        score -= 1
    return best_n, best_v, best_s, score


@njit(cache=True)
def sequences_of(mask):
    """Sequences of a hand: (best length, best top rank, total score, all cards, best cards).
    The best is the longest, then the one with the highest top; between equal ones the first
    suit's."""
    best_key, total = -1, 0
    cards = np.uint64(0)
    best_cards = np.uint64(0)
    for suit in range(4):
        bits = _suit_bits(mask, suit)
        total += _SEQ_TOTAL[bits]
        cards |= _from_suit_bits(_SEQ_CARDS[bits], suit)
        key = _SEQ_KEY[bits]  # length * 8 + top, -1 if none
        if key > best_key:
            best_key = key
            best_cards = _from_suit_bits(_SEQ_BEST[bits], suit)
    if best_key < 0:
        return 0, -1, total, cards, best_cards
    return best_key >> 3, best_key & 7, total, cards, best_cards


@njit(cache=True)
def _sets(mask, cfg):
    """Trios and quatorzes of the set ranks: (best size, best rank, total score, cards)."""
    # piquet ranks 10, J, Q, K, A are 3..7; the seed's reading stops at K (A2)
    return sets_of(mask, 7 if cfg[C_SET_RANKS] == 0 else 6)


@njit(cache=True)
def sets_of(mask, highest):
    """Trios and quatorzes of ranks 10 (3) .. ``highest``: (best size, best rank, score, cards).
    The best is the largest, then the highest rank."""
    best_key, total = -1, 0
    cards = np.uint64(0)
    for r in range(3, highest + 1):
        rank_cards = mask & _RANK_CARDS[r]
        n = popcount(rank_cards)
        if n >= 3:
            cards |= rank_cards
            total += 3 if n == 3 else 14
            best_key = max(best_key, n * 8 + r)
    if best_key < 0:
        return 0, -1, total, cards
    return best_key >> 3, best_key & 7, total, cards


@njit(cache=True)
def _score_hand(s, b, cfg, seat, pts):
    """Reckon ``pts`` in hand for ``seat``; 30 before the opponent scores → repique (2.6)."""
    if pts <= 0 or s.f[b, F_PHASE] == PHASE_OVER:
        return
    s.v[b, V_DEAL_SCORE + seat] += pts
    if (
        s.f[b, F_BONUS + 0] == 0
        and s.f[b, F_BONUS + 1] == 0
        and s.v[b, V_DEAL_SCORE + 1 - seat] == 0
        and s.v[b, V_DEAL_SCORE + seat] >= _threshold(s, b, cfg, True)
    ):
        s.v[b, V_DEAL_SCORE + seat] += REPIQUE_BONUS
        s.f[b, F_BONUS + seat] = BONUS_REPIQUE
    _check_target(s, b, cfg, seat)


@njit(cache=True)
def _elder_pique(s, b, cfg, elder, extra):
    """Elder at 30 in hand and play (+ ``extra``) before younger scores → pique (2.6)."""
    if (
        s.f[b, F_BONUS + 0] == 0
        and s.f[b, F_BONUS + 1] == 0
        and s.v[b, V_DEAL_SCORE + 1 - elder] == 0
        and s.v[b, V_DEAL_SCORE + elder] + extra >= _threshold(s, b, cfg, False)
    ):
        s.v[b, V_DEAL_SCORE + elder] += PIQUE_BONUS
        s.f[b, F_BONUS + elder] = BONUS_PIQUE
        _check_target(s, b, cfg, elder)


@njit(cache=True, inline="always")
def _threshold(s, b, cfg, repique):
    """30 (2.6); in Auction Piquet by the contract: plus 29 / 30, minus 21 / 21 (3.2 item 8)."""
    if cfg[C_GAME] != GAME_AUCTION:
        return PIQUE_AT
    minus = s.f[b, F_BID] >= 0 and s.f[b, F_BID] % 2 == 1
    if repique:
        return cfg[C_REPIQUE_MINUS] if minus else cfg[C_REPIQUE_PLUS]
    return cfg[C_PIQUE_MINUS] if minus else cfg[C_PIQUE_PLUS]


@njit(cache=True, inline="always")
def _score_play(s, b, cfg, seat, pts):
    """Score ``pts`` in play for ``seat``, checking elder's pique."""
    if pts <= 0 or s.f[b, F_PHASE] == PHASE_OVER:
        return
    s.v[b, V_DEAL_SCORE + seat] += pts
    elder = _elder(s, b)
    if seat == elder:
        _elder_pique(s, b, cfg, elder, 0)
    _check_target(s, b, cfg, seat)


@njit(cache=True)
def _score_end(s, b, cfg, seat, pts):
    """Score the cards or capot (after play: never toward pique, 2.6)."""
    if pts <= 0 or s.f[b, F_PHASE] == PHASE_OVER:
        return
    s.v[b, V_DEAL_SCORE + seat] += pts
    _check_target(s, b, cfg, seat)


@njit(cache=True, inline="always")
def _check_target(s, b, cfg, seat):
    """Au cent (3.1, A13): checked after every scoring event, in reckoning order; the first
    score to reach the target ends the game at once (the rest of the deal is not played)."""
    if (
        cfg[C_GAME] == GAME_AU_CENT
        and cfg[C_AU_CENT_END] == 0
        and s.f[b, F_PHASE] != PHASE_OVER
        and s.v[b, V_TOTAL + seat] + s.v[b, V_DEAL_SCORE + seat] >= cfg[C_TARGET]
    ):
        _add_deal_to_totals(s, b, 1)
        _finish(s, b, cfg)


@njit(cache=True)
def _declare(s, b, cfg):
    """Carte blanche, then every category called so far, in reckoning order (2.3, 2.5, 2.6).

    Without sinking every category is ``CALL_AUTO`` and all resolve at once; the helpers
    (``declarations``, determinization) replay a row's calls on other hands with it. Stops if
    the game ends on the way (au cent)."""
    _declare_cb(s, b, cfg)
    for c in range(3):
        mode = s.f[b, F_DECL_CALL + c]
        if s.f[b, F_PHASE] == PHASE_OVER or mode == CALL_OPEN or mode == CALL_ELDER_SILENT:
            return
        _category(s, b, cfg, c)


@njit(cache=True)
def _declare_cb(s, b, cfg):
    """Carte blanche is reckoned first (elder's, then younger's; both holders score)."""
    elder = _elder(s, b)
    younger = 1 - elder
    if s.f[b, F_CB_CLAIM + elder] == 1:
        _score_hand(s, b, cfg, elder, CARTE_BLANCHE)
    if s.f[b, F_CB_CLAIM + younger] == 1:
        _score_hand(s, b, cfg, younger, CARTE_BLANCHE)


@njit(cache=True)
def _combination(hand, cfg, c):
    """A hand's best in category ``c``: (holds one, first key, second key, score, cards of
    everything it scores, cards of the best one).

    Point: count, then value; 1 per card. Sequence: length, then top card; the winner scores all
    his sequences. Sets: quatorze beats trio, then rank; the winner scores all his sets (2.5)."""
    if c == CAT_POINT:
        n, v, suit, sc = _point(hand, cfg)
        cards = hand & _from_suit_bits(0xFF, suit) if suit >= 0 else np.uint64(0)
        return n > 0, np.int64(n), np.int64(v), np.int64(sc), cards, cards
    if c == CAT_SEQUENCE:
        ln, top, tot, cards, best = sequences_of(hand)
        return ln > 0, np.int64(ln), np.int64(top), np.int64(tot), cards, best
    k, r, tot, cards = _sets(hand, cfg)
    return k > 0, np.int64(k), np.int64(r), np.int64(tot), cards, cards


@njit(cache=True)
def _category(s, b, cfg, c):
    """Resolve category ``c`` as called (``decl_call``), or only announce elder's call while
    younger's answer is awaited. Writes elder's public call (``calls``: the count / length /
    set size, and the value / top / set rank when said), ``decl_win``, ``decl_pts``, ``shown``
    and the score."""
    mode = s.f[b, F_DECL_CALL + c]
    elder = _elder(s, b)
    younger = 1 - elder
    ea, e1, e2, esc, ecards, ebest = _combination(s.m[b, M_HAND + elder], cfg, c)
    ya, y1, y2, ysc, ycards, ybest = _combination(s.m[b, M_HAND + younger], cfg, c)
    compared = mode == CALL_AUTO or mode == CALL_ANSWERED
    if compared or mode == CALL_ELDER or mode == CALL_CONCEDED:
        # elder's call: the count (length, set size) always; the value (top card) only when
        # younger's "equal" asks for it, or always when calls are in full (CAV au cent); a set
        # is named by its rank
        s.f[b, F_CALLS + 2 * c] = e1
        ask = cfg[C_FULL_CALLS] != 0 or (compared and e1 == y1)
        detail = 0
        if c == CAT_POINT:
            detail = e2 if ask else 0
        elif ea and (c == CAT_SETS or ask):
            detail = e2 + 1
        s.f[b, F_CALLS + 2 * c + 1] = detail
    if mode == CALL_ELDER:
        return
    if compared:
        if not ea and not ya:
            w = OUTCOME_NONE
        elif e1 > y1 or (e1 == y1 and e2 > y2):
            w = elder
        elif y1 > e1 or (e1 == y1 and y2 > e2):
            w = younger
        else:
            w = OUTCOME_EQUAL  # an equal point or best sequence: nobody scores (2.5)
    elif mode == CALL_CONCEDED:
        w = elder
    elif mode == CALL_YOUNGER:
        w = younger
    else:
        w = OUTCOME_NONE
    s.f[b, F_DECL_WIN + c] = w
    if w == OUTCOME_EQUAL:
        s.m[b, M_SHOWN + elder] |= ebest
        s.m[b, M_SHOWN + younger] |= ybest
    elif w != OUTCOME_NONE:
        s.m[b, M_SHOWN + w] |= ecards if w == elder else ycards
        pts = esc if w == elder else ysc
        s.v[b, V_DECL_PTS + 3 * w + c] = pts
        _score_hand(s, b, cfg, w, pts)


@njit(cache=True, inline="always")
def _holds(s, b, cfg, seat, c):
    """Whether ``seat`` holds a combination of category ``c`` to call."""
    return _combination(s.m[b, M_HAND + seat], cfg, c)[0]


# --- deal flow ---------------------------------------------------------------------------------
@njit(cache=True)
def _deal(s, b, cfg, dealer):
    """Deal the row's deck (elder 12, younger 12, talon 8) with ``dealer`` dealing (2.2)."""
    s.f[b, F_DEALER] = dealer
    s.f[b, F_SWAPPED] = 0
    elder = 1 - dealer  # the first twelve cards go to the non-dealer
    he = np.uint64(0)
    hy = np.uint64(0)
    for i in range(HAND):
        he |= bit(s.f[b, F_DECK + i])
        hy |= bit(s.f[b, F_DECK + HAND + i])
    s.m[b, M_HAND + elder] = he
    s.m[b, M_HAND + dealer] = hy
    for seat in range(2):
        s.m[b, M_DEALT + seat] = s.m[b, M_HAND + seat]
        s.f[b, F_CB + seat] = 0 if _holds_face_card(s.m[b, M_HAND + seat]) else 1
        # a carte blanche is claimed at once (auto), or every seat decides in turn so that the
        # turn order reveals nothing: only a holder may claim (A10)
        s.f[b, F_CB_CLAIM + seat] = s.f[b, F_CB + seat] if cfg[C_CB_AUTO] else -1
        if cfg[C_GAME] == GAME_AUCTION and cfg[C_READING] == READ_NO_CB:
            s.f[b, F_CB_CLAIM + seat] = 0  # this reading of 3.2 item 1: no carte blanche
        s.m[b, M_DISCARDS + seat] = 0
        s.m[b, M_SEEN + seat] = 0
        s.m[b, M_SHOWN + seat] = 0
        s.m[b, M_CB_SHOWN + seat] = 0
        s.m[b, M_PLAYED + seat] = 0
        s.f[b, F_XCOUNT + seat] = 0
        s.f[b, F_TRICKS + seat] = 0
        s.f[b, F_BONUS + seat] = 0
        s.f[b, F_VOID + seat] = 0
        s.v[b, V_DEAL_SCORE + seat] = 0
        for c in range(3):
            s.v[b, V_DECL_PTS + 3 * seat + c] = 0
    for c in range(3):
        s.f[b, F_DECL_WIN + c] = OUTCOME_PENDING
        s.f[b, F_DECL_CALL + c] = CALL_OPEN if cfg[C_SINKING] else CALL_AUTO
    s.f[b, F_DECL_STAGE] = 0
    s.f[b, F_BID] = -1
    s.f[b, F_BIDDER] = -1
    s.f[b, F_DOUBLED] = 0
    s.f[b, F_BID_ACTS] = 0
    for i in range(6):
        s.f[b, F_CALLS + i] = 0
    s.f[b, F_EXCH] = 0
    s.f[b, F_NDISC] = 0
    s.f[b, F_LAST_DISC] = -1
    s.f[b, F_TALON_POS] = 0
    s.f[b, F_LOOKED] = -1
    s.f[b, F_TRICK_CARD] = -1
    s.f[b, F_TRICK_LEADER] = elder
    _next_claim(s, b, cfg)


@njit(cache=True)
def _next_claim(s, b, cfg):
    """Turn to the next seat (elder first) still to decide whether to claim a carte blanche;
    once none is left, the exchange begins (2.3: it is announced before the exchange)."""
    elder = _elder(s, b)
    for seat in (elder, 1 - elder):
        if s.f[b, F_CB_CLAIM + seat] < 0:
            s.f[b, F_PHASE] = PHASE_CLAIM
            s.f[b, F_CURRENT] = seat
            return
    if cfg[C_GAME] == GAME_AUCTION and (cfg[C_BIDDING] == 1 or cfg[C_READING] == READ_NO_EXCHANGE):
        _start_bidding(s, b, cfg)
        return
    s.f[b, F_PHASE] = PHASE_EXCHANGE
    s.f[b, F_CURRENT] = _exchanger(s, b, cfg, 0)


@njit(cache=True, inline="always")
def _exchanger(s, b, cfg, k):
    """Seat making exchange ``k`` (0 first, 1 second); elder first by default (2.4, A1), else
    younger (the dealer's role)."""
    first = 1 - _elder(s, b) if cfg[C_FIRST_EXCHANGER] == 1 else _elder(s, b)
    return first if k == 0 else 1 - first


@njit(cache=True, inline="always")
def _exchange_limits(s, b, cfg):
    """(min, max) cards the current exchanger may discard (2.4, A1, A4): the first exchanger
    up to five, the second up to what is left of the talon; elder at least one, younger at
    least ``younger_min_exchange`` whether he exchanges second or (``first_exchanger="dealer"``)
    first."""
    lo = 1 if s.f[b, F_CURRENT] == _elder(s, b) else cfg[C_YOUNGER_MIN]
    if s.f[b, F_EXCH] == 0:
        return lo, ELDER_MAX
    return lo, TALON - s.f[b, F_TALON_POS]


@njit(cache=True)
def _shuffled_deck(s, b):
    n = np.int64(s.f[b, F_DEAL_NO])
    # stream MAX_DEALS draws the first dealer: later deals (au cent, redeals) skip it
    base = rng.stream(s.m[b, M_KEY], s.m[b, M_EPISODE], n if n < MAX_DEALS else n + 1)
    for i in range(NUM_CARDS):
        s.f[b, F_DECK + i] = gid(i)
    rng.shuffle(base, s.f[b, F_DECK : F_DECK + NUM_CARDS])


@njit(cache=True)
def _reset(s, b, cfg, key, episode, deck, dealer):
    """Start a partie in row ``b`` (``deck[0] < 0``: shuffle; ``dealer < 0``: draw)."""
    s.m[b, M_KEY] = key
    s.m[b, M_EPISODE] = episode
    s.f[b, F_DEAL_NO] = 0
    s.f[b, F_REDEALS] = 0
    s.f[b, F_GAMES] = 0
    s.f[b, F_GAME_START] = 0
    for i in range(3):
        s.f[b, F_LAST_CONTRACT + i] = -1
    for seat in range(2):
        s.v[b, V_TOTAL + seat] = 0
        s.v[b, V_LAST_POINTS + seat] = 0
        s.f[b, F_GAMES_WON + seat] = 0
    s.v[b, V_RESULT_POINTS] = 0
    s.f[b, F_WINNER] = -1
    if deck[0] < 0:
        _shuffled_deck(s, b)
    else:
        for i in range(NUM_CARDS):
            s.f[b, F_DECK + i] = deck[i]
    if dealer < 0:
        # the first dealer is drawn (2.2: "for RL, pick the first dealer at random")
        dealer = rng.draw(rng.stream(key, episode, MAX_DEALS), 0, 2)
    _deal(s, b, cfg, dealer)


@njit(cache=True)
def _finish_exchange(s, b, cfg):
    """Draw as many cards as were discarded from the top of the talon, then move on (2.4)."""
    seat = s.f[b, F_CURRENT]
    k = s.f[b, F_NDISC]
    for i in range(k):
        s.m[b, M_HAND + seat] |= bit(s.f[b, F_DECK + 2 * HAND + s.f[b, F_TALON_POS] + i])
    s.f[b, F_TALON_POS] += k
    s.f[b, F_XCOUNT + seat] = k
    other = 1 - seat
    if s.f[b, F_EXCH] == 0:
        # the first exchanger may look at the untaken cards of his five
        for i in range(s.f[b, F_TALON_POS], ELDER_MAX):
            s.m[b, M_SEEN + seat] |= bit(s.f[b, F_DECK + 2 * HAND + i])
        # a carte blanche is shown after the opponent's discard (2.3)
        if s.f[b, F_CB_CLAIM + other] == 1:
            s.m[b, M_CB_SHOWN + other] = s.m[b, M_DEALT + other]
        s.f[b, F_EXCH] = 1
        s.f[b, F_NDISC] = 0
        s.f[b, F_LAST_DISC] = -1
        s.f[b, F_CURRENT] = other
        return
    if s.f[b, F_CB_CLAIM + other] == 1:
        s.m[b, M_CB_SHOWN + other] = s.m[b, M_DEALT + other]
    s.f[b, F_EXCH] = 2  # both exchanges made
    if s.f[b, F_TALON_POS] < TALON:
        s.f[b, F_PHASE] = PHASE_LOOK
        return
    _after_exchange(s, b, cfg)


@njit(cache=True)
def _leftovers(s, b):
    m = np.uint64(0)
    for i in range(s.f[b, F_TALON_POS], TALON):
        m |= bit(s.f[b, F_DECK + 2 * HAND + i])
    return m


@njit(cache=True)
def _after_exchange(s, b, cfg):
    """After the exchange: the bidding (Auction Piquet, by default), else the declarations."""
    if cfg[C_GAME] == GAME_AUCTION and cfg[C_BIDDING] == 0 and s.f[b, F_BIDDER] < 0:
        _start_bidding(s, b, cfg)
        return
    _start_declarations(s, b, cfg)


@njit(cache=True)
def _start_declarations(s, b, cfg):
    """The declarations: mechanical (then play), or elder's first choice (sinking)."""
    if (
        cfg[C_GAME] == GAME_AUCTION
        and cfg[C_MINUS_COMB] == 1
        and s.f[b, F_BID] >= 0
        and s.f[b, F_BID] % 2 == 1
    ):
        # a minus contract without combinations (3.2 item 13, option): nothing is declared
        for c in range(3):
            s.f[b, F_DECL_CALL + c] = CALL_SILENT
        _start_play(s, b, cfg)
        return
    if cfg[C_SINKING]:
        _declare_cb(s, b, cfg)
        if s.f[b, F_PHASE] == PHASE_OVER:  # au cent: the target was reached
            return
        s.f[b, F_PHASE] = PHASE_DECLARE
        s.f[b, F_DECL_STAGE] = 0
        s.f[b, F_CURRENT] = _elder(s, b)
        return
    _start_play(s, b, cfg)


@njit(cache=True)
def _start_bidding(s, b, cfg):
    s.f[b, F_PHASE] = PHASE_BID
    elder = _elder(s, b)
    s.f[b, F_CURRENT] = elder if cfg[C_FIRST_BIDDER] == 0 else 1 - elder


@njit(cache=True, inline="always")
def _bid_rank(cfg, k):
    """Rank of bid ``k`` (0..11 = 7+, 7-, ..., 12-): by number, then minus over plus by default
    (3.2 item 6); -1 for no bid."""
    if k < 0:
        return -1
    minus = k % 2
    return (k // 2) * 2 + (minus if cfg[C_MINUS_OUTRANKS] else 1 - minus)


@njit(cache=True)
def _bid(s, b, cfg, a):
    """One bidding action (3.2 items 2-7): a pass before any bid hands over (both passing is a
    redeal), a pass after a bid ends the auction, a double leaves the bidder to redouble or
    pass."""
    seat = s.f[b, F_CURRENT]
    s.f[b, F_BID_ACTS] += 1
    if a == ACTION_PASS:
        if s.f[b, F_BID] < 0:
            if s.f[b, F_BID_ACTS] == 1:
                s.f[b, F_CURRENT] = 1 - seat
            else:
                _redeal(s, b, cfg)
            return
        _end_auction(s, b, cfg)
    elif a == ACTION_DOUBLE:
        s.f[b, F_DOUBLED] = 1
        s.f[b, F_CURRENT] = s.f[b, F_BIDDER]
    elif a == ACTION_REDOUBLE:
        s.f[b, F_DOUBLED] = 2
        _end_auction(s, b, cfg)
    else:
        s.f[b, F_BID] = a - ACTION_BID
        s.f[b, F_BIDDER] = seat
        s.f[b, F_CURRENT] = 1 - seat


@njit(cache=True)
def _end_auction(s, b, cfg):
    """The contract stands: the roles may change (option), then the exchange (bidding before
    it) or the declarations."""
    if cfg[C_DECLARER_ELDER] and s.f[b, F_BIDDER] == s.f[b, F_DEALER]:
        # a declarer dealt younger takes elder's role for the rest of the deal (3.2, option):
        # he exchanges first if the exchange is still to come, calls first, leads, may pique
        s.f[b, F_SWAPPED] = 1
    if cfg[C_READING] == READ_NO_EXCHANGE:
        # no exchange under this reading: a carte blanche is shown now, then the declarations
        s.f[b, F_EXCH] = 2
        for seat in range(2):
            if s.f[b, F_CB_CLAIM + seat] == 1:
                s.m[b, M_CB_SHOWN + seat] = s.m[b, M_DEALT + seat]
        _start_declarations(s, b, cfg)
    elif cfg[C_BIDDING] == 1:
        s.f[b, F_PHASE] = PHASE_EXCHANGE
        s.f[b, F_CURRENT] = _exchanger(s, b, cfg, 0)
    else:
        _start_declarations(s, b, cfg)


@njit(cache=True)
def _redeal(s, b, cfg):
    """Both passed: the same dealer shuffles and deals again (3.2 item 3). The redeal is a deal
    of the episode (its own record entry, 0 points) but not of the partie."""
    s.f[b, F_REDEALS] += 1
    for seat in range(2):
        s.v[b, V_LAST_POINTS + seat] = 0
    for i in range(3):
        s.f[b, F_LAST_CONTRACT + i] = -1
    s.f[b, F_DEAL_NO] += 1
    _shuffled_deck(s, b)
    _deal(s, b, cfg, s.f[b, F_DEALER])


@njit(cache=True)
def _decide(s, b, cfg, a):
    """Sinking (6.1 v2): one declaration choice; the category is resolved (and scored, in
    reckoning order) once younger has spoken."""
    stage = s.f[b, F_DECL_STAGE]
    c = stage // 2
    elder = _elder(s, b)
    if stage % 2 == 0:
        s.f[b, F_DECL_CALL + c] = CALL_ELDER if a == ACTION_DECLARE else CALL_ELDER_SILENT
        if a == ACTION_DECLARE:
            _category(s, b, cfg, c)  # the call is public at once
        s.f[b, F_DECL_STAGE] = stage + 1
        s.f[b, F_CURRENT] = 1 - elder
        return
    if s.f[b, F_DECL_CALL + c] == CALL_ELDER:
        s.f[b, F_DECL_CALL + c] = CALL_ANSWERED if a == ACTION_ANSWER else CALL_CONCEDED
    else:
        s.f[b, F_DECL_CALL + c] = CALL_YOUNGER if a == ACTION_DECLARE else CALL_SILENT
    _category(s, b, cfg, c)
    if s.f[b, F_PHASE] == PHASE_OVER:
        return
    s.f[b, F_DECL_STAGE] = stage + 1
    if stage + 1 == 6:
        _begin_play(s, b, cfg)
    else:
        s.f[b, F_CURRENT] = elder


@njit(cache=True, inline="always")
def _start_play(s, b, cfg):
    _declare(s, b, cfg)
    if s.f[b, F_PHASE] == PHASE_OVER:  # au cent: the target was reached in hand
        return
    _begin_play(s, b, cfg)


@njit(cache=True, inline="always")
def _begin_play(s, b, cfg):
    s.f[b, F_PHASE] = PHASE_PLAY
    s.f[b, F_CURRENT] = _elder(s, b)  # elder leads (2.7)
    s.f[b, F_TRICK_CARD] = -1


@njit(cache=True, inline="always")
def _counts_in_play(cfg, card):
    # every card scores by default; the old rule counts only 10 and above (A6)
    return cfg[C_LOW_CARDS] == 1 or card % 13 >= 8


@njit(cache=True, inline="always")
def _play(s, b, cfg, card):
    seat = s.f[b, F_CURRENT]
    s.m[b, M_HAND + seat] &= ~bit(card)
    s.m[b, M_PLAYED + seat] |= bit(card)
    elder = _elder(s, b)
    if s.f[b, F_TRICK_CARD] < 0:
        # leading: 1 point for the card led (2.8)
        if s.f[b, F_TRICKS + 0] + s.f[b, F_TRICKS + 1] == 0 and s.f[b, F_LOOKED] == 1:
            # looked-at leftovers become public after elder's first lead (2.4)
            left = _leftovers(s, b)
            s.m[b, M_SEEN + 0] |= left
            s.m[b, M_SEEN + 1] |= left
        s.f[b, F_TRICK_CARD] = card
        s.f[b, F_TRICK_LEADER] = seat
        if _counts_in_play(cfg, card) and not cfg[C_TEN_FOR_LAST] and cfg[C_GAME] != GAME_AUCTION:
            _score_play(s, b, cfg, seat, 1)
            if s.f[b, F_PHASE] == PHASE_OVER:
                return
        s.f[b, F_CURRENT] = 1 - seat
        return
    led = s.f[b, F_TRICK_CARD]
    leader = s.f[b, F_TRICK_LEADER]
    if card // 13 != led // 13:
        s.f[b, F_VOID + seat] |= 1 << (led // 13)  # he cannot follow: void in the led suit (2.7)
    # the higher card of the led suit wins (2.7)
    winner = seat if (card // 13 == led // 13 and card % 13 > led % 13) else leader
    ten_for_last = cfg[C_TEN_FOR_LAST] == 1
    auction = cfg[C_GAME] == GAME_AUCTION
    if ten_for_last or auction:
        # "10 for last" and Auction Piquet (3.2 item 9): a flat point per trick won
        _score_play(s, b, cfg, winner, 1)
    elif winner != leader and _counts_in_play(cfg, card):
        _score_play(s, b, cfg, winner, 1)  # capturing the opponent's lead
    s.f[b, F_TRICKS + winner] += 1
    if s.f[b, F_PHASE] == PHASE_OVER:
        return
    if (
        cfg[C_CARDS_PIQUE]
        and not ten_for_last
        and not auction
        and winner == elder
        and s.f[b, F_TRICKS + elder] == 7
    ):
        _elder_pique(s, b, cfg, elder, CARDS_BONUS)
    s.f[b, F_TRICK_CARD] = -1
    if s.f[b, F_PHASE] == PHASE_OVER:
        return
    if s.f[b, F_TRICKS + 0] + s.f[b, F_TRICKS + 1] == HAND:
        if auction:
            _score_play(s, b, cfg, winner, cfg[C_LAST_EXTRA])  # no extra by default (item 9)
        else:
            _score_play(s, b, cfg, winner, CARDS_BONUS if ten_for_last else 1)  # the last trick
        if s.f[b, F_PHASE] == PHASE_OVER:
            return
        _end_deal(s, b, cfg)
        return
    s.f[b, F_CURRENT] = winner


@njit(cache=True)
def _end_deal(s, b, cfg):
    """The cards / capot (the contract in Auction Piquet), partie totals, then the next deal or
    the end (2.8, 2.10, 3.1, 3.2)."""
    if cfg[C_GAME] == GAME_AUCTION:
        _score_contract(s, b, cfg)
    else:
        for seat in range(2):
            if s.f[b, F_TRICKS + seat] == HAND:
                _score_end(s, b, cfg, seat, CAPOT_BONUS)
            elif s.f[b, F_TRICKS + seat] >= 7 and not cfg[C_TEN_FOR_LAST]:
                _score_end(s, b, cfg, seat, CARDS_BONUS)
    if s.f[b, F_PHASE] == PHASE_OVER:  # au cent: the target was reached with the cards
        return
    # redeals are not deals of the partie; an au cent partie's earlier games are not this game's
    n = s.f[b, F_DEAL_NO] - s.f[b, F_REDEALS] - s.f[b, F_GAME_START]
    weight = 2 if (cfg[C_GAME] != GAME_AU_CENT and cfg[C_PARTIE] == 1 and (n == 0 or n == 3)) else 1
    _add_deal_to_totals(s, b, weight)
    played = n + 1
    if cfg[C_EPISODE] == 1:
        _finish(s, b, cfg)
        return
    a, c = s.v[b, V_TOTAL + 0], s.v[b, V_TOTAL + 1]
    if cfg[C_GAME] == GAME_AU_CENT:
        # end_of_deal (or a tie at the target): the higher total once one reaches it (3.1);
        # a tie goes on to another deal; ``max_deals`` bounds the game
        if (max(a, c) >= cfg[C_TARGET] and a != c) or played >= cfg[C_MAX_DEALS]:
            _finish(s, b, cfg)
            return
    else:
        regular = 6 if cfg[C_PARTIE] == 0 else 4
        if played >= regular and (a != c or played >= regular + 2):
            _finish(s, b, cfg)
            return
    s.f[b, F_DEAL_NO] += 1
    _shuffled_deck(s, b)
    _deal(s, b, cfg, 1 - s.f[b, F_DEALER])


@njit(cache=True)
def _score_contract(s, b, cfg):
    """Auction Piquet (3.2 items 10, 11): the declarer scores 10 per trick beyond a plus
    contract (short of a minus contract's limit), plus ``auction_make_bonus``; if it fails the
    opponent scores 10 per missing (excess) trick; doubled / redoubled multiply. The cards and
    capot do not score."""
    k = s.f[b, F_BID]
    decl = s.f[b, F_BIDDER]
    s.f[b, F_LAST_CONTRACT + 0] = k
    s.f[b, F_LAST_CONTRACT + 1] = decl
    s.f[b, F_LAST_CONTRACT + 2] = s.f[b, F_DOUBLED]
    if k < 0:
        return
    n = k // 2 + 7
    won = np.int64(s.f[b, F_TRICKS + decl])
    mult = 1
    if s.f[b, F_DOUBLED] == 1:
        mult = cfg[C_DOUBLE]
    elif s.f[b, F_DOUBLED] == 2:
        mult = cfg[C_REDOUBLE]
    if k % 2 == 0:
        margin = won - n  # plus: at least n tricks
    else:
        margin = (HAND - n) - won  # minus: at most 12 - n tricks
    if margin >= 0:
        _score_end(s, b, cfg, decl, (10 * margin + cfg[C_MAKE_BONUS]) * mult)
    else:
        _score_end(s, b, cfg, 1 - decl, -10 * margin * mult)


@njit(cache=True)
def _add_deal_to_totals(s, b, weight):
    for seat in range(2):
        s.v[b, V_LAST_POINTS + seat] = weight * s.v[b, V_DEAL_SCORE + seat]
        s.v[b, V_TOTAL + seat] += weight * s.v[b, V_DEAL_SCORE + seat]


@njit(cache=True, inline="always")
def _finish(s, b, cfg):
    """End the episode: by the deal's points (``episode="deal"``), else by the totals."""
    if cfg[C_EPISODE] == 1:
        _game_over(s, b, cfg, s.v[b, V_DEAL_SCORE + 0], s.v[b, V_DEAL_SCORE + 1], False)
    else:
        _game_over(s, b, cfg, s.v[b, V_TOTAL + 0], s.v[b, V_TOTAL + 1], True)


@njit(cache=True)
def partie_points(a, b, rubicon):
    """Rubicon result (2.10): (winner seat or -1, points won)."""
    if a == b:
        return -1, 0
    w, hi, lo = (0, a, b) if a > b else (1, b, a)
    if lo >= rubicon:
        return w, hi - lo + rubicon
    return w, hi + lo + rubicon


@njit(cache=True)
def au_cent_points(a, b, double_below):
    """Au cent result (3.1): (winner seat or -1, the difference, doubled if the loser has
    less than ``double_below``)."""
    if a == b:
        return -1, 0
    w, hi, lo = (0, a, b) if a > b else (1, b, a)
    return w, (hi - lo) * (2 if lo < double_below else 1)


@njit(cache=True)
def _game_over(s, b, cfg, a, c, partie):
    s.f[b, F_PHASE] = PHASE_OVER
    s.f[b, F_CURRENT] = -1
    if partie and cfg[C_GAME] == GAME_AU_CENT:
        w, pts = au_cent_points(a, c, cfg[C_DOUBLE_BELOW])
    elif partie:
        w, pts = partie_points(a, c, cfg[C_RUBICON])
    else:
        w = -1 if a == c else (0 if a > c else 1)
        pts = abs(a - c)
    s.f[b, F_WINNER] = w
    s.v[b, V_RESULT_POINTS] = pts


@njit(cache=True)
def _next_game(s, b, cfg):
    """Au cent partie (3.1 b, CAV "three games out of five, a double counting as two"): the game
    just ended (``winner``, ``total``) is counted; then the partie ends, or the next game starts
    at 0 - 0 with the next deal (the deal alternates)."""
    w = s.f[b, F_WINNER]
    if w >= 0:
        s.f[b, F_GAMES_WON + w] += 2 if s.v[b, V_TOTAL + 1 - w] < cfg[C_DOUBLE_BELOW] else 1
    s.f[b, F_GAMES] += 1
    a, c = np.int64(s.f[b, F_GAMES_WON + 0]), np.int64(s.f[b, F_GAMES_WON + 1])
    if max(a, c) >= PARTIE_GAMES_TO_WIN or s.f[b, F_GAMES] >= PARTIE_MAX_GAMES:
        # the partie is over: more games won wins (three, unless drawn games used up the five)
        s.f[b, F_WINNER] = -1 if a == c else (0 if a > c else 1)
        s.v[b, V_RESULT_POINTS] = abs(a - c)
        return
    s.f[b, F_WINNER] = -1
    s.v[b, V_RESULT_POINTS] = 0
    for seat in range(2):
        s.v[b, V_TOTAL + seat] = 0
    s.f[b, F_DEAL_NO] += 1
    s.f[b, F_GAME_START] = s.f[b, F_DEAL_NO]
    _shuffled_deck(s, b)
    _deal(s, b, cfg, 1 - s.f[b, F_DEALER])


@njit(cache=True)
def _write_rewards(s, b, cfg, out):
    """Zero-sum rewards of a finished episode (see the reward table)."""
    w = s.f[b, F_WINNER]
    for seat in range(2):
        if w < 0:
            out[seat] = 0.0
        elif cfg[C_REWARD] == 0:
            out[seat] = 1.0 if seat == w else -1.0
        else:
            out[seat] = s.v[b, V_RESULT_POINTS] if seat == w else -s.v[b, V_RESULT_POINTS]


# --- legal actions, step, observation ----------------------------------------------------------
BIT_DECLARE = 1 << (ACTION_DECLARE - ACTION_STOP)
BIT_SINK = 1 << (ACTION_SINK - ACTION_STOP)
BIT_ANSWER = 1 << (ACTION_ANSWER - ACTION_STOP)
BIT_CONCEDE = 1 << (ACTION_CONCEDE - ACTION_STOP)
BIT_PASS = 1 << (ACTION_PASS - ACTION_STOP)
BIT_DOUBLE = 1 << (ACTION_DOUBLE - ACTION_STOP)
BIT_REDOUBLE = 1 << (ACTION_REDOUBLE - ACTION_STOP)


@njit(cache=True)
def _bid_bits(s, b, cfg, seat):
    """Legal bidding actions (as bits from ``ACTION_STOP``), spec 3.2 items 2-7."""
    if s.f[b, F_DOUBLED] == 1:
        return BIT_PASS | BIT_REDOUBLE  # the doubled bidder
    bits = 0
    first_turn = s.f[b, F_BID_ACTS] == 0
    second_after_pass = s.f[b, F_BID] < 0 and s.f[b, F_BID_ACTS] == 1
    # one reading of "cannot klappen": the first speaker may not pass; and after max_redeals
    # redeals the second may not pass after a pass (no endless redeals)
    if not (first_turn and cfg[C_READING] == READ_NO_OPENING_PASS) and not (
        second_after_pass and s.f[b, F_REDEALS] >= cfg[C_MAX_REDEALS]
    ):
        bits |= BIT_PASS
    current = _bid_rank(cfg, s.f[b, F_BID])
    for k in range(NUM_BIDS):
        if _bid_rank(cfg, k) > current:
            bits |= 1 << (ACTION_BID - ACTION_STOP + k)
    if s.f[b, F_BID] >= 0 and s.f[b, F_BIDDER] != seat:
        bits |= BIT_DOUBLE
    return bits


@njit(cache=True, inline="always")
def _legal_sets(s, b, cfg):
    """Legal actions of the seat to act as (discard card set, play card set, other actions).

    The card sets are 32-bit sets of card indices; the third value has bit k set when action
    ``ACTION_STOP + k`` is legal. Everything is empty once the game is over.
    """
    ph = s.f[b, F_PHASE]
    if ph == PHASE_OVER:
        return 0, 0, 0
    seat = s.f[b, F_CURRENT]
    hand = s.m[b, M_HAND + seat]
    if ph == PHASE_EXCHANGE:
        lo, hi = _exchange_limits(s, b, cfg)
        disc = 0
        if s.f[b, F_NDISC] < hi:
            # canonical order: only cards above the last discard (6.1)
            disc = _local32(hand) & ~((np.int64(1) << (s.f[b, F_LAST_DISC] + 1)) - 1)
        return disc, 0, 1 if s.f[b, F_NDISC] >= lo else 0
    if ph == PHASE_LOOK:
        return 0, 0, 0b00110  # look, dont_look
    if ph == PHASE_CLAIM:
        return 0, 0, 0b11000 if s.f[b, F_CB + seat] else 0b10000  # claim only with one
    if ph == PHASE_BID:
        return 0, 0, _bid_bits(s, b, cfg, seat)
    if ph == PHASE_DECLARE:
        c = s.f[b, F_DECL_STAGE] // 2
        if s.f[b, F_DECL_STAGE] % 2 == 1 and s.f[b, F_DECL_CALL + c] == CALL_ELDER:
            return 0, 0, BIT_ANSWER | BIT_CONCEDE
        # declare only what one holds; sinking (or saying nothing) is always possible
        return 0, 0, BIT_SINK | (BIT_DECLARE if _holds(s, b, cfg, seat, c) else 0)
    led = s.f[b, F_TRICK_CARD]
    if led >= 0:
        follow = hand & _from_suit_bits(0xFF, led // 13)
        if follow != np.uint64(0):
            hand = follow  # must follow suit if able (2.7)
    return 0, _local32(hand), 0


@njit(cache=True, inline="always")  # into step_rows; the other callers: legal_row
def _legal(s, b, cfg, out):
    """Write the legal-action mask of the seat to act into ``out`` (all zero when over) and keep
    it in the state (``legal``, read by ``_is_legal``)."""
    disc, play, other = _legal_sets(s, b, cfg)
    s.m[b, M_LEGAL] = np.uint64(disc) | (np.uint64(play) << np.uint64(ACTION_PLAY))
    s.m[b, M_LEGAL + 1] = np.uint64(other)
    spread(disc, 32, out, ACTION_DISCARD)
    spread(play, 32, out, ACTION_PLAY)
    for k in range(NUM_OTHER_ACTIONS):
        out[ACTION_STOP + k] = (other >> k) & 1


@njit(cache=True, inline="always")
def _is_legal(s, b, cfg, a):
    """Is action ``a`` legal for the seat to act (the set ``_legal`` last wrote)?"""
    return action_in(s.m[b, M_LEGAL], s.m[b, M_LEGAL + 1], a, NUM_ACTIONS)


@njit(cache=True, inline="always")
def _apply(s, b, cfg, a):
    """Apply legal action ``a`` of the seat to act; in an au cent partie a finished game is
    followed by the next one (only here, once the action's scoring has stopped)."""
    _apply_action(s, b, cfg, a)
    if (
        s.f[b, F_PHASE] == PHASE_OVER
        and cfg[C_GAME] == GAME_AU_CENT
        and cfg[C_AU_CENT_PARTIE]
        and cfg[C_EPISODE] == 0
    ):
        _next_game(s, b, cfg)


@njit(cache=True, inline="always")
def _apply_action(s, b, cfg, a):
    ph = s.f[b, F_PHASE]
    if ph == PHASE_CLAIM:
        s.f[b, F_CB_CLAIM + s.f[b, F_CURRENT]] = 1 if a == ACTION_CLAIM else 0
        _next_claim(s, b, cfg)
    elif ph == PHASE_EXCHANGE:
        seat = s.f[b, F_CURRENT]
        if a == ACTION_STOP:
            _finish_exchange(s, b, cfg)
            return
        card = gid(a - ACTION_DISCARD)
        s.m[b, M_HAND + seat] &= ~bit(card)
        s.m[b, M_DISCARDS + seat] |= bit(card)
        s.f[b, F_NDISC] += 1
        s.f[b, F_LAST_DISC] = a - ACTION_DISCARD
        lo, hi = _exchange_limits(s, b, cfg)
        if s.f[b, F_NDISC] >= hi:
            _finish_exchange(s, b, cfg)
    elif ph == PHASE_LOOK:
        if a == ACTION_LOOK:
            s.f[b, F_LOOKED] = 1
            s.m[b, M_SEEN + s.f[b, F_CURRENT]] |= _leftovers(s, b)
        else:
            s.f[b, F_LOOKED] = 0
        _after_exchange(s, b, cfg)
    elif ph == PHASE_DECLARE:
        _decide(s, b, cfg, a)
    elif ph == PHASE_BID:
        _bid(s, b, cfg, a)
    else:
        _play(s, b, cfg, gid(a - ACTION_PLAY))


@njit(cache=True, inline="always")  # into step_rows; the other callers: observe_row
def _observe(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (length OBS_DIM)."""
    for i in range(O_PHASE, OBS_DIM):
        out[i] = 0.0
    opp = 1 - seat
    _planes(s.m[b, at(M_HAND, seat)], out, O_HAND)
    _planes(s.m[b, at(M_DISCARDS, seat)], out, O_DISC)
    _planes(s.m[b, at(M_SEEN, seat)] & ~s.m[b, at(M_HAND, seat)], out, O_SEEN)
    _planes(s.m[b, at(M_CB_SHOWN, opp)], out, O_OPP_CB)
    _planes(s.m[b, at(M_SHOWN, seat)], out, O_OWN_SHOWN)
    _planes(s.m[b, at(M_SHOWN, opp)], out, O_OPP_SHOWN)
    _planes(s.m[b, at(M_PLAYED, seat)], out, O_OWN_PLAYED)
    _planes(s.m[b, at(M_PLAYED, opp)], out, O_OPP_PLAYED)
    led = s.f[b, F_TRICK_CARD]
    spread(np.int64(1) << lid(led) if led >= 0 else 0, 32, out, O_TRICK)
    out[O_PHASE + s.f[b, F_PHASE]] = 1.0
    out[O_TO_ACT] = 1.0 if s.f[b, F_CURRENT] == seat else 0.0
    elder = _elder(s, b)
    out[O_ELDER] = 1.0 if seat == elder else 0.0
    out[O_XCOUNT] = s.f[b, at(F_XCOUNT, seat)] * (1.0 / 8.0)
    out[O_XCOUNT + 1] = s.f[b, at(F_XCOUNT, opp)] * (1.0 / 8.0)
    out[O_TALON] = (TALON - s.f[b, F_TALON_POS]) * (1.0 / 8.0)
    if s.f[b, F_LOOKED] == 1:
        out[O_LEFT] = 1.0
    elif s.f[b, F_LOOKED] == 0:
        out[O_LEFT + 1] = 1.0
    out[O_CB] = 1.0 if s.f[b, at(F_CB_CLAIM, seat)] == 1 else 0.0
    out[O_CB + 1] = 1.0 if s.f[b, at(F_CB_CLAIM, opp)] == 1 else 0.0
    for c in range(3):
        # a category's outcome is public once it is resolved; elder's calls as he makes them
        w = s.f[b, F_DECL_WIN + c]
        if w != OUTCOME_PENDING:
            k = 0 if w == seat else (1 if w == opp else 2)
            out[O_OUTCOME + 3 * c + k] = 1.0
            out[O_DPTS + 2 * c] = s.v[b, V_DECL_PTS + 3 * seat + c] * (1.0 / 20.0)
            out[O_DPTS + 2 * c + 1] = s.v[b, V_DECL_PTS + 3 * opp + c] * (1.0 / 20.0)
        mode = s.f[b, F_DECL_CALL + c]
        if mode == CALL_ELDER or mode == CALL_ANSWERED or mode == CALL_CONCEDED:
            out[O_DECL_CALLS + 4 * c] = 1.0
        elif mode == CALL_ELDER_SILENT or mode == CALL_YOUNGER or mode == CALL_SILENT:
            out[O_DECL_CALLS + 4 * c + 1] = 1.0
            if mode == CALL_YOUNGER:
                out[O_DECL_CALLS + 4 * c + 2] = 1.0
            elif mode == CALL_SILENT:
                out[O_DECL_CALLS + 4 * c + 3] = 1.0
    out[O_CALLS] = s.f[b, F_CALLS + 0] * (1.0 / 12.0)
    out[O_CALLS + 1] = s.f[b, F_CALLS + 1] * (1.0 / 100.0)
    out[O_CALLS + 2] = s.f[b, F_CALLS + 2] * (1.0 / 8.0)
    out[O_CALLS + 3] = s.f[b, F_CALLS + 3] * (1.0 / 8.0)
    out[O_CALLS + 4] = s.f[b, F_CALLS + 4] * (1.0 / 4.0)
    out[O_CALLS + 5] = s.f[b, F_CALLS + 5] * (1.0 / 8.0)
    for k in range(2):
        who = seat if k == 0 else opp
        if s.f[b, at(F_BONUS, who)] == BONUS_PIQUE:
            out[O_BONUS + 2 * k] = 1.0
        elif s.f[b, at(F_BONUS, who)] == BONUS_REPIQUE:
            out[O_BONUS + 2 * k + 1] = 1.0
    out[O_TRICKS] = s.f[b, at(F_TRICKS, seat)] * (1.0 / 12.0)
    out[O_TRICKS + 1] = s.f[b, at(F_TRICKS, opp)] * (1.0 / 12.0)
    # clipped to the blocks' bounds (only Auction Piquet's largest factors get there)
    out[O_DSCORE] = min(s.v[b, at(V_DEAL_SCORE, seat)] * (1.0 / 100.0), 5.0)
    out[O_DSCORE + 1] = min(s.v[b, at(V_DEAL_SCORE, opp)] * (1.0 / 100.0), 5.0)
    out[O_TOTAL] = min(s.v[b, at(V_TOTAL, seat)] * (1.0 / 100.0), 40.0)
    out[O_TOTAL + 1] = min(s.v[b, at(V_TOTAL, opp)] * (1.0 / 100.0), 40.0)
    n = s.f[b, F_DEAL_NO] - s.f[b, F_REDEALS] - s.f[b, F_GAME_START]
    out[O_DEALNO + min(n, MAX_DEALS - 1)] = 1.0
    k = s.f[b, F_BID]
    if k >= 0:
        out[O_CONTRACT + k] = 1.0
        out[O_CONTRACT_BY + (0 if s.f[b, F_BIDDER] == seat else 1)] = 1.0
    if s.f[b, F_DOUBLED] > 0:
        out[O_DOUBLED + s.f[b, F_DOUBLED] - 1] = 1.0
    if k < 0 and s.f[b, F_BID_ACTS] == 1 and s.f[b, F_PHASE] == PHASE_BID:
        # the first speaker passed; the one to act now is the other
        out[O_PASSED + (1 if s.f[b, F_CURRENT] == seat else 0)] = 1.0
    out[O_REDEALS] = s.f[b, F_REDEALS] * (1.0 / 10.0)
    if cfg[C_AU_CENT_PARTIE] and cfg[C_GAME] == GAME_AU_CENT:
        # no contracts in au cent: its partie standing reuses the ``contract_by`` block
        out[O_CONTRACT_BY] = min(s.f[b, at(F_GAMES_WON, seat)], PARTIE_GAMES_TO_WIN) * (1.0 / 3.0)
        out[O_CONTRACT_BY + 1] = min(s.f[b, at(F_GAMES_WON, opp)], PARTIE_GAMES_TO_WIN) * (
            1.0 / 3.0
        )
    out[O_DOUBLE] = (
        1.0 if (cfg[C_GAME] != GAME_AU_CENT and cfg[C_PARTIE] == 1 and (n == 0 or n == 3)) else 0.0
    )


# --- batched kernels (the only entry points the front ends call) -------------------------------
@njit(cache=True)
def reset_rows(s, cfg, rows, keys, episodes, decks, dealers, obs, mask):
    """Start a partie in each row of ``rows``; write its first observation and mask."""
    for i in range(rows.shape[0]):
        b = rows[i]
        _reset(s, b, cfg, keys[b], episodes[b], decks[b], dealers[b])
        legal_row(s, b, cfg, mask[b])
        observe_row(s, b, cfg, s.f[b, F_CURRENT], obs[b])


@njit(cache=True)
def step_rows(s, cfg, actions, autoreset, obs, mask, rewards, terminated):
    """Apply ``actions[b]`` in every row; write rewards, termination, next observation and mask.

    A row whose game is over (without autoreset) or whose action is illegal is left unchanged.
    """
    s, cfg, obs, mask, rewards = borrowed_step(s, cfg, obs, mask, rewards)  # no refcounting
    no_deck = _NO_DECK
    n = actions.shape[0]
    for lo in range(0, n, STEP_BLOCK):  # a block's state stays in cache for its passes
        hi = min(lo + STEP_BLOCK, n)
        for b in range(lo, hi):
            for seat in range(2):
                rewards[b, seat] = 0.0
            if s.f[b, F_PHASE] == PHASE_OVER:
                continue
            terminated[b] = False
            if not _is_legal(s, b, cfg, actions[b]):  # never trust a buffer the caller could write
                continue
            _apply(s, b, cfg, actions[b])
            if s.f[b, F_PHASE] == PHASE_OVER:
                terminated[b] = True
                _write_rewards(s, b, cfg, rewards[b])
                if autoreset:
                    _reset(s, b, cfg, s.m[b, M_KEY], s.m[b, M_EPISODE] + np.uint64(1), no_deck, -1)
        # the masks and the observations in passes of their own over the rows: each pass keeps
        # one kernel hot (Banque 15% faster than doing everything row by row, the others level)
        for b in range(lo, hi):
            _legal(s, b, cfg, mask[b])
        for b in range(lo, hi):
            prefetch_ahead(obs, b)  # big batches: fetch a later row while this one is written
            _observe(s, b, cfg, s.f[b, F_CURRENT] if s.f[b, F_CURRENT] >= 0 else 0, obs[b])


@njit(cache=True)
def observe_rows(s, cfg, seats, out):
    """Write each row's observation for ``seats[b]`` into ``out[b]``."""
    for b in range(seats.shape[0]):
        observe_row(s, b, cfg, seats[b], out[b])


@njit(cache=True)
def observe_row(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (``_observe`` as a call of its own,
    so that only ``step_rows`` inlines it)."""
    _observe(s, b, cfg, seat, out)


@njit(cache=True)
def legal_row(s, b, cfg, out):
    """Write the legal-action mask of row ``b`` into ``out`` (search on state copies)."""
    _legal(s, b, cfg, out)


@njit(cache=True)
def declare_row(s, b, cfg):
    """Run the declarations of row ``b`` (for the rules helper)."""
    _declare(s, b, cfg)


# --- Python-side helpers -----------------------------------------------------------------------
def result(s: State, b: int, config: Config) -> dict:
    """JSON-able result of the finished episode in row ``b`` (an au cent partie adds the games
    won per seat and the games played; its ``totals`` are the last game's)."""
    w = int(s.f[b, F_WINNER])
    cfg = config.to_array()
    out = {
        "winner": None if w < 0 else w,
        "points": int(s.v[b, V_RESULT_POINTS]),
        "totals": s.v[b, V_TOTAL : V_TOTAL + 2].tolist(),
        "deals": int(s.f[b, F_DEAL_NO]) + 1 - int(s.f[b, F_REDEALS]),
    }
    if cfg[C_GAME] == GAME_AUCTION:
        out["redeals"] = int(s.f[b, F_REDEALS])
    if cfg[C_GAME] == GAME_AU_CENT and cfg[C_AU_CENT_PARTIE] and cfg[C_EPISODE] == 0:
        out["games_won"] = s.f[b, F_GAMES_WON : F_GAMES_WON + 2].tolist()
        out["games"] = int(s.f[b, F_GAMES])
    return out


def auction_deal_extras(s: State, b: int, config) -> dict:
    """Auction Piquet: the finished deal's contract (``None`` for a redeal)."""
    k, decl, dbl = (int(x) for x in s.f[b, F_LAST_CONTRACT : F_LAST_CONTRACT + 3])
    if k < 0:
        return {"contract": None}
    return {"contract": ACTION_NAMES[ACTION_BID + k][4:], "declarer": decl, "doubled": dbl}


def deck_strings(s: State, b: int) -> list[str]:
    """The current deal's deck order (elder 12, younger 12, talon from the top)."""
    return format_cards(s.f[b, F_DECK : F_DECK + NUM_CARDS]).split()


# --- determinization (search on copies, cardenvs.core.sim) -------------------------------------
DETERMINIZE_TRIES = 200
_SUIT_MASKS = tuple(0xFF << (suit * 13 + 5) for suit in range(4))
_ALL_CARDS = sum(_SUIT_MASKS)
_FACES = sum(0x70 << (suit * 13 + 5) for suit in range(4))  # J, Q, K (carte blanche, 2.3)
# what the declarations made public: (state array, offset, size)
_DECL_PUBLIC = (("f", F_DECL_WIN, 3), ("f", F_CALLS, 6), ("v", V_DECL_PTS, 6), ("m", M_SHOWN, 2))
# what the declarations depend on besides the hands (copied to the checking state)
_DECL_CONTEXT = ("dealer", "swapped", "cb_claim", "decl_call", "total", "bid")


def _mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def _cards_of(m: int) -> list[int]:
    return [c for c in range(64) if (m >> c) & 1]


def _point_suit_exclusion(s: State, b: int, opp: int, elder: int) -> int:
    """Cards that cannot be in ``opp``'s hand because his point suit was shown whole.

    When ``opp`` won the point (or it was equal), all his cards of his point suit are among his
    ``shown`` cards. If exactly one suit's shown cards match what is public about his point
    (elder's call of the count; else his points for it: the count, or one less under
    ``point_ending_in_4_minus_one``), that is the suit and its other cards are excluded. (A
    speed-up only: the declaration check after the draw enforces the point anyway.)
    """
    w = int(s.f[b, F_DECL_WIN + CAT_POINT])
    if w != opp and w != OUTCOME_EQUAL:
        return 0
    shown = int(s.m[b, M_SHOWN + opp])
    if opp == elder or w == OUTCOME_EQUAL:
        counts = (int(s.f[b, F_CALLS + 0]),)
    else:
        pts = int(s.v[b, V_DECL_PTS + 3 * opp + CAT_POINT])
        counts = (pts, pts + 1)
    suits = [k for k in range(4) if (shown & _SUIT_MASKS[k]).bit_count() in counts]
    return _SUIT_MASKS[suits[0]] & ~shown if len(suits) == 1 else 0


def _declared_exclusion(s: State, b: int, opp: int, cfg_sets: int) -> int:
    """Cards ``opp`` cannot have held after the exchange because he would have shown them: a
    sequence winner shows all his sequences (so not the card just above or below a shown run of
    three or more), a sets winner all his sets (so not the fourth card of a shown trio)."""
    shown = int(s.m[b, M_SHOWN + opp])
    out = 0
    if int(s.f[b, F_DECL_WIN + CAT_SEQUENCE]) == opp:
        for suit in range(4):
            bits = int(_suit_bits(np.uint64(shown), suit))
            r = 0
            while r < 8:
                start = r
                while r < 8 and (bits >> r) & 1:
                    r += 1
                if r - start >= 3:
                    for x in (start - 1, r):
                        if 0 <= x < 8:
                            out |= 1 << (suit * 13 + 5 + x)
                r += 1
    if int(s.f[b, F_DECL_WIN + CAT_SETS]) == opp:
        for r in range(3, (7 if cfg_sets == 0 else 6) + 1):
            rank = sum(1 << (suit * 13 + 5 + r) for suit in range(4))
            if (shown & rank).bit_count() == 3:
                out |= rank & ~shown
    return out


def _point_cap(s: State, b: int, opp: int, elder: int) -> int:
    """The most cards of one suit ``opp`` can have held after the exchange, by the point: elder
    called his count; younger had at most elder's count unless he won the point, and then his
    point suit is shown whole (at most the longest suit among his shown cards)."""
    if opp != elder and int(s.f[b, F_DECL_WIN + CAT_POINT]) == opp:
        shown = int(s.m[b, M_SHOWN + opp])
        return max((shown & m).bit_count() for m in _SUIT_MASKS)
    return int(s.f[b, F_CALLS + 0])


def _fill(slots, pool: int, rng, caps=None) -> dict[int, int] | None:
    """Give each slot ``(position, allowed cards, in his hand)`` its own card of ``pool``, the
    most constrained slots first, each uniformly among the cards left that it allows (uniform
    over the valid assignments when the allowed sets are nested, as they are here) and, with
    ``caps`` (cards per suit his hand may still take), whose suit is not full yet; ``None`` if
    a slot finds no card."""
    left = _cards_of(pool)
    if len(left) != len(slots):
        raise RuntimeError(f"piquet determinize: {len(left)} cards for {len(slots)} places")
    left = [left[i] for i in rng.permutation(len(left))]
    out = {}
    for p, allowed, in_hand in sorted(slots, key=lambda slot: (slot[1] & pool).bit_count()):
        if caps is not None and in_hand:
            allowed &= sum(m for m, n in zip(_SUIT_MASKS, caps, strict=True) if n > 0)
        options = [k for k, c in enumerate(left) if (allowed >> c) & 1]
        if not options:
            return None
        out[p] = c = left.pop(options[int(rng.integers(len(options)))])
        if caps is not None and in_hand:
            caps[c // 13] -= 1
    return out


def determinize(s: State, b: int, config: Config, seat: int, rng) -> None:
    """Redraw in place what ``seat`` cannot see in row ``b``, consistently with what it saw.

    Redrawn (the opponent ``opp = 1 - seat``'s private information and the unseen talon): the
    cards of ``opp``'s dealt hand that ``seat`` does not know, which of them he discarded (as
    many as he did), the talon cards ``seat`` has not seen, position by position (the cards still
    to be drawn, those ``opp`` drew, the leftovers nobody or only ``opp`` looked at), and the row
    key (so the next deals of a partie are unknown too). Everything derived from them is
    recomputed: ``opp``'s ``hand``, ``dealt``, ``discards`` and ``seen`` (his untaken cards of
    the five, the leftovers if he looked), his ``cb`` flag, the deck order and, while ``opp`` is
    discarding, ``last_disc``.

    Kept (the seat's own or public): its own hand, dealt hand, discards and draws; every talon
    card it saw, at its position (the untaken cards of its five even where ``opp`` then drew
    them, the leftovers once seen); every card played; the cards shown in declarations and a
    shown carte blanche (``opp``'s dealt hand is then kept exactly and only which of its cards
    he discarded is drawn); all counts, claims, calls, outcomes, scores and voids. Each hand
    keeps its size and the talon its structure (who drew which positions), so every card stays
    once.

    Constraints enforced on ``opp``'s redrawn cards:

    - voids shown in trick play (the ``void`` state field): he holds no card of a suit he failed
      to follow;
    - the cards he played or showed were in his hand after the exchange (kept from his dealt
      hand or drawn from the talon positions he drew);
    - carte blanche: a claimed one (no K, Q, J dealt) before it is shown; with
      ``carte_blanche_auto`` an unclaimed dealt hand holds a K, Q or J;
    - declarations: once made, the two hands after the exchange must give exactly the same
      outcomes, points, elder's calls and shown cards (so a winner holds no card that would have
      lengthened what he showed, a loser's combinations stay below the winner's, and elder's
      point count and best sequence and set are the ones he called).

    Knowingly left out (strategy, not rules: the search's business): what ``opp``'s choices say
    about his cards (which and how many he discarded, whether he looked, declining an optional
    carte blanche, which card he played when he had a choice).

    The draw is a constructive assignment (the cards known to be in his hand, including a
    quatorze elder called, take random places in it; then every hidden place gets a card it may
    hold, the most constrained first: no void suit, no claimed-carte-blanche face card, no card
    his shown point, sequences or sets rule out, no suit longer than the point allows) with
    rejection of draws that fail the carte-blanche or declaration checks, up to
    ``DETERMINIZE_TRIES`` tries; if all fail, the true hidden cards are kept (an information leak
    to the search in that rare case, about 1 draw in 5000 in trick play; never an inconsistent
    state). Uniform over the consistent states up to the suit caps' greedy fill.
    """
    opp = 1 - seat
    ph = int(s.f[b, F_PHASE])
    dealt_elder = 1 - int(s.f[b, F_DEALER])  # who was dealt the deck's first twelve
    elder = int(_elder(s, b))  # elder's role in the declarations (an Auction declarer's, maybe)
    s.m[b, M_KEY] = np.uint64(int(rng.integers(0, 2**63 - 1, dtype=np.int64)))
    # who drew each talon position: the first exchanger from the top, then the second (2.4);
    # roles changed by the auction apply to the exchange only when the bidding came first
    cfg_all = config.to_array()  # once: building it walks the dataclass fields
    x_elder = elder if cfg_all[C_GAME] == GAME_AUCTION and cfg_all[C_BIDDING] == 1 else dealt_elder
    x1 = 1 - x_elder if config.first_exchanger == "dealer" else x_elder
    x1_done = int(s.f[b, F_EXCH]) >= 1
    k1 = int(s.f[b, F_XCOUNT + x1]) if x1_done else 0
    k2 = int(s.f[b, F_XCOUNT + 1 - x1]) if int(s.f[b, F_EXCH]) >= 2 else 0
    drawer = [x1] * k1 + [1 - x1] * k2 + [-1] * (TALON - k1 - k2)
    deck = [int(c) for c in s.f[b, F_DECK : F_DECK + NUM_CARDS]]
    opp_first = 0 if opp == dealt_elder else HAND
    own_first = HAND - opp_first
    fixed = _mask_of(deck[own_first : own_first + HAND])  # what the seat knows the place of
    seen_me = int(s.m[b, M_SEEN + seat])
    opp_drew, to_pos, tu_pos = [], [], []  # talon: opp drew / unseen and opp drew / unseen
    for j in range(TALON):
        p = 2 * HAND + j
        if drawer[j] == opp:
            opp_drew.append(p)
        if drawer[j] == seat or (seen_me >> deck[p]) & 1:
            fixed |= 1 << deck[p]
        elif drawer[j] == opp:
            to_pos.append(p)
        else:
            tu_pos.append(p)
    played = int(s.m[b, M_PLAYED + opp])
    held = (played | int(s.m[b, M_SHOWN + opp])) & ~fixed  # in his hand after the exchange
    dealt_known = int(s.m[b, M_CB_SHOWN + opp])
    n_disc = int(s.m[b, M_DISCARDS + opp]).bit_count()
    opp_pos = list(range(opp_first, opp_first + HAND))
    kept_pos, disc_pos = opp_pos[: HAND - n_disc], opp_pos[HAND - n_disc :]
    banned = 0  # cards he cannot hold now
    for suit in range(4):
        if (int(s.f[b, F_VOID + opp]) >> suit) & 1:
            banned |= _SUIT_MASKS[suit]
    # declarations made (some or all: sinking resolves one category at a time)
    check_decl = (
        ph == PHASE_DECLARE or int(s.f[b, F_DECL_WIN + CAT_POINT]) != OUTCOME_PENDING
    ) and ph != PHASE_OVER
    if check_decl:
        banned |= _point_suit_exclusion(s, b, opp, elder)
        banned |= _declared_exclusion(s, b, opp, cfg_all[C_SET_RANKS])
        if opp == elder and int(s.f[b, F_CALLS + 4]) == 4:  # he called a quatorze
            r = int(s.f[b, F_CALLS + 5]) - 1
            held |= sum(1 << (suit * 13 + 5 + r) for suit in range(4)) & ~fixed
    free = _ALL_CARDS & ~fixed & ~held & ~dealt_known
    may_hold = _ALL_CARDS & ~banned
    caps = None  # cards per suit his hand after the exchange may still take (the point)
    # the point caps his suits only when both declared their best point (no sinking: a
    # concession or a sunk point says nothing about the suit lengths)
    if check_decl and not dealt_known and not cfg_all[C_SINKING] and int(s.f[b, F_CALLS + 0]) > 0:
        known_after = held | _mask_of(deck[p] for p in opp_drew if (fixed >> deck[p]) & 1)
        cap = _point_cap(s, b, opp, elder)
        caps = [cap - (known_after & m).bit_count() for m in _SUIT_MASKS]
    claim = int(s.f[b, F_CB_CLAIM + opp])
    dealt_ok = _ALL_CARDS & ~_FACES if claim == 1 else _ALL_CARDS
    needs_face = (
        claim == 0
        and config.carte_blanche_auto
        and not (cfg_all[C_GAME] == GAME_AUCTION and cfg_all[C_READING] == READ_NO_CB)
    )
    if check_decl:
        t = new_state(1)
        for name in _DECL_CONTEXT:
            LAYOUT.field(t, name)[0] = LAYOUT.field(s, name)[b]
        t.m[0, M_HAND + seat] = s.m[b, M_HAND + seat] | s.m[b, M_PLAYED + seat]
        want = [getattr(s, a)[b, o : o + n].copy() for a, o, n in _DECL_PUBLIC]
    for _ in range(DETERMINIZE_TRIES):
        if dealt_known:
            # his dealt hand is public: draw which of its cards he kept (those he played or
            # showed among them) and discarded, then the unseen talon
            kept_known, talon_known = _cards_of(held & dealt_known), _cards_of(held & ~dealt_known)
            if len(kept_known) > len(kept_pos) or len(talon_known) > len(to_pos):
                return  # cannot happen in a reachable state
            at = dict(zip(kept_pos, kept_known, strict=False))
            shuffled = [to_pos[i] for i in rng.permutation(len(to_pos))]
            at.update(zip(shuffled, talon_known, strict=False))
            slots = [(p, may_hold, True) for p in kept_pos[len(kept_known) :]]
            slots += [(p, _ALL_CARDS, False) for p in disc_pos]
            got = _fill(slots, dealt_known & ~held, rng)
            if got is None:
                continue
            at.update(got)
            slots = [(p, may_hold, True) for p in to_pos if p not in at]
            got = _fill(slots + [(p, _ALL_CARDS, False) for p in tu_pos], free, rng)
            if got is None:
                continue
            at.update(got)
        else:
            # the cards he played or showed take random places in his hand after the exchange
            places = kept_pos + to_pos
            known = _cards_of(held)
            if len(known) > len(places):
                return  # cannot happen in a reachable state
            at = dict(zip([places[i] for i in rng.permutation(len(places))], known, strict=False))
            slots = [(p, dealt_ok & may_hold, True) for p in kept_pos if p not in at]
            slots += [(p, dealt_ok, False) for p in disc_pos]
            slots += [(p, may_hold, True) for p in to_pos if p not in at]
            slots += [(p, _ALL_CARDS, False) for p in tu_pos]
            got = _fill(slots, free, rng, None if caps is None else list(caps))
            if got is None:
                continue
            at.update(got)
        new = list(deck)
        for p, c in at.items():
            new[p] = c
        dealt = _mask_of(new[p] for p in opp_pos)
        if needs_face and not dealt & _FACES:
            continue
        after = _mask_of(new[p] for p in kept_pos + opp_drew)  # his hand after the exchange
        if check_decl:
            t.m[0, M_HAND + opp] = np.uint64(after)
            t.m[0, M_SHOWN : M_SHOWN + 2] = 0
            t.v[0, V_DECL_PTS : V_DECL_PTS + 6] = 0
            t.v[0, V_DEAL_SCORE : V_DEAL_SCORE + 2] = 0
            t.f[0, F_BONUS : F_BONUS + 2] = 0
            t.f[0, F_CALLS : F_CALLS + 6] = 0
            t.f[0, F_DECL_WIN : F_DECL_WIN + 3] = OUTCOME_PENDING
            t.f[0, F_PHASE] = PHASE_PLAY
            declare_row(t, 0, cfg_all)
            if not all(
                np.array_equal(getattr(t, a)[0, o : o + n], w)
                for (a, o, n), w in zip(_DECL_PUBLIC, want, strict=True)
            ):
                continue
        break
    else:
        return  # no consistent draw found: keep the true hidden cards
    disc = _mask_of(new[p] for p in disc_pos)
    s.f[b, F_DECK : F_DECK + NUM_CARDS] = new
    s.m[b, M_DEALT + opp] = np.uint64(dealt)
    s.m[b, M_DISCARDS + opp] = np.uint64(disc)
    s.m[b, M_HAND + opp] = np.uint64(after & ~played)
    s.f[b, F_CB + opp] = 0 if dealt & _FACES else 1
    seen = 0
    if x1_done and opp == x1:  # the untaken cards of his five
        seen |= _mask_of(new[2 * HAND + j] for j in range(k1, ELDER_MAX))
    if int(s.f[b, F_LOOKED]) == 1 and (opp != x1 or int(s.m[b, M_PLAYED + seat]) | played):
        seen |= _mask_of(new[2 * HAND + j] for j in range(k1 + k2, TALON))  # the leftovers
    s.m[b, M_SEEN + opp] = np.uint64(seen)
    if ph == PHASE_EXCHANGE and int(s.f[b, F_CURRENT]) == opp:
        s.f[b, F_LAST_DISC] = int(lid(max(_cards_of(disc)))) if disc else -1


# --- rules helpers (public) --------------------------------------------------------------------
def _hand_mask(cards, who: str) -> int:
    ids = [DECK.check_card(c) for c in (cards.split() if isinstance(cards, str) else cards)]
    if len(ids) != HAND or len(set(ids)) != HAND:
        raise ValueError(
            f"{who} must hold {HAND} distinct piquet cards, got "
            f"{len(ids)} ({len(set(ids))} distinct)"
        )
    m = 0
    for c in ids:
        m |= 1 << c
    return m


def declarations(elder, younger, carte_blanche=None, **config) -> dict:
    """Score the declarations of two hands after the exchange (spec 2.3, 2.5, 2.6).

    Args:
        elder: elder's 12 cards (card strings, or one space-separated string).
        younger: younger's 12 cards.
        carte_blanche: ``(elder_has, younger_has)``; by default judged on the hands given
            (carte blanche is judged on the dealt hand, so pass it when the hands differ).
        **config: ``Config`` options (e.g. ``set_ranks="KQJT"``).

    Returns:
        ``{"carte_blanche": {"elder": 0|10, "younger": 0|10}, "point": {"winner": w,
        "points": n}, "sequence": {...}, "sets": {...}, "repique": w, "elder_total": n,
        "younger_total": n}`` with ``w`` in ``"elder"``, ``"younger"``, ``None``; totals are the
        hand scores before play, repique included.
    """
    cfg = Config.from_kwargs(**config).to_array()
    me, my = _hand_mask(elder, "elder"), _hand_mask(younger, "younger")
    if me & my:
        raise ValueError(f"elder and younger share cards: {format_cards(_mask_cards(me & my))}")
    s = new_state(1)
    s.f[0, F_DEALER] = 1  # elder = seat 0
    s.m[0, M_HAND], s.m[0, M_HAND + 1] = me, my
    if carte_blanche is None:
        cb = tuple(not _holds_face_card(np.uint64(m)) for m in (me, my))
    else:
        if len(carte_blanche) != 2:
            raise ValueError("carte_blanche must be a pair (elder_has, younger_has)")
        cb = tuple(bool(x) for x in carte_blanche)
    s.f[0, F_CB : F_CB + 2] = cb
    s.f[0, F_CB_CLAIM : F_CB_CLAIM + 2] = cb
    s.f[0, F_DECL_WIN : F_DECL_WIN + 3] = OUTCOME_NONE
    declare_row(s, 0, cfg)
    names = ("elder", "younger")

    def who(w):
        return names[w] if w in (0, 1) else None

    out = {"carte_blanche": {n: CARTE_BLANCHE * int(cb[i]) for i, n in enumerate(names)}}
    for c, name in ((CAT_POINT, "point"), (CAT_SEQUENCE, "sequence"), (CAT_SETS, "sets")):
        w = int(s.f[0, F_DECL_WIN + c])
        pts = int(s.v[0, V_DECL_PTS + 3 * w + c]) if w in (0, 1) else 0
        out[name] = {"winner": who(w), "points": pts, "equal": w == OUTCOME_EQUAL}
    rep = [i for i in (0, 1) if s.f[0, F_BONUS + i] == BONUS_REPIQUE]
    out["repique"] = who(rep[0]) if rep else None
    out["elder_total"] = int(s.v[0, V_DEAL_SCORE])
    out["younger_total"] = int(s.v[0, V_DEAL_SCORE + 1])
    return out


def _mask_cards(m: int) -> list[int]:
    return [c for c in range(64) if (m >> c) & 1]


def partie_result(score_a: int, score_b: int, rubicon: int = 100) -> dict:
    """Result of a partie (spec 2.10): ``{"winner": 0 | 1 | None, "points": int}``.

    If the loser has at least ``rubicon`` points the winner scores the difference plus
    ``rubicon``; if the loser was rubiconed, the sum plus ``rubicon``. A tie is a draw (0).
    """
    for name, v in (("score_a", score_a), ("score_b", score_b), ("rubicon", rubicon)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {v!r}")
    w, pts = partie_points(int(score_a), int(score_b), int(rubicon))
    return {"winner": None if w < 0 else int(w), "points": int(pts)}
