"""The agent protocol, the random agent, and the base of the rule-based agents."""

from __future__ import annotations

import abc
from typing import Protocol, runtime_checkable

import numpy as np

import cardenvs
from cardenvs.policy import check_batch as _check_batch


@runtime_checkable
class Agent(Protocol):
    """An agent for one seat of one game.

    ``act`` takes one seat's observation vector and action mask (as in the AEC env's observation
    dict) and returns a legal action id; ``act_batch`` does the same for a batch, one row per game
    of a batched engine (``(N, obs_dim)`` and ``(N, num_actions)`` in, ``(N,)`` int64 out).
    Agents are seeded at construction; the same seed and inputs give the same actions.
    """

    name: str

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray: ...


class RandomAgent:
    """Uniformly random legal actions (numpy ``Generator`` seeded at construction)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed})"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        _, m = _check_batch(observations, masks)
        score = np.where(m, self.rng.random(m.shape), -1.0)
        return score.argmax(axis=1).astype(np.int64)


def obs_view(env_id: str) -> dict[str, slice]:
    """The observation blocks of ``env_id`` as slices into the flat vector."""
    out, off = {}, 0
    for f in cardenvs.game_info(env_id).obs_layout:
        out[f.name] = slice(off, off + f.size)
        off += f.size
    return out


class ScoredAgent(abc.ABC):
    """Base of the rule-based agents: ``scores(obs, masks)`` rates every action of every row
    (higher is better); the agent plays the best legal action, ties broken at random."""

    name = "scored"
    env_id = ""

    def __init__(self, seed: int = 0, **config):
        self.seed = seed
        self.config = config
        self.rng = np.random.default_rng(seed)
        self.blocks = obs_view(self.env_id)
        self.action_names = cardenvs.game_info(self.env_id).action_names

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"

    @abc.abstractmethod
    def scores(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The rating of every action of every row, ``(N, num_actions)``."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        obs, m = _check_batch(observations, masks)
        s = self.scores(obs.astype(np.float64), m).astype(np.float64)
        s = s + 1e-6 * self.rng.random(s.shape)  # random tie-break
        return np.where(m, s, -np.inf).argmax(axis=1).astype(np.int64)

    def block(self, obs: np.ndarray, name: str) -> np.ndarray:
        return obs[:, self.blocks[name]]
