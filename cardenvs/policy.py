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
never chosen, whatever the logits: a ``nan`` logit counts as ``-inf``, a row with ``+inf`` legal
logits chooses among those, and a row whose legal logits are all ``-inf`` or ``nan`` (a forward
pass that overflowed) chooses uniformly among its legal actions (greedy: the first of them).
Loading for a game checks the game id, the observation layout hash and the action names hash
against the installed library: a model of another game or of another observation layout raises
``ValueError``.

A model file is untrusted input. It is read with ``allow_pickle=False`` (a pickle inside it is
never run), and every malformed file raises ``ValueError`` naming the file and what is wrong: not
a readable ``.npz`` archive (empty, truncated, a ``.npy`` array), a header that is not a JSON
object or lacks a field or holds one of the wrong type (``check_header``), an array missing, of
the wrong shape or dtype, or holding a non-finite value (``inf``, ``nan``).
"""

from __future__ import annotations

import hashlib
import json
import os

import numpy as np

import cardenvs
from cardenvs.core.checks import brief

FORMAT = "cardenvs-policy"
FORMAT_VERSION = 1
ACTIVATIONS = ("tanh", "relu")
#: the fields every header has (``check_header``)
HEADER_FIELDS = (
    "format",
    "format_version",
    "game",
    "config",
    "obs_dim",
    "num_actions",
    "obs_layout",
    "actions",
    "net",
)


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
        check_header(header)
        net = header["net"]
        self.header = dict(header)
        self.hidden = list(net.get("hidden", []))
        self.obs_dim = header["obs_dim"]
        self.num_actions = header["num_actions"]
        self._act = _activation(net["activation"])
        self.pi = self._layers(arrays, "pi", self.num_actions)
        self.vf = self._layers(arrays, "vf", 1)

    def _layers(self, arrays: dict, prefix: str, out: int) -> list[tuple[np.ndarray, np.ndarray]]:
        sizes = [self.obs_dim, *self.hidden, out]
        names = {f"{prefix}.{k}.{p}" for k in range(len(sizes) - 1) for p in ("weight", "bias")}
        extra = sorted(k for k in arrays if k.startswith(f"{prefix}.") and k not in names)
        if extra:
            raise ValueError(
                f"the model has arrays beyond its header's network: {brief(extra)} (its "
                f"{prefix} network has {prefix}.0 .. {prefix}.{len(sizes) - 2}, each a weight "
                "and a bias)"
            )
        layers = []
        for k in range(len(sizes) - 1):
            w = _weights(arrays, f"{prefix}.{k}.weight")
            b = _weights(arrays, f"{prefix}.{k}.bias")
            if w.shape != (sizes[k + 1], sizes[k]) or b.shape != (sizes[k + 1],):
                raise ValueError(
                    f"{prefix}.{k}: weight {w.shape} and bias {b.shape}, expected "
                    f"({sizes[k + 1]}, {sizes[k]}) and ({sizes[k + 1]},)"
                )
            layers.append((np.ascontiguousarray(w.T), b))
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
        """Read a ``.npz`` model (no pickles): ``ValueError`` naming the file and what is wrong
        for a file that is not a well-formed model (see the module docstring)."""
        header, arrays = _read(path, FORMAT + " model", with_arrays=True)
        try:
            return cls(header, arrays)
        except ValueError as e:
            raise ValueError(f"{str(path)!r}: {e}") from None

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
        """The masked policy: softmax over each row's legal actions, 0 for the others (the
        logits as ``playing_logits`` reads them)."""
        m = np.asarray(masks).astype(bool)
        z = np.where(m, playing_logits(self.logits(obs), m), -np.inf)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        return p / p.sum(axis=1, keepdims=True)


def check_header(header) -> None:
    """``ValueError`` naming the field unless ``header`` is a model header of this format (see
    the module docstring): a dict with every field of ``HEADER_FIELDS``, ``format`` and
    ``format_version`` this library's, ``game``, ``obs_layout`` and ``actions`` strings,
    ``config`` a dict, ``obs_dim`` and ``num_actions`` ints >= 1, ``net`` a dict with ``hidden``
    a list of ints >= 1 and ``activation`` one of ``ACTIVATIONS``."""
    if not isinstance(header, dict):
        raise ValueError(f"the header must be a JSON object, got {brief(header)}")
    missing = [k for k in HEADER_FIELDS if k not in header]
    if missing:
        raise ValueError(
            f"the header lacks the field(s) {missing}: not a {FORMAT} model (its header has "
            f"{list(HEADER_FIELDS)})"
        )
    if header["format"] != FORMAT:
        raise ValueError(
            f"header field 'format' is {brief(header['format'])}, not {FORMAT!r}: not a model "
            "of this library"
        )
    if not _is_int(header["format_version"]) or header["format_version"] != FORMAT_VERSION:
        raise ValueError(
            f"model format version {brief(header['format_version'])} (header field "
            f"'format_version'); this library reads version {FORMAT_VERSION}"
        )
    for key in ("game", "obs_layout", "actions"):
        if not isinstance(header[key], str):
            raise ValueError(f"header field {key!r} must be a string, got {brief(header[key])}")
    if not isinstance(header["config"], dict):
        raise ValueError(
            f"header field 'config' must be a dict of the game's options, got "
            f"{brief(header['config'])}"
        )
    for key in ("obs_dim", "num_actions"):
        if not _is_int(header[key]) or header[key] < 1:
            raise ValueError(f"header field {key!r} must be an int >= 1, got {brief(header[key])}")
    net = header["net"]
    if not isinstance(net, dict):
        raise ValueError(
            "header field 'net' must be a dict {'hidden': [sizes], 'activation': name}, got "
            f"{brief(net)}"
        )
    hidden = net.get("hidden", [])
    if not isinstance(hidden, list) or not all(_is_int(h) and h >= 1 for h in hidden):
        raise ValueError(
            f"header field 'net' 'hidden' must be a list of layer sizes (ints >= 1), got "
            f"{brief(hidden)}"
        )
    if net.get("activation") not in ACTIVATIONS:
        raise ValueError(
            f"header field 'net' 'activation' must be one of {ACTIVATIONS}, got "
            f"{brief(net.get('activation'))}"
        )


def read_header(path, what: str = FORMAT + " model") -> dict:
    """The checked header of the model file ``path`` (its weights are not read): ``ValueError``
    naming the file and what is wrong (``what``: the kind of file expected, for the message)."""
    header, _ = _read(path, what, with_arrays=False)
    try:
        check_header(header)
    except ValueError as e:
        raise ValueError(f"{str(path)!r}: {e}") from None
    return header


def _read(path, what: str, with_arrays: bool) -> tuple[object, dict]:
    """The header (parsed JSON, not checked) and the arrays of the ``.npz`` file ``path``, read
    with ``allow_pickle=False``; ``ValueError`` naming the file for one that cannot be read so."""
    name = str(path)
    try:
        size = os.path.getsize(path)
    except OSError as e:
        raise ValueError(f"cannot read the model {name!r}: {e.strerror or e}") from None
    if size == 0:
        raise ValueError(f"{name!r} is empty: not a {what} (an .npz archive)")
    try:
        z = np.load(path, allow_pickle=False)
    except Exception as e:  # noqa: BLE001 - a malformed file: one error type, naming the file
        if "allow_pickle" in str(e):
            raise ValueError(
                f"{name!r} holds pickled data, which is never loaded (it could run code): not "
                f"a {what} (an .npz archive of plain arrays)"
            ) from None
        raise ValueError(
            f"{name!r} is not a readable .npz archive ({type(e).__name__}: {brief(str(e))}): "
            f"not a {what}"
        ) from None
    if not isinstance(z, np.lib.npyio.NpzFile):
        raise ValueError(
            f"{name!r} is not an .npz archive (it holds a single .npy array): not a {what}"
        )
    with z:
        if "header" not in z.files:
            raise ValueError(f"{name!r} is not a {what}: it has no header")
        keys = ["header", *(k for k in z.files if k != "header")] if with_arrays else ["header"]
        arrays = {}
        for key in keys:
            try:
                arrays[key] = z[key]
            except Exception as e:  # noqa: BLE001 - as above
                why = "pickled data, never loaded" if "allow_pickle" in str(e) else brief(str(e))
                raise ValueError(
                    f"{name!r}: the entry {key!r} cannot be read as a plain array ({why})"
                ) from None
            if not isinstance(arrays[key], np.ndarray):  # a member without .npy data: its bytes
                raise ValueError(
                    f"{name!r}: the entry {key!r} is not an array (its archive member holds no "
                    ".npy data)"
                )
    raw = arrays.pop("header")
    if raw.ndim != 0 or raw.dtype.kind not in "US":
        raise ValueError(
            f"{name!r}: the 'header' entry must be a JSON text (a 0-d string array), got an "
            f"array of dtype {raw.dtype} and shape {raw.shape}"
        )
    try:
        header = json.loads(str(raw[()]))
    except RecursionError:
        raise ValueError(f"{name!r}: the 'header' entry is JSON nested too deeply") from None
    except ValueError as e:
        raise ValueError(f"{name!r}: the 'header' entry is not JSON ({e})") from None
    return header, arrays


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _weights(arrays: dict, key: str) -> np.ndarray:
    """``arrays[key]`` as float32: ``ValueError`` naming the array when it is missing, not
    numbers or holds a non-finite value."""
    if key not in arrays:
        raise ValueError(f"the model lacks the array {key!r}")
    a = np.asarray(arrays[key])
    if a.dtype.kind not in "fiu":
        raise ValueError(f"the array {key!r} must hold real numbers, got dtype {a.dtype}")
    with np.errstate(over="ignore"):
        a = a.astype(np.float32)
    if not np.isfinite(a).all():
        bad = int(np.size(a) - np.isfinite(a).sum())
        raise ValueError(
            f"the array {key!r} holds {bad} non-finite value(s) (inf or nan, or beyond float32's "
            "range): every weight must be finite"
        )
    return a


def playing_logits(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``logits`` (``(N, A)``) as the policy plays them, float64, so that every row has a finite
    legal entry: ``nan`` is ``-inf``; in a row with ``+inf`` legal logits those are 0 and the
    rest ``-inf`` (the softmax's limit); a row whose legal logits are all ``-inf`` or ``nan``
    is 0 throughout (uniform over its legal actions). Rows must have a legal action."""
    z = np.array(logits, np.float64)
    legal = np.asarray(masks, bool)
    z[np.isnan(z)] = -np.inf
    top = np.isposinf(z) & legal
    rows = top.any(axis=1)
    if rows.any():
        z[rows] = np.where(top[rows], 0.0, -np.inf)
    dead = ~(np.isfinite(z) & legal).any(axis=1)
    z[dead] = 0.0
    return z


_BIG = np.finfo(np.float64).max


def masked_argmax(scores: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Each row's legal action with the highest score, legal by construction (``nan`` is the
    lowest score, the first legal action wins a tie); rows must have a legal action."""
    s = np.nan_to_num(np.asarray(scores, np.float64), nan=-_BIG, posinf=_BIG, neginf=-_BIG)
    return np.where(np.asarray(masks, bool), s, -np.inf).argmax(axis=1)


def pick(logits: np.ndarray, masks: np.ndarray, rng: np.random.Generator | None = None):
    """The actions a policy with these ``logits`` plays (``playing_logits``): the legal action
    with the highest logit (``rng`` None), or a sample of the masked softmax (Gumbel-max with
    ``rng``). Always legal."""
    z = playing_logits(logits, masks)
    if rng is not None:
        z += -np.log(-np.log(rng.random(z.shape)))
    return masked_argmax(z, masks)


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
    """Each row's legal action with the highest logit (always legal: ``pick``)."""
    return pick(policy.logits(obs), masks)


def sample(
    policy: NumpyPolicy, obs: np.ndarray, masks: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """A sample of each row's masked softmax (Gumbel-max over the legal actions; always
    legal: ``pick``)."""
    return pick(policy.logits(obs), masks, rng)


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
