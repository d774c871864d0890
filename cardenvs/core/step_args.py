"""The batched step's arguments as its kernels take them: borrowed array views (numba's
reference counting, skipped where it is not needed) and the config vector as a tuple.

numba counts the references to every array that crosses a call between compiled kernels that it
does not inline: the callee takes a reference to each array argument on entry and drops it on
exit, and each of these is an atomic read-modify-write on the array's owner. A batched step calls
several such kernels per row (the action, the mask, the observation, and their helpers), each
with the state's three arrays, the config and an output row, so every row paid dozens of atomic
operations that did no useful work: the caller holds every array for the whole step.

``borrowed(a)`` is a view of ``a`` with the same data, shape, strides and type but no owner (a
null meminfo), and numba skips the counting for arrays without an owner. ``borrowed_step`` makes
such views of a step's arguments; every game's ``step_rows`` starts with it. This is safe there
because the front end (Python) holds the arrays for the whole call and no kernel keeps an array
beyond its own call. A borrowed view must not outlive the call that made it: never return one to
Python or store it. It makes the batched step faster with the same values (measurements:
``docs/history.md``, "From the code").

``fixed_config(cfg, n, index, value)`` hands a step kernel its config vector as a tuple, with item
``index`` the constant ``value`` the kernel was compiled for (checked against the array). A
tuple's values stay in registers, where an array's items are loaded again after every store
into the state; a constant seat count lets the compiler unroll the loops over the seats (Banque
and Four Aces keep one step kernel per number of players: ``core.game.StepKernels``).

Under ``NUMBA_DISABLE_JIT=1`` the borrowing helpers are the identity and ``fixed_config`` builds
the same tuple in Python.
"""

from __future__ import annotations

from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from .state import PackedState


@intrinsic
def _unowned(typingctx, arr):
    """The same array without an owner (meminfo and parent null): a borrowed view."""
    if not isinstance(arr, types.Array):
        return None
    sig = arr(arr)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        src = make_array(aryty)(context, builder, args[0])
        view = make_array(aryty)(context, builder)
        populate_array(
            view,
            data=src.data,
            shape=src.shape,
            strides=src.strides,
            itemsize=src.itemsize,
            meminfo=None,
        )
        return view._getvalue()

    return sig, codegen


@intrinsic
def _as_tuple(typingctx, arr, n, index, value):
    """The first ``n`` items of a 1-D array as a tuple, item ``index`` replaced by ``value``
    (all three constants; ``fixed_config`` checks the length and the value)."""
    literal = (n, index, value)
    if not (
        isinstance(arr, types.Array)
        and arr.ndim == 1
        and isinstance(arr.dtype, types.Integer)
        and all(isinstance(x, types.IntegerLiteral) for x in literal)
    ):
        return None
    size, fixed, fixed_value = (x.literal_value for x in literal)
    tup = types.UniTuple(arr.dtype, size)
    sig = tup(arr, n, index, value)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = make_array(aryty)(context, builder, args[0])
        shape = cgutils.unpack_tuple(builder, ary.shape)
        strides = cgutils.unpack_tuple(builder, ary.strides)
        items = []
        for i in range(size):
            if i == fixed:
                items.append(context.get_constant(aryty.dtype, fixed_value))
                continue
            ptr = cgutils.get_item_pointer2(
                context,
                builder,
                ary.data,
                shape,
                strides,
                aryty.layout,
                [context.get_constant(types.intp, i)],
                wraparound=False,
                boundscheck=False,
            )
            items.append(builder.load(ptr))
        return context.make_tuple(builder, tup, items)

    return sig, codegen


if config.DISABLE_JIT:

    def borrowed(a):
        """The array itself without the JIT (there is no reference counting to skip)."""
        return a

    def borrowed_state(s):
        """The state itself without the JIT."""
        return s

    def borrowed_step(s, cfg, obs, mask, rewards):
        """The arguments themselves without the JIT."""
        return s, cfg, obs, mask, rewards

    def fixed_config(cfg, n, index, value):
        """The config's ``n`` values as a tuple, ``cfg[index] == value`` checked, without the
        JIT."""
        if cfg.shape[0] != n:
            raise ValueError("the config vector has the wrong length for this game")
        if cfg[index] != value:
            raise ValueError("this step kernel was compiled for another value of the config")
        return tuple(cfg.tolist())

    def config_tuple(cfg, n):
        """The config's ``n`` values as a tuple, without the JIT."""
        if cfg.shape[0] != n:
            raise ValueError("the config vector has the wrong length for this game")
        return tuple(cfg.tolist())

else:

    @njit(cache=True, inline="always")
    def borrowed(a):
        """A view of array ``a`` that numba does not reference-count (see the module docstring);
        valid while the caller holds ``a``."""
        return _unowned(a)

    @njit(cache=True, inline="always")
    def borrowed_state(s):
        """Borrowed views of a packed state's three arrays."""
        return PackedState(borrowed(s.m), borrowed(s.v), borrowed(s.f))

    @njit(cache=True, inline="always")
    def borrowed_step(s, cfg, obs, mask, rewards):
        """Borrowed views of a batched step's state, config and output buffers."""
        return (
            borrowed_state(s),
            borrowed(cfg),
            borrowed(obs),
            borrowed(mask),
            borrowed(rewards),
        )

    @njit(cache=True, inline="always")
    def fixed_config(cfg, n, index, value):
        """A step kernel's config vector as a tuple of its ``n`` values, in which item ``index``
        is the constant ``value`` (``n``, ``index`` and ``value`` constants; the length and
        ``cfg[index] == value`` are checked: another config raises ``ValueError``).

        The kernels index the config only with constant positions, so they read a tuple as they
        read the array. But a tuple's values are the kernel's own: loaded once, they stay in
        registers, where an array's item has to be loaded again after every store into the
        state, since the compiler cannot rule out that the config shares memory with it. And
        the fixed item is a constant: a kernel compiled for one number of players unrolls every
        loop over the seats and decides every test on it. The games keep one step kernel per
        value (``core.game.StepKernels``), which converts its config once and hands the tuple to
        everything it calls."""
        if cfg.shape[0] != n:
            raise ValueError("the config vector has the wrong length for this game")
        if cfg[index] != value:
            raise ValueError("this step kernel was compiled for another value of the config")
        return _as_tuple(cfg, n, index, value)

    @njit(cache=True, inline="always")
    def config_tuple(cfg, n):
        """The config vector as a tuple of its ``n`` values, every one read from the array: the
        type ``fixed_config`` gives a step kernel, for the kernels that are not one (resets,
        masks and observations outside the step), so that the helpers they share with the step
        compile once, for one type."""
        if cfg.shape[0] != n:
            raise ValueError("the config vector has the wrong length for this game")
        return _as_tuple(cfg, n, -1, 0)
