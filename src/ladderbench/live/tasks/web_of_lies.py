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

Open-ended difficulty (``difficulty_config(d)``): d = 0 is the v1 mix of the three subtasks (5-8
people, 3 questions). Every step up adds two people (d = 1: 12-13, d = 9: 28-29, d = 20: 50-51, at
most the 60 names from d = 25 on), all hanging from a single fact in one long chain, so the asked
people sit many inferences away from it; from d = 3 "knots" (a share of 0.1 a step, up to 0.5): two
newcomers who speak about each other, each together with someone already placed, so neither follows
from one statement and the reader must suppose a value and test it (kept only when the solver finds
both determined); a larger share of compound claims (0.45 at d = 1, up to 0.85); one more redundant
statement every two steps and one more red herring every three; one more unanchored group every
four steps (each must be recognised as undetermined); and one more question every two steps (d = 2:
4, d = 8: 7, d = 12: 9), the known ones drawn from the people farthest from the fact. Questions at
d >= 1 record ``chain_depth`` (the most links between the fact and an asked person), ``knots``,
``search_space_log10`` (log10 of the 2^n truth assignments) and ``search_nodes`` (the backtracking
solver's nodes over all the yes / no / unknown checks).

Ground truth: a person's answer is yes or no when every truth assignment consistent with the
facts and statements agrees, else unknown. At d = 0 all 2^n assignments are enumerated; at d >= 1
a backtracking search asks, for each person, whether each value is part of a consistent whole.
Scoring, as LiveBench's web_of_lies: all or nothing, 1 only when every answer is right.
"""

from __future__ import annotations

import itertools
import math
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

# More people and places for d >= 1 (d = 0 draws from the two lists above only).
MORE_NAMES: tuple[str, ...] = (
    "Aiko", "Boris", "Celia", "Dmitri", "Elif", "Fatima", "Gustav", "Hana", "Ivan", "Jamal",
    "Kira", "Lorenzo", "Malik", "Noor", "Oscar", "Petra", "Quinn", "Rosa", "Stefan", "Tariq",
    "Uma", "Viktor", "Xenia", "Yara", "Zoltan", "Astrid", "Bruno", "Carmen", "Diego", "Emeka",
    "Freya", "Goran", "Helga", "Imran", "Jorge", "Katya", "Lars", "Mira", "Nils", "Omar",
)  # fmt: skip
MORE_LOCATIONS: tuple[str, ...] = (
    "aquarium", "bookshop", "brewery", "castle", "chapel", "circus", "dock", "factory",
    "ferry terminal", "fire station", "garden centre", "greenhouse", "lighthouse", "market",
    "mill", "opera house", "orchard", "pharmacy", "planetarium", "post office", "quarry",
    "racetrack", "skating rink", "stadium", "swimming pool", "theatre", "town square", "university",
    "warehouse", "workshop", "bank", "barbershop", "bus depot", "campsite", "courthouse",
    "dairy", "embassy", "forge", "hotel", "laundromat",
)  # fmt: skip
ALL_NAMES = NAMES + MORE_NAMES
ALL_LOCATIONS = LOCATIONS + MORE_LOCATIONS

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
    loose_groups: int = 0  # d >= 1: how many groups have no fact to anchor them
    knot_share: float = 0.0  # d >= 1: chance the next two people form a knot (see _knot)
    chain_bias: float = 0.7  # chance a newcomer links to one of the last two placed


def difficulty_config(d: int) -> WebConfig:
    """The config at difficulty ``d`` >= 1 (d = 0 draws one of ``CONFIGS``): see the docstring."""
    if d < 1:
        raise ValueError(f"web_of_lies difficulty(d) takes d >= 1, got {d}")
    most = min(len(ALL_NAMES), len(ALL_LOCATIONS))
    return WebConfig(
        "tangle",
        min_people=min(most - 1, 10 + 2 * d),
        max_people=min(most, 11 + 2 * d),
        compound_share=min(0.85, 0.4 + 0.05 * d),
        extra_statements=(1 + d // 2, 2 + d // 2),
        herrings=(2 + d // 3, 4 + d // 3),
        unknown_group_chance=1.0,
        questions=3 + d // 2,
        loose_groups=1 + d // 4,
        chain_bias=0.9,
        knot_share=min(0.5, 0.1 * max(0, d - 2)),
    )


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
<solution>{example}</solution>
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


ENUMERATE_UP_TO = 16  # people; beyond this, statuses searches instead of enumerating


def statuses(
    n: int,
    facts: dict[int, bool],
    statements: list[tuple[int, Claim]],
    effort: list[int] | None = None,
) -> list[str]:
    """yes / no / unknown for each person (``effort`` gets the search nodes appended)."""
    if n > ENUMERATE_UP_TO:
        return _searched_statuses(n, facts, statements, effort)
    sols = consistent(n, facts, statements)
    if not sols:
        raise ValueError("inconsistent web of lies")
    if effort is not None:
        effort.append(2**n)
    out = []
    for p in range(n):
        seen = {t[p] for t in sols}
        out.append("unknown" if len(seen) == 2 else "yes" if seen == {True} else "no")
    return out


def _searched_statuses(
    n: int,
    facts: dict[int, bool],
    statements: list[tuple[int, Claim]],
    effort: list[int] | None,
) -> list[str]:
    """``statuses`` by backtracking: for each person, is each value part of a consistent whole?"""
    # Each statement is checked as soon as its last person (in index order) is assigned.
    due: list[list[tuple[int, Claim]]] = [[] for _ in range(n)]
    for speaker, claim in statements:
        due[max(speaker, *claim.targets)].append((speaker, claim))
    nodes = 0

    def extend(truth: list[bool], fixed: dict[int, bool]) -> bool:
        nonlocal nodes
        p = len(truth)
        if p == n:
            return True
        for value in (True, False):
            if fixed.get(p, value) != value:
                continue
            nodes += 1
            truth.append(value)
            t = tuple(truth) + (False,) * (n - p - 1)
            if all(t[s] == claim_true(c, t) for s, c in due[p]) and extend(truth, fixed):
                return True
            truth.pop()
        return False

    if not extend([], facts):
        raise ValueError("inconsistent web of lies")
    out = []
    for p in range(n):
        if p in facts:
            out.append("yes" if facts[p] else "no")
            continue
        can = [extend([], {**facts, p: value}) for value in (True, False)]
        out.append("unknown" if all(can) else "yes" if can[0] else "no")
    if effort is not None:
        effort.append(nodes)
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


def _build_deep(rng: random.Random, cfg: WebConfig):
    """``_build`` for d >= 1: (n, facts, statements, herrings, depth). People are numbered in
    the order they are placed: person 0 is the one fact, each later anchored person is linked
    to someone before them (mostly the one just placed, so the chain runs long), then come the
    unanchored groups; ``depth[p]`` is p's number of links from the fact (-1: unanchored)."""
    n = rng.randint(cfg.min_people, cfg.max_people)
    truth = tuple(rng.random() < 0.5 for _ in range(n))
    sizes = [rng.choice((2, 3, 3)) for _ in range(cfg.loose_groups)]
    anchored = n - sum(sizes)
    facts = {0: truth[0]}
    depth = [0] * anchored + [-1] * (n - anchored)
    statements: list[tuple[int, Claim]] = []
    knots = 0
    p = 1
    while p < anchored:
        if p >= 2 and p + 1 < anchored and rng.random() < cfg.knot_share:
            knot = _knot(rng, p, truth, facts, statements)
            if knot is not None:
                statements += knot
                depth[p] = depth[p + 1] = 1 + max(
                    depth[t] for _, c in knot for t in c.targets if t < p
                )
                knots += 1
                p += 2
                continue
        other = p - 1 if rng.random() < cfg.chain_bias else rng.randrange(p)
        if p >= 2 and rng.random() < cfg.compound_share:
            third = rng.choice([q for q in range(p) if q != other])
            kind = rng.choice((BOTH, NEITHER, SAME))
            targets = (other, third) if rng.random() < 0.5 else (third, other)
            statements.append((p, _make_claim(kind, targets, truth[p], truth)))
            depth[p] = max(depth[other], depth[third]) + 1
        else:
            if rng.random() < 0.75:
                statements.append((p, _make_claim(SIMPLE, (other,), truth[p], truth)))
            else:
                statements.append((other, _make_claim(SIMPLE, (p,), truth[other], truth)))
            depth[p] = depth[other] + 1
        p += 1
    start = anchored
    for size in sizes:  # each group: a chain of simple claims, no fact behind it
        for p in range(start + 1, start + size):
            speaker, target = (p, p - 1) if rng.random() < 0.7 else (p - 1, p)
            statements.append((speaker, _make_claim(SIMPLE, (target,), truth[speaker], truth)))
        start += size
    for _ in range(rng.randint(*cfg.extra_statements)):
        speaker, a, b = rng.sample(range(anchored), 3)
        if rng.random() < cfg.compound_share:
            kind = rng.choice((BOTH, NEITHER, SAME))
            statements.append((speaker, _make_claim(kind, (a, b), truth[speaker], truth)))
        else:
            statements.append((speaker, _make_claim(SIMPLE, (a,), truth[speaker], truth)))
    rng.shuffle(statements)
    herrings = []
    for _ in range(rng.randint(*cfg.herrings)):
        p, q = rng.sample(range(n), 2)
        herrings.append((rng.choice(HERRINGS), p, q))
    return n, facts, statements, herrings, depth, knots


def _knot(
    rng: random.Random,
    p: int,
    truth: tuple[bool, ...],
    facts: dict[int, bool],
    statements: list[tuple[int, Claim]],
) -> list[tuple[int, Claim]] | None:
    """Two newcomers p and p + 1 who speak about each other (each together with someone placed),
    so neither follows from one statement: the reader must suppose one value and test it.
    None when five draws leave either undetermined."""
    for _ in range(5):
        q = p - 1 if rng.random() < 0.9 else rng.randrange(p)  # keep the chain long
        r = rng.randrange(p)
        first = _make_claim(rng.choice((BOTH, NEITHER, SAME)), (p + 1, q), truth[p], truth)
        if rng.random() < 0.3:
            second = _make_claim(SIMPLE, (p,), truth[p + 1], truth)
        else:
            second = _make_claim(rng.choice((BOTH, NEITHER, SAME)), (r, p), truth[p + 1], truth)
        knot = [(p, first), (p + 1, second)]
        known = _searched_statuses(p + 2, facts, statements + knot, None)
        if "unknown" not in known[p:]:
            return knot
    return None


def _pick_deep_questions(
    rng: random.Random, answers: list[str], depth: list[int], k: int
) -> list[int]:
    """k people for d >= 1: a third of them (at least one) undetermined people from the
    unanchored groups, the rest the anchored people farthest from the fact."""
    loose = [p for p in range(len(depth)) if depth[p] < 0 and answers[p] == "unknown"]
    rng.shuffle(loose)
    chosen = loose[: max(1, k // 3)]
    known = [p for p in range(1, len(depth)) if depth[p] > 0]
    rng.shuffle(known)
    known.sort(key=lambda p: -depth[p])
    chosen += known[: k - len(chosen)]
    rng.shuffle(chosen)
    return chosen


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
        effort: list[int] = []
        if difficulty == 0:
            cfg = rng.choice(CONFIGS)
            n, facts, statements, herrings = _build(rng, cfg)
            answers = statuses(n, facts, statements)
        else:
            cfg = difficulty_config(difficulty)
            n, facts, statements, herrings, depth, knots = _build_deep(rng, cfg)
            answers = _searched_statuses(n, facts, statements, effort)
        names = rng.sample(NAMES if difficulty == 0 else ALL_NAMES, n)
        places = rng.sample(LOCATIONS if difficulty == 0 else ALL_LOCATIONS, n)
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
        if difficulty == 0:
            asked = _pick_questions(rng, answers, facts, cfg.questions)
        else:
            asked = _pick_deep_questions(rng, answers, depth, cfg.questions)
        questions = "\n".join(f"{k}. Does {at[p]} tell the truth?" for k, p in enumerate(asked, 1))
        example = ", ".join(f"answer{k}" for k in range(1, len(asked) + 1))
        prompt = PROMPT_TEMPLATE.format(
            n=n, story=" ".join(sentences), questions=questions, example=example
        )
        fields: dict[str, Any] = {"people": n, "asked": [places[p] for p in asked]}
        if difficulty:
            fields |= {
                "chain_depth": max(depth[p] for p in asked),
                "knots": knots,
                "search_space_log10": round(n * math.log10(2), 2),
                "search_nodes": effort[0],
            }
        return Question(
            prompt=prompt,
            ground_truth=", ".join(answers[p] for p in asked),
            subtask=cfg.name,
            fields=fields,
        )

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        """1 when every question is answered correctly (yes / no / unknown, in order), else 0:
        all or nothing, as LiveBench scores web of lies, so guessing earns only the chance of a
        fully right guess."""
        extracted = extract_answer(response)
        if not extracted:
            return verdict(extracted, 0.0)
        try:
            truth = [t.strip() for t in str(record["ground_truth"]).split(",")]
        except (AttributeError, KeyError, TypeError):
            return verdict(extracted, 0.0)  # a malformed record
        got = read_answers(extracted, len(truth))
        return verdict(extracted, float(got == truth))
