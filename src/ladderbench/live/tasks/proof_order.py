"""Proof order: put the shuffled steps of a short proof or derivation back in order.

Each question takes one proof from a built-in set written for LadderBench (irrationality
arguments, induction proofs, classic number theory, algebraic derivations; three of them are
filled with fresh numbers), shows its 5-7 steps in a random order under the labels A, B, C, ...
(at most one step left in its true place), and asks for the original order. Every proof is
written as a strict dependency chain: each step uses the result of the step just before it (an
equation it rewrites, an object it introduced, or a case it settled), so exactly one order is
logically valid.

Why it is hard: the model must follow the logic of the argument, not the surface of the text;
steps of one proof look alike, and a locally plausible swap breaks the chain.

Scoring (partial credit, no judge): the answer is read with ``extract_answer`` and parsed as a
sequence of labels (commas, spaces, arrows, "Step C", "CAEBD" and lower case are all fine); the
score is 1 - (Levenshtein distance between that sequence and the true one) / (number of steps),
clamped to [0, 1]. One adjacent swap in a six-step proof therefore scores 1 - 2/6.
"""

from __future__ import annotations

import json
import random
import re
import string
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from rapidfuzz.distance import Levenshtein

from ladderbench.grading.extract import extract_answer
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register


@dataclass(frozen=True)
class Proof:
    """A claim and its steps in the one valid order."""

    name: str
    kind: Literal["contradiction", "induction", "number_theory", "derivation"]
    claim: str
    steps: tuple[str, ...]


@dataclass(frozen=True)
class ProofOrderConfig:
    """Difficulty parameters."""

    min_steps: int = 5
    max_steps: int = 9
    max_fixed_steps: int = 1  # at most this many steps may be shown in their true place
    max_shuffles: int = 1000  # redraws until that holds (about 3 in 4 shuffles pass)


CONFIG = ProofOrderConfig()

PROMPT_TEMPLATE = """\
The steps of the following proof have been shuffled. Put them back in their original order.

Claim: {claim}

Steps (in shuffled order):
{steps}

The proof has exactly one valid order: it begins with the step that relies on nothing else, \
and every later step uses the result of the step just before it.
List all {count} labels in the original order, separated by commas, and put your final answer \
inside <solution></solution> tags, for example <solution>C, A, B</solution>."""

PROOFS: tuple[Proof, ...] = (
    Proof(
        "sqrt2_irrational",
        "contradiction",
        "√2 is irrational.",
        (
            "Suppose, for contradiction, that √2 = p/q, where p and q are positive integers "
            "with no common factor.",
            "Squaring both sides of √2 = p/q and multiplying by q² gives p² = 2q².",
            "Since p² = 2q², the number p² is even, and therefore p is even (the square of an "
            "odd number is odd).",
            "Because p is even, write p = 2k; substituting into p² = 2q² gives 4k² = 2q², so "
            "q² = 2k².",
            "From q² = 2k², the number q² is even, and therefore q is even as well.",
            "Now p and q are both even, so 2 is a common factor of p and q, contradicting their "
            "choice; hence √2 is irrational.",
        ),
    ),
    Proof(
        "infinitely_many_primes",
        "contradiction",
        "There are infinitely many prime numbers.",
        (
            "Suppose there are only finitely many primes, and list all of them as p₁, p₂, …, pₖ.",
            "Using this complete list, form the number N = p₁p₂⋯pₖ + 1.",
            "Since N > 1, the number N has at least one prime factor q.",
            "The list contains every prime, so the prime factor q is one of p₁, …, pₖ and "
            "therefore divides the product p₁p₂⋯pₖ.",
            "Since q divides both N and p₁p₂⋯pₖ, it divides their difference N − p₁p₂⋯pₖ = 1.",
            "No prime divides 1, so this is a contradiction, and there must be infinitely many "
            "primes.",
        ),
    ),
    Proof(
        "sum_of_odd_numbers",
        "induction",
        "1 + 3 + 5 + ⋯ + (2n − 1) = n² for every positive integer n.",
        (
            "Let P(n) be the statement 1 + 3 + ⋯ + (2n − 1) = n².",
            "Base case: for n = 1 the left side of P(1) is 1 and the right side is 1² = 1, so "
            "P(1) holds.",
            "With the base case settled, assume for the inductive step that P(k) holds for some "
            "k ≥ 1, that is, 1 + 3 + ⋯ + (2k − 1) = k².",
            "Adding the next odd number, 2k + 1, to both sides of this assumption gives "
            "1 + 3 + ⋯ + (2k − 1) + (2k + 1) = k² + 2k + 1.",
            "The right side k² + 2k + 1 equals (k + 1)², so P(k + 1) holds.",
            "Since P(1) holds and P(k) implies P(k + 1), P(n) holds for every positive integer "
            "n by induction.",
        ),
    ),
    Proof(
        "six_divides_cube_minus_n",
        "number_theory",
        "For every integer n, the number n³ − n is divisible by 6.",
        (
            "Factor out n: n³ − n = n(n² − 1).",
            "Factor the difference of squares in n(n² − 1): n³ − n = (n − 1)n(n + 1).",
            "So n³ − n is the product of the three consecutive integers n − 1, n and n + 1.",
            "Among any three consecutive integers at least one is even and exactly one is a "
            "multiple of 3, so this product is divisible by both 2 and 3.",
            "Since 2 and 3 are coprime and both divide (n − 1)n(n + 1) = n³ − n, their product "
            "6 divides n³ − n.",
        ),
    ),
    Proof(
        "quadratic_formula",
        "derivation",
        "If a ≠ 0 and ax² + bx + c = 0, then x = (−b ± √(b² − 4ac))/(2a).",
        (
            "Divide both sides of ax² + bx + c = 0 by a ≠ 0: x² + (b/a)x + c/a = 0.",
            "Subtract c/a from both sides: x² + (b/a)x = −c/a.",
            "Add (b/(2a))² to both sides to complete the square: "
            "x² + (b/a)x + b²/(4a²) = b²/(4a²) − c/a.",
            "Write the left side as a square and the right side over the common denominator "
            "4a²: (x + b/(2a))² = (b² − 4ac)/(4a²).",
            "Take square roots of both sides: x + b/(2a) = ±√(b² − 4ac)/(2a).",
            "Subtract b/(2a) from both sides: x = (−b ± √(b² − 4ac))/(2a).",
        ),
    ),
    Proof(
        "geometric_series",
        "derivation",
        "For r ≠ 1, 1 + r + r² + ⋯ + rⁿ = (rⁿ⁺¹ − 1)/(r − 1).",
        (
            "Let S = 1 + r + r² + ⋯ + rⁿ.",
            "Multiply both sides of the definition of S by r: rS = r + r² + ⋯ + rⁿ⁺¹.",
            "Subtract the equation for S from the equation for rS; every term except rⁿ⁺¹ and "
            "1 cancels: rS − S = rⁿ⁺¹ − 1.",
            "Factor S out of the left side: (r − 1)S = rⁿ⁺¹ − 1.",
            "Since r ≠ 1, divide both sides by r − 1: S = (rⁿ⁺¹ − 1)/(r − 1).",
        ),
    ),
    Proof(
        "gauss_sum",
        "derivation",
        "1 + 2 + ⋯ + n = n(n + 1)/2 for every positive integer n.",
        (
            "Let S = 1 + 2 + ⋯ + n.",
            "Write the same sum S in reverse order: S = n + (n − 1) + ⋯ + 1.",
            "Add the two expressions for S term by term: "
            "2S = (1 + n) + (2 + (n − 1)) + ⋯ + (n + 1).",
            "Each of the n bracketed pairs in this sum equals n + 1, so 2S = n(n + 1).",
            "Divide both sides by 2: S = n(n + 1)/2.",
        ),
    ),
    Proof(
        "factorial_beats_power",
        "induction",
        "n! > 2ⁿ for every integer n ≥ 4.",
        (
            "Let P(n) be the statement n! > 2ⁿ, for integers n ≥ 4.",
            "Base case: 4! = 24 and 2⁴ = 16, and 24 > 16, so P(4) holds.",
            "With the base case settled, assume for the inductive step that P(k) holds for some "
            "k ≥ 4, that is, k! > 2ᵏ.",
            "Multiply both sides of the inequality k! > 2ᵏ by the positive number k + 1: "
            "(k + 1)! > (k + 1)·2ᵏ.",
            "Since k ≥ 4, the factor k + 1 exceeds 2, so the right side (k + 1)·2ᵏ is greater "
            "than 2·2ᵏ = 2ᵏ⁺¹; hence (k + 1)! > 2ᵏ⁺¹, which is P(k + 1).",
            "Since P(4) holds and P(k) implies P(k + 1), P(n) holds for every integer n ≥ 4 by "
            "induction.",
        ),
    ),
    Proof(
        "odd_square_mod_8",
        "number_theory",
        "If n is an odd integer, then n² leaves remainder 1 when divided by 8.",
        (
            "Since n is odd, write n = 2k + 1 for some integer k.",
            "Square n = 2k + 1: n² = 4k² + 4k + 1.",
            "Factor 4k out of the first two terms: n² = 4k(k + 1) + 1.",
            "The factor k(k + 1) in this expression is a product of two consecutive integers, "
            "so it is even: k(k + 1) = 2m for some integer m.",
            "Substitute k(k + 1) = 2m: n² = 4·2m + 1 = 8m + 1.",
            "So n² is 1 more than a multiple of 8, that is, n² leaves remainder 1 when divided "
            "by 8.",
        ),
    ),
    Proof(
        "am_gm_two",
        "derivation",
        "For non-negative real numbers a and b, (a + b)/2 ≥ √(ab), with equality exactly when "
        "a = b.",
        (
            "The square of a real number is never negative, so (√a − √b)² ≥ 0.",
            "Expand the square (√a − √b)²: a − 2√(ab) + b ≥ 0.",
            "Add 2√(ab) to both sides: a + b ≥ 2√(ab).",
            "Divide both sides by 2: (a + b)/2 ≥ √(ab).",
            "Every step above can be reversed, so (a + b)/2 = √(ab) holds exactly when "
            "(√a − √b)² = 0, that is, when a = b.",
        ),
    ),
    Proof(
        "log_of_product",
        "derivation",
        "For a base b > 0 with b ≠ 1 and positive x and y, log_b(xy) = log_b x + log_b y.",
        (
            "Let u = log_b x and v = log_b y, so that x = bᵘ and y = bᵛ.",
            "Multiply the equations x = bᵘ and y = bᵛ: xy = bᵘ·bᵛ.",
            "By the law of exponents bᵘ·bᵛ = bᵘ⁺ᵛ, so xy = bᵘ⁺ᵛ.",
            "Take the logarithm to base b of both sides of xy = bᵘ⁺ᵛ: log_b(xy) = u + v.",
            "Substitute back u = log_b x and v = log_b y: log_b(xy) = log_b x + log_b y.",
        ),
    ),
    Proof(
        "log2_3_irrational",
        "contradiction",
        "log₂ 3 is irrational.",
        (
            "Suppose, for contradiction, that log₂ 3 = p/q for positive integers p and q "
            "(log₂ 3 is positive).",
            "By the definition of the logarithm, log₂ 3 = p/q means 2^(p/q) = 3.",
            "Raise both sides of 2^(p/q) = 3 to the power q: 2ᵖ = 3^q.",
            "In 2ᵖ = 3^q the left side is even, because p ≥ 1, while the right side is a power "
            "of 3 and therefore odd.",
            "An even number cannot equal an odd number, so the assumption is false and log₂ 3 "
            "is irrational.",
        ),
    ),
    Proof(
        "repeating_nines",
        "derivation",
        "0.999… = 1.",
        (
            "Let x = 0.999…, with the nines repeating forever.",
            "Multiply both sides of x = 0.999… by 10: 10x = 9.999….",
            "Subtract x = 0.999… from 10x = 9.999…; the repeating decimal parts cancel: "
            "10x − x = 9.",
            "Simplify the left side of 10x − x = 9: 9x = 9.",
            "Divide both sides of 9x = 9 by 9: x = 1, so 0.999… = 1.",
        ),
    ),
    Proof(
        "odd_times_odd",
        "number_theory",
        "The product of two odd integers is odd.",
        (
            "Let m and n be odd, and write m = 2a + 1 and n = 2b + 1 for integers a and b.",
            "Multiply these two expressions: mn = (2a + 1)(2b + 1).",
            "Expand the product: mn = 4ab + 2a + 2b + 1.",
            "Factor 2 out of the first three terms: mn = 2(2ab + a + b) + 1.",
            "Since 2ab + a + b is an integer c, mn has the form 2c + 1, so mn is odd.",
        ),
    ),
    Proof(
        "derivative_of_ln",
        "derivation",
        "The derivative of ln x is 1/x for x > 0.",
        (
            "Let y = ln x for x > 0, so that eʸ = x.",
            "Differentiate both sides of eʸ = x with respect to x, using the chain rule on the "
            "left: eʸ·(dy/dx) = 1.",
            "Solve eʸ·(dy/dx) = 1 for the derivative: dy/dx = 1/eʸ.",
            "Replace eʸ in the denominator by x, since eʸ = x: dy/dx = 1/x.",
            "Because y = ln x, the equation dy/dx = 1/x says that the derivative of ln x is 1/x.",
        ),
    ),
    Proof(
        "three_divides_square",
        "number_theory",
        "For every integer n, if 3 divides n², then 3 divides n.",
        (
            "We prove the contrapositive, so suppose that 3 does not divide n.",
            "Then n leaves remainder 1 or 2 on division by 3, so n = 3k + r with r = 1 or r = 2.",
            "Square n = 3k + r: n² = 9k² + 6kr + r² = 3(3k² + 2kr) + r².",
            "With r = 1 or r = 2, the term r² is 1 or 4, and each leaves remainder 1 on "
            "division by 3, so n² = 3(3k² + 2kr) + r² leaves remainder 1 on division by 3.",
            "So 3 does not divide n², which proves the contrapositive: if 3 divides n², then 3 "
            "divides n.",
        ),
    ),
)


# ---------------------------------------------------------------- proofs with fresh numbers


def _linear(coefficients: list[tuple[int, str]], constant: int | None = None) -> str:
    """A linear expression such as "3x − 2y + 5" (unit coefficients shown bare)."""
    out = ""
    for coef, var in [*coefficients, *([(constant, "")] if constant is not None else [])]:
        if coef == 0:
            continue
        magnitude = abs(coef)
        body = var if (magnitude == 1 and var) else f"{magnitude}{var}"
        if not out:
            out = ("−" if coef < 0 else "") + body
        else:
            out += (" − " if coef < 0 else " + ") + body
    return out or "0"


def _signed(v: int) -> str:
    return f"−{-v}" if v < 0 else str(v)


def _coefficient(v: int) -> str:
    """A leading coefficient: "3", "−3", "" for 1 and "−" for −1."""
    return {1: "", -1: "−"}.get(v, _signed(v))


def _then(v: int, body: str) -> str:
    """A later term: " + 3y", " − y"."""
    magnitude = "" if abs(v) == 1 else str(abs(v))
    return f" {'−' if v < 0 else '+'} {magnitude}{body}"


def _bracketed(v: int) -> str:
    return f"({_signed(v)})" if v < 0 else str(v)


def _linear_system(rng: random.Random) -> Proof:
    while True:
        x0, y0 = rng.randint(-9, 9), rng.randint(-9, 9)
        b1 = rng.choice([v for v in range(-6, 7) if v])
        a2 = rng.choice([v for v in range(-6, 7) if v not in (0, 1)])
        b2 = rng.choice([v for v in range(-9, 10) if v])
        det = b2 - a2 * b1
        if det not in (0, 1) and x0 and y0:
            break
    c1, c2 = x0 + b1 * y0, a2 * x0 + b2 * y0
    first = f"{_linear([(1, 'x'), (b1, 'y')])} = {_signed(c1)}"
    second = f"{_linear([(a2, 'x'), (b2, 'y')])} = {_signed(c2)}"
    solved_x = f"x = {_linear([(-b1, 'y')], c1)}"
    in_second = f"{_coefficient(a2)}({_linear([(-b1, 'y')], c1)}){_then(b2, 'y')} = {_signed(c2)}"
    expanded = f"{_linear([(-a2 * b1, 'y'), (b2, 'y')], a2 * c1)} = {_signed(c2)}"
    return Proof(
        "linear_system",
        "derivation",
        f"The system {first} and {second} has the solution x = {_signed(x0)}, y = {_signed(y0)}.",
        (
            f"Solve the first equation, {first}, for x: {solved_x}.",
            f"Substitute {solved_x} into the second equation: {in_second}.",
            f"Expand the product in {in_second}: {expanded}.",
            f"Collect the y terms of {expanded} and move the constant to the right: "
            f"{_signed(det)}y = {_signed(c2 - a2 * c1)}.",
            f"Divide both sides of {_signed(det)}y = {_signed(c2 - a2 * c1)} by {_signed(det)}: "
            f"y = {_signed(y0)}.",
            f"Put y = {_signed(y0)} back into {solved_x}: x = {_signed(x0)}, which with "
            f"y = {_signed(y0)} is the claimed solution.",
        ),
    )


def _square_root_solution(rng: random.Random) -> Proof:
    while True:
        r1, r2 = rng.randint(-12, 12), rng.randint(-12, 12)
        if r1 > r2 and (r1 + r2) % 2 == 0 and r1 + r2 != 0 and r1 * r2 != 0:
            break
    p, q = -(r1 + r2), r1 * r2
    half = p // 2
    d = half * half - q
    s = (r1 - r2) // 2
    equation = f"{_linear([(1, 'x²'), (p, 'x')], q)} = 0"
    lhs = _linear([(1, "x²"), (p, "x")])
    shifted = f"x {'+' if half > 0 else '−'} {abs(half)}"
    return Proof(
        "complete_the_square",
        "derivation",
        f"The solutions of {equation} are x = {_signed(r1)} and x = {_signed(r2)}.",
        (
            f"Move the constant term of {equation} to the right side: {lhs} = {_signed(-q)}.",
            f"Add {_bracketed(half)}² = {half * half} to both sides of {lhs} = {_signed(-q)}: "
            f"{lhs} + {half * half} = {d}.",
            f"The left side of {lhs} + {half * half} = {d} is a perfect square: "
            f"({shifted})² = {d}.",
            f"Take square roots of both sides of ({shifted})² = {d}: {shifted} = {s} or "
            f"{shifted} = −{s}.",
            f"Subtract {_signed(half)} from both sides of {shifted} = {s} or {shifted} = −{s}: "
            f"x = {_signed(-half)} + {s} or x = {_signed(-half)} − {s}.",
            f"Evaluate x = {_signed(-half)} + {s} or x = {_signed(-half)} − {s}: "
            f"x = {_signed(r1)} or x = {_signed(r2)}, the claimed solutions.",
        ),
    )


def _first_principles(rng: random.Random) -> Proof:
    a = rng.choice([v for v in range(-9, 10) if v not in (0, 1)])
    b = rng.choice([v for v in range(-9, 10) if v])
    f = _linear([(a, "x²"), (b, "x")])
    f_shift = f"{_coefficient(a)}(x + h)²{_then(b, '(x + h)')}"
    expanded = _linear([(a, "x²"), (2 * a, "xh"), (a, "h²"), (b, "x"), (b, "h")])
    difference = _linear([(2 * a, "xh"), (a, "h²"), (b, "h")])
    quotient = _linear([(2 * a, "x"), (a, "h")], b)
    derivative = _linear([(2 * a, "x")], b)
    return Proof(
        "derivative_from_definition",
        "derivation",
        f"The derivative of f(x) = {f} is f′(x) = {derivative}.",
        (
            f"Write down the difference quotient of f(x) = {f}, whose limit as h → 0 defines "
            f"f′(x): (f(x + h) − f(x))/h.",
            f"To evaluate (f(x + h) − f(x))/h, first expand f(x + h) = {f_shift}: "
            f"f(x + h) = {expanded}.",
            f"Subtract f(x) = {f} from f(x + h) = {expanded}: f(x + h) − f(x) = {difference}.",
            f"Divide f(x + h) − f(x) = {difference} by h ≠ 0: (f(x + h) − f(x))/h = {quotient}.",
            f"Let h → 0 in (f(x + h) − f(x))/h = {quotient}; the terms with h vanish: the limit "
            f"is {derivative}.",
            f"Since the limit is {derivative} and this limit defines f′(x): f′(x) = {derivative}.",
        ),
    )


BUILDERS: tuple[Callable[[random.Random], Proof], ...] = (
    _linear_system,
    _square_root_solution,
    _first_principles,
)


def _check_proof(proof: Proof, cfg: ProofOrderConfig) -> None:
    if not cfg.min_steps <= len(proof.steps) <= cfg.max_steps:
        raise ValueError(f"proof {proof.name!r} has {len(proof.steps)} steps")
    if len(set(proof.steps)) != len(proof.steps):
        raise ValueError(f"proof {proof.name!r} repeats a step")


# ---------------------------------------------------------------- reading answers

_LABEL_TOKEN = re.compile(r"[A-Za-z]+|\d+")
_FILLER = frozenset(
    {"step", "steps", "then", "and", "order", "the", "is", "answer", "final", "proof", "original"}
)


def parse_order(text: str | None, labels: list[str]) -> list[str] | None:
    """The sequence of labels an answer lists (upper case), or None if it lists none.

    Lower-case labels count when the answer holds no upper-case label at all ("c, a, b").
    In an answer that also holds other words, only upper-case single letters are labels.
    """
    if not isinstance(text, str) or not labels:
        return None
    text = unicodedata.normalize("NFKC", text)
    valid = {label.upper() for label in labels}
    tokens = [t for t in _LABEL_TOKEN.findall(text) if t.casefold() not in _FILLER]
    if len(tokens) == 1 and len(tokens[0]) > 1 and set(tokens[0].upper()) <= valid:
        tokens = list(tokens[0])  # "CAEBD"
    singles = [t for t in tokens if len(t) == 1 and t.upper() in valid]
    prose = len(singles) != len(tokens)
    if not prose and all(t.islower() for t in singles):
        found = [t.upper() for t in singles]
    else:
        found = [t for t in singles if t.isupper()]
    return found or None


def order_score(given: list[str] | None, truth: list[str]) -> float:
    """1 - Levenshtein(given, truth) / len(truth), clamped to [0, 1]; 0 for no answer."""
    if not given or not truth:
        return 0.0
    distance = Levenshtein.distance(given, truth)
    return max(0.0, min(1.0, 1.0 - distance / len(truth)))


def _string_list(text: object) -> list[str] | None:
    """A record's JSON list of step labels, or None when it is not one."""
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None
    ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    return value if ok else None


@register
class ProofOrder(Task):
    name = "proof_order"
    category = "math"

    def __init__(self, config: ProofOrderConfig = CONFIG) -> None:
        self.config = config

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        cfg = self.config
        choice = rng.randrange(len(PROOFS) + len(BUILDERS))
        proof = PROOFS[choice] if choice < len(PROOFS) else BUILDERS[choice - len(PROOFS)](rng)
        _check_proof(proof, cfg)
        n = len(proof.steps)
        identity = list(range(n))
        shown = identity[:]
        for _ in range(cfg.max_shuffles):
            rng.shuffle(shown)
            if sum(a == b for a, b in zip(shown, identity)) <= cfg.max_fixed_steps:
                break
        else:  # pragma: no cover - probability below (1/4)^1000
            raise ValueError("could not shuffle the steps")
        labels = list(string.ascii_uppercase[:n])
        label_of_step = {step: labels[pos] for pos, step in enumerate(shown)}
        order = [label_of_step[i] for i in identity]
        lines = "\n".join(f"{labels[pos]}. {proof.steps[step]}" for pos, step in enumerate(shown))
        prompt = PROMPT_TEMPLATE.format(claim=proof.claim, steps=lines, count=n)
        return Question(
            prompt=prompt,
            ground_truth=json.dumps(order),
            subtask=proof.kind,
            fields={"proof": proof.name, "labels": labels},
        )

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        truth = _string_list(record.get("ground_truth"))
        answer = extract_answer(response)
        if truth is None:
            return verdict(answer, 0.0)  # a malformed record
        labels = record.get("labels") or truth
        if not all(isinstance(label, str) for label in labels):
            return verdict(answer, 0.0)
        return verdict(answer, order_score(parse_order(answer, sorted(labels)), truth))

    def reference(self, record: dict[str, Any]) -> str:
        return f"<solution>{', '.join(json.loads(record['ground_truth']))}</solution>"
