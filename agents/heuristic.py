"""One rule-based agent per game: strategies a club player would recognise, written as action
scores over a whole batch of observations (numpy), fast enough to drive the batched engine.

Every agent rates each action of each row (``scores``); the best legal one is played, ties broken
at random. The rules each one follows are in its docstring.
"""

from __future__ import annotations

import math

import numpy as np

from cardenvs.games.esel import constants as esel

from .base import ScoredAgent

# --- card tables (each game's card index order) --------------------------------------------------
# 36-card games (Esel, Banque): index = suit * 9 + natural rank 6 7 8 9 10 J Q K A
_R36 = np.tile(np.arange(9), 4)  # natural rank index 0..8
_GAME_ORDER = np.array([0, 1, 2, 3, 7, 4, 5, 6, 8])  # 6 7 8 9 J Q K 10 A -> game order rank
_ORDER36 = np.tile(_GAME_ORDER, 4)
_SUIT36 = np.repeat(np.arange(4), 9)
# Esel (rules 4.2): _ESEL_BEAT36[x, y], card x placed on card y of its suit: 1 = kills, 2 = beats
# only an unkilled led card or one-lower chain, 0 = does not beat (another suit: 0)
_SAME_SUIT36 = _SUIT36[:, None] == _SUIT36[None, :]
_ESEL_BEAT36 = np.where(_SAME_SUIT36, esel.BEAT[_ORDER36[:, None], _ORDER36[None, :]], 0)
# by the natural rank (6 7 8 9 10 J Q K A) of two cards x, y of one suit: x beats y when y is
# led (_ESEL_BEAT >= 1), x ranks above y (for trumps)
_ESEL_ON_LED9 = (
    np.concatenate(
        [
            esel.BEAT[_GAME_ORDER[:, None], _GAME_ORDER[None, :]] >= 1,
            _GAME_ORDER[:, None] > _GAME_ORDER,
        ],
        axis=1,
    )
    * 1.0
)
# _NONE_OF[u, k, h]: the chance that h cards drawn from u hold none of k given ones
_NONE_OF = np.array(
    [
        [
            [math.comb(u - k, h) / math.comb(u, h) if k <= u and h <= u else 0.0 for h in range(13)]
            for k in range(37)
        ]
        for u in range(37)
    ]
)


def _esel_takers(weight: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """Esel: for each card y, the total ``weight (N, 36)`` of the cards x that would take it
    when it is led: x beats y in its suit, or x is of y's rank, or x is a trump of another suit
    ranked above y (``trumps (N, 4)``: the suits that are some opponent's own trump)."""
    n = weight.shape[0]
    by_suit = weight.reshape(n, 4, 9)
    on = (by_suit.reshape(4 * n, 9) @ _ESEL_ON_LED9).reshape(n, 4, 2, 9)
    same_suit = on[:, :, 0].reshape(n, 36)
    same_rank = by_suit.sum(1)[:, _R36] - weight
    above = on[:, :, 1]  # (N, suit t, rank y): weight of suit t ranked above y
    trump = (trumps[:, :, None] * above).sum(1)[:, _R36] - (trumps[:, :, None] * above).reshape(
        n, 36
    )
    return same_suit + same_rank + trump


def _suit_counts(hand: np.ndarray, suit_of: np.ndarray, n_suits: int = 4) -> np.ndarray:
    """Cards held per suit, ``(N, n_suits)``."""
    return np.stack([hand[:, suit_of == s].sum(axis=1) for s in range(n_suits)], axis=1)


class BanqueHeuristic(ScoredAgent):
    """Banque: shed fast, high-point cards first, keep the sixes and eights.

    - A special play that sheds four cards at once (four of a kind, then a sequence) first.
    - Otherwise beat the top card with the legal card worth the most points (card points go to
      whoever takes the bank, so get rid of them); a six only when nothing else beats, as a six
      is the hardest card to beat and keeps the next turn safe.
    - An eight only when no normal beat is possible (it is a joker: keep it), but rather than
      drawing.
    - Follow up after an eight or a quad whenever possible; draw before passing.
    - Trump choice: the free suit with the lowest letter (the hand is not seen yet).
    """

    name = "heuristic"
    env_id = "banque-v0"
    POINTS = np.array([0, 0, 0, 0, 10, 1, 3, 5, 12], np.float64)[_R36]

    def scores(self, obs, masks):
        n = obs.shape[0]
        s = np.zeros((n, 111))
        s[:, 0:36] = 10.0 + self.POINTS - 6.0 * (_R36 == 0)  # keep sixes
        s[:, 36:40] = 3.0  # eights: after every normal beat, before drawing
        s[:, 40:76] = 40.0  # four of a kind
        s[:, 76:104] = 35.0  # sequence
        s[:, 104] = 1.0  # draw
        s[:, 105] = 0.0  # pass
        s[:, 106] = 2.0  # stop: only when no follow-up card
        s[:, 107:111] = -np.arange(4)  # trump: S, H, D, C
        return s


class EselHeuristic(ScoredAgent):
    """Esel: take every trick worth taking, give away only cheap cards, lead what is hard to take.

    - Card values: the card points (8 = 16, A = 12, 10 = 10, K = 5, Q = 3, J = 1, 6 = −1), kings
      and queens 12 more (a king and a queen of one suit taken by one player score 25), the Q♠
      and the J♦ 5 more (15 when taken together).
    - Following: which cards take the trick is worked out from the table with the beat table
      (the main card and suit, the card holding the trick and how it got there, the led card
      fighting back against a kill it beats, same-value cards, own trumps above every card that
      held the trick, an eight from a player void in the main suit). A card that takes wins the
      trick's value plus its own, so take with the card worth the most; a card that does not
      take gives both away, so then play the cheapest (a six first). With 3–4 players a later
      card may still take the trick over; the rating ignores that.
    - Leading: for each card, the unseen cards that would take it (cards of its suit that beat
      it in the beat table, cards of its rank, an opponent's own trump ranked above it) and q,
      the chance that the opponents hold at least one of them (their cards drawn from the
      unseen ones); a lead is rated (1 − q) · value − q · (value + the mean value of those
      cards). Aces and tens, which few cards take, and cards of an opponent's trump suit (his
      trumps cannot take those) lead well; a valuable card that many cards take leads badly.
    - Declaration: ``go`` with 2 or 3 players (its threshold, 44 or 56 points, is well within
      reach), ``no`` with 4 (68 points is missed about as often as reached), and always ``no``
      at 0 banks (a failed ``go`` adds a bank, a ``no`` never does).
    - Trump choice: the free suit with the lowest letter (the hand is not seen yet).

    Only option 1 trumps (own trumps) are modelled; under options 2–5 the mask keeps the plays
    legal and an off-suit card counts as taking exactly when it is legal without a void.
    """

    name = "heuristic"
    env_id = "esel-v0"
    POINTS = np.array([-1, 0, 16, 0, 10, 1, 3, 5, 12], np.float64)[_R36]
    VALUE = POINTS + 12.0 * np.isin(_R36, (6, 7)) + 5.0 * np.isin(np.arange(36), (6, 23))
    # by how the trick is held (esel.W_*): a one-lower card may still take it; a trump or a
    # same-value card holds it (a main-suit card must then kill the main card); a same-value
    # card may still take it
    CHAIN = np.isin(np.arange(8), (esel.W_LEAD, esel.W_EIGHT, esel.W_ONE_LOWER))
    AFTER_OFF_SUIT = np.isin(np.arange(8), (esel.W_TRUMP, esel.W_SAME))
    SAME_VALUE_TAKES = np.isin(np.arange(8), (esel.W_LEAD, esel.W_ONE_LOWER, esel.W_SAME))

    def _takes(self, obs: np.ndarray, hand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(N, 36)``: would each card take the trick now (4.4, read off the table); and
        ``(N,)``: is the player void in the main suit."""
        n = obs.shape[0]
        rows = np.arange(n)
        table = self.block(obs, "table")
        played = self.block(obs, "played").reshape(n, 4, 36)
        S = self.block(obs, "main_suit").argmax(1)
        M = self.block(obs, "main_card").argmax(1)
        W = (table * played[rows, self.block(obs, "win_seat").argmax(1)]).argmax(1)
        L = (table * played[rows, self.block(obs, "leader").argmax(1)]).argmax(1)
        how = self.block(obs, "win_type").argmax(1)
        fightback = self.block(obs, "fightback")[:, 0] > 0
        own = self.block(obs, "trumps")[:, 0:4][:, _SUIT36] > 0  # (N, 36) my own trumps
        main = _SUIT36[None, :] == S[:, None]
        void = (hand * main).sum(1) == 0
        on_w = _ESEL_BEAT36[:, W].T  # each card placed on W
        w_suit = _SUIT36[W][:, None]
        # a card of the main suit: one lower than an unkilled chain, or a kill (the led card
        # fights back against a kill it beats); after a trump or same-value card, a kill of M
        chain = self.CHAIN[how][:, None]
        fights = fightback[:, None] & (_ESEL_BEAT36[L, :] == 1)
        over_main = np.where(
            (w_suit == S[:, None]),
            (chain & (on_w == 2)) | ((on_w == 1) & ~fights),
            self.AFTER_OFF_SUIT[how][:, None] & (_ESEL_BEAT36[:, M].T == 1),
        )
        # another suit: the main card's value (an own trump of it takes anything), or an own
        # trump above every card that held the trick
        same = np.where(own, True, self.SAME_VALUE_TAKES[how][:, None])
        held = np.maximum(np.maximum(_ORDER36[M], _ORDER36[W]), _ORDER36[L])[:, None]
        trump = (
            own
            & (how != esel.W_SAME_TRUMP)[:, None]
            & (_ORDER36[None, :] > held)
            & ((_SUIT36[None, :] != w_suit) | (on_w == 1))
        )
        other = np.where(_R36[None, :] == _R36[M][:, None], same, trump)
        # an eight of another suit from a void player interrupts unless W's suit refuses it
        eight = (_R36[None, :] == 2) & ~main & void[:, None]
        eight_takes = (_SUIT36[None, :] != w_suit) | (on_w == 1)
        return np.where(eight, eight_takes, np.where(main, over_main, other)), void

    def _lead_scores(self, obs: np.ndarray, hand: np.ndarray) -> np.ndarray:
        """``(N, 36)``: the rating of leading each card."""
        n = obs.shape[0]
        seats = self.block(obs, "seats")
        unseen = 1.0 - hand - self.block(obs, "played").reshape(n, 4, 36).sum(1)
        their = (self.block(obs, "trumps").reshape(n, 4, 5)[:, 1:, :4] * seats[:, 1:, None]).sum(1)
        # the count and the value of the unseen cards that would take each lead
        both = np.concatenate([unseen, unseen * self.VALUE])
        k, kv = _esel_takers(both, np.tile(their, (2, 1))).reshape(2, n, 36)
        # q: the chance that the opponents' h cards (of the U unseen) hold at least one of the k
        U = unseen.sum(1).round().astype(np.int64)[:, None]
        h = (4 * (self.block(obs, "hand_size")[:, 1:] * seats[:, 1:]).sum(1)).round()
        h = np.minimum(h.astype(np.int64)[:, None], U)
        q = 1.0 - _NONE_OF[U, k.round().astype(np.int64), h]
        return (1.0 - q) * self.VALUE - q * (self.VALUE + kv / np.maximum(k, 1))

    def _follow_scores(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """``(N, 36)``: the rating of playing each card to the trick on the table."""
        table = self.block(obs, "table")
        takes, void = self._takes(obs, self.block(obs, "hand"))
        # without a void, an off-suit card is legal exactly when it takes (4.5)
        off = _SUIT36[None, :] != self.block(obs, "main_suit").argmax(1)[:, None]
        takes = np.where(off & ~void[:, None], masks[:, :36], takes)
        stake = (table * self.VALUE).sum(1)[:, None] + self.VALUE[None, :]
        return np.where(takes, stake, -stake) - 0.01 * _ORDER36

    def scores(self, obs, masks):
        n = obs.shape[0]
        s = np.zeros((n, 42))
        on_table = self.block(obs, "table").sum(1) > 0
        lead, follow = np.flatnonzero(~on_table), np.flatnonzero(on_table)
        s[lead, 0:36] = self._lead_scores(obs[lead], self.block(obs[lead], "hand"))
        s[follow, 0:36] = self._follow_scores(obs[follow], masks[follow])
        players = self.block(obs, "seats").sum(1)
        banks = self.block(obs, "banks")[:, 0] * 6.0
        go = (players <= 3) & (banks > 0.5)
        s[:, 36] = np.where(go, 1.0, -1.0)
        s[:, 37] = 0.0
        s[:, 38:42] = -np.arange(4)
        return s


class PiquetHeuristic(ScoredAgent):
    """Piquet: exchange toward the longest suit, lead from strength, win cheaply.

    - Exchange: discard the low cards of the short suits (score: low rank, short suit), up to
      the full allowance (elder 5, younger 3); ``stop`` once it is reached.
    - Look at the leftover cards and claim carte blanche (information and points are free).
    - With sinking: declare every combination and answer truthfully (never sink or concede).
    - Leading: the highest card of the longest suit.
    - Following: the lowest card that wins the trick if there is one, else the lowest card.
    """

    name = "heuristic"
    env_id = "piquet-v0"
    RANK = np.tile(np.arange(8), 4)  # 7 8 9 10 J Q K A
    SUIT = np.repeat(np.arange(4), 8)

    def scores(self, obs, masks):
        n = obs.shape[0]
        hand = self.block(obs, "hand")
        lens = _suit_counts(hand, self.SUIT)
        suit_len = lens[:, self.SUIT]  # (N, 32)
        s = np.zeros((n, len(self.action_names)))
        s[:, 0:32] = 20.0 - self.RANK - 3.0 * suit_len
        discards = self.block(obs, "own_discards").sum(axis=1)
        elder = self.block(obs, "is_elder")[:, 0] > 0
        allowance = np.where(elder, 5, 3)
        s[:, 64] = np.where(discards >= allowance, 100.0, -100.0)
        lead = self.block(obs, "trick_lead")
        leading = lead.sum(axis=1) == 0
        lead_card = lead.argmax(axis=1)
        lead_suit = self.SUIT[lead_card]
        lead_rank = self.RANK[lead_card]
        wins = (self.SUIT[None, :] == lead_suit[:, None]) & (
            self.RANK[None, :] > lead_rank[:, None]
        )
        follow = np.where(wins, 20.0 - self.RANK, 10.0 - self.RANK)
        s[:, 32:64] = np.where(leading[:, None], 10.0 * suit_len + self.RANK, follow)
        s[:, 65], s[:, 66] = 1.0, 0.0
        s[:, 67], s[:, 68] = 1.0, 0.0
        s[:, 69], s[:, 70] = 1.0, 0.0  # sinking: declare rather than sink
        s[:, 71], s[:, 72] = 1.0, 0.0  # answer truthfully rather than concede
        return s


class PiquetAuCentHeuristic(PiquetHeuristic):
    """Piquet au cent: the Piquet heuristic (younger still exchanges up to three)."""

    env_id = "piquet_au_cent-v0"


class AuctionPiquetHeuristic(PiquetHeuristic):
    """Auction Piquet: the Piquet heuristic, bidding what the hand seems worth.

    - Expected tricks: 6 + 1.5 × (honour strength − 3.5), honour strength = aces + 0.7 kings +
      0.4 queens + 0.2 jacks + 0.5 per card of the longest suit beyond four.
    - Bid the highest ``N+`` with N ≤ expected tricks, else the highest ``N-`` with N ≤ 12 −
      expected tricks (taking at most 12 − N), else pass; never double or redouble.
    """

    env_id = "auction_piquet-v0"
    HONOUR = np.array([0, 0, 0, 0, 0.2, 0.4, 0.7, 1.0])[np.tile(np.arange(8), 4)]

    def scores(self, obs, masks):
        s = super().scores(obs, masks)
        hand = self.block(obs, "hand")
        longest = _suit_counts(hand, self.SUIT).max(axis=1)
        strength = (hand * self.HONOUR).sum(axis=1) + 0.5 * np.maximum(longest - 4, 0)
        est = 6.0 + 1.5 * (strength - 3.5)
        n = np.repeat(np.arange(7, 13), 2)  # bids 7+, 7-, ..., 12-
        minus = np.tile([False, True], 6)
        fits = np.where(minus[None, :], n[None, :] <= 12 - est[:, None], n <= est[:, None])
        s[:, 74:86] = np.where(fits, 1.0 + 0.1 * n, -5.0 - 0.1 * n)
        s[:, 73] = 0.5  # pass
        s[:, 86], s[:, 87] = -1.0, -1.0
        return s


class FourAcesHeuristic(ScoredAgent):
    """Four Aces: draw toward pairs and same-suit runs, keep the aces.

    - Draw the top discard when it pairs with a card held or touches one of its suit (a run),
      else draw from the stock.
    - Discard the card that connects least: fewest other cards of its rank and fewest same-suit
      neighbours; aces count extra (four aces win at once).
    - Play a held joker on the left neighbour rather than discard (all natural cards stay).
    """

    name = "heuristic"
    env_id = "four_aces-v0"
    RANK = np.tile(np.arange(13), 4)
    SUIT = np.repeat(np.arange(4), 13)

    def _connect(self, cards: np.ndarray) -> np.ndarray:
        """How much each of the 52 cards connects with ``cards`` ``(N, 52)``."""
        n = cards.shape[0]
        by = cards.reshape(n, 4, 13)
        rank_count = by.sum(axis=1)  # (N, 13)
        left = np.zeros_like(by)
        left[:, :, 1:] = by[:, :, :-1]
        right = np.zeros_like(by)
        right[:, :, :-1] = by[:, :, 1:]
        neigh = (left + right).reshape(n, 52)
        return 3.0 * rank_count[:, self.RANK] + 2.0 * neigh + 4.0 * (self.RANK == 12)

    def scores(self, obs, masks):
        n = obs.shape[0]
        mine = self.block(obs, "hidden") + self.block(obs, "exposed")[:, :52]
        c = self._connect(mine)
        s = np.zeros((n, 55))
        top = self.block(obs, "pile_top")
        s[:, 0] = 3.0  # the stock, unless the top discard pairs or extends a run
        s[:, 1] = (c * top).sum(axis=1)
        # a held card's own rank counts once in rank_count: subtract it
        s[:, 2:54] = -(c - 3.0 * mine) - 0.01 * self.RANK
        s[:, 54] = 100.0
        return s


class PiquetNormandHeuristic(ScoredAgent):
    """Piquet normand (and, as a subclass, partnership Piquet): keep the long suit, win cheaply.

    - Dealer's exchange: discard the low cards of the short suits (score: low rank, short suit).
    - Leading: the highest card of the longest suit.
    - Following: the lowest card that beats the best card of the led suit on the table if there
      is one (in partnership, not when the partner holds the trick), else the lowest card.
    """

    name = "heuristic"
    env_id = "piquet_normand-v0"
    RANK = np.tile(np.arange(8), 4)  # 7 8 9 10 J Q K A
    SUIT = np.repeat(np.arange(4), 8)
    PARTNER = None  # relative seat of the partner (partnership: 2)

    def scores(self, obs, masks):
        n = obs.shape[0]
        hand = self.block(obs, "hand")
        suit_len = _suit_counts(hand, self.SUIT)[:, self.SUIT]  # (N, 32)
        s = np.zeros((n, 65))
        s[:, 0:32] = 20.0 - self.RANK - 3.0 * suit_len
        s[:, 64] = -100.0  # exchange the full two cards
        lead = self.block(obs, "trick_lead")
        table = self.block(obs, "table")
        leading = lead.sum(axis=1) == 0
        lead_suit = self.SUIT[lead.argmax(axis=1)]
        in_suit = (self.SUIT[None, :] == lead_suit[:, None]) & (table > 0)
        top = np.where(in_suit, self.RANK[None, :], -1).max(axis=1)
        wins = (self.SUIT[None, :] == lead_suit[:, None]) & (self.RANK[None, :] > top[:, None])
        follow = np.where(wins, 20.0 - self.RANK, 10.0 - self.RANK)
        if self.PARTNER is not None:
            p = self.block(obs, "dealer").shape[1]
            played = self.block(obs, "played").reshape(n, p, 32)[:, self.PARTNER]
            partner_top = (played * table * in_suit * (self.RANK[None, :] == top[:, None])).any(
                axis=1
            )
            follow = np.where(partner_top[:, None], 10.0 - self.RANK, follow)
        s[:, 32:64] = np.where(leading[:, None], 10.0 * suit_len + self.RANK, follow)
        return s


class PartnershipPiquetHeuristic(PiquetNormandHeuristic):
    """Partnership Piquet: as ``PiquetNormandHeuristic``, never overtaking the partner."""

    env_id = "partnership_piquet-v0"
    PARTNER = 2


HEURISTICS = {
    "banque-v0": BanqueHeuristic,
    "esel-v0": EselHeuristic,
    "piquet-v0": PiquetHeuristic,
    "piquet_au_cent-v0": PiquetAuCentHeuristic,
    "auction_piquet-v0": AuctionPiquetHeuristic,
    "four_aces-v0": FourAcesHeuristic,
    "piquet_normand-v0": PiquetNormandHeuristic,
    "partnership_piquet-v0": PartnershipPiquetHeuristic,
}


def heuristic_for(env_id: str, seed: int = 0) -> ScoredAgent:
    """The rule-based agent of ``env_id``."""
    if env_id not in HEURISTICS:
        raise ValueError(f"no heuristic agent for {env_id!r}; available: {sorted(HEURISTICS)}")
    return HEURISTICS[env_id](seed=seed)
