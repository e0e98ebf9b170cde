"""typos: the typos are re-derived from the prompt by comparing it word by word with the corpus
passage it came from; near misses fail, reasonable reply formats pass."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest
import task_checks as checks
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import OSA
from task_checks import INDICES, RELEASE, make_question, record

from ladderbench.live.base import Question, Sources, question_rng
from ladderbench.live.tasks.typos import (
    MISSPELLINGS,
    REAL_WORDS,
    SUBTASKS,
    Typos,
    inject_typos,
)

TASK = Typos()
CORPUS = checks.DATA / "corpus.jsonl"


@cache
def make(index: int, release: str = RELEASE) -> Question:
    return make_question(TASK, index, release)


def score(q: Question, answer: str) -> float:
    return TASK.score(record(q), answer).score


@cache
def corpus_texts() -> tuple[str, ...]:
    return tuple(json.loads(line)["text"] for line in CORPUS.read_text().splitlines() if line)


def parse_prompt(prompt: str) -> tuple[int, str]:
    """(number of typos, the corrupted passage) read from the prompt text."""
    count = int(re.search(r"contains exactly (\d+) typos", prompt).group(1))
    passage = prompt.split("\n\n")[1]
    return count, passage


TOKEN = re.compile(r"[A-Za-z']+|[^A-Za-z']+")


# ---------------------------------------------------------------- the corpus


def test_corpus_is_original_ascii_and_sized() -> None:
    entries = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
    assert len(entries) >= 64
    assert len({e["id"] for e in entries}) == len(entries)
    narratives = [e for e in entries if e["topic"].startswith("narrative")]
    assert len(narratives) >= 24
    for e in entries:
        assert set(e) == {"id", "topic", "text"}
        assert e["text"].isascii() and '"' not in e["text"]
        assert 60 <= len(e["text"].split()) <= 140, e["id"]


# ---------------------------------------------------------------- re-derivation


def test_typos_rederived_from_prompt() -> None:
    for index in INDICES:
        q = make(index)
        cfg = SUBTASKS[q.subtask]
        count, corrupted = parse_prompt(q.prompt)
        assert cfg.min_typos <= count <= cfg.max_typos
        assert corrupted == q.fields["corrupted"]
        # The original is a corpus passage with the same shape word for word.
        candidates = [
            t
            for t in corpus_texts()
            if len(TOKEN.findall(t)) == len(TOKEN.findall(corrupted))
            and sum(a != b for a, b in zip(TOKEN.findall(t), TOKEN.findall(corrupted))) == count
        ]
        assert candidates == [q.ground_truth], index
        vocabulary = {w.lower() for t in corpus_texts() for w in re.findall(r"[A-Za-z]+", t)}
        diffs = [
            (a, b)
            for a, b in zip(TOKEN.findall(q.ground_truth), TOKEN.findall(corrupted))
            if a != b
        ]
        assert [list(d) for d in diffs] == q.fields["typos"]
        for word, typo in diffs:
            assert word.isalpha() and word.islower() and typo.isalpha()
            assert typo.lower() not in vocabulary and typo.lower() not in REAL_WORDS
            assert typo[0] == word[0]
            assert OSA.distance(word, typo) <= (2 if MISSPELLINGS.get(word) == typo else 1)


def test_every_subtask_appears() -> None:
    assert {make(i).subtask for i in INDICES} == set(SUBTASKS)


def test_never_a_confusable_real_word() -> None:
    import random

    rng = random.Random(7)
    for text in corpus_texts():
        for _ in range(5):
            _, pairs = inject_typos(text, 10, rng)
            for word, typo in pairs:
                assert typo not in {"from", "form", "color", "meters", "traveling", "diving"}
                assert typo.lower() not in REAL_WORDS, (word, typo)


def test_inject_typos_rejects_bad_counts() -> None:
    import random

    with pytest.raises(ValueError, match="positive"):
        inject_typos(corpus_texts()[0], 0, random.Random(1))
    with pytest.raises(ValueError, match="only"):
        inject_typos("A short line with few words.", 5, random.Random(1))


# ---------------------------------------------------------------- scoring


def test_alternative_formats_score_one() -> None:
    for index in range(16):
        q = make(index)
        gt = q.ground_truth
        words = gt.split()
        half = len(words) // 2
        variants = [
            gt,  # no tags: the last line is the passage
            f"Here is the corrected passage:\n\n{gt}\n\nI fixed {len(q.fields['typos'])} typos.",
            f"<solution>\n\n  {gt}  \n</solution>",
            f"<solution>{' '.join(words[:half])}\n{' '.join(words[half:])}</solution>",
            f"<solution>**{gt}**</solution>",
            f"<answer>{gt}</answer>",
            f"<think>the typo is {q.fields['typos'][0][1]}</think><solution>{gt}</solution>",
            f"<solution>{gt.replace(chr(39), chr(0x2019))}</solution>",
            f"Corrected passage: <solution>{gt}</solution>",
        ]
        for text in variants:
            assert score(q, text) == 1.0, (index, text)


def test_near_misses_score_zero() -> None:
    for index in range(16):
        q = make(index)
        gt, pairs = q.ground_truth, q.fields["typos"]
        word, typo = pairs[0]
        one_left = re.sub(rf"\b{word}\b", typo, gt, count=1)
        assert one_left != gt
        changed = gt.replace(" the ", " a ", 1) if " the " in gt else gt.replace(".", "!", 1)
        wrong = [
            f"<solution>{q.fields['corrupted']}</solution>",  # nothing fixed
            f"<solution>{one_left}</solution>",  # one typo left
            f"<solution>{changed}</solution>",  # another word changed
            f"<solution>{gt.lower()}</solution>",  # capitalisation lost
            f"<solution>{gt}</solution> Actually, <solution>{q.fields['corrupted']}</solution>",
            q.prompt,  # echo
            "",
            "<think>still thinking",
        ]
        for text in wrong:
            assert score(q, text) == 0.0, (index, text[:80])


def test_score_tolerates_malformed_records() -> None:
    assert TASK.score({}, "<solution>x</solution>").score == 0.0
    assert TASK.score({"ground_truth": ""}, "<solution></solution>").score == 0.0
    assert TASK.score({"ground_truth": None}, "None").score == 0.0


# ---------------------------------------------------------------- determinism


def test_sources_are_used() -> None:
    text = (
        "The committee met on a rainy afternoon to discuss the harbour renovation plans. "
        "Several members argued that the budget was far too small for the work required. "
        "Others pointed out that the old stone walls were crumbling and dangerous to walkers. "
        "After two hours of debate, they agreed to commission a detailed engineering survey."
    )
    q = TASK.generate(question_rng(RELEASE, "typos", 0), Sources(texts={"a.txt": text}))
    assert q.ground_truth == text
    assert TASK.score(record(q), TASK.reference(record(q))).score == 1.0


# ---------------------------------------------------------------- robustness


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_score_never_raises_inside_tags(text: str) -> None:
    s = TASK.score(record(make(3)), f"<solution>{text}</solution>").score
    assert s in (0.0, 1.0)
