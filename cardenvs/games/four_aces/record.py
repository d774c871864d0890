"""What Four Aces' records read from a row of the state: an episode's ``result`` and the deal's
deck order as card strings (``deck_strings``)."""

from __future__ import annotations

from ...core.cards import NUM_CARDS, format_cards
from ...core.state import PackedState
from .config import Config
from .layout import F_DEAL_NO, F_DECK, F_WINNER, F_WINNERS, V_TOTAL


def result(s: PackedState, b: int, config: Config) -> dict:
    """JSON-able result of the finished episode in row ``b``."""
    P = config.num_players
    w = int(s.f[b, F_WINNER])
    return {
        "winner": None if w < 0 else w,
        "winners": [p for p in range(P) if s.f[b, F_WINNERS + p]],
        "totals": s.v[b, V_TOTAL : V_TOTAL + P].tolist(),
        "rounds": int(s.f[b, F_DEAL_NO]) + 1,
    }


def deck_strings(s: PackedState, b: int) -> list[str]:
    """The current round's deck order (hands from the dealer's left, then the stock)."""
    return format_cards(s.f[b, F_DECK : F_DECK + NUM_CARDS]).split()
