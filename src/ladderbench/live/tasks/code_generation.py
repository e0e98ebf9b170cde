"""Code generation: write a Python function from a precise description, signature and examples.

Each question instantiates one of the problem templates of ``_code_problems`` (strings, arrays,
maps, intervals, simulation; every one with a twist such as case kept by position, runs cut into
capped pieces, a cleaning time between meetings, a look-ahead window in a task queue) with
constants drawn fresh for the release, so the exact problem is new even when its family is
familiar.

Why it is hard: the description fixes every detail (ties, wrap-around, what is ignored, what an
empty input gives), and the hidden tests include the edge cases the two examples do not show, so
a solution must follow the text exactly rather than the textbook version it resembles.

Fetched problems: when ``--sources`` holds ``kind: coding`` problem files (``live fetch``), each
question is the newest one not yet served (material: its statement), whatever the difficulty:
the model writes a whole program that reads standard input and prints its answer, and it is run
in the sandbox on every stdin/stdout test of the file (output compared line by line, trailing
spaces and blank last lines ignored; two CPU seconds per test). The templates are the fallback
when the sources have no coding problem.

Difficulty (``at_difficulty(d)``; 0 is v1): from d = 1 on, the problems are algorithmic
(``_code_templates.algorithms``: counting slices under remainder conditions, the longest chain
with a minimum gap, calm slices, the best meetings with a gap, strings without long runs modulo
a prime), and each step makes the largest
hidden inputs bigger (lists double every two steps up to 20,000 elements, the string length
gains a digit per step) and every few steps adds a remainder condition, a longer allowed run and
a hidden stress test, so a naive solution exceeds the sandbox's time limit: the model must find
the efficient algorithm, without tools to test it.

Scoring: the reply's last fenced code block (Python-tagged or untagged blocks preferred; the last
one that defines the function wins over a later usage snippet; without fences, a <solution> tag
or a reply that is nothing but code) is run in the sandbox against 8 to 15 hidden tests; 1.0 when
all pass, else 0.0 (no partial credit: a function that fails an edge case is wrong).
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
    STDIO_ENTRY,
    examples_text,
    modules_text,
    normalised_output,
    passes,
    passes_stdio,
    problem_at,
    problem_fields,
    record_parts,
)
from ladderbench.live.tasks._code_templates.algorithms import Scale, scale
from ladderbench.live.tasks._fetched import FetchedProblem, next_fresh


@dataclass(frozen=True)
class CodeGenerationConfig:
    """Difficulty: 0 draws the v1 templates (2 examples shown, 8-15 tests); from 1 on, the
    algorithmic templates with hidden inputs of ``scale`` (None at 0)."""

    shown_examples: int = 2
    scale: Scale | None = None


CONFIG = CodeGenerationConfig()


def at_difficulty(d: int) -> CodeGenerationConfig:
    """The config at difficulty ``d`` (0: v1)."""
    return CONFIG if d <= 0 else CodeGenerationConfig(scale=scale(d))


PROMPT_TEMPLATE = """\
Write a Python function that solves the following problem.

{description}

Signature:
```python
{signature}
```

Examples:
{examples}

The function is called directly with arguments like these and checked on further hidden tests, \
edge cases included: return the result (do not read input or print it). Use only the Python \
standard library; these modules may be imported: {modules}.

Put your final code in a ```python fenced code block at the end of your reply: the last fenced \
code block of the reply is the one graded."""

PROGRAM_PROMPT = """\
Write a complete Python program that solves the following problem. It reads the input from \
standard input and prints the answer to standard output.

{statement}

Example input:
```
{example_input}
```
Expected output:
```
{example_output}
```

The program is run on further hidden tests, with a time limit of about two seconds each. Use \
only the Python standard library; these modules may be imported: {modules}.

Put your final program in a ```python fenced code block at the end of your reply: the last \
fenced code block of the reply is the one graded."""


def program_question(problem: FetchedProblem) -> Question:
    """A fetched stdin/stdout problem: the first test is shown, every test is run."""
    first_input, first_output = problem.tests[0]
    prompt = PROGRAM_PROMPT.format(
        statement=problem.statement.strip(),
        example_input=first_input.rstrip("\n"),
        example_output=first_output.rstrip("\n"),
        modules=modules_text(),
    )
    fields = {
        "source": problem.source,
        "url": problem.url,
        "title": problem.title,
        "published": problem.published,
        "entry_point": STDIO_ENTRY,
        "tests": [
            {"input": [stdin], "output": normalised_output(stdout)}
            for stdin, stdout in problem.tests
        ],
    }
    return Question(
        prompt=prompt,
        ground_truth="",
        subtask="fetched_program",
        fields=fields,
        material=(problem.statement,),
    )


@register
class CodeGeneration(Task):
    name = "code_generation"
    category = "coding"
    uses_sources = True

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        fetched = next_fresh(sources, "coding", "coding problems")
        if fetched is not None:
            return program_question(fetched)
        problem = problem_at(rng, difficulty)
        prompt = PROMPT_TEMPLATE.format(
            description=problem.description,
            signature=problem.signature,
            examples=examples_text(problem),
            modules=modules_text(),
        )
        return Question(
            prompt=prompt,
            ground_truth=problem.reference,
            subtask=problem.category,
            fields=problem_fields(problem),
        )

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        """1.0 when the answer's code passes every hidden test in the sandbox, else 0.0."""
        parts = record_parts(record)
        if parts is None:
            return verdict(None, 0.0)
        entry, tests = parts
        if record.get("subtask") == "fetched_program":
            program = extract_code(response)
            if program is None:
                return verdict(None, 0.0)
            return verdict(program, 1.0 if passes_stdio(program, tests) else 0.0)
        code = extract_code(response, entry)
        if code is None:
            return verdict(None, 0.0)
        return verdict(code, 1.0 if passes([code], entry, tests) else 0.0)

    def reference(self, record: dict[str, Any]) -> str:
        """The template's reference solution; a fetched problem comes without one, so its
        reference is a program that looks each test's answer up (what an oracle would print)."""
        if record.get("subtask") == "fetched_program":
            return f"```python\n{lookup_program(record)}```"
        return f"```python\n{record['ground_truth']}```"


def lookup_program(record: dict[str, Any]) -> str:
    """A program printing the stored output of each test's stdin: the oracle of a fetched
    problem."""
    answers = {test["input"][0]: test["output"] for test in record.get("tests", [])}
    return f"import sys\n\nANSWERS = {answers!r}\nprint(ANSWERS[sys.stdin.read()])\n"
