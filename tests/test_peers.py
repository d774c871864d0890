"""benchmarks.peers runs end to end on a tiny budget with whatever peers are installed: ours and
the limit kernel always, every importable peer measured, every other one skipped with the
install hint; ratios come from the numbers of the same run."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys

import pytest

import cardenvs
from benchmarks import peers

TINY = ["--seconds", "0.05", "--repeats", "1", "--sizes", "1", "8"]

# What each peer needs importable, and the games it must then report.
NEEDS = {
    "pettingzoo": (("pettingzoo", "rlcard", "pygame"), peers.PETTINGZOO_GAMES),
    "rlcard": (("rlcard",), peers.RLCARD_GAMES),
    "openspiel": (("pyspiel",), tuple(peers.OPENSPIEL_GAMES)),
    "pgx": (("pgx", "jax"), peers.PGX_GAMES),
}


def _importable(*modules: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in modules)


@pytest.fixture
def jax_compile_cache(request, tmp_path_factory):
    """Reuse pgx's compiled step functions across test runs (compiling is most of its cost);
    within this run only when pytest's cache is switched off (``-p no:cacheprovider``)."""
    if not _importable("jax"):
        yield
        return
    import jax

    names = ("jax_compilation_cache_dir", "jax_persistent_cache_min_compile_time_secs")
    old = {n: getattr(jax.config, n) for n in names}
    cache = getattr(request.config, "cache", None)
    where = cache.mkdir("jax-compilation-cache") if cache else tmp_path_factory.mktemp("jax")
    jax.config.update(names[0], str(where))
    jax.config.update(names[1], 0.0)
    yield
    for n, v in old.items():
        jax.config.update(n, v)


def test_peers__runs_end_to_end_with_what_is_installed(tmp_path, capsys, jax_compile_cache):
    report = peers.main([*TINY, "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    rows = report["results"]

    def measured(peer):
        return [r for r in rows if r["peer"] == peer]

    assert all(r["steps_per_s"] > 0 and r["games_per_s"] > 0 for r in rows)
    ours = measured("ours")
    assert {(r["game"], r["mode"], r["n"]) for r in ours} == {
        (g, m, n) for g in cardenvs.GAMES for m, n in (("AEC", 1), ("batched", 1), ("batched", 8))
    }
    assert {r["n"] for r in measured("limit")} == {1, 8}
    for peer, (modules, games) in NEEDS.items():
        if _importable(*modules):
            assert peer not in report["skipped"]
            assert {r["game"] for r in measured(peer)} == set(games)
        else:
            assert not measured(peer)
            assert peers.INSTALL_HINT in report["skipped"][peer] and peers.INSTALL_HINT in err
    if measured("openspiel"):
        assert {r["mode"] for r in measured("openspiel")} == {"bare", "observer"}
    if measured("pgx"):
        assert {r["n"] for r in measured("pgx")} == {1, 8}
        assert all(r["compile_s"] > 0 for r in measured("pgx"))

    # Ratios: each of our games at the largest N measured, from this run's numbers.
    ratios = report["ratios"]
    assert {(r["game"], r["n"]) for r in ratios["batched"]} == {(g, 8) for g in cardenvs.GAMES}
    limit8 = next(r for r in measured("limit") if r["n"] == 8)["steps_per_s"]
    for row in ratios["batched"]:
        (ours8,) = [
            r["steps_per_s"]
            for r in ours
            if (r["game"], r["mode"], r["n"]) == (row["game"], "batched", 8)
        ]
        assert row["vs"]["limit_same_n"]["low"] == pytest.approx(ours8 / limit8)
        assert ("rlcard" in row["vs"]) == bool(measured("rlcard"))
    assert bool(ratios["aec"]) == bool(measured("pettingzoo"))

    saved = json.loads((tmp_path / "peers.json").read_text())
    assert saved["results"] == json.loads(json.dumps(rows))
    md = (tmp_path / "peers.md").read_text()
    assert md in out and "| ours | piquet-v0 | batched | 8 |" in md
    if _importable("matplotlib"):
        assert (tmp_path / "peers.png").stat().st_size > 0
    else:
        assert "chart skipped" in out


def test_peers__a_missing_peer_is_skipped_with_the_install_hint(tmp_path, capsys, monkeypatch):
    for module in ("pettingzoo.classic.texas_holdem_v4", "rlcard", "pyspiel", "pgx", "jax"):
        monkeypatch.setitem(sys.modules, module, None)  # makes `import module` fail
    only = "pettingzoo,rlcard,openspiel,pgx,limit"
    report = peers.main(["--only", only, *TINY, "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert set(report["skipped"]) == {"pettingzoo", "rlcard", "openspiel", "pgx"}
    for peer, message in report["skipped"].items():
        assert message.startswith(f"{peer} skipped") and peers.INSTALL_HINT in message
        assert message in err
    assert {r["peer"] for r in report["results"]} == {"limit"}
    assert report["ratios"] == {"batched": [], "aec": [], "pettingzoo_reference": "texas_holdem_v4"}


def test_peers__rejects_an_unknown_peer(tmp_path):
    with pytest.raises(SystemExit):
        peers.main(["--only", "ours,gym", "--out", str(tmp_path)])


def _rec(peer, game, mode, n, steps_per_s):
    return {"peer": peer, "game": game, "mode": mode, "n": n, "steps_per_s": steps_per_s}


def test_compute_ratios__divides_ours_by_each_peer_of_the_same_run():
    results = [
        _rec("ours", "g", "AEC", 1, 30.0),
        _rec("ours", "g", "batched", 64, 1e3),
        _rec("ours", "g", "batched", 1024, 1e6),
        _rec("ours", "g", "batched", 8192, 4e6),
        _rec("openspiel", "hearts", "bare", 1, 1e9),  # bare is not a reference
        _rec("openspiel", "hearts", "observer", 1, 1e4),
        _rec("openspiel", "bridge", "observer", 1, 2e4),
        _rec("rlcard", "uno", "step", 1, 5e3),
        _rec("pgx", "kuhn_poker", "jit+vmap", 64, 1.0),
        _rec("pgx", "kuhn_poker", "jit+vmap", 1024, 2e5),
        _rec("pettingzoo", "leduc_holdem_v4", "AEC", 1, 1.0),
        _rec("pettingzoo", "texas_holdem_v4", "AEC", 1, 3.0),
        _rec("limit", "36-card bitmask", "numba", 1024, 2e6),
    ]
    ratios = peers.compute_ratios(results)
    assert [(r["game"], r["n"]) for r in ratios["batched"]] == [("g", 1024), ("g", 8192)]
    at1024, at8192 = ratios["batched"]
    os_ = at1024["vs"]["openspiel_observer"]
    assert os_["per_game"] == {"hearts": 100.0, "bridge": 50.0}
    assert (os_["low"], os_["high"], os_["fastest_peer_game"]) == (50.0, 100.0, "bridge")
    assert at1024["vs"]["rlcard"]["per_game"] == {"uno": 200.0}
    assert at8192["vs"]["pgx_n1024"]["per_game"] == {"kuhn_poker": 20.0}
    assert at1024["vs"]["limit_same_n"]["low"] == 0.5
    assert "limit_same_n" not in at8192["vs"]  # no limit measured at 8192
    assert ratios["aec"] == [{"game": "g", "vs_pettingzoo": 10.0}]


def test_compute_ratios__falls_back_to_the_largest_sizes_measured():
    results = [
        _rec("ours", "g", "batched", 1, 10.0),
        _rec("ours", "g", "batched", 8, 80.0),
        _rec("pgx", "kuhn_poker", "jit+vmap", 1, 1.0),
        _rec("pgx", "kuhn_poker", "jit+vmap", 8, 4.0),
    ]
    ratios = peers.compute_ratios(results)
    assert [(r["n"], r["vs"]) for r in ratios["batched"]] == [
        (
            8,
            {
                "pgx_n8": {
                    "per_game": {"kuhn_poker": 20.0},
                    "low": 20.0,
                    "high": 20.0,
                    "fastest_peer_game": "kuhn_poker",
                }
            },
        )
    ]
    assert ratios["aec"] == []


def test_run_rounds__interleaves_the_measurements_and_takes_each_median():
    calls = []

    def fake(name, rates):
        def run(seconds, r):
            calls.append((name, r))
            return rates[r], 2, 1.0  # steps, games, seconds

        return peers.Measurement("p", name, "step", 1, "none", run)

    limit = dataclasses.replace(fake("L", [36, 72, 108]), peer="limit", game_len=36.0)
    ms = [fake("a", [10, 30, 20]), fake("b", [5, 1, 3]), limit]
    records = peers.run_rounds(ms, seconds=0.0, repeats=3)
    # round r runs every measurement once before round r + 1 starts
    assert calls == [(g, r) for r in range(3) for g in ("a", "b", "L")]
    assert [r["steps_per_s"] for r in records] == [20, 3, 72]
    assert records[0]["runs_steps_per_s"] == [10, 30, 20]
    assert records[0]["game_len"] == 60 / 6  # pooled: 60 steps over 6 games
    assert records[2]["game_len"] == 36.0 and records[2]["games_per_s"] == 2.0


def test_game_lengths__our_batched_rows_take_the_aec_game_length_of_their_game():
    recs = [
        {**_rec("ours", "g", "AEC", 1, 30.0), "game_len": 150.0},
        {**_rec("ours", "g", "batched", 8, 3e6), "game_len": 0.0},
        {**_rec("ours", "h", "batched", 8, 1e6), "game_len": 0.0},  # no AEC record of h
    ]
    out = peers._game_lengths(recs)
    assert out[1]["game_len"] == 150.0 and out[1]["games_per_s"] == 2e4
    assert out[2]["game_len"] == 0.0 and out[2]["games_per_s"] == 0.0


def test_cpu_name__names_the_model_with_its_family_numbers():
    info = (
        "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n"
        "model name\t: AMD EPYC\n\nprocessor\t: 1\ncpu family\t: 26\nmodel\t\t: 2\n"
    )
    assert peers.cpu_name(info) == "AMD EPYC (cpu family 26, model 2)"
    assert peers.cpu_name("model name\t: Some CPU\n") == "Some CPU"
    assert peers.cpu_name("") != ""  # no cpuinfo (macOS, Windows): platform's name for it
