"""Search on copies: clone a game's state, determinize it for a seat, and step it without
touching the live game. Written once for every game, on the game's own batched kernels.

``Simulator(game, config)`` works on one-row ``PackedState`` copies:

- ``copy_row(state, b)``: a one-row copy of row ``b`` (the live state is never written);
- ``current(s)``, ``legal(s)`` (the mask), ``observe(s, seat)``;
- ``step(s, action) -> (rewards, done, next mask)``: the game's ``step_rows`` on the copy;
- ``determinize(s, seat, rng)``: a copy in which everything ``seat`` cannot see (other hands, the
  stock order, ...) is redrawn at random among the possibilities consistent with what ``seat``
  has observed, via the game's ``determinize`` helper.

A determinized state gives ``seat`` exactly the observation it had (tested for every game that
supports it), keeps every card once, and keeps each hidden pile's size.

Every entry checks its arguments before a kernel sees them (the kernels index without bounds
checks) and raises ``ValueError`` naming what is wrong: a state must be a ``PackedState`` of
three C-contiguous, writable 2-D arrays with the dtypes of ``core.state.ARRAYS``, the widths of
this game's layout (``game.layout.widths``: a state of another game is refused) and at least one
row, the same number in each array; ``current``, ``observe``, ``legal``, ``step`` and
``determinize`` take a one-row state; seats, actions and rows are integers (not bools, not
floats) in range, and ``step_rows`` takes exactly one action per row. Called on the class
(``Simulator.copy_row(state, b)``, ``Simulator.stack(states)``) the two static helpers check
everything but the widths, which need a game.
"""

from __future__ import annotations

import functools

import numpy as np

from .checks import check_int, int_array
from .game import GameDef
from .seats import check_seats
from .state import ARRAYS, PackedState


class _static_or_bound:
    """A method that runs as a static method when called on the class (``self`` is None) and
    as a method when called on an instance, so ``Simulator.copy_row(state, b)`` keeps working
    while ``sim.copy_row(state, b)`` can check the state against ``sim``'s game."""

    def __init__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)

    def __get__(self, obj, cls=None):
        return functools.partial(self.fn, obj)


def check_state(
    s, widths=None, rows=None, name: str = "s", kernel: bool = True, whose: str = "this game's"
) -> PackedState:
    """``s`` if it is a usable ``PackedState`` (see the module docstring), else ``ValueError``.

    Args:
        widths: the game's ``layout.widths`` (``None``: not checked); ``whose`` names them.
        rows: the number of rows it must have (``None``: at least one).
        kernel: a kernel will run on it, so its arrays must be C-contiguous, aligned and
            writable (a state that is only read or copied need not be).
    """
    if not isinstance(s, PackedState):
        raise ValueError(
            f"{name} must be a PackedState (from Simulator.copy_row, stack or determinize, or "
            f"an env's state), got {type(s).__name__}"
        )
    n = None
    for key, dtype in ARRAYS.items():
        a = getattr(s, key)
        what = f"{name}.{key}"
        if not isinstance(a, np.ndarray):
            raise ValueError(f"{what} must be a numpy array, got {type(a).__name__}")
        if a.dtype != dtype or a.ndim != 2:
            wide = a.dtype == np.int64 and key != "m"  # core.state's wide arrays: plain Python
            raise ValueError(
                f"{what} must be a 2-D {np.dtype(dtype).name} array, got {a.ndim}-D {a.dtype}"
                + (
                    " (the state of an engine still on plain Python while its kernels compile:"
                    " call engine.wait_compiled() first)"
                    if wide
                    else ""
                )
            )
        if widths is not None and a.shape[1] != widths[key]:
            raise ValueError(
                f"{what} has {a.shape[1]} columns, {whose} state has {widths[key]} "
                f"(widths {dict(widths)}): a state of another game?"
            )
        if kernel and not (a.flags.c_contiguous and a.flags.aligned and a.flags.writeable):
            raise ValueError(f"{what} must be C-contiguous, aligned and writable (copy it)")
        if n is None:
            n = a.shape[0]
        elif a.shape[0] != n:
            raise ValueError(f"{name}'s arrays have different numbers of rows")
    if rows is not None and n != rows:
        raise ValueError(f"{name} must have {rows} row(s) (Simulator.copy_row), got {n}")
    if n < 1:
        raise ValueError(f"{name} has no rows")
    return s


class Simulator:
    """Clone, determinize and step one-row copies of a game's state (see the module docstring).

    Args:
        game: the game's ``GameDef`` (``cardenvs.game_info(id)``).
        config: the game's ``Config`` (the live env's ``config``).
    """

    def __init__(self, game: GameDef, config):
        if not isinstance(game, GameDef):
            raise ValueError(f"game must be a GameDef (cardenvs.game_info(id)), got {game!r}")
        if not isinstance(config, game.config_cls):
            raise ValueError(
                f"config must be a {game.config_cls.__name__} of {game.env_id} (the env's "
                f"config), got {type(config).__name__}"
            )
        self.game = game
        self.config = config
        self.cfg = config.to_array()
        self._step_rows = game.step_kernel(self.cfg)
        self.num_seats = game.num_seats(config)
        self._current = game.layout.offset("current")
        self._widths = game.layout.widths

    def __repr__(self) -> str:
        return f"Simulator({self.game.env_id}, {self.config})"

    def _state(self, s, rows=None, name: str = "s", kernel: bool = True) -> PackedState:
        return check_state(s, self._widths, rows, name, kernel)

    def _seat(self, seat, name: str = "seat") -> int:
        return check_int(seat, name, 0, self.num_seats - 1)

    @_static_or_bound
    def copy_row(self, state: PackedState, b: int = 0) -> PackedState:
        """A one-row copy of row ``b``."""
        check_state(state, None if self is None else self._widths, name="state", kernel=False)
        b = check_int(b, "b", 0, state.m.shape[0] - 1)
        return PackedState(*(a[b : b + 1].copy() for a in state))

    def current(self, s: PackedState) -> int:
        """The seat to act in the copy, -1 when its game is over."""
        self._state(s, rows=1, kernel=False)
        return int(s.f[0, self._current])

    def observe(self, s: PackedState, seat: int) -> np.ndarray:
        """``seat``'s observation of the copy (a new array)."""
        self._state(s, rows=1)
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)):
            raise ValueError(f"seat must be an integer in 0..{self.num_seats - 1}, got {seat!r}")
        return self.observe_rows(s, [seat])[0]  # which checks its range

    def legal(self, s: PackedState) -> np.ndarray:
        """The legal-action mask of the seat to act in the copy (all zero once it is over)."""
        self._state(s, rows=1)
        return self._legal(s)

    def _legal(self, s: PackedState) -> np.ndarray:
        """``legal`` of a state already checked."""
        out = np.zeros(self.game.num_actions, np.int8)
        self.game.legal_row(s, 0, self.cfg, out)
        return out

    def step(self, s: PackedState, action: int, check: bool = True):
        """Apply ``action`` to the copy; return ``(rewards per seat, game over, next mask)``.

        With ``check`` the action is first tested against ``legal(s)`` (``ValueError`` if it is
        not legal; the copy is left unchanged). Search loops that draw their actions from the
        previous mask pass ``check=False``.
        """
        self._state(s, rows=1)
        action = check_int(action, "action", 0, self.game.num_actions - 1)
        if check and not self._legal(s)[action]:
            raise ValueError(f"action {action} is not legal in this state")
        rewards, term, mask = self._apply(s, np.array([action], np.int64))
        return rewards[0], bool(term[0]), mask[0]

    # -- several copies at once (batched roll-outs) ---------------------------------------------
    @_static_or_bound
    def stack(self, states) -> PackedState:
        """One ``K``-row state from ``K`` one-row copies (a new state)."""
        if isinstance(states, PackedState) or not isinstance(states, (list, tuple)) or not states:
            raise ValueError("states must be a non-empty list of one-row PackedStates")
        widths, whose = (None, "") if self is None else (self._widths, "this game's")
        for i, st in enumerate(states):
            check_state(st, widths, rows=1, name=f"states[{i}]", kernel=False, whose=whose)
            if widths is None:  # called on the class: the states must be of one game
                widths = {key: getattr(st, key).shape[1] for key in ARRAYS}
                whose = "states[0]'s"
        return PackedState(*(np.concatenate([st[i] for st in states]) for i in range(3)))

    def observe_rows(self, s: PackedState, seats: np.ndarray) -> np.ndarray:
        """Row ``k``'s observation for ``seats[k]``, ``(K, obs_dim)`` (a new array)."""
        k = self._state(s).m.shape[0]
        what = f"{k} seat(s) in 0..{self.num_seats - 1}, one per row (integers)"
        seats = int_array(seats, "seats", what)
        if seats.shape != (k,):
            raise ValueError(f"seats must be {what}, got shape {seats.shape}")
        check_seats(seats, self.num_seats)
        out = np.zeros((k, self.game.obs_dim), np.float32)
        self.game.observe_rows(s, self.cfg, seats, out)
        return out

    def current_rows(self, s: PackedState) -> np.ndarray:
        """The seat to act in every row (-1 where the game is over)."""
        return self._state(s, kernel=False).f[:, self._current].astype(np.int64)

    def step_rows(self, s: PackedState, actions: np.ndarray):
        """Apply ``actions[k]`` in every row of ``s`` (no legality check, no autoreset); return
        ``(rewards (K, seats), game over (K,), next masks (K, A))``, new arrays. A row whose game
        is over, or given an action its mask forbids, is left unchanged. ``actions`` must hold
        one integer in ``0..num_actions - 1`` per row (``ValueError`` otherwise)."""
        k = self._state(s).m.shape[0]
        a_max = self.game.num_actions - 1
        what = f"{k} action(s) in 0..{a_max}, one per row (integers)"
        a = int_array(actions, "actions", what)
        if a.shape != (k,):
            raise ValueError(f"actions must be {what}, got shape {a.shape}")
        bad = np.flatnonzero((a < 0) | (a > a_max))
        if bad.size:
            raise ValueError(f"actions must be {what}, got actions[{bad[0]}] = {a[bad[0]]}")
        return self._apply(s, a)

    def _apply(self, s: PackedState, a: np.ndarray):
        """``step_rows`` on a state and ``int64`` actions already checked (one per row)."""
        k = s.m.shape[0]
        obs = np.empty((k, self.game.obs_dim), np.float32)
        mask = np.zeros((k, self.game.num_actions), np.int8)
        rewards = np.zeros((k, self.num_seats), np.float32)
        term = np.zeros(k, np.bool_)
        self._step_rows(s, self.cfg, a, False, obs, mask, rewards, term)
        return rewards, term, mask

    def determinize(self, s: PackedState, seat: int, rng: np.random.Generator) -> PackedState:
        """A copy of ``s`` with what ``seat`` cannot see redrawn consistently (see the module
        docstring)."""
        if self.game.determinize is None:
            raise NotImplementedError(
                f"{self.game.env_id} has no determinization yet; games with one: see "
                "cardenvs.core.sim"
            )
        self._state(s, rows=1)
        seat = self._seat(seat)
        if not isinstance(rng, np.random.Generator):
            raise ValueError(
                f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), got {rng!r}"
            )
        out = self.copy_row(s, 0)
        self.game.determinize(out, 0, self.config, seat, rng)
        # the legality cache of the seat to act (its own cards are unchanged, but in a game like
        # Banque the acting seat may be another player whose hand was redrawn)
        self.game.legal_row(out, 0, self.cfg, np.zeros(self.game.num_actions, np.int8))
        return out
