"""Connections: sort 8, 12 or 16 words (more from d = 1) into groups of four with a hidden link.

The words come from a shipped lexicon (``live/data/connections.json``; from d = 1 with the
additions of ``connections_v2.json``: more categories, more red herrings): categories of "pure"
words that belong to that category only, and red herrings, words that fit two or more categories
(BASS is a fish and a string instrument). Each category is material: a store never serves a
category twice, and when too few unused ones are left the task says so in one line.

Difficulty ``d``. At d = 0 (v1) a puzzle draws 2, 3 or 4 categories and four words from each;
from ``medium`` up, one of those words is a red herring whose other categories were not drawn, so
it tempts a solver towards a group that is not there. From d = 1 a puzzle has 4 + d // 2 groups,
drawn so that they share red herrings, and d decoys (at most two per group): red herrings placed
one at a time where they enlarge the search most, first those that fit a second *drawn* group
(that group then seems to have five or six members and only counting resolves it), then those
that gather words of an undrawn category (a group that cannot be completed). Each step adds a
decoy, every second step a group as well, and up to d // 2 of the groups have a wordplay link
(words before STONE, palindromes...: the ``subtle`` categories), which a solver has to find
rather than recognise. After every placement an exhaustive search over all
lexicon categories checks that exactly one grouping uses every word once, so the answer stays
unique; the search's node count is recorded as ``search_nodes``.

Why it is hard: the links are never named, some are wordplay (palindromes, words before BALL),
groups sit side by side with near neighbours (fish and words before FLY, blues and gemstones), and
decoys fit two groups, so a greedy solver that fixes the first group it sees goes wrong.

Scoring: the answer is the <solution> content (or, in a reply without answer tags, its last
paragraph); a group is one line or ';'-separated part, its words separated by commas, '/', '|',
'and' or '&'; a label before or after the words (``Fish: ...``, ``Fish - ...``, ``Fish → ...``,
``... - fish``, a markdown table row ``| fish | ... |``) is set aside by keeping the segment that
lists the most words. The score is the fraction of the puzzle's groups the answer gives exactly
(order of groups and of the words inside a group does not matter, case-insensitive). An answer
with more groups than the puzzle has, or that puts a word in two groups, hedges and scores 0.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from ladderbench.errors import UserError
from ladderbench.grading.extract import extract_answer, strip_think
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register

GROUP_SIZE = 4


@dataclass(frozen=True)
class ConnectionsConfig:
    """How many groups a puzzle has, whether one word is a (v1) red herring, and how many words
    are decoys: red herrings that fit a second category, placed from d = 1 on."""

    groups: int
    red_herring: bool
    decoys: int = 0
    subtle: int = 0  # how many groups, at most, have a wordplay link


SUBTASKS: dict[str, ConnectionsConfig] = {
    "easy": ConnectionsConfig(groups=2, red_herring=False),
    "medium": ConnectionsConfig(groups=3, red_herring=True),
    "hard": ConnectionsConfig(groups=4, red_herring=True),
}
DECOY_SUBTASK = "decoys"  # the subtask of every question at d >= 1
MAX_DECOYS_PER_GROUP = 2  # a group keeps at least two words that fit it alone


def difficulty_config(d: int) -> ConnectionsConfig:
    """The puzzle at difficulty ``d >= 1`` (d = 0 is the v1 mix of ``SUBTASKS``): four groups
    and one decoy at d = 1; each step adds a decoy, every second step a group and a wordplay
    group (as far as the lexicon's unused wordplay categories go) as well."""
    if d < 1:
        raise ValueError(f"connections: difficulty {d} has no single config (0 is the v1 mix)")
    return ConnectionsConfig(groups=4 + d // 2, red_herring=True, decoys=d, subtle=d // 2)


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
    subtle: frozenset[str] = frozenset()  # wordplay links (words before STONE...): drawn from d = 2

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
    subtle = frozenset(data.get("subtle", []))
    if subtle - set(links):
        raise ValueError(
            f"connections lexicon: subtle category {sorted(subtle - set(links))[0]!r} unknown"
        )
    return Lexicon(links, pure, {w: frozenset(c) for w, c in membership.items()}, subtle)


def _read_data(name: str) -> dict[str, Any]:
    path = resources.files("ladderbench.live") / "data" / name
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """The v1 lexicon: what difficulty 0 draws from (unchanged, so v1 questions regenerate)."""
    return parse_lexicon(_read_data("connections.json"))


@lru_cache(maxsize=1)
def full_lexicon() -> Lexicon:
    """The v1 lexicon with ``connections_v2.json``'s additions: what d >= 1 draws from."""
    return parse_lexicon(with_additions(_read_data("connections.json"), _read_data(ADDITIONS)))


ADDITIONS = "connections_v2.json"


def with_additions(data: dict[str, Any], additions: dict[str, Any]) -> dict[str, Any]:
    """A lexicon with more categories and red herrings; a word listed under ``also`` gains
    further categories (a pure word becomes a red herring, leaving its category's pure list);
    ``extend`` adds pure words to a category of ``data``."""
    also = {e["word"]: list(e["categories"]) for e in additions.get("also", [])}
    herrings = [dict(e) for e in data.get("red_herrings", [])]
    for entry in herrings:
        entry["categories"] = [*entry["categories"], *also.pop(entry["word"], [])]
    extend = {e["id"]: list(e["words"]) for e in additions.get("extend", [])}
    categories = []
    for entry in data.get("categories", []):
        words = [w for w in entry["words"] if w not in also] + extend.pop(entry["id"], [])
        herrings += [
            {"word": w, "categories": [entry["id"], *also.pop(w)]}
            for w in entry["words"]
            if w in also
        ]
        categories.append({**entry, "words": words})
    if also or extend:
        unknown = sorted(also or extend)[0]
        raise ValueError(f"connections additions: {unknown!r} is not in the lexicon")
    return {
        "categories": [*categories, *additions.get("categories", [])],
        "red_herrings": [*herrings, *additions.get("red_herrings", [])],
        "subtle": [*data.get("subtle", []), *additions.get("subtle", [])],
    }


def category_material(cid: str) -> str:
    """The text that stands for one category as material: a store never serves it twice."""
    return f"connections category: {cid}"


def fresh_categories(lex: Lexicon, sources: Sources, needed: int) -> list[str]:
    """The categories no earlier question of the store drew on (sorted); a one-line UserError
    when fewer than ``needed`` are left."""
    fresh = [cid for cid in sorted(lex.links) if sources.is_fresh(category_material(cid))]
    if len(fresh) < needed:
        raise UserError(
            f"connections: only {len(fresh)} of the {len(lex.links)} categories of the packaged "
            f"lexicon (live/data/connections.json, from d = 1 with {ADDITIONS}) are unused in "
            f"this store and {needed} are "
            "needed; lower --per-task or the difficulty (connections draws no --sources from "
            "'ladderbench live fetch')"
        )
    return fresh


def _draw(
    rng: random.Random, cfg: ConnectionsConfig, lex: Lexicon, fresh: list[str]
) -> tuple[list[str], dict[str, list[str]], str | None]:
    """The v1 draw (d = 0): (chosen categories, their words, the red herring or None)."""
    categories = fresh
    herrings = tuple(h for h in lex.red_herrings if lex.membership[h] & set(fresh))
    for _ in range(_MAX_DRAWS):
        herring = None
        if cfg.red_herring:
            herring = rng.choice(herrings)
            home = rng.choice(sorted(lex.membership[herring] & set(fresh)))
            others = [c for c in categories if c not in lex.membership[herring]]
            if len(others) < cfg.groups - 1:
                continue
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


# ---------------------------------------------------------------- d >= 1: decoys


SEARCH_BUDGET = 50_000  # nodes; a decoy whose uniqueness takes longer to prove is not placed


class _OverBudget(Exception):
    pass


def solve(words: list[str], lex: Lexicon, limit: int = 2, budget: int = 0) -> tuple[int, int]:
    """(groupings found, search nodes): the ways to split ``words`` into groups of four that
    each share a lexicon category, no category twice (any category, drawn or not), counted up to
    ``limit``. The search branches on the word with the fewest possible groups (ties: the first
    alphabetically), so its node count does not depend on the order words are shown in. With a
    ``budget``, a search that needs more nodes stops and reports ``limit`` (nothing proven)."""
    nodes = 0

    def options(
        word: str, left: frozenset[str], used: frozenset[str]
    ) -> list[tuple[str, frozenset[str]]]:
        """The groups ``word`` can join: (category, the four words)."""
        found = []
        for cid in sorted(lex.membership[word] - used):
            mates = sorted(w for w in left if w != word and cid in lex.membership[w])
            for trio in itertools.combinations(mates, GROUP_SIZE - 1):
                found.append((cid, frozenset((word, *trio))))
        return found

    def walk(left: frozenset[str], used: frozenset[str]) -> int:
        nonlocal nodes
        nodes += 1
        if budget and nodes > budget:
            raise _OverBudget
        if not left:
            return 1
        branches = min((options(w, left, used) for w in sorted(left)), key=len)
        found = 0
        for cid, group in branches:
            found += walk(left - group, used | {cid})
            if found >= limit:
                return found
        return found

    try:
        return walk(frozenset(words), frozenset()), nodes
    except _OverBudget:
        return limit, nodes


def _linked_categories(
    rng: random.Random, lex: Lexicon, fresh: list[str], cfg: ConnectionsConfig
) -> list[str]:
    """``cfg.groups`` fresh categories: up to ``cfg.subtle`` wordplay ones first, then each next
    one sharing a red herring with those before where it can (so that herrings can cross
    between drawn groups)."""
    links: dict[str, set[str]] = {cid: set() for cid in fresh}
    for word in lex.red_herrings:
        cats = [c for c in sorted(lex.membership[word]) if c in links]
        for cid in cats:
            links[cid].update(c for c in cats if c != cid)
    subtle = [c for c in fresh if c in lex.subtle]
    chosen = rng.sample(subtle, min(cfg.subtle, len(subtle), cfg.groups))
    if not chosen:
        chosen = [rng.choice([c for c in fresh if links[c]] or fresh)]
    while len(chosen) < cfg.groups:
        near = sorted({c for cid in chosen for c in links[cid]} - set(chosen))
        chosen.append(rng.choice(near or [c for c in fresh if c not in chosen]))
    return chosen


def _place_decoys(
    rng: random.Random, cfg: ConnectionsConfig, lex: Lexicon, groups: dict[str, list[str]]
) -> list[str]:
    """Swap up to ``cfg.decoys`` pure words, one at a time, for red herrings that fit their
    group and another category, keeping the grouping unique. Each time the swap that most
    enlarges the search is taken: the most new candidate groups (four puzzle words sharing a
    category), then the most puzzle words already sharing the herring's other categories.
    Returns the herrings placed."""
    drawn = sorted(groups)
    moves = [(h, home) for h in lex.red_herrings for home in sorted(lex.membership[h] & set(drawn))]
    rng.shuffle(moves)
    placed: list[str] = []
    while len(placed) < cfg.decoys:
        counts = _category_counts([w for cid in drawn for w in groups[cid]], lex)
        ranked = sorted(
            (m for m in moves if m[0] not in placed and _has_room(groups[m[1]], lex)),
            key=lambda m: _lure(m[0], m[1], counts, lex),
            reverse=True,
        )
        for herring, home in ranked:
            out = rng.choice([w for w in groups[home] if len(lex.membership[w]) == 1])
            trial = sorted([*(w for w in groups[home] if w != out), herring])
            words = [w for cid in drawn for w in (trial if cid == home else groups[cid])]
            if solve(words, lex, budget=SEARCH_BUDGET)[0] == 1:
                groups[home] = trial
                placed.append(herring)
                break
        else:
            break
    return placed


def _category_counts(words: list[str], lex: Lexicon) -> dict[str, int]:
    counts: dict[str, int] = {}
    for word in words:
        for cid in lex.membership[word]:
            counts[cid] = counts.get(cid, 0) + 1
    return counts


def _has_room(group: list[str], lex: Lexicon) -> bool:
    """Whether a group may take another decoy (it keeps two words that fit it alone)."""
    pure = sum(len(lex.membership[w]) == 1 for w in group)
    return pure > GROUP_SIZE - MAX_DECOYS_PER_GROUP


def _lure(herring: str, home: str, counts: dict[str, int], lex: Lexicon) -> tuple[int, int]:
    """(new candidate groups, puzzle words sharing its other categories) a herring brings."""
    others = sorted(lex.membership[herring] - {home})
    new_groups = sum(
        math.comb(counts.get(c, 0) + 1, 4) - math.comb(counts.get(c, 0), 4) for c in others
    )
    return new_groups, sum(counts.get(c, 0) for c in others)


def _draw_decoyed(
    rng: random.Random, cfg: ConnectionsConfig, lex: Lexicon, fresh: list[str]
) -> tuple[list[str], dict[str, list[str]], list[str]]:
    """(chosen categories, their words, the herrings placed) for d >= 1."""
    chosen = _linked_categories(rng, lex, fresh, cfg)
    groups = {cid: sorted(rng.sample(lex.pure[cid], GROUP_SIZE)) for cid in chosen}
    return chosen, groups, _place_decoys(rng, cfg, lex, groups)


# ---------------------------------------------------------------- answers

_GROUP_SPLIT = re.compile(r"[\n;]+")
_WORD_SPLIT = re.compile(r"\s*(?:,|/|\||\band\b|&)\s*", re.I)
# What sets a label apart from the words: "Fish: ...", "Fish - ...", "Fish → ...", "... - fish".
_LABEL_SEPARATOR = re.compile(r"\s*[:\u2192\u2013\u2014]\s*|\s*(?:->|=>)\s*|\s+-+\s+")
_LABEL = re.compile(
    r"^\s*(?:[-*+\u2022>]|\(?\d{1,2}[.)]|(?:group|row|set)\s*(?:\d+\s*[.):-]?|[.):-]))\s*", re.I
)
# A markdown table's header row and the rule under it: "| link | words |\n|---|---|".
# (The lookahead finds the line's "|" once: "[^\n]*\|[^\n]*" would try every "|" of a long line.)
_TABLE_HEAD = re.compile(r"^(?=[^\n]*\|)[^\n]*\n\s*\|?\s*:?-{3,}[-:| ]*\s*$", re.M)
_PAREN = re.compile(r"\([^()]*\)|\[[^\[\]]*\]$")


def _word_key(word: str) -> str:
    """A word as compared: NFKC, letters only, case-folded."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", word) if ch.isalnum()).casefold()


_PAREN_PASSES = 8  # passes of _PAREN before the rest of the nesting goes in one


def _without_parentheses(segment: str) -> str:
    """segment with each outermost balanced "(...)" as one space, in one pass with a stack.

    Removing the innermost pair until none is left takes a pass per level of nesting, which a
    reply of thousands of "(" makes quadratic. The result is the same except where a final
    "[...]" crosses a pair still open after _PAREN_PASSES passes.
    """
    pairs, opened = [], []
    for i, char in enumerate(segment):
        if char == "(":
            opened.append(i)
        elif char == ")" and opened:
            pairs.append((opened.pop(), i))
    kept, last = [], 0
    for start, end in sorted(pairs):
        if start >= last:  # not inside a pair already replaced
            kept.append(segment[last:start] + " ")
            last = end + 1
    return "".join(kept) + segment[last:]


def _listed_words(segment: str) -> list[str]:
    """The words one segment lists (bullets, numbering and parentheses dropped)."""
    segment = _LABEL.sub("", segment.strip().strip("*`").strip(), count=1)
    for _ in range(_PAREN_PASSES):  # "(fish)" after or inside the group, nested too
        if not _PAREN.search(segment):
            break
        segment = _PAREN.sub(" ", segment)
    else:  # nested deeper than any group line is: the rest in one linear pass
        segment = _without_parentheses(segment)
        while _PAREN.search(segment):  # a "[fish]" ending it (twice at most)
            segment = _PAREN.sub(" ", segment)
    return [w for w in (_word_key(w) for w in _WORD_SPLIT.split(segment)) if w]


def _group_words(part: str) -> list[str]:
    """The words of one group line: of the segments a label separator (':', ' - ', '→', '—')
    or a table's '|' cuts it into, the one listing the most words (the last on a tie: "Label:
    words"); a line of single words between separators ("a - b - c - d") lists them all."""
    part = part.strip().strip("*`").strip()
    cells = [part]
    if "|" in part and "," in part:  # a table row: "| Fish | salmon, trout, cod, tuna |"
        cells = [cell for cell in part.split("|") if cell.strip()]
    segments = [seg for cell in cells for seg in _LABEL_SEPARATOR.split(cell) if seg.strip()]
    listed = [_listed_words(seg) for seg in segments]
    best = max(reversed(listed), key=len, default=[])
    if len(best) == 1 and len(listed) > 1:
        return [w for words in listed for w in words]
    return best


def parse_groups(answer: str) -> list[frozenset[str]]:
    """The groups an answer gives: lines or ';'-separated parts with two or more listed words."""
    text = re.sub(r"\]\s*,?\s*\[", ";", answer)  # [["a", "b"], ["c", "d"]]
    text = _TABLE_HEAD.sub("\n", text)
    groups = []
    for part in _GROUP_SPLIT.split(text):
        words = _group_words(part)
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
        lex = lexicon()
        if difficulty <= 0:
            subtask = rng.choice(sorted(SUBTASKS))
            cfg = SUBTASKS[subtask]
            chosen, groups, herring = _draw(rng, cfg, lex, fresh_categories(lex, sources, 4))
            extra: dict[str, Any] = {"red_herring": herring}
        else:
            subtask, cfg = DECOY_SUBTASK, difficulty_config(difficulty)
            lex = full_lexicon()
            fresh = fresh_categories(lex, sources, cfg.groups)
            chosen, groups, decoys = _draw_decoyed(rng, cfg, lex, fresh)
            extra = {"decoys": decoys}
        words = [w for cid in chosen for w in groups[cid]]
        rng.shuffle(words)
        ordered = sorted((groups[cid], cid) for cid in chosen)
        truth = [g for g, _ in ordered]
        if difficulty > 0:
            extra["search_nodes"] = solve(words, lex)[1]
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
            fields={"words": words, "groups": truth, "links": [lex.links[c] for _, c in ordered]}
            | extra,
            material=tuple(category_material(cid) for cid in chosen),
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
