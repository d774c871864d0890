"""``python -m cardenvs.ui.picture``: a game's table drawn from the command line as a PNG file
(``cardenvs.core.picture`` draws it), after some random legal moves of one deal::

    python -m cardenvs.ui.picture ID --out table.png [--seed S] [--steps K] [--seat V]
        [--option name=value ...] [--small]
"""

from __future__ import annotations

import argparse

import numpy as np

import cardenvs

from ..core.picture import save


def _value(text: str):
    """A config value from the command line: an int, True/False, else the string."""
    if text in ("True", "False"):
        return text == "True"
    try:
        return int(text)
    except ValueError:
        return text


def main(argv=None) -> None:
    """``python -m cardenvs.ui.picture ID --out table.png [--seed S] [--steps K] [--seat V]
    [--option name=value ...]``: play ``K`` uniformly random legal actions (seeded by ``S``) of
    one deal of ``ID`` (``episode="deal"``; fewer if the deal ends first) and draw the table as
    seat ``V`` sees it (a seat number, ``current``, or ``open``, the default)."""
    p = argparse.ArgumentParser(prog="python -m cardenvs.ui.picture", description=main.__doc__)
    p.add_argument("env_id", help=f"one of {', '.join(cardenvs.GAMES)}")
    p.add_argument("--out", required=True, help="the PNG file to write")
    p.add_argument("--seed", type=int, default=0, help="seed of the deal and of the play")
    p.add_argument("--steps", type=int, default=0, help="random actions before drawing")
    p.add_argument("--seat", default="open", help="open (default), current or a seat number")
    p.add_argument("--option", action="append", default=[], help="a config option, name=value")
    p.add_argument("--small", action="store_true", help="256 colours (a smaller file)")
    a = p.parse_args(argv)
    if a.env_id not in cardenvs.GAMES:
        p.error(f"unknown id {a.env_id!r}; choose one of {', '.join(cardenvs.GAMES)}")
    if a.steps < 0:
        p.error(f"--steps must be 0 or more, got {a.steps}")
    config = {}
    for item in a.option:
        name, sep, value = item.partition("=")
        if not sep or not name:
            p.error(f"--option takes name=value, got {item!r}")
        config[name] = _value(value)
    seat = None if a.seat == "open" else a.seat if a.seat == "current" else _value(a.seat)
    try:
        env = cardenvs.make(a.env_id, episode="deal", render_seat=seat, **config)
    except ValueError as e:
        p.error(str(e))
    env.reset(seed=a.seed)
    rng = np.random.default_rng(a.seed)
    for _ in range(a.steps):
        legal = env.unwrapped.legal_actions()
        if not legal:
            break
        env.step(int(rng.choice(legal)))
    save(env.unwrapped.scene(seat), a.out, a.small)


if __name__ == "__main__":
    main()
