"""What every amps_hard subtask is: one object holding its instruction, generator and checker.

A subtask draws its problem from the question's rng and checks an extracted answer against the
stored record; ``ALL`` in the package gathers them, so adding a subtask is one definition in the
module of its group.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import sympy as sp


@dataclass(frozen=True)
class AmpsHardConfig:
    """Difficulty parameters (all ranges inclusive); the defaults are difficulty 0, the v1 mix."""

    det_size_weights: tuple[tuple[int, int], ...] = ((3, 1), (4, 2))  # (size, weight)
    det_entry_bound_3: int = 19  # 3x3 determinant entries in [-b, b]
    det_entry_bound_4: int = 9  # entries of every larger matrix
    charpoly_size_weights: tuple[tuple[int, int], ...] = ((3, 3), (4, 1))
    charpoly_entry_bound_3: int = 9
    charpoly_entry_bound_4: int = 4
    gcd_count: int = 3
    gcd_multiplier_bound: int = 400  # numbers are g * k with |k| <= this
    gcd_extra_primes: int = 0  # further primes multiplied into the gcd
    stats_size: tuple[int, int] = (6, 8)
    stats_value_bound: int = 25  # sample values in [-b, b]
    geo_size: tuple[int, int] = (4, 6)
    geo_value_limit: int = 3000  # geometric-mean values are 7-smooth numbers up to this
    poly_degree: tuple[int, int] = (3, 4)
    poly_leading_bound: int = 5  # a root p/q has 1 <= q <= this ...
    poly_root_bound: int = 9  # ... and 1 <= |p| <= this
    poly_quadratics: int = 1  # at most this many irreducible quadratic factors
    square_scale: int = 1  # completing the square: coefficient ranges times this
    integral_terms: int = 1  # an integrand is the sum of this many template integrands
    integral_scale: int = 1  # template constants' ranges times this
    derivative_parts: int = 0  # 0: the v1 shapes; else a product of this many chains
    derivative_depth: int = 2  # functions composed in each chain
    derivative_scale: int = 1  # inner polynomials' coefficient ranges times this
    time_limit_s: float = 2.0  # seconds for one comparison, in a worker process that is killed


def difficulty(d: int) -> AmpsHardConfig:
    """The config at difficulty ``d``: see the package docstring for what each step adds."""
    if d < 0:
        raise ValueError(f"difficulty must be >= 0, got {d}")
    if d == 0:
        return AmpsHardConfig()
    det_size = 3 + (d + 2) // 2  # 4, 5, 5, 6, 6, 7, ...
    charpoly_size = 3 + (d + 1) // 2  # 4, 4, 5, 5, 6, ...
    degree = 3 + (d + 1) // 2
    return AmpsHardConfig(
        det_size_weights=((det_size, 1),),
        det_entry_bound_4=9 + 3 * d,
        charpoly_size_weights=((charpoly_size, 1),),
        charpoly_entry_bound_4=4 + d,
        gcd_count=3 + d // 2,
        gcd_multiplier_bound=400 * 10 ** ((d + 1) // 2),
        gcd_extra_primes=(d + 1) // 3,
        stats_size=(6 + 2 * d, 8 + 2 * d),
        stats_value_bound=25 + 15 * d,
        geo_size=(4 + d, 6 + d),
        geo_value_limit=3000 * (1 + d),
        poly_degree=(degree, degree + 1),
        poly_leading_bound=5 + d,
        poly_root_bound=9 + 2 * d,
        poly_quadratics=1 + d // 3,
        square_scale=1 + d,
        integral_terms=1 + (d + 1) // 2,
        integral_scale=1 + d // 2,
        derivative_parts=1 + (d + 1) // 2,
        derivative_depth=2 + d // 4,
        derivative_scale=1 + d // 2,
    )


class Drawn(NamedTuple):
    """A drawn problem: its display (LaTeX), its ground truth (sympy's str form) and the
    fields the checker needs besides it."""

    problem: str
    truth: str
    fields: dict[str, Any]


Record = dict[str, Any]


@dataclass(frozen=True)
class Subtask:
    """One kind of question: the prompt's instruction, how to draw one, how to check an answer.

    ``check(record, answer)`` may raise (a parse failure) and has no time limit of its own: the
    task runs it in a killable worker.
    """

    name: str
    instruction: str
    draw: Callable[[random.Random, AmpsHardConfig], Drawn] = field(repr=False)
    check: Callable[[Record, str], bool] = field(repr=False)


# ---------------------------------------------------------------- helpers the generators share


def nonzero(rng: random.Random, lo: int, hi: int) -> int:
    while True:
        v = rng.randint(lo, hi)
        if v:
            return v


def display(expr: sp.Expr) -> str:
    return sp.latex(expr, ln_notation=True, inv_trig_style="full")


def weighted_size(rng: random.Random, weights: tuple[tuple[int, int], ...]) -> int:
    sizes = [size for size, w in weights for _ in range(w)]
    return rng.choice(sizes)


def number_list(numbers: list[int]) -> str:
    """A set of numbers as the prompt shows it."""
    return "$$\\{" + ", ".join(str(v) for v in numbers) + "\\}$$"
