"""The PettingZoo AEC Four Aces environment."""

from __future__ import annotations

from ...core.aec import CardAECEnv
from .vector import FourAcesVectorEnv


class FourAcesEnv(CardAECEnv):
    """Four Aces (3–5 players) as a PettingZoo AEC env (rules: ``games.four_aces.rules``)."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "four_aces_v0",
        "is_parallelizable": False,
    }
    vector_cls = FourAcesVectorEnv


def env(**kwargs) -> FourAcesEnv:
    """PettingZoo-style constructor (the env enforces call order itself)."""
    return FourAcesEnv(**kwargs)


raw_env = env
