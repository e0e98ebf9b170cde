"""Instruction following: rework a passage while obeying several verifiable instructions.

Each question takes a passage (fetched ``--sources`` text newest first, never served twice; the
packaged corpus only as the fallback) and asks for a paraphrase, a simplification, a summary or a
short story inspired by it, under IFEval-style instructions (see ``_instructions``). Instructions
are drawn so that they never contradict each other, and a set is kept only when a response
meeting all of them exists (``compose`` builds one).

Difficulty 0 (version 1): one to three instructions of eighteen kinds (repeat the request, two
responses, a postscript, a fixed verdict phrase, JSON, sections, list items, a title, required and
forbidden words, paragraph count and first word, sentence and word limits, an end phrase,
quotation marks, lowercase, no commas).

What each step of ``difficulty`` adds (``difficulty_config``): one more instruction (3 + d in
all), drawn from every kind, with four kinds that interact: a common letter the whole reply must
avoid (always present from d=1; every keyword, phrase and first word drawn with it avoids it),
words required in a given order (often chained: a before b, b before c) or an exact number of
times, and from d=2 exact word counts for min(3, d // 2) paragraphs of a reply of four to six
paragraphs. Limits on the whole reply are then lower limits only (a ceiling would clash with the
exact counts).

Why it is hard: the instructions fight the task and each other (paraphrase without the letter
'u', in six paragraphs whose first, third and fifth hold exactly 14, 17 and 18 words, mention
'anchor' before 'harbor' and 'cobblestone' exactly three times), and every count is checked
exactly.

Scoring needs only the record: the instructions and their parameters are its ``instructions``
field. The reply is checked as written (a closed <think> block is dropped and a reply wholly
wrapped in <solution> tags is unwrapped); the score is (all instructions followed + fraction
followed) / 2, as LiveBench scores its IFEval-style questions, so one broken instruction out of
three scores 1/3.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any, ClassVar

from ladderbench.grading.extract import extract_reply_text
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Category, Question, Sources, Task
from ladderbench.live.registry import register
from ladderbench.live.tasks._corpus import fresh_passages
from ladderbench.live.tasks._instructions import (
    KINDS,
    V1_KINDS,
    DrawContext,
    Instruction,
    check,
    compatible,
    compose,
    describe,
    draw_params,
)

PROMPT_TEMPLATE = """\
{request}

Passage:
\"\"\"
{passage}
\"\"\"

Follow every one of these instructions:
{instructions}

Your reply is checked exactly as written against each instruction, so reply with the response \
itself only: no <solution> tags and no notes about the instructions. Counts of words, \
sentences and paragraphs apply to your whole reply."""


@dataclass(frozen=True)
class SubtaskSpec:
    """One kind of rewriting: its request lines and the count limits that suit it.

    Word limits are (relation, low, high) with low and high as fractions of the passage's word
    count (``absolute_words`` makes them plain numbers); sentence limits are plain numbers.
    """

    requests: tuple[str, ...]
    word_limits: tuple[tuple[str, float, float], ...]
    sentence_limits: tuple[tuple[str, int, int], ...]
    absolute_words: bool = False


SUBTASKS: dict[str, SubtaskSpec] = {
    "paraphrase": SubtaskSpec(
        requests=(
            "Paraphrase the passage below in your own words without changing its meaning.",
            "Restate the passage below in your own words and keep every fact it gives.",
        ),
        word_limits=(("at least", 0.7, 0.9), ("at most", 1.1, 1.4)),
        sentence_limits=(("at least", 4, 7), ("at most", 6, 10)),
    ),
    "simplify": SubtaskSpec(
        requests=(
            "Rewrite the passage below in simple language that a ten-year-old could follow.",
            "Simplify the passage below so that a young reader can understand it.",
        ),
        word_limits=(("at least", 0.5, 0.7), ("at most", 0.8, 1.1)),
        sentence_limits=(("at least", 5, 9), ("at most", 6, 12)),
    ),
    "summarise": SubtaskSpec(
        requests=(
            "Summarise the passage below for a busy reader.",
            "Write a short summary of the passage below that keeps only its main points.",
        ),
        word_limits=(("at most", 0.3, 0.5),),
        sentence_limits=(("at most", 2, 5),),
    ),
    "story": SubtaskSpec(
        requests=(
            "Write a short story inspired by the passage below.",
            "Write an original short story that borrows the setting or mood of the passage below.",
        ),
        word_limits=(("at least", 120, 220), ("at most", 250, 350)),
        sentence_limits=(("at least", 8, 14), ("at most", 12, 20)),
        absolute_words=True,
    ),
}


@dataclass(frozen=True)
class InstructionFollowingConfig:
    """How many instructions a question carries (drawn with these weights), the kinds they are
    drawn from, the smallest word limit, and how many draws to try before giving up."""

    instruction_counts: tuple[int, ...] = (1, 2, 3)
    count_weights: tuple[int, ...] = (1, 2, 2)
    min_word_limit: int = 20
    max_attempts: int = 200
    kinds: tuple[str, ...] = V1_KINDS
    required: tuple[str, ...] = ()  # kinds every question carries (the rest drawn at random)


CONFIG = InstructionFollowingConfig()


def difficulty_config(d: int) -> InstructionFollowingConfig:
    """Difficulty ``d``: 0 is version 1 (one to three instructions of the eighteen first kinds).

    From 1 on a question carries 3 + d instructions at once, drawn from every kind (exact word
    counts per paragraph, words required in an order or a number of times may come several
    times), always with a forbidden common letter; from d=2 on, exact word counts for
    min(3, d // 2) paragraphs of a fixed number (4 to 6) of paragraphs too. Limits on the whole
    reply are then lower limits only.
    """
    if d < 0:
        raise ValueError(f"difficulty must be 0 or more, got {d}")
    if d == 0:
        return CONFIG
    exact = min(3, d // 2)
    required = ("forbidden_letter",) + (("paragraph_count",) if exact else ())
    return InstructionFollowingConfig(
        instruction_counts=(3 + d,),
        count_weights=(1,),
        max_attempts=400,
        kinds=tuple(k for k in KINDS if k != "paragraph_word_count"),  # only the required ones
        required=required + ("paragraph_word_count",) * exact,
    )


def _limits_for(
    limits: tuple[tuple[str, int, int], ...], difficulty: int
) -> tuple[tuple[str, int, int], ...]:
    """From difficulty 1 on only lower limits: a ceiling on the whole reply would clash with the
    exact paragraph counts and the many required words."""
    return limits if difficulty == 0 else tuple(lim for lim in limits if lim[0] == "at least")


def _word_limits(
    spec: SubtaskSpec, passage_words: int, cfg: InstructionFollowingConfig
) -> tuple[tuple[str, int, int], ...]:
    if spec.absolute_words:
        return tuple((rel, int(lo), int(hi)) for rel, lo, hi in spec.word_limits)
    return tuple(
        (
            rel,
            max(cfg.min_word_limit, round(lo * passage_words)),
            max(cfg.min_word_limit, round(hi * passage_words)),
        )
        for rel, lo, hi in spec.word_limits
    )


def draw_instructions(
    rng: random.Random, ctx: DrawContext, cfg: InstructionFollowingConfig = CONFIG
) -> list[Instruction]:
    """Compatible instructions in prompt order, redrawn until a response can meet them all."""
    for _ in range(cfg.max_attempts):
        count = rng.choices(cfg.instruction_counts, weights=cfg.count_weights)[0]
        kinds: list[str] = list(cfg.required)
        for _ in range(count - len(kinds)):
            options = [k for k in cfg.kinds if ctx.available(k) and compatible(k, kinds)]
            if not options:
                break
            kinds.append(rng.choice(options))
        if cfg.required:
            rng.shuffle(kinds)  # the required kinds anywhere in the list
        try:
            instructions = _draw_all(rng, ctx, kinds)
            compose(instructions)
        except ValueError:
            continue
        return instructions
    raise RuntimeError(f"no satisfiable instruction set in {cfg.max_attempts} draws")


def _draw_all(rng: random.Random, ctx: DrawContext, kinds: list[str]) -> list[Instruction]:
    """Parameters for ``kinds`` (drawn in ``KINDS`` order: paragraph_count before the first
    word, the forbidden letter last), returned in the order of ``kinds``."""
    drawn: dict[str, Instruction] = {}
    by_kind: dict[str, list[Instruction]] = {}
    for kind in KINDS:
        for i in range(kinds.count(kind)):
            found = draw_params(kind, rng, ctx, drawn)
            drawn[kind if i == 0 else f"{kind}#{i}"] = found
            by_kind.setdefault(kind, []).append(found)
    return [by_kind[kind].pop(0) for kind in kinds]


# Where two instructions meet, what the checkers accept (said from d = 1 on; frontier readers
# took these pairs for contradictions).
MEETINGS: tuple[tuple[str, str, str], ...] = (
    (
        "lowercase",
        "paragraph_first_word",
        "A required first word is written in lowercase like everything else.",
    ),
    (
        "quotation",
        "end_phrase",
        "The closing quotation mark comes right after the final phrase.",
    ),
)


def meeting_notes(instructions: list[Instruction]) -> list[str]:
    """Notes for the pairs of ``MEETINGS`` that these instructions hold."""
    kinds = {p["kind"] for p in instructions}
    return [note for a, b, note in MEETINGS if a in kinds and b in kinds]


def instructions_of(record: dict[str, Any]) -> list[Instruction]:
    """The record's instructions: its ``instructions`` field, else its JSON ground truth."""
    found = record.get("instructions")
    if found is None:
        found = json.loads(record["ground_truth"])
    if not isinstance(found, list) or not all(isinstance(p, dict) for p in found):
        raise ValueError("instructions must be a list of objects")
    return found


def followed(record: dict[str, Any], response: str) -> list[bool]:
    """For each instruction, whether the reply follows it (all False for no usable reply)."""
    instructions = instructions_of(record)
    text = extract_reply_text(response)
    if not text:
        return [False] * len(instructions)
    return [check(p, text) for p in instructions]


@register
class InstructionFollowing(Task):
    name: ClassVar[str] = "instruction_following"
    category: ClassVar[Category] = "instruction_following"
    uses_sources: ClassVar[bool] = True

    def __init__(self, config: InstructionFollowingConfig = CONFIG) -> None:
        self.config = config

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        config = self.config if difficulty == 0 else difficulty_config(difficulty)
        pool = fresh_passages(sources, self.name)
        subtask = rng.choice(sorted(SUBTASKS))
        spec = SUBTASKS[subtask]
        passage = rng.choice(pool)
        request = rng.choice(spec.requests)
        ctx = DrawContext(
            request=request,
            passage=passage,
            word_limits=_limits_for(_word_limits(spec, len(passage.split()), config), difficulty),
            sentence_limits=_limits_for(spec.sentence_limits, difficulty),
            level=difficulty,
        )
        instructions = draw_instructions(rng, ctx, config)
        listed = "\n".join(f"{i}. {describe(p)}" for i, p in enumerate(instructions, 1))
        if difficulty > 0:
            listed += "".join(f"\nNote: {note}" for note in meeting_notes(instructions))
        prompt = PROMPT_TEMPLATE.format(request=request, passage=passage, instructions=listed)
        return Question(
            prompt=prompt,
            ground_truth=json.dumps(instructions, ensure_ascii=False, sort_keys=True),
            subtask=subtask,
            fields={"instructions": instructions},
            material=(passage,),
        )

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        text = extract_reply_text(response) or None
        try:
            results = followed(record, response)
        except (KeyError, TypeError, ValueError):  # a malformed record
            return verdict(text, 0.0)
        if not results:
            return verdict(text, 0.0)
        return verdict(text, (float(all(results)) + sum(results) / len(results)) / 2)

    def reference(self, record: dict[str, Any]) -> str:
        return compose(instructions_of(record))
