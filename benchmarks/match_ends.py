"""How matches end: draw rate and match length per setting, between equal agents.

    python -m benchmarks.match_ends [--n 400] [--seed 0] [--settings esel-v0_2p ...]
                                    [--out docs/match_ends] [--no-pages]

For every setting of ``SETTINGS`` (every id at its default, Esel and Banque at two and four
players, and Esel again under ``tie_break="hand_points"``), ``--n`` whole games are played on the
batched engine with the same agent in every seat, once with the heuristic (``agents``) and once
with uniformly random legal play, rewarded ``"win"``. Reported per setting and pair:

- **draws**: games whose seats all got the same reward (nobody won), with the rate and its 95%
  Wilson interval;
- **wins per seat** when the heuristic plays itself (equal agents: each seat about 1/P);
- **length**: the mean number of deals of a game (hands in Esel and Banque, rounds in Four Aces;
  what the game's result counts, redeals excluded) and the mean number of decisions (actions of
  all seats together) per game.

For the settings of ``SKILL`` (options that change how a match ends) the heuristic also plays
random play, in each seat in turn: its games won / drawn / lost and its win rate with a 95%
interval, the check that the setting still rewards skill.

Writes ``match_ends.json`` into ``--out`` (settings not measured in this run keep their rows from
the JSON already there) and, unless ``--no-pages`` (which prints the tables instead), the table of
each game's settings into its rules page, between ``<!-- measured: match_ends GAME -->``
and ``<!-- end measured -->`` (``docs/games/GAME.md``), so the pages show what was measured last.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

import cardenvs
from cardenvs.arena import make_agent, wilson

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "match_ends"  # the JSON behind the rules pages' tables
PAGES = ROOT / "docs" / "games"
AGENTS = ("heuristic", "random")
LENGTH_KEYS = ("deals", "hands", "rounds")  # what a game's result counts its deals as

# setting name -> (env id, config, the rules page that shows it)
SETTINGS: dict[str, tuple[str, dict, str]] = {
    "piquet-v0": ("piquet-v0", {}, "piquet"),
    "piquet-v0_four_deals": ("piquet-v0", {"partie": "four_deals"}, "piquet"),
    "piquet_au_cent-v0": ("piquet_au_cent-v0", {}, "piquet"),
    "auction_piquet-v0": ("auction_piquet-v0", {}, "piquet"),
    "partnership_piquet-v0": ("partnership_piquet-v0", {}, "piquet"),
    "piquet_normand-v0": ("piquet_normand-v0", {}, "piquet"),
    "esel-v0_2p": ("esel-v0", {"num_players": 2}, "esel"),
    "esel-v0_2p_hand_points": ("esel-v0", {"num_players": 2, "tie_break": "hand_points"}, "esel"),
    "esel-v0": ("esel-v0", {}, "esel"),
    "esel-v0_hand_points": ("esel-v0", {"tie_break": "hand_points"}, "esel"),
    "banque-v0_2p": ("banque-v0", {"num_players": 2}, "banque"),
    "banque-v0": ("banque-v0", {}, "banque"),
    "four_aces-v0": ("four_aces-v0", {}, "four_aces"),
}
# settings whose options change how a match ends: also the heuristic against random play
SKILL = ("esel-v0_2p_hand_points", "esel-v0_hand_points")


def play(env_id: str, config: dict, kind, n: int, seed: int) -> dict:
    """``n`` whole games with agent ``kind`` in every seat (one instance per seat; or
    ``kind[p]`` in seat ``p``); the draw count, the wins of each seat (a win: the seat's reward
    is the best and not everybody's), the mean length and the mean number of decisions."""
    venv = cardenvs.make_vector(
        env_id, n, seed=seed, autoreset=False, validate=False, **(config | {"reward": "win"})
    )
    obs, mask, info = venv.reset()
    P = venv.num_seats
    kinds = [kind] * P if isinstance(kind, str) else list(kind)
    agents = [make_agent(k, env_id, seed=seed + p) for p, k in enumerate(kinds)]
    rewards = np.zeros((n, P))
    done = np.zeros(n, bool)
    actions = np.zeros(n, np.int64)
    decisions = np.zeros(n, np.int64)
    t0 = time.perf_counter()
    while not done.all():
        cur = info["current_player"].astype(np.int64)
        for p, agent in enumerate(agents):
            rows = np.flatnonzero(~done & (cur == p))
            if rows.size:
                actions[rows] = agent.act_batch(obs[rows], mask[rows])
                decisions[rows] += 1
        actions[done] = 0  # a finished row ignores its action
        obs, mask, r, term, _, info = venv.step(actions)
        new = term & ~done
        rewards[new] = r[new]
        done |= term
    results = [venv.game.result(venv.state, b, venv.config) for b in range(n)]
    key = next(k for k in LENGTH_KEYS if k in results[0])
    lengths = np.array([res[key] for res in results], float)
    drawn = rewards.max(axis=1) == rewards.min(axis=1)
    draws = int(drawn.sum())
    won = (rewards == rewards.max(axis=1, keepdims=True)) & ~drawn[:, None]
    lo, hi = wilson(draws, n)
    return {
        "games": n,
        "players": P,
        "draws": draws,
        "seat_wins": won.sum(axis=0).astype(int).tolist(),
        "draw_rate": draws / n,
        "draw_ci": [lo, hi],
        "length_unit": key,
        "mean_length": float(lengths.mean()),
        "mean_decisions": float(decisions.mean()),
        "seconds": time.perf_counter() - t0,
    }


def skill(env_id: str, config: dict, n: int, seed: int) -> dict:
    """The heuristic against random play, ``n`` games with the heuristic in each seat in turn
    and random play in the others: its games won, drawn and lost, and its win rate with a 95%
    Wilson interval (the check that a setting still rewards skill)."""
    P = cardenvs.make_vector(env_id, 1, seed=0, **config).num_seats
    won = drawn = 0
    for seat in range(P):
        kinds = ["random"] * P
        kinds[seat] = "heuristic"
        out = play(env_id, config, kinds, n, seed + 1000 * (seat + 1))
        won += out["seat_wins"][seat]
        drawn += out["draws"]
    games = n * P
    lo, hi = wilson(won, games)
    return {
        "games": games,
        "won": won,
        "drawn": drawn,
        "lost": games - won - drawn,
        "win_rate": won / games,
        "ci": [lo, hi],
        "equal_strength": 1 / P,
    }


def run(names, n: int, seed: int, log=print) -> dict:
    report = {"settings": {}}
    for name in names:
        env_id, config, page = SETTINGS[name]
        row = {"env_id": env_id, "config": config, "page": page, "seed": seed, "agents": {}}
        for kind in AGENTS:
            out = play(env_id, config, kind, n, seed)
            row["agents"][kind] = out
            log(
                f"{name:26s} {kind:9s} draws {out['draws']:4d}/{n} ({out['draw_rate']:.3f}), "
                f"{out['mean_length']:.2f} {out['length_unit']}, "
                f"{out['mean_decisions']:.0f} decisions ({out['seconds']:.0f} s)"
            )
        mirror = row["agents"]["heuristic"]
        row["heuristic_seat_share"] = [w / n for w in mirror["seat_wins"]]
        if name in SKILL:
            row["heuristic_vs_random"] = out = skill(env_id, config, n, seed)
            log(
                f"{name:26s} heuristic vs random: {out['win_rate']:.3f} "
                f"({out['ci'][0]:.3f}–{out['ci'][1]:.3f}), {out['won']}/{out['drawn']}/"
                f"{out['lost']} won/drawn/lost; seats in the mirror match "
                f"{[round(x, 3) for x in row['heuristic_seat_share']]}"
            )
        report["settings"][name] = row
    return report


def skill_markdown(report: dict, page: str | None = None) -> str:
    """The skill checks of the settings on ``page`` (empty when it has none)."""
    rows = []
    for row in report["settings"].values():
        out = row.get("heuristic_vs_random")
        if out is None or (page is not None and row["page"] != page):
            continue
        share = ", ".join(f"{x:.3f}" for x in row["heuristic_seat_share"])
        rows.append(
            f"| `{row['env_id']}` | {_config_text(row['config'])} | {out['win_rate']:.3f} "
            f"({out['ci'][0]:.3f}–{out['ci'][1]:.3f}) | {out['won']} / {out['drawn']} / "
            f"{out['lost']} | {out['equal_strength']:.2f} | {share} |"
        )
    if not rows:
        return ""
    head = [
        "| id | options | heuristic vs random: win rate (95% CI) | won / drawn / lost | "
        "equal strength | heuristic mirror: wins per seat |",
        "|---|---|---|---|---:|---|",
    ]
    return "\n".join(head + rows)


def _config_text(config: dict) -> str:
    """The options a setting sets beside the id's defaults (the player count has a column)."""
    shown = {k: v for k, v in config.items() if k != "num_players"}
    return ", ".join(f"`{k}={v!r}`" for k, v in shown.items()) or "defaults"


def markdown(report: dict, page: str | None = None) -> str:
    """The table of the settings shown on ``page`` (all settings: ``None``)."""
    rows = [
        "| id | players | options | play | games | draws | draw rate (95% CI) | mean length | "
        "mean decisions |",
        "|---|---:|---|---|---:|---:|---|---|---:|",
    ]
    for row in report["settings"].values():
        if page is not None and row["page"] != page:
            continue
        for kind, out in row["agents"].items():
            lo, hi = out["draw_ci"]
            rows.append(
                f"| `{row['env_id']}` | {out['players']} | {_config_text(row['config'])} | "
                f"{kind} vs {kind} | "
                f"{out['games']} | {out['draws']} | {out['draw_rate']:.3f} ({lo:.3f}–{hi:.3f}) | "
                f"{out['mean_length']:.2f} {out['length_unit']} | {out['mean_decisions']:.0f} |"
            )
    return "\n".join(rows)


def write_pages(report: dict, pages: Path = PAGES) -> list[Path]:
    """Replace each page's measured block with its settings' table; returns the pages written.
    A page without the markers is an error (the block is where the page explains it)."""
    written = []
    for page in sorted({row["page"] for row in report["settings"].values()}):
        path = pages / f"{page}.md"
        text = path.read_text()
        start = f"<!-- measured: match_ends {page} -->"
        end = "<!-- end measured -->"
        if start not in text:
            raise ValueError(f"{path} has no {start!r} block to write the table into")
        head, rest = text.split(start, 1)
        if end not in rest:
            raise ValueError(f"{path}: {start!r} has no {end!r} after it")
        _, tail = rest.split(end, 1)
        seeds = sorted({row["seed"] for row in report["settings"].values() if row["page"] == page})
        note = (
            f"\n\n_Measured by `python -m benchmarks.match_ends` (seed "
            f"{', '.join(map(str, seeds))}); every seat played by the same agent._\n\n"
        )
        table = markdown(report, page)
        checks = skill_markdown(report, page)
        if checks:
            table += (
                "\n\nDoes the setting still reward skill? The heuristic against random play "
                "(the heuristic in each seat in turn), and the share of games each seat won when "
                "the heuristic plays itself:\n\n" + checks
            )
        path.write_text(head + start + note + table + "\n\n" + end + tail)
        written.append(path)
    return written


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.match_ends", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument("--n", type=int, default=400, help="games per setting and agent")
    ap.add_argument("--seed", type=int, default=0, help="the engines' and agents' seed")
    ap.add_argument(
        "--settings",
        nargs="+",
        default=list(SETTINGS),
        choices=list(SETTINGS),
        metavar="NAME",
        help=f"settings to measure (default: all of {list(SETTINGS)})",
    )
    ap.add_argument("--out", type=Path, default=RESULTS, help="folder for the JSON and table")
    ap.add_argument(
        "--no-pages", action="store_true", help="do not rewrite the rules pages' tables"
    )
    args = ap.parse_args(argv)
    if args.n < 1:
        ap.error(f"--n must be at least 1, got {args.n}")
    if args.seed < 0:
        ap.error(f"--seed must be at least 0, got {args.seed}")
    report = run(args.settings, args.n, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "match_ends.json"
    if path.is_file():  # the settings not measured now keep their last results
        old = json.loads(path.read_text()).get("settings", {})
        report["settings"] = {
            name: report["settings"].get(name, old.get(name))
            for name in SETTINGS
            if name in report["settings"] or name in old
        }
    path.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {path}")
    if args.no_pages:
        print(markdown(report) + "\n\n" + skill_markdown(report))
    else:
        for page in write_pages(report):
            print(f"wrote the table in {page}")
    return report


if __name__ == "__main__":
    main()
