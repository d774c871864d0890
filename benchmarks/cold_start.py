"""Cold start: how long a fresh install waits for numba before its first move.

Every measurement runs in a new process whose numba cache is an empty temporary folder
(``NUMBA_CACHE_DIR``), so nothing compiled earlier is reused:

- ``aec``: ``import cardenvs``, ``cardenvs.make(id)``, ``reset``, one step (on a cold cache an
  AEC env plays its first moves on plain Python while its kernels compile in the background:
  ``cardenvs.core.coldstart``);
- ``aec_compiled``: the same process, until that env runs on its compiled kernels (it waits for
  the background compile);
- ``vector``: ``import cardenvs``, ``cardenvs.make_vector(id, 64)``, ``reset``, one step (64
  games are few enough for a batched engine to play on plain Python too while its kernels
  compile: ``coldstart.PLAIN_START_MAX_ROWS``);
- ``vector_compiled``: the same process, until that engine runs on its compiled kernels
  (``wait_compiled``);
- ``compile``: ``python -m cardenvs.compile`` for every id (``--jobs``, default one per core).

    python -m benchmarks.cold_start [--ids esel-v0 ...] [--what aec vector compile]
        [--repeats 1] [--out benchmarks/results/cold_start.json]

Prints a table (median seconds per id and what) against the targets of issue 35 (first AEC step
at most 10 s, first batched step at most 20 s, compiling everything at most 2 minutes; the
switches to compiled kernels have none) and writes the measurements as JSON. The processes
run one at a time, so each has a core to itself (an AEC env's background compile the other).
Seconds count from just before the process starts, so they include the interpreter's start.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cardenvs

RESULTS = Path(__file__).parent / "results"
TARGETS = {
    "aec": 10.0,
    "aec_compiled": None,
    "vector": 20.0,
    "vector_compiled": None,
    "compile": 120.0,
}
# what to run; "aec" also gives "aec_compiled", "vector" "vector_compiled"
WHATS = ("aec", "vector", "compile")
ROOT = Path(__file__).resolve().parent.parent

AEC = """
import time, numpy as np, cardenvs
env = cardenvs.make({env_id!r})
env.reset(seed=0)
obs, *_ = env.last()
env.step(int(np.flatnonzero(obs["action_mask"])[0]))
print("aec", time.time(), flush=True)
env._poll_warmup(wait=True)  # the background compile of a cold cache
print("aec_compiled", time.time(), flush=True)
"""

VECTOR = """
import time, cardenvs
from cardenvs.core.vector import RandomLegal
venv = cardenvs.make_vector({env_id!r}, 64, seed=0)
_, mask, _ = venv.reset()
venv.step(RandomLegal(0)(mask))
print("vector", time.time(), flush=True)
venv.wait_compiled()  # the background compile of a cold cache
print("vector_compiled", time.time(), flush=True)
"""


def timed(argv: list[str]) -> dict[str, float]:
    """Seconds from the start of ``argv``, run in a new process with an empty numba cache, to
    each milestone it prints (``"<name> <unix time>"`` lines) and to its end (``"end"``); a
    failure raises."""
    with tempfile.TemporaryDirectory(prefix="cardenvs-cold-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        env.pop("CARDENVS_PLAIN_START", None)
        t0 = time.time()
        run = subprocess.run(argv, env=env, cwd=ROOT, check=True, capture_output=True, text=True)
        out = {"end": time.time() - t0}
    for line in run.stdout.splitlines():
        name, _, stamp = line.partition(" ")
        if name in TARGETS:
            out[name] = float(stamp) - t0
    return out


def measure(what: str, env_id: str | None, jobs: int | None) -> dict[str, float]:
    """Seconds to each milestone of ``what`` (``timed``): ``what`` itself, and for ``"aec"``
    and ``"vector"`` also ``"aec_compiled"`` and ``"vector_compiled"``."""
    if what == "compile":
        extra = [] if jobs is None else ["--jobs", str(jobs)]
        times = timed([sys.executable, "-m", "cardenvs.compile", *extra])
    else:
        times = timed(
            [sys.executable, "-c", (AEC if what == "aec" else VECTOR).format(env_id=env_id)]
        )
    times.setdefault(what, times["end"])
    return times


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.cold_start", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--ids", nargs="*", default=list(cardenvs.GAMES))
    p.add_argument(
        "--what",
        nargs="*",
        default=list(WHATS),
        choices=WHATS,
    )
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--jobs", type=int, default=None, help="cardenvs.compile's --jobs")
    p.add_argument("--out", type=Path, default=RESULTS / "cold_start.json")
    args = p.parse_args(argv)
    if args.repeats < 1:
        p.error("--repeats must be at least 1")
    rows = []
    for what in args.what:
        for env_id in [None] if what == "compile" else args.ids:
            runs: dict[str, list[float]] = {}
            for _ in range(args.repeats):
                times = measure(what, env_id, args.jobs)
                for name in TARGETS:
                    if name in times:
                        runs.setdefault(name, []).append(times[name])
                shown = "  ".join(f"{k} {v[-1]:.1f} s" for k, v in runs.items())
                print(f"{env_id or 'all ids':24} {shown}", flush=True)
            rows += [
                {
                    "what": name,
                    "id": env_id,
                    "runs_s": times,
                    "median_s": statistics.median(times),
                    "target_s": TARGETS[name],
                }
                for name, times in runs.items()
            ]
    print("\n| what | id | median s | target s | met |\n|---|---|---:|---:|---|")
    for r in rows:
        target = r["target_s"]
        met = "-" if target is None else "yes" if r["median_s"] <= target else "no"
        shown = "-" if target is None else f"{target:.0f}"
        print(f"| {r['what']} | {r['id'] or 'all'} | {r['median_s']:.1f} | {shown} | {met} |")
    report = {
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "repeats": args.repeats,
        "rows": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))
    print(f"wrote {args.out}")
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
