"""Weighted ordering: every answer is re-derived from the prompt alone by exact linear algebra."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladderbench.puzzles.base import Puzzle, instance_rng
from ladderbench.puzzles.families.weighted_ordering import TIERS, WeightedOrdering

FAMILY = WeightedOrdering()
SEEDS = range(1, 65)
SRC = Path(__file__).resolve().parents[2] / "src"

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
    return FAMILY.generate(instance_rng("1", "weighted_ordering", tier, seed), tier)


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


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_deterministic(tier: int) -> None:
    for seed in (1, 2, 3):
        assert make(tier, seed) == make(tier, seed)
    assert make(tier, 1) != make(tier, 2)


def digest() -> str:
    h = hashlib.sha256()
    for tier in sorted(TIERS):
        for seed in range(1, 17):
            p = make(tier, seed)
            h.update(p.prompt.encode() + b"\0" + p.answer.encode() + b"\0")
    return h.hexdigest()


def test_same_bytes_under_another_hash_seed() -> None:
    code = "import test_weighted_ordering as t; print(t.digest())"
    env = {**os.environ, "PYTHONHASHSEED": "777"}
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), str(Path(__file__).parent)])
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == digest()


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
    for text in variants:
        assert FAMILY.check(puzzle, text), repr(text)
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
    for text in near_misses:
        assert not FAMILY.check(puzzle, text), repr(text)


def test_normalise_reads_only_palette_colours() -> None:
    """Regression: a refusal or other prose is no answer, not a wrong list of "colours"."""
    for text in [
        "I cannot determine the order",
        "I don't know",
        "no idea",
        "red, teal, blue",  # teal is not a box colour in this family
        "the box",
    ]:
        assert FAMILY.normalise(text) is None, repr(text)
    assert FAMILY.normalise("Red, GRAY and the blue box.") == "red, grey, blue"
    assert FAMILY.normalise("red, grey, blue") == "red, grey, blue"
    puzzle = make(3, 4)
    assert FAMILY.check(puzzle, puzzle.answer.upper())
    assert not FAMILY.check(puzzle, ", ".join(reversed(puzzle.answer.split(", "))))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_normalise_never_raises(text: str) -> None:
    out = FAMILY.normalise(text)
    assert out is None or isinstance(out, str)


def test_prompt_asks_for_answer_tags() -> None:
    prompt = make(3, 1).prompt
    assert "<answer>" in prompt and "</answer>" in prompt


@pytest.mark.parametrize("tier", [-1, 0, 1, 2, 4, 5, 6, 7])
def test_bad_tier_raises(tier: int) -> None:
    with pytest.raises(ValueError, match="tier"):
        FAMILY.generate(instance_rng("1", "weighted_ordering", tier, 1), tier)
