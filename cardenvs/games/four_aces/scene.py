"""The scene of a Four Aces row (``four_aces-v0``): ``scene(state, b, config, seat=None)``, the
format of ``core.scene``. A seat's ``hand`` is its hidden hand (its jokers last, ``"JK"``), its
``exposed`` cards its exposed hand; the discard pile and the stock are the piles.

What a seat sees (``docs/games/four_aces.md`` section 8, A18; the observation of ``observe.py``):
its own hidden hand and jokers, every exposed hand and the whole discard pile; never the other
hidden hands or the stock. The open view shows every card, the stock too (its top card is the
last of the pile).
"""

from __future__ import annotations

from ...core.cards import NUM_CARDS, format_card
from ...core.scene import cards_of, check_viewer, hand, make_scene, pile, seat_entry
from ...core.text import card_text
from .constants import PHASE_NAMES, PHASE_OVER
from .layout import (
    F_CURRENT,
    F_DEAL_NO,
    F_DEALER,
    F_DECK,
    F_DRAWN,
    F_JOKERS_HELD,
    F_JOKERS_PLAYED,
    F_LIMIT,
    F_PHASE,
    F_PILE,
    F_PILE_N,
    F_SKIP,
    F_STOCK_POS,
    F_WINNERS,
    M_EXPOSED,
    M_HIDDEN,
    V_TOTAL,
    State,
)


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
        lines = [f"limit {int(f[F_LIMIT + p])}"]
        if f[F_JOKERS_PLAYED + p]:
            lines.append(f"jokers played {int(f[F_JOKERS_PLAYED + p])}")
        if f[F_SKIP + p]:
            lines.append("misses a turn")
        seats.append(
            seat_entry(
                p,
                hand(
                    m[M_HIDDEN + p], viewer is None or viewer == p, jokers=int(f[F_JOKERS_HELD + p])
                ),
                role="dealer" if p == dealer else "",
                score=str(int(v[V_TOTAL + p])),
                lines=lines,
                exposed=cards_of(m[M_EXPOSED + p]),
            )
        )
    stock = [int(c) for c in f[F_DECK + int(f[F_STOCK_POS]) : F_DECK + NUM_CARDS]][::-1]
    discards = [format_card(int(c)) for c in f[F_PILE : F_PILE + int(f[F_PILE_N])]]
    piles = [
        pile("stock", [format_card(c) if viewer is None else None for c in stock]),
        pile("discard pile", discards),
    ]
    info = [f"Game to {config.target}"]
    if f[F_DRAWN] >= 0:
        info.append(f"Taken from the pile: {card_text(int(f[F_DRAWN]), color=False)}")
    deal_only = config.episode == "deal"
    winners = [p for p in range(P) if f[F_WINNERS + p]]
    result = " and ".join(f"player_{p}" for p in winners) or "nobody (drawn)"
    return make_scene(
        config,
        title="Four Aces: " + ("one round" if deal_only else f"round {int(f[F_DEAL_NO]) + 1}"),
        viewer=viewer,
        to_act=int(f[F_CURRENT]),
        phase=PHASE_NAMES[phase],
        over=over,
        result=result + (" wins" if len(winners) == 1 else " win" if winners else ""),
        seats=seats,
        piles=piles,
        info=info,
    )


__all__ = ["scene"]
