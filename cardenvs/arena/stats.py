"""The arena's statistics: a game's outcome per seat, counts, intervals and ratings.

- ``outcomes``: each seat's result in a game from the rewards: won, drawn (every seat's reward
  equal) or lost; ``win_shares`` reads the same as shares of the win (a draw is 1/P each);
- ``mean_interval``: a mean with its 95% interval (normal approximation), ``wilson``: a
  proportion's 95% Wilson interval;
- ``bradley_terry``: ratings on the Elo scale from a pairwise win matrix (Hunter's MM).
"""

from __future__ import annotations

import math

import numpy as np


def win_shares(rewards: np.ndarray) -> np.ndarray:
    """Each seat's share of each game's win (``rewards`` (n, P)): split among the seats with the
    best reward (a draw, every reward equal, is shared by everybody)."""
    best = rewards.max(axis=1, keepdims=True)
    win = rewards == best
    return win / win.sum(axis=1, keepdims=True)


WON, DRAWN, LOST = 1, 0, -1


def outcomes(rewards: np.ndarray) -> np.ndarray:
    """Each seat's result in each game (``rewards`` (n, P)): ``WON`` (1), ``DRAWN`` (0) or
    ``LOST`` (-1). A game is drawn when every seat's reward is equal (every seat: ``DRAWN``);
    otherwise the seats with the best reward won it (two or more tied at the best share the win,
    and each counts as won) and the others lost. This is ``win_shares`` read as counts: a drawn
    game is the one in which every seat gets 1/P, a won seat gets a share above 0 in a game that
    is not drawn, a lost seat gets 0; so a win rate is (the won seats' shares + draws / P) /
    seats."""
    rewards = np.asarray(rewards, float)
    if rewards.ndim != 2 or rewards.shape[1] < 1:
        raise ValueError(f"rewards must be (games, seats), got shape {rewards.shape}")
    best = rewards.max(axis=1, keepdims=True)
    drawn = rewards.min(axis=1, keepdims=True) == best
    return np.where(drawn, DRAWN, np.where(rewards == best, WON, LOST))


def count_outcomes(results) -> dict:
    """``{"wins", "draws", "losses"}``: how many of ``results`` (``outcomes`` values) are each."""
    results = np.asarray(results)
    return {
        "wins": int((results == WON).sum()),
        "draws": int((results == DRAWN).sum()),
        "losses": int((results == LOST).sum()),
    }


def mean_interval(samples, z: float = 1.96) -> tuple[float, float | None, float | None]:
    """The mean of ``samples`` (one reward per game or per seat) and its 95% interval by the
    normal approximation: mean ± z·sd/√n, sd the sample standard deviation (n - 1 degrees of
    freedom). Samples that are all equal (every game drawn at 0) give a zero-width interval at
    that value; a single sample gives no interval (``None`` bounds). A ``ValueError`` for no
    samples."""
    x = np.asarray(samples, float).ravel()
    if x.size == 0:
        raise ValueError("mean_interval needs at least one sample, got none")
    mean = float(x.mean())
    if x.size < 2:
        return mean, None, None
    half = z * float(x.std(ddof=1)) / math.sqrt(x.size)
    return mean, mean - half, mean + half


def wilson(wins: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    # the interval contains p (rounding at p = 0 or 1 must not put it outside)
    return max(0.0, min(p, c - h)), min(1.0, max(p, c + h))


def bradley_terry(wins: np.ndarray, iters: int = 2000, tol: float = 1e-10) -> np.ndarray:
    """Strengths from a pairwise win matrix ``wins[i, j]`` (i beat j; fractions allowed), or from
    a stack of them ``(B, k, k)`` fitted all at once (a bootstrap), by Hunter's MM algorithm
    (every strength updated together, until no log-strength moves by more than ``tol``);
    returned on the Elo scale with agent 0 at 0, ``(k,)`` or ``(B, k)``. An agent without a win
    gets a strength of 1e-9 wins' worth (its MLE is -infinity); one without games keeps 1."""
    w = np.asarray(wins, float)
    single = w.ndim == 2
    if single:
        w = w[None]
    k = w.shape[1]
    games = w + w.swapaxes(1, 2)
    games[:, np.arange(k), np.arange(k)] = 0.0
    num = np.maximum(w.sum(axis=2) - w[:, np.arange(k), np.arange(k)], 1e-9)
    log_p = np.zeros(w.shape[:2])
    for _ in range(iters):
        p = np.exp(log_p)
        den = (games / (p[:, :, None] + p[:, None, :])).sum(axis=2)
        new = np.where(den > 0, np.log(num) - np.log(np.where(den > 0, den, 1.0)), log_p)
        new -= new.mean(axis=1, keepdims=True)
        moved = np.abs(new - log_p).max() if new.size else 0.0
        log_p = new
        if moved < tol:
            break
    ratings = 400.0 / np.log(10.0) * (log_p - log_p[:, :1])
    return ratings[0] if single else ratings


def wdl_text(row: dict) -> str:
    """``"W / D / L"`` counts of a row with ``wins``, ``draws`` and ``losses``; ``"n/a"`` for a
    row stored before they were counted."""
    if any(row.get(k) is None for k in ("wins", "draws", "losses")):
        return "n/a"
    return f"{int(row['wins'])} / {int(row['draws'])} / {int(row['losses'])}"


def reward_text(mean, lo, hi) -> str:
    """A mean reward with its 95% interval (symmetric: the normal approximation),
    ``"+0.120 ± 0.070"``; ``"n/a"`` without a mean (a row stored before it was kept), the mean
    alone without an interval (a single game)."""
    if mean is None:
        return "n/a"
    if lo is None or hi is None:
        return f"{float(mean):+.3f}"
    return f"{float(mean):+.3f} ± {(float(hi) - float(lo)) / 2:.3f}"
