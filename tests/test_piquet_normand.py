"""Piquet normand (``piquet_normand-v0``, spec 3.4 on the base game of section 2): one scenario
per rule clause, a full deal from a fixed deck with hand-checked scores, the deal from a fixed
deck and the records' totals (the environment contract, PettingZoo api/seed tests, registry,
vector == AEC, autoreset, bad actions, reset options, records and replays, is the contract
suite's: ``test_contract_aec.py``, ``test_contract_vector.py``), and random-play properties
(cards conserved, masks, bounded games, observations in their space, zero-sum rewards, no
hidden-information leak)."""

from __future__ import annotations

import numpy as np
import pytest
from harness import (
    act,
    legal_names,
    seat_of,
)
from piquet_multi_checks import (
    block,
    check_no_leak,
    deck_for,
    local,
    names,
    random_play_properties,
)

import cardenvs
from cardenvs.games.piquet.multi import constants as MK
from cardenvs.games.piquet.multi import layout as ML
from cardenvs.games.piquet.multi import rulings as MT

ENV_ID = "piquet_normand-v0"
P = 3

# The hand-checked deal (dealer seat 2; eldest seat 0, then seat 1; the dealer's 10; talon)
EAST = "AS KS QS JS 10S AH KH QH AD 7C"  # seat 0, eldest
SOUTH = "9S 8S 7S JH 10H 9H 8H 7H KD QD"  # seat 1
DEALER = "JD 10D 9D 8D 7D KC QC JC 10C 9C"  # seat 2
TALON = "AC 8C"
DECK = deck_for([EAST, SOUTH, DEALER], TALON)
# ten tricks, eldest leading: he wins them all (capot)
TRICKS = [
    ("AS", "7S", "8C"),
    ("KS", "8S", "9C"),
    ("QS", "9S", "10C"),
    ("JS", "7H", "JC"),
    ("10S", "8H", "QC"),
    ("AH", "9H", "KC"),
    ("KH", "10H", "AC"),
    ("QH", "JH", "9D"),
    ("AD", "KD", "10D"),
    ("7C", "QD", "JD"),
]


def fixed(deck=DECK, dealer=2, **config):
    env = cardenvs.make(ENV_ID, illegal_action="raise", **config)
    env.reset(seed=0, options={"deck": deck, "dealer": dealer})
    return env, env.unwrapped


def state(core, name):
    return ML.field(core._engine.state, name)[0]


def play_tricks(env, core, tricks):
    for trick in tricks:
        for card in trick:
            act(env, core, f"play {card}")


# --- the hand-checked deal ---------------------------------------------------------------------
def test_normand__full_deal_from_a_fixed_deck_scores_as_checked_by_hand():
    """Dealer (seat 2) discards 7D 8D and takes AC 8C: clubs A-8 (7 cards, 68) and JD 10D 9D.
    Point: the dealer's 7 cards beat 5 and 5 → 7. Sequences: his septième to the ace beats the
    quints → 17 + tierce 3 = 20; at 27 in hand before anyone scored: repique, 90 + 7 = 97.
    Sets: eldest's trio of aces 3 (the fourth ace is the dealer's). Play: eldest leads and
    wins all ten tricks: 10 leads + 1 last + capot 20 = 31; no pique (the dealer has scored).
    Deal: eldest 3 + 31 = 34, seat 1 0, the dealer 97."""
    env, core = fixed(episode="deal")
    assert seat_of(env) == 2
    assert legal_names(core) == {f"discard {c}" for c in DEALER.split() if c != "KC"}
    act(env, core, "discard 7D", "discard 8D")  # the exchange ends by itself at two
    assert names(state(core, "hand")[2]) == set("JD 10D 9D KC QC JC 10C 9C AC 8C".split())
    assert list(state(core, "decl_win")) == [2, 2, 0]
    assert list(state(core, "decl_pts")) == [7, 20, 3]
    assert list(state(core, "deal_score")[:3]) == [3, 0, 97]
    assert state(core, "bonus")[2] == MK.BONUS_REPIQUE
    assert seat_of(env) == 0  # eldest leads
    play_tricks(env, core, TRICKS)
    assert list(state(core, "tricks")[:3]) == [10, 0, 0]
    rec = core.record()
    assert rec["deals"][0]["points"] == [34, 0, 97]
    assert rec["result"]["winners"] == [2] and rec["result"]["losers"] == [0, 1]
    # episode="deal", reward="win": the top scorer gets 1 from the two others
    assert [env.rewards[f"player_{i}"] for i in range(3)] == [-0.5, -0.5, 1.0]
    assert cardenvs.replay(rec) == rec


def test_normand__score_reward_is_the_winners_lead_over_the_losers_mean():
    env, core = fixed(episode="deal", reward="score")
    act(env, core, "discard 7D", "discard 8D")
    play_tricks(env, core, TRICKS)
    # the dealer wins 97 - mean(34, 0) = 80, paid 40 by each
    assert [env.rewards[f"player_{i}"] for i in range(3)] == [-40.0, -40.0, 80.0]


# --- the exchange (3.4) ------------------------------------------------------------------------
def test_normand__only_the_dealer_exchanges_exactly_two_in_canonical_order():
    env, core = fixed()
    assert seat_of(env) == 2 and "stop" not in legal_names(core)
    # the first of two forced discards is never his highest card (nothing could follow it)
    assert legal_names(core) == {f"discard {c}" for c in DEALER.split() if c != "KC"}
    act(env, core, "discard 9D")
    # canonical order: only cards above the last discard (9D = index 18)
    assert legal_names(core) == {f"discard {c}" for c in DEALER.split() if local(c) > local("9D")}
    with pytest.raises(ValueError, match="not legal"):
        act(env, core, "discard 7D")
    act(env, core, "discard KC")
    assert state(core, "phase") == MK.PHASE_PLAY and seat_of(env) == 0
    assert names(state(core, "discards")) == {"9D", "KC"}
    assert state(core, "talon_pos") == 2


def test_normand__may_exchange_lets_the_dealer_stop_and_see_the_talon_privately():
    env, core = fixed(normand_dealer_exchange="may")
    assert "stop" in legal_names(core)
    act(env, core, "discard 7D", "stop")  # one card: he takes AC and sees 8C
    assert "AC" in names(state(core, "hand")[2]) and "8C" not in names(state(core, "hand")[2])
    for seat in range(3):
        x = env.observe(f"player_{seat}")["observation"]
        seen = np.flatnonzero(block(x, P, "talon_seen")).tolist()
        disc = np.flatnonzero(block(x, P, "own_discards")).tolist()
        assert seen == ([local("8C")] if seat == 2 else [])
        assert disc == ([local("7D")] if seat == 2 else [])
        assert block(x, P, "exchanged")[0] == 0.5  # the number taken is public


def test_normand__may_exchange_with_no_card_keeps_the_talon():
    env, core = fixed(normand_dealer_exchange="may")
    act(env, core, "stop")
    assert names(state(core, "hand")[2]) == set(DEALER.split())
    assert names(state(core, "seen")) == {"AC", "8C"}


# --- declarations among three (3.4, 2.5) -------------------------------------------------------
def decl(hands, dealer=2, **config):
    return MT.declarations(hands, dealer=dealer, variant="normand", **config)


def test_normand__point_by_cards_then_value_among_three():
    hands = [
        "AS KS 9S 8S 7H 8H 9H JD QD KC",  # spades 4 (38)
        "10S JS QS 7S 10H AD 9D 8D 7D 9C",  # spades 4 (37); diamonds 4 (35)
        "AH KH QH JH AC 10C JC QC 8C 7C",  # clubs 6 (56)
    ]
    out = decl(hands)
    assert out["point"] == {"winner": 2, "points": 6}
    # equal counts: the value decides (short hands: the helper takes any hands)
    assert decl(["AS KS 9S 8S", "10H JH QH 7H", "AD 7D 8C"])["point"] == {
        "winner": 0,
        "points": 4,
    }
    assert decl(["AS KS 9S 7S", "10H JH QH 8H", "AD 7D 8C"])["point"]["winner"] == 1


def test_normand__equal_best_point_cancels_for_everybody_and_is_shown():
    """Seats 0 and 1 both hold A K 9 8 (4 cards, 38): nobody scores the point (2.5), not even
    the dealer's lower one; both point suits are shown when play starts."""
    hands = [
        "AS KS 9S 8S 7H 10H 7D 8D 7C 8C",
        "AH KH 9H 8H JS 10S QD JD 9C 10C",
        "QS 7S JH QH KD AD 9D KC JC QC",
    ]
    assert decl(hands)["point"] == {"winner": "equal", "points": 0}
    env, core = fixed(deck=deck_for(hands, "10D AC"), dealer=2)
    act(env, core, "discard AD", "discard KC")  # keeps him at 3 cards a suit
    shown = [names(m) for m in state(core, "shown")[:3]]
    assert shown[0] >= {"AS", "KS", "9S", "8S"} and shown[1] >= {"AH", "KH", "9H", "8H"}
    assert state(core, "decl_win")[0] == MK.OUTCOME_EQUAL


def test_normand__equal_best_sequence_cancels_all_sequences():
    hands = [
        "AS KS QS 7H 8H 9H 7D 10D JD 7C",  # tierce to A in spades (and 7-8-9 hearts)
        "AH KH QH 8S 9S 10S 8D QD KD 8C",  # tierce to A in hearts (and 8-9-10 spades)
        "JS 7S 10H JH AD 9D 9C 10C JC QC",  # quart to the queen? 9C 10C JC QC = quart: wins
    ]
    out = decl(hands)
    assert out["sequence"]["winner"] == 2 and out["sequence"]["points"] == 4
    hands[2] = "JS 7S 10H JH AD 9D 9C 10C KC AC"  # no sequence now
    out = decl(hands)
    assert out["sequence"] == {"winner": "equal", "points": 0}


def test_normand__sets_quatorze_beats_trio_and_the_winner_scores_all_his_sets():
    hands = [
        "AS AH AD KS KH KD 7S 8S 9S 7H",  # trio of aces and of kings: 6
        "10S 10H 10D 10C 8H 9H 7D 8D 9D 7C",  # quatorze of tens: 14 beats them
        "QS QH QD JS JH JD AC KC 8C 9C",  # trios of queens and jacks
    ]
    out = decl(hands)
    assert out["sets"] == {"winner": 1, "points": 14}
    assert decl(hands, set_ranks="KQJT")["sets"]["winner"] == 1
    hands[1] = "10S 10H 10D JC 8H 9H 7D 8D 9D 7C"
    hands[2] = "QS QH QD JS JH JD AC KC 8C 10C"
    out = decl(hands)
    assert out["sets"] == {"winner": 0, "points": 6}
    # the seed's set ranks (no aces): eldest's trio of kings alone still beats the queens
    assert decl(hands, set_ranks="KQJT")["sets"] == {"winner": 0, "points": 3}


def test_normand__repique_from_20_in_hand_before_anyone_scores_goes_to_90():
    """Eldest: point 6 (hearts A-9, 60) + sixième to the ace 16 = 22 ≥ 20 before anyone has
    scored: 90 + 2 = 92 (+70)."""
    hands = [
        "AH KH QH JH 10H 9H 7S 8D 7C 8C",  # 6 hearts 60: point 6, sixième to A 16
        "AS KS QS 9S 8S JD 10D QD 9C 10C",
        "JS 10S 7H 8H 7D 9D KD AD JC QC",
    ]
    out = decl(hands)
    assert out["point"]["winner"] == 0 and out["sequence"]["winner"] == 0
    assert out["repique"] == 0 and out["scores"] == [6 + 16 + 70, 0, 0]


CB_HANDS = [
    "AH KH QH JH 10H 9H 7S 8D KC QC",  # point 6 + sixième 16 = 22
    "AS 10S 9S 8S AD 10D 9D 7D 7C 8C",  # no K, Q, J: carte blanche
    "KS QS JS 7H 8H KD QD JD 9C 10C",
]


def test_normand__carte_blanche_scores_10_first_and_blocks_the_repique():
    """Seat 1's carte blanche (10) is reckoned first, so eldest's 22 in hand is no repique."""
    out = decl(CB_HANDS)
    assert out["carte_blanche"] == [1]
    assert out["repique"] is None and out["scores"] == [22, 10, 0]
    assert decl(CB_HANDS, carte_blanche=False)["repique"] == 0


def test_normand__carte_blanche_hand_becomes_public_when_play_starts():
    env, core = fixed(deck=deck_for(CB_HANDS, "AC JC"), dealer=2)
    x = env.observe("player_0")["observation"]
    assert not block(x, P, "shown").any() and not block(x, P, "carte_blanche").any()
    act(env, core, "discard 7H", "discard 8H")
    x = env.observe("player_0")["observation"]
    shown = block(x, P, "shown").reshape(P, 32)
    assert set(np.flatnonzero(shown[1]).tolist()) >= {local(c) for c in CB_HANDS[1].split()}
    assert block(x, P, "carte_blanche").tolist() == [0, 1, 0]
    assert state(core, "deal_score")[1] == 10


PIQUE_HANDS = [
    "AS KS QS JS 9S AH KH AD KD 7C",  # point 5, quart to the ace 4, trios A and K 6: 15
    "AC QC 10C 8C QH 10H 8H QD 10D 8D",  # no sequence, 4 clubs, trio of queens
    "KC JC 9C JH 9H 7H JD 9D 7D 10S",  # the dealer; takes 8S 7S
]


def test_normand__pique_20_in_hand_and_play_before_the_others_score_goes_to_60():
    """Eldest reckons 15 in hand (no repique), the others nothing; his fifth lead brings him to
    20 before anyone else has scored: 60 (+40)."""
    env, core = fixed(deck=deck_for(PIQUE_HANDS, "8S 7S"), dealer=2)
    act(env, core, "discard 7H", "discard 7D")
    assert list(state(core, "deal_score")[:3]) == [15, 0, 0]
    assert list(state(core, "decl_win")) == [0, 0, 0]
    for trick in [("AS", "8C", "7S"), ("KS", "8D", "8S"), ("QS", "8H", "10S"), ("JS", "10D")]:
        act(env, core, *[f"play {c}" for c in trick])
    act(env, core, "play 9D")
    assert state(core, "deal_score")[0] == 19 and state(core, "bonus")[0] == 0
    act(env, core, "play AH")
    assert state(core, "deal_score")[0] == 60 and state(core, "bonus")[0] == MK.BONUS_PIQUE
    x = env.observe("player_1")["observation"]
    assert block(x, P, "bonus").reshape(P, 2)[2].tolist() == [1, 0]  # eldest = two to his left


def test_normand__no_pique_once_another_player_has_scored():
    env, core = fixed(deck=deck_for(PIQUE_HANDS, "8S 7S"), dealer=2)
    act(env, core, "discard 7H", "discard 7D")
    act(env, core, "play 7C", "play AC", "play 9C")  # seat 1 captures: 1
    assert list(state(core, "deal_score")[:3]) == [16, 1, 0]
    for trick in [("QC", "KC", "AS"), ("JH", "AH", "QH")]:
        act(env, core, *[f"play {c}" for c in trick])
    # seat 1 led QC (+1), seat 2 captured with KC (+1), led JH (+1), eldest captured (+1)
    assert list(state(core, "deal_score")[:3]) == [17, 2, 2]
    assert state(core, "bonus")[:3].tolist() == [0, 0, 0]


@pytest.mark.parametrize(
    ("tricks", "bonus"),
    [((4, 4, 2), None), ((5, 3, 2), 0), ((3, 3, 4), 2), ((10, 0, 0), 0)],
)
def test_normand__plurality_of_tricks_scores_10_a_tie_nothing_capot_20(tricks, bonus):
    """The end-of-deal reckoning on a state with the given tricks (3.4, A22)."""
    env, core = fixed(episode="deal")
    act(env, core, "discard 7D", "discard 8D")
    play_tricks(env, core, TRICKS[:9])
    s = core._engine.state
    ML.field(s, "tricks")[0, :3] = [t - (1 if i == 0 else 0) for i, t in enumerate(tricks)]
    before = ML.field(s, "deal_score")[0, :3].copy()
    play_tricks(env, core, TRICKS[9:])  # eldest wins the last: tricks as given
    got = core.record()["deals"][0]["points"]
    extra = [0, 0, 0]
    extra[0] += 1 + 1  # the lead and the last trick
    if bonus is not None:
        extra[bonus] += 20 if max(tricks) == 10 else 10
    assert got == [int(before[i]) + extra[i] for i in range(3)], (got, before)


# --- the game to the target: drop out, continue, pay both winners (3.4) -------------------------
def test_normand__first_to_the_target_drops_out_and_the_other_two_play_on():
    env, core = fixed(target=50)
    act(env, core, "discard 7D", "discard 8D")
    play_tricks(env, core, TRICKS)
    # deal 1: [34, 0, 97]: the dealer is out; the deal passes to seat 0
    assert list(state(core, "finished")[:3]) == [0, 0, 1]
    assert state(core, "deal_no") == 1 and state(core, "dealer") == 0
    assert state(core, "hand")[2] == 0 and state(core, "phase") == MK.PHASE_EXCHANGE
    x = env.observe("player_0")["observation"]
    assert block(x, P, "in_game").tolist() == [1, 1, 0]
    rng = np.random.default_rng(0)
    while core.legal_actions():
        assert seat_of(env) != 2, "a player who is out never acts"
        if state(core, "phase") == MK.PHASE_PLAY and state(core, "trick_n") == 0:
            h = [bin(int(x)).count("1") for x in state(core, "hand")[:3]]
            assert h[2] == 0 and h[0] == h[1], h  # two hands of equal size, the third dead
        env.step(int(rng.choice(core.legal_actions())))
    rec = core.record()
    res = rec["result"]
    assert res["finished"][2] == 1 and res["winner"] == 2
    assert 2 in res["winners"] and len(res["winners"]) == 2
    assert len(res["losers"]) == 1 and res["totals"][res["losers"][0]] < 50
    for i, deal in enumerate(rec["deals"][1:], start=1):
        assert deal["points"][2] == 0, f"deal {i}: the player who is out scores nothing"
    rew = [env.rewards[f"player_{i}"] for i in range(3)]
    want = [1.0, 1.0, 1.0]
    want[res["losers"][0]] = -2.0
    assert rew == want  # the loser pays both winners
    assert cardenvs.replay(rec) == rec


def test_normand__two_players_alone_play_ten_tricks_of_two_cards():
    env, core = fixed(target=50)
    act(env, core, "discard 7D", "discard 8D")
    play_tricks(env, core, TRICKS)
    for _ in range(2):
        env.step(core.legal_actions()[0])
    assert state(core, "phase") == MK.PHASE_PLAY and seat_of(env) == 1  # eldest: dealer's left
    for _ in range(10):
        leader = seat_of(env)
        env.step(core.legal_actions()[0])
        assert seat_of(env) == 1 - leader  # the next player still in
        env.step(core.legal_actions()[0])
        if state(core, "deal_no") > 1 or state(core, "phase") == MK.PHASE_OVER:
            break
    assert core.record()["deals"][1]["actions"][-1][1].startswith("play")
    assert len(core.record()["deals"][1]["actions"]) == 2 + 20


@pytest.mark.parametrize(
    ("totals", "earlier", "losers", "winner"),
    [
        ([120, 130, 90], True, [2], 1),  # the last two, one short: he pays both
        ([120, 130, 110], True, [2], 1),  # both reach it in this deal: the lower total fails
        ([110, 130, 110], True, [0, 2], 1),  # equal: they fail together
        ([101, 130, 100], False, [2], 1),  # all three at once: the lowest fails
        ([100, 100, 100], False, [], None),  # all equal: a draw
    ],
)
def test_normand__who_fails_when_the_last_reach_the_target_together(
    totals, earlier, losers, winner
):
    """The settlement at the end of a deal whose totals become ``totals`` (target 100); with
    ``earlier`` seat 1 reached the target in an earlier deal (he is marked out before the last
    card of the deal is played, so that this trick has two cards left)."""
    env, core = fixed(target=100)
    act(env, core, "discard 7D", "discard 8D")
    play_tricks(env, core, TRICKS[:9])
    s = core._engine.state
    ML.field(s, "deal_no")[0] = 1
    ML.field(s, "deal_score")[0, :3] = 0
    ML.field(s, "bonus")[0, :3] = 0
    # the last trick adds 1 lead + 1 last + 20 capot to eldest (seat 0)
    ML.field(s, "total")[0, :3] = [totals[0] - 22, totals[1], totals[2]]
    act(env, core, "play 7C", "play QD")
    if earlier:
        ML.field(s, "finished")[0, 1] = 1
    act(env, core, "play JD")
    res = core.record()["result"]
    assert res["totals"] == totals and res["losers"] == losers and res["winner"] == winner
    rew = [env.rewards[f"player_{i}"] for i in range(3)]
    assert abs(sum(rew)) < 1e-9
    if losers:
        for i in range(3):
            assert rew[i] == (-(3 - len(losers)) / len(losers) if i in losers else 1.0)
    else:
        assert rew == [0.0, 0.0, 0.0]


# --- observations ------------------------------------------------------------------------------
def test_normand__observation_is_egocentric():
    env, core = fixed()
    act(env, core, "discard 7D", "discard 8D", "play AS", "play 7S")
    for seat in range(3):
        x = env.observe(f"player_{seat}")["observation"]
        played = block(x, P, "played").reshape(P, 32)
        # relative seat k = k places to the left: eldest (seat 0) played AS, seat 1 played 7S
        assert np.flatnonzero(played[(0 - seat) % 3]).tolist() == [local("AS")]
        assert np.flatnonzero(played[(1 - seat) % 3]).tolist() == [local("7S")]
        assert np.flatnonzero(block(x, P, "dealer")).tolist() == [(2 - seat) % 3]
        assert np.flatnonzero(block(x, P, "trick_leader")).tolist() == [(0 - seat) % 3]
        assert np.flatnonzero(block(x, P, "trick_lead")).tolist() == [local("AS")]
        assert set(np.flatnonzero(block(x, P, "table")).tolist()) == {local("AS"), local("7S")}
        outcome = block(x, P, "decl_outcome").reshape(3, P + 2)
        assert np.flatnonzero(outcome[0]).tolist() == [(2 - seat) % 3]  # the dealer's point
        scores = block(x, P, "deal_score")
        assert scores[(2 - seat) % 3] == pytest.approx(0.97)


# --- the environment beyond the contract -------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_normand__deck_option_deals_from_the_dealers_left_then_the_talon(dealer):
    env, core = fixed(dealer=dealer)
    for k, cards in enumerate([EAST, SOUTH, DEALER]):
        seat = (dealer + 1 + k) % 3
        x = env.observe(f"player_{seat}")["observation"]
        assert set(np.flatnonzero(block(x, P, "hand")).tolist()) == {
            local(c) for c in cards.split()
        }
    rec = core.record()
    assert rec["deals"][0]["deck"] == DECK and rec["deals"][0]["dealer"] == dealer
    assert seat_of(env) == dealer  # the dealer exchanges first
    act(env, core, *[f"discard {c}" for c in sorted(DEALER.split(), key=local)[:2]])
    assert names(state(core, "hand")[dealer]) >= set(TALON.split())


@pytest.mark.parametrize("seed", [0, 1])
def test_normand__record_totals_add_up_the_deals(seed):
    """Beyond the contract's record checks (``test_contract_aec.py``: JSON, deck, dealer,
    replay, tampering, on this config): each deal's running totals and the result's."""
    env = cardenvs.make(ENV_ID, target=60)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while env.unwrapped.legal_actions():
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    rec = env.unwrapped.record()
    totals = [0, 0, 0]
    for deal in rec["deals"]:
        totals = [t + p for t, p in zip(totals, deal["points"], strict=True)]
        assert deal["totals"] == totals
    assert rec["result"]["totals"] == totals


# --- random-play properties --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seed", "config"),
    [
        (0, {"target": 60}),
        (1, {"normand_dealer_exchange": "may", "target": 40}),
        (2, {"episode": "deal", "reward": "score"}),
    ],
)
def test_normand__random_play_properties(seed, config):
    rewards, steps = random_play_properties(ENV_ID, seed, **config)
    assert (rewards.max(axis=1) > 0).any()


def test_normand__leak_check_can_fail():
    """An observation that read the next seat's hand would be caught."""
    venv = cardenvs.make_vector(ENV_ID, 4, seed=1)
    venv.reset()
    real = venv.observe

    def leaky(seats):
        out = real(seats)
        s = np.broadcast_to(np.asarray(seats), (venv.num_envs,))
        nxt = ML.field(venv.state, "hand")[np.arange(venv.num_envs), (s + 1) % 3]
        out[:, -1] = (nxt % np.uint64(997)).astype(np.float32)
        return out

    venv.observe = leaky
    rng = np.random.default_rng(0)
    with pytest.raises(AssertionError, match="information leak"):
        for _ in range(6):  # one swap could miss the hand; six cannot all miss
            check_no_leak(venv, 0, rng, MK.NORMAND_HAND)


def test_normand__leak_check_sees_the_dealers_discards():
    """Positive control: an observation showing the dealer's discards to everybody is caught."""
    venv = cardenvs.make_vector(ENV_ID, 4, seed=2)
    _, m, _ = venv.reset()
    venv.step(np.argmax(m, axis=1))  # every dealer discards one card
    real = venv.observe

    def leaky(seats):
        out = real(seats)
        out[:, -1] = (ML.field(venv.state, "discards") % np.uint64(997)).astype(np.float32)
        return out

    venv.observe = leaky
    dealer = int(ML.field(venv.state, "dealer")[0])
    rng = np.random.default_rng(0)
    with pytest.raises(AssertionError, match="information leak"):
        for _ in range(20):
            check_no_leak(venv, (dealer + 1) % 3, rng, MK.NORMAND_HAND)
