"""Hostile input against every surface of cardenvs that listens or loads: a seeded attack script.

    python -m benchmarks.attack                                  # 1,700 cases, seed 0
    python -m benchmarks.attack --seed 3 --cases 5000 --json attack.json
    python -m benchmarks.attack --surfaces web records --list    # every case and its outcome
    python -m benchmarks.attack --per-surface 15                 # 15 cases on each surface

Each case is ``(surface, name, outcome)``: ``ok`` (refused or handled as expected) or
``finding``, with a severity: ``security`` (a cross-site or rebinding request served, the hand
or the token served without the token, code run by a model file, hidden cards recoverable from a
seat's page, markup of a record unescaped in a page, a forged record that replays as another),
``data-loss`` (a record not saved or overwritten) or ``error-type`` (a traceback of the wrong
type, a 500 or no answer, a malformed value taken silently, a refusal without a message). The
output gives the cases per surface, every finding and every note (a case handled as expected,
with a remark); the exit code is 1 when there is a finding. The cases are a function of
``--seed`` (each surface draws from its own generator: ``--surfaces`` picks the same cases of a
surface as a run of all of them), and so are the outcomes (the server's token and the temporary
paths aside).

Surfaces (``--cases`` is shared among them in the proportions of ``WEIGHTS``, ``--per-surface``
gives each the same number; each has controls that must pass, a catalogue of hand-written cases,
a seeded sample of it when the budget is smaller, and seeded random cases beyond it), one module
each, whose docstring gives its cases and what is expected of them:

- ``web`` (``web.py``, with ``web_http.py``): the web server over raw HTTP;
- ``models`` (``models.py``): hostile model files through every loader;
- ``records`` (``records.py``): mutated records through ``cardenvs.replay``;
- ``viewer`` (``viewer.py``): every seat's replay page;
- ``cli`` (``cli.py``): the command lines, in-process;
- ``wrappers`` and ``engine`` (``wrappers.py``): the RL wrappers, the batched engine and the AEC
  env.

``common.py`` holds the case and finding types, the helpers and the records of random legal
games; ``run.py`` the run (``attack``), the report (``text_report``) and the command line
(``main``). This package re-exports the names below.

Every network call has a timeout, every server binds 127.0.0.1 and is stopped at the end, every
file is written in a temporary folder (``--keep DIR`` writes and keeps them there), and every
case has a deadline (``--case-timeout``, SIGALRM).
"""

from benchmarks.attack.cli import Sandbox, cli_catalogue, invoke, surface_cli
from benchmarks.attack.common import (
    CASE_TIMEOUT,
    DEFAULT_CASES,
    MARKUP,
    NET_TIMEOUT,
    SEVERITIES,
    SURFACES,
    WEIGHTS,
    Case,
    CaseTimeout,
    Finding,
    Folders,
    Note,
    Outcome,
    base_records,
    choose,
    refuses,
    run_cases,
)
from benchmarks.attack.models import ModelLab, model_case, model_variants, surface_models
from benchmarks.attack.records import record_mutations, surface_records
from benchmarks.attack.run import RUNNERS, attack, budgets, main, text_report
from benchmarks.attack.viewer import seat_page_case, surface_viewer
from benchmarks.attack.web import surface_web, web_catalogue
from benchmarks.attack.web_http import WebTarget
from benchmarks.attack.wrappers import surface_engine, surface_wrappers

__all__ = [
    "CASE_TIMEOUT",
    "DEFAULT_CASES",
    "MARKUP",
    "NET_TIMEOUT",
    "RUNNERS",
    "SEVERITIES",
    "SURFACES",
    "WEIGHTS",
    "Case",
    "CaseTimeout",
    "Finding",
    "Folders",
    "ModelLab",
    "Note",
    "Outcome",
    "Sandbox",
    "WebTarget",
    "attack",
    "base_records",
    "budgets",
    "choose",
    "cli_catalogue",
    "invoke",
    "main",
    "model_case",
    "model_variants",
    "record_mutations",
    "refuses",
    "run_cases",
    "seat_page_case",
    "surface_cli",
    "surface_engine",
    "surface_models",
    "surface_records",
    "surface_viewer",
    "surface_web",
    "surface_wrappers",
    "text_report",
    "web_catalogue",
]
