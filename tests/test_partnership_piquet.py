"""Partnership Piquet (``partnership_piquet-v0``, spec 3.3 on the base game of section 2): one
scenario per rule clause, two full deals from fixed decks with hand-checked scores, the deal from
a fixed deck and what the records' deals hold (the environment contract, PettingZoo api/seed
tests, registry, vector == AEC, autoreset, bad actions, reset options, records and replays, is
the contract suite's: ``test_contract_aec.py``, ``test_contract_vector.py``), and random-play
properties (cards conserved, masks, bounded games, observations in their space, zero-sum
rewards equal for partners, no hidden-information leak)."""

from __future__ import annotations

import numpy as np
import pytest
from harness import (
    act,
    legal_names,
    seat_of,
)
from piquet_multi_checks import block, check_no_leak, deck_for, local, names, random_play_properties

import cardenvs
from cardenvs.games.piquet.multi import constants as MK
from cardenvs.games.piquet.multi import layout as ML
from cardenvs.games.piquet.multi import rules as MR
from cardenvs.games.piquet.multi import rulings as MT

ENV_ID = "partnership_piquet-v0"
P = 4

# Dealer seat 3: eldest seat 0, then 1, 2 and the dealer; seats 0 & 2 play 1 & 3.
HANDS = [
    "AS KS QS JS 10S AH 7D 7C",  # quint to the ace, point 51
    "9S 8S 7S KH QH JH 8D 8C",
    "AD KD QD JD 10D 9D AC 9H",  # six diamonds (60), sixième to the ace
    "KC QC JC 10C 9C 10H 8H 7H",  # quint to the king, point 49
]
DECK = deck_for(HANDS)
TRICKS = [
    ("AS", "7S", "9H", "7H"),
    ("KS", "8S", "AC", "8H"),
    ("QS", "9S", "9D", "10H"),
    ("JS", "8D", "10D", "9C"),
    ("10S", "8C", "JD", "10C"),
    ("AH", "KH", "QD", "JC"),
    ("7D", "QH", "KD", "QC"),  # seat 2 overtakes his partner: no capture point
    ("AD", "KC", "7C", "JH"),  # seat 2 leads the last
]
PIQUE_HANDS = [
    "AS KS QS JS 9S AH AD 7C",  # point 5, quart to the ace 4, trio of aces 3: 12
    "KH JH 9H KD JD 9D AC QC",
    "QH 10H 8H QD 10D 8D KC 10S",  # trio of tens (beaten by the aces)
    "7H 7D JC 10C 9C 8C 8S 7S",  # quart to the jack (beaten by the ace's)
]
PIQUE_TRICKS = [
    ("7C", "QC", "KC", "8C"),  # seat 2 takes his partner's lead: no capture
    ("8H", "7H", "AH", "9H"),  # seat 2 leads (a point for the side)
    ("AS", "JH", "10S", "7S"),
    ("KS", "KH", "QH", "8S"),
    ("QS", "9D", "10H", "7D"),
    ("JS", "JD", "8D", "9C"),
    ("9S", "KD", "10D", "10C"),
]


def fixed(deck=DECK, dealer=3, **config):
    env = cardenvs.make(ENV_ID, illegal_action="raise", **config)
    env.reset(seed=0, options={"deck": deck, "dealer": dealer})
    return env, env.unwrapped


def state(core, name):
    return ML.field(core._engine.state, name)[0]


def play_tricks(env, core, tricks):
    for trick in tricks:
        act(env, core, *[f"play {c}" for c in trick])


def rewards(env):
    return [env.rewards[f"player_{i}"] for i in range(P)]


# --- the hand-checked deals --------------------------------------------------------------------
def test_partnership__full_deal_from_a_fixed_deck_scores_as_checked_by_hand():
    """No exchange: play starts at once. Point by value: seat 2's diamonds (60) beat 51, 49, 30
    → 6 (one per card). Sequences: his sixième to the ace (16) beats the quints → 16. No sets.
    Side 0 (seats 0 & 2): 6 + 16 = 22 in hand before side 1 scores: repique, 92. Play: side 0
    takes all 8 tricks: 8 leads + 1 last, no capture (seat 2 overtook his partner's 7D), capot
    40. Deal: side 0 92 + 9 + 40 = 141, side 1 0."""
    env, core = fixed(episode="deal")
    assert state(core, "phase") == MK.PHASE_PLAY and seat_of(env) == 0
    assert not any(n.startswith("discard") or n == "stop" for n in legal_names(core))
    assert list(state(core, "decl_win")) == [2, 2, MK.OUTCOME_NONE]
    assert list(state(core, "decl_pts")) == [6, 16, 0]
    assert list(state(core, "deal_score")[:2]) == [92, 0]
    assert state(core, "bonus")[0] == MK.BONUS_REPIQUE
    assert names(state(core, "shown")[2]) == set(HANDS[2].split()) - {"AC", "9H"}
    play_tricks(env, core, TRICKS)
    assert list(state(core, "tricks")) == [6, 0, 2, 0]
    rec = core.record()
    assert rec["deals"][0]["points"] == [141, 0, 141, 0]
    assert rec["result"]["winners"] == [0, 2] and rec["result"]["winner"] == 0
    assert rewards(env) == [1.0, -1.0, 1.0, -1.0]  # shared by partners
    assert cardenvs.replay(rec) == rec


def test_partnership__pique_from_20_in_hand_and_play_counts_the_partners_points():
    """Side 0 reckons 12 in hand (seat 0: point 5, quart 4, trio of aces 3); seat 2's lead in
    trick 2 counts for the side; the eighth lead brings it to 20 before side 1 has scored:
    60 (+40). Then the last trick 1 and capot 40: 101."""
    env, core = fixed(deck=deck_for(PIQUE_HANDS), episode="deal", reward="score")
    assert list(state(core, "decl_win")) == [0, 0, 0]
    assert list(state(core, "deal_score")[:2]) == [12, 0]
    play_tricks(env, core, PIQUE_TRICKS)
    assert list(state(core, "deal_score")[:2]) == [19, 0] and state(core, "bonus")[0] == 0
    act(env, core, "play AD")
    assert state(core, "deal_score")[0] == 60 and state(core, "bonus")[0] == MK.BONUS_PIQUE
    x = env.observe("player_1")["observation"]
    bonus = block(x, P, "bonus").reshape(P, 2)
    assert bonus[:, 0].tolist() == [0, 1, 0, 1]  # seats 2 and 0, to his left by 1 and 3
    act(env, core, "play AC", "play QD", "play JC")
    assert core.record()["deals"][0]["points"] == [101, 0, 101, 0]
    assert rewards(env) == [101.0, -101.0, 101.0, -101.0]


# --- declarations (3.3, A21) -------------------------------------------------------------------
def decl(hands, dealer=3, **config):
    """The declarations helper; short hands would be cartes blanches, so that is off unless
    asked for."""
    config.setdefault("carte_blanche", False)
    return MT.declarations(hands, dealer=dealer, variant="partnership", **config)


def test_partnership__point_by_value_needs_the_minimum():
    """Short hands (the helper takes any): A K 8 of spades is 29, below 30: nobody announces."""
    hands = ["AS KS 8S 7H", "AH 8H 7D", "9D 8C 7C", "KD 9C"]
    assert decl(hands)["point"] == {"winner": None, "points": 0}
    assert decl(hands, point_minimum=29)["point"] == {"winner": 0, "points": 3}
    assert MR.point_by_value(np.uint64(sum(1 << (0 * 13 + r) for r in (12, 11, 6)))) == (
        29,
        3,
        0,
    )


@pytest.mark.parametrize(
    ("dealer", "winner"),
    [(3, 0), (0, 1), (1, 2), (2, 3)],
)
def test_partnership__an_equal_point_goes_to_the_earlier_speaker(dealer, winner):
    """Four equal points of 40 (A K Q 9): a player speaks only with a higher point (the partner
    restriction of the seed, ADP's rule for opponents), so eldest (the dealer's left) keeps it."""
    hands = ["AS KS QS 9S", "AH KH QH 9H", "AD KD QD 9D", "AC KC QC 9C"]
    assert decl(hands, dealer=dealer)["point"] == {"winner": winner, "points": 4}


def test_partnership__partners_equal_point_the_later_one_cannot_announce():
    hands = ["AS KS QS 9S 7C", "7H 8H", "AD KD QD 9D 8C", "JC 9C"]
    out = decl(hands)
    assert out["point"] == {"winner": 0, "points": 4}  # seat 2 (his partner) also has 40
    out = decl(hands, dealer=1)  # seat 2 speaks first now
    assert out["point"] == {"winner": 2, "points": 4}


def test_partnership__the_best_player_scores_all_his_sequences_equal_best_cancels():
    hands = [
        "AS KS QS 7S 8S 9S",  # tierce to the ace + tierce to the nine: 6
        "JH 10H 9H",  # tierce to the jack
        "KD QD JD",
        "7C 8C",
    ]
    assert decl(hands)["sequence"] == {"winner": 0, "points": 6}
    hands[1] = "AH KH QH"  # an equal best (even between opponents) cancels every sequence
    assert decl(hands)["sequence"] == {"winner": "equal", "points": 0}
    hands[1] = "JH 10H 9H 8H"  # a quart beats the tierces
    assert decl(hands)["sequence"] == {"winner": 1, "points": 4}


def test_partnership__sets_the_best_player_scores_all_his_sets():
    hands = ["AS AH AD KS KH KD", "QS QH QD QC", "JS JH JD", "10S 10H"]
    assert decl(hands)["sets"] == {"winner": 1, "points": 14}
    hands[1] = "QS QH QD 7C"
    assert decl(hands)["sets"] == {"winner": 0, "points": 6}


def test_partnership__repique_counts_the_sides_combinations_from_both_partners():
    """Seat 0 wins the point (5 spades, 47: 5), his partner the sequences (quint 15): the side
    reaches 20 in hand before the other side scores: 90."""
    hands = [
        "AS KS QS 9S 7S",  # point A K Q 9 7 = 47 (5 cards); tierce to the ace
        "7H 8H",
        "JD 10D 9D 8D 7D",  # quint to the jack 15; point 44 (5 cards) loses to 47
        "7C",
    ]
    out = decl(hands)
    assert out["point"] == {"winner": 0, "points": 5}
    assert out["sequence"] == {"winner": 2, "points": 15}
    assert out["repique"] == 0 and out["scores"] == [5 + 15 + 70, 0]


def test_partnership__carte_blanche_scores_for_the_side_and_blocks_the_repique():
    hands = [
        "AS KS QS 9S 7S",
        "AH 10H 9H 8H 7C 8C",  # no K, Q, J: carte blanche 10 for side 1
        "JD 10D 9D 8D 7D",
        "JH",
    ]
    out = decl(hands, carte_blanche=True)
    assert out["carte_blanche"] == [1]
    assert out["repique"] is None and out["scores"] == [20, 10]
    hands[3] = "7H"  # two cartes blanches of one side: 20 in hand first, a repique
    out = decl(hands, carte_blanche=True)
    assert out["carte_blanche"] == [1, 3] and out["repique"] == 1 and out["scores"] == [20, 90]
    assert decl(hands, carte_blanche=False)["repique"] == 0


# --- observations ------------------------------------------------------------------------------
def test_partnership__observation_is_egocentric_and_partners_share_scores():
    env, core = fixed()
    act(env, core, "play AS", "play 7S")
    for seat in range(4):
        x = env.observe(f"player_{seat}")["observation"]
        played = block(x, P, "played").reshape(P, 32)
        assert np.flatnonzero(played[(0 - seat) % 4]).tolist() == [local("AS")]
        assert np.flatnonzero(played[(1 - seat) % 4]).tolist() == [local("7S")]
        assert np.flatnonzero(block(x, P, "dealer")).tolist() == [(3 - seat) % 4]
        score = block(x, P, "deal_score")
        assert score[0] == score[2] and score[1] == score[3]  # partners: k and k + 2
        mine = 0.93 if seat % 2 == 0 else 0.0  # side 0: 92 in hand + 1 lead
        assert score[0] == pytest.approx(mine)
        outcome = block(x, P, "decl_outcome").reshape(3, P + 2)
        assert np.flatnonzero(outcome[0]).tolist() == [(2 - seat) % 4]
        assert np.flatnonzero(outcome[2]).tolist() == [P + 1]  # nobody has sets
        assert not block(x, P, "own_discards").any() and not block(x, P, "talon_seen").any()


# --- the game to the target ----------------------------------------------------------------------
def test_partnership__the_first_side_over_the_target_wins_the_game():
    env, core = fixed(target=100)
    play_tricks(env, core, TRICKS)  # side 0: 141
    rec = core.record()
    assert rec["result"]["totals"] == [141, 0, 141, 0] and len(rec["deals"]) == 1
    assert rewards(env) == [1.0, -1.0, 1.0, -1.0]
    env, core = fixed(target=142)
    play_tricks(env, core, TRICKS)
    assert core.legal_actions() and state(core, "deal_no") == 1 and state(core, "dealer") == 0


def test_partnership__equal_totals_over_the_target_play_another_deal():
    env, core = fixed(target=100)
    play_tricks(env, core, TRICKS[:7])
    ML.field(core._engine.state, "total")[0, 1] = 141  # side 1 will end equal with side 0
    play_tricks(env, core, TRICKS[7:])
    assert core.legal_actions() and state(core, "deal_no") == 1


# --- the environment beyond the contract -------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_partnership__deck_option_deals_from_the_dealers_left(dealer):
    env, core = fixed(dealer=dealer)
    for k, cards in enumerate(HANDS):
        x = env.observe(f"player_{(dealer + 1 + k) % 4}")["observation"]
        assert set(np.flatnonzero(block(x, P, "hand")).tolist()) == {
            local(c) for c in cards.split()
        }
    assert seat_of(env) == (dealer + 1) % 4  # eldest leads
    rec = core.record()
    assert rec["deals"][0]["deck"] == DECK and rec["deals"][0]["dealer"] == dealer


@pytest.mark.parametrize("seed", [0, 1])
def test_partnership__record_deals_follow_the_rules(seed):
    """Beyond the contract's record checks (``test_contract_aec.py``: JSON, deck, replay,
    tampering, on this config): the deal rotating, 32 cards a deal, partners sharing points,
    the running totals and the result's."""
    env = cardenvs.make(ENV_ID, target=60)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while env.unwrapped.legal_actions():
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    rec = env.unwrapped.record()
    totals = [0, 0, 0, 0]
    for i, deal in enumerate(rec["deals"]):
        assert (
            sorted(deal["deck"]) == sorted(DECK)
            and deal["dealer"] == (rec["deals"][0]["dealer"] + i) % 4
        )
        assert len(deal["actions"]) == 32
        assert deal["points"][0] == deal["points"][2] and deal["points"][1] == deal["points"][3]
        totals = [t + p for t, p in zip(totals, deal["points"], strict=True)]
        assert deal["totals"] == totals
    assert rec["result"]["totals"] == totals and max(totals) >= 60


# --- random-play properties --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seed", "config"),
    [(0, {"target": 60}), (1, {"point_minimum": 0, "set_ranks": "KQJT"}), (2, {"episode": "deal"})],
)
def test_partnership__random_play_properties(seed, config):
    random_play_properties(ENV_ID, seed, **config)


def test_partnership__leak_check_can_fail():
    """An observation that read the partner's hand would be caught."""
    venv = cardenvs.make_vector(ENV_ID, 4, seed=1)
    venv.reset()
    real = venv.observe

    def leaky(seats):
        out = real(seats)
        s = np.broadcast_to(np.asarray(seats), (venv.num_envs,))
        partner = ML.field(venv.state, "hand")[np.arange(venv.num_envs), (s + 2) % 4]
        out[:, -1] = (partner % np.uint64(997)).astype(np.float32)
        return out

    venv.observe = leaky
    rng = np.random.default_rng(0)
    with pytest.raises(AssertionError, match="information leak"):
        for _ in range(6):  # one swap could miss the partner's hand; six cannot all miss
            check_no_leak(venv, 0, rng, MK.PARTNERSHIP_HAND)
