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
from cardenvs.core.borrow import borrowed, borrowed_state
from cardenvs.core.prefetch import prefetch_ahead
from cardenvs.core.state import PackedState
from cardenvs.core.vector import RandomLegal

RESULTS = Path(__file__).parent / "results"


def _phase_kernels(rules):
    """numba loops calling one phase of ``rules`` on every row."""
    apply_, legal_, observe_ = rules._apply, rules._legal, rules._observe
    current = rules.LAYOUT.offset("current")

    # each loop takes borrowed views first, as step_rows does (no reference counting)
    @njit
    def apply_all(s, cfg, actions):
        s, cfg = borrowed_state(s), borrowed(cfg)
        for b in range(actions.shape[0]):
            apply_(s, b, cfg, actions[b])

    @njit
    def legal_all(s, cfg, mask):
        s, cfg, mask = borrowed_state(s), borrowed(cfg), borrowed(mask)
        for b in range(mask.shape[0]):
            legal_(s, b, cfg, mask[b])

    @njit
    def observe_all(s, cfg, obs):
        s, cfg, obs = borrowed_state(s), borrowed(cfg), borrowed(obs)
        for b in range(obs.shape[0]):
            prefetch_ahead(obs, b)  # as the engine's observation pass does
            c = s.f[b, current]
            observe_(s, b, cfg, c if c >= 0 else 0, obs[b])

    return apply_all, legal_all, observe_all


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
    rules = importlib.import_module(venv.game.step_rows.py_func.__module__)
    apply_all, legal_all, observe_all = _phase_kernels(rules)
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
    phases = out["apply"] + out["legal"] + out["observe"] + out["policy"]
    out["rest"] = max(0.0, out["step"] - phases)
    out["steps_per_s"] = n / (out["step"] / 1e3)
    out["obs_dim"] = venv.obs_dim
    out["num_actions"] = venv.num_actions
    return out


def markdown(results: dict, n: int) -> str:
    rows = [
        f"| id (N = {n}) | step ms | apply | legal | observe | rest | policy | obs floats |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for env_id, r in results.items():
        share = {k: r[k] / r["step"] for k in ("apply", "legal", "observe", "rest", "policy")}
        rows.append(
            f"| {env_id} | {r['step']:.2f} | "
            + " | ".join(f"{r[k]:.2f} ({share[k]:.0%})" for k in share)
            + f" | {r['obs_dim']} |"
        )
    return "\n".join(rows)


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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
