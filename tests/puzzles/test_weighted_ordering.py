"""Weighted ordering: every answer is re-derived from the prompt alone by exact linear algebra.

Gauss-Jordan elimination over the rationals proves each instance's weights unique (every column
has a pivot and no row contradicts), so the order from lightest to heaviest is unique too."""

from __future__ import annotations

import re
from fractions import Fraction

import family_checks as checks
import pytest
from family_checks import SEEDS, make_at, make_puzzle

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
    (
        r"The (\w+), (\w+) and (\w+) boxes together weigh (\d+) kg\.",
        lambda m: ({m[1]: 1, m[2]: 1, m[3]: 1}, int(m[4])),
    ),
    (
        r"The (\w+) box weighs as much as the (\w+) box and the (\w+) box together\.",
        lambda m: ({m[1]: 1, m[2]: -1, m[3]: -1}, 0),
    ),
]
# (d, seeds) for the v2 re-derivation: a few seeds per d up to 12, fewer beyond.
V2_CASES = [(d, range(1, 9)) for d in range(13)] + [(15, range(1, 3)), (20, range(1, 3))]


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def parse(prompt: str) -> tuple[list[str], list[tuple[dict[str, int], int]]]:
    """(box names, equations) read from the prompt text; every statement line must parse."""
    m = re.search(r"There are (\d+) boxes: ([a-z, ]+)\. Every", prompt)
    assert m, prompt
    boxes = m.group(2).split(", ")
    assert len(boxes) == int(m.group(1))
    equations = []
    for line in re.findall(r"^- (.*)$", prompt, re.M):
        for pattern, build in RULES:
            hit = re.fullmatch(pattern, line)
            if hit:
                coefficients, rhs = build(hit)
                assert len(coefficients) == len(set(hit.groups()) & set(boxes)), line
                equations.append((coefficients, rhs))
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


@pytest.mark.parametrize(("d", "seeds"), V2_CASES)
def test_v2_answer_rederived_and_unique(d: int, seeds: range) -> None:
    cfg = FAMILY.difficulty(d)
    for seed in seeds:
        puzzle = make_at(FAMILY, d, seed)
        boxes, equations = parse(puzzle.prompt)
        assert len(boxes) == cfg.max_items and boxes == sorted(boxes)
        assert len(equations) == len(boxes), "exactly n statements: none is redundant"
        weights = solve(boxes, equations)  # unique, or it fails
        values = list(weights.values())
        assert all(w.denominator == 1 and 0 < w <= cfg.max_weight for w in values), weights
        assert len(set(values)) == len(values), "weights are distinct, so the order is unique"
        assert ", ".join(sorted(boxes, key=lambda b: weights[b])) == puzzle.answer, (d, seed)
        anchors = sum(len(coefficients) == 1 for coefficients, _ in equations)
        assert anchors == (1 if d <= 1 else 0), (d, seed)
        assert FAMILY.check(puzzle, puzzle.answer)


def test_v2_placeholder_is_no_answer() -> None:
    for d in (0, 6, 20):
        puzzle = make_at(FAMILY, d, 2)
        placeholder = re.findall(r"<answer>(.*?)</answer>", puzzle.prompt)[-1]
        assert placeholder == "colour, colour, ..., colour"
        assert FAMILY.normalise(placeholder) is None and not FAMILY.check(puzzle, placeholder)


def test_v2_colours_read_back() -> None:
    puzzle = make_at(FAMILY, 20, 1)
    names = puzzle.answer.split(", ")
    assert len(names) == 23
    checks.assert_accepts(FAMILY, puzzle, [puzzle.answer.upper(), " then ".join(names)])
    checks.assert_rejects(FAMILY, puzzle, [", ".join([names[1], names[0], *names[2:]])])


def test_difficulty_grows() -> None:
    configs = [FAMILY.difficulty(d) for d in range(61)]
    assert (configs[0].max_items, configs[0].components) == (3, 1)
    assert configs[0].no_anchor_probability == 0 and configs[2].no_anchor_probability == 1
    for d in range(60):
        a, b = configs[d], configs[d + 1]
        assert b.max_items >= a.max_items and b.components >= a.components
        assert b.max_weight > a.max_weight
        assert b.no_anchor_probability >= a.no_anchor_probability
        assert b.times >= a.times and b.triples >= a.triples
    for d in range(30):
        a, b = configs[d], configs[d + 3]
        assert b.max_items + b.components > a.max_items + a.components, d
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)
