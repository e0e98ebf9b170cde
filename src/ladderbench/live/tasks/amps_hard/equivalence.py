"""Equivalence checks: numeric agreement at sample points, exact constants, and answer shapes."""

from __future__ import annotations

import math

import sympy as sp

from ladderbench.live.tasks.amps_hard.parse import Reject, X

_POINTS = tuple(
    sp.Rational(p, 1000)
    for p in (371, 613, 1289, 1717, 2437, 829, -457, -1123, -1931, 3163, -2711, 197, 4019)
)


def _value(expr: sp.Expr, point: sp.Rational, digits: int = 30) -> complex | None:
    """expr at x = point as a complex number, or None where it is undefined or infinite."""
    v = expr.evalf(digits, subs={X: point})
    if not v.is_number:
        raise Reject("free symbols")
    try:
        z = complex(v)
    except (TypeError, ValueError, OverflowError):  # undefined, or beyond a float
        return None
    if not (math.isfinite(z.real) and math.isfinite(z.imag)):
        return None
    return z


def real_points(expr: sp.Expr, enough: int = len(_POINTS)) -> int:
    """How many sample points (up to ``enough``) give expr a real, finite value."""
    count = 0
    for point in _POINTS:
        v = _value(expr, point, 15)
        if v is not None and abs(v.imag) <= 1e-9 * max(1.0, abs(v)):
            count += 1
            if count >= enough:
                break
    return count


def same_function(candidate: sp.Expr, truth: sp.Expr, needed: int = 4) -> bool:
    """Whether candidate equals truth at every sample point where truth is real and finite."""
    if candidate.free_symbols - {X}:
        return False
    used = 0
    for point in _POINTS:
        t = _value(truth, point)
        if t is None or abs(t.imag) > 1e-12 * max(1.0, abs(t)):
            continue
        c = _value(candidate, point)
        if c is None or abs(c - t) > 1e-9 * max(1.0, abs(t)):
            return False
        used += 1
        if used >= 6:
            break
    return used >= needed


def same_number(candidate: sp.Expr, truth: sp.Expr) -> bool:
    """Exact equality of two constants (rationals exactly, algebraic numbers to 50 digits)."""
    if candidate.free_symbols:
        return False
    if candidate.is_Rational and truth.is_Rational:
        return bool(candidate == truth)
    c, t = candidate.evalf(60), truth.evalf(60)
    if not (c.is_number and t.is_number):
        return False
    diff = abs(sp.N(c - t, 60))
    scale = max(sp.Float(1), abs(t))
    return bool(diff <= scale * sp.Float("1e-40", 60))


def _factors(expr: sp.Expr) -> list[sp.Expr]:
    """expr as a flat list of factors, powers unrolled (bases that are products recursed)."""
    out: list[sp.Expr] = []
    for factor in sp.Mul.make_args(expr):
        if factor.is_Pow and factor.exp.is_Integer and factor.exp > 0:
            out.extend(_factors(factor.base) * int(factor.exp))
        else:
            out.append(factor)
    return out


def is_complete_factorisation(candidate: sp.Expr, polynomial: sp.Expr) -> bool:
    """candidate multiplies out to polynomial, and each non-constant factor is irreducible."""
    if candidate.free_symbols - {X} or sp.expand(candidate - polynomial) != 0:
        return False
    for factor in _factors(candidate):
        if not factor.has(X):
            continue
        if not factor.is_polynomial(X):
            return False
        if not sp.Poly(factor, X, domain="QQ").is_irreducible:
            return False
    return True


def is_completed_square(candidate: sp.Expr, polynomial: sp.Expr) -> bool:
    """candidate equals polynomial and has the shape a*(linear)^2 + k."""
    if candidate.free_symbols - {X} or sp.expand(candidate - polynomial) != 0:
        return False
    with_x = [term for term in sp.Add.make_args(candidate) if term.has(X)]
    if len(with_x) != 1:
        return False
    squares = [f for f in sp.Mul.make_args(with_x[0]) if f.has(X)]
    if len(squares) != 1 or not squares[0].is_Pow or squares[0].exp != 2:
        return False
    base = squares[0].base
    return bool(base.is_polynomial(X) and sp.degree(base, X) == 1)
