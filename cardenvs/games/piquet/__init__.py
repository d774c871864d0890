"""Piquet: two-handed Rubicon Piquet (``piquet-v0``). Rules and spec: ``rules``."""

from .env import PiquetEnv, env, raw_env
from .rules import Config, declarations, partie_result
from .vector import GAME, PiquetVectorEnv

VECTOR_CLASS = "PiquetVectorEnv"

__all__ = [
    "GAME",
    "Config",
    "PiquetEnv",
    "PiquetVectorEnv",
    "declarations",
    "env",
    "partie_result",
    "raw_env",
]
