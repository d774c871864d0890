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
for raises ``ValueError`` naming the models there are. A rule option that differs from the
config the model was trained with (its header's ``config``; ``episode`` and ``reward`` aside,
and options the game gained after the model was trained) gives a ``UserWarning`` naming each
such option and both values: the model plays, but it never saw those rules.

A model whose observation layout or action names differ from the installed game's (a later
version of the game) is refused with ``ValueError`` (``cardenvs.policy.NumpyPolicy.check``):
it would read the observation wrongly. A file of the folder that is not a well-formed zoo model
(unreadable, a foreign header, a bad ``zoo`` block) makes ``list``, ``find`` and ``load`` raise
``ValueError`` naming the file and the field (``cardenvs.policy.read_header``); no file is
unpickled.
"""

from __future__ import annotations

import builtins
import dataclasses
import json
import warnings
from functools import cache
from pathlib import Path

from ..core.checks import brief
from ..policy import NumpyAgent, NumpyPolicy, read_header
from ..registry import GAMES, lookup

MODELS = Path(__file__).resolve().parent / "models"
MODES = ("greedy", "sample")
#: options that never change what a model reads or may play: no warning when they differ
UNWATCHED = ("episode", "reward")


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
    """The checked header of a zoo model (``ValueError`` naming the file and the field)."""
    header = read_header(path, "zoo model")
    zoo = header.get("zoo")
    if not isinstance(zoo, dict):
        raise ValueError(
            f"{str(path)!r}: the model header has no 'zoo' block (a dict with 'name', "
            f"'play_config' and 'evaluation'), got {brief(zoo)}"
        )
    for key in ("play_config", "evaluation"):
        if not isinstance(zoo.get(key, {}), dict):
            raise ValueError(
                f"{str(path)!r}: the header's zoo block field {key!r} must be a dict, got "
                f"{brief(zoo[key])}"
            )
    try:
        _num_players(header["game"], zoo.get("play_config", {}))
    except ValueError as e:
        raise ValueError(f"{str(path)!r}: the header's game and zoo 'play_config': {e}") from None
    return header


def _entries(directory: Path | None = None) -> builtins.list[ZooModel]:
    directory = MODELS if directory is None else Path(directory)
    out = []
    for path in sorted(directory.glob("*.npz")):
        header = _read_header(path)
        zoo = header["zoo"]
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
    changed = _untrained(model, policy.header["config"], config)
    if changed:
        asked = ", ".join(f"{k}={a!r}" for k, (a, _) in changed.items())
        trained = ", ".join(f"{k}={t!r}" for k, (_, t) in changed.items())
        warnings.warn(
            f"cardenvs.zoo.load({model.env_id!r}): {asked} differ(s) from the config the model "
            f"{model.name!r} was trained on; it was trained with {trained}: it plays, but never "
            "saw these rules",
            UserWarning,
            stacklevel=2,
        )
    agent = NumpyAgent(policy, model.env_id, deterministic=mode == "greedy", seed=seed)
    agent.name = "zoo"
    agent.model = model
    return agent


def _untrained(model: ZooModel, trained: dict, config: dict) -> dict:
    """The options of ``config`` (resolved over the id's defaults) whose value differs from the
    one in ``trained`` (the model header's config), ``UNWATCHED`` aside: ``{name: (asked,
    trained)}``. An option the header lacks (added to the game after the model was trained) is
    not compared."""
    game, defaults = lookup(model.env_id)
    asked = json.loads(json.dumps(game.config_cls.from_kwargs(**(defaults | config)).to_dict()))
    return {
        k: (v, trained[k])
        for k, v in asked.items()
        if k not in UNWATCHED and k in trained and trained[k] != v
    }


__all__ = ["GAMES", "MODELS", "MODES", "ZooModel", "find", "has", "list", "load"]
