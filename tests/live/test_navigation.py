"""navigation: every final position is re-simulated from the prompt text alone."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

import pytest
import task_checks as checks
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import INDICES, RELEASE, make_question, record

from ladderbench.live.base import Question
from ladderbench.live.tasks.navigation import Navigation, read_position

TASK = Navigation()
HEADINGS = {"north": 1j, "east": 1, "south": -1j, "west": -1}


@cache
def make(index: int, release: str = RELEASE) -> Question:
    return make_question(TASK, index, release)


def walk(prompt: str) -> tuple[tuple[int, int], int, int]:
    """Follow the prompt's instructions with complex numbers; returns (end, moves cut short,
    cells entered)."""
    m = re.search(r"columns x = 0 to (\d+) and rows y = 0 to (\d+);", prompt)
    bounds = (int(m.group(1)), int(m.group(2))) if m else None
    assert bounds or "no edges" in prompt
    m = re.search(r"starts at \((-?\d+), (-?\d+)\) facing (\w+)\.", prompt)
    pos = complex(int(m.group(1)), int(m.group(2)))
    heading = HEADINGS[m.group(3)]
    line = re.search(r"^Obstacles are at: (.+)\.$", prompt, re.M).group(1)
    obstacles = {complex(int(a), int(b)) for a, b in re.findall(r"\((-?\d+), (-?\d+)\)", line)}
    assert pos not in obstacles
    block = prompt.split("Instructions:\n", 1)[1].split("\n\n", 1)[0]
    cut = entered = 0
    for text in re.findall(r"^\d+\. (.+)$", block, re.M):
        if text == "turn left":
            heading *= 1j
        elif text == "turn right":
            heading *= -1j
        elif text == "turn around":
            heading *= -1
        elif text == "move forward until blocked":
            assert "until the next cell is an obstacle or outside the grid" in prompt
            assert bounds is not None  # else it might never stop
            while True:
                nxt = pos + heading
                if not (0 <= nxt.real <= bounds[0] and 0 <= nxt.imag <= bounds[1]) or (
                    nxt in obstacles
                ):
                    cut += 1
                    break
                pos = nxt
                entered += 1
        else:
            m = re.fullmatch(r"(move forward|move backward|step left|step right) (\d+)", text)
            assert m, text
            direction = {
                "move forward": heading,
                "move backward": -heading,
                "step left": heading * 1j,
                "step right": heading * -1j,
            }[m.group(1)]
            if m.group(1).startswith("step"):
                assert "step left k" in prompt, "sidesteps used but not explained"
            for _ in range(int(m.group(2))):
                nxt = pos + direction
                outside = bounds is not None and not (
                    0 <= nxt.real <= bounds[0] and 0 <= nxt.imag <= bounds[1]
                )
                if outside or nxt in obstacles:
                    cut += 1
                    break
                pos = nxt
                entered += 1
    return (int(pos.real), int(pos.imag)), cut, entered


def test_position_rederived_from_prompt() -> None:
    subtasks = Counter()
    for index in INDICES:
        q = make(index)
        (x, y), cut, _ = walk(q.prompt)
        assert q.ground_truth == f"({x}, {y})", index
        assert cut == q.fields["blocked_moves"] >= 1
        subtasks[q.subtask] += 1
    assert set(subtasks) == {"open", "walled", "maze"}


def test_obstacles_really_block() -> None:
    """Without its obstacles, most walks would end elsewhere: the obstacles matter."""
    differ = 0
    for index in INDICES:
        q = make(index)
        bare = re.sub(
            r"^Obstacles are at: .+\.$", "Obstacles are at: (999, 999).", q.prompt, flags=re.M
        )
        differ += walk(bare)[0] != walk(q.prompt)[0]
    assert differ >= 40


# ---------------------------------------------------------------- difficulty

SEEDS = range(6)
LEVELS = checks.HARDER_LEVELS


@cache
def make_at(difficulty: int, index: int) -> Question:
    return make_question(TASK, index, difficulty=difficulty)


@pytest.mark.parametrize("difficulty", LEVELS)
def test_harder_walks_rederived_from_prompt(difficulty: int) -> None:
    for index in SEEDS:
        q = make_at(difficulty, index)
        (x, y), cut, entered = walk(q.prompt)
        assert q.ground_truth == f"({x}, {y})", (difficulty, index)
        assert cut == q.fields["blocked_moves"] >= 1
        assert entered == q.fields["cells_entered"]
        n = len(re.findall(r"^\d+\. ", q.prompt.split("Instructions:\n", 1)[1], re.M))
        assert n == q.fields["instructions"] >= 20 + 8 * difficulty
        assert "step left k" in q.prompt or "step" not in q.prompt.split("Instructions:")[1]
        assert q.subtask == "maze"


def test_walks_grow_with_difficulty() -> None:
    """The steps to track (instructions, cells entered) and the cut-short moves grow with d."""

    def mean(d: int, key: str) -> float:
        return sum(make_at(d, i).fields[key] for i in SEEDS) / len(SEEDS)

    for key in ("instructions", "cells_entered", "blocked_moves"):
        means = [mean(d, key) for d in (1, 4, 8, 12, 20)]
        assert means == sorted(means) and means[0] < means[-1], (key, means)
    until = [sum(make_at(d, i).prompt.count("until blocked\n") for i in SEEDS) for d in (1, 8)]
    assert until[0] == 0 < until[1]


def test_difficulty_zero_is_v1() -> None:
    for index in range(8):
        q = make(index)
        assert q == make_question(TASK, index, difficulty=0)
        assert set(q.fields) == {"instructions", "blocked_moves"}


def test_alternative_formats_score_one() -> None:
    for index in range(16):
        rec = record(make(index))
        x, y = read_position(rec["ground_truth"])
        minus = str(y).replace("-", "\u2212")
        for answer in [
            f"<solution>{x}, {y}</solution>",
            f"<solution>({x},{y})</solution>",
            f"<solution>x={x}, y={y}</solution>",
            f"<solution>x = {x} and y = {y}</solution>",
            f"<solution>[{x}, {y}]</solution>",
            f"<solution>**({x}, {y})**</solution>",
            f"<solution>$({x}, {minus})$</solution>",
            f"The robot ends at ({x}, {y}).\n\\boxed{{({x}, {y})}}",
            f"Answer: ({x}, {y})",
            f"After all moves the robot is at ({x}, {y})",
            f"<solution>The robot stops at ({x}, {y}) facing north.</solution>",
        ]:
            assert TASK.score(rec, answer).score == 1.0, (index, answer)


def test_wrong_answers_score_zero() -> None:
    for index in INDICES:
        rec = record(make(index))
        x, y = read_position(rec["ground_truth"])
        wrong = [
            "",
            "I am not sure.",
            f"<solution>({x + 1}, {y})</solution>",
            f"<solution>({x}, {y - 1})</solution>",
            f"<solution>({x}, {y}, 0)</solution>",
            f"<solution>{x}</solution>",
            f"<solution>({x}, {y})</solution> Wait, I missed an obstacle. "
            f"<solution>({x - 1}, {y})</solution>",
        ]
        if x != y:
            wrong.append(f"<solution>({y}, {x})</solution>")
        for answer in wrong:
            assert TASK.score(rec, answer).score == 0.0, (index, answer)


def test_read_position() -> None:
    assert read_position("(3, -2)") == (3, -2)
    assert read_position("x: 3, y: -2") == (3, -2)
    assert read_position("(0,0) then (1, 2)") == (1, 2)
    assert read_position("3, 4, 5") is None
    assert read_position("no position") is None
    assert read_position(None) is None  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["(", ")", "3", "-", "x", "=", ",", "1e999", "\u2212", "9" * 50])))
def test_score_never_raises_on_answer_like_text(parts: list[str]) -> None:
    checks.assert_scores_in_range(TASK, [record(make(1))], ["".join(parts)])


def test_malformed_record_scores_zero() -> None:
    assert TASK.score({}, "<solution>(1, 2)</solution>").score == 0.0
    assert TASK.score({"ground_truth": None}, "(1, 2)").score == 0.0
    assert TASK.score("not a dict", "(1, 2)").score == 0.0  # type: ignore[arg-type]
