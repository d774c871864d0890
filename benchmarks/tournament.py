"""Round-robin tournaments between agents, with win rates, confidence intervals and ratings.

    python -m benchmarks.tournament [--games banque-v0 ...] [--agents random heuristic ismcts]
                                    [--n 200] [--seed 0] [--config '{"num_players": 2}']
                                    [--out benchmarks/results]

For each game and each pair of agents, ``--n`` games are played on the batched engine for every
seating arrangement in which both agents sit (two players: A-B and B-A; P players: every
assignment of the two agents to the P seats that uses both, each equally often), on duplicate
deals by default (game ``d`` of every seating and pair dealt from one deck, so the luck of the
cards is shared; ``--deals independent``: a deck per game). A game's
result for a seat is its reward (``reward="win"``: the winners share +1). Reported per agent:

- **win rate**: the fraction of its seats that won, a shared win or a draw counting as the
  fraction 1/(number of winners), with a 95% Wilson interval; the baseline is 1/P;
- **wins / draws / losses**: its seats counted by their result (``outcomes``): a draw is a game
  in which every seat's reward is equal; otherwise a seat with the best reward won (a win shared
  with other seats counts as won) and every other seat lost. A draw-heavy setting shows here:
  its win rate sits near 1/P because every draw is worth 1/P, not because the agents trade wins;
- **mean reward**: its seats' mean reward per game, with a 95% interval (``mean_interval``:
  normal approximation, mean ± 1.96·sd/√n; on duplicate deals over decks, each deck's mean over
  the agent's seats one sample, on independent deals over its seats);
- **mean score**: its seats' mean final total (the game's ``result["totals"]``; for Esel its
  banks, where fewer is better);
- **rating**: a Bradley–Terry fit (Elo scale, ``random`` = 0) of seat-against-seat outcomes
  (in each game every seat of the winning agent beats every seat of the other);
- **decisions/s**: actions chosen per second of the agent's own time (``act_batch``).

Writes ``tournament.json``, ``tournament.md`` and ``tournament.png`` (matplotlib, if installed)
into ``--out``.

The games are played by ``cardenvs.arena.round_robin``. An agent is any spec of
``cardenvs.arena.make_agent`` (``random``, ``heuristic``, ``ismcts@<n>[:<rollout>]``, ``zoo``,
``model:<path>``); a bare ``ismcts`` takes ``--ismcts-iterations`` and ``--ismcts-rollout``. A
``model:<path>`` is a ``.npz`` of ``train/ppo.py``, or an SB3 ``.zip`` of ``train/sb3_ppo.py``
only with ``--trusted`` (loading a ``.zip`` runs the code its pickles hold: trust only files you
trained or would let run code).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

import cardenvs
from cardenvs.agents.ismcts import ROLLOUTS
from cardenvs.arena import (  # noqa: F401  (re-exported: the programs and tests beside it use them)
    DEALS,
    DRAWN,
    LOST,
    SPEC_HELP,
    TRUSTED_HELP,
    WON,
    arrangements,
    bradley_terry,
    check_spec,
    count_outcomes,
    head_to_head,
    mean_interval,
    outcomes,
    play_games,
    reward_text,
    round_robin,
    sb3_zip,
    untrusted_zip,
    wdl_text,
    wilson,
    win_shares,
)
from cardenvs.arena.specs import ISMCTS_ITERATIONS

RESULTS = Path(__file__).parent / "results"
AGENTS = ("random", "heuristic", "ismcts")


def spec_of(kind: str, iterations: int, rollout: str) -> str:
    """The arena's spec of a ``--agents`` name: a bare ``ismcts`` takes ``--ismcts-iterations``
    and ``--ismcts-rollout``; every other name is a spec already."""
    return f"ismcts@{iterations}:{rollout}" if kind == "ismcts" else kind


def run(
    games,
    agent_kinds,
    n: int,
    seed: int,
    config: dict,
    quiet: bool = False,
    iterations: int = ISMCTS_ITERATIONS,
    rollout: str = "random",
    time_limit: float | None = None,
    batch: int = 16,
    trusted: bool = False,
    deals: str = "duplicate",
) -> dict:
    """The whole tournament (``cardenvs.arena.round_robin`` per game); returns the JSON-able
    report. ``trusted``: the ``model:<path>`` agents may be SB3 ``.zip`` files."""
    report = {"agents": list(agent_kinds), "n": n, "seed": seed, "config": config, "deals": deals}
    report["games"] = {}
    if "ismcts" in agent_kinds:
        report["ismcts_iterations"] = iterations
        report["ismcts_rollout"] = rollout
        report["ismcts_time_limit"] = time_limit
        report["ismcts_batch"] = batch
    specs = {kind: spec_of(kind, iterations, rollout) for kind in agent_kinds}
    for env_id in games:

        def bar(step, steps, pair, seating, env_id=env_id):
            if not quiet:
                done = "#" * (20 * step // steps)
                print(
                    f"\r{env_id:14s} [{done:20s}] {step}/{steps} seatings", end="", file=sys.stderr
                )

        field = round_robin(
            env_id,
            specs,
            n,
            seed,
            config,
            trusted=trusted,
            time_limit=time_limit,
            batch=batch,
            deals=deals,
            progress=bar,
        )
        if not quiet:
            print(file=sys.stderr)
        P = field["num_seats"]
        report["games"][env_id] = {"num_seats": P, "baseline": 1.0 / P, "agents": field["agents"]}
    return report


def markdown(report: dict) -> str:
    """The tournament's table: per game and agent, the win rate, the wins / draws / losses of its
    seats and their mean reward (rows of an older report without them: "n/a")."""
    lines = [
        "| game | agent | win rate | 95% CI | W / D / L (seats) | mean reward (95% CI) | baseline "
        "| mean score | rating (Elo) | decisions/s |",
        "|---|---|---:|---|---:|---|---:|---:|---:|---:|",
    ]
    for env_id, g in report["games"].items():
        for kind, row in g["agents"].items():
            ms = "" if row["mean_score"] is None else f"{row['mean_score']:.1f}"
            dps = "" if row["decisions_per_s"] is None else f"{row['decisions_per_s']:,.0f}"
            reward = reward_text(row.get("mean_return"), *row.get("return_ci95", (None, None)))
            lines.append(
                f"| {env_id} | {kind} | {row['win_rate']:.3f} | "
                f"{row['ci95'][0]:.3f}–{row['ci95'][1]:.3f} | {wdl_text(row)} | {reward} | "
                f"{g['baseline']:.2f} | {ms} | {row['rating']:.0f} | {dps} |"
            )
    return "\n".join(lines)


def chart(report: dict, path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no chart (pip install matplotlib)")
        return False
    games = list(report["games"])
    kinds = report["agents"]
    fig, ax = plt.subplots(figsize=(1.8 + 1.6 * len(games), 3.5))
    w = 0.8 / len(kinds)
    for a, kind in enumerate(kinds):
        rates = [report["games"][g]["agents"][kind]["win_rate"] for g in games]
        err = [
            [
                r - report["games"][g]["agents"][kind]["ci95"][0]
                for r, g in zip(rates, games, strict=True)
            ],
            [
                report["games"][g]["agents"][kind]["ci95"][1] - r
                for r, g in zip(rates, games, strict=True)
            ],
        ]
        ax.bar(np.arange(len(games)) + a * w, rates, w, yerr=err, label=kind, capsize=3)
    for x, g in enumerate(games):
        b = report["games"][g]["baseline"]
        ax.hlines(b, x - 0.1, x + 0.9, colors="grey", linestyles="dashed")
    ax.set_xticks(np.arange(len(games)) + 0.4 - w / 2, games)
    ax.set_ylabel("win rate (95% CI); dashed: 1/P")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.tournament", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--games", nargs="*", default=list(cardenvs.GAMES))
    p.add_argument(
        "--agents",
        nargs="*",
        default=["random", "heuristic"],
        help=f"the agents: cardenvs.arena specs ({SPEC_HELP}); a bare ismcts takes --ismcts-*",
    )
    p.add_argument("--n", type=int, default=200, help="games per seating arrangement")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--config", default="{}", help="JSON config passed to every game")
    p.add_argument("--out", default=str(RESULTS))
    p.add_argument("--quiet", action="store_true")
    p.add_argument(
        "--ismcts-iterations", type=int, default=ISMCTS_ITERATIONS, help="ISMCTS budget per move"
    )
    p.add_argument("--ismcts-seconds", type=float, default=None, help="ISMCTS time per move")
    p.add_argument("--ismcts-rollout", choices=ROLLOUTS, default="random")
    p.add_argument(
        "--ismcts-batch",
        type=int,
        default=16,
        help="ISMCTS iterations whose roll-outs run together",
    )
    p.add_argument("--trusted", action="store_true", help=TRUSTED_HELP)
    p.add_argument(
        "--deals",
        choices=DEALS,
        default="duplicate",
        help="duplicate (default): each deck played from every seating; independent: a deck "
        "per game",
    )
    a = p.parse_args(argv)
    if len(a.agents) < 2:
        p.error("a tournament needs at least two agents")
    for kind in a.agents:
        try:
            check_spec(kind, a.trusted)
        except ValueError as e:
            p.error(f"--agents {kind}: {e}")
    if a.n < 1:
        p.error("--n must be at least 1")
    config = json.loads(a.config)
    report = run(
        a.games,
        a.agents,
        a.n,
        a.seed,
        config,
        quiet=a.quiet,
        iterations=a.ismcts_iterations,
        rollout=a.ismcts_rollout,
        time_limit=a.ismcts_seconds,
        batch=a.ismcts_batch,
        trusted=a.trusted,
        deals=a.deals,
    )
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "tournament.json").write_text(json.dumps(report, indent=2))
    table = markdown(report)
    (out / "tournament.md").write_text(table + "\n")
    chart(report, out / "tournament.png")
    print(table)
    return report


if __name__ == "__main__":
    main()
