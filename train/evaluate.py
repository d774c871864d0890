"""Play a saved policy (native PPO ``.npz`` or MaskablePPO ``.zip``) against any agents and
report its win rates.

    python -m train.evaluate runs/piquet-v0/model.npz --game piquet-v0 \\
        --against random heuristic ismcts --n 200

For each opponent, ``--n`` games are played with the model in each seat in turn, the opponent
filling every other seat (``--all-seatings``: every arrangement that uses both, as in the
tournament), on the batched engine (``benchmarks.tournament.head_to_head``). A win shared with
other seats counts as a share, so 1/P is equal strength. Prints one line per opponent: the win
rate with its 95% Wilson interval and the 1/P baseline, then the model's seats (with ``--side``:
games) won / drawn / lost and its mean reward with a 95% interval (normal approximation, mean ±
1.96·sd/√n). A game is drawn when every seat's reward is equal; otherwise a seat with the best
reward won (a win shared with other seats counts as won) and the others lost. A win rate near the
baseline made of draws (two-player Esel) shows as such. ``--json`` writes the same rows
(``head_to_head``'s: ``wins``, ``draws``, ``losses``, ``mean_return``, ``return_ci_low``,
``return_ci_high`` beside the win rate) if given.

Arguments
---------
model               a model saved by ``train/ppo.py`` (``model.npz``) or by
                    ``train/sb3_ppo.py`` (``model.zip``), or a checkpoint of either
--game              environment id the model was trained on
--config            the game's config as JSON (use the training config)
--against           opponents: random, heuristic, ismcts or ppo:<path> (another model)
--n                 games per seating arrangement
--seed              seed of the games and of the opponents
--stochastic        sample from the masked policy instead of playing its most probable action
--all-seatings      every arrangement of the two agents (the model may hold several seats)
--side              the model plays every seat of one side, each side in turn (partnership
                    Piquet: both partners); the side's win rate against 1 / the number of sides
--ismcts-iterations ISMCTS budget per move
--search            play the model through ISMCTS with this many iterations a move, rolling out
                    with the model itself (search at play time; 0, the default: the model alone)
--ismcts-rollout    ISMCTS roll-outs: random legal moves (default), the game's heuristic or
                    the zoo's model of the game
--json              write the results here
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cardenvs  # noqa: E402
from agents.ismcts import ROLLOUTS, ISMCTSAgent  # noqa: E402
from agents.policy import PolicyAgent  # noqa: E402
from benchmarks.tournament import (  # noqa: E402
    AGENTS,
    head_to_head,
    make_agent,
    reward_text,
    wdl_text,
)


def evaluate(
    model,
    game: str,
    config: dict,
    against,
    n: int,
    seed: int = 0,
    deterministic: bool = True,
    iterations: int = 200,
    solo: bool = True,
    side: bool = False,
    rollout: str = "random",
    search: int = 0,
) -> list[dict]:
    """Win rates of ``model`` (a path to a ``.npz`` or ``.zip`` model, a loaded ``NumpyPolicy`` or
    ``MaskablePPO``) against each opponent kind; with ``search`` > 0 the model plays through
    ISMCTS with that many iterations a move, rolling out with itself."""
    agent = PolicyAgent(model, game, deterministic=deterministic, seed=seed)
    if search:
        agent = ISMCTSAgent(game, iterations=search, rollout=agent, seed=seed)
    rows = []
    for k, kind in enumerate(against):
        opponent = make_agent(
            kind, game, seed + 7919 * (k + 1), iterations=iterations, rollout=rollout
        )
        row = head_to_head(game, agent, opponent, n, seed, config, solo=solo, side=side)
        row["opponent"] = kind
        rows.append(row)
    return rows


def parse(argv=None):
    p = argparse.ArgumentParser(description="Evaluate a saved policy (.npz or SB3 .zip)")
    p.add_argument("model")
    p.add_argument("--game", required=True, choices=list(cardenvs.GAMES))
    p.add_argument("--config", default="{}")
    p.add_argument("--against", nargs="+", default=["random", "heuristic"])
    p.add_argument("--n", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--stochastic", action="store_true")
    p.add_argument("--all-seatings", action="store_true")
    p.add_argument("--side", action="store_true")
    p.add_argument("--ismcts-iterations", type=int, default=200)
    p.add_argument("--ismcts-rollout", choices=ROLLOUTS, default="random")
    p.add_argument("--search", type=int, default=0)
    p.add_argument("--json", default=None)
    a = p.parse_args(argv)
    if a.n < 1:
        p.error("--n must be at least 1")
    if a.search < 0:
        p.error("--search must be 0 (the model alone) or a number of ISMCTS iterations")
    if a.side and a.all_seatings:
        p.error("--side and --all-seatings are two different seatings: give one")
    for kind in a.against:
        if kind not in AGENTS and not kind.startswith("ppo:"):
            p.error(f"unknown opponent {kind!r}; available: {list(AGENTS)} or ppo:<model path>")
    try:
        a.config = json.loads(a.config)
    except json.JSONDecodeError as e:
        p.error(f"--config is not JSON: {e}")
    if not Path(a.model).is_file():
        p.error(f"no saved model at {a.model!r}")
    return a


def line(game: str, r: dict) -> str:
    """One opponent's result as printed: win rate, interval, baseline, wins / draws / losses and
    the mean reward with its interval."""
    reward = reward_text(r["mean_return"], r.get("return_ci_low"), r.get("return_ci_high"))
    return (
        f"{game} vs {r['opponent']:10s} win rate {r['win_rate']:.3f} "
        f"(95% CI {r['ci_low']:.3f}-{r['ci_high']:.3f}; baseline {r['baseline']:.2f}) "
        f"over {r['games']} games: W/D/L {wdl_text(r)}, mean reward {reward}"
    )


def main(argv=None) -> list[dict]:
    a = parse(argv)
    rows = evaluate(
        a.model,
        a.game,
        a.config,
        a.against,
        a.n,
        a.seed,
        deterministic=not a.stochastic,
        iterations=a.ismcts_iterations,
        solo=not a.all_seatings,
        side=a.side,
        rollout=a.ismcts_rollout,
        search=a.search,
    )
    for r in rows:
        print(line(a.game, r))
    if a.json:
        out = {"model": a.model, "game": a.game, "config": a.config, "search": a.search}
        Path(a.json).write_text(json.dumps(out | {"results": rows}))
    return rows


if __name__ == "__main__":
    main()
