"""What Esel's records read from a row of the state: the episode's ``result``, a finished hand's
``deal_extras`` and the deal's deck order as card strings (``deck_strings``)."""

from __future__ import annotations

from ...core.cards import format_cards
from ...core.state import PackedState
from .config import Config
from .constants import NUM_CARDS
from .layout import F_BANK_CHANGE, F_BANKS, F_DEAL_NO, F_DECK, F_WINNER


def result(s: PackedState, b: int, config: Config) -> dict:
    """JSON-able result of the finished episode in row ``b``."""
    w = int(s.f[b, F_WINNER])
    P = config.num_players
    return {
        "winner": None if w < 0 else w,
        "banks": s.f[b, F_BANKS : F_BANKS + P].tolist(),
        "hands": int(s.f[b, F_DEAL_NO]) + 1,
    }


def deal_extras(s: PackedState, b: int, config: Config) -> dict:
    """Record fields of a finished hand: each seat's bank change and banks after it."""
    P = config.num_players
    return {
        "bank_change": s.f[b, F_BANK_CHANGE : F_BANK_CHANGE + P].tolist(),
        "banks": s.f[b, F_BANKS : F_BANKS + P].tolist(),
    }


def deck_strings(s: PackedState, b: int) -> list[str]:
    """The current hand's deck order (hands from the dealer's left, then the stock)."""
    return format_cards(s.f[b, F_DECK : F_DECK + NUM_CARDS]).split()
