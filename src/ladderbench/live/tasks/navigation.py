"""Navigation: follow a robot's turns and moves on a grid with obstacles; give its final cell.

The robot starts at a given cell facing a compass direction and follows a list of instructions:
turns (left, right, around), moves forward or backward, and on the hardest subtask sidesteps to
its left or right. Moves go one cell at a time; an obstacle (or, on bounded grids, the edge of
the grid) stops the robot in front of it and cancels the rest of that move. Obstacles are placed
on the robot's would-be path so that several moves are really cut short, plus decoys beside the
path that never matter.

Why it is hard: the state (position and facing) must be tracked exactly over 10-28 steps, left
and right are relative to a facing that keeps changing, backward moves and sidesteps move without
turning, and a single missed obstacle shifts every later position.

Open-ended difficulty (``difficulty_config(d)``): d = 0 is the v1 mix of the three subtasks. Every
step up is a "maze" (all four move kinds, a bounded grid) with 8 more instructions (d = 1: 28-36,
d = 8: 84-92, d = 12: 116-124), a grid one cell wider and taller (d = 1: 10-13 a side), one more
obstacle put on the path and two more decoys, moves up to one cell longer every three steps, and
from d = 2 a growing share of forward moves (0.05 a step, up to 0.3) that go "until blocked": the
reader must find the first obstacle or edge along the line. Each question at d >= 1 records
``cells_entered``: the single-cell steps the robot really takes, each one a state (cell and facing)
the reader must carry exactly, with an obstacle or wall check; one slip anywhere changes the
answer.

Scoring: exact match of the final (x, y); "(x, y)", "x, y", "[x, y]" and "x = ..., y = ..." are
all read.
"""

from __future__ import annotations

import itertools
import random
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from ladderbench.grading.extract import extract_answer
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register

DIRECTIONS: tuple[str, ...] = ("north", "east", "south", "west")  # clockwise
STEP: dict[int, tuple[int, int]] = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}

# Instruction kinds and the turn (in quarter turns clockwise) of the direction they move in.
FORWARD, BACKWARD, STEP_LEFT, STEP_RIGHT = "forward", "backward", "step left", "step right"
MOVE_OFFSET = {FORWARD: 0, BACKWARD: 2, STEP_LEFT: 3, STEP_RIGHT: 1}
TURNS = {"turn left": 3, "turn right": 1, "turn around": 2}
TURN_DRAWS = ("turn left", "turn left", "turn right", "turn right", "turn around")
UNTIL = -1  # the length of "move forward until blocked"


@dataclass(frozen=True)
class NavigationConfig:
    """Difficulty: instruction count, move kinds, obstacles, and whether the grid is bounded."""

    name: str
    instructions: tuple[int, int]
    max_move: int
    moves: tuple[tuple[str, int], ...]  # move kind, draw weight
    blockers: tuple[int, int]  # obstacles put on the path (each re-simulated)
    decoys: tuple[int, int]  # obstacles beside the path
    size: tuple[int, int] | None  # grid width/height range; None = unbounded
    until_share: float = 0.0  # share of forward moves that go "until blocked" (bounded grids)


CONFIGS: tuple[NavigationConfig, ...] = (
    NavigationConfig(
        "open",
        instructions=(10, 14),
        max_move=5,
        moves=((FORWARD, 1),),
        blockers=(1, 2),
        decoys=(2, 4),
        size=None,
    ),
    NavigationConfig(
        "walled",
        instructions=(14, 20),
        max_move=6,
        moves=((FORWARD, 3), (BACKWARD, 1)),
        blockers=(2, 3),
        decoys=(3, 5),
        size=(8, 11),
    ),
    NavigationConfig(
        "maze",
        instructions=(20, 28),
        max_move=5,
        moves=((FORWARD, 4), (BACKWARD, 1), (STEP_LEFT, 1), (STEP_RIGHT, 1)),
        blockers=(3, 5),
        decoys=(4, 7),
        size=(9, 12),
    ),
)


def difficulty_config(d: int) -> NavigationConfig:
    """The config at difficulty ``d`` >= 1 (d = 0 draws one of ``CONFIGS``): see the docstring."""
    if d < 1:
        raise ValueError(f"navigation difficulty_config(d) takes d >= 1, got {d}")
    return NavigationConfig(
        "maze",
        instructions=(20 + 8 * d, 28 + 8 * d),
        max_move=5 + d // 3,
        moves=((FORWARD, 4), (BACKWARD, 1), (STEP_LEFT, 1), (STEP_RIGHT, 1)),
        blockers=(3 + d, 5 + d),
        decoys=(4 + 2 * d, 7 + 2 * d),
        size=(9 + d, 12 + d),
        until_share=min(0.3, 0.05 * (d - 1)),
    )


PROMPT_TEMPLATE = """\
A robot moves on a grid of square cells. Cell (x, y) is in column x and row y: x increases to \
the east and y increases to the north, so a step east adds 1 to x and a step north adds 1 to y.
{bounds}
The robot starts at {start} facing {facing}.
Obstacles are at: {obstacles}.

Rules:
- "turn left" and "turn right" turn the robot 90 degrees where it stands; "turn around" turns it \
180 degrees.
- "move forward k" moves the robot k cells in the direction it faces; "move backward k" moves it \
k cells in the opposite direction without turning.{sidestep_rule}
- A move goes one cell at a time. If the next cell is an obstacle{or_outside}, the robot does not \
enter it: it stops in its current cell, the rest of that move is skipped, its facing does not \
change, and it carries on with the next instruction.

Instructions:
{instructions}

What are the robot's final coordinates? Give them as (x, y), for example (format only): \
<solution>(4, -2)</solution>
Put your final answer inside <solution></solution> tags."""

UNTIL_RULE = (
    '\n- "move forward until blocked" moves the robot forward one cell at a time until the next '
    "cell is an obstacle or outside the grid."
)
SIDESTEP_RULE = (
    '\n- "step left k" and "step right k" move the robot k cells toward its own left or right side '
    "without turning."
)


@dataclass(frozen=True)
class Walk:
    """The result of following the instructions."""

    end: tuple[int, int]
    facing: int
    entered: list[tuple[int, int]]  # every cell entered, in order
    blocked: int  # moves cut short by an obstacle
    walled: int  # moves cut short by the edge of the grid


def simulate(
    start: tuple[int, int],
    facing: int,
    instructions: list[tuple[str, int]],
    obstacles: set[tuple[int, int]],
    size: tuple[int, int] | None,
) -> Walk:
    """Follow the instructions; size is (width, height) of a grid 0..w-1 x 0..h-1, or None."""
    x, y = start
    entered: list[tuple[int, int]] = []
    blocked = walled = 0
    for kind, k in instructions:
        if kind in TURNS:
            facing = (facing + TURNS[kind]) % 4
            continue
        dx, dy = STEP[(facing + MOVE_OFFSET[kind]) % 4]
        for _ in range(k) if k != UNTIL else itertools.count():
            nx, ny = x + dx, y + dy
            if size is not None and not (0 <= nx < size[0] and 0 <= ny < size[1]):
                walled += 1
                break
            if (nx, ny) in obstacles:
                blocked += 1
                break
            x, y = nx, ny
            entered.append((x, y))
    return Walk((x, y), facing, entered, blocked, walled)


def _instructions(
    rng: random.Random,
    cfg: NavigationConfig,
    start: tuple[int, int],
    facing: int,
    size: tuple[int, int] | None,
) -> list[tuple[str, int]]:
    """Random instructions; on a bounded grid, moves mostly fit the room left before the edge."""
    kinds = [k for k, _ in cfg.moves]
    weights = [w for _, w in cfg.moves]
    out: list[tuple[str, int]] = []
    x, y = start
    for _ in range(rng.randint(*cfg.instructions)):
        last_turn = bool(out) and out[-1][0] in TURNS
        if not last_turn and rng.random() < 0.45:
            turn = rng.choice(TURN_DRAWS)
            facing = (facing + TURNS[turn]) % 4
            out.append((turn, 0))
            continue
        kind = rng.choices(kinds, weights)[0]
        dx, dy = STEP[(facing + MOVE_OFFSET[kind]) % 4]
        if cfg.until_share and size and kind == FORWARD and rng.random() < cfg.until_share:
            out.append((FORWARD, UNTIL))
            while 0 <= x + dx < size[0] and 0 <= y + dy < size[1]:
                x, y = x + dx, y + dy
            continue
        room = cfg.max_move
        if size is not None:
            room = 0
            while (
                room < cfg.max_move
                and 0 <= x + (room + 1) * dx < size[0]
                and (0 <= y + (room + 1) * dy < size[1])
            ):
                room += 1
            if rng.random() < 0.15:  # now and then, walk into the edge
                room = cfg.max_move
        if room == 0:
            turn = rng.choice(TURN_DRAWS)
            facing = (facing + TURNS[turn]) % 4
            out.append((turn, 0))
            continue
        k = rng.randint(1, room)
        out.append((kind, k))
        x, y = x + k * dx, y + k * dy
        if size is not None:
            x, y = min(max(x, 0), size[0] - 1), min(max(y, 0), size[1] - 1)
    return out


def _render_instruction(kind: str, k: int) -> str:
    if kind in TURNS:
        return kind
    if k == UNTIL:
        return f"move {kind} until blocked"
    if kind in (FORWARD, BACKWARD):
        return f"move {kind} {k}"
    return f"{kind} {k}"


def _coords(cell: tuple[int, int]) -> str:
    return f"({cell[0]}, {cell[1]})"


def _draw(rng: random.Random, cfg: NavigationConfig):
    """One attempt: (start, facing, size, instructions, obstacles, walk) or None."""
    size = (rng.randint(*cfg.size), rng.randint(*cfg.size)) if cfg.size else None
    if size:
        start = (rng.randrange(size[0]), rng.randrange(size[1]))
    else:
        start = (rng.randint(-4, 4), rng.randint(-4, 4))
    facing = rng.randrange(4)
    instructions = _instructions(rng, cfg, start, facing, size)
    obstacles: set[tuple[int, int]] = set()
    walk = simulate(start, facing, instructions, obstacles, size)
    for _ in range(rng.randint(*cfg.blockers)):
        # Block a cell the robot would enter, preferring cells in the middle of a long walk.
        choices = [c for c in walk.entered if c != start and c not in obstacles]
        if not choices:
            break
        obstacles.add(rng.choice(choices))
        walk = simulate(start, facing, instructions, obstacles, size)
    moves = sum(kind not in TURNS for kind, _ in instructions)
    untils = sum(k == UNTIL for _, k in instructions)  # these always end against something
    if walk.blocked < 1 or walk.blocked + walk.walled > max(3, moves // 3) + untils:
        return None  # no obstacle matters, or the robot mostly pushes against walls
    path = {start, *walk.entered}
    beside = sorted(
        {(x + dx, y + dy) for x, y in path for dx, dy in STEP.values()} - path - obstacles
    )
    if size:
        beside = [(x, y) for x, y in beside if 0 <= x < size[0] and 0 <= y < size[1]]
    for cell in rng.sample(beside, min(len(beside), rng.randint(*cfg.decoys))):
        obstacles.add(cell)
    final = simulate(start, facing, instructions, obstacles, size)
    if final.end != walk.end or final.entered != walk.entered:
        raise ValueError("a decoy obstacle changed the walk")  # cannot happen: decoys are off-path
    return start, facing, size, instructions, sorted(obstacles), final


# ---------------------------------------------------------------- reading answers

_INT = r"[-+]?\d+(?:\.0+)?"
_LABELLED_X = re.compile(rf"\bx\s*(?:=|:|is)\s*({_INT})", re.I)
_LABELLED_Y = re.compile(rf"\by\s*(?:=|:|is)\s*({_INT})", re.I)
_PAIR = re.compile(rf"[(\[{{<]\s*({_INT})\s*[,;]\s*({_INT})\s*[)\]}}>]")
_ANY_INT = re.compile(rf"(?<![\w.]){_INT}(?![\w.])")
_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\u2012": "-"})


def read_position(text: str) -> tuple[int, int] | None:
    """The (x, y) an answer gives, or None when it gives no single pair."""
    if not isinstance(text, str):
        return None
    text = unicodedata.normalize("NFKC", text).translate(_MINUS)
    text = re.sub(r"\\(?:left|right)\s*", "", text).replace("\\,", "").replace("$", "")
    text = re.sub(r"[*`]", "", text)

    def num(s: str) -> int:
        return int(s.split(".")[0][:40])  # "3.0" -> 3; absurd lengths stay wrong, never raise

    xs, ys = _LABELLED_X.findall(text), _LABELLED_Y.findall(text)
    if xs and ys:
        return num(xs[-1]), num(ys[-1])
    pairs = _PAIR.findall(text)
    if pairs:
        return num(pairs[-1][0]), num(pairs[-1][1])
    ints = _ANY_INT.findall(text)
    if len(ints) == 2:
        return num(ints[0]), num(ints[1])
    return None


@register
class Navigation(Task):
    name = "navigation"
    category = "reasoning"

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        cfg = rng.choice(CONFIGS) if difficulty == 0 else difficulty_config(difficulty)
        for _ in range(100):
            drawn = _draw(rng, cfg)
            if drawn is not None:
                break
        else:
            raise RuntimeError("navigation: no walk with a blocked move in 100 attempts")
        start, facing, size, instructions, obstacles, walk = drawn
        if size:
            bounds = (
                f"The grid has columns x = 0 to {size[0] - 1} and rows y = 0 to {size[1] - 1}; "
                "cells outside it cannot be entered.\n"
            )
        else:
            bounds = "The grid has no edges (coordinates may become negative).\n"
        sidestep = any(kind in (STEP_LEFT, STEP_RIGHT) for kind, _ in instructions)
        prompt = PROMPT_TEMPLATE.format(
            bounds=bounds,
            start=_coords(start),
            facing=DIRECTIONS[facing],
            obstacles=", ".join(_coords(c) for c in obstacles),
            sidestep_rule=(SIDESTEP_RULE if sidestep else "")
            + (UNTIL_RULE if any(k == UNTIL for _, k in instructions) else ""),
            or_outside=" or outside the grid" if size else "",
            instructions="\n".join(
                f"{i}. {_render_instruction(kind, k)}"
                for i, (kind, k) in enumerate(instructions, 1)
            ),
        )
        fields: dict[str, Any] = {
            "instructions": len(instructions),
            "blocked_moves": walk.blocked + walk.walled,
        }
        if difficulty:
            fields |= {"cells_entered": len(walk.entered)}
        return Question(
            prompt=prompt,
            ground_truth=_coords(walk.end),
            subtask=cfg.name,
            fields=fields,
        )

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        """1 when the final position matches exactly, else 0."""
        extracted = extract_answer(response)
        if not isinstance(record, dict):
            return verdict(extracted, 0.0)
        truth = read_position(str(record.get("ground_truth", "")))
        if truth is None or extracted is None:
            return verdict(extracted, 0.0)
        return verdict(extracted, float(read_position(extracted) == truth))
