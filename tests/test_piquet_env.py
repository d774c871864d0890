"""Piquet (``piquet-v0``) as an AEC env (layer 4): PettingZoo API and seed tests, action names,
illegal actions, reset options, game records and replays, rendering."""

from __future__ import annotations

import copy
import json

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

import cardenvs
from cardenvs import replay
from cardenvs.games.piquet import Config

ENV_ID = "piquet-v0"
NUM_ACTIONS = 88
PIQUET_STRINGS = [f"{r}{s}" for s in "SHDC" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]
CONFIGS = [
    {},
    {"episode": "deal"},
    {"first_exchanger": "dealer"},
    {"younger_min_exchange": 0},
    {"low_cards_score_in_play": False},
    {"partie": "four_deals"},
    {"set_ranks": "KQJT"},
    {"reward": "score", "point_ending_in_4_minus_one": True, "cards_bonus_counts_for_pique": True},
    {"carte_blanche_auto": False, "trick_scoring": "ten_for_last", "rubicon": 150},
]
CONFIG_IDS = ["default"] + ["-".join(f"{k}={v}" for k, v in c.items()) for c in CONFIGS[1:]]


def play(env, g: np.random.Generator, max_steps: int = 5000) -> dict:
    """Play uniformly random legal actions to the end; return each agent's last reward."""
    rewards = {}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            rewards[agent] = reward
            env.step(None)
            continue
        env.step(int(g.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        assert steps < max_steps, "episode did not end"
    return rewards


def random_record(seed: int, **config) -> dict:
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=seed)
    play(env, np.random.default_rng(seed))
    return env.unwrapped.record()


def first_illegal(env) -> int:
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


# --- PettingZoo conformance ----------------------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_aec__pettingzoo_api_test(config):
    env = cardenvs.make(ENV_ID, **config)
    api_test(env, num_cycles=1000, verbose_progress=False)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_aec__pettingzoo_seed_test(config):
    seed_test(lambda: cardenvs.make(ENV_ID, **config), num_cycles=300)


def test_aec__registered_with_pettingzoo():
    assert ENV_ID in cardenvs.GAMES
    env = pettingzoo.make("aec", f"cardenvs/{ENV_ID}")
    assert isinstance(env.unwrapped, pettingzoo.AECEnv)
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.agent_selection in env.possible_agents
    env2 = pettingzoo.make("aec", f"cardenvs/{ENV_ID}", episode="deal")
    assert env2.unwrapped.config.episode == "deal"


def test_aec__unknown_env_id_raises():
    with pytest.raises(ValueError, match="piquet-v0"):
        cardenvs.make("piquet-v9")


def test_aec__spaces():
    env = cardenvs.make(ENV_ID)
    env.reset(seed=1)
    for agent in env.possible_agents:
        assert env.action_space(agent).n == NUM_ACTIONS
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32
        assert obs["action_mask"].dtype == np.int8
        assert obs["action_mask"].shape == (NUM_ACTIONS,)
        assert env.observation_space(agent).contains(obs)
    # only the agent to act has a non-empty mask
    acting = env.agent_selection
    other = next(a for a in env.possible_agents if a != acting)
    assert env.observe(acting)["action_mask"].sum() > 0
    assert env.observe(other)["action_mask"].sum() == 0
    assert (
        sorted(env.unwrapped.legal_actions())
        == np.flatnonzero(env.observe(acting)["action_mask"]).tolist()
    )


# --- action names --------------------------------------------------------------------------------
def test_aec__action_name_id_round_trip():
    core = cardenvs.make(ENV_ID).unwrapped
    names = [core.action_name(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    for a, name in enumerate(names):
        assert core.action_id(name) == a
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


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("discard TH", "discard 10H"),
        ("discard th", "discard 10H"),
        ("discard 10h", "discard 10H"),
        ("play qs", "play QS"),
        ("play Qs", "play QS"),
        ("Play QS", "play QS"),
        ("  stop ", "stop"),
        ("LOOK", "look"),
    ],
)
def test_aec__action_id_accepts_variants(name, canonical):
    core = cardenvs.make(ENV_ID).unwrapped
    assert core.action_id(name) == core.action_id(canonical)
    assert core.action_name(core.action_id(name)) == canonical


@pytest.mark.parametrize("name", ["discard 2S", "play JK", "jump", "", "discard", "stop now"])
def test_aec__unknown_action_name_raises(name):
    core = cardenvs.make(ENV_ID).unwrapped
    with pytest.raises(ValueError, match="unknown action"):
        core.action_id(name)


@pytest.mark.parametrize("action", [-1, 88, 999, 1.0, "3", None, True])
def test_aec__action_name_of_bad_id_raises(action):
    core = cardenvs.make(ENV_ID).unwrapped
    with pytest.raises(ValueError, match=f"0..{NUM_ACTIONS - 1}"):
        core.action_name(action)


# --- illegal actions -----------------------------------------------------------------------------
def test_aec__illegal_action_penalized_then_playable_again():
    env = cardenvs.make(ENV_ID)
    env.reset(seed=3)
    offender = env.agent_selection
    other = next(a for a in env.possible_agents if a != offender)
    env.step(first_illegal(env))
    assert env.rewards == {offender: -1.0, other: 0.0}
    assert all(env.terminations.values())
    assert env.infos[offender]["illegal_move"] is True
    assert not env.infos[other].get("illegal_move", False)
    # every agent sees its reward through last(), then steps out
    seen = play(env, np.random.default_rng(0))
    assert seen == {offender: -1.0, other: 0.0}
    assert env.agents == []
    # a new game works as usual
    env.reset(seed=4)
    assert not any(env.terminations.values())
    assert all(not info.get("illegal_move") for info in env.infos.values())
    final = play(env, np.random.default_rng(1))
    assert sorted(final) == ["player_0", "player_1"]
    assert sum(final.values()) == 0.0
    assert set(final.values()) <= {-1.0, 0.0, 1.0}
    assert env.unwrapped.record()["result"] is not None


def test_aec__illegal_action_raise_mode_leaves_game_unchanged():
    env = cardenvs.make(ENV_ID, illegal_action="raise")
    env.reset(seed=5)
    agent = env.agent_selection
    core = env.unwrapped
    before_obs = {a: env.observe(a) for a in env.possible_agents}
    before_record = core.record()
    legal = core.legal_actions()
    bad = first_illegal(env)
    with pytest.raises(ValueError) as e:
        env.step(bad)
    msg = str(e.value)
    assert core.action_name(bad) in msg
    for a in legal:
        assert core.action_name(a) in msg
    assert env.agent_selection == agent
    assert not any(env.terminations.values())
    assert core.record() == before_record
    for a in env.possible_agents:
        now = env.observe(a)
        assert np.array_equal(now["observation"], before_obs[a]["observation"])
        assert np.array_equal(now["action_mask"], before_obs[a]["action_mask"])
    # the same agent can now play a legal action
    env.step(legal[0])
    assert core.record()["deals"][0]["actions"] == [
        [env.unwrapped.agent_name_mapping[agent], core.action_name(legal[0])]
    ]


@pytest.mark.parametrize("mode", ["penalize", "raise"])
@pytest.mark.parametrize("action", [999, 88, -1, "x", 2.0, None, True])
def test_aec__action_outside_space_raises(mode, action):
    env = cardenvs.make(ENV_ID, illegal_action=mode)
    env.reset(seed=0)
    agent = env.agent_selection
    with pytest.raises(ValueError, match=f"0..{NUM_ACTIONS - 1}"):
        env.step(action)
    assert env.agent_selection == agent
    assert not any(env.terminations.values())


@pytest.mark.parametrize("mode", ["penalize", "raise"])
def test_aec__an_action_name_points_to_action_id(mode):
    """``env.step("discard 7H")``: a name is not an action; the error names the method that
    turns it into one (issue 52, item 7), and the game goes on."""
    env = cardenvs.make(ENV_ID, illegal_action=mode)
    env.reset(seed=0)
    agent = env.agent_selection
    with pytest.raises(ValueError) as e:
        env.step("discard 7H")
    assert "env.unwrapped.action_id('discard 7H')" in str(e.value)
    assert f"0..{NUM_ACTIONS - 1}" in str(e.value) and str(e.value).startswith(f"{agent}: ")
    with pytest.raises(ValueError, match=r"action_id\('x+\.\.\.x+'\)") as e:
        env.step("x" * 10_000)  # a huge name is cut short
    assert len(str(e.value)) < 300
    assert env.agent_selection == agent and not any(env.terminations.values())


def test_aec__bad_constructor_arguments_raise():
    with pytest.raises(ValueError, match="illegal_action"):
        cardenvs.make(ENV_ID, illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        cardenvs.make(ENV_ID, render_mode="rgb")


def test_aec__step_after_game_over_raises():
    env = cardenvs.make(ENV_ID, episode="deal")
    env.reset(seed=2)
    play(env, np.random.default_rng(2))
    assert env.agents == []
    with pytest.raises(ValueError):
        env.step(None)
    with pytest.raises(ValueError):
        env.step(0)


def test_aec__masks_empty_once_an_illegal_move_ends_the_game():
    env = cardenvs.make(ENV_ID)
    env.reset(seed=2)
    env.step(first_illegal(env))
    for agent in env.possible_agents:
        assert env.observe(agent)["action_mask"].sum() == 0, agent


def test_aec__dead_agent_must_step_none():
    env = cardenvs.make(ENV_ID)
    env.reset(seed=2)
    env.step(first_illegal(env))
    with pytest.raises(ValueError):
        env.step(0)


# --- reset options -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"deck": PIQUET_STRINGS[:-1]}, ["32", "31", "'AC'"]),
        ({"deck": PIQUET_STRINGS + ["7S"]}, ["'7S'"]),
        ({"deck": PIQUET_STRINGS[:-1] + ["7S"]}, ["more than once", "'7S'"]),
        ({"deck": ["2S"] + PIQUET_STRINGS[1:]}, ["'2S'", "piquet deck"]),
        ({"deck": ["ZZ"] + PIQUET_STRINGS[1:]}, ["'ZZ'"]),
        ({"deck": "AS KS"}, ["32", "got 2"]),
        ({"dealer": 2}, ["dealer", "0..1", "2"]),
        ({"dealer": -1}, ["dealer", "0..1", "-1"]),
        ({"dealer": "0"}, ["dealer", "0..1"]),
        ({"dealer": True}, ["dealer", "0..1"]),
        ("deck", ["options"]),
    ],
    ids=[
        "deck-short",
        "deck-long",
        "deck-duplicate",
        "deck-foreign",
        "deck-unparsable",
        "deck-string-short",
        "dealer-2",
        "dealer-neg",
        "dealer-str",
        "dealer-bool",
        "not-a-dict",
    ],
)
def test_aec__bad_reset_options_raise(options, expected):
    env = cardenvs.make(ENV_ID)
    with pytest.raises(ValueError) as e:
        env.reset(seed=0, options=options)
    for text in expected:
        assert text in str(e.value)


@pytest.mark.parametrize(
    "options", [{"dealers": 0}, {"deck": PIQUET_STRINGS, "shuffle": False}, {"options": 1}]
)
def test_aec__unknown_reset_options_warn_and_are_ignored(options):
    # PettingZoo's api_test resets with options={"options": 1}: the AEC env warns and goes on
    env = cardenvs.make(ENV_ID)
    with pytest.warns(UserWarning, match="unknown option"):
        env.reset(seed=0, options=options)
    if "deck" in options:
        assert env.unwrapped.record()["deals"][0]["deck"] == PIQUET_STRINGS
    assert env.agents == ["player_0", "player_1"]


@pytest.mark.parametrize("options", [{"dealers": 0}, {"deck": PIQUET_STRINGS, "shuffle": 1}])
def test_vector__unknown_reset_options_raise(options):
    venv = cardenvs.make_vector(ENV_ID, num_envs=2)
    with pytest.raises(ValueError, match="unknown reset option"):
        venv.reset(seed=0, options=options)


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


def test_aec__deck_option_accepts_T_for_ten_and_is_recorded_canonically():
    deck = list(np.random.default_rng(3).permutation(PIQUET_STRINGS))
    env = cardenvs.make(ENV_ID)
    env.reset(seed=0, options={"deck": [c.replace("10", "T").lower() for c in deck]})
    assert env.unwrapped.record()["deals"][0]["deck"] == deck


def test_aec__only_the_first_deal_is_fixed_and_seed_drives_the_rest():
    deck = list(np.random.default_rng(9).permutation(PIQUET_STRINGS))
    recs = []
    for seed in (1, 1, 2):
        env = cardenvs.make(ENV_ID)
        env.reset(seed=seed, options={"deck": deck, "dealer": 1})
        play(env, np.random.default_rng(0))
        recs.append(env.unwrapped.record())
    assert all(r["deals"][0]["deck"] == deck for r in recs)
    assert recs[0] == recs[1]
    assert recs[0]["deals"][1]["deck"] != deck
    assert recs[0]["deals"][1]["deck"] != recs[2]["deals"][1]["deck"]


def test_aec__same_seed_same_game_different_seed_different_deal():
    def first_deal(seed):
        env = cardenvs.make(ENV_ID)
        env.reset(seed=seed)
        return env.unwrapped.record()["deals"][0]

    assert first_deal(21) == first_deal(21)
    assert first_deal(21)["deck"] != first_deal(22)["deck"]
    assert random_record(4) == random_record(4)


# --- records and replays -------------------------------------------------------------------------
def test_aec__record_before_reset_raises():
    env = cardenvs.make(ENV_ID)
    with pytest.raises(RuntimeError, match="reset"):
        env.unwrapped.record()


@pytest.mark.parametrize("config", [{}, {"partie": "four_deals"}, {"episode": "deal"}])
def test_aec__record_is_json_and_complete(config):
    seed = 31
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=seed)
    n_actions = 0
    g = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(g.choice(np.flatnonzero(obs["action_mask"]))))
        n_actions += 1
    rec = env.unwrapped.record()
    assert json.loads(json.dumps(rec)) == rec
    assert set(rec) == {"game", "version", "config", "seed", "deals", "result"}
    assert rec["game"] == "piquet" and rec["version"] == 0
    assert rec["config"] == Config(**config).to_dict()
    assert rec["seed"] == seed
    assert rec["result"] is not None
    names = {env.unwrapped.action_name(a) for a in range(NUM_ACTIONS)}
    regular = {"six_deals": 6, "four_deals": 4}[Config(**config).partie]
    if Config(**config).episode == "deal":
        assert len(rec["deals"]) == 1
    else:
        assert regular <= len(rec["deals"]) <= regular + 2
    for i, deal in enumerate(rec["deals"]):
        assert {"deck", "dealer", "actions", "points"} <= set(deal)
        assert sorted(deal["deck"]) == sorted(PIQUET_STRINGS)
        assert deal["dealer"] in (0, 1)
        if i:
            assert deal["dealer"] == 1 - rec["deals"][i - 1]["dealer"]  # the deal alternates
        assert len(deal["points"]) == 2
        assert all(isinstance(p, int) and p >= 0 for p in deal["points"])
        for seat, name in deal["actions"]:
            assert seat in (0, 1) and name in names
        # a deal ends when all twelve tricks (24 cards) are played
        assert sum(name.startswith("play ") for _, name in deal["actions"]) == 24
    assert sum(len(d["actions"]) for d in rec["deals"]) == n_actions


def test_aec__record_totals_are_the_sum_of_deal_points():
    rec = random_record(8)
    totals = [sum(d["points"][s] for d in rec["deals"]) for s in range(2)]
    assert rec["result"]["totals"] == totals


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "config", [{}, {"partie": "four_deals", "first_exchanger": "dealer"}, {"episode": "deal"}]
)
def test_aec__replay_reproduces_the_record(seed, config):
    rec = random_record(seed, **config)
    out = replay(rec)
    assert out == rec
    assert replay(json.loads(json.dumps(rec))) == rec


def test_aec__replay_stays_callable_after_use():
    rec = random_record(16, episode="deal")
    assert cardenvs.replay(rec) == rec
    # the first call must not replace the function by the ``cardenvs.replay`` module
    assert callable(cardenvs.replay)
    assert cardenvs.replay(rec) == rec


def _tamper_action(rec, deal, index, name):
    rec = copy.deepcopy(rec)
    rec["deals"][deal]["actions"][index][1] = name
    return rec


def test_aec__replay_detects_a_changed_action():
    rec = random_record(12)
    # "look" is never legal as elder's first exchange action
    bad = _tamper_action(rec, 0, 0, "look")
    with pytest.raises(ValueError, match="deal 0, action 0"):
        replay(bad)
    # a play action changed into "stop" in a later deal
    last = len(rec["deals"]) - 1
    j = len(rec["deals"][last]["actions"]) - 1
    bad = _tamper_action(rec, last, j, "stop")
    with pytest.raises(ValueError, match=f"deal {last}, action {j}"):
        replay(bad)


def test_aec__replay_detects_a_changed_seat():
    rec = copy.deepcopy(random_record(13))
    seat = rec["deals"][1]["actions"][0][0]
    rec["deals"][1]["actions"][0][0] = 1 - seat
    with pytest.raises(ValueError, match="deal 1, action 0"):
        replay(rec)


def test_aec__replay_detects_changed_points_deck_and_result():
    rec = random_record(14)
    bad = copy.deepcopy(rec)
    bad["deals"][2]["points"][0] += 1
    with pytest.raises(ValueError, match="points"):
        replay(bad)
    bad = copy.deepcopy(rec)
    d = bad["deals"][1]["deck"]
    d[0], d[1] = d[1], d[0]
    with pytest.raises(ValueError, match="deal 1: deck"):
        replay(bad)
    bad = copy.deepcopy(rec)
    bad["result"]["points"] += 1
    with pytest.raises(ValueError, match="result"):
        replay(bad)


@pytest.mark.parametrize(
    "change",
    [
        lambda r: "not a record",
        lambda r: {k: v for k, v in r.items() if k != "deals"},
        lambda r: r | {"version": 9},
        lambda r: r | {"deals": []},
    ],
    ids=["not-a-dict", "no-deals", "unknown-version", "empty-deals"],
)
def test_aec__replay_rejects_malformed_records(change):
    rec = random_record(15, episode="deal")
    with pytest.raises(ValueError):
        replay(change(copy.deepcopy(rec)))


# --- rendering and repr --------------------------------------------------------------------------
def test_aec__render_ansi_returns_text():
    env = cardenvs.make(ENV_ID, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.strip()
    g = np.random.default_rng(0)
    for _ in range(20):
        env.step(int(g.choice(env.unwrapped.legal_actions())))
    later = env.render()
    assert isinstance(later, str) and later.strip() and later != text


def test_aec__render_human_prints(capsys):
    env = cardenvs.make(ENV_ID, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert capsys.readouterr().out.strip()


def test_aec__repr_names_the_game_and_config():
    env = cardenvs.make(ENV_ID, episode="deal")
    text = repr(env.unwrapped)
    assert "piquet-v0" in text
    assert "episode='deal'" in text
    assert "piquet" in str(env)
