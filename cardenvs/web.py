"""``from cardenvs.web import serve``: the browser game. It lives in ``cardenvs.ui.web`` with the
other programs people run (``cardenvs/ui/``); this module keeps the documented import."""

from __future__ import annotations

from .ui.web import serve

__all__ = ["serve"]
