"""The instruction-following task: instructions re-read from the prompt, reference, scoring."""

from __future__ import annotations

import json
import re

import pytest
import task_checks as checks
from task_checks import INDICES, RELEASE, make_question, record

from ladderbench.live.base import Question, Sources
from ladderbench.live.registry import get_task
from ladderbench.live.tasks._corpus import default_corpus
from ladderbench.live.tasks._instructions import CONFLICTS, KINDS, V1_KINDS, check, compose
from ladderbench.live.tasks.instruction_following import (
    MEETINGS,
    SUBTASKS,
    InstructionFollowing,
    difficulty_config,
)

TASK = InstructionFollowing()


def make(
    index: int, release: str = RELEASE, sources: Sources | None = None, difficulty: int = 0
) -> Question:
    return make_question(TASK, index, release, sources, difficulty)


QUESTIONS = [make(i) for i in INDICES]
RECORDS = [record(q) for q in QUESTIONS]


# ------------------------------------------------------------ re-reading the prompt


def _quoted(text: str) -> list[str]:
    return re.findall(r"'([^']+)'", text)


def parse_instruction(line: str) -> dict:
    """One numbered prompt line back into its instruction, written independently of the module."""
    ordinals = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
    patterns = [
        (r"First repeat the request on the first line", lambda m: {"kind": "repeat_prompt"}),
        (r"Give two different responses\.", lambda m: {"kind": "two_responses"}),
        (
            r"At the end of your response, add a postscript starting with (P\.(?:P\.)?S\.)$",
            lambda m: {"kind": "postscript", "marker": m.group(1)},
        ),
        (
            r"(.+\?) Give your verdict with exactly one of these options, word for word, "
            r"somewhere in your response: (.+)$",
            lambda m: {
                "kind": "constrained_response",
                "question": m.group(1),
                "options": _quoted(m.group(2)),
            },
        ),
        (
            r"Your entire response must be a single valid JSON object",
            lambda m: {"kind": "json_format"},
        ),
        (
            r"must have exactly (\d+) sections\. Mark the beginning of each section with (\w+) X",
            lambda m: {"kind": "multiple_sections", "count": int(m.group(1)), "marker": m.group(2)},
        ),
        (
            r"must contain exactly (\d+) bullet points",
            lambda m: {"kind": "list_items", "count": int(m.group(1)), "style": "bullet"},
        ),
        (
            r"must contain exactly (\d+) numbered list items",
            lambda m: {"kind": "list_items", "count": int(m.group(1)), "style": "numbered"},
        ),
        (r"must contain a title wrapped in double angular brackets", lambda m: {"kind": "title"}),
        (
            r"^Include the words? (.+) in your response\.$",
            lambda m: {"kind": "keywords", "words": _quoted(m.group(1))},
        ),
        (
            r"^Do not use the words? (.+) anywhere in your response\.$",
            lambda m: {"kind": "forbidden_words", "words": _quoted(m.group(1))},
        ),
        (
            r"must have exactly (\d+) paragraphs",
            lambda m: {"kind": "paragraph_count", "count": int(m.group(1))},
        ),
        (
            r"the (\w+) paragraph must start with the word '(\w+)'",
            lambda m: {
                "kind": "paragraph_first_word",
                "n": ordinals.index(m.group(1)) + 1,
                "word": m.group(2),
            },
        ),
        (
            r"must contain (at least|at most) (\d+) sentences\.",
            lambda m: {"kind": "sentence_count", "relation": m.group(1), "n": int(m.group(2))},
        ),
        (
            r"must contain (at least|at most) (\d+) words\.",
            lambda m: {"kind": "word_count", "relation": m.group(1), "n": int(m.group(2))},
        ),
        (
            r"Finish your response with this exact phrase: '(.+)' No other words",
            lambda m: {"kind": "end_phrase", "phrase": m.group(1)},
        ),
        (r"Wrap your entire response in double quotation marks", lambda m: {"kind": "quotation"}),
        (r"entire response in lowercase letters", lambda m: {"kind": "lowercase"}),
        (r"Do not use any commas", lambda m: {"kind": "no_comma"}),
        (
            r"the (\w+) paragraph must contain exactly (\d+) words\.$",
            lambda m: {
                "kind": "paragraph_word_count",
                "n": ordinals.index(m.group(1)) + 1,
                "count": int(m.group(2)),
            },
        ),
        (
            r"^Use both words '(\w+)' and '(\w+)', and use '\1' for the first time before you "
            r"use '\2' for the first time\.$",
            lambda m: {"kind": "word_order", "first": m.group(1), "then": m.group(2)},
        ),
        (
            r"^Use the word '(\w+)' exactly (\d+) times, in exactly this form",
            lambda m: {"kind": "word_frequency", "word": m.group(1), "count": int(m.group(2))},
        ),
        (
            r"^Do not use the letter '([a-z])' anywhere in your response",
            lambda m: {"kind": "forbidden_letter", "letter": m.group(1)},
        ),
    ]
    found = [build(m) for pattern, build in patterns if (m := re.search(pattern, line))]
    assert len(found) == 1, line
    return found[0]


def read_prompt(prompt: str) -> tuple[str, str, list[dict]]:
    m = re.fullmatch(
        r'(?s)([^\n]+)\n\nPassage:\n"""\n(.+)\n"""\n\nFollow every one of these instructions:\n'
        r"(.+?)\n\nYour reply is checked exactly as written.+",
        prompt,
    )
    assert m, prompt
    request, passage, listed = m.groups()
    lines = [line for line in listed.split("\n") if not line.startswith("Note: ")]
    assert [int(line.split(".")[0]) for line in lines] == list(range(1, len(lines) + 1))
    instructions = [parse_instruction(line.split(". ", 1)[1]) for line in lines]
    for p in instructions:
        if p["kind"] == "repeat_prompt":
            p["request"] = request
    return request, passage, instructions


@pytest.mark.parametrize("index", INDICES)
def test_instructions_rederived_from_prompt(index: int) -> None:
    q = QUESTIONS[index]
    request, passage, instructions = read_prompt(q.prompt)
    assert instructions == q.fields["instructions"]
    assert json.loads(q.ground_truth) == instructions
    assert passage in default_corpus()
    assert request in SUBTASKS[q.subtask].requests
    passage_words = {w.casefold() for w in re.findall(r"\w+", passage)}
    for p in instructions:
        if p["kind"] == "forbidden_words":
            assert set(p["words"]) <= passage_words  # the passage's own words
        if p["kind"] == "keywords":
            assert not set(p["words"]) & passage_words


@pytest.mark.parametrize("index", INDICES)
def test_the_ground_truth_alone_is_enough(index: int) -> None:
    rec = RECORDS[index]
    reply = TASK.reference(rec)
    without_field = {"ground_truth": rec["ground_truth"], "subtask": rec["subtask"]}
    assert TASK.score(without_field, reply).score == 1.0  # the ground truth alone is enough


def test_drawn_instructions_are_compatible() -> None:
    counts = set()
    for q in QUESTIONS:
        instructions = q.fields["instructions"]
        kinds = [p["kind"] for p in instructions]
        counts.add(len(kinds))
        assert len(set(kinds)) == len(kinds)
        for a in kinds:
            for b in kinds:
                assert frozenset((a, b)) not in CONFLICTS
        by_kind = {p["kind"]: p for p in instructions}
        if "paragraph_count" in by_kind and "paragraph_first_word" in by_kind:
            assert by_kind["paragraph_first_word"]["n"] <= by_kind["paragraph_count"]["count"]
        required = set(by_kind.get("keywords", {}).get("words", []))
        assert not required & set(by_kind.get("forbidden_words", {}).get("words", []))
        json.dumps(q.fields)  # JSON-serialisable
    assert counts == {1, 2, 3}
    assert {q.subtask for q in QUESTIONS} == set(SUBTASKS)


def test_every_kind_is_drawn() -> None:
    """Difficulty 0 draws the version 1 kinds only; the harder levels draw every kind."""
    kinds = {p["kind"] for i in range(300) for p in make(i).fields["instructions"]}
    assert kinds == set(V1_KINDS)
    harder = {
        p["kind"]
        for d in (1, 4)
        for i in range(40)
        for p in make(i, difficulty=d).fields["instructions"]
    }
    assert harder == set(KINDS) - {"json_format"}  # JSON clashes with the forbidden letter


# ------------------------------------------------------------ scoring


def test_breaking_one_instruction_gives_documented_partial_credit() -> None:
    """A reply meeting all but one of k instructions scores (0 + (k-1)/k) / 2."""
    tried = 0
    for rec in RECORDS:
        instructions = rec["instructions"]
        if len(instructions) < 2:
            continue
        for dropped in range(len(instructions)):
            rest = instructions[:dropped] + instructions[dropped + 1 :]
            reply = compose(rest)
            if TASK.score({**rec, "instructions": [instructions[dropped]]}, reply).score == 0.0:
                k = len(instructions)
                assert TASK.score(rec, reply).score == pytest.approx((k - 1) / k / 2)
                tried += 1
    assert tried >= 20


def test_typical_wrong_answers_score_below_one() -> None:
    for rec in RECORDS:
        reference = TASK.reference(rec)
        assert TASK.score(rec, "").score == 0.0
        assert TASK.score(rec, "<think>" + reference).score == 0.0  # cut off while thinking
        assert (
            TASK.score(rec, "I cannot help with that.").score < 1.0 or len(rec["instructions"]) == 1
        )
    # The passage handed back unchanged breaks most instruction sets.
    unchanged = [
        TASK.score(rec, read_prompt(q.prompt)[1]).score for q, rec in zip(QUESTIONS, RECORDS)
    ]
    assert sum(s < 1.0 for s in unchanged) >= 48


def test_one_instruction_score_is_all_or_nothing() -> None:
    rec = {
        "ground_truth": "[]",
        "subtask": "summarise",
        "instructions": [{"kind": "no_comma"}],
    }
    assert TASK.score(rec, "No commas here.").score == 1.0
    assert TASK.score(rec, "Commas, here.").score == 0.0
    three = {
        **rec,
        "instructions": [{"kind": "no_comma"}, {"kind": "title"}, {"kind": "quotation"}],
    }
    assert TASK.score(three, "Commas, here.").score == 0.0
    assert TASK.score(three, "No commas here.").score == pytest.approx(1 / 6)
    assert TASK.score(three, "<<T>> No commas here.").score == pytest.approx(1 / 3)
    assert TASK.score(three, '"<<T>> No commas here."').score == 1.0


@pytest.mark.parametrize("index", INDICES[:16])
def test_reasonable_wrappers_of_the_reference_score_one(index: int) -> None:
    rec = RECORDS[index]
    reply = TASK.reference(rec)
    for variant in (
        f"<solution>{reply}</solution>",
        f"<solution>\n{reply}\n</solution>\n",
        f"<think>Let me check each instruction.</think>\n{reply}",
        f"<think>plan</think><solution>{reply}</solution>",
        reply + "\n\n  ",
        reply.replace("\n", "\r\n"),
    ):
        assert TASK.score(rec, variant).score == 1.0, variant


def test_malformed_records_score_zero() -> None:
    assert TASK.score({"ground_truth": "not json", "subtask": "story"}, "text").score == 0.0
    assert TASK.score({"ground_truth": "{}", "subtask": "story"}, "text").score == 0.0
    assert TASK.score({"ground_truth": "[]", "subtask": "story"}, "text").score == 0.0
    assert TASK.score({"ground_truth": "[1]", "subtask": "story"}, "text").score == 0.0


# ------------------------------------------------------------ determinism and sources


def test_uses_given_sources() -> None:
    text = (
        "The tram climbed the hill past the shuttered bakeries while snow gathered on the rails "
        "and a conductor in a heavy coat called out each stop to passengers who were half asleep "
        "and clutching their tickets in gloved hands as the city woke slowly below them.\n\nshort"
    )
    sources = Sources(texts={"tram.txt": text})
    for i in range(8):
        q = make(i, sources=sources)
        assert "The tram climbed the hill" in q.prompt
        assert "short" not in read_prompt(q.prompt)[1].split()
        assert TASK.score(record(q), TASK.reference(record(q))).score == 1.0


def test_registered() -> None:
    task = get_task("instruction_following")
    assert isinstance(task, InstructionFollowing)
    assert task.category == "instruction_following" and task.uses_sources


def test_shipped_ladder_states_its_instructions() -> None:
    rungs = checks.load_ladder("instruction_following")
    for rung in rungs:
        context = rung.context
        assert read_prompt(context["question"])[2] == context["instructions"]
        assert json.loads(context["ground_truth"]) == context["instructions"]


# ------------------------------------------------------------ difficulty 1 and up

LEVELS = checks.HARDER_LEVELS


def harder(d: int) -> list[Question]:
    return [make(i, difficulty=d) for i in range(6 if d <= 12 else 3)]


@pytest.mark.parametrize("d", LEVELS)
def test_harder_levels_rederived_from_prompt(d: int) -> None:
    """The instructions read back from the prompt are the record's; the reference meets them;
    the instructions required at this level are there, and no text an instruction requires
    holds the forbidden letter (else no reply could follow both)."""
    for q in harder(d):
        _, passage, instructions = read_prompt(q.prompt)
        assert instructions == q.fields["instructions"] == json.loads(q.ground_truth)
        assert passage in default_corpus() and q.material == (passage,)
        assert len(instructions) == 3 + d
        kinds = [p["kind"] for p in instructions]
        assert kinds.count("forbidden_letter") == 1
        assert kinds.count("paragraph_word_count") == min(3, d // 2)
        assert all(frozenset((a, b)) not in CONFLICTS for a in kinds for b in kinds)
        letter = next(p["letter"] for p in instructions if p["kind"] == "forbidden_letter")
        for p in instructions:
            required = [p.get("phrase"), p.get("word"), p.get("first"), p.get("then")]
            required += p.get("words", []) if p["kind"] == "keywords" else []
            if p["kind"] == "constrained_response":
                required += p["options"]
            assert all(letter not in t.casefold() for t in required if t), (letter, p)
        ordered = [p for p in instructions if p["kind"] == "word_order"]
        seconds = [p["then"] for p in ordered]
        assert len(set(seconds)) == len(seconds)  # chains never loop: each second word is new
        exact = [p["n"] for p in instructions if p["kind"] == "paragraph_word_count"]
        assert len(set(exact)) == len(exact)
        count = next((p["count"] for p in instructions if p["kind"] == "paragraph_count"), None)
        assert all(n <= count for n in exact) if exact else True
        reply = TASK.reference(record(q))
        assert TASK.score(record(q), reply).score == 1.0
        assert letter not in reply.casefold()


def _words(paragraph: str) -> int:
    return len(re.findall(r"[A-Za-z]+", paragraph))


def test_exact_paragraph_counts_are_checked_independently() -> None:
    """The reference's paragraphs have the stated word counts, counted here by hand."""
    for q in harder(8):
        reply = TASK.reference(record(q))
        blocks = [b for b in re.split(r"\n\s*\n", reply) if b.strip()]
        for p in q.fields["instructions"]:
            if p["kind"] == "paragraph_word_count":
                assert _words(blocks[p["n"] - 1]) == p["count"]
            if p["kind"] == "paragraph_count":
                assert len(blocks) == p["count"]
            if p["kind"] == "word_frequency":
                found = re.findall(rf"\b{p['word']}\b", reply, flags=re.I)
                assert len(found) == p["count"]
            if p["kind"] == "word_order":
                low = reply.casefold()
                assert -1 < low.find(p["first"]) < low.find(p["then"])


def test_difficulty_grows() -> None:
    """More instructions at every step, and more exact paragraph counts every second step."""
    sizes = [len(difficulty_config(d).required) for d in range(13)]
    counts = [difficulty_config(d).instruction_counts for d in range(13)]
    assert counts[0] == (1, 2, 3) and [c[0] for c in counts[1:]] == list(range(4, 16))
    assert sizes == sorted(sizes) and sizes[1] == 1 and sizes[6] == 5
    assert difficulty_config(0).kinds == V1_KINDS
    with pytest.raises(ValueError):
        difficulty_config(-1)


def test_partial_credit_at_a_harder_level() -> None:
    """Breaking one of k instructions scores (0 + (k-1)/k) / 2, as LiveBench scores IFEval."""
    tried = 0
    for q in harder(4):
        rec = record(q)
        letter = next(p["letter"] for p in rec["instructions"] if p["kind"] == "forbidden_letter")
        reply = TASK.reference(rec)
        broken = reply.replace(".", f" {letter}.", 1)  # one word more, holding the letter
        results = [check(p, broken) for p in rec["instructions"]]
        k = len(results)
        assert TASK.score(rec, broken).score == pytest.approx((all(results) + sum(results) / k) / 2)
        assert not all(results)
        tried += 1
    assert tried == 6


def test_new_kinds_break_on_near_misses() -> None:
    exact = {"kind": "paragraph_word_count", "n": 2, "count": 5}
    assert check(exact, "One two.\n\nOne two three four five.")
    assert not check(exact, "One two.\n\nOne two three four five six.")
    assert not check(exact, "One two three four five.")  # no second paragraph
    order = {"kind": "word_order", "first": "kettle", "then": "meadow"}
    assert check(order, "A kettle sat in the meadow by another kettle.")
    assert not check(order, "The meadow held a kettle.")
    assert not check(order, "Only a kettle here.")
    frequency = {"kind": "word_frequency", "word": "pebble", "count": 2}
    assert check(frequency, "A pebble, another Pebble, and pebbles.")  # plurals do not count
    assert not check(frequency, "A pebble and pebble and pebble.")
    letter = {"kind": "forbidden_letter", "letter": "u"}
    assert check(letter, "A calm sea at dawn.")
    assert not check(letter, "Under a calm sea.")


def test_fresh_passages_only_and_a_clear_error_when_none_is_left() -> None:
    from ladderbench.errors import UserError

    first = make(0)
    used = Sources.empty().using(first.material)
    again = [make(i, sources=used) for i in range(12)]
    assert all(q.material != first.material for q in again)
    everything = Sources.empty().using(default_corpus())
    with pytest.raises(UserError, match="ladderbench live fetch"):
        make(0, sources=everything)


def test_newest_sources_first() -> None:
    paragraph = (
        "The {0} climbed the hill past the shuttered bakeries while snow gathered on the rails "
        "and a conductor in a heavy coat called out each stop to passengers who were half asleep "
        "and clutching their tickets in gloved hands as the city woke slowly below them."
    )
    old = "\n\n".join(paragraph.format(f"old{i}") for i in range(20))
    new = "\n\n".join(paragraph.format(f"new{i}") for i in range(20))
    sources = Sources(
        texts={"a.txt": old, "b.txt": new}, dates={"a.txt": "2026-01-01", "b.txt": "2026-11-30"}
    )
    for i in range(8):
        assert "The new" in make(i, sources=sources).prompt


def test_where_two_instructions_meet_the_prompt_says_what_counts():
    """Frontier readers took 'start with the word However' + 'no capital letters', and 'wrap in
    quotation marks' + 'finish with this phrase', for contradictions: from d = 1 the prompt says
    how they meet, and the reference (which meets both) confirms the checkers read it so."""
    seen = set()
    for index in range(200):
        q = make_question(TASK, index, difficulty=6)
        kinds = {p["kind"] for p in q.fields["instructions"]}
        for a, b, note in MEETINGS:
            if {a, b} <= kinds:
                seen.add(a)
                assert note in q.prompt
                assert TASK.score(record(q), TASK.reference(record(q))).score == 1.0
            else:
                assert note not in q.prompt
    assert seen == {"lowercase", "quotation"}
