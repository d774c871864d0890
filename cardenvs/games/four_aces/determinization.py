"""Four Aces' determinization for search: redraw what a seat cannot see (the other players'
hidden natural cards, the stock order); what is public follows ``docs/games/four_aces.md``
section 8 ("Information")."""

from __future__ import annotations

import numpy as np

from ...core.cards import NUM_CARDS
from ...core.state import PackedState
from .config import Config
from .constants import ACES
from .layout import F_DECK, F_STOCK_POS, M_EXPOSED, M_HIDDEN


def determinize(s: PackedState, b: int, config: Config, seat: int, rng) -> None:
    """Redraw in place what ``seat`` cannot see in row ``b``: the other players' hidden natural
    cards and the order of the stock. Each hidden hand keeps its number of natural cards; the
    jokers each player holds are public (limit − 3 − jokers played) and stay; the stock keeps
    its jokers. Exposed hands and the discard pile are public. A draw that would give another
    player all four aces (the game would have ended) is redrawn.
    """
    P = config.num_players
    others = [p for p in range(P) if p != seat]
    sp = int(s.f[b, F_STOCK_POS])
    stock = s.f[b, F_DECK + sp : F_DECK + NUM_CARDS].tolist()
    naturals = [c for c in stock if c < 52]
    jokers = [c for c in stock if c >= 52]
    sizes = []
    for p in others:
        m = int(s.m[b, M_HIDDEN + p])
        cards = [c for c in range(52) if (m >> c) & 1]
        naturals += cards
        sizes.append(len(cards))
    aces = int(ACES)
    for _ in range(100):
        pool = [naturals[i] for i in rng.permutation(len(naturals))]
        hands, k = [], 0
        for n in sizes:
            m = 0
            for c in pool[k : k + n]:
                m |= 1 << c
            hands.append(m)
            k += n
        exposed = [int(s.m[b, M_EXPOSED + p]) for p in others]
        if all((h | e) & aces != aces for h, e in zip(hands, exposed, strict=True)):
            break
    for p, m in zip(others, hands, strict=True):
        s.m[b, M_HIDDEN + p] = np.uint64(m)
    rest = pool[k:] + jokers
    s.f[b, F_DECK + sp : F_DECK + NUM_CARDS] = [rest[i] for i in rng.permutation(len(rest))]
