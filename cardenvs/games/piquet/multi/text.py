"""Text rendering of a three- or four-handed Piquet row (``games.piquet.multi``): pure functions
of (state, row, config) -> str (ANSI)."""

from __future__ import annotations

from ....core.text import bold, card_text, mask_text
from . import config as C
from . import constants as K
from . import layout as L

_CATEGORY = ("point", "sequence", "sets")


def render(s: L.State, b: int, config, color: bool = True) -> str:
    """A table view of row ``b``: totals, phase, every hand, the declarations, the trick."""
    cfg = config.to_array()
    p = int(cfg[C.C_NUM_SEATS])
    partnership = int(cfg[C.C_MODE]) == K.MODE_PARTNERSHIP

    def f(name):
        return L.field(s, name)[b]

    def side(t):
        return t % 2 if partnership else t

    dealer = int(f("dealer"))
    title = "Partnership Piquet" if partnership else "Piquet normand"
    totals = " - ".join(str(int(f("total")[side(t)])) for t in range(p))
    lines = [
        f"{bold(title, color)} deal {int(f('deal_no')) + 1}  dealer: player_{dealer}  "
        f"phase: {K.PHASE_NAMES[int(f('phase'))]}  totals: {totals}",
    ]
    for t in range(p):
        mark = "▶" if int(f("current")) == t else " "
        extras = []
        if f("finished")[t]:
            extras.append(f"out after deal {int(f('finished')[t])}")
        if f("cb")[t]:
            extras.append("carte blanche")
        if f("bonus")[side(t)] == K.BONUS_PIQUE:
            extras.append("PIQUE")
        elif f("bonus")[side(t)] == K.BONUS_REPIQUE:
            extras.append("REPIQUE")
        lines.append(
            f"{mark} player_{t} deal {int(f('deal_score')[side(t)]):3d}  "
            f"tricks {int(f('tricks')[t]):2d}  hand: {mask_text(f('hand')[t], color)}"
            + (f"  [{', '.join(extras)}]" if extras else "")
        )
    if f("phase") >= K.PHASE_PLAY:
        decl = []
        for c, name in enumerate(_CATEGORY):
            w = int(f("decl_win")[c])
            if w < K.MAX_SEATS:
                decl.append(f"{name}: player_{w} +{int(f('decl_pts')[c])}")
            elif w == K.OUTCOME_EQUAL:
                decl.append(f"{name}: equal")
        if decl:
            lines.append("  declared: " + "; ".join(decl))
    if int(f("trick_n")) > 0:
        lines.append(
            f"  trick: player_{int(f('trick_leader'))} led {card_text(int(f('led')), color)}; "
            f"on the table: {mask_text(f('table'), color)}"
        )
    if f("phase") == K.PHASE_OVER:
        won = [t for t in range(p) if f("outcome")[t] == 1]
        who = "drawn" if not won else "winners: " + ", ".join(f"player_{t}" for t in won)
        lines.append(f"  {bold('game over', color)}: {who}")
    return "\n".join(lines)


__all__ = ["render"]
