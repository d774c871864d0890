"""The README's install route: with a CPU torch installed first, the training extras keep it and
add nothing CUDA (pip's own resolver, asked for a dry run in the test's environment)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# what a CUDA build of torch brings, or torch itself replaced by another build
CUDA = re.compile(r"^(nvidia-.*|cuda-.*|triton|torch)$", re.IGNORECASE)


def test_install__the_readme_installs_cpu_torch_before_the_extras():
    text = (ROOT / "README.md").read_text()
    cpu = text.index("pip install torch --index-url https://download.pytorch.org/whl/cpu")
    assert cpu < text.index("pip install -e '.[train]'")
    assert cpu < text.index("pip install -e '.[rllib]'")


def test_install__the_training_extras_keep_the_installed_cpu_torch():
    """This environment has the CPU build of torch (``make`` installs it, pinned by
    ``constraints.txt``), as the README's first line gives a user. pip, asked what installing the
    ``train`` and ``rllib`` extras would install, must keep that torch and add no CUDA package
    (an extra pinning another torch, or naming an ``nvidia-*`` wheel, fails here)."""
    import torch

    assert "+cu" not in torch.__version__ and torch.version.cuda is None
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--report", "-"]
        + ["-e", f"{ROOT}[train,rllib]"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    would = [i["metadata"]["name"] for i in json.loads(done.stdout)["install"]]
    assert "cardenvs" in would  # the report is of this project
    assert not [n for n in would if CUDA.match(n)], f"pip would install {would}"
