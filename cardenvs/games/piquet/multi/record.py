"""What the records of Piquet normand and partnership Piquet read from a row of the state: the
episode's ``result``, the deal's deck order as card strings (``deck_strings``) and a finished
deal's ``deal_extras``."""

from __future__ import annotations

from ....core.cards import format_cards
from .config import C_MODE, C_NUM_SEATS
from .constants import MODE_NORMAND, MODE_PARTNERSHIP, NUM_CARDS
from .layout import F_DEAL_NO, F_DECK, F_FINISHED, F_OUTCOME, F_WINNER, V_TOTAL, State


# --- Python-side helpers -----------------------------------------------------------------------
def result(s: State, b: int, config) -> dict:
    """JSON-able result of the finished episode in row ``b``: ``winner`` (see ``_game_over``;
    ``None`` for a draw), ``winners``/``losers`` (seats), ``totals`` per seat (his side's),
    ``finished`` (normand: the deal each seat reached the target in, 0 = never), ``deals``."""
    cfg = config.to_array()
    p = int(cfg[C_NUM_SEATS])
    w = int(s.f[b, F_WINNER])
    out = [int(x) for x in s.f[b, F_OUTCOME : F_OUTCOME + p]]
    side = (lambda t: t % 2) if cfg[C_MODE] == MODE_PARTNERSHIP else (lambda t: t)
    res = {
        "winner": None if w < 0 else w,
        "winners": [t for t in range(p) if out[t] == 1],
        "losers": [t for t in range(p) if out[t] == -1],
        "totals": [int(s.v[b, V_TOTAL + side(t)]) for t in range(p)],
        "deals": int(s.f[b, F_DEAL_NO]) + 1,
    }
    if cfg[C_MODE] == MODE_NORMAND:
        res["finished"] = [int(x) for x in s.f[b, F_FINISHED : F_FINISHED + p]]
    return res


def deck_strings(s: State, b: int) -> list[str]:
    """The current deal's deck order (hands from the dealer's left, then the talon)."""
    return format_cards(s.f[b, F_DECK : F_DECK + NUM_CARDS]).split()


def deal_extras(s: State, b: int, config) -> dict:
    """Extra fields of a finished deal in the record: the totals per seat after it."""
    cfg = config.to_array()
    p = int(cfg[C_NUM_SEATS])
    side = (lambda t: t % 2) if cfg[C_MODE] == MODE_PARTNERSHIP else (lambda t: t)
    return {"totals": [int(s.v[b, V_TOTAL + side(t)]) for t in range(p)]}
