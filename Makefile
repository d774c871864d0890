# Every target creates .venv and installs what it needs on first use.
# torch is pinned through constraints.txt (see the comment there).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/pip install -q -c constraints.txt
STAMP_BASE := $(VENV)/.stamp-base
STAMP_DEV := $(VENV)/.stamp-dev
STAMP_TRAIN := $(VENV)/.stamp-train
STAMP_BENCH := $(VENV)/.stamp-bench
STAMP_DOCS := $(VENV)/.stamp-docs
STAMP_BROWSER := $(VENV)/.stamp-browser
STAMP_RLLIB := $(VENV)/.stamp-rllib
STAMP_TEST := $(VENV)/.stamp-test

.PHONY: demo test test-all lint format bench train train-sb3 docs clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP_BASE): pyproject.toml constraints.txt | $(BIN)/python
	$(PIP) -e .
	touch $@

$(STAMP_DEV): $(STAMP_BASE)
	$(PIP) -e '.[dev]'
	touch $@

$(STAMP_TRAIN): $(STAMP_BASE)
	$(PIP) -e '.[train]'
	touch $@

# Ray RLlib (cardenvs.wrappers.rllib, train/rllib_ppo.py); its tests start a local Ray.
$(STAMP_RLLIB): $(STAMP_TRAIN)
	$(PIP) -e '.[rllib]'
	touch $@

# What `make test` needs, in one pip call (one resolve and one editable build instead of four,
# about half a minute less on a fresh clone); it stands for the four extras' stamps too.
$(STAMP_TEST): $(STAMP_BASE)
	$(PIP) -e '.[dev,train,rllib,docs]'
	touch $(STAMP_DEV) $(STAMP_TRAIN) $(STAMP_RLLIB) $(STAMP_DOCS) $@

# The peers of benchmarks.peers are optional: a failed install does not fail `make bench`
# (benchmarks.peers skips what is missing).
$(STAMP_BENCH): $(STAMP_BASE)
	$(PIP) -e '.[bench]' || echo "peers not installed: pip install -e '.[bench]' failed;" \
		"benchmarks.peers will skip the missing ones"
	touch $@

$(STAMP_DOCS): $(STAMP_BASE)
	$(PIP) -e '.[docs]'
	touch $@

# Headless Chromium for the browser tests (tests/test_view.py, tests/test_web*.py; they fail
# without it, they are never skipped): the distribution's chromium and chromium-driver, installed
# with apt-get (sudo when not root) only when chromium or chromedriver is not on PATH. Selenium
# comes with the dev extra.
$(STAMP_BROWSER): $(STAMP_DEV)
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then \
		echo "chromium and chromedriver: found"; \
	else \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver; \
	fi
	touch $@

## One whole game between random agents, told as text (cardenvs.demo): GAME= (default
## piquet-v0), SEED= (0) and CONFIG= (the game's options as JSON, e.g. CONFIG='{"episode": "deal"}').
GAME ?= piquet-v0
SEED ?= 0
CONFIG ?=
demo: $(STAMP_BASE)
	$(BIN)/python -m cardenvs.demo --game $(GAME) --seed $(SEED) $(if $(CONFIG),--config '$(CONFIG)')

## Native PPO on one game (GAME=, MINUTES=, STEPS= override): every seat learns; model, logs and
## learning curve in runs/GAME. Without MINUTES or STEPS, the game's budget from
## train/hyperparams.py (NATIVE: 8 minutes of wall-clock time, evaluations included).
STEPS ?=
MINUTES ?=
train: $(STAMP_TRAIN)
	$(BIN)/python -m train.ppo --game $(GAME) $(if $(STEPS),--total-timesteps $(STEPS)) \
		$(if $(MINUTES),--minutes $(MINUTES)) --out runs/$(GAME)

## The SB3 route (sb3-contrib's MaskablePPO, one learner seat per game): model etc. in
## runs/sb3-GAME. Without STEPS, the game's budget from train/hyperparams.py (Piquet: 1.5 M).
train-sb3: $(STAMP_TRAIN)
	$(BIN)/python -m train.sb3_ppo --game $(GAME) $(if $(STEPS),--total-timesteps $(STEPS)) \
		--out runs/sb3-$(GAME)

## The documentation site (mkdocs.yml, docs/), built into site/ with every warning an error: a
## broken link or anchor, a page missing from the navigation, a docstring the API reference
## cannot read. The build imports nothing (mkdocstrings reads the sources), so it takes seconds.
## NO_MKDOCS_2_WARNING quiets Material's banner about its end of life (see docs/index.md). No
## --quiet: it hides the warnings from --strict, which then passes a broken link.
docs: $(STAMP_DOCS)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

## The whole test suite (slow tests excluded; `make test-all` runs them too): the engines
## compiled (cardenvs.compile, one engine per process), the docs site, lint, then pytest with one
## worker per core. The compile needs only the base install, so it runs in the background (its
## output in $(VENV)/compile.log) while the rest installs and the site builds; on a fresh clone
## each takes a minute or two. The train extra is installed too (torch pinned to its CPU build),
## so the training scripts' end-to-end tests run instead of being skipped, and headless Chromium
## for the browser tests of the replay viewer and the web game, and Ray RLlib (its tests start a
## local Ray with two CPUs).
test: $(STAMP_BASE)
	@echo "$(BIN)/python -m cardenvs.compile, in the background (log: $(VENV)/compile.log)"
	@$(BIN)/python -m cardenvs.compile > $(VENV)/compile.log 2>&1 & compile=$$!; \
	$(MAKE) --no-print-directory $(STAMP_TEST) $(STAMP_BROWSER) docs \
		|| { kill $$compile 2>/dev/null; exit 1; }; \
	if wait $$compile; then tail -n 1 $(VENV)/compile.log; \
	else cat $(VENV)/compile.log; echo "the background compile failed; compiling again"; \
		$(BIN)/python -m cardenvs.compile || exit 1; fi
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -q -n auto

test-all: $(STAMP_DEV) $(STAMP_TRAIN) $(STAMP_RLLIB) $(STAMP_BROWSER)
	$(BIN)/python -m cardenvs.compile
	$(BIN)/python -m pytest -q -n auto -m ""

lint: $(STAMP_DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP_DEV)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

## Throughput benchmark (AEC and batched engine; writes benchmarks/results/throughput.json), the
## Four Aces scorer's time per hand, and cardenvs against its peers (PettingZoo, RLCard,
## OpenSpiel, pgx; writes benchmarks/results/peers.{json,md,png}). benchmarks.throughput compiles
## every engine first (cardenvs.compile), so the ones after it find the cache warm.
bench: $(STAMP_BASE) $(STAMP_BENCH)
	$(BIN)/python -m benchmarks.throughput
	$(BIN)/python -m benchmarks.scoring
	$(BIN)/python -m benchmarks.peers

clean:
	rm -rf $(VENV) build site *.egg-info .pytest_cache .ruff_cache
