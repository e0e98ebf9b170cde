"""News items from RSS 2.0 and Atom feeds, newest first across all feeds.

An item's text is its title and its full content where the feed carries it
(``content:encoded``, Atom ``content``), else its description or summary, HTML turned into
paragraphs. Items without a date, or with fewer than ``MIN_WORDS`` words, are passed over. The
default feeds publish freely reusable text (US government works are in the public domain;
Wikinews is CC BY 2.5); a feed given with ``--feed`` is recorded with its licence unknown.
"""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
from collections.abc import AsyncGenerator
from datetime import datetime
from email.utils import parsedate_to_datetime

from ladderbench.live.fetchers._common import (
    Document,
    Feed,
    SourceRequest,
    day,
    paragraphs,
    parse_iso,
)
from ladderbench.live.fetchers._html import html_text
from ladderbench.live.fetchers.http import FetchError, Http

DEFAULT_FEEDS = (
    Feed("https://www.nasa.gov/news-release/feed/", "public domain (NASA, US government work)"),
    Feed(
        "https://en.wikinews.org/w/index.php?title=Special:NewsFeed&feed=atom"
        "&categories=Published&count=50",
        "CC BY 2.5 (Wikinews)",
    ),
)
UNKNOWN_LICENCE = "unknown: check the feed's terms before publishing"
PAUSE_S = 1.0
MIN_WORDS = 60
ATOM = "{http://www.w3.org/2005/Atom}"
CONTENT = "{http://purl.org/rss/1.0/modules/content/}encoded"
DC_DATE = "{http://purl.org/dc/elements/1.1/}date"


def when(value: str | None) -> datetime | None:
    """A feed date: RFC 822 (RSS) or ISO 8601 (Atom, Dublin Core)."""
    if not value or not value.strip():
        return None
    parsed = parse_iso(value)
    if parsed is not None:
        return parsed
    try:
        return parsedate_to_datetime(value.strip())
    except (TypeError, ValueError):
        return None


def item_document(
    title: str, link: str, ident: str, moment: datetime | None, markup: str, feed: Feed
) -> Document | None:
    title = " ".join(title.split())
    body = paragraphs(html_text(markup))
    if moment is None or not title or not link or len(body.split()) < MIN_WORDS:
        return None
    digest = hashlib.sha256((ident or link).encode()).hexdigest()[:16]
    return Document(
        name=f"news-{digest}.txt",
        content=f"{title}\n\n{body}\n",
        material=f"{title}\n\n{body}",
        source="news",
        url=link,
        title=title,
        published=day(moment),
        licence=feed.licence,
    )


def rss_items(channel: ET.Element, feed: Feed) -> list[Document | None]:
    return [
        item_document(
            item.findtext("title") or "",
            (item.findtext("link") or "").strip(),
            (item.findtext("guid") or "").strip(),
            when(item.findtext("pubDate") or item.findtext(DC_DATE)),
            item.findtext(CONTENT) or item.findtext("description") or "",
            feed,
        )
        for item in channel.findall("item")
    ]


def atom_link(entry: ET.Element) -> str:
    for link in entry.findall(f"{ATOM}link"):
        if link.get("rel", "alternate") == "alternate" and link.get("href"):
            return link.get("href", "")
    return ""


def atom_items(root: ET.Element, feed: Feed) -> list[Document | None]:
    return [
        item_document(
            entry.findtext(f"{ATOM}title") or "",
            atom_link(entry),
            (entry.findtext(f"{ATOM}id") or "").strip(),
            when(entry.findtext(f"{ATOM}published") or entry.findtext(f"{ATOM}updated")),
            entry.findtext(f"{ATOM}content") or entry.findtext(f"{ATOM}summary") or "",
            feed,
        )
        for entry in root.findall(f"{ATOM}entry")
    ]


def feed_documents(body: str, feed: Feed) -> list[Document]:
    """Every usable item of one feed."""
    try:
        root = ET.fromstring(body)
    except ET.ParseError as exc:
        raise FetchError(f"{feed.url}: not an RSS or Atom feed ({exc})") from None
    channel = root.find("channel")
    if root.tag == "rss" and channel is not None:
        found = rss_items(channel, feed)
    elif root.tag == f"{ATOM}feed":
        found = atom_items(root, feed)
    else:
        raise FetchError(f"{feed.url}: <{root.tag}> is neither RSS 2.0 nor Atom")
    return [document for document in found if document is not None]


async def documents(http: Http, request: SourceRequest) -> AsyncGenerator[Document, None]:
    """Every feed's items, newest first; a feed that fails is named once the others are
    through (unless ``--limit`` was reached first)."""
    found: list[Document] = []
    failed: list[str] = []
    for feed in request.feeds:
        try:
            found.extend(feed_documents(await http.get(feed.url, None, request.pause), feed))
        except FetchError as exc:
            failed.append(str(exc))
    found.sort(key=lambda document: document.name)
    found.sort(key=lambda document: document.published, reverse=True)
    for document in found:
        yield document
    if failed:
        more = f" (and {len(failed) - 1} more feeds)" if len(failed) > 1 else ""
        raise FetchError(failed[0] + more)
