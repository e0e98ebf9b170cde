"""Issue #20: each test here failed on one bug a mutation pass planted, and passes on the real code.

Every bug was a way for the product to lie without any test noticing. The point number in each
test's docstring is the issue's; bench/README.md ("Mutation testing") records how each was planted
and checked. Points 3 (think blocks), 6 (refresh order) and 10 (sandbox memory) live beside
their modules' tests: tests/grading/test_extract.py, tests/live/test_release.py and
tests/live/test_sandbox.py.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from helpers import make_row, tier_rows
from ladderbench.analysis.calibrate import calibrate_tiers
from ladderbench.analysis.stats import pass_at_k
from ladderbench.analysis.summary import CLEARED, summarise
from ladderbench.errors import UserError
from ladderbench.items import RunHeader
from ladderbench.models import openai
from ladderbench.models.base import Request, Sampling
from ladderbench.models.openai import OpenAIAdapter
from ladderbench.runner.cache import cache_key
from ladderbench.runner.results import ResultWriter, read_results
from ladderbench.static.loader import level_files, load_questions
from ladderbench.summaries import TierSummary
from ladderbench.testing.fake_openai import FakeOpenAI


def test_point1_a_tier_is_cleared_at_ninety_percent_not_below():
    """Point 1: the clearing threshold is 0.9 (0.8 would clear a tier passed 85% of the time)."""
    rows = tier_rows(1, 18, 20) + tier_rows(2, 17, 20) + tier_rows(3, 16, 20)
    by_tier = summarise(rows, rung="tier", group="family")["byTier"]
    assert CLEARED == 0.9
    assert [by_tier[t]["cleared"] for t in ("1", "2", "3")] == [True, False, False]


def test_point2_each_row_is_on_disk_before_close(tmp_path):
    """Point 2: a run killed mid-way keeps every row written so far (one flush per row)."""
    out = tmp_path / "r.jsonl"
    writer = ResultWriter(out)
    existing = writer.read()
    writer.start(
        RunHeader(run="r1", suite="static", adapter="oracle", model="oracle", settings={}), existing
    )
    try:
        writer.append(make_row("q1"))
        assert [r.id for r in read_results(out).rows] == ["q1"]
        writer.append(make_row("q2"))
        assert [r.id for r in read_results(out).rows] == ["q1", "q2"]
    finally:
        writer.close()


def summary_clearing(clears: dict[int, bool]) -> TierSummary:
    bucket = {"n": 30, "passed": 0, "ci95": [0, 1], "errors": 0, "unparsed": 0}
    return TierSummary.model_validate(
        {"byTier": {str(t): {**bucket, "rate": float(c), "cleared": c} for t, c in clears.items()}}
    )


def test_point4_one_model_of_the_class_below_clearing_contradicts_the_tier():
    """Point 4: any model of the class below clearing a tier contradicts it, not only all."""
    verdicts = calibrate_tiers(
        {
            "tiny": [summary_clearing({2: True}), summary_clearing({2: False})],
            "small": [summary_clearing({2: True})],
        }
    )
    tier2 = next(v for v in verdicts if v.tier == 2)
    assert tier2.verdict == "contradicted" and "a tiny model clears it" in tier2.why


def test_point5_pass_at_k_at_the_boundary():
    """Point 5: n - c == k still leaves one all-failing draw; pass@k is below 1 there."""
    assert pass_at_k(4, 1, 3) == pytest.approx(0.75)
    assert pass_at_k(4, 2, 2) == pytest.approx(1 - 1 / 6)
    assert pass_at_k(4, 2, 3) == 1.0  # n - c < k: every draw of 3 holds a pass


def write_level(folder, name: str, qid: str, level: int) -> None:
    question = {
        "id": qid,
        "level": level,
        "category": "math",
        "question": "2+2?",
        "choices": ["1", "2", "3", "4"],
        "answer": "D",
    }
    (folder / name).write_text(json.dumps(question) + "\n")


def test_point7_two_files_for_one_level_are_refused(tmp_path):
    """Point 7: level1_a and level1_b are refused in one line, never one of them dropped."""
    write_level(tmp_path, "level1_a.jsonl", "a1", 1)
    write_level(tmp_path, "level1_b.jsonl", "b1", 1)
    with pytest.raises(UserError, match=r"two files for level 1: level1_a\.jsonl, level1_b\.jsonl"):
        level_files(tmp_path)
    with pytest.raises(UserError, match="two files for level 1"):
        load_questions(tmp_path)


def test_point8_each_sample_has_its_own_cache_entry():
    """Point 8: --samples 3 asks the model three times; the cache never serves sample 0 as 1."""
    settings = {"kind": "openai", "model": "m", "baseUrl": "http://x"}
    messages = ({"role": "user", "content": "2+2?"},)
    sampling = Sampling(temperature=0.7, max_tokens=16, seed=1)
    keys = {
        cache_key(settings, Request(item_id="q", messages=messages, sampling=sampling, sample=s))
        for s in range(3)
    }
    assert len(keys) == 3


def test_point9_retry_after_is_honoured_on_every_retry(monkeypatch):
    """Point 9: the server's Retry-After sets the wait before the second and third retries too."""
    waits: list[float] = []
    sleep = asyncio.sleep

    async def recorded(delay, *args, **kwargs):
        waits.append(delay)
        await sleep(0)

    monkeypatch.setattr(openai.asyncio, "sleep", recorded)
    with FakeOpenAI(fault=lambda p, n: "429" if n < 3 else None, retry_after="7") as server:
        adapter = OpenAIAdapter(
            "fake-model",
            base_url=server.base_url,
            api_key="k",
            timeout=5.0,
            retries=3,
            retry_wait=0.01,
        )

        async def attempt():
            try:
                return await adapter.complete(
                    Request(item_id="q", messages=({"role": "user", "content": "2+2?"},))
                )
            finally:
                await adapter.aclose()

        done = asyncio.run(attempt())
    assert done.error is None and len(server.requests) == 4
    assert [w for w in waits if w > 0] == [7.0, 7.0, 7.0]
