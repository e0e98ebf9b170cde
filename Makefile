# Quick start: `make demo` and `make test`. Each sets up .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: setup browser demo test lint format bench mutation clean

# llama-cpp-python compiles llama.cpp from source. scripts/install-llama.sh builds it for any x86-64
# with AVX2 (explicit flags rather than llama.cpp's native build, which compiles in the kernels of the
# build machine's CPU and crashed with SIGSEGV on a VM advertising AMX; and rather than its runtime
# CPU-variant dispatch, which compiles the backend ten times over and answers differently per CPU).
# The wheel is kept under a name holding the flags, never in pip's cache, which ignores CMAKE_ARGS.
# Set-up ends with `ladderbench doctor`: the model generates a few tokens in a child process, so a
# build that cannot run here stops set-up with one line instead of a segfault in the demo.
$(STAMP): pyproject.toml scripts/install-llama.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	scripts/install-llama.sh $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[local,dev]'
	$(BIN)/ladderbench doctor
	touch $(STAMP)

setup: $(STAMP)

# Debian's Chromium, for the test that opens the HTML report in a real browser (needs root).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 || \
		{ apt-get update -q >/dev/null 2>&1 && \
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; } || \
		echo "warning: could not install chromium; the browser test will be skipped"; }

# A short tour (about a minute after set-up on 2 cores): 10 questions per static level and puzzle
# tiers 0-3 at one seed, with small token limits. Full runs: README, "Running".
demo: setup
	@# a fresh tour each time (a kept file from older questions would be refused on resume);
	@# the response cache still answers a rerun at once
	rm -f results/demo-static.jsonl results/demo-puzzles.jsonl
	$(BIN)/ladderbench run --model local --limit 10 --max-tokens 48 --out results/demo-static.jsonl
	$(BIN)/ladderbench run --model local --suite puzzles --tiers 0-3 --seeds 1 --max-tokens 96 \
		--out results/demo-puzzles.jsonl
	$(BIN)/ladderbench report results/demo-static.jsonl results/demo-puzzles.jsonl \
		--html results/report.html > /dev/null
	@echo "open results/report.html for the report"

test: setup lint browser
	$(BIN)/python -m pytest

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup
	$(BIN)/python -m pip install -q reasoning-gym
	$(BIN)/python bench/harness_overhead.py
	$(BIN)/python bench/puzzle_generation.py
	$(BIN)/python bench/report_scale.py
	$(BIN)/python bench/local_worker.py

# Mutation score of the core modules against their fast in-process tests (bench/README.md,
# "Mutation testing"): a measurement, not a gate. Slow: hours for every target on 2 cores; name some
# with TARGETS="analysis runner". mutmut is installed here only, never a project dependency.
mutation: setup
	$(BIN)/python -m pip install -q mutmut
	$(BIN)/python bench/mutation.py $(TARGETS)

clean:
	rm -rf $(VENV) results .pytest_cache .ruff_cache
