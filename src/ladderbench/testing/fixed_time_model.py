"""A model of fixed service time, for the Ray tests and bench: the oracle's answers, each after
``seconds`` of (asynchronous) waiting, one request at a time like one embedded-model worker (or
``slots`` at once, like a server)."""

from __future__ import annotations

import asyncio

from ladderbench.items import Completion
from ladderbench.models.base import ModelAdapter, Request


class FixedTimeAdapter(ModelAdapter):
    """Answers with the gold answer after ``seconds``; ``slots`` calls at once per copy."""

    kind = "oracle"
    concurrency_limit = 1

    def __init__(self, seconds: float, slots: int = 1) -> None:
        super().__init__("oracle")
        self.seconds = seconds
        self.concurrency_limit = slots  # type: ignore[misc]

    async def complete(self, request: Request) -> Completion:
        await asyncio.sleep(self.seconds)
        return Completion(text=request.reference)
