"""A local OpenAI-compatible server for tests and benchmarks, with fault injection.

It answers ``POST /v1/chat/completions`` on 127.0.0.1 with a reply chosen by a function of the
prompt, after an optional fixed latency, and can inject the failures real endpoints produce:
429 with Retry-After, 500, a hang past the client's timeout, a body that is not JSON, JSON without
choices, a dropped connection, JSON nested deeper than a parser goes, and a body that never ends
(``endless``: chunks streamed until the client stops reading). Run it in-process
(``with FakeOpenAI(...) as server``) or as a separate process:
``python -m ladderbench.testing.fake_openai --latency 0.2``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from aiohttp import web

from ladderbench.testing.loopback import LoopbackServer

Reply = Callable[[str], str]
# (prompt, how many times this prompt was asked before) -> a fault name or None
Fault = Callable[[str, int], "str | None"]
FAULTS = ("429", "500", "hang", "badjson", "nochoices", "drop", "401", "404", "nested", "endless")
ENDLESS_CHUNK = b" " * 65536  # whitespace: what a JSON parser would skip, forever


def _completion(text: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "model": "fake",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12},
        "timings": {"prompt_ms": 1.5, "predicted_ms": 2.5},  # as llama.cpp's server reports
    }


class FakeOpenAI(LoopbackServer):
    """An OpenAI-compatible endpoint in a background thread; ``base_url`` ends in ``/v1``."""

    def __init__(
        self,
        reply: Reply | None = None,
        fault: Fault | None = None,
        latency: float = 0.0,
        retry_after: str = "0.05",
        hang_s: float = 30.0,
        port: int = 0,
    ) -> None:
        self.reply = reply or (lambda prompt: "A")
        self.fault = fault
        self.latency = latency
        self.retry_after = retry_after
        self.hang_s = hang_s
        super().__init__(port)
        self.asked: Counter[str] = Counter()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.streamed = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        self.headers.append(dict(request.headers))
        prompt = body["messages"][-1]["content"]
        seen = self.asked[prompt]
        self.asked[prompt] += 1
        kind = self.fault(prompt, seen) if self.fault else None
        if self.latency:
            await asyncio.sleep(self.latency)
        if kind == "429":
            return web.Response(status=429, headers={"Retry-After": self.retry_after})
        if kind == "500":
            return web.Response(status=500, text="internal error")
        if kind in ("401", "404"):
            echo = request.headers.get("Authorization", "")
            return web.json_response({"error": f"rejected {echo}"}, status=int(kind))
        if kind == "hang":
            await asyncio.sleep(self.hang_s)
        if kind == "badjson":
            return web.Response(text='{"choices": [', content_type="application/json")
        if kind == "nochoices":
            return web.json_response({"choices": []})
        if kind == "drop" and request.transport is not None:
            request.transport.close()
            return web.Response()
        if kind == "nested":
            return web.Response(text="[" * 100_000 + "]" * 100_000, content_type="application/json")
        if kind == "endless":
            return await self._endless(request)
        return web.json_response(_completion(self.reply(prompt)))

    async def _endless(self, request: web.Request) -> web.StreamResponse:
        """A 200 whose body never ends; ``streamed`` counts the bytes the client took."""
        response = web.StreamResponse(headers={"Content-Type": "application/json"})
        await response.prepare(request)
        with contextlib.suppress(ConnectionError):
            while True:
                await response.write(ENDLESS_CHUNK)
                self.streamed += len(ENDLESS_CHUNK)
        return response

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/v1/chat/completions", self._handle)

    def __enter__(self) -> FakeOpenAI:
        super().__enter__()
        return self


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--reply", default="A", help="the fixed reply text")
    args = parser.parse_args(argv)
    with FakeOpenAI(reply=lambda _: args.reply, latency=args.latency, port=args.port) as server:
        print(json.dumps({"base_url": server.base_url}), flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
