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
    # --- a box, bold or underlined letter inside a sentence
    ("Putting it together we get \\boxed{B} since Paris is the capital.", GEO, "B"),
    ("Putting it together we get \\boxed{Paris} as the capital.", GEO, "B"),
    ("At first glance the answer is A, but checking the map again gives **B**", GEO, "B"),
    ("After checking each option, my choice is __B__", GEO, "B"),
    ("So the final answer is $\\boxed{\\boxed{B}}$.", GEO, "B"),
    (
        "My first result was \\boxed{A}, but I mixed up the cities; redoing it gives \\boxed{B}.",
        GEO,
        "B",
    ),
    # --- curly apostrophes read as straight ones
    ("Looking at the map, it\u2019s B.", GEO, "B"),
    ("I\u2018ll say B.", GEO, "B"),
    # --- a letter opening the reply
    ("B, B) Paris, the capital of France.", GEO, "B"),
    ("**B** or C, it is hard to say.", GEO, None),
    ("B. At first glance it's C, but Paris is the capital of France.", GEO, "B"),
    # --- a lower-case letter is a label when bracketed or named as an option, not a variable
    ("Option b is correct.", GEO, "B"),
    ("Choice c seems right, but I am not sure.", GEO, None),
    ("Choice c seems to be the best one.", GEO, "C"),
    ("Let the missing side be b. Then 5 + b = 17, so b is the answer we want.", GEO, None),
    # --- hedges ("C looks right", "...: C") lose to an explicit answer
    ("The answer is B. C looks right at first glance, but Berlin is in Germany.", GEO, "B"),
    ("Answer: B\n\nMy second choice would have been: C", GEO, "B"),
    ("None of the options looks obviously wrong at first. My best guess: B", GEO, "B"),
    ("A) London is in England.\nB) Paris is in France.\n\nSo, putting it together: B", GEO, "B"),
    ("Hmm, tough one. Best guess: E", GEO, None),
    ("Let us call the unknown length: a\nThen 2a + 3 = 11, so", GEO, None),
    # --- a change of mind promotes only a hedge that follows it and the last explicit answer
    ("Hmm, I think it's B.", GEO, "B"),
    ("Hmm, tricky. The answer is B. Double-checking, I think it's B.", GEO, "B"),
    ("The answer is B. Some would say it's C. Hmm, Berlin is in Germany though.", GEO, "B"),
    (
        "The answer is A. Wait, London is not in France. The answer is B. I think it's C though.",
        GEO,
        "B",
    ),
    # --- an option's text on a line of its own, after a hedge for another letter
    (
        "At first glance it's A, since London is so big.\n\nBut the capital of France is:\nParis",
        GEO,
        "B",
    ),
    # --- a reply that goes through the options in turn chooses none of them
    (
        "C) Berlin is in Germany, not France.\nB) Paris is in France.\nA) London is in England.",
        GEO,
        None,
    ),
    (
        "(c) Berlin is in Germany, not France.\n(b) Paris is in France.\n(a) London is in England.",
        GEO,
        None,
    ),
    ("C) Berlin is in Germany, not France, and neither is A) London", GEO, None),
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


def test_blanks_padding_a_table_cell_do_not_hide_a_multi_word_option() -> None:
    """A padded markdown cell: the reach that keeps long lines cheap may end in the blanks
    after the option, and the option's last word is still read."""
    for blanks in range(1, 200):
        reply = "| Question 7 | Final answer: New York" + " " * blanks + "|\n"
        assert extract_choice(reply, CITIES) == "B", blanks
