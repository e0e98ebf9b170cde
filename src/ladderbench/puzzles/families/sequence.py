"""Sequence: give the next term of an integer sequence that follows one named kind of rule.

The prompt lists every kind of rule the family uses, so the puzzle is well posed; the generator
fits every listed rule to the shown terms and redraws until all rules that fit predict the same
next term. Tier 2 uses the simple rules (constant difference, constant ratio, constant second
difference, sum of the two previous terms, two interleaved arithmetic sequences) on small numbers:
the model has to test a few hypotheses against 5-7 terms. Tier 3 uses rules that need more
working: constant third differences, "times k plus c", and the sum of the three previous terms,
with larger numbers, so several layers of differences or a two-parameter fit are needed.

Suite v2 (``SequenceFamily.difficulty(d)``) states its rule space as a short list of linear forms
(``RuleForm``): ``t(n) = c1*t(n-1) + ... + cK*t(n-K) + a0 + a1*n + ... + aQ*n^Q``, optionally
split into ``m`` interleaved sequences that each follow such a form. Every step of ``d`` widens
the space (so more hypotheses must be ruled out) and deepens what must be fitted:

- a plain polynomial form of degree ``1 + d // 3`` (more layers of differences);
- from d = 1 a recurrence of order ``1 + (d - 1) // 4`` plus a polynomial term of degree
  ``(d - 1) // 3`` (composed rules: "times c plus a0 + a1*n" and up; a linear system to solve);
- from d = 2 an interleaving of ``2 + (d - 2) // 5`` sequences, each a polynomial of degree
  ``1 + (d - 2) // 4``, and from d = 9 each a recurrence of order ``1 + (d - 9) // 6``;
- the asked term lies ``d // 3`` terms past the next one (more steps to carry out exactly);
- enough terms are shown that every form is pinned down: more forms, more terms to read.

An instance draws one form, weighted by its number of unknowns, with random small integer c's
and a's (the last c and the leading a nonzero, so the whole form is needed).

The answer is unique over the whole stated space, with the numbers any reals: for each form, the
fitted parameters form an affine space, and the asked term must take one value on all of it
(checked one term at a time with the nullspace of the fit), or the form must not fit at all.
"""

from __future__ import annotations

import itertools
import operator
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.families.arithmetic import normalise_integer
from ladderbench.puzzles.registry import register


@dataclass(frozen=True)
class RuleForm:
    """``t(n) = c1*t(n-1) + ... + cK*t(n-K) + a0 + a1*n + ... + aQ*n^Q`` for every ``n > K``
    (K = order, Q = degree), followed by each of ``period`` interleaved sequences (1: none)."""

    period: int
    order: int
    degree: int


@dataclass(frozen=True)
class SequenceConfig:
    """Difficulty parameters of one v1 tier or one v2 difficulty. The v2 fields default to v1's
    behaviour (``forms`` empty), so v1 instances regenerate byte for byte."""

    rules: tuple[str, ...]  # the rule kinds instances are drawn from
    min_terms: int
    max_terms: int
    scale: int  # starting values and steps are drawn from about -scale..scale
    max_abs: int  # bound on every shown term and on the answer
    forms: tuple[RuleForm, ...] = ()  # v2: the stated rule space (empty: v1's named rules)
    ahead: int = 0  # v2: how many terms lie between the last shown one and the asked one


TIERS: dict[int, SequenceConfig] = {
    2: SequenceConfig(
        rules=("arithmetic", "geometric", "quadratic", "fibonacci", "interleaved"),
        min_terms=5,
        max_terms=7,
        scale=12,
        max_abs=5_000,
    ),
    3: SequenceConfig(
        rules=("cubic", "affine", "tribonacci"),
        min_terms=6,
        max_terms=7,
        scale=20,
        max_abs=100_000,
    ),
}

PROMPT = """Find the next term of this integer sequence.

{terms}, ...

The sequence follows one of these rules (where more than one rule fits the terms shown, they \
all give the same next term):
- the difference between consecutive terms is constant;
- each term is the previous term multiplied by a fixed number;
- the differences between consecutive terms change by a constant amount (constant second \
differences);
- the second differences change by a constant amount (constant third differences);
- each term is the sum of the two terms before it;
- each term is the sum of the three terms before it;
- each term is the previous term multiplied by a fixed number, plus a fixed number;
- the terms in odd positions and the terms in even positions form two separate sequences, each \
with a constant difference.

What is term number {position}? Give it as an integer inside <answer></answer> tags, for \
example: <answer>42</answer>"""

V2_PROMPT = """Find term t({position}) of this integer sequence t(1), t(2), t(3), ...

{terms}, ...

These are t(1) to t({count}). The sequence follows at least one of the rules below, in which \
the c's and a's are fixed numbers (the same for every n; any of them may be 0, negative or a \
fraction). Every rule below that fits all the terms shown, with any choice of its numbers, gives \
the same t({position}).
{rules}

What is t({position})? Put your final answer, an integer, inside <answer></answer> tags, in the \
form {placeholder} with NUMBER replaced by the term."""

# v2's answer form: a placeholder the normaliser cannot read, so copying it never scores.
PLACEHOLDER = "<answer>NUMBER</answer>"

_MAX_TRIES = 1000


def _nonzero(rng: random.Random, low: int, high: int) -> int:
    return rng.choice([v for v in range(low, high + 1) if v != 0])


def _from_differences(start: list[int], count: int) -> list[int]:
    """Extend a difference table: ``start`` is (a0, d0, second d0, ...) with a constant last."""
    table, terms = list(start), []
    for _ in range(count):
        terms.append(table[0])
        for i in range(len(table) - 1):
            table[i] += table[i + 1]
    return terms


def _draw(rng: random.Random, rule: str, count: int, scale: int) -> list[int]:
    """``count`` terms of a random sequence of the given rule kind."""
    if rule == "arithmetic":
        return _from_differences([rng.randint(-scale, 4 * scale), _nonzero(rng, -9, 12)], count)
    if rule == "quadratic":
        start = [rng.randint(-scale, 3 * scale), rng.randint(-9, 9), _nonzero(rng, -5, 6)]
        return _from_differences(start, count)
    if rule == "cubic":
        start = [rng.randint(-scale, scale), rng.randint(-9, 9), rng.randint(-6, 6)]
        return _from_differences([*start, _nonzero(rng, -4, 4)], count)
    if rule == "geometric":
        terms = [_nonzero(rng, -9, 12)]
        ratio = rng.choice([-3, -2, 2, 3, 4])
    elif rule == "affine":
        terms = [_nonzero(rng, -9, 12)]
        ratio, offset = rng.choice([-3, -2, 2, 3]), _nonzero(rng, -scale, scale)
    elif rule == "interleaved":
        odd = _from_differences([rng.randint(-scale, 3 * scale), _nonzero(rng, -9, 9)], count)
        even = _from_differences([rng.randint(-scale, 3 * scale), _nonzero(rng, -9, 9)], count)
        return [odd[i // 2] if i % 2 == 0 else even[i // 2] for i in range(count)]
    else:  # "fibonacci" or "tribonacci": sum of the previous two or three terms
        width = 2 if rule == "fibonacci" else 3
        terms = [rng.randint(-3, scale) for _ in range(width)]
        while len(terms) < count:
            terms.append(sum(terms[-width:]))
        return terms
    while len(terms) < count:
        terms.append(terms[-1] * ratio + (offset if rule == "affine" else 0))
    return terms


# What each listed rule predicts for the next term, or None when it does not fit the terms.
Predictor = Callable[[Sequence[Fraction]], Fraction | None]


def _constant_differences(order: int) -> Predictor:
    def predict(terms: Sequence[Fraction]) -> Fraction | None:
        rows = [list(terms)]
        for _ in range(order):
            rows.append([b - a for a, b in itertools.pairwise(rows[-1])])
        if not rows[-1] or len(set(rows[-1])) != 1:
            return None
        return sum((row[-1] for row in rows[:-1]), rows[-1][-1])

    return predict


def _geometric(terms: Sequence[Fraction]) -> Fraction | None:
    if any(t == 0 for t in terms):
        return None
    ratios = {b / a for a, b in itertools.pairwise(terms)}
    return terms[-1] * ratios.pop() if len(ratios) == 1 else None


def _sum_of_previous(width: int) -> Predictor:
    def predict(terms: Sequence[Fraction]) -> Fraction | None:
        fits = all(terms[i] == sum(terms[i - width : i]) for i in range(width, len(terms)))
        return sum(terms[-width:], Fraction(0)) if fits and len(terms) > width else None

    return predict


def _affine(terms: Sequence[Fraction]) -> Fraction | None:
    if terms[1] == terms[0]:
        return terms[0] if len(set(terms)) == 1 else None
    factor = (terms[2] - terms[1]) / (terms[1] - terms[0])
    offset = terms[1] - factor * terms[0]
    if any(b != factor * a + offset for a, b in itertools.pairwise(terms)):
        return None
    return factor * terms[-1] + offset


def _interleaved(terms: Sequence[Fraction]) -> Fraction | None:
    same_parity = terms[len(terms) % 2 :: 2]  # the terms the next one continues
    other = terms[1 - len(terms) % 2 :: 2]
    if _constant_differences(1)(other) is None:
        return None
    return _constant_differences(1)(same_parity)


PREDICTORS: dict[str, Predictor] = {
    "arithmetic": _constant_differences(1),
    "geometric": _geometric,
    "quadratic": _constant_differences(2),
    "cubic": _constant_differences(3),
    "fibonacci": _sum_of_previous(2),
    "tribonacci": _sum_of_previous(3),
    "affine": _affine,
    "interleaved": _interleaved,
}


def predictions(terms: Sequence[int]) -> set[Fraction]:
    """Every next term that some listed rule fitting ``terms`` predicts."""
    values = [Fraction(t) for t in terms]
    found = (predict(values) for predict in PREDICTORS.values())
    return {value for value in found if value is not None}


# ---------------------------------------------------------------- v2: linear rule forms


def _formula(form: RuleForm, term: str, index: str) -> str:
    """The form written out, e.g. ``t(n) = c1*t(n-1) + a0 + a1*n for every n >= 2``."""
    parts = [f"c{k}*{term}({index}-{k})" for k in range(1, form.order + 1)]
    parts += ["a0"] + [
        f"a{j}*{index}" + (f"^{j}" if j > 1 else "") for j in range(1, form.degree + 1)
    ]
    return f"{term}({index}) = {' + '.join(parts)} for every {index} >= {form.order + 1}"


def _rule_text(number: int, form: RuleForm) -> str:
    if form.period == 1:
        return f"- Rule {number}: {_formula(form, 't', 'n')}."
    m = form.period
    listing = "; ".join(f"t({r}), t({r + m}), t({r + 2 * m}), ..." for r in range(1, m + 1))
    return (
        f"- Rule {number}: the terms split into {m} interleaved sequences ({listing}), each of "
        f"which follows its own rule (its own c's and a's) {_formula(form, 's', 'i')}, where "
        f"s(i) is the i-th term of that sequence."
    )


def _draw_form(rng: random.Random, form: RuleForm, count: int, scale: int) -> list[int]:
    """``count`` terms that follow ``form`` with random integer numbers; the last c and the
    leading a are nonzero, so the sequence needs the whole form."""
    subsequences = []
    for residue in range(form.period):
        length = len(range(residue, count, form.period))
        cs = [rng.randint(-2, 2) for _ in range(form.order - 1)]
        cs += [rng.choice((-2, -1, 1, 2))] if form.order else []
        poly = [rng.randint(-scale, scale)] + [rng.randint(-3, 3) for _ in range(form.degree)]
        if form.degree:
            poly[-1] = _nonzero(rng, -3, 3)
        values = [rng.randint(-scale, scale) for _ in range(min(form.order, length))]
        for i in range(form.order + 1, length + 1):
            step = sum(c * values[i - 1 - k] for k, c in enumerate(cs, start=1))
            values.append(step + sum(a * i**j for j, a in enumerate(poly)))
        subsequences.append(values)
    return [subsequences[p % form.period][p // form.period] for p in range(count)]


def _unknowns(form: RuleForm) -> int:
    """How many numbers fitting ``form`` takes (its c's and a's, in every interleaved sequence)."""
    return form.period * (form.order + form.degree + 1)


def _features(values: Sequence[Fraction], i: int, form: RuleForm) -> list[Fraction]:
    """What the unknowns (c1..cK, a0..aQ) multiply in the equation for the i-th term (1-based)."""
    previous = [values[i - 1 - k] for k in range(1, form.order + 1)]
    return previous + [Fraction(i**j) for j in range(form.degree + 1)]


def _solve(
    rows: list[list[Fraction]], width: int
) -> tuple[list[Fraction], list[list[Fraction]]] | None:
    """Gaussian elimination of ``rows`` (coefficients, then the right side): one solution and a
    basis of the nullspace, or None when the equations contradict each other."""
    rows = [list(row) for row in rows]
    pivots: list[int] = []
    for col in range(width):
        pick = next((r for r in range(len(pivots), len(rows)) if rows[r][col] != 0), None)
        if pick is None:
            continue
        top = len(pivots)
        rows[top], rows[pick] = rows[pick], rows[top]
        rows[top] = [v / rows[top][col] for v in rows[top]]
        for r, row in enumerate(rows):
            if r != top and row[col] != 0:
                rows[r] = [v - row[col] * p for v, p in zip(row, rows[top])]
        pivots.append(col)
    if any(row[width] != 0 for row in rows[len(pivots) :]):
        return None
    solution = [Fraction(0)] * width
    for r, col in enumerate(pivots):
        solution[col] = rows[r][width]
    basis = []
    for free in (c for c in range(width) if c not in pivots):
        vector = [Fraction(0)] * width
        vector[free] = Fraction(1)
        for r, col in enumerate(pivots):
            vector[col] = -rows[r][free]
        basis.append(vector)
    return solution, basis


_NO_FIT = "no fit"
_UNDETERMINED = "undetermined"


def _forecast(shown: Sequence[int], form: RuleForm, position: int) -> Fraction | str:
    """Term ``position`` (1-based) as ``form`` fitted to ``shown`` predicts it: a value, or
    _NO_FIT, or _UNDETERMINED when the fits that remain disagree (or may disagree) on it."""
    width = form.order + form.degree + 1
    fits = {}
    for residue in range(form.period):
        values = [Fraction(v) for v in shown[residue :: form.period]]
        rows = [
            [*_features(values, i, form), values[i - 1]]
            for i in range(form.order + 1, len(values) + 1)
        ]
        fit = _solve(rows[: width + 2], width)  # usually enough to pin the fit down ...
        if fit is not None and not fit[1]:  # ... and then the other rows only need checking
            if any(sum(map(operator.mul, row, fit[0])) != row[width] for row in rows[width + 2 :]):
                fit = None
        elif fit is not None:
            fit = _solve(rows, width)
        if fit is None:
            return _NO_FIT
        fits[residue] = (values, fit)
    values, (solution, basis) = fits[(position - 1) % form.period]
    while len(values) < (position - 1) // form.period + 1:
        # the next term is one value on every fit exactly when its features miss the nullspace
        features = _features(values, len(values) + 1, form)
        if any(sum(f * v for f, v in zip(features, vector)) != 0 for vector in basis):
            return _UNDETERMINED
        values.append(sum((f * x for f, x in zip(features, solution)), Fraction(0)))
    return values[(position - 1) // form.period]


@register
class SequenceFamily(Family):
    """Continue an integer sequence by one term."""

    name = "sequence"
    tiers = TIERS

    def difficulty(self, d: int) -> SequenceConfig:
        """The config at difficulty ``d`` (see the module docstring for what each step adds)."""
        if d < 0:
            raise ValueError(f"difficulty must be >= 0, not {d}")
        forms = [RuleForm(1, 0, 1 + d // 3)]
        if d >= 1:
            forms.append(RuleForm(1, 1 + (d - 1) // 4, (d - 1) // 3))
        if d >= 2:
            order = 0 if d < 9 else 1 + (d - 9) // 6
            forms.append(RuleForm(2 + (d - 2) // 5, order, 1 + (d - 2) // 4))
        # each sequence of every form shows its K free terms, then one equation per unknown and
        # one more to check the fit
        count = max(f.period * (2 * f.order + f.degree + 3) for f in forms)
        return SequenceConfig(
            rules=(),
            min_terms=count,
            max_terms=count,
            scale=5 + 2 * d,
            max_abs=10 ** (4 + 3 * d),
            forms=tuple(forms),
            ahead=d // 3,
        )

    def _generate_v2(self, rng: random.Random, cfg: SequenceConfig) -> Puzzle:
        count = cfg.max_terms
        position = count + 1 + cfg.ahead
        for _ in range(_MAX_TRIES):
            # the forms with more unknowns are drawn more often, so widening the space at d + 1
            # never makes the drawn rule easier on average
            form = rng.choices(cfg.forms, weights=[_unknowns(f) for f in cfg.forms])[0]
            terms = _draw_form(rng, form, position, cfg.scale)
            shown, answer = terms[:count], terms[-1]
            if len(set(shown)) < 3 or max(abs(t) for t in terms) > cfg.max_abs:
                continue
            found = [_forecast(shown, f, position) for f in cfg.forms]
            if any(value not in (_NO_FIT, Fraction(answer)) for value in found):
                continue
            prompt = V2_PROMPT.format(
                position=position,
                terms=", ".join(map(str, shown)),
                count=count,
                rules="\n".join(_rule_text(k, f) for k, f in enumerate(cfg.forms, start=1)),
                placeholder=PLACEHOLDER,
            )
            return Puzzle(prompt, str(answer))
        raise RuntimeError(f"sequence {cfg}: no unambiguous sequence found")

    def generate(self, rng: random.Random, cfg: SequenceConfig) -> Puzzle:
        if cfg.forms:
            return self._generate_v2(rng, cfg)
        for _ in range(_MAX_TRIES):
            rule = rng.choice(cfg.rules)
            low = 6 if rule == "interleaved" else cfg.min_terms  # 3+ terms per subsequence
            count = rng.randint(low, cfg.max_terms)
            terms = _draw(rng, rule, count + 1, cfg.scale)
            shown, answer = terms[:-1], terms[-1]
            if max(abs(t) for t in terms) > cfg.max_abs or len(set(shown)) < 3:
                continue
            if predictions(shown) != {Fraction(answer)}:
                continue
            prompt = PROMPT.format(terms=", ".join(map(str, shown)), position=count + 1)
            return Puzzle(prompt, str(answer))
        raise RuntimeError(f"sequence {cfg}: no unambiguous sequence found")

    def normalise(self, text: str) -> str | None:
        return normalise_integer(text)
