"""The exported zero-dependency runner agrees with the harness row for row."""

import argparse
import ast
import hashlib
import json
import os
import subprocess
import sys

import pytest

from cli_helpers import ladderbench, read_jsonl
from ladderbench.static import standalone_main
from ladderbench.static.standalone import build_script
from ladderbench.static.suite import StaticSuite
from ladderbench.testing.fake_openai import FakeOpenAI

ITEMS = {item.prompt: item for item in StaticSuite().items()}


def varied_reply(prompt: str) -> str:
    """Replies in the many shapes real models use, picked by a hash of the prompt."""
    item = ITEMS[prompt]
    gold = item.expected
    other = "ABCD"[("ABCD".index(gold) + 1) % 4]
    shapes = [
        gold,
        f"({gold})",
        f"The answer is **{other}**.",
        f"<think>Maybe {other}.</think>\nAnswer: {gold}",
        item.choices["ABCD".index(gold)],
        f"{gold} or {other}",
        "I don't know.",
        f"A is wrong... actually the answer is \\boxed{{{other}}}",
    ]
    return shapes[hashlib.sha256(prompt.encode()).digest()[0] % len(shapes)]


FIRST = next(iter(ITEMS))


def rejected(prompt: str, asked_before: int) -> str | None:
    """A few questions (never the first, which checks the endpoint) are refused: error rows."""
    return "404" if prompt != FIRST and hashlib.sha256(prompt.encode()).digest()[1] < 26 else None


def test_script_is_python38_stdlib_only():
    source = build_script()
    tree = ast.parse(source, feature_version=(3, 8))
    imported = {
        (node.module if isinstance(node, ast.ImportFrom) else alias.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert "ladderbench" not in imported
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


def run_standalone(script, *args, env=None):
    """The exported script in a bare interpreter (no site-packages: the standard library only)."""
    return subprocess.run(
        [sys.executable, "-I", "-S", str(script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in {**os.environ, **(env or {})}.items() if v is not None},
    )


def test_standalone_agrees_with_harness(tmp_path, monkeypatch):
    """Same replies, same rows and the same summary; report and compare read its file as a run."""
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    export = tmp_path / "export"
    proc = ladderbench("export", "standalone", str(export))
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in export.iterdir())[-1] == "run_ladderbench.py"
    with FakeOpenAI(reply=varied_reply, fault=rejected) as server:
        out = tmp_path / "harness.jsonl"
        proc = ladderbench(
            "run",
            "--model",
            "openai:fake",
            "--base-url",
            server.base_url,
            "--out",
            str(out),
            "--quiet",
        )
        assert proc.returncode == 3, proc.stderr  # some attempts ended in errors
        alone = run_standalone(
            export / "run_ladderbench.py",
            "--model",
            "fake",
            "--base-url",
            server.base_url,
            "--out-dir",
            str(tmp_path),
        )
    assert alone.returncode == 3, alone.stderr
    assert "level      n  correct" in alone.stdout
    rows, summary = read_jsonl(out)
    (alone_file,) = tmp_path.glob("results_fake_*.jsonl")
    alone_rows, alone_summary = read_jsonl(alone_file)
    by_id = {r["id"]: r for r in rows}
    assert len(alone_rows) == len(by_id) == 150
    varying = ("run", "latencyMs")
    for row in alone_rows:
        harness_row = by_id[row["id"]]
        assert row.keys() == harness_row.keys()  # every ResultRow field, and nothing else
        assert {k: v for k, v in row.items() if k not in varying} == {
            k: v for k, v in harness_row.items() if k not in varying
        }
    assert summary is not None and alone_summary is not None
    own = ("run", "settings", "elapsedS")
    computed = {k: v for k, v in alone_summary.items() if k not in own}
    assert computed == {k: summary[k] for k in computed}
    assert set(computed) >= {"byLevel", "byCategory", "rate", "ci95", "flags", "notes"}
    settings = {k: v for k, v in alone_summary["settings"].items() if k not in ("data", "runner")}
    assert settings == {k: summary["settings"][k] for k in settings}
    # the mix exercised right, wrong, unparsed and errored answers alike
    assert 0 < summary["passed"] < 150 and summary["unparsed"] > 0 and summary["errors"] > 0

    report = ladderbench("report", str(alone_file), "--json")
    assert report.returncode == 0 and "did not finish" not in report.stderr, report.stderr
    assert json.loads(report.stdout)["byLevel"] == summary["byLevel"]
    compared = ladderbench("compare", str(out), str(alone_file), "--json")
    assert compared.returncode == 0, compared.stderr
    (test,) = json.loads(compared.stdout)["pairedTests"]
    assert test["shared"] == 150 - summary["errors"] and test["difference"] == 0
    assert not test["differ"]


@pytest.mark.parametrize(
    "env, expected",
    [
        ({}, ("http://127.0.0.1:11434/v1", "ollama", None)),
        ({"OPENAI_API_KEY": "sk-x"}, ("http://127.0.0.1:11434/v1", "ollama", None)),
        ({"OLLAMA_HOST": "gpu-box:11500"}, ("http://gpu-box:11500/v1", "ollama", None)),
        (
            {"OLLAMA_HOST": "gpu-box", "OPENAI_BASE_URL": "http://h:1/v1", "OPENAI_API_KEY": "k"},
            ("http://h:1/v1", "openai", "k"),
        ),
    ],
)
def test_standalone_default_endpoint_is_ollamas(monkeypatch, env, expected):
    """Chosen without connecting: OPENAI_BASE_URL, else OLLAMA_HOST, else Ollama's default."""
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "OLLAMA_HOST"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    args = argparse.Namespace(base_url=None, api_key=None)
    assert standalone_main.endpoint(args) == expected


def test_standalone_runs_on_ollama_with_no_endpoint_given(tmp_path):
    ladderbench("export", "standalone", str(tmp_path))
    script = tmp_path / "run_ladderbench.py"
    model = "qwen2.5:3b-instruct-q4_K_M"
    env = {"OPENAI_BASE_URL": None, "OPENAI_API_KEY": "sk-not-for-ollama"}
    with FakeOpenAI(reply=lambda p: "A") as server:
        env["OLLAMA_HOST"] = f"127.0.0.1:{server.port}"
        proc = run_standalone(
            script, "--model", model, "--limit", "1", "--out-dir", str(tmp_path), env=env
        )
    assert proc.returncode == 0, proc.stderr
    assert {r["model"] for r in server.requests} == {model}
    assert all("Authorization" not in h for h in server.headers)
    (out,) = tmp_path.glob("results_qwen2.5_3b-instruct-q4_K_M_*.jsonl")
    rows, summary = read_jsonl(out)
    assert {(r["adapter"], r["model"]) for r in rows} == {("ollama", model)}
    assert summary["settings"]["endpoint"] == f"http://127.0.0.1:{server.port}/v1"
    report = ladderbench("report", str(out))
    assert report.returncode == 0 and f"ollama:{model}" in report.stdout, report.stderr


def test_standalone_without_ollama_says_to_start_it(tmp_path):
    ladderbench("export", "standalone", str(tmp_path))
    with FakeOpenAI() as server:
        host = f"127.0.0.1:{server.port}"  # free again once the server stops
    env = {"OPENAI_BASE_URL": None, "OLLAMA_HOST": host}
    proc = run_standalone(
        tmp_path / "run_ladderbench.py", "--model", "m", "--out-dir", str(tmp_path), env=env
    )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert f"http://{host}/v1/chat/completions: cannot connect" in proc.stderr
    assert "ollama serve" in proc.stderr and "ollama pull m" in proc.stderr
    assert not list(tmp_path.glob("results_*"))


@pytest.mark.parametrize("bad, message", [("{oops", "level1_easy.jsonl:1: not valid JSON")])
def test_standalone_rejects_a_bad_level_file(tmp_path, bad, message):
    ladderbench("export", "standalone", str(tmp_path))
    (tmp_path / "level1_easy.jsonl").write_text(bad + "\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-I",
            "-S",
            str(tmp_path / "run_ladderbench.py"),
            "--model",
            "m",
            "--base-url",
            "http://127.0.0.1:9/v1",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


def test_standalone_survives_a_hostile_endpoint(tmp_path):
    """A body that never ends, JSON nested past any parser, and an answer quoting the API key:
    error rows and a scrubbed answer, the run ends with its summary (it used to hang, crash or
    store the key)."""
    export = tmp_path / "export"
    assert ladderbench("export", "standalone", str(export)).returncode == 0
    key = "sk-standalone-canary-123456"
    faults = {"9 + 6": "endless", "closest to the Sun": "nested"}

    def fault(prompt: str, seen: int) -> str | None:
        return next((kind for text, kind in faults.items() if text in prompt), None)

    with FakeOpenAI(reply=lambda prompt: f"A (my key is {key})", fault=fault) as server:
        proc = run_standalone(
            export / "run_ladderbench.py", "--model", "m", "--base-url", server.base_url,
            "--api-key", key, "--levels", "1", "--retries", "0", "--out-dir", str(tmp_path),
        )  # fmt: skip
    assert proc.returncode == 3, proc.stderr
    (out,) = tmp_path.glob("results_m_*.jsonl")
    rows, summary = read_jsonl(out)
    errors = {r["id"]: r["error"] for r in rows if r["error"]}
    assert len(errors) == 2 and summary["errors"] == 2
    assert any("response over" in e for e in errors.values())
    assert any("not an OpenAI chat completion" in e for e in errors.values())
    assert key not in out.read_text() and "***" in out.read_text()
