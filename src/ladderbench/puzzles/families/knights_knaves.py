"""Knights and knaves: decide who always tells the truth from what everyone says.

Every inhabitant is a knight (all their statements are true) or a knave (all false), and each
makes one statement about the others. Statements are drawn at random until exactly one
knight/knave assignment is consistent with all of them.

Why the tiers get harder: each extra person doubles the assignments to rule out and lengthens
the chain of case analysis; higher tiers also add statement kinds whose truth depends on several
people at once (counts over everyone, "exactly one of", implications), so fewer statements can
be resolved in isolation and the reasoner has to keep several hypotheses open at once.

Open-ended difficulty (suite v2, ``difficulty(d)``): statements become formulas. An atom is a
simple claim ("Bob is a knight", "Bob is lying", "I am a knave", "Bob is the same kind as me",
"exactly two of us are knights", "exactly one of Bob, Carl, Dana is a knight"); connectives
(and, or, if-then, if and only if, either-or-but-not-both, it-is-not-the-case-that) join atoms,
with parentheses for nesting. Each step of ``d`` adds one person (d=0: two people, simple claims;
d=8: ten people; capped at ``MAX_PEOPLE``), and every third step past d=4 adds one atom to
every statement (d=1-6: one or two atoms, d=7-9: two or three, ... d=20: six or seven), so the
case analysis gets both wider (more people) and deeper (each statement ties more of them
together). Uniqueness is checked over all 2^n assignments at once, as bit sets (one bit per
assignment), which keeps generation fast up to the people cap.
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

NUMBER_WORDS: tuple[str, ...] = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
)  # fmt: skip

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


# v2 atoms (see `_atom_phrase`); the first five make up d=0's simple statements.
SIMPLE_ATOMS: tuple[str, ...] = ("knight", "knave", "same", "different", "count_us")
SELF_ATOMS: tuple[str, ...] = ("self_knight", "self_knave")  # only inside compound statements
SPEAKER_ATOMS: tuple[str, ...] = ("truthful", "lying", "count_group")
MAX_PEOPLE = 16  # 2^16 assignments per uniqueness check; past this only statements grow

V2_PROMPT_TEMPLATE = """\
On an island, every inhabitant is either a knight or a knave. Knights always tell the truth; \
knaves always lie. You meet {count} inhabitants: {names}. Each of them makes one statement:

{statements}

How to read the statements: "us" means the {count} inhabitants, the speaker included; "I" and \
"me" mean the speaker. "X is telling the truth" means X's own statement is true, and "X is \
lying" means it is false. "A or B" means at least one of A and B (possibly both); "either A or \
B, but not both" means exactly one of them; "if A, then B" is false only when A is true and B \
is false; "A if and only if B" means A and B are both true or both false. Parentheses group \
the parts of a statement.

Exactly one assignment of knight or knave to each inhabitant is consistent with all the \
statements. Determine who is a knight and who is a knave.

Give your answer as comma-separated Name=role pairs, one for every inhabitant, in the order they \
were introduced above, where role is knight or knave. Put the final answer inside \
<answer></answer> tags, in this form with every ? replaced by knight or knave: \
<answer>{template}</answer>"""


@dataclass(frozen=True)
class KnightsKnavesConfig:
    """Difficulty: how many people, and which statement kinds may appear.

    v1 (``max_atoms == 0``): ``kinds`` are the one-phrase statements of ``BASIC_KINDS`` and
    ``EXTRA_KINDS``. v2 (``max_atoms >= 1``): ``kinds`` are atoms, every statement joins
    ``min_atoms..max_atoms`` distinct atoms with ``connectives``, and the prompt shows a
    placeholder answer (``<answer>Alice=?,...</answer>``) that is no answer.
    """

    people: int
    kinds: tuple[str, ...]
    max_attempts: int = 2000
    min_atoms: int = 0
    max_atoms: int = 0  # 0: v1 statements and prompt
    connectives: tuple[str, ...] = ()


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


# ---------------------------------------------------------------- v2: compound statements


@dataclass(frozen=True)
class Atom:
    """A simple claim: its kind, the people it names (indices) and a count."""

    kind: str
    targets: tuple[int, ...] = ()
    k: int = 0


@dataclass(frozen=True)
class Compound:
    """A connective applied to sub-formulas ("not" has one part, the others two)."""

    op: str
    parts: tuple[Atom | Compound, ...]


Formula = Atom | Compound


class _Masks:
    """Truth values over all 2^n assignments at once: bit ``a`` of a mask is the value under
    assignment ``a``, where person ``i`` is a knight iff bit ``i`` of ``a`` is set."""

    def __init__(self, people: int) -> None:
        size = 1 << people
        self.people = people
        self.full = (1 << size) - 1
        self.knight: list[int] = []
        for i in range(people):
            block = 1 << i  # a run of 2^i knaves then 2^i knights, repeated
            mask, width = ((1 << block) - 1) << block, 2 * block
            while width < size:
                mask |= mask << width
                width *= 2
            self.knight.append(mask)
        self._counts: dict[tuple[int, ...], list[int]] = {}

    def exactly(self, group: tuple[int, ...], k: int) -> int:
        """Assignments with exactly ``k`` knights among ``group``."""
        if group not in self._counts:
            counts = [self.full]  # counts[j]: exactly j knights among the people seen so far
            for i in group:
                m = self.knight[i]
                counts = [
                    (counts[j] & ~m if j < len(counts) else 0) | (counts[j - 1] & m if j > 0 else 0)
                    for j in range(len(counts) + 1)
                ]
            self._counts[group] = counts
        return self._counts[group][k]

    def truth(self, f: Formula, speaker: int) -> int:
        """The assignments where ``f``, said by ``speaker``, is true."""
        full, knight = self.full, self.knight
        if isinstance(f, Atom):
            t = f.targets[0] if f.targets else speaker
            if f.kind in ("knight", "truthful", "self_knight"):
                return knight[t]
            if f.kind in ("knave", "lying", "self_knave"):
                return full ^ knight[t]
            if f.kind == "same":
                return full ^ (knight[t] ^ knight[speaker])
            if f.kind == "different":
                return knight[t] ^ knight[speaker]
            if f.kind == "count_us":
                return self.exactly(tuple(range(self.people)), f.k)
            if f.kind == "count_group":
                return self.exactly(f.targets, f.k)
            raise ValueError(f"unknown atom kind {f.kind!r}")
        a = self.truth(f.parts[0], speaker)
        if f.op == "not":
            return full ^ a
        b = self.truth(f.parts[1], speaker)
        ops = {
            "and": a & b,
            "or": a | b,
            "if": (full ^ a) | b,
            "iff": full ^ (a ^ b),
            "xor": a ^ b,
        }
        return ops[f.op]

    def consistent(self, formulas: Sequence[Formula]) -> int:
        """The assignments where every speaker ``i`` is a knight iff ``formulas[i]`` is true."""
        ok = self.full
        for speaker, f in enumerate(formulas):
            ok &= self.full ^ (self.knight[speaker] ^ self.truth(f, speaker))
        return ok


def _draw_atom(rng: random.Random, speaker: int, people: int, kinds: Sequence[str]) -> Atom:
    kind = rng.choice(kinds)
    others = [i for i in range(people) if i != speaker]
    if kind == "count_us":
        return Atom(kind, (), rng.randint(1, people - 1))
    if kind == "count_group":
        group = tuple(sorted(rng.sample(others, rng.randint(3, min(5, len(others))))))
        return Atom(kind, group, rng.randint(1, len(group) - 1))
    if kind in SELF_ATOMS:
        return Atom(kind)
    return Atom(kind, (rng.choice(others),))


def _subject(atom: Atom) -> int | None:
    """The one person an atom is about (-1: the speaker), None for counts."""
    if atom.kind in ("count_us", "count_group"):
        return None
    return atom.targets[0] if atom.targets else -1


def _draw_formula(
    rng: random.Random, speaker: int, people: int, cfg: KnightsKnavesConfig
) -> Formula:
    """A statement of ``min_atoms..max_atoms`` atoms, each about a different person, joined by
    connectives in a random binary tree (a compound part is sometimes negated)."""
    size = rng.randint(cfg.min_atoms, min(cfg.max_atoms, people))
    kinds = [k for k in cfg.kinds if size > 1 or k not in SELF_ATOMS]
    kinds = [k for k in kinds if k != "count_group" or people >= 4]
    atoms: list[Atom] = []
    subjects: set[int | None] = set()
    while len(atoms) < size:
        atom = _draw_atom(rng, speaker, people, kinds)
        subject = _subject(atom)
        if atom in atoms or (subject is not None and subject in subjects):
            continue
        atoms.append(atom)
        subjects.add(subject)
    binary = [op for op in cfg.connectives if op != "not"]

    def build(items: list[Atom]) -> Formula:
        if len(items) == 1:
            return items[0]
        cut = rng.randint(1, len(items) - 1)
        node: Formula = Compound(rng.choice(binary), (build(items[:cut]), build(items[cut:])))
        if "not" in cfg.connectives and rng.random() < 0.2:
            node = Compound("not", (node,))
        return node

    return build(atoms)


def _atom_phrase(atom: Atom, names: Sequence[str]) -> str:
    """The fixed English phrase of an atom (the tests parse these back)."""
    x = names[atom.targets[0]] if atom.targets else ""
    k = NUMBER_WORDS[atom.k]
    knights = "is a knight" if atom.k == 1 else "are knights"
    phrases = {
        "knight": f"{x} is a knight",
        "knave": f"{x} is a knave",
        "truthful": f"{x} is telling the truth",
        "lying": f"{x} is lying",
        "self_knight": "I am a knight",
        "self_knave": "I am a knave",
        "same": f"{x} is the same kind as me",
        "different": f"{x} is a different kind from me",
        "count_us": f"exactly {k} of us {knights}",
    }
    if atom.kind == "count_group":
        group = ", ".join(names[i] for i in atom.targets)
        return f"exactly {k} of {group} {knights}"
    return phrases[atom.kind]


def _formula_phrase(f: Formula, names: Sequence[str]) -> str:
    """A formula in words; a compound inside another is put in parentheses."""
    if isinstance(f, Atom):
        return _atom_phrase(f, names)
    parts = [
        _formula_phrase(p, names) if isinstance(p, Atom) else f"({_formula_phrase(p, names)})"
        for p in f.parts
    ]
    if f.op == "not":
        return f"it is not the case that {parts[0]}"
    a, b = parts
    return {
        "and": f"{a} and {b}",
        "or": f"{a} or {b}",
        "if": f"if {a}, then {b}",
        "iff": f"{a} if and only if {b}",
        "xor": f"either {a} or {b}, but not both",
    }[f.op]


def _generate_v2(rng: random.Random, cfg: KnightsKnavesConfig) -> Puzzle:
    """Draw everyone's statement until exactly one assignment is consistent."""
    n = cfg.people
    names = sorted(rng.sample(NAMES, n))
    masks = _Masks(n)
    for _ in range(cfg.max_attempts):
        formulas = [_draw_formula(rng, speaker, n, cfg) for speaker in range(n)]
        ok = masks.consistent(formulas)
        if ok.bit_count() == 1:
            break
    else:  # pragma: no cover - a unique draw comes within a few dozen tries
        raise ValueError("knights_knaves: no unique puzzle found; raise max_attempts")
    solution = ok.bit_length() - 1
    lines = []
    for speaker, f in enumerate(formulas):
        text = _formula_phrase(f, names)
        first = len(text) - len(text.lstrip("("))  # capitalise the first letter
        text = text[:first] + text[first].upper() + text[first + 1 :]
        lines.append(f'{names[speaker]} says: "{text}."')
    prompt = V2_PROMPT_TEMPLATE.format(
        count=NUMBER_WORDS[n],
        names=", ".join(names[:-1]) + " and " + names[-1],
        statements="\n".join(lines),
        template=",".join(f"{name}=?" for name in names),
    )
    answer = ",".join(
        f"{name}={'knight' if solution >> i & 1 else 'knave'}" for i, name in enumerate(names)
    )
    return Puzzle(prompt=prompt, answer=answer)


@register
class KnightsKnaves(Family):
    name = "knights_knaves"
    tiers = TIERS

    def difficulty(self, d: int) -> KnightsKnavesConfig:
        """One more person per step up to ``MAX_PEOPLE`` (d=14); one more atom per statement
        every third step from d=7, up to one atom per person (d=46; each atom names another
        person, so the same from there on); richer atoms and connectives over d=1..5 (module
        docstring)."""
        if d < 0:
            raise ValueError(f"difficulty must be >= 0, got {d}")
        max_atoms = 1 if d == 0 else min(2 + max(0, d - 4) // 3, MAX_PEOPLE)
        kinds = SIMPLE_ATOMS + (SELF_ATOMS if d >= 1 else ()) + (SPEAKER_ATOMS if d >= 2 else ())
        connectives: tuple[str, ...] = ("and", "or", "if") if d >= 1 else ()
        connectives += ("iff", "xor") if d >= 3 else ()
        connectives += ("not",) if d >= 5 else ()
        return KnightsKnavesConfig(
            people=min(2 + d, MAX_PEOPLE),
            kinds=kinds,
            min_atoms=max(1, max_atoms - 1),
            max_atoms=max_atoms,
            connectives=connectives,
        )

    def generate(self, rng: random.Random, cfg: KnightsKnavesConfig) -> Puzzle:
        if cfg.max_atoms:
            return _generate_v2(rng, cfg)
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
