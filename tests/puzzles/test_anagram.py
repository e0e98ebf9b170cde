"""The anagram family: every answer re-derived from the prompt's letters and clue by searching the
built-in word list (the family's data, used here as a dictionary) with an independent matcher."""

from __future__ import annotations

import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.anagram import TIERS, WORDS, AnagramFamily

FAMILY = AnagramFamily()


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def letter_counts(word: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for letter in word:
        counts[letter] = counts.get(letter, 0) + 1
    return counts


def parse(prompt: str) -> tuple[str, str]:
    clue = re.search(r"Clue: the word is (.+?)\.\n", prompt)
    letters = re.search(r"\nLetters: ([A-Z](?: [A-Z])+)\n", prompt)
    assert clue is not None and letters is not None
    return clue.group(1), letters.group(1).replace(" ", "").lower()


def test_required_tiers() -> None:
    assert 2 in TIERS


def test_word_list_has_no_anagram_pairs() -> None:
    words = [word for word, _ in WORDS]
    assert len(words) == len(set(words))
    for i, first in enumerate(words):
        for second in words[i + 1 :]:
            assert letter_counts(first) != letter_counts(second), (first, second)


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_answer_rederived_from_prompt(tier: int) -> None:
    for seed in SEEDS:
        puzzle = make(tier, seed)
        clue, scrambled = parse(puzzle.prompt)
        target = letter_counts(scrambled)
        any_clue = [word for word, _ in WORDS if letter_counts(word) == target]
        with_clue = [word for word, category in WORDS if category == clue and word in any_clue]
        assert with_clue == any_clue == [puzzle.answer], (seed, scrambled, clue, any_clue)
        assert scrambled != puzzle.answer
        assert 5 <= len(puzzle.answer) <= 8
        assert FAMILY.check(puzzle, puzzle.answer)


def test_example_answer_is_not_a_puzzle_word() -> None:
    example = re.search(r"for example: <answer>(\w+)</answer>", make(2, 1).prompt)
    assert example is not None
    assert example.group(1) not in {word for word, _ in WORDS}


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_normalise_variants(tier: int) -> None:
    for seed in range(1, 17):
        puzzle = make(tier, seed)
        answer = puzzle.answer
        variants = [
            answer.upper(),
            answer.capitalize() + ".",
            f' "{answer}" ',
            " ".join(answer.upper()),
            "-".join(answer),
        ]
        checks.assert_accepts(FAMILY, puzzle, variants)
        last = answer[-1]
        near_misses = [
            answer[:-1] + ("q" if last != "q" else "x"),
            answer + "s",
            parse(puzzle.prompt)[1],
        ]
        checks.assert_rejects(FAMILY, puzzle, near_misses)


def test_normalise_unreadable_is_none() -> None:
    checks.assert_unreadable(FAMILY, ["", "   ", "42", "cat!?", "\u00e9clair"])


def test_normalise_reads_a_sentence_naming_the_word() -> None:
    """Regression (probe case anagram/t2/s65): "The word is pepper." reads pepper."""
    puzzle = Puzzle("", "pepper")
    accepted = [
        "The word is pepper.",
        "the word is: Pepper",
        'The unscrambled word is "pepper".',
        "It's pepper!",
        "It\u2019s pepper",
        "It is a pepper.",
        "I think it is pepper",
        "Answer: pepper",
        "So, the answer is P-E-P-P-E-R.",
    ]
    checks.assert_accepts(FAMILY, puzzle, accepted)
    rejected = [
        "The word is peper.",
        "The word is papaya or pepper.",
        "The word is pepper, a vegetable.",
        "The word is",
        "pepper or guava",
    ]
    checks.assert_rejects(FAMILY, puzzle, rejected)
    assert FAMILY.normalise("The word is papaya or guava.") is None
