"""LiveBench aggregation: task mean, category mean of tasks, overall mean of categories."""

import pytest

from helpers import make_row
from ladderbench.analysis.live import live_summary


def row(i, task, category, score, **kw):
    return make_row(
        f"{task}{i}",
        suite="live",
        level=None,
        task=task,
        category=category,
        score=score,
        passed=score == 1.0,
        **kw,
    )


def test_each_category_weighs_the_same_whatever_its_size():
    rows = [row(i, "big", "math", 1.0) for i in range(30)]  # one big task at 100%
    rows += [row(i, "small", "reasoning", 0.0) for i in range(3)]  # one small task at 0%
    rows += [row(i, "other", "reasoning", 0.5) for i in range(3)]
    s = live_summary(rows)
    assert s.by_task["big"].score == 1.0 and s.by_task["other"].score == 0.5
    assert s.by_category["reasoning"].score == pytest.approx(0.25)
    assert s.overall.score == pytest.approx((1.0 + 0.25) / 2)


def test_intervals_stay_honest_at_zero_and_small_n():
    s = live_summary([row(i, "t", "math", 0.0) for i in range(3)])
    assert s.by_task["t"].ci95 is not None and s.overall.ci95 is not None
    lo, hi = s.by_task["t"].ci95
    assert lo == 0.0 and hi > 0.4  # three zeros do not prove a zero score
    assert s.overall.ci95[1] > 0.2


def test_errors_are_not_scored_and_samples_average():
    rows = [row(0, "t", "math", 1.0, sample=0), row(0, "t", "math", 0.0, sample=1)]
    rows.append(row(1, "t", "math", None, error="HTTP 500", response=None, extracted=None))
    s = live_summary(rows, samples=2)
    assert s.by_task["t"].n == 1 and s.by_task["t"].score == 0.5
    assert s.errors == 1
