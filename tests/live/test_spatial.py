"""spatial: every ground truth re-derived from the prompt text alone by solvers written apart
from the generator (the cube is folded with 3D frames and moved with rotation matrices; the cut
sheet is counted with Euler's formula on the planar graph of the cuts), the reply formats, and
growth with difficulty."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import pairwise

import pytest
from task_checks import RELEASE, make_question, record

from ladderbench.live.tasks.spatial import Spatial, config_at, count_pieces

TASK = Spatial()
SEEDS = range(16)
DIFFICULTIES = (*range(9), 12, 20)

Vector = tuple[int, int, int]
FACE_VECTORS: dict[str, Vector] = {
    "top": (0, 0, 1),
    "bottom": (0, 0, -1),
    "north": (0, 1, 0),
    "south": (0, -1, 0),
    "east": (1, 0, 0),
    "west": (-1, 0, 0),
}


def make(index: int, release: str = RELEASE, difficulty: int = 0):
    return make_question(TASK, index, release, difficulty=difficulty)


# ---------------------------------------------------------------- the cube, in 3D


def neg(v: Vector) -> Vector:
    return (-v[0], -v[1], -v[2])


def folded_normals(grid: dict[tuple[int, int], str], base: str) -> dict[str, Vector]:
    """Each letter's outward normal once the net is folded around ``base``.

    Every square carries a frame (its in-plane north and east vectors and its outward normal);
    folding the square beyond one edge up by 90 degrees turns the direction of that edge into
    the new outward normal and the old inward normal into the new in-plane direction.
    """
    start = next(cell for cell, letter in grid.items() if letter == base)
    frames = {start: ((0, 1, 0), (1, 0, 0), (0, 0, -1))}  # north, east, normal
    todo = [start]
    while todo:
        row, col = todo.pop()
        north, east, normal = frames[(row, col)]
        beyond = {  # the frame of the square beyond each edge
            (-1, 0): (neg(normal), east, north),
            (1, 0): (normal, east, neg(north)),
            (0, 1): (north, neg(normal), east),
            (0, -1): (north, normal, neg(east)),
        }
        for (dr, dc), frame in beyond.items():
            cell = (row + dr, col + dc)
            if cell in grid and cell not in frames:
                frames[cell] = frame
                todo.append(cell)
    assert len({frame[2] for frame in frames.values()}) == 6  # a real net
    return {grid[cell]: frame[2] for cell, frame in frames.items()}


ROTATIONS = {
    "north": lambda v: (v[0], v[2], -v[1]),
    "south": lambda v: (v[0], -v[2], v[1]),
    "east": lambda v: (v[2], v[1], -v[0]),
    "west": lambda v: (-v[2], v[1], v[0]),
    "turn": lambda v: (v[1], -v[0], v[2]),
}


def solve_cube(prompt: str) -> str:
    picture = prompt.split("east is to the right.\n\n")[1].split("\n\n")[0].splitlines()
    grid = {
        (r, c): ch
        for r, line in enumerate(picture)
        for c, ch in enumerate(line.split(" "))
        if ch != "."
    }
    assert len(grid) == 6
    base = re.search(r"folded into a cube around the square ([A-Z])", prompt).group(1)
    normals = folded_normals(grid, base)
    for line in re.findall(r"^\d+\. (.+)\.$", prompt, re.M):
        if line == "Turn":
            move = "turn"
        elif line.startswith("Roll toward "):
            target = normals[line.removeprefix("Roll toward ")]
            assert target[2] == 0  # a side face
            move = next(f for f, v in FACE_VECTORS.items() if v == target)
        else:
            move = line.removeprefix("Roll ")
        normals = {k: ROTATIONS[move](v) for k, v in normals.items()}
    asked = re.search(r"Which letter is on the (.+?) faces? of the cube", prompt).group(1)
    faces = re.split(r", | and ", asked)
    by_vector = {v: k for k, v in normals.items()}
    return ", ".join(by_vector[FACE_VECTORS[face]] for face in faces)


# ---------------------------------------------------------------- the cuts, by Euler's formula


def solve_cuts(prompt: str) -> int:
    side = int(re.search(r"corners at \(0, 0\), \((\d+), 0\)", prompt).group(1))
    chords = [
        ((int(a), int(b)), (int(c), int(d)))
        for a, b, c, d in re.findall(r"from \((\d+), (\d+)\) to \((\d+), (\d+)\)", prompt)
    ]
    on_chord: list[set] = [{p, q} for p, q in chords]
    for i, (p, q) in enumerate(chords):
        for j in range(i):
            point = meet(p, q, *chords[j])
            if point is not None:
                on_chord[i].add(point)
                on_chord[j].add(point)
    border = {(0, 0), (side, 0), (side, side), (0, side)} | {pt for p, q in chords for pt in (p, q)}
    vertices = border | set().union(*on_chord)
    edges = len(border) + sum(len(points) - 1 for points in on_chord)
    return edges - len(vertices) + 1  # inner faces of a connected plane graph


def meet(p, q, r, s) -> tuple[Fraction, Fraction] | None:
    """The point where segments pq and rs cross strictly inside both, solved by Cramer's rule."""
    a11, a12, b1 = q[0] - p[0], r[0] - s[0], r[0] - p[0]
    a21, a22, b2 = q[1] - p[1], r[1] - s[1], r[1] - p[1]
    det = a11 * a22 - a12 * a21
    if det == 0:
        return None
    t, u = Fraction(b1 * a22 - a12 * b2, det), Fraction(a11 * b2 - b1 * a21, det)
    if 0 < t < 1 and 0 < u < 1:
        return (p[0] + t * a11, p[1] + t * a21)
    return None


# ---------------------------------------------------------------- the painted stack, by voxels


def solve_stack(prompt: str) -> int:
    block = prompt.split("face to face.\n\n")[1].split("\n\n")[0]
    voxels = {
        (r, c, z)
        for r, line in enumerate(block.splitlines())
        for c, h in enumerate(line.split())
        for z in range(int(h))
    }
    wanted = int(re.search(r"have exactly (\d+) painted face", prompt).group(1))
    directions = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]

    def painted(v) -> int:
        out = 0
        for d in directions:
            w = (v[0] + d[0], v[1] + d[1], v[2] + d[2])
            out += w not in voxels and w[2] >= 0  # below z = 0 is the table
        return out

    return sum(painted(v) == wanted for v in voxels)


def solve(prompt: str) -> str:
    if "square sheet" in prompt:
        return str(solve_cuts(prompt))
    return str(solve_stack(prompt)) if "Unit cubes are stacked" in prompt else solve_cube(prompt)


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_ground_truth_rederived(difficulty: int) -> None:
    for index in SEEDS:
        q = make(index, difficulty=difficulty)
        assert solve(q.prompt) == q.ground_truth, (difficulty, index, q.subtask)
        assert f"<solution>{q.ground_truth}</solution>" not in q.prompt  # the format example


def test_every_subtask_appears_and_cube_moves_use_every_kind() -> None:
    assert {make(i).subtask for i in range(16)} == {"cube_net", "cuts", "painted_stack"}
    prompts = " ".join(make(i, difficulty=6).prompt for i in range(16))
    assert "Turn." in prompts and "Roll toward" in prompts and "Roll north." in prompts


def test_concurrent_cuts_count_once() -> None:
    """Three chords through the centre make 6 pieces, not the 7 of three crossing pairwise."""
    assert count_pieces([((0, 2), (4, 2)), ((2, 0), (2, 4)), ((1, 0), (3, 4))]) == 6
    assert count_pieces([((0, 1), (4, 2)), ((2, 0), (2, 4)), ((1, 0), (3, 4))]) == 7


def test_difficulty_grows() -> None:
    configs = [config_at(d) for d in range(25)]
    for lower, higher in pairwise(configs):
        assert higher.moves > lower.moves and higher.cuts > lower.cuts
        assert higher.side >= lower.side and higher.faces_asked >= lower.faces_asked
    questions = {d: [make(i, difficulty=d) for i in range(16)] for d in (0, 4, 8, 12)}
    moves = [max(q.fields.get("moves", 0) for q in qs) for qs in questions.values()]
    assert moves == sorted(moves) and moves[0] == 0 and moves[-1] == 36
    averages = [
        sum(int(q.ground_truth) for q in qs if q.subtask == "cuts")
        / max(1, sum(q.subtask == "cuts" for q in qs))
        for qs in questions.values()
    ]
    assert averages == sorted(averages) and averages[-1] > 3 * averages[0]
    cubes = [
        max(q.fields.get("cubes", 0) for q in (make(i, difficulty=d) for i in range(24)))
        for d in (0, 4, 8, 12)
    ]
    assert cubes == sorted(cubes) and cubes[-1] > 5 * cubes[0]


# ---------------------------------------------------------------- scoring


def cube_question(difficulty: int):
    return next(q for i in range(40) if (q := make(i, difficulty=difficulty)).subtask == "cube_net")


def test_cube_reply_formats() -> None:
    q = cube_question(4)
    letters = q.ground_truth.split(", ")
    assert len(letters) == 3
    top, north, east = letters
    for reply in (
        f"<solution>{top}, {north}, {east}</solution>",
        f"<solution>{top} {north} {east}</solution>",
        f"<solution>top: {top}, north: {north}, east: {east}</solution>",
        f"After the moves the top face is {top}.\n\nAnswer: {top}, {north}, {east}",
    ):
        assert TASK.score(record(q), reply).score == 1.0, reply
    for reply in (
        f"<solution>{north}, {top}, {east}</solution>",
        f"<solution>{top}, {north}</solution>",
        "<solution></solution>",
        "",
    ):
        assert TASK.score(record(q), reply).score == 0.0, reply


@pytest.mark.parametrize("subtask", ["cuts", "painted_stack"])
def test_count_reply_formats(subtask: str) -> None:
    q = next(q for i in range(40) if (q := make(i, difficulty=3)).subtask == subtask)
    n = int(q.ground_truth)
    for reply in (f"<solution>{n}</solution>", f"So there are {n} pieces.\n\nAnswer: {n}"):
        assert TASK.score(record(q), reply).score == 1.0
    for reply in (f"<solution>{n + 1}</solution>", "<solution>many</solution>", ""):
        assert TASK.score(record(q), reply).score == 0.0
    assert TASK.score({"ground_truth": "x", "subtask": "cuts"}, "<solution>x</solution>").score == 0
    assert TASK.score({}, "<solution>A</solution>").score == 0.0


def test_generation_works_at_high_difficulty() -> None:
    """How fast is bench/README section 8's; a hang is caught by pytest's timeout."""
    for difficulty in (12, 20):
        for index in range(6):
            assert make(index, difficulty=difficulty).prompt, (difficulty, index)
