"""What every source fetcher yields, and what it is asked for."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any, Literal

from ladderbench.live.fetchers.http import Http


@dataclass(frozen=True)
class Document:
    """One file to write: ``name`` is ``<source>-<id>.<txt|json>``; ``material`` is the text
    whose digest must be new (the passage, or a problem's statement)."""

    name: str
    content: str
    material: str
    source: str
    url: str
    title: str
    published: str  # YYYY-MM-DD
    licence: str


@dataclass(frozen=True)
class Feed:
    """A news feed (RSS 2.0 or Atom) and the licence its items come under."""

    url: str
    licence: str


@dataclass(frozen=True)
class SourceRequest:
    """What to fetch: items published on or after ``since``, newest first; ``known(name)`` says
    a file is already there (so its details need not be fetched again)."""

    base_url: str
    since: date
    today: date
    limit: int
    pause: float
    known: Callable[[str], bool] = lambda name: False
    feeds: tuple[Feed, ...] = ()


Fetcher = Callable[[Http, SourceRequest], AsyncGenerator[Document, None]]


def day(value: datetime) -> str:
    """A moment as the UTC date it fell on, YYYY-MM-DD."""
    if value.tzinfo is not None:
        value = value.astimezone(timezone.utc)
    return value.date().isoformat()


def parse_iso(value: str) -> datetime | None:
    """An ISO 8601 timestamp (``Z`` allowed, as APIs write it), or None."""
    try:
        return datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None


def safe_id(value: str) -> str:
    """An id fit for a file name: letters, digits, dots and dashes only."""
    return re.sub(r"[^A-Za-z0-9.-]+", "_", value).strip("_.") or "item"


def paragraphs(text: str) -> str:
    """Blocks separated by one blank line, spaces inside each collapsed."""
    blocks = (" ".join(block.split()) for block in re.split(r"\n\s*\n", text))
    return "\n\n".join(block for block in blocks if block)


def word_count(text: str) -> int:
    return len(text.split())


def problem_json(
    *,
    kind: Literal["competition", "coding"],
    source: str,
    url: str,
    title: str,
    published: str,
    licence: str,
    statement: str,
    answer: str | None = None,
    choices: dict[str, str] | None = None,
    tests: list[dict[str, str]] | None = None,
) -> str:
    """A problem file in the format the live tasks read (see the live14 common brief)."""
    record: dict[str, Any] = {
        "kind": kind,
        "source": source,
        "url": url,
        "title": title,
        "published": published,
        "licence": licence,
        "statement": statement,
        "answer": answer,
        "choices": choices,
        "tests": tests,
    }
    return json.dumps(record, ensure_ascii=False, indent=2) + "\n"
