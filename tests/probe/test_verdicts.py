"""Built-in grader verdicts are cached per grader version: a changed grader or ladder misses."""

import shutil

import pytest

from ladderbench.probe import verdicts
from ladderbench.probe.verdicts import ProbeVerdict, probe_builtin, shipped_verdicts


@pytest.fixture
def counted(monkeypatch):
    """Count the slow path (real probing) while keeping its answers."""
    calls = []

    def probe(grader, ladder):
        calls.append(grader)
        return probe_builtin(grader, ladder)

    monkeypatch.setattr(verdicts, "probe_builtin", probe)
    return calls


def test_verdicts_are_probed_once_then_read_from_the_cache(tmp_path, counted):
    names = ["puzzles.caesar", "static.choice"]
    first = shipped_verdicts(names, tmp_path)
    assert counted == names and [v.state for v in first] == ["pass", "pass"]
    assert shipped_verdicts(names, tmp_path) == first
    assert counted == names  # nothing probed again
    assert len(list(tmp_path.glob("*.json"))) == 2


def test_graders_without_a_ladder_are_not_probed(tmp_path, counted):
    out = shipped_verdicts(["live.no_such_task"], tmp_path)
    assert out == [ProbeVerdict("live.no_such_task", "no ladder", "not probed")] and not counted


def test_a_changed_ladder_misses_the_cache(tmp_path, counted, monkeypatch):
    ladder = tmp_path / "ladder.jsonl"
    shutil.copy(verdicts.ladder_path("puzzles.caesar"), ladder)
    monkeypatch.setattr(verdicts, "ladder_path", lambda grader: ladder)
    cache = tmp_path / "cache"
    shipped_verdicts(["puzzles.caesar"], cache)
    shipped_verdicts(["puzzles.caesar"], cache)
    assert len(counted) == 1
    lines = ladder.read_text().splitlines()
    ladder.write_text("\n".join(lines[:-1]) + "\n")  # one rung fewer
    shipped_verdicts(["puzzles.caesar"], cache)
    assert len(counted) == 2


def test_a_changed_grader_misses_the_cache_and_other_code_does_not(tmp_path, monkeypatch):
    package = tmp_path / "ladderbench"
    shutil.copytree(verdicts.PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(verdicts, "PACKAGE", package)
    verdicts.source_fingerprint.cache_clear()
    try:
        before = verdicts.source_fingerprint()
        (package / "report" / "html.py").write_text("# the report is not a grader\n")
        assert verdicts.source_fingerprint.__wrapped__() == before
        graders = ("puzzles/families/caesar.py", "live/tasks/_tables.py", "grading/extract.py")
        for changed in graders:
            with open(package / changed, "a") as fh:
                fh.write("\n# a new grader version\n")
            after = verdicts.source_fingerprint.__wrapped__()
            assert after != before, changed
            before = after
    finally:
        verdicts.source_fingerprint.cache_clear()


def test_an_unreadable_cache_entry_is_probed_again(tmp_path, counted):
    shipped_verdicts(["puzzles.caesar"], tmp_path)
    (entry,) = tmp_path.glob("*.json")
    entry.write_text("{not json")
    assert shipped_verdicts(["puzzles.caesar"], tmp_path)[0].state == "pass"
    assert len(counted) == 2


def test_an_unwritable_cache_is_skipped(tmp_path, counted):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert shipped_verdicts(["puzzles.caesar"], blocker / "cache")[0].state == "pass"
    assert shipped_verdicts(["puzzles.caesar"], blocker / "cache")[0].state == "pass"
    assert len(counted) == 2
