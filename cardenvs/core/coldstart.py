"""The first use of a game on a cold numba cache: say so, and play at once on plain Python.

numba compiles a kernel on its first call and keeps the machine code in ``__pycache__``
(``cache=True``); a later process loads it in well under a second. The first use of a game after
an install (or after its sources changed) therefore waits for the compiler: 10-30 s per engine
on a 2-core machine (``GameDef.compile_seconds``; ``benchmarks.cold_start`` measures it).

An AEC env (``cardenvs.make``) and a batched engine of at most ``PLAIN_START_MAX_ROWS`` games
(``cardenvs.make_vector``) do not wait (``warmup_for``): when their kernels are not cached, they
play on plain-Python copies of them at once (``plain_twin``: the same source imported a second
time, as the package ``_cardenvs_plain``, with numba's JIT off, as ``NUMBA_DISABLE_JIT=1`` would
run it) while a background process compiles them into the cache (the command ``python -m
cardenvs.compile --warm ID CONFIG``, which plays the id's batched engine, AEC env and search as
``cardenvs.compile`` does). Plain Python plays exactly the game the compiled kernels play
(``tests/test_plain_python.py``, ``tests/test_plain_start.py``) at 0.3-0.5 ms a step and row
(``PLAIN_START_MAX_ROWS``), which no one playing or stepping an AEC env by hand notices. The
engine owns the background job (``CardVectorEnv.poll_warmup``; an AEC env's is its one-row
engine's): its ``reset``, ``reset_rows``, ``step`` and ``observe`` ask the job whether it is done
(at most every ``POLL_SECONDS`` of wall time; an AEC env asks on every ``reset`` and ``step``)
and, once it is, switch to the compiled kernels (loading them from the cache takes under a
second; the state carries over: plain Python keeps it in wide arrays, ``core.state``). A failed
background compile is logged as a warning and the engine compiles in the foreground instead.
``engine.wait_compiled()`` waits for the compiled kernels (what to call before timing an engine;
``engine.warming_up`` says whether it still plays on plain Python). Search (``simulator``,
``state_copy``, ``determinize`` of an AEC env) runs on the compiled kernels only, so those calls
wait for the background process first.

A batched engine of more than ``PLAIN_START_MAX_ROWS`` games compiles on its first call, in the
foreground, and says so once per engine and process (``announce``)::

    compiling esel-v0 kernels (first use only, up to about 15 s; python -m cardenvs.compile
    compiles every game ahead)...

One background process compiles an engine at a time, across processes: it holds an
``fcntl.flock`` lock on a file beside the cache (``coldstart-<engine>.lock`` in the package's
``__pycache__``, or in ``NUMBA_CACHE_DIR``), and a process that finds the lock held starts no
compile of its own: it plays on plain Python until the lock is free, then uses the cache (or, if
its own config's kernels are still missing, takes the lock and compiles them). Within one
process, envs and engines of the same engine share its compile. The background process finishes
its work even if the process that started it exits, so the next run finds the cache warm; on a
fresh install (no ``cardenvs.compile`` stamp yet) it stamps the sources it compiled, so ``python
-m cardenvs.compile`` loads its kernels instead of deleting them. ``CARDENVS_PLAIN_START=0``
turns all this off: AEC envs and batched engines then compile in the foreground on first use.

Messages go to stderr where someone is watching (a terminal or a notebook). Elsewhere (output
piped, a log file) they are ``INFO`` records of the ``cardenvs`` logger where logging shows
them, else one line on stderr still: each is said once per engine and process.
Under ``NUMBA_DISABLE_JIT=1`` nothing compiles and nothing is said.
"""

from __future__ import annotations

import dataclasses
import fcntl
import functools
import importlib
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
import types
from pathlib import Path

import numpy as np
from numba import config

#: set to "0" to make AEC envs and batched engines compile their kernels in the foreground
#: instead of playing on plain Python meanwhile
PLAIN_START_VAR = "CARDENVS_PLAIN_START"
#: the largest batched engine (``num_envs``) that plays on plain Python while its kernels
#: compile; a larger one compiles in the foreground. Plain Python takes 0.3-0.5 ms a step and row
#: (measured on the 2-core machine, random play, for piquet-v0, banque-v0, esel-v0 and
#: partnership_piquet-v0: 20-30 ms a step at 64 rows, 74-103 ms at 256), 1,000-3,000 times the
#: compiled step. Up to 256 rows a step stays at about a tenth of a second, quick enough to
#: watch, debug or start a training run on while the 10-30 s compile runs; beyond that a step
#: takes longer and the whole compile buys few steps, so such an engine waits for the compiler.
PLAIN_START_MAX_ROWS = 256
#: the least wall time between two polls of a batched engine's background compile (``Warmup.
#: done``: a ``waitpid`` of the child, about 1 us, or while following another process's compile
#: a ``flock`` of its lock file, about 25 us); an AEC env polls on every step (0.3-0.5 ms on
#: plain Python)
POLL_SECONDS = 0.5
#: the package name of the plain-Python copy (``plain_twin``)
PLAIN = "_cardenvs_plain"
#: the ``GameDef`` fields a plain twin takes from the plain-Python copy: the kernels, the state
#: layout they need (wide arrays) and everything else that reads the state
PLAIN_FIELDS = (
    "layout",
    "reset_rows",
    "step_rows",
    "observe_rows",
    "result",
    "render",
    "scene",
    "deck_strings",
    "legal_row",
    "deal_extras",
    "determinize",
    "step_for",
)

LOG = logging.getLogger("cardenvs")
PACKAGE = Path(__file__).resolve().parent.parent
_checked: set[str] = set()  # engines already announced in this process
_lock = threading.Lock()
_twins: dict[str, object] = {}  # env id -> its plain twin
_jobs: dict[tuple[str, str], Warmup] = {}  # (env id, config json) -> its background compile


def engine_of(game) -> str:
    """The engine package of ``game`` (``"cardenvs.games.piquet"``): its kernels' package."""
    kernel = game.reset_rows
    return getattr(kernel, "py_func", kernel).__module__.rsplit(".", 1)[0]


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


def say(message: str, stream=None) -> str:
    """``message`` on ``stream`` (default stderr) where someone is watching; elsewhere as an
    ``INFO`` record of the ``cardenvs`` logger where logging shows one (a handler and the
    level), else on ``stream`` still (output piped: one whole line); returns it."""
    stream = sys.stderr if stream is None else stream
    if not _watched(stream) and LOG.isEnabledFor(logging.INFO) and LOG.hasHandlers():
        LOG.info(message)
    else:
        stream.write(message + "\n")
        stream.flush()
    return message


def _cold(game, step_kernel) -> bool:
    """Whether one of the kernels every engine calls first (``reset_rows`` and the step kernel)
    has no cached machine code. (The others compile on their first call; an AEC env never calls
    ``observe_rows`` before its game ends, so their cache may well stay empty.)"""
    return not all(is_cached(k) for k in (game.reset_rows, step_kernel))


def _about(game) -> str:
    """The game's compile estimate (``GameDef.compile_seconds``: a foreground compile, from
    ``import cardenvs`` to the first batched step; a background compile takes about as long)."""
    seconds = game.compile_seconds
    return f"about {seconds} s; " if seconds else ""


def announce(game, step_kernel, stream=None, rows: int | None = None) -> str | None:
    """Say once per engine and process that ``game``'s kernels are about to be compiled, if they
    are not cached (``_cold``); returns the message, or None. ``rows``: the batched engine's
    ``num_envs``, which the message names when it is what keeps the engine off plain Python
    (more than ``PLAIN_START_MAX_ROWS``)."""
    if config.DISABLE_JIT:
        return None
    engine = engine_of(game)
    if engine in _checked or not _cold(game, step_kernel):
        return None
    _checked.add(engine)
    why = ""
    if rows is not None and rows > PLAIN_START_MAX_ROWS and not _disabled():
        why = (
            f"; {rows} games are too many for plain Python meanwhile: at most "
            f"{PLAIN_START_MAX_ROWS} play at once while the kernels compile in the background"
        )
    return say(
        f"compiling {game.env_id} kernels (first use only, up to {_about(game)}python -m "
        f"cardenvs.compile compiles every game ahead{why})...",
        stream,
    )


# -- plain Python while the kernels compile ------------------------------------------------------
def _plain_module(name: str) -> types.ModuleType:
    """Module ``cardenvs.<name>`` imported again as ``_cardenvs_plain.<name>`` with numba's JIT
    off: every ``@njit`` kernel in it (and in what it imports, all relative) is a plain Python
    function, and ``core.state`` makes wide arrays, as under ``NUMBA_DISABLE_JIT=1``."""
    if PLAIN not in sys.modules:
        root = types.ModuleType(PLAIN, "cardenvs' kernels as plain Python (core.coldstart)")
        root.__path__ = [str(PACKAGE)]  # the same files; cardenvs/__init__ is not run
        root.__package__ = PLAIN
        sys.modules[PLAIN] = root
    disabled = config.DISABLE_JIT
    config.DISABLE_JIT = True  # read by numba's decorators and by core's modules at import
    try:
        return importlib.import_module(f"{PLAIN}.{name}")
    finally:
        config.DISABLE_JIT = disabled


def plain_function(module: str, name: str):
    """Function ``name`` of ``cardenvs.<module>`` as plain Python (``_plain_module``), e.g. the
    batched engine's action check for a plain engine, which must not wait for the compiler."""
    return _quiet(getattr(_plain_module(module), name))


def plain_twin(game):
    """``game`` (a ``GameDef``) with its kernels, state layout and state readers
    (``PLAIN_FIELDS``) taken from the plain-Python copy of its module (``GameDef.module``, which
    defines it as ``GAME``); names, config class, deck, actions and observation layout stay
    ``game``'s own. Made once per id and process."""
    with _lock:
        twin = _twins.get(game.env_id)
        if twin is None:
            if not game.module.startswith(f"{PACKAGE.name}."):
                raise ValueError(
                    f"{game.env_id}: no plain-Python copy of module {game.module!r} (GameDef."
                    f"module): only the modules of {PACKAGE.name} have one"
                )
            plain = _plain_module(game.module.removeprefix(f"{PACKAGE.name}.")).GAME
            fields = {f: _quiet(getattr(plain, f)) for f in PLAIN_FIELDS if f != "step_for"}
            if plain.step_for is not None:
                fields["step_for"] = lambda cfg: _quiet(plain.step_for(cfg))
            twin = dataclasses.replace(game, **fields)
            _twins[game.env_id] = twin
        return twin


def _quiet(fn):
    """``fn`` without NumPy's overflow warnings: as plain Python the kernels' uint64 arithmetic
    (hashing, bit tricks) wraps around as the compiled code's does, but NumPy warns each time."""
    if not isinstance(fn, types.FunctionType):
        return fn  # the state layout, or None

    @functools.wraps(fn)
    def quiet(*args, **kwargs):
        with np.errstate(over="ignore"):
            return fn(*args, **kwargs)

    return quiet


def lock_path(engine: str) -> Path:
    """The lock file of ``engine``'s background compile: beside the cache (``NUMBA_CACHE_DIR``
    where set, else the package's top ``__pycache__``)."""
    folder = Path(config.CACHE_DIR) if config.CACHE_DIR else PACKAGE / "__pycache__"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"coldstart-{engine}.lock"


def _take(path: Path) -> int | None:
    """An open descriptor of ``path`` holding its exclusive ``flock``, or None when another
    holds it (never waits)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except BaseException:
        os.close(fd)
        raise
    return fd


def lock_held(engine: str) -> bool:
    """Whether a background compile of ``engine`` (of any process) holds its lock now."""
    fd = _take(lock_path(engine))
    if fd is None:
        return True
    os.close(fd)  # closing the descriptor releases the lock
    return False


#: the command the background compile runs, with the id and the config as JSON after it: the
#: library's own compile command (``cardenvs.compile``), which plays the id's engine, AEC env
#: and search until everything they call is compiled
WARM_COMMAND = ("-m", "cardenvs.compile", "--warm")


class Warmup:
    """The background compile of one id's kernels for one config into numba's cache (``python
    -m cardenvs.compile --warm ID CONFIG``, ``WARM_COMMAND``; see the module docstring). It
    starts only with the engine's lock (``lock_path``), which the background process holds until
    it exits; while another compile of the engine holds it (another process, or another config
    in this one), the job follows that one (``following``) and, once it is over, uses the cache
    or compiles what is still missing. Pickles (and deep-copies) as the game's module and the
    config: a copy shares the process's job for that id and config."""

    def __init__(self, game, config_json: str):
        self.game = game
        self.key = (game.env_id, config_json)
        self.engine = engine_of(game)
        self._proc = None
        self._log = None
        self._start()

    @property
    def following(self) -> bool:
        """Whether another compile of the engine runs in this job's stead (none started)."""
        return self._proc is None

    def _start(self) -> bool:
        fd = _take(lock_path(self.engine))
        if fd is None:
            return False
        try:
            self._log = tempfile.TemporaryFile()
            env = dict(os.environ, **{PLAIN_START_VAR: "0"})
            path = env.get("PYTHONPATH")  # the child must import this same cardenvs
            env["PYTHONPATH"] = str(PACKAGE.parent) + (os.pathsep + path if path else "")
            self._proc = subprocess.Popen(
                [sys.executable, *WARM_COMMAND, *self.key],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self._log,
                pass_fds=(fd,),  # the child holds the lock until it exits
                start_new_session=True,  # a Ctrl-C of the user's program lets it finish the cache
            )
        finally:
            os.close(fd)  # this process's hold; the child's copy keeps the lock
        return True

    def _still_cold(self) -> bool:
        game = self.game
        settings = game.config_cls.from_kwargs(**json.loads(self.key[1]))
        return _cold(game, game.step_kernel(settings.to_array()))

    def __reduce__(self):
        return (_job_of, (self.game.module, self.key[1]))

    def done(self) -> bool:
        """Whether the kernels are ready: the process has ended (they are in the cache if it
        succeeded), or, following another compile, that one is over and they are cached (if
        they are not, this job starts its compile now)."""
        if self._proc is None:
            if lock_held(self.engine):
                return False
            if not self._still_cold():
                return True
            self._start()  # the other compile did not cover this config (or failed)
            return False
        return self._proc.poll() is not None

    def wait(self) -> str | None:
        """Wait for the kernels; None if they are ready, else the end of what the process
        printed."""
        while not self.done():
            time.sleep(0.2)
        if self._proc is None or self._proc.wait() == 0:
            return None
        self._log.seek(0)
        text = self._log.read().decode(errors="replace").strip()
        return text[-2000:] or f"exit status {self._proc.returncode}"


def _job(game, config_json: str) -> Warmup:
    """The process's background compile of ``game`` (a ``GameDef``) under ``config_json``
    (started on the first call, or following the compile of its engine already running)."""
    with _lock:
        job = _jobs.get((game.env_id, config_json))
        if job is None:
            job = _jobs[game.env_id, config_json] = Warmup(game, config_json)
        return job


def _job_of(module: str, config_json: str) -> Warmup:
    """``_job`` of the ``GameDef`` that ``module`` defines as ``GAME``: a pickled ``Warmup``."""
    return _job(importlib.import_module(module).GAME, config_json)


def warmup_for(game, settings, rows: int = 1) -> Warmup | None:
    """The background compile a batched engine of ``rows`` games of ``game`` under ``settings``
    (its ``Config``) should play plain Python through (an AEC env's engine has one row), or None
    when it should use the compiled kernels at once: they are cached, the JIT is off,
    ``CARDENVS_PLAIN_START=0``, or ``rows`` is more than ``PLAIN_START_MAX_ROWS``. Says once per
    engine and process that the kernels compile in the background. Where the plain-Python copy
    cannot be made or the background process cannot start, logs a warning and returns None: the
    engine compiles in the foreground, as before."""
    if rows > PLAIN_START_MAX_ROWS or _disabled():
        return None
    if not _cold(game, game.step_kernel(settings.to_array())):
        return None
    try:
        plain_twin(game)  # made now, so that an env that cannot have it compiles instead
        job = _job(game, json.dumps(settings.to_dict(), sort_keys=True))
    except Exception as e:  # noqa: BLE001 - any failure here only costs the early start
        LOG.warning(
            "cannot play %s on plain Python while it compiles (%s: %s); compiling it now",
            game.env_id,
            type(e).__name__,
            e,
        )
        return None
    engine = engine_of(game)
    if engine not in _checked:
        _checked.add(engine)
        where = (
            f"another process is compiling {game.env_id} kernels (lock {lock_path(engine)})"
            if job.following
            else f"compiling {game.env_id} kernels in the background"
        )
        say(
            f"{where} (first use only, {_about(game)}python -m cardenvs.compile compiles every "
            "game ahead); playing on plain Python until they are ready"
        )
    return job


def _disabled() -> bool:
    return config.DISABLE_JIT or os.environ.get(PLAIN_START_VAR, "1").strip() == "0"
