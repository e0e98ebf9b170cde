"""Function-level coding problems shared by the code_generation and code_completion tasks.

Each template is a parameterised problem (strings, arrays, maps, intervals, simulation) with a twist
that textbook versions lack; the templates live in ``_code_templates``, one module per category, and
this module builds problems from them. A release draws fresh constants for it from the question's
rng; the template's reference solution (Python source text in its template, with the constants
written into it) is trusted code: the generator runs it in-process to compute the expected outputs
of 8 to 15 inputs (two shown as examples, the rest hidden, edge cases included).

From difficulty 1 on, problems come from the algorithmic templates (``_code_templates.algorithms``):
their largest hidden inputs grow with the difficulty, so a naive solution runs out of the
sandbox's time.

Answers are read from the reply's last fenced code block (``extract_code``) and run in the
sandbox (``ladderbench.execution.sandbox``) against the hidden tests: 1.0 when every test passes,
else 0.0.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from string import Template as _Text
from typing import Any

from ladderbench.execution.sandbox import ALLOWED_MODULES, Limits, run_tests
from ladderbench.grading.code import defines
from ladderbench.live.tasks._code_templates import TEMPLATES, Args, Template, algorithms


@dataclass(frozen=True)
class Problem:
    """A generated problem: the prompt material and the tests (inputs with expected outputs)."""

    template: str
    category: str
    entry: str
    signature: str
    description: str
    reference: str
    examples: tuple[tuple[Args, Any], ...]
    tests: tuple[tuple[Args, Any], ...]  # the examples first, then the hidden ones


MIN_TESTS, MAX_TESTS = 8, 15


def _plain(value: Any) -> Any:
    """value as JSON gives it back (tuples become lists); raises on anything else."""
    text = json.dumps(value, sort_keys=False, allow_nan=False)
    return json.loads(text)


def _compile_reference(source: str, entry: str) -> Callable[..., Any]:
    space: dict[str, Any] = {"__name__": "reference"}
    exec(compile(source, f"<reference {entry}>", "exec"), space)  # trusted: this module's text
    return space[entry]


def make_problem(rng: random.Random, template: Template | None = None) -> Problem:
    """Draw a template (unless given), its constants and its tests; run the reference."""
    template = template or rng.choice(TEMPLATES)
    constants = template.constants(rng)
    description = _Text(template.description).substitute(constants)
    reference = _Text(template.reference).substitute(constants)
    if not reference.startswith(template.signature + "\n"):
        raise ValueError(f"template {template.key}: reference does not start with its signature")
    solve = _compile_reference(reference, template.entry)
    typical, edges = template.cases(rng, constants)
    examples_in = typical[:2]
    hidden = typical[2:] + edges
    rng.shuffle(hidden)
    seen: set[str] = set()
    tests: list[tuple[Args, Any]] = []
    for args in examples_in + hidden:
        key = json.dumps(args)
        if key in seen:
            continue
        seen.add(key)
        tests.append((_plain(args), _plain(solve(*copy.deepcopy(args)))))
        if len(tests) == MAX_TESTS:
            break
    if len(tests) < MIN_TESTS:
        raise ValueError(f"template {template.key}: only {len(tests)} distinct tests")
    return Problem(
        template=template.key,
        category=template.category,
        entry=template.entry,
        signature=template.signature,
        description=description,
        reference=reference,
        examples=tuple(tests[:2]),
        tests=tuple(tests),
    )


def problem_at(rng: random.Random, difficulty: int) -> Problem:
    """A problem at ``difficulty``: the v1 templates at 0; from 1 on an algorithmic template
    whose largest hidden inputs grow with the difficulty (``algorithms.scale``)."""
    if difficulty <= 0:
        return make_problem(rng)
    return make_problem(rng, rng.choice(algorithms.templates(algorithms.scale(difficulty))))


def call_text(entry: str, args: Args) -> str:
    """How a call is shown in the prompt: rotate_words('ab c') (Python literals)."""
    return f"{entry}({', '.join(repr(a) for a in args)})"


def examples_text(problem: Problem) -> str:
    return "\n".join(
        f"{call_text(problem.entry, args)} == {out!r}" for args, out in problem.examples
    )


def tests_field(problem: Problem) -> list[dict[str, Any]]:
    return [{"input": args, "output": out} for args, out in problem.tests]


def problem_fields(problem: Problem, **extra: Any) -> dict[str, Any]:
    """The record fields of a coding question, ``extra`` before the hidden tests (field order is
    part of a release's bytes)."""
    return {
        "template": problem.template,
        "entry_point": problem.entry,
        "signature": problem.signature,
        **extra,
        "tests": tests_field(problem),
    }


def read_tests(record: dict[str, Any]) -> list[tuple[Args, Any]] | None:
    """The hidden tests stored in a record, or None when they are malformed."""
    tests = record.get("tests")
    if not isinstance(tests, list) or not tests:
        return None
    out = []
    for test in tests:
        if not isinstance(test, dict) or not isinstance(test.get("input"), list):
            return None
        if "output" not in test:
            return None
        out.append((test["input"], test["output"]))
    return out


def split_prefix(reference: str, fraction: float) -> tuple[str, str]:
    """The first ``fraction`` of the reference's lines (at least 2, leaving at least 2), and the
    rest."""
    lines = reference.splitlines(keepends=True)
    cut = min(max(2, round(len(lines) * fraction)), len(lines) - 2)
    return "".join(lines[:cut]), "".join(lines[cut:])


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _shift_to(code: str, indent: str) -> str | None:
    """code moved sideways so that its first line starts at ``indent`` (relative indentation
    kept), or None when a line would have to move left of column 0."""
    lines = code.expandtabs(4).splitlines()
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        return None
    delta = len(indent.expandtabs(4)) - len(_indent_of(first))
    out = []
    for line in lines:
        if not line.strip():
            out.append("")
        elif delta >= 0:
            out.append(" " * delta + line)
        elif len(_indent_of(line)) >= -delta:
            out.append(line[-delta:])
        else:
            return None
    return "\n".join(out) + "\n"


def completion_sources(prefix: str, code: str, entry: str, indent: str) -> list[str]:
    """Programs to try, in order, for a completion answer.

    An answer that defines the function itself is used alone (after the lines, such as imports,
    that the given prefix has before its def line); otherwise it is the continuation: the prefix
    followed by the answer, with any repeated last lines of the prefix dropped, then the same
    moved sideways so that its first line has the continuation's indentation (for answers
    written flush left or indented for another nesting level).
    """
    if not prefix.endswith("\n"):
        prefix += "\n"
    if defines(code, entry):
        head = prefix.split("def ", 1)[0] if prefix.lstrip().startswith(("import", "from")) else ""
        return [head + code]
    lines = code.splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    tail = [line.strip() for line in prefix.splitlines() if line.strip()]
    body = lines
    for k in range(min(len(tail), len(lines)), 0, -1):
        if [line.strip() for line in lines[:k]] == tail[-k:]:
            body = lines[k:]
            break
    continuation = "\n".join(body) + "\n"
    sources = [prefix + continuation]
    shifted = _shift_to(continuation, indent)
    if shifted is not None and shifted != continuation:
        sources.append(prefix + shifted)
    return sources


# ---------------------------------------------------------------- scoring

# Generous for these small inputs: a correct solution runs in milliseconds.
LIMITS = Limits(cpu_seconds=2, wall_seconds=6.0)


def modules_text() -> str:
    return ", ".join(m for m in ALLOWED_MODULES if "." not in m)


def passes(sources: list[str], entry: str, tests: list[tuple[Args, Any]]) -> bool:
    """Whether the first compiling source passes every hidden test, run in the sandbox."""
    if not sources or not any(s.strip() for s in sources):
        return False
    return run_tests(sources, entry, tests, limits=LIMITS).passed


# ---------------------------------------------------------------- stdin/stdout programs

STDIO_ENTRY = "run_program"

_STDIO_WRAPPER = """\
import io
import sys

PROGRAM = {program!r}
# The program's own imports, for the sandbox to pre-import:
{imports}


def run_program(stdin_text):
    given = io.TextIOWrapper(io.BytesIO(stdin_text.encode("utf-8")), encoding="utf-8")
    printed = io.StringIO()
    saved = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = given, printed
    try:
        space = {{"__name__": "__main__", "exit": sys.exit, "quit": sys.exit}}
        exec(compile(PROGRAM, "solution.py", "exec"), space)
    except SystemExit as stop:
        if stop.code not in (None, 0):
            raise
    finally:
        sys.stdin, sys.stdout = saved
    return normalised_output(printed.getvalue())


def normalised_output(text):
    lines = [line.rstrip() for line in text.replace("\\r\\n", "\\n").split("\\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\\n".join(lines)
"""


def normalised_output(text: str) -> str:
    """Printed text as it is compared: line ends unified, trailing spaces and blank last lines
    dropped (the same function runs in the sandbox on what the program printed)."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def stdio_program(code: str) -> str:
    """A whole program (reads stdin, prints) as the sandbox's function ``run_program(stdin)``,
    which returns the normalised printed text. The program's import lines are repeated as
    comments so that the sandbox pre-imports the allowed modules it names."""
    imports = [
        "# " + line.strip()
        for line in code.splitlines()
        if line.strip().startswith(("import ", "from "))
    ]
    return _STDIO_WRAPPER.format(program=code, imports="\n".join(imports))


def stdio_limits(tests: int) -> Limits:
    """Two CPU seconds per test (at most 30): fetched problems have real time limits."""
    cpu = min(30, 2 * max(1, tests))
    return Limits(cpu_seconds=cpu, wall_seconds=cpu * 2 + 4.0)


def passes_stdio(code: str, tests: list[tuple[Args, Any]]) -> bool:
    """Whether a whole program prints the expected output for every stdin of the tests."""
    if not code.strip():
        return False
    report = run_tests([stdio_program(code)], STDIO_ENTRY, tests, limits=stdio_limits(len(tests)))
    return report.passed


def record_parts(record: Any) -> tuple[str, list[tuple[Args, Any]]] | None:
    """(entry point, tests) of a well-formed record, else None."""
    if not isinstance(record, dict):
        return None
    entry = record.get("entry_point")
    tests = read_tests(record)
    if not isinstance(entry, str) or not entry.isidentifier() or tests is None:
        return None
    return entry, tests
