"""automaton: every answer is re-derived by simulating the rule table read from the prompt."""

from __future__ import annotations

import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_at, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.automaton import Automaton

FAMILY = Automaton()
TIERS = sorted(FAMILY.tiers)


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def simulate(prompt: str) -> str:
    """The final row, from the stated table (3- or 5-cell neighbourhoods), row and step count."""
    table = dict(re.findall(r"^([01]{3}|[01]{5}) -> ([01])$", prompt, re.MULTILINE))
    size = len(next(iter(table)))
    assert sorted(table) == [f"{n:0{size}b}" for n in range(2**size)], "every entry is stated"
    pad = "0" * (size // 2)
    assert "beyond both ends of the row are not part of it and always count as 0" in prompt
    width, row = re.search(
        r"^Starting row \((\d+) cells\):\n([01]+)$", prompt, re.MULTILINE
    ).groups()
    assert len(row) == int(width)
    steps = int(re.search(r"^Number of steps to apply: (\d+)$", prompt, re.MULTILINE).group(1))
    for _ in range(steps):
        padded = pad + row + pad
        row = "".join(table[padded[i : i + size]] for i in range(len(row)))
    return row


@pytest.mark.parametrize("tier", TIERS)
def test_answer_rederived_from_prompt(tier: int) -> None:
    cfg = FAMILY.tiers[tier]
    for seed in SEEDS:
        puzzle = make(tier, seed)
        assert simulate(puzzle.prompt) == puzzle.answer, (tier, seed)
        assert cfg.min_width <= len(puzzle.answer) <= cfg.max_width
        assert FAMILY.check(puzzle, puzzle.answer)


def test_tier_shapes() -> None:
    one_step = {re.search(r"steps to apply: (\d+)", make(4, s).prompt).group(1) for s in SEEDS}
    assert one_step == {"1"}
    several = {int(re.search(r"steps to apply: (\d+)", make(5, s).prompt).group(1)) for s in SEEDS}
    assert min(several) >= 3 and max(several) <= 6


def test_normalise_variants() -> None:
    puzzle = make(5, 3)
    answer = puzzle.answer
    variants = [
        answer,
        f"  {answer}\n",
        " ".join(answer),
        ",".join(answer),
        f"[{', '.join(answer)}]",
        f"{answer[:8]} {answer[8:16]} {answer[16:]}",
        f"`{answer}`",
    ]
    checks.assert_accepts(FAMILY, puzzle, variants)


def test_normalise_near_misses() -> None:
    puzzle = make(5, 3)
    answer = puzzle.answer
    flipped = answer[:5] + ("1" if answer[5] == "0" else "0") + answer[6:]
    one_short = answer[:-1]
    checks.assert_rejects(FAMILY, puzzle, [flipped, one_short, answer + "0", None])
    checks.assert_unreadable(FAMILY, ("", "   ", "0120", "row: 0101", "zero"))


def test_prompt_states_the_answer_format() -> None:
    for tier in TIERS:
        assert re.search(r"exactly \d+ characters, each 0 or 1", make(tier, 1).prompt)


# ---------------------------------------------------------------- open-ended difficulty (v2)

V2_CASES = (
    [(d, seed) for d in range(13) for seed in range(1, 7)]
    + [(d, seed) for d in (15, 20) for seed in (1, 2)]
    + [(50, 1)]
)  # far out: still generated and re-derived


def shape(prompt: str) -> tuple[int, int, int]:
    """(width, steps, neighbourhood size) stated in a prompt."""
    width = int(re.search(r"^Starting row \((\d+) cells\)", prompt, re.MULTILINE).group(1))
    steps = int(re.search(r"^Number of steps to apply: (\d+)$", prompt, re.MULTILINE).group(1))
    size = len(re.search(r"^([01]+) -> [01]$", prompt, re.MULTILINE).group(1))
    return width, steps, size


@pytest.mark.parametrize(("d", "seed"), V2_CASES)
def test_v2_answer_rederived_from_prompt(d: int, seed: int) -> None:
    puzzle = make_at(FAMILY, d, seed)
    assert simulate(puzzle.prompt) == puzzle.answer, (d, seed)
    width, steps, size = shape(puzzle.prompt)
    cfg = FAMILY.difficulty(d)
    assert len(puzzle.answer) == width and cfg.min_width <= width <= cfg.max_width
    assert steps == d + 1 and size == 2 * cfg.radius + 1
    assert len(set(puzzle.answer)) == 2
    assert FAMILY.check(puzzle, puzzle.answer)


def test_v2_difficulty_grows() -> None:
    """Cell updates x cells read per update never shrink with d and grow clearly over 3 steps."""

    def work(d: int) -> int:
        cfg = FAMILY.difficulty(d)
        return cfg.min_width * cfg.min_steps * (2 * cfg.radius + 1)

    for d in range(30):
        assert work(d + 1) >= work(d) and work(d + 3) > work(d), d
        assert FAMILY.difficulty(d + 1).radius >= FAMILY.difficulty(d).radius
    assert FAMILY.difficulty(0).min_steps == 1 and FAMILY.difficulty(8).radius == 2
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)


def test_v2_format_example_is_a_placeholder() -> None:
    for d in (0, 7):
        prompt = make_at(FAMILY, d, 1).prompt
        example = re.search(r"in this form: <answer>(.*?)</answer>", prompt).group(1)
        assert example == "ROW" and FAMILY.normalise(example) is None
        assert "for example" not in prompt
