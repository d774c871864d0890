"""The house (``docs/architecture.md``): every engine package has the same file set, no module
of ``cardenvs/``, ``agents/``, ``train/`` or ``benchmarks/`` is longer than the limit (and the
native trainer's script than its own), every engine's batched kernels are the template's text,
every engine steps through ``StepKernels``, and the AEC env is a client of the batched engine's
public interface."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.core import kernel_template
from cardenvs.core.game import StepKernels

PACKAGE = Path(cardenvs.__file__).parent
ROOT = Path(__file__).resolve().parent.parent  # the checkout
ENGINE_FILES = {
    "__init__.py",
    "constants.py",
    "config.py",
    "layout.py",
    "rules.py",
    "observe.py",
    "kernels.py",
    "determinization.py",
    "record.py",
    "rulings.py",
    "text.py",
    "scene.py",
}
MAX_LINES = 800
MAX_SCRIPT_LINES = 650  # train/ppo.py


@pytest.mark.parametrize("engine", list(kernel_template.ENGINES))
def test_house__every_engine_package_has_the_standard_files(engine):
    present = {p.name for p in (PACKAGE / engine).glob("*.py")}
    assert ENGINE_FILES <= present, f"{engine} lacks {sorted(ENGINE_FILES - present)}"


def test_house__no_module_is_longer_than_the_limit():
    """Every module of the library, the agents, the trainers and the benchmarks; the native
    trainer, one script in CleanRL's shape, stays under a tighter limit (what other programs
    share lives in modules of its own: ``train/credit.py``, ``league.py``, ``model_file.py``,
    ``runlog.py``)."""
    long = {
        str(p.relative_to(ROOT)): n
        for folder in ("cardenvs", "agents", "train", "benchmarks")
        for p in (ROOT / folder).rglob("*.py")
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"
    script = len((ROOT / "train" / "ppo.py").read_text().splitlines())
    assert script <= MAX_SCRIPT_LINES, f"train/ppo.py has {script} lines, over {MAX_SCRIPT_LINES}"


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
    monkeypatch.setattr(kernel_template, "ENGINES", ("games/esel",))
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


def _engine_modules(engine):
    import importlib

    pkg = "cardenvs." + engine.replace("/", ".")
    layout = importlib.import_module(pkg + ".layout")
    config = importlib.import_module(pkg + ".config")
    return layout, config


def _kernel_options(config_module):
    """The config class whose kernel fields lay out the engine's config vector."""
    from cardenvs.core.game import GameConfig

    classes = [
        v
        for v in vars(config_module).values()
        if isinstance(v, type)
        and issubclass(v, GameConfig)
        and v.__module__ == config_module.__name__
    ]
    layouts = {tuple(f.name for f in c.kernel_fields()) for c in classes if "ENV_ID" in c.__dict__}
    assert len(layouts) == 1, f"{config_module.__name__}: ids with different kernel layouts"
    return layouts.pop()


@pytest.mark.parametrize("engine", list(kernel_template.ENGINES))
def test_house__offsets_and_option_indices_are_named_after_their_fields_in_full(engine):
    """``F_<FIELD>`` (and ``M_``, ``V_``) is the offset of state field ``<field>`` in its array,
    ``O_<BLOCK>`` the offset of observation block ``<block>`` (``B_<BLOCK>`` its index where the
    offsets depend on the seat count), ``C_<OPTION>`` the config vector's item of option
    ``<option>``: one prefix per kind, every name spelled out."""
    import re

    for env_id in cardenvs.GAMES:  # each id's GameDef sets its config class's ENV_ID
        cardenvs.game_info(env_id)
    layout, config = _engine_modules(engine)
    slots = layout.LAYOUT.slots
    obs = getattr(layout, "OBS_LAYOUTS", None) or {0: layout.OBS_LAYOUT}
    blocks = [f.name for f in next(iter(obs.values()))]
    wrong = []
    for name, value in vars(layout).items():
        m = re.fullmatch(r"([MVFOB])_([A-Z0-9_]+)", name)
        if not m or not isinstance(value, int) or name == "B_END":
            continue
        kind, field = m.group(1), m.group(2).lower()
        if kind in "MVF":
            ok = field in slots and slots[field][:2] == (kind.lower(), value)
        elif kind == "O":
            ok = field in blocks and all(
                sum(f.size for f in lay[: [f.name for f in lay].index(field)]) == value
                for lay in obs.values()
            )
        else:
            ok = field in blocks and blocks.index(field) == value
        if not ok:
            wrong.append(name)
    options = _kernel_options(config)
    for name, value in vars(config).items():
        m = re.fullmatch(r"C_([A-Z0-9_]+)", name)
        if m and isinstance(value, int) and not (options[value] == m.group(1).lower()):
            wrong.append(name)
    assert not wrong, f"{engine}: names that do not spell their field, block or option: {wrong}"


@pytest.mark.parametrize("engine", list(kernel_template.ENGINES))
def test_house__no_abbreviated_helper_names(engine):
    """The number of players is ``num_players`` (or ``P`` inside a kernel), never ``_np``; a
    deck index and a card id convert through ``card_of``/``index_of`` over ``core.cards``, not
    a game's own ``gid``/``lid`` arithmetic."""
    import re

    for path in (PACKAGE / engine).glob("*.py"):
        text = path.read_text()
        assert not re.search(r"\b(_np|gid|lid)\b", text), path
        assert "* 13 + (" not in text, f"{path}: card-index arithmetic belongs in core.cards"


# where numba itself may inline (``inline="always"``): each function named here, or every function
# of a file named with "*" (core.game.GameDef: everywhere else LLVM inlines, forceinline=True)
NUMBA_INLINED = {
    "core/step_args.py": "*",  # borrowed views and the constant config: must be in the step itself
    "core/kernel_template.py": {"_step_rows"},
    "games/four_aces/rules.py": "*",  # measured faster to compile and to run that way
    "games/four_aces/observe.py": "*",
    # the step's dispatch on the phase: a thin body over the whole game, which LLVM would
    # optimise once more on its own (Piquet's first compile 46 s -> 22 s)
    "games/piquet/rules.py": {"specialise", "general", "_apply", "_apply_action"},
    "games/piquet/multi/rules.py": {"specialise", "general", "_apply"},
    "games/banque/rules.py": {"specialise", "general", "_apply"},
    "games/esel/rules.py": {"specialise", "general", "_apply"},
}


def test_house__rule_helpers_are_inlined_by_llvm_not_by_numba():
    """numba's own inlining re-infers the types of the merged step: it made Banque's first
    compile 83 s instead of 25 s (core.game.GameDef). Only the places named above use it."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            if not (line.lstrip().startswith("@") and 'inline="always"' in line):
                continue
            name = next(x for x in lines[i + 1 :] if x.lstrip().startswith("def ")).split()[1]
            name = name.split("(")[0]
            allowed = NUMBA_INLINED.get(rel, set())
            if rel.endswith("/kernels.py"):
                allowed = NUMBA_INLINED["core/kernel_template.py"]  # generated from it
            if allowed != "*" and name not in allowed:
                found.append(f"{rel}: {name}")
    assert not found, "numba-inlined (use forceinline=True): " + ", ".join(found)


def test_house__a_game_def_needs_a_scene():
    """Every front end draws the table from the game's ``scene``: a ``GameDef`` without one is
    refused when it is built, not when a picture is first asked for."""
    import dataclasses

    with pytest.raises(TypeError, match="esel: a GameDef needs scene"):
        dataclasses.replace(cardenvs.game_info("esel-v0"), scene=None)


def test_house__the_aec_env_uses_only_the_engine_s_public_interface():
    """``core/aec.py`` reads no private attribute (``_name``) of anything but itself: the
    batched engine's one-row interface (``step_row``, ``row_info``, ...) is all it uses."""
    tree = ast.parse((PACKAGE / "core" / "aec.py").read_text())
    private = [
        f"line {node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]
    assert not private, f"core/aec.py reads private attributes: {private}"
