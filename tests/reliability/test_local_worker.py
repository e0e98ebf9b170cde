"""The embedded model's worker process: a native crash stops the run in one line, never its rows.

A stand-in worker (``ladderbench.testing.fake_llama_worker``) speaks the real protocol and kills
itself with a signal mid-run, as llama.cpp does when its build does not suit the CPU.
"""

from __future__ import annotations

import json
import signal
from collections import Counter

import pytest

from cli_helpers import ladderbench, read_jsonl
from ladderbench.models.local import describe_exit

FAKE = {"LADDERBENCH_LOCAL_WORKER": "ladderbench.testing.fake_llama_worker"}


@pytest.fixture
def fake_model(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    path = tmp_path / "fake.gguf"
    path.write_bytes(b"GGUF stand-in")
    return path


def run_static(model, out, env, *extra):
    return ladderbench(
        "run", "--model", f"local:{model}", "--levels", "1,2", "--limit", "5",
        "--out", str(out), "--quiet", *extra, env=env,
    )  # fmt: skip


def test_native_crash_mid_run_is_one_line_and_resume_completes(tmp_path, fake_model):
    out = tmp_path / "run.jsonl"
    env = {
        **FAKE,
        "FAKE_WORKER_CRASH_AFTER": "3",
        "FAKE_WORKER_CRASH_ONCE": str(tmp_path / "crashed-once"),
    }
    crashed = run_static(fake_model, out, env)
    assert crashed.returncode == 2
    lines = crashed.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in crashed.stderr
    assert "worker died with SIGSEGV (a native crash in llama.cpp) after 3 answers" in lines[0]
    assert "3 of 10 attempts are kept" in lines[0] and "run the same command to resume" in lines[0]
    rows, summary = read_jsonl(out)
    assert len(rows) == 3 and summary is None
    assert all(r["error"] is None and r["response"] == "The answer is A." for r in rows)

    resumed = run_static(fake_model, out, env)
    assert resumed.returncode == 0, resumed.stderr
    rows, summary = read_jsonl(out)
    counts = Counter((r["id"], r["sample"]) for r in rows)
    assert len(counts) == 10 and set(counts.values()) == {1}  # every attempt exactly once
    assert summary is not None and summary["total"] == 10
    assert summary["settings"]["backend"]["llamaCppPython"] == "fake"


def test_out_of_memory_kill_names_the_likely_cause(tmp_path, fake_model):
    env = {**FAKE, "FAKE_WORKER_CRASH_AFTER": "0", "FAKE_WORKER_SIGNAL": "SIGKILL"}
    proc = run_static(fake_model, tmp_path / "oom.jsonl", env)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "SIGKILL (killed, often for lack of memory) after 0 answers" in proc.stderr


def test_judge_paths_stop_in_one_line_too(tmp_path, fake_model):
    env = {**FAKE, "FAKE_WORKER_CRASH_AFTER": "1"}
    rungs = tmp_path / "rungs.jsonl"
    rungs.write_text(
        "".join(
            json.dumps(
                {"case_id": "c", "level": i, "answer": a, "evidence": "42", "reference": "42"}
            )
            + "\n"
            for i, a in enumerate(["no idea", "41", "42"])
        )
    )
    proc = ladderbench(
        "probe", "--ladders", str(rungs), "--judge-model", f"local:{fake_model}",
        "--out", str(tmp_path / "ledger.json"), "--quiet", env=env,
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "worker died with SIGSEGV" in proc.stderr and "1 of 9 attempts are kept" in proc.stderr


def test_smoke_check_failure_is_one_line(fake_model):
    env = {**FAKE, "FAKE_WORKER_CRASH_AFTER": "0"}
    proc = ladderbench("doctor", "--model", f"local:{fake_model}", env=env)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "error: set-up check failed: the local model's worker died with SIGSEGV (a native crash "
        "in llama.cpp) after 0 answers; if it recurs, the llama-cpp-python build does not suit "
        "this CPU: rebuild it portably (rm -rf .venv && make setup, or "
        "scripts/install-llama.sh .venv/bin/python)"
    ]


def test_smoke_check_success_reports_the_backend(fake_model):
    proc = ladderbench("doctor", "--model", f"local:{fake_model}", env=FAKE)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok: fake answered 'The answer is A.'")
    assert "llama-cpp-python fake" in proc.stdout


def test_doctor_refuses_other_models():
    proc = ladderbench("doctor", "--model", "oracle")
    assert proc.returncode == 2 and "only local" in proc.stderr


@pytest.mark.parametrize(
    ("code", "text"),
    [
        (-signal.SIGSEGV, "SIGSEGV (a native crash in llama.cpp)"),
        (-signal.SIGILL, "SIGILL (an instruction this CPU lacks)"),
        (-signal.SIGTERM, "SIGTERM"),
        (3, "exit status 3"),
    ],
)
def test_describe_exit(code, text):
    assert describe_exit(code) == text
