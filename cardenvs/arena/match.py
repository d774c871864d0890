"""Agents against agents on the batched engine: every seating, whole games or single deals.

``play_games`` is the loop (each row of one batched engine seats its own agents);
``head_to_head`` plays an agent against an opponent over every seating that uses both;
``round_robin`` plays every pair of a field of agents and rates them (Bradley-Terry). Whole
games or single deals are the game's ``episode`` option in ``config`` (``"game"`` or
``"deal"``).

Deals (``deals=``): ``"duplicate"`` (the default) plays each deck once from every seating of the
agents (game ``d`` of every seating is dealt from seed ``seed + d``: a game's deals depend only on
its seed, never on the actions, ``core.rng``), so each agent meets the same cards from every
seat and the luck of the deal cancels out of the comparison; the mean reward's interval is then
computed over decks (each deck one sample: the mean over its games). ``"independent"`` deals
every game its own deck (game ``b`` of the engine from seed ``seed + b``) and counts each seat
as one sample.
"""

from __future__ import annotations

import itertools
import time

import numpy as np

from .. import make_vector
from .specs import as_agent, make_agent
from .stats import (
    LOST,
    bradley_terry,
    count_outcomes,
    mean_interval,
    outcomes,
    wilson,
    win_shares,
)

#: the deals an evaluation can be played on (``deals=``; the module docstring)
DEALS = ("duplicate", "independent")
SCORE_KEYS = ("totals", "banks")  # a game's final score per seat (Esel: banks, fewer is better)


def check_deals(deals: str) -> str:
    if deals not in DEALS:
        raise ValueError(f"deals must be one of {', '.join(DEALS)}, got {deals!r}")
    return deals


def arrangements(num_seats: int) -> list[tuple[int, ...]]:
    """Every assignment of agents 0/1 to the seats that uses both."""
    return [a for a in itertools.product((0, 1), repeat=num_seats) if 0 < sum(a) < num_seats]


def deck_means(samples, decks) -> np.ndarray:
    """The mean of ``samples`` per deck (``decks[i]`` the deck of sample ``i``), in deck order."""
    decks = np.asarray(decks)
    ids, inverse = np.unique(decks, return_inverse=True)
    sums = np.bincount(inverse, weights=np.asarray(samples, float), minlength=ids.size)
    return sums / np.bincount(inverse, minlength=ids.size)


def play_games(
    env_id: str,
    seats,
    agents,
    n: int,
    seed,
    config: dict | None = None,
    *,
    jobs: int = 1,
    progress=None,
):
    """Play ``n`` games with agent ``seats[p]`` in seat ``p`` (or ``seats[b, p]`` in game ``b``:
    one seating per game), game ``b`` dealt from seed ``seed + b`` (or ``seed[b]`` given one seed
    per game: games of one seed deal the same cards); returns (rewards (n, P),
    totals (n, P) or None, decisions per agent, seconds per agent). An agent with ``act_row``
    (search) acts from the engine's state one row at a time, the others by ``act_batch``.

    ``jobs > 1`` splits the games over that many worker processes (``play_parallel``): the same
    games on the same deals, for long matches against search on a machine with several cores."""
    jobs = check_jobs(jobs)
    if jobs > 1:
        return play_parallel(env_id, seats, agents, n, seed, config, jobs, progress)
    config = dict(config or {})
    agents = [as_agent(a) for a in agents]
    venv = make_vector(env_id, n, seed=seed, autoreset=False, validate=False, **config)
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


def check_jobs(jobs) -> int:
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or jobs < 1:
        raise ValueError(f"jobs must be a whole number of worker processes >= 1, got {jobs!r}")
    return int(jobs)


def _play_part(part):
    env_id, seats, agents, seeds, config = part
    return play_games(env_id, seats, agents, len(seeds), seeds, config)


def play_parallel(env_id, seats, agents, n, seed, config, jobs, progress=None):
    """``play_games`` over ``jobs`` worker processes (started with ``spawn``: a script that
    calls it needs the ``if __name__ == "__main__":`` guard). The ``n`` games are cut into at
    most ``4 * jobs`` parts, game ``b`` into part ``b % parts``, each part played with the
    agents as pickled from this process; the results come back in game order, so the games,
    their seats and their deals are those of one process. Agents that act deterministically
    (``zoo``, ``model:``) play the very same games; an agent that draws random numbers (search,
    ``sample:``, the heuristics' random tie-breaks) starts every part from its generator's state
    here, so its games differ from one process's (the same in distribution, and the same again
    for the same ``jobs``). ``progress(games_done, n)`` is called as parts finish."""
    import concurrent.futures as cf
    import multiprocessing
    import pickle

    config = dict(config or {})
    agents = [as_agent(a) for a in agents]
    for k, a in enumerate(agents):
        try:
            pickle.dumps(a)
        except Exception as e:  # an agent holding a lock, a file, a lambda, ...
            raise ValueError(
                f"jobs > 1 sends the agents to worker processes, and agent {k} "
                f"({_name(a)}) cannot be pickled: {type(e).__name__}: {e}; use jobs=1"
            ) from None
    seat_of = np.asarray(seats)
    P = seat_of.shape[-1]
    seat_of = np.broadcast_to(seat_of, (n, P))
    seeds = np.asarray(seed, np.int64)
    seeds = seeds + np.arange(n) if seeds.ndim == 0 else np.broadcast_to(seeds, (n,))
    parts = min(n, 4 * jobs)
    index = [np.arange(k, n, parts) for k in range(parts)]
    rewards = np.zeros((n, P))
    totals = None
    decisions, spent = [0] * len(agents), [0.0] * len(agents)
    done = 0
    spawn = multiprocessing.get_context("spawn")  # fresh interpreters: only what is pickled
    with cf.ProcessPoolExecutor(max_workers=min(jobs, parts), mp_context=spawn) as pool:
        futures = {}
        for ix in index:
            part = (env_id, seat_of[ix].copy(), agents, [int(x) for x in seeds[ix]], config)
            futures[pool.submit(_play_part, part)] = ix
        for fut in cf.as_completed(futures):
            ix = futures[fut]
            r, t, dec, sp = fut.result()
            rewards[ix] = r
            if t is not None:
                if totals is None:
                    totals = np.zeros((n, t.shape[1]))
                totals[ix] = t
            decisions = [a + b for a, b in zip(decisions, dec, strict=True)]
            spent = [a + b for a, b in zip(spent, sp, strict=True)]
            done += ix.size
            if progress is not None:
                progress(done, n)
    return rewards, totals, decisions, spent


def _name(agent) -> str:
    return agent if isinstance(agent, str) else getattr(agent, "name", type(agent).__name__)


def head_to_head(
    env_id: str,
    agent,
    opponent,
    n: int = 200,
    seed: int = 0,
    config: dict | None = None,
    solo: bool = False,
    side: bool = False,
    *,
    deals: str = "duplicate",
    trusted: bool = False,
    jobs: int = 1,
    progress=None,
) -> dict:
    """``agent`` against ``opponent`` (agents or specs, ``make_agent``): ``n`` games for every
    seating arrangement that uses both (the opponent fills the other seats), or with ``solo`` for
    every seat of the agent alone against P - 1 opponents, or with ``side`` for every side of the
    agent playing all its seats (partnership Piquet: both partners; the engine's ``sides``); the
    agent's win rate (a shared win counts as a share; with ``side``, the side's share, against 1
    / the number of sides) with its 95% Wilson interval, mean reward, mean score (its seats' mean
    final total: the game's ``result["totals"]``, Esel's banks, where fewer is better; None where
    the game reports none) and decisions per second. (In the round robin an agent holding k of P
    seats can score at most 1/k per seat; ``solo`` is the one-learner view of training.)

    ``games`` counts the agent's seats played (with ``side``: games, one a side), and so do
    ``wins``, ``draws`` and ``losses`` (``outcomes``: drawn when every seat's reward is equal;
    won when the agent's seat has the best reward, alone or shared; lost otherwise; a side wins
    when one of its seats does), which add up to ``games``. ``mean_return`` is the mean reward
    of those same units (with ``side``: the mean of the side's seats, per game), with its 95%
    normal-approximation interval ``return_ci_low`` to ``return_ci_high`` (``mean_interval``;
    each seat counted as one sample: the agent's seats of one game are not independent when it
    holds several, so that interval is then somewhat narrow). With ``deals="duplicate"`` (the
    default) the ``n`` decks are played from every seating and the interval is over decks (each
    deck's mean over its units), ``decks`` is ``n``; the counts and the mean are as above.

    ``jobs`` worker processes share the games (``play_parallel``; ``progress(games_done,
    games)`` as they finish): a match against search at 400 iterations takes minutes a deck."""
    check_deals(deals)
    check_jobs(jobs)
    config = dict(config or {})
    agent, opponent = (
        make_agent(a, env_id, seed=seed + k, config=config, trusted=trusted)
        if isinstance(a, str)
        else as_agent(a)
        for k, a in ((0, agent), (1, opponent))
    )
    venv = make_vector(env_id, 1, seed=0, **config)
    P = venv.num_seats
    arr = np.asarray(arrangements(P))
    if side:
        sides = {frozenset(s) for s in venv.sides}
        arr = arr[[frozenset(np.flatnonzero(a)) in sides for a in arr]]
    elif solo:
        arr = arr[arr.sum(axis=1) == 1]
    seats = np.repeat(arr, n, axis=0)  # n games of each arrangement, all in one engine
    deck = np.tile(np.arange(n), len(arr))  # duplicate: game d of every arrangement, one deck
    seeds = [seed + int(d) for d in deck] if deals == "duplicate" else seed
    r, totals, dec, sp = play_games(
        env_id, seats, [opponent, agent], len(seats), seeds, config, jobs=jobs, progress=progress
    )
    mine = seats == 1
    won = (win_shares(r) * mine).sum()
    # with ``side`` a game counts once (its seats' shares summed); otherwise each seat played
    played = len(seats) if side else mine.sum()
    if side:  # per game: the side's mean reward, and won where one of its seats won
        samples = (r * mine).sum(axis=1) / mine.sum(axis=1)
        results = np.where(mine, outcomes(r), LOST).max(axis=1)
    else:
        samples, results = r[mine], outcomes(r)[mine]
    if deals == "duplicate":  # one sample per deck: the mean of its units, every seating
        decks = deck if side else np.broadcast_to(deck[:, None], mine.shape)[mine]
        _, r_lo, r_hi = mean_interval(deck_means(samples, decks))
        mean = float(np.mean(samples))
    else:
        mean, r_lo, r_hi = mean_interval(samples)
    decisions, spent = dec[1], sp[1]
    lo, hi = wilson(won, played)
    return {
        "opponent": _name(opponent),
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
        "deals": deals,
        "decks": n if deals == "duplicate" else len(seats),
    }


def pair_points(share: np.ndarray, seats) -> np.ndarray:
    """Per game, the first agent's (seats marked 0) points against the second (marked 1): the
    mean over their seat pairs of 1 for a larger share of the win, 1/2 for an equal one."""
    seats = np.asarray(seats)
    a, b = share[:, seats == 0][:, :, None], share[:, seats == 1][:, None, :]
    return ((a > b) + 0.5 * (a == b)).mean(axis=(1, 2))


def round_robin(
    env_id: str,
    agents,
    n: int = 200,
    seed: int = 0,
    config: dict | None = None,
    *,
    n_search: int | None = None,
    deals: str = "duplicate",
    trusted: bool = False,
    time_limit: float | None = None,
    batch: int = 16,
    progress=None,
    jobs: int = 1,
) -> dict:
    """Every pair of ``agents`` over every seating that uses both, ``n`` games a seating
    (``n_search`` where one of the pair searches: it has ``act_row``), and ratings of the field.

    Args:
        agents: a list of specs (``make_agent``; made again for each seating, seeded ``seed +
            7919 * index + step``, ``step`` counting the seatings played) or agent objects
            (played as given), or a dict name -> spec or agent.
        config: the game's options (``episode``: whole games or single deals; they also choose
            the zoo's model).
        progress: called as ``progress(step, steps, pair, seating)`` before each seating is
            played (``step`` from 0; ``pair`` the two names; ``seating`` like ``"ABA"``).
        jobs: worker processes sharing the games of each seating where an agent searches
            (``play_parallel``); the others are fast in one process.

    Returns a dict: ``num_seats``, ``baseline`` (1/P), ``agents`` (name -> ``win_rate`` with
    ``ci95`` (its seats' shares of the win, Wilson), ``wins`` / ``draws`` / ``losses`` of its
    seats, ``mean_return`` with ``return_ci95``, ``mean_score``, ``rating`` (Bradley-Terry on
    the Elo scale, the first agent at 0, from every pair of seats of two different agents in
    every game), ``decisions_per_s``, ``seats_played``), and ``pairs``: per pair of agent
    indices ``(i, j)``, per game of theirs ``points`` (i's share against j: ``pair_points``),
    ``weight`` (the seat pairs of i against j in that game), ``returns`` (each one's mean reward
    per game), ``deck`` (each game's deck: with duplicate deals, game ``d`` of every
    seating of every pair is dealt from seed ``seed + d``; independent deals give every game its
    own) and ``seatings`` (per seating: its name, games, i's points). With duplicate deals an
    agent's ``return_ci95`` is over decks (each deck's mean over that agent's seats).
    """
    check_deals(deals)
    check_jobs(jobs)
    config = dict(config or {})
    if isinstance(agents, dict):
        names, entries = list(agents), list(agents.values())
    else:
        entries = list(agents)
        names = [_name(a) for a in entries]
    if len(set(names)) != len(names):
        raise ValueError(f"agents need different names, got {names}")
    if len(entries) < 2:
        raise ValueError("a round robin needs at least two agents")
    for e in entries:
        if isinstance(e, str):
            make_agent(e, env_id, config=config, trusted=trusted)  # fails before any game
        else:
            as_agent(e)
    P = make_vector(env_id, 1, seed=0, **config).num_seats
    k = len(entries)
    won, seats_played, score_sum = np.zeros(k), np.zeros(k), np.zeros(k)
    pair_wins = np.zeros((k, k))
    rewards: list[list[np.ndarray]] = [[] for _ in range(k)]  # per agent: its seats' rewards
    deck_of: list[list[np.ndarray]] = [[] for _ in range(k)]  # and each one's deck
    results: list[list[np.ndarray]] = [[] for _ in range(k)]  # and their outcomes
    decisions, spent = np.zeros(k), np.zeros(k)
    pairs = list(itertools.combinations(range(k), 2))
    arr = arrangements(P)
    pair_data: dict[tuple[int, int], dict] = {}
    step = 0
    for i, j in pairs:
        data = pair_data[(i, j)] = {
            "points": [],
            "weight": [],
            "returns": ([], []),
            "deck": [],
            "seatings": [],
        }
        for seats in arr:
            ids = (i, j)
            label = "".join("AB"[x] for x in seats)
            if progress is not None:
                progress(step, len(pairs) * len(arr), (names[i], names[j]), label)
            playing = [
                make_agent(
                    entries[x],
                    env_id,
                    seed=seed + 7919 * x + step,
                    config=config,
                    trusted=trusted,
                    time_limit=time_limit,
                    batch=batch,
                    name=names[x],
                )
                if isinstance(entries[x], str)
                else as_agent(entries[x])
                for x in ids
            ]
            searching = any(hasattr(a, "act_row") for a in playing)
            games = n_search if searching and n_search is not None else n
            if deals == "duplicate":  # game d of every seating and pair: one deck
                deck = np.arange(games)
                seeds = [seed + d for d in range(games)]
            else:
                deck = seed + 1000 * step + np.arange(games)  # the game's own seed
                seeds = seed + 1000 * step
            r, totals, dec, sp = play_games(
                env_id, seats, playing, games, seeds, config, jobs=jobs if searching else 1
            )
            step += 1
            for x in range(2):
                decisions[ids[x]] += dec[x]
                spent[ids[x]] += sp[x]
            share = win_shares(r)
            result = outcomes(r)
            for p in range(P):
                a = ids[seats[p]]
                won[a] += share[:, p].sum()
                seats_played[a] += games
                rewards[a].append(r[:, p])
                deck_of[a].append(deck)
                results[a].append(result[:, p])
                if totals is not None:
                    score_sum[a] += totals[:, p].sum()
            for p, q in itertools.permutations(range(P), 2):
                if seats[p] != seats[q]:
                    a, b = ids[seats[p]], ids[seats[q]]
                    pair_wins[a, b] += (share[:, p] > share[:, q]).sum() + 0.5 * (
                        share[:, p] == share[:, q]
                    ).sum()
            s = np.asarray(seats)
            points = pair_points(share, seats)
            data["points"].append(points)
            data["weight"].append(np.full(games, (s == 0).sum() * (s == 1).sum(), float))
            data["returns"][0].append(r[:, s == 0].mean(axis=1))
            data["returns"][1].append(r[:, s == 1].mean(axis=1))
            data["deck"].append(deck)
            data["seatings"].append({"seats": label, "games": games, "a": float(points.sum())})
    ratings = bradley_terry(pair_wins)
    rows = {}
    for a, name in enumerate(names):
        lo, hi = wilson(won[a], seats_played[a])
        samples = np.concatenate(rewards[a])
        if deals == "duplicate":
            _, r_lo, r_hi = mean_interval(deck_means(samples, np.concatenate(deck_of[a])))
            mean = float(samples.mean())
        else:
            mean, r_lo, r_hi = mean_interval(samples)
        rows[name] = {
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
    for data in pair_data.values():
        data["points"] = np.concatenate(data["points"])
        data["weight"] = np.concatenate(data["weight"])
        data["returns"] = tuple(np.concatenate(x) for x in data["returns"])
        data["deck"] = np.concatenate(data["deck"])
    return {
        "num_seats": P,
        "baseline": 1.0 / P,
        "deals": deals,
        "names": names,
        "agents": rows,
        "decisions": decisions.astype(np.int64),
        "pairs": pair_data,
    }
