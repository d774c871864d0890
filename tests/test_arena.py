"""``cardenvs.arena``: the one agent maker (specs), head-to-head matches and round robins on the
batched engine, and the house rules around them (one maker, no train/ -> benchmarks/ import)."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import numpy as np
import pytest
from harness import random_model

import cardenvs
from cardenvs import arena
from cardenvs.agents import RandomAgent, ScoredAgent
from cardenvs.agents.ismcts import ISMCTSAgent
from cardenvs.agents.policy import PolicyAgent

ROOT = Path(__file__).resolve().parent.parent
ESEL2 = {"num_players": 2}


# -- the agent maker ------------------------------------------------------------------------------
def test_make_agent__every_spec_makes_its_agent_named_by_the_spec(tmp_path):
    assert isinstance(arena.make_agent("random", "piquet-v0", seed=3), RandomAgent)
    h = arena.make_agent("heuristic", "piquet-v0")
    assert isinstance(h, ScoredAgent) and h.name == "heuristic"
    s = arena.make_agent("ismcts@7", "esel-v0", seed=2)
    assert isinstance(s, ISMCTSAgent) and (s.iterations, s.rollout) == (7, "heuristic")
    assert s.name == "ismcts@7"
    s = arena.make_agent("ismcts@5:random", "esel-v0")
    assert (s.iterations, s.rollout) == (5, "random")
    assert arena.make_agent("ismcts", "esel-v0").iterations == 200  # the old default
    path = random_model(tmp_path / "m.npz", "piquet-v0")
    m = arena.make_agent(f"model:{path}", "piquet-v0", name="mine")
    assert isinstance(m, PolicyAgent) and m.name == "mine"


def test_make_agent__sample_specs_play_a_model_by_sampling_its_policy(tmp_path):
    """Issue 51: ``sample:model:<path>`` and ``sample:zoo`` play the model's mixed strategy
    (seeded), where ``model:`` and ``zoo`` take its most probable legal action."""
    import cardenvs.zoo

    path = random_model(tmp_path / "m.npz", "piquet-v0", seed=1)
    greedy = arena.make_agent(f"model:{path}", "piquet-v0")
    mixed = arena.make_agent(f"sample:model:{path}", "piquet-v0", seed=4)
    assert greedy.deterministic and not mixed.deterministic
    assert mixed.name == f"sample:model:{path}"
    venv = cardenvs.make_vector("piquet-v0", 64, seed=0)
    obs, mask, _ = venv.reset(seed=0)
    obs, mask = np.repeat(obs[:1], 64, axis=0), np.repeat(mask[:1], 64, axis=0)  # one state
    assert len(set(greedy.act_batch(obs, mask).tolist())) == 1
    picks = mixed.act_batch(obs, mask)
    assert len(set(picks.tolist())) > 1 and mask[np.arange(64), picks].all()
    again = arena.make_agent(f"sample:model:{path}", "piquet-v0", seed=4)
    assert np.array_equal(again.act_batch(obs, mask), picks)  # seeded
    if cardenvs.zoo.has("piquet-v0"):
        assert not arena.make_agent("sample:zoo", "piquet-v0").deterministic
    from train.league import league_agent

    assert not league_agent(f"sample:model:{path}", "piquet-v0", {}, 0).deterministic


def test_make_agent__zoo_specs_use_the_zoo_or_say_it_has_no_model(monkeypatch, tmp_path):
    import cardenvs.zoo

    if cardenvs.zoo.has("piquet-v0"):
        assert arena.make_agent("zoo", "piquet-v0").name == "zoo"
        s = arena.make_agent("zoo+ismcts@3", "piquet-v0")
        assert (s.iterations, s.rollout) == (3, "zoo")
        assert arena.parse_search("zoo+ismcts@3") == arena.parse_search("ismcts@3:zoo")
    monkeypatch.setattr(cardenvs.zoo, "MODELS", tmp_path)  # an empty zoo
    with pytest.raises(ValueError, match="the zoo has no esel-v0 model for 2 players"):
        arena.make_agent("zoo", "esel-v0", config=ESEL2)
    with pytest.raises(ValueError, match="the zoo has no esel-v0 model"):  # said before a search
        arena.make_agent("ismcts@3:zoo", "esel-v0", config=ESEL2)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("", "non-empty string"),
        ("nobody", "unknown agent 'nobody'; available: random, heuristic, ismcts@"),
        ("ismcts@0", "the ISMCTS budget must be an integer >= 1"),
        ("ismcts@x", "the ISMCTS budget must be an integer >= 1"),
        ("ismcts@5:greedy", "unknown roll-out 'greedy'"),
        ("zoo+ismcts@5:random", "the ISMCTS budget must be an integer >= 1"),
        ("model:", "needs the model's path"),
        ("model:/no/such/file.npz", "no saved model at '/no/such/file.npz'"),
        ("sample:heuristic", "sample: plays a model by sampling its policy and takes zoo or"),
        ("sample:", "sample: plays a model by sampling its policy"),
        ("sample:model:m.zip", "sample: takes a .npz model, not an SB3 .zip"),
        ("sample:model:/no/such/file.npz", "no saved model at '/no/such/file.npz'"),
    ],
)
def test_make_agent__a_bad_spec_says_what_is_wrong_and_what_is_allowed(spec, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("+", r"\+")):
        arena.make_agent(spec, "esel-v0")


def test_make_agent__old_model_spellings_work_and_warn(tmp_path):
    path = random_model(tmp_path / "m.npz", "piquet-v0")
    for old in (f"ppo:{path}", str(path)):
        with pytest.warns(FutureWarning, match="write model:<path>"):
            agent = arena.make_agent(old, "piquet-v0")
        assert isinstance(agent, PolicyAgent)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        arena.make_agent(f"model:{path}", "piquet-v0")  # the spelling of now: no warning


def test_make_agent__an_sb3_zip_needs_trusted_and_is_not_opened_without(tmp_path):
    zipped = tmp_path / "m.zip"
    zipped.write_bytes(b"not even a zip: never opened")
    with pytest.raises(ValueError, match="trusted=True"):
        arena.make_agent(f"model:{zipped}", "piquet-v0")
    with pytest.raises(ValueError, match="--trusted"):  # the command lines' check
        arena.check_spec(f"model:{zipped}")


def test_make_agent__objects_pass_through_and_act_only_agents_get_act_batch():
    r = RandomAgent(0)
    assert arena.make_agent(r, "esel-v0") is r

    class First:  # a user's agent with act alone
        name = "first"

        def act(self, observation, action_mask):
            return int(np.flatnonzero(action_mask)[0])

    wrapped = arena.make_agent(First(), "esel-v0")
    masks = np.array([[0, 1, 1], [1, 0, 0]], np.int8)
    np.testing.assert_array_equal(wrapped.act_batch(np.zeros((2, 4)), masks), [1, 0])
    assert wrapped.name == "first"
    with pytest.raises(TypeError, match="act_batch"):
        arena.make_agent(object(), "esel-v0")


def untimed(row: dict) -> dict:
    return {k: v for k, v in row.items() if k != "decisions_per_s"}


# -- matches ------------------------------------------------------------------------------------
def test_head_to_head__specs_and_objects_alike_and_the_counts_add_up():
    by_spec = arena.head_to_head("esel-v0", "heuristic", "random", n=30, seed=5, config=ESEL2)
    assert by_spec["games"] == 60 and by_spec["opponent"] == "random"
    assert by_spec["wins"] + by_spec["draws"] + by_spec["losses"] == by_spec["games"]
    assert by_spec["win_rate"] > 0.8 and by_spec["return_ci_low"] > 0
    assert by_spec["deals"] == "duplicate" and by_spec["decks"] == 30
    again = arena.head_to_head("esel-v0", "heuristic", "random", n=30, seed=5, config=ESEL2)
    assert untimed(again) == untimed(by_spec)  # seeded: the same games


def test_head_to_head__an_act_only_agent_plays_whole_games():
    class Last:
        name = "last"

        def act(self, observation, action_mask):
            return int(np.flatnonzero(action_mask)[-1])

    row = arena.head_to_head("four_aces-v0", Last(), "random", n=4, seed=1)
    seatings = arena.arrangements(4)  # every seating of the two that uses both
    assert len(seatings) == 14 and row["games"] == 4 * sum(map(sum, seatings))  # its seats
    assert row["wins"] + row["draws"] + row["losses"] == row["games"]


def test_arena__an_unknown_deal_kind_is_refused_by_name():
    with pytest.raises(
        ValueError, match="deals must be one of duplicate, independent, got 'paired'"
    ):
        arena.head_to_head("esel-v0", "random", "random", n=1, deals="paired")
    with pytest.raises(ValueError, match="deals must be one of"):
        arena.round_robin("esel-v0", ["random", "heuristic"], n=1, deals="paired")


class FirstLegal:
    """Deterministic: the legal action with the lowest id."""

    name = "first"

    def act_batch(self, observations, masks):
        return np.argmax(masks, axis=1).astype(np.int64)


def test_head_to_head__jobs_split_the_games_over_processes_and_the_games_stay_the_same(tmp_path):
    """Two worker processes play the same games on the same deals as one process: with
    deterministic agents (FirstLegal, the zoo's greedy model) every count and mean agrees; the
    command line's --jobs says how far it has got."""
    config = {"episode": "deal"}
    one = arena.head_to_head("piquet-v0", FirstLegal(), "zoo", n=6, seed=3, config=config)
    seen = []
    two = arena.head_to_head(
        "piquet-v0",
        FirstLegal(),
        "zoo",
        n=6,
        seed=3,
        config=config,
        jobs=2,
        progress=lambda done, games: seen.append((done, games)),
    )
    assert untimed(two) == untimed(one) and one["games"] == 12
    assert seen[-1] == (12, 12) and len(seen) == 8  # 4 parts a worker, each reported
    from cardenvs.arena.__main__ import main

    out = tmp_path / "m.json"
    argv = ["match", "zoo", "random", "--game", "four_aces-v0", "--n", "3", "--jobs", "2"]
    row = main([*argv, "--json", str(out)])
    assert row["games"] == 3 * sum(map(sum, arena.arrangements(4))) and out.exists()


def test_round_robin__jobs_share_only_the_search_seatings_games(monkeypatch):
    """A round robin's ``jobs`` go to the pairs with a search agent (their games in worker
    processes, the same number on the same decks); the other pairs play in this process, so a
    pair of deterministic agents scores exactly as with one job."""
    field = ["zoo", FirstLegal(), "ismcts@3"]
    kw = dict(n=3, n_search=2, seed=2, config=ESEL2 | {"episode": "deal"})
    one = arena.round_robin("esel-v0", field, **kw)
    parallel, calls = arena.match.play_parallel, []

    def spy(env_id, seats, agents, *args, **kwargs):
        calls.append([a.name for a in agents])
        return parallel(env_id, seats, agents, *args, **kwargs)

    monkeypatch.setattr(arena.match, "play_parallel", spy)
    two = arena.round_robin("esel-v0", field, jobs=2, **kw)
    assert len(calls) == 4 and all("ismcts@3" in names for names in calls)  # 2 pairs x 2 seats
    for pair, data in one["pairs"].items():
        other = two["pairs"][pair]
        assert np.array_equal(data["deck"], other["deck"])
        if 2 not in pair:  # zoo against FirstLegal: no search, the very same games
            assert np.array_equal(data["points"], other["points"])
            for a, b in zip(data["returns"], other["returns"], strict=True):
                assert np.array_equal(a, b)
    assert two["agents"]["ismcts@3"]["seats_played"] == one["agents"]["ismcts@3"]["seats_played"]


def test_head_to_head__bad_jobs_and_agents_that_cannot_travel_are_refused_by_name(capsys):
    for jobs in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="jobs must be a whole number of worker processes"):
            arena.head_to_head("esel-v0", "random", "random", n=1, config=ESEL2, jobs=jobs)

    class Local:  # a class defined in a function cannot be pickled
        def act_batch(self, observations, masks):
            return np.argmax(masks, axis=1).astype(np.int64)

    with pytest.raises(ValueError, match=r"agent 1 \(Local\) cannot be pickled.*use jobs=1"):
        arena.head_to_head("esel-v0", Local(), "random", n=2, config=ESEL2, jobs=2)
    from cardenvs.arena.__main__ import main

    with pytest.raises(SystemExit):
        main(["match", "random", "random", "--game", "esel-v0", "--jobs", "0"])
    assert "--jobs must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("env_id", ["piquet-v0", "banque-v0"])
def test_duplicate__one_deterministic_agent_against_itself_is_exactly_even(env_id):
    """Each deck is played from both seatings, so a deterministic agent against its copy wins
    one and loses one of every deck's games: mean 0 with a zero-width interval over decks.
    Independent deals give the same agent a random mean around 0 (each game its own cards)."""
    config = {"num_players": 2} if env_id == "banque-v0" else {}
    dup = arena.head_to_head(env_id, FirstLegal(), FirstLegal(), n=12, seed=4, config=config)
    assert dup["deals"] == "duplicate" and dup["decks"] == 12 and dup["games"] == 24
    assert dup["mean_return"] == 0 and dup["return_ci_low"] == dup["return_ci_high"] == 0
    assert dup["wins"] == dup["losses"] == 12
    ind = arena.head_to_head(
        env_id, FirstLegal(), FirstLegal(), n=12, seed=4, config=config, deals="independent"
    )
    assert ind["decks"] == 24 and ind["return_ci_high"] > ind["return_ci_low"]


def test_duplicate__the_engine_deals_the_same_cards_to_rows_of_one_seed():
    venv = cardenvs.make_vector("piquet-v0", 4, seed=[7, 9, 7, 9])
    obs, mask, info = venv.reset()
    assert (obs[0] == obs[2]).all() and (obs[1] == obs[3]).all() and (obs[0] != obs[1]).any()
    obs2, *_ = cardenvs.make_vector("piquet-v0", 2, seed=7).reset()
    assert (obs2[0] == obs[0]).all()  # seed[b] is the seed a single row gets
    with pytest.raises(ValueError, match=r"one int per row \(4\), got shape \(3,\)"):
        venv.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match=r"seed\[1\] must be in 0\.\."):
        venv.reset(seed=[1, -2, 3, 4])
    with pytest.raises(ValueError, match=r"seed\[0\] must be an int"):
        venv.reset(seed=["a", 2, 3, 4])


def test_duplicate__a_round_robin_deals_game_d_of_every_seating_and_pair_one_deck():
    field = arena.round_robin("esel-v0", ["random", "heuristic", FirstLegal()], n=5, config=ESEL2)
    for data in field["pairs"].values():
        np.testing.assert_array_equal(data["deck"], np.tile(np.arange(5), 2))
    ind = arena.round_robin(
        "esel-v0", ["random", "heuristic"], n=5, config=ESEL2, deals="independent"
    )
    assert len(set(ind["pairs"][(0, 1)]["deck"].tolist())) == 10


def test_round_robin__rates_a_field_with_the_first_agent_at_zero():
    field = arena.round_robin(
        "esel-v0", {"r": "random", "h": "heuristic"}, n=40, seed=2, config=ESEL2
    )
    assert field["names"] == ["r", "h"] and field["num_seats"] == 2
    rows = field["agents"]
    assert rows["r"]["rating"] == 0 and rows["h"]["rating"] > 200
    for row in rows.values():
        assert row["wins"] + row["draws"] + row["losses"] == row["seats_played"] == 80
    pair = field["pairs"][(0, 1)]
    assert pair["points"].shape == pair["weight"].shape == (80,)
    assert [s["seats"] for s in pair["seatings"]] == ["AB", "BA"]
    # the field's shares: every game's point is split between the two agents
    assert rows["r"]["win_rate"] + rows["h"]["win_rate"] == pytest.approx(1.0)


def test_round_robin__a_search_agent_plays_n_search_games():
    field = arena.round_robin(
        "esel-v0", ["random", "ismcts@2:random"], n=6, seed=0, config=ESEL2, n_search=2
    )
    assert field["agents"]["random"]["seats_played"] == 2 * 2


def test_round_robin__the_tournament_is_a_thin_program_over_it():
    from benchmarks import tournament

    report = tournament.run(["esel-v0"], ["random", "heuristic"], 20, 3, ESEL2, quiet=True)
    field = arena.round_robin("esel-v0", ["random", "heuristic"], 20, 3, ESEL2)
    got = report["games"]["esel-v0"]["agents"]
    assert {k: untimed(v) for k, v in got.items()} == {
        k: untimed(v) for k, v in field["agents"].items()
    }


# -- the house rules of issue 49 (train never imports benchmarks: tests/test_layers.py) ----------
def test_one_agent_maker_in_the_project():
    makers = []
    for folder in ("train", "agents", "cardenvs", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text())
            makers += [
                f"{path.relative_to(ROOT)}:{n.name}"
                for n in ast.walk(tree)
                if isinstance(n, ast.FunctionDef) and n.name == "make_agent"
            ]
    assert makers == ["cardenvs/arena/specs.py:make_agent"]
    random_agents = []  # classes named Random* that act (core's RandomLegal is a kernel)
    for folder in ("train", "agents", "cardenvs"):
        for path in (ROOT / folder).rglob("*.py"):
            for n in ast.walk(ast.parse(path.read_text())):
                if isinstance(n, ast.ClassDef) and n.name.startswith("Random"):
                    methods = {m.name for m in n.body if isinstance(m, ast.FunctionDef)}
                    if methods & {"act", "act_batch"}:
                        random_agents.append(str(path.relative_to(ROOT)))
    assert random_agents == ["agents/base.py"]


def test_packaging__the_baselines_are_cardenvs_agents_and_agents_in_the_checkout():
    import agents as checkout_agents
    import cardenvs.agents

    assert Path(cardenvs.agents.__file__).parent == ROOT / "agents"
    assert Path(checkout_agents.__file__).parent == ROOT / "agents"
    assert cardenvs.agents.heuristic_for("esel-v0").name == "heuristic"
