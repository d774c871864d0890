"""Single-agent views of the multi-player games, for single-agent RL libraries.

``SingleAgentEnv(env_id, seat=0, opponents=None, **config)`` is a ``gymnasium.Env``: the learner
plays one seat; every other seat is played by an opponent (any object with ``act(observation,
action_mask) -> int``, e.g. the agents in the checkout's ``agents/``; default: uniformly random
legal actions from the env's own generator). Observations are the learner's flat observation
vectors, the info dict carries ``"action_mask"``, and ``action_masks()`` answers sb3-contrib's
``MaskablePPO``. The reward is the learner's reward from the game's reward table, paid on the
step that ends the episode.

``seat="rotate"`` gives the learner seat ``episode % num_seats``, so it plays every seat equally.
Actions are checked as the AEC env checks them: an int or NumPy integer (never a bool, float or
string) in the action space, else ``ValueError``. A masked-out learner action follows the
PettingZoo classic convention of the AEC env: the episode ends and the learner gets -1
(``illegal_action="raise"`` raises ``ValueError`` instead).
Runs on the batched engine with one row (the same kernels as ``cardenvs.make``).

Rendering, as the AEC env: ``render_mode="ansi"`` makes ``render()`` return the game's text,
``"rgb_array"`` a picture of the table (``core.picture``: ``uint8`` of shape
``core.picture.SHAPE``) in the view ``render_seat`` names: None the open view (every card, the
default), a seat number that seat's view, ``"current"`` the seat to act, which between calls is
the learner (the open view once the game is over)::

    env = SingleAgentEnv("esel-v0", seat="rotate", render_mode="rgb_array", render_seat="current")
    env.reset(seed=0)
    frame = env.render()   # the learner's view, as a (640, 960, 3) array
"""

from __future__ import annotations

import time

import gymnasium
import numpy as np

from ..core.checks import brief
from ..core.scene import resolve_view
from ..registry import classes

#: the render modes of ``SingleAgentEnv`` (besides None)
RENDER_MODES = ("ansi", "rgb_array")


class SingleAgentEnv(gymnasium.Env):
    """One seat of a cardenvs game as a Gymnasium env (see the module docstring).

    Args:
        env_id: e.g. ``"piquet-v0"``.
        seat: the learner's seat, or ``"rotate"``.
        opponents: one agent for all other seats, or a dict ``{seat: agent}``; ``None`` plays
            uniformly random legal actions.
        illegal_action: ``"penalize"`` (the episode ends, the learner gets -1) or ``"raise"``.
        render_mode: None, ``"ansi"`` (``render()`` returns text) or ``"rgb_array"`` (a picture
            of the table).
        render_seat: whose view ``"rgb_array"`` draws: None the open view (the default), a seat,
            or ``"current"`` (the learner while the game runs).
        **config: the game's ``Config`` options.
    """

    #: render_fps: the rate video recorders (gymnasium.wrappers.RecordVideo) play frames at
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(
        self,
        env_id: str,
        seat: int | str = 0,
        opponents=None,
        illegal_action: str = "penalize",
        render_mode: str | None = None,
        render_seat=None,
        **config,
    ):
        vector_cls, _, defaults = classes(env_id)
        self.env_id = env_id
        self._engine = vector_cls(1, autoreset=False, validate=False, **(defaults | config))
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
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(
                f"render_mode must be one of {[None, *RENDER_MODES]}, got {brief(render_mode)}"
            )
        try:
            resolve_view(render_seat, self.num_seats, 0)
        except ValueError as e:
            raise ValueError(f"render_seat: {e}") from None
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
        self.render_seat = render_seat
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
        return self._observe(), self._info()

    def step(self, action):
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        a = _check_action(action, self.action_space.n, "action")
        mask = self._engine.action_mask[0]
        if not mask[a]:
            if self.illegal_action == "raise":
                legal = [self._engine.game.action_names[i] for i in np.flatnonzero(mask)]
                raise ValueError(f"action {a} is not legal now; legal: {legal}")
            self._done = True
            return self._observe(), -1.0, True, False, self._info(illegal=True)
        reward = self._apply(a)
        if not self._done:
            reward += self._play_opponents()
        return self._observe(), reward, self._done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (bool), as sb3-contrib's ``MaskablePPO`` asks."""
        if self._done:
            return np.zeros(self.action_space.n, bool)
        return self._engine.action_mask[0].astype(bool)

    def render(self):
        """The game's text (``"ansi"``), a picture of the table in ``render_seat``'s view
        (``"rgb_array"``), or None (no render mode)."""
        if self.render_mode == "ansi":
            return self._engine.render(0)
        if self.render_mode == "rgb_array":
            return self._engine.picture(0, self.render_seat)
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
                a = agent.act(self._engine.observe(cur)[0], mask.copy())
                a = _check_action(a, mask.size, f"opponent in seat {cur}: action")
                if not mask[a]:
                    raise ValueError(f"opponent in seat {cur} chose illegal action {a}")
            r = self._apply(a)
            if self._done:
                return r
        return 0.0

    def _observe(self) -> np.ndarray:
        return self._engine.observe(self.seat)[0]

    def _info(self, illegal: bool = False) -> dict:
        info = {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat}
        if illegal:
            info["illegal_move"] = True
        return info


def _check_action(action, n: int, what: str) -> int:
    """``action`` as an int, if it is an integer (Python or NumPy, not a bool) in ``0..n-1``;
    else a ``ValueError`` (as ``CardAECEnv.step``: no coercion of floats, bools or strings)."""
    if (
        isinstance(action, (bool, np.bool_))
        or not isinstance(action, (int, np.integer))
        or not 0 <= action < n
    ):
        raise ValueError(f"{what} must be an integer in 0..{n - 1}, got {brief(action)}")
    return int(action)


def _check_actions(actions, num_envs: int, n: int) -> np.ndarray:
    """One action per row as int64, if ``actions`` holds ``num_envs`` integers (an integer
    dtype, signed or unsigned: no floats, bools or objects) in ``0..n-1``; else a ``ValueError``
    naming the row, the value and what is allowed (as ``CardVectorEnv.step``)."""
    a = np.asarray(actions)
    allowed = f"actions must be integers in 0..{n - 1} (an integer dtype)"
    if a.size != num_envs or a.ndim > 2:
        raise ValueError(f"actions must be {num_envs} integers (one per row), got shape {a.shape}")
    a = a.reshape(num_envs)  # SB3 may pass (num_envs, 1)
    if a.dtype.kind == "b":
        raise ValueError(f"row 0: action {a.tolist()[0]} is a bool: {allowed}, got dtype bool")
    if a.dtype.kind not in "iu":
        # the row to name: the first value that is not a whole number, else the first row
        values = a.tolist()
        whole = [isinstance(x, (int, float)) and float(x).is_integer() for x in values]
        b = whole.index(False) if False in whole else 0
        raise ValueError(
            f"row {b}: action {brief(values[b])} is not an integer: {allowed}, got dtype {a.dtype}"
        )
    out = (a < 0) | (a >= n)
    if out.any():
        b = int(np.flatnonzero(out)[0])
        raise ValueError(f"row {b}: action {int(a[b])} is outside the action space 0..{n - 1}")
    return a.astype(np.int64)


_SB3_CLASS = None


def sb3_vec_env(
    env_id: str, num_envs: int = 8, seed: int = 0, opponents=None, team: bool = False, **config
):
    """A stable-baselines3 ``VecEnv`` over the batched engine (SB3 imported here, lazily).

    Row ``b``'s learner plays seat ``b % num_seats`` (the learner's seat rotates across games);
    with ``team=True`` it plays every seat of side ``b % len(sides)`` instead (partnership Piquet:
    both partners; the engine's ``sides``), each move observed from the seat that makes it. The
    other seats are played in batch by ``opponents``: an agent with ``act_batch(observations,
    masks)``, a callable of the same signature (e.g. a frozen copy of the learner's policy), or
    ``None`` for uniformly random legal actions. An object with ``act_rows(rows, observations,
    masks)`` is told which rows it plays (a pool that gives each game its own opponent). Rewards
    are the learner's; a finished game's last observation is in
    ``infos[b]["terminal_observation"]`` and the row restarts at once (SB3's convention).
    ``env_method("action_masks")`` answers sb3-contrib's ``MaskablePPO``. Actions are checked as
    the batched engine checks them: one per row, of an integer dtype (no floats, bools or
    objects), in ``0..num_actions - 1`` and legal, else ``ValueError`` naming the row and value.
    """
    global _SB3_CLASS
    if _SB3_CLASS is None:
        _SB3_CLASS = _make_sb3_class()
    return _SB3_CLASS(env_id, num_envs, seed, opponents, team, **config)


def _make_sb3_class():
    from stable_baselines3.common.vec_env import VecEnv

    class CardSB3VecEnv(VecEnv):
        """See ``sb3_vec_env``."""

        def __init__(self, env_id, num_envs, seed, opponents, team, **config):
            vector_cls, _, defaults = classes(env_id)
            self.env_id = env_id
            self.engine = vector_cls(
                num_envs, seed=seed, autoreset=False, validate=False, **(defaults | config)
            )
            game = self.engine.game
            obs_space = gymnasium.spaces.Box(game.obs_low, game.obs_high, dtype=np.float32)
            self.render_mode = None  # no rendering through SB3 (SB3 asks before it is set)
            super().__init__(num_envs, obs_space, gymnasium.spaces.Discrete(game.num_actions))
            self.P = self.engine.num_seats
            groups = self.engine.sides if team else tuple((p,) for p in range(self.P))
            # learner[b, p]: the learner plays seat p in row b; seats[b]: the seat whose reward
            # is the learner's (partners' rewards are equal) and whose view ends a game
            self.learner = np.zeros((num_envs, self.P), bool)
            for b in range(num_envs):
                self.learner[b, list(groups[b % len(groups)])] = True
            self.seats = self.learner.argmax(axis=1)
            self.opponents = opponents
            self.seed_value = seed
            self._rng = np.random.default_rng(seed)
            self._actions = None
            self._rows = np.arange(num_envs)
            # seconds inside reset/step_wait ("env", opponents' moves included) and inside the
            # opponents' action choice ("opponents"): the engine's share is env - opponents
            self.timing = {"env": 0.0, "opponents": 0.0}

        # -- VecEnv API ------------------------------------------------------------------------
        def reset(self):
            t0 = time.perf_counter()
            self.engine.reset(seed=self.seed_value)
            self._rewards = np.zeros(self.num_envs, np.float32)
            self._done = np.zeros(self.num_envs, bool)
            self._play_opponents()
            obs = self.engine.observe(self._learner_seats())
            self.timing["env"] += time.perf_counter() - t0
            return obs

        def step_async(self, actions):
            self._actions = _check_actions(actions, self.num_envs, self.action_space.n)

        def step_wait(self):
            t0 = time.perf_counter()
            mask = self.engine.action_mask
            if not mask[self._rows, self._actions].all():
                bad = int(np.flatnonzero(~mask[self._rows, self._actions].astype(bool))[0])
                raise ValueError(f"row {bad}: the learner's action {self._actions[bad]} is illegal")
            self._rewards = np.zeros(self.num_envs, np.float32)
            self._done = np.zeros(self.num_envs, bool)
            self._step(self._actions, np.ones(self.num_envs, bool))
            self._play_opponents()
            infos = [{} for _ in range(self.num_envs)]
            done_rows = np.flatnonzero(self._done)
            if done_rows.size:
                final = self.engine.observe(self.seats)
                for b in done_rows.tolist():
                    infos[b]["terminal_observation"] = final[b].copy()
                self.engine.reset_rows(done_rows)
                live_before = self._done.copy()
                self._done[:] = False
                self._play_opponents(track=False)
                self._done = live_before
            obs = self.engine.observe(self._learner_seats())
            self.timing["env"] += time.perf_counter() - t0
            return obs, self._rewards.copy(), self._done.copy(), infos

        def action_masks(self):
            return self.engine.action_mask.astype(bool)

        def env_method(self, method_name, *args, indices=None, **kwargs):
            if method_name != "action_masks":
                raise AttributeError(f"{type(self).__name__} has no env method {method_name!r}")
            masks = self.action_masks()
            return [masks[b] for b in self._get_indices(indices)]

        def get_attr(self, attr_name, indices=None):
            return [getattr(self, attr_name) for _ in self._get_indices(indices)]

        def set_attr(self, attr_name, value, indices=None):
            setattr(self, attr_name, value)

        def env_is_wrapped(self, wrapper_class, indices=None):
            return [False for _ in self._get_indices(indices)]

        def close(self):
            pass

        def seed(self, seed=None):
            self.seed_value = seed
            return [seed for _ in range(self.num_envs)]

        # -- internals -------------------------------------------------------------------------
        def _learner_seats(self):
            """The learner's seat to act in each row (``seats[b]`` where it is not to act)."""
            cur = self.engine.current_player.astype(np.int64)
            return np.where(self._learner_to_act(cur), cur, self.seats)

        def _learner_to_act(self, cur):
            """Rows whose seat to act (``cur``; -1 when over) is one of the learner's."""
            return (cur >= 0) & self.learner[self._rows, np.maximum(cur, 0)]

        def _step(self, actions, acting, track=True):
            """Step the rows in ``acting`` with ``actions``; other rows are left unchanged (they
            get an action that is illegal for them, which the kernels skip)."""
            mask = self.engine.action_mask
            noop = np.argmin(mask, axis=1)
            a = np.where(acting, actions, noop)
            _, _, rewards, terminated, _, _ = self.engine.step(a)
            ended = terminated & acting
            if track:
                self._rewards[ended] += rewards[ended, self.seats[ended]]
                self._done |= ended
            return ended

        def _play_opponents(self, track=True):
            """Let the other seats move until every live row waits for its learner."""
            for _ in range(100_000):
                cur = self.engine.current_player.astype(np.int64)
                acting = (cur >= 0) & ~self._learner_to_act(cur) & ~self._done
                if not acting.any():
                    return
                rows = np.flatnonzero(acting)
                mask = self.engine.action_mask
                actions = np.zeros(self.num_envs, np.int64)
                if self.opponents is None:
                    score = np.where(mask[rows] > 0, self._rng.random(mask[rows].shape), -1.0)
                    actions[rows] = score.argmax(axis=1)
                else:
                    obs = self.engine.observe(np.where(cur >= 0, cur, 0))[rows]
                    t0 = time.perf_counter()
                    if hasattr(self.opponents, "act_rows"):  # per-row opponents (a pool)
                        actions[rows] = self.opponents.act_rows(rows, obs, mask[rows])
                    else:
                        act = getattr(self.opponents, "act_batch", self.opponents)
                        actions[rows] = act(obs, mask[rows])
                    self.timing["opponents"] += time.perf_counter() - t0
                ended = self._step(actions, acting, track)
                if not track and ended.any():  # a fresh episode ended before the learner moved
                    self.engine.reset_rows(np.flatnonzero(ended))
            raise RuntimeError("opponents did not hand the move back to the learner")

    return CardSB3VecEnv
