"""Piquet (``piquet-v0``) as an AEC env: what its checks hold beyond the contract suite
(PettingZoo api/seed tests, registry, spaces, action names, illegal actions, reset options,
seeding, records and replays, render: ``test_contract_aec.py``, ``test_contract_vector.py``):
the action table, the first deal from a fixed deck, and what a record's deals hold."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs.games.piquet import Config

ENV_ID = "piquet-v0"
NUM_ACTIONS = 88
PIQUET_STRINGS = [f"{r}{s}" for s in "SHDC" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]


def random_record(seed: int, **config) -> dict:
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=seed)
    g = np.random.default_rng(seed)
    while env.agents:
        agent = env.agent_selection
        done = env.terminations[agent] or env.truncations[agent]
        env.step(None if done else int(g.choice(env.unwrapped.legal_actions())))
    return env.unwrapped.record()


# --- action names --------------------------------------------------------------------------------
def test_aec__action_names_as_documented():
    """The action table of the rules page (the round trip of every name in any spelling is the
    contract's, ``test_contract_aec.py``)."""
    core = cardenvs.make(ENV_ID).unwrapped
    names = [core.action_name(a) for a in range(NUM_ACTIONS)]
    assert names[:32] == [f"discard {c}" for c in PIQUET_STRINGS]
    assert names[32:64] == [f"play {c}" for c in PIQUET_STRINGS]
    assert names[64:69] == ["stop", "look", "dont_look", "claim", "dont_claim"]
    # appended for sinking (masked off unless enabled); ids 0-68 keep their meaning
    assert names[69:73] == ["declare", "sink", "answer", "concede"]
    # appended for Auction Piquet (masked off in the other ids)
    assert names[73:] == ["pass"] + [f"bid {n}{s}" for n in range(7, 13) for s in "+-"] + [
        "double",
        "redouble",
    ]


# --- reset options -------------------------------------------------------------------------------
@pytest.mark.parametrize("dealer", [0, 1])
def test_aec__deck_and_dealer_options_fix_the_first_deal(dealer):
    deck = list(np.random.default_rng(dealer).permutation(PIQUET_STRINGS))
    env = cardenvs.make(ENV_ID)
    env.reset(seed=11, options={"deck": deck, "dealer": dealer})
    first = env.unwrapped.record()["deals"][0]
    assert first["deck"] == deck
    assert first["dealer"] == dealer
    # elder (the non-dealer) exchanges first and holds the first twelve cards
    elder = 1 - dealer
    assert env.agent_selection == f"player_{elder}"
    legal = {env.unwrapped.action_name(a) for a in env.unwrapped.legal_actions()}
    assert legal == {f"discard {c}" for c in deck[:12]}


def test_aec__deck_option_with_dealer_first_exchanger():
    deck = list(np.random.default_rng(7).permutation(PIQUET_STRINGS))
    env = cardenvs.make(ENV_ID, first_exchanger="dealer")
    env.reset(seed=0, options={"deck": deck, "dealer": 0})
    assert env.agent_selection == "player_0"
    legal = {env.unwrapped.action_name(a) for a in env.unwrapped.legal_actions()}
    assert legal == {f"discard {c}" for c in deck[12:24]}


# --- records -------------------------------------------------------------------------------------
@pytest.mark.parametrize("config", [{}, {"partie": "four_deals"}, {"episode": "deal"}])
def test_aec__record_deals_follow_the_rules(config):
    """What a Piquet record holds beyond the contract's checks (``test_contract_aec.py``: JSON,
    fields, config, seed, actions, replay, on these configs): the number of deals of the partie,
    the deal alternating, points never negative, twelve tricks per deal, totals the sum of the
    deals' points."""
    rec = random_record(31, **config)
    cfg = Config(**config)
    regular = {"six_deals": 6, "four_deals": 4}[cfg.partie]
    if cfg.episode == "deal":
        assert len(rec["deals"]) == 1
    else:
        assert regular <= len(rec["deals"]) <= regular + 2
    for i, deal in enumerate(rec["deals"]):
        if i:
            assert deal["dealer"] == 1 - rec["deals"][i - 1]["dealer"]  # the deal alternates
        assert all(p >= 0 for p in deal["points"])
        # a deal ends when all twelve tricks (24 cards) are played
        assert sum(name.startswith("play ") for _, name in deal["actions"]) == 24
    totals = [sum(d["points"][s] for d in rec["deals"]) for s in range(2)]
    assert rec["result"]["totals"] == totals


def test_aec__record_totals_are_the_sum_of_deal_points():
    rec = random_record(8)
    totals = [sum(d["points"][s] for d in rec["deals"]) for s in range(2)]
    assert rec["result"]["totals"] == totals
