"""Elementary cellular automaton: apply a stated rule table to a row of bits for a few steps.

The prompt spells out all eight neighbourhood -> new-cell entries (the rule number is never
given, so a memorised rule 30 or 110 does not help) and says that cells beyond the ends are 0.
Rules are balanced (3 to 5 of the 8 entries are 1) and read all three inputs, so the answer
is neither mostly one symbol nor a copy or shift of the row.
The answer is the row after the last step; it is unique because the update is deterministic.

Why the tiers get harder: tier 4 is one step on 16-20 cells, a careful table lookup per cell.
Tier 5 is 3-6 steps on 24-32 cells: every step depends on the previous one, so a single slip
propagates, and the model must keep an exact intermediate row in its working memory.
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

NEIGHBOURHOODS: tuple[tuple[int, int, int], ...] = tuple(
    ((n >> 2) & 1, (n >> 1) & 1, n & 1) for n in range(7, -1, -1)
)  # 111, 110, ..., 000: the usual order of a rule table


@dataclass(frozen=True)
class AutomatonConfig:
    """Difficulty: the row width and the number of steps (inclusive ranges)."""

    min_width: int
    max_width: int
    min_steps: int
    max_steps: int
    max_attempts: int = 1000


TIERS: dict[int, AutomatonConfig] = {
    4: AutomatonConfig(min_width=16, max_width=20, min_steps=1, max_steps=1),
    5: AutomatonConfig(min_width=24, max_width=32, min_steps=3, max_steps=6),
}


def _step(row: Sequence[int], rule: dict[tuple[int, int, int], int]) -> list[int]:
    """One synchronous update with 0 beyond both ends."""
    padded = [0, *row, 0]
    return [rule[(padded[i - 1], padded[i], padded[i + 1])] for i in range(1, len(padded) - 1)]


def _flip(hood: tuple[int, int, int], position: int) -> tuple[int, int, int]:
    """hood with the input at position (0 left, 1 centre, 2 right) flipped."""
    left, centre, right = (b ^ (i == position) for i, b in enumerate(hood))
    return left, centre, right


def _uses_every_neighbour(rule: dict[tuple[int, int, int], int]) -> bool:
    """True when flipping the left, centre or right input each changes the output somewhere.

    This rules out constant rules, identity, shifts and other tables where part of the
    neighbourhood can be ignored.
    """
    for position in range(3):
        if all(rule[hood] == rule[_flip(hood, position)] for hood in NEIGHBOURHOODS):
            return False
    return True


@register
class Automaton(Family):
    name = "automaton"
    tiers = TIERS

    def generate(self, rng: random.Random, cfg: AutomatonConfig) -> Puzzle:
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

    def normalise(self, text: str) -> str | None:
        """The row as a 0/1 string; spaces, commas, bars, brackets and quotes are ignored."""
        cleaned = re.sub(r"[\s,;|\[\](){}\"'`]", "", text)
        if not cleaned or re.fullmatch(r"[01]+", cleaned) is None:
            return None
        return cleaned
