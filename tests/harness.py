"""Shared test harness: small helpers that several test files use to drive and inspect games."""

from __future__ import annotations

import numpy as np

import cardenvs


def act(env, core, *names):
    """Step the AEC env with actions given by name."""
    for name in names:
        env.step(core.action_id(name))


def legal_names(core) -> set[str]:
    """Names of the legal actions of the agent to act."""
    return {core.action_name(a) for a in core.legal_actions()}


def seat_of(env) -> int:
    """Seat of the agent to act."""
    return env.unwrapped.agent_name_mapping[env.agent_selection]


def bits(m: int) -> list[int]:
    """Card ids of a uint64 card mask."""
    return [c for c in range(64) if (m >> c) & 1]


def choose(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row (0 for rows without one)."""
    legal = np.asarray(mask).astype(bool)
    score = np.where(legal, rng.random(legal.shape), -1.0)
    return score.argmax(axis=1).astype(np.int64)


def aec_envs(env_id: str, seed: int, n: int, **config):
    """``n`` AEC envs, env ``b`` reset with ``seed + b`` (the twins of vector rows)."""
    envs = [cardenvs.make(env_id, **config) for _ in range(n)]
    for b, env in enumerate(envs):
        env.reset(seed=seed + b)
    return envs


def obs_block_name(layout, i: int) -> str:
    """``"block[k]"`` for index ``i`` of a flat observation with the given layout."""
    off = 0
    for f in layout:
        if i < off + f.size:
            return f"{f.name}[{i - off}]"
        off += f.size
    return f"?{i}"


def observe_state(venv, s, seats) -> np.ndarray:
    """``venv.observe(seats)`` computed on state ``s`` instead of the engine's own."""
    own = venv.state
    venv.state = s
    try:
        return venv.observe(seats)
    finally:
        venv.state = own


def assert_row_matches_env(env, vec, b, obs_row, mask_row, current):
    """Vector row ``b`` and its twin AEC env agree on the seat to act, observation, mask and
    every state array."""
    agent = env.agent_selection
    assert agent == f"player_{int(current)}", f"row {b}: {agent} vs seat {current}"
    o = env.observe(agent)
    assert np.array_equal(o["observation"], obs_row), f"row {b}: observations differ"
    assert np.array_equal(o["action_mask"], mask_row), f"row {b}: masks differ"
    own = env.unwrapped._engine.state
    for name in ("m", "v", "f"):
        assert np.array_equal(getattr(own, name)[0], getattr(vec.state, name)[b]), (
            f"row {b}: state array {name} differs"
        )


def walk(env, rng, steps: int) -> bool:
    """Random legal play for up to ``steps`` actions; False if the game ended."""
    for _ in range(steps):
        legal = env.unwrapped.legal_actions()
        if not legal:
            return False
        env.step(int(rng.choice(legal)))
    return bool(env.unwrapped.legal_actions())


def determinize_and_check(env, seat: int, rng):
    """Determinize the live game for ``seat`` and check what every determinization must keep:
    the seat's observation, its legal mask when it is to act, a legal move for the seat to act.
    Returns ``(state before, determinized copy)``."""
    core = env.unwrapped
    before = core.state_copy()
    sim = core.simulator()
    d = core.determinize(seat, rng)
    assert np.array_equal(sim.observe(d, seat), env.observe(f"player_{seat}")["observation"])
    if core.legal_actions():
        if core.agent_name_mapping[env.agent_selection] == seat:
            assert np.array_equal(sim.legal(d), env.observe(env.agent_selection)["action_mask"])
        assert sim.legal(d).any()
    return before, d


def play_out_with(agent, env) -> None:
    """Play a reset AEC env to its end, every seat choosing with a search agent's ``act_env``,
    checking each choice against the mask."""
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        a = agent.act_env(env)
        assert obs["action_mask"][a] == 1
        env.step(a)
    assert env.unwrapped.record()["result"] is not None


def check_vector_rows_equal_aec(
    env_id: str, config: dict, n: int = 4, seed: int = 100, max_steps: int = 20_000, every: int = 7
) -> None:
    """Play ``n`` rows of the batched engine and their twin AEC envs with the same random legal
    actions to the end: the same seat to act, observation, mask and state at every step, the
    same rewards at the end, and every seat's view equal every ``every`` steps."""
    vec = cardenvs.make_vector(
        env_id, num_envs=n, seed=seed, autoreset=False, validate=False, **config
    )
    P = vec.num_seats
    obs, mask, info = vec.reset()
    assert obs.shape == (n, vec.obs_dim) and obs.dtype == np.float32
    assert mask.shape == (n, vec.num_actions) and mask.dtype == np.int8
    envs = aec_envs(env_id, seed, n, **config)
    for b in range(n):
        assert_row_matches_env(envs[b], vec, b, obs[b], mask[b], info["current_player"][b])
    g = np.random.default_rng(0)
    done = np.zeros(n, bool)
    for t in range(max_steps):
        actions = choose(mask, g)
        obs, mask, rewards, terminated, truncated, info = vec.step(actions)
        assert not truncated.any()
        for b in range(n):
            if done[b]:
                assert rewards[b].tolist() == [0.0] * P and mask[b].sum() == 0
                continue
            env = envs[b]
            env.step(int(actions[b]))
            if all(env.terminations.values()):
                assert terminated[b], f"row {b} should have ended"
                assert rewards[b].tolist() == [env.rewards[f"player_{p}"] for p in range(P)]
                assert mask[b].sum() == 0
                done[b] = True
            else:
                assert not terminated[b]
                assert rewards[b].tolist() == [0.0] * P
                assert_row_matches_env(env, vec, b, obs[b], mask[b], info["current_player"][b])
        if t % every == 0:  # every seat's view, not only the one to act
            for seat in range(P):
                view = vec.observe(seat)
                for b in np.flatnonzero(~done).tolist():
                    ref = envs[b].observe(f"player_{seat}")["observation"]
                    assert np.array_equal(view[b], ref), f"row {b}, seat {seat}"
        if done.all():
            break
    assert done.all(), "some rows never finished"


def check_autoreset(
    env_id: str,
    config: dict,
    fresh_row,
    n: int = 3,
    seed: int = 60,
    max_steps: int = 5000,
    zero_sum_tol: float | None = None,
) -> None:
    """With autoreset, a finished row reports its rewards and ``terminated`` once, then starts
    the next episode of its seed at once (like its twin AEC env reset without a seed), until
    every row has finished two episodes. ``fresh_row(vec, b)`` checks the restarted row's
    game-specific fields; ``zero_sum_tol`` checks the final rewards sum to 0."""
    vec = cardenvs.make_vector(env_id, num_envs=n, seed=seed, **config)
    P = vec.num_seats
    obs, mask, info = vec.reset()
    envs = aec_envs(env_id, seed, n, **config)
    g = np.random.default_rng(3)
    episodes = np.zeros(n, int)
    for _ in range(max_steps):
        actions = choose(mask, g)
        obs, mask, rewards, terminated, _, info = vec.step(actions)
        for b in range(n):
            env = envs[b]
            env.step(int(actions[b]))
            ended = all(env.terminations.values())
            assert bool(terminated[b]) == ended
            if ended:
                assert rewards[b].tolist() == [env.rewards[f"player_{p}"] for p in range(P)]
                if zero_sum_tol is not None:
                    assert abs(rewards[b].sum()) < zero_sum_tol
                assert mask[b].sum() > 0  # the next episode has started
                episodes[b] += 1
                old_deck = env.unwrapped.record()["deals"][0]["deck"]
                env.reset()  # the next episode of the same seed
                assert env.unwrapped.record()["deals"][0]["deck"] != old_deck
                fresh_row(vec, b)
            else:
                assert rewards[b].tolist() == [0.0] * P
            assert_row_matches_env(env, vec, b, obs[b], mask[b], info["current_player"][b])
        if (episodes >= 2).all():
            break
    assert (episodes >= 2).all(), episodes


def check_out_of_range_action(env_id: str, row: int, action: int, **config) -> None:
    """An action outside the action space raises ``ValueError`` naming the row and the action."""
    vec = cardenvs.make_vector(env_id, num_envs=3, seed=0, **config)
    _, mask, _ = vec.reset()
    actions = choose(mask, np.random.default_rng(0))
    actions[row] = action
    try:
        vec.step(actions)
    except ValueError as e:
        assert f"row {row}" in str(e) and str(action) in str(e), str(e)
    else:
        raise AssertionError(f"action {action} in row {row} was accepted")


def random_model(path, env_id: str, hidden=(16,), seed: int = 0, **header):
    """A ``.npz`` model of ``env_id`` with random weights and biases (N(0, 1); the format of
    ``cardenvs.policy``) saved to ``path``, which it returns. ``header``: more header fields, or
    other values (``zoo={...}`` makes a zoo model, ``obs_layout=...`` a stale one)."""
    from cardenvs.policy import FORMAT, FORMAT_VERSION, NumpyPolicy, actions_id, layout_id

    info = cardenvs.game_info(env_id)
    head = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": env_id,
        "config": {},
        "obs_dim": info.obs_dim,
        "num_actions": info.num_actions,
        "obs_layout": layout_id(env_id),
        "actions": actions_id(env_id),
        "net": {"hidden": list(hidden), "activation": "tanh"},
    } | header
    rng = np.random.default_rng(seed)
    arrays = {}
    for prefix, out in (("pi", info.num_actions), ("vf", 1)):
        sizes = [info.obs_dim, *hidden, out]
        for k in range(len(sizes) - 1):
            arrays[f"{prefix}.{k}.weight"] = rng.normal(0, 1, (sizes[k + 1], sizes[k]))
            arrays[f"{prefix}.{k}.bias"] = rng.normal(0, 1, sizes[k + 1])
    NumpyPolicy(head, arrays).save(path)
    return path
