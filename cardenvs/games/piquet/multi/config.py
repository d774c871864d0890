"""Piquet normand and partnership Piquet's options (``NormandConfig``, ``PartnershipConfig``) and
the kernel config vector's indices (``K_...``). Rules: ``docs/games/piquet.md`` 3.3, 3.4, A21
and section 8.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ....core.game import GameConfig, option
from .constants import MODE_NORMAND, MODE_PARTNERSHIP, NORMAND_HAND, NORMAND_TALON, PARTNERSHIP_HAND

# --- kernel config vector (``Config.to_array``) ------------------------------------------------
K_EPISODE, K_REWARD, K_MODE, K_SEATS, K_HAND, K_TARGET = 0, 1, 2, 3, 4, 5
K_EXCH_MIN, K_SETS_HIGH, K_CB, K_POINT_MIN = 6, 7, 8, 9
K_SIZE = 10


@dataclasses.dataclass(frozen=True)
class _MultiConfig(GameConfig):
    """The options both multi-seat variants offer, and their kernel encoding."""

    set_ranks: str = option(
        "AKQJT", ("AKQJT", "KQJT"), doc="ranks that form trios/quatorzes (A2; 'KQJT' = seed)"
    )
    carte_blanche: bool = option(True, doc="a dealt hand without K, Q, J scores 10 (2.3)")
    allow_sinking: bool = option(False, doc="not supported: must be False (A3)")

    def __post_init__(self):
        super().__post_init__()
        if self.allow_sinking:
            raise self.error(
                "allow_sinking",
                "= True is not supported: this variant resolves the declarations "
                "automatically; allowed: False",
            )

    def _common_array(self, mode: int, seats: int, hand: int) -> np.ndarray:
        out = np.zeros(K_SIZE, np.int64)
        out[K_EPISODE] = self.encode("episode", self.episode)
        out[K_REWARD] = self.encode("reward", self.reward)
        out[K_MODE], out[K_SEATS], out[K_HAND] = mode, seats, hand
        out[K_TARGET] = self.target
        out[K_SETS_HIGH] = 7 if self.set_ranks == "AKQJT" else 6
        out[K_CB] = int(self.carte_blanche)
        return out


@dataclasses.dataclass(frozen=True)
class NormandConfig(_MultiConfig):
    """Piquet normand options (spec 3.4). See the module docstring for the table."""

    target: int = option(100, low=1, high=300, doc="points that end a player's game (3.4)")
    normand_dealer_exchange: str = option(
        "must", ("must", "may"), doc="the dealer exchanges exactly 2 cards, or 0-2 (3.4)"
    )

    def to_array(self) -> np.ndarray:
        out = self._common_array(MODE_NORMAND, 3, NORMAND_HAND)
        out[K_EXCH_MIN] = NORMAND_TALON if self.normand_dealer_exchange == "must" else 0
        return out


@dataclasses.dataclass(frozen=True)
class PartnershipConfig(_MultiConfig):
    """Partnership Piquet options (spec 3.3). See the module docstring for the table."""

    target: int = option(100, low=1, high=300, doc="side points that end the game (3.3)")
    point_minimum: int = option(
        30, low=0, high=88, doc="the least point value that may be announced (A21)"
    )

    def to_array(self) -> np.ndarray:
        out = self._common_array(MODE_PARTNERSHIP, 4, PARTNERSHIP_HAND)
        out[K_POINT_MIN] = self.point_minimum
        return out
