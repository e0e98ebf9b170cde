"""The sequence family: every listed rule is fitted to the shown terms, independently of the
generator, and all rules that reproduce the terms must agree on the next one."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from fractions import Fraction
from math import comb

import family_checks as checks
import pytest
from family_checks import SEEDS, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.sequence import TIERS, SequenceFamily

FAMILY = SequenceFamily()

# Each rule, fitted to the first terms, extends to ``n`` terms (or None when it cannot be fitted).
Rule = Callable[[list[Fraction], int], list[Fraction] | None]


def polynomial(degree: int) -> Rule:
    """Newton's forward-difference form through the first degree+1 terms."""

    def extend(t: list[Fraction], n: int) -> list[Fraction] | None:
        if len(t) < degree + 1:
            return None
        heads, row = [], t[: degree + 1]
        for _ in range(degree + 1):
            heads.append(row[0])
            row = [b - a for a, b in itertools.pairwise(row)]
        return [sum(heads[k] * comb(i, k) for k in range(degree + 1)) for i in range(n)]

    return extend


def geometric(t: list[Fraction], n: int) -> list[Fraction] | None:
    if t[0] == 0:
        return None
    ratio = t[1] / t[0]
    return [t[0] * ratio**i for i in range(n)]


def recurrence_sum(width: int) -> Rule:
    def extend(t: list[Fraction], n: int) -> list[Fraction] | None:
        out = list(t[:width])
        while len(out) < n:
            out.append(sum(out[-width:]))
        return out

    return extend


def affine(t: list[Fraction], n: int) -> list[Fraction] | None:
    if t[1] == t[0]:
        return None
    factor = (t[2] - t[1]) / (t[1] - t[0])
    offset = t[1] - factor * t[0]
    out = [t[0]]
    while len(out) < n:
        out.append(factor * out[-1] + offset)
    return out


def interleaved(t: list[Fraction], n: int) -> list[Fraction] | None:
    step_odd, step_even = t[2] - t[0], t[3] - t[1]
    return [t[i % 2] + (i // 2) * (step_odd if i % 2 == 0 else step_even) for i in range(n)]


RULES: dict[str, Rule] = {
    "constant difference": polynomial(1),
    "constant ratio": geometric,
    "constant second differences": polynomial(2),
    "constant third differences": polynomial(3),
    "sum of two before": recurrence_sum(2),
    "sum of three before": recurrence_sum(3),
    "times k plus c": affine,
    "interleaved arithmetic": interleaved,
}


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def parse(prompt: str) -> tuple[list[int], int]:
    terms = re.search(r"sequence\.\n\n(-?\d+(?:, -?\d+)*), \.\.\.\n", prompt)
    position = re.search(r"What is term number (\d+)\?", prompt)
    assert terms is not None and position is not None
    return [int(x) for x in terms.group(1).split(", ")], int(position.group(1))


def candidates(terms: list[int]) -> dict[str, Fraction]:
    """Next term predicted by every rule that reproduces all the shown terms."""
    shown = [Fraction(x) for x in terms]
    found = {}
    for name, rule in RULES.items():
        extended = rule(shown, len(shown) + 1)
        if extended is not None and extended[: len(shown)] == shown:
            found[name] = extended[-1]
    return found


def test_required_tiers() -> None:
    assert 2 in TIERS


def test_prompt_lists_every_rule_the_solver_tries() -> None:
    prompt = make(2, 1).prompt
    assert prompt.count("\n- ") == len(RULES)


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_answer_rederived_from_prompt(tier: int) -> None:
    used_rules: set[str] = set()
    for seed in SEEDS:
        puzzle = make(tier, seed)
        terms, position = parse(puzzle.prompt)
        assert position == len(terms) + 1
        assert 5 <= len(terms) <= 7
        found = candidates(terms)
        assert found, (seed, terms)
        assert set(found.values()) == {Fraction(int(puzzle.answer))}, (seed, terms, found)
        assert FAMILY.check(puzzle, puzzle.answer)
        used_rules |= set(found)
    # the tier exercises several rule kinds, not one
    assert len(used_rules) >= 3


def test_normalise_variants() -> None:
    puzzle = Puzzle("", "-2431")
    variants = ["-2431", " -2431 ", "-2,431", "-2 431", "\u22122431", "-2431.0"]
    checks.assert_accepts(FAMILY, puzzle, variants)
    checks.assert_rejects(FAMILY, puzzle, ["2431", "-2432", "-243", "-2431.5", "", "minus 2431"])
    assert FAMILY.check(Puzzle("", "105"), "+105")


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_near_miss_fails(tier: int) -> None:
    for seed in range(1, 17):
        puzzle = make(tier, seed)
        last = puzzle.answer[-1]
        assert not FAMILY.check(puzzle, puzzle.answer[:-1] + ("7" if last != "7" else "8"))
