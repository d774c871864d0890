"""Package trained models into the zoo (``cardenvs/zoo/models/<setting>.npz``).

    python -m train.table --jobs 2                # train every setting (models in runs/table)
    python -m train.zoo                           # package every setting's model
    python -m train.zoo --only esel-v0_2p --runs runs/table
    python -m train.zoo --table                   # the shipped models' table (README)

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
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

import cardenvs
import cardenvs.zoo
from cardenvs.policy import NumpyPolicy
from train.table import RUNS, SETTINGS, outcome_text

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
            out[r["opponent"]] = _result(r, "deal")
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


def _cell(row: dict | None) -> str:
    if not row:
        return ""
    lo, hi = row["ci95"]
    return f"{row['win_rate']:.3f} ({lo:.3f}–{hi:.3f})" + outcome_text(row)


def table(models=None) -> str:
    """The zoo's models as a Markdown table (from their headers): the setting, the players, the
    learner decisions trained on, and the packaged evaluation against random and the heuristic
    (whole games, the model alone in each seat or as a side) and ISMCTS with 400 iterations
    (single deals, two-player games). A result cell is the win rate with its 95% Wilson
    interval, then the games won / drawn / lost and the mean reward with its 95% interval
    (``train.table.outcome_text``: ``0.453 (0.404–0.501); W/D/L 16/330/54; reward -0.095 ±
    0.040``); a model packaged before draws were counted shows the win rate alone."""
    lines = [
        "| model | players | learner decisions | equal strength | vs random | vs heuristic "
        "| vs ISMCTS-400 (single deals) |",
        "|---|---:|---:|---:|---|---|---|",
    ]
    order = {name: k for k, name in enumerate(SETTINGS)}
    models = cardenvs.zoo.list() if models is None else models
    for m in sorted(models, key=lambda m: order.get(m.name, len(order))):
        ev = m.evaluation
        base = ev.get("heuristic", {}).get("baseline")
        lines.append(
            f"| `{m.name}` | {m.num_players} | {ev.get('learner_decisions', 0) / 1e6:.1f} M | "
            f"{base:.2f} | {_cell(ev.get('random'))} | {_cell(ev.get('heuristic'))} | "
            f"{_cell(ev.get('ismcts'))} |"
        )
    return "\n".join(lines)


def main(argv=None) -> list[Path]:
    p = argparse.ArgumentParser(prog="python -m train.zoo", description=__doc__.split("\n")[0])
    p.add_argument("--only", nargs="+", choices=list(SETTINGS), help="these settings only")
    p.add_argument("--runs", default=str(RUNS), help="where train.table's runs are")
    p.add_argument("--models", default=str(cardenvs.zoo.MODELS), help="the zoo's folder")
    p.add_argument("--table", action="store_true", help="only print the zoo's table (Markdown)")
    a = p.parse_args(argv)
    if a.table:
        print(table(cardenvs.zoo.list(a.models)))
        return []
    done = []
    for name in a.only or list(SETTINGS):
        try:
            path = package(name, Path(a.runs), Path(a.models))
        except (OSError, ValueError) as e:
            sys.exit(f"{name}: {e}")
        ev = NumpyPolicy.load(path).header["zoo"]["evaluation"]
        line = ", ".join(
            f"{k} {v['win_rate']:.3f}{outcome_text(v)}"
            for k, v in ev.items()
            if isinstance(v, dict)
        )
        print(f"{path} ({path.stat().st_size:,} bytes): {line}")
        done.append(path)
    return done


if __name__ == "__main__":
    main()
