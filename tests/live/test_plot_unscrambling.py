"""plot_unscrambling: the order is re-derived by finding the prompt's sentences in the corpus;
partial credit follows the edit distance between orders; reply formats are read permissively."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest
import task_checks as checks
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import INDICES, RELEASE, make_question, record, tagged

from ladderbench.errors import UserError
from ladderbench.live.base import Question, Sources, question_rng
from ladderbench.live.tasks.plot_unscrambling import (
    SUBTASKS,
    PlotUnscrambling,
    order_score,
    split_sentences,
)

TASK = PlotUnscrambling()
CORPUS = checks.DATA / "corpus.jsonl"


@cache
def make(index: int, release: str = RELEASE) -> Question:
    return make_question(TASK, index, release)


def score(q: Question, answer: str) -> float:
    return TASK.score(record(q), answer).score


def sentences(q: Question) -> list[str]:
    return q.ground_truth.split("\n")


def parse_prompt(prompt: str) -> list[str]:
    """The numbered sentences, in the shuffled order shown."""
    found = re.findall(r"^(\d+)\. (.+)$", prompt, re.M)
    assert [int(k) for k, _ in found] == list(range(1, len(found) + 1))
    return [s for _, s in found]


@cache
def narratives() -> tuple[str, ...]:
    entries = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
    return tuple(e["text"] for e in entries if e["topic"].startswith("narrative"))


# ---------------------------------------------------------------- re-derivation


def test_order_rederived_from_prompt_and_corpus() -> None:
    for index in INDICES:
        q = make(index)
        shown = parse_prompt(q.prompt)
        assert shown == q.fields["shuffled"]
        # Exactly one corpus narrative holds every shown sentence; their order there is the truth.
        homes = [t for t in narratives() if all(s in t for s in shown)]
        assert len(homes) == 1, index
        truth = sorted(shown, key=homes[0].index)
        assert " ".join(truth) == homes[0]
        assert truth == sentences(q)
        assert shown != truth
        # Copying the shuffled order earns at most half credit.
        assert score(q, tagged(shown)) <= 0.5 + 1e-9
        if q.subtask == "anchored":
            assert "Sentence 1 is already in its correct place" in q.prompt
            assert shown[0] == truth[0]
        else:
            assert "already in its correct place" not in q.prompt


def test_corpus_narratives_split_into_six_to_nine_sentences() -> None:
    assert len(narratives()) >= 24
    for text in narratives():
        assert 6 <= len(split_sentences(text)) <= 9
        assert " ".join(split_sentences(text)) == text


def test_both_subtasks_appear() -> None:
    assert {make(i).subtask for i in INDICES} == set(SUBTASKS)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One. Two! Three? Four.", ["One.", "Two!", "Three?", "Four."]),
        ("Dr. Lee met Mr. Park. They talked.", ["Dr. Lee met Mr. Park.", "They talked."]),
        ("We saw J. R. Smith. He waved.", ["We saw J. R. Smith.", "He waved."]),
        ("Bring fruit, e.g. apples. Then go.", ["Bring fruit, e.g. apples.", "Then go."]),
        ("It cost 3.5 dollars. No. 5 won.", ["It cost 3.5 dollars.", "No. 5 won."]),
        ('"Stop!" she said. He stopped.', ['"Stop!" she said.', "He stopped."]),
        ("He left (finally.) Then rain.", ["He left (finally.)", "Then rain."]),
        ("lower case after. a period", ["lower case after. a period"]),
        ("They sat in the sun. Then it rained.", ["They sat in the sun.", "Then it rained."]),
        ("Smith et al. Found it. Etc. Yes.", ["Smith et al. Found it.", "Etc.", "Yes."]),
        ("On Sun. 4 May we met. It rained.", ["On Sun. 4 May we met.", "It rained."]),
        ("", []),
    ],
)
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


# ---------------------------------------------------------------- scoring


def test_alternative_formats_score_one() -> None:
    for index in range(16):
        q = make(index)
        s = sentences(q)
        shuffled = q.fields["shuffled"]
        labels = [shuffled.index(x) + 1 for x in s]
        variants = [
            tagged([f"{k}. {x}" for k, x in enumerate(s, 1)]),
            tagged([f"- {x}" for x in s]),
            tagged([f"[{shuffled.index(x) + 1}] {x}" for x in s]),
            "<solution>" + " ".join(s) + "</solution>",
            tagged([x.lower().rstrip(".") for x in s]),
            tagged([f"**{x}**" for x in s]),
            "<solution>" + ", ".join(map(str, labels)) + "</solution>",
            "<solution>" + " -> ".join(map(str, labels)) + "</solution>",
            "The order is:\n" + "\n".join(s),  # no tags: the last line
        ]
        for text in variants[:-1]:
            assert score(q, text) == 1.0, (index, text)
        assert score(q, "<think>hmm</think>" + tagged(s)) == 1.0


def test_partial_credit_follows_edit_distance() -> None:
    for index in range(16):
        q = make(index)
        s = sentences(q)
        n = len(s)
        swapped = [s[1], s[0], *s[2:]]
        assert score(q, tagged(swapped)) == pytest.approx(1 - 2 / n)
        assert score(q, tagged(s[:-1])) == pytest.approx(1 - 1 / n)  # one sentence missing
        assert score(q, tagged([*s, "I hope this helps you with the task."])) == pytest.approx(
            1 - 1 / n
        )
        assert score(q, tagged([*s[:3], s[2], *s[3:]])) == pytest.approx(1 - 1 / n)  # repeat
        moved = [*s[1:], s[0]]  # first sentence moved to the end
        assert score(q, tagged(moved)) == pytest.approx(1 - 2 / n)
        assert score(q, tagged(s[::-1])) < score(q, tagged(moved))
        # More misplaced sentences never score higher.
        two_swaps = [s[1], s[0], s[3], s[2], *s[4:]]
        assert score(q, tagged(two_swaps)) < score(q, tagged(swapped)) < 1.0


def test_order_score_bounds() -> None:
    assert order_score([0, 1, 2], 3) == 1.0
    assert order_score([], 3) == 0.0
    assert order_score([-1] * 10, 3) == 0.0
    assert order_score([0], 0) == 0.0


def test_wrong_or_empty_answers() -> None:
    q = make(0)
    n = len(sentences(q))
    for text in ["", "<solution></solution>", "<think>still going", "I don't know."]:
        assert score(q, text) <= 1 / n
    # Numbers that are not a permutation of the labels are not read as numbers.
    assert score(q, "<solution>1, 1, 2</solution>") == 0.0
    assert TASK.score({}, "x").score == 0.0
    assert TASK.score({"ground_truth": 5}, "5").score == 0.0


# ---------------------------------------------------------------- sources


def test_sources_paragraphs_are_used() -> None:
    story = (
        "Mara found an old map in the attic of her grandmother's house. The next morning she "
        "showed it to her brother, who recognised the hill marked with a cross. They packed a "
        "spade and a flask and set out along the river path. By noon they had reached the foot "
        "of the hill and started to dig. After an hour the spade struck a rusty tin box. "
        "Inside it lay a bundle of letters their grandmother had written as a girl."
    )
    sources = Sources(texts={"story.txt": "Too short.\n\n" + story})
    q = TASK.generate(question_rng(RELEASE, "plot_unscrambling", 3), sources)
    assert q.ground_truth == "\n".join(split_sentences(story))
    assert TASK.score(record(q), TASK.reference(record(q))).score == 1.0
    two_sentences = Sources(texts={"a.txt": ("word " * 45).strip() + ". And more words here."})
    with pytest.raises(UserError, match="plot_unscrambling"):
        TASK.generate(question_rng(RELEASE, "plot_unscrambling", 3), two_sentences)


# ---------------------------------------------------------------- robustness


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([*sentences(make(1)), "1", "2, 3", "- ", "junk"]), max_size=12))
def test_score_in_range_on_sentence_soup(lines: list[str]) -> None:
    checks.assert_scores_in_range(TASK, [record(make(1))], [tagged(lines)])
