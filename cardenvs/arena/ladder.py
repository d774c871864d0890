"""The reference ladder: a user's agent rated on a fixed, shipped scale.

Per training setting (``piquet-v0``, ``banque-v0_2p``, ...: a game id and its options) the
package ships a reference ladder (``reference/<setting>.json``, made by ``python -m
benchmarks.ladder --reference``): the reference agents (random, the heuristic, ISMCTS at two
budgets with heuristic roll-outs, the zoo's model), their Bradley-Terry ratings on the Elo scale
with random at 0, and the deals they were rated on: duplicate deals from a fixed seed
(``seed``, ``decks``; ``decks_search`` for the pairs with a search agent), under the rules the
file names (the id and every option of its config). ``rate`` plays an agent against each
reference agent on those same deals, every seating of every deck, and fits its rating with the
reference ratings held fixed (the maximum-likelihood Bradley-Terry strength against them), with
a 95% interval from a bootstrap over decks (each deck's games resampled together). The reference
ratings' own uncertainty is not added: the scale is fixed, as a ruler is.

A game's point between the agent and a reference agent is the one of the ladder
(``match.pair_points``): 1 for the seat with the larger share of the win, 1/2 each for equal
shares, averaged over the seat pairs of the two, so a game is worth one point split between
them.

A reference built under other rules (another default or a new option since) is refused, naming
what differs: rebuild it. ``budget_s`` bounds the time: the reference agents are played
cheapest first, each on as many of its decks as the time left allows (a search agent takes 0.1
to 1 s a decision); an opponent that cannot get one deck is skipped and listed as skipped.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import numpy as np

from ..registry import lookup
from .match import deck_means, mean_interval, round_robin
from .specs import as_agent, parse_search
from .stats import count_outcomes

#: the shipped reference ladders, one JSON file per setting
REFERENCE = Path(__file__).resolve().parent / "reference"
FORMAT = "cardenvs-reference-ladder"
FORMAT_VERSION = 1
ELO = 400.0 / math.log(10.0)
_clock = time.perf_counter  # the budget's clock (a test replaces it)


def references() -> dict[str, dict]:
    """The shipped reference ladders by setting name."""
    out = {}
    for path in sorted(REFERENCE.glob("*.json")):
        ref = json.loads(path.read_text(encoding="utf-8"))
        out[ref["setting"]] = ref
    return out


def rules_of(env_id: str, config: dict) -> dict:
    """Every option of ``env_id`` under ``config`` (the game's defaults filled in): the rules a
    reference ladder was built under."""
    game, defaults = lookup(env_id)
    rules = game.config_cls.from_kwargs(**(defaults | config)).to_dict()
    return json.loads(json.dumps(rules))  # as a JSON file holds them (tuples as lists)


def reference(setting: str) -> dict:
    """The reference ladder of ``setting``, checked against today's rules; ``ValueError`` naming
    the settings there are, or what changed since it was built."""
    refs = references()
    if setting not in refs:
        raise ValueError(
            f"no reference ladder for {setting!r}; there are: {', '.join(refs) or 'none'}"
        )
    ref = refs[setting]
    if ref.get("format") != FORMAT or ref.get("format_version") != FORMAT_VERSION:
        raise ValueError(f"the reference ladder of {setting} is not of format {FORMAT} v1")
    now = rules_of(ref["env_id"], ref["config"])
    changed = {
        k: (ref["rules"].get(k), now.get(k))
        for k in set(now) | set(ref["rules"])
        if ref["rules"].get(k) != now.get(k)
    }
    if changed:
        raise ValueError(
            f"the reference ladder of {setting} was built under other rules (option: then, now: "
            f"{changed}); rebuild it (python -m benchmarks.ladder --reference)"
        )
    return ref


def fit_rating(points, opponents, iters: int = 100) -> float:
    """The Elo rating that makes the expected points against opponents of ratings ``opponents``
    (one per game) equal to the points scored (``points``, each in [0, 1]): the maximum of the
    Bradley-Terry likelihood with the opponents' ratings fixed. All points won (or lost) has no
    finite maximum: the rating is then +inf (-inf)."""
    p = np.asarray(points, float)
    r_opp = np.asarray(opponents, float)
    total = p.sum()
    if total <= 0:
        return -math.inf
    if total >= p.size:
        return math.inf
    lo, hi = r_opp.min() - 4000.0, r_opp.max() + 4000.0  # expected points rise with the rating
    for _ in range(iters):
        mid = (lo + hi) / 2
        expected = (1.0 / (1.0 + np.exp(-(mid - r_opp) / ELO))).sum()
        lo, hi = (mid, hi) if expected < total else (lo, mid)
    return (lo + hi) / 2


def rate(
    agent,
    setting: str,
    *,
    budget_s: float | None = None,
    opponents=None,
    boot: int = 1000,
    progress=None,
) -> dict:
    """Place ``agent`` (an object with ``act_batch`` or ``act``, or a spec of ``make_agent``) on
    the reference ladder of ``setting`` (see the module docstring).

    Args:
        agent: the agent to rate.
        setting: a setting with a shipped reference ladder (``references()``): a game id
            (``piquet-v0``) or an id with its table (``banque-v0_2p``).
        budget_s: seconds for all the games (None: every deck of every reference agent).
        opponents: the reference agents to play (default: all of them, cheapest first).
        boot: bootstrap resamples of the interval.
        progress: called as ``progress(opponent, decks)`` before each opponent's games.

    Returns a dict: ``rating`` (Elo, random = 0) with ``ci95``, ``games``, ``seconds``, per
    opponent (``against``) its reference rating, decks and games played, the agent's points share,
    games won / drawn / lost and mean reward with its interval (over decks), and ``skipped`` (the
    opponents the budget left out), ``reference`` (the ladder's setting, id, config, deals).
    """
    ref = reference(setting)
    agent = agent if isinstance(agent, str) else as_agent(agent)
    name = agent if isinstance(agent, str) else getattr(agent, "name", type(agent).__name__)
    names = list(ref["agents"]) if opponents is None else list(opponents)
    unknown = [x for x in names if x not in ref["agents"]]
    if unknown:
        raise ValueError(
            f"not reference agents of {setting}: {unknown}; they are {list(ref['agents'])}"
        )
    names.sort(key=lambda x: parse_search(ref["agents"][x]["spec"]) is not None)  # cheap first
    deals = ref["deals"]
    t0 = _clock()
    points, ratings, decks_of, against, skipped = [], [], [], {}, []
    for k, opp in enumerate(names):
        spec = ref["agents"][opp]["spec"]
        search = parse_search(spec) is not None
        decks = int(deals["decks_search"] if search else deals["decks"])
        if budget_s is not None:
            left = budget_s - (_clock() - t0)
            decks = _affordable(agent, spec, ref, decks, left)
            if decks < 1:
                skipped.append(opp)
                continue
        if progress is not None:
            progress(opp, decks)
        field = round_robin(
            ref["env_id"],
            {f"{name} (rated)": agent, opp: spec},
            n=decks,
            seed=int(deals["seed"]),
            config=ref["config"],
            deals="duplicate",
        )
        data = field["pairs"][(0, 1)]
        pts, deck = data["points"], data["deck"]
        r_opp = float(ref["agents"][opp]["rating"])
        points.append(pts)
        ratings.append(np.full(pts.size, r_opp))
        decks_of.append(deck + 10**9 * k)  # a deck of each opponent: its own block
        _, lo, hi = mean_interval(deck_means(data["returns"][0], deck))
        results = np.sign(np.round(pts - 0.5, 9)).astype(int)
        against[opp] = {
            "spec": spec,
            "rating": r_opp,
            "decks": decks,
            "games": int(pts.size),
            "points": float(pts.mean()),
            **count_outcomes(results),
            "mean_return": float(data["returns"][0].mean()),
            "return_ci95": [lo, hi],
        }
    if not points:
        raise ValueError(
            f"budget_s={budget_s} leaves no time for one deck against any reference agent"
        )
    p, r, d = np.concatenate(points), np.concatenate(ratings), np.concatenate(decks_of)
    rating = fit_rating(p, r)
    ids, inverse = np.unique(d, return_inverse=True)
    rng = np.random.default_rng(0)
    members = [np.flatnonzero(inverse == i) for i in range(ids.size)]
    boots = []
    for _ in range(boot):
        pick = np.concatenate([members[i] for i in rng.integers(0, ids.size, ids.size)])
        boots.append(fit_rating(p[pick], r[pick]))
    lo, hi = np.percentile(np.array(boots), [2.5, 97.5])
    return {
        "agent": name,
        "setting": setting,
        "rating": rating,
        "ci95": [float(min(lo, rating)), float(max(hi, rating))],
        "games": int(p.size),
        "seconds": round(_clock() - t0, 2),
        "against": against,
        "skipped": skipped,
        "reference": {
            k: ref[k] for k in ("setting", "env_id", "config", "deals", "built", "cardenvs")
        },
    }


def _affordable(agent, spec, ref, decks: int, seconds: float) -> int:
    """How many of ``decks`` fit in the ``seconds`` left against ``spec``, timed on one deck
    played first (every seating; a probe, not counted); 0 when not even that deck fits."""
    if seconds <= 0:
        return 0
    t0 = _clock()
    round_robin(
        ref["env_id"],
        {"rated": agent, "reference": spec},
        n=1,
        seed=int(ref["deals"]["seed"]),
        config=ref["config"],
        deals="duplicate",
    )
    per_deck = _clock() - t0
    if per_deck > seconds:
        return 0
    return min(decks, int((seconds - per_deck) / per_deck))
