"""amps_hard: ground truths re-derived from the prompt (matrices, numbers, polynomials) or from
the shown function by independent SymPy work; near-miss answers fail, other notations pass."""

from __future__ import annotations

import json
import math
import os
import re
import threading
import time
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
import sympy as sp
import task_checks as checks
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import INDICES, RELEASE, make_question, record

import ladderbench
from ladderbench.live.base import Question
from ladderbench.live.tasks.amps_hard import (
    SUBTASKS,
    AmpsHard,
    X,
    to_sympy,
)
from ladderbench.live.tasks.amps_hard.parse import stated_maths

TASK = AmpsHard()


@cache
def make(index: int, release: str = RELEASE) -> Question:
    return make_question(TASK, index, release)


def by_subtask(name: str) -> list[Question]:
    return [make(i) for i in INDICES if make(i).subtask == name]


def truth(q: Question) -> sp.Expr:
    return sp.sympify(q.ground_truth, locals={"x": X})


def score(q: Question, answer: str) -> float:
    return TASK.score(record(q), answer).score


# ---------------------------------------------------------------- reading the prompt


def displayed(prompt: str) -> str:
    """The (first) $$ ... $$ block of the prompt."""
    m = re.search(r"\$\$(.*?)\$\$", prompt, re.S)
    assert m, prompt
    return m.group(1).strip()


def prompt_matrix(prompt: str) -> list[list[int]]:
    body = re.search(r"\\begin\{array\}\{c+\}(.*?)\\end\{array\}", prompt, re.S).group(1)
    rows = [r for r in body.split("\\\\") if r.strip()]
    return [[int(v) for v in row.split("&")] for row in rows]


def prompt_numbers(prompt: str) -> list[int]:
    return [int(v) for v in re.search(r"\\\{(.*?)\\\}", prompt).group(1).split(",")]


def prompt_polynomial(prompt: str) -> dict[int, int]:
    """Coefficients {power: coefficient} of a polynomial shown as SymPy LaTeX."""
    text = displayed(prompt).replace(" ", "")
    coefficients: dict[int, int] = {}
    for term in re.findall(r"[+-]?[^+-]+", text):
        m = re.fullmatch(r"([+-]?)(\d*)(x(?:\^\{(\d+)\})?)?", term)
        assert m, term
        sign, digits, var, power = m.groups()
        value = int(digits or "1") * (-1 if sign == "-" else 1)
        exponent = 0 if not var else int(power or "1")
        coefficients[exponent] = value
    return coefficients


def det(rows: list[list[int]]) -> Fraction:
    """Determinant by Gaussian elimination over the rationals."""
    a = [[Fraction(v) for v in row] for row in rows]
    n, result = len(a), Fraction(1)
    for col in range(n):
        pivot = next((r for r in range(col, n) if a[r][col] != 0), None)
        if pivot is None:
            return Fraction(0)
        if pivot != col:
            a[col], a[pivot] = a[pivot], a[col]
            result = -result
        result *= a[col][col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            a[r] = [a[r][k] - factor * a[col][k] for k in range(n)]
    return result


def values_agree(left: sp.Expr, right: sp.Expr, enough: int = 81) -> bool:
    """left == right at every grid point where right is real and finite (at least five; the
    first ``enough`` such points)."""
    used = 0
    for k in range(-40, 41):
        point = sp.Rational(k, 9) + sp.Rational(1, 97)
        try:
            r = complex(right.evalf(25, subs={X: point}))
        except (TypeError, OverflowError):
            continue
        if not (math.isfinite(r.real) and math.isfinite(r.imag)) or abs(r.imag) > 1e-12:
            continue
        lv = complex(left.evalf(25, subs={X: point}))
        if abs(lv - r) > 1e-8 * max(1.0, abs(r)):
            return False
        used += 1
        if used >= enough:
            break
    return used >= 5


# ---------------------------------------------------------------- ground truth


def test_every_subtask_appears() -> None:
    seen = {make(i).subtask for i in INDICES}
    assert seen == set(SUBTASKS)


def test_determinant_rederived() -> None:
    for q in by_subtask("determinant"):
        rows = prompt_matrix(q.prompt)
        assert len(rows) in (3, 4) and all(len(r) == len(rows) for r in rows)
        assert any(v < 0 for r in rows for v in r) and any(v > 0 for r in rows for v in r)
        assert Fraction(q.ground_truth) == det(rows) != 0


def test_characteristic_polynomial_rederived() -> None:
    for q in by_subtask("characteristic_polynomial"):
        rows = prompt_matrix(q.prompt)
        n = len(rows)
        poly = sp.Poly(truth(q), X)
        assert poly.degree() == n and poly.LC() == 1
        for t in range(-2, n + 2):  # n + 1 points fix a degree-n polynomial
            shifted = [[(t if i == j else 0) - rows[i][j] for j in range(n)] for i in range(n)]
            assert det(shifted) == poly.eval(t)


def test_number_statistics_rederived() -> None:
    for q in by_subtask("gcd"):
        numbers = prompt_numbers(q.prompt)
        assert len(numbers) == 3 and min(numbers) < 0 < max(numbers)
        assert int(q.ground_truth) == math.gcd(*numbers) > 1
    for q in by_subtask("variance") + by_subtask("standard_deviation"):
        numbers = [Fraction(v) for v in prompt_numbers(q.prompt)]
        assert 6 <= len(numbers) <= 8 and min(numbers) < 0
        mean = sum(numbers) / len(numbers)
        var = sum((v - mean) ** 2 for v in numbers) / (len(numbers) - 1)
        gt = truth(q)
        if q.subtask == "variance":
            assert Fraction(q.ground_truth) == var
        else:
            assert gt.is_positive and gt**2 == sp.Rational(var.numerator, var.denominator)
    for q in by_subtask("geometric_mean"):
        numbers = prompt_numbers(q.prompt)
        gt = truth(q)
        assert gt.is_positive and sp.expand(gt ** len(numbers)) == math.prod(numbers)
        assert not gt.is_Integer


def test_factor_rederived() -> None:
    for q in by_subtask("factor"):
        coefficients = prompt_polynomial(q.prompt)
        poly = sum(c * X**k for k, c in coefficients.items())
        assert 3 <= max(coefficients) <= 4
        gt = truth(q)
        assert sp.expand(gt - poly) == 0
        # every non-constant factor of the ground truth is irreducible over Q
        _, factors = sp.factor_list(poly)
        assert sum(m for _, m in factors) >= 2
        assert sp.factor_list(gt)[1] == factors


def test_complete_square_rederived() -> None:
    for q in by_subtask("complete_square"):
        c = prompt_polynomial(q.prompt)
        a, b, c0 = Fraction(c[2]), Fraction(c.get(1, 0)), Fraction(c.get(0, 0))
        h = -b / (2 * a)
        k = c0 - a * h * h
        assert h.denominator > 1 and a not in (0, 1)
        expected = sp.Rational(a.numerator, a.denominator) * (
            X - sp.Rational(h.numerator, h.denominator)
        ) ** 2 + sp.Rational(k.numerator, k.denominator)
        assert truth(q) == expected


def test_derivative_rederived() -> None:
    for q in by_subtask("derivative"):
        f = sp.sympify(q.fields["function"], locals={"x": X})
        assert (
            displayed(q.prompt) == f"f(x) = {sp.latex(f, ln_notation=True, inv_trig_style='full')}"
        )
        assert values_agree(sp.diff(f, X), truth(q))
        # harder than a textbook drill: at least two function layers or factors
        assert len(f.atoms(sp.Function)) + len(f.atoms(sp.Pow)) >= 2


def test_integral_rederived() -> None:
    for q in by_subtask("integral"):
        f = sp.sympify(q.fields["integrand"], locals={"x": X})
        assert (
            displayed(q.prompt) == f"f(x) = {sp.latex(f, ln_notation=True, inv_trig_style='full')}"
        )
        assert values_agree(sp.diff(truth(q), X), f)


# ---------------------------------------------------------------- wrong answers


def test_near_misses_score_zero() -> None:
    for i in INDICES:
        q = make(i)
        gt = truth(q)
        wrong = [-gt if gt != 0 else sp.Integer(1), 2 * gt, gt + 1]
        if q.subtask == "integral":
            f = sp.sympify(q.fields["integrand"], locals={"x": X})
            wrong = [-gt, 2 * gt, f, gt + X]
        if q.subtask == "derivative":
            f = sp.sympify(q.fields["function"], locals={"x": X})
            wrong = [-gt, f, gt + 1, 2 * gt]
        if q.subtask == "characteristic_polynomial":
            wrong = [gt + 1, gt - X, sp.expand(gt.subs(X, -X))]
        for w in wrong:
            text = f"<solution>{sp.latex(w)}</solution>"
            assert score(q, text) == 0.0, (i, q.subtask, q.ground_truth, text)


def test_unfactored_or_partly_factored_polynomials_fail() -> None:
    for q in by_subtask("factor"):
        poly = sp.sympify(q.fields["polynomial"], locals={"x": X})
        assert score(q, f"<solution>{sp.latex(poly)}</solution>") == 0.0
        content, factors = sp.factor_list(poly)
        bases = [b for b, m in factors for _ in range(m)]
        partial = content * sp.expand(bases[0] * bases[1]) * sp.Mul(*bases[2:])
        assert score(q, f"<solution>{partial}</solution>") == 0.0, partial


def test_completed_square_must_have_the_form() -> None:
    for q in by_subtask("complete_square"):
        poly = sp.sympify(q.fields["polynomial"], locals={"x": X})
        assert score(q, f"<solution>{poly}</solution>") == 0.0
        text = q.ground_truth
        flipped = text.replace("x - ", "x + ") if "x - " in text else text.replace("x + ", "x - ")
        assert score(q, f"<solution>{flipped}</solution>") == 0.0, flipped


def test_retracted_answer_scores_zero() -> None:
    q = by_subtask("determinant")[0]
    reply = (
        f"<solution>{q.ground_truth}</solution>\nWait, I made an error. "
        f"<solution>{int(q.ground_truth) + 2}</solution>"
    )
    assert score(q, reply) == 0.0


# ---------------------------------------------------------------- other notations


def test_latex_of_the_truth_scores_one() -> None:
    for i in INDICES:
        q = make(i)
        latex = sp.latex(truth(q))
        for text in (
            f"<solution>${latex}$</solution>",
            f"So the result is\n\n$$\\boxed{{{latex}}}$$",
            f"Final answer: \\({latex}\\)",
        ):
            assert score(q, text) == 1.0, (i, q.subtask, text)


def test_subtask_specific_alternatives() -> None:
    for q in by_subtask("integral"):
        latex = sp.latex(truth(q), ln_notation=True)
        assert score(q, f"<solution>F(x) = {latex} + C</solution>") == 1.0
        assert score(q, f"<solution>{truth(q) + 7}</solution>") == 1.0
    for q in by_subtask("characteristic_polynomial"):
        negated = sp.latex(-truth(q)).replace("x", "\\lambda")
        assert score(q, f"<solution>{negated}</solution>") == 1.0
        assert score(q, f"<solution>p(x) = {truth(q)}</solution>") == 1.0
    for q in by_subtask("factor"):
        content, factors = sp.factor_list(sp.sympify(q.fields["polynomial"], locals={"x": X}))
        bases = [b for b, m in factors for _ in range(m)]
        spread = [content * bases[0], *bases[1:]]  # the constant multiplied into a factor
        text = "".join(f"\\left({sp.latex(b)}\\right)" for b in spread)
        assert score(q, f"<solution>{text}</solution>") == 1.0, text
    for q in by_subtask("determinant"):
        value = int(q.ground_truth)
        assert score(q, f"<solution>{value:,}</solution>") == 1.0
        assert score(q, f"The determinant is $\\det A = {value}$.") == 1.0
    for q in by_subtask("standard_deviation"):
        var = (truth(q) ** 2).as_numer_denom()
        assert score(q, f"<solution>\\sqrt{{\\frac{{{var[0]}}}{{{var[1]}}}}}</solution>") == 1.0
        assert score(q, f"<solution>{float(truth(q)):.6f}</solution>") == 0.0  # rounded
    for q in by_subtask("geometric_mean"):
        numbers = prompt_numbers(q.prompt)
        unsimplified = f"\\sqrt[{len(numbers)}]{{{math.prod(numbers)}}}"
        assert score(q, f"<solution>{unsimplified}</solution>") == 1.0
    for q in by_subtask("complete_square"):
        gt = truth(q)
        plain = str(gt).replace("**", "^").replace("*", "")
        assert score(q, f"<solution>{plain}</solution>") == 1.0, plain


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"\frac{3}{4}\sqrt{2}", 3 * sp.sqrt(2) / 4),
        (r"\sin^2 x + \cos^{2}(x)", sp.sin(X) ** 2 + sp.cos(X) ** 2),
        (r"\ln\left|x-3\right| + C", sp.log(sp.Abs(X - 3)) + sp.Symbol("C")),
        (r"2x e^{3x}", 2 * X * sp.exp(3 * X)),
        (r"\tan^{-1}(x/2)", sp.atan(X / 2)),
        (r"\arctan\left(\frac{x}{3}\right)", sp.atan(X / 3)),
        ("x² − 3·x", X**2 - 3 * X),
        ("sinx cosx", sp.sin(X) * sp.cos(X)),
        (r"\sqrt[3]{x^2+1}", sp.root(X**2 + 1, 3)),
        (r"y = 3x + 1", 3 * X + 1),
        ("1,234", sp.Integer(1234)),
        (r"-\dfrac{\sqrt{210}}{3}", -sp.sqrt(210) / 3),
    ],
)
def test_to_sympy_reads_common_notations(text: str, expected: sp.Expr) -> None:
    assert sp.simplify(to_sympy(text) - expected) == 0


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('echo hi')",
        "x.__class__",
        "9^9^9^9",
        "(2x+1)!",
        r"\int x\,dx",
        "a + b",
        "lambda: 1",
        "x" * 700,
    ],
)
def test_to_sympy_rejects_unsafe_or_unknown_input(text: str) -> None:
    with pytest.raises(Exception):  # noqa: B017 (any rejection will do)
        to_sympy(text)


# ---------------------------------------------------------------- robustness


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "x",
                "^",
                "{",
                "}",
                "(",
                ")",
                "\\frac",
                "\\sqrt",
                "[",
                "]",
                "|",
                "2",
                "9",
                "-",
                "+",
                "*",
                "/",
                "\\sin",
                "e",
                "\\left",
                "\\right",
                "ln",
                "=",
                ",",
                ".",
                " ",
                "<solution>",
                "</solution>",
                "\\boxed{",
                "\\lambda",
                "C",
            ]
        ),
        max_size=40,
    )
)
def test_score_never_raises_on_math_like_text(parts: list[str]) -> None:
    checks.assert_scores_in_range(
        TASK, [record(make(index)) for index in INDICES[:10]], ["".join(parts)]
    )


def test_malformed_record_scores_zero() -> None:
    assert TASK.score({}, "<solution>1</solution>").score == 0.0
    assert (
        TASK.score({"ground_truth": "1", "subtask": "nope"}, "<solution>1</solution>").score == 0.0
    )
    assert (
        TASK.score({"ground_truth": "((", "subtask": "gcd"}, "<solution>1</solution>").score == 0.0
    )


# ---------------------------------------------------------------- formats the audit found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("e^(-2x)", sp.exp(-2 * X)),
        ("x^(1/2)", sp.sqrt(X)),
        ("144*60000^(1/6)", 144 * sp.root(60000, 6)),
        ("√(x+1)", sp.sqrt(X + 1)),
        (r"\sqrt(x+1)", sp.sqrt(X + 1)),
        (r"\sqrt(4402)/4", sp.sqrt(4402) / 4),
        ("√(2)*3", 3 * sp.sqrt(2)),
        ("(4x^3+4)^(1/2) e^(-6x-4)", sp.sqrt(4 * X**3 + 4) * sp.exp(-6 * X - 4)),
        (r"\sqrt[3](x)", sp.cbrt(X)),
    ],
)
def test_to_sympy_reads_parenthesised_exponents_and_roots(text: str, expected: sp.Expr) -> None:
    assert sp.simplify(to_sympy(text) - expected) == 0


def _record(subtask: str, truth: str, **fields: object) -> dict:
    return {"ground_truth": truth, "subtask": subtask, **fields}


@pytest.mark.parametrize(
    ("rec", "right", "wrong"),
    [
        (
            _record("derivative", "-2*exp(-2*x)", function="exp(-2*x)"),
            ["-2e^(-2x)", "-2*e^(-2*x)"],
            ["2e^(-2x)", "-2e^(2x)", "-2e^(-x)", "-e^(-2x)", "-2e^(-2)x"],
        ),
        (
            _record("derivative", "1/(2*sqrt(x))", function="sqrt(x)"),
            ["x^(-1/2)/2", "(1/2)x^(-1/2)", "1/(2√(x))", r"\frac{1}{2\sqrt(x)}"],
            ["x^(1/2)/2", "x^(-1/3)/2", "-x^(-1/2)/2", "x^(-1/2)"],
        ),
        (
            _record("geometric_mean", "144*60000**(1/6)", numbers=[]),
            ["144*60000^(1/6)", r"144\sqrt[6]{60000}", "144 (60000)^(1/6)"],
            ["144*60000^(1/5)", "144*6000^(1/6)", "-144*60000^(1/6)", "145*60000^(1/6)"],
        ),
        (
            _record("standard_deviation", "sqrt(4402)/4", numbers=[]),
            ["√(4402)/4", r"\sqrt(4402)/4", r"\sqrt(2201/8)", "√(2201/8)"],
            ["√(4402)/8", r"\sqrt(4402)", "-√(4402)/4", "√(4403)/4", r"\sqrt(15407)/8"],
        ),
    ],
)
def test_audited_formats_score_one_and_their_near_misses_zero(
    rec: dict, right: list[str], wrong: list[str]
) -> None:
    for text in right:
        assert TASK.score(rec, f"<solution>{text}</solution>").score == 1.0, text
    for text in wrong:
        assert TASK.score(rec, f"<solution>{text}</solution>").score == 0.0, text


def test_an_untagged_final_statement_is_read() -> None:
    rec = _record("determinant", "2682", matrix=[])
    work = "Cofactor expansion along the first row.\n"
    for statement in (
        "The determinant is **2682**.",
        "The determinant is $2682$.",
        "So the determinant is 2682.",
        r"Therefore the determinant is \(\det A = 2682\).",
        "**Answer: 2682**",
    ):
        assert TASK.score(rec, work + statement).score == 1.0, statement
    for statement in (
        "The determinant is **2628**.",
        "The determinant is **-2682**.",
        "The determinant is not **2682**.",
        "The determinant isn't 2682.",
        "The determinant is 2682 divided by 2.",
        "I could not compute the determinant.",
    ):
        assert TASK.score(rec, work + statement).score == 0.0, statement


def test_stated_maths_reads_the_last_maths_of_a_sentence() -> None:
    assert stated_maths("The determinant is **2682**.")[0] == "2682"
    assert stated_maths("Hence $f'(x) = 2x$ and the answer is $3x$.")[0] == "3x"
    assert stated_maths("So the gcd is 91.") == ["91"]
    assert stated_maths("The gcd is not 91.") == []


# ---------------------------------------------------------------- difficulty

DIFFICULTIES = (*range(9), 12, 20)
PER_SUBTASK = 2  # questions of each subtask checked at each difficulty
MAX_SCAN = 200  # indices scanned for them


@cache
def make_at(index: int, d: int) -> Question:
    return make_question(TASK, index, RELEASE, difficulty=d)


@cache
def questions_at(d: int) -> tuple[Question, ...]:
    """The first ``PER_SUBTASK`` questions of every subtask at difficulty ``d``."""
    found: dict[str, list[Question]] = {name: [] for name in SUBTASKS}
    for index in range(MAX_SCAN):
        q = make_at(index, d)
        if len(found[q.subtask]) < PER_SUBTASK:
            found[q.subtask].append(q)
        if all(len(qs) == PER_SUBTASK for qs in found.values()):
            break
    assert all(found.values()), (d, {k: len(v) for k, v in found.items()})
    return tuple(q for qs in found.values() for q in qs)


def shown_function(q: Question, key: str) -> sp.Expr:
    """The function in the question's fields, checked to be exactly what the prompt shows."""
    f = sp.sympify(q.fields[key], locals={"x": X})
    assert displayed(q.prompt) == f"f(x) = {sp.latex(f, ln_notation=True, inv_trig_style='full')}"
    return f


def rederive(q: Question) -> None:
    """The ground truth follows from the prompt, worked out apart from the generator."""
    gt = truth(q)
    if q.subtask == "determinant":
        rows = prompt_matrix(q.prompt)
        assert all(len(r) == len(rows) for r in rows)
        assert Fraction(q.ground_truth) == det(rows) != 0
    elif q.subtask == "characteristic_polynomial":
        rows = prompt_matrix(q.prompt)
        n = len(rows)
        poly = sp.Poly(gt, X)
        assert poly.degree() == n and poly.LC() == 1
        for t in range(-2, n + 2):
            shifted = [[(t if i == j else 0) - rows[i][j] for j in range(n)] for i in range(n)]
            assert det(shifted) == poly.eval(t)
    elif q.subtask == "gcd":
        numbers = prompt_numbers(q.prompt)
        assert min(numbers) < 0 < max(numbers)
        assert int(q.ground_truth) == math.gcd(*numbers) > 1
    elif q.subtask in ("variance", "standard_deviation"):
        numbers = [Fraction(v) for v in prompt_numbers(q.prompt)]
        mean = sum(numbers) / len(numbers)
        var = sum((v - mean) ** 2 for v in numbers) / (len(numbers) - 1)
        if q.subtask == "variance":
            assert Fraction(q.ground_truth) == var
        else:
            assert gt.is_positive and gt**2 == sp.Rational(var.numerator, var.denominator)
    elif q.subtask == "geometric_mean":
        numbers = prompt_numbers(q.prompt)
        assert gt.is_positive and not gt.is_Integer
        assert sp.expand(gt ** len(numbers)) == math.prod(numbers)
    elif q.subtask == "factor":
        poly = sum(c * X**k for k, c in prompt_polynomial(q.prompt).items())
        assert sp.expand(gt - poly) == 0
        _, factors = sp.factor_list(poly)
        assert sum(m for _, m in factors) >= 2
        assert sp.factor_list(gt)[1] == factors
    elif q.subtask == "complete_square":
        c = prompt_polynomial(q.prompt)
        a, b, c0 = Fraction(c[2]), Fraction(c.get(1, 0)), Fraction(c.get(0, 0))
        h = -b / (2 * a)
        k = c0 - a * h * h
        assert h.denominator > 1 and a not in (0, 1)
        rational = lambda v: sp.Rational(v.numerator, v.denominator)  # noqa: E731
        assert gt == rational(a) * (X - rational(h)) ** 2 + rational(k)
    elif q.subtask == "derivative":
        assert values_agree(sp.diff(shown_function(q, "function"), X), gt, enough=8)
    elif q.subtask == "integral":
        assert values_agree(sp.diff(gt, X), shown_function(q, "integrand"), enough=8)
    else:
        raise AssertionError(q.subtask)


def test_difficulty_zero_is_v1() -> None:
    for i in INDICES[:16]:
        assert make_at(i, 0) == make(i)


@pytest.mark.parametrize("d", DIFFICULTIES)
def test_ground_truth_rederived_at_every_difficulty(d: int) -> None:
    for q in questions_at(d):
        rederive(q)


def size(q: Question) -> float:
    """A measurable size of the work a question asks for, read from its prompt."""
    if q.subtask in ("determinant", "characteristic_polynomial"):
        rows = prompt_matrix(q.prompt)
        return len(rows) * 1000 + max(abs(v) for r in rows for v in r)
    if q.subtask in ("gcd", "variance", "standard_deviation", "geometric_mean"):
        numbers = prompt_numbers(q.prompt)
        return len(numbers) * 1000 + max(len(str(abs(v))) for v in numbers)
    if q.subtask == "factor":
        return max(prompt_polynomial(q.prompt))
    if q.subtask == "complete_square":
        return sum(abs(v) for v in prompt_polynomial(q.prompt).values())
    return len(displayed(q.prompt))  # derivative, integral: the function's size


@pytest.mark.parametrize("name", SUBTASKS)
def test_difficulty_grows(name: str) -> None:
    """Each subtask's questions get bigger (matrix size, count of numbers, degree, the size of
    the function) from d = 0 to 4 to 12 to 20."""
    means = []
    for d in (0, 4, 12, 20):
        sizes = [size(q) for q in questions_at(d) if q.subtask == name]
        means.append(sum(sizes) / len(sizes))
    assert means == sorted(means) and len(set(means)) == len(means), means


@pytest.mark.parametrize("d", (3, 8))
def test_truths_score_one_and_near_misses_zero_at_difficulty(d: int) -> None:
    for q in questions_at(d)[::PER_SUBTASK]:
        gt = truth(q)
        assert score(q, f"<solution>{sp.latex(gt)}</solution>") == 1.0, (d, q.subtask)
        wrong = [-gt, 2 * gt, gt + 1]
        if q.subtask == "integral":
            wrong = [-gt, 2 * gt, gt + X]
        if q.subtask == "characteristic_polynomial":  # -gt is the other sign convention
            wrong = [gt + 1, 2 * gt, gt - X]
        for w in wrong:
            assert score(q, f"<solution>{sp.latex(w)}</solution>") == 0.0, (d, q.subtask, w)


def test_long_true_answers_are_read_in_time() -> None:
    """At d = 12 a derivative's answer runs to thousands of characters: the reference still
    scores 1 under the scorer's (scaled, bounded) time limit, and a one-sign slip scores 0."""
    q = next(q for q in questions_at(12) if q.subtask == "derivative")
    assert len(q.ground_truth) > 600
    assert score(q, TASK.reference(record(q))) == 1.0
    slipped = q.ground_truth.replace("-", "+", 1)
    assert slipped != q.ground_truth
    assert score(q, f"<solution>{slipped}</solution>") == 0.0
    assert TASK.time_limit(record(q)) <= 15 * TASK.config.time_limit_s


def test_difficulty_generates_at_high_levels_and_rejects_negative() -> None:
    """High difficulties still generate (a hang is caught by pytest's timeout; how fast is for
    bench/, never a wall-clock assert on a shared machine)."""
    for d in (12, 20):
        for index in range(8):
            assert make_question(TASK, index + 1000, RELEASE, difficulty=d).prompt
    with pytest.raises(ValueError):
        make_question(TASK, 0, RELEASE, difficulty=-1)


def _digest_at(d: int) -> str:
    return checks.question_digest(TASK, [make_at(i, d) for i in range(12)])


def test_harder_questions_are_the_same_bytes_under_other_hash_seeds() -> None:
    """The difficulty's generators lean on no set order or ``hash()`` either."""
    from pathlib import Path

    from cli_helpers import python_output

    code = "import test_amps_hard as t\nprint(','.join(t._digest_at(d) for d in (3, 7)))\n"
    here = [Path(__file__).parent]
    expected = ",".join(_digest_at(d) for d in (3, 7))
    for seed in ("0", "4242"):
        assert python_output(code, hash_seed=seed, path=here) == expected


def _cpu_seconds_of_descendants(pid: int) -> float:
    """User + system CPU seconds of every living descendant of pid (from /proc)."""
    total, stack = 0.0, [pid]
    while stack:
        parent = stack.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{parent}/task/{tid}/children", encoding="ascii") as handle:
                    children = [int(n) for n in handle.read().split()]
            except OSError:
                continue
            for child in children:
                stack.append(child)
                try:
                    with open(f"/proc/{child}/stat", encoding="ascii") as handle:
                        fields = handle.read().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def test_a_check_past_its_limit_leaves_nothing_burning() -> None:
    """Issue #16: ``(x+1)**700*(x+3)**700`` scored 0 after 2 s while an abandoned thread burnt
    CPU for ~100 s. The check runs in a child that is killed at the limit: after the verdict no
    thread of ours and no process we started is still busy."""
    ladder = Path(ladderbench.__file__).parent / "probe" / "ladders" / "live.amps_hard.jsonl"
    rows = [json.loads(line) for line in ladder.read_text().splitlines() if line.strip()]
    factor = next(row for row in rows if row["subtask"] == "factor")
    threads = threading.active_count()
    verdict = TASK.score(factor, "<solution>(x+1)**700*(x+3)**700</solution>")
    assert verdict.score == 0.0
    assert threading.active_count() == threads
    ours, theirs = time.process_time(), _cpu_seconds_of_descendants(os.getpid())
    time.sleep(1.0)
    assert time.process_time() - ours < 0.2
    assert _cpu_seconds_of_descendants(os.getpid()) - theirs < 0.2
