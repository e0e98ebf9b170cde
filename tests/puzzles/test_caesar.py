"""The caesar family: every answer re-derived by decrypting the ciphertext independently."""

from __future__ import annotations

import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.caesar import TIERS, CaesarFamily

FAMILY = CaesarFamily()


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def rotate(letter: str, offset: int) -> str:
    return chr((ord(letter) - ord("A") + offset) % 26 + ord("A"))


def solve(prompt: str) -> str:
    """Decrypt the prompt's ciphertext using only the shift and direction the prompt states."""
    rule = re.search(
        r"shifted (forward|backward) \(towards [AZ]\) by (\d+) places.*?"
        r"turns A into ([A-Z]) and Z into ([A-Z])\)",
        prompt,
    )
    cipher = re.search(r"\nEncrypted: ([A-Z ]+)\n", prompt)
    assert rule is not None and cipher is not None
    shift = int(rule.group(2)) * (1 if rule.group(1) == "forward" else -1)
    assert 1 <= abs(shift) <= 25
    assert rotate("A", shift) == rule.group(3) and rotate("Z", shift) == rule.group(4)
    ciphertext = cipher.group(1)
    plain = "".join(c if c == " " else rotate(c, -shift) for c in ciphertext)
    assert plain != ciphertext
    return plain


def test_required_tiers() -> None:
    assert 2 in TIERS


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_answer_rederived_from_prompt(tier: int) -> None:
    directions = set()
    for seed in SEEDS:
        puzzle = make(tier, seed)
        plain = solve(puzzle.prompt)
        assert puzzle.answer == plain, (seed, puzzle.answer, plain)
        assert re.fullmatch(r"[A-Z]+( [A-Z]+){4,6}", puzzle.answer)
        assert FAMILY.check(puzzle, puzzle.answer)
        directions.add("forward" in puzzle.prompt)
    assert directions == {True, False}


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_normalise_variants(tier: int) -> None:
    for seed in range(1, 17):
        puzzle = make(tier, seed)
        answer = puzzle.answer
        variants = [
            answer.lower(),
            answer.capitalize() + ".",
            f'  "{answer}"  ',
            answer.replace(" ", "  "),
            answer.title() + "!",
        ]
        checks.assert_accepts(FAMILY, puzzle, variants)
        last = answer[-1]
        near_misses = [
            answer[:-1] + ("Q" if last != "Q" else "X"),
            answer.rsplit(" ", 1)[0],
            answer.replace(" ", ""),
        ]
        checks.assert_rejects(FAMILY, puzzle, near_misses)


def test_normalise_unreadable_is_none() -> None:
    checks.assert_unreadable(FAMILY, ["", " ... 42 "])
