"""Replaying game records (``cardenvs.replay``).

A record (``env.unwrapped.record()``) is a dict with

- ``game`` (str) and ``version`` (int): the id ``f"{game}-v{version}"``;
- ``config`` (dict): the id's ``Config`` options (nothing else: no ``render_mode``,
  ``render_seat`` or ``illegal_action``; a replay never renders and always checks every action);
- ``seed`` (int, or None);
- ``episode`` (int in ``0..2**44 - 1``, optional): the game's index under its seed (absent: 0,
  the seed's first game; a game after a ``reset()`` without a seed has one); larger numbers
  would deal the games of smaller ones (``core.rng.MAX_EPISODE``) and are refused;
- ``deals`` (a non-empty list), each a dict with ``deck`` (list of card strings), ``dealer``
  (int), ``actions`` (list of ``[seat, action name]`` pairs) and ``points`` (list of ints, one
  per seat), plus the game's own extras (Esel's ``banks`` and ``bank_change``, Banque's
  ``bonus``, ``penalty`` and ``ended_by``, Auction Piquet's ``contract``, ...): a finished deal's
  extras must be exactly those the replay's deal has, with the same values, and a deal in
  progress has none (the viewer shows them as fact);
- ``result``: the game's result dict once the game is over; ``{"illegal_move": seat, "action":
  action id}`` when it ended on an illegal move (that move is not in ``actions``; the replay
  repeats it); ``None`` while the game is unfinished.

A record of an unfinished game (``record()`` called before the end) has ``result`` ``None`` and
its last deal, the one in progress, has no ``points`` yet; every other deal has them, and so does
the last deal of a game that ended by the rules (one that ended on an illegal move ended inside
its last deal, which has none). A record without its ``result`` is refused.

Other top-level keys are ignored. Every malformed record raises ``ValueError`` naming the field,
what it holds and what is allowed (user values are quoted cut short).

Where a record may be saved (``record_path_problem``, for the terminal and the web game): a new
file in an existing, writable directory; a record never overwrites a file.
"""

from __future__ import annotations

import os
from pathlib import Path

from .core.checks import brief
from .core.rng import MAX_EPISODE
from .registry import GAMES, classes

FIELDS = ("game", "version", "config", "seed", "deals", "result")
DEAL_FIELDS = ("deck", "dealer", "actions", "points")  # every other field of a deal is an extra


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_list(x) -> bool:
    return isinstance(x, (list, tuple))


def _illegal_ending(result) -> bool:
    return isinstance(result, dict) and "illegal_move" in result


def check_record(record) -> None:
    """Check the structure of a record (see the module docstring); ``ValueError`` if wrong."""
    if not isinstance(record, dict):
        raise ValueError(
            "a record must be a dict as returned by env.unwrapped.record(), got "
            f"{brief(record)} ({type(record).__name__})"
        )
    for key in FIELDS:
        if key not in record:
            raise ValueError(
                f"record has no {key!r} field; a record has {list(FIELDS)} (result: None "
                "while the game is unfinished)"
            )
    game, version, config, seed = (record[k] for k in ("game", "version", "config", "seed"))
    if not isinstance(game, str):
        raise ValueError(f"record['game'] must be a string, got {brief(game)}")
    if not _is_int(version):
        raise ValueError(f"record['version'] must be an int, got {brief(version)}")
    if not isinstance(config, dict) or not all(isinstance(k, str) for k in config):
        raise ValueError(
            f"record['config'] must be a dict of option names to values, got {brief(config)}"
        )
    if seed is not None and not _is_int(seed):
        raise ValueError(f"record['seed'] must be an int or None, got {brief(seed)}")
    episode = record.get("episode", 0)
    if not _is_int(episode) or not 0 <= episode <= MAX_EPISODE:
        raise ValueError(
            f"record['episode'] must be an int >= 0 and at most 2**44 - 1, in "
            f"0..{MAX_EPISODE} (or absent; a larger one would deal the game of a smaller one), "
            f"got {brief(episode)}"
        )
    deals = record["deals"]
    if not isinstance(deals, list) or not deals:
        raise ValueError(f"record['deals'] must be a non-empty list of deals, got {brief(deals)}")
    result = record["result"]
    if result is not None and not isinstance(result, dict):
        raise ValueError(
            f"record['result'] must be the game's result (a dict) or None for an unfinished "
            f"game, got {brief(result)}"
        )
    if _illegal_ending(result) and (
        set(result) != {"illegal_move", "action"}
        or not _is_int(result["illegal_move"])
        or not _is_int(result["action"])
    ):
        raise ValueError(
            "record['result'] of a game that ended on an illegal move must be "
            f"{{'illegal_move': seat, 'action': action id}} (ints), got {brief(result)}"
        )
    last = len(deals) - 1
    for i, deal in enumerate(deals):
        where = f"record['deals'][{i}]"
        if not isinstance(deal, dict):
            raise ValueError(f"{where} must be a dict, got {brief(deal)}")
        for key in ("deck", "dealer", "actions"):
            if key not in deal:
                raise ValueError(f"{where} has no {key!r} field")
        deck = deal["deck"]
        if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
            raise ValueError(f"{where}['deck'] must be a list of card strings, got {brief(deck)}")
        if not _is_int(deal["dealer"]):
            raise ValueError(f"{where}['dealer'] must be an int, got {brief(deal['dealer'])}")
        actions = deal["actions"]
        if not isinstance(actions, list):
            raise ValueError(
                f"{where}['actions'] must be a list of [seat, action name] pairs, "
                f"got {brief(actions)}"
            )
        for j, pair in enumerate(actions):
            if not (
                _is_list(pair) and len(pair) == 2 and _is_int(pair[0]) and isinstance(pair[1], str)
            ):
                raise ValueError(
                    f"{where}['actions'][{j}] must be a [seat, action name] pair (an int and a "
                    f"string), got {brief(pair)}"
                )
        # points: every deal has them but the one in progress when the record was taken
        open_deal = i == last and (result is None or _illegal_ending(result))
        if "points" in deal:
            points = deal["points"]
            if not isinstance(points, list) or not all(_is_int(p) for p in points):
                raise ValueError(f"{where}['points'] must be a list of ints, got {brief(points)}")
            if open_deal:
                raise ValueError(
                    f"{where} has points, but the record's result says the game "
                    + ("is unfinished" if result is None else "ended on an illegal move")
                    + " (its last deal was still in progress)"
                )
        elif not open_deal:
            raise ValueError(
                f"{where} has no 'points': only the last deal of an unfinished game (result "
                "None) or of one that ended on an illegal move may lack them"
            )


def replay_record(record: dict) -> dict:
    """See ``cardenvs.replay``."""
    check_record(record)
    env_id = f"{record['game']}-v{record['version']}"
    if env_id not in GAMES:
        raise ValueError(
            f"record is for {brief(env_id)}, which this version does not provide "
            f"(available: {list(GAMES)})"
        )
    _, env_cls, _ = classes(env_id)
    game = env_cls.vector_cls.game
    # an option added with a changed default: a record without it was played with the old
    # value; only the id's options: a record's config cannot pass render_mode, render_seat or
    # illegal_action
    config = game.config_cls.RECORD_DEFAULTS | record["config"]
    game.config_cls.from_kwargs(**config)
    env = env_cls(illegal_action="raise", **config)
    deals = record["deals"]
    options = {"deck": deals[0]["deck"], "dealer": deals[0]["dealer"]}
    if "episode" in record:  # the game's index under its seed (absent: 0; see core.aec)
        options["episode"] = record["episode"]
    env.reset(seed=record["seed"], options=options)
    core = env.unwrapped
    replayed = core._record["deals"]
    for i, deal in enumerate(deals):
        if i >= len(replayed):
            raise ValueError(
                f"deal {i}: the replay's game ended after {len(replayed)} deal(s), the record "
                f"has {len(deals)}"
            )
        _compare_deal_start(i, replayed[i], deal)
        for j, (seat, name) in enumerate(deal["actions"]):
            where = f"deal {i}, action {j} ({brief(name)})"
            if _over(core) or len(replayed) != i + 1:
                raise ValueError(f"{where}: the replay's deal {i} is over before this action")
            current = core.agent_name_mapping[core.agent_selection]
            if seat != current:
                raise ValueError(
                    f"{where}: the record has seat {brief(seat)} acting, the replay has seat "
                    f"{current} to act"
                )
            try:
                action = core.action_id(name)
            except ValueError:
                examples = ", ".join(repr(x) for x in core.game.action_names[:3])
                raise ValueError(
                    f"{where}: not an action of {env_id}; names look like {examples}"
                ) from None
            try:
                env.step(action)
            except ValueError as e:
                raise ValueError(f"{where}: {e}") from e
        got = replayed[i]
        if "points" in got and "points" not in deal:
            raise ValueError(
                f"deal {i}: the replay's deal ended (points {got['points']}) with the record's "
                "last action, but the record has it unfinished (no points)"
            )
        if got.get("points") != deal.get("points"):
            raise ValueError(
                f"deal {i}: points differ (replay {got.get('points')}, record "
                f"{brief(deal.get('points'))})"
            )
        _compare_extras(i, got, deal)
    result = record["result"]
    if _illegal_ending(result):
        _repeat_illegal_move(env, core, result)
    out = core.record()
    if not _same(out["result"], result):
        raise ValueError(
            f"result differs (replay {out['result']}, record {brief(result)})"
            + (" (the record is of an unfinished game)" if result is None else "")
        )
    return out


def _same(a, b) -> bool:
    """``a == b`` for JSON values, also in type (``True`` is not ``1``, ``1.0`` is not ``1``);
    lists and tuples alike."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _over(core) -> bool:
    """The replay's game has ended (by the rules or by an illegal move)."""
    return not core.agents or any(core.terminations.values())


def _compare_deal_start(i: int, got: dict, deal: dict) -> None:
    if got["dealer"] != deal["dealer"]:
        raise ValueError(
            f"deal {i}: dealer differs from the record (replay {got['dealer']}, record "
            f"{brief(deal['dealer'])})"
        )
    mine, theirs = got["deck"], deal["deck"]
    if mine != theirs:
        k = next((k for k, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b), None)
        at = (
            f"card {k} (replay {mine[k]!r}, record {brief(theirs[k])})"
            if k is not None
            else f"length (replay {len(mine)} cards, record {len(theirs)})"
        )
        raise ValueError(f"deal {i}: deck differs from the record at {at}")


def _compare_extras(i: int, got: dict, deal: dict) -> None:
    """The record's deal ``i`` has exactly the extras (fields beyond ``DEAL_FIELDS``) of the
    replay's, with equal values (``_same``): ``ValueError`` naming the deal and the field."""
    mine = {k: v for k, v in got.items() if k not in DEAL_FIELDS}
    theirs = {k: v for k, v in deal.items() if k not in DEAL_FIELDS}
    for key in theirs:
        if key not in mine:
            has = f"the extras {sorted(mine)}" if mine else "no extras"
            raise ValueError(
                f"deal {i}: the record has the field {brief(key)}, but the replay's deal has "
                f"{has}" + ("" if "points" in got else " (a deal in progress has none)")
            )
    for key, value in mine.items():
        if key not in theirs:
            raise ValueError(
                f"deal {i}: the record lacks the field {key!r} (the replay's deal has "
                f"{brief(value)})"
            )
        if not _same(value, theirs[key]):
            raise ValueError(
                f"deal {i}: {key!r} differs from the replay (replay {brief(value)}, record "
                f"{brief(theirs[key])})"
            )


def _repeat_illegal_move(env, core, result: dict) -> None:
    """Make the illegal move a record ends on, as the original game did (penalised, ending the
    episode), after checking that it is the move of the seat to act and illegal there."""
    seat, action = result["illegal_move"], result["action"]
    where = f"the record ends on an illegal move (seat {seat}, action {action})"
    if _over(core):
        raise ValueError(f"{where}, but the replay's game is over before it")
    current = core.agent_name_mapping[core.agent_selection]
    if seat != current:
        raise ValueError(f"{where}, but seat {current} is to act in the replay")
    n = core.game.num_actions
    if not 0 <= action < n:
        raise ValueError(f"{where}, but actions are 0..{n - 1}")
    if action in core.legal_actions():
        raise ValueError(f"{where}, but {core.action_name(action)!r} is legal in the replay")
    core.illegal_action = "penalize"
    env.step(action)


def record_path_problem(path) -> str | None:
    """Why a record cannot be written to ``path`` (a new file in an existing, writable
    directory; an existing file is refused, never overwritten), or None when it can."""
    path = Path(path)
    if path.is_dir():
        return "is a directory: give the path of a new .json file"
    if path.exists() or path.is_symlink():
        return "already exists (a record never overwrites a file): choose a new path or remove it"
    parent = path.parent
    if not parent.exists():
        return f"cannot be written: its directory {str(parent)!r} does not exist (create it first)"
    if not parent.is_dir():
        return f"cannot be written: {str(parent)!r} is not a directory"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot be written: its directory {str(parent)!r} is not writable"
    return None
