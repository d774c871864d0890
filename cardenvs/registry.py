"""One table: environment id -> the package defining its ``GameDef`` (``GAME``) and the id's
config defaults; registers every id with PettingZoo. A game package builds its front ends when
imported (``core.aec.front_ends``: the batched engine class from ``core.vector.engine_class``
and the AEC env class) and binds them as ``FRONT_ENDS``; ``lookup`` gives the ``GameDef``,
``classes`` the front ends."""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING

from .core.checks import brief

if TYPE_CHECKING:
    from .core.game import GameDef

#: id -> (package defining ``GAME``, config defaults of the id).
REGISTRY: dict[str, tuple[str, dict]] = {
    "piquet-v0": ("cardenvs.games.piquet", {}),
    "piquet_au_cent-v0": ("cardenvs.games.piquet_au_cent", {}),
    "auction_piquet-v0": ("cardenvs.games.auction_piquet", {}),
    "esel-v0": ("cardenvs.games.esel", {}),
    "banque-v0": ("cardenvs.games.banque", {}),
    "four_aces-v0": ("cardenvs.games.four_aces", {}),
    "piquet_normand-v0": ("cardenvs.games.piquet.normand", {}),
    "partnership_piquet-v0": ("cardenvs.games.piquet.partnership", {}),
}

GAMES: tuple[str, ...] = tuple(REGISTRY)
NAMESPACE = "cardenvs"


def lookup(env_id: str) -> tuple[GameDef, dict]:
    """The ``GameDef`` and default config of ``env_id`` (``"piquet-v0"`` or
    ``"cardenvs/piquet-v0"``); a ``ValueError`` listing the ids for anything else."""
    if not isinstance(env_id, str):
        raise ValueError(
            f"environment id must be a string, got {brief(env_id)} ({type(env_id).__name__}); "
            f"available: {list(GAMES)}"
        )
    key = env_id.removeprefix(f"{NAMESPACE}/")
    if key not in REGISTRY:
        raise ValueError(f"unknown environment id {brief(env_id)}; available: {list(GAMES)}")
    module, defaults = REGISTRY[key]
    return importlib.import_module(module).GAME, dict(defaults)


def classes(env_id: str) -> tuple[type, type, dict]:
    """The batched engine class, the AEC env class and the default config of ``env_id``: the
    front ends its package binds as ``FRONT_ENDS``."""
    game, defaults = lookup(env_id)
    front_ends = importlib.import_module(game.module).FRONT_ENDS
    return front_ends.vector, front_ends.aec, defaults


def register_pettingzoo() -> None:
    """Register ``cardenvs/<id>`` for ``pettingzoo.make("aec", ...)`` (called when ``cardenvs``
    is imported; PettingZoo's registry has no entry points that could do it without the import)."""
    try:
        from pettingzoo import register
    except ImportError:  # older PettingZoo without a registry
        return
    for env_id, (module, defaults) in REGISTRY.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            register(
                "aec", f"{NAMESPACE}/{env_id}", entry_point=f"{module}:env", kwargs=dict(defaults)
            )
