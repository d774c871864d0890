"""The cases of the contract suite (``test_contract_aec.py``, ``test_contract_vector.py``): every
environment id with its main configs, and the per-id data the contract tests read (bad action
names, bad configs and reset options with the words their errors must hold).

A case is ``(env_id, config)``; its test id is ``<env_id>-<option>=<value>-...`` (``-default`` for
the id's defaults), so ``pytest -k piquet`` selects every Piquet id, ``-k banque-v0`` Banque,
``-k num_players=2`` the two-player configs. The configs are the ones the per-game test modules
used for each kind of check before the contract suite took them over (docs/testing.md, layer 4):
several player counts, ``episode="deal"`` and ``"game"``, both rewards, the variants' switches
(partie, sinking, au cent, auction, roles) and the tie-break options.
"""

from __future__ import annotations

import pytest

import cardenvs


def config_id(config: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in config.items()) or "default"


def case_id(env_id: str, config: dict) -> str:
    return f"{env_id}-{config_id(config)}"


def cases(table: dict[str, list[dict]], *marks_by_id) -> list:
    """``pytest.param((env_id, config), id=...)`` for every config of every id of ``table``."""
    return [
        pytest.param(env_id, config, id=case_id(env_id, config))
        for env_id, configs in table.items()
        for config in configs
    ]


def per_id(table: dict[str, list]) -> list:
    """``pytest.param(env_id, item, id=...)`` for every item of every id of ``table`` (items are
    ``(value, id)`` pairs)."""
    return [
        pytest.param(env_id, value, id=f"{env_id}-{tag}")
        for env_id, items in table.items()
        for value, tag in items
    ]


IDS = list(cardenvs.GAMES)
ID_PARAMS = [pytest.param(env_id, id=env_id) for env_id in IDS]

# --- the main configs of every id --------------------------------------------------------------
# PettingZoo's api_test and seed_test, and one random game each with the AEC checks of the
# contract (masks, spaces, rewards).
MAIN_CONFIGS: dict[str, list[dict]] = {
    "piquet-v0": [
        {},
        {"episode": "deal"},
        {"first_exchanger": "dealer"},
        {"younger_min_exchange": 0},
        {"low_cards_score_in_play": False},
        {"partie": "four_deals"},
        {"set_ranks": "KQJT"},
        {
            "reward": "score",
            "point_ending_in_4_minus_one": True,
            "cards_bonus_counts_for_pique": True,
        },
        {"carte_blanche_auto": False, "trick_scoring": "ten_for_last", "rubicon": 150},
        {"allow_sinking": True},
        {"allow_sinking": True, "carte_blanche_auto": False, "episode": "deal"},
    ],
    "piquet_au_cent-v0": [
        {},
        {"au_cent_end": "end_of_deal", "reward": "score"},
        {"episode": "deal", "younger_min_exchange": 1},
        {
            "carte_blanche_auto": False,
            "target": 60,
            "double_below": 0,
            "elder_calls_in_full": False,
        },
        {"low_cards_score_in_play": False, "point_ending_in_4_minus_one": True, "max_deals": 3},
        {"au_cent_partie": True},
        {"allow_sinking": True},
    ],
    "auction_piquet-v0": [
        {},
        {"reward": "score", "auction_last_trick_extra": True},
        {"episode": "deal", "bidding": "before_exchange", "first_bidder": "younger"},
        {"auction_sentence_reading": "no_exchange", "allow_sinking": True, "partie": "four_deals"},
        {"minus_combinations": "none", "carte_blanche_auto": False, "max_redeals": 0},
        {"declarer_becomes_elder": True},
        {"declarer_becomes_elder": True, "bidding": "before_exchange", "reward": "score"},
    ],
    "esel-v0": [
        {"num_players": 2},
        {"num_players": 3},
        {},
        {"num_players": 3, "trump_option": 2},
        {"num_players": 4, "trump_option": 3},
        {"num_players": 2, "trump_option": 4},
        {"num_players": 4, "trump_option": 5, "must_beat": True},
        {"num_players": 3, "trump_assignment": "random"},
        {"num_players": 4, "episode": "deal", "reward": "score"},
        {"num_players": 2, "episode": "deal", "must_beat": True},
        {"num_players": 2, "tie_break": "hand_points", "max_hands": 60},
    ],
    "banque-v0": [
        {"max_hands": 3},
        {"num_players": 2, "max_hands": 3},
        {"num_players": 3, "trump_option": 5, "max_hands": 3},
        {"trump_option": 3, "common_trumps": "H", "max_hands": 3},
        {"trump_option": 4, "max_hands": 3},
        {"seven_effect": "draw_and_skip", "max_hands": 3},
        {"specials_out_of_turn": True, "max_hands": 3},
        {"bank_take": "all", "centre_card": False, "max_hands": 3},
        {"episode": "deal", "reward": "score"},
        {"penalty_mode": "fixed", "win_tie_break": "extra_hand_tied_only", "target_score": 60},
    ],
    "four_aces-v0": [
        {"num_players": 3, "max_rounds": 2},
        {"num_players": 4, "max_rounds": 2},
        {"num_players": 5, "max_rounds": 2},
        {"num_players": 4, "joker_target_effect": "skip", "max_rounds": 2},
        {"num_players": 3, "allow_discard_draw": False, "max_rounds": 2},
        {"num_players": 5, "run_mode": "replace", "max_rounds": 2},
        {"num_players": 4, "episode": "deal", "reward": "score"},
        {"num_players": 3, "episode": "deal", "joker_target_effect": "skip"},
    ],
    "piquet_normand-v0": [
        {},
        {"normand_dealer_exchange": "may", "target": 40},
        {"episode": "deal"},
    ],
    "partnership_piquet-v0": [
        {},
        {"target": 50, "point_minimum": 0},
        {"episode": "deal", "reward": "score"},
    ],
}
MAIN_CASES = cases(MAIN_CONFIGS)

# PettingZoo's seed_test (two envs of a seed play alike) on the main configs of every id but the
# variants' last ones (their own switches: test_golden.py plays the same seed alike too).
SEED_CONFIGS = {
    env_id: configs[: {"piquet_au_cent-v0": 3, "auction_piquet-v0": 3}.get(env_id, len(configs))]
    for env_id, configs in MAIN_CONFIGS.items()
}
SEED_CONFIGS["piquet_au_cent-v0"] = SEED_CONFIGS["piquet_au_cent-v0"] + [{"allow_sinking": True}]
SEED_CONFIGS["piquet_normand-v0"] = MAIN_CONFIGS["piquet_normand-v0"][:2]
SEED_CONFIGS["partnership_piquet-v0"] = MAIN_CONFIGS["partnership_piquet-v0"][:2]
SEED_CASES = cases(SEED_CONFIGS)
# One whole AEC game with the contract's checks at every step: every config of the variants
# without hypothesis properties of their own AEC env, one per seat count of the others (whose
# test modules check masks and rewards over random configs).
RANDOM_GAME_CONFIGS = {
    env_id: configs
    for env_id, configs in MAIN_CONFIGS.items()
    if env_id
    in ("piquet_au_cent-v0", "auction_piquet-v0", "piquet_normand-v0", "partnership_piquet-v0")
}

# PettingZoo's api_test plays num_agents * cycles steps at most (a whole game of every config).
API_CYCLES = {"piquet-v0": 1000, "piquet_au_cent-v0": 400}
SEED_CYCLES = {"piquet_au_cent-v0": 200, "auction_piquet-v0": 150}

# One config per seat count of each id (the registry, spaces, illegal actions in the AEC env).
SEAT_CONFIGS: dict[str, list[dict]] = {
    "piquet-v0": [{}],
    "piquet_au_cent-v0": [{}],
    "auction_piquet-v0": [{}],
    "esel-v0": [{"num_players": 2}, {"num_players": 3}, {"num_players": 4}],
    "banque-v0": [{"num_players": 2}, {"num_players": 3}, {"num_players": 4}],
    "four_aces-v0": [{"num_players": 3}, {"num_players": 4}, {"num_players": 5}],
    "piquet_normand-v0": [{}],
    "partnership_piquet-v0": [{}],
}
SEAT_CASES = cases(SEAT_CONFIGS)
# Short games (a few deals) of every id, where a test plays whole games to look at their deals.
SHORT_GAME = {
    "esel-v0": {"max_hands": 3},
    "banque-v0": {"target_score": 60, "max_hands": 3},
    "four_aces-v0": {"max_rounds": 2},
}
RANDOM_GAME_CASES = cases(
    {
        env_id: RANDOM_GAME_CONFIGS.get(
            env_id, [c | SHORT_GAME.get(env_id, {}) for c in SEAT_CONFIGS[env_id]]
        )
        + ([{"allow_sinking": True}, {"episode": "deal"}] if env_id == "piquet-v0" else [])
        for env_id in MAIN_CONFIGS
    }
)
DEFAULT_SEATS = {
    "piquet-v0": 2,
    "piquet_au_cent-v0": 2,
    "auction_piquet-v0": 2,
    "esel-v0": 4,
    "banque-v0": 4,
    "four_aces-v0": 4,
    "piquet_normand-v0": 3,
    "partnership_piquet-v0": 4,
}
# What the text render of a fresh game holds besides every seat's name.
RENDER_WORDS = {
    "piquet-v0": ["Piquet"],
    "piquet_au_cent-v0": ["Piquet au cent", "game:"],
    "auction_piquet-v0": ["Auction Piquet"],
    "esel-v0": ["Esel"],
    "banque-v0": ["Banque"],
    "four_aces-v0": ["Four Aces"],
    "piquet_normand-v0": ["Piquet normand"],
    "partnership_piquet-v0": ["Partnership Piquet"],
}

# --- the batched engine against the AEC env ----------------------------------------------------
# (env_id, config, rows, seed): rows of the batched engine played beside their twin AEC envs to
# the end of every row's game.
VECTOR_CASES = [
    pytest.param(env_id, config, n, seed, id=case_id(env_id, config))
    for env_id, config, n, seed in [
        ("piquet-v0", {}, 4, 100),
        ("piquet-v0", {"reward": "score", "partie": "four_deals"}, 4, 100),
        ("piquet-v0", {"episode": "deal", "set_ranks": "KQJT"}, 4, 100),
        ("piquet-v0", {"allow_sinking": True}, 3, 41),
        (
            "piquet-v0",
            {"allow_sinking": True, "carte_blanche_auto": False, "episode": "deal"},
            3,
            41,
        ),
        ("piquet_au_cent-v0", {}, 3, 40),
        ("piquet_au_cent-v0", {"au_cent_end": "end_of_deal", "reward": "score"}, 3, 40),
        ("piquet_au_cent-v0", {"episode": "deal", "younger_min_exchange": 1}, 3, 40),
        (
            "piquet_au_cent-v0",
            {
                "carte_blanche_auto": False,
                "target": 60,
                "double_below": 0,
                "elder_calls_in_full": False,
            },
            3,
            40,
        ),
        ("piquet_au_cent-v0", {"au_cent_partie": True}, 2, 41),
        ("auction_piquet-v0", {}, 3, 42),
        ("auction_piquet-v0", {"reward": "score", "auction_last_trick_extra": True}, 3, 42),
        (
            "auction_piquet-v0",
            {"episode": "deal", "bidding": "before_exchange", "first_bidder": "younger"},
            3,
            42,
        ),
        (
            "auction_piquet-v0",
            {
                "auction_sentence_reading": "no_exchange",
                "allow_sinking": True,
                "partie": "four_deals",
            },
            3,
            42,
        ),
        ("auction_piquet-v0", {"declarer_becomes_elder": True}, 3, 43),
        (
            "auction_piquet-v0",
            {"declarer_becomes_elder": True, "bidding": "before_exchange", "reward": "score"},
            3,
            43,
        ),
        ("esel-v0", {"num_players": 3}, 4, 100),
        ("esel-v0", {"num_players": 4}, 4, 100),
        (
            "esel-v0",
            {"num_players": 3, "trump_option": 4, "must_beat": True, "max_hands": 4},
            4,
            100,
        ),
        (
            "esel-v0",
            {"num_players": 4, "trump_assignment": "random", "reward": "score", "max_hands": 3},
            4,
            100,
        ),
        (
            "esel-v0",
            {"num_players": 4, "trump_option": 5, "episode": "deal", "reward": "score"},
            4,
            100,
        ),
        ("esel-v0", {"num_players": 2, "trump_option": 3, "episode": "deal"}, 4, 100),
        ("esel-v0", {"num_players": 2, "tie_break": "hand_points", "max_hands": 8}, 4, 100),
        ("banque-v0", {"num_players": 3, "max_hands": 2}, 4, 100),
        ("banque-v0", {"num_players": 4, "max_hands": 2}, 4, 100),
        ("banque-v0", {"num_players": 2, "trump_option": 4, "max_hands": 3}, 4, 100),
        (
            "banque-v0",
            {"specials_out_of_turn": True, "seven_effect": "draw_then_move", "max_hands": 2},
            4,
            100,
        ),
        (
            "banque-v0",
            {"num_players": 4, "trump_option": 5, "episode": "deal", "reward": "score"},
            4,
            100,
        ),
        (
            "banque-v0",
            {"num_players": 3, "bank_take": "all", "centre_card": False, "episode": "deal"},
            4,
            100,
        ),
        (
            "banque-v0",
            {
                "penalty_mode": "fixed",
                "win_tie_break": "extra_hand_tied_only",
                "target_score": 60,
                "reward": "score",
                "max_hands": 6,
            },
            4,
            100,
        ),
        ("four_aces-v0", {"num_players": 3, "max_rounds": 2}, 3, 100),
        (
            "four_aces-v0",
            {"num_players": 5, "joker_target_effect": "skip", "max_rounds": 2},
            3,
            100,
        ),
        (
            "four_aces-v0",
            {"num_players": 4, "allow_discard_draw": False, "reward": "score", "max_rounds": 2},
            3,
            100,
        ),
        (
            "four_aces-v0",
            {"num_players": 4, "run_mode": "replace", "episode": "deal", "reward": "score"},
            3,
            100,
        ),
        ("piquet_normand-v0", {"target": 40}, 3, 100),
        ("piquet_normand-v0", {"normand_dealer_exchange": "may"}, 3, 100),
        ("partnership_piquet-v0", {"target": 40}, 3, 100),
        ("partnership_piquet-v0", {"set_ranks": "KQJT", "carte_blanche": False}, 3, 100),
    ]
]
# Every seat's observation is compared with the AEC env's every this many steps (every step for
# two-handed Piquet; Four Aces' long games every 11th).
EVERY_SEAT_EVERY = {"piquet-v0": 1, "four_aces-v0": 11}

# How far from zero a finished game's rewards may sum (float32 shares of a score).
ZERO_SUM_TOL = {
    "esel-v0": 1e-4,
    "banque-v0": 1e-3,
    "four_aces-v0": 1e-4,
    "piquet_normand-v0": 1e-4,
    "partnership_piquet-v0": 1e-4,
}  # the two-handed Piquet ids: exactly zero

# Working fields a game overwrites before it reads them: a restarted row may keep the last game's
# values there (every other field must be a brand-new game's).
SCRATCH_FIELDS = {
    "esel-v0": (
        "legal",
        "first_leader",
        "trick_cards",
        "trick_seats",
        "main_suit",
        "main_card",
        "main_ref",
        "max_order",
        "fightback",
        "win_seat",
        "win_card",
        "win_class",
        "win_type",
    ),
    "banque-v0": ("bank", "owner", "starter"),
    "four_aces-v0": ("pile",),
}

# (env_id, config, rows, seed, max_steps): autoreset until every row has finished two episodes.
AUTORESET_CASES = [
    pytest.param(env_id, config, n, seed, max_steps, id=case_id(env_id, config))
    for env_id, config, n, seed, max_steps in [
        ("piquet-v0", {"episode": "deal"}, 3, 60, 5000),
        ("piquet-v0", {}, 2, 60, 5000),
        ("piquet-v0", {"allow_sinking": True, "episode": "deal"}, 2, 71, 5000),
        ("piquet_au_cent-v0", {}, 2, 70, 4000),
        ("piquet_au_cent-v0", {"au_cent_partie": True}, 2, 71, 12000),
        ("auction_piquet-v0", {"episode": "deal"}, 2, 72, 5000),
        ("esel-v0", {"num_players": 3, "episode": "deal"}, 3, 60, 5000),
        ("esel-v0", {"num_players": 4, "episode": "deal", "trump_option": 2}, 3, 60, 5000),
        ("esel-v0", {"num_players": 4, "max_hands": 2}, 3, 60, 5000),
        ("banque-v0", {"num_players": 3, "episode": "deal"}, 3, 60, 5000),
        ("banque-v0", {"num_players": 4, "episode": "deal", "trump_option": 2}, 3, 60, 5000),
        ("banque-v0", {"num_players": 4, "max_hands": 2}, 3, 60, 5000),
        ("four_aces-v0", {"num_players": 3, "episode": "deal"}, 2, 60, 20000),
        ("four_aces-v0", {"num_players": 5, "max_rounds": 1}, 2, 60, 20000),
        ("piquet_normand-v0", {"target": 30}, 3, 60, 5000),
        ("partnership_piquet-v0", {"target": 30}, 3, 60, 5000),
    ]
]

# --- records ------------------------------------------------------------------------------------
# (env_id, config, seed): random games whose records the contract checks and replays.
RECORD_CASES = [
    pytest.param(env_id, config, seed, id=f"{case_id(env_id, config)}-seed={seed}")
    for env_id, configs, seeds in [
        ("piquet-v0", [{}, {"partie": "four_deals"}, {"episode": "deal"}], [31]),
        (
            "piquet-v0",
            [{}, {"partie": "four_deals", "first_exchanger": "dealer"}, {"episode": "deal"}],
            [0, 1, 2],
        ),
        ("piquet-v0", [{"allow_sinking": True}], [12]),
        ("piquet_au_cent-v0", MAIN_CONFIGS["piquet_au_cent-v0"][:5], [9]),
        ("piquet_au_cent-v0", [{"allow_sinking": True}], [12]),
        ("auction_piquet-v0", MAIN_CONFIGS["auction_piquet-v0"][:5], [21]),
        (
            "esel-v0",
            [
                {"num_players": 2, "max_hands": 5},
                {"num_players": 3, "trump_option": 3, "next_dealer": "left"},
                {
                    "num_players": 4,
                    "trump_assignment": "random",
                    "must_beat": True,
                    "next_dealer": "same",
                },
                {"num_players": 4, "trump_option": 5, "episode": "deal", "reward": "score"},
                {"num_players": 3, "common_trumps": "HS", "trump_option": 4, "max_hands": 3},
                {"num_players": 2, "tie_break": "hand_points", "max_hands": 8},
            ],
            [0, 1],
        ),
        (
            "banque-v0",
            [
                {"num_players": 2, "max_hands": 3},
                {
                    "num_players": 3,
                    "trump_option": 3,
                    "common_trumps": "H",
                    "next_dealer": "starter",
                },
                {
                    "num_players": 4,
                    "next_dealer": "finisher",
                    "specials_out_of_turn": True,
                    "max_hands": 3,
                },
                {"num_players": 4, "trump_option": 5, "episode": "deal", "reward": "score"},
                {
                    "num_players": 3,
                    "penalty_mode": "fixed",
                    "win_tie_break": "extra_hand_tied_only",
                },
                {"num_players": 4, "finish_bonus": (25, 15, 5), "finish_king_extra": [1, 2, 3]},
            ],
            [0, 1],
        ),
        (
            "four_aces-v0",
            [
                {"num_players": 3, "max_rounds": 2},
                {"num_players": 5, "joker_target_effect": "skip", "max_rounds": 2},
                {
                    "num_players": 4,
                    "allow_discard_draw": False,
                    "run_mode": "replace",
                    "max_rounds": 1,
                },
                {"num_players": 4, "episode": "deal", "reward": "score"},
            ],
            [0, 1],
        ),
        ("piquet_normand-v0", [{"target": 60}], [0, 1]),
        ("partnership_piquet-v0", [{"target": 60}], [0, 1]),
    ]
    for config in configs
    for seed in seeds
]
# Banque's record cases play short matches (as its own record test did).
RECORD_DEFAULTS = {"banque-v0": {"target_score": 60, "max_hands": 4}}

# --- per-id data of the error checks --------------------------------------------------------------
# Action names no id of the game accepts (besides the generic ones every id refuses).
BAD_ACTION_NAMES = {
    "piquet-v0": ["discard 2S", "play JK", "discard", "stop now", "bid 6+", "bid 13-"],
    "piquet_au_cent-v0": ["discard 6S", "play 5H"],
    "auction_piquet-v0": ["bid 6+", "bid 7x", "bid 13-"],
    "esel-v0": ["play 2S", "play 5H", "trump X", "pass", "play"],
    "banque-v0": [
        "play 2S",
        "play 5H",
        "play JK",
        "eight 9S",
        "eight 8X",
        "quad 5 top S",
        "quad 6 top X",
        "sequence H K",
        "sequence X 6",
        "trump X",
        "go",
        "play",
    ],
    "four_aces-v0": ["discard JK", "discard 1S", "draw", "play AS"],
    "piquet_normand-v0": ["discard 6S", "look", "bid 7+"],
    "partnership_piquet-v0": ["discard 2S", "claim", "bid 7+"],
}
GENERIC_BAD_ACTION_NAMES = ["", "jump", "  ", "discard AS AS", "play 10", "xyz 7S"]

# (config, words its ValueError must hold), for make and make_vector alike.
BAD_CONFIGS = {
    "esel-v0": [
        ({"num_players": 5}, ["num_players", "5", "2..4"]),
        ({"num_players": 1}, ["num_players", "1", "2..4"]),
        ({"trump_option": 6}, ["trump_option", "6", "1..5"]),
        ({"trump_option": 0}, ["trump_option", "0", "1..5"]),
        ({"trump_assignment": "dealt"}, ["trump_assignment", "'dealt'", "'random'"]),
        ({"must_beat": 1}, ["must_beat", "True or False"]),
        ({"common_trumps": "X"}, ["common_trumps", "'X'"]),
        ({"trump_option": 3, "common_trumps": "HS"}, ["common_trumps", "'HS'", "option 3"]),
        ({"max_hands": 0}, ["max_hands", "1..120"]),
        ({"trumps": "S"}, ["unknown config option", "trumps"]),
        ({"num_player": 3}, ["unknown config option", "num_player"]),
    ],
    "banque-v0": [
        ({"num_players": 5}, ["num_players", "5", "2..4"]),
        ({"num_players": 1}, ["num_players", "1", "2..4"]),
        ({"trump_option": 6}, ["trump_option", "6", "1..5"]),
        ({"trump_option": 0}, ["trump_option", "0", "1..5"]),
        ({"trump_assignment": "dealt"}, ["trump_assignment", "'dealt'", "'random'"]),
        ({"specials_out_of_turn": 1}, ["specials_out_of_turn", "True or False"]),
        ({"common_trumps": "X"}, ["common_trumps", "'X'"]),
        ({"common_trumps": "HH"}, ["common_trumps", "'HH'"]),
        ({"trump_option": 3, "common_trumps": "HS"}, ["common_trumps", "'HS'", "option 3"]),
        ({"trump_option": 4, "common_trumps": "H"}, ["common_trumps", "'H'", "option 4"]),
        ({"finish_bonus": (1, 2)}, ["finish_bonus", "three integers"]),
        ({"finish_bonus": "abc"}, ["finish_bonus", "three integers"]),
        ({"finish_king_extra": (1, 2, 2000)}, ["finish_king_extra", "0..1000"]),
        ({"penalty_fixed": 30}, ["penalty_fixed", "30", "31"]),
        ({"seven_effect": "skip"}, ["seven_effect", "'skip'", "'control'"]),
        ({"hand_size": 9}, ["hand_size", "9", "1..8"]),
        ({"max_hands": 0}, ["max_hands", "1..128"]),
        ({"target_score": 0}, ["target_score", "1..5000"]),
        ({"trumps": "S"}, ["unknown config option", "trumps"]),
        ({"num_player": 3}, ["unknown config option", "num_player"]),
    ],
    "four_aces-v0": [
        ({"num_players": 2}, ["num_players", "2", "3..5"]),
        ({"num_players": 6}, ["num_players", "6", "3..5"]),
        ({"pair_value": 0}, ["pair_value", "0"]),
        ({"run2_value": 0}, ["run2_value", "0"]),
        ({"joker_target_effect": "steal"}, ["joker_target_effect", "'steal'"]),
        ({"max_rounds": 0}, ["max_rounds"]),
        ({"jokers": 3}, ["unknown config option", "jokers"]),
    ],
    "piquet_normand-v0": [
        ({"target": 0}, ["target", "0", "1..300"]),
        ({"target": -5}, ["target", "-5", "1..300"]),
        ({"allow_sinking": True}, ["allow_sinking", "True", "not supported", "False"]),
        ({"normand_dealer_exchange": "never"}, ["normand_dealer_exchange", "never", "must"]),
        ({"point_minimum": 30}, ["point_minimum", "known options"]),
        ({"set_ranks": "AK"}, ["set_ranks", "AK", "AKQJT"]),
        ({"carte_blanche": 1}, ["carte_blanche", "True or False"]),
    ],
    "partnership_piquet-v0": [
        ({"target": 0}, ["target", "0", "1..300"]),
        ({"allow_sinking": True}, ["allow_sinking", "True", "not supported", "False"]),
        ({"point_minimum": -1}, ["point_minimum", "-1", "0..88"]),
        ({"normand_dealer_exchange": "may"}, ["normand_dealer_exchange", "known options"]),
        ({"reward": "money"}, ["reward", "money", "win"]),
    ],
}
# Refused by every id.
GENERIC_BAD_CONFIGS = [
    ({"no_such_option": 1}, ["unknown config option", "no_such_option"]),
    ({"episode": "match"}, ["episode", "'match'", "'game'", "'deal'"]),
    ({"reward": "points"}, ["reward", "'points'", "'win'"]),
]
BAD_CONFIG_CASES = [
    pytest.param(env_id, config, words, id=f"{env_id}-{config_id(config)}")
    for env_id in IDS
    for config, words in GENERIC_BAD_CONFIGS + BAD_CONFIGS.get(env_id, [])
]


# Reset options every id refuses, built from the id's deck (``deck``: a deck order of the id,
# ``p``: its seat count): (options, words its ValueError must hold).
def bad_reset_options(deck: list[str], p: int, name: str) -> dict:
    missing = deck[-1]
    out = {
        "deck-short": ({"deck": deck[:-1]}, [str(len(deck)), str(len(deck) - 1), repr(missing)]),
        "deck-long": ({"deck": [*deck, deck[0]]}, ["more than once", repr(deck[0])]),
        "deck-duplicate": ({"deck": [*deck[:-1], deck[0]]}, ["more than once", repr(deck[0])]),
        "deck-unparsable": ({"deck": ["ZZ", *deck[1:]]}, ["'ZZ'"]),
        "deck-string-short": ({"deck": " ".join(deck[:2])}, [str(len(deck)), "got 2"]),
        "dealer-too-high": ({"dealer": p}, ["dealer", f"0..{p - 1}", str(p)]),
        "dealer-neg": ({"dealer": -1}, ["dealer", f"0..{p - 1}", "-1"]),
        "dealer-str": ({"dealer": "1"}, ["dealer", f"0..{p - 1}"]),
        "dealer-bool": ({"dealer": True}, ["dealer", f"0..{p - 1}"]),
    }
    if "JK" in deck:  # Four Aces: the two jokers are its only repeated card
        out["deck-3-jokers"] = ({"deck": [*deck, "JK"]}, ["JK"])
        out["deck-joker-for-a-card"] = (
            {"deck": [c for c in deck if c != "2S"] + ["JK"]},
            ["JK"],
        )
    else:
        for foreign in ("2S", "5H", "JK", "6S"):
            if foreign not in deck:
                out[f"deck-foreign-{foreign}"] = (
                    {"deck": [foreign, *deck[1:]]},
                    [repr(foreign), f"{name} deck"],
                )
    return out


BAD_RESET_KINDS = [
    "deck-short",
    "deck-long",
    "deck-duplicate",
    "deck-unparsable",
    "deck-string-short",
    "deck-foreign",
    "dealer-too-high",
    "dealer-neg",
    "dealer-str",
    "dealer-bool",
]
# The seat counts whose dealer range the reset options are checked against.
RESET_SEATS = {
    "esel-v0": [3, 4],
    "banque-v0": [3, 4],
    "four_aces-v0": [3, 5],
}
