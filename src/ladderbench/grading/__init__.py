"""Reading answers out of replies, and scoring them."""

from ladderbench.grading.extract import extract_answer, extract_choice, normalise_text, strip_think

__all__ = ["extract_answer", "extract_choice", "normalise_text", "strip_think"]
