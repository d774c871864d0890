"""The PettingZoo AEC Banque environment."""

from __future__ import annotations

from ...core.aec import CardAECEnv
from .vector import BanqueVectorEnv


class BanqueEnv(CardAECEnv):
    """Banque (2–4 players) as a PettingZoo AEC env (rules: ``games.banque.rules``)."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "banque_v0",
        "is_parallelizable": False,
    }
    vector_cls = BanqueVectorEnv


def env(**kwargs) -> BanqueEnv:
    """PettingZoo-style constructor (the env enforces call order itself)."""
    return BanqueEnv(**kwargs)


raw_env = env
