"""Puzzle generation throughput along the open-ended difficulty: instances per second per family at
d = 0, 5, 10, 20 (suite v2 instances, each generated and self-checked with ``check``).

A benchmark, not a test: it measures and prints a Markdown table, and asserts nothing. The slowest
single instance is printed beside the rate, since a search or a run waits on the slowest.

Usage: ``.venv/bin/python bench/difficulty_generation.py [--seeds 8]``
"""

from __future__ import annotations

import argparse
import time

from machine_load import OtherLoad

from ladderbench.puzzles.registry import FAMILIES
from ladderbench.puzzles.suite import Cell, generate

DIFFICULTIES = (0, 5, 10, 20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8)
    args = parser.parse_args()
    with OtherLoad() as load:
        table = measure(args.seeds)
    print(f"## Generation per difficulty ({args.seeds} seeds per cell; instances/s, slowest one)\n")
    print("| family | " + " | ".join(f"d = {d}" for d in DIFFICULTIES) + " |")
    print("|---|" + "---|" * len(DIFFICULTIES))
    print("\n".join(table))
    print(f"\n{load.note()}")


def measure(seeds: int) -> list[str]:
    """One Markdown row per family."""
    rows = []
    for name in FAMILIES.names():
        family = FAMILIES.get(name)
        cells = []
        for d in DIFFICULTIES:
            times = []
            for seed in range(1, seeds + 1):
                started = time.perf_counter()
                puzzle = generate(Cell(name, None, d), seed, version="2").puzzle
                assert family.check(puzzle, puzzle.answer)
                times.append(time.perf_counter() - started)
            cells.append(f"{len(times) / sum(times):,.0f}/s ({1000 * max(times):.0f} ms)")
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return rows


if __name__ == "__main__":
    main()
