"""Pretrained agents: one trained policy per game id (plus two-player Banque and Esel), shipped
with the package and run in NumPy (no torch needed).

    import cardenvs.zoo
    cardenvs.zoo.list()                                  # what is shipped
    agent = cardenvs.zoo.load("piquet-v0")               # greedy: the most probable legal action
    agent = cardenvs.zoo.load("esel-v0", num_players=2)  # the two-player Esel model
    agent = cardenvs.zoo.load("banque-v0", mode="sample", seed=3)
    action = agent.act(observation, action_mask)         # one seat's AEC observation
    actions = agent.act_batch(observations, masks)       # one row per game of a batched engine

Models
------
Each model is ``cardenvs/zoo/models/<name>.npz`` in the ``.npz`` format of ``train/ppo.py``
(``cardenvs.policy``): a JSON header and float32 weights of a small MLP (policy and value
networks). Its header names the game, the config it was trained with, the observation and action
sizes, the hashes of the observation layout and the action names, the network, the exact
training command and commit, and a ``zoo`` block: the model's name, the config it plays
(``play_config``: the number of players where the game has a choice) and its evaluation when it
was packaged (``evaluation``: win rates against random and the heuristic over whole games, with
95% Wilson intervals). ``python -m train.zoo`` packages a trained model into the zoo.

Choosing a model
----------------
``load(env_id, **config)`` picks the model of ``env_id`` trained for the requested number of
players (``num_players`` where the game has it, else the game's only table size). Other options
(``episode``, ``reward``, rule switches) are validated but do not choose the model: a policy
reads the same observation whatever the episode or reward, and a rule switch changes which
actions are legal, never what an observation means. A number of players no model was trained
for raises ``ValueError`` naming the models there are.

A model whose observation layout or action names differ from the installed game's (a later
version of the game) is refused with ``ValueError`` (``cardenvs.policy.NumpyPolicy.check``):
it would read the observation wrongly.
"""

from __future__ import annotations

import builtins
import dataclasses
import json
from functools import cache
from pathlib import Path

import numpy as np

from ..policy import NumpyAgent, NumpyPolicy
from ..registry import GAMES, lookup

MODELS = Path(__file__).resolve().parent / "models"
MODES = ("greedy", "sample")


@dataclasses.dataclass(frozen=True)
class ZooModel:
    """One shipped model: its ``name`` (the file's stem), the game id, the config it plays
    (``{"num_players": P}`` where the game has a choice, else ``{}``), its file, and its
    header's ``evaluation`` (win rates when it was packaged)."""

    name: str
    env_id: str
    config: dict
    path: Path
    evaluation: dict

    @property
    def num_players(self) -> int:
        return _num_players(self.env_id, self.config)


def _num_players(env_id: str, config: dict) -> int:
    """The table size of ``env_id`` under ``config`` (validated: a ``ValueError`` names a bad
    option)."""
    game, defaults = lookup(env_id)
    cfg = game.config_cls.from_kwargs(**(defaults | config))
    return int(game.num_seats(cfg))


@cache
def _read_header(path: Path) -> dict:
    with np.load(path, allow_pickle=False) as z:
        if "header" not in z.files:
            raise ValueError(f"{str(path)!r} is not a zoo model: it has no header")
        return json.loads(str(z["header"][()]))


def _entries(directory: Path | None = None) -> builtins.list[ZooModel]:
    directory = MODELS if directory is None else Path(directory)
    out = []
    for path in sorted(directory.glob("*.npz")):
        header = _read_header(path)
        zoo = header.get("zoo")
        if not isinstance(zoo, dict):
            raise ValueError(f"{path.name}: the model header has no 'zoo' block")
        out.append(
            ZooModel(
                name=path.stem,
                env_id=header["game"],
                config=dict(zoo.get("play_config", {})),
                path=path,
                evaluation=dict(zoo.get("evaluation", {})),
            )
        )
    return out


def list(directory: Path | None = None) -> builtins.list[ZooModel]:  # noqa: A001
    """Every shipped model (``directory``: another folder of zoo models)."""
    return _entries(directory)


def find(env_id: str, directory: Path | None = None, **config) -> ZooModel:
    """The model ``load`` would use for ``env_id`` and ``config`` (``ValueError`` if none)."""
    game, _ = lookup(env_id)  # a ValueError listing the ids for an unknown one
    env_id = game.env_id
    players = _num_players(env_id, config)
    mine = [m for m in _entries(directory) if m.env_id == env_id]
    for m in mine:
        if m.num_players == players:
            return m
    have = [f"{m.name} ({m.num_players} players)" for m in mine] or ["none"]
    raise ValueError(
        f"the zoo has no {env_id} model for {players} players; models of {env_id}: "
        f"{', '.join(have)}"
    )


def has(env_id: str, directory: Path | None = None, **config) -> bool:
    """Whether ``load(env_id, **config)`` finds a model."""
    try:
        find(env_id, directory, **config)
    except ValueError:
        return False
    return True


def load(
    env_id: str,
    mode: str = "greedy",
    seed: int = 0,
    directory: Path | None = None,
    **config,
) -> NumpyAgent:
    """The zoo's agent for ``env_id`` with ``config`` (see the module docstring).

    Args:
        env_id: a game id (``cardenvs.GAMES``).
        mode: ``"greedy"`` plays the legal action with the highest logit; ``"sample"`` samples
            the policy's distribution over the legal actions.
        seed: seeds the sampler.
        directory: another folder of zoo models (default: the shipped ones).
        **config: the game's config (validated); ``num_players`` chooses the model.

    Returns:
        An agent (``name`` ``"zoo"``) with ``act(observation, action_mask)`` and
        ``act_batch(observations, masks)``.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    model = find(env_id, directory, **config)
    policy = NumpyPolicy.load(model.path)
    agent = NumpyAgent(policy, model.env_id, deterministic=mode == "greedy", seed=seed)
    agent.name = "zoo"
    agent.model = model
    return agent


__all__ = ["GAMES", "MODELS", "MODES", "ZooModel", "find", "has", "list", "load"]
