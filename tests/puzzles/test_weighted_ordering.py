"""Weighted ordering: every answer is re-derived from the prompt alone by exact linear algebra."""

from __future__ import annotations

import re
from fractions import Fraction

import family_checks as checks
import pytest
from family_checks import SEEDS, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.weighted_ordering import TIERS, WeightedOrdering

FAMILY = WeightedOrdering()

# (pattern, function of the match giving {box: coefficient} and the right-hand side)
RULES = [
    (r"The (\w+) box weighs (\d+) kg\.", lambda m: ({m[1]: 1}, int(m[2]))),
    (
        r"The (\w+) box weighs (twice|three times) as much as the (\w+) box\.",
        lambda m: ({m[1]: 1, m[3]: -(2 if m[2] == "twice" else 3)}, 0),
    ),
    (
        r"The (\w+) box and the (\w+) box together weigh (\d+) kg\.",
        lambda m: ({m[1]: 1, m[2]: 1}, int(m[3])),
    ),
    (
        r"The (\w+) box is (\d+) kg (heavier|lighter) than the (\w+) box\.",
        lambda m: ({m[1]: 1, m[4]: -1}, int(m[2]) * (1 if m[3] == "heavier" else -1)),
    ),
]


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def parse(prompt: str) -> tuple[list[str], list[tuple[dict[str, int], int]]]:
    """(box names, equations) read from the prompt text; every statement line must parse."""
    m = re.search(r"There are (\d+) boxes: ([a-z, ]+)\. Every", prompt)
    boxes = m.group(2).split(", ")
    assert len(boxes) == int(m.group(1))
    equations = []
    for line in re.findall(r"^- (.*)$", prompt, re.M):
        for pattern, build in RULES:
            hit = re.fullmatch(pattern, line)
            if hit:
                equations.append(build(hit))
                break
        else:
            raise AssertionError(f"unparsed statement: {line!r}")
    return boxes, equations


def solve(boxes: list[str], equations: list[tuple[dict[str, int], int]]) -> dict[str, Fraction]:
    """The unique solution of the system; fails if it is inconsistent or under-determined."""
    n = len(boxes)
    rows = [[Fraction(c.get(b, 0)) for b in boxes] + [Fraction(rhs)] for c, rhs in equations]
    pivots: list[int] = []
    r = 0
    for col in range(n):
        p = next((i for i in range(r, len(rows)) if rows[i][col] != 0), None)
        if p is None:
            continue
        rows[r], rows[p] = rows[p], rows[r]
        piv = rows[r][col]
        rows[r] = [x / piv for x in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][col] != 0:
                factor = rows[i][col]
                rows[i] = [x - factor * y for x, y in zip(rows[i], rows[r], strict=True)]
        pivots.append(col)
        r += 1
    assert all(row[n] == 0 for row in rows[r:]), "statements contradict each other"
    assert pivots == list(range(n)), "statements do not determine every weight"
    return {boxes[i]: rows[i][n] for i in range(n)}


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_answer_rederived_from_prompt(tier: int) -> None:
    cfg = TIERS[tier]
    anchorless = 0
    for seed in SEEDS:
        puzzle = make(tier, seed)
        boxes, equations = parse(puzzle.prompt)
        assert cfg.min_items <= len(boxes) <= cfg.max_items
        mentioned = {b for coeffs, _ in equations for b in coeffs}
        assert mentioned == set(boxes)
        weights = solve(boxes, equations)
        values = list(weights.values())
        assert all(w.denominator == 1 and w > 0 for w in values), weights
        assert len(set(values)) == len(values), "weights are distinct, so the order is unique"
        order = sorted(boxes, key=lambda b: weights[b])
        assert ", ".join(order) == puzzle.answer, f"tier {tier} seed {seed}"
        anchorless += all(len(coeffs) == 2 for coeffs, _ in equations)
    assert 0 < anchorless < len(SEEDS)  # both kinds of closing statement occur


def test_normalise_variants() -> None:
    puzzle = make(3, 4)
    names = puzzle.answer.split(", ")
    variants = [
        puzzle.answer,
        puzzle.answer.upper(),
        " ".join(n.capitalize() for n in names),
        "\n".join(names) + "\n",
        ";".join(names),
        ", then ".join(names),
        ", ".join(names[:-1]) + " and " + names[-1],
        ", ".join(f"the {n} box" for n in names) + ".",
    ]
    checks.assert_accepts(FAMILY, puzzle, variants)
    swapped = [names[1], names[0], *names[2:]]
    near_misses = [
        ", ".join(swapped),
        ", ".join(reversed(names)),
        ", ".join(names[:-1]),
        " < ".join(names),
        " > ".join(reversed(names)),
        puzzle.answer + ", red and blue",
        "",
        None,
    ]
    checks.assert_rejects(FAMILY, puzzle, near_misses)


def test_normalise_reads_only_palette_colours() -> None:
    """Regression: a refusal or other prose is no answer, not a wrong list of "colours"."""
    unreadable = [
        "I cannot determine the order",
        "I don't know",
        "no idea",
        "red, teal, blue",  # teal is not a box colour in this family
        "the box",
    ]
    checks.assert_unreadable(FAMILY, unreadable)
    assert FAMILY.normalise("Red, GRAY and the blue box.") == "red, grey, blue"
    assert FAMILY.normalise("red, grey, blue") == "red, grey, blue"
    puzzle = make(3, 4)
    assert FAMILY.check(puzzle, puzzle.answer.upper())
    assert not FAMILY.check(puzzle, ", ".join(reversed(puzzle.answer.split(", "))))
