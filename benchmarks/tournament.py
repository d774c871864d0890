"""Round-robin tournaments between agents, with win rates, confidence intervals and ratings.

    python -m benchmarks.tournament [--games banque-v0 ...] [--agents random heuristic ismcts]
                                    [--n 200] [--seed 0] [--config '{"num_players": 2}']
                                    [--out benchmarks/results]

For each game and each pair of agents, ``--n`` games are played on the batched engine for every
seating arrangement in which both agents sit (two players: A-B and B-A; P players: every
assignment of the two agents to the P seats that uses both, each equally often). A game's
result for a seat is its reward (``reward="win"``: the winners share +1). Reported per agent:

- **win rate**: the fraction of its seats that won, a shared win or a draw counting as the
  fraction 1/(number of winners), with a 95% Wilson interval; the baseline is 1/P;
- **wins / draws / losses**: its seats counted by their result (``outcomes``): a draw is a game
  in which every seat's reward is equal; otherwise a seat with the best reward won (a win shared
  with other seats counts as won) and every other seat lost. A draw-heavy setting shows here:
  its win rate sits near 1/P because every draw is worth 1/P, not because the agents trade wins;
- **mean reward**: its seats' mean reward per game, with a 95% interval (``mean_interval``:
  normal approximation, mean ± 1.96·sd/√n over its seats, each taken as one sample);
- **mean score**: its seats' mean final total (the game's ``result["totals"]``; for Esel its
  banks, where fewer is better);
- **rating**: a Bradley–Terry fit (Elo scale, ``random`` = 0) of seat-against-seat outcomes
  (in each game every seat of the winning agent beats every seat of the other);
- **decisions/s**: actions chosen per second of the agent's own time (``act_batch``).

Writes ``tournament.json``, ``tournament.md`` and ``tournament.png`` (matplotlib, if installed)
into ``--out``.

An agent ``ppo:<path>`` is a saved model (``agents.policy.PolicyAgent``): a ``.npz`` of
``train/ppo.py``, or an SB3 ``.zip`` of ``train/sb3_ppo.py`` only with ``--trusted`` (loading a
``.zip`` runs the code its pickles hold: trust only files you trained or would let run code).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

import cardenvs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from agents import RandomAgent, heuristic_for  # noqa: E402
from agents.ismcts import ROLLOUTS, ISMCTSAgent  # noqa: E402

RESULTS = Path(__file__).parent / "results"
TRUSTED_HELP = (
    "I trust the SB3 .zip models named here: loading one runs the code inside it (its pickles), "
    "so give --trusted only for files you trained or got from someone you would let run code on "
    "this machine; a .npz model is read without pickles and never needs it"
)
AGENTS = ("random", "heuristic", "ismcts")
ISMCTS_ITERATIONS = 200
SCORE_KEYS = ("totals", "banks")  # a game's final score per seat (Esel: banks, fewer is better)


def sb3_zip(path) -> bool:
    """Whether the model path ``path`` names an SB3 ``.zip``, read as ``PolicyAgent`` reads it
    (a path with no file there stands for the ``.npz``, else the ``.zip``, of that name)."""
    p = Path(path)
    if not p.exists():
        p = next((q for q in (p.with_suffix(".npz"), p.with_suffix(".zip")) if q.exists()), p)
    return p.suffix == ".zip"


def untrusted_zip(path) -> str:
    """Why a command line refuses the SB3 ``.zip`` ``path`` without ``--trusted``."""
    return (
        f"{str(path)!r} is an SB3 .zip model: loading it runs the code its pickles hold; give "
        "--trusted if you trust this file (you trained it, or it comes from someone you would let "
        "run code on this machine), or use a .npz model (read without pickles)"
    )


def make_agent(
    kind: str,
    env_id: str,
    seed: int,
    iterations: int = ISMCTS_ITERATIONS,
    rollout: str = "random",
    time_limit: float | None = None,
    batch: int = 16,
    config: dict | None = None,
    trusted: bool = False,
):
    """An agent by kind name for ``env_id``; ``ppo:<path>`` loads a policy saved by
    ``train/ppo.py`` (``.npz``) or ``train/sb3_ppo.py`` (``.zip``, only with ``trusted``: loading
    one runs its pickles): ``agents.policy.PolicyAgent``; ``zoo`` is the pretrained model of
    ``env_id`` with ``config`` (the options that select it, e.g. ``{"num_players": 2}``):
    ``cardenvs.zoo.load``."""
    if kind.startswith("ppo:"):
        from agents.policy import PolicyAgent

        return PolicyAgent(kind[4:], env_id, seed=seed, name=kind, trusted=trusted)
    if kind == "random":
        return RandomAgent(seed=seed)
    if kind == "heuristic":
        return heuristic_for(env_id, seed=seed)
    if kind == "ismcts":
        return ISMCTSAgent(
            env_id,
            iterations=iterations,
            time_limit=time_limit,
            rollout=rollout,
            batch=batch,
            seed=seed,
        )
    if kind == "zoo":
        import cardenvs.zoo

        return cardenvs.zoo.load(env_id, seed=seed, **(config or {}))
    raise ValueError(f"unknown agent {kind!r}; available: {[*AGENTS, 'zoo']} or ppo:<model path>")


def arrangements(num_seats: int) -> list[tuple[int, ...]]:
    """Every assignment of agents 0/1 to the seats that uses both."""
    return [a for a in itertools.product((0, 1), repeat=num_seats) if 0 < sum(a) < num_seats]


def play_games(env_id: str, seats: tuple[int, ...], agents, n: int, seed: int, config: dict):
    """Play ``n`` games with agent ``seats[p]`` in seat ``p`` (or ``seats[b, p]`` in game ``b``:
    one seating per game); returns (rewards (n, P), totals (n, P) or None, decisions per agent,
    seconds per agent)."""
    venv = cardenvs.make_vector(env_id, n, seed=seed, autoreset=False, validate=False, **config)
    obs, mask, info = venv.reset()
    P = venv.num_seats
    rewards = np.zeros((n, P))
    done = np.zeros(n, bool)
    decisions = [0] * len(agents)
    spent = [0.0] * len(agents)
    seat_agent = np.broadcast_to(np.asarray(seats), (n, P))
    rows_n = np.arange(n)
    actions = np.zeros(n, np.int64)
    while not done.all():
        cur = info["current_player"].astype(np.int64)
        live = ~done
        for k, agent in enumerate(agents):
            rows = np.flatnonzero(live & (seat_agent[rows_n, np.clip(cur, 0, P - 1)] == k))
            if rows.size:
                t0 = time.perf_counter()
                if hasattr(agent, "act_row"):  # a search agent: one row at a time, from state
                    actions[rows] = [agent.act_row(venv, int(b)) for b in rows]
                else:
                    actions[rows] = agent.act_batch(obs[rows], mask[rows])
                spent[k] += time.perf_counter() - t0
                decisions[k] += rows.size
        actions[done] = 0
        obs, mask, r, term, _, info = venv.step(actions)
        new = term & ~done  # a finished row keeps reporting terminated, with zero rewards
        rewards[new] = r[new]
        done |= term
    totals = None
    results = [venv.game.result(venv.state, b, venv.config) for b in range(n)]
    key = next((k for k in SCORE_KEYS if k in results[0]), None)
    if key is not None:
        totals = np.array([res[key] for res in results], float)
    return rewards, totals, decisions, spent


def win_shares(rewards: np.ndarray) -> np.ndarray:
    """Each seat's share of each game's win (``rewards`` (n, P)): split among the seats with the
    best reward (a draw, every reward equal, is shared by everybody)."""
    best = rewards.max(axis=1, keepdims=True)
    win = rewards == best
    return win / win.sum(axis=1, keepdims=True)


WON, DRAWN, LOST = 1, 0, -1


def outcomes(rewards: np.ndarray) -> np.ndarray:
    """Each seat's result in each game (``rewards`` (n, P)): ``WON`` (1), ``DRAWN`` (0) or
    ``LOST`` (-1). A game is drawn when every seat's reward is equal (every seat: ``DRAWN``);
    otherwise the seats with the best reward won it (two or more tied at the best share the win,
    and each counts as won) and the others lost. This is ``win_shares`` read as counts: a drawn
    game is the one in which every seat gets 1/P, a won seat gets a share above 0 in a game that
    is not drawn, a lost seat gets 0; so a win rate is (the won seats' shares + draws / P) /
    seats."""
    rewards = np.asarray(rewards, float)
    if rewards.ndim != 2 or rewards.shape[1] < 1:
        raise ValueError(f"rewards must be (games, seats), got shape {rewards.shape}")
    best = rewards.max(axis=1, keepdims=True)
    drawn = rewards.min(axis=1, keepdims=True) == best
    return np.where(drawn, DRAWN, np.where(rewards == best, WON, LOST))


def count_outcomes(results) -> dict:
    """``{"wins", "draws", "losses"}``: how many of ``results`` (``outcomes`` values) are each."""
    results = np.asarray(results)
    return {
        "wins": int((results == WON).sum()),
        "draws": int((results == DRAWN).sum()),
        "losses": int((results == LOST).sum()),
    }


def mean_interval(samples, z: float = 1.96) -> tuple[float, float | None, float | None]:
    """The mean of ``samples`` (one reward per game or per seat) and its 95% interval by the
    normal approximation: mean ± z·sd/√n, sd the sample standard deviation (n - 1 degrees of
    freedom). Samples that are all equal (every game drawn at 0) give a zero-width interval at
    that value; a single sample gives no interval (``None`` bounds). A ``ValueError`` for no
    samples."""
    x = np.asarray(samples, float).ravel()
    if x.size == 0:
        raise ValueError("mean_interval needs at least one sample, got none")
    mean = float(x.mean())
    if x.size < 2:
        return mean, None, None
    half = z * float(x.std(ddof=1)) / math.sqrt(x.size)
    return mean, mean - half, mean + half


def head_to_head(
    env_id: str,
    agent,
    opponent,
    n: int,
    seed: int,
    config: dict,
    solo: bool = False,
    side: bool = False,
) -> dict:
    """``agent`` against ``opponent``: ``n`` games for every seating arrangement that uses both
    (the opponent fills the other seats), or with ``solo`` for every seat of the agent alone
    against P - 1 opponents, or with ``side`` for every side of the agent playing all its seats
    (partnership Piquet: both partners; the engine's ``sides``); the agent's win rate (a shared
    win counts as a share; with ``side``, the side's share, against 1 / the number of sides)
    with its 95% Wilson interval, mean reward, mean score (its seats' mean final total: the
    game's ``result["totals"]``, Esel's banks, where fewer is better; None where the game reports
    none) and decisions per second. (In the round robin an agent holding k of P seats can score
    at most 1/k per seat; ``solo`` is the one-learner view of training.)

    ``games`` counts the agent's seats played (with ``side``: games, one a side), and so do
    ``wins``, ``draws`` and ``losses`` (``outcomes``: drawn when every seat's reward is equal;
    won when the agent's seat has the best reward, alone or shared; lost otherwise; a side wins
    when one of its seats does), which add up to ``games``. ``mean_return`` is the mean reward
    of those same units (with ``side``: the mean of the side's seats, per game), with its 95%
    normal-approximation interval ``return_ci_low`` to ``return_ci_high`` (``mean_interval``;
    each seat counted as one sample: the agent's seats of one game are not independent when it
    holds several, so that interval is then somewhat narrow)."""
    venv = cardenvs.make_vector(env_id, 1, seed=0, **config)
    P = venv.num_seats
    arr = np.asarray(arrangements(P))
    if side:
        sides = {frozenset(s) for s in venv.sides}
        arr = arr[[frozenset(np.flatnonzero(a)) in sides for a in arr]]
    elif solo:
        arr = arr[arr.sum(axis=1) == 1]
    seats = np.repeat(arr, n, axis=0)  # n games of each arrangement, all in one engine
    r, totals, dec, sp = play_games(env_id, seats, [opponent, agent], len(seats), seed, config)
    mine = seats == 1
    won = (win_shares(r) * mine).sum()
    # with ``side`` a game counts once (its seats' shares summed); otherwise each seat played
    played = len(seats) if side else mine.sum()
    if side:  # per game: the side's mean reward, and won where one of its seats won
        samples = (r * mine).sum(axis=1) / mine.sum(axis=1)
        results = np.where(mine, outcomes(r), LOST).max(axis=1)
    else:
        samples, results = r[mine], outcomes(r)[mine]
    mean, r_lo, r_hi = mean_interval(samples)
    decisions, spent = dec[1], sp[1]
    lo, hi = wilson(won, played)
    return {
        "opponent": getattr(opponent, "name", type(opponent).__name__),
        "games": int(played),
        "win_rate": won / played,
        "ci_low": lo,
        "ci_high": hi,
        "baseline": 1.0 / (len(venv.sides) if side else P),
        **count_outcomes(results),
        "mean_return": mean,
        "return_ci_low": r_lo,
        "return_ci_high": r_hi,
        "mean_score": None if totals is None else float((totals * mine).sum() / mine.sum()),
        "decisions_per_s": decisions / spent if spent else None,
    }


def wilson(wins: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    # the interval contains p (rounding at p = 0 or 1 must not put it outside)
    return max(0.0, min(p, c - h)), min(1.0, max(p, c + h))


def bradley_terry(wins: np.ndarray, iters: int = 2000, tol: float = 1e-10) -> np.ndarray:
    """Strengths from a pairwise win matrix ``wins[i, j]`` (i beat j; fractions allowed), or from
    a stack of them ``(B, k, k)`` fitted all at once (a bootstrap), by Hunter's MM algorithm
    (every strength updated together, until no log-strength moves by more than ``tol``);
    returned on the Elo scale with agent 0 at 0, ``(k,)`` or ``(B, k)``. An agent without a win
    gets a strength of 1e-9 wins' worth (its MLE is -infinity); one without games keeps 1."""
    w = np.asarray(wins, float)
    single = w.ndim == 2
    if single:
        w = w[None]
    k = w.shape[1]
    games = w + w.swapaxes(1, 2)
    games[:, np.arange(k), np.arange(k)] = 0.0
    num = np.maximum(w.sum(axis=2) - w[:, np.arange(k), np.arange(k)], 1e-9)
    log_p = np.zeros(w.shape[:2])
    for _ in range(iters):
        p = np.exp(log_p)
        den = (games / (p[:, :, None] + p[:, None, :])).sum(axis=2)
        new = np.where(den > 0, np.log(num) - np.log(np.where(den > 0, den, 1.0)), log_p)
        new -= new.mean(axis=1, keepdims=True)
        moved = np.abs(new - log_p).max() if new.size else 0.0
        log_p = new
        if moved < tol:
            break
    ratings = 400.0 / np.log(10.0) * (log_p - log_p[:, :1])
    return ratings[0] if single else ratings


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
) -> dict:
    """The whole tournament; returns the JSON-able report. ``trusted``: the ``ppo:<path>`` agents
    may be SB3 ``.zip`` files (``make_agent``)."""
    report = {"agents": list(agent_kinds), "n": n, "seed": seed, "config": config, "games": {}}
    if "ismcts" in agent_kinds:
        report["ismcts_iterations"] = iterations
        report["ismcts_rollout"] = rollout
        report["ismcts_time_limit"] = time_limit
        report["ismcts_batch"] = batch
    for env_id in games:
        P = cardenvs.make_vector(env_id, 1, seed=0, **config).num_seats
        k = len(agent_kinds)
        won = np.zeros(k)
        seats_played = np.zeros(k)
        score_sum = np.zeros(k)
        pair_wins = np.zeros((k, k))
        rewards: list[list[np.ndarray]] = [[] for _ in range(k)]  # per agent: its seats' rewards
        results: list[list[np.ndarray]] = [[] for _ in range(k)]  # and their outcomes
        decisions = np.zeros(k)
        spent = np.zeros(k)
        pairs = list(itertools.combinations(range(k), 2))
        arr = arrangements(P)
        todo = len(pairs) * len(arr)
        step = 0
        for (i, j), seats in itertools.product(pairs, arr):
            ids = (i, j)
            agents = [
                make_agent(
                    agent_kinds[x],
                    env_id,
                    seed + 7919 * x + step,
                    iterations,
                    rollout,
                    time_limit,
                    batch,
                    trusted=trusted,
                )
                for x in ids
            ]
            r, totals, dec, sp = play_games(env_id, seats, agents, n, seed + 1000 * step, config)
            step += 1
            if not quiet:
                bar = "#" * (20 * step // todo)
                print(f"\r{env_id:14s} [{bar:20s}] {step}/{todo} seatings", end="", file=sys.stderr)
            for x in range(2):
                decisions[ids[x]] += dec[x]
                spent[ids[x]] += sp[x]
            share = win_shares(r)
            result = outcomes(r)
            for p in range(P):
                a = ids[seats[p]]
                won[a] += share[:, p].sum()
                seats_played[a] += n
                rewards[a].append(r[:, p])
                results[a].append(result[:, p])
                if totals is not None:
                    score_sum[a] += totals[:, p].sum()
            for p, q in itertools.permutations(range(P), 2):
                if seats[p] != seats[q]:
                    a, b = ids[seats[p]], ids[seats[q]]
                    pair_wins[a, b] += (share[:, p] > share[:, q]).sum() + 0.5 * (
                        share[:, p] == share[:, q]
                    ).sum()
        if not quiet:
            print(file=sys.stderr)
        ratings = bradley_terry(pair_wins)
        rows = {}
        for a, kind in enumerate(agent_kinds):
            lo, hi = wilson(won[a], seats_played[a])
            mean, r_lo, r_hi = mean_interval(np.concatenate(rewards[a]))
            rows[kind] = {
                "win_rate": won[a] / seats_played[a],
                "ci95": [lo, hi],
                **count_outcomes(np.concatenate(results[a])),
                "mean_return": mean,
                "return_ci95": [r_lo, r_hi],
                "mean_score": score_sum[a] / seats_played[a] if seats_played[a] else None,
                "rating": float(ratings[a]),
                "decisions_per_s": decisions[a] / spent[a] if spent[a] else None,
                "seats_played": int(seats_played[a]),
            }
        report["games"][env_id] = {"num_seats": P, "baseline": 1.0 / P, "agents": rows}
    return report


def wdl_text(row: dict) -> str:
    """``"W / D / L"`` counts of a row with ``wins``, ``draws`` and ``losses``; ``"n/a"`` for a
    row stored before they were counted."""
    if any(row.get(k) is None for k in ("wins", "draws", "losses")):
        return "n/a"
    return f"{int(row['wins'])} / {int(row['draws'])} / {int(row['losses'])}"


def reward_text(mean, lo, hi) -> str:
    """A mean reward with its 95% interval (symmetric: the normal approximation),
    ``"+0.120 ± 0.070"``; ``"n/a"`` without a mean (a row stored before it was kept), the mean
    alone without an interval (a single game)."""
    if mean is None:
        return "n/a"
    if lo is None or hi is None:
        return f"{float(mean):+.3f}"
    return f"{float(mean):+.3f} ± {(float(hi) - float(lo)) / 2:.3f}"


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
    p.add_argument("--agents", nargs="*", default=["random", "heuristic"])
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
    a = p.parse_args(argv)
    if len(a.agents) < 2:
        p.error("a tournament needs at least two agents")
    for kind in a.agents:
        if kind not in AGENTS and not kind.startswith("ppo:"):
            p.error(f"unknown agent {kind!r}; available: {list(AGENTS)} or ppo:<model path>")
        if kind.startswith("ppo:") and sb3_zip(kind[4:]) and not a.trusted:
            p.error(f"--agents {kind}: {untrusted_zip(kind[4:])}")
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
