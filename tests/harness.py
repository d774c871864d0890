"""Shared test harness: small helpers that several test files use to drive and inspect games."""

from __future__ import annotations

import numpy as np

import cardenvs
from cardenvs.core.vector import RandomLegal


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
    """Card ids of a uint64 card mask, in increasing order."""
    m, out = int(m), []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


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


def assert_row_matches_env(env, vec, b, obs_row, mask_row, current, skip=()):
    """Vector row ``b`` and its twin AEC env agree on the seat to act, observation, mask and
    every state array (every state field but those in ``skip``)."""
    agent = env.agent_selection
    assert agent == f"player_{int(current)}", f"row {b}: {agent} vs seat {current}"
    o = env.observe(agent)
    assert np.array_equal(o["observation"], obs_row), f"row {b}: observations differ"
    assert np.array_equal(o["action_mask"], mask_row), f"row {b}: masks differ"
    own = env.unwrapped._engine.state
    if skip:
        fields = differing_fields(vec.game.layout, own, 0, vec.state, b, skip)
        assert not fields, f"row {b}: state fields {fields} differ"
        return
    for name in ("m", "v", "f"):
        assert np.array_equal(getattr(own, name)[0], getattr(vec.state, name)[b]), (
            f"row {b}: state array {name} differs"
        )


def differing_fields(layout, a, row_a: int, b, row_b: int, skip=()) -> list[str]:
    """The state fields (``layout``'s names) of row ``row_a`` of state ``a`` that differ from
    row ``row_b`` of state ``b``, but for the fields in ``skip``."""
    return [
        name
        for name in layout.slots
        if name not in skip
        and not np.array_equal(layout.field(a, name)[row_a], layout.field(b, name)[row_b])
    ]


def assert_row_is_fresh(env, vec, b, obs_row, mask_row, scratch=()) -> None:
    """Row ``b`` of ``vec`` is the game of ``env``, a brand-new AEC env (fresh memory): the same
    seat to act, observation, mask, every seat's view and every state field but the ``scratch``
    ones (working fields a game overwrites before it reads them, left over from the last game)."""
    agent = env.agent_selection
    assert agent == f"player_{int(vec.current_player[b])}", f"row {b}: {agent}"
    o = env.observe(agent)
    assert np.array_equal(o["observation"], obs_row), f"row {b}: observations differ"
    assert np.array_equal(o["action_mask"], mask_row), f"row {b}: masks differ"
    for seat in range(vec.num_seats):
        ref = env.observe(f"player_{seat}")["observation"]
        assert np.array_equal(vec.observe(seat)[b], ref), f"row {b}, seat {seat}"
    own = env.unwrapped._engine.state
    stale = differing_fields(vec.game.layout, vec.state, b, own, 0, scratch)
    assert not stale, f"row {b}: fields left over from the last game: {stale}"


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
    env_id: str,
    config: dict,
    n: int = 4,
    seed: int = 100,
    max_steps: int = 20_000,
    every: int = 7,
    zero_sum_tol: float = 1e-4,
) -> None:
    """Play ``n`` rows of the batched engine and their twin AEC envs with the same random legal
    actions to the end: the same seat to act, observation, mask and state at every step, the
    same zero-sum rewards at the end, and every seat's view equal every ``every`` steps."""
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
                assert abs(rewards[b].sum()) <= zero_sum_tol, f"row {b}: not zero-sum: {rewards[b]}"
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
    fresh_row=None,
    n: int = 3,
    seed: int = 60,
    max_steps: int = 5000,
    zero_sum_tol: float | None = 1e-4,
    scratch=(),
) -> None:
    """With autoreset, a finished row reports its rewards and ``terminated`` once, then starts
    the next episode of its seed at once (like its twin AEC env reset without a seed, and like
    a brand-new AEC env reset to that episode: no field of the old game is left over), until
    every row has finished two episodes (``assert_row_is_fresh``, but for the ``scratch``
    fields, which the row's next episode then plays out against the brand-new env, step by
    step, so that nothing left in them can show). ``fresh_row(vec, b)`` checks more of the
    restarted row; ``zero_sum_tol`` checks the final rewards sum to 0."""
    vec = cardenvs.make_vector(env_id, num_envs=n, seed=seed, **config)
    P = vec.num_seats
    obs, mask, info = vec.reset()
    envs = aec_envs(env_id, seed, n, **config)
    g = np.random.default_rng(3)
    episodes = np.zeros(n, int)
    fresh = [False] * n  # row b's twin is a brand-new env (its scratch fields never written)
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
                    assert abs(rewards[b].sum()) <= zero_sum_tol, rewards[b]
                assert mask[b].sum() > 0  # the next episode has started
                episodes[b] += 1
                old_deck = env.unwrapped.record()["deals"][0]["deck"]
                env.reset()  # the next episode of the same seed
                assert env.unwrapped.record()["deals"][0]["deck"] != old_deck
                new = cardenvs.make(env_id, **config)
                new.reset(seed=seed + b, options={"episode": int(episodes[b])})
                assert_row_is_fresh(new, vec, b, obs[b], mask[b], scratch)
                assert_row_matches_env(
                    env, vec, b, obs[b], mask[b], info["current_player"][b], fresh[b] and scratch
                )
                if fresh_row is not None:
                    fresh_row(vec, b)
                # the rest of the episode against the brand-new env: what the row kept of the
                # old game in its scratch fields never shows in what it plays or observes
                envs[b] = new  # assert_row_is_fresh has compared it with the row already
                fresh[b] = True
            else:
                assert rewards[b].tolist() == [0.0] * P
                assert_row_matches_env(
                    env, vec, b, obs[b], mask[b], info["current_player"][b], fresh[b] and scratch
                )
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


def aec_action(env, rng: np.random.Generator):
    """A random legal action of the agent to act (``None`` for a dead step)."""
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        return None
    return int(rng.choice(env.unwrapped.legal_actions()))


def play_to_end(env, rng: np.random.Generator) -> None:
    """Random legal actions until every agent has stepped out."""
    while env.agents:
        env.step(aec_action(env, rng))


def random_record(env_id: str, seed: int, options=None, **config) -> dict:
    """The record of one game of ``env_id`` played with random legal actions from
    ``default_rng(seed)``, the env reset with ``seed`` (and ``options``)."""
    env = cardenvs.make(env_id, **config)
    env.reset(seed=seed, options=options)
    play_to_end(env, np.random.default_rng(seed))
    return env.unwrapped.record()


def assert_engines_play_alike(a, b, steps: int = 300, seed: int = 0) -> None:
    """Step ``a`` and ``b`` with the same actions (random legal ones of ``a``); every output
    and the final state must be equal, and so must the next ``reset()`` without a seed."""
    pick = RandomLegal(seed)
    for _ in range(steps):
        actions = pick(a.action_mask).copy()
        out_a, out_b = a.step(actions), b.step(actions)
        for x, y in zip(out_a[:5], out_b[:5], strict=True):
            assert np.array_equal(x, y)
        assert np.array_equal(out_a[5]["current_player"], out_b[5]["current_player"])
        assert np.array_equal(a.current_player, b.current_player)
    for x, y in zip(a.state, b.state, strict=True):
        assert np.array_equal(x, y)
    for x, y in zip(a.reset(), b.reset(), strict=True):
        if isinstance(x, dict):
            x, y = x["current_player"], y["current_player"]
        assert np.array_equal(x, y)


def assert_aec_play_alike(a, b, seed: int = 0, max_steps: int = 100_000) -> None:
    """Step AEC envs ``a`` and ``b`` with the same actions to the end of the game: the agent to
    act, its observation, ``last()`` and (every 10th step) every agent's observation must agree,
    and so must the finished record, which must replay."""
    rng = np.random.default_rng(seed)
    for i in range(max_steps):
        if not a.agents:
            break
        assert a.agent_selection == b.agent_selection
        for agent in a.possible_agents if i % 10 == 0 else [a.agent_selection]:
            oa, ob = a.observe(agent), b.observe(agent)
            assert np.array_equal(oa["observation"], ob["observation"]), agent
            assert np.array_equal(oa["action_mask"], ob["action_mask"]), agent
        la, lb = a.last(), b.last()
        assert la[1:4] == lb[1:4]
        action = aec_action(a, rng)
        a.step(action)
        b.step(action)
    assert not a.agents and not b.agents
    assert a.rewards == b.rewards
    assert a.unwrapped.record() == b.unwrapped.record()
    record = b.unwrapped.record()
    assert cardenvs.replay(record) == record
