"""Piquet normand and partnership Piquet's options (``NormandConfig``, ``PartnershipConfig``) and
the kernel config vector's indices (``K_...``). Rules: ``docs/games/piquet.md`` 3.3, 3.4, A21
and section 8.
"""

from __future__ import annotations

import dataclasses

from ....core.game import GameConfig, option
from .constants import MODE_NORMAND, MODE_PARTNERSHIP, NORMAND_HAND, NORMAND_TALON, PARTNERSHIP_HAND


@dataclasses.dataclass(frozen=True)
class MultiKernelOptions(GameConfig):
    """Every option the multi-seat kernels read, in kernel order (``GameConfig.KERNEL`` of both
    ids): ``cfg[C_<OPTION>]``. Not an id's config: each id offers its own options and fixes the
    rest (``FIXED``); the variant, seat count and hand size are constants in each id's step
    kernel (``rules.specialise``)."""

    mode: str = option("normand", ("normand", "partnership"), doc="the variant (fixed by the id)")
    num_seats: int = option(3, low=3, high=4, doc="seats at the table (fixed by the id)")
    hand_size: int = option(
        NORMAND_HAND, low=PARTNERSHIP_HAND, high=NORMAND_HAND, doc="cards dealt"
    )
    target: int = option(100, low=1, high=300, doc="points that end the game")
    normand_dealer_exchange: str = option(
        "must", ("must", "may"), doc="normand: the dealer exchanges exactly 2 cards, or 0-2"
    )
    set_ranks: str = option("AKQJT", ("AKQJT", "KQJT"), doc="ranks that form trios/quatorzes")
    carte_blanche: bool = option(True, doc="a dealt hand without K, Q, J scores 10")
    point_minimum: int = option(0, low=0, high=88, doc="partnership: the least point announced")


@dataclasses.dataclass(frozen=True)
class _MultiConfig(GameConfig):
    """The options both multi-seat variants offer, and their kernel encoding."""

    KERNEL = MultiKernelOptions

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

    def encode(self, name: str, value) -> int:
        """Two options reach the kernels as numbers: ``set_ranks`` as the lowest rank index of a
        set (7 = the ten: A K Q J T; 6 = the jack: K Q J T), ``normand_dealer_exchange`` as the
        dealer's least exchange (the talon's two cards, or 0)."""
        if name == "set_ranks":
            return 7 if value == "AKQJT" else 6
        if name == "normand_dealer_exchange":
            return NORMAND_TALON if value == "must" else 0
        return super().encode(name, value)


@dataclasses.dataclass(frozen=True)
class NormandConfig(_MultiConfig):
    """Piquet normand options (spec 3.4). See the module docstring for the table."""

    FIXED = {"mode": "normand", "num_seats": 3, "hand_size": NORMAND_HAND}

    target: int = option(100, low=1, high=300, doc="points that end a player's game (3.4)")
    normand_dealer_exchange: str = option(
        "must", ("must", "may"), doc="the dealer exchanges exactly 2 cards, or 0-2 (3.4)"
    )


@dataclasses.dataclass(frozen=True)
class PartnershipConfig(_MultiConfig):
    """Partnership Piquet options (spec 3.3). See the module docstring for the table."""

    FIXED = {
        "mode": "partnership",
        "num_seats": 4,
        "hand_size": PARTNERSHIP_HAND,
        "normand_dealer_exchange": "may",
    }

    target: int = option(100, low=1, high=300, doc="side points that end the game (3.3)")
    point_minimum: int = option(
        30, low=0, high=88, doc="the least point value that may be announced (A21)"
    )


# --- the kernel config vector's items (``GameConfig.index``) -----------------------------------
C_EPISODE, C_REWARD, C_MODE, C_NUM_SEATS, C_HAND_SIZE, C_TARGET = (
    MultiKernelOptions.index(k)
    for k in ("episode", "reward", "mode", "num_seats", "hand_size", "target")
)
C_NORMAND_DEALER_EXCHANGE, C_SET_RANKS, C_CARTE_BLANCHE, C_POINT_MINIMUM = (
    MultiKernelOptions.index(k)
    for k in ("normand_dealer_exchange", "set_ranks", "carte_blanche", "point_minimum")
)
CONFIG_SIZE = MultiKernelOptions.size()
MODE_CODES = {MODE_NORMAND: "normand", MODE_PARTNERSHIP: "partnership"}
assert all(MultiKernelOptions.code("mode", c) == m for m, c in MODE_CODES.items())
