"""Competition: multi-step word problems in number theory, combinatorics, probability and algebra.

Each question comes from one of twelve parameterised templates (the subtask) filled with fresh
numbers, in the style of AMC/AIME problems: counting with inclusion-exclusion, the Chinese
remainder theorem, committees with restrictions, draws without replacement, dice sums, power
sums of roots, lattice paths through and around points, divisors of a square, coin sequences
without long runs, digit sums, arithmetic sequences and order statistics of dice.

Why it is hard: every problem takes several dependent steps (count, combine, reduce), the
numbers are new, and the answer must be exact: one slip anywhere gives a wrong number.

Difficulty (``at_difficulty(d)``; 0 is v1): each step up enlarges the numbers (more dice, more
flips, larger grids, clubs, exponents, limits and floors, up to caps that keep an exhaustive
check feasible), and from d = 1 on a question combines several templates: ``1 + (d + 1) // 2``
different problems (two at d = 1), answered by the exact sum of their answers, so a question
needs every one of its parts right (d = 12: seven problems; the count grows without bound).

Fetched problems: when ``--sources`` holds ``kind: competition`` problem files (``live fetch``),
each question is the newest one not yet served (material: its statement), asked as written,
whatever the difficulty; the templates are the fallback when there are none. Multiple-choice
problems are scored by the letter or by the text of the chosen option (``extract_choice``);
free answers by exact rational equality, else by the math equivalence of amps_hard (the same
number to 40 digits, or the same function of x), else by equal text after normalisation.

Scoring (1 or 0, no judge): the answer is read with ``extract_answer`` and parsed as an exact
rational number. Integers may carry thousands separators ("1,234"), fractions may be plain or
LaTeX ("17/42", "\\frac{17}{42}", "-\\dfrac{17}{42}") and need not be in lowest terms, and a
terminating decimal or percentage counts when it is exactly equal. Rounded decimals, two
different numbers, or anything unparseable score 0.
"""

from __future__ import annotations

import math
import random
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from ladderbench.grading.extract import extract_answer, extract_choice, normalise_text
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register
from ladderbench.live.tasks._fetched import FetchedProblem, next_fresh


@dataclass(frozen=True)
class CompetitionConfig:
    """Difficulty parameters (ranges inclusive)."""

    count_limit: tuple[int, int] = (2000, 9999)  # N in the divisibility count
    crt_floor: tuple[int, int] = (500, 5000)  # the answer must exceed this
    committee_size: tuple[int, int] = (4, 6)
    dice_count: tuple[int, int] = (3, 4)
    dice_sides: tuple[int, int] = (6, 10)
    power_exponent: tuple[int, int] = (3, 6)
    grid: tuple[int, int] = (6, 10)
    divisor_limit: int = 250_000
    coin_flips: tuple[int, int] = (8, 16)
    digit_count: tuple[int, int] = (4, 5)
    order_die_sides: tuple[int, int] = (6, 20)  # two or three rolls
    order_die_sides_four: tuple[int, int] = (6, 12)  # four rolls
    club: tuple[int, int] = (5, 8)  # men, and women, in the committee's club
    parts: int = 1  # templates combined in one question (answer: the sum of theirs)


CONFIG = CompetitionConfig()


def _grown(base: tuple[int, int], d: int, step: int, cap: int) -> tuple[int, int]:
    """A range moved up by ``step`` per difficulty step, neither end above ``cap``."""
    return min(base[0] + step * d, cap), min(base[1] + step * d, cap)


def at_difficulty(d: int) -> CompetitionConfig:
    """The config at difficulty ``d`` (0: v1). Numbers grow with d up to caps that keep an
    exhaustive check feasible; the number of combined templates grows without bound."""
    if d <= 0:
        return CONFIG
    scale = 10 ** min(d, 2)
    return CompetitionConfig(
        count_limit=(2000 * scale, 9999 * scale),
        crt_floor=(500 * 10**d, 5000 * 10**d),
        committee_size=_grown((4, 6), d, 1, 8),
        dice_count=_grown((3, 4), d, 1, 5),
        dice_sides=(6, 10) if d < 2 else (8, 10),
        power_exponent=_grown((3, 6), d, 2, 24),
        grid=_grown((6, 10), d, 1, 10),
        divisor_limit=min(250_000 * 2**d, 2_000_000),
        coin_flips=_grown((8, 16), d, 1, 18),
        digit_count=(5, 5) if d < 3 else (5, 6),
        order_die_sides=_grown((6, 20), d, 2, 30),
        order_die_sides_four=_grown((6, 12), d, 1, 16),
        club=_grown((5, 8), d, 1, 9),
        parts=1 + (d + 1) // 2,
    )


PROMPT_TEMPLATE = """\
{problem}

Give the exact answer as an integer or a fraction (for example 17/42); do not round.
Put your final answer inside <solution></solution> tags."""

COMBINED_INTRO = """\
Solve each of the following {count} problems. The answer to this question is the sum of \
their {count} exact answers."""

CHOICE_PROMPT = """\
{statement}

{choices}

Answer with the letter of the correct choice.
Put your final answer (the letter) inside <solution></solution> tags."""

FREE_PROMPT = """\
{statement}

Give the exact final answer, simplified (do not round unless the problem asks for it).
Put your final answer inside <solution></solution> tags."""

Generated = tuple[str, Fraction]  # (problem text, exact answer)


def _divisibility_count(rng: random.Random, cfg: CompetitionConfig) -> Generated:
    while True:
        a, b, c = sorted(rng.sample(range(2, 16), 3))
        if not (b % a == 0 or c % a == 0 or c % b == 0):
            break
    n = rng.randint(*cfg.count_limit)

    def count(*ds: int) -> int:
        return n // math.lcm(*ds)

    singles = count(a) + count(b) + count(c)
    pairs = count(a, b) + count(a, c) + count(b, c)
    exactly_one = singles - 2 * pairs + 3 * count(a, b, c)
    text = (
        f"How many integers n with 1 ≤ n ≤ {n} are divisible by exactly one of the numbers "
        f"{a}, {b} and {c}?"
    )
    return text, Fraction(exactly_one)


def _crt(rng: random.Random, cfg: CompetitionConfig) -> Generated:
    while True:
        ms = rng.sample(range(3, 18), 3)
        if all(math.gcd(x, y) == 1 for x, y in combinations(ms, 2)):
            break
    rs = [rng.randrange(m) for m in ms]
    floor = rng.randint(*cfg.crt_floor)
    modulus = math.prod(ms)
    x = 0
    for r, m in zip(rs, ms):
        other = modulus // m
        x += r * other * pow(other, -1, m)
    x %= modulus
    answer = x + ((floor - x) // modulus + 1) * modulus  # the least solution above floor
    text = (
        f"Find the smallest integer greater than {floor} that leaves a remainder of {rs[0]} "
        f"when divided by {ms[0]}, a remainder of {rs[1]} when divided by {ms[1]}, and a "
        f"remainder of {rs[2]} when divided by {ms[2]}."
    )
    return text, Fraction(answer)


def _committee(rng: random.Random, cfg: CompetitionConfig) -> Generated:
    men, women = rng.randint(*cfg.club), rng.randint(*cfg.club)
    k = rng.randint(*cfg.committee_size)
    min_w, min_m = rng.randint(1, 2), rng.randint(1, 2)
    pair = rng.choice(["man and woman", "two men", "two women"])
    # how many of the feuding pair are men and women
    pair_m, pair_w = {"man and woman": (1, 1), "two men": (2, 0), "two women": (0, 2)}[pair]
    total = 0
    for w in range(min_w, k - min_m + 1):
        m = k - w
        total += math.comb(women, w) * math.comb(men, m)
        if w >= pair_w and m >= pair_m:  # committees holding both members of the pair
            total -= math.comb(women - pair_w, w - pair_w) * math.comb(men - pair_m, m - pair_m)
    who = {
        "man and woman": "One of the men, Alex, and one of the women, Blair,",
        "two men": "Two of the men, Alex and Dev,",
        "two women": "Two of the women, Blair and Cora,",
    }[pair]
    text = (
        f"A club has {men} men and {women} women. A committee of {k} members is to be formed "
        f"that contains at least {min_w} {'woman' if min_w == 1 else 'women'} and at least "
        f"{min_m} {'man' if min_m == 1 else 'men'}. {who} refuse to serve on the committee "
        f"together. How many different committees are possible?"
    )
    return text, Fraction(total)


def _marbles(rng: random.Random, cfg: CompetitionConfig) -> Generated:
    red, blue, green = rng.randint(3, 6), rng.randint(2, 5), rng.randint(2, 4)
    k = rng.randint(3, 5)
    j = rng.randint(1, k - 1)
    total = red + blue + green
    favourable = sum(
        math.comb(red, j) * math.comb(green, g) * math.comb(blue, k - j - g)
        for g in range(1, k - j + 1)
    )
    text = (
        f"A bag contains {red} red, {blue} blue and {green} green marbles. {k} marbles are "
        f"drawn at random without replacement. What is the probability that exactly {j} of "
        f"the drawn marbles {'is' if j == 1 else 'are'} red and at least one is green?"
    )
    return text, Fraction(favourable, math.comb(total, k))


def _sum_counts(positions: list[Sequence[int]], top: int) -> list[int]:
    """counts[t]: the ways to pick one value per position so that the values sum to t.

    Values lie in 1..top; the table has room for top per position (zeros where unreachable).
    """
    counts = [1]
    for values in positions:
        new = [0] * (len(counts) + top)
        for t, w in enumerate(counts):
            if w:
                for v in values:
                    new[t + v] += w
        counts = new
    return counts


def _dice_sum(rng: random.Random, cfg: CompetitionConfig) -> Generated:
    n, s = rng.randint(*cfg.dice_count), rng.randint(*cfg.dice_sides)
    banned = rng.randint(1, s)
    faces = [f for f in range(1, s + 1) if f != banned]
    ways = _sum_counts([faces] * n, s)
    while True:
        target = rng.randint(n + 2, n * s - 2)
        if ways[target]:
            break
    text = (
        f"{n} fair {s}-sided dice, each with faces numbered 1 to {s}, are rolled. What is "
        f"the probability that no die shows a {banned} and the sum of the numbers shown is "
        f"{target}?"
    )
    return text, Fraction(ways[target], s**n)


def _power_sum(rng: random.Random, cfg: CompetitionConfig) -> Generated:
    p = rng.choice([v for v in range(-7, 8) if v])
    while True:
        r = rng.randint(1, 40)
        q = Fraction(p * p - r, 2)  # ab, from (a + b)^2 = a^2 + b^2 + 2ab
        if q and p * p - 4 * q != 0:
            break
    n = rng.randint(*cfg.power_exponent)
    s = [Fraction(2), Fraction(p)]  # s_k = a^k + b^k = p s_{k-1} - q s_{k-2}
    for _ in range(2, n + 1):
        s.append(p * s[-1] - q * s[-2])
    text = (
        f"The numbers a and b (possibly complex) satisfy a + b = {p} and a^2 + b^2 = {r}. "
        f"Find the value of a^{n} + b^{n}."
    )
    return text, s[n]


def _lattice(rng: random.Random, cfg: CompetitionConfig) -> Generated:
    m, n = rng.randint(*cfg.grid), rng.randint(*cfg.grid)
    while True:
        a, b = rng.randint(1, m - 1), rng.randint(1, n - 1)
        c, d = rng.randint(1, m - 1), rng.randint(1, n - 1)
        if (a, b) != (c, d):
            break

    def paths(x0: int, y0: int, x1: int, y1: int) -> int:
        if x1 < x0 or y1 < y0:
            return 0
        return math.comb(x1 - x0 + y1 - y0, x1 - x0)

    through = paths(0, 0, a, b) * paths(a, b, m, n)
    # those that also pass through (c, d), before or after (a, b)
    both = paths(0, 0, c, d) * paths(c, d, a, b) * paths(a, b, m, n)
    both += paths(0, 0, a, b) * paths(a, b, c, d) * paths(c, d, m, n)
    text = (
        f"A path in the coordinate plane goes from (0, 0) to ({m}, {n}) using unit steps, "
        f"each either one unit right or one unit up. How many such paths pass through the "
        f"point ({a}, {b}) but do not pass through the point ({c}, {d})?"
    )
    return text, Fraction(through - both)


def _square_divisors(rng: random.Random, cfg: CompetitionConfig) -> Generated:
    while True:
        primes = sorted(rng.sample([2, 3, 5, 7, 11, 13], rng.randint(2, 3)))
        exponents = [rng.randint(1, 4) for _ in primes]
        n = math.prod(p**e for p, e in zip(primes, exponents))
        if 1000 <= n <= cfg.divisor_limit:
            break
    tau_n = math.prod(e + 1 for e in exponents)
    tau_n2 = math.prod(2 * e + 1 for e in exponents)
    answer = (tau_n2 - 1) // 2 - (tau_n - 1)
    text = f"Let N = {n}. How many positive divisors of N^2 are less than N but do not divide N?"
    return text, Fraction(answer)


def _coin_runs(rng: random.Random, cfg: CompetitionConfig) -> Generated:
    n = rng.randint(*cfg.coin_flips)
    run = rng.choice([2, 3])
    k = rng.randint(3, (n + 1) // 2 if run == 2 else (2 * n) // 3)
    p_heads = rng.choice(
        [
            Fraction(1, 2),
            Fraction(1, 3),
            Fraction(2, 3),
            Fraction(1, 4),
            Fraction(3, 4),
            Fraction(2, 5),
            Fraction(3, 5),
        ]
    )
    # ways[h][r]: sequences so far with h heads, ending in a run of r heads (r < run)
    ways = [[0] * run for _ in range(n + 1)]
    ways[0][0] = 1
    for _ in range(n):
        new = [[0] * run for _ in range(n + 1)]
        for h in range(n + 1):
            for r in range(run):
                w = ways[h][r]
                if w:
                    new[h][0] += w  # tails
                    if r + 1 < run and h < n:
                        new[h + 1][r + 1] += w  # heads
        ways = new
    banned = (
        "two heads occur on consecutive flips"
        if run == 2
        else "three heads occur on three consecutive flips"
    )
    coin = (
        "A fair coin"
        if p_heads == Fraction(1, 2)
        else f"A biased coin that lands heads with probability {p_heads}"
    )
    text = (
        f"{coin} is flipped {n} times. What is the probability that exactly {k} of the "
        f"flips are heads and no {banned}?"
    )
    return text, sum(ways[k]) * p_heads**k * (1 - p_heads) ** (n - k)


def _digit_sum(rng: random.Random, cfg: CompetitionConfig) -> Generated:
    d = rng.randint(*cfg.digit_count)
    top = rng.randint(6, 9)
    parity = rng.choice(["odd", "even"])
    last_digits = [f for f in range(1, top + 1) if f % 2 == (parity == "odd")]
    counts = _sum_counts([range(1, top + 1)] * (d - 1) + [last_digits], top)
    while True:
        target = rng.randint(d + 3, top * d - 3)
        if counts[target]:
            break
    text = (
        f"How many {d}-digit positive integers are {parity}, have every digit between 1 and "
        f"{top} inclusive, and have digits that sum to {target}?"
    )
    return text, Fraction(counts[target])


def _arithmetic(rng: random.Random, cfg: CompetitionConfig) -> Generated:
    while True:
        i, j = sorted(rng.sample(range(2, 13), 2))
        first = Fraction(rng.randint(-30, 30), rng.choice([1, 2, 3]))
        diff = Fraction(rng.choice([v for v in range(-9, 10) if v]), rng.choice([1, 2, 3, 4]))
        u, v = first + (i - 1) * diff, first + (j - 1) * diff
        if u.denominator == 1 and v.denominator == 1:
            break
    n = rng.randint(15, 40)
    total = n * (2 * first + (n - 1) * diff) / 2
    text = (
        f"In an arithmetic sequence, term number {i} is {int(u)} and term number {j} is "
        f"{int(v)}. What is the sum of the first {n} terms of the sequence?"
    )
    return text, total


def _dice_order(rng: random.Random, cfg: CompetitionConfig) -> Generated:
    rolls = rng.choice([2, 3, 4])
    s = rng.randint(*(cfg.order_die_sides if rolls < 4 else cfg.order_die_sides_four))
    which = rng.choice(["largest", "smallest", "range"] + (["middle"] if rolls == 3 else []))

    def at_most(p: Fraction, stat: str) -> Fraction:
        """P(statistic <= t) when one roll is <= t with probability p."""
        if stat == "largest":
            return p**rolls
        if stat == "smallest":
            return 1 - (1 - p) ** rolls
        return 3 * p**2 * (1 - p) + p**3  # the median of three: at least two rolls <= t

    def expectation(stat: str) -> Fraction:
        return sum(
            (t * (at_most(Fraction(t, s), stat) - at_most(Fraction(t - 1, s), stat)))
            for t in range(1, s + 1)
        ) + Fraction(0)

    if which == "range":  # E[largest - smallest], by linearity
        total = expectation("largest") - expectation("smallest")
        asked = "the difference between the largest and the smallest"
    else:
        total = expectation(which)
        asked = f"the {which}"
    count = {2: "two", 3: "three", 4: "four"}[rolls]
    text = (
        f"A fair {s}-sided die with faces numbered 1 to {s} is rolled {count} times. What is "
        f"the expected value of {asked} of the {count} numbers rolled?"
    )
    return text, Fraction(total)


TEMPLATES: dict[str, Callable[[random.Random, CompetitionConfig], Generated]] = {
    "divisibility_count": _divisibility_count,
    "crt": _crt,
    "committee": _committee,
    "marbles": _marbles,
    "dice_sum": _dice_sum,
    "power_sum": _power_sum,
    "lattice_paths": _lattice,
    "square_divisors": _square_divisors,
    "coin_runs": _coin_runs,
    "digit_sum": _digit_sum,
    "arithmetic_sequence": _arithmetic,
    "dice_order": _dice_order,
}


def format_fraction(value: Fraction) -> str:
    """The canonical answer string: "42" or "-17/42"."""
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


# ---------------------------------------------------------------- reading answers

_UNICODE = {"−": "-", "–": "-", "—": "-", "⁄": "/", "∕": "/", "÷": "/"}
_WRAPPERS = re.compile(r"\\(?:text|mathrm|mathbf|textbf|operatorname|mathit)\s*\{([^{}]*)\}")
_FRAC = re.compile(r"\\[dtc]?frac\s*(?:\{([^{}]*)\}|(\d))\s*(?:\{([^{}]*)\}|(\d))")
_SPACING = re.compile(r"\\[,;:! ]|\\q?quad|\\displaystyle|\\left|\\right|\$|\\\(|\\\)|\\\[|\\\]")
_GROUPED = re.compile(r"(?<![\d.])\d{1,3}(?:,\d{3})+(?![\d,])")
_THIN_GROUPS = re.compile(r"(\d)(?:\{,\}|\u2009|\u202f|\\,)(?=\d{3}(?!\d))")
_NUMBER_IN_BRACKETS = re.compile(r"[({]\s*([-+]?\s*\d+(?:\.\d+)?)\s*[)}]")
_NUMBER = re.compile(
    r"(?<![\w.])([-+]?)\s*(\d+(?:\.\d+)?)(?:\s*/\s*([-+]?)\s*(\d+(?:\.\d+)?))?(\s*%|\s*\\%)?"
)
_APPROX = re.compile(r"\\approx|≈|\\sim\b|~")
_MAX_CHARS = 400


def parse_number(text: str | None) -> Fraction | None:
    """The one exact number an answer states, or None (no number, several, or a bad one)."""
    if not isinstance(text, str) or not text.strip() or len(text) > _MAX_CHARS:
        return None
    for old, new in _UNICODE.items():
        text = text.replace(old, new)
    text = unicodedata.normalize("NFKC", text)
    text = _WRAPPERS.sub(lambda m: m.group(1), text)
    text = _APPROX.split(text)[0]
    text = _THIN_GROUPS.sub(r"\1", text)
    text = _SPACING.sub(" ", text)
    previous = None
    while previous != text:
        previous = text
        text = _FRAC.sub(
            lambda m: f" ({m.group(1) or m.group(2)})/({m.group(3) or m.group(4)}) ", text
        )
    parts = [p for p in text.split("=") if p.strip()]
    if not parts:
        return None
    text = parts[-1]
    text = _GROUPED.sub(lambda m: m.group().replace(",", ""), text)
    previous = None
    while previous != text:
        previous = text
        text = _NUMBER_IN_BRACKETS.sub(lambda m: f" {m.group(1).replace(' ', '')} ", text)
    found = list(_NUMBER.finditer(text))
    if len(found) != 1:
        return None
    sign, num, den_sign, den, percent = found[0].groups()
    try:
        value = Fraction(num)
        if den is not None:
            value /= Fraction(den)
            if den_sign == "-":
                value = -value
    except (ValueError, ZeroDivisionError):
        return None
    if sign == "-":
        value = -value
    if percent:
        value /= 100
    return value


def combined_question(rng: random.Random, cfg: CompetitionConfig) -> Question:
    """``cfg.parts`` different templates (repeats only past all twelve) asked together; the
    answer is the exact sum of their answers."""
    names = sorted(TEMPLATES)
    chosen = rng.sample(names, min(cfg.parts, len(names)))
    chosen += [rng.choice(names) for _ in range(cfg.parts - len(chosen))]
    texts, total = [], Fraction(0)
    for number, name in enumerate(chosen, 1):
        text, answer = TEMPLATES[name](rng, cfg)
        texts.append(f"Problem {number}. {text}")
        total += answer
    problem = "\n\n".join([COMBINED_INTRO.format(count=len(chosen)), *texts])
    return Question(
        prompt=PROMPT_TEMPLATE.format(problem=problem),
        ground_truth=format_fraction(total),
        subtask="combined",
        fields={"parts": chosen},
    )


def fetched_question(problem: FetchedProblem) -> Question:
    """A fetched problem asked as written: by letter when it has choices."""
    fields: dict[str, Any] = {
        "source": problem.source,
        "url": problem.url,
        "title": problem.title,
        "published": problem.published,
    }
    if problem.choices:
        lines = "\n".join(f"({letter}) {text}" for letter, text in problem.choices)
        prompt = CHOICE_PROMPT.format(statement=problem.statement.strip(), choices=lines)
        fields["choices"] = dict(problem.choices)
        subtask = "fetched_choice"
    else:
        prompt = FREE_PROMPT.format(statement=problem.statement.strip())
        subtask = "fetched_answer"
    return Question(
        prompt=prompt,
        ground_truth=problem.answer,
        subtask=subtask,
        fields=fields,
        material=(problem.statement,),
    )


def score_choice(record: dict[str, Any], response: str) -> Verdict:
    """1.0 when the reply picks the right option, by its letter or by its text."""
    choices = record.get("choices")
    if not isinstance(choices, dict) or not all(isinstance(k, str) for k in choices):
        return verdict(None, 0.0)
    letters = "".join(sorted(choices))
    answer = extract_answer(response)
    picked = extract_choice(answer or response, [str(choices[k]) for k in letters], letters)
    if picked is None and answer is not None:
        matching = [k for k in letters if same_free_answer(answer, _bare(str(choices[k])))]
        picked = matching[0] if len(matching) == 1 else None
    return verdict(picked, 1.0 if picked == record.get("ground_truth") else 0.0)


def _bare(text: str) -> str:
    """An option's text without the $...$ math delimiters around it."""
    return text.strip().strip("$").strip()


def same_free_answer(answer: str, truth: str) -> bool:
    """Whether a free answer equals the truth: as exact rationals, else by the math
    equivalence of amps_hard, else as normalised text."""
    value, expected = parse_number(answer), parse_number(truth)
    if expected is not None:
        return value == expected
    from ladderbench.live.tasks.amps_hard.equivalence import same_function, same_number
    from ladderbench.live.tasks.amps_hard.parse import to_sympy

    try:
        candidate, target = to_sympy(answer), to_sympy(truth)
        if target.free_symbols:
            return same_function(candidate, target)
        return same_number(candidate, target)
    except Exception:  # an answer the converter refuses falls back to text
        return normalise_text(_bare(answer)) == normalise_text(_bare(truth))


@register
class Competition(Task):
    name = "competition"
    category = "math"
    uses_sources = True

    def __init__(self, config: CompetitionConfig = CONFIG) -> None:
        self.config = config

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        fetched = next_fresh(sources, "competition", "competition problems")
        if fetched is not None:
            return fetched_question(fetched)
        config = self.config if difficulty <= 0 else at_difficulty(difficulty)
        if config.parts > 1:
            return combined_question(rng, config)
        subtask = rng.choice(sorted(TEMPLATES))
        problem, answer = TEMPLATES[subtask](rng, config)
        prompt = PROMPT_TEMPLATE.format(problem=problem)
        return Question(prompt=prompt, ground_truth=format_fraction(answer), subtask=subtask)

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        if not isinstance(record, dict):
            return verdict(None, 0.0)
        if record.get("subtask") == "fetched_choice":
            return score_choice(record, response)
        answer = extract_answer(response)
        if record.get("subtask") == "fetched_answer":
            truth_text = record.get("ground_truth")
            if not isinstance(truth_text, str) or answer is None:
                return verdict(answer, 0.0)
            return verdict(answer, 1.0 if same_free_answer(answer, truth_text) else 0.0)
        try:
            truth = Fraction(str(record.get("ground_truth")))
        except (ValueError, ZeroDivisionError):  # a malformed record
            return verdict(answer, 0.0)
        value = parse_number(answer)
        return verdict(answer, 1.0 if value is not None and value == truth else 0.0)
