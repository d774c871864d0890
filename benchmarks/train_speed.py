"""Training throughput: the native PPO (``train/ppo.py``) against the SB3 route
(``train/sb3_ppo.py``) on the same game and network, side by side in one run.

    python -m benchmarks.train_speed [--game piquet-v0] [--net 256 256] [--seconds 60]
                                     [--matched] [--threads 1] [--json PATH]

Each trainer runs in this process, one after the other, at its own defaults (``train/
hyperparams.py``) with the network ``--net`` and one torch thread, for about ``--seconds`` of
training, with evaluations kept to a token final one (4 single deals). Measured:

- **learner decisions/s**: decisions that are training data per second of training time
  (rollouts and updates; evaluations excluded). The native trainer learns from every seat;
  the SB3 route from one seat per game (its opponents' moves are not training data);
- the **shares** of that time: the engine (``env``), the opponents' moves (SB3: its mix of
  opponents; native: the league), the update (SB3: ``MaskablePPO.train``; native: the PPO
  epochs), and the rest (the rollout's forward pass and bookkeeping; native: also credit
  assignment).

The native trainer's default arithmetic is bf16 matrix products where the CPU computes them
natively (``--precision auto``, see ``train/ppo.py``); the SB3 route computes in fp32. Where
the default resolves to bf16 a second native run in fp32 is added, so the ratio can be read at
each trainer's defaults and at equal arithmetic. ``--matched`` adds a native fp32 run with SB3's
update settings (4 epochs, minibatches of 1024): equal sample reuse too. Prints a
table and the ratio native / SB3; ``--json`` writes the numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as train/ppo.py (small numpy matmuls)


def run_sb3(game: str, net, seconds: float, out: Path, rate_guess: float = 2500.0) -> dict:
    """The SB3 route for about ``seconds`` of learning; its update time measured by wrapping
    ``MaskablePPO.train``."""
    from sb3_contrib import MaskablePPO

    from train import sb3_ppo

    spent = {"update": 0.0}
    original = MaskablePPO.train

    def timed_train(self, *a, **k):
        t0 = time.perf_counter()
        try:
            return original(self, *a, **k)
        finally:
            spent["update"] += time.perf_counter() - t0

    steps = max(4096, int(seconds * rate_guess) // 4096 * 4096)
    argv = ["--game", game, "--net", *map(str, net), "--total-timesteps", str(steps)]
    argv += ["--eval-every", str(steps), "--eval-games", "4", "--eval-config", "{}"]
    argv += ["--out", str(out)]
    MaskablePPO.train = timed_train
    try:
        s = sb3_ppo.main(argv)
    finally:
        MaskablePPO.train = original
    learn_s = s["timesteps"] / s["learn_steps_per_s"]
    shares = {
        "env": s["env_share"],
        "opponents": s["opponent_share"],
        "update": spent["update"] / learn_s,
    }
    shares["rest"] = 1.0 - sum(shares.values())
    return {
        "trainer": "sb3 (MaskablePPO)",
        "decisions": s["timesteps"],
        "seconds": learn_s,
        "decisions_per_s": s["learn_steps_per_s"],
        "shares": shares,
        "settings": "n_epochs 4, batch 1024, n_steps 64 x 64 envs, one learner seat per game",
    }


def run_native(
    game: str, net, seconds: float, out: Path, threads: int, extra=(), label: str = ""
) -> dict:
    from train import ppo

    argv = ["--game", game, "--net", *map(str, net), "--minutes", str(seconds / 60)]
    argv += ["--eval-every", str(10**12), "--eval-games", "4", "--eval-config", "{}"]
    argv += ["--threads", str(threads), "--no-progress", "--out", str(out), *extra]
    s = ppo.main(argv)
    sh = s["shares"]
    shares = {
        "env": sh["env"],
        "opponents": sh["league"],
        "update": sh["update"],
        "rest": sh["policy"] + sh["credit"],
    }
    a = s["args"]
    return {
        "trainer": f"native, {s['precision']}" + (f" ({label})" if label else ""),
        "decisions": s["timesteps"],
        "seconds": s["train_seconds"],
        "decisions_per_s": s["decisions_per_s"],
        "shares": shares,
        "settings": f"epochs {a['epochs']}, minibatch {a['minibatch_size']}, "
        f"{a['num_steps']} steps x {a['num_envs']} envs, {s['precision']} arithmetic, "
        "every seat learns",
    }


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.train_speed", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--game", default="piquet-v0", help="environment id")
    p.add_argument("--net", type=int, nargs="+", default=[256, 256], help="hidden layer sizes")
    p.add_argument("--seconds", type=float, default=60.0, help="training time per trainer")
    p.add_argument("--threads", type=int, default=1, help="torch threads of the native trainer")
    p.add_argument("--matched", action="store_true", help="also native with SB3's epochs")
    p.add_argument("--json", help="write the results here")
    a = p.parse_args(argv)
    if a.seconds <= 0:
        p.error(f"--seconds must be positive, got {a.seconds}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        rows.append(run_sb3(a.game, a.net, a.seconds, Path(tmp) / "sb3"))
        rows.append(run_native(a.game, a.net, a.seconds, Path(tmp) / "native", a.threads))
        if rows[-1]["trainer"] != "native, fp32":  # the defaults' bf16, and fp32 as SB3 computes
            fp32 = ["--precision", "fp32"]
            rows.append(run_native(a.game, a.net, a.seconds, Path(tmp) / "fp32", a.threads, fp32))
        if a.matched:
            extra = ["--epochs", "4", "--minibatch-size", "1024", "--precision", "fp32"]
            label = "SB3's epochs and minibatch"
            rows.append(
                run_native(a.game, a.net, a.seconds, Path(tmp) / "matched", a.threads, extra, label)
            )
    base = rows[0]["decisions_per_s"]
    print(f"\n{a.game}, MLP {'x'.join(map(str, a.net))}, one torch thread")
    print(
        f"{'trainer':42s} {'decisions':>10s} {'seconds':>8s} {'decisions/s':>12s} {'x SB3':>6s} "
        f"{'env':>6s} {'opp.':>6s} {'update':>7s} {'rest':>6s}"
    )
    for r in rows:
        sh = r["shares"]
        r["ratio"] = r["decisions_per_s"] / base
        print(
            f"{r['trainer']:42s} {r['decisions']:>10,} {r['seconds']:>8.1f} "
            f"{r['decisions_per_s']:>12,.0f} {r['ratio']:>6.2f} {sh['env']:>6.1%} "
            f"{sh['opponents']:>6.1%} {sh['update']:>7.1%} {sh['rest']:>6.1%}"
        )
    for r in rows:
        print(f"  {r['trainer']}: {r['settings']}")
    report = {"game": a.game, "net": a.net, "seconds": a.seconds, "rows": rows}
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
