"""``train/ppo.py`` end to end on a tiny budget, in a subprocess (needs the train extra)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("game", "config"),
    [("piquet-v0", {"episode": "deal"}), ("banque-v0", {"num_players": 2, "episode": "deal"})],
)
def test_train__tiny_run_writes_a_loadable_model(tmp_path, game, config):
    pytest.importorskip("sb3_contrib", reason="needs the train extra: pip install -e '.[train]'")
    from sb3_contrib import MaskablePPO

    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "train.ppo", "--game", game, "--config", json.dumps(config)]
    cmd += ["--total-timesteps", "1024", "--eval-every", "512", "--eval-games", "8"]
    cmd += ["--num-envs", "8", "--n-steps", "64", "--batch-size", "128", "--out", str(out)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["timesteps"] == 1024 and len(summary["final"]) == 2
    rows = (out / "eval.csv").read_text().splitlines()
    assert len(rows) == 1 + 4 and rows[0].startswith("opponent,games,win_rate")
    assert (out / "progress.csv").exists()
    MaskablePPO.load(out / "model.zip")


def test_train__bad_arguments_exit():
    done = subprocess.run(
        [sys.executable, "-m", "train.ppo", "--config", "{nope", "--total-timesteps", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "--config is not JSON" in done.stderr
