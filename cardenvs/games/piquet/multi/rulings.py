"""Piquet normand's and partnership Piquet's rules answered in Python for cards given as
strings: ``declarations`` (``docs/games/piquet.md`` 2.3, 2.5, 3.3, 3.4)."""

from __future__ import annotations

import numpy as np

from ..constants import DECK
from .config import C_CARTE_BLANCHE, C_NUM_SEATS, NormandConfig, PartnershipConfig
from .constants import BONUS_REPIQUE, CAT_POINT, CAT_SEQUENCE, CAT_SETS, OUTCOME_EQUAL, OUTCOME_NONE
from .layout import (
    F_BONUS,
    F_CB,
    F_DEALER,
    F_DECL_WIN,
    M_DEALT,
    M_HAND,
    V_DEAL_SCORE,
    V_DECL_PTS,
    new_state,
)
from .rules import _has_face, declare_row


# --- rules helpers (public) --------------------------------------------------------------------
def declarations(hands, dealer: int | None = None, variant: str = "normand", **config) -> dict:
    """Score the declarations of the hands after the exchange (spec 2.3, 2.5, 3.3, 3.4).

    Args:
        hands: one hand per seat (card strings, or one space-separated string each): 3 for
            ``variant="normand"``, 4 for ``"partnership"``.
        dealer: the dealer's seat (eldest = his left speaks first); default the last seat.
        variant: ``"normand"`` or ``"partnership"``.
        **config: that variant's ``Config`` options (e.g. ``point_minimum=29``).

    Returns:
        ``{"point": {"winner": seat | "equal" | None, "points": n}, "sequence": {...},
        "sets": {...}, "carte_blanche": [seats], "repique": side | None,
        "scores": per side (normand: per seat; partnership: sides 0 (seats 0 & 2), 1)}``;
        carte blanche is judged on the hands given.
    """
    if variant not in ("normand", "partnership"):
        raise ValueError(f"variant must be 'normand' or 'partnership', got {variant!r}")
    cls = NormandConfig if variant == "normand" else PartnershipConfig
    cfg = cls.from_kwargs(**config).to_array()
    p = int(cfg[C_NUM_SEATS])
    if len(hands) != p:
        raise ValueError(f"{variant} needs {p} hands, got {len(hands)}")
    dealer = p - 1 if dealer is None else dealer
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < p:
        raise ValueError(f"dealer must be a seat in 0..{p - 1}, got {dealer!r}")
    s = new_state(1)
    seen = 0
    for seat, cards in enumerate(hands):
        ids = [DECK.check_card(c) for c in (cards.split() if isinstance(cards, str) else cards)]
        m = sum(1 << c for c in set(ids))
        if len(set(ids)) != len(ids) or m & seen:
            raise ValueError(f"hand {seat} repeats a card or shares one with another hand")
        seen |= m
        s.m[0, M_HAND + seat] = m
        s.m[0, M_DEALT + seat] = m
        s.f[0, F_CB + seat] = int(
            bool(cfg[C_CARTE_BLANCHE]) and m != 0 and not _has_face(np.uint64(m))
        )
    s.f[0, F_DEALER] = dealer
    declare_row(s, 0, cfg)

    def who(w):
        if w == OUTCOME_EQUAL:
            return "equal"
        return None if w == OUTCOME_NONE else int(w)

    out = {}
    for c, name in ((CAT_POINT, "point"), (CAT_SEQUENCE, "sequence"), (CAT_SETS, "sets")):
        out[name] = {
            "winner": who(int(s.f[0, F_DECL_WIN + c])),
            "points": int(s.v[0, V_DECL_PTS + c]),
        }
    out["carte_blanche"] = [t for t in range(p) if s.f[0, F_CB + t]]
    sides = 2 if variant == "partnership" else p
    rep = [t for t in range(sides) if s.f[0, F_BONUS + t] == BONUS_REPIQUE]
    out["repique"] = rep[0] if rep else None
    out["scores"] = [int(x) for x in s.v[0, V_DEAL_SCORE : V_DEAL_SCORE + sides]]
    return out
