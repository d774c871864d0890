"""The compile announcement (``core.coldstart``): one line when an engine's kernels must be
compiled, on stderr where someone watches, in the log otherwise, never when they are cached."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import pytest

import cardenvs
from cardenvs.core import coldstart


class _Tty(io.StringIO):
    def isatty(self):
        return True


def _kernel(cached: bool):
    index = {("sig",): "data"} if cached else {}
    cache_file = types.SimpleNamespace(_load_index=lambda: index)
    return types.SimpleNamespace(_cache=types.SimpleNamespace(_cache_file=cache_file))


def _game(cached: bool, module="cardenvs.games.esel.kernels"):
    k = _kernel(cached)
    k.py_func = types.SimpleNamespace(__module__=module)
    # observe_rows and legal_row uncached: an AEC env never calls observe_rows, so they alone
    # must not announce a compile
    return types.SimpleNamespace(
        reset_rows=k,
        observe_rows=_kernel(False),
        legal_row=_kernel(False),
        env_id="esel-v0",
        compile_seconds=15,
    )


@pytest.fixture(autouse=True)
def _fresh_process(monkeypatch):
    monkeypatch.setattr(coldstart, "_checked", set())


def test_coldstart__an_uncached_engine_is_announced_once_on_a_terminal():
    out = _Tty()
    game = _game(cached=False)
    message = coldstart.announce(game, _kernel(True), stream=out)
    assert message.startswith("compiling esel-v0 kernels (first use only, up to about 15 s; ")
    assert out.getvalue() == message + "\n"
    assert coldstart.announce(game, _kernel(True), stream=out) is None  # once per engine
    assert out.getvalue() == message + "\n"


def test_coldstart__an_uncached_step_kernel_alone_is_announced():
    assert coldstart.announce(_game(cached=True), _kernel(False), stream=_Tty())


def test_coldstart__not_a_terminal_goes_to_the_log(caplog):
    out = io.StringIO()
    with caplog.at_level(logging.INFO, logger="cardenvs"):
        message = coldstart.announce(_game(cached=False), _kernel(True), stream=out)
    assert out.getvalue() == "" and message in caplog.text


def test_coldstart__cached_kernels_say_nothing(caplog):
    out = _Tty()
    with caplog.at_level(logging.INFO, logger="cardenvs"):
        assert coldstart.announce(_game(cached=True), _kernel(True), stream=out) is None
    assert out.getvalue() == "" and caplog.text == ""


def test_coldstart__the_real_engines_are_cached_after_cardenvs_compile():
    """``make test`` compiles every engine first, so no id announces a compile."""
    for env_id in cardenvs.GAMES:
        game = cardenvs.game_info(env_id)
        venv = cardenvs.make_vector(env_id, 1)
        assert coldstart.is_cached(game.reset_rows) and coldstart.is_cached(venv._step_rows)
        assert coldstart.announce(game, venv._step_rows, stream=_Tty()) is None


def test_coldstart__nothing_without_the_jit(monkeypatch):
    monkeypatch.setattr(coldstart.config, "DISABLE_JIT", True)
    assert coldstart.announce(_game(cached=False), _kernel(False), stream=_Tty()) is None


def test_coldstart__every_engine_has_a_compile_estimate():
    """Each id's ``GameDef`` says how long its engine compiles (the ids of one engine alike),
    and every engine package runs an id."""
    from cardenvs.core import kernel_template

    seconds = {}
    for env_id in cardenvs.GAMES:
        game = cardenvs.game_info(env_id)
        assert isinstance(game.compile_seconds, int) and game.compile_seconds > 0, env_id
        seconds.setdefault(coldstart.engine_of(game), set()).add(game.compile_seconds)
    engines = {"cardenvs." + e.replace("/", ".") for e in kernel_template.ENGINES}
    assert set(seconds) == engines and all(len(s) == 1 for s in seconds.values())


# --- one background compile per engine, across processes (issue 52, item 5) -------------------
ROOT = Path(__file__).resolve().parent.parent

FIRST = """
import sys
import cardenvs
env = cardenvs.make("four_aces-v0")
other = cardenvs.make("four_aces-v0", num_players=5)  # the same engine: no second compile
print(env._warmup is not None, env._warmup.following, other._warmup.following, flush=True)
sys.stdin.readline()  # the test starts the second process meanwhile
env._poll_warmup(wait=True)
print(env._engine._plain, flush=True)
"""

SECOND = """
import cardenvs
env = cardenvs.make("four_aces-v0")
job = env._warmup
print(job is not None and env._engine._plain, job.following, flush=True)
env._poll_warmup(wait=True)
print(env._engine._plain, job._proc is None, flush=True)
"""


def _cold_env(cache: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
    env.pop("NUMBA_DISABLE_JIT", None)
    env.pop(coldstart.PLAIN_START_VAR, None)
    return env


def test_coldstart__two_processes_on_a_cold_cache_start_one_compile_and_say_so_on_a_pipe():
    """A cold cache (``NUMBA_CACHE_DIR``, a temporary folder, as ``test_plain_start`` does):
    the first process starts the background compile and says so on its piped stderr; a second
    one finds the engine's lock held, starts none, says that another process compiles, and
    uses the cache once that compile is over."""
    with tempfile.TemporaryDirectory() as cache:
        env = _cold_env(cache)
        first = subprocess.Popen(
            [sys.executable, "-c", FIRST],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert first.stdout.readline().split() == ["True", "False", "True"]
            second = subprocess.run(
                [sys.executable, "-c", SECOND],
                env=env,
                capture_output=True,
                text=True,
                timeout=900,
            )
            out, err = first.communicate("\n", timeout=900)
        finally:
            first.kill()
        assert first.returncode == 0, err[-3000:]
        assert second.returncode == 0, second.stderr[-3000:]
        assert out.split() == ["False"]  # compiled
        assert second.stdout.split() == ["True", "True", "False", "True"]
        assert "compiling four_aces-v0 kernels in the background" in err
        assert err.count("four_aces-v0 kernels") == 1  # once per engine and process
        assert "another process is compiling four_aces-v0 kernels" in second.stderr
        assert (Path(cache) / "coldstart-cardenvs.games.four_aces.lock").exists()


def test_coldstart__a_held_lock_is_seen_and_never_waited_for(tmp_path, monkeypatch):
    monkeypatch.setattr(coldstart.config, "CACHE_DIR", str(tmp_path))
    assert not coldstart.lock_held("x")
    fd = coldstart._take(coldstart.lock_path("x"))
    try:
        assert coldstart.lock_held("x") and coldstart._take(coldstart.lock_path("x")) is None
        assert not coldstart.lock_held("y")  # one lock per engine
    finally:
        os.close(fd)
    assert not coldstart.lock_held("x")


def test_coldstart__without_a_logging_handler_the_message_goes_to_the_pipe(monkeypatch):
    monkeypatch.setattr(coldstart.LOG, "hasHandlers", lambda: False)
    out = io.StringIO()
    message = coldstart.announce(_game(cached=False), _kernel(True), stream=out)
    assert out.getvalue() == message + "\n"


def test_coldstart__a_background_compile_on_a_fresh_install_stamps_its_sources(
    tmp_path, monkeypatch
):
    """So that ``python -m cardenvs.compile`` loads what it cached instead of deleting every
    cached kernel for want of a stamp (``clear_stale_cache``); an existing stamp is left."""
    from cardenvs import compile as ahead

    ran = []
    monkeypatch.setattr(ahead, "exercise", lambda env_id, **config: ran.append(env_id))
    monkeypatch.setattr(ahead, "sources_digest", lambda root=None: "d1")
    monkeypatch.setattr(ahead, "PACKAGE", tmp_path)
    monkeypatch.setattr(coldstart.config, "CACHE_DIR", "")
    ahead.main(["--warm", "esel-v0", "{}"])
    stamp = tmp_path / "__pycache__" / ahead.STAMP
    assert ran == ["esel-v0"] and stamp.read_text() == "d1\n"
    monkeypatch.setattr(ahead, "sources_digest", lambda root=None: "d2")
    ahead.main(["--warm", "esel-v0", "{}"])
    assert stamp.read_text() == "d1\n"  # a stale stamp: cardenvs.compile clears and recompiles


def _noisy(env_id, **config):
    for piece in ("compiling ", env_id, " kernels", "\n", "done\n"):
        print(piece, end="", flush=True, file=sys.stderr if "kernels" in piece else sys.stdout)


def test_compile__each_jobs_lines_come_whole_through_the_parent(monkeypatch):
    """What a job prints is collected and printed by the parent line by line, so two jobs'
    lines never interleave."""
    from cardenvs import compile as ahead

    monkeypatch.setattr(ahead, "exercise", _noisy)
    monkeypatch.setattr(ahead, "clear_stale_cache", lambda log=print: 0)
    lines = []
    todo = [(["esel-v0"], {}), (["four_aces-v0"], {}), (["banque-v0"], {})]
    ahead._run(todo, 2, lines.append)
    for env_id in ("esel-v0", "four_aces-v0", "banque-v0"):
        assert f"  {env_id}: compiling {env_id} kernels" in lines, lines
        assert f"  {env_id}: done" in lines
    assert all("\n" not in line for line in lines)
