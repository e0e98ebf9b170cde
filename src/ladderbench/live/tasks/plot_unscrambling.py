"""Plot unscrambling: put the shuffled sentences of a short narrative back in their order.

A narrative passage (from the project's corpus, whose narratives were written so that their order
is unambiguous, or a paragraph of five to twelve sentences from ``--sources``) is split into
sentences and shown numbered in a shuffled order, far enough from the original that copying it
earns at most half credit. The model returns the sentences in the order it believes is right.

Why it is hard: the order is never stated; it has to be rebuilt from causal and temporal cues
spread across the passage (who is introduced first, what must happen before what), and a single
misplaced sentence costs credit. In the ``anchored`` subtask the opening sentence is left in place
and said to be so; in ``free`` every sentence may have moved.

Scoring: each sentence of the answer is matched to its nearest original sentence (rapidfuzz
ratio; a line that resembles none counts as junk), and the score is 1 - (Levenshtein distance
between the matched index sequence and 0..n-1) / n, clamped to [0, 1]. An answer given as the
numbers of the shuffled sentences ("3, 1, 4, 2, ...") is read through the shuffled order.
"""

from __future__ import annotations

import json
import math
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from ladderbench.errors import UserError
from ladderbench.grading.extract import extract_answer
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register
from ladderbench.live.tasks._corpus import passages


@dataclass(frozen=True)
class UnscrambleConfig:
    """One subtask: whether the first sentence stays put, and the sentence counts accepted."""

    anchor_first: bool
    min_sentences: int = 5
    max_sentences: int = 12
    # The shuffled order must be at least this share of n edits away from the original.
    min_disorder: float = 0.5


SUBTASKS: dict[str, UnscrambleConfig] = {
    "anchored": UnscrambleConfig(anchor_first=True),
    "free": UnscrambleConfig(anchor_first=False),
}

PROMPT_TEMPLATE = """\
The {count} sentences below come from a short passage, but their order has been shuffled. \
{anchor_note}Put the sentences back in their original order, using the cues in the text \
(what is introduced first, what must happen before what).

{numbered}

Write all {count} sentences in the restored order, one sentence per line, each copied exactly as \
given (without its number). Put your final answer inside <solution></solution> tags, for example \
(format only):
<solution>
First sentence of the passage.
Second sentence of the passage.
...
</solution>"""

ANCHOR_NOTE = "Sentence 1 is already in its correct place: it opens the passage. "

# A line of the answer scoring below this ratio against every original sentence is junk.
MATCH_CUTOFF = 60.0
_MAX_DRAWS = 200

# ---------------------------------------------------------------- sentences

# Titles, months and days count only capitalised ("Dr.", "Sun."); "the sun." still ends a sentence.
_TITLE_ABBREVIATIONS_TEXT = """
Mr Mrs Ms Dr Prof Sr Jr St Mt Ft Fig Figs Vol Vols Inc Ltd Co Corp Dept Gen Col Capt Lt Sgt Rev
Hon Gov Pres Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Mon Tue Tues Wed Thu Thurs Fri
Sat Sun MR MRS MS DR PROF ST
"""
_LOWER_ABBREVIATIONS_TEXT = "etc vs approx cf pp eds viz"
ABBREVIATIONS = frozenset(_TITLE_ABBREVIATIONS_TEXT.split()) | frozenset(
    _LOWER_ABBREVIATIONS_TEXT.split()
)
_BOUNDARY = re.compile(r"[.!?]+[\"'\u201d\u2019)\]]*(?=\s+)")
_LAST_TOKEN = re.compile(r"(\S+)$")
_DOTTED = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]?")  # e.g., i.e., U.S., a.m.
_OPENER = re.compile(r"[\"'\u201c\u2018(\[]*[A-Z0-9]")


def split_sentences(text: str) -> list[str]:
    """Sentences of a paragraph: split after . ! ? (and closing quotes) before a capital or digit.

    A period after a known abbreviation ("Dr.", "etc."), a single initial ("J."), a dotted
    abbreviation ("e.g.", "U.S.") or "No." before a number does not end a sentence.
    """
    text = " ".join(text.split())
    sentences, start = [], 0
    for m in _BOUNDARY.finditer(text):
        rest = text[m.end() :].lstrip()
        if not rest or not _OPENER.match(rest):
            continue
        if m.group().startswith(".") and len(m.group().rstrip("\"'\u201d\u2019)]")) == 1:
            token = _LAST_TOKEN.search(text[start : m.start()])
            word = token.group(1).lstrip("\"'\u201c\u2018([") if token else ""
            if (
                word in ABBREVIATIONS
                or (len(word) == 1 and word.isalpha())
                or _DOTTED.fullmatch(word + ".")
                or (word.lower() == "no" and rest[:1].isdigit())
                or (word == "al" and text[: m.start()].endswith("et al"))
            ):
                continue
        sentence = text[start : m.end()].strip()
        if sentence:
            sentences.append(sentence)
        start = m.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences


@lru_cache(maxsize=1)
def _corpus_narratives() -> tuple[str, ...]:
    """The corpus paragraphs whose topic marks them as narratives (order-unambiguous stories)."""
    path = resources.files("ladderbench.live") / "data" / "corpus.jsonl"
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            entry = json.loads(line)
            if str(entry.get("topic", "")).startswith("narrative"):
                found.append(entry["text"])
    return tuple(found)


def _usable(sentences: list[str], cfg: UnscrambleConfig) -> bool:
    """Enough sentences, and no two so alike that matching could confuse them."""
    if not cfg.min_sentences <= len(sentences) <= cfg.max_sentences:
        return False
    keys = [_key(s) for s in sentences]
    return all(
        fuzz.ratio(keys[i], keys[j]) < 85 for i in range(len(keys)) for j in range(i + 1, len(keys))
    )


def candidate_passages(sources: Sources, cfg: UnscrambleConfig) -> list[list[str]]:
    """Passages to draw from, already split: corpus narratives, or suitable source paragraphs."""
    if not sources.texts:
        return [list(s) for s in _corpus_candidates(cfg)]
    found = [s for s in (split_sentences(t) for t in passages(sources)) if _usable(s, cfg)]
    if not found:
        raise UserError(
            f"--sources: no paragraph of {cfg.min_sentences} to {cfg.max_sentences} distinct "
            "sentences for plot_unscrambling"
        )
    return found


@lru_cache(maxsize=8)
def _corpus_candidates(cfg: UnscrambleConfig) -> tuple[tuple[str, ...], ...]:
    found = tuple(tuple(s) for s in map(split_sentences, _corpus_narratives()) if _usable(s, cfg))
    if not found:
        raise ValueError("the corpus has no usable narrative")
    return found


def _shuffle(n: int, cfg: UnscrambleConfig, rng: random.Random) -> list[int]:
    """A permutation of range(n) at least min_disorder * n edits from the identity."""
    fixed = 1 if cfg.anchor_first else 0
    need = min(math.ceil(cfg.min_disorder * n), n - fixed)
    identity = list(range(n))
    for _ in range(_MAX_DRAWS):
        rest = list(range(fixed, n))
        rng.shuffle(rest)
        order = list(range(fixed)) + rest
        if Levenshtein.distance(order, identity) >= need:
            return order
    raise ValueError(f"could not shuffle {n} sentences far enough from their order")


# ---------------------------------------------------------------- answers

_KEY_DROP = re.compile(r"[^\w\s]")
_LINE_LABEL = re.compile(
    r"^\s*(?:(?:sentence|line|step)\s*)?(?:\(?\d{1,2}[.):\]]|\[\d{1,2}\]|[-*+\u2022>])\s+", re.I
)
_NUMBERS_ONLY = re.compile(r"^[\s\d,;.:>\-\u2013\u2014\u2192()\[\]]+$")


def _key(sentence: str) -> str:
    """A sentence reduced for fuzzy matching: no markdown or punctuation, one space, lower case."""
    return " ".join(_KEY_DROP.sub(" ", sentence.replace("*", "")).split()).casefold()


def answer_sentences(answer: str) -> list[str]:
    """The sentences of an answer: per line, list labels removed, then split into sentences."""
    found = []
    for raw in answer.splitlines():
        line = raw.strip().strip("*`").strip()
        line = _LINE_LABEL.sub("", line, count=1).strip().strip('*`"').strip()
        if line:
            found.extend(split_sentences(line))
    return found


def _numbers(answer: str, n: int) -> list[int] | None:
    """1-based labels of the shuffled list, when the answer is nothing but n distinct labels."""
    if not _NUMBERS_ONLY.match(answer):
        return None
    labels = [int(x) for x in re.findall(r"\d+", answer)]
    if len(labels) != n or sorted(labels) != list(range(1, n + 1)):
        return None
    return labels


def order_score(indices: list[int], n: int) -> float:
    """1 - Levenshtein(indices, 0..n-1) / n, clamped to [0, 1]."""
    if n <= 0:
        return 0.0
    distance = Levenshtein.distance(indices, list(range(n)))
    return min(1.0, max(0.0, 1.0 - distance / n))


# ---------------------------------------------------------------- the task


@register
class PlotUnscrambling(Task):
    name = "plot_unscrambling"
    category = "language"
    uses_sources = True

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        subtask = rng.choice(sorted(SUBTASKS))
        cfg = SUBTASKS[subtask]
        sentences = rng.choice(candidate_passages(sources, cfg))
        n = len(sentences)
        order = _shuffle(n, cfg, rng)
        shuffled = [sentences[i] for i in order]
        numbered = "\n".join(f"{k}. {s}" for k, s in enumerate(shuffled, 1))
        prompt = PROMPT_TEMPLATE.format(
            count=n, anchor_note=ANCHOR_NOTE if cfg.anchor_first else "", numbered=numbered
        )
        return Question(
            prompt=prompt,
            ground_truth="\n".join(sentences),
            subtask=subtask,
            fields={"shuffled": shuffled},
        )

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        answer = extract_answer(response) if isinstance(response, str) else None
        return verdict(answer, self._score(record, answer))

    def _score(self, record: dict[str, Any], answer: str | None) -> float:
        gold = record.get("ground_truth")
        if not isinstance(gold, str) or not gold.strip():
            return 0.0
        originals = gold.split("\n")
        n = len(originals)
        if not answer:
            return 0.0
        labels = _numbers(answer, n)
        if labels is not None:
            shuffled = [str(s) for s in record.get("shuffled") or []]
            position = {_key(s): i for i, s in enumerate(originals)}
            if len(shuffled) == n and all(_key(s) in position for s in shuffled):
                return order_score([position[_key(shuffled[k - 1])] for k in labels], n)
            return 0.0
        keys = [_key(s) for s in originals]
        indices = []
        for sentence in answer_sentences(answer):
            key = _key(sentence)
            if not key:
                continue
            best = process.extractOne(key, keys, scorer=fuzz.ratio)
            indices.append(best[2] if best and best[1] >= MATCH_CUTOFF else -1)
        if not indices:
            return 0.0
        return order_score(indices, n)

    def reference(self, record: dict[str, Any]) -> str:
        return f"<solution>\n{record['ground_truth']}\n</solution>"
