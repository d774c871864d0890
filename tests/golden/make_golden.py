"""Regenerate the golden playthroughs (only on purpose, after a deliberate rules change).

    python tests/golden/make_golden.py [env_id ...]   # default: every id

Each line of ``tests/golden/<game>/random_games.jsonl`` is the record of a whole game played with
uniformly random legal actions (numpy Generator seeded with the game's seed); the tests replay
them and play them again, and any difference is a change of behaviour.

``before_<change>.jsonl`` beside them keeps the records a rules change made obsolete (e.g. the
Piquet tie-break fix): they must still replay, under the rule they were made with (the config
class's ``RECORD_DEFAULTS``).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import cardenvs

HERE = Path(__file__).parent
CASES = {
    "piquet-v0": [
        ({}, 0),
        ({}, 1),
        ({"episode": "deal", "first_exchanger": "dealer"}, 2),
        ({"carte_blanche_auto": False, "trick_scoring": "ten_for_last"}, 3),
        ({}, 423),  # level 103-103 after six deals: both tie-break deals are played (2.10)
    ],
    "piquet_au_cent-v0": [
        ({}, 0),
        ({"au_cent_end": "end_of_deal", "reward": "score"}, 1),
        ({"episode": "deal", "carte_blanche_auto": False}, 2),
    ],
    "auction_piquet-v0": [
        ({}, 0),
        ({"reward": "score", "minus_combinations": "none"}, 1),
        ({"auction_sentence_reading": "no_exchange", "allow_sinking": True, "episode": "deal"}, 2),
    ],
    "esel-v0": [
        ({}, 0),
        ({"num_players": 2}, 1),
        ({"num_players": 3, "trump_option": 5}, 2),
        ({"trump_option": 3, "common_trumps": "H", "must_beat": True}, 3),
    ],
    "banque-v0": [
        ({"max_hands": 3}, 0),
        ({"num_players": 2, "target_score": 100}, 1),
        (
            {
                "num_players": 3,
                "trump_option": 5,
                "seven_effect": "draw_then_move",
                "episode": "deal",
            },
            2,
        ),
        ({"specials_out_of_turn": True, "bank_take": "all", "max_hands": 2}, 3),
        ({"seven_effect": "draw_and_skip", "trump_assignment": "random", "max_hands": 2}, 4),
    ],
    "four_aces-v0": [
        ({"max_rounds": 2}, 0),
        ({"num_players": 3, "episode": "deal"}, 1),
        ({"num_players": 5, "joker_target_effect": "skip", "max_rounds": 1}, 2),
    ],
    "piquet_normand-v0": [
        ({}, 0),
        ({"normand_dealer_exchange": "may", "target": 60, "reward": "score"}, 1),
        ({"episode": "deal", "set_ranks": "KQJT"}, 2),
    ],
    "partnership_piquet-v0": [
        ({}, 0),
        ({"target": 60, "point_minimum": 0, "reward": "score"}, 1),
        ({"episode": "deal", "carte_blanche": False}, 2),
    ],
}


def play(env_id: str, config: dict, seed: int) -> dict:
    env = cardenvs.make(env_id, illegal_action="raise", **config)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if term or trunc else int(rng.choice(legal)))
    return env.unwrapped.record()


def main(ids: list[str] | None = None) -> None:
    """Write the golden files of ``ids`` (default: every id in ``CASES``)."""
    for env_id, cases in CASES.items():
        if ids and env_id not in ids:
            continue
        out = HERE / env_id.split("-v")[0] / "random_games.jsonl"
        out.parent.mkdir(parents=True, exist_ok=True)
        lines = [json.dumps(play(env_id, cfg, seed)) for cfg, seed in cases]
        out.write_text("\n".join(lines) + "\n")
        print(f"wrote {out} ({len(lines)} games)")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
