"""Behaviour cloning: a policy network that plays as a teacher agent plays, to start PPO from.

    python -m train.imitate --game esel-v0 --config '{"num_players": 2}' --out runs/bc/model.npz
    python -m train.ppo --game esel-v0 --config '{"num_players": 2}' --init runs/bc/model.npz ...

The teacher (``--teacher``, an agent spec of ``cardenvs.arena``: ``heuristic`` by default) plays
every seat of ``--num-envs`` games of the batched engine; each of its decisions, from the seat's
own observation and action mask, is one example. With probability ``--explore`` the game goes on
with a random legal action instead of the teacher's (the example keeps the teacher's), so that
the data also holds states the teacher itself would not reach, as a student's mistakes would
lead to. The return of each decision is the sum of its seat's rewards from that decision to the
end of the game (no discount): the value network learns it, so that PPO starts with a critic that
fits the policy.

The network is the trainer's (``train.ppo.build_agent``: separate policy and value MLPs,
``--net``, ``--activation``); it is trained on the cross-entropy of the teacher's action under
the masked policy plus half the squared error of the value, ``--epochs`` passes of Adam in
minibatches, and it is written in the model format of ``train/model_file.py`` (``--out``), which
``train.ppo --init`` and ``model:<path>`` agents read. A held-out 2% of the games' decisions
gives the share of decisions where the network's greedy action is the teacher's.

Kickstarting from a teacher is the method of Schmitt et al., *Kickstarting Deep Reinforcement
Learning* (2018); here it is the simplest form, cloning first and reinforcement learning after.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np

import cardenvs
from train.model_file import model_header, to_numpy_policy


def parse(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m train.imitate", description=__doc__.split("\n")[0])
    p.add_argument("--game", required=True, help="an id of cardenvs.GAMES")
    p.add_argument("--config", default="{}", help="the game's options, as JSON")
    p.add_argument("--teacher", default="heuristic", help="an agent spec (cardenvs.arena)")
    p.add_argument("--decisions", type=int, default=2_000_000, help="examples to collect")
    p.add_argument("--num-envs", type=int, default=256)
    p.add_argument("--explore", type=float, default=0.1, help="share of random legal moves")
    p.add_argument("--net", type=int, nargs="+", default=[256, 256])
    p.add_argument("--activation", choices=("tanh", "relu"), default="tanh")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatch-size", type=int, default=4096)
    p.add_argument("--learning-rate", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help="the model file to write (.npz)")
    args = p.parse_args(argv)
    if args.game not in cardenvs.GAMES:
        p.error(f"--game {args.game!r}: not a game id; allowed: {', '.join(cardenvs.GAMES)}")
    try:
        args.config = json.loads(args.config)
    except json.JSONDecodeError as e:
        p.error(f"--config is not JSON: {e}")
    if not isinstance(args.config, dict):
        p.error("--config must be a JSON object of the game's options")
    for name in ("decisions", "num_envs", "epochs", "minibatch_size"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if not 0.0 <= args.explore < 1.0:
        p.error(f"--explore {args.explore}: a share in [0, 1)")
    if not args.out.endswith(".npz"):
        p.error(f"--out {args.out!r}: a .npz model file")
    given = sys.argv[1:] if argv is None else argv
    args.command = shlex.join(["python", "-m", "train.imitate", *given])
    return args


def collect(args, venv, teacher):
    """``args.decisions`` examples of the teacher (observations as float16, masks, actions,
    returns), from games that ended within the collection."""
    N, P = venv.num_envs, venv.num_seats
    rng = np.random.default_rng(args.seed)
    obs, mask, info = venv.reset(seed=args.seed)
    steps = -(-args.decisions // N) + 1
    X = np.zeros((steps, N, venv.obs_dim), np.float16)
    M = np.zeros((steps, N, venv.num_actions), np.bool_)
    A = np.zeros((steps, N), np.int64)
    seat = np.zeros((steps, N), np.int64)
    before = np.zeros((steps, N), np.float32)  # the seat's rewards so far in its game
    game = np.zeros((steps, N), np.int64)
    cum, games = np.zeros((N, P), np.float32), np.zeros(N, np.int64)
    finals = np.zeros((N, steps + 1, P), np.float32)  # each row's games: the total per seat
    rows = np.arange(N)
    for t in range(steps):
        cur = info["current_player"].astype(np.int64)
        X[t], M[t], seat[t], game[t] = obs, mask.view(np.bool_), cur, games
        before[t] = cum[rows, cur]
        A[t] = teacher.act_batch(obs, mask)
        played = A[t].copy()
        wild = rng.random(N) < args.explore
        if wild.any():
            score = np.where(M[t][wild], rng.random((int(wild.sum()), venv.num_actions)), -1.0)
            played[wild] = score.argmax(axis=1)
        obs, mask, r, term, trunc, info = venv.step(played)
        cum += r
        ended = np.flatnonzero(term | trunc)
        finals[ended, games[ended]] = cum[ended]
        cum[ended] = 0.0
        games[ended] += 1
    keep = (game < games[None, :]).ravel()  # the decisions of games that ended
    ret = finals[rows[None, :], game, seat] - before
    flat = (X.reshape(-1, venv.obs_dim)[keep], M.reshape(-1, venv.num_actions)[keep])
    return (*flat, A.ravel()[keep], ret.ravel()[keep], (rows[None] + 0 * game).ravel()[keep])


def main(argv=None) -> dict:
    args = parse(argv)
    import torch

    from cardenvs.arena import make_agent
    from train.ppo import build_agent, masked_logits

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    venv = cardenvs.make_vector(args.game, args.num_envs, seed=args.seed, **args.config)
    teacher = make_agent(args.teacher, args.game, seed=args.seed, config=args.config)
    t0 = time.perf_counter()
    X, M, A, R, row = collect(args, venv, teacher)
    print(f"{len(A):,} decisions of {args.teacher} in {time.perf_counter() - t0:.0f} s")
    held = row % 50 == 0  # the games of every 50th row: held out
    agent = build_agent(venv.obs_dim, venv.num_actions, args.net, args.activation)
    opt = torch.optim.Adam(agent.parameters(), lr=args.learning_rate)
    train_idx = np.flatnonzero(~held)

    def batch(idx):
        return (
            torch.from_numpy(X[idx].astype(np.float32)),
            torch.from_numpy(M[idx]),
            torch.from_numpy(A[idx]),
            torch.from_numpy(R[idx]),
        )

    def accuracy(idx) -> float:
        with torch.no_grad():
            hits = 0
            for part in np.array_split(idx, max(1, len(idx) // 8192)):
                x, m, a, _ = batch(part)
                hits += int((masked_logits(agent.actor, x, m).argmax(1) == a).sum())
        return hits / max(len(idx), 1)

    first = accuracy(np.flatnonzero(held))
    print(f"before training: held-out agreement {first:.3f}")
    for epoch in range(args.epochs):
        perm = np.random.default_rng(args.seed + epoch).permutation(train_idx)
        losses = []
        for part in np.array_split(perm, max(1, len(perm) // args.minibatch_size)):
            x, m, a, r = batch(part)
            logits = masked_logits(agent.actor, x, m)
            loss = torch.nn.functional.cross_entropy(logits, a)
            loss = loss + 0.5 * ((agent.critic(x)[:, 0] - r) ** 2).mean()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
        acc = accuracy(np.flatnonzero(held))
        print(f"epoch {epoch + 1}: loss {np.mean(losses):.4f}, held-out agreement {acc:.3f}")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    to_numpy_policy(agent, model_header(args, venv, len(A))).save(out)
    summary = {"decisions": len(A), "agreement_before": first, "agreement": acc, "model": str(out)}
    print(f"wrote {out}")
    return summary


if __name__ == "__main__":
    main()
