"""Per-game training defaults of both trainers (in the manner of rl-baselines3-zoo's files).

``train/ppo.py`` (native PPO) starts from ``NATIVE``, ``train/sb3_ppo.py`` (MaskablePPO) from
``COMMON``; a game listed in ``NATIVE_TUNED`` or ``TUNED`` overrides some of it; an argument
given on the command line overrides both. The README's results table gives each row's command,
and every run's ``summary.json`` records the arguments it used.

Why a game or a default differs is written next to its entry, with the measurement behind it.
"""

from __future__ import annotations

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
    # A Banque deal's only reward comes at its end, after about 30 of a seat's moves in random
    # play (up to a few hundred in close deals); a discount below 1 makes the early moves count
    # for less. Two players, trained against random opponents, over 1,000 games against random:
    # gamma 0.99 and 3 M steps 0.844, gamma 0.997 and 4 M steps 0.875, gamma 1.0 and 4 M steps
    # 0.891, gamma 1.0 and 8 M steps 0.884 (docs/training/sb3/): 4 M steps are enough.
    "banque-v0": {
        "gamma": 1.0,
        "opponent": "random",
        "total_timesteps": 4_000_000,
        "eval_every": 1_000_000,  # a whole game of Banque is long: evaluations are costly
    },
    # Partners share every reward, so the learner plays both of them (--team) and is evaluated
    # as a side. Its side against a random side, over 1,000 games: trained alone with the
    # opponent agent as partner (the COMMON defaults) 0.807; as a team, 1.5 M steps 0.832,
    # 3 M steps 0.852 (0.600 against a heuristic side; docs/training/sb3/).
    "partnership_piquet-v0": {"team": True, "total_timesteps": 3_000_000, "eval_every": 500_000},
}


def defaults(game: str) -> dict:
    """The training defaults of ``game``: ``COMMON`` with the game's ``TUNED`` entry over it."""
    return COMMON | TUNED.get(game, {})


# -- the native trainer (train/ppo.py) ---------------------------------------------------------
# The values every game starts from (argparse ``dest`` names of train/ppo.py). Measured on the
# shared 2-core VM (Piquet, 2 x 256 tanh MLP, one torch thread), where the network's arithmetic
# is the cost (the engine takes about 1% of the training time):
# - budget: whichever comes first of ``total_timesteps`` learner decisions and ``minutes`` of
#   wall-clock time (evaluations included), so that ``make train`` ends within 10 minutes;
# - 1024 games x 16 steps a rollout (about 14,000 learner decisions): against 256 x 64, the
#   rollout's batched forward pass and the league's per-call costs shrink, 10,500 and 13,600
#   against 9,200 and 11,800 learner decisions/s (two interleaved pairs of 45 s runs);
# - one epoch, minibatches of 4,096 (4 gradient steps a rollout): a decision costs about 1 unit
#   of forward pass in the rollout and 3 per epoch, and fresh decisions cost almost nothing
#   more, so a second epoch nearly halves the throughput. At equal wall-clock time (2 minutes,
#   400 whole games against the heuristic) one epoch did no worse: 0.403 (0.356-0.451) against
#   0.343 (0.298-0.390) with two; minibatches of 2,048 gave 0.355 (0.310-0.403);
# - learning rate 2.5e-3: with 3e-4 the updates were tiny (approximate KL about 0.001) and a
#   2-minute run reached 0.40 against the heuristic. Three minutes, two runs side by side, 400
#   whole games: 1e-3 reached 0.665 (0.617-0.709), 2.5e-3 0.685 (0.638-0.729) and 0.66 after
#   one minute (KL 0.003-0.007, clip fraction 0.03-0.09);
# - ``league_share``: a quarter of the games against the league (random, heuristic, the last
#   five snapshots of the learner), the rest self-play, every seat learning;
# - evaluations every 500,000 learner decisions (about 40 s of training): 400 whole games
#   against each of the two agents take a few seconds (numpy forward passes, one BLAS thread).
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
    # Auction Piquet trains against the heuristic alone (a best response to it, no self-play).
    # With self-play the learner settled on never bidding and doubling every bid: against the
    # heuristic's bids, made from hand strength, that lost. The model alone in each seat, 400
    # whole games: the defaults 0.10 (0.08-0.14) after 6 M decisions (6 minutes); rewarded by
    # score margins 0.01 after 3.4 M; league share 0.5 of random and heuristic 0.12 (0.09-0.16)
    # after 2.4 M; the heuristic alone 0.565 (0.516-0.613) after 2.3 M (3 minutes), rising.
    "auction_piquet-v0": {"league": ["heuristic"], "league_share": 1.0},
    # Four Aces is won by the first total to reach 20 points, so a round's score margin says
    # more than who scored best in it. Three minutes (learning rate 2.5e-3), the model alone
    # against three heuristics over 400 whole games: rewarded by the round's win 0.031
    # (0.018-0.053) after 1.5 M decisions; by its score margin 0.269 (0.228-0.314) after 2.8 M
    # (evaluated on wins: ``eval_config`` sets ``"reward": "win"``).
    "four_aces-v0": {"config": '{"episode": "deal", "reward": "score"}'},
    # As for the SB3 route: a Banque deal's only reward comes at its end, after many moves of
    # each seat (not measured for the native trainer yet).
    "banque-v0": {"gamma": 1.0},
}


def native_defaults(game: str) -> dict:
    """The native trainer's defaults of ``game``: ``NATIVE`` with ``NATIVE_TUNED[game]`` over it."""
    return NATIVE | NATIVE_TUNED.get(game, {})
