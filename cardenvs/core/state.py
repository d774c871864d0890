"""Packed batched state, written once for every game.

A game's state is three row-major arrays with a leading batch axis ``N`` so that one row is a few
adjacent cache lines (the batched engine streams thousands of rows per step):

- ``m`` ``(N, ·) uint64``: card sets (bit ``c`` = card id ``c``), the random key, the episode;
- ``v`` ``(N, ·) int16``: scores and other wide numbers;
- ``f`` ``(N, ·) int8``: the deck order and every small field.

Each game lists its named fields in a ``StateLayout``; kernels index ``s.f[b, F_PHASE]`` with
offsets taken from the layout, Python code reads ``layout.field(state, "phase")``. Every game
has the fields the front ends read: ``key``, ``episode`` (m), ``last_points`` (v), ``deal_no``,
``dealer``, ``current``, ``phase``, ``winner`` (f).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import config

ARRAYS = {"m": np.uint64, "v": np.int16, "f": np.int8}
if config.DISABLE_JIT:
    # As plain Python the kernels compute with NumPy scalars, and NumPy 2 keeps an int8 or int16
    # operand's type (``O_PHASE + f[b, F_PHASE]`` overflows int8); compiled, numba widens them.
    # Wide arrays give plain Python the compiled code's arithmetic on the same values.
    ARRAYS = {"m": np.uint64, "v": np.int64, "f": np.int64}
COMMON_FIELDS = ("key", "episode", "last_points", "deal_no", "dealer", "current", "phase", "winner")


class PackedState(NamedTuple):
    """The batched state of any game (see the module docstring)."""

    m: np.ndarray  # (N, width_m) uint64: card sets, key, episode
    v: np.ndarray  # (N, width_v) int16: scores
    f: np.ndarray  # (N, width_f) int8: deck order and small fields


class StateLayout:
    """Named fields of a game's packed state.

    Args:
        game: the game's name (for messages).
        fields: ``(name, array, size, meaning)`` tuples, ``array`` one of ``"m" "v" "f"``.
    """

    def __init__(self, game: str, fields: Sequence[tuple[str, str, int, str]]):
        self.game = game
        self.fields = tuple(fields)
        self.slots: dict[str, tuple[str, int, int]] = {}
        self.widths = {a: 0 for a in ARRAYS}
        for name, arr, size, _doc in self.fields:
            if arr not in ARRAYS or name in self.slots:
                raise ValueError(f"bad state field {name!r} ({arr!r})")
            self.slots[name] = (arr, self.widths[arr], size)
            self.widths[arr] += size
        missing = [f for f in COMMON_FIELDS if f not in self.slots]
        if missing:
            raise ValueError(f"{game} state lacks the common fields {missing}")

    def __repr__(self) -> str:
        return f"StateLayout({self.game!r}, widths={self.widths})"

    def offset(self, name: str) -> int:
        """Column of field ``name`` in its array (a constant for the kernels)."""
        return self.slots[name][1]

    def new(self, n: int) -> PackedState:
        """A zeroed state for ``n`` games."""
        return PackedState(*(np.zeros((n, self.widths[a]), dt) for a, dt in ARRAYS.items()))

    def field(self, state: PackedState, name: str) -> np.ndarray:
        """A writable view of field ``name`` over all rows: ``(N,)`` or ``(N, size)``."""
        if name not in self.slots:
            raise ValueError(
                f"unknown {self.game} state field {name!r}; fields: {list(self.slots)}"
            )
        arr, off, size = self.slots[name]
        a = getattr(state, arr)
        return a[:, off] if size == 1 else a[:, off : off + size]

    def describe(self) -> str:
        """A Markdown table of the fields (for docstrings)."""
        rows = ["| field | array | size | meaning |", "|---|---|---:|---|"]
        rows += [f"| `{n}` | {a} | {s} | {d} |" for n, a, s, d in self.fields]
        return "\n".join(rows)
