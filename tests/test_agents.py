"""Baseline agents (``agents/``) and the tournament script (``benchmarks/tournament.py``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import cardenvs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from agents import HEURISTICS, Agent, RandomAgent, heuristic_for, obs_view  # noqa: E402
from benchmarks import tournament  # noqa: E402

FAMILIES = {
    "piquet-v0": [{}, {"carte_blanche_auto": False, "episode": "deal"}],
    "esel-v0": [{}, {"num_players": 2, "trump_option": 5}, {"num_players": 3, "must_beat": True}],
    "banque-v0": [
        {},
        {"num_players": 2, "specials_out_of_turn": True},
        {"num_players": 3, "after_draw_play": "drawn_card_only", "bank_take": "all"},
        {"seven_effect": "draw_and_skip", "eight_followup": "mandatory_if_able"},
    ],
    "four_aces-v0": [{}, {"num_players": 5, "joker_target_effect": "skip"}],
}
CASES = [(g, c) for g, cs in FAMILIES.items() for c in cs]
CASE_IDS = [f"{g}-{i}" for g, cs in FAMILIES.items() for i in range(len(cs))]


def make_agents(env_id: str, seed: int):
    return [RandomAgent(seed), heuristic_for(env_id, seed)]


def test_agents__every_game_has_a_heuristic():
    assert set(HEURISTICS) == set(cardenvs.GAMES)
    for env_id in cardenvs.GAMES:
        agent = heuristic_for(env_id)
        assert isinstance(agent, Agent) and isinstance(RandomAgent(), Agent)
        assert agent.env_id == env_id and agent.name == "heuristic"
        assert "seed=0" in repr(agent)


@pytest.mark.parametrize(("env_id", "config"), CASES, ids=CASE_IDS)
def test_agents__batched_agents_choose_only_legal_actions(env_id, config):
    """Every agent plays a few hundred batch steps; ``validate=True`` rejects any illegal
    action, and the chosen actions are checked against the mask as well."""
    venv = cardenvs.make_vector(env_id, 32, seed=3, **config)
    obs, mask, info = venv.reset()
    agents = make_agents(env_id, 5)
    for step in range(300):
        actions = agents[step % 2].act_batch(obs, mask)
        assert actions.shape == (32,) and actions.dtype == np.int64
        assert mask[np.arange(32), actions].all()
        obs, mask, *_, info = venv.step(actions)


@pytest.mark.parametrize(("env_id", "config"), CASES, ids=CASE_IDS)
def test_agents__aec_agents_play_whole_games_legally(env_id, config):
    """``act`` on the AEC env's observation dict, every seat a different agent, to the end."""
    env = cardenvs.make(env_id, illegal_action="raise", **(config | {"episode": "deal"}))
    env.reset(seed=1)
    seats = {a: make_agents(env_id, i)[i % 2] for i, a in enumerate(env.possible_agents)}
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        a = seats[agent].act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][a] == 1
        env.step(a)
        steps += 1
    assert steps > 0 and env.unwrapped.record()["result"] is not None


@pytest.mark.parametrize("env_id", cardenvs.GAMES)
def test_agents__seeded_agents_repeat_their_choices(env_id):
    venv = cardenvs.make_vector(env_id, 16, seed=0)
    obs, mask, _ = venv.reset()
    mover = RandomAgent(1)
    while (mask.sum(axis=1) < 2).all():  # reach a position with a choice
        obs, mask, *_ = venv.step(mover.act_batch(obs, mask))
    for make in (RandomAgent, lambda seed: heuristic_for(env_id, seed)):
        a, b, c = make(7), make(7), make(8)
        x, y = a.act_batch(obs, mask), b.act_batch(obs, mask)
        assert np.array_equal(x, y)
        if make is RandomAgent:
            assert not np.array_equal(a.act_batch(obs, mask), c.act_batch(obs, mask))


def test_agents__bad_batches_raise():
    agent = heuristic_for("banque-v0")
    obs = np.zeros((2, cardenvs.game_info("banque-v0").obs_dim), np.float32)
    with pytest.raises(ValueError, match="same N"):
        agent.act_batch(obs, np.ones((3, 111), np.int8))
    mask = np.ones((2, 111), np.int8)
    mask[1] = 0
    with pytest.raises(ValueError, match="row 1 has no legal action"):
        RandomAgent().act_batch(obs, mask)
    with pytest.raises(ValueError, match="no heuristic agent for 'chess'"):
        heuristic_for("chess")


def test_agents__obs_view_covers_the_observation():
    for env_id in cardenvs.GAMES:
        view = obs_view(env_id)
        assert max(s.stop for s in view.values()) == cardenvs.game_info(env_id).obs_dim


def test_agents__heuristic_follows_its_documented_rules_in_banque():
    """A known position: the heuristic sheds the highest-point beat, keeps the six and the
    eight, and prefers a four of a kind to everything."""
    from cardenvs.games.banque import Table
    from cardenvs.games.banque import constants as K
    from cardenvs.games.banque import kernels as KN
    from cardenvs.games.banque import layout as L

    agent = heuristic_for("banque-v0")

    def choose(t):
        obs = np.zeros((1, L.OBS_DIM), np.float32)
        KN.observe_rows(t.state, t.cfg, np.array([t.current]), obs)
        mask = np.zeros((1, K.NUM_ACTIONS), np.int8)
        KN.legal_row(t.state, 0, t.cfg, mask[0])
        return K.ACTION_NAMES[int(agent.act_batch(obs, mask)[0])]

    top = dict(bank="AH", owners=[1], stock="7D", current=0, num_players=2)
    assert choose(Table(hands=["6H 10H QH 8C", "9S"], **top)) == "play 10H"
    assert choose(Table(hands=["6H 8C", "9S"], **top)) == "play 6H"
    assert choose(Table(hands=["8C 9S", "7S"], **top)) == "eight 8C"
    quad = ["9S 9H 9D 9C 10H", "7S"]
    assert choose(Table(hands=quad, **top)).startswith("quad 9 top")


def test_agents__heuristic_follows_its_documented_rules_in_esel():
    """Two players, a fixed first deal: the heuristic (seat 1) takes the trump choice and the
    declaration it documents, then takes the led card with the taker worth the most (its own
    trump ace over a same-value ten; an eight over a six), never with a card that cannot take."""
    from cardenvs.games.esel import constants as K

    cards = [n.split()[1] for n in K.ACTION_NAMES[:36]]

    def first_follow(hand0, hand1, lead):
        rest = [c for c in cards if c not in hand0.split() + hand1.split()]
        env = cardenvs.make("esel-v0", num_players=2)
        env.reset(seed=0, options={"deck": hand0.split() + hand1.split() + rest, "dealer": 1})
        agent = heuristic_for("esel-v0")
        names = K.ACTION_NAMES
        seen = []
        for step in ("trump S", None, "no", None, f"play {lead}", None):
            if step is None:  # the heuristic's seat
                obs = env.observe("player_1")
                step = names[agent.act(obs["observation"], obs["action_mask"])]
                seen.append(step)
            env.step(names.index(step))
        return seen

    # seat 0 holds the lowest diamond and leads the 10♠; seat 1's own trump is hearts
    assert first_follow("6D 10S 7C 9C", "7S 9S 10D AH", "10S") == ["trump H", "go", "play AH"]
    # 6♠ and 8♠ both take the A♠ (Q♠ does not): the eight, worth 16, banks the most
    assert first_follow("6D AS 7C 9C", "6S 8S QS JH", "AS")[-1] == "play 8S"


def test_tournament__wilson_and_bradley_terry():
    lo, hi = tournament.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert tournament.wilson(0, 10)[0] == 0.0 and tournament.wilson(10, 10)[1] == 1.0
    # 3 to 1 against agent 0: strength ratio 3, i.e. 400 log10(3) = 190.8 Elo
    r = tournament.bradley_terry(np.array([[0.0, 1.0], [3.0, 0.0]]))
    assert r[0] == 0.0 and r[1] == pytest.approx(190.85, abs=0.5)
    assert tournament.arrangements(2) == [(0, 1), (1, 0)]
    assert len(tournament.arrangements(4)) == 14


def test_tournament__runs_end_to_end_on_a_tiny_budget(tmp_path, capsys):
    out = tmp_path / "t"
    report = tournament.main(
        ["--n", "3", "--config", json.dumps({"episode": "deal"}), "--out", str(out), "--quiet"]
    )
    assert set(report["games"]) == set(cardenvs.GAMES)
    for g in report["games"].values():
        rates = [row["win_rate"] for row in g["agents"].values()]
        # every seat's share of the wins adds up: one unit per game, spread over the seats
        assert all(0.0 <= x <= 1.0 for x in rates)
        assert all(row["decisions_per_s"] > 0 for row in g["agents"].values())
    data = json.loads((out / "tournament.json").read_text())
    assert data["agents"] == ["random", "heuristic"]
    table = (out / "tournament.md").read_text()
    assert "| banque-v0 | heuristic |" in table and "95% CI" in capsys.readouterr().out


def test_tournament__bad_arguments_exit():
    with pytest.raises(SystemExit):
        tournament.main(["--agents", "random"])
    with pytest.raises(SystemExit):
        tournament.main(["--agents", "random", "genius"])


def test_head_to_head__solo_seats_the_agent_alone_in_each_seat():
    from benchmarks.tournament import head_to_head

    config = {"num_players": 4, "episode": "deal"}
    solo = head_to_head(
        "banque-v0", heuristic_for("banque-v0", 1), RandomAgent(2), 3, 0, config, True
    )
    assert solo["games"] == 3 * 4 and solo["baseline"] == 0.25
    assert solo["ci_low"] <= solo["win_rate"] <= solo["ci_high"]
    every = head_to_head("banque-v0", heuristic_for("banque-v0", 1), RandomAgent(2), 3, 0, config)
    # 14 arrangements of two agents over four seats, the agent in 1, 2 or 3 of them: 28 seats
    assert every["games"] == 3 * 28


def test_head_to_head__side_seats_the_agent_in_every_seat_of_one_side():
    from benchmarks.tournament import head_to_head, play_games

    game, config, n = "partnership_piquet-v0", {"episode": "deal"}, 6
    side = head_to_head(game, heuristic_for(game, 1), RandomAgent(2), n, 0, config, side=True)
    assert side["games"] == 2 * n and side["baseline"] == 0.5
    # the same games played directly: the heuristic holds seats 1 and 3, then 0 and 2
    seats = np.repeat([[0, 1, 0, 1], [1, 0, 1, 0]], n, axis=0)
    r, *_ = play_games(game, seats, [RandomAgent(2), heuristic_for(game, 1)], 2 * n, 0, config)
    mine = r[np.arange(2 * n), seats.argmax(axis=1)]
    theirs = r[np.arange(2 * n), seats.argmin(axis=1)]
    expected = ((mine > theirs) + 0.5 * (mine == theirs)).mean()
    assert side["win_rate"] == pytest.approx(expected)
    # without partners a side is a seat: the same games as ``solo``
    solo = head_to_head("piquet-v0", RandomAgent(1), RandomAgent(2), 4, 0, config, solo=True)
    alone = head_to_head("piquet-v0", RandomAgent(1), RandomAgent(2), 4, 0, config, side=True)
    del alone["decisions_per_s"], solo["decisions_per_s"]  # timings
    assert alone == solo
