"""automaton: every answer is re-derived by simulating the rule table read from the prompt."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladderbench.puzzles.base import Puzzle, instance_rng
from ladderbench.puzzles.families.automaton import Automaton

FAMILY = Automaton()
TIERS = sorted(FAMILY.tiers)
SEEDS = range(1, 65)


def make(tier: int, seed: int) -> Puzzle:
    return FAMILY.generate(instance_rng("1", "automaton", tier, seed), tier)


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


@pytest.mark.parametrize("tier", TIERS)
def test_deterministic(tier: int) -> None:
    for seed in (1, 2, 3, 64):
        assert make(tier, seed) == make(tier, seed)
    assert len({make(tier, seed).prompt for seed in SEEDS}) == len(SEEDS)


def _digest() -> str:
    h = hashlib.sha256()
    for tier in TIERS:
        for seed in range(1, 17):
            puzzle = make(tier, seed)
            h.update(puzzle.prompt.encode() + b"\0" + puzzle.answer.encode() + b"\0")
    return h.hexdigest()


def test_same_bytes_under_other_hash_seed() -> None:
    src = str(Path(__file__).resolve().parents[2] / "src")
    code = (
        "import hashlib\n"
        "from ladderbench.puzzles.base import instance_rng\n"
        "from ladderbench.puzzles.families.automaton import Automaton\n"
        "f = Automaton(); h = hashlib.sha256()\n"
        f"for tier in {TIERS!r}:\n"
        "    for seed in range(1, 17):\n"
        "        p = f.generate(instance_rng('1', 'automaton', tier, seed), tier)\n"
        "        h.update(p.prompt.encode() + b'\\0' + p.answer.encode() + b'\\0')\n"
        "print(h.hexdigest())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "987", "PYTHONPATH": src}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == _digest()


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
    for variant in variants:
        assert FAMILY.check(puzzle, variant), variant


def test_normalise_near_misses() -> None:
    puzzle = make(5, 3)
    answer = puzzle.answer
    flipped = answer[:5] + ("1" if answer[5] == "0" else "0") + answer[6:]
    assert not FAMILY.check(puzzle, flipped)
    assert not FAMILY.check(puzzle, answer[:-1])  # one cell short
    assert not FAMILY.check(puzzle, answer + "0")
    assert not FAMILY.check(puzzle, None)
    for bad in ("", "   ", "0120", "row: 0101", "zero"):
        assert FAMILY.normalise(bad) is None, bad


@given(st.text())
def test_normalise_never_raises(text: str) -> None:
    result = FAMILY.normalise(text)
    assert result is None or isinstance(result, str)


def test_prompt_format_and_bad_tier() -> None:
    for tier in TIERS:
        prompt = make(tier, 1).prompt
        assert "<answer>" in prompt and "</answer>" in prompt
        assert re.search(r"exactly \d+ characters, each 0 or 1", prompt)
    for bad in (0, 3, 6, 100):
        with pytest.raises(ValueError):
            FAMILY.generate(instance_rng("1", "automaton", bad, 1), bad)
