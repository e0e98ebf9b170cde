"""The live suite's aggregation, as LiveBench does it.

Score per question in [0, 1] (the mean over samples); task score the mean over its questions;
category score the mean of its tasks; overall the mean of the categories, so each category weighs
the same whatever its size. A task's interval is the Wilson interval of its mean score (a score in
[0, 1] varies no more than a pass/fail of the same mean, so it stays honest at 0%, 100% and small
n). An aggregate is a weighted mean of tasks: its interval is the Wilson interval at Kish's
effective sample size ``1 / sum(w_t^2 / n_t)``, so a category of one task has exactly that task's
interval, and an aggregate is never narrower than all its questions pooled would be.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from ladderbench.analysis.stats import wilson
from ladderbench.items import ResultRow
from ladderbench.summaries import LiveSummary


def effective_n(parts: list[tuple[int, float]]) -> float:
    """Kish's effective sample size of a weighted mean of task means: ``parts`` are (n, weight)
    with the weights summing to 1. Equal to n for one task; at most the total for equal weights."""
    return 1.0 / sum(weight * weight / n for n, weight in parts)


def weighted_interval(mean: float, parts: list[tuple[int, float]]) -> list[float]:
    """The Wilson interval of a weighted mean of task means at its effective sample size
    (``parts``: each task's (n, weight))."""
    n_eff = effective_n(parts)
    lo, hi = wilson(mean * n_eff, n_eff)
    return [lo, hi]


def live_summary(rows: Iterable[ResultRow], samples: int = 1) -> LiveSummary:
    per_item: dict[str, list[float]] = defaultdict(list)
    task_of: dict[str, str] = {}
    category_of: dict[str, str] = {}
    errors: dict[str, int] = defaultdict(int)
    difficulties: dict[str, set[int]] = defaultdict(set)
    total = 0
    head: ResultRow | None = None
    for row in rows:
        head = head or row
        total += 1
        task = row.task or "?"
        task_of[row.id] = task
        category_of[task] = row.category or "?"
        if row.difficulty is not None:
            difficulties[task].add(row.difficulty)
        if row.error is not None:
            errors[task] += 1
            continue
        per_item[row.id].append(row.score or 0.0)

    item_scores: dict[str, list[float]] = defaultdict(list)
    for item, scores in per_item.items():
        item_scores[task_of[item]].append(statistics.fmean(scores))
    by_task: dict[str, Any] = {}
    task_stats: dict[str, tuple[float, int]] = {}
    for task in sorted(set(task_of.values())):
        scores = item_scores.get(task, [])
        entry: dict[str, Any] = {"category": category_of[task], "n": len(scores)}
        entry["errors"] = errors.get(task, 0)
        entry["difficulties"] = sorted(difficulties.get(task, ()))
        if scores:
            mean = statistics.fmean(scores)
            task_stats[task] = (mean, len(scores))
            interval = list(wilson(sum(scores), len(scores)))
            entry.update(score=mean, ci95=interval, perfect=sum(s == 1.0 for s in scores))
        else:
            entry.update(score=None, ci95=None, perfect=0)
        by_task[task] = entry

    by_category: dict[str, Any] = {}
    members: dict[str, list[str]] = defaultdict(list)
    for task in sorted(task_stats):
        members[category_of[task]].append(task)
    category_means: dict[str, float] = {}
    for category in sorted(members):
        tasks = members[category]
        mean = statistics.fmean(task_stats[t][0] for t in tasks)
        category_means[category] = mean
        ci95 = weighted_interval(mean, [(task_stats[t][1], 1 / len(tasks)) for t in tasks])
        by_category[category] = {"tasks": len(tasks), "score": mean, "ci95": ci95}
    overall: dict[str, Any] = {"categories": len(members), "score": None, "ci95": None}
    if members:
        mean = statistics.fmean(category_means.values())
        weights = [
            (task_stats[t][1], 1 / len(members) / len(ts)) for ts in members.values() for t in ts
        ]
        overall.update(score=mean, ci95=weighted_interval(mean, weights))
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
