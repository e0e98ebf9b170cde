"""Integration: the embedded model in its worker process, and a real llama.cpp server (openai:)."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from cli_helpers import ladderbench, read_jsonl
from ladderbench.models.local import default_model_path

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory):
    """``python -m llama_cpp.server`` on 127.0.0.1 serving SmolLM2; stopped after the module."""
    port = free_port()
    log_path = tmp_path_factory.mktemp("llama") / "server.log"
    log = open(log_path, "w")  # noqa: SIM115 (closed below; a pipe would fill up and stall it)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(default_model_path()),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "2048",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 120
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited: {log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{base}/models", timeout=2) as resp:
                    json.loads(resp.read())
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("llama_cpp.server did not come up in 120 s")
                time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))


def test_openai_adapter_against_real_llama_server(tmp_path, llama_server):
    out = tmp_path / "server.jsonl"
    proc = ladderbench(
        "run",
        "--model",
        "openai:smollm2",
        "--base-url",
        llama_server,
        "--levels",
        "1,5",
        "--limit",
        "3",
        "--max-tokens",
        "48",
        "--out",
        str(out),
        "--concurrency",
        "2",
    )
    assert proc.returncode == 0, proc.stderr
    rows, summary = read_jsonl(out)
    assert len(rows) == 6 and summary["errors"] == 0
    for row in rows:
        assert row["error"] is None and row["response"]  # a real model answered
        assert row["usage"]["completion_tokens"] >= 1
        assert row["pass"] == (row["extracted"] == row["expected"])
    assert "per level" in proc.stdout

    # Resume and cache: the same command again asks the server nothing new.
    again = ladderbench(
        "run",
        "--model",
        "openai:smollm2",
        "--base-url",
        llama_server,
        "--levels",
        "1,5",
        "--limit",
        "3",
        "--max-tokens",
        "48",
        "--out",
        str(tmp_path / "again.jsonl"),
        "--json",
    )
    assert json.loads(again.stdout)["passed"] == summary["passed"]


def test_embedded_model_in_its_worker(tmp_path):
    out = tmp_path / "local.jsonl"
    proc = ladderbench(
        "run",
        "--model",
        "local",
        "--levels",
        "1",
        "--limit",
        "2",
        "--max-tokens",
        "32",
        "--out",
        str(out),
        "--no-cache",
    )
    assert proc.returncode == 0, proc.stderr
    rows, summary = read_jsonl(out)
    assert len(rows) == 2 and summary["model"] == "SmolLM2-135M-Instruct"
    assert all(r["error"] is None and r["response"] for r in rows)
    # temperature 0 is deterministic: the same prompt, the same answer
    backend = summary["settings"]["backend"]
    assert backend["llamaCppPython"] and "AVX2 = 1" in backend["systemInfo"]
    assert len(backend["modelSha256"]) == 64
    proc = ladderbench(
        "run",
        "--model",
        "local",
        "--levels",
        "1",
        "--limit",
        "2",
        "--max-tokens",
        "32",
        "--out",
        str(tmp_path / "again.jsonl"),
        "--no-cache",
    )
    again, _ = read_jsonl(tmp_path / "again.jsonl")
    assert {r["id"]: r["response"] for r in rows} == {r["id"]: r["response"] for r in again}


def test_not_a_gguf_file_is_one_line(tmp_path):
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"not a model")
    proc = ladderbench(
        "run",
        "--model",
        f"local:{fake}",
        "--limit",
        "1",
        "--no-cache",
        "--out",
        str(tmp_path / "x.jsonl"),
    )
    assert proc.returncode == 2 and "not a loadable GGUF model" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_probe_a_judge_on_the_embedded_model(tmp_path):
    """The default judge prompt on SmolLM2: its verdicts are poor, but the ledger is well formed."""
    import json as _json

    from ladderbench.probe.rungs import Rung

    case = {"question": "What is 12 + 30?", "reference": "42"}
    answers = ["I don't know.", "The sum is 32.", "12 + 30 = 42, so the answer is 42."]
    path = tmp_path / "rungs.jsonl"
    path.write_text(
        "".join(
            _json.dumps(Rung(case_id="sum", level=i, answer=a, evidence="42", **case).model_dump())
            + "\n"
            for i, a in enumerate(answers)
        )
    )
    out = tmp_path / "ledger.json"
    proc = ladderbench(
        "probe",
        "--ladders",
        str(path),
        "--judge-model",
        "local",
        "--repeats",
        "2",
        "--max-tokens",
        "48",
        "--out",
        str(out),
        "--quiet",
    )
    assert proc.returncode in (0, 1), proc.stderr  # pass or hold, never a crash
    saved = _json.loads(out.read_text())
    rows = saved["ledger"]["rows"]
    assert len(rows) == 3 and {r["level"] for r in rows} == {0, 1, 2}
    for row in rows:
        assert row["error"] or len(row["scores"]) == 2
    assert saved["audit"]["cases"] == 1 and "passed" in saved["gate"]
    assert "grader probe · judge local" in proc.stdout


def test_judge_study_on_the_embedded_model(tmp_path):
    """The embedded model as a judge of live answers: figures are poor, the study is well formed."""
    import json as _json

    from helpers import make_row

    rows = [
        make_row(
            f"q{i}",
            suite="live",
            level=None,
            category="math",
            task="competition",
            prompt=f"What is {i} + {i}?",
            expected=str(2 * i),
            response=str(2 * i if i % 2 else 2 * i + 1),
            score=float(i % 2),
            passed=bool(i % 2),
        )
        for i in range(4)
    ]
    results = tmp_path / "live.jsonl"
    results.write_text("".join(_json.dumps(r.to_json_dict()) + "\n" for r in rows))
    proc = ladderbench(
        "live",
        "judge-study",
        str(results),
        "--judge-model",
        "local",
        "--max-tokens",
        "40",
        "--out",
        str(tmp_path / "calls.jsonl"),
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    study = _json.loads(proc.stdout)["competition"]
    assert study["n"] == 4
    assert study["agree"] + study["falseAccept"] + study["falseReject"] + study["noVerdict"] == 4


def _worker_of(pid: int, deadline: float) -> int:
    """The pid of the model worker that process ``pid`` started."""
    while time.monotonic() < deadline:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        if children:
            return int(children[0])
        time.sleep(0.1)
    pytest.fail("the run started no worker process")


def test_a_real_native_crash_of_the_worker_keeps_the_rows(tmp_path):
    """SIGSEGV sent to the real llama.cpp worker mid-run: one line, rows kept, resume completes."""
    out = tmp_path / "crash.jsonl"
    args = ["run", "--model", "local", "--levels", "1", "--limit", "6", "--max-tokens", "16",
            "--out", str(out), "--no-cache", "--quiet"]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "ladderbench", *args], stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 120
    worker = _worker_of(proc.pid, deadline)
    while not (out.exists() and len(out.read_text().splitlines()) >= 3):  # header, 2 rows
        assert proc.poll() is None and time.monotonic() < deadline, "the run made no progress"
        time.sleep(0.05)
    os.kill(worker, signal.SIGSEGV)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "Traceback" not in stderr
    assert "worker died with SIGSEGV" in stderr and "run the same command to resume" in stderr
    kept, _ = read_jsonl(out)
    assert 2 <= len(kept) < 6

    resumed = ladderbench(*args)
    assert resumed.returncode == 0, resumed.stderr
    rows, summary = read_jsonl(out)
    assert sorted(r["id"] for r in rows) == sorted({r["id"] for r in rows}) and len(rows) == 6
    assert summary["total"] == 6
    assert [r["response"] for r in rows[: len(kept)]] == [r["response"] for r in kept]
