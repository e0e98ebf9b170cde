"""grid_transform: every answer is re-derived from the prompt text alone.

The solver below re-implements the steps the prompt lists, runs every sequence of 1..depth
steps on the example grids by brute force and collects the test outputs of all programs that
fit. A recolouring commutes with every other step (checked below), so a program is its other
steps followed by at most one recolouring, whose map is read off the examples; if the map
leaves a colour of the test grid open, the program gives several answers.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Callable
from math import perm

import family_checks as checks
import pytest
from family_checks import SEEDS, make_at, make_puzzle
from hypothesis import given, settings
from hypothesis import strategies as st

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.grid_transform import PLACEHOLDER, GridTransform

FAMILY = GridTransform()
TIERS = sorted(GridTransform.tiers)

Grid = tuple[tuple[int, ...], ...]


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


# --- an independent implementation of the steps ------------------------------------------------


def build(h: int, w: int, cell: Callable[[int, int], int]) -> Grid:
    return tuple(tuple(cell(i, j) for j in range(w)) for i in range(h))


def size(g: Grid) -> tuple[int, int]:
    return len(g), len(g[0])


def rotate_cw(g: Grid) -> Grid:
    h, w = size(g)
    return build(w, h, lambda i, j: g[h - 1 - j][i])


def rotate_180(g: Grid) -> Grid:
    h, w = size(g)
    return build(h, w, lambda i, j: g[h - 1 - i][w - 1 - j])


def rotate_ccw(g: Grid) -> Grid:
    h, w = size(g)
    return build(w, h, lambda i, j: g[j][w - 1 - i])


def mirror(g: Grid) -> Grid:
    h, w = size(g)
    return build(h, w, lambda i, j: g[i][w - 1 - j])


def upside_down(g: Grid) -> Grid:
    h, w = size(g)
    return build(h, w, lambda i, j: g[h - 1 - i][j])


def transpose(g: Grid) -> Grid:
    h, w = size(g)
    return build(w, h, lambda i, j: g[j][i])


def roll(di: int, dj: int) -> Callable[[Grid], Grid]:
    def step(g: Grid) -> Grid:
        h, w = size(g)
        return build(h, w, lambda i, j: g[(i - di) % h][(j - dj) % w])

    return step


def fall(di: int, dj: int) -> Callable[[Grid], Grid]:
    """Non-zero cells slide in direction (di, dj) until blocked, keeping their order."""

    def step(g: Grid) -> Grid:
        h, w = size(g)
        cells = [list(row) for row in g]
        moved = True
        while moved:  # bubble cells one square at a time until nothing moves
            moved = False
            for i in range(h):
                for j in range(w):
                    ni, nj = i + di, j + dj
                    if 0 <= ni < h and 0 <= nj < w and cells[i][j] and not cells[ni][nj]:
                        cells[ni][nj], cells[i][j] = cells[i][j], 0
                        moved = True
        return tuple(tuple(row) for row in cells)

    return step


def double(g: Grid) -> Grid:
    h, w = size(g)
    return build(2 * h, 2 * w, lambda i, j: g[i // 2][j // 2])


def hollow(g: Grid) -> Grid:
    h, w = size(g)

    def cell(i: int, j: int) -> int:
        around = [(i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)]
        inside = all(0 <= a < h and 0 <= b < w for a, b in around)
        if g[i][j] and inside and all(g[a][b] for a, b in around):
            return 0
        return g[i][j]

    return build(h, w, cell)


# The prompt's step lines (text before any "(") and what each one does; "recolour" is special.
STEP_LINES: dict[str, Callable[[Grid], Grid]] = {
    "rotate 90 degrees clockwise": rotate_cw,
    "rotate 180 degrees": rotate_180,
    "rotate 90 degrees counter-clockwise": rotate_ccw,
    "flip left-right": mirror,
    "flip top-bottom": upside_down,
    "transpose": transpose,
    "shift right by one column, wrapping around": roll(0, 1),
    "shift left by one column, wrapping around": roll(0, -1),
    "shift down by one row, wrapping around": roll(1, 0),
    "shift up by one row, wrapping around": roll(-1, 0),
    "gravity down": fall(1, 0),
    "gravity up": fall(-1, 0),
    "gravity left": fall(0, -1),
    "gravity right": fall(0, 1),
    "scale 2x": double,
    "hollow": hollow,
}
STEPS = list(STEP_LINES.values())


def recolour_map(pairs: list[tuple[Grid, Grid]]) -> dict[int, int] | None:
    mapping: dict[int, int] = {}
    for a, b in pairs:
        if size(a) != size(b):
            return None
        for i in range(len(a)):
            for j in range(len(a[0])):
                u, v = a[i][j], b[i][j]
                if (u == 0) != (v == 0) or (u and mapping.get(u, v) != v):
                    return None
                if u:
                    mapping[u] = v
    if len(set(mapping.values())) < len(mapping):
        return None
    return mapping


def render(g: Grid) -> str:
    return "/".join("".join(map(str, row)) for row in g)


# --- reading the prompt ----------------------------------------------------------------------

GRID = r"((?:[0-9](?: [0-9])*\n)*[0-9](?: [0-9])*)"


def parse_grid(text: str) -> Grid:
    return tuple(tuple(int(c) for c in line.split()) for line in text.strip().splitlines())


class Node:
    """A sequence of steps, evaluated lazily per grid (most sequences fail on the first)."""

    def __init__(self, grids: list[Grid], parent: Node | None = None, step=None) -> None:
        self.parent, self.step, self.cache = parent, step, dict(enumerate(grids))

    def get(self, i: int) -> Grid:
        if i not in self.cache:
            assert self.parent is not None
            self.cache[i] = self.step(self.parent.get(i))
        return self.cache[i]


def solve(prompt: str, stop_at: int = 0) -> tuple[set[object], int, int]:
    """All test outputs over programs that fit the examples, the fewest steps that fit, depth.

    Depth-first over step sequences, pruned by the first example: a sequence whose grid for
    it cannot become its output (exactly, or up to a final recolouring) in the steps left is
    cut; that test is memoised per grid. With ``stop_at`` the search ends once that many
    different answers are known.
    """
    steps_line = re.search(r"The rule is (.+), each one of:", prompt)
    assert steps_line
    if steps_line.group(1) == "exactly one step":
        depth = 1
    else:
        m = re.fullmatch(r"a sequence of 1 to (\d+) steps applied one after another", steps_line[1])
        assert m
        depth = int(m.group(1))
    listed = re.findall(r"^- (.+?)(?: \(.*)?$", prompt, re.M)
    assert listed == [*STEP_LINES, "recolour"], listed
    pairs = re.findall(rf"Example \d+\nInput:\n{GRID}\nOutput:\n{GRID}", prompt)
    test = re.search(rf"Test input:\n{GRID}", prompt)
    assert test
    inputs = [parse_grid(x) for x, _ in pairs]
    outputs = [parse_grid(y) for _, y in pairs]
    n = len(outputs)

    answers: set[object] = set()
    fewest = [depth + 1]
    reach_memo: dict[tuple[Grid, int], bool] = {}
    applied: dict[tuple[int, Grid], Grid] = {}

    def remembered(index: int) -> Callable[[Grid], Grid]:
        def step(g: Grid) -> Grid:
            if (index, g) not in applied:
                applied[index, g] = STEPS[index](g)
            return applied[index, g]

        return step

    steps = [remembered(index) for index in range(len(STEPS))]  # the same grids recur

    class Enough(Exception):
        pass

    def found(answer: object, steps: int) -> None:
        answers.add(answer)
        fewest[0] = min(fewest[0], steps)
        if len(answers) >= stop_at > 0:
            raise Enough

    def reaches(g: Grid, steps_left: int) -> bool:
        """outputs[0] is g, or g recoloured, or steps away from it, within steps_left."""
        key = (g, steps_left)
        if key not in reach_memo:
            reach_memo[key] = g == outputs[0] or (
                steps_left > 0
                and (
                    recolour_map([(g, outputs[0])]) is not None
                    or any(reaches(step(g), steps_left - 1) for step in steps)
                )
            )
        return reach_memo[key]

    def visit(node: Node, used: int) -> None:
        if used >= 1 and all(node.get(i) == outputs[i] for i in range(n)):
            found(render(node.get(n)), used)
        if used + 1 <= depth:  # room for one recolouring
            pairs_so_far: list[tuple[Grid, Grid]] = []
            mapping: dict[int, int] | None = {}
            for i in range(n):
                pairs_so_far.append((node.get(i), outputs[i]))
                mapping = recolour_map(pairs_so_far)
                if mapping is None:
                    break
            if mapping is not None:
                out = node.get(n)
                needed = {v for row in out for v in row if v} - mapping.keys()
                free = set(range(1, 10)) - set(mapping.values())
                if perm(len(free), len(needed)) == 1:
                    mapping.update(zip(sorted(needed), sorted(free)))
                    found(
                        render(tuple(tuple(mapping.get(v, 0) for v in row) for row in out)),
                        used + 1,
                    )
                else:  # several recolourings fit: several answers
                    found(("open", id(node), 1), used + 1)
                    found(("open", id(node), 2), used + 1)
        if used < depth:
            for step in steps:
                child = Node([], node, step)
                if n == 0 or reaches(child.get(0), depth - used - 1):
                    visit(child, used + 1)

    with contextlib.suppress(Enough):
        visit(Node([*inputs, parse_grid(test.group(1))]), 0)
    return answers, fewest[0], depth


# --- tests ------------------------------------------------------------------------------------


def test_recolouring_commutes_with_every_step() -> None:
    """The solver's reduction: recolouring first or last gives the same grid."""
    rng = random.Random(7)
    for _ in range(60):
        h, w = rng.randint(3, 6), rng.randint(3, 6)
        g = tuple(tuple(rng.choice([0, 0, 1, 2, 3, 5]) for _ in range(w)) for _ in range(h))
        image = rng.sample(range(1, 10), 9)
        sigma = {0: 0, **{c: image[c - 1] for c in range(1, 10)}}

        def recolour(x: Grid, sigma: dict[int, int] = sigma) -> Grid:
            return tuple(tuple(sigma[v] for v in row) for row in x)

        for step in STEPS:
            assert step(recolour(g)) == recolour(step(g))


@pytest.mark.parametrize("tier", TIERS)
def test_answer_rederived_from_prompt(tier: int) -> None:
    for seed in SEEDS:
        puzzle = make(tier, seed)
        answers, fewest, depth = solve(puzzle.prompt)
        assert answers == {puzzle.answer}, f"tier {tier} seed {seed}: {answers}"
        assert depth == GridTransform.tiers[tier].depth
        # Tier 6 rules are real compositions: no single step explains the examples.
        assert fewest >= GridTransform.tiers[tier].min_steps, f"tier {tier} seed {seed}"
        test_grid = re.search(rf"Test input:\n{GRID}", puzzle.prompt)
        assert test_grid and render(parse_grid(test_grid.group(1))) != puzzle.answer


def test_tiers_have_the_documented_shape() -> None:
    assert TIERS == [5, 6]
    assert GridTransform.tiers[5].depth == 1 and GridTransform.tiers[6].depth >= 2
    for tier in TIERS:
        for seed in range(1, 17):
            prompt = make(tier, seed).prompt
            assert len(re.findall(r"^Example \d+$", prompt, re.M)) == (3 if tier == 5 else 4)
            inputs = re.findall(rf"Input:\n{GRID}", prompt) + re.findall(
                rf"Test input:\n{GRID}", prompt
            )
            for text in inputs:
                h, w = size(parse_grid(text))
                assert 3 <= h <= 6 and 3 <= w <= 6


def _variants(answer: str) -> list[str]:
    rows = answer.split("/")
    return [
        answer,
        f"  {answer}\n",
        "\n".join(rows),
        "\n".join(" ".join(row) for row in rows),
        " / ".join(" ".join(row) for row in rows),
        "[" + ",".join("[" + ",".join(row) + "]" for row in rows) + "]",
        "[[" + "], [".join(", ".join(row) for row in rows) + "]]",
        "\n".join("[" + ", ".join(row) + "]" for row in rows),
        " ".join(rows),
        ",".join(rows),
        ";".join(rows),
        "```\n" + "\n".join(rows) + "\n```",
    ]


def _near_miss(answer: str) -> str:
    i = len(answer) // 2
    while not answer[i].isdigit():
        i += 1
    return answer[:i] + str((int(answer[i]) + 1) % 10) + answer[i + 1 :]


@pytest.mark.parametrize("tier", TIERS)
def test_normalise_variants_and_near_misses(tier: int) -> None:
    for seed in range(1, 17):
        puzzle = make(tier, seed)
        assert FAMILY.normalise(puzzle.answer) == puzzle.answer
        checks.assert_accepts(FAMILY, puzzle, _variants(puzzle.answer))
        a_row_missing = "/".join(puzzle.answer.split("/")[:-1])
        checks.assert_rejects(FAMILY, puzzle, [_near_miss(puzzle.answer), a_row_missing, None])


def test_normalise_examples() -> None:
    n = FAMILY.normalise
    assert n("12/34") == "12/34" and n("[[1,2],[3,4]]") == "12/34" and n("1 2\n3 4") == "12/34"
    checks.assert_unreadable(
        FAMILY, ("", "12/345", "[[1,2],[3]]", "ab/cd", "[[1,2]] and more", "1x/23", "[]", "/")
    )


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789[]/, \n;", max_size=40))
def test_normalise_is_idempotent_on_grid_like_text(text: str) -> None:
    checks.assert_normalise_total(FAMILY, text, idempotent=True)


def test_prompt_ends_with_the_answer_tags() -> None:
    for tier in TIERS:
        assert make(tier, 1).prompt.rstrip().endswith("</answer>.")


# --- suite v2: the open-ended difficulty d ----------------------------------------------------

# A few seeds per d, fewer where an instance (a 4-step search) costs a good fraction of a second.
V2_CASES = [(d, seed) for d in range(13) for seed in range(1, (7 if d < 5 else 3))]
V2_CASES += [(15, 1), (20, 1)]


def _without_last_example(prompt: str) -> str:
    starts = [m.start() for m in re.finditer(r"^Example \d+$", prompt, re.M)]
    assert starts
    return prompt[: starts[-1]] + prompt[prompt.index("Test input:") :]


@pytest.mark.parametrize(("d", "seed"), V2_CASES)
def test_v2_answer_unique_with_the_fewest_examples(d: int, seed: int) -> None:
    """Every sequence of 1..depth listed steps that fits the pairs gives the answer; no
    shorter one fits; and without the last pair two sequences that fit disagree."""
    puzzle = make_at(FAMILY, d, seed)
    answers, fewest, depth = solve(puzzle.prompt)
    assert answers == {puzzle.answer}, f"d {d} seed {seed}: {answers}"
    assert fewest == depth == FAMILY.difficulty(d).depth, f"d {d} seed {seed}"
    fewer, _, _ = solve(_without_last_example(puzzle.prompt), stop_at=2)
    assert len(fewer) == 2, f"d {d} seed {seed}: the last pair is not needed"


def _measure(d: int) -> tuple[int, int, int, int]:
    cfg = FAMILY.difficulty(d)
    return cfg.depth, cfg.min_side, cfg.max_side, cfg.max_colours


def test_v2_difficulty_grows() -> None:
    """Every axis is non-decreasing in d; every step grows one of them up to d = 20 (when the
    palette is full), and from then on the grid sides still grow every third step."""
    for d in range(60):
        now, later = _measure(d), _measure(d + 1)
        assert all(a <= b for a, b in zip(now, later)), d
        assert later != now or d >= 20, d
        assert _measure(d + 3)[1:3] > now[1:3] or d < 20, d
    assert [FAMILY.difficulty(d).depth for d in (0, 1, 3, 5, 20)] == [1, 2, 3, 4, 4]


def test_v2_negative_difficulty_raises() -> None:
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)


def test_v2_prompt_shows_a_placeholder_the_normaliser_rejects() -> None:
    assert FAMILY.normalise(PLACEHOLDER) is None
    for d in (0, 3):
        prompt = make_at(FAMILY, d, 1).prompt
        assert f"<answer>{PLACEHOLDER}</answer>" in prompt
        assert "0120/3400/0056" not in prompt
    assert f"<answer>{PLACEHOLDER}</answer>" not in make(6, 1).prompt  # v1 keeps its example
