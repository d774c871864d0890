"""The attack script's shared parts: the surfaces, their weights and the severities; the case
and outcome types (``Case``, ``Outcome``, ``Finding``, ``Note``, ``CaseTimeout``); the helpers
every surface uses (``refuses``, ``run_cases`` with its per-case deadline, ``choose``,
``Folders``, ``describe``); and the records of random legal games (``base_records``, made once
per process) with their comparison against a replay (``same``, ``claimed_differs``), shared by
the records, viewer and cli surfaces.
"""

from __future__ import annotations

import contextlib
import dataclasses
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent.parent
HERE = Path(__file__).resolve().parent  # this package
if str(ROOT) not in sys.path:  # agents/ and train/ import from the checkout
    sys.path.insert(0, str(ROOT))

import cardenvs  # noqa: E402
from cardenvs.core.checks import brief  # noqa: E402

SURFACES = ("web", "models", "records", "viewer", "cli", "wrappers", "engine")
#: each surface's share of ``--cases`` (the default count is their sum)
WEIGHTS = {
    "web": 400,
    "models": 300,
    "records": 300,
    "viewer": 120,
    "cli": 220,
    "wrappers": 180,
    "engine": 180,
}
DEFAULT_CASES = sum(WEIGHTS.values())
SEVERITIES = ("security", "data-loss", "error-type")
NET_TIMEOUT = 10.0  # seconds: every socket of the web cases
CASE_TIMEOUT = 180.0  # seconds: a case's deadline
#: a string that must never reach a page unescaped (``<!--``, ``</script>``, U+2028, U+2029)
MARKUP = "<!--x--></script><script>window.attackMarker=1</script>\u2028\u2029"


class Finding(Exception):
    """A case's finding: ``severity`` (one of ``SEVERITIES``) and what happened."""

    def __init__(self, severity: str, detail: str):
        super().__init__(detail)
        self.severity = severity
        self.detail = detail


class Note(Exception):
    """A case handled as expected, with a remark for the report (outcome ``ok``)."""


class CaseTimeout(BaseException):
    """A case ran past its deadline (BaseException: product code catching Exception lets it
    through)."""


@dataclasses.dataclass
class Case:
    name: str
    run: Callable[[], None]  # raises Finding for a finding


@dataclasses.dataclass
class Outcome:
    surface: str
    name: str
    outcome: str  # "ok" or "finding"
    severity: str | None = None
    detail: str = ""
    seconds: float = 0.0


def short(text, n: int = 500) -> str:
    text = str(text)
    return text if len(text) <= n else text[: n // 2] + " ... " + text[-n // 2 :]


def where(exc: BaseException) -> str:
    """The innermost frame of ``exc``'s traceback inside the repository, outside this package."""
    frames = traceback.extract_tb(exc.__traceback__)
    inside = [
        f
        for f in frames
        if str(ROOT) in f.filename
        and Path(f.filename).resolve().parent != HERE
        and ".venv" not in f.filename
    ]
    frame = (inside or frames or [None])[-1]
    if frame is None:
        return "?"
    name = frame.filename
    with contextlib.suppress(ValueError):
        name = str(Path(name).resolve().relative_to(ROOT))
    return f"{name}:{frame.lineno} in {frame.name}"


def describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {short(exc, 300)} (at {where(exc)})"


def refuses(
    call: Callable[[], object],
    types: tuple = (ValueError,),
    names: tuple = (),
    accept: bool = False,
    what: str = "",
):
    """Run ``call``: it must raise one of ``types`` with a message holding each of ``names``
    (``accept``: or return). Any other exception, or a return without ``accept``, is a finding
    of severity error-type. Returns what ``call`` returned (None when it raised)."""
    try:
        value = call()
    except Finding:
        raise
    except types as e:
        message = str(e)
        if not message.strip():
            raise Finding("error-type", f"{type(e).__name__} without a message") from None
        for name in names:
            if name not in message:
                raise Finding(
                    "error-type",
                    f"{type(e).__name__} does not name {name!r}: {short(message, 300)}",
                ) from None
        return None
    except Exception as e:  # noqa: BLE001 - the point: any other type is a finding
        expected = " or ".join(t.__name__ for t in types)
        raise Finding("error-type", f"{describe(e)}; expected {expected}") from None
    if not accept:
        raise Finding("error-type", f"accepted{what}: returned {short(brief(value), 200)}")
    return value


@contextlib.contextmanager
def deadline(seconds: float):
    """``CaseTimeout`` after ``seconds`` (SIGALRM, main thread only; elsewhere no deadline)."""
    usable = (
        seconds
        and hasattr(signal, "SIGALRM")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def fire(signum, frame):
        raise CaseTimeout(f"over {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_cases(surface: str, cases: list[Case], timeout: float) -> list[Outcome]:
    out = []
    for case in cases:
        t0 = time.perf_counter()
        try:
            with deadline(timeout):
                case.run()
        except Finding as f:
            got = Outcome(surface, case.name, "finding", f.severity, f.detail)
        except Note as note:
            got = Outcome(surface, case.name, "ok", None, f"note: {note}")
        except CaseTimeout:
            got = Outcome(surface, case.name, "finding", "error-type", f"took over {timeout} s")
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # noqa: BLE001 - SystemExit from a library is a finding too
            got = Outcome(surface, case.name, "finding", "error-type", describe(e))
        else:
            got = Outcome(surface, case.name, "ok")
        got.seconds = round(time.perf_counter() - t0, 3)
        out.append(got)
    return out


def choose(rng, catalogue: list[Case], fuzz, n: int, first=(), last=()) -> list[Case]:
    """``first``, then ``n - len(first) - len(last)`` cases (the catalogue, a seeded sample of
    it when that is fewer, ``fuzz(k)`` cases beyond it), then ``last``."""
    rest = max(0, n - len(first) - len(last))
    if rest < len(catalogue):
        picked = [catalogue[i] for i in sorted(rng.choice(len(catalogue), rest, replace=False))]
    else:
        picked = list(catalogue) + [fuzz(k) for k in range(rest - len(catalogue))]
    return [*first, *picked, *last][: max(n, 0)]


class Folders:
    """Fresh numbered folders under one temporary root."""

    def __init__(self, root: Path):
        self.root = root
        self.k = 0

    def new(self, tag: str = "case") -> Path:
        self.k += 1
        path = self.root / f"{tag}-{self.k:04d}"
        path.mkdir(parents=True)
        return path


#: (name, id, config, seed, how): how is "end", a number of actions to stop after, "illegal"
#: (an illegal move after 5 actions, penalized) or "episode2" (the seed's third game)
BASES = (
    ("piquet deal", "piquet-v0", {"episode": "deal"}, 48_123_457, "end"),
    ("piquet game", "piquet-v0", {}, 7_001, "end"),
    ("au cent 2 deals", "piquet_au_cent-v0", {"max_deals": 2}, 7_002, "end"),
    ("auction deal", "auction_piquet-v0", {"episode": "deal"}, 7_003, "end"),
    ("esel 3p deal", "esel-v0", {"episode": "deal", "num_players": 3}, 7_004, "end"),
    ("esel 2p deal", "esel-v0", {"episode": "deal", "num_players": 2}, 7_005, "end"),
    ("banque 3p deal", "banque-v0", {"episode": "deal", "num_players": 3}, 7_006, "end"),
    ("four aces 5p deal", "four_aces-v0", {"episode": "deal", "num_players": 5}, 7_007, "end"),
    ("normand deal", "piquet_normand-v0", {"episode": "deal"}, 7_008, "end"),
    ("partnership deal", "partnership_piquet-v0", {"episode": "deal"}, 7_009, "end"),
    ("piquet unfinished", "piquet-v0", {"episode": "deal"}, 7_010, 12),
    ("piquet illegal end", "piquet-v0", {"episode": "deal"}, 7_011, "illegal"),
    ("piquet episode 2", "piquet-v0", {"episode": "deal"}, 7_012, "episode2"),
)
_RECORDS: dict[str, dict] = {}


def base_records() -> dict[str, dict]:
    """``{name: record}`` of ``BASES`` (random legal actions from a generator seeded with the
    game's seed; made once per process)."""
    if _RECORDS:
        return _RECORDS
    for name, env_id, config, seed, how in BASES:
        env = cardenvs.make(env_id, **config)
        env.reset(seed=seed)
        if how == "episode2":
            env.reset()
            env.reset()
        core = env.unwrapped
        rng = np.random.default_rng(seed)
        n = 0
        while core.legal_actions():
            if how == "illegal" and n == 5:
                legal = set(core.legal_actions())
                env.step(next(a for a in range(core.game.num_actions) if a not in legal))
                break
            if isinstance(how, int) and n >= how:
                break
            env.step(int(rng.choice(core.legal_actions())))
            n += 1
        _RECORDS[name] = core.record()
    return _RECORDS


def same(a, b) -> bool:
    from cardenvs.records import _same

    return _same(a, b)


def claimed_differs(record: dict, out: dict) -> str | None:
    """Where ``record`` claims other than its replay ``out`` says (``cardenvs.records.FIELDS``
    and ``episode``, types included), or None."""
    from cardenvs.records import FIELDS

    for key in (*FIELDS, "episode"):
        default = 0 if key == "episode" else None
        said, got = record.get(key, default), out.get(key, default)
        if not same(said, got):
            return first_difference(said, got, [key])
    return None


def first_difference(a, b, path: list) -> str:
    """The first place where the JSON values ``a`` (the record) and ``b`` (the replay) differ."""
    for _ in range(64):
        if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
            key = next(k for k in a if not same(a[k], b[k]))
        elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
            key = next(i for i in range(len(a)) if not same(a[i], b[i]))
        else:
            break
        a, b = a[key], b[key]
        path.append(key)
    where = "".join(f"[{k!r}]" for k in path)
    return f"{where}: record {short(brief(a), 100)}, replay {short(brief(b), 100)}"
