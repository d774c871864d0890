"""Piquet au cent (``piquet_au_cent-v0``, spec 3.1): scenarios per rule clause, a full deal from a
fixed deck with hand-checked scores, and the environment checks beyond the contract suite
(``test_contract_aec.py``, ``test_contract_vector.py``: api/seed tests, registry, vector == AEC,
autoreset, bad actions, reset options, records and replays, on this id's configs).

The rules kernels are piquet-v0's (``cardenvs.games.piquet.rules``); what differs is checked
here: the game to the target in reckoning order (or at the end of the deal), the au cent result,
younger's optional exchange, elder's calls in full, and the config surface.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from harness import (
    act,
    legal_names,
)
from test_piquet_properties import check_cards, check_information_sets, check_no_leak

import cardenvs
from cardenvs.core.game import layout_offsets, layout_table
from cardenvs.games import piquet_au_cent
from cardenvs.games.piquet import config as C
from cardenvs.games.piquet import constants as K
from cardenvs.games.piquet import layout as L
from cardenvs.games.piquet import rules as R
from cardenvs.games.piquet import score as SC

ENV_ID = "piquet_au_cent-v0"
GOLDEN = Path(__file__).parent / "golden" / "piquet"
CAVENDISH = json.loads((GOLDEN / "worked_examples.jsonl").read_text().splitlines()[0])
# piquet-v0's test deck (test_piquet_rules): with these hands, the side holding PIQUE_E wins
# the point (5 spades), the quint AS-10S (15) and the sets (trio of aces, 3): 23 in hand
PIQUE_E = "AS KS QS JS 10S AH 9H 7H AD 9D 7D 7C"
PIQUE_Y = "9S 8S 7S KH QH JH 10H KD QD 10D KC QC"
PIQUE_T = "8C 8D 8H AC JC 10C 9C JD"
CONFIGS = [
    {},
    {"au_cent_end": "end_of_deal", "reward": "score"},
    {"episode": "deal", "younger_min_exchange": 1},
    {"carte_blanche_auto": False, "target": 60, "double_below": 0, "elder_calls_in_full": False},
    {"low_cards_score_in_play": False, "point_ending_in_4_minus_one": True, "max_deals": 3},
]
CONFIG_IDS = ["default"] + ["-".join(f"{k}={v}" for k, v in c.items()) for c in CONFIGS[1:]]


def new_env(**config):
    env = cardenvs.make(ENV_ID, illegal_action="raise", **config)
    return env, env.unwrapped


def field(core, name):
    return L.field(core._engine.state, name)[0]


def obs_block(obs, name):
    off = layout_offsets(L.OBS_LAYOUT)[name]
    size = {f.name: f.size for f in L.OBS_LAYOUT}[name]
    return obs[off : off + size]


def deal(env, elder, younger, talon, totals=None):
    """Reset with a fixed deck (dealer seat 1, so elder is seat 0) and optional game totals."""
    env.reset(seed=0, options={"deck": (elder + " " + younger + " " + talon).split(), "dealer": 1})
    if totals is not None:
        L.field(env.unwrapped._engine.state, "total")[0] = totals


def play_random(env, seed, final=None):
    """Random legal play to the end; ``final`` collects each agent's reward at its end."""
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            if final is not None:
                final[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        assert steps < 20 * 60, "episode did not end"
    return env.unwrapped.record()


# --- 3.1: the game to the target, checked in reckoning order -------------------------------------
def test_target__reached_in_hand_ends_the_game_at_once_in_reckoning_order():
    """Elder (seat 0) needs 1 point, younger 20: younger's point (5) and quint (15) reckon
    before elder's first lead, so younger wins before the lead is made (2.6 order, A13)."""
    env, core = new_env()
    deal(env, PIQUE_Y, PIQUE_E, PIQUE_T, totals=[99, 80])
    act(env, core, "discard 7S", "stop", "stop", "dont_look")  # younger need not discard
    assert core._over()
    rec = core.record()
    assert rec["deals"][0]["points"] == [0, 20]  # the trio of aces (3) is never reckoned
    # the winner scores the difference; the loser has 99, so it is not doubled
    assert rec["result"] == {"winner": 1, "points": 1, "totals": [99, 100], "deals": 1}
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}


def test_target__play_continues_until_the_end_of_the_deal_when_configured():
    env, core = new_env(au_cent_end="end_of_deal")
    deal(env, PIQUE_Y, PIQUE_E, PIQUE_T, totals=[99, 80])
    act(env, core, "discard 7S", "stop", "stop", "dont_look")
    assert not core._over() and field(core, "phase") == K.PHASE_PLAY
    assert field(core, "deal_score").tolist() == [0, 23]


def test_target__carte_blanche_reckons_before_the_point():
    """Younger's carte blanche (10, reckoned first) takes him from 91 to 101 before elder, at
    99, can score his point."""
    younger = "AS 10S 9S 8S 7S AH 10H 9H 8H AD 10D 9D"  # no K, Q, J
    elder = "KS QS JS 7H KH QH JH 7D KD QD JD 8D"
    env, core = new_env()
    deal(env, elder, younger, "AC KC QC JC 10C 9C 8C 7C", totals=[99, 91])
    act(env, core, "discard 7H", "stop", "stop", "dont_look")
    assert core.record()["result"] == {"winner": 1, "points": 2, "totals": [99, 101], "deals": 1}


def test_result__doubled_when_the_loser_has_under_fifty():
    env, core = new_env()
    deal(env, PIQUE_E, PIQUE_Y, PIQUE_T, totals=[80, 49])
    act(env, core, "discard 7C", "stop", "stop", "dont_look")
    # elder: point 5 (85), quint 15 (100): game, the trio of aces not reckoned
    assert core.record()["result"] == {
        "winner": 0,
        "points": 2 * 51,
        "totals": [100, 49],
        "deals": 1,
    }


@pytest.mark.parametrize(
    "a, b, below, expected",
    [
        (100, 49, 50, (0, 102)),  # loser under 50: doubled
        (100, 50, 50, (0, 50)),  # exactly 50: not doubled
        (30, 104, 50, (1, 148)),
        (100, 99, 50, (0, 1)),
        (100, 100, 50, (-1, 0)),
        (100, 10, 0, (0, 90)),  # double_below 0: never doubled
    ],
)
def test_result__au_cent_points(a, b, below, expected):
    assert SC.au_cent_points(a, b, below) == expected


# --- a full deal from a fixed deck, hand-checked -------------------------------------------------
def test_full_deal__cavendish_deal_stops_when_a_score_reaches_the_target():
    """The Cavendish deal (elder A 28, younger B 23 over the whole deal) played to 20.

    Hand: A point 5 and quart 4 (9), B quatorze + trio 17. Play: A leads AH, KH, QH, JH, 8H
    (+1 each: 14), wins the 10H, 7D, 10D, JD, QD tricks he led (no capture point); A leads KD
    (15), B's AD captures it (18); B leads AC (19), A follows 9C; B leads KC: 20, the target.
    The loser has 15, at least ``double_below`` 10: B wins 20 − 15 = 5.
    """
    env, core = new_env(target=20, double_below=10)
    env.reset(seed=0, options={"deck": CAVENDISH["deck"], "dealer": 1})
    actions = CAVENDISH["actions"]
    end = actions.index("play KC") + 1
    act(env, core, *actions[: end - 1])
    assert not core._over() and field(core, "deal_score").tolist() == [15, 19]
    act(env, core, actions[end - 1])
    assert core._over() and not core.legal_actions()
    rec = core.record()
    assert rec["deals"][0]["points"] == [15, 20]
    assert rec["result"] == {"winner": 1, "points": 5, "totals": [15, 20], "deals": 1}
    assert field(core, "decl_pts").reshape(2, 3).tolist() == [[5, 4, 0], [0, 0, 17]]


def test_full_deal__cavendish_deal_to_the_end_and_the_next_deal():
    """The whole deal scores 28/23 as in Cavendish; nobody reaches 100, so a second deal
    follows with the other dealer; with the target at 20 and ``end_of_deal``, A wins 5."""
    env, core = new_env()
    env.reset(seed=0, options={"deck": CAVENDISH["deck"], "dealer": 1})
    act(env, core, *CAVENDISH["actions"])
    assert not core._over()
    rec = core.record()
    assert rec["deals"][0]["points"] == [28, 23] and len(rec["deals"]) == 2
    assert rec["deals"][1]["dealer"] == 0 and field(core, "total").tolist() == [28, 23]
    env, core = new_env(target=20, double_below=10, au_cent_end="end_of_deal")
    env.reset(seed=0, options={"deck": CAVENDISH["deck"], "dealer": 1})
    act(env, core, *CAVENDISH["actions"])
    assert core.record()["result"] == {"winner": 0, "points": 5, "totals": [28, 23], "deals": 1}


# --- end of deal, ties, the bound ----------------------------------------------------------------
def _state(config, deal_no, totals, deal_score, tricks=(6, 6)):
    cfg = config.to_array()
    s = L.new_state(1)
    L.field(s, "deal_no")[0] = deal_no
    L.field(s, "dealer")[0] = 0
    L.field(s, "total")[0] = totals
    L.field(s, "deal_score")[0] = deal_score
    L.field(s, "tricks")[0] = tricks
    L.field(s, "key")[0] = np.uint64(7)
    return s, cfg


@pytest.mark.parametrize(
    "config, deal_no, totals, deal_score, over, winner, points",
    [
        ({"au_cent_end": "end_of_deal"}, 2, [90, 95], [20, 9], True, 0, 6),  # 110 - 104
        ({"au_cent_end": "end_of_deal"}, 2, [90, 95], [10, 5], False, None, None),  # a tie
        ({"au_cent_end": "end_of_deal"}, 2, [40, 30], [5, 5], False, None, None),
        ({"max_deals": 3}, 2, [40, 30], [5, 5], True, 0, 20),  # the bound: 45 - 35, doubled
        ({"max_deals": 3}, 2, [40, 30], [0, 10], True, -1, 0),  # the bound, tied: drawn
    ],
)
def test_end_of_deal__higher_total_wins_ties_play_on_and_deals_are_bounded(
    config, deal_no, totals, deal_score, over, winner, points
):
    s, cfg = _state(C.AuCentConfig(**config), deal_no, totals, deal_score)
    R._end_deal(s, 0, cfg)
    assert (L.field(s, "phase")[0] == K.PHASE_OVER) == over
    if over:
        assert L.field(s, "winner")[0] == winner
        assert L.field(s, "result_points")[0] == points
    else:
        assert L.field(s, "deal_no")[0] == deal_no + 1
        assert L.field(s, "dealer")[0] == 1  # the deal alternates


def test_end_of_deal__cards_bonus_is_a_scoring_event_for_the_target():
    """Immediate end: the 10 for the cards (the last event of a deal) can reach the target."""
    s, cfg = _state(C.AuCentConfig(), 3, [85, 20], [8, 0], tricks=(7, 5))
    R._end_deal(s, 0, cfg)
    assert L.field(s, "phase")[0] == K.PHASE_OVER and L.field(s, "winner")[0] == 0
    assert L.field(s, "total")[0].tolist() == [103, 20]
    assert L.field(s, "result_points")[0] == 2 * 83


# --- CAV au cent: younger need not discard; elder calls in full ----------------------------------
def test_exchange__younger_may_decline_by_default():
    env, core = new_env()
    deal(env, PIQUE_E, PIQUE_Y, PIQUE_T)
    assert "stop" not in legal_names(core)  # elder must still take at least one
    act(env, core, "discard 7C", "stop")
    assert "stop" in legal_names(core)
    act(env, core, "stop")
    assert field(core, "xcount").tolist() == [1, 0]
    env, core = new_env(younger_min_exchange=1)
    deal(env, PIQUE_E, PIQUE_Y, PIQUE_T)
    act(env, core, "discard 7C", "stop")
    assert "stop" not in legal_names(core)


def test_exchange__younger_may_decline_when_he_exchanges_first():
    # first_exchanger="dealer": younger (the dealer, seat 1) exchanges first; his minimum is
    # still younger_min_exchange, elder's (second) still one
    env, core = new_env(first_exchanger="dealer")
    deal(env, PIQUE_E, PIQUE_Y, PIQUE_T)
    assert field(core, "current") == 1 and "stop" in legal_names(core)
    act(env, core, "stop")
    assert field(core, "current") == 0 and "stop" not in legal_names(core)
    act(env, core, "discard 7C")
    assert "stop" in legal_names(core)
    env, core = new_env(first_exchanger="dealer", younger_min_exchange=1)
    deal(env, PIQUE_E, PIQUE_Y, PIQUE_T)
    assert field(core, "current") == 1 and "stop" not in legal_names(core)


@pytest.mark.parametrize("full", [True, False])
def test_calls__elder_calls_his_point_value_and_sequence_top_in_full(full):
    env, core = new_env(elder_calls_in_full=full)
    deal(env, PIQUE_E, PIQUE_Y, PIQUE_T)
    act(env, core, "discard 7C", "stop", "stop", "dont_look")
    calls = field(core, "calls").tolist()
    # elder: 5 spades worth 51, quint to the ace (top = rank index 7), trio of aces;
    # younger's 4 hearts and quart do not tie, so piquet-v0 leaves value and top unsaid
    assert calls == ([5, 51, 5, 8, 3, 8] if full else [5, 0, 5, 0, 3, 8])
    obs = core.observe("player_1")["observation"]
    assert obs_block(obs, "elder_calls")[1] == pytest.approx(51 / 100 if full else 0.0)


# --- config surface ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "config, words",
    [
        ({"target": 0}, ["target", "0", "1..1000"]),
        ({"target": -5}, ["target", "-5"]),
        ({"target": 120, "double_below": 150}, ["double_below", "150", "0..target (120)"]),
        ({"au_cent_end": "never"}, ["au_cent_end", "never", "immediate"]),
        ({"max_deals": 0}, ["max_deals", "1..100"]),
        ({"rubicon": 100}, ["rubicon", "known options"]),  # not an au cent option
        ({"partie": "four_deals"}, ["partie", "known options"]),
        ({"game": "partie"}, ["game", "known options"]),
    ],
)
def test_config__bad_values_are_named(config, words):
    with pytest.raises(ValueError) as e:
        cardenvs.make(ENV_ID, **config)
    for w in words:
        assert w in str(e.value), str(e.value)


def test_config__piquet_v0_does_not_take_au_cent_switches():
    for bad in ({"target": 100}, {"au_cent_end": "immediate"}, {"game": "au_cent"}):
        with pytest.raises(ValueError, match="unknown config option"):
            cardenvs.make("piquet-v0", **bad)


def test_config__kernel_layout_is_shared():
    au, pq = C.AuCentConfig().to_array(), C.Config().to_array()
    assert au.shape == pq.shape
    assert au[C.C_GAME] == C.GAME_AU_CENT and pq[C.C_GAME] == C.GAME_PARTIE
    assert au[C.C_YOUNGER_MIN_EXCHANGE] == 0 and pq[C.C_YOUNGER_MIN_EXCHANGE] == 1
    assert C.AuCentConfig.index("target") == C.Config.index("target") == C.C_TARGET


def test_docstring__tables_are_generated():
    doc = piquet_au_cent.__doc__
    assert layout_table(L.OBS_LAYOUT) in doc and K.ACTION_TABLE in doc
    for name in (f.name for f in dataclasses.fields(C.AuCentConfig)):
        assert f"`{name}`" in doc


# --- environment checks beyond the contract -----------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_record__totals_are_the_sum_of_the_deals(config):
    """Beyond the contract's record checks (``test_contract_aec.py``, these configs): the
    result's totals add up the deals' points."""
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=9)
    rec = play_random(env, 9)
    totals = np.sum([d["points"] for d in rec["deals"]], axis=0).tolist()
    assert totals == rec["result"]["totals"]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_random_play__games_end_with_a_target_and_zero_sum_rewards(seed):
    """Whole games: every deal but the last finishes below the target, the last reaches it (or
    the bound), the result is the au cent result, rewards are zero-sum."""
    env = cardenvs.make(ENV_ID, reward="score")
    env.reset(seed=seed)
    final = {}
    rec = play_random(env, seed, final)
    res = rec["result"]
    totals = np.cumsum([d["points"] for d in rec["deals"]], axis=0)
    assert (totals[:-1].max(axis=1) < 100).all() and len(rec["deals"]) <= 20
    if len(rec["deals"]) < 20:
        assert max(res["totals"]) >= 100
    w, pts = SC.au_cent_points(*res["totals"], 50)
    assert (res["winner"] if res["winner"] is not None else -1) == w and res["points"] == pts
    assert len(final) == 2 and sum(final.values()) == 0
    if w >= 0:
        assert final[f"player_{w}"] == pts


@pytest.mark.parametrize("seed", [3, 4])
def test_random_play__cards_information_and_no_leak(seed):
    """Batched random play: cards conserved, information sets as the spec says, masks non-empty
    while live, observations inside the space, and relabelling what a seat cannot see leaves its
    observation unchanged (with the positive control), over a few deals."""
    venv = cardenvs.make_vector(ENV_ID, 8, seed=seed, autoreset=False, validate=False)
    cfg = venv.config.to_array()
    rng = np.random.default_rng(seed)
    _, mask, _ = venv.reset()
    space = venv.single_observation_space
    tested: Counter = Counter()
    for t in range(160):
        check_cards(venv.state, f"step {t}: ")
        check_information_sets(venv.state, venv.config, f"step {t}: ")
        live = L.field(venv.state, "phase") != K.PHASE_OVER
        assert (mask.sum(axis=1) > 0).tolist() == live.tolist()
        for seat in range(2):
            view = venv.observe(seat)
            assert all(space.contains(v) for v in view)
            check_no_leak(venv, cfg, seat, rng, tested)
        if not live.any():
            break
        legal = mask.astype(bool)
        actions = np.where(legal, rng.random(legal.shape), -1).argmax(axis=1)
        _, mask, *_ = venv.step(actions)
    assert tested[K.PHASE_PLAY] > 0 and tested[K.PHASE_EXCHANGE] > 0


# --- CAV's partie (3.1 b): ``au_cent_partie`` ----------------------------------------------------
def standing(core, seat):
    """The partie standing in ``seat``'s observation: games won by own / opponent, / 3."""
    return (obs_block(core.observe(f"player_{seat}")["observation"], "contract_by") * 3).tolist()


@pytest.mark.parametrize("loser, won", [(49, 2), (50, 1)], ids=["double", "single"])
def test_partie__a_double_game_counts_two_then_the_next_game_starts_at_zero(loser, won):
    """Elder reaches 100 in hand (point 5, quint 15 from 80): with the loser under 50 the game
    is a double, worth two game-wins; the partie goes on with a new game at 0 - 0, the deal
    alternating."""
    env, core = new_env(au_cent_partie=True)
    deal(env, PIQUE_E, PIQUE_Y, PIQUE_T, totals=[80, loser])
    assert standing(core, 0) == [0, 0]
    act(env, core, "discard 7C", "stop", "stop", "dont_look")
    assert not core._over() and env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert field(core, "games_won").tolist() == [won, 0] and field(core, "games") == 1
    assert field(core, "total").tolist() == [0, 0]
    assert field(core, "deal_no") == 1 and field(core, "game_start") == 1
    assert field(core, "phase") == K.PHASE_EXCHANGE and field(core, "winner") == -1
    rec = core.record()
    assert rec["deals"][0]["points"] == [20, 0] and len(rec["deals"]) == 2
    assert rec["deals"][1]["dealer"] == 0  # the deal alternates into the next game
    assert standing(core, 0) == [won, 0] and standing(core, 1) == [0, won]
    obs = core.observe("player_1")["observation"]
    assert obs_block(obs, "deal_no")[0] == 1  # the new game's first deal
    assert obs_block(obs, "is_elder")[0] == 1  # player_0 dealt, so player_1 is elder
    env, core = new_env()  # without the option the game is the episode
    deal(env, PIQUE_E, PIQUE_Y, PIQUE_T, totals=[80, loser])
    act(env, core, "discard 7C", "stop", "stop", "dont_look")
    assert core._over() and standing(core, 0) == [0, 0]


@pytest.mark.parametrize(
    "before, elder, younger, totals, after, winner, margin",
    [
        ([2, 1], PIQUE_E, PIQUE_Y, [80, 60], [3, 1], 0, 2),  # a single game makes three
        ([1, 2], PIQUE_E, PIQUE_Y, [80, 49], [3, 2], 0, 1),  # a double game makes three
        ([0, 2], PIQUE_Y, PIQUE_E, [99, 80], [0, 3], 1, 3),  # younger wins it, in hand
    ],
    ids=["single", "double", "younger"],
)
@pytest.mark.parametrize("reward", ["win", "score"])
def test_partie__ends_at_three_games_won(
    before, elder, younger, totals, after, winner, margin, reward
):
    env, core = new_env(au_cent_partie=True, reward=reward)
    deal(env, elder, younger, PIQUE_T, totals=totals)
    L.field(core._engine.state, "games_won")[0] = before
    L.field(core._engine.state, "games")[0] = sum(before)
    discard = "discard 7C" if elder == PIQUE_E else "discard 7S"
    act(env, core, discard, "stop", "stop", "dont_look")
    assert core._over() and not core.legal_actions()
    res = core.record()["result"]
    assert res["winner"] == winner and res["points"] == margin
    assert res["games_won"] == after and res["games"] == sum(before) + 1
    assert max(res["totals"]) == 100  # the last game's totals
    win = 1.0 if reward == "win" else float(margin)
    assert env.rewards == {f"player_{winner}": win, f"player_{1 - winner}": -win}
    assert standing(core, winner) == sorted(after, reverse=True)


@pytest.mark.parametrize(
    "won, games, game_winner, over, winner, points",
    [
        ([1, 1], 4, -1, True, -1, 0),  # a drawn fifth game: the partie is drawn
        ([2, 1], 4, -1, True, 0, 1),  # five games: more game-wins wins
        ([2, 1], 1, -1, False, None, None),  # a drawn game counts for nobody; play on
        ([2, 1], 2, 1, False, None, None),  # 2 - 2 after three games: play on
    ],
)
def test_partie__at_most_five_games_and_drawn_games_count_nothing(
    won, games, game_winner, over, winner, points
):
    s, cfg = _state(C.AuCentConfig(au_cent_partie=True), 9, [60, 100], [0, 0])
    L.field(s, "phase")[0] = K.PHASE_OVER
    L.field(s, "winner")[0] = game_winner
    L.field(s, "games_won")[0] = won
    L.field(s, "games")[0] = games
    R._next_game(s, 0, cfg)
    assert L.field(s, "games")[0] == games + 1
    assert (L.field(s, "phase")[0] == K.PHASE_OVER) == over
    if over:
        assert L.field(s, "winner")[0] == winner and L.field(s, "result_points")[0] == points
    else:
        assert L.field(s, "games_won")[0].tolist() == [2, 1 + (game_winner == 1)]
        assert L.field(s, "deal_no")[0] == 10 and L.field(s, "game_start")[0] == 10
        assert L.field(s, "total")[0].tolist() == [0, 0] and L.field(s, "dealer")[0] == 1


@pytest.mark.parametrize("game_start, over", [(10, True), (12, False)])
def test_partie__max_deals_bounds_each_game_not_the_partie(game_start, over):
    """Deal 13 of the partie is the game's third (the bound, 3) or its first."""
    s, cfg = _state(C.AuCentConfig(au_cent_partie=True, max_deals=3), 12, [40, 30], [5, 5])
    L.field(s, "game_start")[0] = game_start
    R._end_deal(s, 0, cfg)
    assert (L.field(s, "phase")[0] == K.PHASE_OVER) == over


def _games_from_deals(deals, target=100, double_below=50, max_deals=20, immediate=True):
    """Replay a partie's games from its deals' points (3.1, CAV): game-wins per seat, the number
    of games, the last game's totals, and whether the deals ran out exactly at the partie's end."""
    won, games, tot, n, ended_at = [0, 0], 0, [0, 0], 0, None
    last = tot
    for i, d in enumerate(deals):
        tot = [tot[0] + d["points"][0], tot[1] + d["points"][1]]
        n += 1
        reached = max(tot) >= target and (immediate or tot[0] != tot[1])
        if reached or n == max_deals:
            games += 1
            if tot[0] != tot[1]:
                w = 0 if tot[0] > tot[1] else 1
                won[w] += 2 if tot[1 - w] < double_below else 1
            last = tot
            if max(won) >= 3 or games == 5:
                ended_at = i
                break
            tot, n = [0, 0], 0
    return won, games, last, ended_at == len(deals) - 1


@pytest.mark.parametrize(
    "config",
    [{}, {"au_cent_end": "end_of_deal", "reward": "score", "max_deals": 4}],
    ids=["default", "end_of_deal-score-max_deals=4"],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_partie__random_parties_count_games_and_replay(config, seed):
    """Whole parties of random play: the games recomputed from the record's deals give the
    result's game-wins, the partie ends exactly when a player has three (or after five games),
    rewards are the result, zero-sum; the record replays."""
    env = cardenvs.make(ENV_ID, au_cent_partie=True, **config)
    env.reset(seed=seed)
    final = {}
    rec = play_random(env, seed, final)
    assert rec["config"]["au_cent_partie"] is True
    assert cardenvs.replay(json.loads(json.dumps(rec))) == rec
    res = rec["result"]
    won, games, last, exact = _games_from_deals(
        rec["deals"],
        max_deals=config.get("max_deals", 20),
        immediate=config.get("au_cent_end", "immediate") == "immediate",
    )
    assert exact and games == res["games"] >= 2 and won == res["games_won"]
    assert last == res["totals"] and res["deals"] == len(rec["deals"])
    assert all(
        d["dealer"] == 1 - p["dealer"] for p, d in zip(rec["deals"], rec["deals"][1:], strict=False)
    )
    w = -1 if won[0] == won[1] else int(won[1] > won[0])
    assert (res["winner"] if res["winner"] is not None else -1) == w
    assert res["points"] == abs(won[0] - won[1])
    assert len(final) == 2 and sum(final.values()) == 0
    if w >= 0:
        expected = 1.0 if config.get("reward", "win") == "win" else float(res["points"])
        assert final[f"player_{w}"] == expected


def test_partie__inert_with_episode_deal():
    recs = []
    for on in (False, True):
        env = cardenvs.make(ENV_ID, episode="deal", au_cent_partie=on)
        env.reset(seed=5)
        recs.append(play_random(env, 5))
    assert recs[1]["config"]["au_cent_partie"] and "au_cent_partie" not in recs[0]["config"]
    assert recs[0]["deals"] == recs[1]["deals"] and recs[0]["result"] == recs[1]["result"]
    assert "games_won" not in recs[1]["result"]


def test_partie__render_shows_the_games_won():
    env = cardenvs.make(ENV_ID, render_mode="ansi", au_cent_partie=True)
    env.reset(seed=0)
    assert "games won: 0 - 0" in env.render()


@pytest.mark.parametrize(
    "env_id, config, words",
    [
        (ENV_ID, {"au_cent_partie": "yes"}, ["au_cent_partie", "True or False"]),
        (
            ENV_ID,
            {"au_cent_partie": True, "max_deals": 26},
            ["max_deals", "26", "1..25", "au_cent_partie"],
        ),
        ("piquet-v0", {"au_cent_partie": True}, ["au_cent_partie", "unknown config option"]),
        ("auction_piquet-v0", {"au_cent_partie": True}, ["au_cent_partie", "unknown"]),
        (ENV_ID, {"declarer_becomes_elder": True}, ["declarer_becomes_elder", "unknown"]),
    ],
)
def test_partie__config_is_validated(env_id, config, words):
    with pytest.raises(ValueError) as e:
        cardenvs.make(env_id, **config)
    for w in words:
        assert w in str(e.value), str(e.value)
    cardenvs.make(ENV_ID, au_cent_partie=True, max_deals=25)  # the bound itself is fine
