"""No two questions of the shipped ladder share a template, as far as a test can tell.

A repeated template (the same riddle with new nouns, the same puzzle with new numbers) measures one
skill twice, and a model that memorised the trick passes it on every level it appears. Three
checks, each catching what the others miss: question texts with numbers and names stripped are
distinct; no two longer questions share most of their words; and the puzzle families that the
ladder used to repeat appear at most once.
"""

import itertools
import re
from fractions import Fraction

import pytest

from ladderbench.static.loader import Question, load_questions

QUESTIONS = load_questions()

# Families the ladder may ask about at most once (each was once asked two or three times).
FAMILIES = {
    "overtaking in a race": r"\bovertak",
    "knights and knaves": r"\bknaves?\b",
    "zeros at the end of a factorial": r"\d+!|\bfactorial\b",
    "remainder or last digits of a power": r"remainder when \d+ ?(\^|raised)|last (two )?digits of",
    "Monty Hall": r"\bhost\b.*\bopens\b",
    "the cause behind the evidence (Bayes' rule)": r"\btests? positive\b|\bcame from\b",
    "clock hands": r"\bhour hand\b",
    "two work rates": r"\bin \d+ (hours|days)\b.*\bin \d+ (hours|days)\b",
    "heads and legs": r"\b\d+ (heads|vehicles)\b.*\b\d+ (legs|wheels)\b",
    "conditioned on at least one": r"\bgiven that at least one\b",
    "counting digits from 1 to 1000": r"\b1 to 1000\b",
    "far term of a periodic sequence": r"\b2026(th)?\b",
    "water's boiling or freezing point": r"\bwater (boils|freezes?)\b",
    "train timetable": r"\btrain leaves\b",
    "marble drawn from a bag": r"\bbag (holds|contains)\b",
    "ages now and in some years": r"\bas old as\b",
    "a percentage of an amount": r"\bwhat is \d+% of\b|\b\d+% off\b",
}
SIMILAR = 0.6  # share of distinct words two questions may have in common (old twins: 0.6 to 0.85)
NAME = re.compile(r"\b[A-Z][a-z]+\b")


def strip_names(text: str) -> str:
    """Drop capitalised words that do not open a sentence: names of people, places, boxes."""

    def drop(match: re.Match[str]) -> str:
        before = text[: match.start()].rstrip()
        opens_sentence = not before or before[-1] in '.?!:"'
        return match.group() if opens_sentence else " "

    return NAME.sub(drop, text)


def tokens(text: str) -> list[str]:
    """Words, operators and ``#`` for every number, names gone."""
    text = re.sub(r"\d+(?:\.\d+)?", "#", strip_names(text).lower())
    return re.findall(r"[a-z]+|#|[^\sa-z#]", text)


def sequence_rule(text: str) -> str:
    """What tells two 'what comes next' questions apart once their numbers are gone.

    The simple progressions are named; any other rule cannot be told apart by a test, so the terms
    themselves stand in for it.
    """
    terms = [int(n) for n in re.findall(r"-?\d+", text)]
    if len({b - a for a, b in itertools.pairwise(terms)}) == 1:
        return "constant difference"
    if 0 not in terms and len({Fraction(b, a) for a, b in itertools.pairwise(terms)}) == 1:
        return "constant ratio"
    return " ".join(map(str, terms))


def skeleton(question: Question) -> str:
    shape = " ".join(tokens(question.question))
    if "comes next" in shape:
        shape += " / " + sequence_rule(question.question)
    return shape


def words(question: Question) -> set[str]:
    return {t for t in tokens(question.question) if t.isalpha()}


def test_no_two_questions_share_a_skeleton():
    by_skeleton: dict[str, list[str]] = {}
    for q in QUESTIONS:
        by_skeleton.setdefault(skeleton(q), []).append(q.id)
    assert [ids for ids in by_skeleton.values() if len(ids) > 1] == []


def test_no_two_questions_share_most_of_their_words():
    longer = [q for q in QUESTIONS if len(words(q)) > 6 and "comes next" not in q.question]
    alike = []
    for a, b in itertools.combinations(longer, 2):
        shared = len(words(a) & words(b)) / len(words(a) | words(b))
        if shared >= SIMILAR:
            alike.append((a.id, b.id, round(shared, 2)))
    assert alike == []


@pytest.mark.parametrize("family", FAMILIES)
def test_a_puzzle_family_appears_at_most_once(family):
    pattern = re.compile(FAMILIES[family], re.IGNORECASE)
    hits = [q.id for q in QUESTIONS if pattern.search(q.question)]
    assert len(hits) <= 1, hits


def test_the_skeleton_strips_numbers_and_names_but_keeps_the_rest():
    assert tokens("Ola told Pim 3.5 jokes. Kim laughed.") == (
        ["ola", "told", "#", "jokes", ".", "kim", "laughed", "."]
    )
    assert sequence_rule("What number comes next: 50, 45, 40, 35, ?") == "constant difference"
    assert sequence_rule("What number comes next: 3, 6, 12, 24, ?") == "constant ratio"
    assert sequence_rule("What number comes next: 1, 4, 9, 16, ?") == "1 4 9 16"
