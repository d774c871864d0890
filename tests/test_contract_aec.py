"""The contract of every id as a PettingZoo AEC env (docs/testing.md, layer 4), written once and
run on every id and its main configs (``contract_cases``): PettingZoo's ``api_test`` and
``seed_test`` and its registry; spaces, masks and rewards over whole random games; action names;
illegal and out-of-space actions; reset options; seeding; records and replays; copies; render.

The per-game modules keep what is particular to a game: its rules, worked deals, its legal
moves and reward table checked against a reference reading (hypothesis), leaks of its hidden
information. ``pytest -k <id>`` (or ``-k piquet``) selects one game's cases.
"""

from __future__ import annotations

import copy
import functools
import json
import pickle

import numpy as np
import pettingzoo
import pytest
from contract_cases import (
    API_CYCLES,
    BAD_ACTION_NAMES,
    BAD_CONFIG_CASES,
    BAD_RESET_KINDS,
    DEFAULT_SEATS,
    GENERIC_BAD_ACTION_NAMES,
    ID_PARAMS,
    IDS,
    MAIN_CASES,
    RANDOM_GAME_CASES,
    RECORD_CASES,
    RECORD_DEFAULTS,
    RENDER_WORDS,
    RESET_SEATS,
    SEAT_CASES,
    SEED_CASES,
    SEED_CYCLES,
    SHORT_GAME,
    bad_reset_options,
)
from harness import (
    aec_action,
    assert_aec_play_alike,
    assert_row_matches_env,
    play_to_end,
    random_record,
)
from pettingzoo.test import api_test, seed_test

import cardenvs


def num_actions(env_id: str) -> int:
    return cardenvs.game_info(env_id).num_actions


def deck_of(env_id: str, seed: int = 0, **config) -> list[str]:
    """A deck order of ``env_id`` (the first deal of ``seed``), jokers last (a joker dealt to a
    hand is set aside, so a deck with jokers in the hands is not recorded as given)."""
    return list(_deck_of(env_id, seed, json.dumps(config, sort_keys=True)))


@functools.lru_cache
def _deck_of(env_id: str, seed: int, config: str) -> tuple[str, ...]:
    env = cardenvs.make(env_id, **json.loads(config))
    env.reset(seed=seed)
    deck = env.unwrapped.record()["deals"][0]["deck"]
    return tuple([c for c in deck if c != "JK"] + [c for c in deck if c == "JK"])


def illegal_action(env) -> int:
    """The first action the agent to act may not take."""
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])


def walk(env, rng, steps: int) -> None:
    for _ in range(steps):
        env.step(aec_action(env, rng))


# --- PettingZoo conformance ----------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:.*reset ignores unknown option")
@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize(("env_id", "config"), MAIN_CASES)
def test_contract__pettingzoo_api_test(env_id, config):
    env = cardenvs.make(env_id, **config)
    api_test(env, num_cycles=API_CYCLES.get(env_id, 300), verbose_progress=False)


@pytest.mark.parametrize(("env_id", "config"), SEED_CASES)
def test_contract__pettingzoo_seed_test(env_id, config):
    seed_test(lambda: cardenvs.make(env_id, **config), num_cycles=SEED_CYCLES.get(env_id, 300))


@pytest.mark.parametrize(("env_id", "config"), SEAT_CASES)
def test_contract__registered_with_pettingzoo(env_id, config):
    assert env_id in cardenvs.GAMES
    env = pettingzoo.make("aec", f"cardenvs/{env_id}", **config)
    assert isinstance(env.unwrapped, pettingzoo.AECEnv)
    env.reset(seed=0)
    p = cardenvs.make_vector(env_id, 1, **config).num_seats
    agents = [f"player_{i}" for i in range(p)]
    assert env.possible_agents == agents and env.agents == agents
    assert env.agent_selection in agents
    assert env.unwrapped.metadata["name"] == env_id.replace("-", "_")
    for key, value in config.items():
        assert getattr(env.unwrapped.config, key) == value
    obs_dim = cardenvs.make_vector(env_id, 1, **config).obs_dim
    for a in agents:
        assert env.action_space(a).n == num_actions(env_id)
        assert env.observation_space(a).contains(env.observe(a))
        assert env.observe(a)["observation"].shape == (obs_dim,)


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__registry_default_seats_and_unknown_ids(env_id):
    default = pettingzoo.make("aec", f"cardenvs/{env_id}")
    default.reset(seed=0)
    assert len(default.possible_agents) == DEFAULT_SEATS[env_id]
    assert cardenvs.make(f"cardenvs/{env_id}").metadata["name"] == env_id.replace("-", "_")
    deal = pettingzoo.make("aec", f"cardenvs/{env_id}", episode="deal")
    assert deal.unwrapped.config.episode == "deal"
    unknown = env_id.replace("-v0", "-v9")
    for make in (cardenvs.make, cardenvs.make_vector, cardenvs.game_info):
        with pytest.raises(ValueError, match=unknown) as e:
            make(unknown)
        assert all(repr(i) in str(e.value) for i in IDS)  # the error lists the ids


# --- spaces, masks and rewards over a whole random game ------------------------------------------
@pytest.mark.parametrize(("env_id", "config"), RANDOM_GAME_CASES)
def test_contract__random_game_masks_spaces_and_rewards(env_id, config):
    """A whole game of random legal play: every agent's observation is a float32 vector inside
    its space and its mask an int8 vector of the action space's size; the agent to act has a
    non-empty mask equal to ``legal_actions()``, every other agent an empty one; no reward
    before the end; at the end every mask is empty, ``last()`` gives each agent its reward, the
    rewards sum to zero and partners (``sides``) share theirs, and the record has a result."""
    env = cardenvs.make(env_id, **config)
    core = env.unwrapped
    env.reset(seed=7)
    a_n, rng = num_actions(env_id), np.random.default_rng(7)
    partners = [list(side) for side in core.sides]
    final, live = None, 0
    for agent in env.agent_iter(max_iter=200_000):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            if final is None:
                final = dict(env.rewards)
                for a in env.possible_agents:
                    assert not env.observe(a)["action_mask"].any(), f"{a}: mask after the end"
            assert reward == final[agent], f"{agent}: last() {reward}, rewards {final}"
            env.step(None)
            continue
        live += 1
        assert reward == 0 and not any(env.rewards.values()), f"step {live}: a reward"
        assert isinstance(info, dict) and not info.get("illegal_move")
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size, f"{agent}: empty mask before the end (step {live})"
        assert legal.tolist() == sorted(core.legal_actions())
        for a in env.possible_agents:
            o = env.observe(a)
            assert o["observation"].dtype == np.float32 and o["action_mask"].dtype == np.int8
            assert o["action_mask"].shape == (a_n,)
            assert env.observation_space(a).contains(o), f"{a}: observation outside its space"
            if a != agent:
                assert not o["action_mask"].any(), f"{a} may act out of turn"
        env.step(int(rng.choice(legal)))
    assert final is not None and not env.agents, "the game did not end"
    for action in (None, 0):
        with pytest.raises(ValueError):
            env.step(action)  # the game is over
    assert set(final) == set(env.possible_agents) and live > 0
    assert abs(sum(final.values())) < 1e-4, f"not zero-sum: {final}"
    for side in partners:
        assert len({final[a] for a in side}) == 1, f"partners {side}: {final}"
    assert core.record()["result"] is not None


# --- action names --------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__action_names_round_trip_in_any_spelling(env_id):
    """Every action has one name; ``action_id`` gives the id back from the name in any case,
    with spaces around it and with ``T`` for a ten; the AEC env, the batched engine and
    ``game_info`` agree."""
    core = cardenvs.make(env_id).unwrapped
    vec = cardenvs.make_vector(env_id, 1)
    names = [core.action_name(a) for a in range(num_actions(env_id))]
    assert len(set(names)) == len(names)
    assert tuple(names) == tuple(cardenvs.game_info(env_id).action_names)
    for a, name in enumerate(names):
        assert core.action_id(name) == a
        assert vec.action_name(a) == name and vec.action_id(name) == a
        variants = {
            name.upper(),
            name.lower(),
            name.swapcase(),
            name[:1].upper() + name[1:],  # "Play QS"
            name[:-1] + name[-1].lower(),  # "play Qs"
            f"  {name} ",
            name.replace("10", "T"),
            name.replace("10", "T").lower(),  # "discard th"
        }
        for variant in variants:
            assert core.action_id(variant) == a, variant
            assert core.action_name(core.action_id(variant)) == name


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__unknown_action_names_and_bad_ids_raise(env_id):
    core = cardenvs.make(env_id).unwrapped
    vec = cardenvs.make_vector(env_id, 1)
    for bad in GENERIC_BAD_ACTION_NAMES + BAD_ACTION_NAMES[env_id]:
        for action_id in (core.action_id, vec.action_id):
            with pytest.raises(ValueError, match="unknown action"):
                action_id(bad)
    n = num_actions(env_id)
    for bad in (-1, n, 999, 1.0, "3", None, True):
        for action_name in (core.action_name, vec.action_name):
            with pytest.raises(ValueError, match=f"0..{n - 1}"):
                action_name(bad)


# --- illegal and out-of-space actions ------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "config"), SEAT_CASES)
def test_contract__illegal_action_penalizes_the_offender_only_then_a_new_game_plays(env_id, config):
    env = cardenvs.make(env_id, **config)
    env.reset(seed=3)
    offender = env.agent_selection
    bad = illegal_action(env)
    env.step(bad)
    expected = {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    assert env.rewards == expected
    assert all(env.terminations.values())
    assert env.infos[offender]["illegal_move"] is True
    assert not any(env.infos[a].get("illegal_move") for a in env.possible_agents if a != offender)
    for a in env.possible_agents:
        assert not env.observe(a)["action_mask"].any(), a
    seat = env.unwrapped.agent_name_mapping[offender]
    assert env.unwrapped.record()["result"] == {"illegal_move": seat, "action": bad}
    with pytest.raises(ValueError):
        env.step(0)  # a dead agent steps None
    seen = {}
    for agent in env.agent_iter():
        seen[agent] = env.last()[1]
        env.step(None)
    assert seen == expected and env.agents == []
    for action in (None, 0):
        with pytest.raises(ValueError):
            env.step(action)  # the game is over
    # a new game plays as usual
    env.reset(seed=4)
    assert not any(env.terminations.values())
    assert not any(info.get("illegal_move") for info in env.infos.values())
    rng, final = np.random.default_rng(1), {}
    for agent in env.agent_iter():
        if env.terminations[agent] or env.truncations[agent]:
            final[agent] = env.last()[1]
        env.step(aec_action(env, rng))
    assert set(final) == set(env.possible_agents) and abs(sum(final.values())) < 1e-4
    assert "illegal_move" not in env.unwrapped.record()["result"]


@pytest.mark.parametrize("steps", [0, 9])
@pytest.mark.parametrize(("env_id", "config"), SEAT_CASES)
def test_contract__illegal_action_raises_when_asked_and_changes_nothing(env_id, config, steps):
    env = cardenvs.make(env_id, illegal_action="raise", **config)
    core = env.unwrapped
    env.reset(seed=5)
    walk(env, np.random.default_rng(5), steps)
    agent = env.agent_selection
    before_obs = {a: env.observe(a) for a in env.possible_agents}
    before_record, before_state = core.record(), core.state_copy()
    legal = core.legal_actions()
    bad = illegal_action(env)
    with pytest.raises(ValueError) as e:
        env.step(bad)
    msg = str(e.value)
    assert agent in msg and core.action_name(bad) in msg
    for a in legal:
        assert core.action_name(a) in msg
    assert env.agent_selection == agent and not any(env.terminations.values())
    assert core.record() == before_record
    for x, y in zip(core.state_copy(), before_state, strict=True):
        assert np.array_equal(x, y)
    for a in env.possible_agents:
        now = env.observe(a)
        assert np.array_equal(now["observation"], before_obs[a]["observation"])
        assert np.array_equal(now["action_mask"], before_obs[a]["action_mask"])
    env.step(legal[0])  # the same agent plays on
    last = [d for d in core.record()["deals"] if d["actions"]][-1]["actions"][-1]
    assert last == [core.agent_name_mapping[agent], core.action_name(legal[0])]


@pytest.mark.parametrize("mode", ["penalize", "raise"])
@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__an_action_outside_the_space_raises_and_the_game_goes_on(env_id, mode):
    n = num_actions(env_id)
    env = cardenvs.make(env_id, illegal_action=mode)
    env.reset(seed=0)
    agent = env.agent_selection
    for bad in (999, n, -1, "x", 2.0, 1.5, None, True, np.int64(n), [0], np.array(0)):
        with pytest.raises(ValueError, match=f"0..{n - 1}"):
            env.step(bad)
    # a name is not an action: the error names the method that turns it into one
    name = env.unwrapped.action_name(env.unwrapped.legal_actions()[0])
    with pytest.raises(ValueError) as e:
        env.step(name)
    assert f"env.unwrapped.action_id({name!r})" in str(e.value)
    assert f"0..{n - 1}" in str(e.value) and str(e.value).startswith(f"{agent}: ")
    with pytest.raises(ValueError, match=r"action_id\('x+\.\.\.x+'\)") as e:
        env.step("x" * 10_000)  # a huge name is cut short
    assert len(str(e.value)) < 300
    assert env.agent_selection == agent and not any(env.terminations.values())
    env.step(env.unwrapped.legal_actions()[0])


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__bad_constructor_arguments_raise(env_id):
    with pytest.raises(ValueError, match="illegal_action"):
        cardenvs.make(env_id, illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        cardenvs.make(env_id, render_mode="rgb")


@pytest.mark.parametrize(("env_id", "config", "words"), BAD_CONFIG_CASES)
def test_contract__bad_config_raises_naming_the_option(env_id, config, words):
    for make in (
        lambda: cardenvs.make(env_id, **config),
        lambda: cardenvs.make_vector(env_id, 2, **config),
    ):
        with pytest.raises(ValueError) as e:
            make()
        for text in words:
            assert text in str(e.value), (text, str(e.value))


# --- reset options -------------------------------------------------------------------------------
def reset_cases():
    out = []
    for env_id in IDS:
        for p in RESET_SEATS.get(env_id, [None]):
            for kind in BAD_RESET_KINDS:
                tag = f"{env_id}-{kind}" + (f"-{p}p" if p else "")
                out.append(pytest.param(env_id, p, kind, id=tag))
    return out


@pytest.mark.parametrize(("env_id", "num_players", "kind"), reset_cases())
def test_contract__bad_reset_options_raise(env_id, num_players, kind):
    config = {} if num_players is None else {"num_players": num_players}
    deck = deck_of(env_id, **config)
    p = cardenvs.make_vector(env_id, 1, **config).num_seats
    name = cardenvs.game_info(env_id).deck.name
    table = bad_reset_options(deck, p, name)
    found = {k: v for k, v in table.items() if k == kind or k.startswith(f"{kind}-")}
    if kind == "deck-foreign" and "JK" in deck:
        found = {k: v for k, v in table.items() if "joker" in k}
    assert found, kind
    for options, words in found.values():
        for make in (
            lambda: cardenvs.make(env_id, **config),
            lambda: cardenvs.make_vector(env_id, 2, **config),
        ):
            with pytest.raises(ValueError) as e:
                make().reset(seed=0, options=options)
            for text in words:
                assert text in str(e.value), (text, str(e.value))
    # the highest dealer is fine
    cardenvs.make(env_id, **config).reset(seed=0, options={"deck": deck, "dealer": p - 1})


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__reset_options_must_be_a_dict_and_unknown_ones_are_named(env_id):
    deck = deck_of(env_id)
    env = cardenvs.make(env_id)
    vec = cardenvs.make_vector(env_id, 2)
    for engine in (env, vec):
        with pytest.raises(ValueError, match="options must be a dict"):
            engine.reset(seed=0, options="deck")
    # the AEC env warns and goes on (PettingZoo's api_test resets with options={"options": 1});
    # the batched engine refuses
    for options in ({"dealers": 0}, {"deck": deck, "shuffle": False}, {"options": 1}):
        with pytest.warns(UserWarning, match="unknown option"):
            env.reset(seed=0, options=options)
        if "deck" in options:
            assert env.unwrapped.record()["deals"][0]["deck"] == deck
        assert env.agents == env.possible_agents
        unknown = next(k for k in options if k not in ("deck", "dealer"))
        with pytest.raises(ValueError, match="unknown reset option") as e:
            vec.reset(seed=0, options=options)
        assert repr(unknown) in str(e.value)


@pytest.mark.parametrize(("env_id", "config"), SEAT_CASES)
def test_contract__deck_and_dealer_fix_the_first_deal_only(env_id, config):
    """The deck (any case, ``T`` for ten) and the dealer are recorded canonically; only the
    first deal is fixed, the seed deals the rest: the same seed plays the same game, another
    seed another second deal (each game played until its second deal is dealt)."""
    deck = deck_of(env_id, seed=99, **config)
    p = cardenvs.make_vector(env_id, 1, **config).num_seats
    spelled = [c.replace("10", "T").lower() for c in deck]
    config = config | SHORT_GAME.get(env_id, {})
    recs = []
    for seed in (1, 1, 2):
        env = cardenvs.make(env_id, **config)
        env.reset(seed=seed, options={"deck": spelled, "dealer": p - 1})
        first = env.unwrapped.record()["deals"][0]
        assert first["deck"] == deck and first["dealer"] == p - 1
        rng = np.random.default_rng(0)
        while env.agents and len(env.unwrapped.record()["deals"]) < 2:
            env.step(aec_action(env, rng))
        recs.append(env.unwrapped.record())
    assert recs[0] == recs[1]
    assert cardenvs.replay(recs[0]) == recs[0]
    assert len(recs[0]["deals"]) == len(recs[2]["deals"]) == 2
    assert recs[0]["deals"][1]["deck"] != deck
    assert recs[0]["deals"][1]["deck"] != recs[2]["deals"][1]["deck"]


# --- seeding -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "config"), SEAT_CASES)
def test_contract__same_seed_same_game_other_seed_other_deal(env_id, config):
    def first_deal(seed):
        env = cardenvs.make(env_id, **config)
        env.reset(seed=seed)
        return env.unwrapped.record()["deals"][0]

    assert first_deal(21) == first_deal(21)
    assert first_deal(21)["deck"] != first_deal(22)["deck"]
    if env_id != "piquet-v0":  # whole games of the others: test_golden.py
        config = config | {"episode": "deal"}
    assert random_record(env_id, 4, **config) == random_record(env_id, 4, **config)


@pytest.mark.parametrize(("env_id", "config"), SEAT_CASES)
def test_contract__a_seedless_reset_plays_the_next_game_of_the_seed_like_the_engine(env_id, config):
    """``reset()`` without a seed plays the seed's next game: row 1 of an engine of seed 9 after
    its second reset is the AEC env of seed 10 after its second reset (state, observation and
    mask); each later game's record carries its episode and replays."""
    vec = cardenvs.make_vector(env_id, num_envs=2, seed=9, **config)
    first = [x.copy() for x in vec.state]
    vec.reset()
    obs, mask, info = vec.reset()
    assert any(not np.array_equal(x, y) for x, y in zip(first, vec.state, strict=True))
    env = cardenvs.make(env_id, **config)
    env.reset(seed=10)
    env.reset()
    assert_row_matches_env(env, vec, 1, obs[1], mask[1], info["current_player"][1])
    env = cardenvs.make(env_id, **config | {"episode": "deal"})
    rng = np.random.default_rng(0)
    records = []
    env.reset(seed=11)
    for _ in range(3):
        play_to_end(env, rng)
        records.append(env.unwrapped.record())
        env.reset()
    assert "episode" not in records[0]  # a seed's first game: the format before the field
    assert [r.get("episode") for r in records[1:]] == [1, 2]
    assert {r["seed"] for r in records} == {11}
    for record in records:
        assert cardenvs.replay(record) == record


# --- records and replays -------------------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "config", "seed"), RECORD_CASES)
def test_contract__record_is_json_complete_and_replays(env_id, config, seed):
    config = RECORD_DEFAULTS.get(env_id, {}) | config
    env = cardenvs.make(env_id, **config)
    env.reset(seed=seed)
    rng, steps = np.random.default_rng(seed), 0
    for _ in env.agent_iter():
        action = aec_action(env, rng)
        steps += action is not None
        env.step(action)
    rec = env.unwrapped.record()
    cfg = env.unwrapped.config
    p = len(env.possible_agents)
    assert json.loads(json.dumps(rec)) == rec
    assert set(rec) == {"game", "version", "config", "seed", "deals", "result"}
    info = cardenvs.game_info(env_id)
    assert rec["game"] == info.name and rec["version"] == info.version == 0
    assert rec["config"] == json.loads(json.dumps(cfg.to_dict()))
    assert cardenvs.make(env_id, **rec["config"]).unwrapped.config == cfg  # JSON lists too
    assert rec["seed"] == seed
    assert rec["result"] is not None and rec["deals"]
    names = set(info.action_names)
    deck = sorted(rec["deals"][0]["deck"])
    assert deck == sorted(deck_of(env_id, **config))
    for deal in rec["deals"]:
        assert {"deck", "dealer", "actions", "points"} <= set(deal)
        assert sorted(deal["deck"]) == deck
        assert 0 <= deal["dealer"] < p
        assert len(deal["points"]) == p and all(isinstance(x, int) for x in deal["points"])
        for seat, name in deal["actions"]:
            assert 0 <= seat < p and name in names
    assert sum(len(d["actions"]) for d in rec["deals"]) == steps
    assert cardenvs.replay(rec) == rec
    assert cardenvs.replay(json.loads(json.dumps(rec))) == rec


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__record_needs_a_reset_and_replay_stays_callable(env_id):
    env = cardenvs.make(env_id)
    with pytest.raises(RuntimeError, match="reset"):
        env.unwrapped.record()
    rec = random_record(env_id, 16, episode="deal")
    assert cardenvs.replay(rec) == rec
    assert callable(cardenvs.replay)  # not replaced by the ``cardenvs.replay`` module
    assert cardenvs.replay(rec) == rec


def illegal_name_at(rec: dict, deal: int, index: int) -> str:
    """The name of an action that is not legal at action ``index`` of deal ``deal`` of ``rec``
    (the game replayed to that point)."""
    env = cardenvs.make(rec["game"] + "-v0", **rec["config"])
    env.reset(seed=rec["seed"], options={"episode": rec.get("episode", 0)})
    core = env.unwrapped
    for d, dl in enumerate(rec["deals"]):
        for i, (_, name) in enumerate(dl["actions"]):
            if (d, i) == (deal, index):
                return core.action_name(illegal_action(env))
            env.step(core.action_id(name))
    raise AssertionError("no such action")


# multi-deal games of every id: the deal after the first can be tampered with
TAMPER_CONFIGS = {
    "piquet-v0": {},
    "piquet_au_cent-v0": {},
    "auction_piquet-v0": {},
    "esel-v0": {"num_players": 3, "max_hands": 3},
    "banque-v0": {"num_players": 3, "max_hands": 2},
    "four_aces-v0": {"num_players": 3, "max_rounds": 2},
    "piquet_normand-v0": {"target": 60},
    "partnership_piquet-v0": {"target": 60},
}


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__replay_detects_tampering(env_id):
    rec = next(
        r
        for seed in range(7, 40)
        if len((r := random_record(env_id, seed, **TAMPER_CONFIGS[env_id]))["deals"]) > 1
    )
    p = len(rec["result"].get("totals", rec["deals"][0]["points"]))
    last = len(rec["deals"]) - 1

    def refused(change, match):
        bad = copy.deepcopy(rec)
        change(bad)
        with pytest.raises(ValueError, match=match):
            cardenvs.replay(bad)

    for d, i in ((0, 0), (last, len(rec["deals"][last]["actions"]) - 1)):
        name = illegal_name_at(rec, d, i)
        refused(
            lambda r, d=d, i=i, name=name: r["deals"][d]["actions"][i].__setitem__(1, name),
            f"deal {d}, action {i}",
        )
    for d, i in ((0, 3), (1, 0)):

        def other_seat(r, d=d, i=i):
            r["deals"][d]["actions"][i][0] = (r["deals"][d]["actions"][i][0] + 1) % p

        refused(other_seat, f"deal {d}, action {i}")

    def points(r):
        r["deals"][last]["points"][0] += 1

    def deck(r):
        dk = r["deals"][1]["deck"]
        j = next(j for j in range(1, len(dk)) if dk[j] != dk[0])
        dk[0], dk[j] = dk[j], dk[0]

    def dealer(r):
        r["deals"][0]["dealer"] = (r["deals"][0]["dealer"] + 1) % p

    def result(r):
        res = r["result"]
        key = next(k for k, v in res.items() if isinstance(v, list) and v)
        res[key][0] = res[key][0] + 1 if isinstance(res[key][0], int) else 7

    refused(points, "points")
    refused(deck, "deal 1: deck")
    refused(dealer, "deal 0")
    refused(result, "result")
    for change in (
        lambda r: "not a record",
        lambda r: {k: v for k, v in r.items() if k != "deals"},
        lambda r: r | {"version": 9},
        lambda r: r | {"deals": []},
    ):
        with pytest.raises(ValueError):
            cardenvs.replay(change(copy.deepcopy(rec)))


# --- copies --------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__deep_copies_and_pickles_play_on_as_the_original(env_id):
    """A deep copy and a pickle of the AEC env, taken before reset and mid-game, play the same
    game to the end as the original; the copy's record replays; the game definition is shared;
    a shallow copy is refused."""
    env = cardenvs.make(env_id)
    fresh = pickle.loads(pickle.dumps(env))
    env.reset(seed=6)
    fresh.reset(seed=6)
    assert fresh.unwrapped.record() == env.unwrapped.record()
    with pytest.raises(TypeError, match="deepcopy"):
        copy.copy(env)
    walk(env, np.random.default_rng(0), 20)
    clone = pickle.loads(pickle.dumps(env))
    assert_aec_play_alike(env, clone, seed=4)
    deal = cardenvs.make(env_id, episode="deal")
    with pytest.raises(TypeError, match="deepcopy"):
        copy.copy(deal)
    deal.reset(seed=8)
    walk(deal, np.random.default_rng(1), 25)
    twin = copy.deepcopy(deal)
    assert twin.game is deal.game  # the game's definition is shared, not copied
    assert_aec_play_alike(deal, twin, seed=2)


# --- render and repr -----------------------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "config"), SEAT_CASES)
def test_contract__render_ansi_returns_text_and_human_prints_it(env_id, config, capsys):
    env = cardenvs.make(env_id, render_mode="ansi", **config)
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.strip()
    for word in RENDER_WORDS[env_id]:
        assert word in text, (word, text)
    p = len(env.possible_agents)
    walk(env, np.random.default_rng(0), 3 * p + 2)
    later = env.render()
    assert isinstance(later, str) and later.strip() and later != text
    assert all(f"player_{i}" in later for i in range(p))
    human = cardenvs.make(env_id, render_mode="human", **config)
    human.reset(seed=0)
    assert human.render() is None
    assert capsys.readouterr().out.strip()


@pytest.mark.parametrize("env_id", ID_PARAMS)
def test_contract__repr_names_the_game_and_config(env_id):
    env = cardenvs.make(env_id, episode="deal")
    text = repr(env.unwrapped)
    assert env_id in text and "episode='deal'" in text
    assert env_id.replace("-", "_") in str(env)
