"""Per-game training defaults of ``train/sb3_ppo.py`` (in the manner of rl-baselines3-zoo's files).

``train/sb3_ppo.py`` starts from ``COMMON``; a game listed in ``TUNED`` overrides some of it; an
argument given on the command line overrides both. The README's results table gives each row's
command, and every run's ``summary.json`` records the arguments it used.

Why a game differs from ``COMMON`` is written next to its entry, with the measurement behind it.
"""

from __future__ import annotations

# The values every game starts from (argparse ``dest`` names of train/sb3_ppo.py).
COMMON: dict = {
    "config": '{"episode": "deal"}',
    "opponent": "mix",
    "total_timesteps": 1_500_000,
    "gamma": 0.99,
    "eval_every": 250_000,
}

TUNED: dict[str, dict] = {
    # A Banque deal's only reward comes at its end, after about 30 of a seat's moves in random
    # play (up to a few hundred in close deals); a discount below 1 makes the early moves count
    # for less. Two players, trained against random opponents, over 1,000 games against random:
    # gamma 0.99 and 3 M steps 0.844, gamma 0.997 and 4 M steps 0.875, gamma 1.0 and 4 M steps
    # 0.891, gamma 1.0 and 8 M steps 0.884 (docs/training/): 4 M steps are enough.
    "banque-v0": {
        "gamma": 1.0,
        "opponent": "random",
        "total_timesteps": 4_000_000,
        "eval_every": 1_000_000,  # a whole game of Banque is long: evaluations are costly
    },
    # Partners share every reward, so the learner plays both of them (--team) and is evaluated
    # as a side. Its side against a random side, over 1,000 games: trained alone with the
    # opponent agent as partner (the COMMON defaults) 0.807; as a team, 1.5 M steps 0.832,
    # 3 M steps 0.852 (0.600 against a heuristic side; docs/training/).
    "partnership_piquet-v0": {"team": True, "total_timesteps": 3_000_000, "eval_every": 500_000},
}


def defaults(game: str) -> dict:
    """The training defaults of ``game``: ``COMMON`` with the game's ``TUNED`` entry over it."""
    return COMMON | TUNED.get(game, {})
