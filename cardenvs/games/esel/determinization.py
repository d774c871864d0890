"""Esel's determinization for search: ``determinize`` redraws what a seat cannot see, keeping
the voids revealed by play (rules: ``docs/games/esel.md`` 4.5)."""

from __future__ import annotations

import numpy as np

from ...core.state import PackedState
from .config import Config
from .constants import DECK, NUM_CARDS, PHASE_TRUMP
from .layout import F_DECK, F_PHASE, F_STOCK_POS, F_VOID, M_HAND

DETERMINIZE_TRIES = 100  # uniform draws tried before the constructive draw (see determinize)
_SUIT_OF = {c: c // 13 for c in DECK.cards.tolist()}


def determinize(s: PackedState, b: int, config: Config, seat: int, rng) -> None:
    """Redraw in place what ``seat`` cannot see in row ``b``, consistently with what it saw.

    Redrawn: the other players' hands and the order of the stock (during the trump choice every
    hand, its own too: nobody has seen his cards yet). Each hand keeps its size; the cards drawn
    are the ones in those hands and the stock, so every card stays once.

    Kept (public or the seat's own): its own hand, the cards each seat played, the current trick
    and its resolution state, the cards taken, declarations, trumps and suit classes, points,
    tricks, banks, the dealer, the first leader and the stock size.

    Enforced constraint: the voids revealed by play (4.5). A follower who plays an off-suit card
    that does not take the trick, or an off-suit eight, holds no card of the main suit; the
    ``void`` state field keeps these suits per seat until that seat next draws from the stock
    (then the bits are cleared) and a hand is never redrawn with a card of a suit in its
    ``void`` bits. The draw is uniform among the allowed deals: up to ``DETERMINIZE_TRIES``
    uniform permutations, the first one that respects every void is taken (rejection sampling).
    If none does, a constructive draw deals the most constrained seats first, each uniformly from
    the remaining cards it may hold (not exactly uniform); if even that runs out of cards, the
    true hands are kept (only the stock order is redrawn) -- an information leak to the search
    in that rare case, never an inconsistent state.

    Knowingly left out (a determinization may contradict them):
    - after a draw a known void becomes "at most as many cards of that suit as cards drawn since";
      only the certain void until the next draw is kept;
    - ``must_beat=True``: a follower who did not take revealed he held no card that would take;
    - the first lead (4.1): its player held the lowest diamond dealt and nobody a lower one (no
      diamond at all in any hand when the dealer's left led without one);
    - inferences from the declarations and from how the others chose their plays (strategy, not
      rules: the search's business);
    - the deck order before the stock (the dealt cards and the draws so far) is left as it was;
      the rules never read it again, but in a copy it need not match the redrawn hands.
    """
    P = config.num_players
    hidden_own = int(s.f[b, F_PHASE]) == PHASE_TRUMP
    seats = [p for p in range(P) if p != seat or hidden_own]
    sp = int(s.f[b, F_STOCK_POS])
    stock = s.f[b, F_DECK + sp : F_DECK + NUM_CARDS].tolist()
    pool = list(stock)
    true_hands, sizes, voids = [], [], []
    for p in seats:
        m = int(s.m[b, M_HAND + p])
        cards = [c for c in DECK.cards.tolist() if (m >> c) & 1]
        pool += cards
        true_hands.append(m)
        sizes.append(len(cards))
        voids.append(int(s.f[b, F_VOID + p]) & 0xF)
    k = sum(sizes)
    pool_a = np.array(pool, np.int64)
    suits = pool_a // 13
    slot_void = np.repeat(np.array(voids, np.int64), sizes) if seats else np.zeros(0, np.int64)
    order = None
    for _ in range(DETERMINIZE_TRIES if any(voids) else 1):
        perm = rng.permutation(len(pool))
        if not ((slot_void >> suits[perm[:k]]) & 1).any():
            order = pool_a[perm].tolist()
            break
    hands = None
    if order is not None:
        hands, i = [], 0
        for n in sizes:
            hands.append(sum(1 << c for c in order[i : i + n]))
            i += n
        rest = order[k:]
    else:
        hands = _constructive_hands(pool, sizes, voids, rng)
        if hands is None:
            hands = true_hands  # fall back to the true hands (see the docstring)
        used = 0
        for m in hands:
            used |= m
        rest = [c for c in pool if not (used >> c) & 1]
        rest = [rest[i] for i in rng.permutation(len(rest))]
    for p, m in zip(seats, hands, strict=True):
        s.m[b, M_HAND + p] = np.uint64(m)
    s.f[b, F_DECK + sp : F_DECK + NUM_CARDS] = rest


def _constructive_hands(pool, sizes, voids, rng):
    """Deal the most constrained seats first, each uniformly from the cards it may hold; None if
    some seat cannot be filled."""
    hands = [0] * len(sizes)
    left = list(pool)
    for i in sorted(range(len(sizes)), key=lambda i: -bin(voids[i]).count("1")):
        ok = [c for c in left if not (voids[i] >> _SUIT_OF[c]) & 1]
        if len(ok) < sizes[i]:
            return None
        pick = [ok[j] for j in rng.choice(len(ok), size=sizes[i], replace=False).tolist()]
        for c in pick:
            hands[i] |= 1 << c
        chosen = set(pick)
        left = [c for c in left if c not in chosen]
    return hands
