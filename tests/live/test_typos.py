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
    clean,
    difficulty_level,
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


# ---------------------------------------------------------------- difficulty 1 and up
#
# The solver below knows only the prompt, English (the corpus words and the built-in list of
# real words stand in for a dictionary) and the rules the prompt states; it shares no code with
# the generator.

LEVELS = checks.HARDER_LEVELS
# Capitalised words that open sentences and are never names (a reader's grammar).
OPENER_TEXT = (
    "A After All Although An And As At Because Before But By Each Every For From He Her His "
    "How If In Instead It Its Many Most No Now On Once One Only Our She Since So Some Still "
    "That The Their Then There These They This Those To Today We What When Where Which While "
    "Who Why With Yet Again Another Both Even Here Not Of Over Such Though Under Until Without "
    "Meanwhile Later Soon"
)
OPENERS = set(OPENER_TEXT.split())


def make_at(index: int, d: int) -> Question:
    return make_question(TASK, index, difficulty=d)


def parse_hard_prompt(prompt: str) -> tuple[int, str]:
    count = int(re.search(r"contains exactly (\d+) errors", prompt).group(1))
    text = re.search(r"\nBEGIN TEXT\n(.+)\nEND TEXT\n", prompt, re.S).group(1)
    return count, text


@cache
def dictionary() -> frozenset[str]:
    words = {w.lower() for t in corpus_texts() for w in re.findall(r"[A-Za-z]+", t)}
    return frozenset(words | REAL_WORDS | set(MISSPELLINGS))


def correct_word(word: str) -> str:
    """The one dictionary word closest to a non-word (its case kept)."""
    reverse = {typo: right for right, typo in MISSPELLINGS.items()}
    low = word.lower()
    if low in reverse:
        right = reverse[low]
    else:
        near = [w for w in dictionary() if w[:1] == low[:1] and OSA.distance(w, low) == 1]
        assert len(near) == 1, (word, near)
        right = near[0]
    return right.capitalize() if word[0].isupper() else right


def solve(text: str) -> tuple[str, int]:
    """The corrected text and how many corrections it took."""
    fixes = 0

    def undouble(m: re.Match) -> str:
        nonlocal fixes
        fixes += 1
        return m.group(1)

    text = re.sub(r"\b([A-Za-z]+) \1\b", undouble, text)

    def article(m: re.Match) -> str:
        nonlocal fixes
        word, following = m.group(1), m.group(2)
        right = "an" if following[0].lower() in "aeiou" else "a"
        if word.lower() == right:
            return m.group(0)
        fixes += 1
        return (right.capitalize() if word[0].isupper() else right) + " " + following

    text = re.sub(r"\b(an?|An?) ([A-Za-z]+)", article, text)

    def full_stop(m: re.Match) -> str:
        nonlocal fixes
        if m.group(2) not in OPENERS:
            return m.group(0)
        fixes += 1
        return f"{m.group(1)}. {m.group(2)}"

    text = re.sub(r"\b([a-z]{2,}) ([A-Z][a-z]*)\b", full_stop, text)

    def capital(m: re.Match) -> str:
        nonlocal fixes
        fixes += 1
        return m.group(1) + m.group(2).upper()

    text = re.sub(r"((?:^|[.!?][\"')]*\s+)[\"'(]*)([a-z])", capital, text)

    def spelling(m: re.Match) -> str:
        nonlocal fixes
        if all(part in dictionary() for part in re.findall("[a-z]+", m.group().lower())):
            return m.group()
        fixes += 1
        return correct_word(m.group())

    text = re.sub(r"[A-Za-z]+(?:'[A-Za-z]+)?", spelling, text)
    return text, fixes


@pytest.mark.parametrize("d", LEVELS)
def test_harder_levels_rederived_from_prompt(d: int) -> None:
    for index in range(6 if d <= 12 else 3):
        q = make_at(index, d)
        count, corrupted = parse_hard_prompt(q.prompt)
        assert corrupted == q.fields["corrupted"] and count == len(q.fields["errors"])
        solved, fixes = solve(corrupted)
        assert solved == q.ground_truth, (d, index)
        assert fixes == count
        assert q.material == tuple(q.ground_truth.split("\n\n"))
        assert all(m in corpus_texts() for m in q.material)
        assert score(q, f"<solution>{solved}</solution>") == 1.0


def test_difficulty_grows() -> None:
    """Every step adds errors to find; every second step adds a passage to reproduce."""
    levels = [difficulty_level(d) for d in range(1, 21)]
    errors = [lv.errors for lv in levels]
    assert errors == sorted(errors) and len(set(errors)) == len(errors)
    passages = [lv.passages for lv in levels]
    assert passages == sorted(passages) and passages[-1] == 11
    sizes = [len(make_at(0, d).ground_truth.split()) for d in (1, 4, 8, 12)]
    assert sizes == sorted(sizes) and sizes[-1] > 4 * sizes[0]
    assert difficulty_level(0) is None
    with pytest.raises(ValueError):
        difficulty_level(-1)


def test_every_kind_of_error_appears() -> None:
    kinds = {e[0] for i in range(6) for e in make_at(i, 6).fields["errors"]}
    assert kinds == {"spelling", "capitalisation", "full stop", "doubled word", "a/an"}
    long_swaps = [
        (right, typo)
        for i in range(6)
        for kind, right, typo in make_at(i, 6).fields["errors"]
        if kind == "spelling" and len(right) >= 9 and sorted(right) == sorted(typo)
    ]
    assert len(long_swaps) >= 6


def test_harder_near_misses_score_zero() -> None:
    for index in range(4):
        q = make_at(index, 4)
        gt = q.ground_truth
        for kind, right, wrong in q.fields["errors"]:
            if kind in ("spelling", "doubled word"):
                left = gt.replace(right, wrong, 1)
                assert left != gt
                assert score(q, f"<solution>{left}</solution>") == 0.0, (kind, right)
        assert score(q, f"<solution>{q.fields['corrupted']}</solution>") == 0.0
        assert score(q, f"<solution>{gt}</solution>") == 1.0
        assert score(q, f"<solution>{' '.join(gt.split())}</solution>") == 1.0  # one line


def test_clean_rejects_passages_with_their_own_marks() -> None:
    assert clean("The river rose. It flooded the town.")
    assert not clean("The river rose. it flooded the town.")  # lower-case sentence start
    assert not clean("The river rose The town flooded.")  # an opener after a lower-case word
    assert not clean("The river rose rose.")  # a doubled word
    assert not clean("They waited for an hour.")  # a/an by sound, not by letter
    assert not clean("It had had enough rain.")  # a real doubled word


# ---------------------------------------------------------------- material


def test_material_is_the_passage_and_never_served_twice() -> None:
    from ladderbench.errors import UserError

    q = make(0)
    assert q.material == (q.ground_truth,)
    used = Sources.empty().using(q.material)
    assert all(make_question(TASK, i, sources=used).material != q.material for i in range(16))
    everything = Sources.empty().using(corpus_texts())
    with pytest.raises(UserError, match="run 'ladderbench live fetch' and pass --sources"):
        make_question(TASK, 0, sources=everything)
    nearly = Sources.empty().using(corpus_texts()[3:])  # three left: too few for d=6
    with pytest.raises(UserError, match="fewer than 4"):
        make_question(TASK, 0, sources=nearly, difficulty=6)


def test_newest_source_file_first() -> None:
    old = "\n\n".join(t for t in corpus_texts()[:20])
    new = "\n\n".join(t for t in corpus_texts()[20:40])
    sources = Sources(
        texts={"a.txt": new, "b.txt": old}, dates={"a.txt": "2026-11-30", "b.txt": "2025-01-01"}
    )
    for i in range(8):
        q = make_question(TASK, i, sources=sources, difficulty=i % 3)
        assert all(m in corpus_texts()[20:40] for m in q.material), i
