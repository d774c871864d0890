"""The command lines' help: every ``train`` and ``benchmarks`` program (and
``cardenvs.compile``) calls itself by the command that runs it (``python -m train.evaluate``,
not ``evaluate.py``), and ``train.evaluate`` explains every argument (issue 52, item 7)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted(
    [*(ROOT / "train").glob("*.py"), *(ROOT / "benchmarks").glob("*.py")]
    + [ROOT / "cardenvs" / "compile.py"]
)


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "attr", getattr(node.func, "id", None)) == name
    ]


def _keyword(call: ast.Call, name: str):
    return next((k.value for k in call.keywords if k.arg == name), None)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_help__every_program_is_named_by_its_python_m_command(path):
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    for call in _calls(ast.parse(path.read_text(encoding="utf-8")), "ArgumentParser"):
        prog = _keyword(call, "prog")
        assert isinstance(prog, ast.Constant), f"{path.name}:{call.lineno}: no prog="
        assert prog.value == f"python -m {module}", f"{path.name}:{call.lineno}"


def test_help__the_programs_are_found():
    names = {p.name for p in PROGRAMS}
    assert {"evaluate.py", "ppo.py", "tournament.py", "cold_start.py", "compile.py"} <= names


def test_help__train_evaluate_names_itself_and_explains_every_argument(capsys):
    from train import evaluate

    tree = ast.parse(Path(evaluate.__file__).read_text(encoding="utf-8"))
    arguments = _calls(tree, "add_argument")
    assert len(arguments) >= 14
    bare = [ast.unparse(c.args[0]) for c in arguments if _keyword(c, "help") is None]
    assert not bare, f"arguments without a help string: {bare}"
    with pytest.raises(SystemExit):
        evaluate.parse(["--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m train.evaluate ") and "evaluate.py" not in out
    assert "games per seating arrangement" in out and "--search SEARCH" in out
