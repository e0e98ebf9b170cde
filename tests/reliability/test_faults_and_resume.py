"""Reliability: a fault-injecting server, SIGKILL at several points and resume, a canary key."""

import hashlib
import os
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest

from cli_helpers import ladderbench, read_jsonl
from ladderbench.static.suite import StaticSuite
from ladderbench.testing.fake_openai import FakeOpenAI

GOLD = {item.prompt: item.expected for item in StaticSuite().items()}
ID_OF = {item.prompt: item.id for item in StaticSuite().items()}
FIRST_PROMPT = StaticSuite().items()[0].prompt
CANARY = "sk-canary-3f9b2c51-must-not-leak"


def bucket(prompt: str) -> int:
    return hashlib.sha256(prompt.encode()).digest()[0] % 8


def faulty(prompt: str, seen: int) -> str | None:
    """Per item: always 500, or one transient fault before the answer, or none."""
    if prompt == FIRST_PROMPT:
        return None
    kind = {0: "500", 1: "429", 2: "hang", 3: "badjson", 4: "nochoices", 5: "drop"}.get(
        bucket(prompt)
    )
    if kind == "500":
        return kind
    return kind if seen == 0 else None


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))


def run_args(server, out, *extra):
    return [
        "run",
        "--model",
        "openai:fake",
        "--base-url",
        server.base_url,
        "--out",
        str(out),
        "--quiet",
        "--retry-wait",
        "0.01",
        *extra,
    ]


def test_faulty_server_every_attempt_answered_or_errored_never_misscored(tmp_path):
    out = tmp_path / "r.jsonl"
    always_failing = {ID_OF[p] for p in GOLD if p != FIRST_PROMPT and bucket(p) == 0}
    assert always_failing  # the fault mix exercises permanent failure too
    with FakeOpenAI(reply=GOLD.get, fault=faulty, hang_s=2.0) as server:
        proc = ladderbench(
            *run_args(
                server,
                out,
                "--timeout",
                "0.5",
                "--retries",
                "2",
                "--concurrency",
                "16",
                "--api-key",
                CANARY,
            )
        )
        # Errored attempts make the run exit 3, with one line saying how many were scored.
        assert proc.returncode == 3, proc.stderr
        n_failing = len(always_failing)
        assert f"{n_failing} of 150 attempts ended in an error and were not scored" in proc.stderr
        assert f"over the {150 - n_failing} scored" in proc.stderr
        rows, summary = read_jsonl(out)
        assert len(rows) == 150 and len({r["id"] for r in rows}) == 150
        for row in rows:
            if row["id"] in always_failing:
                assert row["error"] == "HTTP 500" and row["pass"] is None and row["score"] is None
            else:
                assert row["error"] is None and row["pass"] is True, row
        assert summary["errors"] == len(always_failing)
        assert summary["n"] == 150 - len(always_failing) and summary["rate"] == 1.0

        # Re-running retries only the errored attempts; each attempt is still there once.
        before = len(server.requests)
        proc = ladderbench(*run_args(server, out, "--retries", "0", "--api-key", CANARY))
        assert proc.returncode == 3, proc.stderr  # the same attempts fail again
        assert len(server.requests) - before == len(always_failing)
        rows, _ = read_jsonl(out)
        assert sorted(Counter(r["id"] for r in rows).values()) == [1] * 150


def test_api_key_is_never_written_anywhere(tmp_path):
    out = tmp_path / "r.jsonl"
    with FakeOpenAI(
        reply=GOLD.get, fault=lambda p, n: "401" if p != FIRST_PROMPT else None
    ) as server:
        proc = ladderbench(*run_args(server, out, "--limit", "3", "--api-key", CANARY))
        assert server.headers[0]["Authorization"] == f"Bearer {CANARY}"
        env_proc = ladderbench(
            *run_args(server, tmp_path / "e.jsonl", "--limit", "3"), env={"OPENAI_API_KEY": CANARY}
        )
    assert proc.returncode == 3 and env_proc.returncode == 3  # the 401 rows are errors
    rows, _ = read_jsonl(out)
    assert any("HTTP 401" in (r["error"] or "") for r in rows)  # the server echoed the key back
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert CANARY.encode() not in path.read_bytes(), path
    for text in (proc.stdout, proc.stderr, env_proc.stdout, env_proc.stderr):
        assert CANARY not in text
    with FakeOpenAI(fault=lambda p, n: "401") as server:
        proc = ladderbench(*run_args(server, tmp_path / "x.jsonl", "--api-key", CANARY))
    assert proc.returncode == 2 and "check --api-key" in proc.stderr and CANARY not in proc.stderr


def count_lines(path):
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.mark.parametrize("kill_points", [(0,), (1, 60, 140), (30,), (120,)])
def test_sigkill_then_resume_gives_every_attempt_exactly_once(tmp_path, kill_points):
    out = tmp_path / "r.jsonl"
    with FakeOpenAI(reply=GOLD.get, latency=0.01) as server:
        args = [sys.executable, "-m", "ladderbench", *run_args(server, out, "--concurrency", "4")]
        for point in kill_points:
            proc = subprocess.Popen(
                args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ.copy()
            )
            deadline = time.monotonic() + 60
            while count_lines(out) < point and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.002)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            rows_now = out.read_bytes().count(b"\n") if out.exists() else 0
            assert rows_now < 151  # killed before the run could finish and write its summary
        final = ladderbench(*run_args(server, out, "--concurrency", "4"))
    assert final.returncode == 0, final.stderr
    rows, summary = read_jsonl(out)
    keys = Counter((r["id"], r["sample"]) for r in rows)
    assert len(keys) == 150 and set(keys.values()) == {1}
    assert summary["total"] == 150 and summary["passed"] == 150
    assert out.read_text().endswith("\n") and len(out.read_text().splitlines()) == 152


def test_a_run_whose_server_fails_after_one_answer_is_not_a_success(tmp_path):
    """The #15 report: a server that answers once and then returns HTTP 500 gave exit code 0 and
    a headline of 100%. Now: exit 3, one line with the scored and errored counts, and a level
    where nothing was scored shows no percentage."""
    out = tmp_path / "flaky.jsonl"
    answered: list[str] = []

    def first_only(prompt: str, seen: int) -> str | None:
        if not answered:
            answered.append(prompt)
        return None if prompt == answered[0] else "500"

    with FakeOpenAI(reply=GOLD.get, fault=first_only) as server:
        proc = ladderbench(
            "run", "--model", "openai:flaky", "--base-url", server.base_url, "--out", str(out),
            "--limit", "2", "--retries", "1", "--retry-wait", "0.01", "--concurrency", "1",
        )  # fmt: skip
    assert proc.returncode == 3, proc.stderr
    assert "9 of 10 attempts ended in an error and were not scored" in proc.stderr
    assert "over the 1 scored" in proc.stderr
    _, summary = read_jsonl(out)
    assert summary["errors"] == 9 and summary["n"] == 1
    empty = [
        line for line in proc.stdout.splitlines() if line.lstrip("│ ").startswith(("3 ", "4 "))
    ]
    assert empty and all("%" not in line for line in empty), proc.stdout
