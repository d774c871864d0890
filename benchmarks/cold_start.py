"""Cold start: how long a fresh install waits for numba before its first move.

Every measurement runs in a new process whose numba cache is an empty temporary folder
(``NUMBA_CACHE_DIR``), so nothing compiled earlier is reused:

- ``aec``: ``import cardenvs``, ``cardenvs.make(id)``, ``reset``, one step;
- ``vector``: ``import cardenvs``, ``cardenvs.make_vector(id, 64)``, ``reset``, one step;
- ``compile``: ``python -m cardenvs.compile`` for every id (``--jobs``, default one per core).

    python -m benchmarks.cold_start [--ids esel-v0 ...] [--what aec vector compile]
        [--repeats 1] [--out benchmarks/results/cold_start.json]

Prints a table (median seconds per id and what) against the targets of issue 35 (first AEC step
at most 10 s, first batched step at most 20 s, compiling everything at most 2 minutes) and writes
the measurements as JSON. The processes run one at a time, so each has a core to itself.
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
TARGETS = {"aec": 10.0, "vector": 20.0, "compile": 120.0}
ROOT = Path(__file__).resolve().parent.parent

AEC = """
import numpy as np, cardenvs
env = cardenvs.make({env_id!r})
env.reset(seed=0)
obs, *_ = env.last()
env.step(int(np.flatnonzero(obs["action_mask"])[0]))
"""

VECTOR = """
import cardenvs
from cardenvs.core.vector import RandomLegal
venv = cardenvs.make_vector({env_id!r}, 64, seed=0)
_, mask, _ = venv.reset()
venv.step(RandomLegal(0)(mask))
"""


def timed(argv: list[str]) -> float:
    """Wall seconds of ``argv`` in a new process with an empty numba cache (a failure raises)."""
    with tempfile.TemporaryDirectory(prefix="cardenvs-cold-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        t0 = time.perf_counter()
        subprocess.run(argv, env=env, cwd=ROOT, check=True, capture_output=True)
        return time.perf_counter() - t0


def measure(what: str, env_id: str | None, jobs: int | None) -> float:
    if what == "compile":
        extra = [] if jobs is None else ["--jobs", str(jobs)]
        return timed([sys.executable, "-m", "cardenvs.compile", *extra])
    code = (AEC if what == "aec" else VECTOR).format(env_id=env_id)
    return timed([sys.executable, "-c", code])


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ids", nargs="*", default=list(cardenvs.GAMES))
    p.add_argument(
        "--what",
        nargs="*",
        default=["aec", "vector", "compile"],
        choices=["aec", "vector", "compile"],
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
            runs = []
            for _ in range(args.repeats):
                runs.append(measure(what, env_id, args.jobs))
                print(f"{what:8} {env_id or 'all ids':24} {runs[-1]:7.1f} s", flush=True)
            rows.append(
                {
                    "what": what,
                    "id": env_id,
                    "runs_s": runs,
                    "median_s": statistics.median(runs),
                    "target_s": TARGETS[what],
                }
            )
    print("\n| what | id | median s | target s | met |\n|---|---|---:|---:|---|")
    for r in rows:
        met = "yes" if r["median_s"] <= r["target_s"] else "no"
        print(
            f"| {r['what']} | {r['id'] or 'all'} | {r['median_s']:.1f} | {r['target_s']:.0f} "
            f"| {met} |"
        )
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
