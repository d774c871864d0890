"""Search support (``cardenvs.core.sim``): state copies, stepping without touching the live
game, determinization consistent with the seat's information, and the ISMCTS agent."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from harness import determinize_and_check, play_out_with, walk  # noqa: E402
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardenvs
from cardenvs.core.sim import Simulator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from agents.ismcts import ISMCTSAgent  # noqa: E402

DETERMINIZED = {
    "banque-v0": [{}, {"num_players": 2}, {"num_players": 3, "after_draw_play": "drawn_card_only"}],
    "four_aces-v0": [{}, {"num_players": 5}],
}
CASES = [(g, c) for g, cs in DETERMINIZED.items() for c in cs]


def card_multiset(game: str, s) -> list[int]:
    """Every card of a one-row state, wherever it is (hands, piles, stock), sorted."""
    from cardenvs.games.banque import rules as B
    from cardenvs.games.four_aces import rules as F

    R = B if game == "banque-v0" else F
    cards = []
    hands = ("hand", "taken") if game == "banque-v0" else ("hidden", "exposed")
    for name in hands:
        for m in R.field(s, name)[0].tolist():
            cards += [c for c in range(64) if (int(m) >> c) & 1]
    if game == "banque-v0":
        cards += R.field(s, "bank")[0][: int(R.field(s, "bank_n")[0])].tolist()
    else:
        cards += R.field(s, "pile")[0][: int(R.field(s, "pile_n")[0])].tolist()
        cards += [52] * int(R.field(s, "jokers_held")[0].sum())
        cards += [52] * int(R.field(s, "jokers_played")[0].sum())
    stock = R.field(s, "deck")[0][int(R.field(s, "stock_pos")[0]) :].tolist()
    cards += [52 if c >= 52 else c for c in stock]
    return sorted(cards)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    case=st.sampled_from(CASES),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
    seat_shift=st.integers(0, 4),
)
def test_sim__determinization_keeps_the_seats_information(case, seed, steps, seat_shift):
    """The seat's observation of a determinized copy equals its observation of the game (and,
    for the seat to act, the legal mask too); every card stays once; the live game is
    untouched; hidden cards are really redrawn (checked over many draws below)."""
    game, config = case
    env = cardenvs.make(game, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    walk(env, rng, steps)
    core = env.unwrapped
    seat = seat_shift % len(env.possible_agents)
    before, d = determinize_and_check(env, seat, rng)
    assert card_multiset(game, d) == card_multiset(game, before)
    for a, b in zip(before, core.state_copy(), strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize(("game", "config"), CASES)
def test_sim__determinization_redraws_what_the_seat_cannot_see(game, config):
    """Positive control: across draws, other seats' observations (their own hands) change."""
    env = cardenvs.make(game, **config)
    env.reset(seed=4)
    walk(env, np.random.default_rng(4), 30)
    core = env.unwrapped
    sim = core.simulator()
    rng = np.random.default_rng(0)
    other = 1
    seen = {sim.observe(core.determinize(0, rng), other).tobytes() for _ in range(20)}
    assert len(seen) > 1


def test_sim__step_on_a_copy_leaves_the_game_alone_and_checks_legality():
    env = cardenvs.make("banque-v0", num_players=2)
    env.reset(seed=1)
    core = env.unwrapped
    sim = core.simulator()
    s = core.state_copy()
    live = [a.copy() for a in core._engine.state]
    mask = sim.legal(s)
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        sim.step(s, illegal)
    rewards, done, nxt = sim.step(s, int(np.flatnonzero(mask)[0]))
    assert rewards.shape == (2,) and not done and nxt.any()
    for a, b in zip(live, core._engine.state, strict=True):
        assert np.array_equal(a, b)
    assert "Simulator(banque-v0" in repr(sim)


def test_sim__games_without_determinization_say_so(monkeypatch):
    """A game without a determinization (every game has one now: simulate one that lacks it)
    gets a clear error, from the env and from the ISMCTS agent."""
    import dataclasses

    import agents.ismcts

    env = cardenvs.make("piquet-v0")
    env.reset(seed=0)
    core = env.unwrapped
    bare = dataclasses.replace(core.game, determinize=None)
    monkeypatch.setattr(core, "game", bare)
    with pytest.raises(NotImplementedError, match="no determinization"):
        core.determinize(0)
    monkeypatch.setattr(agents.ismcts.cardenvs, "game_info", lambda env_id: bare)
    with pytest.raises(ValueError, match="needs a determinization"):
        ISMCTSAgent("piquet-v0")
    env = cardenvs.make("banque-v0")
    with pytest.raises(RuntimeError, match="reset"):
        env.unwrapped.determinize(0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="seat must be in 0..3"):
        env.unwrapped.determinize(7)


@pytest.mark.parametrize("game", list(DETERMINIZED))
def test_ismcts__plays_legal_actions_to_the_end_of_a_deal(game):
    env = cardenvs.make(game, illegal_action="raise", episode="deal")
    env.reset(seed=2)
    agent = ISMCTSAgent(game, iterations=8, max_rollout=200, seed=1)
    play_out_with(agent, env)
    assert "8 iterations, random roll-outs" in repr(agent)


def test_ismcts__time_budget_and_bad_arguments():
    env = cardenvs.make("banque-v0", num_players=2)
    env.reset(seed=3)
    agent = ISMCTSAgent("banque-v0", time_limit=0.05, seed=0)
    while len(env.unwrapped.legal_actions()) < 2:
        env.step(env.unwrapped.legal_actions()[0])
    a = agent.act_env(env)
    assert a in env.unwrapped.legal_actions() and agent.iterations_done >= 1
    with pytest.raises(ValueError, match="iterations"):
        ISMCTSAgent("banque-v0", iterations=0)


def test_ismcts__batched_rows_and_the_tournament(tmp_path):
    from benchmarks import tournament

    venv = cardenvs.make_vector("four_aces-v0", 3, seed=0)
    venv.reset()
    agent = ISMCTSAgent("four_aces-v0", iterations=4, max_rollout=100)
    for b in range(3):
        assert venv.action_mask[b, agent.act_row(venv, b)] == 1
    report = tournament.main(
        [
            "--games",
            "banque-v0",
            "--agents",
            "heuristic",
            "ismcts",
            "--n",
            "1",
            "--ismcts-iterations",
            "4",
            "--config",
            '{"num_players": 2, "episode": "deal"}',
            "--out",
            str(tmp_path),
            "--quiet",
        ]
    )
    assert report["ismcts_iterations"] == 4
    assert report["games"]["banque-v0"]["agents"]["ismcts"]["seats_played"] == 2
    assert isinstance(Simulator.copy_row(venv.state, 1).m, np.ndarray)


def test_sim__consistency_check_can_fail():
    """Negative control: a 'determinization' that swaps one of the seat's own cards with an
    opponent's changes the seat's observation, so the property above would catch it."""
    from cardenvs.games.banque import rules as R

    env = cardenvs.make("banque-v0", num_players=2, trump_assignment="by_seat")
    env.reset(seed=5)
    core = env.unwrapped
    sim = core.simulator()
    d = core.determinize(0, np.random.default_rng(0))
    hands = R.field(d, "hand")[0]
    mine = int(hands[0]) & -int(hands[0])
    theirs = int(hands[1]) & -int(hands[1])
    hands[0] = np.uint64(int(hands[0]) ^ mine ^ theirs)
    hands[1] = np.uint64(int(hands[1]) ^ mine ^ theirs)
    assert not np.array_equal(sim.observe(d, 0), env.observe("player_0")["observation"])
