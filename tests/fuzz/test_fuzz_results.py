"""Malformed results files, data files and caches, as a careless or hostile user makes them:
every case is one line on stderr and exit 2, or a normal result; never a traceback, a hang or lost
rows."""

import asyncio
import errno
import json
import sqlite3

import pytest

from cli_helpers import ladderbench, read_jsonl
from ladderbench.errors import UserError
from ladderbench.models.registry import make_adapter
from ladderbench.runner import results
from ladderbench.runner.run import RunConfig, run_suite
from ladderbench.static.suite import StaticSuite


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A real results file: header, 4 rows, summary (as lines)."""
    out = tmp_path_factory.mktemp("good") / "oracle.jsonl"
    proc = ladderbench("run", "--model", "oracle", "--levels", "1,2", "--limit", "2", "-q",
                       "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return out.read_text().splitlines()


def one_line_exit_2(proc):
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-800:])
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: "), proc.stderr
    assert "Traceback" not in proc.stderr


def edited(lines, index, **changes):
    obj = json.loads(lines[index])
    obj.update(changes)
    return [*lines[:index], json.dumps(obj), *lines[index + 1 :]]


CORRUPTIONS = {
    "a row that is not UTF-8": lambda lines: [*lines[:2], '{"run": "x\udcff"}', *lines[2:]],
    "a row nested 100000 deep": lambda lines: [*lines[:2], "[" * 100_000 + "]" * 100_000],
    "level true": lambda lines: edited(lines, 1, level=True),
    "pass as a string": lambda lines: edited(lines, 1, **{"pass": "yes"}),
    "sample as a float": lambda lines: edited(lines, 1, sample=0.5),
    "usage with a string": lambda lines: edited(lines, 1, usage={"prompt_tokens": "ten"}),
    "a header in the middle": lambda lines: [*lines[1:3], lines[0], *lines[3:]],
    "two summaries": lambda lines: [*lines, lines[-1]],
    "a summary of the wrong shape": lambda lines: edited(lines, -1, byLevel=5),
    "a row without its prompt": lambda lines: [
        *lines[:1],
        json.dumps({k: v for k, v in json.loads(lines[1]).items() if k != "prompt"}),
        *lines[2:],
    ],
    "a duplicated attempt": lambda lines: [*lines[:2], lines[1], *lines[2:]],
}


def write(path, lines):
    data = "\n".join(lines) + "\n"
    path.write_bytes(data.encode("utf-8", "surrogateescape"))


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_a_corrupted_results_file_is_one_line_everywhere(good, tmp_path, name):
    bad = tmp_path / "bad.jsonl"
    write(bad, CORRUPTIONS[name](good))
    other = tmp_path / "other.jsonl"
    write(other, good)
    before = bad.read_bytes()
    commands = [
        ("report", "--html", str(tmp_path / "r.html"), str(bad)),
        ("compare", str(bad), str(other)),
        ("run", "--model", "oracle", "--levels", "1,2", "--limit", "2", "-q", "--out", str(bad)),
    ]
    for command in commands:
        one_line_exit_2(ladderbench(*command))
    assert bad.read_bytes() == before  # a refused resume changes nothing


def test_a_non_utf8_results_file_is_one_line_for_report(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\xfe\x00garbage\n")
    one_line_exit_2(ladderbench("report", str(bad)))


def test_hand_made_rows_of_no_known_suite_are_one_line(good, tmp_path):
    rows = [json.loads(line) for line in good[1:-1]]
    for row in rows:
        row["suite"] = "mystery"
    bad = tmp_path / "hand.jsonl"
    write(bad, [json.dumps(row) for row in rows])
    write(tmp_path / "good.jsonl", good)
    classes = tmp_path / "classes.toml"
    classes.write_text('[models]\noracle = "frontier"\n')
    for command in (
        ("report", str(bad)),
        ("report", "--html", str(tmp_path / "r.html"), str(bad)),
        ("compare", str(bad), str(tmp_path / "good.jsonl")),
        ("calibrate", str(bad), "--classes", str(classes)),
    ):
        one_line_exit_2(ladderbench(*command))


QUESTION = {
    "id": "l1_x",
    "level": 1,
    "category": "a",
    "question": "q",
    "choices": ["a", "b", "c", "d"],
    "answer": "A",
}


@pytest.mark.parametrize(
    "line",
    [
        "[" * 100_000 + "]" * 100_000,
        json.dumps({**QUESTION, "level": True}),
        json.dumps({**QUESTION, "check": 5}),
    ],
    ids=["nested", "level-true", "check-not-text"],
)
def test_a_malformed_data_line_is_one_line(tmp_path, line):
    data = tmp_path / "data"
    data.mkdir()
    (data / "level1_x.jsonl").write_text(line + "\n")
    out = str(tmp_path / "r.jsonl")
    one_line_exit_2(
        ladderbench("run", "--model", "oracle", "--data", str(data), "-q", "--out", out)
    )


def test_a_data_file_that_is_not_utf8_is_one_line(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "level1_x.jsonl").write_bytes(b'{"id": "\xff"}\n')
    out = str(tmp_path / "r.jsonl")
    one_line_exit_2(
        ladderbench("run", "--model", "oracle", "--data", str(data), "-q", "--out", out)
    )


def test_a_cache_of_another_schema_is_refused_in_one_line(tmp_path):
    cache = tmp_path / "other.sqlite"
    with sqlite3.connect(cache) as db:
        db.execute("CREATE TABLE responses (a INTEGER)")
    proc = ladderbench(
        "run", "--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1", "-q",
        "--out", str(tmp_path / "r.jsonl"), env={"LADDERBENCH_CACHE": str(cache)},
    )  # fmt: skip
    one_line_exit_2(proc)
    assert "not a LadderBench cache" in proc.stderr


def test_an_unreadable_cache_row_is_a_miss_and_a_locked_cache_is_skipped(tmp_path):
    from ladderbench.items import Completion
    from ladderbench.runner.cache import ResponseCache

    path = tmp_path / "c.sqlite"
    cache = ResponseCache(path)
    cache.put("k", Completion(text="A"))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE responses SET completion = '{not json'")
    assert cache.get("k") is None
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        cache.BUSY_MS = 10  # type: ignore[misc]
        cache._db.execute("PRAGMA busy_timeout=10")
        assert cache.get("k") is None  # locked by another process: ask the model instead
        cache.put("k2", Completion(text="B"))  # dropped, not raised
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    cache.close()


class FillsUp:
    """A results file on a disk that fills after ``room`` writes: the OS refuses the rest."""

    def __init__(self, handle, room):
        self.handle, self.room = handle, room

    def write(self, text):
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= 1
        return self.handle.write(text)

    def __getattr__(self, name):
        return getattr(self.handle, name)


def test_a_full_disk_mid_run_is_one_line_and_the_rows_so_far_resume(tmp_path, monkeypatch):
    out = tmp_path / "r.jsonl"

    def run():
        suite = StaticSuite(levels=[1], limit=6)
        config = RunConfig(out=out, concurrency=1)
        return asyncio.run(run_suite(suite, make_adapter("oracle"), config))

    def opened(*args, **kwargs):
        return FillsUp(open(*args, **kwargs), room=3)

    monkeypatch.setattr(results, "open", opened, raising=False)
    with pytest.raises(UserError, match="No space left on device; the rows written so far"):
        run()
    monkeypatch.undo()
    rows, summary = read_jsonl(out)
    assert len(rows) == 3 and summary is None
    assert run().total == 6
    rows, summary = read_jsonl(out)
    assert len(rows) == 6 == len({r["id"] for r in rows}) and summary["total"] == 6
