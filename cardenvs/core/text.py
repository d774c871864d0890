"""Text pieces every game's ANSI rendering uses: cards with suit symbols, card sets, emphasis.

Colour codes (red hearts and diamonds, bold) only where they will be read as colour: ``use_color``
decides, at the time the text is made. ``NO_COLOR`` (https://no-color.org) turns them off,
``FORCE_COLOR`` asks for them, and otherwise they come only when standard output is a terminal,
so ``render_mode="ansi"`` text piped to a file or a pager is plain. ``color=False`` is plain
always; ``color=True`` (every game's default) means "colour if ``use_color()``".
"""

from __future__ import annotations

import os
import sys

from .cards import JOKER_1, JOKER_2, format_card

RED = "\x1b[31m"
BOLD = "\x1b[1m"
RESET = "\x1b[0m"
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def use_color() -> bool:
    """Colour codes wanted: never with ``NO_COLOR`` set (non-empty), always with ``FORCE_COLOR``
    set (non-empty), else only when standard output is a terminal."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def card_text(card: int, color: bool = True) -> str:
    """``"Q♥"`` (red for hearts and diamonds when ``color`` and ``use_color()``); a joker is
    ``"JK"``."""
    if int(card) in (JOKER_1, JOKER_2):
        return "JK"
    s = format_card(card)
    text = s[:-1] + SUIT_SYMBOL[s[-1]]
    return f"{RED}{text}{RESET}" if color and s[-1] in "HD" and use_color() else text


def mask_text(mask, color: bool = True) -> str:
    """The natural cards of a ``uint64`` mask, suit by suit, high to low (``-`` if none)."""
    color = color and use_color()
    cards = [c for c in range(52) if (int(mask) >> c) & 1]
    cards.sort(key=lambda c: (c // 13, -(c % 13)))
    return " ".join(card_text(c, color) for c in cards) or "-"


def bold(text: str, color: bool = True) -> str:
    """``text`` in bold when ``color`` and ``use_color()``."""
    return f"{BOLD}{text}{RESET}" if color and use_color() else text
