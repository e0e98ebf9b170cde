"""Zebra puzzles: place people and their attributes in a row of houses from a set of clues.

Each question draws one of four sizes (3 houses x 3 attributes up to 5 x 5), a random hidden
assignment, and then clues that are true of it: clues are added, each chosen to rule out the
current second solution, until exactly one assignment remains; then every clue that the others
already imply is removed, in random order, so the final set is minimal. A constraint-propagation
solver (position domains as bitmasks, all-different per attribute, depth-first search stopping at
two solutions) checks uniqueness at every step.

Why it is hard: the clues are minimal, so no clue can be skipped, and the harder sizes mix
relative clues (somewhere left of, directly left of, next to, strictly between, not the same
person) whose consequences only appear after chaining several of them; the questions prefer
facts that no single clue states.

Open-ended difficulty (``difficulty_config(d)``): d = 0 is the v1 mix of the four sizes. From
d = 1 the grid grows one house or one attribute a step (houses x attributes): 5x5, 6x5, 6x6,
7x6, 7x7, 8x7, then 8x8 at d = 7-12 (about 0.8 s a question, at most 2 s) and 9x8 from d = 13
(about 2 s, at most 6 s; past that, proving a unique solution slows steeply in pure Python),
drawn from wider lists of ten values and ten attributes. From d = 4 the clue mix moves weight
from "X is Y" to the relative clues. One question per house, each about a fact no single clue
states where possible, and from d = 8 one more question a step (d = 12: 13 questions on 8x8;
d = 20: 22 on 9x8). ZebraLogic found accuracy collapses once the search space passes ~10^7: it
is 10^10.4 at d = 1, 10^22 at d = 4 (7x6), 10^36.8 from d = 7 and 10^44.5 from d = 13.
Questions at d >= 1 record ``search_space_log10`` (log10 of (houses!)^attributes), ``clues``
and ``search_guesses``: how many guesses the generator's solver (propagation, then depth-first
guessing) made to prove the solution unique.

Scoring, as LiveBench's zebra_puzzle scores it (checked against its
process_results/reasoning/zebra_puzzle): the reply lists the answers in order, comma-separated;
each is read by finding the one value of the asked attribute it names (names, colours... or a
house number). The score is (all answers correct + fraction correct) / 2, so a fully solved grid
scores 1 and every extra right answer scores more.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Any

from ladderbench.grading.extract import extract_answer, normalise_text
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register

# ---------------------------------------------------------------- vocabulary


@dataclass(frozen=True)
class Attribute:
    """One attribute kind: its label in questions, its values and how a person is described."""

    key: str
    label: str  # "What is the <label> of ...?"
    heading: str  # the line listing the values in the prompt
    phrase: str  # a noun phrase for the person holding value {v}
    values: tuple[str, ...]


ATTRIBUTES: dict[str, Attribute] = {
    a.key: a
    for a in (
        Attribute(
            "name",
            "name",
            "Names",
            "{v}",
            ("Alice", "Bruno", "Carla", "Dmitri", "Elena", "Farid", "Greta", "Hugo"),
        ),
        Attribute(
            "colour",
            "house colour",
            "House colours",
            "the person in the {v} house",
            ("red", "green", "blue", "yellow", "white", "purple", "orange"),
        ),
        Attribute(
            "pet",
            "pet",
            "Pets",
            "the person who owns the {v}",
            ("cat", "dog", "fish", "parrot", "rabbit", "horse", "hamster"),
        ),
        Attribute(
            "drink",
            "drink",
            "Drinks",
            "the person who drinks {v}",
            ("tea", "coffee", "milk", "water", "juice", "cocoa", "lemonade"),
        ),
        Attribute(
            "sport",
            "sport",
            "Sports",
            "the person who plays {v}",
            ("tennis", "golf", "soccer", "hockey", "rugby", "cricket", "baseball"),
        ),
        Attribute(
            "job",
            "job",
            "Jobs",
            "the {v}",
            ("doctor", "teacher", "pilot", "chef", "lawyer", "nurse", "farmer", "artist"),
        ),
        Attribute(
            "music",
            "favourite music",
            "Favourite music",
            "the {v} fan",
            ("jazz", "rock", "blues", "folk", "techno", "opera", "reggae"),
        ),
        Attribute(
            "food",
            "favourite food",
            "Favourite foods",
            "the person who loves {v}",
            ("pizza", "sushi", "pasta", "tacos", "curry", "salad", "soup"),
        ),
    )
}

# For d >= 1 only (d = 0 draws from ATTRIBUTES as they stand): every attribute reaches ten
# values, and two more attributes allow grids up to 10 x 10.
MORE_VALUES: dict[str, tuple[str, ...]] = {
    "name": ("Ines", "Jonas"),
    "colour": ("black", "pink", "grey"),
    "pet": ("turtle", "lizard", "ferret"),
    "drink": ("cider", "smoothie", "kefir"),
    "sport": ("volleyball", "badminton", "cycling"),
    "job": ("baker", "plumber"),
    "music": ("funk", "punk", "salsa"),
    "food": ("ramen", "paella", "falafel"),
}
MORE_ATTRIBUTES: tuple[Attribute, ...] = (
    Attribute(
        "instrument",
        "instrument",
        "Instruments",
        "the person who plays the {v}",
        (
            "piano",
            "violin",
            "cello",
            "flute",
            "guitar",
            "drums",
            "harp",
            "trumpet",
            "banjo",
            "ukulele",
        ),
    ),
    Attribute(
        "flower",
        "flower",
        "Flowers",
        "the person who grows {v}",
        (
            "roses",
            "tulips",
            "lilies",
            "daisies",
            "orchids",
            "peonies",
            "irises",
            "poppies",
            "dahlias",
            "violets",
        ),
    ),
)
WIDE_ATTRIBUTES: dict[str, Attribute] = {
    **{
        k: Attribute(a.key, a.label, a.heading, a.phrase, a.values + MORE_VALUES[k])
        for k, a in ATTRIBUTES.items()
    },
    **{a.key: a for a in MORE_ATTRIBUTES},
}
MAX_SIDE = 10  # every wide attribute has ten values; grids use at most 9 x 8 of them

HOUSE = "house"  # the pseudo-attribute "house number" asked in questions
HOUSE_LABEL = "house number"
NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
ORDINALS = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
)  # fmt: skip
SHORT_ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th")

# Clue kinds. Items are (attribute index, value index) pairs flattened to a*n + v.
POSITION = "position"  # X lives in house k.
NOT_POSITION = "not_position"  # X does not live in house k.
SAME = "same"  # X is Y.
NOT_SAME = "not_same"  # X is not Y.
LEFT_OF = "left_of"  # X lives somewhere to the left of Y.
DIRECTLY_LEFT = "directly_left"  # X lives directly to the left of Y.
NEXT_TO = "next_to"  # X lives next to Y.
BETWEEN = "between"  # Y lives somewhere between X and Z.


@dataclass(frozen=True)
class ZebraConfig:
    """Difficulty: grid size, how many questions, and the clue kinds with their draw weights."""

    name: str
    houses: int
    attributes: int
    questions: int
    kinds: tuple[tuple[str, int], ...]
    max_clue_draws: int = 400


CONFIGS: tuple[ZebraConfig, ...] = (
    ZebraConfig(
        "3x3",
        houses=3,
        attributes=3,
        questions=3,
        kinds=((POSITION, 2), (SAME, 3), (NOT_SAME, 2), (LEFT_OF, 2)),
    ),
    ZebraConfig(
        "4x4",
        houses=4,
        attributes=4,
        questions=4,
        kinds=(
            (POSITION, 2),
            (NOT_POSITION, 1),
            (SAME, 3),
            (NOT_SAME, 2),
            (LEFT_OF, 2),
            (DIRECTLY_LEFT, 2),
            (NEXT_TO, 2),
        ),
    ),
    ZebraConfig(
        "5x4",
        houses=5,
        attributes=4,
        questions=4,
        kinds=(
            (POSITION, 1),
            (NOT_POSITION, 1),
            (SAME, 3),
            (NOT_SAME, 2),
            (LEFT_OF, 2),
            (DIRECTLY_LEFT, 2),
            (NEXT_TO, 2),
            (BETWEEN, 2),
        ),
    ),
    ZebraConfig(
        "5x5",
        houses=5,
        attributes=5,
        questions=5,
        kinds=(
            (POSITION, 1),
            (NOT_POSITION, 1),
            (SAME, 3),
            (NOT_SAME, 2),
            (LEFT_OF, 2),
            (DIRECTLY_LEFT, 2),
            (NEXT_TO, 3),
            (BETWEEN, 2),
        ),
    ),
)


def difficulty_config(d: int) -> ZebraConfig:
    """The config at difficulty ``d`` >= 1 (d = 0 draws one of ``CONFIGS``): see the docstring."""
    if d < 1:
        raise ValueError(f"zebra difficulty_config(d) takes d >= 1, got {d}")
    if d <= 7:
        houses, attributes = 5 + d // 2, 5 + (d - 1) // 2
    else:  # generating (proving uniqueness) slows steeply past 8x8: questions grow instead
        houses, attributes = (8 if d <= 12 else 9), 8
    shift = 1 if d >= 4 else 0  # weight moved from stated facts to relative clues
    return ZebraConfig(
        f"{houses}x{attributes}",
        houses=houses,
        attributes=attributes,
        questions=houses + max(0, d - 7),
        kinds=(
            (POSITION, 1),
            (NOT_POSITION, 1),
            (SAME, 3 - shift),
            (NOT_SAME, 2),
            (LEFT_OF, 2 + shift),
            (DIRECTLY_LEFT, 2),
            (NEXT_TO, 3 + shift),
            (BETWEEN, 2 + shift),
        ),
    )


PROMPT_TEMPLATE = """\
There are {n} houses in a row, numbered 1 to {n} from left to right. One person lives in each \
house. The {n} people differ in every attribute listed below: each value belongs to exactly one \
person.

{attribute_lines}

Conventions: "to the left of" means in a lower-numbered house. "Somewhere to the left of" allows \
any number of houses in between; "directly to the left of" means in the house numbered exactly \
one lower. "Next to" means in a neighbouring house (numbers differing by one). "Y lives somewhere \
between X and Z" means Y's house number lies strictly between those of X and Z, in either order. \
"X is Y" means X and Y are the same person; "X is not Y" means they are different people.

Clues:
{clues}

The clues allow exactly one arrangement. Answer these questions:
{questions}

Give the {q} answers in order, separated by commas, each as one value from the lists above (a \
house as its number), for example: <solution>answer1, answer2, ...</solution>
Put your final answer inside <solution></solution> tags."""

# ---------------------------------------------------------------- the solver


@dataclass(frozen=True)
class Clue:
    kind: str
    items: tuple[int, ...]  # flattened item indices
    house: int = -1  # 0-based house for POSITION / NOT_POSITION


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    return _BITS[mask] if mask < len(_BITS) else _bits_slow(mask)


def _bits_slow(mask: int) -> list[int]:
    return [p for p in range(mask.bit_length()) if mask >> p & 1]


_BITS: tuple[list[int], ...] = tuple(_bits_slow(m) for m in range(1 << MAX_SIDE))


# A clue compiled for the solver: (kind, x, y, z, house), unused slots 0 / -1.
_Compiled = tuple[str, int, int, int, int]


def _compile(clue: Clue) -> _Compiled:
    items = (*clue.items, 0, 0)
    return (clue.kind, items[0], items[1], items[2], clue.house)


def _revise(clue: _Compiled, dom: list[int], full: int) -> bool:
    """Narrow the domains of the clue's items; False when one becomes empty."""
    kind, x, y, z, house = clue
    dx = dom[x]
    if kind == POSITION:
        dom[x] = dx & (1 << house)
        return dom[x] != 0
    if kind == NOT_POSITION:
        dom[x] = dx & ~(1 << house)
        return dom[x] != 0
    dy = dom[y]
    if kind == SAME:
        nx = ny = dx & dy
    elif kind == NOT_SAME:
        nx, ny = dx, dy
        if dx & (dx - 1) == 0:
            ny = dy & ~dx
        if dy & (dy - 1) == 0:
            nx = dx & ~dy
    elif kind == LEFT_OF:
        if not dx or not dy:
            return False
        nx = dx & ((1 << (dy.bit_length() - 1)) - 1)
        lowest_x = (dx & -dx).bit_length() - 1
        ny = dy & ~((1 << (lowest_x + 1)) - 1)
    elif kind == DIRECTLY_LEFT:
        nx = dx & (dy >> 1)
        ny = dy & (dx << 1) & full
    elif kind == NEXT_TO:
        nx = dx & ((dy << 1) | (dy >> 1)) & full
        ny = dy & ((dx << 1) | (dx >> 1)) & full
    elif kind == BETWEEN:  # y strictly between x and z
        nx, ny, nz = _between(dx, dy, dom[z], full)
        dom[z] = nz
        if not nz:
            return False
    else:
        raise ValueError(f"unknown clue kind {kind!r}")
    dom[x], dom[y] = nx, ny
    return bool(nx and ny)


_BETWEEN_CACHE: dict[tuple[int, int, int, int], tuple[int, int, int]] = {}


def _between(dx: int, dy: int, dz: int, full: int) -> tuple[int, int, int]:
    """Supported positions of x, y, z for 'y strictly between x and z' (either order)."""
    key = (dx, dy, dz, full)
    cached = _BETWEEN_CACHE.get(key)
    if cached is None:
        cached = _BETWEEN_CACHE[key] = _between_uncached(dx, dy, dz, full)
    return cached


def _between_uncached(dx: int, dy: int, dz: int, full: int) -> tuple[int, int, int]:

    def below(p: int) -> int:
        return (1 << p) - 1

    def above(p: int) -> int:
        return full & ~((1 << (p + 1)) - 1)

    ny = 0
    for q in _bits(dy):
        if (dx & below(q) and dz & above(q)) or (dx & above(q) and dz & below(q)):
            ny |= 1 << q

    def outer(d_end: int, d_other: int) -> int:
        keep = 0
        for p in _bits(d_end):
            for q in _bits(ny):
                if (q > p and d_other & above(q)) or (q < p and d_other & below(q)):
                    keep |= 1 << p
                    break
        return keep

    return outer(dx, dz), ny, outer(dz, dx)


def _propagate(dom: list[int], clues: list[_Compiled], n: int, n_attr: int) -> bool:
    """Run clues and all-different to a fixpoint; False on a contradiction."""
    full = (1 << n) - 1
    while True:
        before = list(dom)
        for clue in clues:
            if not _revise(clue, dom, full):
                return False
        for base in range(0, n * n_attr, n):
            # Naked singles: a settled item's house is taken from the others.
            settled = 0
            for i in range(base, base + n):
                d = dom[i]
                if d & (d - 1) == 0:
                    if settled & d:
                        return False
                    settled |= d
            # Hidden singles: a house only one item can take belongs to it.
            once = twice = 0
            for i in range(base, base + n):
                d = dom[i]
                if d & (d - 1):
                    d &= ~settled
                    if not d:
                        return False
                    dom[i] = d
                twice |= once & d
                once |= d
            if once != full:
                return False
            unique = once & ~twice
            if unique:
                for i in range(base, base + n):
                    u = dom[i] & unique
                    if u:
                        if u & (u - 1):
                            return False
                        dom[i] = u
        if dom == before:
            return True


def solve(
    clues: list[Clue], n: int, n_attr: int, limit: int = 2, effort: list[int] | None = None
) -> list[tuple[int, ...]]:
    """Up to ``limit`` solutions, each the 0-based house of every item; ``effort`` gets the
    number of guesses the search made (0: propagation alone settled the grid)."""
    full = (1 << n) - 1
    dom = [full] * (n * n_attr)
    found: list[tuple[int, ...]] = []
    compiled = [_compile(c) for c in clues]
    # Unary clues hold once applied (domains only shrink): apply them at the root only.
    for c in compiled:
        if c[0] in (POSITION, NOT_POSITION) and not _revise(c, dom, full):
            return found
    compiled = [c for c in compiled if c[0] not in (POSITION, NOT_POSITION)]
    if not _propagate(dom, compiled, n, n_attr):
        return found

    def search(dom: list[int]) -> bool:
        best, best_count = -1, n + 1
        for i, d in enumerate(dom):
            c = d.bit_count()
            if 1 < c < best_count:
                best, best_count = i, c
                if c == 2:
                    break
        if best < 0:
            found.append(tuple(d.bit_length() - 1 for d in dom))
            return len(found) >= limit
        for p in _bits(dom[best]):
            guesses[0] += 1
            child = list(dom)
            child[best] = 1 << p
            if _propagate(child, compiled, n, n_attr) and search(child):
                return True
        return False

    guesses = [0]
    search(dom)
    if effort is not None:
        effort.append(guesses[0])
    return found


def _holds(clue: Clue, pos: tuple[int, ...]) -> bool:
    """Whether the clue is true of the complete assignment ``pos``."""
    p = [pos[i] for i in clue.items]
    kind = clue.kind
    if kind == POSITION:
        return p[0] == clue.house
    if kind == NOT_POSITION:
        return p[0] != clue.house
    if kind == SAME:
        return p[0] == p[1]
    if kind == NOT_SAME:
        return p[0] != p[1]
    if kind == LEFT_OF:
        return p[0] < p[1]
    if kind == DIRECTLY_LEFT:
        return p[0] + 1 == p[1]
    if kind == NEXT_TO:
        return abs(p[0] - p[1]) == 1
    if kind == BETWEEN:
        return p[0] < p[1] < p[2] or p[2] < p[1] < p[0]
    raise ValueError(f"unknown clue kind {kind!r}")


# ---------------------------------------------------------------- generation


def _draw_clue(rng: random.Random, kind: str, at: list[list[int]], n: int) -> Clue | None:
    """A random clue of ``kind`` true of the solution; ``at[h][a]`` is the item in house h."""
    n_attr = len(at[0])

    def item(h: int, a: int | None = None) -> int:
        return at[h][rng.randrange(n_attr) if a is None else a]

    if kind in (POSITION, NOT_POSITION):
        h = rng.randrange(n)
        x = item(h)
        if kind == POSITION:
            return Clue(kind, (x,), h)
        return Clue(kind, (x,), rng.choice([k for k in range(n) if k != h]))
    if kind in (SAME, NOT_SAME):
        a, b = rng.sample(range(n_attr), 2)
        h = rng.randrange(n)
        other = h if kind == SAME else rng.choice([k for k in range(n) if k != h])
        return Clue(kind, (item(h, a), item(other, b)))
    if kind == LEFT_OF:
        h, k = sorted(rng.sample(range(n), 2))
        return Clue(kind, (item(h), item(k)))
    if kind == DIRECTLY_LEFT:
        h = rng.randrange(n - 1)
        return Clue(kind, (item(h), item(h + 1)))
    if kind == NEXT_TO:
        h = rng.randrange(n - 1)
        pair = [item(h), item(h + 1)]
        rng.shuffle(pair)
        return Clue(kind, tuple(pair))
    if kind == BETWEEN:
        if n < 3:
            return None
        lo, mid, hi = sorted(rng.sample(range(n), 3))
        ends = [item(lo), item(hi)]
        rng.shuffle(ends)
        return Clue(kind, (ends[0], item(mid), ends[1]))
    raise ValueError(f"unknown clue kind {kind!r}")


def _make_clues(
    rng: random.Random, cfg: ZebraConfig, pos: tuple[int, ...], at: list[list[int]]
) -> list[Clue]:
    """A minimal clue set whose only solution is ``pos``."""
    n, n_attr = cfg.houses, cfg.attributes
    kinds = [k for k, _ in cfg.kinds]
    weights = [w for _, w in cfg.kinds]
    clues: list[Clue] = []
    while True:
        sols = solve(clues, n, n_attr)
        if len(sols) == 1:
            break
        rival = sols[0] if sols[0] != pos else sols[1]
        chosen = None
        for _ in range(cfg.max_clue_draws):
            kind = rng.choices(kinds, weights)[0]
            clue = _draw_clue(rng, kind, at, n)
            if clue is not None and clue not in clues and not _holds(clue, rival):
                chosen = clue
                break
        if chosen is None:  # never seen in practice: a position clue always separates
            h = next(h for h in range(n) for a in range(n_attr) if rival[at[h][a]] != h)
            a = next(a for a in range(n_attr) if rival[at[h][a]] != h)
            chosen = Clue(POSITION, (at[h][a],), h)
        clues.append(chosen)
    order = list(range(len(clues)))
    rng.shuffle(order)
    keep = set(order)
    for i in order:
        trial = [clues[j] for j in sorted(keep - {i})]
        if len(solve(trial, n, n_attr)) == 1:
            keep.discard(i)
    final = [clues[j] for j in sorted(keep)]
    rng.shuffle(final)
    return final


# ---------------------------------------------------------------- rendering


def _phrase(attrs: list[Attribute], values: list[list[str]], item: int, n: int) -> str:
    a, v = divmod(item, n)
    return attrs[a].phrase.format(v=values[a][v])


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def render_clue(clue: Clue, attrs: list[Attribute], values: list[list[str]], n: int) -> str:
    """The fixed English sentence for a clue (the tests parse these patterns back)."""
    ph = [_phrase(attrs, values, i, n) for i in clue.items]
    kind = clue.kind
    if kind == POSITION:
        return f"{_cap(ph[0])} lives in house {clue.house + 1}."
    if kind == NOT_POSITION:
        return f"{_cap(ph[0])} does not live in house {clue.house + 1}."
    if kind == SAME:
        return f"{_cap(ph[0])} is {ph[1]}."
    if kind == NOT_SAME:
        return f"{_cap(ph[0])} is not {ph[1]}."
    if kind == LEFT_OF:
        return f"{_cap(ph[0])} lives somewhere to the left of {ph[1]}."
    if kind == DIRECTLY_LEFT:
        return f"{_cap(ph[0])} lives directly to the left of {ph[1]}."
    if kind == NEXT_TO:
        return f"{_cap(ph[0])} lives next to {ph[1]}."
    if kind == BETWEEN:
        return f"{_cap(ph[1])} lives somewhere between {ph[0]} and {ph[2]}."
    raise ValueError(f"unknown clue kind {kind!r}")


def _direct(clues: list[Clue], ref: tuple[str, int], target: tuple[str, int]) -> bool:
    """Whether one clue states the question's answer outright."""
    for c in clues:
        if c.kind == SAME and {ref, target} == {("item", c.items[0]), ("item", c.items[1])}:
            return True
        if c.kind == POSITION and {ref, target} == {("item", c.items[0]), ("house", c.house)}:
            return True
    return False


def _questions(
    rng: random.Random,
    cfg: ZebraConfig,
    pos: tuple[int, ...],
    at: list[list[int]],
    clues: list[Clue],
) -> list[tuple[int | None, tuple[str, int], tuple[str, int]]]:
    """(asked attribute index or None for the house, reference, answer) for each question."""
    n, n_attr = cfg.houses, cfg.attributes
    candidates = []
    for target_attr in [None, *range(n_attr)]:
        for h in range(n):
            refs: list[tuple[str, int]] = [("item", at[h][a]) for a in range(n_attr)]
            if target_attr is not None:
                refs.append(("house", h))
            answer: tuple[str, int] = (
                ("house", h) if target_attr is None else ("item", at[h][target_attr])
            )
            for ref in refs:
                if ref == answer or (ref[0] == "item" and ref[1] // n == target_attr):
                    continue
                candidates.append((target_attr, ref, answer))
    rng.shuffle(candidates)
    indirect = [c for c in candidates if not _direct(clues, c[1], c[2])]
    direct = [c for c in candidates if _direct(clues, c[1], c[2])]
    chosen: list = []
    used: set[int] = set()  # houses (people) already asked about
    for c in indirect + direct:  # questions about different people first, then anything left
        ref = c[1]
        house = ref[1] if ref[0] == "house" else pos[ref[1]]
        if len(chosen) < cfg.questions and house not in used:
            chosen.append(c)
            used.add(house)
    for c in indirect + direct:
        if len(chosen) < cfg.questions and c not in chosen:
            chosen.append(c)
    return chosen


# ---------------------------------------------------------------- reading answers

_OUTER_BRACKETS = re.compile(r"^\s*[(\[{](.*)[)\]}]\s*$", re.S)
_PARENTHETICAL = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_SPLIT = re.compile(r"[,;\n|]+|\s+and\s+|\s+&\s+")
_ENUMERATOR = re.compile(
    r"^\s*(?:(?:q(?:uestion)?\s*\d+|answer\s*\d+)\s*[.:)=\-]?|\d+\s*[.:)]|\(\d+\))\s*(?=\S)", re.I
)
_INLINE_ENUMERATOR = re.compile(
    r"(?:^|\s)(?:q(?:uestion)?\s*\d+\s*[.:)=\-]?|\(\d+\)|\d+\s*[.):])(?=\s)", re.I
)
_LATEX_TEXT = re.compile(r"\\(?:text|textbf|mathrm|mathbf)\s*\{([^{}]*)\}")


def answer_vocabulary(values: list[str], house: bool) -> dict[str, str]:
    """Spelling (casefolded) -> canonical value, for one question's asked attribute."""
    vocab = {v.casefold(): v for v in values}
    if house:
        for v in values:
            k = int(v)
            vocab[NUMBER_WORDS[k - 1]] = v
            vocab[ORDINALS[k - 1]] = v
            vocab[SHORT_ORDINALS[k - 1]] = v
    return vocab


def _read_part(part: str, vocab: dict[str, str]) -> str | None:
    """The one value of the vocabulary a part names, else None."""
    words = re.findall(r"[^\W_]+", part.casefold())
    hits = {vocab[w] for w in words if w in vocab}
    return hits.pop() if len(hits) == 1 else None


def read_answers(text: str, vocabs: list[dict[str, str]]) -> list[str | None]:
    """The value given for each question, in order (None where no single value is readable)."""
    q = len(vocabs)
    text = "\n".join(normalise_text(line) for line in _LATEX_TEXT.sub(r"\1", text).splitlines())
    m = _OUTER_BRACKETS.match(text)
    if m:
        text = m.group(1)
    stripped = _PARENTHETICAL.sub(" ", text)
    if stripped.strip():
        text = stripped
    parts = [_ENUMERATOR.sub("", p).strip() for p in _SPLIT.split(text)]
    parts = [p for p in parts if p.strip(" .:-")]
    if len(parts) != q:  # "1. Alice 2. red 3. 3" on one line
        numbered = [p.strip() for p in _INLINE_ENUMERATOR.split(text) if p.strip(" .:-")]
        if len(numbered) == q:
            parts = numbered
    if len(parts) != q:  # "Alice red 3"
        words = [w for w in re.split(r"[\s,;|]+", text) if w.strip(" .:-")]
        if len(words) == q:
            parts = words
    if len(parts) > q:
        return [None] * q
    got = [_read_part(p, v) for p, v in zip(parts, vocabs)]
    return got + [None] * (q - len(got))


@register
class Zebra(Task):
    name = "zebra"
    category = "reasoning"

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        cfg = rng.choice(CONFIGS) if difficulty == 0 else difficulty_config(difficulty)
        pool = ATTRIBUTES if difficulty == 0 else WIDE_ATTRIBUTES
        n, n_attr = cfg.houses, cfg.attributes
        others = [k for k in pool if k != "name"]
        keys = ["name", *rng.sample(others, n_attr - 1)]
        attrs = [pool[k] for k in keys]
        values = [rng.sample(a.values, n) for a in attrs]  # values[a][v], in listing order
        # The hidden arrangement: at[h][a] is the item of attribute a in house h.
        at = [[0] * n_attr for _ in range(n)]
        pos = [0] * (n * n_attr)
        for a in range(n_attr):
            houses = list(range(n))
            rng.shuffle(houses)
            for v, h in enumerate(houses):
                at[h][a] = a * n + v
                pos[a * n + v] = h
        solution = tuple(pos)
        clues = _make_clues(rng, cfg, solution, at)
        asked = _questions(rng, cfg, solution, at, clues)

        def ref_text(ref: tuple[str, int]) -> str:
            if ref[0] == "house":
                return f"the person in house {ref[1] + 1}"
            return _phrase(attrs, values, ref[1], n)

        def answer_text(ans: tuple[str, int]) -> str:
            if ans[0] == "house":
                return str(ans[1] + 1)
            a, v = divmod(ans[1], n)
            return values[a][v]

        question_lines, answers, asked_keys = [], [], []
        for k, (target, ref, ans) in enumerate(asked, 1):
            label = HOUSE_LABEL if target is None else attrs[target].label
            question_lines.append(f"Q{k}. What is the {label} of {ref_text(ref)}?")
            answers.append(answer_text(ans))
            asked_keys.append(HOUSE if target is None else keys[target])
        attribute_lines = "\n".join(
            f"- {a.heading}: {', '.join(vals)}" for a, vals in zip(attrs, values)
        )
        prompt = PROMPT_TEMPLATE.format(
            n=n,
            attribute_lines=attribute_lines,
            clues="\n".join(
                f"{i}. {render_clue(c, attrs, values, n)}" for i, c in enumerate(clues, 1)
            ),
            questions="\n".join(question_lines),
            q=len(asked),
        )
        fields: dict[str, Any] = {
            "values": {k: list(v) for k, v in zip(keys, values)},
            "asked": asked_keys,
            "houses": n,
        }
        if difficulty:
            effort: list[int] = []
            solve(clues, n, n_attr, effort=effort)
            fields |= {
                "clues": len(clues),
                "search_space_log10": round(n_attr * math.log10(math.factorial(n)), 1),
                "search_guesses": effort[0],
            }
        return Question(
            prompt=prompt,
            ground_truth=", ".join(answers),
            subtask=cfg.name,
            fields=fields,
        )

    def _vocabs(self, record: dict[str, Any]) -> list[dict[str, str]]:
        n = int(record["houses"])
        houses = [str(h) for h in range(1, n + 1)]
        return [
            answer_vocabulary(houses if key == HOUSE else list(record["values"][key]), key == HOUSE)
            for key in record["asked"]
        ]

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        extracted = extract_answer(response)
        if not extracted:
            return verdict(extracted, 0.0)
        try:
            truth = [t.strip() for t in str(record["ground_truth"]).split(",")]
            vocabs = self._vocabs(record)
        except (AttributeError, KeyError, TypeError, ValueError, IndexError):
            return verdict(extracted, 0.0)  # a malformed record
        if len(truth) != len(vocabs):
            return verdict(extracted, 0.0)
        got = read_answers(extracted, vocabs)
        right = sum(g is not None and g == t for g, t in zip(got, truth))
        read = ", ".join(g or "?" for g in got)  # the answers as read, one per question
        return verdict(read, (float(right == len(truth)) + right / len(truth)) / 2)
