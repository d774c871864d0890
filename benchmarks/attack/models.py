"""The ``models`` surface: files built in a temporary folder (empty, truncated, random bytes,
``.npy``, pickles and zips of pickles whose ``__reduce__`` would create a marker file, object
arrays, members without ``.npy`` data, headers of the wrong types, missing fields, huge sizes,
JSON nested 100,000 deep, non-finite or mis-shaped weights, random bytes changed; foreign models
beside a valid one in a zoo folder), loaded by ``NumpyPolicy.load``, ``read_header``,
``agents.policy.PolicyAgent`` and ``cardenvs.zoo.list`` / ``load``.

Expected: ``ValueError`` naming the file (the loaders that read only the header may take a file
whose weights are bad; a model of another game loads, and ``PolicyAgent`` refuses it); the
marker never created.
"""

from __future__ import annotations

import builtins
import copy
import json
import pickle
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

import cardenvs
from benchmarks.attack.common import (
    MARKUP,
    Case,
    Finding,
    Folders,
    Outcome,
    choose,
    refuses,
    run_cases,
)
from cardenvs.core.checks import brief


class Marker:
    """Unpickled, creates the file ``path`` (``open(path, "w")``): code a model must not run."""

    def __init__(self, path: str):
        self.path = path

    def __reduce__(self):
        return (builtins.open, (self.path, "w"))


class ModelLab:
    """A valid piquet-v0 model (an MLP of one hidden layer of 8), and writers of its hostile
    variants."""

    GAME = "piquet-v0"

    def __init__(self):
        from cardenvs.policy import FORMAT, FORMAT_VERSION, actions_id, layout_id

        info = cardenvs.game_info(self.GAME)
        self.header = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.GAME,
            "config": {"episode": "deal"},
            "obs_dim": int(info.obs_dim),
            "num_actions": int(info.num_actions),
            "obs_layout": layout_id(self.GAME),
            "actions": actions_id(self.GAME),
            "net": {"hidden": [8], "activation": "tanh"},
            "command": "benchmarks.attack",
            "timesteps": 0,
            "zoo": {"name": "attack", "play_config": {}, "evaluation": {}},
        }
        rng = np.random.default_rng(0)
        self.arrays = {}
        for prefix, out in (("pi", info.num_actions), ("vf", 1)):
            sizes = [info.obs_dim, 8, out]
            for k in range(2):
                w = rng.standard_normal((sizes[k + 1], sizes[k])).astype(np.float32) * 0.1
                self.arrays[f"{prefix}.{k}.weight"] = w
                self.arrays[f"{prefix}.{k}.bias"] = np.zeros(sizes[k + 1], np.float32)

    def write(self, path: Path, header=None, arrays=None, header_array=None, drop=()) -> None:
        entries = dict(self.arrays if arrays is None else arrays)
        if header_array is None:
            header_array = np.array(json.dumps(self.header if header is None else header))
        entries["header"] = header_array
        for key in drop:
            entries.pop(key, None)
        with open(path, "wb") as f:
            np.savez(f, **entries)

    def valid_bytes(self, folder: Path) -> bytes:
        path = folder / "valid.npz"
        self.write(path)
        return path.read_bytes()


def _header_with(lab: ModelLab, **changes) -> dict:
    h = copy.deepcopy(lab.header)
    for key, value in changes.items():
        if value is _DROP:
            h.pop(key, None)
        else:
            h[key] = value
    return h


_DROP = object()


def model_variants(lab: ModelLab) -> list[tuple[str, Callable, str]]:
    """``(name, writer(path, marker), kind)``: kind "bad" (every loader refuses it, naming the
    file), "arrays" (a well-formed header but bad weights: the loaders that read the weights
    refuse it, naming the file), "foreign" (a well-formed model of another game or layout: the
    agent refuses it), "either" (well-formed enough: loading may succeed)."""
    v: list[tuple[str, Callable, str]] = []

    def header(name, kind="bad", **changes):
        v.append((f"header {name}", lambda p, m: lab.write(p, _header_with(lab, **changes)), kind))

    def net(name, value, kind="bad"):
        header(f"net {name}", kind, net=value)

    from cardenvs.policy import HEADER_FIELDS

    for field in HEADER_FIELDS:
        header(f"without {field!r}", **{field: _DROP})
    for value in ("other", 1, None):
        header(f"format {brief(value)}", format=value)
    for value in (2, "1", 1.0, True, None, 10**30):
        header(f"format_version {brief(value)}", format_version=value)
    for value in (1, None, ["piquet-v0"]):
        header(f"game {brief(value)}", game=value)
    header("game of an unknown id", "foreign", game="nonexistent-v0")
    header("game of another id", "foreign", game="esel-v0")
    for value in ([], "x", None):
        header(f"config {brief(value)}", config=value)
    for key in ("obs_dim", "num_actions"):
        for value in (0, -1, "5", 5.0, True, None):
            header(f"{key} {brief(value)}", **{key: value})
        for value in (10**12, 2**63, 10**100):
            header(f"{key} {brief(value)}", "arrays", **{key: value})
    for key in ("obs_layout", "actions"):
        for value in (1, None):
            header(f"{key} {brief(value)}", **{key: value})
        header(f"{key} of another layout", "foreign", **{key: "sha256:0000000000000000"})
    for name, value in (
        ("a list", []),
        ("a string", "x"),
        ("hidden a string", {"hidden": "8", "activation": "tanh"}),
        ("hidden [0]", {"hidden": [0], "activation": "tanh"}),
        ("hidden [-1]", {"hidden": [-1], "activation": "tanh"}),
        ("hidden [8.0]", {"hidden": [8.0], "activation": "tanh"}),
        ("hidden [true]", {"hidden": [True], "activation": "tanh"}),
        ("activation sigmoid", {"hidden": [8], "activation": "sigmoid"}),
        ("activation null", {"hidden": [8], "activation": None}),
        ("without activation", {"hidden": [8]}),
    ):
        net(name, value)
    for name, value in (
        ("hidden [10**9]", {"hidden": [10**9], "activation": "tanh"}),
        ("hidden [8, 8]", {"hidden": [8, 8], "activation": "tanh"}),
        ("hidden []", {"hidden": [], "activation": "tanh"}),
    ):
        net(name, value, "arrays")

    def header_text(name, text, kind="bad"):
        v.append(
            (f"header text {name}", lambda p, m: lab.write(p, header_array=np.array(text)), kind)
        )

    header_text("a list", "[]")
    header_text("a number", "1")
    header_text("null", "null")
    header_text("not JSON", "{")
    header_text("NaN", "NaN")
    header_text("nested 100000 deep", "[" * 100_000 + "]" * 100_000)
    header_text("an object nested 100000 deep", '{"a":' * 100_000 + "1" + "}" * 100_000)
    header_text("of U+2028 and markup", json.dumps(MARKUP))
    v.append(
        (
            "header of 1 MB (a long command)",
            lambda p, m: lab.write(p, _header_with(lab, command="x" * 1_000_000)),
            "either",
        )
    )
    v.append(
        (
            "header as bytes",
            lambda p, m: lab.write(p, header_array=np.bytes_(json.dumps(lab.header).encode())),
            "bad",
        )
    )
    v.append(
        (
            "header a 1-d array",
            lambda p, m: lab.write(p, header_array=np.array([json.dumps(lab.header)])),
            "bad",
        )
    )
    v.append(("header an int array", lambda p, m: lab.write(p, header_array=np.arange(3)), "bad"))

    def obj_header(p, m):
        a = np.empty((), object)
        a[()] = Marker(m)
        lab.write(p, header_array=a)

    v.append(("header a pickled object (marker)", obj_header, "bad"))
    v.append(("without a header", lambda p, m: lab.write(p, drop=("header",)), "bad"))

    def weights(name, key, value, kind="arrays"):
        def write(p, m):
            arrays = dict(lab.arrays)
            arrays[key] = value(arrays[key], m) if callable(value) else value
            lab.write(p, arrays=arrays)

        v.append((f"{key} {name}", write, kind))

    def filled(x):
        return lambda a, m: np.full_like(a, x)

    weights("nan", "pi.0.weight", filled(np.nan))
    weights("inf", "pi.1.bias", filled(np.inf))
    weights("-inf", "vf.0.weight", filled(-np.inf))
    weights("1e39 (beyond float32)", "pi.0.weight", lambda a, m: np.full(a.shape, 1e39))
    weights("bool", "pi.0.weight", lambda a, m: a > 0)
    weights("complex", "pi.0.weight", lambda a, m: a.astype(np.complex64))
    weights("strings", "pi.0.bias", lambda a, m: a.astype(str))
    weights("transposed", "pi.0.weight", lambda a, m: a.T.copy())
    weights("3-d", "pi.0.weight", lambda a, m: a[None])
    weights("0-d", "pi.0.bias", np.float32(0))
    weights("empty", "pi.1.weight", np.zeros((0, 8), np.float32))
    weights("int", "pi.0.weight", lambda a, m: (a * 10).astype(np.int32), "either")
    weights("float16", "pi.0.weight", lambda a, m: a.astype(np.float16), "either")
    weights("3e38 (finite)", "pi.1.weight", lambda a, m: np.full_like(a, 3e38), "either")

    def obj_weights(a, m):
        b = np.empty(a.shape[:1], object)
        b[0] = Marker(m)
        return b

    weights("a pickled object array (marker)", "pi.0.weight", obj_weights)
    for key in ("pi.0.bias", "vf.1.weight"):
        v.append((f"without {key}", lambda p, m, key=key: lab.write(p, drop=(key,)), "arrays"))

    def extra(key, kind):
        def write(p, m):
            arrays = dict(lab.arrays)
            arrays[key] = np.zeros((3, 3), np.float32)
            lab.write(p, arrays=arrays)

        v.append((f"an extra array {key!r}", write, kind))

    extra("pi.2.weight", "arrays")
    extra("vf.9.bias", "arrays")
    extra("foo", "either")

    # files that are no model at all
    def data(name, make):
        v.append((name, make, "bad"))

    data("an empty file", lambda p, m: p.write_bytes(b""))
    data("random bytes", lambda p, m: p.write_bytes(np.random.default_rng(1).bytes(5000)))
    data("a zip signature and garbage", lambda p, m: p.write_bytes(b"PK\x03\x04" + b"\x00" * 100))
    data("a .npy array", lambda p, m: _npy(p, np.zeros(3)))
    data("a .npy object array (marker)", lambda p, m: _npy(p, np.array([Marker(m)], object)))
    data("a pickle (marker)", lambda p, m: p.write_bytes(pickle.dumps(Marker(m))))
    data("JSON text", lambda p, m: p.write_text(json.dumps(lab.header)))

    def zipped(entries):
        def write(p, m):
            with zipfile.ZipFile(p, "w") as z:
                for name, content in entries(m).items():
                    z.writestr(name, content)

        return write

    data("a zip of garbage entries", zipped(lambda m: {"a.txt": b"x", "header": b"y"}))
    data(
        "a zip whose header.npy is random",
        zipped(lambda m: {"header.npy": np.random.default_rng(2).bytes(300)}),
    )
    data(
        "a zip whose header.npy is a pickle (marker)",
        zipped(lambda m: {"header.npy": pickle.dumps(Marker(m))}),
    )
    data("a zip holding a zip", zipped(lambda m: {"inner.zip": b"PK\x05\x06" + b"\x00" * 18}))
    data(
        "an SB3-like zip of pickles (marker)",
        zipped(
            lambda m: {
                "data": b"{}",
                "policy.pth": pickle.dumps(Marker(m)),
                "pytorch_variables.pth": pickle.dumps(Marker(m)),
            }
        ),
    )

    def truncated(frac):
        def write(p, m):
            full = lab.valid_bytes(p.parent)
            p.write_bytes(full[: max(1, int(len(full) * frac))])

        return write

    for frac in (0.001, 0.1, 0.5, 0.9, 0.999):
        data(f"the model truncated to {frac:.1%}", truncated(frac))
    return v


def _npy(path: Path, array: np.ndarray) -> None:
    with open(path, "wb") as f:
        np.save(f, array, allow_pickle=True)


def model_entries(lab: ModelLab):
    """The loaders: ``(name, call(path), checks the game, reads the weights)``."""
    from cardenvs import zoo
    from cardenvs.agents.policy import PolicyAgent
    from cardenvs.policy import NumpyPolicy, read_header

    def zoo_list(path: Path):
        # the case's folder: the file and a valid zoo model beside it
        lab.write(path.parent / "aaa-valid.npz")
        return zoo.list(path.parent)

    # (name, call, checks the game, reads the weights)
    return [
        ("NumpyPolicy.load", NumpyPolicy.load, False, True),
        ("read_header", read_header, False, False),
        ("PolicyAgent", lambda p: PolicyAgent(p, lab.GAME), True, True),
        ("zoo.list", zoo_list, False, False),
    ]


def model_case(lab, folders, variant, entry, file_name="model.npz") -> Case:
    (vname, write, kind), (ename, load, agent, weights) = variant, entry

    def run():
        folder = folders.new("model")
        path = folder / file_name
        marker = folder / "MARKER"
        write(path, str(marker))
        try:
            if kind == "bad" or (kind == "arrays" and weights):
                refuses(lambda: load(path), names=(path.name,))
            elif kind == "foreign" and agent:
                refuses(lambda: load(path))
            else:
                refuses(lambda: load(path), accept=True)
        finally:
            if marker.exists():
                raise Finding(
                    "security", f"loading {vname} with {ename} ran its pickle (the marker exists)"
                )

    return Case(f"{ename}: {vname}", run)


def model_extra_cases(lab: ModelLab, folders: Folders) -> list[Case]:
    from cardenvs import zoo
    from cardenvs.agents.policy import PolicyAgent
    from cardenvs.policy import NumpyPolicy

    cases = []

    def agent_suffix(suffix, trusted=False):
        def run():
            folder = folders.new("model")
            path = folder / f"model{suffix}"
            marker = folder / "MARKER"
            path.write_bytes(pickle.dumps(Marker(str(marker))))
            try:
                refuses(lambda: PolicyAgent(path, lab.GAME, trusted=trusted), names=(path.name,))
            finally:
                if marker.exists():
                    raise Finding("security", f"PolicyAgent ran the pickle of a {suffix} file")

        return run

    for suffix in (".zip", ".ZIP", ".pkl", ".pt", ".pth", ".npz.zip", ""):
        cases.append(
            Case(
                f"PolicyAgent: a pickle named model{suffix} (marker), untrusted",
                agent_suffix(suffix),
            )
        )

    def missing(kind):
        def run():
            folder = folders.new("model")
            path = {
                "a missing file": folder / "missing.npz",
                "a directory": folder,
                "a directory named .npz": folder / "d.npz",
            }[kind]
            if kind == "a directory named .npz":
                path.mkdir()
            refuses(lambda: NumpyPolicy.load(path), names=(path.name,))
            refuses(lambda: PolicyAgent(path, lab.GAME))

        return run

    for kind in ("a missing file", "a directory", "a directory named .npz"):
        cases.append(Case(f"NumpyPolicy.load, PolicyAgent: {kind}", missing(kind)))

    def nul_path():
        refuses(lambda: NumpyPolicy.load("model\x00.npz"))

    cases.append(Case("NumpyPolicy.load: a path with a NUL byte", nul_path))

    def zoo_block(name, value):
        def run():
            folder = folders.new("zoo")
            lab.write(folder / "aaa-valid.npz")
            h = copy.deepcopy(lab.header)
            if value is _DROP:
                h.pop("zoo")
            else:
                h["zoo"] = value
            bad = folder / "foreign.npz"
            lab.write(bad, h)
            refuses(lambda: zoo.list(folder), names=(bad.name,))
            refuses(lambda: zoo.load(lab.GAME, directory=folder), names=(bad.name,))

        return run

    for name, value in (
        ("without a zoo block", _DROP),
        ("a zoo block that is a string", "x"),
        ("play_config a list", {"play_config": [], "evaluation": {}}),
        ("evaluation a list", {"play_config": {}, "evaluation": []}),
        ("play_config num_players 99", {"play_config": {"num_players": 99}}),
        ("play_config num_players '2'", {"play_config": {"num_players": "2"}}),
        ("play_config an unknown option", {"play_config": {"frobnicate": 1}}),
        ("play_config episode 5", {"play_config": {"episode": 5}}),
    ):
        cases.append(
            Case(f"zoo.list, zoo.load: a model {name} beside a valid one", zoo_block(name, value))
        )

    def zoo_control():
        folder = folders.new("zoo")
        lab.write(folder / "aaa-valid.npz")
        models = zoo.list(folder)
        if len(models) != 1:
            raise Finding("error-type", f"zoo.list of one valid model: {models}")
        zoo.load(lab.GAME, directory=folder)
        NumpyPolicy.load(folder / "aaa-valid.npz")
        PolicyAgent(folder / "aaa-valid.npz", lab.GAME)

    return [Case("control: the valid model loads everywhere", zoo_control)], cases


def surface_models(rng, n: int, folders: Folders, timeout: float) -> list[Outcome]:
    lab = ModelLab()
    variants = model_variants(lab)
    entries = model_entries(lab)
    first, extra = model_extra_cases(lab, folders)
    catalogue = [model_case(lab, folders, v, e) for v in variants for e in entries] + extra

    def fuzz(k: int) -> Case:
        flips = int(rng.integers(1, 9))
        seed = int(rng.integers(2**31))
        entry = entries[int(rng.integers(len(entries)))]

        def write(p, m):
            data = bytearray(lab.valid_bytes(p.parent))
            r = np.random.default_rng(seed)
            for i in r.integers(0, len(data), flips):
                data[i] = int(r.integers(256))
            p.write_bytes(bytes(data))

        return model_case(
            lab, folders, (f"fuzz {k}: {flips} random byte(s) changed", write, "either"), entry
        )

    return run_cases("models", choose(rng, catalogue, fuzz, n, first=first), timeout)
