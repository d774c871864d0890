"""The strength ladder: per training setting, a round robin between random play, the heuristic,
ISMCTS at two budgets and the zoo's pretrained model, rated by Bradley–Terry with bootstrap
intervals.

    python -m benchmarks.ladder                                  # every setting, default agents
    python -m benchmarks.ladder --settings piquet-v0 banque-v0_2p --n 200 --n-search 20
    python -m benchmarks.ladder --settings esel-v0 --agents random heuristic ismcts@100 \\
        model:runs/table/esel-v0/model.npz                         # a model in place of the zoo's

Settings are ``train.table.SETTINGS`` (name -> game id and config override, e.g.
``banque-v0_2p`` is ``banque-v0`` with ``{"num_players": 2}``). Agents: ``random``,
``heuristic``, ``ismcts@<iterations>`` (heuristic roll-outs; plain ``ismcts`` means every budget
of ``--ismcts``), ``zoo`` (``cardenvs.zoo.load(game, **config)``, the setting's config without
``episode`` and ``reward``), ``zoo+ismcts@<iterations>`` (ISMCTS rolling out with the zoo's
model: search at play time on top of the pretrained network) and ``model:<path>`` (a
``.npz``, or an SB3 ``.zip`` with ``--trusted``: loading one runs its pickles): the specs of
``cardenvs.arena.make_agent``, whose ``round_robin`` plays the games; the
default is ``random heuristic ismcts@100 ismcts@400 zoo``. A setting the zoo has no model for is
an error unless ``--agents`` leaves ``zoo`` (and ``zoo+ismcts``) out.

Method. A match is one deal (``--episode deal``; ``--episode game`` plays whole games) with the
setting's config and ``reward="win"``. Every pair of agents plays ``--n`` games for every seating
that uses both (``cardenvs.arena.arrangements``: with P seats, every assignment of the
two agents to the seats), or ``--n-search`` games where one of them is an ISMCTS agent (about
0.1-0.5 s a decision). A game's outcome for the pair is the one of ``tournament.run``, seat
against seat (a seat with a larger share of the win beats the other, equal shares draw), averaged
over the pair's seat pairs, so each game is worth one point split between the two agents and two
equal agents expect half in every seating. Bradley–Terry strengths are fitted to the pairwise
totals (``cardenvs.arena.bradley_terry``) and given on the Elo scale with ``random`` at 0. The 95%
interval resamples the games of each pair (with replacement, ``--bootstrap`` times), refits, and
takes the 2.5 and 97.5 percentiles; where the fit itself lies outside them (a lopsided bootstrap
distribution, with very few games) the interval is widened to include it, and the raw
percentiles are kept in the JSON. Each pair's head-to-head win rate has a 95% Wilson interval;
decisions/s is each agent's decisions per second of its own time.

Wins, draws and losses count games (``game_results``): an agent wins a game against the other
agent of the pair when it takes more than half of the game's point, draws it when the point is
split evenly (every drawn game, in which all seats' rewards are equal, and also a game in which
the two agents' seats fare equally, e.g. each holds one of two tied winners), and loses it
otherwise; with two players that is won, drawn (equal rewards) or lost. An agent's mean reward
is per game, its seats' mean reward in that game, with a 95% interval by the normal
approximation (``cardenvs.arena.mean_interval``: mean ± 1.96·sd/√n over the games). Both are given
per pair and, over all its pairs, per agent. A draw-heavy setting (two-player Esel) shows them
beside its shares of the points, which sit near 1/2 because of the draws.

Writes, per setting, ``<out>/<setting>.json`` (everything: config, agents, ratings, pairs;
timings only under ``"timings"``, so one ``--seed`` gives the same file apart from them),
``<out>/<setting>.md`` (ratings table with each agent's wins / draws / losses and mean reward,
pair matrix, and per pair the wins / draws / losses and both agents' mean rewards) and
``<out>/<setting>.png`` (ratings with their intervals; matplotlib, skipped with a note when it is
missing), and ``<out>/summary.md``: one line per setting found in ``<out>``, each agent's rating
with its interval. ``--out`` defaults to ``docs/ladder``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

import cardenvs
from cardenvs.arena import (
    DEALS,
    TRUSTED_HELP,
    arrangements,
    bradley_terry,
    check_spec,
    count_outcomes,
    deck_means,
    make_agent,
    mean_interval,
    model_path,
    pair_points,
    parse_search,
    reward_text,
    round_robin,
    sb3_zip,
    untrusted_zip,
    wdl_text,
    wilson,
)
from cardenvs.arena.ladder import FORMAT, FORMAT_VERSION, REFERENCE, rules_of
from cardenvs.arena.specs import DEFAULT_ROLLOUT
from train.table import SETTINGS

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "ladder"
ISMCTS_BUDGETS = (100, 400)
ROLLOUT = DEFAULT_ROLLOUT  # ismcts@<n>'s roll-outs; zoo+ismcts@<n> rolls out with the zoo's model
EPISODES = ("deal", "game")
MODEL_OPTIONS = ("episode", "reward")  # options that do not select a zoo model


def default_agents(budgets) -> list[str]:
    return ["random", "heuristic", *[f"ismcts@{b}" for b in budgets], "zoo"]


def expand_agents(kinds, budgets) -> list[str]:
    """``kinds`` with a plain ``ismcts`` replaced by ``ismcts@<b>`` for every budget; a
    ``ValueError`` naming an unknown kind, a bad budget or a repeated agent."""
    out = []
    for kind in kinds:
        if kind == "ismcts":
            out += [f"ismcts@{b}" for b in budgets]
        else:
            try:
                check_spec(kind, trusted=True)  # syntax only; the .zip check is check_agents'
            except ValueError as e:
                raise ValueError(f"{e} (or ismcts: every --ismcts budget)") from None
            out.append(kind)
    repeated = sorted({k for k in out if out.count(k) > 1})
    if repeated:
        raise ValueError(f"agents listed more than once: {repeated}")
    if "random" not in out:
        raise ValueError("the ladder needs 'random' among the agents: ratings are relative to it")
    if len(out) < 2:
        raise ValueError("the ladder needs at least two agents")
    return out


def game_config(setting: str, episode: str) -> dict:
    """The config the ladder plays ``setting`` with: its override, one ``episode``, wins."""
    return {**SETTINGS[setting][1], "episode": episode, "reward": "win"}


def zoo_config(setting: str) -> dict:
    """The options that select ``setting``'s zoo model (its override less episode and reward)."""
    return {k: v for k, v in SETTINGS[setting][1].items() if k not in MODEL_OPTIONS}


def is_search(kind: str) -> bool:
    return parse_search(kind) is not None


def uses_zoo(kind: str) -> bool:
    """Whether agent ``kind`` plays with the zoo's model (``zoo``, ``zoo+ismcts@<n>``,
    ``ismcts@<n>:zoo``)."""
    return kind == "zoo" or (is_search(kind) and parse_search(kind)[1] == "zoo")


def build(kind: str, setting: str, seed: int, trusted: bool = False):
    """The agent ``kind`` for ``setting``, seeded (``cardenvs.arena.make_agent``; ``trusted``:
    a ``model:`` SB3 ``.zip`` may be loaded, running its pickles)."""
    return make_agent(
        kind, SETTINGS[setting][0], seed=seed, config=zoo_config(setting), trusted=trusted
    )


def check_agents(settings, kinds, trusted: bool = False) -> None:
    """Raise ``ValueError`` before any game is played when an agent cannot play a setting: the
    zoo missing or without the setting's model, a ``ppo:`` model absent or of another game, or
    an SB3 ``.zip`` without ``trusted``."""
    for kind in kinds:
        path = model_path(kind)
        if path and sb3_zip(path) and not trusted:
            raise ValueError(f"--agents {kind}: {untrusted_zip(path)}")
    for setting in settings:
        env_id = SETTINGS[setting][0]
        for kind in kinds:
            if uses_zoo(kind):
                try:
                    import cardenvs.zoo as zoo
                except ImportError as e:
                    raise ValueError(
                        f"the zoo is not available ({e}); leave zoo out of --agents"
                    ) from None
                if not zoo.has(env_id, **zoo_config(setting)):
                    raise ValueError(
                        f"the zoo has no model for {setting} ({env_id} with "
                        f"{zoo_config(setting)}); leave zoo out of --agents, e.g. --agents "
                        "random heuristic ismcts"
                    )
            elif model_path(kind) is not None:
                try:
                    build(kind, setting, 0, trusted)
                except ValueError as e:
                    raise ValueError(f"agent {kind!r} cannot play {setting}: {e}") from None


pair_outcomes = pair_points  # the arena's name


def game_results(points: np.ndarray) -> np.ndarray:
    """Per game, the first agent's result from its points (``pair_outcomes``): 1 won (more than
    half the point), 0 drawn (exactly half), -1 lost. The points are sums of halves over a
    whole number of seat pairs, so an even split is exactly 0.5."""
    return np.sign(np.round(np.asarray(points, float) - 0.5, 9)).astype(np.int64)


def fit(
    outcomes: dict, k: int, anchor: int, boot: int, seed: int, decks: dict | None = None
) -> dict:
    """Ratings (Elo, ``anchor`` at 0) from per-game outcomes ``{(i, j): points of i per game}``,
    with bootstrap percentiles over the games of each pair, or, given each game's deck
    (``decks``, duplicate deals), over the decks of each pair (a deck's games resampled
    together: they are paired)."""
    wins = np.zeros((k, k))
    for (i, j), s in outcomes.items():
        wins[i, j], wins[j, i] = s.sum(), (1.0 - s).sum()
    rating = bradley_terry(wins)
    rating = rating - rating[anchor]
    rng = np.random.default_rng(seed)
    stack = np.zeros((boot, k, k))
    for (i, j), s in outcomes.items():
        if decks is None:
            drawn = s[rng.integers(0, len(s), size=(boot, len(s)))].sum(axis=1)
            games = np.full(boot, float(len(s)))
        else:
            _, inverse = np.unique(decks[(i, j)], return_inverse=True)
            points, count = np.bincount(inverse, weights=s), np.bincount(inverse).astype(float)
            pick = rng.integers(0, len(points), size=(boot, len(points)))
            drawn, games = points[pick].sum(axis=1), count[pick].sum(axis=1)
        stack[:, i, j], stack[:, j, i] = drawn, games - drawn
    boots = bradley_terry(stack)
    boots = boots - boots[:, anchor : anchor + 1]
    lo, hi = np.percentile(boots, [2.5, 97.5], axis=0)
    return {"wins": wins, "rating": rating, "lo": lo, "hi": hi}


def run_setting(
    setting: str,
    kinds: list[str],
    n: int,
    n_search: int,
    seed: int,
    episode: str = "deal",
    boot: int = 1000,
    quiet: bool = False,
    trusted: bool = False,
    deals: str = "duplicate",
    jobs: int = 1,
) -> dict:
    """The round robin of ``kinds`` on ``setting`` (``cardenvs.arena.round_robin``, on
    ``deals``, ``jobs`` worker processes for the search seatings); returns the JSON-able report
    (``trusted``: ``build``'s)."""
    env_id, override = SETTINGS[setting]
    config = game_config(setting, episode)
    k = len(kinds)
    width = 60 + len(setting) + max(len(a) + len(b) for a in kinds for b in kinds)
    t0 = time.perf_counter()

    def line(step, steps, pair, seating):
        if not quiet:
            seatings = len(arrangements(P))
            text = (
                f"{setting}: pair {step // seatings + 1}/{steps // seatings} ({pair[0]} v "
                f"{pair[1]}), seating {step % seatings + 1}/{seatings} {seating}, "
                f"{time.perf_counter() - t0:.0f} s elapsed"
            )
            print(f"\r{text:<{width}}", end="", file=sys.stderr, flush=True)

    P = cardenvs.make_vector(env_id, 1, seed=0, **config).num_seats
    arr = arrangements(P)
    field = round_robin(
        env_id,
        {kind: kind for kind in kinds},
        n,
        seed,
        config,
        n_search=n_search,
        deals=deals,
        trusted=trusted,
        progress=line,
        jobs=jobs,
    )
    if not quiet:
        print(file=sys.stderr)
    pairs = list(field["pairs"])
    outcomes = {ij: d["points"] for ij, d in field["pairs"].items()}
    returns = {ij: d["returns"] for ij, d in field["pairs"].items()}
    per_seating = {ij: d["seatings"] for ij, d in field["pairs"].items()}
    paired = deals == "duplicate"
    decks = {ij: d["deck"] for ij, d in field["pairs"].items()}

    def interval(samples, deck):
        """A mean over games with its interval: over decks with duplicate deals."""
        if not paired:
            return mean_interval(samples)
        _, lo, hi = mean_interval(deck_means(samples, deck))
        return float(np.mean(samples)), lo, hi

    decisions = field["decisions"]
    dps = {kind: field["agents"][kind]["decisions_per_s"] for kind in kinds}
    anchor = kinds.index("random")
    f = fit(outcomes, k, anchor, boot, seed, decks if paired else None)
    # every agent's games over all its pairs: its results and its per-game mean rewards
    results: list[list[np.ndarray]] = [[] for _ in kinds]
    rewards: list[list[np.ndarray]] = [[] for _ in kinds]
    deck_of: list[list[np.ndarray]] = [[] for _ in kinds]
    for (i, j), o in outcomes.items():
        results[i].append(game_results(o))
        results[j].append(-game_results(o))
        rewards[i].append(returns[(i, j)][0])
        rewards[j].append(returns[(i, j)][1])
        deck_of[i].append(decks[(i, j)])
        deck_of[j].append(decks[(i, j)])
    ratings = {}
    for a, kind in enumerate(kinds):
        r, lo, hi = float(f["rating"][a]), float(f["lo"][a]), float(f["hi"][a])
        mean, r_lo, r_hi = interval(np.concatenate(rewards[a]), np.concatenate(deck_of[a]))
        ratings[kind] = {
            "rating": r,
            "ci95": [min(lo, r), max(hi, r)],
            "bootstrap_percentiles": [lo, hi],
            "decisions": int(decisions[a]),
            "games": int(sum(len(x) for x in results[a])),
            **count_outcomes(np.concatenate(results[a])),
            "mean_return": mean,
            "return_ci95": [r_lo, r_hi],
        }
    pair_rows = []
    for i, j in pairs:
        m = len(outcomes[(i, j)])
        w = float(f["wins"][i, j])
        lo, hi = wilson(w, m)
        counts = count_outcomes(game_results(outcomes[(i, j)]))
        mean_a, a_lo, a_hi = interval(returns[(i, j)][0], decks[(i, j)])
        mean_b, b_lo, b_hi = interval(returns[(i, j)][1], decks[(i, j)])
        pair_rows.append(
            {
                "a": kinds[i],
                "b": kinds[j],
                "games": m,
                "wins_a": w,
                "wins_b": float(f["wins"][j, i]),
                "win_rate_a": w / m,
                "ci95": [lo, hi],
                "games_won_a": counts["wins"],
                "games_drawn": counts["draws"],
                "games_won_b": counts["losses"],
                "mean_return_a": mean_a,
                "return_ci95_a": [a_lo, a_hi],
                "mean_return_b": mean_b,
                "return_ci95_b": [b_lo, b_hi],
                "seatings": [dict(row, a=float(row["a"])) for row in per_seating[(i, j)]],
            }
        )
    return {
        "setting": setting,
        "env_id": env_id,
        "override": override,
        "config": config,
        "num_seats": P,
        "agents": list(kinds),
        "ismcts_rollout": ROLLOUT,
        "zoo_config": zoo_config(setting) if "zoo" in kinds else None,
        "n": n,
        "n_search": n_search,
        "deals": deals,
        "seatings": len(arr),
        "seed": seed,
        "jobs": jobs,  # worker processes of the search seatings (their random draws)
        "bootstrap": boot,
        "ratings": ratings,
        "pairs": pair_rows,
        "wins": f["wins"].tolist(),
        "timings": {
            "seconds": round(time.perf_counter() - t0, 3),
            "decisions_per_s": {
                kind: None if dps[kind] is None else float(dps[kind]) for kind in kinds
            },
        },
    }


def _elo(x: float) -> int:
    return round(x)  # an int: no "-0"


def _interval(row: dict) -> str:
    lo, hi = row["ci95"]
    return f"{_elo(row['rating'])} [{_elo(lo)}, {_elo(hi)}]"


def markdown(report: dict) -> str:
    """The setting's ratings table (with each agent's wins / draws / losses and mean reward), its
    head-to-head matrix and its table of pairs; a report stored before wins, draws and losses
    were counted shows "n/a" for them."""
    kinds = report["agents"]
    dps = report["timings"]["decisions_per_s"]
    lines = [
        f"# Ladder: {report['setting']}",
        "",
        f"`{report['env_id']}` with `{json.dumps(report['config'])}`, {report['num_seats']} "
        f"seats, {report['seatings']} seatings; {report['n']} games per seating "
        f"({report['n_search']} with an ISMCTS agent, roll-outs: {report['ismcts_rollout']}); "
        f"seed {report['seed']}, {report['bootstrap']} bootstrap resamples.",
        "",
        "| agent | rating (Elo, random = 0) | 95% interval | W / D / L (games) "
        "| mean reward (95% CI) | decisions/s |",
        "|---|---:|---|---:|---|---:|",
    ]
    for kind in sorted(kinds, key=lambda x: -report["ratings"][x]["rating"]):
        row = report["ratings"][kind]
        speed = "" if dps[kind] is None else f"{dps[kind]:,.0f}"
        reward = reward_text(row.get("mean_return"), *row.get("return_ci95", (None, None)))
        lines.append(
            f"| {kind} | {_elo(row['rating'])} | {_elo(row['ci95'][0])} to "
            f"{_elo(row['ci95'][1])} | {wdl_text(row)} | {reward} | {speed} |"
        )
    cell = {}
    for p in report["pairs"]:
        m = p["games"]
        cell[p["a"], p["b"]] = (p["win_rate_a"], *p["ci95"], m)
        lo, hi = p["ci95"]
        cell[p["b"], p["a"]] = (1.0 - p["win_rate_a"], 1.0 - hi, 1.0 - lo, m)
    lines += [
        "",
        "Head to head: the row agent's share of the points against the column agent (95% Wilson "
        "interval; games).",
        "",
        "| | " + " | ".join(kinds) + " |",
        "|---|" + "---|" * len(kinds),
    ]
    for a in kinds:
        cells = []
        for b in kinds:
            if a == b:
                cells.append("")
            else:
                rate, lo, hi, m = cell[a, b]
                cells.append(f"{rate:.2f} ({lo:.2f}–{hi:.2f}; {m})")
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Per pair: games won by the first agent, drawn (the point split evenly), won by the "
        "second, and each agent's mean reward per game (95% interval, normal approximation).",
        "",
        "| a | b | games | a won / drawn / b won | a's mean reward | b's mean reward |",
        "|---|---|---:|---:|---|---|",
    ]
    for p in report["pairs"]:
        wdl = wdl_text(
            {
                "wins": p.get("games_won_a"),
                "draws": p.get("games_drawn"),
                "losses": p.get("games_won_b"),
            }
        )
        ra = reward_text(p.get("mean_return_a"), *p.get("return_ci95_a", (None, None)))
        rb = reward_text(p.get("mean_return_b"), *p.get("return_ci95_b", (None, None)))
        lines.append(f"| {p['a']} | {p['b']} | {p['games']} | {wdl} | {ra} | {rb} |")
    return "\n".join(lines)


def summary(out: Path) -> str:
    """One line per setting with a report in ``out`` (in ``SETTINGS`` order): each agent's
    rating and 95% interval."""
    reports = [
        json.loads((out / f"{name}.json").read_text())
        for name in SETTINGS
        if (out / f"{name}.json").is_file()
    ]
    kinds: list[str] = []
    for rep in reports:
        kinds += [k for k in rep["agents"] if k not in kinds]
    lines = [
        "Strength ladder: Bradley–Terry ratings on the Elo scale (random = 0) with bootstrap 95% "
        "intervals (`python -m benchmarks.ladder`; per setting: `docs/ladder/<setting>.md`). "
        "Deals: duplicate (each deck from every seating, resampled by deck; these are the "
        "reference ladders `cardenvs.arena.rate` rates on) or independent (a ladder of before "
        "2026-12-06, a deck per game).",
        "",
        "| setting | episode | deals | " + " | ".join(kinds) + " |",
        "|---|---|---|" + "---:|" * len(kinds),
    ]
    for rep in reports:
        cells = [_interval(rep["ratings"][k]) if k in rep["ratings"] else "" for k in kinds]
        deals = rep.get("deals", "independent")
        lines.append(
            f"| {rep['setting']} | {rep['config']['episode']} | {deals} | "
            + " | ".join(cells)
            + " |"
        )
    return "\n".join(lines)


def chart(report: dict, path: Path) -> bool:
    """Ratings with their intervals as error bars; False (and a note) without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(
            f"matplotlib is not installed: no picture {path.name} (pip install matplotlib)",
            file=sys.stderr,
        )
        return False
    kinds = sorted(report["agents"], key=lambda x: report["ratings"][x]["rating"])
    r = np.array([report["ratings"][x]["rating"] for x in kinds])
    lo = np.array([report["ratings"][x]["ci95"][0] for x in kinds])
    hi = np.array([report["ratings"][x]["ci95"][1] for x in kinds])
    fig, ax = plt.subplots(figsize=(6.0, 1.2 + 0.45 * len(kinds)))
    y = np.arange(len(kinds))
    ax.errorbar(r, y, xerr=[r - lo, hi - r], fmt="o", capsize=4)
    ax.axvline(0.0, color="grey", linestyle="dashed", linewidth=1)
    ax.set_yticks(y, kinds)
    ax.set_xlabel("rating (Elo, random = 0), 95% bootstrap interval")
    ax.set_title(f"{report['setting']} ({report['config']['episode']})")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def reference_of(rep: dict) -> dict:
    """The shipped reference ladder made of a ladder report (``cardenvs.arena.rate``'s format):
    the agents' specs and ratings, the deals, the rules every option of the config."""
    if rep.get("deals") != "duplicate":
        raise ValueError("a reference ladder is built on duplicate deals (--deals duplicate)")
    models = [k for k in rep["agents"] if model_path(k) is not None]
    if models:
        raise ValueError(f"a reference ladder ships no model files: leave out {models}")
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "setting": rep["setting"],
        "env_id": rep["env_id"],
        "config": rep["config"],
        "rules": rules_of(rep["env_id"], rep["config"]),
        "deals": {"seed": rep["seed"], "decks": rep["n"], "decks_search": rep["n_search"]},
        "agents": {
            kind: {"spec": kind, "rating": row["rating"], "ci95": row["ci95"]}
            for kind, row in rep["ratings"].items()
        },
        "built": f"python -m benchmarks.ladder --reference --settings {rep['setting']} --agents "
        f"{' '.join(rep['agents'])} --n {rep['n']} --n-search {rep['n_search']} --episode "
        f"{rep['config']['episode']} --seed {rep['seed']}",
        "cardenvs": cardenvs.__version__,
    }


def write_reference(rep: dict) -> Path:
    """Write ``rep``'s reference ladder into the package (``cardenvs/arena/reference``)."""
    REFERENCE.mkdir(parents=True, exist_ok=True)
    path = REFERENCE / f"{rep['setting']}.json"
    path.write_text(json.dumps(reference_of(rep), indent=2) + "\n", encoding="utf-8")
    return path


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.ladder", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--settings", nargs="+", default=list(SETTINGS), help="train.table settings")
    p.add_argument(
        "--agents",
        nargs="+",
        default=None,
        help="default: " + " ".join(default_agents(ISMCTS_BUDGETS)),
    )
    p.add_argument(
        "--ismcts",
        nargs="+",
        type=int,
        default=list(ISMCTS_BUDGETS),
        help="ISMCTS budgets (iterations a decision) of the default agents and of plain 'ismcts'",
    )
    p.add_argument("--n", type=int, default=100, help="games per seating of a pair")
    p.add_argument(
        "--n-search", type=int, default=10, help="games per seating of a pair with ISMCTS"
    )
    p.add_argument("--episode", choices=EPISODES, default="deal", help="a match: a deal or a game")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples")
    p.add_argument(
        "--deals",
        choices=DEALS,
        default="duplicate",
        help="duplicate (default): each deck from every seating, resampled by deck; independent: "
        "a deck per game",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="worker processes sharing the games of the pairs with search (the same deals; "
        "the search's random draws differ with --jobs)",
    )
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--trusted", action="store_true", help=TRUSTED_HELP)
    p.add_argument(
        "--reference",
        action="store_true",
        help="also write each setting's reference ladder into the package "
        "(cardenvs/arena/reference/<setting>.json, what cardenvs.arena.rate rates on)",
    )
    a = p.parse_args(argv)
    if a.reference and a.deals != "duplicate":
        p.error("--reference: a reference ladder is built on duplicate deals (leave --deals out)")
    if a.reference and a.agents and any(model_path(k) is not None for k in a.agents):
        p.error("--reference: a reference ladder ships no model files; leave model: agents out")
    unknown = [s for s in a.settings if s not in SETTINGS]
    if unknown:
        p.error(f"unknown settings {unknown}; available: {list(SETTINGS)}")
    if any(b < 1 for b in a.ismcts):
        p.error(f"--ismcts budgets must be at least 1, got {a.ismcts}")
    for flag in ("n", "n_search", "bootstrap", "jobs"):
        if getattr(a, flag) < 1:
            p.error(f"--{flag.replace('_', '-')} must be at least 1, got {getattr(a, flag)}")
    try:
        kinds = expand_agents(a.agents or default_agents(a.ismcts), a.ismcts)
        check_agents(a.settings, kinds, a.trusted)
    except ValueError as e:
        p.error(str(e))
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    reports = {}
    for setting in a.settings:
        rep = run_setting(
            setting,
            kinds,
            a.n,
            a.n_search,
            a.seed,
            a.episode,
            a.bootstrap,
            quiet=a.quiet,
            trusted=a.trusted,
            deals=a.deals,
            jobs=a.jobs,
        )
        (out / f"{setting}.json").write_text(json.dumps(rep, indent=2) + "\n")
        table = markdown(rep)
        (out / f"{setting}.md").write_text(table + "\n")
        chart(rep, out / f"{setting}.png")
        if a.reference:
            path = write_reference(rep)
            print(f"reference ladder of {setting}: {path}", file=sys.stderr)
        reports[setting] = rep
        if not a.quiet:
            print(table + "\n")
    text = summary(out)
    (out / "summary.md").write_text(text + "\n")
    if not a.quiet:
        print(text)
    return reports


if __name__ == "__main__":
    main()
