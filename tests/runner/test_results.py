import errno
import json
import os

import pytest

from helpers import make_row
from ladderbench.analysis.digest import digest_runs
from ladderbench.errors import UserError
from ladderbench.items import RunHeader
from ladderbench.runner import results
from ladderbench.runner.results import (
    Results,
    ResultWriter,
    Scan,
    check_same_job,
    iter_results,
    read_results,
    read_summary,
    scan,
    summarise_run,
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
        ('{"type": "run", "run": "r"}\n', r"r.jsonl:1: field 'suite'"),
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
    with pytest.raises(
        UserError,
        match=r"r.jsonl:3: a row after the summary row \(line 2\); not a LadderBench file$",
    ):
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
    seen.clear()
    own = scan(out, summarise=False, visit=seen.append)
    assert own == Scan(parse_summary({"type": "summary", "total": 15}), True) and seen == rows


def test_scan_of_no_rows_is_one_line(tmp_path):
    (tmp_path / "empty.jsonl").write_text("")
    with pytest.raises(UserError, match=r"empty\.jsonl: no result rows"):
        scan(tmp_path / "empty.jsonl")


def counting_open(lines_read: list | None = None, sizes_read: list | None = None):
    """results._open, recording the lines iterated and the sizes of the reads made."""
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
                if lines_read is not None:
                    lines_read.append(line)
                yield line

        def read(self, size=-1):
            data = self.handle.read(size)
            if sizes_read is not None:
                sizes_read.append(len(data))
            return data

        def __getattr__(self, name):
            return getattr(self.handle, name)

    return Counting


@pytest.mark.parametrize("finished", [True, False])
def test_the_report_reads_each_file_once(tmp_path, monkeypatch, finished):
    """One pass per file: the lines read are the file's, plus the first one peeked for its suite."""
    lines_read: list[bytes] = []
    monkeypatch.setattr(results, "_open", counting_open(lines_read=lines_read))
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


def header(run="r1", **settings):
    return RunHeader(run=run, suite="static", adapter="oracle", model="oracle", settings=settings)


def write_run(path, rows, summary=None, head=None, torn=""):
    """A results file as the runner writes it: its header first, then ``write_rows``'s lines."""
    write_rows(path, rows, summary, torn)
    first = json.dumps((head or header()).model_dump()) + "\n"
    path.write_text(first + path.read_text())


def test_an_unreadable_results_file_is_one_line(tmp_path):
    missing = tmp_path / "missing.jsonl"
    with pytest.raises(UserError) as err:
        read_results(missing)
    assert str(err.value) == f"{missing}: cannot read (No such file or directory)"


def test_read_results_keeps_the_header_the_rows_and_the_summary(tmp_path):
    out = tmp_path / "r.jsonl"
    summary = parse_summary({"type": "summary", "total": 2})
    writer, _ = resume(out)
    writer.append(make_row("q1"))
    writer.append(make_row("q2"))
    writer.write_summary(summary)
    writer.close()
    assert read_results(out) == Results([make_row("q1"), make_row("q2")], summary, header())


def test_blank_lines_are_skipped_not_the_end(tmp_path):
    out = tmp_path / "r.jsonl"
    write_run(out, [make_row("q1")])
    with open(out, "a") as fh:
        fh.write("\n   \n" + json.dumps(make_row("q2").to_json_dict()) + "\n")
    assert [r.id for r in read_results(out).rows] == ["q1", "q2"]


def test_a_run_header_after_the_first_line_is_a_concatenation(tmp_path):
    out = tmp_path / "r.jsonl"
    write_rows(out, [make_row("q1")])
    with open(out, "a") as fh:
        fh.write(json.dumps(header().model_dump()) + "\n")
    with pytest.raises(UserError) as err:
        read_results(out)
    assert str(err.value) == (
        f"{out}:2: a run header after the first line; the file was concatenated from several runs"
    )


def test_a_resume_with_other_settings_names_each_one(tmp_path):
    out = tmp_path / "r.jsonl"
    there = {"maxTokens": 100, "temperature": 0, "system": "Réponds " + "x" * 50, "stop": "y" * 58}
    now = {"maxTokens": 200, "seed": 1, "system": "Réponds " + "x" * 51, "stop": "y" * 59}
    write_run(out, [make_row("q1")], head=header(**there))
    with pytest.raises(UserError) as err:
        check_same_job(out, read_results(out), header(**now), {"maxTokens": "--max-tokens"})
    assert str(err.value) == (
        f"{out} was written with other settings (--max-tokens: 100 there, 200 now; "
        'seed: none there, 1 now; stop: "' + "y" * 58 + '" there, "' + "y" * 56 + "... now; "
        'system: "Réponds ' + "x" * 50 + '" there, "Réponds ' + "x" * 48 + "... now; "
        "temperature: 0 there, none now); its answers would not be comparable: resume with the "
        "same settings or choose another --out"
    )
    check_same_job(out, read_results(out), header(**there))  # the same settings: no refusal


def test_a_file_whose_attempts_all_errored_is_taken_over_with_new_settings(tmp_path):
    out = tmp_path / "r.jsonl"
    bad = make_row("q1", response=None, extracted=None, score=None, passed=None, error="HTTP 404")
    write_run(out, [bad], head=header(baseUrl="http://wrong"))
    check_same_job(out, read_results(out), header(baseUrl="http://right"))


def test_another_jobs_refusal_names_both_jobs(tmp_path):
    out = tmp_path / "r.jsonl"
    write_rows(out, [make_row("q1")])
    with pytest.raises(UserError) as err:
        resume(out, adapter="openai", model="gpt")
    assert str(err.value) == (
        f"{out} holds a static run of oracle:oracle, not static with openai:gpt; "
        "choose another --out to start anew"
    )


def test_a_new_file_gets_the_header_once_before_its_rows(tmp_path):
    out = tmp_path / "r.jsonl"
    writer, done = resume(out)
    assert done == [] and out.read_text() == ""  # no header until the first row
    writer.append(make_row("q1"))
    writer.append(make_row("q2"))
    writer.close()
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0] == header().model_dump() and [line.get("id") for line in lines[1:]] == [
        "q1",
        "q2",
    ]


@pytest.mark.parametrize("content", ['{"run": "r1", "ad', '{"type": "summary", "total": 1}\n'])
def test_a_file_of_only_a_torn_line_or_a_summary_starts_clean(tmp_path, content):
    out = tmp_path / "r.jsonl"
    out.write_text(content)
    writer, done = resume(out)
    writer.append(make_row("q1"))
    writer.close()
    assert done == [] and read_results(out) == Results([make_row("q1")], None, header())


def test_a_resume_keeps_the_first_runs_header(tmp_path):
    out = tmp_path / "r.jsonl"
    write_run(out, [make_row("q1")], head=header(run="r0"))
    writer = ResultWriter(out)
    head, done = writer.start(header(run="r1"), writer.read())
    writer.append(make_row("q2"))
    writer.close()
    assert head == header(run="r0") and done == [make_row("q1")]
    assert read_results(out).header == header(run="r0")


def test_a_resume_of_a_file_from_before_headers_gives_it_one(tmp_path):
    out = tmp_path / "r.jsonl"
    write_rows(out, [make_row("q1")])
    writer, _ = resume(out)
    writer.close()
    assert read_results(out) == Results([make_row("q1")], None, header())


@pytest.mark.parametrize(
    "summary, torn, rows",
    [
        ({"total": 2}, "", ["q1", "q2"]),  # a finished run resumed: its summary is cut
        (None, '{"run": "r1", "ad', ["q1", "q2"]),  # the torn last line is cut
        (None, json.dumps(make_row("q3").to_json_dict()), ["q1", "q2", "q3"]),  # ended
    ],
)
def test_a_resume_repairs_a_file_with_a_header_before_appending(tmp_path, summary, torn, rows):
    out = tmp_path / "r.jsonl"
    write_run(out, [make_row("q1"), make_row("q2")], summary, torn=torn)
    writer, done = resume(out)
    writer.append(make_row("q9"))
    writer.close()
    assert [r.id for r in done] == rows
    assert read_results(out) == Results([make_row(i) for i in [*rows, "q9"]], None, header())


def test_a_resume_with_a_header_retries_the_errored_attempts(tmp_path):
    out = tmp_path / "r.jsonl"
    bad = make_row("q2", response=None, extracted=None, score=None, passed=None, error="HTTP 500")
    write_run(out, [make_row("q1"), bad])
    writer, done = resume(out)
    writer.append(make_row("q2"))
    writer.close()
    assert done == [make_row("q1")]
    assert read_results(out).rows == [make_row("q1"), make_row("q2")]


def test_a_resume_with_nothing_to_repair_appends_in_place(tmp_path):
    """No rewrite of a long file on every resume (and ``tail -f`` keeps following it)."""
    out = tmp_path / "r.jsonl"
    write_run(out, [make_row("q1")])
    before = out.stat().st_ino
    writer, _ = resume(out)
    writer.append(make_row("q2"))
    writer.close()
    assert out.stat().st_ino == before
    assert read_results(out).rows == [make_row("q1"), make_row("q2")]


def test_the_out_file_is_held_from_read_until_close(tmp_path):
    out = tmp_path / "r.jsonl"
    first = ResultWriter(out)
    first.read()
    first.read()  # the holder reads again
    with pytest.raises(UserError, match="in use by another ladderbench process"):
        ResultWriter(out).read()
    first.close()  # a resume refused before start(): nothing was opened
    first.close()
    second, _ = resume(out)
    second.close()
    second.close()
    ResultWriter(out).read()


def test_an_out_that_is_not_a_file_is_one_line(tmp_path):
    with pytest.raises(UserError) as err:
        ResultWriter(tmp_path).read()
    assert str(err.value) == f"--out {tmp_path} is a directory; name a .jsonl file"
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(UserError) as err:
        ResultWriter(pipe).read()
    assert str(err.value) == f"--out {pipe} is not a regular file; name a .jsonl file"


def appends_go_to(monkeypatch, opened):
    """results.py's ``open`` with appending done by ``opened()``; reading is real."""

    def fake(path, mode="r", *args, **kwargs):
        if "a" in mode:
            return opened()
        return open(path, mode, *args, **kwargs)

    monkeypatch.setattr(results, "open", fake, raising=False)


def test_an_out_that_cannot_be_opened_for_appending_is_one_line(tmp_path, monkeypatch):
    def read_only_fs():
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    out = tmp_path / "r.jsonl"
    appends_go_to(monkeypatch, read_only_fs)
    with pytest.raises(UserError) as err:
        resume(out)
    assert str(err.value) == f"cannot write --out {out}: Read-only file system"


def test_a_full_disk_is_one_line_and_close_still_works(tmp_path, monkeypatch):
    """(Not /dev/full: a mutant that rewrites --out would replace the device, as root.)"""

    class FullDisk:
        def write(self, text):
            return len(text)

        def flush(self):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def close(self):
            self.flush()  # the unflushed line fails again

    out = tmp_path / "r.jsonl"
    appends_go_to(monkeypatch, FullDisk)
    writer, _ = resume(out)
    with pytest.raises(UserError) as err:
        writer.append(make_row("q1"))
    assert str(err.value) == (
        f"cannot write --out {out}: No space left on device; the rows written so far are "
        "kept: make room and run the same command to resume"
    )
    writer.close()  # already reported: no second error


def test_writing_before_start_is_a_programming_error(tmp_path):
    with pytest.raises(RuntimeError, match=r"^ResultWriter\.start\(\) must be called before"):
        ResultWriter(tmp_path / "r.jsonl").append(make_row("q1"))


def test_the_summary_is_synced_to_disk_and_a_failed_sync_is_no_error(tmp_path, monkeypatch):
    synced = []

    def fsync(fd):
        synced.append(fd)
        raise OSError(errno.EINVAL, "fsync not supported here")

    out = tmp_path / "r.jsonl"
    summary = parse_summary({"type": "summary", "total": 1})
    writer, _ = resume(out)
    writer.append(make_row("q1"))
    monkeypatch.setattr(os, "fsync", fsync)
    writer.write_summary(summary)
    writer.close()
    assert len(synced) == 1 and read_results(out).summary == summary


def test_summarise_run_counts_every_row_of_a_run_cut_short(tmp_path):
    out = tmp_path / "r.jsonl"
    rows = [make_row(f"q{i}", passed=i % 2 == 0) for i in range(4)]
    write_run(out, rows)
    assert summarise_run(out, iter_results(out)) == summarise_rows(rows, "static", 1)


def single_line_and_run(tmp_path):
    """A file of the summary alone, and a run's file ending with it."""
    summary = {"total": 3, "note": "z" * 40}
    alone = tmp_path / "alone.jsonl"
    alone.write_text(json.dumps({"type": "summary", **summary}) + "\n")
    run = tmp_path / "run.jsonl"
    write_run(run, [make_row(f"q{i}") for i in range(3)], summary)
    return parse_summary({"type": "summary", **summary}), [alone, run]


def test_read_summary_finds_the_last_line_whatever_the_chunk_edges(tmp_path, monkeypatch):
    expected, paths = single_line_and_run(tmp_path)
    for path in paths:
        for chunk in range(1, path.stat().st_size + 2):
            monkeypatch.setattr(results, "TAIL_CHUNK", chunk)
            assert read_summary(path) == expected, (path.name, chunk)


def test_read_summary_reads_only_the_tail(tmp_path, monkeypatch):
    out = tmp_path / "r.jsonl"
    write_run(out, [make_row(f"q{i}") for i in range(200)], {"total": 200})
    read: list[int] = []
    monkeypatch.setattr(results, "_open", counting_open(sizes_read=read))
    monkeypatch.setattr(results, "TAIL_CHUNK", 4096)
    assert read_summary(out) == parse_summary({"type": "summary", "total": 200})
    assert sum(read) <= 4096 < out.stat().st_size // 10


def test_an_inspect_log_reads_through_its_own_reader(tmp_path, monkeypatch):
    summary = parse_summary({"type": "summary", "total": 1})
    done, cut = tmp_path / "done.eval", tmp_path / "cut.eval"
    logs = {
        done: [(1, header()), (2, make_row("q1")), (3, summary)],
        cut: [(1, header()), (2, make_row("q1"))],
    }
    monkeypatch.setattr(results, "eval_log_lines", lambda path: iter(logs[path]))
    assert read_summary(done) == summary and read_summary(cut) is None
    assert read_results(done) == Results([make_row("q1")], summary, header())


def test_non_ascii_text_is_written_as_itself(tmp_path):
    """The file stays readable with grep or less: UTF-8, not ``\\u`` escapes, appended or
    rewritten on resume."""
    out = tmp_path / "r.jsonl"
    writer, _ = resume(out, settings={"system": "Réponds"})
    writer.append(make_row("q1", response="café"))
    writer.write_summary(parse_summary({"type": "summary", "total": 1}))
    writer.close()
    for rewritten in (False, True):
        text = out.read_text(encoding="utf-8")
        assert text.count("Réponds") == 1 and "café" in text, rewritten
        writer, _ = resume(out, settings={"system": "Réponds"})  # cuts the summary: a rewrite
        writer.close()
