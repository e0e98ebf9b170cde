"""One streaming pass over a results file: what reports and comparisons need, in bounded memory.

A results file can hold millions of rows; the digest keeps the summary, per-item outcomes (for
paired tests between models), family x tier counts, and a seeded reservoir sample of rows for the
audit table — never the rows themselves. Reading is ``runner.results.scan``: one pass, one policy
for a torn last line.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ladderbench.items import ResultRow
from ladderbench.runner.results import Summary, iter_results, scan

AUDIT_SAMPLE = 400
TEXT_LIMIT = 1500


@dataclass
class Digest:
    path: Path
    summary: Summary | None = None
    finished: bool = False  # the file holds its summary row (else it was computed, or is None)
    rows: int = 0
    samples: int = 1
    suite: str = ""
    adapter: str = ""
    model: str = ""
    item_outcome: dict[str, float] = field(default_factory=dict)  # mean score per item
    cells: dict[tuple[str, int], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )
    sample: list[dict[str, Any]] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.adapter}:{self.model}"

    @property
    def sampled(self) -> bool:
        return self.rows > len(self.sample)


def _clip(value: Any) -> Any:
    if isinstance(value, str) and len(value) > TEXT_LIMIT:
        return value[:TEXT_LIMIT] + f"… [{len(value) - TEXT_LIMIT} more characters]"
    return value


def first_suite(path: Path) -> str:
    """The suite a results file belongs to, from its first row (the rest is not read)."""
    first = next(iter_results(path), None)
    return first.suite if first else ""


def digest(
    path: Path,
    sample_size: int = AUDIT_SAMPLE,
    seed: int = 0,
    keep_items: bool = True,
    summarise: bool = False,
) -> Digest:
    """Read ``path`` once; rows beyond the reservoir are counted, not kept.

    ``keep_items`` keeps each item's outcome (memory grows with the number of distinct items):
    needed only to compare runs of the same suite. ``summarise`` computes the summary of a run cut
    short in the same pass (otherwise it stays None).
    """
    result = Digest(path)
    rng = random.Random(seed)
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])

    def add(row: ResultRow) -> None:
        result.rows += 1
        result.samples = max(result.samples, row.sample + 1)
        if result.rows == 1:
            result.suite, result.adapter, result.model = row.suite, row.adapter, row.model
        if row.error is None:
            if keep_items:
                entry = sums[row.id]
                entry[0] += row.score or 0.0
                entry[1] += 1
            if row.family is not None and row.tier is not None:
                cell = result.cells[(row.family, row.tier)]
                cell[0] += 1
                cell[1] += bool(row.passed)
        slot = result.rows - 1 if result.rows <= sample_size else rng.randrange(result.rows)
        if slot < sample_size:
            kept = {k: _clip(v) for k, v in row.to_json_dict().items() if k != "usage"}
            if slot == len(result.sample):
                result.sample.append(kept)
            else:
                result.sample[slot] = kept

    run = scan(path, add, summarise)
    result.summary, result.finished = run.summary, run.finished
    result.item_outcome = {item: total / n for item, (total, n) in sums.items() if n}
    return result


def digest_runs(paths: list[Path], sample_size: int = AUDIT_SAMPLE) -> list[Digest]:
    """Digest each file once, summaries included; item outcomes kept where a suite repeats."""
    suites = [first_suite(p) for p in paths]
    return [
        digest(p, sample_size, keep_items=suites.count(suite) > 1, summarise=True)
        for p, suite in zip(paths, suites)
    ]
