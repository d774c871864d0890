"""The house (``docs/architecture.md``): every engine package has the same file set, no module
is longer than the limit, every engine's batched kernels are the template's text, and every
engine steps through ``StepKernels``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.core import kernel_template
from cardenvs.core.game import StepKernels

PACKAGE = Path(cardenvs.__file__).parent
ENGINE_FILES = {
    "__init__.py",
    "constants.py",
    "config.py",
    "layout.py",
    "rules.py",
    "observe.py",
    "kernels.py",
    "search.py",
    "tools.py",
    "render.py",
}
MAX_LINES = 800


@pytest.mark.parametrize("engine", list(kernel_template.ENGINES))
def test_house__every_engine_package_has_the_standard_files(engine):
    present = {p.name for p in (PACKAGE / engine).glob("*.py")}
    assert ENGINE_FILES <= present, f"{engine} lacks {sorted(ENGINE_FILES - present)}"


def test_house__no_module_is_longer_than_the_limit():
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_house__every_kernels_file_is_the_template_s_text():
    """``python -m cardenvs.core.kernel_template`` regenerates them after a template edit."""
    assert kernel_template.stale() == []
    for engine in kernel_template.ENGINES:
        text = kernel_template.path_of(engine).read_text()
        assert text == kernel_template.render(engine)
        assert "do not edit" in text


def test_house__the_template_check_reports_a_stale_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(kernel_template, "PACKAGE", tmp_path)
    (tmp_path / "games" / "esel").mkdir(parents=True)
    (tmp_path / "games" / "esel" / "kernels.py").write_text("# edited by hand\n")
    monkeypatch.setattr(kernel_template, "ENGINES", {"games/esel": "esel-v0"})
    assert kernel_template.main(["--check"]) == 1
    assert "out of date: " in capsys.readouterr().out
    assert kernel_template.main([]) == 0
    assert kernel_template.main(["--check"]) == 0


@pytest.mark.parametrize("env_id", cardenvs.GAMES)
def test_house__every_id_steps_through_step_kernels(env_id):
    game = cardenvs.game_info(env_id)
    assert isinstance(game.step_for, StepKernels)
    venv = cardenvs.make_vector(env_id, 2, seed=0)
    assert venv._step_rows is game.step_kernel(venv._cfg)
    assert venv._step_rows in game.step_for.kernels.values()


def test_step_kernels__one_kernel_without_an_index_and_a_clear_error_for_a_missing_value():
    one = StepKernels(lambda v: ("kernel", v), [0], None, None)
    assert one(np.zeros(3, np.int64)) == ("kernel", 0)
    with pytest.raises(ValueError, match="exactly one value"):
        StepKernels(lambda v: v, [0, 1], None, None)
    fixed = StepKernels(lambda v: ("kernel", v), [1, 2], 0, None)
    assert fixed(np.array([2])) == ("kernel", 2)
    with pytest.raises(ValueError, match=r"config item 0 = 5; allowed: \[1, 2\]"):
        fixed(np.array([5]))
