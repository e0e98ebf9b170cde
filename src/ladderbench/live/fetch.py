"""``ladderbench live fetch``: dated fresh material for releases, with provenance.

Each source (``fetchers/``: arXiv abstracts, Wikipedia articles changed since ``--since``, news
feeds, AMC/AIME problems from the AoPS wiki, Codeforces problems with samples) yields documents
newest first; the store writes the first ``--limit`` new ones per source into the folder as
``<source>-<id>.txt`` passages or ``.json`` problems, and keeps ``provenance.jsonl`` (one line
per file: file, source, url, title, published, retrieved, licence, sha256), which
``load_sources`` reads the dates from.

Fetching is incremental: a file already in the folder is kept as it is (and its details are not
fetched again), and a text whose material digest (``material_digest``: blind to spacing and
case) is already there, in any file, is not written twice. A source that answers with something
unusable stops with one line in the report while the others go on; no network at all is a
``UserError``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ladderbench.errors import UserError
from ladderbench.files import atomic_write
from ladderbench.jsonl import read_text
from ladderbench.live.base import PROVENANCE, material_digest
from ladderbench.live.fetchers import SOURCES, Document, Feed, SourceRequest
from ladderbench.live.fetchers import news as news_source
from ladderbench.live.fetchers.http import FetchError, Http, Sleep

DEFAULT_LIMIT = 20


@dataclass(frozen=True)
class FetchOptions:
    """What to fetch. ``base_urls`` replaces a source's endpoint (a mirror, or a test server);
    for ``news`` it is the list of feeds. ``pause`` overrides every source's own wait between
    requests to one host; ``today`` pins the upper end of the date range."""

    since: date
    sources: tuple[str, ...] = tuple(SOURCES)
    limit: int = DEFAULT_LIMIT
    base_urls: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    pause: float | None = None
    today: date | None = None
    timeout: float = 30.0
    retries: int = 4


@dataclass
class SourceReport:
    """What one source gave: files written, and what it passed over and why."""

    source: str
    written: int = 0
    already_here: int = 0
    duplicates: int = 0
    error: str | None = None

    def line(self) -> str:
        kept = f"{self.already_here} already here, {self.duplicates} duplicate texts"
        line = f"{self.source}: {self.written} new files ({kept})"
        return f"{line}; failed: {self.error}" if self.error else line


def parse_since(value: str, today: date | None = None) -> date:
    """``--since``: a YYYY-MM-DD date, not after today."""
    from ladderbench.live.release import check_date

    try:  # check_date refuses what fromisoformat also reads (20261201, 2026-W01)
        since = date.fromisoformat(check_date(value, "--since"))
    except UserError:
        raise UserError(f"--since {value!r}: expected a date YYYY-MM-DD, e.g. 2026-11-01") from None
    if since > (today or datetime.now(timezone.utc).date()):
        raise UserError(f"--since {value}: that is after today; nothing can be that fresh")
    return since


def parse_source_names(value: str) -> tuple[str, ...]:
    """``--sources``: a comma-separated list of known sources, in the order given."""
    names = tuple(dict.fromkeys(name.strip() for name in value.split(",") if name.strip()))
    unknown = [name for name in names if name not in SOURCES]
    if unknown or not names:
        raise UserError(
            f"--sources {value!r}: unknown source {', '.join(unknown) or '(none given)'}; "
            f"choose from {', '.join(SOURCES)}"
        )
    return names


def parse_base_urls(values: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """``--base-url SOURCE=URL`` (repeatable; several for ``news`` are several feeds)."""
    found: dict[str, tuple[str, ...]] = {}
    for value in values:
        name, _, url = value.partition("=")
        parts = urlsplit(url)
        if name not in SOURCES:
            raise UserError(
                f"--base-url {value!r}: expected SOURCE=URL with SOURCE one of {', '.join(SOURCES)}"
            )
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise UserError(f"--base-url {value!r}: {url!r} is not an http(s) URL")
        if name != "news" and name in found:
            raise UserError(f"--base-url: {name} given twice (only news takes several feeds)")
        found[name] = (*found.get(name, ()), url.rstrip("/") if name == "coding" else url)
    return found


def _material_of(path: Path, content: str) -> str:
    """The text a file's digest is taken over: a problem's statement, else the whole text."""
    if path.suffix == ".json":
        with contextlib.suppress(ValueError):
            record = json.loads(content)
            if isinstance(record, dict) and isinstance(record.get("statement"), str):
                return record["statement"]
    return content


class Store:
    """The folder being filled: the files it has, their digests, and its provenance."""

    def __init__(self, directory: Path, retrieved: str) -> None:
        if directory.exists() and not directory.is_dir():
            raise UserError(f"{directory}: exists and is not a folder")
        self.directory = directory  # made with the first file: no network leaves nothing behind
        self.retrieved = retrieved
        present = sorted(directory.iterdir()) if directory.is_dir() else []
        self.names = {path.name for path in present}
        self.digests: set[str] = set()
        for path in present:
            if path.suffix in (".txt", ".json") and path.is_file():
                content = path.read_text(encoding="utf-8", errors="replace")
                self.digests.add(material_digest(_material_of(path, content)))
        self.provenance = self._read_provenance()

    def _read_provenance(self) -> dict[str, dict[str, Any]]:
        path = self.directory / PROVENANCE
        if not path.exists():
            return {}
        entries: dict[str, dict[str, Any]] = {}
        for lineno, line in enumerate(read_text(path).splitlines(), 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except (ValueError, RecursionError):
                raise UserError(f"{path}:{lineno}: not JSON; fix or remove the line") from None
            if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
                raise UserError(f"{path}:{lineno}: field 'file' missing")
            entries[entry["file"]] = entry
        return entries

    def known(self, name: str) -> bool:
        return name in self.names

    def admit(self, document: Document, report: SourceReport) -> None:
        """Write ``document`` unless its file or its text is already here."""
        digest = material_digest(document.material)
        if self.known(document.name):
            report.already_here += 1
            return
        if digest in self.digests:
            report.duplicates += 1
            return
        data = document.content.encode("utf-8")
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(
                f"{self.directory}: cannot create the folder ({exc.strerror})"
            ) from None
        atomic_write(self.directory / document.name, data)
        self.names.add(document.name)
        self.digests.add(digest)
        self.provenance[document.name] = {
            "file": document.name,
            "source": document.source,
            "url": document.url,
            "title": document.title,
            "published": document.published,
            "retrieved": self.retrieved,
            "licence": document.licence,
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        report.written += 1
        self.save_provenance()  # at once: an interrupted fetch leaves no file undocumented

    def save_provenance(self) -> None:
        """Rewrite ``provenance.jsonl``: one line per file, newest first, ties by file name."""
        entries = sorted(self.provenance.values(), key=lambda entry: str(entry["file"]))
        entries.sort(key=lambda entry: str(entry.get("published") or ""), reverse=True)
        lines = "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries)
        atomic_write(self.directory / PROVENANCE, lines.encode("utf-8"))


def _request(name: str, options: FetchOptions, today: date, store: Store) -> SourceRequest:
    source = SOURCES[name]
    urls = options.base_urls.get(name, ())
    feeds: tuple[Feed, ...] = ()
    if name == "news":
        feeds = (
            tuple(Feed(url, news_source.UNKNOWN_LICENCE) for url in urls)
            or news_source.DEFAULT_FEEDS
        )
    return SourceRequest(
        base_url=urls[0] if urls else source.base_url,
        since=options.since,
        today=today,
        limit=options.limit,
        pause=source.pause if options.pause is None else options.pause,
        known=store.known,
        feeds=feeds,
    )


async def _fetch_source(
    http: Http, request: SourceRequest, name: str, store: Store
) -> SourceReport:
    report = SourceReport(name)
    documents = SOURCES[name].fetch(http, request)
    try:
        async with contextlib.aclosing(documents):
            async for document in documents:
                if document.published < request.since.isoformat():
                    continue
                store.admit(document, report)
                if report.written >= request.limit:
                    break
    except FetchError as exc:
        report.error = str(exc)
    return report


async def fetch_async(
    directory: Path,
    options: FetchOptions,
    sleep: Sleep = asyncio.sleep,
    on_source: Callable[[SourceReport], None] | None = None,
) -> list[SourceReport]:
    """Fetch every source in turn into ``directory``; ``on_source`` hears each as it ends."""
    now = datetime.now(timezone.utc)
    store = Store(directory, now.strftime("%Y-%m-%dT%H:%M:%SZ"))
    today = options.today or now.date()
    reports = []
    async with Http(timeout=options.timeout, retries=options.retries, sleep=sleep) as http:
        for name in options.sources:
            report = await _fetch_source(http, _request(name, options, today, store), name, store)
            reports.append(report)
            if on_source is not None:
                on_source(report)
    return reports


def fetch(
    directory: Path,
    options: FetchOptions,
    on_source: Callable[[SourceReport], None] | None = None,
) -> list[SourceReport]:
    """``fetch_async`` for synchronous callers (the CLI)."""
    return asyncio.run(fetch_async(directory, options, on_source=on_source))
