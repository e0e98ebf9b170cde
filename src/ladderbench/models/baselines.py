"""Adapters that bound every suite: oracle (always right), echo (the prompt back), random."""

from __future__ import annotations

import hashlib
import random

from ladderbench.items import Completion
from ladderbench.models.base import ModelAdapter, Request


class OracleAdapter(ModelAdapter):
    """Replies with the gold answer in the suite's answer format: a suite it fails has a bug."""

    kind = "oracle"

    async def complete(self, request: Request) -> Completion:
        return Completion(text=request.reference)


class EchoAdapter(ModelAdapter):
    """Replies with the prompt itself: a grader that passes it rewards copying the question."""

    kind = "echo"

    async def complete(self, request: Request) -> Completion:
        return Completion(text="\n\n".join(m["content"] for m in request.messages))


class RandomAdapter(ModelAdapter):
    """A uniform guess among the item's choices (or a small integer), seeded per attempt."""

    kind = "random"

    def __init__(self, model: str, seed: int = 0) -> None:
        super().__init__(model)
        self.seed = seed

    async def complete(self, request: Request) -> Completion:
        key = f"{self.seed}|{request.item_id}|{request.sample}".encode()
        rng = random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))
        if request.choices:
            return Completion(text=rng.choice(request.choices))
        return Completion(text=str(rng.randrange(100)))
