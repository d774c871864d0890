"""Two-handed Piquet's options: ``KernelOptions`` (every option the kernels read, in kernel
order), each id's config class (``Config`` for ``piquet-v0``, ``AuCentConfig``,
``AuctionConfig``), the kernel array's indices (``C_...``) and the choice codes.

Rules: ``docs/games/piquet.md`` sections 4 (choices A1-A23) and 8 (the options of each id).
"""

from __future__ import annotations

import dataclasses

from ...core.game import GameConfig, option
from .constants import PARTIE_MAX_DEALS, PARTIE_MAX_GAMES


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
    legacy_tie_break: bool = option(
        False,
        doc="old records only: the partie ended after the first tie-break deal once that deal "
        "broke the tie (the engine before 2.10's fix; records without this option replay with "
        "it); not a rule",
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
    """Base of the two-handed ids' configs: the kernel array is laid out by ``KernelOptions``
    (``GameConfig.KERNEL``); an id's ``FIXED`` holds the kernel values of the options it does not
    offer, its ``LATER`` the options added after its first release."""

    KERNEL = KernelOptions

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
    legacy_tie_break: bool = _opt("legacy_tie_break")

    FIXED = {"game": "partie"}
    LATER = ("allow_sinking",)
    # records made before the tie-break fix (2.10: both extra deals are played) have no
    # legacy_tie_break and replay with the old end
    RECORD_DEFAULTS = {"legacy_tie_break": True}


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
    legacy_tie_break: bool = _opt("legacy_tie_break")

    FIXED = {"game": "auction"}
    LATER = ("declarer_becomes_elder",)
    RECORD_DEFAULTS = {"legacy_tie_break": True}  # as piquet-v0's Config

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
C_YOUNGER_MIN_EXCHANGE = Config.index("younger_min_exchange")
C_LOW_CARDS_SCORE_IN_PLAY = Config.index("low_cards_score_in_play")
C_POINT_ENDING_IN_4_MINUS_ONE = Config.index("point_ending_in_4_minus_one")
C_CARDS_BONUS_COUNTS_FOR_PIQUE = Config.index("cards_bonus_counts_for_pique")
C_PARTIE = Config.index("partie")
C_RUBICON = Config.index("rubicon")
C_CARTE_BLANCHE_AUTO = Config.index("carte_blanche_auto")
C_TRICK_SCORING = Config.index("trick_scoring")
C_GAME = Config.index("game")
C_ELDER_CALLS_IN_FULL = Config.index("elder_calls_in_full")
C_TARGET = Config.index("target")
C_AU_CENT_END = Config.index("au_cent_end")
C_DOUBLE_BELOW = Config.index("double_below")
C_MAX_DEALS = Config.index("max_deals")
C_ALLOW_SINKING = Config.index("allow_sinking")
C_AUCTION_SENTENCE_READING = Config.index("auction_sentence_reading")
C_FIRST_BIDDER = Config.index("first_bidder")
C_BIDDING = Config.index("bidding")
C_MINUS_OUTRANKS_PLUS_AT_EQUAL_LEVEL = Config.index("minus_outranks_plus_at_equal_level")
C_PIQUE_PLUS = Config.index("pique_plus")
C_PIQUE_MINUS = Config.index("pique_minus")
C_REPIQUE_PLUS = Config.index("repique_plus")
C_REPIQUE_MINUS = Config.index("repique_minus")
C_AUCTION_LAST_TRICK_EXTRA = Config.index("auction_last_trick_extra")
C_AUCTION_MAKE_BONUS = Config.index("auction_make_bonus")
C_DOUBLE_FACTOR = Config.index("double_factor")
C_REDOUBLE_FACTOR = Config.index("redouble_factor")
C_MINUS_COMBINATIONS = Config.index("minus_combinations")
C_MAX_REDEALS = Config.index("max_redeals")
C_DECLARER_BECOMES_ELDER = Config.index("declarer_becomes_elder")
C_AU_CENT_PARTIE = Config.index("au_cent_partie")
C_LEGACY_TIE_BREAK = Config.index("legacy_tie_break")
GAME_AUCTION = 2
READ_NO_SINKING, READ_NO_CB, READ_NO_OPENING_PASS, READ_NO_EXCHANGE = 0, 1, 2, 3
GAME_PARTIE, GAME_AU_CENT = 0, 1


# --- named choice codes: the int the kernels see for a choice (``GameConfig.code``) -------
AU_CENT_END_IMMEDIATE = KernelOptions.code("au_cent_end", "immediate")
BIDDING_AFTER_EXCHANGE = KernelOptions.code("bidding", "after_exchange")
BIDDING_BEFORE_EXCHANGE = KernelOptions.code("bidding", "before_exchange")
FIRST_BIDDER_ELDER = KernelOptions.code("first_bidder", "elder")
FIRST_EXCHANGER_DEALER = KernelOptions.code("first_exchanger", "dealer")
MINUS_COMBINATIONS_NONE = KernelOptions.code("minus_combinations", "none")
PARTIE_FOUR_DEALS = KernelOptions.code("partie", "four_deals")
PARTIE_SIX_DEALS = KernelOptions.code("partie", "six_deals")
TRICK_SCORING_TEN_FOR_LAST = KernelOptions.code("trick_scoring", "ten_for_last")
