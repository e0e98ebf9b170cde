"""LiveBench aggregation: task mean, category mean of tasks, overall mean of categories."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import make_row
from ladderbench.analysis.live import effective_n, live_summary
from ladderbench.analysis.stats import wilson


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


def test_one_task_category_has_its_task_interval():
    """The audit's case: a one-task category showed 0.0-32.9% for a task at 0.0-65.8%."""
    s = live_summary([row(i, "t", "instruction_following", 0.0) for i in range(2)])
    assert s.by_task["t"].ci95 == pytest.approx([0.0, 0.6576], abs=1e-3)
    assert s.by_category["instruction_following"].ci95 == s.by_task["t"].ci95
    assert s.overall.ci95 == s.by_task["t"].ci95


@settings(max_examples=200)
@given(
    tasks=st.lists(
        st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]), min_size=1, max_size=12),
        min_size=1,
        max_size=5,
    )
)
def test_an_aggregate_is_never_narrower_than_its_questions_pooled(tasks):
    """Kish's effective n of equally weighted tasks is at most the questions' count, so a
    category's interval is at least as wide as a Wilson interval over all of its questions at the
    same mean, and a single task's interval is its own."""
    rows = [
        row(f"{t}-{i}", f"t{t}", "math", v)
        for t, scores in enumerate(tasks)
        for i, v in enumerate(scores)
    ]
    s = live_summary(rows)
    category = s.by_category["math"]
    pooled = wilson(category.score * sum(map(len, tasks)), sum(map(len, tasks)))
    assert category.ci95[1] - category.ci95[0] >= pooled[1] - pooled[0] - 1e-12
    assert effective_n([(len(v), 1 / len(tasks)) for v in tasks]) <= sum(map(len, tasks)) + 1e-9
    if len(tasks) == 1:
        assert category.ci95 == s.by_task["t0"].ci95
