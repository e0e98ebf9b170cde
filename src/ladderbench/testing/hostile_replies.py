"""Pathological model replies: the shapes that once made answer readers super-linear.

Each family maps a length in characters to a reply of about that length, built by repeating one
unit. The bench (``bench/pathological_replies.py``) times every reader on them and the tests
(``tests/grading/test_linear.py``) compare a reply ten times longer with a short one, so both
read the same corpus.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["FAMILIES", "reply"]


def _repeat(unit: str, tail: str = "") -> Callable[[int], str]:
    """A reply of ``unit`` repeated to about n characters, then ``tail`` (a final answer)."""

    def build(n: int) -> str:
        return unit * max(1, (n - len(tail)) // len(unit)) + tail

    return build


FAMILIES: dict[str, Callable[[int], str]] = {
    "nested_boxed": _repeat("\\boxed{"),
    "nested_fbox": _repeat("\\fbox{x"),
    "nested_text": _repeat("\\text{"),
    "closed_boxes": _repeat("\\boxed{1}"),
    "nested_closed": lambda n: "\\boxed{\\text{" * (n // 26) + "B" + "}}" * (n // 26),
    "boxed_dollars": lambda n: "\\boxed{$" * (n // 16) + "B" + "$}" * (n // 16),
    "think_no_gt": _repeat("<think "),
    "answer_line_markers": _repeat("- answer: A "),
    "listed_options": _repeat("A) Paris B) "),
    "star_words": _repeat("* a "),
    "think_open": _repeat("<think>"),
    "think_close": _repeat("</think>"),
    "think_pairs": _repeat("<think>a</think>", "Answer: B"),
    "reasoning_mix": _repeat("<reasoning><think>x</reasoning>"),
    "stars": _repeat("*"),
    "bold_runs": _repeat("**a"),
    "underscores": _repeat("_"),
    "parens": _repeat("("),
    "nested_parens": lambda n: "(a " * (n // 6) + ")" * (n // 6),
    "table_row": _repeat("| a, b "),
    "dollars": _repeat("$"),
    "dollar_words": _repeat("$a "),
    "backslashes": _repeat("\\"),
    "digits": _repeat("1"),
    "grouped_digits": _repeat("1,000,"),
    "spaces": _repeat(" ", "B"),
    "tabs_spaces": _repeat(" \t"),
    "newlines": _repeat("\n", "B"),
    "blank_lines": _repeat(" \n"),
    "answer_markers": _repeat("answer: "),
    "answer_lines": _repeat("Answer:\n"),
    "answer_is": _repeat("the answer is "),
    "long_line": _repeat("word "),
    "letters": _repeat("A "),
    "option_text": _repeat("Paris "),
    "letter_or": _repeat("A or "),
    "wait_no": _repeat("wait, no, "),
    "tags": _repeat("<answer>"),
    "solution_tags": _repeat("<solution>"),
    "fences": _repeat("```\n"),
    "pipes": _repeat("| a "),
    "commas": _repeat("a,"),
    "brackets": _repeat("[1, "),
    "hyphens": _repeat("-"),
    "unicode_marks": _repeat("\u200f\u2028\x1b[0m"),
}


def reply(family: str, n: int) -> str:
    """The reply of family ``family`` at about n characters."""
    return FAMILIES[family](n)
