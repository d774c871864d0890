"""The ``wrappers`` and ``engine`` surfaces.

- ``wrappers``: ``SingleAgentEnv`` (and its opponents' actions), the SB3 ``VecEnv``
  (``sb3_vec_env``) and ``RLlibEnv`` (left out without Ray): actions of the wrong type, dtype,
  shape or range, bad constructor arguments and reset options. Expected: ``ValueError`` or
  ``TypeError`` with a message, the engine's state unchanged; never an ``IndexError``, never a
  non-integer action taken (a 0-d integer array is an integer; SB3's ``(num_envs, 1)`` batch of
  integers is its own convention).
- ``engine``: the batched engine's ``step``, ``reset`` (seeds, decks, dealers, episodes),
  ``reset_rows`` and constructor (every option of every id with values of the wrong type: taken
  or refused), and the AEC env's ``step`` and ``reset`` (an unknown reset option is ignored with
  a warning, as documented): the same expectations.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable

import numpy as np

import cardenvs
from benchmarks.attack.common import (
    MARKUP,
    Case,
    Finding,
    Folders,
    Outcome,
    choose,
    describe,
    refuses,
    run_cases,
    short,
)
from cardenvs.core.checks import brief
from cardenvs.core.rng import MAX_SEED


def action_kinds() -> list[tuple[str, Callable[[int, int], object], bool]]:
    """``(name, make(legal id, num_actions), integer)``: actions that are no action id (the
    wrong type, or out of range: refused), and with ``integer`` an integer of another type (a
    0-d integer array: it may be taken)."""
    return [
        ("a float of a legal id", lambda a, n: float(a), False),
        ("np.float64 of a legal id", lambda a, n: np.float64(a), False),
        ("np.float32 of a legal id", lambda a, n: np.float32(a), False),
        ("1.5", lambda a, n: 1.5, False),
        ("True", lambda a, n: True, False),
        ("np.bool_(True)", lambda a, n: np.bool_(True), False),
        ("a digit string", lambda a, n: str(a), False),
        ("None", lambda a, n: None, False),
        ("-1", lambda a, n: -1, False),
        ("np.int64(-1)", lambda a, n: np.int64(-1), False),
        ("num_actions", lambda a, n: n, False),
        ("2**64", lambda a, n: 2**64, False),
        ("np.uint64(2**63)", lambda a, n: np.uint64(2**63), False),
        ("nan", lambda a, n: float("nan"), False),
        ("inf", lambda a, n: float("inf"), False),
        ("a 0-d array of a legal id", lambda a, n: np.array(a), True),
        ("a 0-d float array of a legal id", lambda a, n: np.array(float(a)), False),
        ("a 1-element array", lambda a, n: np.array([a]), False),
        ("a list", lambda a, n: [a], False),
        ("a complex", lambda a, n: complex(a), False),
        ("a dict", lambda a, n: {"action": a}, False),
    ]


def step_case(name, step, snapshot, legal, n, make, integer, ready=None) -> Case:
    """``step(action)`` with ``make(legal(), n)``: a ``ValueError`` or ``TypeError`` with a
    message, ``snapshot()`` unchanged; a return only for an ``integer``."""

    def run():
        if ready is not None:
            ready()
        value = make(legal(), n)
        before = snapshot()
        try:
            step(value)
        except (ValueError, TypeError) as e:
            if not str(e).strip():
                raise Finding("error-type", f"{type(e).__name__} without a message") from None
            if not same_state(before, snapshot()):
                raise Finding("error-type", "the state changed on a refused step") from None
            return
        except Exception as e:  # noqa: BLE001
            raise Finding(
                "error-type", f"{describe(e)}; expected ValueError or TypeError"
            ) from None
        if not integer:
            raise Finding("error-type", f"took {short(brief(value), 80)} as an action")

    return Case(name, run)


def same_state(a, b) -> bool:
    if isinstance(a, list):
        return unchanged(a, b)
    return a == b


def bad_batches(legal: np.ndarray, n: int) -> list[tuple[str, object]]:
    """Action batches for an engine of ``len(legal)`` rows that are no int array of actions."""
    b = len(legal)
    return [
        ("floats of legal ids", legal.astype(np.float64)),
        ("float32 of legal ids", legal.astype(np.float32)),
        ("1.5 in every row", np.full(b, 1.5)),
        ("nan", np.full(b, np.nan)),
        ("bools", np.ones(b, bool)),
        ("shape (b - 1,)", legal[:-1]),
        ("shape (b, 1)", legal[:, None]),
        ("a scalar", int(legal[0])),
        ("a list with a float", [float(legal[0]), *legal[1:].tolist()]),
        ("an object array", legal.astype(object)),
        ("strings", legal.astype(str)),
        ("complex", legal.astype(np.complex128)),
        ("-1", np.full(b, -1)),
        ("num_actions", np.full(b, n)),
        ("uint64 2**63", np.full(b, 2**63, np.uint64)),
        ("Python ints 2**64", [2**64] * b),
        ("None", None),
        ("a ragged list", [[1], [1, 2]] + [[0]] * (b - 2)),
        ("int64 min", np.full(b, np.iinfo(np.int64).min)),
    ]


def state_of(engine) -> list[np.ndarray]:
    return [np.array(a, copy=True) for a in engine.state] + [
        np.array(engine._obs, copy=True),
        np.array(engine._mask, copy=True),
    ]


def unchanged(before, after) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))


def refuse_unchanged(call, engine, types=(ValueError, TypeError), what=" a non-action") -> None:
    before = state_of(engine)
    refuses(call, types=types, what=what)
    if not unchanged(before, state_of(engine)):
        raise Finding("error-type", "the state changed on a refused call")


def bad_options(deck: list[str], p: int, rows: int) -> list[tuple[str, object]]:
    return [
        ("a list", [1]),
        ("a string", "deck"),
        ("an unknown key", {"frobnicate": 1}),
        ("deck: a foreign card", {"deck": ["XX", *deck[1:]]}),
        ("deck: a card twice", {"deck": [deck[0], *deck[:-1]]}),
        ("deck: short", {"deck": deck[:-1]}),
        ("deck: long", {"deck": [*deck, deck[0]]}),
        ("deck: ids out of range", {"deck": [-1] + list(range(1, len(deck)))}),
        ("deck: ids 0..n - 1 as floats", {"deck": [float(i) for i in range(len(deck))]}),
        ("deck: None cards", {"deck": [None] * len(deck)}),
        ("deck: an int", {"deck": 5}),
        ("deck: a dict", {"deck": {"a": 1}}),
        ("deck: per row, too few", {"deck": [deck] * (rows + 1)}),
        ("deck: nested three deep", {"deck": [[deck]] * rows}),
        ("deck: markup", {"deck": [MARKUP, *deck[1:]]}),
        ("deck: a 2-d float array", {"deck": np.zeros((rows, len(deck)))}),
        ("dealer -1", {"dealer": -1}),
        ("dealer p", {"dealer": p}),
        ("dealer 1.5", {"dealer": 1.5}),
        ("dealer True", {"dealer": True}),
        ("dealer '0'", {"dealer": "0"}),
        ("dealer per row, too many", {"dealer": [0] * (rows + 1)}),
        ("dealer a 0-d float array", {"dealer": np.array(1.0)}),
        ("dealer 2**64", {"dealer": 2**64}),
        ("episode -1", {"episode": -1}),
        ("episode 2**44", {"episode": 2**44}),
        ("episode 1.5", {"episode": 1.5}),
        ("episode True", {"episode": True}),
        ("episode '1'", {"episode": "1"}),
        ("episode np.uint64(2**63)", {"episode": np.uint64(2**63)}),
        ("episode 2**70", {"episode": 2**70}),
        ("episode None", {"episode": None}),
    ]


BAD_SEEDS = [
    ("-1", -1),
    ("2**63", 2**63),
    ("2**64", 2**64),
    ("1.5", 1.5),
    ("'1'", "1"),
    ("True", True),
    ("np.float64(1)", np.float64(1)),
    ("a list", [1]),
]


def config_values() -> list[tuple[str, object]]:
    return [
        ("'x'", "x"),
        ("1.5", 1.5),
        ("None", None),
        ("[]", []),
        ("True", True),
        ("-1", -1),
        ("10**30", 10**30),
        ("a dict", {"a": 1}),
    ]


def engine_cases(rng) -> tuple[list[Case], list[Case]]:
    from cardenvs.core.vector import RandomLegal  # noqa: F401  (compiled with the engine)

    rows = 4
    eng = cardenvs.make_vector("piquet-v0", rows, seed=0, episode="deal")
    eng.reset(seed=0)
    n = eng.num_actions
    deck = cardenvs.make("piquet-v0", episode="deal")
    deck.reset(seed=0)
    order = deck.unwrapped.record()["deals"][0]["deck"]
    p = eng.num_seats

    def legal_now():
        return np.array([int(np.flatnonzero(m)[0]) for m in eng.action_mask], np.int64)

    cases, first = [], []

    def control():
        eng.step(legal_now())
        eng.step(legal_now().tolist())

    first.append(Case("control: legal actions (an array, a list) step", control))
    for k, (name, _) in enumerate(bad_batches(legal_now(), n)):
        cases.append(
            step_case(
                f"step {name}",
                eng.step,
                lambda: state_of(eng),
                legal_now,
                n,
                lambda legal, n, k=k: bad_batches(legal, n)[k][1],
                False,
            )
        )
    cases.append(
        Case(
            "step an illegal action in range",
            lambda: refuse_unchanged(
                lambda: eng.step(
                    np.array([int(np.flatnonzero(m == 0)[0]) for m in eng.action_mask])
                ),
                eng,
            ),
        )
    )
    for name, options in bad_options(order, p, rows):
        cases.append(
            Case(
                f"reset options {name}",
                lambda o=options: refuse_unchanged(lambda: eng.reset(seed=0, options=o), eng),
            )
        )
    for name, seed in [*BAD_SEEDS, ("MAX_SEED (4 rows)", MAX_SEED)]:
        cases.append(
            Case(
                f"reset seed {name}",
                lambda s=seed: refuse_unchanged(lambda: eng.reset(seed=s), eng),
            )
        )
    for name, value in (
        ("[-1]", [-1]),
        ("[4]", [rows]),
        ("[1.5]", [1.5]),
        ("[[0]]", [[0]]),
        ("'0'", "0"),
        ("None", None),
        ("[True]", [True]),
        ("2**64", [2**64]),
    ):
        cases.append(
            Case(
                f"reset_rows {name}",
                lambda v=value: refuse_unchanged(lambda: eng.reset_rows(v), eng),
            )
        )
    for name, num in (
        ("0", 0),
        ("-1", -1),
        ("1.5", 1.5),
        ("True", True),
        ("'2'", "2"),
        ("None", None),
    ):
        cases.append(
            Case(
                f"make_vector num_envs {name}",
                lambda x=num: refuses(
                    lambda: cardenvs.make_vector("piquet-v0", x), types=(ValueError, TypeError)
                ),
            )
        )
    for name, seed in BAD_SEEDS:
        cases.append(
            Case(
                f"make_vector seed {name}",
                lambda s=seed: refuses(
                    lambda: cardenvs.make_vector("piquet-v0", 2, seed=s),
                    types=(ValueError, TypeError),
                ),
            )
        )
    cases.append(
        Case(
            "make_vector an unknown id", lambda: refuses(lambda: cardenvs.make_vector("nope-v0", 2))
        )
    )
    cases.append(
        Case(
            "make_vector an id of another type", lambda: refuses(lambda: cardenvs.make_vector(5, 2))
        )
    )

    def fresh():
        e = cardenvs.make_vector("piquet-v0", 1)
        refuses(lambda: e.step(np.zeros(1, np.int64)), types=(RuntimeError,))
        refuses(lambda: e.reset_rows([0]), types=(RuntimeError,))

    cases.append(Case("step and reset_rows before reset", fresh))
    # the AEC env's step
    aec = cardenvs.make("piquet-v0", episode="deal", illegal_action="raise")
    aec.reset(seed=0)

    def aec_state():
        return json.dumps(aec.unwrapped.record()), aec.agent_selection

    def aec_ready():
        if not aec.unwrapped.legal_actions():
            aec.reset(seed=0)

    for name, make, integer in action_kinds():
        cases.append(
            step_case(
                f"AEC step {name}",
                aec.step,
                aec_state,
                lambda: aec.unwrapped.legal_actions()[0],
                n,
                make,
                integer,
                aec_ready,
            )
        )

    def unknown_option():
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            refuses(lambda: aec.reset(seed=0, options={"frobnicate": 1}), accept=True)
        if not any("frobnicate" in str(w.message) for w in seen):
            raise Finding("error-type", "an unknown reset option ignored without a warning")

    cases.append(Case("AEC reset options an unknown key (ignored with a warning)", unknown_option))
    for name, options in bad_options(order, 2, 1):
        if "per row" in name or "2-d" in name or "unknown key" in name:
            continue
        cases.append(
            Case(
                f"AEC reset options {name}",
                lambda o=options: refuses(
                    lambda: aec.reset(seed=0, options=o), types=(ValueError, TypeError)
                ),
            )
        )
    for name, seed in BAD_SEEDS:
        cases.append(
            Case(
                f"AEC reset seed {name}",
                lambda s=seed: refuses(lambda: aec.reset(seed=s), types=(ValueError, TypeError)),
            )
        )
    return first, cases


def config_cases() -> dict[str, list[Case]]:
    """Every option of every id with values of the wrong type, per id: accepted or refused
    (``ValueError``, ``TypeError``), never another error."""
    from cardenvs.registry import lookup

    out = {}
    for env_id in cardenvs.GAMES:
        game, defaults = lookup(env_id)
        out[env_id] = [
            Case(
                f"config {env_id} {key}={name}",
                lambda e=env_id, k=key, v=value: refuses(
                    lambda: cardenvs.make_vector(e, 1, **{k: v}),
                    types=(ValueError, TypeError),
                    accept=True,
                ),
            )
            for key in game.config_cls.from_kwargs(**defaults).to_dict()
            for name, value in config_values()
        ]
    return out


def surface_engine(rng, n: int, folders: Folders, timeout: float) -> list[Outcome]:
    first, catalogue = engine_cases(rng)
    configs = config_cases()
    # the catalogue has one config case per id; fuzz draws more
    catalogue += [cases[int(rng.integers(len(cases)))] for cases in configs.values()]
    pool = [c for cases in configs.values() for c in cases]

    def fuzz(k: int) -> Case:
        return pool[int(rng.integers(len(pool)))]

    return run_cases("engine", choose(rng, catalogue, fuzz, n, first=first), timeout)


def wrapper_cases(rng) -> tuple[list[Case], list[Case]]:
    from cardenvs.wrappers import SingleAgentEnv, sb3_vec_env

    cases: list[Case] = []
    first: list[Case] = []
    single = SingleAgentEnv("piquet-v0", episode="deal", illegal_action="raise")
    single.reset(seed=0)
    n = int(single.action_space.n)
    order = cardenvs.make("piquet-v0", episode="deal")
    order.reset(seed=0)
    deck = order.unwrapped.record()["deals"][0]["deck"]

    def single_legal():
        return int(np.flatnonzero(single.action_masks())[0])

    def single_control():
        single.step(single_legal())
        single.reset(seed=0)

    first.append(Case("control: SingleAgentEnv steps a legal action", single_control))

    def single_ready():
        if single._done:
            single.reset(seed=0)

    for name, make, integer in action_kinds():
        cases.append(
            step_case(
                f"SingleAgentEnv.step {name}",
                single.step,
                lambda: state_of(single._engine),
                single_legal,
                n,
                make,
                integer,
                single_ready,
            )
        )
    for name, options in bad_options(deck, 2, 1):
        if "per row" in name or "2-d" in name:
            continue
        cases.append(
            Case(
                f"SingleAgentEnv.reset options {name}",
                lambda o=options: refuses(
                    lambda: single.reset(seed=0, options=o), types=(ValueError, TypeError)
                ),
            )
        )
    for name, kwargs in (
        ("seat -1", {"seat": -1}),
        ("seat 2", {"seat": 2}),
        ("seat 1.5", {"seat": 1.5}),
        ("seat True", {"seat": True}),
        ("seat 'x'", {"seat": "x"}),
        ("illegal_action 'x'", {"illegal_action": "x"}),
        ("render_mode 'human'", {"render_mode": "human"}),
        ("render_seat 5", {"render_seat": 5}),
        ("opponents without act", {"opponents": object()}),
        ("episode 5", {"episode": 5}),
        ("an unknown option", {"frobnicate": 1}),
    ):
        cases.append(
            Case(
                f"SingleAgentEnv({name})",
                lambda k=kwargs: refuses(
                    lambda: SingleAgentEnv("piquet-v0", **k), types=(ValueError, TypeError)
                ),
            )
        )

    class Opponent:
        def __init__(self, value):
            self.value = value

        def act(self, observation, mask):
            return self.value(observation, mask)

    for name, make, integer in action_kinds():

        def opponent(make=make, integer=integer):
            def act(observation, mask):
                return make(int(np.flatnonzero(mask)[0]), n)

            env = SingleAgentEnv("piquet-v0", seat=1, opponents=Opponent(act), episode="deal")
            refuses(
                lambda: env.reset(seed=0),
                types=(ValueError, TypeError),
                accept=integer,
                what=" an opponent's non-action",
            )

        cases.append(Case(f"SingleAgentEnv opponent plays {name}", opponent))
    # SB3
    try:
        vec = sb3_vec_env("piquet-v0", 4, seed=0, episode="deal")
    except ImportError:
        vec = None
    if vec is not None:
        vec.reset()

        def vec_legal():
            return np.array([int(np.flatnonzero(m)[0]) for m in vec.action_masks()], np.int64)

        def vec_control():
            vec.step_async(vec_legal())
            vec.step_wait()

        first.append(Case("control: the SB3 VecEnv steps legal actions", vec_control))

        def vec_call(value):
            vec.step_async(value)
            return vec.step_wait()

        for k, (name, _) in enumerate(bad_batches(vec_legal(), n)):
            cases.append(
                step_case(
                    f"SB3 VecEnv step {name}",
                    vec_call,
                    lambda: state_of(vec.engine),
                    vec_legal,
                    n,
                    lambda legal, n, k=k: bad_batches(legal, n)[k][1],
                    name == "shape (b, 1)",  # SB3's (num_envs, 1): integers, taken
                )
            )
        for name, kwargs in (
            ("num_envs 0", {"num_envs": 0}),
            ("num_envs -1", {"num_envs": -1}),
            ("num_envs 1.5", {"num_envs": 1.5}),
            ("num_envs '2'", {"num_envs": "2"}),
            ("seed -1", {"seed": -1}),
            ("seed 'x'", {"seed": "x"}),
            ("seed 2**64", {"seed": 2**64}),
            ("episode 5", {"episode": 5}),
            ("an unknown option", {"frobnicate": 1}),
        ):
            cases.append(
                Case(
                    f"sb3_vec_env({name})",
                    lambda k=kwargs: refuses(
                        lambda: sb3_vec_env("piquet-v0", **{"num_envs": 2, **k}),
                        types=(ValueError, TypeError),
                    ),
                )
            )

        def vec_opponent(value):
            def run():
                v = sb3_vec_env(
                    "piquet-v0", 2, seed=0, opponents=lambda obs, masks: value, episode="deal"
                )
                refuses(
                    lambda: v.reset(),
                    types=(ValueError, TypeError),
                    what=" an opponent's non-action",
                )

            return run

        for name, value in (
            ("floats", np.full(2, 1.5)),
            ("-1", np.full(2, -1)),
            ("num_actions", np.full(2, n)),
            ("None", None),
            ("nan", np.full(2, np.nan)),
        ):
            cases.append(Case(f"SB3 VecEnv opponent plays {name}", vec_opponent(value)))
    # RLlib (when Ray is installed)
    try:
        from cardenvs.wrappers.rllib import RLlibEnv
    except ImportError:
        RLlibEnv = None
    if RLlibEnv is not None:
        env = RLlibEnv({"env_id": "piquet-v0", "episode": "deal"})
        obs, _ = env.reset(seed=0)

        def agent_now():
            return env._to_act

        def rl_legal():
            return int(np.flatnonzero(env._engine.action_mask[0])[0])

        def rl_control():
            env.step({agent_now(): rl_legal()})
            env.reset(seed=0)

        first.append(Case("control: RLlibEnv steps a legal action", rl_control))

        def rl_ready():
            if env._done:
                env.reset(seed=0)

        for name, make, integer in action_kinds():
            cases.append(
                step_case(
                    f"RLlibEnv.step {name}",
                    lambda v: env.step({agent_now(): v}),
                    lambda: state_of(env._engine),
                    rl_legal,
                    n,
                    make,
                    integer,
                    rl_ready,
                )
            )
        for name, make in (
            ("the other agent", lambda: {f"player_{1 - int(agent_now()[-1])}": rl_legal()}),
            ("both agents", lambda: {"player_0": rl_legal(), "player_1": rl_legal()}),
            ("no agent", lambda: {}),
            ("None", lambda: None),
            ("a list", lambda: [rl_legal()]),
            ("an unknown agent", lambda: {"player_9": rl_legal()}),
        ):
            cases.append(
                Case(
                    f"RLlibEnv.step for {name}",
                    lambda make=make: refuse_unchanged(lambda: env.step(make()), env._engine),
                )
            )
        for name, config in (
            ("no env_id", {}),
            ("env_id 5", {"env_id": 5}),
            ("an unknown env_id", {"env_id": "nope-v0"}),
            ("render_mode 'human'", {"env_id": "piquet-v0", "render_mode": "human"}),
            ("episode 5", {"env_id": "piquet-v0", "episode": 5}),
            ("a list", [1]),
        ):
            cases.append(
                Case(
                    f"RLlibEnv({name})",
                    lambda c=config: refuses(lambda: RLlibEnv(c), types=(ValueError, TypeError)),
                )
            )
        for name, options in bad_options(deck, 2, 1):
            if "per row" in name or "2-d" in name:
                continue
            cases.append(
                Case(
                    f"RLlibEnv.reset options {name}",
                    lambda o=options: refuses(
                        lambda: env.reset(seed=0, options=o), types=(ValueError, TypeError)
                    ),
                )
            )
    return first, cases


def surface_wrappers(rng, n: int, folders: Folders, timeout: float) -> list[Outcome]:
    first, catalogue = wrapper_cases(rng)

    def fuzz(k: int) -> Case:  # the catalogue again, in a random order (the envs have moved on)
        case = catalogue[int(rng.integers(len(catalogue)))]
        return Case(f"again {k}: {case.name}", case.run)

    return run_cases("wrappers", choose(rng, catalogue, fuzz, n, first=first), timeout)
