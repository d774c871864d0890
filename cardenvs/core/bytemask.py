"""Action masks read a vector at a time: a row of a 0/1 byte mask as a 128-bit set.

The batched engine's masks are ``(N, num_actions) int8`` arrays of 0/1. Drawing a random legal
action byte by byte (count the legal ones, then walk to the r-th) costs two passes of
``num_actions`` dependent steps and a hard-to-predict exit; ``row_bits`` instead reads the row
with two vector loads, compares each byte with zero (a byte counts as legal when it is non-zero)
and returns the legal set as two ``uint64`` words, which ``select64`` then indexes without a
branch: several times faster than byte by byte, drawing the same actions (measurements:
``docs/history.md``, "From the code").

``row_bits`` needs a C-contiguous row of one-byte items and ``8 <= num_actions <= 128``
(``fits`` says whether a mask qualifies). Without the JIT (``NUMBA_DISABLE_JIT=1``) it is plain
Python, so the same code still runs.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.extending import intrinsic

from .bitmask import FAST_PEXT, byte_counts, lowest, pdep, popcount

MAX_ACTIONS = 128  # two words
_LOW = np.uint64(0x0101010101010101)
_H80 = np.uint64(0x8080808080808080)

# SELECT8[x, r]: position of the r-th (0-based) set bit of the byte x, -1 past the last one
SELECT8 = np.full((256, 8), -1, np.int8)
for _x in range(256):
    for _r, _i in enumerate(i for i in range(8) if _x >> i & 1):
        SELECT8[_x, _r] = _i


def fits(mask: np.ndarray) -> bool:
    """Can ``row_bits`` read this 2-D mask (C-contiguous one-byte items, 8..128 actions)?"""
    return (
        mask.ndim == 2
        and mask.itemsize == 1
        and mask.flags.c_contiguous
        and 8 <= mask.shape[1] <= MAX_ACTIONS
    )


def _load_bits(width: int):
    """An intrinsic ``load(arr, off)``: the ``width`` bytes of ``arr``'s buffer from byte offset
    ``off`` as a ``uint64`` with bit ``i`` set when byte ``i`` is non-zero. One unaligned vector
    load, a compare with zero and the compare's bits as an integer: LLVM lowers it to a
    ``vptestmb`` + ``kmov`` (AVX-512) or ``pcmpeqb`` + ``pmovmskb`` per 16 or 32 bytes (AVX2).
    ``arr`` must be C-contiguous and hold ``off + width`` bytes."""

    @intrinsic
    def load(typingctx, arr, off):
        if not isinstance(arr, types.Array):  # callers check fits(): C-contiguous at run time
            return None
        sig = types.uint64(arr, off)

        def codegen(context, builder, signature, args):
            ary = context.make_array(signature.args[0])(context, builder, args[0])
            start = builder.bitcast(ary.data, ir.IntType(8).as_pointer())
            vty = ir.VectorType(ir.IntType(8), width)
            ptr = builder.bitcast(builder.gep(start, [args[1]]), vty.as_pointer())
            row = builder.load(ptr, align=1)
            nonzero = builder.icmp_unsigned("!=", row, ir.Constant(vty, None))
            bits = builder.bitcast(nonzero, ir.IntType(width))
            return bits if width == 64 else builder.zext(bits, ir.IntType(64))

        return sig, codegen

    return load


if config.DISABLE_JIT:

    def row_bits(mask, b):
        """Plain Python (``NUMBA_DISABLE_JIT=1``): the same two words, entry by entry."""
        lo = hi = 0
        for i in np.flatnonzero(mask[b]).tolist():
            if i < 64:
                lo |= 1 << i
            else:
                hi |= 1 << (i - 64)
        return np.uint64(lo), np.uint64(hi)

else:
    _bits8, _bits16, _bits32, _bits64 = (_load_bits(w) for w in (8, 16, 32, 64))

    @njit(cache=True, forceinline=True)
    def row_bits(mask, b):
        """Row ``b`` of the byte mask as ``(lo, hi)``: bit ``i`` of ``lo`` is action ``i``, bit
        ``i`` of ``hi`` action ``64 + i`` (see the module docstring for what ``mask`` must be).

        Two vector loads cover any row: the first ``w`` bytes and the last ``w``, where ``w`` is
        the widest of 64, 32, 16 and 8 that fits the row; the bits of the second load that the
        first already holds are shifted out. (Numba types ``uint64 >> uint64`` as a plain
        logical shift; every shift here is below 64.)"""
        a = mask.shape[1]
        base = b * a
        if a > 64:
            return _bits64(mask, base), _bits64(mask, base + a - 64) >> np.uint64(128 - a)
        if a >= 32:
            top = _bits32(mask, base + a - 32) >> np.uint64(64 - a)
            return _bits32(mask, base) | (top << np.uint64(32)), np.uint64(0)
        if a >= 16:
            top = _bits16(mask, base + a - 16) >> np.uint64(32 - a)
            return _bits16(mask, base) | (top << np.uint64(16)), np.uint64(0)
        top = _bits8(mask, base + a - 8) >> np.uint64(16 - a)
        return _bits8(mask, base) | (top << np.uint64(8)), np.uint64(0)


@njit(cache=True, forceinline=True)
def _select64_broadword(x, r):
    """Position of the ``r``-th (0-based) set bit of ``x``; needs ``r < popcount(x)``. Broadword:
    running byte counts find the byte, ``SELECT8`` the bit inside it."""
    # byte i: the set bits of bytes 0..i (at most 64, so each byte's top bit stays clear)
    cum = byte_counts(x) * _LOW
    ur = np.uint64(r)
    le = (((ur * _LOW) | _H80) - cum) & _H80  # top bit of every byte whose running count <= r
    p = ((le >> np.uint64(7)) * _LOW) >> np.uint64(56)  # how many such bytes: bit r's byte
    before = ((cum << np.uint64(8)) >> (np.uint64(8) * p)) & np.uint64(0xFF)
    byte = (x >> (np.uint64(8) * p)) & np.uint64(0xFF)
    return np.int64(8 * p) + np.int64(SELECT8[byte, ur - before])


@njit(cache=True, forceinline=True)
def _select64_pdep(x, r):
    """``_select64_broadword`` in two instructions: ``pdep`` moves a lone bit ``r`` onto the
    ``r``-th set bit of ``x``, whose position ``lowest`` (``tzcnt``) reads."""
    return lowest(pdep(np.uint64(1) << np.uint64(r), x))


# The r-th set bit of a word: pdep where the CPU runs it fast (a faster draw, the same actions:
# docs/history.md, "From the code"), else broadword.
select64 = _select64_pdep if FAST_PEXT else _select64_broadword


@njit(cache=True, forceinline=True)
def select128(lo, hi, r):
    """Position of the ``r``-th set bit of the 128-bit set ``(lo, hi)``."""
    k = popcount(lo)
    if r < k:
        return select64(lo, r)
    return 64 + select64(hi, r - k)
