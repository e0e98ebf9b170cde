"""Register VM: trace a tiny program on four registers and report their final values.

The machine has registers A, B, C and D (all start at 0) and five instructions (SET, ADD, SUB,
MUL, JNZ), all defined precisely in the prompt. The program is random, drawn from the instance rng
and executed by the generator to get the answer; values stay small (|v| <= ``max_abs``).

Why the tiers get harder: tier 3 is a straight-line program of 10-12 instructions, so the work
is careful bookkeeping of four changing values (with negatives and products). Tier 4 adds a
counted loop (a counter set to 3-5 and a JNZ back to the loop start) whose body updates other
registers, and sometimes a forward JNZ that skips a line depending on a computed value, so the
model must simulate control flow and repeated updates rather than read the program top to bottom.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register


@dataclass(frozen=True)
class RegisterVMConfig:
    """Program shape and value bound.

    Every program opens with SETs giving three registers nonzero values, followed by
    ``min_lines``..``max_lines`` arithmetic lines. With ``loop``, those lines are split around a
    counted loop of ``min_body``..``max_body`` arithmetic lines run ``min_iterations``..
    ``max_iterations`` times, optionally followed by a forward JNZ that skips one line.
    """

    min_lines: int
    max_lines: int
    loop: bool = False
    min_body: int = 0
    max_body: int = 0
    min_iterations: int = 0
    max_iterations: int = 0
    skip_probability: float = 0.0  # chance of a forward JNZ after the loop
    max_abs: int = 999  # every register stays within -max_abs..max_abs at every step


TIERS: dict[int, RegisterVMConfig] = {
    3: RegisterVMConfig(min_lines=7, max_lines=9),
    4: RegisterVMConfig(
        min_lines=2,
        max_lines=3,
        loop=True,
        min_body=2,
        max_body=3,
        min_iterations=3,
        max_iterations=5,
        skip_probability=0.5,
        max_abs=9999,
    ),
}

REGISTERS = ("A", "B", "C", "D")

PROMPT_TEMPLATE = """\
A tiny machine has four integer registers, A, B, C and D, which all start at 0. It runs a \
program one numbered line at a time, starting at line 1. In the instructions below, X is a \
register and Y is either a register (use its current value) or a whole number:

- SET X Y: set X to Y.
- ADD X Y: set X to X + Y.
- SUB X Y: set X to X - Y.
- MUL X Y: set X to X * Y.
- JNZ X n: if X is not 0, continue at line n; otherwise continue with the next line.

Every other instruction continues with the next line. The program stops when it moves past \
its last line. Registers can hold negative numbers.

Program:
{program}

What are the values of A, B, C and D when the program stops?
Write them as A=value,B=value,C=value,D=value in that order.
Put your final answer inside <answer></answer> tags, for example: \
<answer>A=3,B=-7,C=0,D=12</answer>"""

_MAX_ATTEMPTS = 200

# One instruction: (opcode, register, operand) where the operand is a register name or an int.
Instruction = tuple[str, str, str | int]


def _run(program: list[Instruction], max_abs: int, max_steps: int = 1000) -> dict[str, int] | None:
    """Execute ``program``; None if a value leaves the bound or it runs too long."""
    regs = dict.fromkeys(REGISTERS, 0)
    pc = 0
    for _ in range(max_steps):
        if pc >= len(program):
            return regs
        op, x, y = program[pc]
        val = regs[y] if isinstance(y, str) else y
        if op == "JNZ":
            pc = val - 1 if regs[x] != 0 else pc + 1
            continue
        if op == "SET":
            regs[x] = val
        elif op == "ADD":
            regs[x] += val
        elif op == "SUB":
            regs[x] -= val
        else:  # MUL
            regs[x] *= val
        if abs(regs[x]) > max_abs:
            return None
        pc += 1
    return None


def _arith(rng: random.Random, registers: tuple[str, ...]) -> Instruction:
    """A random ADD/SUB/MUL on one of ``registers`` with a register or small constant operand."""
    op = rng.choice(("ADD", "ADD", "SUB", "SUB", "MUL"))
    x = rng.choice(registers)
    if op == "MUL":
        y: str | int = (
            rng.choice([r for r in REGISTERS if r != x])
            if rng.random() < 0.4
            else rng.randint(2, 4)
        )
    elif rng.random() < 0.6:
        y = rng.choice([r for r in REGISTERS if r != x])
    else:
        y = rng.randint(1, 9)
    return (op, x, y)


def _straight(
    rng: random.Random,
    count: int,
    registers: tuple[str, ...],
    max_abs: int,
    prefix: list[Instruction],
    must_change: bool = True,
) -> list[Instruction] | None:
    """Append ``count`` arithmetic lines to ``prefix``, redrawing any line that breaks the bound.

    With ``must_change``, a line must also change its register (no MUL of a zero, no ADD that
    cancels out); a line that a jump may skip is exempt, since skipped it changes nothing.
    """
    program = list(prefix)
    for _ in range(count):
        before = _run(program, max_abs)
        for _ in range(20):
            ins = _arith(rng, registers)
            after = _run([*program, ins], max_abs)
            changed = before is not None and after is not None and after[ins[1]] != before[ins[1]]
            if after is not None and (changed or not must_change):
                program.append(ins)
                break
        else:
            return None
    return program


def _draw(rng: random.Random, cfg: RegisterVMConfig) -> list[Instruction] | None:
    """One random program, or None if this draw broke the value bound."""
    counter = rng.choice(REGISTERS)  # the loop counter (tier 4); never SET in the opening lines
    others = tuple(r for r in REGISTERS if r != counter)
    opening = rng.sample(others, 3) if cfg.loop else rng.sample(REGISTERS, 3)
    prefix: list[Instruction] = [("SET", r, rng.randint(-9, 20) or 1) for r in opening]
    lines = rng.randint(cfg.min_lines, cfg.max_lines)
    if not cfg.loop:
        return _straight(rng, lines, REGISTERS, cfg.max_abs, prefix)
    before = rng.randint(0, 1)
    program = _straight(rng, before, others, cfg.max_abs, prefix)
    if program is None:
        return None
    program.append(("SET", counter, rng.randint(cfg.min_iterations, cfg.max_iterations)))
    start = len(program) + 1  # line number of the first body instruction
    body = [_arith(rng, others) for _ in range(rng.randint(cfg.min_body, cfg.max_body))]
    program += [*body, ("SUB", counter, 1), ("JNZ", counter, start)]
    if _run(program, cfg.max_abs) is None:
        return None
    after = lines - before
    if rng.random() < cfg.skip_probability:
        # Jump over the next line, which happens only when the tested register is nonzero
        # (never for the spent counter, usually for the others).
        tested = counter if rng.random() < 0.5 else rng.choice(others)
        program.append(("JNZ", tested, len(program) + 3))
        program = _straight(rng, 1, REGISTERS, cfg.max_abs, program, must_change=False)
        if program is None:
            return None
        after = max(after - 1, 1)
    return _straight(rng, after, REGISTERS, cfg.max_abs, program)


def _line(ins: Instruction) -> str:
    op, x, y = ins
    return f"{op} {x} {y}"


_PAIR = re.compile(r"""["']?([A-Da-d])["']?\s*(?:=|:|is)\s*([+-]?[0-9]{1,9})\b""")
# What may surround the pairs (separators, brackets), and what may join two of them: the same
# with at most one "and" or "&" ("A=1, B=2, C=3 and D=4").
_LEFTOVER = re.compile(r"[\s,;.{}()\[\]]*")
_JOIN = re.compile(r"[\s,;.{}()\[\]]*(?:(?:\band\b|&)[\s,;.{}()\[\]]*)?", re.IGNORECASE)


@register
class RegisterVM(Family):
    name = "register_vm"
    tiers = TIERS

    def generate(self, rng: random.Random, cfg: RegisterVMConfig) -> Puzzle:
        for _ in range(_MAX_ATTEMPTS):
            program = _draw(rng, cfg)
            if program is None:
                continue
            final = _run(program, cfg.max_abs)
            if final is None or len(set(final.values())) < 3:
                continue  # out of bounds, or too many equal values to be a good test
            listing = "\n".join(f"{i}: {_line(ins)}" for i, ins in enumerate(program, start=1))
            answer = ",".join(f"{r}={final[r]}" for r in REGISTERS)
            return Puzzle(prompt=PROMPT_TEMPLATE.format(program=listing), answer=answer)
        raise RuntimeError(f"register_vm {cfg}: no program in bounds")

    def normalise(self, text: str) -> str | None:
        """``A=1,B=2,...`` in any order, with '=' or ':', any case, spaces, commas, newlines.

        Pairs may also be joined by "and" or "&" ("A=1, B=2, C=3 and D=4").
        """
        if not isinstance(text, str):
            return None
        text = text.replace("\u2212", "-")
        values: dict[str, int] = {}
        end = 0  # where the previous pair ended
        for m in _PAIR.finditer(text):
            reg = m.group(1).upper()
            gap = _JOIN if values else _LEFTOVER
            if reg in values or not gap.fullmatch(text, end, m.start()):
                return None
            values[reg] = int(m.group(2))
            end = m.end()
        if set(values) != set(REGISTERS) or not _LEFTOVER.fullmatch(text, end):
            return None
        return ",".join(f"{r}={values[r]}" for r in REGISTERS)
