"""The progress bar shows the running pass rate and error count as rows are written, so a failing
endpoint is visible at its first row, not in the summary at the end."""

import asyncio

from ladderbench.api import _progress_bar
from ladderbench.models.openai import OpenAIAdapter
from ladderbench.models.registry import make_adapter
from ladderbench.runner.run import RunConfig, run_suite
from ladderbench.suites import make_suite
from ladderbench.testing.fake_openai import FakeOpenAI


def run_with_bar(adapter, out):
    """Run five static questions through the bar's own callbacks; the bar's text after each row."""
    bar, advance, on_start = _progress_bar("test", out)
    seen = []

    def watch(row):
        advance(row)
        seen.append(bar.tasks[0].fields["tally"])

    suite = make_suite("static", levels=[1], limit=5)
    summary = asyncio.run(run_suite(suite, adapter, RunConfig(out=out), None, watch, on_start))
    return summary, seen, bar.tasks[0]


def test_a_failing_endpoint_shows_errors_from_the_first_row(tmp_path):
    with FakeOpenAI(fault=lambda prompt, seen: "500") as server:
        adapter = OpenAIAdapter("m", base_url=server.base_url, retries=1, retry_wait=0.01)
        summary, seen, task = run_with_bar(adapter, tmp_path / "r.jsonl")
    assert summary.errors == 5
    assert seen[0] == "pass - · [bold red]errors 1[/bold red]"  # the first row already says so
    assert seen[-1] == "pass - · [bold red]errors 5[/bold red]"
    assert task.completed == task.total == 5


def test_the_bar_shows_the_running_pass_rate(tmp_path):
    summary, seen, _ = run_with_bar(make_adapter("oracle"), tmp_path / "r.jsonl")
    assert summary.errors == 0 and seen == ["pass 100% · errors 0"] * 5
