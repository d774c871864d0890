"""Borrowed array views for the batched step: numba's reference counting, skipped where it is
not needed.

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
Python or store it. In alternating runs at N = 1024 it made the batched step 1.09-1.38 times
faster (Piquet most, Banque least); the values are the same.

Under ``NUMBA_DISABLE_JIT=1`` all three helpers are the identity.
"""

from __future__ import annotations

from numba import config, njit, types
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
