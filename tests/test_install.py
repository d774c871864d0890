"""The README's install route: with a CPU torch installed first, the training extras keep it and
add nothing CUDA (pip's own resolver, asked for a dry run in the test's environment)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# what a CUDA build of torch brings, or torch itself replaced by another build
CUDA = re.compile(r"^(nvidia-.*|cuda-.*|triton|torch)$", re.IGNORECASE)


def test_install__the_readme_installs_cpu_torch_before_the_extras():
    text = (ROOT / "README.md").read_text()
    cpu = text.index("pip install torch --index-url https://download.pytorch.org/whl/cpu")
    assert cpu < text.index("pip install -e '.[train]'")
    assert cpu < text.index("pip install -e '.[rllib]'")


def test_install__the_training_extras_keep_the_installed_cpu_torch():
    """This environment has the CPU build of torch (``make`` installs it, pinned by
    ``constraints.txt``), as the README's first line gives a user. pip, asked what installing the
    ``train`` and ``rllib`` extras would install, must keep that torch and add no CUDA package
    (an extra pinning another torch, or naming an ``nvidia-*`` wheel, fails here)."""
    import torch

    assert "+cu" not in torch.__version__ and torch.version.cuda is None
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--report", "-"]
        + ["-e", f"{ROOT}[train,rllib]"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    would = [i["metadata"]["name"] for i in json.loads(done.stdout)["install"]]
    assert "cardenvs" in would  # the report is of this project
    assert not [n for n in would if CUDA.match(n)], f"pip would install {would}"


# -- a plain (non-editable) install, used from outside the checkout --------------------------------
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "cardenvs", "agents")


def _plain_install(tmp_path: Path) -> Path:
    """The package as ``pip install .`` installs it (a wheel built from a copy of the sources, no
    dependencies: this environment has them), into a folder of its own; returns the folder."""
    import shutil

    src = tmp_path / "src"
    src.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "*.pyc")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=skip)
        else:
            shutil.copy(path, src / name)
    target = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
        + ["--no-compile", "--target", str(target), str(src)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return target


def _run_installed(target: Path, cwd: Path, args, stdin: str = "", timeout: int = 300):
    """``python args`` with only the installed copy importable (not the checkout: another
    folder, and ``PYTHONPATH`` the install's). numba's JIT is off: the kernels run as plain
    Python, so nothing is compiled for this copy (what is checked is the package's contents;
    compiling is tested elsewhere)."""
    import os

    env = dict(os.environ, PYTHONPATH=str(target), NUMBA_DISABLE_JIT="1", PYTHONNOUSERSITE="1")
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def test_install__a_plain_install_plays_against_the_baselines_and_runs_the_evaluate_guide(
    tmp_path,
):
    """Issue 49, item 3: from a non-editable install outside the checkout, the baselines are
    ``cardenvs.agents`` (no top-level ``agents`` is installed), ``python -m cardenvs.play
    piquet-v0 --against heuristic`` (and ``ismcts``) plays a whole deal, and the python blocks of
    the "Evaluate your agent" guide run."""
    target = _plain_install(tmp_path)
    assert (target / "cardenvs" / "agents" / "heuristic.py").is_file()
    assert (target / "cardenvs" / "arena" / "match.py").is_file()
    assert not (target / "agents").exists()
    away = tmp_path / "elsewhere"
    away.mkdir()
    where = _run_installed(
        target,
        away,
        [
            "-c",
            "import cardenvs, cardenvs.agents, cardenvs.arena, importlib.util; "
            "print(cardenvs.__file__); print(cardenvs.agents.__file__); "
            "print(importlib.util.find_spec('agents'))",
        ],
    )
    assert where.returncode == 0, where.stderr[-2000:]
    lines = where.stdout.split()
    assert lines[0].startswith(str(target)) and lines[1].startswith(str(target))
    assert lines[2] == "None"  # no top-level "agents" to clash with other packages
    for against in ("heuristic", "ismcts"):
        record = away / f"{against}.json"
        game = _run_installed(
            target,
            away,
            ["-m", "cardenvs.play", "piquet-v0", "--against", against, "--iterations", "3"]
            + ["--config", '{"episode": "deal"}', "--seed", "3", "--record", str(record)],
            stdin="1\n" * 400,
        )
        assert game.returncode == 0, game.stderr[-2000:]
        saved = json.loads(record.read_text())
        assert saved["players"] == ["human", against] and saved["result"] is not None
    guide = ROOT / "docs" / "guides" / "evaluate.md"
    blocks = re.findall(r"```python\n(.*?)```", guide.read_text(encoding="utf-8"), re.DOTALL)
    script = away / "evaluate_guide.py"
    # fewer games than the guide's 20 (its numbers are not checked here; plain Python is slow)
    text = "\n".join(blocks).replace("n=20,", "n=2,").replace("budget_s=60,", "budget_s=8,")
    script.write_text(text, encoding="utf-8")
    assert text.count("n=2,") == 2 and text.count("budget_s=8,") == 1
    ran = _run_installed(target, away, [str(script)], timeout=600)
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert "against heuristic: won" in ran.stdout and "rating" in ran.stdout
    assert "highest: rating " in ran.stdout  # rated on the shipped reference ladder


def test_install__the_package_list_is_the_tree():
    """``pyproject.toml`` lists the packages (so that ``cardenvs.agents`` maps to ``agents/``):
    every package folder of ``cardenvs/`` is listed, and nothing else but that mapping."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    tree = {
        ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "cardenvs").rglob("__init__.py")
    }
    # the data folders: each listed, with its files' patterns as package data, and no code
    data = set(config["package-data"])
    for name in data:
        folder = ROOT.joinpath(*name.split("."))
        assert folder.is_dir() and not (folder / "__init__.py").exists(), name
        assert all(any(folder.glob(pattern)) for pattern in config["package-data"][name]), name
    assert set(config["packages"]) == tree | {"cardenvs.agents"} | data
    assert config["package-dir"] == {"cardenvs.agents": "agents"}
    assert (ROOT / "agents" / "__init__.py").is_file()
