"""A scorer that raises is a harness bug: its attempt is an error row, never a wrong answer."""

import asyncio
import json

from ladderbench.models.registry import make_adapter
from ladderbench.runner.run import RunConfig, run_suite
from ladderbench.static.suite import StaticSuite


class CrashingSuite(StaticSuite):
    def grade(self, item, response):
        if item.level == 1:
            raise KeyError("gold")
        return super().grade(item, response)


def test_a_grader_crash_is_an_error_row_not_a_score(tmp_path):
    out = tmp_path / "r.jsonl"
    suite = CrashingSuite(levels=[1, 2], limit=2)
    summary = asyncio.run(run_suite(suite, make_adapter("oracle"), RunConfig(out=out)))
    rows = [json.loads(line) for line in out.read_text().splitlines()][1:-1]
    crashed = [r for r in rows if r["level"] == 1]
    assert len(crashed) == 2
    for row in crashed:
        assert row["error"] == "grader crashed: KeyError: 'gold'"
        assert row["score"] is None and row["pass"] is None
    assert all(r["error"] is None and r["pass"] for r in rows if r["level"] == 2)
    assert summary.errors == 2 and summary.rate == 1.0
