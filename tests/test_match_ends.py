"""``benchmarks.match_ends``: draws and match length per setting, and the rules pages' tables."""

from __future__ import annotations

import json
import shutil

import pytest

from benchmarks import match_ends as M


def test_match_ends__measures_draws_length_and_skill(tmp_path):
    pages = tmp_path / "games"
    shutil.copytree(M.PAGES, pages)
    report = M.run(["esel-v0_2p_hand_points", "piquet-v0"], n=6, seed=3, log=lambda *_: None)
    for name, row in report["settings"].items():
        assert row["env_id"] == M.SETTINGS[name][0]
        for kind in M.AGENTS:
            out = row["agents"][kind]
            assert out["games"] == 6 and 0 <= out["draws"] <= 6
            assert sum(out["seat_wins"]) + out["draws"] >= 6  # a game is won or drawn
            lo, hi = out["draw_ci"]
            assert lo <= out["draw_rate"] <= hi
            assert out["mean_length"] >= 1 and out["mean_decisions"] > 0
    esel = report["settings"]["esel-v0_2p_hand_points"]
    assert esel["agents"]["heuristic"]["length_unit"] == "hands"
    assert report["settings"]["piquet-v0"]["agents"]["random"]["length_unit"] == "deals"
    check = esel["heuristic_vs_random"]
    assert check["games"] == 12 and check["won"] + check["drawn"] + check["lost"] == 12
    assert "heuristic_vs_random" not in report["settings"]["piquet-v0"]
    written = M.write_pages(report, pages)
    assert {p.name for p in written} == {"esel.md", "piquet.md"}
    text = (pages / "esel.md").read_text()
    assert M.markdown(report, "esel") in text and M.skill_markdown(report, "esel") in text
    assert "piquet-v0" not in M.markdown(report, "esel")


def test_match_ends__a_page_without_its_block_is_an_error(tmp_path):
    (tmp_path / "esel.md").write_text("# Esel\n")
    report = {"settings": {"x": {"page": "esel", "seed": 0, "env_id": "esel-v0", "agents": {}}}}
    with pytest.raises(ValueError, match="no '<!-- measured: match_ends esel -->' block"):
        M.write_pages(report, tmp_path)


def test_match_ends__the_rules_pages_show_the_committed_measurements():
    """Every setting is measured in the committed JSON, and each rules page holds exactly the
    table the script writes from it (the tables are not edited by hand)."""
    report = json.loads((M.RESULTS / "match_ends.json").read_text())
    assert set(report["settings"]) == set(M.SETTINGS)
    for page in {row["page"] for row in report["settings"].values()}:
        text = (M.PAGES / f"{page}.md").read_text()
        assert M.markdown(report, page) in text, f"{page}.md: table differs from the JSON"
        assert M.skill_markdown(report, page) in text


def test_match_ends__the_decisive_esel_option_meets_its_targets():
    """The committed measurement behind the Esel page: under tie_break="hand_points" two-player
    games between heuristics end decisively at least 90% of the time, two equal heuristics score
    0.45-0.55 per seat, and the heuristic beats random play (lower bound above 1/P)."""
    report = json.loads((M.RESULTS / "match_ends.json").read_text())
    row = report["settings"]["esel-v0_2p_hand_points"]
    assert row["agents"]["heuristic"]["draw_rate"] <= 0.10
    assert all(0.45 <= x <= 0.55 for x in row["heuristic_seat_share"])
    check = row["heuristic_vs_random"]
    assert check["ci"][0] > check["equal_strength"]
