# Every target creates .venv and installs what it needs on first use.
# torch is pinned through constraints.txt (see the comment there).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/pip install -q -c constraints.txt
STAMP_BASE := $(VENV)/.stamp-base
STAMP_DEV := $(VENV)/.stamp-dev
STAMP_TRAIN := $(VENV)/.stamp-train

.PHONY: demo test test-all lint format bench clean

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

## The main job (for now): one full Piquet partie between two random agents, rendered as text.
demo: $(STAMP_BASE)
	$(BIN)/python -m cardenvs.demo --game piquet-v0 --seed 0

## The whole test suite (slow tests excluded; `make test-all` runs them too).
test: $(STAMP_DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -q

test-all: $(STAMP_DEV)
	$(BIN)/python -m pytest -q -m ""

lint: $(STAMP_DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP_DEV)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

## Throughput benchmark (AEC and batched engine; writes benchmarks/results/throughput.json) and
## the Four Aces scorer's time per hand.
bench: $(STAMP_BASE)
	$(BIN)/python -m benchmarks.throughput
	$(BIN)/python -m benchmarks.scoring

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
