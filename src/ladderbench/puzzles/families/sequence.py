"""Sequence: give the next term of an integer sequence that follows one named kind of rule.

The prompt lists every kind of rule the family uses, so the puzzle is well posed; the generator
fits every listed rule to the shown terms and redraws until all rules that fit predict the same
next term. Tier 2 uses the simple rules (constant difference, constant ratio, constant second
difference, sum of the two previous terms, two interleaved arithmetic sequences) on small numbers:
the model has to test a few hypotheses against 5-7 terms. Tier 3 uses rules that need more
working: constant third differences, "times k plus c", and the sum of the three previous terms,
with larger numbers, so several layers of differences or a two-parameter fit are needed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.families.arithmetic import normalise_integer
from ladderbench.puzzles.registry import register


@dataclass(frozen=True)
class SequenceConfig:
    """Difficulty parameters of one tier."""

    rules: tuple[str, ...]  # the rule kinds instances are drawn from
    min_terms: int
    max_terms: int
    scale: int  # starting values and steps are drawn from about -scale..scale
    max_abs: int  # bound on every shown term and on the answer


TIERS: dict[int, SequenceConfig] = {
    2: SequenceConfig(
        rules=("arithmetic", "geometric", "quadratic", "fibonacci", "interleaved"),
        min_terms=5,
        max_terms=7,
        scale=12,
        max_abs=5_000,
    ),
    3: SequenceConfig(
        rules=("cubic", "affine", "tribonacci"),
        min_terms=6,
        max_terms=7,
        scale=20,
        max_abs=100_000,
    ),
}

PROMPT = """Find the next term of this integer sequence.

{terms}, ...

The sequence follows one of these rules (where more than one rule fits the terms shown, they \
all give the same next term):
- the difference between consecutive terms is constant;
- each term is the previous term multiplied by a fixed number;
- the differences between consecutive terms change by a constant amount (constant second \
differences);
- the second differences change by a constant amount (constant third differences);
- each term is the sum of the two terms before it;
- each term is the sum of the three terms before it;
- each term is the previous term multiplied by a fixed number, plus a fixed number;
- the terms in odd positions and the terms in even positions form two separate sequences, each \
with a constant difference.

What is term number {position}? Give it as an integer inside <answer></answer> tags, for \
example: <answer>42</answer>"""

_MAX_TRIES = 1000


def _nonzero(rng: random.Random, low: int, high: int) -> int:
    return rng.choice([v for v in range(low, high + 1) if v != 0])


def _from_differences(start: list[int], count: int) -> list[int]:
    """Extend a difference table: ``start`` is (a0, d0, second d0, ...) with a constant last."""
    table, terms = list(start), []
    for _ in range(count):
        terms.append(table[0])
        for i in range(len(table) - 1):
            table[i] += table[i + 1]
    return terms


def _draw(rng: random.Random, rule: str, count: int, scale: int) -> list[int]:
    """``count`` terms of a random sequence of the given rule kind."""
    if rule == "arithmetic":
        return _from_differences([rng.randint(-scale, 4 * scale), _nonzero(rng, -9, 12)], count)
    if rule == "quadratic":
        start = [rng.randint(-scale, 3 * scale), rng.randint(-9, 9), _nonzero(rng, -5, 6)]
        return _from_differences(start, count)
    if rule == "cubic":
        start = [rng.randint(-scale, scale), rng.randint(-9, 9), rng.randint(-6, 6)]
        return _from_differences([*start, _nonzero(rng, -4, 4)], count)
    if rule == "geometric":
        terms = [_nonzero(rng, -9, 12)]
        ratio = rng.choice([-3, -2, 2, 3, 4])
    elif rule == "affine":
        terms = [_nonzero(rng, -9, 12)]
        ratio, offset = rng.choice([-3, -2, 2, 3]), _nonzero(rng, -scale, scale)
    elif rule == "interleaved":
        odd = _from_differences([rng.randint(-scale, 3 * scale), _nonzero(rng, -9, 9)], count)
        even = _from_differences([rng.randint(-scale, 3 * scale), _nonzero(rng, -9, 9)], count)
        return [odd[i // 2] if i % 2 == 0 else even[i // 2] for i in range(count)]
    else:  # "fibonacci" or "tribonacci": sum of the previous two or three terms
        width = 2 if rule == "fibonacci" else 3
        terms = [rng.randint(-3, scale) for _ in range(width)]
        while len(terms) < count:
            terms.append(sum(terms[-width:]))
        return terms
    while len(terms) < count:
        terms.append(terms[-1] * ratio + (offset if rule == "affine" else 0))
    return terms


# What each listed rule predicts for the next term, or None when it does not fit the terms.
Predictor = Callable[[Sequence[Fraction]], Fraction | None]


def _constant_differences(order: int) -> Predictor:
    def predict(terms: Sequence[Fraction]) -> Fraction | None:
        rows = [list(terms)]
        for _ in range(order):
            rows.append([b - a for a, b in itertools.pairwise(rows[-1])])
        if not rows[-1] or len(set(rows[-1])) != 1:
            return None
        return sum((row[-1] for row in rows[:-1]), rows[-1][-1])

    return predict


def _geometric(terms: Sequence[Fraction]) -> Fraction | None:
    if any(t == 0 for t in terms):
        return None
    ratios = {b / a for a, b in itertools.pairwise(terms)}
    return terms[-1] * ratios.pop() if len(ratios) == 1 else None


def _sum_of_previous(width: int) -> Predictor:
    def predict(terms: Sequence[Fraction]) -> Fraction | None:
        fits = all(terms[i] == sum(terms[i - width : i]) for i in range(width, len(terms)))
        return sum(terms[-width:], Fraction(0)) if fits and len(terms) > width else None

    return predict


def _affine(terms: Sequence[Fraction]) -> Fraction | None:
    if terms[1] == terms[0]:
        return terms[0] if len(set(terms)) == 1 else None
    factor = (terms[2] - terms[1]) / (terms[1] - terms[0])
    offset = terms[1] - factor * terms[0]
    if any(b != factor * a + offset for a, b in itertools.pairwise(terms)):
        return None
    return factor * terms[-1] + offset


def _interleaved(terms: Sequence[Fraction]) -> Fraction | None:
    same_parity = terms[len(terms) % 2 :: 2]  # the terms the next one continues
    other = terms[1 - len(terms) % 2 :: 2]
    if _constant_differences(1)(other) is None:
        return None
    return _constant_differences(1)(same_parity)


PREDICTORS: dict[str, Predictor] = {
    "arithmetic": _constant_differences(1),
    "geometric": _geometric,
    "quadratic": _constant_differences(2),
    "cubic": _constant_differences(3),
    "fibonacci": _sum_of_previous(2),
    "tribonacci": _sum_of_previous(3),
    "affine": _affine,
    "interleaved": _interleaved,
}


def predictions(terms: Sequence[int]) -> set[Fraction]:
    """Every next term that some listed rule fitting ``terms`` predicts."""
    values = [Fraction(t) for t in terms]
    found = (predict(values) for predict in PREDICTORS.values())
    return {value for value in found if value is not None}


@register
class SequenceFamily(Family):
    """Continue an integer sequence by one term."""

    name = "sequence"
    tiers = TIERS

    def generate(self, rng: random.Random, cfg: SequenceConfig) -> Puzzle:
        for _ in range(_MAX_TRIES):
            rule = rng.choice(cfg.rules)
            low = 6 if rule == "interleaved" else cfg.min_terms  # 3+ terms per subsequence
            count = rng.randint(low, cfg.max_terms)
            terms = _draw(rng, rule, count + 1, cfg.scale)
            shown, answer = terms[:-1], terms[-1]
            if max(abs(t) for t in terms) > cfg.max_abs or len(set(shown)) < 3:
                continue
            if predictions(shown) != {Fraction(answer)}:
                continue
            prompt = PROMPT.format(terms=", ".join(map(str, shown)), position=count + 1)
            return Puzzle(prompt, str(answer))
        raise RuntimeError(f"sequence {cfg}: no unambiguous sequence found")

    def normalise(self, text: str) -> str | None:
        return normalise_integer(text)
