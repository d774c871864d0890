"""Score bounds (issue 30): no legal config lets a score overflow its packed field.

Compiled, the state keeps scores in ``int16`` (``v``) and counters in ``int8`` (``f``); numba
computes in int64 and truncates on the store, so a value out of range wraps silently (Auction
Piquet, redoubled ×64 with a make bonus of 100: deal points summing to 34,009 came out as a
total of −31,527 and the partie went to the other player).

For every game a ``*_bounds`` function below derives the largest (and most negative) value each
``v`` field can reach, from the Config classes' option bounds (``dataclasses.fields`` metadata
``low``/``high``/``choices``) and the rules modules' scoring constants: the derivations written
next to each game's ``STATE_FIELDS``. The tests assert that they fit ``int16``, and that the
counters in ``f`` that grow with the match length (deal numbers, Esel's banks) fit ``int8``; so
widening an option range without checking fails here.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

import cardenvs
from cardenvs.core.state import ARRAYS
from cardenvs.games.banque import config as B
from cardenvs.games.banque import constants as BK
from cardenvs.games.banque import layout as BL
from cardenvs.games.esel import config as EC
from cardenvs.games.esel import constants as E
from cardenvs.games.esel import layout as EL
from cardenvs.games.four_aces import config as FAC
from cardenvs.games.four_aces import constants as FA
from cardenvs.games.four_aces import layout as FAL
from cardenvs.games.piquet import config as C
from cardenvs.games.piquet import constants as K
from cardenvs.games.piquet import layout as L
from cardenvs.games.piquet.multi import constants as MK
from cardenvs.games.piquet.multi import layout as ML

INT16 = np.iinfo(np.int16)
INT8 = np.iinfo(np.int8)
AUCTION = "auction_piquet-v0"


def test_packed_arrays_are_the_audited_dtypes():
    """The bounds below are checked against int16 / int8: the compiled state's dtypes (plain
    Python, ``NUMBA_DISABLE_JIT=1``, widens both to int64)."""
    assert ARRAYS["v"] in (np.int16, np.int64) and ARRAYS["f"] in (np.int8, np.int64)


# --- option bounds -----------------------------------------------------------------------------
def _meta(cls, name: str) -> dict:
    f = next((f for f in dataclasses.fields(cls) if f.name == name), None)
    assert f is not None, f"{cls.__name__} has no option {name!r}"
    return f.metadata


def high(cls, name: str) -> int:
    """The largest legal value of integer option ``name`` (its ``high``, else its choices)."""
    m = _meta(cls, name)
    if m.get("high") is not None:
        return int(m["high"])
    assert m.get("choices") is not None, f"{cls.__name__}.{name} is unbounded"
    return max(int(c) for c in m["choices"])


def low(cls, name: str) -> int:
    m = _meta(cls, name)
    if m.get("low") is not None:
        return int(m["low"])
    return min(int(c) for c in m["choices"])


def check_fits(game: str, bounds: dict[str, tuple[int, int]], info=INT16) -> None:
    for name, (lo, hi) in bounds.items():
        assert info.min <= lo <= hi <= info.max, (
            f"{game} {name}: reachable {lo}..{hi} does not fit {info.dtype} "
            f"({info.min}..{info.max})"
        )


# --- two-handed Piquet (piquet-v0, piquet_au_cent-v0, auction_piquet-v0) -----------------------
def declarations_max(hand: int) -> int:
    """What one hand of ``hand`` cards can score in declarations (2.5): the point 1 a card of
    one suit (at most 8), sequences at most 3 a card (3 → 3, 4 → 4, n ≥ 5 → n + 10: 15 for five
    cards is the best ratio), sets at most 3.5 a card (a quatorze 14, a trio 3)."""
    return min(hand, 8) + 3 * hand + (14 * hand) // 4


# A partie has at most 8 deal-equivalents: six deals and two tie-break deals, or four deals
# with the 1st and 4th doubled (2 + 1 + 1 + 2) and two single tie-break deals (2.10).
PARTIE_DEAL_WEIGHTS = max(6 + 2, (2 + 1 + 1 + 2) + 2)


def piquet_deal_max(cfg_cls, redouble_factor=None) -> tuple[int, int]:
    """(one seat's, both seats') largest points in one deal under ``cfg_cls``'s widest
    options; ``redouble_factor`` overrides the option's bound (to show what 64 would do)."""
    h = K.HAND
    bonus = max(K.PIQUE_BONUS, K.REPIQUE_BONUS)  # one per deal: the other needs both unset
    if cfg_cls is C.AuctionConfig:
        factor = max(
            high(cfg_cls, "double_factor"),
            high(cfg_cls, "redouble_factor") if redouble_factor is None else redouble_factor,
        )
        made = 10 * (h - 7) + high(cfg_cls, "auction_make_bonus")  # 7+ won with all 12 tricks
        failed = 10 * h  # 12+ (or 12-) missed by 12 tricks
        end = factor * max(made, failed)  # the contract, to one seat (3.2 items 10, 11)
        play_seat = play_both = h + 1  # 1 a trick won, + 1 extra for the last (item 9)
    else:
        end = max(K.CARDS_BONUS, K.CAPOT_BONUS)
        # a lead or a capture each trick, + 1 for the last; ten_for_last: 1 a trick, 10 last
        play_seat = max(h + 1, (h - 1) + 10)
        play_both = max(2 * h + 1, (h - 1) + 10)
    decl = declarations_max(h)  # each category to one seat (an equal best cancels it)
    seat = K.CARTE_BLANCHE + decl + bonus + play_seat + end
    both = 2 * K.CARTE_BLANCHE + decl + bonus + play_both + end
    return seat, both


def piquet_bounds(cfg_cls, redouble_factor=None) -> dict[str, tuple[int, int]]:
    seat, both = piquet_deal_max(cfg_cls, redouble_factor)
    if cfg_cls is C.AuCentConfig:
        # a game runs to the target, ties at the target play on, at most max_deals deals
        deals = high(cfg_cls, "max_deals")
        total = deals * seat
        # the result is the difference, doubled only when the loser is under double_below (<=
        # target): then the game had not reached the target one deal (or event) earlier
        result = max(total, 2 * (high(cfg_cls, "target") + seat))
        last = seat
    else:
        total = PARTIE_DEAL_WEIGHTS * seat
        result = PARTIE_DEAL_WEIGHTS * both + high(cfg_cls, "rubicon")  # (W + L) + rubicon
        last = 2 * seat  # a doubled deal
    return {
        "deal_score": (0, seat),
        "total": (0, total),
        "last_points": (0, last),
        "result_points": (0, max(result, seat)),  # episode="deal": the deal's difference
        "decl_pts": (0, max(8, 3 * K.HAND, (14 * K.HAND) // 4)),
    }


@pytest.mark.parametrize(
    "cfg_cls, commented",
    [
        (C.Config, {"deal_score": 217, "total": 1736, "result_points": 2848}),
        (C.AuCentConfig, {"deal_score": 217, "total": 21700, "result_points": 21700}),
        (C.AuctionConfig, {"deal_score": 2569, "total": 20552, "result_points": 21632}),
    ],
)
def test_piquet__every_score_fits_int16(cfg_cls, commented):
    bounds = piquet_bounds(cfg_cls)
    assert {name for name, arr, *_ in L.STATE_FIELDS if arr == "v"} == set(bounds)
    check_fits(cfg_cls.__name__, bounds)
    assert {k: bounds[k][1] for k in commented} == commented  # as commented in STATE_FIELDS
    assert bounds["decl_pts"][1] == 42


def test_piquet__the_bound_sees_the_issue_config():
    """The derivation is not vacuous: with the old bound of 64 on the redouble factor it
    overflows, as the issue's game did."""
    _, hi = piquet_bounds(C.AuctionConfig, redouble_factor=64)["total"]
    assert hi > INT16.max
    seat, both = piquet_deal_max(C.AuctionConfig)
    assert (seat, both) == (2569, 2579)  # what the STATE_FIELDS comments state


def test_piquet__deal_counters_fit_int8():
    # a partie: 8 deals + the redeals (auction); au cent: max_deals, or a partie of games
    partie = PARTIE_DEAL_WEIGHTS + high(C.AuctionConfig, "max_redeals")
    au_cent = max(high(C.AuCentConfig, "max_deals"), K.PARTIE_MAX_GAMES * K.PARTIE_MAX_DEALS)
    check_fits("piquet deal_no", {"deal_no": (0, max(partie, au_cent) - 1)}, INT8)


def test_au_cent_partie__max_deals_is_bounded():
    with pytest.raises(ValueError, match="max_deals"):
        C.AuCentConfig(au_cent_partie=True, max_deals=K.PARTIE_MAX_DEALS + 1)


def _issue_game(seed: int, **config):
    """The issue's game: seat 0 bids 7+ at its first chance, seat 1 doubles, seat 0
    redoubles; otherwise seat 0 takes its highest legal action id, seat 1 its lowest. Returns
    the record and each seat's summed rewards."""
    env = cardenvs.make(AUCTION, illegal_action="raise", **config)
    core = env.unwrapped
    env.reset(seed=seed)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        rewards[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        seat = int(agent.rsplit("_", 1)[1])
        legal = [int(a) for a in core.legal_actions()]
        names = {core.action_name(a) for a in legal}
        if "redouble" in names:
            a = core.action_id("redouble")
        elif "double" in names:
            a = core.action_id("double" if seat == 1 else "pass")
        elif "bid 7+" in names:
            a = core.action_id("bid 7+" if seat == 0 else "pass")
        else:
            a = max(legal) if seat == 0 else min(legal)
        env.step(a)
    return core.record(), [rewards[a] for a in env.possible_agents]


def check_exact_partie(record, rewards, rubicon: int) -> None:
    """Totals are the sums of the deals' points, and the result, winner and rewards follow."""
    sums = np.sum([d["points"] for d in record["deals"]], axis=0).tolist()
    res = record["result"]
    assert res["totals"] == sums, f"totals {res['totals']} for deal points summing to {sums}"
    hi, lo = max(sums), min(sums)
    points = hi - lo + rubicon if lo >= rubicon else hi + lo + rubicon
    winner = -1 if hi == lo else int(np.argmax(sums))
    assert (res["winner"], res["points"]) == (winner, 0 if winner < 0 else points)
    if winner >= 0:
        assert rewards[winner] == points and rewards[1 - winner] == -points


def test_issue_30__auction_redoubled_totals_do_not_wrap():
    """The issue's config (redoubled ×64, make bonus 100, seed 5): before the fix it played
    and seat 0's deal points, 34,009, came out as a total of -31,527, so seat 1 won and the
    rewards were reversed. Now a config that could overflow is refused, naming the option and
    what is allowed; if it is ever accepted again, the game must come out exact."""
    config = {"redouble_factor": 64, "auction_make_bonus": 100, "reward": "score"}
    try:
        C.AuctionConfig(**config)
    except ValueError as e:
        assert "redouble_factor" in str(e) and "1..16" in str(e), str(e)
        with pytest.raises(ValueError, match="redouble_factor"):
            cardenvs.make(AUCTION, **config)
        return
    record, rewards = _issue_game(5, **config)
    check_exact_partie(record, rewards, C.AuctionConfig().rubicon)


@pytest.mark.parametrize("partie", ["six_deals", "four_deals"])
@pytest.mark.parametrize("seed", [2, 5])
def test_auction__largest_legal_factors_add_up_exactly(partie, seed):
    """The issue's game at the largest factors now allowed (×16 doubled and redoubled, make
    bonus 100, Rubicon 1000): big redoubled contracts every deal, exact totals and result."""
    config = {
        "double_factor": high(C.AuctionConfig, "double_factor"),
        "redouble_factor": high(C.AuctionConfig, "redouble_factor"),
        "auction_make_bonus": high(C.AuctionConfig, "auction_make_bonus"),
        "rubicon": high(C.AuctionConfig, "rubicon"),
        "partie": partie,
        "reward": "score",
    }
    record, rewards = _issue_game(seed, **config)
    assert all(d["doubled"] == 2 for d in record["deals"])  # every deal redoubled
    assert max(record["result"]["totals"]) > 4000  # the scores are large
    check_exact_partie(record, rewards, config["rubicon"])


# --- Piquet normand and partnership Piquet -------------------------------------------------------
def multi_bounds() -> dict[str, tuple[int, int]]:
    bonus = max(MK.PIQUE_BONUS, MK.REPIQUE_BONUS)  # one per deal (every side's must be unset)
    # normand: one player of 10 cards (the dealer keeps 10 after his exchange); 10 tricks,
    # a lead or a capture each + 1 for the last; capot 20
    normand = (
        MK.CARTE_BLANCHE
        + declarations_max(MK.NORMAND_HAND)
        + bonus
        + MK.NORMAND_HAND
        + 1
        + max(MK.CARDS_BONUS, MK.NORMAND_CAPOT)
    )
    # partnership: a side of two 8-card hands (both may hold carte blanche; each category
    # goes to one player); a side scores at most 1 a trick (its lead, or the capture of an
    # opponent's lead) + 1 for the last; capot 40
    side = (
        2 * MK.CARTE_BLANCHE
        + declarations_max(MK.PARTNERSHIP_HAND)
        + bonus
        + MK.PARTNERSHIP_HAND
        + 1
        + max(MK.CARDS_BONUS, MK.PARTNERSHIP_CAPOT)
    )
    deal = max(normand, side)
    return {
        "deal_score": (0, deal),
        "total": (0, MK.MAX_DEALS * deal),  # ties at the target play on, up to MAX_DEALS
        "last_points": (0, deal),
        "decl_pts": (0, max(8, 3 * MK.NORMAND_HAND, (14 * MK.NORMAND_HAND) // 4)),
    }


def test_piquet_multi__every_score_fits_int16():
    bounds = multi_bounds()
    assert {name for name, arr, *_ in ML.STATE_FIELDS if arr == "v"} == set(bounds)
    check_fits("piquet multi", bounds)
    assert bounds["deal_score"][1] == 199 and bounds["total"][1] == 23880  # as commented
    check_fits("piquet multi deal_no", {"deal_no": (0, MK.MAX_DEALS)}, INT8)


# --- Esel --------------------------------------------------------------------------------------
def esel_bounds() -> dict[str, tuple[int, int]]:
    points = [int(E.POINTS[c % 13]) for c in E.DECK.cards.tolist()]
    positive = sum(p for p in points if p > 0)  # every card but the sixes taken by one seat
    negative = sum(p for p in points if p < 0)  # the four sixes (-1 each) and nothing else
    tricks = E.NUM_CARDS // E.MAX_SEATS  # four-card tricks (one_suit_trick, 4 players)
    ranks = E.NUM_CARDS // 4  # all four cards of a rank (four_of_a_rank)
    bonuses = (
        4 * high(EC.Config, "marriage_bonus")  # a king-queen pair per suit
        + high(EC.Config, "queen_jack_bonus")
        + max(tricks, ranks) * high(EC.Config, "four_suit_bonus")
    )
    hand = (negative, positive + bonuses)  # reset every hand
    return {"points": hand, "last_points": hand}


def test_esel__every_score_fits_int16():
    bounds = esel_bounds()
    assert {name for name, arr, *_ in EL.STATE_FIELDS if arr == "v"} == set(bounds)
    check_fits("esel", bounds)
    assert bounds["points"] == (-4, 1588)  # as commented


def test_esel__counters_fit_int8():
    hands = high(EC.Config, "max_hands")
    # a bank count moves by at most one a hand; ties at six banks play on
    check_fits(
        "esel",
        {"deal_no": (0, hands - 1), "banks": (0, E.START_BANKS + hands)},
        INT8,
    )


# --- Banque ------------------------------------------------------------------------------------
BANQUE_TOTAL_CAP = 30_000  # _end_hand stores min(total, 30000)


def banque_bounds() -> dict[str, tuple[int, int]]:
    points = [int(BK.POINTS[c % 13]) for c in BK.DECK.cards.tolist()]
    deck_points = sum(points)  # 124
    zero_cards = sum(p == 0 for p in points)
    per_card = max(B.PENALTY_PER_CARD)
    # the penalty of one hand, any mode: its card points, a fixed amount, per card, card
    # points + per zero-point card, or card points else fixed
    penalty = max(deck_points, max(B.PENALTY_FIXED), per_card * BK.NUM_CARDS)
    penalty = max(penalty, deck_points + per_card * zero_cards)
    bonus = sum(high(B.Config, n) for n in B.TRIPLE_FIELDS) + high(B.Config, "finish_quad_non_king")
    hands = high(B.Config, "max_hands")
    return {
        "total": (-hands * penalty, BANQUE_TOTAL_CAP),
        "last_points": (-penalty, deck_points + bonus),
        "bank_points": (0, deck_points),
        "bonus": (0, bonus),
        "penalty": (0, penalty),
        "last_bank_points": (0, deck_points),
        "last_bonus": (0, bonus),
    }


def test_banque__every_score_fits_int16():
    bounds = banque_bounds()
    assert {name for name, arr, *_ in BL.STATE_FIELDS if arr == "v"} == set(bounds)
    check_fits("banque", bounds)
    assert bounds["total"] == (-28160, 30000) and bounds["penalty"] == (0, 220)  # as commented
    check_fits("banque deal_no", {"deal_no": (0, high(B.Config, "max_hands") - 1)}, INT8)


def test_banque__max_hands_beyond_the_int8_hand_counter_is_refused():
    """The hand counter is an int8: with max_hands 129..200 (allowed before) it wrapped from
    127 to -128 and the match ran on past max_hands."""
    with pytest.raises(ValueError, match=r"max_hands.*1\.\.128"):
        B.Config(max_hands=129)


def _banque_play_out(venv, mask, rng, steps=2000):
    """Random legal actions until every row's match is over; the hand numbers seen."""
    seen = set()
    for _ in range(steps):
        if not mask.any():
            break
        legal = mask.astype(bool)
        _, mask, *_ = venv.step(np.where(legal, rng.random(legal.shape), -1.0).argmax(axis=1))
        seen |= set(BL.field(venv.state, "deal_no").tolist())
    assert not mask.any(), "the matches did not end"
    return seen


def test_banque__the_128th_hand_ends_the_match():
    """At the largest max_hands the match ends with the 128th hand (hand counter 127); a
    total far below zero is kept."""
    venv = cardenvs.make_vector(
        "banque-v0", 8, seed=3, autoreset=False, validate=False, max_hands=128, target_score=5000
    )
    _, mask, _ = venv.reset()
    BL.field(venv.state, "deal_no")[:] = 126
    BL.field(venv.state, "total")[:, 2] = -20_000
    assert _banque_play_out(venv, mask, np.random.default_rng(0)) == {126, 127}
    assert (BL.field(venv.state, "deal_no") == 127).all()
    totals = BL.field(venv.state, "total")[:, :4]
    assert (totals[:, 2] < -19_000).all() and (np.abs(totals[:, [0, 1, 3]]) < 2000).all(), totals


def test_banque__totals_stop_at_the_cap():
    """Totals are capped at 30,000 (the kernel's min), so a hand cannot push one past int16."""
    venv = cardenvs.make_vector("banque-v0", 8, seed=4, autoreset=False, validate=False)
    _, mask, _ = venv.reset()
    BL.field(venv.state, "total")[:, :2] = BANQUE_TOTAL_CAP - 10
    _banque_play_out(venv, mask, np.random.default_rng(1))
    totals = BL.field(venv.state, "total")[:, :2]
    assert (totals <= BANQUE_TOTAL_CAP).all() and (totals > BANQUE_TOTAL_CAP - 1000).all()
    assert (totals == BANQUE_TOTAL_CAP).any(), totals  # some seat gained and was capped


# --- Four Aces ---------------------------------------------------------------------------------
def four_aces_bounds() -> dict[str, tuple[int, int]]:
    """A round scores at most 8 natural cards (hidden limit 5 + 3 exposed), pooled or as two
    hands: rank block at most 2.5 a card (four of a kind 10) and at least -1 a pair
    (pair_value -1); suit groups at most max(SUIT_VALUE[k] / k) a card and at least -2 a suit
    a hand; runs at most max(RUN_VALUE[., k] / k) a card and at least -1 a 2-run."""
    n = FA.MAX_LIMIT + 3
    suit = max(Fraction(int(FA.SUIT_VALUE[k]), k) for k in range(1, len(FA.SUIT_VALUE)))
    run = max(Fraction(int(x), k) for t in range(2) for k, x in enumerate(FA.RUN_VALUE[t]) if k)
    best = int((Fraction(10, 4) + suit + run) * n)
    worst = -(n // 2) + 2 * 4 * int(FA.SUIT_VALUE.min()) - (n // 2)  # two hands of 4 suits
    rounds = high(FAC.Config, "max_rounds")  # ties may play on to the last round
    cap = high(FAC.Config, "turn_cap_factor") * (FA.NUM_CARDS - 6 * low(FAC.Config, "num_players"))
    return {
        "total": (rounds * worst, rounds * best),
        "last_points": (worst, best),
        "turns": (0, cap),
    }


def test_four_aces__every_score_fits_int16():
    bounds = four_aces_bounds()
    assert {name for name, arr, *_ in FAL.STATE_FIELDS if arr == "v"} == set(bounds)
    check_fits("four aces", bounds)
    assert bounds["last_points"] == (-24, 52) and bounds["turns"] == (0, 720)  # as commented
    check_fits("four aces deal_no", {"deal_no": (0, high(FAC.Config, "max_rounds") - 1)}, INT8)


# --- observations of extreme scores stay inside the observation space --------------------------
@pytest.mark.parametrize(
    "env_id, field, values, block",
    [
        # the largest values the audit above allows, and the most negative
        ("auction_piquet-v0", "deal_score", (2569, 2569), "deal_score"),
        ("auction_piquet-v0", "total", (20552, 0), "total"),
        ("piquet_au_cent-v0", "total", (21700, 21700), "total"),
        ("piquet_normand-v0", "total", (23880, 0, 23880), "total"),
        ("partnership_piquet-v0", "total", (23880, 23880), "total"),
        ("esel-v0", "points", (1588, -4, 1588, 0), "points"),
        ("four_aces-v0", "total", (6240, -2880, 0, 0), "total"),
        ("banque-v0", "total", (30000, -28160, 0, 0), "total"),
    ],
)
def test_extreme_scores_are_observed_inside_the_space(env_id, field, values, block):
    """A score at its audited extreme is observed clipped to its block's bounds: every
    observation stays inside ``single_observation_space`` (before the clip, an Auction Piquet
    total of 20,552 was observed as 205.5 in a block bounded by 40)."""
    venv = cardenvs.make_vector(env_id, 1, seed=0)
    venv.reset()
    view = venv.game.layout.field(venv.state, field)
    view[0, : len(values)] = values
    space = venv.single_observation_space
    f = next(f for f in venv.game.obs_layout if f.name == block)
    start = sum(g.size for g in venv.game.obs_layout[: venv.game.obs_layout.index(f)])
    for seat in range(venv.num_seats):
        obs = venv.observe(seat)[0]
        assert space.contains(obs), (seat, obs[start : start + f.size])
    obs = venv.observe(0)[0, start : start + f.size]
    assert obs.max() == pytest.approx(f.high)  # the largest value sits at the bound
