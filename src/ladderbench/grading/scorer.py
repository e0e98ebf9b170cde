"""The one scoring contract: a scorer reads a response to an item and returns a ``Verdict``.

Static questions, puzzles, live tasks and the probe's built-in graders all have this shape. A
scorer returns a verdict for every response a model can write (an unreadable answer is a wrong
answer, with the reason in ``explanation``); if it raises, that is a bug in the harness, and the
runner records the attempt as an error instead of scoring it (see ``guarded``).
"""

from __future__ import annotations

from typing import Protocol

from ladderbench.items import Item, Verdict


class Scorer(Protocol):
    """Maps (item, response) to a verdict; ``extracted`` is the text that was actually graded."""

    def __call__(self, item: Item, response: str) -> Verdict: ...


def verdict(extracted: str | None, score: float, explanation: str = "") -> Verdict:
    """A verdict whose ``passed`` is what every LadderBench scorer means by it: a full score."""
    return Verdict(extracted=extracted, score=score, passed=score >= 1.0, explanation=explanation)


def wrong(explanation: str, extracted: str | None = None) -> Verdict:
    """A score of 0 and why: no answer found, an answer that does not parse, a malformed record."""
    return Verdict(extracted=extracted, score=0.0, passed=False, explanation=explanation)


class GraderCrash(Exception):
    """A scorer raised: an error row ("grader crashed: ..."), never a wrong answer."""


def guarded(scorer: Scorer, item: Item, response: str) -> Verdict:
    """Call ``scorer``; any exception it raises becomes one ``GraderCrash`` with a short reason.

    This is the only place in LadderBench that catches a scorer's exceptions.
    """
    try:
        return scorer(item, response)
    except Exception as exc:  # a crash is a harness bug, reported, never a score of 0
        raise GraderCrash(f"grader crashed: {type(exc).__name__}: {exc}"[:300]) from exc
