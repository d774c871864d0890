"""A local best response at the opening decisions: a cheap lower bound on exploitability.

    python -m benchmarks.local_br [--settings auction_piquet-v0 ...] [--targets zoo heuristic]
        [--n 200] [--worlds 32] [--seed 0] [--out docs/exploit/local]

One seat (the deviator; game ``b`` gives it seat ``b mod P``) plays a deal against a frozen
target that holds every other seat and plays the deviator's seat too, except at the deviator's
first **opening decision** of the deal with more than one legal action: auction Piquet's bids
and doubles, the exchange of the other Piquet ids (a discard or stop), Esel's trump choice and
go / no call, Banque's trump choice, Four Aces' first draw. There the local best response tries
every legal action on ``--worlds`` deals **sampled by the game's determinizer from the deciding
seat's information** (``Simulator.determinize``: the cards it cannot see redrawn consistently
with what it has seen; never the true hidden cards, which would overestimate), each action
followed by the target for every seat to the end of the deal, and picks the action with the best
mean reward. The choice uses nothing the seat does not know, so it is a strategy the seat could
play.

The gain is measured on other deals than the ones that chose: on the true deal of each game
(fresh, from the seed), the deal is played on from the decision twice, once with the chosen
action and once with the target's own, the target playing everything after; the gain is the
deviator's reward difference, averaged over the ``--n`` games with a 95% interval (a game where
the local best response keeps the target's action, or where the deviator had no opening decision
with a choice, gains 0). Its mean is an unbiased estimate of
how much that one-decision deviation wins per deal against the target: a lower bound on the
target's exploitability in reward per deal (a full best response may find more), next to the
trained best responses of ``benchmarks.exploit``.

Games are single deals rewarded by wins (``episode="deal"``, ``reward="win"``). Targets:
``zoo`` (the setting's model, greedy), ``heuristic``, or any ``cardenvs.arena`` spec without
search. Writes ``local_br.json`` and ``local_br.md`` into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

import cardenvs
from benchmarks.ladder import game_config
from cardenvs.arena import make_agent, mean_interval
from cardenvs.core.sim import Simulator
from train.table import SETTINGS

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "exploit" / "local"
#: the opening decisions of each game, by the first word of an action's name
OPENING = {
    "auction_piquet-v0": ("bid", "pass", "double", "redouble"),
    "piquet-v0": ("discard", "stop"),
    "piquet_au_cent-v0": ("discard", "stop"),
    "piquet_normand-v0": ("discard", "stop"),
    "partnership_piquet-v0": ("discard", "stop"),
    "esel-v0": ("trump", "go", "no"),
    "banque-v0": ("trump",),
    "four_aces-v0": ("draw",),
}


def play_config(setting: str) -> dict:
    """The setting's rules, one deal, rewarded by wins (the ladder's config)."""
    return game_config(setting, "deal")


def opening_ids(env_id: str) -> np.ndarray:
    """The action ids of ``env_id``'s opening decisions (``OPENING``)."""
    heads = OPENING[env_id]
    names = cardenvs.game_info(env_id).action_names
    return np.array([n.split()[0] in heads for n in names])


def play_out(sim: Simulator, s, first, target, seat: int, steps: int = 4000) -> np.ndarray:
    """Every row of ``s`` stepped with its action of ``first``, then played to the end of its
    deal by ``target`` (all seats); ``seat``'s reward per row."""
    rewards, term, masks = sim.step_rows(s, np.asarray(first, np.int64))
    out = np.where(term, rewards[:, seat], 0.0)
    active = ~term
    for _ in range(steps):
        if not active.any():
            return out
        cur = np.maximum(sim.current_rows(s), 0)
        actions = target.act_batch(sim.observe_rows(s, cur), masks)
        actions = np.where(active, actions, masks.argmin(axis=1))  # a finished row: frozen
        rewards, term, new_masks = sim.step_rows(s, actions)
        done = active & term
        out[done] = rewards[done, seat]
        active &= ~term
        masks = np.where(active[:, None], new_masks, masks)
    raise RuntimeError(f"a deal did not end in {steps} steps")


def decisions(env_id: str, config: dict, target, n: int, seed: int):
    """Play ``n`` deals (game ``b`` from seed ``seed + b``) with ``target`` in every seat, and
    catch each game's first opening decision of its deviator (seat ``b mod P``) with more than
    one legal action: ``[(b, seat, state copy, mask, target's action)]``."""
    venv = cardenvs.make_vector(env_id, n, seed=seed, autoreset=False, validate=False, **config)
    obs, mask, info = venv.reset()
    P = venv.num_seats
    deviator = np.arange(n) % P
    opening = opening_ids(env_id)
    caught, done, seen = [], np.zeros(n, bool), np.zeros(n, bool)
    while not done.all():
        cur = info["current_player"].astype(np.int64)
        actions = np.zeros(n, np.int64)
        live = np.flatnonzero(~done)
        actions[live] = target.act_batch(obs[live], mask[live])
        legal = mask.astype(bool)
        here = (
            ~done
            & ~seen
            & (cur == deviator)
            & (legal & opening).any(axis=1)
            & (legal.sum(axis=1) > 1)
        )
        for b in np.flatnonzero(here):
            state = Simulator.copy_row(venv.state, int(b))
            caught.append((int(b), int(deviator[b]), state, mask[b].copy(), int(actions[b])))
        seen |= here
        actions[done] = 0
        obs, mask, _, term, _, info = venv.step(actions)
        done |= term
    return caught


def measure(setting: str, target_spec: str, n: int, worlds: int, seed: int) -> dict:
    """The local best response against ``target_spec`` on ``setting``; the JSON-able row."""
    env_id = SETTINGS[setting][0]
    config = play_config(setting)
    target = make_agent(target_spec, env_id, seed=seed, config=config)
    one = cardenvs.make_vector(env_id, 1, **config)
    sim = Simulator(one.game, one.config)
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    gains, deviated = [], 0
    caught = decisions(env_id, config, target, n, seed)
    for _b, seat, state, mask, own in caught:
        legal = np.flatnonzero(mask)
        # choose: every legal action on the same `worlds` determinized deals
        base = [sim.determinize(state, seat, rng) for _ in range(worlds)]
        rows = sim.stack([w for _a in legal for w in base])
        value = play_out(sim, rows, np.repeat(legal, worlds), target, seat)
        value = value.reshape(legal.size, worlds).mean(axis=1)
        best = int(legal[int(np.argmax(value))])
        if best == own:
            gains.append(0.0)
            continue
        deviated += 1
        # measure: the true deal, played on with the chosen action and with the target's
        r = play_out(sim, sim.stack([state, state]), [best, own], target, seat)
        gains.append(float(r[0] - r[1]))
    gains += [0.0] * (n - len(caught))  # a game without an opening decision: no deviation
    mean, lo, hi = mean_interval(gains)
    return {
        "setting": setting,
        "env_id": env_id,
        "target": target_spec,
        "config": config,
        "games": n,
        "decisions": len(caught),
        "deviated": deviated,
        "worlds": worlds,
        "gain": mean,
        "gain_ci95": [lo, hi],
        "seconds": round(time.perf_counter() - t0, 1),
    }


def verdict(row: dict) -> str:
    """``exploited`` (the gain's interval above 0), ``failed estimate`` (below 0) or
    ``inconclusive``."""
    lo, hi = row["gain_ci95"]
    if lo is not None and lo > 0:
        return "exploited"
    if hi is not None and hi < 0:
        return "failed estimate"
    return "inconclusive"


def markdown(report: dict) -> str:
    lines = [
        "# Local best response at the opening decisions",
        "",
        f"`python -m benchmarks.local_br --n {report['n']} --worlds {report['worlds']} --seed "
        f"{report['seed']}`: the deviator's gain in reward per deal (wins: +1 / -1 between two "
        "players) from choosing its first opening decision of each deal on determinized deals, "
        "measured on the true deals; 95% interval over the games (`benchmarks/local_br.py`). A "
        "gain whose interval lies above 0 is a lower bound on the target's exploitability.",
        "",
        "A gain whose interval lies below 0 is a **failed estimate**: the choices made on the "
        "determinized deals (which know nothing of what the other seats' play revealed) were "
        "worse than the target's own, and say nothing of its exploitability.",
        "",
        "| setting | target | opening decisions (of games) | deviated | gain per deal (95% CI) "
        "| verdict | seconds |",
        "|---|---|---:|---:|---|---|---:|",
    ]
    for r in report["rows"]:
        lo, hi = r["gain_ci95"]
        ci = "" if lo is None else f" ({lo:+.3f} to {hi:+.3f})"
        lines.append(
            f"| {r['setting']} | {r['target']} | {r['decisions']} ({r['games']}) | "
            f"{r['deviated']} | {r['gain']:+.3f}{ci} | {verdict(r)} | {r['seconds']:.0f} |"
        )
    return "\n".join(lines)


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.local_br", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--settings", nargs="*", default=list(SETTINGS), choices=list(SETTINGS))
    p.add_argument("--targets", nargs="*", default=["zoo", "heuristic"])
    p.add_argument("--n", type=int, default=200, help="games (deals)")
    p.add_argument("--worlds", type=int, default=32, help="determinized deals per choice")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--collect", action="store_true", help="only rebuild local_br.md from its JSON")
    a = p.parse_args(argv)
    if a.collect:
        report = json.loads((Path(a.out) / "local_br.json").read_text())
        text = markdown(report)
        (Path(a.out) / "local_br.md").write_text(text + "\n")
        print(text)
        return report
    if a.n < 2 or a.worlds < 1:
        p.error("--n must be at least 2 and --worlds at least 1")
    report = {"n": a.n, "worlds": a.worlds, "seed": a.seed, "rows": []}
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for setting in a.settings:
        for target in a.targets:
            print(f"{setting} against {target}...", file=sys.stderr, flush=True)
            report["rows"].append(measure(setting, target, a.n, a.worlds, a.seed))
            # written after every row: a long run stopped early keeps what it measured
            (out / "local_br.json").write_text(json.dumps(report, indent=2))
            text = markdown(report)
            (out / "local_br.md").write_text(text + "\n")
    print(text)
    return report


if __name__ == "__main__":
    main()
