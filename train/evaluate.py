"""Play a saved policy (native PPO ``.npz`` or MaskablePPO ``.zip``) against any agents and
report its win rates.

    python -m train.evaluate runs/piquet-v0/model.npz --game piquet-v0 \\
        --against random heuristic ismcts --n 200

For each opponent, ``--n`` games are played with the model in each seat in turn, the opponent
filling every other seat (``--all-seatings``: every arrangement that uses both, as in the
tournament), on the batched engine (``cardenvs.arena.head_to_head``). A win shared with
other seats counts as a share, so 1/P is equal strength. Prints one line per opponent: the win
rate with its 95% Wilson interval and the 1/P baseline, then the model's seats (with ``--side``:
games) won / drawn / lost and its mean reward with a 95% interval (normal approximation, mean ±
1.96·sd/√n). A game is drawn when every seat's reward is equal; otherwise a seat with the best
reward won (a win shared with other seats counts as won) and the others lost. A win rate near the
baseline made of draws (two-player Esel) shows as such. ``--json`` writes the same rows
(``head_to_head``'s: ``wins``, ``draws``, ``losses``, ``mean_return``, ``return_ci_low``,
``return_ci_high`` beside the win rate) if given.

The game and its rule options come from the model's header (a ``.npz`` records the game and the
config it was trained with; its ``episode`` and ``reward``, how training episodes were cut and
paid, are not taken: an evaluation plays whole games scored by wins unless ``--config`` says
otherwise), and the command prints which config it plays: ``--config`` sets
options over the header's (a warning names each that differs from the training value); an SB3
``.zip`` has no header readable without unpickling it, so it needs ``--game`` (and ``--config``
where the game's defaults are not what it was trained for) and ``--trusted``.

Arguments
---------
model               a model saved by ``train/ppo.py`` (``model.npz``) or by
                    ``train/sb3_ppo.py`` (``model.zip``), or a checkpoint of either
--game              environment id the model was trained on (default: the model's header)
--config            the game's options as JSON, over the model's training config (its header)
--trusted           I trust this .zip: loading it runs the code inside (SB3's pickles); a .zip
                    (the model, or a model:<path> opponent) is refused without it
--against           opponents: cardenvs.arena specs (random, heuristic, ismcts@<n>, zoo,
                    model:<path>); a bare ismcts takes the --ismcts-* options
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
--deals             duplicate (default: each deck from every seating, the interval over decks)
                    or independent (a deck per game)
--json              write the results here
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import cardenvs
from cardenvs.agents.ismcts import ROLLOUTS, ISMCTSAgent
from cardenvs.agents.policy import PolicyAgent
from cardenvs.arena import (
    DEALS,
    SPEC_HELP,
    TRUSTED_HELP,
    arrangements,
    check_spec,
    head_to_head,
    make_agent,
    model_path,
    reward_text,
    sb3_zip,
    untrusted_zip,
    wdl_text,
)
from cardenvs.core.checks import brief
from cardenvs.core.rng import MAX_SEED
from cardenvs.policy import read_header
from cardenvs.registry import lookup


def opponent_spec(kind: str, iterations: int, rollout: str) -> str:
    """The arena's spec of an ``--against`` name: a bare ``ismcts`` takes
    ``--ismcts-iterations`` and ``--ismcts-rollout``; any other name is a spec already."""
    return f"ismcts@{iterations}:{rollout}" if kind == "ismcts" else kind


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
    trusted: bool = False,
    deals: str = "duplicate",
) -> list[dict]:
    """Win rates of ``model`` (a path to a ``.npz`` or ``.zip`` model, a loaded ``NumpyPolicy`` or
    ``MaskablePPO``) against each opponent kind; with ``search`` > 0 the model plays through
    ISMCTS with that many iterations a move, rolling out with itself. ``trusted``: a ``.zip``
    path (the model's or a ``model:<path>`` opponent's) may be loaded, running its pickles."""
    agent = PolicyAgent(model, game, deterministic=deterministic, seed=seed, trusted=trusted)
    if search:
        agent = ISMCTSAgent(game, iterations=search, rollout=agent, seed=seed)
    rows = []
    for k, kind in enumerate(against):
        opponent = make_agent(
            opponent_spec(kind, iterations, rollout),
            game,
            seed=seed + 7919 * (k + 1),
            trusted=trusted,
            name=kind,
        )
        row = head_to_head(
            game, agent, opponent, n, seed, config, solo=solo, side=side, deals=deals
        )
        row["opponent"] = kind
        rows.append(row)
    return rows


def trainer_evaluation(model_path, args, venv) -> list[dict]:
    """The native trainer's evaluation of a saved checkpoint (``train/ppo.py``: every
    ``--eval-every`` learner decisions and at the end; the rows of its ``eval.csv``): the model,
    deterministic, against random and heuristic on the batched engine (``evaluate``), about
    ``args.eval_games`` games each over the ``args.eval_seating`` arrangements: every seat in
    turn alone against the others (``solo``), or as a side (``side``; ``auto``: ``side`` for
    partnership games, else ``solo``), or every arrangement of the two agents (``all``), under
    ``args.eval_config``, seeded ``args.seed + 1``. ``venv`` is an engine of the game."""
    seating = args.eval_seating
    if seating == "auto":
        seating = "side" if any(len(s) > 1 for s in venv.sides) else "solo"
    count = {"solo": venv.num_seats, "side": len(venv.sides)}.get(
        seating, len(arrangements(venv.num_seats))
    )
    n = max(1, args.eval_games // count)
    return evaluate(
        str(model_path),
        args.game,
        args.eval_config,
        ["random", "heuristic"],
        n,
        args.seed + 1,
        solo=seating == "solo",
        side=seating == "side",
    )


def parse(argv=None):
    """The command line, every argument checked (``p.error`` naming what is wrong and what is
    allowed); the model is loaded here (``a.policy``), its game and config resolved from its
    header and ``--config`` (``a.game``, ``a.config``, said in ``a.config_note``)."""
    p = argparse.ArgumentParser(
        prog="python -m train.evaluate",
        description="Evaluate a saved policy (.npz or SB3 .zip)",
    )
    p.add_argument("model", help="a .npz model (train/ppo.py) or, with --trusted, an SB3 .zip")
    p.add_argument(
        "--game",
        choices=list(cardenvs.GAMES),
        help="the game the model plays (default: the one its header records; a .zip needs it)",
    )
    p.add_argument(
        "--config",
        help="the game's options as JSON, over the model's training config (its header); an "
        "option that differs from the header's is warned about",
    )
    p.add_argument("--trusted", action="store_true", help=TRUSTED_HELP)
    p.add_argument(
        "--against",
        nargs="+",
        default=["random", "heuristic"],
        help=f"opponents: cardenvs.arena specs ({SPEC_HELP}; a bare ismcts takes the "
        "--ismcts-* options) (default: random heuristic)",
    )
    p.add_argument(
        "--n", type=int, default=200, help="games per seating arrangement (default: 200)"
    )
    p.add_argument(
        "--seed", type=int, default=0, help="seed of the games and the opponents (default: 0)"
    )
    p.add_argument(
        "--stochastic",
        action="store_true",
        help="sample from the masked policy instead of playing its most probable action",
    )
    p.add_argument(
        "--all-seatings",
        action="store_true",
        help="every arrangement of the two agents (the model may hold several seats)",
    )
    p.add_argument(
        "--side",
        action="store_true",
        help="the model plays every seat of one side, each side in turn (partnership Piquet: "
        "both partners)",
    )
    p.add_argument(
        "--ismcts-iterations",
        type=int,
        default=200,
        help="ISMCTS iterations a move of an ismcts opponent (default: 200)",
    )
    p.add_argument(
        "--ismcts-rollout",
        choices=ROLLOUTS,
        default="random",
        help="ISMCTS roll-outs: random legal moves (default), the game's heuristic or the "
        "zoo's model of the game",
    )
    p.add_argument(
        "--search",
        type=int,
        default=0,
        help="play the model through ISMCTS with this many iterations a move (default 0: the "
        "model alone)",
    )
    p.add_argument(
        "--deals",
        choices=DEALS,
        default="duplicate",
        help="duplicate (default): each deck played from every seating, the interval over decks; "
        "independent: a deck per game",
    )
    p.add_argument("--json", default=None, help="also write the results to this JSON file")
    a = p.parse_args(argv)
    if a.n < 1:
        p.error("--n must be at least 1")
    if a.search < 0:
        p.error("--search must be 0 (the model alone) or a number of ISMCTS iterations")
    if a.side and a.all_seatings:
        p.error("--side and --all-seatings are two different seatings: give one")
    for kind in a.against:
        try:
            check_spec(opponent_spec(kind, a.ismcts_iterations, a.ismcts_rollout), a.trusted)
        except ValueError as e:
            p.error(f"--against {kind}: {e}")
    if a.json is not None:  # checked before the games: a bad path must not cost the evaluation
        out = Path(a.json)
        if out.is_dir():
            p.error(f"--json {a.json!r} is a directory: give the path of the JSON file to write")
        if not out.parent.is_dir():
            why = "is not a directory" if out.parent.exists() else "does not exist"
            p.error(f"--json {a.json!r}: its directory {str(out.parent)!r} {why}")
    if not Path(a.model).is_file():
        p.error(f"no saved model at {a.model!r}")

    # -- the game and its config: the model's header, --config over it ------------------------
    trained = {}
    if Path(a.model).suffix == ".zip":
        if not a.trusted:
            p.error(untrusted_zip(a.model))
        if a.game is None:
            p.error(
                "--game is needed for an SB3 .zip model (it has no header to read it from): "
                f"one of {list(cardenvs.GAMES)}"
            )
    elif Path(a.model).suffix == ".npz":
        try:
            header = read_header(a.model)
        except ValueError as e:
            p.error(str(e))
        if a.game is not None and a.game != header["game"]:
            p.error(
                f"--game {a.game}: the model {a.model!r} plays {header['game']} (its header); "
                f"leave --game out or give {header['game']}"
            )
        a.game = header["game"]
        # the rules it was trained under; not how its training episodes were cut and paid
        # (evaluations play whole games scored by wins unless --config says otherwise)
        trained = {
            k: v for k, v in (header.get("config") or {}).items() if k not in ("episode", "reward")
        }
    else:
        p.error(
            f"{a.model!r} is not a saved model: a .npz (train/ppo.py) or, with --trusted, an SB3 "
            ".zip (train/sb3_ppo.py)"
        )
    explicit = {}
    if a.config is not None:
        try:
            explicit = json.loads(a.config)
        except json.JSONDecodeError as e:
            p.error(
                f"--config must be a JSON object of {a.game}'s options, got {brief(a.config)} ({e})"
            )
        except RecursionError:
            p.error(f"--config is JSON nested too deeply, got {brief(a.config)}")
        if not isinstance(explicit, dict):
            p.error(f"--config must be a JSON object of {a.game}'s options, got {a.config!r}")
    game, defaults = lookup(a.game)
    try:
        config = game.config_cls.from_kwargs(**(defaults | trained | explicit))
        default = game.config_cls.from_kwargs(**defaults)
    except (ValueError, TypeError) as e:
        if explicit:
            p.error(f"--config: {e}")
        p.error(f"{a.model!r}: the training config in its header: {e}; give --config")
    for k, v in explicit.items():
        if k in trained and trained[k] != v:
            print(
                f"warning: --config {k}={json.dumps(v)} differs from the model's training config "
                f"({k}={json.dumps(trained[k])}, its header)",
                file=sys.stderr,
            )
    a.config = trained | explicit
    if trained:
        source = "the model's training config (its header)"
        source += " and --config over it" if explicit else ""
    else:
        source = "--config" if explicit else f"{a.game}'s defaults"
    # said: the options given or away from the game's defaults (a header holds every option)
    used, base = dataclasses.asdict(config), dataclasses.asdict(default)
    shown = {k: v for k, v in used.items() if k in explicit or v != base[k]}
    a.config_note = (
        f"evaluating {a.model} on {a.game} with {source}: {json.dumps(shown)} (every other "
        f"option at {a.game}'s default)"
    )

    # -- the seed: one engine row per game against an opponent ---------------------------------
    seats = int(game.num_seats(config))
    count = len(game.sides_of(config)) if a.side else seats
    rows = a.n * (len(arrangements(seats)) if a.all_seatings else count)
    top = MAX_SEED - (rows - 1)
    if not 0 <= a.seed <= top:
        p.error(
            f"--seed must be in 0..{top} (the {rows} games against an opponent are seeded seed, "
            f"seed + 1, ...; a seed is at most {MAX_SEED}), got {a.seed}"
        )

    # -- the models: loaded once here, so that a refusal is a usage error -----------------------
    for kind in a.against:
        path = model_path(kind)
        if path is None:
            continue
        if sb3_zip(path) and not a.trusted:
            p.error(f"--against {kind}: {untrusted_zip(path)}")
        try:
            make_agent(kind, a.game, trusted=a.trusted)
        except (ValueError, ImportError) as e:
            p.error(f"--against {kind}: {e}")
    try:
        a.policy = PolicyAgent(a.model, a.game, trusted=a.trusted).model
    except (ValueError, ImportError) as e:
        p.error(str(e))
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
    print(a.config_note)
    rows = evaluate(
        a.policy,
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
        trusted=a.trusted,
        deals=a.deals,
    )
    for r in rows:
        print(line(a.game, r))
    if a.json:
        out = {"model": a.model, "game": a.game, "config": a.config, "search": a.search}
        Path(a.json).write_text(json.dumps(out | {"results": rows}))
    return rows


if __name__ == "__main__":
    main()
