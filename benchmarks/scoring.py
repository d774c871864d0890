"""Time of Four Aces' round scorer inside a kernel (``score_mask``), per hand.

    python -m benchmarks.scoring [--hands 200000]

Scores random 6-, 7- and 8-card natural hands in one numba loop and prints the mean time per
hand (the issue's target: at most 2 µs).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from cardenvs.games.four_aces.config import Config
from cardenvs.games.four_aces.scoring import score_mask


@njit(cache=True)
def _score_all(masks, cfg, out):
    for i in range(masks.shape[0]):
        out[i] = score_mask(masks[i], cfg)


def random_hands(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    masks = np.zeros(n, np.uint64)
    sizes = rng.integers(6, 9, size=n)
    for i in range(n):
        for c in rng.choice(52, size=sizes[i], replace=False):
            masks[i] |= np.uint64(1) << np.uint64(c)
    return masks


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.scoring", description=__doc__.splitlines()[0]
    )
    p.add_argument("--hands", type=int, default=200_000)
    args = p.parse_args(argv)
    masks = random_hands(args.hands)
    out = np.zeros(args.hands, np.int64)
    out_rows = {}
    for name, cfg in (
        ("default", Config()),
        ("pair -1, replace", Config(pair_value=-1, run_mode="replace")),
    ):
        arr = cfg.to_array()
        _score_all(masks[:10], arr, out[:10])
        runs = []
        for _ in range(5):
            t = time.perf_counter()
            _score_all(masks, arr, out)
            runs.append((time.perf_counter() - t) / args.hands * 1e9)
        out_rows[name] = sorted(runs)[2]
        print(f"score_mask ({name}): {out_rows[name]:.0f} ns per hand (median of 5)")
    return out_rows


if __name__ == "__main__":
    main()
