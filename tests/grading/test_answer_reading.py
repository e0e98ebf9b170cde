"""How extract_choice and extract_answer read replies that write numbers, LaTeX and tags in the
less common ways models do: signed values, unit spellings, wrappers with a space before the
brace, boxed formulas, several answer tags, and answers restated after a change of mind."""

from __future__ import annotations

import pytest

from ladderbench.grading.extract import extract_answer, extract_choice, normalise_text

CAPITALS = ["London", "Paris", "Berlin", "Rome"]  # Paris is B
SIGNED = ["-3", "3", "6", "9"]
LEDGER = ["$-5", "$0", "$5", "$10"]  # the sign written after the currency
TICKETS = ["$18.50", "$18", "$19", "$9.25"]
DOLLARS = ["$17", "$18", "$20", "$21"]
BUDGETS = ["$2 million", "$3 million", "$4 million", "$5 million"]
MINUTES = ["15 min", "30 min", "45 min", "60 min"]
HOURS = ["0.5 hours", "1 hour", "1.5 hours", "2 hours"]
POUNDS = ["5 lb", "10 lb", "15 lb", "20 lb"]
PAIRS = ["4 and 5", "5 and 6", "6 and 7", "7 and 8"]  # options that start with a number
HALVES = ["1/4", "1/2", "2", "4"]

CHOICE_CASES = [
    # --- signed numbers: a negative option is named by its value, not by its positive twin
    ("The answer is -3.0", SIGNED, "A"),
    ("The answer is −3", SIGNED, "A"),
    ("The answer is 3.0", SIGNED, "B"),
    ("The balance falls by $5.\nAnswer: -5", LEDGER, "A"),
    # --- the decimals belong to the number even when prose follows it
    ("The answer is 18.50 because each ticket costs 9.25.", TICKETS, "A"),
    # --- units: plural and singular spellings are one unit; another currency is not the option's
    ("30 mins", MINUTES, "B"),
    ("1.0 hours", HOURS, "B"),
    ("**5 lbs**", POUNDS, "A"),
    ("<answer>10 lbs</answer>", POUNDS, "B"),
    ("The answer is 3 million.", BUDGETS, "B"),
    ("The answer is 18 euros because the price is in euros.", DOLLARS, None),
    # --- an option that merely starts with a number is not named by that number
    ("Answer: 6", PAIRS, None),
    ("Answer: 5 and 6", PAIRS, "B"),
    # --- LaTeX: nested braces are maths, not markup; a box holding a formula is not a letter
    ("Since $\\sqrt{\\frac{1}{4}} = \\frac{1}{2}$, the answer is B.", HALVES, "B"),
    ("\\boxed{D^{-1}}", ["2", "3", "4", "5"], None),
    ("$\\boxed{C_{n}}$", CAPITALS, None),
    # --- a wrapper written with a space before its brace is still markup
    ("The capital of France is Paris.\n\\textbf {B}", CAPITALS, "B"),
    ("The capital of France is Paris.\n$\\mathbf  {B}$", CAPITALS, "B"),
    # --- markup does not move a statement before or after another one
    (
        "We need the capital of France, not its largest port. In \\textit{Step 1} I said the"
        " answer is A.\nThat was wrong: \\boxed{B}",
        CAPITALS,
        "B",
    ),
    (
        "**London** is the capital of the **UK**, **Paris** of **France**.\n"
        "**Berlin** and **Rome** are out.\n\\boxed{A}\nWait, the answer is B.",
        CAPITALS,
        "B",
    ),
    ("The answer is B.\nLet me double-check that. <think", CAPITALS, "B"),  # cut off mid-tag
    # --- answer tags: one at the very start, and the last of several on one line
    ("<answer>Paris</answer> (the capital of France)", CAPITALS, "B"),
    (
        "My first guess <answer>A</answer> was wrong, the capital is <answer>B</answer> Paris.",
        CAPITALS,
        "B",
    ),
]


@pytest.mark.parametrize(("response", "choices", "expected"), CHOICE_CASES)
def test_extract_choice_reads(response: str, choices: list[str], expected: str | None) -> None:
    assert extract_choice(response, choices) == expected


ANSWER_CASES = [
    # "Answer: 7." ends where the next marker's lead-in starts, even when more lines follow
    ("Answer: 7. So the answer is 7.\nHope this helps!", "7"),
    # an answer that is itself a lead-in word is kept
    ("Which word completes 'bread ___ butter'?\nAnswer: and", "and"),
    # after a change of mind the last restated answer wins, however many there are
    ("\\boxed{12}\nWait, I dropped a carry. The answer is 13. Hmm, no: the answer is 14.", "14"),
    # a restatement straight after the change of mind counts
    ("\\boxed{12}\nNo—answer: 13", "13"),
    ("<answer>12</answer>\nNo—\\boxed{13}", "13"),
    # a reply cut off in the middle of a reasoning tag ("<think" with no ">") keeps its answer
    ("The answer is 4.\nLet me double-check that. <think", "4"),
    ("Since 5 > 3, the answer is 4.\n<think", "4"),
    # an empty reasoning block (thinking switched off) is dropped
    ("<think></think>The answer is 4.", "4"),
]


@pytest.mark.parametrize(("response", "expected"), ANSWER_CASES)
def test_extract_answer_reads(response: str, expected: str | None) -> None:
    assert extract_answer(response) == expected


def test_normalise_text_of_a_non_string_is_empty() -> None:
    """Callers compare normalised answers; a missing one must not equal a placeholder."""
    assert normalise_text(None) == ""  # type: ignore[arg-type]
    assert normalise_text(42) == ""  # type: ignore[arg-type]
