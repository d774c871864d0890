"""The league of the native trainer (``train/ppo.py``): who holds which seats of each game.

**Seats.** One network plays every seat of every game from that seat's own observation, and
every one of those decisions is training data. A share of the games (``--league-share``, drawn
per game: at the start and again whenever a game ends) seats league opponents instead: the
learner holds the seats of one side (drawn per game), one league member (``--league``) holds the
others; those seats' decisions are not training data.

**Members** (``league_agent``): ``random``, ``heuristic`` (``agents.heuristic_for``), ``self``:
one of the last ``--pool-size`` frozen snapshots of the learner, taken every
``--snapshot-every`` learner decisions, which play by sampling their masked policy (the trainer
makes them: ``train.ppo.Snapshot``; here any agent with ``name`` and ``act_batch``); or a frozen
agent: ``zoo``, the game's pretrained model ``cardenvs.zoo.load(game, mode="greedy",
**config)`` (chosen by the training config's number of players), or ``model:<path>``, a
``.npz`` model of the trainer played by ``agents.policy.PolicyAgent``, deterministic. Before the
first snapshot a ``self`` draw is plain self-play. ``--league-share 1.0 --league <frozen
agent>`` trains a best response to that agent (``benchmarks/exploit.py``, which makes its
frozen targets with ``league_agent``): one side per game is the learner's, every other seat the
agent's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

LEAGUE_KINDS = ("random", "heuristic", "self")  # and the frozen agents: zoo, model:<path>
LEAGUE_HELP = (
    "random, heuristic, self (snapshots of the learner), zoo (the game's pretrained "
    "cardenvs.zoo model, greedy) or model:<path> (a .npz model of train/ppo.py, deterministic); "
    "sample:zoo or sample:model:<path>: those models sampling their policy"
)


def league_agent(kind: str, game: str, config: dict, seed: int):
    """A fixed league member of ``game`` by kind (``cardenvs.arena.make_agent``):
    ``random``, ``heuristic``, ``zoo`` (``cardenvs.zoo.load(game, **config)``, greedy) or
    ``model:<path>`` (a ``.npz`` model, ``agents.policy.PolicyAgent``, deterministic), or
    ``sample:zoo`` / ``sample:model:<path>`` (those models sampling their policy); ``None``
    for ``self``. Raises ``ValueError`` for an unknown kind, a missing model or one of another
    game."""
    from cardenvs.arena import make_agent

    if kind == "self":
        return None
    if kind in ("random", "heuristic", "zoo", "sample:zoo"):
        return make_agent(kind, game, seed=seed, config=config)
    if kind.startswith("model:") or kind.startswith("sample:model:"):
        path = kind.split("model:", 1)[1]
        if not path:
            raise ValueError("model:<path> needs the path of a .npz model after 'model:'")
        if Path(path).suffix == ".zip":
            raise ValueError(
                f"model:<path> takes a .npz model of train/ppo.py, got {path!r}: an SB3 .zip is "
                "not loaded here (loading one runs the code its pickles hold)"
            )
        return make_agent(kind, game, seed=seed)
    raise ValueError(f"unknown league kind {kind!r}; allowed: {LEAGUE_HELP}")


class League:
    """Per-game seating. Row ``b`` is a self-play game (``member[b] == -1``: the learner holds
    every seat) or a league game (the learner holds the seats of one side, ``members[member[b]]``
    the others). ``draw(rows)`` seats the given rows again (at the start, and for every game that
    ends); ``learner[b, p]`` is True where the learner holds seat ``p`` of row ``b``."""

    def __init__(
        self,
        game: str,
        kinds,
        share: float,
        sides,
        num_seats: int,
        num_envs: int,
        pool_size: int,
        seed: int,
        config: dict | None = None,
    ):
        self.game = game
        self.share = float(share)
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.fixed = []  # (name, agent): random, heuristic, frozen agents (league_agent)
        for kind in dict.fromkeys(kinds):
            agent = league_agent(kind, game, config or {}, seed)
            if agent is not None:
                self.fixed.append((kind, agent))
        self.use_self = "self" in kinds
        self.pool_size = pool_size
        self.snapshots = []  # (name, agent)
        self.added = 0
        self.side_masks = np.zeros((len(sides), num_seats), np.bool_)
        for s, side in enumerate(sides):
            self.side_masks[s, list(side)] = True
        self.learner = np.ones((num_envs, num_seats), np.bool_)
        self.member = np.full(num_envs, -1, np.int64)
        self.draw(np.arange(num_envs))

    @property
    def members(self) -> list:
        return self.fixed + self.snapshots

    def draw(self, rows: np.ndarray) -> None:
        k = rows.size
        if k == 0:
            return
        n = len(self.members)
        league = (self.rng.random(k) < self.share) & (n > 0)
        member = self.rng.integers(max(n, 1), size=k)
        side = self.rng.integers(len(self.side_masks), size=k)
        self.member[rows] = np.where(league, member, -1)
        self.learner[rows] = np.where(league[:, None], self.side_masks[side], True)

    def add_snapshot(self, agent) -> None:
        """A frozen copy of the learner (an agent with ``name`` and ``act_batch``) joins the
        pool; in a full pool it takes the oldest one's place (and its games)."""
        if not self.use_self:
            return
        if len(self.snapshots) < self.pool_size:
            self.snapshots.append((agent.name, agent))
        else:
            k = self.added % self.pool_size
            self.snapshots[k] = (agent.name, agent)
        self.added += 1

    def act(self, obs: np.ndarray, mask: np.ndarray, learn: np.ndarray, actions: np.ndarray):
        """Write the league's actions into ``actions`` where the learner does not decide."""
        rows = np.flatnonzero(~learn)
        if rows.size == 0:
            return
        who = self.member[rows]
        if (who < 0).any():
            raise RuntimeError("a self-play game has a seat the learner does not hold")
        members = self.members
        for k in np.unique(who):
            sel = rows[who == k]
            actions[sel] = members[k][1].act_batch(obs[sel], mask[sel])
