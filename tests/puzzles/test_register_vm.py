"""Register VM: every answer is re-derived by running the listed program in a fresh interpreter,
which also counts executed steps and how often each JNZ is taken."""

from __future__ import annotations

import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_at, make_puzzle
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
        m = re.fullmatch(r"(\d+): (SET|ADD|SUB|MUL|JNZ) ([A-H]) ([A-H]|-?\d+)", line)
        assert m and int(m.group(1)) == number, line
        program.append((m.group(2), m.group(3), m.group(4)))
    return program


def execute(program: list[tuple[str, str, str]], step_limit: int = 10_000) -> tuple[dict, int]:
    """Final registers and the number of instructions executed, as the prompt defines them."""
    reg, steps, _ = execute_counting(program, step_limit)
    return reg, steps


def execute_counting(
    program: list[tuple[str, str, str]], step_limit: int = 10_000
) -> tuple[dict, int, dict[int, list[int]]]:
    """``execute``, plus [times taken, times not taken] of every JNZ reached, by line."""
    reg = dict.fromkeys("ABCDEFGH", 0)
    jumps: dict[int, list[int]] = {}
    line, steps = 1, 0
    while 1 <= line <= len(program):
        steps += 1
        assert steps <= step_limit, "program does not stop"
        op, x, y = program[line - 1]
        value = reg[y] if y in reg else int(y)
        if op == "JNZ":
            jumps.setdefault(line, [0, 0])[reg[x] == 0] += 1
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
    return reg, steps, jumps


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


# ---------------------------------------------------------------- open-ended difficulty (v2)

V2_CASES = (
    [(d, seed) for d in range(13) for seed in range(1, 7)]
    + [(d, seed) for d in (15, 20) for seed in (1, 2)]
    + [(40, 1), (100, 1)]
)  # past the caps on iterations and body length


def v2_run(
    d: int, seed: int
) -> tuple[Puzzle, list[tuple[str, str, str]], str, int, dict[int, list[int]]]:
    """(puzzle, program, answer re-derived from the prompt, steps, JNZ taken/not by line)."""
    puzzle = make_at(FAMILY, d, seed)
    names = re.search(r"What are the values of (.+) when the program stops", puzzle.prompt)
    registers = re.findall(r"[A-H]", names.group(1))
    assert registers == list("ABCDEFGH"[: len(registers)]) and len(registers) >= 4
    program = parse(puzzle.prompt)
    reg, steps, jumps = execute_counting(program, step_limit=10**6)
    return puzzle, program, ",".join(f"{r}={reg[r]}" for r in registers), steps, jumps


@pytest.mark.parametrize(("d", "seed"), V2_CASES)
def test_v2_answer_rederived_from_prompt(d: int, seed: int) -> None:
    puzzle, program, expected, steps, jumps = v2_run(d, seed)
    assert expected == puzzle.answer, (d, seed)
    assert FAMILY.check(puzzle, puzzle.answer)
    if d == 0:
        assert not jumps and steps == len(program)
        return
    targets = {i: int(n) for i, (op, _, n) in enumerate(program, 1) if op == "JNZ"}
    backward = {i: jumps.get(i, [0, 0])[0] for i, n in targets.items() if n <= i}
    forward = {i: jumps.get(i, [0, 0]) for i, n in targets.items() if n > i}
    # A real loop: some backward JNZ is taken at least twice.
    assert max(backward.values(), default=0) >= 2, (d, seed)
    if d >= 2:  # forward branches on computed values, each going both ways at some point
        assert forward and all(t >= 1 and n >= 1 for t, n in forward.values()), (d, seed)
    if d >= 3:  # nested loops: one backward jump's span inside another's
        spans = [(targets[i], i) for i in backward]
        assert any(a < c and e < b for a, b in spans for c, e in spans), (d, seed)
    if d >= 8:  # three deep
        assert any(a < c < e and f < g < b for a, b in spans for c, g in spans for e, f in spans), (
            d,
            seed,
        )


def test_v2_steps_grow_with_d() -> None:
    """Executed steps (mean of 3 seeds) clearly grow: more at d + 3 than at d, hundreds by d = 8."""
    mean = {d: sum(v2_run(d, s)[3] for s in (1, 2, 3)) / 3 for d in range(13)}
    for d in range(10):
        assert mean[d + 3] > mean[d], (d, mean)
    assert mean[8] >= 100 and mean[12] > 1000
    assert FAMILY.difficulty(0).depth == 0 and FAMILY.difficulty(1).depth == 1
    for d in range(1, 40):
        a, b = FAMILY.difficulty(d), FAMILY.difficulty(d + 1)
        for field in ("depth", "min_iterations", "min_body", "min_lines", "max_abs", "registers"):
            assert getattr(b, field) >= getattr(a, field), (d, field)
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)


def test_v2_format_example_is_a_placeholder() -> None:
    for d in (0, 5, 9):
        prompt = make_at(FAMILY, d, 1).prompt
        example = re.search(r"in this form: <answer>(.*?)</answer>", prompt).group(1)
        assert "=?" in example and FAMILY.normalise(example) is None
        assert "for example" not in prompt


def test_normalise_reads_more_registers() -> None:
    puzzle = Puzzle("", "A=1,B=0,C=-3,D=4,E=0,F=7")
    checks.assert_accepts(
        FAMILY, puzzle, ["F=7, E=0, D=4, C=-3, B=0, A=1", "a:1 b:0 c:-3 d:4 e:0 f:7"]
    )
    checks.assert_rejects(FAMILY, puzzle, ["A=1,B=0,C=-3,D=4,E=0", "A=1,B=0,C=-3,D=4,E=0,F=7,G=0"])
    checks.assert_unreadable(FAMILY, ["A=1,B=0,C=-3,D=4,F=7", "A=?,B=?,C=?,D=?,E=?"])
