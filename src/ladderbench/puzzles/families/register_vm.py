"""Register VM: trace a tiny program on four registers and report their final values.

The machine has registers A, B, C and D (all start at 0) and five instructions (SET, ADD, SUB,
MUL, JNZ), all defined precisely in the prompt. The program is random, drawn from the instance rng
and executed by the generator to get the answer; values stay small (|v| <= ``max_abs``).

Why the tiers get harder: tier 3 is a straight-line program of 10-12 instructions, so the work
is careful bookkeeping of four changing values (with negatives and products). Tier 4 adds a
counted loop (a counter set to 3-5 and a JNZ back to the loop start) whose body updates other
registers, and sometimes a forward JNZ that skips a line depending on a computed value, so the
model must simulate control flow and repeated updates rather than read the program top to bottom.

Open-ended difficulty ``d`` (suite v2, ``difficulty(d)``): d = 0 is a short straight-line
program. From d = 1 on every program is built around counted loops (a counter SET to n, a body,
``SUB counter 1`` and a backward ``JNZ`` to the body's first line, taken n - 1 >= 2 times). From
d = 2 each loop body holds a forward branch on a computed value (``SET T Y``, ``SUB T k``,
``JNZ T past``: the skipped lines run only on the passes where Y equals k, with k drawn from the
values Y really takes there, so the branch goes both ways); from d = 3 loops nest two deep and
from d = 8 three deep. Iteration counts (3 + d // 5 up, capped from d = 30), body lengths
(1 + d // 4, capped from d = 40) and lines before and after the loops (1 + d // 3, never
capped) grow with d, so the executed steps go from ~20 (d = 1) to hundreds (d ~ 4-8) and
thousands (d = 20): every step is one more exact state update to carry. Extra
registers hold the counters and the branch test beside three data registers (four registers at
d = 1, five at d = 2, six from d = 3, seven from d = 8); the value
bound widens with d (999, 9,999, 99,999). The format example is the placeholder
``A=?,B=?,...`` that the normaliser cannot read.
"""

from __future__ import annotations

import random
import re
from collections import Counter
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

    v2 (``depth`` > 0) reads the same fields as: up to ``min_lines`` lines before and after the
    loops, ``min_body``..``max_body`` lines at the top of every loop body, and
    ``min_iterations``..``max_iterations`` passes of every loop.
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
    # v2 (defaults are v1): ``depth`` > 0 builds nested counted loops, ``branch`` a forward JNZ
    # in every loop body, on ``registers`` registers; ``v2_prompt`` uses the placeholder example.
    depth: int = 0
    branch: bool = False
    registers: int = 4
    v2_prompt: bool = False


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

# What every version's prompt says about the machine (v1's bytes must not change).
_MACHINE = """\
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
"""

PROMPT_TEMPLATE = (
    """\
A tiny machine has four integer registers, A, B, C and D, which all start at 0. It runs a \
"""
    + _MACHINE
    + """
What are the values of A, B, C and D when the program stops?
Write them as A=value,B=value,C=value,D=value in that order.
Put your final answer inside <answer></answer> tags, for example: \
<answer>A=3,B=-7,C=0,D=12</answer>"""
)

V2_PROMPT_TEMPLATE = (
    """\
A tiny machine has {count} integer registers, {names}, which all start at 0. It runs a \
"""
    + _MACHINE
    + """
What are the values of {names} when the program stops?
Write them as {form} in that order, with each value a whole number.
Put your final answer inside <answer></answer> tags, in this form: \
<answer>{placeholder}</answer> with each ? replaced by the register's value."""
)

ALL_REGISTERS = "ABCDEFGH"
_NUMBER_WORDS = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}

_MAX_ATTEMPTS = 200
_REPAIRS = 200  # v2: how many out-of-bound lines one draw may redraw before starting over

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


# A v2 program under construction: an instruction ("ins"), a jump to a label ("jnz"), a label,
# or a slot for an arithmetic line on the data registers, drawn once the shape is built.
Item = tuple[str, object, object]


def _assemble(items: list[Item]) -> list[Instruction]:
    """The program the items spell, with labels resolved to line numbers."""
    where: dict[object, int] = {}
    line = 1
    for kind, a, _ in items:
        if kind == "label":
            where[a] = line
        elif kind in ("ins", "jnz"):
            line += 1
    program: list[Instruction] = []
    for kind, a, b in items:
        if kind == "ins":
            assert isinstance(a, tuple)
            program.append(a)
        elif kind == "jnz":
            assert isinstance(a, str)
            program.append(("JNZ", a, where[b]))
    return program


class _Trace:
    """One run of a v2 program (up to 200,000 steps, registers A-H): the final registers (None
    when a value left the bound or it ran too long), ``register``'s value each time line
    ``watch`` (0-based) was reached, and [taken, not taken] counts of every JNZ by line."""

    def __init__(
        self, program: list[Instruction], max_abs: int, watch: int = -1, register: str = "A"
    ) -> None:
        self.final: dict[str, int] | None = None
        self.broke_at = -1  # the line (0-based) that took a value out of the bound
        self.seen: list[int] = []
        self.jumps: dict[int, list[int]] = {}
        regs = dict.fromkeys(ALL_REGISTERS, 0)
        pc = 0
        for _ in range(200_000):
            if pc >= len(program):
                self.final = regs
                return
            if pc == watch:
                self.seen.append(regs[register])
            op, x, y = program[pc]
            val = regs[y] if isinstance(y, str) else y
            if op == "JNZ":
                self.jumps.setdefault(pc, [0, 0])[regs[x] == 0] += 1
                pc = val - 1 if regs[x] != 0 else pc + 1
                continue
            if op == "SET":
                regs[x] = val
            elif op == "ADD":
                regs[x] += val
            elif op == "SUB":
                regs[x] -= val
            else:
                regs[x] *= val
            if abs(regs[x]) > max_abs:
                self.broke_at = pc
                return
            pc += 1

    def forward_both_ways(self, program: list[Instruction]) -> bool:
        """Every forward JNZ was taken on some pass and not taken on another."""
        return all(
            min(self.jumps.get(pc, (0, 0))) >= 1
            for pc, (op, _, target) in enumerate(program)
            if op == "JNZ" and isinstance(target, int) and target - 1 > pc
        )


def _arith_v2(rng: random.Random, data: tuple[str, ...]) -> Instruction:
    """An ADD/SUB/MUL/SET on a data register; operands are data registers or small numbers."""
    op = rng.choice(("ADD", "ADD", "SUB", "SUB", "MUL", "SET"))
    x = rng.choice(data)
    others = [r for r in data if r != x]
    if op == "MUL":
        return (op, x, rng.choice(others) if rng.random() < 0.3 else rng.choice((-1, 2, 3)))
    if op == "SET":
        return (op, x, rng.choice(others) if rng.random() < 0.5 else rng.randint(-9, 9))
    return (op, x, rng.choice(others) if rng.random() < 0.5 else rng.randint(1, 9))


def _draw_v2(rng: random.Random, cfg: RegisterVMConfig) -> list[Instruction] | None:
    """Nested counted loops with forward branches; every slot drawn so values stay bounded."""
    names = ALL_REGISTERS[: cfg.registers]
    order = rng.sample(names, cfg.registers)
    counters = tuple(order[: cfg.depth])
    temp = order[cfg.depth] if cfg.branch else None
    data = tuple(order[cfg.depth + cfg.branch :])
    grow = cfg.min_lines  # lines before and after the loops; body lengths grow the same way
    items: list[Item] = [("ins", ("SET", r, rng.randint(-9, 20) or 1), None) for r in data]
    items += [("slot", None, None)] * rng.randint(1, grow)
    branches: list[tuple[int, str, int]] = []  # (item index of SUB T k, tested register, n)

    def loop(level: int) -> None:
        counter = counters[level]
        n = rng.randint(cfg.min_iterations, cfg.max_iterations)
        items.append(("ins", ("SET", counter, n), None))
        items.append(("label", (level, len(items)), None))
        top = items[-1][1]
        items.extend([("slot", None, None)] * rng.randint(cfg.min_body, cfg.max_body))
        if temp is not None:
            tested = counter if rng.random() < 0.4 else rng.choice(data)
            items.append(("ins", ("SET", temp, tested), None))
            branches.append((len(items), tested, n))
            items.append(("ins", ("SUB", temp, 0), None))  # k is chosen once the slots are drawn
            past = ("past", len(items))
            items.append(("jnz", temp, past))
            items.extend([("slot", None, None)] * rng.randint(1, 2))
            items.append(("label", past, None))
        if level + 1 < cfg.depth:
            loop(level + 1)
            items.extend([("slot", None, None)] * rng.randint(0, 1))
        items.append(("ins", ("SUB", counter, 1), None))
        items.append(("jnz", counter, top))

    loop(0)
    items += [("slot", None, None)] * rng.randint(1, grow)
    # Branch thresholds for counters are known now; those on data registers wait for a trace.
    for index, tested, n in branches:
        if tested in counters:
            items[index] = ("ins", ("SUB", temp, rng.randint(1, n)), None)
    # Draw every slot, then redraw whichever line first breaks the bound until none does.
    slots = {i for i, (kind, _, _) in enumerate(items) if kind == "slot"}
    items = [
        ("ins", _arith_v2(rng, data), None) if i in slots else it for i, it in enumerate(items)
    ]
    lines = [i for i, (kind, _, _) in enumerate(items) if kind in ("ins", "jnz")]
    for _ in range(_REPAIRS):
        trace = _Trace(_assemble(items), cfg.max_abs)
        if trace.final is not None:
            break
        culprit = lines[trace.broke_at] if trace.broke_at >= 0 else -1
        if culprit not in slots:
            return None  # ran too long, or a fixed line broke the bound: start over
        items[culprit] = ("ins", _arith_v2(rng, data), None)
    else:
        return None
    for index, tested, _ in branches:
        if tested in counters:
            continue
        program = _assemble(items)
        line = sum(1 for kind, _, _ in items[:index] if kind in ("ins", "jnz"))
        seen = Counter(_Trace(program, cfg.max_abs, line, tested).seen)
        # A value seen on some passes but not all: the branch goes both ways.
        choices = sorted(v for v, times in seen.items() if times < seen.total())
        if not choices:
            return None
        items[index] = ("ins", ("SUB", temp, rng.choice(choices)), None)
    program = _assemble(items)
    # A threshold set later changes what an earlier branch sees: check every branch at the end.
    return program if _Trace(program, cfg.max_abs).forward_both_ways(program) else None


def _line(ins: Instruction) -> str:
    op, x, y = ins
    return f"{op} {x} {y}"


_PAIR = re.compile(r"""["']?([A-Ha-h])["']?\s*(?:=|:|is)\s*([+-]?[0-9]{1,9})\b""")
# What may surround the pairs (separators, brackets), and what may join two of them: the same
# with at most one "and" or "&" ("A=1, B=2, C=3 and D=4").
_LEFTOVER = re.compile(r"[\s,;.{}()\[\]]*")
_JOIN = re.compile(r"[\s,;.{}()\[\]]*(?:(?:\band\b|&)[\s,;.{}()\[\]]*)?", re.IGNORECASE)


@register
class RegisterVM(Family):
    name = "register_vm"
    tiers = TIERS

    def difficulty(self, d: int) -> RegisterVMConfig:
        """The v2 program shape at ``d`` (see the module docstring for what each step adds)."""
        if d < 0:
            raise ValueError(f"difficulty must be >= 0, got {d}")
        if d == 0:
            return RegisterVMConfig(min_lines=2, max_lines=3, max_abs=99, v2_prompt=True)
        depth = 1 if d < 3 else 2 if d < 8 else 3
        branch = d >= 2
        lo = 3 + min(d, 30) // 5  # capped (with the body length) so a run stays ~10^4 steps
        body = 1 + min(d, 40) // 4
        return RegisterVMConfig(
            min_lines=1 + d // 3,
            max_lines=1 + d // 3,
            loop=True,
            min_body=body,
            max_body=body + 1,
            min_iterations=lo,
            max_iterations=lo + 1,
            max_abs=999 if d < 3 else 9999 if d < 8 else 99999,
            depth=depth,
            branch=branch,
            registers=depth + branch + 3,
            v2_prompt=True,
        )

    def generate(self, rng: random.Random, cfg: RegisterVMConfig) -> Puzzle:
        names = ALL_REGISTERS[: cfg.registers]
        for _ in range(_MAX_ATTEMPTS):
            program = _draw_v2(rng, cfg) if cfg.depth else _draw(rng, cfg)
            if program is None:
                continue
            final = _Trace(program, cfg.max_abs).final if cfg.depth else _run(program, cfg.max_abs)
            if final is None or len({final[r] for r in names}) < 3:
                continue  # out of bounds, or too many equal values to be a good test
            if cfg.depth and [final[r] for r in names].count(0) > cfg.depth + cfg.branch:
                continue  # beyond the spent counters and the branch test, zeros are free guesses
            listing = "\n".join(f"{i}: {_line(ins)}" for i, ins in enumerate(program, start=1))
            answer = ",".join(f"{r}={final[r]}" for r in names)
            if not cfg.v2_prompt:
                return Puzzle(prompt=PROMPT_TEMPLATE.format(program=listing), answer=answer)
            prompt = V2_PROMPT_TEMPLATE.format(
                count=_NUMBER_WORDS[cfg.registers],
                names=", ".join(names[:-1]) + " and " + names[-1],
                program=listing,
                form=",".join(f"{r}=value" for r in names),
                placeholder=",".join(f"{r}=?" for r in names),
            )
            return Puzzle(prompt=prompt, answer=answer)
        raise RuntimeError(f"register_vm {cfg}: no program in bounds")

    def normalise(self, text: str) -> str | None:
        """``A=1,B=2,...`` in any order, with '=' or ':', any case, spaces, commas, newlines.

        Pairs may also be joined by "and" or "&" ("A=1, B=2, C=3 and D=4"). The registers read
        must be A, B, C, D and possibly the next ones in order (v2 programs use up to eight).
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
        names = ALL_REGISTERS[: len(values)]
        if len(values) < 4 or set(values) != set(names) or not _LEFTOVER.fullmatch(text, end):
            return None
        return ",".join(f"{r}={values[r]}" for r in names)
