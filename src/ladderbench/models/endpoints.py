"""Where a chat endpoint is when none is given, read the way OpenAI's and Ollama's clients read it.

Standard library and Python 3.8 syntax only: this module is inlined verbatim into the
zero-dependency standalone runner, so the harness and that script pick the same endpoint.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

OPENAI_URL = "https://api.openai.com/v1"
OLLAMA_PORT = 11434
MIN_SECRET_CHARS = 8  # shorter keys ("EMPTY", "x") are placeholders, left in answers
MAX_RESPONSE_BYTES = 8 * 1024 * 1024  # --max-response-bytes: a body is read up to this, no more


def ollama_url(host: str | None) -> str:
    """Ollama's OpenAI-compatible endpoint for an ``OLLAMA_HOST`` value (None: the default).

    As Ollama's own clients read it: ``host``, ``host:port``, ``:port`` or a URL; a missing host is
    127.0.0.1, a missing port 11434 (80 or 443 when the scheme is written); ``/v1`` is appended.
    Anything else (a port that is not a number, another scheme) raises ValueError.
    """
    text = (host or "").strip()
    scheme, sep, rest = text.partition("://")
    port = OLLAMA_PORT
    if not sep:
        scheme, rest = "http", text
    elif scheme in ("http", "https"):
        port = 80 if scheme == "http" else 443
    else:
        raise ValueError(f"OLLAMA_HOST {host!r}: not host[:port] or an http(s) URL")
    try:
        parts = urlsplit(f"{scheme}://{rest}")
        port = parts.port or port
    except ValueError:
        raise ValueError(f"OLLAMA_HOST {host!r}: not host[:port] or an http(s) URL") from None
    hostname = parts.hostname or "127.0.0.1"
    if ":" in hostname:  # an IPv6 address loses its brackets in urlsplit
        hostname = f"[{hostname}]"
    path = parts.path.strip("/")
    return f"{scheme}://{hostname}:{port}" + (f"/{path}" if path else "") + "/v1"


def public_url(url: str) -> str:
    """The URL without credentials or query string, fit for messages and result files."""
    parts = urlsplit(url)
    netloc = parts.hostname or ""
    if ":" in netloc:
        netloc = f"[{netloc}]"
    if parts.port:
        netloc = f"{netloc}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def server_ms(timings: Any) -> float | None:
    """The server's own time for the answer, where it says (llama.cpp's ``timings``): unlike the
    wall time measured here, it leaves out time spent queued behind other requests."""
    if not isinstance(timings, dict):
        return None
    total = 0.0
    for key in ("prompt_ms", "predicted_ms"):
        part = timings.get(key)
        if not isinstance(part, (int, float)) or isinstance(part, bool):
            return None
        total += part
    # not a time: negative, NaN or infinite (JSON's NaN/Infinity, or 1e308 + 1e308)
    return total if 0 <= total < float("inf") else None


def writable(text: str) -> str:
    """``text`` with any lone surrogate (a JSON "\\ud800" from a server) as U+FFFD: neither a
    results file nor the cache can write one as UTF-8. Shared by the runner and the standalone."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
