"""The HTML report: self-contained, escaped, charts present; checked in headless Chromium."""

import json
import os
import shutil
import subprocess

import pytest

from cli_helpers import ladderbench
from helpers import make_row
from ladderbench.analysis.digest import digest
from ladderbench.report.html import render_report

INJECTED = (
    '<script>document.title = "pwned"</script></table>'
    "<img src=x onerror=\"document.title='pwned'\">"
)


def write_results(path, rows, summary=None):
    lines = [json.dumps(r.to_json_dict()) for r in rows]
    if summary:
        lines.append(json.dumps({"type": "summary", **summary}))
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def results(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    static = tmp_path / "static.jsonl"
    ladderbench("run", "--model", "random", "--out", str(static), "--quiet")
    # a model whose answer tries to break out of the page
    header, *text = static.read_text().splitlines()
    first = json.loads(text[0])
    first["response"] = INJECTED
    first["prompt"] = first["prompt"] + INJECTED
    (tmp_path / "evil.jsonl").write_text("\n".join([header, json.dumps(first), *text[1:]]) + "\n")
    puzzles = tmp_path / "puzzles.jsonl"
    ladderbench(
        "run",
        "--suite",
        "puzzles",
        "--model",
        "oracle",
        "--seeds",
        "1-2",
        "--out",
        str(puzzles),
        "--quiet",
    )
    return tmp_path


def test_report_escapes_model_output_and_has_every_part(results):
    html = render_report([results / "evil.jsonl", results / "puzzles.jsonl"])
    assert INJECTED not in html
    assert "&lt;script&gt;document.title" in html
    assert html.count("<script>") == 1  # only the report's own filter script
    assert 'class="chart profile"' in html and 'class="chart heatmap"' in html
    for part in ('id="overview"', 'id="probes"', "Audit", "Settings", "guessing baseline"):
        assert part in html
    assert "http://" not in html and "https://" not in html  # needs no network


def test_comparison_of_two_runs_on_the_same_items(results, tmp_path):
    oracle = tmp_path / "oracle.jsonl"
    ladderbench("run", "--model", "oracle", "--out", str(oracle), "--quiet")
    html = render_report([results / "static.jsonl", oracle])
    assert 'id="comparisons"' in html and "McNemar exact" in html and "differ beyond noise" in html


def test_large_files_are_sampled_and_say_so(tmp_path):
    rows = [make_row(f"q{i}", level=1 + i % 5) for i in range(1000)]
    path = write_results(tmp_path / "big.jsonl", rows)
    d = digest(path, sample_size=50)
    assert d.rows == 1000 and len(d.sample) == 50 and d.sampled
    html = render_report([path], sample_size=50)
    assert "A seeded random sample of 50 of the file's 1000 attempts" in html


def test_cli_writes_the_report(results):
    out = results / "report.html"
    proc = ladderbench("report", str(results / "static.jsonl"), "--html", str(out))
    assert proc.returncode == 0, proc.stderr
    assert out.read_text().startswith("<!doctype html>")
    proc = ladderbench(
        "report", str(results / "static.jsonl"), "--html", str(results / "static.jsonl" / "x")
    )
    assert proc.returncode == 2 and "cannot write --html" in proc.stderr


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="needs Debian's chromium (make test installs it)",
)
def test_report_renders_in_headless_chromium_and_the_injection_stays_text(results, tmp_path):
    assert CHROMIUM, "chromium is missing in CI: make browser should have installed it"
    out = tmp_path / "report.html"
    out.write_text(render_report([results / "evil.jsonl", results / "puzzles.jsonl"]))
    profile = tmp_path / "profile"
    dom = subprocess.run(
        [
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={profile}",
            "--virtual-time-budget=2000",
            "--dump-dom",
            out.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    rendered = dom.stdout
    assert "<title>LadderBench report</title>" in rendered  # the injected script never ran
    assert "pwned" not in rendered.split("<body>")[0]
    assert rendered.count('class="chart profile"') >= 2 and 'class="chart heatmap"' in rendered
    assert "&lt;script&gt;document.title" in rendered  # shown as text in the audit table
    shot = tmp_path / "report.png"
    subprocess.run(
        [
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--screenshot={shot}",
            "--window-size=1280,2000",
            out.as_uri(),
        ],
        capture_output=True,
        timeout=120,
    )
    assert shot.exists() and shot.stat().st_size > 10_000
