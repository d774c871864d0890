"""``cardenvs.arena.rate``: a user's agent placed on a reference ladder (a small one made here,
and the shipped ones), and ``python -m cardenvs.arena``."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from cardenvs import arena
from cardenvs.arena import __main__ as cli
from cardenvs.arena import ladder as rate_module

SETTING = "esel-v0_2p"
CONFIG = {"num_players": 2, "episode": "deal", "reward": "win"}


@pytest.fixture
def reference(tmp_path, monkeypatch):
    """A small reference ladder of two-player Esel in a folder of its own."""
    ref = {
        "format": rate_module.FORMAT,
        "format_version": rate_module.FORMAT_VERSION,
        "setting": SETTING,
        "env_id": "esel-v0",
        "config": CONFIG,
        "rules": rate_module.rules_of("esel-v0", CONFIG),
        "deals": {"seed": 3, "decks": 8, "decks_search": 1},
        "agents": {
            "random": {"spec": "random", "rating": 0.0, "ci95": [0.0, 0.0]},
            "heuristic": {"spec": "heuristic", "rating": 90.0, "ci95": [70.0, 110.0]},
            "ismcts@2": {"spec": "ismcts@2", "rating": 60.0, "ci95": [0.0, 120.0]},
        },
        "built": "a test",
        "cardenvs": "0",
    }
    monkeypatch.setattr(rate_module, "REFERENCE", tmp_path)
    (tmp_path / f"{SETTING}.json").write_text(json.dumps(ref))
    return ref


def test_fit_rating__the_rating_whose_expected_points_are_the_points_scored():
    assert rate_module.fit_rating([0.5] * 10, [100.0] * 10) == pytest.approx(100.0, abs=1e-6)
    # 1 / (1 + 10 ** (-200 / 400)) = 0.7597: that share against 0 is a rating of 200
    points = [1.0] * 7597 + [0.0] * 2403
    assert rate_module.fit_rating(points, [0.0] * 10000) == pytest.approx(200.0, abs=0.5)
    assert rate_module.fit_rating([1.0, 1.0], [0.0, 50.0]) == math.inf
    assert rate_module.fit_rating([0.0, 0.0], [0.0, 50.0]) == -math.inf


def test_rate__a_stronger_agent_rates_higher_on_the_same_deals(reference):
    strong = arena.rate("heuristic", SETTING)
    weak = arena.rate(arena.make_agent("random", "esel-v0", seed=5), SETTING)
    for out in (strong, weak):
        lo, hi = out["ci95"]
        assert lo <= out["rating"] <= hi
        assert set(out["against"]) == {"random", "heuristic", "ismcts@2"} and not out["skipped"]
        assert out["games"] == 2 * (8 + 8 + 1)  # two seatings of every deck
        row = out["against"]["random"]
        assert row["wins"] + row["draws"] + row["losses"] == row["games"] == 16
    assert strong["rating"] > weak["rating"] + 30
    assert strong["reference"]["deals"] == reference["deals"]


def test_rate__an_agent_with_only_act_is_rated(reference):
    class First:
        name = "first"

        def act(self, observation, action_mask):
            return int(np.flatnonzero(action_mask)[0])

    out = arena.rate(First(), SETTING, opponents=["random", "heuristic"])
    assert out["agent"] == "first" and set(out["against"]) == {"random", "heuristic"}


def test_rate__the_budget_plays_the_cheap_agents_first_and_skips_what_does_not_fit(
    reference, monkeypatch
):
    clock = iter(np.arange(0.0, 1000.0, 1.0))  # each reading of the clock: one second later
    monkeypatch.setattr(rate_module, "_clock", lambda: float(next(clock)))
    out = arena.rate("heuristic", SETTING, budget_s=6.5)
    assert "ismcts@2" in out["skipped"]  # the search agent comes last: no time left for it
    # random: 5.5 s left, a probe deck of 1 s, then 4 decks; heuristic: 2.5 s left, 1 deck
    assert [(k, v["decks"]) for k, v in out["against"].items()] == [("random", 4), ("heuristic", 1)]
    with pytest.raises(ValueError, match="leaves no time"):
        arena.rate("heuristic", SETTING, budget_s=1e-9)


def test_rate__a_reference_of_other_rules_or_setting_is_refused(reference, tmp_path):
    with pytest.raises(ValueError, match="no reference ladder for 'nope'; there are: esel-v0_2p"):
        arena.rate("random", "nope")
    stale = dict(reference, rules=dict(reference["rules"], trump_call="something else"))
    (tmp_path / f"{SETTING}.json").write_text(json.dumps(stale))
    with pytest.raises(ValueError, match="built under other rules.*rebuild it"):
        arena.rate("random", SETTING)
    with pytest.raises(ValueError, match="not reference agents"):
        (tmp_path / f"{SETTING}.json").write_text(json.dumps(reference))
        arena.rate("random", SETTING, opponents=["zoo"])


def test_cli__list_rate_and_match(reference, tmp_path, monkeypatch, capsys):
    cli.main(["list"])
    assert "esel-v0_2p: esel-v0" in capsys.readouterr().out
    package = tmp_path / "mine"
    package.mkdir()
    (package / "__init__.py").write_text(
        "import numpy as np\n\n"
        "class Last:\n"
        "    name = 'last'\n\n"
        "    def act_batch(self, observations, masks):\n"
        "        return (masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)).astype(np.int64)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    out = cli.main(["rate", "mine:Last", "--setting", SETTING, "--json", str(tmp_path / "r.json")])
    said = capsys.readouterr().out
    assert said.startswith("last on esel-v0_2p: rating ") and "vs heuristic" in said
    assert json.loads((tmp_path / "r.json").read_text())["rating"] == pytest.approx(out["rating"])
    row = cli.main(["match", "heuristic", "random", "--game", "banque-v0", "--n", "3"])
    assert row["decks"] == 3 and "duplicate deals, 3 decks" in capsys.readouterr().out


def test_cli__the_zoo_s_model_is_the_one_of_the_config_played(monkeypatch):
    """``--config`` (``match``) and the setting's config (``rate``) choose the zoo's model: two-
    player Esel gets the two-player model, not the four-player one of the id's default."""
    two = cli.load_agent("zoo", "esel-v0", False, {"num_players": 2})
    four = cli.load_agent("zoo", "esel-v0", False, {})
    assert (two.model.name, four.model.name) == ("esel-v0_2p", "esel-v0")
    made = []
    real = cli.load_agent
    monkeypatch.setattr(cli, "load_agent", lambda *a: made.append(real(*a)) or made[-1])
    cli.main(["match", "zoo", "random", "--game", "esel-v0", "--config", '{"num_players": 2}'])
    assert made[0].model.name == "esel-v0_2p"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["rate", "nobody", "--setting", SETTING], "unknown agent 'nobody'"),
        (
            ["rate", "mine_missing:Agent", "--setting", SETTING],
            "cannot import 'mine_missing:Agent'",
        ),
        (["rate", "random", "--setting", "nope"], "no reference ladder for 'nope'"),
        (
            ["rate", "random", "--setting", SETTING, "--budget", "0"],
            "--budget must be a positive number",
        ),
        (["match", "random", "random", "--game", "esel-v0", "--n", "0"], "--n must be at least 1"),
    ],
)
def test_cli__bad_arguments_are_usage_errors(reference, argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    assert e.value.code == 2 and message in capsys.readouterr().err


def test_shipped_reference_ladders_are_current():
    """Every shipped reference ladder reads, names today's rules and only spec agents, and
    rates random at 0."""
    refs = rate_module.references()
    assert refs, "no reference ladder is shipped"
    for setting in refs:
        ref = rate_module.reference(setting)  # refused if built under other rules
        assert ref["agents"]["random"]["rating"] == 0
        for name, row in ref["agents"].items():
            arena.check_spec(row["spec"])
            assert arena.model_path(row["spec"]) is None, f"{setting}: {name} is a model file"
        assert ref["deals"]["decks"] >= 1 and ref["deals"]["decks_search"] >= 1
