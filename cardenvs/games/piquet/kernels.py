"""Two-handed Piquet's batched kernels, the entry points the front ends call (``reset_rows``,
``step_rows``, ``observe_rows``, ``observe_row``, ``legal_row``), and ``declare_row`` for the
helpers. Rules: ``docs/games/piquet.md``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardenvs.core.prefetch import STEP_BLOCK, prefetch_ahead

from ...core.borrow import borrowed_step
from .constants import PHASE_OVER
from .declare import _declare
from .layout import F_CURRENT, F_PHASE, M_EPISODE, M_KEY
from .observe import _observe
from .rules import _apply, _is_legal, _legal, _reset, _write_rewards

_NO_DECK = np.full(1, -1, np.int8)  # "shuffle a new deck" for _reset


# --- batched kernels (the only entry points the front ends call) -------------------------------
@njit(cache=True)
def reset_rows(s, cfg, rows, keys, episodes, decks, dealers, obs, mask):
    """Start a partie in each row of ``rows``; write its first observation and mask."""
    for i in range(rows.shape[0]):
        b = rows[i]
        _reset(s, b, cfg, keys[b], episodes[b], decks[b], dealers[b])
        legal_row(s, b, cfg, mask[b])
        observe_row(s, b, cfg, s.f[b, F_CURRENT], obs[b])


@njit(cache=True)
def step_rows(s, cfg, actions, autoreset, obs, mask, rewards, terminated):
    """Apply ``actions[b]`` in every row; write rewards, termination, next observation and mask.

    A row whose game is over (without autoreset) or whose action is illegal is left unchanged.
    """
    s, cfg, obs, mask, rewards = borrowed_step(s, cfg, obs, mask, rewards)  # no refcounting
    no_deck = _NO_DECK
    n = actions.shape[0]
    for lo in range(0, n, STEP_BLOCK):  # a block's state stays in cache for its passes
        hi = min(lo + STEP_BLOCK, n)
        for b in range(lo, hi):
            for seat in range(2):
                rewards[b, seat] = 0.0
            if s.f[b, F_PHASE] == PHASE_OVER:
                continue
            terminated[b] = False
            if not _is_legal(s, b, cfg, actions[b]):  # never trust a buffer the caller could write
                continue
            _apply(s, b, cfg, actions[b])
            if s.f[b, F_PHASE] == PHASE_OVER:
                terminated[b] = True
                _write_rewards(s, b, cfg, rewards[b])
                if autoreset:
                    _reset(s, b, cfg, s.m[b, M_KEY], s.m[b, M_EPISODE] + np.uint64(1), no_deck, -1)
        # the masks and the observations in passes of their own over the rows: each pass keeps
        # one kernel hot (Banque 15% faster than doing everything row by row, the others level)
        for b in range(lo, hi):
            _legal(s, b, cfg, mask[b])
        for b in range(lo, hi):
            prefetch_ahead(obs, b)  # big batches: fetch a later row while this one is written
            _observe(s, b, cfg, s.f[b, F_CURRENT] if s.f[b, F_CURRENT] >= 0 else 0, obs[b])


@njit(cache=True)
def observe_rows(s, cfg, seats, out):
    """Write each row's observation for ``seats[b]`` into ``out[b]``."""
    for b in range(seats.shape[0]):
        observe_row(s, b, cfg, seats[b], out[b])


@njit(cache=True)
def observe_row(s, b, cfg, seat, out):
    """Write ``seat``'s observation of row ``b`` into ``out`` (``_observe`` as a call of its own,
    so that only ``step_rows`` inlines it)."""
    _observe(s, b, cfg, seat, out)


@njit(cache=True)
def legal_row(s, b, cfg, out):
    """Write the legal-action mask of row ``b`` into ``out`` (search on state copies)."""
    _legal(s, b, cfg, out)


@njit(cache=True)
def declare_row(s, b, cfg):
    """Run the declarations of row ``b`` (for the rules helper)."""
    _declare(s, b, cfg)
