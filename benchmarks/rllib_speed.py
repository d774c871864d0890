"""RLlib's throughput on a cardenvs game against the native trainer's, in one run.

    python -m benchmarks.rllib_speed [--game piquet-v0] [--setups 0:0 1:0 2:0 0:2]
                                     [--iterations 3] [--native-seconds 60] [--json PATH]

For each set-up ``R:L`` (``--setups``: R env runners, 0 sampling in the driver; L learner
processes, 0 updating in the driver, 2 or more data-parallel) an RLlib PPO
(``train/rllib_ppo.py``'s config: ``MaskedPPOModule``, every seat ``main``, no league) runs one
warm-up iteration and ``--iterations`` measured ones on a local Ray with every core. Measured,
from RLlib's own timers of the measured iterations:

- **sampling**: env steps per second of the env runners' sampling (every env step is one
  decision of one seat); per runner too;
- **learner**: decisions of the iteration's batch per second of the learner's update
  (``--epochs`` passes);
- **end to end**: decisions per second of whole iterations (sampling, then the update: PPO on
  RLlib does one after the other);
- **env share**: the engine's share of the sampling time, from the env alone in the same run
  (``--envs-per-runner`` ``RLlibEnv`` games stepped with random legal actions, no RLlib): what
  stepping all of a runner's games on the batched engine at once could save at most.

``--sweep`` adds runs with other numbers of games per env runner (sampling in the driver): how
far RLlib's own vectorisation (``num_envs_per_env_runner``) amortises its per-step work.

The native trainer (``train/ppo.py`` at its defaults, ``--native-seconds`` of training, in a
subprocess of its own) gives the same three figures in the same run: its engine steps
(sampling with the policy's forward pass), its update, and its whole loop. Prints a table with
the ratios native / RLlib; ``--json`` writes the numbers. Nothing is asserted: the figures are
this machine's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def env_alone(game: str, config: dict, n_games: int, seconds: float = 3.0) -> float:
    """Env steps per second of ``n_games`` ``RLlibEnv`` games with random legal actions."""
    import numpy as np

    from cardenvs.wrappers.rllib import RLlibEnv

    rng = np.random.default_rng(0)
    envs = [RLlibEnv({"env_id": game} | config) for _ in range(n_games)]
    obs = [e.reset(seed=i)[0] for i, e in enumerate(envs)]
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for i, e in enumerate(envs):
            ((agent, o),) = obs[i].items()
            a = int(rng.choice(np.flatnonzero(o["action_mask"])))
            o2, _, term, _, _ = e.step({agent: a})
            obs[i] = e.reset()[0] if term["__all__"] else o2
            steps += 1
    return steps / (time.perf_counter() - start)


def rllib_run(a, runners: int, learners: int, envs: int | None = None) -> dict:
    """One RLlib configuration: warm-up, then ``a.iterations`` measured iterations."""
    envs = envs or a.envs_per_runner
    import ray

    from cardenvs.wrappers.rllib import RLlibEnv
    from train import rllib_ppo

    argv = ["--game", a.game, "--num-env-runners", str(runners), "--num-learners", str(learners)]
    argv += ["--envs-per-runner", str(envs), "--train-batch", str(a.train_batch)]
    argv += ["--minibatch-size", str(min(1000, a.train_batch)), "--epochs", str(a.epochs)]
    argv += ["--league-share", "0", "--out", a.tmp]
    args = rllib_ppo.parse(argv)
    rllib_ppo.start_ray(args)
    try:
        env = RLlibEnv({"env_id": args.game} | args.config)
        algo = rllib_ppo.build_config(args, env).build_algo()
        algo.train()  # warm-up: compile, spawn, first weights
        before = rllib_ppo.metrics(algo.train())
        start = time.perf_counter()
        sample_s = learn_s = 0.0
        for _ in range(a.iterations - 1):
            m = rllib_ppo.metrics(algo.train())
            sample_s += m["sample_s"]
            learn_s += m["learn_s"]
        wall = time.perf_counter() - start
        steps = m["env_steps"] - before["env_steps"]
        decisions = m["main_trained"] - before["main_trained"]
        algo.stop()
    finally:
        ray.shutdown()
    return {
        "route": f"RLlib, {runners} runner(s) x {envs} games, {learners} learner(s)",
        "envs_per_runner": envs,
        "env_runners": runners,
        "learners": learners,
        "sampling_steps_per_s": steps / sample_s,
        "learner_decisions_per_s": decisions / learn_s,
        "end_to_end_decisions_per_s": decisions / wall,
        "iterations": a.iterations - 1,
        "env_steps": steps,
    }


def native_run(a) -> dict:
    """train/ppo.py at its defaults for ``a.native_seconds``, in a subprocess."""
    out = Path(a.tmp) / "native"
    cmd = [sys.executable, "-m", "train.ppo", "--game", a.game, "--minutes"]
    cmd += [str(a.native_seconds / 60), "--eval-every", str(10**12), "--eval-games", "4"]
    cmd += ["--no-progress", "--out", str(out)]
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    s = json.loads((out / "summary.json").read_text())
    sec = s["seconds_by_part"]
    sampling = sec["env"] + sec["policy"] + sec["league"]
    return {
        "route": f"native train/ppo.py ({s['args']['num_envs']} games, {s['precision']})",
        "env_runners": None,
        "sampling_steps_per_s": s["engine_decisions"] / sampling,
        "learner_decisions_per_s": s["timesteps"] / sec["update"],
        "end_to_end_decisions_per_s": s["decisions_per_s"],
        "iterations": s["updates"],
        "env_steps": s["engine_decisions"],
    }


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.rllib_speed", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--game", default="piquet-v0", help="environment id")
    p.add_argument(
        "--setups",
        nargs="+",
        default=["0:0", "1:0", "2:0", "0:2"],
        help="R:L, env runners and learner processes",
    )
    p.add_argument("--envs-per-runner", type=int, default=128, help="games per env runner")
    p.add_argument("--train-batch", type=int, default=8000, help="env steps per iteration")
    p.add_argument("--epochs", type=int, default=2, help="PPO epochs per iteration")
    p.add_argument(
        "--sweep",
        type=int,
        nargs="*",
        default=[8, 32, 256],
        help="also games per runner, sampled in the driver (0:0)",
    )
    p.add_argument("--iterations", type=int, default=3, help="iterations after the warm-up")
    p.add_argument("--native-seconds", type=float, default=60.0, help="native training time")
    p.add_argument("--json", help="write the results here")
    a = p.parse_args(argv)
    try:
        setups = [tuple(int(x) for x in s.split(":")) for s in a.setups]
        assert all(len(s) == 2 and min(s) >= 0 for s in setups)
    except (ValueError, AssertionError):
        p.error(f"--setups takes R:L pairs of non-negative integers, got {a.setups}")
    if a.iterations < 2 or a.native_seconds <= 0:
        p.error("--iterations must be at least 2 and --native-seconds positive")
    with tempfile.TemporaryDirectory() as tmp:
        a.tmp = tmp
        from train import hyperparams

        config = json.loads(hyperparams.native_defaults(a.game)["config"])
        alone = env_alone(a.game, config, a.envs_per_runner)
        rows = [rllib_run(a, r, n) for r, n in setups]
        rows += [rllib_run(a, 0, 0, e) for e in a.sweep if e != a.envs_per_runner]
        native = native_run(a)
    for r in rows:
        r["env_share"] = r["sampling_steps_per_s"] / max(1, r["env_runners"]) / alone
    result = {
        "game": a.game,
        "cpus": os.cpu_count(),
        "date": time.strftime("%Y-%m-%d"),
        "settings": {k: v for k, v in vars(a).items() if k not in ("json", "tmp")},
        "env_alone_steps_per_s": alone,
        "rllib": rows,
        "native": native,
    }
    print(f"{a.game}, {os.cpu_count()} CPUs; the env alone: {alone:,.0f} steps/s per process")
    head = f"{'route':48s} {'sampling/s':>11s} {'learner/s':>10s} {'end to end/s':>13s}"
    print(head + "  env share")
    for r in [*rows, native]:
        share = f"{r['env_share']:.0%}" if "env_share" in r else "-"
        print(
            f"{r['route']:48s} {r['sampling_steps_per_s']:11,.0f} "
            f"{r['learner_decisions_per_s']:10,.0f} {r['end_to_end_decisions_per_s']:13,.0f}  "
            f"{share}"
        )
    for r in rows:
        r["native_ratio"] = {
            k: native[k] / r[k]
            for k in (
                "sampling_steps_per_s",
                "learner_decisions_per_s",
                "end_to_end_decisions_per_s",
            )
        }
        x = r["native_ratio"]
        print(
            f"native / {r['route']}: sampling {x['sampling_steps_per_s']:.0f}x, learner "
            f"{x['learner_decisions_per_s']:.1f}x, "
            f"end to end {x['end_to_end_decisions_per_s']:.0f}x"
        )
    if a.json:
        Path(a.json).write_text(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
