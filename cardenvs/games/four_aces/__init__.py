"""Four Aces (``four_aces-v0``): draw, discard, jokers and hand combinations, 3–5 players."""

from .env import FourAcesEnv, env, raw_env
from .rules import Config, score_breakdown, score_cards
from .vector import GAME, FourAcesVectorEnv

VECTOR_CLASS = "FourAcesVectorEnv"

__all__ = [
    "GAME",
    "Config",
    "FourAcesEnv",
    "FourAcesVectorEnv",
    "env",
    "raw_env",
    "score_breakdown",
    "score_cards",
]
