"""Exact-number subtasks: the gcd of signed integers and sample statistics whose answers are
fractions and radicals (geometric mean, standard deviation, variance)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import sympy as sp

from ladderbench.live.tasks.amps_hard.equivalence import same_number
from ladderbench.live.tasks.amps_hard.parse import answer_limit, parse_truth, to_sympy
from ladderbench.live.tasks.amps_hard.subtask import (
    AmpsHardConfig,
    Drawn,
    Record,
    Subtask,
    nonzero,
    number_list,
)


def _sample_variance(values: list[int]) -> Fraction:
    n = len(values)
    mean = Fraction(sum(values), n)
    return sum(((Fraction(v) - mean) ** 2 for v in values), Fraction(0)) / (n - 1)


def _smooth_numbers(limit: int) -> tuple[int, ...]:
    """Numbers up to limit with no prime factor above 7."""
    out = []
    for v in range(1, limit + 1):
        m = v
        for p in (2, 3, 5, 7):
            while m % p == 0:
                m //= p
        if m == 1:
            out.append(v)
    return tuple(out)


_SMOOTH_NUMBERS = {3000: _smooth_numbers(3000)}
_GCD_EXTRA_PRIMES = (37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97)


def _smooth_up_to(limit: int) -> tuple[int, ...]:
    if limit not in _SMOOTH_NUMBERS:
        _SMOOTH_NUMBERS[limit] = _smooth_numbers(limit)
    return _SMOOTH_NUMBERS[limit]


def _simplified_root(value: int, n: int) -> tuple[int, int, int]:
    """The n-th root of a 7-smooth value as (outside, radicand, index).

    The root equals outside * radicand ** (1 / index), with the radicand free of index-th powers.
    """
    exponents = {}
    for p in (2, 3, 5, 7):
        e = 0
        while value % p == 0:
            value //= p
            e += 1
        exponents[p] = e
    if value != 1:
        raise ValueError("value must have no prime factor above 7")
    outside = math.prod(p ** (e // n) for p, e in exponents.items())
    rest = {p: e % n for p, e in exponents.items()}
    g = math.gcd(n, *rest.values())
    index = n // g
    radicand = math.prod(p ** (e // g) for p, e in rest.items())
    return outside, radicand, index


def _check_number(record: Record, answer: str) -> bool:
    """The answer equals the exact value (rationals exactly, radicals to 50 digits)."""
    return same_number(
        to_sympy(answer, max_length=answer_limit(record["ground_truth"])),
        parse_truth(record["ground_truth"]),
    )


def _draw_gcd(rng: random.Random, cfg: AmpsHardConfig) -> Drawn:
    g = rng.choice([2, 3, 4, 6, 8, 9, 12]) * rng.choice([7, 11, 13, 17, 19, 23, 29, 31])
    for _ in range(cfg.gcd_extra_primes):
        g *= rng.choice(_GCD_EXTRA_PRIMES)
    while True:
        ks = [
            nonzero(rng, -cfg.gcd_multiplier_bound, cfg.gcd_multiplier_bound)
            for _ in range(cfg.gcd_count)
        ]
        if (
            math.gcd(*ks) == 1
            and len({abs(k) for k in ks}) == len(ks)
            and min(map(abs, ks)) > 20
            and min(ks) < 0 < max(ks)
        ):
            break
    numbers = [g * k for k in ks]
    return Drawn(number_list(numbers), str(g), {"numbers": numbers})


def _draw_geometric_mean(rng: random.Random, cfg: AmpsHardConfig) -> Drawn:
    n = rng.randint(*cfg.geo_size)
    while True:
        numbers = [rng.choice(_smooth_up_to(cfg.geo_value_limit)) for _ in range(n)]
        outside, radicand, index = _simplified_root(math.prod(numbers), n)
        if radicand > 1 and len(set(numbers)) > 2:
            break
    root = f"sqrt({radicand})" if index == 2 else f"{radicand}**(1/{index})"
    truth = root if outside == 1 else f"{outside}*{root}"
    return Drawn(number_list(numbers), truth, {"numbers": numbers})


def _draw_sample(rng: random.Random, cfg: AmpsHardConfig) -> tuple[list[int], sp.Rational]:
    """Sample values with a negative one and their exact sample variance, not an integer."""
    n = rng.randint(*cfg.stats_size)
    while True:
        numbers = [rng.randint(-cfg.stats_value_bound, cfg.stats_value_bound) for _ in range(n)]
        var = _sample_variance(numbers)
        if any(v < 0 for v in numbers) and var.denominator > 1:
            break
    return numbers, sp.Rational(var.numerator, var.denominator)


def _draw_standard_deviation(rng: random.Random, cfg: AmpsHardConfig) -> Drawn:
    numbers, variance = _draw_sample(rng, cfg)
    return Drawn(number_list(numbers), str(sp.sqrt(variance)), {"numbers": numbers})


def _draw_variance(rng: random.Random, cfg: AmpsHardConfig) -> Drawn:
    numbers, variance = _draw_sample(rng, cfg)
    return Drawn(number_list(numbers), str(variance), {"numbers": numbers})


GCD = Subtask(
    "gcd",
    "Find the greatest common divisor of the following integers.",
    _draw_gcd,
    _check_number,
)
GEOMETRIC_MEAN = Subtask(
    "geometric_mean",
    "Compute the geometric mean of the following numbers. Simplify the radical exactly.",
    _draw_geometric_mean,
    _check_number,
)
STANDARD_DEVIATION = Subtask(
    "standard_deviation",
    "Compute the sample standard deviation (dividing by n - 1) of the following numbers.",
    _draw_standard_deviation,
    _check_number,
)
VARIANCE = Subtask(
    "variance",
    "Compute the sample variance (dividing by n - 1) of the following numbers.",
    _draw_variance,
    _check_number,
)
SUBTASKS = (GCD, GEOMETRIC_MEAN, STANDARD_DEVIATION, VARIANCE)
