"""Spatial: fold a cube net and move the cube, count the pieces of a square cut by lines, or
count the painted unit cubes of a stack.

Three subtasks, each computed from an exact model, so every answer is unique and re-derivable:

* ``cube_net``: a net of a cube (one of the 11 hexomino nets, in any rotation or reflection) is
  drawn with a letter on each square. It is folded up around one named square, which stays on
  the table as the bottom face; the cube is then rolled over its bottom edges and turned in
  place, and the question asks which letters end on the top, north and east faces. The
  generator folds the net by rolling the cube over it from the bottom square (the face that
  lands on a square is the face that square becomes) and tracks the orientation as a map from
  the six positions to letters.
* ``cuts``: a square sheet with corners at lattice points is cut along chords joining lattice
  points of its border; the question asks for the number of pieces. The count follows exactly
  (with fractions) from where the chords cross inside the square: each chord adds one piece
  plus one per distinct crossing point with the chords before it, so three chords through one
  point add fewer pieces than three crossing pairwise.
* ``painted_stack``: unit cubes stacked in columns on a table, given as a height map; the whole
  outside of the solid is painted (not the faces on the table or against another cube), and
  the question asks how many unit cubes have exactly j painted faces. Each cube's count follows
  from its height in the column and the heights of the four neighbouring columns.

Why it is hard: the cube's orientation must be carried through every move without a slip
(each roll moves four faces, a turn four others, and a roll "toward the face showing K" needs
the current orientation to know where K is); the cuts need every pair of chords intersected
exactly, inside or outside the square, and coincident crossings noticed; the stack needs every
cube of every column classified against its neighbours, with nothing counted twice.

Difficulty ``d`` (``config_at(d)``), open-ended:

* cube_net: ``3d`` moves after folding (d = 0: fold only). Rolls north/east/south/west from
  d = 0, quarter turns in place from d = 2, rolls toward a lettered face from d = 4. One face
  asked at d = 0 (the top), two (top, north) at d = 1-2, three (top, north, east) from d = 3.
* cuts: ``3 + d`` chords on a square of side ``4 + d // 2``; endpoints on the border's lattice
  points, so several chords often meet in one point.
* painted_stack: a ``(3 + (d + 1) // 2)``-square height map with columns up to ``2 + (d + 2) // 3``
  cubes.

Scoring: exact. cube_net wants every asked letter in order (commas, spaces or "top: A" all
read); cuts and painted_stack want the whole number.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from typing import Any

from ladderbench.grading.extract import extract_answer, whole_number
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register

SUBTASKS = ("cube_net", "cuts", "painted_stack")
# Letters put on the net: capitals that cannot be misread for one another or for a dot.
LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
FACES = ("top", "bottom", "north", "south", "east", "west")
ASKED_ORDER = ("top", "north", "east")
# Compass steps on the drawing: north is up (row - 1), east is right (column + 1).
STEPS: dict[str, tuple[int, int]] = {
    "north": (-1, 0),
    "south": (1, 0),
    "east": (0, 1),
    "west": (0, -1),
}


@dataclass(frozen=True)
class SpatialConfig:
    """Difficulty parameters of the three subtasks."""

    moves: int  # cube moves after folding
    move_kinds: tuple[str, ...]  # "roll", "turn", "toward"
    faces_asked: int  # how many of top, north, east are asked
    cuts: int  # chords across the square
    side: int  # the square's side length
    stack_size: int  # rows and columns of the stack's height map
    max_height: int  # tallest column of the stack


def config_at(d: int) -> SpatialConfig:
    """The configuration at difficulty ``d`` (see the module docstring)."""
    kinds = ("roll",) + (("turn",) if d >= 2 else ()) + (("toward",) if d >= 4 else ())
    asked = 1 if d == 0 else 2 if d <= 2 else 3
    return SpatialConfig(
        moves=3 * d,
        move_kinds=kinds,
        faces_asked=asked,
        cuts=3 + d,
        side=4 + d // 2,
        stack_size=3 + (d + 1) // 2,
        max_height=2 + (d + 2) // 3,
    )


# ---------------------------------------------------------------- the cube


Orientation = dict[str, str]  # face position -> what is there (a letter, or an original face)

# Where each face position goes under each move: a roll north tips the cube over its bottom
# north edge (north face down, top face to the north); a turn is a quarter turn clockwise
# seen from above.
MOVES: dict[str, dict[str, str]] = {
    "north": {"north": "bottom", "top": "north", "south": "top", "bottom": "south"},
    "south": {"south": "bottom", "top": "south", "north": "top", "bottom": "north"},
    "east": {"east": "bottom", "top": "east", "west": "top", "bottom": "west"},
    "west": {"west": "bottom", "top": "west", "east": "top", "bottom": "east"},
    "turn": {"north": "east", "east": "south", "south": "west", "west": "north"},
}


def moved(orientation: Orientation, move: str) -> Orientation:
    """The orientation after a roll (compass direction) or a clockwise quarter turn."""
    out = dict(orientation)
    for src, dst in MOVES[move].items():
        out[dst] = orientation[src]
    return out


def fold(cells: frozenset[tuple[int, int]], base: tuple[int, int]) -> dict[tuple[int, int], str]:
    """Which face of the folded cube each net cell becomes, ``base`` being the bottom.

    Rolling the cube from the base cell over the net, the face that touches a cell is the face
    that cell folds up into; the walk is breadth first, neighbours in compass order.
    """
    start = {face: face for face in FACES}
    placed = {base: start["bottom"]}
    queue = [(base, start)]
    while queue:
        (row, col), orientation = queue.pop(0)
        for direction, (dr, dc) in STEPS.items():
            cell = (row + dr, col + dc)
            if cell in cells and cell not in placed:
                rolled = moved(orientation, direction)
                placed[cell] = rolled["bottom"]
                queue.append((cell, rolled))
    return placed


def _normalised(cells: set[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def _hexominoes() -> list[frozenset[tuple[int, int]]]:
    """Every fixed hexomino (up to translation), in a deterministic order."""
    shapes = {_normalised({(0, 0)})}
    for _ in range(5):
        grown = set()
        for shape in shapes:
            for r, c in shape:
                for dr, dc in STEPS.values():
                    cell = (r + dr, c + dc)
                    if cell not in shape:
                        grown.add(_normalised(set(shape) | {cell}))
        shapes = grown
    return sorted(shapes, key=sorted)


def cube_nets() -> list[frozenset[tuple[int, int]]]:
    """The fixed hexominoes that fold into a cube: the 11 nets in all their orientations."""
    nets = []
    for shape in _hexominoes():
        base = min(shape)
        if len(set(fold(shape, base).values())) == 6:
            nets.append(shape)
    return nets


NETS = cube_nets()


def _draw_moves(rng: random.Random, cfg: SpatialConfig) -> list[str]:
    """Moves as plain keys: a compass direction, "turn", or "toward" (resolved later)."""
    moves = []
    for _ in range(cfg.moves):
        kind = rng.choice(cfg.move_kinds)
        moves.append(rng.choice(tuple(STEPS)) if kind == "roll" else kind)
    return moves


def _net_picture(letters: dict[tuple[int, int], str]) -> str:
    rows = 1 + max(r for r, _ in letters)
    cols = 1 + max(c for _, c in letters)
    return "\n".join(" ".join(letters.get((r, c), ".") for c in range(cols)) for r in range(rows))


CUBE_PROMPT = """\
The figure below is a net of a cube: six squares, each marked with a letter ("." is empty \
space). North is up in the figure and east is to the right.

{picture}

The net lies flat on a table, north up. It is folded into a cube around the square {base}, \
which stays flat on the table and becomes the bottom face: every other square is folded up \
along its edges, letters outward, so that, for example, a square directly north of {base} in \
the figure becomes the north face of the cube.
{moves_text}
Which letter is on the {asked} face{plural} of the cube at the end? Give {count_text} \
inside <solution></solution> tags, for example <solution>{example}</solution>."""

MOVES_INTRO = """
The cube then makes these moves, in order. "Roll north" tips the cube over the bottom edge \
on its north side, so that the north face becomes the bottom face and the top face becomes \
the north face (likewise for the other directions).{turn_rule}{toward_rule}
{lines}
"""
TURN_RULE = (
    ' "Turn" rotates the cube a quarter turn clockwise, as seen from above, about the vertical'
    " axis, so that the north face becomes the east face; the top and bottom stay in place."
)
TOWARD_RULE = (
    ' "Roll toward X" rolls the cube in the compass direction of the side face showing the'
    " letter X at that moment, so that X becomes the bottom face."
)


def _cube_question(rng: random.Random, cfg: SpatialConfig) -> Question:
    net = rng.choice(NETS)
    cells = sorted(net)
    base = rng.choice(cells)
    names = rng.sample(LETTERS, 6)
    letters = dict(zip(cells, names, strict=True))
    face_of_cell = fold(net, base)
    orientation = {face_of_cell[cell]: letters[cell] for cell in cells}
    lines = []
    for step, move in enumerate(_draw_moves(rng, cfg), 1):
        if move == "toward":
            direction = rng.choice(tuple(STEPS))
            lines.append(f"{step}. Roll toward {orientation[direction]}.")
            move = direction
        elif move == "turn":
            lines.append(f"{step}. Turn.")
        else:
            lines.append(f"{step}. Roll {move}.")
        orientation = moved(orientation, move)
    asked = ASKED_ORDER[: cfg.faces_asked]
    moves_text = ""
    if lines:
        kinds = set(cfg.move_kinds)
        moves_text = MOVES_INTRO.format(
            turn_rule=TURN_RULE if "turn" in kinds else "",
            toward_rule=TOWARD_RULE if "toward" in kinds else "",
            lines="\n".join(lines),
        )
    unused = [letter for letter in LETTERS if letter not in names]  # an example, never the answer
    example = ", ".join(unused[-len(asked) :])
    prompt = CUBE_PROMPT.format(
        picture=_net_picture(letters),
        base=letters[base],
        moves_text=moves_text,
        asked=_joined(asked),
        plural="s" if len(asked) > 1 else "",
        count_text="the letter"
        if len(asked) == 1
        else f"the {len(asked)} letters in that order, separated by commas,",
        example=example,
    )
    truth = ", ".join(orientation[face] for face in asked)
    return Question(
        prompt=prompt,
        ground_truth=truth,
        subtask="cube_net",
        fields={"moves": len(lines), "asked": list(asked)},
    )


def _joined(words: tuple[str, ...]) -> str:
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


# ---------------------------------------------------------------- the cuts

Point = tuple[int, int]
Chord = tuple[Point, Point]


def _border_points(side: int) -> list[Point]:
    """The lattice points of the square's border, corners excluded."""
    points = []
    for t in range(1, side):
        points += [(t, 0), (side, t), (t, side), (0, t)]
    return sorted(points)


def _same_side(p: Point, q: Point, side: int) -> bool:
    return any(p[axis] == q[axis] and p[axis] in (0, side) for axis in (0, 1))


def _crossing(a: Chord, b: Chord) -> tuple[Fraction, Fraction] | None:
    """Where chords ``a`` and ``b`` meet strictly inside both (None if nowhere or parallel)."""
    (x1, y1), (x2, y2) = a
    (x3, y3), (x4, y4) = b
    denominator = (x2 - x1) * (y4 - y3) - (y2 - y1) * (x4 - x3)
    if denominator == 0:
        return None
    t = Fraction((x3 - x1) * (y4 - y3) - (y3 - y1) * (x4 - x3), denominator)
    u = Fraction((x3 - x1) * (y2 - y1) - (y3 - y1) * (x2 - x1), denominator)
    if not (0 < t < 1 and 0 < u < 1):
        return None
    return (x1 + t * (x2 - x1), y1 + t * (y2 - y1))


def count_pieces(chords: list[Chord]) -> int:
    """Pieces of a convex sheet cut along ``chords`` (distinct lines, ends on the border)."""
    pieces = 1
    for i, chord in enumerate(chords):
        points = {_crossing(chord, other) for other in chords[:i]} - {None}
        pieces += 1 + len(points)
    return pieces


def _line_key(chord: Chord) -> tuple[int, int, int]:
    """The chord's line as reduced integer coefficients (a, b, c) of ax + by = c."""
    (x1, y1), (x2, y2) = chord
    a, b = y2 - y1, x1 - x2
    c = a * x1 + b * y1
    g = gcd(gcd(a, b), c) or 1
    if a < 0 or (a == 0 and b < 0):
        g = -g
    return (a // g, b // g, c // g)


CUTS_PROMPT = """\
A square sheet of paper has corners at (0, 0), ({s}, 0), ({s}, {s}) and (0, {s}). It is cut \
with {n} straight cuts, each along the whole segment joining two points on the border of the \
square:
{lines}

The pieces never move, so every cut goes through everything in its way. How many pieces of \
paper are there after all {n} cuts? Give the number inside <solution></solution> tags, for \
example <solution>{example}</solution>."""


def _cuts_question(rng: random.Random, cfg: SpatialConfig) -> Question:
    border = _border_points(cfg.side)
    chords: list[Chord] = []
    lines_seen: set[tuple[int, int, int]] = set()
    while len(chords) < cfg.cuts:
        p, q = rng.sample(border, 2)
        chord = (p, q)
        if _same_side(p, q, cfg.side) or _line_key(chord) in lines_seen:
            continue
        lines_seen.add(_line_key(chord))
        chords.append(chord)
    lines = "\n".join(f"{i}. from {p} to {q}" for i, (p, q) in enumerate(chords, 1))
    # The example is the number of cuts: never the answer, which is at least one more.
    prompt = CUTS_PROMPT.format(s=cfg.side, n=len(chords), lines=lines, example=len(chords))
    return Question(
        prompt=prompt,
        ground_truth=str(count_pieces(chords)),
        subtask="cuts",
        fields={"cuts": len(chords)},
    )


# ---------------------------------------------------------------- the painted stack

NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def painted_faces(heights: list[list[int]]) -> dict[int, int]:
    """How many unit cubes have each number of painted faces (0-5; the bottom never is)."""
    rows, cols = len(heights), len(heights[0])

    def height(r: int, c: int) -> int:
        return heights[r][c] if 0 <= r < rows and 0 <= c < cols else 0

    counts: dict[int, int] = {}
    for r in range(rows):
        for c in range(cols):
            for z in range(heights[r][c]):
                painted = int(z == heights[r][c] - 1)  # the top of the column
                painted += sum(height(r + dr, c + dc) <= z for dr, dc in NEIGHBOURS)
                counts[painted] = counts.get(painted, 0) + 1
    return counts


STACK_PROMPT = """\
Unit cubes are stacked in columns on a table, on a square grid of {n} by {n} cells. The \
numbers below give how many cubes stand in each cell (0 means an empty cell); neighbouring \
columns touch face to face.

{grid}

The whole outside of the solid is then painted: every face of a unit cube that does not touch \
the table or another cube. How many unit cubes have exactly {j} painted face{plural}? Give the \
number inside <solution></solution> tags, for example <solution>{example}</solution>."""


def _stack_question(rng: random.Random, cfg: SpatialConfig) -> Question:
    n = cfg.stack_size
    heights = [[rng.randint(0, cfg.max_height) for _ in range(n)] for _ in range(n)]
    if not any(any(row) for row in heights):
        heights[rng.randrange(n)][rng.randrange(n)] = 1
    counts = painted_faces(heights)
    j = rng.choice(sorted(counts))
    prompt = STACK_PROMPT.format(
        n=n,
        grid="\n".join(" ".join(str(h) for h in row) for row in heights),
        j=j,
        plural="" if j == 1 else "s",
        example=0,  # never the answer: j is a count some cube has
    )
    return Question(
        prompt=prompt,
        ground_truth=str(counts[j]),
        subtask="painted_stack",
        fields={"cubes": sum(map(sum, heights))},
    )


# ---------------------------------------------------------------- reading answers

_FACE_LABEL = re.compile(r"\b(?:top|north|east|face|faces|is|the|and)\b", re.I)


def read_letters(text: str | None, count: int) -> list[str] | None:
    """The last ``count`` single capital letters an answer lists ("top: A, north: B" is fine)."""
    if not isinstance(text, str):
        return None
    found = re.findall(r"(?<![A-Za-z])([A-Z])(?![A-Za-z])", _FACE_LABEL.sub(" ", text))
    return found[-count:] if len(found) >= count else None


def read_count(text: str | None) -> int | None:
    """The one whole number an answer gives (None when it gives none or several)."""
    if not isinstance(text, str):
        return None
    numbers = re.findall(r"(?<![\d.])\d+(?![\d.])", text.replace(",", ""))
    return whole_number(numbers[0]) if len(numbers) == 1 else None


@register
class Spatial(Task):
    name = "spatial"
    category = "reasoning"

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        cfg = config_at(difficulty)
        subtask = rng.choice(SUBTASKS)
        if subtask == "cube_net":
            return _cube_question(rng, cfg)
        return _cuts_question(rng, cfg) if subtask == "cuts" else _stack_question(rng, cfg)

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        """1 for the exact letters (in order) or the exact count, else 0."""
        extracted = extract_answer(response)
        if not isinstance(record, dict) or not isinstance(record.get("ground_truth"), str):
            return verdict(extracted, 0.0)
        truth = record["ground_truth"]
        if record.get("subtask") in ("cuts", "painted_stack"):
            wanted_count = read_count(truth)
            given_count = read_count(extracted)
            return verdict(
                extracted, float(wanted_count is not None and given_count == wanted_count)
            )
        wanted = truth.split(", ")
        given = read_letters(extracted, len(wanted))
        return verdict(extracted, float(given == wanted and all(len(w) == 1 for w in wanted)))
