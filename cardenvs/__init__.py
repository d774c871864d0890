"""cardenvs: card games as reinforcement-learning environments.

``make(id, **config)`` returns a PettingZoo AEC env; ``make_vector(id, num_envs, seed,
**config)`` a batched engine on the same numba kernels; ``GAMES`` lists the ids;
``replay(record)`` replays and checks a game record; ``game_info(id)`` describes a game's
actions and observation blocks; ``cardenvs.wrappers.SingleAgentEnv`` is a one-seat Gymnasium view.

Importing cardenvs registers every id with PettingZoo as ``cardenvs/<id>``, so
``pettingzoo.make("aec", "cardenvs/piquet-v0")`` works after ``import cardenvs``, not before: the
installed PettingZoo's registry (1.27) loads no entry points, so it cannot find the ids of a
package nobody imported.
"""

from __future__ import annotations

from .registry import GAMES, classes, lookup, register_pettingzoo

__version__ = "0.1.0"


def make(
    env_id: str,
    render_mode: str | None = None,
    illegal_action: str = "penalize",
    render_seat=None,
    **config,
):
    """A PettingZoo AEC environment for ``env_id`` (see ``GAMES``).

    Args:
        env_id: e.g. ``"piquet-v0"``.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns text), ``"human"`` (prints
            it) or ``"rgb_array"`` (``render()`` returns a picture of the table: ``uint8``,
            shape ``(640, 960, 3)``; ``cardenvs.core.picture``).
        illegal_action: ``"penalize"`` (PettingZoo classic) or ``"raise"``.
        render_seat: whose view ``"rgb_array"`` draws: None the open view (every card face up,
            the default), a seat number that seat's view (what it cannot see face down),
            ``"current"`` the view of the seat to act (the open view once the game is over).
        **config: the game's ``Config`` options (validated).
    """
    _, env_cls, defaults = classes(env_id)
    return env_cls(
        render_mode=render_mode,
        illegal_action=illegal_action,
        render_seat=render_seat,
        **(defaults | config),
    )


def make_vector(
    env_id: str,
    num_envs: int = 1,
    seed=None,
    autoreset: bool = True,
    validate: bool = True,
    **config,
):
    """A batched engine stepping ``num_envs`` games of ``env_id`` at once.

    On a cold numba cache (the first use of a game after an install) an engine of at most
    ``cardenvs.core.coldstart.PLAIN_START_MAX_ROWS`` (256) games plays at once on plain-Python
    copies of its kernels (the same games, 0.3-0.5 ms a step and row) while a background process
    compiles them, and switches to them when they are ready; ``engine.warming_up`` says whether
    it still plays plain, ``engine.wait_compiled()`` waits for the compiled kernels (call it
    before timing the engine). A larger engine, or any under ``CARDENVS_PLAIN_START=0``,
    compiles in the foreground on its first call (10-30 s). ``python -m cardenvs.compile``
    compiles every game ahead.
    """
    cls, _, defaults = classes(env_id)
    return cls(num_envs, seed=seed, autoreset=autoreset, validate=validate, **(defaults | config))


def game_info(env_id: str):
    """What an agent needs to read a game without building it: the ``GameDef`` of ``env_id``
    (``name``, ``version``, ``num_actions``, ``action_names``, ``obs_layout`` as ``ObsField``
    blocks with ``name``, ``size``, ``low``, ``high``, ``doc``, ``obs_dim``, ``deck``)."""
    return lookup(env_id)[0]


def replay(record: dict) -> dict:
    """Replay a game record (``env.unwrapped.record()``) and check it.

    Every deal's deck, dealer, actions and points and the final result must match. A record of
    an unfinished game has ``result`` None (its last deal has no ``points`` yet) and must still
    be unfinished after its actions; a game that ended on an illegal move has ``result``
    ``{"illegal_move": seat, "action": id}`` and the replay repeats that move. The replay never
    renders (a record's config holds only the game's options). The record format:
    ``cardenvs.records``.

    Returns:
        The record produced by the replay (equal to ``record``).

    Raises:
        ValueError: a malformed record (naming the field and what is allowed), or the first
            difference.
    """
    from .records import replay_record

    return replay_record(record)


register_pettingzoo()

__all__ = ["GAMES", "game_info", "make", "make_vector", "replay"]
