# Quick start: `make demo` and `make test`. Each sets up .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: setup demo test lint format bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[local,dev]'
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(BIN)/ladderbench run --model local --out results/demo-static.jsonl
	$(BIN)/ladderbench run --model local --suite puzzles --seeds 1-2 --max-tokens 256 \
		--out results/demo-puzzles.jsonl

test: setup lint
	$(BIN)/python -m pytest

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup
	$(BIN)/python bench/harness_overhead.py

clean:
	rm -rf $(VENV) results .pytest_cache .ruff_cache
