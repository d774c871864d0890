"""What Banque's records read from a row of the state: the result of a finished episode
(``result``), a finished hand's extras (``deal_extras``) and the deal's deck order as card
strings (``deck_strings``)."""

from __future__ import annotations

from ...core.cards import format_cards
from ...core.state import PackedState
from .config import Config
from .constants import NUM_CARDS
from .layout import (
    F_DEAL_NO,
    F_DECK,
    F_ENDED_BY,
    F_LAST_OUT,
    F_WINNER,
    F_WINNERS,
    V_LAST_BANK_POINTS,
    V_LAST_BONUS,
    V_PENALTY,
    V_TOTAL,
)


# --- Python-side helpers -----------------------------------------------------------------------
def result(s: PackedState, b: int, config: Config) -> dict:
    """JSON-able result of the finished episode in row ``b``."""
    P = config.num_players
    w = int(s.f[b, F_WINNER])
    return {
        "winner": None if w < 0 else w,
        "winners": [p for p in range(P) if s.f[b, F_WINNERS + p]],
        "totals": s.v[b, V_TOTAL : V_TOTAL + P].tolist(),
        "hands": int(s.f[b, F_DEAL_NO]) + 1,
    }


def deal_extras(s: PackedState, b: int, config: Config) -> dict:
    """Record fields of a finished hand: bank points, bonuses, penalties, finishing positions,
    how it ended, and the totals after it."""
    P = config.num_players
    return {
        "bank_points": s.v[b, V_LAST_BANK_POINTS : V_LAST_BANK_POINTS + P].tolist(),
        "bonus": s.v[b, V_LAST_BONUS : V_LAST_BONUS + P].tolist(),
        "penalty": s.v[b, V_PENALTY : V_PENALTY + P].tolist(),
        "out": s.f[b, F_LAST_OUT : F_LAST_OUT + P].tolist(),
        "ended_by": "deadlock" if s.f[b, F_ENDED_BY] else "going out",
        "totals": s.v[b, V_TOTAL : V_TOTAL + P].tolist(),
    }


def deck_strings(s: PackedState, b: int) -> list[str]:
    """The current hand's deck order (hands from the dealer's left, centre card, stock)."""
    return format_cards(s.f[b, F_DECK : F_DECK + NUM_CARDS]).split()
