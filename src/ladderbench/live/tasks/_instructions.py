"""Verifiable instructions (IFEval style): their kinds, parameters, checkers and a builder.

An instruction is a JSON-serialisable dict: ``{"kind": ..., **parameters}``. Every kind is one
:class:`Kind` object, defined in one place beside its checker: the sentence the prompt states,
the checker (does a response follow it?), how its parameters are drawn from an rng, and whether
a passage allows it; ``ALL_KINDS`` lists them, so a new kind is one definition there. What
concerns several kinds at once stays apart: ``CONFLICTS`` lists the pairs never drawn together
(pairs that contradict each other, such as JSON and sections, and pairs whose combined reading
would be unclear: does a title line count as a paragraph?), and ``compose`` writes a response
that follows any compatible set at once (the reference answer, and the feasibility test for a
drawn set). ``V1_KINDS`` are the kinds of version 1 (difficulty 0); ``REPEATABLE`` kinds may come
several times in one question; a drawer that cannot meet what was drawn before it (a forbidden
letter in every option) raises ValueError, and the task redraws the set.

Checkers read the response as written, permissively where a reasonable writer could differ
(markdown emphasis, curly quotes, a code fence around JSON, CRLF line ends, trailing blank
space); every count names its unit in the prompt and, where two conventions exist (is a bullet
without a full stop a sentence? is "don't" one word or two?), the response passes if it passes
under either. An empty response follows no instruction.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ladderbench.grading.extract import normalise_text

Instruction = dict[str, Any]

# ---------------------------------------------------------------- fixed vocabulary

CONSTRAINED_OPTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Would you recommend the passage to a friend?",
        ("My answer is yes.", "My answer is no.", "My answer is maybe."),
    ),
    (
        "Is the passage easy to read?",
        ("My answer is yes.", "My answer is no.", "My answer is maybe."),
    ),
    (
        "Did the passage hold your interest?",
        ("I would say yes.", "I would say no.", "I am not sure."),
    ),
    (
        "How confident are you that your response follows every instruction?",
        ("I am fully confident.", "I am somewhat confident.", "I am not confident."),
    ),
)
END_PHRASES: tuple[str, ...] = (
    "Is there anything else I can help with?",
    "Let me know if you have additional questions.",
    "Any other questions?",
    "That is all for now.",
    "Thank you for reading.",
)
KEYWORD_CHOICES: tuple[str, ...] = (
    "anchor", "beacon", "bicycle", "blanket", "candle", "canyon", "chimney", "compass",
    "cobblestone", "falcon", "feather", "glacier", "harbor", "harvest", "kettle", "ladder",
    "lantern", "lighthouse", "magnet", "marble", "meadow", "meteor", "mirror", "orchard",
    "parcel", "pebble", "pepper", "puzzle", "quilt", "ribbon", "saddle", "satchel", "thunder",
    "trumpet", "tunnel", "umbrella", "velvet", "violin", "willow", "wagon",
)  # fmt: skip
FIRST_WORDS: tuple[str, ...] = (
    "Afterwards", "Eventually", "Finally", "However", "Imagine", "Indeed", "Instead", "Later",
    "Meanwhile", "Nevertheless", "Now", "Often", "Overall", "Perhaps", "Still", "Suddenly",
    "Then", "Today", "Yet",
)  # fmt: skip
POSTSCRIPT_MARKERS: tuple[str, ...] = ("P.S.", "P.P.S.")
SECTION_MARKERS: tuple[str, ...] = ("SECTION", "Section")
LIST_STYLES: tuple[str, ...] = ("bullet", "numbered")
RELATIONS: tuple[str, ...] = ("at least", "at most")

# What compose writes: clauses of plain words, no commas, joined with "and" into sentences.
_CLAUSES: tuple[str, ...] = (
    "the passage tells a simple story",
    "it stays clear",
    "this version keeps the main point",
    "each idea stays in its original order",
    "the tone is calm",
    "any reader can follow what happens",
    "the details remain easy to picture",
    "nothing important is left out",
    "the words are plain",
    "the ending matches the original text",
)
_TITLE = "A Short Retelling"
_POSTSCRIPT_TEXT = "Thank you for reading."
_KEYWORD_LEAD = "This reply also mentions"
# What compose writes instead when a letter is forbidden: only the letters a d e h i l n o r s t.
_PLAIN_CLAUSES: tuple[str, ...] = (
    "the tide rises",
    "the sea is still",
    "a heron stands on the sand",
    "the deer rest",
    "the old land rests",
    "the stones are red",
    "the island is near",
    "the hills are silent",
    "the stars shine",
    "a lone sailor listens",
)
_PLAIN_TITLE = "The Silent Island"
_PLAIN_POSTSCRIPT_TEXT = "That is all."
_PLAIN_KEYWORD_LEAD = "This note lists"
_PLAIN_TEXTS = (*_PLAIN_CLAUSES, _PLAIN_TITLE, _PLAIN_POSTSCRIPT_TEXT, _PLAIN_KEYWORD_LEAD, "and")


# ---------------------------------------------------------------- text helpers

_WORD = re.compile(r"[^\W\d_]+")
_ALNUM = re.compile(r"[^\W_]")


def words_of(text: str) -> list[str]:
    """Alphabetic words, casefolded, in order."""
    return [w.casefold() for w in _WORD.findall(unicodedata.normalize("NFKC", text))]


def _reserved() -> frozenset[str]:
    parts: list[str] = [*_CLAUSES, _TITLE, _POSTSCRIPT_TEXT, _KEYWORD_LEAD]
    parts += [q + " " + " ".join(opts) for q, opts in CONSTRAINED_OPTIONS]
    parts += [*END_PHRASES, *KEYWORD_CHOICES, *FIRST_WORDS, *SECTION_MARKERS, "and section answer"]
    return frozenset(w for part in parts for w in words_of(part))


# Words a drawn forbidden word may never be: everything compose or another instruction writes.
RESERVED_WORDS: frozenset[str] = _reserved()


_STRAIGHT_QUOTES: dict[str, str | int | None] = {"“": '"', "”": '"', "‘": "'", "’": "'"}


def _flat(text: str) -> str:
    """NFKC, straight quotes, CRLF as LF."""
    text = unicodedata.normalize("NFKC", text).replace("\r\n", "\n").replace("\r", "\n")
    return text.translate(str.maketrans(_STRAIGHT_QUOTES))


def _one_line(text: str) -> str:
    return " ".join(_flat(text).split())


_PARAGRAPH_BREAK = re.compile(
    r"\n[ \t]*\n|^[ \t]*(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$", re.M
)


def paragraphs(text: str) -> list[str]:
    """Blocks separated by blank lines (or a markdown divider line) that hold a letter or digit."""
    return [b.strip() for b in _PARAGRAPH_BREAK.split(_flat(text)) if _ALNUM.search(b)]


_TERMINATOR = re.compile(r"[.!?…。！？]+[\"')\]*_»]*(?=\s|$)")
_ABBREVIATIONS = frozenset(
    [
        "e.g",
        "i.e",
        "mr",
        "mrs",
        "ms",
        "dr",
        "st",
        "vs",
        "etc",
        "p.s",
        "p.p.s",
        "jr",
        "sr",
        "prof",
        "fig",
        "approx",
        "no",
        "u.s",
        "u.k",
        "a.m",
        "p.m",
    ]
)


def _count_sentences_in(chunk: str) -> int:
    count, start = 0, 0
    for m in _TERMINATOR.finditer(chunk):
        piece = chunk[start : m.start()]
        last = piece.split()[-1].casefold().strip("\"'(*_") if piece.split() else ""
        if last in _ABBREVIATIONS and m.group().startswith(".") and len(m.group().strip()) == 1:
            continue  # "e.g." or "P.S." does not end a sentence
        if _ALNUM.search(chunk[start : m.end()]):
            count += 1
        start = m.end()
    if _ALNUM.search(chunk[start:]):
        count += 1
    return count


def sentence_counts(text: str) -> tuple[int, int]:
    """(fewest, most) sentences under two readings: only end punctuation ends a sentence, or a
    line break does too (titles, headings and list items without a full stop)."""
    flat = _flat(text)
    strict = _count_sentences_in(" ".join(flat.split()))
    loose = sum(_count_sentences_in(line) for line in flat.split("\n"))
    return min(strict, loose), max(strict, loose)


def word_counts(text: str) -> tuple[int, int]:
    """(fewest, most) words: whitespace-separated tokens, or runs of letters and digits."""
    flat = _flat(text)
    by_space = sum(1 for token in flat.split() if _ALNUM.search(token))
    by_run = len(re.findall(r"[^\W_]+", flat))
    return min(by_space, by_run), max(by_space, by_run)


def _word_pattern(word: str, suffixes: str = "") -> re.Pattern[str]:
    return re.compile(r"(?<![^\W_])" + re.escape(word.casefold()) + suffixes + r"(?![^\W_])")


def _quoted_list(items: Sequence[str], joiner: str = "and") -> str:
    quoted = [f"'{item}'" for item in items]
    if len(quoted) == 1:
        return quoted[0]
    return ", ".join(quoted[:-1]) + f" {joiner} " + quoted[-1]


# ---------------------------------------------------------------- what a drawer may use


@dataclass(frozen=True)
class DrawContext:
    """What a drawer may use: the request, the passage, and the count limits of the subtask.

    ``word_limits`` and ``sentence_limits`` are (relation, low, high) choices: the relation and
    an inclusive range the number is drawn from.
    """

    request: str
    passage: str
    word_limits: tuple[tuple[str, int, int], ...]
    sentence_limits: tuple[tuple[str, int, int], ...]
    level: int = 0  # the task's difficulty: from 1 on, room for exact paragraph word counts

    def forbidden_candidates(self) -> tuple[str, ...]:
        """Content words of the passage (5+ letters) that no other instruction needs."""
        return _forbidden_candidates(self.request, self.passage)

    def keyword_candidates(self) -> tuple[str, ...]:
        """Keywords the passage does not already use (in any form)."""
        return _keyword_candidates(self.passage)

    def available(self, kind: str) -> bool:
        """Whether this passage and subtask allow ``kind`` (forbidden words need candidates...)."""
        return _kind(kind).available(self)


@lru_cache(maxsize=64)
def _forbidden_candidates(request: str, passage: str) -> tuple[str, ...]:
    taken = RESERVED_WORDS | STOP | set(words_of(request))
    return tuple(sorted({w for w in words_of(passage) if len(w) >= 5} - taken))


@lru_cache(maxsize=64)
def _keyword_candidates(passage: str) -> tuple[str, ...]:
    used = words_of(passage)
    return tuple(k for k in KEYWORD_CHOICES if not any(w.startswith(k) for w in used))


STOP = frozenset(
    [
        "about",
        "above",
        "after",
        "again",
        "against",
        "among",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "could",
        "doing",
        "during",
        "every",
        "their",
        "there",
        "these",
        "those",
        "through",
        "under",
        "until",
        "where",
        "which",
        "while",
        "whose",
        "would",
        "should",
        "other",
        "others",
        "another",
        "without",
        "within",
        "whether",
        "itself",
        "themselves",
    ]
)


# ---------------------------------------------------------------- the kinds

Params = dict[str, Any]
Drawn = dict[str, Instruction]  # the instructions already drawn, by kind


def _avoiding(drawn: Drawn, texts: Sequence[Any]) -> Sequence[Any]:
    """``texts`` (strings, or tuples of strings) without those holding a drawn forbidden letter;
    all of them, unchanged, when no letter is forbidden. ValueError when none is left."""
    letter = drawn.get("forbidden_letter", {}).get("letter")
    if letter is None:
        return texts
    found = [t for t in texts if letter not in json.dumps(t).casefold()]
    if not found:
        raise ValueError(f"every choice uses the forbidden letter {letter!r}")
    return found


def _no_params(rng: random.Random, ctx: DrawContext, drawn: Drawn) -> Params:
    return {}


def _always(ctx: DrawContext) -> bool:
    return True


def _fixed(text: str) -> Callable[[Instruction], str]:
    return lambda p: text


@dataclass(frozen=True)
class Kind:
    """One instruction kind, whole: the sentence the prompt states, the checker, how its
    parameters are drawn, and whether a passage and subtask allow it at all.

    ``draw(rng, ctx, drawn)`` returns the parameters (without ``kind``); ``drawn`` holds the
    instructions drawn before it, in ``KINDS`` order. How kinds combine lives apart, because it
    concerns pairs or the whole set: ``CONFLICTS`` and ``compose``.
    """

    name: str
    describe: Callable[[Instruction], str] = field(repr=False)
    check: Callable[[str, Instruction], bool] = field(repr=False)
    draw: Callable[[random.Random, DrawContext, Drawn], Params] = field(
        default=_no_params, repr=False
    )
    available: Callable[[DrawContext], bool] = field(default=_always, repr=False)


def _check_repeat_prompt(text: str, p: Instruction) -> bool:
    reply = _one_line(text).lstrip("*_#>\"'` ").casefold()
    request = _one_line(p["request"]).casefold().rstrip(".!? ")
    if not request or not reply.startswith(request):
        return False
    return bool(_ALNUM.search(reply[len(request) :]))  # an answer follows the repetition


REPEAT_PROMPT = Kind(
    "repeat_prompt",
    describe=_fixed(
        "First repeat the request on the first line of this message word for word without "
        "change, then give your answer (say nothing before the repeated request, and repeat "
        "only that line, not the passage or these instructions)."
    ),
    check=_check_repeat_prompt,
    draw=lambda rng, ctx, drawn: {"request": _avoiding(drawn, [ctx.request])[0]},
)


def _check_two_responses(text: str, p: Instruction) -> bool:
    parts = re.split(r"\*{6,}", _flat(text))
    found = []
    for i, part in enumerate(parts):
        if _ALNUM.search(part):
            found.append(part)
        elif 0 < i < len(parts) - 1:
            return False  # two separators with nothing between them
    return len(found) == 2 and _one_line(found[0]).casefold() != _one_line(found[1]).casefold()


TWO_RESPONSES = Kind(
    "two_responses",
    describe=_fixed(
        "Give two different responses. Separate the two responses, and only them, with "
        "six asterisks: ******"
    ),
    check=_check_two_responses,
)


def _check_postscript(text: str, p: Instruction) -> bool:
    marker = r"\s*\.?\s*".join(re.escape(c) for c in p["marker"].rstrip(".").split("."))
    pattern = re.compile(r"^[ \t>*_#\"'`]*" + marker + r"(?![^\W_])\.?", re.M | re.I)
    flat = _flat(text)
    for m in pattern.finditer(flat):
        if _ALNUM.search(flat[: m.start()]) and _ALNUM.search(flat[m.end() :]):
            return True
    return False


POSTSCRIPT = Kind(
    "postscript",
    describe=lambda p: f"At the end of your response, add a postscript starting with {p['marker']}",
    check=_check_postscript,
    draw=lambda rng, ctx, drawn: {"marker": rng.choice(_avoiding(drawn, POSTSCRIPT_MARKERS))},
)


def _check_constrained(text: str, p: Instruction) -> bool:
    reply = normalise_text(_flat(text))
    hits = 0
    for option in p["options"]:
        key = normalise_text(option).rstrip(".!?")
        if _word_pattern(key).search(reply):
            hits += 1
    return hits == 1


def _draw_constrained(rng: random.Random, ctx: DrawContext, drawn: Drawn) -> Params:
    usable = _avoiding(drawn, [options for _, options in CONSTRAINED_OPTIONS])
    question, options = rng.choice([c for c in CONSTRAINED_OPTIONS if c[1] in usable])
    return {"question": question, "options": list(options)}


CONSTRAINED_RESPONSE = Kind(
    "constrained_response",
    describe=lambda p: (
        f"{p['question']} Give your verdict with exactly one of these options, word for "
        f"word, somewhere in your response: {_quoted_list(p['options'], 'or')}"
    ),
    check=_check_constrained,
    draw=_draw_constrained,
)

_FENCE_LANGUAGE = re.compile(r"[ \t]*json(?![^\W_])", re.I)


def _check_json(text: str, p: Instruction) -> bool:
    body = text.strip()
    if len(body) >= 6 and body.startswith("```") and body.endswith("```"):
        body = body[3:-3]
        language = _FENCE_LANGUAGE.match(body)
        if language:
            body = body[language.end() :]
    try:
        return isinstance(json.loads(body), dict)
    except (ValueError, RecursionError):
        return False


JSON_FORMAT = Kind(
    "json_format",
    describe=_fixed(
        "Your entire response must be a single valid JSON object (a ```json code block "
        "around it is allowed)."
    ),
    check=_check_json,
)

_SECTION = re.compile(r"^[ \t>#*_\"'`]*section[ \t]*\d+(?!\w)", re.M | re.I)

MULTIPLE_SECTIONS = Kind(
    "multiple_sections",
    describe=lambda p: (
        f"Your response must have exactly {p['count']} sections. Mark the beginning of each "
        f"section with {p['marker']} X on its own line, such as: {p['marker']} 1"
    ),
    check=lambda text, p: len(_SECTION.findall(_flat(text))) == p["count"],
    draw=lambda rng, ctx, drawn: {
        "count": rng.randint(2, 5),
        "marker": rng.choice(_avoiding(drawn, SECTION_MARKERS)),
    },
)

_BULLET = re.compile(r"[ \t>\"']*[*\-•+][ \t]+\S")
_NUMBERED = re.compile(r"[ \t>\"']*\d+[.)][ \t]+\S")
_DIVIDER = re.compile(r"[\s*\-_=]*")


def list_item_count(text: str, style: str) -> int:
    pattern = _BULLET if style == "bullet" else _NUMBERED
    return sum(
        1
        for line in _flat(text).split("\n")
        if not _DIVIDER.fullmatch(line) and pattern.match(line)
    )


def _describe_list_items(p: Instruction) -> str:
    if p["style"] == "bullet":
        return (
            f"Your response must contain exactly {p['count']} bullet points, each on its own "
            "line starting with a markdown bullet, such as: * This is a point."
        )
    return (
        f"Your response must contain exactly {p['count']} numbered list items, each on its "
        "own line starting with its number and a full stop, such as: 1. This is an item."
    )


LIST_ITEMS = Kind(
    "list_items",
    describe=_describe_list_items,
    check=lambda text, p: list_item_count(text, p["style"]) == p["count"],
    draw=lambda rng, ctx, drawn: {"count": rng.randint(2, 6), "style": rng.choice(LIST_STYLES)},
)

_TITLE_PATTERN = re.compile(r"<<([^<>\n]*)>>|«([^«»\n]*)»|《([^《》\n]*)》")

TITLE = Kind(
    "title",
    describe=_fixed(
        "Your response must contain a title wrapped in double angular brackets, such as "
        "<<a day at sea>>."
    ),
    check=lambda text, p: any(
        _ALNUM.search("".join(m.groups(""))) for m in _TITLE_PATTERN.finditer(_flat(text))
    ),
)


def _words_noun(p: Instruction) -> str:
    return "word" if len(p["words"]) == 1 else "words"


def _check_keywords(text: str, p: Instruction) -> bool:
    reply = normalise_text(_flat(text))
    return all(_word_pattern(w, r"(?:s|es|'s)?").search(reply) for w in p["words"])


def _draw_keywords(rng: random.Random, ctx: DrawContext, drawn: Drawn) -> Params:
    pool = _avoiding(drawn, ctx.keyword_candidates())
    return {"words": rng.sample(pool, min(len(pool), rng.randint(1, 3)))}


KEYWORDS = Kind(
    "keywords",
    describe=lambda p: f"Include the {_words_noun(p)} {_quoted_list(p['words'])} in your response.",
    check=_check_keywords,
    draw=_draw_keywords,
    available=lambda ctx: bool(ctx.keyword_candidates()),
)


def _check_forbidden(text: str, p: Instruction) -> bool:
    reply = normalise_text(_flat(text))
    return not any(_word_pattern(w).search(reply) for w in p["words"])


def _draw_forbidden(rng: random.Random, ctx: DrawContext, drawn: Drawn) -> Params:
    pool = ctx.forbidden_candidates()
    return {"words": rng.sample(pool, min(len(pool), rng.randint(1, 3)))}


FORBIDDEN_WORDS = Kind(
    "forbidden_words",
    describe=lambda p: (
        f"Do not use the {_words_noun(p)} {_quoted_list(p['words'])} anywhere in your response."
    ),
    check=_check_forbidden,
    draw=_draw_forbidden,
    available=lambda ctx: bool(ctx.forbidden_candidates()),
)

PARAGRAPH_COUNT = Kind(
    "paragraph_count",
    describe=lambda p: (
        f"Your response must have exactly {p['count']} paragraphs, separated from each "
        "other by a blank line."
    ),
    check=lambda text, p: len(paragraphs(text)) == p["count"],
    draw=lambda rng, ctx, drawn: {"count": rng.randint(4, 6) if ctx.level else rng.randint(2, 5)},
)

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def _check_first_word(text: str, p: Instruction) -> bool:
    found = paragraphs(text)
    if len(found) < p["n"]:
        return False
    first = _WORD.search(found[p["n"] - 1])
    return first is not None and first.group().casefold() == p["word"].casefold()


def _draw_first_word(rng: random.Random, ctx: DrawContext, drawn: Drawn) -> Params:
    most = drawn["paragraph_count"]["count"] if "paragraph_count" in drawn else 3
    return {"n": rng.randint(1, most), "word": rng.choice(_avoiding(drawn, FIRST_WORDS))}


PARAGRAPH_FIRST_WORD = Kind(
    "paragraph_first_word",
    describe=lambda p: (
        f"Separate paragraphs with a blank line; the {_ORDINALS[p['n'] - 1]} paragraph must "
        f"start with the word '{p['word']}'."
    ),
    check=_check_first_word,
    draw=_draw_first_word,
)


def _within(low: int, high: int, p: Instruction) -> bool:
    """A count limit, read leniently: the most plausible count for "at least", the fewest for
    "at most"."""
    if p["relation"] not in RELATIONS:
        raise ValueError(f"unknown relation {p['relation']!r}")
    return high >= p["n"] if p["relation"] == "at least" else low <= p["n"]


def _limit(rng: random.Random, choices: tuple[tuple[str, int, int], ...], step: int) -> Params:
    relation, low, high = rng.choice(choices)
    n = rng.randint(low, high)
    if step > 1:
        n = max(step, round(n / step) * step)
    return {"relation": relation, "n": n}


SENTENCE_COUNT = Kind(
    "sentence_count",
    describe=lambda p: f"Your response must contain {p['relation']} {p['n']} sentences.",
    check=lambda text, p: _within(*sentence_counts(text), p),
    draw=lambda rng, ctx, drawn: _limit(rng, ctx.sentence_limits, 1),
    available=lambda ctx: bool(ctx.sentence_limits),
)
WORD_COUNT = Kind(
    "word_count",
    describe=lambda p: f"Your response must contain {p['relation']} {p['n']} words.",
    check=lambda text, p: _within(*word_counts(text), p),
    draw=lambda rng, ctx, drawn: _limit(rng, ctx.word_limits, 5),
    available=lambda ctx: bool(ctx.word_limits),
)


def _check_end_phrase(text: str, p: Instruction) -> bool:
    reply = _one_line(text).rstrip(" \"'*_`»").casefold()
    phrase = _one_line(p["phrase"]).casefold()
    for tail, end in ((reply, phrase), (reply.rstrip(".!?"), phrase.rstrip(".!?"))):
        if end and tail.endswith(end):
            before = tail[: len(tail) - len(end)]
            return not before or not _ALNUM.match(before[-1])
    return False


END_PHRASE = Kind(
    "end_phrase",
    describe=lambda p: (
        f"Finish your response with this exact phrase: '{p['phrase']}' No other words "
        "should follow it."
    ),
    check=_check_end_phrase,
    draw=lambda rng, ctx, drawn: {"phrase": rng.choice(_avoiding(drawn, END_PHRASES))},
)


def _check_quotation(text: str, p: Instruction) -> bool:
    reply = _flat(text).strip()
    pairs = {('"', '"'), ("«", "»")}
    return len(reply) >= 2 and (reply[0], reply[-1]) in pairs and bool(_ALNUM.search(reply))


QUOTATION = Kind(
    "quotation",
    describe=_fixed("Wrap your entire response in double quotation marks."),
    check=_check_quotation,
)
LOWERCASE = Kind(
    "lowercase",
    describe=_fixed(
        "Write your entire response in lowercase letters; no capital letters are allowed."
    ),
    check=lambda text, p: text == text.lower() and any(ch.isalpha() for ch in text),
)
NO_COMMA = Kind(
    "no_comma",
    describe=_fixed("Do not use any commas in your response."),
    check=lambda text, p: "," not in _flat(text),
)

# ---------------------------------------------------------------- kinds of difficulty 1 and up
# These interact: exact word counts per paragraph, required words in a fixed order or a fixed
# number of times, and a common letter the whole reply must avoid (drawn first: every text drawn
# after it, a keyword, an end phrase, a first word, avoids the letter, or the set is redrawn).

# Kinds a question may carry several times (with other parameters each time).
REPEATABLE: frozenset[str] = frozenset({"paragraph_word_count", "word_order", "word_frequency"})


def _instances(drawn: Drawn, kind: str) -> list[Instruction]:
    return [p for p in drawn.values() if p.get("kind") == kind]


def _required_words(drawn: Drawn) -> set[str]:
    """Words earlier instructions already require (each keyword-like word serves one)."""
    found: set[str] = set()
    for p in drawn.values():
        found.update(p.get("words", []) if p.get("kind") == "keywords" else [])
        found.update(w for key in ("first", "then", "word") if isinstance(w := p.get(key), str))
    return found


def _unused_keywords(ctx: DrawContext, drawn: Drawn) -> list[str]:
    taken = _required_words(drawn)
    return [k for k in _avoiding(drawn, ctx.keyword_candidates()) if k not in taken]


def _draw_paragraph_words(rng: random.Random, ctx: DrawContext, drawn: Drawn) -> Params:
    most = drawn["paragraph_count"]["count"] if "paragraph_count" in drawn else 3
    taken = {p["n"] for p in _instances(drawn, "paragraph_word_count")}
    free = [n for n in range(1, most + 1) if n not in taken]
    if not free:
        raise ValueError("every paragraph already has a word count")
    return {"n": rng.choice(free), "count": rng.randint(12, 40)}


def _check_paragraph_words(text: str, p: Instruction) -> bool:
    found = paragraphs(text)
    return len(found) >= p["n"] and p["count"] in word_counts(found[p["n"] - 1])


PARAGRAPH_WORD_COUNT = Kind(
    "paragraph_word_count",
    describe=lambda p: (
        f"Separate paragraphs with a blank line; the {_ORDINALS[p['n'] - 1]} paragraph must "
        f"contain exactly {p['count']} words."
    ),
    check=_check_paragraph_words,
    draw=_draw_paragraph_words,
)


def _draw_word_order(rng: random.Random, ctx: DrawContext, drawn: Drawn) -> Params:
    """A new pair, or (mostly) one that continues the last pair's chain: a before b, b before c."""
    pool = _unused_keywords(ctx, drawn)
    chain = _instances(drawn, "word_order")
    if chain and rng.random() < 0.7:
        first = chain[-1]["then"]
    elif pool:
        first = pool.pop(rng.randrange(len(pool)))
    else:
        raise ValueError("no unused keyword left")
    if not pool:
        raise ValueError("no unused keyword left")
    return {"first": first, "then": rng.choice(pool)}


def _first_use(word: str, reply: str) -> int | None:
    found = _word_pattern(word, r"(?:s|es|'s)?").search(reply)
    return found.start() if found else None


def _check_word_order(text: str, p: Instruction) -> bool:
    reply = normalise_text(_flat(text))
    first, then = _first_use(p["first"], reply), _first_use(p["then"], reply)
    return first is not None and then is not None and first < then


WORD_ORDER = Kind(
    "word_order",
    describe=lambda p: (
        f"Use both words '{p['first']}' and '{p['then']}', and use '{p['first']}' for the first "
        f"time before you use '{p['then']}' for the first time."
    ),
    check=_check_word_order,
    draw=_draw_word_order,
    available=lambda ctx: bool(ctx.keyword_candidates()),
)


def _draw_word_frequency(rng: random.Random, ctx: DrawContext, drawn: Drawn) -> Params:
    pool = _unused_keywords(ctx, drawn)
    if not pool:
        raise ValueError("no unused keyword left")
    return {"word": rng.choice(pool), "count": rng.randint(2, 4)}


WORD_FREQUENCY = Kind(
    "word_frequency",
    describe=lambda p: (
        f"Use the word '{p['word']}' exactly {p['count']} times, in exactly this form (its "
        "plural or a longer word containing it does not count)."
    ),
    check=lambda text, p: (
        len(_word_pattern(p["word"]).findall(normalise_text(_flat(text)))) == p["count"]
    ),
    draw=_draw_word_frequency,
    available=lambda ctx: bool(ctx.keyword_candidates()),
)


# Letters common enough that avoiding them costs real effort, and that compose never needs.
HARD_LETTERS = "bcfgkmpuvwy"


def _draw_forbidden_letter(rng: random.Random, ctx: DrawContext, drawn: Drawn) -> Params:
    return {"letter": rng.choice(HARD_LETTERS)}


FORBIDDEN_LETTER = Kind(
    "forbidden_letter",
    describe=lambda p: (
        f"Do not use the letter '{p['letter']}' anywhere in your response, neither lower nor "
        "upper case."
    ),
    check=lambda text, p: (
        len(p["letter"]) == 1 and p["letter"].casefold() not in _flat(text).casefold()
    ),
    draw=_draw_forbidden_letter,
)

# Every kind, in the order parameters are drawn (paragraph_count before paragraph_first_word).
ALL_KINDS: tuple[Kind, ...] = (
    FORBIDDEN_LETTER,  # first: the texts drawn after it avoid its letter
    REPEAT_PROMPT,
    TWO_RESPONSES,
    POSTSCRIPT,
    CONSTRAINED_RESPONSE,
    JSON_FORMAT,
    MULTIPLE_SECTIONS,
    LIST_ITEMS,
    TITLE,
    KEYWORDS,
    FORBIDDEN_WORDS,
    PARAGRAPH_COUNT,
    PARAGRAPH_FIRST_WORD,
    SENTENCE_COUNT,
    WORD_COUNT,
    END_PHRASE,
    QUOTATION,
    LOWERCASE,
    NO_COMMA,
    PARAGRAPH_WORD_COUNT,
    WORD_ORDER,
    WORD_FREQUENCY,
)
# The kinds of version 1 (difficulty 0 draws only these, in this order).
V1_KINDS: tuple[str, ...] = tuple(k.name for k in ALL_KINDS[1:19])
KIND_BY_NAME: dict[str, Kind] = {k.name: k for k in ALL_KINDS}
KINDS: tuple[str, ...] = tuple(KIND_BY_NAME)


def _kind(name: object) -> Kind:
    found = KIND_BY_NAME.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"unknown instruction kind {name!r}")
    return found


def check(instruction: Instruction, text: str) -> bool:
    """Whether ``text`` follows ``instruction``; False for empty text or a malformed instruction."""
    if not isinstance(text, str) or not _ALNUM.search(text):
        return False
    kind = instruction.get("kind") if isinstance(instruction, dict) else None
    found = KIND_BY_NAME.get(kind) if isinstance(kind, str) else None
    if found is None:
        return False
    try:
        return bool(found.check(text, instruction))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, re.error):
        return False


def describe(p: Instruction) -> str:
    """The instruction as one line of the prompt."""
    return _kind(p["kind"]).describe(p)


def draw_params(kind: str, rng: random.Random, ctx: DrawContext, drawn: Drawn) -> Instruction:
    """Parameters of one instruction; ``drawn`` holds those already drawn (in ``KINDS`` order)."""
    return {"kind": kind, **_kind(kind).draw(rng, ctx, drawn)}


# ---------------------------------------------------------------- pairs never drawn together

# Kinds whose meaning depends on what counts as a paragraph, and the kinds that add blocks whose
# status as a paragraph a writer could read either way (a title line, a P.S., a list).
_PARAGRAPH_KINDS = ("paragraph_count", "paragraph_first_word", "paragraph_word_count")
_PARAGRAPH_BLURRERS = (
    "repeat_prompt",
    "two_responses",
    "postscript",
    "json_format",
    "multiple_sections",
    "list_items",
    "title",
)
_CONFLICT_LIST: tuple[tuple[str, str], ...] = (
    *((p, b) for p in _PARAGRAPH_KINDS for b in _PARAGRAPH_BLURRERS),
    # The repeated request is not part of "the answer": counts and framing around it are unclear.
    ("repeat_prompt", "two_responses"),
    ("repeat_prompt", "sentence_count"),
    ("repeat_prompt", "word_count"),
    ("repeat_prompt", "quotation"),
    ("repeat_prompt", "lowercase"),
    # Two responses: per response or in total? Whole-reply framing is undefined.
    ("two_responses", "postscript"),
    ("two_responses", "constrained_response"),
    ("two_responses", "multiple_sections"),
    ("two_responses", "list_items"),
    ("two_responses", "sentence_count"),
    ("two_responses", "word_count"),
    ("two_responses", "end_phrase"),
    ("two_responses", "quotation"),
    ("two_responses", "word_frequency"),
    # JSON: the whole reply is one object, so no text structure or counts of prose.
    *(
        ("json_format", k)
        for k in KINDS
        if k
        not in ("json_format", "keywords", "forbidden_words", "constrained_response", "lowercase")
    ),
    # Both want the last word.
    ("postscript", "end_phrase"),
    # Fixed capitalised text ("P.S.", "SECTION 1", "My answer is yes.", an end phrase).
    ("lowercase", "postscript"),
    ("lowercase", "multiple_sections"),
    ("lowercase", "constrained_response"),
    ("lowercase", "end_phrase"),
)
CONFLICTS: frozenset[frozenset[str]] = frozenset(frozenset(p) for p in _CONFLICT_LIST)


def compatible(kind: str, chosen: Iterable[str]) -> bool:
    """Whether ``kind`` may join the already chosen kinds (each kind at most once, but for the
    ``REPEATABLE`` ones)."""
    return all(
        (kind != c or kind in REPEATABLE) and frozenset((kind, c)) not in CONFLICTS for c in chosen
    )


# ---------------------------------------------------------------- composing a response

_SENTENCE_LENGTHS = (1, 6, 9, 13, 19, 28, 40)
_PREFERRED = (2, 9)  # two sentences of about nine words per block, when the limits allow
_MAX_SENTENCES_PER_BLOCK = 40


class _Filler:
    """Sentences of at least a given length, joined from the clauses in turn."""

    def __init__(self, offset: int, clauses: tuple[str, ...] = _CLAUSES) -> None:
        self.pos = offset * 3
        self.clauses = clauses

    def sentence(self, length: int, first: str | None = None) -> str:
        words = [first] if first else []
        clauses = 0
        while len(words) < length or not clauses:
            if clauses:
                words.append("and")
            words += self.clauses[self.pos % len(self.clauses)].split()
            self.pos += 1
            clauses += 1
        text = " ".join(words)
        return text[0].upper() + text[1:] + "."

    def exact(self, length: int) -> str:
        """One sentence of exactly ``length`` words."""
        words: list[str] = []
        while len(words) < length:
            words += self.clauses[self.pos % len(self.clauses)].split()
            self.pos += 1
        text = " ".join(words[:length])
        return text[0].upper() + text[1:] + "."


def _order_sequence(pairs: Sequence[Instruction]) -> list[str]:
    """The words of ``word_order`` pairs in an order meeting them all (each pair's second word
    is new when drawn, so first appearance order works)."""
    sequence: list[str] = []
    for p in pairs:
        for word in (p["first"], p["then"]):
            if word not in sequence:
                sequence.append(word)
    return sequence


def _extras_block(blocks: int, exact: Sequence[Instruction]) -> int:
    """The block that holds the extra sentences (keywords, the verdict): the first, or with exact
    word counts the first block without one, else the one with the most words."""
    fixed = {p["n"] - 1: p["count"] for p in exact}
    if not fixed:
        return 0
    free = [i for i in range(blocks) if i not in fixed]
    return free[0] if free else max(sorted(fixed), key=lambda i: fixed[i])


def _exact_paragraphs(
    text: list[list[str]],
    exact: Sequence[Instruction],
    keep_first: int | None,
    extras: tuple[int, list[str]],
    tail: str,
    filler: _Filler,
) -> None:
    """Rewrite each block with an exact word count: its required sentences (a first word, the
    extras where they are, the end phrase of the last) and one sentence of the words left."""
    home, sentences = extras
    for p in exact:
        i = p["n"] - 1
        keep = [text[i][0]] if keep_first == p["n"] else []
        if i == home:
            keep += sentences
        have = sum(word_counts(sentence)[0] for sentence in keep)
        if i == len(text) - 1 and tail:
            have += word_counts(tail)[0]
        need = p["count"] - have
        text[i] = keep + ([filler.exact(need)] if need > 0 else [])


def _render_body(
    by_kind: dict[str, Instruction],
    per_block: int,
    length: int,
    offset: int,
    many: dict[str, list[Instruction]] | None = None,
) -> str:
    """One response (without repetition, quotes or case change) with the given filler amounts."""
    many = many or {}
    plain = "forbidden_letter" in by_kind
    filler = _Filler(offset, _PLAIN_CLAUSES if plain else _CLAUSES)
    lead = _PLAIN_KEYWORD_LEAD if plain else _KEYWORD_LEAD
    exact = many.get("paragraph_word_count", [])
    sections = by_kind.get("multiple_sections")
    if sections:
        blocks = sections["count"]
    elif "paragraph_count" in by_kind:
        blocks = by_kind["paragraph_count"]["count"]
    elif "paragraph_first_word" in by_kind or exact:
        first_n = (
            [by_kind["paragraph_first_word"]["n"]] if "paragraph_first_word" in by_kind else []
        )
        blocks = max(first_n + [p["n"] for p in exact])
    else:
        blocks = 1
    text: list[list[str]] = [
        [filler.sentence(length) for _ in range(per_block)] for _ in range(blocks)
    ]
    first = by_kind.get("paragraph_first_word")
    if first:
        text[first["n"] - 1][0] = filler.sentence(length, first=first["word"])
    extras = []
    if "keywords" in by_kind:
        extras.append(f"{lead} {' and '.join(by_kind['keywords']['words'])}.")
    if "constrained_response" in by_kind:
        extras.append(by_kind["constrained_response"]["options"][0])
    mentions = _order_sequence(many.get("word_order", []))
    for p in many.get("word_frequency", []):
        mentions += [p["word"]] * p["count"]
    if mentions:
        extras.append(f"{lead} {' and '.join(mentions)}.")
    home = _extras_block(blocks, exact)
    text[home][1:1] = extras
    if exact:
        tail = by_kind["end_phrase"]["phrase"] if "end_phrase" in by_kind else ""
        _exact_paragraphs(text, exact, first["n"] if first else None, (home, extras), tail, filler)
    rendered = [" ".join(sentences) for sentences in text]
    items = by_kind.get("list_items")
    if items:
        lines = [
            ("* " if items["style"] == "bullet" else f"{i}. ") + filler.sentence(length)
            for i in range(1, items["count"] + 1)
        ]
        rendered[-1] += "\n" + "\n".join(lines)
    if "end_phrase" in by_kind:
        glue = "\n" if items else " "
        rendered[-1] += glue + by_kind["end_phrase"]["phrase"]
    if sections:
        rendered = [f"{sections['marker']} {i}\n{body}" for i, body in enumerate(rendered, 1)]
    body = "\n\n".join(rendered)
    if "title" in by_kind:
        body = f"<<{_PLAIN_TITLE if plain else _TITLE}>>\n\n{body}"
    if "postscript" in by_kind:
        note = _PLAIN_POSTSCRIPT_TEXT if plain else _POSTSCRIPT_TEXT
        body += f"\n\n{by_kind['postscript']['marker']} {note}"
    return body


def _render(
    by_kind: dict[str, Instruction],
    per_block: int,
    length: int,
    many: dict[str, list[Instruction]] | None = None,
) -> str:
    if "two_responses" in by_kind:
        body = "\n\n******\n\n".join(
            _render_body(by_kind, per_block, length, offset, many) for offset in (0, 1)
        )
    elif "json_format" in by_kind:
        body = json.dumps(
            {"response": " ".join(_render_body(by_kind, per_block, length, 0, many).split())},
            ensure_ascii=False,
        )
    else:
        body = _render_body(by_kind, per_block, length, 0, many)
    if "repeat_prompt" in by_kind:
        body = f"{by_kind['repeat_prompt']['request']}\n\n{body}"
    if "quotation" in by_kind:
        body = f'"{body}"'
    if "lowercase" in by_kind:
        body = body.lower()
    return body


def compose(instructions: Sequence[Instruction]) -> str:
    """A response that follows every instruction; ValueError if the set cannot be met.

    Two sentences of about nine words per block are tried first, then every sentence count and
    length, shortest first, until every checker passes (or until the shortest sentences already
    break an "at most" word or sentence limit: every later try is longer).
    """
    by_kind: dict[str, Instruction] = {}
    many: dict[str, list[Instruction]] = {}
    for p in instructions:
        by_kind.setdefault(p["kind"], p)
        many.setdefault(p["kind"], []).append(p)
    if any(len(found) > 1 and kind not in REPEATABLE for kind, found in many.items()):
        raise ValueError("an instruction kind appears twice")
    kinds = [p["kind"] for p in instructions]
    for i, kind in enumerate(kinds):
        if not compatible(kind, kinds[:i]):
            raise ValueError(f"instruction {kind!r} conflicts with another")
    ceilings = [
        p
        for p in instructions
        if p["kind"] in ("word_count", "sentence_count") and p["relation"] == "at most"
    ]
    tries = [(p, n) for p in range(1, _MAX_SENTENCES_PER_BLOCK + 1) for n in _SENTENCE_LENGTHS]
    for per_block, length in [_PREFERRED, *tries]:
        text = _render(by_kind, per_block, length, many)
        if all(check(p, text) for p in instructions):
            return text
        if length == _SENTENCE_LENGTHS[0] and not all(check(p, text) for p in ceilings):
            break  # shortest sentences already too many words or sentences: more only add
    raise ValueError("no response meets these instructions together")
