"""Auction Piquet (``auction_piquet-v0``, spec 3.2): the bidding, redeals, trick and contract
scoring, the contract's pique/repique thresholds, the readings of "cannot klappen", the Cavendish
deal under five contracts with hand-checked scores, and the environment checks beyond the
contract suite (``test_contract_aec.py``, ``test_contract_vector.py``: api/seed tests, registry,
vector == AEC, autoreset, bad actions, records and replays, on this id's configs).
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
    determinize_and_check,
    legal_names,
    walk,
)
from test_piquet_properties import check_cards, check_no_leak

import cardenvs
from cardenvs.core.cards import parse_card
from cardenvs.core.game import layout_offsets, layout_table
from cardenvs.games import auction_piquet
from cardenvs.games.piquet import config as C
from cardenvs.games.piquet import constants as K
from cardenvs.games.piquet import layout as L
from cardenvs.games.piquet import record as T
from cardenvs.games.piquet import rules as R

ENV_ID = "auction_piquet-v0"
GOLDEN = Path(__file__).parent / "golden" / "piquet"
CAVENDISH = json.loads((GOLDEN / "worked_examples.jsonl").read_text().splitlines()[0])
EXCHANGE = [a for a in CAVENDISH["actions"] if not a.startswith("play")]
PLAYS = [a for a in CAVENDISH["actions"] if a.startswith("play")]
BIDS = [f"bid {n}{s}" for n in range(7, 13) for s in "+-"]
PIQUE_E = "AS KS QS JS 10S AH 9H 7H AD 9D 7D 7C"
PIQUE_Y = "9S 8S 7S KH QH JH 10H KD QD 10D KC QC"
PIQUE_T = "8C 8D 8H AC JC 10C 9C JD"
PIQUE_EXCHANGE = ["discard 7C", "stop", "discard 7S", "stop", "dont_look"]


def new_env(**config):
    env = cardenvs.make(ENV_ID, illegal_action="raise", **config)
    return env, env.unwrapped


def field(core, name):
    return L.field(core._engine.state, name)[0]


def obs_block(obs, name):
    off = layout_offsets(L.OBS_LAYOUT)[name]
    size = {f.name: f.size for f in L.OBS_LAYOUT}[name]
    return obs[off : off + size]


def cavendish(**config):
    env, core = new_env(**({"episode": "deal"} | config))
    env.reset(seed=0, options={"deck": CAVENDISH["deck"], "dealer": 1})
    act(env, core, *EXCHANGE)
    return env, core


def pique_deal(**config):
    env, core = new_env(**config)
    deck = (PIQUE_E + " " + PIQUE_Y + " " + PIQUE_T).split()
    env.reset(seed=0, options={"deck": deck, "dealer": 1})
    act(env, core, *PIQUE_EXCHANGE)
    return env, core


# --- bidding (3.2 items 2-7) ---------------------------------------------------------------------
def test_bidding__after_the_exchange_elder_first():
    env, core = cavendish()
    assert field(core, "phase") == K.PHASE_BID and env.agent_selection == "player_0"
    assert legal_names(core) == {"pass", *BIDS}  # nothing to double yet


def test_bidding__each_bid_outranks_the_last_minus_above_plus():
    env, core = cavendish()
    act(env, core, "bid 8+")
    assert legal_names(core) == {"pass", "double", *BIDS[BIDS.index("bid 8-") :]}
    act(env, core, "bid 8-")
    assert legal_names(core) == {"pass", "double", *BIDS[BIDS.index("bid 9+") :]}


def test_bidding__plus_above_minus_when_configured():
    env, core = cavendish(minus_outranks_plus_at_equal_level=False)
    act(env, core, "bid 8-")
    assert "bid 8+" in legal_names(core) and "bid 7+" not in legal_names(core)
    act(env, core, "bid 8+")
    assert "bid 8-" not in legal_names(core) and "bid 9-" in legal_names(core)


def test_bidding__double_then_redouble_or_pass():
    env, core = cavendish()
    act(env, core, "bid 9+", "double")
    assert env.agent_selection == "player_0" and legal_names(core) == {"pass", "redouble"}
    act(env, core, "redouble")
    assert field(core, "phase") == K.PHASE_PLAY
    assert [field(core, "bid"), field(core, "bidder"), field(core, "doubled")] == [4, 0, 2]
    e = core.observe("player_0")["observation"]
    y = core.observe("player_1")["observation"]
    assert obs_block(e, "contract")[4] == 1 and obs_block(e, "contract").sum() == 1
    assert obs_block(e, "contract_by").tolist() == [1, 0]
    assert obs_block(y, "contract_by").tolist() == [0, 1]
    assert obs_block(y, "contract_doubled").tolist() == [0, 1]


def test_bidding__a_pass_after_a_bid_ends_the_auction():
    env, core = cavendish()
    act(env, core, "pass", "bid 7+")
    assert env.agent_selection == "player_0"
    e = core.observe("player_0")["observation"]
    assert obs_block(e, "auction_passed").tolist() == [0, 0]  # a bid stands now
    act(env, core, "pass")
    assert field(core, "phase") == K.PHASE_PLAY and field(core, "bidder") == 1


def test_redeal__both_pass_same_dealer_new_cards_not_a_partie_deal():
    env, core = cavendish(episode="game")
    act(env, core, "pass")
    y = core.observe("player_1")["observation"]
    assert obs_block(y, "auction_passed").tolist() == [0, 1]  # the opponent passed
    act(env, core, "pass")
    rec = core.record()
    assert len(rec["deals"]) == 2 and rec["deals"][0]["points"] == [0, 0]
    assert rec["deals"][0]["contract"] is None
    assert rec["deals"][1]["dealer"] == 1 and rec["deals"][1]["deck"] != CAVENDISH["deck"]
    assert field(core, "redeals") == 1 and field(core, "deal_no") == 1
    obs = core.observe("player_0")["observation"]
    assert obs_block(obs, "deal_no")[0] == 1  # still the partie's first deal
    assert obs_block(obs, "redeals")[0] == pytest.approx(0.1)
    assert field(core, "phase") == K.PHASE_EXCHANGE  # a fresh deal


def test_redeal__bounded_by_max_redeals_then_a_forced_bid():
    env, core = new_env(max_redeals=2)
    env.reset(seed=4)
    for _ in range(2):
        while field(core, "phase") != K.PHASE_BID:
            env.step(core.legal_actions()[0])
        act(env, core, "pass", "pass")
    while field(core, "phase") != K.PHASE_BID:
        env.step(core.legal_actions()[0])
    act(env, core, "pass")
    assert "pass" not in legal_names(core) and "bid 7+" in legal_names(core)
    assert field(core, "redeals") == 2


def test_reading__no_opening_pass_and_younger_first():
    env, core = cavendish(auction_sentence_reading="no_opening_pass", first_bidder="younger")
    assert env.agent_selection == "player_1" and "pass" not in legal_names(core)
    act(env, core, "bid 7+")
    assert "pass" in legal_names(core)


def test_reading__no_exchange_and_bidding_before_the_exchange():
    env, core = new_env(auction_sentence_reading="no_exchange", allow_sinking=True)
    env.reset(seed=0, options={"deck": CAVENDISH["deck"], "dealer": 1})
    assert field(core, "phase") == K.PHASE_BID
    act(env, core, "bid 7+", "pass")
    assert field(core, "phase") == K.PHASE_DECLARE  # no exchange; sinking allowed here
    assert field(core, "xcount").tolist() == [0, 0] and field(core, "seen").tolist() == [0, 0]
    env, core = new_env(bidding="before_exchange")
    env.reset(seed=0, options={"deck": CAVENDISH["deck"], "dealer": 1})
    assert field(core, "phase") == K.PHASE_BID
    act(env, core, "bid 7+", "pass")
    assert field(core, "phase") == K.PHASE_EXCHANGE and env.agent_selection == "player_0"
    act(env, core, *EXCHANGE)
    assert field(core, "phase") == K.PHASE_PLAY  # declarations were made


def test_reading__no_carte_blanche():
    younger = "AS 10S 9S 8S 7S AH 10H 9H 8H AD 10D 9D"  # no K, Q, J
    elder = "KS QS JS 7H KH QH JH 7D KD QD JD 8D"
    deck = (elder + " " + younger + " AC KC QC JC 10C 9C 8C 7C").split()
    for reading, claimed in (("no_sinking", 1), ("no_carte_blanche", 0)):
        env, core = new_env(auction_sentence_reading=reading)
        env.reset(seed=0, options={"deck": deck, "dealer": 1})
        assert field(core, "cb_claim").tolist() == [0, claimed]


# --- scoring (items 8-12) -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "bids, config, points, contract",
    [
        # hand: A point 5 + quart 4 = 9, B quatorze + trio 17; tricks A 7, B 5, 1 point each
        # 7+ by A made exactly: no contract points -> 9 + 7, 17 + 5
        (["bid 7+", "pass"], {}, [16, 22], ("7+", 0, 0)),
        # 8+ doubled, one short: B scores 10 x 1 x 2
        (["bid 8+", "double", "pass"], {}, [16, 42], ("8+", 0, 1)),
        # 8- by B (at most 4 tricks), he took 5: A scores 10
        (["pass", "bid 8-", "pass"], {}, [26, 22], ("8-", 1, 0)),
        # 7- by B made exactly; the last trick's extra point goes to A (JS over 10S)
        (["pass", "bid 7-", "pass"], {"auction_last_trick_extra": True}, [17, 22], ("7-", 1, 0)),
        # redoubled and failed: B 10 x 4; no make bonus for a failed contract
        (
            ["bid 8+", "double", "redouble"],
            {"auction_make_bonus": 5},
            [16, 62],
            ("8+", 0, 2),
        ),
        # made with the make bonus, doubled with factor 3: (10 x 0 + 5) x 3
        (
            ["bid 7+", "double", "pass"],
            {"auction_make_bonus": 5, "double_factor": 3},
            [31, 22],
            ("7+", 0, 1),
        ),
    ],
    ids=["7+made", "8+doubled_down1", "8-down1", "7-made_last_trick", "redoubled", "bonus"],
)
def test_full_deal__cavendish_under_contracts(bids, config, points, contract):
    env, core = cavendish(**config)
    act(env, core, *bids)
    assert field(core, "deal_score").tolist() == [9, 17]  # declarations as standard
    act(env, core, *PLAYS)
    deal = core.record()["deals"][0]
    assert deal["points"] == points
    assert (deal["contract"], deal["declarer"], deal["doubled"]) == contract
    assert field(core, "tricks").tolist() == [7, 5]


@pytest.mark.parametrize(
    "bids, config, hand, bonus",
    [
        # elder 23 in hand (point 5, quint 15, trio 3): repique at 21 in a minus contract
        (["pass", "bid 7-", "pass"], {}, 83, K.BONUS_REPIQUE),
        # at 30 in a plus contract: none
        (["bid 7+", "pass"], {}, 23, 0),
        (["bid 7+", "pass"], {"repique_plus": 23}, 83, K.BONUS_REPIQUE),
    ],
)
def test_repique__thresholds_by_contract(bids, config, hand, bonus):
    env, core = pique_deal(**config)
    act(env, core, *bids)
    assert field(core, "deal_score").tolist() == [hand, 0]
    assert field(core, "bonus")[0] == bonus


def test_pique__twenty_nine_in_a_plus_contract():
    """Elder 23 in hand, then a point per trick won (no lead points): his sixth trick makes 29,
    the plus contract's pique: +30."""
    env, core = pique_deal()
    act(env, core, "bid 7+", "pass")
    act(env, core, "play AS", "play 9S", "play KS", "play 8S", "play QS", "play QC")
    act(env, core, "play JS", "play KC", "play 10S", "play 10D")
    assert field(core, "deal_score").tolist() == [28, 0]
    act(env, core, "play AH", "play JH")
    assert field(core, "deal_score").tolist() == [59, 0]
    assert field(core, "bonus").tolist() == [K.BONUS_PIQUE, 0]


def test_minus_combinations__none_declared_in_a_minus_contract():
    env, core = cavendish(minus_combinations="none")
    act(env, core, "pass", "bid 7-", "pass")
    assert field(core, "deal_score").tolist() == [0, 0]
    assert field(core, "decl_win").tolist() == [K.OUTCOME_NONE] * 3
    env, core = cavendish(minus_combinations="none")
    act(env, core, "bid 7+", "pass")
    assert field(core, "deal_score").tolist() == [9, 17]


def test_partie__rubicon_150():
    s = L.new_state(1)
    cfg = C.AuctionConfig().to_array()
    L.field(s, "deal_no")[0] = 7  # two redeals and the sixth partie deal
    L.field(s, "redeals")[0] = 2
    L.field(s, "total")[0] = [160, 140]
    L.field(s, "bid")[0] = 0
    L.field(s, "bidder")[0] = 0
    L.field(s, "tricks")[0] = [7, 5]
    R._end_deal(s, 0, cfg)
    assert L.field(s, "phase")[0] == K.PHASE_OVER
    assert L.field(s, "winner")[0] == 0 and L.field(s, "result_points")[0] == 160 + 140 + 150
    assert T.result(s, 0, C.AuctionConfig())["deals"] == 6


# --- config surface -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "config, words",
    [
        ({"allow_sinking": True}, ["allow_sinking", "True", "no_sinking"]),
        (
            {"auction_sentence_reading": "no_carte_blanche", "carte_blanche_auto": False},
            ["carte_blanche_auto", "False"],
        ),
        (
            {"auction_sentence_reading": "no_exchange", "bidding": "before_exchange"},
            ["bidding", "before_exchange"],
        ),
        ({"auction_sentence_reading": "fold"}, ["auction_sentence_reading", "fold", "no_exchange"]),
        ({"pique_plus": 0}, ["pique_plus", "1..100"]),
        ({"double_factor": 0}, ["double_factor", "1..16"]),
        ({"max_redeals": 99}, ["max_redeals", "0..50"]),
        ({"trick_scoring": "ten_for_last"}, ["trick_scoring", "known options"]),
        ({"target": 100}, ["target", "known options"]),
    ],
)
def test_config__bad_values_are_named(config, words):
    with pytest.raises(ValueError) as e:
        cardenvs.make(ENV_ID, **config)
    for w in words:
        assert w in str(e.value), str(e.value)


def test_config__other_ids_do_not_take_auction_switches():
    for env_id in ("piquet-v0", "piquet_au_cent-v0"):
        with pytest.raises(ValueError, match="unknown config option"):
            cardenvs.make(env_id, first_bidder="elder")
    env = cardenvs.make("piquet-v0")
    env.reset(seed=0)
    assert not {"pass", "double", "redouble", *BIDS} & legal_names(env.unwrapped)


def test_docstring__tables_are_generated():
    doc = auction_piquet.__doc__
    assert layout_table(L.OBS_LAYOUT) in doc and K.ACTION_TABLE in doc
    for name in (f.name for f in dataclasses.fields(C.AuctionConfig)):
        assert f"`{name}`" in doc


# --- environment checks beyond the contract -----------------------------------------------------
CONFIGS = [
    {},
    {"reward": "score", "auction_last_trick_extra": True},
    {"episode": "deal", "bidding": "before_exchange", "first_bidder": "younger"},
    {"auction_sentence_reading": "no_exchange", "allow_sinking": True, "partie": "four_deals"},
    {"minus_combinations": "none", "carte_blanche_auto": False, "max_redeals": 0},
]
CONFIG_IDS = ["default"] + ["-".join(f"{k}={v}" for k, v in c.items()) for c in CONFIGS[1:]]


def test_render__shows_the_contract():
    env = cardenvs.make(ENV_ID, render_mode="ansi", illegal_action="raise")
    env.reset(seed=0, options={"deck": CAVENDISH["deck"], "dealer": 1})
    act(env, env.unwrapped, *EXCHANGE, "bid 8-", "double")
    text = env.render()
    assert "Auction Piquet" in text and "contract: 8- doubled by player_0" in text


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_record__random_games_hold_their_contracts(config):
    """Beyond the contract's record checks (``test_contract_aec.py``, replays included, on these
    configs): every deal's contract, redeals, zero-sum rewards, totals and the partie's deals."""
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=21)
    rng = np.random.default_rng(21)
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    rec = env.unwrapped.record()
    assert all("contract" in d for d in rec["deals"])
    assert sum(final.values()) == 0 and len(final) == 2
    res = rec["result"]
    played = [d for d in rec["deals"] if d["contract"] is not None]
    assert res["deals"] == len(played) and res["redeals"] == len(rec["deals"]) - len(played)
    if config.get("episode") != "deal":
        assert res["totals"] == np.sum([d["points"] for d in rec["deals"]], axis=0).tolist()
        assert len(played) in ((4, 6) if config.get("partie") == "four_deals" else (6, 8))


def test_random_play__no_leak_cards_and_bounds():
    """Batched random play over the auction, declarations and play: cards conserved, masks
    non-empty while live, observations inside their space, no leak (with positive control)."""
    venv = cardenvs.make_vector(ENV_ID, 8, seed=6, autoreset=False, validate=False)
    cfg = venv.config.to_array()
    space = venv.single_observation_space
    rng = np.random.default_rng(6)
    _, mask, _ = venv.reset()
    tested: Counter = Counter()
    for t in range(50):
        check_cards(venv.state, f"step {t}: ")
        live = L.field(venv.state, "phase") != K.PHASE_OVER
        assert (mask.sum(axis=1) > 0).tolist() == live.tolist()
        for seat in range(2):
            assert all(space.contains(v) for v in venv.observe(seat))
            check_no_leak(venv, cfg, seat, rng, tested)
        legal = mask.astype(bool)
        _, mask, *_ = venv.step(np.where(legal, rng.random(legal.shape), -1).argmax(axis=1))
    assert tested[K.PHASE_BID] > 0 and tested[K.PHASE_PLAY] > 0


@pytest.mark.parametrize("steps", [8, 20, 40])
def test_determinize__keeps_the_seats_view(steps):
    env, core = new_env()
    env.reset(seed=8)
    rng = np.random.default_rng(steps)
    walk(env, rng, steps)
    sim = core.simulator()
    views = set()
    for seat in (0, 1):
        for _ in range(5):
            _, d = determinize_and_check(env, seat, rng)
            assert L.field(d, "bid")[0] == field(core, "bid")  # the contract is public
            views.add(sim.observe(d, 1 - seat).tobytes())
    assert len(views) > 2


# --- roles by the declarer (3.2 "whether elder/younger roles change"): declarer_becomes_elder -----
@pytest.mark.parametrize("swap", [False, True])
def test_roles__a_younger_declarer_calls_first_and_leads_only_when_configured(swap):
    """Cavendish deal, younger (player_1) declares 7+. By default elder (player_0) still calls
    and leads; with ``declarer_becomes_elder`` the declarer does: elder's public calls are his
    (point 5 cards worth 48, tierce, quatorze of tens; against A's 5 worth 49, quart, trio of
    jacks), he leads, and the observations say who is elder."""
    env, core = cavendish(declarer_becomes_elder=swap)
    act(env, core, "pass", "bid 7+", "pass")
    elder = 1 if swap else 0
    assert field(core, "phase") == K.PHASE_PLAY and env.agent_selection == f"player_{elder}"
    assert field(core, "swapped") == int(swap) and field(core, "dealer") == 1
    assert field(core, "calls").tolist() == ([5, 48, 3, 0, 4, 4] if swap else [5, 49, 4, 0, 3, 5])
    assert field(core, "deal_score").tolist() == [9, 17]  # who wins a category is the same
    for seat in (0, 1):
        obs = core.observe(f"player_{seat}")["observation"]
        assert obs_block(obs, "is_elder")[0] == (seat == elder)
    assert f"player_{elder} (elder" in core._engine.render(0)
    lead = "play QS" if swap else "play AH"
    act(env, core, lead)
    assert field(core, "trick_leader") == elder


def test_roles__an_elder_declarer_and_the_next_deal_change_nothing():
    env, core = cavendish(declarer_becomes_elder=True, episode="game")
    act(env, core, "bid 7+", "pass")  # elder declares: roles as dealt
    assert field(core, "swapped") == 0 and env.agent_selection == "player_0"
    env, core = cavendish(declarer_becomes_elder=True, episode="game")
    act(env, core, "pass", "bid 7+", "pass")
    assert field(core, "swapped") == 1
    rng = np.random.default_rng(0)
    while field(core, "deal_no") == 0:
        env.step(int(rng.choice(core.legal_actions())))
    rec = core.record()
    assert [d["dealer"] for d in rec["deals"]] == [1, 0]  # who deals still alternates
    assert rec["deals"][0]["declarer"] == 1
    assert field(core, "swapped") == 0 and env.agent_selection == "player_1"  # elder again


def test_roles__pique_follows_the_declarer_who_became_elder():
    """Player_0 holds 23 in hand (see test_pique__twenty_nine_in_a_plus_contract) and wins six
    tricks before player_1 scores: 29, the plus contract's pique, when he is elder. Once the
    younger declarer of 7+ has taken elder's role, player_0 is younger and cannot pique."""
    env, core = pique_deal(declarer_becomes_elder=True)
    act(env, core, "pass", "bid 7+", "pass")
    assert field(core, "deal_score").tolist() == [23, 0] and env.agent_selection == "player_1"
    act(env, core, "play 9S", "play AS", "play KS", "play 8S", "play QS", "play QC")
    act(env, core, "play JS", "play KC", "play 10S", "play 10D", "play AH", "play JH")
    assert field(core, "deal_score").tolist() == [29, 0]
    assert field(core, "bonus").tolist() == [0, 0]


@pytest.mark.parametrize("swap", [False, True])
def test_roles__bidding_first_then_the_declarer_exchanges_first(swap):
    """``bidding="before_exchange"``: the declarer who became elder also exchanges first (up to
    five, and sees the untaken cards of his five); the other exchanges second under
    ``younger_min_exchange`` and decides whether to look; the declarer leads."""
    env, core = new_env(bidding="before_exchange", declarer_becomes_elder=swap)
    env.reset(seed=0, options={"deck": CAVENDISH["deck"], "dealer": 1})
    act(env, core, "pass", "bid 7+", "pass")
    first = 1 if swap else 0
    assert field(core, "phase") == K.PHASE_EXCHANGE and env.agent_selection == f"player_{first}"
    discards = sorted(a for a in core.legal_actions() if a < K.ACTION_PLAY)
    env.step(discards[0])
    env.step(discards[1])
    env.step(K.ACTION_STOP)
    talon = CAVENDISH["deck"][2 * K.HAND :]
    seen = sum(1 << parse_card(c) for c in talon[2:5])
    assert field(core, "seen").tolist()[first] == seen  # the untaken three of his five
    assert env.agent_selection == f"player_{1 - first}" and "stop" not in legal_names(core)
    act(env, core, sorted(legal_names(core))[0], "stop")
    assert field(core, "phase") == K.PHASE_LOOK and env.agent_selection == f"player_{1 - first}"
    act(env, core, "dont_look")
    assert field(core, "phase") == K.PHASE_PLAY and env.agent_selection == f"player_{first}"


def _younger_declares(env, core, seed):
    """Random play to the first bidding, where younger (the dealer) bids 7+ and elder passes."""
    rng = np.random.default_rng(seed)
    while field(core, "phase") != K.PHASE_BID:
        env.step(int(rng.choice(core.legal_actions())))
    act(env, core, "pass", "bid 7+", "pass")
    assert field(core, "swapped") == 1


SWAP_CONFIGS = [
    {"declarer_becomes_elder": True},
    {"declarer_becomes_elder": True, "bidding": "before_exchange", "reward": "score"},
]
SWAP_IDS = ["after_exchange", "before_exchange"]


@pytest.mark.parametrize("config", SWAP_CONFIGS, ids=SWAP_IDS)
def test_roles__records_replay(config):
    env = cardenvs.make(ENV_ID, **config)
    env.reset(seed=23)
    _younger_declares(env, env.unwrapped, 23)
    rng = np.random.default_rng(23)
    for _agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    rec = env.unwrapped.record()
    assert rec["config"]["declarer_becomes_elder"] is True
    assert rec["deals"][0]["declarer"] == rec["deals"][0]["dealer"]
    assert cardenvs.replay(json.loads(json.dumps(rec))) == rec
    default = cardenvs.make(ENV_ID)
    default.reset(seed=0)
    assert "declarer_becomes_elder" not in default.unwrapped.record()["config"]


@pytest.mark.parametrize("config", SWAP_CONFIGS, ids=SWAP_IDS)
@pytest.mark.parametrize("steps", [0, 6, 20])
@pytest.mark.parametrize("seed", [9, 10])
def test_roles__determinize_keeps_the_seats_view(config, steps, seed):
    env, core = new_env(**config)
    env.reset(seed=seed)
    _younger_declares(env, core, seed)
    rng = np.random.default_rng(steps)
    walk(env, rng, steps)
    for seat in (0, 1):
        for _ in range(4):
            _, d = determinize_and_check(env, seat, rng)
            assert L.field(d, "swapped")[0] == 1
            check_cards(d, f"seat {seat}: ")  # the talon drawn by whoever exchanged first


def test_roles__config_is_validated():
    with pytest.raises(ValueError, match="declarer_becomes_elder.*True or False"):
        cardenvs.make(ENV_ID, declarer_becomes_elder="yes")
    for env_id in ("piquet-v0", "piquet_au_cent-v0"):
        with pytest.raises(ValueError, match="unknown config option"):
            cardenvs.make(env_id, declarer_becomes_elder=True)
