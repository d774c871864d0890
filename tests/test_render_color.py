"""Colour codes in ``render_mode="ansi"`` text only where they are read as colour (issue 52,
item 8): on a terminal, or when asked (``FORCE_COLOR``); never with ``NO_COLOR``; plain text when
standard output is piped (as under pytest)."""

from __future__ import annotations

import io
import sys

import pytest

import cardenvs
from cardenvs.core import text as core_text

ESC = "\x1b["


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def text(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    env = cardenvs.make("four_aces-v0", render_mode="ansi")
    env.reset(seed=0)
    return env.render


def test_render__ansi_text_is_plain_when_standard_output_is_piped(text, monkeypatch):
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert ESC not in text()


def test_render__ansi_text_has_colour_on_a_terminal_but_not_with_no_color(text, monkeypatch):
    monkeypatch.setattr(sys, "stdout", Terminal())
    assert f"{core_text.BOLD}Four Aces{core_text.RESET}" in text()
    monkeypatch.setenv("NO_COLOR", "1")
    assert ESC not in text()


def test_render__force_color_asks_for_colour_when_piped_and_no_color_wins(text, monkeypatch):
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert core_text.RED in core_text.card_text(13) and ESC in text()  # 13: a heart
    monkeypatch.setenv("NO_COLOR", "1")
    assert ESC not in text() and core_text.card_text(13, color=True) == "2♥"
    assert core_text.card_text(13, color=False) == "2♥"
