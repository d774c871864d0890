"""Two-handed Piquet's rules answered in Python for cards given as strings: ``declarations``
(``docs/games/piquet.md`` 2.3, 2.5, 2.6) and ``partie_result`` (2.10)."""

from __future__ import annotations

import numpy as np

from ...core.cards import format_cards
from .cards import _holds_face_card
from .config import Config
from .constants import (
    BONUS_REPIQUE,
    CARTE_BLANCHE,
    CAT_POINT,
    CAT_SEQUENCE,
    CAT_SETS,
    DECK,
    HAND,
    OUTCOME_EQUAL,
    OUTCOME_NONE,
)
from .declare import declare_row
from .layout import (
    F_BONUS,
    F_CB,
    F_CB_CLAIM,
    F_DEALER,
    F_DECL_WIN,
    M_HAND,
    V_DEAL_SCORE,
    V_DECL_PTS,
    new_state,
)
from .score import partie_points


def _hand_mask(cards, who: str) -> int:
    ids = [DECK.check_card(c) for c in (cards.split() if isinstance(cards, str) else cards)]
    if len(ids) != HAND or len(set(ids)) != HAND:
        raise ValueError(
            f"{who} must hold {HAND} distinct piquet cards, got "
            f"{len(ids)} ({len(set(ids))} distinct)"
        )
    m = 0
    for c in ids:
        m |= 1 << c
    return m


def declarations(elder, younger, carte_blanche=None, **config) -> dict:
    """Score the declarations of two hands after the exchange (spec 2.3, 2.5, 2.6).

    Args:
        elder: elder's 12 cards (card strings, or one space-separated string).
        younger: younger's 12 cards.
        carte_blanche: ``(elder_has, younger_has)``; by default judged on the hands given
            (carte blanche is judged on the dealt hand, so pass it when the hands differ).
        **config: ``Config`` options (e.g. ``set_ranks="KQJT"``).

    Returns:
        ``{"carte_blanche": {"elder": 0|10, "younger": 0|10}, "point": {"winner": w,
        "points": n}, "sequence": {...}, "sets": {...}, "repique": w, "elder_total": n,
        "younger_total": n}`` with ``w`` in ``"elder"``, ``"younger"``, ``None``; totals are the
        hand scores before play, repique included.
    """
    cfg = Config.from_kwargs(**config).to_array()
    me, my = _hand_mask(elder, "elder"), _hand_mask(younger, "younger")
    if me & my:
        raise ValueError(f"elder and younger share cards: {format_cards(_mask_cards(me & my))}")
    s = new_state(1)
    s.f[0, F_DEALER] = 1  # elder = seat 0
    s.m[0, M_HAND], s.m[0, M_HAND + 1] = me, my
    if carte_blanche is None:
        cb = tuple(not _holds_face_card(np.uint64(m)) for m in (me, my))
    else:
        if len(carte_blanche) != 2:
            raise ValueError("carte_blanche must be a pair (elder_has, younger_has)")
        cb = tuple(bool(x) for x in carte_blanche)
    s.f[0, F_CB : F_CB + 2] = cb
    s.f[0, F_CB_CLAIM : F_CB_CLAIM + 2] = cb
    s.f[0, F_DECL_WIN : F_DECL_WIN + 3] = OUTCOME_NONE
    declare_row(s, 0, cfg)
    names = ("elder", "younger")

    def who(w):
        return names[w] if w in (0, 1) else None

    out = {"carte_blanche": {n: CARTE_BLANCHE * int(cb[i]) for i, n in enumerate(names)}}
    for c, name in ((CAT_POINT, "point"), (CAT_SEQUENCE, "sequence"), (CAT_SETS, "sets")):
        w = int(s.f[0, F_DECL_WIN + c])
        pts = int(s.v[0, V_DECL_PTS + 3 * w + c]) if w in (0, 1) else 0
        out[name] = {"winner": who(w), "points": pts, "equal": w == OUTCOME_EQUAL}
    rep = [i for i in (0, 1) if s.f[0, F_BONUS + i] == BONUS_REPIQUE]
    out["repique"] = who(rep[0]) if rep else None
    out["elder_total"] = int(s.v[0, V_DEAL_SCORE])
    out["younger_total"] = int(s.v[0, V_DEAL_SCORE + 1])
    return out


def _mask_cards(m: int) -> list[int]:
    return [c for c in range(64) if (m >> c) & 1]


def partie_result(score_a: int, score_b: int, rubicon: int = 100) -> dict:
    """Result of a partie (spec 2.10): ``{"winner": 0 | 1 | None, "points": int}``.

    If the loser has at least ``rubicon`` points the winner scores the difference plus
    ``rubicon``; if the loser was rubiconed, the sum plus ``rubicon``. A tie is a draw (0).
    """
    for name, v in (("score_a", score_a), ("score_b", score_b), ("rubicon", rubicon)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {v!r}")
    w, pts = partie_points(int(score_a), int(score_b), int(rubicon))
    return {"winner": None if w < 0 else int(w), "points": int(pts)}
