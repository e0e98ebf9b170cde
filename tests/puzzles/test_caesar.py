"""The caesar family: every answer re-derived by decrypting the ciphertext independently."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladderbench.puzzles.base import Puzzle, instance_rng
from ladderbench.puzzles.families.caesar import TIERS, CaesarFamily

FAMILY = CaesarFamily()
SEEDS = range(1, 65)
SRC = Path(__file__).resolve().parents[2] / "src"


def make(tier: int, seed: int) -> Puzzle:
    return FAMILY.generate(instance_rng("1", "caesar", tier, seed), tier)


def rotate(letter: str, offset: int) -> str:
    return chr((ord(letter) - ord("A") + offset) % 26 + ord("A"))


def solve(prompt: str) -> str:
    """Decrypt the prompt's ciphertext using only the shift and direction the prompt states."""
    rule = re.search(
        r"shifted (forward|backward) \(towards [AZ]\) by (\d+) places.*?"
        r"turns A into ([A-Z]) and Z into ([A-Z])\)",
        prompt,
    )
    cipher = re.search(r"\nEncrypted: ([A-Z ]+)\n", prompt)
    assert rule is not None and cipher is not None
    shift = int(rule.group(2)) * (1 if rule.group(1) == "forward" else -1)
    assert 1 <= abs(shift) <= 25
    assert rotate("A", shift) == rule.group(3) and rotate("Z", shift) == rule.group(4)
    ciphertext = cipher.group(1)
    plain = "".join(c if c == " " else rotate(c, -shift) for c in ciphertext)
    assert plain != ciphertext
    return plain


def test_required_tiers() -> None:
    assert 2 in TIERS


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_answer_rederived_from_prompt(tier: int) -> None:
    directions = set()
    for seed in SEEDS:
        puzzle = make(tier, seed)
        plain = solve(puzzle.prompt)
        assert puzzle.answer == plain, (seed, puzzle.answer, plain)
        assert re.fullmatch(r"[A-Z]+( [A-Z]+){4,6}", puzzle.answer)
        assert FAMILY.check(puzzle, puzzle.answer)
        directions.add("forward" in puzzle.prompt)
    assert directions == {True, False}


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_deterministic(tier: int) -> None:
    for seed in SEEDS:
        assert make(tier, seed) == make(tier, seed)


DIGEST_SCRIPT = """
import hashlib
from ladderbench.puzzles.base import instance_rng
from ladderbench.puzzles.families.caesar import TIERS, CaesarFamily

h = hashlib.sha256()
for tier in sorted(TIERS):
    for seed in range(1, 17):
        p = CaesarFamily().generate(instance_rng("1", "caesar", tier, seed), tier)
        h.update(f"{tier}|{seed}|{p.prompt}|{p.answer}\\n".encode())
digest = h.hexdigest()
"""


def test_same_bytes_under_another_hash_seed() -> None:
    namespace: dict[str, object] = {}
    exec(DIGEST_SCRIPT, namespace)
    env = {**os.environ, "PYTHONHASHSEED": "2718", "PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-c", DIGEST_SCRIPT + "print(digest)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == namespace["digest"]


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_normalise_variants(tier: int) -> None:
    for seed in range(1, 17):
        puzzle = make(tier, seed)
        answer = puzzle.answer
        variants = [
            answer.lower(),
            answer.capitalize() + ".",
            f'  "{answer}"  ',
            answer.replace(" ", "  "),
            answer.title() + "!",
        ]
        for variant in variants:
            assert FAMILY.check(puzzle, variant), variant
        last = answer[-1]
        assert not FAMILY.check(puzzle, answer[:-1] + ("Q" if last != "Q" else "X"))
        assert not FAMILY.check(puzzle, answer.rsplit(" ", 1)[0])
        assert not FAMILY.check(puzzle, answer.replace(" ", ""))


def test_normalise_unreadable_is_none() -> None:
    assert FAMILY.normalise("") is None
    assert FAMILY.normalise(" ... 42 ") is None


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_normalise_never_raises(text: str) -> None:
    result = FAMILY.normalise(text)
    assert result is None or isinstance(result, str)


def test_prompt_asks_for_answer_tags() -> None:
    for tier in sorted(TIERS):
        prompt = make(tier, 1).prompt
        assert "<answer>" in prompt and "</answer>" in prompt


@pytest.mark.parametrize("tier", [0, 1, 3, 7, -1])
def test_bad_tier_raises(tier: int) -> None:
    with pytest.raises(ValueError):
        make(tier, 1)
