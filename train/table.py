"""The native trainer's results table: train every setting at a fixed wall-clock budget, keep
its curves, and write the table the README shows.

    python -m train.table                         # every setting, 15 minutes each, one at a time
    python -m train.table --jobs 2 --only piquet-v0 esel-v0_2p
    python -m train.table --collect               # rebuild the table from docs/training/native

A setting is a game id with its default config, or with a config override (two-player Banque
and Esel). Each runs ``python -m train.ppo`` with the game's defaults (``train/hyperparams.py``)
for ``--minutes`` of wall clock, evaluations included, then its final model plays whole games
against random and the heuristic (the trainer's last evaluation: the model alone in each seat,
or as a side in partnership Piquet, 400 games per opponent, 95% Wilson intervals). In Piquet it
also plays single deals against ISMCTS (400 iterations a move, heuristic roll-outs; ``--ismcts-n``
deals from each seat), the search of the baselines table.

A result cell of the table is the win rate with its 95% Wilson interval, then the model's seats
(sides) won / drawn / lost and its mean reward with a 95% interval (normal approximation, mean ±
1.96·sd/√n; ``cardenvs.arena.head_to_head``): ``0.453 (0.404–0.501); W/D/L 16/330/54;
reward -0.095 ± 0.040``. A result stored before draws were counted shows the win rate alone.

Each setting's ``summary.json``, ``eval.csv``, ``progress.csv`` and ``learning_curve.png`` (and
``ismcts.json``) are copied to ``docs/training/native/<setting>/``; the model and the
checkpoints stay in ``runs/table/<setting>/``. ``docs/training/native/table.md`` gets the table.

The trainer uses one thread (the engine, the network and the league in turn), so ``--jobs 2``
runs two settings side by side on a 2-core machine, each on its own core.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import cardenvs
from cardenvs.registry import lookup
from train import hyperparams

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "training" / "native"
RUNS = ROOT / "runs" / "table"

# name: (game id, config over the game's training defaults)
SETTINGS: dict[str, tuple[str, dict]] = {
    "piquet-v0": ("piquet-v0", {}),
    "piquet_au_cent-v0": ("piquet_au_cent-v0", {}),
    "auction_piquet-v0": ("auction_piquet-v0", {}),
    "piquet_normand-v0": ("piquet_normand-v0", {}),
    "partnership_piquet-v0": ("partnership_piquet-v0", {}),
    "banque-v0": ("banque-v0", {}),
    "banque-v0_2p": ("banque-v0", {"num_players": 2}),
    "esel-v0": ("esel-v0", {}),
    # Two-player Esel trains on the hand's score margin (evaluated on wins, as every setting):
    # it did better against the heuristic than on hand wins
    # (docs/training.md#strength-at-15-minutes-per-setting).
    "esel-v0_2p": ("esel-v0", {"num_players": 2, "reward": "score"}),
    "four_aces-v0": ("four_aces-v0", {}),
}
ISMCTS = {"piquet-v0": "heuristic"}  # setting: the search's roll-outs
KEEP = ("summary.json", "eval.csv", "progress.csv", "learning_curve.png", "ismcts.json")


def commands(name: str, a: argparse.Namespace) -> list[list[str]]:
    """The setting's training command, then its ISMCTS evaluation where there is one."""
    game, extra = SETTINGS[name]
    config = json.loads(hyperparams.native_defaults(game)["config"]) | extra
    out = Path(a.runs) / name
    py = [sys.executable, "-m"]
    cmds = [
        py
        + ["train.ppo", "--game", game, "--config", json.dumps(config), "--minutes", str(a.minutes)]
        + ["--eval-every", str(a.eval_every), "--no-progress", "--out", str(out)]
        + shlex.split(a.trainer_args)
    ]
    if name in ISMCTS:
        cmds.append(
            py
            + ["train.evaluate", str(out / "model.npz"), "--game", game]
            + ["--config", json.dumps(config), "--against", "ismcts"]
            + ["--ismcts-iterations", str(a.ismcts_iterations), "--ismcts-rollout", ISMCTS[name]]
            + ["--n", str(a.ismcts_n), "--seed", "11", "--json", str(out / "ismcts.json")]
        )
    return cmds


def run(names: list[str], a: argparse.Namespace) -> list[str]:
    """Run the settings' command chains, ``--jobs`` at a time (logs in ``<runs>/<name>.log``);
    the names of those that failed."""
    runs = Path(a.runs)
    runs.mkdir(parents=True, exist_ok=True)
    queue, failed = list(names), []
    running: dict[str, tuple[subprocess.Popen, list, object]] = {}
    while queue or running:
        while queue and len(running) < a.jobs:
            name = queue.pop(0)
            chain = commands(name, a)
            log = open(runs / f"{name}.log", "w")
            print(f"start {name}: {shlex.join(chain[0][2:])}", flush=True)
            running[name] = (subprocess.Popen(chain[0], stdout=log, stderr=log), chain[1:], log)
        time.sleep(1)
        for name, (proc, rest, log) in list(running.items()):
            if proc.poll() is None:
                continue
            if proc.returncode == 0 and rest:
                running[name] = (subprocess.Popen(rest[0], stdout=log, stderr=log), rest[1:], log)
                continue
            log.close()
            del running[name]
            if proc.returncode != 0:
                failed.append(name)
                print(f"{name} failed ({proc.returncode}): see {runs / name}.log", flush=True)
                continue
            keep(name, a)
            print(f"done {name}", flush=True)
    return failed


def keep(name: str, a: argparse.Namespace) -> None:
    """Copy the setting's results to ``<docs>/<name>/``."""
    src, dst = Path(a.runs) / name, Path(a.docs) / name
    dst.mkdir(parents=True, exist_ok=True)
    for f in KEEP:
        if (src / f).exists():
            shutil.copy2(src / f, dst / f)


def outcome_text(row: dict) -> str:
    """``"; W/D/L <wins>/<draws>/<losses>; reward <mean> ± <half-width>"`` of a result row that
    counts them (``head_to_head``'s keys, flat as in ``eval.csv`` and ``summary.json``, or the
    zoo header's ``return_ci95``); ``""`` for a row stored before they were counted."""
    if any(row.get(k) in (None, "") for k in ("wins", "draws", "losses", "mean_return")):
        return ""
    text = f"; W/D/L {int(row['wins'])}/{int(row['draws'])}/{int(row['losses'])}; reward "
    lo, hi = row.get("return_ci95") or (row.get("return_ci_low"), row.get("return_ci_high"))
    text += f"{float(row['mean_return']):+.3f}"
    if lo not in (None, "") and hi not in (None, ""):
        text += f" ± {(float(hi) - float(lo)) / 2:.3f}"
    return text


def ci(row: dict) -> str:
    """A result cell: the win rate and its 95% interval, then ``outcome_text``."""
    return f"{row['win_rate']:.3f} ({row['ci_low']:.3f}–{row['ci_high']:.3f})" + outcome_text(row)


def table(docs: Path = DOCS, link: str = "docs/training/native/") -> str:
    """The markdown table of every setting found in ``docs``, each linking its curve at
    ``link + <setting>/learning_curve.png``."""
    lines = [
        "| setting (curve) | players | minutes | learner decisions | learner decisions/s "
        "| equal strength | vs random | vs heuristic | vs ISMCTS-400 (single deals) |",
        "|---|---:|---:|---:|---:|---:|---|---|---|",
    ]
    for name in SETTINGS:
        path = docs / name / "summary.json"
        if not path.exists():
            continue
        s = json.loads(path.read_text())
        final = {r["opponent"]: r for r in s["final"]}
        base = final["random"]["baseline"]
        game = SETTINGS[name][0]
        info = cardenvs.game_info(game)
        players = info.num_seats(info.config_cls(**(lookup(game)[1] | s["args"]["config"])))
        cells = [
            f"[{name}]({link}{name}/learning_curve.png)",
            str(players),
            f"{s['seconds'] / 60:.1f}",
            f"{s['timesteps'] / 1e6:.1f} M",
            f"{s['decisions_per_s']:,.0f}",
            f"{base:.2f}",
            ci(final["random"]),
            ci(final["heuristic"]),
        ]
        ismcts = docs / name / "ismcts.json"
        if ismcts.exists():
            row = json.loads(ismcts.read_text())["results"][0]
            cells.append(f"{ci(row)}, {row['games']} deals")
        else:
            cells.append("")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> str:
    p = argparse.ArgumentParser(prog="python -m train.table", description=__doc__.split("\n")[0])
    p.add_argument("--only", nargs="+", choices=list(SETTINGS), help="these settings only")
    p.add_argument("--minutes", type=float, default=15.0, help="wall-clock budget per setting")
    p.add_argument("--jobs", type=int, default=1, help="settings trained side by side")
    p.add_argument(
        "--eval-every", type=int, default=2_000_000, help="learner decisions between evaluations"
    )
    p.add_argument("--trainer-args", default="", help="more arguments for train.ppo (one string)")
    p.add_argument("--ismcts-n", type=int, default=50, help="ISMCTS deals from each seat")
    p.add_argument("--ismcts-iterations", type=int, default=400, help="ISMCTS budget per move")
    p.add_argument("--docs", default=str(DOCS), help="where each setting's results are kept")
    p.add_argument("--runs", default=str(RUNS), help="where the runs write (models, logs)")
    p.add_argument("--collect", action="store_true", help="only rebuild the table")
    a = p.parse_args(argv)
    if min(a.jobs, a.ismcts_n, a.ismcts_iterations, a.eval_every) < 1 or a.minutes <= 0:
        p.error("--jobs, --minutes, --eval-every and the ISMCTS numbers must be positive")
    failed = [] if a.collect else run(a.only or list(SETTINGS), a)
    docs = Path(a.docs)
    docs.mkdir(parents=True, exist_ok=True)
    (docs / "table.md").write_text(table(docs, link=""))
    text = table(docs)
    print(text)
    if failed:
        sys.exit(f"failed: {' '.join(failed)}")
    return text


if __name__ == "__main__":
    main()
