"""The scene: what is on the table of one game, as plain JSON-able data, in one format for every
game. The replay viewer, the terminal and web games and the pictures (``core.picture``) draw it.

Usage::

    env = cardenvs.make("piquet-v0")
    env.reset(seed=1)
    env.unwrapped.scene()            # the open view: every card face up
    env.unwrapped.scene(seat=1)      # what player_1 sees: the others' hands face down
    env.unwrapped.scene("current")   # the view of the seat to act (the open view once over)
    venv = cardenvs.make_vector("esel-v0", 8, seed=0)
    venv.reset()
    venv.scene(3, seat=0)            # row 3 as seat 0 sees it

Every game package has a ``scene.py`` whose ``scene(state, b, config, seat=None)`` reads row
``b`` of the packed state (the fields its ``text.py`` reads) and returns the dict below; the
``GameDef`` carries it (``GameDef.scene``) and the front ends call it (``CardVectorEnv.scene``,
``CardAECEnv.scene``).

The format
----------
A scene is a dict with exactly these keys:

- ``"game"`` (str): the environment id, ``"piquet-v0"``;
- ``"title"`` (str): one line naming the game and the deal, ``"Piquet: deal 3 of 6"``;
- ``"viewer"`` (int or None): the seat whose view this is; None for the open view;
- ``"to_act"`` (int or None): the seat to act; None once the game is over;
- ``"phase"`` (str): the game's phase in a word or two, ``"exchange"``, ``"play"``, ``"over"``;
- ``"over"`` (bool): the game has ended;
- ``"result"`` (str or None): once over, who won (``"player_1 wins 142"``); else None;
- ``"seats"`` (list): one dict per seat, in seat order (below);
- ``"trick"`` (list): the cards on the table now, in the order they were played, each
  ``{"seat": int or None, "card": str}`` (Banque: the bank, bottom card first, ``seat`` its
  owner, None for none; Four Aces: empty);
- ``"last_trick"`` (dict or None): the last finished trick of this deal, ``{"winner": int,
  "cards": [{"seat": int, "card": str}, ...]}`` in play order; None before the first one and in
  games without tricks;
- ``"piles"`` (list): the other cards on the table, each ``{"name": str, "seat": int or None
  (whose pile: a seat's discards), "cards": [str or None, ...] (bottom first, the last is the top;
  None = face down), "count": int}`` (the talon, the stock, discards, the discard pile);
- ``"info"`` (list of str): game-wide lines: trumps, declarations, the contract, the target.

A seat is a dict with exactly these keys:

- ``"seat"`` (int), ``"name"`` (str, the AEC agent: ``"player_0"``);
- ``"role"`` (str): ``"elder"``, ``"younger"``, ``"dealer"`` or ``""``;
- ``"hand"`` (list of str or None): the cards in the hand; ``None`` for each card the viewer
  cannot see (face down). Cards the viewer can see come first, suit by suit (spades, hearts,
  clubs, diamonds: the colours alternate), high to low, jokers last;
- ``"hand_count"`` (int): ``len(hand)``;
- ``"exposed"`` (list of str): cards lying face up in front of the seat, not in the hand (Four
  Aces' exposed hand); empty in the other games;
- ``"score"`` (str): the seat's standing as text (a partie total, banks, a match total);
- ``"lines"`` (list of str): short facts about the seat: ``"tricks 5"``, ``"trump ♥"``, ``"go"``;
- ``"active"`` (bool): the seat plays in this deal (False: it has gone out of a Piquet normand
  game, it sits out a Banque tie-break hand).

Card strings are the deck's own names (``core.cards``: ``"AS"``, ``"10H"``, ``"JK"``), as in game
records. A seat's view shows face up exactly what that seat's observation reveals (its own hand,
played cards, public combinations, what it has seen of the talon) and hides the rest: the other
hands, face-down piles and the stock keep only their counts. The open view shows everything.
"""

from __future__ import annotations

import json

import numpy as np

from .cards import JOKER_1, JOKER_2, format_card
from .checks import brief

#: the order of suits in a displayed hand: spades, hearts, clubs, diamonds (colours alternate)
SUIT_ORDER = (0, 1, 3, 2)
SCENE_KEYS = (
    "game",
    "title",
    "viewer",
    "to_act",
    "phase",
    "over",
    "result",
    "seats",
    "trick",
    "last_trick",
    "piles",
    "info",
)
SEAT_KEYS = ("seat", "name", "role", "hand", "hand_count", "exposed", "score", "lines", "active")
PILE_KEYS = ("name", "seat", "cards", "count")
#: the ``seat`` argument that names the seat to act (``resolve_view``)
CURRENT = "current"


def resolve_view(seat, num_seats: int, to_act: int | None):
    """The viewer a front end passes to a game's ``scene``: None (the open view), a seat in
    ``0..num_seats - 1``, or ``"current"``, the seat to act (None, the open view, once the game is
    over). Anything else is a ``ValueError`` naming what is allowed."""
    if isinstance(seat, str) and seat == CURRENT:
        return None if to_act is None or to_act < 0 else int(to_act)
    try:
        return check_viewer(seat, num_seats)
    except ValueError:
        raise ValueError(
            f"view seat must be None (the open view), a seat in 0..{num_seats - 1} or "
            f"{CURRENT!r} (the seat to act), got {brief(seat)}"
        ) from None


def check_viewer(seat, num_seats: int) -> int | None:
    """``seat`` as an int in ``0..num_seats - 1``, or None; a ``ValueError`` otherwise (a game's
    ``scene`` checks its ``seat`` argument with it)."""
    if seat is None:
        return None
    if (
        isinstance(seat, (int, np.integer))
        and not isinstance(seat, (bool, np.bool_))
        and 0 <= seat < num_seats
    ):
        return int(seat)
    raise ValueError(
        f"seat must be None (the open view) or a seat in 0..{num_seats - 1}, got {brief(seat)}"
    )


def _sort_key(card: int):
    if card in (JOKER_1, JOKER_2):
        return (4, card)
    return (SUIT_ORDER.index(card // 13), -(card % 13))


def cards_of(mask) -> list[str]:
    """The cards of a ``uint64`` card set (bit ``c`` = card id ``c``, jokers too) as strings, in
    display order (``SUIT_ORDER``, high to low, jokers last)."""
    m = int(mask)
    ids = [c for c in range(54) if (m >> c) & 1]
    return [format_card(c) for c in sorted(ids, key=_sort_key)]


def sort_cards(ids) -> list[str]:
    """Card ids (any iterable of ints) as strings in display order."""
    return [format_card(c) for c in sorted((int(c) for c in ids), key=_sort_key)]


def hand(mask, visible: bool, known=0, jokers: int = 0) -> list:
    """A hand for a scene: the cards of ``mask`` (and ``jokers`` jokers) face up when
    ``visible``; else the cards of ``known`` in it face up (public cards: a Piquet combination
    shown) and the rest as None."""
    m = int(mask)
    if visible:
        return cards_of(m) + ["JK"] * jokers
    shown = cards_of(m & int(known))
    return shown + [None] * (bin(m).count("1") + jokers - len(shown))


def pile(name: str, cards, seat: int | None = None) -> dict:
    """A pile: ``cards`` bottom first (strings, None face down)."""
    cards = list(cards)
    return {"name": name, "seat": seat, "cards": cards, "count": len(cards)}


def seat_entry(
    seat: int,
    hand_cards: list,
    *,
    role: str = "",
    score: str = "",
    lines=(),
    exposed=(),
    active: bool = True,
) -> dict:
    """One seat of a scene (every key of ``SEAT_KEYS``)."""
    return {
        "seat": int(seat),
        "name": f"player_{int(seat)}",
        "role": role,
        "hand": list(hand_cards),
        "hand_count": len(hand_cards),
        "exposed": list(exposed),
        "score": score,
        "lines": [str(x) for x in lines],
        "active": bool(active),
    }


def play(seat, card) -> dict:
    """One card of a trick: ``{"seat": seat, "card": "KH"}`` (``seat`` None: no owner)."""
    return {"seat": None if seat is None else int(seat), "card": format_card(int(card))}


def make_scene(
    config,
    *,
    title: str,
    viewer: int | None,
    to_act: int,
    phase: str,
    over: bool,
    seats: list,
    result: str | None = None,
    trick=(),
    last_trick: dict | None = None,
    piles=(),
    info=(),
) -> dict:
    """A scene (every key of ``SCENE_KEYS``) of a game with ``config``; ``to_act`` < 0 (the
    state's "nobody") becomes None."""
    return {
        "game": type(config).env_label(),
        "title": title,
        "viewer": viewer,
        "to_act": None if over or to_act is None or int(to_act) < 0 else int(to_act),
        "phase": phase,
        "over": bool(over),
        "result": result if over else None,
        "seats": list(seats),
        "trick": list(trick),
        "last_trick": last_trick,
        "piles": list(piles),
        "info": [str(x) for x in info],
    }


def face_up(scene: dict) -> list[str]:
    """Every card shown face up in ``scene`` (hands, exposed cards, the trick, the last trick,
    the piles), with repeats: what a viewer of it sees."""
    out = []
    for s in scene["seats"]:
        out += [c for c in s["hand"] if c is not None] + list(s["exposed"])
    out += [t["card"] for t in scene["trick"]]
    if scene["last_trick"] is not None:
        out += [t["card"] for t in scene["last_trick"]["cards"]]
    for p in scene["piles"]:
        out += [c for c in p["cards"] if c is not None]
    return out


def check_scene(scene: dict) -> None:
    """Raise ``ValueError`` naming the first thing in ``scene`` that breaks the format (the
    module docstring), including that it survives a JSON round trip unchanged."""

    def need(ok: bool, what: str):
        if not ok:
            raise ValueError(f"scene: {what}")

    need(isinstance(scene, dict) and tuple(scene) == SCENE_KEYS, f"keys must be {SCENE_KEYS}")
    need(json.loads(json.dumps(scene)) == scene, "not JSON-able as it is")
    p = len(scene["seats"])
    need(p >= 1, "no seats")
    seat_ok = {None, *range(p)}
    need(scene["viewer"] in seat_ok and scene["to_act"] in seat_ok, "viewer/to_act not a seat")
    for i, s in enumerate(scene["seats"]):
        need(tuple(s) == SEAT_KEYS, f"seat {i}: keys must be {SEAT_KEYS}")
        need(s["seat"] == i and s["name"] == f"player_{i}", f"seat {i}: wrong seat or name")
        need(s["hand_count"] == len(s["hand"]), f"seat {i}: hand_count is not len(hand)")
        need(all(isinstance(c, str) for c in s["exposed"]), f"seat {i}: exposed face down")
    for t in scene["trick"]:
        need(set(t) == {"seat", "card"} and t["seat"] in seat_ok, "a trick card is malformed")
    last = scene["last_trick"]
    if last is not None:
        need(set(last) == {"winner", "cards"} and last["winner"] in seat_ok, "last_trick")
    for q in scene["piles"]:
        need(tuple(q) == PILE_KEYS and q["count"] == len(q["cards"]), "a pile is malformed")
    need(all(isinstance(x, str) for x in scene["info"]), "info lines must be strings")
