"""Trained policies without torch: the ``.npz`` model format of ``train/ppo.py`` and its NumPy
forward pass, used by ``cardenvs.zoo`` (the shipped models) and ``agents.policy.PolicyAgent``.

    from cardenvs.policy import NumpyPolicy, NumpyAgent
    policy = NumpyPolicy.load("runs/piquet-v0/model.npz")
    agent = NumpyAgent(policy, "piquet-v0")          # checks the model against the game
    action = agent.act(observation, action_mask)

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

import numpy as np

import cardenvs

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


def check_batch(observations, masks) -> tuple[np.ndarray, np.ndarray]:
    """``(observations, masks)`` of ``act_batch`` as arrays, ``masks`` as bool: ``ValueError``
    unless they are ``(N, obs_dim)`` and ``(N, num_actions)`` with the same N and every row has
    a legal action."""
    obs = np.asarray(observations)
    m = np.asarray(masks)
    if obs.ndim != 2 or m.ndim != 2 or obs.shape[0] != m.shape[0]:
        raise ValueError(
            f"act_batch needs observations (N, obs_dim) and masks (N, num_actions) with the same "
            f"N; got {obs.shape} and {m.shape}"
        )
    if not m.any(axis=1).all():
        bad = int(np.flatnonzero(~m.any(axis=1))[0])
        raise ValueError(f"row {bad} has no legal action (is its game over?)")
    return obs, m.astype(bool)


def greedy(policy: NumpyPolicy, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Each row's legal action with the highest logit."""
    return np.where(masks, policy.logits(obs), -np.inf).argmax(axis=1)


def sample(
    policy: NumpyPolicy, obs: np.ndarray, masks: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """A sample of each row's masked softmax (Gumbel-max over the legal actions)."""
    g = -np.log(-np.log(rng.random(masks.shape)))
    return np.where(masks, policy.logits(obs) + g, -np.inf).argmax(axis=1)


class NumpyAgent:
    """A ``NumpyPolicy`` as an agent for ``env_id`` (the model is checked against the game:
    ``ValueError`` for another game or observation layout). ``deterministic``: the legal action
    with the highest logit; otherwise a sample of the masked policy, seeded at construction. An
    illegal action is never returned."""

    def __init__(
        self,
        policy: NumpyPolicy,
        env_id: str,
        deterministic: bool = True,
        seed: int = 0,
        name: str = "policy",
    ):
        if not isinstance(policy, NumpyPolicy):
            raise TypeError(f"policy must be a NumpyPolicy, got {type(policy).__name__}")
        policy.check(env_id)
        self.policy = policy
        self.env_id = env_id
        self.deterministic = bool(deterministic)
        self.seed = seed
        self.name = name
        self._rng = np.random.default_rng(seed)

    def __repr__(self) -> str:
        mode = "greedy" if self.deterministic else "sample"
        return f"NumpyAgent({self.env_id!r}, {mode}, name={self.name!r})"

    def act(self, observation, action_mask) -> int:
        obs = np.asarray(observation, np.float32)[None]
        return int(self.act_batch(obs, np.asarray(action_mask)[None])[0])

    def act_batch(self, observations, masks) -> np.ndarray:
        obs, m = check_batch(observations, masks)
        if obs.shape[1] != self.policy.obs_dim or m.shape[1] != self.policy.num_actions:
            raise ValueError(
                f"{self.env_id}: observations must be (N, {self.policy.obs_dim}) and masks "
                f"(N, {self.policy.num_actions}); got {obs.shape} and {m.shape}"
            )
        if self.deterministic:
            return greedy(self.policy, obs, m).astype(np.int64)
        return sample(self.policy, obs, m, self._rng).astype(np.int64)
