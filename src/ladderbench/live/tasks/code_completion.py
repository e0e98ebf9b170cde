"""Code completion: finish a Python function whose first lines are given.

The problems are those of code_generation (``_code_problems``: fresh constants per release), but
the prompt shows the first 40-60% of the reference solution's lines, cut at a line boundary, and
asks for the rest. The given part fixes the approach and the variable names, so the model must
read and continue someone else's half-written code, not write its own.

Why it is hard: the continuation must agree with the state the given lines set up (loop indices,
accumulators, what has already been handled) and with every detail of the description; the
hidden tests include the edge cases the examples do not show.

Difficulty (``at_difficulty(d)``; 0 is v1): from d = 1 on the problems are code_generation's
algorithmic ones at the same d (hidden inputs too large for a naive solution), and each step
gives 5% fewer of the reference's lines, so the completion to write gets longer.

Scoring: the code is read like code_generation's (the last fenced block). An answer that
defines the function itself (a ``def <name>(`` line) is run alone; otherwise it is the
continuation and runs after the given lines (lines that repeat the end of the given part are
dropped, and a continuation written flush left is re-indented). 1.0 when every hidden test
passes in the sandbox, else 0.0.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ladderbench.grading.code import extract_code
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register
from ladderbench.live.tasks._code_problems import (
    completion_sources,
    examples_text,
    modules_text,
    passes,
    problem_at,
    problem_fields,
    record_parts,
    split_prefix,
)


@dataclass(frozen=True)
class CodeCompletionConfig:
    """Difficulty: how much of the reference solution is given (a fraction of its lines)."""

    given: tuple[float, float] = (0.4, 0.6)


CONFIG = CodeCompletionConfig()


def at_difficulty(d: int) -> CodeCompletionConfig:
    """The config at difficulty ``d`` (0: v1): each step gives 5% fewer of the reference's
    lines (down to the def line and one more: the model writes nearly all of it)."""
    if d <= 0:
        return CONFIG
    return CodeCompletionConfig(given=(max(0.0, 0.4 - 0.05 * d), max(0.1, 0.6 - 0.05 * d)))


PROMPT_TEMPLATE = """\
Complete the Python function below. It solves the following problem.

{description}

Examples:
{examples}

The function so far (its first lines; keep them as they are):
```python
{prefix}```

Continue from the last line shown: reply with the remaining lines of the function, or with the \
whole function. It is called directly with arguments like those in the examples and checked on \
further hidden tests, edge cases included: return the result (do not read input or print it). \
Use only the Python standard library; these modules may be imported: {modules}.

Put your code in a ```python fenced code block at the end of your reply: the last fenced code \
block of the reply is the one graded."""


def continuation_indent(reference: object, prefix: str) -> str:
    """The indentation of the first line after the given part (four spaces if unknown)."""
    if isinstance(reference, str) and isinstance(prefix, str) and reference.startswith(prefix):
        for line in reference[len(prefix) :].splitlines():
            if line.strip():
                return line[: len(line) - len(line.lstrip())]
    return "    "


@register
class CodeCompletion(Task):
    name = "code_completion"
    category = "coding"

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        problem = problem_at(rng, difficulty)
        config = at_difficulty(difficulty)
        prefix, _ = split_prefix(problem.reference, rng.uniform(*config.given))
        prompt = PROMPT_TEMPLATE.format(
            description=problem.description,
            examples=examples_text(problem),
            prefix=prefix,
            modules=modules_text(),
        )
        return Question(
            prompt=prompt,
            ground_truth=problem.reference,
            subtask=problem.category,
            fields=problem_fields(problem, prefix=prefix),
        )

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        """1.0 when the given lines plus the answer pass every hidden test, else 0.0."""
        parts = record_parts(record)
        prefix = record.get("prefix") if isinstance(record, dict) else None
        if parts is None or not isinstance(prefix, str) or not prefix.strip():
            return verdict(None, 0.0)
        entry, tests = parts
        code = extract_code(response, entry)
        if code is None:
            return verdict(None, 0.0)
        indent = continuation_indent(record.get("ground_truth"), prefix)
        sources = completion_sources(prefix, code, entry, indent)
        return verdict(code, 1.0 if passes(sources, entry, tests) else 0.0)

    def reference(self, record: dict[str, Any]) -> str:
        return f"```python\n{record['ground_truth']}```"
