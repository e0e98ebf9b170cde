"""Weighted ordering: work out box weights from relations between them, then sort the boxes.

Each instance draws distinct whole-number weights for 5-6 coloured boxes and states relations
that pin every weight down: differences ("3 kg heavier"), ratios ("twice as much"), sums ("together
weigh 19 kg") along a random spanning tree, closed either by one absolute weight or by one more
sum around a cycle. The generator checks (exact rational elimination) that the statements have
exactly one solution, so the order from lightest to heaviest is unique.

Why tier 3: the statements only partly reveal the order (a sum says nothing about which of its
two boxes is heavier), so sorting needs the actual weights; a good share of instances have no
absolute weight at all and must be solved as a small linear system around a cycle of relations.

Open-ended difficulty (suite v2, ``difficulty(d)``): ``n = 3 + d`` boxes (capped at
``MAX_BOXES``, d=21), weights up to ``20 + 10 d`` kg, and exactly ``n`` statements, none of them
redundant. d=0-1 give one box's weight and chain the rest from it (d=0: differences only; d=1
adds "twice"/"three times" and pair sums); from d=2 no weight is given, so the reasoner must
carry an unknown around a cycle; from d=3 a closing statement may tie three boxes ("the red,
blue and green boxes together weigh 40 kg", "the red box weighs as much as the blue box and the
green box together"); and every third step from d=6 splits the relations into one more
separate chain (``components``), each with its own unknown, that only the closing statements
tie together, so ever more unknowns must be solved for at once (up to ``n // 2``). Bigger
weights keep the arithmetic growing at every step.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register


@dataclass(frozen=True)
class WeightedOrderingConfig:
    """Number of boxes, weight range, and how often the system has no absolute weight.

    v2 (``components >= 1``): exactly ``max_items`` boxes; the relations form ``components``
    separate trees, closed by one statement per tree (a weight when the probability is 0, else
    sums naming boxes of several trees); the prompt shows a placeholder answer.
    """

    min_items: int
    max_items: int
    min_weight: int
    max_weight: int
    no_anchor_probability: float  # chance of closing the system with a sum instead of a weight
    components: int = 0  # v2: separate chains of relations (0: v1 generation and prompt)
    times: bool = True  # v2: "twice"/"three times" and pair sums may link boxes
    triples: bool = False  # v2: closing statements may name three boxes


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

# v2: more colours for longer orders (sorted; none is a filler word, "teal" or "violet").
EXTRA_COLOURS: tuple[str, ...] = (
    "amber", "beige", "coral", "cream", "cyan", "gold", "indigo", "ivory", "khaki", "lilac",
    "lime", "maroon", "navy", "olive", "peach", "plum",
)  # fmt: skip
ALL_COLOURS: tuple[str, ...] = tuple(sorted(COLOURS + EXTRA_COLOURS))
MAX_BOXES = 24

V2_PROMPT_TEMPLATE = """\
There are {count} boxes: {boxes}. Every box has a different weight, a whole number of \
kilograms. All of the following statements are true:

{statements}

List the boxes from lightest to heaviest.
Write the colours of all {count} boxes in order from lightest to heaviest, separated by ", ".
Put your final answer inside <answer></answer> tags, in this form with every "colour" replaced \
by a box's colour: <answer>colour, colour, ..., colour</answer>"""

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


# ---------------------------------------------------------------- v2

# A v2 statement: (kind, boxes, number); kinds are v1's plus "sum3" (three boxes weigh k kg
# together) and "balance" (the first box weighs as much as the other two together).
Relation = tuple[str, tuple[int, ...], int]
_PRIME = (1 << 61) - 1  # full rank modulo a prime implies full rank over the rationals


def _v2_relation(rng: random.Random, a: int, b: int, w: list[int], times: bool) -> Relation:
    """A random true statement linking boxes ``a`` and ``b`` (differences only without times)."""
    heavy, light = (a, b) if w[a] > w[b] else (b, a)
    if times and w[heavy] in (2 * w[light], 3 * w[light]) and rng.random() < 0.6:
        return ("times", (heavy, light), w[heavy] // w[light])
    if times and rng.random() < 0.3:
        return ("sum", (a, b), w[a] + w[b])
    if rng.random() < 0.5:
        return ("heavier", (heavy, light), w[heavy] - w[light])
    return ("lighter", (light, heavy), w[heavy] - w[light])


def _v2_closing(
    rng: random.Random, first: int, boxes: list[int], w: list[int], triples: bool
) -> Relation:
    """A sum naming ``first`` and one or two other boxes, or (when the weights allow) a
    balance of ``first`` and two others where one weighs as much as the other two."""
    others = [x for x in boxes if x != first]
    if triples and rng.random() < 0.5:
        trios = [sorted((first, b, c), key=lambda x: -w[x]) for b, c in combinations(others, 2)]
        balanced = [tuple(t) for t in trios if w[t[0]] == w[t[1]] + w[t[2]]]
        if balanced and rng.random() < 0.5:
            return ("balance", rng.choice(balanced), 0)
        b, c = rng.sample(others, 2)
        return ("sum3", (first, b, c), w[first] + w[b] + w[c])
    b = rng.choice(others)
    return ("sum", (first, b), w[first] + w[b])


def _full_rank(relations: list[Relation], n: int) -> bool:
    """Whether the statements fix every weight (their coefficient matrix has rank ``n``)."""
    coefficient = {"weighs": (1,), "times": (1, 0), "sum": (1, 1), "sum3": (1, 1, 1)}
    coefficient |= {"heavier": (1, -1), "lighter": (1, -1), "balance": (1, -1, -1)}
    rows = []
    for kind, boxes, k in relations:
        row = [0] * n
        for box, c in zip(boxes, coefficient[kind]):
            row[box] = c if kind != "times" or box == boxes[0] else -k
        rows.append(row)
    for col in range(n):
        pivot = next((r for r in range(col, len(rows)) if rows[r][col] % _PRIME), None)
        if pivot is None:
            return False
        rows[col], rows[pivot] = rows[pivot], rows[col]
        inverse = pow(rows[col][col], -1, _PRIME)
        for r in range(col + 1, len(rows)):
            if rows[r][col] % _PRIME:
                f = rows[r][col] * inverse % _PRIME
                rows[r] = [(x - f * y) % _PRIME for x, y in zip(rows[r], rows[col])]
    return True


def _v2_sentence(rel: Relation, names: list[str]) -> str:
    kind, boxes, k = rel
    a, *rest = (names[i] for i in boxes)
    if kind == "sum3":
        return f"The {a}, {rest[0]} and {rest[1]} boxes together weigh {k} kg."
    if kind == "balance":
        return f"The {a} box weighs as much as the {rest[0]} box and the {rest[1]} box together."
    return _sentence((kind, boxes[0], boxes[1] if rest else -1, k), names)


def _generate_v2(rng: random.Random, cfg: WeightedOrderingConfig) -> Puzzle:
    """Relations along ``components`` random trees, one closing statement per tree."""
    n, c = cfg.max_items, cfg.components
    for _ in range(_MAX_ATTEMPTS):
        names = rng.sample(ALL_COLOURS, n)
        weights = rng.sample(range(cfg.min_weight, cfg.max_weight + 1), n)
        order = list(range(n))
        rng.shuffle(order)
        tree = {box: t for t, box in enumerate(order[:c])}
        relations: list[Relation] = []
        for k in range(c, n):
            other = order[rng.randrange(k)]
            tree[order[k]] = tree[other]
            relations.append(_v2_relation(rng, order[k], other, weights, cfg.times))
        for t in range(c):
            first = rng.choice([box for box in range(n) if tree[box] == t])
            if cfg.no_anchor_probability == 0:
                relations.append(("weighs", (first,), weights[first]))
            else:
                relations.append(_v2_closing(rng, first, list(range(n)), weights, cfg.triples))
        if not _full_rank(relations, n):
            continue
        rng.shuffle(relations)
        prompt = V2_PROMPT_TEMPLATE.format(
            count=n,
            boxes=", ".join(sorted(names)),
            statements="\n".join(f"- {_v2_sentence(rel, names)}" for rel in relations),
        )
        answer = ", ".join(names[i] for i in sorted(range(n), key=lambda i: weights[i]))
        return Puzzle(prompt=prompt, answer=answer)
    raise RuntimeError(f"weighted_ordering {cfg}: no determined system found")


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


_COLOUR_NAMES = _spellings(ALL_COLOURS)


@register
class WeightedOrdering(Family):
    name = "weighted_ordering"
    tiers = TIERS

    def difficulty(self, d: int) -> WeightedOrderingConfig:
        """One more box per step (to ``MAX_BOXES``), heavier weights every step, richer
        statements over d=0..3 and one more separate chain every third step from d=6."""
        if d < 0:
            raise ValueError(f"difficulty must be >= 0, got {d}")
        n = min(3 + d, MAX_BOXES)
        return WeightedOrderingConfig(
            min_items=n,
            max_items=n,
            min_weight=1,
            max_weight=20 + 10 * d,
            no_anchor_probability=0.0 if d <= 1 else 1.0,
            components=min(1 + max(0, d - 3) // 3, n // 2),
            times=d >= 1,
            triples=d >= 3,
        )

    def generate(self, rng: random.Random, cfg: WeightedOrderingConfig) -> Puzzle:
        if cfg.components:
            return _generate_v2(rng, cfg)
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
