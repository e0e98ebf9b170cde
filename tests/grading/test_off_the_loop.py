"""Grading never blocks the event loop: a reply slow to grade does not time out other requests."""

from __future__ import annotations

import asyncio
import json
import time

from ladderbench.models.registry import EndpointOptions, make_adapter
from ladderbench.runner.run import RunConfig, run_suite
from ladderbench.static.suite import StaticSuite
from ladderbench.testing.fake_openai import FakeOpenAI


class SlowFirstGrade(StaticSuite):
    """Grades like the static ladder, but the first grade takes longer than the client timeout."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.slow_done = False

    def grade(self, item, response):
        if not self.slow_done:
            self.slow_done = True
            time.sleep(2.5)  # blocks whatever thread it runs on, as a super-linear reader would
        return super().grade(item, response)


def test_a_slow_grade_times_out_no_other_request(tmp_path):
    out = tmp_path / "r.jsonl"
    suite = SlowFirstGrade(levels=[1, 2], limit=6)
    asked: list[str] = []

    def others_take_a_while(prompt: str, seen: int) -> str | None:
        """The first prompt is answered at once (and graded slowly); the rest take 0.5 s."""
        asked.append(prompt)
        return None if prompt == asked[0] else "hang"

    with FakeOpenAI(fault=others_take_a_while, hang_s=0.5) as server:
        options = EndpointOptions(base_url=server.base_url, timeout=1.5, retries=0)
        adapter = make_adapter("openai:m", options)
        config = RunConfig(out=out, concurrency=4)
        summary = asyncio.run(run_suite(suite, adapter, config))
    rows = [json.loads(line) for line in out.read_text().splitlines()][1:-1]
    assert len(rows) == 12
    assert [r["error"] for r in rows if r["error"]] == []  # none "timeout after 1.5s"
    assert summary.errors == 0 and suite.slow_done
