"""``benchmarks.local_br``: the local best response at the opening decisions, on a tiny budget."""

from __future__ import annotations

import json

import numpy as np

from benchmarks import local_br
from cardenvs.arena import make_agent


def test_local_br__catches_the_deviators_first_opening_decision_with_a_choice():
    config = local_br.play_config("auction_piquet-v0")
    target = make_agent("heuristic", "auction_piquet-v0", config=config)
    caught = local_br.decisions("auction_piquet-v0", config, target, 6, 0)
    opening = local_br.opening_ids("auction_piquet-v0")
    assert 0 < len(caught) <= 6 and len({b for b, *_ in caught}) == len(caught)
    for b, seat, state, mask, own in caught:
        assert seat == b % 2 and mask[own] == 1 and (mask.astype(bool) & opening).any()
        assert mask.sum() > 1 and state.m.shape[0] == 1


def test_local_br__a_tiny_run_writes_its_table(tmp_path):
    report = local_br.main(
        ["--settings", "esel-v0_2p", "auction_piquet-v0", "--targets", "heuristic", "--n", "4"]
        + ["--worlds", "2", "--out", str(tmp_path)]
    )
    rows = report["rows"]
    assert [r["setting"] for r in rows] == ["esel-v0_2p", "auction_piquet-v0"]
    for r in rows:
        assert r["games"] == 4 and 0 <= r["deviated"] <= r["decisions"] <= 4
        assert -2 <= r["gain"] <= 2 and r["gain_ci95"][0] <= r["gain"] <= r["gain_ci95"][1]
    assert json.loads((tmp_path / "local_br.json").read_text())["rows"] == rows
    assert "| auction_piquet-v0 | heuristic |" in (tmp_path / "local_br.md").read_text()


def test_local_br__the_play_out_of_a_finished_choice_is_the_deals_reward():
    """``play_out`` steps the given first actions, then lets the target finish the deal: with
    the same state and the same first action, two rows end alike (a deterministic target)."""
    config = local_br.play_config("piquet-v0")
    target = make_agent("zoo", "piquet-v0", config=config)  # the zoo ships it: greedy
    caught = local_br.decisions("piquet-v0", config, target, 2, 3)
    _, seat, state, mask, own = caught[0]
    import cardenvs
    from cardenvs.core.sim import Simulator

    one = cardenvs.make_vector("piquet-v0", 1, **config)
    sim = Simulator(one.game, one.config)
    r = local_br.play_out(sim, sim.stack([state, state]), [own, own], target, seat)
    assert r[0] == r[1] and r[0] in (-1.0, 0.0, 1.0)
    assert np.isfinite(r).all()


def test_local_br__a_negative_gain_is_a_failed_estimate():
    assert local_br.verdict({"gain_ci95": [0.01, 0.2]}) == "exploited"
    assert local_br.verdict({"gain_ci95": [-0.045, -0.010]}) == "failed estimate"
    assert local_br.verdict({"gain_ci95": [-0.1, 0.1]}) == "inconclusive"
