"""knights_knaves: every answer is re-derived from the prompt text by brute force over roles."""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladderbench.puzzles.base import Puzzle, instance_rng
from ladderbench.puzzles.families.knights_knaves import KnightsKnaves

FAMILY = KnightsKnaves()
TIERS = sorted(FAMILY.tiers)
SEEDS = range(1, 65)
COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def make(tier: int, seed: int) -> Puzzle:
    return FAMILY.generate(instance_rng("1", "knights_knaves", tier, seed), tier)


def parse_names(prompt: str) -> list[str]:
    match = re.search(r"You meet (\w+) inhabitants: ([A-Za-z, ]+?) and ([A-Za-z]+)\.", prompt)
    assert match, prompt
    names = [*match.group(2).split(", "), match.group(3)]
    assert len(names) == COUNTS[match.group(1)]
    return names


def statement_test(speaker: str, text: str, people: list[str]):
    """Turn one quoted statement into a predicate over {name: is_knight}."""
    one = r"([A-Z][a-z]+)"
    patterns = [
        (rf"{one} is a knight\.", lambda r, x: r[x]),
        (rf"{one} is a knave\.", lambda r, x: not r[x]),
        (rf"{one} and {one} are both knights\.", lambda r, x, y: r[x] and r[y]),
        (rf"{one} and {one} are both knaves\.", lambda r, x, y: not r[x] and not r[y]),
        (rf"At least one of {one} and {one} is a knave\.", lambda r, x, y: not (r[x] and r[y])),
        (rf"At least one of {one} and {one} is a knight\.", lambda r, x, y: r[x] or r[y]),
        (rf"Exactly one of {one} and {one} is a knight\.", lambda r, x, y: r[x] ^ r[y]),
        (rf"If {one} is a knight, then {one} is a knight\.", lambda r, x, y: r[y] or not r[x]),
        (rf"{one} and I are the same kind\.", lambda r, x: r[x] == r[speaker]),
        (rf"{one} and I are different kinds\.", lambda r, x: r[x] != r[speaker]),
        (
            r"Exactly (\w+) of us (?:is a knight|are knights)\.",
            lambda r, k: sum(r.values()) == COUNTS[k],
        ),
        (
            r"Exactly (\w+) of us (?:is a knave|are knaves)\.",
            lambda r, k: sum(not v for v in r.values()) == COUNTS[k],
        ),
    ]
    for pattern, predicate in patterns:
        match = re.fullmatch(pattern, text)
        if match:
            args = match.groups()
            for arg in args:
                assert arg in people or arg in COUNTS, (arg, text)
                assert arg != speaker, f"{speaker} names themself: {text}"
            return lambda roles, p=predicate, a=args: p(roles, *a)
    raise AssertionError(f"unparsed statement: {text!r}")


def solve(prompt: str) -> list[str]:
    """All consistent assignments, each rendered canonically in order of introduction."""
    people = parse_names(prompt)
    said = re.findall(r'^([A-Z][a-z]+) says: "(.*)"$', prompt, flags=re.MULTILINE)
    assert sorted(s for s, _ in said) == sorted(people), "each person makes one statement"
    tests = [(s, statement_test(s, text, people)) for s, text in said]
    answers = []
    for values in itertools.product((True, False), repeat=len(people)):
        roles = dict(zip(people, values))
        if all(roles[s] == bool(test(roles)) for s, test in tests):
            answers.append(",".join(f"{n}={'knight' if roles[n] else 'knave'}" for n in people))
    return answers


@pytest.mark.parametrize("tier", TIERS)
def test_answer_rederived_from_prompt(tier: int) -> None:
    for seed in SEEDS:
        puzzle = make(tier, seed)
        people = parse_names(puzzle.prompt)
        assert people == sorted(people), "introduction order must be alphabetical"
        assert len(people) == FAMILY.tiers[tier].people
        answers = solve(puzzle.prompt)
        assert answers == [puzzle.answer], (tier, seed, answers)
        assert FAMILY.check(puzzle, puzzle.answer)


@pytest.mark.parametrize("tier", TIERS)
def test_deterministic(tier: int) -> None:
    for seed in (1, 2, 3, 64):
        assert make(tier, seed) == make(tier, seed)
    assert len({make(tier, seed).prompt for seed in SEEDS}) > 60


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
        "from ladderbench.puzzles.families.knights_knaves import KnightsKnaves\n"
        "f = KnightsKnaves(); h = hashlib.sha256()\n"
        f"for tier in {TIERS!r}:\n"
        "    for seed in range(1, 17):\n"
        "        p = f.generate(instance_rng('1', 'knights_knaves', tier, seed), tier)\n"
        "        h.update(p.prompt.encode() + b'\\0' + p.answer.encode() + b'\\0')\n"
        "print(h.hexdigest())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": src}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == _digest()


def test_normalise_variants() -> None:
    puzzle = make(4, 7)
    names = parse_names(puzzle.prompt)
    roles = dict(pair.split("=") for pair in puzzle.answer.split(","))
    variants = [
        puzzle.answer,
        f"  {puzzle.answer.upper()}  ",
        ", ".join(f"{n} is a {roles[n]}" for n in names),
        "\n".join(f"{n}: {roles[n]}" for n in reversed(names)),
        "; ".join(f"{n.lower()} = {roles[n].capitalize()}" for n in names),
        "\n".join(f"- **{n}**: {roles[n]}" for n in names),
        ", ".join(f"{n} is a {roles[n]}" for n in names[:-1]) + f" and {names[-1]} is a "
        f"{roles[names[-1]]}.",
    ]
    for variant in variants:
        assert FAMILY.check(puzzle, variant), variant


def test_normalise_near_misses() -> None:
    puzzle = make(4, 7)
    pairs = puzzle.answer.split(",")
    flipped = (
        pairs[0].replace("knight", "KNAVE")
        if "knight" in pairs[0]
        else pairs[0].replace("knave", "knight")
    )
    assert not FAMILY.check(puzzle, ",".join([flipped, *pairs[1:]]))
    assert not FAMILY.check(puzzle, ",".join(pairs[1:]))  # someone missing
    assert not FAMILY.check(puzzle, puzzle.answer + "," + pairs[0])  # someone twice
    assert not FAMILY.check(puzzle, puzzle.answer + ",Zed=knight")  # an extra person
    assert not FAMILY.check(puzzle, None)
    assert FAMILY.normalise("Alice=knight,Alice=knave") is None
    assert FAMILY.normalise("Alice is a liar") is None
    assert FAMILY.normalise("") is None


@given(st.text())
def test_normalise_never_raises(text: str) -> None:
    result = FAMILY.normalise(text)
    assert result is None or isinstance(result, str)


def test_prompt_format_and_bad_tier() -> None:
    for tier in TIERS:
        prompt = make(tier, 1).prompt
        assert "<answer>" in prompt and "</answer>" in prompt
    for bad in (0, 2, 7, -1):
        with pytest.raises(ValueError):
            FAMILY.generate(instance_rng("1", "knights_knaves", bad, 1), bad)
