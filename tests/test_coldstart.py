"""The compile announcement (``core.coldstart``): one line when an engine's kernels must be
compiled, on stderr where someone watches, in the log otherwise, never when they are cached."""

from __future__ import annotations

import io
import logging
import types

import pytest

import cardenvs
from cardenvs.core import coldstart


class _Tty(io.StringIO):
    def isatty(self):
        return True


def _kernel(cached: bool):
    index = {("sig",): "data"} if cached else {}
    cache_file = types.SimpleNamespace(_load_index=lambda: index)
    return types.SimpleNamespace(_cache=types.SimpleNamespace(_cache_file=cache_file))


def _game(cached: bool, module="cardenvs.games.esel.kernels"):
    k = _kernel(cached)
    k.py_func = types.SimpleNamespace(__module__=module)
    # observe_rows and legal_row uncached: an AEC env never calls observe_rows, so they alone
    # must not announce a compile
    return types.SimpleNamespace(
        reset_rows=k, observe_rows=_kernel(False), legal_row=_kernel(False), env_id="esel-v0"
    )


@pytest.fixture(autouse=True)
def _fresh_process(monkeypatch):
    monkeypatch.setattr(coldstart, "_checked", set())


def test_coldstart__an_uncached_engine_is_announced_once_on_a_terminal():
    out = _Tty()
    game = _game(cached=False)
    message = coldstart.announce(game, _kernel(True), stream=out)
    seconds = coldstart.COMPILE_SECONDS["cardenvs.games.esel"]
    assert message.startswith(f"compiling esel-v0 kernels (first use only, up to about {seconds} ")
    assert out.getvalue() == message + "\n"
    assert coldstart.announce(game, _kernel(True), stream=out) is None  # once per engine
    assert out.getvalue() == message + "\n"


def test_coldstart__an_uncached_step_kernel_alone_is_announced():
    assert coldstart.announce(_game(cached=True), _kernel(False), stream=_Tty())


def test_coldstart__not_a_terminal_goes_to_the_log(caplog):
    out = io.StringIO()
    with caplog.at_level(logging.INFO, logger="cardenvs"):
        message = coldstart.announce(_game(cached=False), _kernel(True), stream=out)
    assert out.getvalue() == "" and message in caplog.text


def test_coldstart__cached_kernels_say_nothing(caplog):
    out = _Tty()
    with caplog.at_level(logging.INFO, logger="cardenvs"):
        assert coldstart.announce(_game(cached=True), _kernel(True), stream=out) is None
    assert out.getvalue() == "" and caplog.text == ""


def test_coldstart__the_real_engines_are_cached_after_cardenvs_compile():
    """``make test`` compiles every engine first, so no id announces a compile."""
    for env_id in cardenvs.GAMES:
        game = cardenvs.game_info(env_id)
        venv = cardenvs.make_vector(env_id, 1)
        assert coldstart.is_cached(game.reset_rows) and coldstart.is_cached(venv._step_rows)
        assert coldstart.announce(game, venv._step_rows, stream=_Tty()) is None


def test_coldstart__nothing_without_the_jit(monkeypatch):
    monkeypatch.setattr(coldstart.config, "DISABLE_JIT", True)
    assert coldstart.announce(_game(cached=False), _kernel(False), stream=_Tty()) is None


def test_coldstart__every_engine_has_a_compile_estimate():
    from cardenvs.core import kernel_template

    engines = {"cardenvs." + e.replace("/", ".") for e in kernel_template.ENGINES}
    assert engines == set(coldstart.COMPILE_SECONDS)
