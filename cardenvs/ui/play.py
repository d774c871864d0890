"""Play a game yourself, in the terminal (or the browser), against agents: ``python -m
cardenvs.play``.

Usage::

    python -m cardenvs.play piquet-v0                      # seat 0 against random play
    python -m cardenvs.play esel-v0 --seat 2 --against heuristic --config '{"episode": "deal"}'
    python -m cardenvs.play banque-v0 --against ismcts --iterations 50 --seed 7
    python -m cardenvs.play piquet-v0 --against zoo        # the pretrained model (cardenvs.zoo)
    python -m cardenvs.play piquet-v0 --against model:runs/piquet-v0/model.npz  # train/ppo.py's
    python -m cardenvs.play piquet-v0 --web                # the same game in the browser

Every turn of yours prints what happened since your last move (``ui.events``: the cards
played, trick winners, draws, declarations, deal summaries), the table as your seat sees it
(``table``: a compact text form of the scene, ``core.scene``) and your legal actions, numbered.
Answer with a number, an action's name (case does not matter, ``♠ ♥ ♦ ♣`` or ``S H D C``) or a
unique beginning of one (``play q`` when one legal action starts so), or a card alone when one
legal action names it; Enter alone plays the only legal action when there is one. A choice of
several cards (Piquet's exchange: ``card_choice``) is answered at once, the cards in any order
(``discard 7S 10S 8H QC``, ``7♠ 10♠``, or their numbers ``4 3 8``; one card alone is the whole
set): the set is checked whole, then played in the engine's order (``card_plan``). ``?`` (or
``help``) explains this, ``q`` (or ``quit``, or end of input) leaves the game. Bad input asks
again and says why.

Agents (``--against``): any spec of ``cardenvs.arena.make_agent``: ``random`` (uniform over
the legal actions), ``heuristic`` and ``ismcts`` (the baselines, ``cardenvs.agents``; a bare
``ismcts`` searches ``--iterations`` per move with random roll-outs, ``ismcts@<n>[:<rollout>]``
names both), ``zoo`` (``cardenvs.zoo.load`` for the id and config) or ``model:<path>`` (a
``.npz`` model, ``cardenvs.policy``; a bare ``<path>.npz`` still works and warns). Each other
seat gets its own agent of that kind, seeded from ``--seed``.

What is written: the game's record (``env.unwrapped.record()``, the format of
``cardenvs.records``, plus ``"players"``: who sat in each seat) to ``--record PATH`` (default
``runs/play/<id>-<YYYYmmdd-HHMMSS>.json``), also when the game is left unfinished; it replays
with ``cardenvs.replay`` and opens in the viewer: ``python -m cardenvs.view PATH -o game.html``
(the command printed at the end, its path quoted for the shell). ``--record`` is checked before
play starts: it must name a new file in an existing, writable directory; a directory, a missing
directory or an existing file (never overwritten: there is no overwrite option) is a usage
error saying why. Should the record still fail to be written at the end, the game says so and
saves it under the default path instead.

Seeds: without ``--seed`` every game draws its own seed from the OS, shown only once the game
is over (with the record's path) and kept in the record, so nothing before or during the game
tells the deck. ``--seed N`` plays seed ``N``'s game (shown at the start): reproducible.

Colours (red hearts and diamonds, bold headings) only when standard output is a terminal, and
never with ``--no-color`` or the ``NO_COLOR`` environment variable. ``--web`` hands the game to
``cardenvs.ui.web.serve`` (the browser front end) instead: it prints the address on 127.0.0.1,
opens a browser (not with ``--no-browser``) and saves each game's record (``--record`` or its
default); one agent of ``--against`` plays every other seat. Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
import time
from pathlib import Path

import cardenvs

from ..arena import check_spec, make_agent
from ..core.cards import parse_card
from ..core.checks import brief
from ..core.rng import MAX_SEED
from ..core.scene import SUIT_ORDER
from ..core.text import BOLD, RESET, SUIT_SYMBOL
from ..records import record_path_problem
from ..registry import lookup
from .card_sets import CARD, STOP, card_choice, card_plan, card_text
from .events import events

SYMBOL_LETTER = {v: k for k, v in SUIT_SYMBOL.items()}
HELP = """\
Type the number of an action, or its name: case does not matter, suits as S H D C or ♠ ♥ ♦ ♣,
and a unique beginning is enough ("play q" when only one legal action starts so). A card alone
("qh") chooses the one legal action that names it. Enter alone plays the only legal action
when there is just one.
  ?  help   this text
  q  quit   leave the game (the record so far is saved)"""


# -- text -------------------------------------------------------------------------------------
def pretty(text: str, color: bool = False) -> str:
    """``text`` with every card string (``"QH"``, ``"10S"``) shown as ``card_text``."""
    return CARD.sub(lambda m: card_text(m.group(), color), text)


def bold(text: str, color: bool) -> str:
    return f"{BOLD}{text}{RESET}" if color else text


def _hand(cards, color: bool) -> str:
    """A hand: its visible cards, a gap between suits, then how many lie face down."""
    shown = [c for c in cards if c is not None]
    hidden = len(cards) - len(shown)
    parts, suit = [], None
    for c in shown:
        if suit is not None and c[-1] != suit:
            parts.append("")
        parts.append(card_text(c, color))
        suit = c[-1]
    text = " ".join(parts).replace("  ", "   ")
    if hidden:
        text += (" + " if shown else "") + f"{hidden} face down"
    return text or "-"


def table(scene: dict, color: bool = False) -> str:
    """A compact text form of a scene (``core.scene``): a heading, one block per seat (the
    viewer marked and called "you"), the trick, the last trick, the piles and the info lines."""
    me = scene["viewer"]

    def who(seat) -> str:
        return "you" if seat is not None and seat == me else f"player_{seat}"

    state = scene["phase"]
    if scene["over"]:
        state = f"over: {scene['result']}"
    elif scene["to_act"] is not None:
        state += ", your move" if scene["to_act"] == me else f", {who(scene['to_act'])} to act"
    out = [bold(f"{scene['title']} ({state})", color)]
    width = max(len(who(s["seat"])) for s in scene["seats"])
    for s in scene["seats"]:
        mark = "> " if s["seat"] == me else "  "
        name = who(s["seat"]).ljust(width)
        facts = [x for x in (s["role"], f"score {s['score']}" if s["score"] else "") if x]
        facts += s["lines"]
        if not s["active"]:
            facts.append("not playing this deal")
        head = f"{mark}{bold(name, color and s['seat'] == me)}  {', '.join(facts)}"
        out.append(head.rstrip())
        pad = " " * (width + 4)
        out.append(f"{pad}hand: {_hand(s['hand'], color)}")
        if s["exposed"]:
            out.append(f"{pad}exposed: {' '.join(card_text(c, color) for c in s['exposed'])}")
    game = scene["game"]
    if scene["trick"]:
        label = "bank (bottom first)" if game.startswith("banque") else "trick"
        cards = ", ".join(
            card_text(t["card"], color) + ("" if t["seat"] is None else f" ({who(t['seat'])})")
            for t in scene["trick"]
        )
        out.append(f"  {label}: {cards}")
    last = scene["last_trick"]
    if last is not None:
        cards = ", ".join(
            f"{card_text(t['card'], color)} ({who(t['seat'])})" for t in last["cards"]
        )
        out.append(f"  last trick: {cards}, taken by {who(last['winner'])}")
    piles = []
    for q in scene["piles"]:
        name = q["name"]
        if me is not None:
            name = name.replace(f"player_{me}'s", "your")
        shown = [c for c in q["cards"] if c is not None]
        hidden = q["count"] - len(shown)
        text = []
        if hidden:
            text.append(f"{hidden} face down")
        if shown:
            more = len(shown) > 12
            text.append(
                ("... " if more else "") + " ".join(card_text(c, color) for c in shown[-12:])
            )
        piles.append(f"{name}: {', '.join(text) or 'empty'}")
    if piles:
        out.append("  " + "; ".join(piles))
    for line in scene["info"]:
        out.append(f"  {pretty(line, color)}")
    return "\n".join(out)


def menu_order(names) -> list[int]:
    """The order to list actions in: the game's order, but the actions that differ only in
    their card (``play 7S``, ``play AS``) in the order hands are shown (``core.scene``)."""
    first: dict[str, int] = {}
    keys = []
    for i, n in enumerate(names):
        m = CARD.search(n)
        group = CARD.sub("#", n) if m else n
        first.setdefault(group, i)
        c = parse_card(m.group()) if m else 0
        card = (SUIT_ORDER.index(c // 13), -(c % 13)) if m else ()
        keys.append((first[group], card, i))
    return [k[-1] for k in sorted(keys)]


def action_menu(names, color: bool = False, width: int = 78) -> str:
    """The legal actions, numbered from 1, in columns."""
    labels = [f"{i + 1:>3} {pretty(n, color)}" for i, n in enumerate(names)]
    plain = [f"{i + 1:>3} {pretty(n)}" for i, n in enumerate(names)]
    col = max(len(x) for x in plain) + 2
    per_row = max(1, width // col)
    rows = []
    for r in range(0, len(labels), per_row):
        cells = [
            labels[k] + " " * (col - len(plain[k])) for k in range(r, min(r + per_row, len(labels)))
        ]
        rows.append("".join(cells).rstrip())
    return "\n".join(rows)


# -- input ------------------------------------------------------------------------------------
def _norm(text: str) -> str:
    for sym, letter in SYMBOL_LETTER.items():
        text = text.replace(sym, letter)
    return " ".join(text.lower().split())


def resolve(text: str, legal: list[str], all_names=()) -> tuple[int | None, str]:
    """The legal action a player's answer names: ``(index into legal, "")``, or ``(None, a
    message saying what was wrong and what is allowed)``. ``all_names``: every action name of
    the game (to tell an illegal action from a typo)."""
    t = _norm(text)
    n = len(legal)
    if not t:
        if n == 1:
            return 0, ""
        return None, f"type a number 1..{n} or an action's name (? for help)"
    if t.isdigit():
        k = int(t)
        if 1 <= k <= n:
            return k - 1, ""
        return None, f"there is no action {k}: choose 1..{n}"
    names = [_norm(x) for x in legal]
    if t in names:
        return names.index(t), ""
    hits = [i for i, x in enumerate(names) if x.startswith(t)]
    if len(hits) == 1:
        return hits[0], ""
    if len(hits) > 1:
        some = ", ".join(pretty(legal[i]) for i in hits[:8]) + (", ..." if len(hits) > 8 else "")
        return None, f"{text.strip()!r} fits {len(hits)} actions ({some}): type more of it"
    hits = [i for i, x in enumerate(names) if x.split()[-1] == t]
    if len(hits) == 1:
        return hits[0], ""
    known = [_norm(x) for x in all_names]
    if t in known or any(x.split()[-1] == t for x in known if len(x.split()) > 1):
        return None, f"{text.strip()!r} is not legal now; choose one of the {n} listed"
    return None, (
        f"{text.strip()!r} is neither a number 1..{n} nor a legal action's name "
        "(? for help, q to quit)"
    )


# -- agents -----------------------------------------------------------------------------------
def against_spec(against: str, iterations: int = 200) -> str:
    """The arena's agent spec of ``--against``: a bare ``ismcts`` searches ``--iterations``
    with random roll-outs (as it always has here); any other value is a spec already
    (``cardenvs.arena.make_agent``)."""
    return f"ismcts@{iterations}:random" if against == "ismcts" else against


def agent_move(agent, env) -> int:
    """The action of ``agent`` for the seat to act in the live AEC env: search agents
    (``act_env``) read the game, the others its observation."""
    if hasattr(agent, "act_env"):
        return int(agent.act_env(env))
    obs = env.observe(env.agent_selection)
    return int(agent.act(obs["observation"], obs["action_mask"]))


# -- the game ---------------------------------------------------------------------------------
class Quit(Exception):
    """The player left the game."""


def save_record(record: dict, path: Path) -> None:
    """Write ``record`` to ``path``, a new file (``FileExistsError`` if there is one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8") as f:
        f.write(json.dumps(record, indent=1) + "\n")


def play_game(
    env_id: str,
    seat: int,
    agents: dict,
    config: dict | None = None,
    seed: int | None = None,
    record_path: Path | str | None = None,
    color: bool = False,
    ask=input,
    say=print,
    against: str = "",
) -> dict:
    """Play one game with a person in ``seat`` (answers read with ``ask(prompt)``, text written
    with ``say``) and ``agents[s]`` in every other seat ``s``; save the record to
    ``record_path`` (also when the game is left unfinished) and return it. ``ValueError``
    before play when ``record_path`` cannot be written (``record_path_problem``). The seed is
    shown at the start only when one was given (``seed``), else once the game is over."""
    config = dict(config or {})
    if record_path:
        problem = record_path_problem(record_path)
        if problem:
            raise ValueError(f"record_path {str(record_path)!r} {problem}")
    env = cardenvs.make(env_id, illegal_action="raise", **config)
    env.reset(seed=seed)
    core = env.unwrapped
    players = [
        "human" if s == seat else against or getattr(agents[s], "name", "agent")
        for s in range(len(core.possible_agents))
    ]
    record_path = Path(record_path) if record_path else default_record_path(env_id)
    others = against or "agents"
    asked = "" if seed is None else f" (seed {core.record()['seed']})"  # else shown at the end
    say(
        bold(f"{env_id}: you are player_{seat}", color)
        + f", the others {others}{asked}; ? for help, q to quit"
    )
    log: list[str] = []
    finished = False
    try:
        while env.agents and not any(env.terminations.values()):
            actor = core.agent_name_mapping[env.agent_selection]
            if actor == seat:
                actions = _ask_move(env, core, seat, log, color, ask, say)
                log = []
            else:
                actions = [agent_move(agents[actor], env)]
            for action in actions:
                before = core.scene(seat)
                name = core.action_name(action)
                env.step(action)
                log += events(
                    before, core.scene(seat), actor, name, viewer=seat, record=core.record()
                )
        finished = True
    except (Quit, EOFError, KeyboardInterrupt):
        say("")
    record = core.record() | {"players": players}
    saved = _save(record, record_path, env_id, say)
    if finished:
        _show_events(log, color, say)
        say("")
        say(table(core.scene(None), color))
        say("")
        result = re.sub(rf"\bplayer_{seat}\b", f"player_{seat} (you)", core.scene(seat)["result"])
        say(bold(f"Result: {result}.", color))
    else:
        say("You left the game; the record so far is saved (it replays as an unfinished game).")
    if saved is None:
        say(f"Nothing was saved (seed {record['seed']}).")
        return record
    say(f"Record: {saved} (seed {record['seed']})")
    say(f"View it: python -m cardenvs.view {shlex.quote(str(saved))} -o game.html")
    return record


def _save(record: dict, path: Path, env_id: str, say) -> Path | None:
    """Save ``record`` to ``path``; when that fails, say why and save it under the default path
    instead; the path written, or None (said) when neither could be."""
    try:
        save_record(record, path)
        return path
    except OSError as e:
        fallback = default_record_path(env_id)
        say(f"Could not save the record to {path} ({e.strerror or e}); saving it to {fallback}.")
    try:
        save_record(record, fallback)
        return fallback
    except OSError as e:
        say(f"Could not save it there either ({e.strerror or e}).")
        return None


def _show_events(log, color, say) -> None:
    if log:
        say("")
        for line in log:
            say(f"  - {pretty(line, color)}")


def _ask_move(env, core, seat, log, color, ask, say) -> list[int]:
    """The actions of the person's move: one, or those of a choice of several cards
    (``card_choice``: named together, played by ``card_plan``)."""
    _show_events(log, color, say)
    say("")
    say(table(core.scene(seat), color))
    legal = core.legal_actions()
    legal = [legal[i] for i in menu_order([core.action_name(a) for a in legal])]
    names = [core.action_name(a) for a in legal]
    choice = card_choice(env, seat)
    if choice is not None:  # every card that may be chosen (some only as a later one) listed
        verb = choice["verb"] + " "
        others = [a for a in legal if not core.action_name(a).startswith(verb)]
        picks = [verb + c for c in choice["cards"]]
        names = [picks[i] for i in menu_order(picks)] + [core.action_name(a) for a in others]
        legal = [None] * len(picks) + others
    say("")
    say(bold("Your move:", color))
    say(action_menu(names, color))
    if choice is not None:
        say(choice_help(choice, names))
    while True:
        text = ask("> ")
        word = text.strip().lower()
        if word in ("q", "quit", "exit"):
            raise Quit
        if word in ("?", "help"):
            say(HELP)
            if choice is not None:
                say(choice_help(choice, names))
            continue
        if choice is not None:
            cards, message = pick_cards(text, names, choice)
            if cards is None and not message:  # one answer: a card (the whole set) or stop
                k, message = resolve(text, names, core.game.action_names)
                if k is not None and legal[k] is not None and names[k] != STOP:
                    return [legal[k]]  # an action of another kind
                if k is not None:
                    m = CARD.search(names[k])
                    cards = [m.group()] if m else []
            if cards is not None:
                actions, message = card_plan(env, seat, cards)
                if actions:
                    return actions
            say(message)
            continue
        k, message = resolve(text, names, core.game.action_names)
        if k is not None:
            return [legal[k]]
        say(message)


def choice_help(choice: dict, names: list[str]) -> str:
    """How to answer a choice of several cards (``card_choice``)."""
    verb, lo, hi = choice["verb"], choice["min"], choice["max"]
    span = f"{lo} to {hi}" if lo < hi else f"exactly {hi}"
    shown = [n.split()[1] for n in names if n.startswith(verb + " ")][:2]
    nums = [str(i + 1) for i, n in enumerate(names) if n.startswith(verb + " ")][:2]
    stop = f'; "{STOP}" {verb}s none' if lo == 0 else ""
    return (
        f"{verb.capitalize()} {span} cards at once, in any order: name them all together,\n"
        "e.g. "
        f'"{verb} {" ".join(card_text(c) for c in shown)}" or "{" ".join(nums)}" '
        f"(the numbers above){stop}."
    )


def pick_cards(text: str, names: list[str], choice: dict) -> tuple[list[str] | None, str]:
    """The cards an answer of several words names for ``choice`` (``"discard 7S 10S"``, ``"7s
    10s"``, ``"1 3"``: numbers of the menu ``names``): ``(cards, "")``; ``(None, message)``
    when it names something else; ``(None, "")`` for an answer of one word (``resolve``'s)."""
    verb = choice["verb"]
    words = _norm(text).replace(",", " ").split()
    named = words[:1] == [verb]
    if named:
        words = words[1:]
    if len(words) < 2 and not (named and not words):
        return None, ""
    if not words:
        return None, f'name the cards to {verb} after "{verb}", e.g. "{verb} 7S 10S"'
    if all(w.isdigit() for w in words):
        cards = []
        for w in words:
            k = int(w)
            if not 1 <= k <= len(names) or not names[k - 1].startswith(verb + " "):
                return None, f"{k} is not a card to {verb}: choose among the {verb} actions listed"
            cards.append(names[k - 1].split()[1])
        return cards, ""
    cards = []
    for w in words:
        if not CARD.fullmatch(w.upper()):
            return None, (
                f"{w!r} is not a card: name the cards to {verb} as 7S 10H (or 7♠ 10♥) or by "
                "their numbers"
            )
        cards.append(w.upper())
    return cards, ""


def default_record_path(env_id: str) -> Path:
    """``runs/play/<id>-<YYYYmmdd-HHMMSS>.json``, ``...-2.json``, ... (the first free one)."""
    base = Path("runs") / "play" / f"{env_id}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path, k = base, 2
    while path.exists():
        path = base.with_name(f"{base.stem}-{k}{base.suffix}")
        k += 1
    return path


def use_color(no_color: bool) -> bool:
    """Colour codes only on a terminal, and not with --no-color or NO_COLOR."""
    return not no_color and not os.environ.get("NO_COLOR") and sys.stdout.isatty()


def parse_config(p: argparse.ArgumentParser, text: str | None, env_id: str) -> dict:
    """``--config``'s JSON object, validated against the id's options (``p.error`` naming what
    is wrong)."""
    if text is None:
        return {}
    try:
        config = json.loads(text)
    except json.JSONDecodeError as e:
        p.error(f"--config must be a JSON object of {env_id}'s options, got {brief(text)} ({e})")
    except RecursionError:
        p.error(f"--config is JSON nested too deeply, got {brief(text)}; give a flat JSON object")
    if not isinstance(config, dict):
        p.error(f'--config must be a JSON object such as \'{{"episode": "deal"}}\', got {text!r}')
    game, defaults = lookup(env_id)
    try:
        game.config_cls.from_kwargs(**(defaults | config))
    except (ValueError, TypeError) as e:
        p.error(f"--config: {e}")
    return config


def num_seats(env_id: str, config: dict) -> int:
    """The number of seats of ``env_id`` with ``config``."""
    game, defaults = lookup(env_id)
    return int(game.num_seats(game.config_cls.from_kwargs(**(defaults | config))))


def main(argv=None) -> dict | None:
    p = argparse.ArgumentParser(
        prog="python -m cardenvs.play",
        description="Play a card game in the terminal against agents; the game is saved as a "
        "record for the viewer.",
    )
    p.add_argument(
        "game",
        choices=list(cardenvs.GAMES),
        metavar="ID",
        help=f"one of {', '.join(cardenvs.GAMES)}",
    )
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument(
        "--against",
        default="random",
        metavar="AGENT",
        help="the other seats: random (default), heuristic, ismcts (--iterations, random "
        "roll-outs), ismcts@<n>[:<rollout>], zoo or model:<path.npz>",
    )
    p.add_argument(
        "--config", help='the game\'s options as a JSON object, e.g. \'{"episode": "deal"}\''
    )
    p.add_argument(
        "--seed",
        type=int,
        help=f"the game's seed, 0..{MAX_SEED} (default: a fresh one, saved in the record)",
    )
    p.add_argument(
        "--record",
        type=Path,
        help="where to save the record: a new file in an existing directory, never overwritten "
        "(default runs/play/<id>-<time>.json)",
    )
    p.add_argument(
        "--iterations",
        type=int,
        default=200,
        help="ismcts: search iterations per move (default 200)",
    )
    p.add_argument("--web", action="store_true", help="play in the browser (cardenvs.web) instead")
    p.add_argument("--no-browser", action="store_true", help="--web: do not open a browser")
    p.add_argument("--no-color", action="store_true", help="no colour codes")
    args = p.parse_args(argv)
    env_id = args.game
    config = parse_config(p, args.config, env_id)
    seats = num_seats(env_id, config)
    if not 0 <= args.seat < seats:
        p.error(
            f"--seat must be a seat of {env_id} with this config: 0..{seats - 1}, got {args.seat}"
        )
    if args.seed is not None and not 0 <= args.seed <= MAX_SEED:
        p.error(f"--seed must be in 0..{MAX_SEED}, got {args.seed}")
    if args.iterations < 1:
        p.error(f"--iterations must be at least 1, got {args.iterations}")
    try:
        check_spec(against_spec(args.against, args.iterations))
    except ValueError as e:
        p.error(f"--against: {e}")
    if args.record is not None:
        problem = record_path_problem(args.record)
        if problem:
            p.error(f"--record {str(args.record)!r} {problem}")
    base = 0 if args.seed is None else args.seed
    try:
        agents = {
            s: make_agent(
                against_spec(args.against, args.iterations),
                env_id,
                seed=base + 1 + s,
                config=config,
                name=args.against,
            )
            for s in range(seats)
            if s != args.seat
        }
    except ValueError as e:
        p.error(str(e))
    if args.web:
        return _web(p, args, env_id, config, agents)
    return play_game(
        env_id,
        args.seat,
        agents,
        config=config,
        seed=args.seed,
        record_path=args.record,  # None: the default path, its runs/play/ made when saved
        color=use_color(args.no_color),
        against=args.against,
    )


def _web(p, args, env_id, config, agents):
    """``--web``: the game in the browser (``cardenvs.ui.web.serve``, which prints the address and
    saves the records); one agent plays every other seat."""
    try:
        from . import web
    except ImportError as e:
        if e.name not in ("cardenvs.ui.web", None):
            raise
        p.error(
            "--web needs cardenvs.ui.web (the browser front end), which this installation lacks"
        )
    return web.serve(
        env_id,
        args.seat,
        next(iter(agents.values())),
        config=config,
        seed=args.seed,
        record_path=args.record,
        open_browser=not args.no_browser,
    )


if __name__ == "__main__":
    main()
