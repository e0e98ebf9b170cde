"""The anagram family: every answer re-derived from the prompt's letters and clue by searching the
built-in word list (the family's data, used here as a dictionary) with an independent matcher."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladderbench.puzzles.base import Puzzle, instance_rng
from ladderbench.puzzles.families.anagram import TIERS, WORDS, AnagramFamily

FAMILY = AnagramFamily()
SEEDS = range(1, 65)
SRC = Path(__file__).resolve().parents[2] / "src"


def make(tier: int, seed: int) -> Puzzle:
    return FAMILY.generate(instance_rng("1", "anagram", tier, seed), tier)


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
def test_deterministic(tier: int) -> None:
    for seed in SEEDS:
        assert make(tier, seed) == make(tier, seed)


DIGEST_SCRIPT = """
import hashlib
from ladderbench.puzzles.base import instance_rng
from ladderbench.puzzles.families.anagram import TIERS, AnagramFamily

h = hashlib.sha256()
for tier in sorted(TIERS):
    for seed in range(1, 17):
        p = AnagramFamily().generate(instance_rng("1", "anagram", tier, seed), tier)
        h.update(f"{tier}|{seed}|{p.prompt}|{p.answer}\\n".encode())
digest = h.hexdigest()
"""


def test_same_bytes_under_another_hash_seed() -> None:
    namespace: dict[str, object] = {}
    exec(DIGEST_SCRIPT, namespace)
    env = {**os.environ, "PYTHONHASHSEED": "2718", "PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-c", DIGEST_SCRIPT + "print(digest)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == namespace["digest"]


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
        for variant in variants:
            assert FAMILY.check(puzzle, variant), variant
        last = answer[-1]
        assert not FAMILY.check(puzzle, answer[:-1] + ("q" if last != "q" else "x"))
        assert not FAMILY.check(puzzle, answer + "s")
        assert not FAMILY.check(puzzle, parse(puzzle.prompt)[1])


def test_normalise_unreadable_is_none() -> None:
    for text in ["", "   ", "42", "cat!?", "\u00e9clair"]:
        assert FAMILY.normalise(text) is None, text


def test_normalise_reads_a_sentence_naming_the_word() -> None:
    """Regression (probe case anagram/t2/s65): "The word is pepper." reads pepper."""
    puzzle = Puzzle("", "pepper")
    for text in [
        "The word is pepper.",
        "the word is: Pepper",
        'The unscrambled word is "pepper".',
        "It's pepper!",
        "It\u2019s pepper",
        "It is a pepper.",
        "I think it is pepper",
        "Answer: pepper",
        "So, the answer is P-E-P-P-E-R.",
    ]:
        assert FAMILY.check(puzzle, text), repr(text)
    for text in [
        "The word is peper.",
        "The word is papaya or pepper.",
        "The word is pepper, a vegetable.",
        "The word is",
        "pepper or guava",
    ]:
        assert not FAMILY.check(puzzle, text), repr(text)
    assert FAMILY.normalise("The word is papaya or guava.") is None


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_normalise_never_raises(text: str) -> None:
    result = FAMILY.normalise(text)
    assert result is None or isinstance(result, str)


def test_prompt_asks_for_answer_tags() -> None:
    for tier in sorted(TIERS):
        prompt = make(tier, 1).prompt
        assert "<answer>" in prompt and "</answer>" in prompt


@pytest.mark.parametrize("tier", [0, 1, 3, 7, -1])
def test_bad_tier_raises(tier: int) -> None:
    with pytest.raises(ValueError):
        make(tier, 1)
