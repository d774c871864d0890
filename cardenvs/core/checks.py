"""The argument checks the front ends share (``check_int``, ``int_array``, ``reset_options``) and
``brief``, the user's value as an error message quotes it."""

from __future__ import annotations

import reprlib

import numpy as np

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


def check_int(value, name: str, low: int, high: int) -> int:
    """``value`` as an int if it is an integer (not a bool) in ``low..high``, else ``ValueError``
    naming ``name`` and what is allowed."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer in {low}..{high}, got {brief(value)}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {brief(value)}")
    return int(value)


def int_array(values, name: str, what: str) -> np.ndarray:
    """``values`` as an ``int64`` array if it holds integers (not bools, not floats; an empty
    sequence is fine), else ``ValueError`` naming ``name`` and ``what`` is allowed."""
    try:
        a = np.asarray(values)
    except ValueError:  # ragged nesting
        raise ValueError(f"{name} must be {what}, got {brief(values)}") from None
    if a.size == 0 and a.dtype.kind in "fiu":
        return a.astype(np.int64)
    if a.dtype.kind not in "iu":
        raise ValueError(f"{name} must be {what}, got {brief(values)} (dtype {a.dtype})")
    if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{name} must be {what}, got {brief(values)}")
    return a.astype(np.int64)


def reset_options(options, n: int, cards, num_seats: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``deck`` and ``dealer`` options of a batched ``reset`` of ``n`` rows as arrays (a
    row's deck order as ids of the game's deck ``cards``, -1 for a shuffle; its dealer, -1 for a
    draw), or a ``ValueError`` naming the option and what is allowed (``episode`` is taken out
    before)."""
    d = cards.size
    decks = np.full((n, d), -1, np.int8)
    dealers = np.full(n, -1, np.int8)
    if options is None:
        return decks, dealers
    if not isinstance(options, dict):
        raise ValueError(
            f"options must be a dict with keys 'deck', 'dealer', 'episode', got {brief(options)}"
        )
    unknown = sorted(set(options) - {"deck", "dealer"}, key=repr)
    if unknown:
        raise ValueError(
            f"unknown reset option(s) {brief(unknown)}; allowed: deck, dealer, episode"
        )
    deck = options.get("deck")
    if deck is not None:
        if not (
            isinstance(deck, (str, list, tuple)) or (isinstance(deck, np.ndarray) and deck.ndim > 0)
        ):
            raise ValueError(
                f"options['deck'] must be a deck order (a string of cards or a list of "
                f"card strings or ids) or a list of {n} such orders, one per row; got "
                f"{brief(deck)} ({type(deck).__name__})"
            )
        # one order per row: a list of orders (a string of cards too) rather than of cards
        per_row = (
            not isinstance(deck, str)
            and len(deck) > 0
            and (
                isinstance(deck[0], (list, tuple, np.ndarray))
                or (isinstance(deck[0], str) and " " in deck[0].strip())
            )
        )
        if per_row and len(deck) != n:
            raise ValueError(
                f"options['deck'] lists {len(deck)} deck orders; give one order for every "
                f"row or one per row ({n} of them)"
            )
        for b, order in enumerate(deck if per_row else [deck] * n):
            try:
                decks[b] = cards.check_order(order)
            except ValueError as e:
                where = f"options['deck'][{b}]" if per_row else "options['deck']"
                raise ValueError(f"{where}: {e}") from None
    dealer = options.get("dealer")
    if dealer is not None:
        p = num_seats
        if isinstance(dealer, (list, tuple)) or (
            isinstance(dealer, np.ndarray) and dealer.ndim > 0
        ):
            vals = list(dealer)
            if len(vals) != n:
                raise ValueError(
                    f"options['dealer'] must be one seat (an int in 0..{p - 1}) or one per "
                    f"row ({n} of them); got {len(vals)} values"
                )
        else:
            vals = [dealer.item() if isinstance(dealer, np.ndarray) else dealer] * n
        for v in vals:
            if (
                isinstance(v, (bool, np.bool_))
                or not isinstance(v, (int, np.integer))
                or not 0 <= v < p
            ):
                raise ValueError(f"dealer must be a seat in 0..{p - 1}, got {brief(v)}")
        dealers[:] = [int(v) for v in vals]
    return decks, dealers
