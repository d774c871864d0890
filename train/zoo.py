"""Package trained models into the zoo (``cardenvs/zoo/models/<setting>.npz``).

    python -m train.table --jobs 2                # train every setting (models in runs/table)
    python -m train.zoo                           # package every setting's model
    python -m train.zoo --only esel-v0_2p --runs runs/table
    python -m train.zoo --table                   # the shipped models' table (README)
    python -m train.zoo --reevaluate              # play the shipped models' evaluation again
    python -m train.zoo --reevaluate --only esel-v0_2p --games 400 --seed 1
    python -m train.zoo --only piquet-v0 --ismcts zoo_vs_ismcts.json   # a new ISMCTS-400 result

For each setting of ``train/table.py`` (a game id, or two-player Banque and Esel), the run's final
model (``<runs>/<setting>/model.npz``) is copied into the zoo with a ``zoo`` block added to its
header: the setting's name, the config the model plays (``play_config``: ``num_players`` where the
game has a choice), and its ``evaluation``: the trainer's last evaluation of the final model (whole
games against random and the heuristic, the model alone in each seat or as a side, 95% Wilson
intervals, from the run's ``eval.csv``) and the ISMCTS result where the run has one
(``ismcts.json``); each result keeps the games won / drawn / lost and the mean reward with its 95%
interval (``wins``, ``draws``, ``losses``, ``mean_return``, ``return_ci95``) where the run counted
them (runs before they were counted: the win rate and mean reward alone). The training command,
commit and learner decisions are already in the header (``train/ppo.py`` writes them). The model is
checked against the installed game first, and the packaged file must load through ``cardenvs.zoo``
before it is kept.

``--reevaluate`` plays a shipped model's whole-game evaluation again, as the native trainer's
final evaluation does (``train.evaluate.trainer_evaluation``, through ``train.evaluate.evaluate``
and ``cardenvs.arena.head_to_head``): the setting's training config with the trainer's
``eval_config`` over it (whole games, ``reward="win"``, ``train/hyperparams.py``), the model
(greedy) alone in each seat (``solo``), or as a side in partnership Piquet (``side``), against
random and the heuristic, ``--games`` games per opponent split over the seatings (400, the
trainer's ``--eval-games``), seeded with ``--seed`` (1: the trainer's default ``--seed 0`` plus
one, as it seeds its evaluations), under the rules the installed game has now. The header's
``random`` and ``heuristic`` results are replaced (written as packaging writes them: wins, draws,
losses, mean reward with its interval); the ``ismcts`` result, ``learner_decisions`` and the
weights are kept (every array is compared before the file is replaced), and
``evaluation["reevaluated"]`` records the date, games, seed, commit, command, config and seating.

``--ismcts RESULT.json`` (with one ``--only`` setting) puts a measured ISMCTS-400 result into a
shipped model's header (``set_ismcts``): the JSON file of ``python -m cardenvs.arena match zoo
ismcts@400 --game <id> --config '{"episode": "deal"}' --n 200 --jobs 2 --json RESULT.json``,
checked to be that match for that setting; it keeps its decks and command, and the weights and
other results are kept.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

# one BLAS thread: the evaluation's small forward passes are many times slower with a thread per
# core on a shared machine (as in train/ppo.py)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import cardenvs  # noqa: E402
import cardenvs.zoo  # noqa: E402
from cardenvs.policy import NumpyPolicy  # noqa: E402
from train import hyperparams  # noqa: E402
from train.table import ROOT, RUNS, SETTINGS, outcome_text  # noqa: E402

MAX_BYTES = 2_000_000  # a zoo model stays well under 2 MB (package data)


def _number(x, kind=float):
    """A field of an evaluation row (a CSV string or a JSON value) or None where it is empty."""
    return None if x in (None, "") else kind(float(x))


def _result(r: dict, episode: str) -> dict:
    """One evaluation row (``eval.csv``'s or ``train.evaluate``'s JSON) as the header keeps it;
    the wins, draws, losses and the mean reward's interval where the row has them."""
    out = {
        "games": int(r["games"]),
        "win_rate": float(r["win_rate"]),
        "ci95": [float(r["ci_low"]), float(r["ci_high"])],
        "baseline": float(r["baseline"]),
        "mean_return": float(r["mean_return"]),
        "episode": episode,
    }
    if all(r.get(k) not in (None, "") for k in ("wins", "draws", "losses")):
        out |= {k: _number(r[k], int) for k in ("wins", "draws", "losses")}
        out["return_ci95"] = [_number(r.get("return_ci_low")), _number(r.get("return_ci_high"))]
    return out


def final_evaluation(run: Path) -> dict:
    """The trainer's last evaluation in ``run/eval.csv`` (one row per opponent at the last
    ``timesteps``), and ``run/ismcts.json`` where there is one."""
    path = run / "eval.csv"
    if not path.is_file():
        raise ValueError(f"{path} is missing: the run has no evaluation")
    rows = list(csv.DictReader(path.open()))
    if not rows:
        raise ValueError(f"{path} has no rows")
    last = max(int(r["timesteps"]) for r in rows)
    out = {r["opponent"]: _result(r, "game") for r in rows if int(r["timesteps"]) == last}
    ismcts = run / "ismcts.json"
    if ismcts.is_file():
        for r in json.loads(ismcts.read_text())["results"]:
            decks = {"decks": int(r["decks"])} if r.get("decks") else {}
            out[r["opponent"]] = _result(r, "deal") | decks
    out["learner_decisions"] = last
    return out


def package(name: str, runs: Path, models: Path) -> Path:
    """Copy setting ``name``'s model from ``runs`` into ``models`` with its ``zoo`` block."""
    if name not in SETTINGS:
        raise ValueError(f"unknown setting {name!r}; settings: {list(SETTINGS)}")
    env_id, override = SETTINGS[name]
    run = runs / name
    policy = NumpyPolicy.load(run / "model.npz")
    policy.check(env_id)
    game = cardenvs.game_info(env_id)
    fields = {f.name for f in game.config_cls.kernel_fields()}
    play = {"num_players": override["num_players"]} if "num_players" in override else {}
    if "num_players" in fields and not play:
        play = {"num_players": cardenvs.zoo._num_players(env_id, {})}
    policy.header["zoo"] = {
        "name": name,
        "play_config": play,
        "evaluation": final_evaluation(run),
    }
    models.mkdir(parents=True, exist_ok=True)
    out = models / f"{name}.npz"
    policy.save(out)
    size = out.stat().st_size
    if size > MAX_BYTES:
        out.unlink()
        raise ValueError(f"{name}: the model is {size:,} bytes, over the zoo's {MAX_BYTES:,}")
    cardenvs.zoo._read_header.cache_clear()
    agent = cardenvs.zoo.load(env_id, directory=models, **play)
    if agent.model.path != out:
        raise ValueError(f"{name}: cardenvs.zoo.load picks {agent.model.path}, not {out}")
    return out


OPPONENTS = ("random", "heuristic")  # the trainer's evaluation (``trainer_evaluation``)


def evaluation_setup(name: str) -> tuple[str, dict, str, int]:
    """The game id, the evaluation config, the seating and the number of seatings of the native
    trainer's evaluation of setting ``name``: its training config (``train/hyperparams.py``'s with
    the setting's override, as ``train.table`` passes it) with the trainer's ``eval_config`` over
    it, and ``side`` (one seating a side) where a side holds several seats (partnership Piquet),
    else ``solo`` (one a seat), as ``--eval-seating auto``."""
    env_id, override = SETTINGS[name]
    defaults = hyperparams.native_defaults(env_id)
    config = json.loads(defaults["config"]) | override
    config |= json.loads(defaults["eval_config"])
    venv = cardenvs.make_vector(env_id, 1, seed=0, **config)
    if any(len(s) > 1 for s in venv.sides):
        return env_id, config, "side", len(venv.sides)
    return env_id, config, "solo", venv.num_seats


def _arrays(path: Path) -> dict:
    """Every array of a ``.npz`` model but its header, as stored (no pickles)."""
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files if k != "header"}


def _short_commit() -> str | None:
    """The checkout's HEAD as a short hash, or None outside git."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


def _shipped(name: str, models: Path) -> tuple[Path, str, NumpyPolicy, dict]:
    """Setting ``name``'s shipped model in ``models``: its path, game id, policy and zoo block;
    ``ValueError`` where it is missing or not that setting's."""
    if name not in SETTINGS:
        raise ValueError(f"unknown setting {name!r}; settings: {list(SETTINGS)}")
    path = Path(models) / f"{name}.npz"
    if not path.is_file():
        raise ValueError(f"{path} is missing: no model to evaluate")
    env_id = SETTINGS[name][0]
    policy = NumpyPolicy.load(path)
    policy.check(env_id)
    zoo = policy.header.get("zoo")
    if not isinstance(zoo, dict) or zoo.get("name", name) != name:
        raise ValueError(f"{path}: the header's zoo block is not setting {name!r}'s")
    return path, env_id, policy, zoo


def _rewrite_evaluation(name: str, path: Path, policy: NumpyPolicy, evaluation: dict) -> Path:
    """Write ``evaluation`` into the header of the shipped model at ``path``, keeping its
    weights: the file is replaced only once its arrays equal the old ones and it is under
    ``MAX_BYTES``; it must then load through ``cardenvs.zoo.load`` (else the old file is put
    back)."""
    env_id = SETTINGS[name][0]
    zoo = policy.header["zoo"]
    old_bytes = path.read_bytes()
    before = _arrays(path)
    policy.header["zoo"] = dict(zoo) | {"evaluation": evaluation}
    tmp = path.with_name(f".{path.name}.tmp")  # not *.npz: cardenvs.zoo never lists it
    try:
        policy.save(tmp)
        after = _arrays(tmp)
        same = before.keys() == after.keys() and all(
            before[k].dtype == after[k].dtype
            and before[k].shape == after[k].shape
            and np.array_equal(before[k], after[k])
            for k in before
        )
        if not same:
            raise ValueError(f"{name}: the re-saved weights differ from the shipped ones")
        size = tmp.stat().st_size
        if size > MAX_BYTES:
            raise ValueError(f"{name}: the model is {size:,} bytes, over the zoo's {MAX_BYTES:,}")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    try:
        cardenvs.zoo._read_header.cache_clear()
        agent = cardenvs.zoo.load(env_id, directory=path.parent, **zoo.get("play_config", {}))
        if agent.model.path != path:
            raise ValueError(f"{name}: cardenvs.zoo.load picks {agent.model.path}, not {path}")
    except (OSError, ValueError):
        path.write_bytes(old_bytes)
        cardenvs.zoo._read_header.cache_clear()
        raise
    return path


def _stamp() -> dict:
    """When and at which commit a header's result was written."""
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": _short_commit(),
    }


def reevaluate(
    name: str, models: Path, games: int = 400, seed: int = 1, command: str | None = None
) -> Path:
    """Play setting ``name``'s model in ``models`` against random and the heuristic again, as the
    native trainer's final evaluation does (``evaluation_setup``; ``games`` per opponent over the
    seatings), and rewrite its header's ``random`` and ``heuristic`` results (``_result``) with a
    ``reevaluated`` record; the other results, ``learner_decisions`` and the weights are kept
    (``_rewrite_evaluation``)."""
    from train.evaluate import evaluate

    if games < 1 or seed < 0:
        raise ValueError(f"games must be at least 1 and seed at least 0, got {games}, {seed}")
    path, env_id, policy, zoo = _shipped(name, models)
    _, config, seating, seatings = evaluation_setup(name)
    n = max(1, games // seatings)  # games per seating, as the trainer splits --eval-games
    solo, side = seating == "solo", seating == "side"
    rows = evaluate(policy, env_id, config, list(OPPONENTS), n, seed, solo=solo, side=side)
    evaluation = dict(zoo.get("evaluation", {}))
    for r in rows:
        evaluation[r["opponent"]] = _result(r, "game")
    evaluation["reevaluated"] = {
        **_stamp(),
        "games": int(games),
        "seed": int(seed),
        "command": command
        or f"python -m train.zoo --reevaluate --only {name} --games {games} --seed {seed}",
        "config": config,
        "seating": seating,
    }
    return _rewrite_evaluation(name, path, policy, evaluation)


ISMCTS_OPPONENTS = ("ismcts@400", "ismcts@400:heuristic")  # the table's column: ISMCTS-400


def set_ismcts(name: str, models: Path, result: Path) -> Path:
    """Put the result of ``python -m cardenvs.arena match zoo ismcts@400 --game <id> --config
    '{"episode": "deal", ...}' --json <result>`` into setting ``name``'s shipped model header
    as its ``ismcts`` result (single deals; the table's ISMCTS-400 column), with the decks, the
    deals and the command that played it; the other results and the weights are kept. The file
    must be such a match of this setting: the zoo's model against ISMCTS with 400 iterations
    and heuristic roll-outs, on single deals of the setting's game and players (``ValueError``
    naming what differs)."""
    path, env_id, policy, zoo = _shipped(name, models)
    try:
        row = json.loads(Path(result).read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{result}: not a readable JSON file: {e}") from None
    need = ("game", "agent", "opponent", "config", "command", "deals", "decks", "games")
    missing = [k for k in need if not isinstance(row, dict) or k not in row]
    if missing:
        raise ValueError(
            f"{result}: not a match written by `python -m cardenvs.arena match ... --json` "
            f"(missing {', '.join(missing)})"
        )
    players = zoo.get("play_config", {}).get("num_players")
    config = row["config"] if isinstance(row["config"], dict) else {}
    wrong = [
        f"{what} is {got!r}, not {want!r}"
        for what, got, want in (
            ("game", row["game"], env_id),
            ("agent", row["agent"], "zoo"),
            ("episode", config.get("episode"), "deal"),
            ("num_players", config.get("num_players", players), players),
            ("deals", row["deals"], "duplicate"),
        )
        if got != want
    ]
    if row["opponent"] not in ISMCTS_OPPONENTS:
        wrong.append(f"opponent is {row['opponent']!r}, not one of {ISMCTS_OPPONENTS}")
    if wrong:
        raise ValueError(f"{result}: not the zoo against ISMCTS-400 for {name}: {'; '.join(wrong)}")
    evaluation = dict(zoo.get("evaluation", {}))
    evaluation["ismcts"] = _result(row, "deal") | {
        "decks": int(row["decks"]),
        "deals": row["deals"],
        "command": row["command"],
        **_stamp(),
    }
    return _rewrite_evaluation(name, path, policy, evaluation)


def _cell(row: dict | None) -> str:
    """A win rate with its 95% Wilson interval: ``0.453 (0.404–0.501)``; ``""`` for no result."""
    if not row:
        return ""
    lo, hi = row["ci95"]
    return f"{row['win_rate']:.3f} ({lo:.3f}–{hi:.3f})"


def _outcome_cells(row: dict | None) -> list[str]:
    """The games won / drawn / lost (``16 / 330 / 54``) and the mean reward with the half-width
    of its 95% interval (``-0.095 ± 0.040``) of a result that counts them; two empty cells for
    one stored before they were counted (or no result)."""
    if not row or any(row.get(k) is None for k in ("wins", "draws", "losses", "mean_return")):
        return ["", ""]
    reward = f"{row['mean_return']:+.3f}"
    lo, hi = row.get("return_ci95") or (None, None)
    if lo is not None and hi is not None:
        reward += f" ± {(hi - lo) / 2:.3f}"
    return [f"{row['wins']} / {row['draws']} / {row['losses']}", reward]


def _search_cell(row: dict | None) -> str:
    """The ISMCTS-400 result in one cell: the win rate with its interval, then the games won /
    drawn / lost, the mean reward and the decks where it counted them (``0.684 (0.637–0.727); 272
    / 3 / 125; +0.367 ± 0.086; 200 decks``); a result stored before draws were counted says so."""
    if not row:
        return ""
    counts, reward = _outcome_cells(row)
    if not counts:
        return f"{_cell(row)}; {row['games']} games, before draws were counted"
    decks = f"; {row['decks']} decks" if row.get("decks") else ""
    return f"{_cell(row)}; {counts}; {reward}{decks}"


def table(models=None) -> str:
    """The zoo's models as a Markdown table (from their headers): the setting, the players, the
    learner decisions trained on, and the evaluation against random and the heuristic (whole
    games, the model alone in each seat or as a side) and ISMCTS with 400 iterations (single
    deals, two-player games). Each of random and the heuristic has three columns: the win rate
    with its 95% Wilson interval (``0.453 (0.404–0.501)``), the games (seats; sides) won /
    drawn / lost (``16 / 330 / 54``) and the mean reward with the half-width of its 95% interval
    (``-0.095 ± 0.040``); the ISMCTS column holds them in one cell (``_search_cell``), and a
    result stored before draws were counted shows the win rate alone."""
    lines = [
        "| model | players | learner decisions | equal strength | vs random | W / D / L "
        "| mean reward | vs heuristic | W / D / L | mean reward | vs ISMCTS-400 (single deals) |",
        "|---|---:|---:|---:|---|---:|---:|---|---:|---:|---|",
    ]
    order = {name: k for k, name in enumerate(SETTINGS)}
    models = cardenvs.zoo.list() if models is None else models
    for m in sorted(models, key=lambda m: order.get(m.name, len(order))):
        ev = m.evaluation
        base = ev.get("heuristic", {}).get("baseline")
        cells = [f"`{m.name}`", str(m.num_players), f"{ev.get('learner_decisions', 0) / 1e6:.1f} M"]
        cells.append(f"{base:.2f}")
        for opponent in OPPONENTS:
            cells += [_cell(ev.get(opponent)), *_outcome_cells(ev.get(opponent))]
        cells.append(_search_cell(ev.get("ismcts")))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _line(path: Path) -> str:
    """A packaged or re-evaluated model's printed line: its size and each result."""
    ev = NumpyPolicy.load(path).header["zoo"]["evaluation"]
    line = ", ".join(
        f"{k} {v['win_rate']:.3f}{outcome_text(v)}"
        for k, v in ev.items()
        if isinstance(v, dict) and "win_rate" in v
    )
    return f"{path} ({path.stat().st_size:,} bytes): {line}"


def main(argv=None) -> list[Path]:
    p = argparse.ArgumentParser(prog="python -m train.zoo", description=__doc__.split("\n")[0])
    p.add_argument("--only", nargs="+", choices=list(SETTINGS), help="these settings only")
    p.add_argument("--runs", default=str(RUNS), help="where train.table's runs are")
    p.add_argument("--models", default=str(cardenvs.zoo.MODELS), help="the zoo's folder")
    p.add_argument("--table", action="store_true", help="only print the zoo's table (Markdown)")
    p.add_argument(
        "--reevaluate",
        action="store_true",
        help="play the models' evaluation against random and the heuristic again (whole games, "
        "as the native trainer's final evaluation) and rewrite those results in their headers",
    )
    p.add_argument(
        "--ismcts",
        metavar="RESULT.json",
        help="with one --only setting: put this `cardenvs.arena match zoo ismcts@400 ... --json` "
        "result (single deals) into the shipped model's header as its ISMCTS-400 result",
    )
    p.add_argument("--games", type=int, help="with --reevaluate: games per opponent (default 400)")
    p.add_argument("--seed", type=int, help="with --reevaluate: the evaluation's seed (default 1)")
    a = p.parse_args(argv)
    if sum(map(bool, (a.table, a.reevaluate, a.ismcts))) > 1:
        p.error("--table, --reevaluate and --ismcts: give one")
    if a.ismcts and (not a.only or len(a.only) != 1):
        p.error("--ismcts goes with one setting: --only <setting>")
    if not a.reevaluate and (a.games is not None or a.seed is not None):
        p.error("--games and --seed go with --reevaluate")
    games = 400 if a.games is None else a.games
    seed = 1 if a.seed is None else a.seed
    if games < 1:
        p.error(f"--games must be at least 1 (games per opponent), got {games}")
    if seed < 0:
        p.error(f"--seed must be at least 0, got {seed}")
    if a.table:
        print(table(cardenvs.zoo.list(a.models)))
        return []
    args = sys.argv[1:] if argv is None else list(argv)
    command = "python -m train.zoo " + shlex.join(args)
    done = []
    for name in a.only or list(SETTINGS):
        try:
            if a.reevaluate:
                path = reevaluate(name, Path(a.models), games, seed, command)
            elif a.ismcts:
                path = set_ismcts(name, Path(a.models), Path(a.ismcts))
            else:
                path = package(name, Path(a.runs), Path(a.models))
        except (OSError, ValueError) as e:
            sys.exit(f"{name}: {e}")
        print(_line(path), flush=True)
        done.append(path)
    return done


if __name__ == "__main__":
    main()
