"""The scene of an Esel row (``esel-v0``): ``scene(state, b, config, seat=None)``, the format of
``core.scene``.

What a seat sees (``docs/games/esel.md`` 3.2 and section 10, the observation of ``observe.py``):
its own hand once the trumps are fixed (every hand stays face down while they are chosen), the
cards on the table and every card played; never the other hands or the stock. The open view
shows every card, the stock too (its top card is the last of the pile).
"""

from __future__ import annotations

from ...core.cards import SUITS, format_card
from ...core.scene import check_viewer, hand, make_scene, pile, play, seat_entry
from ...core.text import SUIT_SYMBOL, card_text
from .constants import NUM_CARDS, PHASE_NAMES, PHASE_OVER, PHASE_TRUMP, THRESHOLDS, WIN_NAMES
from .layout import (
    F_BANKS,
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_DECK,
    F_DECL,
    F_LAST_TRICK,
    F_LAST_WIN,
    F_MAIN_SUIT,
    F_PHASE,
    F_STOCK_POS,
    F_SUIT_CLASS,
    F_TRICK_CARDS,
    F_TRICK_N,
    F_TRICK_SEATS,
    F_TRICKS,
    F_TRUMP,
    F_WIN_CARD,
    F_WIN_SEAT,
    F_WIN_TYPE,
    F_WINNER,
    M_HAND,
    V_POINTS,
    State,
)
from .rulings import trick_winner


def _suit(i: int) -> str:
    return SUIT_SYMBOL[SUITS[i]]


def scene(s: State, b: int, config, seat: int | None = None) -> dict:
    """The scene of row ``b`` as ``seat`` sees it (None: the open view); see ``core.scene``."""
    P = config.num_players
    viewer = check_viewer(seat, P)
    f, m, v = s.f[b], s.m[b], s.v[b]
    phase = int(f[F_PHASE])
    over = phase == PHASE_OVER
    dealer = int(f[F_DEALER])
    seats = []
    for p in range(P):
        lines = []
        t = int(f[F_TRUMP + p])
        if t >= 0:
            lines.append(f"trump {_suit(t)}")
        decl = int(f[F_DECL + p])
        if decl >= 0:
            target = int(THRESHOLDS[P, 0 if decl else 1])
            lines += ["go" if decl else "no", f"points {int(v[V_POINTS + p])} of {target}"]
        lines.append(f"tricks {int(f[F_TRICKS + p])}")
        visible = viewer is None or (viewer == p and phase != PHASE_TRUMP)
        seats.append(
            seat_entry(
                p,
                hand(m[M_HAND + p], visible),
                role="dealer" if p == dealer else "",
                score=f"{int(f[F_BANKS + p])} banks",
                lines=lines,
            )
        )
    stock = [int(c) for c in f[F_DECK + int(f[F_STOCK_POS]) : F_DECK + NUM_CARDS]][::-1]
    n = int(f[F_TRICK_N])
    trick = [play(f[F_TRICK_SEATS + i], f[F_TRICK_CARDS + i]) for i in range(n)]
    last = None
    if f[F_LAST_WIN] >= 0:
        # the last trick's seats: clockwise from its leader, whose place in ``trick_seats`` the
        # current trick may have taken over (its last place is still the old one's)
        leader = int(f[F_TRICK_SEATS]) if n == 0 else int(f[F_TRICK_SEATS + P - 1]) - (P - 1)
        cards = [play((leader + i) % P, f[F_LAST_TRICK + i]) for i in range(P)]
        last = {"winner": int(f[F_LAST_WIN]), "cards": cards}
    info = _trumps(f, config)
    if n:
        card = card_text(int(f[F_WIN_CARD]), color=False)
        info.append(
            f"Main suit {_suit(int(f[F_MAIN_SUIT]))}; player_{int(f[F_WIN_SEAT])} holds the "
            f"trick with {card} ({WIN_NAMES[int(f[F_WIN_TYPE])]})"
        )
    deal_only = config.episode == "deal"
    w = int(f[F_WINNER])
    return make_scene(
        config,
        title="Esel: " + ("one hand" if deal_only else f"hand {int(f[F_DEAL_NO]) + 1}"),
        viewer=viewer,
        to_act=int(f[F_CURRENT]),
        phase={"trump": "trump choice", "declare": "go or no"}.get(
            PHASE_NAMES[phase], PHASE_NAMES[phase]
        ),
        over=over,
        result=("drawn" if w < 0 else f"player_{w} wins") if over else None,
        seats=seats,
        trick=trick,
        last_trick=last,
        piles=[pile("stock", [format_card(c) if viewer is None else None for c in stock])],
        info=info,
    )


def _trumps(f, config) -> list[str]:
    opt = config.trump_option
    if opt == 1:
        return ["Own trumps: a suit is trump in its owner's hand only"]
    if opt == 2:
        return ["No trumps"]
    classes = [int(c) for c in f[F_SUIT_CLASS : F_SUIT_CLASS + 4]]
    if opt == 5:
        return ["Trumps: ♠ senior, ♦ junior"]
    suits = " ".join(_suit(i) for i, c in enumerate(classes) if c)
    return [f"Trumps: {suits or 'not yet drawn'}"]


_SYMBOL_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOL.items()}


def trick_rule(before: dict, cards: list, config: dict) -> int:
    """``GameDef.trick_rule``: the seat that takes the complete trick ``cards`` (``{"seat",
    "card"}`` in play order), by the rules helper ``rulings.trick_winner`` with the trumps that
    ``before`` (a scene of the deal) shows: its first info line (``_trumps``: the trump option,
    the common trump suits) and each seat's ``trump`` line (option 1)."""
    config = dict(config)
    head = before["info"][0] if before["info"] else ""
    option = 1 if head.startswith("Own") else 2 if head.startswith("No trumps") else None
    if head.startswith("Trumps: ♠ senior"):
        option = 5
    kw = {}
    if option == 1:
        own = {}
        for s in before["seats"]:
            t = next((x.split()[1] for x in s["lines"] if x.startswith("trump ")), None)
            own[s["seat"]] = _SYMBOL_SUIT.get(t)
        kw["trumps"] = [own.get(c["seat"]) for c in cards]
    elif option is None:  # options 3 and 4: "Trumps: ♥ ♠"
        symbols = head.split(":", 1)[-1].split()
        suits = "".join(_SYMBOL_SUIT[x] for x in symbols if x in _SYMBOL_SUIT)
        option = 3 if len(suits) == 1 else 4
        kw["trumps"] = suits
    for key in ("trump_option", "common_trumps", "num_players"):
        config.pop(key, None)
    i = trick_winner([c["card"] for c in cards], trump_option=option, **kw, **config)
    return cards[i]["seat"]


__all__ = ["scene", "trick_rule"]
