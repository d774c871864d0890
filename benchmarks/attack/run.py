"""The attack script's run and report: ``attack`` (every chosen surface with its own seeded
generator and budget, in a temporary folder; the report as a dict), ``text_report`` (the
printed summary) and ``main`` (the command line of ``python -m benchmarks.attack``).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import json
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from benchmarks.attack.cli import surface_cli
from benchmarks.attack.common import (
    CASE_TIMEOUT,
    DEFAULT_CASES,
    SEVERITIES,
    SURFACES,
    WEIGHTS,
    Folders,
    Outcome,
)
from benchmarks.attack.models import surface_models
from benchmarks.attack.records import surface_records
from benchmarks.attack.viewer import surface_viewer
from benchmarks.attack.web import surface_web
from benchmarks.attack.wrappers import surface_engine, surface_wrappers

RUNNERS = {
    "web": surface_web,
    "models": surface_models,
    "records": surface_records,
    "viewer": surface_viewer,
    "cli": surface_cli,
    "wrappers": surface_wrappers,
    "engine": surface_engine,
}


def budgets(total: int, surfaces) -> dict[str, int]:
    """``total`` cases shared among ``surfaces`` in the proportions of ``WEIGHTS``."""
    weights = [WEIGHTS[s] for s in surfaces]
    out = [total * w // sum(weights) for w in weights]
    for i in range(total - sum(out)):
        out[i % len(out)] += 1
    return dict(zip(surfaces, out, strict=True))


def attack(
    seed: int = 0,
    cases: int = DEFAULT_CASES,
    surfaces=SURFACES,
    per_surface: dict | None = None,
    timeout: float = CASE_TIMEOUT,
    keep: Path | None = None,
    progress=None,
) -> dict:
    """Run the cases (see the package docstring); the report: ``seed``, ``counts`` per surface
    (``cases``, ``ok``, ``findings``, ``seconds``), ``findings`` and every ``case``."""
    surfaces = [s for s in SURFACES if s in surfaces]
    plan = per_surface or budgets(cases, surfaces)
    outcomes: list[Outcome] = []
    counts = {}
    if keep is not None:
        Path(keep).mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="cardenvs-attack-", dir=keep))
    folders = Folders(root)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for surface in surfaces:
                rng = np.random.default_rng([seed, SURFACES.index(surface)])
                t0 = time.perf_counter()
                with (
                    contextlib.redirect_stdout(io.StringIO()),
                    contextlib.redirect_stderr(io.StringIO()),
                ):
                    got = RUNNERS[surface](rng, plan[surface], folders, timeout)
                seconds = time.perf_counter() - t0
                outcomes += got
                bad = [o for o in got if o.outcome == "finding"]
                counts[surface] = {
                    "cases": len(got),
                    "ok": len(got) - len(bad),
                    "findings": len(bad),
                    "seconds": round(seconds, 1),
                }
                if progress is not None:
                    progress(surface, counts[surface])
    finally:
        if keep is None:
            shutil.rmtree(root, ignore_errors=True)
    findings = [dataclasses.asdict(o) for o in outcomes if o.outcome == "finding"]
    by_severity = {s: sum(f["severity"] == s for f in findings) for s in SEVERITIES}
    return {
        "seed": seed,
        "total": len(outcomes),
        "counts": counts,
        "by_severity": by_severity,
        "findings": findings,
        "cases": [dataclasses.asdict(o) for o in outcomes],
    }


def text_report(report: dict, every: bool = False) -> str:
    lines = [f"benchmarks.attack, seed {report['seed']}: {report['total']} cases"]
    for surface, c in report["counts"].items():
        lines.append(
            f"  {surface:9s} {c['cases']:5d} cases  {c['ok']:5d} ok  {c['findings']:4d} findings"
            f"  ({c['seconds']} s)"
        )
    sev = report["by_severity"]
    lines.append(
        f"findings: {len(report['findings'])} ("
        + ", ".join(f"{k} {v}" for k, v in sev.items())
        + ")"
    )
    for f in report["findings"]:
        lines.append(f"  [{f['severity']}] {f['surface']}: {f['name']}\n      {f['detail']}")
    notes = [o for o in report["cases"] if o["outcome"] == "ok" and o["detail"]]
    if notes:
        lines.append(f"notes (handled as expected, with a remark): {len(notes)}")
        for o in notes:
            lines.append(f"  {o['surface']}: {o['name']}\n      {o['detail']}")
    if every:
        lines.append("every case:")
        for o in report["cases"]:
            lines.append(f"  {o['surface']:9s} {o['outcome']:8s} {o['name']}")
    return "\n".join(lines)


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.attack",
        description="Hostile input against cardenvs's surfaces (web, models, records, viewer, "
        "CLI, wrappers, engine); exit 1 on any finding.",
    )
    p.add_argument("--seed", type=int, default=0, help="the cases' seed (default 0)")
    p.add_argument(
        "--cases", type=int, default=DEFAULT_CASES, help=f"cases in all (default {DEFAULT_CASES})"
    )
    p.add_argument("--surfaces", nargs="+", choices=SURFACES, default=list(SURFACES))
    p.add_argument(
        "--per-surface",
        type=int,
        metavar="N",
        help="N cases on each surface instead of --cases shared among them",
    )
    p.add_argument("--json", help="write the report (every case) as JSON here")
    p.add_argument("--list", action="store_true", help="print every case and its outcome")
    p.add_argument(
        "--case-timeout", type=float, default=CASE_TIMEOUT, help="a case's deadline in seconds"
    )
    p.add_argument(
        "--keep", metavar="DIR", help="write the cases' files in a new folder under DIR, kept"
    )
    a = p.parse_args(argv)
    if a.cases < len(a.surfaces):
        p.error(f"--cases must be at least one per surface ({len(a.surfaces)}), got {a.cases}")
    if a.per_surface is not None and a.per_surface < 1:
        p.error(f"--per-surface must be at least 1, got {a.per_surface}")
    if a.case_timeout <= 0:
        p.error(f"--case-timeout must be above 0 seconds, got {a.case_timeout}")

    def progress(surface, c):
        print(
            f"{surface}: {c['cases']} cases, {c['findings']} findings ({c['seconds']} s)",
            file=sys.stderr,
            flush=True,
        )

    report = attack(
        a.seed,
        a.cases,
        a.surfaces,
        per_surface=None if a.per_surface is None else dict.fromkeys(a.surfaces, a.per_surface),
        timeout=a.case_timeout,
        keep=None if a.keep is None else Path(a.keep),
        progress=progress,
    )
    print(text_report(report, a.list))
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1, default=str))
    return report
