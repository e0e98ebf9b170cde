"""One module per source of ``ladderbench live fetch``; each yields documents newest first."""

from __future__ import annotations

from dataclasses import dataclass

from ladderbench.live.fetchers import arxiv, coding, competition, news, wikipedia
from ladderbench.live.fetchers._common import Document, Feed, Fetcher, SourceRequest


@dataclass(frozen=True)
class Source:
    """A source: its fetcher, the URL it reads by default, and its pause between requests."""

    name: str
    fetch: Fetcher
    base_url: str
    pause: float


SOURCES: dict[str, Source] = {
    source.name: source
    for source in (
        Source("arxiv", arxiv.documents, arxiv.BASE_URL, arxiv.PAUSE_S),
        Source("wikipedia", wikipedia.documents, wikipedia.BASE_URL, wikipedia.PAUSE_S),
        Source("news", news.documents, news.DEFAULT_FEEDS[0].url, news.PAUSE_S),
        Source("competition", competition.documents, competition.BASE_URL, competition.PAUSE_S),
        Source("coding", coding.documents, coding.BASE_URL, coding.PAUSE_S),
    )
}

__all__ = ["SOURCES", "Document", "Feed", "Fetcher", "Source", "SourceRequest"]
