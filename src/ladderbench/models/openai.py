"""Any OpenAI-compatible ``/v1/chat/completions`` endpoint: Ollama, llama.cpp, vLLM, APIs.

Transient failures (429, 5xx, timeouts, dropped connections, a garbled body) are retried with
exponential backoff and jitter, honouring ``Retry-After``; an attempt that still fails comes back
with ``error`` set, so it is counted apart and never scored as a wrong answer. The waits of one
attempt add up to at most ``WAIT_BUDGET_S``: a server asking for more ends the attempt with an
error instead of stalling the run. A body is read up to ``max_response_bytes`` and no further.
The first attempt of a run goes through ``check``: there, a wrong URL or a server that does not
speak the protocol is a one-line UserError. The API key is sent in a header and scrubbed from
every message, and from answers before they reach results or the cache.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import time
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from ladderbench.errors import UserError
from ladderbench.httpbody import read_capped
from ladderbench.items import Completion
from ladderbench.models.base import ModelAdapter, Request
from ladderbench.models.endpoints import (
    MAX_RESPONSE_BYTES,
    MIN_SECRET_CHARS,
    public_url,
    server_ms,
)

WAIT_BUDGET_S = 300.0  # all the waits between the tries of one attempt, Retry-After included
MAX_BACKOFF_S = 60.0
MAX_TOKEN_COUNT = 2**53  # larger "usage" counts are garbage, and not exact in JSON readers


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


class GaveUpError(Exception):
    """Not worth another try: an answer over the size cap (a model that rambles at these settings
    rambles again, and a server that streams forever would only fill the cap again), or a server
    asking to wait longer than the attempt's wait budget. An error row, also on the first
    attempt: neither says the configuration is wrong."""


def _retry_after(value: str | None) -> float | None:
    """``Retry-After`` in seconds; None when absent, an HTTP date (our own backoff then), or not
    a finite number of seconds at least 0 (``nan``, ``inf``, ``-5``)."""
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def _check_base_url(base_url: str) -> None:
    """A one-line UserError for a URL no request could be sent to (checked before any is)."""
    problem = None
    try:
        parts = urlsplit(base_url)
        port = parts.port
    except ValueError as exc:  # a port out of range or not a number, broken IPv6 brackets
        problem = str(exc)
    else:
        if parts.scheme not in ("http", "https") or not parts.hostname:
            problem = "not an http(s) URL like http://host:port/v1"
        elif any(c.isspace() or not c.isprintable() for c in base_url):
            problem = "it contains spaces or control characters"
        elif port == 0:
            problem = "port 0 is not a port a server listens on"
    if problem:
        raise UserError(f"--base-url {base_url!r}: {problem}")


def _token_counts(usage: Any) -> dict[str, int]:
    """The server's token counts that are counts: ints from 0 to 2**53 (not bools, strings)."""
    if not isinstance(usage, dict):
        return {}
    return {
        str(key): value
        for key, value in usage.items()
        if type(value) is int and 0 <= value <= MAX_TOKEN_COUNT
    }


def _message_text(content: Any) -> str:
    """The answer in a message's ``content``: a string, a list of text parts (as some servers
    send it), or null (no text: a refusal, a tool call), which is an empty answer. Anything else
    is not an answer we can read, and BadResponseError rather than a wrong answer."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(
        isinstance(part, dict) and isinstance(part.get("text", ""), str) for part in content
    ):
        return "".join(part.get("text", "") for part in content)
    raise BadResponseError(
        f"JSON response whose message content is not text ({type(content).__name__})"
    )


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
        max_response_bytes: int = MAX_RESPONSE_BYTES,
    ) -> None:
        super().__init__(model)
        _check_base_url(base_url)
        self.base_url = base_url.rstrip("/")
        self.url = f"{self.base_url}/chat/completions"
        self._api_key = api_key
        self.timeout = timeout
        self.retries = retries
        self.retry_wait = retry_wait
        self.max_response_bytes = max_response_bytes
        self._session: aiohttp.ClientSession | None = None

    def _scrub(self, text: str) -> str:
        """The text without the API key: a whole body is scrubbed before any cut, so that no
        part of a key survives at the cut."""
        if self._api_key:
            text = text.replace(self._api_key, "***")
        return text

    def _scrub_answer(self, text: str) -> str:
        """An answer without the key (a placeholder key too short to be a secret is left, or it
        would cut letters out of answers). Lone surrogates are the runner's (``_writable``)."""
        if self._api_key and len(self._api_key) >= MIN_SECRET_CHARS:
            text = self._scrub(text)
        return text

    def _headers(self) -> dict[str, str]:
        """The key, where there is one (aiohttp sends ``json=`` as application/json itself)."""
        return {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}

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

    async def _read_capped(self, resp: aiohttp.ClientResponse) -> bytes:
        """The body, given up on past ``max_response_bytes`` (not retried: at fixed settings a
        model that rambles rambles again)."""
        body = await read_capped(resp, self.max_response_bytes)
        if body is None:
            raise GaveUpError(
                f"response over {self.max_response_bytes} bytes; see --max-response-bytes"
            )
        return body

    async def _post_once(self, payload: dict[str, Any]) -> Completion:
        started = time.perf_counter()
        try:
            async with self._get_session().post(
                self.url, json=payload, headers=self._headers()
            ) as resp:
                body = await self._read_capped(resp)
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
            text = self._scrub(body.decode("utf-8", "replace"))  # the whole body, then the cut
            raise RejectedError(f"HTTP {status}: {text[:200]}")
        return self._completion(body, started)

    def _completion(self, body: bytes, started: float) -> Completion:
        """An OpenAI chat completion's answer, token counts and server time, or BadResponseError
        for anything else (not JSON, nested past the parser's depth, no choices, no message)."""
        try:
            data = json.loads(body)
        except ValueError as exc:
            raise BadResponseError("response is not JSON") from exc
        except RecursionError as exc:
            raise BadResponseError("response is JSON nested too deeply to read") from exc
        choices = data.get("choices") if isinstance(data, dict) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise BadResponseError("JSON response without choices")
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise BadResponseError("JSON response whose first choice has no message")
        return Completion(
            text=self._scrub_answer(_message_text(message.get("content"))),
            usage=_token_counts(data.get("usage")),
            latency_ms=(time.perf_counter() - started) * 1000,
            server_ms=server_ms(data.get("timings")),
        )

    def _backoff(self, retry: int) -> float:
        """Exponential backoff with jitter before retry ``retry`` (0 for the first)."""
        return min(self.retry_wait * 2**retry, MAX_BACKOFF_S) + random.uniform(0, self.retry_wait)

    @staticmethod
    def _next_wait(exc: TransientError, backoff: float, waited: float) -> float:
        """The wait before the next try: the backoff, or longer where the server asks; GaveUpError
        where that would take the attempt's waits past ``WAIT_BUDGET_S``."""
        wait = backoff if exc.retry_after is None else max(exc.retry_after, backoff)
        if waited + wait > WAIT_BUDGET_S:
            asked = (
                f"the server asked to wait {exc.retry_after:g}s"
                if exc.retry_after is not None and exc.retry_after >= backoff
                else f"the next retry would wait {wait:.0f}s"
            )
            raise GaveUpError(
                f"{exc}; {asked}, past the {WAIT_BUDGET_S:g}s budget of waiting per attempt "
                f"({waited:.0f}s waited)"
            ) from exc
        return wait

    async def _post(
        self, payload: dict[str, Any], fatal: tuple[type[Exception], ...] = ()
    ) -> Completion:
        """One request with bounded retries on transient failures (except those in ``fatal``),
        and at most ``WAIT_BUDGET_S`` of waiting between them."""
        waited = 0.0
        for retry in range(self.retries):
            try:
                return await self._post_once(payload)
            except TransientError as exc:
                if isinstance(exc, fatal):
                    raise
                wait = self._next_wait(exc, self._backoff(retry), waited)
            waited += wait
            await asyncio.sleep(wait)
        return await self._post_once(payload)  # the last try: its failure is the attempt's

    def _error(self, exc: Exception) -> Completion:
        return Completion(error=self._scrub(str(exc))[:300])

    async def complete(self, request: Request) -> Completion:
        try:
            return await self._post(self._payload(request))
        except (TransientError, RejectedError, GaveUpError) as exc:
            return self._error(exc)

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
        except (TransientError, GaveUpError) as exc:  # not configuration: an errored attempt
            return self._error(exc)

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
