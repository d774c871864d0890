"""The PettingZoo AEC Esel environment."""

from __future__ import annotations

from ...core.aec import CardAECEnv
from .vector import EselVectorEnv


class EselEnv(CardAECEnv):
    """Esel (2–4 players) as a PettingZoo AEC env (rules: ``games.esel.rules``)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "esel_v0", "is_parallelizable": False}
    vector_cls = EselVectorEnv


def env(**kwargs) -> EselEnv:
    """PettingZoo-style constructor (the env enforces call order itself)."""
    return EselEnv(**kwargs)


raw_env = env
