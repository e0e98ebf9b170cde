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
from ladderbench.live.base import Question, Sources, material_digest, question_rng
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


DIFFICULTIES = checks.HARDER_LEVELS
SEEDS = range(6)


@cache
def make_at(d: int, index: int, release: str = RELEASE) -> Question:
    """Question ``index`` at difficulty ``d`` from the packaged corpus."""
    return TASK.generate(question_rng(release, TASK.name, index), Sources.empty(), d)


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
            "The order is:\n" + "\n".join(s),  # no tags: the whole reply, as LiveBench reads it
        ]
        for text in variants:
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


# ---------------------------------------------------------------- untagged replies


def test_untagged_replies_read_as_livebench_does() -> None:
    """No tags: the whole reply is the answer; prose around the listing and sentences quoted in
    the reasoning before it cost nothing, and a wrong order still loses what it should."""
    for index in range(16):
        q = make(index)
        s = sentences(q)
        n = len(s)
        shuffled = q.fields["shuffled"]
        labels = [shuffled.index(x) + 1 for x in s]
        reasoning = f"The opening is clearly: {s[0]}\nThen comes '{s[2]}'? No.\n{s[-1]}\n\n"
        assert score(q, "\n".join(s)) == 1.0
        assert score(q, "Restored order:\n\n" + "\n".join(s) + "\n\nHope this helps!") == 1.0
        assert score(q, reasoning + "Final order:\n" + "\n".join(s)) == 1.0
        assert score(q, " ".join(s)) == 1.0  # one paragraph
        assert score(q, "\n".join(f"{k}. {x}" for k, x in enumerate(s, 1))) == 1.0
        assert score(q, "Thinking...\nOrder: " + ", ".join(map(str, labels))) == 1.0
        swapped = [s[1], s[0], *s[2:]]
        assert score(q, "My answer:\n" + "\n".join(swapped)) == pytest.approx(1 - 2 / n)
        assert score(q, reasoning + "\n".join(swapped)) == pytest.approx(1 - 2 / n)
        assert score(q, "\n".join(shuffled)) <= 0.5 + 1e-9
        assert score(q, "\n".join(s[:-2])) == pytest.approx(1 - 2 / n)
        assert score(q, "I cannot tell the order.") == 0.0


# ---------------------------------------------------------------- difficulty


def mixed_truth(prompt: str) -> list[str]:
    """The order re-derived from the prompt and the corpus alone: each shown sentence's home
    narrative, each narrative's sentences in its own order, the narratives in the order the
    prompt names them (by one sentence of each)."""
    shown = parse_prompt(prompt)
    named = [int(k) for k in re.findall(r"contains sentence (\d+)", prompt)]
    homes = []
    for sentence in shown:
        found = [t for t in narratives() if sentence in t]
        assert len(found) == 1, sentence
        homes.append(found[0])
    stories = [homes[k - 1] for k in named]
    assert len(set(stories)) == len(stories) == len(set(homes))
    truth = []
    for story in stories:
        mine = sorted((s for s, h in zip(shown, homes) if h == story), key=story.index)
        assert " ".join(mine) == story  # the whole narrative is shown
        truth.extend(mine)
    return truth


@pytest.mark.parametrize("d", DIFFICULTIES)
def test_mixed_narratives_rederived(d: int) -> None:
    for index in SEEDS:
        q = make_at(d, index)
        assert q.subtask == "mixed" and f"from {d + 1} short passages" in q.prompt
        assert "already in its correct place" not in q.prompt
        truth = mixed_truth(q.prompt)
        assert truth == sentences(q)
        # A passage is named by a sentence that does not open it.
        for k in map(int, re.findall(r"contains sentence (\d+)", q.prompt)):
            named = q.fields["shuffled"][k - 1]
            assert not any(t.startswith(named) for t in narratives())
        assert score(q, tagged(q.fields["shuffled"])) <= 0.5 + 1e-9
        assert TASK.score(record(q), TASK.reference(record(q))).score == 1.0


def test_difficulty_grows_with_d() -> None:
    """Sentences to place and passages to tell apart grow at every step."""
    sizes = [sum(len(sentences(make_at(d, i))) for i in SEEDS) for d in DIFFICULTIES]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)
    assert min(len(sentences(make_at(1, i))) for i in SEEDS) > max(
        len(sentences(make(i))) for i in INDICES
    )
    assert [len(make_at(d, 0).material) for d in DIFFICULTIES] == [d + 1 for d in DIFFICULTIES]


def test_difficulty_zero_is_v1() -> None:
    for index in range(8):
        assert make_at(0, index) == make(index)


LONG_SOURCE = "\n\n".join(
    json.loads(line)["text"] for line in CORPUS.read_text().splitlines() if line.strip()
)


def source_truth(prompt: str, text: str) -> list[str]:
    """The order re-derived from the prompt and the source text alone: by position."""
    shown = parse_prompt(prompt)
    for sentence in shown:
        assert text.count(sentence) == 1, sentence
    return sorted(shown, key=text.index)


@pytest.mark.parametrize("d", (1, 2, 4, 8, 12))
def test_long_source_runs_rederived(d: int) -> None:
    """With --sources, d >= 1 asks for a run of consecutive paragraphs of 4d + 5 to 8d + 12
    sentences, re-derived from the source text."""
    sources = Sources(texts={"long.txt": LONG_SOURCE})
    for index in range(4):
        q = TASK.generate(question_rng(RELEASE, TASK.name, index), sources, d)
        assert q.subtask == "long" and "from a passage" in q.prompt
        truth = source_truth(q.prompt, LONG_SOURCE)
        assert truth == sentences(q)
        assert 4 * d + 5 <= len(truth) <= 8 * d + 12
        assert " ".join(truth) in " ".join(LONG_SOURCE.split())  # consecutive text
        assert len(q.material) >= 1 and " ".join(q.material) == " ".join(truth)


# ---------------------------------------------------------------- material


def test_each_passage_is_material() -> None:
    for index in range(8):
        q = make(index)
        assert q.material == (" ".join(sentences(q)),)


@pytest.mark.parametrize("d", (0, 2))
def test_a_store_never_serves_a_narrative_twice(d: int) -> None:
    sources, seen, index = Sources.empty(), set(), 0
    with pytest.raises(UserError) as failure:
        while True:
            q = TASK.generate(question_rng(RELEASE, TASK.name, index), sources, d)
            assert not set(q.material) & seen
            seen |= set(q.material)
            sources = sources.using(q.material)
            index += 1
    message = str(failure.value)
    assert "\n" not in message and "corpus.jsonl" in message and "live fetch" in message
    assert len(seen) > len(narratives()) - (d + 1)


def test_sources_drawn_newest_first_and_fresh() -> None:
    old_story, new_story = narratives()[0], narratives()[1]
    sources = Sources(
        texts={"a_old.txt": old_story, "b_new.txt": new_story},
        dates={"a_old.txt": "2026-10-01", "b_new.txt": "2026-11-20"},
    )
    rng = question_rng(RELEASE, TASK.name, 0)
    assert " ".join(sentences(TASK.generate(rng, sources))) == new_story
    used = Sources(sources.texts, dates=sources.dates, used=frozenset({material_digest(new_story)}))
    rng = question_rng(RELEASE, TASK.name, 0)
    assert " ".join(sentences(TASK.generate(rng, used))) == old_story
    spent = used.using([old_story])
    with pytest.raises(UserError, match=r"plot_unscrambling.*live fetch"):
        TASK.generate(question_rng(RELEASE, TASK.name, 0), spent)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([*sentences(make_at(2, 1)), "1", "Order: 2, 1", "- ", "junk"])))
def test_score_in_range_on_mixed_passages(lines: list[str]) -> None:
    q = make_at(2, 1)
    checks.assert_scores_in_range(TASK, [record(q)], ["\n".join(lines), tagged(lines)])
