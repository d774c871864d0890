"""Sinking (``allow_sinking=True``, spec 2.5 "Sinking", 6.1 v2, A3, A12) for the two-handed ids:
scenarios per clause, the Cavendish deal with hand-checked scores under three calling plans,
what each call makes public (and what it must not), determinization, and random games that
sink (the env contract with sinking on, api/seed tests, vector == AEC, autoreset, records, is
the contract suite's: ``test_contract_aec.py``, ``test_contract_vector.py``).

Protocol (6.1 v2 with simplifications a-c of 2.5): per category (point, sequence, sets), elder
``declare``s his best or ``sink``s it; if he declared, younger ``answer``s truthfully or
``concede``s ("good", forfeiting the category); if elder was silent, younger ``declare``s his best
or ``sink``s it. A category is scored, in reckoning order, as soon as younger has spoken.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from harness import (
    act,
    determinize_and_check,
    legal_names,
    walk,
)
from test_piquet_properties import check_cards, check_no_leak

import cardenvs
from cardenvs.core.game import layout_offsets
from cardenvs.games.piquet import constants as K
from cardenvs.games.piquet import layout as L
from cardenvs.games.piquet.declare import declare_row

GOLDEN = Path(__file__).parent / "golden" / "piquet"
CAVENDISH = json.loads((GOLDEN / "worked_examples.jsonl").read_text().splitlines()[0])
EXCHANGE = [a for a in CAVENDISH["actions"] if not a.startswith("play")]
PLAYS = [a for a in CAVENDISH["actions"] if a.startswith("play")]
# test_piquet_rules' deck: after "discard 7C", "stop" (elder) and "discard 7S", "stop"
# (younger) elder holds 5 spades (51), the quint AS-10S and a trio of aces; younger 4 hearts
# (40), the quart KH-10H, trios of kings and queens
PIQUE_E = "AS KS QS JS 10S AH 9H 7H AD 9D 7D 7C"
PIQUE_Y = "9S 8S 7S KH QH JH 10H KD QD 10D KC QC"
PIQUE_T = "8C 8D 8H AC JC 10C 9C JD"
IDS = ["piquet-v0", "piquet_au_cent-v0"]


def new_env(env_id="piquet-v0", **config):
    env = cardenvs.make(env_id, illegal_action="raise", allow_sinking=True, **config)
    return env, env.unwrapped


def field(core, name):
    return L.field(core._engine.state, name)[0]


def obs_block(obs, name):
    off = layout_offsets(L.OBS_LAYOUT)[name]
    size = {f.name: f.size for f in L.OBS_LAYOUT}[name]
    return obs[off : off + size]


def pique_deal(**config):
    env, core = new_env(**config)
    deck = (PIQUE_E + " " + PIQUE_Y + " " + PIQUE_T).split()
    env.reset(seed=0, options={"deck": deck, "dealer": 1})
    act(env, core, "discard 7C", "stop", "discard 7S", "stop", "dont_look")
    return env, core


def cavendish(plan, **config):
    env, core = new_env(episode="deal", **config)
    env.reset(seed=0, options={"deck": CAVENDISH["deck"], "dealer": 1})
    act(env, core, *EXCHANGE, *plan)
    return env, core


# --- the protocol, clause by clause ------------------------------------------------------------
def test_sinking__off_by_default_and_the_actions_are_masked():
    env = cardenvs.make("piquet-v0")
    env.reset(seed=0)
    core = env.unwrapped
    seen = set()
    rng = np.random.default_rng(0)
    while core.legal_actions():
        seen |= legal_names(core)
        env.step(int(rng.choice(core.legal_actions())))
    assert {"stop", "play AS"} <= seen
    assert not seen & {"declare", "sink", "answer", "concede"}
    assert "allow_sinking" not in core.record()["config"]  # records of v0 unchanged


def test_declare__elder_first_declare_or_sink_each_category():
    env, core = pique_deal()
    assert field(core, "phase") == K.PHASE_DECLARE and env.agent_selection == "player_0"
    assert legal_names(core) == {"declare", "sink"}
    act(env, core, "declare")
    # younger answers elder's call or concedes it
    assert env.agent_selection == "player_1" and legal_names(core) == {"answer", "concede"}


def test_declare__only_what_one_holds():
    elder = "AS KS 9S 7S AH 9H 7H AD JD 9D 7D 8C"  # no three in a row in any suit
    younger = "QS JS 10S KH QH JH 10H KD QD 10D KC QC"
    talon = "AC 8S 8H 8D JC 10C 9C 7C"
    env, core = new_env()
    deck = (elder + " " + younger + " " + talon).split()
    env.reset(seed=0, options={"deck": deck, "dealer": 1})
    act(env, core, "discard 8C", "stop", "discard QC", "stop", "dont_look")
    # elder drew AC: still no sequence, so he can only be silent
    act(env, core, "declare", "answer")
    assert legal_names(core) == {"sink"}
    act(env, core, "sink")
    assert legal_names(core) == {"declare", "sink"}  # younger holds sequences


@pytest.mark.parametrize(
    "answer, expected_win, deal_score",
    [
        ("answer", 0, [5 + 15 + 3, 0]),  # truthful: elder's 5 spades beat 4 hearts
        ("concede", 0, [5 + 15 + 3, 0]),  # the same outcome: younger had nothing better
    ],
)
def test_answer__truthful_or_conceded(answer, expected_win, deal_score):
    env, core = pique_deal()
    act(env, core, "declare", answer, "declare", "answer", "declare", "answer")
    assert field(core, "decl_win")[0] == expected_win
    assert field(core, "deal_score").tolist() == deal_score
    assert field(core, "phase") == K.PHASE_PLAY and env.agent_selection == "player_0"


def test_concede__younger_forfeits_what_he_would_have_won():
    # younger (holding PIQUE_E) would win the point with 5 spades; he concedes, and elder
    # scores his 4 hearts
    env, core = new_env()
    deck = (PIQUE_Y + " " + PIQUE_E + " " + PIQUE_T).split()
    env.reset(seed=0, options={"deck": deck, "dealer": 1})
    act(env, core, "discard 7S", "stop", "discard 7C", "stop", "dont_look")
    act(env, core, "declare", "concede")
    assert field(core, "decl_win")[0] == 0 and field(core, "decl_pts")[0] == 4
    # the quart loses to the quint; younger scores it and his tierce 9D-7D (he drew 8D)
    act(env, core, "declare", "answer")
    assert field(core, "decl_win")[1] == 1 and field(core, "deal_score").tolist() == [4, 18]


def test_sink__younger_declares_what_elder_sank_and_scores_it():
    env, core = new_env()
    deck = (PIQUE_Y + " " + PIQUE_E + " " + PIQUE_T).split()
    env.reset(seed=0, options={"deck": deck, "dealer": 1})
    act(env, core, "discard 7S", "stop", "discard 7C", "stop", "dont_look")
    act(env, core, "sink", "declare")  # elder silent, younger's 5 spades score
    assert field(core, "decl_win")[0] == 1 and field(core, "deal_score").tolist() == [0, 5]
    act(env, core, "sink", "sink")  # both silent: nobody scores the sequences
    assert field(core, "decl_win")[1] == K.OUTCOME_NONE
    act(env, core, "sink", "declare")  # younger's trio of aces
    assert field(core, "deal_score").tolist() == [0, 8]
    assert field(core, "shown")[0] == 0  # elder showed nothing


def test_repique__in_reckoning_order_with_sinking():
    """Elder's point 5 + quint 15 + trio 3 = 23 < 30: no repique; younger conceding everything
    does not change that, but elder's pique on his 7th play point still comes (23 + 7 = 30)."""
    env, core = pique_deal()
    act(env, core, "declare", "concede", "declare", "concede", "declare", "concede")
    assert field(core, "deal_score").tolist() == [23, 0] and field(core, "bonus").tolist() == [0, 0]
    act(env, core, "play AS", "play 9S", "play KS", "play 8S", "play QS", "play QC")
    act(env, core, "play JS", "play KC", "play 10S", "play 10D", "play AH", "play JH")
    act(env, core, "play AD")
    assert field(core, "deal_score").tolist() == [60, 0]
    assert field(core, "bonus").tolist() == [K.BONUS_PIQUE, 0]


def test_au_cent__a_declaration_can_reach_the_target():
    env, core = new_env("piquet_au_cent-v0")
    deck = (PIQUE_E + " " + PIQUE_Y + " " + PIQUE_T).split()
    env.reset(seed=0, options={"deck": deck, "dealer": 1})
    L.field(core._engine.state, "total")[0] = [90, 0]
    act(env, core, "discard 7C", "stop", "stop", "dont_look", "declare", "answer")
    assert not core._over()  # 95
    act(env, core, "declare", "answer")  # the quint: 110
    assert core._over() and core.record()["result"]["totals"] == [110, 0]


# --- the Cavendish deal, hand-checked, under three calling plans -----------------------------
@pytest.mark.parametrize(
    "plan, decl_pts, points",
    [
        # everything called and answered truthfully: Cavendish's own 28 / 23 (A: point 5, quart
        # 4; B: equal count asks A's value, 49; B's quatorze + trio 17 after A sinks his trio)
        (
            ["declare", "answer", "declare", "answer", "sink", "declare"],
            [[5, 4, 0], [0, 0, 17]],
            [28, 23],
        ),
        # B concedes the point; both sink the sequences: A loses his quart (28 - 4 = 24)
        (
            ["declare", "concede", "sink", "sink", "sink", "declare"],
            [[5, 0, 0], [0, 0, 17]],
            [24, 23],
        ),
        # A sinks his point, B declares his five cards (5); A's quart good (4); sets unsaid:
        # A 4 + play 19 = 23, B 5 + play 6 = 11
        (
            ["sink", "declare", "declare", "answer", "sink", "sink"],
            [[0, 4, 0], [5, 0, 0]],
            [23, 11],
        ),
    ],
    ids=["all_called", "point_conceded", "point_sunk"],
)
def test_full_deal__cavendish_with_sinking(plan, decl_pts, points):
    env, core = cavendish(plan)
    assert field(core, "decl_pts").reshape(2, 3).tolist() == decl_pts
    act(env, core, *PLAYS)
    rec = core.record()
    assert rec["deals"][0]["points"] == points
    assert rec["config"]["allow_sinking"] is True
    assert cardenvs.replay(rec) == rec


# --- what each call makes public --------------------------------------------------------------
def test_information__elders_call_is_public_at_once_and_the_value_only_on_equal():
    env, core = cavendish(["declare"])
    y = core.observe("player_1")["observation"]
    assert obs_block(y, "elder_calls")[0] == pytest.approx(5 / 12)  # "five cards"
    assert obs_block(y, "elder_calls")[1] == 0.0  # the value is not said yet
    assert obs_block(y, "decl_calls")[:4].tolist() == [1, 0, 0, 0]
    assert obs_block(y, "decl_outcome")[:3].tolist() == [0, 0, 0]  # not resolved yet
    act(env, core, "answer")  # B's five cards: "equal", so A says "forty-nine"
    e = core.observe("player_0")["observation"]
    assert obs_block(e, "elder_calls")[1] == pytest.approx(49 / 100)
    assert obs_block(e, "decl_outcome")[:3].tolist() == [1, 0, 0]  # A's point is good


def test_information__a_concession_looks_like_good_when_younger_is_short():
    """With younger's point shorter than elder's, "answer" and "concede" both say "good": every
    observation is identical although the state records which it was."""
    views = {}
    for answer in ("answer", "concede"):
        env, core = pique_deal()
        act(env, core, "declare", answer)
        views[answer] = [core.observe(f"player_{s}")["observation"] for s in (0, 1)]
        assert field(core, "decl_call")[0] == (
            K.CALL_ANSWERED if answer == "answer" else K.CALL_CONCEDED
        )
    for s in (0, 1):
        assert np.array_equal(views["answer"][s], views["concede"][s])


def test_information__a_concession_on_equal_count_hides_the_value():
    env, core = cavendish(["declare", "concede"])
    e = core.observe("player_0")["observation"]
    assert obs_block(e, "elder_calls")[1] == 0.0  # "good": no "what do they make?"


def test_information__silence_and_holding_nothing_look_alike():
    """A sunk category and an empty one are both silence: the observation only says silent."""
    env, core = cavendish(["declare", "answer", "declare", "answer", "sink", "sink"])
    y = core.observe("player_1")["observation"]
    assert obs_block(y, "decl_calls")[8:12].tolist() == [0, 1, 0, 1]
    assert obs_block(y, "decl_outcome")[6:9].tolist() == [0, 0, 1]  # nobody
    assert obs_block(y, "elder_calls")[4:6].tolist() == [0, 0]


# --- the hidden-information and determinization layers ----------------------------------------
@pytest.mark.parametrize("env_id", IDS)
def test_random_play__no_leak_and_cards_conserved(env_id):
    venv = cardenvs.make_vector(
        env_id, 8, seed=5, autoreset=False, validate=False, allow_sinking=True
    )
    cfg = venv.config.to_array()
    rng = np.random.default_rng(5)
    _, mask, _ = venv.reset()
    tested: Counter = Counter()
    for t in range(60):
        check_cards(venv.state, f"step {t}: ")
        live = L.field(venv.state, "phase") != K.PHASE_OVER
        assert (mask.sum(axis=1) > 0).tolist() == live.tolist()
        for seat in range(2):
            check_no_leak(venv, cfg, seat, rng, tested)
        legal = mask.astype(bool)
        _, mask, *_ = venv.step(np.where(legal, rng.random(legal.shape), -1).argmax(axis=1))
    assert tested[K.PHASE_DECLARE] > 0 and tested[K.PHASE_PLAY] > 0


@pytest.mark.parametrize("steps", [9, 12, 14, 30])
def test_determinize__keeps_the_calls_and_redraws_the_rest(steps):
    """In the declaration phase and in play: the determinized copy gives the seat the same
    observation, and replaying the row's calls on the redrawn hands gives the same public
    declarations (the draw respects every call, answer and silence)."""
    env, core = new_env()
    env.reset(seed=3)
    rng = np.random.default_rng(steps)
    walk(env, rng, steps)
    sim = core.simulator()
    views = set()
    for seat in (0, 1):
        for _ in range(6):
            _, d = determinize_and_check(env, seat, rng)
            t = L.new_state(1)
            for name in ("dealer", "cb_claim", "decl_call", "total"):
                L.field(t, name)[0] = L.field(d, name)[0]
            L.field(t, "hand")[0] = L.field(d, "hand")[0] | L.field(d, "played")[0]
            L.field(t, "decl_win")[0] = K.OUTCOME_PENDING
            declare_row(t, 0, core.config.to_array())
            for name in ("decl_win", "calls", "decl_pts"):
                assert L.field(t, name)[0].tolist() == L.field(d, name)[0].tolist(), name
            views.add(sim.observe(d, 1 - seat).tobytes())
    assert len(views) > 2  # the other seat's hand was redrawn


# --- env layers -------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", IDS)
def test_record__random_games_sink(env_id):
    env = cardenvs.make(env_id, allow_sinking=True)
    env.reset(seed=12)
    rng = np.random.default_rng(12)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    rec = env.unwrapped.record()  # it replays: test_contract_aec.py, these games
    assert any(name == "sink" for d in rec["deals"] for _, name in d["actions"])


def test_config__allow_sinking_must_be_a_bool():
    with pytest.raises(ValueError, match="allow_sinking must be True or False"):
        cardenvs.make("piquet-v0", allow_sinking="yes")
