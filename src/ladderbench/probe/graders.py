"""What the probe can audit: a Python callable, a built-in LadderBench grader, or an LLM judge.

A grader maps (case context, answer) to a score in [0, 1] and a reason. A callable may return a
number, a ``(score, reason)`` pair, or a mapping with ``score`` and ``reason``.
"""

from __future__ import annotations

import importlib
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ladderbench.errors import UserError

GradeFn = Callable[[dict[str, Any], str], Any]


@dataclass(frozen=True)
class Grade:
    score: float
    reason: str


class GraderOutputError(ValueError):
    """The grader answered, but not with a score in [0, 1]: recorded on the rung."""


def coerce(result: Any) -> Grade:
    """Read a grader's return value; anything but a number in [0, 1] is a GraderOutputError."""
    reason = ""
    if isinstance(result, Grade):
        return result
    if isinstance(result, dict):
        score, reason = result.get("score"), str(result.get("reason") or "")
    elif isinstance(result, (tuple, list)) and len(result) == 2:
        score, reason = result[0], str(result[1] or "")
    else:
        score = result
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        raise GraderOutputError(f"grader returned {type(score).__name__} {score!r}, not a number")
    if math.isnan(score) or not 0.0 <= score <= 1.0:
        raise GraderOutputError(f"grader returned {score!r}: scores must be in [0, 1]")
    return Grade(float(score), reason)


def _static_choice(case: dict[str, Any], answer: str) -> Grade:
    from ladderbench.grading.choice import grade_choice

    verdict = grade_choice(answer, case["choices"], case["gold"])
    read = verdict.extracted or "no letter"
    return Grade(verdict.score, f"read {read}; gold {case['gold']}")


def _puzzle_checker(family: str) -> GradeFn:
    def grade(case: dict[str, Any], answer: str) -> Grade:
        from ladderbench.puzzles.suite import grade_puzzle

        verdict = grade_puzzle(family, case["expected"], answer)
        read = verdict.extracted if verdict.extracted is not None else "no answer"
        return Grade(verdict.score, f"read {read}; expected {case['expected']}")

    return grade


def _live_scorer(task: Any) -> GradeFn:
    def grade(case: dict[str, Any], answer: str) -> Grade:
        return Grade(task.score(case, answer), "")

    return grade


def builtin_graders() -> dict[str, GradeFn]:
    """Every grader LadderBench itself scores with, by name."""
    from ladderbench.live.registry import tasks
    from ladderbench.puzzles.registry import families

    graders: dict[str, GradeFn] = {"static.choice": _static_choice}
    for name in sorted(families()):
        graders[f"puzzles.{name}"] = _puzzle_checker(name)
    for name, task in tasks().items():
        graders[f"live.{name}"] = _live_scorer(task)
    return graders


def load_callable(spec: str) -> GradeFn:
    """``module:function`` from the current directory or the installed packages."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise UserError(f"--grade {spec!r}: expected module:function or a built-in grader name")
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UserError(f"--grade {spec!r}: cannot import {module_name!r} ({exc})") from None
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise UserError(f"--grade {spec!r}: {module_name} has no callable {attr!r}")
    return fn


def resolve(spec: str) -> GradeFn:
    """A built-in grader by name, or a callable by ``module:function``."""
    if ":" in spec:
        return load_callable(spec)
    known = builtin_graders()
    if spec not in known:
        raise UserError(
            f"--grade {spec!r}: no such built-in grader; use module:function or one of "
            f"{', '.join(known)}"
        )
    return known[spec]
