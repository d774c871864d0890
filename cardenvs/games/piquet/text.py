"""Text rendering of a Piquet row: pure functions of (state, row, config) -> str (ANSI)."""

from __future__ import annotations

from ...core.text import bold, card_text, mask_text
from . import cards as CD
from . import config as C
from . import constants as K
from . import layout as L

_CATEGORY = ("point", "sequence", "sets")
_TITLE = {"AuCentConfig": "Piquet au cent", "AuctionConfig": "Auction Piquet"}
_TOTALS = {"AuCentConfig": "game"}


def render(s: L.State, b: int, config: C.Config, color: bool = True) -> str:
    """A table view of row ``b``: scores, phase, both hands, the current trick."""

    def f(name):
        return L.field(s, name)[b]

    dealer = int(f("dealer"))
    elder = int(CD._elder(s, b))  # an Auction declarer may have taken elder's role
    phase = K.PHASE_NAMES[int(f("phase"))]
    lines = [
        f"{bold(_TITLE.get(type(config).__name__, 'Piquet'), color)} deal "
        f"{int(f('deal_no')) + 1}  dealer: player_{dealer}  "
        f"phase: {phase}  {_TOTALS.get(type(config).__name__, 'partie')}: "
        f"{int(f('total')[0])} - {int(f('total')[1])}"
        + (
            f"  games won: {int(f('games_won')[0])} - {int(f('games_won')[1])}"
            if getattr(config, "au_cent_partie", False)
            else ""
        ),
    ]
    for seat in range(2):
        role = "elder" if seat == elder else "younger"
        mark = "▶" if int(f("current")) == seat else " "
        extras = []
        if f("cb")[seat]:
            extras.append("carte blanche")
        if f("bonus")[seat] == K.BONUS_PIQUE:
            extras.append("PIQUE")
        elif f("bonus")[seat] == K.BONUS_REPIQUE:
            extras.append("REPIQUE")
        lines.append(
            f"{mark} player_{seat} ({role:7s}) deal {int(f('deal_score')[seat]):3d}  "
            f"tricks {int(f('tricks')[seat]):2d}  hand: {mask_text(f('hand')[seat], color)}"
            + (f"  [{', '.join(extras)}]" if extras else "")
        )
    if f("phase") >= K.PHASE_PLAY:
        decl = []
        for c, name in enumerate(_CATEGORY):
            w = int(f("decl_win")[c])
            if w in (0, 1):
                decl.append(f"{name}: player_{w} +{int(f('decl_pts')[3 * w + c])}")
            elif w == K.OUTCOME_EQUAL:
                decl.append(f"{name}: equal")
        if decl:
            lines.append("  declared: " + "; ".join(decl))
    if f("bid") >= 0:
        dbl = ("", " doubled", " redoubled")[int(f("doubled"))]
        lines.append(
            f"  contract: {K.ACTION_NAMES[K.ACTION_BID + int(f('bid'))][4:]}{dbl} "
            f"by player_{int(f('bidder'))}"
        )
    if f("trick_card") >= 0:
        lines.append(
            f"  trick: player_{int(f('trick_leader'))} led {card_text(int(f('trick_card')), color)}"
        )
    if f("phase") == K.PHASE_OVER:
        w = int(f("winner"))
        who = "drawn" if w < 0 else f"player_{w} wins {int(f('result_points'))}"
        lines.append(f"  {bold('game over', color)}: {who}")
    return "\n".join(lines)


def render_plain(s: L.State, b: int, config: C.Config) -> str:
    """``render`` without colour codes."""
    return render(s, b, config, color=False)


__all__ = ["render", "render_plain"]
