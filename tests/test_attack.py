"""``benchmarks.attack``, issue 48's closing check: the whole default run (1,700 cases over every
surface, about 15 s) finds nothing; the same seed gives the same cases and outcomes; and
the script does find what it looks for: a server that skips its token check, a seat's page that
holds the seed, a loader that runs a pickle, a replay that raises the wrong type, each reported
with its severity."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from benchmarks import attack

ROOT = Path(__file__).resolve().parent.parent


def run(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, dict]:
    """``python -m benchmarks.attack ARGS --json``: the process and its report."""
    out = tmp_path / f"attack-{len(list(tmp_path.iterdir()))}.json"
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.attack", *args, "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert out.is_file(), proc.stderr[-3000:]
    return proc, json.loads(out.read_text())


def findings(report: dict) -> str:
    return "\n".join(
        f"[{f['severity']}] {f['surface']}: {f['name']}: {f['detail']}" for f in report["findings"]
    )


def test_attack__the_same_seed_gives_the_same_cases_and_outcomes(tmp_path):
    args = ("--surfaces", "records", "models", "engine", "--per-surface", "25", "--seed", "7")
    (_, a), (_, b) = run(tmp_path, *args), run(tmp_path, *args)

    def key(report):
        return [(c["surface"], c["name"], c["outcome"], c["severity"]) for c in report["cases"]]

    assert key(a) == key(b) and len(key(a)) == 75
    _, other = run(tmp_path, "--surfaces", "records", "--per-surface", "25", "--seed", "8")
    records = [c["name"] for c in a["cases"] if c["surface"] == "records"]
    assert [c["name"] for c in other["cases"]] != records


def test_attack__the_default_run_finds_nothing(tmp_path):
    proc, report = run(tmp_path, "--seed", "0")
    assert report["counts"].keys() == set(attack.SURFACES)
    assert report["total"] == attack.DEFAULT_CASES >= 600
    assert all(report["counts"][s]["cases"] == attack.WEIGHTS[s] for s in attack.SURFACES)
    assert report["findings"] == [], findings(report)
    assert proc.returncode == 0


# --- the script finds what it looks for (each product fault made here on purpose) ---------------
def test_attack__a_server_that_skips_its_token_check_is_a_security_finding(tmp_path, monkeypatch):
    from cardenvs.ui import web

    monkeypatch.setattr(web.hmac, "compare_digest", lambda a, b: True)
    t = attack.WebTarget(tmp_path)
    try:
        cases = [c for c in attack.web_catalogue(t) if c.name.startswith("token 'x': ")]
        out = attack.run_cases("web", cases, 60)
    finally:
        t.close()
    assert [c.name for c in cases] == [
        "token 'x': GET /state",
        "token 'x': POST /act",
        "token 'x': POST /new",
    ]
    assert [o.severity for o in out] == ["security"] * 3, out


def test_attack__a_seat_page_holding_the_seed_is_a_security_finding(monkeypatch):
    from cardenvs.ui import view

    record = attack.base_records()["piquet deal"]
    real = view._data
    monkeypatch.setattr(view, "_data", lambda r, seat: real(r, seat) | {"hint": r["seed"]})
    (out,) = attack.run_cases("viewer", [attack.seat_page_case("p1", record, 1)], 60)
    assert out.severity == "security" and str(record["seed"]) in out.detail, out


def test_attack__a_loader_that_runs_a_pickle_is_a_security_finding(tmp_path, monkeypatch):
    from cardenvs.policy import NumpyPolicy

    real = np.load
    monkeypatch.setattr(np, "load", lambda f, allow_pickle=False, **k: real(f, allow_pickle=True))
    lab = attack.ModelLab()
    (variant,) = [v for v in attack.model_variants(lab) if v[0] == "a pickle (marker)"]
    entry = ("NumpyPolicy.load", NumpyPolicy.load, False, True)
    case = attack.model_case(lab, attack.Folders(tmp_path), variant, entry)
    (out,) = attack.run_cases("models", [case], 60)
    assert out.severity == "security" and "marker" in out.detail, out


def test_attack__a_replay_raising_another_type_is_an_error_type_finding(monkeypatch):
    import cardenvs

    def broken(record):
        raise KeyError("deals")

    monkeypatch.setattr(cardenvs, "replay", broken)
    report = attack.attack(seed=0, surfaces=["records"], per_surface={"records": 4})
    assert report["counts"]["records"] == {
        "cases": 4,
        "ok": 0,
        "findings": 4,
        "seconds": report["counts"]["records"]["seconds"],
    }
    assert {f["severity"] for f in report["findings"]} == {"error-type"}
    assert all("KeyError" in f["detail"] for f in report["findings"])
    assert "[error-type] records" in attack.text_report(report)
