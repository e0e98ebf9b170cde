"""Matrix subtasks: the determinant and the characteristic polynomial of mixed-sign matrices."""

from __future__ import annotations

import random

import sympy as sp

from ladderbench.live.tasks.amps_hard.equivalence import same_number
from ladderbench.live.tasks.amps_hard.parse import X, answer_limit, parse_truth, to_sympy
from ladderbench.live.tasks.amps_hard.subtask import (
    AmpsHardConfig,
    Drawn,
    Record,
    Subtask,
    weighted_size,
)

# Other names a characteristic polynomial's variable goes by in an answer.
_CHARPOLY_ALIASES = {"lambda": "x", "λ": "x", "t": "x"}


def _matrix_latex(rows: list[list[int]]) -> str:
    body = " \\\\\n".join(" & ".join(str(v) for v in row) for row in rows)
    return f"$$\\left(\\begin{{array}}{{{'c' * len(rows)}}}\n{body}\n\\end{{array}}\\right)$$"


def _random_matrix(rng: random.Random, size: int, bound: int) -> list[list[int]]:
    """A mixed-sign integer matrix: every row holds both a positive and a negative entry."""
    while True:
        rows = [[rng.randint(-bound, bound) for _ in range(size)] for _ in range(size)]
        if all(any(v > 0 for v in row) and any(v < 0 for v in row) for row in rows):
            return rows


def _charpoly_coefficients(rows: list[list[int]]) -> list[int]:
    """Coefficients c_0..c_n of det(xI - A), by the Faddeev-LeVerrier recurrence (exact)."""
    n = len(rows)
    coefficients = [0] * (n + 1)
    coefficients[n] = 1
    m = [[0] * n for _ in range(n)]  # M_0 = 0
    for k in range(1, n + 1):
        # M_k = A M_{k-1} + c_{n-k+1} I;  c_{n-k} = -tr(A M_k) / k
        am = [[sum(rows[i][t] * m[t][j] for t in range(n)) for j in range(n)] for i in range(n)]
        m = [
            [am[i][j] + (coefficients[n - k + 1] if i == j else 0) for j in range(n)]
            for i in range(n)
        ]
        trace = sum(rows[i][t] * m[t][i] for i in range(n) for t in range(n))
        coefficients[n - k] = -trace // k
    return coefficients


def _draw_determinant(rng: random.Random, cfg: AmpsHardConfig) -> Drawn:
    size = weighted_size(rng, cfg.det_size_weights)
    bound = cfg.det_entry_bound_3 if size == 3 else cfg.det_entry_bound_4
    while True:
        rows = _random_matrix(rng, size, bound)
        det = sp.Matrix(rows).det()
        if det != 0:
            break
    return Drawn(_matrix_latex(rows), str(det), {"matrix": rows})


def _check_determinant(record: Record, answer: str) -> bool:
    return same_number(
        to_sympy(answer, max_length=answer_limit(record["ground_truth"])),
        parse_truth(record["ground_truth"]),
    )


def _draw_charpoly(rng: random.Random, cfg: AmpsHardConfig) -> Drawn:
    size = weighted_size(rng, cfg.charpoly_size_weights)
    bound = cfg.charpoly_entry_bound_3 if size == 3 else cfg.charpoly_entry_bound_4
    rows = _random_matrix(rng, size, bound)
    poly = sum(c * X**k for k, c in enumerate(_charpoly_coefficients(rows)))
    return Drawn(_matrix_latex(rows), str(poly), {"matrix": rows})


def _check_charpoly(record: Record, answer: str) -> bool:
    """Either sign convention: det(xI - A) or det(A - xI)."""
    candidate = to_sympy(answer, _CHARPOLY_ALIASES, answer_limit(record["ground_truth"]))
    truth = parse_truth(record["ground_truth"])
    if candidate.free_symbols - {X} or not candidate.is_polynomial(X):
        return False
    return sp.expand(candidate - truth) == 0 or sp.expand(candidate + truth) == 0


DETERMINANT = Subtask(
    "determinant",
    "Find the determinant of the following matrix.",
    _draw_determinant,
    _check_determinant,
)
CHARACTERISTIC_POLYNOMIAL = Subtask(
    "characteristic_polynomial",
    "Find the characteristic polynomial of the following matrix, in the variable x. "
    "Either convention, det(xI - A) or det(A - xI), is accepted.",
    _draw_charpoly,
    _check_charpoly,
)
SUBTASKS = (DETERMINANT, CHARACTERISTIC_POLYNOMIAL)
