"""Four Aces' hand scorer, as numba kernels: rank combinations (A), same-suit groups (B) and runs
(C), a round score = A + B + C, with the scoring options (``docs/games/four_aces.md`` 5.3-5.5;
A12-A15)."""

from __future__ import annotations

import numpy as np
from numba import njit

from .config import C_PAIR_VALUE, C_RUN2_VALUE, C_RUN_MODE, C_SCORE_MODE
from .constants import NATURALS, RUN_VALUE, SUIT_VALUE
from .layout import M_EXPOSED, M_HIDDEN


@njit(cache=True)
def _rank_block(mask, pair_value):
    """Rank combinations, maximised over disjoint splits (5.3 A); with ``pair_value < 0`` a rank
    group of exactly two that is in no bigger combination costs ``pair_value``."""
    ranks_c = np.zeros(13, np.int64)
    for r in range(13):
        c = 0
        for suit in range(4):
            c += (mask >> np.uint64(suit * 13 + r)) & np.uint64(1)
        ranks_c[r] = c
    # the ranks that can form combinations, and each one's count
    cs = np.zeros(4, np.int64)
    k = 0
    for r in range(13):
        if ranks_c[r] >= 2:
            cs[k] = ranks_c[r]
            k += 1
    best = -1000
    # each rank with count c chooses a split: 0 none, 1 a pair, 2 a trio, 3 a quad, 4 two pairs
    total = 5**k
    for code in range(total):
        x = code
        pairs = trios = quads = dup = 0
        ok = True
        for i in range(k):
            choice = x % 5
            x //= 5
            c = cs[i]
            if choice == 0:
                if c == 2 and pair_value < 0:
                    ok = False  # a group of exactly two must count as a pair (S3 reading)
            elif choice == 1:
                pairs += 1
            elif choice == 2:
                if c < 3:
                    ok = False
                trios += 1
            elif choice == 3:
                if c < 4:
                    ok = False
                quads += 1
            else:
                if c < 4:
                    ok = False
                pairs += 2
                dup += 1
        if not ok:
            continue
        # full houses first (a trio with a pair of another rank), pairs from doubled ranks first
        f = min(trios, pairs)
        left = pairs - f
        left_dup = max(dup - f, 0)
        maxmult = 2 if left_dup > 0 else 1
        two = min(left // 2, left - maxmult) if left > 0 else 0
        two = max(two, 0)
        score = 10 * quads + 10 * f + 2 * (trios - f) + 3 * two + pair_value * (left - 2 * two)
        if score > best:
            best = score
    return best if k > 0 else 0


@njit(cache=True)
def _suit_and_runs(mask, replace, run2):
    """Same-suit groups (mandatory, 5.3 B) and maximal same-suit runs (5.3 C)."""
    total = 0
    table = 0 if run2 > 0 else 1
    for suit in range(4):
        bits = np.int64((mask >> np.uint64(suit * 13)) & np.uint64(0x1FFF))
        n = 0
        runs = 0
        n_runs = 0
        r = 0
        while r < 13:
            if (bits >> r) & 1:
                start = r
                while r < 13 and (bits >> r) & 1:
                    r += 1
                length = r - start
                n += length
                n_runs += 1
                runs += RUN_VALUE[table, length]
            else:
                r += 1
        if replace and n_runs == 1 and n >= 2:
            total += RUN_VALUE[table, n]  # a single run replaces the suit value (5.5)
        elif replace:
            total += SUIT_VALUE[n]
        else:
            total += SUIT_VALUE[n] + runs
    return total


# the time to score a hand in the kernel: python -m benchmarks.scoring (docs/guides/benchmarks.md)
@njit(cache=True)
def score_mask(mask, cfg):
    """Round score of the natural cards in ``mask`` (jokers ignored): A + B + C (5.3)."""
    m = mask & NATURALS
    return _rank_block(m, cfg[C_PAIR_VALUE]) + _suit_and_runs(m, cfg[C_RUN_MODE], cfg[C_RUN2_VALUE])


@njit(cache=True)
def _round_score(s, b, cfg, p):
    h, e = s.m[b, M_HIDDEN + p], s.m[b, M_EXPOSED + p]
    if cfg[C_SCORE_MODE]:
        return score_mask(h, cfg) + score_mask(e, cfg)
    return score_mask(h | e, cfg)
