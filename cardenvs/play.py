"""``python -m cardenvs.play``: the terminal game. It lives in ``cardenvs.ui.play`` with the
other programs people run (``cardenvs/ui/``); this module keeps the command."""

from __future__ import annotations

from .ui.play import main

__all__ = ["main"]

if __name__ == "__main__":
    main()
