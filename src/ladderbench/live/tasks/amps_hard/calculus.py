"""Calculus subtasks: an antiderivative and a derivative of functions that need several rules."""

from __future__ import annotations

import random

import sympy as sp

from ladderbench.live.tasks.amps_hard.equivalence import real_points, same_function
from ladderbench.live.tasks.amps_hard.parse import X, answer_limit, parse_truth, to_sympy
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


def _gen_integral(rng: random.Random, s: int = 1) -> tuple[sp.Expr, sp.Expr]:
    """(integrand, antiderivative) from one of eleven templates, constants' ranges times s."""
    kind = rng.randrange(11)
    a = nonzero(rng, -5 * s, 5 * s)
    if kind == 0:  # (p x + q) e^{a x}: parts
        p, q = nonzero(rng, -6 * s, 6 * s), nonzero(rng, -9 * s, 9 * s)
        f = (p * X + q) * sp.exp(a * X)
        big_f = sp.exp(a * X) * ((p * X + q) / sp.Integer(a) - sp.Rational(p, a * a))
    elif kind == 1:  # x^2 e^{a x}: parts twice
        c = nonzero(rng, -4 * s, 4 * s)
        f = c * X**2 * sp.exp(a * X)
        big_f = c * sp.exp(a * X) * (X**2 / a - 2 * X / sp.Integer(a**2) + sp.Rational(2, a**3))
    elif kind == 2:  # (p x + q) sin/cos(a x): parts
        p, q = nonzero(rng, -6 * s, 6 * s), rng.randint(-9 * s, 9 * s)
        u = p * X + q
        if rng.random() < 0.5:
            f = u * sp.sin(a * X)
            big_f = -u * sp.cos(a * X) / a + sp.Rational(p, a * a) * sp.sin(a * X)
        else:
            f = u * sp.cos(a * X)
            big_f = u * sp.sin(a * X) / a + sp.Rational(p, a * a) * sp.cos(a * X)
    elif kind == 3:  # x^n ln(b x): parts
        n, b = rng.randint(1, 4), rng.randint(2, 7 * s)
        c = nonzero(rng, -5 * s, 5 * s)
        f = c * X**n * sp.log(b * X)
        big_f = c * (X ** (n + 1) * sp.log(b * X) / (n + 1) - X ** (n + 1) / (n + 1) ** 2)
    elif kind == 4:  # c x^{m-1} (b x^m + d)^p: substitution
        m, b, d = rng.randint(2, 3), nonzero(rng, -4 * s, 4 * s), nonzero(rng, -9 * s, 9 * s)
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
        c = nonzero(rng, -6 * s, 6 * s)
        u = b * X**m + d
        f = c * X ** (m - 1) * u**p
        big_f = c * u ** (p + 1) / (b * m * (p + 1))
    elif kind == 5:  # c x^{m-1} e^{b x^m + d}: substitution
        m, b, d = rng.randint(2, 3), nonzero(rng, -4 * s, 4 * s), nonzero(rng, -5 * s, 5 * s)
        c = nonzero(rng, -6 * s, 6 * s)
        f = c * X ** (m - 1) * sp.exp(b * X**m + d)
        big_f = sp.Rational(c, b * m) * sp.exp(b * X**m + d)
    elif kind == 6:  # c sin(u) cos^n(u) or c sec^2(u) tan^n(u), u = a x + b: substitution
        b, n, c = rng.randint(-5 * s, 5 * s), rng.randint(2, 5), nonzero(rng, -6 * s, 6 * s)
        u = a * X + b
        if rng.random() < 0.5:
            f = c * sp.sin(u) * sp.cos(u) ** n
            big_f = -sp.Rational(c, a * (n + 1)) * sp.cos(u) ** (n + 1)
        else:
            f = c * sp.sec(u) ** 2 * sp.tan(u) ** n
            big_f = sp.Rational(c, a * (n + 1)) * sp.tan(u) ** (n + 1)
    elif kind == 7:  # c (2 b x + d) / (b x^2 + d x + e): logarithm
        b, d = nonzero(rng, -5 * s, 5 * s), nonzero(rng, -9 * s, 9 * s)
        e, c = nonzero(rng, -12 * s, 12 * s), nonzero(rng, -7 * s, 7 * s)
        quad = b * X**2 + d * X + e
        f = c * (2 * b * X + d) / quad
        big_f = c * sp.log(sp.Abs(quad))
    elif kind == 8:  # (p x + q) / (x^2 + k^2): log plus arctan
        p, q, k = nonzero(rng, -8 * s, 8 * s), nonzero(rng, -9 * s, 9 * s), rng.randint(2, 6 * s)
        f = (p * X + q) / (X**2 + k**2)
        big_f = sp.Rational(p, 2) * sp.log(X**2 + k**2) + sp.Rational(q, k) * sp.atan(X / k)
    elif kind == 9:  # partial fractions over two distinct integer roots
        r1 = rng.randint(-7 * s, 7 * s)
        r2 = rng.choice([r for r in range(-7 * s, 7 * s + 1) if r != r1])
        big_a, big_b = nonzero(rng, -6 * s, 6 * s), nonzero(rng, -6 * s, 6 * s)
        num = sp.expand(big_a * (X - r2) + big_b * (X - r1))
        f = num / sp.expand((X - r1) * (X - r2))
        big_f = big_a * sp.log(sp.Abs(X - r1)) + big_b * sp.log(sp.Abs(X - r2))
    else:  # e^{a x} sin/cos(b x): parts twice
        b = rng.randint(2, 6 * s)
        if rng.random() < 0.5:
            f = sp.exp(a * X) * sp.sin(b * X)
            big_f = sp.exp(a * X) * (a * sp.sin(b * X) - b * sp.cos(b * X)) / (a * a + b * b)
        else:
            f = sp.exp(a * X) * sp.cos(b * X)
            big_f = sp.exp(a * X) * (a * sp.cos(b * X) + b * sp.sin(b * X)) / (a * a + b * b)
    return f, big_f


def _inner(rng: random.Random, s: int = 1) -> sp.Expr:
    """A small polynomial inside a composition: a x^k + b (ranges times s)."""
    k = rng.choice([1, 1, 2, 2, 3])
    return nonzero(rng, -6 * s, 6 * s) * X**k + rng.randint(-9 * s, 9 * s)


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


def _is_drawable(f: sp.Expr) -> bool:
    """No real-variable simplification (|u|, sign) or root of a power crept in, and there are
    at least two function layers or factors."""
    if f.has(sp.Abs, sp.sign):  # a real-variable simplification of a root of a power
        return False
    if any(isinstance(p.base, sp.Pow) for p in f.atoms(sp.Pow)):  # a root of a power
        return False
    return bool(f.has(X) and len(f.atoms(sp.Function)) + len(f.atoms(sp.Pow)) >= 2)


def _outer_everywhere(rng: random.Random, u: sp.Expr, exp_ok: bool) -> sp.Expr:
    """An outer function defined for every real u, so that deep chains stay real; exp only
    where ``exp_ok`` (u is small: an inner polynomial or a bounded function), so that no value
    at a sample point grows beyond what exact evaluation handles quickly."""
    kind = rng.randrange(7) if exp_ok else rng.randrange(1, 7)
    if kind == 0:
        return sp.exp(u)
    if kind == 1:
        return sp.sin(u)
    if kind == 2:
        return sp.cos(u)
    if kind == 3:
        return sp.atan(u)
    if kind == 4:
        return sp.log(u**2 + rng.randint(1, 9))
    if kind == 5:
        return sp.sqrt(u**2 + rng.randint(1, 9))
    return u ** rng.randint(2, 5)


def _chain(rng: random.Random, depth: int, s: int) -> sp.Expr:
    """``depth`` functions composed around an inner polynomial, each defined on all reals."""
    f = _inner(rng, s)
    exp_ok = True
    for _ in range(depth):
        f = _outer_everywhere(rng, f, exp_ok)
        exp_ok = isinstance(f, (sp.sin, sp.cos, sp.atan))
    return f


def _gen_chains(rng: random.Random, cfg: AmpsHardConfig) -> sp.Expr:
    """A product of ``derivative_parts`` chains of ``derivative_depth`` compositions, the last
    one dividing when there are several: every layer adds a chain-rule factor, every part a
    product-rule term."""
    while True:
        parts = [
            _chain(rng, cfg.derivative_depth, cfg.derivative_scale)
            for _ in range(cfg.derivative_parts)
        ]
        if len(parts) > 1 and rng.random() < 0.5:
            parts[-1] = 1 / parts[-1]
        f = X ** rng.randint(0, 3) * sp.Mul(*parts)
        if _is_drawable(f):
            return f


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
        if _is_drawable(f):
            return f


def _draw_integral(rng: random.Random, cfg: AmpsHardConfig) -> Drawn:
    """A sum of ``integral_terms`` template integrands (one in v1), each needing its method."""
    while True:
        terms = [_gen_integral(rng, cfg.integral_scale) for _ in range(cfg.integral_terms)]
        f = sp.Add(*(term for term, _ in terms))
        big_f = sp.Add(*(antiderivative for _, antiderivative in terms))
        if real_points(f, _MIN_REAL_POINTS) >= _MIN_REAL_POINTS:
            break
    return Drawn(f"$$f(x) = {display(f)}$$", str(big_f), {"integrand": str(f)})


def _check_integral(record: Record, answer: str) -> bool:
    """Any antiderivative: the answer must differentiate to the integrand."""
    candidate = to_sympy(answer, max_length=answer_limit(record["ground_truth"]))
    if candidate.free_symbols - {X, _C}:
        return False
    return same_function(sp.diff(candidate, X), parse_truth(record["integrand"]))


def _draw_derivative(rng: random.Random, cfg: AmpsHardConfig) -> Drawn:
    while True:
        f = _gen_chains(rng, cfg) if cfg.derivative_parts else _gen_derivative(rng)
        if real_points(f, _MIN_REAL_POINTS) >= _MIN_REAL_POINTS:
            break
    return Drawn(f"$$f(x) = {display(f)}$$", str(sp.diff(f, X)), {"function": str(f)})


def _check_derivative(record: Record, answer: str) -> bool:
    return same_function(
        to_sympy(answer, max_length=answer_limit(record["ground_truth"])),
        parse_truth(record["ground_truth"]),
    )


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
