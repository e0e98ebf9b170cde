"""Codeforces problems with their sample tests: contests from the API, statements from the
problem pages, newest contest first.

``contest.list`` dates the contests (finished ones that started on or after ``--since``);
``problemset.problems`` names their problems; each problem page gives the statement (legend,
input, output, note; ``$$$`` math as ``$``) and the sample tests (stdin -> stdout). A problem is
passed over when its output cannot be checked by comparing text (interactive, "print any"
answers, answers within a tolerance), when it needs a picture, or when it has no samples.
Codeforces asks for 2 seconds between API calls.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncGenerator
from datetime import datetime, timezone
from typing import Any

from ladderbench.live.fetchers._common import Document, SourceRequest, day, problem_json
from ladderbench.live.fetchers._html import Node, parse, pre_text, text
from ladderbench.live.fetchers.http import FetchError, Http

BASE_URL = "https://codeforces.com"
PAUSE_S = 2.0
LICENCE = "(c) Codeforces and the problem authors; quoted for evaluation"
ANY_ANSWER = re.compile(
    r"(multiple|several|many) (possible |correct |valid )?(answers|solutions)|print any"
    r"|output any|absolute or relative error",
    re.IGNORECASE,
)


async def api(http: Http, request: SourceRequest, method: str) -> Any:
    body = await http.get(f"{request.base_url}/api/{method}", None, request.pause)
    try:
        data = json.loads(body)
    except ValueError:
        raise FetchError(f"Codeforces {method}: the API did not answer JSON") from None
    if not isinstance(data, dict) or data.get("status") != "OK":
        comment = data.get("comment", "unexpected answer") if isinstance(data, dict) else ""
        raise FetchError(f"Codeforces {method}: {comment}")
    return data["result"]


def sample_text(pre: Node) -> str:
    """A sample's text, one newline at the end (newer pages put each line in a div)."""
    cleaned = [line.rstrip() for line in pre_text(pre).strip("\n").splitlines()]
    return "\n".join(cleaned) + "\n"


def samples(statement: Node) -> list[dict[str, str]]:
    inputs = [
        sample_text(pre)
        for box in statement.find_all("div", "input")
        for pre in box.find_all("pre")
    ]
    outputs = [
        sample_text(pre)
        for box in statement.find_all("div", "output")
        for pre in box.find_all("pre")
    ]
    if len(inputs) != len(outputs):
        return []
    return [{"input": i, "output": o} for i, o in zip(inputs, outputs)]


def section(statement: Node, cls: str, heading: str) -> str:
    node = statement.find("div", cls)
    if node is None:
        return ""
    body = text(node, keep=lambda n: "section-title" not in n.classes())
    return f"{heading}\n\n{body}" if body else ""


def read_statement(page: str) -> tuple[str, list[dict[str, str]]] | None:
    """(statement text, samples) of a problem page; None when it cannot be graded by output."""
    root = parse(page)
    statement = root.find("div", "problem-statement")
    if statement is None or statement.find("div", "interaction-specification") is not None:
        return None
    if statement.find("img") is not None:
        return None
    header = statement.find("div", "header")
    limits = []
    for cls in ("time-limit", "memory-limit"):
        node = header.find("div", cls) if header else None
        if node is not None:
            limits.append(text(node, keep=lambda n: "property-title" not in n.classes()))
    legend = next(
        (child for child in statement.elements() if child.tag == "div" and not child.classes()),
        None,
    )
    parts = [
        text(legend) if legend else "",
        section(statement, "input-specification", "Input"),
        section(statement, "output-specification", "Output"),
        section(statement, "note", "Note"),
    ]
    if len(limits) == 2:
        parts.append(f"Time limit: {limits[0]} per test. Memory limit: {limits[1]} per test.")
    body = "\n\n".join(part for part in parts if part).replace("$$$", "$")
    tests = samples(statement)
    if not parts[0] or not tests or ANY_ANSWER.search(body):
        return None
    return body, tests


def recent_contests(found: list[dict[str, Any]], request: SourceRequest) -> dict[int, str]:
    """Contest id -> start date, for finished contests that started on or after ``since``."""
    dates = {}
    for contest in found:
        start = contest.get("startTimeSeconds")
        if contest.get("phase") != "FINISHED" or not isinstance(start, int):
            continue
        published = day(datetime.fromtimestamp(start, timezone.utc))
        if published >= request.since.isoformat():
            dates[int(contest["id"])] = published
    return dates


async def documents(http: Http, request: SourceRequest) -> AsyncGenerator[Document, None]:
    dates = recent_contests(await api(http, request, "contest.list?gym=false"), request)
    listed = (await api(http, request, "problemset.problems"))["problems"]
    chosen = [
        problem
        for problem in listed
        if problem.get("contestId") in dates and problem.get("type", "PROGRAMMING") == "PROGRAMMING"
    ]
    chosen.sort(key=lambda problem: (-problem["contestId"], str(problem.get("index"))))
    chosen.sort(key=lambda problem: dates[problem["contestId"]], reverse=True)
    for problem in chosen:
        contest, index = problem["contestId"], str(problem.get("index"))
        name = f"coding-codeforces-{contest}{index}.json"
        if request.known(name):
            continue
        url = f"{request.base_url}/problemset/problem/{contest}/{index}"
        read = read_statement(await http.get(url, None, request.pause))
        if read is None:
            continue
        statement, tests = read
        title = f"Codeforces {contest}{index}: {problem.get('name', '')}".rstrip(": ")
        public_url = f"https://codeforces.com/problemset/problem/{contest}/{index}"
        yield Document(
            name=name,
            content=problem_json(
                kind="coding",
                source="Codeforces",
                url=public_url,
                title=title,
                published=dates[contest],
                licence=LICENCE,
                statement=statement,
                tests=tests,
            ),
            material=statement,
            source="coding",
            url=public_url,
            title=title,
            published=dates[contest],
            licence=LICENCE,
        )
