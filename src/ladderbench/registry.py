"""One registry type for everything chosen by name: suites, families, tasks, adapters, graders.

Built-in entries may be registered lazily: the registry imports the module that registers them
only when a name is first looked up, so a static run never loads the live suite.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

from ladderbench.errors import UserError

T = TypeVar("T")


class Registry(Generic[T]):
    """Entries of one kind by name; an unknown name is a one-line ``UserError`` listing the known.

    ``modules`` maps a built-in name to the module whose import registers it; ``package`` is a
    module whose import registers every built-in (for kinds that are all listed at once).
    """

    def __init__(
        self, kind: str, modules: Mapping[str, str] | None = None, package: str | None = None
    ) -> None:
        self.kind = kind
        self._entries: dict[str, T] = {}
        self._modules = dict(modules or {})
        self._package = package

    def add(self, name: str, entry: T) -> T:
        """Register ``entry`` under ``name``; a name registered twice is a programming error."""
        if name in self._entries:
            raise ValueError(f"{self.kind} {name!r} registered twice")
        self._entries[name] = entry
        return entry

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator form of ``add``."""

        def decorate(entry: T) -> T:
            return self.add(name, entry)

        return decorate

    def _load(self, name: str | None = None) -> None:
        if self._package is not None:
            importlib.import_module(self._package)
        wanted = self._modules if name is None else {name: self._modules.get(name, "")}
        for key, module in wanted.items():
            if module and key not in self._entries:
                importlib.import_module(module)

    def names(self) -> list[str]:
        """Every name, built-ins included, sorted."""
        self._load()
        return sorted(self._entries)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.names()

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def items(self) -> dict[str, T]:
        """Every entry by name, sorted by name."""
        self._load()
        return dict(sorted(self._entries.items()))

    def get(self, name: str) -> T:
        if name not in self._entries:
            self._load(name)
        if name not in self._entries:
            raise UserError(f"unknown {self.kind} {name!r}; known: {', '.join(self.names())}")
        return self._entries[name]
