"""Comparing models on shared items: paired tests, and cross-model analyses of task scores.

Two models' scores differ beyond noise only when a paired test over the items both answered says
so: McNemar's exact test for pass/fail items, a paired bootstrap for partial-credit scores.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from typing import Any, Literal

PASS = 0.5  # an item counts as passed when at least half its samples passed


@dataclass
class PairedTest:
    a: str
    b: str
    suite: str
    shared: int
    method: Literal["McNemar exact", "paired bootstrap"]
    difference: float  # mean of a minus mean of b over shared items
    p_value: float | None
    ci95: tuple[float, float] | None
    a_only: int = 0  # items a passed and b failed (McNemar)
    b_only: int = 0

    @property
    def differ(self) -> bool:
        if self.p_value is not None:
            return self.p_value < 0.05
        return self.ci95 is not None and (self.ci95[0] > 0 or self.ci95[1] < 0)


def mcnemar(a: dict[str, float], b: dict[str, float]) -> tuple[int, int, float]:
    """Discordant counts and the exact two-sided p-value on the shared items."""
    from scipy.stats import binomtest

    shared = a.keys() & b.keys()
    a_only = sum(a[i] >= PASS > b[i] for i in shared)
    b_only = sum(b[i] >= PASS > a[i] for i in shared)
    n = a_only + b_only
    p = 1.0 if n == 0 else float(binomtest(min(a_only, b_only), n, 0.5).pvalue)
    return a_only, b_only, p


def paired_bootstrap(
    a: dict[str, float], b: dict[str, float], resamples: int = 2000, seed: int = 0
) -> tuple[float, tuple[float, float]]:
    """Mean paired difference and its 95% percentile interval, resampling shared items."""
    diffs = [a[i] - b[i] for i in sorted(a.keys() & b.keys())]
    if not diffs:
        return 0.0, (0.0, 0.0)
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(diffs, k=len(diffs))) for _ in range(resamples))
    return statistics.fmean(diffs), (means[int(0.025 * resamples)], means[int(0.975 * resamples)])


def compare(
    a_label: str, a: dict[str, float], b_label: str, b: dict[str, float], suite: str
) -> PairedTest:
    shared = a.keys() & b.keys()
    binary = all(v in (0.0, 1.0) for v in (*(a[i] for i in shared), *(b[i] for i in shared)))
    diff = statistics.fmean(a[i] - b[i] for i in shared) if shared else 0.0
    if binary:
        a_only, b_only, p = mcnemar(a, b)
        return PairedTest(
            a_label, b_label, suite, len(shared), "McNemar exact", diff, p, None, a_only, b_only
        )
    mean, ci = paired_bootstrap(a, b)
    return PairedTest(a_label, b_label, suite, len(shared), "paired bootstrap", mean, None, ci)


def pearson_table(scores: dict[str, dict[str, float]]) -> dict[str, dict[str, float | None]]:
    """Correlation between every two columns (tasks or categories) across models.

    ``scores`` maps model -> column -> score; needs three or more models sharing both columns.
    """
    from scipy.stats import pearsonr

    columns = sorted({c for row in scores.values() for c in row})
    table: dict[str, dict[str, float | None]] = {}
    for x in columns:
        table[x] = {}
        for y in columns:
            pairs = [(row[x], row[y]) for row in scores.values() if x in row and y in row]
            xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
            if len(pairs) < 3 or len(set(xs)) < 2 or len(set(ys)) < 2:
                table[x][y] = None
            else:
                table[x][y] = float(pearsonr(xs, ys).statistic)
    return table


def residuals(
    task_scores: dict[str, dict[str, float]], overall: dict[str, float]
) -> dict[str, Any]:
    """Per model, the task it most over- and under-performs against a line fitted on overall score.

    For each task, fit score = a + b * overall across the models that ran it; a model's residual
    is its score minus the line's prediction (as LiveBench reports).
    """
    from scipy.stats import linregress

    resid: dict[str, dict[str, float]] = {m: {} for m in task_scores}
    tasks = sorted({t for row in task_scores.values() for t in row})
    for task in tasks:
        models = [m for m in task_scores if task in task_scores[m] and m in overall]
        xs = [overall[m] for m in models]
        if len(models) < 3 or len(set(xs)) < 2:
            continue
        fit = linregress(xs, [task_scores[m][task] for m in models])
        for m in models:
            resid[m][task] = task_scores[m][task] - (fit.intercept + fit.slope * overall[m])
    out: dict[str, Any] = {}
    for model, values in resid.items():
        if values:
            best = max(values, key=values.__getitem__)
            worst = min(values, key=values.__getitem__)
            out[model] = {"over": [best, values[best]], "under": [worst, values[worst]]}
    return out
