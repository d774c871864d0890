"""The model file of the trainers: a torch network to and from ``agents.policy``'s ``.npz``.

``model.npz`` and every ``checkpoint_<decisions>.npz`` of the native trainer (``train/ppo.py``),
and the models the RLlib route exports (``train/rllib_ppo.py``), are the numpy-readable format
of ``agents.policy`` (``cardenvs.policy``): the weights of the policy and value MLPs and a JSON
header (``model_header``) with the game, its config, the sizes, the hashes of the observation
layout and of the actions, the network, the command, the git commit, the learner decisions and
the time it was written. ``agents.policy.PolicyAgent`` plays one without torch, in fp32.

The network is any torch module with an ``actor`` and a ``critic``, each a sequence of
``Linear`` layers with an activation between them (``train.ppo.build_agent``, and RLlib's
``cardenvs.wrappers.rllib.MaskedPPOModule``): ``to_numpy_policy`` writes it,
``load_numpy_policy`` reads one back into a network of the same sizes (``--init``).
"""

from __future__ import annotations

import dataclasses
import datetime
import subprocess
from pathlib import Path

import numpy as np

from cardenvs.agents.policy import FORMAT, FORMAT_VERSION, NumpyPolicy, actions_id, layout_id

ROOT = Path(__file__).resolve().parent.parent  # the checkout, for its git commit


def load_numpy_policy(agent, policy: NumpyPolicy, temperature: float = 1.0) -> None:
    """Copy ``policy``'s weights into ``agent`` (``build_agent`` of the same sizes): the
    inverse of ``to_numpy_policy``. ``temperature`` > 1 divides the policy's logits (its last
    layer) by it: the same preferences, less sure, so that training explores again."""
    import torch

    with torch.no_grad():
        for layers, net in ((policy.pi, agent.actor), (policy.vf, agent.critic)):
            linear = [m for m in net if hasattr(m, "weight")]
            for (w_t, b), layer in zip(layers, linear, strict=True):
                layer.weight.copy_(torch.as_tensor(np.ascontiguousarray(w_t.T)))
                layer.bias.copy_(torch.as_tensor(b))
        if temperature != 1.0:
            head = [m for m in agent.actor if hasattr(m, "weight")][-1]
            head.weight /= temperature
            head.bias /= temperature


def to_numpy_policy(agent, header: dict) -> NumpyPolicy:
    """The network as a ``NumpyPolicy`` (the ``.npz`` format of ``agents.policy``)."""
    arrays = {}
    for prefix, net in (("pi", agent.actor), ("vf", agent.critic)):
        linear = [m for m in net if hasattr(m, "weight")]
        for k, layer in enumerate(linear):
            arrays[f"{prefix}.{k}.weight"] = layer.weight.detach().cpu().numpy().copy()
            arrays[f"{prefix}.{k}.bias"] = layer.bias.detach().cpu().numpy().copy()
    return NumpyPolicy(header, arrays)


def model_header(args, venv, timesteps: int) -> dict:
    """The JSON header of a saved model (``agents.policy``'s format): ``args`` gives the game,
    the network (``net``, ``activation``) and the command, ``venv`` (an engine of the game and
    the training config) the config and the sizes."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": args.game,
        "config": dataclasses.asdict(venv.config),
        "obs_dim": int(venv.obs_dim),
        "num_actions": int(venv.num_actions),
        "obs_layout": layout_id(args.game),
        "actions": actions_id(args.game),
        "net": {"hidden": list(args.net), "activation": args.activation},
        "command": args.command,
        "git_commit": git_commit(),
        "timesteps": int(timesteps),
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def git_commit() -> str | None:
    """The checkout's commit (with ``-dirty`` when it has changes), or None outside git."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return (head + ("-dirty" if dirty else "")) or None
