"""Several copies of one model behind one adapter: ``--workers N`` for the embedded model.

The runner sees a single adapter (one kind, one model, one set of settings, so the results file,
the cache and a resume are those of a one-worker run); each request goes to a copy that is free.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, TypeVar

from ladderbench.items import Completion
from ladderbench.models.base import ModelAdapter, Request

Slot = TypeVar("Slot")


def free_slots(members: Sequence[Slot], slots: int) -> asyncio.Queue[Slot]:
    """A queue holding each member ``slots`` times: taking one claims a slot, putting it back
    frees it. Made in the running loop (a pool is built before the loop starts)."""
    free: asyncio.Queue[Slot] = asyncio.Queue()
    for member in members:
        for _ in range(slots):
            free.put_nowait(member)
    return free


class AdapterPool(ModelAdapter):
    """Copies of one adapter, each taking ``concurrency_limit`` requests at once (1 if unset)."""

    def __init__(self, members: Sequence[ModelAdapter]) -> None:
        first = members[0]
        super().__init__(first.model)
        self.kind = first.kind  # type: ignore[misc]  # the pool records as its members do
        self.cacheable = first.cacheable  # type: ignore[misc]
        self.members = list(members)
        self.slots = first.concurrency_limit or 1
        self.concurrency_limit = self.slots * len(self.members)  # type: ignore[misc]
        self._free: asyncio.Queue[ModelAdapter] | None = None

    def _queue(self) -> asyncio.Queue[ModelAdapter]:
        """The free copies (made on first use, in the running loop)."""
        if self._free is None:
            self._free = free_slots(self.members, self.slots)
        return self._free

    async def _on_free(self, request: Request, check: bool) -> Completion:
        free = self._queue()
        member = await free.get()
        try:
            return await (member.check if check else member.complete)(request)
        finally:
            free.put_nowait(member)

    async def complete(self, request: Request) -> Completion:
        return await self._on_free(request, check=False)

    async def check(self, request: Request) -> Completion:
        return await self._on_free(request, check=True)

    async def aclose(self) -> None:
        await asyncio.gather(*(member.aclose() for member in self.members))

    def settings(self) -> dict[str, Any]:
        return self.members[0].settings()
