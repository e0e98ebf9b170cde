"""Sudoku: fill an N x N grid so every row, column and box holds the digits 1..N once.

Each instance is a random complete grid (drawn by randomised backtracking from the instance rng)
with cells removed one at a time, in random order, for as long as the puzzle keeps exactly one
solution (checked by a bitmask backtracking solver that stops at two solutions).

Why the tiers get harder: tier 3 is a 4x4 grid (2x2 boxes) that yields to a few eliminations;
tier 4 is a 6x6 grid with 2x3 boxes (more candidates per cell and non-square boxes to track);
tier 5 is a classic 9x9 with 45-52 empty cells, where a model must keep dozens of interacting
constraints straight over a long chain of deductions without a single slip.

Suite v2 (``difficulty(d)``) walks sizes and then givens: d 0-1 are 4x4 (6, then 10 empty), d 2-3
6x6 (16, 22 empty), d 4-6 9x9 (44, 50, 54 empty; at d 6 the puzzle must also defeat naked and
hidden singles, so some step needs a guess or a deeper technique), d 7-11 16x16 (symbols 1-9 and
A-G) with 96, 106, 114, 120 and 126 empty cells: four times the cells and nearly twice the
symbols per unit, so far longer chains to keep straight. 126 empty is the floor: sparser 16x16
grids (or redrawing them until they defeat singles) make uniqueness proofs take seconds in pure
Python, and generation must stay well under a second, so every d >= 11 gets the d = 11 config.
v2 draws the full grid by shuffling a pattern grid (bands, stacks, rows, columns, symbols) and
proves uniqueness with a propagating (naked + hidden singles) bitmask search; v1 configs keep the
original generator byte for byte.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register


@dataclass(frozen=True)
class SudokuConfig:
    """Grid shape and how many cells are left empty (drawn uniformly from the inclusive range).

    ``v2`` selects the suite-v2 generator (pattern grid, propagating uniqueness check, symbols
    A-G past 9) and a placeholder answer example; ``needs_search`` (v2 only) redraws until naked
    and hidden singles alone cannot finish the grid. The defaults are v1's behaviour.
    """

    box_rows: int
    box_cols: int
    min_empty: int
    max_empty: int
    needs_search: bool = False
    v2: bool = False

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

# Cell symbols of v2 grids: 1-9, then letters (a 16x16 grid uses 1-9 and A-G).
SYMBOLS = "123456789ABCDEFG"

# The v2 ladder of (box rows, box cols, empty cells, needs more than singles), d = 0..11; past
# the end every d gets the last (hardest) rung.
_V2_RUNGS: list[tuple[int, int, int, bool]] = [
    (2, 2, 6, False),
    (2, 2, 10, False),
    (2, 3, 16, False),
    (2, 3, 22, False),
    (3, 3, 44, False),
    (3, 3, 50, False),
    (3, 3, 54, True),
    (4, 4, 96, False),
    (4, 4, 106, False),
    (4, 4, 114, False),
    (4, 4, 120, False),
    (4, 4, 126, False),
]

V2_PROMPT_TEMPLATE = """\
Solve this {size}x{size} Sudoku puzzle.

Fill every empty cell (shown as '.') with a symbol from {alphabet} so that every row, every \
column and every box contains each of these {size} symbols exactly once. The grid is divided \
into {size} boxes of {box_rows} rows by {box_cols} columns; in the grid below, '|' marks the \
border between boxes side by side and a line of dashes the border between boxes above and \
below. The puzzle has exactly one solution.

{grid}

Write the completed grid as {size} rows of {size} symbols, from the top row to the bottom row, \
each row read left to right with no spaces, and the rows separated by '/'.
Put your final answer inside <answer></answer> tags, in this form (each ROW stands for one \
completed row): <answer>{placeholder}</answer>"""


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


@cache
def _geometry(box_rows: int, box_cols: int) -> tuple[list[list[int]], list[list[int]]]:
    """The units (rows, columns, boxes) as cell lists, and every cell's peers."""
    n = box_rows * box_cols
    units = [[r * n + c for c in range(n)] for r in range(n)]
    units += [[r * n + c for r in range(n)] for c in range(n)]
    units += [
        [(r0 + i) * n + c0 + j for i in range(box_rows) for j in range(box_cols)]
        for r0 in range(0, n, box_rows)
        for c0 in range(0, n, box_cols)
    ]
    peers = [sorted({j for unit in units if i in unit for j in unit} - {i}) for i in range(n * n)]
    return units, peers


def _propagate(cand: list[int], cfg: SudokuConfig) -> bool:
    """Apply naked and hidden singles to the candidate masks in place; False on a contradiction."""
    n = cfg.size
    units, peers = _geometry(cfg.box_rows, cfg.box_cols)
    full = (1 << n) - 1
    changed = True
    while changed:
        changed = False
        for i in range(n * n):
            m = cand[i]
            if m & (m - 1) == 0:  # placed (or empty: caught below via its peers or units)
                for j in peers[i]:
                    if cand[j] & m:
                        cand[j] &= ~m
                        if cand[j] == 0:
                            return False
                        changed = True
        if changed:
            continue
        for unit in units:
            once = twice = 0
            for i in unit:
                twice |= once & cand[i]
                once |= cand[i]
            if once != full:
                return False
            single = once & ~twice  # symbols with one place left in the unit
            for i in unit:
                m = cand[i] & single
                if m and cand[i] != m:
                    if m & (m - 1):
                        return False
                    cand[i] = m
                    changed = True
    return True


def _candidates(cells: list[int], n: int) -> list[int]:
    full = (1 << n) - 1
    return [full if v == 0 else 1 << (v - 1) for v in cells]


def _count_v2(cells: list[int], cfg: SudokuConfig, limit: int = 2) -> int:
    """Solutions of ``cells`` (0 = empty) up to ``limit``: singles, then branch on a
    tightest cell."""
    found = 0

    def search(cand: list[int]) -> None:
        nonlocal found
        if not _propagate(cand, cfg):
            return
        best, fewest = -1, cfg.size + 1
        for i, m in enumerate(cand):
            k = m.bit_count()
            if 1 < k < fewest:
                best, fewest = i, k
                if k == 2:
                    break
        if best < 0:
            found += 1
            return
        m = cand[best]
        while m and found < limit:
            bit = m & -m
            m ^= bit
            branch = cand[:]
            branch[best] = bit
            search(branch)

    search(_candidates(cells, cfg.size))
    return found


def _singles_solve(cells: list[int], cfg: SudokuConfig) -> bool:
    """Whether naked and hidden singles alone complete the grid."""
    cand = _candidates(cells, cfg.size)
    return _propagate(cand, cfg) and all(m & (m - 1) == 0 for m in cand)


def _pattern_grid(rng: random.Random, cfg: SudokuConfig) -> list[int]:
    """A random full grid: a pattern grid with bands, rows in bands, stacks, columns in stacks
    and symbols shuffled (each shuffle keeps every row, column and box complete)."""
    br, bc, n = cfg.box_rows, cfg.box_cols, cfg.size
    rows = [
        b * br + r for b in rng.sample(range(n // br), n // br) for r in rng.sample(range(br), br)
    ]
    cols = [
        s * bc + c for s in rng.sample(range(n // bc), n // bc) for c in rng.sample(range(bc), bc)
    ]
    symbols = rng.sample(range(1, n + 1), n)
    return [symbols[(bc * (r % br) + r // br + c) % n] for r in rows for c in cols]


def _draw_v2(rng: random.Random, cfg: SudokuConfig) -> tuple[list[int], list[int]] | None:
    """One v2 attempt: empty cells in random order while the solution stays unique. A cell whose
    peers' givens already show the other n-1 symbols is forced, so it goes without a search."""
    n = cfg.size
    _, peers = _geometry(cfg.box_rows, cfg.box_cols)
    solution = _pattern_grid(rng, cfg)
    target = rng.randint(cfg.min_empty, cfg.max_empty)
    puzzle = list(solution)
    order = list(range(n * n))
    rng.shuffle(order)
    empty = 0
    for i in order:
        if empty == target:
            break
        puzzle[i] = 0
        seen = 0
        for j in peers[i]:
            if puzzle[j]:
                seen |= 1 << (puzzle[j] - 1)
        if seen.bit_count() == n - 1 or _count_v2(puzzle, cfg) == 1:
            empty += 1
        else:
            puzzle[i] = solution[i]
    if empty < target or (cfg.needs_search and _singles_solve(puzzle, cfg)):
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
                    SYMBOLS[v - 1] if v else "."
                    for v in cells[r * n + c0 : r * n + c0 + cfg.box_cols]
                )
            )
        lines.append(" | ".join(parts))
    return "\n".join(lines)


def _canonical(cells: list[int], n: int) -> str:
    return "/".join("".join(SYMBOLS[v - 1] for v in cells[r * n : (r + 1) * n]) for r in range(n))


def _alphabet(n: int) -> str:
    """The symbols of an n x n grid in words: "1 to 9", or "1-9 and A to G"."""
    return f"1 to {n}" if n <= 9 else f"the digits 1 to 9 and the letters A to {SYMBOLS[n - 1]}"


# The placeholder of the v2 answer example: letters no grid uses, so it never reads as a grid.
PLACEHOLDER_ROW = "ROW"


def _example(n: int) -> str:
    """A format-only example: each row the digits 1..n shifted (never equal to a real answer)."""
    return "/".join("".join(str((r + c) % n + 1) for c in range(n)) for r in range(n))


# Digits plus the separators a reasonable answer may use; anything else is not a grid.
_GRID_TEXT = re.compile(r"[0-9A-Ga-g\s/,;|+.\-\[\]()'\"`]*")
_SYMBOL_CHARS = frozenset("0123456789ABCDEFGabcdefg")
_SIZES = {16: 4, 36: 6, 81: 9, 256: 16}
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
    if any(sum(ch in _SYMBOL_CHARS for ch in row) != n for row in rows):
        return None
    return text[: cuts[0]] + "\n".join(rows)


@register
class Sudoku(Family):
    name = "sudoku"
    tiers = TIERS

    def generate(self, rng: random.Random, cfg: SudokuConfig) -> Puzzle:
        n = cfg.size
        for _ in range(_MAX_ATTEMPTS):
            drawn = _draw_v2(rng, cfg) if cfg.v2 else _draw(rng, cfg)
            if drawn is None:
                continue
            puzzle, solution = drawn
            if cfg.v2:
                prompt = V2_PROMPT_TEMPLATE.format(
                    size=n,
                    alphabet=_alphabet(n),
                    box_rows=cfg.box_rows,
                    box_cols=cfg.box_cols,
                    grid=_render(puzzle, cfg),
                    placeholder="/".join([PLACEHOLDER_ROW] * n),
                )
            else:
                prompt = PROMPT_TEMPLATE.format(
                    size=n,
                    box_rows=cfg.box_rows,
                    box_cols=cfg.box_cols,
                    grid=_render(puzzle, cfg),
                    example=_example(n),
                )
            return Puzzle(prompt=prompt, answer=_canonical(solution, n))
        raise RuntimeError(f"sudoku {cfg}: no unique puzzle in {_MAX_ATTEMPTS} attempts")

    def difficulty(self, d: int) -> SudokuConfig:
        """Rung ``d`` of the v2 ladder (see the module docstring); past d = 11 the hardest rung."""
        if d < 0:
            raise ValueError(f"sudoku: difficulty must be >= 0, got {d}")
        box_rows, box_cols, empty, needs_search = _V2_RUNGS[min(d, len(_V2_RUNGS) - 1)]
        return SudokuConfig(
            box_rows=box_rows,
            box_cols=box_cols,
            min_empty=empty,
            max_empty=empty,
            needs_search=needs_search,
            v2=True,
        )

    def normalise(self, text: str) -> str | None:
        """Symbols in reading order, any separators; their count fixes the size (16/36/81/256).
        Letters A-G (either case) are symbols of 16x16 grids only.

        Rows may carry labels ("Row 1: 4213"), numbered 1..n in order, one label per row.
        """
        if not isinstance(text, str):
            return None
        unlabelled = _unlabel(text)
        if unlabelled is None or not _GRID_TEXT.fullmatch(unlabelled):
            return None
        digits = [ch.upper() for ch in unlabelled if ch.isalnum()]
        n = _SIZES.get(len(digits))
        if n is None or (n <= 9 and not "".join(digits).isdigit()):
            return None
        return "/".join("".join(digits[r * n : (r + 1) * n]) for r in range(n))
