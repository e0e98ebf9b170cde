"""``ladderbench live fetch``, offline: a local aiohttp server on 127.0.0.1 replays recorded
responses of the real APIs (``fetch_recordings/``, written in their formats), and the tests read
the files back as the live tasks would."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import re
import socket
import xml.etree.ElementTree as ET
from datetime import date, datetime, timezone
from pathlib import Path

import pytest
from aiohttp import web

from cli_helpers import ladderbench
from ladderbench.errors import UserError
from ladderbench.live.base import PROVENANCE, load_sources, material_digest
from ladderbench.live.fetch import (
    FetchOptions,
    SourceReport,
    fetch_async,
    parse_base_urls,
    parse_since,
    parse_source_names,
)
from ladderbench.live.fetchers import _html, arxiv, coding, competition
from ladderbench.live.fetchers import http as fetch_http
from ladderbench.live.fetchers.http import USER_AGENT, FetchError, Http, retry_after_seconds
from ladderbench.live.release import build
from ladderbench.testing.loopback import LoopbackServer

RECORDINGS = Path(__file__).parent / "fetch_recordings"
SINCE = date(2026, 2, 1)
TODAY = date(2026, 12, 1)
PROVENANCE_KEYS = {"file", "source", "url", "title", "published", "retrieved", "licence", "sha256"}
PROBLEM_KEYS = {"kind", "source", "url", "title", "published", "licence", "statement"} | {
    "answer",
    "choices",
    "tests",
}


def _missing(titles: str) -> dict:
    """What MediaWiki answers for pages that do not exist."""
    pages = [{"ns": 0, "title": title, "missing": True} for title in titles.split("|")]
    return {"batchcomplete": True, "query": {"pages": pages}}


class Replay(LoopbackServer):
    """The recorded APIs on 127.0.0.1, in a background thread; ``faults[path]`` lists
    (status, headers) answers to give before the recording (status 0: hang for 1.5 s)."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[tuple[str, dict[str, str], dict[str, str]]] = []
        self.faults: dict[str, list[tuple[int, dict[str, str]]]] = {}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def base_urls(self) -> dict[str, tuple[str, ...]]:
        return {
            "arxiv": (f"{self.url}/arxiv/api/query",),
            "wikipedia": (f"{self.url}/wikipedia/w/api.php",),
            "news": (f"{self.url}/news/nasa.rss", f"{self.url}/news/wikinews.atom"),
            "competition": (f"{self.url}/aops/api.php",),
            "coding": (f"{self.url}/cf",),
        }

    def paths(self, path: str) -> list[dict[str, str]]:
        """The queries of the requests made to ``path``."""
        return [query for seen, query, _ in self.requests if seen == path]

    def _recorded(self, path: str, query: dict[str, str]) -> web.Response:
        def file(name: str, kind: str) -> web.Response:
            if not (RECORDINGS / name).exists():
                return web.Response(status=404, text="not found")
            return web.Response(body=(RECORDINGS / name).read_bytes(), content_type=kind)

        if path == "/arxiv/api/query":
            return file("arxiv_query.xml", "application/atom+xml")
        if path == "/wikipedia/w/api.php" and query.get("list") == "recentchanges":
            page = 2 if "rccontinue" in query else 1
            return file(f"wikipedia_recentchanges_{page}.json", "application/json")
        if path == "/wikipedia/w/api.php" and query.get("prop", "").startswith("extracts"):
            name = f"wikipedia_extract_{query['pageids']}.json"
            if (RECORDINGS / name).exists():
                return file(name, "application/json")
            page = {"pageid": int(query["pageids"]), "missing": True}
            return web.json_response({"batchcomplete": True, "query": {"pages": [page]}})
        if path == "/news/nasa.rss":
            return file("news_rss.xml", "application/rss+xml")
        if path == "/news/wikinews.atom":
            return file("news_atom.xml", "application/atom+xml")
        if path == "/aops/api.php":
            titles = query["titles"]
            if query.get("rvdir") == "newer":
                name = f"aops_created_{titles.removesuffix(' Answer Key').replace(' ', '_')}.json"
            else:
                contest = titles.split("|")[0].removesuffix(" Problems")
                name = f"aops_content_{contest.replace(' ', '_')}.json"
            if (RECORDINGS / name).exists():
                return file(name, "application/json")
            return web.json_response(_missing(titles))
        if path == "/cf/api/contest.list":
            return file("codeforces_contest_list.json", "application/json")
        if path == "/cf/api/problemset.problems":
            return file("codeforces_problemset.json", "application/json")
        found = re.fullmatch(r"/cf/problemset/problem/(\d+)/(\w+)", path)
        if found:
            return file(f"codeforces_{found.group(1)}{found.group(2)}.html", "text/html")
        return web.Response(status=404, text="not found")

    async def _handle(self, request: web.Request) -> web.Response:
        self.requests.append((request.path, dict(request.query), dict(request.headers)))
        pending = self.faults.get(request.path)
        if pending:
            status, headers = pending.pop(0)
            if status == 0:  # a server that hangs
                await asyncio.sleep(1.5)
            return web.Response(status=status or 200, headers=headers, text="slow down")
        return self._recorded(request.path, dict(request.query))

    def routes(self, app: web.Application) -> None:
        app.router.add_get("/{tail:.*}", self._handle)


@pytest.fixture
def server():
    with Replay() as replay:
        yield replay


class Sleeps:
    """Stands in for asyncio.sleep: records each wait, waits for none."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def run(
    directory: Path, server: Replay, sleep: Sleeps | None = None, **settings
) -> dict[str, SourceReport]:
    options = FetchOptions(
        since=settings.pop("since", SINCE),
        today=TODAY,
        base_urls=server.base_urls(),
        pause=settings.pop("pause", 0.0),
        retries=settings.pop("retries", 3),
        **settings,
    )
    reports = asyncio.run(fetch_async(directory, options, sleep=sleep or Sleeps()))
    return {report.source: report for report in reports}


def files(directory: Path, prefix: str = "") -> list[str]:
    return sorted(
        path.name
        for path in directory.iterdir()
        if path.name.startswith(prefix) and path.suffix in (".txt", ".json")
    )


def provenance(directory: Path) -> list[dict]:
    lines = (directory / PROVENANCE).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def by_file(directory: Path) -> dict[str, dict]:
    return {entry["file"]: entry for entry in provenance(directory)}


# --- each source ---------------------------------------------------------------------------


def test_arxiv_abstracts_newest_first_and_none_older_than_since(tmp_path, server):
    reports = run(tmp_path, server, sources=("arxiv",))
    assert reports["arxiv"].written == 3 and reports["arxiv"].error is None
    assert files(tmp_path) == [
        "arxiv-2611.27310.txt",
        "arxiv-2611.28002.txt",
        "arxiv-2611.29871.txt",
    ]
    text = (tmp_path / "arxiv-2611.29871.txt").read_text()
    title, abstract = text.split("\n\n")
    assert title == (
        "Sparse Ledger Probes: Measuring Where Small Language Models Lose Track of State"
    )
    assert abstract.startswith("We study how small language models") and "\n" not in abstract[:-1]
    entries = by_file(tmp_path)
    assert entries["arxiv-2611.28002.txt"]["published"] == "2026-11-27"  # submitted, not updated
    assert entries["arxiv-2611.28002.txt"]["url"] == "http://arxiv.org/abs/2611.28002v2"
    assert entries["arxiv-2611.29871.txt"]["licence"].startswith("CC0")
    (query,) = server.paths("/arxiv/api/query")
    assert query["search_query"] == "submittedDate:[202602010000 TO 202612012359]"
    assert (query["sortBy"], query["sortOrder"]) == ("submittedDate", "descending")


def test_wikipedia_articles_changed_since_each_once_without_closing_sections(tmp_path, server):
    reports = run(tmp_path, server, sources=("wikipedia",))
    # 303 is too short to be a passage; 404 was deleted after the edit.
    assert files(tmp_path) == ["wikipedia-101.txt", "wikipedia-202.txt", "wikipedia-505.txt"]
    assert reports["wikipedia"].written == 3
    text = (tmp_path / "wikipedia-101.txt").read_text()
    paragraphs = text.rstrip("\n").split("\n\n")
    assert paragraphs[0] == "Harrow Fen Light Railway"
    assert paragraphs[1].startswith("The Harrow Fen Light Railway was a narrow gauge railway")
    assert len(paragraphs) == 4  # title, lead, two history paragraphs; no headings
    assert "==" not in text and "See also" not in text and "List of narrow gauge" not in text
    entries = by_file(tmp_path)
    assert entries["wikipedia-101.txt"]["published"] == "2026-11-30"  # its newest edit
    assert (
        entries["wikipedia-505.txt"]["url"]
        == "https://en.wikipedia.org/wiki/Tidewater_glass_sponge"
    )
    assert entries["wikipedia-505.txt"]["licence"].startswith("CC BY-SA")
    changes = [q for q in server.paths("/wikipedia/w/api.php") if q.get("list")]
    assert [q.get("rccontinue") for q in changes] == [None, "20261128071502|1800001042"]
    assert changes[0]["rcend"] == "2026-02-01T00:00:00Z" and changes[0]["rcdir"] == "older"
    extracts = [q["pageids"] for q in server.paths("/wikipedia/w/api.php") if "pageids" in q]
    assert extracts == ["101", "202", "303", "404", "505"]  # page 101 changed twice: asked once


def test_news_feeds_full_text_newest_first_and_no_text_twice(tmp_path, server):
    reports = run(tmp_path, server, sources=("news",))
    assert reports["news"].written == 3
    # The wind-tunnel story is in both feeds (other case and spacing): written once.
    assert reports["news"].duplicates == 1
    entries = provenance(tmp_path)
    assert [e["title"] for e in entries] == [
        "NASA Selects Instruments for Lunar Far Side Radio Array Pathfinder",
        "Volunteers reopen restored canal lock after six years",
        "NASA Awards Contract for Wind Tunnel Modernization",
    ]
    assert [e["published"] for e in entries] == ["2026-11-29", "2026-11-27", "2026-11-25"]
    lunar = (tmp_path / entries[0]["file"]).read_text()
    assert "one of the quietest places" in lunar  # content:encoded, not the short description
    assert "<p>" not in lunar and "\u201cIf the pathfinder works" in lunar
    assert all(re.fullmatch(r"news-[0-9a-f]{16}\.txt", e["file"]) for e in entries)
    assert entries[1]["url"].startswith("https://en.wikinews.org/wiki/Volunteers")
    assert all(e["licence"].startswith("unknown") for e in entries)  # feeds given by URL


def competition_problems(directory: Path) -> dict[str, dict]:
    return {
        name: json.loads((directory / name).read_text())
        for name in files(directory, "competition-")
    }


def test_competition_amc_and_aime_problems_with_answer_keys(tmp_path, server):
    reports = run(tmp_path, server, sources=("competition",))
    problems = competition_problems(tmp_path)
    # 12A/3 needs its figure, 10A/3 has four choices, 12A/4 is 10A/2 again.
    assert sorted(problems) == [
        "competition-2026aimei-01.json",
        "competition-2026aimei-02.json",
        "competition-2026amc10a-01.json",
        "competition-2026amc10a-02.json",
        "competition-2026amc12a-01.json",
        "competition-2026amc12a-02.json",
    ]
    assert reports["competition"].duplicates == 1
    for record in problems.values():
        assert set(record) == PROBLEM_KEYS and record["kind"] == "competition"
        assert record["tests"] is None and "<math>" not in record["statement"]
        assert "Solution" not in record["statement"] and "{{" not in record["statement"]
    first = problems["competition-2026amc12a-01.json"]
    assert first["statement"] == (r"What is the value of $(2+4+6)\cdot(1+3+5)-(1\cdot2\cdot3)$?")
    assert first["choices"] == {"A": "$96$", "B": "$98$", "C": "$100$", "D": "$102$", "E": "$108$"}
    # The key's letter points at the value the statement evaluates to.
    assert first["choices"][first["answer"]] == f"${(2 + 4 + 6) * (1 + 3 + 5) - 6}$"
    marbles = problems["competition-2026amc12a-02.json"]
    assert marbles["choices"]["A"] == r"$\frac{5}{14}$" and marbles["answer"] == "A"
    assert "both marbles are blue?" in marbles["statement"]
    handshakes = problems["competition-2026amc10a-01.json"]
    assert handshakes["choices"]["B"] == "$10$" and handshakes["answer"] == "B"
    aime = problems["competition-2026aimei-01.json"]
    assert aime["choices"] is None and aime["answer"] == str(pow(7, 2026, 100))  # "049" -> "49"
    squares = problems["competition-2026aimei-02.json"]
    assert r"$$\sum_{k=1}^{20} k^2 .$$" in squares["statement"]
    assert squares["answer"] == str(sum(k * k for k in range(1, 21)) % 1000)
    assert first["url"].endswith("/2026_AMC_12A_Problems/Problem_1")
    entries = provenance(tmp_path)
    assert [e["published"] for e in entries] == ["2026-11-06"] * 4 + ["2026-02-05"] * 2


def _max_adjacent(stdin: str) -> str:
    numbers = iter(stdin.split())
    answers = []
    for _ in range(int(next(numbers))):
        values = [int(next(numbers)) for _ in range(int(next(numbers)))]
        answers.append(max(a + b for a, b in itertools.pairwise(values)))
    return "".join(f"{answer}\n" for answer in answers)


def _mirrors(stdin: str) -> str:
    words = stdin.split()[1:]
    return "".join("YES\n" if word == word[::-1] else "NO\n" for word in words)


def test_coding_problems_with_samples_newest_contest_first(tmp_path, server):
    run(tmp_path, server, sources=("coding",))
    # 2185B is interactive, 2181A accepts any answer, 2100 is older than --since, 2190 not held.
    assert files(tmp_path) == ["coding-codeforces-2181B.json", "coding-codeforces-2185A.json"]
    lantern = json.loads((tmp_path / "coding-codeforces-2185A.json").read_text())
    assert set(lantern) == PROBLEM_KEYS and lantern["kind"] == "coding"
    assert lantern["answer"] is None and lantern["choices"] is None
    assert lantern["tests"] == [
        {"input": "3\n3\n1 2 3\n2\n5 5\n4\n-1 7 -3 2\n", "output": "5\n10\n6\n"},
        {"input": "1\n2\n-4 -6\n", "output": "-10\n"},
    ]
    for case in lantern["tests"]:  # the statement's own task, solved apart, gives the outputs
        assert _max_adjacent(case["input"]) == case["output"]
    statement = lantern["statement"]
    assert "$$$" not in statement and "$a_i + a_{i+1}$" in statement
    assert "\n\nInput\n\nThe first line contains a single integer $t$" in statement
    assert "\n\nOutput\n\n" in statement and "\n\nNote\n\n" in statement
    assert statement.endswith(
        "Time limit: 1 second per test. Memory limit: 256 megabytes per test."
    )
    assert "Copy" not in statement and "Codeforces" not in statement
    mirror = json.loads((tmp_path / "coding-codeforces-2181B.json").read_text())
    assert mirror["tests"] == [{"input": "2\nabba\nabc\n", "output": "YES\nNO\n"}]
    assert _mirrors(mirror["tests"][0]["input"]) == mirror["tests"][0]["output"]
    entries = provenance(tmp_path)
    assert [(e["file"], e["published"]) for e in entries] == [
        ("coding-codeforces-2185A.json", "2026-11-28"),
        ("coding-codeforces-2181B.json", "2026-11-20"),
    ]
    assert entries[0]["url"] == "https://codeforces.com/problemset/problem/2185/A"
    pages = [path for path, _, _ in server.requests if "/problemset/problem/" in path]
    assert "/cf/problemset/problem/2100/A" not in pages


# --- the folder: provenance, incrementality, duplicates, load_sources -----------------------


def test_provenance_lists_every_file_once_with_its_hash(tmp_path, server):
    run(tmp_path, server)
    entries = provenance(tmp_path)
    assert sorted(e["file"] for e in entries) == files(tmp_path)
    assert len(entries) == 3 + 3 + 3 + 6 + 2
    for entry in entries:
        assert set(entry) == PROVENANCE_KEYS
        data = (tmp_path / entry["file"]).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        assert entry["file"].startswith(f"{entry['source']}-")
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", entry["published"])
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", entry["retrieved"])
        assert entry["published"] >= SINCE.isoformat() and entry["url"] and entry["title"]
    published = [e["published"] for e in entries]
    assert published == sorted(published, reverse=True)  # newest first
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary file left behind


def test_fetch_is_incremental_and_keeps_existing_files(tmp_path, server):
    first = run(tmp_path, server, limit=1)
    assert {name: report.written for name, report in first.items()} == dict.fromkeys(
        ("arxiv", "wikipedia", "news", "competition", "coding"), 1
    )
    # --limit takes the newest of each source.
    assert {e["file"] for e in provenance(tmp_path)} >= {
        "arxiv-2611.29871.txt",
        "wikipedia-101.txt",
        "coding-codeforces-2185A.json",
    }
    before = {name: (tmp_path / name).read_bytes() for name in files(tmp_path)}
    earlier = by_file(tmp_path)
    server.requests.clear()
    second = run(tmp_path, server)
    assert second["arxiv"].already_here == 1 and second["arxiv"].written == 2
    assert {name: (tmp_path / name).read_bytes() for name in before} == before
    entries = by_file(tmp_path)
    assert all(entries[name] == earlier[name] for name in before)  # first retrieval kept
    assert len(entries) == 17 and sorted(entries) == files(tmp_path)
    # The details of what is already here are not fetched again.
    extracts = [q["pageids"] for q in server.paths("/wikipedia/w/api.php") if "pageids" in q]
    assert "101" not in extracts
    assert "/cf/problemset/problem/2185/A" not in [path for path, _, _ in server.requests]
    third = run(tmp_path, server)
    assert sum(report.written for report in third.values()) == 0


def test_a_text_already_in_the_folder_is_not_written_again(tmp_path, server):
    first, second = tmp_path / "first", tmp_path / "second"
    run(first, server, sources=("news",))
    lunar = next(e for e in provenance(first) if "Lunar" in e["title"])
    second.mkdir()
    # The same text under another name, in other case and spacing: still the same material.
    text = (first / lunar["file"]).read_text()
    (second / "mine.txt").write_text("  ".join(text.upper().split()))
    reports = run(second, server, sources=("news",))
    assert reports["news"].written == 2 and reports["news"].duplicates == 2
    assert lunar["file"] not in by_file(second) and (second / "mine.txt").exists()


def test_load_sources_reads_the_folder_with_dates_newest_first(tmp_path, server):
    run(tmp_path, server)
    sources = load_sources(tmp_path)
    assert not sources.tables
    assert sorted(sources.texts) == [n for n in files(tmp_path) if n.endswith(".txt")]
    assert sorted(sources.problems) == [n for n in files(tmp_path) if n.endswith(".json")]
    entries = by_file(tmp_path)
    assert sources.dates == {name: entry["published"] for name, entry in entries.items()}
    ordered = sources.newest_first(sources.texts)
    assert ordered[0] == "arxiv-2611.29871.txt" and ordered[-1].startswith("wikipedia-505")
    dates = [sources.dates[name] for name in ordered]
    assert dates == sorted(dates, reverse=True)
    for name, text in sources.problems.items():
        record = json.loads(text)
        assert record["published"] == sources.dates[name]
    digests = [material_digest(text) for text in sources.texts.values()]
    assert len(set(digests)) == len(digests)


def test_a_release_built_from_the_folder_draws_on_the_fetched_passages(tmp_path, server):
    material = tmp_path / "material"
    run(material, server, sources=("arxiv", "wikipedia"))
    build(
        tmp_path / "store",
        "2026-12-01",
        load_sources(material),
        per_task=3,
        names=["typos"],
        difficulty={"typos": 0},  # one fetched passage per question
    )
    rows = [
        json.loads(line)
        for path in (tmp_path / "store").rglob("typos*.jsonl")
        for line in path.read_text().splitlines()
    ]
    fetched = " ".join(" ".join(path.read_text().split()) for path in material.glob("*.txt"))
    assert rows and all(row["ground_truth"] in fetched for row in rows)


# --- the network: Retry-After, pacing, User-Agent, no network -------------------------------


def test_retry_after_is_waited_out_before_trying_again(tmp_path, server):
    server.faults["/arxiv/api/query"] = [(429, {"Retry-After": "7"}), (503, {})]
    sleeps = Sleeps()
    reports = run(tmp_path, server, sleep=sleeps, sources=("arxiv",))
    assert reports["arxiv"].written == 3
    assert len(server.paths("/arxiv/api/query")) == 3
    assert sleeps.waits[0] == 7.0  # the server's wait, exactly
    assert 0 < sleeps.waits[1] <= 60  # no hint: our own backoff


def test_a_wait_too_long_fails_that_source_only(tmp_path, server):
    server.faults["/arxiv/api/query"] = [(429, {"Retry-After": "3600"})]
    reports = run(tmp_path, server, sources=("arxiv", "coding"))
    assert reports["arxiv"].written == 0 and "3600s" in str(reports["arxiv"].error)
    assert "failed" in reports["arxiv"].line() and "\n" not in reports["arxiv"].line()
    assert reports["coding"].written == 2 and reports["coding"].error is None


def test_overload_that_never_ends_gives_up_after_the_retries(tmp_path, server):
    server.faults["/news/nasa.rss"] = [(502, {})] * 10
    reports = run(tmp_path, server, sources=("news",), retries=2)
    assert "HTTP 502 (after 3 tries)" in str(reports["news"].error)
    assert len(server.paths("/news/nasa.rss")) == 3


def test_a_request_that_hangs_times_out_and_is_tried_again(tmp_path, server):
    server.faults["/cf/api/contest.list"] = [(0, {})]
    reports = run(tmp_path, server, sources=("coding",), timeout=0.3)
    assert reports["coding"].written == 2
    assert len(server.paths("/cf/api/contest.list")) == 2


def test_a_dead_feed_is_reported_and_the_other_feeds_still_read(tmp_path, server):
    urls = {
        **server.base_urls(),
        "news": (f"{server.url}/news/gone.rss", f"{server.url}/news/wikinews.atom"),
    }
    options = FetchOptions(since=SINCE, today=TODAY, base_urls=urls, pause=0.0, sources=("news",))
    (report,) = asyncio.run(fetch_async(tmp_path, options, sleep=Sleeps()))
    assert report.written == 2 and "/news/gone.rss: HTTP 404" in str(report.error)


def test_no_network_midway_keeps_what_was_fetched_documented(tmp_path, server):
    urls = {**server.base_urls(), "coding": (f"http://127.0.0.1:{_closed_port()}",)}
    options = FetchOptions(
        since=SINCE, today=TODAY, base_urls=urls, pause=0.0, sources=("arxiv", "coding")
    )
    with pytest.raises(UserError, match="cannot reach"):
        asyncio.run(fetch_async(tmp_path, options, sleep=Sleeps()))
    assert sorted(by_file(tmp_path)) == files(tmp_path) == files(tmp_path, "arxiv-")
    assert len(files(tmp_path)) == 3


def test_retry_after_as_an_http_date():
    now = datetime(2026, 12, 1, 12, 0, 0, tzinfo=timezone.utc)
    assert retry_after_seconds("Tue, 01 Dec 2026 12:00:30 GMT", now) == 30.0
    assert retry_after_seconds("12", now) == 12.0
    assert retry_after_seconds("soon", now) is None and retry_after_seconds(None) is None


def test_requests_identify_themselves_and_pause_between_calls(tmp_path, server):
    sleeps = Sleeps()
    run(tmp_path, server, sleep=sleeps, sources=("coding",), pause=2.0)
    agents = {headers.get("User-Agent") for _, _, headers in server.requests}
    assert agents == {USER_AGENT} and USER_AGENT.startswith("ladderbench/")
    # contest.list, problemset.problems, four pages: a pause before each after the first.
    assert len(server.requests) == 6 and len(sleeps.waits) == 5
    assert all(1.5 < wait <= 2.0 for wait in sleeps.waits)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_without_network_one_line_and_exit_2(tmp_path):
    port = _closed_port()
    proc = ladderbench(
        "live", "fetch", str(tmp_path / "material"), "--since", "2026-11-01",
        "--sources", "arxiv", "--base-url", f"arxiv=http://127.0.0.1:{port}/api/query",
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert f"cannot reach 127.0.0.1:{port}" in proc.stderr and "no network?" in proc.stderr
    assert not (tmp_path / "material").exists()  # nothing fetched, nothing left behind


# --- the command line ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--since", "2026-13-01"], "--since '2026-13-01': expected a date YYYY-MM-DD"),
        (["--since", "2026-11-01", "--sources", "arxiv,gossip"], "unknown source gossip"),
        (["--since", "2026-11-01", "--base-url", "arxiv=ftp://x"], "is not an http(s) URL"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(tmp_path, args, message):
    proc = ladderbench("live", "fetch", str(tmp_path), *args)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_the_command_fetches_every_source_into_a_folder_build_can_read(tmp_path, server):
    out = tmp_path / "material"
    urls = [f"{name}={url}" for name, found in server.base_urls().items() for url in found]
    args = [arg for url in urls for arg in ("--base-url", url)]
    proc = ladderbench("live", "fetch", str(out), "--since", "2026-02-01", "--pause", "0", *args)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "arxiv: 3 new files (0 already here, 0 duplicate texts)"
    assert [line.split(":")[0] for line in lines[:5]] == [
        "arxiv", "wikipedia", "news", "competition", "coding",
    ]  # fmt: skip
    assert lines[-1].startswith(f"17 new files in {out}")
    sources = load_sources(out)
    assert len(sources.texts) == 9 and len(sources.problems) == 8
    assert set(sources.dates) == set(sources.texts) | set(sources.problems)


def test_argument_parsers():
    assert parse_since("2026-11-01", today=TODAY) == date(2026, 11, 1)
    assert parse_source_names(" coding, arxiv ,coding") == ("coding", "arxiv")
    urls = parse_base_urls(["news=http://a/feed", "news=http://b/feed", "coding=http://c/"])
    assert urls == {"news": ("http://a/feed", "http://b/feed"), "coding": ("http://c",)}
    with pytest.raises(UserError, match="given twice"):
        parse_base_urls(["arxiv=http://a", "arxiv=http://b"])
    with pytest.raises(UserError, match="expected SOURCE=URL"):
        parse_base_urls(["rss=http://x"])
    with pytest.raises(UserError, match="expected a date YYYY-MM-DD"):
        parse_since("yesterday")
    with pytest.raises(UserError, match="after today"):
        parse_since("2026-12-02", today=TODAY)
    with pytest.raises(UserError, match="choose from arxiv, wikipedia, news, competition"):
        parse_source_names(" , ")


def _choices(choice: str, gap: str, letters: str = "ABCDE") -> str:
    return gap.join(choice.format(letter=letter, n=n) for n, letter in enumerate(letters, 1))


@pytest.mark.parametrize(
    ("choice", "gap"),
    [
        (r"\textbf{{({letter}) }}{n}", r"\qquad"),
        (r"\mathrm{{({letter})}}\ {n}", r" \qquad "),
        (r"\textbf{{({letter}) {n}}}", r"\qquad"),
        (r"\text{{({letter}) }}{n}", r" \quad "),
    ],
)
def test_amc_choices_in_the_styles_the_wiki_uses(choice, gap):
    markup = f"Pick one of <math>x</math>.\n\n<math>{_choices(choice, gap)}</math>\n"
    rest, choices = competition.split_choices(markup)
    assert choices == {letter: f"${n}$" for n, letter in enumerate("ABCDE", 1)}
    assert competition.plain(rest) == "Pick one of $x$."


def test_amc_choices_unread_when_a_letter_is_missing():
    four = _choices(r"\textbf{{({letter}) }}{n}", r"\qquad", "ABCE")
    assert competition.split_choices(f"<math>{four}</math>") is None


@pytest.mark.parametrize(
    ("ident", "name"),
    [
        ("http://arxiv.org/abs/2611.01234v3", "arxiv-2611.01234.txt"),
        ("http://arxiv.org/abs/solv-int/9901001v1", "arxiv-solv-int_9901001.txt"),
        ("http://arxiv.org/abs/solv-int/9901001", "arxiv-solv-int_9901001.txt"),
    ],
)
def test_arxiv_file_names_name_the_paper_not_the_version(ident, name):
    atom = "http://www.w3.org/2005/Atom"
    entry = ET.fromstring(
        f'<entry xmlns="{atom}"><id>{ident}</id><published>2026-11-30T10:00:00Z</published>'
        "<title>T</title><summary>An abstract.</summary></entry>"
    )
    document = arxiv.entry_document(entry)
    assert document is not None and document.name == name


def test_preformatted_samples_keep_their_lines():
    page = "<pre>1 2<br/>3<br />\n</pre><pre><div class='l'>a</div><div class='l'>b c</div></pre>"
    first, second = _html.parse(page).find_all("pre")
    assert coding.sample_text(first) == "1 2\n3\n"
    assert coding.sample_text(second) == "a\nb c\n"


class Streaming(LoopbackServer):
    """One page of ``size`` bytes, streamed in small chunks with pauses (as a slow server does)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def routes(self, app: web.Application) -> None:
        async def page(request: web.Request) -> web.StreamResponse:
            resp = web.StreamResponse(headers={"Content-Type": "text/plain"})
            await resp.prepare(request)
            sent = 0
            while sent < self.size:
                part = min(50_000, self.size - sent)
                await resp.write(b"x" * part)
                sent += part
                await asyncio.sleep(0.001)
            await resp.write_eof()
            return resp

        app.router.add_get("/page", page)


def test_a_long_page_arrives_whole_and_one_over_the_cap_is_refused(monkeypatch):
    """``content.read(n)`` returned only what was buffered: a 3 MB page came back as 128 KB."""

    async def get(url: str) -> str:
        async with Http(timeout=30, retries=0) as http:
            return await http.get(url)

    with Streaming(3_000_000) as server:
        url = f"http://127.0.0.1:{server.port}/page"
        assert len(asyncio.run(get(url))) == 3_000_000
        monkeypatch.setattr(fetch_http, "MAX_BODY_BYTES", 1_000_000)
        with pytest.raises(FetchError, match="response over 1000000 bytes"):
            asyncio.run(get(url))
