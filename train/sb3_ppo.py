"""MaskablePPO (stable-baselines3 / sb3-contrib) on a cardenvs game: one file, CleanRL style.

    python -m train.sb3_ppo --game piquet-v0 --total-timesteps 1500000

The SB3 route, kept beside the native trainer (``train/ppo.py``: every seat learns, PyTorch
only) as the reference it is measured against (``benchmarks/train_speed.py``).

The learner plays one seat per game on the batched engine (``cardenvs.wrappers.sb3_vec_env``:
N games in one process, the learner's seat rotating over the games, the opponents' moves
computed in batch). sb3-contrib's ``MaskablePPO`` trains on the legal-action masks. Every
``--eval-every`` steps the current policy (deterministic, masked) plays ``--eval-games`` games
against the random and the heuristic agents (``train.evaluate``); win rates with 95% Wilson
intervals and the games won / drawn / lost go to the log, and ``eval.csv`` has them with the mean
reward and its 95% interval. At the end: the model (``model.zip``), ``progress.csv`` (SB3's training
log), ``eval.csv`` and a learning-curve PNG (``learning_curve.png``: win rate against steps, one
line per opponent) in ``--out``.

Opponents during training (``--opponent``):

- ``random``, ``heuristic`` (``agents/heuristic.py``);
- ``self``: a pool of the learner's last ``--pool-size`` snapshots (one saved at every
  evaluation); each game is given one member of the pool, drawn again at every snapshot
  (before the first snapshot: random play);
- ``mix``: the pool plus the random and the heuristic agents, drawn per game the same way.

Logs: SB3's training log as CSV (``progress.csv``) and, when ``tensorboard`` is installed (the
``train`` extra), as TensorBoard events (``tensorboard --logdir <out>``); evaluations also go to
TensorBoard (``eval/win_rate_<opponent>``, ``eval/draw_share_<opponent>``,
``eval/mean_return_<opponent>``). ``summary.json`` reports the training throughput and
the share of the wall time spent in the environment (the engine stepping, the opponents'
moves apart) and in the opponents' policies.

Arguments
---------
The defaults of ``--config``, ``--opponent``, ``--total-timesteps``, ``--gamma``,
``--eval-every`` and ``--team`` are per game, in ``train/hyperparams.py``: ``COMMON`` (single
deals, the mix of opponents, 1.5 M steps, gamma 0.99, an evaluation every 250,000 steps) with the
game's ``TUNED`` entry over it (Banque: gamma 1.0, random opponents, 4 M steps, an evaluation
every 1 M; partnership Piquet: ``--team``, 3 M steps, an evaluation every 500,000).
``summary.json`` records every argument a run used.

--game              environment id (``cardenvs.GAMES``)
--config            the game's config for training as JSON (default: single deals,
                    '{"episode": "deal"}': a reward at the end of every deal)
--opponent          random | heuristic | self | mix (training opponents)
--pool-size         snapshots kept as self-play opponents
--team, --no-team   the learner plays every seat of its side (partnership Piquet: both
                    partners), and is evaluated as a side (``train.evaluate --side``)
--total-timesteps   learner steps to train for
--num-envs          games stepped together
--seed              seed of the engine, the agents and the network
--net               hidden layer sizes of the policy and value networks, e.g. 256 256
--learning-rate, --n-steps, --batch-size, --n-epochs, --gamma, --gae-lambda, --ent-coef,
--clip-range        PPO hyper-parameters (SB3 names)
--eval-every        learner steps between evaluations
--eval-games        games per opponent per evaluation (split over the seating arrangements)
--eval-config       the game's config for evaluations as JSON, merged over --config (default:
                    whole games, '{"episode": "game"}', the game's own default episode)
--out               output folder
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

import numpy as np

import cardenvs
from cardenvs.agents import RandomAgent, heuristic_for
from cardenvs.agents.policy import PolicyAgent
from cardenvs.wrappers import sb3_vec_env
from train import hyperparams
from train.evaluate import evaluate as evaluate_against

OPPONENTS = ("random", "heuristic", "self", "mix")


class OpponentPool:
    """Per-game training opponents: row ``b`` of the vector env is played by
    ``members[assign[b]]``; ``redraw()`` gives every row a new member (uniformly)."""

    def __init__(self, members: list, num_envs: int, seed: int):
        self.members = list(members)
        self.rng = np.random.default_rng(seed)
        self.assign = np.zeros(num_envs, np.int64)
        self.redraw()

    def redraw(self) -> None:
        self.assign = self.rng.integers(len(self.members), size=self.assign.size)

    def act_rows(self, rows: np.ndarray, observations: np.ndarray, masks: np.ndarray):
        actions = np.zeros(len(rows), np.int64)
        who = self.assign[rows]
        for k in np.unique(who):
            sel = who == k
            actions[sel] = self.members[k].act_batch(observations[sel], masks[sel])
        return actions


def training_opponents(kind: str, game: str, seed: int, snapshots: list, num_envs: int):
    """The ``--opponent`` of the vector env: an agent, or a pool of them (``self``, ``mix``)."""
    if kind == "random":
        return None
    if kind == "heuristic":
        return heuristic_for(game, seed)
    if kind == "self":
        members = snapshots or [RandomAgent(seed)]
    elif kind == "mix":
        members = [RandomAgent(seed), heuristic_for(game, seed), *snapshots]
    else:
        raise ValueError(f"unknown opponent {kind!r}; choose one of {list(OPPONENTS)}")
    return OpponentPool(members, num_envs, seed + len(snapshots))


def evaluate(
    model, game: str, config: dict, opponent: str, games: int, seed: int, team: bool = False
) -> dict:
    """Win rate of the deterministic masked policy against ``opponent`` over about ``games``
    games (``train.evaluate``: the learner alone in each seat in turn, or with ``team`` in all
    the seats of each side in turn, the opponent in all the others; a shared win is a share)."""
    venv = cardenvs.make_vector(game, 1, **config)
    n = max(1, games // (len(venv.sides) if team else venv.num_seats))
    return evaluate_against(model, game, config, [opponent], n, seed, side=team)[0]


def plot(rows: list[dict], path: Path, title: str = "") -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no learning curve")
        return
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for opp in sorted({r["opponent"] for r in rows}):
        pts = [r for r in rows if r["opponent"] == opp]
        x = [r["timesteps"] for r in pts]
        y = [r["win_rate"] for r in pts]
        ax.plot(x, y, marker="o", label=f"vs {opp}")
        ax.fill_between(x, [r["ci_low"] for r in pts], [r["ci_high"] for r in pts], alpha=0.2)
    if rows and "baseline" in rows[0]:
        ax.axhline(float(rows[0]["baseline"]), color="grey", linestyle="--", label="equal strength")
    ax.set_title(title)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def parse(argv=None):
    p = argparse.ArgumentParser(
        prog="python -m train.sb3_ppo", description="MaskablePPO on a cardenvs game"
    )
    p.add_argument("--game", default="piquet-v0", choices=list(cardenvs.GAMES))
    p.add_argument("--config")
    p.add_argument("--opponent", choices=list(OPPONENTS))
    p.add_argument("--pool-size", type=int, default=5)
    p.add_argument("--team", action=argparse.BooleanOptionalAction, default=False)
    p.add_argument("--total-timesteps", type=int)
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--net", type=int, nargs="*", default=[256, 256])
    p.add_argument("--learning-rate", type=float, default=3e-4)
    p.add_argument("--n-steps", type=int, default=64)
    p.add_argument("--batch-size", type=int, default=1024)
    p.add_argument("--n-epochs", type=int, default=4)
    p.add_argument("--gamma", type=float)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--clip-range", type=float, default=0.2)
    p.add_argument("--eval-every", type=int)
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--eval-config", default='{"episode": "game"}')
    p.add_argument("--out", default="runs/ppo")
    # the game's defaults (train/hyperparams.py) fill what the command line leaves out
    game = p.parse_known_args(argv)[0].game
    tuned = hyperparams.defaults(game)
    unknown = set(tuned) - set(vars(p.parse_known_args([])[0]))
    if unknown:
        raise KeyError(
            f"train/hyperparams.py names no argument of train/sb3_ppo.py: {sorted(unknown)}"
        )
    p.set_defaults(**tuned)
    a = p.parse_args(argv)
    if min(a.total_timesteps, a.num_envs, a.eval_games, a.eval_every, a.pool_size) < 1:
        p.error("--total-timesteps, --num-envs, --eval-games, --eval-every, --pool-size: >= 1")
    for name in ("config", "eval_config"):
        try:
            setattr(a, name, json.loads(getattr(a, name)))
        except json.JSONDecodeError as e:
            p.error(f"--{name.replace('_', '-')} is not JSON: {e}")
    a.eval_config = a.config | a.eval_config
    return a


def main(argv=None) -> dict:
    args = parse(argv)
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.logger import configure
    except ImportError:
        sys.exit("training needs the train extra: pip install -c constraints.txt -e '.[train]'")
    torch.set_num_threads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    snapshots: list[PolicyAgent] = []
    venv = sb3_vec_env(
        args.game,
        num_envs=args.num_envs,
        seed=args.seed,
        opponents=training_opponents(args.opponent, args.game, args.seed, snapshots, args.num_envs),
        team=args.team,
        **args.config,
    )
    # compile the kernels (first use after a fresh install) before the environment's time counts
    venv.reset()
    venv.step(venv.action_masks().argmax(axis=1))
    venv.timing = {"env": 0.0, "opponents": 0.0}
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        learning_rate=args.learning_rate,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        gamma=args.gamma,
        gae_lambda=args.gae_lambda,
        ent_coef=args.ent_coef,
        clip_range=args.clip_range,
        policy_kwargs={"net_arch": list(args.net)},
        seed=args.seed,
        verbose=0,
    )
    formats = ["csv"]
    try:
        import tensorboard  # noqa: F401

        formats.append("tensorboard")
    except ImportError:
        print("tensorboard is not installed: CSV logs only (pip install tensorboard)")
    logger = configure(str(out), formats)
    model.set_logger(logger)
    rows: list[dict] = []
    done_steps = 0
    learn_seconds = 0.0  # inside model.learn: collecting rollouts and updating the networks
    t0 = time.perf_counter()
    progress = progress_callback(args.total_timesteps, t0)
    while done_steps < args.total_timesteps:
        chunk = min(args.eval_every, args.total_timesteps - done_steps)
        t_learn = time.perf_counter()
        model.learn(chunk, reset_num_timesteps=False, callback=progress)
        learn_seconds += time.perf_counter() - t_learn
        done_steps += chunk
        for k, opp in enumerate(("random", "heuristic")):
            seed = args.seed + 1 + k
            r = evaluate(model, args.game, args.eval_config, opp, args.eval_games, seed, args.team)
            r["timesteps"] = done_steps
            r["seconds"] = time.perf_counter() - t0
            rows.append(r)
            logger.record(f"eval/win_rate_{opp}", r["win_rate"])
            logger.record(f"eval/draw_share_{opp}", r["draws"] / r["games"])
            logger.record(f"eval/mean_return_{opp}", r["mean_return"])
        logger.dump(done_steps)
        bar = "#" * int(30 * done_steps / args.total_timesteps)
        last = {r["opponent"]: r for r in rows[-2:]}
        print(
            ("\r" if sys.stdout.isatty() else "")  # over the live progress bar
            + f"[{bar:30s}] {done_steps:,}/{args.total_timesteps:,} steps "
            f"{done_steps / (time.perf_counter() - t0):,.0f} steps/s | "
            + " | ".join(
                f"vs {o}: {v['win_rate']:.2f} ({v['ci_low']:.2f}-{v['ci_high']:.2f}) "
                f"W/D/L {v['wins']}/{v['draws']}/{v['losses']}"
                for o, v in last.items()
            ),
            flush=True,
        )
        path = _save(model, out, done_steps)
        if args.opponent in ("self", "mix"):
            # the checkpoint this run just wrote: trusted (an SB3 .zip is unpickled to load)
            snapshots.append(PolicyAgent(path, args.game, name=path.stem, trusted=True))
            del snapshots[: -args.pool_size]
            venv.opponents = training_opponents(
                args.opponent, args.game, args.seed, snapshots, args.num_envs
            )
    seconds = time.perf_counter() - t0
    model.save(out / "model.zip")
    with open(out / "eval.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    side = ", as a side" if args.team else ""
    title = f"MaskablePPO on {args.game} ({args.opponent} opponents{side})"
    plot(rows, out / "learning_curve.png", title)
    timing = venv.timing
    summary = {
        "game": args.game,
        "config": args.config,
        "eval_config": args.eval_config,
        "opponent": args.opponent,
        "args": dict(vars(args)),
        "timesteps": done_steps,
        "seconds": seconds,
        "steps_per_s": done_steps / seconds,
        "learn_steps_per_s": done_steps / learn_seconds,
        "env_seconds": timing["env"] - timing["opponents"],
        "opponent_seconds": timing["opponents"],
        "env_share": (timing["env"] - timing["opponents"]) / learn_seconds,
        "opponent_share": timing["opponents"] / learn_seconds,
        "final": rows[-2:],
        "model": str(out / "model.zip"),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    print(
        f"{done_steps / learn_seconds:,.0f} learner steps/s while learning "
        f"({done_steps / seconds:,.0f} with evaluations); of the learning time the environment "
        f"took {summary['env_share']:.1%} and the opponents' moves {summary['opponent_share']:.1%}"
    )
    print(f"model: {out / 'model.zip'}; logs: {out}/progress.csv, {out}/eval.csv; plot: ", end="")
    print(out / "learning_curve.png")
    return summary


def progress_callback(total: int, t0: float, stream=None):
    """An SB3 callback drawing a progress bar after every rollout: rewritten in place on a
    terminal, one line per 5% of ``total`` otherwise (logs stay readable)."""
    from stable_baselines3.common.callbacks import BaseCallback

    stream = stream or sys.stdout
    live = stream.isatty()

    class Progress(BaseCallback):
        shown = 0  # the last 5% step printed (not on a terminal)

        def _on_step(self) -> bool:
            return True

        def _on_rollout_end(self) -> None:
            done = min(self.num_timesteps, total)
            step = int(20 * done / total)
            if not live and step <= self.shown:
                return
            self.shown = step
            rate = done / max(time.perf_counter() - t0, 1e-9)
            eta = (total - done) / rate if rate else float("inf")
            bar = "#" * int(30 * done / total)
            left = f"{eta:.0f} s" if eta < 60 else f"{eta / 60:.1f} min"
            line = f"[{bar:30s}] {done:,}/{total:,} steps {rate:,.0f} steps/s, {left} left"
            stream.write(f"\r{line:100s}" if live else line + "\n")
            stream.flush()

    return Progress()


def _save(model, out: Path, steps: int) -> Path:
    path = out / f"checkpoint_{steps}.zip"
    model.save(path)
    return path


if __name__ == "__main__":
    main()
