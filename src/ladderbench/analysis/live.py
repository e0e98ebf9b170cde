"""The live suite's aggregation, as LiveBench does it.

Score per question in [0, 1] (the mean over samples); task score the mean over its questions;
category score the mean of its tasks; overall the mean of the categories, so each category weighs
the same whatever its size. A task's interval is the Wilson interval of its mean score (a score in
[0, 1] varies no more than a pass/fail of the same mean, so it stays honest at 0%, 100% and small
n); categories and overall propagate the tasks' standard errors through the means.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from ladderbench.analysis.stats import Z95, wilson
from ladderbench.items import ResultRow
from ladderbench.summaries import LiveSummary


def _interval(mean: float, se: float) -> list[float]:
    return [max(0.0, mean - Z95 * se), min(1.0, mean + Z95 * se)]


def _task_stats(values: list[float]) -> tuple[float, float, list[float]]:
    """Mean, standard error and interval of one task's question scores."""
    mean = statistics.fmean(values)
    lo, hi = wilson(sum(values), len(values))
    return mean, (hi - lo) / (2 * Z95), [lo, hi]


def _combine(parts: list[tuple[float, float]]) -> tuple[float, float]:
    """Mean of independent means, and its standard error."""
    mean = statistics.fmean(m for m, _ in parts)
    se = math.sqrt(sum(s * s for _, s in parts)) / len(parts)
    return mean, se


def live_summary(rows: Iterable[ResultRow], samples: int = 1) -> LiveSummary:
    per_item: dict[str, list[float]] = defaultdict(list)
    task_of: dict[str, str] = {}
    category_of: dict[str, str] = {}
    errors: dict[str, int] = defaultdict(int)
    total = 0
    head: ResultRow | None = None
    for row in rows:
        head = head or row
        total += 1
        task = row.task or "?"
        task_of[row.id] = task
        category_of[task] = row.category or "?"
        if row.error is not None:
            errors[task] += 1
            continue
        per_item[row.id].append(row.score or 0.0)

    item_scores: dict[str, list[float]] = defaultdict(list)
    for item, scores in per_item.items():
        item_scores[task_of[item]].append(statistics.fmean(scores))
    by_task: dict[str, Any] = {}
    task_stats: dict[str, tuple[float, float]] = {}
    for task in sorted(set(task_of.values())):
        scores = item_scores.get(task, [])
        entry: dict[str, Any] = {"category": category_of[task], "n": len(scores)}
        entry["errors"] = errors.get(task, 0)
        if scores:
            mean, se, interval = _task_stats(scores)
            task_stats[task] = (mean, se)
            entry.update(score=mean, ci95=interval, perfect=sum(s == 1.0 for s in scores))
        else:
            entry.update(score=None, ci95=None, perfect=0)
        by_task[task] = entry

    by_category: dict[str, Any] = {}
    category_stats: dict[str, tuple[float, float]] = {}
    for category in sorted(set(category_of.values())):
        parts = [task_stats[t] for t in sorted(task_stats) if category_of[t] == category]
        if parts:
            mean, se = _combine(parts)
            category_stats[category] = (mean, se)
            by_category[category] = {
                "tasks": len(parts),
                "score": mean,
                "ci95": _interval(mean, se),
            }
    overall: dict[str, Any] = {"categories": len(category_stats), "score": None, "ci95": None}
    if category_stats:
        mean, se = _combine(list(category_stats.values()))
        overall.update(score=mean, ci95=_interval(mean, se))
    n = sum(len(v) for v in item_scores.values())
    return LiveSummary.model_validate(
        {
            "run": head.run if head else None,
            "suite": head.suite if head else None,
            "adapter": head.adapter if head else None,
            "model": head.model if head else None,
            "total": total,
            "n": n,
            "errors": sum(errors.values()),
            "passed": sum(t["perfect"] for t in by_task.values()),
            "rate": overall["score"],
            "samples": samples,
            "overall": overall,
            "byCategory": by_category,
            "byTask": by_task,
        }
    )
