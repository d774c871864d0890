"""A trained policy as an agent: ``train/ppo.py``'s ``.npz`` models (numpy only, no torch; the
format and its forward pass are ``cardenvs.policy``) and ``train/sb3_ppo.py``'s MaskablePPO
``.zip`` models.

    from cardenvs.agents.policy import PolicyAgent
    agent = PolicyAgent("runs/piquet-v0/model.npz", "piquet-v0")
    action = agent.act(observation, action_mask)

The arena takes one as ``model:<path>`` (``python -m benchmarks.tournament --agents
model:runs/piquet-v0/model.npz heuristic --games piquet-v0``). A ``.npz`` model plays with numpy
alone; sb3-contrib and torch are imported only when a ``.zip`` model is loaded (the ``train``
extra).

Safety: a ``.npz`` model is read without unpickling (``allow_pickle=False``), so any ``.npz``
file may be loaded. An SB3 ``.zip`` holds pickles (cloudpickled spaces and schedules, torch
tensors): loading one runs whatever code its author put in it. So a path ending in ``.zip`` is
refused with ``ValueError`` unless the caller passes ``trusted=True``, saying that it trusts the
file (one it trained itself, or from someone it would let run code on this machine); a file of
any other suffix is refused, trusted or not.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import cardenvs
from cardenvs.policy import (  # noqa: F401  (re-exported: the trainer and tests import them here)
    ACTIVATIONS,
    FORMAT,
    FORMAT_VERSION,
    NumpyPolicy,
    actions_id,
    check_batch,
    greedy,
    layout_id,
    pick,
    sample,
)


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
        trusted: load a ``.zip`` path (SB3 unpickles it: loading runs any code the file holds);
            without it a ``.zip`` is refused with ``ValueError``. A ``.npz`` never needs it.
    """

    def __init__(
        self,
        model,
        env_id: str,
        deterministic: bool = True,
        seed: int = 0,
        name: str = "ppo",
        *,
        trusted: bool = False,
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
            if path.suffix == ".npz":
                model = NumpyPolicy.load(path)
            elif path.suffix == ".zip":
                model = _load_sb3(path, trusted)
            else:
                raise ValueError(
                    f"{str(path)!r} is not an .npz archive or an SB3 .zip: a saved model is a "
                    "'.npz' (train/ppo.py) or, trusted, a '.zip' (train/sb3_ppo.py)"
                )
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
        per-call overhead, which dominates the small batches an opponent pool plays;
        ``docs/history.md``, "From the code")."""
        if isinstance(self.model, NumpyPolicy):
            return greedy(self.model, obs, m)
        import torch

        policy = self.model.policy
        with torch.no_grad():
            x = torch.as_tensor(obs, dtype=torch.float32)
            features = policy.extract_features(x, policy.pi_features_extractor)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features)).numpy()
        return pick(logits, m)

    def _sample(self, obs: np.ndarray, m: np.ndarray) -> np.ndarray:
        if isinstance(self.model, NumpyPolicy):
            return sample(self.model, obs, m, self._rng)
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
        obs, m = check_batch(observations, masks)
        if self.deterministic:
            actions = self._most_probable(obs, m)
        else:
            actions = self._sample(obs, m)
        actions = np.asarray(actions, np.int64).reshape(len(m))
        if not m[np.arange(len(m)), actions].all():  # the masked policy never does this
            bad = int(np.flatnonzero(~m[np.arange(len(m)), actions])[0])
            raise RuntimeError(f"row {bad}: the policy chose illegal action {actions[bad]}")
        return actions


def _load_sb3(path: Path, trusted: bool):
    if not trusted:
        raise ValueError(
            f"{str(path)!r} is an SB3 .zip model, refused: its pickles run code when loaded, so "
            "load only a file you trust (one you trained, or from someone you would let run "
            "code here), with PolicyAgent(path, env_id, trusted=True); a .npz model (train/ppo.py) "
            "is read without pickles and needs no trust"
        )
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as e:
        raise ImportError(
            "loading an SB3 (.zip) policy needs the train extra: pip install -e '.[train]'"
        ) from e
    return MaskablePPO.load(path, device="cpu")
