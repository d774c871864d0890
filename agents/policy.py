"""A trained MaskablePPO policy as an agent (``train/sb3_ppo.py`` saves them).

    from agents.policy import PolicyAgent
    agent = PolicyAgent("runs/piquet-v0/model.zip", "piquet-v0")
    action = agent.act(observation, action_mask)

The tournament takes one as ``ppo:<path>`` (``python -m benchmarks.tournament --agents
ppo:runs/piquet-v0/model.zip heuristic --games piquet-v0``). sb3-contrib and torch are imported
only when a model is loaded (the ``train`` extra).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import cardenvs

from .base import _check_batch


class PolicyAgent:
    """Plays the masked action of a MaskablePPO policy (deterministic by default: the most
    probable legal action; ``deterministic=False`` samples, seeded at construction).

    Args:
        model: a path to a saved model (``.zip``) or a loaded ``MaskablePPO``.
        env_id: the game the policy plays; its observation and action sizes are checked.
        deterministic: the most probable legal action, or a sample from the masked policy.
        seed: seeds torch's sampler (used only when ``deterministic=False``).
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
            if not path.exists() and path.with_suffix(".zip").exists():
                path = path.with_suffix(".zip")
            if not path.is_file():
                raise ValueError(f"no saved model at {str(model)!r}")
            try:
                from sb3_contrib import MaskablePPO
            except ImportError as e:
                raise ImportError(
                    "loading a policy needs the train extra: pip install -e '.[train]'"
                ) from e
            self.path = str(path)
            model = MaskablePPO.load(path, device="cpu")
        self.model = model
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
        """The legal action with the highest logit, straight through the policy network (what
        ``model.predict(..., deterministic=True)`` returns, without its per-call overhead:
        about 4x faster on the small batches an opponent pool plays)."""
        import torch

        policy = self.model.policy
        with torch.no_grad():
            x = torch.as_tensor(obs, dtype=torch.float32)
            features = policy.extract_features(x, policy.pi_features_extractor)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features)).numpy()
        return np.where(m, logits, -np.inf).argmax(axis=1)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        obs = np.asarray(observation, np.float32)[None]
        return int(self.act_batch(obs, np.asarray(action_mask)[None])[0])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        obs, m = _check_batch(observations, masks)
        if not self.deterministic and not self._torch_seeded:
            import torch

            torch.manual_seed(self.seed)
            self._torch_seeded = True
        if self.deterministic:
            actions = self._most_probable(obs, m)
        else:
            actions, _ = self.model.predict(
                obs.astype(np.float32, copy=False), action_masks=m, deterministic=False
            )
        actions = np.asarray(actions, np.int64).reshape(len(m))
        if not m[np.arange(len(m)), actions].all():  # the masked policy never does this
            bad = int(np.flatnonzero(~m[np.arange(len(m)), actions])[0])
            raise RuntimeError(f"row {bad}: the policy chose illegal action {actions[bad]}")
        return actions
