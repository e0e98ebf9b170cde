"""Web of lies: decide who tells the truth from a web of accusations, facts and red herrings.

Every person always tells the truth or always lies. Each is at a different place, and sentences
refer to people either by name or by place ("the person at the library"), so the reader must
first resolve who is who. A few people are fixed by plain facts; the others are linked by what
they say about each other (on the harder subtasks also compound claims about two people, such as
"at least one of them lies"). Red herrings (what people think, hear or see) carry no information,
and one group of people may be linked only among themselves, with no fact to anchor them, so
their status cannot be determined.

Why it is hard: longer chains than BIG-Bench Hard's web of lies, an indirection through places,
compound claims whose falsehood must be negated correctly, distractor sentences phrased like
statements, and questions whose honest answer is "unknown".

Ground truth: every one of the 2^n truth assignments is checked against the facts and
statements; a question's answer is yes or no when all consistent assignments agree, else
unknown. Scoring: the fraction of the three questions answered correctly.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from typing import Any

from ladderbench.grading.extract import extract_answer, normalise_text
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register

NAMES: tuple[str, ...] = (
    "Amara", "Bilal", "Chloe", "Dario", "Esther", "Felix", "Ingrid", "Jonas", "Kenji", "Leila",
    "Mateo", "Nadia", "Olga", "Priya", "Rafael", "Sanjay", "Tomas", "Vera", "Wanda", "Yusuf",
)  # fmt: skip
LOCATIONS: tuple[str, ...] = (
    "library", "park", "cafe", "museum", "train station", "bakery", "city hall", "harbour",
    "bowling alley", "cinema", "observatory", "farm", "gym", "zoo", "airport", "art gallery",
    "beach", "hospital", "school", "vineyard",
)  # fmt: skip

# Claim kinds: (kind, arity). A claim and its negation are drawn as a pair so a truth-teller can
# always be given the true one and a liar the false one.
SIMPLE = "simple"  # X tells the truth / X lies
BOTH = "both"  # both X and Y tell the truth / at least one of X and Y lies
NEITHER = "neither"  # both X and Y lie / at least one of X and Y tells the truth
SAME = "same"  # X and Y either both tell the truth or both lie / exactly one of X and Y ...

HERRINGS: tuple[str, ...] = (
    "{P} saw a firetruck.",
    "{P} thinks their friend is lying.",
    "{P} thinks {Q} tells the truth.",
    "{P} heard that {Q} lies.",
    "{P} is wearing a green hat.",
    "{P} thinks {Q} lies.",
)


@dataclass(frozen=True)
class WebConfig:
    """Difficulty: how many people, how many claims are compound, anchors, herrings, unknowns."""

    name: str
    min_people: int
    max_people: int
    compound_share: float  # share of linking claims about two people
    extra_statements: tuple[int, int]  # redundant statements beyond the spanning links
    herrings: tuple[int, int]
    unknown_group_chance: float  # chance of a group with no fact to anchor it
    questions: int = 3


CONFIGS: tuple[WebConfig, ...] = (
    WebConfig("chain", 5, 6, 0.0, (0, 1), (1, 2), 0.5),
    WebConfig("web", 6, 7, 0.3, (1, 2), (2, 3), 0.6),
    WebConfig("tangle", 7, 8, 0.5, (1, 3), (2, 4), 0.7),
)

PROMPT_TEMPLATE = """\
In this puzzle, every person either always tells the truth or always lies. There are {n} \
people, each at a different place.

Rules:
- Everything a truth-teller says is true; everything a liar says is false. A statement about two \
people is true or false as a whole.
- A sentence that no one says (such as "Quentin is at the lighthouse." or "The person at the \
lighthouse lies.") is a fact, and facts are true.
- Only what people say counts. What someone thinks, hears, sees or wears is not a statement and \
tells you nothing about anyone.
- If the facts and statements allow a person to be either a truth-teller or a liar, the answer \
for that person is unknown.

{story}

Questions:
{questions}

Answer each question with yes, no or unknown, in order, separated by commas, for example: \
<solution>answer1, answer2, answer3</solution>
Put your final answer inside <solution></solution> tags."""


@dataclass(frozen=True)
class Claim:
    """What a speaker says: ``kind`` over ``targets``; ``positive`` picks the form (see above)."""

    kind: str
    targets: tuple[int, ...]
    positive: bool


def claim_true(claim: Claim, truth: tuple[bool, ...]) -> bool:
    """Whether the claim holds when ``truth[i]`` says person i tells the truth."""
    values = [truth[t] for t in claim.targets]
    if claim.kind == SIMPLE:
        holds = values[0]
    elif claim.kind == BOTH:
        holds = values[0] and values[1]
    elif claim.kind == NEITHER:
        holds = not values[0] and not values[1]
    elif claim.kind == SAME:
        holds = values[0] == values[1]
    else:
        raise ValueError(f"unknown claim kind {claim.kind!r}")
    return holds if claim.positive else not holds


def consistent(
    n: int, facts: dict[int, bool], statements: list[tuple[int, Claim]]
) -> list[tuple[bool, ...]]:
    """Every truth assignment that meets the facts and makes each speaker honest iff right."""
    return [
        truth
        for truth in itertools.product((True, False), repeat=n)
        if all(truth[p] == v for p, v in facts.items())
        and all(truth[s] == claim_true(c, truth) for s, c in statements)
    ]


def statuses(n: int, facts: dict[int, bool], statements: list[tuple[int, Claim]]) -> list[str]:
    """yes / no / unknown for each person."""
    sols = consistent(n, facts, statements)
    if not sols:
        raise ValueError("inconsistent web of lies")
    out = []
    for p in range(n):
        seen = {t[p] for t in sols}
        out.append("unknown" if len(seen) == 2 else "yes" if seen == {True} else "no")
    return out


def _claim_text(claim: Claim, ref: list[str]) -> str:
    x = ref[claim.targets[0]]
    y = ref[claim.targets[1]] if len(claim.targets) > 1 else ""
    if claim.kind == SIMPLE:
        return f"{x} tells the truth" if claim.positive else f"{x} lies"
    if claim.kind == BOTH:
        if claim.positive:
            return f"both {x} and {y} tell the truth"
        return f"at least one of {x} and {y} lies"
    if claim.kind == NEITHER:
        if claim.positive:
            return f"both {x} and {y} lie"
        return f"at least one of {x} and {y} tells the truth"
    if claim.kind == SAME:
        if claim.positive:
            return f"{x} and {y} either both tell the truth or both lie"
        return f"exactly one of {x} and {y} tells the truth"
    raise ValueError(f"unknown claim kind {claim.kind!r}")


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _make_claim(
    kind: str, targets: tuple[int, ...], speaker_truth: bool, truth: tuple[bool, ...]
) -> Claim:
    """The form of ``kind`` about ``targets`` that the speaker would say."""
    positive = Claim(kind, targets, True)
    return positive if claim_true(positive, truth) == speaker_truth else Claim(kind, targets, False)


def _build(rng: random.Random, cfg: WebConfig):
    """(n, facts, statements, herrings as (template, P, Q)); people are 0..n-1."""
    n = rng.randint(cfg.min_people, cfg.max_people)
    truth = tuple(rng.random() < 0.5 for _ in range(n))
    people = list(range(n))
    rng.shuffle(people)
    loose: list[int] = []
    if rng.random() < cfg.unknown_group_chance:
        size = rng.choice((2, 2, 3))
        loose, people = people[:size], people[size:]
    facts: dict[int, bool] = {}
    statements: list[tuple[int, Claim]] = []
    anchors = people[: rng.choice((1, 1, 2))]
    for a in anchors:
        facts[a] = truth[a]
    # Link every anchored person to someone placed before them (a chain or a tree).
    placed = list(anchors)
    for p in people[len(anchors) :]:
        other = rng.choice(placed[-2:]) if rng.random() < 0.7 else rng.choice(placed)
        compound = len(placed) >= 2 and rng.random() < cfg.compound_share
        if compound:
            third = rng.choice([q for q in placed if q != other])
            kind = rng.choice((BOTH, NEITHER, SAME))
            targets = (other, third) if rng.random() < 0.5 else (third, other)
            statements.append((p, _make_claim(kind, targets, truth[p], truth)))
        elif rng.random() < 0.75:  # the newcomer speaks about someone placed
            statements.append((p, _make_claim(SIMPLE, (other,), truth[p], truth)))
        else:  # someone placed speaks about the newcomer
            statements.append((other, _make_claim(SIMPLE, (p,), truth[other], truth)))
        placed.append(p)
    # The loose group: a chain of simple claims with no fact behind it.
    for i in range(1, len(loose)):
        speaker, target = loose[i], loose[i - 1]
        if rng.random() < 0.3:
            speaker, target = target, speaker
        statements.append((speaker, _make_claim(SIMPLE, (target,), truth[speaker], truth)))
    # Extra statements inside the anchored group (never touching the loose group).
    for _ in range(rng.randint(*cfg.extra_statements)):
        if len(placed) < 3:
            break
        speaker, a, b = rng.sample(placed, 3)
        if rng.random() < cfg.compound_share:
            kind = rng.choice((BOTH, NEITHER, SAME))
            statements.append((speaker, _make_claim(kind, (a, b), truth[speaker], truth)))
        else:
            statements.append((speaker, _make_claim(SIMPLE, (a,), truth[speaker], truth)))
    herrings = []
    for _ in range(rng.randint(*cfg.herrings)):
        p, q = rng.sample(range(n), 2)
        herrings.append((rng.choice(HERRINGS), p, q))
    return n, facts, statements, herrings


def _pick_questions(rng: random.Random, answers: list[str], facts: dict[int, bool], k: int):
    """k people to ask about: never a person fixed by a fact, and a mix of answers if possible."""
    pool = [p for p in range(len(answers)) if p not in facts]
    rng.shuffle(pool)
    unknown = [p for p in pool if answers[p] == "unknown"]
    known = [p for p in pool if answers[p] != "unknown"]
    chosen: list[int] = []
    if unknown and rng.random() < 0.8:
        chosen.append(unknown[0])
    for p in known + unknown:
        if len(chosen) < k and p not in chosen:
            chosen.append(p)
    rng.shuffle(chosen)
    return chosen


# ---------------------------------------------------------------- reading answers

_UNKNOWN_PHRASES = re.compile(
    r"\b(?:cannot|can ?not|can't|can't) be (?:determined|known|told|decided)\b"
    r"|\b(?:cannot|can ?not|can't) (?:tell|determine|know|say)\b"
    r"|\bnot (?:determinable|determined|known|decidable)\b"
    r"|\b(?:undetermined|undeterminable|indeterminate|unknowable|undecidable|uncertain|unclear)\b"
    r"|\b(?:insufficient|not enough) (?:information|info)\b"
    r"|\bunknown\b|\bunsure\b"
)
_PRIMARY = re.compile(r"\b(?:yes|no|unknown)\b")
_SECONDARY = re.compile(
    r"\b(?:yes|no|unknown|true|false|truthful|truth-?teller|tells the truth|liar|lies|lying)\b"
)
_YES = {"yes", "true", "truthful", "truth-teller", "truthteller", "tells the truth"}


def read_answers(text: str, k: int) -> list[str | None]:
    """The yes / no / unknown answers in order (None for missing ones); all None if too many."""
    text = "\n".join(normalise_text(line) for line in text.splitlines())
    text = text.replace("’", "'")
    text = _UNKNOWN_PHRASES.sub(" unknown ", text)
    words = _PRIMARY.findall(text)
    if len(words) != k:
        mixed = _SECONDARY.findall(text)
        if len(mixed) == k:
            words = [
                w if w in ("yes", "no", "unknown") else "yes" if w in _YES else "no" for w in mixed
            ]
    if len(words) > k:
        return [None] * k
    return [*words, *([None] * (k - len(words)))]


@register
class WebOfLies(Task):
    name = "web_of_lies"
    category = "reasoning"

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        cfg = rng.choice(CONFIGS)
        n, facts, statements, herrings = _build(rng, cfg)
        answers = statuses(n, facts, statements)
        names = rng.sample(NAMES, n)
        places = rng.sample(LOCATIONS, n)
        at = [f"the person at the {place}" for place in places]

        def ref() -> list[str]:
            """Each mention draws name or place afresh."""
            return [names[i] if rng.random() < 0.5 else at[i] for i in range(n)]

        sentences: list[str] = [f"{names[i]} is at the {places[i]}." for i in range(n)]
        for p, value in facts.items():
            sentences.append(f"{_cap(ref()[p])} {'tells the truth' if value else 'lies'}.")
        for speaker, claim in statements:
            r = ref()
            sentences.append(f"{_cap(r[speaker])} says {_claim_text(claim, r)}.")
        for template, p, q in herrings:
            r = ref()
            sentences.append(_cap(template.format(P=r[p], Q=r[q])))
        rng.shuffle(sentences)
        asked = _pick_questions(rng, answers, facts, cfg.questions)
        questions = "\n".join(f"{k}. Does {at[p]} tell the truth?" for k, p in enumerate(asked, 1))
        prompt = PROMPT_TEMPLATE.format(n=n, story=" ".join(sentences), questions=questions)
        return Question(
            prompt=prompt,
            ground_truth=", ".join(answers[p] for p in asked),
            subtask=cfg.name,
            fields={
                "people": n,
                "asked": [places[p] for p in asked],
            },
        )

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        """The fraction of questions answered correctly (yes / no / unknown, in order)."""
        extracted = extract_answer(response)
        if not extracted:
            return verdict(extracted, 0.0)
        try:
            truth = [t.strip() for t in str(record["ground_truth"]).split(",")]
        except (AttributeError, KeyError, TypeError):
            return verdict(extracted, 0.0)  # a malformed record
        got = read_answers(extracted, len(truth))
        return verdict(extracted, sum(g == t for g, t in zip(got, truth)) / len(truth))
