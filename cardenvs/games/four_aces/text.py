"""Text rendering of a Four Aces row: pure functions of (state, row, config) -> str (ANSI)."""

from __future__ import annotations

from ...core.state import PackedState
from ...core.text import bold, card_text, mask_text
from .config import Config
from .constants import PHASE_NAMES, PHASE_OVER
from .layout import field


def render(s: PackedState, b: int, config: Config, color: bool = True) -> str:
    """Each player's exposed and hidden hand, limit, jokers and total; the discard pile."""

    def f(name):
        return field(s, name)[b]

    P = config.num_players
    n = int(f("pile_n"))
    pile = " ".join(card_text(int(c), color) for c in f("pile")[max(0, n - 8) : n])
    lines = [
        f"{bold('Four Aces', color)} round {int(f('deal_no')) + 1}  "
        f"dealer: player_{int(f('dealer'))}  phase: {PHASE_NAMES[int(f('phase'))]}  "
        f"stock: {54 - int(f('stock_pos'))}  "
        f"pile ({n}): {'… ' if n > 8 else ''}{pile or '-'}"
    ]
    for p in range(P):
        mark = "▶" if int(f("current")) == p else " "
        jokers = int(f("jokers_held")[p])
        lines.append(
            f"{mark} player_{p} total {int(f('total')[p]):4d}  limit {int(f('limit')[p])}  "
            f"jokers held {jokers} played {int(f('jokers_played')[p])}  "
            f"exposed: {mask_text(f('exposed')[p], color)}  "
            f"hidden: {mask_text(f('hidden')[p], color)}" + (" +JK" * jokers)
        )
    if f("phase") == PHASE_OVER:
        winners = [p for p in range(P) if f("winners")[p]]
        who = ", ".join(f"player_{p}" for p in winners) or "nobody (drawn)"
        lines.append(f"  {bold('game over', color)}: {who} won")
    return "\n".join(lines)
