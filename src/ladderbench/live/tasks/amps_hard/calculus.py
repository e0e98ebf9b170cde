"""Calculus subtasks: an antiderivative and a derivative of functions that need several rules."""

from __future__ import annotations

import random

import sympy as sp

from ladderbench.live.tasks.amps_hard.equivalence import real_points, same_function
from ladderbench.live.tasks.amps_hard.parse import X, parse_truth, to_sympy
from ladderbench.live.tasks.amps_hard.subtask import (
    AmpsHardConfig,
    Drawn,
    Record,
    Subtask,
    display,
    nonzero,
)

_MIN_REAL_POINTS = 6  # a drawn function must be real at this many sample points
_C = sp.Symbol("C")  # a constant of integration in an answer


def _gen_integral(rng: random.Random) -> tuple[sp.Expr, sp.Expr]:
    """(integrand, antiderivative) from one of eleven templates."""
    kind = rng.randrange(11)
    a = nonzero(rng, -5, 5)
    if kind == 0:  # (p x + q) e^{a x}: parts
        p, q = nonzero(rng, -6, 6), nonzero(rng, -9, 9)
        f = (p * X + q) * sp.exp(a * X)
        big_f = sp.exp(a * X) * ((p * X + q) / sp.Integer(a) - sp.Rational(p, a * a))
    elif kind == 1:  # x^2 e^{a x}: parts twice
        c = nonzero(rng, -4, 4)
        f = c * X**2 * sp.exp(a * X)
        big_f = c * sp.exp(a * X) * (X**2 / a - 2 * X / sp.Integer(a**2) + sp.Rational(2, a**3))
    elif kind == 2:  # (p x + q) sin/cos(a x): parts
        p, q = nonzero(rng, -6, 6), rng.randint(-9, 9)
        u = p * X + q
        if rng.random() < 0.5:
            f = u * sp.sin(a * X)
            big_f = -u * sp.cos(a * X) / a + sp.Rational(p, a * a) * sp.sin(a * X)
        else:
            f = u * sp.cos(a * X)
            big_f = u * sp.sin(a * X) / a + sp.Rational(p, a * a) * sp.cos(a * X)
    elif kind == 3:  # x^n ln(b x): parts
        n, b = rng.randint(1, 4), rng.randint(2, 7)
        c = nonzero(rng, -5, 5)
        f = c * X**n * sp.log(b * X)
        big_f = c * (X ** (n + 1) * sp.log(b * X) / (n + 1) - X ** (n + 1) / (n + 1) ** 2)
    elif kind == 4:  # c x^{m-1} (b x^m + d)^p: substitution
        m, b, d = rng.randint(2, 3), nonzero(rng, -4, 4), nonzero(rng, -9, 9)
        p = rng.choice(
            [
                sp.Integer(3),
                sp.Integer(4),
                sp.Rational(1, 2),
                sp.Rational(3, 2),
                sp.Integer(-2),
                sp.Rational(-1, 2),
                sp.Integer(-3),
            ]
        )
        c = nonzero(rng, -6, 6)
        u = b * X**m + d
        f = c * X ** (m - 1) * u**p
        big_f = c * u ** (p + 1) / (b * m * (p + 1))
    elif kind == 5:  # c x^{m-1} e^{b x^m + d}: substitution
        m, b, d = rng.randint(2, 3), nonzero(rng, -4, 4), nonzero(rng, -5, 5)
        c = nonzero(rng, -6, 6)
        f = c * X ** (m - 1) * sp.exp(b * X**m + d)
        big_f = sp.Rational(c, b * m) * sp.exp(b * X**m + d)
    elif kind == 6:  # c sin(u) cos^n(u) or c sec^2(u) tan^n(u), u = a x + b: substitution
        b, n, c = rng.randint(-5, 5), rng.randint(2, 5), nonzero(rng, -6, 6)
        u = a * X + b
        if rng.random() < 0.5:
            f = c * sp.sin(u) * sp.cos(u) ** n
            big_f = -sp.Rational(c, a * (n + 1)) * sp.cos(u) ** (n + 1)
        else:
            f = c * sp.sec(u) ** 2 * sp.tan(u) ** n
            big_f = sp.Rational(c, a * (n + 1)) * sp.tan(u) ** (n + 1)
    elif kind == 7:  # c (2 b x + d) / (b x^2 + d x + e): logarithm
        b, d = nonzero(rng, -5, 5), nonzero(rng, -9, 9)
        e, c = nonzero(rng, -12, 12), nonzero(rng, -7, 7)
        quad = b * X**2 + d * X + e
        f = c * (2 * b * X + d) / quad
        big_f = c * sp.log(sp.Abs(quad))
    elif kind == 8:  # (p x + q) / (x^2 + k^2): log plus arctan
        p, q, k = nonzero(rng, -8, 8), nonzero(rng, -9, 9), rng.randint(2, 6)
        f = (p * X + q) / (X**2 + k**2)
        big_f = sp.Rational(p, 2) * sp.log(X**2 + k**2) + sp.Rational(q, k) * sp.atan(X / k)
    elif kind == 9:  # partial fractions over two distinct integer roots
        r1 = rng.randint(-7, 7)
        r2 = rng.choice([r for r in range(-7, 8) if r != r1])
        big_a, big_b = nonzero(rng, -6, 6), nonzero(rng, -6, 6)
        num = sp.expand(big_a * (X - r2) + big_b * (X - r1))
        f = num / sp.expand((X - r1) * (X - r2))
        big_f = big_a * sp.log(sp.Abs(X - r1)) + big_b * sp.log(sp.Abs(X - r2))
    else:  # e^{a x} sin/cos(b x): parts twice
        b = rng.randint(2, 6)
        if rng.random() < 0.5:
            f = sp.exp(a * X) * sp.sin(b * X)
            big_f = sp.exp(a * X) * (a * sp.sin(b * X) - b * sp.cos(b * X)) / (a * a + b * b)
        else:
            f = sp.exp(a * X) * sp.cos(b * X)
            big_f = sp.exp(a * X) * (a * sp.cos(b * X) + b * sp.sin(b * X)) / (a * a + b * b)
    return f, big_f


def _inner(rng: random.Random) -> sp.Expr:
    """A small polynomial inside a composition: a x^k + b."""
    k = rng.choice([1, 1, 2, 2, 3])
    return nonzero(rng, -6, 6) * X**k + rng.randint(-9, 9)


def _outer(rng: random.Random, u: sp.Expr) -> sp.Expr:
    kind = rng.randrange(9)
    if kind == 0:
        return sp.exp(u)
    if kind == 1:
        return sp.sin(u)
    if kind == 2:
        return sp.cos(u)
    if kind == 3:
        return sp.tan(u)
    if kind == 4:
        return sp.log(u)
    if kind == 5:
        return sp.sqrt(u)
    if kind == 6:
        return sp.atan(u)
    if kind == 7:
        return sp.cbrt(u)
    return u ** rng.choice([3, 4, 5, -2, -3])


def _gen_derivative(rng: random.Random) -> sp.Expr:
    """A function needing the chain rule together with the product or quotient rule."""
    while True:
        shape = rng.randrange(4)
        if shape == 0:  # product of two compositions
            f = _outer(rng, _inner(rng)) * _outer(rng, _inner(rng))
        elif shape == 1:  # quotient of two compositions
            f = _outer(rng, _inner(rng)) / _outer(rng, _inner(rng))
        elif shape == 2:  # nested composition times a power of x
            f = X ** rng.randint(1, 3) * _outer(rng, _outer(rng, _inner(rng)))
        else:  # nested composition of three
            f = _outer(rng, _outer(rng, _inner(rng)))
            if rng.random() < 0.5:
                f = f * _outer(rng, _inner(rng))
        if f.has(sp.Abs, sp.sign):  # a real-variable simplification of a root of a power
            continue
        if any(isinstance(p.base, sp.Pow) for p in f.atoms(sp.Pow)):  # a root of a power
            continue
        if f.has(X) and len(f.atoms(sp.Function)) + len(f.atoms(sp.Pow)) >= 2:
            return f


def _draw_integral(rng: random.Random, cfg: AmpsHardConfig) -> Drawn:
    while True:
        f, big_f = _gen_integral(rng)
        if real_points(f, _MIN_REAL_POINTS) >= _MIN_REAL_POINTS:
            break
    return Drawn(f"$$f(x) = {display(f)}$$", str(big_f), {"integrand": str(f)})


def _check_integral(record: Record, answer: str) -> bool:
    """Any antiderivative: the answer must differentiate to the integrand."""
    candidate = to_sympy(answer)
    if candidate.free_symbols - {X, _C}:
        return False
    return same_function(sp.diff(candidate, X), parse_truth(record["integrand"]))


def _draw_derivative(rng: random.Random, cfg: AmpsHardConfig) -> Drawn:
    while True:
        f = _gen_derivative(rng)
        if real_points(f, _MIN_REAL_POINTS) >= _MIN_REAL_POINTS:
            break
    return Drawn(f"$$f(x) = {display(f)}$$", str(sp.diff(f, X)), {"function": str(f)})


def _check_derivative(record: Record, answer: str) -> bool:
    return same_function(to_sympy(answer), parse_truth(record["ground_truth"]))


INTEGRAL = Subtask(
    "integral",
    "Find an indefinite integral (an antiderivative) of the following function of x. "
    "Any antiderivative is accepted; the constant of integration may be omitted.",
    _draw_integral,
    _check_integral,
)
DERIVATIVE = Subtask(
    "derivative",
    "Differentiate the following function with respect to x.",
    _draw_derivative,
    _check_derivative,
)
SUBTASKS = (INTEGRAL, DERIVATIVE)
