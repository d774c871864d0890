"""The one agent maker: a spec string (or an agent object) for a game becomes an agent.

Specs (``SPEC_HELP``):

- ``random``: uniformly random legal actions (``cardenvs.agents.RandomAgent``);
- ``heuristic``: the game's rule-based agent (``cardenvs.agents.heuristic_for``);
- ``ismcts@<n>`` or ``ismcts@<n>:<rollout>``: information-set MCTS with ``n`` iterations a
  decision (``cardenvs.agents.ismcts.ISMCTSAgent``), rolling out with ``heuristic`` (the
  default), ``random`` or ``zoo``; ``zoo+ismcts@<n>`` is the ladder's name of ``ismcts@<n>:zoo``;
  a bare ``ismcts`` is ``ismcts@200:random``, the tournament's old default;
- ``zoo``: the game's pretrained model for the config's table (``cardenvs.zoo.load``, greedy);
- ``sample:zoo`` and ``sample:model:<path>``: the same models played by sampling their policy
  (seeded with the agent's seed) instead of taking the most probable legal action: a policy
  trained to mix (``train.ppo --magnet-coef``) plays its mixed strategy;
- ``model:<path>``: a saved model, a ``.npz`` of ``train/ppo.py`` (read without pickles), or an
  SB3 ``.zip`` of ``train/sb3_ppo.py`` only with ``trusted=True`` (loading one runs the code its
  pickles hold). The older spellings ``ppo:<path>`` and a bare ``<path>.npz`` still work for
  this release and warn (``FutureWarning``).

An object is an agent when it has ``act_batch(observations, masks)`` or ``act(observation,
action_mask)`` (``as_agent`` gives an ``act``-only agent an ``act_batch`` that calls it row by
row); search agents may also have ``act_row(engine, b)`` (the arena's batched games) and
``act_env(env)`` (an AEC env), which the players prefer.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np

#: the spec grammar, for error messages and ``--help`` texts
SPEC_HELP = (
    "random, heuristic, ismcts@<iterations>[:heuristic|random|zoo], zoo, model:<path.npz>, "
    "sample:zoo, sample:model:<path.npz>"
)
SAMPLE = "sample:"  # the prefix of a model played by sampling its policy
#: ISMCTS's roll-out when a spec names none (the ladder's; ``ismcts`` alone keeps ``random``)
DEFAULT_ROLLOUT = "heuristic"
#: the bare ``ismcts`` spec's budget (the tournament's and play's old default)
ISMCTS_ITERATIONS = 200
TRUSTED_HELP = (
    "I trust the SB3 .zip models named here: loading one runs the code inside it (its pickles), "
    "so give --trusted only for files you trained or got from someone you would let run code on "
    "this machine; a .npz model is read without pickles and never needs it"
)
_WARNED: set[str] = set()  # old model spellings already warned about
_SEARCH = re.compile(r"(zoo\+)?ismcts@([0-9]+)(?::([a-z]+))?")


def model_path(spec: str) -> str | None:
    """The model path of a ``model:`` spec (or of the older ``ppo:<path>`` and ``<path>.npz``
    spellings), else None."""
    if not isinstance(spec, str):
        return None
    for prefix in ("model:", "ppo:"):
        if spec.startswith(prefix):
            return spec[len(prefix) :]
    return spec if spec.endswith(".npz") else None


def sb3_zip(path) -> bool:
    """Whether the model path ``path`` names an SB3 ``.zip``, read as ``PolicyAgent`` reads it
    (a path with no file there stands for the ``.npz``, else the ``.zip``, of that name)."""
    p = Path(path)
    if not p.exists():
        p = next((q for q in (p.with_suffix(".npz"), p.with_suffix(".zip")) if q.exists()), p)
    return p.suffix == ".zip"


def untrusted_zip(path) -> str:
    """Why a command line refuses the SB3 ``.zip`` ``path`` without ``--trusted``."""
    return (
        f"{str(path)!r} is an SB3 .zip model: loading it runs the code its pickles hold; give "
        "--trusted if you trust this file (you trained it, or it comes from someone you would let "
        "run code on this machine), or use a .npz model (read without pickles)"
    )


def parse_search(spec: str) -> tuple[int, str] | None:
    """``(iterations, rollout)`` of an ISMCTS spec (``ismcts``, ``ismcts@<n>[:<rollout>]``,
    ``zoo+ismcts@<n>``), None for any other spec; ``ValueError`` for a malformed one."""
    if spec == "ismcts":
        return ISMCTS_ITERATIONS, "random"
    if not (spec.startswith("ismcts@") or spec.startswith("zoo+ismcts@")):
        return None
    from ..agents.ismcts import ROLLOUTS

    m = _SEARCH.fullmatch(spec)
    if m is None or int(m.group(2)) < 1 or (m.group(1) and m.group(3)):
        raise ValueError(
            f"agent {spec!r}: the ISMCTS budget must be an integer >= 1 and the roll-out one of "
            f"{', '.join(ROLLOUTS)}: ismcts@<iterations>[:<rollout>] (or zoo+ismcts@<n>)"
        )
    rollout = "zoo" if m.group(1) else (m.group(3) or DEFAULT_ROLLOUT)
    if rollout not in ROLLOUTS:
        raise ValueError(
            f"agent {spec!r}: unknown roll-out {rollout!r}; choose one of {', '.join(ROLLOUTS)}"
        )
    return int(m.group(2)), rollout


def check_spec(spec: str, trusted: bool = False) -> None:
    """Raise ``ValueError`` naming what is wrong with ``spec`` and what is allowed, before any
    game is played (without loading anything: a missing zoo model or model file is found by
    ``make_agent``)."""
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"an agent spec is a non-empty string ({SPEC_HELP}), got {spec!r}")
    if spec.startswith(SAMPLE):
        inner = spec[len(SAMPLE) :]
        if inner != "zoo" and not inner.startswith("model:"):
            raise ValueError(
                f"agent {spec!r}: sample: plays a model by sampling its policy and takes zoo or "
                "model:<path.npz> after it (sample:zoo, sample:model:<path>)"
            )
        if inner.startswith("model:") and sb3_zip(inner[len("model:") :]):
            raise ValueError(f"agent {spec!r}: sample: takes a .npz model, not an SB3 .zip")
        spec = inner
    path = model_path(spec)
    if path is not None:
        if not path:
            raise ValueError(f"agent {spec!r}: model:<path> needs the model's path after 'model:'")
        if sb3_zip(path) and not trusted:
            raise ValueError(untrusted_zip(path))
        return
    if spec in ("random", "heuristic", "zoo") or parse_search(spec) is not None:
        return
    raise ValueError(f"unknown agent {spec!r}; available: {SPEC_HELP}")


def make_agent(
    spec,
    env_id: str,
    *,
    seed: int = 0,
    config: dict | None = None,
    trusted: bool = False,
    time_limit: float | None = None,
    batch: int = 16,
    name: str | None = None,
):
    """The agent ``spec`` names for ``env_id`` (see the module docstring), seeded with ``seed``.

    Args:
        spec: a spec string, or an agent object (returned through ``as_agent``).
        env_id: the game.
        seed: the agent's random generator seed.
        config: the game's options; they choose the zoo's model (e.g. ``{"num_players": 2}``).
        trusted: a ``model:`` path may be an SB3 ``.zip`` (loading it runs its pickles).
        time_limit: an ISMCTS agent's seconds per decision instead of its iterations.
        batch: an ISMCTS agent's iterations per wave of roll-outs.
        name: the agent's name in reports (default: the spec).

    Raises ``ValueError`` naming what is wrong and what is allowed: an unknown spec, a zoo
    without the game's model, a missing model file or one of another game, an SB3 ``.zip``
    without ``trusted``."""
    if not isinstance(spec, str):
        return as_agent(spec)
    check_spec(spec, trusted=True)  # the syntax; an untrusted .zip is PolicyAgent's refusal
    config = dict(config or {})
    agent = _build(spec, env_id, seed, config, trusted, time_limit, batch)
    agent.name = name or spec
    return agent


def _build(spec, env_id, seed, config, trusted, time_limit, batch):
    from .. import agents

    if spec.startswith(SAMPLE):  # checked by check_spec: zoo or model:<path.npz>
        inner = spec[len(SAMPLE) :]
        if inner == "zoo":
            from .. import zoo

            return zoo.load(env_id, mode="sample", seed=seed, **config)
        from ..agents.policy import PolicyAgent

        return PolicyAgent(inner[len("model:") :], env_id, deterministic=False, seed=seed)
    path = model_path(spec)
    if path is not None:
        if not spec.startswith("model:") and spec not in _WARNED:
            _WARNED.add(spec)  # once per spec and process (an arena makes agents per seating)
            warnings.warn(
                f"the agent spec {spec!r} is an old spelling of 'model:{path}' and will stop "
                "working in the next release; write model:<path>",
                FutureWarning,
                stacklevel=4,
            )
        from ..agents.policy import PolicyAgent

        return PolicyAgent(path, env_id, seed=seed, trusted=trusted)
    if spec == "random":
        return agents.RandomAgent(seed=seed)
    if spec == "heuristic":
        return agents.heuristic_for(env_id, seed=seed)
    if spec == "zoo":
        from .. import zoo

        return zoo.load(env_id, seed=seed, **config)  # a ValueError naming the models it has
    iterations, rollout = parse_search(spec)
    from ..agents.ismcts import ISMCTSAgent

    if rollout == "zoo":
        from .. import zoo

        zoo.find(env_id, **config)  # a missing model is said now, not at the first search
    return ISMCTSAgent(
        env_id,
        iterations=iterations,
        time_limit=time_limit,
        rollout=rollout,
        batch=batch,
        seed=seed,
    )


class ActOnly:
    """An agent with only ``act(observation, action_mask)`` given ``act_batch``: one call per
    row, in row order (its own random state, if any, advances as it would in an AEC env)."""

    def __init__(self, agent):
        self.agent = agent
        self.name = getattr(agent, "name", type(agent).__name__)

    def __repr__(self) -> str:
        return f"ActOnly({self.agent!r})"

    def act(self, observation, action_mask) -> int:
        return int(self.agent.act(observation, action_mask))

    def act_batch(self, observations, masks) -> np.ndarray:
        return np.array(
            [self.agent.act(o, m) for o, m in zip(observations, masks, strict=True)], np.int64
        )


def as_agent(agent):
    """``agent`` itself when it has ``act_batch`` (or is a search agent, with ``act_row``); an
    ``act``-only agent wrapped (``ActOnly``); ``TypeError`` for anything else."""
    if callable(getattr(agent, "act_batch", None)) or callable(getattr(agent, "act_row", None)):
        return agent
    if callable(getattr(agent, "act", None)):
        return ActOnly(agent)
    raise TypeError(
        f"an agent is a spec string ({SPEC_HELP}) or an object with act_batch(observations, "
        f"masks) or act(observation, action_mask); got {type(agent).__name__}"
    )
