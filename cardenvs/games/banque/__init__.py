"""Banque (``banque-v0``): the shedding game to 248 with a shared bank, 2–4 players."""

from .env import BanqueEnv, env, raw_env
from .rules import Config, Table, beats
from .vector import GAME, BanqueVectorEnv

VECTOR_CLASS = "BanqueVectorEnv"

__all__ = [
    "GAME",
    "BanqueEnv",
    "BanqueVectorEnv",
    "Config",
    "Table",
    "beats",
    "env",
    "raw_env",
]
