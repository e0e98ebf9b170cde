"""Knights and knaves: decide who always tells the truth from what everyone says.

Every inhabitant is a knight (all their statements are true) or a knave (all false), and each
makes one statement about the others. Statements are drawn at random until exactly one
knight/knave assignment is consistent with all of them.

Why the tiers get harder: each extra person doubles the assignments to rule out and lengthens
the chain of case analysis; higher tiers also add statement kinds whose truth depends on several
people at once (counts over everyone, "exactly one of", implications), so fewer statements can
be resolved in isolation and the reasoner has to keep several hypotheses open at once.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register

# Sorted, single-word, distinct names: the instance's people are a sorted sample, so the order of
# introduction is alphabetical and `normalise` can rebuild it without seeing the puzzle.
NAMES: tuple[str, ...] = (
    "Alice", "Bella", "Boris", "Carl", "Diana", "Edgar", "Fiona", "Gavin", "Hazel", "Ivan",
    "Julia", "Kevin", "Laura", "Milo", "Nora", "Oscar", "Paula", "Quinn", "Rosa", "Simon",
    "Tessa", "Uma", "Victor", "Wendy", "Xena", "Yuri", "Zara",
)  # fmt: skip

NUMBER_WORDS: tuple[str, ...] = ("zero", "one", "two", "three", "four", "five", "six")

# Statement kinds. Each is rendered by a fixed phrase (see `_render`) that the tests parse back.
BASIC_KINDS: tuple[str, ...] = (
    "is_knight",  # X is a knight.
    "is_knave",  # X is a knave.
    "both_knights",  # X and Y are both knights.
    "both_knaves",  # X and Y are both knaves.
    "some_knave",  # At least one of X and Y is a knave.
    "same",  # X and I are the same kind.
    "different",  # X and I are different kinds.
    "count_knights",  # Exactly k of us are knights.
)
EXTRA_KINDS: tuple[str, ...] = (
    "some_knight",  # At least one of X and Y is a knight.
    "exactly_one",  # Exactly one of X and Y is a knight.
    "implies",  # If X is a knight, then Y is a knight.
    "count_knaves",  # Exactly k of us are knaves.
)

PROMPT_TEMPLATE = """\
On an island, every inhabitant is either a knight or a knave. Knights always tell the truth; \
knaves always lie. You meet {count} inhabitants: {names}. Each of them makes one statement \
("us" means all {count} of them, the speaker included):

{statements}

Exactly one assignment of knight or knave to each inhabitant is consistent with all the \
statements. Determine who is a knight and who is a knave.

Give your answer as comma-separated Name=role pairs, one for every inhabitant, in the order they \
were introduced above, where role is knight or knave. Put the final answer inside \
<answer></answer> tags, for example: <answer>Anna=knight,Ben=knave,Cleo=knave</answer>"""


@dataclass(frozen=True)
class KnightsKnavesConfig:
    """Difficulty: how many people, and which statement kinds may appear."""

    people: int
    kinds: tuple[str, ...]
    max_attempts: int = 2000


TIERS: dict[int, KnightsKnavesConfig] = {
    3: KnightsKnavesConfig(people=3, kinds=BASIC_KINDS),
    4: KnightsKnavesConfig(people=4, kinds=BASIC_KINDS + EXTRA_KINDS),
    5: KnightsKnavesConfig(people=5, kinds=BASIC_KINDS + EXTRA_KINDS),
}


@dataclass(frozen=True)
class Statement:
    """One statement: who says it, its kind, the people it names (indices) and a count."""

    speaker: int
    kind: str
    targets: tuple[int, ...] = ()
    k: int = 0


def _truth(st: Statement, roles: Sequence[bool]) -> bool:
    """Whether the statement is true when ``roles[i]`` says person i is a knight."""
    kind = st.kind
    if kind == "count_knights":
        return sum(roles) == st.k
    if kind == "count_knaves":
        return len(roles) - sum(roles) == st.k
    x = roles[st.targets[0]]
    if kind == "is_knight":
        return x
    if kind == "is_knave":
        return not x
    if kind == "same":
        return x == roles[st.speaker]
    if kind == "different":
        return x != roles[st.speaker]
    y = roles[st.targets[1]]
    if kind == "both_knights":
        return x and y
    if kind == "both_knaves":
        return not x and not y
    if kind == "some_knave":
        return not x or not y
    if kind == "some_knight":
        return x or y
    if kind == "exactly_one":
        return x != y
    if kind == "implies":
        return not x or y
    raise ValueError(f"unknown statement kind {kind!r}")


def _consistent(statements: Sequence[Statement], people: int) -> list[tuple[bool, ...]]:
    """Every assignment (True = knight) where each speaker is a knight iff they speak truly."""
    return [
        roles
        for roles in itertools.product((True, False), repeat=people)
        if all(roles[s.speaker] == _truth(s, roles) for s in statements)
    ]


def _render(st: Statement, names: Sequence[str]) -> str:
    """The fixed English phrase for a statement (the tests parse these patterns back)."""
    x = names[st.targets[0]] if st.targets else ""
    y = names[st.targets[1]] if len(st.targets) > 1 else ""
    k = NUMBER_WORDS[st.k]
    phrases = {
        "is_knight": f"{x} is a knight.",
        "is_knave": f"{x} is a knave.",
        "both_knights": f"{x} and {y} are both knights.",
        "both_knaves": f"{x} and {y} are both knaves.",
        "some_knave": f"At least one of {x} and {y} is a knave.",
        "some_knight": f"At least one of {x} and {y} is a knight.",
        "exactly_one": f"Exactly one of {x} and {y} is a knight.",
        "implies": f"If {x} is a knight, then {y} is a knight.",
        "same": f"{x} and I are the same kind.",
        "different": f"{x} and I are different kinds.",
        "count_knights": f"Exactly {k} of us {'is a knight' if st.k == 1 else 'are knights'}.",
        "count_knaves": f"Exactly {k} of us {'is a knave' if st.k == 1 else 'are knaves'}.",
    }
    return f'{names[st.speaker]} says: "{phrases[st.kind]}"'


def _draw_statement(
    rng: random.Random, speaker: int, people: int, kinds: Sequence[str]
) -> Statement:
    kind = rng.choice(kinds)
    others = [i for i in range(people) if i != speaker]
    if kind in ("count_knights", "count_knaves"):
        return Statement(speaker, kind, (), rng.randint(1, people - 1))
    if kind in ("is_knight", "is_knave", "same", "different"):
        return Statement(speaker, kind, (rng.choice(others),))
    x, y = rng.sample(others, 2)
    if kind != "implies":
        x, y = min(x, y), max(x, y)  # symmetric statements name people in introduction order
    return Statement(speaker, kind, (x, y))


@register
class KnightsKnaves(Family):
    name = "knights_knaves"
    tiers = TIERS

    def generate(self, rng: random.Random, cfg: KnightsKnavesConfig) -> Puzzle:
        names = sorted(rng.sample(NAMES, cfg.people))
        for _ in range(cfg.max_attempts):
            statements = [
                _draw_statement(rng, speaker, cfg.people, cfg.kinds)
                for speaker in range(cfg.people)
            ]
            solutions = _consistent(statements, cfg.people)
            if len(solutions) == 1:
                break
        else:  # pragma: no cover - uniqueness is found within a handful of draws
            raise ValueError("knights_knaves: no unique puzzle found; raise max_attempts")
        prompt = PROMPT_TEMPLATE.format(
            count=NUMBER_WORDS[cfg.people],
            names=", ".join(names[:-1]) + " and " + names[-1],
            statements="\n".join(_render(st, names) for st in statements),
        )
        answer = ",".join(
            f"{name}={'knight' if knight else 'knave'}" for name, knight in zip(names, solutions[0])
        )
        return Puzzle(prompt=prompt, answer=answer)

    def normalise(self, text: str) -> str | None:
        """Read "Name=role" pairs in any common rendering; every person exactly once.

        Accepts ``=``, ``:``, ``-``, ``is a`` between name and role, commas, semicolons, "and"
        or new lines between pairs, bullets, markdown emphasis, any order and any case.
        Canonical order is alphabetical, which is the order of introduction.
        """
        cleaned = re.sub(r"[*_`\"']", " ", text)
        found: dict[str, str] = {}
        for part in _SEPARATOR.split(cleaned):
            if not part.strip(" \t.!-•"):
                continue
            match = _PAIR.fullmatch(part)
            if match is None:
                return None
            name = match.group("name").capitalize()
            if name in found:
                return None
            found[name] = match.group("role").lower()
        if not found:
            return None
        return ",".join(f"{name}={found[name]}" for name in sorted(found))


_SEPARATOR = re.compile(r"[,;\n]|\band\b", re.IGNORECASE)
_PAIR = re.compile(
    r"\s*(?:[-•>]\s*|\d+[.)]\s*)?(?P<name>[A-Za-z]+)\s*"
    r"(?:=|:|->|→|-|–|—|\bis\s+an?\b|\bis\b|\s)\s*(?:an?\s+)?"
    r"(?P<role>knight|knave)\s*[.!]?\s*",
    re.IGNORECASE,
)
