"""``uint64`` hand bitmasks: bit ``c`` is set when card id ``c`` is in the set.

All helpers are numba kernels usable from other kernels and from Python.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array

ONE = np.uint64(1)
ZERO = np.uint64(0)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True, forceinline=True)
def bit(card):
    """The mask holding only ``card``."""
    return np.uint64(1) << np.uint64(card)


@njit(cache=True, forceinline=True)
def has(mask, card):
    """True when ``card`` is in ``mask``."""
    return (mask >> np.uint64(card)) & np.uint64(1) != np.uint64(0)


@njit(cache=True, forceinline=True)
def byte_counts(mask):
    """The number of set bits of each byte of ``mask``, in that byte (the first steps of a SWAR
    popcount)."""
    x = np.uint64(mask)
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    return (x + (x >> np.uint64(4))) & _M4


@njit(cache=True, forceinline=True)
def popcount(mask):
    """Number of cards in ``mask`` (SWAR popcount)."""
    return np.int64((byte_counts(mask) * _H01) >> np.uint64(56))


@njit(cache=True, forceinline=True)
def lowest(mask):
    """Card id of the lowest set bit (``mask`` must be non-zero)."""
    x = np.uint64(mask)
    return popcount((x & (np.uint64(0) - x)) - np.uint64(1))


@njit(cache=True)
def to_cards(mask, out):
    """Write the card ids of ``mask`` in increasing order to ``out``; return how many."""
    n = 0
    x = np.uint64(mask)
    while x != np.uint64(0):
        out[n] = lowest(x)
        x &= x - np.uint64(1)
        n += 1
    return n


@njit(cache=True)
def to_onehot(mask, deck, out):
    """``out[i] = 1`` where ``deck[i]`` is in ``mask``, else ``0``."""
    for i in range(deck.shape[0]):
        out[i] = (mask >> np.uint64(deck[i])) & np.uint64(1)


@njit(cache=True)
def from_cards(cards, n):
    """Mask of the first ``n`` card ids in ``cards``."""
    m = np.uint64(0)
    for i in range(n):
        m |= np.uint64(1) << np.uint64(cards[i])
    return m


def _bits_store(width: int):
    """An intrinsic ``store(out, off, x)`` writing the low ``width`` bits of ``x`` as 0/1 into
    ``out[off:off + width]`` (a 1-D array of any integer or float dtype): the bits become a
    ``<width x i1>`` vector, selected into ones and zeros of the array's type and stored at once.
    LLVM lowers it to a few mask instructions and one or two wide stores (with AVX-512, a ``kmov``
    and a masked move per 16 floats), where a table lookup copied eight entries a time."""

    @intrinsic
    def store(typingctx, out, off, x):
        if not (
            isinstance(out, types.Array)
            and out.ndim == 1
            and out.layout == "C"  # one contiguous store: a strided view is a typing error
            and isinstance(out.dtype, types.Integer | types.Float)
        ):
            return None
        sig = types.void(out, off, x)

        def codegen(context, builder, signature, args):
            aryty, offty, xty = signature.args
            ary = make_array(aryty)(context, builder, args[0])
            elty = context.get_data_type(aryty.dtype)
            vty = ir.VectorType(elty, width)
            start = context.cast(builder, args[1], offty, types.uint64)
            ptr = builder.bitcast(builder.gep(ary.data, [start]), vty.as_pointer())
            word = context.cast(builder, args[2], xty, types.uint64)
            bits = builder.trunc(word, ir.IntType(width))
            m = builder.bitcast(bits, ir.VectorType(ir.IntType(1), width))
            one = ir.Constant(elty, 1.0 if isinstance(aryty.dtype, types.Float) else 1)
            ones = ir.Constant(vty, [one] * width)
            v = builder.select(m, ones, ir.Constant(vty, None))
            builder.store(v, ptr, align=context.get_abi_sizeof(elty))
            return context.get_dummy_value()

        return sig, codegen

    return store


if config.DISABLE_JIT:

    def spread(x, nbits, out, off):
        """Plain Python (``NUMBA_DISABLE_JIT=1``): bit ``i`` of ``x`` into ``out[off + i]``."""
        for i in range(nbits):
            out[off + i] = (int(x) >> i) & 1

else:
    _store4, _store8, _store16, _store32, _store64 = (_bits_store(w) for w in (4, 8, 16, 32, 64))

    @njit(cache=True, forceinline=True)
    def spread(x, nbits, out, off):
        """Write the low ``nbits`` bits of ``x`` as 0/1 into ``out[off:off + nbits]``.

        ``nbits`` is from 1 to 64 (a constant at every call site, so only the stores it needs
        remain); ``out`` is 1-D and C-contiguous, of an integer or float dtype;
        ``off >= 0``; nothing is bounds-checked. The bits go out in vectors of 64, 32, 16, 8 and
        4 entries (``_bits_store``), the last 0-3 one by one: a 36-card observation plane is a
        32-wide and a 4-wide store, each a handful of instructions. This replaced eight-entry
        copies from a byte table: the same arrays, a faster step (measurements:
        ``docs/history.md``, "From the code")."""
        ux = np.uint64(x)
        base = np.uint64(off)
        k = 0
        if nbits - k >= 64:
            _store64(out, base, ux)
            k += 64
        if nbits - k >= 32:
            _store32(out, base + np.uint64(k), ux >> np.uint64(k))
            k += 32
        if nbits - k >= 16:
            _store16(out, base + np.uint64(k), ux >> np.uint64(k))
            k += 16
        if nbits - k >= 8:
            _store8(out, base + np.uint64(k), ux >> np.uint64(k))
            k += 8
        if nbits - k >= 4:
            _store4(out, base + np.uint64(k), ux >> np.uint64(k))
            k += 4
        for i in range(np.uint64(k), np.uint64(nbits)):  # the last 0-3 bits
            out[base + i] = (ux >> i) & np.uint64(1)


def _fast_pext() -> bool:
    """Does numba compile for a CPU that runs BMI2's ``pext`` in hardware, in a few cycles?

    Every x86-64 CPU with BMI2 does, except AMD's Zen 1 and Zen 2, which microcode it (up to
    hundreds of cycles for a 64-bit word). False without the JIT, on other architectures, and
    when ``NUMBA_CPU_NAME`` makes numba compile for a CPU other than this one."""
    if config.DISABLE_JIT or config.CPU_NAME:
        return False
    from llvmlite import binding

    name = binding.get_host_cpu_name()
    features = binding.get_host_cpu_features()
    return bool(features.get("bmi2")) and name not in ("znver1", "znver2")


FAST_PEXT = _fast_pext()


def _bmi2(op: str):
    """An intrinsic ``op(x, m)``: BMI2's ``pext`` or ``pdep`` of two ``uint64`` words (only
    compiled where ``FAST_PEXT``)."""

    @intrinsic
    def bmi2(typingctx, x, m):
        if not (x == types.uint64 and m == types.uint64):
            return None
        sig = types.uint64(x, m)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            fnty = ir.FunctionType(i64, [i64, i64])
            fn = builder.module.declare_intrinsic(f"llvm.x86.bmi.{op}.64", fnty=fnty)
            return builder.call(fn, args)

        return sig, codegen

    return bmi2


_pext64, _pdep64 = _bmi2("pext"), _bmi2("pdep")


@njit(cache=True, forceinline=True)
def pdep(x, m):
    """The low bits of ``x`` deposited, in order, at the set bits of ``m`` (BMI2 ``pdep``, the
    inverse of ``pext``), as a ``uint64``. Call it only where ``FAST_PEXT`` (Zen 1 and 2
    microcode ``pdep`` as they do ``pext``)."""
    return _pdep64(np.uint64(x), np.uint64(m))


@njit(cache=True, forceinline=True)
def pext(x, m):
    """The bits of ``x`` at the set bits of ``m``, packed into the low bits in order (BMI2
    ``pext``), as an ``int64``: a game's cards as a dense set of its deck's indices in one
    instruction. Call it only where ``FAST_PEXT``; elsewhere each game keeps its shift-and-mask
    packing."""
    return np.int64(_pext64(np.uint64(x), np.uint64(m)))


@njit(cache=True, forceinline=True)
def _dense_suits_shifts(mask, low, width):
    """``dense_suits`` by a shift and a mask per suit."""
    field = np.uint64((1 << width) - 1)
    x = np.int64(0)
    for suit in range(4):
        x |= np.int64((np.uint64(mask) >> np.uint64(13 * suit + low)) & field) << (width * suit)
    return x


@njit(cache=True, forceinline=True)
def _dense_suits_pext(mask, low, width):
    """``dense_suits`` in one BMI2 ``pext`` of the game's deck (only where ``FAST_PEXT``)."""
    field = np.uint64((1 << width) - 1)
    deck = np.uint64(0)
    for suit in range(4):
        deck |= field << np.uint64(13 * suit + low)
    return pext(mask, deck)


# The cards of a game that plays ranks low .. low + width - 1 of each suit, as a dense set of its
# 4 * width card indices (suit by suit, ranks upwards): ``dense_suits(mask, low, width)``, with
# ``low`` and ``width`` constants at the call site. One pext where the CPU runs it fast (a faster
# step, the same values: docs/history.md, "From the code"), else shifts.
dense_suits = _dense_suits_pext if FAST_PEXT else _dense_suits_shifts


@njit(cache=True, forceinline=True)
def clear(out, lo, hi):
    """``out[lo:hi] = 0`` through unsigned indices (vectorised; see ``spread``); ``lo >= 0``."""
    for i in range(np.uint64(lo), np.uint64(hi)):
        out[i] = 0


@njit(cache=True, forceinline=True)
def action_in(lo, hi, a, num_actions):
    """Is action ``a`` in the two-word action set ``(lo, hi)``: bit ``a`` of ``lo`` for ``a < 64``,
    bit ``a - 64`` of ``hi`` above? False outside ``0..num_actions - 1`` (the legality caches
    that Banque and Piquet keep in their states)."""
    if a < 0 or a >= num_actions:
        return False
    if a < 64:
        return (np.uint64(lo) >> np.uint64(a)) & np.uint64(1) == np.uint64(1)
    return (np.uint64(hi) >> np.uint64(a - 64)) & np.uint64(1) == np.uint64(1)
