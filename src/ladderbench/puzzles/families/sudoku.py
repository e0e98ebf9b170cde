"""Sudoku: fill an N x N grid so every row, column and box holds the digits 1..N once.

Each instance is a random complete grid (drawn by randomised backtracking from the instance rng)
with cells removed one at a time, in random order, for as long as the puzzle keeps exactly one
solution (checked by a bitmask backtracking solver that stops at two solutions).

Why the tiers get harder: tier 3 is a 4x4 grid (2x2 boxes) that yields to a few eliminations;
tier 4 is a 6x6 grid with 2x3 boxes (more candidates per cell and non-square boxes to track);
tier 5 is a classic 9x9 with 45-52 empty cells, where a model must keep dozens of interacting
constraints straight over a long chain of deductions without a single slip.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register


@dataclass(frozen=True)
class SudokuConfig:
    """Grid shape and how many cells are left empty (drawn uniformly from the inclusive range)."""

    box_rows: int
    box_cols: int
    min_empty: int
    max_empty: int

    @property
    def size(self) -> int:
        return self.box_rows * self.box_cols


TIERS: dict[int, SudokuConfig] = {
    3: SudokuConfig(box_rows=2, box_cols=2, min_empty=9, max_empty=11),
    4: SudokuConfig(box_rows=2, box_cols=3, min_empty=20, max_empty=24),
    5: SudokuConfig(box_rows=3, box_cols=3, min_empty=45, max_empty=52),
}

PROMPT_TEMPLATE = """\
Solve this {size}x{size} Sudoku puzzle.

Fill every empty cell (shown as '.') with a digit from 1 to {size} so that every row, every \
column and every box contains each digit from 1 to {size} exactly once. The grid is divided \
into {size} boxes of {box_rows} rows by {box_cols} columns; in the grid below, '|' marks the \
border between boxes side by side and a line of dashes the border between boxes above and \
below. The puzzle has exactly one solution.

{grid}

Write the completed grid as {size} rows of {size} digits, from the top row to the bottom row, \
each row read left to right with no spaces, and the rows separated by '/'.
Put your final answer inside <answer></answer> tags, for example (format only): \
<answer>{example}</answer>"""

# Up to this many redraws before giving up (never reached in practice; see the tests).
_MAX_ATTEMPTS = 50


def _units(cfg: SudokuConfig) -> tuple[list[int], list[int], list[int]]:
    """Row, column and box index of every cell, in row-major order."""
    n = cfg.size
    rows = [i // n for i in range(n * n)]
    cols = [i % n for i in range(n * n)]
    boxes = [
        (r // cfg.box_rows) * (n // cfg.box_cols) + c // cfg.box_cols
        for r, c in zip(rows, cols, strict=True)
    ]
    return rows, cols, boxes


class _Solver:
    """Bitmask backtracking over one grid shape: bit d-1 of a mask stands for digit d."""

    def __init__(self, cfg: SudokuConfig) -> None:
        self.n = cfg.size
        self.full = (1 << self.n) - 1
        self.row_of, self.col_of, self.box_of = _units(cfg)

    def count(self, grid: list[int], limit: int = 2, rng: random.Random | None = None) -> int:
        """Count solutions of ``grid`` (0 = empty) up to ``limit``.

        With ``rng``, digits are tried in random order and the first solution found is written
        into ``grid`` (used to draw a random full grid). Without it the grid is left unchanged.
        """
        n = self.n
        rows = [0] * n
        cols = [0] * n
        boxes = [0] * n
        empties: list[int] = []
        for i, v in enumerate(grid):
            if v == 0:
                empties.append(i)
                continue
            bit = 1 << (v - 1)
            r, c, b = self.row_of[i], self.col_of[i], self.box_of[i]
            if (rows[r] | cols[c] | boxes[b]) & bit:
                return 0  # the givens already clash
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
        row_of, col_of, box_of, full = self.row_of, self.col_of, self.box_of, self.full
        found = 0

        def search(k: int) -> bool:
            """Fill empties[k:]; return True to stop the whole search."""
            nonlocal found
            if k == len(empties):
                found += 1
                return found >= limit or rng is not None
            # Most-constrained cell first: swap it into position k.
            best_j, best_mask, best_count = k, 0, n + 1
            for j in range(k, len(empties)):
                i = empties[j]
                mask = full & ~(rows[row_of[i]] | cols[col_of[i]] | boxes[box_of[i]])
                cnt = mask.bit_count()
                if cnt < best_count:
                    best_j, best_mask, best_count = j, mask, cnt
                    if cnt <= 1:
                        break
            if best_count == 0:
                return False
            empties[k], empties[best_j] = empties[best_j], empties[k]
            i = empties[k]
            r, c, b = row_of[i], col_of[i], box_of[i]
            digits = [d for d in range(n) if best_mask >> d & 1]
            if rng is not None:
                rng.shuffle(digits)
            for d in digits:
                bit = 1 << d
                rows[r] |= bit
                cols[c] |= bit
                boxes[b] |= bit
                stop = search(k + 1)
                rows[r] &= ~bit
                cols[c] &= ~bit
                boxes[b] &= ~bit
                if stop:
                    if rng is not None:
                        grid[i] = d + 1
                    return True
            return False

        search(0)
        return found


def _draw(rng: random.Random, cfg: SudokuConfig) -> tuple[list[int], list[int]] | None:
    """One attempt: (puzzle, solution), or None when removal stopped short of the target."""
    n = cfg.size
    solver = _Solver(cfg)
    solution = [0] * (n * n)
    solver.count(solution, limit=1, rng=rng)
    target = rng.randint(cfg.min_empty, cfg.max_empty)
    puzzle = list(solution)
    order = list(range(n * n))
    rng.shuffle(order)
    empty = 0
    for i in order:
        if empty == target:
            break
        puzzle[i] = 0
        if solver.count(puzzle, limit=2) == 1:
            empty += 1
        else:
            puzzle[i] = solution[i]
    if empty < target:
        return None
    return puzzle, solution


def _render(cells: list[int], cfg: SudokuConfig) -> str:
    """The grid as text: one row per line, '.' for empty, '|' and dashes between boxes."""
    n = cfg.size
    lines: list[str] = []
    for r in range(n):
        if r and r % cfg.box_rows == 0:
            width = 2 * n - 1 + 2 * (n // cfg.box_cols - 1)
            lines.append("-" * width)
        parts = []
        for c0 in range(0, n, cfg.box_cols):
            parts.append(
                " ".join(
                    str(v) if v else "." for v in cells[r * n + c0 : r * n + c0 + cfg.box_cols]
                )
            )
        lines.append(" | ".join(parts))
    return "\n".join(lines)


def _canonical(cells: list[int], n: int) -> str:
    return "/".join("".join(str(v) for v in cells[r * n : (r + 1) * n]) for r in range(n))


def _example(n: int) -> str:
    """A format-only example: each row the digits 1..n shifted (never equal to a real answer)."""
    return "/".join("".join(str((r + c) % n + 1) for c in range(n)) for r in range(n))


# Digits plus the separators a reasonable answer may use; anything else is not a grid.
_GRID_TEXT = re.compile(r"[0-9\s/,;|+.\-\[\]()'\"`]*")
_SIZES = {16: 4, 36: 6, 81: 9}
# A row label: "Row 1:", "row 2 -", "Row 3)" (the number, then a colon, dash, '=', '.' or ')').
_ROW_LABEL = re.compile(r"\brow\s*(\d{1,2})\s*[:=.)\-]", re.IGNORECASE)


def _unlabel(text: str) -> str | None:
    """The text without its row labels, or None when they are not "Row 1".."Row n" in order,
    each over exactly one row of n digits (n the number of labels)."""
    labels = list(_ROW_LABEL.finditer(text))
    if not labels:
        return text
    n = len(labels)
    if [int(m.group(1)) for m in labels] != list(range(1, n + 1)):
        return None
    cuts = [m.start() for m in labels] + [len(text)]
    rows = [text[m.end() : cut] for m, cut in zip(labels, cuts[1:], strict=True)]
    if any(ch.isdigit() for ch in text[: cuts[0]]):
        return None
    if any(sum("0" <= ch <= "9" for ch in row) != n for row in rows):
        return None
    return text[: cuts[0]] + "\n".join(rows)


@register
class Sudoku(Family):
    name = "sudoku"
    tiers = TIERS

    def generate(self, rng: random.Random, cfg: SudokuConfig) -> Puzzle:
        n = cfg.size
        for _ in range(_MAX_ATTEMPTS):
            drawn = _draw(rng, cfg)
            if drawn is None:
                continue
            puzzle, solution = drawn
            prompt = PROMPT_TEMPLATE.format(
                size=n,
                box_rows=cfg.box_rows,
                box_cols=cfg.box_cols,
                grid=_render(puzzle, cfg),
                example=_example(n),
            )
            return Puzzle(prompt=prompt, answer=_canonical(solution, n))
        raise RuntimeError(f"sudoku {cfg}: no unique puzzle in {_MAX_ATTEMPTS} attempts")

    def normalise(self, text: str) -> str | None:
        """Digits in reading order, any separators; the digit count fixes the size (16/36/81).

        Rows may carry labels ("Row 1: 4213"), numbered 1..n in order, one label per row.
        """
        if not isinstance(text, str):
            return None
        unlabelled = _unlabel(text)
        if unlabelled is None or not _GRID_TEXT.fullmatch(unlabelled):
            return None
        digits = [ch for ch in unlabelled if "0" <= ch <= "9"]
        n = _SIZES.get(len(digits))
        if n is None:
            return None
        return "/".join("".join(digits[r * n : (r + 1) * n]) for r in range(n))
