"""knights_knaves: every answer is re-derived from the prompt text by brute force over roles."""

from __future__ import annotations

import itertools
import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.knights_knaves import KnightsKnaves

FAMILY = KnightsKnaves()
TIERS = sorted(FAMILY.tiers)
COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def parse_names(prompt: str) -> list[str]:
    match = re.search(r"You meet (\w+) inhabitants: ([A-Za-z, ]+?) and ([A-Za-z]+)\.", prompt)
    assert match, prompt
    names = [*match.group(2).split(", "), match.group(3)]
    assert len(names) == COUNTS[match.group(1)]
    return names


def statement_test(speaker: str, text: str, people: list[str]):
    """Turn one quoted statement into a predicate over {name: is_knight}."""
    one = r"([A-Z][a-z]+)"
    patterns = [
        (rf"{one} is a knight\.", lambda r, x: r[x]),
        (rf"{one} is a knave\.", lambda r, x: not r[x]),
        (rf"{one} and {one} are both knights\.", lambda r, x, y: r[x] and r[y]),
        (rf"{one} and {one} are both knaves\.", lambda r, x, y: not r[x] and not r[y]),
        (rf"At least one of {one} and {one} is a knave\.", lambda r, x, y: not (r[x] and r[y])),
        (rf"At least one of {one} and {one} is a knight\.", lambda r, x, y: r[x] or r[y]),
        (rf"Exactly one of {one} and {one} is a knight\.", lambda r, x, y: r[x] ^ r[y]),
        (rf"If {one} is a knight, then {one} is a knight\.", lambda r, x, y: r[y] or not r[x]),
        (rf"{one} and I are the same kind\.", lambda r, x: r[x] == r[speaker]),
        (rf"{one} and I are different kinds\.", lambda r, x: r[x] != r[speaker]),
        (
            r"Exactly (\w+) of us (?:is a knight|are knights)\.",
            lambda r, k: sum(r.values()) == COUNTS[k],
        ),
        (
            r"Exactly (\w+) of us (?:is a knave|are knaves)\.",
            lambda r, k: sum(not v for v in r.values()) == COUNTS[k],
        ),
    ]
    for pattern, predicate in patterns:
        match = re.fullmatch(pattern, text)
        if match:
            args = match.groups()
            for arg in args:
                assert arg in people or arg in COUNTS, (arg, text)
                assert arg != speaker, f"{speaker} names themself: {text}"
            return lambda roles, p=predicate, a=args: p(roles, *a)
    raise AssertionError(f"unparsed statement: {text!r}")


def solve(prompt: str) -> list[str]:
    """All consistent assignments, each rendered canonically in order of introduction."""
    people = parse_names(prompt)
    said = re.findall(r'^([A-Z][a-z]+) says: "(.*)"$', prompt, flags=re.MULTILINE)
    assert sorted(s for s, _ in said) == sorted(people), "each person makes one statement"
    tests = [(s, statement_test(s, text, people)) for s, text in said]
    answers = []
    for values in itertools.product((True, False), repeat=len(people)):
        roles = dict(zip(people, values))
        if all(roles[s] == bool(test(roles)) for s, test in tests):
            answers.append(",".join(f"{n}={'knight' if roles[n] else 'knave'}" for n in people))
    return answers


@pytest.mark.parametrize("tier", TIERS)
def test_answer_rederived_from_prompt(tier: int) -> None:
    for seed in SEEDS:
        puzzle = make(tier, seed)
        people = parse_names(puzzle.prompt)
        assert people == sorted(people), "introduction order must be alphabetical"
        assert len(people) == FAMILY.tiers[tier].people
        answers = solve(puzzle.prompt)
        assert answers == [puzzle.answer], (tier, seed, answers)
        assert FAMILY.check(puzzle, puzzle.answer)


def test_normalise_variants() -> None:
    puzzle = make(4, 7)
    names = parse_names(puzzle.prompt)
    roles = dict(pair.split("=") for pair in puzzle.answer.split(","))
    variants = [
        puzzle.answer,
        f"  {puzzle.answer.upper()}  ",
        ", ".join(f"{n} is a {roles[n]}" for n in names),
        "\n".join(f"{n}: {roles[n]}" for n in reversed(names)),
        "; ".join(f"{n.lower()} = {roles[n].capitalize()}" for n in names),
        "\n".join(f"- **{n}**: {roles[n]}" for n in names),
        ", ".join(f"{n} is a {roles[n]}" for n in names[:-1]) + f" and {names[-1]} is a "
        f"{roles[names[-1]]}.",
    ]
    checks.assert_accepts(FAMILY, puzzle, variants)


def test_normalise_near_misses() -> None:
    puzzle = make(4, 7)
    pairs = puzzle.answer.split(",")
    flipped = (
        pairs[0].replace("knight", "KNAVE")
        if "knight" in pairs[0]
        else pairs[0].replace("knave", "knight")
    )
    near_misses = [
        ",".join([flipped, *pairs[1:]]),
        ",".join(pairs[1:]),  # someone missing
        puzzle.answer + "," + pairs[0],  # someone twice
        puzzle.answer + ",Zed=knight",  # an extra person
        None,
    ]
    checks.assert_rejects(FAMILY, puzzle, near_misses)
    checks.assert_unreadable(FAMILY, ["Alice=knight,Alice=knave", "Alice is a liar", ""])
