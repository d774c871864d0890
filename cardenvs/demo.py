"""``make demo``: one full game between two random agents, rendered as text.

python -m cardenvs.demo [--game piquet-v0] [--seed 0] [--plain]
"""

from __future__ import annotations

import argparse

import numpy as np

import cardenvs


def play(env_id: str = "piquet-v0", seed: int = 0, color: bool = True) -> dict:
    """Play one game with uniformly random legal actions, printing every deal; return the record."""
    env = cardenvs.make(env_id, render_mode="ansi")
    core = env.unwrapped
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    deal = -1
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        deal_no = int(core._engine._deal_no[0])
        if deal_no != deal and not (term or trunc):
            deal = deal_no
            print(f"\n=== deal {deal + 1} ===")
            print(_strip(env.render(), color))
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.integers(legal.size)])
        name = core.action_name(action)
        env.step(action)
        print(f"  {agent}: {name}")
    record = core.record()
    print("\n=== result ===")
    print(_strip(env.render(), color))
    for i, d in enumerate(record["deals"]):
        print(f"deal {i + 1}: dealer player_{d['dealer']}, points {d['points']}")
    res = record["result"]
    details = ", ".join(f"{k}: {v}" for k, v in res.items() if k != "winner")
    who = "drawn" if res["winner"] is None else f"player_{res['winner']} wins"
    print(f"{who} ({details})")
    return record


def _strip(text: str, color: bool) -> str:
    if color:
        return text
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description="Play one game between two random agents.")
    p.add_argument("--game", default="piquet-v0", choices=list(cardenvs.GAMES))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--plain", action="store_true", help="no ANSI colours")
    args = p.parse_args(argv)
    play(args.game, args.seed, color=not args.plain)


if __name__ == "__main__":
    main()
