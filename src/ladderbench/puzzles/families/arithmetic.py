"""Arithmetic: evaluate an integer expression and give its value.

Tier 0 is a single operation on small integers (the floor: any model that can follow the answer
format should pass). Tier 1 chains three or four operations without parentheses, so the model has
to apply the usual precedence (multiply and divide before adding and subtracting) instead of
reading left to right, and may reach a negative result. Tier 2 nests parentheses two or three
levels deep over two- and three-digit numbers, so it needs working memory for several
intermediate results, carries and signs. Every division is exact, so the answer is always an
integer.

Suite v2 replaces the tiers by an open-ended difficulty ``d`` (``ArithmeticFamily.difficulty``),
one formula over four axes that never shrink:

- operations: 1 at d = 0 and 1, then d (more intermediate results to hold);
- digits per number: 1 up to d = 2, then 1 + d // 3 (longer carries, multi-digit products);
- operators: + at d = 0, + and - at d = 1, + - * from d = 2 (precedence), all four from d = 3;
  negative results from d = 3, negative numbers written ``(-7)`` from d = 5;
- structure: a random expression tree printed with only the parentheses precedence needs (so
  both precedence and nesting matter), from d = 4 at least ``(d - 2) // 2`` levels deep (capped
  at 4: deeper trees are rare to draw; length keeps growing instead). Divisions are exact and
  divide by a number as wide as the others where one divides.

So d = 0 is "3 + 4" (the floor a 135M model passes), d = 3 is three mixed operations on two-digit
numbers, d = 8 is eight operations on three-digit numbers nested three deep (exact products of
several three-digit numbers, long divisions by three-digit divisors), and past that the
expression keeps getting longer and its numbers wider.
"""

from __future__ import annotations

import operator
import random
import re
from dataclasses import dataclass
from fractions import Fraction

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register


@dataclass(frozen=True)
class ArithmeticConfig:
    """Difficulty parameters of one v1 tier or one v2 difficulty (``ArithmeticFamily.difficulty``);
    the v2-only fields default to v1's behaviour so v1 instances regenerate byte for byte."""

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
    # v2 only (the defaults are v1's behaviour):
    tree_v2: bool = False  # a random tree printed with minimal parentheses (nested is ignored)
    negative_operands: bool = False  # tree_v2 only: numbers may be negative, written (-7)
    example: str = "for example: <answer>-317</answer>"  # how the prompt shows the answer form


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
<answer></answer> tags, {example}"""

# v2's answer form: a placeholder the normaliser cannot read, so copying it never scores.
PLACEHOLDER = "<answer>NUMBER</answer>"
V2_EXAMPLE = f"in the form {PLACEHOLDER} with NUMBER replaced by the value."

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


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
_APPLY = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}
# A v2 node: (text, value, precedence of its top operator; 3 for a bare number).
_Node = tuple[str, Fraction, int]


def _v2_number(rng: random.Random, cfg: ArithmeticConfig) -> _Node:
    number = rng.randint(cfg.min_operand, cfg.max_operand)
    if cfg.negative_operands and rng.random() < 0.25:
        return f"(-{number})", Fraction(-number), 3
    return str(number), Fraction(number), 3


def _v2_tree(rng: random.Random, leaves: int, cfg: ArithmeticConfig) -> _Node:
    """A random expression over ``leaves`` numbers, printed with only the parentheses that
    precedence needs, so the reader must apply precedence as well as unwind nesting.

    A division's right side is a number among the divisors (up to ``max_divisor``, as wide as
    the other numbers where one is) of its left side's value, so it is exact; when there is
    none, another operator takes its place.
    """
    if leaves == 1:
        return _v2_number(rng, cfg)
    op = rng.choice(cfg.operators)
    if op == "/":
        left = _v2_tree(rng, leaves - 1, cfg)
        top = min(cfg.max_divisor, abs(left[1].numerator) - 1)  # not "x / x"
        divisors = [k for k in range(2, top + 1) if left[1].numerator % k == 0]
        if divisors:
            wide = [k for k in divisors if k >= cfg.min_operand]  # long division where it can
            divisor = rng.choice(wide or divisors)
            right: _Node = (str(divisor), Fraction(divisor), 3)
            return _v2_join("/", left, right)
        op = rng.choice([o for o in cfg.operators if o != "/"])
    left_leaves = rng.randint(1, leaves - 1)
    left = _v2_tree(rng, left_leaves, cfg)
    return _v2_join(op, left, _v2_tree(rng, leaves - left_leaves, cfg))


def _v2_join(op: str, left: _Node, right: _Node) -> _Node:
    """``left op right``; a side is bracketed when it binds more loosely than ``op``, and the
    right side also when it binds equally (operators of one precedence group left to right)."""
    value = _APPLY[op](left[1], right[1])
    rank = _PRECEDENCE[op]
    left_text = f"({left[0]})" if left[2] < rank else left[0]
    right_text = f"({right[0]})" if right[2] <= rank else right[0]
    return f"{left_text} {op} {right_text}", value, rank


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

    def difficulty(self, d: int) -> ArithmeticConfig:
        """The config at difficulty ``d`` (see the module docstring for what each step adds)."""
        if d < 0:
            raise ValueError(f"difficulty must be >= 0, not {d}")
        digits = 1 + d // 3 if d >= 3 else 1
        operators = (("+",), ("+", "-"), ("+", "-", "*"))[d] if d < 3 else _ALL
        ops = max(1, d)
        return ArithmeticConfig(
            min_ops=ops,
            max_ops=ops,
            min_operand=1 if digits == 1 else 10 ** (digits - 1),
            max_operand=(5, 9)[min(d, 1)] if digits == 1 else 10**digits - 1,
            operators=operators,
            nested=d >= 4,
            min_depth=min((d - 2) // 2, 4) if d >= 4 else 0,
            max_divisor=min(10**digits - 1, 999),
            max_abs=10 if d == 0 else 10 ** (3 * digits + d),
            allow_negative=d >= 3,
            mixed_precedence=d >= 2,
            tree_v2=True,
            negative_operands=d >= 5,
            example=V2_EXAMPLE,
        )

    def generate(self, rng: random.Random, cfg: ArithmeticConfig) -> Puzzle:
        for _ in range(_MAX_TRIES):
            if cfg.tree_v2:
                expression, value, _ = _v2_tree(rng, cfg.max_ops + 1, cfg)
                peak = 0  # v2 bounds only the result: its intermediates are its difficulty
                ops = set(expression.split()) & set(cfg.operators)
                if _depth(expression) < cfg.min_depth:
                    continue
                if cfg.mixed_precedence and not (ops & {"+", "-"} and ops & {"*", "/"}):
                    continue
            elif cfg.nested:
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
            prompt = PROMPT.format(expression=expression, example=cfg.example)
            return Puzzle(prompt, str(int(value)))
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
