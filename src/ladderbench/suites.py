"""What a suite is to the runner, and the one registry of suites by name.

A suite describes itself: its options are a config dataclass (field names are the CLI flags), its
summary is a typed model; the CLI, the report and calibrate dispatch through ``SUITES`` and the
summary types, never on a suite's name or a summary's keys.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from ladderbench.errors import UserError
from ladderbench.items import Item, ResultRow, Verdict
from ladderbench.registry import Registry
from ladderbench.summaries import Summary


class Suite(Protocol):
    """A set of items, the scorer for them, and how their rows add up to a summary."""

    name: str

    def items(self) -> list[Item]: ...

    def grade(self, item: Item, response: str) -> Verdict: ...

    def summarise(self, rows: Iterable[ResultRow], samples: int) -> Summary: ...

    def settings(self) -> dict[str, Any]: ...


@runtime_checkable
class SequentialSuite(Suite, Protocol):
    """A suite that may choose its items round by round from the answers so far (an adaptive
    search): ``next_round`` gives the next items, [] when done, or None when this instance
    knows all its items up front (then it is run as a plain suite)."""

    def next_round(self, rows: Sequence[ResultRow]) -> list[Item] | None: ...

    def planned_total(self) -> int: ...


C = TypeVar("C")


@dataclass(frozen=True)
class SuiteSpec(Generic[C]):
    """A registered suite: the options it takes, how to build it, how its rows add up.

    ``summarise`` needs no suite instance: a run cut short is summarised from its rows alone.
    """

    name: str
    config: type[C]
    build: Callable[[C], Suite]
    summary: type[Summary]
    summarise: Callable[[Iterable[ResultRow], int], Summary]

    def options(self) -> list[str]:
        """The option names this suite takes (the config's fields)."""
        return [f.name for f in dataclasses.fields(self.config)]  # type: ignore[arg-type]


def flag(option: str) -> str:
    return "--" + option.replace("_", "-")


SUITES: Registry[SuiteSpec[Any]] = Registry(
    "suite",
    modules={
        "live": "ladderbench.live.suite",
        "puzzles": "ladderbench.puzzles.suite",
        "static": "ladderbench.static.suite",
    },
)


def suite_names() -> list[str]:
    return SUITES.names()


def make_suite(name: str, **options: Any) -> Suite:
    """Build a registered suite from the options given; one it does not take is a UserError."""
    spec = SUITES.get(name)
    takes = spec.options()
    for option in options:
        if option not in takes:
            raise UserError(
                f"{flag(option)} does not apply to --suite {name} "
                f"(it takes: {', '.join(map(flag, takes))})"
            )
    return spec.build(spec.config(**options))


def summarise_rows(rows: Iterable[ResultRow], suite: str, samples: int) -> Summary:
    """A summary for the rows of a run cut short (no summary row), as its suite would write it.

    ``rows`` may be a stream: each summariser reads it once.
    """
    return SUITES.get(suite).summarise(rows, samples)


def parse_summary(obj: dict[str, Any]) -> Summary:
    """A summary dict (a results file's last line) as its suite's typed summary; a suite this
    installation does not know gives the plain ``Summary`` (every key kept)."""
    name = obj.get("suite")
    spec = SUITES.get(name) if isinstance(name, str) and name in SUITES else None
    if spec:
        return spec.summary.model_validate(obj)
    return Summary.model_validate(obj)
