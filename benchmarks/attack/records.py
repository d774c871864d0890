"""The ``records`` surface: mutations of records of random legal games (every id; finished,
unfinished, ended on an illegal move, a later episode of a seed; single deals, a whole game, two
deals): wrong types, missing fields, forged extras, swapped seats, illegal or other actions,
huge episodes and seeds, unicode and markup, extra keys, deep nesting, random fields replaced.

Expected: ``cardenvs.replay`` raises ``ValueError``, or replays, and then the record is its
replay (every field of ``cardenvs.records.FIELDS`` and ``episode``, types included), or the
replay is the original record (a note: an action name the replay reads in another spelling,
such as upper case or trailing white space, which ``replay`` returns as the game writes it).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import cardenvs
from benchmarks.attack.common import (
    MARKUP,
    Case,
    Finding,
    Folders,
    Note,
    Outcome,
    base_records,
    choose,
    claimed_differs,
    describe,
    run_cases,
    short,
)
from cardenvs.core.checks import brief
from cardenvs.core.rng import MAX_EPISODE


def record_case(name: str, original: dict, mutate: Callable[[dict], object]) -> Case:
    def run():
        mutated = mutate(copy.deepcopy(original))
        try:
            out = cardenvs.replay(mutated)
        except ValueError as e:
            if not str(e).strip():
                raise Finding("error-type", "ValueError without a message") from None
            return
        except Exception as e:  # noqa: BLE001
            raise Finding("error-type", f"{describe(e)}; expected ValueError") from None
        diff = claimed_differs(mutated, out)
        if diff and claimed_differs(original, out):
            raise Finding("security", f"a forged record replays as something else: {diff}")
        if diff:  # the change is one the replay reads as the original (a name's spelling)
            raise Note(f"replays as the original record, which replay returns: {diff}")

    return Case(name, run)


def _set(path):
    """A mutation setting the value at ``path`` (keys and indices) to ``value``."""

    def with_value(value):
        def mutate(r):
            node = r
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value() if callable(value) else value
            return r

        return mutate

    return with_value


def _drop(path):
    def mutate(r):
        node = r
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
        return r

    return mutate


def deep(depth: int = 100_000):
    """A list nested ``depth`` deep (made without recursion)."""
    x: list = []
    for _ in range(depth):
        x = [x]
    return x


HOSTILE = [  # values put in place of a record's field
    ("None", None),
    ("True", True),
    ("-1", -1),
    ("0", 0),
    ("2**63", 2**63),
    ("2**64", 2**64),
    ("-2**63 - 1", -(2**63) - 1),
    ("10**30", 10**30),
    ("1.5", 1.5),
    ("1.0", 1.0),
    ("nan", float("nan")),
    ("inf", float("inf")),
    ("empty string", ""),
    ("a digit string", "0"),
    ("a card", "AS"),
    ("markup", MARKUP),
    ("NUL", "\x00"),
    ("a long string", "a" * 5000),
    ("empty list", []),
    ("[None]", [None]),
    ("[1, 2]", [1, 2]),
    ("empty dict", {}),
    ("a dict", {"a": 1}),
    ("a tuple", ("t",)),
    ("nested 100000 deep", deep),
]


def record_mutations(name: str, r: dict) -> list[tuple[str, Callable]]:
    """Targeted mutations of the record ``r`` (see the module docstring)."""
    from cardenvs.records import FIELDS

    m: list[tuple[str, Callable]] = []
    deals = r["deals"]
    last = len(deals) - 1
    d0 = deals[0]
    seats = len(cardenvs.make(f"{r['game']}-v{r['version']}", **r["config"]).possible_agents)
    acts = d0["actions"]

    for value in (None, [], "record", 5):
        m.append((f"the record is {brief(value)}", lambda r, value=value: value))
    m.append(("the record in a list", lambda r: [r]))
    for key in FIELDS:
        m.append((f"without {key!r}", _drop([key])))
    for key, values in (
        (
            "game",
            (
                1,
                None,
                ["piquet"],
                "piquet\x00",
                "../../etc/passwd",
                "\u00e9" * 1000,
                MARKUP,
                "esel",
            ),
        ),
        ("version", ("0", 0.0, True, -1, 2**70, 1, None)),
        (
            "config",
            (
                [],
                "x",
                None,
                {1: 2},
                {"render_mode": "human"},
                {"illegal_action": "penalize"},
                {"render_seat": 0},
                {"frobnicate": 1},
                {"episode": 5},
                {"episode": "deal\u2028"},
                {"episode": MARKUP},
            ),
        ),
        ("seed", ("1", 1.0, True, -1, 2**63, 2**64, 10**100, MARKUP)),
        ("episode", (-1, 2**44, MAX_EPISODE, 2**64, 10**30, True, "1", 1.0, None, MARKUP)),
        (
            "result",
            (
                {},
                "win",
                1,
                [],
                {"winner": None},
                {"illegal_move": 0},
                {"illegal_move": "0", "action": 0},
                {"illegal_move": 0, "action": 10**9},
                {"illegal_move": -1, "action": 0},
                MARKUP,
            ),
        ),
        ("deals", ([], {}, "x", [None], [{}], deep)),
    ):
        for value in values:
            m.append((f"{key} {label_of(value)}", _set([key])(value)))
    for key, value in r["config"].items():
        for bad in ("x", 1.5, None, [], -1, 10**9, MARKUP):
            m.append((f"config {key!r} {short(brief(bad), 30)}", _set(["config", key])(bad)))
        del value
    m.append(("config with a forged option", _set(["config", "x_forged"])(1)))
    m.append(("a top-level extra key (ignored)", _set(["players"])(["human", MARKUP])))
    m.append(("a top-level __proto__ key (ignored)", _set(["__proto__"])({"polluted": True})))
    # the first deal
    for key in ("deck", "dealer", "actions"):
        m.append((f"deal 0 without {key!r}", _drop(["deals", 0, key])))
    deck = d0["deck"]
    m += [
        ("deck: two cards swapped", _set(["deals", 0, "deck"])([deck[1], deck[0], *deck[2:]])),
        (
            "deck: the last two cards swapped",
            _set(["deals", 0, "deck"])([*deck[:-2], deck[-1], deck[-2]]),
        ),
        ("deck: a card missing", _set(["deals", 0, "deck"])(deck[:-1])),
        ("deck: a card twice", _set(["deals", 0, "deck"])([deck[0], *deck[:-1]])),
        ("deck: a card lower-case", _set(["deals", 0, "deck"])([deck[0].lower(), *deck[1:]])),
        ("deck: a foreign card", _set(["deals", 0, "deck"])(["XX", *deck[1:]])),
        ("deck: a card id", _set(["deals", 0, "deck"])([0, *deck[1:]])),
        ("deck: markup", _set(["deals", 0, "deck"])([MARKUP, *deck[1:]])),
        ("deck: 100000 cards", _set(["deals", 0, "deck"])(deck * (100_000 // len(deck)))),
        ("deck: a string", _set(["deals", 0, "deck"])(" ".join(deck))),
    ]
    for value in (-1, seats, 2**70, True, "0", 1.0, None, (d0["dealer"] + 1) % seats):
        m.append((f"dealer {brief(value)}", _set(["deals", 0, "dealer"])(value)))
    if acts:
        seat, action = acts[0]
        other = (seat + 1) % seats
        m += [
            ("action 0 by the other seat", _set(["deals", 0, "actions", 0])([other, action])),
            ("every action's seat swapped", lambda r: _swap_seats(r, seats)),
            ("action 0 seat -1", _set(["deals", 0, "actions", 0])([-1, action])),
            ("action 0 seat 99", _set(["deals", 0, "actions", 0])([99, action])),
            ("action 0 seat True", _set(["deals", 0, "actions", 0])([True, action])),
            ("action 0 an unknown name", _set(["deals", 0, "actions", 0])([seat, "fly"])),
            ("action 0 markup", _set(["deals", 0, "actions", 0])([seat, MARKUP])),
            (
                "action 0 a name with U+2028",
                _set(["deals", 0, "actions", 0])([seat, action + "\u2028"]),
            ),
            ("action 0 an id", _set(["deals", 0, "actions", 0])([seat, 0])),
            ("action 0 [seat]", _set(["deals", 0, "actions", 0])([seat])),
            ("action 0 [seat, name, extra]", _set(["deals", 0, "actions", 0])([seat, action, 1])),
            ("action 0 a string", _set(["deals", 0, "actions", 0])(action)),
            ("action 0 a dict", _set(["deals", 0, "actions", 0])({"seat": seat, "action": action})),
            ("action 0 removed", lambda r: (r["deals"][0]["actions"].pop(0), r)[1]),
            (
                "action 0 twice",
                lambda r: (
                    r["deals"][0]["actions"].insert(0, list(r["deals"][0]["actions"][0])),
                    r,
                )[1],
            ),
            ("the last action of deal 0 removed", lambda r: (r["deals"][0]["actions"].pop(), r)[1]),
            (
                "an action appended to the last deal",
                lambda r: (
                    (r["deals"][-1]["actions"].append(list(r["deals"][-1]["actions"][-1])), r)[1]
                    if r["deals"][-1]["actions"]
                    else r
                ),
            ),
        ]
        names = cardenvs.game_info(f"{r['game']}-v{r['version']}").action_names
        for k in (0, len(names) // 2, len(names) - 1):
            if names[k] != action:
                m.append(
                    (
                        f"action 0 the game's action {names[k]!r}",
                        _set(["deals", 0, "actions", 0])([seat, names[k]]),
                    )
                )
        m.append(
            ("action 0 in upper case", _set(["deals", 0, "actions", 0])([seat, action.upper()]))
        )
        if len(acts) > 1:
            m.append(
                ("actions 0 and 1 swapped", lambda r: _swap(r["deals"][0]["actions"], 0, 1) or r)
            )
            j = len(acts) // 2
            m.append(
                (
                    f"action {j} by the other seat",
                    _set(["deals", 0, "actions", j])([(acts[j][0] + 1) % seats, acts[j][1]]),
                )
            )
    # points and extras of the finished deals
    for i, deal in enumerate(deals):
        if "points" not in deal:
            continue
        pts = deal["points"]
        m += [
            (f"deal {i} points +1", _set(["deals", i, "points", 0])(pts[0] + 1)),
            (f"deal {i} points as floats", _set(["deals", i, "points"])([float(p) for p in pts])),
            (f"deal {i} points as strings", _set(["deals", i, "points"])([str(p) for p in pts])),
            (f"deal {i} points one more", _set(["deals", i, "points"])([*pts, 0])),
            (f"deal {i} points one fewer", _set(["deals", i, "points"])(pts[:-1])),
            (f"deal {i} points 10**30", _set(["deals", i, "points", 0])(10**30)),
            (f"deal {i} points True", _set(["deals", i, "points", 0])(True)),
            (f"deal {i} without points", _drop(["deals", i, "points"])),
        ]
        for key in sorted(k for k in deal if k not in ("deck", "dealer", "actions", "points")):
            value = deal[key]
            m += [
                (f"deal {i} without its extra {key!r}", _drop(["deals", i, key])),
                (f"deal {i} extra {key!r} None", _set(["deals", i, key])(None)),
                (f"deal {i} extra {key!r} markup", _set(["deals", i, key])(MARKUP)),
                (f"deal {i} extra {key!r} nested deep", _set(["deals", i, key])(deep)),
            ]
            if isinstance(value, int) and not isinstance(value, bool):
                m += [
                    (f"deal {i} extra {key!r} + 1", _set(["deals", i, key])(value + 1)),
                    (f"deal {i} extra {key!r} as a float", _set(["deals", i, key])(float(value))),
                ]
            if isinstance(value, list) and value:
                m.append(
                    (
                        f"deal {i} extra {key!r} reversed",
                        _set(["deals", i, key])(
                            value[::-1] if value[::-1] != value else [*value, 0]
                        ),
                    )
                )
        for key, value in (
            ("banks", [0] * seats),
            ("bonus", 5),
            ("contract", "x"),
            ("ended_by", "me"),
            ("x_forged", MARKUP),
        ):
            if key not in deal:
                m.append((f"deal {i} with a forged extra {key!r}", _set(["deals", i, key])(value)))
    if "points" not in deals[last]:
        m.append(("the open deal with points", _set(["deals", last, "points"])([0] * seats)))
        m.append(("the open deal with a forged extra", _set(["deals", last, "banks"])([0] * seats)))
    # the result
    result = r["result"]
    if isinstance(result, dict) and "illegal_move" not in result:
        for key in sorted(result):
            value = result[key]
            m += [
                (f"result without {key!r}", _drop(["result", key])),
                (f"result {key!r} markup", _set(["result", key])(MARKUP)),
                (f"result {key!r} nested deep", _set(["result", key])(deep)),
            ]
            if isinstance(value, int) and not isinstance(value, bool):
                m.append((f"result {key!r} + 1", _set(["result", key])(value + 1)))
                m.append((f"result {key!r} as a float", _set(["result", key])(float(value))))
            if value is None:
                m.append((f"result {key!r} 0", _set(["result", key])(0)))
        m.append(("result with a forged key", _set(["result", "x_forged"])(1)))
        m.append(("result None for a finished game", _set(["result"])(None)))
    elif result is None:
        m.append(
            ("result of a finished game for an unfinished one", _set(["result"])({"winner": 0}))
        )
    else:  # ended on an illegal move
        m += [
            (
                "illegal move by the other seat",
                _set(["result", "illegal_move"])((result["illegal_move"] + 1) % seats),
            ),
            ("illegal move a legal action", lambda r: _legal_instead(r)),
            ("illegal move action -1", _set(["result", "action"])(-1)),
            ("illegal move action 10**9", _set(["result", "action"])(10**9)),
            ("illegal move action True", _set(["result", "action"])(True)),
            ("illegal move with a forged key", _set(["result", "x_forged"])(1)),
        ]
    if len(deals) > 1:
        m += [
            ("deals 0 and 1 swapped", lambda r: _swap(r["deals"], 0, 1) or r),
            ("the last deal removed", lambda r: (r["deals"].pop(), r)[1]),
            ("deal 0 twice", lambda r: (r["deals"].insert(0, copy.deepcopy(r["deals"][0])), r)[1]),
        ]
    m.append(("deal 0 repeated 1000 times", lambda r: {**r, "deals": [r["deals"][0]] * 1000}))
    return m


def label_of(value) -> str:
    return "nested 100000 deep" if value is deep else short(brief(value), 40)


def _swap(seq, i, j):
    seq[i], seq[j] = seq[j], seq[i]


def _swap_seats(r, seats):
    for deal in r["deals"]:
        for pair in deal["actions"]:
            pair[0] = (pair[0] + 1) % seats
    return r


def _legal_instead(r):
    """The record's illegal move replaced by an action legal there (its first legal action)."""
    env = cardenvs.make(f"{r['game']}-v{r['version']}", **r["config"])
    options = {"deck": r["deals"][0]["deck"], "dealer": r["deals"][0]["dealer"]}
    env.reset(seed=r["seed"], options=options)
    for _, name in r["deals"][0]["actions"]:
        env.step(env.unwrapped.action_id(name))
    r["result"]["action"] = env.unwrapped.legal_actions()[0]
    return r


def _paths(x, prefix=(), out=None, depth=0):
    """Every path (keys and indices) of the JSON tree ``x``, to depth 6."""
    out = [] if out is None else out
    if depth > 6:
        return out
    if isinstance(x, dict):
        for k in x:
            out.append((*prefix, k))
            _paths(x[k], (*prefix, k), out, depth + 1)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out.append((*prefix, i))
            _paths(v, (*prefix, i), out, depth + 1)
    return out


def surface_records(rng, n: int, folders: Folders, timeout: float) -> list[Outcome]:
    bases = base_records()

    def control():
        for name, r in bases.items():
            out = cardenvs.replay(copy.deepcopy(r))
            diff = claimed_differs(r, out)
            if diff:
                raise Finding("error-type", f"{name} does not replay as itself: {diff}")

    first = [Case(f"control: the {len(bases)} records replay as themselves", control)]
    catalogue = [
        record_case(f"{name}: {label}", r, mutate)
        for name, r in bases.items()
        for label, mutate in record_mutations(name, r)
    ]
    names = list(bases)

    def fuzz(k: int) -> Case:
        name = names[int(rng.integers(len(names)))]
        r = bases[name]
        paths = _paths(r)
        path = list(paths[int(rng.integers(len(paths)))])
        op = rng.random()
        if op < 0.15 and isinstance(path[-1], str):
            return record_case(f"fuzz {k}: {name}: without {path}", r, _drop(path))
        if op < 0.25:
            key = f"x{int(rng.integers(1000))}"
            parent = path[:-1]
            return record_case(
                f"fuzz {k}: {name}: a forged key {key!r} at {parent}",
                r,
                lambda x, parent=parent, key=key: _forge(x, parent, key),
            )
        label, value = HOSTILE[int(rng.integers(len(HOSTILE)))]
        return record_case(f"fuzz {k}: {name}: {path} = {label}", r, _set(path)(value))

    return run_cases("records", choose(rng, catalogue, fuzz, n, first=first), timeout)


def _forge(r, parent, key):
    node = r
    for k in parent:
        node = node[k]
    if isinstance(node, dict):
        node[key] = MARKUP
    elif isinstance(node, list):
        node.append(MARKUP)
    return r
