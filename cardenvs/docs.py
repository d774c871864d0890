"""The reference tables of every game, generated from the code, and the rules pages that carry
them.

Usage (from a checkout; the pages are ``docs/**/*.md``)::

    python -m cardenvs.docs --check             # exit 1 naming every stale block (the default)
    python -m cardenvs.docs --write             # rewrite the stale blocks in place
    python -m cardenvs.docs --print actions esel-v0   # one table on stdout

What is written where: a page holds blocks between two markers,

    <!-- generated: KIND ID [ID ...] -->
    ...
    <!-- end generated -->

and ``--write`` replaces what lies between them, nothing else. ``KIND`` is one of ``KINDS``;
several ids name one shared table (the two-handed Piquet ids share their actions), and the
generator refuses ids whose tables differ. ``tests/test_docs.py`` fails while a block is stale
or while an id lacks a block of some kind.

Method: every table comes from what the engines run on. ``actions``: ``GameDef.action_names``
grouped by ``core.game.action_groups``, with when each is legal from the engine's
``constants.ACTION_DOCS`` (the table refuses a group without a text and a text without a
group). ``observation``: ``GameDef.obs_layout`` (``core.game.layout_table``). ``rewards``: the
id's package's ``REWARDS`` (``core.game.reward_table``, which checks that every ``episode`` x
``reward`` pair has a row). ``config``: ``Config.describe()``, the options' fields, defaults,
allowed values and docs.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .core.game import action_table, layout_table, reward_table
from .registry import GAMES, REGISTRY, lookup

KINDS = ("actions", "observation", "rewards", "config")
DOCS = Path(__file__).resolve().parent.parent / "docs"
FIX = "python -m cardenvs.docs --write"

_BLOCK = re.compile(
    r"<!-- generated: (?P<head>[^>]*?) -->\n(?P<body>.*?)<!-- end generated -->", re.DOTALL
)
_MARK = re.compile(r"<!-- (generated:[^>]*|end generated) -->")


def _constants(env_id: str):
    """The ``constants`` module of the engine that runs ``env_id`` (the sibling of its config
    class's module: ``games.piquet.constants`` for every two-handed Piquet id)."""
    game, _ = lookup(env_id)
    package = game.config_cls.__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.constants")


def table(kind: str, env_id: str) -> str:
    """The Markdown of one ``kind`` of table for ``env_id``."""
    if kind not in KINDS:
        raise ValueError(f"unknown table kind {kind!r}; allowed: {list(KINDS)}")
    game, _ = lookup(env_id)
    if kind == "actions":
        text = action_table(game.action_names, _constants(env_id).ACTION_DOCS)
        return f"{game.num_actions} actions.\n\n{text}"
    if kind == "observation":
        blocks = len(game.obs_layout)
        text = layout_table(game.obs_layout)
        return f"{game.obs_dim} numbers (`float32`) in {blocks} blocks.\n\n{text}"
    if kind == "rewards":
        return reward_table(importlib.import_module(REGISTRY[env_id][0]).REWARDS)
    return game.config_cls.describe()


def shared_table(kind: str, ids: list[str]) -> str:
    """The one table of ``kind`` that every id of ``ids`` has; a ``ValueError`` if they differ."""
    if not ids:
        raise ValueError(f"a {kind} block names no environment id; allowed: {list(GAMES)}")
    texts = {env_id: table(kind, env_id) for env_id in ids}
    first = texts[ids[0]]
    differ = [env_id for env_id in ids if texts[env_id] != first]
    if differ:
        raise ValueError(
            f"the {kind} tables of {differ} differ from that of {ids[0]}: give each its own block"
        )
    return first


@dataclass(frozen=True)
class Block:
    """One generated block of a page: its kind, ids, line and current text."""

    path: Path
    line: int
    kind: str
    ids: tuple[str, ...]
    body: str

    @property
    def label(self) -> str:
        return f"{self.path}:{self.line}: {self.kind} {' '.join(self.ids)}"

    def expected(self) -> str:
        return f"\n{shared_table(self.kind, list(self.ids))}\n\n"


def blocks(path: Path, text: str | None = None) -> list[Block]:
    """The generated blocks of the page at ``path`` (a ``ValueError`` names a marker without its
    pair, an unknown kind or an unknown id, with its line)."""
    text = path.read_text(encoding="utf-8") if text is None else text
    found, spans = [], []
    for m in _BLOCK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        kind, *ids = m["head"].split()
        where = f"{path}:{line}"
        if kind not in KINDS:
            raise ValueError(f"{where}: unknown block kind {kind!r}; allowed: {list(KINDS)}")
        unknown = [env_id for env_id in ids if env_id not in GAMES]
        if unknown or not ids:
            raise ValueError(
                f"{where}: unknown environment id(s) {unknown or '(none)'}; allowed: {list(GAMES)}"
            )
        found.append(Block(path, line, kind, tuple(ids), m["body"]))
        spans.append((m.start(), m.end()))
    for m in _MARK.finditer(text):
        if not any(a <= m.start() < b for a, b in spans):
            line = text.count("\n", 0, m.start()) + 1
            raise ValueError(
                f"{path}:{line}: marker {m.group(0)!r} without its pair "
                "('<!-- generated: KIND ID ... -->' ... '<!-- end generated -->')"
            )
    return found


def render(path: Path, text: str | None = None) -> str:
    """The page at ``path`` with every generated block current."""
    text = path.read_text(encoding="utf-8") if text is None else text
    out, last = [], 0
    for m, block in zip(_BLOCK.finditer(text), blocks(path, text), strict=True):
        out.append(text[last : m.start("body")] + block.expected())
        last = m.end("body")
    return "".join(out) + text[last:]


def pages(root: Path = DOCS) -> list[Path]:
    """Every Markdown page under ``root`` (``docs/``)."""
    if not root.is_dir():
        raise FileNotFoundError(f"no docs folder at {root}: run cardenvs.docs from a checkout")
    return sorted(root.rglob("*.md"))


def stale(root: Path = DOCS) -> list[str]:
    """The blocks under ``root`` whose text differs from what the code generates."""
    return [b.label for p in pages(root) for b in blocks(p) if b.body != b.expected()]


def missing(root: Path = DOCS) -> list[str]:
    """``"KIND ID"`` for every id and kind that no block under ``root`` covers."""
    covered = {(b.kind, env_id) for p in pages(root) for b in blocks(p) for env_id in b.ids}
    return [f"{k} {env_id}" for env_id in GAMES for k in KINDS if (k, env_id) not in covered]


def write(root: Path = DOCS) -> list[Path]:
    """Rewrite the pages under ``root`` whose blocks are stale; returns the pages written."""
    written = []
    for p in pages(root):
        text = p.read_text(encoding="utf-8")
        new = render(p, text)
        if new != text:
            p.write_text(new, encoding="utf-8")
            written.append(p)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cardenvs.docs", description=__doc__.split("\n\n")[0]
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="report stale blocks (the default)")
    mode.add_argument("--write", action="store_true", help="rewrite stale blocks in place")
    mode.add_argument("--print", nargs=2, metavar=("KIND", "ID"), help="print one table")
    parser.add_argument(
        "--root", type=Path, default=DOCS, help="the docs folder (default: %(default)s)"
    )
    args = parser.parse_args(argv)
    if args.print:
        kind, env_id = args.print
        if kind not in KINDS:
            parser.error(f"--print: unknown kind {kind!r}; allowed: {list(KINDS)}")
        if env_id not in GAMES:
            parser.error(f"--print: unknown environment id {env_id!r}; allowed: {list(GAMES)}")
        print(table(kind, env_id))
        return 0
    if not args.root.is_dir():
        parser.error(f"--root {args.root} is not a folder")
    if args.write:
        for p in write(args.root):
            print(f"wrote {p}")
    else:
        bad = stale(args.root)
        for label in bad:
            print(f"stale: {label}")
        if bad:
            print(f"fix: {FIX}")
            return 1
    gaps = missing(args.root)
    for gap in gaps:
        print(f"no block: {gap}")
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
