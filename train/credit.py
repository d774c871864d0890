"""Credit assignment of the native trainer (``train/ppo.py``): trajectories, rewards, GAE.

Pure functions over arrays (numpy and one numba kernel; no torch).

**Trajectories.** A trajectory is the sequence of one side's own decisions in one game row
(``--credit side``, the default: the seats of a side share every reward, so partnership Piquet
trains per side, both partners' decisions in one sequence; in the other games a side is one
seat) or of one seat's (``--credit seat``); other seats' moves in between are not steps of it
(``trajectory_groups``: the group of each seat, and the seat whose reward is each group's).

**Rewards.** The engine pays every seat's reward on the step that ends the game (or the deal,
with ``"episode": "deal"``), which is usually not a decision of that seat: a reward is credited
to the trajectory's latest decision at or before that step (a reward with no decision of the
trajectory in that game yet is dropped), and a game end makes that decision terminal. Each
seat's reward is its own (the game's reward table: normand's +1, +1, -2 included); a side's is
the reward of its first seat (partners' rewards are equal).

**GAE** (``assign_credit``). Along each trajectory: ``delta_i = r_i + gamma * V_{i+1} * (1 -
done_i) - V_i`` and ``A_i = delta_i + gamma * lambda * (1 - done_i) * A_{i+1}``, returns ``A_i +
V_i``. A decision whose successor has not come yet at the end of a rollout stays pending
(``Pending``, per row and trajectory: the trainer keeps its observation, mask, action,
log-probability and value in carry buffers, this module the reward credited so far) and is
trained on in the rollout where its successor (or its game's end) arrives, bootstrapped from
that successor's value; the advantage recursion is truncated where a successor is still pending
(as CleanRL truncates at the rollout's end). Autoreset rows need no special case: the game end
closes every open trajectory of the row.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import njit


@dataclasses.dataclass
class Pending:
    """The open trajectories between rollouts, per (row, trajectory group): ``live`` (a decision
    waits for its successor), ``src`` (the rollout step that decision was made at, or -1 once it
    has been moved out of the rollout's buffers: then it comes from the trainer's carry
    buffers), ``value`` (its value estimate) and ``reward`` (credited to it so far)."""

    live: np.ndarray
    src: np.ndarray
    value: np.ndarray
    reward: np.ndarray

    @classmethod
    def empty(cls, num_envs: int, num_groups: int) -> Pending:
        shape = (num_envs, num_groups)
        return cls(
            np.zeros(shape, np.bool_),
            np.full(shape, -1, np.int64),
            np.zeros(shape, np.float64),
            np.zeros(shape, np.float64),
        )

    def copy(self) -> Pending:
        return Pending(self.live.copy(), self.src.copy(), self.value.copy(), self.reward.copy())


@dataclasses.dataclass
class Credit:
    """What ``assign_credit`` returns: for the rollout's decisions ``(T, N)`` and for the
    decisions carried in from before ``(N, G)``: advantages, returns and ``valid`` (finished:
    its successor or its game's end has come, so it is training data now)."""

    adv: np.ndarray
    ret: np.ndarray
    valid: np.ndarray
    carry_adv: np.ndarray
    carry_ret: np.ndarray
    carry_valid: np.ndarray


def trajectory_groups(num_seats: int, sides, credit: str) -> tuple[np.ndarray, np.ndarray]:
    """``group_of_seat`` (the trajectory group of each seat) and ``rep_seat`` (the seat whose
    reward is each group's): per side (``credit="side"``) or per seat (``"seat"``)."""
    if credit == "seat":
        seats = np.arange(num_seats, dtype=np.int64)
        return seats, seats.copy()
    if credit != "side":
        raise ValueError(f"credit must be 'side' or 'seat', got {credit!r}")
    group = np.full(num_seats, -1, np.int64)
    for g, side in enumerate(sides):
        group[list(side)] = g
    if (group < 0).any():
        raise ValueError(f"sides {sides} do not cover seats 0..{num_seats - 1}")
    return group, np.array([side[0] for side in sides], np.int64)


def assign_credit(
    seats: np.ndarray,
    learn: np.ndarray,
    rewards: np.ndarray,
    dones: np.ndarray,
    values: np.ndarray,
    group_of_seat: np.ndarray,
    rep_seat: np.ndarray,
    gamma: float,
    lam: float,
    pending: Pending,
) -> tuple[Credit, Pending]:
    """Per-trajectory rewards, returns and GAE of one rollout (the module docstring).

    Args:
        seats: ``(T, N)`` the seat that decided at step ``t`` in row ``b``.
        learn: ``(T, N)`` whether that decision is training data (the learner's seat).
        rewards: ``(T, N, P)`` the rewards the engine returned at step ``t``.
        dones: ``(T, N)`` the game (episode) of row ``b`` ended at step ``t``.
        values: ``(T, N)`` the value estimate of each decision.
        group_of_seat, rep_seat: from ``trajectory_groups``.
        gamma, lam: discount and GAE lambda.
        pending: the open trajectories before this rollout (``Pending.empty`` at first); not
            modified.

    Returns:
        ``(credit, pending_after)``; in ``pending_after``, ``src >= 0`` marks a decision of this
        rollout left open (the caller moves its data to its carry buffers and sets ``src`` to
        -1), ``src == -1`` with ``live`` a decision that was already carried and is still open.
    """
    T, N = seats.shape
    P = rewards.shape[2]
    if learn.shape != (T, N) or dones.shape != (T, N) or values.shape != (T, N):
        raise ValueError(
            f"seats, learn, dones and values must all be (T, N) = {(T, N)}; got learn "
            f"{learn.shape}, dones {dones.shape}, values {values.shape}"
        )
    if rewards.shape[:2] != (T, N) or group_of_seat.shape != (P,):
        raise ValueError(f"rewards must be (T, N, P) = {(T, N, P)} with P seats in group_of_seat")
    G = rep_seat.shape[0]
    if pending.live.shape != (N, G):
        raise ValueError(f"pending state is {pending.live.shape}, expected (N, G) = {(N, G)}")
    after = pending.copy()
    out = Credit(
        np.zeros((T, N), np.float32),
        np.zeros((T, N), np.float32),
        np.zeros((T, N), np.bool_),
        np.zeros((N, G), np.float32),
        np.zeros((N, G), np.float32),
        np.zeros((N, G), np.bool_),
    )
    _credit_kernel(
        np.ascontiguousarray(seats, np.int64),
        np.ascontiguousarray(learn, np.bool_),
        np.ascontiguousarray(rewards, np.float64),
        np.ascontiguousarray(dones, np.bool_),
        np.ascontiguousarray(values, np.float64),
        np.ascontiguousarray(group_of_seat, np.int64),
        np.ascontiguousarray(rep_seat, np.int64),
        float(gamma),
        float(lam),
        after.live,
        after.src,
        after.value,
        after.reward,
        out.adv,
        out.ret,
        out.valid,
        out.carry_adv,
        out.carry_ret,
        out.carry_valid,
    )
    return out, after


@njit(cache=True)
def _credit_kernel(
    seats,
    learn,
    rewards,
    dones,
    values,
    group_of_seat,
    rep_seat,
    gamma,
    lam,
    live,
    src,
    pval,
    prew,
    adv,
    ret,
    valid,
    carry_adv,
    carry_ret,
    carry_valid,
):
    """One pass forward in time links each decision to its successor (or its game's end) and
    credits the rewards; one pass backward computes GAE. Updates the pending state in place."""
    T, N = seats.shape
    G = live.shape[1]
    delta = np.zeros((T, N))
    nxt = np.full((T, N), -1, np.int64)
    carry_delta = np.zeros((N, G))
    carry_next = np.full((N, G), -1, np.int64)
    carry_value = pval.copy()  # the carried decisions' own values (pval moves on)
    for t in range(T):
        for b in range(N):
            if learn[t, b]:
                g = group_of_seat[seats[t, b]]
                if live[b, g]:  # the previous decision of this trajectory gets its successor
                    d = prew[b, g] + gamma * values[t, b] - pval[b, g]
                    p = src[b, g]
                    if p < 0:
                        carry_delta[b, g] = d
                        carry_next[b, g] = t
                        carry_valid[b, g] = True
                    else:
                        delta[p, b] = d
                        nxt[p, b] = t
                        valid[p, b] = True
                live[b, g] = True
                src[b, g] = t
                pval[b, g] = values[t, b]
                prew[b, g] = 0.0
            for g in range(G):  # rewards go to each trajectory's latest decision
                if live[b, g]:
                    prew[b, g] += rewards[t, b, rep_seat[g]]
            if dones[t, b]:  # the game ended: its open decisions are terminal
                for g in range(G):
                    if live[b, g]:
                        d = prew[b, g] - pval[b, g]
                        p = src[b, g]
                        if p < 0:
                            carry_delta[b, g] = d
                            carry_valid[b, g] = True
                        else:
                            delta[p, b] = d
                            valid[p, b] = True
                        live[b, g] = False
                        src[b, g] = -1
                        pval[b, g] = 0.0
                        prew[b, g] = 0.0
    for t in range(T - 1, -1, -1):
        for b in range(N):
            if valid[t, b]:
                a = delta[t, b]
                n = nxt[t, b]
                if n >= 0 and valid[n, b]:
                    a += gamma * lam * adv[n, b]
                adv[t, b] = a
                ret[t, b] = a + values[t, b]
    for b in range(N):
        for g in range(G):
            if carry_valid[b, g]:
                a = carry_delta[b, g]
                n = carry_next[b, g]
                if n >= 0 and valid[n, b]:
                    a += gamma * lam * adv[n, b]
                carry_adv[b, g] = a
                carry_ret[b, g] = a + carry_value[b, g]
