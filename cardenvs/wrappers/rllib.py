"""Every game for Ray RLlib (new API stack): a turn-based ``MultiAgentEnv``, a masked PPO
``RLModule`` and a non-learning module for fixed players. Needs the ``rllib`` extra
(``pip install "cardenvs[rllib]"``: Ray's RLlib and PyTorch).

    from cardenvs.wrappers.rllib import RLlibEnv, MaskedPPOModule
    config = (
        PPOConfig()
        .environment(RLlibEnv, env_config={"env_id": "piquet-v0", "episode": "deal"})
        .multi_agent(policies={"main"}, policy_mapping_fn=lambda aid, *a, **k: "main")
        .rl_module(rl_module_spec=MultiRLModuleSpec(
            rl_module_specs={"main": RLModuleSpec(module_class=MaskedPPOModule)}))
    )

``train/rllib_ppo.py`` in the checkout is the self-play trainer built on these.

The environment (``RLlibEnv``)
------------------------------
``RLlibEnv(config)`` takes RLlib's ``env_config``: ``"env_id"`` (required), optional
``"render_mode"`` (``"ansi"`` or ``"rgb_array"``) and ``"render_seat"``, and every other key is
the game's config (``{"env_id": "esel-v0", "num_players": 2}``). Keyword arguments work as well.
A wrong id or config value raises ``ValueError`` naming it.

- **Agents** are ``"player_0" .. "player_{P-1}"`` (agent ``i`` sits in seat ``i``, as in the
  PettingZoo env). ``env.sides`` groups them by the side they play for (partnership Piquet:
  ``(("player_0", "player_2"), ("player_1", "player_3"))``; the other games every agent alone),
  for a policy mapping that gives partners one policy.
- **Turns**: only the agent to act gets an observation, ``{"observations": float32 (obs_dim,),
  "action_mask": float32 (num_actions,)}`` (1 = legal), and ``step`` takes exactly that agent's
  action. The same agent may act several times in a row (a trick's winner leads again).
- **Rewards**: each step gives the agent that acted a reward of 0; the step that ends the episode
  gives every agent its reward from the game's reward table (partners the same) with its final
  observation (mask all zero) and ``terminateds`` True for every agent and ``"__all__"``. So an
  agent that did not act on the last step still gets its reward, on that step. Episodes are
  bounded: ``truncateds`` is always False.
- **Illegal actions** never pass silently: a masked-out action, an action for an agent not to
  act, a missing action or a non-integer raises ``ValueError`` naming it and the legal actions
  (the trainer turns off RLlib's env-runner restarts, so the run stops on it).
- ``action_space.sample()`` (RLlib's random exploration, its env checker) draws from the legal
  actions of the current state; a copy or a pickle of the space is a plain ``Discrete``.
- Seeding: ``reset(seed=s)`` plays the games of the PettingZoo env reset with ``seed=s``; later
  resets without a seed go on to the seed's next game.

Runs on the batched engine with one row (the kernels of ``cardenvs.make``).

The masked PPO module (``MaskedPPOModule``)
-------------------------------------------
A ``TorchRLModule`` with RLlib's ``ValueFunctionAPI``: a policy MLP and a value MLP, separate, of
``model_config["fcnet_hiddens"]`` (default ``[256, 256]``) with ``fcnet_activation`` (``"tanh"``
or ``"relu"``), read from ``observations``. Every forward pass (exploration, inference, training)
sets the logits of masked-out actions to -1e9, so a sampled or greedy action is always legal
(``exp(-1e9)`` is exactly 0 in float32); the batch is never modified in place. Its ``actor`` and
``critic`` have the layout of ``train/ppo.py``'s network, so ``train.model_file.to_numpy_policy``
writes it as the ``cardenvs.policy`` ``.npz`` model that the zoo, the ladder and human play load.

Fixed players (``AgentModule``)
-------------------------------
A non-learning ``RLModule`` that plays an agent with ``act_batch(observations, masks)``:
``model_config={"env_id": ..., "agent": "random" | "heuristic" | "zoo" | "model:<path.npz>",
"seed": 0}``. ``"random"`` plays uniformly random legal moves (RLlib's own ``RandomRLModule``
samples the whole action space, illegal actions included); ``"heuristic"`` needs the checkout's
``agents`` package on the path. It is never trained (leave it out of ``policies_to_train``).
"""

from __future__ import annotations

import gymnasium
import numpy as np

from ..core.checks import brief
from ..registry import classes

try:
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
    from ray.rllib.core.rl_module.rl_module import RLModule
    from ray.rllib.core.rl_module.torch.torch_rl_module import TorchRLModule
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(
        f"cardenvs.wrappers.rllib needs Ray RLlib and PyTorch ({e}); install the extra: "
        'pip install "cardenvs[rllib]"'
    ) from e

#: the logit a masked-out action gets (as train/ppo.py)
MASKED_LOGIT = -1e9
#: env_config keys that are not the game's config
ENV_KEYS = ("env_id", "render_mode", "render_seat")


class LegalDiscrete(gymnasium.spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws from the legal actions its env
    reports (``legal()`` returns the current mask; all zero when the agent is not to act, and
    then ``sample`` gives 0 as gymnasium does). Copies and pickles drop the link to the env."""

    def __init__(self, n: int, legal=None, seed=None):
        super().__init__(n, seed=seed)
        self._legal = legal

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None and self._legal is not None:
            mask = self._legal()
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_legal"] = None
        return state


class RLlibEnv(MultiAgentEnv):
    """One game as a turn-based RLlib ``MultiAgentEnv`` (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, config: dict | None = None, **kwargs):
        super().__init__()
        if config is not None and not isinstance(config, dict):
            raise ValueError(f"config must be a dict (RLlib's env_config), got {brief(config)}")
        cfg = dict(config or {}) | kwargs
        env_id = cfg.get("env_id")
        if not isinstance(env_id, str):
            raise ValueError(
                f'env_config needs "env_id", a game id such as "piquet-v0"; got {brief(env_id)}'
            )
        self.env_id = env_id
        vector_cls, _, defaults = classes(env_id)  # ValueError for an unknown id
        game_config = {k: v for k, v in cfg.items() if k not in ENV_KEYS}
        self._engine = vector_cls(1, autoreset=False, validate=True, **(defaults | game_config))
        eng = self._engine
        self.render_mode = cfg.get("render_mode")
        if self.render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', got {brief(self.render_mode)}"
            )
        self.render_seat = cfg.get("render_seat")
        self.num_seats = eng.num_seats
        self.possible_agents = [f"player_{i}" for i in range(self.num_seats)]
        self.agents = list(self.possible_agents)
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self.sides = tuple(tuple(self.possible_agents[p] for p in side) for side in eng.sides)
        game = eng.game
        self.num_actions = int(game.num_actions)
        obs = gymnasium.spaces.Box(game.obs_low, game.obs_high, dtype=np.float32)
        mask = gymnasium.spaces.Box(0.0, 1.0, (self.num_actions,), np.float32)
        space = gymnasium.spaces.Dict({"observations": obs, "action_mask": mask})
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {
            a: LegalDiscrete(self.num_actions, self._legal_for(i))
            for i, a in enumerate(self.possible_agents)
        }
        self._zeros = np.zeros(self.num_actions, np.float32)
        self._action = np.zeros(1, np.int64)
        self._done = True
        self._to_act = None

    def __repr__(self) -> str:
        return f"RLlibEnv({self.env_id!r}, config={self._engine.config})"

    def _legal_for(self, seat: int):
        def legal() -> np.ndarray:
            eng = self._engine
            if self._done or int(eng.current_player[0]) != seat:
                return np.zeros(self.num_actions, np.int8)
            return eng.action_mask[0].copy()

        return legal

    def _observation(self, obs_row: np.ndarray, mask_row) -> dict:
        return {
            "observations": obs_row.copy(),
            "action_mask": self._zeros.copy() if mask_row is None else mask_row.astype(np.float32),
        }

    # -- MultiAgentEnv API ---------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        obs, mask, _ = self._engine.reset(seed=seed, options=options)
        self._done = False
        self._to_act = self.possible_agents[int(self._engine.current_player[0])]
        return {self._to_act: self._observation(obs[0], mask[0])}, {}

    def step(self, action_dict):
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        agent = self._to_act
        if not isinstance(action_dict, dict) or set(action_dict) != {agent}:
            got = list(action_dict) if isinstance(action_dict, dict) else brief(action_dict)
            raise ValueError(
                f"step takes the action of {agent!r} (the agent to act) only; got {got}"
            )
        a = action_dict[agent]
        if isinstance(a, np.ndarray) and a.shape == ():
            a = a[()]
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
            raise ValueError(f"{agent}'s action must be an integer, got {brief(a)}")
        if not 0 <= a < self.num_actions:
            raise ValueError(
                f"{agent}'s action {a} is outside the action space 0..{self.num_actions - 1}"
            )
        self._action[0] = a
        try:
            obs, mask, rewards, terminated, _, _ = self._engine.step(self._action)
        except ValueError as e:  # outside the space, or masked out: the engine names it
            raise ValueError(f"{self.env_id}, {agent}: {e}") from None
        if terminated[0]:
            self._done = True
            self._to_act = None
            eng = self._engine
            observations = {
                a: self._observation(eng.observe(i)[0], None)
                for i, a in enumerate(self.possible_agents)
            }
            reward = {a: float(rewards[0, i]) for i, a in enumerate(self.possible_agents)}
            done = dict.fromkeys(self.possible_agents, True) | {"__all__": True}
            return observations, reward, done, {"__all__": False}, {}
        self._to_act = self.possible_agents[int(self._engine.current_player[0])]
        return (
            {self._to_act: self._observation(obs[0], mask[0])},
            {agent: 0.0},
            {"__all__": False},
            {"__all__": False},
            {},
        )

    def render(self):
        """The game's text (``"ansi"``), a picture of the table (``"rgb_array"``, in
        ``render_seat``'s view) or None."""
        if self.render_mode == "ansi":
            return self._engine.render(0)
        if self.render_mode == "rgb_array":
            return self._engine.picture(0, self.render_seat)
        return None


def env_creator(env_config) -> RLlibEnv:
    """``ray.tune.registry.register_env(name, env_creator)``'s creator."""
    return RLlibEnv(dict(env_config))


# =============================================================================================
# Modules
# =============================================================================================
def mlp(sizes, activation: str):
    """``Linear -> act -> ... -> Linear`` (no activation after the last), as train/ppo.py."""
    act = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[activation]
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(act())
    return torch.nn.Sequential(*layers)


def split_obs(obs) -> tuple:
    """``(observations, action_mask)`` of a batch's observation column (a dict of tensors)."""
    if not isinstance(obs, dict) or "observations" not in obs or "action_mask" not in obs:
        raise ValueError(
            "the module needs the env's Dict observation {'observations', 'action_mask'} "
            f"(cardenvs.wrappers.rllib.RLlibEnv); got {brief(obs)}"
        )
    return obs["observations"], obs["action_mask"]


class MaskedPPOModule(TorchRLModule, ValueFunctionAPI):
    """PPO's policy and value MLPs with the action mask applied in every forward pass (see the
    module docstring)."""

    def setup(self):
        space = self.observation_space
        if not isinstance(space, gymnasium.spaces.Dict) or "observations" not in space.spaces:
            raise ValueError(
                "MaskedPPOModule needs RLlibEnv's Dict observation space "
                f"{{'observations', 'action_mask'}}, got {space}"
            )
        cfg = dict(self.model_config or {})
        hidden = [int(h) for h in cfg.get("fcnet_hiddens", [256, 256])]
        activation = cfg.get("fcnet_activation", "tanh")
        if activation not in ("tanh", "relu"):
            raise ValueError(f"fcnet_activation must be 'tanh' or 'relu', got {brief(activation)}")
        obs_dim = int(np.prod(space["observations"].shape))
        n = int(self.action_space.n)
        self.hidden = hidden
        self.activation = activation
        self.actor = mlp([obs_dim, *hidden, n], activation)
        self.critic = mlp([obs_dim, *hidden, 1], activation)

    def _forward(self, batch, **kwargs):
        x, mask = split_obs(batch[Columns.OBS])
        logits = self.actor(x)
        masked = torch.where(mask > 0, logits, torch.full_like(logits, MASKED_LOGIT))
        return {Columns.ACTION_DIST_INPUTS: masked}

    def compute_values(self, batch, embeddings=None):
        x, _ = split_obs(batch[Columns.OBS])
        return self.critic(x).squeeze(-1)


class AgentModule(RLModule):
    """A fixed player as a non-learning module (see the module docstring)."""

    def setup(self):
        cfg = dict(self.model_config or {})
        env_id, kind = cfg.get("env_id"), cfg.get("agent", "random")
        seed = int(cfg.get("seed", 0))
        self.kind = kind
        self.agent = fixed_player(kind, env_id, seed, cfg.get("config") or {})

    def _forward(self, batch, **kwargs):
        x, mask = split_obs(batch[Columns.OBS])
        x = x.numpy() if hasattr(x, "numpy") else np.asarray(x)
        mask = (mask.numpy() if hasattr(mask, "numpy") else np.asarray(mask)) > 0
        actions = self.agent.act_batch(np.ascontiguousarray(x, np.float32), mask.astype(np.int8))
        return {Columns.ACTIONS: np.asarray(actions, np.int64)}

    def _forward_train(self, batch, **kwargs):
        raise NotImplementedError(
            f"AgentModule ({self.kind}) does not learn: leave it out of policies_to_train"
        )


#: the fixed players ``AgentModule`` plays (``cardenvs.arena.make_agent`` makes them)
AGENT_KINDS = ("random", "heuristic", "zoo", "model:<path.npz>")


def fixed_player(kind: str, env_id: str, seed: int = 0, config: dict | None = None):
    """A fixed player with ``act_batch``: ``random``, ``heuristic``, ``zoo`` (the game's
    pretrained model) or ``model:<path>`` (a ``.npz`` model), made by
    ``cardenvs.arena.make_agent`` (search agents are left out: they act from the engine's
    state, which an RLlib module never sees)."""
    from ..arena import make_agent as arena_agent

    if kind in ("random", "heuristic", "zoo") or (
        isinstance(kind, str) and kind.startswith("model:")
    ):
        return arena_agent(kind, env_id, seed=seed, config=config)
    raise ValueError(f"agent must be one of {', '.join(AGENT_KINDS)}, got {brief(kind)}")
