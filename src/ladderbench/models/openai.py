"""Any OpenAI-compatible ``/v1/chat/completions`` endpoint: Ollama, llama.cpp, vLLM, APIs.

Transient failures (429, 5xx, timeouts, dropped connections, a garbled body) are retried with
exponential backoff and jitter, honouring ``Retry-After``; an attempt that still fails comes back
with ``error`` set, so it is counted apart and never scored as a wrong answer. The first attempt of
a run goes through ``check``: there, a wrong URL or a server that does not speak the protocol is a
one-line UserError. The API key is sent in a header and scrubbed from every message.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    retry_if_not_exception_type,
    stop_after_attempt,
)
from tenacity.wait import wait_exponential_jitter

from ladderbench.errors import UserError
from ladderbench.items import Completion
from ladderbench.models.base import ModelAdapter, Request
from ladderbench.models.endpoints import public_url, server_ms

MAX_RETRY_AFTER_S = 120.0


class TransientError(Exception):
    """Worth another try; ``retry_after`` is the server's own hint in seconds."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class UnreachableError(TransientError):
    """No connection at all: retried during a run, fatal on the first attempt."""


class BadResponseError(TransientError):
    """An answer that is not an OpenAI chat completion (not JSON, no choices)."""


class RejectedError(Exception):
    """A 4xx other than 429: the request or the configuration is wrong; retrying will not help."""


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return min(max(float(value), 0.0), MAX_RETRY_AFTER_S)
    except ValueError:
        return None  # an HTTP date: fall back to our own backoff


class OpenAIAdapter(ModelAdapter):
    kind = "openai"
    cacheable = True

    def __init__(
        self,
        model: str,
        base_url: str,
        api_key: str | None = None,
        timeout: float = 120.0,
        retries: int = 5,
        retry_wait: float = 1.0,
    ) -> None:
        super().__init__(model)
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise UserError(f"--base-url {base_url!r}: not an http(s) URL like http://host:port/v1")
        self.base_url = base_url.rstrip("/")
        self.url = f"{self.base_url}/chat/completions"
        self._api_key = api_key
        self.timeout = timeout
        self.retries = retries
        self.retry_wait = retry_wait
        # Exponential backoff with jitter: retry_wait * 2^(n-1) before attempt n+1; the first
        # wait is taken by hand in _post, tenacity's loop takes the later ones.
        self._later_backoff = wait_exponential_jitter(
            multiplier=2 * retry_wait, max=60.0, jitter=retry_wait
        )
        self._session: aiohttp.ClientSession | None = None

    def _scrub(self, text: str) -> str:
        if self._api_key:
            text = text.replace(self._api_key, "***")
        return text

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _get_session(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=0, ttl_dns_cache=300),
                timeout=aiohttp.ClientTimeout(total=self.timeout),
            )
        return self._session

    def _payload(self, request: Request) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": list(request.messages),
            "temperature": request.sampling.temperature,
            "max_tokens": request.sampling.max_tokens,
        }
        if request.sampling.seed is not None:
            payload["seed"] = request.sampling.seed + request.sample
        return payload

    async def _post_once(self, payload: dict[str, Any]) -> Completion:
        started = time.perf_counter()
        try:
            async with self._get_session().post(
                self.url, json=payload, headers=self._headers()
            ) as resp:
                body = await resp.read()
                status = resp.status
                retry_after = _retry_after(resp.headers.get("Retry-After"))
        except asyncio.TimeoutError as exc:
            raise TransientError(f"timeout after {self.timeout:g}s") from exc
        except aiohttp.ClientConnectorError as exc:
            raise UnreachableError(f"cannot connect ({exc.os_error or exc})") from exc
        except (aiohttp.ClientPayloadError, aiohttp.ServerDisconnectedError) as exc:
            raise TransientError("connection dropped mid-response") from exc
        except aiohttp.ClientError as exc:
            raise TransientError(f"connection error: {type(exc).__name__}") from exc
        if status == 429 or status >= 500:
            raise TransientError(f"HTTP {status}", retry_after)
        if status >= 400:
            raise RejectedError(f"HTTP {status}: {body[:200].decode('utf-8', 'replace')}")
        try:
            data = json.loads(body)
        except ValueError as exc:
            raise BadResponseError("response is not JSON") from exc
        choices = data.get("choices") if isinstance(data, dict) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise BadResponseError("JSON response without choices")
        message = choices[0].get("message") or {}
        text = message.get("content") if isinstance(message, dict) else None
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        return Completion(
            text=text if isinstance(text, str) else "",
            usage={k: v for k, v in usage.items() if isinstance(v, int)},
            latency_ms=(time.perf_counter() - started) * 1000,
            server_ms=server_ms(data.get("timings")),
        )

    @staticmethod
    def _honour(hint: float | None, backoff: float) -> float:
        return max(hint, backoff) if hint is not None else backoff

    def _wait(self, state: RetryCallState) -> float:
        """Backoff before retry n+1 (the first attempt ran outside tenacity), or Retry-After."""
        exc = state.outcome.exception() if state.outcome else None
        return self._honour(getattr(exc, "retry_after", None), self._later_backoff(state))

    async def _post(
        self, payload: dict[str, Any], fatal: tuple[type[Exception], ...] = ()
    ) -> Completion:
        """One request with bounded retries on transient failures (except those in ``fatal``).

        The first attempt runs bare: most requests succeed, and building the retry machinery
        for each of them was a measurable share of the runner's CPU (bench/README.md).
        """
        try:
            return await self._post_once(payload)
        except TransientError as exc:
            if isinstance(exc, fatal) or self.retries == 0:
                raise
            first_wait = self.retry_wait + random.uniform(0, self.retry_wait)
            await asyncio.sleep(self._honour(exc.retry_after, first_wait))
        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.retries),
            wait=self._wait,
            retry=retry_if_exception_type(TransientError) & retry_if_not_exception_type(fatal),
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                return await self._post_once(payload)
        raise AssertionError("unreachable")  # pragma: no cover

    async def complete(self, request: Request) -> Completion:
        try:
            return await self._post(self._payload(request))
        except (TransientError, RejectedError) as exc:
            return Completion(error=self._scrub(str(exc))[:300])

    def _unreachable_hint(self) -> str:
        return "is the server running and --base-url right?"

    def _rejected_hint(self, status: str) -> str:
        return {
            "401": "check --api-key / OPENAI_API_KEY",
            "403": "check --api-key / OPENAI_API_KEY",
            "404": "check --base-url (usually ends in /v1) and the model name",
        }.get(status, "check the model name and options")

    async def check(self, request: Request) -> Completion:
        """The first attempt: a refused connection or a non-OpenAI answer fails at once."""
        where = public_url(self.url)
        payload = self._payload(request)
        try:
            return await self._post(payload, fatal=(UnreachableError, BadResponseError))
        except UnreachableError as exc:
            raise UserError(
                f"{where}: {self._scrub(str(exc))}; {self._unreachable_hint()}"
            ) from exc
        except BadResponseError as exc:
            raise UserError(
                f"{where}: {exc}; is --base-url an OpenAI-compatible endpoint (ending in /v1)?"
            ) from exc
        except RejectedError as exc:
            hint = self._rejected_hint(str(exc)[5:8])
            raise UserError(f"{where}: {self._scrub(str(exc))[:160]}; {hint}") from exc
        except TransientError as exc:  # overload, not configuration: an errored attempt
            return Completion(error=self._scrub(str(exc))[:300])

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def settings(self) -> dict[str, Any]:
        return {"adapter": self.kind, "model": self.model, "endpoint": public_url(self.base_url)}


class OllamaAdapter(OpenAIAdapter):
    """A model served by Ollama, through its OpenAI-compatible endpoint (``ollama:NAME``).

    The protocol is OpenAI's; the kind is its own so that results name the ``--model`` spec that
    reproduces them, and a configuration error says what to do in Ollama's terms.
    """

    kind = "ollama"

    def _unreachable_hint(self) -> str:
        return (
            f"is Ollama running? start it with 'ollama serve' and pull the model with "
            f"'ollama pull {self.model}' (or set OLLAMA_HOST / --base-url)"
        )

    def _rejected_hint(self, status: str) -> str:
        if status == "404":
            return f"is the model pulled? 'ollama pull {self.model}'"
        return super()._rejected_hint(status)
