import json

import pytest

from helpers import make_row
from ladderbench.analysis.digest import digest_runs
from ladderbench.errors import UserError
from ladderbench.items import RunHeader
from ladderbench.runner import results
from ladderbench.runner.results import (
    ResultWriter,
    Scan,
    check_same_job,
    read_results,
    read_summary,
    scan,
)
from ladderbench.suites import parse_summary, summarise_rows


def resume(out, suite="static", adapter="oracle", model="oracle", settings=None):
    """What the runner does with an --out: read, check, then open for appending."""
    writer = ResultWriter(out)
    existing = writer.read()
    header = RunHeader(run="r1", suite=suite, adapter=adapter, model=model, settings=settings or {})
    check_same_job(out, existing, header, {"maxTokens": "--max-tokens"})
    _, done = writer.start(header, existing)
    return writer, done


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
    writer, done = resume(out)
    writer.append(make_row("q3"))
    writer.close()
    assert [r.id for r in done] == ["q1", "q2"]
    header, *lines = out.read_text().splitlines()
    assert json.loads(header)["type"] == "run"
    assert len(lines) == 3 and all(json.loads(line)["id"] for line in lines)


def test_resume_drops_errored_attempts_so_they_are_retried(tmp_path):
    out = tmp_path / "r.jsonl"
    bad = make_row("q2", response=None, extracted=None, score=None, passed=None, error="HTTP 500")
    write_rows(out, [make_row("q1"), bad])
    writer, done = resume(out)
    writer.close()
    assert [r.id for r in done] == ["q1"]
    assert [r.id for r in read_results(out).rows] == ["q1"]


def test_resume_refuses_another_job(tmp_path):
    out = tmp_path / "r.jsonl"
    write_rows(out, [make_row("q1")])
    with pytest.raises(UserError, match="choose another --out"):
        resume(out, suite="puzzles")
    with pytest.raises(UserError, match="not static with openai:gpt"):
        resume(out, adapter="openai", model="gpt")


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
        resume(blocker / "r.jsonl")


def test_read_results_ignores_torn_last_line(tmp_path):
    out = tmp_path / "r.jsonl"
    write_rows(out, [make_row("q1")], torn='{"broken')
    data = read_results(out)
    assert [r.id for r in data.rows] == ["q1"] and data.summary is None


def test_a_response_holding_a_unicode_line_separator_stays_one_row(tmp_path):
    out = tmp_path / "r.jsonl"
    row = make_row("q1", response="A\u2028B\x85C")
    writer, _ = resume(out)
    writer.append(row)
    writer.close()
    assert read_results(out).rows == [row]


def test_a_whole_last_line_missing_only_its_newline_is_kept_and_resume_ends_it(tmp_path):
    out = tmp_path / "r.jsonl"
    write_rows(out, [make_row("q1")], torn=json.dumps(make_row("q2").to_json_dict()))
    assert [r.id for r in read_results(out).rows] == ["q1", "q2"]
    writer, done = resume(out)
    assert [r.id for r in done] == ["q1", "q2"]
    writer.append(make_row("q3"))
    writer.close()
    assert [r.id for r in read_results(out).rows] == ["q1", "q2", "q3"]


def test_a_row_after_the_summary_is_refused(tmp_path):
    out = tmp_path / "r.jsonl"
    write_rows(out, [make_row("q1")], summary={"total": 1})
    with open(out, "a") as fh:
        fh.write(json.dumps(make_row("q2").to_json_dict()) + "\n")
    with pytest.raises(UserError, match=r"r.jsonl:3: a row after the summary row \(line 2\)"):
        read_results(out)


@pytest.mark.parametrize(
    "summary, torn, expected",
    [
        ({"total": 1}, "", {"type": "summary", "total": 1}),
        ({"total": 1, "big": "x" * 200_000}, "", "big"),
        (None, "", None),
        (None, '{"run": "r1", "ad', None),
    ],
)
def test_read_summary_reads_the_tail(tmp_path, summary, torn, expected):
    out = tmp_path / "r.jsonl"
    write_rows(out, [make_row(f"q{i}") for i in range(50)], summary=summary, torn=torn)
    found = read_summary(out)
    found = found.to_json_dict() if found is not None else None
    assert found == expected if expected != "big" else len(found["big"]) == 200_000
    (tmp_path / "empty.jsonl").write_text("")
    assert read_summary(tmp_path / "empty.jsonl") is None


def test_scan_summarises_a_run_cut_short_from_the_same_rows(tmp_path):
    out = tmp_path / "r.jsonl"
    rows = [make_row(f"q{i}", sample=s, passed=s == 0) for i in range(5) for s in range(3)]
    write_rows(out, rows, torn='{"run": "r1", "ad')
    seen = []
    run = scan(out, seen.append)
    assert not run.finished and seen == rows
    assert run.summary == summarise_rows(rows, "static", 3)  # pass@3 needs all three samples
    assert run.summary.to_json_dict()["samples"] == 3 and "pass@3" in run.summary.to_json_dict()
    write_rows(out, rows, summary={"total": 15})
    assert scan(out) == Scan(parse_summary({"type": "summary", "total": 15}), True)
    assert scan(tmp_path / "r.jsonl", summarise=False, visit=seen.append).finished


def test_scan_of_no_rows_is_one_line(tmp_path):
    (tmp_path / "empty.jsonl").write_text("")
    with pytest.raises(UserError, match=r"empty\.jsonl: no result rows"):
        scan(tmp_path / "empty.jsonl")


@pytest.mark.parametrize("finished", [True, False])
def test_the_report_reads_each_file_once(tmp_path, monkeypatch, finished):
    """One pass per file: the lines read are the file's, plus the first one peeked for its suite."""
    lines_read = []
    real_open = results._open

    class Counting:
        def __init__(self, path):
            self.handle = real_open(path)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def __iter__(self):
            for line in self.handle:
                lines_read.append(line)
                yield line

        def __getattr__(self, name):
            return getattr(self.handle, name)

    monkeypatch.setattr(results, "_open", Counting)
    paths = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.jsonl"
        write_rows(
            path, [make_row(f"q{i}") for i in range(40)], {"total": 40} if finished else None
        )
        paths.append(path)
    digests = digest_runs(paths)
    assert all(d.rows == 40 and d.finished == finished for d in digests)
    assert len(lines_read) == 2 * ((41 if finished else 40) + 1)


def test_a_malformed_summary_row_is_named_by_its_line(tmp_path):
    out = tmp_path / "r.jsonl"
    write_rows(out, [make_row(f"q{i}") for i in range(3)], summary={"total": "many"})
    assert read_summary(out) is None  # the tail read leaves it to the full pass
    with pytest.raises(UserError, match=r"r.jsonl:4: field 'total'"):
        scan(out)
