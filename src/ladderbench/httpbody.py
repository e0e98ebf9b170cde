"""Reading an HTTP body with a ceiling: a server that sends forever costs the cap, not memory."""

from __future__ import annotations

import aiohttp

CHUNK = 64 * 1024


async def read_capped(resp: aiohttp.ClientResponse, cap: int) -> bytes | None:
    """The whole body, or None as soon as it is known to pass ``cap`` bytes (a Content-Length
    over it, or the bytes read so far). ``content.read(n)`` is not this: it returns what is
    buffered, which silently cut long pages short."""
    if resp.content_length is not None and resp.content_length > cap:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in resp.content.iter_chunked(CHUNK):
        size += len(chunk)
        if size > cap:
            return None
        chunks.append(chunk)
    return b"".join(chunks)
