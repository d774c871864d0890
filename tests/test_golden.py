"""Golden playthroughs: whole recorded games must replay and replay identically."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import cardenvs

GOLDEN = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN))
from make_golden import CASES, play  # noqa: E402

RECORDS = [
    (env_id, cfg, seed, json.loads(line))
    for env_id, cases in CASES.items()
    for (cfg, seed), line in zip(
        cases,
        (GOLDEN / env_id.split("-v")[0] / "random_games.jsonl").read_text().splitlines(),
        strict=True,
    )
]


@pytest.mark.parametrize("env_id, config, seed, record", RECORDS)
def test_golden__record_replays(env_id, config, seed, record):
    assert cardenvs.replay(record) == record


@pytest.mark.parametrize("env_id, config, seed, record", RECORDS)
def test_golden__same_seed_plays_the_same_game(env_id, config, seed, record):
    assert play(env_id, config, seed) == record
