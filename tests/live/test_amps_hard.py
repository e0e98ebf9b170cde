"""amps_hard: ground truths re-derived from the prompt (matrices, numbers, polynomials) or from
the shown function by independent SymPy work; near-miss answers fail, other notations pass."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from functools import cache

import pytest
import sympy as sp
import task_checks as checks
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import INDICES, RELEASE, make_question, record

from ladderbench.live.base import Question
from ladderbench.live.tasks.amps_hard import (
    SUBTASKS,
    AmpsHard,
    X,
    to_sympy,
)

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


def values_agree(left: sp.Expr, right: sp.Expr) -> bool:
    """left == right at every grid point where right is real and finite (at least five)."""
    used = 0
    for k in range(-40, 41):
        point = sp.Rational(k, 9) + sp.Rational(1, 97)
        r = complex(right.evalf(25, subs={X: point}))
        if not (math.isfinite(r.real) and math.isfinite(r.imag)) or abs(r.imag) > 1e-12:
            continue
        lv = complex(left.evalf(25, subs={X: point}))
        if abs(lv - r) > 1e-8 * max(1.0, abs(r)):
            return False
        used += 1
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
