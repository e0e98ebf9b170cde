"""Every answer reader runs in time linear in the reply, pathological replies included.

No wall-clock bound is asserted: reading a reply ten times longer may take at most ``GROWTH``
times as long, both timed in the same test (a linear reader gives about 10, a quadratic one about
100). The absolute times are the bench's business (``bench/pathological_replies.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ladderbench.grading import extract
from ladderbench.items import Item
from ladderbench.live.tasks.connections import parse_groups
from ladderbench.puzzles.registry import get_family
from ladderbench.puzzles.suite import score_puzzle
from ladderbench.testing.hostile_replies import FAMILIES, reply

SMALL, LARGE = 5_000, 50_000
GROWTH = 30  # for ten times the length; quadratic code gives about 100
OPTIONS = ["London", "Paris", "12", "$18"]
PUZZLE = Item(id="p", prompt="", expected="42", reference="42", family="arithmetic")

READERS: dict[str, Callable[[str], Any]] = {
    "strip_think": extract.strip_think,
    "normalise_text": extract.normalise_text,
    "extract_choice": lambda text: extract.extract_choice(text, OPTIONS),
    "extract_answer": extract.extract_answer,
    "extract_table_text": extract.extract_table_text,
    "extract_reply_text": extract.extract_reply_text,
    "score_puzzle": lambda text: score_puzzle(PUZZLE, text),
    # Parsers of their own that were quadratic: a family's and a live task's.
    "cryptarithm": get_family("cryptarithm").normalise,
    "connections_groups": parse_groups,
}


def seconds(fn: Callable[[str], Any], text: str, reps: int) -> float:
    """The least CPU time of reps calls (CPU, not wall, time: other processes on a busy machine
    delay a call but do not make it do more work)."""
    best = float("inf")
    for _ in range(reps):
        started = time.thread_time()
        fn(text)
        best = min(best, time.thread_time() - started)
    return best


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("reader", sorted(READERS))
def test_ten_times_the_reply_takes_about_ten_times_as_long(reader: str, family: str) -> None:
    fn = READERS[reader]
    small, large = reply(family, SMALL), reply(family, LARGE)
    floor = 1e-4  # below this a small reply's time is mostly the timer's noise
    growth = seconds(fn, large, 2) / max(seconds(fn, small, 5), floor)
    if growth > GROWTH:  # a busy machine can slow a call: measure again before judging
        growth = seconds(fn, large, 3) / max(seconds(fn, small, 9), floor)
    assert growth <= GROWTH, f"{reader} on {family}: {growth:.0f}x for 10x the length"


# ---------------------------------------------------------------- mixtures

UNITS = [
    "\\boxed{", "\\fbox{", "\\text{", "}", "{", "<think>", "</think>", "<reasoning>", "<think ",
    "*", "**", "_", "(", ")", "$", "$$", "\\", "1", "1,000", " ", "\t", "\n", "answer: ",
    "Answer:\n", "the answer is ", "A ", "A or ", "Paris ", "wait, no, ", "<answer>",
    "</answer>", "<solution>", "```\n", "| ", "\u200f", "\u2028", "\x1b[0m", "\x00",
]  # fmt: skip
FINALS = ["", "B", "The answer is B.", "\\boxed{42}", "Answer: 42", "<answer>Paris</answer>"]


def build(runs: list[tuple[str, int]], final: str, scale: int) -> str:
    """The reply: each unit repeated (count times scale), then the final statement."""
    return "".join(unit * (count * scale) for unit, count in runs) + final


mixtures = st.lists(st.tuples(st.sampled_from(UNITS), st.integers(1, 20)), max_size=6)


VERDICTS: dict[str, Callable[[str], Any]] = {
    "extract_choice": READERS["extract_choice"],
    "score_puzzle": lambda text: score_puzzle(PUZZLE, text).passed,
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs=mixtures, final=st.sampled_from(FINALS))
def test_a_long_mixture_reads_as_its_short_equivalent(runs, final) -> None:
    """Every reader reads a long pathological mixture, and a verdict on it (the letter chosen,
    a puzzle passed) is the verdict on the same mixture at scale 2: the runs' proportions and
    parity ("$" pairs) kept, never one copy (one "A " is an answer, where many are not)."""
    long_reply = build(runs, final, scale=50)
    short_reply = build(runs, final, scale=2)
    for fn in READERS.values():
        fn(long_reply)
    for name, fn in VERDICTS.items():
        assert fn(long_reply) == fn(short_reply), name
