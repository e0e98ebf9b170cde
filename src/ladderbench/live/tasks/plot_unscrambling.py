"""Plot unscrambling: put the shuffled sentences of a short narrative back in their order.

A narrative passage (from the project's corpus, whose narratives were written so that their order
is unambiguous, or a paragraph of five to twelve sentences from ``--sources``, newest file first)
is split into sentences and shown numbered in a shuffled order, far enough from the original that
copying it earns at most half credit. The model returns the sentences in the order it believes is
right. Each passage is material: a store never serves it twice, and when none is left the task
says so in one line.

Why it is hard: the order is never stated; it has to be rebuilt from causal and temporal cues
spread across the passage (who is introduced first, what must happen before what), and a single
misplaced sentence costs credit. In the ``anchored`` subtask the opening sentence is left in place
and said to be so; in ``free`` every sentence may have moved.

Difficulty ``d`` (0 = the v1 mix above). From d = 1 no sentence is anchored and the shuffle is
further from the original (at least min(0.9, 0.5 + 0.05 d) of n edits); what each step adds:

- with ``--sources`` (``long``): a run of consecutive paragraphs of one source text with 4d + 5
  to 8d + 12 sentences: four more sentences to place per step, with cues spread across paragraphs;
- from the packaged corpus (``mixed``): d + 1 narratives (7 sentences each on average) shuffled
  together; the model must tell the passages apart by content and order each one, and writes the
  passages in the order the prompt gives by naming one sentence of each (never its first): one
  more passage, and about seven more sentences, per step.

Scoring: the answer is the content of the last <solution> (or <answer>, \\boxed) tag, or, in a
reply with no tag, the whole reply, as LiveBench reads it; there the listing it ends with counts
(prose lines skipped, stopping at the first sentence met twice: the reasoning before it). Each
sentence of the answer is matched to its nearest original sentence (rapidfuzz ratio; a line that
resembles none counts as junk), and the score is 1 - (Levenshtein distance between the matched
index sequence and 0..n-1) / n, clamped to [0, 1]. An answer given as the numbers of the shuffled
sentences ("3, 1, 4, 2, ...", or an untagged reply's last line "Order: 3, 1, 4, 2") is read
through the shuffled order.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import Any

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from ladderbench.errors import UserError
from ladderbench.grading.extract import extract_answer, strip_think, whole_number
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register
from ladderbench.live.tasks._corpus import MIN_WORDS


@dataclass(frozen=True)
class UnscrambleConfig:
    """One setting: whether the first sentence stays put, the sentence counts accepted, and (from
    d = 1) how many passages of the packaged corpus are mixed into one question."""

    anchor_first: bool
    min_sentences: int = 5
    max_sentences: int = 12
    # The shuffled order must be at least this share of n edits away from the original.
    min_disorder: float = 0.5
    stories: int = 1


SUBTASKS: dict[str, UnscrambleConfig] = {
    "anchored": UnscrambleConfig(anchor_first=True),
    "free": UnscrambleConfig(anchor_first=False),
}
LONG_SUBTASK = "long"  # d >= 1 from --sources: one long passage of consecutive paragraphs
MIXED_SUBTASK = "mixed"  # d >= 1 from the packaged corpus: several narratives mixed together


def difficulty_config(d: int) -> UnscrambleConfig:
    """The setting at difficulty ``d >= 1`` (d = 0 is the v1 mix of ``SUBTASKS``): no anchor,
    at least 4d + 5 sentences (a window of consecutive source paragraphs), or d + 1 corpus
    narratives mixed together, and a shuffle further from the original order."""
    if d < 1:
        raise ValueError(f"plot_unscrambling: difficulty {d} has no single config (0 is v1)")
    return UnscrambleConfig(
        anchor_first=False,
        min_sentences=5 + 4 * d,
        max_sentences=12 + 8 * d,
        min_disorder=min(0.9, 0.5 + 0.05 * d),
        stories=d + 1,
    )


PROMPT_TEMPLATE = """\
The {count} sentences below come from {passage}, but their order has been shuffled. \
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

MIXED_TEMPLATE = """\
The {count} sentences below come from {stories} short passages, mixed together and shuffled. \
Sort them out: give each passage its sentences in their original order, using the cues in the \
text (who and what each passage is about, what is introduced first, what must happen before \
what), and write the passages one after another: {sequence}.

{numbered}

Write all {count} sentences in the restored order, one sentence per line, each copied exactly as \
given (without its number). Put your final answer inside <solution></solution> tags, for example \
(format only):
<solution>
First sentence of the first passage.
Second sentence of the first passage.
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
    return _distinct(sentences)


def _distinct(sentences: list[str]) -> bool:
    """No two sentences so alike that matching an answer could confuse them."""
    keys = [_key(s) for s in sentences]
    return all(
        fuzz.ratio(keys[i], keys[j]) < 85 for i in range(len(keys)) for j in range(i + 1, len(keys))
    )


def material_of(sentences: Sequence[str]) -> str:
    """The passage a list of sentences was split from: the material a question names."""
    return " ".join(sentences)


def _exhausted(pool: str) -> UserError:
    return UserError(
        f"plot_unscrambling: no unused passage left in {pool}; run 'ladderbench live fetch' and "
        "pass --sources (or lower --per-task or the difficulty)"
    )


def candidate_passages(sources: Sources, cfg: UnscrambleConfig) -> list[list[str]]:
    """Fresh passages to draw from, already split: corpus narratives, or the suitable
    paragraphs of the newest source file that still has one."""
    if not sources.texts:
        found = [list(s) for s in _corpus_candidates(cfg) if sources.is_fresh(material_of(s))]
        if not found:
            raise _exhausted("the packaged corpus's narratives (live/data/corpus.jsonl)")
        return found
    usable = False
    for name in sources.newest_first(sources.texts):
        split = [split_sentences(p) for p in _paragraphs(sources.texts[name])]
        found = [s for s in split if len(" ".join(s).split()) >= MIN_WORDS and _usable(s, cfg)]
        usable = usable or bool(found)
        fresh = [s for s in found if sources.is_fresh(material_of(s))]
        if fresh:
            return fresh
    if usable:
        raise _exhausted("the --sources texts")
    raise UserError(
        f"--sources: no paragraph of {cfg.min_sentences} to {cfg.max_sentences} distinct "
        "sentences for plot_unscrambling"
    )


def _paragraphs(text: str) -> list[str]:
    """A source text's paragraphs (split at blank lines), spacing normalised."""
    return [" ".join(block.split()) for block in text.split("\n\n") if block.strip()]


def source_windows(sources: Sources, cfg: UnscrambleConfig) -> list[list[list[str]]]:
    """For d >= 1: runs of consecutive fresh paragraphs (each a list of sentences) of the newest
    source file that has one, together ``min_sentences`` to ``max_sentences`` distinct
    sentences: the shortest run from each starting paragraph."""
    for name in sources.newest_first(sources.texts):
        split = [split_sentences(p) for p in _paragraphs(sources.texts[name])]
        windows = []
        for start in range(len(split)):
            run: list[list[str]] = []
            for paragraph in split[start:]:
                if not sources.is_fresh(material_of(paragraph)):
                    break
                run.append(paragraph)
                count = sum(map(len, run))
                if count >= cfg.min_sentences:
                    if count <= cfg.max_sentences and _distinct([s for p in run for s in p]):
                        windows.append(run)
                    break
        if windows:
            return windows
    raise UserError(
        f"--sources: no unused run of consecutive paragraphs with {cfg.min_sentences} to "
        f"{cfg.max_sentences} distinct sentences for plot_unscrambling; run 'ladderbench live "
        "fetch' for newer texts (or lower --per-task or the difficulty)"
    )


@lru_cache(maxsize=8)
def _corpus_candidates(cfg: UnscrambleConfig) -> tuple[tuple[str, ...], ...]:
    found = tuple(tuple(s) for s in map(split_sentences, _corpus_narratives()) if _usable(s, cfg))
    if not found:
        raise ValueError("the corpus has no usable narrative")
    return found


def mixed_stories(rng: random.Random, sources: Sources, cfg: UnscrambleConfig) -> list[list[str]]:
    """For d >= 1 without --sources: ``cfg.stories`` fresh corpus narratives whose sentences,
    all together, are distinct enough to match."""
    base = replace(cfg, min_sentences=5, max_sentences=12)
    pool = [list(s) for s in _corpus_candidates(base) if sources.is_fresh(material_of(s))]
    if len(pool) < cfg.stories:
        raise _exhausted(
            f"the packaged corpus's narratives (live/data/corpus.jsonl: {len(pool)} unused, "
            f"{cfg.stories} needed)"
        )
    for _ in range(_MAX_DRAWS):
        stories = rng.sample(pool, cfg.stories)
        if _distinct([s for story in stories for s in story]):
            return stories
    raise ValueError("could not draw narratives distinct enough to mix")


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
    r"^\s*(?:(?:sentence|line|step)\s*)?(?:\(?\d{1,3}[.):\]]|\[\d{1,3}\]|[-*+\u2022>])\s+", re.I
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
    numbers = [whole_number(x) for x in re.findall(r"\d+", answer)]
    labels = [x for x in numbers if x is not None]  # a number too long for int() is no label
    if len(labels) != n or len(numbers) != n or sorted(labels) != list(range(1, n + 1)):
        return None
    return labels


def order_score(indices: list[int], n: int) -> float:
    """1 - Levenshtein(indices, 0..n-1) / n, clamped to [0, 1]."""
    if n <= 0:
        return 0.0
    distance = Levenshtein.distance(indices, list(range(n)))
    return min(1.0, max(0.0, 1.0 - distance / n))


_TAGGED = re.compile(r"<(?:solution|answer)>|\\boxed|\\fbox", re.I)


def read_answer(response: str) -> tuple[str | None, bool]:
    """(the answer text, whether the reply had no answer tags). As LiveBench reads it: the
    answer inside the last tag, or, in a reply with no tags, the whole reply (thinking removed);
    ``final_listing`` then keeps the listing it ends with."""
    if not isinstance(response, str):
        return None, False
    text = strip_think(response)
    if text is None:
        return None, False
    if _TAGGED.search(text):
        return extract_answer(response), False
    return (text.strip() or None), True


def _matched(answer: str, originals: list[str]) -> list[int]:
    """Each answer sentence's nearest original sentence (its index), -1 for one like none."""
    keys = [_key(s) for s in originals]
    indices = []
    for sentence in answer_sentences(answer):
        key = _key(sentence)
        if not key:
            continue
        best = process.extractOne(key, keys, scorer=fuzz.ratio)
        indices.append(best[2] if best and best[1] >= MATCH_CUTOFF else -1)
    return indices


def _last_line(text: str) -> str:
    """An untagged reply's last line without a leading label ("Order: 3, 1, 2")."""
    lines = [line for line in text.splitlines() if line.strip()]
    return re.sub(r"^[^\d:]*:", "", lines[-1]) if lines else ""


def final_listing(indices: list[int]) -> list[int]:
    """The listing an untagged reply ends with: walking back from its end over the sentences
    that match an original (prose lines between them skipped), up to the first sentence met a
    second time, where the reasoning before the listing begins."""
    listing: list[int] = []
    for index in reversed(indices):
        if index < 0:
            continue
        if index in listing:
            break
        listing.append(index)
    return listing[::-1]


# ---------------------------------------------------------------- the task


@register
class PlotUnscrambling(Task):
    name = "plot_unscrambling"
    category = "language"
    uses_sources = True

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        if difficulty <= 0:
            subtask = rng.choice(sorted(SUBTASKS))
            cfg = SUBTASKS[subtask]
            sentences = rng.choice(candidate_passages(sources, cfg))
            return _question(rng, cfg, subtask, [sentences], "a short passage")
        cfg = difficulty_config(difficulty)
        if sources.texts:
            run = rng.choice(source_windows(sources, cfg))
            return _question(rng, cfg, LONG_SUBTASK, run, "a passage")
        return _mixed_question(rng, cfg, mixed_stories(rng, sources, cfg))

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        answer, untagged = read_answer(response)
        return verdict(answer, self._score(record, answer, untagged))

    def _score(self, record: dict[str, Any], answer: str | None, untagged: bool = False) -> float:
        gold = record.get("ground_truth")
        if not isinstance(gold, str) or not gold.strip():
            return 0.0
        originals = gold.split("\n")
        n = len(originals)
        if not answer:
            return 0.0
        labels = _numbers(_last_line(answer) if untagged else answer, n)
        if labels is not None:
            shuffled = [str(s) for s in record.get("shuffled") or []]
            position = {_key(s): i for i, s in enumerate(originals)}
            if len(shuffled) == n and all(_key(s) in position for s in shuffled):
                return order_score([position[_key(shuffled[k - 1])] for k in labels], n)
            return 0.0
        indices = _matched(answer, originals)
        if untagged:
            indices = final_listing(indices)
        if not indices:
            return 0.0
        return order_score(indices, n)

    def reference(self, record: dict[str, Any]) -> str:
        return f"<solution>\n{record['ground_truth']}\n</solution>"


def _question(
    rng: random.Random,
    cfg: UnscrambleConfig,
    subtask: str,
    paragraphs: list[list[str]],
    passage: str,
) -> Question:
    """One passage (its paragraphs' sentences in order) shown shuffled."""
    sentences = [s for paragraph in paragraphs for s in paragraph]
    n = len(sentences)
    order = _shuffle(n, cfg, rng)
    shuffled = [sentences[i] for i in order]
    numbered = "\n".join(f"{k}. {s}" for k, s in enumerate(shuffled, 1))
    prompt = PROMPT_TEMPLATE.format(
        count=n,
        passage=passage,
        anchor_note=ANCHOR_NOTE if cfg.anchor_first else "",
        numbered=numbered,
    )
    return Question(
        prompt=prompt,
        ground_truth="\n".join(sentences),
        subtask=subtask,
        fields={"shuffled": shuffled},
        material=tuple(material_of(p) for p in paragraphs),
    )


def _mixed_question(
    rng: random.Random, cfg: UnscrambleConfig, stories: list[list[str]]
) -> Question:
    """Several narratives' sentences shuffled together; the prompt names, for each passage in
    the order to write them, one of its sentences (never its first), so the answer is unique."""
    sentences = [s for story in stories for s in story]
    n = len(sentences)
    order = _shuffle(n, cfg, rng)
    shuffled = [sentences[i] for i in order]
    label = {s: k for k, s in enumerate(shuffled, 1)}
    named = [label[rng.choice(story[1:])] for story in stories]
    numbered = "\n".join(f"{k}. {s}" for k, s in enumerate(shuffled, 1))
    prompt = MIXED_TEMPLATE.format(
        count=n,
        stories=len(stories),
        sequence=_passage_sequence(named),
        numbered=numbered,
    )
    return Question(
        prompt=prompt,
        ground_truth="\n".join(sentences),
        subtask=MIXED_SUBTASK,
        fields={"shuffled": shuffled, "passage_sizes": [len(story) for story in stories]},
        material=tuple(material_of(story) for story in stories),
    )


def _passage_sequence(labels: list[int]) -> str:
    """'first the passage that contains sentence 4, then ..., and last the one with 9'."""
    parts = [f"first the passage that contains sentence {labels[0]}"]
    parts += [f"then the one that contains sentence {k}" for k in labels[1:-1]]
    parts.append(f"and last the one that contains sentence {labels[-1]}")
    return ", ".join(parts)
