"""Release machinery: build, byte-for-byte rebuilds, hold-back, refresh, selection, bad input."""

import json
import random
import re
from dataclasses import replace
from fractions import Fraction

import pytest

from cli_helpers import ladderbench, read_jsonl
from conftest import TEST_LIVE_SECRET as TEST_SECRET
from helpers import make_row
from ladderbench.errors import UserError
from ladderbench.grading.extract import extract_answer
from ladderbench.grading.scorer import verdict
from ladderbench.live import registry
from ladderbench.live.base import (
    Question,
    Sources,
    Task,
    load_sources,
    material_digest,
    question_seed,
    seeded_rng,
)
from ladderbench.live.difficulty import RELEASE_DIFFICULTY
from ladderbench.live.release import (
    Served,
    Store,
    build,
    check_date,
    generator_versions,
    key_check,
    make_record,
    parse_difficulty,
    parse_fraction,
    refresh,
    secret_from_env,
    task_ease,
)
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


# ---------------------------------------------------------------- settings and the secret


def test_difficulty_pairs_are_parsed_and_a_bad_pair_is_named():
    assert parse_difficulty(None) == {} and parse_difficulty(" , ") == {}
    assert parse_difficulty(" zebra = 2 ,,typos=0,") == {"zebra": 2, "typos": 0}
    assert parse_difficulty("zebra=1000") == {"zebra": 1000}
    for text in (
        "zebra=hard",
        "zebra=-1",
        "zebra=",
        "zebra",
        "zebra=\u0663",
        "zebra=3=4",
    ):  # Arabic-Indic 3
        with pytest.raises(UserError, match="expected TASK=D with D a whole number") as raised:
            parse_difficulty(f"typos=1,{text}")
        assert f"--difficulty {text.strip()!r}:" in str(raised.value)
    with pytest.raises(UserError, match=r"^--difficulty 'zebra=1001': at most 1000$"):
        parse_difficulty("zebra=1001")


def test_a_private_fraction_is_a_fraction_from_0_up_to_below_1():
    assert parse_fraction("1/6") == Fraction(1, 6) and parse_fraction("0") == 0
    assert parse_fraction("0.5") == Fraction(1, 2)
    for text in ("1", "7/6", "-1/6"):
        with pytest.raises(UserError, match=rf"^--private-fraction '{text}': must be at least 0"):
            parse_fraction(text)
    for text in ("half", "1/0"):
        with pytest.raises(UserError, match=rf"^--private-fraction '{text}': expected a fraction"):
            parse_fraction(text)


def test_a_release_date_is_a_real_calendar_date():
    assert check_date("2028-02-29") == "2028-02-29"
    for value in ("2026-02-29", "2026-13-01", "20261201", "2026-12-1", " 2026-12-01", 20261201):
        with pytest.raises(UserError, match=rf"^--release {value!r}: expected a date like"):
            check_date(value)
    with pytest.raises(UserError, match=r"^x\.json: field 'releases': 'soon': expected a date"):
        check_date("soon", "x.json: field 'releases':")


def test_the_secret_needs_16_characters(monkeypatch):
    monkeypatch.setenv(SECRET, "s" * 15)
    with pytest.raises(UserError, match=rf"in {SECRET} \(16\+ random characters"):
        secret_from_env()
    monkeypatch.setenv(SECRET, "s" * 16)
    assert secret_from_env() == "s" * 16


def test_the_key_check_of_a_secret_is_stable_across_versions():
    """Written into every manifest and compared on refresh: a store built by an earlier version
    must accept its own secret, so the fingerprint of a secret never changes."""
    assert key_check(TEST_SECRET) == "0b21cec5350aad91"
    assert key_check("another-secret-0123456789") != key_check(TEST_SECRET)


def test_ease_is_the_mean_score_of_a_task_over_rows_that_were_graded():
    from helpers import make_row

    rows = [
        make_row("a", task="toy_add", score=1.0),
        make_row("b", task="toy_add", score=0.5),
        make_row("c", task="toy_add", score=0.0, error="timeout"),  # not graded
        make_row("d", task="toy_add", score=None),
        make_row("e", task="toy_echo", score=0.25),
        make_row("f", task=None, score=1.0),  # a static row
    ]
    assert task_ease(rows) == {"toy_add": 0.75, "toy_echo": 0.25}


# ---------------------------------------------------------------- what a new question may be


def served_record(qid, prompt, answer, material=()):
    return {"question_id": qid, "prompt": prompt, "ground_truth": answer, "material": [*material]}


def test_a_question_repeating_or_leaking_what_was_served_is_refused():
    long_answer = "x" * 23 + "!"  # 24 characters: long enough to give a question away
    short_answer = "y" * 22 + "?"  # 23: short answers ("42", "True") turn up in any text
    served = Served.of(
        [
            served_record("q1", "Tell me about the ocean and the sky today.", long_answer, ["m1"]),
            served_record("q2", "Another prompt", short_answer, ["m2"]),
        ]
    )
    assert served.admits(served_record("q3", "fresh", "z" * 30, ["m3"]))
    assert not served.admits(served_record("q1", "fresh", "z", []))  # the same question
    assert not served.admits(served_record("q3", "fresh", "z", ["m3", "m2"]))  # served material
    assert not served.admits(served_record("q3", f"Say {long_answer} again", "z", []))
    assert served.admits(served_record("q3", f"Say {short_answer} again", "z", []))
    quoted = "about the ocean and the sky"  # 27 characters of a served prompt
    assert not served.admits(served_record("q3", "fresh", quoted, []))
    assert not served.admits(served_record("q3", "fresh", quoted[:24], []))
    assert served.admits(served_record("q3", "fresh", quoted[:23], []))
    served.add(served_record("q3", "fresh", "z" * 30, ["m3"]))
    assert not served.admits(served_record("q4", "other", "w", ["m3"]))
    assert not served.admits(served_record("q4", "quotes " + "z" * 30, "w", []))


class ToyTwice(ToyAdd):
    """Every other question is the same one: a release must skip the repeats."""

    name = "toy_twice"

    def generate(self, rng, sources, difficulty=0):
        if rng.random() < 0.5:
            return Question(prompt="What is 1 + 1?", ground_truth="2")
        a = rng.randrange(10 ** (difficulty + 1))
        return Question(prompt=f"What is {a} + {difficulty}?", ground_truth=str(a + difficulty))


def test_question_seeds_are_the_secrets_hmac_and_skip_refused_questions(tmp_path, monkeypatch):
    """Each question's seed is question_seed(secret, release, task, index), the indices going on
    past refused questions: with the secret a maintainer can regenerate any question."""
    toys = Registry("live task")
    toys.add("toy_twice", ToyTwice())
    monkeypatch.setattr(registry, "TASKS", toys)
    import ladderbench.live.release as release

    monkeypatch.setattr(release, "all_tasks", toys.items)
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=8, difficulty={"toy_twice": 3})
    store = Store.load(tmp_path)
    records = store.public["toy_twice"] + store.private["toy_twice"]
    expected, prompts, index = [], set(), 0
    while len(expected) < 8:
        seed = question_seed(TEST_SECRET, "2026-12-01", "toy_twice", index)
        prompt = ToyTwice().generate(seeded_rng(seed), Sources.empty(), 3).prompt
        if prompt not in prompts:
            prompts.add(prompt)
            expected.append(seed)
        index += 1
    assert index > 8  # the repeats were skipped
    assert sorted(r["seed"] for r in records) == sorted(expected)
    assert {r["prompt"] for r in records} == prompts  # made at difficulty 3
    assert {r["difficulty"] for r in records} == {3}
    assert sum(r["prompt"] == "What is 1 + 1?" for r in records) == 1


class ToySame(ToyAdd):
    name = "toy_same"

    def generate(self, rng, sources, difficulty=0):
        return Question(prompt="What is 1 + 1?", ground_truth="2")


def test_a_task_that_cannot_make_new_questions_is_one_line(tmp_path, monkeypatch):
    toys = Registry("live task")
    toys.add("toy_same", ToySame())
    monkeypatch.setattr(registry, "TASKS", toys)
    import ladderbench.live.release as release

    monkeypatch.setattr(release, "all_tasks", toys.items)
    message = (
        "live task toy_same: cannot generate 2 questions that share no material with earlier "
        "ones; run 'ladderbench live fetch' and pass --sources"
    )
    with pytest.raises(UserError, match=f"^{re.escape(message)}$"):
        build(tmp_path, "2026-12-01", Sources.empty(), per_task=2)
    assert not (tmp_path / "manifest.json").exists()


def test_reserved_field_names_are_refused_in_a_tasks_own_fields():
    question = Question(prompt="p", ground_truth="g", fields={"seed": 1, "prompt": 2, "x": 3})
    with pytest.raises(ValueError, match=r"^live task toy_add: fields \['prompt', 'seed'\]"):
        make_record(ToyAdd(), question, "2026-12-01", "s", 0)


def test_a_record_names_its_question_and_its_release(tmp_path, toy_tasks):
    question = Question(prompt="What is 2 + 2?", ground_truth="4", subtask="sum", fields={"a": 2})
    record = make_record(ToyAdd(), question, "2026-12-01", "abc", 5)
    assert record == {
        "question_id": record["question_id"],
        "category": "math",
        "task": "toy_add",
        "subtask": "sum",
        "prompt": "What is 2 + 2?",
        "ground_truth": "4",
        "release_date": "2026-12-01",
        "removal_date": "",
        "seed": "abc",
        "difficulty": 5,
        "material": [],
        "a": 2,
    }
    assert len(record["question_id"]) == 16
    same = make_record(ToyAdd(), question, "2027-01-01", "other", 1)
    assert same["question_id"] == record["question_id"]  # the id names the question itself
    for changed in (
        replace(question, subtask="other"),
        replace(question, prompt="What is 2 + 3?"),
        replace(question, ground_truth="5"),
    ):
        assert (
            make_record(ToyAdd(), changed, "2026-12-01", "abc", 5)["question_id"]
            != (record["question_id"])
        )
    assert (
        make_record(ToyEcho(), question, "2026-12-01", "abc", 5)["question_id"]
        != (record["question_id"])
    )
    with_material = replace(question, material=("Some  Text", "some text", "other"))
    assert make_record(ToyAdd(), with_material, "2026-12-01", "abc", 5)["material"] == sorted(
        {material_digest("some text"), material_digest("other")}
    )


# ---------------------------------------------------------------- the manifest and the files


def test_the_manifest_counts_and_hashes_every_file(tmp_path, toy_tasks):
    import hashlib

    build(tmp_path, "2026-12-01", Sources.empty(), per_task=12, difficulty={"toy_echo": 2})
    manifest = refresh(tmp_path, "2027-01-01", Sources.empty(), [])
    on_disk = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest == {**on_disk, "replaced": 12}
    assert on_disk["suite"] == "live"
    assert on_disk["releases"] == ["2026-12-01", "2027-01-01"]
    assert on_disk["latest"] == "2027-01-01"
    assert on_disk["perTask"] == 12 and on_disk["privateFraction"] == "1/6"
    assert on_disk["difficulty"] == {"toy_add": 0, "toy_echo": 2}
    assert on_disk["keyCheck"] == key_check(TEST_SECRET)
    assert set(on_disk["generators"]) == {"ladderbench", "faker", "sympy"}
    # toy_add (first by name at equal age and ease) was replaced: 12 removed, 10 new, 2 held back
    assert on_disk["counts"] == {
        "toy_add": {"category": "math", "active": 10, "removed": 12, "private": 2},
        "toy_echo": {"category": "language", "active": 12, "removed": 0, "private": 0},
    }
    files = {
        p.relative_to(tmp_path).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in tmp_path.rglob("*.jsonl")
    }
    assert on_disk["sha256"] == files
    assert set(files) == {
        "math/toy_add.2027-01-01.jsonl",
        "language/toy_echo.2027-01-01.jsonl",
        "private/math/toy_add.2027-01-01.jsonl",
    }
    lines = (tmp_path / "language/toy_echo.2027-01-01.jsonl").read_text("utf-8").splitlines()
    assert len(lines) == 12 and all(json.loads(line)["task"] == "toy_echo" for line in lines)
    assert lines[0] == json.dumps(json.loads(lines[0]), sort_keys=True, ensure_ascii=False)


def test_with_no_hold_back_there_is_no_private_file(tmp_path, toy_tasks):
    manifest = build(tmp_path, "2026-12-01", Sources.empty(), per_task=5, private_share=Fraction(0))
    assert manifest["privateFraction"] == "0"
    assert all(not name.startswith("private/") for name in manifest["sha256"])
    assert not (tmp_path / "private").exists()
    store = Store.load(tmp_path)
    assert store.private == {} and len(store.public["toy_add"]) == 5


def test_the_hold_back_is_a_share_of_each_tasks_new_questions(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=9, private_share=Fraction(1, 3))
    store = Store.load(tmp_path)
    assert store.private_share == Fraction(1, 3)
    assert {t: len(rs) for t, rs in store.private.items()} == {"toy_add": 3, "toy_echo": 3}
    assert {t: len(rs) for t, rs in store.public.items()} == {"toy_add": 6, "toy_echo": 6}
    held = [r["question_id"] for r in store.private["toy_add"]]
    again = build(tmp_path / "again", "2026-12-01", Sources.empty(), per_task=9)
    assert again["counts"]["toy_add"]["private"] == 2  # round(9 / 6)
    other_release = Store.load(tmp_path / "again")
    assert {r["question_id"] for r in other_release.private["toy_add"]} < set(held) | {
        r["question_id"] for r in other_release.public["toy_add"]
    }


def test_a_question_is_active_from_its_release_until_its_removal(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=12)
    refresh(tmp_path, "2027-01-01", Sources.empty(), [])
    store = Store.load(tmp_path)
    everything = [r for rs in [*store.public.values(), *store.private.values()] for r in rs]
    first = {r["question_id"] for r in everything if r["release_date"] == "2026-12-01"}
    removed = {r["question_id"] for r in everything if r["removal_date"] == "2027-01-01"}
    new = {r["question_id"] for r in everything if r["release_date"] == "2027-01-01"}
    assert store.active("2026-11-30") == []
    for day in ("2026-12-01", "2026-12-31"):
        assert {r["question_id"] for r in store.active(day)} == first
    for day in ("2027-01-01", "2030-01-01"):
        assert {r["question_id"] for r in store.active(day)} == (first - removed) | new
    assert len(new) == 12 and len(store.active("2027-01-01")) == 24  # held-back ones count
    assert [r["task"] for r in store.active("2027-01-01")][:12] == ["toy_add"] * 12
    empty = Store(tmp_path, ["2026-12-01"], categories={"toy_add": "math"})
    assert empty.active("2026-12-01") == []


# ---------------------------------------------------------------- refresh


def test_a_refresh_skips_a_task_no_longer_installed_and_keeps_its_questions(
    tmp_path, toy_tasks, monkeypatch
):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=12)
    only_echo = Registry("live task")
    only_echo.add("toy_echo", ToyEcho())
    import ladderbench.live.release as release

    monkeypatch.setattr(release, "all_tasks", only_echo.items)
    manifest = refresh(tmp_path, "2027-01-01", Sources.empty(), [])  # toy_add would come first
    assert manifest["replaced"] == 12
    assert manifest["counts"]["toy_add"] == {
        "category": "math",
        "active": 12,  # its hold-back published, nothing removed
        "removed": 0,
        "private": 0,
    }
    assert manifest["counts"]["toy_echo"]["removed"] == 12


def test_a_refresh_replaces_tasks_until_a_sixth_is_replaced(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=2)
    manifest = refresh(tmp_path, "2027-01-01", Sources.empty(), [])
    assert manifest["replaced"] == 2  # round(4 / 6) = 1 question: the first task is enough
    build(tmp_path / "two", "2026-12-01", Sources.empty(), per_task=1)
    manifest = refresh(tmp_path / "two", "2027-01-01", Sources.empty(), [])
    assert manifest["replaced"] == 0  # round(2 / 6) = 0: nothing to replace
    assert manifest["counts"]["toy_add"] == {
        "category": "math",
        "active": 1,
        "removed": 0,
        "private": 0,
    }


def test_a_refresh_makes_new_questions_at_the_stores_difficulty_or_the_one_asked(
    tmp_path, toy_tasks
):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=6, difficulty={"toy_add": 4})
    results = [make_row("x", task="toy_add", score=1.0), make_row("y", task="toy_echo", score=0.0)]
    refresh(tmp_path, "2027-01-01", Sources.empty(), results)  # toy_add, the easiest
    refresh(tmp_path, "2027-02-01", Sources.empty(), results, {"toy_echo": 7})
    store = Store.load(tmp_path)
    made = {
        (r["task"], r["release_date"], r["difficulty"])
        for rs in [*store.public.values(), *store.private.values()]
        for r in rs
    }
    assert ("toy_add", "2027-01-01", 4) in made and ("toy_echo", "2027-02-01", 7) in made
    assert store.difficulty == {"toy_add": 4, "toy_echo": 7}
    with pytest.raises(UserError, match=r"^--difficulty: live task 'toy_zebra' is not in "):
        refresh(tmp_path, "2027-03-01", Sources.empty(), [], {"toy_zebra": 1})


def test_a_store_without_a_key_check_takes_the_secret_of_its_first_refresh(tmp_path, toy_tasks):
    """Stores built before the key check: the first refresh records it, later ones compare."""
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=6)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    del manifest["keyCheck"]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    assert refresh(tmp_path, "2027-01-01", Sources.empty(), [])["keyCheck"] == key_check(
        TEST_SECRET
    )


# ---------------------------------------------------------------- a damaged store, one line each


def _edit_manifest(root, change):
    manifest = json.loads((root / "manifest.json").read_text())
    change(manifest)
    (root / "manifest.json").write_text(json.dumps(manifest))


def _put(key, value):
    return lambda root: _edit_manifest(root, lambda m: m.__setitem__(key, value))


def _edit_records(change, task="toy_add"):
    """Rewrite ``task``'s public file through ``change`` (records -> bytes), its sha256 redone."""
    import hashlib

    def apply(root):
        name = f"math/{task}.2026-12-01.jsonl"
        records = [json.loads(line) for line in (root / name).read_text().splitlines()]
        data = change(records)
        (root / name).write_bytes(data)
        _edit_manifest(
            root, lambda m: m["sha256"].__setitem__(name, hashlib.sha256(data).hexdigest())
        )

    return apply


def _lines(records):
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def _first(field, value):
    def change(records):
        records[0][field] = value
        return _lines(records)

    return _edit_records(change)


ADD = "math/toy_add.2026-12-01.jsonl"
LOAD_ERRORS = {
    "not an object": (
        lambda r: (r / "manifest.json").write_text("[]"),
        "M: expected a JSON object",
    ),
    "releases out of order": (
        _put("releases", ["2027-01-01", "2026-12-01"]),
        "M: field 'releases': not in order, or a date twice",
    ),
    "releases not a list": (
        _put("releases", "2026-12-01" * 8),
        "M: field 'releases': expected a list, got '" + ("2026-12-01" * 4)[:39] + "$",
    ),
    "a release not a date": (
        _put("releases", ["2026-12-01", "soon"]),
        "M: field 'releases': 'soon': expected a date like 2026-12-01",
    ),
    "no releases": (_put("releases", []), "M: no releases"),
    "privateFraction missing": (
        lambda r: _edit_manifest(r, lambda m: m.pop("privateFraction")),
        "M: field 'privateFraction' missing",
    ),
    "privateFraction a word": (
        _put("privateFraction", "half"),
        "M: field 'privateFraction': expected a fraction like 1/6, below 1",
    ),
    "privateFraction below 0": (
        _put("privateFraction", "-1/6"),
        "M: field 'privateFraction': expected a fraction like 1/6, below 1",
    ),
    "privateFraction 1": (
        _put("privateFraction", "1"),
        "M: field 'privateFraction': expected a fraction like 1/6, below 1",
    ),
    "difficulty a list": (_put("difficulty", [1]), "M: field 'difficulty': expected an object"),
    "difficulty 1001": (
        _put("difficulty", {"toy_add": 1001}),
        r"M: field 'difficulty.toy_add': expected a whole number 0\.\.1000",
    ),
    "difficulty below 0": (
        _put("difficulty", {"toy_add": -1}),
        r"M: field 'difficulty.toy_add': expected a whole number 0\.\.1000",
    ),
    "difficulty true": (
        _put("difficulty", {"toy_add": True}),
        r"M: field 'difficulty.toy_add': expected a whole number 0\.\.1000",
    ),
    "perTask 10001": (
        _put("perTask", 10001),
        r"M: field 'perTask': expected a whole number 1\.\.10000",
    ),
    "perTask 0": (_put("perTask", 0), r"M: field 'perTask': expected a whole number 1\.\.10000"),
    "perTask missing": (
        lambda r: _edit_manifest(r, lambda m: m.pop("perTask")),
        r"M: field 'perTask': expected a whole number 1\.\.10000",
    ),
    "sha256 a list": (_put("sha256", []), "M: field 'sha256': expected an object, got \\[\\]"),
    "counts a list": (_put("counts", []), "M: field 'counts': expected an object, got \\[\\]"),
    "a category unknown": (
        lambda r: _edit_manifest(r, lambda m: m["counts"]["toy_add"].update(category="poetry")),
        r"M: field 'counts.toy_add.category': expected one of \('math', 'reasoning'",
    ),
    "a sha256 a number": (
        lambda r: _edit_manifest(r, lambda m: m["sha256"].__setitem__(ADD, 5)),
        f"M: field 'sha256.{ADD}': expected a sha256 in hex",
    ),
    "a sha256 in capitals": (
        lambda r: _edit_manifest(
            r, lambda m: m["sha256"].__setitem__(ADD, m["sha256"][ADD].upper())
        ),
        f"M: field 'sha256.{ADD}': expected a sha256 in hex",
    ),
    "a file of no task": (
        lambda r: _edit_manifest(
            r, lambda m: m["sha256"].__setitem__("math/toy_add.2026-12-01.json", "0" * 64)
        ),
        "M: file 'math/toy_add.2026-12-01.json': expected CATEGORY/TASK.RELEASE.jsonl",
    ),
    "a file under another category": (
        lambda r: _edit_manifest(
            r, lambda m: m["sha256"].__setitem__("coding/toy_add.jsonl", "0" * 64)
        ),
        "M: file 'coding/toy_add.jsonl': task 'toy_add' is not in 'counts' under 'coding'",
    ),
    "two files for a task": (
        lambda r: _edit_manifest(
            r, lambda m: m["sha256"].__setitem__("math/toy_add.jsonl", "0" * 64)
        ),
        "M: field 'sha256': two files for task 'toy_add'",
    ),
    "a file changed": (
        lambda r: (r / ADD).write_bytes((r / ADD).read_bytes() + b"\n"),
        "F: sha256 does not match manifest.json; the file was changed",
    ),
    "a file missing": (lambda r: (r / ADD).unlink(), "F: listed in manifest.json but missing"),
    "a file not UTF-8": (
        _edit_records(lambda rs: _lines(rs) + b"\xff\n"),
        "F: not UTF-8 text \\(invalid start byte\\)",
    ),
    "a record twice, after a blank line": (
        _edit_records(lambda rs: _lines(rs[:2]) + b"\n" + _lines(rs[:1])),
        "F:4: question_id '[0-9a-f]{16}' appears twice",
    ),
    "a field missing": (
        _edit_records(lambda rs: _lines([{k: v for k, v in rs[0].items() if k != "seed"}])),
        "F:1: field 'seed' missing",
    ),
    "a prompt a number": (_first("prompt", 5), "F:1: field 'prompt': expected a string"),
    "an id true": (_first("question_id", True), "F:1: field 'question_id': expected a string"),
    "a difficulty a string": (
        _first("difficulty", "3"),
        "F:1: field 'difficulty': expected a whole number",
    ),
    "a difficulty true": (
        _first("difficulty", True),
        "F:1: field 'difficulty': expected a whole number",
    ),
    "material a string": (_first("material", "abc"), "F:1: field 'material': expected a list"),
    "material of numbers": (
        _first("material", ["a", 1]),
        "F:1: field 'material': expected a list of strings",
    ),
    "a release date impossible": (
        _first("release_date", "2026-02-30"),
        "F:1: field 'release_date': '2026-02-30': expected a date",
    ),
    "a removal date not a date": (
        _first("removal_date", "never"),
        "F:1: field 'removal_date': 'never': expected a date",
    ),
    "a record of another task": (
        _first("task", "toy_echo"),
        "F:1: field 'task': 'toy_echo' in the file of 'toy_add'",
    ),
    "a record of another category": (
        _first("category", "language"),
        "F:1: field 'category': 'language', the task's is 'math'",
    ),
}


@pytest.mark.parametrize("case", LOAD_ERRORS)
def test_a_damaged_store_names_the_file_line_and_field(tmp_path, toy_tasks, case):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=3)
    damage, message = LOAD_ERRORS[case]
    damage(tmp_path)
    where = {"M": str(tmp_path / "manifest.json"), "F": str(tmp_path / ADD)}
    pattern = "^" + re.escape(where[message[0]]) + message[1:]
    with pytest.raises(UserError, match=pattern):
        Store.load(tmp_path)


def test_what_a_manifest_may_leave_out_or_set_at_its_bounds(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=3)

    def change(manifest):
        manifest["perTask"] = 10000
        manifest["privateFraction"] = "0"
        manifest["difficulty"] = {"toy_add": 1000, "toy_echo": 0}
        del manifest["keyCheck"]

    _edit_manifest(tmp_path, change)
    store = Store.load(tmp_path)
    assert (store.per_task, store.private_share, store.key_check) == (10000, 0, "")
    assert store.difficulty == {"toy_add": 1000, "toy_echo": 0}
    _edit_manifest(tmp_path, lambda m: m.pop("difficulty"))
    assert Store.load(tmp_path).difficulty == {}
    _first("subtask", None)(tmp_path)
    _first("difficulty", None)(tmp_path)
    _first("removal_date", "2027-01-01")(tmp_path)
    record = Store.load(tmp_path).public["toy_add"][0]
    assert (record["subtask"], record["difficulty"], record["removal_date"]) == (
        None,
        None,
        "2027-01-01",
    )
    assert Store.load(tmp_path).where[record["question_id"]] == f"{tmp_path / ADD}:1"


# ---------------------------------------------------------------- build's own checks


def test_build_refuses_bad_settings_before_writing_anything(tmp_path, toy_tasks, monkeypatch):
    root = tmp_path / "store"
    for per_task in (0, 10001):
        with pytest.raises(UserError, match=rf"^--per-task {per_task}: must be 1\.\.10000$"):
            build(root, "2026-12-01", Sources.empty(), per_task=per_task)
    for names, difficulty in ((["toy_add", "nope"], None), (None, {"nope": 1})):
        with pytest.raises(
            UserError, match=r"^unknown live task 'nope'; known: toy_add, toy_echo$"
        ):
            build(root, "2026-12-01", Sources.empty(), names=names, difficulty=difficulty)
    with pytest.raises(UserError, match=r"^--difficulty toy_add=-1: must be at least 0$"):
        build(root, "2026-12-01", Sources.empty(), per_task=2, difficulty={"toy_add": -1})
    with pytest.raises(UserError, match=r"^--release '2026-12-32': expected a date"):
        build(root, "2026-12-32", Sources.empty())
    import ladderbench.live.release as release

    monkeypatch.setattr(release, "all_tasks", Registry("live task").items)
    with pytest.raises(UserError, match=r"^no live tasks are installed$"):
        build(root, "2026-12-01", Sources.empty())
    assert not (root / "manifest.json").exists()


def test_a_refresh_of_a_folder_that_is_no_store_makes_nothing(tmp_path):
    with pytest.raises(
        UserError, match=r"not a live release folder \(no manifest.json\); run 'live build'"
    ):
        refresh(tmp_path / "none", "2027-01-01", Sources.empty(), [])
    assert not (tmp_path / "none").exists()


def test_build_takes_only_the_tasks_named_at_the_release_difficulty(
    tmp_path, toy_tasks, monkeypatch
):
    monkeypatch.setitem(RELEASE_DIFFICULTY, "toy_echo", 3)
    manifest = build(tmp_path, "2026-12-01", Sources.empty(), per_task=2, names=["toy_echo"])
    assert list(manifest["counts"]) == ["toy_echo"] and manifest["difficulty"] == {"toy_echo": 3}
    assert {r["difficulty"] for r in Store.load(tmp_path).public["toy_echo"]} == {3}


def test_the_manifest_names_a_missing_generator_library(monkeypatch):
    import importlib.metadata

    real = importlib.metadata.version

    def version(name):
        if name == "faker":
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    assert generator_versions()["faker"] == real("faker")
    monkeypatch.setattr(importlib.metadata, "version", version)
    found = generator_versions()
    assert found["faker"] == "not installed"
    assert found["sympy"] == real("sympy") and found["ladderbench"] == real("ladderbench")


def _six_toys(monkeypatch):
    toys = Registry("live task")
    for n in range(6):
        toys.add(f"toy_{n}", type(f"Toy{n}", (ToyAdd,), {"name": f"toy_{n}"})())
    import ladderbench.live.release as release

    monkeypatch.setattr(registry, "TASKS", toys)
    monkeypatch.setattr(release, "all_tasks", toys.items)


def test_a_refresh_stops_once_a_sixth_is_replaced_and_counts_every_task_it_replaced(
    tmp_path, monkeypatch
):
    _six_toys(monkeypatch)
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=1)
    _edit_manifest(tmp_path, lambda m: m.__setitem__("perTask", 30))  # new tasks get 30 each
    manifest = refresh(tmp_path, "2027-01-01", Sources.empty(), [])
    assert manifest["replaced"] == 1  # a sixth of 6: toy_0's one question, and no more
    assert [t for t, c in manifest["counts"].items() if c["removed"]] == ["toy_0"]
    manifest = refresh(tmp_path, "2027-02-01", Sources.empty(), [])
    # 35 active, a budget of 6: the five oldest tasks (one question each) are not enough, so
    # toy_0 (30 questions, from 2027-01-01) goes too
    assert manifest["replaced"] == 35
    assert all(c["active"] == 30 - c["private"] for c in manifest["counts"].values())


def test_a_refresh_on_the_latest_release_date_is_refused(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=2)
    with pytest.raises(
        UserError, match=r"^--release 2026-12-01: must be after the latest release 2026-12-01$"
    ):
        refresh(tmp_path, "2026-12-01", Sources.empty(), [])


def test_a_published_copy_cannot_be_refreshed_and_says_why(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=12)
    for path in (tmp_path / "private").rglob("*.jsonl"):
        path.unlink()
    message = (
        f"{tmp_path}: the private hold-back is missing (a published copy); "
        "refresh needs the maintainer's store"
    )
    with pytest.raises(UserError, match=f"^{re.escape(message)}$"):
        refresh(tmp_path, "2027-01-01", Sources.empty(), [])


def test_a_task_without_results_counts_as_the_hardest(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=6)
    refresh(tmp_path, "2027-01-01", Sources.empty(), [make_row("x", task="toy_echo", score=0.5)])
    store = Store.load(tmp_path)
    assert {r["task"] for rs in store.public.values() for r in rs if r["removal_date"]} == {
        "toy_echo"
    }


def test_a_task_with_no_question_is_replaced_last(tmp_path, toy_tasks):
    """A task the manifest counts but names no file for has no questions; its age is the new
    release's, so every task with questions goes first."""
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=12, private_share=Fraction(0))
    (tmp_path / ADD).unlink()
    _edit_manifest(tmp_path, lambda m: m["sha256"].pop(ADD))
    assert Store.load(tmp_path).active("2026-12-01") == Store.load(tmp_path).public["toy_echo"]
    manifest = refresh(tmp_path, "2027-01-01", Sources.empty(), [])
    assert manifest["replaced"] == 12 and manifest["counts"]["toy_echo"]["removed"] == 12
    assert manifest["counts"]["toy_add"] == {
        "category": "math",
        "active": 0,
        "removed": 0,
        "private": 0,
    }
    assert (tmp_path / "math/toy_add.2027-01-01.jsonl").read_bytes() == b""


def test_a_store_without_difficulties_refreshes_at_difficulty_0(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=6, difficulty={"toy_add": 5})
    _edit_manifest(tmp_path, lambda m: m.pop("difficulty"))
    manifest = refresh(tmp_path, "2027-01-01", Sources.empty(), [])
    assert manifest["difficulty"] == {"toy_add": 0}
    new = [r for r in Store.load(tmp_path).public["toy_add"] if r["release_date"] == "2027-01-01"]
    assert new and {r["difficulty"] for r in new} == {0}


def test_a_task_that_repeats_itself_often_still_makes_its_count(tmp_path, monkeypatch):
    toys = Registry("live task")
    toys.add("toy_twice", ToyTwice())
    import ladderbench.live.release as release

    monkeypatch.setattr(release, "all_tasks", toys.items)
    manifest = build(
        tmp_path, "2026-12-01", Sources.empty(), per_task=40, difficulty={"toy_twice": 3}
    )
    assert (
        manifest["counts"]["toy_twice"]["active"] + manifest["counts"]["toy_twice"]["private"] == 40
    )  # about 80 tries, half of them the repeat


class ToyFirstPassage(ToyAdd):
    """Takes the first passage it is told is unused: it relies on the release marking what
    earlier questions drew on as used."""

    name = "toy_first"
    category = "language"

    def generate(self, rng, sources, difficulty=0):
        text = sources.fresh(PASSAGES)[0]
        return Question(prompt=f"Copy: {text}", ground_truth=text.upper(), material=(text,))


def test_a_task_is_told_the_material_earlier_questions_drew_on(tmp_path, monkeypatch):
    toys = Registry("live task")
    toys.add("toy_first", ToyFirstPassage())
    import ladderbench.live.release as release

    monkeypatch.setattr(release, "all_tasks", toys.items)
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=3, private_share=Fraction(0))
    records = Store.load(tmp_path).public["toy_first"]
    assert [r["prompt"] for r in records] == [f"Copy: {text}" for text in PASSAGES[:3]]


def test_the_hold_back_cannot_be_drawn_from_any_question_seed(tmp_path, toy_tasks):
    """A question's seed is published with it: the hold-back must come from a seed of its own,
    or anyone could tell which questions of a release were held back."""
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=12, names=["toy_add"])
    store = Store.load(tmp_path)
    records = store.public["toy_add"] + store.private["toy_add"]
    seeds = [question_seed(TEST_SECRET, "2026-12-01", "toy_add", i) for i in range(12)]
    in_order = sorted(records, key=lambda r: seeds.index(r["seed"]))
    held = {r["question_id"] for r in store.private["toy_add"]}
    for seed in seeds:
        assert {r["question_id"] for r in seeded_rng(seed).sample(in_order, 2)} != held


def test_a_published_copy_reads_every_public_file_whatever_their_order(tmp_path, passage_tasks):
    """private/ sorts before reasoning/: a missing hold-back file must not end the reading."""
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=6)
    for path in (tmp_path / "private").rglob("*.jsonl"):
        path.unlink()
    store = Store.load(tmp_path)
    assert store.private_missing and store.private == {}
    assert {t: len(rs) for t, rs in store.public.items()} == {"toy_passage": 5, "toy_quoter": 5}


def test_questions_are_written_as_readable_utf8_with_sorted_keys(tmp_path, monkeypatch):
    class ToyCafe(ToyEcho):
        name = "toy_cafe"

        def generate(self, rng, sources, difficulty=0):
            word = f"café{rng.randrange(10**6)}"
            return Question(prompt=f"Répète {word}.", ground_truth=word, fields={"zz": 1, "aa": 2})

    toys = Registry("live task")
    toys.add("toy_cafe", ToyCafe())
    import ladderbench.live.release as release

    monkeypatch.setattr(release, "all_tasks", toys.items)
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=2, private_share=Fraction(0))
    line = (tmp_path / "language/toy_cafe.2026-12-01.jsonl").read_bytes().splitlines()[0]
    assert "Répète café".encode() in line
    assert list(json.loads(line)) == sorted(json.loads(line))


def test_the_sweep_removes_only_what_a_save_wrote(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=6)
    leftover = tmp_path / "math" / ".toy_add.2027-01-01.jsonl.4242.tmp"
    leftover.write_text("half a file")
    mine = [
        tmp_path / "math" / ".notes",
        tmp_path / "math" / "draft.tmp",
        tmp_path / "math" / "a.txt",
    ]
    for path in mine:
        path.write_text("the maintainer's")
    refresh(tmp_path, "2027-01-01", Sources.empty(), [])
    assert not leftover.exists()
    assert all(path.read_text() == "the maintainer's" for path in mine)


def test_a_stale_file_that_cannot_be_removed_is_left_and_swept_later(
    tmp_path, toy_tasks, monkeypatch
):
    from pathlib import Path

    build(tmp_path, "2026-12-01", Sources.empty(), per_task=6)
    real_unlink = Path.unlink

    def refusing(path, *args, **kwargs):
        if path.suffix == ".jsonl":
            raise PermissionError(13, "Permission denied")
        return real_unlink(path, *args, **kwargs)

    monkeypatch.setattr(Path, "unlink", refusing)
    assert refresh(tmp_path, "2027-01-01", Sources.empty(), [])["latest"] == "2027-01-01"
    assert (tmp_path / "math/toy_add.2026-12-01.jsonl").exists()  # left behind, ignored
    assert Store.load(tmp_path).latest == "2027-01-01"
    monkeypatch.setattr(Path, "unlink", real_unlink)
    refresh(tmp_path, "2027-02-01", Sources.empty(), [])
    assert not (tmp_path / "math/toy_add.2026-12-01.jsonl").exists()


def test_a_store_in_use_names_the_store(tmp_path, toy_tasks):
    from ladderbench.files import ExclusiveLock

    build(tmp_path, "2026-12-01", Sources.empty(), per_task=2)
    in_use = rf"^live store {re.escape(str(tmp_path))} is in use"
    with (
        ExclusiveLock(tmp_path / "manifest.json", "another refresh"),
        pytest.raises(UserError, match=in_use),
    ):
        refresh(tmp_path, "2027-01-01", Sources.empty(), [])


def test_a_file_that_cannot_be_read_is_one_line(tmp_path, toy_tasks, monkeypatch):
    from pathlib import Path

    build(tmp_path, "2026-12-01", Sources.empty(), per_task=2)
    real = Path.read_bytes

    def failing(path):
        if path.suffix == ".jsonl":
            raise OSError(5, "Input/output error")
        return real(path)

    monkeypatch.setattr(Path, "read_bytes", failing)
    with pytest.raises(UserError, match=r"^.*\.jsonl: cannot read \(Input/output error\)$"):
        Store.load(tmp_path)


def test_a_line_that_is_not_json_names_its_line(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=3)
    _edit_records(lambda rs: _lines(rs[:1]) + b"{oops\n" + _lines(rs[1:]))(tmp_path)
    with pytest.raises(UserError, match=rf"^{re.escape(str(tmp_path / ADD))}:2: not valid JSON"):
        Store.load(tmp_path)


def test_build_makes_50_questions_a_task_unless_told_and_at_most_10000(tmp_path, toy_tasks):
    manifest = build(tmp_path / "a", "2026-12-01", Sources.empty(), names=["toy_add"])
    assert manifest["perTask"] == 50 and manifest["counts"]["toy_add"]["active"] == 42
    manifest = build(
        tmp_path / "b",
        "2026-12-01",
        Sources.empty(),
        per_task=10000,
        private_share=Fraction(0),
        names=["toy_add"],
    )
    assert manifest["counts"]["toy_add"]["active"] == 10000


def test_a_hold_back_whose_public_file_is_gone_is_still_published(tmp_path, toy_tasks):
    build(tmp_path, "2026-12-01", Sources.empty(), per_task=12)
    held = {r["question_id"] for r in Store.load(tmp_path).private["toy_add"]}
    (tmp_path / ADD).unlink()
    _edit_manifest(tmp_path, lambda m: m["sha256"].pop(ADD))
    manifest = refresh(tmp_path, "2027-01-01", Sources.empty(), [])
    assert manifest["replaced"] == 2  # toy_add's two, published and replaced: a sixth of 14
    published = Store.load(tmp_path).public["toy_add"]
    assert {r["question_id"] for r in published if r["removal_date"] == "2027-01-01"} == held
