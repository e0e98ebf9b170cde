"""automaton: every answer is re-derived by simulating the rule table read from the prompt."""

from __future__ import annotations

import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.automaton import Automaton

FAMILY = Automaton()
TIERS = sorted(FAMILY.tiers)


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def simulate(prompt: str) -> str:
    table = dict(re.findall(r"^([01]{3}) -> ([01])$", prompt, re.MULTILINE))
    assert sorted(table) == [f"{n:03b}" for n in range(8)], "all eight entries are stated"
    assert "beyond both ends of the row are not part of it and always count as 0" in prompt
    width, row = re.search(
        r"^Starting row \((\d+) cells\):\n([01]+)$", prompt, re.MULTILINE
    ).groups()
    assert len(row) == int(width)
    steps = int(re.search(r"^Number of steps to apply: (\d+)$", prompt, re.MULTILINE).group(1))
    for _ in range(steps):
        padded = "0" + row + "0"
        row = "".join(table[padded[i : i + 3]] for i in range(len(row)))
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
