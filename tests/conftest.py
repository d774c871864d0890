"""Test configuration: hypothesis explores fresh examples locally and runs a fixed,
derandomised set in CI (CI=true), so a CI result never depends on the draw."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
