"""Baseline agents for every cardenvs game (research code beside the library).

- ``Agent``: the protocol (``act(observation, action_mask) -> int``, ``act_batch(observations,
  masks) -> actions``);
- ``RandomAgent``: uniform over the legal actions;
- ``HeuristicAgent``: one documented rule-based strategy per game (``heuristic_for(env_id)``).

Agents read observations through the layout each game publishes (``cardenvs.game_info``) and
import ``cardenvs`` only through its public API.
"""

from .base import Agent, RandomAgent, ScoredAgent, obs_view
from .heuristic import HEURISTICS, heuristic_for

__all__ = ["HEURISTICS", "Agent", "RandomAgent", "ScoredAgent", "heuristic_for", "obs_view"]
