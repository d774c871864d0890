"""An AEC env, and a batched engine of at most ``PLAIN_START_MAX_ROWS`` games, on a cold numba
cache play at once on plain-Python copies of their kernels while a background process compiles
them, then switch (``core.coldstart``): the game is the one the compiled kernels play, across the
switch, in copies, and on a really empty cache."""

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
from cardenvs.core.vector import RandomLegal

ROOT = Path(__file__).resolve().parent.parent


class FakeJob:
    """A background compile that reports done from its ``after``-th poll on."""

    following = False  # it started its own compile (what warmup_for's message reads)

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
    env._engine = env.vector_cls.plain_engine(1, autoreset=False, validate=False)
    env._engine._warmup = job
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
from cardenvs.core.vector import RandomLegal
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


# --- the batched engine (issue 52, item 6) ------------------------------------------------------
def plain_engine(env_id: str, num_envs: int, job, **kwargs):
    """A batched engine of ``env_id`` as a cold cache makes it: on plain Python until ``job`` is
    done."""
    engine = cardenvs.make_vector(env_id, num_envs, **kwargs)
    assert engine._warmup is None and not engine.warming_up  # make test compiles every engine
    engine = type(engine).plain_engine(num_envs, **kwargs)
    engine._warmup = job
    return engine


def play_batch(engine, steps: int, probe=None) -> list:
    """Everything ``engine`` returns in ``steps`` steps of seeded random play (``probe(engine,
    i)`` called before step ``i``), a ``reset_rows`` midway, and every seat's ``observe``."""
    policy = RandomLegal(7)
    obs, mask, info = engine.reset(seed=11)
    seen = [obs.tobytes(), mask.tobytes(), info["current_player"].tobytes()]
    for i in range(steps):
        if probe is not None:
            probe(engine, i)
        if i == steps // 2:
            engine.reset_rows([0, 2])
        obs, mask, rewards, term, trunc, info = engine.step(policy(mask))
        seen += [obs.tobytes(), mask.tobytes(), rewards.tobytes(), term.tobytes()]
        seen.append(info["current_player"].tobytes())
    seen += [engine.observe(seat).tobytes() for seat in range(engine.num_seats)]
    return seen + [engine.render(1)]


@pytest.mark.parametrize("env_id", ["piquet-v0", "banque-v0", "partnership_piquet-v0"])
def test_plain_start__a_batched_engine_plays_the_compiled_game_and_switches_mid_game(
    env_id, monkeypatch
):
    monkeypatch.setattr(coldstart, "POLL_SECONDS", 0.0)  # a poll per call: switch at poll 30
    compiled = play_batch(cardenvs.make_vector(env_id, 6, autoreset=True), 90)
    engine = plain_engine(env_id, 6, FakeJob(after=30), autoreset=True)
    dtypes = []
    plain = play_batch(engine, 90, probe=lambda e, i: dtypes.append(e.state.f.dtype))
    assert plain == compiled
    assert dtypes[0] == np.int64 and dtypes[-1] == np.int8  # wide while plain, then compiled
    assert engine._warmup is None and not engine.warming_up
    assert "game" not in vars(engine)  # the class's GameDef again


def test_plain_start__a_batched_engine_polls_its_compile_at_most_every_poll_seconds():
    job = FakeJob(after=10**9)
    engine = plain_engine("esel-v0", 2, job)
    policy = RandomLegal(0)
    _, mask, _ = engine.reset(seed=0)
    for _ in range(40):  # well under POLL_SECONDS on plain Python
        _, mask, *_ = engine.step(policy(mask))
    assert job.polls == 1 and engine.warming_up


@pytest.mark.parametrize("env_id", ["piquet-v0", "banque-v0"])
def test_plain_start__a_copy_of_a_plain_batched_engine_plays_on_plain_and_the_same(env_id):
    engine = plain_engine(env_id, 4, FakeJob(after=10**9), seed=5)
    policy = RandomLegal(3)
    _, mask, _ = engine.reset()
    for _ in range(15):
        _, mask, *_ = engine.step(policy(mask))
    copies = [copy.deepcopy(engine), pickle.loads(pickle.dumps(engine))]
    assert all(c.warming_up and c.state.f.dtype == np.int64 for c in copies)
    assert all(isinstance(c._warmup, FakeJob) for c in copies)
    actions = [RandomLegal(9)(engine.action_mask).copy()]

    def go_on(e) -> list:
        e.wait_compiled()  # the job's wait: the copy switches and plays on compiled
        assert not e.warming_up and e._warmup is None and e.state.f.dtype == np.int8
        return play_on_batch(e, actions[0])

    expected = go_on(engine)
    assert all(go_on(c) == expected for c in copies)


def play_on_batch(engine, first, steps: int = 20) -> list:
    """``first``, then ``steps`` steps of first-legal play: what ``engine`` returns."""
    seen = []
    actions = first
    for _ in range(steps):
        obs, mask, rewards, term, _, _ = engine.step(actions)
        seen += [obs.tobytes(), rewards.tobytes(), term.tobytes()]
        actions = np.argmax(mask, axis=1)
    return seen


def test_plain_start__wait_compiled_compiles_a_plain_engine_without_a_job():
    engine = plain_engine("four_aces-v0", 3, None)
    engine.reset(seed=0)
    engine.wait_compiled()
    assert not engine.warming_up and engine.state.f.dtype == np.int8
    engine.wait_compiled()  # at once when compiled


def test_plain_start__search_on_a_plain_batched_engine_waits_for_the_compiled_kernels():
    """An ISMCTS agent in the arena (``act_row``) searches a plain engine's row only after the
    switch; a ``Simulator`` given a plain engine's wide state says what to do."""
    from cardenvs.agents.ismcts import ISMCTSAgent
    from cardenvs.core.sim import Simulator

    job = FakeJob(after=10**9)  # never done by itself: the search must wait for it
    engine = plain_engine("esel-v0", 2, job, num_players=2)
    engine.reset(seed=0)
    with pytest.raises(ValueError, match=r"call engine.wait_compiled\(\) first"):
        Simulator.copy_row(engine.state, 0)
    job.after = 0
    action = ISMCTSAgent("esel-v0", iterations=2, seed=0).act_row(engine, 0)
    assert not engine.warming_up and engine._mask[0, action] == 1


def test_plain_start__the_compile_command_compiles_whatever_the_plain_start_setting(monkeypatch):
    """``cardenvs.compile.exercise`` runs the engines on compiled kernels even where a plain
    start would be taken (here every engine counts as cold): it is what fills the cache."""
    from cardenvs import compile as compile_module

    monkeypatch.setattr(coldstart, "_cold", lambda game, kernel: True)
    monkeypatch.delenv(coldstart.PLAIN_START_VAR, raising=False)
    compile_module.exercise("four_aces-v0", steps=4)
    assert coldstart.PLAIN_START_VAR not in os.environ  # restored


def test_plain_start__a_failed_background_compile_of_an_engine_is_logged(caplog):
    engine = plain_engine("esel-v0", 8, FakeJob(after=0, failure="boom"))
    with caplog.at_level(logging.WARNING, logger="cardenvs"):
        engine.reset(seed=0)
    assert "compiling esel-v0 in the background failed" in caplog.text
    assert "boom" in caplog.text and not engine.warming_up


@pytest.fixture
def cold(monkeypatch):
    """Every engine's kernels look uncached; the background compile is a ``FakeJob`` (none
    starts) and this process has announced nothing yet."""
    jobs = []

    def job(game, config_json):
        jobs.append(FakeJob(after=10**9))
        return jobs[-1]

    monkeypatch.setattr(coldstart, "_cold", lambda game, kernel: True)
    monkeypatch.setattr(coldstart, "_job", job)
    monkeypatch.setattr(coldstart, "_checked", set())
    monkeypatch.delenv(coldstart.PLAIN_START_VAR, raising=False)
    return jobs


def test_plain_start__a_batched_engine_up_to_the_threshold_starts_plain(cold, caplog):
    rows = coldstart.PLAIN_START_MAX_ROWS
    with caplog.at_level(logging.INFO, logger="cardenvs"):
        small = cardenvs.make_vector("esel-v0", rows)
        assert small.warming_up and small._warmup is cold[0]
        assert small.state.f.dtype == np.int64
        assert "compiling esel-v0 kernels in the background" in caplog.text
        coldstart._checked.clear()  # a new process, as it were
        large = cardenvs.make_vector("esel-v0", rows + 1)
    assert not large.warming_up and large._warmup is None and len(cold) == 1
    assert f"{rows + 1} games are too many for plain Python meanwhile" in caplog.text
    one = cardenvs.make("esel-v0")  # an AEC env: a one-row engine, plain
    assert one._engine.warming_up and one._warmup is one._engine._warmup


def test_plain_start__a_batched_engine_compiles_in_the_foreground_with_the_variable_off(
    cold, monkeypatch
):
    monkeypatch.setenv(coldstart.PLAIN_START_VAR, "0")
    engine = cardenvs.make_vector("esel-v0", 4)
    assert not engine.warming_up and engine._warmup is None and not cold


COLD_VECTOR = """
import numpy as np
import cardenvs
from cardenvs.core import coldstart
from cardenvs.core.vector import RandomLegal
engine = cardenvs.make_vector("four_aces-v0", 64, seed=0)
assert engine.warming_up and engine._warmup is not None, "a cold cache should start plain"
policy = RandomLegal(0)
_, mask, _ = engine.reset()
for i in range(30):
    _, mask, *_ = engine.step(policy(mask))
assert engine.warming_up, "the compile cannot be done after 30 plain steps"
engine.wait_compiled()
assert not engine.warming_up and engine.state.f.dtype == np.int8
assert coldstart.is_cached(engine.game.reset_rows), "the background process fills the cache"
engine.step(policy(mask))
print("ok")
"""


def test_plain_start__an_empty_cache_steps_a_batched_engine_at_once():
    """A real cold start of ``make_vector`` (four_aces-v0, 64 games): a new process with an
    empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        env.pop("NUMBA_DISABLE_JIT", None)
        env.pop(coldstart.PLAIN_START_VAR, None)
        run = subprocess.run(
            [sys.executable, "-c", COLD_VECTOR],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip() == "ok"
