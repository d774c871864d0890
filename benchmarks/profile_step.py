"""Where a batched step's time goes, per game: the profile behind the engine's optimisations.

For each id, a batched engine at ``--n`` rows plays random legal games until it is well mixed;
then, on that state, each phase of ``step_rows`` is timed over all rows on its own (the game's
own kernels, called from a small numba loop that, like ``step_rows``, takes borrowed views of the
arrays and inlines the kernels the game inlines), as the median of ``--repeats`` runs:

- **apply**: the rules applying one action per row (the state is restored between runs, and the
  restore is not timed);
- **legal**: writing every row's legal-action mask;
- **observe**: writing every row's observation of the seat to act (with the engine's prefetch
  hints, ``cardenvs.core.prefetch``);
- **policy**: drawing the random legal actions (``RandomLegal``), which the throughput benchmark
  includes;
- **step**: drawing the actions and one whole ``venv.step`` (validation, apply, autoreset,
  rewards, mask, observation), as the throughput benchmark times it.

``rest`` is step − apply − legal − observe − policy: validation, rewards, autoreset and the
Python calls.

Timed alone, a phase runs on the same state again and again, so the CPU learns its branches and
keeps its data in cache; in play it does not. So the observation is also timed **in play**: a
copy of ``step_rows``'s loop (checked against ``step_rows`` itself, output for output, before it
is timed) plays on from the mixed state with its observation pass switched off, with it only
zeroing each row, whole, and whole into L1-resident rows; the differences are

- **observe in play**: whole − off, what the observation pass costs a step in real play;
- **of which rows**: zeroing − off, the part that only brings each row's 1.4-2 KB into the cache
  and writes it (the floor for any observation of that size); the rest is the computing of it;
- **into L1 rows**: the same observations, computed and stored as in the step, but each written
  into one of 8 small rows that stay in L1 (never the batch's buffer) − off: the observation's
  computing and its stores without fetching the batch's rows. observe in play − into L1 rows is
  what the batch's rows cost on top (their cache misses, as far as the step does not hide them
  behind other work). "of which rows" times the zeroing alone, which has no other work to hide
  its misses behind, so it can be larger than that difference.

    python -m benchmarks.profile_step [--games piquet-v0 ...] [--n 8192] [--repeats 30]

Prints a Markdown table (milliseconds per batch step and shares of ``step``) and writes
``benchmarks/results/profile_step.json``. Like every timing on a shared VM, the absolute numbers
move with the host's load; the shares within one run are the useful part.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
from pathlib import Path

import numpy as np
from numba import njit

import cardenvs
from cardenvs.core.prefetch import STEP_BLOCK, prefetch_ahead
from cardenvs.core.state import PackedState
from cardenvs.core.step_args import borrowed, borrowed_state, borrowed_step
from cardenvs.core.vector import RandomLegal

RESULTS = Path(__file__).parent / "results"


def _config_of(venv, rules):
    """An inlined kernel ``prep(cfg)`` that hands the phases the config as the engine's step
    kernel does: the engine's ``specialise`` with the value of the engine's kernel (every
    ``kernels.py`` is generated from ``core.kernel_template``)."""
    specialise = rules.specialise
    value = next(v for v, kernel in venv.game.step_for.kernels.items() if kernel is venv._step_rows)

    @njit(inline="always")
    def prep(cfg):
        return specialise(cfg, value)

    return prep


def _phase_kernels(rules, prep):
    """numba loops calling one phase of ``rules`` on every row (the config through ``prep``)."""
    apply_, legal_, observe_ = rules._apply, rules._legal, rules._observe
    current = rules.F_CURRENT

    # each loop takes borrowed views first, as step_rows does (no reference counting)
    @njit
    def apply_all(s, cfg, actions):
        s, cfg = borrowed_state(s), prep(borrowed(cfg))
        for b in range(actions.shape[0]):
            apply_(s, b, cfg, actions[b])

    @njit
    def legal_all(s, cfg, mask):
        s, cfg, mask = borrowed_state(s), prep(borrowed(cfg)), borrowed(mask)
        for b in range(mask.shape[0]):
            legal_(s, b, cfg, mask[b])

    @njit
    def observe_all(s, cfg, obs):
        s, cfg, obs = borrowed_state(s), prep(borrowed(cfg)), borrowed(obs)
        for b in range(obs.shape[0]):
            prefetch_ahead(obs, b)  # as the engine's observation pass does
            c = s.f[b, current]
            observe_(s, b, cfg, c if c >= 0 else 0, obs[b])

    return apply_all, legal_all, observe_all


# the observation pass of _play_kernel
OBSERVE_OFF, OBSERVE_ZERO, OBSERVE_WHOLE, OBSERVE_SCRATCH = 0, 1, 2, 3
SCRATCH_ROWS = 8  # OBSERVE_SCRATCH's rows: 8 x 2 KB stay in L1, and a row is not reused at once


def _play_kernel(rules, prep):
    """A copy of ``rules.step_rows``'s loop (the config through ``prep``, as the engine's step
    kernel takes it) whose observation pass is switchable: ``mode``
    OBSERVE_OFF skips it, OBSERVE_ZERO only zeroes each row, OBSERVE_WHOLE writes the
    observation (then it is ``step_rows``; ``_check_play_kernel`` holds it to that), and
    OBSERVE_SCRATCH computes every row's observation as WHOLE does but writes it into one of
    ``scratch``'s few rows, which stay in L1: the computing and the stores without the batch's
    rows to fetch."""
    phase, over, current = rules.F_PHASE, rules.PHASE_OVER, rules.F_CURRENT
    key, episode = rules.M_KEY, rules.M_EPISODE
    is_legal, apply_, write_rewards = rules._is_legal, rules._apply, rules._write_rewards
    reset, legal_, observe_ = rules._reset, rules._legal, rules._observe

    @njit
    def play(s, cfg, actions, autoreset, obs, mask, rewards, terminated, mode, scratch):
        s, cfg, obs, mask, rewards = borrowed_step(s, cfg, obs, mask, rewards)
        scratch = borrowed(scratch)
        cfg = prep(cfg)
        n = actions.shape[0]
        no_deck = np.full(1, -1, np.int8)  # as kernels.step_rows
        for lo in range(0, n, STEP_BLOCK):
            hi = min(lo + STEP_BLOCK, n)
            for b in range(lo, hi):
                for p in range(rewards.shape[1]):
                    rewards[b, p] = 0.0
                if s.f[b, phase] == over:
                    continue
                terminated[b] = False
                if not is_legal(s, b, cfg, actions[b]):
                    continue
                apply_(s, b, cfg, actions[b])
                if s.f[b, phase] == over:
                    terminated[b] = True
                    write_rewards(s, b, cfg, rewards[b])
                    if autoreset:
                        nxt = s.m[b, episode] + np.uint64(1)
                        reset(s, b, cfg, s.m[b, key], nxt, no_deck, np.int64(-1))
            for b in range(lo, hi):
                legal_(s, b, cfg, mask[b])
            if mode == OBSERVE_OFF:
                continue
            for b in range(lo, hi):
                if mode == OBSERVE_SCRATCH:
                    row = scratch[b % SCRATCH_ROWS]
                else:
                    prefetch_ahead(obs, b)
                    row = obs[b]
                if mode == OBSERVE_ZERO:
                    for i in range(row.shape[0]):
                        row[i] = 0.0
                else:
                    c = s.f[b, current]
                    observe_(s, b, cfg, c if c >= 0 else 0, row)

    return play


def _scratch(venv) -> np.ndarray:
    return np.zeros((SCRATCH_ROWS, venv.obs_dim), np.float32)


def run_on_copies(venv, kernel, actions, *extra):
    """Call ``kernel`` (``step_rows``'s arguments, then ``extra``) on copies of the engine's
    state and output buffers; returns the state and the buffers ``[obs, mask, rewards,
    terminated]`` it wrote."""
    s = PackedState(*(a.copy() for a in venv.state))
    buffers = [a.copy() for a in (venv._obs, venv._mask, venv._rewards, venv._terminated)]
    kernel(s, venv._cfg, actions, venv.autoreset, *buffers, *extra)
    return s, buffers


def _check_play_kernel(venv, play, actions) -> None:
    """Raise unless ``play`` with its whole observation writes what ``step_rows`` writes, from
    the same state and actions (the copy of the loop must not drift from the engine's)."""
    outs = []
    for kernel, extra in ((venv._step_rows, ()), (play, (OBSERVE_WHOLE, _scratch(venv)))):
        s, buffers = run_on_copies(venv, kernel, actions, *extra)
        outs.append([*s, *buffers])
    if not all(np.array_equal(a, b) for a, b in zip(*outs, strict=True)):
        raise RuntimeError(
            "profile_step's copy of step_rows no longer matches the engine's: update _play_kernel"
        )


def _in_play_ms(venv, play, policy, repeats: int) -> dict:
    """Milliseconds per batch step of drawing the actions and ``play`` in each observation
    mode, playing on from the engine's state. The modes take turns step by step: rows of games
    whose deals have nearly fixed lengths stay in step with each other for hundreds of steps, so
    the cost of a step moves with the phase they are in, and only turns this short give every
    mode the same mix of phases. The mean over ``20 * repeats`` steps per mode."""
    s, cfg = venv.state, venv._cfg
    bufs = (venv._obs, venv._mask, venv._rewards, venv._terminated)
    modes = (OBSERVE_OFF, OBSERVE_ZERO, OBSERVE_WHOLE, OBSERVE_SCRATCH)
    scratch = _scratch(venv)
    total = dict.fromkeys(modes, 0.0)
    steps = 20 * repeats
    for _ in range(steps):
        for m in modes:
            actions = policy(venv._mask)
            t0 = time.perf_counter()
            play(s, cfg, actions, venv.autoreset, *bufs, m, scratch)
            total[m] += time.perf_counter() - t0
    off, zero, whole, in_l1 = (total[m] / steps * 1e3 for m in modes)
    return {
        "observe_in_play": max(0.0, whole - off),
        "observe_rows": max(0.0, zero - off),
        "observe_in_l1": max(0.0, in_l1 - off),
        "step_in_play": whole,
    }


def _median_ms(fn, repeats: int, before=None) -> float:
    times = []
    for _ in range(repeats):
        if before is not None:
            before()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times) * 1e3)


def profile(env_id: str, n: int = 8192, repeats: int = 30, seed: int = 0) -> dict:
    """The phase timings of ``env_id`` at ``n`` rows (milliseconds per batch step)."""
    venv = cardenvs.make_vector(env_id, num_envs=n, seed=seed)
    rules = importlib.import_module(venv.game.reset_rows.py_func.__module__)
    prep = _config_of(venv, rules)
    apply_all, legal_all, observe_all = _phase_kernels(rules, prep)
    _, mask, _ = venv.reset()
    policy = RandomLegal(seed)
    for _ in range(60):  # mix: rows in every phase of their games
        _, mask, *_ = venv.step(policy(mask))
    s, cfg = venv.state, venv._cfg
    actions = policy(mask).copy()
    saved = PackedState(*(a.copy() for a in s))

    def restore():
        for a, b in zip(s, saved, strict=True):
            a[:] = b

    mask2 = mask.copy()
    obs2 = np.zeros((n, venv.obs_dim), np.float32)
    apply_all(s, cfg, actions)  # compile
    restore()
    legal_all(s, cfg, mask2)
    observe_all(s, cfg, obs2)
    out = {
        "apply": _median_ms(lambda: apply_all(s, cfg, actions), repeats, restore),
        "legal": _median_ms(lambda: legal_all(s, cfg, mask2), repeats),
        "observe": _median_ms(lambda: observe_all(s, cfg, obs2), repeats),
        "policy": _median_ms(lambda: policy(mask), repeats),
    }
    restore()
    current = {"mask": venv.action_mask}

    def step():
        _, current["mask"], *_ = venv.step(policy(current["mask"]))

    out["step"] = _median_ms(step, repeats)
    play = _play_kernel(rules, prep)
    _check_play_kernel(venv, play, policy(venv.action_mask).copy())
    out.update(_in_play_ms(venv, play, policy, repeats))
    phases = out["apply"] + out["legal"] + out["observe"] + out["policy"]
    out["rest"] = max(0.0, out["step"] - phases)
    out["steps_per_s"] = n / (out["step"] / 1e3)
    out["obs_dim"] = venv.obs_dim
    out["num_actions"] = venv.num_actions
    return out


def markdown(results: dict, n: int) -> str:
    """The phases timed alone (shares of ``step``), then the observation in play (shares of the
    step in play) and the observation's size; ns are per row."""
    rows = [
        f"| id (N = {n}) | step ms | apply | legal | observe | rest | policy "
        "| observe in play | of which rows | into L1 rows | obs floats |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for env_id, r in results.items():
        share = {k: r[k] / r["step"] for k in ("apply", "legal", "observe", "rest", "policy")}
        in_play = [
            f"{r[k] / n * 1e6:.0f} ns ({r[k] / r['step_in_play']:.0%})"
            for k in ("observe_in_play", "observe_rows", "observe_in_l1")
        ]
        rows.append(
            f"| {env_id} | {r['step']:.2f} | "
            + " | ".join(f"{r[k]:.2f} ({share[k]:.0%})" for k in share)
            + f" | {' | '.join(in_play)} | {r['obs_dim']} |"
        )
    return "\n".join(rows)


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.profile_step", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--games", nargs="*", default=list(cardenvs.GAMES))
    p.add_argument("--n", type=int, default=8192)
    p.add_argument("--repeats", type=int, default=30)
    p.add_argument("--out", default=str(RESULTS))
    a = p.parse_args(argv)
    if a.n < 1 or a.repeats < 1:
        p.error("--n and --repeats must be at least 1")
    results = {g: profile(g, a.n, a.repeats) for g in a.games}
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "profile_step.json").write_text(json.dumps({"n": a.n, "games": results}, indent=2))
    table = markdown(results, a.n)
    print(table)
    return results


if __name__ == "__main__":
    main()
