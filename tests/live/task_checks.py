"""The scaffolding the live-task tests share.

The test files import this module by its plain name (``import task_checks as checks``, the
builders and constants also ``from task_checks import ...``): pytest puts the folder of each test
file on ``sys.path`` (the folders have no ``__init__.py``); ``live.task_checks`` would load a
second copy. What holds for every task (determinism in process, across releases and byte for byte
under other ``PYTHONHASHSEED``s, a reference that scores 1, scores in [0, 1] on any reply, a
shipped ladder of real questions that passes the probe) is checked once, over the registry, in
``test_task_contracts.py``. What is particular to a task stays in its own file: the independent
re-derivation of every ground truth from the prompt (deliberately written apart from the
generator), and the reply formats, near misses and partial credit its scorer must get right. This
module holds what both need: building a question and its stored record, and the checks behind the
contracts.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from importlib import resources
from pathlib import Path

import ladderbench.live
from cli_helpers import python_output
from ladderbench.live.base import Question, Sources, question_rng

RELEASE = "2026-12-01"
OTHER_RELEASE = "2027-01-01"
INDICES = range(64)  # the questions every re-derivation test walks
HARDER_LEVELS = (*range(1, 9), 12, 20)  # the difficulties every task's re-derivation walks
DIGEST_COUNT = 16  # questions 0..15 are compared across interpreters
DATA = Path(ladderbench.live.__file__).parent / "data"  # the built-in lexicon, corpus...

Make = Callable[..., Question]  # a test file's make(index, release=RELEASE)


def make_question(
    task, index: int, release: str = RELEASE, sources: Sources | None = None, difficulty: int = 0
) -> Question:
    """Question ``index`` of ``release`` at ``difficulty``, drawn from its own seeded rng
    (built-in data unless ``sources`` are given)."""
    rng = question_rng(release, task.name, index)
    return task.generate(rng, sources or Sources.empty(), difficulty)


def record(q: Question) -> dict:
    """The record a release stores for ``q``: what ``score`` and ``reference`` receive."""
    return {"ground_truth": q.ground_truth, "subtask": q.subtask, **q.fields}


def tagged(lines: Iterable[str]) -> str:
    """A reply with ``lines`` inside ``<solution>`` tags, one per line."""
    return "<solution>\n" + "\n".join(lines) + "\n</solution>"


# ---------------------------------------------------------------- scoring


def assert_reference_scores_one(task, records: Iterable[dict]) -> None:
    """The task's own reference answer scores 1.0 on every record."""
    for rec in records:
        assert task.score(rec, task.reference(rec)).score == 1.0, (
            rec.get("subtask"),
            rec["ground_truth"],
        )


def assert_scores_in_range(task, records: Iterable[dict], replies: Sequence[str]) -> None:
    """The body of a scorer property test: every reply scores within [0, 1] against every
    record (and scoring never raises)."""
    for rec in records:
        for reply in replies:
            s = task.score(rec, reply).score
            assert 0.0 <= s <= 1.0, (reply, s)


# ---------------------------------------------------------------- determinism


def assert_regenerates(task, make: Make, indices: Iterable[int]) -> None:
    """A fresh generation of each question equals the test file's ``make(index)``."""
    for index in indices:
        assert make_question(task, index) == make(index), index


def distinct_prompts(make: Make, indices: Sequence[int]) -> int:
    """How many different prompts the questions at ``indices`` have."""
    return len({make(index).prompt for index in indices})


def shared_prompts(make: Make, indices: Sequence[int], other: str = OTHER_RELEASE) -> set[str]:
    """Prompts of the questions at ``indices`` that ``other`` release also asks there."""
    return {make(i).prompt for i in indices} & {make(i, other).prompt for i in indices}


def changed_prompts(make: Make, indices: Iterable[int], other: str = OTHER_RELEASE) -> int:
    """At how many of ``indices`` the ``other`` release asks another prompt."""
    return sum(make(i, other).prompt != make(i).prompt for i in indices)


def question_digest(task, questions: Iterable[Question], with_reference: bool = False) -> str:
    """sha256 over each question's prompt, ground truth, subtask and fields (their repr: order
    and types count), and with ``with_reference`` the reference answer to its record too."""
    h = hashlib.sha256()
    for q in questions:
        h.update(repr((q.prompt, q.ground_truth, q.subtask, q.fields)).encode() + b"\n")
        if with_reference:
            h.update(task.reference(record(q)).encode() + b"\n")
    return h.hexdigest()


def fresh_registry_digests(release: str = RELEASE) -> str:
    """JSON of ``{task: question_digest of questions 0..15, references included}`` for every
    registered task, built afresh (run in a child interpreter by ``registry_digests_under``)."""
    from ladderbench.live.registry import TASKS

    digests = {}
    for name in TASKS.names():
        task = TASKS.get(name)
        questions = [make_question(task, index, release) for index in range(DIGEST_COUNT)]
        digests[name] = question_digest(task, questions, with_reference=True)
    return json.dumps(digests)


def registry_digests_under(hash_seed: str, release: str = RELEASE) -> dict[str, str]:
    """``fresh_registry_digests`` as a fresh interpreter whose ``PYTHONHASHSEED`` is
    ``hash_seed`` computes it: one child for all tasks."""
    code = f"import task_checks\nprint(task_checks.fresh_registry_digests({release!r}))\n"
    return json.loads(python_output(code, hash_seed=hash_seed, path=[Path(__file__).parent]))


def task_digest(name: str, difficulty: int, count: int, release: str = RELEASE) -> str:
    """``question_digest`` (references included) of task ``name``'s questions 0..count-1 at
    ``difficulty``."""
    from ladderbench.live.registry import TASKS

    task = TASKS.get(name)
    questions = [make_question(task, i, release, difficulty=difficulty) for i in range(count)]
    return question_digest(task, questions, with_reference=True)


def task_digest_under(hash_seed: str, name: str, difficulty: int, count: int) -> str:
    """``task_digest`` as a fresh interpreter whose ``PYTHONHASHSEED`` is ``hash_seed``
    computes it."""
    code = (
        f"import task_checks\nprint(task_checks.task_digest({name!r}, {difficulty!r}, {count!r}))\n"
    )
    return python_output(code, hash_seed=hash_seed, path=[Path(__file__).parent])


# ---------------------------------------------------------------- the shipped answer ladder


def load_ladder(task_name: str) -> list:
    """The rungs of the task's shipped answer ladder, which loads without warnings."""
    from ladderbench.probe import load_rungs

    ladders = Path(str(resources.files("ladderbench.probe") / "ladders"))
    rungs, warnings = load_rungs(ladders / f"live.{task_name}.jsonl")
    assert warnings == []
    return rungs


def assert_rungs_are_questions(rungs: Iterable, task_name: str, make: Make) -> None:
    """Every rung's case is a real question of the release: case ``task/index`` carries that
    question's record and prompt."""
    for rung in rungs:
        index = int(rung.case_id.split("/")[1])
        assert rung.case_id == f"{task_name}/{index}"
        q = make(index)
        assert rung.context == {**record(q), "question": q.prompt}


def assert_question_ladder_passes(task, make: Make, min_cases: int = 5) -> None:
    """The task's shipped ladder is made of real questions of the release (see
    ``assert_rungs_are_questions``) and its scorer passes the probe on it, named
    ``live.<task>``, with at least ``min_cases`` cases."""
    rungs = load_ladder(task.name)
    assert_rungs_are_questions(rungs, task.name, make)
    assert_probe_passes(task, rungs, f"live.{task.name}", min_cases)


def assert_probe_passes(task, rungs: list, name: str, min_cases: int = 0) -> None:
    """The task's scorer passes the grader probe (3 repeats) on ``rungs``: no case is flat or
    inverted, the gate passes, and at least ``min_cases`` cases were audited."""
    from ladderbench.probe import audit, gate, probe

    ledger = probe(rungs, lambda case, answer: task.score(case, answer).score, 3, name)
    report = audit(ledger)
    assert [c.case_id for c in report.cases if c.flat or c.inverted] == []
    assert gate(ledger, report).passed
    assert len(report.cases) >= min_cases
