"""The layers of the house (``docs/architecture.md``, "Layers"): every module of the library, the
baselines, the trainers and the benchmarks sits on one layer of ``LAYERS``, and imports only
modules of its own layer or of the layers below, never in a circle.

The rule, with no exceptions: every import a module names counts, at module level or inside a
function (or under ``TYPE_CHECKING``), and so does a literal ``importlib.import_module("...")``
or ``__import__("...")``; a relative import counts as the absolute module it resolves to
(``agents.x`` and ``cardenvs.agents.x`` are one module). An import names the module it imports,
not the packages above it (importing ``cardenvs.core.vector`` runs ``cardenvs/__init__.py``
too; that is Python's doing, not an arrow of the house). Besides:

- a game package imports ``core`` and its own family only (``BUILDS_ON``: Auction Piquet and
  Piquet au cent build on ``games/piquet``);
- core imports nothing outside the standard library but ``CORE_THIRD_PARTY``, and Pillow
  (``CORE_LAZY``) only inside a function: ``import cardenvs`` never loads it;
- no module puts itself on ``sys.path``.

A failure names the pair: the importing module (file, line, function) and the module it imports.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: the layers, lowest first: a name and the files on it (a path ending in "/" is every module
#: under that folder; the longest path that matches a file places it)
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("cardenvs/core/",)),
    ("games", ("cardenvs/games/",)),
    (
        "library",
        (
            "cardenvs/__init__.py",
            "cardenvs/registry.py",
            "cardenvs/records.py",
            "cardenvs/compile.py",
            "cardenvs/docs.py",
            "cardenvs/policy.py",
            "cardenvs/zoo/",
            "cardenvs/wrappers/",
            "agents/",
            "cardenvs/arena/",
        ),
    ),
    (
        "programs",
        (
            "cardenvs/ui/",
            "cardenvs/play.py",
            "cardenvs/web.py",
            "cardenvs/view.py",
            "cardenvs/demo.py",
        ),
    ),
    ("train", ("train/",)),
    ("benchmarks", ("benchmarks/",)),
)
#: the folders of the project's Python code (``tests/`` is not a layer: it may import anything)
FOLDERS = ("cardenvs", "agents", "train", "benchmarks")
#: the game packages that build on another family's package (besides core)
BUILDS_ON = {
    "cardenvs/games/auction_piquet/": "cardenvs/games/piquet/",
    "cardenvs/games/piquet_au_cent/": "cardenvs/games/piquet/",
}
#: what core may import besides the standard library and itself
CORE_THIRD_PARTY = {"numpy", "numba", "llvmlite", "pettingzoo", "gymnasium"}
#: what core may import inside a function only (the pictures' Pillow: the first picture loads it)
CORE_LAZY = {"PIL"}


@dataclass(frozen=True)
class Import:
    """One import of a module of the project: who imports what, and where."""

    source: str  # the importing module ("cardenvs.core.aec")
    target: str  # the module it names, resolved ("cardenvs.core.vector"), or a foreign top name
    path: str  # the importing file, relative to the root
    line: int
    where: str  # "module level", "in <function>" or "under TYPE_CHECKING"

    def __str__(self) -> str:
        return f"{self.source} ({self.path}:{self.line}, {self.where}) imports {self.target}"


def module_name(rel: str) -> str:
    """``cardenvs/core/aec.py`` -> ``cardenvs.core.aec``; the baselines of ``agents/`` are the
    package ``cardenvs.agents`` (``pyproject.toml``)."""
    parts = list(Path(rel).with_suffix("").parts)
    if parts[0] == "agents":
        parts.insert(0, "cardenvs")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def files(root: Path = ROOT) -> dict[str, str]:
    """Every module of the project under ``root``: module name -> path relative to ``root``."""
    out = {}
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            out[module_name(rel)] = rel
    return out


def _canonical(name: str) -> str:
    return "cardenvs." + name if name == "agents" or name.startswith("agents.") else name


def _contexts(node: ast.AST, where: str = "module level"):
    """Every node under ``node`` with where it runs: "module level", "in <function>" (the
    outermost function around it) or "under TYPE_CHECKING"."""
    for child in ast.iter_child_nodes(node):
        inner = where
        if where == "module level":
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = f"in {child.name}"
            elif isinstance(child, ast.Lambda):
                inner = "in lambda"
            elif (
                isinstance(node, ast.If)
                and child in node.body
                and "TYPE_CHECKING" in ast.unparse(node.test)
            ):
                inner = "under TYPE_CHECKING"
        yield child, inner
        yield from _contexts(child, inner)


def imports(root: Path = ROOT) -> list[Import]:
    """Every import of every module of the project (see the module docstring), foreign ones
    under their top-level name."""
    modules = files(root)

    def resolve(name: str) -> str | None:
        name = _canonical(name)
        parts = name.split(".")
        while parts:
            if ".".join(parts) in modules:
                return ".".join(parts)
            parts.pop()
        return None

    out = []
    for source, rel in modules.items():
        package = source if rel.endswith("__init__.py") else source.rpartition(".")[0]
        tree = ast.parse((root / rel).read_text(), rel)
        for node, where in _contexts(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - node.level + 1]
                    full = ".".join(base + ([node.module] if node.module else []))
                else:
                    full = node.module
                for a in node.names:  # a submodule, else the module the name comes from
                    sub = _canonical(f"{full}.{a.name}")
                    names.append(sub if sub in modules else full)
            elif isinstance(node, ast.Call):
                f = node.func
                called = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
                if (
                    called in ("import_module", "__import__")
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                ):
                    literal = node.args[0].value
                    if literal.startswith("."):  # relative to the caller's package
                        dots = len(literal) - len(literal.lstrip("."))
                        base = package.split(".")[: len(package.split(".")) - dots + 1]
                        literal = ".".join(base + [literal.lstrip(".")]).rstrip(".")
                    names = [literal]
            for name in dict.fromkeys(names):  # once per module named
                target = resolve(name)
                if target is None:
                    target = _canonical(name).split(".")[0]
                    if target in ("cardenvs", "train", "benchmarks"):
                        target = name  # a module of the project that is not there: say so
                if target != source:
                    out.append(Import(source, target, rel, node.lineno, where))
    return out


def layer_of(rel: str) -> tuple[int, str] | None:
    """The rank and name of the layer of the file ``rel`` (None: no layer holds it)."""
    best = None
    for rank, (name, paths) in enumerate(LAYERS):
        for p in paths:
            if rel == p or (p.endswith("/") and rel.startswith(p)):
                if best is None or len(p) > best[0]:
                    best = (len(p), rank, name)
    return None if best is None else best[1:]


def _family(rel: str) -> str:
    """The family folder of a file of ``cardenvs/games/`` (``"cardenvs/games/piquet/"``)."""
    parts = rel.split("/")
    return "/".join(parts[:3]) + "/" if len(parts) > 3 else rel


def violations(root: Path = ROOT) -> list[str]:
    """Every import against the layer order, out of a game's family, of a foreign package core
    may not import, or in a circle; one line each."""
    modules = files(root)
    found = imports(root)
    out = []
    for rel in modules.values():
        if layer_of(rel) is None:
            out.append(f"{rel} is on no layer: place it in tests/test_layers.py LAYERS")
    for imp in found:
        if imp.target not in modules:
            if imp.target.split(".")[0] in ("cardenvs", "train", "benchmarks"):
                out.append(f"{imp}: no such module")
            elif imp.path.startswith("cardenvs/core/"):
                top = imp.target
                lazy = top in CORE_LAZY and imp.where != "module level"
                if not (top in sys.stdlib_module_names or top in CORE_THIRD_PARTY or lazy):
                    out.append(
                        f"{imp}: core imports only the standard library and "
                        f"{sorted(CORE_THIRD_PARTY)} ({sorted(CORE_LAZY)} in a function)"
                    )
            continue
        target_rel = modules[imp.target]
        mine, theirs = layer_of(imp.path), layer_of(target_rel)
        if mine is None or theirs is None:
            continue
        if theirs[0] > mine[0]:
            out.append(f"{imp}: {mine[1]} may not import {theirs[1]} (a layer above)")
        elif mine[1] == "games" == theirs[1]:
            family = _family(imp.path)
            allowed = {family, BUILDS_ON.get(family)}
            if _family(target_rel) not in allowed and target_rel != "cardenvs/games/__init__.py":
                out.append(f"{imp}: a game imports core and its own family only")
    out += [f"a circle: {' -> '.join(c)}" for c in circles(found, modules)]
    return list(dict.fromkeys(out))


def circles(found: list[Import], modules: dict[str, str]) -> list[list[str]]:
    """Every circle of imports (a strongly connected set of more than one module), as a path
    of the modules that import each other, each arrow with the line that draws it."""
    graph: dict[str, dict[str, Import]] = {m: {} for m in modules}
    for imp in found:
        if imp.target in modules:
            graph[imp.source].setdefault(imp.target, imp)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []
    counter = 0
    for start in graph:  # Tarjan's algorithm, iterative
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    group.append(m)
                    if m == node:
                        break
                if len(group) > 1:
                    groups.append(set(group))
    out = []
    for group in groups:  # the shortest way round from the group's first module, and back
        first = min(group)
        came: dict[str, str | None] = {first: None}
        queue, last = [first], None
        while queue and last is None:
            node = queue.pop(0)
            for child in sorted(graph[node]):
                if child == first:
                    last = node
                    break
                if child in group and child not in came:
                    came[child] = node
                    queue.append(child)
        path = [last]
        while came[path[-1]] is not None:
            path.append(came[path[-1]])
        path.reverse()
        out.append([f"[{graph[a][b]}]" for a, b in zip(path, path[1:] + [first], strict=True)])
    return out


# --- the house -----------------------------------------------------------------------------------
def test_layers__every_import_keeps_the_layer_order_and_no_circle():
    found = violations()
    assert not found, "imports against the layers:\n" + "\n".join(found)


def test_layers__nothing_puts_itself_on_sys_path():
    """The library, the baselines and the trainers import each other as installed (the
    benchmarks' attack harness starts Python processes of its own)."""
    for rel in files().values():
        if rel.startswith("benchmarks/"):
            continue
        assert "sys.path.insert" not in (ROOT / rel).read_text(), f"{rel} changes sys.path"


def test_layers__the_architecture_page_shows_the_layers_of_the_test():
    """``docs/architecture.md`` lists the layers in this order, each with its paths."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    rows = [line for line in text.splitlines() if line.startswith("| ") and " | `" in line]
    listed = []
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0].isdigit():
            listed.append((cells[1], tuple(p.strip("` ") for p in cells[2].split(", "))))
    assert listed == [(name, paths) for name, paths in LAYERS]


# --- the checker itself --------------------------------------------------------------------------
def _tree(root: Path, sources: dict[str, str]) -> Path:
    for rel, text in sources.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for folder in FOLDERS:
        (root / folder).mkdir(exist_ok=True)
    return root


BASE = {
    "cardenvs/__init__.py": "from .registry import lookup\n",
    "cardenvs/registry.py": "import importlib\n",
    "cardenvs/core/__init__.py": "",
    "cardenvs/core/vector.py": "import numpy as np\n",
    "cardenvs/core/aec.py": "from .vector import np\nfrom pettingzoo import AECEnv\n",
    "cardenvs/games/__init__.py": "",
    "cardenvs/games/esel/__init__.py": "from ...core.aec import AECEnv\nfrom . import rulings\n",
    "cardenvs/games/esel/rulings.py": "",
    "cardenvs/games/piquet/__init__.py": "",
    "cardenvs/games/piquet_au_cent/__init__.py": "from ..piquet import x\n",
    "cardenvs/ui/__init__.py": "",
    "cardenvs/ui/events.py": "from ..registry import lookup\n",
    "train/ppo.py": "import cardenvs\n",
    "benchmarks/bench.py": "from train import ppo\n",
}


def test_layers__the_checker_passes_a_tree_in_order(tmp_path):
    assert violations(_tree(tmp_path, BASE)) == []


@pytest.mark.parametrize(
    "rel, text, says",
    [
        (  # core reaching up from inside a function
            "cardenvs/core/events.py",
            "def winner():\n    from ..games.esel.rulings import trick_winner\n",
            "cardenvs.core.events (cardenvs/core/events.py:2, in winner) imports "
            "cardenvs.games.esel.rulings: core may not import games",
        ),
        (  # a literal import_module
            "cardenvs/core/coldstart.py",
            "import importlib\nR = importlib.import_module('cardenvs.registry')\n",
            "cardenvs.core.coldstart (cardenvs/core/coldstart.py:2, module level) imports "
            "cardenvs.registry: core may not import library",
        ),
        (  # __import__ and the checkout's name of the baselines
            "train/evaluate.py",
            "def f():\n    return __import__('benchmarks.bench')\n",
            "train may not import benchmarks",
        ),
        (  # one game importing another
            "cardenvs/games/esel/rules.py",
            "from ..piquet import cards\n",
            "a game imports core and its own family only",
        ),
        (  # Pillow at import time in core
            "cardenvs/core/picture.py",
            "from PIL import Image\n",
            "core imports only the standard library",
        ),
        (  # under TYPE_CHECKING counts too
            "cardenvs/core/game.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..ui import events\n",
            "(cardenvs/core/game.py:3, under TYPE_CHECKING) imports cardenvs.ui.events: core",
        ),
        (  # a module no layer holds
            "cardenvs/extra.py",
            "",
            "cardenvs/extra.py is on no layer",
        ),
    ],
)
def test_layers__the_checker_names_an_import_against_the_order(tmp_path, rel, text, says):
    found = violations(_tree(tmp_path, BASE | {rel: text}))
    assert any(says in line for line in found), found


def test_layers__the_checker_names_a_circle_within_a_layer(tmp_path):
    """Modules of one layer may import each other, but not round in a circle (here through a
    function-level import of the registry)."""
    planted = BASE | {
        "cardenvs/records.py": "from .registry import lookup\n",
        "cardenvs/registry.py": "def replay():\n    from .records import replay_record\n",
    }
    found = violations(_tree(tmp_path, planted))
    assert [line for line in found if line.startswith("a circle")] == [
        "a circle: [cardenvs.records (cardenvs/records.py:1, module level) imports "
        "cardenvs.registry] -> [cardenvs.registry (cardenvs/registry.py:2, in replay) imports "
        "cardenvs.records]"
    ]
