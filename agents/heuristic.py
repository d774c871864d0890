"""One rule-based agent per game: strategies a club player would recognise, written as action
scores over a whole batch of observations (numpy), fast enough to drive the batched engine.

Every agent rates each action of each row (``scores``); the best legal one is played, ties broken
at random. The rules each one follows are in its docstring.
"""

from __future__ import annotations

import numpy as np

from .base import ScoredAgent

# --- card tables (each game's card index order) --------------------------------------------------
# 36-card games (Esel, Banque): index = suit * 9 + natural rank 6 7 8 9 10 J Q K A
_R36 = np.tile(np.arange(9), 4)  # natural rank index 0..8
_GAME_ORDER = np.array([0, 1, 2, 3, 7, 4, 5, 6, 8])  # 6 7 8 9 J Q K 10 A -> game order rank
_ORDER36 = np.tile(_GAME_ORDER, 4)
_SUIT36 = np.repeat(np.arange(4), 9)


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
    """Esel: stay safe on the declaration, never give points away.

    - Declaration: ``no`` (a failed ``no`` costs nothing) unless the four cards hold at least
      40 card points (say an eight, an ace and a ten with a king), then ``go``.
    - Play: the legal card worth the fewest points (a six, worth −1, first), the lowest in rank
      order among equals: the trick's winner takes every card on it, and a heuristic cannot tell
      who will take it, so it gives away as little as possible.
    - Trump choice: the free suit with the lowest letter (the hand is not seen yet).

    Measured against random play (``benchmarks.tournament``): this beat every variant tried,
    including chasing tricks with the highest main-suit card and declaring ``go`` from 22 points.
    """

    name = "heuristic"
    env_id = "esel-v0"
    POINTS = np.array([-1, 0, 16, 0, 10, 1, 3, 5, 12], np.float64)[_R36]
    GO_POINTS = 40

    def scores(self, obs, masks):
        n = obs.shape[0]
        hand = self.block(obs, "hand")
        s = np.zeros((n, 42))
        s[:, 0:36] = -self.POINTS - 0.01 * _ORDER36
        go = (hand * self.POINTS).sum(axis=1) >= self.GO_POINTS
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
