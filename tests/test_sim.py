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
from cardenvs.agents.ismcts import ISMCTSAgent  # noqa: E402

DETERMINIZED = {
    "banque-v0": [{}, {"num_players": 2}, {"num_players": 3, "after_draw_play": "drawn_card_only"}],
    "four_aces-v0": [{}, {"num_players": 5}],
}
CASES = [(g, c) for g, cs in DETERMINIZED.items() for c in cs]


def card_multiset(game: str, s) -> list[int]:
    """Every card of a one-row state, wherever it is (hands, piles, stock), sorted."""
    from cardenvs.games.banque import layout as B
    from cardenvs.games.four_aces import layout as F

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
    assert sim.observe(s, 1).shape == (core._engine.game.obs_dim,)
    for bad in (-1, 2, 7):
        with pytest.raises(ValueError, match=r"seats must be in 0\.\.1"):
            sim.observe(s, bad)
    with pytest.raises(ValueError, match="one per row"):
        sim.observe_rows(s, [0, 1])


def test_sim__games_without_determinization_say_so(monkeypatch):
    """A game without a determinization (every game has one now: simulate one that lacks it)
    gets a clear error, from the env and from the ISMCTS agent."""
    import dataclasses

    import cardenvs.agents.ismcts

    env = cardenvs.make("piquet-v0")
    env.reset(seed=0)
    core = env.unwrapped
    bare = dataclasses.replace(core.game, determinize=None)
    monkeypatch.setattr(core, "game", bare)
    with pytest.raises(NotImplementedError, match="no determinization"):
        core.determinize(0)
    monkeypatch.setattr(cardenvs.agents.ismcts.cardenvs, "game_info", lambda env_id: bare)
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


def test_sim__a_stacked_batch_steps_like_its_rows_one_by_one():
    """``Simulator.stack`` + ``step_rows`` (the batched roll-outs) give each row exactly what
    ``step`` gives its one-row copy: rewards, game over, next mask and the state itself."""
    env = cardenvs.make("piquet-v0", episode="deal")
    env.reset(seed=4)
    core = env.unwrapped
    sim = core.simulator()
    rng = np.random.default_rng(0)
    rows = [sim.determinize(core.state_copy(), 0, rng) for _ in range(5)]
    batch = sim.stack(rows)
    for _ in range(40):
        masks = [sim.legal(r) for r in rows]
        actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])
        rewards, done, nxt = sim.step_rows(batch, actions)
        for k, r in enumerate(rows):
            if not masks[k].any():
                continue
            r_k, d_k, m_k = sim.step(r, int(actions[k]))
            assert np.array_equal(rewards[k], r_k) and done[k] == d_k
            assert np.array_equal(nxt[k], m_k)
            for a, b in zip(Simulator.copy_row(batch, k), r, strict=True):
                assert np.array_equal(a, b)
    assert np.array_equal(sim.current_rows(batch), [sim.current(r) for r in rows])
    seats = sim.current_rows(batch).clip(0)
    obs = sim.observe_rows(batch, seats)
    assert np.array_equal(obs[2], sim.observe(rows[2], int(seats[2])))


@pytest.mark.parametrize("batch", [1, 5, 16])
def test_ismcts__waves_back_up_every_iteration_and_lift_the_virtual_loss(batch, monkeypatch):
    """With every roll-out worth 0.5 to every seat, each node's value is 0.5 x its visits
    whatever the wave size: the virtual loss of the descents is fully replaced."""
    env = cardenvs.make("piquet-v0", episode="deal")
    env.reset(seed=5)
    agent = ISMCTSAgent("piquet-v0", iterations=23, batch=batch, seed=2)

    def constant(sim, leaves):
        for leaf in leaves:
            leaf[3] = np.full(2, 0.5)

    monkeypatch.setattr(agent, "_evaluate", constant)
    monkeypatch.setattr(agent, "_deal_value", lambda s, r, seats: np.full(seats, 0.5))
    a = agent.act_env(env)
    assert a in env.unwrapped.legal_actions()
    root = agent.last_root
    assert agent.iterations_done == 23 and root.visits == 23
    assert sum(c.visits for c in root.children.values()) == 23

    def walk(node):
        for child in node.children.values():
            assert child.value == pytest.approx(0.5 * child.visits)
            # a visit stops at the node it expands or goes one level deeper
            assert child.visits >= sum(g.visits for g in child.children.values())
            walk(child)

    walk(root)


def test_ismcts__heuristic_roll_outs_in_waves_play_legally():
    env = cardenvs.make("piquet_au_cent-v0", illegal_action="raise", episode="deal")
    env.reset(seed=6)
    agent = ISMCTSAgent("piquet_au_cent-v0", iterations=12, batch=6, rollout="heuristic", seed=3)
    play_out_with(agent, env)
    for bad in (0, -2, 1.5, True):
        with pytest.raises(ValueError, match="batch must be a positive integer"):
            ISMCTSAgent("piquet-v0", batch=bad)


def test_ismcts__zoo_roll_outs_use_the_zoo_model_of_the_table(monkeypatch):
    """``rollout="zoo"``: the roll-outs are played by the zoo's model for the searched table's
    number of seats (two-player Esel: the ``esel-v0_2p`` model), and the search plays legally."""
    import cardenvs.zoo

    env = cardenvs.make("esel-v0", num_players=2, illegal_action="raise", episode="deal")
    env.reset(seed=7)
    agent = ISMCTSAgent("esel-v0", iterations=8, batch=4, rollout="zoo", seed=2)
    assert "zoo roll-outs" in repr(agent)
    calls = []
    model = cardenvs.zoo.load("esel-v0", num_players=2)
    real = model.act_batch

    def counted(obs, masks):
        calls.append(len(obs))
        return real(obs, masks)

    model.act_batch = counted
    agent._zoo[2] = model  # the model the agent would load, wrapped to count its calls
    play_out_with(agent, env)
    assert calls
    env.reset(seed=8)
    while len(env.unwrapped.legal_actions()) < 2:
        env.step(env.unwrapped.legal_actions()[0])
    fresh = ISMCTSAgent("esel-v0", iterations=2, rollout="zoo")  # loads the model itself
    assert fresh.act_env(env) in env.unwrapped.legal_actions()
    assert list(fresh._zoo) == [2] and fresh._zoo[2].model.name == "esel-v0_2p"
    monkeypatch.setattr(cardenvs.zoo, "MODELS", Path("/nonexistent-zoo"))
    empty = ISMCTSAgent("esel-v0", iterations=2, rollout="zoo")
    with pytest.raises(ValueError, match="the zoo has no esel-v0 model for 2 players"):
        empty.act_env(env)
    with pytest.raises(ValueError, match="rollout must be one of"):
        ISMCTSAgent("esel-v0", rollout="expert")


def test_ismcts__any_batched_agent_can_roll_out():
    """``rollout=<agent>``: the search calls that agent's ``act_batch`` for every roll-out step,
    even when the agent is named like a built-in roll-out."""
    from cardenvs.agents import RandomAgent

    class Counting(RandomAgent):
        name = "heuristic"  # must not be replaced by the game's heuristic
        steps = 0

        def act_batch(self, observations, masks):
            Counting.steps += len(masks)
            return super().act_batch(observations, masks)

    env = cardenvs.make("banque-v0", num_players=2, illegal_action="raise", episode="deal")
    env.reset(seed=4)
    agent = ISMCTSAgent("banque-v0", iterations=6, batch=3, rollout=Counting(seed=0), seed=1)
    play_out_with(agent, env)
    assert Counting.steps > 0 and agent.rollout == "heuristic"
    assert isinstance(agent._policy, Counting)


def test_sim__consistency_check_can_fail():
    """Negative control: a 'determinization' that swaps one of the seat's own cards with an
    opponent's changes the seat's observation, so the property above would catch it."""
    from cardenvs.games.banque import layout as R

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
