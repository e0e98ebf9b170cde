import json

import pytest

from helpers import make_row
from ladderbench.errors import UserError
from ladderbench.runner.results import ResultWriter, read_results


def write_rows(path, rows, summary=None, torn=""):
    lines = [json.dumps(r.to_json_dict()) for r in rows]
    if summary is not None:
        lines.append(json.dumps({"type": "summary", **summary}))
    path.write_text("".join(line + "\n" for line in lines) + torn)


def test_row_uses_design_field_names(tmp_path):
    obj = make_row().to_json_dict()
    assert obj["pass"] is True and obj["latencyMs"] == 1.0
    assert "passed" not in obj and "latency_ms" not in obj


def test_resume_cuts_torn_line_and_old_summary(tmp_path):
    out = tmp_path / "r.jsonl"
    write_rows(
        out, [make_row("q1"), make_row("q2")], summary={"total": 2}, torn='{"run": "r1", "ad'
    )
    writer = ResultWriter(out)
    done = writer.open("static", "oracle", "oracle")
    writer.append(make_row("q3"))
    writer.close()
    assert [r.id for r in done] == ["q1", "q2"]
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["id"] for line in lines)


def test_resume_drops_errored_attempts_so_they_are_retried(tmp_path):
    out = tmp_path / "r.jsonl"
    bad = make_row("q2", response=None, extracted=None, score=None, passed=None, error="HTTP 500")
    write_rows(out, [make_row("q1"), bad])
    writer = ResultWriter(out)
    done = writer.open("static", "oracle", "oracle")
    writer.close()
    assert [r.id for r in done] == ["q1"]
    assert len(out.read_text().splitlines()) == 1


def test_resume_refuses_another_job(tmp_path):
    out = tmp_path / "r.jsonl"
    write_rows(out, [make_row("q1")])
    with pytest.raises(UserError, match="choose another --out"):
        ResultWriter(out).open("puzzles", "oracle", "oracle")
    with pytest.raises(UserError, match="not static with openai:gpt"):
        ResultWriter(out).open("static", "openai", "gpt")


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json\n", r"r.jsonl:1: not valid JSON"),
        ("[1, 2]\n", r"r.jsonl:1: expected a JSON object"),
        ('{"run": "r"}\n', r"r.jsonl:1: field 'adapter'"),
    ],
)
def test_malformed_results_name_file_line_and_field(tmp_path, content, message):
    out = tmp_path / "r.jsonl"
    out.write_text(content)
    with pytest.raises(UserError, match=message):
        read_results(out)


def test_duplicate_attempt_is_refused(tmp_path):
    out = tmp_path / "r.jsonl"
    write_rows(out, [make_row("q1"), make_row("q1")])
    with pytest.raises(UserError, match=r":2: attempt 'q1' sample 0 already at line 1"):
        read_results(out)


def test_unwritable_out_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(UserError, match="cannot write --out"):
        ResultWriter(blocker / "r.jsonl").open("static", "oracle", "oracle")


def test_read_results_ignores_torn_last_line(tmp_path):
    out = tmp_path / "r.jsonl"
    write_rows(out, [make_row("q1")], torn='{"broken')
    data = read_results(out)
    assert [r.id for r in data.rows] == ["q1"] and data.summary is None
