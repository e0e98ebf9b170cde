"""One registry of puzzle families, by name."""

from __future__ import annotations

from ladderbench.errors import UserError
from ladderbench.puzzles.base import Family

_FAMILIES: dict[str, Family] = {}


def register(cls: type[Family]) -> type[Family]:
    """Class decorator: make a family available under its ``name``."""
    if cls.name in _FAMILIES:
        raise ValueError(f"puzzle family {cls.name!r} registered twice")
    _FAMILIES[cls.name] = cls()
    return cls


def families() -> dict[str, Family]:
    """All registered families, importing the built-in ones on first use."""
    import ladderbench.puzzles.families  # noqa: F401  (registers on import)

    return dict(_FAMILIES)


def get_family(name: str) -> Family:
    known = families()
    if name not in known:
        raise UserError(f"unknown puzzle family {name!r}; known: {', '.join(sorted(known))}")
    return known[name]
