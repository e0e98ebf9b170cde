"""The registry of puzzle families, by name (each family module registers its class on import)."""

from __future__ import annotations

from ladderbench.puzzles.base import Family
from ladderbench.registry import Registry

FAMILIES: Registry[Family] = Registry("puzzle family", package="ladderbench.puzzles.families")


def register(cls: type[Family]) -> type[Family]:
    """Class decorator: make a family available under its ``name``."""
    FAMILIES.add(cls.name, cls())
    return cls


def families() -> dict[str, Family]:
    """All registered families by name, the built-in ones included."""
    return FAMILIES.items()


def get_family(name: str) -> Family:
    return FAMILIES.get(name)
