"""Grid transform: ARC-style, infer a hidden grid rule from example pairs and apply it.

Grids are rectangles (3x3 to 6x6) of digits 0-9, read as colours with 0 the background. The
hidden rule is a sequence of steps from a DSL the prompt lists in full: rotations, flips,
transpose, cyclic shifts, gravity in four directions, 2x scaling, hollowing out solid
regions, and a recolouring (a one-to-one map of the non-zero colours). The prompt shows
input -> output pairs and a test input, and asks for the test output grid.

Why each tier is harder:
- tier 5: one step, 3 example pairs: spot which single transformation fits.
- tier 6: two or three steps composed, 4 example pairs: the intermediate grids are never
  shown, and several steps (gravity after a rotation, a shift after a flip...) interact.

Suite v2 (``difficulty(d)``, open-ended): the example pairs are as few as determine the
answer - the generator shows pairs one at a time and stops at the first count where every
program of 1..depth steps that fits them gives the same test output - and the drawn rule
has exactly ``depth`` steps with no shorter program fitting. Each step of d adds one of:
- composition length: depth = min(1 + (d + 1) // 2, 4) (d = 0: 1 step; d = 1-2: 2;
  d = 3-4: 3; d >= 5: 4), each hidden step multiplies the candidate rules by ~17 and hides
  one more intermediate grid;
- larger grids: sides 3..3 at d = 0, then up to 4 + d // 3 (6x6 at d = 6, 10x10 at
  d = 18) and at least min(3 + (d - 1) // 3, side - 1) (4 from d = 4, 6 from d = 10, 9
  from d = 19; a rule that scales 2x keeps inputs of at most (side + 2) // 2), more cells to
  move by hand through every hidden step;
- more colours: up to min(2 + (d + 1) // 3, 9) (3 at d = 2, 9 at d = 20), so recolourings
  and gravity orders are longer to track.
The three axes grow on different steps of d (sides up at d = 0 mod 3, colours at 2 mod 3,
the smallest side at 1 mod 3), so each step up to d = 20 adds something; after that (a full
palette) the sides keep growing on two steps of every three.
The composition length is capped at 4 because proving uniqueness over all 5-step programs
takes seconds per instance in Python (about 17^5 sequences); grid size keeps growing.
Generation prunes the search by the first pair (``_useful_grids``) and skips draws whose
adjacent steps collapse to one (``_reducible``). v2
prompts show a placeholder answer template that the normaliser cannot read.

Uniqueness: every program of 1..depth steps is enumerated. A recolouring commutes with every
other step (they move cells or act on the zero / non-zero pattern only), so a program is
equivalent to its other steps followed by at most one recolouring, whose map is read off the
examples. An instance is kept only when all programs that fit the examples give the same test
output (the recolouring must be known for every colour the test needs), no shorter program
fits than the drawn one, and the answer differs from the test input; otherwise it is redrawn
from the same rng.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register

Grid = tuple[tuple[int, ...], ...]
Step = tuple[str, Callable[[Grid], Grid]]
ColourMap = dict[int, int]


@dataclass(frozen=True)
class GridTransformConfig:
    """One rung. v1 tiers set depth and the pair count; ``difficulty(d)`` (v2) sets depth
    min(1 + (d + 1) // 2, 4), sides up to 4 + d // 3 (at least min(3 + (d - 1) // 3, side - 1)),
    up to min(2 + (d + 1) // 3, 9) colours, and shows only the pairs that determine the
    answer (see the module doc)."""

    depth: int  # the most steps a program may have (the prompt says so)
    min_steps: int  # the drawn rule has min_steps..depth steps
    examples: int  # example pairs shown
    min_side: int = 3
    max_side: int = 6
    max_side_scaled: int = 4  # input sides when the rule scales (outputs up to 8x8)
    min_colours: int = 2
    max_colours: int = 4
    # Suite v2: pairs shown only until the answer is determined (``examples`` is then the
    # most that may be needed), a rule of exactly ``depth`` steps, and a placeholder answer
    # template; False keeps v1's draws and prompt.
    minimal_examples: bool = False


TIERS: dict[int, GridTransformConfig] = {
    5: GridTransformConfig(depth=1, min_steps=1, examples=3),
    6: GridTransformConfig(depth=3, min_steps=2, examples=4),
}

PROMPT_TEMPLATE = """\
Each example below shows an input grid and the output grid that the same hidden rule makes \
from it. A grid is a rectangle of digits 0-9 (colours; 0 is the background), written one row \
per line with cells separated by spaces.

The rule is {steps}, each one of:
{steps_list}

{examples}

Test input:
{test}

{answer_format}"""

V1_ANSWER_FORMAT = """\
What is the output grid for the test input? Write its rows from top to bottom, each row as \
its digits with no spaces, rows separated by "/", inside <answer></answer> tags, for example \
<answer>0120/3400/0056</answer>."""

V2_ANSWER_FORMAT = """\
What is the output grid for the test input? Write its rows from top to bottom, each row as \
its digits with no spaces, rows separated by "/". Put your final answer inside \
<answer></answer> tags, like this: <answer>ROW/ROW/ROW</answer> (one ROW per row of the \
output grid)."""
PLACEHOLDER = "ROW/ROW/ROW"
MAX_DEPTH = 4  # the longest v2 rule whose uniqueness the generator proves quickly

STEPS_TEXT = """\
- rotate 90 degrees clockwise
- rotate 180 degrees
- rotate 90 degrees counter-clockwise
- flip left-right (mirror each row)
- flip top-bottom (reverse the order of the rows)
- transpose (the cell in row i, column j moves to row j, column i)
- shift right by one column, wrapping around (the last column becomes the first)
- shift left by one column, wrapping around (the first column becomes the last)
- shift down by one row, wrapping around (the last row becomes the first)
- shift up by one row, wrapping around (the first row becomes the last)
- gravity down (in each column the non-zero cells slide down as far as they can, keeping \
their order)
- gravity up (the same, sliding up)
- gravity left (in each row the non-zero cells slide left, keeping their order)
- gravity right (the same, sliding right)
- scale 2x (every cell becomes a 2x2 block of its colour)
- hollow (a non-zero cell becomes 0 when its four neighbours up, down, left and right are all \
inside the grid and non-zero)
- recolour (replace each non-zero colour by a non-zero colour through a fixed one-to-one \
mapping; 0 stays 0)"""

MAX_ATTEMPTS = 5000
AMBIGUOUS = "?"  # an answer that a recolouring leaves undetermined


def _rot90(g: Grid) -> Grid:
    return tuple(zip(*g[::-1]))


def _rot180(g: Grid) -> Grid:
    return tuple(row[::-1] for row in g[::-1])


def _rot270(g: Grid) -> Grid:
    return tuple(zip(*g))[::-1]


def _flip_lr(g: Grid) -> Grid:
    return tuple(row[::-1] for row in g)


def _flip_tb(g: Grid) -> Grid:
    return g[::-1]


def _transpose(g: Grid) -> Grid:
    return tuple(zip(*g))


def _shift_right(g: Grid) -> Grid:
    return tuple(row[-1:] + row[:-1] for row in g)


def _shift_left(g: Grid) -> Grid:
    return tuple(row[1:] + row[:1] for row in g)


def _shift_down(g: Grid) -> Grid:
    return g[-1:] + g[:-1]


def _shift_up(g: Grid) -> Grid:
    return g[1:] + g[:1]


def _slide_right(row: tuple[int, ...]) -> tuple[int, ...]:
    cells = tuple(v for v in row if v)
    return (0,) * (len(row) - len(cells)) + cells


def _slide_left(row: tuple[int, ...]) -> tuple[int, ...]:
    cells = tuple(v for v in row if v)
    return cells + (0,) * (len(row) - len(cells))


def _gravity_right(g: Grid) -> Grid:
    return tuple(_slide_right(row) for row in g)


def _gravity_left(g: Grid) -> Grid:
    return tuple(_slide_left(row) for row in g)


def _gravity_down(g: Grid) -> Grid:
    return tuple(zip(*(_slide_right(col) for col in zip(*g))))


def _gravity_up(g: Grid) -> Grid:
    return tuple(zip(*(_slide_left(col) for col in zip(*g))))


def _scale2(g: Grid) -> Grid:
    out = []
    for row in g:
        wide = tuple(v for v in row for _ in (0, 1))
        out += [wide, wide]
    return tuple(out)


def _hollow(g: Grid) -> Grid:
    h, w = len(g), len(g[0])
    return tuple(
        tuple(
            0
            if 0 < i < h - 1
            and 0 < j < w - 1
            and g[i - 1][j]
            and g[i + 1][j]
            and g[i][j - 1]
            and g[i][j + 1]
            else g[i][j]
            for j in range(w)
        )
        for i in range(h)
    )


# The structural steps in a fixed order; "recolour" is handled separately (see module doc).
STEPS: tuple[Step, ...] = (
    ("rotate 90 clockwise", _rot90),
    ("rotate 180", _rot180),
    ("rotate 90 counter-clockwise", _rot270),
    ("flip left-right", _flip_lr),
    ("flip top-bottom", _flip_tb),
    ("transpose", _transpose),
    ("shift right", _shift_right),
    ("shift left", _shift_left),
    ("shift down", _shift_down),
    ("shift up", _shift_up),
    ("gravity down", _gravity_down),
    ("gravity up", _gravity_up),
    ("gravity left", _gravity_left),
    ("gravity right", _gravity_right),
    ("scale 2x", _scale2),
    ("hollow", _hollow),
)
RECOLOUR = "recolour"


def _recolour_fit(pairs: Sequence[tuple[Grid, Grid]]) -> ColourMap | None:
    """The partial one-to-one map of non-zero colours that turns each first grid into its
    second, or None when no such recolouring exists."""
    mapping: ColourMap = {}
    for a, b in pairs:
        if len(a) != len(b) or len(a[0]) != len(b[0]):
            return None
        for row_a, row_b in zip(a, b):
            for u, v in zip(row_a, row_b):
                if (u == 0) != (v == 0):
                    return None
                if u and mapping.setdefault(u, v) != v:
                    return None
    if len(set(mapping.values())) != len(mapping):
        return None
    return mapping


def _apply_map(g: Grid, mapping: ColourMap) -> Grid:
    return tuple(tuple(mapping.get(v, v) for v in row) for row in g)


def _colours(g: Grid) -> set[int]:
    return {v for row in g for v in row if v}


def render(g: Grid) -> str:
    return "/".join("".join(str(v) for v in row) for row in g)


def consistent_answers(
    inputs: Sequence[Grid],
    outputs: Sequence[Grid],
    test: Grid,
    depth: int,
    stop_at: int = 0,
    useful: list[set[Grid]] | None = None,
) -> dict[str, int]:
    """Map each test output given by a program of 1..depth steps that fits every example to
    the fewest steps that give it (AMBIGUOUS stands for a recolouring the examples leave open).

    Structural programs are explored breadth first as tuples of grids (examples then test); a
    tuple already expanded is not expanded again. A state reached in d steps fits exactly
    (d steps) or up to a recolouring (d + 1 steps, allowed while d < depth). The search stops
    once ``stop_at`` different answers are known (0: never). With ``useful`` (the first
    example's ``_useful_grids``) a state whose first grid is not useful is dropped.
    """
    n = len(outputs)
    target = tuple(outputs)
    target_cells = [len(g) * len(g[0]) for g in outputs]
    answers: dict[str, int] = {}

    def note(answer: str, steps: int) -> None:
        if answer not in answers:
            answers[answer] = steps

    def fits(state: tuple[Grid, ...], d: int) -> None:
        if d >= 1 and state[:n] == target:
            note(render(state[n]), d)
        elif d < depth:
            mapping = _recolour_fit(list(zip(state[:n], target)))
            if mapping is not None:
                if _colours(state[n]) <= mapping.keys():
                    note(render(_apply_map(state[n], mapping)), d + 1)
                else:
                    note(AMBIGUOUS, d + 1)

    memo: dict[tuple[int, Grid], Grid] = {}

    def apply(index: int, g: Grid) -> Grid:
        """STEPS[index](g), memoised: different states share many of their grids."""
        key = (index, g)
        if key not in memo:
            memo[key] = STEPS[index][1](g)
        return memo[key]

    start = (*inputs, test)
    fits(start, 0)
    frontier = [start]
    seen = {start}
    for d in range(1, depth + 1):
        last = d == depth
        nxt: list[tuple[Grid, ...]] = []
        for state in frontier:
            for index in range(len(STEPS)):
                first = apply(index, state[0])
                if last and first != target[0]:
                    continue
                if len(first) * len(first[0]) > target_cells[0]:
                    continue  # no step shrinks a grid
                if useful is not None and first not in useful[d]:
                    continue
                new = (first, *(apply(index, g) for g in state[1:]))
                if new in seen:
                    continue
                fits(new, d)
                if stop_at and len(answers) >= stop_at:
                    return answers
                if not last:
                    seen.add(new)
                    nxt.append(new)
        frontier = nxt
    return answers


def _reducible(
    program: Sequence[str], funcs: dict[str, Callable[[Grid], Grid]], grids: Sequence[Grid]
) -> bool:
    """Two adjacent structural steps act on ``grids`` as no step or one step (rotate twice,
    shift left then right...): a shorter rule fits, so the draw is wasted; skip the search."""
    for a, b in pairwise(program):
        if RECOLOUR in (a, b):
            continue
        pair = [funcs[b](funcs[a](g)) for g in grids]
        if pair == list(grids) or any(pair == [f(g) for g in grids] for f in funcs.values()):
            return True
    return False


# Inverses of the steps that are one-to-one, and the steps that are idempotent (applying one
# twice changes nothing, so a grid is one of its outputs exactly when the step leaves it be).
INVERSE: dict[str, Callable[[Grid], Grid]] = {
    "rotate 90 clockwise": _rot270,
    "rotate 180": _rot180,
    "rotate 90 counter-clockwise": _rot90,
    "flip left-right": _flip_lr,
    "flip top-bottom": _flip_tb,
    "transpose": _transpose,
    "shift right": _shift_left,
    "shift left": _shift_right,
    "shift down": _shift_up,
    "shift up": _shift_down,
}
IDEMPOTENT = ("gravity down", "gravity up", "gravity left", "gravity right", "hollow")


def _preimages(targets: set[Grid]) -> tuple[set[Grid], list[Callable[[Grid], Grid]]]:
    """The grids that one step turns into a grid of ``targets``, as far as inverses give
    them (one-to-one steps, and scale 2x on grids it can make), plus the idempotent steps
    that some target is an output of: for those a grid has to be tried forwards."""
    funcs = dict(STEPS)
    found = {inverse(h) for h in targets for inverse in INVERSE.values()}
    for h in targets:
        small = tuple(row[::2] for row in h[::2])
        if _scale2(small) == h:
            found.add(small)
    forwards = [funcs[name] for name in IDEMPOTENT if any(funcs[name](h) == h for h in targets)]
    return found, forwards


def _useful_grids(x: Grid, y: Grid, depth: int) -> list[set[Grid]]:
    """``useful[k]``: the grids k steps from x that become y (exactly, or up to a final
    recolouring while a step is left) in 0..depth-k more steps. One grid's layers are far
    fewer than the states of all examples, and they are shared by every count of pairs.
    Going back a step inverts what can be inverted (``_preimages``) instead of trying all
    steps on every grid of the layer."""
    layers: list[set[Grid]] = [{x}]
    for _ in range(depth - 1):
        layers.append({step(g) for g in layers[-1] for _, step in STEPS})
    useful: list[set[Grid]] = [set() for _ in range(depth + 1)]
    useful[depth] = {y}
    for k in range(depth - 1, -1, -1):
        before, forwards = _preimages(useful[k + 1])
        useful[k] = {
            g
            for g in layers[k]
            if g == y
            or g in before
            or _recolour_fit([(g, y)]) is not None
            or any(step(g) in useful[k + 1] for step in forwards)
        }
    return useful


def _fewest_pairs(
    pool: Sequence[Grid], outputs: Sequence[Grid], test: Grid, answer: str, depth: int
) -> int | None:
    """The fewest leading pairs after which every fitting program gives ``answer``, or None
    when the whole pool leaves it open or a program shorter than ``depth`` fits."""
    useful = _useful_grids(pool[0], outputs[0], depth)
    for k in range(1, len(pool) + 1):
        answers = consistent_answers(pool[:k], outputs[:k], test, depth, 2, useful)
        if len(answers) > 1:
            continue  # (fewer than two answers: the search ran to the end)
        if set(answers) == {answer} and answers[answer] == depth:
            return k
        return None
    return None


def _random_grid(rng: random.Random, h: int, w: int, palette: Sequence[int]) -> Grid:
    """A background with a few solid rectangles and single cells, so every step is visible."""
    cells = [[0] * w for _ in range(h)]
    for _ in range(rng.randint(1, 3)):
        rh, rw = rng.randint(1, h // 2 + 1), rng.randint(1, w // 2 + 1)
        top, left = rng.randint(0, h - rh), rng.randint(0, w - rw)
        colour = rng.choice(palette)
        for i in range(top, top + rh):
            for j in range(left, left + rw):
                cells[i][j] = colour
    for _ in range(rng.randint(0, 3)):
        cells[rng.randrange(h)][rng.randrange(w)] = rng.choice(palette)
    return tuple(tuple(row) for row in cells)


def _show(g: Grid) -> str:
    return "\n".join(" ".join(str(v) for v in row) for row in g)


@register
class GridTransform(Family):
    name = "grid_transform"
    tiers = TIERS

    def difficulty(self, d: int) -> GridTransformConfig:
        """Depth min(1 + (d + 1) // 2, 4), grids and palettes growing (see the module doc)."""
        if d < 0:
            raise ValueError(f"difficulty must be >= 0, got {d}")
        depth = min(1 + (d + 1) // 2, MAX_DEPTH)
        side = 3 if d == 0 else 4 + d // 3
        return GridTransformConfig(
            depth=depth,
            min_steps=depth,
            examples=8,
            min_side=min(3 + max(0, d - 1) // 3, max(3, side - 1)),
            max_side=side,
            max_side_scaled=max(3, (side + 2) // 2),
            min_colours=2,
            max_colours=min(2 + (d + 1) // 3, 9),
            minimal_examples=True,
        )

    def generate(self, rng: random.Random, cfg: GridTransformConfig) -> Puzzle:
        if cfg.minimal_examples:
            return self._generate_minimal(rng, cfg)
        names = [name for name, _ in STEPS] + [RECOLOUR]
        funcs = dict(STEPS)
        for _ in range(MAX_ATTEMPTS):
            n_steps = rng.randint(cfg.min_steps, cfg.depth)
            program = [rng.choice(names) for _ in range(n_steps)]
            if program.count(RECOLOUR) > 1 or program.count("scale 2x") > 1:
                continue  # two recolourings are one; two scalings make grids too large
            palette = sorted(
                rng.sample(range(1, 10), rng.randint(cfg.min_colours, cfg.max_colours))
            )
            mapping: ColourMap = {}
            if RECOLOUR in program:
                image = rng.sample(range(1, 10), len(palette))
                mapping = dict(zip(palette, image))
                if all(k == v for k, v in mapping.items()):
                    continue
            side = cfg.max_side_scaled if "scale 2x" in program else cfg.max_side
            grids = [
                _random_grid(
                    rng, rng.randint(cfg.min_side, side), rng.randint(cfg.min_side, side), palette
                )
                for _ in range(cfg.examples + 1)
            ]
            results = []
            for g in grids:
                for name in program:
                    g = _apply_map(g, mapping) if name == RECOLOUR else funcs[name](g)
                results.append(g)
            if results[-1] == grids[-1]:
                continue
            answer = render(results[-1])
            answers = consistent_answers(grids[:-1], results[:-1], grids[-1], cfg.depth)
            if set(answers) != {answer} or answers[answer] != n_steps:
                continue
            examples = "\n\n".join(
                f"Example {i}\nInput:\n{_show(x)}\nOutput:\n{_show(y)}"
                for i, (x, y) in enumerate(zip(grids[:-1], results[:-1]), start=1)
            )
            steps = (
                "exactly one step"
                if cfg.depth == 1
                else f"a sequence of 1 to {cfg.depth} steps applied one after another"
            )
            prompt = PROMPT_TEMPLATE.format(
                steps=steps,
                steps_list=STEPS_TEXT,
                examples=examples,
                test=_show(grids[-1]),
                answer_format=V1_ANSWER_FORMAT,
            )
            return Puzzle(prompt=prompt, answer=answer)
        raise RuntimeError(f"grid_transform: no unique instance in {MAX_ATTEMPTS} draws")

    def _generate_minimal(self, rng: random.Random, cfg: GridTransformConfig) -> Puzzle:
        """v2: a rule of exactly ``cfg.depth`` steps and the fewest pairs that fix the answer."""
        names = [name for name, _ in STEPS] + [RECOLOUR]
        funcs = dict(STEPS)
        for _ in range(MAX_ATTEMPTS):
            program = [rng.choice(names) for _ in range(cfg.depth)]
            if program.count(RECOLOUR) > 1 or program.count("scale 2x") > 1:
                continue
            palette = sorted(
                rng.sample(range(1, 10), rng.randint(cfg.min_colours, cfg.max_colours))
            )
            mapping: ColourMap = {}
            if RECOLOUR in program:
                mapping = dict(zip(palette, rng.sample(range(1, 10), len(palette))))
                if all(k == v for k, v in mapping.items()):
                    continue
            side = cfg.max_side_scaled if "scale 2x" in program else cfg.max_side
            low = min(cfg.min_side, side)
            test, *pool = [
                _random_grid(rng, rng.randint(low, side), rng.randint(low, side), palette)
                for _ in range(cfg.examples + 1)
            ]
            results = []
            for g in [test, *pool]:
                for name in program:
                    g = _apply_map(g, mapping) if name == RECOLOUR else funcs[name](g)
                results.append(g)
            answer = render(results[0])
            if results[0] == test or _reducible(program, funcs, [test, *pool]):
                continue
            shown = _fewest_pairs(pool, results[1:], test, answer, cfg.depth)
            if shown is None:
                continue
            examples = "\n\n".join(
                f"Example {i}\nInput:\n{_show(x)}\nOutput:\n{_show(y)}"
                for i, (x, y) in enumerate(zip(pool[:shown], results[1 : shown + 1]), start=1)
            )
            steps = (
                "exactly one step"
                if cfg.depth == 1
                else f"a sequence of 1 to {cfg.depth} steps applied one after another"
            )
            prompt = PROMPT_TEMPLATE.format(
                steps=steps,
                steps_list=STEPS_TEXT,
                examples=examples,
                test=_show(test),
                answer_format=V2_ANSWER_FORMAT,
            )
            return Puzzle(prompt=prompt, answer=answer)
        raise RuntimeError(f"grid_transform: no unique instance in {MAX_ATTEMPTS} draws")

    def normalise(self, text: str) -> str | None:
        """Rows of digits, separated by "/", newlines or ";" (cells may be separated by spaces
        or commas), or nested brackets like [[1,2],[3,4]]; a single line of equal-length
        digit groups ("120 340") reads as rows. The rows must form a rectangle."""
        if not isinstance(text, str):
            return None
        s = text.strip().strip("`").strip()
        if not s or len(s) > 10_000:
            return None
        if "[" in s or "]" in s:
            rows = re.findall(r"\[([^\[\]]*)\]", s)
            if re.fullmatch(r"[\s\[\],]*", re.sub(r"\[[^\[\]]*\]", "", s)) is None:
                return None
            if any(not row.strip() for row in rows):
                return None
        else:
            rows = [row for row in re.split(r"[/\n;]", s) if row.strip()]
            if len(rows) == 1:
                groups = [t for t in re.split(r"[\s,]+", rows[0]) if t]
                if len(groups) > 1 and all(len(t) > 1 for t in groups):
                    rows = groups
        cleaned = [re.sub(r"[\s,]+", "", row) for row in rows]
        if not cleaned or any(re.fullmatch(r"[0-9]+", row) is None for row in cleaned):
            return None
        if len({len(row) for row in cleaned}) != 1:
            return None
        return "/".join(cleaned)
