"""Piquet (two-handed Rubicon Piquet): the rules, as numba kernels over batched NumPy state.

Specification: ``shared/rules/piquet.md`` (sections 2, 4 and 6), reconstructed from the seed
``shared/seeds/003_69dfc7877d8f4273.txt`` ("Streikposten", a Russian → German machine
translation of "Пикет"). Every rule below cites the spec section it comes from.

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
- Declarations (2.5), resolved automatically (no sinking, A3): point (count, then total value;
  1 per card), sequence (length, then top card; 3, 4, then n + 10; the winner scores all his
  sequences; an equal best cancels all), sets of A, K, Q, J, 10 (quatorze 14 beats trio 3, then
  rank; the winner scores all his sets). The cards of scored or equal combinations become public,
  and so does what elder calls (his point count, his best sequence's length, his best set).
- Pique and repique (2.6) in the reckoning order carte blanche, point, sequences, sets, play:
  30 in hand alone before the opponent scores anything → +60 (repique, either player); elder
  reaching 30 in hand and play before younger scores anything → +30 (pique). Equalities do not
  save; capot and (by default) the cards bonus do not count toward pique.
- Play (2.7, 2.8): elder leads; follow suit if able; the higher card of the led suit wins; the
  winner leads. 1 for each card led, 1 for winning a trick the opponent led, +1 for the last
  trick, 10 for 7+ tricks, 40 instead for all 12 (capot); 6–6 scores nothing.
- Partie (2.10): six deals; tied totals → two more deals, then a draw. Rubicon: if the loser has
  at least 100, the winner scores (W − L) + 100, else (W + L) + 100.

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

Episodes and rewards
--------------------
| ``episode`` | ``reward`` | reward at the end, per seat |
|---|---|---|
| ``"game"`` (default) | ``"win"`` (default) | +1 partie won, −1 lost, 0 drawn |
| ``"game"`` | ``"score"`` | ± the Rubicon result (winner +points, loser −points) |
| ``"deal"`` | ``"win"`` | +1 / −1 / 0 by the deal's points |
| ``"deal"`` | ``"score"`` | own deal points − opponent's deal points |

Rewards are zero-sum and paid on the step that ends the episode.

Actions (67)
------------
| ids | name | when |
|---|---|---|
| 0–31 | ``discard <card>`` | exchanging; card index above the last discard |
| 32–63 | ``play <card>`` | trick play; must follow suit if able |
| 64 | ``stop`` | end one's discards (at least the minimum made) |
| 65 | ``look`` | younger, after the exchange, when cards are left |
| 66 | ``dont_look`` | likewise |

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
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np
from numba import njit

from ...core import rng
from ...core.cards import Deck, format_card, format_cards, piquet_deck
from ...core.game import GameConfig, GameDef, ObsField, layout_offsets, layout_table, option

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
NUM_ACTIONS = 67
ACTION_NAMES = tuple(
    [f"discard {format_card(c)}" for c in DECK.cards.tolist()]
    + [f"play {format_card(c)}" for c in DECK.cards.tolist()]
    + ["stop", "look", "dont_look"]
)

# --- phases ------------------------------------------------------------------------------------
PHASE_EXCHANGE = 0
PHASE_LOOK = 1
PHASE_PLAY = 2
PHASE_OVER = 3
PHASE_NAMES = ("exchange", "look", "play", "over")

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
OUTCOME_NONE, OUTCOME_EQUAL = 2, 3  # 0/1 = the winning seat
# bonus codes
BONUS_PIQUE, BONUS_REPIQUE = 1, 2


@dataclasses.dataclass(frozen=True)
class Config(GameConfig):
    """Piquet rule options (spec section 4). See the module docstring for the table."""

    first_exchanger: str = option(
        "elder", ("elder", "dealer"), doc="who exchanges first (A1; 'dealer' = seed literal)")
    set_ranks: str = option(
        "AKQJT", ("AKQJT", "KQJT"), doc="ranks that form trios/quatorzes (A2; 'KQJT' = seed)")
    younger_min_exchange: int = option(1, low=0, high=1, doc="younger's minimum exchange (A4)")
    low_cards_score_in_play: bool = option(
        True, doc="9/8/7 score when leading or capturing (A6)")
    point_ending_in_4_minus_one: bool = option(
        False, doc="a point of value 34/44/... scores one less (A7)")
    cards_bonus_counts_for_pique: bool = option(
        False, doc="the 10 for the cards counts toward pique once 7 tricks are won (A11)")
    partie: str = option(
        "six_deals", ("six_deals", "four_deals"),
        doc="six deals, or four with the 1st and 4th doubled (2.10)")
    rubicon: int = option(100, low=0, high=1000, doc="Rubicon threshold and game bonus (2.10)")


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


class State(NamedTuple):
    """Batched Piquet state; every field has a leading batch axis ``N``."""

    key: np.ndarray  # (N,) uint64: the row's random key (from the seed)
    episode: np.ndarray  # (N,) int64: episode index since the last seeding
    deal_no: np.ndarray  # (N,) int8: current deal of the partie, 0-based
    dealer: np.ndarray  # (N,) int8: seat of the dealer (younger); elder = 1 - dealer
    current: np.ndarray  # (N,) int8: seat to act, -1 when the game is over
    phase: np.ndarray  # (N,) int8: PHASE_*
    deck: np.ndarray  # (N, 32) int8: this deal's deck order (elder 12, younger 12, talon 8)
    hand: np.ndarray  # (N, 2) uint64: cards held per seat
    dealt: np.ndarray  # (N, 2) uint64: the hands as dealt (carte blanche is judged on these)
    discards: np.ndarray  # (N, 2) uint64: cards each seat discarded this deal
    seen: np.ndarray  # (N, 2) uint64: talon cards each seat has seen and does not hold
    shown: np.ndarray  # (N, 2) uint64: public cards of each seat's scored or equal combinations
    cb_shown: np.ndarray  # (N, 2) uint64: a carte-blanche holder's dealt hand, once public
    played: np.ndarray  # (N, 2) uint64: cards each seat has played this deal
    cb: np.ndarray  # (N, 2) int8: 1 if the seat holds carte blanche (public)
    xcount: np.ndarray  # (N, 2) int8: cards exchanged per seat (public)
    exch: np.ndarray  # (N,) int8: 0 = first exchanger's turn, 1 = second's
    ndisc: np.ndarray  # (N,) int8: cards discarded so far in the current exchange
    last_disc: np.ndarray  # (N,) int8: card index of the last discard (-1 none)
    talon_pos: np.ndarray  # (N,) int8: index of the next talon card to draw
    looked: np.ndarray  # (N,) int8: -1 undecided / no leftovers, 0 did not look, 1 looked
    trick_card: np.ndarray  # (N,) int8: card led to the current trick, -1 if none
    trick_leader: np.ndarray  # (N,) int8: seat that led the current trick
    tricks: np.ndarray  # (N, 2) int8: tricks won this deal
    decl_win: np.ndarray  # (N, 3) int8: per category, winning seat / OUTCOME_NONE / _EQUAL
    decl_pts: np.ndarray  # (N, 2, 3) int16: points per seat per category this deal
    calls: np.ndarray  # (N, 6) int8: elder's public calls (see _declare)
    bonus: np.ndarray  # (N, 2) int8: BONUS_PIQUE / BONUS_REPIQUE won this deal
    deal_score: np.ndarray  # (N, 2) int16: points scored this deal
    total: np.ndarray  # (N, 2) int16: partie totals
    last_points: np.ndarray  # (N, 2) int16: what the last finished deal added to the totals
    result_points: np.ndarray  # (N,) int16: Rubicon result of the finished partie (0 if drawn)
    winner: np.ndarray  # (N,) int8: winning seat of the finished episode, -1 drawn


def new_state(n: int) -> State:
    """Allocate a zeroed state for ``n`` games."""
    z = np.zeros
    return State(
        key=z(n, np.uint64), episode=z(n, np.int64), deal_no=z(n, np.int8),
        dealer=z(n, np.int8), current=z(n, np.int8), phase=z(n, np.int8),
        deck=z((n, NUM_CARDS), np.int8), hand=z((n, 2), np.uint64), dealt=z((n, 2), np.uint64),
        discards=z((n, 2), np.uint64), seen=z((n, 2), np.uint64), shown=z((n, 2), np.uint64),
        cb_shown=z((n, 2), np.uint64), played=z((n, 2), np.uint64), cb=z((n, 2), np.int8),
        xcount=z((n, 2), np.int8), exch=z(n, np.int8), ndisc=z(n, np.int8),
        last_disc=z(n, np.int8), talon_pos=z(n, np.int8), looked=z(n, np.int8),
        trick_card=z(n, np.int8), trick_leader=z(n, np.int8), tricks=z((n, 2), np.int8),
        decl_win=z((n, 3), np.int8), decl_pts=z((n, 2, 3), np.int16), calls=z((n, 6), np.int8),
        bonus=z((n, 2), np.int8), deal_score=z((n, 2), np.int16), total=z((n, 2), np.int16),
        last_points=z((n, 2), np.int16), result_points=z(n, np.int16), winner=z(n, np.int8),
    )


# --- observation layout (spec 6.2: what each seat may know) ------------------------------------
OBS_LAYOUT = (
    ObsField("hand", 32, 1.0, "own hand"),
    ObsField("own_discards", 32, 1.0, "own discards this deal"),
    ObsField("talon_seen", 32, 1.0,
             "talon cards seen and not held: elder's untaken five; leftovers looked at "
             "(by younger at once, by both after elder's first lead)"),
    ObsField("opp_carte_blanche", 32, 1.0, "opponent's dealt hand, once his carte blanche "
             "is shown (after own exchange)"),
    ObsField("own_shown", 32, 1.0, "own cards of scored or equal combinations"),
    ObsField("opp_shown", 32, 1.0, "opponent's cards of scored or equal combinations"),
    ObsField("own_played", 32, 1.0, "cards own seat played this deal"),
    ObsField("opp_played", 32, 1.0, "cards the opponent played this deal"),
    ObsField("trick_lead", 32, 1.0, "card led to the current trick (if any)"),
    ObsField("phase", 4, 1.0, "one-hot: exchange, look, play, over"),
    ObsField("to_act", 1, 1.0, "1 if the observing seat is to act"),
    ObsField("is_elder", 1, 1.0, "1 if the observing seat is elder this deal"),
    ObsField("exchanged", 2, 1.0, "cards exchanged by own / opponent, / 8"),
    ObsField("talon_left", 1, 1.0, "cards left in the talon, / 8"),
    ObsField("leftovers", 2, 1.0, "younger looked / did not look at the leftovers"),
    ObsField("carte_blanche", 2, 1.0, "own / opponent holds carte blanche"),
    ObsField("decl_outcome", 9, 1.0,
             "per category (point, sequence, sets): won by own / by opponent / nobody"),
    ObsField("decl_points", 6, 5.0, "per category: own points, opponent points, / 20"),
    ObsField("elder_calls", 6, 2.0,
             "elder's calls: point cards /12, point value /100 (if counts tied), best sequence "
             "length /8, its top (1..8) /8 (if lengths tied), best set size /4, its rank /8"),
    ObsField("bonus", 4, 1.0, "own pique, own repique, opponent pique, opponent repique"),
    ObsField("tricks", 2, 1.0, "tricks won by own / opponent, / 12"),
    ObsField("deal_score", 2, 5.0, "own / opponent points this deal, / 100"),
    ObsField("total", 2, 40.0, "own / opponent partie totals, / 100"),
    ObsField("deal_no", MAX_DEALS, 1.0, "one-hot deal number (6 regular + 2 tie-break)"),
    ObsField("deal_double", 1, 1.0, "1 if this deal counts double (four-deal partie)"),
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
OBS_DIM = sum(f.size for f in OBS_LAYOUT)

__doc__ = __doc__.replace("{obs_table}", layout_table(OBS_LAYOUT)).replace(
    "{config_table}", Config.describe())


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
def _bit(c):
    return np.uint64(1) << np.uint64(c)


@njit(cache=True, inline="always")
def _suit_bits(mask, suit):
    """8-bit mask of ``suit`` in ``mask``: bit r = piquet rank r (0 = seven .. 7 = ace)."""
    return np.int64((mask >> np.uint64(suit * 13 + 5)) & np.uint64(0xFF))


@njit(cache=True, inline="always")
def _from_suit_bits(bits, suit):
    return np.uint64(bits) << np.uint64(suit * 13 + 5)


@njit(cache=True)
def _planes(mask, out, off):
    """One-hot the 32 piquet cards of ``mask`` into ``out[off:off+32]``."""
    for suit in range(4):
        bits = _suit_bits(mask, suit)
        base = off + suit * 8
        for r in range(8):
            if (bits >> r) & 1:
                out[base + r] = 1.0


@njit(cache=True, inline="always")
def _holds_face_card(mask):
    # K, Q, J are piquet ranks 4, 5, 6 in every suit (carte blanche, 2.3)
    faces = np.uint64(0)
    for suit in range(4):
        faces |= np.uint64(0x70) << np.uint64(suit * 13 + 5)
    return (mask & faces) != np.uint64(0)


# --- declarations (2.5) ------------------------------------------------------------------------
@njit(cache=True)
def _point(mask, cfg):
    """Best point of a hand: (cards, value, suit, score)."""
    best_n, best_v, best_s = 0, 0, -1
    for suit in range(4):
        bits = _suit_bits(mask, suit)
        n, v = 0, 0
        for r in range(8):
            if (bits >> r) & 1:
                n += 1
                v += POINT_VALUE[r]
        if n > best_n or (n == best_n and v > best_v):
            best_n, best_v, best_s = n, v, suit
    score = best_n
    if cfg[C_POINT_4] and best_v % 10 == 4:
        score -= 1
    return best_n, best_v, best_s, score


@njit(cache=True)
def _sequences(mask):
    """Sequences of a hand: (best length, best top rank, total score, all cards, best cards)."""
    best_len, best_top, total = 0, -1, 0
    cards = np.uint64(0)
    best_cards = np.uint64(0)
    for suit in range(4):
        bits = _suit_bits(mask, suit)
        r = 0
        while r < 8:
            if (bits >> r) & 1:
                start = r
                while r < 8 and (bits >> r) & 1:
                    r += 1
                n = r - start
                if n >= 3:
                    run = _from_suit_bits(((1 << n) - 1) << start, suit)
                    cards |= run
                    total += n if n <= 4 else n + 10
                    top = r - 1
                    if n > best_len or (n == best_len and top > best_top):
                        best_len, best_top, best_cards = n, top, run
            else:
                r += 1
    return best_len, best_top, total, cards, best_cards


@njit(cache=True)
def _sets(mask, cfg):
    """Trios and quatorzes of the set ranks: (best size, best rank, total score, cards)."""
    # piquet ranks 10, J, Q, K, A are 3..7; the seed's reading stops at K (A2)
    highest = 7 if cfg[C_SET_RANKS] == 0 else 6
    best_n, best_r, total = 0, -1, 0
    cards = np.uint64(0)
    for r in range(3, highest + 1):
        n = 0
        rank_cards = np.uint64(0)
        for suit in range(4):
            if (_suit_bits(mask, suit) >> r) & 1:
                n += 1
                rank_cards |= _from_suit_bits(1 << r, suit)
        if n >= 3:
            cards |= rank_cards
            total += 3 if n == 3 else 14
            if n > best_n or (n == best_n and r > best_r):
                best_n, best_r = n, r
    return best_n, best_r, total, cards


@njit(cache=True)
def _score_hand(s, b, seat, pts):
    """Reckon ``pts`` in hand for ``seat``; 30 before the opponent scores → repique (2.6)."""
    if pts <= 0:
        return
    s.deal_score[b, seat] += pts
    if (s.bonus[b, 0] == 0 and s.bonus[b, 1] == 0 and s.deal_score[b, 1 - seat] == 0
            and s.deal_score[b, seat] >= PIQUE_AT):
        s.deal_score[b, seat] += REPIQUE_BONUS
        s.bonus[b, seat] = BONUS_REPIQUE


@njit(cache=True)
def _elder_pique(s, b, elder, extra):
    """Elder at 30 in hand and play (+ ``extra``) before younger scores → pique (2.6)."""
    if (s.bonus[b, 0] == 0 and s.bonus[b, 1] == 0 and s.deal_score[b, 1 - elder] == 0
            and s.deal_score[b, elder] + extra >= PIQUE_AT):
        s.deal_score[b, elder] += PIQUE_BONUS
        s.bonus[b, elder] = BONUS_PIQUE


@njit(cache=True)
def _score_play(s, b, seat, pts):
    """Score ``pts`` in play for ``seat``, checking elder's pique."""
    if pts <= 0:
        return
    s.deal_score[b, seat] += pts
    elder = 1 - s.dealer[b]
    if seat == elder:
        _elder_pique(s, b, elder, 0)


@njit(cache=True)
def _declare(s, b, cfg):
    """Resolve carte blanche and the three categories in reckoning order (2.5, 2.6).

    Writes ``decl_win``, ``decl_pts``, ``shown``, ``calls`` and the deal scores. ``calls`` holds
    elder's public calls: point cards, point value (only if the counts tie), best sequence length,
    its top rank + 1 (only if the lengths tie), best set size, its rank + 1.
    """
    younger = np.int64(s.dealer[b])
    elder = 1 - younger
    # 1. carte blanche (elder's reckoned first; both holders score)
    if s.cb[b, elder]:
        _score_hand(s, b, elder, CARTE_BLANCHE)
    if s.cb[b, younger]:
        _score_hand(s, b, younger, CARTE_BLANCHE)
    he, hy = s.hand[b, elder], s.hand[b, younger]
    # 2. point: count, then value
    ne, ve, se, sce = _point(he, cfg)
    ny, vy, sy, scy = _point(hy, cfg)
    s.calls[b, 0] = ne
    s.calls[b, 1] = ve if ne == ny else 0
    w = OUTCOME_EQUAL
    if ne > ny or (ne == ny and ve > vy):
        w = elder
    elif ny > ne or (ne == ny and vy > ve):
        w = younger
    s.decl_win[b, CAT_POINT] = w
    if w == OUTCOME_EQUAL:
        s.shown[b, elder] |= he & _from_suit_bits(0xFF, se)
        s.shown[b, younger] |= hy & _from_suit_bits(0xFF, sy)
    else:
        sc = sce if w == elder else scy
        suit = se if w == elder else sy
        s.shown[b, w] |= s.hand[b, w] & _from_suit_bits(0xFF, suit)
        s.decl_pts[b, w, CAT_POINT] = sc
        _score_hand(s, b, w, sc)
    # 3. sequences: length, then top card; the winner scores all; equal best cancels all
    le, te, tote, ce, bce = _sequences(he)
    ly, ty, toty, cy, bcy = _sequences(hy)
    s.calls[b, 2] = le
    s.calls[b, 3] = te + 1 if (le == ly and le > 0) else 0
    if le == 0 and ly == 0:
        w = OUTCOME_NONE
    elif le > ly or (le == ly and te > ty):
        w = elder
    elif ly > le or (le == ly and ty > te):
        w = younger
    else:
        w = OUTCOME_EQUAL
    s.decl_win[b, CAT_SEQUENCE] = w
    if w == OUTCOME_EQUAL:
        s.shown[b, elder] |= bce
        s.shown[b, younger] |= bcy
    elif w != OUTCOME_NONE:
        s.shown[b, w] |= ce if w == elder else cy
        tot = tote if w == elder else toty
        s.decl_pts[b, w, CAT_SEQUENCE] = tot
        _score_hand(s, b, w, tot)
    # 4. sets: quatorze beats trio, then rank; the winner scores all
    ke, re, tse, xe = _sets(he, cfg)
    ky, ry, tsy, xy = _sets(hy, cfg)
    s.calls[b, 4] = ke
    s.calls[b, 5] = re + 1 if ke > 0 else 0
    if ke == 0 and ky == 0:
        w = OUTCOME_NONE
    elif ke > ky or (ke == ky and re > ry):
        w = elder
    else:
        w = younger
    s.decl_win[b, CAT_SETS] = w
    if w != OUTCOME_NONE:
        s.shown[b, w] |= xe if w == elder else xy
        tot = tse if w == elder else tsy
        s.decl_pts[b, w, CAT_SETS] = tot
        _score_hand(s, b, w, tot)


# --- deal flow ---------------------------------------------------------------------------------
@njit(cache=True)
def _deal(s, b, cfg, dealer):
    """Deal ``s.deck[b]`` (elder 12, younger 12, talon 8) with ``dealer`` dealing (2.2)."""
    s.dealer[b] = dealer
    elder = 1 - dealer
    he = np.uint64(0)
    hy = np.uint64(0)
    for i in range(HAND):
        he |= _bit(s.deck[b, i])
        hy |= _bit(s.deck[b, HAND + i])
    s.hand[b, elder] = he
    s.hand[b, dealer] = hy
    for seat in range(2):
        s.dealt[b, seat] = s.hand[b, seat]
        s.cb[b, seat] = 0 if _holds_face_card(s.hand[b, seat]) else 1
        s.discards[b, seat] = 0
        s.seen[b, seat] = 0
        s.shown[b, seat] = 0
        s.cb_shown[b, seat] = 0
        s.played[b, seat] = 0
        s.xcount[b, seat] = 0
        s.tricks[b, seat] = 0
        s.bonus[b, seat] = 0
        s.deal_score[b, seat] = 0
        for c in range(3):
            s.decl_pts[b, seat, c] = 0
    for c in range(3):
        s.decl_win[b, c] = OUTCOME_NONE
    for i in range(6):
        s.calls[b, i] = 0
    s.phase[b] = PHASE_EXCHANGE
    s.exch[b] = 0
    s.ndisc[b] = 0
    s.last_disc[b] = -1
    s.talon_pos[b] = 0
    s.looked[b] = -1
    s.trick_card[b] = -1
    s.trick_leader[b] = elder
    s.current[b] = _exchanger(s, b, cfg, 0)


@njit(cache=True, inline="always")
def _exchanger(s, b, cfg, k):
    """Seat making exchange ``k`` (0 first, 1 second); elder first by default (2.4, A1)."""
    first = s.dealer[b] if cfg[C_FIRST_EXCHANGER] == 1 else 1 - s.dealer[b]
    return first if k == 0 else 1 - first


@njit(cache=True, inline="always")
def _exchange_limits(s, b, cfg):
    """(min, max) cards the current exchanger may discard (2.4, A4)."""
    if s.exch[b] == 0:
        return 1, ELDER_MAX
    lo = 1
    if s.current[b] == s.dealer[b]:
        lo = cfg[C_YOUNGER_MIN]
    return lo, TALON - s.talon_pos[b]


@njit(cache=True)
def _shuffled_deck(s, b):
    base = rng.stream(s.key[b], s.episode[b], s.deal_no[b])
    for i in range(NUM_CARDS):
        s.deck[b, i] = gid(i)
    rng.shuffle(base, s.deck[b])


@njit(cache=True)
def _reset(s, b, cfg, key, episode, deck, dealer):
    """Start a partie in row ``b`` (``deck[0] < 0``: shuffle; ``dealer < 0``: draw)."""
    s.key[b] = key
    s.episode[b] = episode
    s.deal_no[b] = 0
    for seat in range(2):
        s.total[b, seat] = 0
        s.last_points[b, seat] = 0
    s.result_points[b] = 0
    s.winner[b] = -1
    if deck[0] < 0:
        _shuffled_deck(s, b)
    else:
        for i in range(NUM_CARDS):
            s.deck[b, i] = deck[i]
    if dealer < 0:
        # the first dealer is drawn (2.2: "for RL, pick the first dealer at random")
        dealer = rng.draw(rng.stream(key, episode, MAX_DEALS), 0, 2)
    _deal(s, b, cfg, dealer)


@njit(cache=True)
def _finish_exchange(s, b, cfg):
    """Draw as many cards as were discarded from the top of the talon, then move on (2.4)."""
    seat = s.current[b]
    k = s.ndisc[b]
    for i in range(k):
        s.hand[b, seat] |= _bit(s.deck[b, 2 * HAND + s.talon_pos[b] + i])
    s.talon_pos[b] += k
    s.xcount[b, seat] = k
    other = 1 - seat
    if s.exch[b] == 0:
        # the first exchanger may look at the untaken cards of his five
        for i in range(s.talon_pos[b], ELDER_MAX):
            s.seen[b, seat] |= _bit(s.deck[b, 2 * HAND + i])
        # a carte blanche is shown after the opponent's discard (2.3)
        if s.cb[b, other]:
            s.cb_shown[b, other] = s.dealt[b, other]
        s.exch[b] = 1
        s.ndisc[b] = 0
        s.last_disc[b] = -1
        s.current[b] = other
        return
    if s.cb[b, other]:
        s.cb_shown[b, other] = s.dealt[b, other]
    if s.talon_pos[b] < TALON:
        s.phase[b] = PHASE_LOOK
        return
    _start_play(s, b, cfg)


@njit(cache=True)
def _leftovers(s, b):
    m = np.uint64(0)
    for i in range(s.talon_pos[b], TALON):
        m |= _bit(s.deck[b, 2 * HAND + i])
    return m


@njit(cache=True)
def _start_play(s, b, cfg):
    _declare(s, b, cfg)
    s.phase[b] = PHASE_PLAY
    s.current[b] = 1 - s.dealer[b]  # elder leads (2.7)
    s.trick_card[b] = -1


@njit(cache=True, inline="always")
def _counts_in_play(cfg, card):
    # every card scores by default; the old rule counts only 10 and above (A6)
    return cfg[C_LOW_CARDS] == 1 or card % 13 >= 8


@njit(cache=True)
def _play(s, b, cfg, card):
    seat = s.current[b]
    s.hand[b, seat] &= ~_bit(card)
    s.played[b, seat] |= _bit(card)
    elder = 1 - s.dealer[b]
    if s.trick_card[b] < 0:
        # leading: 1 point for the card led (2.8)
        if s.tricks[b, 0] + s.tricks[b, 1] == 0 and s.looked[b] == 1:
            # looked-at leftovers become public after elder's first lead (2.4)
            left = _leftovers(s, b)
            s.seen[b, 0] |= left
            s.seen[b, 1] |= left
        s.trick_card[b] = card
        s.trick_leader[b] = seat
        if _counts_in_play(cfg, card):
            _score_play(s, b, seat, 1)
        s.current[b] = 1 - seat
        return
    led = s.trick_card[b]
    leader = s.trick_leader[b]
    # the higher card of the led suit wins (2.7)
    winner = seat if (card // 13 == led // 13 and card % 13 > led % 13) else leader
    if winner != leader and _counts_in_play(cfg, card):
        _score_play(s, b, winner, 1)  # capturing the opponent's lead
    s.tricks[b, winner] += 1
    if cfg[C_CARDS_PIQUE] and winner == elder and s.tricks[b, elder] == 7:
        _elder_pique(s, b, elder, CARDS_BONUS)
    s.trick_card[b] = -1
    if s.tricks[b, 0] + s.tricks[b, 1] == HAND:
        _score_play(s, b, winner, 1)  # the last trick
        _end_deal(s, b, cfg)
        return
    s.current[b] = winner


@njit(cache=True)
def _end_deal(s, b, cfg):
    """The cards / capot, partie totals, then the next deal or the end (2.8, 2.10)."""
    for seat in range(2):
        if s.tricks[b, seat] == HAND:
            s.deal_score[b, seat] += CAPOT_BONUS
        elif s.tricks[b, seat] >= 7:
            s.deal_score[b, seat] += CARDS_BONUS
    n = s.deal_no[b]
    regular = 6 if cfg[C_PARTIE] == 0 else 4
    weight = 2 if (cfg[C_PARTIE] == 1 and (n == 0 or n == 3)) else 1
    for seat in range(2):
        s.last_points[b, seat] = weight * s.deal_score[b, seat]
        s.total[b, seat] += weight * s.deal_score[b, seat]
    played = n + 1
    if cfg[C_EPISODE] == 1:
        _game_over(s, b, cfg, s.deal_score[b, 0], s.deal_score[b, 1], False)
        return
    if played >= regular and (s.total[b, 0] != s.total[b, 1] or played >= regular + 2):
        _game_over(s, b, cfg, s.total[b, 0], s.total[b, 1], True)
        return
    s.deal_no[b] = played
    _shuffled_deck(s, b)
    _deal(s, b, cfg, 1 - s.dealer[b])


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
def _game_over(s, b, cfg, a, c, partie):
    s.phase[b] = PHASE_OVER
    s.current[b] = -1
    if partie:
        w, pts = partie_points(a, c, cfg[C_RUBICON])
    else:
        w = -1 if a == c else (0 if a > c else 1)
        pts = abs(a - c)
    s.winner[b] = w
    s.result_points[b] = pts


@njit(cache=True)
def _write_rewards(s, b, cfg, out):
    """Zero-sum rewards of a finished episode (see the reward table)."""
    w = s.winner[b]
    for seat in range(2):
        if w < 0:
            out[seat] = 0.0
        elif cfg[C_REWARD] == 0:
            out[seat] = 1.0 if seat == w else -1.0
        else:
            out[seat] = s.result_points[b] if seat == w else -s.result_points[b]


# --- legal actions, step, observation ----------------------------------------------------------
@njit(cache=True)
def _legal(s, b, cfg, out):
    """Write the legal-action mask of the seat to act into ``out`` (all zero when over)."""
    for i in range(NUM_ACTIONS):
        out[i] = 0
    ph = s.phase[b]
    if ph == PHASE_OVER:
        return
    seat = s.current[b]
    hand = s.hand[b, seat]
    if ph == PHASE_EXCHANGE:
        lo, hi = _exchange_limits(s, b, cfg)
        if s.ndisc[b] < hi:
            for i in range(s.last_disc[b] + 1, NUM_CARDS):
                if (hand >> np.uint64(gid(i))) & np.uint64(1):
                    out[ACTION_DISCARD + i] = 1
        if s.ndisc[b] >= lo:
            out[ACTION_STOP] = 1
    elif ph == PHASE_LOOK:
        out[ACTION_LOOK] = 1
        out[ACTION_DONT_LOOK] = 1
    else:
        led = s.trick_card[b]
        if led >= 0:
            follow = hand & _from_suit_bits(0xFF, led // 13)
            if follow != np.uint64(0):
                hand = follow  # must follow suit if able (2.7)
        for suit in range(4):
            bits = _suit_bits(hand, suit)
            for r in range(8):
                if (bits >> r) & 1:
                    out[ACTION_PLAY + suit * 8 + r] = 1


@njit(cache=True)
def _apply(s, b, cfg, a):
    """Apply legal action ``a`` of the seat to act."""
    ph = s.phase[b]
    if ph == PHASE_EXCHANGE:
        seat = s.current[b]
        if a == ACTION_STOP:
            _finish_exchange(s, b, cfg)
            return
        card = gid(a - ACTION_DISCARD)
        s.hand[b, seat] &= ~_bit(card)
        s.discards[b, seat] |= _bit(card)
        s.ndisc[b] += 1
        s.last_disc[b] = a - ACTION_DISCARD
        lo, hi = _exchange_limits(s, b, cfg)
        if s.ndisc[b] >= hi:
            _finish_exchange(s, b, cfg)
    elif ph == PHASE_LOOK:
        if a == ACTION_LOOK:
            s.looked[b] = 1
            s.seen[b, s.current[b]] |= _leftovers(s, b)
        else:
            s.looked[b] = 0
        _start_play(s, b, cfg)
    else:
        _play(s, b, cfg, gid(a - ACTION_PLAY))


@njit(cache=True)
def _observe(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (length OBS_DIM)."""
    for i in range(OBS_DIM):
        out[i] = 0.0
    opp = 1 - seat
    _planes(s.hand[b, seat], out, O_HAND)
    _planes(s.discards[b, seat], out, O_DISC)
    _planes(s.seen[b, seat] & ~s.hand[b, seat], out, O_SEEN)
    _planes(s.cb_shown[b, opp], out, O_OPP_CB)
    _planes(s.shown[b, seat], out, O_OWN_SHOWN)
    _planes(s.shown[b, opp], out, O_OPP_SHOWN)
    _planes(s.played[b, seat], out, O_OWN_PLAYED)
    _planes(s.played[b, opp], out, O_OPP_PLAYED)
    if s.trick_card[b] >= 0:
        out[O_TRICK + lid(s.trick_card[b])] = 1.0
    out[O_PHASE + s.phase[b]] = 1.0
    out[O_TO_ACT] = 1.0 if s.current[b] == seat else 0.0
    elder = 1 - s.dealer[b]
    out[O_ELDER] = 1.0 if seat == elder else 0.0
    out[O_XCOUNT] = s.xcount[b, seat] / 8.0
    out[O_XCOUNT + 1] = s.xcount[b, opp] / 8.0
    out[O_TALON] = (TALON - s.talon_pos[b]) / 8.0
    if s.looked[b] == 1:
        out[O_LEFT] = 1.0
    elif s.looked[b] == 0:
        out[O_LEFT + 1] = 1.0
    out[O_CB] = s.cb[b, seat]
    out[O_CB + 1] = s.cb[b, opp]
    if s.phase[b] >= PHASE_PLAY:
        for c in range(3):
            w = s.decl_win[b, c]
            k = 0 if w == seat else (1 if w == opp else 2)
            out[O_OUTCOME + 3 * c + k] = 1.0
            out[O_DPTS + 2 * c] = s.decl_pts[b, seat, c] / 20.0
            out[O_DPTS + 2 * c + 1] = s.decl_pts[b, opp, c] / 20.0
        out[O_CALLS] = s.calls[b, 0] / 12.0
        out[O_CALLS + 1] = s.calls[b, 1] / 100.0
        out[O_CALLS + 2] = s.calls[b, 2] / 8.0
        out[O_CALLS + 3] = s.calls[b, 3] / 8.0
        out[O_CALLS + 4] = s.calls[b, 4] / 4.0
        out[O_CALLS + 5] = s.calls[b, 5] / 8.0
    for k in range(2):
        who = seat if k == 0 else opp
        if s.bonus[b, who] == BONUS_PIQUE:
            out[O_BONUS + 2 * k] = 1.0
        elif s.bonus[b, who] == BONUS_REPIQUE:
            out[O_BONUS + 2 * k + 1] = 1.0
    out[O_TRICKS] = s.tricks[b, seat] / 12.0
    out[O_TRICKS + 1] = s.tricks[b, opp] / 12.0
    out[O_DSCORE] = s.deal_score[b, seat] / 100.0
    out[O_DSCORE + 1] = s.deal_score[b, opp] / 100.0
    out[O_TOTAL] = s.total[b, seat] / 100.0
    out[O_TOTAL + 1] = s.total[b, opp] / 100.0
    out[O_DEALNO + min(s.deal_no[b], MAX_DEALS - 1)] = 1.0
    n = s.deal_no[b]
    out[O_DOUBLE] = 1.0 if (cfg[C_PARTIE] == 1 and (n == 0 or n == 3)) else 0.0


# --- batched kernels (the only entry points the front ends call) -------------------------------
@njit(cache=True)
def reset_rows(s, cfg, rows, keys, episodes, decks, dealers, obs, mask):
    """Start a partie in each row of ``rows``; write its first observation and mask."""
    for i in range(rows.shape[0]):
        b = rows[i]
        _reset(s, b, cfg, keys[b], episodes[b], decks[b], dealers[b])
        _legal(s, b, cfg, mask[b])
        _observe(s, b, cfg, s.current[b], obs[b])


@njit(cache=True)
def step_rows(s, cfg, actions, autoreset, obs, mask, rewards, terminated):
    """Apply ``actions[b]`` in every row; write rewards, termination, next observation and mask.

    A row whose game is over (without autoreset) or whose action is illegal is left unchanged.
    """
    no_deck = np.full(1, -1, np.int8)
    scratch = np.empty(NUM_ACTIONS, np.int8)
    for b in range(actions.shape[0]):
        for seat in range(2):
            rewards[b, seat] = 0.0
        if s.phase[b] == PHASE_OVER:
            continue
        terminated[b] = False
        _legal(s, b, cfg, scratch)  # never trust a buffer the caller could have written
        if scratch[actions[b]] == 0:
            continue
        _apply(s, b, cfg, actions[b])
        if s.phase[b] == PHASE_OVER:
            terminated[b] = True
            _write_rewards(s, b, cfg, rewards[b])
            if autoreset:
                _reset(s, b, cfg, s.key[b], s.episode[b] + 1, no_deck, -1)
        _legal(s, b, cfg, mask[b])
        _observe(s, b, cfg, s.current[b] if s.current[b] >= 0 else 0, obs[b])


@njit(cache=True)
def observe_rows(s, cfg, seats, out):
    """Write each row's observation for ``seats[b]`` into ``out[b]``."""
    for b in range(seats.shape[0]):
        _observe(s, b, cfg, seats[b], out[b])


@njit(cache=True)
def declare_row(s, b, cfg):
    """Run the declarations of row ``b`` (for the rules helper)."""
    _declare(s, b, cfg)


# --- Python-side helpers -----------------------------------------------------------------------
def result(s: State, b: int, config: Config) -> dict:
    """JSON-able result of the finished episode in row ``b``."""
    w = int(s.winner[b])
    return {
        "winner": None if w < 0 else w,
        "points": int(s.result_points[b]),
        "totals": s.total[b].tolist(),
        "deals": int(s.deal_no[b]) + 1,
    }


def deck_strings(s: State, b: int) -> list[str]:
    """The current deal's deck order (elder 12, younger 12, talon from the top)."""
    return format_cards(s.deck[b]).split()


# --- rules helpers (public) --------------------------------------------------------------------
def _hand_mask(cards, who: str) -> int:
    ids = [DECK.check_card(c) for c in (cards.split() if isinstance(cards, str) else cards)]
    if len(ids) != HAND or len(set(ids)) != HAND:
        raise ValueError(f"{who} must hold {HAND} distinct piquet cards, got "
                         f"{len(ids)} ({len(set(ids))} distinct)")
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
    s.dealer[0] = 1  # elder = seat 0
    s.hand[0, 0], s.hand[0, 1] = me, my
    if carte_blanche is None:
        cb = tuple(not _holds_face_card(np.uint64(m)) for m in (me, my))
    else:
        if len(carte_blanche) != 2:
            raise ValueError("carte_blanche must be a pair (elder_has, younger_has)")
        cb = tuple(bool(x) for x in carte_blanche)
    s.cb[0] = cb
    s.decl_win[0] = OUTCOME_NONE
    declare_row(s, 0, cfg)
    names = ("elder", "younger")

    def who(w):
        return names[w] if w in (0, 1) else None

    out = {"carte_blanche": {n: CARTE_BLANCHE * int(cb[i]) for i, n in enumerate(names)}}
    for c, name in ((CAT_POINT, "point"), (CAT_SEQUENCE, "sequence"), (CAT_SETS, "sets")):
        w = int(s.decl_win[0, c])
        out[name] = {"winner": who(w), "points": int(s.decl_pts[0, w, c]) if w in (0, 1) else 0,
                     "equal": w == OUTCOME_EQUAL}
    rep = [i for i in (0, 1) if s.bonus[0, i] == BONUS_REPIQUE]
    out["repique"] = who(rep[0]) if rep else None
    out["elder_total"] = int(s.deal_score[0, 0])
    out["younger_total"] = int(s.deal_score[0, 1])
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
