"""Release machinery: build, byte-for-byte rebuilds, hold-back, refresh, selection, bad input."""

import json
import random

import pytest

from cli_helpers import ladderbench, read_jsonl
from ladderbench.errors import UserError
from ladderbench.grading.extract import extract_answer
from ladderbench.grading.scorer import verdict
from ladderbench.live import registry
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.release import Store, build, refresh
from ladderbench.live.suite import LiveSuite
from ladderbench.registry import Registry


class ToyAdd(Task):
    name = "toy_add"
    category = "math"

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        a, b = rng.randrange(1000), rng.randrange(1000)
        return Question(
            prompt=f"What is {a} + {b}? Answer in <solution></solution>.",
            ground_truth=str(a + b),
            fields={"a": a},
        )

    def score(self, record, response):
        answer = extract_answer(response)
        return verdict(answer, float(answer == record["ground_truth"]))


class ToyEcho(ToyAdd):
    name = "toy_echo"
    category = "language"

    def generate(self, rng, sources, difficulty=0):
        word = rng.choice(["alpha", "bravo", "delta", "gamma", "omega", "sigma"]) + str(
            rng.randrange(10**6)
        )
        return Question(prompt=f"Repeat {word} inside <solution></solution>.", ground_truth=word)


@pytest.fixture
def toy_tasks(monkeypatch):
    toys = Registry("live task")
    toys.add("toy_add", ToyAdd())
    toys.add("toy_echo", ToyEcho())
    monkeypatch.setattr(registry, "TASKS", toys)
    import ladderbench.live.release as release

    monkeypatch.setattr(release, "all_tasks", toys.items)


def files_of(folder):
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_same_release_twice_gives_the_same_bytes(tmp_path, toy_tasks):
    one = build(tmp_path / "a", "2026-12-01", Sources.empty(), per_task=12)
    two = build(tmp_path / "b", "2026-12-01", Sources.empty(), per_task=12)
    assert one == two and files_of(tmp_path / "a") == files_of(tmp_path / "b")
    other = build(tmp_path / "c", "2027-01-01", Sources.empty(), per_task=12)
    assert other["sha256"] != one["sha256"]  # a new release means new questions


def test_build_layout_records_and_hold_back(tmp_path, toy_tasks):
    manifest = build(tmp_path, "2026-12-01", Sources.empty(), per_task=12)
    assert manifest["counts"]["toy_add"] == {
        "category": "math",
        "active": 10,
        "removed": 0,
        "private": 2,
    }
    lines = (tmp_path / "math" / "toy_add.jsonl").read_text().splitlines()
    record = json.loads(lines[0])
    assert {
        "question_id",
        "category",
        "task",
        "subtask",
        "prompt",
        "ground_truth",
        "release_date",
        "removal_date",
        "a",
    } <= set(record)
    assert record["release_date"] == "2026-12-01" and record["removal_date"] == ""
    assert (tmp_path / "private" / "math" / "toy_add.jsonl").exists()
    with pytest.raises(UserError, match="already holds a live store"):
        build(tmp_path, "2026-12-01", Sources.empty())


def test_refresh_replaces_a_sixth_and_publishes_the_hold_back(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=12)
    before = Store.load(tmp_path)
    held = {r["question_id"] for r in before.private["toy_add"] + before.private["toy_echo"]}
    manifest = refresh(tmp_path, "2027-01-01", Sources.empty(), [])
    after = Store.load(tmp_path)
    published = {r["question_id"] for rs in after.public.values() for r in rs}
    assert held <= published  # last release's hold-back is now public
    assert manifest["replaced"] == 12  # one whole task: about a sixth of the 24 active questions
    removed = [r for rs in after.public.values() for r in rs if r["removal_date"] == "2027-01-01"]
    assert len(removed) == 12 and len({r["task"] for r in removed}) == 1
    old_ids = {r["question_id"] for r in LiveSuite(tmp_path, release="2026-12-01").records.values()}
    new_ids = {r["question_id"] for r in LiveSuite(tmp_path).records.values()}
    assert len(old_ids) == 24 and len(new_ids) == 24 and len(old_ids & new_ids) == 12
    with pytest.raises(UserError, match="must be after the latest release"):
        refresh(tmp_path, "2026-12-15", Sources.empty(), [])


def test_refresh_takes_the_easiest_task_first(tmp_path, toy_tasks):
    from helpers import make_row

    build(tmp_path, "2026-12-01", Sources.empty(), per_task=12)
    results = [make_row("x", task="toy_echo", score=1.0), make_row("y", task="toy_add", score=0.1)]
    refresh(tmp_path, "2027-01-01", Sources.empty(), results)
    store = Store.load(tmp_path)
    assert {r["task"] for rs in store.public.values() for r in rs if r["removal_date"]} == {
        "toy_echo"
    }


def test_published_copy_without_private_folder_loads(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=12)
    for path in (tmp_path / "private").rglob("*.jsonl"):
        path.unlink()
    assert len(LiveSuite(tmp_path).records) == 20


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda d: (d / "manifest.json").unlink(), "not a live release folder"),
        (lambda d: (d / "manifest.json").write_text("{"), "manifest.json: not valid JSON"),
        (lambda d: (d / "math" / "toy_add.jsonl").write_text("{}\n"), "sha256 does not match"),
        (lambda d: (d / "math" / "toy_add.jsonl").unlink(), "listed in manifest.json but missing"),
    ],
)
def test_malformed_store_is_one_line(tmp_path, toy_tasks, damage, message):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=4)
    damage(tmp_path)
    with pytest.raises(UserError, match=message):
        Store.load(tmp_path)


def test_oracle_and_echo_through_the_cli(tmp_path, monkeypatch):
    """On the built-in tasks: oracle 1.0 everywhere, echo near 0."""
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    store = tmp_path / "live"
    proc = ladderbench("live", "build", str(store), "--release", "2026-12-01", "--per-task", "6")
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "o.jsonl"
    proc = ladderbench(
        "run",
        "--suite",
        "live",
        "--live-dir",
        str(store),
        "--model",
        "oracle",
        "--out",
        str(out),
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["overall"]["score"] == 1.0
    assert all(t["score"] == 1.0 for t in summary["byTask"].values()), summary["byTask"]
    echo = ladderbench(
        "run",
        "--suite",
        "live",
        "--live-dir",
        str(store),
        "--model",
        "echo",
        "--out",
        str(tmp_path / "e.jsonl"),
        "--json",
    )
    assert json.loads(echo.stdout)["overall"]["score"] < 0.3
    rows, _ = read_jsonl(out)
    assert {"task", "category"} <= set(rows[0])


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "--suite", "live", "--model", "oracle"], "--suite live needs --live-dir"),
        (["live", "build", "X", "--release", "tomorrow"], "--release 'tomorrow': expected a date"),
        (
            ["live", "build", "X", "--release", "2026-12-01", "--private-fraction", "2"],
            "must be at least 0 and below 1",
        ),
        (
            ["live", "build", "X", "--release", "2026-12-01", "--tasks", "nope"],
            "unknown live task 'nope'",
        ),
        (
            ["live", "build", "X", "--release", "2026-12-01", "--sources", "/nonexistent"],
            "no such folder",
        ),
        (
            ["live", "refresh", "/nonexistent", "--release", "2027-01-01"],
            "not a live release folder",
        ),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, args, message):
    args = [str(tmp_path / "X") if a == "X" else a for a in args]
    proc = ladderbench(*args)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1
