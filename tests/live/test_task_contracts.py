"""The contract every registered live task keeps, checked over ``TASKS``: a task added to the
registry is held to it without a line of test code. Its own test file keeps what is particular to
it (the independent re-derivation of its ground truths, its reply formats, near misses and partial
credit); ``tests/test_contracts.py`` holds the scoring contract shared with suites, puzzle
families, adapters and graders."""

from __future__ import annotations

from functools import cache

import pytest
import task_checks as checks
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import INDICES, RELEASE, make_question, record

from ladderbench.execution import sandbox
from ladderbench.live.base import Question
from ladderbench.live.registry import TASKS
from ladderbench.live.release import RESERVED

NAMES = TASKS.names()
# The child interpreters' PYTHONHASHSEEDs (each task's file used to pick one or two of these).
HASH_SEEDS = ("0", "777", "4242", "4321", "12345")
# Scorers that run the reply as code in the sandbox take fewer random replies.
EXAMPLES = {"code_completion": 150, "code_generation": 150}
DEFAULT_EXAMPLES = 300


@pytest.fixture(autouse=True)
def run_trusted_code_without_namespaces():
    """The coding tasks run their own reference code (and arbitrary text): where the machine
    cannot make namespaces they still run, without them (test_sandbox covers the refusal)."""
    with sandbox.unsafe_allowed(not sandbox.isolation().sealed):
        yield


@cache
def make(name: str, index: int, release: str = RELEASE) -> Question:
    return make_question(TASKS.get(name), index, release)


def maker(name: str):
    """``make(index, release=RELEASE)`` for one task, as the task_checks helpers take it."""
    return lambda index, release=RELEASE: make(name, index, release)


@cache
def digests_under(hash_seed: str) -> dict[str, str]:
    """Every task's digest as a fresh interpreter under ``hash_seed`` makes it (one child per
    seed, shared by the tasks' tests)."""
    return checks.registry_digests_under(hash_seed)


# ---------------------------------------------------------------- determinism


@pytest.mark.parametrize("name", NAMES)
def test_regenerates_in_process(name: str) -> None:
    """A fresh generation of each of the 64 questions equals the first."""
    checks.assert_regenerates(TASKS.get(name), maker(name), INDICES)


@pytest.mark.parametrize("name", NAMES)
def test_every_question_has_its_own_prompt(name: str) -> None:
    assert checks.distinct_prompts(maker(name), INDICES) == len(INDICES)


@pytest.mark.parametrize("name", NAMES)
def test_another_release_asks_other_questions(name: str) -> None:
    """No prompt of questions 0..15 comes back anywhere in 0..15 of the next release, and at
    most 4 of the 64 questions stay the same at their index."""
    assert not checks.shared_prompts(maker(name), range(16))
    assert checks.changed_prompts(maker(name), INDICES) >= len(INDICES) - 4


@pytest.mark.parametrize("name", NAMES)
def test_same_bytes_under_other_hash_seeds(name: str) -> None:
    """Questions 0..15 and their references come out byte for byte the same in fresh
    interpreters under other ``PYTHONHASHSEED``s: no generator leans on set order or ``hash()``."""
    task = TASKS.get(name)
    here = checks.question_digest(
        task, [make(name, i) for i in range(checks.DIGEST_COUNT)], with_reference=True
    )
    for hash_seed in HASH_SEEDS:
        assert digests_under(hash_seed)[name] == here, hash_seed


@pytest.mark.parametrize("name", NAMES)
def test_harder_questions_are_the_same_bytes_under_another_hash_seed(name: str) -> None:
    """The difficulty knob too leans on no set order or ``hash()``: questions 0..1 at d=6."""
    assert checks.task_digest_under("4242", name, 6, 2) == checks.task_digest(name, 6, 2)


@pytest.mark.parametrize("name", NAMES)
def test_harder_questions_are_new_and_their_reference_scores_one(name: str) -> None:
    """At d = 1, 4 and 8 every task generates distinct questions, other than d=0's, that its own
    reference answers perfectly."""
    task = TASKS.get(name)
    easy = {make(name, i).prompt for i in range(3)}
    for d in (1, 4, 8):
        questions = [checks.make_question(task, i, difficulty=d) for i in range(3)]
        assert len({q.prompt for q in questions}) == 3 and not easy & {q.prompt for q in questions}
        assert not {f for q in questions for f in q.fields} & set(
            RESERVED
        )  # a release can store it
        checks.assert_reference_scores_one(task, [record(q) for q in questions])


# ---------------------------------------------------------------- scoring


@pytest.mark.parametrize("name", NAMES)
def test_reference_scores_one(name: str) -> None:
    checks.assert_reference_scores_one(TASKS.get(name), [record(make(name, i)) for i in INDICES])


@pytest.mark.parametrize("name", NAMES)
def test_score_never_raises(name: str) -> None:
    """Any text, bare, in ``<solution>`` tags, in tags and braces, or fenced, scores within
    [0, 1] against any question (0, 3 and 5 drawn most often) and scoring never raises."""
    task = TASKS.get(name)
    index = st.one_of(st.sampled_from((0, 3, 5)), st.integers(0, len(INDICES) - 1))

    @settings(max_examples=EXAMPLES.get(name, DEFAULT_EXAMPLES), deadline=None)
    @given(text=st.text(), index=index)
    def check(text: str, index: int) -> None:
        replies = [
            text,
            f"<solution>{text}</solution>",
            f"<solution>{{{text}}}</solution>",
            f"```\n{text}\n```",
        ]
        checks.assert_scores_in_range(task, [record(make(name, index))], replies)

    check()


# ---------------------------------------------------------------- the shipped answer ladder


@pytest.mark.parametrize("name", NAMES)
def test_shipped_ladder_is_real_questions_and_passes_the_probe(name: str) -> None:
    """``live.<task>.jsonl`` loads without warnings, each case is question ``task/index`` of the
    release with its record and prompt, and the scorer passes the probe on it (5+ cases)."""
    checks.assert_question_ladder_passes(TASKS.get(name), maker(name), min_cases=5)
