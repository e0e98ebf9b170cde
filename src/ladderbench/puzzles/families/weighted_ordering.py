"""Weighted ordering: work out box weights from relations between them, then sort the boxes.

Each instance draws distinct whole-number weights for 5-6 coloured boxes and states relations
that pin every weight down: differences ("3 kg heavier"), ratios ("twice as much"), sums ("together
weigh 19 kg") along a random spanning tree, closed either by one absolute weight or by one more
sum around a cycle. The generator checks (exact rational elimination) that the statements have
exactly one solution, so the order from lightest to heaviest is unique.

Why tier 3: the statements only partly reveal the order (a sum says nothing about which of its
two boxes is heavier), so sorting needs the actual weights; a good share of instances have no
absolute weight at all and must be solved as a small linear system around a cycle of relations.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register


@dataclass(frozen=True)
class WeightedOrderingConfig:
    """Number of boxes, weight range, and how often the system has no absolute weight."""

    min_items: int
    max_items: int
    min_weight: int
    max_weight: int
    no_anchor_probability: float  # chance of closing the system with a sum instead of a weight


TIERS: dict[int, WeightedOrderingConfig] = {
    3: WeightedOrderingConfig(
        min_items=5, max_items=6, min_weight=2, max_weight=40, no_anchor_probability=0.5
    ),
}

# Sorted, so sampling never depends on hashing; none is a filler word that normalise drops.
COLOURS: tuple[str, ...] = (
    "black",
    "blue",
    "brown",
    "green",
    "grey",
    "orange",
    "pink",
    "purple",
    "red",
    "silver",
    "white",
    "yellow",
)

PROMPT_TEMPLATE = """\
There are {count} boxes: {boxes}. Every box has a different weight, a whole number of \
kilograms. All of the following statements are true:

{statements}

List the boxes from lightest to heaviest.
Write the colours of the boxes in order from lightest to heaviest, separated by ", ".
Put your final answer inside <answer></answer> tags, for example (format only, with other \
colours): <answer>teal, amber, violet</answer>"""

_MAX_ATTEMPTS = 100

# A statement: (kind, first box, second box or -1, number).
Statement = tuple[str, int, int, int]


def _relation(rng: random.Random, a: int, b: int, w: list[int]) -> Statement:
    """A random true statement linking boxes ``a`` and ``b``."""
    heavy, light = (a, b) if w[a] > w[b] else (b, a)
    if w[heavy] in (2 * w[light], 3 * w[light]) and rng.random() < 0.6:
        return ("times", heavy, light, w[heavy] // w[light])
    if rng.random() < 0.3:
        return ("sum", a, b, w[a] + w[b])
    if rng.random() < 0.5:
        return ("heavier", heavy, light, w[heavy] - w[light])
    return ("lighter", light, heavy, w[heavy] - w[light])


def _equation(st: Statement, n: int) -> list[Fraction]:
    """The statement as coefficients of the n weights followed by the right-hand side."""
    kind, a, b, k = st
    row = [Fraction(0)] * (n + 1)
    if kind == "weighs":
        row[a], row[n] = Fraction(1), Fraction(k)
    elif kind == "times":
        row[a], row[b] = Fraction(1), Fraction(-k)
    elif kind == "sum":
        row[a], row[b], row[n] = Fraction(1), Fraction(1), Fraction(k)
    elif kind == "heavier":
        row[a], row[b], row[n] = Fraction(1), Fraction(-1), Fraction(k)
    else:  # lighter
        row[a], row[b], row[n] = Fraction(1), Fraction(-1), Fraction(-k)
    return row


def _rank(statements: list[Statement], n: int) -> int:
    """Rank of the coefficient matrix (Gauss-Jordan over the rationals)."""
    rows = [_equation(st, n)[:n] for st in statements]
    rank = 0
    for col in range(n):
        pivot = next((r for r in range(rank, len(rows)) if rows[r][col] != 0), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for r in range(len(rows)):
            if r != rank and rows[r][col] != 0:
                f = rows[r][col] / rows[rank][col]
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[rank], strict=True)]
        rank += 1
    return rank


def _sentence(st: Statement, names: list[str]) -> str:
    kind, a, b, k = st
    if kind == "weighs":
        return f"The {names[a]} box weighs {k} kg."
    if kind == "times":
        factor = "twice" if k == 2 else "three times"
        return f"The {names[a]} box weighs {factor} as much as the {names[b]} box."
    if kind == "sum":
        return f"The {names[a]} box and the {names[b]} box together weigh {k} kg."
    return f"The {names[a]} box is {k} kg {kind} than the {names[b]} box."


_FILLER = {"the", "box", "boxes", "then", "and"}
_ORDER_TEXT = re.compile(r"[A-Za-z\s,;.]*")


def _spellings(palette: tuple[str, ...]) -> dict[str, str]:
    """Each accepted spelling of a palette colour, mapped to the palette's own name.

    "gray" and "grey" read as one colour only when the palette holds just one of them.
    """
    spellings = {name: name for name in palette}
    for a, b in (("grey", "gray"), ("gray", "grey")):
        if a in palette and b not in palette:
            spellings[b] = a
    return spellings


_COLOUR_NAMES = _spellings(COLOURS)


@register
class WeightedOrdering(Family):
    name = "weighted_ordering"
    tiers = TIERS

    def generate(self, rng: random.Random, cfg: WeightedOrderingConfig) -> Puzzle:
        for _ in range(_MAX_ATTEMPTS):
            n = rng.randint(cfg.min_items, cfg.max_items)
            names = rng.sample(COLOURS, n)
            weights = rng.sample(range(cfg.min_weight, cfg.max_weight + 1), n)
            order = list(range(n))
            rng.shuffle(order)
            # A spanning tree of relations fixes every weight up to one unknown...
            statements = [
                _relation(rng, order[k], order[rng.randrange(k)], weights) for k in range(1, n)
            ]
            # ...and one more statement fixes that unknown.
            if rng.random() < cfg.no_anchor_probability:
                a, b = rng.sample(range(n), 2)
                closing: Statement = ("sum", a, b, weights[a] + weights[b])
            else:
                a = rng.randrange(n)
                closing = ("weighs", a, -1, weights[a])
            statements.append(closing)
            if _rank(statements, n) < n:
                continue
            rng.shuffle(statements)
            prompt = PROMPT_TEMPLATE.format(
                count=n,
                boxes=", ".join(sorted(names)),
                statements="\n".join(f"- {_sentence(st, names)}" for st in statements),
            )
            answer = ", ".join(names[i] for i in sorted(range(n), key=lambda i: weights[i]))
            return Puzzle(prompt=prompt, answer=answer)
        raise RuntimeError(f"weighted_ordering {cfg}: no determined system found")

    def normalise(self, text: str) -> str | None:
        """Colours in order, any case, separated by commas, semicolons, spaces, 'then' or 'and'.

        Every other word must be a colour of the palette (``COLOURS``), so a sentence such as
        a refusal is no answer rather than a wrong list. '<' and '>' are not accepted: their
        direction would be ambiguous.
        """
        if not isinstance(text, str) or not _ORDER_TEXT.fullmatch(text):
            return None
        words = [w for w in re.split(r"[\s,;.]+", text.lower()) if w and w not in _FILLER]
        if not words or any(w not in _COLOUR_NAMES for w in words):
            return None
        return ", ".join(_COLOUR_NAMES[w] for w in words)
