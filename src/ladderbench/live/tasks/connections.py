"""Connections: sort 8, 12 or 16 words into groups of four that share a hidden link.

The words come from a shipped lexicon (``live/data/connections.json``): categories of "pure"
words that belong to that category only, and red herrings, words that fit two or more categories
(BASS is a fish and a string instrument). A puzzle draws 2, 3 or 4 categories and four words from
each; from ``medium`` up, one of those words is a red herring whose other categories were not
drawn, so it tempts a solver towards a group that is not there. Every word of a puzzle belongs to
exactly one drawn category, so the grouping is unique.

Why it is hard: the links are never named, some are wordplay (palindromes, words before BALL),
groups sit side by side with near neighbours (fish and words before FLY, blues and gemstones), and
a red herring looks like it fits elsewhere.

Scoring: the answer is the <solution> content (or, in a reply without answer tags, its last
paragraph); the score is the fraction of the puzzle's groups the answer gives exactly (order of
groups and of the words inside a group does not matter, case-insensitive). An answer with more
groups than the puzzle has, or that puts a word in two groups, hedges and scores 0.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from ladderbench.grading.extract import extract_answer, strip_think
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register

GROUP_SIZE = 4


@dataclass(frozen=True)
class ConnectionsConfig:
    """How many groups a puzzle has and whether one word is a red herring."""

    groups: int
    red_herring: bool


SUBTASKS: dict[str, ConnectionsConfig] = {
    "easy": ConnectionsConfig(groups=2, red_herring=False),
    "medium": ConnectionsConfig(groups=3, red_herring=True),
    "hard": ConnectionsConfig(groups=4, red_herring=True),
}

PROMPT_TEMPLATE = """\
Sort these {count} words into {groups} groups of four. The four words in each group share a \
hidden link (for example: kinds of one thing, or words that can come before the same word). \
Every word belongs to exactly one group. Some words seem to fit more than one group, but only \
one grouping uses every word exactly once.

Words: {words}

Write each group as its four words separated by commas, one group per line (or groups separated \
by semicolons). Put your final answer inside <solution></solution> tags, for example (format \
only):
<solution>
{example}
</solution>"""

_MAX_DRAWS = 500


@dataclass(frozen=True)
class Lexicon:
    """Categories (id -> link and pure words) and each word's categories (pure or red herring)."""

    links: dict[str, str]
    pure: dict[str, tuple[str, ...]]
    membership: dict[str, frozenset[str]]

    @property
    def red_herrings(self) -> tuple[str, ...]:
        return tuple(sorted(w for w, cats in self.membership.items() if len(cats) > 1))


def parse_lexicon(data: dict[str, Any]) -> Lexicon:
    """Check and index a lexicon; ValueError names what is wrong."""
    links: dict[str, str] = {}
    pure: dict[str, tuple[str, ...]] = {}
    membership: dict[str, set[str]] = {}
    for entry in data.get("categories", []):
        cid, words = entry["id"], entry["words"]
        if cid in links:
            raise ValueError(f"connections lexicon: category {cid!r} twice")
        if len(words) < GROUP_SIZE:
            raise ValueError(f"connections lexicon: category {cid!r} has under 4 pure words")
        links[cid] = entry["link"]
        pure[cid] = tuple(words)
        for word in words:
            if word != word.lower() or not word.isalpha():
                raise ValueError(f"connections lexicon: {word!r} is not a lower-case word")
            if word in membership:
                raise ValueError(f"connections lexicon: {word!r} is pure in two categories")
            membership[word] = {cid}
    for entry in data.get("red_herrings", []):
        word, cats = entry["word"], entry["categories"]
        if word in membership:
            raise ValueError(f"connections lexicon: red herring {word!r} is also a pure word")
        if len(set(cats)) < 2 or any(c not in links for c in cats):
            raise ValueError(f"connections lexicon: red herring {word!r} needs 2+ known categories")
        membership[word] = set(cats)
    return Lexicon(links, pure, {w: frozenset(c) for w, c in membership.items()})


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    path = resources.files("ladderbench.live") / "data" / "connections.json"
    return parse_lexicon(json.loads(path.read_text(encoding="utf-8")))


def _draw(
    rng: random.Random, cfg: ConnectionsConfig, lex: Lexicon
) -> tuple[list[str], dict[str, list[str]], str | None]:
    """(chosen categories, their words, the red herring or None)."""
    categories = sorted(lex.links)
    herrings = lex.red_herrings
    for _ in range(_MAX_DRAWS):
        herring = None
        if cfg.red_herring:
            herring = rng.choice(herrings)
            home = rng.choice(sorted(lex.membership[herring]))
            others = [c for c in categories if c not in lex.membership[herring]]
            chosen = [home, *rng.sample(others, cfg.groups - 1)]
        else:
            chosen = rng.sample(categories, cfg.groups)
        groups = {}
        for cid in chosen:
            need = GROUP_SIZE - (1 if herring and cid == chosen[0] else 0)
            pool = list(lex.pure[cid])
            if len(pool) < need:
                break
            groups[cid] = sorted(rng.sample(pool, need))
        else:
            if herring:
                groups[chosen[0]] = sorted([*groups[chosen[0]], herring])
            return chosen, groups, herring
    raise ValueError("could not draw a connections puzzle")


# ---------------------------------------------------------------- answers

_GROUP_SPLIT = re.compile(r"[\n;]+")
_WORD_SPLIT = re.compile(r"\s*(?:,|/|\||\band\b|&)\s*", re.I)
_LABEL = re.compile(
    r"^\s*(?:[-*+\u2022>]|\(?\d{1,2}[.)]|(?:group|row|set)\s*(?:\d+\s*[.):-]?|[.):-]))\s*", re.I
)
_PAREN = re.compile(r"\([^()]*\)|\[[^\[\]]*\]$")


def _word_key(word: str) -> str:
    """A word as compared: NFKC, letters only, case-folded."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", word) if ch.isalnum()).casefold()


def parse_groups(answer: str) -> list[frozenset[str]]:
    """The groups an answer gives: lines or ';'-separated parts with two or more listed words."""
    text = re.sub(r"\]\s*,?\s*\[", ";", answer)  # [["a", "b"], ["c", "d"]]
    groups = []
    for part in _GROUP_SPLIT.split(text):
        part = part.strip().strip("*`").strip()
        if ":" in part:  # "Fish: salmon, trout, ..." or "Group 1: ..."
            part = part.rsplit(":", 1)[1]
        part = _LABEL.sub("", part, count=1)
        while _PAREN.search(part):  # "(fish)" after or inside the group, nested too
            part = _PAREN.sub(" ", part)
        words = [_word_key(w) for w in _WORD_SPLIT.split(part)]
        words = [w for w in words if w]
        if len(words) >= 2:
            groups.append(frozenset(words))
    return groups


_TAGGED = re.compile(r"<(?:solution|answer)>|\\boxed|\\fbox", re.I)


def answer_groups(response: str) -> list[frozenset[str]]:
    """The groups of a reply: its answer (extract_answer), or, in a reply with no answer tags,
    its last paragraph when that lists two or more groups (one group per line, untagged)."""
    if not isinstance(response, str):
        return []
    text = strip_think(response)
    if text and not _TAGGED.search(text):
        found = parse_groups(re.split(r"\n\s*\n", text.strip())[-1])
        if len(found) >= 2:
            return found
    answer = extract_answer(response)
    return parse_groups(answer) if answer else []


def groups_score(answer_groups: list[frozenset[str]], truth: list[list[str]]) -> float:
    """Share of the true groups given exactly; 0 for an answer that hedges."""
    if not truth:
        return 0.0
    if len(answer_groups) > len(truth):
        return 0.0
    listed = [w for g in answer_groups for w in g]
    if len(listed) != len(set(listed)):
        return 0.0
    wanted = [frozenset(_word_key(w) for w in group) for group in truth]
    given = set(answer_groups)
    return sum(group in given for group in wanted) / len(wanted)


# ---------------------------------------------------------------- the task


@register
class Connections(Task):
    name = "connections"
    category = "language"

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        subtask = rng.choice(sorted(SUBTASKS))
        cfg = SUBTASKS[subtask]
        lex = lexicon()
        chosen, groups, herring = _draw(rng, cfg, lex)
        words = [w for cid in chosen for w in groups[cid]]
        rng.shuffle(words)
        ordered = sorted((groups[cid], cid) for cid in chosen)
        truth = [g for g, _ in ordered]
        example = "\n".join(
            ", ".join(f"word{GROUP_SIZE * i + j + 1}" for j in range(GROUP_SIZE))
            for i in range(cfg.groups)
        )
        prompt = PROMPT_TEMPLATE.format(
            count=len(words),
            groups=cfg.groups,
            words=", ".join(w.upper() for w in words),
            example=example,
        )
        return Question(
            prompt=prompt,
            ground_truth="; ".join(", ".join(g) for g in truth),
            subtask=subtask,
            fields={
                "words": words,
                "groups": truth,
                "links": [lex.links[cid] for _, cid in ordered],
                "red_herring": herring,
            },
        )

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        truth = record.get("groups")
        if not isinstance(truth, list) or not all(isinstance(g, list) for g in truth):
            truth = [g.split(",") for g in str(record.get("ground_truth", "")).split(";")]
        truth = [[str(w).strip() for w in group] for group in truth]
        groups = answer_groups(response)
        read = "; ".join(", ".join(sorted(group)) for group in groups) or None
        return verdict(read, groups_score(groups, truth))

    def reference(self, record: dict[str, Any]) -> str:
        lines = [group.strip() for group in str(record["ground_truth"]).split(";")]
        return "<solution>\n" + "\n".join(lines) + "\n</solution>"
