"""The registry of live tasks, by name (each task module registers its class on import)."""

from __future__ import annotations

from ladderbench.live.base import CATEGORIES, Task
from ladderbench.registry import Registry

TASKS: Registry[Task] = Registry("live task", package="ladderbench.live.tasks")


def register(cls: type[Task]) -> type[Task]:
    """Class decorator: make a task available under its ``name``."""
    if cls.category not in CATEGORIES:
        raise ValueError(f"live task {cls.name!r}: unknown category {cls.category!r}")
    TASKS.add(cls.name, cls())
    return cls


def tasks() -> dict[str, Task]:
    """All registered tasks by name, the built-in ones included."""
    return TASKS.items()


def get_task(name: str) -> Task:
    return TASKS.get(name)
