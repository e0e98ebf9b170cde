"""What the probe can audit: a Python callable, a built-in LadderBench grader, or an LLM judge.

Inside the probe every grader is a ``Scorer`` (item, answer) -> ``Verdict``; its explanation is the
reason. A user's callable keeps its own shape, (case context, answer) -> a number, a
``(score, reason)`` pair, or a mapping with ``score`` and ``reason``, and is adapted at the edge.
"""

from __future__ import annotations

import importlib
import math
import pickle
import reprlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ladderbench.errors import UserError
from ladderbench.execution.limits import call_with_time_limit
from ladderbench.grading.scorer import Scorer
from ladderbench.items import Item, Verdict
from ladderbench.registry import Registry

GradeFn = Callable[[dict[str, Any], str], Any]

GRADER_TIMEOUT_S = 30.0  # the default limit of one call of a user's grader


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
        raise GraderOutputError(
            f"grader returned {type(score).__name__} {reprlib.repr(score)}, not a number"
        )
    if math.isnan(score) or not 0.0 <= score <= 1.0:
        raise GraderOutputError(f"grader returned {reprlib.repr(score)}: scores must be in [0, 1]")
    return Grade(float(score), reason)


@dataclass(frozen=True)
class Grader:
    """What the probe audits: a name and a scorer of the one shape (see grading/scorer.py)."""

    name: str
    scorer: Scorer


def from_callable(fn: GradeFn, name: str | None = None, timeout: float | None = None) -> Grader:
    """A user's grader in the one shape: it reads the case context from ``item.record``, and what
    it returns is read by ``coerce`` (a bad value raises ``GraderOutputError``).

    With ``timeout``, each call runs in a child process that is killed after that many seconds
    (``TimeLimitExceeded``, recorded on the rung like any error): a grader that hangs cannot hang
    the probe, nor keep burning CPU after it. ``fn`` must then be picklable (module-level).
    """

    def score(item: Item, response: str) -> Verdict:
        if timeout is None:
            result = fn(item.record, response)
        else:
            result = call_with_time_limit(fn, item.record, response, seconds=timeout)
        grade = coerce(result)
        return Verdict(
            extracted=None, score=grade.score, passed=grade.score >= 1.0, explanation=grade.reason
        )

    return Grader(name or str(getattr(fn, "__name__", "grader")), score)


def as_grader(grade: Grader | GradeFn) -> Grader:
    """A built-in grader as it is; any other callable adapted by ``from_callable``."""
    return grade if isinstance(grade, Grader) else from_callable(grade)


GRADERS: Registry[Grader] = Registry("built-in grader", package="ladderbench.probe.builtin")


def builtin_graders() -> dict[str, Grader]:
    """Every grader LadderBench itself scores with, by name."""
    return GRADERS.items()


def load_callable(spec: str, timeout: float = GRADER_TIMEOUT_S) -> Grader:
    """``module:function`` from the current directory or the installed packages, each call
    limited to ``timeout`` seconds (see ``from_callable``)."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise UserError(f"--grade {spec!r}: expected module:function or a built-in grader name")
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        module = importlib.import_module(module_name)
    except (Exception, SystemExit) as exc:  # the module's own code may raise anything
        reason = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
        raise UserError(f"--grade {spec!r}: cannot import {module_name!r} ({reason})") from None
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise UserError(f"--grade {spec!r}: {module_name} has no callable {attr!r}")
    try:
        pickle.dumps(fn)
    except Exception as exc:
        raise UserError(
            f"--grade {spec!r}: {attr} must be a module-level function, since it runs in a child "
            f"process with a time limit ({type(exc).__name__})"
        ) from None
    return from_callable(fn, spec, timeout)


def resolve(spec: str, timeout: float = GRADER_TIMEOUT_S) -> Grader:
    """A built-in grader by name, or a callable by ``module:function`` (each call limited to
    ``timeout`` seconds; the built-in graders bound their own slow work)."""
    if ":" in spec:
        return load_callable(spec, timeout)
    if spec not in GRADERS:
        raise UserError(
            f"--grade {spec!r}: no such built-in grader; use module:function or one of "
            f"{', '.join(GRADERS.names())}"
        )
    return GRADERS.get(spec)
