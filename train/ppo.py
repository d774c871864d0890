"""MaskablePPO on a cardenvs game: one file, CleanRL style (issue 8, first version).

    python -m train.ppo --game piquet-v0 --total-timesteps 200000 --opponent random

The learner plays one seat per game on the batched engine (``cardenvs.wrappers.sb3_vec_env``:
N games in one process, the learner's seat rotating over the games, the opponents' moves
computed in batch). sb3-contrib's ``MaskablePPO`` trains on the legal-action masks. Every
``--eval-every`` steps the current policy (deterministic, masked) plays ``--eval-games`` games
against the random and the heuristic agents; win rates with 95% Wilson intervals go to the log
and to ``eval.csv``. At the end: the model (``model.zip``), ``progress.csv`` (SB3's training
log), ``eval.csv`` and a learning-curve PNG (``learning_curve.png``: win rate against steps, one
line per opponent) in ``--out``.

Opponents during training: ``random``, ``heuristic`` (``agents/heuristic.py``) or ``self`` (a
frozen copy of the learner, refreshed at every evaluation).

Arguments
---------
--game              environment id (``cardenvs.GAMES``)
--config            the game's config as JSON, e.g. '{"num_players": 2}'
--opponent          random | heuristic | self (training opponents)
--total-timesteps   learner steps to train for
--num-envs          games stepped together
--seed              seed of the engine, the agents and the network
--net               hidden layer sizes of the policy and value networks, e.g. 256 256
--learning-rate, --n-steps, --batch-size, --n-epochs, --gamma, --gae-lambda, --ent-coef,
--clip-range        PPO hyper-parameters (SB3 names)
--eval-every        learner steps between evaluations
--eval-games        games per opponent per evaluation
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cardenvs  # noqa: E402
from benchmarks.tournament import wilson  # noqa: E402
from cardenvs.wrappers import sb3_vec_env  # noqa: E402


def policy_opponent(model):
    """A batched opponent from a (frozen) MaskablePPO model."""

    def act(observations, masks):
        actions, _ = model.predict(
            observations, action_masks=np.asarray(masks, bool), deterministic=True
        )
        return np.asarray(actions, np.int64)

    return act


def make_opponent(kind: str, game: str, seed: int, model=None):
    if kind == "random":
        return None
    if kind == "heuristic":
        from agents import heuristic_for

        return heuristic_for(game, seed)
    if kind == "self":
        return policy_opponent(model) if model is not None else None
    raise ValueError(f"unknown opponent {kind!r}; choose random, heuristic or self")


def evaluate(model, game: str, config: dict, opponent: str, games: int, seed: int) -> dict:
    """Win rate of the deterministic masked policy against ``opponent`` over ``games`` games
    (a shared best reward counts as a fraction), every seat played equally."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    P = cardenvs.make_vector(game, 1, **config).num_seats
    n = max(P, min(games, 64))
    venv = sb3_vec_env(
        game, num_envs=n, seed=seed, opponents=make_opponent(opponent, game, seed), **config
    )
    obs = venv.reset()
    wins = played = 0.0
    returns = []
    while played < games:
        actions, _ = model.predict(obs, action_masks=get_action_masks(venv), deterministic=True)
        obs, rewards, dones, _ = venv.step(actions)
        for b in np.flatnonzero(dones):
            if played >= games:
                break
            r = float(rewards[b])
            returns.append(r)
            # a win is the best reward at the table: with zero-sum +-1 rewards, r > 0
            wins += 1.0 if r > 0 else (1.0 / P if r == 0 else 0.0)
            played += 1
    lo, hi = wilson(wins, int(played))
    return {
        "opponent": opponent,
        "games": int(played),
        "win_rate": wins / played,
        "ci_low": lo,
        "ci_high": hi,
        "mean_return": float(np.mean(returns)),
    }


def plot(rows: list[dict], path: Path) -> None:
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
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def parse(argv=None):
    p = argparse.ArgumentParser(description="MaskablePPO on a cardenvs game")
    p.add_argument("--game", default="piquet-v0", choices=list(cardenvs.GAMES))
    p.add_argument("--config", default="{}")
    p.add_argument("--opponent", default="random", choices=["random", "heuristic", "self"])
    p.add_argument("--total-timesteps", type=int, default=200_000)
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--net", type=int, nargs="*", default=[256, 256])
    p.add_argument("--learning-rate", type=float, default=3e-4)
    p.add_argument("--n-steps", type=int, default=64)
    p.add_argument("--batch-size", type=int, default=1024)
    p.add_argument("--n-epochs", type=int, default=4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--clip-range", type=float, default=0.2)
    p.add_argument("--eval-every", type=int, default=50_000)
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--out", default="runs/ppo")
    a = p.parse_args(argv)
    if a.total_timesteps < 1 or a.num_envs < 1 or a.eval_games < 1:
        p.error("--total-timesteps, --num-envs and --eval-games must be positive")
    try:
        a.config = json.loads(a.config)
    except json.JSONDecodeError as e:
        p.error(f"--config is not JSON: {e}")
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
    venv = sb3_vec_env(
        args.game,
        num_envs=args.num_envs,
        seed=args.seed,
        opponents=make_opponent(args.opponent, args.game, args.seed),
        **args.config,
    )
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
    model.set_logger(configure(str(out), ["csv"]))
    rows: list[dict] = []
    done_steps = 0
    t0 = time.perf_counter()
    while done_steps < args.total_timesteps:
        chunk = min(args.eval_every, args.total_timesteps - done_steps)
        model.learn(chunk, reset_num_timesteps=False)
        done_steps += chunk
        for opp in ("random", "heuristic"):
            r = evaluate(model, args.game, args.config, opp, args.eval_games, args.seed + 1)
            r["timesteps"] = done_steps
            r["seconds"] = time.perf_counter() - t0
            rows.append(r)
        bar = "#" * int(30 * done_steps / args.total_timesteps)
        last = {r["opponent"]: r for r in rows[-2:]}
        print(
            f"[{bar:30s}] {done_steps:,}/{args.total_timesteps:,} steps "
            f"{done_steps / (time.perf_counter() - t0):,.0f} steps/s | "
            + " | ".join(
                f"vs {o}: {v['win_rate']:.2f} ({v['ci_low']:.2f}-{v['ci_high']:.2f})"
                for o, v in last.items()
            ),
            flush=True,
        )
        if args.opponent == "self":
            venv.opponents = policy_opponent(MaskablePPO.load(_save(model, out, done_steps)))
    model.save(out / "model.zip")
    with open(out / "eval.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    plot(rows, out / "learning_curve.png")
    summary = {
        "game": args.game,
        "config": args.config,
        "opponent": args.opponent,
        "timesteps": done_steps,
        "seconds": time.perf_counter() - t0,
        "final": rows[-2:],
        "model": str(out / "model.zip"),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    print(f"model: {out / 'model.zip'}; logs: {out}/progress.csv, {out}/eval.csv; plot: ", end="")
    print(out / "learning_curve.png")
    return summary


def _save(model, out: Path, steps: int) -> Path:
    path = out / f"checkpoint_{steps}.zip"
    model.save(path)
    return path


if __name__ == "__main__":
    main()
