"""Tests for ladderbench.grading.extract: realistic replies, and properties over arbitrary text."""

from __future__ import annotations

import ast
import sys
import unicodedata
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ladderbench.grading import extract
from ladderbench.grading.extract import (
    extract_answer,
    extract_choice,
    extract_reply_text,
    extract_table_text,
    normalise_text,
    strip_think,
)

GEO = ["London", "Paris", "Berlin", "Rome"]  # Paris is B
NUM = ["41", "42", "43", "44"]  # 42 is B
SEQ = ["48", "30", "36", "42"]  # "3, 6, 12, 24, ?": 48 is A, the trap 42 is D
DOLLARS = ["$17", "$18", "$20", "$21"]  # static l2_01
PRICES = ["$27.00", "$40.50", "$45.00", "$4.05"]  # static l3_19
CENTS = ["$0.20", "$0.40", "$1.20", "$0.10"]  # static l3_08
PERCENTS = ["15%", "6%", "10%", "2.4%"]  # static l4_04
SPEEDS = ["67.5 km/h", "65 km/h", "70 km/h", "60 km/h"]  # static l3_15
THOUSANDS = ["1,000", "1,200", "12", "100"]

CHOICE_CASES = [
    # --- bare and decorated letters
    ("B", GEO, "B"),
    ("b", GEO, "B"),
    ("(B)", GEO, "B"),
    ("B.", GEO, "B"),
    ("B)", GEO, "B"),
    ("b)", GEO, "B"),
    ("**B**", GEO, "B"),
    ("*B*", GEO, "B"),
    ("`B`", GEO, "B"),
    ("**(D)**", GEO, "D"),
    ("  C  \n", GEO, "C"),
    ("- B", GEO, "B"),
    ("> C", GEO, "C"),
    ("Ｂ", GEO, "B"),
    ("（Ｃ）", GEO, "C"),
    ("Answer：Ｄ", GEO, "D"),
    # --- answer phrases
    ("Answer: b", GEO, "B"),
    ("answer: (c)", GEO, "C"),
    ("ANSWER: B", GEO, "B"),
    ("The answer is B", GEO, "B"),
    ("The answer is B.", GEO, "B"),
    ("The answer is A because London is larger.", GEO, "A"),
    ("the answer is a", GEO, "A"),
    ("The correct answer is (D) Paris", GEO, "D"),
    ("The correct option is **C**.", GEO, "C"),
    ("Correct answer: **(A)**", GEO, "A"),
    ("**Answer:** C", GEO, "C"),
    ("**Answer: B) Paris**", GEO, "B"),
    ("The answer is: **B) Paris**", GEO, "B"),
    ("My final answer is (C).", GEO, "C"),
    ("Final answer: D", GEO, "D"),
    ("So the answer must be C", GEO, "C"),
    ("The correct answer is:\n\nB) 42", NUM, "B"),
    ("Option C", GEO, "C"),
    ("I choose C.", GEO, "C"),
    ("I'll go with D.", GEO, "D"),
    ("Between B and C, I'd pick C.", GEO, "C"),
    ("A good question. The answer is B", GEO, "B"),
    ("I'm not sure, but the answer is B", GEO, "B"),
    ("The answer is B, not A", GEO, "B"),
    # --- LaTeX and tags
    ("The answer is \\boxed{B}", GEO, "B"),
    ("$\\boxed{\\text{C}}$", GEO, "C"),
    ("\\boxed{(B)}", GEO, "B"),
    ("\\textbf{A}", GEO, "A"),
    ("The answer is $\\boxed{B}$.", GEO, "B"),
    ("Final Answer: The final answer is $\\boxed{C}$. I hope it is correct.", GEO, "C"),
    ("<answer>B</answer>", GEO, "B"),
    ("Reasoning first. <answer> d </answer>", GEO, "D"),
    ("<answer>Paris</answer>", GEO, "B"),
    ("answer: D\n\n<answer>C</answer>", GEO, "C"),
    # --- option text instead of (or after) the letter
    ("Paris", GEO, "B"),
    ("paris.", GEO, "B"),
    ("**Paris**", GEO, "B"),
    ("The answer is Paris.", GEO, "B"),
    ("42", NUM, "B"),
    ("The answer is 42 because 6 x 7 = 42.", NUM, "B"),
    ("B) 42", NUM, "B"),
    ("B. 42", NUM, "B"),
    ("(B) 42", NUM, "B"),
    ("B because Paris is the capital of France.", GEO, "B"),
    # --- a numeric option named by its value, however the reply writes it
    ("$17", DOLLARS, "A"),
    ("17", DOLLARS, "A"),
    ("Answer: $18", DOLLARS, "B"),
    ("**$18**", DOLLARS, "B"),
    ("The answer is $18.00.", DOLLARS, "B"),
    ("18 dollars", DOLLARS, "B"),
    ("The answer is 18 USD because 17 + 1 = 18.", DOLLARS, "B"),
    ("<answer>$20</answer>", DOLLARS, "C"),
    ("\\boxed{\\$21}", DOLLARS, "D"),
    ("B) $18", DOLLARS, "B"),
    ("17 + 1 = 18, so the answer is $20", DOLLARS, "C"),
    ("The answer is $27.00", ["$17", "$18", "$27", "$21"], "C"),
    ("$27", PRICES, "A"),
    ("Answer: 40.5", PRICES, "B"),
    ("$1.2", CENTS, "C"),
    ("The ball costs $0.10.\n\nAnswer: 0.2", CENTS, "A"),
    ("Answer: 10%", PERCENTS, "C"),
    ("10 percent", PERCENTS, "C"),
    ("**2.4 %**", PERCENTS, "D"),
    ("The answer is 6.", PERCENTS, "B"),
    ("65 km/h", SPEEDS, "B"),
    ("The answer is 60 km/h.", SPEEDS, "D"),
    ("Answer: 67.50", SPEEDS, "A"),
    ("Answer: 1200", THOUSANDS, "B"),
    ("1,200.00", THOUSANDS, "B"),
    ("The answer is 1,000.", THOUSANDS, "A"),
    ("Answer: 12", THOUSANDS, "C"),
    ("18", ["18", "$18.00", "20", "21"], "A"),  # the option's own text beats another's value
    # ... but only a number that is the answer, and only one option's
    ("17 + 1 = 18", DOLLARS, None),
    ("The answer is 17 + 1 = 18", DOLLARS, None),
    ("The answer is 41 - 1 = 40", NUM, None),
    ("The answer is $17 or $18", DOLLARS, None),
    ("The answer is 41 or 42", NUM, None),
    ("Answer: 17/18", DOLLARS, None),
    ("A) $17\nB) $18\nC) $20\nD) $21", DOLLARS, None),
    ("18 euros", DOLLARS, None),
    ("$18.50", DOLLARS, None),
    ("Answer: 19", DOLLARS, None),
    ("65 mph", SPEEDS, None),
    ("Answer: 1,20", THOUSANDS, None),
    ("Answer: 1200 km", THOUSANDS, "B"),  # an unknown word after the answer is prose
    ("1200 km", THOUSANDS, None),  # but a line that is only an answer may not add a unit
    ("18", ["$18", "18%", "20", "21"], None),  # two options have the value
    ("C. The others are wrong because A) is too small.", GEO, "C"),
    ("None of the above", ["1", "2", "3", "None of the above"], "D"),
    # --- reasoning blocks
    ("<think>A looks right. Answer: A</think>\nB", GEO, "B"),
    ("<think>Maybe C? Or D?</think>The answer is **D**.", GEO, "D"),
    ("<THINKING>B B B</THINKING>\nAnswer: A", GEO, "A"),
    ("the user asks... probably C</think>\n\nAnswer: A", GEO, "A"),
    # an explicit answer inside a closed block must not beat the hedge after it (issue #20)
    ("<think>The answer is A.</think>\nI think it is B", GEO, "B"),
    ("<think>Answer: D</think>\nSo it's C.", GEO, "C"),
    ("<reasoning>**A**</reasoning> I'd say Paris", GEO, None),
    # --- self-correction: the last stated answer wins
    ("The answer is A. Wait, no - actually it's C.", GEO, "C"),
    ("A... no, B", GEO, "B"),
    ("Answer: A\n\nActually, B.", GEO, "B"),
    ("I'll go with A. Hmm, on second thought, B.", GEO, "B"),
    ("The answer is either B or C. Final answer: C", GEO, "C"),
    ("No, B is wrong. The answer is C", GEO, "C"),
    # a hedge after a change of mind restates the answer (probe: static.choice l2_03, l3_12, l5_12)
    ("The answer is A. Hmm, wait: 24 + 18 = 42, so it should be D.", SEQ, "D"),
    ("The answer is C. Actually no, warmth matters most here, so it's D.", GEO, "D"),
    ("The answer is B. Hmm, on second thought, the probability is 1/3, so it's 1/3: A.", GEO, "A"),
    ("The answer is B.\n\nHmm, on second thought, three doors are left, so it's 1/3: A.", GEO, "A"),
    ("The answer is A. Actually, I'm not sure, it could be D.", SEQ, "A"),
    ("The answer is A. Wait, let me double check. Yes, it's A.", GEO, "A"),
    ("The answer is A. Actually, I'm not sure, it's either A or D.", GEO, "A"),
    # --- a letter that opens a sentence about it is not the answer (probe: static.choice l2_03)
    ("D is tempting (24 + 18 = 42), but each term doubles, so A is correct.", SEQ, "A"),
    ("D is wrong. A is correct.", SEQ, "A"),
    ("D looks right but A is correct.", SEQ, "A"),
    ("C is 36, D is 42, but A is correct.", SEQ, "A"),
    ("A. London is in England, not France. B is correct.", GEO, "B"),
    ("B because the sum is 4.", SEQ, "B"),
    ("B. Paris", GEO, "B"),
    ("So, B is wrong.", GEO, None),
    ("D looks right but I'm not sure.", GEO, None),
    ("D is wrong.", GEO, None),
    ("Clearly D is wrong, so the answer is B.", GEO, "B"),
    # --- more ways of stating an answer
    ("Option A (48) is correct.", SEQ, "A"),
    ("Option C (Berlin) is the right answer.", GEO, "C"),
    ("A is the answer.", GEO, "A"),
    ("The correct one is C.", GEO, "C"),
    ("48, which is option A", SEQ, "A"),
    ("Definitely D", GEO, "D"),
    ("C, definitely.", GEO, "C"),
    ("I'm going to say A", GEO, "A"),
    ("I'll say B.", GEO, "B"),
    ("Not D. A.", GEO, "A"),
    ("Not A, but B", GEO, "B"),
    ("Not A, not B: C.", GEO, "C"),
    ("Not B.", GEO, None),
    ("Answer: C. B is correct only if we count differently.", GEO, "C"),
    # --- explicit beats incidental mentions
    ("Answer: B\n\nExplanation: A is wrong since London is in England.", GEO, "B"),
    ("B\n\nC is incorrect because Berlin is in Germany.", GEO, "B"),
    ("The answer is (B).\n\nA) London - wrong\nC) Berlin - wrong\nD) Rome - wrong", GEO, "B"),
    ("Answer: C. Therefore B is false.", GEO, "C"),
    (
        "Let's check each option.\nA) London is in England.\nB) Paris is in France.\n"
        "C) Berlin is in Germany.\nD) Rome is in Italy.\nTherefore, the answer is B.",
        GEO,
        "B",
    ),
    # --- hedged statements, used only when nothing is marked
    ("I think it is B", GEO, "B"),
    ("So, B.", GEO, "B"),
    ("B is correct.", GEO, "B"),
    ("(B) is the correct answer", GEO, "B"),
    ("Hence **B**.", GEO, "B"),
    ("The answer is C", ["yes", "no"], None),
    # --- no answer
    ("", GEO, None),
    ("   \n\t ", GEO, None),
    ("I can't help with that.", GEO, None),
    ("I'm sorry, but I cannot help with that request.", GEO, None),
    ("I am unable to answer this question.", GEO, None),
    ("I don't know.", GEO, None),
    ("None of the above", GEO, None),
    ("I'm not sure.", GEO, None),
    ("The answer is A. Actually, none of the above.", GEO, None),
    ("B or C", GEO, None),
    ("either A or D", GEO, None),
    ("B and C", GEO, None),
    ("A/B", GEO, None),
    ("Answer: B or C", GEO, None),
    ("The answer is both A and C.", GEO, None),
    ("E", GEO, None),
    ("The answer is E.", GEO, None),
    ("<think>Let me think. The answer is B", GEO, None),
    ("A) London B) Paris C) Berlin D) Rome", GEO, None),
    ("A) London\nB) Paris\nC) Berlin\nD) Rome", GEO, None),
    ("(A) 41\n(B) 42\n(C) 43\n(D) 44", NUM, None),
    ("London\nParis\nBerlin\nRome", GEO, None),
    ("This question is about geography and needs care.", GEO, None),
    ("A good question! Let me think about it.", GEO, None),
    ("It is a trick question.", GEO, None),
    ("the answer is a bit tricky", GEO, None),
    # a one-digit option stated after "Answer:" is its text, not a label (hypothesis found it)
    ("Answer: 9", ["9", "0.01"], "A"),
    ("Answer: 2", ["9", "2", "3", "4"], "B"),
    ("Answer: 7", ["9", "2", "3", "4"], None),
    # a reply may leave out an option's currency, but not state another unit
    ("Answer: 18", ["$17", "$18", "$19", "$20"], "B"),
    ("Answer: 18 percent", ["$17", "$18", "$19", "$20"], None),
    ("Answer: 5 million", ["$4 million", "$5 million", "$6 million", "$7 million"], "B"),
    ("Options A and C seem plausible, but I need more information.", GEO, None),
    ("London or Paris", GEO, None),
    ("B", [], None),
]


@pytest.mark.parametrize(("response", "choices", "expected"), CHOICE_CASES)
def test_extract_choice(response: str, choices: list[str], expected: str | None) -> None:
    assert extract_choice(response, choices) == expected


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("I think the answer is J", "J"),  # "I" here is the pronoun, not option I
        ("I", "I"),
        ("Answer: I", "I"),
        ("I am confident it is G.", "G"),
        ("A good question.", None),
    ],
)
def test_extract_choice_ten_options(response: str, expected: str | None) -> None:
    assert extract_choice(response, list("0123456789"), letters="ABCDEFGHIJ") == expected


def test_extract_choice_custom_letters() -> None:
    assert extract_choice("Answer: 3", ["x", "y", "z"], letters="123") == "3"
    assert extract_choice("(c)", GEO, letters="abcd") == "C"


ANSWER_CASES = [
    ("42", "42"),
    ("  42.  ", "42"),
    ("The answer is 42.", "42"),
    ("the answer is: 7", "7"),
    ("Answer: Paris", "Paris"),
    ("answer: **blue**", "blue"),
    ("**Final Answer:** 12", "12"),
    ("Final answer: `x = 3`", "x = 3"),
    ("Let me compute.\n6 * 7 = 42\nFinal answer: 42", "42"),
    ("Final answer:\n\n42", "42"),
    ("Step 1: add.\nStep 2: multiply.\n\n17", "17"),
    ("So $x = 2$.\nThe answer is $\\frac{1}{2}$.", "\\frac{1}{2}"),
    ("Thus \\boxed{5}.", "5"),
    ("\\boxed{\\frac{1}{2}}", "\\frac{1}{2}"),
    ("First \\boxed{1}, then corrected: \\boxed{2}", "2"),
    ("$\\boxed{x^{2}+1}$", "x^{2}+1"),
    ("The answer is \\boxed{10}. Answer: 11", "10"),
    ("<answer>RED</answer>", "RED"),
    ("<answer>\n  3 4 1 2\n</answer>", "3 4 1 2"),
    ("<answer>1</answer> then <answer>2</answer>", "2"),
    ("<solution>abc</solution>", "abc"),
    ("<answer>\\boxed{7}</answer>", "7"),
    ("\\boxed{3} but <answer>4</answer>", "4"),
    ("<think>The answer is 5</think>The answer is 6", "6"),
    ("<think>Answer: 5</think>\n\n6", "6"),
    ("reasoning in the template</think>\n9", "9"),
    ("<think>still thinking... the answer is 5", None),
    ("", None),
    ("   \n  ", None),
    ("<answer></answer>", None),
    ("**.**", None),
    ("Answer: 3.14.", "3.14"),
    ("Answer: ...", "..."),
    # "answer is" in later prose does not override an "Answer:" line (probe: sequence, register_vm)
    ("Answer: 28\nI'm confident this answer is correct: the rule adds 4 each time.", "28"),
    ("Answer: A=-12, B=-75\n\nLet me know if any part of this answer is unclear.", "A=-12, B=-75"),
    ("**Final Answer:** 12\n\nThis answer is the only one that fits.", "12"),
    # ... unless the reply changes its mind first
    ("Answer: 5\nWait, I made an error; the answer is 6.", "6"),
    ("<answer>4</answer>\n\nHmm, wait - let me re-check.\n\nFinal answer: 5", "5"),
    ("<answer>4</answer>\nI'm sure the answer is 4, not 5.", "4"),
    # inline maths around a token, \text{} inside \boxed{} (probe: shortest_path, knights_knaves)
    ("The answer is $19$ km.", "19 km"),
    ("\\boxed{\\text{Boris=knight, Kevin=knave}}", "Boris=knight, Kevin=knave"),
    ("It costs $5 and $10.", "It costs $5 and $10"),
    # a lone "Answer:" introduces the block under it (probe: sudoku)
    ("Answer:\n1234\n3412\n2143\n4321", "1234\n3412\n2143\n4321"),
    ("Answer:\n\n  1 2\n  2 1\n\nEach row and column holds 1 and 2.", "1 2\n2 1"),
    ("The answer is:\n\n42\n\nbecause 6 * 7 = 42", "42"),
    # a reply that declines holds no answer
    ("I cannot determine the order without the actual weights of every box.", None),
    ("I don't know.", None),
    # wrappers inside an answer tag are peeled one layer at a time, from the window's own ends
    ("<answer>\\boxed{x^{2}}</answer>", "x^{2}"),
    ("<answer> `\\boxed{x^{2}}` </answer>", "x^{2}"),
    ("<answer>\\boxed{4^{2}} and \\boxed{5}</answer>", "\\boxed{4^{2}} and \\boxed{5}"),
    ("<answer>\\boxed{\\boxed{7}^{2} or 8}</answer>", "\\boxed{\\boxed{7}^{2} or 8}"),
    ("Answer: $x + 1$", "x + 1"),
    ("Answer: $x + 1$.", "x + 1"),
    ("Answer: $$x + 1$$", "x + 1"),
    ("Answer: \\(x + 1\\)", "x + 1"),
    ("Answer: \\[ 2^{10} \\]", "2^{10}"),
    ("Answer: \\text{yes}.", "yes"),
    ("Answer: $", "$"),
    ("<answer>$$</answer>", None),  # an empty maths block
    ("Answer: XIX", "XIX"),
    ("Answer: **XX**", "XX"),
    # an answer is cut where the next one on its line begins, its lead-in words included
    ("Answer: 7. The answer is 7", "7"),
    ("Answer: 7, so the answer is 7", "7"),
    ("Answer: 3; answer: 4", "3"),
    ("Answer: salt and pepper", "salt and pepper"),
    # a label starts its line; "the answer is" and a word before "answer:" are phrases
    ("\nAnswer: 3\nso the answer is 5", "3"),
    ("Answer: 3\nanswer is 5", "3"),
    ("Answer: 3\nI answer: 5", "3"),
    ("I answer: 5\nthe answer is 6", "6"),
    ("Answer:\n1 2\n2 1\nThat is the answer: done\nbye", "1 2\n2 1"),
    # a change of mind with nothing restated keeps the answer; with several, the last
    ("Answer: 5\nWait, let me check that again. Yes.", "5"),
    ("Answer: 5\nWait, that is wrong. Answer: 6\nAnswer: 7", "7"),
    ("Hmm. <answer>5</answer> so the answer is 6", "5"),
    ("Answer: 5\nNo,\\boxed{6}", "6"),
]


@pytest.mark.parametrize(("response", "expected"), ANSWER_CASES)
def test_extract_answer(response: str, expected: str | None) -> None:
    assert extract_answer(response) == expected


TABLE_CASES = [
    ("Here:\n```csv\na,b\n1,2\n```", "a,b\n1,2"),
    ("```\nold\n```\ntext\n```\nnew\n```", "new"),  # the last fence
    ("Answer:\na,b\n1,2", "a,b\n1,2"),  # no fence: the answer block
    ("<SOLUTION>\na,b\n</SOLUTION>\n```\nx,y\n```", "a,b"),  # the tag beats a later fence
    ("<solution>```csv\na,b\n```</solution>", "a,b"),  # a fence inside the tag
    ("<solution>\ncsv\na,b\nc,d\n</solution>", "a,b\nc,d"),  # a leftover language tag
    ("<solution>\ncsv\na,b\n</solution>", "a,b"),
    ("```\ncsv\n```", "csv"),  # a table of one line is not a language tag
    ("```\n  a | b\n  1 | 2\n```", "  a | b\n  1 | 2"),  # indentation is the table's
    ("```\n  a | b  \n```", "  a | b  "),
    ("```\n   \n```", None),
    ("```\nX | O\nO | X\n```", "X | O\nO | X"),
    ("<solution>\nOld:\n```\nx\n```\nNew:\n```\na,b\n```\n</solution>", "a,b"),  # its last fence
    ("<solution>\nA:\n```\nx\n```\nB:\n```\ny\n```\nFinal:\n```\na,b\n```\n</solution>", "a,b"),
    ("<think>x</think>```\na\n```", "a"),
    ("<think>x", None),
    (None, None),
    (5, None),
]


@pytest.mark.parametrize(("response", "expected"), TABLE_CASES)
def test_extract_table_text(response: str, expected: str | None) -> None:
    assert extract_table_text(response) == expected


REPLY_CASES = [
    ("<think>x</think>\n<solution>\n a \n</solution>\n", "a"),
    ("<SOLUTION>a</SOLUTION>", "a"),
    ("intro <solution>a</solution>", "intro <solution>a</solution>"),  # not the whole reply
    ("l1\r\nl2\rl3", "l1\nl2\nl3"),
    ("<solution>a\r\nb</solution>", "a\nb"),
    ("<think>still", None),
    (None, None),
]


@pytest.mark.parametrize(("response", "expected"), REPLY_CASES)
def test_extract_reply_text(response: str, expected: str | None) -> None:
    assert extract_reply_text(response) == expected


THINK_CASES = [
    ("plain answer", "plain answer"),
    ("<think>x</think>answer", "answer"),
    ("<think>\nlong\nreasoning\n</think>\n\nanswer", "answer"),
    ("<THINK>x</Think> answer", "answer"),
    ("<thinking>x</thinking>answer", "answer"),
    ("<reasoning>x</reasoning>answer", "answer"),
    ("<think>a</think>mid<think>b</think>end", "midend"),
    ("<think>x</think>", ""),
    ("<think>truncated reasoning", None),
    ("<think>a</think> b <think>c", None),
    ("<think>mismatched</thinking>", None),
    ("reasoning from a template</think>answer", "answer"),
    ("a</think>b</think>c", "c"),
]


@pytest.mark.parametrize(("text", "expected"), THINK_CASES)
def test_strip_think(text: str, expected: str | None) -> None:
    assert strip_think(text) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("**Paris**", "paris"),
        ("  New   York\n", "new york"),
        ("ＡＢＣ", "abc"),
        ("`code`", "code"),
        ("_italic_ snake_case", "italic snake_case"),
        ("Straße", "strasse"),
    ],
)
def test_normalise_text(raw: str, expected: str) -> None:
    assert normalise_text(raw) == expected


# ---------------------------------------------------------------- properties

FRAGMENTS = [
    "A",
    "b",
    "(C)",
    "D)",
    "E",
    "I ",
    " or ",
    "/",
    "Answer:",
    "the answer is ",
    "\\boxed{",
    "}",
    "{",
    "\\text{",
    "<think>",
    "</think>",
    "<answer>",
    "</answer>",
    "**",
    "__",
    "`",
    "$",
    "\n",
    "no, ",
    "actually it's ",
    "I think ",
    " is correct",
    "none of the above",
    "Ｂ",
    "\u00df",
    "\u2019",
    "\ufb01",
    "Paris",
]
REPLIES = st.lists(st.one_of(st.text(max_size=8), st.sampled_from(FRAGMENTS)), max_size=14).map(
    "".join
)
CHOICE_LISTS = st.lists(st.one_of(st.text(max_size=6), st.sampled_from(FRAGMENTS)), max_size=12)
LETTER_SETS = st.one_of(
    st.sampled_from(["ABCD", "ABCDEFGHIJ", "abcd", "123", "", "AAB"]), st.text()
)
PROPERTY_SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY_SETTINGS
@given(REPLIES, CHOICE_LISTS, LETTER_SETS)
def test_extract_choice_never_raises_and_returns_a_valid_letter(
    response: str, choices: list[str], letters: str
) -> None:
    result = extract_choice(response, choices, letters)
    valid = {unicodedata.normalize("NFKC", c).upper() for c in letters[: len(choices)]}
    assert result is None or result in valid


@PROPERTY_SETTINGS
@given(REPLIES, CHOICE_LISTS)
def test_extract_choice_default_letters(response: str, choices: list[str]) -> None:
    assert extract_choice(response, choices) in {None, *"ABCD"[: len(choices)]}


@PROPERTY_SETTINGS
@given(REPLIES)
def test_extract_answer_and_strip_think_never_raise(response: str) -> None:
    answer = extract_answer(response)
    assert answer is None or (answer and answer == answer.strip())
    stripped = strip_think(response)
    assert stripped is None or "</think>" not in stripped.lower()
    assert isinstance(normalise_text(response), str)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40), st.sampled_from(["A", "B", "C", "D"]))
def test_a_clearly_stated_answer_survives_preceding_noise(noise: str, letter: str) -> None:
    noise = noise.replace("<", " ")  # no tag may open an unclosed reasoning block
    assert extract_choice(f"{noise}\n\nFinal answer: {letter}", GEO) == letter


# Numeric options: a value written many ways must name its option, and nothing else may.

UNITS = ["", "$", "%", " km"]  # how an option decorates its number


def _number(cents: int, style: str) -> str:
    """A positive amount of hundredths written plainly, with group separators or two decimals."""
    value = Decimal(cents) / 100
    if style == "fixed":
        return f"{value:.2f}"
    return f"{value.normalize():{',' if style == 'grouped' else ''}f}"


def _with_unit(number: str, unit: str, spelled: bool) -> str:
    if unit == "$":
        return f"{number} dollars" if spelled else f"${number}"
    if unit == "%":
        return f"{number} percent" if spelled else f"{number}%"
    return number + unit


NUMBER_STYLES = st.sampled_from(["plain", "grouped", "fixed"])
VALUES = st.lists(st.integers(1, 10**7), min_size=2, max_size=4, unique=True)


@st.composite
def numeric_question(draw: st.DrawFn) -> tuple[list[str], list[int], list[str]]:
    """Options that are numbers, their values in hundredths, and each option's unit."""
    cents = draw(VALUES)
    units = [draw(st.sampled_from(UNITS)) for _ in cents]
    options = [_with_unit(_number(c, draw(NUMBER_STYLES)), u, False) for c, u in zip(cents, units)]
    return options, cents, units


@st.composite
def written(draw: st.DrawFn, cents: int, unit: str) -> str:
    """cents, with unit, as a reply might write it: any number style, the unit kept or dropped."""
    number = _number(cents, draw(NUMBER_STYLES))
    if unit and draw(st.booleans()):
        return _with_unit(number, unit, spelled=unit in "$%" and draw(st.booleans()))
    return number


FINAL_STATEMENTS = [
    "Answer: {}",
    "The answer is {}.",
    "Final answer: **{}**",
    "**{}**",
    "<answer>{}</answer>",
    "\\boxed{{{}}}",
    "{}",
]


@st.composite
def working(draw: st.DrawFn, cents: list[int], units: list[str]) -> str:
    """Lines of arithmetic whose operands and results are the options' own values."""
    lines = []
    for _ in range(draw(st.integers(0, 3))):
        a, b, c = (draw(st.integers(0, len(cents) - 1)) for _ in range(3))
        operator = draw(st.sampled_from(["+", "-", "x", "/", "="]))
        terms = [draw(written(cents[i], units[i])) for i in (a, b, c)]
        lines.append(f"{terms[0]} {operator} {terms[1]} = {terms[2]}")
    return "\n".join(lines)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_numeric_option_stated_as_the_answer_is_read(data: st.DataObject) -> None:
    options, cents, units = data.draw(numeric_question())
    k = data.draw(st.integers(0, len(options) - 1))
    template = data.draw(st.sampled_from(FINAL_STATEMENTS))
    final = template.format(data.draw(written(cents[k], units[k])))
    reply = f"{data.draw(working(cents, units))}\n\n{final}".strip()
    assert extract_choice(reply, options) == "ABCD"[k]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_no_numeric_option_is_read_that_the_reply_did_not_state(data: st.DataObject) -> None:
    options, cents, units = data.draw(numeric_question())
    steps = data.draw(working(cents, units))
    assert extract_choice(steps, options) is None  # working alone states no answer
    if steps:  # nor does working where an answer belongs: it is not its first operand
        sum_line = steps.splitlines()[-1]
        assert extract_choice(f"The answer is {sum_line}", options) is None
    i, j = data.draw(
        st.lists(st.integers(0, len(options) - 1), min_size=2, max_size=2, unique=True)
    )
    joiner = data.draw(st.sampled_from([" or ", "/", " vs ", " and ", ", "]))
    both = joiner.join(data.draw(written(cents[n], units[n])) for n in (i, j))
    template = data.draw(st.sampled_from(FINAL_STATEMENTS))
    assert extract_choice(f"{steps}\n\n{template.format(both)}", options) is None
    other = data.draw(st.integers(1, 10**7).filter(lambda c: c not in cents))
    unit = data.draw(st.sampled_from(units))
    stated = template.format(data.draw(written(other, unit)))
    assert extract_choice(f"{steps}\n\n{stated}", options) is None


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_value_two_options_share_names_neither(data: st.DataObject) -> None:
    options, cents, units = data.draw(numeric_question())
    i, j = data.draw(
        st.lists(st.integers(0, len(options) - 1), min_size=2, max_size=2, unique=True)
    )
    twin_unit = data.draw(st.sampled_from([u for u in UNITS if u != units[i]]))
    options[j] = _with_unit(_number(cents[i], data.draw(NUMBER_STYLES)), twin_unit, False)
    bare = _number(cents[i], data.draw(NUMBER_STYLES))
    if bare in (options[i], options[j]):
        return  # the option's own text: read by text, as any option is
    template = data.draw(st.sampled_from(FINAL_STATEMENTS))
    assert extract_choice(template.format(bare), options) is None


def test_long_single_line_replies_stay_linear() -> None:
    # Every marker used to re-read the rest of its line: quadratic on long one-line replies.
    reply = "The answer is A. Wait, so it's B. " * 3000
    assert extract_choice(reply, GEO) == "B"
    assert extract_answer("Answer: 1\n" * 5000 + "Answer:\n2") == "2"


def test_odd_arguments_do_not_raise() -> None:
    assert extract_choice(None, GEO) is None  # type: ignore[arg-type]
    assert extract_choice("B", None) is None  # type: ignore[arg-type]
    assert extract_choice("B", GEO, None) is None  # type: ignore[arg-type]
    assert extract_choice("B", [None, 3, "x", "y"]) == "B"  # type: ignore[list-item]
    assert extract_answer(None) is None  # type: ignore[arg-type]
    assert strip_think(None) is None  # type: ignore[arg-type]


# ---------------------------------------------------------------- embeddability

SOURCE = Path(extract.__file__).read_text(encoding="utf-8")


def test_source_is_python_38_and_standard_library_only() -> None:
    tree = ast.parse(SOURCE, feature_version=(3, 8))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
        assert not isinstance(node, ast.Match)
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}
    assert "from __future__ import annotations\n" in SOURCE
    assert "removeprefix" not in SOURCE and "removesuffix" not in SOURCE


def test_public_api() -> None:
    assert set(extract.__all__) == {
        "extract_answer",
        "extract_choice",
        "normalise_text",
        "strip_think",
    }
