"""The arithmetic family: every answer re-derived from the prompt by an independent evaluator."""

from __future__ import annotations

import ast
import itertools
import re
from fractions import Fraction

import family_checks as checks
import pytest
from family_checks import SEEDS, make_at, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.arithmetic import PLACEHOLDER, TIERS, ArithmeticFamily

FAMILY = ArithmeticFamily()


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def expression_of(prompt: str) -> str:
    match = re.search(r"arithmetic expression\.\n\n(.+?)\n\n", prompt)
    assert match is not None, prompt
    expression = match.group(1)
    assert re.fullmatch(r"[0-9+\-*/() ]+", expression), expression
    return expression


def evaluate(node: ast.AST) -> Fraction:
    """Exact evaluation of a parsed expression; every division must leave no remainder."""
    if isinstance(node, ast.Expression):
        return evaluate(node.body)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return Fraction(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        assert isinstance(node.operand, ast.Constant), "only numbers are negated"
        return -evaluate(node.operand)
    if isinstance(node, ast.BinOp):
        left, right = evaluate(node.left), evaluate(node.right)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.Div):
            assert right != 0
            quotient = left / right
            assert quotient.denominator == 1, "a division leaves a remainder"
            return quotient
    raise AssertionError(f"unexpected syntax: {ast.dump(node)}")


def depth(expression: str) -> int:
    level = best = 0
    for char in expression:
        level += {"(": 1, ")": -1}.get(char, 0)
        best = max(best, level)
    return best


def test_required_tiers() -> None:
    assert {0, 1, 2} <= set(TIERS)


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_answer_rederived_from_prompt(tier: int) -> None:
    for seed in SEEDS:
        puzzle = make(tier, seed)
        expression = expression_of(puzzle.prompt)
        value = evaluate(ast.parse(expression, mode="eval"))
        assert value.denominator == 1, (seed, expression)
        assert puzzle.answer == str(int(value)), (tier, seed, expression)
        assert FAMILY.check(puzzle, puzzle.answer)


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_tier_shape(tier: int) -> None:
    for seed in SEEDS:
        expression = expression_of(make(tier, seed).prompt)
        n_ops = len(re.findall(r" [+\-*/] ", expression))
        numbers = [int(n) for n in re.findall(r"\d+", expression)]
        if tier == 0:
            assert n_ops == 1 and max(numbers) <= 20 and "(" not in expression
            assert int(make(tier, seed).answer) >= 0
        elif tier == 1:
            assert 3 <= n_ops <= 4 and "(" not in expression
            assert re.search(r"[+-]", expression) and re.search(r"[*/]", expression)
        else:
            assert depth(expression) >= 2 and max(numbers) >= 10


def test_normalise_variants() -> None:
    puzzle = Puzzle("", "1234")
    variants = ["1234", " 1234 ", "1,234", "1 234", "+1234", "1234.0", "1234.", "01234"]
    checks.assert_accepts(FAMILY, puzzle, variants)
    checks.assert_rejects(
        FAMILY, puzzle, ["1235", "123", "12,34", "1234.5", "-1234", "", "one thousand"]
    )
    negative = Puzzle("", "-56")
    checks.assert_accepts(FAMILY, negative, ["-56", "\u221256", "- 56", "-56.00"])
    assert not FAMILY.check(negative, "56")
    assert FAMILY.normalise("-0") == "0"
    assert not FAMILY.check(puzzle, None)


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_near_miss_fails(tier: int) -> None:
    for seed in range(1, 17):
        puzzle = make(tier, seed)
        last = puzzle.answer[-1]
        wrong = puzzle.answer[:-1] + ("1" if last != "1" else "2")
        assert not FAMILY.check(puzzle, wrong)


def test_normalise_reads_the_result_of_an_equation() -> None:
    """Regression (probe case arithmetic/t1/s65): the working, then "= result", reads result."""
    puzzle = Puzzle("", "130")
    accepted = [
        "14 - 20 + 136 = 130",
        "8 * 17 = 136, 14 - 20 + 136 = 130",
        "14 - 20 + 8 \u00d7 17 = -6 + 136 = 130",
        "(14 - 20) + 136 == 130",
        "= 130",
    ]
    checks.assert_accepts(FAMILY, puzzle, accepted)
    rejected = [
        "14 - 20 + 136 = 131",
        "14 - 20 + 136 = -130",
        "130 = 14 - 20 + 136",  # only the value after the last '=' counts
        "14 - 20 + 136 = 130 or 131",
        "14 - 20 + 136 =",
        "14 - 20 + 136 != 130",
        "14 - 20 + 136 \u2248 130",
        "the answer = 130 apples",
    ]
    checks.assert_rejects(FAMILY, puzzle, rejected)


def test_long_digit_strings_do_not_raise() -> None:
    assert FAMILY.normalise("9" * 10_000) == "9" * 10_000


# ---------------------------------------------------------------- v2: open-ended difficulty d

# d -> seeds: several at every d up to 12, fewer far out (keeps the file fast).
V2_CASES = [(d, seed) for d in range(13) for seed in range(1, 9)]
V2_CASES += [(d, seed) for d in (15, 20) for seed in (1, 2)]


def shape(expression: str) -> tuple[int, int, int]:
    """(operations, widest number's digits, parenthesis depth), read from the text alone."""
    ops = len(re.findall(r" [+\-*/] ", expression))
    digits = max(len(n) for n in re.findall(r"\d+", expression))
    return ops, digits, depth(expression)


@pytest.mark.parametrize(("d", "seed"), V2_CASES)
def test_v2_answer_rederived_from_prompt(d: int, seed: int) -> None:
    puzzle = make_at(FAMILY, d, seed)
    expression = expression_of(puzzle.prompt)
    value = evaluate(ast.parse(expression, mode="eval"))
    assert value.denominator == 1, (d, seed, expression)
    assert puzzle.answer == str(int(value)), (d, seed, expression)
    assert FAMILY.check(puzzle, puzzle.answer)
    assert PLACEHOLDER in puzzle.prompt and "-317" not in puzzle.prompt


def test_v2_floor_is_adding_two_small_numbers() -> None:
    """d = 0 is what a 135M model does reliably: a + b with one-digit numbers, sum at most 10."""
    for seed in range(1, 33):
        puzzle = make_at(FAMILY, 0, seed)
        match = re.fullmatch(r"(\d) \+ (\d)", expression_of(puzzle.prompt))
        assert match is not None
        assert int(puzzle.answer) == int(match[1]) + int(match[2]) <= 10


def test_v2_difficulty_grows() -> None:
    """Operations, digits and the nesting floor never shrink with d, and three steps always add
    operations; every d has the operators and signs of the one before it."""
    configs = [FAMILY.difficulty(d) for d in range(41)]
    for d, (cfg, nxt) in enumerate(itertools.pairwise(configs)):
        assert nxt.max_ops >= cfg.max_ops and nxt.max_operand >= cfg.max_operand
        assert nxt.min_depth >= cfg.min_depth and set(nxt.operators) >= set(cfg.operators)
        assert nxt.allow_negative >= cfg.allow_negative
        assert nxt.negative_operands >= cfg.negative_operands
        if d + 3 < len(configs):
            assert configs[d + 3].max_ops > cfg.max_ops
    # and what comes out has that shape
    for d in (0, 3, 6, 9, 12):
        for seed in (1, 2, 3):
            ops, digits, nesting = shape(expression_of(make_at(FAMILY, d, seed).prompt))
            assert ops == max(1, d) and digits >= (1 + d // 3 if d >= 3 else 1)
            assert nesting >= FAMILY.difficulty(d).min_depth


def test_v2_negative_difficulty_raises() -> None:
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)


def test_v2_placeholder_is_never_an_answer() -> None:
    """A model that copies the format line scores nothing: its filling cannot be read."""
    assert FAMILY.normalise("NUMBER") is None
    inner = re.fullmatch(r"<answer>(.*)</answer>", PLACEHOLDER)
    assert inner is not None and FAMILY.normalise(inner[1]) is None
