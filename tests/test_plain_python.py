"""``NUMBA_DISABLE_JIT=1`` runs the same kernels as plain Python (for debugging and coverage;
docs/testing.md), and plain Python plays exactly the game the compiled kernels play."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cardenvs

ROOT = Path(__file__).resolve().parent.parent
STEPS = 40

# a digest of every observation, mask, reward and termination of an id's first steps
DIGEST = f"""
import hashlib, sys, warnings
import numpy as np
import cardenvs
from cardenvs.core.vector import RandomLegal
warnings.simplefilter("ignore", RuntimeWarning)  # uint64 wraparound in the hash mixer
for env_id in sys.argv[1:]:
    venv = cardenvs.make_vector(env_id, num_envs=2, seed=0)
    obs, mask, _ = venv.reset()
    policy = RandomLegal(0)
    h = hashlib.sha256()
    for _ in range({STEPS}):
        out = venv.step(policy(mask))
        mask = out[1]
        for a in out[:4]:
            h.update(np.ascontiguousarray(a).tobytes())
    print(env_id, h.hexdigest())
"""


def digests(plain: bool) -> dict[str, str]:
    """Each id's digest of its first steps, run compiled or (``plain``) as plain Python."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("NUMBA_DISABLE_JIT", None)
    if plain:
        env["NUMBA_DISABLE_JIT"] = "1"
    run = subprocess.run(
        [sys.executable, "-c", DIGEST, *cardenvs.GAMES],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return dict(line.split() for line in run.stdout.splitlines())


def test_plain_python__every_id_plays_the_compiled_game_bit_for_bit():
    plain = digests(plain=True)
    assert sorted(plain) == sorted(cardenvs.GAMES)
    assert plain == digests(plain=False)
