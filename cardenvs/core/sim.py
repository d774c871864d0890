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
"""

from __future__ import annotations

import numpy as np

from .game import GameDef
from .seats import check_seats
from .state import PackedState


class Simulator:
    """Clone, determinize and step one-row copies of a game's state (see the module docstring).

    Args:
        game: the game's ``GameDef`` (``cardenvs.game_info(id)``).
        config: the game's ``Config`` (the live env's ``config``).
    """

    def __init__(self, game: GameDef, config):
        self.game = game
        self.config = config
        self.cfg = config.to_array()
        self._step_rows = game.step_kernel(self.cfg)
        self.num_seats = game.num_seats(config)
        self._current = game.layout.offset("current")

    def __repr__(self) -> str:
        return f"Simulator({self.game.env_id}, {self.config})"

    @staticmethod
    def copy_row(state: PackedState, b: int = 0) -> PackedState:
        """A one-row copy of row ``b``."""
        return PackedState(*(a[b : b + 1].copy() for a in state))

    def current(self, s: PackedState) -> int:
        """The seat to act in the copy, -1 when its game is over."""
        return int(s.f[0, self._current])

    def observe(self, s: PackedState, seat: int) -> np.ndarray:
        """``seat``'s observation of the copy (a new array)."""
        return self.observe_rows(s, [seat])[0]

    def legal(self, s: PackedState) -> np.ndarray:
        """The legal-action mask of the seat to act in the copy (all zero once it is over)."""
        out = np.zeros(self.game.num_actions, np.int8)
        self.game.legal_row(s, 0, self.cfg, out)
        return out

    def step(self, s: PackedState, action: int, check: bool = True):
        """Apply ``action`` to the copy; return ``(rewards per seat, game over, next mask)``.

        With ``check`` the action is first tested against ``legal(s)`` (``ValueError`` if it is
        not legal; the copy is left unchanged). Search loops that draw their actions from the
        previous mask pass ``check=False``.
        """
        if check and not self.legal(s)[action]:
            raise ValueError(f"action {action} is not legal in this state")
        rewards, term, mask = self.step_rows(s, [action])
        return rewards[0], bool(term[0]), mask[0]

    # -- several copies at once (batched roll-outs) ---------------------------------------------
    @staticmethod
    def stack(states) -> PackedState:
        """One ``K``-row state from ``K`` one-row copies (a new state)."""
        return PackedState(*(np.concatenate([st[i] for st in states]) for i in range(3)))

    def observe_rows(self, s: PackedState, seats: np.ndarray) -> np.ndarray:
        """Row ``k``'s observation for ``seats[k]``, ``(K, obs_dim)`` (a new array)."""
        k = s.m.shape[0]
        seats = np.asarray(seats)
        if seats.shape != (k,) or seats.dtype.kind not in "iu":
            raise ValueError(f"seats must be {k} integer seats, one per row, got {seats!r}")
        check_seats(seats, self.num_seats)
        out = np.zeros((k, self.game.obs_dim), np.float32)
        self.game.observe_rows(s, self.cfg, seats.astype(np.int64), out)
        return out

    def current_rows(self, s: PackedState) -> np.ndarray:
        """The seat to act in every row (-1 where the game is over)."""
        return s.f[:, self._current].astype(np.int64)

    def step_rows(self, s: PackedState, actions: np.ndarray):
        """Apply ``actions[k]`` in every row of ``s`` (no checks, no autoreset); return
        ``(rewards (K, seats), game over (K,), next masks (K, A))``, new arrays. A row whose game
        is over, or given an action its mask forbids, is left unchanged."""
        k = s.m.shape[0]
        obs = np.empty((k, self.game.obs_dim), np.float32)
        mask = np.zeros((k, self.game.num_actions), np.int8)
        rewards = np.zeros((k, self.num_seats), np.float32)
        term = np.zeros(k, np.bool_)
        a = np.asarray(actions, np.int64)
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
        if not 0 <= seat < self.num_seats:
            raise ValueError(f"seat must be in 0..{self.num_seats - 1}, got {seat!r}")
        out = self.copy_row(s, 0)
        self.game.determinize(out, 0, self.config, seat, rng)
        # the legality cache of the seat to act (its own cards are unchanged, but in a game like
        # Banque the acting seat may be another player whose hand was redrawn)
        self.game.legal_row(out, 0, self.cfg, np.zeros(self.game.num_actions, np.int8))
        return out
