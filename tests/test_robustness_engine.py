"""Issue 30, engine side: the batched engine, the AEC env and the search simulator under
adversarial use. Copies and pickles play on exactly as the original (every id's AEC env and
engine: ``test_contract_aec.py``, ``test_contract_vector.py``; here the single-agent env and an
engine unpickled in another process); inputs that could reach a
kernel unchecked are refused with a ``ValueError`` (tried in a subprocess, so a regression that
crashes the interpreter fails the test instead of killing pytest); every record replays, however
the env was seeded (a plain reset loop of every id: the contract suite); the returned arrays that
must not be written are read-only (every id: the contract suite), so the mask that
``validate=True`` checks cannot be forged; bad arguments are named."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from harness import assert_engines_play_alike, play_to_end

import cardenvs
from cardenvs.core.rng import MAX_SEED
from cardenvs.core.sim import Simulator
from cardenvs.core.vector import RandomLegal
from cardenvs.wrappers import SingleAgentEnv

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, **env_extra) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter on this checkout (compiled unless ``env_extra`` says)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("NUMBA_DISABLE_JIT", None)
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=900,
    )


# --- items 2 and 7: deep copies and pickles (each id's AEC env and engine: the contract suite) ----
def test_pickle__single_agent_env_plays_on_as_the_original():
    env = SingleAgentEnv("esel-v0", seat=1)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(5):
        obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert not done
    clone = pickle.loads(pickle.dumps(env))
    for _ in range(200):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        a, b = env.step(action), clone.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]
        assert np.array_equal(a[4]["action_mask"], b[4]["action_mask"])
        obs, _, done, _, info = a
        if done:
            break
    assert done


def test_pickle__an_engine_unpickled_in_another_process_plays_the_same_game():
    venv = cardenvs.make_vector("piquet-v0", num_envs=4, seed=31)
    _, mask, _ = venv.reset()
    pick = RandomLegal(0)
    for _ in range(25):
        mask = venv.step(pick(mask))[1]
    blob = pickle.dumps(venv).hex()

    def digest(engine) -> str:
        policy, h = RandomLegal(9), hashlib.sha256()
        for _ in range(60):
            for a in engine.step(policy(engine.action_mask))[:4]:
                h.update(np.ascontiguousarray(a).tobytes())
        return h.hexdigest()

    code = (
        "import hashlib, pickle, sys, numpy as np\n"
        "from cardenvs.core.vector import RandomLegal\n"
        f"engine = pickle.loads(bytes.fromhex({blob!r}))\n"
        "policy, h = RandomLegal(9), hashlib.sha256()\n"
        "for _ in range(60):\n"
        "    for a in engine.step(policy(engine.action_mask))[:4]:\n"
        "        h.update(np.ascontiguousarray(a).tobytes())\n"
        "print(h.hexdigest())\n"
    )
    run = run_python(code)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip() == digest(venv)


# --- item 3: inputs that could crash a kernel, in a subprocess ----------------------------------
BAD_INPUTS = r"""
import json, sys
import numpy as np
import cardenvs
from cardenvs.core.sim import Simulator
from cardenvs.core.state import PackedState

env = cardenvs.make("piquet-v0"); env.reset(seed=1); core = env.unwrapped
sim = core.simulator()
s = core.state_copy()
a0 = int(np.flatnonzero(sim.legal(s))[0])
two = sim.stack([core.state_copy(), core.state_copy()])
banque = cardenvs.make("banque-v0"); banque.reset(seed=1)
other = banque.unwrapped.state_copy()
empty = PackedState(*(a[:0] for a in s))
strided = PackedState(*(a[::2] for a in sim.stack([s, s, s])))  # 2 rows, not contiguous
wide = PackedState(s.m, s.v.astype(np.int32), s.f)
rng = np.random.default_rng(0)
venv = cardenvs.make_vector("piquet-v0", num_envs=2, seed=0); venv.reset()

CASES = {
    "simulator with a banque config": lambda: Simulator(core.game, banque.unwrapped.config),
    "simulator without a game": lambda: Simulator("piquet-v0", core.config),
    "step_rows more actions than rows": lambda: sim.step_rows(s, np.full(5, a0)),
    "step_rows 200k actions": lambda: sim.step_rows(s, np.full(200_000, a0)),
    "step_rows fewer actions than rows": lambda: sim.step_rows(two, [a0]),
    "step_rows action too big": lambda: sim.step_rows(s, [10_000]),
    "step_rows negative action": lambda: sim.step_rows(s, [-1]),
    "step_rows float action": lambda: sim.step_rows(s, [1.5]),
    "step_rows banque state": lambda: sim.step_rows(other, [a0]),
    "step_rows 0-row state": lambda: sim.step_rows(empty, []),
    "step_rows int32 scores": lambda: sim.step_rows(wide, [a0]),
    "step_rows plain tuple": lambda: sim.step_rows(tuple(s), [a0]),
    "step_rows strided state": lambda: sim.step_rows(strided, [a0, a0]),
    "step banque state": lambda: sim.step(other, 0),
    "step negative action": lambda: sim.step(s, -1, check=False),
    "step action too big": lambda: sim.step(s, 88, check=False),
    "step bool action": lambda: sim.step(s, True),
    "step two rows": lambda: sim.step(two, a0),
    "legal banque state": lambda: sim.legal(other),
    "legal 0-row state": lambda: sim.legal(empty),
    "current banque state": lambda: sim.current(other),
    "current 0-row state": lambda: sim.current(empty),
    "current_rows banque state": lambda: sim.current_rows(other),
    "observe banque state": lambda: sim.observe(other, 0),
    "observe float seat": lambda: sim.observe(s, 0.5),
    "observe bool seat": lambda: sim.observe(s, True),
    "observe_rows floats": lambda: sim.observe_rows(two, [0.5, 1]),
    "observe_rows bools": lambda: sim.observe_rows(two, [True, False]),
    "observe_rows banque state": lambda: sim.observe_rows(other, [0]),
    "observe_rows 0-row state": lambda: sim.observe_rows(empty, []),
    "determinize float seat": lambda: sim.determinize(s, 1.5, rng),
    "determinize bool seat": lambda: sim.determinize(s, True, rng),
    "determinize banque state": lambda: sim.determinize(other, 0, rng),
    "determinize no generator": lambda: sim.determinize(s, 0, 3),
    "copy_row banque state": lambda: sim.copy_row(other, 0),
    "copy_row past the rows": lambda: Simulator.copy_row(s, 1),
    "copy_row negative row": lambda: Simulator.copy_row(s, -1),
    "copy_row float row": lambda: Simulator.copy_row(two, 0.5),
    "stack banque state": lambda: sim.stack([s, other]),
    "stack nothing": lambda: sim.stack([]),
    "stack mixed games": lambda: Simulator.stack([s, other]),
    "engine observe floats": lambda: venv.observe([0.5, 1]),
    "engine observe bool": lambda: venv.observe(True),
    "engine observe too many seats": lambda: venv.observe(np.zeros(5, np.int64)),
    "engine reset_rows floats": lambda: venv.reset_rows([0.7]),
    "engine reset_rows bools": lambda: venv.reset_rows([True]),
    "engine render past the rows": lambda: venv.render(2),
    "engine render float row": lambda: venv.render(0.5),
    "engine step too many actions": lambda: venv.step(np.zeros(200_000, np.int64)),
}
for name, case in CASES.items():
    try:
        case()
        outcome = ["no error", ""]
    except Exception as e:
        outcome = [type(e).__name__, str(e)]
    print(json.dumps([name] + outcome), flush=True)
print("done", flush=True)
"""


def test_sim__crashing_inputs_are_refused_in_a_subprocess():
    run = run_python(BAD_INPUTS)
    lines = run.stdout.splitlines()
    assert run.returncode == 0 and lines[-1:] == ["done"], (
        f"exit {run.returncode} after {lines[-1:]}: {run.stderr[-2000:]}"
    )
    outcomes = {name: (kind, msg) for name, kind, msg in map(json.loads, lines[:-1])}
    wrong = {name: got for name, got in outcomes.items() if got[0] != "ValueError"}
    assert not wrong, wrong
    msg = {name: m for name, (_, m) in outcomes.items()}
    assert "0..87" in msg["step_rows more actions than rows"]
    assert msg["step_rows action too big"].endswith("got actions[0] = 10000")
    assert "shape (5,)" in msg["step_rows more actions than rows"]
    assert (
        "columns" in msg["step_rows banque state"] and "another game" in msg["legal banque state"]
    )
    assert "no rows" in msg["step_rows 0-row state"]
    assert "must have 1 row(s)" in msg["legal 0-row state"]
    assert "int16" in msg["step_rows int32 scores"]
    assert "PackedState" in msg["step_rows plain tuple"]
    assert "C-contiguous" in msg["step_rows strided state"]
    assert "must have 1 row(s)" in msg["step two rows"]
    assert msg["determinize float seat"].startswith("seat must be an integer")
    assert msg["observe float seat"].startswith("seat must be an integer")
    assert msg["observe_rows floats"].startswith("seats must be")
    assert "Generator" in msg["determinize no generator"]
    assert "config must be a Config of piquet-v0" in msg["simulator with a banque config"]
    assert msg["copy_row negative row"].startswith("b must be in 0..0")
    assert msg["engine reset_rows floats"].startswith("rows must be")
    assert "integers" in msg["engine reset_rows floats"]
    assert msg["engine observe floats"].startswith("seats must be")
    assert msg["engine render past the rows"].startswith("row must be in 0..1")


def test_sim__valid_inputs_still_work_after_the_checks():
    env = cardenvs.make("banque-v0")
    env.reset(seed=2)
    core = env.unwrapped
    sim = core.simulator()
    rows = [core.state_copy() for _ in range(3)]
    batch = sim.stack(rows)
    assert Simulator.stack(rows).m.shape == (3, batch.m.shape[1])
    masks = np.stack([sim.legal(r) for r in rows])
    actions = np.array([np.flatnonzero(m)[0] for m in masks], np.uint8)  # any integer dtype
    rewards, term, nxt = sim.step_rows(batch, actions)
    assert rewards.shape == (3, 4) and not term.any() and nxt.any(axis=1).all()
    seats = np.maximum(sim.current_rows(batch), 0).astype(np.int32)
    assert sim.observe_rows(batch, seats).shape == (3, core.game.obs_dim)
    assert sim.observe(rows[0], np.int64(2)).shape == (core.game.obs_dim,)
    assert sim.copy_row(batch, np.int64(2)).m.shape == (1, batch.m.shape[1])
    d = sim.determinize(rows[0], np.int8(1), np.random.default_rng(0))
    assert sim.current(d) == sim.current(rows[0])


# --- item 4: every record replays --------------------------------------------------------------
def test_records__a_game_after_reset_without_any_seed_replays():
    env = cardenvs.make("piquet-v0")
    rng = np.random.default_rng(3)
    env.reset()  # the seed is drawn from the OS
    play_to_end(env, rng)
    first = env.unwrapped.record()
    env.reset()
    play_to_end(env, rng)
    second = env.unwrapped.record()
    assert first["seed"] == second["seed"] and second["episode"] == 1
    for record in (first, second):
        assert cardenvs.replay(record) == record
    # the episode is what makes the second game replay: without it, a later deal differs
    del second["episode"]
    with pytest.raises(ValueError, match="differs"):
        cardenvs.replay(second)


def test_records__engine_resets_to_a_given_episode_of_a_seed():
    looped = cardenvs.make_vector("esel-v0", num_envs=3, seed=40)
    for _ in range(3):
        obs, mask, info = looped.reset()
    direct = cardenvs.make_vector("esel-v0", num_envs=3)
    obs2, mask2, info2 = direct.reset(seed=40, options={"episode": 2})
    for x, y in zip(looped.state, direct.state, strict=True):
        assert np.array_equal(x, y)
    assert np.array_equal(obs, obs2) and np.array_equal(mask, mask2)
    assert_engines_play_alike(looped, direct, steps=200)
    with pytest.raises(ValueError, match=r"options\['episode'\]"):
        direct.reset(options={"episode": -1})
    with pytest.raises(ValueError, match=r"options\['episode'\]"):
        direct.reset(options={"episode": 1.0})


# --- items 5 and 9: read-only outputs, validation that cannot be bypassed ------------------------
@pytest.mark.parametrize("env_id", cardenvs.GAMES)
def test_outputs__writing_obs_and_rewards_changes_nothing_the_engine_returns(env_id):
    a = cardenvs.make_vector(env_id, num_envs=4, seed=9)
    b = cardenvs.make_vector(env_id, num_envs=4, seed=9)
    a.reset()
    obs, *_ = b.reset()
    obs[:] = 7.0
    pick = RandomLegal(1)
    for _ in range(300):
        actions = pick(a.action_mask).copy()
        out_a, out_b = a.step(actions), b.step(actions)
        for x, y in zip(out_a[:5], out_b[:5], strict=True):
            assert np.array_equal(x, y)
        out_b[0][:] = -3.0  # scribble over b's writable buffers before its next step
        out_b[2][:] = 5.0


def test_validate__writing_the_mask_cannot_let_an_illegal_action_through():
    venv = cardenvs.make_vector("piquet-v0", num_envs=2, seed=3)
    _, mask, _ = venv.reset()
    illegal = int(np.flatnonzero(mask[0] == 0)[0])
    with pytest.raises(ValueError, match="read-only"):
        mask[0, illegal] = 1
    with pytest.raises(ValueError, match="read-only"):
        venv.action_mask[0, :] = 1
    assert mask[0, illegal] == 0
    actions = RandomLegal(0)(mask).copy()
    actions[0] = illegal
    with pytest.raises(ValueError, match="row 0: action .* is not legal"):
        venv.step(actions)


def test_validate_false__an_illegal_row_is_a_no_op_and_the_others_step():
    lax = cardenvs.make_vector("esel-v0", num_envs=3, seed=4, validate=False)
    strict = cardenvs.make_vector("esel-v0", num_envs=3, seed=4)
    obs, mask, _ = lax.reset()
    strict.reset()
    obs_before, mask_before = obs.copy(), mask.copy()
    row1 = [a[1].copy() for a in lax.state]
    actions = RandomLegal(0)(mask).copy()
    illegal = actions.copy()
    illegal[1] = int(np.flatnonzero(mask[1] == 0)[0])
    obs, mask, rewards, terminated, _, _ = lax.step(illegal)
    assert all(np.array_equal(a[1], b) for a, b in zip(lax.state, row1, strict=True))
    assert np.array_equal(obs[1], obs_before[1]) and np.array_equal(mask[1], mask_before[1])
    assert not rewards[1].any() and not terminated[1]
    out = strict.step(actions)  # the other rows stepped as they would have
    for b in (0, 2):
        assert np.array_equal(obs[b], out[0][b]) and np.array_equal(mask[b], out[1][b])
    with pytest.raises(ValueError, match="outside the action space"):
        lax.step(np.array([0, 0, 10_000]))


# --- item 11: bad arguments are named ----------------------------------------------------------
def test_args__floats_and_bools_are_not_rows_or_seats():
    venv = cardenvs.make_vector("piquet-v0", num_envs=2, seed=0)
    venv.reset()
    for rows in ([0.7], 1.0, [True], np.array([0.0, 1.0])):
        with pytest.raises(ValueError, match=r"rows must be row indices: integers in 0\.\.1"):
            venv.reset_rows(rows)
    for seats in ([0.5, 1], 1.0, True, [True, False]):
        with pytest.raises(ValueError, match=r"seats must be a seat in 0\.\.1"):
            venv.observe(seats)
    venv.reset_rows([])  # nothing to restart
    venv.reset_rows(np.array([1], np.uint8))
    assert venv.observe(np.array([1, 0], np.int16)).shape == (2, venv.obs_dim)


def test_args__nothing_shows_a_state_before_reset():
    venv = cardenvs.make_vector("piquet-v0", num_envs=2, seed=0)
    for call in (lambda: venv.observe(0), lambda: venv.render()):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
            call()
    env = cardenvs.make("piquet-v0", render_mode="ansi")
    for call in (env.render, env.last, lambda: env.observe("player_0")):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
            call()
    env.reset(seed=0)
    assert isinstance(env.render(), str)
    assert env.last()[1:4] == (0.0, False, False)


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, "3", True])
def test_args__a_bad_engine_seed_fails_in_the_constructor(seed):
    with pytest.raises(ValueError, match="seed"):
        cardenvs.make_vector("piquet-v0", num_envs=2, seed=seed)


def test_args__repr_shows_the_seed_given_before_reset():
    venv = cardenvs.make_vector("piquet-v0", num_envs=2, seed=5)
    assert "seed=5" in repr(venv)
    venv.reset()
    assert "seed=5" in repr(venv)
    venv.reset(seed=8)
    assert "seed=8" in repr(venv)


def test_args__engine_options_given_to_make_say_where_they_belong():
    with pytest.raises(ValueError, match="num_envs is an option of cardenvs.make_vector"):
        cardenvs.make("piquet-v0", num_envs=8)
    with pytest.raises(ValueError, match=r"reset\(seed=...\)"):
        cardenvs.make("esel-v0", seed=3)
    for key in ("autoreset", "validate"):
        with pytest.raises(ValueError, match=f"{key} is an option of cardenvs.make_vector"):
            cardenvs.make("piquet-v0", **{key: False})


# --- item 12: row seeds near 2**63, int8 current player ------------------------------------------
def test_seeds__every_row_seed_is_one_a_single_env_accepts():
    top = MAX_SEED - 3  # the largest seed of a 4-row engine
    for bad in (top + 1, MAX_SEED):
        with pytest.raises(ValueError, match=f"0\\.\\.{top} for 4 rows"):
            cardenvs.make_vector("piquet-v0", num_envs=4, seed=bad)
        venv = cardenvs.make_vector("piquet-v0", num_envs=4)
        with pytest.raises(ValueError, match=f"0\\.\\.{top} for 4 rows"):
            venv.reset(seed=bad)
    venv = cardenvs.make_vector("piquet-v0", num_envs=4, seed=top, autoreset=False)
    obs, mask, info = venv.reset()
    env = cardenvs.make("piquet-v0")
    env.reset(seed=MAX_SEED)  # row 3's seed
    agent = env.agent_selection
    assert agent == f"player_{info['current_player'][3]}"
    assert np.array_equal(env.observe(agent)["observation"], obs[3])
    assert np.array_equal(env.observe(agent)["action_mask"], mask[3])
    one = cardenvs.make_vector("piquet-v0", num_envs=1, seed=MAX_SEED)
    one.reset()
    assert one.seed == MAX_SEED


def test_seeds__current_player_is_int8_as_plain_python_too():
    code = (
        "import cardenvs\n"
        "from cardenvs.core.vector import RandomLegal\n"
        "venv = cardenvs.make_vector('esel-v0', num_envs=2, seed=0)\n"
        "state = venv.game.layout.field(venv.state, 'current')\n"
        "_, mask, info = venv.reset()\n"
        "outs, policy = [info['current_player']], RandomLegal(0)\n"
        "for _ in range(30):\n"
        "    obs, mask, _, _, _, info = venv.step(policy(mask))\n"
        "    outs.append(info['current_player'])\n"
        "    assert info['current_player'].tolist() == state.tolist()\n"
        "venv.reset_rows([1])\n"
        "assert venv.current_player.tolist() == state.tolist()\n"
        "outs.append(venv.current_player)\n"
        "print(sorted({str(a.dtype) for a in outs}), any(a.flags.writeable for a in outs))\n"
    )
    run = run_python(code, NUMBA_DISABLE_JIT="1")
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == ["['int8']", "False"]
