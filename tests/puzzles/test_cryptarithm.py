"""cryptarithm: every answer is re-derived from the prompt text by an independent search.

The solver here works on letter weights (sum of weight * digit must be 0) and assigns
letters in groups, one column at a time from the right, using permutations of the unused
digits and checking the weighted sum modulo 10**k once the lowest k columns are all set.
"""

from __future__ import annotations

import itertools
import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.cryptarithm import Cryptarithm

FAMILY = Cryptarithm()
TIERS = sorted(FAMILY.tiers)


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def parse(prompt: str) -> tuple[list[str], str]:
    match = re.search(r"^Written on one line: ([A-Z +]+) = ([A-Z]+)$", prompt, re.MULTILINE)
    assert match, prompt
    addends = match.group(1).split(" + ")
    # the column layout shows the same words
    layout = [
        line.strip(" +") for line in prompt.splitlines() if re.fullmatch(r"[ +]*[A-Z]+", line)
    ]
    assert layout == [*addends, match.group(2)]
    return addends, match.group(2)


def all_solutions(addends: list[str], total: str) -> list[dict[str, int]]:
    weight: dict[str, int] = {}
    for word, sign in [*((w, 1) for w in addends), (total, -1)]:
        for power, letter in enumerate(reversed(word)):
            weight[letter] = weight.get(letter, 0) + sign * 10**power
    nonzero = {word[0] for word in [*addends, total]}
    # group letters by the lowest column they occur in
    groups: list[list[str]] = []
    seen: set[str] = set()
    for column in range(len(total)):
        group = sorted({w[-1 - column] for w in [*addends, total] if column < len(w)} - seen)
        seen.update(group)
        groups.append(group)
    solutions: list[dict[str, int]] = []

    def search(level: int, partial: int, assigned: dict[str, int]) -> None:
        if level == len(groups):
            if partial == 0:
                solutions.append(dict(assigned))
            return
        group = groups[level]
        free = [d for d in range(10) if d not in assigned.values()]
        modulus = 10 ** (level + 1)
        for digits in itertools.permutations(free, len(group)):
            if any(d == 0 and letter in nonzero for letter, d in zip(group, digits)):
                continue
            value = partial + sum(weight[letter] * d for letter, d in zip(group, digits))
            if value % modulus:
                continue
            search(level + 1, value, {**assigned, **dict(zip(group, digits))})

    search(0, 0, {})
    return solutions


@pytest.mark.parametrize("tier", TIERS)
def test_answer_rederived_from_prompt(tier: int) -> None:
    for seed in SEEDS:
        puzzle = make(tier, seed)
        addends, total = parse(puzzle.prompt)
        assert len(addends) == FAMILY.tiers[tier].addends
        assert len(set("".join(addends) + total)) >= FAMILY.tiers[tier].min_letters
        solutions = all_solutions(addends, total)
        assert len(solutions) == 1, (tier, seed, solutions)
        (solution,) = solutions
        assert sum(int("".join(str(solution[c]) for c in w)) for w in addends) == int(
            "".join(str(solution[c]) for c in total)
        )
        expected = ",".join(f"{letter}={solution[letter]}" for letter in sorted(solution))
        assert puzzle.answer == expected, (tier, seed)
        assert FAMILY.check(puzzle, puzzle.answer)


def test_known_puzzle() -> None:
    assert all_solutions(["SEND", "MORE"], "MONEY") == [
        {"D": 7, "E": 5, "N": 6, "Y": 2, "R": 8, "S": 9, "O": 0, "M": 1}
    ]


def test_normalise_variants() -> None:
    puzzle = make(4, 5)
    pairs = [pair.split("=") for pair in puzzle.answer.split(",")]
    variants = [
        puzzle.answer,
        f" {puzzle.answer.lower()} \n",
        ", ".join(f"{a} = {d}" for a, d in pairs),
        "\n".join(f"{a}: {d}" for a, d in reversed(pairs)),
        "; ".join(f"{a} -> {d}" for a, d in pairs),
        " ".join(f"{a}={d}" for a, d in pairs),
        "{" + ", ".join(f"'{a}': {d}" for a, d in pairs) + "}",
    ]
    checks.assert_accepts(FAMILY, puzzle, variants)


def test_normalise_near_misses() -> None:
    puzzle = make(4, 5)
    letter, digit = puzzle.answer.split(",")[0].split("=")
    wrong = puzzle.answer.replace(f"{letter}={digit}", f"{letter}={(int(digit) + 1) % 10}", 1)
    a_letter_missing = puzzle.answer.rsplit(",", 1)[0]
    checks.assert_rejects(FAMILY, puzzle, [wrong, a_letter_missing, puzzle.answer + ",Q=5", None])
    checks.assert_unreadable(FAMILY, ("", "A=1,A=2", "A=12", "A=1 B", "hello", "12345"))
