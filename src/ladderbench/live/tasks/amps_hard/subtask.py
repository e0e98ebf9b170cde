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
    """Difficulty parameters (all ranges inclusive)."""

    det_size_weights: tuple[tuple[int, int], ...] = ((3, 1), (4, 2))  # (size, weight)
    det_entry_bound_3: int = 19  # 3x3 determinant entries in [-b, b]
    det_entry_bound_4: int = 9
    charpoly_size_weights: tuple[tuple[int, int], ...] = ((3, 3), (4, 1))
    charpoly_entry_bound_3: int = 9
    charpoly_entry_bound_4: int = 4
    gcd_count: int = 3
    gcd_multiplier_bound: int = 400  # numbers are g * k with |k| <= this
    stats_size: tuple[int, int] = (6, 8)
    stats_value_bound: int = 25  # sample values in [-b, b]
    geo_size: tuple[int, int] = (4, 6)
    poly_degree: tuple[int, int] = (3, 4)
    time_limit_s: float = 2.0  # seconds for one comparison, in a worker process that is killed


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
