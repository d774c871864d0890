"""Piquet rules: one scenario per rule clause of the spec (docs/games/piquet.md §2, §4).

States are built from card strings: fixed decks through the env, hands through the rules helper
``declarations`` (which runs the same kernel as the game).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from harness import act

import cardenvs
from cardenvs.core.cards import parse_cards
from cardenvs.core.game import layout_offsets, layout_table
from cardenvs.games import piquet
from cardenvs.games.piquet import cards as CD
from cardenvs.games.piquet import config as C
from cardenvs.games.piquet import constants as K
from cardenvs.games.piquet import layout as L
from cardenvs.games.piquet import rules as R

GOLDEN = Path(__file__).parent / "golden" / "piquet"


def new_env(**config):
    env = cardenvs.make("piquet-v0", illegal_action="raise", **config)
    return env, env.unwrapped


def field(core, name):
    return L.field(core._engine.state, name)[0]


def deal(core_env, elder, younger, talon, dealer=1):
    env, core = core_env
    deck = elder.split() + younger.split() + talon.split()
    env.reset(seed=0, options={"deck": deck, "dealer": dealer})
    return env, core


def play_out(env, core, scripts):
    """Play to the end of the current deal: each seat follows its script of card names, then
    takes its first legal action."""
    deal_no = int(field(core, "deal_no"))
    while env.agents and int(field(core, "deal_no")) == deal_no and not core._over():
        seat = core.agent_name_mapping[env.agent_selection]
        script = scripts.get(seat, [])
        if script:
            env.step(core.action_id("play " + script.pop(0)))
        else:
            env.step(core.legal_actions()[0])


def obs_block(obs, name):
    off = layout_offsets(L.OBS_LAYOUT)[name]
    size = {f.name: f.size for f in L.OBS_LAYOUT}[name]
    return obs[off : off + size]


def plane_cards(plane):
    return {CD.card_of(i) for i in np.flatnonzero(plane)}


# --- worked examples (spec 2.8: "Check: CAV example 28/23 and PAG example 41/11") -------------
WORKED = [json.loads(line) for line in (GOLDEN / "worked_examples.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("example", WORKED, ids=["cavendish_28_23", "pagat_41_11"])
def test_worked_example__exact_final_scores(example):
    env, core = new_env(episode="deal")
    env.reset(seed=0, options={"deck": example["deck"], "dealer": example["dealer"]})
    for name in example["actions"]:
        env.step(core.action_id(name))
    record = core.record()
    assert record["deals"][0]["points"] == example["points"]
    assert field(core, "decl_pts").reshape(2, 3).tolist() == example["decl_pts"]
    assert field(core, "tricks").tolist() == example["tricks"]
    assert not env.agents or all(env.terminations.values())


@pytest.mark.parametrize("example", WORKED, ids=["cavendish_28_23", "pagat_41_11"])
def test_worked_example__declarations_helper_agrees(example):
    env, core = new_env(episode="deal")
    env.reset(seed=0, options={"deck": example["deck"], "dealer": example["dealer"]})
    plays = [a for a in example["actions"] if not a.startswith("play")]
    act(env, core, *plays)
    hands = field(core, "hand")
    elder = [c for c in range(52) if (int(hands[0]) >> c) & 1]
    younger = [c for c in range(52) if (int(hands[1]) >> c) & 1]
    from cardenvs.core.cards import format_card

    d = piquet.declarations([format_card(c) for c in elder], [format_card(c) for c in younger])
    exp = example["decl_pts"]
    assert d["point"]["points"] == max(exp[0][0], exp[1][0])
    assert d["sequence"]["points"] == max(exp[0][1], exp[1][1])
    assert d["sets"]["points"] == max(exp[0][2], exp[1][2])
    assert d["elder_total"] == sum(exp[0]) and d["younger_total"] == sum(exp[1])


# --- declarations (2.5) -----------------------------------------------------------------------
E1 = "AS KS QS JS 9S 7H 8H 7D 8D 9D 7C 8C"  # point 5 spades (50); quart major; tierce 9D
Y_COUNT = "AH KH QH JH 10S 8S 7S 10D JD 9C 10C JC"  # hearts 4: quart to the ace, trio of tens
Y_VALUE = "AH KH QH JH 10H 10S 8S 7S 10D JD 9C 10C"  # hearts 5 worth 51: quint, quatorze of 10s
Y_EQUAL = "AH KH QH JH 9H 10S 8S 7S 10D JD 9C 10C"  # hearts 5 worth 50


@pytest.mark.parametrize(
    "younger, winner, points, equal",
    [
        (Y_COUNT, "elder", 5, False),  # more cards wins
        (Y_VALUE, "younger", 5, False),  # equal count: higher value wins, 1 per card
        (Y_EQUAL, None, 0, True),  # equal count and value: nobody scores
    ],
)
def test_point__count_then_value_then_equal(younger, winner, points, equal):
    d = piquet.declarations(E1, younger)
    assert d["point"] == {"winner": winner, "points": points, "equal": equal}


def test_sequence__equal_best_cancels_every_sequence():
    # both best sequences are quarts to the ace: elder's tierce 9D-7D is cancelled too
    d = piquet.declarations(E1, Y_COUNT)
    assert d["sequence"] == {"winner": None, "points": 0, "equal": True}


def test_sequence__winner_scores_all_his_sequences():
    elder = "AS KS QS JS 10S 9D 8D 7D 7H 8H 7C 8C"  # quint (15) + tierce (3)
    younger = "AH KH QH JH 9S 8S 7S 10D JD 9C 10C JC"  # quart to the ace
    d = piquet.declarations(elder, younger)
    assert d["sequence"] == {"winner": "elder", "points": 18, "equal": False}


def test_sequence__same_length_higher_top_wins():
    elder = "KS QS JS 7H 8H 7D 8D 9C 7C 8C AH 10D"  # tierce to the king
    younger = "AD KD QD 10S 9S 10H 9H JH 10C JC QC AS"  # tierce to the ace (AD KD QD)
    d = piquet.declarations(elder, younger)
    # younger also holds QC JC 10C and JH 10H 9H: he scores all three tierces
    assert d["sequence"] == {"winner": "younger", "points": 9, "equal": False}


@pytest.mark.parametrize(
    "set_ranks, winner, points",
    [
        ("AKQJT", "younger", 14),  # quatorze of tens beats nothing... elder has no set
        ("KQJT", "younger", 14),
    ],
)
def test_sets__quatorze_scores_14(set_ranks, winner, points):
    d = piquet.declarations(E1, Y_VALUE, set_ranks=set_ranks)
    assert d["sets"]["winner"] == winner and d["sets"]["points"] == points


def test_sets__quatorze_beats_trio_and_winner_scores_all():
    elder = "AS AH AD KS KH KD 7S 8S 7H 8H 7D 8D"  # trio of aces (3) + trio of kings (3)
    younger = "10S 10H 10D 10C QS QH QD JS JH 9S 9H 9D"  # quatorze of tens + trio of queens
    d = piquet.declarations(elder, younger)
    assert d["sets"] == {"winner": "younger", "points": 17, "equal": False}


def test_sets__higher_trio_wins_and_nines_never_count():
    elder = "AS AH AD 9S 9H 9D 9C 7S 7H 7D 8S 8H"  # trio of aces; four nines do not count
    younger = "KS KH KD QS QH JS JH 10S 10H 8D 8C 7C"  # trio of kings only
    d = piquet.declarations(elder, younger)
    assert d["sets"] == {"winner": "elder", "points": 3, "equal": False}


def test_sets__seed_ranks_exclude_aces():
    elder = "AS AH AD AC 9S 9H 9D 9C 7S 7H 7D 8S"  # quatorze of aces
    younger = "KS KH KD QS QH JS JH 10S 10H 8D 8C 7C"  # trio of kings
    assert piquet.declarations(elder, younger)["sets"]["winner"] == "elder"
    d = piquet.declarations(elder, younger, set_ranks="KQJT")
    assert d["sets"] == {"winner": "younger", "points": 3, "equal": False}


def test_point__ending_in_four_counts_one_less_when_configured():
    elder = "AS KS QS JS 10S 9S 7H 8H 7D 8D 7C 8C"  # spades 6 cards worth 60
    younger = "AH KH QH JH 10H 8S 7S 9D 10D 9C 10C JC"
    base = piquet.declarations(elder, younger)["point"]
    assert base == {"winner": "elder", "points": 6, "equal": False}
    # hearts 10H 9H 8H 7H = 34 as a 4-card point
    elder = "10H 9H 8H 7H AS 7S 8S 7D 8D 9D 7C 8C"
    younger = "AH KH QH KS QS JS KD QD JD KC QC JC"  # no suit longer than three
    plain = piquet.declarations(elder, younger)["point"]
    minus = piquet.declarations(elder, younger, point_ending_in_4_minus_one=True)["point"]
    assert plain == {"winner": "elder", "points": 4, "equal": False}
    assert minus == {"winner": "elder", "points": 3, "equal": False}


# --- carte blanche, repique (2.3, 2.6) --------------------------------------------------------
def test_repique__thirty_in_hand_before_the_opponent_scores():
    d = piquet.declarations(E1, Y_VALUE)  # younger: point 5 + quint 15 + quatorze 14 = 34
    assert d["repique"] == "younger"
    assert d["younger_total"] == 34 + 60 and d["elder_total"] == 0


def test_repique__blocked_when_the_opponent_scored_first():
    # elder wins the point (6 spades), younger then makes quint 15 + quatorze 14 = 29 + ... no
    elder = "AS KS QS JS 9S 7S 7H 8H 7D 8D 7C 8C"
    younger = "AH KH QH JH 10H 10S 10D 10C 9D JD QD KD"  # two quints, quatorze of 10s
    d = piquet.declarations(elder, younger)
    assert d["point"]["winner"] == "elder"
    assert d["younger_total"] == 15 + 15 + 14  # 44, but elder scored first: no repique
    assert d["repique"] is None


def test_carte_blanche__scores_ten_and_counts_first():
    d = piquet.declarations(E1, Y_COUNT, carte_blanche=(False, True))
    assert d["carte_blanche"] == {"elder": 0, "younger": 10}
    # younger reckons 10 before elder's point (and then trios of tens and jacks)
    assert d["younger_total"] == 10 + 3 + 3


def test_carte_blanche__judged_on_the_hand_by_default():
    elder = "AS 10S 9S 8S 7S AH 10H 9H 8H AD 10D 9D"  # no K, Q, J
    younger = "KS QS JS 7H KH QH JH 7D KD QD JD 8D"
    d = piquet.declarations(elder, younger)
    assert d["carte_blanche"] == {"elder": 10, "younger": 0}


# --- the exchange (2.4, 6.1) ------------------------------------------------------------------
PIQUE_E = "AS KS QS JS 10S AH 9H 7H AD 9D 7D 7C"
PIQUE_Y = "9S 8S 7S KH QH JH 10H KD QD 10D KC QC"
PIQUE_T = "8C 8D 8H AC JC 10C 9C JD"


def test_exchange__elder_must_discard_one_to_five_in_canonical_order():
    env, core = deal(new_env(), PIQUE_E, PIQUE_Y, PIQUE_T)
    legal = {core.action_name(a) for a in core.legal_actions()}
    assert "stop" not in legal  # at least one card
    assert legal == {f"discard {c}" for c in PIQUE_E.split()}
    act(env, core, "discard 10S")
    legal = {core.action_name(a) for a in core.legal_actions()}
    # only cards after 10S in S, H, D, C / 7..A order, plus stop
    assert legal == {"stop", "discard JS", "discard QS", "discard KS", "discard AS"} | {
        f"discard {c}" for c in "AH 9H 7H AD 9D 7D 7C".split()
    }
    with pytest.raises(ValueError, match="not legal"):
        env.step(core.action_id("discard 9H") - 1)  # discard 8H: not held
    act(env, core, "discard 7H", "discard 9H", "discard 7D", "discard 9D")
    # the fifth discard ended the exchange: elder drew the top five, younger is to act
    assert core.agent_selection == "player_1"
    assert set(parse_cards("8C 8D 8H AC JC")) <= {
        c for c in range(52) if (int(field(core, "hand")[0]) >> c) & 1
    }


def test_exchange__younger_takes_from_what_is_left_and_may_look():
    env, core = deal(new_env(), PIQUE_E, PIQUE_Y, PIQUE_T)
    act(env, core, "discard 7C", "stop")  # elder takes 8C, sees 8D 8H AC JC
    elder_obs = core.observe("player_0")["observation"]
    assert plane_cards(obs_block(elder_obs, "talon_seen")) == set(parse_cards("8D 8H AC JC"))
    legal = {core.action_name(a) for a in core.legal_actions()}
    assert "stop" not in legal and "discard 7S" in legal
    act(env, core, "discard 7S", "stop")  # younger takes 8D; 6 cards are left
    assert {core.action_name(a) for a in core.legal_actions()} == {"look", "dont_look"}
    act(env, core, "look")
    left = set(parse_cards("8H AC JC 10C 9C JD"))
    y = core.observe("player_1")["observation"]
    assert plane_cards(obs_block(y, "talon_seen")) == left
    e = core.observe("player_0")["observation"]
    # elder saw his untaken five (8D went to younger) but not the rest before his first lead
    assert plane_cards(obs_block(e, "talon_seen")) == set(parse_cards("8D 8H AC JC"))
    act(env, core, "play AS")
    e = core.observe("player_0")["observation"]
    assert plane_cards(obs_block(e, "talon_seen")) == left | set(parse_cards("8D"))


def test_exchange__leftovers_not_looked_at_stay_hidden():
    env, core = deal(new_env(), PIQUE_E, PIQUE_Y, PIQUE_T)
    act(env, core, "discard 7C", "stop", "discard 7S", "stop", "dont_look", "play AS")
    y = core.observe("player_1")["observation"]
    assert plane_cards(obs_block(y, "talon_seen")) == set()
    assert obs_block(y, "leftovers").tolist() == [0.0, 1.0]


def test_exchange__younger_may_refuse_when_configured():
    env, core = deal(new_env(younger_min_exchange=0), PIQUE_E, PIQUE_Y, PIQUE_T)
    act(env, core, "discard 7C", "stop")
    assert "stop" in {core.action_name(a) for a in core.legal_actions()}
    act(env, core, "stop", "dont_look")
    assert field(core, "xcount").tolist() == [1, 0]


def test_exchange__dealer_first_when_configured():
    env, core = deal(new_env(first_exchanger="dealer"), PIQUE_E, PIQUE_Y, PIQUE_T)
    assert core.agent_selection == "player_1"  # the dealer (younger) exchanges first
    act(env, core, "discard 7S", "stop")  # younger takes 8C from the top
    assert core.agent_selection == "player_0"
    act(env, core, "discard 7C", "stop", "dont_look")  # elder takes 8D and then looks or not
    assert core.agent_selection == "player_0"  # elder still leads
    assert field(core, "phase") == K.PHASE_PLAY


# --- carte blanche timing (2.3) ---------------------------------------------------------------
def test_carte_blanche__hand_shown_after_the_opponents_exchange():
    younger = "AS 10S 9S 8S 7S AH 10H 9H 8H AD 10D 9D"  # no K, Q, J
    elder = "KS QS JS 7H KH QH JH 7D KD QD JD 8D"
    talon = "AC KC QC JC 10C 9C 8C 7C"
    env, core = deal(new_env(), elder, younger, talon)
    e = core.observe("player_0")["observation"]
    assert obs_block(e, "carte_blanche").tolist() == [0.0, 1.0]  # announced at once
    assert plane_cards(obs_block(e, "opp_carte_blanche")) == set()
    act(env, core, "discard 7H", "stop")
    e = core.observe("player_0")["observation"]
    assert plane_cards(obs_block(e, "opp_carte_blanche")) == set(parse_cards(younger))
    act(env, core, "discard 7S", "stop", "dont_look")
    assert field(core, "deal_score")[1] >= 10


# --- pique, play and the cards (2.6, 2.7, 2.8) -------------------------------------------------
def test_pique__elder_reaches_thirty_before_younger_scores():
    env, core = deal(new_env(), PIQUE_E, PIQUE_Y, PIQUE_T)
    act(env, core, "discard 7C", "stop", "discard 7S", "stop", "dont_look")
    # elder: point 5 + quint 15 + trio of aces 3 = 23; younger nothing
    assert field(core, "deal_score").tolist() == [23, 0]
    act(env, core, "play AS", "play 9S", "play KS", "play 8S", "play QS", "play QC")
    act(env, core, "play JS", "play KC", "play 10S", "play 10D", "play AH", "play JH")
    assert field(core, "deal_score").tolist() == [29, 0]
    assert field(core, "bonus").tolist() == [0, 0]
    act(env, core, "play AD")  # the 30th point: pique, 30 becomes 60
    assert field(core, "deal_score").tolist() == [60, 0]
    assert field(core, "bonus").tolist() == [K.BONUS_PIQUE, 0]


def test_pique__not_when_younger_has_scored():
    env, core = deal(new_env(set_ranks="KQJT"), PIQUE_E, PIQUE_Y, PIQUE_T)
    act(env, core, "discard 7C", "stop", "discard 7S", "stop", "dont_look")
    # without aces in sets, younger's trios of kings and queens win the sets (6)
    assert field(core, "deal_score").tolist() == [20, 6]
    play_out(env, core, {0: "AS KS QS JS 10S AH AD".split()})
    assert field(core, "bonus").tolist() == [0, 0]


def test_follow_suit__mask_allows_only_the_led_suit_when_held():
    env, core = deal(new_env(), PIQUE_E, PIQUE_Y, PIQUE_T)
    act(env, core, "discard 7C", "stop", "discard 7S", "stop", "dont_look", "play AS")
    assert {core.action_name(a) for a in core.legal_actions()} == {"play 9S", "play 8S"}
    act(env, core, "play 9S", "play KS", "play 8S", "play QS")
    # void in spades: any card
    assert len(core.legal_actions()) == 10


CAPOT_E = "AS KS QS JS 10S 9S 8S 7S AH KH AD AC"
CAPOT_Y = "JH 10H 9H 8H 7H KD QD JD 10D KC QC JC"
CAPOT_T = "QH 9D 8D 7D 10C 9C 8C 7C"
CAPOT_PLAN = ["discard 7S", "stop", "discard 7H", "stop", "dont_look"]
CAPOT_LEADS = "AS KS QS JS 10S 9S 8S AH KH QH AD AC".split()


@pytest.mark.parametrize(
    "config, expected",
    [
        # point 7 + septieme 17 + tierce AH-QH 3 + quatorze 14 = 41, repique -> 101;
        # 12 leads; the last trick; capot 40
        ({}, [101 + 12 + 1 + 40, 0]),
        # old rule: the 9S and 8S leads score nothing
        ({"low_cards_score_in_play": False}, [101 + 10 + 1 + 40, 0]),
    ],
)
def test_capot__all_twelve_tricks_score_forty(config, expected):
    env, core = deal(new_env(episode="deal", **config), CAPOT_E, CAPOT_Y, CAPOT_T)
    act(env, core, *CAPOT_PLAN)
    assert field(core, "bonus").tolist() == [K.BONUS_REPIQUE, 0]
    play_out(env, core, {0: list(CAPOT_LEADS)})
    assert core.record()["deals"][0]["points"] == expected


def test_trick_points__lead_capture_last_and_cards():
    # the Cavendish deal: younger captures 5 leads, elder wins 7 tricks and the last
    ex = WORKED[0]
    env, core = new_env(episode="deal")
    env.reset(seed=0, options={"deck": ex["deck"], "dealer": 1})
    acts = list(ex["actions"])
    while acts and not acts[0].startswith("play"):
        env.step(core.action_id(acts.pop(0)))
    hand_scores = field(core, "deal_score").tolist()
    for name in acts:
        env.step(core.action_id(name))
    points = core.record()["deals"][0]["points"]
    play = [p - h for p, h in zip(points, hand_scores, strict=True)]
    # elder: 7 leads + 1 capture + last trick 1 + cards 10; younger: 5 leads + 1 capture.
    # (2.8: 12 leads + 2 captures + 1; a captured lead still scored for the leader.)
    assert play == [19, 6]
    assert sum(play) == 12 + 2 + 1 + 10


# --- partie (2.10) ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "a, b, rubicon, expected",
    [
        (120, 90, 100, {"winner": 0, "points": 310}),  # loser rubiconed: sum + 100
        (150, 110, 100, {"winner": 0, "points": 140}),  # difference + 100
        (90, 80, 100, {"winner": 0, "points": 270}),  # nobody crossed: sum + 100
        (100, 130, 100, {"winner": 1, "points": 130}),  # loser at exactly 100 is not rubiconed
        (95, 95, 100, {"winner": None, "points": 0}),
        (160, 140, 150, {"winner": 0, "points": 450}),
    ],
)
def test_partie_result__rubicon(a, b, rubicon, expected):
    assert piquet.partie_result(a, b, rubicon=rubicon) == expected


@pytest.mark.parametrize("bad", [-1, 1.5, "10", True])
def test_partie_result__rejects_bad_scores(bad):
    with pytest.raises(ValueError, match="score_a"):
        piquet.partie_result(bad, 10)


def _state_at_deal(deal_no, totals, partie="six_deals"):
    cfg = C.Config(partie=partie).to_array()
    s = L.new_state(1)
    L.field(s, "deal_no")[0] = deal_no
    L.field(s, "dealer")[0] = 0
    L.field(s, "total")[0] = totals
    L.field(s, "key")[0] = np.uint64(7)
    return s, cfg


@pytest.mark.parametrize(
    "deal_no, totals, over, winner",
    [
        (4, [100, 50], False, None),  # five deals played: go on
        (5, [100, 50], True, 0),  # six deals: the higher total wins
        (5, [80, 80], False, None),  # tie after six: two more deals
        (6, [80, 80], False, None),
        (6, [80, 90], False, None),  # the first extra deal broke the tie: the second is played
        (6, [95, 80], False, None),
        (7, [80, 80], True, -1),  # still tied after eight: drawn
        (7, [80, 81], True, 1),
    ],
)
def test_partie__six_deals_then_two_tie_breakers(deal_no, totals, over, winner):
    s, cfg = _state_at_deal(deal_no, totals)
    R._end_deal(s, 0, cfg)
    assert (L.field(s, "phase")[0] == K.PHASE_OVER) == over
    if over:
        assert L.field(s, "winner")[0] == winner
    else:
        assert L.field(s, "deal_no")[0] == deal_no + 1
        assert L.field(s, "dealer")[0] == 1  # the deal alternates


def test_partie__legacy_tie_break_ends_after_the_first_extra_deal_that_breaks_the_tie():
    """The old end, kept for old records only (``legacy_tie_break``): a tie broken by the first
    extra deal ended the partie there."""
    s, _ = _state_at_deal(6, [80, 90])
    cfg = C.Config(legacy_tie_break=True).to_array()
    R._end_deal(s, 0, cfg)
    assert L.field(s, "phase")[0] == K.PHASE_OVER and L.field(s, "winner")[0] == 1


# Fixed decks for the tie-break deals: each seat takes its first legal action, which depends
# only on its hand and its role, so a deck dealt by one player and then by the other gives the
# two players each other's scores.
DECK_A = (
    "9S 10H 8C QD 9H JS QC 7D AD KS 9D 9C 10S KC 7H 7S 10D JH JD QH AS QS 8D KH 10C KD 8H JC 7C "
    "8S AH AC"
)
DECK_B = (
    "AS 10H QD 9H AC 7H JS JC KH 8H AD 9D 7C JH JD 9S 8C 10S 8S QC AH 7S KS KC QH KD 10D QS 7D "
    "8D 9C 10C"
)


def _tie_break_deals(decks, totals, partie="six_deals", deal_no=None, **options):
    """Start the first tie-break deal (totals level at ``totals``) and play one deal per deck
    of ``decks`` with the dealer the engine chooses, each seat taking its first legal action.
    Returns the state and the totals after each deal."""
    cfg = C.Config(partie=partie, **options).to_array()
    s = L.new_state(1)
    L.field(s, "deal_no")[0] = (6 if partie == "six_deals" else 4) if deal_no is None else deal_no
    L.field(s, "total")[0] = totals
    L.field(s, "key")[0] = np.uint64(7)
    dealer = 0
    after = []
    out = np.zeros(K.NUM_ACTIONS, np.int8)
    for deck in decks:
        assert L.field(s, "phase")[0] != K.PHASE_OVER, f"the partie ended after {after}"
        L.field(s, "deck")[0] = parse_cards(deck)
        R._deal(s, 0, cfg, dealer)  # this deal's cards: the fixed deck instead of the shuffle
        n = int(L.field(s, "deal_no")[0])
        while L.field(s, "phase")[0] != K.PHASE_OVER and int(L.field(s, "deal_no")[0]) == n:
            R._legal(s, 0, cfg, out)
            R._apply(s, 0, cfg, int(np.flatnonzero(out)[0]))
        after.append(L.field(s, "total")[0].tolist())
        dealer = int(L.field(s, "dealer")[0])  # the next deal's dealer (2.10: they alternate)
    return s, after


def test_partie__a_tie_broken_by_the_first_extra_deal_and_restored_by_the_second_is_drawn():
    s, after = _tie_break_deals([DECK_A, DECK_A], [80, 80])
    # the first extra deal breaks the tie (its deal alone ended the partie before the fix) ...
    assert after[0] == [105, 107]
    # ... and the second, dealt by the other player, restores it: a draw after eight deals
    assert after[1] == [132, 132]
    assert L.field(s, "phase")[0] == K.PHASE_OVER
    assert L.field(s, "winner")[0] == -1 and L.field(s, "result_points")[0] == 0


def test_partie__a_tie_broken_for_good_still_plays_the_second_extra_deal():
    s, after = _tie_break_deals([DECK_A, DECK_B], [80, 80])
    assert after[0] == [105, 107]
    first = [t - 80 for t in after[0]]
    second = [b - a for a, b in zip(after[0], after[1], strict=True)]
    assert second != [0, 0]  # the second extra deal was played and scored
    a, c = after[1]
    assert a != c and L.field(s, "phase")[0] == K.PHASE_OVER
    assert [80 + x + y for x, y in zip(first, second, strict=True)] == [a, c]
    # the result and the Rubicon come from the totals after both deals
    expected = piquet.partie_result(a, c)
    assert L.field(s, "winner")[0] == expected["winner"]
    assert L.field(s, "result_points")[0] == expected["points"]


def test_partie__four_deal_tie_plays_two_single_extra_deals():
    """``partie="four_deals"``: a tie after four deals plays the same two extra deals, which
    count single (only the 1st and 4th deals count double)."""
    s, after = _tie_break_deals([DECK_A, DECK_A], [80, 80], partie="four_deals")
    assert after == [[105, 107], [132, 132]]  # the six-deal partie's deal points, not doubled
    assert L.field(s, "winner")[0] == -1
    s, after = _tie_break_deals([DECK_A, DECK_B], [80, 80], partie="four_deals")
    six, _ = _tie_break_deals([DECK_A, DECK_B], [80, 80])
    assert after[1] == L.field(six, "total")[0].tolist()
    assert L.field(s, "phase")[0] == K.PHASE_OVER


def test_partie__legacy_tie_break_settles_after_the_first_extra_deal():
    """Only with ``legacy_tie_break`` (old records): the partie ends when the first extra deal
    breaks the tie, as the engine did before the fix."""
    s, after = _tie_break_deals([DECK_A], [80, 80], legacy_tie_break=True)
    assert after == [[105, 107]]
    assert L.field(s, "phase")[0] == K.PHASE_OVER and L.field(s, "winner")[0] == 1


def test_partie__random_play_level_after_six_deals_plays_both_extra_deals():
    """The issue's reproduction through the public API: seed 423 played by random legal actions
    from ``default_rng(423)`` is level 103-103 after six deals; the seventh (28-5) broke the tie
    and used to end the partie 131-108. Now the eighth is played too."""
    env, core = new_env()
    env.reset(seed=423)
    rng = np.random.default_rng(423)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    rec = core.record()
    totals = np.cumsum([d["points"] for d in rec["deals"]], axis=0).tolist()
    assert totals[5] == [103, 103]
    assert totals[6] == [131, 108]
    assert len(rec["deals"]) == 8 and rec["result"]["deals"] == 8
    assert rec["result"]["totals"] == totals[7]
    a, c = totals[7]
    assert rec["result"]["winner"] == piquet.partie_result(a, c)["winner"]


def test_partie__four_deal_variant_doubles_first_and_fourth():
    s, cfg = _state_at_deal(0, [0, 0], partie="four_deals")
    L.field(s, "deal_score")[0] = [20, 7]
    L.field(s, "tricks")[0] = [6, 6]
    R._end_deal(s, 0, cfg)
    assert L.field(s, "total")[0].tolist() == [40, 14]
    s, cfg = _state_at_deal(3, [100, 90], partie="four_deals")
    L.field(s, "deal_score")[0] = [5, 30]
    L.field(s, "tricks")[0] = [6, 6]
    R._end_deal(s, 0, cfg)
    assert L.field(s, "total")[0].tolist() == [110, 150]
    assert L.field(s, "phase")[0] == K.PHASE_OVER and L.field(s, "winner")[0] == 1


def test_partie__a_random_game_has_six_deals_with_alternating_dealers():
    env, core = new_env()
    rng = np.random.default_rng(3)
    env.reset(seed=11)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if term or trunc else int(rng.choice(legal)))
    rec = core.record()
    res = rec["result"]
    assert len(rec["deals"]) in (6, 8)
    dealers = [d["dealer"] for d in rec["deals"]]
    assert all(a != b for a, b in zip(dealers[:-1], dealers[1:], strict=True))
    totals = np.sum([d["points"] for d in rec["deals"]], axis=0).tolist()
    assert totals == res["totals"]
    assert res == {
        "winner": res["winner"],
        "points": res["points"],
        "totals": totals,
        "deals": len(rec["deals"]),
    }
    if res["winner"] is not None:
        assert piquet.partie_result(*totals)["points"] == res["points"]


# --- documentation checked against the code ---------------------------------------------------
def test_docstring__observation_layout_table_is_generated_from_the_layout():
    table = layout_table(L.OBS_LAYOUT)
    assert table in piquet.__doc__
    assert L.OBS_DIM == sum(f.size for f in L.OBS_LAYOUT)
    env, _ = new_env()
    assert env.observation_space("player_0")["observation"].shape == (L.OBS_DIM,)


def test_docstring__config_table_lists_every_option():
    for name in (f.name for f in dataclasses.fields(C.Config)):
        assert f"`{name}`" in piquet.__doc__


def test_helpers__reject_bad_hands():
    with pytest.raises(ValueError, match="12 distinct"):
        piquet.declarations("AS KS", Y_COUNT)
    with pytest.raises(ValueError, match="not in the piquet deck"):
        piquet.declarations("2S KS QS JS 9S 7H 8H 7D 8D 9D 7C 8C", Y_COUNT)
    with pytest.raises(ValueError, match="share cards"):
        piquet.declarations(E1, E1)
    with pytest.raises(ValueError, match="unknown config"):
        piquet.declarations(E1, Y_COUNT, sets="x")


# --- options named by the spec: claiming carte blanche, "10 for last", cards toward pique --------
CB_Y = "AS 10S 9S 8S 7S AH 10H 9H 8H AD 10D 9D"  # no K, Q, J
CB_E = "KS QS JS 7H KH QH JH 7D KD QD JD 8D"
CB_T = "AC KC QC JC 10C 9C 8C 7C"


@pytest.mark.parametrize("claim", ["claim", "dont_claim"])
def test_carte_blanche__holder_chooses_when_not_automatic(claim):
    env, core = deal(new_env(carte_blanche_auto=False), CB_E, CB_Y, CB_T)
    # every seat decides, elder first, so the turn order betrays nothing; elder cannot claim
    assert core.agent_selection == "player_0"
    assert {core.action_name(a) for a in core.legal_actions()} == {"dont_claim"}
    act(env, core, "dont_claim")
    assert core.agent_selection == "player_1"
    assert {core.action_name(a) for a in core.legal_actions()} == {"claim", "dont_claim"}
    e = core.observe("player_0")["observation"]
    assert obs_block(e, "carte_blanche").tolist() == [0.0, 0.0]  # nothing announced yet
    act(env, core, claim)
    assert core.agent_selection == "player_0"  # then elder exchanges
    claimed = claim == "claim"
    e = core.observe("player_0")["observation"]
    assert obs_block(e, "carte_blanche").tolist() == [0.0, float(claimed)]
    act(env, core, "discard 7H", "stop")
    e = core.observe("player_0")["observation"]
    shown = set(parse_cards(CB_Y)) if claimed else set()
    assert plane_cards(obs_block(e, "opp_carte_blanche")) == shown
    act(env, core, "discard 7S", "stop", "dont_look")
    d = piquet.declarations(CB_E, CB_Y)  # the hands did not change in a way that matters here
    assert d["carte_blanche"]["younger"] == 10
    hand = L.field(core._engine.state, "decl_pts")[0].reshape(2, 3).sum(axis=1)
    assert field(core, "deal_score")[1] == hand[1] + (10 if claimed else 0) + (
        60 if field(core, "bonus")[1] == K.BONUS_REPIQUE else 0
    )


def test_ten_for_last__a_point_per_trick_and_ten_for_the_last():
    env, core = deal(
        new_env(episode="deal", trick_scoring="ten_for_last"), CAPOT_E, CAPOT_Y, CAPOT_T
    )
    act(env, core, *CAPOT_PLAN)
    play_out(env, core, {0: list(CAPOT_LEADS)})
    # hand 101 (repique), 11 tricks x 1, the last trick 1 + 10, capot 40
    assert core.record()["deals"][0]["points"] == [101 + 11 + 11 + 40, 0]


@pytest.mark.parametrize("counts, expected", [(False, [20, 0]), (True, [50, 0])])
def test_cards_bonus_toward_pique__when_configured(counts, expected):
    env, core = deal(new_env(cards_bonus_counts_for_pique=counts), PIQUE_E, PIQUE_Y, PIQUE_T)
    act(env, core, "discard 7C", "stop", "discard 7S", "stop", "dont_look")
    field(core, "deal_score")[0] = 13  # as if elder's hand had made 13
    act(env, core, "play AS", "play 9S", "play KS", "play 8S", "play QS", "play QC")
    act(env, core, "play JS", "play KC", "play 10S", "play 10D", "play AH", "play JH")
    act(env, core, "play AD", "play 8D")  # elder's 7th trick: 20 points, younger none
    assert field(core, "deal_score").tolist() == expected


def _random_parties(env_id: str, partie: str, n: int, seed: int) -> dict:
    """``n`` parties of uniformly random legal play on the batched engine; the number of parties
    level after the regular deals, and every way a partie ended that breaks 2.10 (a list of
    ``(row, deals, totals after the regular deals, final totals)``)."""
    from cardenvs.core.vector import RandomLegal

    venv = cardenvs.make_vector(
        env_id, n, seed=seed, autoreset=False, validate=False, partie=partie
    )
    regular = 6 if partie == "six_deals" else 4
    policy = RandomLegal(seed=seed)
    _, mask, info = venv.reset()
    s = venv.state
    level_at = np.full((n, 2), -1, np.int64)  # the totals when the first extra deal starts
    done = np.zeros(n, bool)
    while not done.all():
        actions = policy(mask)
        actions[done] = 0  # a finished row ignores its action
        _, mask, _, term, _, info = venv.step(actions)
        done |= term
        n_deal = L.field(s, "deal_no") - L.field(s, "redeals")
        start = (n_deal == regular) & (level_at[:, 0] < 0) & ~done
        level_at[start] = L.field(s, "total")[start]
    wrong = []
    for b in range(n):
        res = venv.game.result(s, b, venv.config)
        a, c = res["totals"]
        tied = level_at[b, 0] >= 0
        if res["deals"] not in (regular, regular + 2) or tied != (res["deals"] == regular + 2):
            wrong.append((b, res["deals"], level_at[b].tolist(), res["totals"]))
        elif tied and level_at[b, 0] != level_at[b, 1]:
            wrong.append((b, res["deals"], level_at[b].tolist(), res["totals"]))
        elif res["winner"] != (None if a == c else int(c > a)):
            wrong.append((b, res["deals"], level_at[b].tolist(), res["totals"]))
    return {"tied": int((level_at[:, 0] >= 0).sum()), "wrong": wrong}


@pytest.mark.parametrize("env_id", ["piquet-v0", "auction_piquet-v0"])
@pytest.mark.parametrize("partie", ["six_deals", "four_deals"])
def test_partie__random_play_never_settles_a_tie_before_both_extra_deals(env_id, partie):
    """2.10 over random play (the ``slow`` test below runs 20,000 parties of each): every
    partie level after the regular deals plays both extra deals, every other ends after the
    regular deals, and the higher final total wins."""
    out = _random_parties(env_id, partie, 2000, seed=1)
    assert out["tied"] > 0  # the check saw ties
    assert out["wrong"] == []


@pytest.mark.slow
@pytest.mark.parametrize("env_id", ["piquet-v0", "auction_piquet-v0"])
@pytest.mark.parametrize("partie", ["six_deals", "four_deals"])
def test_partie__random_play_20000_parties(env_id, partie):
    out = _random_parties(env_id, partie, 20000, seed=2)
    assert out["tied"] > 0
    assert out["wrong"] == []
