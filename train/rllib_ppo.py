"""Self-play PPO on Ray RLlib (new API stack), from a laptop to a cluster.

    python -m train.rllib_ppo --game piquet-v0 --minutes 5
    python -m train.rllib_ppo --game esel-v0 --address auto --num-env-runners 16 --num-learners 2

Every seat is an agent of ``cardenvs.wrappers.rllib.RLlibEnv``; the policy ``main``
(``MaskedPPOModule``: illegal actions can never be sampled) is the one that learns. In a share
``--league-share`` of the games, one side is ``main`` and the other sides are one league member
drawn for the game: ``random``, ``heuristic``, ``zoo``, ``model:<path>`` (``AgentModule``,
non-learning) or ``self`` (``--pool-size`` frozen snapshots of ``main``, the oldest overwritten
every ``--snapshot-every`` iterations); in the other games every seat is ``main`` (pure
self-play). Partners (partnership Piquet's ``sides``) always share a policy.

Every ``--eval-every`` iterations (and at the end) ``main`` is written as the ``cardenvs.policy``
``.npz`` model of the native trainer (``model.npz``: the zoo, the ladder, ``train.evaluate`` and
``cardenvs.play`` load it) and plays ``--eval-games`` games against random and the heuristic on
the batched engine (``train.evaluate``: win rates with 95% Wilson intervals, games won / drawn /
lost and the mean reward with its 95% interval), and the algorithm is checkpointed
(``checkpoint/``, ``Algorithm.from_checkpoint``; ``--restore`` continues from one).

Outputs in ``--out`` (default ``runs/rllib-<game>``): ``model.npz``, ``checkpoint/``,
``progress.csv`` (one row per iteration: env steps, learner decisions, sampling and learner
throughput), ``eval.csv``, ``learning_curve.png`` and ``summary.json``.

Ray: without ``--address`` a local Ray starts with ``--num-cpus`` (default: every core). With
``--address`` (``auto`` on a cluster node, or ``ray://host:10001``) the run joins that cluster
and ships the checkout to its workers (``runtime_env`` ``working_dir``; the heuristic opponents
live in ``agents/``). Scaling: ``--num-env-runners`` processes sample games (each steps
``--envs-per-runner`` games), ``--num-learners`` processes update the network (data-parallel);
``docs/guides/rllib.md`` has the cluster set-up and what scales.

An env error (an illegal action) stops the run: env-runner restarts are off.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import shlex
import sys
import time
import types
import zlib
from pathlib import Path

import cardenvs
from train import hyperparams

ROOT = Path(__file__).resolve().parent.parent  # the checkout: Ray's workers import train/ from it

LEAGUE_KINDS = ("random", "heuristic", "zoo", "self")
MAIN = "main"


def parse(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m train.rllib_ppo",
        description="Self-play PPO on Ray RLlib with masked actions (cardenvs).",
    )
    a = p.add_argument
    a("--game", default="piquet-v0", choices=list(cardenvs.GAMES), help="environment id")
    a("--config", help="the game's training config as JSON (default: the native trainer's)")
    a(
        "--eval-config",
        help="the evaluations' config, JSON merged over --config (default: the native "
        "trainer's, whole games scored on wins)",
    )
    a("--iterations", type=int, default=0, help="training iterations (0: until another limit)")
    a("--total-timesteps", type=int, default=0, help="env steps to sample (0: no limit)")
    a("--minutes", type=float, default=0.0, help="wall-clock budget in minutes (0: none)")
    a("--seed", type=int, default=0, help="seed of the env runners, the network, the league")
    a("--address", help="an existing Ray cluster: auto, or ray://<head>:10001")
    a("--num-cpus", type=int, help="CPUs of the local Ray (default: every core)")
    a("--num-env-runners", type=int, default=0, help="sampling processes (0: in the driver)")
    a("--envs-per-runner", type=int, default=256, help="games each env runner steps")
    a("--num-learners", type=int, default=0, help="learner processes (0: in the driver)")
    a("--gpus-per-learner", type=float, default=0.0, help="GPUs of each learner (0: CPU)")
    a("--train-batch", type=int, default=8000, help="env steps per iteration (per learner)")
    a("--minibatch-size", type=int, default=1000, help="decisions per gradient step")
    a("--epochs", type=int, default=2, help="passes over each iteration's batch")
    a("--learning-rate", type=float, default=1e-3, help="Adam's learning rate")
    a("--gamma", type=float, default=0.99, help="discount per decision")
    a("--gae-lambda", type=float, default=0.95, help="GAE's lambda")
    a("--clip-coef", type=float, default=0.2, help="PPO's clip range")
    a("--ent-coef", type=float, default=0.01, help="entropy bonus coefficient")
    a("--vf-coef", type=float, default=0.5, help="value loss coefficient")
    a("--net", type=int, nargs="+", default=[256, 256], help="hidden sizes of both MLPs")
    a("--activation", choices=("tanh", "relu"), default="tanh", help="hidden activation")
    a("--league-share", type=float, default=0.5, help="share of games against a league member")
    a("--league", nargs="+", default=["random", "heuristic", "self"], metavar="KIND")
    a("--pool-size", type=int, default=3, help="frozen snapshots of main in the league")
    a("--snapshot-every", type=int, default=5, help="iterations between snapshots")
    a("--eval-every", type=int, default=10, help="iterations between evaluations")
    a("--eval-games", type=int, default=200, help="games per opponent per evaluation")
    a("--restore", help="a checkpoint folder to continue from")
    a("--out", help="output folder (default runs/rllib-<game>)")
    args = p.parse_args(argv)
    hyperparams.parse_configs(p, args)
    for name in ("envs_per_runner", "train_batch", "minibatch_size", "epochs", "pool_size"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.minibatch_size > args.train_batch:
        p.error(
            f"--minibatch-size ({args.minibatch_size}) must be at most --train-batch "
            f"({args.train_batch})"
        )
    for name in ("snapshot_every", "eval_every", "eval_games"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    for name in ("iterations", "total_timesteps", "num_env_runners", "num_learners"):
        if getattr(args, name) < 0:
            p.error(f"--{name.replace('_', '-')} must be >= 0")
    if args.minutes < 0 or args.gpus_per_learner < 0:
        p.error("--minutes and --gpus-per-learner must be >= 0")
    if not (args.iterations or args.total_timesteps or args.minutes):
        args.iterations = 50
    if not 0.0 <= args.league_share <= 1.0:
        p.error(f"--league-share must be in [0, 1], got {args.league_share}")
    for kind in args.league:
        if kind not in LEAGUE_KINDS and not kind.startswith("model:"):
            p.error(f"--league {kind!r}: one of {', '.join(LEAGUE_KINDS)} or model:<path>")
    try:
        cardenvs.make_vector(args.game, 1, **args.config)
    except (ValueError, TypeError) as e:
        p.error(f"--config: {e}")
    if args.out is None:
        args.out = f"runs/rllib-{args.game}"
    args.command = "python -m train.rllib_ppo " + shlex.join(sys.argv[1:] if argv is None else argv)
    return args


# =============================================================================================
# The league: module ids and the agent -> module mapping
# =============================================================================================
def league(args) -> dict[str, str | None]:
    """The league's module ids and what plays them: ``snap_<k>`` (None: a frozen snapshot of
    main) for ``self``, else the ``AgentModule`` kind (``model:<path>`` as ``model_<i>``)."""
    members: dict[str, str | None] = {}
    for kind in args.league:
        if kind == "self":
            members |= {f"snap_{k}": None for k in range(args.pool_size)}
        elif kind.startswith("model:"):
            members[f"model_{len(members)}"] = kind
        else:
            members[kind] = kind
    return members


def mapping_fn(sides, members: list[str], share: float, seed: int):
    """The policy mapping: per episode (hashed), every seat is main, or one side is main and
    the other sides play one league member; partners always share."""
    side_of = {agent: k for k, side in enumerate(sides) for agent in side}

    def map_agent(agent_id, episode, **kwargs):
        h = zlib.crc32(f"{seed}:{episode.id_}".encode())
        if not members or (h % 10_000) / 10_000 >= share:
            return MAIN
        main_side = (h // 10_000) % len(sides)
        if side_of[agent_id] == main_side:
            return MAIN
        return members[(h // (10_000 * len(sides))) % len(members)]

    return map_agent


# =============================================================================================
# The algorithm
# =============================================================================================
def build_config(args, env):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from cardenvs.wrappers.rllib import AgentModule, MaskedPPOModule, RLlibEnv

    members = league(args)
    model = {"fcnet_hiddens": list(args.net), "fcnet_activation": args.activation}
    specs = {MAIN: RLModuleSpec(module_class=MaskedPPOModule, model_config=model)}
    for mid, kind in members.items():
        if kind is None:  # a snapshot of main
            specs[mid] = RLModuleSpec(module_class=MaskedPPOModule, model_config=model)
        else:
            cfg = {"env_id": args.game, "agent": kind, "seed": args.seed, "config": args.config}
            specs[mid] = RLModuleSpec(module_class=AgentModule, model_config=cfg)
    env_config = {"env_id": args.game} | args.config
    return (
        PPOConfig()
        .environment(RLlibEnv, env_config=env_config)
        .env_runners(
            num_env_runners=args.num_env_runners,
            num_envs_per_env_runner=args.envs_per_runner,
            num_cpus_per_env_runner=1,
        )
        .learners(num_learners=args.num_learners, num_gpus_per_learner=args.gpus_per_learner)
        .multi_agent(
            policies=set(specs),
            policy_mapping_fn=mapping_fn(env.sides, list(members), args.league_share, args.seed),
            policies_to_train=[MAIN],
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(
            lr=args.learning_rate,
            gamma=args.gamma,
            lambda_=args.gae_lambda,
            clip_param=args.clip_coef,
            entropy_coeff=args.ent_coef,
            vf_loss_coeff=args.vf_coef,
            train_batch_size_per_learner=args.train_batch,
            minibatch_size=args.minibatch_size,
            num_epochs=args.epochs,
            grad_clip=0.5,
        )
        .fault_tolerance(restart_failed_env_runners=False)
        .debugging(seed=args.seed, log_level="ERROR")
        .reporting(metrics_num_episodes_for_smoothing=100)
    )


def snapshot(algo, slot: str) -> None:
    """Copy main's weights into the frozen module ``slot`` on the learners and env runners."""
    state = algo.get_module(MAIN).get_state()
    algo.learner_group.foreach_learner(lambda learner: learner.module[slot].set_state(state))
    algo.env_runner_group.foreach_env_runner(lambda runner: runner.module[slot].set_state(state))


def export(algo, args, venv, path: Path, timesteps: int):
    """main as the ``cardenvs.policy`` ``.npz`` model (the native trainer's format); ``venv`` (an
    engine of the game and config) gives the header its config and sizes."""
    from train.model_file import model_header, to_numpy_policy

    module = algo.get_module(MAIN)
    header_args = types.SimpleNamespace(
        game=args.game, net=args.net, activation=args.activation, command=args.command
    )
    policy = to_numpy_policy(module, model_header(header_args, venv, timesteps))
    policy.save(path)
    return policy


def evaluate(args, venv, model_path: Path, timesteps: int, minutes: float) -> list[dict]:
    """The exported model's win rates against random and the heuristic (``train.evaluate``)."""
    from train.evaluate import evaluate as evaluate_against

    side = any(len(s) > 1 for s in venv.sides)
    count = len(venv.sides) if side else venv.num_seats
    rows = evaluate_against(
        str(model_path),
        args.game,
        args.eval_config,
        ["random", "heuristic"],
        max(1, args.eval_games // count),
        args.seed + 1,
        solo=not side,
        side=side,
    )
    for r in rows:
        r["timesteps"] = timesteps
        r["minutes"] = minutes
    return rows


def metrics(result: dict) -> dict:
    """The iteration's env steps, main's trained decisions and the two throughputs."""
    runners = result.get("env_runners", {})
    learners = result.get("learners", {})
    timers = result.get("timers", {})
    sample_s = float(timers.get("env_runner_sampling_timer", math.nan))
    learn_s = float(timers.get("learner_update_timer", math.nan))
    main = learners.get(MAIN, {})
    sampled = runners.get("num_module_steps_sampled_lifetime", {})
    return {
        "env_steps": int(runners.get("num_env_steps_sampled_lifetime", 0)),
        # main's decisions (what it trains on; the league's moves are not counted)
        "main_trained": int(sampled.get(MAIN, 0)),
        "sample_s": sample_s,
        "learn_s": learn_s,
        "episode_len": float(runners.get("episode_len_mean", math.nan)),
        "vf_loss": float(main.get("vf_loss", math.nan)),
        "entropy": float(main.get("entropy", math.nan)),
    }


def root_cause(error: BaseException) -> str:
    """The deepest non-empty message of an exception's cause chain (an env's ValueError under
    RLlib's bare ``RuntimeError``, or a remote env runner's error)."""
    message, seen = "", set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        text = str(error).strip()
        if text:
            message = f"{type(error).__name__}: {text}"
        error = error.__cause__ or error.__context__
    return message or "an unknown error"


def start_ray(args):
    import logging

    import ray

    # RLlib's notices (the new API stack is the default, its own deprecations, gputil) say
    # nothing a user of this script can act on; errors still show
    for name in ("ray.rllib", "ray.tune"):
        logging.getLogger(name).setLevel(logging.ERROR)

    env_vars = {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    }
    if args.address:
        runtime_env = {
            "working_dir": str(ROOT),
            "excludes": ["runs/", "site/", ".venv/", ".git/", "docs/", "tests/artifacts/"],
        }
        ray.init(address=args.address, runtime_env=runtime_env, log_to_driver=False)
    else:
        ray.init(
            num_cpus=args.num_cpus,
            include_dashboard=False,
            runtime_env={"env_vars": env_vars},
            log_to_driver=False,
            configure_logging=False,
        )
    return ray


def main(argv=None) -> dict:
    args = parse(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ray = start_ray(args)
    from cardenvs.wrappers.rllib import RLlibEnv
    from train.runlog import plot

    env = RLlibEnv({"env_id": args.game} | args.config)
    venv = cardenvs.make_vector(args.game, 1, **args.config)  # the exports' and evaluations'
    config = build_config(args, env)
    algo = config.build_algo()
    if args.restore:
        algo.restore_from_path(str(Path(args.restore).resolve()))
    snaps = [m for m, kind in league(args).items() if kind is None]
    for slot in snaps:
        snapshot(algo, slot)
    print(
        f"RLlib PPO on {args.game}: {args.num_env_runners} env runner(s) x {args.envs_per_runner} "
        f"games, {max(1, args.num_learners)} learner(s), league {list(league(args))} "
        f"({args.league_share:.0%} of games); out: {out}",
        flush=True,
    )
    start = time.perf_counter()
    rows, evals, it = [], [], 0
    model_path = out / "model.npz"
    progress = open(out / "progress.csv", "w", newline="")
    writer = None
    m = {"env_steps": 0, "main_trained": 0}
    try:
        while True:
            try:
                result = algo.train()
            except Exception as e:  # RLlib wraps an env's error in an empty RuntimeError
                raise RuntimeError(
                    f"training stopped at iteration {it + 1}: {root_cause(e)}"
                ) from e
            it += 1
            prev, m = m, metrics(result)
            elapsed = time.perf_counter() - start
            row = {"iteration": it, "seconds": round(elapsed, 2), **m}
            # RLlib's timers (smoothed over iterations): env steps per second of sampling, main's
            # decisions per second of the learner's update
            row["env_steps_per_s"] = round((m["env_steps"] - prev["env_steps"]) / m["sample_s"], 1)
            row["learner_per_s"] = round(
                (m["main_trained"] - prev["main_trained"]) / m["learn_s"], 1
            )
            rows.append(row)
            if writer is None:
                writer = csv.DictWriter(progress, fieldnames=list(row))
                writer.writeheader()
            writer.writerow(row)
            progress.flush()
            if snaps and it % args.snapshot_every == 0:
                snapshot(algo, snaps[(it // args.snapshot_every - 1) % len(snaps)])
            done = (
                (args.iterations and it >= args.iterations)
                or (args.total_timesteps and m["env_steps"] >= args.total_timesteps)
                or (args.minutes and elapsed >= args.minutes * 60)
            )
            line = (
                f"iteration {it}: {m['env_steps']:,} env steps, main trained on "
                f"{m['main_trained']:,} decisions, {elapsed / 60:.1f} min, sampling "
                f"{row['env_steps_per_s']:,.0f} steps/s, learner {row['learner_per_s']:,.0f}/s"
            )
            if done or it % args.eval_every == 0:
                export(algo, args, venv, model_path, m["main_trained"])
                new = evaluate(args, venv, model_path, m["main_trained"], elapsed / 60)
                evals += new
                with open(out / "eval.csv", "w", newline="") as f:
                    w = csv.DictWriter(f, fieldnames=list(evals[0]))
                    w.writeheader()
                    w.writerows(evals)
                algo.save_to_path(str((out / "checkpoint").resolve()))
                line += "; " + ", ".join(
                    f"{r['opponent']} {r['win_rate']:.3f} ({r['ci_low']:.3f}-{r['ci_high']:.3f}"
                    f", W/D/L {r['wins']}/{r['draws']}/{r['losses']}, mean reward "
                    f"{r['mean_return']:+.3f})"
                    for r in new
                )
            print(line, flush=True)
            if done:
                break
    finally:
        progress.close()
        algo.stop()
        ray.shutdown()
    plot(evals, out / "learning_curve.png", f"RLlib PPO, {args.game}")
    final = [r for r in evals if r["timesteps"] == m["main_trained"]]
    summary = {
        "game": args.game,
        "args": {k: v for k, v in vars(args).items()},
        "iterations": it,
        "env_steps": m["env_steps"],
        "main_trained": m["main_trained"],
        "seconds": round(time.perf_counter() - start, 1),
        "final": final,
        "model": str(model_path),
        "checkpoint": str(out / "checkpoint"),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
    print(f"model: {model_path}; checkpoint: {out / 'checkpoint'}; logs: {out}")
    return summary


if __name__ == "__main__":
    main()
