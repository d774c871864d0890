"""The demo, the benchmarks and ``cardenvs.compile`` run end to end on a tiny budget."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import types

import numpy as np
import pytest

import cardenvs
from benchmarks import cold_start, lockstep, profile_step, scoring, throughput
from cardenvs import compile as ahead
from cardenvs.core.vector import RandomLegal
from cardenvs.ui import demo


def test_demo__plays_a_whole_partie_and_prints_the_result(capsys):
    record = demo.play("piquet-v0", seed=5, color=False)
    out = capsys.readouterr().out
    assert record["result"] is not None and len(record["deals"]) >= 6
    assert "=== result ===" in out and "\x1b[" not in out
    res = record["result"]
    assert (f"player_{res['winner']} wins" if res["winner"] is not None else "drawn") in out
    assert f"totals: {res['totals']}" in out


def test_demo__plays_esel_too(capsys):
    record = demo.play("esel-v0", seed=1, color=False)
    assert record["result"] is not None and record["game"] == "esel"
    assert "banks:" in capsys.readouterr().out


def test_demo__plays_banque_too(capsys):
    record = demo.play("banque-v0", seed=2, color=False)
    assert record["result"] is not None and record["game"] == "banque"
    out = capsys.readouterr().out
    assert "bank (" in out and f"totals: {record['result']['totals']}" in out


def test_benchmark__writes_a_table_and_json(tmp_path, capsys):
    # two engines (a two-handed and a four-seat one): every id would start 17 processes (its
    # compile tasks and warm starts) for the same code paths
    out = tmp_path / "t.json"
    argv = ["--games", "piquet-v0", "esel-v0", "--seconds", "0.05", "--sizes", "1", "8"]
    report = throughput.main([*argv, "--out", str(out)])
    assert list(report["games"]) == ["piquet-v0", "esel-v0"]
    assert report["games"]["esel-v0"]["vector"]["8"]["steps_per_s"] > 0
    row = report["games"]["piquet-v0"]
    assert row["aec"]["steps"] > 0 and row["vector"]["8"]["steps_per_s"] > 0
    assert row["state_bytes_per_game"] < 1024 and row["host_write_gb_s"] > 0
    assert json.loads(out.read_text())["games"]["piquet-v0"]["vector"]["1"]["num_envs"] == 1
    assert "vector N=8" in capsys.readouterr().out


def test_scoring_benchmark__times_the_scorer(capsys):
    rows = scoring.main(["--hands", "200"])
    assert set(rows) == {"default", "pair -1, replace"} and all(v > 0 for v in rows.values())
    assert "ns per hand" in capsys.readouterr().out


def test_profile_step__splits_a_step_into_its_phases(tmp_path, capsys):
    res = profile_step.main(
        ["--games", "four_aces-v0", "--n", "16", "--repeats", "2", "--out", str(tmp_path)]
    )
    for r in res.values():
        assert all(r[k] > 0 for k in ("apply", "legal", "observe", "policy", "step"))
        assert r["rest"] >= 0 and r["steps_per_s"] > 0
        assert r["step_in_play"] > 0 and 0 <= r["observe_rows"] and 0 <= r["observe_in_play"]
        assert r["observe_in_l1"] >= 0
    saved = json.loads((tmp_path / "profile_step.json").read_text())
    assert saved["n"] == 16 and saved["games"]["four_aces-v0"]["obs_dim"] == 507
    assert "| four_aces-v0 |" in capsys.readouterr().out


def test_lockstep__keeps_every_row_the_same_game_and_times_both_modes(capsys):
    (r,) = lockstep.main(["--games", "four_aces-v0", "--n", "16", "--steps", "40"])
    assert r["rows_still_identical"] and r["distinct_per_s"] > 0 and r["lockstep_per_s"] > 0
    assert "| four_aces-v0 | 16 |" in capsys.readouterr().out


def test_profile_step__refuses_a_copy_of_the_step_loop_that_drifted_from_the_engine():
    venv = cardenvs.make_vector("four_aces-v0", num_envs=8, seed=0)
    _, mask, _ = venv.reset()
    actions = RandomLegal(0)(mask).copy()

    def faithful(s, cfg, actions, autoreset, obs, mask, rewards, terminated, mode, scratch):
        venv.game.step_rows(s, cfg, actions, autoreset, obs, mask, rewards, terminated)

    def drifted(*args):
        faithful(*args)
        args[4][3, 0] += 1.0  # one observation entry off

    profile_step._check_play_kernel(venv, faithful, actions)
    with pytest.raises(RuntimeError, match="no longer matches"):
        profile_step._check_play_kernel(venv, drifted, actions)


def test_profile_step__into_l1_rows_computes_the_observations_the_step_writes():
    venv = cardenvs.make_vector("banque-v0", num_envs=profile_step.SCRATCH_ROWS, seed=3)
    _, mask, _ = venv.reset()
    policy = RandomLegal(3)
    for _ in range(30):
        _, mask, *_ = venv.step(policy(mask))
    rules = importlib.import_module(venv.game.reset_rows.py_func.__module__)
    play = profile_step._play_kernel(rules, profile_step._config_of(venv, rules))
    actions = policy(mask).copy()
    rows = np.full((profile_step.SCRATCH_ROWS, venv.obs_dim), np.nan, np.float32)
    s_whole, (obs, *_) = profile_step.run_on_copies(
        venv, play, actions, profile_step.OBSERVE_WHOLE, rows.copy()
    )
    s_l1, _ = profile_step.run_on_copies(venv, play, actions, profile_step.OBSERVE_SCRATCH, rows)
    assert all(np.array_equal(a, b) for a, b in zip(s_whole, s_l1, strict=True))
    np.testing.assert_array_equal(rows, obs)  # row b's observation, in scratch row b


def test_compile__groups_ids_by_engine_and_readies_them(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(ahead, "PACKAGE", tmp_path)  # the stale-cache check: not on the real cache
    assert ahead.groups(cardenvs.GAMES) == [
        ["piquet-v0", "piquet_au_cent-v0", "auction_piquet-v0"],
        ["esel-v0"],
        ["banque-v0"],
        ["four_aces-v0"],
        ["piquet_normand-v0", "partnership_piquet-v0"],
    ]
    # the player counts that have step kernels of their own are tasks of their own
    assert ahead.tasks(["banque-v0", "esel-v0"]) == [
        (["banque-v0"], {}),
        (["esel-v0"], {}),
        (["banque-v0"], {"num_players": 2}),
        (["banque-v0"], {"num_players": 3}),
    ]
    assert ahead.variants("four_aces-v0") == [{"num_players": 3}, {"num_players": 5}]
    assert ahead.variants("piquet-v0") == []
    times = ahead.main(["four_aces-v0", "esel-v0", "--jobs", "2"])
    assert set(times) == {
        "four_aces-v0",
        "esel-v0",
        "four_aces-v0 (num_players=3)",
        "four_aces-v0 (num_players=5)",
    } and all(t > 0 for t in times.values())
    assert "4 kernel sets ready" in capsys.readouterr().out
    assert (tmp_path / "__pycache__" / ahead.STAMP).is_file()


def test_compile__clears_cached_kernels_when_any_source_changed(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "bitmask.py").write_text("ONE = 1\n")
    (tmp_path / "games" / "rules.py").write_text("from ..bitmask import ONE\n")

    def cache():  # what numba writes next to each source
        for name in ("rules.step-1.py311.nbi", "rules.step-1.py311.1.nbc"):
            (tmp_path / "games" / "__pycache__").mkdir(exist_ok=True)
            (tmp_path / "games" / "__pycache__" / name).write_bytes(b"kernel")

    def cached() -> int:
        return len(list(tmp_path.rglob("*.nb[ic]")))

    cache()
    assert ahead.clear_stale_cache(tmp_path, log=lambda _: None) == 2  # no stamp: unknown sources
    cache()
    assert ahead.clear_stale_cache(tmp_path) == 0 and cached() == 2  # the stamped sources
    (tmp_path / "bitmask.py").write_text("ONE = 2\n")  # a helper the kernel inlines changed
    assert ahead.clear_stale_cache(tmp_path, log=lambda _: None) == 2 and cached() == 0
    cache()
    assert ahead.clear_stale_cache(tmp_path) == 0 and cached() == 2


@pytest.mark.parametrize(
    "argv, message",
    [(["chess-v0"], "unknown environment id 'chess-v0'"), (["--jobs", "0"], "at least 1")],
)
def test_compile__bad_arguments_exit_naming_the_problem(argv, message, capsys):
    with pytest.raises(SystemExit):
        ahead.main(argv)
    assert message in capsys.readouterr().err


def test_cold_start__times_each_id_in_an_empty_cache_and_tables_the_targets(
    monkeypatch, tmp_path, capsys
):
    seen = []

    def fake_timed(argv):
        seen.append(argv)
        if "cardenvs.compile" in argv:
            return {"end": 100.0}
        return (
            {"aec": 1.5, "aec_compiled": 30.0, "end": 31.0}
            if "make(" in argv[-1]
            else {"end": 12.0}
        )

    monkeypatch.setattr(cold_start, "timed", fake_timed)
    out = tmp_path / "cold.json"
    report = cold_start.main(["--ids", "esel-v0", "--repeats", "2", "--out", str(out)])
    rows = {(r["what"], r["id"]): r for r in report["rows"]}
    assert rows[("aec", "esel-v0")]["runs_s"] == [1.5, 1.5]
    assert rows[("aec_compiled", "esel-v0")]["median_s"] == 30.0
    assert rows[("compile", None)]["median_s"] == 100.0
    text = capsys.readouterr().out
    assert "| aec | esel-v0 | 1.5 | 10 | yes |" in text
    assert "| aec_compiled | esel-v0 | 30.0 | - | - |" in text
    assert "| vector | esel-v0 | 12.0 | 20 | yes |" in text
    assert "| compile | all | 100.0 | 120 | yes |" in text
    assert json.loads(out.read_text())["rows"] == report["rows"]
    assert any("'esel-v0'" in a[-1] for a in seen if a[1] == "-c")


def test_cold_start__each_process_gets_an_empty_numba_cache_of_its_own():
    code = (
        "import os, sys; d = os.environ['NUMBA_CACHE_DIR']; sys.exit(0 if not os.listdir(d) else 1)"
    )
    assert cold_start.timed([sys.executable, "-c", code])["end"] >= 0.0
    stamps = cold_start.timed([sys.executable, "-c", "import time; print('aec', time.time())"])
    assert 0.0 <= stamps["aec"] <= stamps["end"]
    with pytest.raises(subprocess.CalledProcessError):
        cold_start.timed([sys.executable, "-c", "raise SystemExit(3)"])


def test_compile_profile__splits_nested_compiles_into_own_and_total_seconds(monkeypatch):
    from benchmarks import compile_profile

    clock = iter([0.0, 1.0, 1.5, 3.5, 4.0, 6.0])  # outer starts, inner starts, llvm, ... ends
    monkeypatch.setattr(compile_profile.time, "perf_counter", lambda: next(clock))

    def ev(kind, name=None):
        func = types.SimpleNamespace(__module__="m", __qualname__=name)
        return types.SimpleNamespace(
            kind=kind, data={"dispatcher": types.SimpleNamespace(py_func=func)}
        )

    times = compile_profile.CompileTimes()
    times.on_start(ev("numba:compile", "outer"))  # 0.0
    times.on_start(ev("numba:compile", "inner"))  # 1.0
    times.on_start(ev("numba:llvm_lock"))  # 1.5
    times.on_end(ev("numba:llvm_lock"))  # 3.5: 2 s of LLVM in inner
    times.on_end(ev("numba:compile", "inner"))  # 4.0: inner 3 s
    times.on_end(ev("numba:compile", "outer"))  # 6.0: outer 6 s, 3 s its own
    assert times.rows == [("m.inner", 3.0, 3.0, 2.0), ("m.outer", 3.0, 6.0, 0.0)]
    assert times.table(1).splitlines()[1].split() == ["3.00", "3.00", "2.00", "m.inner"]


def test_compile_profile__reports_the_first_step_of_an_id():
    from benchmarks import compile_profile

    report = compile_profile.main(["four_aces-v0", "--top", "3"])
    assert report.startswith("four_aces-v0: first batched step ")
    assert "excl s   incl s   llvm s  function" in report
