"""Baseline agents (``agents/``) and the tournament script (``benchmarks/tournament.py``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import cardenvs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks import tournament  # noqa: E402
from cardenvs.agents import HEURISTICS, Agent, RandomAgent, heuristic_for, obs_view  # noqa: E402

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
    # beside the win rate: every seat won, drew or lost, and the mean reward with its interval
    assert "| W / D / L (seats) | mean reward (95% CI) |" in table
    for g in report["games"].values():
        for row in g["agents"].values():
            assert row["wins"] + row["draws"] + row["losses"] == row["seats_played"]
            lo, hi = row["return_ci95"]
            assert lo <= row["mean_return"] <= hi
            line = f"| {row['wins']} / {row['draws']} / {row['losses']} | {row['mean_return']:+.3f}"
            assert line in table


def test_tournament__a_report_without_draws_shows_n_a():
    """A report written before wins, draws and losses were counted still renders."""
    row = {"win_rate": 0.5, "ci95": [0.4, 0.6], "mean_score": None, "rating": 0.0}
    old = {
        "games": {
            "esel-v0": {"baseline": 0.5, "agents": {"random": row | {"decisions_per_s": None}}}
        }
    }
    assert "| esel-v0 | random | 0.500 | 0.400–0.600 | n/a | n/a | 0.50 |" in tournament.markdown(
        old
    )


def test_outcomes__draws_wins_shared_wins_and_losses_match_the_win_shares():
    r = np.array(
        [
            [0.0, 0.0, 0.0],  # drawn
            [1.0, -0.5, -0.5],  # seat 0 won alone
            [0.5, 0.5, -1.0],  # seats 0 and 1 share the win
            [-1.0, 2.0, -1.0],  # seat 1 won; seats 0 and 2 tie below it: both lost
        ]
    )
    W, D, L = tournament.WON, tournament.DRAWN, tournament.LOST
    expected = [[D, D, D], [W, L, L], [W, W, L], [L, W, L]]
    assert tournament.outcomes(r).tolist() == expected
    assert tournament.count_outcomes(tournament.outcomes(r)[:, 0]) == {
        "wins": 2,
        "draws": 1,
        "losses": 1,
    }
    # the win rate is the won seats' shares plus 1/P for each draw
    share = tournament.win_shares(r)
    res = tournament.outcomes(r)
    assert share.sum() == pytest.approx(share[res == W].sum() + (res == D).sum() / 3)
    assert (share[res == L] == 0).all() and (share[res == W] > 0).all()
    with pytest.raises(ValueError, match=r"rewards must be \(games, seats\)"):
        tournament.outcomes(np.zeros(3))


def test_mean_interval__normal_approximation_and_degenerate_samples():
    mean, lo, hi = tournament.mean_interval([1.0, -1.0, 1.0, -1.0])
    half = 1.96 * np.std([1.0, -1.0, 1.0, -1.0], ddof=1) / 2
    assert mean == 0.0 and lo == pytest.approx(-half) and hi == pytest.approx(half)
    assert tournament.mean_interval(np.zeros(50)) == (0.0, 0.0, 0.0)  # all drawn: contains 0
    assert tournament.mean_interval([0.25]) == (0.25, None, None)
    with pytest.raises(ValueError, match="at least one sample"):
        tournament.mean_interval([])
    assert tournament.reward_text(0.1, 0.05, 0.15) == "+0.100 ± 0.050"
    assert tournament.reward_text(None, None, None) == "n/a"
    assert tournament.wdl_text({"wins": 1, "draws": 2, "losses": 3}) == "1 / 2 / 3"
    assert tournament.wdl_text({"win_rate": 0.5}) == "n/a"


def test_head_to_head__two_heuristics_in_two_player_esel_draw_and_say_so():
    """Two-player Esel between heuristics is nearly all draws: the win rate near 1/2 comes with
    the draws counted and a mean reward whose interval holds 0."""
    from benchmarks.tournament import head_to_head

    config = {"num_players": 2, "max_hands": 5}
    row = head_to_head(
        "esel-v0", heuristic_for("esel-v0", 1), heuristic_for("esel-v0", 2), 20, 0, config
    )
    assert row["games"] == 40
    assert row["wins"] + row["draws"] + row["losses"] == row["games"]
    assert row["draws"] > row["games"] // 2
    # two players: a win is worth 1, a draw 1/2
    assert row["win_rate"] == pytest.approx((row["wins"] + row["draws"] / 2) / row["games"])
    assert row["return_ci_low"] <= 0.0 <= row["return_ci_high"]
    assert row["return_ci_low"] <= row["mean_return"] <= row["return_ci_high"]


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
    side = head_to_head(
        game, heuristic_for(game, 1), RandomAgent(2), n, 0, config, side=True, deals="independent"
    )
    assert side["games"] == 2 * n and side["baseline"] == 0.5
    # the same games played directly: the heuristic holds seats 1 and 3, then 0 and 2
    seats = np.repeat([[0, 1, 0, 1], [1, 0, 1, 0]], n, axis=0)
    r, *_ = play_games(game, seats, [RandomAgent(2), heuristic_for(game, 1)], 2 * n, 0, config)
    mine = r[np.arange(2 * n), seats.argmax(axis=1)]
    theirs = r[np.arange(2 * n), seats.argmin(axis=1)]
    expected = ((mine > theirs) + 0.5 * (mine == theirs)).mean()
    assert side["win_rate"] == pytest.approx(expected)
    # a side's game is won, drawn or lost once; its reward is the partners' (equal) reward
    assert side["wins"] == (mine > theirs).sum() and side["draws"] == (mine == theirs).sum()
    assert side["wins"] + side["draws"] + side["losses"] == side["games"]
    assert side["mean_return"] == pytest.approx(mine.mean())
    # without partners a side is a seat: the same games as ``solo``
    solo = head_to_head("piquet-v0", RandomAgent(1), RandomAgent(2), 4, 0, config, solo=True)
    alone = head_to_head("piquet-v0", RandomAgent(1), RandomAgent(2), 4, 0, config, side=True)
    del alone["decisions_per_s"], solo["decisions_per_s"]  # timings
    assert alone == solo


# --- saved models are hostile input (issue 48, item 2) -------------------------------------------
class _Boom:
    """Unpickling it creates the directory ``marker``: proof that a pickle ran."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        import os

        return (os.mkdir, (self.marker,))


def _evil_sb3_zip(path: Path, marker: Path) -> Path:
    """An SB3-style ``.zip`` whose ``data`` entry holds a cloudpickled object (as SB3 stores a
    policy's spaces): ``MaskablePPO.load`` unpickles it, creating ``marker``."""
    import base64
    import pickle
    import zipfile

    blob = base64.b64encode(pickle.dumps(_Boom(marker))).decode()
    data = {
        "observation_space": {":type:": "<class 'gymnasium.spaces.box.Box'>", ":serialized:": blob}
    }
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps(data))
        z.writestr("_stable_baselines3_version", "2.0.0")
    return path


def test_policy_agent__an_sb3_zip_is_refused_unless_trusted_and_never_unpickled(tmp_path):
    """A ``.zip`` (SB3's format holds pickles: loading one runs code) is refused with a
    ``ValueError`` that says why and names ``trusted=True``; by ``train.evaluate``'s path, a bare
    name that resolves to it, and another suffix are refused too. No pickle ever runs."""
    from cardenvs.agents.policy import PolicyAgent

    marker = tmp_path / "pwned"
    evil = _evil_sb3_zip(tmp_path / "model.zip", marker)
    for model in (evil, str(evil), tmp_path / "model"):
        with pytest.raises(ValueError, match=r"model\.zip.*pickle.*trusted=True"):
            PolicyAgent(model, "piquet-v0")
        assert not marker.exists(), "loading the zip ran its pickle"
    other = tmp_path / "model.pkl"
    other.write_bytes(evil.read_bytes())
    with pytest.raises(ValueError, match=r"model\.pkl.*\.npz"):
        PolicyAgent(other, "piquet-v0")
    with pytest.raises(ValueError, match=r"model\.pkl.*\.npz"):
        PolicyAgent(other, "piquet-v0", trusted=True)
    assert not marker.exists()


def test_policy_agent__a_pickle_inside_an_npz_never_runs(tmp_path):
    """The ``.npz`` path reads with ``allow_pickle=False``: an object array (a pickle) as the
    header or as a weight, or a bare pickle named ``.npz``, is a ``ValueError`` naming the file,
    and the pickle never runs, trusted or not."""
    import pickle

    from harness import random_model

    from cardenvs.agents.policy import PolicyAgent

    marker = tmp_path / "pwned"
    boom = np.empty((), dtype=object)
    boom[()] = _Boom(marker)
    good = random_model(tmp_path / "good.npz", "piquet-v0")
    with np.load(good) as z:
        arrays = {k: z[k] for k in z.files}
    cases = {
        "header.npz": arrays | {"header": boom},
        "weight.npz": arrays | {"pi.0.bias": boom},
    }
    for name, content in cases.items():
        with open(tmp_path / name, "wb") as f:
            np.savez(f, **content)
    (tmp_path / "raw.npz").write_bytes(pickle.dumps(_Boom(marker)))
    for name in (*cases, "raw.npz"):
        for trusted in (False, True):
            with pytest.raises(ValueError, match=name.replace(".", r"\.")):
                PolicyAgent(tmp_path / name, "piquet-v0", trusted=trusted)
            assert not marker.exists(), name
