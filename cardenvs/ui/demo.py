"""``make demo``: one whole game between random agents, told as text.

Usage::

    python -m cardenvs.demo [--game piquet-v0] [--seed 0] [--config JSON] [--no-color]
    make demo GAME=esel-v0 SEED=3 CONFIG='{"num_players": 3}'

Each deal starts with the table in the open view (``cardenvs.ui.play.table``: every hand face up);
then every move and what followed it (``ui.events``: the cards played, trick winners, visible
draws and jokers, declarations, the bank taken), a summary at the end of each deal (its points,
declarations, banks or bonuses, the totals), and at the end the winners (or the winning side),
the hand limit when the match stopped at it, and the game's record in short. The agents choose
uniformly among the legal actions (a NumPy generator seeded with ``--seed``). Nothing is written
to disk. Colour codes only when standard output is a terminal (and not with ``--no-color``,
``--plain`` or ``NO_COLOR``).
"""

from __future__ import annotations

import argparse
import re

import numpy as np

import cardenvs

from ..core.rng import MAX_SEED
from .events import events
from .play import parse_config, pretty, table, use_color


def play(
    env_id: str = "piquet-v0",
    seed: int = 0,
    color: bool | None = None,
    config: dict | None = None,
    say=print,
) -> dict:
    """Play one game between random agents, telling it with ``say`` (see the module
    docstring); return its record. ``color`` None: only on a terminal."""
    config = dict(config or {})
    if color is None:
        color = use_color(False)
    env = cardenvs.make(env_id, render_mode="ansi", **config)
    core = env.unwrapped
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    n = len(core.possible_agents)
    say(f"{env_id}: one game between {n} random agents (seed {seed})")
    scene = core.scene(None)
    say("")
    say(table(scene, color))
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.integers(legal.size)])
        seat = core.agent_name_mapping[agent]
        name = core.action_name(action)
        deals = len(core.record()["deals"])
        env.step(action)
        after = core.scene(None)
        record = core.record()
        for line in events(scene, after, seat, name, record=record):
            say(f"  {pretty(line, color)}")
        if len(record["deals"]) > deals and not after["over"]:  # a new deal: its table
            say("")
            say(table(after, color))
        scene = after
    record = core.record()
    say("\n=== result ===")
    say(_strip(env.render(), color))
    for i, d in enumerate(record["deals"]):
        say(f"deal {i + 1}: dealer player_{d['dealer']}, points {d['points']}")
    res = record["result"]
    details = ", ".join(f"{k}: {v}" for k, v in res.items() if k != "winner")
    who = "drawn" if res["winner"] is None else f"player_{res['winner']} wins"
    say(f"{who} ({details})")
    return record


def _strip(text: str, color: bool) -> str:
    """The game's own text (``render_mode="ansi"``) without its colour codes unless ``color``."""
    return text if color else re.sub(r"\x1b\[[0-9;]*m", "", text)


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m cardenvs.demo",
        description="Play one game between random agents and tell it as text.",
    )
    p.add_argument("--game", default="piquet-v0", choices=list(cardenvs.GAMES))
    p.add_argument("--seed", type=int, default=0, help=f"the game's seed, 0..{MAX_SEED}")
    p.add_argument(
        "--config", help='the game\'s options as a JSON object, e.g. \'{"episode": "deal"}\''
    )
    p.add_argument("--no-color", "--plain", action="store_true", help="no colour codes")
    args = p.parse_args(argv)
    if not 0 <= args.seed <= MAX_SEED:
        p.error(f"--seed must be in 0..{MAX_SEED}, got {args.seed}")
    config = parse_config(p, args.config, args.game)
    return play(args.game, args.seed, color=use_color(args.no_color), config=config)


if __name__ == "__main__":
    main()
