"""Per-game training defaults of both trainers (in the manner of rl-baselines3-zoo's files).

``train/ppo.py`` (native PPO) starts from ``NATIVE``, ``train/sb3_ppo.py`` (MaskablePPO) from
``COMMON``; a game listed in ``NATIVE_TUNED`` or ``TUNED`` overrides some of it; an argument
given on the command line overrides both. The README's results table gives each row's command,
and every run's ``summary.json`` records the arguments it used.

Why a game or a default differs is written next to its entry in a line, with a link to the
measurements behind it in ``docs/training.md``.
"""

from __future__ import annotations

import json

# -- the SB3 route (train/sb3_ppo.py) ----------------------------------------------------------
# The values every game starts from (argparse ``dest`` names of train/sb3_ppo.py).
COMMON: dict = {
    "config": '{"episode": "deal"}',
    "opponent": "mix",
    "total_timesteps": 1_500_000,
    "gamma": 0.99,
    "eval_every": 250_000,
}

TUNED: dict[str, dict] = {
    # A Banque deal's only reward comes at its end, after many moves of each seat: no discount,
    # and 4 M steps against random opponents, as more did not help
    # (docs/training.md#how-the-sb3-routes-per-game-defaults-were-found).
    "banque-v0": {
        "gamma": 1.0,
        "opponent": "random",
        "total_timesteps": 4_000_000,
        "eval_every": 1_000_000,  # a whole game of Banque is long: evaluations are costly
    },
    # Partners share every reward, so the learner plays both of them (--team) and is evaluated
    # as a side; 3 M steps did better than 1.5 M
    # (docs/training.md#how-the-sb3-routes-per-game-defaults-were-found).
    "partnership_piquet-v0": {"team": True, "total_timesteps": 3_000_000, "eval_every": 500_000},
}


def defaults(game: str) -> dict:
    """The training defaults of ``game``: ``COMMON`` with the game's ``TUNED`` entry over it."""
    return COMMON | TUNED.get(game, {})


# -- the native trainer (train/ppo.py) ---------------------------------------------------------
# The values every game starts from (argparse ``dest`` names of train/ppo.py). The network's
# arithmetic is the cost, so the defaults favour learner decisions per second; the measurements
# behind each are in docs/training.md#how-its-defaults-were-chosen:
# - budget: whichever comes first of ``total_timesteps`` learner decisions and ``minutes`` of
#   wall-clock time (evaluations included), so that ``make train`` ends within 10 minutes;
# - 1024 games x 16 steps a rollout: larger batches for the rollout's forward pass and the
#   league, more learner decisions per second than 256 x 64;
# - one epoch, minibatches of 4,096 (4 gradient steps a rollout): a second epoch nearly halves
#   the throughput and did no better at equal wall-clock time;
# - learning rate 2.5e-3: 3e-4 made tiny updates, 2.5e-3 learned fastest;
# - ``league_share``: a quarter of the games against the league (random, heuristic, the last
#   five snapshots of the learner), the rest self-play, every seat learning;
# - evaluations every 500,000 learner decisions: 400 whole games against each of the two agents
#   take a few seconds, a small share of the training time.
NATIVE: dict = {
    "config": '{"episode": "deal"}',
    "eval_config": '{"episode": "game", "reward": "win"}',
    "total_timesteps": 50_000_000,
    "minutes": 8.0,
    "num_envs": 1024,
    "num_steps": 16,
    "net": [256, 256],
    "activation": "tanh",
    "learning_rate": 2.5e-3,
    "gamma": 0.99,
    "gae_lambda": 0.95,
    "epochs": 1,
    "minibatch_size": 4096,
    "clip_coef": 0.2,
    "ent_coef": 0.01,
    "vf_coef": 0.5,
    "max_grad_norm": 0.5,
    "credit": "side",
    "league_share": 0.25,
    "league": ["random", "heuristic", "self"],
    "pool_size": 5,
    "snapshot_every": 250_000,
    "eval_every": 500_000,
    "eval_games": 400,
}

NATIVE_TUNED: dict[str, dict] = {
    # Auction Piquet trains against the heuristic alone (a best response to it, no self-play):
    # with self-play the learner settled on never bidding and doubling every bid, which lost to
    # the heuristic's bids (docs/training.md#how-its-defaults-were-chosen).
    "auction_piquet-v0": {"league": ["heuristic"], "league_share": 1.0},
    # Four Aces is won by the first total to reach 20 points, so a round's score margin says
    # more than who scored best in it: it learned far more than on round wins
    # (docs/training.md#how-its-defaults-were-chosen). Evaluations stay on wins (``eval_config``
    # sets ``"reward": "win"``).
    "four_aces-v0": {"config": '{"episode": "deal", "reward": "score"}'},
    # As for the SB3 route: a Banque deal's only reward comes at its end, after many moves of
    # each seat (not measured for the native trainer yet).
    "banque-v0": {"gamma": 1.0},
}


def native_defaults(game: str) -> dict:
    """The native trainer's defaults of ``game``: ``NATIVE`` with ``NATIVE_TUNED[game]`` over it."""
    return NATIVE | NATIVE_TUNED.get(game, {})


def parse_configs(parser, args) -> None:
    """Read ``args.config`` and ``args.eval_config`` (JSON objects; None: the game's native
    defaults) into dicts, the evaluation config merged over the training one; a value that is not
    a JSON object exits through ``parser.error`` naming the option."""
    tuned = native_defaults(args.game)
    for name in ("config", "eval_config"):
        option = f"--{name.replace('_', '-')}"
        try:
            value = json.loads(getattr(args, name) or tuned[name])
        except json.JSONDecodeError as e:
            parser.error(f"{option} is not JSON: {e}")
        except RecursionError:
            parser.error(f"{option} is JSON nested too deeply; give a flat JSON object")
        if not isinstance(value, dict):
            parser.error(f"{option} must be a JSON object, got {value!r}")
        setattr(args, name, value)
    args.eval_config = args.config | args.eval_config
