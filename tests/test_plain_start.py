"""An AEC env on a cold numba cache plays at once on plain-Python copies of its kernels while a
background process compiles them, then switches (``core.coldstart``): the game is the one the
compiled kernels play, across the switch, in copies, and on a really empty cache."""

from __future__ import annotations

import copy
import logging
import os
import pickle
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.core import coldstart

ROOT = Path(__file__).resolve().parent.parent


class FakeJob:
    """A background compile that reports done from its ``after``-th poll on."""

    def __init__(self, after: int, failure: str | None = None):
        self.after, self.polls, self.failure = after, 0, failure

    def done(self) -> bool:
        self.polls += 1
        return self.polls > self.after

    def wait(self):
        return self.failure


def plain_env(env_id: str, job) -> cardenvs.core.aec.CardAECEnv:
    """An AEC env of ``env_id`` as a cold cache makes it: on plain Python until ``job`` is
    done."""
    env = cardenvs.make(env_id)
    assert env._warmup is None  # make test compiles every engine first
    env._engine = env.vector_cls._plain_engine(1, autoreset=False, validate=False)
    env._warmup = job
    return env


def play(env, seed: int, steps: int, rng_seed: int = 0, probe=None) -> list:
    """Everything ``env`` shows in up to ``steps`` steps of seeded random play (``probe(env, i)``
    called before step ``i``)."""
    rng = np.random.default_rng(rng_seed)
    env.reset(seed=seed)
    seen = []
    for i in range(steps):
        if not env.agents:
            break
        if probe is not None:
            probe(env, i)
        obs, reward, term, trunc, _ = env.last()
        seen.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term))
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    for agent in env.possible_agents:  # an observation of a seat not to act, too
        seen.append(env.observe(agent)["observation"].tobytes())
    seen.append(env.record())
    return seen


@pytest.mark.parametrize("env_id", cardenvs.GAMES)
def test_plain_start__plays_the_compiled_game_and_switches_mid_game(env_id):
    compiled = play(cardenvs.make(env_id), seed=3, steps=160)
    switch_at = 40
    env = plain_env(env_id, FakeJob(after=switch_at))
    dtypes = []
    plain = play(env, 3, 160, probe=lambda e, i: dtypes.append(e._engine.state.f.dtype))
    assert plain == compiled
    assert dtypes[0] == np.int64 and dtypes[-1] == np.int8  # wide while plain, then compiled
    assert env._warmup is None and not env._engine._plain
    assert "game" not in vars(env._engine)  # the class's GameDef again


@pytest.mark.parametrize("env_id", ["piquet-v0", "banque-v0"])
def test_plain_start__a_copy_of_a_plain_env_plays_on_plain_and_the_same(env_id):
    env = plain_env(env_id, FakeJob(after=10**9))
    play(env, 5, 25)
    rest = copy.deepcopy(env)
    pickled = pickle.loads(pickle.dumps(env))
    assert rest._engine._plain and pickled._engine._plain
    assert rest._engine.state.f.dtype == np.int64
    expected = play_on(env)
    assert play_on(rest) == expected and play_on(pickled) == expected


def play_on(env, steps: int = 30) -> list:
    """The next ``steps`` steps of ``env`` with first-legal play."""
    seen = []
    for _ in range(steps):
        if not env.agents:
            break
        obs, _, term, trunc, _ = env.last()
        seen.append(obs["observation"].tobytes())
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    return seen + [env.record()]


def test_plain_start__search_waits_for_the_compiled_kernels():
    env = plain_env("piquet-v0", FakeJob(after=10**9))
    env.reset(seed=1)
    sim = env.simulator()  # switches first: a Simulator runs on the compiled kernels
    assert env._warmup is None and not env._engine._plain
    assert sim.legal(env.state_copy()).any()


def test_plain_start__a_failed_background_compile_is_logged_and_compiled_here(caplog):
    env = plain_env("four_aces-v0", FakeJob(after=0, failure="boom"))
    with caplog.at_level(logging.WARNING, logger="cardenvs"):
        env.reset(seed=0)
    assert "compiling four_aces-v0 in the background failed" in caplog.text
    assert "boom" in caplog.text and not env._engine._plain


def _cold_game():
    kernel = types.SimpleNamespace(
        _cache=types.SimpleNamespace(_cache_file=types.SimpleNamespace(_load_index=dict)),
        py_func=types.SimpleNamespace(__module__="cardenvs.games.esel.kernels"),
    )
    return types.SimpleNamespace(
        reset_rows=kernel, step_kernel=lambda cfg: kernel, env_id="esel-v0"
    )


def test_plain_start__off_with_the_variable_or_without_the_jit(monkeypatch):
    settings = cardenvs.make("esel-v0").config
    monkeypatch.setenv(coldstart.PLAIN_START_VAR, "0")
    assert coldstart.warmup_for(_cold_game(), settings) is None
    monkeypatch.delenv(coldstart.PLAIN_START_VAR)
    monkeypatch.setattr(coldstart.config, "DISABLE_JIT", True)
    assert coldstart.warmup_for(_cold_game(), settings) is None


def test_plain_start__a_warm_cache_starts_compiled():
    for env_id in cardenvs.GAMES:
        env = cardenvs.make(env_id)
        assert env._warmup is None and not env._engine._plain


def test_plain_start__the_plain_copy_is_plain_python_on_wide_arrays():
    game = cardenvs.game_info("esel-v0")
    twin = coldstart.plain_twin(game)
    assert twin is coldstart.plain_twin(game)  # once per id
    assert isinstance(twin.reset_rows, types.FunctionType)
    assert twin.layout.new(1).f.dtype == np.int64 and game.layout.new(1).f.dtype == np.int8
    assert twin.config_cls is game.config_cls and twin.action_names == game.action_names


COLD = """
import sys, time
import numpy as np
import cardenvs
from cardenvs.core import coldstart
env = cardenvs.make("four_aces-v0")
assert env._warmup is not None and env._engine._plain, "a cold cache should start plain"
env.reset(seed=0)
for i in range(30):
    obs, _, term, trunc, _ = env.last()
    env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
assert env._engine._plain, "the compile cannot be done after 30 plain steps"
env._poll_warmup(wait=True)
assert not env._engine._plain
assert coldstart.is_cached(env.game.reset_rows), "the background process fills the cache"
print("ok")
"""


def test_plain_start__an_empty_cache_plays_at_once_and_compiles_in_the_background():
    """A real cold start: a new process with an empty numba cache (four_aces-v0, the quickest
    engine to compile)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        env.pop("NUMBA_DISABLE_JIT", None)
        env.pop(coldstart.PLAIN_START_VAR, None)
        run = subprocess.run(
            [sys.executable, "-c", COLD], env=env, capture_output=True, text=True, timeout=600
        )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip() == "ok"


@pytest.mark.parametrize("env_id", ["piquet-v0", "esel-v0", "banque-v0", "four_aces-v0"])
def test_plain_start__renders_what_the_compiled_env_renders(env_id):
    compiled = cardenvs.make(env_id, render_mode="ansi")
    env = plain_env(env_id, FakeJob(after=10**9))
    env.render_mode = "ansi"
    texts = []
    for e in (compiled, env):
        play(e, 2, 12)
        texts.append(e.render())
    assert env._engine._plain and texts[0] == texts[1]


@pytest.mark.parametrize("broken", ["plain_twin", "_job"])
def test_plain_start__falls_back_to_compiling_when_it_cannot_start(broken, monkeypatch, caplog):
    """No plain copy (an import failing) or no background process (no interpreter to start):
    a warning, and the env compiles in the foreground instead of failing."""

    def fail(*args):
        raise OSError("no such interpreter")

    monkeypatch.setattr(coldstart, broken, fail)
    monkeypatch.setattr(coldstart, "_cold", lambda game, kernel: True)
    game = cardenvs.game_info("esel-v0")
    with caplog.at_level(logging.WARNING, logger="cardenvs"):
        assert coldstart.warmup_for(game, cardenvs.make("esel-v0").config) is None
    assert "cannot play esel-v0 on plain Python" in caplog.text
    assert "OSError: no such interpreter" in caplog.text
