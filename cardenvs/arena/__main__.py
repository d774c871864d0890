"""The arena on the command line.

    python -m cardenvs.arena list                                   # the reference ladders
    python -m cardenvs.arena rate heuristic --setting piquet-v0 --budget 120
    python -m cardenvs.arena rate mypackage.agents:MyAgent --setting esel-v0_2p
    python -m cardenvs.arena match zoo heuristic --game piquet-v0 --n 100
    python -m cardenvs.arena match zoo ismcts@400 --game piquet-v0 --n 200 --jobs 2

An agent is a spec of ``cardenvs.arena.make_agent`` (``random``, ``heuristic``,
``ismcts@<n>[:<rollout>]``, ``zoo``, ``model:<path>``) or ``module:name``: your own agent,
imported from an importable module (``name`` a class, made with no arguments, or an agent
object). ``rate`` places it on the setting's shipped reference ladder (``cardenvs.arena.rate``);
``match`` plays it against another agent on duplicate deals (``cardenvs.arena.head_to_head``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import shlex
import sys
from pathlib import Path

from .. import GAMES
from .ladder import rate, references
from .match import DEALS, head_to_head
from .specs import SPEC_HELP, TRUSTED_HELP, check_spec, make_agent
from .stats import reward_text

AGENT_HELP = f"a spec ({SPEC_HELP}) or module:name (your agent class or object)"


def load_agent(text: str, env_id: str, trusted: bool, config: dict | None = None):
    """The agent ``text`` names on the command line (see the module docstring) for ``env_id``
    played under ``config`` (which chooses the zoo's model, e.g. ``{"num_players": 2}``);
    ``ValueError`` saying what is wrong."""
    m = re.fullmatch(r"([A-Za-z_][\w.]*):([A-Za-z_]\w*)", text)
    if m and m.group(1) not in ("model", "ppo"):  # module:name, not a model spec
        try:
            found = getattr(importlib.import_module(m.group(1)), m.group(2))
        except (ImportError, AttributeError) as e:
            raise ValueError(f"cannot import {text!r}: {type(e).__name__}: {e}") from None
        agent = found() if isinstance(found, type) else found
        return make_agent(agent, env_id)
    check_spec(text, trusted)
    return make_agent(text, env_id, trusted=trusted, config=config)


def _list(_a) -> None:
    refs = references()
    if not refs:
        print("no reference ladders are shipped")
    for setting, ref in refs.items():
        agents = ", ".join(f"{k} {v['rating']:.0f}" for k, v in ref["agents"].items())
        d = ref["deals"]
        print(
            f"{setting}: {ref['env_id']} {json.dumps(ref['config'])}; {d['decks']} decks "
            f"({d['decks_search']} against search), seed {d['seed']}; {agents}"
        )


def _rate(a) -> dict:
    refs = references()
    if a.setting not in refs:
        raise ValueError(
            f"--setting: no reference ladder for {a.setting!r}; there are {list(refs)}"
        )
    ref = refs[a.setting]
    agent = load_agent(a.agent, ref["env_id"], a.trusted, ref["config"])

    def said(opponent, decks):
        print(f"against {opponent}: {decks} decks...", file=sys.stderr, flush=True)

    out = rate(agent, a.setting, budget_s=a.budget, progress=said)
    lo, hi = out["ci95"]
    print(
        f"{out['agent']} on {a.setting}: rating {out['rating']:.0f} (95% interval {lo:.0f} to "
        f"{hi:.0f}; random = 0) over {out['games']} games in {out['seconds']:.0f} s"
    )
    for opp, row in out["against"].items():
        reward = reward_text(row["mean_return"], *row["return_ci95"])
        print(
            f"  vs {opp:12s} (rating {row['rating']:5.0f}): points {row['points']:.3f}, W/D/L "
            f"{row['wins']}/{row['draws']}/{row['losses']} of {row['games']}, mean reward {reward}"
        )
    if out["skipped"]:
        print(f"  skipped for the budget: {', '.join(out['skipped'])}")
    return out


def _match(a) -> dict:
    config = json.loads(a.config) if a.config else {}
    if not isinstance(config, dict):
        raise ValueError(f"--config must be a JSON object, got {a.config!r}")
    agent = load_agent(a.agent, a.game, a.trusted, config)
    opponent = load_agent(a.opponent, a.game, a.trusted, config)

    def said(done, games):
        print(f"{done} of {games} games played", file=sys.stderr, flush=True)

    row = head_to_head(
        a.game,
        agent,
        opponent,
        n=a.n,
        seed=a.seed,
        config=config,
        deals=a.deals,
        jobs=a.jobs,
        progress=said,
    )
    reward = reward_text(row["mean_return"], row["return_ci_low"], row["return_ci_high"])
    print(
        f"{a.agent} vs {a.opponent} on {a.game}: W/D/L {row['wins']}/{row['draws']}/"
        f"{row['losses']} of {row['games']} seats, mean reward {reward}, win rate "
        f"{row['win_rate']:.3f} ({row['ci_low']:.3f}-{row['ci_high']:.3f}; equal strength "
        f"{row['baseline']:.2f}); {a.deals} deals, {row['decks']} decks"
    )
    # what was played, for the JSON file: it can be traced and played again
    return row | {
        "agent": a.agent,
        "game": a.game,
        "config": config,
        "seed": a.seed,
        "command": a.invocation,
    }


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="python -m cardenvs.arena", description=__doc__.split("\n\n")[0]
    )
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="the shipped reference ladders")
    r = sub.add_parser("rate", help="rate an agent on a setting's reference ladder")
    r.add_argument("agent", help=AGENT_HELP)
    r.add_argument("--setting", required=True, help="a setting with a reference ladder (list)")
    r.add_argument("--budget", type=float, default=None, help="seconds for all the games")
    r.add_argument("--trusted", action="store_true", help=TRUSTED_HELP)
    r.add_argument("--json", help="also write the result to this JSON file")
    m = sub.add_parser("match", help="one agent against another, every seating")
    m.add_argument("agent", help=AGENT_HELP)
    m.add_argument("opponent", help=AGENT_HELP)
    m.add_argument("--game", required=True, choices=list(GAMES))
    m.add_argument("--config", help="the game's options as a JSON object")
    m.add_argument("--n", type=int, default=100, help="decks (or games) per seating")
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--deals", choices=DEALS, default="duplicate")
    m.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="worker processes sharing the games (the same games and deals; a searching "
        "agent's random draws differ with --jobs)",
    )
    m.add_argument("--trusted", action="store_true", help=TRUSTED_HELP)
    m.add_argument("--json", help="also write the result to this JSON file")
    a = p.parse_args(argv)
    a.invocation = "python -m cardenvs.arena " + shlex.join(sys.argv[1:] if argv is None else argv)
    if getattr(a, "budget", None) is not None and a.budget <= 0:
        p.error("--budget must be a positive number of seconds")
    if getattr(a, "n", 1) < 1:
        p.error("--n must be at least 1")
    if getattr(a, "jobs", 1) < 1:
        p.error("--jobs must be at least 1")
    if getattr(a, "json", None) and not Path(a.json).parent.is_dir():
        p.error(f"--json {a.json!r}: its directory does not exist")
    try:
        out = {"list": _list, "rate": _rate, "match": _match}[a.command](a)
    except (ValueError, TypeError) as e:
        p.error(str(e))
    if getattr(a, "json", None):
        Path(a.json).write_text(json.dumps(out, indent=2, default=float))
    return out


if __name__ == "__main__":
    main()
