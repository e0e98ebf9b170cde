"""``--workers N`` for the embedded model: N worker processes behind one adapter, the rows and the
resume of a one-worker run, and every attempt exactly once when a worker or the driver is killed.

The workers are the stand-in of ``ladderbench.testing.fake_llama_worker`` (the real protocol, no
llama.cpp): what is tested is the pool and the runner, not the model.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest

from cli_helpers import ladderbench, read_jsonl
from ladderbench.models.local import LocalAdapter
from ladderbench.models.pool import AdapterPool
from ladderbench.models.registry import EndpointOptions, make_adapter
from ladderbench.runner.run import RunConfig, run_suite
from ladderbench.static.suite import StaticSuite

FAKE = {"LADDERBENCH_LOCAL_WORKER": "ladderbench.testing.fake_llama_worker"}
COMPARED = ("id", "sample", "prompt", "expected", "response", "extracted", "score", "pass")


@pytest.fixture
def fake_model(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    for name, value in FAKE.items():
        monkeypatch.setenv(name, value)
    path = tmp_path / "fake.gguf"
    path.write_bytes(b"GGUF stand-in")
    return path


def run_static(model, out, env, *extra):
    return ladderbench(
        "run", "--model", f"local:{model}", "--levels", "1,2", "--limit", "5",
        "--out", str(out), "--quiet", "--no-cache", *extra, env={**FAKE, **env},
    )  # fmt: skip


def answers(rows):
    return sorted(tuple(row[field] for field in COMPARED) for row in rows)


def exactly_once(rows):
    counts = Counter((r["id"], r["sample"]) for r in rows)
    return set(counts.values()) == {1}


def test_two_workers_share_the_cores_and_both_answer(tmp_path, fake_model):
    pool = make_adapter(f"local:{fake_model}", workers=2)
    assert isinstance(pool, AdapterPool) and pool.concurrency_limit == 2
    members = pool.members
    assert all(isinstance(m, LocalAdapter) for m in members)
    assert {m.threads for m in members} == {max(1, (os.cpu_count() or 1) // 2)}
    assert len({m._proc.pid for m in members}) == 2
    single = LocalAdapter(str(fake_model))
    assert pool.settings() == single.settings()  # the same cache keys, the same resume
    single.close()
    suite = StaticSuite(levels=[1, 2], limit=5)
    summary = asyncio.run(run_suite(suite, pool, RunConfig(out=tmp_path / "r.jsonl")))
    assert summary.total == 10
    assert all(m.answered >= 1 for m in members)  # both were fed by the one runner
    assert all(m._proc.poll() is not None for m in members)  # and closed with the run


def test_two_workers_write_the_rows_of_one(tmp_path, fake_model):
    one = run_static(fake_model, tmp_path / "one.jsonl", {})
    two = run_static(fake_model, tmp_path / "two.jsonl", {}, "--workers", "2")
    assert one.returncode == 0 and two.returncode == 0, two.stderr
    rows_one, _ = read_jsonl(tmp_path / "one.jsonl")
    rows_two, summary = read_jsonl(tmp_path / "two.jsonl")
    assert len(rows_two) == 10 and exactly_once(rows_two) and summary["total"] == 10
    assert answers(rows_two) == answers(rows_one)


def test_a_worker_killed_mid_run_keeps_the_rows_and_resume_completes(tmp_path, fake_model):
    out = tmp_path / "run.jsonl"
    env = {
        "FAKE_WORKER_CRASH_AFTER": "2",
        "FAKE_WORKER_SIGNAL": "SIGKILL",
        "FAKE_WORKER_CRASH_ONCE": str(tmp_path / "crashed-once"),
    }
    crashed = run_static(fake_model, out, env, "--workers", "2")
    assert crashed.returncode == 2 and "Traceback" not in crashed.stderr
    assert len(crashed.stderr.strip().splitlines()) == 1
    assert "SIGKILL" in crashed.stderr and "run the same command to resume" in crashed.stderr
    rows, summary = read_jsonl(out)
    assert summary is None and 2 <= len(rows) < 10 and exactly_once(rows)

    resumed = run_static(fake_model, out, env, "--workers", "2")
    assert resumed.returncode == 0, resumed.stderr
    rows, summary = read_jsonl(out)
    assert len(rows) == 10 and exactly_once(rows) and summary["total"] == 10


def count_rows(path):
    try:
        return path.read_bytes().count(b"\n") - 1  # less the header line
    except FileNotFoundError:
        return 0


def test_the_driver_killed_mid_run_then_resume_gives_every_attempt_once(tmp_path, fake_model):
    out = tmp_path / "run.jsonl"
    args = [
        sys.executable, "-m", "ladderbench", "run", "--model", f"local:{fake_model}",
        "--levels", "1,2", "--limit", "5", "--out", str(out), "--quiet", "--no-cache",
        "--workers", "2",
    ]  # fmt: skip
    env = {**os.environ, **FAKE, "FAKE_WORKER_DELAY": "0.1"}
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 60
    while count_rows(out) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    rows, summary = read_jsonl(out)
    assert summary is None and 3 <= len(rows) < 10

    resumed = run_static(fake_model, out, {}, "--workers", "2")
    assert resumed.returncode == 0, resumed.stderr
    rows, summary = read_jsonl(out)
    assert len(rows) == 10 and exactly_once(rows) and summary["total"] == 10


def test_workers_for_a_model_without_processes_is_one_line(tmp_path):
    proc = ladderbench("run", "--model", "oracle", "--workers", "2", "--out", str(tmp_path / "r"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "--workers 2: model processes are for --model local" in proc.stderr


def test_every_worker_is_kept_busy_whatever_the_concurrency(tmp_path, fake_model):
    from ladderbench.api import prepare_run

    config = RunConfig(out=tmp_path / "r.jsonl", concurrency=1)
    job = prepare_run(
        f"local:{fake_model}", "static", {"limit": 1}, EndpointOptions(), config,
        seed=0, cache=False, workers=3,
    )  # fmt: skip
    try:
        assert job.config.concurrency == 3
    finally:
        asyncio.run(job.adapter.aclose())
