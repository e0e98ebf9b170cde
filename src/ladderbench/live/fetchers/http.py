"""The one HTTP client of ``live fetch``: polite, patient with overload, blunt about no network.

Every request carries an identifying User-Agent (public APIs ask for one), runs under a timeout,
and waits a source's own pause after the previous request to the same host (arXiv asks for
3 seconds, Codeforces for 2). Overload (429, 5xx, a timeout, a dropped connection) is retried
with exponential backoff; a ``Retry-After`` from the server is waited out exactly, and one asking
for more than ``MAX_RETRY_AFTER_S`` fails the source rather than the whole fetch. A connection
that cannot be made at all (no route, no DNS) is a ``UserError``: without network there is
nothing to fetch, and one line says so.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from types import TracebackType
from urllib.parse import urlsplit

import aiohttp
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
)
from tenacity.wait import wait_exponential

from ladderbench import __version__
from ladderbench.errors import UserError
from ladderbench.httpbody import read_capped

USER_AGENT = (
    f"ladderbench/{__version__} (live fetch: dated fresh material for a contamination-limited "
    "benchmark; python-aiohttp)"
)
MAX_RETRY_AFTER_S = 120.0
MAX_BODY_BYTES = 20_000_000
Sleep = Callable[[float], Awaitable[None]]


class FetchError(Exception):
    """A source answered, but not with what we can use (4xx, a page we cannot read): that
    source stops, the others go on."""


class TransientError(Exception):
    """Worth another try; ``retry_after`` is the server's own wait in seconds, if it gave one."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """``Retry-After`` in seconds: a number of seconds or an HTTP date; None if absent or bad."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max((when - (now or datetime.now(timezone.utc))).total_seconds(), 0.0)


def decode(body: bytes, charset: str | None) -> str:
    """The body as text in its declared charset (UTF-8 if none, or one Python does not know)."""
    try:
        return body.decode(charset or "utf-8", errors="replace")
    except LookupError:
        return body.decode("utf-8", errors="replace")


def host_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port}" if parts.port else str(parts.hostname)


class Http:
    """GET with retries, pacing per host and a shared session; use as an async context."""

    def __init__(
        self,
        timeout: float = 30.0,
        retries: int = 4,
        backoff: float = 2.0,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.timeout = timeout
        self.retries = retries
        self.sleep = sleep
        self._backoff = wait_exponential(multiplier=backoff, max=60.0)
        self._last: dict[str, float] = {}
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> Http:
        self._session = aiohttp.ClientSession(
            headers={"User-Agent": USER_AGENT},
            timeout=aiohttp.ClientTimeout(total=self.timeout, connect=min(self.timeout, 15.0)),
        )
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _pace(self, host: str, pause: float) -> None:
        last = self._last.get(host)
        if last is not None and pause > 0:
            wait = last + pause - time.monotonic()
            if wait > 0:
                await self.sleep(wait)
        self._last[host] = time.monotonic()

    async def _get_once(self, url: str, params: Mapping[str, str] | None, pause: float) -> str:
        assert self._session is not None, "use Http as an async context"
        await self._pace(host_of(url), pause)
        try:
            async with self._session.get(url, params=params) as resp:
                if resp.status == 429 or resp.status >= 500:
                    hint = retry_after_seconds(resp.headers.get("Retry-After"))
                    raise TransientError(f"HTTP {resp.status}", hint)
                if resp.status >= 400:
                    raise FetchError(f"{url}: HTTP {resp.status}")
                body = await read_capped(resp, MAX_BODY_BYTES)
                if body is None:
                    raise FetchError(f"{url}: response over {MAX_BODY_BYTES} bytes")
                return decode(body, resp.charset)
        except aiohttp.ClientConnectorError as exc:
            reason = " ".join(str(exc.os_error or exc).split())
            raise UserError(
                f"cannot reach {host_of(url)} ({reason}): no network? 'live fetch' needs "
                "internet access (or --base-url SOURCE=URL for a mirror)"
            ) from None
        except asyncio.TimeoutError:
            raise TransientError(f"timeout after {self.timeout:g}s") from None
        except (aiohttp.ClientPayloadError, aiohttp.ServerDisconnectedError):
            raise TransientError("connection dropped mid-response") from None
        except aiohttp.ClientError as exc:
            raise TransientError(f"connection error: {type(exc).__name__}") from None

    def _wait(self, state: RetryCallState) -> float:
        """The server's Retry-After when it gave one, else exponential backoff."""
        exc = state.outcome.exception() if state.outcome else None
        hint = getattr(exc, "retry_after", None)
        if hint is None:
            return float(self._backoff(state))
        if hint > MAX_RETRY_AFTER_S:
            raise FetchError(f"server asks to wait {hint:.0f}s before retrying; try again later")
        return float(hint)

    async def get(
        self, url: str, params: Mapping[str, str] | None = None, pause: float = 0.0
    ) -> str:
        """The body of ``url`` as text, after ``pause`` seconds since the host's last request."""
        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.retries + 1),
            wait=self._wait,
            retry=retry_if_exception_type(TransientError),
            sleep=self.sleep,
            reraise=True,
        )
        try:
            async for attempt in retrying:
                with attempt:
                    return await self._get_once(url, params, pause)
        except TransientError as exc:
            raise FetchError(f"{url}: {exc} (after {self.retries + 1} tries)") from None
        raise AssertionError("unreachable")  # pragma: no cover
