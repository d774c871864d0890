"""Text rendering of a Banque row: pure functions of (state, row, config) -> str (ANSI)."""

from __future__ import annotations

from ...core.cards import SUITS
from ...core.state import PackedState
from ...core.text import bold, card_text, mask_text
from .config import Config
from .constants import NUM_CARDS, PHASE_NAMES, PHASE_OVER, PHASE_TRUMP
from .layout import field

_OPTION = {1: "own trumps", 2: "no trumps", 3: "one common trump", 4: "two common trumps"}


def _trumps(f, config: Config) -> str:
    opt = config.trump_option
    if opt == 5:
        return "trumps: ♠ senior, ♦ junior"
    if opt in (3, 4):
        suits = [SUITS[i] for i, c in enumerate(f("suit_class")) if c]
        return f"{_OPTION[opt]}: {' '.join(suits) or '-'}"
    return _OPTION[opt]


def render(
    s: PackedState, b: int, config: Config, color: bool = True, viewer: int | None = None
) -> str:
    """The bank (top card first, with owners), the viewer's hand only (default: the seat to
    act; ``viewer=-1`` shows every hand), hand sizes, stock size, trumps and scores."""

    def f(name):
        return field(s, name)[b]

    P = config.num_players
    phase = int(f("phase"))
    cur = int(f("current"))
    if viewer is None:
        viewer = cur
    n = int(f("bank_n"))
    bank = ", ".join(
        card_text(int(f("bank")[i]), color)
        + ("·" if f("owner")[i] < 0 else f"/p{int(f('owner')[i])}")
        for i in range(n - 1, -1, -1)
    )
    lines = [
        f"{bold('Banque', color)} hand {int(f('deal_no')) + 1}  dealer: player_{int(f('dealer'))}"
        f"  phase: {PHASE_NAMES[phase]}  stock: {NUM_CARDS - int(f('stock_pos'))}  "
        + _trumps(f, config)
        + ("  (tie-break hand)" if f("tiebreak") else ""),
        f"  bank ({n}, top first, /owner, · none): {bank or '-'}",
    ]
    for p in range(P):
        mark = "▶" if cur == p else " "
        hand = int(f("hand")[p])
        if f("sitting")[p]:
            shown = "sits out"
        elif phase == PHASE_TRUMP:
            shown = f"{bin(hand).count('1')} cards, face down until the trumps are chosen"
        elif phase != PHASE_OVER and viewer not in (p, -1):
            shown = f"{bin(hand).count('1')} cards"
        else:
            shown = mask_text(hand, color)
        t = int(f("trump")[p])
        own = f"trump {SUITS[t]}  " if t >= 0 else ""
        out = int(f("out")[p])
        place = f"  out {out}{'st' if out == 1 else 'nd' if out == 2 else 'rd'}" if out else ""
        lines.append(
            f"{mark} player_{p} {own}total {int(f('total')[p]):4d}  "
            f"banks {int(f('bank_points')[p]):3d}  bonus {int(f('bonus')[p]):3d}{place}  "
            f"hand: {shown}"
        )
    if phase == PHASE_OVER:
        winners = [p for p in range(P) if f("winners")[p]]
        who = ", ".join(f"player_{p}" for p in winners) or "nobody (drawn)"
        lines.append(f"  {bold('match over', color)}: {who} won")
    return "\n".join(lines)
