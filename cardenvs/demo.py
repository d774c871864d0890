"""``python -m cardenvs.demo``: one whole game between random agents, told as text. It lives in
``cardenvs.ui.demo`` with the other programs people run (``cardenvs/ui/``); this module keeps
the command."""

from __future__ import annotations

from .ui.demo import main

__all__ = ["main"]

if __name__ == "__main__":
    main()
