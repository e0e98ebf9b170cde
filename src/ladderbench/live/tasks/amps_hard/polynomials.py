"""Polynomial subtasks: complete factorisation over the rationals, and completing the square."""

from __future__ import annotations

import math
import random

import sympy as sp

from ladderbench.live.tasks.amps_hard.equivalence import (
    is_complete_factorisation,
    is_completed_square,
)
from ladderbench.live.tasks.amps_hard.parse import X, answer_limit, parse_truth, to_sympy
from ladderbench.live.tasks.amps_hard.subtask import (
    AmpsHardConfig,
    Drawn,
    Record,
    Subtask,
    display,
    nonzero,
)


def _gen_factor(rng: random.Random, cfg: AmpsHardConfig) -> sp.Expr:
    """A polynomial with integer content, rational roots and maybe an irreducible quadratic."""
    degree = rng.randint(*cfg.poly_degree)
    factors: list[sp.Expr] = []
    remaining = degree
    for _ in range(cfg.poly_quadratics):
        if remaining >= 3 and rng.random() < 0.4:
            while True:  # an irreducible quadratic: negative discriminant or non-square one
                b, c = rng.randint(-6, 6), nonzero(rng, -12, 12)
                disc = b * b - 4 * c
                if disc < 0 or math.isqrt(disc) ** 2 != disc:
                    factors.append(X**2 + b * X + c)
                    remaining -= 2
                    break
    linears = []
    leading = [1, *range(1, cfg.poly_leading_bound + 1)]  # v1: 1, 1, 2, 3, 4, 5
    while remaining:
        p = rng.choice(leading)
        q = nonzero(rng, -cfg.poly_root_bound, cfg.poly_root_bound)
        if math.gcd(p, q) == 1:
            linears.append(p * X + q)
            remaining -= 1
    if len(linears) >= 2 and rng.random() < 0.3:
        linears[1] = linears[0]  # a repeated root
    content = rng.choice([1, 1, 2, 3, -1, -2, -3, 5, 6])
    return sp.expand(content * sp.Mul(*factors, *linears))


def _gen_square(rng: random.Random, scale: int) -> tuple[sp.Expr, sp.Expr]:
    """(quadratic, completed square) with a non-unit leading coefficient and fractional h;
    ``scale`` widens the coefficient ranges (1 in v1)."""
    a = rng.choice([-7, -5, -4, -3, -2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12])
    if scale > 1:
        a = a * scale + rng.choice([-1, 1])  # not a multiple of the scale: h stays fractional
    while True:
        b, c = nonzero(rng, -19 * scale, 19 * scale), rng.randint(-20 * scale, 20 * scale)
        if b % (2 * a):  # h is not an integer
            break
    h = sp.Rational(-b, 2 * a)
    k = sp.Rational(c) - a * h * h
    quadratic = a * X**2 + b * X + c
    square = a * (X - h) ** 2 + k
    return quadratic, square


def _draw_factor(rng: random.Random, cfg: AmpsHardConfig) -> Drawn:
    poly = _gen_factor(rng, cfg)
    return Drawn(f"$${display(poly)}$$", str(sp.factor(poly)), {"polynomial": str(poly)})


def _check_factor(record: Record, answer: str) -> bool:
    return is_complete_factorisation(
        to_sympy(answer, max_length=answer_limit(record["ground_truth"])),
        parse_truth(record["polynomial"]),
    )


def _draw_square(rng: random.Random, cfg: AmpsHardConfig) -> Drawn:
    quadratic, square = _gen_square(rng, cfg.square_scale)
    return Drawn(f"$${display(quadratic)}$$", str(square), {"polynomial": str(quadratic)})


def _check_square(record: Record, answer: str) -> bool:
    return is_completed_square(
        to_sympy(answer, max_length=answer_limit(record["ground_truth"])),
        parse_truth(record["polynomial"]),
    )


FACTOR = Subtask(
    "factor",
    "Factor the following polynomial completely over the rationals, into irreducible "
    "factors (a constant factor in front is allowed).",
    _draw_factor,
    _check_factor,
)
COMPLETE_SQUARE = Subtask(
    "complete_square",
    "Complete the square for the following quadratic: write it in the form "
    "a(x - h)^2 + k with exact rational a, h and k.",
    _draw_square,
    _check_square,
)
SUBTASKS = (FACTOR, COMPLETE_SQUARE)
