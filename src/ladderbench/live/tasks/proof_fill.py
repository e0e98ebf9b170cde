"""Proof fill: fill the masked expressions of a generated proof from a shuffled candidate list.

As in LiveBench's olympiad task, a proof is shown with some expressions replaced by
``<mask_1>``, ``<mask_2>``, ... and a shuffled list of numbered candidate expressions; the answer
is the list of candidate numbers in mask order. The proofs are generated, so there are
unboundedly many, and every expression in them is computed exactly (polynomials with fraction
coefficients):

* ``sum_induction``: for a random integer polynomial p, the claim p(1) + ⋯ + p(n) = S(n) with
  S = N/L computed exactly, proved by induction: the base case (and checks at n = 2, 3), the
  binomial expansion of every term c·(k + 1)^j of p(k + 1) and of N(k + 1), p(k + 1),
  L·p(k + 1), and both sides of L·S(k) + L·p(k + 1) = L·S(k + 1).
* ``product_expansion``: the expansion of a product of linear factors (a x − r), proved by
  multiplying the factors in one at a time, with checks at x = 0, 1, −1, 2 and −2.

Every proof step with an expression reads "...: LHS = RHS." with LHS fully shown; a mask only
ever replaces a RHS. Masked expressions have pairwise different values and no candidate that is
not the answer has the value of any step, so each masked step is satisfied by exactly one
candidate: the filling is unique (the tests re-check this from the prompt text alone).
Distractors are near misses of masked expressions: a coefficient off by one, a sign flipped,
two coefficients swapped, a number off by one or negated, or a multiple of k(k − 1)(k + 1) (of
k(k − 1) for quadratics) added, which leaves the values at k = −1, 0, 1 unchanged, so checking
a candidate at small numbers does not catch it.

Why it is hard: every candidate looks plausible; telling the right one from its near misses
needs the exact expansion (binomial coefficients, Faulhaber sums with fractions, products of
many factors), and the list offers several near misses for the same step.

Difficulty ``d`` (``config_at(d)``), open-ended: the polynomial p has degree ``1 + d // 2``
(more binomial steps, larger fractions); the product has ``3 + d // 2`` factors, with leading
coefficients up to ``1 + d // 3``; up to ``3 + d`` masks (no more than the proof has steps of
distinct value: about ``6 + d // 2`` for a product at large d) and ``2 + d`` distractors.

Scoring as LiveBench (``proof_rearrangement_process_results`` with edit distance): the numbers
the answer lists, read in order ("<mask_2>" labels dropped), against the true list:
1 - Levenshtein / max(lengths), in [0, 1]. A reply with no number scores 0.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

from rapidfuzz.distance import Levenshtein

from ladderbench.grading.extract import extract_answer, whole_number
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register

SUBTASKS = ("sum_induction", "product_expansion")


@dataclass(frozen=True)
class ProofFillConfig:
    """Difficulty parameters."""

    degree: int  # degree of p in sum_induction
    factors: int  # linear factors in product_expansion
    max_lead: int  # largest leading coefficient of a factor
    masks: int  # masks wanted (capped by the steps of distinct value)
    distractors: int  # near-miss candidates besides the answers


def config_at(d: int) -> ProofFillConfig:
    """The configuration at difficulty ``d`` (see the module docstring)."""
    return ProofFillConfig(
        degree=1 + d // 2, factors=3 + d // 2, max_lead=1 + d // 3, masks=3 + d, distractors=2 + d
    )


# ---------------------------------------------------------------- exact polynomials

Poly = tuple[Fraction, ...]  # coefficients, constant first, no trailing zeros


def poly(coefficients: Sequence[Fraction | int]) -> Poly:
    out = [Fraction(c) for c in coefficients]
    while out and out[-1] == 0:
        out.pop()
    return tuple(out)


def add(a: Poly, b: Poly) -> Poly:
    n = max(len(a), len(b))
    return poly([(a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0) for i in range(n)])


def scale(a: Poly, c: Fraction | int) -> Poly:
    return poly([c * x for x in a])


def mul(a: Poly, b: Poly) -> Poly:
    out = [Fraction(0)] * (len(a) + len(b))
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return poly(out)


def power(a: Poly, n: int) -> Poly:
    out = poly([1])
    for _ in range(n):
        out = mul(out, a)
    return out


def compose(a: Poly, inner: Poly) -> Poly:
    """a(inner(x))."""
    out: Poly = ()
    for c in reversed(a):
        out = add(mul(out, inner), poly([c]))
    return out


def evaluate(a: Poly, x: Fraction | int) -> Fraction:
    return sum((c * Fraction(x) ** i for i, c in enumerate(a)), Fraction(0))


def summation(p: Poly) -> Poly:
    """S with S(n) = p(1) + ⋯ + p(n): interpolated exactly through n = 0 .. deg p + 1."""
    points = range(len(p) + 1)
    values = [sum((evaluate(p, i) for i in range(1, n + 1)), Fraction(0)) for n in points]
    out: Poly = ()
    for n, value in zip(points, values, strict=True):
        basis = poly([1])
        denominator = Fraction(1)
        for m in points:
            if m != n:
                basis = mul(basis, poly([-m, 1]))
                denominator *= n - m
        out = add(out, scale(basis, value / denominator))
    return out


# ---------------------------------------------------------------- rendering

SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _term(c: int, i: int, var: str) -> str:
    """One term's magnitude: "3k²", "k", "7"."""
    if i == 0:
        return str(abs(c))
    body = var + (str(i).translate(SUPERSCRIPT) if i > 1 else "")
    return body if abs(c) == 1 else f"{abs(c)}{body}"


def render_integer(a: Poly, var: str) -> str:
    """An integer polynomial, highest degree first: "3k³ − 2k + 5"."""
    out = ""
    for i in range(len(a) - 1, -1, -1):
        c = int(a[i])
        if c == 0:
            continue
        if not out:
            out = ("−" if c < 0 else "") + _term(c, i, var)
        else:
            out += (" − " if c < 0 else " + ") + _term(c, i, var)
    return out or "0"


def render(a: Poly, var: str) -> str:
    """A polynomial, over one common denominator where its coefficients need one."""
    denominator = lcm(*(c.denominator for c in a)) if a else 1
    if denominator == 1:
        return render_integer(a, var)
    return f"({render_integer(scale(a, denominator), var)})/{denominator}"


# ---------------------------------------------------------------- proofs


@dataclass(frozen=True)
class Step:
    """One line of a proof: prose, then (when ``lhs`` is set) ": LHS = RHS." with the RHS the
    expression of value ``value`` (a polynomial in ``var``; a number is a constant)."""

    prose: str
    lhs: str = ""
    value: Poly = ()
    var: str = ""
    maskable: bool = True  # False where the claim itself shows the value


@dataclass(frozen=True)
class Proof:
    kind: str
    claim: str
    definitions: tuple[str, ...]
    steps: tuple[Step, ...]


def _random_integer_poly(rng: random.Random, degree: int, bound: int) -> Poly:
    while True:
        coefficients = [rng.randint(-bound, bound) for _ in range(degree + 1)]
        if coefficients[-1] != 0 and sum(c != 0 for c in coefficients) >= min(2, degree + 1):
            return poly(coefficients)


def sum_induction(rng: random.Random, cfg: ProofFillConfig) -> Proof:
    p = _random_integer_poly(rng, cfg.degree, 9)
    s = summation(p)
    big_l = lcm(*(c.denominator for c in s))
    k_plus_1 = poly([1, 1])
    p_text, s_text = render(p, "i"), render(s, "n")
    steps = [
        Step(
            "Base case. For n = 1 the left side is the single term p(1), which the right side "
            "S(1) matches",
            "p(1) = S(1)",
            poly([evaluate(p, 1)]),
            "k",
        ),
        *(
            Step(
                f"As a check (not needed for the proof), the formula also holds for n = {n}",
                " + ".join(f"p({i})" for i in range(1, n + 1)) + f" = S({n})",
                poly([evaluate(s, n)]),
                "k",
            )
            for n in (2, 3)
        ),
        Step(
            "Inductive step. Assume that p(1) + p(2) + ⋯ + p(k) = S(k) for some k ≥ 1. Adding "
            "p(k + 1) to both sides, it remains to show that S(k) + p(k + 1) = S(k + 1)."
        ),
    ]
    steps += _term_expansions(p, "p(k + 1)")
    p_next = compose(p, k_plus_1)
    s_next = compose(s, k_plus_1)
    if add(s, p_next) != s_next:  # pragma: no cover - summation is exact
        raise ArithmeticError("S is not the sum of p")
    steps += [
        Step("So the new term is", "p(k + 1)", p_next, "k"),
        Step(f"Multiplied by {big_l}, it reads", f"{big_l}·p(k + 1)", scale(p_next, big_l), "k"),
        *_term_expansions(scale(s, big_l), f"{big_l}·S(k + 1)"),
        Step(
            f"Adding {big_l}·S(k) gives the left side times {big_l}, and substituting k + 1 "
            f"for n in S gives the right side times {big_l}; both expand to the same polynomial",
            f"{big_l}·S(k) + {big_l}·p(k + 1) = {big_l}·S(k + 1)",
            scale(s_next, big_l),
            "k",
        ),
        Step(
            f"Both sides agree, so dividing by {big_l} gives S(k) + p(k + 1) = S(k + 1), and the "
            "claim holds for every positive integer n by induction."
        ),
    ]
    return Proof(
        "sum_induction",
        "p(1) + p(2) + ⋯ + p(n) = S(n) for every positive integer n.",
        (f"p(i) = {p_text}", f"S(n) = {s_text}"),
        tuple(steps),
    )


def _term_expansions(a: Poly, whole: str) -> list[Step]:
    """One step per term c·(k + 1)^j of a(k + 1) with j >= 2: its binomial expansion."""
    steps = []
    for j in range(2, len(a)):
        c = int(a[j])
        if c:
            head = {1: "", -1: "−"}.get(c, _signed(c))
            steps.append(
                Step(
                    f"Expand the degree-{j} term of {whole} by the binomial theorem",
                    f"{head}(k + 1){_sup(j)}",
                    scale(power(poly([1, 1]), j), c),
                    "k",
                )
            )
    return steps


def _sup(j: int) -> str:
    return str(j).translate(SUPERSCRIPT)


def _factor_text(lead: int, root: int, var: str = "x") -> str:
    head = var if lead == 1 else f"{lead}{var}"
    return f"({head} {'−' if root > 0 else '+'} {abs(root)})"


def _factor_at(lead: int, root: int, x: int) -> str:
    shown = f"(−{-x})" if x < 0 else str(x)
    head = shown if lead == 1 else f"{lead}·{shown}"
    return f"({head} {'−' if root > 0 else '+'} {abs(root)})"


def product_expansion(rng: random.Random, cfg: ProofFillConfig) -> Proof:
    factors: list[tuple[int, int]] = []
    while len(factors) < cfg.factors:
        lead, root = rng.randint(1, cfg.max_lead), rng.choice([r for r in range(-9, 10) if r])
        factors.append((lead, root))
    polys = [poly([-root, lead]) for lead, root in factors]
    texts = [_factor_text(lead, root) for lead, root in factors]
    product = polys[0]
    steps = []
    for j in range(1, len(polys)):
        product = mul(product, polys[j])
        steps.append(
            Step(
                "Multiply in the next factor" if j > 1 else "Multiply the first two factors",
                "".join(texts[: j + 1]),
                product,
                "x",
                maskable=j < len(polys) - 1,
            )
        )
    checks = (
        (0, "its constant term"),
        (1, "the sum of its coefficients"),
        (-1, "the sum of its coefficients with alternating signs"),
        (2, "its value there"),
        (-2, "its value there"),
    )
    for x, why in checks:
        steps.append(
            Step(
                f"As a check, the expansion at x = {_signed(x)} ({why}) equals the product there",
                "".join(_factor_at(lead, root, x) for lead, root in factors),
                poly([evaluate(product, x)]),
                "x",
            )
        )
    steps.append(Step("The expansion and its checks agree, which proves the claim."))
    return Proof(
        "product_expansion",
        "f(x) = " + "".join(texts) + " for every x.",
        (f"f(x) = {render(product, 'x')}",),
        tuple(steps),
    )


def _signed(v: int) -> str:
    return f"−{-v}" if v < 0 else str(v)


BUILDERS = {"sum_induction": sum_induction, "product_expansion": product_expansion}


# ---------------------------------------------------------------- masks and distractors


def _key(step: Step) -> tuple[str, Poly]:
    """A step's value, comparable across steps (constants carry no variable)."""
    return ("" if len(step.value) <= 1 else step.var, step.value)


# Added to a polynomial of degree >= 3 (>= 2), these leave its values at k = -1, 0, 1 (0, 1)
# unchanged, so the slip survives a check at small numbers.
_SILENT = (poly([0, -1, 0, 1]), poly([0, -1, 1]))


def _near_miss(rng: random.Random, value: Poly) -> Poly:
    """A value one slip away: a coefficient ±1, a sign flipped, two coefficients swapped, or a
    multiple of k(k − 1)(k + 1) added (invisible at k = −1, 0, 1)."""
    coefficients = list(value) or [Fraction(0)]
    denominator = lcm(*(c.denominator for c in coefficients))
    i = rng.randrange(len(coefficients))
    slip = rng.choice(("plus", "minus", "sign", "swap", "silent"))
    silent = [term for term in _SILENT if len(term) <= len(coefficients)]
    if slip == "silent" and silent:
        step = scale(silent[0], Fraction(rng.choice((-2, -1, 1, 2)), denominator))
        return add(poly(coefficients), step)
    if slip == "sign" and coefficients[i] != 0:
        coefficients[i] = -coefficients[i]
    elif slip == "swap" and len(coefficients) > 1:
        j = (i + 1) % len(coefficients)
        coefficients[i], coefficients[j] = coefficients[j], coefficients[i]
    else:
        coefficients[i] += Fraction(1 if slip != "minus" else -1, denominator)
    return poly(coefficients)


def _masked_steps(rng: random.Random, proof: Proof, wanted: int) -> list[int]:
    """Indices of steps to mask, in proof order: values pairwise different."""
    order = [i for i, step in enumerate(proof.steps) if step.lhs and step.maskable]
    rng.shuffle(order)
    chosen: list[int] = []
    seen: set[tuple[str, Poly]] = set()
    for i in order:
        if len(chosen) == wanted:
            break
        if _key(proof.steps[i]) not in seen:
            seen.add(_key(proof.steps[i]))
            chosen.append(i)
    return sorted(chosen)


def _distractors(
    rng: random.Random, proof: Proof, masked: list[int], count: int
) -> list[tuple[str, Poly]]:
    taken = {_key(step) for step in proof.steps if step.lhs}
    out: list[tuple[str, Poly]] = []
    for _ in range(count * 50):
        if len(out) == count:
            break
        step = proof.steps[rng.choice(masked)]
        value = _near_miss(rng, step.value)
        key = ("" if len(value) <= 1 else step.var, value)
        if key not in taken:
            taken.add(key)
            out.append(key)
    return out


PROMPT_TEMPLATE = """\
Below is a proof in which some expressions have been masked out as <mask_1>, <mask_2>, and \
so on, followed by a shuffled list of candidate expressions.

Definitions:
{definitions}

Claim: {claim}

Proof:
{proof}

Candidate expressions:
{candidates}

Fill every mask with the candidate expression that makes its step correct; each candidate is \
used at most once and some are not used at all. List the expression numbers for <mask_1>, \
<mask_2>, ... in that order, separated by commas, and put your final answer inside \
<solution></solution> tags, for example <solution>{example}</solution>."""


def _line(step: Step, mask: int | None) -> str:
    if not step.lhs:
        return step.prose
    rhs = f"<mask_{mask}>" if mask is not None else render(step.value, step.var)
    return f"{step.prose}: {step.lhs} = {rhs}."


def build_question(rng: random.Random, proof: Proof, cfg: ProofFillConfig) -> Question:
    masked = _masked_steps(rng, proof, cfg.masks)
    answers = [_key(proof.steps[i]) for i in masked]
    candidates = answers + _distractors(rng, proof, masked, cfg.distractors)
    rng.shuffle(candidates)
    number = {key: n for n, key in enumerate(candidates, 1)}
    mask_of = {step: m for m, step in enumerate(masked, 1)}
    lines = [_line(step, mask_of.get(i)) for i, step in enumerate(proof.steps)]
    truth = [number[key] for key in answers]
    prompt = PROMPT_TEMPLATE.format(
        definitions="\n".join(proof.definitions),
        claim=proof.claim,
        proof="\n".join(lines),
        candidates="\n".join(
            f"<expression_{n}> {render(value, var or 'k')}"
            for n, (var, value) in enumerate(candidates, 1)
        ),
        example=", ".join(str(n) for n in range(len(truth), 0, -1)),
    )
    return Question(
        prompt=prompt,
        ground_truth=", ".join(str(n) for n in truth),
        subtask=proof.kind,
        fields={"masks": len(truth), "candidates": len(candidates)},
    )


# ---------------------------------------------------------------- reading answers

_MASK_LABEL = re.compile(r"<?\s*mask[\s_]*\d+\s*>?", re.I)


def read_ids(text: str | None) -> list[int] | None:
    """The expression numbers an answer lists, in order ("<mask_1>: 3" reads as 3)."""
    if not isinstance(text, str):
        return None
    # A number too long for int() names no expression: -1, an id no answer key holds.
    numbers = [whole_number(n) for n in re.findall(r"\d+", _MASK_LABEL.sub(" ", text))]
    return [-1 if n is None else n for n in numbers] or None


def fill_score(given: list[int] | None, truth: list[int]) -> float:
    """LiveBench's edit-distance credit: 1 - Levenshtein / max(lengths); 0 for no answer."""
    if not given or not truth:
        return 0.0
    distance = Levenshtein.distance(given, truth)
    return max(0.0, 1.0 - distance / max(len(given), len(truth)))


def _truth(record: dict[str, Any]) -> list[int] | None:
    text = record.get("ground_truth") if isinstance(record, dict) else None
    if not isinstance(text, str) or not re.fullmatch(r"\d+(, \d+)*", text):
        return None
    return [int(n) for n in text.split(", ")]


@register
class ProofFill(Task):
    name = "proof_fill"
    category = "math"

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        cfg = config_at(difficulty)
        kind = rng.choice(SUBTASKS)
        return build_question(rng, BUILDERS[kind](rng, cfg), cfg)

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        answer = extract_answer(response)
        truth = _truth(record)
        if truth is None:
            return verdict(answer, 0.0)
        return verdict(answer, fill_score(read_ids(answer), truth))
