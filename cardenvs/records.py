"""Replaying game records (``cardenvs.replay``)."""

from __future__ import annotations

from .registry import GAMES, lookup


def replay_record(record: dict) -> dict:
    """See ``cardenvs.replay``."""
    if not isinstance(record, dict):
        raise ValueError("a record must be a dict as returned by env.unwrapped.record()")
    for key in ("game", "version", "config", "seed", "deals"):
        if key not in record:
            raise ValueError(f"record has no {key!r} field")
    env_id = f"{record['game']}-v{record['version']}"
    if env_id not in GAMES:
        raise ValueError(
            f"record is for {env_id!r}, which this version does not provide "
            f"(available: {list(GAMES)})"
        )
    module, _ = lookup(env_id)
    env = module.env(illegal_action="raise", **record["config"])
    deals = record["deals"]
    if not deals:
        raise ValueError("record has no deals")
    options = {"deck": deals[0]["deck"], "dealer": deals[0]["dealer"]}
    if "episode" in record:  # the game's index under its seed (absent: 0; see core.aec)
        options["episode"] = record["episode"]
    env.reset(seed=record["seed"], options=options)
    core = env.unwrapped
    for i, deal in enumerate(deals):
        got = core._record["deals"][i]
        for key in ("deck", "dealer"):
            if got[key] != deal[key]:
                raise ValueError(
                    f"deal {i}: {key} differs from the record "
                    f"(replay {got[key]!r}, record {deal[key]!r})"
                )
        for j, (seat, name) in enumerate(deal["actions"]):
            current = core.agent_name_mapping[core.agent_selection]
            if seat != current:
                raise ValueError(
                    f"deal {i}, action {j} ({name!r}): the record has seat {seat} "
                    f"acting, the replay has seat {current} to act"
                )
            try:
                env.step(core.action_id(name))
            except ValueError as e:
                raise ValueError(f"deal {i}, action {j} ({name!r}): {e}") from e
        got = core._record["deals"][i]
        if got.get("points") != deal.get("points"):
            raise ValueError(
                f"deal {i}: points differ (replay {got.get('points')}, record {deal['points']})"
            )
    out = core.record()
    if record.get("result") is not None and out["result"] != record["result"]:
        raise ValueError(f"result differs (replay {out['result']}, record {record['result']})")
    return out
