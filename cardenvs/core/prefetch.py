"""Cache helpers of the batched step: software prefetch of output rows, and the row blocks.

At N = 8192 a batch's observations (1.4-2 KB a row, 11-17 MB in all) no longer fit in the
caches, and writing a row stalls on fetching its cache lines. ``prefetch_ahead(out, b)``, called
before writing row ``b``, asks the CPU to start fetching row ``b + PREFETCH_ROWS`` for writing,
so the fetches overlap the work on the rows before it. Where a core's L2 is small (2 MB on some
Intel Xeons), N = 1024 (1.5-2 MB of observations, with the state and masks beside
them) already spills out of it, hence the hints from ``PREFETCH_MIN_BYTES`` up, ``PREFETCH_ROWS``
ahead. Below that the buffer stays in cache and the hints would only cost instructions, so none
are issued (measurements: ``docs/history.md``, "From the code").

``STEP_BLOCK``: the batched steps make their three passes (actions, masks, observations) over
blocks of this many rows rather than over the whole batch, so a block's game states are still in
cache when its masks and observations are written. Rows are independent, so the values are the
same, and the step is faster or level (measurements: ``docs/history.md``, "From the code").

A prefetch is only a hint: it changes no value anywhere. Under ``NUMBA_DISABLE_JIT=1`` it is a
no-op, so the kernels still run as plain Python.
"""

from __future__ import annotations

from llvmlite import ir
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

STEP_BLOCK = 64  # rows per block of the batched step's passes
PREFETCH_ROWS = 4  # how far ahead (rows): a few rows, not many (docs/history.md, "From the code")
PREFETCH_MIN_BYTES = 1 << 19  # 512 KiB: smaller output buffers stay in cache
_LINE = 64  # bytes per cache line


@intrinsic
def _prefetch_row_for_write(typingctx, arr, row):
    """``llvm.prefetch`` (write, high locality) of every cache line of ``arr[row]`` (a 2-D
    C-contiguous array)."""
    sig = types.void(arr, row)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer2(
            context,
            builder,
            ary.data,
            cgutils.unpack_tuple(builder, ary.shape),
            cgutils.unpack_tuple(builder, ary.strides),
            aryty.layout,
            [args[1], ir.Constant(ir.IntType(64), 0)],
            wraparound=False,
            boundscheck=False,
        )
        i8p = ir.IntType(8).as_pointer()
        start = builder.bitcast(ptr, i8p)
        row_bytes = builder.extract_value(ary.strides, 0)
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        # (address, rw = 1 write, locality = 3 keep in all levels, cache type = 1 data)
        hint = [ir.Constant(i32, 1), ir.Constant(i32, 3), ir.Constant(i32, 1)]
        i64 = ir.IntType(64)
        line = ir.Constant(i64, _LINE)
        with cgutils.for_range_slice(builder, ir.Constant(i64, 0), row_bytes, line) as (off, _):
            builder.call(fn, [builder.gep(start, [off]), *hint])
        return context.get_dummy_value()

    return sig, codegen


if config.DISABLE_JIT:

    def prefetch_ahead(out, b):
        """No-op without the JIT (a prefetch is only a hint)."""

else:

    @njit(cache=True, forceinline=True)
    def prefetch_ahead(out, b):
        """Before writing row ``b`` of the 2-D ``out``: start fetching row ``b + PREFETCH_ROWS``
        for writing, when ``out`` is too big to stay in cache (see the module docstring)."""
        if out.nbytes >= PREFETCH_MIN_BYTES and b + PREFETCH_ROWS < out.shape[0]:
            _prefetch_row_for_write(out, b + PREFETCH_ROWS)
