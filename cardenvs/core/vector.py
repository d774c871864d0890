"""The batched engine, written once for every game: buffers, seeding, validation, autoreset.

``CardVectorEnv`` steps ``num_envs`` independent games at once through a game's numba kernels.
Arrays in, arrays out:

- ``reset(seed=None, options=None) -> (obs, mask, info)``
- ``step(actions) -> (obs, mask, rewards, terminated, truncated, info)``

with ``obs`` ``(N, obs_dim) float32`` (the observation of the seat to act in each row),
``mask`` ``(N, num_actions) int8``, ``rewards`` ``(N, num_seats) float32`` (non-zero only on the
step that ends a game), ``terminated``/``truncated`` ``(N,) bool`` and ``info["current_player"]``
``(N,) int8``. With ``autoreset=True`` (default) a finished row starts its next episode in the
same call: the rewards and ``terminated`` of that step belong to the finished game, the
observation and mask to the new one. Episodes are bounded, so ``truncated`` is always False.

``sides`` groups the seats by the side they play for: partners share every reward (partnership
Piquet: ``((0, 2), (1, 3))``; the other games: every seat alone, ``((0,), (1,), ...)``).

Returned arrays. Every array ``reset`` and ``step`` return is one of the engine's own buffers,
allocated once and overwritten in place by the next ``reset``, ``step`` or ``reset_rows``: copy
what you keep.

- ``obs`` and ``rewards`` are writable: the engine never reads them, and every ``step`` and
  ``reset`` rewrites every row of them (``reset_rows``: the rows it restarts), so writing them
  changes nothing but what you hold of this call's values.
- ``mask``, ``terminated``, ``truncated`` and ``info["current_player"]`` (also the properties
  ``action_mask`` and ``current_player``) are read-only views (writing raises ``ValueError``,
  and their ``writeable`` flag cannot be set again): the mask is the one ``validate`` checks
  actions against, ``current_player`` is a view of the state itself (as plain Python,
  ``NUMBA_DISABLE_JIT=1``, where the state is wide: of an int8 copy of it that every ``reset``,
  ``step`` and ``reset_rows`` refreshes), and a finished row's ``terminated`` is not rewritten
  while it waits for a reset.
- ``observe(seats)`` returns a new array.

Validation. With ``validate=True`` (default) ``step`` raises ``ValueError`` naming the first row
whose action is masked out (its mask row is all zero once its game is over without autoreset),
and nothing is applied. With ``validate=False`` such a row is a silent no-op: its state is left
unchanged, its reward is 0, ``terminated`` is False for a live row (a finished row keeps its
True) and its observation and mask are written again for the same position; the other rows step
normally. An action outside ``0..num_actions - 1`` raises ``ValueError`` in either mode. The
kernels test every action against the state itself, so no write to a returned array can make
them apply an illegal move.

Seeding. Row ``b`` of an engine reset with ``seed=s`` plays the same games as a single env reset
with ``seed=s + b``, so ``s`` must be in ``0..MAX_SEED - num_envs + 1`` (``core.rng.check_seed``;
checked by the constructor and ``reset``). A row's games under its seed are numbered from 0:
``reset(seed=s)`` starts game 0, and every later game the row starts (``reset()`` without a
seed, autoreset, ``reset_rows``) is the next. ``options={"episode": k}`` makes ``reset`` start
game ``k`` of the seed in every row instead, which is how a recorded game that was not its
seed's first replays (``core.aec``).

The table. ``render(row)`` is a row as text, ``scene(row, seat)`` as data (``core.scene``: what
is on the table, as the open view or as ``seat`` sees it) and ``picture(row, seat)`` as an RGB
image (``core.picture``).

Copies. ``copy.deepcopy`` and ``pickle`` give an independent engine that plays on exactly as the
original would (state, buffers, seed and episode counters are copied; the compiled kernels are
looked up again); ``copy.copy`` raises ``TypeError`` (a shallow copy would share the state).

A cold numba cache. When the game's kernels are not compiled yet (the first use after an install)
and the engine has at most ``core.coldstart.PLAIN_START_MAX_ROWS`` (256) rows, it plays at once
on plain-Python copies of its kernels, the same games at 0.3-0.5 ms a step and row, while a
background process compiles them; ``reset``, ``reset_rows``, ``step`` and ``observe`` switch to the
compiled kernels once that process is done (``core.coldstart``). ``warming_up`` is True until
then, and ``wait_compiled()`` waits for the switch: call it before timing an engine. The switch
replaces ``state`` (narrow arrays instead of wide ones) and the array ``current_player`` views,
so take those from the engine or from each call's ``info`` rather than keeping them across calls.
A larger engine, or any engine under ``CARDENVS_PLAIN_START=0``, compiles in the foreground on
its first use instead.

One row. A front end of one game (the AEC env, ``core.aec``) is a client of a one-row engine
through a small public interface: ``step_row(action)`` (a step without ``step``'s checks and
returns: the front end checks the action against ``action_mask`` itself), ``observe_row(seat)``,
``row_info(row)``
(``RowInfo``: the seat to act, the deal and its dealer, the episode, whether the game is over),
``deal_points(row)``, ``illegal_message(row, action)``, the buffers ``observation``,
``action_mask``, ``rewards`` and ``terminated``, and for a cold cache ``warming_up``, ``warmup``,
``poll_warmup``, ``wait_compiled``, ``plain_engine`` (the plain-Python start) and
``leave_plain``.

The class. ``engine_class(game, name, module, title)`` makes a game's engine class: a
``CardVectorEnv`` whose ``game`` is the game's ``GameDef``, bound to ``name`` in the game's
package (``cardenvs.registry.classes`` hands it out from there).
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numba import njit

from . import coldstart
from .bitmask import popcount
from .bytemask import fits, row_bits, select128
from .checks import check_int, int_array, reset_options
from .coldstart import LOG, announce, plain_function, plain_twin, say, warmup_for
from .entry_points import entry_for
from .game import GameDef, action_id
from .rng import MAX_EPISODE, check_row_seeds, check_seed, key_from_seed, mix64
from .scene import resolve_view
from .seats import check_seats
from .state import ARRAYS, PackedState

# attributes rebuilt from the others (views of the state and buffers, compiled kernels): left out
# of a pickle or deep copy and made again by ``__setstate__``
_DERIVED = (
    "_current",
    "_deal_no",
    "_dealer",
    "_episode",
    "_last_points",
    "_current_out",
    "_current8",
    "_mask_out",
    "_terminated_out",
    "_truncated_out",
    "_step_rows",
    "_check_entry",
    "_step_entry",
    "_polled",
)


def readonly(a: np.ndarray) -> np.ndarray:
    """A read-only view of the C-contiguous array ``a`` whose ``writeable`` flag cannot be set
    again (its buffer is a read-only memoryview of ``a``'s): ``a`` itself stays writable."""
    return np.frombuffer(memoryview(a).toreadonly(), a.dtype).reshape(a.shape)


@njit(cache=True)
def check_actions(mask, actions, legality):
    """First bad row: ``(b, 1)`` for an action outside ``0..A-1`` (checked first, in every row),
    else ``(b, 2)`` for a masked-out action (only with ``legality``); ``(-1, 0)`` if none."""
    n_actions = mask.shape[1]
    for b in range(actions.shape[0]):
        if actions[b] < 0 or actions[b] >= n_actions:
            return b, 1
    if legality:
        for b in range(actions.shape[0]):
            if mask[b, actions[b]] == 0:
                return b, 2
    return -1, 0


@njit(cache=True)
def random_legal_actions(mask, key, counter, out, by_words):
    """Write into ``out[b]`` a uniformly drawn legal action of each row (-1 where none): the
    ``r``-th legal action (a non-zero entry), ``r`` drawn from the row's hash. ``by_words`` reads
    the rows eight entries at a time (``core.bytemask``; only for masks that ``fits``); either way
    the same actions are drawn. ``counter`` may come as a Python int (numba's dispatch takes it
    faster than a ``np.uint64``: ``docs/history.md``, "From the code"); it is used as ``uint64``."""
    c = np.uint64(counter)
    n, a = mask.shape
    for b in range(n):
        if by_words:
            lo, hi = row_bits(mask, b)
            k = popcount(lo) + popcount(hi)
        else:
            k = 0
            for i in range(a):
                k += mask[b, i] != 0
        if k == 0:
            out[b] = -1
            continue
        r = np.int64(
            ((mix64(key ^ mix64(c * np.uint64(n) + np.uint64(b))) >> np.uint64(32)) * np.uint64(k))
            >> np.uint64(32)
        )
        if by_words:
            out[b] = select128(lo, hi, r)
            continue
        for i in range(a):  # the r-th legal action (0-based)
            r -= mask[b, i] != 0
            if r < 0:
                out[b] = i
                break


class RandomLegal:
    """Uniform random legal actions for a whole batch (numba), seeded and reproducible.

    Call it with a ``(N, num_actions)`` mask (non-zero = legal); it returns an ``(N,) int64``
    array (its own buffer, overwritten by the next call) holding a legal action of each row, or
    -1 in a row with none."""

    def __init__(self, seed: int = 0):
        self.key = np.uint64(key_from_seed(check_seed(seed)))
        self.counter = 0
        self._out = None
        self._seen = None  # (mask, its dtype, shape, strides, writeable) of the last call
        self._kind = None  # the masks the compiled draw (core.entry_points) is for, and fits(mask)
        self._draw = None
        self._fits = False

    def __call__(self, mask: np.ndarray) -> np.ndarray:
        seen = self._seen
        if not (
            seen is not None
            and mask is seen[0]
            and mask.dtype is seen[1]
            and mask.shape == seen[2]
            and mask.strides == seen[3]
            and mask.flags.writeable == seen[4]
        ):
            self._prepare(mask)  # a new mask (an engine passes the same buffer every step)
        self.counter += 1
        self._draw(mask, self.key, self.counter, self._out, self._fits)
        return self._out

    def _prepare(self, mask: np.ndarray) -> None:
        if not isinstance(mask, np.ndarray) or mask.ndim != 2:
            shape = getattr(mask, "shape", None)
            raise ValueError(f"mask must be a 2-D array (num_envs, num_actions), got shape {shape}")
        if self._out is None or self._out.shape[0] != mask.shape[0]:
            self._out = np.empty(mask.shape[0], dtype=np.int64)
        f = mask.flags  # what the compiled draw's type and ``fits`` depend on
        kind = (mask.dtype, mask.shape[1], f.c_contiguous, f.f_contiguous, f.aligned, f.writeable)
        if kind != self._kind:
            self._fits = fits(mask)
            self._draw = entry_for(random_legal_actions, (mask, self.key, 1, self._out, self._fits))
            self._kind = kind
        self._seen = (mask, mask.dtype, mask.shape, mask.strides, mask.flags.writeable)


class RowInfo(NamedTuple):
    """Where the game of one row stands (``CardVectorEnv.row_info``): what a front end of one
    game (``core.aec``) keeps its books by."""

    current: int  # the seat to act (-1 once the game is over)
    deal: int  # the number of the deal in the game (0 for the first)
    dealer: int  # the seat that dealt it
    episode: int  # the game's index among the games of the row's seed (``reset``)
    over: bool  # the last step ended the game (``terminated``)


class CardVectorEnv:
    """N games of one kind stepped together (see the module docstring for the contract).

    Args:
        num_envs: number of games (rows), at least 1.
        seed: base seed for the first ``reset()``; row ``b`` uses ``seed + b``, so ``seed`` is in
            ``0..MAX_SEED - num_envs + 1`` (checked here). ``None`` draws one from the OS.
        autoreset: start a new episode in a row as soon as it ends.
        validate: check every action against the mask and raise ``ValueError`` naming the row;
            ``False``: an illegal action is a no-op for its row (see the module docstring).
        **config: the game's ``Config`` options.
    """

    game: GameDef
    #: True while the engine runs on the plain-Python copies of its kernels (``core.coldstart``:
    #: its first use on a cold cache); ``game`` is then the instance's plain twin
    _plain: bool = False
    #: the background compile (``core.coldstart.Warmup``) a plain engine switches to compiled
    #: kernels after (``poll_warmup``), or None
    _warmup = None

    def __init__(
        self, num_envs: int = 1, seed=None, autoreset: bool = True, validate: bool = True, **config
    ):
        if (
            isinstance(num_envs, bool)
            or not isinstance(num_envs, (int, np.integer))
            or num_envs < 1
        ):
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        g = self.game
        self.config = g.config_cls.from_kwargs(**config)
        self._cfg = self.config.to_array()
        self.num_envs = int(num_envs)
        if not self._plain:  # a cold cache: plain Python while the kernels compile (coldstart)
            self._warmup = warmup_for(g, self.config, rows=self.num_envs)
            if self._warmup is not None:
                self._plain = True
                g = self.game = plain_twin(g)
        self.num_seats = g.num_seats(self.config)
        # seats grouped by the side they play for (partners share every reward)
        self.sides = g.sides_of(self.config)
        self.num_actions = g.num_actions
        self.obs_dim = g.obs_dim
        self.autoreset = bool(autoreset)
        self.validate = bool(validate)
        n = self.num_envs
        if isinstance(seed, (list, tuple, np.ndarray)):
            seed = check_row_seeds(seed, n)  # a bad seed fails here, not at the first reset()
        elif seed is not None:
            check_seed(seed, rows=n)
        self.state = PackedState(*g.layout.new(n))  # this module's class (a plain twin's
        # layout makes its copy's), so that an engine pickles in any process
        self._obs = np.zeros((n, g.obs_dim), np.float32)
        self._mask = np.zeros((n, g.num_actions), np.int8)
        self._rewards = np.zeros((n, self.num_seats), np.float32)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)
        self._rows = np.arange(n, dtype=np.int64)
        # the one-row methods' arguments for the kernels (``step_row``, ``observe_row``)
        self._action, self._seat = np.zeros(1, np.int64), np.zeros(1, np.int64)
        self._view = np.zeros((1, g.obs_dim), np.float32)
        self._seed_arg = seed
        self.seed = None
        self._started = False
        self._bind()

    def _bind(self) -> None:
        """Make the attributes derived from the state and buffers (``_DERIVED``): the views of
        the fields the front ends read, the read-only views handed out, the step kernel. The
        state arrays and buffers are never reallocated, so this runs once per object (and again
        for a copy, on its own arrays: ``__setstate__``)."""
        g = self.game
        self._step_rows = g.step_kernel(self._cfg)
        if not self._plain:  # a line on stderr if the kernels must compile first
            announce(g, self._step_rows, rows=self.num_envs)
        self._polled = -np.inf  # when poll_warmup last asked the background compile
        self._current = g.layout.field(self.state, "current")
        self._deal_no = g.layout.field(self.state, "deal_no")
        self._dealer = g.layout.field(self.state, "dealer")
        self._episode = g.layout.field(self.state, "episode")
        self._last_points = g.layout.field(self.state, "last_points")
        # what the caller gets: read-only views (see the module docstring)
        f = self.state.f
        if f.dtype == np.int8:
            self._current8 = None
            self._current_out = g.layout.field(self.state._replace(f=readonly(f)), "current")
        else:  # plain Python (NUMBA_DISABLE_JIT=1): a wide state (core.state.ARRAYS), so an int8
            # copy of ``current``, refreshed after every kernel call (``_sync_current``)
            self._current8 = self._current.astype(np.int8)
            self._current_out = readonly(self._current8)
        self._mask_out = readonly(self._mask)
        self._terminated_out = readonly(self._terminated)
        self._truncated_out = readonly(self._truncated)
        self._check_entry = self._step_entry = None  # compiled kernels, looked up by reset()
        if self._started:
            self._resolve_kernels()

    def __getstate__(self) -> dict:
        """Pickle and deep copy: everything but the derived attributes (``_DERIVED``: views that
        a copy must take of its own arrays, and compiled kernels, which do not pickle) and a
        plain engine's ``game`` (made again: ``core.coldstart.plain_twin``)."""
        return {k: v for k, v in self.__dict__.items() if k not in _DERIVED and k != "game"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        if self._plain:
            self.game = plain_twin(type(self).game)
        self._bind()

    @classmethod
    def plain_engine(cls, *args, **kwargs):
        """An engine on the plain-Python copies of its kernels (``core.coldstart``), which plays
        exactly the games the compiled one plays, on a wide state, until ``leave_plain``."""
        self = cls.__new__(cls)
        self._plain = True
        self.game = plain_twin(cls.game)
        self.__init__(*args, **kwargs)
        return self

    # -- a cold cache (core.coldstart) ----------------------------------------------------------
    @property
    def warming_up(self) -> bool:
        """True while the engine plays on plain-Python copies of its kernels because they were
        not compiled yet (a cold numba cache: the module docstring); ``wait_compiled`` ends it."""
        return self._plain

    def wait_compiled(self) -> None:
        """Wait until the engine runs on its compiled kernels: for the background compile of a
        cold cache (then switch to them; the games go on unchanged), or compile them here if
        none runs. Returns at once on a warm cache. Call it before timing the engine."""
        self.poll_warmup(wait=True)
        self.leave_plain()

    @property
    def warmup(self):
        """The background compile (``core.coldstart.Warmup``) that the engine plays plain Python
        through until it is done (``poll_warmup``), or None."""
        return self._warmup

    def poll_warmup(self, wait: bool = False, every: float | None = None, why: str = "") -> None:
        """Switch to the compiled kernels once the background compile (``_warmup``) is done
        (``wait``: wait for it first, saying so with ``why``); ask it at most every ``every``
        seconds of wall time (default ``coldstart.POLL_SECONDS``). A failed compile is logged
        and the kernels compile here. Nothing to do on a warm cache. The one place where the
        batched engine and the AEC env (``CardAECEnv._poll_warmup``) leave plain Python
        (``leave_plain``)."""
        job = self._warmup
        if job is None:
            return
        if not wait:
            now = time.monotonic()
            if now - self._polled < (coldstart.POLL_SECONDS if every is None else every):
                return
            self._polled = now
            if not job.done():
                return
        elif not job.done():
            say(f"waiting for the compiled {self.game.env_id} kernels{why}...")
        failure = job.wait()
        if failure is not None:
            LOG.warning(
                "compiling %s in the background failed; compiling here instead:\n%s",
                self.game.env_id,
                failure,
            )
        self.leave_plain()
        self._warmup = None

    def leave_plain(self) -> None:
        """Go on with the compiled kernels (``core.coldstart``): the state in their narrow
        arrays (the same values: checked), the class's ``GameDef`` and its kernels."""
        if not self._plain:
            return
        narrow = PackedState(*(getattr(self.state, k).astype(dt) for k, dt in ARRAYS.items()))
        for key in ARRAYS:
            if not np.array_equal(getattr(self.state, key), getattr(narrow, key)):
                raise RuntimeError(f"plain Python left a value out of range in state.{key}")
        del self.game  # the class's again
        self._plain = False
        self.state = narrow
        self._bind()

    def __copy__(self):
        raise TypeError(
            f"{type(self).__name__} cannot be shallow-copied (copy.copy): the copy would share "
            "the game state with the original; use copy.deepcopy(engine) (or pickle) for an "
            "independent copy"
        )

    def __repr__(self) -> str:
        seed = self.seed if self._started else self._seed_arg
        return (
            f"{type(self).__name__}(num_envs={self.num_envs}, seed={seed}, "
            f"autoreset={self.autoreset}, config={self.config})"
        )

    # -- spaces --------------------------------------------------------------------------------
    @property
    def single_observation_space(self):
        from gymnasium import spaces

        return spaces.Box(self.game.obs_low, self.game.obs_high, dtype=np.float32)

    @property
    def single_action_space(self):
        from gymnasium import spaces

        return spaces.Discrete(self.num_actions)

    # -- names ---------------------------------------------------------------------------------
    def action_name(self, action: int) -> str:
        """The name of action id ``action`` (e.g. ``"play QS"``)."""
        names = self.game.action_names
        if (
            isinstance(action, bool)
            or not isinstance(action, (int, np.integer))
            or not 0 <= action < len(names)
        ):
            raise ValueError(f"action must be an integer in 0..{len(names) - 1}, got {action!r}")
        return names[int(action)]

    def action_id(self, name: str) -> int:
        """The action id of ``name`` (inverse of ``action_name``)."""
        return action_id(self.game, name)

    # -- core API ------------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        """Start a new episode in every row.

        Args:
            seed: row ``b`` is seeded with ``seed + b`` (``seed`` in
                ``0..MAX_SEED - num_envs + 1``), or with ``seed[b]`` given a sequence of one
                seed per row (rows with the same seed deal the same cards: duplicate deals);
                ``None`` continues the episode counter of the previous seed (or, on the first
                call, takes the constructor's seed or draws one).
            options: ``{"deck": order}`` fixes the first deal (one order for every row, or one
                per row), ``{"dealer": seat}`` (an int, or one per row) fixes the dealer,
                ``{"episode": k}`` (an int in ``0..MAX_EPISODE``) starts episode ``k`` of the
                seed in every row instead of episode 0 (with a seed) or the next one.
        """
        if self._warmup is not None:
            self.poll_warmup()  # a cold cache: compiled kernels once they are ready
        n = self.num_envs
        if seed is None and not self._started:
            seed = self._seed_arg
        # validate everything before changing anything, so a bad call leaves the engine usable
        reseed = seed is not None or not self._started
        per_row = reseed and isinstance(seed, (list, tuple, np.ndarray))
        if per_row:
            seed = check_row_seeds(seed, n)
        elif reseed:
            seed = check_seed(seed, rows=n)
        else:
            seed = self.seed
        episode = None
        if isinstance(options, dict) and "episode" in options:
            options = dict(options)
            episode = check_int(options.pop("episode"), "options['episode']", 0, MAX_EPISODE)
        decks, dealers = reset_options(options, n, self.game.deck, self.num_seats)
        if reseed:
            self.seed = seed
            row_seeds = seed if per_row else [seed + b for b in range(n)]
            self._keys = np.array([key_from_seed(x) for x in row_seeds], np.uint64)
        if episode is not None:
            self._episodes = np.full(n, episode, np.uint64)
        elif reseed:
            self._episodes = np.zeros(n, np.uint64)
        else:
            if int(self._episode.max()) >= MAX_EPISODE:
                raise ValueError(
                    f"a row is at episode {MAX_EPISODE}, the last that deals its own games "
                    f"(0..{MAX_EPISODE}); reset with a new seed"
                )
            self._episodes = self._episode.astype(np.uint64) + np.uint64(1)
        self.game.reset_rows(
            self.state,
            self._cfg,
            self._rows,
            self._keys,
            self._episodes,
            decks,
            dealers,
            self._obs,
            self._mask,
        )
        self._rewards[:] = 0
        self._terminated[:] = False
        if self._step_entry is None:
            self._resolve_kernels()  # once, before the first step (step needs a reset first)
        self._sync_current()
        self._started = True
        return self._obs, self._mask_out, {"current_player": self._current_out}

    def reset_rows(self, rows) -> None:
        """Start the next episode (same seed, next episode index) in the given rows only, as
        autoreset would; the other rows are untouched. For wrappers that need a finished row's
        last state before restarting it."""
        if not self._started:
            raise RuntimeError("call reset() before reset_rows()")
        if self._warmup is not None:
            self.poll_warmup()
        what = f"row indices: integers in 0..{self.num_envs - 1} (an int or a 1-D sequence)"
        r = int_array(rows, "rows", what)
        if r.ndim > 1:
            raise ValueError(f"rows must be {what}, got shape {r.shape}")
        r = r.reshape(-1)
        if ((r < 0) | (r >= self.num_envs)).any():
            raise ValueError(f"rows must be in 0..{self.num_envs - 1}, got {r.tolist()}")
        self._episodes = self._episode.astype(np.uint64).copy()
        self._episodes[r] += np.uint64(1)
        n, d = self.num_envs, self.game.deck.size
        self.game.reset_rows(
            self.state,
            self._cfg,
            r,
            self._keys,
            self._episodes,
            np.full((n, d), -1, np.int8),
            np.full(n, -1, np.int8),
            self._obs,
            self._mask,
        )
        self._rewards[r] = 0
        self._terminated[r] = False
        self._sync_current()

    def step(self, actions):
        """Apply one action per row; see the module docstring for what comes back."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self._warmup is not None:
            self.poll_warmup()
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":  # signed or unsigned ints
            raise ValueError(
                f"actions must be an integer array of shape ({self.num_envs},), got "
                f"shape {a.shape} dtype {a.dtype}"
            )
        a = a.astype(np.int64, copy=False)
        f = a.flags
        if not (f.c_contiguous and f.aligned):
            a = np.ascontiguousarray(a)  # the compiled kernels' type (see core.entry_points)
        b, kind = self._check_entry(self._mask, a, self.validate)
        if kind == 1:
            raise ValueError(
                f"row {b}: action {int(a[b])} is outside the action space 0..{self.num_actions - 1}"
            )
        if kind == 2:
            raise ValueError(self.illegal_message(b, int(a[b])))
        self._step_entry(
            self.state,
            self._cfg,
            a,
            self.autoreset,
            self._obs,
            self._mask,
            self._rewards,
            self._terminated,
        )
        return (
            self._obs,
            self._mask_out,
            self._rewards,
            self._terminated_out,
            self._truncated_out,
            {"current_player": self._current_out},
        )

    def _sync_current(self) -> None:
        """Plain Python only (``_current8``): copy the state's ``current`` into the int8 array
        that ``current_player`` views. Compiled, that is a view of the state itself."""
        if self._current8 is not None:
            self._current8[:] = self._current

    def _resolve_kernels(self) -> None:
        """Look up the compiled step kernel and action check for this engine's buffers once, so
        that ``step`` calls them without numba's per-call dispatch (``core.entry_points``)."""
        a = np.zeros(self.num_envs, np.int64)  # the type of the actions ``step`` passes
        # plain Python: the check too (compiling it would cost the first step 0.6 s)
        check = plain_function("core.vector", "check_actions") if self._plain else check_actions
        self._check_entry = entry_for(check, (self._mask, a, self.validate))
        self._step_entry = entry_for(
            self._step_rows,
            (self.state, self._cfg, a, self.autoreset, self._obs, self._mask)
            + (self._rewards, self._terminated),
        )
        if self._current8 is not None:  # plain Python: refresh the int8 ``current`` after a step
            kernel = self._step_entry

            def step_entry(*args) -> None:
                kernel(*args)
                self._sync_current()

            self._step_entry = step_entry

    def illegal_message(self, b: int, a: int) -> str:
        legal = np.flatnonzero(self._mask[b])
        if legal.size == 0:
            return f"row {b}: the game is over; call reset() (or use autoreset=True)"
        names = [self.game.action_names[i] for i in legal]
        return (
            f"row {b}: action {a} ({self.game.action_names[a]!r}) is not legal now; "
            f"legal actions: {names}"
        )

    def observe(self, seats) -> np.ndarray:
        """Each row's observation for ``seats[b]`` (an int or one seat per row), a new array."""
        if not self._started:
            raise RuntimeError("call reset() before observe()")
        if self._warmup is not None:
            self.poll_warmup()
        what = f"a seat in 0..{self.num_seats - 1} or one per row ({self.num_envs} integers)"
        s = int_array(seats, "seats", what)
        if s.ndim > 1 or s.size not in (1, self.num_envs):
            raise ValueError(f"seats must be {what}, got shape {s.shape}")
        s = np.ascontiguousarray(np.broadcast_to(s.reshape(-1), (self.num_envs,)))
        check_seats(s, self.num_seats)
        out = np.zeros((self.num_envs, self.game.obs_dim), np.float32)
        self.game.observe_rows(self.state, self._cfg, s, out)
        return out

    @property
    def current_player(self) -> np.ndarray:
        """The seat to act in each row (-1 where the game is over), read-only int8."""
        return self._current_out

    @property
    def action_mask(self) -> np.ndarray:
        """The legal-action mask of each row, read-only (the buffer ``step`` returns)."""
        return self._mask_out

    @property
    def terminated(self) -> np.ndarray:
        """Whether the last step ended each row's game, read-only (the array ``step`` returns)."""
        return self._terminated_out

    @property
    def observation(self) -> np.ndarray:
        """Each row's observation of the seat to act (the buffer ``step`` returns)."""
        return self._obs

    @property
    def rewards(self) -> np.ndarray:
        """Each row's rewards of the last step, per seat (the buffer ``step`` returns)."""
        return self._rewards

    # -- one row: the interface of a front end of one game (core.aec) -------------------------
    def row_info(self, row: int = 0) -> RowInfo:
        """Where the game of row ``row`` stands (``RowInfo``), after ``reset``."""
        return RowInfo(
            int(self._current[row]),
            int(self._deal_no[row]),
            int(self._dealer[row]),
            int(self._episode[row]),
            bool(self._terminated[row]),
        )

    def deal_points(self, row: int = 0) -> list[int]:
        """The points of each seat in the last finished deal of row ``row``."""
        return self._last_points[row].tolist()[: self.num_seats]

    def observe_row(self, seat: int) -> np.ndarray:
        """``observe`` for an engine of one row: ``seat``'s observation (a seat of the game: not
        checked), a new array of ``obs_dim``; no poll of a background compile."""
        if self.num_envs != 1 or not self._started:
            raise RuntimeError("observe_row() observes a one-row engine after reset()")
        self._seat[0] = seat
        self.game.observe_rows(self.state, self._cfg, self._seat, self._view)
        return self._view[0].copy()

    def step_row(self, action: int) -> tuple[bool, int]:
        """``step`` for an engine of one row (an AEC env's): apply ``action``, an id the mask
        allows (``action_mask[0]``; a masked-out action is a no-op, as under ``validate=False``,
        and nothing is checked), and update the buffers and ``current_player`` as ``step`` does;
        no poll of a background compile (``poll_warmup``). Returns whether the step finished a
        deal (a new one began, or the game ended) and the seat to act now (-1: the game is
        over, ``terminated``)."""
        if self.num_envs != 1 or not self._started:
            raise RuntimeError("step_row() steps a one-row engine after reset()")
        deal = self._deal_no[0]
        self._action[0] = action
        self._step_entry(
            self.state,
            self._cfg,
            self._action,
            self.autoreset,
            self._obs,
            self._mask,
            self._rewards,
            self._terminated,
        )
        return bool(self._terminated[0]) or self._deal_no[0] != deal, int(self._current[0])

    def render(self, row: int = 0) -> str:
        """ANSI text of row ``row``."""
        if not self._started:
            raise RuntimeError("call reset() before render()")
        row = check_int(row, "row", 0, self.num_envs - 1)
        return self.game.render(self.state, row, self.config)

    def scene(self, row: int = 0, seat=None) -> dict:
        """The scene of row ``row`` (``core.scene``: a JSON-able dict of what is on the table)
        as ``seat`` sees it: None the open view (every card), a seat number that seat's view,
        ``"current"`` the view of the seat to act (the open view once the game is over)."""
        if not self._started:
            raise RuntimeError("call reset() before scene()")
        row = check_int(row, "row", 0, self.num_envs - 1)
        view = resolve_view(seat, self.num_seats, int(self._current[row]))
        return self.game.scene(self.state, row, self.config, view)

    def picture(self, row: int = 0, seat=None) -> np.ndarray:
        """Row ``row`` drawn as an RGB image, ``uint8`` of shape ``core.picture.SHAPE``: the scene
        of ``scene(row, seat)`` (``core.picture``)."""
        from .picture import draw

        return draw(self.scene(row, seat))


def engine_class(game: GameDef, name: str, module: str, title: str) -> type[CardVectorEnv]:
    """The batched engine class of ``game``: a ``CardVectorEnv`` of that ``GameDef``, called
    ``name`` in ``module`` (the game's package, which binds it to that name, so that its engines
    pickle); ``title`` names the game in its docstring."""
    return type(
        name,
        (CardVectorEnv,),
        {
            "game": game,
            "__module__": module,
            "__doc__": f"N games of {title} stepped at once (see ``cardenvs.core.vector``).",
        },
    )
