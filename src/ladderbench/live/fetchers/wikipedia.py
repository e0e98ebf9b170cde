"""Wikipedia articles edited since ``--since``: MediaWiki ``recentchanges``, then plain-text
``extracts`` of each page, newest change first.

Only human, non-minor edits to articles (namespace 0, no redirects) count; a page edited twice
is fetched once, dated by its newest edit. The extract is cut at the closing sections (See also,
References...), headings dropped, one paragraph per line of the plain text; short pages are
passed over. Wikipedia's text is CC BY-SA 4.0.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncGenerator
from typing import Any

from ladderbench.live.fetchers._common import Document, SourceRequest, day, parse_iso
from ladderbench.live.fetchers.http import FetchError, Http

BASE_URL = "https://en.wikipedia.org/w/api.php"
PAUSE_S = 0.5
LICENCE = "CC BY-SA 4.0 (Wikipedia)"
MIN_WORDS = 150
MAX_CHARS = 20_000
CLOSING = re.compile(
    r"^(See also|References|External links|Notes|Further reading|Bibliography|Sources|Citations)$"
)
HEADING = re.compile(r"^=+\s*(.*?)\s*=+$")


def parse_json(body: str, what: str) -> dict[str, Any]:
    try:
        data = json.loads(body)
    except ValueError:
        raise FetchError(f"Wikipedia {what}: the API did not answer JSON") from None
    if not isinstance(data, dict) or "error" in data:
        error = data.get("error", {}) if isinstance(data, dict) else {}
        raise FetchError(f"Wikipedia {what}: {error.get('info', 'unexpected answer')}")
    return data


def article_text(extract: str) -> str:
    """The body of a plain-text extract (``exsectionformat=wiki``), as blank-line paragraphs."""
    kept: list[str] = []
    for line in extract.splitlines():
        line = " ".join(line.split())
        heading = HEADING.match(line)
        if heading:
            if CLOSING.match(heading.group(1)):
                break
            continue
        if line:
            kept.append(line)
    text = "\n\n".join(kept)
    if len(text) > MAX_CHARS:
        text = text[: text.rfind("\n\n", 0, MAX_CHARS)].rstrip()
    return text


async def changed_pages(
    http: Http, request: SourceRequest
) -> AsyncGenerator[tuple[int, str, str], None]:
    """(page id, title, date of its newest edit) of articles changed since ``since``, newest
    first, each page once."""
    params = {
        "action": "query",
        "list": "recentchanges",
        "rcnamespace": "0",
        "rctype": "edit|new",
        "rcshow": "!bot|!minor|!redirect",
        "rcprop": "title|ids|timestamp",
        "rcdir": "older",
        "rcend": f"{request.since.isoformat()}T00:00:00Z",
        "rclimit": str(min(500, 10 * request.limit)),
        "format": "json",
        "formatversion": "2",
    }
    seen: set[int] = set()
    while True:
        data = parse_json(await http.get(request.base_url, params, request.pause), "recentchanges")
        for change in data.get("query", {}).get("recentchanges", []):
            when = parse_iso(str(change.get("timestamp", "")))
            page = change.get("pageid")
            if not isinstance(page, int) or when is None or page in seen:
                continue
            seen.add(page)
            yield page, str(change.get("title", "")), day(when)
        more = data.get("continue")
        if not isinstance(more, dict) or "rccontinue" not in more:
            return
        params = {**params, "rccontinue": str(more["rccontinue"])}


async def documents(http: Http, request: SourceRequest) -> AsyncGenerator[Document, None]:
    async for page, title, published in changed_pages(http, request):
        name = f"wikipedia-{page}.txt"
        if request.known(name):
            continue
        params = {
            "action": "query",
            "prop": "extracts|info",
            "pageids": str(page),
            "explaintext": "1",
            "exsectionformat": "wiki",
            "inprop": "url",
            "format": "json",
            "formatversion": "2",
        }
        data = parse_json(await http.get(request.base_url, params, request.pause), "extracts")
        pages = data.get("query", {}).get("pages", [])
        if not pages or pages[0].get("missing") or pages[0].get("invalid"):
            continue  # deleted since the edit
        body = article_text(str(pages[0].get("extract", "")))
        if len(body.split()) < MIN_WORDS:
            continue
        title = str(pages[0].get("title") or title)
        yield Document(
            name=name,
            content=f"{title}\n\n{body}\n",
            material=f"{title}\n\n{body}",
            source="wikipedia",
            url=str(pages[0].get("canonicalurl") or pages[0].get("fullurl") or ""),
            title=title,
            published=published,
            licence=LICENCE,
        )
