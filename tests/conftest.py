"""Test configuration: hypothesis explores fresh examples locally and runs a fixed,
derandomised set in CI (CI=true), so a CI result never depends on the draw.

One BLAS / OpenMP thread per test process (before numpy or torch is imported; an explicit
setting wins): ``make test`` runs one pytest-xdist worker per core, and a thread pool per core
in every worker oversubscribes the cores; the small matrices of the policies' forward passes
(the zoo's ``act_batch``, evaluations, tiny training runs) then took 5-30x longer on the 2-core
machine (``train/ppo.py`` sets the same for its evaluations: docs/training.md). Subprocesses
the tests start inherit it."""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
