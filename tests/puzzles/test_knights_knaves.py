"""knights_knaves: every answer is re-derived from the prompt text by brute force over roles.

v2 (``difficulty(d)``) statements are parsed by a recursive-descent reader of their grammar and
checked against all 2^n assignments: as bit sets (bit ``a`` = assignment ``a``) at every size,
and one assignment at a time as well up to ten people, where the two must agree."""

from __future__ import annotations

import itertools
import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_at, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.knights_knaves import KnightsKnaves

FAMILY = KnightsKnaves()
TIERS = sorted(FAMILY.tiers)
WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]
COUNTS = {word: i for i, word in enumerate(WORDS) if i}


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def parse_names(prompt: str) -> list[str]:
    match = re.search(r"You meet (\w+) inhabitants: ([A-Za-z, ]+?) and ([A-Za-z]+)\.", prompt)
    assert match, prompt
    names = [*match.group(2).split(", "), match.group(3)]
    assert len(names) == COUNTS[match.group(1)]
    return names


def statement_test(speaker: str, text: str, people: list[str]):
    """Turn one quoted statement into a predicate over {name: is_knight}."""
    one = r"([A-Z][a-z]+)"
    patterns = [
        (rf"{one} is a knight\.", lambda r, x: r[x]),
        (rf"{one} is a knave\.", lambda r, x: not r[x]),
        (rf"{one} and {one} are both knights\.", lambda r, x, y: r[x] and r[y]),
        (rf"{one} and {one} are both knaves\.", lambda r, x, y: not r[x] and not r[y]),
        (rf"At least one of {one} and {one} is a knave\.", lambda r, x, y: not (r[x] and r[y])),
        (rf"At least one of {one} and {one} is a knight\.", lambda r, x, y: r[x] or r[y]),
        (rf"Exactly one of {one} and {one} is a knight\.", lambda r, x, y: r[x] ^ r[y]),
        (rf"If {one} is a knight, then {one} is a knight\.", lambda r, x, y: r[y] or not r[x]),
        (rf"{one} and I are the same kind\.", lambda r, x: r[x] == r[speaker]),
        (rf"{one} and I are different kinds\.", lambda r, x: r[x] != r[speaker]),
        (
            r"Exactly (\w+) of us (?:is a knight|are knights)\.",
            lambda r, k: sum(r.values()) == COUNTS[k],
        ),
        (
            r"Exactly (\w+) of us (?:is a knave|are knaves)\.",
            lambda r, k: sum(not v for v in r.values()) == COUNTS[k],
        ),
    ]
    for pattern, predicate in patterns:
        match = re.fullmatch(pattern, text)
        if match:
            args = match.groups()
            for arg in args:
                assert arg in people or arg in COUNTS, (arg, text)
                assert arg != speaker, f"{speaker} names themself: {text}"
            return lambda roles, p=predicate, a=args: p(roles, *a)
    raise AssertionError(f"unparsed statement: {text!r}")


def solve(prompt: str) -> list[str]:
    """All consistent assignments, each rendered canonically in order of introduction."""
    people = parse_names(prompt)
    said = re.findall(r'^([A-Z][a-z]+) says: "(.*)"$', prompt, flags=re.MULTILINE)
    assert sorted(s for s, _ in said) == sorted(people), "each person makes one statement"
    tests = [(s, statement_test(s, text, people)) for s, text in said]
    answers = []
    for values in itertools.product((True, False), repeat=len(people)):
        roles = dict(zip(people, values))
        if all(roles[s] == bool(test(roles)) for s, test in tests):
            answers.append(",".join(f"{n}={'knight' if roles[n] else 'knave'}" for n in people))
    return answers


@pytest.mark.parametrize("tier", TIERS)
def test_answer_rederived_from_prompt(tier: int) -> None:
    for seed in SEEDS:
        puzzle = make(tier, seed)
        people = parse_names(puzzle.prompt)
        assert people == sorted(people), "introduction order must be alphabetical"
        assert len(people) == FAMILY.tiers[tier].people
        answers = solve(puzzle.prompt)
        assert answers == [puzzle.answer], (tier, seed, answers)
        assert FAMILY.check(puzzle, puzzle.answer)


def test_normalise_variants() -> None:
    puzzle = make(4, 7)
    names = parse_names(puzzle.prompt)
    roles = dict(pair.split("=") for pair in puzzle.answer.split(","))
    variants = [
        puzzle.answer,
        f"  {puzzle.answer.upper()}  ",
        ", ".join(f"{n} is a {roles[n]}" for n in names),
        "\n".join(f"{n}: {roles[n]}" for n in reversed(names)),
        "; ".join(f"{n.lower()} = {roles[n].capitalize()}" for n in names),
        "\n".join(f"- **{n}**: {roles[n]}" for n in names),
        ", ".join(f"{n} is a {roles[n]}" for n in names[:-1]) + f" and {names[-1]} is a "
        f"{roles[names[-1]]}.",
    ]
    checks.assert_accepts(FAMILY, puzzle, variants)


def test_normalise_near_misses() -> None:
    puzzle = make(4, 7)
    pairs = puzzle.answer.split(",")
    flipped = (
        pairs[0].replace("knight", "KNAVE")
        if "knight" in pairs[0]
        else pairs[0].replace("knave", "knight")
    )
    near_misses = [
        ",".join([flipped, *pairs[1:]]),
        ",".join(pairs[1:]),  # someone missing
        puzzle.answer + "," + pairs[0],  # someone twice
        puzzle.answer + ",Zed=knight",  # an extra person
        None,
    ]
    checks.assert_rejects(FAMILY, puzzle, near_misses)
    checks.assert_unreadable(FAMILY, ["Alice=knight,Alice=knave", "Alice is a liar", ""])


# ---------------------------------------------------------------- v2: compound statements

# (d, seeds): a few seeds per d up to 12, fewer where the instances are big.
V2_CASES = [(d, range(1, 9)) for d in range(9)] + [(d, range(1, 7)) for d in range(9, 13)]
V2_CASES += [(15, range(1, 3)), (20, range(1, 3))]
NAME = r"[A-Z][a-z]+"
Node = tuple  # ("is", name, knight?) | ("same", name, same?) | ("count", names, k) | (op, *parts)


def top_level(text: str, sep: str) -> list[str]:
    """``text`` split at the occurrences of ``sep`` outside parentheses."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            assert depth >= 0, text
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i = i + len(sep)
            continue
        i += 1
    assert depth == 0, text
    return [*parts, text[start:]]


def wrapped(text: str) -> bool:
    """Whether the parenthesis opening ``text`` closes at its very end."""
    depth = 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return i == len(text) - 1 and i > 0
    return False


def parse_unit(text: str, speaker: str, people: list[str]) -> Node:
    """An atom, or a whole formula in parentheses."""
    if wrapped(text):
        return parse_formula(text[1:-1], speaker, people)
    return parse_atom(text, speaker, people)


def parse_formula(text: str, speaker: str, people: list[str]) -> Node:
    """One connective at the top level (compound parts are in parentheses), or a unit."""
    if re.match(r"(It|If|Either|Exactly) ", text):
        text = text[0].lower() + text[1:]
    if text.startswith("it is not the case that "):
        return ("not", parse_unit(text.removeprefix("it is not the case that "), speaker, people))
    if text.startswith("if "):
        a, b = top_level(text.removeprefix("if "), ", then ")
        return ("if", parse_unit(a, speaker, people), parse_unit(b, speaker, people))
    if text.startswith("either ") and text.endswith(", but not both"):
        a, b = top_level(text.removeprefix("either ").removesuffix(", but not both"), " or ")
        return ("xor", parse_unit(a, speaker, people), parse_unit(b, speaker, people))
    for sep, op in ((" if and only if ", "iff"), (" and ", "and"), (" or ", "or")):
        parts = top_level(text, sep)
        assert len(parts) <= 2, f"ambiguous chain of {sep!r}: {text}"
        if len(parts) == 2:
            return (op, *(parse_unit(p, speaker, people) for p in parts))
    return parse_unit(text, speaker, people)


def parse_atom(text: str, speaker: str, people: list[str]) -> Node:
    named = [
        (rf"({NAME}) is a knight", True, "is"),
        (rf"({NAME}) is telling the truth", True, "is"),
        (rf"({NAME}) is a knave", False, "is"),
        (rf"({NAME}) is lying", False, "is"),
        (rf"({NAME}) is the same kind as me", True, "same"),
        (rf"({NAME}) is a different kind from me", False, "same"),
    ]
    for pattern, value, kind in named:
        m = re.fullmatch(pattern, text)
        if m:
            assert m[1] in people and m[1] != speaker, (speaker, text)
            return (kind, m[1], value)
    m = re.fullmatch(r"I am a (knight|knave)", text)
    if m:
        return ("is", speaker, m[1] == "knight")
    m = re.fullmatch(rf"exactly (\w+) of (us|{NAME}(?:, {NAME})+) (is a knight|are knights)", text)
    assert m, f"unparsed atom: {text!r}"
    k = COUNTS[m[1]]
    assert (k == 1) == (m[3] == "is a knight"), text
    group = tuple(people) if m[2] == "us" else tuple(m[2].split(", "))
    assert all(p in people and p != speaker for p in group) or m[2] == "us", text
    assert 0 < k < len(group), text
    return ("count", group, k)


def atoms_in(node: Node) -> int:
    return 1 if node[0] in ("is", "same", "count") else sum(atoms_in(p) for p in node[1:])


def holds(node: Node, roles: dict[str, bool], speaker: str) -> bool:
    """The formula's truth under one assignment."""
    op = node[0]
    if op == "is":
        return roles[node[1]] == node[2]
    if op == "same":
        return (roles[node[1]] == roles[speaker]) == node[2]
    if op == "count":
        return sum(roles[p] for p in node[1]) == node[2]
    values = [holds(p, roles, speaker) for p in node[1:]]
    if op == "not":
        return not values[0]
    a, b = values
    return {"and": a and b, "or": a or b, "if": b or not a, "iff": a == b, "xor": a != b}[op]


class BitSets:
    """Truth over every assignment at once: bit ``a`` is assignment ``a``, in which the ``i``-th
    person introduced is a knight iff bit ``i`` of ``a`` is 1."""

    def __init__(self, people: list[str]) -> None:
        n = len(people)
        self.people, self.size = people, 1 << n
        self.all = (1 << self.size) - 1
        # as a binary numeral, the most significant bit (assignment 2^n - 1) comes first
        self.knight = {
            p: int((("0" * (1 << i) + "1" * (1 << i)) * (self.size >> (i + 1)))[::-1], 2)
            for i, p in enumerate(people)
        }

    def count(self, group: tuple[str, ...], k: int) -> int:
        member = sum(1 << self.people.index(p) for p in group)
        bits = "".join("1" if (a & member).bit_count() == k else "0" for a in range(self.size))
        return int(bits[::-1], 2)

    def holds(self, node: Node, speaker: str) -> int:
        op = node[0]
        if op == "is":
            return self.knight[node[1]] if node[2] else self.all ^ self.knight[node[1]]
        if op == "same":
            same = self.all ^ self.knight[node[1]] ^ self.knight[speaker]
            return same if node[2] else self.all ^ same
        if op == "count":
            return self.count(node[1], node[2])
        values = [self.holds(p, speaker) for p in node[1:]]
        if op == "not":
            return self.all ^ values[0]
        a, b = values
        return {
            "and": a & b,
            "or": a | b,
            "if": (self.all ^ a) | b,
            "iff": self.all ^ a ^ b,
            "xor": a ^ b,
        }[op]


def render(people: list[str], roles: dict[str, bool]) -> str:
    return ",".join(f"{p}={'knight' if roles[p] else 'knave'}" for p in people)


def solve_v2(prompt: str) -> tuple[list[str], dict[str, Node]]:
    """(every consistent assignment, the parsed statements) of a v2 prompt."""
    people = parse_names(prompt)
    said = re.findall(r'^([A-Z][a-z]+) says: "(.*)\."$', prompt, flags=re.MULTILINE)
    assert sorted(s for s, _ in said) == people, "each person makes one statement"
    formulas = {s: parse_formula(text, s, people) for s, text in said}
    bits = BitSets(people)
    ok = bits.all
    for speaker, f in formulas.items():
        ok &= bits.all ^ bits.knight[speaker] ^ bits.holds(f, speaker)
    answers = [
        render(people, {p: bool(a >> i & 1) for i, p in enumerate(people)})
        for a in range(bits.size)
        if ok >> a & 1
    ]
    if len(people) <= 10:  # one assignment at a time must give the same answers
        one_by_one = []
        for values in itertools.product((True, False), repeat=len(people)):
            roles = dict(zip(people, values))
            if all(roles[s] == holds(f, roles, s) for s, f in formulas.items()):
                one_by_one.append(render(people, roles))
        assert sorted(one_by_one) == sorted(answers)
    return answers, formulas


@pytest.mark.parametrize(("d", "seeds"), V2_CASES)
def test_v2_answer_rederived_and_unique(d: int, seeds: range) -> None:
    cfg = FAMILY.difficulty(d)
    for seed in seeds:
        puzzle = make_at(FAMILY, d, seed)
        answers, formulas = solve_v2(puzzle.prompt)
        assert answers == [puzzle.answer], (d, seed, answers)
        people = parse_names(puzzle.prompt)
        assert len(people) == cfg.people and people == sorted(people)
        roles = {
            p: r == "knight" for p, r in (pair.split("=") for pair in puzzle.answer.split(","))
        }
        assert all(roles[s] == holds(f, roles, s) for s, f in formulas.items())
        sizes = [atoms_in(f) for f in formulas.values()]
        assert all(cfg.min_atoms <= n <= cfg.max_atoms for n in sizes), (d, seed, sizes)
        assert FAMILY.check(puzzle, puzzle.answer)


def test_v2_grammar_reads_every_form() -> None:
    """The reader sees through nesting: a hand-written statement gives the expected formula."""
    people = ["Alice", "Boris", "Carl", "Dana"]
    text = (
        "It is not the case that ((Boris is lying if and only if I am a knave) or (either "
        "exactly one of Boris, Carl, Dana is a knight or Carl is the same kind as me, but not "
        "both)) and (if exactly two of us are knights, then Dana is telling the truth)"
    )
    with pytest.raises(AssertionError, match="unparsed atom"):
        parse_formula(text, "Alice", people)  # "not" takes one unit, not a bare "and"
    with pytest.raises(AssertionError, match="ambiguous"):
        parse_formula("Boris is a knight and Carl is a knave and Dana is lying", "Alice", people)
    node = parse_formula(text.replace("that (", "that ((", 1) + ")", "Alice", people)
    assert node == (
        "not",
        (
            "and",
            (
                "or",
                ("iff", ("is", "Boris", False), ("is", "Alice", False)),
                ("xor", ("count", ("Boris", "Carl", "Dana"), 1), ("same", "Carl", True)),
            ),
            ("if", ("count", ("Alice", "Boris", "Carl", "Dana"), 2), ("is", "Dana", True)),
        ),
    )


def test_v2_placeholder_is_no_answer() -> None:
    for d in (0, 5, 14):
        puzzle = make_at(FAMILY, d, 3)
        placeholder = re.findall(r"<answer>(.*?)</answer>", puzzle.prompt)[-1]
        assert "=?" in placeholder and FAMILY.normalise(placeholder) is None
        assert not FAMILY.check(puzzle, placeholder)


def test_difficulty_grows() -> None:
    configs = [FAMILY.difficulty(d) for d in range(41)]
    assert (configs[0].people, configs[0].max_atoms) == (2, 1)
    assert 10 <= configs[8].people <= 12 and configs[8].max_atoms >= 3
    for d in range(40):
        a, b = configs[d], configs[d + 1]
        assert b.people >= a.people and b.min_atoms >= a.min_atoms and b.max_atoms >= a.max_atoms
        assert set(a.kinds) <= set(b.kinds) and set(a.connectives) <= set(b.connectives)
    for d in range(38):
        a, b = configs[d], configs[d + 3]
        assert b.people + b.max_atoms > a.people + a.max_atoms, d
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)
