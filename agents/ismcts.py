"""Information-set Monte Carlo tree search (single-observer ISMCTS with determinization).

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search". Each iteration:

1. **determinize**: draw a full state consistent with everything the searching seat has
   observed (``env.unwrapped.determinize``: other hands and the stock order redrawn);
2. **select** down the tree of action sequences from the root with UCB1, counting a child's
   *availability* (how often its action was legal when its parent was visited), only among the
   actions legal in this determinization;
3. **expand** one untried legal action;
4. **roll out** until the current deal ends (or the game), with uniformly random legal actions,
   the game's heuristic agent or the zoo's pretrained model (``rollout``);
5. **back up** each seat's value along the path; a node is scored from the seat that chose it.

Iterations run in waves of ``batch``: the wave's descents come first, each from its own
determinization and leaving a virtual loss on its path (so they spread over the tree), then all
their roll-outs run together on one batched state, and the back-ups replace the virtual losses
with the values. The roll-out policy is then called once per step for the whole wave, which is
what makes heuristic roll-outs affordable; ``batch=1`` is the sequential algorithm.

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

ROLLOUTS = ("random", "heuristic", "zoo")  # the roll-out policies (ISMCTSAgent's rollout)


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
        rollout: the roll-out policy: ``"random"`` legal actions, the game's ``"heuristic"``
            agent (stronger, slower per step), or the ``"zoo"``'s pretrained model of the game
            for the searched table's number of seats (``cardenvs.zoo``, greedy; loaded at the
            first search, ``ValueError`` if the zoo has no such model): search at play time on
            top of the pretrained network. Any batched agent (an object with
            ``act_batch(observations, masks)``, e.g. ``agents.policy.PolicyAgent`` of a trained
            model) may be given instead of a name and rolls out for every seat.
        batch: iterations per wave: a wave's descents (each with its own determinization and a
            virtual loss on its path) are made first, then their roll-outs run together on one
            batched state, so the roll-out policy is called once per step for the whole wave.
            ``batch=1`` is the sequential algorithm.
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
        rollout="random",
        batch: int = 16,
        seed: int = 0,
    ):
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
            raise ValueError(f"batch must be a positive integer, got {batch!r}")
        policy = None
        if callable(getattr(rollout, "act_batch", None)):
            policy, rollout = rollout, getattr(rollout, "name", type(rollout).__name__)
        elif not isinstance(rollout, str) or rollout not in ROLLOUTS:
            raise ValueError(
                f"rollout must be one of {ROLLOUTS} or an agent with act_batch, got {rollout!r}"
            )
        self.env_id = env_id
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.max_rollout = max_rollout
        self.value_scale = value_scale
        self.seed = seed
        self.rollout = rollout
        self.batch = batch
        self.rng = np.random.default_rng(seed)
        self._policy = policy
        self._zoo: dict[int, object] = {}  # the zoo's model per number of seats (rollout="zoo")
        self._load_zoo = policy is None and rollout == "zoo"
        if policy is None and rollout == "heuristic":
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
        self.last_root = None

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
        """The action for the seat to act in row ``b`` of a batched engine (one still on
        plain Python, a cold cache, first waits for its compiled kernels: search runs on them)."""
        if getattr(venv, "warming_up", False):
            venv.wait_compiled()
        sim = Simulator(venv.game, venv.config)
        return self.search(sim, Simulator.copy_row(venv.state, b), int(venv.current_player[b]))

    # -- the search ----------------------------------------------------------------------------
    def search(self, sim: Simulator, state, seat: int) -> int:
        """Run the search from ``state`` (a one-row copy) for ``seat``; return the action."""
        if self._load_zoo:
            self._policy = self._zoo_policy(sim)
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
            wave = self.batch if deadline is not None else min(self.batch, self.iterations - n)
            leaves = [
                self._descend(sim, sim.determinize(state, seat, self.rng), root, root_mask)
                for _ in range(wave)
            ]
            self._evaluate(sim, leaves)
            for path, _s, _mask, value in leaves:
                for child, mover in path:
                    child.value += float(value[mover]) + _VIRTUAL_LOSS
                root.visits += 1
            n += wave
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif n >= self.iterations:
                break
        self.iterations_done = n
        self.last_root = root  # the search tree of the last decision (visits, values), to inspect
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value))
        return int(best[0])

    def _zoo_policy(self, sim: Simulator):
        """The zoo's model of this game for ``sim``'s config, chosen by ``cardenvs.zoo`` (by
        the number of seats; ``ValueError`` naming the models there are if none fits), loaded
        once per number of seats."""
        seats = sim.num_seats
        if seats not in self._zoo:
            import dataclasses

            import cardenvs.zoo

            config = dataclasses.asdict(sim.config)
            self._zoo[seats] = cardenvs.zoo.load(self.game.env_id, **config)
        return self._zoo[seats]

    def _descend(self, sim: Simulator, s, root: _Node, mask: np.ndarray):
        """Selection and expansion in determinization ``s`` (stepped in place). Every node on
        the path takes a visit and a virtual loss at once, so the other descents of the same
        wave spread out; the back-up replaces the loss by the roll-out's value. Returns ``[path,
        s, mask, value]``, ``value`` already set when the descent ended the deal or game."""
        deal0 = int(s.f[0, self._deal])
        node = root
        path: list[tuple[_Node, int]] = []
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
            else:
                a, best_score = -1, -math.inf
                for x in legal:
                    c = node.children[int(x)]
                    score = c.value / c.visits + self.exploration * math.sqrt(
                        math.log(max(1, c.avail)) / c.visits
                    )
                    if score > best_score:
                        a, best_score = int(x), score
                child = node.children[a]
            child.visits += 1
            child.value -= _VIRTUAL_LOSS
            rewards, done, mask = sim.step(s, a, check=False)
            path.append((child, mover))
            node = child
            if done:
                return [path, s, mask, np.asarray(rewards, float)]
            if int(s.f[0, self._deal]) != deal0:
                return [path, s, mask, self._deal_value(s, 0, sim.num_seats)]
            if untried:
                return [path, s, mask, None]

    def _evaluate(self, sim: Simulator, leaves: list) -> None:
        """Roll out together, on one batched state, every leaf whose deal is still on; each
        row stops at the end of its deal (or game) and takes its value there."""
        todo = [i for i, leaf in enumerate(leaves) if leaf[3] is None]
        if not todo:
            return
        s = sim.stack([leaves[i][1] for i in todo])
        masks = np.stack([leaves[i][2] for i in todo])
        k = len(todo)
        deal0 = s.f[:, self._deal].copy()
        values = np.zeros((k, sim.num_seats))
        active = np.ones(k, np.bool_)
        steps = 0
        while active.any():
            if steps >= self.max_rollout:  # a safety bound: value 0
                break
            if self._policy is not None:
                obs = sim.observe_rows(s, np.maximum(sim.current_rows(s), 0))
                actions = self._policy.act_batch(obs, masks)
            else:
                actions = np.where(masks > 0, self.rng.random(masks.shape), -1.0).argmax(axis=1)
            # a finished row is frozen with an action its mask forbids (left unchanged)
            actions = np.where(active, actions, masks.argmin(axis=1))
            rewards, term, new_masks = sim.step_rows(s, actions)
            steps += 1
            for r in np.flatnonzero(active):
                if term[r]:
                    values[r] = rewards[r]
                    active[r] = False
                elif s.f[r, self._deal] != deal0[r]:
                    values[r] = self._deal_value(s, r, sim.num_seats)
                    active[r] = False
                else:
                    masks[r] = new_masks[r]
        for j, i in enumerate(todo):
            leaves[i][3] = values[j]

    def _deal_value(self, s, r: int, seats: int) -> np.ndarray:
        """``tanh((points - mean) / value_scale)`` of the deal that just ended in row ``r``."""
        pts = s.v[r, self._points : self._points + seats].astype(float)
        return np.tanh((pts - pts.mean()) / self.value_scale)


# the virtual loss a descent puts on its path until its roll-out is backed up (values are in
# [-1, 1] for win rewards and for deals scored through tanh)
_VIRTUAL_LOSS = 1.0
