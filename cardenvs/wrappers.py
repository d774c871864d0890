"""Single-agent views of the multi-player games, for single-agent RL libraries.

``SingleAgentEnv(env_id, seat=0, opponents=None, **config)`` is a ``gymnasium.Env``: the learner
plays one seat; every other seat is played by an opponent (any object with ``act(observation,
action_mask) -> int``, e.g. the agents in the checkout's ``agents/``; default: uniformly random
legal actions from the env's own generator). Observations are the learner's flat observation
vectors, the info dict carries ``"action_mask"``, and ``action_masks()`` answers sb3-contrib's
``MaskablePPO``. The reward is the learner's reward from the game's reward table, paid on the
step that ends the episode.

``seat="rotate"`` gives the learner seat ``episode % num_seats``, so it plays every seat equally.
An illegal learner action follows the PettingZoo classic convention of the AEC env: the episode
ends and the learner gets -1 (``illegal_action="raise"`` raises ``ValueError`` instead).
Runs on the batched engine with one row (the same kernels as ``cardenvs.make``).
"""

from __future__ import annotations

import gymnasium
import numpy as np

from .registry import lookup


class SingleAgentEnv(gymnasium.Env):
    """One seat of a cardenvs game as a Gymnasium env (see the module docstring).

    Args:
        env_id: e.g. ``"piquet-v0"``.
        seat: the learner's seat, or ``"rotate"``.
        opponents: one agent for all other seats, or a dict ``{seat: agent}``; ``None`` plays
            uniformly random legal actions.
        illegal_action: ``"penalize"`` (the episode ends, the learner gets -1) or ``"raise"``.
        **config: the game's ``Config`` options.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        env_id: str,
        seat: int | str = 0,
        opponents=None,
        illegal_action: str = "penalize",
        render_mode: str | None = None,
        **config,
    ):
        module, defaults = lookup(env_id)
        self.env_id = env_id
        self._engine = getattr(module, module.VECTOR_CLASS)(
            1, autoreset=False, validate=False, **(defaults | config)
        )
        self.num_seats = self._engine.num_seats
        if seat != "rotate" and not (
            isinstance(seat, (int, np.integer))
            and not isinstance(seat, bool)
            and 0 <= seat < self.num_seats
        ):
            raise ValueError(f"seat must be 'rotate' or in 0..{self.num_seats - 1}, got {seat!r}")
        if illegal_action not in ("penalize", "raise"):
            raise ValueError(
                f"illegal_action must be 'penalize' or 'raise', got {illegal_action!r}"
            )
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if opponents is not None and not isinstance(opponents, dict):
            opponents = {p: opponents for p in range(self.num_seats)}
        for agent in (opponents or {}).values():
            if not callable(getattr(agent, "act", None)):
                raise ValueError(f"an opponent needs act(observation, action_mask): {agent!r}")
        self.opponents = opponents
        self.seat_mode = seat
        self.seat = 0 if seat == "rotate" else int(seat)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        game = self._engine.game
        self.observation_space = gymnasium.spaces.Box(game.obs_low, game.obs_high, dtype=np.float32)
        self.action_space = gymnasium.spaces.Discrete(game.num_actions)
        self._episodes = 0
        self._rng = np.random.default_rng()
        self._done = True

    def __repr__(self) -> str:
        return (
            f"SingleAgentEnv({self.env_id!r}, seat={self.seat_mode!r}, "
            f"config={self._engine.config})"
        )

    # -- gymnasium API -------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._episodes = 0
        if self.seat_mode == "rotate":
            self.seat = self._episodes % self.num_seats
        self._episodes += 1
        self._engine.reset(seed=seed, options=options)
        self._done = False
        self._play_opponents()
        while self._done:  # the opponents ended the game before the learner's first move
            self._engine.reset()
            self._done = False
            self._play_opponents()
        return self._observe(), self._info(0.0)

    def step(self, action):
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        mask = self._engine.action_mask[0]
        a = int(action)
        if not (0 <= a < self.action_space.n) or not mask[a]:
            if self.illegal_action == "raise":
                legal = [self._engine.game.action_names[i] for i in np.flatnonzero(mask)]
                raise ValueError(f"action {action!r} is not legal now; legal: {legal}")
            self._done = True
            return self._observe(), -1.0, True, False, self._info(0.0, illegal=True)
        reward = self._apply(a)
        if not self._done:
            reward += self._play_opponents()
        return self._observe(), reward, self._done, False, self._info(reward)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (bool), as sb3-contrib's ``MaskablePPO`` asks."""
        if self._done:
            return np.zeros(self.action_space.n, bool)
        return self._engine.action_mask[0].astype(bool)

    def render(self):
        if self.render_mode == "ansi":
            return self._engine.render(0)
        return None

    # -- internals -----------------------------------------------------------------------------
    def _apply(self, a: int) -> float:
        _, _, rewards, terminated, _, _ = self._engine.step(np.array([a], np.int64))
        if terminated[0]:
            self._done = True
            return float(rewards[0, self.seat])
        return 0.0

    def _play_opponents(self) -> float:
        """Let the other seats move until the learner is to act or the game ends."""
        while not self._done and int(self._engine.current_player[0]) != self.seat:
            cur = int(self._engine.current_player[0])
            mask = self._engine.action_mask[0]
            agent = None if self.opponents is None else self.opponents.get(cur)
            if agent is None:
                legal = np.flatnonzero(mask)
                a = int(legal[self._rng.integers(legal.size)])
            else:
                a = int(agent.act(self._engine.observe(cur)[0], mask.copy()))
                if not mask[a]:
                    raise ValueError(f"opponent in seat {cur} chose illegal action {a}")
            r = self._apply(a)
            if self._done:
                return r
        return 0.0

    def _observe(self) -> np.ndarray:
        return self._engine.observe(self.seat)[0]

    def _info(self, reward: float, illegal: bool = False) -> dict:
        info = {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat}
        if illegal:
            info["illegal_move"] = True
        return info
