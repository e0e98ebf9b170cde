"""Every instruction kind's checker on texts that follow it and texts that break it."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladderbench.live.tasks._instructions import (
    CONFLICTS,
    KINDS,
    RESERVED_WORDS,
    DrawContext,
    check,
    compatible,
    compose,
    describe,
    draw_params,
    paragraphs,
    sentence_counts,
    word_counts,
)

REQUEST = "Summarise the passage below for a busy reader."

# (instruction, texts that follow it, texts that break it); two or more of each per kind.
CASES: list[tuple[dict, list[str], list[str]]] = [
    (
        {"kind": "repeat_prompt", "request": REQUEST},
        [
            f"{REQUEST}\n\nA baker opens her shop at dawn.",
            f"{REQUEST.lower()} The guard finds an empty frame.",
            f"**{REQUEST}**\n\nShort answer here.",
        ],
        [
            f"Sure! {REQUEST}\n\nA baker opens her shop.",
            "A baker opens her shop at dawn.",
            REQUEST,  # nothing after the repetition
            "Summarise the passage for a busy reader.\n\nA baker opens her shop.",
        ],
    ),
    (
        {"kind": "two_responses"},
        [
            "First take on it.\n******\nSecond take on it.",
            "******\nOne version.\n\n******\n\nAnother version.\n******",
            "Alpha.\n*******\nBeta.",
        ],
        [
            "Only one response here.",
            "Same text.\n******\nSame text.",
            "One.\n******\nTwo.\n******\nThree.",
            "One.\n******\n\n******\nTwo.",
        ],
    ),
    (
        {"kind": "postscript", "marker": "P.S."},
        [
            "The story is short.\n\nP.S. I liked it.",
            "The story is short.\np.s. thanks for reading",
            "The story is short.\n\n**P.S.** One more thing.",
            "The story is short.\nP. S. It was fun.",
        ],
        [
            "The story is short. I liked it.",
            "P.S. Only a postscript.",
            "The story is short.\n\nP.P.S. I liked it.",
            "The story is short and tops.",
        ],
    ),
    (
        {"kind": "postscript", "marker": "P.P.S."},
        ["Body text.\n\nP.P.S. See you.", "Body text.\nP.P.S: bye now"],
        ["Body text.\n\nP.S. See you.", "Body text without any postscript."],
    ),
    (
        {
            "kind": "constrained_response",
            "question": "Is the passage easy to read?",
            "options": ["My answer is yes.", "My answer is no.", "My answer is maybe."],
        },
        [
            "A short summary. My answer is yes.",
            "My answer is **no**. The passage is dense.",
            "my answer is maybe",
        ],
        [
            "A short summary. Yes.",
            "My answer is yes. Actually, my answer is no.",
            "My answer is yesterday's news.",
        ],
    ),
    (
        {"kind": "json_format"},
        [
            '{"summary": "A thief is caught."}',
            '```json\n{"summary": "A thief is caught.", "points": [1, 2]}\n```',
            '  {"a": 1}  \n',
        ],
        [
            "summary: a thief is caught",
            '```json\n{"summary": "unterminated}\n```',
            '["a", "list"]',
            'Here you go: {"a": 1}',
            "[" * 5000 + "]" * 5000,
        ],
    ),
    (
        {"kind": "multiple_sections", "count": 3, "marker": "SECTION"},
        [
            "SECTION 1\nOne.\n\nSECTION 2\nTwo.\n\nSECTION 3\nThree.",
            '**SECTION 1:** One.\n## Section 2\nTwo.\n"SECTION 3 Three.',
        ],
        [
            "SECTION 1\nOne.\n\nSECTION 2\nTwo.",
            "SECTION 1\nOne.\nSECTION 2\nTwo.\nSECTION 3\nThree.\nSECTION 4\nFour.",
            "This section 1 and section 2 and section 3 are inline.",
        ],
    ),
    (
        {"kind": "list_items", "count": 3, "style": "bullet"},
        [
            "Intro.\n* one\n* two\n* three",
            "- one\n- two\n  - nested three\n\n---\nEnd.",
            '"* one\n* two\n* three"',
        ],
        [
            "* one\n* two",
            "1. one\n2. two\n3. three",
            "**bold** line\n* one\n* two\n* * *",
            "* one\n* two\n* three\n* four",
        ],
    ),
    (
        {"kind": "list_items", "count": 2, "style": "numbered"},
        ["1. first\n2. second", "Intro.\n1) first\n2) second\nDone."],
        ["* first\n* second", "1. first\n2. second\n3. third"],
    ),
    (
        {"kind": "title"},
        [
            "<<The Stolen Painting>>\n\nText.",
            "Text with «A Title» inline.",
            "＜＜Full Width＞＞ text",
        ],
        ["# The Stolen Painting\n\nText.", "<< >> empty title", "<<Broken\ntitle>>"],
    ),
    (
        {"kind": "keywords", "words": ["lantern", "harbor"]},
        [
            "A lantern lit the harbor.",
            "Two LANTERNS by the Harbor's edge.",
            "The **lantern** and the harbor.",
        ],
        ["A lantern lit the port.", "Lanternfish swim near the harborside.", "Nothing at all."],
    ),
    (
        {"kind": "forbidden_words", "words": ["museum", "painting"]},
        ["The gallery lost a picture.", "A canvas vanished from the hall."],
        [
            "The Museum lost a picture.",
            "A painting vanished.",
            "The **museum** was quiet.",
            "MUSEUM",
        ],
    ),
    (
        {"kind": "paragraph_count", "count": 2},
        [
            "First paragraph.\n\nSecond paragraph.",
            "First.\r\n\r\nSecond.\n\n\n",
            "First.\n   \nSecond line one.\nSecond line two.",
            "First.\n***\nSecond.",
        ],
        ["Only one paragraph.", "One.\n\nTwo.\n\nThree.", "One.\nTwo on the next line."],
    ),
    (
        {"kind": "paragraph_first_word", "n": 2, "word": "Meanwhile"},
        [
            "The guard ran.\n\nMeanwhile, the thief left.",
            "The guard ran.\n\n**Meanwhile** the thief left.\n\nThe end.",
            '"The guard ran.\n\nmeanwhile the thief left."',
        ],
        [
            "Meanwhile the guard ran.\n\nThe thief left.",
            "The guard ran.\n\nIn the meanwhile the thief left.",
            "The guard ran. Meanwhile the thief left.",
            "The guard ran.\n\nMeanwhiles the thief left.",
        ],
    ),
    (
        {"kind": "sentence_count", "relation": "at most", "n": 2},
        [
            "One sentence. Two sentences.",
            "Dr. Smith met Mr. Jones at 3.5 km, e.g. near the park. They talked.",
            "A list without full stops\n* item one\n* item two",
        ],
        ["One. Two. Three.", "One! Two? Three.", "One sentence.\nAnother one.\nA third one."],
    ),
    (
        {"kind": "sentence_count", "relation": "at least", "n": 3},
        ["One. Two. Three.", "<<Title>>\nFirst line.\nSecond line"],
        ["One. Two.", "Just one sentence here, e.g. this clause."],
    ),
    (
        {"kind": "word_count", "relation": "at most", "n": 5},
        ["One two three four five.", "Don't stop me now please.", "  a b c  \n"],
        ["One two three four five six.", "A really long answer with far too many words."],
    ),
    (
        {"kind": "word_count", "relation": "at least", "n": 5},
        ["One two three four five.", "Don't stop-me now."],
        ["One two three four.", "Short."],
    ),
    (
        {"kind": "end_phrase", "phrase": "Any other questions?"},
        [
            "The summary ends here. Any other questions?",
            "The summary ends here. any other questions?  \n\n",
            '"The summary ends here. **Any other questions?**"',
            "The summary ends here. Any other questions",
        ],
        [
            "Any other questions? The summary ends here.",
            "The summary ends here. Any other questions? Thanks.",
            "The summary ends here.",
            "The summary ends here. Many other questions?",
        ],
    ),
    (
        {"kind": "quotation"},
        ['"The whole reply is quoted."', "“Curly quotes count too.”", '  "Padded."  \n'],
        ['The "quote" is inside.', '"Opened but not closed.', '""', "'Single quotes.'"],
    ),
    (
        {"kind": "lowercase"},
        ["all lowercase here.", "ünïcödé ße ok", "numbers 123 are fine."],
        ["Capital at start.", "all lowercase but one I", "123 456"],
    ),
    (
        {"kind": "no_comma"},
        ["No commas here.", "Semicolons; colons: fine."],
        ["One, two.", "Full-width comma，here."],
    ),
    (
        {"kind": "paragraph_word_count", "n": 2, "count": 6},
        [
            "A title line.\n\nThe baker opens her shop early.",
            "First part.\n\nThe baker opens her shop, early.\n\nThird part.",
            "One.\n\nthe baker doesn't open it.",  # 5 or 6 words: either reading passes
        ],
        [
            "The baker opens her shop early.",
            "One.\n\nThe baker opens her small shop early.",
            "One.\n\nThe baker opens early.",
        ],
    ),
    (
        {"kind": "word_order", "first": "lantern", "then": "harbor"},
        [
            "A lantern glowed over the harbor.",
            "Lanterns lit the way; later the harbor and another lantern.",
        ],
        [
            "The harbor had a lantern.",
            "A lantern and nothing else.",
            "The harbor alone.",
        ],
    ),
    (
        {"kind": "word_frequency", "word": "pebble", "count": 2},
        [
            "A pebble and a Pebble.",
            "One pebble, two pebbles, another pebble.",  # the plural does not count
        ],
        [
            "A pebble.",
            "A pebble, a pebble, a pebble.",
            "Pebbles and pebbles.",
        ],
    ),
    (
        {"kind": "forbidden_letter", "letter": "u"},
        [
            "A calm sea at dawn.",
            "The tide rises and the sea is still.",
        ],
        [
            "Under a calm sea.",
            "A calm sea at dawn, UNTIL night.",
        ],
    ),
]


@pytest.mark.parametrize(
    ("instruction", "text"),
    [(i, t) for i, good, _ in CASES for t in good],
    ids=lambda v: v["kind"] if isinstance(v, dict) else None,
)
def test_checker_passes(instruction: dict, text: str) -> None:
    assert check(instruction, text), text


@pytest.mark.parametrize(
    ("instruction", "text"),
    [(i, t) for i, _, bad in CASES for t in bad],
    ids=lambda v: v["kind"] if isinstance(v, dict) else None,
)
def test_checker_fails(instruction: dict, text: str) -> None:
    assert not check(instruction, text), text


def test_every_kind_has_cases() -> None:
    covered = {i["kind"] for i, good, bad in CASES if len(good) >= 2 and len(bad) >= 2}
    assert covered == set(KINDS)


@pytest.mark.parametrize("instruction", [i for i, _, _ in CASES], ids=lambda i: i["kind"])
@pytest.mark.parametrize("text", ["", "   ", "\n\n", "\t"])
def test_empty_text_follows_nothing(instruction: dict, text: str) -> None:
    assert not check(instruction, text)


@pytest.mark.parametrize("instruction", [i for i, _, _ in CASES], ids=lambda i: i["kind"])
def test_trailing_whitespace_does_not_matter(instruction: dict) -> None:
    for text in CASES[[i for i, _, _ in CASES].index(instruction)][1]:
        assert check(instruction, text + "  \n\n \t\n"), text
        assert check(instruction, text.replace("\n", "\r\n")), text


def test_malformed_instructions_are_not_followed() -> None:
    assert not check({"kind": "no_such_kind"}, "text")
    assert not check({"kind": "word_count"}, "text")  # missing parameters
    assert not check({"kind": "keywords", "words": None}, "text")
    assert not check("not a dict", "text")  # type: ignore[arg-type]
    assert not check({"kind": ["list"]}, "text")
    assert not check({"kind": "word_count", "relation": "exactly", "n": 1}, "text")
    assert not check({"kind": "sentence_count", "relation": "at most", "n": "2"}, "text")


def test_counting_helpers() -> None:
    assert paragraphs("a\n\nb\n \nc") == ["a", "b", "c"]
    assert paragraphs('"\n\nOnly one.\n\n"') == ["Only one."]
    assert sentence_counts("Title\nOne. Two.") == (2, 3)
    assert sentence_counts("P.S. This is one sentence.") == (1, 1)
    assert word_counts("don't stop-me") == (2, 4)
    assert word_counts("<<A Title>> — ok") == (3, 3)


def test_conflicts_are_symmetric_pairs_of_known_kinds() -> None:
    for pair in CONFLICTS:
        assert len(pair) == 2 and pair <= set(KINDS)
        a, b = sorted(pair)
        assert not compatible(a, [b]) and not compatible(b, [a])
    assert not compatible("title", ["title"])
    assert compatible("keywords", ["json_format", "forbidden_words"])


def test_stated_incompatibilities() -> None:
    assert not compatible("json_format", ["multiple_sections"])
    assert not compatible("paragraph_count", ["title"])
    assert not compatible("lowercase", ["end_phrase"])
    assert not compatible("two_responses", ["word_count"])


PASSAGE = (
    "Just before midnight the alarm at the city museum rang for eleven seconds and then fell "
    "silent. The night guard hurried to the east gallery and found an empty frame where a small "
    "landscape painting had hung."
)
CTX = DrawContext(
    request=REQUEST,
    passage=PASSAGE,
    word_limits=(("at most", 30, 50), ("at least", 60, 80)),
    sentence_limits=(("at most", 2, 5), ("at least", 6, 9)),
)


def test_drawn_forbidden_and_keywords_avoid_clashes() -> None:
    passage_words = {w.strip(".").casefold() for w in PASSAGE.split()}
    assert set(CTX.forbidden_candidates()) <= passage_words
    assert not set(CTX.forbidden_candidates()) & RESERVED_WORDS
    assert "passage" not in CTX.forbidden_candidates()  # a word of the request
    assert not set(CTX.keyword_candidates()) & passage_words


def test_every_compatible_pair_composes() -> None:
    """Any two compatible kinds, with drawn parameters, have a response meeting both."""
    rng = random.Random(7)
    for a, b in itertools.combinations(KINDS, 2):
        if not compatible(a, [b]):
            continue
        for _ in range(3):
            drawn: dict = {}
            try:
                for kind in KINDS:
                    if kind in (a, b):
                        drawn[kind] = draw_params(kind, rng, CTX, drawn)
                instructions = list(drawn.values())
                text = compose(instructions)
            except ValueError:
                # Tight limits with a big structure, or a forbidden letter that the request or
                # every option holds: the task redraws these.
                continue
            assert all(check(p, text) for p in instructions), (instructions, text)
            for p in instructions:
                assert "\n" not in describe(p)


def test_compose_rejects_conflicts_and_duplicates() -> None:
    with pytest.raises(ValueError):
        compose([{"kind": "json_format"}, {"kind": "title"}])
    with pytest.raises(ValueError):
        compose([{"kind": "title"}, {"kind": "title"}])
    with pytest.raises(ValueError):
        compose([{"kind": "word_count", "relation": "at most", "n": 1}, {"kind": "title"}])


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300), st.sampled_from([i for i, _, _ in CASES]))
def test_check_never_raises(text: str, instruction: dict) -> None:
    assert check(instruction, text) in (True, False)


@pytest.mark.parametrize("instruction", [i for i, _, _ in CASES], ids=lambda i: i["kind"])
def test_long_pathological_inputs_are_checked(instruction: dict) -> None:
    """Inputs that make naive regexes backtrack (an unclosed title, a fence of spaces)."""
    n = 5000
    for text in (
        "<<" + "a" * n,
        "《" + "a " * n,
        "```" + " " * n + "x",
        "```json" + "\t" * n,
        "* \t" * n + "x",
        "p. " * n,
        "[" * n,
        "\n \n" * n,
    ):
        assert check(instruction, text) in (True, False)
