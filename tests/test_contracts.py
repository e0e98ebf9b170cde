"""The shared contracts, checked over every registry: each suite, puzzle family, live task, model
adapter and built-in grader is held to the same rules, so a new entry is covered by registering
it. The generation contracts of puzzle families and live tasks (determinism, hash-seed
independence, answer tags, references, score ranges, shipped ladders) are checked the same way, over
the registries, in tests/puzzles/test_family_contracts.py and tests/live/test_task_contracts.py
(there the shared helpers import by their plain names). What is particular to an entry (its
independent re-derivation of answers, its near misses) stays in its own test file."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from ladderbench.errors import UserError
from ladderbench.execution import sandbox
from ladderbench.items import Item, Verdict
from ladderbench.live.base import Sources, question_rng
from ladderbench.live.registry import TASKS
from ladderbench.live.release import build
from ladderbench.models.base import ModelAdapter, Request
from ladderbench.models.registry import ADAPTERS, BASELINES, make_adapter
from ladderbench.probe.graders import GRADERS, Grader
from ladderbench.probe.probe import case_item
from ladderbench.probe.rungs import load_rungs
from ladderbench.puzzles.base import instance_rng
from ladderbench.puzzles.registry import FAMILIES
from ladderbench.puzzles.suite import score_puzzle
from ladderbench.suites import SUITES, make_suite, parse_summary
from ladderbench.summaries import Summary

RELEASE = "2026-12-01"
LADDERS = Path(__file__).parent.parent / "src" / "ladderbench" / "probe" / "ladders"


def assert_verdict(verdict: Verdict) -> None:
    """The one scoring contract: a Verdict, score in [0, 1], passed exactly at a full score."""
    assert isinstance(verdict, Verdict)
    assert 0.0 <= verdict.score <= 1.0, verdict
    assert verdict.passed == (verdict.score >= 1.0), verdict
    assert verdict.extracted is None or isinstance(verdict.extracted, str)
    assert isinstance(verdict.explanation, str)


@pytest.fixture(autouse=True)
def trusted_code_runs_without_namespaces():
    """The live coding tasks run their own reference code; where the machine cannot make
    namespaces they still run, without them (test_sandbox covers the refusal)."""
    with sandbox.unsafe_allowed(not sandbox.isolation().sealed):
        yield


@pytest.fixture(scope="module")
def live_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("live") / "store"
    build(store, RELEASE, Sources.empty(), per_task=3, private_share=0.0)
    return store


def suite_options(name: str, live_store: Path) -> dict[str, object]:
    return {
        "static": {"limit": 2},
        "puzzles": {"tiers": [0, 3], "seeds": [1, 2]},
        "live": {"live_dir": live_store, "limit": 2, "unsafe_allow_code": True},
    }[name]


# ---------------------------------------------------------------- suites


@pytest.mark.parametrize("name", SUITES.names())
def test_suite_describes_itself(name: str) -> None:
    spec = SUITES.get(name)
    assert spec.name == name
    assert dataclasses.is_dataclass(spec.config) and spec.options()
    assert issubclass(spec.summary, Summary)
    empty = spec.summarise([], 1)
    assert isinstance(empty, spec.summary)


@pytest.mark.parametrize("name", SUITES.names())
def test_suite_refuses_an_option_it_does_not_take(name: str) -> None:
    with pytest.raises(UserError) as info:
        make_suite(name, no_such_option=1)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"--no-such-option does not apply to --suite {name} (it takes: ")


@pytest.mark.parametrize("name", SUITES.names())
def test_suite_scores_oracle_and_echo(name: str, live_store: Path) -> None:
    suite = make_suite(name, **suite_options(name, live_store))
    items = suite.items()
    assert items and len({i.id for i in items}) == len(items)
    echo_passed = 0
    for item in items:
        oracle = suite.grade(item, item.reference)
        assert_verdict(oracle)
        assert oracle.passed, (item.id, oracle)
        echo = suite.grade(item, item.prompt)
        assert_verdict(echo)
        echo_passed += echo.passed
    assert echo_passed <= len(items) // 4, "echoing the prompt passes too often"


@pytest.mark.parametrize("name", SUITES.names())
def test_suite_summary_round_trips(name: str, live_store: Path) -> None:
    """The typed summary of a suite writes the same keys it reads back, as the same type."""
    from ladderbench.items import ResultRow

    suite = make_suite(name, **suite_options(name, live_store))
    rows = []
    for item in suite.items():
        verdict = suite.grade(item, item.reference)
        rows.append(
            ResultRow(
                run="r",
                adapter="oracle",
                model="oracle",
                suite=name,
                id=item.id,
                family=item.family,
                task=item.task,
                category=item.category,
                level=item.level,
                tier=item.tier,
                prompt=item.prompt,
                expected=item.expected,
                response=item.reference,
                extracted=verdict.extracted,
                score=verdict.score,
                passed=verdict.passed,
                latency_ms=0.0,
            )
        )
    summary = suite.summarise(rows, 1)
    data = {"type": "summary", **summary.to_json_dict()}
    again = parse_summary(data)
    assert type(again) is SUITES.get(name).summary
    assert again.to_json_dict() == data


# ---------------------------------------------------------------- puzzle families


@pytest.mark.parametrize("name", FAMILIES.names())
def test_family_reference_passes_and_echo_does_not(name: str) -> None:
    family = FAMILIES.get(name)
    for tier in sorted(family.tiers):
        for seed in (1, 2, 3):
            puzzle = family.generate(instance_rng("1", name, tier, seed), family.config(tier))
            item = Item(
                id=f"{name}/{tier}/{seed}",
                prompt=puzzle.prompt,
                expected=puzzle.answer,
                reference=f"<answer>{puzzle.answer}</answer>",
                family=name,
                tier=tier,
            )
            right = score_puzzle(item, item.reference)
            assert_verdict(right)
            assert right.passed and right.extracted == puzzle.answer, (tier, seed)
            echo = score_puzzle(item, item.prompt)
            assert_verdict(echo)
            assert not echo.passed, (tier, seed)


# ---------------------------------------------------------------- live tasks


@pytest.mark.parametrize("name", TASKS.names())
def test_task_reference_passes_and_echo_does_not(name: str) -> None:
    task = TASKS.get(name)
    for index in range(3):
        q = task.generate(question_rng(RELEASE, name, index), Sources.empty())
        record = {"ground_truth": q.ground_truth, "subtask": q.subtask, **q.fields}
        right = task.score(record, task.reference(record))
        assert_verdict(right)
        assert right.passed, (index, right)
        assert right.extracted, "a task reports the text it graded"
        echo = task.score(record, q.prompt)
        assert_verdict(echo)
        assert not echo.passed, index
        nothing = task.score(record, "")
        assert_verdict(nothing)
        assert nothing.score == 0.0


# ---------------------------------------------------------------- model adapters


@pytest.mark.parametrize("kind", BASELINES)
def test_baseline_adapters_answer_without_a_model(kind: str) -> None:
    adapter = make_adapter(kind, seed=3)
    assert isinstance(adapter, ModelAdapter) and adapter.kind == kind
    request = Request(
        item_id="x",
        messages=({"role": "user", "content": "Pick one."},),
        reference="B",
        choices=("A", "B"),
    )
    completion = asyncio.run(adapter.complete(request))
    assert completion.error is None
    if kind == "oracle":
        assert completion.text == "B"
    if kind == "echo":
        assert completion.text == "Pick one."


@pytest.mark.parametrize("kind", ADAPTERS.names())
def test_every_adapter_refuses_a_malformed_spec_in_one_line(kind: str) -> None:
    malformed = {"local": "local:/no/such/model.gguf", "openai": "openai", "ollama": "ollama"}
    spec = f"{kind}:x:y" if kind in BASELINES else malformed[kind]
    with pytest.raises(UserError) as info:
        make_adapter(spec)
    assert "\n" not in str(info.value)


def test_unknown_adapter_is_one_line() -> None:
    with pytest.raises(UserError) as info:
        make_adapter("nope:x")
    assert "\n" not in str(info.value) and "oracle" in str(info.value)


# ---------------------------------------------------------------- built-in graders


@pytest.mark.parametrize("name", GRADERS.names())
def test_builtin_grader_scores_its_ladder_in_the_one_shape(name: str) -> None:
    grader = GRADERS.get(name)
    assert isinstance(grader, Grader) and grader.name == name
    rungs, _ = load_rungs(LADDERS / f"{name}.jsonl")
    tops: dict[str, int] = {}
    for rung in rungs:
        tops[rung.case_id] = max(tops.get(rung.case_id, 0), rung.level)
    for rung in rungs:
        verdict = grader.scorer(case_item(rung), rung.answer)
        assert_verdict(verdict)
        if rung.level == tops[rung.case_id]:
            assert verdict.passed, (rung.case_id, rung.level, verdict)
