"""What a run of the native trainer (``train/ppo.py``) leaves in ``--out``, and what it prints.

**Outputs** in ``--out`` (checked before anything runs: ``out_problem``): ``model.npz`` and
``checkpoint_<decisions>.npz`` (``train.model_file``), ``progress.csv`` (one row per update),
``eval.csv`` (one row per evaluation and opponent), TensorBoard events when ``tensorboard`` is
installed (``Logs``), ``learning_curve.png`` (win rate against learner decisions and against
wall-clock minutes: ``plot``, which ``train/rllib_ppo.py`` draws its curve with too) and
``summary.json`` (every argument, learner decisions/s, the shares of the training time spent in
the engine, the rollout's forward pass, the league, credit assignment and the update:
``finish``). The evaluations (``train.evaluate.trainer_evaluation``) give each ``eval.csv`` row
its win rate with a 95% Wilson interval, and beside it the model's seats (or sides) won / drawn
/ lost and its mean reward with a 95% interval (``cardenvs.arena.head_to_head``'s ``wins``,
``draws``, ``losses``, ``mean_return``, ``return_ci_low``, ``return_ci_high``: columns of
``eval.csv``, in the printed lines and, as the draws' share, a dotted line of the learning
curve), so a setting that mostly draws cannot pass for an even one.

**Ctrl-C** stops a run early (``interrupted``): ``model.npz`` is then the model of the last
completed update (``Completed``; no final evaluation, plot or summary), said in one line, exit
status 130.
"""

from __future__ import annotations

import copy
import csv
import json
import os
import sys
from pathlib import Path

from train.model_file import git_commit, model_header, to_numpy_policy

#: the parts of the training time (the evaluations' time, "eval", is not one)
TRAIN_PARTS = ("env", "policy", "league", "credit", "update")


def train_seconds(timing: dict) -> float:
    """The training time: the seconds of ``timing``'s ``TRAIN_PARTS``."""
    return sum(timing[k] for k in TRAIN_PARTS)


def out_problem(out: Path) -> str | None:
    """Why the output folder ``out`` cannot be used (made if missing), or None."""
    if out.exists():
        if not out.is_dir():
            return "is a file: give a folder (made if missing) for the model and the logs"
        if not os.access(out, os.W_OK | os.X_OK):
            return "is a folder this user cannot write to"
        return None
    parent = out.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        return f"cannot be made: {str(parent)!r} is a file, not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot be made: {str(parent)!r} is a folder this user cannot write to"
    return None


def plot(rows: list[dict], path: Path, title: str) -> bool:
    """Win rate (95% CI) against learner decisions and against wall-clock minutes, and the share
    of drawn games (dotted) where the rows count draws."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no learning curve")
        return False
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
    for ax, key, label in zip(
        axes, ("timesteps", "minutes"), ("learner decisions", "wall-clock minutes"), strict=True
    ):
        for opp in sorted({r["opponent"] for r in rows}):
            pts = [r for r in rows if r["opponent"] == opp]
            x = [r[key] for r in pts]
            line = ax.plot(x, [r["win_rate"] for r in pts], marker="o", label=f"vs {opp}")[0]
            ax.fill_between(x, [r["ci_low"] for r in pts], [r["ci_high"] for r in pts], alpha=0.2)
            if all("draws" in r for r in pts):
                drawn = [int(r["draws"]) / int(r["games"]) for r in pts]
                ax.plot(x, drawn, ":", color=line.get_color(), label=f"draws vs {opp}")
        if rows:
            ax.axhline(rows[0]["baseline"], color="grey", linestyle="--", label="equal strength")
        ax.set_xlabel(label)
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("win rate (95% CI); draws")
    axes[0].legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


class Logs:
    """``progress.csv`` (one row per update), ``eval.csv`` and TensorBoard events (if
    installed)."""

    def __init__(self, out: Path):
        self.out = out
        self._progress = None
        self._writer = None
        self.eval_rows: list[dict] = []
        try:
            from torch.utils.tensorboard import SummaryWriter

            self.tb = SummaryWriter(str(out))
        except ImportError:
            self.tb = None
            print("tensorboard is not installed: CSV logs only (pip install tensorboard)")

    def update(self, row: dict) -> None:
        if self._writer is None:
            self._progress = open(self.out / "progress.csv", "w", newline="")
            self._writer = csv.DictWriter(self._progress, fieldnames=list(row))
            self._writer.writeheader()
        self._writer.writerow(row)
        self._progress.flush()
        if self.tb is not None:
            for k, v in row.items():
                if k != "timesteps":
                    self.tb.add_scalar(f"train/{k}", v, row["timesteps"])

    def evaluation(self, rows: list[dict]) -> None:
        self.eval_rows += rows
        with open(self.out / "eval.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(self.eval_rows[0]))
            w.writeheader()
            w.writerows(self.eval_rows)
        if self.tb is not None:
            for r in rows:
                step, opp = r["timesteps"], r["opponent"]
                self.tb.add_scalar(f"eval/win_rate_{opp}", r["win_rate"], step)
                self.tb.add_scalar(f"eval/draw_share_{opp}", r["draws"] / r["games"], step)
                self.tb.add_scalar(f"eval/mean_return_{opp}", r["mean_return"], step)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.close()
        if self.tb is not None:
            self.tb.close()


class Progress:
    """A progress bar over the budget (tqdm when installed, else one line per 5%)."""

    def __init__(self, total: int, seconds: float, enabled: bool):
        self.total, self.seconds, self.enabled = total, seconds, enabled
        self.shown = 0
        self.bar = None
        if enabled:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=1000, unit="‰", bar_format="{l_bar}{bar}| {postfix}")
            except ImportError:
                pass

    def fraction(self, steps: int, elapsed: float) -> float:
        f = steps / self.total
        if self.seconds:
            f = max(f, elapsed / self.seconds)
        return min(f, 1.0)

    def __call__(self, steps: int, elapsed: float, rate: float, note: str = "") -> None:
        if not self.enabled:
            return
        f = self.fraction(steps, elapsed)
        text = f"{steps:,} learner decisions, {rate:,.0f}/s, {elapsed / 60:.1f} min {note}"
        if self.bar is not None:
            self.bar.n = int(1000 * f)
            self.bar.set_postfix_str(text, refresh=True)
            return
        step = int(20 * f)
        if step > self.shown or note:
            self.shown = step
            print(f"[{'#' * int(30 * f):30s}] {text}", flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def eval_note(rows: list[dict]) -> str:
    """An evaluation's rows as the progress bar's note."""
    return "| " + " | ".join(
        f"vs {r['opponent']}: {r['win_rate']:.2f} ({r['ci_low']:.2f}-{r['ci_high']:.2f}) "
        f"W/D/L {r['wins']}/{r['draws']}/{r['losses']}"
        for r in rows
    )


def finish(args, logs: Logs, timing: dict, seconds: float, counts: dict, device, model_path):
    """The end of a run: the learning curve, ``summary.json`` and the printed summary (the
    throughput, where the time went, the last evaluation). ``counts``: ``timesteps`` (learner
    decisions), ``trained_decisions``, ``engine_decisions``, ``updates`` and ``games``."""
    out = Path(args.out)
    title = f"native PPO on {args.game} (every seat learns, league share {args.league_share})"
    plot(logs.eval_rows, out / "learning_curve.png", title)
    train_s = train_seconds(timing)
    timesteps = counts["timesteps"]
    summary = {
        "game": args.game,
        "args": {k: v for k, v in vars(args).items() if k != "init_policy"},
        "git_commit": git_commit(),
        **counts,
        "seconds": seconds,
        "train_seconds": train_s,
        "decisions_per_s": timesteps / train_s,
        "decisions_per_s_with_eval": timesteps / seconds,
        "engine_decisions_per_s": counts["engine_decisions"] / train_s,
        "seconds_by_part": timing,
        "shares": {k: timing[k] / train_s for k in TRAIN_PARTS},
        "threads": args.threads,
        "precision": args.precision,
        "device": str(device),
        "final": logs.eval_rows[-2:],
        "model": str(model_path),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    sh = summary["shares"]
    print(
        f"{timesteps:,} learner decisions in {seconds / 60:.1f} min: "
        f"{summary['decisions_per_s']:,.0f} learner decisions/s while training; shares of the "
        f"training time: engine {sh['env']:.1%}, rollout forward {sh['policy']:.1%}, league "
        f"{sh['league']:.1%}, credit {sh['credit']:.1%}, update {sh['update']:.1%}"
    )
    from cardenvs.arena import reward_text, wdl_text

    for r in logs.eval_rows[-2:]:
        reward = reward_text(r["mean_return"], r["return_ci_low"], r["return_ci_high"])
        print(
            f"vs {r['opponent']}: win rate {r['win_rate']:.3f} ({r['ci_low']:.3f}-"
            f"{r['ci_high']:.3f}; equal strength {r['baseline']:.2f}) over {r['games']} games: "
            f"W/D/L {wdl_text(r)}, mean reward {reward}"
        )
    print(f"model: {model_path}; logs: {out}/progress.csv, {out}/eval.csv, TensorBoard in {out}")
    print(f"plot: {out / 'learning_curve.png'}; summary: {out / 'summary.json'}")
    return summary


class Completed:
    """The last completed update, kept for Ctrl-C: a copy of the network after it (``keep``),
    its number and learner decisions, and the run's engine and logs."""

    def __init__(self):
        self.net = None
        self.update = self.timesteps = 0
        self.venv = self.logs = None

    def keep(self, agent, update: int, timesteps: int) -> None:
        if self.net is None:
            self.net = copy.deepcopy(agent)
        else:
            self.net.load_state_dict(agent.state_dict())  # copies the tensors
        self.update, self.timesteps = update, timesteps


def interrupted(args, completed: Completed) -> None:
    """After Ctrl-C: save the last completed update's model (through a temporary file, a second
    Ctrl-C held off meanwhile), close the logs, say so in one line and exit with status 130."""
    import signal
    import threading

    hold = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if hold else None
    try:
        if completed.logs is not None:
            completed.logs.close()
        if completed.net is None:
            message = "interrupted (Ctrl-C) before the first update was complete: no model saved"
        else:
            out = Path(args.out)
            path, part = out / "model.npz", out / "model.npz.part"
            header = model_header(args, completed.venv, completed.timesteps)
            to_numpy_policy(completed.net, header).save(part)
            os.replace(part, path)
            message = (
                "interrupted (Ctrl-C): saved the model of the last completed update (update "
                f"{completed.update}, {completed.timesteps:,} learner decisions) to {path}; logs "
                f"in {out}"
            )
    finally:
        if hold and previous is not None:
            signal.signal(signal.SIGINT, previous)
    print(message, file=sys.stderr, flush=True)
    raise SystemExit(130)
