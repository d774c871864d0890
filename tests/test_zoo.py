"""``cardenvs.zoo``: the shipped models (every id covered, each loads and plays a whole game,
never an illegal action, its NumPy forward pass equal to torch's), the choice of model, the
refusal of a stale layout, greedy and sampling modes, loading without torch, and the models in
the built wheel."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from harness import random_model

import cardenvs
import cardenvs.zoo
from cardenvs.policy import NumpyAgent, NumpyPolicy, layout_id
from train.table import SETTINGS

ROOT = Path(__file__).resolve().parent.parent
MODELS = cardenvs.zoo.list()


def test_zoo__covers_every_setting_of_the_table():
    """One model per game id, plus two-player Banque and Esel: the settings of train/table.py."""
    assert sorted(m.name for m in MODELS) == sorted(SETTINGS)
    for m in MODELS:
        env_id, override = SETTINGS[m.name]
        assert m.env_id == env_id
        assert m.num_players == cardenvs.zoo._num_players(env_id, override)
        assert cardenvs.zoo.find(env_id, **override).name == m.name


@pytest.mark.parametrize("model", MODELS, ids=[m.name for m in MODELS])
def test_zoo__each_model_has_its_header_and_stays_small(model):
    assert model.path.stat().st_size < 2_000_000
    h = NumpyPolicy.load(model.path).header
    assert h["obs_layout"] == layout_id(model.env_id)
    for key in ("command", "git_commit", "timesteps", "config", "net"):
        assert h.get(key), key
    assert h["command"].startswith("python -m train.ppo --game " + model.env_id)
    ev = model.evaluation
    for opponent in ("random", "heuristic"):
        row = ev[opponent]
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1] and row["games"] >= 100


@pytest.mark.parametrize("model", MODELS, ids=[m.name for m in MODELS])
def test_zoo__each_model_plays_a_whole_game_of_its_id(model):
    """Through the AEC env, every seat played by the zoo agent (greedy, and sampling), to the
    end of a whole game (a match capped short where it could be long)."""
    cfg = dict(model.config)
    for mode in cardenvs.zoo.MODES:
        agent = cardenvs.zoo.load(model.env_id, mode=mode, seed=1, **cfg)
        env = cardenvs.make(model.env_id, illegal_action="raise", **cfg)
        env.reset(seed=3)
        steps = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            a = agent.act(obs["observation"], obs["action_mask"])
            assert obs["action_mask"][a]
            env.step(a)
            steps += 1
        assert steps > 0 and all(env.terminations.values())


@pytest.mark.parametrize("model", MODELS, ids=[m.name for m in MODELS])
def test_zoo__act_batch_never_plays_an_illegal_action(model):
    agent = cardenvs.zoo.load(model.env_id, mode="sample", seed=0, **model.config)
    venv = cardenvs.make_vector(model.env_id, 64, seed=5, **model.config)
    obs, mask, _ = venv.reset()
    for _ in range(150):
        a = agent.act_batch(obs, mask)
        assert a.dtype == np.int64 and mask[np.arange(len(a)), a].all()
        obs, mask, *_ = venv.step(a)


@pytest.mark.parametrize("model", MODELS, ids=[m.name for m in MODELS])
def test_zoo__numpy_forward_pass_equals_torch(model):
    """The NumPy network gives the torch network's probabilities and values on real
    observations: probabilities within 1e-5, values within 1e-4 relative."""
    torch = pytest.importorskip("torch")
    from train.ppo import build_agent

    policy = NumpyPolicy.load(model.path)
    net = policy.header["net"]
    agent = build_agent(policy.obs_dim, policy.num_actions, net["hidden"], net["activation"])
    with np.load(model.path) as z:
        for prefix, seq in (("pi", agent.actor), ("vf", agent.critic)):
            linear = [m for m in seq if isinstance(m, torch.nn.Linear)]
            for k, layer in enumerate(linear):
                layer.weight.data = torch.from_numpy(z[f"{prefix}.{k}.weight"].copy())
                layer.bias.data = torch.from_numpy(z[f"{prefix}.{k}.bias"].copy())
    venv = cardenvs.make_vector(model.env_id, 32, seed=2, **model.config)
    obs, mask, _ = venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(10):
        with torch.no_grad():
            logits, values = agent(torch.from_numpy(obs), torch.from_numpy(mask.astype(bool)))
        expected = torch.softmax(logits, dim=1).numpy()
        np.testing.assert_allclose(policy.probabilities(obs, mask), expected, atol=1e-5)
        np.testing.assert_allclose(policy.value(obs), values.numpy(), rtol=1e-4, atol=1e-4)
        obs, mask, *_ = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in mask]))


# --- the choice of model, modes, refusal (a zoo folder of random-weight models) ----------------
def fake_model(directory: Path, name: str, env_id: str, play: dict, **header) -> Path:
    directory.mkdir(exist_ok=True)
    zoo = {"name": name, "play_config": play, "evaluation": {}}
    path = random_model(directory / f"{name}.npz", env_id, zoo=zoo, **header)
    cardenvs.zoo._read_header.cache_clear()
    return path


def test_zoo__load_chooses_by_number_of_players_and_names_what_there_is(tmp_path):
    fake_model(tmp_path, "esel-v0", "esel-v0", {"num_players": 4})
    fake_model(tmp_path, "esel-v0_2p", "esel-v0", {"num_players": 2})
    assert cardenvs.zoo.find("esel-v0", tmp_path).name == "esel-v0"
    two = cardenvs.zoo.load("esel-v0", directory=tmp_path, num_players=2, episode="deal")
    assert two.model.name == "esel-v0_2p" and two.name == "zoo"
    assert cardenvs.zoo.has("esel-v0", tmp_path, num_players=2)
    assert not cardenvs.zoo.has("esel-v0", tmp_path, num_players=3)
    with pytest.raises(ValueError, match=r"no esel-v0 model for 3 players; .*esel-v0_2p \(2"):
        cardenvs.zoo.load("esel-v0", directory=tmp_path, num_players=3)
    with pytest.raises(ValueError, match="unknown environment id"):
        cardenvs.zoo.load("esel-v9", directory=tmp_path)
    with pytest.raises(ValueError, match="num_players = 9 is out of range"):
        cardenvs.zoo.load("esel-v0", directory=tmp_path, num_players=9)
    with pytest.raises(ValueError, match="unknown config option"):
        cardenvs.zoo.load("esel-v0", directory=tmp_path, colour="red")
    with pytest.raises(ValueError, match=r"mode must be one of \('greedy', 'sample'\)"):
        cardenvs.zoo.load("esel-v0", mode="best", directory=tmp_path)
    with pytest.raises(ValueError, match="no piquet-v0 model for 2 players; models of piquet"):
        cardenvs.zoo.load("piquet-v0", directory=tmp_path)


def test_zoo__a_model_of_another_layout_version_is_refused(tmp_path):
    fake_model(tmp_path, "esel-v0", "esel-v0", {}, obs_layout="sha256:00000000deadbeef")
    with pytest.raises(ValueError, match="another observation layout of esel-v0"):
        cardenvs.zoo.load("esel-v0", directory=tmp_path)
    fake_model(tmp_path, "esel-v0", "esel-v0", {}, actions="sha256:00000000deadbeef")
    with pytest.raises(ValueError, match="other action names of esel-v0"):
        cardenvs.zoo.load("esel-v0", directory=tmp_path)
    np.savez(tmp_path / "plain.npz", x=np.zeros(2))
    cardenvs.zoo._read_header.cache_clear()
    with pytest.raises(ValueError, match="plain.npz' is not a zoo model"):
        cardenvs.zoo.list(tmp_path)


def test_zoo__greedy_is_the_argmax_and_sampling_is_seeded(tmp_path):
    fake_model(tmp_path, "esel-v0", "esel-v0", {})
    venv = cardenvs.make_vector("esel-v0", 256, seed=0)
    obs, mask, _ = venv.reset()
    greedy = cardenvs.zoo.load("esel-v0", directory=tmp_path)
    policy = greedy.policy
    best = np.where(mask, policy.logits(obs), -np.inf).argmax(axis=1)
    assert np.array_equal(greedy.act_batch(obs, mask), best)
    a = cardenvs.zoo.load("esel-v0", mode="sample", seed=4, directory=tmp_path)
    b = cardenvs.zoo.load("esel-v0", mode="sample", seed=4, directory=tmp_path)
    draws = np.stack([a.act_batch(obs, mask) for _ in range(20)])
    assert np.array_equal(draws, np.stack([b.act_batch(obs, mask) for _ in range(20)]))
    assert mask[np.arange(256)[None, :], draws].all()
    several = (mask.sum(axis=1) > 1) & (policy.probabilities(obs, mask).max(axis=1) < 0.9)
    assert several.any() and (draws[:, several] != best[several]).any()
    with pytest.raises(ValueError, match=r"observations must be \(N, 342\)"):
        greedy.act_batch(obs[:, :-1], mask)
    with pytest.raises(ValueError, match="row 0 has no legal action"):
        greedy.act_batch(obs[:1], np.zeros_like(mask[:1]))
    with pytest.raises(TypeError, match="policy must be a NumpyPolicy"):
        NumpyAgent("model.npz", "esel-v0")


def test_zoo__loads_and_plays_without_torch_or_the_checkout(tmp_path):
    """In a fresh interpreter started outside the checkout (so agents/ and train/ cannot be
    imported) where torch cannot import: only the installed package."""
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import cardenvs, cardenvs.zoo\n"
        "try:\n    import agents\nexcept ImportError:\n    pass\n"
        "else:\n    raise SystemExit('agents/ is importable: not the installed package alone')\n"
        "names = [m.name for m in cardenvs.zoo.list()]\n"
        "agent = cardenvs.zoo.load('piquet-v0')\n"
        "env = cardenvs.make('piquet-v0', episode='deal'); env.reset(seed=0)\n"
        "obs, *_ = env.last()\n"
        "a = agent.act(obs['observation'], obs['action_mask'])\n"
        "assert obs['action_mask'][a]\n"
        "print('played', a, len(names))\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, env=env
    )
    assert done.returncode == 0 and "played" in done.stdout, done.stderr[-2000:]
    assert done.stdout.split()[-1] == str(len(MODELS))


def test_zoo__the_models_are_in_the_built_wheel(tmp_path):
    """``pip install .`` installs the models: they are package data of the wheel."""
    src = tmp_path / "src"
    shutil.copytree(
        ROOT, src, ignore=shutil.ignore_patterns(".venv", ".git", "runs", "docs", "*.egg-info")
    )
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
        + ["-w", str(tmp_path / "dist"), str(src)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("cardenvs-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for m in MODELS:
        assert f"cardenvs/zoo/models/{m.name}.npz" in names
    assert "cardenvs/zoo/__init__.py" in names and "cardenvs/policy.py" in names
    assert json.dumps(sorted(n for n in names if n.startswith("agents/"))) == "[]"


def test_zoo__the_readme_shows_the_shipped_models():
    """The README's zoo table is ``train.zoo.table()`` of the shipped models' headers."""
    from train.zoo import table

    assert table() in (ROOT / "README.md").read_text()


# --- hostile or broken model files (issue 48, items 7 and 11) ----------------------------------
def _model_arrays(path: Path) -> tuple[dict, dict]:
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files if k != "header"}
        header = json.loads(str(z["header"][()]))
    return header, arrays


def _save(path: Path, header, arrays: dict) -> Path:
    with open(path, "wb") as f:
        np.savez(f, header=np.array(json.dumps(header)), **arrays)
    return path


@pytest.mark.parametrize("value", [np.inf, -np.inf, np.nan])
def test_policy__non_finite_weights_are_refused_at_load(tmp_path, value):
    header, arrays = _model_arrays(random_model(tmp_path / "m.npz", "esel-v0"))
    arrays["pi.1.bias"] = arrays["pi.1.bias"].copy()
    arrays["pi.1.bias"][3] = value
    path = _save(tmp_path / "bad.npz", header, arrays)
    with pytest.raises(ValueError, match=r"bad\.npz.*pi\.1\.bias.*finite"):
        NumpyPolicy.load(path)
    with pytest.raises(ValueError, match=r"pi\.1\.bias.*finite"):
        NumpyPolicy(header, arrays)


@pytest.mark.filterwarnings("ignore:overflow encountered in matmul:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:invalid value encountered in matmul:RuntimeWarning")
@pytest.mark.parametrize("mode", cardenvs.zoo.MODES)
def test_policy__the_action_is_legal_when_every_legal_logit_overflows(tmp_path, mode):
    """Finite weights whose logits overflow float32 (every legal logit ``-inf``, or ``nan``): the
    agent still plays a legal action, in greedy and in sample mode (before: action 0, illegal),
    and over many rows it spreads over the legal actions when sampling."""
    header, arrays = _model_arrays(random_model(tmp_path / "m.npz", "esel-v0", hidden=(4, 4)))
    header["net"]["activation"] = "relu"
    arrays["pi.0.weight"] = np.zeros_like(arrays["pi.0.weight"])
    arrays["pi.0.bias"] = np.ones_like(arrays["pi.0.bias"])  # every first hidden unit is 1
    for logit in ("-inf", "nan"):
        if logit == "-inf":  # the second hidden layer is 1 too, then 5 terms of -3e38: -inf
            arrays["pi.1.weight"] = np.zeros_like(arrays["pi.1.weight"])
            arrays["pi.1.bias"] = np.ones_like(arrays["pi.1.bias"])
            arrays["pi.2.weight"] = np.full_like(arrays["pi.2.weight"], -3e38)
            arrays["pi.2.bias"] = np.full_like(arrays["pi.2.bias"], -3e38)
        else:  # the second hidden layer is +inf (4 * 3e38), then inf * 1 + inf * -1: nan
            arrays["pi.1.weight"] = np.full_like(arrays["pi.1.weight"], 3e38)
            arrays["pi.1.bias"] = np.zeros_like(arrays["pi.1.bias"])
            w = np.zeros_like(arrays["pi.2.weight"])
            w[:, 0], w[:, 1] = 1.0, -1.0
            arrays["pi.2.weight"] = w
            arrays["pi.2.bias"] = np.zeros_like(arrays["pi.2.bias"])
        policy = NumpyPolicy.load(_save(tmp_path / f"{logit}.npz", header, arrays))
        venv = cardenvs.make_vector("esel-v0", 64, seed=0)
        obs, mask, _ = venv.reset()
        logits = policy.logits(obs)
        assert (np.isneginf(logits) if logit == "-inf" else np.isnan(logits)).all(), logit
        mask = mask.copy()
        mask[:, 0] = 0
        mask[:, 5:9] = 1
        agent = NumpyAgent(policy, "esel-v0", deterministic=mode == "greedy", seed=1)
        actions = agent.act_batch(obs, mask)
        assert mask[np.arange(len(actions)), actions].all(), (logit, actions)
        one = agent.act(obs[0], mask[0])
        assert mask[0, one]
        if mode == "sample":
            assert len(set(actions.tolist())) > 1  # uniform over the legal actions
        p = policy.probabilities(obs, mask)
        assert np.isfinite(p).all() and np.allclose(p.sum(axis=1), 1) and (p[mask == 0] == 0).all()


def _broken_models(tmp_path: Path) -> dict:
    """Malformed model files, each with a word its error must hold (the field)."""
    good = random_model(tmp_path / "good.npz", "esel-v0")
    header, arrays = _model_arrays(good)
    data = good.read_bytes()
    out = {}
    (tmp_path / "truncated.npz").write_bytes(data[: len(data) // 2])
    out["truncated.npz"] = "not a readable"
    (tmp_path / "empty.npz").write_bytes(b"")
    out["empty.npz"] = "empty"
    np.save(tmp_path / "array.npy", np.zeros(3))
    (tmp_path / "array.npz").write_bytes((tmp_path / "array.npy").read_bytes())
    out["array.npy"] = "not an .npz archive"
    out["array.npz"] = "not an .npz archive"
    for name, change in (
        ("net_list", {"net": [16]}),
        ("net_str", {"net": "tanh"}),
        ("hidden_int", {"net": {"hidden": 16, "activation": "tanh"}}),
        ("hidden_str", {"net": {"hidden": ["16"], "activation": "tanh"}}),
        ("obs_dim_null", {"obs_dim": None}),
        ("obs_dim_str", {"obs_dim": "342"}),
        ("num_actions_neg", {"num_actions": -1}),
        ("game_int", {"game": 3}),
        ("config_list", {"config": [1]}),
    ):
        field = name.rsplit("_", 1)[0]
        _save(tmp_path / f"{name}.npz", header | change, arrays)
        out[f"{name}.npz"] = field
    _save(tmp_path / "header_list.npz", [1, 2], arrays)
    out["header_list.npz"] = "header"
    with open(tmp_path / "header_text.npz", "wb") as f:
        np.savez(f, header=np.array("{not json"), **arrays)
    out["header_text.npz"] = "header"
    with open(tmp_path / "header_num.npz", "wb") as f:
        np.savez(f, header=np.arange(3), **arrays)
    out["header_num.npz"] = "header"
    with open(tmp_path / "weight_text.npz", "wb") as f:
        np.savez(f, header=np.array(json.dumps(header)), **(arrays | {"pi.0.bias": np.array("x")}))
    out["weight_text.npz"] = "pi.0.bias"
    with open(tmp_path / "weight_name.npz", "wb") as f:
        np.savez(f, header=np.array(json.dumps(header)), **(arrays | {"pi.x.weight": np.zeros(2)}))
    out["weight_name.npz"] = "pi.x.weight"
    return out


def test_policy__malformed_model_files_are_value_errors_naming_file_and_field(tmp_path):
    """Truncated, empty, ``.npy``, headers of the wrong shape, fields of the wrong type: a
    ``ValueError`` naming the file and the field (before: BadZipFile, EOFError, TypeError,
    AttributeError), from ``NumpyPolicy.load`` and from ``cardenvs.zoo``."""
    from cardenvs.agents.policy import PolicyAgent

    for name, field in _broken_models(tmp_path).items():
        path = tmp_path / name
        for load in (NumpyPolicy.load, lambda p: PolicyAgent(p, "esel-v0")):
            try:
                load(path)
            except ValueError as e:
                assert name in str(e) and field in str(e), (name, str(e))
            except Exception as e:  # noqa: BLE001 - the point of the test
                raise AssertionError(f"{name}: {type(e).__name__}: {e}") from e
            else:
                raise AssertionError(f"{name}: loaded")


def test_zoo__a_foreign_or_broken_model_in_a_folder_is_a_value_error(tmp_path):
    """``cardenvs.zoo.list(dir)`` over a folder holding a model of another format (no ``game``),
    a broken file or a bad ``zoo`` block: ``ValueError`` naming the file and the field (before:
    ``KeyError: 'game'``)."""
    good = fake_model(tmp_path / "zoo", "esel-v0", "esel-v0", {})
    header, arrays = _model_arrays(good)
    cases = {
        "foreign.npz": ({"format": "something-else", "net": {}}, "game"),
        "nogame.npz": ({k: v for k, v in header.items() if k != "game"}, "game"),
        "zoo_list.npz": (header | {"zoo": [1]}, "zoo"),
        "play_config.npz": (header | {"zoo": header["zoo"] | {"play_config": 2}}, "play_config"),
        "evaluation.npz": (header | {"zoo": header["zoo"] | {"evaluation": "good"}}, "evaluation"),
        "players.npz": (
            header | {"zoo": header["zoo"] | {"play_config": {"num_players": 9}}},
            "num_players",
        ),
    }
    for name, (head, field) in cases.items():
        folder = tmp_path / name.split(".")[0]
        folder.mkdir()
        shutil.copy(good, folder / "esel-v0.npz")
        _save(folder / name, head, arrays)
        cardenvs.zoo._read_header.cache_clear()
        with pytest.raises(ValueError) as e:
            cardenvs.zoo.list(folder)
        assert name in str(e.value) and field in str(e.value), (name, str(e.value))
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "empty.npz").write_bytes(b"")
    cardenvs.zoo._read_header.cache_clear()
    with pytest.raises(ValueError, match=r"empty\.npz"):
        cardenvs.zoo.list(folder)


def test_zoo__load_warns_about_rule_options_the_model_never_trained_on(tmp_path):
    """A rule option that differs from the model header's config is named in a ``UserWarning``;
    the options that choose the model or do not change what it reads (``num_players``,
    ``episode``, ``reward``) and the model's own config give none."""
    import warnings

    config = cardenvs.make("esel-v0", episode="deal").unwrapped.config.to_dict()
    assert config["trump_option"] == 1 and config["must_beat"] is False
    fake_model(tmp_path, "esel-v0", "esel-v0", {"num_players": 4}, config=config)
    with pytest.warns(UserWarning, match=r"trump_option=3.*trained with trump_option=1"):
        cardenvs.zoo.load("esel-v0", directory=tmp_path, trump_option=3)
    with pytest.warns(UserWarning, match="must_beat=True") as w:
        cardenvs.zoo.load("esel-v0", directory=tmp_path, must_beat=True, episode="game")
    assert "episode" not in str(w[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cardenvs.zoo.load("esel-v0", directory=tmp_path)
        cardenvs.zoo.load("esel-v0", directory=tmp_path, episode="game", reward="score")
        cardenvs.zoo.load("esel-v0", directory=tmp_path, num_players=4, trump_option=1)
    # an option the header lacks (the game gained it after the training) is not compared
    older = {k: v for k, v in config.items() if k != "must_beat"}
    fake_model(tmp_path, "esel-v0", "esel-v0", {"num_players": 4}, config=older)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cardenvs.zoo.load("esel-v0", directory=tmp_path, must_beat=True)
    fake_model(tmp_path, "piquet-v0", "piquet-v0", {}, config={"allow_sinking": False})
    with pytest.warns(UserWarning, match="allow_sinking=True"):
        cardenvs.zoo.load("piquet-v0", directory=tmp_path, allow_sinking=True)


def test_zoo__the_shipped_models_load_without_a_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for m in MODELS:
            cardenvs.zoo.load(m.env_id, **m.config)


def test_zoo__packaging_keeps_the_draws_and_the_table_shows_them(tmp_path):
    """``train.zoo.package`` keeps each evaluation's wins, draws, losses and mean-reward interval
    (from ``eval.csv``, as the trainer writes it); the table shows them beside the win rate, and a
    model packaged before they were counted shows the win rate alone (the README's table)."""
    import csv
    import types

    from train.zoo import _cell, _outcome_cells, _search_cell, package, table

    run = tmp_path / "runs" / "piquet-v0"
    run.mkdir(parents=True)
    random_model(run / "model.npz", "piquet-v0", hidden=(8,))
    row = {"games": 400, "win_rate": 0.45, "ci_low": 0.4, "ci_high": 0.5, "baseline": 0.5}
    row |= {"wins": 20, "draws": 320, "losses": 60, "mean_return": -0.1}
    row |= {"return_ci_low": -0.15, "return_ci_high": -0.05, "timesteps": 1000}
    with open(run / "eval.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["opponent", *row])
        w.writeheader()
        w.writerows([{"opponent": "random", **row}, {"opponent": "heuristic", **row}])
    search = {k: v for k, v in row.items() if k != "timesteps"} | {"opponent": "ismcts"}
    (run / "ismcts.json").write_text(json.dumps({"results": [search | {"decks": 50}]}))
    path = package("piquet-v0", tmp_path / "runs", tmp_path / "models")
    searched = NumpyPolicy.load(path).header["zoo"]["evaluation"]["ismcts"]
    assert searched["decks"] == 50 and searched["episode"] == "deal"
    assert _search_cell(searched) == "0.450 (0.400–0.500); 20 / 320 / 60; -0.100 ± 0.050; 50 decks"
    kept = NumpyPolicy.load(path).header["zoo"]["evaluation"]["heuristic"]
    assert (kept["wins"], kept["draws"], kept["losses"]) == (20, 320, 60)
    assert kept["mean_return"] == -0.1 and kept["return_ci95"] == [-0.15, -0.05]
    assert _cell(kept) == "0.450 (0.400–0.500)"
    assert _outcome_cells(kept) == ["20 / 320 / 60", "-0.100 ± 0.050"]
    old = {k: v for k, v in kept.items() if k not in ("wins", "draws", "losses", "return_ci95")}
    assert _cell(old) == "0.450 (0.400–0.500)" and _outcome_cells(old) == ["", ""]
    model = types.SimpleNamespace(name="piquet-v0", num_players=2)
    model.evaluation = {"random": kept, "heuristic": old, "learner_decisions": 1000}
    head, rule, line = table([model]).splitlines()
    assert head.count("| W / D / L | mean reward |") == 2
    assert len(head.split("|")) == len(rule.split("|")) == len(line.split("|")) == 13
    assert line == (
        "| `piquet-v0` | 2 | 0.0 M | 0.50 | 0.450 (0.400–0.500) | 20 / 320 / 60 | -0.100 ± 0.050 "
        "| 0.450 (0.400–0.500) |  |  |  |"
    )


# --- re-evaluating the shipped models (issue 47, item 4) ---------------------------------------
@pytest.mark.parametrize("name", ["piquet-v0", "partnership_piquet-v0"])
def test_zoo__reevaluate_rewrites_the_results_and_keeps_the_weights(tmp_path, name):
    """``python -m train.zoo --reevaluate`` on a copy of a shipped model (4 games an opponent):
    the random and heuristic results gain the games won / drawn / lost and the mean reward's
    interval, equal to the native trainer's evaluation of that model
    (``train.evaluate.trainer_evaluation`` with the setting's training config and ``--eval-games
    4``: seed 1 is its default seed 0 plus one; the side seating in partnership Piquet); every
    array of the file is unchanged, the ISMCTS result and the learner decisions are kept, the
    re-evaluation is recorded, and the model still loads through ``cardenvs.zoo``. The shipped
    file is never touched."""
    from train import hyperparams, ppo
    from train.evaluate import trainer_evaluation
    from train.zoo import main

    shipped = cardenvs.zoo.MODELS / f"{name}.npz"
    shipped_bytes = shipped.read_bytes()
    path = tmp_path / f"{name}.npz"
    shutil.copyfile(shipped, path)
    old_header, old_arrays = _model_arrays(path)
    old = old_header["zoo"]["evaluation"]
    cardenvs.zoo._read_header.cache_clear()

    (done,) = main(["--reevaluate", "--only", name, "--games", "4", "--models", str(tmp_path)])
    assert done == path and shipped.read_bytes() == shipped_bytes

    header, arrays = _model_arrays(path)
    assert arrays.keys() == old_arrays.keys()
    for k, a in arrays.items():
        assert a.dtype == old_arrays[k].dtype and np.array_equal(a, old_arrays[k]), k
    assert {k: v for k, v in header.items() if k != "zoo"} == {
        k: v for k, v in old_header.items() if k != "zoo"
    }
    ev = header["zoo"]["evaluation"]
    assert ev.get("ismcts") == old.get("ismcts")
    assert ev["learner_decisions"] == old["learner_decisions"]
    assert set(ev) == set(old) | {"reevaluated"}

    env_id, override = SETTINGS[name]
    config = json.loads(hyperparams.native_defaults(env_id)["config"]) | override
    args = ppo.parse(["--game", env_id, "--config", json.dumps(config), "--eval-games", "4"])
    venv = cardenvs.make_vector(env_id, 1, seed=0, **args.config)
    trainer = {r["opponent"]: r for r in trainer_evaluation(shipped, args, venv)}
    side = name == "partnership_piquet-v0"
    for opponent in ("random", "heuristic"):
        row, want = ev[opponent], trainer[opponent]
        assert row["games"] == 4 and row["episode"] == "game"
        assert row["wins"] + row["draws"] + row["losses"] == 4
        assert (row["wins"], row["draws"], row["losses"]) == (
            want["wins"],
            want["draws"],
            want["losses"],
        )
        assert row["win_rate"] == want["win_rate"] and row["mean_return"] == want["mean_return"]
        assert row["ci95"] == [want["ci_low"], want["ci_high"]]
        assert row["return_ci95"] == [want["return_ci_low"], want["return_ci_high"]]
        assert row["return_ci95"][0] <= row["mean_return"] <= row["return_ci95"][1]
    rec = ev["reevaluated"]
    assert (rec["games"], rec["seed"]) == (4, 1)
    assert rec["seating"] == ("side" if side else "solo")
    assert rec["config"] == {"episode": "game", "reward": "win"}
    assert rec["command"] == (
        f"python -m train.zoo --reevaluate --only {name} --games 4 --models {tmp_path}"
    )
    assert rec["date"][:4].isdigit() and rec["commit"]
    cardenvs.zoo._read_header.cache_clear()
    agent = cardenvs.zoo.load(env_id, directory=tmp_path)
    assert agent.model.path == path and agent.model.evaluation == ev


def test_zoo__reevaluate_keeps_nothing_it_cannot_check(tmp_path, monkeypatch):
    """A model whose header's zoo block names another setting is refused, and so is a re-saved
    file whose weights differ from the old ones (a save that changes one bias), the file
    unchanged either way; ``reevaluate`` is seeded (the same seed gives the same results)."""
    from train.zoo import reevaluate

    path = tmp_path / "piquet-v0.npz"
    shutil.copyfile(cardenvs.zoo.MODELS / "piquet-v0.npz", path)
    header, arrays = _model_arrays(path)
    header["zoo"]["name"] = "esel-v0"
    _save(path, header, arrays)
    before = path.read_bytes()
    with pytest.raises(ValueError, match="not setting 'piquet-v0'"):
        reevaluate("piquet-v0", tmp_path, games=2)
    assert path.read_bytes() == before
    header["zoo"]["name"] = "piquet-v0"
    _save(path, header, arrays)
    results = []
    for _ in range(2):
        ev = NumpyPolicy.load(reevaluate("piquet-v0", tmp_path, games=6, seed=5)).header
        results.append({k: ev["zoo"]["evaluation"][k] for k in ("random", "heuristic")})
    assert results[0] == results[1]
    with pytest.raises(ValueError, match="no model to evaluate"):
        reevaluate("esel-v0", tmp_path, games=2)

    save = NumpyPolicy.save

    def changed_save(self, out):
        self.pi[0][1][0] = np.nextafter(self.pi[0][1][0], np.float32(np.inf))
        save(self, out)

    monkeypatch.setattr(NumpyPolicy, "save", changed_save)
    before = path.read_bytes()
    with pytest.raises(ValueError, match="the re-saved weights differ from the shipped ones"):
        reevaluate("piquet-v0", tmp_path, games=2)
    assert path.read_bytes() == before and sorted(tmp_path.iterdir()) == [path]


def test_zoo__an_arena_ismcts_match_becomes_the_models_ismcts_result(tmp_path):
    """``python -m cardenvs.arena match zoo ismcts@400 ... --json F`` then ``python -m train.zoo
    --only piquet-v0 --ismcts F`` on a copy of the shipped model: its ``ismcts`` result is the
    match's (games, counts, mean reward and intervals, decks, the arena's command), every array
    and the other results are kept, and the table's ISMCTS column shows it. A match that is not
    the zoo against ISMCTS-400 on single deals of that setting is refused, naming what differs,
    and the file is left as it was. (The search's iterations are checked from the spec, so the
    arena match here is a real one of 2 decks at 400 iterations.)"""
    from cardenvs.arena.__main__ import main as arena
    from train.zoo import _search_cell, main, table

    path = tmp_path / "piquet-v0.npz"
    shutil.copyfile(cardenvs.zoo.MODELS / "piquet-v0.npz", path)
    old_header, old_arrays = _model_arrays(path)
    result = tmp_path / "ismcts.json"
    argv = ["match", "zoo", "ismcts@400", "--game", "piquet-v0", "--n", "2", "--seed", "7"]
    row = arena([*argv, "--config", '{"episode": "deal"}', "--json", str(result)])
    assert row["games"] == 4 and row["command"].startswith("python -m cardenvs.arena match zoo")
    cardenvs.zoo._read_header.cache_clear()
    (done,) = main(["--only", "piquet-v0", "--ismcts", str(result), "--models", str(tmp_path)])
    header, arrays = _model_arrays(done)
    assert all(np.array_equal(a, old_arrays[k]) for k, a in arrays.items())
    ev, old = header["zoo"]["evaluation"], old_header["zoo"]["evaluation"]
    assert {k: v for k, v in ev.items() if k != "ismcts"} == {
        k: v for k, v in old.items() if k != "ismcts"
    }
    got = ev["ismcts"]
    assert (got["games"], got["decks"], got["deals"], got["episode"]) == (4, 2, "duplicate", "deal")
    assert (got["wins"], got["draws"], got["losses"]) == (row["wins"], row["draws"], row["losses"])
    assert got["win_rate"] == row["win_rate"] and got["mean_return"] == row["mean_return"]
    assert got["ci95"] == [row["ci_low"], row["ci_high"]] and got["command"] == row["command"]
    cardenvs.zoo._read_header.cache_clear()
    (line,) = [x for x in table(cardenvs.zoo.list(tmp_path)).splitlines() if "piquet-v0" in x]
    lo, hi = got["ci95"]
    r_lo, r_hi = got["return_ci95"]
    assert line.endswith(
        f"| {got['win_rate']:.3f} ({lo:.3f}–{hi:.3f}); {got['wins']} / {got['draws']} / "
        f"{got['losses']}; {got['mean_return']:+.3f} ± {(r_hi - r_lo) / 2:.3f}; 2 decks |"
    )
    before = {"games": 100, "win_rate": 0.71, "ci95": [0.61, 0.79], "mean_return": 0.42}
    assert _search_cell(before) == "0.710 (0.610–0.790); 100 games, before draws were counted"

    before = path.read_bytes()
    for change, message in [
        ({"agent": "heuristic"}, "agent is 'heuristic', not 'zoo'"),
        ({"opponent": "ismcts@100"}, "opponent is 'ismcts@100', not one of"),
        ({"config": {"episode": "game"}}, "episode is 'game', not 'deal'"),
        ({"game": "piquet_au_cent-v0"}, "game is 'piquet_au_cent-v0', not 'piquet-v0'"),
        ({"deals": "independent"}, "deals is 'independent', not 'duplicate'"),
    ]:
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(json.loads(result.read_text()) | change))
        with pytest.raises(SystemExit, match=re.escape(message)):
            main(["--only", "piquet-v0", "--ismcts", str(bad), "--models", str(tmp_path)])
    bad.write_text('{"games": 4}')
    with pytest.raises(SystemExit, match="not a match written by .*missing game, agent"):
        main(["--only", "piquet-v0", "--ismcts", str(bad), "--models", str(tmp_path)])
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--reevaluate", "--games", "0"],
            "--games must be at least 1 (games per opponent), got 0",
        ),
        (["--reevaluate", "--seed", "-1"], "--seed must be at least 0, got -1"),
        (["--reevaluate", "--only", "piquet-v9"], "invalid choice: 'piquet-v9' (choose from"),
        (["--games", "3"], "--games and --seed go with --reevaluate"),
        (["--table", "--reevaluate"], "--table, --reevaluate and --ismcts: give one"),
        (["--ismcts", "r.json"], "--ismcts goes with one setting: --only <setting>"),
        (
            ["--ismcts", "r.json", "--only", "piquet-v0", "esel-v0"],
            "--ismcts goes with one setting",
        ),
    ],
)
def test_zoo__reevaluate_bad_arguments_are_usage_errors(tmp_path, capsys, args, message):
    """Checked before any model is read or written (an empty models folder)."""
    from train.zoo import main

    with pytest.raises(SystemExit) as e:
        main([*args, "--models", str(tmp_path)])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "usage: python -m train.zoo" in err and message in err
    assert list(tmp_path.iterdir()) == []


def test_policy__a_header_nested_too_deeply_or_an_entry_without_npy_data_is_a_value_error(
    tmp_path,
):
    """Found by ``benchmarks.attack``: a header that is JSON nested 100,000 deep (before: a
    ``RecursionError``), and an archive member that holds no ``.npy`` data (``np.load`` hands
    its bytes back; before: ``AttributeError: 'bytes' object has no attribute 'ndim'``), as the
    header or as a weight: a ``ValueError`` naming the file and the entry, from every loader."""
    from cardenvs.agents.policy import PolicyAgent
    from cardenvs.policy import read_header

    header, arrays = _model_arrays(random_model(tmp_path / "good.npz", "esel-v0"))
    with open(tmp_path / "deep.npz", "wb") as f:
        np.savez(f, header=np.array("[" * 100_000 + "]" * 100_000), **arrays)
    with zipfile.ZipFile(tmp_path / "raw_header.npz", "w") as z:
        z.writestr("header.npy", b"not an array")
    _save(tmp_path / "raw_weight.npz", header, arrays)
    with zipfile.ZipFile(tmp_path / "raw_weight.npz", "a") as z:
        z.writestr("pi.9.weight", b"\x00" * 16)
    cases = {
        "deep.npz": "nested too deeply",
        "raw_header.npz": "'header' is not an array",
        "raw_weight.npz": "'pi.9.weight' is not an array",
    }
    folder = tmp_path / "zoo"
    for name, words in cases.items():
        loads = [NumpyPolicy.load, lambda p: PolicyAgent(p, "esel-v0")]
        if name != "raw_weight.npz":  # the loaders that read the header alone
            loads += [read_header, lambda p: cardenvs.zoo.list(p.parent)]
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        path = shutil.copy(tmp_path / name, folder / name)
        cardenvs.zoo._read_header.cache_clear()
        for load in loads:
            with pytest.raises(ValueError) as e:
                load(Path(path))
            assert name in str(e.value) and words in str(e.value), (name, str(e.value))
