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
import sympy
from family_checks import SEEDS, make_at, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.sequence import PLACEHOLDER, TIERS, SequenceFamily

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


# ---------------------------------------------------------------- v2: open-ended difficulty d
#
# The v2 prompt states its rule space as a list of linear forms; this solver reads them from the
# text and settles the asked term with sympy's exact linear algebra (apart from the generator's
# own elimination): for each form, the c's and a's that reproduce every shown term are the
# general solution of a linear system, and the form's prediction is unique when the asked term,
# expressed through that solution, has no free parameter left. Every form that fits must give
# the answer, and at least one must fit.

# several seeds at every d up to 12, fewer far out (sympy is slow on the long ones)
V2_CASES = [(d, seed) for d in range(13) for seed in range(1, 7)]
V2_CASES += [(d, seed) for d in (15, 20) for seed in (1, 2)]


def parse_v2(prompt: str) -> tuple[list[int], int, list[tuple[int, int, int]]]:
    """(shown terms, asked position, [(period, order, degree) of each stated rule])."""
    terms = re.search(r"\.\.\.\n\n(-?\d+(?:, -?\d+)*), \.\.\.\n", prompt)
    position = re.search(r"What is t\((\d+)\)\?", prompt)
    assert terms is not None and position is not None, prompt
    shown = [int(x) for x in terms.group(1).split(", ")]
    assert f"These are t(1) to t({len(shown)})." in prompt
    forms = []
    for line in re.findall(r"^- Rule \d+: (.*)$", prompt, flags=re.MULTILINE):
        split = re.search(r"split into (\d+) interleaved sequences", line)
        formula = re.search(r"([ts])\((n|i)\) = (.*?) for every \2 >= (\d+)", line)
        assert formula is not None, line
        order = len(re.findall(r"\bc\d+\*", formula[3]))
        degree = max(int(k) for k in re.findall(r"\ba(\d+)\b", formula[3]))
        expected = [f"c{k}*{formula[1]}({formula[2]}-{k})" for k in range(1, order + 1)]
        expected += ["a0"] + [
            f"a{j}*{formula[2]}" + (f"^{j}" if j > 1 else "") for j in range(1, degree + 1)
        ]
        assert formula[3] == " + ".join(expected), line
        assert int(formula[4]) == order + 1
        forms.append((int(split[1]) if split else 1, order, degree))
    return shown, int(position.group(1)), forms


def predict(values: list[int], order: int, degree: int, index: int) -> sympy.Rational | None:
    """Term ``index`` (1-based) of one sequence following ``s(i) = sum c_k s(i-k) + sum a_j i^j``
    for i > order, fitted to ``values``: None when the form does not fit; AssertionError when the
    fits disagree on it (the puzzle would be ambiguous)."""
    cs = sympy.symbols(f"c1:{order + 1}") if order else ()
    as_ = sympy.symbols(f"a0:{degree + 1}")
    unknowns = [*cs, *as_]

    def rhs(seq: list[sympy.Expr], i: int) -> sympy.Expr:
        recurrence = sum((c * seq[i - 1 - k] for k, c in enumerate(cs, start=1)), sympy.Integer(0))
        return recurrence + sum(a * sympy.Integer(i) ** j for j, a in enumerate(as_))

    seq: list[sympy.Expr] = [sympy.Integer(v) for v in values]
    rows = range(order + 1, len(seq) + 1)
    if not rows:
        raise AssertionError("a form with no equation fits anything")
    matrix = sympy.Matrix(
        [
            [*(seq[i - 1 - k] for k in range(1, order + 1)), *(i**j for j in range(degree + 1))]
            for i in rows
        ]
    )
    solutions = sympy.linsolve((matrix, sympy.Matrix([seq[i - 1] for i in rows])), unknowns)
    if not solutions:
        return None
    (general,) = solutions
    fitted = dict(zip(unknowns, general))
    while len(seq) < index:
        nxt = sympy.expand(rhs(seq, len(seq) + 1).subs(fitted))
        assert not nxt.free_symbols, ("several fits disagree", values, order, degree)
        seq.append(nxt)
    return sympy.Rational(seq[index - 1])


def v2_candidates(
    shown: list[int], position: int, forms: list[tuple[int, int, int]]
) -> dict[int, sympy.Rational]:
    """The asked term as every stated form that fits predicts it (by rule number)."""
    found = {}
    for number, (period, order, degree) in enumerate(forms, start=1):
        residue = (position - 1) % period
        # every interleaved sequence must fit its own copy of the form
        others = [shown[r::period] for r in range(period) if r != residue]
        if any(predict(seq, order, degree, len(seq)) is None for seq in others):
            continue
        value = predict(shown[residue::period], order, degree, (position - 1) // period + 1)
        if value is not None:
            found[number] = value
    return found


@pytest.mark.parametrize(("d", "seed"), V2_CASES)
def test_v2_answer_rederived_and_unique(d: int, seed: int) -> None:
    puzzle = make_at(FAMILY, d, seed)
    shown, position, forms = parse_v2(puzzle.prompt)
    assert len(forms) == puzzle.prompt.count("\n- Rule ")
    found = v2_candidates(shown, position, forms)
    assert found, (d, seed, shown)
    assert set(found.values()) == {sympy.Integer(int(puzzle.answer))}, (d, seed, found)
    assert FAMILY.check(puzzle, puzzle.answer)
    assert PLACEHOLDER in puzzle.prompt and "<answer>42</answer>" not in puzzle.prompt


def test_v2_solver_catches_an_ambiguous_space() -> None:
    """The solver is not vacuous: 1, 2, 4, 8 fits t(n) = c1*t(n-1) + c2*t(n-2) in many ways that
    disagree further on, and interleaved forms with too few terms fit anything."""
    assert predict([1, 2, 4, 8, 16], 1, 0, 6) == 32
    assert predict([1, 2, 4, 8, 16], 0, 1, 6) is None
    with pytest.raises(AssertionError):
        predict([1, 2, 4, 8], 2, 1, 5)
    assert v2_candidates([1, 3, 5, 7, 9, 11], 7, [(1, 0, 1), (2, 0, 1)]) == {1: 13, 2: 13}
    assert v2_candidates([1, 3, 5, 6, 9, 9], 7, [(1, 0, 1), (2, 0, 1)]) == {2: 13}


def test_v2_floor_is_a_short_arithmetic_progression() -> None:
    for seed in range(1, 17):
        shown, position, forms = parse_v2(make_at(FAMILY, 0, seed).prompt)
        assert forms == [(1, 0, 1)] and position == len(shown) + 1 == 5


def test_v2_difficulty_grows() -> None:
    """Read from the prompts: the stated forms' unknowns, the terms shown and the distance to the
    asked term never shrink, and three steps of d always add to them."""

    def measure(d: int) -> tuple[int, int, int]:
        shown, position, forms = parse_v2(make_at(FAMILY, d, 1).prompt)
        unknowns = sum(period * (order + degree + 1) for period, order, degree in forms)
        return unknowns, len(shown), position - len(shown)

    sizes = [measure(d) for d in range(25)]
    for d, (size, nxt) in enumerate(itertools.pairwise(sizes)):
        assert all(b >= a for a, b in zip(size, nxt)), (d, size, nxt)
        if d + 3 < len(sizes):
            assert sizes[d + 3][0] > size[0] and sizes[d + 3][2] > size[2], d
    # each stated form of d has a counterpart at d + 1 at least as large in every parameter
    for d in range(30):
        now, nxt = FAMILY.difficulty(d).forms, FAMILY.difficulty(d + 1).forms
        for f in now:
            assert any(
                o.period >= f.period and o.order >= f.order and o.degree >= f.degree for o in nxt
            ), (d, f)


def test_v2_negative_difficulty_raises() -> None:
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)


def test_v2_placeholder_is_never_an_answer() -> None:
    assert FAMILY.normalise("NUMBER") is None
    inner = re.fullmatch(r"<answer>(.*)</answer>", PLACEHOLDER)
    assert inner is not None and FAMILY.normalise(inner[1]) is None
