"""Say so when a game's kernels have to be compiled, instead of leaving a silent terminal.

numba compiles a kernel on its first call and keeps the machine code in ``__pycache__``
(``cache=True``); a later process loads it in well under a second. The first use of a game after
an install (or after its sources changed) therefore waits for the compiler: about half a minute
to a minute and a half per engine on a 2-core machine (``COMPILE_SECONDS``). When an engine is built
(``core.vector.CardVectorEnv``, and so every AEC env) and one of the kernels it calls has no
cached machine code, ``announce`` says so once per engine and process:

    compiling esel-v0 kernels (first use only, up to about 35 s; python -m cardenvs.compile
    compiles every game ahead)...

on stderr where someone is watching (a terminal or a notebook), else as an ``INFO`` record of
the ``cardenvs`` logger, so logs and test output stay clean. ``NUMBA_DISABLE_JIT=1`` compiles
nothing and says nothing.
"""

from __future__ import annotations

import logging
import sys

from numba import config

#: seconds from ``import cardenvs`` to the first batched step with an empty cache, one process
#: alone on the 2-core reference machine (``benchmarks.cold_start``, 2026-12-03; the first AEC
#: step takes about as long)
COMPILE_SECONDS = {
    "cardenvs.games.piquet": 65,
    "cardenvs.games.piquet.multi": 35,
    "cardenvs.games.banque": 85,
    "cardenvs.games.esel": 35,
    "cardenvs.games.four_aces": 15,
}

LOG = logging.getLogger("cardenvs")
_checked: set[str] = set()  # engines already looked at in this process


def is_cached(kernel) -> bool:
    """Whether numba's cache holds machine code of ``kernel`` for its current source (a kernel
    that does not cache, or a cache this numba cannot read, counts as cached: nothing to say)."""
    cache = getattr(kernel, "_cache", None)
    cache_file = getattr(cache, "_cache_file", None)
    if cache_file is None:
        return True
    try:
        return bool(cache_file._load_index())  # {} when absent, or stale for the source
    except Exception:  # noqa: BLE001 - numba internals: never fail a user's env on them
        return True


def _watched(stream) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) or "ipykernel" in sys.modules


def announce(game, step_kernel, stream=None) -> str | None:
    """Say once per engine and process that ``game``'s kernels are about to be compiled, if one
    of the kernels every engine calls first (``reset_rows`` and ``step_kernel``) has no cached
    machine code; returns the message, or None. (The others compile on their first call; an
    AEC env never calls ``observe_rows``, so its cache may well stay empty.)"""
    if config.DISABLE_JIT:
        return None
    engine = game.reset_rows.py_func.__module__.rsplit(".", 1)[0]
    if engine in _checked:
        return None
    _checked.add(engine)
    kernels = (game.reset_rows, step_kernel)
    if all(is_cached(k) for k in kernels):
        return None
    seconds = COMPILE_SECONDS.get(engine)
    about = f"up to about {seconds} s; " if seconds else ""
    message = (
        f"compiling {game.env_id} kernels (first use only, {about}python -m cardenvs.compile "
        "compiles every game ahead)..."
    )
    stream = sys.stderr if stream is None else stream
    if _watched(stream):
        print(message, file=stream, flush=True)
    else:
        LOG.info(message)
    return message
