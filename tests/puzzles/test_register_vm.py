"""Register VM: every answer is re-derived by running the listed program in a fresh interpreter."""

from __future__ import annotations

import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_puzzle
from hypothesis import given, settings
from hypothesis import strategies as st

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.register_vm import TIERS, RegisterVM

FAMILY = RegisterVM()


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def parse(prompt: str) -> list[tuple[str, str, str]]:
    """The numbered program lines, checked to be numbered 1, 2, 3, ..."""
    listing = prompt.split("Program:\n", 1)[1].split("\n\n", 1)[0]
    program = []
    for number, line in enumerate(listing.splitlines(), start=1):
        m = re.fullmatch(r"(\d+): (SET|ADD|SUB|MUL|JNZ) ([ABCD]) ([ABCD]|-?\d+)", line)
        assert m and int(m.group(1)) == number, line
        program.append((m.group(2), m.group(3), m.group(4)))
    return program


def execute(program: list[tuple[str, str, str]], step_limit: int = 10_000) -> tuple[dict, int]:
    """Final registers and the number of instructions executed, as the prompt defines them."""
    reg = {"A": 0, "B": 0, "C": 0, "D": 0}
    line, steps = 1, 0
    while 1 <= line <= len(program):
        steps += 1
        assert steps <= step_limit, "program does not stop"
        op, x, y = program[line - 1]
        value = reg[y] if y in reg else int(y)
        if op == "JNZ":
            line = value if reg[x] != 0 else line + 1
            continue
        if op == "SET":
            reg[x] = value
        elif op == "ADD":
            reg[x] = reg[x] + value
        elif op == "SUB":
            reg[x] = reg[x] - value
        elif op == "MUL":
            reg[x] = reg[x] * value
        line += 1
    assert line == len(program) + 1, "jumped outside the program"
    return reg, steps


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_answer_rederived_from_prompt(tier: int) -> None:
    cfg = TIERS[tier]
    for seed in SEEDS:
        puzzle = make(tier, seed)
        program = parse(puzzle.prompt)
        reg, steps = execute(program)
        expected = ",".join(f"{r}={reg[r]}" for r in "ABCD")
        assert expected == puzzle.answer, f"tier {tier} seed {seed}"
        jumps = [ins for ins in program if ins[0] == "JNZ"]
        if cfg.loop:
            # A real loop: at least one backward jump, and more steps than lines.
            assert any(int(n) <= i for i, (op, _, n) in enumerate(program, 1) if op == "JNZ")
            assert steps > len(program)
        else:
            assert not jumps and steps == len(program)
            assert cfg.min_lines + 3 <= len(program) <= cfg.max_lines + 3


def test_normalise_variants() -> None:
    puzzle = make(4, 3)
    values = dict(pair.split("=") for pair in puzzle.answer.split(","))
    variants = [
        puzzle.answer,
        puzzle.answer.lower(),
        ", ".join(f"{r} = {v}" for r, v in values.items()),
        "\n".join(f"{r}: {v}" for r, v in values.items()),
        ", ".join(f"{r}={values[r]}" for r in "DCBA"),
        "{" + ", ".join(f'"{r}": {v}' for r, v in values.items()) + "}",
        " ".join(f"{r}={v}" for r, v in values.items()).replace("-", "\u2212"),
    ]
    checks.assert_accepts(FAMILY, puzzle, variants)
    a = int(values["A"])
    near_misses = [
        puzzle.answer.replace(f"A={a}", f"A={a + 1}"),
        ",".join(f"{r}={values[r]}" for r in "ABC"),
        puzzle.answer + ",A=1",
        puzzle.answer + ",E=0",
        "registers: " + puzzle.answer,
        "",
        None,
    ]
    checks.assert_rejects(FAMILY, puzzle, near_misses)


def test_normalise_reads_and_between_pairs() -> None:
    """Regression (probe case register_vm/t3/s68): an "and" before the last pair is a list."""
    puzzle = Puzzle("", "A=16,B=-20,C=-25,D=0")
    accepted = [
        "A=16, B=-20, C=-25 and D=0",
        "A=16 and B=-20 and C=-25 and D=0",
        "A = 16, B = -20, C = -25, AND D = 0.",
        "A=16, B=-20, C=-25 & D=0",
    ]
    checks.assert_accepts(FAMILY, puzzle, accepted)
    rejected = [
        "A=16, B=-20, C=-25 and D=1",  # a wrong value stays wrong
        "A=16, B=-20, C=-25 or D=0",
        "A=16, B=-20, C=-25 and and D=0",
        "and A=16, B=-20, C=-25, D=0",
        "A=16, B=-20, C=-25, D=0 and",
        "A=16, B=-20 and C=-25",
    ]
    checks.assert_rejects(FAMILY, puzzle, rejected)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from("ABCD"), st.integers(-(10**12), 10**12), min_size=4))
def test_normalise_round_trips(values: dict[str, int]) -> None:
    text = " ; ".join(f"{r}:{v}" for r, v in values.items())
    expected = ",".join(f"{r}={values[r]}" for r in "ABCD")
    out = FAMILY.normalise(text)
    assert out == expected or (out is None and any(abs(v) >= 10**9 for v in values.values()))
