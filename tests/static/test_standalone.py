"""The exported zero-dependency runner agrees with the harness row for row."""

import ast
import hashlib
import json
import subprocess
import sys

import pytest

from cli_helpers import ladderbench, read_jsonl
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


def test_standalone_agrees_with_harness(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    export = tmp_path / "export"
    proc = ladderbench("export", "standalone", str(export))
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in export.iterdir())[-1] == "run_ladderbench.py"
    with FakeOpenAI(reply=varied_reply) as server:
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
        assert proc.returncode == 0, proc.stderr
        alone = subprocess.run(
            [
                sys.executable,
                "-I",
                "-S",
                str(export / "run_ladderbench.py"),
                "--model",
                "fake",
                "--base-url",
                server.base_url,
                "--out-dir",
                str(tmp_path),
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert alone.returncode == 0, alone.stderr
    assert "level      n  correct" in alone.stdout
    rows, summary = read_jsonl(out)
    by_id = {r["id"]: r for r in rows}
    result = json.loads(next(tmp_path.glob("results_fake_*.json")).read_text())
    assert len(result["questions"]) == len(by_id) == 150
    for q in result["questions"]:
        row = by_id[q["id"]]
        assert q["prompt"] == row["prompt"]
        assert q["raw_output"] == row["response"]
        assert q["prediction"] == row["extracted"]
        assert q["correct"] == row["pass"]
    for level, stats in result["levels"].items():
        assert stats["correct"] == summary["byLevel"][level]["passed"]
        assert stats["unparsed"] == summary["byLevel"][level]["unparsed"]
    # the mix exercised right, wrong and unparsed answers alike
    assert 0 < summary["passed"] < 150 and summary["unparsed"] > 0


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
