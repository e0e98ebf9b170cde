"""code_completion: the given prefix is the reference's start; continuations run after it.

The hidden tests are re-derived from the prompt text by the independent solutions of
test_code_generation (``oracle``).
"""

from __future__ import annotations

import re
import textwrap
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import (
    HARDER_LEVELS,
    INDICES,
    RELEASE,
    load_ladder,
    make_question,
    record,
)
from test_code_generation import (  # the autouse fixture applies here too
    fence,
    oracle,
    run_trusted_code_without_namespaces,  # noqa: F401
)

from ladderbench.live.base import Question
from ladderbench.live.tasks._code_problems import completion_sources, split_prefix
from ladderbench.live.tasks.code_completion import (
    CodeCompletion,
    CodeCompletionConfig,
    at_difficulty,
)

TASK = CodeCompletion()
CODE_PARTS = [
    "```",
    "```python\n",
    "    ",
    "return ",
    "x",
    "\n",
    "def ",
    "(",
    "):\n",
    "\t",
    "<solution>",
    "while True:\n",
    "pass\n",
    "'''",
    "~~~",
    "import os\n",
]


@cache
def make(index: int, release: str = RELEASE) -> Question:
    return make_question(TASK, index, release)


def rest(rec: dict) -> str:
    return rec["ground_truth"][len(rec["prefix"]) :]


def test_prefix_is_the_start_of_the_reference() -> None:
    templates = set()
    for index in INDICES:
        q = make(index)
        prefix, whole = q.fields["prefix"], q.ground_truth
        assert whole.startswith(prefix) and prefix.endswith("\n")
        assert prefix.startswith(q.fields["signature"] + "\n")
        assert "```python\n" + prefix + "```" in q.prompt
        given, total = len(prefix.splitlines()), len(whole.splitlines())
        assert 2 <= given <= total - 2
        assert 0.35 <= given / total <= 0.65, (index, given, total)
        templates.add(q.fields["template"])
    assert len(templates) >= 12


def test_hidden_tests_rederived_from_prompt() -> None:
    for index in INDICES:
        q = make(index)
        for test in q.fields["tests"]:
            assert oracle(q.prompt, test["input"]) == test["output"], (index, test)


def test_constants_in_prefix_agree_with_description() -> None:
    """The constants the given lines set first (k = 4) are numbers the description states."""
    checked = 0
    for index in INDICES:
        q = make(index)
        description = q.prompt.split("Examples:", 1)[0]
        for line in q.fields["prefix"].splitlines()[1:]:
            m = re.fullmatch(r"    (\w+) = (\d+)", line)
            if not m:
                break
            assert re.search(rf"(?<![\d]){m.group(2)}(?!\d)", description), (index, line)
            checked += 1
    assert checked >= 64


def test_continuation_scores_one() -> None:
    for index in INDICES:
        rec = record(make(index))
        if index % 2 == 0:
            assert TASK.score(rec, "Here is the rest:\n" + fence(rest(rec))).score == 1.0, index


def test_alternative_forms_score_one() -> None:
    for index in range(8):
        rec = record(make(index))
        tail = rest(rec)
        last_given = rec["prefix"].splitlines()[-1]
        answers = [
            fence(textwrap.dedent(tail)),  # written flush left
            fence(last_given + "\n" + tail),  # repeats the last given line
            fence(rec["prefix"] + tail, ""),  # the whole function, untagged fence
            "The loop still has to finish.\n" + fence(tail) + "\nThis handles the edge cases.",
            "```python\n" + tail,  # fence never closed
            fence("from collections import deque\n\n" + rec["ground_truth"]),
        ]
        for answer in answers:
            assert TASK.score(rec, answer).score == 1.0, (index, answer)


def test_wrong_answers_score_zero() -> None:
    for index in range(10):
        rec = record(make(index))
        tail = rest(rec)
        lines = tail.rstrip("\n").splitlines()
        no_return = "\n".join(lines[:-1]) + "\n"
        mutant = re.sub(r"^(    \w+ = )(\d+)$", lambda m: m.group(1) + str(int(m.group(2)) + 1),
                        rec["ground_truth"], count=1, flags=re.M)  # fmt: skip
        wrong = [
            "",
            "Continue the loop and return the result.",
            fence(no_return),
            fence("    return None\n"),
            fence(mutant),
            fence(tail)
            + "\nWait, that is wrong; the function should end with:\n"
            + fence(no_return),
            fence(tail.replace("\n", ":\n", 1)),  # syntax error
        ]
        for answer in wrong:
            assert TASK.score(rec, answer).score == 0.0, (index, answer)


def test_completion_sources() -> None:
    prefix = "def f(xs):\n    total = 0\n    for x in xs:\n"
    assert completion_sources(
        prefix, "        total += x\n    return total\n", "f", "        "
    ) == [prefix + "        total += x\n    return total\n"]
    flush = completion_sources(prefix, "total += x\nreturn total\n", "f", "        ")
    assert flush[-1] == prefix + "        total += x\n        return total\n"
    whole = "def f(xs):\n    return sum(xs)\n"
    assert completion_sources(prefix, whole, "f", "    ") == [whole]
    repeated = completion_sources(prefix, "    for x in xs:\n        total += x\n", "f", "        ")
    assert repeated[0] == prefix + "        total += x\n"


def test_split_prefix() -> None:
    text = "".join(f"line{i}\n" for i in range(10))
    assert split_prefix(text, 0.5) == (text[:30], text[30:])
    assert split_prefix("a\nb\nc\n", 0.9) == ("a\n", "b\nc\n")


def test_prompt_states_the_format() -> None:
    prompt = make(0).prompt
    assert "```python" in prompt and "last fenced" in prompt and "whole function" in prompt


def test_shipped_ladder_covers_five_templates() -> None:
    rungs = load_ladder("code_completion")
    assert len({make(int(r.case_id.split("/")[1])).fields["template"] for r in rungs}) >= 5


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.sampled_from(CODE_PARTS),
        max_size=14,
    )
)
def test_score_never_raises_on_code_like_text(parts: list[str]) -> None:
    s = TASK.score(record(make(1)), "".join(parts)).score
    assert 0.0 <= s <= 1.0


def test_malformed_record_scores_zero() -> None:
    rec = record(make(0))
    answer = TASK.reference(rec)
    assert TASK.score({}, answer).score == 0.0
    assert TASK.score({**rec, "prefix": None}, answer).score == 0.0
    assert TASK.score({**rec, "tests": "x"}, answer).score == 0.0
    assert TASK.score(["not", "a", "dict"], answer).score == 0.0  # type: ignore[arg-type]


# ---------------------------------------------------------------- difficulty


@pytest.mark.parametrize("difficulty", HARDER_LEVELS)
def test_harder_questions_rederived_and_continuations_score_one(difficulty: int) -> None:
    for index in range(2):
        q = make_question(TASK, index, difficulty=difficulty)
        rec = record(q)
        assert q.ground_truth.startswith(q.fields["prefix"])
        assert q.fields["prefix"].startswith(q.fields["signature"] + "\n")
        for test in q.fields["tests"]:
            assert oracle(q.prompt, test["input"]) == test["output"], (difficulty, index)
        assert TASK.score(rec, fence(rest(rec))).score == 1.0


def test_difficulty_zero_is_v1() -> None:
    for index in range(16):
        assert make_question(TASK, index, difficulty=0) == make(index)
    assert at_difficulty(0) == CodeCompletionConfig()


def test_less_is_given_as_difficulty_grows() -> None:
    """The share of the reference to write grows with d (down to the def line and one more)."""
    shares = [at_difficulty(d).given for d in range(0, 21)]
    assert shares == sorted(shares, reverse=True) and shares[-1] < shares[0]
    written = []
    for d in (1, 4, 8):
        qs = [make_question(TASK, i, difficulty=d) for i in range(12)]
        written.append(sum(len(rest(record(q)).splitlines()) for q in qs))
    assert written == sorted(written) and written[0] < written[-1]
