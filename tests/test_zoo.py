"""``cardenvs.zoo``: the shipped models (every id covered, each loads and plays a whole game,
never an illegal action, its NumPy forward pass equal to torch's), the choice of model, the
refusal of a stale layout, greedy and sampling modes, loading without torch, and the models in
the built wheel."""

from __future__ import annotations

import json
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
