"""The scene of a Banque row (``banque-v0``): ``scene(state, b, config, seat=None)``, the format of
``core.scene``. The bank is the scene's ``trick``: its cards bottom first, each with its owner
(None: no owner).

What a seat sees (``docs/games/banque.md``, the observation of ``observe.py``): its own hand once
the trumps are chosen (every hand stays face down until then), the bank with its owners and the
cards of the banks taken; never the other hands or the stock. The open view shows every card,
the stock too (its top card is the last of the pile).
"""

from __future__ import annotations

from ...core.cards import SUITS, format_card
from ...core.scene import cards_of, check_viewer, hand, make_scene, pile, play, seat_entry
from ...core.text import SUIT_SYMBOL
from .constants import NUM_CARDS, PHASE_NAMES, PHASE_OVER, PHASE_TRUMP
from .layout import (
    F_BANK,
    F_BANK_N,
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_DECK,
    F_OUT,
    F_OWNER,
    F_PHASE,
    F_SITTING,
    F_STOCK_POS,
    F_SUIT_CLASS,
    F_TIEBREAK,
    F_TRUMP,
    F_WINNERS,
    M_HAND,
    M_TAKEN,
    V_BANK_POINTS,
    V_BONUS,
    V_TOTAL,
    State,
)

_PHASE = {"trump": "trump choice"}
_PLACE = {1: "out 1st", 2: "out 2nd", 3: "out 3rd"}


def _trumps(f, config) -> str:
    opt = config.trump_option
    if opt == 1:
        return "Own trumps"
    if opt == 2:
        return "No trumps"
    if opt == 5:
        return "Trumps: ♠ senior, ♦ junior"
    suits = " ".join(SUIT_SYMBOL[SUITS[i]] for i in range(4) if f[F_SUIT_CLASS + i])
    return f"Trumps: {suits or 'not yet drawn'}"


def scene(s: State, b: int, config, seat: int | None = None) -> dict:
    """The scene of row ``b`` as ``seat`` sees it (None: the open view); see ``core.scene``."""
    P = config.num_players
    viewer = check_viewer(seat, P)
    f, m, v = s.f[b], s.m[b], s.v[b]
    phase = int(f[F_PHASE])
    over = phase == PHASE_OVER
    dealer = int(f[F_DEALER])
    seats = []
    taken = 0
    for p in range(P):
        taken |= int(m[M_TAKEN + p])
        lines = []
        t = int(f[F_TRUMP + p])
        if t >= 0:
            lines.append(f"trump {SUIT_SYMBOL[SUITS[t]]}")
        lines += [f"bank points {int(v[V_BANK_POINTS + p])}", f"bonus {int(v[V_BONUS + p])}"]
        if f[F_OUT + p]:
            lines.append(_PLACE.get(int(f[F_OUT + p]), "out"))
        sitting = bool(f[F_SITTING + p])
        if sitting:
            lines.append("sits this hand out")
        visible = viewer is None or (viewer == p and phase != PHASE_TRUMP)
        seats.append(
            seat_entry(
                p,
                hand(m[M_HAND + p], visible),
                role="dealer" if p == dealer else "",
                score=str(int(v[V_TOTAL + p])),
                lines=lines,
                active=not sitting,
            )
        )
    bank = [
        play(None if f[F_OWNER + i] < 0 else f[F_OWNER + i], f[F_BANK + i])
        for i in range(int(f[F_BANK_N]))
    ]
    stock = [int(c) for c in f[F_DECK + int(f[F_STOCK_POS]) : F_DECK + NUM_CARDS]][::-1]
    piles = [
        pile("stock", [format_card(c) if viewer is None else None for c in stock]),
        pile("banks taken", cards_of(taken)),
    ]
    info = [_trumps(f, config), f"Match to {config.target_score}", "The bank: bottom card first"]
    if f[F_TIEBREAK]:
        info.append("Tie-break hand")
    deal_only = config.episode == "deal"
    winners = [p for p in range(P) if f[F_WINNERS + p]]
    result = " and ".join(f"player_{p}" for p in winners) or "nobody"
    name = PHASE_NAMES[phase]
    return make_scene(
        config,
        title="Banque: " + ("one hand" if deal_only else f"hand {int(f[F_DEAL_NO]) + 1}"),
        viewer=viewer,
        to_act=int(f[F_CURRENT]),
        phase=_PHASE.get(name, name),
        over=over,
        result=result + (" wins" if len(winners) == 1 else " win" if winners else " wins (drawn)"),
        seats=seats,
        trick=bank,
        last_trick=None,
        piles=piles,
        info=info,
    )


__all__ = ["scene"]
