"""The static ladder's grader: the extracted letter must equal the gold letter."""

from __future__ import annotations

from collections.abc import Sequence

from ladderbench.grading.extract import extract_choice
from ladderbench.items import Verdict


def grade_choice(response: str, choices: Sequence[str], gold: str) -> Verdict:
    """Score 1 for the gold letter, else 0; no letter read is a wrong answer, counted unparsed."""
    letter = extract_choice(response, list(choices))
    passed = letter == gold
    return Verdict(extracted=letter, score=1.0 if passed else 0.0, passed=passed)
