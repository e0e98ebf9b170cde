"""Sudoku: every answer is re-derived from the prompt alone by an independent solver."""

from __future__ import annotations

import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_puzzle
from hypothesis import given, settings
from hypothesis import strategies as st

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.sudoku import TIERS, Sudoku

FAMILY = Sudoku()


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def parse(prompt: str) -> tuple[int, int, int, list[list[int]]]:
    """(size, box rows, box cols, grid with 0 for empty) read from the prompt text."""
    size = int(re.search(r"Solve this (\d+)x\1 Sudoku", prompt).group(1))
    m = re.search(r"boxes of (\d+) rows by (\d+) columns", prompt)
    box_rows, box_cols = int(m.group(1)), int(m.group(2))
    grid = []
    for line in prompt.splitlines():
        if re.fullmatch(r"[0-9.]( (\| )?[0-9.])*", line):
            grid.append([0 if ch == "." else int(ch) for ch in re.findall(r"[0-9.]", line)])
    return size, box_rows, box_cols, grid


def solutions(grid: list[list[int]], br: int, bc: int, limit: int) -> list[list[list[int]]]:
    """All completions of ``grid`` (up to ``limit``), by set-based backtracking."""
    n = len(grid)
    grid = [row[:] for row in grid]
    found: list[list[list[int]]] = []

    def options(r: int, c: int) -> set[int]:
        used = set(grid[r]) | {grid[i][c] for i in range(n)}
        r0, c0 = r - r % br, c - c % bc
        used |= {grid[i][j] for i in range(r0, r0 + br) for j in range(c0, c0 + bc)}
        return set(range(1, n + 1)) - used

    def walk() -> None:
        if len(found) >= limit:
            return
        empty = [(r, c) for r in range(n) for c in range(n) if grid[r][c] == 0]
        if not empty:
            found.append([row[:] for row in grid])
            return
        r, c = min(empty, key=lambda rc: len(options(*rc)))
        for v in sorted(options(r, c)):
            grid[r][c] = v
            walk()
            grid[r][c] = 0

    walk()
    return found


def is_valid_solution(grid: list[list[int]], br: int, bc: int) -> bool:
    n = len(grid)
    want = set(range(1, n + 1))
    rows_ok = all(set(row) == want for row in grid)
    cols_ok = all({grid[r][c] for r in range(n)} == want for c in range(n))
    boxes_ok = all(
        {grid[r0 + i][c0 + j] for i in range(br) for j in range(bc)} == want
        for r0 in range(0, n, br)
        for c0 in range(0, n, bc)
    )
    return rows_ok and cols_ok and boxes_ok


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_answer_rederived_from_prompt(tier: int) -> None:
    cfg = TIERS[tier]
    for seed in SEEDS:
        puzzle = make(tier, seed)
        size, br, bc, grid = parse(puzzle.prompt)
        assert (size, br, bc) == (cfg.box_rows * cfg.box_cols, cfg.box_rows, cfg.box_cols)
        assert len(grid) == size and all(len(row) == size for row in grid)
        empty = sum(v == 0 for row in grid for v in row)
        assert cfg.min_empty <= empty <= cfg.max_empty, (seed, empty)
        found = solutions(grid, br, bc, limit=2)
        assert len(found) == 1, f"tier {tier} seed {seed}: {len(found)} solutions"
        assert is_valid_solution(found[0], br, bc)
        assert "/".join("".join(map(str, row)) for row in found[0]) == puzzle.answer


def test_tier5_is_a_real_9x9() -> None:
    empties = [sum(v == 0 for row in parse(make(5, s).prompt)[3] for v in row) for s in SEEDS]
    assert min(empties) >= 45 and max(empties) <= 52
    assert len(set(empties)) > 1  # the target varies across seeds


def test_normalise_variants() -> None:
    for tier in sorted(TIERS):
        puzzle = make(tier, 7)
        rows = puzzle.answer.split("/")
        variants = [
            puzzle.answer,
            f"  {puzzle.answer}\n",
            "\n".join(rows),
            "\n".join(" ".join(row) for row in rows),
            ", ".join(rows),
            "".join(rows),
            "[" + "], [".join(",".join(row) for row in rows) + "]",
            " | ".join(rows) + ".",
        ]
        checks.assert_accepts(FAMILY, puzzle, variants)
        # One wrong digit fails, so does a missing or an extra digit.
        first = puzzle.answer[0]
        wrong = ("2" if first == "1" else "1") + puzzle.answer[1:]
        checks.assert_rejects(
            FAMILY, puzzle, [wrong, puzzle.answer[:-1], puzzle.answer + "1", None]
        )
        assert FAMILY.normalise("Row 1: " + puzzle.answer) is None


def test_normalise_rejects_non_grids() -> None:
    checks.assert_unreadable(
        FAMILY, ("", "no idea", "1234/3412/2143/432", "12345", "1.34/3412/2143/4321", "x" * 81)
    )


def test_normalise_strips_row_labels() -> None:
    """Regression (probe case sudoku/t3/s65): "Row 1: 4213" lines read as the grid."""
    for tier in sorted(TIERS):
        puzzle = make(tier, 7)
        rows = puzzle.answer.split("/")
        accepted = [
            "\n".join(f"Row {i}: {row}" for i, row in enumerate(rows, start=1)),
            "\n".join(f"row {i} - {' '.join(row)}" for i, row in enumerate(rows, start=1)),
            ", ".join(f"Row {i}: {row}" for i, row in enumerate(rows, start=1)),
        ]
        checks.assert_accepts(FAMILY, puzzle, accepted)
        labelled = [f"Row {i}: {row}" for i, row in enumerate(rows, start=1)]
        unreadable = [
            "\n".join([labelled[1], labelled[0], *labelled[2:]]),  # labels out of order
            "\n".join([*labelled[:-1], rows[-1]]),  # last row unlabelled
            "\n".join([*labelled, "Done"]),  # other words
            "\n".join(f"Column {i}: {row}" for i, row in enumerate(rows, start=1)),
            "\n".join(f"Row {i} {row}" for i, row in enumerate(rows, start=1)),
        ]
        checks.assert_unreadable(FAMILY, unreadable)
    wrong = "Row 1: 4213\nRow 2: 3124\nRow 3: 1342\nRow 4: 2413"
    assert not FAMILY.check(Puzzle("", "4213/3124/1342/2431"), wrong)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="0123456789 /,\n|.-", max_size=120))
def test_normalise_never_raises_on_digit_soup(text: str) -> None:
    checks.assert_normalise_total(FAMILY, text, pattern=r"[0-9]+(/[0-9]+)*")


def test_prompt_ends_with_the_answer_tags() -> None:
    for tier in sorted(TIERS):
        assert make(tier, 1).prompt.rstrip().endswith("</answer>")


# ---------------------------------------------------------------- suite v2: difficulty(d)

SYMBOLS = "123456789ABCDEFG"
V2_SEEDS = {**{d: range(1, 7) for d in range(13)}, 15: range(1, 3), 20: range(1, 2)}
V2_SEEDS.update({d: range(1, 4) for d in range(7, 13)})  # 16x16: fewer seeds


def parse_v2(prompt: str) -> tuple[int, int, int, list[list[int]]]:
    """Like ``parse``, for grids whose symbols run 1-9 then A-G (read as 10-16)."""
    size = int(re.search(r"Solve this (\d+)x\1 Sudoku", prompt).group(1))
    m = re.search(r"boxes of (\d+) rows by (\d+) columns", prompt)
    grid = [
        [0 if ch == "." else SYMBOLS.index(ch) + 1 for ch in re.findall(r"[0-9A-G.]", line)]
        for line in prompt.splitlines()
        if re.fullmatch(r"[0-9A-G.]( (\| )?[0-9A-G.])*", line)
    ]
    return size, int(m.group(1)), int(m.group(2)), grid


def singles_only(grid: list[list[int]], br: int, bc: int) -> bool:
    """Whether naked singles (a cell with one option) and hidden singles (a symbol with one
    place in a row, column or box) alone fill the grid."""
    n = len(grid)
    grid = [row[:] for row in grid]
    units = (
        [[(r, c) for c in range(n)] for r in range(n)]
        + [[(r, c) for r in range(n)] for c in range(n)]
        + [
            [(r0 + i, c0 + j) for i in range(br) for j in range(bc)]
            for r0 in range(0, n, br)
            for c0 in range(0, n, bc)
        ]
    )

    def options(r: int, c: int) -> set[int]:
        r0, c0 = r - r % br, c - c % bc
        used = set(grid[r]) | {grid[i][c] for i in range(n)}
        used |= {grid[i][j] for i in range(r0, r0 + br) for j in range(c0, c0 + bc)}
        return set(range(1, n + 1)) - used

    progress = True
    while progress:
        progress = False
        for r in range(n):
            for c in range(n):
                if grid[r][c] == 0 and len(opts := options(r, c)) == 1:
                    grid[r][c] = opts.pop()
                    progress = True
        for unit in units:
            empty = [(r, c) for r, c in unit if grid[r][c] == 0]
            for v in set(range(1, n + 1)) - {grid[r][c] for r, c in unit}:
                spots = [(r, c) for r, c in empty if v in options(r, c)]
                if len(spots) == 1:
                    grid[spots[0][0]][spots[0][1]] = v
                    progress = True
    return all(all(row) for row in grid)


@pytest.mark.parametrize("d", sorted(V2_SEEDS))
def test_v2_answer_rederived_and_unique(d: int) -> None:
    cfg = FAMILY.difficulty(d)
    for seed in V2_SEEDS[d]:
        puzzle = checks.make_at(FAMILY, d, seed)
        size, br, bc, grid = parse_v2(puzzle.prompt)
        assert (size, br, bc) == (cfg.size, cfg.box_rows, cfg.box_cols)
        assert len(grid) == size and all(len(row) == size for row in grid)
        empty = sum(v == 0 for row in grid for v in row)
        assert cfg.min_empty <= empty <= cfg.max_empty, (d, seed, empty)
        found = solutions(grid, br, bc, limit=2)
        assert len(found) == 1, f"d {d} seed {seed}: {len(found)} solutions"
        assert is_valid_solution(found[0], br, bc)
        assert "/".join("".join(SYMBOLS[v - 1] for v in row) for row in found[0]) == puzzle.answer
        assert FAMILY.check(puzzle, puzzle.answer)
        if cfg.needs_search:
            assert not singles_only(grid, br, bc), (d, seed)
        placeholder = re.search(r"in this form \(.*?\): <answer>(.*?)</answer>", puzzle.prompt)
        assert placeholder and FAMILY.normalise(placeholder.group(1)) is None


def test_singles_classifier() -> None:
    """The classifier separates: v1 4x4 puzzles fall to singles, d = 6 ones never do."""
    easy = parse_v2(checks.make_at(FAMILY, 0, 1).prompt)
    assert singles_only(easy[3], easy[1], easy[2])
    hard = parse_v2(checks.make_at(FAMILY, 6, 1).prompt)
    assert not singles_only(hard[3], hard[1], hard[2])


def test_difficulty_grows() -> None:
    """(cells, empty cells, needs more than singles) never falls, and rises within 3 steps
    until the 16x16 floor at d = 11."""

    def measure(d: int) -> tuple[int, int, bool]:
        cfg = FAMILY.difficulty(d)
        return cfg.size**2, cfg.min_empty, cfg.needs_search

    for d in range(40):
        assert measure(d + 1) >= measure(d), d
        if d + 3 <= 11:
            assert measure(d + 3) > measure(d), d
    assert FAMILY.difficulty(11).size == 16 and FAMILY.difficulty(20) == FAMILY.difficulty(11)


def test_difficulty_rejects_negative() -> None:
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)


def test_normalise_16x16() -> None:
    puzzle = checks.make_at(FAMILY, 8, 1)
    rows = puzzle.answer.split("/")
    checks.assert_accepts(
        FAMILY,
        puzzle,
        [puzzle.answer.lower(), "\n".join(" ".join(row) for row in rows), "".join(rows)],
    )
    swapped = puzzle.answer.replace("A", "#").replace("B", "A").replace("#", "B")
    checks.assert_rejects(FAMILY, puzzle, [swapped, puzzle.answer[:-1], puzzle.answer + "G"])
    # letters are 16x16 symbols only: a 4x4 "grid" with a letter is not read
    assert FAMILY.normalise("123A/3412/2143/4321") is None
    assert FAMILY.normalise("/".join(["ROW"] * 4)) is None
