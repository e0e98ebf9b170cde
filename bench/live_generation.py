"""Live question generation at the release difficulties against difficulty 0: seconds per
question per task and their ratio, plus the prompt length a model reads.

A benchmark, not a test: it measures and prints a Markdown table, and asserts nothing. The
slowest single question is printed beside the mean, since a release build waits on the slowest.

Usage: ``.venv/bin/python bench/live_generation.py [--questions 4]``
"""

from __future__ import annotations

import argparse
import time

from machine_load import OtherLoad

from ladderbench.live.base import Sources, question_rng
from ladderbench.live.difficulty import RELEASE_DIFFICULTY
from ladderbench.live.registry import TASKS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=4)
    args = parser.parse_args()
    with OtherLoad() as load:
        rows = measure(args.questions)
    print(f"## Live generation ({args.questions} questions per cell; mean and slowest)\n")
    print("| task | d | d = 0 | release d | ratio | prompt chars (d = 0 → release d) |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"\n{load.note()}")


def timed(name: str, difficulty: int, count: int) -> tuple[float, float, float]:
    """Mean and slowest seconds per question, and the mean prompt length."""
    task = TASKS.get(name)
    times, chars = [], []
    for index in range(count):
        started = time.perf_counter()
        question = task.generate(question_rng("bench", name, index), Sources.empty(), difficulty)
        times.append(time.perf_counter() - started)
        chars.append(len(question.prompt))
    return sum(times) / count, max(times), sum(chars) / count


def measure(count: int) -> list[str]:
    rows = []
    for name in TASKS.names():
        d = RELEASE_DIFFICULTY.get(name, 0)
        easy, easy_max, easy_chars = timed(name, 0, count)
        hard, hard_max, hard_chars = timed(name, d, count)
        rows.append(
            f"| {name} | {d} | {1000 * easy:.1f} ms ({1000 * easy_max:.0f}) "
            f"| {1000 * hard:.1f} ms ({1000 * hard_max:.0f}) | {hard / easy:.1f}x "
            f"| {easy_chars:,.0f} → {hard_chars:,.0f} |"
        )
    return rows


if __name__ == "__main__":
    main()
