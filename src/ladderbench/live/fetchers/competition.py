"""AMC 10/12 and AIME problems with their answer keys, from the AoPS wiki's MediaWiki API.

For each contest of the years since ``--since`` (AMC 10A/10B/12A/12B, AIME I/II), the answer
key page's first revision dates the contest (the answers went public that day); contests are
taken newest first. The ``<contest> Problems`` page holds every statement in wikitext: math in
``<math>`` tags becomes ``$...$``, an AMC problem's five choices are read out of its last
formula, and a problem whose statement needs a picture (Asymptote, an image) or whose choices
cannot be read is passed over. AIME answers are integers 0..999, written without leading zeros.
The problems are the MAA's, quoted by the AoPS wiki.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import Any

from ladderbench.live.fetchers._common import (
    Document,
    SourceRequest,
    day,
    paragraphs,
    parse_iso,
    problem_json,
)
from ladderbench.live.fetchers.http import FetchError, Http

BASE_URL = "https://artofproblemsolving.com/wiki/api.php"
PAGE_URL = "https://artofproblemsolving.com/wiki/index.php"
PAUSE_S = 1.0
LICENCE = "problems (c) MAA, quoted by the AoPS wiki; for evaluation"
CONTESTS = ("AMC 10A", "AMC 10B", "AMC 12A", "AMC 12B", "AIME I", "AIME II")
LETTERS = ("A", "B", "C", "D", "E")
PROBLEM_HEADING = re.compile(r"^==\s*Problem\s*(\d+)\s*==\s*$", re.MULTILINE)
OTHER_HEADING = re.compile(r"^==[^=].*==\s*$", re.MULTILINE)
CHOICE_LABEL = re.compile(r"\\(?:textbf|mathrm|text|mathbf|rm)\s*\{\s*\(\s*([A-E])\s*\)\s*\}?")
PICTURE = re.compile(r"<asy>|\[asy\]|\[\[(?:Image|File):", re.IGNORECASE)


@dataclass(frozen=True)
class Contest:
    name: str  # "2026 AMC 12A"
    published: str

    @property
    def slug(self) -> str:
        return self.name.replace(" ", "").lower()  # 2026amc12a

    def problem_url(self, number: int) -> str:
        title = f"{self.name} Problems/Problem {number}".replace(" ", "_")
        return f"{PAGE_URL}/{title}"


def api_pages(body: str) -> list[dict[str, Any]]:
    try:
        data = json.loads(body)
    except ValueError:
        raise FetchError("AoPS wiki: the API did not answer JSON") from None
    if not isinstance(data, dict) or "error" in data:
        raise FetchError(f"AoPS wiki: {data.get('error', {}).get('info', 'unexpected answer')}")
    pages = data.get("query", {}).get("pages", [])
    return [page for page in pages if isinstance(page, dict)]


def wikitext(page: dict[str, Any]) -> str | None:
    revisions = page.get("revisions") or []
    if page.get("missing") or not revisions:
        return None
    revision = revisions[0]
    slot = revision.get("slots", {}).get("main", {})
    content = slot.get("content", revision.get("content"))
    return content if isinstance(content, str) else None


MATH = re.compile(r"<(c?math)>(.*?)</\1>", re.DOTALL)


def prose(markup: str) -> str:
    """Wikitext outside formulas as text: links by their label, no emphasis or templates."""
    text = re.sub(r"<br\s*/?>", "\n", markup)
    text = re.sub(r"\[\[[^\]|]*\|([^\]]*)\]\]", r"\1", text)  # [[target|label]] -> label
    text = re.sub(r"\[\[([^\]]*)\]\]", r"\1", text)
    text = re.sub(r"'{2,}", "", text)
    return re.sub(r"^\{\{.*?\}\}\s*$", "", text, flags=re.MULTILINE)


def plain(markup: str) -> str:
    """Wikitext of one statement as text with $-delimited LaTeX ($$ for display math)."""
    parts, last = [], 0
    for formula in MATH.finditer(markup):
        parts.append(prose(markup[last : formula.start()]))
        fence = "$$" if formula.group(1) == "cmath" else "$"
        parts.append(f"{fence}{formula.group(2).strip()}{fence}")
        last = formula.end()
    parts.append(prose(markup[last:]))
    return paragraphs("".join(parts))


def choice_value(raw: str) -> str:
    value = re.sub(r"\\q?quad|\\[,;! ]|~", " ", raw).strip()
    while value.endswith("}") and value.count("}") > value.count("{"):
        value = value[:-1].rstrip()  # \textbf{(A) 20} style: the label's brace closes last
    return value


def split_choices(markup: str) -> tuple[str, dict[str, str]] | None:
    """The statement's wikitext without its choices, and the choices A..E as $-math; None if
    no formula holds exactly (A)..(E)."""
    for formula in reversed(list(re.finditer(r"<math>(.*?)</math>", markup, flags=re.DOTALL))):
        pieces = CHOICE_LABEL.split(formula.group(1))
        if tuple(pieces[1::2]) != LETTERS:
            continue
        values = [choice_value(raw) for raw in pieces[2::2]]
        if not all(values):
            return None
        rest = markup[: formula.start()] + markup[formula.end() :]
        return rest, {letter: f"${value}$" for letter, value in zip(LETTERS, values)}
    return None


def problems(source: str) -> dict[int, str]:
    """Problem number -> its wikitext, from a ``<contest> Problems`` page."""
    found: dict[int, str] = {}
    headings = list(PROBLEM_HEADING.finditer(source))
    for heading, following in zip(headings, [*headings[1:], None]):
        end = following.start() if following else len(source)
        body = source[heading.end() : end]
        other = OTHER_HEADING.search(body)  # "== See also ==" after the last problem
        found[int(heading.group(1))] = body[: other.start()] if other else body
    return found


def answer_key(source: str) -> list[str]:
    """The answers in order, from the ``# C`` lines of an answer key page."""
    return [line[1:].strip() for line in source.splitlines() if line.startswith("#")]


def problem_document(contest: Contest, number: int, markup: str, answer: str) -> Document | None:
    if PICTURE.search(markup) or "{{" in MATH.sub("", markup):
        return None
    markup = re.sub(r"\[\[[^\]]*\|\s*Solution\s*\]\]", "", markup)
    choices: dict[str, str] | None = None
    if contest.name.split()[1] == "AIME":
        if not answer.isdigit() or int(answer) > 999:
            return None
        answer = str(int(answer))
    else:
        split = split_choices(markup)
        if split is None or answer not in LETTERS:
            return None
        markup, choices = split
    statement = plain(markup)
    if not statement:
        return None
    title = f"{contest.name} Problem {number}"
    url = contest.problem_url(number)
    return Document(
        name=f"competition-{contest.slug}-{number:02d}.json",
        content=problem_json(
            kind="competition",
            source="AoPS wiki",
            url=url,
            title=title,
            published=contest.published,
            licence=LICENCE,
            statement=statement,
            answer=answer,
            choices=choices,
        ),
        material=statement,
        source="competition",
        url=url,
        title=title,
        published=contest.published,
        licence=LICENCE,
    )


async def contests(http: Http, request: SourceRequest) -> list[Contest]:
    """Contests whose answer key went up on or after ``since``, newest first."""
    found = []
    for year in range(request.today.year, request.since.year - 1, -1):
        for name in CONTESTS:
            params = {
                "action": "query",
                "prop": "revisions",
                "titles": f"{year} {name} Answer Key",
                "rvprop": "timestamp",
                "rvdir": "newer",
                "rvlimit": "1",
                "format": "json",
                "formatversion": "2",
            }
            for page in api_pages(await http.get(request.base_url, params, request.pause)):
                revisions = page.get("revisions") or []
                moment = parse_iso(str(revisions[0].get("timestamp", ""))) if revisions else None
                if moment is not None and day(moment) >= request.since.isoformat():
                    found.append(Contest(f"{year} {name}", day(moment)))
    found.sort(key=lambda contest: contest.name)
    found.sort(key=lambda contest: contest.published, reverse=True)
    return found


async def documents(http: Http, request: SourceRequest) -> AsyncGenerator[Document, None]:
    for contest in await contests(http, request):
        params = {
            "action": "query",
            "prop": "revisions",
            "titles": f"{contest.name} Problems|{contest.name} Answer Key",
            "rvprop": "content",
            "rvslots": "main",
            "format": "json",
            "formatversion": "2",
        }
        pages = {
            str(page.get("title")): wikitext(page)
            for page in api_pages(await http.get(request.base_url, params, request.pause))
        }
        statements = pages.get(f"{contest.name} Problems")
        key = pages.get(f"{contest.name} Answer Key")
        if statements is None or key is None:
            continue
        answers = answer_key(key)
        for number, markup in sorted(problems(statements).items()):
            if number > len(answers):
                continue
            document = problem_document(contest, number, markup, answers[number - 1])
            if document is not None:
                yield document
