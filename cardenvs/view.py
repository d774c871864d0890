"""``python -m cardenvs.view`` and ``from cardenvs.view import Replay, html, scenes``: the record
viewer. It lives in ``cardenvs.ui.view`` with the other programs people run (``cardenvs/ui/``);
this module keeps the command and the documented imports."""

from __future__ import annotations

from .ui.view import Replay, html, main, scenes

__all__ = ["Replay", "html", "main", "scenes"]

if __name__ == "__main__":
    main()
