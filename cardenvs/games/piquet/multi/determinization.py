"""Piquet normand and partnership Piquet's determinization for search (``determinize``: ISMCTS on
state copies, ``cardenvs.core.sim``): redraw what a seat cannot see, consistently with what it
saw (``docs/games/piquet.md`` 6.2).
"""

from __future__ import annotations

import math

import numpy as np

from ....core.state import PackedState
from ..cards import index_of
from ..determinization import _cards_of, _mask_of
from .config import C_CARTE_BLANCHE, C_HAND_SIZE, C_MODE, C_NORMAND_DEALER_EXCHANGE, C_NUM_SEATS
from .constants import MAX_SEATS, MODE_NORMAND, NUM_CARDS, OUTCOME_NONE, PHASE_EXCHANGE, PHASE_PLAY
from .layout import (
    F_BONUS,
    F_CB,
    F_DEAL_NO,
    F_DEALER,
    F_DECK,
    F_DECL_WIN,
    F_FINISHED,
    F_LAST_DISC,
    F_NDISC,
    F_PHASE,
    F_TALON_POS,
    F_VOID,
    M_DEALT,
    M_DISCARDS,
    M_HAND,
    M_KEY,
    M_PLAYED,
    M_SEEN,
    M_SHOWN,
    V_DEAL_SCORE,
    V_DECL_PTS,
    State,
)
from .rules import declare_row

# --- determinization (search on state copies, ``core.sim``) -----------------------------------
DETERMINIZE_TRIES = 300  # uniform draws tried before the fallback chain (see ``determinize``)
DETERMINIZE_SWAPS = 40  # fallback: swap proposals per hidden place
_SUIT_MASKS = tuple(0xFF << (suit * 13 + 5) for suit in range(4))
_ALL_CARDS = sum(_SUIT_MASKS)
_FACES = sum(0x70 << (suit * 13 + 5) for suit in range(4))  # J, Q, K (carte blanche, 2.3)


def _void_split(caps: list[int], allowed: list[int], pool: int, rng) -> list[list[int]]:
    """How many cards of each suit of ``pool`` each constrained group of places takes: group
    ``g`` has ``caps[g]`` places and takes only ``allowed[g]`` cards; the other places take
    the rest. Drawn with the probability of the counts under a uniform deal of ``pool``
    conditioned on every group's constraint (a dynamic programme over the suits)."""
    n = [(pool & m).bit_count() for m in _SUIT_MASKS]
    ok = [[bool(a & _SUIT_MASKS[suit]) for suit in range(4)] for a in allowed]
    after = [sum(n[k:]) for k in range(5)]
    memo: dict = {}

    def options(suit: int, left: tuple) -> list[tuple[tuple, float]]:
        """(counts per group, weight 1 / prod x!) for ``suit`` given the places left."""
        free_left = after[suit] - sum(left)
        out = []

        def rec(g: int, xs: tuple, w: float, used: int) -> None:
            if g == len(left):
                x_free = n[suit] - used
                if 0 <= x_free <= free_left:
                    out.append((xs, w / math.factorial(x_free)))
                return
            top = min(left[g], n[suit] - used) if ok[g][suit] else 0
            for x in range(top + 1):
                rec(g + 1, xs + (x,), w / math.factorial(x), used + x)

        rec(0, (), 1.0, 0)
        return out

    def count(suit: int, left: tuple) -> float:
        if suit == 4:
            return 1.0 if not any(left) else 0.0
        key = (suit, left)
        if key not in memo:
            memo[key] = sum(
                w * count(suit + 1, tuple(a - x for a, x in zip(left, xs, strict=True)))
                for xs, w in options(suit, left)
            )
        return memo[key]

    left = tuple(caps)
    if count(0, left) == 0.0:
        raise RuntimeError("piquet determinize: the voids leave no deal")
    per_group = [[0] * 4 for _ in caps]
    for suit in range(4):
        opts = options(suit, left)
        weights = np.array(
            [
                w * count(suit + 1, tuple(a - x for a, x in zip(left, xs, strict=True)))
                for xs, w in opts
            ]
        )
        xs = opts[int(rng.choice(len(opts), p=weights / weights.sum()))][0]
        for g, x in enumerate(xs):
            per_group[g][suit] = x
        left = tuple(a - x for a, x in zip(left, xs, strict=True))
    return per_group


class _Deal:
    """Where every card of row ``b``'s deal may lie, as ``seat`` knows it: deck positions (the
    packets from the dealer's left, then the normand talon) and, per other seat, which of its
    positions hold its hand after the exchange (``after``) and which its discards (``disc``).

    The normand dealer's packet is taken in the order kept cards, then discards (the order
    within a packet is never read again; the talon's is: the dealer takes it from the top)."""

    def __init__(self, s: State, b: int, config, seat: int):
        cfg = config.to_array()
        self.s, self.b, self.seat, self.cfg = s, b, seat, cfg
        p, h = int(cfg[C_NUM_SEATS]), int(cfg[C_HAND_SIZE])
        self.p = p
        self.normand = int(cfg[C_MODE]) == MODE_NORMAND
        self.phase = ph = int(s.f[b, F_PHASE])
        self.dealer = dealer = int(s.f[b, F_DEALER])
        deal_no = int(s.f[b, F_DEAL_NO])
        # seats dealt a packet this deal (a normand player out before it has a dead packet)
        self.dealt_in = [
            int(s.f[b, F_FINISHED + t]) == 0 or int(s.f[b, F_FINISHED + t]) > deal_no
            for t in range(p)
        ]
        deck = [int(c) for c in s.f[b, F_DECK : F_DECK + NUM_CARDS]]
        self.exch_done = self.normand and ph != PHASE_EXCHANGE
        self.ndisc = int(s.f[b, F_NDISC]) if self.normand else 0
        taken = int(s.f[b, F_TALON_POS]) if self.exch_done else 0
        talon = list(range(p * h, NUM_CARDS)) if self.normand else []
        packet = {t: [((t - dealer - 1) % p) * h + i for i in range(h)] for t in range(p)}
        self.talon = talon
        self.taken = {}  # per other seat: the talon positions he drew (the normand dealer)
        # the true deal in the structure above (the dealer's kept cards before his discards)
        truth = list(deck)
        fixed = set()  # positions whose card ``seat`` knows
        if self.dealt_in[seat]:
            fixed |= set(packet[seat])
        if self.normand and seat == dealer and self.exch_done:
            fixed |= set(talon)
        self.after, self.disc, self.held, self.packet_set = {}, {}, {}, {}
        self.may_hold = {}
        for t in range(p):
            if t == seat or not self.dealt_in[t]:
                continue
            pk = packet[t]
            nd = self.ndisc if (self.normand and t == dealer) else 0
            kept_pos, disc_pos = pk[: h - nd], pk[h - nd :]
            if nd:
                disc_true = int(s.m[b, M_DISCARDS])
                cards = [deck[i] for i in pk]
                order = [c for c in cards if not (disc_true >> c) & 1] + [
                    c for c in cards if (disc_true >> c) & 1
                ]
                for i, c in zip(pk, order, strict=True):
                    truth[i] = c
            taken_pos = talon[:taken] if (self.normand and t == dealer) else []
            self.taken[t] = taken_pos
            self.after[t] = kept_pos + taken_pos
            self.disc[t] = disc_pos
            played, shown = int(s.m[b, M_PLAYED + t]), int(s.m[b, M_SHOWN + t])
            voids = int(s.f[b, F_VOID + t])
            self.may_hold[t] = _ALL_CARDS & ~sum(
                m for k, m in enumerate(_SUIT_MASKS) if (voids >> k) & 1
            )
            if ph >= PHASE_PLAY and int(s.f[b, F_CB + t]):
                # a carte blanche's dealt hand is public: its packet is known as a set, only
                # which of it the dealer discarded is hidden; shown cards beyond it he took
                dealt = int(s.m[b, M_DEALT + t])
                self.packet_set[t] = dealt
                self.held[t] = played | (shown & ~dealt)
            else:
                self.held[t] = played | shown  # in his hand after the exchange
        self.truth = truth
        self.fixed = fixed
        self.hidden = [i for i in range(NUM_CARDS) if i not in fixed]
        # what each hidden position is to the rules: a seat's kept or discarded packet card
        # (positions within one are interchangeable), else its own (a talon place, a dead card)
        self.place = {i: i for i in self.hidden}
        for t, pos in self.after.items():
            for i in pos:
                if i not in self.taken[t]:
                    self.place[i] = (t, "kept")
            for i in self.disc[t]:
                self.place[i] = (t, "disc")
        self.deck = deck
        self._t = PackedState(*(a[b : b + 1].copy() for a in s))
        self._want = None
        if ph >= PHASE_PLAY:
            self._want = [
                s.f[b, F_DECL_WIN : F_DECL_WIN + 3].copy(),
                s.v[b, V_DECL_PTS : V_DECL_PTS + 3].copy(),
                s.m[b, M_SHOWN : M_SHOWN + MAX_SEATS].copy(),
            ]
            t_ = self._t
            for t in range(p):
                if self.dealt_in[t]:
                    t_.f[0, F_FINISHED + t] = 0  # in the deal (the game may be over)
                    t_.m[0, M_HAND + t] = s.m[b, M_HAND + t] | s.m[b, M_PLAYED + t]

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, rng) -> list[int]:
        """A deal drawn uniformly among those that put each other seat's known cards in his
        hand after the exchange (and a public carte blanche's cards in his packet): the known
        cards take random places among their seat's ``after`` positions, every other hidden card
        a random hidden place left."""
        new = list(self.deck)
        free_pos = set(self.hidden)
        pool = _ALL_CARDS & ~_mask_of(new[i] for i in self.fixed)

        def place(cards: int, positions: list[int]) -> list[int]:
            """Put ``cards`` at random positions among ``positions``; return the positions."""
            cs = _cards_of(cards)
            at = [positions[k] for k in rng.permutation(len(positions))[: len(cs)]]
            for i, c in zip(at, cs, strict=True):
                new[i] = c
            return at

        for t, pos in self.after.items():
            held = self.held[t]
            if t in self.packet_set:
                # a public carte blanche: the cards he played are among those he kept, the
                # rest of his dealt hand anywhere in his packet, the cards he showed beyond it
                # at the talon places he drew
                dealt = self.packet_set[t]
                kept_pos = [i for i in pos if i not in self.taken[t]]
                at = place(held & dealt, kept_pos)
                packet_left = [i for i in kept_pos + self.disc[t] if i not in at]
                place(dealt & ~held, packet_left)
                at_talon = place(held & ~dealt, self.taken[t])
                free_pos -= set(kept_pos) | set(self.disc[t]) | set(at_talon)
                pool &= ~(dealt | held)
            else:
                free_pos -= set(place(held, pos))
                pool &= ~held
        free = sorted(free_pos)
        if pool.bit_count() != len(free):
            raise RuntimeError(f"piquet determinize: {pool.bit_count()} cards, {len(free)} places")
        # the hidden cards: a seat void in a suit takes none of it in his hand, uniformly
        # among the ways that respect every void (the suit counts per seat drawn first)
        groups, rest = [], list(free)
        for t, pos in self.after.items():
            if self.may_hold[t] != _ALL_CARDS:
                mine = [i for i in rest if i in set(pos)]
                groups.append((mine, self.may_hold[t]))
                rest = [i for i in rest if i not in set(mine)]
        if groups:
            counts = _void_split([len(g) for g, _ in groups], [a for _, a in groups], pool, rng)
            for (positions, _), per_suit in zip(groups, counts, strict=True):
                cards = 0
                for suit, n in enumerate(per_suit):
                    cs = _cards_of(pool & _SUIT_MASKS[suit])
                    pick = [cs[k] for k in rng.permutation(len(cs))[:n]]
                    cards |= _mask_of(pick)
                    pool &= ~_mask_of(pick)
                place(cards, positions)
        place(pool, rest)
        return new

    # -- checking -----------------------------------------------------------------------------
    def hands(self, new: list[int]):
        """Per other seat: (dealt hand, hand after the exchange, discards) of a drawn deal."""
        out = {}
        for t, pos in self.after.items():
            after = _mask_of(new[i] for i in pos)
            disc = _mask_of(new[i] for i in self.disc[t])
            taken = _mask_of(new[i] for i in self.taken[t])
            out[t] = ((after & ~taken) | disc, after, disc)
        return out

    def consistent(self, new: list[int]) -> bool:
        """Whether a drawn deal agrees with everything ``seat`` has observed (see
        ``determinize``)."""
        s, b, cfg = self.s, self.b, self.cfg
        hands = self.hands(new)
        for t, (dealt, after, disc) in hands.items():
            if self.held[t] & ~after:
                return False  # a card he played or showed was not in his hand
            if (after & ~int(s.m[b, M_PLAYED + t])) & ~self.may_hold[t]:
                return False  # he holds a card of a suit he failed to follow
            if t in self.packet_set and dealt != self.packet_set[t]:
                return False
            if self.phase >= PHASE_PLAY:
                cb = 1 if (cfg[C_CARTE_BLANCHE] and dealt and not dealt & _FACES) else 0
                if cb != int(s.f[b, F_CB + t]):
                    return False  # carte blanche (public from the play) or not
            elif (
                self.ndisc == 1 and t == self.dealer and self.ndisc < cfg[C_NORMAND_DEALER_EXCHANGE]
            ):
                # a forced second discard must find a card above the first (canonical order)
                if max(_cards_of(after)) < _cards_of(disc)[0]:
                    return False
        if self._want is None:
            return True
        t_ = self._t
        for t, (dealt, after, _) in hands.items():
            t_.m[0, M_HAND + t] = np.uint64(after)
            t_.m[0, M_DEALT + t] = np.uint64(dealt)
        t_.m[0, M_SHOWN : M_SHOWN + MAX_SEATS] = 0
        t_.v[0, V_DECL_PTS : V_DECL_PTS + 3] = 0
        t_.v[0, V_DEAL_SCORE : V_DEAL_SCORE + MAX_SEATS] = 0
        t_.f[0, F_BONUS : F_BONUS + MAX_SEATS] = 0
        t_.f[0, F_DECL_WIN : F_DECL_WIN + 3] = OUTCOME_NONE
        declare_row(t_, 0, cfg)
        w_win, w_pts, w_shown = self._want
        return (
            np.array_equal(t_.f[0, F_DECL_WIN : F_DECL_WIN + 3], w_win)
            and np.array_equal(t_.v[0, V_DECL_PTS : V_DECL_PTS + 3], w_pts)
            and np.array_equal(t_.m[0, M_SHOWN : M_SHOWN + MAX_SEATS], w_shown)
        )

    def walk(self, rng, start: list[int]) -> list[int]:
        """From a consistent deal, random swaps of two hidden cards in different places, each
        kept only if the deal stays consistent (a Metropolis walk whose stationary law is the
        uniform one over the consistent deals it can reach)."""
        cur = list(start)
        hidden = self.hidden
        if len(hidden) < 2:
            return cur
        for _ in range(DETERMINIZE_SWAPS * len(hidden)):
            i, j = (hidden[k] for k in rng.choice(len(hidden), 2, replace=False))
            if self.place[i] == self.place[j]:
                continue  # the same place: a swap changes nothing the rules read
            cur[i], cur[j] = cur[j], cur[i]
            if not self.consistent(cur):
                cur[i], cur[j] = cur[j], cur[i]
        return cur

    def write(self, new: list[int]) -> None:
        """Write a drawn deal into the row: the deck, and every other seat's dealt hand, hand,
        carte blanche flag and (normand dealer) discards, talon cards seen and last discard."""
        s, b, cfg = self.s, self.b, self.cfg
        s.f[b, F_DECK : F_DECK + NUM_CARDS] = new
        for t, (dealt, after, disc) in self.hands(new).items():
            s.m[b, M_DEALT + t] = np.uint64(dealt)
            s.m[b, M_HAND + t] = np.uint64(after & ~int(s.m[b, M_PLAYED + t]))
            s.f[b, F_CB + t] = 1 if (cfg[C_CARTE_BLANCHE] and dealt and not dealt & _FACES) else 0
            if self.normand and t == self.dealer:
                s.m[b, M_DISCARDS] = np.uint64(disc)
                s.f[b, F_LAST_DISC] = int(index_of(max(_cards_of(disc)))) if disc else -1
                if self.exch_done:  # the talon cards he left (``"may"``)
                    untaken = self.talon[len(self.taken[t]) :]
                    s.m[b, M_SEEN] = np.uint64(_mask_of(new[i] for i in untaken))


def determinize(s: State, b: int, config, seat: int, rng) -> None:
    """Redraw in place what ``seat`` cannot see in row ``b``, consistently with what it saw.

    Redrawn: the cards of every other seat's hand (partner included) that ``seat`` does not
    know; the normand dealer's discards and the talon (its cards he took and those he left),
    unless ``seat`` is the dealer after his exchange (then he knows them all; during his
    exchange the talon is still hidden from him); the dead packet of a normand player who is
    out; and the row key (so the next deals are unknown too). Recomputed from them: the other
    seats' ``hand``, ``dealt`` and ``cb``, the dealer's ``discards``, ``seen`` and
    ``last_disc``, and the deck order.

    Kept (the seat's own or public): its own packet, hand, discards and talon cards; every card
    played (by whom, the current trick included); the shown cards (declarations, a carte
    blanche); the counts (cards exchanged), outcomes, points, scores, bonuses, tricks and
    voids. Each hand keeps its size, so every card stays once.

    Constraints enforced on the redrawn deal (every one is tested):

    - a card a seat played or showed was in his hand after the exchange (the normand dealer:
      kept from his packet or taken from the talon places he drew);
    - voids shown in trick play (the ``void`` state field): no seat holds a card of a suit he
      failed to follow this deal;
    - a public carte blanche: its packet is its dealt hand exactly (the normand dealer's
      discards among it are redrawn); from the play on, every other seat's dealt hand holds a
      K, Q or J (``carte_blanche=True``), since his carte blanche would have been shown;
    - the declarations: from the play on, the hands after the exchange give exactly the same
      outcomes, points and shown cards (a winner holds no card that would have lengthened or
      raised what he showed, nobody else a better point, sequence or set; an equality stays an
      equality, "nobody" stays nobody);
    - during the exchange, the canonical order: with a forced second discard, the first one
      is not the dealer's highest card.

    Knowingly left out (strategy, not rules: the search's business): what the others' choices
    say about their cards (which card a player chose when he could choose, how many the dealer
    exchanged with ``"may"``).

    The draw: up to ``DETERMINIZE_TRIES`` uniform draws (each seat's known cards take random
    places among his hand after the exchange, every other hidden card a random hidden place);
    the first consistent one is taken, so the result is uniform over the consistent deals.
    If none is (very constrained positions: many voids, or declarations only a few deals
    reproduce), the fallback is a random walk of swaps of hidden cards started from the true
    deal, each swap kept only if the deal stays consistent (``DETERMINIZE_SWAPS`` proposals per
    hidden card): always consistent, close to uniform when the consistent deals are connected
    by swaps, but correlated with the true cards when few swaps are accepted (an approximation,
    never an inconsistent state).
    """
    deal = _Deal(s, b, config, seat)
    s.m[b, M_KEY] = np.uint64(int(rng.integers(0, 2**63 - 1, dtype=np.int64)))
    if not deal.hidden:
        return
    for _ in range(DETERMINIZE_TRIES):
        new = deal.draw(rng)
        if deal.consistent(new):
            break
    else:
        new = deal.walk(rng, deal.truth)
    deal.write(new)
