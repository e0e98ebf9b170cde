"""Adaptive breaking-point search against the full grid, on simulated models.

A benchmark, not a test: it measures and prints Markdown tables, and asserts nothing.

Each simulated model has, per family, a pass rate that falls logistically with difficulty,
``p(d) = 1 / (1 + exp(-slope * (d50 - d)))``: a general strength drawn uniformly over the ladder,
each family's ``d50`` that strength plus noise, each slope drawn log-uniformly between a gentle
fall and a cliff. Every instance's answer is fixed by a hash of (model, family, d, seed), as a
model at temperature 0 answers one prompt one way, so the search and the grid see the same answer
whenever they ask the same instance.

- Full grid: every family at every difficulty 0..D with 16 seeds, summarised as a v2 run
  (``summarise_puzzles``): the ladder level from the tiers' anchor cells, observed.
- Adaptive: ``puzzles.adaptive.next_round`` round by round, summarised the same way: the
  ladder level from the fits and the answers seen (``tierEstimates``).

Reported: how often the two ladder levels agree, the adaptive calls as a share of the grid's,
and how far each family's fitted highest-cleared difficulty and 50% crossing are from the truth.

Usage: ``.venv/bin/python bench/adaptive_search.py [--models 300] [--seed 0]``
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import statistics
import time
from dataclasses import dataclass

from ladderbench.items import ResultRow
from ladderbench.puzzles.adaptive import SearchConfig, next_round
from ladderbench.puzzles.registry import families
from ladderbench.puzzles.suite import V2_CELLS, anchor_tiers, summarise_puzzles
from ladderbench.summaries import BreakingPoint

SEEDS = 16
LOGIT_90 = math.log(9)


@dataclass(frozen=True)
class Model:
    name: str
    curves: dict[str, tuple[float, float]]  # family -> (d50, slope)

    def rate(self, family: str, d: int) -> float:
        d50, slope = self.curves[family]
        return 1 / (1 + math.exp(-slope * (d50 - d)))

    def answer(self, family: str, d: int, seed: int) -> bool:
        key = f"{self.name}|{family}|{d}|{seed}".encode()
        draw = int.from_bytes(hashlib.sha256(key).digest()[:8], "big") / 2**64
        return draw < self.rate(family, d)


def draw_model(index: int, names: list[str], top: int) -> Model:
    rng = random.Random(index)
    strength = rng.uniform(-1.0, top + 1.0)
    curves = {
        name: (strength + rng.gauss(0, 1.5), math.exp(rng.uniform(math.log(0.5), math.log(4))))
        for name in names
    }
    return Model(f"sim{index}", curves)


def row(model: Model, family: str, d: int, seed: int, tier: int | None) -> ResultRow:
    passed = model.answer(family, d, seed)
    return ResultRow(
        run="bench", adapter="sim", model=model.name, suite="puzzles",
        id=f"{family}/d{d}/s{seed}", family=family, tier=tier, difficulty=d, seed=seed,
        prompt="", expected="", response="", extracted=None, score=float(passed),
        passed=passed, latency_ms=0.0,
    )  # fmt: skip


def grid(model: Model, names: list[str], top: int) -> tuple[int | None, int]:
    anchors = anchor_tiers()
    rows = [
        row(model, f, d, seed, anchors.get((f, d)))
        for f in names
        for d in range(top + 1)
        for seed in range(1, SEEDS + 1)
    ]
    return summarise_puzzles(rows, 1, pool=SEEDS).ladder_level, len(rows)


def adaptive(
    model: Model, names: list[str], config: SearchConfig
) -> tuple[int | None, int, dict[str, BreakingPoint] | None]:
    answers: list[tuple[str, int, int, bool | None]] = []
    rows: list[ResultRow] = []
    while asks := next_round(names, answers, SEEDS, config, V2_CELLS):
        for family, d, index in asks:
            r = row(model, family, d, index + 1, None)
            rows.append(r)
            answers.append((family, d, index, r.passed))
    summary = summarise_puzzles(rows, 1, pool=SEEDS)
    return summary.ladder_level, len(rows), summary.breaking_points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    names = sorted(families())
    config = SearchConfig()
    top = max(d for cells in V2_CELLS.values() for _, d in cells) + 3
    agree = 0
    shares: list[float] = []
    cleared_err: list[int] = []
    d50_covered = d50_total = 0
    levels: dict[str | None, int] = {}
    started = time.perf_counter()
    for index in range(args.seed, args.seed + args.models):
        model = draw_model(index, names, top)
        full_level, full_calls = grid(model, names, top)
        level, calls, points = adaptive(model, names, config)
        agree += level == full_level
        levels[str(full_level)] = levels.get(str(full_level), 0) + 1
        shares.append(calls / full_calls)
        for family, point in (points or {}).items():
            d50, slope = model.curves[family]
            true_cleared = max(math.floor(d50 - LOGIT_90 / slope), -1)
            cleared_err.append(abs(point.cleared - true_cleared))
            d50_total += 1
            d50_covered += point.d50_ci95[0] <= d50 <= point.d50_ci95[1]
    elapsed = time.perf_counter() - started
    n = args.models
    print(f"## Adaptive search vs full grid: {n} simulated models\n")
    print(
        f"Full grid: {len(names)} families x d = 0..{top} x {SEEDS} seeds "
        f"= {len(names) * (top + 1) * SEEDS} calls per model; anchors: suite v2 tiers.\n"
    )
    print("| measure | value |\n|---|---|")
    print(f"| same ladder level as the full grid | {agree}/{n} = {100 * agree / n:.1f}% |")
    print(f"| adaptive calls / grid calls, mean | {100 * statistics.fmean(shares):.1f}% |")
    print(f"| adaptive calls / grid calls, max | {100 * max(shares):.1f}% |")
    exact = sum(e == 0 for e in cleared_err) / len(cleared_err)
    within = sum(e <= 1 for e in cleared_err) / len(cleared_err)
    print(f"| per family: fitted highest cleared d = true one | {100 * exact:.1f}% |")
    print(f"| per family: within 1 of the true one | {100 * within:.1f}% |")
    print(f"| per family: 95% interval of d50 covers the true d50 | "
          f"{100 * d50_covered / d50_total:.1f}% |")  # fmt: skip
    print(f"| grid ladder levels of the models (level: count) | {dict(sorted(levels.items()))} |")
    print(f"\n{elapsed:.0f} s for {n} models (search, grid and both summaries).")


if __name__ == "__main__":
    main()
