"""cardenvs against the field: random legal play, whole games, one process, same run.

    python -m benchmarks.peers [--seconds S] [--repeats R] [--sizes 1 64 1024 8192]
                               [--only ours,pettingzoo,rlcard,openspiel,pgx,limit] [--out DIR]

Writes ``DIR/peers.json``, ``DIR/peers.md`` (the Markdown table, also printed) and ``DIR/peers.png``
(a log-scale bar chart; skipped with a message when matplotlib is missing). ``DIR`` defaults to
``benchmarks/results``.

Method
------
Every measurement plays uniformly random *legal* actions through whole games, in this one
process (nothing here starts threads on purpose: numba kernels are serial; jax's CPU client is
left at its defaults). Everything is set up first (imports, environments, jax compiles); then
the measurements run in ``--repeats`` interleaved rounds, each round running every measurement
once (``run_rounds``), so a spell of load on the host falls on every system alike rather than on
whichever was being measured. A run lasts ``--seconds`` (loops that play single games stop at
the first game end after the budget, so they always count whole games); the median over the
rounds is reported. *steps/s* counts decisions (a player's action; chance events such as deals
are not counted), summed over rows for batched engines. *games/s* is steps/s divided by the mean
game length seen in the same measurement (for our batched engine: the mean game length of our
AEC runs of that game; for pgx: terminations counted on device). Ratios are ours divided by the
peer, decisions/s over decisions/s, always from numbers measured in the same run (see
``compute_ratios``). *CPU/wall* is the process's CPU seconds over wall seconds during a
measurement: about 1 for one busy core; XLA's CPU client (pgx) runs threads and shows more at
large N (on a 2-core machine, pinning it to one core with ``taskset -c 0`` did not slow it down,
so the threads do not buy it much there).

What each number includes (fairness caveats)
--------------------------------------------
- **ours, AEC** (``benchmarks.throughput.aec_loop``): the PettingZoo API, one Python call per
  decision; ``env.last()`` builds the observation dict of the agent to act (observation vector +
  action mask); the random choice is numpy in Python.
- **ours, batched**: one Python call per batch step (the loop of ``benchmarks.throughput``);
  each call writes the observation of the seat to act and the action mask of every row, resets
  finished rows, and draws the random legal actions in a numba kernel (included).
- **PettingZoo classic** (``texas_holdem_v4``, ``leduc_holdem_v4``, ``connect_four_v3``): the same
  AEC loop as ours (``env.last()``, random legal action from the mask); the poker envs wrap RLCard.
- **RLCard** (``uno``, ``doudizhu``, ``gin-rummy``, ``leduc-holdem``): ``env.step(action)``
  returns the next player's state dict (encoded observation, ``legal_actions``, raw info), so an
  observation and a legal-action list are built every decision; random choice with Python's
  ``random``.
- **OpenSpiel** (``hearts``, ``spades``, ``oh_hell``, ``bridge``, ``gin_rummy``), driven from
  Python: *bare* is ``state.legal_actions()`` + ``state.apply_action`` only (no observation at
  all; chance nodes sampled from ``chance_outcomes()`` in Python, their time included but not
  counted as steps); *observer* adds ``obs.set_from(state, player)`` on each decision, the
  zero-copy observer from ``open_spiel.python.observation.make_observation`` (pyspiel 2.0 has no
  ``pyspiel.make_observation``). The observation tensor is used where the game has one
  (spades, bridge, gin_rummy); hearts and oh_hell only provide the information-state tensor
  (thousands of floats), which is what their observer then writes. ``bridge`` is loaded with
  ``use_double_dummy_result=false`` so that the card play is played out: with the default the
  game ends after the auction and a double-dummy solver scores the deal (about 1 game/s here),
  which measures the solver rather than the environment.
- **pgx** on CPU jax (``leduc_holdem``, ``kuhn_poker``): ``jax.jit`` of a function that draws
  random legal actions from ``state.legal_action_mask`` (``jax.random.categorical``) and steps all
  rows with ``jax.vmap(pgx.experimental.auto_reset(env.step, env.init))`` (pgx computes the
  observation of the player to act inside ``step``; ``auto_reset`` computes a fresh initial state
  for every row each step, as pgx's own wrapper does under ``vmap``). One jitted call per batch
  step, like ours. The N rows start from copies of one initial state (``jax.jit(env.init)``,
  compiled once per game) and diverge at once. Compile times (the step function's per N, plus
  ``init``'s per game) are reported separately and not included in the rates.
  These are tiny games (a few decisions each); pgx has none of our games' size.
- **limit** ("physical limit"): a minimal numba kernel, called once per batch step from Python
  like our engine, that for each of N rows keeps a 36-card hand as a bitmask, plays a uniformly
  random held card (clears a set bit, refilling an empty hand: one "game" = 36 plays) and writes
  a two-word observation. No rules, no scoring, no mask: an upper bound for anything shaped like
  our batched engine on this machine.

Installing the peers
--------------------
``pip install -c constraints.txt -e '.[bench]'`` (``make bench`` does it, and carries on when a
peer fails to install). The ``bench`` extra pins the versions measured here: PettingZoo classic
(with ``pygame-ce``, needed by its classic envs at import), ``rlcard``, ``open_spiel``, ``pgx`` with
the plain (CPU-only) ``jax`` wheel, and ``matplotlib``; all of them install on Python 3.11. A
peer that is not importable is skipped with a one-line message saying how to install it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

import numpy as np
from numba import njit

import cardenvs
from benchmarks.throughput import aec_loop, timed_batches, vector_stepper

RESULTS = Path(__file__).parent / "results"
PEERS = ("ours", "pettingzoo", "rlcard", "openspiel", "pgx", "limit")
INSTALL_HINT = "pip install -c constraints.txt -e '.[bench]'"

PETTINGZOO_GAMES = ("texas_holdem_v4", "leduc_holdem_v4", "connect_four_v3")
RLCARD_GAMES = ("uno", "doudizhu", "gin-rummy", "leduc-holdem")
OPENSPIEL_GAMES = {
    "hearts": "hearts",
    "spades": "spades",
    "oh_hell": "oh_hell",
    "bridge": "bridge(use_double_dummy_result=false)",
    "gin_rummy": "gin_rummy",
}
PGX_GAMES = ("leduc_holdem", "kuhn_poker")
RATIO_SIZES = (1024, 8192)
PGX_RATIO_SIZE = 1024
PZ_REFERENCE = "texas_holdem_v4"
BATCHED = ("batched", "jit+vmap", "numba")  # modes stepping N rows per call


class Skip(Exception):
    """A peer that cannot be measured here (not installed, or broken)."""


def _skip_missing(peer: str, module: str, exc: Exception) -> Skip:
    return Skip(f"{peer} skipped: cannot import {module} ({exc}); install with: {INSTALL_HINT}")


# --------------------------------------------------------------------------- measurement helpers


@dataclasses.dataclass
class Measurement:
    """One row of the table: what is measured, and a timed run of it.

    ``run(seconds, round)`` plays for about ``seconds`` and returns ``(decisions, games finished,
    seconds taken)``; everything it needs (imports, environments, compiled functions) is built
    before the first round, so a run times play only. ``game_len`` fixes the mean game length
    where the runs cannot count whole games (see ``_game_lengths``)."""

    peer: str
    game: str
    mode: str
    n: int
    obs: str
    run: Callable[[float, int], tuple[int, int, float]]
    extra: dict = dataclasses.field(default_factory=dict)
    game_len: float | None = None


def run_rounds(measurements: list[Measurement], seconds: float, repeats: int) -> list[dict]:
    """Run every measurement ``repeats`` times, interleaved: round ``r`` runs each measurement
    once before round ``r + 1`` starts. A spell of load on the host then falls on every system
    about equally, instead of on whichever was measured during it, so the ratios of one run hold
    however noisy the machine is. Returns one record per measurement (median decisions/s)."""
    runs: list[list[tuple[int, int, float]]] = [[] for _ in measurements]
    cpu = [0.0] * len(measurements)
    wall = [0.0] * len(measurements)
    for r in range(repeats):
        t0 = time.perf_counter()
        for i, m in enumerate(measurements):
            c, w = time.process_time(), time.perf_counter()
            runs[i].append(m.run(seconds, r))
            cpu[i] += time.process_time() - c
            wall[i] += time.perf_counter() - w
        print(
            f"round {r + 1}/{repeats}: {len(measurements)} measurements in "
            f"{time.perf_counter() - t0:.1f} s",
            flush=True,
        )
    out = []
    for m, rs, c, w in zip(measurements, runs, cpu, wall, strict=True):
        summary = _summary(rs)
        if m.game_len is not None:  # refills lag plays: use the exact game length instead
            summary["game_len"] = m.game_len
            summary["games_per_s"] = summary["steps_per_s"] / m.game_len
        out.append(
            _record(
                m.peer,
                m.game,
                m.mode,
                m.n,
                summary,
                obs=m.obs,
                **m.extra,
                cpu_per_wall=c / w if w > 0 else 0.0,
            )
        )
    return _game_lengths(out)


def _game_lengths(records: list[dict]) -> list[dict]:
    """Our batched runs stop mid-game in most rows and finish too few games at large N to count
    them: their game length is the mean length of our AEC runs of the same game, measured in the
    same rounds."""
    aec = {r["game"]: r["game_len"] for r in records if r["peer"] == "ours" and r["mode"] == "AEC"}
    for r in records:
        if r["peer"] == "ours" and r["mode"] == "batched":
            r["game_len"] = aec.get(r["game"], 0.0)
            r["games_per_s"] = r["steps_per_s"] / r["game_len"] if r["game_len"] else 0.0
    return records


def _summary(runs: list[tuple[int, int, float]]) -> dict:
    """Median decisions/s over runs of ``(steps, games, seconds)``; games/s from the pooled mean
    game length of the same runs."""
    rates = [s / dt for s, _, dt in runs]
    steps = sum(s for s, _, _ in runs)
    games = sum(g for _, g, _ in runs)
    steps_s = statistics.median(rates)
    game_len = steps / games if games else 0.0
    return {
        "steps_per_s": steps_s,
        "games_per_s": steps_s / game_len if game_len else 0.0,
        "game_len": game_len,
        "runs_steps_per_s": rates,
        "steps": steps,
        "games": games,
    }


def _record(peer: str, game: str, mode: str, n: int, summary: dict, **extra) -> dict:
    return {"peer": peer, "game": game, "mode": mode, "n": n, **summary, **extra}


# --------------------------------------------------------------------------------------- ours


def _aec_runner(env):
    """Runs of ``aec_loop`` on a PettingZoo AEC env (ours or a peer's), reseeded each round."""

    def run(seconds: float, r: int):
        env.reset(seed=r)
        return aec_loop(env, seconds, np.random.default_rng(r))

    return run


def _ours_batched(env_id: str, n: int):
    step = vector_stepper(env_id, n)  # games are counted by the AEC runs (see _game_lengths)

    def run(seconds: float, r: int):
        step()  # untimed: bring this engine's buffers back into the cache
        return timed_batches(step, n, seconds)

    return run


def bench_ours(sizes: list[int]) -> list[Measurement]:
    out = []
    for env_id in cardenvs.GAMES:
        out.append(
            Measurement(
                "ours",
                env_id,
                "AEC",
                1,
                "obs dict + mask (PettingZoo API)",
                _aec_runner(cardenvs.make(env_id)),
            )
        )
        for n in sizes:
            out.append(
                Measurement(
                    "ours",
                    env_id,
                    "batched",
                    n,
                    "obs of seat to act + mask",
                    _ours_batched(env_id, n),
                )
            )
    return out


# -------------------------------------------------------------------------------- PettingZoo


def bench_pettingzoo(sizes: list[int]) -> list[Measurement]:
    import importlib

    try:
        mods = {g: importlib.import_module(f"pettingzoo.classic.{g}") for g in PETTINGZOO_GAMES}
    except Exception as exc:  # ImportError, or pettingzoo's DependencyNotInstalled
        raise _skip_missing(
            "pettingzoo", "pettingzoo.classic (with rlcard, pygame-ce)", exc
        ) from exc
    return [  # the loop of our AEC measurement
        Measurement("pettingzoo", game, "AEC", 1, "obs dict + mask", _aec_runner(mod.env()))
        for game, mod in mods.items()
    ]


# ------------------------------------------------------------------------------------ RLCard


def _rlcard_run(env, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    steps = games = 0
    t0 = time.perf_counter()
    while True:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
        if time.perf_counter() - t0 > seconds:
            break
    return steps, games, time.perf_counter() - t0


def bench_rlcard(sizes: list[int]) -> list[Measurement]:
    try:
        import rlcard
    except Exception as exc:
        raise _skip_missing("rlcard", "rlcard", exc) from exc

    def runner(game):
        def run(seconds: float, r: int):
            env = rlcard.make(game, config={"seed": r})  # RLCard seeds an env when it is made
            return _rlcard_run(env, seconds, random.Random(r))

        return run

    return [
        Measurement("rlcard", game, "step", 1, "state dict + legal actions", runner(game))
        for game in RLCARD_GAMES
    ]


# --------------------------------------------------------------------------------- OpenSpiel


def _openspiel_observer(game):
    """The zero-copy observer: the observation tensor if the game has one, else the
    information-state tensor. Returns ``(observation, kind)``."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    for kind, recall in (("observation", False), ("information state", True)):
        try:
            obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=recall))
        except Exception:  # a game that does not support that kind raises
            obs = None
        if obs is not None and obs.tensor is not None:
            return obs, f"{kind} tensor ({obs.tensor.size} floats)"
    raise Skip(f"openspiel {game} has no tensor observer")


def _openspiel_run(game, seconds: float, rng: random.Random, obs) -> tuple[int, int, float]:
    steps = games = 0
    t0 = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            if obs is not None:
                obs.set_from(state, state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
        if time.perf_counter() - t0 > seconds:
            break
    return steps, games, time.perf_counter() - t0


def bench_openspiel(sizes: list[int]) -> list[Measurement]:
    try:
        import pyspiel
    except Exception as exc:
        raise _skip_missing("openspiel", "pyspiel (pip package open_spiel)", exc) from exc

    def runner(game, obs):
        def run(seconds: float, r: int):
            return _openspiel_run(game, seconds, random.Random(r), obs)

        return run

    out = []
    for name, spec in OPENSPIEL_GAMES.items():
        game = pyspiel.load_game(spec)
        observer, kind = _openspiel_observer(game)
        for mode, obs, desc in (("bare", None, "none"), ("observer", observer, kind)):
            out.append(
                Measurement("openspiel", name, mode, 1, desc, runner(game, obs), {"spec": spec})
            )
    return out


# --------------------------------------------------------------------------------------- pgx


def bench_pgx(sizes: list[int]) -> list[Measurement]:
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except Exception as exc:
        raise _skip_missing("pgx", "pgx / jax", exc) from exc

    def runner(env, first, n: int):
        """Compile the batch step at ``n`` rows; return its run and its compile seconds."""
        step_all = jax.vmap(auto_reset(env.step, env.init))

        @jax.jit
        def one(state, key, finished):
            key, k_act, k_step = jax.random.split(key, 3)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            action = jax.random.categorical(k_act, logits, axis=-1)
            state = step_all(state, action, jax.random.split(k_step, n))
            return state, key, finished + state.terminated.sum()

        # N copies of one initial state (one compile of ``init`` per game, not per N); the rows
        # diverge at once (each row draws its own actions) and at every auto-reset.
        box = {
            "state": jax.tree.map(lambda x: jnp.broadcast_to(x, (n, *x.shape)), first),
            "key": jax.random.PRNGKey(0),
            "finished": jnp.zeros((), jnp.int32),
        }

        def step() -> int:
            box["state"], box["key"], box["finished"] = one(
                box["state"], box["key"], box["finished"]
            )
            return 0  # terminations are counted on the device (``finished``)

        t0 = time.perf_counter()
        step()
        jax.block_until_ready(box["finished"])
        compile_s = time.perf_counter() - t0

        def run(seconds: float, r: int):
            box["finished"] = jnp.zeros((), jnp.int32)
            t = time.perf_counter()
            steps, _, _ = timed_batches(step, n, seconds)
            games = int(box["finished"])  # waits for the device
            return steps, games, time.perf_counter() - t

        return run, compile_s

    out = []
    for game in PGX_GAMES:
        env = pgx.make(game)
        t0 = time.perf_counter()
        first = jax.block_until_ready(jax.jit(env.init)(jax.random.PRNGKey(1)))
        init_compile_s = time.perf_counter() - t0
        for n in sizes:
            run, compile_s = runner(env, first, n)
            extra = {"compile_s": compile_s, "init_compile_s": init_compile_s}
            out.append(
                Measurement("pgx", game, "jit+vmap", n, "obs of player to act + mask", run, extra)
            )
    return out


# ------------------------------------------------------------------------------------- limit

HAND_CARDS = 36


@njit(cache=True)
def limit_step(hands, rng, obs):
    """One batch step of the minimal card kernel; returns the number of hands refilled."""
    full = (np.uint64(1) << np.uint64(HAND_CARDS)) - np.uint64(1)
    one = np.uint64(1)
    refills = 0
    for b in range(hands.shape[0]):
        h = hands[b]
        if h == 0:
            h = full
            refills += 1
        x = rng[b]  # xorshift64
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        rng[b] = x
        # popcount (SWAR)
        c = h - ((h >> one) & np.uint64(0x5555555555555555))
        c = (c & np.uint64(0x3333333333333333)) + (
            (c >> np.uint64(2)) & np.uint64(0x3333333333333333)
        )
        c = (c + (c >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
        c = (c * np.uint64(0x0101010101010101)) >> np.uint64(56)
        k = ((x >> np.uint64(32)) * c) >> np.uint64(32)  # uniform in 0..c-1
        t = h
        for _ in range(k):
            t &= t - one
        card = t & (~t + one)  # the k-th held card
        h ^= card
        hands[b] = h
        obs[b, 0] = h
        obs[b, 1] = card
    return refills


def bench_limit(sizes: list[int]) -> list[Measurement]:
    def runner(n: int):
        hands = np.zeros(n, np.uint64)
        rng = np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        obs = np.zeros((n, 2), np.uint64)
        limit_step(hands, rng, obs)  # compile (or load from cache)

        def run(seconds: float, r: int):
            return timed_batches(lambda: limit_step(hands, rng, obs), n, seconds)

        return run

    return [
        Measurement(
            "limit", "36-card bitmask", "numba", n, "2 words", runner(n), game_len=HAND_CARDS
        )
        for n in sizes
    ]


BENCHES = {
    "ours": bench_ours,
    "pettingzoo": bench_pettingzoo,
    "rlcard": bench_rlcard,
    "openspiel": bench_openspiel,
    "pgx": bench_pgx,
    "limit": bench_limit,
}


# ------------------------------------------------------------------------------------ ratios


def _find(results, peer, mode=None, n=None, game=None):
    return [
        r
        for r in results
        if r["peer"] == peer
        and (mode is None or r["mode"] == mode)
        and (n is None or r["n"] == n)
        and (game is None or r["game"] == game)
    ]


def cpu_name(cpuinfo: str | None = None) -> str:
    """The processor, as specific as the host says: ``/proc/cpuinfo``'s model name with its
    family and model numbers (cloud hosts often name only "AMD EPYC", and the ratios to the
    pure-Python peers move with the CPU generation), else ``platform``'s word for it."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text()
        except OSError:
            cpuinfo = ""
    fields: dict[str, str] = {}
    for line in cpuinfo.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() not in fields:
            fields[key.strip()] = value.strip()
    name = fields.get("model name")
    if not name:
        return platform.processor() or platform.machine()
    ids = [f"{k} {fields[k]}" for k in ("cpu family", "model") if k in fields]
    return f"{name} ({', '.join(ids)})" if ids else name


def compute_ratios(results: list[dict]) -> dict:
    """Ours over peers, decisions/s over decisions/s, from the records of one run.

    Our batched engine (each game at N = 1024 and 8192, or the largest N measured when neither
    was) against OpenSpiel with its observer, RLCard, and pgx at N = 1024 (or its largest N),
    each peer game separately plus the range over the peer's games (``low`` is the ratio to the
    peer's fastest game), and the ``limit`` kernel at the same N; our AEC env (each game)
    against PettingZoo ``texas_holdem_v4``.
    Comparisons whose numbers are missing from ``results`` are left out.
    """
    ours_batched = _find(results, "ours", "batched")
    ns = sorted({r["n"] for r in ours_batched})
    ours_ns = [n for n in RATIO_SIZES if n in ns] or ns[-1:]
    pgx_ns = sorted({r["n"] for r in _find(results, "pgx")})
    pgx_n = PGX_RATIO_SIZE if PGX_RATIO_SIZE in pgx_ns else (pgx_ns[-1] if pgx_ns else None)
    refs = {
        "openspiel_observer": _find(results, "openspiel", "observer"),
        "rlcard": _find(results, "rlcard"),
        f"pgx_n{pgx_n}": _find(results, "pgx", n=pgx_n) if pgx_n is not None else [],
    }
    out = {"batched": [], "aec": [], "pettingzoo_reference": PZ_REFERENCE}
    for r in ours_batched:
        if r["n"] not in ours_ns:
            continue
        row = {"game": r["game"], "n": r["n"], "steps_per_s": r["steps_per_s"], "vs": {}}
        # The limit kernel at the same N: our share of the machine's bound (a ratio below 1).
        for name, peers in [*refs.items(), ("limit_same_n", _find(results, "limit", n=r["n"]))]:
            per_game = {p["game"]: r["steps_per_s"] / p["steps_per_s"] for p in peers}
            if per_game:
                fastest = max(peers, key=lambda p: p["steps_per_s"])["game"]
                row["vs"][name] = {
                    "per_game": per_game,
                    "low": min(per_game.values()),
                    "high": max(per_game.values()),
                    "fastest_peer_game": fastest,
                }
        out["batched"].append(row)
    pz = _find(results, "pettingzoo", game=PZ_REFERENCE)
    for r in _find(results, "ours", "AEC"):
        if pz:
            out["aec"].append(
                {"game": r["game"], "vs_pettingzoo": r["steps_per_s"] / pz[0]["steps_per_s"]}
            )
    return out


# ----------------------------------------------------------------------------------- reports


def _fmt_x(x: float) -> str:
    return f"{x:,.0f}×" if x >= 100 else f"{x:.3g}×"


def _ratio_header(name: str) -> str:
    if name == "limit_same_n":
        return "of limit (same N)"
    if name.startswith("pgx_n"):
        return f"vs pgx N={name[5:]}"
    return {"openspiel_observer": "vs OpenSpiel + observer", "rlcard": "vs RLCard"}.get(
        name, f"vs {name}"
    )


def markdown(report: dict) -> str:
    lines = [
        f"# cardenvs vs peers (random legal play; {report['seconds']} s × "
        f"{report['repeats']} interleaved rounds, median)",
        "",
        f"Machine: {report['machine']['cpu']}, {report['machine']['cores']} cores, Python "
        f"{report['machine']['python']}; one process.",
        "",
        "| peer | game | mode | N | decisions/s | games/s | CPU/wall | observation | notes |",
        "|---|---|---|---:|---:|---:|---:|---|---|",
    ]
    for r in report["results"]:
        notes = []
        if "compile_s" in r:
            notes.append(f"compile {r['compile_s']:.1f} s (+ init {r['init_compile_s']:.1f} s)")
        if r.get("game_len"):
            notes.append(f"{r['game_len']:.1f} decisions/game")
        runs = r["runs_steps_per_s"]
        if len(runs) > 1:
            notes.append(f"runs {min(runs):,.0f}..{max(runs):,.0f}")
        lines.append(
            f"| {r['peer']} | {r['game']} | {r['mode']} | {r['n']} | {r['steps_per_s']:,.0f} | "
            f"{r['games_per_s']:,.1f} | {r.get('cpu_per_wall', 0.0):.2f} | {r['obs']} | "
            f"{'; '.join(notes)} |"
        )
    ratios = report["ratios"]
    if ratios["batched"]:
        names = list(dict.fromkeys(k for row in ratios["batched"] for k in row["vs"]))
        lines += [
            "",
            "## Ratios: our batched engine over each peer (decisions/s, same run)",
            "",
            "Range over the peer's games; the first number is against the peer's fastest game. "
            '"of limit" is ours over the limit kernel at the same N.',
            "",
            "| ours | N | " + " | ".join(_ratio_header(n) for n in names) + " |",
            "|---|---:|" + "---:|" * len(names),
        ]
        for row in ratios["batched"]:
            cells = []
            for name in names:
                v = row["vs"].get(name)
                if not v:
                    cells.append("n/a")
                elif len(v["per_game"]) == 1:
                    cells.append(_fmt_x(v["low"]))
                else:
                    cells.append(
                        f"{_fmt_x(v['low'])} – {_fmt_x(v['high'])} "
                        f"(fastest: {v['fastest_peer_game']})"
                    )
            lines.append(f"| {row['game']} | {row['n']} | " + " | ".join(cells) + " |")
    if ratios["aec"]:
        lines += [
            "",
            f"## Ratios: our AEC env over PettingZoo {ratios['pettingzoo_reference']}",
            "",
            "| ours (AEC) | ratio |",
            "|---|---:|",
        ]
        lines += [f"| {r['game']} | {_fmt_x(r['vs_pettingzoo'])} |" for r in ratios["aec"]]
    if report["skipped"]:
        lines += ["", "## Skipped", ""] + [f"- {m}" for m in report["skipped"].values()]
    return "\n".join(lines) + "\n"


def chart(report: dict, path: Path) -> str:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as exc:
        return f"chart skipped: matplotlib not available ({exc}); install with: {INSTALL_HINT}"
    rows = report["results"]
    colors = dict(
        zip(PEERS, ["#d62728", "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#7f7f7f"], strict=True)
    )
    labels = [
        f"{r['peer']}: {r['game']} {r['mode']}" + (f" N={r['n']}" if r["mode"] in BATCHED else "")
        for r in rows
    ]
    fig, ax = plt.subplots(figsize=(10, 0.22 * len(rows) + 1.5))
    y = np.arange(len(rows))[::-1]
    ax.barh(y, [r["steps_per_s"] for r in rows], color=[colors[r["peer"]] for r in rows])
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("decisions/s (random legal play, one process; log scale)")
    ax.set_title("cardenvs vs peers")
    ax.grid(axis="x", which="both", alpha=0.3)
    handles = [plt.Rectangle((0, 0), 1, 1, color=colors[p]) for p in PEERS]
    ax.legend(handles, PEERS, fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return f"wrote {path}"


def _versions() -> dict:
    out = {}
    for dist in ("cardenvs", "numba", "numpy", "pettingzoo", "rlcard", "open_spiel", "pgx", "jax"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    return out


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.peers", description=__doc__.splitlines()[0]
    )
    p.add_argument("--seconds", type=float, default=2.0, help="seconds per run")
    p.add_argument("--repeats", type=int, default=5, help="rounds (median)")
    p.add_argument("--sizes", nargs="*", type=int, default=[1, 64, 1024, 8192])
    p.add_argument("--only", default=",".join(PEERS), help="comma-separated: " + ",".join(PEERS))
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = sorted(set(only) - set(PEERS))
    if unknown:
        p.error(f"unknown peers {unknown}; choose from {','.join(PEERS)}")
    report = {
        "machine": {
            "cpu": cpu_name(),
            "cores": os.cpu_count(),
            "python": platform.python_version(),
        },
        "versions": _versions(),
        "seconds": args.seconds,
        "repeats": args.repeats,
        "sizes": args.sizes,
        "results": [],
        "skipped": {},
    }
    measurements = []
    for peer in PEERS:
        if peer not in only:
            continue
        t0 = time.perf_counter()
        try:
            prepared = BENCHES[peer](args.sizes)
        except Skip as exc:
            report["skipped"][peer] = str(exc)
            print(exc, file=sys.stderr)
            continue
        measurements += prepared
        print(
            f"{peer}: {len(prepared)} measurements prepared in {time.perf_counter() - t0:.1f} s",
            flush=True,
        )
    report["results"] = run_rounds(measurements, args.seconds, args.repeats)
    report["ratios"] = compute_ratios(report["results"])
    md = markdown(report)
    print(md)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "peers.json").write_text(json.dumps(report, indent=2))
    (args.out / "peers.md").write_text(md)
    print(f"wrote {args.out / 'peers.json'} and {args.out / 'peers.md'}")
    print(chart(report, args.out / "peers.png"))
    return report


if __name__ == "__main__":
    main()
