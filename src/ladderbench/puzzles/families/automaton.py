"""Elementary cellular automaton: apply a stated rule table to a row of bits for a few steps.

The prompt spells out all eight neighbourhood -> new-cell entries (the rule number is never
given, so a memorised rule 30 or 110 does not help) and says that cells beyond the ends are 0.
Rules are balanced (3 to 5 of the 8 entries are 1) and read all three inputs, so the answer
is neither mostly one symbol nor a copy or shift of the row.
The answer is the row after the last step; it is unique because the update is deterministic.

Why the tiers get harder: tier 4 is one step on 16-20 cells, a careful table lookup per cell.
Tier 5 is 3-6 steps on 24-32 cells: every step depends on the previous one, so a single slip
propagates, and the model must keep an exact intermediate row in its working memory.

Open-ended difficulty ``d`` (suite v2, ``difficulty(d)``): the row is ``8 + 4d`` to ``10 + 4d``
cells wide and is updated ``1 + d`` times, so the number of exact cell updates a model must
carry out grows roughly quadratically (8 at d = 0, ~170 at d = 5, ~1,800 at d = 20) and every
extra step is one more intermediate row to hold without error. From d = 6 on the rule has
radius 2: each new cell reads five cells (two either side) from a 32-line table, so every
lookup needs five aligned inputs instead of three. The format example is a placeholder
(``<answer>ROW</answer>``) that the normaliser cannot read.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register

PROMPT_TEMPLATE = """\
An elementary cellular automaton works on a row of cells, each 0 or 1. In one step, every cell \
is updated at the same time: its new value depends only on the current values of its left \
neighbour, itself and its right neighbour, according to this rule table \
(left, cell, right -> new value):

{table}

The cells beyond both ends of the row are not part of it and always count as 0.

Starting row ({width} cells):
{row}

Number of steps to apply: {steps}

What is the row after the last step? Give it as exactly {width} characters, each 0 or 1, with no \
spaces. Put the final answer inside <answer></answer> tags, for example: \
<answer>0110100110</answer>"""

V2_PROMPT_TEMPLATE = """\
A cellular automaton works on a row of cells, each 0 or 1. In one step, every cell is updated \
at the same time: its new value depends only on the current values of {inputs}, according to \
this rule table ({columns} -> new value):

{table}

The cells beyond both ends of the row are not part of it and always count as 0.

Starting row ({width} cells):
{row}

Number of steps to apply: {steps}

What is the row after the last step? Give it as exactly {width} characters, each 0 or 1, with no \
spaces. Put the final answer inside <answer></answer> tags, in this form: <answer>ROW</answer> \
where ROW stands for those {width} characters."""

_INPUTS = {
    1: ("its left neighbour, itself and its right neighbour", "left, cell, right"),
    2: (
        "the two cells to its left, itself and the two cells to its right",
        "second left, left, cell, right, second right",
    ),
}

Hood = tuple[int, ...]


def _neighbourhoods(radius: int) -> tuple[Hood, ...]:
    """All 0/1 neighbourhoods of ``2 * radius + 1`` cells, from all ones down to all zeros."""
    size = 2 * radius + 1
    return tuple(
        tuple((n >> (size - 1 - i)) & 1 for i in range(size)) for n in range(2**size - 1, -1, -1)
    )


NEIGHBOURHOODS: tuple[Hood, ...] = _neighbourhoods(1)  # 111, 110, ..., 000: the usual order


@dataclass(frozen=True)
class AutomatonConfig:
    """Difficulty: the row width and the number of steps (inclusive ranges).

    ``radius`` is how many cells either side a cell reads (1: an elementary 8-line table; 2: a
    32-line table). ``v2_prompt`` selects the v2 prompt, whose format example is a placeholder.
    The defaults are v1's.
    """

    min_width: int
    max_width: int
    min_steps: int
    max_steps: int
    max_attempts: int = 1000
    radius: int = 1
    v2_prompt: bool = False


TIERS: dict[int, AutomatonConfig] = {
    4: AutomatonConfig(min_width=16, max_width=20, min_steps=1, max_steps=1),
    5: AutomatonConfig(min_width=24, max_width=32, min_steps=3, max_steps=6),
}


def _step(row: Sequence[int], rule: dict[Hood, int], radius: int = 1) -> list[int]:
    """One synchronous update with 0 beyond both ends."""
    padded = [0] * radius + list(row) + [0] * radius
    size = 2 * radius + 1
    return [rule[tuple(padded[i : i + size])] for i in range(len(row))]


def _flip(hood: Hood, position: int) -> Hood:
    """hood with the input at ``position`` (0 is the leftmost) flipped."""
    return tuple(b ^ (i == position) for i, b in enumerate(hood))


def _uses_every_neighbour(rule: dict[Hood, int]) -> bool:
    """True when flipping any one input changes the output somewhere.

    This rules out constant rules, identity, shifts and other tables where part of the
    neighbourhood can be ignored.
    """
    for position in range(len(next(iter(rule)))):
        if all(rule[hood] == rule[_flip(hood, position)] for hood in rule):
            return False
    return True


@register
class Automaton(Family):
    name = "automaton"
    tiers = TIERS

    def difficulty(self, d: int) -> AutomatonConfig:
        """Width 8 + 4d (+0..2), 1 + d steps; radius 2 from d = 6 (see the module docstring)."""
        if d < 0:
            raise ValueError(f"difficulty must be >= 0, got {d}")
        width = 8 + 4 * d
        return AutomatonConfig(
            min_width=width,
            max_width=width + 2,
            min_steps=1 + d,
            max_steps=1 + d,
            radius=2 if d >= 6 else 1,
            v2_prompt=True,
        )

    def generate(self, rng: random.Random, cfg: AutomatonConfig) -> Puzzle:
        if cfg.v2_prompt:
            return self._generate_v2(rng, cfg)
        for _ in range(cfg.max_attempts):
            rule = {hood: rng.randint(0, 1) for hood in NEIGHBOURHOODS}
            width = rng.randint(cfg.min_width, cfg.max_width)
            steps = rng.randint(cfg.min_steps, cfg.max_steps)
            start = [rng.randint(0, 1) for _ in range(width)]
            if not 3 <= sum(rule.values()) <= 5 or not _uses_every_neighbour(rule):
                continue
            row = start
            for _ in range(steps):
                row = _step(row, rule)
            # Skip instances whose answer is trivial to guess: uniform, or the start unchanged.
            if len(set(row)) == 2 and row != start:
                break
        else:  # pragma: no cover - nearly every draw qualifies
            raise ValueError("automaton: no non-trivial instance found; raise max_attempts")
        prompt = PROMPT_TEMPLATE.format(
            table="\n".join(f"{a}{b}{c} -> {rule[(a, b, c)]}" for a, b, c in NEIGHBOURHOODS),
            width=width,
            row="".join(map(str, start)),
            steps=steps,
        )
        return Puzzle(prompt=prompt, answer="".join(map(str, row)))

    def _generate_v2(self, rng: random.Random, cfg: AutomatonConfig) -> Puzzle:
        """A balanced rule that reads every input, and a run whose last step still changes it."""
        hoods = _neighbourhoods(cfg.radius)
        ones = len(hoods)
        for _ in range(cfg.max_attempts):
            rule = {hood: rng.randint(0, 1) for hood in hoods}
            width = rng.randint(cfg.min_width, cfg.max_width)
            steps = rng.randint(cfg.min_steps, cfg.max_steps)
            start = [rng.randint(0, 1) for _ in range(width)]
            if not 3 * ones // 8 <= sum(rule.values()) <= 5 * ones // 8:
                continue
            if not _uses_every_neighbour(rule):
                continue
            previous, row = start, start
            for _ in range(steps):
                previous, row = row, _step(row, rule, cfg.radius)
            # Not guessable: both symbols, and the last step changed the row (no fixed point).
            if len(set(row)) == 2 and row != previous and row != start:
                break
        else:  # pragma: no cover - nearly every draw qualifies
            raise ValueError("automaton: no non-trivial instance found; raise max_attempts")
        inputs, columns = _INPUTS[cfg.radius]
        prompt = V2_PROMPT_TEMPLATE.format(
            inputs=inputs,
            columns=columns,
            table="\n".join(f"{''.join(map(str, h))} -> {rule[h]}" for h in hoods),
            width=width,
            row="".join(map(str, start)),
            steps=steps,
        )
        return Puzzle(prompt=prompt, answer="".join(map(str, row)))

    def normalise(self, text: str) -> str | None:
        """The row as a 0/1 string; spaces, commas, bars, brackets and quotes are ignored."""
        cleaned = re.sub(r"[\s,;|\[\](){}\"'`]", "", text)
        if not cleaned or re.fullmatch(r"[01]+", cleaned) is None:
            return None
        return cleaned
