"""The replay viewer: a game record as one self-contained HTML page to step, play and scrub.

Usage::

    python -m cardenvs.view RECORD.json -o game.html            # every view, a seat selector
    python -m cardenvs.view RECORD.json -o seat1.html --seat 1  # player_1's view only

    from cardenvs.view import Replay, html, scenes
    scenes(record)              # the open view's scene at the start and after every action
    scenes(record, seat=1)      # what player_1 saw
    open("game.html", "w").write(html(record))
    Replay(record)              # in Jupyter: the viewer in the notebook (``_repr_html_``)

A record is what ``env.unwrapped.record()`` returns (the format: ``cardenvs.records``), or one
saved as JSON by ``python -m cardenvs.play``; it is checked with ``cardenvs.replay`` first, and a
malformed one raises ``ValueError`` naming what is wrong. The page is made from the record the
replay produced, so nothing of the given record beyond what replays (no unchecked field) is shown.

The page (``html``) needs no network: the scenes, the log and the score timeline are JSON inside
it, and the table is drawn by inline JavaScript (``cardenvs/ui/view_assets``: ``table.js`` draws a
scene as ``core.picture`` does, with the same layout and colours, cards in HTML with inline SVG
suits; ``viewer.js`` adds the controls). It has: step back and forward, play/pause (and its
speed), a slider to scrub, a view selector (the open view and every seat's, or only the seat
given), the log up to the step shown (the sentences of ``ui.events``, the one sentence builder
of every front end: who did what, cards drawn, trick winners in gold, deal ends and the result in
bold, each with its step number), and a chart of each seat's score (the number in its score
line) step by step with the deals marked. Keys: left/right arrows, space, Home, End.

Method: the record is replayed action by action on an AEC env (as ``cardenvs.replay`` does) and
the scene of every view is taken at the start and after each action (``core.scene``). Scenes
repeat most of their parts from step to step, so every distinct part (a seat, a pile, the info
lines, ...) is stored once in a pool and a scene is a list of indices into it. The log of a
view is ``ui.events.tagged_events`` of every step from that view's side, given the record as
it stood after the step (``record_after``). A seat's page holds only that seat's scenes and log:
a card the seat could not see (face up in its scene before or after the step) is never named
("player_0 discards a card"). The record itself (its decks) is not in the page, and a seat's page
holds nothing that determines the cards it did not see: no seed, no episode number (the seed and
episode re-deal every hand), no config; only the open view's page (which shows every card anyway)
names the seed. The data is embedded as JSON with ``<``, ``>``, ``&``, U+2028 and U+2029 written
as ``\\uXXXX`` escapes (``script_json``), so no string of it can end or comment out its
``<script>`` element.
"""

from __future__ import annotations

import argparse
import html as html_lib
import json
import re
from importlib import resources
from pathlib import Path

from ..core import picture
from ..core.scene import SCENE_KEYS, check_viewer, face_up
from .events import tagged_events

#: a card string inside a text ("KH", "10S", "JK")
CARD_RE = re.compile(r"(?<![0-9A-Za-z])(?:(?:10|[2-9JQKA])[SHDC]|JK)(?![0-9A-Za-z])")
_NUMBER = re.compile(r"-?\d+")
_LISTS = ("seats", "piles")  # scene keys stored as lists of pool indices


def asset(name: str) -> str:
    """The text of a file of ``cardenvs/ui/view_assets`` (the page's JavaScript and CSS)."""
    return resources.files("cardenvs.ui").joinpath("view_assets", name).read_text("utf-8")


# --- replaying ---------------------------------------------------------------------------------
def _replay(record: dict, check: bool = True):
    """Yield ``(step, core)`` at the start (step None) and after every action of ``record``
    (step ``(deal index, seat, action name)``), on one AEC env; ``check``: check ``record``
    first (``cardenvs.replay``: ``ValueError`` for a malformed record or one that does not
    replay)."""
    import cardenvs
    from cardenvs.registry import classes

    if check:
        cardenvs.replay(record)
    _, env_cls, _ = classes(f"{record['game']}-v{record['version']}")
    game = env_cls.vector_cls.game
    env = env_cls(illegal_action="raise", **(game.config_cls.RECORD_DEFAULTS | record["config"]))
    deals = record["deals"]
    options = {"deck": deals[0]["deck"], "dealer": deals[0]["dealer"]}
    if "episode" in record:
        options["episode"] = record["episode"]
    env.reset(seed=record["seed"], options=options)
    core = env.unwrapped
    yield None, core
    for i, deal in enumerate(deals):
        for seat, name in deal["actions"]:
            env.step(core.action_id(name))
            yield (i, seat, name), core


def _num_seats(record: dict) -> int:
    from cardenvs.registry import classes

    _, env_cls, _ = classes(f"{record['game']}-v{record['version']}")
    game = env_cls.vector_cls.game
    config = game.config_cls.from_kwargs(**(game.config_cls.RECORD_DEFAULTS | record["config"]))
    return game.num_seats(config)


def _checked(record: dict) -> dict:
    """``record`` as its replay produced it (``cardenvs.replay``: ``ValueError`` for a malformed
    record or one that does not replay): the page shows only what replays."""
    import cardenvs

    return cardenvs.replay(record)


def _views(record: dict, seat) -> tuple[list, dict, list]:
    """The views asked for (``[None, 0, 1, ...]`` for ``seat`` None, else ``[seat]``), their
    scenes ``{view: [scene, ...]}`` and the steps ``[None, (deal, seat, name), ...]`` of the
    checked ``record`` (``_checked``)."""
    p = _num_seats(record)
    if seat is not None:
        try:
            seat = check_viewer(seat, p)
        except ValueError as e:
            raise ValueError(f"view: {e}") from None
    views = [None, *range(p)] if seat is None else [seat]
    out = {v: [] for v in views}
    steps = []
    for step, core in _replay(record, check=False):
        steps.append(step)
        for v in views:
            out[v].append(core.scene(v))
    return views, out, steps


def scenes(record: dict, seat=None) -> list[dict]:
    """The scenes (``core.scene``) of ``record`` as ``seat`` saw them (None: the open view): at
    the start and after every action, ``1 + number of actions`` in all. ``ValueError`` for a
    malformed record or a seat that is not one of the game's."""
    if seat is None:
        return [core.scene(None) for _, core in _replay(record)]
    return _views(_checked(record), seat)[1][seat]


# --- the log -----------------------------------------------------------------------------------
def record_after(record: dict, n: int) -> dict:
    """``record`` as ``env.unwrapped.record()`` returned it after the game's first ``n`` actions
    (what ``ui.events`` reads: the deals so far, a finished deal's points and extras, the
    result once the game is over); shares its parts with ``record``."""
    deals = record["deals"]
    total = sum(len(d["actions"]) for d in deals)
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= total:
        raise ValueError(f"n must be a number of actions in 0..{total}, got {n!r}")
    i, k = 0, n
    while k > len(deals[i]["actions"]):
        k -= len(deals[i]["actions"])
        i += 1
    deal = deals[i]
    if k < len(deal["actions"]) or "points" not in deal:  # deal i goes on
        cut = {"deck": deal["deck"], "dealer": deal["dealer"], "actions": deal["actions"][:k]}
        return {**record, "deals": [*deals[:i], cut], "result": None}
    if i + 1 < len(deals):  # deal i ended with action n: the next one is open
        nxt = deals[i + 1]
        opened = {"deck": nxt["deck"], "dealer": nxt["dealer"], "actions": []}
        return {**record, "deals": [*deals[: i + 1], opened], "result": None}
    return record  # the last action of a finished game


def _log(record: dict, view, view_scenes: list, steps: list) -> list[dict]:
    """The log of ``view``: ``{"step", "kind", "seat", "text"}`` entries, the start, then the
    sentences of ``ui.events.tagged_events`` for every step (kind one of its ``KINDS``;
    ``seat``: the actor for kind ``"action"``, else None), and how a game that did not end by
    the rules ends (kind ``"result"``)."""
    out = [log_entry(0, "start", f"start: {view_scenes[0]['title']}")]
    for k in range(1, len(steps)):
        _, actor, name = steps[k]
        out += log_entries(
            k, view_scenes[k - 1], view_scenes[k], actor, name, view, record_after(record, k)
        )
    n = len(steps) - 1
    result, final = record["result"], view_scenes[-1]
    if isinstance(result, dict) and "illegal_move" in result:
        import cardenvs

        info = cardenvs.game_info(f"{record['game']}-v{record['version']}")
        seat, seen = result["illegal_move"], set(face_up(final))
        name = CARD_RE.sub(  # the cards of the move that the view has not seen stay unnamed
            lambda m: m.group(0) if m.group(0) in seen else "a card",
            info.action_names[result["action"]],
        )
        out.append(
            log_entry(n, "result", f"player_{seat} made an illegal move ({name}); the game ended")
        )
    elif not final["over"]:
        out.append(log_entry(n, "result", "the record ends here: the game is unfinished"))
    return out


def log_entries(step: int, before, after, actor: int, name: str, view, record, you=False):
    """The log entries of one step (see ``_log``): ``ui.events.tagged_events`` of the step
    from ``view``'s side (None: the open view), ``record`` the record after it, ``you``: call
    the viewer "you"."""
    told = tagged_events(before, after, actor, name, view, record=record, you=you)
    return [log_entry(step, kind, text, actor if kind == "action" else None) for kind, text in told]


def log_entry(step: int, kind: str, text: str, seat=None) -> dict:
    """One entry of a log (see ``_log``)."""
    return {"step": step, "kind": kind, "seat": seat, "text": text}


def timeline(view_scenes: list[dict]) -> list[list]:
    """Each seat's score as a number (the first integer of its ``score`` line; None if it has
    none) in every scene: ``[step][seat]``."""
    out = []
    for s in view_scenes:
        row = []
        for seat in s["seats"]:
            m = _NUMBER.search(seat["score"])
            row.append(int(m.group(0)) if m else None)
        out.append(row)
    return out


def deal_starts(record: dict) -> list[int]:
    """The step at which each deal of ``record`` starts (0 for the first)."""
    out, k = [], 0
    for d in record["deals"]:
        out.append(k)
        k += len(d["actions"])
    return out


# --- the page ----------------------------------------------------------------------------------
class _Pool:
    """Distinct JSON values, each stored once; ``ref`` gives a value's index."""

    def __init__(self):
        self.items: list = []
        self.index: dict[str, int] = {}

    def ref(self, value) -> int:
        key = json.dumps(value, sort_keys=True, separators=(",", ":"))
        if key not in self.index:
            self.index[key] = len(self.items)
            self.items.append(value)
        return self.index[key]

    def scene(self, scene: dict) -> list:
        return [
            [self.ref(x) for x in scene[k]] if k in _LISTS else self.ref(scene[k])
            for k in SCENE_KEYS
        ]


def data(record: dict, seat=None) -> dict:
    """What the page embeds (see ``viewer.js``): the views with their encoded scenes, logs and
    timelines, the pool of scene parts, the deal starts; for ``seat`` given, that seat's view
    only, and nothing that determines the cards it did not see (no seed, episode or config:
    ``seed`` and ``config`` are in the open view's data only)."""
    return _data(_checked(record), seat)


def _data(record: dict, seat) -> dict:
    views, by_view, steps = _views(record, seat)
    pool = _Pool()
    p = len(by_view[views[0]][0]["seats"])
    out_views = []
    for v in views:
        sc = by_view[v]
        out_views.append(
            {
                "seat": v,
                "label": "open view (every card)" if v is None else f"player_{v}'s view",
                "scenes": [pool.scene(s) for s in sc],
                "log": _log(record, v, sc, steps),
                "timeline": timeline(sc),
            }
        )
    first = by_view[views[0]][0]
    out = {
        "game": f"{record['game']}-v{record['version']}",
        "title": first["title"],
        "names": [f"player_{i}" for i in range(p)],
        "keys": list(SCENE_KEYS),
        "deal_starts": deal_starts(record),
        "views": out_views,
        "pool": pool.items,
    }
    if seat is None:  # the open view shows every card: its seed hides nothing
        out |= {"config": record["config"], "seed": record["seed"]}
    return out


def look() -> dict:
    """The layout and colours of ``core.picture`` for ``table.js`` (one look for both)."""
    return {
        "size": list(picture.SIZE),
        "table_w": picture.TABLE_W,
        "boxes": {str(k): [list(b) for b in v] for k, v in picture._BOXES.items()},
        "middle": {str(k): list(v) for k, v in picture._MIDDLE.items()},
        "cards": {"L": list(picture.CARD_L), "M": list(picture.CARD_M), "S": list(picture.CARD_S)},
    }


def _rgb(c) -> str:
    return "rgb({},{},{})".format(*c)


def css() -> str:
    """The page's CSS: ``table.css`` with ``core.picture``'s colours as variables."""
    colours = {
        "felt": picture.FELT,
        "felt-dark": picture.FELT_DARK,
        "panel": picture.PANEL,
        "panel-line": picture.PANEL_LINE,
        "text": picture.TEXT,
        "muted": picture.MUTED,
        "gold": picture.GOLD,
        "plate": picture.PLATE,
        "plate-out": picture.PLATE_OUT,
        "red": picture.RED,
        "black": picture.BLACK,
        "joker": picture.JOKER,
        "back": picture.BACK,
        "back-line": picture.BACK_LINE,
        "page": (18, 22, 26),
    }
    root = ":root{" + ";".join(f"--{k}:{_rgb(v)}" for k, v in colours.items()) + "}\n"
    return root + asset("table.css")


#: characters written as ``\uXXXX`` inside a ``<script>`` element's JSON: ``<`` and ``>`` (no
#: ``</script>``, ``<!--`` or ``-->``), ``&``, and the line separators JavaScript once refused
_SCRIPT_ESCAPES = str.maketrans(
    {c: f"\\u{ord(c):04x}" for c in ("<", ">", "&", "\u2028", "\u2029")}
)


def script_json(value) -> str:
    """``value`` as JSON safe inside a ``<script>`` element: still JSON (``JSON.parse`` and
    ``json.loads`` read it back equal), with ``<``, ``>``, ``&``, U+2028 and U+2029 as ``\\uXXXX``
    escapes, which only occur inside JSON strings."""
    return json.dumps(value, separators=(",", ":")).translate(_SCRIPT_ESCAPES)


def page(title: str, body: str, data_value, script: str) -> str:
    """A whole HTML page: ``body`` (HTML), the look and ``data_value`` as JSON elements
    (``#cardenvs-look``, ``#cardenvs-data``), ``table.js`` and then ``script``, all inline."""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>{html_lib.escape(title)}</title>\n<style>\n{css()}</style>\n</head>\n"
        f"<body>\n{body}\n"
        f'<script type="application/json" id="cardenvs-look">{script_json(look())}</script>\n'
        f'<script type="application/json" id="cardenvs-data">{script_json(data_value)}</script>\n'
        f"<script>\n{asset('table.js')}</script>\n<script>\n{script}</script>\n</body>\n</html>\n"
    )


VIEWER_BODY = """<div class="app">
<div id="table"></div>
<div class="bar">
  <button id="first" title="the start (Home)">|&#x25c0;</button>
  <button id="prev" title="one step back (left arrow)">&#x25c0; back</button>
  <button id="play" title="play or pause (space)">play</button>
  <button id="next" title="one step on (right arrow)">next &#x25b6;</button>
  <button id="last" title="the end (End)">&#x25b6;|</button>
  <input id="scrub" type="range" min="0" value="0" step="1" aria-label="step">
  <span id="stepinfo" class="stepinfo"></span>
  <select id="speed" aria-label="speed" title="speed">
    <option value="1400">slow</option><option value="700" selected>normal</option>
    <option value="300">fast</option><option value="100">very fast</option>
  </select>
  <select id="view" aria-label="view" title="whose view"></select>
</div>
<div class="bar note" title="{about}">{about}</div>
<div class="lower">
  <div class="box" style="flex:1;min-width:0"><h2>log</h2><div id="log" class="log"></div></div>
  <div class="box chart"><h2>score</h2><div id="chart"></div></div>
</div>
</div>"""


def html(record: dict, seat=None) -> str:
    """The viewer page of ``record`` (one self-contained HTML file, see the module docstring):
    every view with a selector (``seat`` None), or ``seat``'s view only."""
    record = _checked(record)
    d = _data(record, seat)
    about = d["game"]
    if seat is None:  # a seat's page names neither the seed nor the game's index under it
        about += f" · seed {record['seed']}"
        if record.get("episode"):
            about += f" (game {record['episode'] + 1} of the seed)"
    changed = _options(record)
    about += " · " + (", ".join(f"{k}={v}" for k, v in changed.items()) or "default options")
    actions = sum(len(deal["actions"]) for deal in record["deals"])
    about += f" · {len(record['deals'])} deal(s), {actions} actions"
    body = VIEWER_BODY.replace("{about}", html_lib.escape(about))
    return page(f"{d['title']} — cardenvs replay", body, d, asset("viewer.js"))


def _options(record: dict) -> dict:
    """The options of ``record``'s config that differ from the id's defaults."""
    from cardenvs.registry import classes

    _, env_cls, defaults = classes(f"{record['game']}-v{record['version']}")
    base = env_cls.vector_cls.game.config_cls.from_kwargs(**defaults).to_dict()
    base = json.loads(json.dumps(base))  # tuples as lists, as in a record
    return {k: v for k, v in record["config"].items() if base.get(k, object()) != v}


class Replay:
    """A record in the viewer, for notebooks: ``Replay(record)`` shows the viewer in Jupyter
    (``_repr_html_``: the page in an ``<iframe srcdoc>``); ``.html`` is the page, ``.save(path)``
    writes it. ``seat``: that seat's view only. The record is checked at once (``ValueError``)."""

    def __init__(self, record: dict, seat=None, height: int = 1010):
        self.record = record
        self.seat = seat
        self.height = height
        self.html = html(record, seat)

    def __repr__(self) -> str:
        r = self.record
        return f"Replay({r['game']}-v{r['version']}, seed={r['seed']}, deals={len(r['deals'])})"

    def save(self, path) -> Path:
        path = Path(path)
        path.write_text(self.html, encoding="utf-8")
        return path

    def _repr_html_(self) -> str:
        return (
            f'<iframe srcdoc="{html_lib.escape(self.html, quote=True)}" '
            f'style="width:100%;max-width:1000px;height:{self.height}px;border:0" '
            'title="cardenvs replay"></iframe>'
        )


def main(argv=None) -> None:
    """``python -m cardenvs.view RECORD.json [-o game.html] [--seat N]``."""
    p = argparse.ArgumentParser(
        prog="python -m cardenvs.view",
        description="Write a game record as one self-contained HTML page (the replay viewer).",
    )
    p.add_argument("record", help="a record saved as JSON (env.unwrapped.record(), cardenvs.play)")
    p.add_argument("-o", "--out", help="the HTML file to write (default: RECORD with .html)")
    p.add_argument(
        "--seat", type=int, default=None, help="only this seat's view (default: every view)"
    )
    a = p.parse_args(argv)
    src = Path(a.record)
    try:
        record = json.loads(src.read_text(encoding="utf-8"))
    except OSError as e:
        p.error(f"cannot read the record {str(src)!r}: {e.strerror or e}")
    except UnicodeDecodeError as e:
        p.error(
            f"{str(src)!r} is not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset "
            f"{e.start}); a record is JSON in UTF-8 (what env.unwrapped.record() returns, saved "
            "with json.dump)"
        )
    except json.JSONDecodeError as e:
        p.error(f"{str(src)!r} is not JSON ({e}); a record is what env.unwrapped.record() returns")
    except RecursionError:
        p.error(f"{str(src)!r} holds JSON nested too deeply to be a record")
    out = Path(a.out) if a.out else src.with_suffix(".html")
    where = "-o " if a.out else "the page "
    if out.resolve() == src.resolve():
        p.error(
            f"{where}{str(out)!r} is the record itself: writing the page would overwrite it; "
            "give -o another path"
        )
    if out.is_dir():
        p.error(f"{where}{str(out)!r} is a directory: give -o the path of the HTML file to write")
    if not out.parent.is_dir():
        why = "is not a directory" if out.parent.exists() else "does not exist (create it first)"
        p.error(
            f"{where}{str(out)!r} cannot be written: its directory {str(out.parent)!r} {why}; "
            "or write the page elsewhere"
        )
    try:
        text = html(record, a.seat)
    except ValueError as e:
        p.error(f"{src}: {e}")
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as e:
        p.error(f"{where}{str(out)!r} cannot be written: {e.strerror or e}")
    print(f"wrote {out} ({len(text) // 1024} KiB): open it in a browser")


if __name__ == "__main__":
    main()
