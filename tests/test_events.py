"""ui.events on real games of every engine family: sentences never name a card the viewer
cannot see, the trick rule agrees with the engines, one winner per trick, deal summaries carry
the record's points, the winners and the hand limit are named, jokers and banks are told."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pytest

import cardenvs
from cardenvs.core.scene import face_up
from cardenvs.ui.events import KINDS, _verb, events, tagged_events, trick_winner_by_rule

CARD = re.compile(r"\b(10|[2-9JQKA])[SHDC]\b|\bJK\b")
DEAL = {"episode": "deal"}


@dataclass
class Step:
    actor: int
    name: str
    before: dict  # view -> scene
    after: dict
    record: dict


def play(env_id: str, seed: int, views=(None, 0), **config) -> list[Step]:
    """A whole game of uniformly random legal moves, with the scenes of ``views`` around every
    step and the record after it."""
    env = cardenvs.make(env_id, **config)
    env.reset(seed=seed)
    core = env.unwrapped
    rng = np.random.default_rng(seed)
    out = []
    while not any(env.terminations.values()):
        actor = core.agent_name_mapping[env.agent_selection]
        legal = core.legal_actions()
        action = legal[rng.integers(len(legal))]
        before = {v: core.scene(v) for v in views}
        env.step(action)
        after = {v: core.scene(v) for v in views}
        out.append(Step(actor, core.action_name(action), before, after, core.record()))
    return out


def told(step: Step, view, **kw) -> list[str]:
    return events(
        step.before[view], step.after[view], step.actor, step.name, record=step.record, **kw
    )


GAMES = [
    ("piquet-v0", DEAL),
    ("piquet_au_cent-v0", {}),
    ("auction_piquet-v0", DEAL),
    ("piquet_normand-v0", DEAL),
    ("partnership_piquet-v0", DEAL),
    ("esel-v0", DEAL),
    ("banque-v0", DEAL),
    ("four_aces-v0", DEAL),
]


@pytest.mark.parametrize(("env_id", "config"), GAMES, ids=[g for g, _ in GAMES])
def test_events__never_name_a_card_the_viewer_cannot_see(env_id, config):
    game = play(env_id, 3, **config)
    hidden_named = []
    for step in game:
        mine = told(step, 0)
        seen = set(face_up(step.before[0])) | set(face_up(step.after[0]))
        for line in mine:
            for m in CARD.finditer(line):
                if m.group() not in seen:
                    hidden_named.append((step.name, line))
        # the actor is named first, and seat 0 is "you" in its own view only
        assert mine, f"no sentence for {step.name!r}"
        first = mine[0]
        assert first.startswith("you " if step.actor == 0 else f"player_{step.actor} ")
        assert not any(re.search(r"\byou\b", x) for x in told(step, None))
        assert all("player_0" not in x for x in mine if "player_0's" not in x)
        # the open view names every card: a discard is never "a card"
        if step.name.startswith("discard"):
            assert step.name.split()[1] in told(step, None)[0]
    assert not hidden_named, hidden_named[:5]
    # the game's end is told once, in both views
    for view in (None, 0):
        ends = [x for s in game for x in told(s, view) if x.startswith("game over")]
        assert len(ends) == 1


def test_events__hide_the_others_discards_and_name_the_viewers():
    game = play("piquet-v0", 5, **DEAL)
    discards = [s for s in game if s.name.startswith("discard")]
    assert {s.actor for s in discards} == {0, 1}
    for s in discards:
        card = s.name.split()[1]
        expect = f"you discard {card}" if s.actor == 0 else f"player_{s.actor} discards a card"
        assert told(s, 0)[0] == expect
    # the talon: the cards taken are named for their taker only
    takes = [x for s in game for x in told(s, 0) if "from the talon" in x]
    assert any(x.startswith("you take ") and CARD.search(x) for x in takes)
    assert any(re.fullmatch(r"player_1 takes (a card|\d cards) from the talon", x) for x in takes)


def completed_tricks(game: list[Step]):
    """(before scene, the trick's cards, its winner) of every trick the open view shows taken."""
    out = []
    for s in game:
        last = s.after[None]["last_trick"]
        if not s.name.startswith("play ") or last is None:
            continue
        cards = [*s.before[None]["trick"], {"seat": s.actor, "card": s.name.split()[1]}]
        if [c["card"] for c in last["cards"]] == [c["card"] for c in cards]:
            out.append((s.before[None], cards, last["winner"], s.record))
    return out


@pytest.mark.parametrize(
    ("env_id", "config"),
    [
        ("piquet-v0", {}),
        ("auction_piquet-v0", DEAL),
        ("piquet_normand-v0", DEAL),
        ("partnership_piquet-v0", DEAL),
        ("esel-v0", {}),
        ("esel-v0", {"trump_option": 2, "episode": "deal"}),
        ("esel-v0", {"trump_option": 3, "episode": "deal"}),
        ("esel-v0", {"trump_option": 4, "episode": "deal"}),
        ("esel-v0", {"trump_option": 5, "episode": "deal", "num_players": 3}),
    ],
)
def test_trick_rule__agrees_with_the_engine_on_every_trick(env_id, config):
    """The rule that names the winner of a deal's last trick when the next deal's scene has
    lost it, checked on every trick whose winner the scene shows."""
    tricks = completed_tricks(play(env_id, 11, views=(None,), **config))
    assert len(tricks) >= 8
    for before, cards, winner, record in tricks:
        assert trick_winner_by_rule(env_id, before, cards, record) == winner, cards


@pytest.mark.parametrize(("env_id", "config"), [("piquet-v0", {}), ("esel-v0", {"max_hands": 3})])
def test_trick_winners__one_sentence_per_trick_and_the_last_one_named(env_id, config):
    game = play(env_id, 2, **config)
    per_deal, wins = [], 0
    seats = len(game[0].before[0]["seats"])
    plays = 0
    for s in game:
        lines = told(s, 0)
        plays += s.name.startswith("play ")
        wins += sum(" the trick (" in x or " the last trick (" in x for x in lines)
        if any(
            re.match(r"(deal|hand|round) \d+ ends|the (deal|hand|round) ends", x) for x in lines
        ):
            assert any(" the last trick (" in x for x in lines), lines
            per_deal.append((plays // seats, wins))
            plays = wins = 0
    assert len(per_deal) == len(game[-1].record["deals"]) >= 2
    assert all(tricks == wins > 0 for tricks, wins in per_deal), per_deal
    # the winning card is the winner's own card of the trick
    for s in game:
        for x in told(s, None):
            m = re.fullmatch(r"player_(\d) wins the (?:last )?trick \((\S+)\)", x)
            if m and s.after[None]["last_trick"] is not None and " last " not in x:
                cards = s.after[None]["last_trick"]["cards"]
                assert {"seat": int(m.group(1)), "card": m.group(2)} in cards


def test_deal_summaries__carry_the_records_points_and_the_declarations():
    game = play("piquet-v0", 4)
    deals = game[-1].record["deals"]
    summaries = [x for s in game for x in told(s, None) if re.match(r"deal \d+ ends", x)]
    assert len(summaries) == len(deals) >= 6
    for i, (text, deal) in enumerate(zip(summaries, deals, strict=True)):
        assert text.startswith(f"deal {i + 1} ends: player_0 {deal['points'][0]}, ")
        assert f"player_1 {deal['points'][1]};" in text
        assert "Point:" in text and "totals player_0 " in text
    # without the record, the points come from the scores
    bare = [
        x
        for s in game
        for x in events(s.before[None], s.after[None], s.actor, s.name)
        if re.match(r"deal \d+ ends", x)
    ]
    assert [x.split(";")[0] for x in bare] == [x.split(";")[0] for x in summaries]
    # the next deal begins, and the last deal is followed by the game's end
    lines = [x for s in game for x in told(s, 0)]
    assert sum(x.endswith(" begins") for x in lines) == len(deals) - 1
    assert lines[-1].startswith("game over: ")


def test_game_over__names_every_winner_or_the_winning_side():
    game = play("partnership_piquet-v0", 1)
    res = game[-1].record["result"]
    assert len(res["winners"]) == 2
    end = told(game[-1], None)[-1]
    a, b = res["winners"]
    assert end == f"game over: player_{a} and player_{b} win"
    mine = told(game[-1], 0)[-1]
    if 0 in res["winners"]:
        assert mine == f"game over: you and player_{2} win"
    else:
        assert mine == end
    partners = [x for x in told(game[-1], None) if " ends: " in x][0]
    assert "player_0 and player_2 " in partners and "player_1 and player_3 " in partners


@pytest.mark.parametrize(("env_id", "key"), [("banque-v0", "max_hands"), ("esel-v0", "max_hands")])
def test_game_over__names_the_hand_limit_when_the_match_stops_at_it(env_id, key):
    game = play(env_id, 0, **{key: 1})
    lines = told(game[-1], None)
    assert game[-1].record["result"]["hands"] == 1
    assert lines[-1] == f"the game stops at its limit of 1 hand ({key}=1)"
    assert lines[-2].startswith("game over: ")


def test_game_over__says_nothing_of_the_limit_before_it():
    game = play("esel-v0", 0, max_hands=60)
    assert game[-1].record["result"]["hands"] < 60
    assert not any("limit" in x for x in told(game[-1], None))


def test_four_aces__a_drawn_joker_is_named():
    found = {"you": 0, "other": 0}
    for seed in range(12):
        game = play("four_aces-v0", seed, **DEAL)
        for s in game:
            stock = next(q for q in s.before[None]["piles"] if q["name"] == "stock")
            joker = s.name == "draw stock" and stock["cards"] and stock["cards"][-1] == "JK"
            lines = told(s, 0)
            says = [x for x in lines if "joker from the stock" in x]
            assert bool(says) == bool(joker), (s.name, lines)
            if joker:
                who = "you draw" if s.actor == 0 else f"player_{s.actor} draws"
                assert says[0].startswith(f"{who} a joker from the stock (hidden limit ")
                found["you" if s.actor == 0 else "other"] += 1
        if all(found.values()):
            break
    assert all(found.values()), found


def test_banque__the_bank_goes_to_the_owner_of_its_top_card():
    taken = 0
    for seed in range(3):
        for s in play("banque-v0", seed, **DEAL):
            for x in told(s, 0):
                m = re.fullmatch(r"(you|player_\d) takes? the bank: (.+) \((\d+) points?\)", x)
                if not m:
                    continue
                bank = s.before[0]["trick"]
                top = bank[-1]
                assert m.group(1) == ("you" if top["seat"] == 0 else f"player_{top['seat']}")
                assert Counter(m.group(2).split()) == Counter(c["card"] for c in bank[:-1])
                taken += 1
    assert taken >= 5


def test_events__refuse_what_is_not_a_step_of_one_game():
    game = play("piquet-v0", 0, **DEAL)
    s = game[0]
    b, a = s.before[0], s.after[0]
    with pytest.raises(ValueError, match="must be a scene"):
        events({"game": "piquet-v0"}, a, 0, "stop")
    with pytest.raises(ValueError, match="actor must be a seat in 0..1"):
        events(b, a, 2, "stop")
    with pytest.raises(ValueError, match="one view"):
        events(s.before[None], a, 0, "stop")
    with pytest.raises(ValueError, match="not the scenes' viewer"):
        events(b, a, 0, "stop", viewer=1)
    with pytest.raises(ValueError, match="action_name"):
        events(b, a, 0, "")
    assert events(b, a, s.actor, s.name, viewer=0, you=False)[0].startswith(f"player_{s.actor} ")


def test_verbs_for_you():
    assert [_verb(v) for v in ("plays", "passes", "has", "says", "does not claim", "goes")] == [
        "play",
        "pass",
        "have",
        "say",
        "do not claim",
        "go",
    ]


def test_auction__a_deal_nobody_bids_on_is_dealt_again():
    env = cardenvs.make("auction_piquet-v0")
    env.reset(seed=0)
    core = env.unwrapped
    lines = []
    while not any("without a contract" in x for x in lines):
        actor = core.agent_name_mapping[env.agent_selection]
        legal = [core.action_name(a) for a in core.legal_actions()]
        name = "pass" if "pass" in legal else legal[0]
        before = core.scene(0)
        env.step(core.action_id(name))
        lines = events(before, core.scene(0), actor, name, record=core.record())
    assert lines[-2:] == [
        "deal 1 ends without a contract: nobody bid, it is dealt again",
        "deal 1 begins",
    ]
    assert core.record()["deals"][0]["contract"] is None


@pytest.mark.parametrize(
    ("env_id", "config"),
    [("piquet_au_cent-v0", {"max_deals": 2}), ("banque-v0", DEAL), ("four_aces-v0", DEAL)],
)
def test_tagged_events__the_same_sentences_each_with_its_kind(env_id, config):
    """``tagged_events`` is ``events`` with kinds (the viewer's and the web game's logs): the
    texts agree, every kind is one of ``KINDS``, and each kind holds its sentences: the action
    first and by its actor, trick winners, deal ends, the next deal, the game's end last."""
    game = play(env_id, 6, **config)
    seen = Counter()
    for s in game:
        for view in (None, 0):
            pairs = tagged_events(s.before[view], s.after[view], s.actor, s.name, record=s.record)
            assert [t for _, t in pairs] == told(s, view)
            kinds = [k for k, _ in pairs]
            assert set(kinds) <= set(KINDS), kinds
            assert kinds[0] == "action"
            # the kinds come in the order of KINDS (the action's follow-ups may repeat)
            assert kinds == sorted(kinds, key=KINDS.index), kinds
            seen.update(kinds)
            for kind, text in pairs:
                if kind == "trick":
                    assert re.fullmatch(r"(you win|player_\d wins) the (last )?trick \(\S+\)", text)
                if kind == "deal":
                    assert re.match(r"(deal|hand|round) \d+ ends|the (deal|hand|round) ends", text)
                if kind == "begin":
                    assert text.endswith(" begins")
                if kind == "bank":
                    assert " the bank: " in text
    assert seen["result"] >= 2 and seen["deal"] >= 2  # the end, in both views
    if env_id == "piquet_au_cent-v0":  # the talon taken after the discards: a follow-up
        assert seen["trick"] and seen["begin"] == 2 and seen["declaration"] and seen["draw"]
    if env_id == "banque-v0":
        assert seen["bank"] and seen["out"]
    if env_id == "four_aces-v0":  # a draw from the stock is the action itself
        assert not seen["draw"] and any(
            s.name.startswith("draw") and "draws" in told(s, None)[0] for s in game
        )
