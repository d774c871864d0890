"""The ``viewer`` surface: every seat's page (``cardenvs.ui.view.html``) of the single-deal records:
no seed, config, episode, deal or deck in its data, no integer of the page that re-deals the
record's first deck as a seed (with episode 0 or the record's; a control finds the seed in the open
page), no card the seat never saw in its data; markup (``<!--``, ``</script>``, U+2028, U+2029) in
the strings of a record either refused or never in the page unescaped (four ``<script>`` elements,
each closed once); ill-typed seats refused."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable

import numpy as np

import cardenvs
from benchmarks.attack.common import (
    MARKUP,
    Case,
    Finding,
    Folders,
    Outcome,
    base_records,
    choose,
    describe,
    refuses,
    run_cases,
)
from benchmarks.attack.records import _set
from cardenvs.core.checks import brief
from cardenvs.core.rng import MAX_SEED

DATA_RE = re.compile(r'<script type="application/json" id="cardenvs-data">(.*?)</script>', re.S)


def first_deck(env, seed: int, episode: int) -> list[str]:
    env.reset(seed=seed, options={"episode": episode})
    return env.unwrapped.record()["deals"][0]["deck"]


def re_dealing_seeds(page: str, record: dict) -> list[int]:
    """Every integer of ``page`` that, as a seed (episode 0 or the record's), deals the
    record's first deck."""
    from cardenvs.registry import classes

    _, env_cls, _ = classes(f"{record['game']}-v{record['version']}")
    config = env_cls.vector_cls.game.config_cls.RECORD_DEFAULTS | record["config"]
    probe = env_cls(**config)
    deck = record["deals"][0]["deck"]
    episodes = sorted({0, int(record.get("episode", 0))})
    numbers = sorted({int(x) for x in re.findall(r"\d+", page)})
    return [
        s
        for s in numbers
        if s <= MAX_SEED and any(first_deck(probe, s, e) == deck for e in episodes)
    ]


def seat_page_case(name: str, record: dict, seat: int) -> Case:
    from cardenvs.core.scene import face_up
    from cardenvs.ui import view

    def run():
        page = view.html(record, seat)
        m = DATA_RE.search(page)
        if not m:
            raise Finding("error-type", "the page has no #cardenvs-data element")
        text = m.group(1)
        data = json.loads(text)
        held = [k for k in ("seed", "config", "episode", "deals", "deck") if k in data]
        if held:
            raise Finding("security", f"player_{seat}'s page holds {held}")
        seeds = re_dealing_seeds(page, record)
        if seeds:
            raise Finding(
                "security", f"player_{seat}'s page holds {seeds}, which re-deal the hidden cards"
            )
        if f"seed {record['seed']}" in page:
            raise Finding("security", f"player_{seat}'s page names the seed")
        seen = set()
        for scene in view.scenes(record, seat):
            seen |= set(face_up(scene))
        cards = {c for deal in record["deals"] for c in deal["deck"]}
        named = set(view.CARD_RE.findall(text)) & (cards - seen)
        if named:
            raise Finding(
                "security", f"player_{seat}'s page names cards it never saw: {sorted(named)}"
            )
        if (
            json.dumps(record["deals"][0]["deck"]) in page
            or ",".join(record["deals"][0]["deck"]) in page
        ):
            raise Finding("security", f"player_{seat}'s page holds the deck")
        _script_safe(page)

    return Case(name, run)


def _script_safe(page: str) -> None:
    """The page's scripts cannot be ended or commented out by data: four ``<script`` elements,
    each closed once, and no ``<!--``, U+2028 or U+2029 in the JSON data."""
    opened, closed = page.count("<script"), page.count("</script>")
    if opened != 4 or closed != 4:
        raise Finding(
            "security", f"the page has {opened} <script and {closed} </script> (4 of each expected)"
        )
    for m in re.finditer(r'<script type="application/json"[^>]*>(.*?)</script>', page, re.S):
        for bad in ("<!--", "<", "\u2028", "\u2029"):
            if bad in m.group(1):
                raise Finding("security", f"the page's JSON data holds {bad!r} unescaped")
    if "window.attackMarker" in page:
        raise Finding("security", "a record's markup is in the page")


def open_page_control(record: dict) -> Case:
    from cardenvs.ui import view

    def run():
        page = view.html(record)
        if re_dealing_seeds(page, record) != [record["seed"]]:
            raise Finding(
                "error-type",
                "the re-deal search does not find the seed in the open page: it checks nothing",
            )

    return Case("control: the open page's seed re-deals the deck (the search works)", run)


def markup_case(name: str, record: dict, mutate, seat) -> Case:
    from cardenvs.ui import view

    def run():
        mutated = mutate(copy.deepcopy(record))
        try:
            page = view.html(mutated, seat)
        except ValueError:
            return
        except Exception as e:  # noqa: BLE001
            raise Finding("error-type", f"{describe(e)}; expected ValueError") from None
        _script_safe(page)

    return Case(name, run)


def _markup_everywhere(r: dict) -> dict:
    """``MARKUP`` in every string of ``r`` (keys of extras too) and as extra keys."""

    def walk(x):
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v) for v in x]
        if isinstance(x, str):
            return x + MARKUP
        return x

    out = walk(r)
    out["players"] = [MARKUP]
    return out


def markup_mutations(r: dict) -> list[tuple[str, Callable]]:
    out = [
        ("a top-level extra key", lambda x: {**x, "players": [MARKUP], MARKUP: MARKUP}),
        ("every string", _markup_everywhere),
        ("the game", lambda x: {**x, "game": MARKUP}),
        ("a config value", lambda x: {**x, "config": {**x["config"], "episode": MARKUP}}),
        ("a config key", lambda x: {**x, "config": {**x["config"], MARKUP: 1}}),
        ("a card of the deck", lambda x: _set(["deals", 0, "deck", 0])(MARKUP)(x)),
        ("a deal extra", lambda x: _set(["deals", 0, MARKUP])(MARKUP)(x)),
        ("the result", lambda x: {**x, "result": {"winner": MARKUP}}),
    ]
    if r["deals"][0]["actions"]:
        out.append(("an action name", lambda x: _set(["deals", 0, "actions", 0, 1])(MARKUP)(x)))
        name = r["deals"][0]["actions"][0][1]
        for tail in ("\u2028", "\u2029", " <!--"):
            out.append(
                (
                    f"{tail!r} after an action name",
                    lambda x, t=tail: _set(["deals", 0, "actions", 0, 1])(name + t)(x),
                )
            )
    return out


def surface_viewer(rng, n: int, folders: Folders, timeout: float) -> list[Outcome]:
    from cardenvs.ui import view

    bases = base_records()
    first = [open_page_control(bases["piquet deal"])]
    catalogue = []
    for name, r in bases.items():
        if name in ("piquet game", "au cent 2 deals"):
            continue  # whole games: their pages are slow to check; the single deals cover them
        seats = len(cardenvs.make(f"{r['game']}-v{r['version']}", **r["config"]).possible_agents)
        for seat in range(seats):
            catalogue.append(seat_page_case(f"{name}: player_{seat}'s page", r, seat))
    r = bases["piquet deal"]
    for label, mutate in markup_mutations(r):
        for seat in (None, 1):
            catalogue.append(
                markup_case(
                    f"markup in {label}: {'open' if seat is None else 'seat'} page", r, mutate, seat
                )
            )
    p = 2
    for seat in (-1, p, p + 5, "0", 1.0, True, np.bool_(True), [0], "current", 2**70):
        for what, call in (
            ("html", lambda s: view.html(r, s)),
            ("data", lambda s: view.data(r, s)),
            ("scenes", lambda s: view.scenes(r, s)),
            ("Replay", lambda s: view.Replay(r, s)),
        ):
            catalogue.append(
                Case(
                    f"{what}(record, seat={brief(seat)})",
                    lambda call=call, seat=seat: refuses(lambda: call(seat), names=("seat",)),
                )
            )
    names = [k for k in bases if k not in ("piquet game", "au cent 2 deals")]

    def fuzz(k: int) -> Case:
        name = names[int(rng.integers(len(names)))]
        rec = bases[name]
        muts = markup_mutations(rec)
        label, mutate = muts[int(rng.integers(len(muts)))]
        seats = len(rec["deals"][0].get("points") or [0, 0])
        seat = None if rng.random() < 0.3 else int(rng.integers(seats))
        return markup_case(f"fuzz {k}: {name}: markup in {label}, seat {seat}", rec, mutate, seat)

    return run_cases("viewer", choose(rng, catalogue, fuzz, n, first=first), timeout)
