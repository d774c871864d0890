"""Duplicate deals against independent ones: how much the mean reward's interval narrows.

    python -m benchmarks.duplicate [--settings piquet-v0 esel-v0_2p ...] [--n 200] [--seed 0]
        [--pairs zoo:heuristic heuristic:random] [--episode game] [--out docs/benchmarks/duplicate]

For each training setting (``train.table.SETTINGS``) and pair of agents, ``cardenvs.arena
.head_to_head`` plays the first agent against the second twice with the same number of games:
``--n`` games per seating on independent deals (every game its own deck, each of the agent's
seats one sample of the mean reward) and ``--n`` decks played from every seating on duplicate
deals (each deck one sample: the mean over its games). Both are played on whole games
(``--episode game``, scored by wins) unless told otherwise. Reported per setting and pair: the
mean reward and the half-width of its 95% interval under each, and their ratio (duplicate /
independent: below 1, duplicate deals narrowed the interval; the number of games equal to reach
the same width scales with the ratio squared). A pair without a zoo model for the setting is
skipped with a note.

Writes ``duplicate-<episode>.json`` and ``duplicate-<episode>.md`` into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from benchmarks.ladder import game_config
from cardenvs import arena
from train.table import SETTINGS

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "benchmarks" / "duplicate"
PAIRS = ("zoo:heuristic", "heuristic:random")


def measure(setting: str, pair: str, n: int, seed: int, episode: str) -> dict:
    """Both deals for one setting and pair; the JSON-able row."""
    env_id = SETTINGS[setting][0]
    config = game_config(setting, episode)  # the setting's rules, scored by wins
    agent, opponent = pair.split(":")
    row = {"setting": setting, "env_id": env_id, "pair": pair, "config": config, "n": n}
    for deals in ("independent", "duplicate"):
        t0 = time.perf_counter()
        r = arena.head_to_head(env_id, agent, opponent, n=n, seed=seed, config=config, deals=deals)
        row[deals] = {
            "games": r["games"],
            "decks": r["decks"],
            "wins": r["wins"],
            "draws": r["draws"],
            "losses": r["losses"],
            "mean_return": r["mean_return"],
            "half_width": (r["return_ci_high"] - r["return_ci_low"]) / 2,
            "seconds": round(time.perf_counter() - t0, 2),
        }
    ind, dup = row["independent"]["half_width"], row["duplicate"]["half_width"]
    row["ratio"] = dup / ind if ind > 0 else None
    return row


def markdown(report: dict) -> str:
    lines = [
        f"Duplicate against independent deals: `python -m benchmarks.duplicate --n {report['n']} "
        f"--seed {report['seed']} --episode {report['episode']}`. The mean reward of the first "
        "agent with the half-width of its 95% interval; the same number of games both ways.",
        "",
        "| setting | pair | games | independent: mean ± half-width | duplicate: mean ± "
        "half-width | ratio (duplicate / independent) |",
        "|---|---|---:|---|---|---:|",
    ]
    for row in report["rows"]:
        if "skipped" in row:
            lines.append(f"| {row['setting']} | {row['pair']} | | {row['skipped']} | | |")
            continue
        ind, dup = row["independent"], row["duplicate"]
        ratio = "n/a" if row["ratio"] is None else f"{row['ratio']:.2f}"
        lines.append(
            f"| {row['setting']} | {row['pair']} | {ind['games']} | "
            f"{ind['mean_return']:+.3f} ± {ind['half_width']:.3f} | "
            f"{dup['mean_return']:+.3f} ± {dup['half_width']:.3f} | {ratio} |"
        )
    return "\n".join(lines)


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.duplicate", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--settings", nargs="*", default=list(SETTINGS), choices=list(SETTINGS))
    p.add_argument("--pairs", nargs="*", default=list(PAIRS), help="agent:opponent specs")
    p.add_argument("--n", type=int, default=200, help="games per seating, or decks")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--episode", choices=("game", "deal"), default="game")
    p.add_argument("--out", default=str(OUT))
    a = p.parse_args(argv)
    if a.n < 2:
        p.error("--n must be at least 2 (an interval needs two samples)")
    for pair in a.pairs:
        parts = pair.split(":")
        if len(parts) != 2:
            p.error(f"--pairs {pair!r}: write agent:opponent, e.g. zoo:heuristic")
        for spec in parts:
            try:
                arena.check_spec(spec)
            except ValueError as e:
                p.error(f"--pairs {pair}: {e}")
    report = {"n": a.n, "seed": a.seed, "episode": a.episode, "rows": []}
    for setting in a.settings:
        for pair in a.pairs:
            print(f"{setting} {pair}...", file=sys.stderr, flush=True)
            try:
                row = measure(setting, pair, a.n, a.seed, a.episode)
            except ValueError as e:
                if "zoo has no" not in str(e):
                    raise
                row = {"setting": setting, "pair": pair, "skipped": f"skipped: {e}"}
            report["rows"].append(row)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"duplicate-{a.episode}.json").write_text(json.dumps(report, indent=2))
    table = markdown(report)
    (out / f"duplicate-{a.episode}.md").write_text(table + "\n")
    print(table)
    return report


if __name__ == "__main__":
    main()
