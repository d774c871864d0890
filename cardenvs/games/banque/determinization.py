"""Banque's determinization for search: redraw what a seat cannot see (the other hands and the
stock order); rules: ``docs/games/banque.md``."""

from __future__ import annotations

import numpy as np

from ...core.state import PackedState
from .config import Config
from .constants import DECK, NUM_CARDS, PHASE_TRUMP
from .layout import F_CURRENT, F_DECK, F_PHASE, F_STOCK_POS, M_DRAWN, M_HAND


def determinize(s: PackedState, b: int, config: Config, seat: int, rng) -> None:
    """Redraw in place what ``seat`` cannot see in row ``b``: the other players' hands and the
    stock order (during the trump choice, every hand, its own too). Each hand keeps its size; a
    player to act who drew this turn keeps that many of his new cards as "drawn". Everything
    else (the bank and its owners, the cards taken, trumps, scores) is public and kept.
    """
    P = config.num_players
    hidden_own = s.f[b, F_PHASE] == PHASE_TRUMP
    seats = [p for p in range(P) if p != seat or hidden_own]
    pool = []
    sizes = []
    for p in seats:
        m = int(s.m[b, M_HAND + p])
        cards = [c for c in DECK.cards.tolist() if (m >> c) & 1]
        pool += cards
        sizes.append(len(cards))
    sp = int(s.f[b, F_STOCK_POS])
    stock = s.f[b, F_DECK + sp : F_DECK + NUM_CARDS].tolist()
    pool += stock
    pool = [pool[i] for i in rng.permutation(len(pool))]
    k = 0
    for p, n in zip(seats, sizes, strict=True):
        m = 0
        for c in pool[k : k + n]:
            m |= 1 << c
        s.m[b, M_HAND + p] = np.uint64(m)
        k += n
    s.f[b, F_DECK + sp : F_DECK + NUM_CARDS] = pool[k:]
    cur = int(s.f[b, F_CURRENT])
    if cur >= 0 and cur != seat and s.m[b, M_DRAWN]:
        n = bin(int(s.m[b, M_DRAWN])).count("1")
        h = int(s.m[b, M_HAND + cur])
        held = [c for c in DECK.cards.tolist() if (h >> c) & 1]
        m = 0
        for c in rng.choice(held, size=n, replace=False).tolist():
            m |= 1 << c
        s.m[b, M_DRAWN] = np.uint64(m)
