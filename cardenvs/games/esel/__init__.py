"""Esel (Donkey, ``esel-v0``): trick-taking with personal trumps, eights and banks."""

from .env import EselEnv, env, raw_env
from .rules import Config, trick_winner
from .vector import GAME, EselVectorEnv

VECTOR_CLASS = "EselVectorEnv"

__all__ = ["GAME", "Config", "EselEnv", "EselVectorEnv", "env", "raw_env", "trick_winner"]
