"""Text rendering of an Esel row: pure functions of (state, row, config) -> str (ANSI)."""

from __future__ import annotations

from ...core.cards import SUITS
from ...core.state import PackedState
from ...core.text import bold, card_text, mask_text
from .config import Config
from .constants import PHASE_NAMES, PHASE_OVER, WIN_NAMES
from .layout import field

_DECL = {-1: "-", 0: "no", 1: "go"}


def render(s: PackedState, b: int, config: Config, color: bool = True) -> str:
    """Each player's trump, banks, declaration, points and hand; the trick, who holds it and why."""

    def f(name):
        return field(s, name)[b]

    P = config.num_players
    phase = PHASE_NAMES[int(f("phase"))]
    classes = f("suit_class")
    trumps_txt = ""
    if config.trump_option >= 3:
        names = {1: "trump", 2: "senior trump"} if config.trump_option == 5 else {1: "trump"}
        trumps_txt = "  " + ", ".join(
            f"{SUITS[i]} {names.get(int(c), 'junior trump')}" for i, c in enumerate(classes) if c
        )
    lines = [
        f"{bold('Esel', color)} hand {int(f('deal_no')) + 1}  dealer: player_{int(f('dealer'))}  "
        f"phase: {phase}  option {config.trump_option}  stock: {36 - int(f('stock_pos'))}"
        + trumps_txt
    ]
    for p in range(P):
        mark = "▶" if int(f("current")) == p else " "
        t = int(f("trump")[p])
        trump = SUITS[t] if t >= 0 else "-"
        lines.append(
            f"{mark} player_{p} trump {trump}  banks {int(f('banks')[p])}  "
            f"{_DECL[int(f('decl')[p])]:2s}  points {int(f('points')[p]):3d}  "
            f"tricks {int(f('tricks')[p]):2d}  hand: {mask_text(f('hand')[p], color)}"
        )
    n = int(f("trick_n"))
    if n:
        cards = ", ".join(
            f"player_{int(f('trick_seats')[i])} {card_text(int(f('trick_cards')[i]), color)}"
            for i in range(n)
        )
        lines.append(
            f"  trick: {cards}; held by player_{int(f('win_seat'))} with "
            f"{card_text(int(f('win_card')), color)} ({WIN_NAMES[int(f('win_type'))]}), "
            f"main suit {SUITS[int(f('main_suit'))]}"
        )
    elif int(f("last_win")[0]) >= 0:
        cards = " ".join(card_text(int(c), color) for c in f("last_trick")[:P] if c >= 0)
        lines.append(
            f"  last trick: {cards} -> player_{int(f('last_win')[0])} "
            f"({WIN_NAMES[int(f('last_win')[1])]})"
        )
    if f("phase") == PHASE_OVER:
        w = int(f("winner"))
        lines.append(f"  {bold('game over', color)}: " + ("drawn" if w < 0 else f"player_{w} wins"))
    return "\n".join(lines)
