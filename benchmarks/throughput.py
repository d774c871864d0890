"""Throughput of cardenvs: AEC env steps/s and batched engine env-steps/s.

Random legal play, whole games, one process. The batched engine writes the observation of the
seat to act and the action mask of every row on every step; the random actions are drawn by a
numba kernel (``cardenvs.core.vector.RandomLegal``) and their cost is included.

    python -m benchmarks.throughput [--games piquet-v0] [--seconds 3] [--sizes 1 64 1024 8192]

Prints a table and writes ``benchmarks/results/throughput.json``. Also reports the warm start
(``import cardenvs``; make; reset; one step, in a fresh process with the numba cache present)
and the state memory per game. The engines are compiled first (``cardenvs.compile``), and every
timed run starts after untimed steps, so no compilation is timed even on a fresh clone.

On a shared VM the same code moves a lot from one minute to the next (``docs/history.md``, "The
batched engine's throughput"), mostly with the memory bandwidth the host leaves us (at N = 8192
the observations alone are 11-17 MB per batch step).
So next to each game's numbers the report gives the host's write bandwidth measured just before
them (``host_write_gb_s``: a numba loop filling a 14 MB float32 array, the size of Banque's
observation batch at N = 8192); read a slow run together with it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

import cardenvs
from cardenvs.compile import compile_all
from cardenvs.core.vector import RandomLegal

RESULTS = Path(__file__).parent / "results"


def aec_loop(env, seconds: float, rng: np.random.Generator) -> tuple[int, int, float]:
    """Random legal play on a reset PettingZoo AEC env (``env.last()`` + ``step``), whole games,
    until the first game end after ``seconds``; returns (steps, games, seconds taken)."""
    steps = games = 0
    t0 = time.perf_counter()
    while True:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:
                games += 1
                if time.perf_counter() - t0 > seconds:
                    break
                env.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
        steps += 1
    return steps, games, time.perf_counter() - t0


def bench_aec(env_id: str, seconds: float, seed: int = 0) -> dict:
    """AEC steps/s with random legal actions over whole games (``env.last()`` + ``step``),
    after one untimed game (numba's cache load, or a compilation, stays out of the timing)."""
    env = cardenvs.make(env_id)
    env.reset(seed=seed)
    aec_loop(env, 0.0, np.random.default_rng(seed))
    env.reset(seed=seed)
    steps, games, dt = aec_loop(env, seconds, np.random.default_rng(seed))
    return {"steps_per_s": steps / dt, "games_per_s": games / dt, "steps": steps, "games": games}


def timed_batches(step, n: int, seconds: float) -> tuple[int, int, float]:
    """Call ``step()`` (one batch step of ``n`` rows; returns the games it finished) in tens
    until ``seconds`` have passed; returns (decisions, games, seconds taken)."""
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(10):
            games += step()
        steps += 10 * n
    return steps, games, time.perf_counter() - t0


def vector_stepper(env_id: str, n: int, seed: int = 0):
    """One batch step of random legal play on a fresh engine of ``n`` rows, as a function of
    nothing that returns 0 (finished games are not counted: see ``bench_vector``); five steps
    are taken first (numba compile or cache load, and the first deal left behind)."""
    venv = cardenvs.make_vector(env_id, num_envs=n, seed=seed)
    policy = RandomLegal(seed)
    box = {"mask": venv.reset()[1]}

    def step() -> int:
        _, box["mask"], *_ = venv.step(policy(box["mask"]))
        return 0

    for _ in range(5):
        step()
    return step


def bench_vector(
    env_id: str, n: int, seconds: float, seed: int = 0, repeats: int = 5, game_len: float = 0.0
) -> dict:
    """Batched env-steps/s (rows x batch steps per second) with random legal actions: the median
    of ``repeats`` timed runs of ``seconds / repeats`` each (this kind of machine is noisy).
    games/s is steps/s over ``game_len``, the mean game length (a short run at large N finishes
    too few games to count them)."""
    step = vector_stepper(env_id, n, seed)
    runs = []
    for _ in range(repeats):
        steps, _, dt = timed_batches(step, n, seconds / repeats)
        runs.append(steps / dt)
    runs.sort()
    steps_s = runs[len(runs) // 2]
    return {
        "steps_per_s": steps_s,
        "games_per_s": steps_s / game_len if game_len else 0.0,
        "num_envs": n,
        "runs_steps_per_s": runs,
    }


@njit(cache=True)
def _fill(out, value):
    for b in range(out.shape[0]):
        for i in range(out.shape[1]):
            out[b, i] = value


def host_write_bandwidth(repeats: int = 20) -> float:
    """GB/s of a numba loop writing a 14 MB float32 array (8192 x 437), median of ``repeats``."""
    out = np.zeros((8192, 437), np.float32)
    _fill(out, np.float32(1.0))
    times = []
    for k in range(repeats):
        t0 = time.perf_counter()
        _fill(out, np.float32(k))
        times.append(time.perf_counter() - t0)
    return out.nbytes / float(np.median(times)) / 1e9


def warm_start(env_id: str) -> float:
    """Seconds for import + make + reset + one step in a fresh process (numba cache present)."""
    code = (
        "import time; t=time.perf_counter(); import cardenvs; "
        f"e=cardenvs.make({env_id!r}); e.reset(seed=0); "
        "e.step(e.unwrapped.legal_actions()[0]); print(time.perf_counter()-t)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def state_bytes(env_id: str) -> float:
    venv = cardenvs.make_vector(env_id, num_envs=1024)
    return sum(a.nbytes for a in venv.state) / venv.num_envs


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.throughput", description=__doc__.splitlines()[0]
    )
    p.add_argument("--games", nargs="*", default=list(cardenvs.GAMES))
    p.add_argument("--sizes", nargs="*", type=int, default=[1, 64, 1024, 8192])
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--out", type=Path, default=RESULTS / "throughput.json")
    args = p.parse_args(argv)
    # every engine compiled (or loaded) first, several at a time: the warm start below then
    # measures what it says, a start with the numba cache present
    compile_all(args.games)
    report = {
        "machine": {
            "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(),
            "python": platform.python_version(),
        },
        "games": {},
    }
    for env_id in args.games:
        row = {
            "warm_start_s": warm_start(env_id),
            "state_bytes_per_game": state_bytes(env_id),
            "aec": bench_aec(env_id, args.seconds),
            "vector": {},
        }
        game_len = row["aec"]["steps"] / max(row["aec"]["games"], 1)
        row["host_write_gb_s"] = host_write_bandwidth()
        for n in args.sizes:
            row["vector"][str(n)] = bench_vector(env_id, n, args.seconds, game_len=game_len)
        report["games"][env_id] = row
    print(f"{'game':12s} {'engine':>12s} {'steps/s':>14s} {'games/s':>10s}")
    for env_id, row in report["games"].items():
        a = row["aec"]
        print(f"{env_id:12s} {'AEC':>12s} {a['steps_per_s']:14,.0f} {a['games_per_s']:10,.1f}")
        for n, v in row["vector"].items():
            runs = v["runs_steps_per_s"]
            print(
                f"{env_id:12s} {'vector N=' + n:>12s} {v['steps_per_s']:14,.0f} "
                f"{v['games_per_s']:10,.1f}   (runs {min(runs):,.0f} .. {max(runs):,.0f})"
            )
        print(
            f"{env_id:12s} warm start {row['warm_start_s']:.2f} s, state "
            f"{row['state_bytes_per_game']:.0f} bytes/game; host write bandwidth before the "
            f"batched runs {row['host_write_gb_s']:.0f} GB/s"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    print(f"wrote {args.out}")
    return report


if __name__ == "__main__":
    main()
