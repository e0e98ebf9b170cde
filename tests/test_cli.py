"""The command line end to end: the baselines bound the ladder, bad input is one line and exit 2."""

import json

import pytest

from cli_helpers import ladderbench, read_jsonl


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))


def test_oracle_scores_every_question(tmp_path):
    out = tmp_path / "oracle.jsonl"
    proc = ladderbench("run", "--model", "oracle", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    rows, summary = read_jsonl(out)
    assert len(rows) == 150 and summary["passed"] == 150 and summary["rate"] == 1.0
    assert {k: v["n"] for k, v in summary["byLevel"].items()} == {str(i): 30 for i in range(1, 6)}
    assert "per level" in proc.stdout and "guessing baseline: 25.0%" in proc.stdout
    assert set(rows[0]) >= {
        "run",
        "adapter",
        "model",
        "suite",
        "id",
        "category",
        "level",
        "seed",
        "sample",
        "prompt",
        "expected",
        "response",
        "extracted",
        "score",
        "pass",
        "latencyMs",
        "usage",
        "error",
    }


def test_echo_and_random_sit_near_the_floor(tmp_path):
    for model in ("echo", "random"):
        out = tmp_path / f"{model}.jsonl"
        proc = ladderbench("run", "--model", model, "--out", str(out), "--quiet")
        assert proc.returncode == 0, proc.stderr
        _, summary = read_jsonl(out)
        assert summary["rate"] <= 0.4, (model, summary["rate"])
    _, echo = read_jsonl(tmp_path / "echo.jsonl")
    assert echo["unparsed"] == 150  # a reply listing every option is no answer


def test_quick_pass_selection_and_json(tmp_path):
    out = tmp_path / "q.jsonl"
    proc = ladderbench(
        "run", "--model", "oracle", "--levels", "4,5", "--limit", "5", "--out", str(out), "--json"
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["total"] == 10 and sorted(summary["byLevel"]) == ["4", "5"]


def test_report_prints_the_table_again(tmp_path):
    out = tmp_path / "o.jsonl"
    ladderbench("run", "--model", "oracle", "--limit", "2", "--out", str(out), "--quiet")
    proc = ladderbench("report", str(out))
    assert proc.returncode == 0 and "per level" in proc.stdout and "100.0%" in proc.stdout


def test_samples_report_pass_at_k(tmp_path):
    out = tmp_path / "s.jsonl"
    proc = ladderbench(
        "run", "--model", "random", "--samples", "3", "--limit", "4", "--out", str(out), "--json"
    )
    summary = json.loads(proc.stdout)
    assert summary["total"] == 60 and "pass@3" in summary and summary["samples"] == 3


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "--model", "gpt4"], "unknown model spec 'gpt4'"),
        (
            ["run", "--model", "oracle", "--suite", "nope"],
            "unknown suite 'nope'; known: live, puzzles, static",
        ),
        (["run", "--model", "oracle", "--levels", "x"], "--levels 'x': expected numbers"),
        (["run", "--model", "oracle", "--levels", "7"], "--levels: no level 7"),
        (["run", "--model", "openai:m"], "no endpoint; pass --base-url"),
        (["run", "--model", "openai:m", "--base-url", "ftp://x"], "not an http"),
        (["run", "--model", "local:/nonexistent/model.gguf"], "no such GGUF file"),
        (
            ["run", "--model", "oracle", "--data", "/nonexistent"],
            "--data /nonexistent: no such folder",
        ),
        (["report", "/nonexistent.jsonl"], "nonexistent.jsonl: cannot read"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    proc = ladderbench(*args, env={"OPENAI_BASE_URL": "", "OPENAI_API_KEY": ""})
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_unwritable_out(tmp_path):
    (tmp_path / "f").write_text("")
    proc = ladderbench("run", "--model", "oracle", "--out", str(tmp_path / "f" / "r.jsonl"))
    assert proc.returncode == 2 and "cannot write --out" in proc.stderr


def test_resume_refuses_results_of_another_run(tmp_path):
    out = tmp_path / "r.jsonl"
    ladderbench("run", "--model", "oracle", "--limit", "1", "--out", str(out), "--quiet")
    proc = ladderbench("run", "--model", "echo", "--limit", "1", "--out", str(out))
    assert proc.returncode == 2 and "choose another --out" in proc.stderr
    proc = ladderbench("run", "--model", "oracle", "--limit", "2", "--out", str(out))
    assert proc.returncode == 0  # a wider selection extends the same job
    proc = ladderbench("run", "--model", "oracle", "--limit", "1", "--out", str(out))
    assert proc.returncode == 2 and "outside this selection" in proc.stderr


def test_bad_user_data_file_names_file_and_line(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "level1_mine.jsonl").write_text('{"id": "a", "level": 1}\n')
    proc = ladderbench("run", "--model", "oracle", "--data", str(data))
    assert proc.returncode == 2
    assert "level1_mine.jsonl:1: field 'category': Field required" in proc.stderr


def test_compare_and_calibrate_commands(tmp_path):
    paths = {}
    for model in ("oracle", "random", "echo"):
        paths[model] = tmp_path / f"{model}.jsonl"
        ladderbench("run", "--model", model, "--out", str(paths[model]), "--quiet")
    proc = ladderbench("compare", str(paths["oracle"]), str(paths["random"]), "--json")
    assert proc.returncode == 0, proc.stderr
    (test,) = json.loads(proc.stdout)["pairedTests"]
    assert json.loads(proc.stdout)["breakingPoints"] == []
    assert test["method"] == "McNemar exact" and test["differ"] and test["shared"] == 150
    proc = ladderbench("compare", str(paths["oracle"]))
    assert proc.returncode == 2 and "two or more" in proc.stderr

    puzzles = tmp_path / "pz.jsonl"
    ladderbench(
        "run",
        "--suite",
        "puzzles",
        "--model",
        "random",
        "--seeds",
        "1-2",
        "--out",
        str(puzzles),
        "--quiet",
    )
    classes = tmp_path / "classes.toml"
    classes.write_text('[models]\nrandom = "baseline"\n')
    out = tmp_path / "calibration.json"
    proc = ladderbench(
        "calibrate",
        str(puzzles),
        str(paths["random"]),
        "--classes",
        str(classes),
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    verdicts = json.loads(out.read_text())["tiers"]
    assert [v["verdict"] for v in verdicts] == ["unverified"] * 7  # no tiny model run yet
    assert "tier calibration" in proc.stdout
    classes.write_text('[models]\nrandom = "huge"\n')
    proc = ladderbench("calibrate", str(puzzles), "--classes", str(classes))
    assert proc.returncode == 2 and "classes are baseline" in proc.stderr


def test_unreachable_endpoint_is_one_line_and_writes_no_rows(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    out = tmp_path / "r.jsonl"
    proc = ladderbench(
        "run",
        "--model",
        "openai:m",
        "--base-url",
        f"http://127.0.0.1:{port}/v1",
        "--out",
        str(out),
        "--concurrency",
        "8",
        "--quiet",
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "cannot connect" in proc.stderr
    assert not out.exists() or out.read_text() == ""
