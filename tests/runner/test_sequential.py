"""A sequential suite (the adaptive search) runs round by round, resumes exactly, and refuses
rows from another selection."""

import asyncio
import json

import pytest

from ladderbench.analysis.summary import summarise
from ladderbench.errors import UserError
from ladderbench.items import Item, Verdict
from ladderbench.models.registry import make_adapter
from ladderbench.puzzles.adaptive import SearchConfig, next_round
from ladderbench.runner.run import RunConfig, run_suite
from ladderbench.suites import SequentialSuite
from ladderbench.summaries import TierSummary


class Falling:
    """One family whose instances pass below difficulty 5 (the oracle answers everything)."""

    name = "puzzles"

    def __init__(self, family="f"):
        self.family = family
        self.rounds_asked = 0

    def item(self, d, index):
        return Item(id=f"{self.family}/d{d}/s{index + 1}", prompt=f"{d} {index}", expected="x",
                    reference="x", family=self.family, difficulty=d, seed=index + 1)  # fmt: skip

    def next_round(self, rows):
        self.rounds_asked += 1
        answers = [(r.family, r.difficulty, r.seed - 1, r.passed) for r in rows]
        asks = next_round([self.family], answers, 16, SearchConfig())
        return [self.item(d, i) for _, d, i in asks]

    def planned_total(self):
        return 48

    def items(self):
        return []

    def grade(self, item, response):
        passed = item.difficulty < 5
        return Verdict(extracted=response, score=float(passed), passed=passed)

    def summarise(self, rows, samples):
        return TierSummary.model_validate(summarise(rows, rung="tier", group="family"))

    def settings(self):
        return {}


def run(out, suite=None):
    suite = suite or Falling()
    return asyncio.run(run_suite(suite, make_adapter("oracle"), RunConfig(out=out)))


def rows_of(out):
    return [json.loads(line) for line in out.read_text().splitlines() if '"type"' not in line]


def test_the_fake_is_a_sequential_suite():
    assert isinstance(Falling(), SequentialSuite)


def test_rounds_run_until_the_search_is_done(tmp_path):
    out = tmp_path / "r.jsonl"
    summary = run(out)
    rows = rows_of(out)
    keys = [(r["id"], r["sample"]) for r in rows]
    assert len(keys) == len(set(keys)) == summary.total
    assert {r["difficulty"] for r in rows} >= {0, 1, 3, 7}
    assert all(r["pass"] == (r["difficulty"] < 5) for r in rows)


@pytest.mark.parametrize("kept", [1, 5, 13, 30])
def test_a_run_cut_short_resumes_to_exactly_the_uninterrupted_rows(tmp_path, kept):
    whole = tmp_path / "whole.jsonl"
    run(whole)
    expected = sorted(r["id"] for r in rows_of(whole))
    cut = tmp_path / "cut.jsonl"
    lines = whole.read_text().splitlines(keepends=True)
    cut.write_text("".join(lines[:kept]))  # as a SIGKILL leaves it: no summary
    run(cut)
    assert sorted(r["id"] for r in rows_of(cut)) == expected


def test_rows_outside_the_search_are_refused(tmp_path):
    out = tmp_path / "r.jsonl"
    run(out, Falling("g"))
    with pytest.raises(UserError, match="outside this selection"):
        run(out, Falling("f"))


def test_an_adaptive_run_takes_one_attempt_per_instance(tmp_path):
    with pytest.raises(UserError, match="--samples 3"):
        asyncio.run(
            run_suite(Falling(), make_adapter("oracle"), RunConfig(out=tmp_path / "r", samples=3))
        )


def test_a_round_with_errors_stops_the_run_and_a_rerun_carries_on(tmp_path, monkeypatch):
    from ladderbench.items import Completion

    whole = tmp_path / "whole.jsonl"
    run(whole)
    expected = sorted(r["id"] for r in rows_of(whole))

    adapter = make_adapter("oracle")
    original = type(adapter).complete
    failing = {"f/d3/s2"}

    async def complete(self, request):
        if request.item_id in failing:
            return Completion(error="HTTP 503: overloaded")
        return await original(self, request)

    monkeypatch.setattr(type(adapter), "complete", complete)
    out = tmp_path / "r.jsonl"
    summary = asyncio.run(run_suite(Falling(), adapter, RunConfig(out=out)))
    assert summary.errors == 1
    assert max(r["difficulty"] for r in rows_of(out)) == 3  # stopped after the round of d = 3
    failing.clear()
    asyncio.run(run_suite(Falling(), make_adapter("oracle"), RunConfig(out=out)))
    rows = rows_of(out)
    assert sorted(r["id"] for r in rows) == expected and all(r["error"] is None for r in rows)
