"""Arithmetic: evaluate an integer expression and give its value.

Tier 0 is a single operation on small integers (the floor: any model that can follow the answer
format should pass). Tier 1 chains three or four operations without parentheses, so the model has
to apply the usual precedence (multiply and divide before adding and subtracting) instead of
reading left to right, and may reach a negative result. Tier 2 nests parentheses two or three
levels deep over two- and three-digit numbers, so it needs working memory for several
intermediate results, carries and signs. Every division is exact, so the answer is always an
integer.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register


@dataclass(frozen=True)
class ArithmeticConfig:
    """Difficulty parameters of one tier."""

    min_ops: int  # number of binary operations in the expression
    max_ops: int
    min_operand: int
    max_operand: int
    operators: tuple[str, ...]
    nested: bool  # False: flat expression, usual precedence; True: a parenthesised tree
    min_depth: int  # nested only: the least parenthesis nesting depth
    max_divisor: int
    max_abs: int  # bound on the result and every intermediate value
    allow_negative: bool
    mixed_precedence: bool  # flat only: needs both a + or - and a * or /


_ALL = ("+", "-", "*", "/")

TIERS: dict[int, ArithmeticConfig] = {
    0: ArithmeticConfig(
        min_ops=1,
        max_ops=1,
        min_operand=1,
        max_operand=20,
        operators=_ALL,
        nested=False,
        min_depth=0,
        max_divisor=10,
        max_abs=400,
        allow_negative=False,
        mixed_precedence=False,
    ),
    1: ArithmeticConfig(
        min_ops=3,
        max_ops=4,
        min_operand=2,
        max_operand=20,
        operators=_ALL,
        nested=False,
        min_depth=0,
        max_divisor=12,
        max_abs=5_000,
        allow_negative=True,
        mixed_precedence=True,
    ),
    2: ArithmeticConfig(
        min_ops=4,
        max_ops=5,
        min_operand=10,
        max_operand=199,
        operators=_ALL,
        nested=True,
        min_depth=2,
        max_divisor=25,
        max_abs=100_000,
        allow_negative=True,
        mixed_precedence=False,
    ),
}

PROMPT = """Compute the value of this arithmetic expression.

{expression}

Use the usual order of operations: first what is inside parentheses, then * (multiplication) \
and / (division) from left to right, then + and - from left to right. Every division in it is \
exact, and the value is a whole number.

Give the value as an integer in digits (with a minus sign if it is negative) inside \
<answer></answer> tags, for example: <answer>-317</answer>"""

_MAX_TRIES = 1000


def _flat_expression(rng: random.Random, cfg: ArithmeticConfig) -> tuple[str, Fraction, int]:
    """A chain of operations without parentheses: (text, value, peak |running value|).

    A division divides the running product of its term by one of that product's divisors, so it
    is exact by construction.
    """
    n_ops = rng.randint(cfg.min_ops, cfg.max_ops)
    first = rng.randint(cfg.min_operand, cfg.max_operand)
    parts = [str(first)]
    total = Fraction(0)  # sum of the finished additive terms
    sign, term = 1, Fraction(first)
    peak = first
    for _ in range(n_ops):
        op = rng.choice(cfg.operators)
        divisors = [d for d in range(2, cfg.max_divisor + 1) if term.numerator % d == 0]
        if op == "/" and not divisors:
            op = rng.choice([o for o in cfg.operators if o != "/"])
        if op == "/":
            number = rng.choice(divisors)
            term /= number
        else:
            number = rng.randint(cfg.min_operand, cfg.max_operand)
            if op == "*":
                term *= number
            else:
                total += sign * term
                sign, term = (1 if op == "+" else -1), Fraction(number)
        peak = max(peak, abs(int(term)), abs(int(total)))
        parts += [op, str(number)]
    return " ".join(parts), total + sign * term, peak


def _tree(rng: random.Random, leaves: int, cfg: ArithmeticConfig) -> tuple[str, Fraction, int]:
    """A random expression over ``leaves`` numbers: (text, value, peak |intermediate|).

    Every operation on a non-number is wrapped in parentheses. A division's right side is a
    number chosen among the divisors of its left side's value, so it is exact by construction;
    when there is none, another operator takes its place.
    """
    if leaves == 1:
        number = rng.randint(cfg.min_operand, cfg.max_operand)
        return str(number), Fraction(number), number
    op = rng.choice(cfg.operators)
    if op == "/":
        left = _tree(rng, leaves - 1, cfg)
        divisors = [d for d in range(2, cfg.max_divisor + 1) if left[1].numerator % d == 0]
        if divisors:
            divisor = rng.choice(divisors)
            return f"{_wrap(left[0], leaves - 1)} / {divisor}", left[1] / divisor, left[2]
        op = rng.choice([o for o in cfg.operators if o != "/"])
        return _join(op, left, _tree(rng, 1, cfg), leaves - 1, 1)
    left_leaves = rng.randint(1, leaves - 1)
    left = _tree(rng, left_leaves, cfg)
    right = _tree(rng, leaves - left_leaves, cfg)
    return _join(op, left, right, left_leaves, leaves - left_leaves)


def _join(
    op: str,
    left: tuple[str, Fraction, int],
    right: tuple[str, Fraction, int],
    left_leaves: int,
    right_leaves: int,
) -> tuple[str, Fraction, int]:
    value = {"+": left[1] + right[1], "-": left[1] - right[1], "*": left[1] * right[1]}[op]
    peak = max(left[2], right[2], abs(int(value)))
    return f"{_wrap(left[0], left_leaves)} {op} {_wrap(right[0], right_leaves)}", value, peak


def _wrap(text: str, leaves: int) -> str:
    return text if leaves == 1 else f"({text})"


def _depth(text: str) -> int:
    depth = best = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        best = max(best, depth)
    return best


_INTEGER = re.compile(
    r"(?P<sign>[+-]?)\s*(?P<digits>\d{1,3}(?:,\d{3})+|\d{1,3}(?: \d{3})+|\d+)(?:\.0*)?"
)


def normalise_integer(text: str) -> str | None:
    """Canonical integer text ("-1234") from "1,234", "1 234", "+5", "5.0", "−5"; else None."""
    cleaned = text.strip().replace("\u2212", "-")
    for space in ("\u00a0", "\u202f", "\u2009"):
        cleaned = cleaned.replace(space, " ")
    match = _INTEGER.fullmatch(cleaned)
    if match is None:
        return None
    digits = re.sub(r"[ ,]", "", match["digits"]).lstrip("0") or "0"
    return f"-{digits}" if match["sign"] == "-" and digits != "0" else digits


# The working of an equation: numbers, operators and brackets only ("14 - 20 + 136").
_WORKING = re.compile(r"[\d\s+\-*/x\u00d7\u00f7\u2212\u22c5\u00b7().,\[\]^]*", re.IGNORECASE)
# Relations that are not an equality: what follows them is not the result.
_NOT_EQUAL = re.compile(r"[!<>\u2260\u2248\u2264\u2265~]")


@register
class ArithmeticFamily(Family):
    """Evaluate an integer arithmetic expression."""

    name = "arithmetic"
    tiers = TIERS

    def generate(self, rng: random.Random, cfg: ArithmeticConfig) -> Puzzle:
        for _ in range(_MAX_TRIES):
            if cfg.nested:
                leaves = rng.randint(cfg.min_ops, cfg.max_ops) + 1
                expression, value, peak = _tree(rng, leaves, cfg)
                if _depth(expression) < cfg.min_depth:
                    continue
            else:
                expression, value, peak = _flat_expression(rng, cfg)
                ops = set(expression.split()) & set(cfg.operators)
                if cfg.mixed_precedence and not (ops & {"+", "-"} and ops & {"*", "/"}):
                    continue
            if value.denominator != 1 or peak > cfg.max_abs or abs(value) > cfg.max_abs:
                continue
            if value < 0 and not cfg.allow_negative:
                continue
            return Puzzle(PROMPT.format(expression=expression), str(int(value)))
        raise RuntimeError(f"arithmetic {cfg}: no expression within bounds")

    def normalise(self, text: str) -> str | None:
        """The integer; an equation ("14 - 20 + 136 = 130") reads as the number after its last
        '=', when that is a single number and everything before it is arithmetic working."""
        if not isinstance(text, str):
            return None
        if "=" in text and not _NOT_EQUAL.search(text):
            *working, result = re.split(r"==?", text)
            if not all(_WORKING.fullmatch(part) for part in working):
                return None
            return normalise_integer(result)
        return normalise_integer(text)
