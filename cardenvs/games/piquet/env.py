"""The PettingZoo AEC Piquet environment."""

from __future__ import annotations

from ...core.aec import CardAECEnv
from .vector import PiquetVectorEnv


class PiquetEnv(CardAECEnv):
    """Two-handed Rubicon Piquet as a PettingZoo AEC env (rules: ``games.piquet.rules``)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "piquet_v0", "is_parallelizable": False}
    vector_cls = PiquetVectorEnv


def env(**kwargs) -> PiquetEnv:
    """PettingZoo-style constructor. The env enforces call order itself (see ``core.aec``), so it
    is not wrapped: ``env.unwrapped is env``."""
    return PiquetEnv(**kwargs)


raw_env = env
