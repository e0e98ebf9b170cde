"""Release machinery: build, byte-for-byte rebuilds, hold-back, refresh, selection, bad input."""

import json
import random

import pytest

from cli_helpers import ladderbench, read_jsonl
from conftest import TEST_LIVE_SECRET as TEST_SECRET
from ladderbench.errors import UserError
from ladderbench.grading.extract import extract_answer
from ladderbench.grading.scorer import verdict
from ladderbench.live import registry
from ladderbench.live.base import Question, Sources, Task, load_sources, seeded_rng
from ladderbench.live.difficulty import RELEASE_DIFFICULTY
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
    lines = (tmp_path / "math" / "toy_add.2026-12-01.jsonl").read_text().splitlines()
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
    assert (tmp_path / "private" / "math" / "toy_add.2026-12-01.jsonl").exists()
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


def test_refreshes_in_a_row_replace_the_oldest_task_each_time(tmp_path, toy_tasks):
    """Issue #20 point 6: age comes first, so a second refresh replaces the task the first one
    left alone (easiest first only among tasks of the same age)."""
    from helpers import make_row

    build(tmp_path, "2026-12-01", Sources.empty(), per_task=12)
    results = [make_row("x", task="toy_echo", score=1.0), make_row("y", task="toy_add", score=0.1)]
    replaced = []
    for release in ("2027-01-01", "2027-02-01", "2027-03-01"):
        refresh(tmp_path, release, Sources.empty(), results)
        store = Store.load(tmp_path)
        replaced += [
            {r["task"] for rs in store.public.values() for r in rs if r["removal_date"] == release}
        ]
    assert replaced == [{"toy_echo"}, {"toy_add"}, {"toy_echo"}]


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
        (
            lambda d: (d / "math" / "toy_add.2026-12-01.jsonl").write_text("{}\n"),
            "sha256 does not match",
        ),
        (
            lambda d: (d / "math" / "toy_add.2026-12-01.jsonl").unlink(),
            "listed in manifest.json but missing",
        ),
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
    proc = ladderbench("live", "build", str(store), "--release", "2026-12-01", "--per-task", "2")
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
    for task, scores in summary["byTask"].items():  # the release's calibrated difficulty
        assert scores["difficulties"] == [RELEASE_DIFFICULTY[task]], task


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "--suite", "live", "--model", "oracle"], "--suite live needs --live-dir"),
        (["live", "build", "X", "--release", "tomorrow"], "--release 'tomorrow': expected a date"),
        (["live", "build", "X", "--release", "2026-13-45"], "--release '2026-13-45': expected a"),
        (["live", "refresh", "X", "--release", "2027-02-30"], "--release '2027-02-30': expected a"),
        (["live", "fetch", "X", "--since", "20261201"], "--since '20261201': expected a date"),
        (["live", "build", "X", "--release", "2026-12-01", "--per-task", "99999"], "1..10000"),
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
        (
            ["live", "build", "X", "--release", "2026-12-01", "--difficulty", "zebra=hard"],
            "expected TASK=D",
        ),
        (
            ["live", "build", "X", "--release", "2026-12-01", "--difficulty", "nope=2"],
            "unknown live task 'nope'",
        ),
        (
            [
                "live",
                "build",
                "X",
                "--release",
                "2026-12-01",
                "--difficulty",
                "zebra=" + "9" * 5000,
            ],
            "at most 1000",
        ),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, args, message):
    args = [str(tmp_path / "X") if a == "X" else a for a in args]
    proc = ladderbench(*args)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1


# ---------------------------------------------------------------- the maintainer's secret

SECRET = "LADDERBENCH_LIVE_SECRET"


def test_without_the_secret_nothing_is_built(tmp_path, toy_tasks, monkeypatch):
    monkeypatch.delenv(SECRET)
    with pytest.raises(UserError, match=SECRET):
        build(tmp_path, "2026-12-01", Sources.empty(), per_task=4)
    proc = ladderbench("live", "build", str(tmp_path / "s"), "--release", "2026-12-01")
    assert proc.returncode == 2 and SECRET in proc.stderr and proc.stderr.count("\n") == 1


def test_another_secret_cannot_rebuild_the_hold_back_or_a_future_release(
    tmp_path, toy_tasks, monkeypatch
):
    """The audit: rebuilding a release reproduced private/ byte for byte, and building a future
    date gave exactly the questions its refresh later released."""
    build(tmp_path / "real", "2026-12-01", Sources.empty(), per_task=12)
    refresh(tmp_path / "real", "2027-01-01", Sources.empty(), [])
    real = Store.load(tmp_path / "real")
    monkeypatch.setenv(SECRET, "an-attacker-guessing-another-key")
    build(tmp_path / "guess", "2026-12-01", Sources.empty(), per_task=12)
    build(tmp_path / "future", "2027-01-01", Sources.empty(), per_task=12)
    guessed = {
        r["prompt"]
        for name in ("guess", "future")
        for store in [Store.load(tmp_path / name)]
        for records in [*store.public.values(), *store.private.values()]
        for r in records
    }
    real_prompts = {
        r["prompt"] for rs in [*real.public.values(), *real.private.values()] for r in rs
    }
    assert not guessed & real_prompts


def test_the_secret_is_written_nowhere_and_a_wrong_one_cannot_refresh(
    tmp_path, toy_tasks, monkeypatch
):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=12)
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert TEST_SECRET.encode() not in path.read_bytes(), path
    monkeypatch.setenv(SECRET, "not-the-key-this-store-was-built-with")
    with pytest.raises(UserError, match="not the secret"):
        refresh(tmp_path, "2027-01-01", Sources.empty(), [])


def test_a_published_question_regenerates_from_its_seed(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=6)
    record = Store.load(tmp_path).public["toy_add"][0]
    question = ToyAdd().generate(seeded_rng(record["seed"]), Sources.empty(), record["difficulty"])
    assert (question.prompt, question.ground_truth) == (record["prompt"], record["ground_truth"])


def test_a_published_copy_cannot_be_refreshed(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=12)
    for path in (tmp_path / "private").rglob("*.jsonl"):
        path.unlink()
    with pytest.raises(UserError, match="private hold-back is missing"):
        refresh(tmp_path, "2027-01-01", Sources.empty(), [])


# ---------------------------------------------------------------- material served once

PASSAGES = [f"passage {i}: " + " ".join(f"w{i}x{j}" for j in range(12)) for i in range(14)]


class ToyPassage(ToyAdd):
    """Copies a passage: the passage is its material, and its answer."""

    name = "toy_passage"
    category = "language"

    def generate(self, rng, sources, difficulty=0):
        fresh = sources.fresh(PASSAGES)
        if not fresh:
            raise UserError("toy_passage: no unused passage left")
        text = rng.choice(fresh)
        return Question(
            prompt=f"Copy in tags, upper-cased: {text.upper()}", ground_truth=text, material=(text,)
        )


class ToyQuoter(ToyAdd):
    """Quotes a passage in its prompt while its answer is another passage: a leak unless the
    release refuses it."""

    name = "toy_quoter"
    category = "reasoning"

    def generate(self, rng, sources, difficulty=0):
        quoted = rng.choice(PASSAGES[-2:])
        return Question(prompt=f"Read: {quoted}. Say done.", ground_truth=f"done {rng.random()}")


@pytest.fixture
def passage_tasks(monkeypatch):
    toys = Registry("live task")
    toys.add("toy_passage", ToyPassage())
    toys.add("toy_quoter", ToyQuoter())
    monkeypatch.setattr(registry, "TASKS", toys)
    import ladderbench.live.release as release

    monkeypatch.setattr(release, "all_tasks", toys.items)


def test_material_is_never_served_twice_and_no_prompt_quotes_an_answer(tmp_path, passage_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=4)
    refresh(tmp_path, "2027-01-01", Sources.empty(), [], {"toy_passage": 1})
    store = Store.load(tmp_path)
    records = [r for rs in [*store.public.values(), *store.private.values()] for r in rs]
    passages = [r for r in records if r["task"] == "toy_passage"]
    assert len({r["ground_truth"] for r in passages}) == len(passages) == 8
    assert len({m for r in passages for m in r["material"]}) == 8
    answers = {r["ground_truth"] for r in passages}
    quotes = [r for r in records if r["task"] == "toy_quoter"]
    assert quotes and not any(a in q["prompt"] for a in answers for q in quotes)
    assert store.difficulty == {"toy_passage": 1, "toy_quoter": 0}
    with pytest.raises(UserError, match="no unused passage left"):
        build(tmp_path / "big", "2026-12-01", Sources.empty(), 15, names=["toy_passage"])


def test_consecutive_refreshes_of_the_real_tasks_share_no_question_text(tmp_path):
    """The audit: between two releases proof_order shared 41/50 questions, plot_unscrambling 37,
    typos 24, and connections reused 143 of 154 categories. Every task's new questions now share
    no prompt, no material and no long answer with anything the store served before."""
    easy = dict.fromkeys(registry.TASKS.names(), 0)  # the packaged pools last 12 releases at d=0
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=3, difficulty=easy)
    seen = Store.load(tmp_path)
    refreshed: set[str] = set()
    for release in [f"2027-{month:02d}-01" for month in range(1, 13)]:
        before = [r for rs in [*seen.public.values(), *seen.private.values()] for r in rs]
        refresh(tmp_path, release, Sources.empty(), [])
        seen = Store.load(tmp_path)
        after = [r for rs in [*seen.public.values(), *seen.private.values()] for r in rs]
        new = [r for r in after if r["release_date"] == release]
        assert new
        refreshed |= {r["task"] for r in new}
        old_prompts = {r["prompt"] for r in before}
        old_material = {m for r in before for m in r["material"]}
        for record in new:
            assert record["prompt"] not in old_prompts
            assert not old_material & set(record["material"])
    assert refreshed == set(seen.categories)  # every task made new questions at least once
    everything = [r for rs in [*seen.public.values(), *seen.private.values()] for r in rs]
    long_answers = [r["ground_truth"] for r in everything if len(r["ground_truth"]) >= 24]
    for record in everything:
        quoted = [a for a in long_answers if a != record["ground_truth"] and a in record["prompt"]]
        assert not quoted, record["question_id"]


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("provenance.jsonl", b'{"file": "a.txt"}\n{not json\n', "provenance.jsonl: not valid JSON"),
        (
            "provenance.jsonl",
            b'{"file": "a.txt"}\n{"url": "x"}\n',
            "provenance.jsonl:2: field 'file'",
        ),
        ("a.txt", b"caf\xe9 latin-1\n", "a.txt: not UTF-8 text"),
    ],
)
def test_a_malformed_sources_folder_is_one_line(tmp_path, name, data, message):
    (tmp_path / name).write_bytes(data)
    with pytest.raises(UserError, match=message):
        load_sources(tmp_path)
