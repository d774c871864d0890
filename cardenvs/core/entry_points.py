"""Calling a numba kernel without its per-call type dispatch.

On every call a numba dispatcher works out the numba type of each argument to pick the compiled
version, which takes longer the more arguments there are (a ``PackedState``, a tuple of three
arrays, most). The batched engine calls the same kernels with the same buffers on every step, so
it looks the compiled version up once (``entry_for``) and calls it directly: what that saves
matters in small batches and little at N = 1024 (measurements: ``docs/history.md``, "From the
code").

A compiled entry point converts its arguments for the types it was compiled for without checking
them. So an entry is only for arguments whose types cannot change between calls: the engine's
own buffers, and actions that the engine has made a C-contiguous ``int64`` array itself
(``CardVectorEnv.step``). Everything else goes through the dispatcher.
"""

from __future__ import annotations

from numba.core.dispatcher import Dispatcher
from numba.core.typing.typeof import Purpose, typeof


def entry_for(kernel, args: tuple):
    """The compiled entry point of ``kernel`` for the numba types of ``args`` (compiled, or loaded
    from numba's cache, as a call would); ``kernel`` itself when it is not a numba dispatcher
    (``NUMBA_DISABLE_JIT=1``). Call the entry only with arguments of those same types."""
    if not isinstance(kernel, Dispatcher):
        return kernel
    sig = tuple(typeof(a, Purpose.argument) for a in args)
    cres = kernel.overloads.get(sig)
    if cres is None:
        return kernel.compile(sig)
    return cres.entry_point
