"""A trained policy as an agent: ``train/ppo.py``'s ``.npz`` models (numpy only, no torch) and
``train/sb3_ppo.py``'s MaskablePPO ``.zip`` models.

    from agents.policy import PolicyAgent
    agent = PolicyAgent("runs/piquet-v0/model.npz", "piquet-v0")
    action = agent.act(observation, action_mask)

The tournament takes one as ``ppo:<path>`` (``python -m benchmarks.tournament --agents
ppo:runs/piquet-v0/model.npz heuristic --games piquet-v0``). A ``.npz`` model plays with numpy
alone; sb3-contrib and torch are imported only when a ``.zip`` model is loaded (the ``train``
extra).

The ``.npz`` model format (``NumpyPolicy``, format version 1)
-------------------------------------------------------------
One ``numpy.savez`` archive, readable with ``allow_pickle=False``:

- ``header``: a 0-d string array holding a JSON object: ``format`` (``"cardenvs-policy"``),
  ``format_version`` (1), ``game`` (the environment id), ``config`` (the game config it was
  trained with), ``obs_dim``, ``num_actions``, ``obs_layout`` (``layout_id(game)``, a hash of
  the game's observation blocks: name, size, low, high, in order), ``actions``
  (``actions_id(game)``, a hash of the action names, in order), ``net`` (``{"hidden": [h0, h1,
  ...], "activation": "tanh" | "relu"}``) and provenance: ``command``, ``git_commit``,
  ``timesteps`` (learner decisions trained on), ``created`` (ISO time);
- ``pi.<k>.weight`` ``(out, in)`` and ``pi.<k>.bias`` ``(out,)``, float32, for the policy's
  layers ``k = 0 .. len(hidden)``; the last layer gives one logit per action;
- ``vf.<k>.weight`` and ``vf.<k>.bias``: the value network, the same shapes but one output.

Each network computes ``x -> act(x W0^T + b0) -> act(. W1^T + b1) -> ... -> . Wk^T + bk`` (no
activation after the last layer). The policy plays the legal action with the highest logit
(``deterministic``) or samples the softmax of the legal actions' logits; an illegal action is
never chosen. Loading for a game checks the game id, the observation layout hash and the action
names hash against the installed library: a model of another game or of another observation
layout raises ``ValueError``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

import cardenvs

from .base import _check_batch

FORMAT = "cardenvs-policy"
FORMAT_VERSION = 1
ACTIVATIONS = ("tanh", "relu")


def layout_id(env_id: str) -> str:
    """A hash of ``env_id``'s observation layout (every block's name, size, low, high, in
    order): two games or versions with the same id read observations the same way."""
    blocks = [
        [f.name, int(f.size), float(f.low), float(f.high)]
        for f in cardenvs.game_info(env_id).obs_layout
    ]
    return "sha256:" + hashlib.sha256(json.dumps(blocks).encode()).hexdigest()[:16]


def actions_id(env_id: str) -> str:
    """A hash of ``env_id``'s action names, in order (what each logit means)."""
    names = list(cardenvs.game_info(env_id).action_names)
    return "sha256:" + hashlib.sha256(json.dumps(names).encode()).hexdigest()[:16]


def _activation(name: str):
    if name == "tanh":
        return np.tanh
    return lambda x: np.maximum(x, 0.0, out=x)


class NumpyPolicy:
    """A ``.npz`` model (see the module docstring): header and weights, and a numpy forward pass.

    Args:
        header: the JSON header (a dict).
        arrays: ``pi.<k>.weight``, ``pi.<k>.bias``, ``vf.<k>.weight``, ``vf.<k>.bias``.
    """

    def __init__(self, header: dict, arrays: dict):
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} model header: {header!r:.200}")
        if header.get("format_version") != FORMAT_VERSION:
            raise ValueError(
                f"model format version {header.get('format_version')!r}; this library reads "
                f"version {FORMAT_VERSION}"
            )
        missing = [
            k
            for k in ("game", "config", "obs_dim", "num_actions", "obs_layout", "actions", "net")
            if k not in header
        ]
        if missing:
            raise ValueError(f"the model header lacks {missing}")
        net = header["net"]
        hidden = list(net.get("hidden", []))
        if net.get("activation") not in ACTIVATIONS:
            raise ValueError(
                f"activation must be one of {ACTIVATIONS}, got {net.get('activation')!r}"
            )
        self.header = dict(header)
        self.hidden = hidden
        self.obs_dim = int(header["obs_dim"])
        self.num_actions = int(header["num_actions"])
        self._act = _activation(net["activation"])
        self.pi = self._layers(arrays, "pi", self.num_actions)
        self.vf = self._layers(arrays, "vf", 1)

    def _layers(self, arrays: dict, prefix: str, out: int) -> list[tuple[np.ndarray, np.ndarray]]:
        sizes = [self.obs_dim, *self.hidden, out]
        layers = []
        for k in range(len(sizes) - 1):
            try:
                w = np.asarray(arrays[f"{prefix}.{k}.weight"], np.float32)
                b = np.asarray(arrays[f"{prefix}.{k}.bias"], np.float32)
            except KeyError as e:
                raise ValueError(f"the model lacks the array {e.args[0]!r}") from None
            if w.shape != (sizes[k + 1], sizes[k]) or b.shape != (sizes[k + 1],):
                raise ValueError(
                    f"{prefix}.{k}: weight {w.shape} and bias {b.shape}, expected "
                    f"({sizes[k + 1]}, {sizes[k]}) and ({sizes[k + 1]},)"
                )
            layers.append((np.ascontiguousarray(w.T), b))
        extra = [
            k
            for k in arrays
            if k.startswith(f"{prefix}.") and int(k.split(".")[1]) >= len(sizes) - 1
        ]
        if extra:
            raise ValueError(f"the model has arrays beyond its header's network: {extra}")
        return layers

    def __repr__(self) -> str:
        h = self.header
        return (
            f"NumpyPolicy(game={h['game']!r}, hidden={self.hidden}, "
            f"activation={h['net']['activation']!r}, timesteps={h.get('timesteps')})"
        )

    # -- file ----------------------------------------------------------------------------------
    @classmethod
    def load(cls, path) -> NumpyPolicy:
        """Read a ``.npz`` model (no pickles)."""
        with np.load(path, allow_pickle=False) as z:
            if "header" not in z.files:
                raise ValueError(f"{str(path)!r} is not a {FORMAT} model: it has no header")
            header = json.loads(str(z["header"][()]))
            arrays = {k: z[k] for k in z.files if k != "header"}
        return cls(header, arrays)

    def save(self, path) -> None:
        """Write the model to ``path`` (a ``.npz`` file; the name is kept as given)."""
        arrays = {"header": np.array(json.dumps(self.header))}
        for prefix, layers in (("pi", self.pi), ("vf", self.vf)):
            for k, (wt, b) in enumerate(layers):
                arrays[f"{prefix}.{k}.weight"] = np.ascontiguousarray(wt.T)
                arrays[f"{prefix}.{k}.bias"] = b
        with open(path, "wb") as f:  # an open file: savez would append ".npz" to a bare name
            np.savez(f, **arrays)

    def check(self, env_id: str) -> None:
        """Raise ``ValueError`` unless the model was trained on ``env_id`` with the observation
        layout and action names the installed library has."""
        h = self.header
        if h["game"] != env_id:
            raise ValueError(
                f"the model was trained on another game: {h['game']!r}, not {env_id!r}"
            )
        game = cardenvs.game_info(env_id)
        if (self.obs_dim, self.num_actions) != (game.obs_dim, game.num_actions):
            raise ValueError(
                f"the model expects observations ({self.obs_dim},) and {self.num_actions} "
                f"actions, but {env_id} has ({game.obs_dim},) and {game.num_actions}: it was "
                "trained on another observation layout"
            )
        if h["obs_layout"] != layout_id(env_id):
            raise ValueError(
                f"the model was trained on another observation layout of {env_id} "
                f"({h['obs_layout']}; the installed library has {layout_id(env_id)}): retrain it"
            )
        if h["actions"] != actions_id(env_id):
            raise ValueError(
                f"the model was trained on other action names of {env_id} ({h['actions']}; the "
                f"installed library has {actions_id(env_id)}): retrain it"
            )

    # -- forward pass --------------------------------------------------------------------------
    def _forward(self, layers, obs: np.ndarray) -> np.ndarray:
        x = np.asarray(obs, np.float32)
        for wt, b in layers[:-1]:
            x = self._act(x @ wt + b)
        wt, b = layers[-1]
        return x @ wt + b

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """The policy's logits, ``(n, num_actions)`` float32 (masks not applied)."""
        return self._forward(self.pi, obs)

    def value(self, obs: np.ndarray) -> np.ndarray:
        """The value network's estimate, ``(n,)`` float32."""
        return self._forward(self.vf, obs)[:, 0]

    def probabilities(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The masked policy: softmax over each row's legal actions, 0 for the others."""
        m = np.asarray(masks).astype(bool)
        z = np.where(m, self.logits(obs).astype(np.float64), -np.inf)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        return p / p.sum(axis=1, keepdims=True)


class PolicyAgent:
    """Plays the masked action of a trained policy (deterministic by default: the most probable
    legal action; ``deterministic=False`` samples, seeded at construction).

    Args:
        model: a path to a saved model (``.npz`` from ``train/ppo.py``, ``.zip`` from
            ``train/sb3_ppo.py``), a ``NumpyPolicy`` or a loaded ``MaskablePPO``.
        env_id: the game the policy plays; the model is checked against it (``ValueError``
            for a model of another game or observation layout).
        deterministic: the most probable legal action, or a sample from the masked policy.
        seed: seeds the sampler (used only when ``deterministic=False``).
        name: the agent's name in reports (default: ``ppo``).
    """

    def __init__(
        self,
        model,
        env_id: str,
        deterministic: bool = True,
        seed: int = 0,
        name: str = "ppo",
    ):
        self.env_id = env_id
        self.deterministic = bool(deterministic)
        self.seed = seed
        self.name = name
        self.path = None
        if isinstance(model, str | Path):
            path = Path(model)
            if not path.exists():
                for suffix in (".npz", ".zip"):
                    if path.with_suffix(suffix).exists():
                        path = path.with_suffix(suffix)
                        break
            if not path.is_file():
                raise ValueError(f"no saved model at {str(model)!r}")
            self.path = str(path)
            model = NumpyPolicy.load(path) if path.suffix == ".npz" else _load_sb3(path)
        self.model = model
        self._rng = np.random.default_rng(seed)
        if isinstance(model, NumpyPolicy):
            model.check(env_id)
            return
        game = cardenvs.game_info(env_id)
        obs_shape = tuple(model.observation_space.shape)
        n_actions = int(model.action_space.n)
        if obs_shape != (game.obs_dim,) or n_actions != game.num_actions:
            raise ValueError(
                f"the policy expects observations {obs_shape} and {n_actions} actions, but "
                f"{env_id} has ({game.obs_dim},) and {game.num_actions}: it was trained on "
                "another game"
            )
        self._torch_seeded = False

    def __repr__(self) -> str:
        src = self.path if self.path is not None else type(self.model).__name__
        return f"PolicyAgent({src!r}, {self.env_id!r}, deterministic={self.deterministic})"

    def _most_probable(self, obs: np.ndarray, m: np.ndarray) -> np.ndarray:
        """The legal action with the highest logit; for an SB3 model straight through its
        policy network (what ``model.predict(..., deterministic=True)`` returns, without its
        per-call overhead: about 4x faster on the small batches an opponent pool plays)."""
        if isinstance(self.model, NumpyPolicy):
            logits = self.model.logits(obs)
        else:
            import torch

            policy = self.model.policy
            with torch.no_grad():
                x = torch.as_tensor(obs, dtype=torch.float32)
                features = policy.extract_features(x, policy.pi_features_extractor)
                logits = policy.action_net(policy.mlp_extractor.forward_actor(features)).numpy()
        return np.where(m, logits, -np.inf).argmax(axis=1)

    def _sample(self, obs: np.ndarray, m: np.ndarray) -> np.ndarray:
        if isinstance(self.model, NumpyPolicy):
            # Gumbel-max over the legal actions: a sample of the masked softmax
            g = -np.log(-np.log(self._rng.random(m.shape)))
            return np.where(m, self.model.logits(obs) + g, -np.inf).argmax(axis=1)
        if not self._torch_seeded:
            import torch

            torch.manual_seed(self.seed)
            self._torch_seeded = True
        actions, _ = self.model.predict(
            obs.astype(np.float32, copy=False), action_masks=m, deterministic=False
        )
        return actions

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        obs = np.asarray(observation, np.float32)[None]
        return int(self.act_batch(obs, np.asarray(action_mask)[None])[0])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        obs, m = _check_batch(observations, masks)
        if self.deterministic:
            actions = self._most_probable(obs, m)
        else:
            actions = self._sample(obs, m)
        actions = np.asarray(actions, np.int64).reshape(len(m))
        if not m[np.arange(len(m)), actions].all():  # the masked policy never does this
            bad = int(np.flatnonzero(~m[np.arange(len(m)), actions])[0])
            raise RuntimeError(f"row {bad}: the policy chose illegal action {actions[bad]}")
        return actions


def _load_sb3(path: Path):
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as e:
        raise ImportError(
            "loading an SB3 (.zip) policy needs the train extra: pip install -e '.[train]'"
        ) from e
    return MaskablePPO.load(path, device="cpu")
