"""What a suite is to the runner, and the one registry of suites by name."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from ladderbench.errors import UserError
from ladderbench.items import Item, ResultRow, Verdict


class Suite(Protocol):
    """A set of items, the grader for them, and how their rows add up to a summary."""

    name: str

    def items(self) -> list[Item]: ...

    def grade(self, item: Item, response: str) -> Verdict: ...

    def summarise(self, rows: list[ResultRow], samples: int) -> dict[str, Any]: ...

    def settings(self) -> dict[str, Any]: ...


SuiteFactory = Callable[..., Suite]
_SUITES: dict[str, SuiteFactory] = {}


def register_suite(name: str) -> Callable[[SuiteFactory], SuiteFactory]:
    def decorate(factory: SuiteFactory) -> SuiteFactory:
        _SUITES[name] = factory
        return factory

    return decorate


# Built-in suites, imported only when asked for: a static run need not load the live suite.
_BUILTIN = {
    "live": "ladderbench.live.suite",
    "puzzles": "ladderbench.puzzles.suite",
    "static": "ladderbench.static.suite",
}


def suite_names() -> list[str]:
    return sorted(set(_SUITES) | set(_BUILTIN))


def make_suite(name: str, **options: Any) -> Suite:
    """Build a registered suite; options a suite does not take are ignored by its factory."""
    if name not in _SUITES and name in _BUILTIN:
        importlib.import_module(_BUILTIN[name])
    if name not in _SUITES:
        raise UserError(f"unknown suite {name!r}; known: {', '.join(sorted(_SUITES))}")
    return _SUITES[name](**options)


def summarise_rows(rows: Iterable[ResultRow], suite: str, samples: int) -> dict[str, Any]:
    """A summary for the rows of a run cut short (no summary row), as its suite would write it.

    ``rows`` may be a stream: each summariser reads it once.
    """
    from ladderbench.analysis.live import live_summary
    from ladderbench.analysis.summary import summarise

    if suite == "live":
        return live_summary(rows, samples)
    if suite == "puzzles":
        return summarise(rows, rung="tier", group="family", samples=samples)
    from ladderbench.static.suite import StaticSuite

    return summarise(
        rows, rung="level", group="category", samples=samples, baseline=StaticSuite.baseline
    )
