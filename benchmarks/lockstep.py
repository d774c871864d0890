"""How much of a batched step is the rows' divergence: N distinct games against N copies of one.

For each id, two engines of ``--n`` rows play random legal games, timed in alternating runs:

- **distinct**: the engine as benchmarked (every row its own deal, its own random actions);
- **lockstep**: every row a copy of row 0 (the state, RNG key included, copied after the reset)
  and every row given row 0's action, so all rows stay the same game. They do the same work per
  row (the same kernels, the same observation and mask writes into their own rows), but every
  branch a kernel takes goes the way it went in the row before, so the CPU predicts them all.

The ratio bounds what making the rules kernels branch-free could gain (the runs so far:
``docs/history.md``, "From the code"). The random draws are made in both modes (lockstep then
broadcasts row 0's).

    python -m benchmarks.lockstep [--games banque-v0 ...] [--n 1024] [--steps 1500]
"""

from __future__ import annotations

import argparse
import time

import cardenvs
from cardenvs.core.vector import RandomLegal


def _engine(env_id: str, n: int, lockstep: bool):
    venv = cardenvs.make_vector(env_id, num_envs=n, seed=0)
    policy = RandomLegal(1)
    venv.reset()
    if lockstep:
        for field in venv.state:
            field[:] = field[0]
        venv._mask[:] = venv._mask[0]  # the engine's own buffer (the one it returns is read-only)

    def step() -> None:
        actions = policy(venv.action_mask)
        if lockstep:
            actions[:] = actions[0]
        venv.step(actions)

    return venv, step


def measure(env_id: str, n: int = 1024, steps: int = 1500) -> dict:
    """Decisions/s of both modes, in runs of 10 steps taken in turn."""
    engines = {mode: _engine(env_id, n, mode == "lockstep") for mode in ("distinct", "lockstep")}
    total = dict.fromkeys(engines, 0.0)
    for _, step in engines.values():
        step()
    for _ in range(steps // 10):
        for mode, (_, step) in engines.items():
            t0 = time.perf_counter()
            for _ in range(10):
                step()
            total[mode] += time.perf_counter() - t0
    venv = engines["lockstep"][0]
    same = all(bool((f == f[0]).all()) for f in venv.state)
    rates = {mode: n * (steps // 10) * 10 / t for mode, t in total.items()}
    return {
        "game": env_id,
        "n": n,
        **{f"{m}_per_s": r for m, r in rates.items()},
        "ratio": rates["lockstep"] / rates["distinct"],
        "ns_per_row": {m: 1e9 / r for m, r in rates.items()},
        "rows_still_identical": same,
    }


def main(argv=None) -> list[dict]:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.lockstep", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--games", nargs="*", default=list(cardenvs.GAMES))
    p.add_argument("--n", type=int, default=1024)
    p.add_argument("--steps", type=int, default=1500)
    args = p.parse_args(argv)
    out = []
    print("| id | N | distinct | lockstep | lockstep / distinct | ns a row (distinct, lockstep) |")
    print("|---|---:|---:|---:|---:|---:|")
    for env_id in args.games:
        r = measure(env_id, args.n, args.steps)
        out.append(r)
        d, k = r["ns_per_row"]["distinct"], r["ns_per_row"]["lockstep"]
        flag = "" if r["rows_still_identical"] else " (rows diverged!)"
        print(
            f"| {env_id} | {args.n} | {r['distinct_per_s'] / 1e6:.2f} M | "
            f"{r['lockstep_per_s'] / 1e6:.2f} M | {r['ratio']:.2f}x{flag} | {d:.0f}, {k:.0f} |"
        )
    return out


if __name__ == "__main__":
    main()
