"""Compile the games' numba kernels ahead of time, several engines at once.

numba compiles a kernel on its first call and, since every kernel here is ``cache=True``, saves
the machine code in ``__pycache__`` next to the source; a later process loads it in well under a
second. A fresh install pays the compilation once, 10-25 s per engine on one core. This command
pays it up front, one engine per process and ``--jobs`` processes at a time, so on a machine with
several cores the wait is shorter than when the first env of each game compiles its engine in
turn (``make test`` runs it before pytest, with one job per core):

    python -m cardenvs.compile [--jobs N] [ids ...]
    python -m cardenvs.compile --warm ID CONFIG_JSON    # one id under one config, for a cold start

Ids that run on the same kernels (the three two-handed Piquet ids; normand and partnership)
compile in one process, so no two processes compile the same kernel. Each process plays a few
steps of every id it was given through the batched engine and the AEC env, observes every seat
and determinizes one state for search: the calls the environments and the search helpers make.
Banque and Four Aces compile a step kernel for each number of players (``core.game.StepKernels``);
every player count besides the default is a task of its own, in a process of its own (``tasks``),
so the tests that play other counts find them compiled. When the cache is already warm, the
command only loads it (a few seconds).

``--warm ID CONFIG_JSON`` is the background compile of a cold start (``core.coldstart``: an env
plays on plain Python meanwhile): it compiles what ``ID`` runs under that config, in this
process (``warm``).

numba checks a cached kernel against its own source file only: a kernel that inlines a helper
from another file (every engine inlines ``core.bitmask``, ``core.step_args`` and ``core.prefetch``,
and every step kernel helpers from several modules of its package) would keep running the old
helper after that file changed. So before compiling, this command hashes every source file of
the package and, when the hash differs from the one it stamped last time (or there is no stamp),
deletes every cached kernel of the package first (``clear_stale_cache``). ``make test`` and
``make bench`` run it, so they never test or time a stale kernel; a plain ``pytest`` or
``import`` after an edit does not check. Caches moved elsewhere with ``NUMBA_CACHE_DIR`` are not
cleared.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import numpy as np
from numba import config as numba_config

from .core import coldstart
from .core.game import StepKernels
from .registry import GAMES, lookup

PACKAGE = Path(__file__).resolve().parent
STAMP = "numba-sources.sha256"  # in the package's top __pycache__


def sources_digest(root: Path | None = None) -> str:
    """SHA-256 of every ``.py`` file under ``root`` (default: the package), paths and contents."""
    root = PACKAGE if root is None else root
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def clear_stale_cache(root: Path | None = None, log=print) -> int:
    """Delete every numba cache file (``*.nbi``, ``*.nbc``) under ``root`` (default: the package)
    unless its sources are the ones stamped by the last call, then stamp the current ones; returns
    how many files were deleted."""
    root = PACKAGE if root is None else root
    digest = sources_digest(root)
    stamp = root / "__pycache__" / STAMP
    if stamp.is_file() and stamp.read_text().strip() == digest:
        return 0
    cached = [p for pattern in ("*.nbi", "*.nbc") for p in root.rglob(pattern)]
    for path in cached:
        path.unlink(missing_ok=True)
    stamp.parent.mkdir(exist_ok=True)
    stamp.write_text(digest + "\n")
    if cached:
        log(f"sources changed since the last compile: deleted {len(cached)} cached kernel files")
    return len(cached)


def engine_of(env_id: str) -> str:
    """The engine package ``env_id`` runs on (ids on the same engine share it)."""
    return coldstart.engine_of(lookup(env_id)[0])


def variants(env_id: str) -> list[dict]:
    """The configs, besides the default, under which ``env_id`` runs a step kernel of its own
    (``core.game.StepKernels``: Banque's and Four Aces' one kernel per number of players), each
    as the keyword arguments that select it (none where the id fixes the kernel's value)."""
    game, defaults = lookup(env_id)
    step_for = game.step_for
    if not isinstance(step_for, StepKernels) or step_for.option is None:
        return []
    default = getattr(game.config_cls(**defaults), step_for.option)
    return [{step_for.option: v} for v in sorted(step_for.kernels) if v != default]


def tasks(env_ids) -> list[tuple[list[str], dict]]:
    """What to compile, one process each: every engine group of ``env_ids`` (``groups``) with
    its default configs, then every other config that has a step kernel of its own
    (``variants``), each in a process of its own."""
    todo = [(ids, {}) for ids in groups(env_ids)]
    for env_id in env_ids:
        todo += [([env_id], config) for config in variants(env_id)]
    return todo


def label(task: tuple[list[str], dict]) -> str:
    """``"banque-v0 (num_players=2)"``: a task's ids and config, for the log."""
    ids, config = task
    extra = ", ".join(f"{k}={v}" for k, v in config.items())
    return "+".join(ids) + (f" ({extra})" if extra else "")


def groups(env_ids) -> list[list[str]]:
    """``env_ids`` grouped by engine, in first-seen order."""
    out: dict[str, list[str]] = {}
    for env_id in env_ids:
        out.setdefault(engine_of(env_id), []).append(env_id)
    return list(out.values())


def exercise(env_id: str, steps: int = 64, **config) -> None:
    """Call what compiles ``env_id``'s kernels under ``config`` (default: the id's defaults): a
    batched engine (reset, steps, ``observe``), the AEC env (reset, steps) and, for a game that
    has one, a determinization."""
    # this command says what it compiles: the first-use notice of the engines stays quiet
    coldstart._checked.add(engine_of(env_id))
    # and compiles in the foreground: no plain-Python start (which would compile nothing here)
    before = os.environ.get(coldstart.PLAIN_START_VAR)
    os.environ[coldstart.PLAIN_START_VAR] = "0"
    try:
        _exercise(env_id, steps, config)
    finally:
        if before is None:
            del os.environ[coldstart.PLAIN_START_VAR]
        else:
            os.environ[coldstart.PLAIN_START_VAR] = before


def _exercise(env_id: str, steps: int, config: dict) -> None:
    import cardenvs
    from cardenvs.core.sim import Simulator
    from cardenvs.core.vector import RandomLegal

    venv = cardenvs.make_vector(env_id, 2, seed=0, **config)
    if venv.warming_up:  # CARDENVS_PLAIN_START=0 above: never
        raise RuntimeError(f"compile: the {env_id} engine started on plain Python")
    _, mask, _ = venv.reset()
    policy = RandomLegal(seed=0)
    for _ in range(steps):
        _, mask, *_ = venv.step(policy(mask))
    for seat in range(venv.num_seats):
        venv.observe(seat)
    env = cardenvs.make(env_id, **config)
    env.reset(seed=0)
    for _ in range(steps):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        if not env.agents:
            break
    game = lookup(env_id)[0]
    if game.determinize is not None:
        sim = Simulator(game, venv.config)
        s = sim.determinize(sim.copy_row(venv.state, 0), 0, np.random.default_rng(0))
        legal = np.flatnonzero(sim.legal(s))
        if legal.size:
            sim.step(s, int(legal[0]))


def warm(env_id: str, config_json: str) -> None:
    """Compile what ``env_id`` runs under the config ``config_json`` (``exercise``): the
    background compile of a cold cache (``core.coldstart.Warmup`` runs ``python -m
    cardenvs.compile --warm ID CONFIG_JSON``). On a fresh install (no stamp yet) it stamps the
    sources it compiled, so that ``compile_all`` loads these kernels instead of deleting them."""
    digest = sources_digest() if not numba_config.CACHE_DIR else None
    exercise(env_id, **json.loads(config_json))
    stamp = PACKAGE / "__pycache__" / STAMP
    if digest is not None and not stamp.exists() and sources_digest() == digest:
        # a fresh install: these caches are of the current sources, so compile_all may load them
        # (without a stamp it deletes every cached kernel first)
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest + "\n")


def _compile_task(task: tuple[list[str], dict]) -> tuple[str, float, str]:
    """Compile one task in a worker; its label, seconds and what it printed (stdout and stderr,
    collected so that the parent prints each job's lines whole, never interleaved)."""
    t0 = time.perf_counter()
    ids, config = task
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        for env_id in ids:
            exercise(env_id, **config)
    return label(task), time.perf_counter() - t0, out.getvalue()


def _plan(env_ids, jobs: int | None) -> tuple[list[tuple[list[str], dict]], int]:
    """The compile ``tasks`` of ``env_ids`` and the number of processes; ``ValueError`` naming
    the problem for an unknown id (``lookup``) or a bad ``jobs``."""
    todo = tasks(env_ids)
    if jobs is None:
        jobs = os.cpu_count() or 1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an int of at least 1, got {jobs!r}")
    return todo, jobs


def _run(todo: list[tuple[list[str], dict]], jobs: int, log) -> dict[str, float]:
    times: dict[str, float] = {}
    t0 = time.perf_counter()
    clear_stale_cache(log=log)
    log(
        f"compiling (or loading) {len(todo)} kernel sets, {jobs} at a time: a cold cache takes "
        "10-30 s per engine on a 2-core machine, about a minute for everything"
    )
    with ProcessPoolExecutor(max_workers=max(1, min(jobs, len(todo)))) as pool:
        futures = [pool.submit(_compile_task, task) for task in todo]
        for fut in as_completed(futures):
            name, seconds, printed = fut.result()
            times[name] = seconds
            for line in printed.splitlines():
                log(f"  {name}: {line}")
            log(f"ready: {name} in {seconds:.1f} s")
    log(f"{len(todo)} kernel sets ready in {time.perf_counter() - t0:.1f} s ({jobs} jobs)")
    return times


def compile_all(env_ids=GAMES, jobs: int | None = None, log=print) -> dict[str, float]:
    """Compile (or load from the cache) the kernels of ``env_ids``, one process per task
    (``tasks``) and ``jobs`` processes at a time (default: one per core). Returns seconds per
    task, keyed by its ``label``."""
    return _run(*_plan(env_ids, jobs), log)


def main(argv=None) -> dict[str, float] | None:
    p = argparse.ArgumentParser(
        prog="python -m cardenvs.compile", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("ids", nargs="*", default=list(GAMES), help="environment ids (default: all)")
    p.add_argument("--jobs", "-j", type=int, default=None, help="processes (default: one per core)")
    p.add_argument(
        "--warm",
        nargs=2,
        metavar=("ID", "CONFIG_JSON"),
        help="compile one id under one config, in this process (a cold start's background job)",
    )
    args = p.parse_args(argv)
    if args.warm is not None:
        warm(*args.warm)
        return None
    try:  # only the arguments: an error while compiling is not a usage error
        todo, jobs = _plan(args.ids, args.jobs)
    except ValueError as e:
        p.error(str(e))
    return _run(todo, jobs, print)


if __name__ == "__main__":
    main(sys.argv[1:])
