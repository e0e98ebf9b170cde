"""cryptarithm: every answer is re-derived from the prompt text by an independent search.

The solver here works on letter weights (sum of weight * digit must be 0) and assigns
letters in groups, one column at a time from the right, using permutations of the unused
digits and checking the weighted sum modulo 10**k once the lowest k columns are all set.
"""

from __future__ import annotations

import itertools
import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.cryptarithm import Cryptarithm

FAMILY = Cryptarithm()
TIERS = sorted(FAMILY.tiers)


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def parse(prompt: str) -> tuple[list[str], str]:
    match = re.search(r"^Written on one line: ([A-Z +]+) = ([A-Z]+)$", prompt, re.MULTILINE)
    assert match, prompt
    addends = match.group(1).split(" + ")
    # the column layout shows the same words
    layout = [
        line.strip(" +") for line in prompt.splitlines() if re.fullmatch(r"[ +]*[A-Z]+", line)
    ]
    assert layout == [*addends, match.group(2)]
    return addends, match.group(2)


def all_solutions(addends: list[str], total: str) -> list[dict[str, int]]:
    weight: dict[str, int] = {}
    for word, sign in [*((w, 1) for w in addends), (total, -1)]:
        for power, letter in enumerate(reversed(word)):
            weight[letter] = weight.get(letter, 0) + sign * 10**power
    nonzero = {word[0] for word in [*addends, total]}
    # group letters by the lowest column they occur in
    groups: list[list[str]] = []
    seen: set[str] = set()
    for column in range(len(total)):
        group = sorted({w[-1 - column] for w in [*addends, total] if column < len(w)} - seen)
        seen.update(group)
        groups.append(group)
    solutions: list[dict[str, int]] = []

    def search(level: int, partial: int, assigned: dict[str, int]) -> None:
        if level == len(groups):
            if partial == 0:
                solutions.append(dict(assigned))
            return
        group = groups[level]
        free = [d for d in range(10) if d not in assigned.values()]
        modulus = 10 ** (level + 1)
        for digits in itertools.permutations(free, len(group)):
            if any(d == 0 and letter in nonzero for letter, d in zip(group, digits)):
                continue
            value = partial + sum(weight[letter] * d for letter, d in zip(group, digits))
            if value % modulus:
                continue
            search(level + 1, value, {**assigned, **dict(zip(group, digits))})

    search(0, 0, {})
    return solutions


@pytest.mark.parametrize("tier", TIERS)
def test_answer_rederived_from_prompt(tier: int) -> None:
    for seed in SEEDS:
        puzzle = make(tier, seed)
        addends, total = parse(puzzle.prompt)
        assert len(addends) == FAMILY.tiers[tier].addends
        assert len(set("".join(addends) + total)) >= FAMILY.tiers[tier].min_letters
        solutions = all_solutions(addends, total)
        assert len(solutions) == 1, (tier, seed, solutions)
        (solution,) = solutions
        assert sum(int("".join(str(solution[c]) for c in w)) for w in addends) == int(
            "".join(str(solution[c]) for c in total)
        )
        expected = ",".join(f"{letter}={solution[letter]}" for letter in sorted(solution))
        assert puzzle.answer == expected, (tier, seed)
        assert FAMILY.check(puzzle, puzzle.answer)


def test_known_puzzle() -> None:
    assert all_solutions(["SEND", "MORE"], "MONEY") == [
        {"D": 7, "E": 5, "N": 6, "Y": 2, "R": 8, "S": 9, "O": 0, "M": 1}
    ]


def test_normalise_variants() -> None:
    puzzle = make(4, 5)
    pairs = [pair.split("=") for pair in puzzle.answer.split(",")]
    variants = [
        puzzle.answer,
        f" {puzzle.answer.lower()} \n",
        ", ".join(f"{a} = {d}" for a, d in pairs),
        "\n".join(f"{a}: {d}" for a, d in reversed(pairs)),
        "; ".join(f"{a} -> {d}" for a, d in pairs),
        " ".join(f"{a}={d}" for a, d in pairs),
        "{" + ", ".join(f"'{a}': {d}" for a, d in pairs) + "}",
    ]
    checks.assert_accepts(FAMILY, puzzle, variants)


def test_normalise_near_misses() -> None:
    puzzle = make(4, 5)
    letter, digit = puzzle.answer.split(",")[0].split("=")
    wrong = puzzle.answer.replace(f"{letter}={digit}", f"{letter}={(int(digit) + 1) % 10}", 1)
    a_letter_missing = puzzle.answer.rsplit(",", 1)[0]
    checks.assert_rejects(FAMILY, puzzle, [wrong, a_letter_missing, puzzle.answer + ",Q=5", None])
    checks.assert_unreadable(FAMILY, ("", "A=1,A=2", "A=12", "A=1 B", "hello", "12345"))


# ---------------------------------------------------------------- suite v2: difficulty(d)

# Seeds per d: a handful while d is small, fewer once products get long.
V2_SEEDS = {**{d: range(1, 7) for d in range(13)}, 15: range(1, 3), 20: range(1, 3)}


def parse_v2(prompt: str) -> tuple[str, list[str], str]:
    """(operator, operands, result) read from the one-line form of a v2 prompt."""
    match = re.search(r"^Written on one line: ([A-Z +×]+) = ([A-Z]+)$", prompt, re.MULTILINE)
    assert match, prompt
    lhs = match.group(1)
    op = "×" if "×" in lhs else "+"
    return op, lhs.split(f" {op} "), match.group(2)


def product_solutions(left: str, right: str, total: str) -> list[dict[str, int]]:
    """Every assignment with ``left * right == total``, by plain backtracking over letters in
    order of their lowest digit position; once every letter of the low k positions of all
    three words is set, the low k digits of left * right must equal those of total."""
    words = (left, right, total)
    order: list[str] = []
    for k in range(max(map(len, words))):
        for word in words:
            if k < len(word) and word[-1 - k] not in order:
                order.append(word[-1 - k])
    nonzero = {word[0] for word in words}
    checks_at: dict[int, list[int]] = {}
    for k in range(1, len(total) + 1):
        needed = {c for word in words for c in word[-k:]}
        checks_at.setdefault(max(order.index(c) for c in needed), []).append(k)

    def low(word: str, k: int, value: dict[str, int]) -> int:
        return int("".join(str(value[c]) for c in word[-k:]))

    solutions: list[dict[str, int]] = []

    def search(depth: int, value: dict[str, int]) -> None:
        if depth == len(order):
            if low(left, len(left), value) * low(right, len(right), value) == low(
                total, len(total), value
            ):
                solutions.append(dict(value))
            return
        letter = order[depth]
        for digit in range(1 if letter in nonzero else 0, 10):
            if digit in value.values():
                continue
            value[letter] = digit
            if all(
                (low(left, k, value) * low(right, k, value) - low(total, k, value)) % 10**k == 0
                for k in checks_at.get(depth, [])
            ):
                search(depth + 1, value)
            del value[letter]

    search(0, {})
    return solutions


def test_known_product() -> None:
    # AB x AB = CAB: only 25 x 25 = 625
    assert product_solutions("AB", "AB", "CAB") == [{"B": 5, "A": 2, "C": 6}]
    assert len(product_solutions("AB", "CD", "EFGH")) > 1


@pytest.mark.parametrize("d", sorted(V2_SEEDS))
def test_v2_answer_rederived_and_unique(d: int) -> None:
    cfg = FAMILY.difficulty(d)
    for seed in V2_SEEDS[d]:
        puzzle = checks.make_at(FAMILY, d, seed)
        op, operands, total = parse_v2(puzzle.prompt)
        assert len(set("".join(operands) + total)) >= cfg.min_letters, (d, seed)
        if cfg.product:
            assert op == "×" and [len(w) for w in operands] == [cfg.max_len, cfg.min_len]
            solutions = product_solutions(operands[0], operands[1], total)
        else:
            assert op == "+" and len(operands) == cfg.addends
            assert all(cfg.min_len <= len(w) <= cfg.max_len for w in operands)
            solutions = all_solutions(operands, total)
        assert len(solutions) == 1, (d, seed, solutions)
        expected = ",".join(f"{c}={v}" for c, v in sorted(solutions[0].items()))
        assert puzzle.answer == expected, (d, seed)
        assert FAMILY.check(puzzle, puzzle.answer)
        # the format example is a placeholder the normaliser cannot read
        placeholder = re.search(r"in this form: <answer>(.*?)</answer>", puzzle.prompt)
        assert placeholder and "?" in placeholder.group(1)
        assert FAMILY.normalise(placeholder.group(1)) is None


def size_measure(d: int) -> tuple[bool, int, int]:
    """(is a product, letters in the operands at most, distinct letters at least)."""
    cfg = FAMILY.difficulty(d)
    span = cfg.max_len + cfg.min_len if cfg.product else cfg.addends * cfg.max_len
    return cfg.product, span, cfg.min_letters


def test_difficulty_grows() -> None:
    for d in range(40):
        assert size_measure(d + 1) >= size_measure(d), d
        assert size_measure(d + 3) > size_measure(d), d
    assert not FAMILY.difficulty(5).product and FAMILY.difficulty(6).product
    assert FAMILY.difficulty(12).min_letters == 10


def test_difficulty_rejects_negative() -> None:
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)


def test_v1_prompts_keep_the_v1_example() -> None:
    assert "<answer>A=7,B=0,C=3,D=9</answer>" in make(4, 1).prompt
    assert "?" not in make(5, 1).prompt
