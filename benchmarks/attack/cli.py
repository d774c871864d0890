"""The ``cli`` surface: ``main(argv)`` of ``cardenvs.play`` (stdin at its end: the game is left at
once), ``cardenvs.view``, ``cardenvs.demo`` (single deals where a whole game is long),
``train.evaluate`` (one game) and ``train.ppo`` (``parse``, and two ``main`` calls that must stop
before training, with a one-update budget should they not), in-process in a fresh folder
(``Sandbox``, ``invoke``): negative, huge and non-numeric numbers, unknown ids and options, bad
and deeply nested JSON configs, paths that are folders, missing, existing, non-UTF-8 or hostile
files.

Expected: ``SystemExit`` 2 with an ``error:`` message, or a clean run; a game played saved its
record, which replays; no file overwritten (``--record`` an existing file, the viewer's page
over its own record); no pickle run. ``--web`` serves and stops at once; no browser is ever
opened.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import pickle
import shutil
import sys
import threading
import webbrowser
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

import cardenvs
from benchmarks.attack.common import (
    MARKUP,
    Case,
    CaseTimeout,
    Finding,
    Folders,
    Outcome,
    base_records,
    choose,
    describe,
    run_cases,
    short,
)
from benchmarks.attack.models import Marker
from cardenvs.core.rng import MAX_SEED


@dataclasses.dataclass
class Run:
    kind: str  # "return", "exit" or "raise"
    value: object
    out: str
    err: str
    browser: list


class Sandbox:
    """What the CLI cases read: a valid record, models, hostile files (made once)."""

    def __init__(self, folder: Path):
        self.dir = folder
        rec = base_records()["piquet deal"]
        self.record = folder / "record.json"
        self.record.write_text(json.dumps(rec))
        self.model = folder / "model.npz"
        shutil.copy(cardenvs.zoo.MODELS / "piquet-v0.npz", self.model)
        self.esel_model = folder / "esel.npz"
        shutil.copy(cardenvs.zoo.MODELS / "esel-v0.npz", self.esel_model)
        self.random_npz = folder / "random.npz"
        self.random_npz.write_bytes(np.random.default_rng(5).bytes(3000))
        self.marker = folder / "MARKER"
        self.pickle_zip = folder / "model.zip"
        with zipfile.ZipFile(self.pickle_zip, "w") as z:
            z.writestr("data", "{}")
            z.writestr("policy.pth", pickle.dumps(Marker(str(self.marker))))
        self.pickle_npz = folder / "pickle.npz"
        self.pickle_npz.write_bytes(pickle.dumps(Marker(str(self.marker))))
        self.dir_npz = folder / "folder.npz"
        self.dir_npz.mkdir()
        self.non_utf8 = folder / "latin1.json"
        self.non_utf8.write_bytes(b'{"game": "caf\xe9"}\xff\xfe')
        self.empty = folder / "empty.json"
        self.empty.write_bytes(b"")
        self.deep = folder / "deep.json"
        self.deep.write_text("[" * 100_000 + "]" * 100_000)
        self.nan = folder / "nan.json"
        self.nan.write_text(json.dumps({**rec, "seed": float("nan")}))
        self.list_json = folder / "list.json"
        self.list_json.write_text("[]")
        self.not_record = folder / "dict.json"
        self.not_record.write_text("{}")
        self.missing = folder / "missing" / "x.json"

    def fill(self, argv: list[str]) -> list[str]:
        names = {
            "{record}": self.record,
            "{model}": self.model,
            "{esel_model}": self.esel_model,
            "{random_npz}": self.random_npz,
            "{pickle_zip}": self.pickle_zip,
            "{pickle_npz}": self.pickle_npz,
            "{dir_npz}": self.dir_npz,
            "{non_utf8}": self.non_utf8,
            "{empty}": self.empty,
            "{deep}": self.deep,
            "{nan}": self.nan,
            "{list_json}": self.list_json,
            "{not_record}": self.not_record,
            "{missing}": self.missing,
            "{dir}": self.dir,
        }
        out = []
        for a in argv:
            for k, v in names.items():
                a = a.replace(k, str(v))
            out.append(a)
        return out


def invoke(main, argv: list[str], cwd: Path, stdin: str = "") -> Run:
    """``main(argv)`` in-process in ``cwd``, its output captured, stdin ``stdin``, the
    browser and the web server's wait stubbed (``--web`` serves and stops at once)."""
    from cardenvs.ui import web

    out, err = io.StringIO(), io.StringIO()
    opened: list = []
    real_serve, real_open, real_stdin = web.serve, webbrowser.open, sys.stdin
    stop = threading.Event()
    stop.set()

    def quick_serve(*args, **kwargs):
        if kwargs.get("open_browser"):
            opened.append("open_browser")
        kwargs["open_browser"] = False
        kwargs["stop"] = stop
        return real_serve(*args, **kwargs)

    old = os.getcwd()
    os.chdir(cwd)
    web.serve = quick_serve
    webbrowser.open = lambda *a, **k: opened.append(a) or True
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                value = main(argv)
            except SystemExit as e:
                return Run("exit", e.code, out.getvalue(), err.getvalue(), opened)
            except CaseTimeout:
                raise
            except Exception as e:  # noqa: BLE001 - reported as a finding
                return Run("raise", e, out.getvalue(), err.getvalue(), opened)
        return Run("return", value, out.getvalue(), err.getvalue(), opened)
    finally:
        sys.stdin = real_stdin
        web.serve = real_serve
        webbrowser.open = real_open
        os.chdir(old)


def _ppo_parse(argv):
    from train import ppo

    ppo.parse(argv)


def _ppo_main(argv):
    from train import ppo

    return ppo.main(argv)


def programs() -> dict[str, Callable]:
    from cardenvs.ui import demo, play, view
    from train import evaluate

    return {
        "play": play.main,
        "view": view.main,
        "demo": demo.main,
        "evaluate": evaluate.main,
        "ppo.parse": _ppo_parse,
        "ppo.main": _ppo_main,
    }


def cli_case(
    sandbox: Sandbox, folders: Folders, prog: str, argv: list[str], check=None, prepare=None
) -> Case:
    def run():
        cwd = folders.new("cli")
        args = sandbox.fill(argv)
        if prepare is not None:
            args = prepare(cwd, args)
        res = invoke(programs()[prog], args, cwd)
        if sandbox.marker.exists():
            sandbox.marker.unlink()
            raise Finding(
                "security", f"{prog} ran a pickle of a file it was given (the marker exists)"
            )
        if res.kind == "raise":
            raise Finding("error-type", f"traceback: {describe(res.value)}")
        if res.kind == "exit":
            code = res.value
            if code == 2 and "error:" not in res.err:
                raise Finding(
                    "error-type", f"exit 2 without an error message: {short(res.err, 200)}"
                )
            if code not in (0, 2) and not isinstance(code, str):
                raise Finding("error-type", f"exit {code!r}: {short(res.err, 200)}")
        if check is not None:
            check(res, cwd, args)

    label = " ".join(argv)
    return Case(f"{prog} {short(label, 120)}", run)


def _saved_record(res: Run, cwd: Path, args: list[str]) -> None:
    """A game that ran saved its record (where --record says, else under runs/play) and it
    replays."""
    if res.kind != "return":
        return
    if "--record" in args:
        paths = [Path(args[args.index("--record") + 1])]
        paths = [p if p.is_absolute() else cwd / p for p in paths]
    else:
        paths = sorted((cwd / "runs" / "play").glob("*.json"))
    if "--web" in args:
        return  # served and stopped before a move: nothing to save
    if not paths or not paths[0].is_file():
        raise Finding("data-loss", f"the game ran but no record was saved ({paths})")
    try:
        cardenvs.replay(json.loads(paths[0].read_text()))
    except ValueError as e:
        raise Finding("data-loss", f"the saved record does not replay: {e}") from None


def _existing_untouched(name: str, content: str):
    def prepare(cwd, args):
        (cwd / name).write_text(content)
        return args

    def check(res, cwd, args):
        if (cwd / name).read_text() != content:
            raise Finding("data-loss", f"{name} was overwritten")

    return prepare, check


def _record_kept(name: str):
    """The record file ``name`` (the valid record, copied into the case's folder) still holds
    the record afterwards."""

    def prepare(cwd, args):
        (cwd / name).write_text(json.dumps(base_records()["piquet deal"]))
        return args

    def check(res, cwd, args):
        try:
            json.loads((cwd / name).read_text())
        except ValueError:
            raise Finding("data-loss", f"the record {name} was overwritten by the page") from None

    return prepare, check


def cli_catalogue(sandbox: Sandbox, folders: Folders) -> list[Case]:
    c = []

    def add(prog, argv, check=None, prepare=None):
        c.append(cli_case(sandbox, folders, prog, argv, check, prepare))

    deal = '{"episode": "deal"}'
    configs = [
        "{",
        "[]",
        '"x"',
        "null",
        "NaN",
        '{"episode": 5}',
        '{"frobnicate": 1}',
        '{"episode": "deal", "reward": "x"}',
        '{"num_players": 3}',
        '{"episode": "deal", "render_mode": "human"}',
        "[" * 100_000 + "]" * 100_000,
        '{"episode": "' + MARKUP + '"}',
    ]
    seeds = [
        "-1",
        "-9223372036854775808",
        "9223372036854775808",
        "18446744073709551616",
        "abc",
        "1e3",
        "0x10",
        "",
        "1.5",
    ]
    # play: the game is left at once (stdin at its end) and saved
    add("play", [])
    add("play", ["nope-v0"])
    add("play", ["--help"])
    add("play", ["piquet-v0", "--frobnicate"])
    for seat in ["-1", "2", "99", "abc", "1.5", "", "99999999999999999999999"]:
        add("play", ["piquet-v0", "--seat", seat, "--config", deal])
    for seed in seeds:
        add("play", ["piquet-v0", "--seed", seed, "--config", deal], _saved_record)
    add("play", ["piquet-v0", "--seed", str(MAX_SEED), "--config", deal], _saved_record)
    for config in configs:
        add("play", ["piquet-v0", "--config", config], _saved_record)
    for against in [
        "nobody",
        "zoo",
        "{missing}.npz",
        "{dir_npz}",
        "{random_npz}",
        "{pickle_npz}",
        "{pickle_zip}",
        "{esel_model}",
        "heuristic",
        "ismcts",
    ]:
        add(
            "play",
            ["piquet-v0", "--against", against, "--config", deal, "--iterations", "5"],
            _saved_record,
        )
    for iterations in ["0", "-1", "x"]:
        add("play", ["piquet-v0", "--against", "ismcts", "--iterations", iterations])
    prep, chk = _existing_untouched("old.json", "keep")
    add("play", ["piquet-v0", "--record", "old.json", "--config", deal], chk, prep)
    add("play", ["piquet-v0", "--record", "{dir}", "--config", deal])
    add("play", ["piquet-v0", "--record", "{missing}", "--config", deal])
    add("play", ["piquet-v0", "--record", "rec.json", "--config", deal], _saved_record)
    add("play", ["piquet-v0", "--record", "caf\udcff.json", "--config", deal], _saved_record)
    add("play", ["piquet-v0", "--record", "", "--config", deal], _saved_record)
    add("play", ["piquet-v0", "--record", "/dev/null", "--config", deal])
    add("play", ["piquet-v0", "--web", "--no-browser", "--config", deal, "--record", "w.json"])
    add("play", ["piquet-v0", "--web", "--config", deal])
    prep, chk = _existing_untouched("old.json", "keep")
    add("play", ["piquet-v0", "--web", "--no-browser", "--record", "old.json"], chk, prep)
    add("play", ["piquet-v0", "--seat", "1", "--config", deal], _saved_record)
    add("play", ["esel-v0", "--seat", "3", "--config", '{"episode": "deal", "num_players": 3}'])
    # view
    add("view", [])
    add("view", ["--help"])
    add("view", ["{record}", "--frobnicate"])
    for src in [
        "{missing}",
        "{dir}",
        "{non_utf8}",
        "{empty}",
        "{deep}",
        "{nan}",
        "{list_json}",
        "{not_record}",
        "{random_npz}",
    ]:
        add("view", [src, "-o", "out.html"])
    add("view", ["{record}", "-o", "out.html"])
    for seat in ["-1", "2", "99", "abc", "1.5", "", "1", "0"]:
        add("view", ["{record}", "--seat", seat, "-o", "out.html"])
    add("view", ["{record}", "-o", "{missing}"])
    add("view", ["{record}", "-o", "{dir}"])
    prep, chk = _record_kept("rec.json")
    add("view", ["rec.json", "-o", "rec.json"], chk, prep)
    prep, chk = _record_kept("rec.html")
    add("view", ["rec.html"], chk, prep)
    # demo (single deals where a whole game would be long)
    add("demo", ["--help"])
    add("demo", ["--frobnicate"])
    add("demo", ["--game", "nope-v0"])
    add("demo", ["--game", "piquet-v0"])
    for seed in seeds + [str(MAX_SEED)]:
        add("demo", ["--seed", seed, "--config", deal])
    for config in configs:
        add("demo", ["--config", config])
    for game in cardenvs.GAMES:
        add("demo", ["--game", game, "--config", deal, "--seed", "3"])
    # train.evaluate: one game against random
    base = ["--game", "piquet-v0", "--n", "1", "--against", "random", "--config", deal]
    add("evaluate", [])
    add("evaluate", ["{model}", "--n", "1", "--against", "random"])
    add("evaluate", ["{model}", *base])
    for model in [
        "{missing}",
        "{dir}",
        "{dir_npz}",
        "{random_npz}",
        "{pickle_npz}",
        "{pickle_zip}",
        "{esel_model}",
        "{record}",
    ]:
        add("evaluate", [model, *base])
    for n in ["0", "-1", "abc", "1.5"]:
        add("evaluate", ["{model}", "--game", "piquet-v0", "--n", n])
    for config in ["{", "[]", "null", '{"episode": 5}', '{"frobnicate": 1}', "[" * 100_000]:
        add(
            "evaluate",
            [
                "{model}",
                "--game",
                "piquet-v0",
                "--n",
                "1",
                "--against",
                "random",
                "--config",
                config,
            ],
        )
    for against in ["nobody", "ppo:{missing}", "ppo:{random_npz}", "ppo:{pickle_zip}"]:
        add(
            "evaluate",
            ["{model}", "--game", "piquet-v0", "--n", "1", "--config", deal, "--against", against],
        )
    for seed in ["-1", "18446744073709551616", "abc"]:
        add("evaluate", ["{model}", *base, "--seed", seed])
    add("evaluate", ["{model}", *base, "--search", "-1"])
    add("evaluate", ["{model}", *base, "--side", "--all-seatings"])
    add("evaluate", ["{model}", *base, "--json", "{missing}"])
    add("evaluate", ["{model}", *base, "--json", "{dir}"])
    # train.ppo: its arguments (parse), and main only where it stops before training
    add("ppo.parse", ["--help"])
    add("ppo.parse", ["--frobnicate"])
    add("ppo.parse", ["--game", "nope-v0"])
    for key, values in (
        ("--config", ["{", "[]", "null", '{"episode": 5}', '{"frobnicate": 1}', "[" * 100_000]),
        ("--eval-config", ["{", "[]", '{"episode": 5}']),
        ("--total-timesteps", ["0", "-1", "abc", "1e3"]),
        ("--minutes", ["-1", "nan", "abc"]),
        ("--num-envs", ["0", "-1"]),
        ("--net", ["0", "-1", "a"]),
        ("--activation", ["sigmoid"]),
        ("--league-share", ["2", "-0.1", "nan"]),
        (
            "--league",
            [
                "nobody",
                "model:{missing}",
                "model:{random_npz}",
                "model:{pickle_zip}",
                "model:{esel_model}",
                "ppo:x",
            ],
        ),
        ("--gamma", ["2", "nan"]),
        ("--learning-rate", ["0", "-1"]),
        ("--seed", ["-1", "abc", "18446744073709551616"]),
        ("--eval-seating", ["nobody"]),
    ):
        for value in values:
            add("ppo.parse", [key, value])
    tiny = [
        "--total-timesteps",
        "1",
        "--minutes",
        "0.05",
        "--num-envs",
        "1",
        "--num-steps",
        "1",
        "--eval-every",
        "1",
        "--eval-games",
        "1",
        "--threads",
        "1",
        "--no-progress",
    ]
    add("ppo.main", [*tiny, "--device", "nope"])
    add("ppo.main", [*tiny, "--out", "{record}"])
    return c


def cli_fuzz(sandbox: Sandbox, folders: Folders, rng):
    """Random argv of demo and play: options from hostile lists, single deals."""
    values = {
        "--seed": ["-1", "0", "7", "2**64", "18446744073709551616", "x", "", "1.5"],
        "--config": [
            '{"episode": "deal"}',
            "{",
            "[]",
            '{"episode": 5}',
            '{"episode": "deal", "num_players": 9}',
        ],
        "--seat": ["0", "1", "-1", "9", "x"],
        "--against": ["random", "nobody", "{random_npz}", "{pickle_zip}"],
        "--game": ["piquet-v0", "esel-v0", "nope"],
    }

    def make(k: int) -> Case:
        prog = "demo" if rng.random() < 0.5 else "play"
        keys = ["--seed", "--config"] + (["--seat", "--against"] if prog == "play" else ["--game"])
        argv = ["piquet-v0"] if prog == "play" else []
        for key in keys:
            if rng.random() < 0.6:
                options = values[key]
                argv += [key, options[int(rng.integers(len(options)))]]
        if "--config" not in argv or argv[argv.index("--config") + 1] == '{"episode": "deal"}':
            argv = [a for a in argv]
            if "--config" not in argv:
                argv += ["--config", '{"episode": "deal"}']
        return cli_case(sandbox, folders, prog, argv, _saved_record if prog == "play" else None)

    return make


def surface_cli(rng, n: int, folders: Folders, timeout: float) -> list[Outcome]:
    import cardenvs.zoo  # noqa: F401  (the sandbox copies its models)

    sandbox = Sandbox(folders.new("cli-files"))
    return run_cases(
        "cli",
        choose(rng, cli_catalogue(sandbox, folders), cli_fuzz(sandbox, folders, rng), n),
        timeout,
    )
