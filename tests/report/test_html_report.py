"""The HTML report: self-contained, escaped, charts present; checked in headless Chromium."""

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cli_helpers import ladderbench
from helpers import make_row
from ladderbench.analysis.digest import digest
from ladderbench.report.html import render_report, setting_lines

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
    for part in ('id="overview"', 'id="probes"', "Audit", "Settings", "baseline 25%"):
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


def test_settings_read_as_a_person_writes_them():
    assert setting_lines("levels", None) == ["all"]
    assert setting_lines("systemPrompt", None) == ["—"]
    assert setting_lines("seeds", list(range(1, 17))) == ["1-16"]
    assert setting_lines("levels", [1, 2, 3, 5]) == ["1-3, 5"]
    assert setting_lines("cells", ["text/t0", "arithmetic/t1"]) == ["text/t0, arithmetic/t1"]
    assert setting_lines("temperature", 0.0) == ["0"] and setting_lines("x", True) == ["yes"]
    nested = {"families": ["caesar", "text"], "batch": 4, "search": {"budget": 40}}
    assert setting_lines("adaptive", nested) == [
        "families: caesar, text",
        "batch: 4",
        "search: budget: 40",
    ]
    assert setting_lines("proxy", {"a": {"b": 1, "c": None}}) == ["a:", "  b: 1", "  c: —"]


def test_every_chart_is_followed_by_its_number_table_and_an_unscored_rung_is_a_dash(tmp_path):
    rows = [make_row(f"q{i}", level=1 + i % 3) for i in range(9)]
    for row in rows:  # level 3: every attempt errored, so nothing was scored there
        if row.level == 3:
            row.error, row.passed, row.score, row.extracted = "timeout", None, None, None
    page = render_report([write_results(tmp_path / "r.jsonl", rows)])
    charts = re.findall(
        r"<svg class=\"chart.*?</svg>\s*(<table class=\"numbers\">.*?</table>)", page, re.S
    )
    assert charts and len(charts) == page.count('<svg class="chart')
    cells = re.findall(r"<tr><td>L3</td>(.*?)</tr>", charts[0], re.S)[0]
    assert re.findall(r">([^<]*)</td>", cells) == ["0", "0", "-", "-", "3", "0"]
    assert page.index('id="grader-probe"') > page.index('class="model"')  # the probe comes last


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


LAYOUT_PROBE = "<script>" + (Path(__file__).parent / "layout_probe.js").read_text() + "</script>"


@pytest.fixture(scope="module")
def every_part(tmp_path_factory):
    """Results of every suite: a live store of ALL tasks (oracle, echo and random, so the page has
    the cross-model heatmap too), the whole static ladder, every puzzle tier, and an adaptive run
    (pass rate against difficulty, tiers estimated from the fits)."""
    folder = tmp_path_factory.mktemp("every-part")
    env = {"LADDERBENCH_CACHE": str(folder / "cache.sqlite")}
    store = folder / "live"
    build = ladderbench("live", "build", str(store), "--release", "2026-12-01", "--per-task", "1")
    assert build.returncode == 0, build.stderr
    runs = [
        (["--suite", "live", "--live-dir", str(store), "--model", model], f"live-{model}.jsonl")
        for model in ("oracle", "echo", "random")
    ]
    runs += [
        (["--model", "random"], "static.jsonl"),
        (["--suite", "puzzles", "--model", "oracle", "--seeds", "1-2"], "puzzles.jsonl"),
    ]
    adaptive = "--suite puzzles --suite-version 2 --adaptive --families text,caesar --seeds 1-4"
    runs.append(([*adaptive.split(), "--model", "oracle"], "adaptive.jsonl"))
    for args, name in runs:
        proc = ladderbench("run", *args, "--out", str(folder / name), "--quiet", env=env)
        assert proc.returncode in (0, 1), proc.stderr  # 1: below a threshold, still a result
    return [folder / name for _, name in runs]


def _layout(page, width, profile):
    """The layout probe's findings for ``page`` in headless Chromium at ``width`` pixels."""
    dom = subprocess.run(
        [
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={width},2000",
            "--virtual-time-budget=2000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r'<pre id="layout-check">(.*?)</pre>', dom.stdout, re.S)
    assert found, "the layout probe did not run"
    return json.loads(html.unescape(found.group(1)))


@pytest.mark.slow
@pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="needs Debian's chromium (make test installs it)",
)
@pytest.mark.parametrize("width", [1280, 600])
def test_every_chart_has_its_number_table_and_no_labels_overlap(every_part, tmp_path, width):
    assert CHROMIUM, "chromium is missing in CI: make browser should have installed it"
    page = tmp_path / "report.html"
    page.write_text(render_report(every_part).replace("</body>", LAYOUT_PROBE + "</body>"))
    charts = _layout(page, width, tmp_path / "profile")
    kinds = {c["kind"] for c in charts}
    assert {"chart profile", "chart heatmap", "chart difficulty"} <= kinds, kinds
    assert any(len(c["rungs"]) == 16 for c in charts), "the live chart of all 16 tasks is missing"
    for c in charts:
        assert c["table"], f"{c['title']}: no number table right under the chart"
        assert c["rungs"] and c["rows"] == c["rungs"], c["title"]
        assert c["labels"] and not c["overlaps"], (c["title"], c["overlaps"][:5])
        assert not c["outside"], (c["title"], c["outside"][:5])
        assert not c["onBars"], (c["title"], c["onBars"])
    shot = tmp_path / f"report-{width}.png"
    subprocess.run(
        [
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--screenshot={shot}",
            f"--window-size={width},6000",
            page.as_uri(),
        ],
        capture_output=True,
        timeout=120,
    )
    assert shot.exists() and shot.stat().st_size > 10_000


@pytest.mark.slow
@pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="needs Debian's chromium (make test installs it)",
)
def test_the_layout_probe_sees_labels_that_overlap(every_part, tmp_path, monkeypatch):
    """The check above can fail: told that glyphs are a tenth of their width, the charts keep
    16 long task names in columns, and the probe finds them on top of each other."""
    assert CHROMIUM, "chromium is missing in CI: make browser should have installed it"
    monkeypatch.setattr("ladderbench.report.charts.GLYPH_EM", 0.06)
    page = tmp_path / "report.html"
    page.write_text(render_report(every_part[:1]).replace("</body>", LAYOUT_PROBE + "</body>"))
    (live,) = [c for c in _layout(page, 1280, tmp_path / "profile") if len(c["rungs"]) == 16]
    assert live["table"] and live["overlaps"]
