"""What a suite is to the runner, and the one registry of suites by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ladderbench.errors import UserError
from ladderbench.items import Item, Verdict


class Suite(Protocol):
    """A set of items and the grader for them.

    ``rung`` and ``group`` name the result-row fields the summary breaks down by; ``baseline`` is
    the expected pass rate of a uniform guess (None where guessing is hopeless).
    """

    name: str
    rung: str
    group: str
    baseline: float | None

    def items(self) -> list[Item]: ...

    def grade(self, item: Item, response: str) -> Verdict: ...

    def settings(self) -> dict[str, Any]: ...


SuiteFactory = Callable[..., Suite]
_SUITES: dict[str, SuiteFactory] = {}


def register_suite(name: str) -> Callable[[SuiteFactory], SuiteFactory]:
    def decorate(factory: SuiteFactory) -> SuiteFactory:
        _SUITES[name] = factory
        return factory

    return decorate


def _load_builtins() -> None:
    import ladderbench.puzzles.suite
    import ladderbench.static.suite  # noqa: F401  (registers "static")


def suite_names() -> list[str]:
    _load_builtins()
    return sorted(_SUITES)


def make_suite(name: str, **options: Any) -> Suite:
    """Build a registered suite; options a suite does not take are ignored by its factory."""
    _load_builtins()
    if name not in _SUITES:
        raise UserError(f"unknown suite {name!r}; known: {', '.join(sorted(_SUITES))}")
    return _SUITES[name](**options)
