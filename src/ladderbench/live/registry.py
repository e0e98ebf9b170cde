"""One registry of live tasks, by name."""

from __future__ import annotations

from ladderbench.errors import UserError
from ladderbench.live.base import CATEGORIES, Task

_TASKS: dict[str, Task] = {}


def register(cls: type[Task]) -> type[Task]:
    """Class decorator: make a task available under its ``name``."""
    if cls.name in _TASKS:
        raise ValueError(f"live task {cls.name!r} registered twice")
    if cls.category not in CATEGORIES:
        raise ValueError(f"live task {cls.name!r}: unknown category {cls.category!r}")
    _TASKS[cls.name] = cls()
    return cls


def tasks() -> dict[str, Task]:
    """All registered tasks, importing the built-in ones on first use."""
    import ladderbench.live.tasks  # noqa: F401  (registers on import)

    return dict(sorted(_TASKS.items()))


def get_task(name: str) -> Task:
    known = tasks()
    if name not in known:
        raise UserError(f"unknown live task {name!r}; known: {', '.join(known)}")
    return known[name]
