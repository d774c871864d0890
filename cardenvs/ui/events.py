"""What happened in one step of a game, in plain sentences, from one seat's side: ``events``.

Usage::

    core = env.unwrapped
    seat = core.agent_name_mapping[env.agent_selection]
    before = core.scene(0)                          # player_0's view (None: the open view)
    env.step(action)
    after = core.scene(0)
    events(before, after, seat, core.action_name(action), record=core.record())
    # ['player_1 plays KH', 'player_1 wins the trick (KH)']           (seat 1 acted)
    # ['you play 7H', 'you win the trick (7H)', 'deal 3 ends: ...']   (seat 0 acted)
    tagged_events(before, after, seat, core.action_name(action), record=core.record())
    # [('action', 'you play 7H'), ('trick', 'you win the trick (7H)'), ('deal', ...)]

This is the one sentence builder of every log: the terminal game (``cardenvs.play``) and the
demo (``cardenvs.demo``) print ``events``; the replay viewer (``cardenvs.view``) and the browser
game (``cardenvs.web``) log ``tagged_events``, whose kinds (``KINDS``) mark trick winners, deal
ends and the result. Nothing is written anywhere.

What the sentences say
----------------------
- the action itself: ``"player_1 plays KH"``, ``"you discard QD"`` / ``"player_1 discards a
  card"`` (a card is named only when the viewer can see it: face up in either scene), bids,
  ``"player_2 says go"``, trump choices, the look at the talon, ...;
- cards drawn: ``"you draw 9D from the stock"``, ``"player_1 takes 3 cards from the talon"``,
  ``"player_2 draws a joker from the stock (hidden limit 4)"`` (a Four Aces joker is public: its
  drawer's limit rises), several hidden draws in one sentence;
- cards a seat shows (Piquet declarations), the viewer's own hand once it is turned up;
- ``"player_0 wins the trick (AS)"`` with the winning card (``"the last trick"`` when it ends the
  deal), Banque's ``"player_1 takes the bank: ... (12 points)"`` and who goes out;
- the declarations once they are scored (Piquet's ``Point``, ``Sequence``, ``Sets`` lines);
- at the end of a deal: ``"deal 3 ends: player_0 27, player_1 6; ...; totals player_0 47,
  player_1 40"`` with the deal's declarations, contract, banks or bonuses, then the next deal's
  start;
- at the end of the game: ``"game over: player_1 and player_3 win"`` (every winner, or "drawn"),
  and, when the match stopped at its hand limit, ``"the game stops at its limit of 60 hands
  (max_hands=60)"``.

Method
------
Everything is read from the two scenes (``core.scene``: the view of ``viewer``, or the open
view) and the action's name; ``record`` (the game's record after the step,
``env.unwrapped.record()``) adds what the scenes lose when a deal ends in the step: the deal's
points and extras, the game's result and config (the hand limit). Without it, a finished deal is
found by its title changing (or the game ending) and its points are the change in the seats'
scores where those are numbers. The winner of a trick is the scene's ``last_trick``; the last
trick of a deal that is followed by another is gone from the next scene, so its winner comes from
the game's trick rule (``GameDef.trick_rule``: the highest card of the suit led in the Piquet
games, Esel's public rules helper with the trumps the scene shows). What else the sentences need
to know of a game comes from its ``GameDef`` too (the scene's id, ``cardenvs.registry``): its
``family`` (the Piquet ids tell declarations and points) and its ``hand_limit``. A seat named
``viewer`` is called "you" (``you=False``: by its name).
"""

from __future__ import annotations

import re
from collections import Counter

from ..core.checks import brief
from ..core.scene import SCENE_KEYS, face_up
from ..registry import lookup

#: the kinds of sentence ``tagged_events`` tells, in the order they come in one step: the action
#: itself (a draw action's card drawn too), other cards drawn (the talon taken), cards shown, a
#: trick's winner, a bank taken (Banque), a seat going out (Banque), declarations scored, a
#: deal's end, the next deal's start, the game's end (and its hand limit)
KINDS = (
    "action",
    "draw",
    "show",
    "trick",
    "bank",
    "out",
    "declaration",
    "deal",
    "begin",
    "result",
)
SUIT_WORD = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_DECLARATION = re.compile(r"^(Point|Sequence|Sets|Carte blanche|Contract|Redeals)\b")
_NUMBER = re.compile(r"-?\d+")


def events(before, after, actor, action_name, viewer=None, *, record=None, you=True) -> list:
    """The sentences that tell what happened between two scenes of one game.

    Args:
        before: the scene before the step (``env.unwrapped.scene(viewer)``).
        after: the scene after it, in the same view.
        actor: the seat that acted.
        action_name: the action's name (``env.unwrapped.action_name(action)``).
        viewer: the seat whose view the scenes are (default: theirs, ``after["viewer"]``); it is
            called "you" and the cards it cannot see stay unnamed. None with open-view scenes.
        record: the game's record after the step (``env.unwrapped.record()``), optional: the
            points of a finished deal, the result and the hand limit.
        you: call the viewer "you" (False: by its name, ``player_0``).

    Returns:
        A list of plain sentences (str), in the order things happened.

    Raises:
        ValueError: the scenes are not scenes of one game in one view, ``actor`` is not one of
            its seats, ``action_name`` is not a string, or ``viewer`` is not the scenes' viewer.
    """
    told = tagged_events(before, after, actor, action_name, viewer, record=record, you=you)
    return [text for _, text in told]


def tagged_events(
    before, after, actor, action_name, viewer=None, *, record=None, you=True
) -> list[tuple[str, str]]:
    """``events`` with each sentence's kind: ``[(kind, sentence), ...]``, kind one of
    ``KINDS`` (a log colours trick winners and deal ends by it). Arguments, errors and
    sentences as for ``events``."""
    _check(before, after, actor, action_name, viewer)
    return _Step(before, after, int(actor), action_name, after["viewer"], record, you).run()


def _check(before, after, actor, action_name, viewer) -> None:
    for name, s in (("before", before), ("after", after)):
        if not isinstance(s, dict) or tuple(s) != SCENE_KEYS:
            raise ValueError(
                f"{name} must be a scene (core.scene: keys {SCENE_KEYS}), got {brief(s)}"
            )
    if before["game"] != after["game"] or len(before["seats"]) != len(after["seats"]):
        raise ValueError(
            f"before and after must be scenes of one game, got {before['game']!r} with "
            f"{len(before['seats'])} seats and {after['game']!r} with {len(after['seats'])}"
        )
    if before["viewer"] != after["viewer"]:
        raise ValueError(
            f"before and after must be in one view, got viewer {before['viewer']} and "
            f"{after['viewer']}"
        )
    p = len(after["seats"])
    if isinstance(actor, bool) or not isinstance(actor, int) or not 0 <= actor < p:
        raise ValueError(f"actor must be a seat in 0..{p - 1}, got {brief(actor)}")
    if not isinstance(action_name, str) or not action_name.split():
        raise ValueError(f"action_name must be an action's name, got {brief(action_name)}")
    if viewer is not None and viewer != after["viewer"]:
        raise ValueError(
            f"viewer {brief(viewer)} is not the scenes' viewer ({after['viewer']}): pass scenes "
            f"in that seat's view (scene(seat={viewer}))"
        )


def _verb(third: str) -> str:
    """The verb of ``third`` ("plays", "passes", "has") for "you": "play", "pass", "have"."""
    head, _, tail = third.partition(" ")
    irregular = {"has": "have", "is": "are", "does": "do"}
    if head in irregular:
        base = irregular[head]
    elif head.endswith(("sses", "shes", "ches", "xes", "oes")):
        base = head[:-2]
    elif head.endswith("s"):
        base = head[:-1]
    else:
        base = head
    return base + (" " + tail if tail else "")


def _cards(cards) -> str:
    return " ".join(cards)


def _count(n: int, what: str = "card") -> str:
    return f"a {what}" if n == 1 else f"{n} {what}s"


def _int(text):
    """The first integer in ``text`` (a score, a line), None if none."""
    m = _NUMBER.search(str(text))
    return None if m is None else int(m.group())


def _label(title: str) -> str:
    """A deal's name from a scene title: ``"Piquet: deal 3 of 6"`` -> ``"deal 3"``; ``"Esel: one
    hand"`` -> ``"the hand"``."""
    rest = title.split(": ", 1)[-1]
    m = re.match(r"(deal|hand|round) \d+", rest)
    if m:
        return m.group()
    m = re.match(r"one (deal|hand|round)", rest)
    return f"the {m.group(1)}" if m else "the deal"


def _pile(scene, name: str):
    return next((q for q in scene["piles"] if q["name"] == name), None)


def _line(seat: dict, prefix: str):
    """The number of the seat's line that starts with ``prefix`` (``"limit"``), None if none."""
    for x in seat["lines"]:
        if x.startswith(prefix + " "):
            return _int(x[len(prefix) :])
    return None


def _game(env_id):
    """The ``GameDef`` of the scenes' id, None for an id the registry does not know."""
    try:
        return lookup(env_id)[0]
    except ValueError:
        return None


def trick_winner_by_rule(game: str, before: dict, cards: list, record=None):
    """The seat that takes a complete trick of the id ``game``, by its rule (``GameDef.
    trick_rule``; see the module docstring): ``cards`` in play order (``{"seat", "card"}``),
    ``before`` the scene that shows the trumps (Esel), ``record`` the game's (its config). None
    for a game without a trick rule."""
    definition = _game(game)
    if definition is None or definition.trick_rule is None:
        return None
    return definition.trick_rule(before, cards, dict((record or {}).get("config", {})))


class _Step:
    """One call of ``events``: the two scenes, the action and what the sentences need."""

    def __init__(self, before, after, actor, action_name, viewer, record, you):
        self.b, self.a, self.actor = before, after, actor
        self.words = action_name.split()
        self.action = action_name
        self.viewer = viewer
        self.me = viewer if you else None
        self.record = record
        self.game = _game(after["game"])  # its GameDef (None: an id the registry does not know)
        self.family = None if self.game is None else self.game.family
        self.seen = set(face_up(before)) | set(face_up(after))
        self.ended = self._ended()
        self.drawn: set[int] = set()  # the seats that drew cards in the step
        self.kind = "action"  # the kind of the sentences being told (``KINDS``)
        self.out: list[tuple[str, str]] = []

    # -- words --------------------------------------------------------------------------------
    def name(self, seat) -> str:
        return "you" if seat is not None and seat == self.me else f"player_{seat}"

    def add(self, text: str) -> None:
        """Add a sentence of the current kind."""
        self.out.append((self.kind, text))

    def say(self, seat, verb: str, rest: str = "") -> None:
        """Add "<seat> <verb> <rest>", the verb conjugated for "you"."""
        v = _verb(verb) if seat == self.me else verb
        self.add(f"{self.name(seat)} {v}" + (f" {rest}" if rest else ""))

    def names(self, seats) -> str:
        seats = sorted(seats, key=lambda s: (s != self.me, s))
        words = [self.name(s) for s in seats]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

    def card(self, card: str) -> str:
        """``card`` if the viewer can see it, else "a card"."""
        return card if card in self.seen else "a card"

    # -- the step -----------------------------------------------------------------------------
    def run(self) -> list[tuple[str, str]]:
        self.tell("action", self.act)
        self.tell("trick", self.trick)
        if self.ended is None:
            self.tell("draw", self.draws)
            self.tell("show", self.shows)
            self.tell("bank", self.bank)
            self.tell("out", self.going_out)
            self.tell("declaration", self.declarations, self.b["info"], self.a["info"])
            return self.out
        self.tell("deal", self.deal_end)
        if self.a["over"] and not self.b["over"]:
            self.tell("result", self.game_over)
        elif not self.a["over"]:
            self.kind = "begin"
            self.add(f"{_label(self.a['title'])} begins")
            self.tell("declaration", self.declarations, [], self.a["info"])
        return self.out

    def tell(self, kind: str, part, *args) -> None:
        """Run ``part`` (a method that adds sentences) with its sentences of kind ``kind``."""
        self.kind = kind
        part(*args)

    def _ended(self):
        """The deal that ended in this step: ``(index or None, record deal or None)``; None when
        no deal ended."""
        rec = self.record
        if self.b["over"]:
            return None
        if isinstance(rec, dict) and isinstance(rec.get("deals"), list) and rec["deals"]:
            deals, result = rec["deals"], rec.get("result")
            if isinstance(result, dict) and "illegal_move" not in result and self.a["over"]:
                return len(deals) - 1, deals[-1]
            if len(deals) > 1 and not deals[-1].get("actions") and not self.a["over"]:
                return len(deals) - 2, deals[-2]
            return None
        if self.a["over"] or self.a["title"] != self.b["title"]:
            return None, None
        return None

    def act(self) -> None:
        w, p = self.words, self.actor
        head, arg = w[0], w[1] if len(w) > 1 else ""
        if head == "play":
            self.say(p, "plays", arg)
        elif head == "eight":
            self.say(p, "plays", f"the eight {arg}")
        elif head == "quad":  # Banque: quad <rank> top <card>
            self.say(p, "plays", f"four {w[1]}s, {w[3]} on top")
        elif head == "sequence":  # Banque: sequence <suit> <lowest rank>
            self.say(p, "plays", f"four {SUIT_WORD.get(w[1], w[1])} in a row from the {w[2]}")
        elif head == "discard":
            self.say(p, "discards", self.card(arg))
        elif head == "stop":
            if self.family == "banque":
                self.say(p, "makes", "no follow-up")
            else:
                self.say(p, "ends", "the exchange")
        elif head == "look":
            talon = _pile(self.a, "talon")
            shown = [c for c in (talon or {"cards": []})["cards"] if c is not None]
            rest = "the rest of the talon" + (f": {_cards(shown)}" if shown else "")
            self.say(p, "looks at", rest)
        elif head == "dont_look":
            self.say(p, "leaves", "the rest of the talon unseen")
        elif head == "claim":
            self.say(p, "claims", "carte blanche")
        elif head == "dont_claim":
            self.say(p, "does not claim", "carte blanche")
        elif head == "declare":
            self.say(p, "declares")
        elif head == "sink":
            self.say(p, "sinks", "(nothing called in this category)")
        elif head == "answer":
            self.say(p, "answers")
        elif head == "concede":
            self.say(p, "says", '"good" (concedes the category)')
        elif head == "pass":
            self.say(p, "passes")
        elif head == "bid":
            n, sign = int(arg[:-1]), arg[-1]
            what = f"at least {n} tricks" if sign == "+" else f"at most {12 - n} tricks"
            self.say(p, "bids", f"{arg} ({what})")
        elif head in ("double", "redouble"):
            self.say(p, head + "s")
        elif head in ("go", "no"):
            self.say(p, "says", head)
        elif head == "trump":
            self.say(p, "takes", f"{SUIT_WORD.get(arg, arg)} as trump")
        elif head == "joker":
            target = (p + 1) % len(self.a["seats"])
            missed = "misses a turn" in self.a["seats"][target]["lines"]
            self.say(p, "plays", f"a joker on {self.name(target)}")
            if missed:
                self.say(target, "misses", "the next turn")
        elif action_is_draw(w):
            if w == ["draw", "discard"]:
                pile = _pile(self.b, "discard pile")
                top = pile["cards"][-1] if pile and pile["cards"] else "the top card"
                self.say(p, "takes", f"{top} from the discard pile")
            elif self.ended is not None:  # the deal ended on the draw: say it plainly
                self.say(p, "draws", "from the stock")
            # a draw from the stock is told by draws()
        else:
            self.say(p, "chooses", self.action)

    def draws(self) -> None:
        """Cards that came into hands from the talon or the stock (the actor's draw from the
        stock, Banque's and Four Aces' ``draw``, is the action's own sentence: kind "action")."""
        hidden: dict[tuple, list[int]] = {}
        source, _ = self._source()
        for sb, sa in zip(self.b["seats"], self.a["seats"], strict=True):
            p = sa["seat"]
            n = sa["hand_count"] - sb["hand_count"] + self._left(p)
            if n <= 0:
                continue
            self.drawn.add(p)
            self._draw_kind([p])
            visible_b = Counter(c for c in sb["hand"] if c)
            new = list((Counter(c for c in sa["hand"] if c) - visible_b).elements())
            limit_b, limit_a = _line(sb, "limit"), _line(sa, "limit")
            joker = "JK" in new or (
                limit_b is not None and limit_a is not None and limit_a > limit_b
            )
            verb = "takes" if source == "the talon" else "draws"
            where = f" from {source}" if source else ""
            if joker:
                self.say(p, verb, f"a joker{where} (hidden limit {limit_a})")
            elif len(new) == n:
                self.say(p, verb, _cards(new) + where)
            else:
                hidden.setdefault((n, verb, where), []).append(p)
        for (n, verb, where), seats in hidden.items():
            self._draw_kind(seats)
            if len(seats) == 1:
                self.say(seats[0], verb, _count(n) + where)
            else:
                self.add(f"{self.names(seats)} each {_verb(verb)} {_count(n)}{where}")

    def _draw_kind(self, seats) -> None:
        own = seats == [self.actor] and action_is_draw(self.words)
        self.kind = "action" if own else "draw"

    def _left(self, seat: int) -> int:
        """How many cards the action took out of ``seat``'s hand."""
        w = self.words
        if seat != self.actor:
            return 0
        if w[0] in ("play", "eight", "joker"):
            return 1
        if w[0] in ("quad", "sequence"):
            return 4
        if w[0] == "discard":  # Four Aces discards exposed cards too
            return 0 if w[1] in self.b["seats"][seat]["exposed"] else 1
        return 0

    def _source(self) -> tuple[str, int]:
        """The pile cards were drawn from ("the talon", "the stock" or "") and how many."""
        for name in ("talon", "stock"):
            qb, qa = _pile(self.b, name), _pile(self.a, name)
            if qb is not None and qa is not None and qa["count"] < qb["count"]:
                return f"the {name}", qb["count"] - qa["count"]
        return "", 0

    def shows(self) -> None:
        """Cards of a hand that became visible without being drawn: another seat's declared
        combinations, the viewer's own hand turned up (Esel and Banque, after the trumps)."""
        for sb, sa in zip(self.b["seats"], self.a["seats"], strict=True):
            if sa["seat"] in self.drawn:
                continue
            vis_b = Counter(c for c in sb["hand"] if c)
            new = [c for c in sa["hand"] if c and not vis_b[c]]
            if not new:
                continue
            p = sa["seat"]
            if p == self.viewer and not vis_b:
                own = "your hand" if p == self.me else f"player_{p}'s hand"
                self.add(f"{own}: {_cards(new)}")
            elif p != self.viewer:
                self.say(p, "shows", _cards(new))

    def trick(self) -> None:
        """The winner of a trick that the action completed."""
        w = self.words
        if w[0] != "play" or len(w) != 2 or (self.game and self.game.trick_rule is None):
            return
        played = {"seat": self.actor, "card": w[1]}
        if self.ended is None and self.a["trick"] and self.a["trick"][-1] == played:
            return  # the trick goes on
        cards = list(self.b["trick"]) + [played]
        last = self.a["last_trick"]
        if last is not None and [c["card"] for c in last["cards"]] == [c["card"] for c in cards]:
            winner = last["winner"]
        elif self.ended is None:
            return  # not a trick game (or a trick this module cannot read)
        else:
            winner = trick_winner_by_rule(self.a["game"], self.b, cards, self.record)
            if winner is None:
                return
        card = next(c["card"] for c in cards if c["seat"] == winner)
        which = "the last trick" if self.ended is not None else "the trick"
        self.say(winner, "wins", f"{which} ({card})")

    def bank(self) -> None:
        """Banque: the bank taken when a seat fails (cards moved to the banks taken)."""
        qb, qa = _pile(self.b, "banks taken"), _pile(self.a, "banks taken")
        if qb is None or qa is None or qa["count"] <= qb["count"] or not self.b["trick"]:
            return
        moved = list((Counter(qa["cards"]) - Counter(qb["cards"])).elements())
        taker = self.b["trick"][-1]["seat"]
        if taker is None:
            return
        pb = _line(self.b["seats"][taker], "bank points")
        pa = _line(self.a["seats"][taker], "bank points")
        points = (
            f" ({pa - pb} point{'' if pa - pb == 1 else 's'})"
            if pa is not None and pb is not None
            else ""
        )
        self.say(taker, "takes", f"the bank: {_cards(moved)}{points}")

    def going_out(self) -> None:
        """Banque: a seat that has gone out ("out 1st")."""
        for sb, sa in zip(self.b["seats"], self.a["seats"], strict=True):
            new = [x for x in sa["lines"] if x.startswith("out") and x not in sb["lines"]]
            if new:
                self.say(sa["seat"], "goes", new[0])

    def declarations(self, old, new) -> None:
        """Declarations scored (Piquet's category lines) and the contract once it stands."""
        lines = [x for x in new if _DECLARATION.match(x) and x not in old]
        scored = [x for x in lines if not x.startswith(("Contract", "Redeals"))]
        if scored:
            self.add("declarations: " + "; ".join(self._you(x) for x in scored))

    def _you(self, text: str) -> str:
        if self.me is None:
            return text
        return re.sub(rf"\bplayer_{self.me}\b", "you", text)

    # -- endings ------------------------------------------------------------------------------
    def deal_end(self) -> None:
        _, deal = self.ended
        b, a = self.b, self.a
        if isinstance(deal, dict) and "contract" in deal and deal["contract"] is None:
            label = _label(b["title"])
            self.add(f"{label} ends without a contract: nobody bid, it is dealt again")
            return
        seats = range(len(a["seats"]))
        points = deal.get("points") if isinstance(deal, dict) else None
        if points is None:
            diffs = [
                (_int(sa["score"]), _int(sb["score"]))
                for sb, sa in zip(b["seats"], a["seats"], strict=True)
            ]
            if all(x is not None and y is not None for x, y in diffs):
                points = [x - y for x, y in diffs]
        parts = []
        partners = any(x.startswith("Partners:") for x in b["info"])
        if points is not None:
            if partners:
                parts.append(", ".join(f"{self.names([s, s + 2])} {points[s]}" for s in (0, 1)))
            else:
                parts.append(", ".join(f"{self.name(s)} {points[s]}" for s in seats))
        if self.family == "piquet":
            parts += [self._you(x) for x in b["info"] if _DECLARATION.match(x)]
            for s in b["seats"]:
                for x in s["lines"]:
                    if x in ("pique", "repique", "carte blanche"):
                        parts.append(f"{self.name(s['seat'])}: {x}")
        extras = deal if isinstance(deal, dict) else {}
        if "bank_change" in extras:  # Esel
            parts.append(
                "banks "
                + ", ".join(
                    f"{self.name(s)} {extras['banks'][s]} ({extras['bank_change'][s]:+d})"
                    for s in seats
                )
            )
        for key in ("bonus", "penalty"):  # Banque
            if any(extras.get(key, [])):
                parts.append(
                    f"{key} " + ", ".join(f"{self.name(s)} {extras[key][s]}" for s in seats)
                )
        if "ended_by" in extras:
            parts.append(f"ended by {extras['ended_by']}")
        label = _label(b["title"])
        if not label.startswith("the ") and "banks" not in extras:
            # a game of several deals: the totals after this one (Esel's are its banks)
            totals = [sa["score"] for sa in a["seats"]]
            if partners:
                each = [f"{self.names([s, s + 2])} {totals[s]}" for s in (0, 1)]
            else:
                each = [f"{self.name(s)} {totals[s]}" for s in seats]
            parts.append("totals " + ", ".join(each))
        self.add(f"{label} ends" + (": " + "; ".join(parts) if parts else ""))

    def game_over(self) -> None:
        rec = self.record if isinstance(self.record, dict) else None
        res = rec.get("result") if rec else None
        if not isinstance(res, dict) or "illegal_move" in res:
            self.add(f"game over: {self._you(self.a['result'] or 'over')}")
            return
        winners = res.get("winners")
        if winners is None:
            winners = [] if res.get("winner") is None else [res["winner"]]
        if winners:
            verb = "wins" if len(winners) == 1 and winners[0] != self.me else "win"
            text = f"game over: {self.names(winners)} {verb}"
            if self.family == "piquet" and "points" in res and len(winners) == 1:
                n = res["points"]
                text += f" ({n} point{'' if n == 1 else 's'})"
        else:
            text = "game over: drawn, nobody wins"
        self.add(text)
        cap = None if self.game is None else self.game.hand_limit
        config = rec.get("config", {})
        if cap and config.get("episode") != "deal" and not (cap.unless and config.get(cap.unless)):
            limit, count = config.get(cap.option), res.get(cap.count)
            if limit is not None and count == limit:
                unit = cap.count[:-1] if limit == 1 else cap.count
                self.add(f"the game stops at its limit of {limit} {unit} ({cap.option}={limit})")


def action_is_draw(words) -> bool:
    """The action takes a card from the stock or the discard pile (Banque's ``draw``, Four
    Aces' ``draw stock`` and ``draw discard``)."""
    return words[0] == "draw"
