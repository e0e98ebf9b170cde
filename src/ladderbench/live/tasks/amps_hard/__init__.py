"""AMPS-hard: symbolic mathematics drawn from distributions harder than textbook exercises.

Ten subtasks: an antiderivative (integrands that need substitution, integration by parts,
partial fractions or a log/arctan split), a derivative (products, quotients and compositions
that need the chain and product rules together), factoring a polynomial (integer roots with
non-unit leading coefficients, repeated roots and an irreducible quadratic factor), completing
the square (fractional vertices), the determinant of a 3x3 or 4x4 mixed-sign matrix, a
characteristic polynomial, the gcd of three signed integers, and exact sample statistics
(geometric mean, standard deviation, variance) whose answers are fractions and radicals.

Why it is hard: every answer must be exact, and one slip in a sign, a chain-rule factor or a
cofactor gives a wrong expression; nothing can be guessed from answer choices.

Difficulty ``d`` (``subtask.difficulty``; 0 is the v1 mix above, the subtask mix stays uniform).
Each step up adds exact work, never ambiguity, so that a reasoner without tools slips somewhere
in a long computation:

- determinant: a (3 + (d + 2) // 2)-square matrix (4x4 at d = 1, 5x5 at 2-3, 6x6 at 4-5, ...)
  with entries up to 9 + 3d;
- characteristic polynomial: a (3 + (d + 1) // 2)-square matrix, entries up to 4 + d;
- gcd: 3 + d // 2 numbers, multipliers up to 400 * 10^((d + 1) // 2), and (d + 1) // 3 more
  primes in the gcd (long Euclidean chains);
- variance and standard deviation: 6 + 2d to 8 + 2d values up to 25 + 15d;
- geometric mean: 4 + d to 6 + d 7-smooth values up to 3000 (1 + d);
- factoring: degree 3 + (d + 1) // 2 or one more, roots p/q with q up to 5 + d and |p| up to
  9 + 2d, up to 1 + d // 3 irreducible quadratics;
- completing the square: coefficient ranges (1 + d) times wider;
- integral: a sum of 1 + (d + 1) // 2 template integrands, constants (1 + d // 2) times wider;
- derivative: a product (or quotient) of 1 + (d + 1) // 2 chains, each 2 + d // 4 functions
  deep (exp, sin, cos, arctan, ln(u^2 + k), sqrt(u^2 + k), powers: real everywhere), around
  inner polynomials with (1 + d // 2) times wider coefficients.

Scoring (1 or 0, no judge): the answer is read with ``extract_answer``, converted from LaTeX or
plain notation into a SymPy expression by a small whitelist converter (unknown commands or names
score 0), and compared by symbolic equivalence under a time limit, in a worker process that is
killed when the time is up: an antiderivative must differentiate to the integrand, a derivative
must agree with the true one, a factorisation must multiply out to the polynomial and consist of
irreducible factors, a completed square must have the form a(x - h)^2 + k, a characteristic
polynomial may use either sign convention, and numbers must equal the exact value. A parse
failure or a timeout scores 0. Exponents and roots may be parenthesised (``e^(-2x)``,
``x^(1/2)``, ``√(x+1)``, ``\\sqrt(x+1)``); a reply with no tags or box is read from its last line,
and when that line is a sentence ("The determinant is **2682**.") from the maths it states.
Long true answers (deep derivatives at high ``d``) get a proportionally longer answer and time
limit, at most 15 times the configured one.

Each subtask is one :class:`Subtask` object (instruction, generator, checker) in the module of
its group: ``calculus``, ``polynomials``, ``matrices``, ``arithmetic``; the converter is
``parse`` and the equivalence checks ``equivalence``.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

from ladderbench.execution.limits import call_with_time_limit
from ladderbench.grading.extract import extract_answer
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register
from ladderbench.live.tasks.amps_hard import arithmetic, calculus, matrices, polynomials
from ladderbench.live.tasks.amps_hard.parse import X, stated_maths, to_sympy
from ladderbench.live.tasks.amps_hard.subtask import AmpsHardConfig, Record, Subtask
from ladderbench.live.tasks.amps_hard.subtask import difficulty as config_at

__all__ = ["CONFIG", "SUBTASKS", "AmpsHard", "AmpsHardConfig", "X", "check_answer", "to_sympy"]

# In the order questions draw them from.
ALL: tuple[Subtask, ...] = (
    *calculus.SUBTASKS,
    *polynomials.SUBTASKS,
    *matrices.SUBTASKS,
    *arithmetic.SUBTASKS,
)
BY_NAME: dict[str, Subtask] = {s.name: s for s in ALL}
SUBTASKS: tuple[str, ...] = tuple(BY_NAME)

CONFIG = AmpsHardConfig()
_TRUTH_CHARS_PER_LIMIT = 1000  # a true answer this long gets one configured time limit more
_MAX_LIMIT_SCALE = 15.0

PROMPT_TEMPLATE = """\
{instruction}

{problem}

Give an exact answer (fractions and radicals, not decimals) as one mathematical expression, \
written in LaTeX or in plain notation such as 3*x^2*sin(x) or (1/4)*sqrt(2); use x as the \
variable where there is one.
Put your final answer inside <solution></solution> tags."""


def check_answer(record: Record, answer: str) -> bool:
    """Whether an extracted answer is right for this record (may raise; no time limit).

    An answer that does not read as maths may be a final sentence ("The determinant is
    **2682**."): then the maths it states is checked instead (see ``stated_maths``).
    """
    subtask = BY_NAME.get(record.get("subtask", ""))
    if subtask is None:
        return False
    with warnings.catch_warnings():  # sympy deprecation noise from odd input
        warnings.simplefilter("ignore")
        try:
            return subtask.check(record, answer)
        except Exception:
            for stated in stated_maths(answer):
                try:
                    return subtask.check(record, stated)
                except Exception:
                    continue
            raise


@register
class AmpsHard(Task):
    name = "amps_hard"
    category = "math"

    def __init__(self, config: AmpsHardConfig = CONFIG) -> None:
        self.config = config

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        subtask = rng.choice(ALL)
        drawn = subtask.draw(rng, self.config if difficulty == 0 else config_at(difficulty))
        prompt = PROMPT_TEMPLATE.format(instruction=subtask.instruction, problem=drawn.problem)
        return Question(
            prompt=prompt, ground_truth=drawn.truth, subtask=subtask.name, fields=drawn.fields
        )

    def time_limit(self, record: Record) -> float:
        """Seconds to check one answer: the configured limit, longer in proportion for true
        answers over 1000 characters (hard derivatives), at most 15 times as long."""
        truth = record.get("ground_truth")
        size = len(truth) if isinstance(truth, str) else 0
        scale = min(max(1.0, size / _TRUTH_CHARS_PER_LIMIT), _MAX_LIMIT_SCALE)
        return self.config.time_limit_s * scale

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        answer = extract_answer(response)
        if not answer:
            return verdict(answer, 0.0)
        try:
            ok = call_with_time_limit(check_answer, record, answer, seconds=self.time_limit(record))
        except Exception:  # sympy rejects the answer, or the time limit: the answer's fault
            return verdict(answer, 0.0)
        return verdict(answer, 1.0 if ok else 0.0)
