"""Native PPO in PyTorch on a cardenvs game, one readable script in the manner of CleanRL's
``ppo.py``: every seat learns.

    python -m train.ppo --game piquet-v0 --minutes 8

Top to bottom: the command line (over the game's defaults, ``train/hyperparams.py``;
``summary.json`` records what a run used), the network, sampling, the PPO loss, and the rollout
and update loop. What other programs share lives in modules of its own, each with its contract:
``train/credit.py`` (trajectories, rewards and GAE across rollouts), ``train/league.py`` (which
seats the learner holds in each game; the league opponents that hold the others),
``train/model_file.py`` (the ``.npz`` model), ``train/runlog.py`` (what a run writes to
``--out`` and prints; Ctrl-C) and ``train.evaluate.trainer_evaluation`` (the evaluations).

**Rollout.** ``cardenvs.make_vector`` steps ``--num-envs`` games together, ``--num-steps``
engine steps per rollout (one decision per game per step, by the seat to act). One network (a
masked categorical policy and a value function, separate MLPs) plays every seat the learner
holds from that seat's own observation, and every one of those decisions is training data.
Illegal actions have probability exactly 0 (``masked_logits``) and can never be sampled
(``sample_actions``); the rollout checks every sampled action against its mask (the engine
checks every action again).

**Update.** PPO-clip on every finished decision of the rollout (a batch of variable size, split
into minibatches of about ``--minibatch-size``), ``--epochs`` passes, advantages normalised per
minibatch, Adam, gradient clipping; ``--target-kl`` stops the epochs early.

**Magnet** (``--magnet-coef`` > 0; off by default): the equilibrium-seeking update of magnetic
mirror descent (Sokota et al., ICLR 2023). The loss adds ``--magnet-coef`` times the reverse KL
from the policy to the magnet (``ppo_loss``), a frozen copy of the policy network: first the
starting policy (a near-uniform random network, or ``--init``'s model), moved to the current
policy every ``--magnet-every`` learner decisions. Self-play with a pull toward a slowly moving
magnet converges in two-player zero-sum games where plain self-play can cycle between fixed
patterns; ``magnet_kl`` in ``progress.csv`` is the mean KL.

**Arithmetic** (``--precision``). ``fp32``, or ``bf16``: the network's matrix products run in
bfloat16 under ``torch.autocast`` (rollout, update and league snapshots alike) while the weights,
the optimiser, the logits, the values, the log-probabilities and the losses stay fp32; ``auto``
picks bf16 where the device computes it natively (``resolve_precision``). Saved models hold fp32
weights and are played in fp32 (``agents.policy``).

**Budget.** Training stops at ``--total-timesteps`` learner decisions (decisions that are
training data) or after ``--minutes`` of wall-clock time (evaluations included), whichever
comes first; the last evaluation follows.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import math
import os
import shlex
import sys
import time
from pathlib import Path

# numpy's OpenBLAS starts a thread per core for every matmul of the numpy policies the
# evaluations play, which makes their small forward passes many times slower on a shared machine
# (docs/training.md#how-its-defaults-were-chosen); so one thread
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

import cardenvs
from cardenvs.agents.policy import NumpyPolicy
from cardenvs.core.rng import MAX_SEED
from cardenvs.registry import lookup
from train import hyperparams, runlog
from train.credit import Pending, assign_credit, trajectory_groups
from train.league import LEAGUE_HELP, LEAGUE_KINDS, League, league_agent
from train.model_file import load_numpy_policy, model_header, to_numpy_policy

MASKED_LOGIT = -1e9  # the logit of an illegal action: probability exactly 0 after the softmax
SEATINGS = ("auto", "solo", "side", "all")
PRECISIONS = ("auto", "fp32", "bf16")


# -- Arguments ----------------------------------------------------------------------------------
def parse(argv=None) -> argparse.Namespace:
    """The command line, with the game's defaults (``train/hyperparams.py``) under it; bad
    values exit with a message (argparse's ``error``)."""
    p = argparse.ArgumentParser(
        prog="python -m train.ppo",
        description="Native PPO (PyTorch) on a cardenvs game: every seat learns.",
    )
    a, on_off = p.add_argument, argparse.BooleanOptionalAction
    # fmt: off
    a("--game", default="piquet-v0", choices=list(cardenvs.GAMES), help="environment id")
    a("--config", help="the game's config for training, as JSON (default: single deals)")
    a("--eval-config", help="the game's config for evaluations, JSON merged over --config")
    a("--total-timesteps", type=int, help="learner decisions (training data) to train on")
    a("--minutes", type=float, help="wall-clock budget in minutes, evaluations included (0: none)")
    a("--num-envs", type=int, help="games stepped together")
    a("--num-steps", type=int, help="engine steps per rollout (one decision per game per step)")
    a("--seed", type=int, default=0,
      help="seed of the engine (row b: seed + b), the network, the league")
    # One torch thread by default: more threads contend for the cores over the small matrix
    # products, and the engine and the league run in between. torch.compile is off by default:
    # it took long to compile and did not make the update measurably faster
    # (docs/training.md#how-its-defaults-were-chosen).
    a("--threads", type=int, default=1, help="torch's CPU threads (intra-op; interop is 1)")
    a("--device", default="cpu", help="torch device of the network and the rollout (cpu, cuda)")
    a("--compile", action=on_off, default=False,
      help="torch.compile the rollout's forward pass and the loss")
    a("--precision", choices=PRECISIONS, default="auto",
      help="the network's arithmetic: fp32, or bf16 matrix products under torch.autocast "
      "(weights, optimiser and losses stay fp32); auto: bf16 where the device computes it "
      "natively (a CPU with AVX-512 BF16 or AMX, a GPU that supports it), else fp32")
    a("--net", type=int, nargs="+", help="hidden layer sizes of the policy and value MLPs")
    a("--activation", choices=("tanh", "relu"), help="activation of the hidden layers")
    a("--learning-rate", type=float, help="Adam's learning rate")
    a("--anneal-lr", action=on_off, default=False,
      help="decay the learning rate linearly to 0 over the budget")
    a("--gamma", type=float, help="discount per decision of a trajectory")
    a("--gae-lambda", type=float, help="GAE's lambda")
    a("--epochs", type=int, help="passes over each rollout's batch")
    a("--minibatch-size", type=int, help="decisions per gradient step (about)")
    a("--clip-coef", type=float, help="PPO's clip range of the probability ratio")
    a("--clip-vloss", action=on_off, default=False, help="clip the value loss as PPO2 does")
    a("--ent-coef", type=float, help="entropy bonus coefficient")
    a("--magnet-coef", type=float, default=0.0,
      help="weight of the reverse KL from the policy to the magnet policy (0: off; the "
      "equilibrium-seeking update of magnetic mirror descent)")
    a("--magnet-every", type=int, default=1_000_000,
      help="learner decisions between moves of the magnet to the current policy")
    a("--vf-coef", type=float, help="value loss coefficient")
    a("--max-grad-norm", type=float, help="gradient norm clip")
    a("--target-kl", type=float, default=None, help="stop an update's epochs above this KL")
    a("--credit", choices=("side", "seat"), help="a trajectory is a side's or a seat's decisions")
    a("--league-share", type=float, help="share of games whose other sides are league opponents")
    a("--league", nargs="+", metavar="KIND",
      help=f"league opponents (one drawn per league game): {LEAGUE_HELP}")
    a("--pool-size", type=int, help="frozen snapshots of the learner kept in the league")
    a("--snapshot-every", type=int, help="learner decisions between snapshots")
    a("--eval-every", type=int, help="learner decisions between evaluations (and checkpoints)")
    a("--eval-games", type=int, help="games per opponent per evaluation (over the seatings)")
    a("--eval-seating", choices=SEATINGS, default="auto",
      help="solo: the model alone in each seat; side: each side; all: every arrangement; "
      "auto: side for partnership games, else solo")
    a("--progress", action=on_off, default=True, help="progress bar")
    a("--out", help="output folder (default runs/native-<game>)")
    a("--init", help="start from this .npz model's weights (of --game; its network sets --net "
      "and --activation), e.g. a best response started from the zoo's model")
    a("--init-temperature", type=float, default=1.0,
      help="--init: divide the model's logits by this (> 1: less sure, more exploration)")
    # fmt: on
    game = p.parse_known_args(argv)[0].game
    tuned = hyperparams.native_defaults(game)
    unknown = set(tuned) - set(vars(p.parse_known_args([])[0]))
    if unknown:
        raise KeyError(f"train/hyperparams.py names no argument of train/ppo.py: {sorted(unknown)}")
    p.set_defaults(**tuned)
    args = p.parse_args(argv)
    hyperparams.parse_configs(p, args)
    positive = ("total_timesteps", "num_envs", "num_steps", "threads", "epochs", "minibatch_size")
    positive += ("pool_size", "snapshot_every", "eval_every", "eval_games", "magnet_every")
    for name in positive:
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    # every number finite and in its range (nan passes no comparison: hence "not (...)")
    for name, what, allowed in FLOAT_RANGES:
        value = getattr(args, name)
        if value is not None and not (math.isfinite(value) and allowed(value)):
            p.error(f"--{name.replace('_', '-')} must be {what}, got {value}")
    if args.init is not None:  # the network is the model's: checked and read here
        try:
            args.init_policy = NumpyPolicy.load(args.init)
            args.init_policy.check(args.game)
        except (ValueError, OSError) as e:
            p.error(f"--init {args.init!r}: {e}")
        args.net = list(args.init_policy.hidden)
        args.activation = args.init_policy.header["net"]["activation"]
    if min(args.net) < 1:
        p.error(f"every --net size must be at least 1, got {args.net}")
    seats = 0
    for option in ("config", "eval_config"):  # the game's options, checked before anything runs
        game, defaults = lookup(args.game)
        try:
            config = game.config_cls.from_kwargs(**(defaults | getattr(args, option)))
        except (ValueError, TypeError) as e:
            p.error(f"--{option.replace('_', '-')}: {e}")
        seats = max(seats, int(game.num_seats(config)))
    # the engine seeds its rows seed .. seed + num_envs - 1, an evaluation's games (at most
    # max(--eval-games, every seating of the two agents)) seed + 1 on; each seed <= MAX_SEED
    top = MAX_SEED - max(args.num_envs - 1, args.eval_games, 2**seats - 2)
    if not 0 <= args.seed <= top:
        p.error(
            f"--seed must be in 0..{top} (the engine's rows are seeded seed, seed + 1, ..., the "
            f"evaluations' games seed + 1, ...; a seed is at most {MAX_SEED}), got {args.seed}"
        )
    check_device(p, args.device)
    for kind in (k for k in args.league if k not in LEAGUE_KINDS):
        try:
            league_agent(kind, args.game, args.config, args.seed)  # loads it once: a clear error
        except (ValueError, ImportError, OSError) as e:
            p.error(f"--league {kind}: {e}")
    if args.out is None:
        args.out = f"runs/native-{args.game}"
    problem = runlog.out_problem(Path(args.out))
    if problem:
        p.error(f"--out {args.out!r} {problem}")
    args.command = "python -m train.ppo " + shlex.join(sys.argv[1:] if argv is None else argv)
    return args


#: the float arguments' ranges: (name, what is allowed, as words after "must be", the test)
FLOAT_RANGES = (
    ("minutes", ">= 0 and finite (0: no time budget)", lambda x: x >= 0),
    ("learning_rate", "a finite number above 0", lambda x: x > 0),
    ("gamma", "in [0, 1]", lambda x: 0 <= x <= 1),
    ("gae_lambda", "in [0, 1]", lambda x: 0 <= x <= 1),
    ("clip_coef", "a finite number above 0", lambda x: x > 0),
    ("ent_coef", "a finite number", lambda x: True),
    ("magnet_coef", "a finite number >= 0 (0: no magnet)", lambda x: x >= 0),
    ("vf_coef", "a finite number", lambda x: True),
    ("max_grad_norm", "a finite number above 0", lambda x: x > 0),
    ("target_kl", "a finite number above 0 (or left out: no early stop)", lambda x: x > 0),
    ("league_share", "in [0, 1]", lambda x: 0 <= x <= 1),
    ("init_temperature", "a positive number", lambda x: x > 0),
)


def check_device(parser, name: str) -> None:
    """``--device``: a torch device this machine has (``parser.error`` naming it otherwise).
    Without torch nothing is checked here: ``main`` says that training needs it."""
    try:
        import torch
    except ImportError:
        return
    try:
        torch.zeros(1, device=torch.device(name))
    except (RuntimeError, AssertionError) as e:  # an unknown or unavailable device
        parser.error(f"--device {name!r} cannot be used: {e} (cpu, or cuda where there is a GPU)")


# -- The network: a masked categorical policy and a value function ------------------------------
def build_agent(obs_dim: int, num_actions: int, hidden, activation: str):
    """Separate policy and value MLPs (the SB3 ``net_arch=[...]`` shape), CleanRL's init."""
    import torch
    from torch import nn

    act = {"tanh": nn.Tanh, "relu": nn.ReLU}[activation]

    def mlp(out: int, last_std: float) -> nn.Sequential:
        layers, size = [], obs_dim
        for h in hidden:
            layer = nn.Linear(size, h)
            nn.init.orthogonal_(layer.weight, math.sqrt(2))
            nn.init.zeros_(layer.bias)
            layers += [layer, act()]
            size = h
        head = nn.Linear(size, out)
        nn.init.orthogonal_(head.weight, last_std)
        nn.init.zeros_(head.bias)
        return nn.Sequential(*layers, head)

    class Agent(nn.Module):
        def __init__(self):
            super().__init__()
            self.actor = mlp(num_actions, 0.01)
            self.critic = mlp(1, 1.0)

        def forward(self, obs: torch.Tensor, mask: torch.Tensor):
            """Masked logits ``(n, A)`` and values ``(n,)``."""
            return masked_logits(self.actor, obs, mask), self.critic(obs)[:, 0].float()

    return Agent()


def masked_logits(actor, obs, mask):
    """The policy's logits in fp32 (also under bf16 autocast), ``MASKED_LOGIT`` where ``mask`` is
    False: the one masking of the learner and of its frozen snapshots."""
    import torch

    return torch.where(mask, actor(obs).float(), MASKED_LOGIT)


def resolve_precision(precision: str, device) -> str:
    """``--precision``'s value for ``device``: ``auto`` becomes ``bf16`` where bf16 matrix
    products run natively (a CPU with AVX-512 BF16 or AMX; a GPU that supports it: there they
    take about a third of fp32's time for a 2 x 256 MLP, and bf16 learns as well per decision,
    ``docs/training.md#how-its-defaults-were-chosen``), else ``fp32`` (emulated bf16 would be
    slower than fp32)."""
    import torch

    if precision != "auto":
        return precision
    if device.type == "cpu":
        native = (
            torch.backends.mkldnn.is_available() and torch.ops.mkldnn._is_mkldnn_bf16_supported()
        )
    elif device.type == "cuda":
        native = torch.cuda.is_bf16_supported()
    else:
        native = False
    return "bf16" if native else "fp32"


def autocast(device, precision: str):
    """The context the network's forward passes run in: ``torch.autocast`` to bf16, or none."""
    import torch

    if precision == "bf16":
        return torch.autocast(device.type, dtype=torch.bfloat16)
    return contextlib.nullcontext()


def sample_actions(logits, generator=None):
    """Gumbel-max sample of each row's masked softmax and its log-probability. The noise is
    clamped to at most about 16.6 above and -4 below, so an action at ``MASKED_LOGIT`` can
    never beat a legal one."""
    import torch

    u = torch.rand(logits.shape, generator=generator, device=logits.device)
    gumbel = -torch.log(-torch.log(u.clamp_(min=1e-20)))
    actions = torch.argmax(logits + gumbel, dim=1)
    logp = torch.log_softmax(logits, dim=1).gather(1, actions[:, None])[:, 0]
    return actions, logp


def act_step(agent, obs, mask):
    """The rollout's forward pass: sampled actions, their log-probabilities, values."""
    logits, values = agent(obs, mask)
    actions, logp = sample_actions(logits)
    return actions, logp, values


#: the statistics ``ppo_loss`` returns, in order (columns of ``progress.csv``)
LOSS_STATS = ("pg_loss", "v_loss", "entropy", "approx_kl", "clipfrac", "magnet_kl")


def ppo_loss(agent, obs, mask, actions, old_logp, adv, ret, old_values, args, magnet_logp=None):
    """PPO-clip loss of one minibatch and its statistics (tensors, ``LOSS_STATS``): policy loss,
    value loss, entropy, approximate KL, clip fraction, KL to the magnet (0 without one). With
    ``magnet_logp`` (the magnet policy's log-probabilities of every action of these rows),
    ``args.magnet_coef`` times the reverse KL ``sum_a pi(a) (log pi(a) - log magnet(a))`` is
    added (magnetic mirror descent's pull toward the magnet)."""
    import torch

    logits, values = agent(obs, mask)
    logp_all = torch.log_softmax(logits, dim=1)
    logp = logp_all.gather(1, actions[:, None])[:, 0]
    entropy = -(logp_all.exp() * logp_all).sum(dim=1)  # masked actions: 0 * (-1e9) = 0
    log_ratio = logp - old_logp
    ratio = log_ratio.exp()
    adv = (adv - adv.mean()) / (adv.std(unbiased=False) + 1e-8)
    pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef))
    pg_loss = pg_loss.mean()
    if args.clip_vloss:
        clipped = old_values + (values - old_values).clamp(-args.clip_coef, args.clip_coef)
        v_loss = 0.5 * torch.max((values - ret) ** 2, (clipped - ret) ** 2).mean()
    else:
        v_loss = 0.5 * ((values - ret) ** 2).mean()
    ent = entropy.mean()
    loss = pg_loss - args.ent_coef * ent + args.vf_coef * v_loss
    if magnet_logp is None:
        magnet_kl = torch.zeros((), device=logits.device)
    else:  # illegal actions: probability 0 under both, and 0 * (finite difference) = 0
        magnet_kl = (logp_all.exp() * (logp_all - magnet_logp)).sum(dim=1).mean()
        loss = loss + args.magnet_coef * magnet_kl
    with torch.no_grad():
        approx_kl = ((ratio - 1) - log_ratio).mean()
        clipfrac = ((ratio - 1).abs() > args.clip_coef).float().mean()
    stats = [pg_loss.detach(), v_loss.detach(), ent.detach(), approx_kl, clipfrac]
    return loss, torch.stack([*stats, magnet_kl.detach()])


class Snapshot:
    """A frozen copy of the learner's policy, as a league opponent: ``act_batch`` samples its
    masked policy (torch, on the learner's device)."""

    def __init__(self, agent, name: str, precision: str = "fp32"):
        self.actor = copy.deepcopy(agent.actor).eval().requires_grad_(False)
        self.device = next(self.actor.parameters()).device
        self.name = name
        self.precision = precision

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        import torch

        with torch.no_grad():
            obs = torch.from_numpy(observations).to(self.device)
            mask = torch.from_numpy(np.array(masks, np.bool_)).to(self.device)  # a copy
            with autocast(self.device, self.precision):
                logits = masked_logits(self.actor, obs, mask)
            actions, _ = sample_actions(logits)
        return actions.cpu().numpy()


# -- Training -----------------------------------------------------------------------------------
def main(argv=None) -> dict:
    """``python -m train.ppo``: the run's summary. Ctrl-C (``KeyboardInterrupt``) ends it with a
    short message and exit status 130, the model of the last completed update saved as
    ``model.npz`` in ``--out``."""
    completed, args = runlog.Completed(), None
    try:
        args = parse(argv)
        return train(args, completed)
    except KeyboardInterrupt:
        runlog.interrupted(args, completed)


def train(args, completed: runlog.Completed) -> dict:
    """The run (see the module docstring); ``completed`` follows its last completed update."""
    try:
        import torch
    except ImportError:
        sys.exit("training needs torch: pip install -c constraints.txt -e '.[train]'")
    torch.set_num_threads(args.threads)
    if torch.get_num_interop_threads() != 1:
        with contextlib.suppress(RuntimeError):  # already set once in this process
            torch.set_num_interop_threads(1)
    torch.manual_seed(args.seed)
    device = torch.device(args.device)  # checked in parse
    args.precision = resolve_precision(args.precision, device)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    # -- the engine, the trajectory groups, the league -----------------------------------------
    venv = cardenvs.make_vector(args.game, args.num_envs, seed=args.seed, **args.config)
    completed.venv = venv
    N, T, P = venv.num_envs, args.num_steps, venv.num_seats
    D, A = venv.obs_dim, venv.num_actions
    group_of_seat, rep_seat = trajectory_groups(P, venv.sides, args.credit)
    G = len(rep_seat)
    # assign_credit's arguments after the rollout's arrays, but for the pending trajectories
    credit_args = (group_of_seat, rep_seat, args.gamma, args.gae_lambda)
    kinds, share = args.league, args.league_share
    league = League(
        args.game, kinds, share, venv.sides, P, N, args.pool_size, args.seed, args.config
    )
    rows_n = np.arange(N)

    # -- the network and its optimiser ----------------------------------------------------------
    agent = build_agent(D, A, args.net, args.activation)
    if getattr(args, "init_policy", None) is not None:
        load_numpy_policy(agent, args.init_policy, args.init_temperature)
    agent = agent.to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    # the magnet (--magnet-coef): a frozen copy of the policy, moved to it every --magnet-every
    magnet = copy.deepcopy(agent.actor).requires_grad_(False) if args.magnet_coef > 0 else None
    next_magnet = args.magnet_every
    step_fn, loss_fn = act_step, ppo_loss
    if args.compile:
        step_fn = torch.compile(act_step)
        loss_fn = torch.compile(ppo_loss)

    # -- preallocated rollout storage: (T, N) decisions and (N, G) carried open decisions ------
    def zeros(*shape, dtype=torch.float32):
        return torch.zeros(shape, dtype=dtype, device=device)

    obs_buf, mask_buf = zeros(T, N, D), zeros(T, N, A, dtype=torch.bool)
    act_buf, logp_buf, val_buf = zeros(T, N, dtype=torch.long), zeros(T, N), zeros(T, N)
    carry_obs, carry_mask = zeros(N, G, D), zeros(N, G, A, dtype=torch.bool)
    carry_act, carry_logp, carry_val = zeros(N, G, dtype=torch.long), zeros(N, G), zeros(N, G)
    seats = np.zeros((T, N), np.int64)
    learn = np.zeros((T, N), np.bool_)
    rewards = np.zeros((T, N, P), np.float32)
    dones = np.zeros((T, N), np.bool_)
    pending = Pending.empty(N, G)

    obs, mask, info = venv.reset(seed=args.seed)
    # compile the credit kernel and warm the engine (numba compiles on first use) before timing
    assign_credit(
        seats[:1], learn[:1], rewards[:1], dones[:1], np.zeros((1, N)), *credit_args, pending
    )

    logs = completed.logs = runlog.Logs(out)
    timing = dict.fromkeys((*runlog.TRAIN_PARTS, "eval"), 0.0)  # seconds by part
    budget_s = args.minutes * 60.0
    progress = runlog.Progress(args.total_timesteps, budget_s, args.progress)
    timesteps = trained = engine_decisions = games = update = 0
    next_eval, next_snapshot, last_eval = args.eval_every, args.snapshot_every, -1
    t_start = time.perf_counter()

    def elapsed() -> float:
        return time.perf_counter() - t_start

    def run_evaluation() -> list[dict]:
        """Save a checkpoint and evaluate it (``train.evaluate.trainer_evaluation``)."""
        nonlocal last_eval
        from train.evaluate import trainer_evaluation

        t0 = time.perf_counter()
        path = out / f"checkpoint_{timesteps}.npz"
        to_numpy_policy(agent, model_header(args, venv, timesteps)).save(path)
        rows = trainer_evaluation(path, args, venv)
        for r in rows:
            r["timesteps"] = timesteps
            r["minutes"] = elapsed() / 60
            r.pop("decisions_per_s", None)
        logs.evaluation(rows)
        last_eval = timesteps
        timing["eval"] += time.perf_counter() - t0
        return rows

    while timesteps < args.total_timesteps and not (budget_s and elapsed() >= budget_s):
        if args.anneal_lr:
            frac = 1.0 - progress.fraction(timesteps, elapsed())
            optimizer.param_groups[0]["lr"] = max(frac, 0.0) * args.learning_rate

        # -- rollout: T engine steps, every row deciding once per step -------------------------
        for t in range(T):
            t0 = time.perf_counter()
            cur = info["current_player"].astype(np.int64)
            learn_t = league.learner[rows_n, cur]
            seats[t] = cur
            learn[t] = learn_t
            obs_buf[t].copy_(torch.from_numpy(obs))
            # the engine's mask is read-only (torch.from_numpy warns on it): a bool view, copied
            mask_buf[t].copy_(torch.from_numpy(mask.view(np.bool_).copy()))
            mine = learn_t.all()  # else the network decides only the learner's rows
            li = None if mine else torch.from_numpy(np.flatnonzero(learn_t)).to(device)
            o, m = (obs_buf[t], mask_buf[t]) if mine else (obs_buf[t][li], mask_buf[t][li])
            with torch.inference_mode(), autocast(device, args.precision):
                a, logp, v = step_fn(agent, o, m)
                if not bool(m.gather(1, a[:, None]).all()):
                    raise RuntimeError("the masked policy sampled an illegal action")
            actions = np.zeros(N, np.int64)
            if mine:
                act_buf[t], logp_buf[t], val_buf[t] = a, logp, v
                actions[:] = a.cpu().numpy()
            else:
                act_buf[t, li], logp_buf[t, li], val_buf[t, li] = a, logp, v
                actions[learn_t] = a.cpu().numpy()
            t1 = time.perf_counter()
            league.act(obs, mask, learn_t, actions)
            t2 = time.perf_counter()
            obs, mask, r, term, trunc, info = venv.step(actions)
            rewards[t] = r
            done = term | trunc
            dones[t] = done
            t3 = time.perf_counter()
            if done.any():
                ended = np.flatnonzero(done)
                games += ended.size
                league.draw(ended)  # each new game is seated afresh
            timing["policy"] += t1 - t0
            timing["league"] += t2 - t1 + time.perf_counter() - t3
            timing["env"] += t3 - t2
        timesteps += int(learn.sum())
        engine_decisions += T * N

        # -- credit assignment per trajectory, across rollouts ---------------------------------
        t0 = time.perf_counter()
        values = val_buf.cpu().numpy()
        credit, pending = assign_credit(seats, learn, rewards, dones, values, *credit_args, pending)
        idx = torch.from_numpy(np.flatnonzero(credit.valid.ravel())).to(device)
        cidx = torch.from_numpy(np.flatnonzero(credit.carry_valid.ravel())).to(device)
        adv = torch.from_numpy(np.concatenate([credit.adv.ravel(), credit.carry_adv.ravel()]))
        ret = torch.from_numpy(np.concatenate([credit.ret.ravel(), credit.carry_ret.ravel()]))
        sel = torch.cat([idx, cidx + T * N])
        b_adv, b_ret = adv.to(device)[sel], ret.to(device)[sel]
        b_obs = torch.cat([obs_buf.view(T * N, D)[idx], carry_obs.view(N * G, D)[cidx]])
        b_mask = torch.cat([mask_buf.view(T * N, A)[idx], carry_mask.view(N * G, A)[cidx]])
        b_act = torch.cat([act_buf.view(-1)[idx], carry_act.view(-1)[cidx]])
        b_logp = torch.cat([logp_buf.view(-1)[idx], carry_logp.view(-1)[cidx]])
        b_val = torch.cat([val_buf.view(-1)[idx], carry_val.view(-1)[cidx]])
        # the decisions of this rollout still open move to the carry buffers
        bb, gg = np.nonzero(pending.live & (pending.src >= 0))
        if bb.size:
            tt = torch.from_numpy(pending.src[bb, gg]).to(device)
            bt, gt = torch.from_numpy(bb).to(device), torch.from_numpy(gg).to(device)
            carry_obs[bt, gt] = obs_buf[tt, bt]
            carry_mask[bt, gt] = mask_buf[tt, bt]
            carry_act[bt, gt] = act_buf[tt, bt]
            carry_logp[bt, gt] = logp_buf[tt, bt]
            carry_val[bt, gt] = val_buf[tt, bt]
            pending.src[bb, gg] = -1
        timing["credit"] += time.perf_counter() - t0

        # -- PPO update on every finished decision ---------------------------------------------
        t0 = time.perf_counter()
        M = b_act.numel()
        batch = (b_obs, b_mask, b_act, b_logp, b_adv, b_ret, b_val)  # in ppo_loss's order
        b_mag = None
        if magnet is not None and M:
            with torch.no_grad(), autocast(device, args.precision):
                b_mag = torch.log_softmax(masked_logits(magnet, b_obs, b_mask), dim=1)
        stats = torch.zeros(len(LOSS_STATS))
        n_mb = 0
        for _epoch in range(args.epochs if M else 0):  # M = 0: no trajectory step closed yet
            perm = torch.randperm(M, device=device)
            for mb in torch.tensor_split(perm, max(1, round(M / args.minibatch_size))):
                mag = None if b_mag is None else b_mag[mb]
                with autocast(device, args.precision):
                    loss, s = loss_fn(agent, *(x[mb] for x in batch), args, mag)
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
                stats += s.cpu()
                n_mb += 1
            if args.target_kl is not None and float(s[3]) > args.target_kl:  # approx_kl
                break
        stats /= max(n_mb, 1)
        var = float(b_ret.var()) if M > 1 else 0.0
        explained = 1 - float((b_ret - b_val).var()) / var if var > 0 else float("nan")
        timing["update"] += time.perf_counter() - t0
        trained += M
        update += 1
        completed.keep(agent, update, timesteps)  # what Ctrl-C saves from here on

        train_s = runlog.train_seconds(timing)
        logs.update(
            {
                "timesteps": timesteps,
                "update": update,
                "seconds": round(elapsed(), 3),
                "decisions_per_s": timesteps / max(train_s, 1e-9),
                "batch": M,
                "games": games,
                "learning_rate": optimizer.param_groups[0]["lr"],
                **dict(zip(LOSS_STATS, stats.tolist(), strict=True)),
                "explained_variance": explained,
                "league_games_share": float((league.member >= 0).mean()),
            }
        )
        progress(timesteps, elapsed(), timesteps / max(train_s, 1e-9))

        if magnet is not None and timesteps >= next_magnet:
            next_magnet += args.magnet_every
            magnet.load_state_dict(agent.actor.state_dict())
        if timesteps >= next_snapshot:
            next_snapshot += args.snapshot_every
            league.add_snapshot(Snapshot(agent, f"self@{timesteps}", args.precision))
        if timesteps >= next_eval:
            next_eval += args.eval_every
            rows = run_evaluation()
            progress(timesteps, elapsed(), timesteps / max(train_s, 1e-9), runlog.eval_note(rows))

    if last_eval != timesteps:
        rows = run_evaluation()
        progress(timesteps, elapsed(), timesteps / max(train_s, 1e-9), runlog.eval_note(rows))
    progress.close()
    seconds = elapsed()
    model_path = out / "model.npz"
    to_numpy_policy(agent, model_header(args, venv, timesteps)).save(model_path)
    logs.close()
    counts = {"timesteps": timesteps, "trained_decisions": trained}
    counts |= {"engine_decisions": engine_decisions, "updates": update, "games": games}
    return runlog.finish(args, logs, timing, seconds, counts, device, model_path)


if __name__ == "__main__":
    main()
