"""Error-message helpers shared by the validating front ends."""

from __future__ import annotations

import reprlib

_REPR = reprlib.Repr()
_REPR.maxstring = 60
_REPR.maxother = 60
_REPR.maxlong = 40
_REPR.maxlevel = 3
_REPR.maxdict = 8
_REPR.maxlist = 8
_REPR.maxtuple = 8


def brief(value) -> str:
    """``repr(value)`` cut to a readable length, for a user-supplied value quoted in an error
    message: long strings keep their start and end (``'aaaa...aaaa'``), containers their first
    few items, deep nesting is elided (so a 50 MB string or a deeply nested list is never copied
    whole into a message)."""
    return _REPR.repr(value)
