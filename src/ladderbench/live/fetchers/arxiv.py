"""arXiv abstracts, newest submissions first, from the public export API (an Atom feed).

One query ``submittedDate:[SINCE TO TODAY]`` sorted by submission date, paged ``PAGE`` at a
time; each entry becomes ``arxiv-<id>.txt``: the title, a blank line, the abstract. arXiv's
metadata (abstracts included) is CC0; its API asks for 3 seconds between calls.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import AsyncGenerator

from ladderbench.live.fetchers._common import (
    Document,
    SourceRequest,
    day,
    paragraphs,
    parse_iso,
    safe_id,
)
from ladderbench.live.fetchers.http import FetchError, Http

BASE_URL = "http://export.arxiv.org/api/query"
PAUSE_S = 3.0
PAGE = 50
LICENCE = "CC0-1.0 (arXiv metadata)"
ATOM = "{http://www.w3.org/2005/Atom}"


def entry_document(entry: ET.Element) -> Document | None:
    """An Atom entry as a document, or None when it lacks an id, a date or an abstract."""
    ident = (entry.findtext(f"{ATOM}id") or "").strip()
    published = parse_iso(entry.findtext(f"{ATOM}published") or "")
    title = " ".join((entry.findtext(f"{ATOM}title") or "").split())
    abstract = paragraphs(entry.findtext(f"{ATOM}summary") or "")
    if "/abs/" not in ident or published is None or not title or not abstract:
        return None
    arxiv_id = re.sub(r"v\d+$", "", ident.split("/abs/", 1)[1])  # the paper, any version
    url = f"https://arxiv.org/abs/{arxiv_id}"
    for link in entry.findall(f"{ATOM}link"):
        if link.get("rel") == "alternate" and link.get("href"):
            url = link.get("href", url)
    return Document(
        name=f"arxiv-{safe_id(arxiv_id)}.txt",
        content=f"{title}\n\n{abstract}\n",
        material=f"{title}\n\n{abstract}",
        source="arxiv",
        url=url,
        title=title,
        published=day(published),
        licence=LICENCE,
    )


def parse_feed(body: str) -> list[ET.Element]:
    try:
        root = ET.fromstring(body)
    except ET.ParseError as exc:
        raise FetchError(f"arXiv answered something that is not an Atom feed ({exc})") from None
    if root.tag != f"{ATOM}feed":
        raise FetchError(f"arXiv answered <{root.tag}>, not an Atom feed")
    return root.findall(f"{ATOM}entry")


async def documents(http: Http, request: SourceRequest) -> AsyncGenerator[Document, None]:
    query = f"submittedDate:[{request.since:%Y%m%d}0000 TO {request.today:%Y%m%d}2359]"
    start = 0
    while True:
        params = {
            "search_query": query,
            "sortBy": "submittedDate",
            "sortOrder": "descending",
            "start": str(start),
            "max_results": str(PAGE),
        }
        entries = parse_feed(await http.get(request.base_url, params, request.pause))
        for entry in entries:
            document = entry_document(entry)
            if document is None:
                continue
            if document.published < request.since.isoformat():
                return
            yield document
        if len(entries) < PAGE:
            return
        start += PAGE
