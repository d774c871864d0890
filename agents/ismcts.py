"""Information-set Monte Carlo tree search (single-observer ISMCTS with determinization).

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search". Each iteration:

1. **determinize**: draw a full state consistent with everything the searching seat has
   observed (``env.unwrapped.determinize``: other hands and the stock order redrawn);
2. **select** down the tree of action sequences from the root with UCB1, counting a child's
   *availability* (how often its action was legal when its parent was visited), only among the
   actions legal in this determinization;
3. **expand** one untried legal action;
4. **roll out** until the current deal ends (or the game), with uniformly random legal actions
   or the game's heuristic agent (``rollout``);
5. **back up** each seat's value along the path; a node is scored from the seat that chose it.

Value of a roll-out, per seat: the game's rewards if the game ended; else, when the deal ended,
``tanh((points − mean points) / value_scale)`` of the deal's points (``last_points``); else 0.
All stepping uses the game's own kernels on state copies (``cardenvs.core.sim.Simulator``); the
live game is never touched. Games: every game with a ``determinize`` helper (all four).
"""

from __future__ import annotations

import math
import time

import numpy as np

import cardenvs
from cardenvs.core.sim import Simulator


class _Node:
    __slots__ = ("children", "visits", "value", "avail")

    def __init__(self):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 0


class ISMCTSAgent:
    """ISMCTS for one seat (see the module docstring).

    Args:
        env_id: the game.
        iterations: search iterations per decision (determinizations).
        time_limit: seconds per decision instead of a fixed number of iterations (optional).
        exploration: the UCB1 constant.
        max_rollout: roll-out steps after which the value is 0 (a safety bound).
        value_scale: points that make a deal's value tanh(1) ≈ 0.76.
        rollout: the roll-out policy: ``"random"`` legal actions, or the game's
            ``"heuristic"`` agent (stronger, about 20× slower per step).
        seed: the agent's random generator seed.
    """

    name = "ismcts"

    def __init__(
        self,
        env_id: str,
        iterations: int = 200,
        time_limit: float | None = None,
        exploration: float = 0.7,
        max_rollout: int = 2000,
        value_scale: float = 30.0,
        rollout: str = "random",
        seed: int = 0,
    ):
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        if rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout must be 'random' or 'heuristic', got {rollout!r}")
        self.env_id = env_id
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.max_rollout = max_rollout
        self.value_scale = value_scale
        self.seed = seed
        self.rollout = rollout
        self.rng = np.random.default_rng(seed)
        self._policy = None
        if rollout == "heuristic":
            from .heuristic import heuristic_for

            self._policy = heuristic_for(env_id, seed)
        self.game = cardenvs.game_info(env_id)
        if self.game.determinize is None:
            raise ValueError(
                f"ISMCTS needs a determinization; {env_id} has none yet (see cardenvs.core.sim)"
            )
        self._deal = self.game.layout.offset("deal_no")
        self._points = self.game.layout.offset("last_points")
        self.iterations_done = 0

    def __repr__(self) -> str:
        budget = f"{self.time_limit}s" if self.time_limit else f"{self.iterations} iterations"
        return f"ISMCTSAgent({self.env_id}, {budget}, {self.rollout} roll-outs, seed={self.seed})"

    # -- entry points --------------------------------------------------------------------------
    def act_env(self, env) -> int:
        """The action for the agent to act in a live AEC env (``cardenvs.make``)."""
        core = env.unwrapped
        seat = core.agent_name_mapping[env.agent_selection]
        return self.search(core.simulator(), core.state_copy(), seat)

    def act_row(self, venv, b: int) -> int:
        """The action for the seat to act in row ``b`` of a batched engine."""
        sim = Simulator(venv.game, venv.config)
        return self.search(sim, Simulator.copy_row(venv.state, b), int(venv.current_player[b]))

    # -- the search ----------------------------------------------------------------------------
    def search(self, sim: Simulator, state, seat: int) -> int:
        """Run the search from ``state`` (a one-row copy) for ``seat``; return the action."""
        root_mask = sim.legal(state)
        legal = np.flatnonzero(root_mask)
        if legal.size == 0:
            raise ValueError("the game is over: no legal action")
        if legal.size == 1:
            return int(legal[0])
        root = _Node()
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        n = 0
        while True:
            self._iterate(sim, sim.determinize(state, seat, self.rng), root, root_mask)
            n += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif n >= self.iterations:
                break
        self.iterations_done = n
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value))
        return int(best[0])

    def _iterate(self, sim: Simulator, s, root: _Node, mask: np.ndarray) -> None:
        deal0 = int(s.f[0, self._deal])
        node = root
        path: list[tuple[_Node, int]] = []
        rewards, done = None, False
        # selection and expansion
        while True:
            legal = np.flatnonzero(mask)
            mover = sim.current(s)
            untried = [int(a) for a in legal if int(a) not in node.children]
            for a in legal:
                child = node.children.get(int(a))
                if child is not None:
                    child.avail += 1
            if untried:
                a = untried[int(self.rng.integers(len(untried)))]
                child = node.children[a] = _Node()
                child.avail = 1
                rewards, done, mask = sim.step(s, a, check=False)
                path.append((child, mover))
                break
            best, best_score = None, -math.inf
            for a in legal:
                child = node.children[int(a)]
                score = child.value / child.visits + self.exploration * math.sqrt(
                    math.log(max(1, child.avail)) / child.visits
                )
                if score > best_score:
                    best, best_score = int(a), score
            child = node.children[best]
            rewards, done, mask = sim.step(s, best, check=False)
            path.append((child, mover))
            node = child
            if done or int(s.f[0, self._deal]) != deal0:
                break
        # roll-out
        steps = 0
        while not done and int(s.f[0, self._deal]) == deal0 and steps < self.max_rollout:
            if self._policy is not None:
                obs = sim.observe(s, sim.current(s))
                a = int(self._policy.act_batch(obs[None], mask[None])[0])
            else:
                legal = np.flatnonzero(mask)
                a = int(legal[int(self.rng.integers(legal.size))])
            rewards, done, mask = sim.step(s, a, check=False)
            steps += 1
        value = self._value(sim, s, rewards, done, deal0)
        for child, mover in path:
            child.visits += 1
            child.value += float(value[mover])
        root.visits += 1

    def _value(self, sim: Simulator, s, rewards, done: bool, deal0: int) -> np.ndarray:
        if done:
            return np.asarray(rewards, float)
        P = sim.num_seats
        if int(s.f[0, self._deal]) != deal0:
            pts = s.v[0, self._points : self._points + P].astype(float)
            return np.tanh((pts - pts.mean()) / self.value_scale)
        return np.zeros(P)
