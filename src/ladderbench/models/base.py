"""What every model adapter takes and gives: a request in, a completion out."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from ladderbench.errors import UserError
from ladderbench.items import Completion

T = TypeVar("T")


class ModelCrash(UserError):
    """The model itself died mid-run (a native crash in its worker): the run stops at once.

    Not a wrong answer and not a transient failure: the runner keeps every row written so far and
    adds to the message how to resume.
    """


@dataclass(frozen=True)
class Sampling:
    """Sampling parameters; part of the cache key, so two settings never share a response."""

    temperature: float = 0.0
    max_tokens: int = 512
    seed: int | None = None


@dataclass(frozen=True)
class Request:
    """One attempt at one item.

    ``reference`` (the gold answer in the suite's format) and ``choices`` are read only by the
    baseline adapters (oracle, random); real models see ``messages`` alone.
    """

    item_id: str
    messages: tuple[dict[str, str], ...]
    sampling: Sampling = field(default_factory=Sampling)
    sample: int = 0
    reference: str = ""
    choices: tuple[str, ...] = ()

    def cache_payload(self) -> dict[str, Any]:
        """What identifies the request for the response cache (never the gold answer)."""
        return {
            "messages": list(self.messages),
            "temperature": self.sampling.temperature,
            "max_tokens": self.sampling.max_tokens,
            "seed": self.sampling.seed,
            "sample": self.sample,
        }


class ModelAdapter(ABC):
    """A model behind a uniform async ``complete``.

    ``cacheable`` adapters (real models) go through the response cache; baselines are free.
    ``concurrency_limit`` caps parallel calls for adapters that cannot overlap (in-process models).
    """

    kind: ClassVar[str]
    cacheable: ClassVar[bool] = False
    concurrency_limit: ClassVar[int | None] = None

    def __init__(self, model: str) -> None:
        self.model = model

    @abstractmethod
    async def complete(self, request: Request) -> Completion:
        """Answer one request. Transport failures come back as ``Completion(error=...)``."""

    async def check(self, request: Request) -> Completion:
        """The first attempt of a run: a configuration problem here is fatal (UserError).

        Adapters with an endpoint override this to turn a wrong URL, a refused connection or a
        non-OpenAI answer into one clear line instead of a file full of errored rows.
        """
        return await self.complete(request)

    async def offload(self, work: Callable[..., T], *args: Any) -> T:
        """Run slow grading work (sympy, sandboxed code) off the event loop: in a thread here;
        an executor that spreads the model over machines runs it there too (``--executor ray``)."""
        return await asyncio.to_thread(work, *args)

    async def aclose(self) -> None:  # noqa: B027  (optional hook)
        """Release connections or model memory."""

    def settings(self) -> dict[str, Any]:
        """What to record about this adapter in the results (never a secret)."""
        return {"adapter": self.kind, "model": self.model}
