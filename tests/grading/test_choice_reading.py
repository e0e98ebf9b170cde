"""extract_choice on replies that exercise how an option letter is read: option texts inside
longer lines, labels offered together, lines that restate a letter, and long or padded lines."""

from __future__ import annotations

import pytest

from ladderbench.grading.extract import extract_choice

GEO = ["London", "Paris", "Berlin", "Rome"]  # Paris is B
CITIES = ["Chicago", "New York", "Los Angeles", "Houston"]  # multi-word options; New York is B
SYSTEMS = ["Windows", "UNIX", "MS-DOS", "CP/M"]  # an option ending in a capital X
DOLLARS = ["$17", "$18", "$20", "$21"]
HALVES = ["12", "12.5", "13", "15"]

READING_CASES = [
    # --- an option's text followed by more of the sentence
    ("The answer is Paris, since it is the capital.", GEO, "B"),
    ('The answer is "Paris".', GEO, "B"),
    ("(The answer is Paris)", GEO, "B"),
    ("The answer is Paris, Paris being the capital of France.", GEO, "B"),
    ("The answer is Paris or Rome, I am not sure which.", GEO, None),
    # --- a number followed by a decimal comma is not that whole number
    ("The answer is 12,5", HALVES, None),
    # --- a label offered with another, or restated
    ("I'd go with (b) Paris.", GEO, "B"),
    ("The answer is B or C depending on the reading.", GEO, None),
    ("The answer is B, B) Paris.", GEO, "B"),
    ("Answer: B, B) Paris", GEO, "B"),
    # --- a line that is nothing but an answer
    ("So the answer is...\n\nB!", GEO, "B"),
    ("My pick:\n\nB - Paris", GEO, "B"),
    ("My pick:\n\n**B — Paris**", GEO, "B"),
    ("**UNIX**", SYSTEMS, "B"),
    ("My pick:\n\n**B) UNIX**", SYSTEMS, "B"),
    # --- a later line that is working or commentary, not an answer
    ("The answer is B.\n\n$17 (the list price) + $1 (tax) = $18.", DOLLARS, "B"),
    ("The answer is B.\n\nC) Berlin is the capital of Germany, not France.", GEO, "B"),
    # --- the last statement names no single option
    ("The answer is B. Actually, the answer is E.", GEO, None),
    ("The answer is Paris.\nOn reflection, none of the options is right.\nSorry.", GEO, None),
    (
        "A) London is too far north.\nB) Paris is the capital.\nC) Berlin is in Germany.\n\n"
        "The answer is B.\n\nOn reflection I am torn between:\n**B or C**",
        GEO,
        None,
    ),
    (
        "A) London: no.\nB) Paris: the capital of France.\n\nThe answer is B.\n\nFinal:\n**E**",
        GEO,
        None,
    ),
]


@pytest.mark.parametrize(("response", "choices", "expected"), READING_CASES)
def test_extract_choice_reads_the_stated_option(
    response: str, choices: list[str], expected: str | None
) -> None:
    assert extract_choice(response, choices) == expected


def test_a_multi_word_option_on_a_long_line_is_read() -> None:
    reply = (
        "The answer is New York, because it has by far the largest population of the four "
        "cities listed in the question, larger than Los Angeles, Chicago and Houston combined, "
        "at least by the usual census counts."
    )
    assert extract_choice(reply, CITIES) == "B"


def test_trailing_blanks_after_a_multi_word_option_do_not_hide_it() -> None:
    """A padded layout: however many blanks end the line, the option before them is read."""
    for blanks in range(200):
        reply = "The answer is New York" + " " * blanks + "\nHope this helps."
        assert extract_choice(reply, CITIES) == "B", blanks
