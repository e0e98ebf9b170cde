# Quick start: `make demo` and `make test`. Each sets up .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: setup browser demo test lint format bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[local,dev]'
	touch $(STAMP)

setup: $(STAMP)

# Debian's Chromium, for the test that opens the HTML report in a real browser (needs root).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 || \
		{ apt-get update -q >/dev/null 2>&1 && \
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; } || \
		echo "warning: could not install chromium; the browser test will be skipped"; }

demo: setup
	$(BIN)/ladderbench run --model local --out results/demo-static.jsonl
	$(BIN)/ladderbench run --model local --suite puzzles --seeds 1-2 --max-tokens 256 \
		--out results/demo-puzzles.jsonl
	$(BIN)/ladderbench report results/demo-static.jsonl results/demo-puzzles.jsonl \
		--html results/report.html > /dev/null
	@echo "open results/report.html for the report"

test: setup lint browser
	$(BIN)/python -m pytest

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup
	$(BIN)/python -m pip install -q reasoning-gym
	$(BIN)/python bench/harness_overhead.py
	$(BIN)/python bench/puzzle_generation.py
	$(BIN)/python bench/report_scale.py

clean:
	rm -rf $(VENV) results .pytest_cache .ruff_cache
