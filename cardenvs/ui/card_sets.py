"""Choices of several cards at once in human play, and how a card is written for a person.

Piquet's exchange is a sequence of ``discard <card>`` actions in increasing card index (the
engine keeps one canonical order of a discard set), ended by the maximum or by ``stop``. A person
chooses the set in any order: ``card_choice`` says which cards may be chosen and how many,
``card_plan`` checks a whole set and gives the actions that play it. The terminal
(``cardenvs.play``) and the browser (``cardenvs.web``) both use them.
"""

from __future__ import annotations

import copy
import re

from ..core.text import RED, RESET, SUIT_SYMBOL

CARD = re.compile(r"\b(10|[2-9JQKA])([SHDC])\b")
STOP = "stop"  # the action that ends a choice of several cards early


def card_text(card, color: bool = False) -> str:
    """A card string (``"QH"``) as shown: ``"Q♥"``, red when ``color``; ``"JK"`` stays."""
    if card is None:
        return "?"
    if card[-1] not in SUIT_SYMBOL:
        return card
    text = card[:-1] + SUIT_SYMBOL[card[-1]]
    return f"{RED}{text}{RESET}" if color and card[-1] in "HD" else text


# -- choices of several cards -----------------------------------------------------------------
def card_choice(env, seat: int) -> dict | None:
    """The choice of several cards at once that ``seat``'s legal actions make, or None.

    Piquet's exchange is a sequence of ``discard <card>`` actions in increasing card index (the
    engine keeps one canonical order of a discard set), ended by the maximum or by ``stop``; a
    person chooses the set, in any order (``card_plan`` plays it). Found by trying: the legal
    ``discard`` actions are stepped lowest first on a copy of the env while the seat stays to
    act. ``{"verb": "discard", "cards": [the cards that may be chosen], "min": m, "max": M}``
    when at most ``M`` >= 2 cards may be chosen together (a single-card choice, Four Aces'
    discard say, is an ordinary action)."""
    core = env.unwrapped
    if not env.agents or core.agent_name_mapping[env.agent_selection] != seat:
        return None
    names = [core.action_name(a) for a in core.legal_actions()]
    legal = [n.split()[1] for n in names if n.startswith("discard ")]
    if not legal or not all(CARD.fullmatch(c) for c in legal):
        return None
    # every card of the hand from the lowest legal one on: a card may be a later discard only
    # (the highest, when exactly two must go)
    floor = core.action_id(f"discard {min(legal, key=lambda c: core.action_id('discard ' + c))}")
    known = set(core.game.action_names)
    hand = [c for c in core.scene(seat)["seats"][seat]["hand"] if c is not None]
    cards = sorted(
        (core.action_id(f"discard {c}"), c)
        for c in hand
        if f"discard {c}" in known and core.action_id(f"discard {c}") >= floor
    )
    if len(cards) < 2:
        return None
    sim = copy.deepcopy(env)
    low = None  # the fewest cards after which the choice may end (stop legal or it is over)
    most = 0
    for a, _ in cards:
        core2 = sim.unwrapped
        if not sim.agents or core2.agent_name_mapping[sim.agent_selection] != seat:
            break
        legal = core2.legal_actions()
        if low is None and (STOP in [core2.action_name(x) for x in legal]):
            low = most
        if a not in legal:
            break
        sim.step(a)
        most += 1
    if most < 2:
        return None
    return {
        "verb": "discard",
        "cards": [c for _, c in cards],
        "min": most if low is None else low,
        "max": most,
    }


def card_plan(env, seat: int, cards) -> tuple[list[int], str]:
    """The actions that play the set ``cards`` (card strings, any order) of ``seat``'s
    ``card_choice``: the ``discard`` actions by card index, then ``stop`` when fewer than the
    maximum; ``([], message)`` saying what is wrong when the set is not allowed (a card not
    in hand or not allowed, named twice, too many or too few)."""
    choice = card_choice(env, seat)
    core = env.unwrapped
    if choice is None:
        return [], "there is no choice of several cards now"
    verb, lo, hi = choice["verb"], choice["min"], choice["max"]
    cards = [str(c).upper() for c in cards]
    hand = core.scene(seat)["seats"][seat]["hand"]
    for c in cards:
        if cards.count(c) > 1:
            return [], f"{card_text(c)} is named twice"
        if c not in hand:
            return [], f"{card_text(c)} is not in your hand"
        if c not in choice["cards"]:
            return [], f"{card_text(c)} may not be chosen to {verb} now"
    span = f"{lo} to {hi}" if lo < hi else f"exactly {hi}"
    if len(cards) > hi:
        return [], f"you may {verb} {span} cards, not {len(cards)}"
    if len(cards) < lo:
        return [], f"you must {verb} {span} cards, not {len(cards)}"
    actions = sorted(core.action_id(f"{verb} {c}") for c in cards)
    if len(cards) < hi:
        actions.append(core.action_id(STOP))
    sim = copy.deepcopy(env)  # the whole set is tried before anything is played
    for a in actions:
        if a not in sim.unwrapped.legal_actions():
            chosen = " ".join(card_text(c) for c in cards) or "nothing"
            return [], f"the game does not allow to {verb} {chosen} now"
        sim.step(a)
    return actions, ""
