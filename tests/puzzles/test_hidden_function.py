"""hidden_function: every answer is re-derived from the prompt text alone.

The solver below re-implements the DSL from the prompt's operation list (parameter ranges are
parsed from it), runs every program of 1..depth operations on the examples by brute force and
checks that all programs that fit agree on f(query), that this is puzzle.answer, and that no
shorter program fits.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable

import family_checks as checks
import pytest
from family_checks import SEEDS, make_at, make_puzzle
from hypothesis import given, settings
from hypothesis import strategies as st

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.hidden_function import PLACEHOLDER, HiddenFunction

FAMILY = HiddenFunction()
TIERS = sorted(HiddenFunction.tiers)


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


# --- reading the prompt ----------------------------------------------------------------------


def parse_value(text: str) -> int | tuple[int, ...]:
    text = text.strip()
    if text.startswith("["):
        inner = text[1:-1].strip()
        return tuple(int(t) for t in inner.split(",")) if inner else ()
    return int(text)


def parse_range(prompt: str, pattern: str) -> list[int]:
    """Numbers of a parameter written as "a..b" or "a or b" after ``pattern`` in the prompt."""
    m = re.search(pattern + r"(\d+)(\.\.| or )(\d+)[);]", prompt)
    assert m, f"no parameter range for {pattern!r}"
    lo, sep, hi = int(m.group(1)), m.group(2), int(m.group(3))
    return list(range(lo, hi + 1)) if sep == ".." else [lo, hi]


def digit_sum(x: int) -> int:
    total = 0
    while x:
        total, x = total + x % 10, x // 10
    return total


def reverse_digits(x: int) -> int:
    out = 0
    while x:
        out, x = out * 10 + x % 10, x // 10
    return out


def int_dsl(prompt: str) -> list[Callable]:
    prims: list[Callable] = []
    for k in parse_range(prompt, r"- add k \(k = "):
        prims.append(lambda x, k=k: x + k)
    for k in parse_range(prompt, r"- multiply by k \(k = "):
        prims.append(lambda x, k=k: x * k)
    assert "- square (x * x)" in prompt
    prims.append(lambda x: x * x)
    for m in parse_range(prompt, r"- mod m \(.*?m = "):
        prims.append(lambda x, m=m: x - (x // m) * m)
    assert "- digit sum" in prompt and "- reverse digits" in prompt
    prims += [digit_sum, reverse_digits]
    for d in parse_range(prompt, r"- integer divide by d \(.*?d = "):
        prims.append(lambda x, d=d: x // d)
    return prims


def _running(xs: tuple[int, ...]) -> tuple[int, ...]:
    out, total = [], 0
    for x in xs:
        total += x
        out.append(total)
    return tuple(out)


def _unique(xs: tuple[int, ...]) -> tuple[int, ...]:
    out: list[int] = []
    for x in xs:
        if x not in out:
            out.append(x)
    return tuple(out)


def list_dsl(prompt: str) -> list[Callable]:
    for line in ("- sort (ascending)", "- reverse (", "- keep even", "- keep odd", "- running sum"):
        assert line in prompt
    assert "- drop duplicates" in prompt
    prims: list[Callable] = [
        lambda xs: tuple(sorted(xs)),
        lambda xs: tuple(reversed(xs)),
        lambda xs: tuple(x for x in xs if x % 2 == 0),
        lambda xs: tuple(x for x in xs if x % 2),
        _running,
        _unique,
    ]
    for k in parse_range(prompt, r"- add k to each element \(k = "):
        prims.append(lambda xs, k=k: tuple(x + k for x in xs))
    for k in parse_range(prompt, r"- multiply each element by k \(k = "):
        prims.append(lambda xs, k=k: tuple(x * k for x in xs))
    for n in parse_range(prompt, r"- take first n \(.*?n = "):
        prims.append(lambda xs, n=n: tuple(xs[i] for i in range(min(n, len(xs)))))
    for n in parse_range(prompt, r"- drop first n \(.*?n = "):
        prims.append(lambda xs, n=n: tuple(xs[i] for i in range(n, len(xs))))
    return prims


def canonical(value: int | tuple[int, ...]) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def solve(prompt: str, stop_at: int = 0) -> tuple[set[str], int, int]:
    """All f(query) over programs that fit the examples, the fewest steps that fit, and depth.

    Depth-first over programs, pruned by the first example: a program prefix whose value on
    the first example cannot reach its output in the steps left (memoised per value) is cut,
    and a value vector already reached in as few steps is not explored again. With
    ``stop_at`` the search ends once that many different answers are known.
    """
    first_line = prompt.splitlines()[0]
    is_list = "takes a list of integers" in first_line
    assert is_list or "takes an integer" in first_line
    if "exactly one operation" in first_line:
        depth = 1
    else:
        m = re.search(r"a sequence of 1 to (\d+) operations", first_line)
        assert m
        depth = int(m.group(1))
    examples = re.findall(r"^f\((.+)\) = (.+)$", prompt, re.M)
    query = re.search(r"^What is f\((.+)\)\?$", prompt, re.M)
    assert query
    xs = [parse_value(x) for x, _ in examples]
    ys = [parse_value(y) for _, y in examples]
    prims = list_dsl(prompt) if is_list else int_dsl(prompt)

    answers: set[str] = set()
    fewest = [depth + 1]
    reach_memo: dict[tuple[object, int], bool] = {}
    reached_in: dict[tuple[object, ...], int] = {}

    def reaches(value: object, steps_left: int) -> bool:
        """ys[0] is ``value`` or 1..steps_left operations away from it."""
        key = (value, steps_left)
        if key not in reach_memo:
            reach_memo[key] = value == ys[0] or (
                steps_left > 0 and any(reaches(prim(value), steps_left - 1) for prim in prims)
            )
        return reach_memo[key]

    class Enough(Exception):
        pass

    def search(values: tuple[object, ...], steps: int) -> None:
        for prim in prims:
            if ys and not reaches(prim(values[0]), depth - steps - 1):
                continue
            new = tuple(prim(v) for v in values)
            if list(new[:-1]) == ys:
                answers.add(canonical(new[-1]))  # type: ignore[arg-type]
                fewest[0] = min(fewest[0], steps + 1)
                if len(answers) == stop_at:
                    raise Enough
            if steps + 1 < depth and reached_in.get(new, depth + 1) > steps + 1:
                reached_in[new] = steps + 1
                search(new, steps + 1)

    with contextlib.suppress(Enough):
        search((*xs, parse_value(query.group(1))), 0)
    return answers, fewest[0], depth


# --- tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("tier", TIERS)
def test_answer_rederived_from_prompt(tier: int) -> None:
    for seed in SEEDS:
        puzzle = make(tier, seed)
        answers, fewest, depth = solve(puzzle.prompt)
        assert answers == {puzzle.answer}, f"tier {tier} seed {seed}: {answers}"
        # The hidden function needs all of the tier's steps: nothing shorter fits.
        assert fewest == depth == HiddenFunction.tiers[tier].depth, f"tier {tier} seed {seed}"


def test_tiers_have_the_documented_shape() -> None:
    assert {5, 6} <= set(TIERS)
    for tier in TIERS:
        lengths = set()
        for seed in range(1, 17):
            prompt = make(tier, seed).prompt
            lengths.add(len(re.findall(r"^f\(.+\) = .+$", prompt, re.M)))
        cfg = HiddenFunction.tiers[tier]
        assert lengths <= set(range(cfg.min_examples, cfg.max_examples + 1))
    assert HiddenFunction.tiers[5].depth == 2 and HiddenFunction.tiers[6].depth == 3


def test_both_domains_appear() -> None:
    answers = [make(tier, seed).answer for tier in TIERS for seed in range(1, 33)]
    assert any(a.startswith("[") for a in answers)
    assert any(not a.startswith("[") for a in answers)


def _variants(answer: str) -> list[str]:
    if answer.startswith("["):
        items = answer[1:-1].split(", ") if answer != "[]" else []
        out = [answer, f"  {answer}\n", "[" + ",".join(items) + "]", "(" + ", ".join(items) + ")"]
        out.append("[ " + " ".join(items) + " ]")
        out.append(f"f(x) = {answer}")
        if len(items) > 1:
            out += [", ".join(items), " ".join(items), "; ".join(items)]
        return out
    out = [answer, f" {answer} ", f"{answer}.", f"f(7) = {answer}", f"`{answer}`", f"+{answer}"]
    if int(answer) >= 1000:
        out.append(f"{int(answer):,}")
    return out


def _near_miss(answer: str) -> str:
    i = max(i for i, c in enumerate(answer) if c.isdigit())
    return answer[:i] + str((int(answer[i]) + 1) % 10) + answer[i + 1 :]


@pytest.mark.parametrize("tier", TIERS)
def test_normalise_variants_and_near_misses(tier: int) -> None:
    for seed in range(1, 17):
        puzzle = make(tier, seed)
        assert FAMILY.normalise(puzzle.answer) == puzzle.answer
        checks.assert_accepts(FAMILY, puzzle, _variants(puzzle.answer))
        checks.assert_rejects(FAMILY, puzzle, [_near_miss(puzzle.answer), None, ""])


def test_normalise_examples() -> None:
    n = FAMILY.normalise
    assert n("5") == "5" and n("[5]") == "[5]" and n("[]") == "[]" and n("()") == "[]"
    assert n("1,234") == "1234" and n("[1,234]") == "[1, 234]" and n("1, 234") == "[1, 234]"
    assert n("-7") == "-7" and n("007") == "7"
    checks.assert_unreadable(
        FAMILY, ("", "abc", "[1, x]", "[[1, 2]]", "1.5", "=", "[", "1 2 three", "9" * 5000)
    )


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789[](), ;+-=f\n", max_size=40))
def test_normalise_never_raises_on_answer_like_text(text: str) -> None:
    checks.assert_normalise_total(FAMILY, text, idempotent=True)


def test_prompt_ends_with_the_answer_tags() -> None:
    for tier in TIERS:
        assert make(tier, 1).prompt.rstrip().endswith("</answer>.")


# --- suite v2: the open-ended difficulty d ----------------------------------------------------

# A few seeds per d, fewer where an instance (a 4-step search) costs a good fraction of a second.
V2_CASES = [(d, seed) for d in range(13) for seed in range(1, (7 if d < 5 else 3))]
V2_CASES += [(15, 1), (20, 1)]


def _without_last_example(prompt: str) -> str:
    lines = prompt.splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if re.match(r"f\(.+\) = ", line))
    return "".join(lines[:last] + lines[last + 1 :])


@pytest.mark.parametrize(("d", "seed"), V2_CASES)
def test_v2_answer_unique_with_the_fewest_examples(d: int, seed: int) -> None:
    """Every program of 1..depth listed operations that fits the examples gives the answer;
    no shorter one fits; and without the last example two programs that fit disagree."""
    puzzle = make_at(FAMILY, d, seed)
    answers, fewest, depth = solve(puzzle.prompt)
    assert answers == {puzzle.answer}, f"d {d} seed {seed}: {answers}"
    assert fewest == depth == FAMILY.difficulty(d).depth, f"d {d} seed {seed}"
    fewer, _, _ = solve(_without_last_example(puzzle.prompt), stop_at=2)
    assert len(fewer) == 2, f"d {d} seed {seed}: the last example is not needed"


def _measure(d: int) -> tuple[int, int, int]:
    cfg = FAMILY.difficulty(d)
    return cfg.depth, cfg.max_int_input, cfg.max_list_len


def test_v2_difficulty_grows() -> None:
    """Every axis is non-decreasing in d, and every step of d grows one of them."""
    for d in range(60):
        now, later = _measure(d), _measure(d + 1)
        assert all(a <= b for a, b in zip(now, later)), d
        assert later != now, d
    assert [FAMILY.difficulty(d).depth for d in (0, 1, 3, 5, 20)] == [1, 2, 3, 4, 4]


def test_v2_negative_difficulty_raises() -> None:
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)


def test_v2_prompt_shows_a_placeholder_the_normaliser_rejects() -> None:
    assert FAMILY.normalise(PLACEHOLDER) is None
    for d in (0, 3):
        prompt = make_at(FAMILY, d, 1).prompt
        assert prompt.rstrip().endswith(f"<answer>{PLACEHOLDER}</answer>.")
        assert "<answer>42</answer>" not in prompt
    assert f"<answer>{PLACEHOLDER}</answer>" not in make(6, 1).prompt  # v1 keeps its example
