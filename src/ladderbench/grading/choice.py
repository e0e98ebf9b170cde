"""The static ladder's scorer: the extracted letter must equal the gold letter."""

from __future__ import annotations

from ladderbench.grading.extract import extract_choice
from ladderbench.items import Item, Verdict


def score_choice(item: Item, response: str) -> Verdict:
    """Score 1 for the gold letter (``item.expected``), else 0; no letter read is a wrong answer,
    counted unparsed."""
    letter = extract_choice(response, list(item.choices))
    passed = letter == item.expected
    return Verdict(
        extracted=letter,
        score=1.0 if passed else 0.0,
        passed=passed,
        explanation=f"read {letter or 'no letter'}; gold {item.expected}",
    )
