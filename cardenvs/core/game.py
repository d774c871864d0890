"""What a game package hands to the shared front ends: its ``GameDef`` and a ``GameConfig``.

A game package (``docs/architecture.md``) defines a frozen ``Config`` dataclass (subclass of
``GameConfig``) in its ``config.py`` and builds a ``GameDef`` from its modules in its
``__init__.py`` (``GameDef.from_rules``); ``core.vector`` and ``core.aec`` are written once
against it.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, NamedTuple

import numpy as np

from .cards import format_cards
from .checks import brief

EPISODES = ("game", "deal")
REWARDS = ("win", "score")
# the kernels' codes of the two options every game has (``GameConfig.code``)
EPISODE_GAME, EPISODE_DEAL = EPISODES.index("game"), EPISODES.index("deal")
REWARD_WIN, REWARD_SCORE = REWARDS.index("win"), REWARDS.index("score")


def option(default: Any, choices: Sequence[Any] | None = None, low=None, high=None, doc=""):
    """A config field: ``choices`` for enumerations, ``low``/``high`` for integers."""
    meta = {"choices": tuple(choices) if choices is not None else None, "low": low, "high": high}
    meta["doc"] = doc
    return dataclasses.field(default=default, metadata=meta)


def _memo_array(fn):
    """Compute a frozen config's ``to_array()`` once per instance; every call returns a copy.

    Building the array walks the dataclass fields (about a millisecond for the Piquet configs),
    and search code asks for it on every determinization."""
    key = f"_array_{fn.__qualname__}"

    @functools.wraps(fn)
    def to_array(self) -> np.ndarray:
        cached = self.__dict__.get(key)
        if cached is None:
            cached = fn(self)
            object.__setattr__(self, key, cached)
        return cached.copy()

    return to_array


def _same_kind(value, choice) -> bool:
    """``value`` is of the kind of ``choice``: a string (``np.str_`` too) for a string, an
    integer (numpy ones too, never a bool) for an integer."""
    if isinstance(choice, str):
        return isinstance(value, str)
    if isinstance(choice, int) and not isinstance(choice, bool):
        return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    return type(value) is type(choice)


def _checked(label: str, f: dataclasses.Field, value):
    """``value`` of config field ``f`` as a plain Python value (``bool``, ``int``, ``str``, the
    choice itself), or a ``ValueError`` naming the id, the option and what is allowed. Fields of
    other kinds (Banque's triples) come back unchanged: their class checks them."""
    meta = f.metadata
    where = f"{label}: option {f.name}"
    if isinstance(f.default, bool):
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{where} must be True or False, got {brief(value)}")
        return bool(value)
    choices = meta.get("choices")
    if choices is not None:
        for choice in choices:
            if _same_kind(value, choice) and value == choice:
                return choice
        raise ValueError(f"{where} = {brief(value)} is not allowed; choose one of {list(choices)}")
    if isinstance(f.default, int):
        lo, hi = meta.get("low"), meta.get("high")
        allowed = f"an integer in {lo}..{hi}"
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise ValueError(
                f"{where} must be an integer, got {brief(value)} ({type(value).__name__}); "
                f"allowed: {allowed}"
            )
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ValueError(f"{where} = {int(value)} is out of range; allowed: {allowed}")
        return int(value)
    if isinstance(f.default, str):
        if not isinstance(value, str):
            raise ValueError(
                f"{where} must be a string, got {brief(value)} ({type(value).__name__})"
            )
        return str(value)
    return value


@dataclasses.dataclass(frozen=True)
class GameConfig:
    """Base of every game's ``Config``: validation and the one int encoding the kernels read.

    Fields hold strings (from a fixed list of choices), bools or bounded ints. ``to_array()``
    encodes them as ``int64``, one item per field of the kernel layout (``kernel_fields``): a
    choice as its index (``code``), a bool as 0/1, an int as itself; a game overrides
    ``encode`` for a field of another kind (Banque's triples, a set of suits as bits). The
    kernels read item ``C_<OPTION> = Config.index("<option>")`` and compare a choice with its
    named code (``EPISODE_DEAL = Config.code("episode", "deal")``).

    The layout is the class's own fields, or those of ``KERNEL`` where several ids run on one
    engine (the two-handed Piquet ids; normand and partnership): each id's ``Config`` offers the
    options that make sense for it, with its own defaults; an option it does not offer takes its
    value from ``FIXED``, else the layout's default, so no id accepts another id's switches.
    ``LATER`` names options added after an id's first release, left out of ``to_dict()`` (and
    so of its records) while at their default, so the records of earlier releases replay and
    compare unchanged.

    Validation stores every value as a plain Python value: NumPy scalars (``np.int64``,
    ``np.bool_``, ``np.str_``) are accepted and converted, so ``to_dict()`` is JSON-able; arrays
    (a one-element array too) are refused, as is a bool or float for an integer option. Errors
    name the environment id (``"piquet-v0: option rubicon = ..."``) and what is allowed; the
    id is the class's ``ENV_ID``, set by the ``GameDef`` that uses the class.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "to_array" in cls.__dict__:
            cls.to_array = _memo_array(cls.__dict__["to_array"])

    #: Options whose default changed after records were made: option -> the value a record
    #: whose config lacks the option was played with (``cardenvs.replay`` applies it).
    RECORD_DEFAULTS: ClassVar[dict] = {}
    #: the dataclass whose fields lay out the config vector (None: the class's own fields)
    KERNEL: ClassVar[type | None] = None
    #: option -> the value the kernels see for an option of ``KERNEL`` this id does not offer
    FIXED: ClassVar[dict] = {}
    #: options left out of ``to_dict()`` while at their default
    LATER: ClassVar[tuple] = ()

    episode: str = option("game", EPISODES, doc="'game': the whole match; 'deal': one deal")
    reward: str = option("win", REWARDS, doc="'win': +1/-1/0 at the end; 'score': points")

    def __post_init__(self):
        label = self.env_label()
        for f in dataclasses.fields(self):
            # plain Python values (``np.int64`` -> int, ``np.str_`` -> str, ...), so that a
            # config, and the record it goes into, is JSON-able
            object.__setattr__(self, f.name, _checked(label, f, getattr(self, f.name)))

    @classmethod
    def env_label(cls) -> str:
        """The environment id this config class belongs to (``GameDef`` sets ``ENV_ID`` on its
        ``config_cls``), named in every config error; the class name for a class no id uses."""
        return cls.__dict__.get("ENV_ID") or cls.__name__

    @classmethod
    def error(cls, name: str, text: str) -> ValueError:
        """A config error about option ``name``: ``"<env id>: option <name> <text>"``."""
        return ValueError(f"{cls.env_label()}: option {name} {text}")

    @classmethod
    def from_kwargs(cls, **kwargs):
        """Build a config, rejecting unknown keys with the list of known ones."""
        names = [f.name for f in dataclasses.fields(cls)]
        unknown = sorted(set(kwargs) - set(names))
        if unknown:
            raise ValueError(
                f"unknown config option(s) {brief(unknown)} for {cls.env_label()}; "
                f"known options: {names}"
            )
        return cls(**kwargs)

    @classmethod
    def kernel_fields(cls) -> tuple[dataclasses.Field, ...]:
        """The fields of the config vector, in order (``KERNEL``'s, else the class's own)."""
        return dataclasses.fields(cls.KERNEL or cls)

    @classmethod
    def _kernel_field(cls, name: str) -> dataclasses.Field:
        for f in cls.kernel_fields():
            if f.name == name:
                return f
        known = [f.name for f in cls.kernel_fields()]
        raise ValueError(f"{cls.env_label()}: the kernels read no option {name!r}; known: {known}")

    @classmethod
    def index(cls, name: str) -> int:
        """Position of option ``name`` in ``to_array()``."""
        return cls.kernel_fields().index(cls._kernel_field(name))

    @classmethod
    def size(cls) -> int:
        """The length of ``to_array()``."""
        return len(cls.kernel_fields())

    @classmethod
    def code(cls, name: str, choice) -> int:
        """The int the kernels see for ``choice`` of option ``name`` (its index among the
        choices): the value of a named choice code."""
        choices = cls._kernel_field(name).metadata.get("choices")
        if choices is None or choice not in choices:
            raise ValueError(f"{cls.env_label()}: option {name} has no choice {choice!r}")
        return choices.index(choice)

    def encode(self, name: str, value) -> int:
        """The int a kernel sees for option ``name`` (games override it for special fields)."""
        f = self._kernel_field(name)
        if f.metadata.get("choices") is not None:
            return f.metadata["choices"].index(value)
        return int(value)

    @_memo_array
    def to_array(self) -> np.ndarray:
        own = {f.name for f in dataclasses.fields(self)}
        values = []
        for f in self.kernel_fields():
            v = getattr(self, f.name) if f.name in own else self.FIXED.get(f.name, f.default)
            values.append(self.encode(f.name, v))
        return np.asarray(values, dtype=np.int64)

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        defaults = {f.name: f.default for f in dataclasses.fields(self)}
        for name in self.LATER:
            if d[name] == defaults[name]:
                del d[name]
        return d

    @classmethod
    def describe(cls) -> str:
        """A Markdown table of the options (used in docstrings and the README)."""
        rows = ["| option | default | allowed | meaning |", "|---|---|---|---|"]
        for f in dataclasses.fields(cls):
            m = f.metadata
            if m.get("choices") is not None:
                allowed = ", ".join(repr(c) for c in m["choices"])
            elif isinstance(f.default, bool):
                allowed = "True, False"
            elif isinstance(f.default, str):
                allowed = "see meaning"
            else:
                allowed = f"{m.get('low')}..{m.get('high')}"
            rows.append(f"| `{f.name}` | `{f.default!r}` | {allowed} | {m.get('doc', '')} |")
        return "\n".join(rows)


class ObsField(NamedTuple):
    """One named block of the flat observation vector."""

    name: str
    size: int
    high: float
    doc: str
    low: float = 0.0


def layout_offsets(layout: Sequence[ObsField]) -> dict[str, int]:
    """Start offset of every block."""
    out, off = {}, 0
    for f in layout:
        out[f.name] = off
        off += f.size
    return out


def layout_table(layout: Sequence[ObsField]) -> str:
    """A Markdown table of the observation layout (used in the module docstring)."""
    rows = ["| offset | size | block | meaning |", "|---:|---:|---|---|"]
    off = 0
    for f in layout:
        rows.append(f"| {off} | {f.size} | `{f.name}` | {f.doc} |")
        off += f.size
    return "\n".join(rows)


def _cell(text: str) -> str:
    """``text`` as one Markdown table cell (a ``|`` would end the cell)."""
    return str(text).replace("|", "\\|")


def action_groups(names: Sequence[str]) -> list[tuple[int, int, str]]:
    """The action ids in rows of a table: ``(first id, last id, key)``. Three or more
    consecutive names of two or more words that share their first word make one row keyed by
    that word (``play 6S`` .. ``play AC``: ``"play"``); any other id is a row of its own, keyed
    by its whole name (``draw stock``, ``stop``)."""
    rows: list[tuple[int, int, str]] = []
    i = 0
    while i < len(names):
        words = names[i].split()
        j = i
        while (
            len(words) > 1
            and j + 1 < len(names)
            and len(names[j + 1].split()) > 1
            and names[j + 1].split()[0] == words[0]
        ):
            j += 1
        if j - i >= 2:
            rows.append((i, j, words[0]))
        else:
            rows.extend((k, k, names[k]) for k in range(i, j + 1))
        i = j + 1
    return rows


def action_table(names: Sequence[str], docs: dict[str, str]) -> str:
    """A Markdown table of the actions (``action_groups``): ids, names and when each is legal,
    from ``docs`` (a row's key -> text; a ``ValueError`` names a key missing from ``docs`` or
    one that no row uses)."""
    groups = action_groups(names)
    keys = [key for _, _, key in groups]
    missing = [k for k in keys if k not in docs]
    unused = sorted(set(docs) - set(keys))
    if missing or unused:
        raise ValueError(
            f"action docs do not match the actions: no text for {missing}, "
            f"no action for {unused}; row keys: {keys}"
        )
    rows = ["| ids | names | legal when |", "|---|---|---|"]
    for first, last, key in groups:
        if first == last:
            ids, shown = f"{first}", f"`{names[first]}`"
        else:
            ids = f"{first}–{last}"
            shown = f"`{names[first]}`, `{names[first + 1]}`, …, `{names[last]}`"
        rows.append(f"| {ids} | {shown} | {_cell(docs[key])} |")
    return "\n".join(rows)


def reward_table(rows: Sequence[tuple[str, str, str]]) -> str:
    """A Markdown table of a game's rewards: one row ``(episode, reward, what each seat gets)``
    per combination of the two options every game has (``EPISODES`` x ``REWARDS``; a
    ``ValueError`` names a missing or unknown one). An ``episode`` or ``reward`` cell may add a
    qualifier after a comma (``"game, au_cent_partie"``): such rows come on top of the four."""
    seen = set()
    for episode, reward, _ in rows:
        e, r = episode.split(",")[0].strip(), reward.split(",")[0].strip()
        if e not in EPISODES or r not in REWARDS:
            raise ValueError(
                f"reward row ({episode!r}, {reward!r}): episode must be one of {list(EPISODES)}, "
                f"reward one of {list(REWARDS)}"
            )
        if "," not in episode and "," not in reward:
            seen.add((e, r))
    missing = [(e, r) for e in EPISODES for r in REWARDS if (e, r) not in seen]
    if missing:
        raise ValueError(f"reward rows missing for (episode, reward) = {missing}")

    def shown(cell: str, default: bool) -> str:
        value, *more = (part.strip() for part in cell.split(","))
        text = f'`"{value}"`' + (" (default)" if default else "")
        return ", ".join([text, *(f"`{m}`" for m in more)])

    out = ["| `episode` | `reward` | reward at the end, per seat |", "|---|---|---|"]
    for episode, reward, text in rows:
        default = (episode, reward) == (EPISODES[0], REWARDS[0])  # the defaults, no qualifier
        out.append(f"| {shown(episode, default)} | {shown(reward, default)} | {_cell(text)} |")
    return "\n".join(out)


class HandLimit(NamedTuple):
    """The option that caps how many deals (hands, rounds) a game plays (``GameDef.hand_limit``):
    the event log says when a game stopped there."""

    option: str  # the config option holding the limit ("max_hands")
    count: str  # the result's count of the deals played, also the unit named ("hands")
    unless: str | None = None  # a bool option under which the limit does not end the game


class StepKernels:
    """An engine's step kernels, one per value of the config item that shapes the kernel: the
    number of players of Banque and Four Aces, the variant of Piquet normand and partnership;
    Piquet and Esel have one kernel for every config. ``GameDef.step_for`` of every game (the
    engines' ``kernels.py``, generated from ``core.kernel_template``).

    ``make(value)`` returns the engine's ``step_rows`` compiled for that value (a ``cache=True``
    kernel closed over ``value``, which reads its config through the engine's ``specialise``, so
    the value is a constant in it); each is compiled on its first call. Calling this object with
    a config vector returns the kernel of ``cfg[index]`` (the only kernel where ``index`` is
    None); ``step_rows`` calls that kernel, for callers that do not keep it. ``option`` names the
    config option the item holds, or None where the id fixes it (no config of the id selects
    another kernel)."""

    def __init__(
        self,
        make: Callable[[int], Callable],
        values: Sequence[int],
        index: int | None,
        option: str | None,
    ):
        self.kernels = {int(v): make(int(v)) for v in values}
        if index is None and len(self.kernels) != 1:
            raise ValueError("StepKernels without a config index takes exactly one value")
        self.index = index
        self.option = option

    def __call__(self, cfg: np.ndarray) -> Callable:
        if self.index is None:
            return next(iter(self.kernels.values()))
        value = int(cfg[self.index])
        if value not in self.kernels:
            name = self.option or f"config item {self.index}"
            allowed = sorted(self.kernels)
            raise ValueError(f"no step kernel for {name} = {value}; allowed: {allowed}")
        return self.kernels[value]

    def step_rows(self, s, cfg, actions, autoreset, obs, mask, rewards, terminated) -> None:
        """``step_rows`` through the kernel of ``cfg``'s value."""
        self(cfg)(s, cfg, actions, autoreset, obs, mask, rewards, terminated)

    def __repr__(self) -> str:
        return f"StepKernels({self.option}: {sorted(self.kernels)}, index={self.index})"


@dataclasses.dataclass(frozen=True)
class GameDef:
    """Everything the shared front ends need from a game package.

    ``layout`` names the fields of the game's packed state (``core.state``). Kernels (all
    ``@njit``, over a batched ``PackedState``):
        ``reset_rows(s, cfg, rows, keys, episodes, decks, dealers, obs, mask)``: start a game in
        each row of ``rows`` (``decks[i, 0] < 0`` = shuffle, ``dealers[i] < 0`` = draw);
        ``step_rows(s, cfg, actions, autoreset, obs, mask, rewards, terminated)``: one action per
        row, then the next player's observation and mask (``step_kernel(cfg)``: the same, compiled
        for the config's seat count);
        ``observe_rows(s, cfg, seats, out)``: each row's observation for ``seats[b]``.

    Every engine's ``step_rows`` is the same loop over row blocks around its own
    ``_apply``/``_legal``/``_observe`` (``core.prefetch.STEP_BLOCK``), after taking borrowed views
    of its arrays (``core.step_args.borrowed_step``: no reference counting), written once in
    ``core.kernel_template`` and generated into each engine's ``kernels.py``. All three are
    inlined into it, and so is every rule helper they call: each is ``@njit(cache=True,
    forceinline=True)``, which numba types and lowers once per signature and marks
    ``alwaysinline`` for LLVM, whose inliner then copies it into every caller while optimising
    the caller: a call between kernels passes every array as a descriptor, and numba's own
    ``inline="always"`` re-infers the types of everything it merges, which made first compiles
    several times longer. Two exceptions are inlined by numba: ``_apply``, the step's dispatch
    on the phase (and Piquet's ``_apply_action`` under it), a thin body over the whole game that
    compiled on its own would be optimised twice; and Four Aces' few small helpers. Either way
    an inlined helper is compiled into every place that calls it, so a kernel calls each big
    helper from one place (Banque's ``_apply`` calls ``_after_play`` once, not once per kind of
    play). The measurements: ``docs/history.md``, "Inlining in the step kernels".

    One template, generated into source files, rather than one shared compiled loop: numba's
    cache misses a loop that takes the game's kernels as closure variables or as arguments in
    every new process, so every process would recompile the step.
    """

    name: str
    version: int
    deck: Any
    config_cls: type
    num_actions: int
    action_names: tuple
    obs_layout: tuple
    num_seats: Callable[[Any], int]
    layout: Any  # core.state.StateLayout
    reset_rows: Callable
    step_rows: Callable
    observe_rows: Callable
    result: Callable  # (state, row, config) -> JSON-able dict of the finished game
    render: Callable  # (state, row, config) -> str
    deck_strings: Callable  # (state, row) -> the current deal's deck order as card strings
    legal_row: Callable  # kernel (state, row, cfg, out): the legal-action mask of one row
    deal_extras: Callable | None = None  # (state, row, config) -> extra fields of a finished deal
    determinize: Callable | None = None  # (state, row, config, seat, rng): redraw hidden info
    # (config) -> the seats grouped into sides that share every reward (partners), e.g.
    # ((0, 2), (1, 3)); None: every seat plays for itself
    sides: Callable[[Any], tuple] | None = None
    # (config vector) -> the step kernel compiled for it (``StepKernels``: one per seat count);
    # None: ``step_rows`` for every config
    step_for: Callable[[np.ndarray], Callable] | None = None
    # (state, row, config, seat=None) -> the scene of the row as ``seat`` sees it (None: the open
    # view), a JSON-able dict in the format of ``core.scene``; every game has one (a default
    # only because the dataclass's defaulted fields come last)
    scene: Callable | None = None
    # what the programs above the library need to know of a game, kept here so that no table
    # outside the game's package names it (the game registers its facts, as an OpenSpiel game
    # does):
    # the module that defines this ``GameDef`` as ``GAME`` (and its front ends): the plain-Python
    # copy of a cold cache imports it again (``core.coldstart.plain_twin``)
    module: str = ""
    # the games whose rules and sentences this one shares (``"piquet"`` for every Piquet id; the
    # event log, ``cardenvs.ui.events``, goes by it); default: the game's own name
    family: str = ""
    # about how many seconds the first compile of the engine's kernels takes (``import cardenvs``
    # to the first batched step, one process alone on the 2-core reference machine:
    # ``benchmarks.cold_start`` of 2026-12-03, rounded up), said in the cold-start notice
    compile_seconds: int | None = None
    # the option that caps the deals of a game, if any (the event log's "the game stops at its
    # limit")
    hand_limit: HandLimit | None = None
    # (scene, cards, config) -> the seat that takes a complete trick: ``cards`` in play order
    # (``{"seat", "card"}``), ``scene`` the scene of the deal before the trick's last card (the
    # trumps it shows), ``config`` the game's config as a dict (a record's; may be empty). The
    # event log's winner of a deal's last trick, gone from the next deal's scene; None: no
    # tricks to tell
    trick_rule: Callable | None = None

    def __post_init__(self):
        if not callable(self.scene):
            raise TypeError(f"{self.name}: a GameDef needs scene(state, row, config, seat)")
        if not self.family:
            object.__setattr__(self, "family", self.name)
        # the config class learns the id it configures, for its error messages (one id per
        # config class: every id has its own ``Config``)
        self.config_cls.ENV_ID = self.env_id

    def step_kernel(self, cfg: np.ndarray) -> Callable:
        """The ``step_rows`` kernel to call with config vector ``cfg``: the one compiled for its
        seat count where the game has such kernels (same arguments, same results). The front
        ends look it up once per engine; ``step_rows`` itself looks it up on every call."""
        return self.step_rows if self.step_for is None else self.step_for(cfg)

    def sides_of(self, config) -> tuple[tuple[int, ...], ...]:
        """The sides of a game with ``config``: tuples of seats sharing every reward."""
        if self.sides is None:
            return tuple((p,) for p in range(self.num_seats(config)))
        return tuple(tuple(side) for side in self.sides(config))

    @classmethod
    def from_rules(
        cls,
        *modules,
        render: Callable,
        num_seats: Callable[[Any], int],
        scene: Callable,
        module: str,
        **facts,
    ) -> GameDef:
        """The ``GameDef`` of a game package whose modules use the standard names (``NAME``,
        ``VERSION``, ``DECK``, ``Config``, ``NUM_ACTIONS``, ``ACTION_NAMES``, ``OBS_LAYOUT``,
        ``LAYOUT``, the three batched kernels, ``legal_row``, ``result``, ``deck_strings`` and
        optionally ``deal_extras``, ``determinize`` and ``step_for``): each name is taken from
        the first of ``modules`` that defines it; ``render`` (text) and ``scene`` (the table as
        data, ``core.scene``) come from the package's ``text.py`` and ``scene.py``, ``module``
        is the package's ``__name__`` and ``facts`` the game's other fields (``family``,
        ``compile_seconds``, ``hand_limit``, ``trick_rule``)."""

        def find(name, required=True):
            for module in modules:
                if hasattr(module, name):
                    return getattr(module, name)
            if required:
                names = [m.__name__ for m in modules]
                raise AttributeError(f"none of the modules {names} defines {name}")
            return None

        return cls(
            name=find("NAME"),
            version=find("VERSION"),
            deck=find("DECK"),
            config_cls=find("Config"),
            num_actions=find("NUM_ACTIONS"),
            action_names=find("ACTION_NAMES"),
            obs_layout=find("OBS_LAYOUT"),
            num_seats=num_seats,
            layout=find("LAYOUT"),
            reset_rows=find("reset_rows"),
            step_rows=find("step_rows"),
            observe_rows=find("observe_rows"),
            result=find("result"),
            render=render,
            scene=scene,
            deck_strings=find("deck_strings"),
            deal_extras=find("deal_extras", False),
            legal_row=find("legal_row"),
            determinize=find("determinize", False),
            step_for=find("step_for", False),
            module=module,
            **facts,
        )

    @functools.cached_property
    def obs_dim(self) -> int:
        return sum(f.size for f in self.obs_layout)

    @functools.cached_property
    def obs_low(self) -> np.ndarray:
        return np.concatenate([np.full(f.size, f.low, np.float32) for f in self.obs_layout])

    @functools.cached_property
    def obs_high(self) -> np.ndarray:
        return np.concatenate([np.full(f.size, f.high, np.float32) for f in self.obs_layout])

    @property
    def env_id(self) -> str:
        return f"{self.name}-v{self.version}"


def action_id(game: GameDef, name: str) -> int:
    """Look up an action by name (case-insensitive card part, ``"TH"`` accepted for ten)."""
    if not isinstance(name, str):
        raise ValueError(f"action name must be a string, got {brief(name)}")
    table = _action_table(game)
    key = normalise_action(name)
    if key not in table:
        examples = ", ".join(repr(x) for x in game.action_names[:3])
        raise ValueError(
            f"unknown action {brief(name)} for {game.name}; names look like {examples}, "
            f"cards from: {format_cards(game.deck.cards)}"
        )
    return table[key]


_TABLES: dict[str, dict[str, int]] = {}


def normalise_action(name: str) -> str:
    """Words lower case (``"play"``, ``"top"``); card, rank and suit tokens upper case, with
    ``"T"`` for ten accepted (``"th"`` -> ``"10H"``)."""
    parts = name.strip().split()
    out = []
    for i, p in enumerate(parts):
        if i == 0 or len(p) > 3 or (p.isalpha() and len(p) == 3):
            out.append(p.lower())
        else:
            out.append(p.upper().replace("T", "10"))
    return " ".join(out)


def _action_table(game: GameDef) -> dict[str, int]:
    if game.env_id not in _TABLES:
        _TABLES[game.env_id] = {normalise_action(n): i for i, n in enumerate(game.action_names)}
    return _TABLES[game.env_id]
