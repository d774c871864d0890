"""Text pieces every game's ANSI rendering uses: cards with suit symbols, card sets, emphasis."""

from __future__ import annotations

from .cards import JOKER_1, JOKER_2, format_card

RED = "\x1b[31m"
BOLD = "\x1b[1m"
RESET = "\x1b[0m"
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_text(card: int, color: bool = True) -> str:
    """``"Q♥"`` (red for hearts and diamonds when ``color``); a joker is ``"JK"``."""
    if int(card) in (JOKER_1, JOKER_2):
        return "JK"
    s = format_card(card)
    text = s[:-1] + SUIT_SYMBOL[s[-1]]
    return f"{RED}{text}{RESET}" if color and s[-1] in "HD" else text


def mask_text(mask, color: bool = True) -> str:
    """The natural cards of a ``uint64`` mask, suit by suit, high to low (``-`` if none)."""
    cards = [c for c in range(52) if (int(mask) >> c) & 1]
    cards.sort(key=lambda c: (c // 13, -(c % 13)))
    return " ".join(card_text(c, color) for c in cards) or "-"


def bold(text: str, color: bool = True) -> str:
    """``text`` in bold when ``color``."""
    return f"{BOLD}{text}{RESET}" if color else text
