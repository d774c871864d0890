"""The strength ladder (``benchmarks/ladder.py``), end to end on tiny budgets (layer 7: around
the engine): a two-player and a four-player setting of one engine (Esel), a random-weight
``ppo:`` model in place of the zoo's, and the bootstrap Bradley–Terry fit on synthetic results."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from harness import random_model

import cardenvs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks import ladder  # noqa: E402

AGENTS = ["random", "heuristic", "ismcts@2", "ismcts@4"]
# The four-seat setting plays 14 seatings of every pair: one search agent there (two search
# agents, and a pair of them, play in the two-seat setting) keeps its ladder a third as long.
AGENTS_BY_SETTING = {"esel-v0_2p": AGENTS, "esel-v0": AGENTS[:3]}


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    path = random_model(tmp_path_factory.mktemp("model") / "esel.npz", "esel-v0", hidden=(8,))
    return f"model:{path}"


def argv(out, model, *extra, agents=AGENTS):
    return [
        "--agents", *agents, model,
        "--n", "2", "--n-search", "1", "--bootstrap", "20", "--out", str(out), "--quiet",
        *extra,
    ]  # fmt: skip


def without_timings(path: Path) -> dict:
    data = json.loads(path.read_text())
    data.pop("timings")
    return data


@pytest.mark.parametrize("setting", ["esel-v0_2p", "esel-v0"])
def test_ladder__end_to_end_on_a_tiny_budget(setting, model, tmp_path):
    agents = AGENTS_BY_SETTING[setting]
    reports = ladder.main(
        argv(tmp_path, model, "--settings", setting, "--seed", "3", agents=agents)
    )
    rep = reports[setting]
    for suffix in ("json", "md", "png"):
        assert (tmp_path / f"{setting}.{suffix}").is_file()
    assert rep["num_seats"] == (2 if setting == "esel-v0_2p" else 4)
    assert rep["config"]["episode"] == "deal" and rep["config"]["reward"] == "win"
    kinds = [*agents, model]
    assert rep["agents"] == kinds and set(rep["ratings"]) == set(kinds)
    for kind, row in rep["ratings"].items():
        lo, hi = row["ci95"]
        assert lo <= row["rating"] <= hi, kind
        assert row["decisions"] > 0 and rep["timings"]["decisions_per_s"][kind] > 0
    assert rep["ratings"]["random"]["rating"] == 0.0
    assert rep["ratings"]["random"]["ci95"] == [0.0, 0.0]
    # the pair matrix: every game's point is split between the pair's two agents
    wins = np.array(rep["wins"])
    assert np.all(np.diag(wins) == 0)
    seatings = rep["seatings"]
    assert seatings == len(ladder.arrangements(rep["num_seats"]))
    for p in rep["pairs"]:
        i, j = kinds.index(p["a"]), kinds.index(p["b"])
        search = ladder.is_search(p["a"]) or ladder.is_search(p["b"])
        assert p["games"] == seatings * (1 if search else 2)
        assert wins[i, j] + wins[j, i] == pytest.approx(p["games"])
        assert p["wins_a"] == wins[i, j] and p["wins_b"] == wins[j, i]
        assert p["ci95"][0] <= p["win_rate_a"] <= p["ci95"][1]
        assert sum(s["a"] for s in p["seatings"]) == pytest.approx(p["wins_a"])
        # every game won by one of the pair or drawn; a won game is worth more than half a point
        assert p["games_won_a"] + p["games_drawn"] + p["games_won_b"] == p["games"]
        assert p["games_won_a"] * 0.5 + p["games_drawn"] * 0.5 <= p["wins_a"] + 1e-9
        for x in "ab":
            lo, hi = p[f"return_ci95_{x}"]
            if p["games"] == seatings:  # one deck from every seating: no interval over decks
                assert lo is None and hi is None
            else:
                assert lo <= p[f"mean_return_{x}"] <= hi
    for kind, row in rep["ratings"].items():
        mine = [p for p in rep["pairs"] if kind in (p["a"], p["b"])]
        assert row["games"] == sum(p["games"] for p in mine)
        assert row["wins"] + row["draws"] + row["losses"] == row["games"]
        assert row["draws"] == sum(p["games_drawn"] for p in mine)
        lo, hi = row["return_ci95"]
        if all(p["games"] == seatings for p in mine):  # one deck in every pair
            assert lo is None and hi is None
        else:
            assert lo <= row["mean_return"] <= hi
    table = (tmp_path / f"{setting}.md").read_text()
    assert f"| {agents[-1]} |" in table and "Head to head" in table
    assert "| W / D / L (games) | mean reward (95% CI) |" in table
    assert "| a won / drawn / b won | a's mean reward | b's mean reward |" in table
    r = rep["ratings"]["heuristic"]
    assert f"| {r['wins']} / {r['draws']} / {r['losses']} | {r['mean_return']:+.3f} ±" in table
    summary = (tmp_path / "summary.md").read_text()
    assert summary.count(f"| {setting} |") == 1 and "| random |" in summary
    if setting == "esel-v0_2p":
        # one seed, one file (timings aside); another seed plays other deals
        first = without_timings(tmp_path / f"{setting}.json")
        ladder.main(argv(tmp_path, model, "--settings", setting, "--seed", "3"))
        assert without_timings(tmp_path / f"{setting}.json") == first
        ladder.main(argv(tmp_path, model, "--settings", setting, "--seed", "4"))
        assert without_timings(tmp_path / f"{setting}.json") != first


def test_ladder__two_player_esel_shows_its_draws_beside_the_points(tmp_path):
    """A draw-heavy setting: the heuristic's share of the points against random is near 1/2,
    and the table says that most of its games are drawn."""
    rep = ladder.run_setting("esel-v0_2p", ["random", "heuristic"], 20, 1, 0, boot=20, quiet=True)
    (p,) = rep["pairs"]
    assert p["games"] == 40 and p["games_drawn"] > 0
    assert p["games_won_a"] + p["games_drawn"] + p["games_won_b"] == 40
    # two players: a game is won (1 point), drawn (1/2) or lost (0)
    assert p["wins_a"] == pytest.approx(p["games_won_a"] + p["games_drawn"] / 2)
    assert p["mean_return_a"] == pytest.approx(-p["mean_return_b"])  # zero-sum
    h = rep["ratings"]["heuristic"]
    assert (h["wins"], h["draws"], h["losses"]) == (
        p["games_won_b"],
        p["games_drawn"],
        p["games_won_a"],
    )
    counts = f"{p['games_won_a']} / {p['games_drawn']} / {p['games_won_b']}"
    assert f"| random | heuristic | 40 | {counts} |" in ladder.markdown(rep)


def test_ladder__a_report_stored_before_draws_were_counted_shows_n_a():
    rep = {
        "setting": "esel-v0_2p",
        "env_id": "esel-v0",
        "config": {"num_players": 2},
        "num_seats": 2,
        "seatings": 2,
        "n": 1,
        "n_search": 1,
        "ismcts_rollout": "heuristic",
        "seed": 0,
        "bootstrap": 1,
        "agents": ["random", "heuristic"],
        "ratings": {
            "random": {"rating": 0.0, "ci95": [0.0, 0.0]},
            "heuristic": {"rating": 80.0, "ci95": [60.0, 100.0]},
        },
        "pairs": [
            {"a": "random", "b": "heuristic", "games": 2, "win_rate_a": 0.25, "ci95": [0.0, 0.8]}
        ],
        "timings": {"decisions_per_s": {"random": None, "heuristic": None}},
    }
    table = ladder.markdown(rep)
    assert "| heuristic | 80 | 60 to 100 | n/a | n/a |  |" in table
    assert "| random | heuristic | 2 | n/a | n/a | n/a |" in table


def test_ladder__game_results_split_the_point():
    points = np.array([1.0, 0.5, 0.0, 2 / 3, 1 / 3, (1 + 0.5 + 0) / 3, 0.75])
    assert ladder.game_results(points).tolist() == [1, 0, -1, 1, -1, 0, 1]


def test_ladder__summary_has_one_line_per_setting(tmp_path):
    rating = {"rating": 0.0, "ci95": [0.0, 0.0]}
    for name in ("piquet-v0", "esel-v0"):
        rep = {
            "setting": name,
            "agents": ["random", "heuristic"],
            "config": {"episode": "deal"},
            "ratings": {"random": rating, "heuristic": {"rating": 150.4, "ci95": [90.2, 201.7]}},
        }
        (tmp_path / f"{name}.json").write_text(json.dumps(rep))
    lines = ladder.summary(tmp_path).splitlines()
    rows = [line for line in lines if line.startswith("| piquet-v0 |") or "| esel-v0 |" in line]
    assert len(rows) == 2 and rows[0].startswith("| piquet-v0 |")  # SETTINGS order
    assert "150 [90, 202]" in rows[1] and "0 [0, 0]" in rows[1]
    assert "| deal | independent |" in rows[0]  # a report without "deals": of before them


def test_ladder__bootstrap_fit_ranks_a_dominant_agent_first():
    rng = np.random.default_rng(0)
    # agent 1 always beats agent 2; both meet random (agent 0) half and half
    outcomes = {
        (0, 1): rng.integers(0, 2, 30).astype(float),
        (0, 2): rng.integers(0, 2, 30).astype(float),
        (1, 2): np.ones(30),
    }
    f = ladder.fit(outcomes, 3, anchor=0, boot=200, seed=1)
    assert f["rating"][0] == 0.0 and f["rating"][1] > f["rating"][2]
    assert f["lo"][1] > f["hi"][2]  # every resample keeps the order
    assert f["wins"][1, 2] == 30 and f["wins"][2, 1] == 0
    # agent 1 wins 3 of 4 against agent 0 (the outcomes are the first agent's points):
    # 400 log10(3) Elo
    f = ladder.fit({(0, 1): np.array([1.0, 0.0, 0.0, 0.0])}, 2, anchor=0, boot=50, seed=0)
    assert f["rating"][1] == pytest.approx(190.85, abs=0.5)
    assert f["lo"][0] == f["hi"][0] == 0.0 and f["lo"][1] <= f["hi"][1]


def test_ladder__seat_against_seat_outcomes():
    # four seats, A in seats 0-2, B in seat 3. A seat of A wins: it beats B's seat, the two other
    # A seats draw with it (both lost): (1 + 1/2 + 1/2) / 3. B wins: it beats all three. A and B
    # share the win: A's winner draws with B, its other seats lose: (1/2 + 0 + 0) / 3.
    share = np.array([[1.0, 0, 0, 0], [0, 0, 0, 1.0], [0.5, 0, 0, 0.5]])
    got = ladder.pair_outcomes(share, (0, 0, 0, 1))
    assert got == pytest.approx([2 / 3, 0.0, 1 / 6])
    assert ladder.pair_outcomes(share, (1, 1, 1, 0)) == pytest.approx([1 / 3, 1.0, 5 / 6])


@pytest.mark.parametrize(
    "args, message",
    [
        (["--settings", "nonsense-v0"], "unknown settings ['nonsense-v0']"),
        (["--agents", "random", "genius"], "unknown agent 'genius'"),
        (["--agents", "random", "ismcts@0"], "budget must be an integer"),
        (["--agents", "random", "zoo+ismcts@x"], "budget must be an integer"),
        (["--agents", "random", "random"], "more than once"),
        (["--agents", "heuristic", "ismcts@2"], "needs 'random'"),
        (["--agents", "random", "ppo:/nonexistent/model.npz"], "no saved model"),
        (["--n", "0"], "--n must be at least 1"),
        (["--jobs", "0"], "--jobs must be at least 1"),
    ],
)
def test_ladder__bad_arguments_exit_with_a_clear_error(args, message, tmp_path, capsys):
    with pytest.raises(SystemExit):
        ladder.main(["--settings", "esel-v0", "--out", str(tmp_path), *args])
    assert message in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # nothing played, nothing written


def test_ladder__a_model_of_another_game_is_refused(model, tmp_path, capsys):
    with pytest.raises(SystemExit):
        ladder.main(
            ["--settings", "banque-v0", "--agents", "random", model, "--out", str(tmp_path)]
        )
    assert "cannot play banque-v0" in capsys.readouterr().err


class NoModels:
    """A zoo without models."""

    @staticmethod
    def has(env_id, **config):
        return False


def test_ladder__a_setting_without_a_zoo_model_is_an_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "cardenvs.zoo", NoModels)
    monkeypatch.setattr(cardenvs, "zoo", NoModels, raising=False)
    with pytest.raises(SystemExit):
        ladder.main(["--settings", "banque-v0_2p", "--out", str(tmp_path)])  # default agents
    err = capsys.readouterr().err
    assert "the zoo has no model for banque-v0_2p" in err and "{'num_players': 2}" in err
    assert not list(tmp_path.iterdir())


def test_ladder__no_picture_without_matplotlib(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    report = {"setting": "esel-v0", "agents": ["random"], "ratings": {}, "config": {}}
    assert ladder.chart(report, tmp_path / "esel-v0.png") is False
    assert "matplotlib is not installed" in capsys.readouterr().err
    assert not (tmp_path / "esel-v0.png").exists()


def test_ladder__zoo_agent_comes_from_cardenvs_zoo(monkeypatch):
    calls = []

    class Zoo:
        @staticmethod
        def has(env_id, **kwargs):
            return True

        @staticmethod
        def load(env_id, **kwargs):
            calls.append((env_id, kwargs))
            return types.SimpleNamespace(tag="the model")

    monkeypatch.setitem(sys.modules, "cardenvs.zoo", Zoo)
    monkeypatch.setattr(cardenvs, "zoo", Zoo, raising=False)
    # the setting's override less the options that do not select a model (esel-v0_2p trains
    # on reward="score")
    assert ladder.build("zoo", "esel-v0_2p", 5).tag == "the model"
    assert calls == [("esel-v0", {"seed": 5, "num_players": 2})]


def test_ladder__plays_the_zoo_model_of_the_setting(monkeypatch, tmp_path):
    """The real ``cardenvs.zoo`` over a folder holding one two-player Esel model."""
    import cardenvs.zoo

    models = tmp_path / "models"
    models.mkdir()
    zoo = {"name": "esel-v0_2p", "play_config": {"num_players": 2}, "evaluation": {}}
    random_model(models / "esel-v0_2p.npz", "esel-v0", hidden=(8,), seed=1, zoo=zoo)
    monkeypatch.setattr(cardenvs.zoo, "MODELS", models)
    out = tmp_path / "out"
    args = ["--settings", "esel-v0_2p", "--agents", "random", "zoo", "zoo+ismcts@2", "--n", "2"]
    args += ["--n-search", "1", "--out", str(out), "--bootstrap", "10", "--quiet"]
    rep = ladder.main(args)["esel-v0_2p"]
    assert rep["zoo_config"] == {"num_players": 2} and rep["pairs"][0]["games"] == 4
    assert rep["ratings"]["zoo"]["decisions"] > 0
    assert rep["ratings"]["zoo+ismcts@2"]["decisions"] > 0
    search = ladder.build("zoo+ismcts@2", "esel-v0_2p", 0)  # ISMCTS rolling out with the zoo
    assert search.rollout == "zoo" and search.iterations == 2 and search.name == "zoo+ismcts@2"
    with pytest.raises(SystemExit):  # no four-player model in that folder
        ladder.main(["--settings", "esel-v0", "--agents", "random", "zoo", "--out", str(out)])


def test_ladder__an_sb3_zip_agent_needs_trusted(tmp_path, capsys, monkeypatch):
    """Issue 48, item 2: ``ppo:<x.zip>`` (an SB3 model: loading it runs its pickles) is refused
    without ``--trusted`` by a usage error that says why and names the flag, before anything is
    played or written; with ``--trusted`` the agent is built as trusted (``make_agent``'s
    ``trusted``; here a stand-in agent, as a real SB3 model needs a training run)."""
    import zipfile

    from cardenvs.agents import RandomAgent

    zipped = tmp_path / "sb3.zip"
    with zipfile.ZipFile(zipped, "w") as z:
        z.writestr("data", "{}")
    out = tmp_path / "out"
    args = ["--settings", "esel-v0_2p", "--agents", "random", f"ppo:{zipped}", "--n", "1"]
    args += ["--bootstrap", "5", "--quiet", "--out", str(out)]
    with pytest.raises(SystemExit) as e:
        ladder.main(args)
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err
    assert f"--agents ppo:{zipped}: '{zipped}' is an SB3 .zip model: loading it runs" in err
    assert "give --trusted if you trust this file" in err and not out.exists()
    built = []

    def make_agent(kind, env_id, *, seed=0, trusted=False, **kwargs):
        built.append((kind, trusted))
        return RandomAgent(seed=seed)

    import cardenvs.arena.match

    monkeypatch.setattr(cardenvs.arena.match, "make_agent", make_agent)  # the games
    monkeypatch.setattr(ladder, "make_agent", make_agent)  # the check before them
    reports = ladder.main([*args, "--trusted"])
    assert (f"ppo:{zipped}", True) in built
    assert {(k, t) for k, t in built if k != "random"} == {(f"ppo:{zipped}", True)}
    assert f"ppo:{zipped}" in reports["esel-v0_2p"]["agents"]


def test_ladder__reference_writes_a_ladder_that_rate_rates_on(tmp_path, monkeypatch):
    """``--reference`` writes the setting's reference ladder (``cardenvs.arena.rate``'s format:
    specs, ratings, the duplicate deals, today's rules), and an agent is rated on it."""
    import cardenvs.arena.ladder as reference_ladder
    from cardenvs import arena

    monkeypatch.setattr(ladder, "REFERENCE", tmp_path / "ref")
    monkeypatch.setattr(reference_ladder, "REFERENCE", tmp_path / "ref")
    args = ["--settings", "esel-v0_2p", "--agents", "random", "heuristic", "--n", "4"]
    ladder.main([*args, "--bootstrap", "10", "--quiet", "--out", str(tmp_path), "--reference"])
    ref = arena.reference("esel-v0_2p")
    assert ref["deals"] == {"seed": 0, "decks": 4, "decks_search": 10}
    assert (
        ref["agents"]["random"]["rating"] == 0 and ref["agents"]["heuristic"]["spec"] == "heuristic"
    )
    assert "--agents random heuristic --n 4" in ref["built"]
    out = arena.rate("heuristic", "esel-v0_2p")
    assert out["games"] == 2 * (4 + 4) and set(out["against"]) == {"random", "heuristic"}
    with pytest.raises(SystemExit):  # a reference is made of duplicate deals only
        ladder.main(
            [*args, "--quiet", "--out", str(tmp_path), "--reference", "--deals", "independent"]
        )
