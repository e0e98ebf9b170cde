"""Pathological model output through the real command line: each reply is a scored row.

The fake server answers each question with one hostile reply (nested boxes, floods of think tags,
NULs, lone surrogates, bidi marks, a megabyte of digits, ANSI escapes, U+2028...). Every attempt
must end as a scored row (a reply the grader cannot read is a wrong answer, not an error), the
run must write its summary and exit 0, well within the time limit: no reply may stall the run.
"""

from __future__ import annotations

import pytest

from cli_helpers import ladderbench
from ladderbench.runner.results import read_results
from ladderbench.testing.fake_openai import FakeOpenAI

HOSTILE = [
    "\\boxed{" * 5000 + "B" + "}" * 5000,
    "\\fbox{" * 20_000,
    "<think>" * 50_000,
    "</think>" * 50_000 + "B",
    "<think>a</think>" * 20_000 + "The answer is B.",
    "B\x00" * 1000,
    "\ud800 the answer is \udfff B",
    "\u202e\u200fB\u200e\u2066",
    "1" * 1_000_000,
    "\x1b[31mThe answer is\x1b[0m **B**\x1b[2J",
    "answer:\u2028B\u2029" * 1000,
    "",
    " \n\t" * 10_000,
    "answer: " * 20_000,
    "*" * 100_000,
    "(" * 50_000 + ")" * 50_000,
    "$" * 100_000,
    "\\" * 100_000,
]


def hostile_server() -> FakeOpenAI:
    """Each new question gets the next hostile reply (a retried one gets the same)."""
    assigned: dict[str, str] = {}

    def reply(prompt: str) -> str:
        if prompt not in assigned:
            assigned[prompt] = HOSTILE[len(assigned) % len(HOSTILE)]
        return assigned[prompt]

    return FakeOpenAI(reply=reply)


@pytest.mark.parametrize(
    ("suite", "rungs"),
    [
        ("static", ["--levels", "1,2,3,4,5", "--limit", "4"]),
        ("puzzles", ["--families", "arithmetic,caesar", "--tiers", "0-2", "--seeds", "1-6"]),
    ],
)
def test_every_hostile_reply_is_a_scored_row(tmp_path, suite, rungs) -> None:
    out = tmp_path / "r.jsonl"
    with hostile_server() as server:
        proc = ladderbench(
            "run", "--model", "openai:m", "--base-url", server.base_url, "--suite", suite,
            *rungs, "--no-cache", "--quiet", "--timeout", "20", "--retries", "0",
            "--out", str(out), timeout=240,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = read_results(out)  # lines split on "\n" only: replies hold U+2028
    rows, summary = results.rows, results.summary
    assert summary is not None and summary.total == len(rows) >= len(HOSTILE)
    assert [row.error for row in rows if row.error] == []
    assert all(row.score in (0.0, 1.0) for row in rows)
