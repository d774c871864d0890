"""Where a cold compile goes: every numba compile of an id's first batched step, timed.

Runs ``make_vector(id, 4)``, ``reset`` and one step in this process with numba's compile events
recorded (``numba.core.event``), so run it with an empty cache (``NUMBA_CACHE_DIR`` pointing at
an empty folder; ``--fresh`` makes one), or it times loads from the cache instead:

    python -m benchmarks.compile_profile piquet-v0 [--fresh] [--top 25]

Prints the seconds of the first step and, per compiled function and signature, its own seconds
(``excl``: without the functions it compiled in turn), with them (``incl``) and those of its
LLVM work (``llvm``: optimisation and machine code, under numba's LLVM lock), largest first;
then numba's pass times for the step kernel. A function compiled for two config types shows up
twice. ``core.game.GameDef`` tells how these numbers shaped the kernels.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from numba.core import event

ROOT = Path(__file__).resolve().parent.parent


class CompileTimes(event.Listener):
    """A numba event listener: one row per compile (name, seconds with and without the compiles
    it started, seconds of LLVM work under it)."""

    def __init__(self):
        self.rows: list[tuple[str, float, float, float]] = []
        self._stack: list[list] = []  # [name, start, child seconds, llvm seconds]
        self._llvm_start: list[float] = []

    def on_start(self, ev):
        if ev.kind == "numba:compile":
            func = ev.data["dispatcher"].py_func
            self._stack.append(
                [f"{func.__module__}.{func.__qualname__}", time.perf_counter(), 0.0, 0.0]
            )
        elif ev.kind == "numba:llvm_lock":
            self._llvm_start.append(time.perf_counter())

    def on_end(self, ev):
        now = time.perf_counter()
        if ev.kind == "numba:compile":
            name, start, child, llvm = self._stack.pop()
            took = now - start
            if self._stack:
                self._stack[-1][2] += took
            self.rows.append((name, took - child, took, llvm))
        elif ev.kind == "numba:llvm_lock" and self._llvm_start:
            took = now - self._llvm_start.pop()
            if self._stack:
                self._stack[-1][3] += took

    def table(self, top: int) -> str:
        lines = ["  excl s   incl s   llvm s  function"]
        for name, excl, incl, llvm in sorted(self.rows, key=lambda r: -r[1])[:top]:
            lines.append(f"{excl:8.2f} {incl:8.2f} {llvm:8.2f}  {name}")
        return "\n".join(lines)


def profile(env_id: str, top: int) -> str:
    """The report of ``env_id``'s first batched step in this process (see the module
    docstring)."""
    import cardenvs
    from cardenvs.core.vector import RandomLegal

    times = CompileTimes()
    for kind in ("numba:compile", "numba:llvm_lock"):
        event.register(kind, times)
    t0 = time.perf_counter()
    venv = cardenvs.make_vector(env_id, 4, seed=0)
    _, mask, _ = venv.reset()
    venv.step(RandomLegal(0)(mask))
    took = time.perf_counter() - t0
    out = [
        f"{env_id}: first batched step {took:.1f} s, {len(times.rows)} compiles, "
        f"{sum(r[1] for r in times.rows):.1f} s of them",
        times.table(top),
    ]
    for cres in venv._step_rows.overloads.values():
        # (no metadata when the kernel came from the cache)
        for pipeline, passes in (cres.metadata or {}).get("pipeline_times", {}).items():
            slowest = sorted(
                ((v.run, k.split("_", 1)[-1]) for k, v in passes.items()), reverse=True
            )
            shown = ", ".join(f"{name} {t:.2f}" for t, name in slowest[:6])
            out.append(f"step kernel, numba {pipeline} passes (s): {shown}")
    return "\n".join(out)


def main(argv=None) -> str:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.compile_profile", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("env_id", help="e.g. piquet-v0")
    p.add_argument("--top", type=int, default=25, help="rows of the table (default 25)")
    p.add_argument("--fresh", action="store_true", help="run in a new process, empty cache")
    args = p.parse_args(argv)
    if args.fresh:
        with tempfile.TemporaryDirectory(prefix="cardenvs-profile-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
            argv = [sys.executable, "-m", "benchmarks.compile_profile", args.env_id]
            run = subprocess.run(
                [*argv, "--top", str(args.top)],
                env=env,
                cwd=ROOT,
                check=True,
                capture_output=True,
                text=True,
            )
        report = run.stdout.rstrip("\n")
    else:
        report = profile(args.env_id, args.top)
    print(report)
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
