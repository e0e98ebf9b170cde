"""What a results file records and how resume guards it: the run header (answer settings and
provenance), cached and server-timed rows, token totals and cost, and refusals that leave the
file exactly as it was."""

import json
import subprocess
import sys
import threading
import time

import pytest

from cli_helpers import ladderbench, read_jsonl
from ladderbench.puzzles.suite import cells
from ladderbench.testing.fake_openai import FakeOpenAI


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))


@pytest.fixture(scope="module")
def server():
    with FakeOpenAI() as fake:
        yield fake


def run(server, out, *extra, base_url=None):
    return ladderbench(
        "run",
        "--model",
        "openai:m",
        "--base-url",
        base_url or server.base_url,
        "--levels",
        "1,2",
        "--limit",
        "2",
        "--out",
        str(out),
        "--quiet",
        *extra,
    )


def header_of(path):
    return json.loads(path.read_text().splitlines()[0])


@pytest.mark.parametrize(
    "changed, named",
    [
        (["--max-tokens", "64"], "--max-tokens: 512 there, 64 now"),
        (["--temperature", "0.7"], "--temperature: 0.0 there, 0.7 now"),
        (["--system-prompt", "Be brief."], '--system-prompt: none there, "Be brief." now'),
        (["--seed", "3"], "--seed: 0 there, 3 now"),
    ],
)
def test_resume_with_a_changed_setting_is_refused_naming_it_and_the_file_is_untouched(
    server, tmp_path, changed, named
):
    out = tmp_path / "r.jsonl"
    assert run(server, out, "--levels", "1").returncode == 0
    before = out.read_bytes()
    proc = run(server, out, *changed)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert named in proc.stderr and "choose another --out" in proc.stderr
    assert out.read_bytes() == before


def test_resume_against_another_endpoint_is_refused(server, tmp_path):
    out = tmp_path / "r.jsonl"
    assert run(server, out).returncode == 0
    with FakeOpenAI() as other:
        proc = run(server, out, base_url=other.base_url)
    assert proc.returncode == 2 and "--base-url: " in proc.stderr, proc.stderr


def test_a_refused_selection_leaves_summary_and_errored_rows_in_place(tmp_path):
    """A refused resume used to rewrite the file first (summary and errored rows dropped)."""
    out = tmp_path / "p.jsonl"
    args = ("run", "--model", "oracle", "--suite", "puzzles", "--tiers", "0", "--quiet")
    assert ladderbench(*args, "--seeds", "1-2", "--out", str(out)).returncode == 0
    before = out.read_bytes()
    proc = ladderbench(*args, "--seeds", "1", "--out", str(out))
    assert proc.returncode == 2 and "outside this selection" in proc.stderr
    assert out.read_bytes() == before


def test_rows_answering_a_question_that_has_changed_since_are_refused(tmp_path):
    out = tmp_path / "r.jsonl"
    args = ("run", "--model", "oracle", "--levels", "1", "--limit", "2", "--quiet")
    assert ladderbench(*args, "--out", str(out)).returncode == 0
    lines = out.read_text().splitlines()
    row = json.loads(lines[1])
    row["prompt"] = row["prompt"].replace("What", "Which", 1)
    out.write_text("\n".join([lines[0], json.dumps(row), *lines[2:]]) + "\n")
    proc = ladderbench(*args, "--out", str(out))
    assert proc.returncode == 2 and f"the prompt of '{row['id']}'" in proc.stderr, proc.stderr


def test_a_run_stopped_by_a_wrong_endpoint_resumes_with_the_right_one(server, tmp_path):
    out = tmp_path / "r.jsonl"
    proc = run(server, out, base_url="http://127.0.0.1:9/v1")
    assert proc.returncode == 2 and "cannot connect" in proc.stderr
    assert run(server, out).returncode == 0
    assert header_of(out)["settings"]["endpoint"] == server.base_url


def test_header_and_summary_carry_provenance_without_secrets(server, tmp_path):
    out = tmp_path / "r.jsonl"
    key = "sk-provenance-canary-0123456789"
    assert run(server, out, "--api-key", key).returncode == 0
    header = header_of(out)
    assert header["type"] == "run" and header["suite"] == "static"
    assert header["settings"] == {
        "adapter": "openai",
        "model": "m",
        "endpoint": server.base_url,
        "temperature": 0.0,
        "maxTokens": 512,
        "seed": 0,
        "systemPrompt": None,
    }
    made = header["provenance"]
    assert made["ladderbench"] and made["python"] and made["started"]
    assert len(made["questionsSha256"]) == 64
    assert made["command"][:2] == ["ladderbench", "run"] and "***" in made["command"]
    assert key not in out.read_text()
    _, summary = read_jsonl(out)
    assert summary["provenance"]["started"] == made["started"] and summary["provenance"]["finished"]


def test_the_same_questions_have_the_same_digest_and_others_do_not(tmp_path):
    def digest(*args):
        out = tmp_path / f"{len(list(tmp_path.iterdir()))}.jsonl"
        assert (
            ladderbench("run", "--model", "oracle", "-q", "--out", str(out), *args).returncode == 0
        )
        return header_of(out)["provenance"]["questionsSha256"]

    assert digest("--levels", "1") == digest("--levels", "1")
    assert digest("--levels", "1") != digest("--levels", "2")


def test_cached_answers_are_marked_and_cost_nothing(server, tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    prices = ("--price-in", "2.5", "--price-out", "10")
    assert run(server, first, *prices).returncode == 0
    asked = len(server.requests)
    assert run(server, second, *prices).returncode == 0
    assert len(server.requests) == asked  # every answer came from the cache
    rows_a, summary_a = read_jsonl(first)
    rows_b, summary_b = read_jsonl(second)
    assert not any(r["cached"] for r in rows_a) and all(r["cached"] for r in rows_b)
    assert all(r["serverMs"] == 4.0 for r in rows_a)  # the fake reports llama.cpp timings
    assert summary_a["usage"] == {
        "promptTokens": 10 * 4,
        "completionTokens": 2 * 4,
        "cachedAnswers": 0,
        "pricePerMillionIn": 2.5,
        "pricePerMillionOut": 10.0,
        "costUsd": round((40 * 2.5 + 8 * 10) / 1e6, 6),
    }
    assert summary_b["usage"]["cachedAnswers"] == 4 and summary_b["usage"]["costUsd"] == 0.0
    shown = ladderbench("report", str(first))
    assert "tokens: 40 prompt, 8 completion; estimated cost $0.0002" in shown.stdout


def test_the_system_prompt_is_sent_before_every_question(server, tmp_path):
    out = tmp_path / "r.jsonl"
    asked = len(server.requests)
    assert run(server, out, "--system-prompt", "Think step by step.", "--no-cache").returncode == 0
    sent = server.requests[asked:]
    assert len(sent) == 4
    assert all(
        r["messages"][0] == {"role": "system", "content": "Think step by step."} for r in sent
    )


def test_version_and_one_json_document_for_several_files(tmp_path):
    version = ladderbench("--version")
    assert version.returncode == 0 and version.stdout.startswith("ladderbench ")
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out, model in ((a, "oracle"), (b, "echo")):
        ladderbench(
            "run", "--model", model, "--levels", "1", "--limit", "2", "-q", "--out", str(out)
        )
    both = json.loads(ladderbench("report", "--json", str(a), str(b)).stdout)
    assert [s["model"] for s in both] == ["oracle", "echo"]
    assert json.loads(ladderbench("report", "--json", str(a)).stdout)["model"] == "oracle"


def test_a_rung_with_nothing_scored_has_no_rate(tmp_path):
    out = tmp_path / "r.jsonl"
    with FakeOpenAI(fault=lambda prompt, seen: "500" if "9 + 6" in prompt else None) as flaky:
        proc = ladderbench(
            "run",
            "--model",
            "openai:m",
            "--base-url",
            flaky.base_url,
            "--levels",
            "1,2",
            "--limit",
            "1",
            "--retries",
            "0",
            "--json",
            "--out",
            str(out),
        )
    assert proc.returncode == 3, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["byLevel"]["1"]["n"] == 0 and summary["byLevel"]["1"]["rate"] is None
    assert summary["byLevel"]["2"]["rate"] is not None


def test_limit_means_items_per_tier_for_puzzles(tmp_path):
    out = tmp_path / "p.jsonl"
    proc = ladderbench(
        "run", "--model", "oracle", "--suite", "puzzles", "--tiers", "0-2", "--limit", "3",
        "--json", "--out", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert {tier: b["n"] for tier, b in summary["byTier"].items()} == {"0": 3, "1": 3, "2": 3}
    rows, _ = read_jsonl(out)
    for tier in (0, 1, 2):
        in_tier = [cell.family for cell in cells([tier])]
        asked = {r["family"] for r in rows if r["tier"] == tier}
        assert asked == set(in_tier[:3])  # seed by seed, the tier's families in turn


def test_the_html_report_shows_tokens_cost_and_provenance(server, tmp_path):
    out, page = tmp_path / "r.jsonl", tmp_path / "report.html"
    assert run(server, out, "--price-in", "2.5", "--price-out", "10").returncode == 0
    assert ladderbench("report", str(out), "--html", str(page)).returncode == 0
    html = page.read_text()
    assert "40 prompt, 8 completion; estimated cost $0.0002" in html
    assert header_of(out)["provenance"]["questionsSha256"] in html
    assert "ladderbench run --model openai:m" in html


def test_a_second_run_on_the_same_out_is_refused_naming_the_first(server, tmp_path):
    out = tmp_path / "r.jsonl"
    release, answered = threading.Event(), []

    def held(prompt: str) -> str:
        """The first answer at once; the others only once the second run has been tried, so
        the first run is certainly still writing when the second starts (no race on load)."""
        if answered:
            release.wait(120)
        answered.append(prompt)
        return "A"

    with FakeOpenAI(reply=held) as slow:
        first = subprocess.Popen(
            [sys.executable, "-m", "ladderbench", "run", "--model", "openai:m", "--base-url",
             slow.base_url, "--levels", "1", "--limit", "6", "--concurrency", "1", "--quiet",
             "--out", str(out)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 120
            while not (out.exists() and out.stat().st_size):
                assert first.poll() is None and time.monotonic() < deadline, first.stderr
                time.sleep(0.05)
            second = run(slow, out, "--levels", "1", "--limit", "6", base_url=slow.base_url)
        finally:
            release.set()
        assert first.wait(timeout=120) == 0
    assert second.returncode == 2 and second.stderr.count("\n") == 1, second.stderr
    assert f"(PID {first.pid})" in second.stderr and "in use by another" in second.stderr
    rows, summary = read_jsonl(out)
    assert len(rows) == 6 and summary["total"] == 6  # nothing written twice
    assert not out.with_name("r.jsonl.lock").exists()  # released when the run ended


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero", "/dev/full"])
def test_out_naming_a_device_or_a_directory_is_one_line(tmp_path, device):
    for out in (device, str(tmp_path)):
        proc = ladderbench("run", "--model", "oracle", "--limit", "1", "-q", "--out", out)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert "name a .jsonl file" in proc.stderr
