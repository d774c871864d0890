"""``python -m benchmarks.attack [--seed S] [--cases N] [--per-surface N] [--surfaces ...]
[--json OUT] [--list]``: runs ``benchmarks.attack.main``; exit 1 on any finding."""

import sys

from benchmarks.attack.run import main

sys.exit(1 if main()["findings"] else 0)
