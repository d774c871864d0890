"""Adversarial use of the public API (issue 30): config values of NumPy types, config errors that
name the id and tell a type error from a range error, malformed reset options and ids, the
single-agent wrapper's action checks, malformed and unusual game records (unfinished games,
games that ended on an illegal move), Four Aces' ``pair_value`` contract and PettingZoo's
registry."""

from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.wrappers import SingleAgentEnv

ROOT = Path(__file__).resolve().parent.parent


def config_cls(env_id):
    return cardenvs.game_info(env_id).config_cls


def numpy_kwargs(cls) -> dict:
    """Every option of ``cls`` at its default, as a NumPy value (Banque's triples as arrays)."""
    out = {}
    for f in dataclasses.fields(cls):
        d = f.default
        if isinstance(d, bool):
            out[f.name] = np.bool_(d)
        elif isinstance(d, int):
            out[f.name] = np.int64(d)
        elif isinstance(d, str):
            out[f.name] = np.str_(d)
        elif isinstance(d, tuple):
            out[f.name] = np.array(d, dtype=np.int64)
    return out


# --- 6. NumPy config values ----------------------------------------------------------------------
@pytest.mark.parametrize("env_id", cardenvs.GAMES)
def test_config__numpy_values_are_stored_as_plain_python(env_id):
    cls = config_cls(env_id)
    cfg = cls(**numpy_kwargs(cls))
    assert cfg == cls()
    for f in dataclasses.fields(cls):
        value = getattr(cfg, f.name)
        assert type(value) is type(f.default), f"{f.name}: {type(value)}"
        if isinstance(value, tuple):
            assert all(type(x) is int for x in value), f.name
    json.dumps(cfg.to_dict())  # a record's config must be JSON


def test_config__numpy_values_give_a_json_record():
    env = cardenvs.make(
        "piquet-v0",
        episode=np.str_("deal"),
        rubicon=np.int64(150),
        allow_sinking=np.bool_(False),
        partie=np.str_("four_deals"),
    )
    env.reset(seed=0)
    rec = env.unwrapped.record()
    assert json.loads(json.dumps(rec)) == rec
    assert rec["config"]["rubicon"] == 150 and type(rec["config"]["rubicon"]) is int


def test_config__banque_numpy_common_trumps_and_triples_give_a_json_config():
    cls = config_cls("banque-v0")
    cfg = cls(
        trump_option=np.int64(3),
        common_trumps=np.str_("H"),
        finish_bonus=np.array([25, 15, 5]),
        centre_card=np.bool_(False),
    )
    assert cfg.finish_bonus == (25, 15, 5) and type(cfg.common_trumps) is str
    assert json.loads(json.dumps(cfg.to_dict()))["common_trumps"] == "H"


@pytest.mark.parametrize("env_id", cardenvs.GAMES)
def test_config__one_element_arrays_for_string_options_are_refused(env_id):
    """Decision: an array is not a string, even with one element; refused, naming the option."""
    cls = config_cls(env_id)
    names = [f.name for f in dataclasses.fields(cls) if isinstance(f.default, str)]
    assert names
    for name in names:
        default = next(f.default for f in dataclasses.fields(cls) if f.name == name)
        with pytest.raises(ValueError, match=f"{env_id}: option {name}"):
            cls(**{name: np.array([default])})


# --- 11. config errors name the id; type errors are not range errors ------------------------------
@pytest.mark.parametrize(
    ("env_id", "config", "expected"),
    [
        ("piquet-v0", {"rubicon": "100"}, "piquet-v0: option rubicon must be an integer"),
        ("piquet-v0", {"rubicon": 5000}, "piquet-v0: option rubicon = 5000 is out of range"),
        ("piquet-v0", {"allow_sinking": "yes"}, "piquet-v0: option allow_sinking must be True"),
        ("piquet-v0", {"partie": 6}, "piquet-v0: option partie = 6 is not allowed"),
        (
            "piquet_normand-v0",
            {"target": "100"},
            "piquet_normand-v0: option target must be an integer",
        ),
        ("piquet_normand-v0", {"allow_sinking": True}, "piquet_normand-v0: option allow_sinking"),
        (
            "piquet_normand-v0",
            {"rubicon": 100},
            "unknown config option(s) ['rubicon'] for piquet_normand-v0",
        ),
        (
            "partnership_piquet-v0",
            {"point_minimum": 1.5},
            "partnership_piquet-v0: option point_minimum must be an integer",
        ),
        (
            "piquet_au_cent-v0",
            {"target": 40, "double_below": 50},
            "piquet_au_cent-v0: option double_below",
        ),
        ("auction_piquet-v0", {"allow_sinking": True}, "auction_piquet-v0: option allow_sinking"),
        ("esel-v0", {"common_trumps": "X"}, "esel-v0: option common_trumps"),
        ("esel-v0", {"trump_option": 3, "common_trumps": "HS"}, "esel-v0: option common_trumps"),
        ("banque-v0", {"common_trumps": 5}, "banque-v0: option common_trumps"),
        ("banque-v0", {"finish_bonus": (1, 2)}, "banque-v0: option finish_bonus"),
        ("four_aces-v0", {"pair_value": 0}, "four_aces-v0: option pair_value"),
    ],
)
def test_config__errors_name_the_env_id(env_id, config, expected):
    for make in (
        lambda: cardenvs.make(env_id, **config),
        lambda: cardenvs.make_vector(env_id, 2, **config),
    ):
        with pytest.raises(ValueError) as e:
            make()
        assert expected in str(e.value)
        assert "Config" not in str(e.value)


@pytest.mark.parametrize("value", ["100", 100.0, True, None, [100], np.array([100])])
def test_config__a_non_integer_is_a_type_error_not_out_of_range(value):
    with pytest.raises(ValueError) as e:
        cardenvs.make("piquet-v0", rubicon=value)
    assert "must be an integer" in str(e.value) and "out of range" not in str(e.value)
    assert "0..1000" in str(e.value)  # and what is allowed


@pytest.mark.parametrize(
    "value",
    [{0: 20, 1: 10, 2: 10}, {20, 10, 5}, (x for x in (20, 10, 10)), "abc", 20, [20, 10, 10.0]],
    ids=["dict", "set", "generator", "str", "int", "float"],
)
def test_config__banque_finish_bonus_must_be_three_integers(value):
    with pytest.raises(ValueError, match="banque-v0: option finish_bonus.*three integers"):
        config_cls("banque-v0")(finish_bonus=value)


# --- 11. ids --------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [["piquet-v0"], ("piquet-v0",), {"piquet-v0": 1}, 3, b"piquet-v0"])
@pytest.mark.parametrize("call", ["make", "make_vector", "game_info"])
def test_registry__a_non_string_id_is_a_value_error_listing_the_ids(bad, call):
    with pytest.raises(ValueError) as e:
        getattr(cardenvs, call)(bad)
    assert "piquet-v0" in str(e.value) and "banque-v0" in str(e.value)


def test_registry__a_long_unknown_id_is_quoted_cut_short():
    with pytest.raises(ValueError) as e:
        cardenvs.make("x" * 1_000_000)
    assert len(str(e.value)) < 1000 and "piquet-v0" in str(e.value)


def test_registry__every_id_maps_to_its_game_def_and_one_set_of_front_ends():
    import importlib

    from cardenvs.core.aec import CardAECEnv, FrontEnds
    from cardenvs.core.game import GameDef
    from cardenvs.core.vector import CardVectorEnv
    from cardenvs.registry import REGISTRY, classes, lookup

    seen = set()
    for env_id in cardenvs.GAMES:
        game, defaults = lookup(env_id)
        assert isinstance(game, GameDef) and cardenvs.game_info(env_id) is game
        assert f"{game.name}-v{game.version}" == env_id
        vector_cls, env_cls, _ = classes(env_id)
        assert issubclass(vector_cls, CardVectorEnv) and issubclass(env_cls, CardAECEnv)
        assert vector_cls.game is game and env_cls.vector_cls is vector_cls
        # the classes are reachable where they say they live (so they pickle), and the package
        # holds nothing but the factory's: no hand-written env or engine class
        package = importlib.import_module(REGISTRY[env_id][0])
        assert game.module == package.__name__ and isinstance(package.FRONT_ENDS, FrontEnds)
        assert package.FRONT_ENDS[:2] == (vector_cls, env_cls)
        assert getattr(package, vector_cls.__name__) is vector_cls
        assert getattr(package, env_cls.__name__) is env_cls
        assert not hasattr(package, "VECTOR_CLASS")
        assert type(cardenvs.make(env_id)) is env_cls
        assert type(cardenvs.make_vector(env_id, 2, seed=0)) is vector_cls
        seen.add(vector_cls)
    assert len(seen) == len(cardenvs.GAMES)


# --- 11. reset options --------------------------------------------------------------------------
def piquet_order() -> list[str]:
    from cardenvs.core.cards import format_cards

    return format_cards(cardenvs.game_info("piquet-v0").deck.cards).split()


@pytest.mark.parametrize(
    "deck",
    [
        {"a": 1},
        {c: i for i, c in enumerate(piquet_order())},
        7,
        3.5,
        set(piquet_order()),
        (c for c in piquet_order()),
        np.array(1),
        [piquet_order(), {"a": 1}, piquet_order()],
    ],
    ids=["dict", "dict-of-cards", "int", "float", "set", "generator", "0-d-array", "row-dict"],
)
def test_reset__a_deck_of_the_wrong_kind_is_a_value_error(deck):
    venv = cardenvs.make_vector("piquet-v0", 3, seed=0)
    with pytest.raises(ValueError, match="deck order") as e:
        venv.reset(seed=0, options={"deck": deck})
    assert "list" in str(e.value)  # what is allowed
    env = cardenvs.make("piquet-v0")
    with pytest.raises(ValueError, match="deck order"):
        env.reset(seed=0, options={"deck": deck})


def test_reset__deck_check_order_refuses_other_kinds():
    deck = cardenvs.game_info("piquet-v0").deck
    for bad in ({c: 1 for c in piquet_order()}, 7, (c for c in piquet_order()), None):
        with pytest.raises(ValueError, match="deck order must be a string of cards or a list"):
            deck.check_order(bad)
    assert deck.check_order(np.array(piquet_order())).size == 32


def test_reset__a_list_of_the_wrong_number_of_orders_names_the_row_count():
    venv = cardenvs.make_vector("piquet-v0", 3, seed=0)
    with pytest.raises(ValueError, match=r"2 deck orders.*one per row \(3"):
        venv.reset(seed=0, options={"deck": [piquet_order()] * 2})


@pytest.mark.parametrize("dealer", [[0, 1], [0, 1, 1, 0], np.array([0, 1]), (1,) * 5])
def test_reset__a_dealer_list_of_the_wrong_length_is_a_clear_value_error(dealer):
    venv = cardenvs.make_vector("piquet-v0", 3, seed=0)
    with pytest.raises(ValueError) as e:
        venv.reset(seed=0, options={"dealer": dealer})
    msg = str(e.value)
    assert "one per row (3" in msg and "broadcast" not in msg


@pytest.mark.parametrize("dealer", [{0: 1}, "0", 1.0, True, [0, "1", 0], [[0], [1], [0]], 2])
def test_reset__a_dealer_of_the_wrong_kind_is_a_value_error(dealer):
    venv = cardenvs.make_vector("piquet-v0", 3, seed=0)
    with pytest.raises(ValueError, match=r"dealer must be a seat in 0..1"):
        venv.reset(seed=0, options={"dealer": dealer})


# --- 10. SingleAgentEnv actions -------------------------------------------------------------------
@pytest.mark.parametrize("illegal_action", ["penalize", "raise"])
@pytest.mark.parametrize(
    "action", [1.5, 2.0, True, np.True_, "3", None, -1, 88, np.int64(88), [0], np.array(0)]
)
def test_single_agent__actions_are_checked_like_the_aec_env(action, illegal_action):
    """Only ints and NumPy integers in the action space; anything else raises ``ValueError``
    whatever ``illegal_action`` says (as ``CardAECEnv.step``), and the episode goes on."""
    env = SingleAgentEnv("piquet-v0", illegal_action=illegal_action, episode="deal")
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"action must be an integer in 0..87"):
        env.step(action)
    legal = np.flatnonzero(env.action_masks())
    _, r, done, _, info = env.step(np.int64(legal[0]))  # still playable; NumPy ints are fine
    assert "illegal_move" not in info


def test_single_agent__a_masked_out_action_follows_illegal_action():
    env = SingleAgentEnv("piquet-v0", episode="deal")
    env.reset(seed=0)
    masked = int(np.flatnonzero(~env.action_masks())[0])
    _, r, done, _, info = env.step(np.int64(masked))
    assert r == -1.0 and done and info["illegal_move"]
    env = SingleAgentEnv("piquet-v0", illegal_action="raise", episode="deal")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        env.step(masked)


def test_single_agent__an_opponent_action_is_checked_too():
    class Floaty:
        def act(self, observation, action_mask):
            return float(np.flatnonzero(action_mask)[0])

    env = SingleAgentEnv("piquet-v0", seat=1, opponents=Floaty(), episode="deal")
    with pytest.raises(ValueError, match="opponent in seat 0: action must be an integer"):
        env.reset(seed=0)
        for _ in range(200):  # until the opponent is to act
            env.step(int(np.flatnonzero(env.action_masks())[0]))


# --- 8. replay ------------------------------------------------------------------------------------
def play(env, rng, steps=None, illegal_at=None):
    """Random legal actions (an illegal one at step ``illegal_at``) until the end or ``steps``."""
    k = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        if steps is not None and k == steps:
            return
        mask = obs["action_mask"]
        if k == illegal_at:
            env.step(int(np.flatnonzero(mask == 0)[0]))
        else:
            env.step(int(rng.choice(np.flatnonzero(mask))))
        k += 1
        assert agent is not None


def record(seed=5, steps=None, illegal_at=None, env_id="piquet-v0", **config):
    env = cardenvs.make(env_id, **config)
    env.reset(seed=seed)
    play(env, np.random.default_rng(seed), steps, illegal_at)
    return env.unwrapped.record()


@pytest.fixture(scope="module")
def deal_record():
    return record(episode="deal")


@pytest.fixture(scope="module")
def game_record():
    rec = record(seed=6)
    assert len(rec["deals"]) >= 6
    return rec


def test_replay__a_finished_game_must_carry_its_result(deal_record):
    assert cardenvs.replay(deal_record) == deal_record
    for bad in (
        deal_record | {"result": None},
        {k: v for k, v in deal_record.items() if k != "result"},
    ):
        with pytest.raises(ValueError, match="result"):
            cardenvs.replay(bad)


def test_replay__an_unfinished_game_replays_and_must_stay_unfinished(deal_record, game_record):
    first = len(record(seed=9)["deals"][0]["actions"])
    rec = record(seed=9, steps=first + 5)  # inside the second deal
    assert rec["result"] is None and len(rec["deals"]) == 2 and "points" not in rec["deals"][-1]
    assert cardenvs.replay(rec) == rec
    assert cardenvs.replay(json.loads(json.dumps(rec))) == rec
    # a finished game dressed as an unfinished one: the replay ends it
    bad = copy.deepcopy(deal_record) | {"result": None}
    del bad["deals"][-1]["points"]
    with pytest.raises(ValueError, match="deal 0: the replay's deal ended.*unfinished"):
        cardenvs.replay(bad)
    # an unfinished game claiming a result
    bad = copy.deepcopy(rec) | {"result": game_record["result"]}
    with pytest.raises(ValueError, match="points"):
        cardenvs.replay(bad)


@pytest.mark.parametrize("version", ["0", 0.0, True, None, [0]])
def test_replay__version_must_be_an_int(deal_record, version):
    with pytest.raises(ValueError, match="version"):
        cardenvs.replay(deal_record | {"version": version})


@pytest.mark.parametrize(
    "extra",
    [
        {"render_mode": "human"},
        {"render_mode": "ansi"},
        {"render_mode": "rgb_array"},
        {"render_seat": 0},
        {"illegal_action": "penalize"},
    ],
)
def test_replay__never_renders_and_takes_only_config_options(deal_record, extra, capsys):
    bad = copy.deepcopy(deal_record)
    bad["config"].update(extra)
    with pytest.raises(ValueError, match=f"unknown config option.*{next(iter(extra))}"):
        cardenvs.replay(bad)
    assert capsys.readouterr().out == ""


def test_replay__long_user_values_are_cut_short_in_messages(deal_record):
    big = "x" * 50_000_000
    bads = [
        deal_record | {"game": big},
        deal_record | {"version": big},
        deal_record | {"seed": big},
        deal_record | {"config": deal_record["config"] | {"partie": big}},
        deal_record | {"config": deal_record["config"] | {big: 1}},
    ]
    deal = copy.deepcopy(deal_record)
    deal["deals"][0]["actions"][0][1] = big
    bads.append(deal)
    deal = copy.deepcopy(deal_record)
    deal["deals"][0]["deck"][0] = big
    bads.append(deal)
    for bad in bads:
        with pytest.raises(ValueError) as e:
            cardenvs.replay(bad)
        assert len(str(e.value)) < 2000


WRONG = [
    None,
    True,
    1.5,
    -1,
    10**30,
    "x",
    "",
    [],
    [None],
    [[1, 2, 3]],
    {},
    {"a": 1},
    ("x",),
    float("nan"),
]


def mutations(rec):
    """(label, mutated copy) pairs: every field of the record, its config, its first and last
    deal, their first elements and the result, replaced by each wrong value or removed."""
    sites = [((), k) for k in rec]
    sites += [(("config",), k) for k in ("episode", "rubicon", "partie")]
    for i in (0, len(rec["deals"]) - 1):
        sites += [(("deals", i), k) for k in rec["deals"][i]]
        sites += [(("deals", i, key), 0) for key in ("deck", "actions", "points")]
        sites += [(("deals", i, "actions", 0), j) for j in (0, 1)]
    sites += [(("deals",), 0)]
    sites += [(("result",), k) for k in rec["result"]]
    for path, key in sites:
        for value in [*WRONG, "delete"]:
            if value == "delete" and path == ("config",):
                continue  # a missing option takes its default: may replay the same game
            if value is None and key == "seed":
                continue  # allowed (a drawn seed); the first deal's deck comes with the record
            bad = copy.deepcopy(rec)
            node = bad
            for p in path:
                node = node[p]
            if value == "delete":
                del node[key]
            else:
                node[key] = value
            yield f"{path}[{key!r}] = {value!r}", bad


def structural_mutations(rec):
    """Deals added, removed or cut: the replay runs out of deals or out of actions."""
    out = []
    bad = copy.deepcopy(rec)
    bad["deals"].append(copy.deepcopy(bad["deals"][0]))
    out.append(("a deal added", bad))
    bad = copy.deepcopy(rec)
    del bad["deals"][-1]
    out.append(("the last deal removed", bad))
    bad = copy.deepcopy(rec)
    del bad["deals"][0]["actions"][-3:]
    out.append(("deal 0 cut short", bad))
    bad = copy.deepcopy(rec)
    bad["deals"][0]["actions"].append(bad["deals"][1]["actions"].pop(0))
    out.append(("an action moved into deal 0", bad))
    bad = copy.deepcopy(rec)
    bad["deals"][0]["actions"].append([0, "stop"])
    out.append(("an action after the end of deal 0", bad))
    bad = copy.deepcopy(rec)
    bad["deals"][-1]["actions"].append([0, "stop"])
    out.append(("an action after the end of the game", bad))
    bad = copy.deepcopy(rec)
    bad["deals"] = bad["deals"][:1]
    out.append(("only the first deal", bad))
    return out


def test_replay__fuzzed_records_raise_only_value_error(deal_record, game_record):
    """Each field replaced by a value of a wrong type, or removed: ``replay`` raises
    ``ValueError`` (never ``KeyError``, ``IndexError``, ``TypeError`` ...) and accepts none."""
    cases = list(mutations(deal_record)) + structural_mutations(game_record)
    assert len(cases) > 300
    for label, bad in cases:
        try:
            cardenvs.replay(bad)
        except ValueError:
            continue
        except Exception as e:  # noqa: BLE001 - the point of the test
            raise AssertionError(f"{label}: {type(e).__name__}: {e}") from e
        raise AssertionError(f"{label}: accepted")


def test_replay__other_top_level_keys_are_ignored(deal_record):
    assert cardenvs.replay(deal_record | {"note": "a comment"})["result"] == deal_record["result"]


# --- the illegal-move ending ----------------------------------------------------------------------
@pytest.mark.parametrize(("illegal_at", "config"), [(0, {}), (7, {"episode": "deal"}), (75, {})])
def test_replay__a_game_that_ended_on_an_illegal_move_replays(illegal_at, config):
    rec = record(seed=11, illegal_at=illegal_at, **config)
    assert set(rec["result"]) == {"illegal_move", "action"}
    assert cardenvs.replay(rec) == rec
    assert cardenvs.replay(json.loads(json.dumps(rec))) == rec
    # the illegal move must be the seat to act's, illegal there, in the action space
    seat, action = rec["result"]["illegal_move"], rec["result"]["action"]
    bad = copy.deepcopy(rec)
    bad["result"]["illegal_move"] = 1 - seat
    with pytest.raises(ValueError, match="illegal move.*to act"):
        cardenvs.replay(bad)
    env = cardenvs.make("piquet-v0", **config)  # the same game, to find a legal action there
    env.reset(seed=11)
    bad = copy.deepcopy(rec)
    core = env.unwrapped
    for deal in rec["deals"]:
        for _, name in deal["actions"]:
            env.step(core.action_id(name))
    legal = core.legal_actions()
    assert action not in legal
    bad["result"]["action"] = legal[0]
    with pytest.raises(ValueError, match="is legal in the replay"):
        cardenvs.replay(bad)
    bad["result"]["action"] = 88
    with pytest.raises(ValueError, match=r"0..87"):
        cardenvs.replay(bad)
    bad["result"] = {"illegal_move": seat, "action": "look"}
    with pytest.raises(ValueError, match="illegal move"):
        cardenvs.replay(bad)


# --- 12. Four Aces pair_value --------------------------------------------------------------------
@pytest.mark.parametrize("name", ["pair_value", "run2_value"])
def test_four_aces__pair_value_docs_and_code_agree(name):
    """Decision: the two readings only (1 seed, -1 S3); the table and errors say so."""
    from cardenvs.games.four_aces import config as R

    row = next(line for line in R.Config.describe().splitlines() if f"`{name}`" in line)
    assert "| 1, -1 |" in row and "-1..1" not in row
    assert row in R.__doc__  # the module docstring's config table
    for bad in (0, 2, True, 1.0):
        with pytest.raises(ValueError, match=rf"option {name} = .* choose one of \[1, -1\]"):
            R.Config(**{name: bad})
    for good in (1, -1, np.int64(-1)):
        cfg = R.Config(**{name: good})
        assert cfg.to_array()[R.Config.index(name)] == int(good)  # the kernels get the value


# --- PettingZoo registration ---------------------------------------------------------------------
def test_pettingzoo__make_needs_import_cardenvs_and_the_docs_say_so():
    """The installed PettingZoo's registry has no entry points: ``pettingzoo.make`` finds the
    ids once ``cardenvs`` is imported, and not before. README and ``cardenvs.__doc__`` say so."""
    code = (
        "import pettingzoo\n"
        "try:\n"
        "    pettingzoo.make('aec', 'cardenvs/piquet-v0')\n"
        "except Exception as e:\n"
        "    print('before:', type(e).__name__)\n"
        "import cardenvs\n"
        "env = pettingzoo.make('aec', 'cardenvs/piquet-v0', episode='deal')\n"
        "print('after:', type(env).__name__, env.unwrapped.config.episode)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("before: ") and "NotFound" in lines[0]
    assert lines[1] == "after: PiquetEnv deal"
    readme = (ROOT / "README.md").read_text()
    comment = next(line for line in readme.splitlines() if 'pettingzoo.make("aec"' in line)
    assert "import cardenvs" in comment
    assert 'pettingzoo.make("aec", "cardenvs/piquet-v0")' in cardenvs.__doc__
    assert "import cardenvs" in cardenvs.__doc__


# --- messages and options met after the engine branch's merge -----------------------------------
@pytest.mark.parametrize("episode", [-1, 1.5, True, "2", None])
def test_replay__a_bad_episode_is_refused(deal_record, episode):
    record = copy.deepcopy(deal_record)
    record["episode"] = episode
    with pytest.raises(ValueError, match=r"record\['episode'\] must be an int >= 0"):
        cardenvs.replay(record)


def test_reset__unknown_option_keys_of_mixed_types_are_warned_about():
    """``sorted`` of keys of mixed types raised TypeError; the AEC env warns and goes on."""
    env = cardenvs.make("piquet-v0")
    with pytest.warns(UserWarning, match="unknown option"):
        env.reset(seed=0, options={1: "x", "a": "y", ("t",): 0})
    assert env.agents


def test_reset__the_engine_names_every_reset_option():
    venv = cardenvs.make_vector("piquet-v0", 2, seed=0)
    with pytest.raises(ValueError, match="allowed: deck, dealer, episode"):
        venv.reset(options={"nope": 1})


def test_action_id__a_huge_name_is_cut_short_in_the_message():
    env = cardenvs.make("piquet-v0")
    with pytest.raises(ValueError) as e:
        env.unwrapped.action_id("x" * 1_000_000)
    assert len(str(e.value)) < 1000


# --- deal extras and episode numbers (issue 48, items 8 and 10) ---------------------------------
@pytest.fixture(scope="module")
def extras_records():
    """A finished game of each id with deal extras: Esel (banks, bank_change), Banque (bonus,
    penalty, ended_by), Auction Piquet (contract, declarer, doubled)."""
    out = {}
    for env_id, config in (
        ("esel-v0", {"episode": "deal"}),
        ("banque-v0", {"episode": "deal"}),
        ("auction_piquet-v0", {"episode": "deal"}),
    ):
        out[env_id] = record(seed=8, env_id=env_id, **config)
    return out


EXTRA_FIELDS = {
    "esel-v0": ("banks", "bank_change"),
    "banque-v0": ("bonus", "penalty", "ended_by"),
    "auction_piquet-v0": ("contract",),
}
FORGERIES = ("FORGED", [], [1], [1, 2, 3, 4, 5, 6], None, {"a": 1}, 7, [[1]], ["x"] * 4)


@pytest.mark.parametrize("env_id", list(EXTRA_FIELDS))
def test_replay__deal_extras_are_checked_against_the_replay(env_id, extras_records):
    """Each extra of a finished deal forged (wrong type, wrong length, another value), removed,
    or an extra field added: ``replay`` raises ``ValueError`` naming the deal and the field, and
    the viewer never shows it (before: accepted and shown as fact, or IndexError/KeyError/
    TypeError from the viewer)."""
    from cardenvs.ui import view

    rec = extras_records[env_id]
    assert cardenvs.replay(rec) == rec
    deal = rec["deals"][0]
    for field in EXTRA_FIELDS[env_id]:
        assert field in deal, (env_id, field, sorted(deal))
        for forged in (*FORGERIES, "removed"):
            bad = copy.deepcopy(rec)
            if forged == "removed":
                del bad["deals"][0][field]
            else:
                if forged == deal[field]:
                    continue
                bad["deals"][0][field] = forged
            for check in (cardenvs.replay, view.html):
                try:
                    check(bad)
                except ValueError as e:
                    assert "deal 0" in str(e) and field in str(e), (field, forged, str(e))
                except Exception as e:  # noqa: BLE001 - the point of the test
                    raise AssertionError(f"{field}={forged!r}: {type(e).__name__}: {e}") from e
                else:
                    raise AssertionError(f"{env_id}: {field}={forged!r} accepted")
    for field in ("ended_by", "contract", "bank_change", "note"):
        if field in deal:
            continue
        bad = copy.deepcopy(rec)
        bad["deals"][0][field] = "FORGED"
        with pytest.raises(ValueError, match=rf"deal 0.*{field}"):
            cardenvs.replay(bad)
        with pytest.raises(ValueError, match=rf"deal 0.*{field}"):
            view.html(bad)


def test_replay__an_open_deal_carries_no_extras():
    rec = record(seed=8, steps=5, env_id="esel-v0", episode="deal")
    assert rec["result"] is None
    bad = copy.deepcopy(rec)
    bad["deals"][-1]["ended_by"] = "FORGED"
    with pytest.raises(ValueError, match=r"deal 0.*ended_by"):
        cardenvs.replay(bad)


MAX_EPISODE = 2**44 - 1


def test_episode__numbers_that_would_alias_are_refused():
    """The deal stream keeps an episode's low 44 bits: episode 2**44 would deal episode 0's
    game. ``reset(options={"episode": k})`` and records take 0..2**44 - 1 only (a ValueError
    naming that range), and a record relabelled ``episode + 3 * 2**44`` no longer replays; the
    largest episode plays and replays."""
    env = cardenvs.make("piquet-v0", episode="deal")
    for k in (2**44, 3 * 2**44 + 2, 2**63 - 1):
        with pytest.raises(ValueError, match=rf"episode.*0\.\.{MAX_EPISODE}"):
            env.reset(seed=1, options={"episode": k})
    env.reset(seed=1, options={"episode": MAX_EPISODE})
    play(env, np.random.default_rng(0))
    top = env.unwrapped.record()
    assert top["episode"] == MAX_EPISODE and cardenvs.replay(top) == top
    # after the largest episode a reset without a seed has no next game of that seed
    with pytest.raises(ValueError, match=rf"episode.*0\.\.{MAX_EPISODE}.*seed"):
        env.reset()
    env.reset(seed=1)  # a seed starts over
    env.reset(seed=3)
    env.reset()
    env.reset()
    play(env, np.random.default_rng(3))
    rec = env.unwrapped.record()
    assert rec["episode"] == 2 and cardenvs.replay(rec) == rec
    for k in (2 + 2**44, 2 + 3 * 2**44):
        with pytest.raises(ValueError, match=rf"record\['episode'\].*0\.\.{MAX_EPISODE}"):
            cardenvs.replay(rec | {"episode": k})


def test_episode__the_batched_engine_refuses_episodes_that_would_alias():
    """The batched engine takes the same range as the AEC env: episode 2**44 would deal
    episode 0's games, and a reset after the last episode has no next game of the seed."""
    venv = cardenvs.make_vector("piquet-v0", 2, seed=1, episode="deal")
    for k in (2**44, 2**63 - 1):
        with pytest.raises(ValueError, match=rf"episode.*0\.\.{MAX_EPISODE}"):
            venv.reset(seed=1, options={"episode": k})
    obs0, *_ = venv.reset(seed=1, options={"episode": 0})
    obs0 = obs0.copy()
    obs_top, *_ = venv.reset(seed=1, options={"episode": MAX_EPISODE})
    assert not np.array_equal(obs_top, obs0)
    with pytest.raises(ValueError, match=rf"episode {MAX_EPISODE}.*new seed"):
        venv.reset()
    venv.reset(seed=1)  # a seed starts over


# --- last() once the game is over (a newcomer's finding) -----------------------------------------
@pytest.mark.parametrize("env_id", ["piquet-v0", "esel-v0"])
def test_last__after_every_agent_stepped_out_says_the_game_is_over(env_id):
    """Once the game has ended and every agent has stepped out (``agent_iter`` is exhausted),
    ``last()`` raises an error that says so and names ``reset()`` (it was a bare
    ``KeyError: 'player_1'``). It is a ``KeyError`` still, which is what PettingZoo's own
    ``AECEnv.last`` raises there, and a ``RuntimeError``, as ``last()`` before ``reset()``;
    ``reset()`` makes ``last()`` work again."""
    env = cardenvs.make(env_id, episode="deal")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.agents == []
    for observe in (True, False):
        with pytest.raises(KeyError) as e:
            env.last(observe=observe)
        assert str(e.value) == (
            "the game is over: every agent has stepped out (env.agents is empty); call reset() "
            "to play again"
        )
        assert isinstance(e.value, RuntimeError)
    env.reset(seed=1)
    assert env.last()[2] is False
