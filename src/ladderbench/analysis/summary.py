"""From result rows to the summary row: per rung and per group, with Wilson intervals.

pass@1 is the headline: per item, the share of its scored attempts that passed, averaged over
items (with one sample per item this is the plain pass rate). Errored attempts are counted apart
and never scored. With several samples, unbiased pass@k is added as a diagnostic.

Standard library and Python 3.8 syntax only (rows are read by attribute): the standalone runner
inlines this module, so its summary row is computed by the same code as the harness's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ladderbench.analysis.stats import pass_at_k, wilson
from ladderbench.items import ResultRow
from ladderbench.summaries import Group, Rung

CLEARED = 0.9
NOISE_POINTS = 10.0
RULE = (
    f"a rung scoring more than {NOISE_POINTS:g} points above the rung below is flagged; "
    "smaller rises are within noise"
)
BY_KEY = {
    "level": "byLevel",
    "tier": "byTier",
    "category": "byCategory",
    "family": "byFamily",
    "task": "byTask",
}


@dataclass
class _ItemTally:
    scored: int = 0
    passed: int = 0
    errors: int = 0
    unparsed: int = 0


@dataclass
class RowTally:
    """The attempts of one rung or group, tallied per item; ``stats`` is its summary bucket."""

    items: dict[str, _ItemTally] = field(default_factory=dict)

    def add(self, row: ResultRow) -> None:
        tally = self.items.setdefault(row.id, _ItemTally())
        if row.error is not None:
            tally.errors += 1
            return
        tally.scored += 1
        tally.passed += bool(row.passed)
        tally.unparsed += row.extracted is None

    def stats(self, samples: int) -> dict[str, Any]:
        scored = [t for t in self.items.values() if t.scored]
        n = len(scored)
        passed: float = sum(t.passed / t.scored for t in scored)
        if all(t.scored == 1 for t in scored):
            passed = round(passed)
        lo, hi = wilson(passed, n)
        out: dict[str, Any] = {
            "n": n,
            "passed": passed,
            "rate": passed / n if n else None,
            "ci95": [lo, hi],
            "errors": sum(t.errors for t in self.items.values()),
            "unparsed": sum(t.unparsed for t in self.items.values()),
        }
        if samples > 1:
            eligible = [t for t in scored if t.scored >= samples]
            out[f"pass@{samples}"] = (
                sum(pass_at_k(t.scored, t.passed, samples) for t in eligible) / len(eligible)
                if eligible
                else None
            )
        return out


def _rises(by_rung: dict[str, dict[str, Any]], noun: str) -> tuple[list[str], list[str]]:
    """Calibration: a higher rung should never score clearly above the rung below it."""
    flags: list[str] = []
    notes: list[str] = []
    keys = sorted(by_rung, key=int)
    for lower, upper in zip(keys, keys[1:]):  # noqa: RUF007 (pairwise is not in Python 3.8)
        a, b = by_rung[lower], by_rung[upper]
        if not (a["n"] and b["n"]):
            continue
        gap = 100 * (b["rate"] - a["rate"])
        if gap > NOISE_POINTS:
            flags.append(
                f"{noun} {upper} above {noun} {lower} by {gap:.0f} points: "
                "too few samples or a miscalibrated " + noun
            )
        elif gap > 0:
            per_item = 100 / min(a["n"], b["n"])
            notes.append(
                f"{noun} {upper} above {noun} {lower} by {gap:.0f} points: within noise "
                f"(each item is about {per_item:.1f} points)"
            )
    return flags, notes


def summarise(
    rows: Iterable[ResultRow],
    *,
    rung: Rung,
    group: Group,
    samples: int = 1,
    baseline: float | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The summary row (without ``type``) for the attempts in ``rows``."""
    overall = RowTally()
    by_rung: dict[str, RowTally] = defaultdict(RowTally)
    by_group: dict[str, RowTally] = defaultdict(RowTally)
    total = 0
    head: ResultRow | None = None
    for row in rows:
        head = head or row
        total += 1
        overall.add(row)
        value = getattr(row, rung)
        if value is not None:
            by_rung[str(value)].add(row)
        label = getattr(row, group)
        if label is not None:
            by_group[str(label)].add(row)

    summary: dict[str, Any] = {
        "run": head.run if head else None,
        "suite": head.suite if head else None,
        "adapter": head.adapter if head else None,
        "model": head.model if head else None,
        "total": total,
        **overall.stats(samples),
        "samples": samples,
        "baseline": baseline,
    }
    rungs = {k: by_rung[k].stats(samples) for k in sorted(by_rung, key=int)}
    flags, notes = _rises(rungs, rung)
    if rung == "tier":
        for stats in rungs.values():
            stats["cleared"] = bool(stats["n"]) and stats["rate"] >= CLEARED
        cleared = [int(k) for k, s in rungs.items() if s["cleared"]]
        summary["ladderLevel"] = max(cleared) if cleared else None
        for k, s in rungs.items():
            failed_below = [j for j in rungs if int(j) < int(k) and not rungs[j]["cleared"]]
            if s["cleared"] and failed_below:
                flags.append(f"tier {k} cleared above failed tier {failed_below[0]}")
    lo, hi = summary["ci95"]
    if baseline is not None and summary["n"] and lo <= baseline <= hi:
        notes.append(
            f"overall {100 * summary['rate']:.1f}% is within noise of the "
            f"{100 * baseline:.0f}% guessing baseline: differences between rungs say little"
        )
    summary[BY_KEY[rung]] = rungs
    summary[BY_KEY[group]] = {k: by_group[k].stats(samples) for k in sorted(by_group)}
    summary["flags"] = flags
    summary["notes"] = notes
    summary["rule"] = RULE
    if extra:
        summary.update(extra)
    return summary
