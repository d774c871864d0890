"""The arena: agents against each other on the batched engine, and the one agent maker.

    from cardenvs import arena

    row = arena.head_to_head("piquet-v0", MyAgent(), "heuristic", n=200)
    field = arena.round_robin("esel-v0", ["random", "heuristic", "zoo"], n=100)

Agents are objects with ``act_batch(observations, masks)`` (or only ``act(observation,
action_mask)``) or spec strings (``make_agent``: ``random``, ``heuristic``,
``ismcts@<n>[:<rollout>]``, ``zoo``, ``model:<path>``). Every evaluation plays every seating of
the agents; whole games or single deals are the game's ``episode`` option. A seat's game counts
as won (the best reward, alone or shared), drawn (every seat's reward equal) or lost, and the
reports give the win rate (a shared win or a draw counting as a share) with the games won,
drawn and lost and the mean reward with its 95% interval beside it.

- ``make_agent(spec, env_id, seed=..., config=...)``: a spec becomes an agent (``specs``);
- ``head_to_head``: one agent against an opponent; ``round_robin``: a field, rated
  (Bradley-Terry, Elo scale); ``play_games``: the loop both use (``match``);
- ``rate(agent, setting)``: a user's agent placed on the shipped reference ladder of a setting
  (``ladder``; ``references()`` lists them);
- ``outcomes``, ``mean_interval``, ``wilson``, ``bradley_terry``: the statistics (``stats``).

The baseline agents themselves are ``cardenvs.agents`` (the repository's ``agents/`` folder,
shipped under the package).
"""

from .ladder import rate, reference, references
from .match import (
    DEALS,
    arrangements,
    deck_means,
    head_to_head,
    pair_points,
    play_games,
    round_robin,
)
from .specs import (
    SPEC_HELP,
    TRUSTED_HELP,
    ActOnly,
    as_agent,
    check_spec,
    make_agent,
    model_path,
    parse_search,
    sb3_zip,
    untrusted_zip,
)
from .stats import (
    DRAWN,
    LOST,
    WON,
    bradley_terry,
    count_outcomes,
    mean_interval,
    outcomes,
    reward_text,
    wdl_text,
    wilson,
    win_shares,
)

__all__ = [
    "DEALS",
    "DRAWN",
    "LOST",
    "SPEC_HELP",
    "TRUSTED_HELP",
    "WON",
    "ActOnly",
    "arrangements",
    "as_agent",
    "bradley_terry",
    "check_spec",
    "count_outcomes",
    "deck_means",
    "head_to_head",
    "make_agent",
    "mean_interval",
    "model_path",
    "outcomes",
    "pair_points",
    "parse_search",
    "play_games",
    "rate",
    "reference",
    "references",
    "reward_text",
    "round_robin",
    "sb3_zip",
    "untrusted_zip",
    "wdl_text",
    "wilson",
    "win_shares",
]
