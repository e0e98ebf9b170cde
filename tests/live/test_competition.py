"""competition: every answer is re-derived by brute force from the numbers in the prompt."""

from __future__ import annotations

import itertools
import json
import math
import re
from fractions import Fraction
from functools import cache

import pytest
import sympy as sp
import task_checks as checks
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import INDICES, RELEASE, make_question, record

from ladderbench.errors import UserError
from ladderbench.live.base import Question, Sources
from ladderbench.live.tasks.competition import (
    TEMPLATES,
    Competition,
    CompetitionConfig,
    at_difficulty,
    parse_number,
)

TASK = Competition()


@cache
def make(index: int, release: str = RELEASE) -> Question:
    return make_question(TASK, index, release)


def ints(pattern: str, prompt: str) -> list[int]:
    m = re.search(pattern, prompt)
    assert m, (pattern, prompt)
    return [int(g) for g in m.groups()]


# ---------------------------------------------------------------- brute-force solvers


def solve_divisibility_count(p: str) -> Fraction:
    n, a, b, c = ints(
        r"1 ≤ n ≤ (\d+) are divisible by exactly one of the numbers (\d+), (\d+) "
        r"and (\d+)\?",
        p,
    )
    return Fraction(
        sum(1 for k in range(1, n + 1) if (k % a == 0) + (k % b == 0) + (k % c == 0) == 1)
    )


def solve_crt(p: str) -> Fraction:
    floor, r1, m1, r2, m2, r3, m3 = ints(
        r"greater than (\d+) that leaves a remainder of (\d+) when divided by (\d+), a "
        r"remainder of (\d+) when divided by (\d+), and a remainder of (\d+) when divided by "
        r"(\d+)\.",
        p,
    )
    k = floor + 1
    while not (k % m1 == r1 and k % m2 == r2 and k % m3 == r3):
        k += 1
    return Fraction(k)


def solve_committee(p: str) -> Fraction:
    men, women, k = ints(r"has (\d+) men and (\d+) women\. A committee of (\d+) members", p)
    min_w, min_m = ints(r"at least (\d+) wom[ae]n and at least (\d+) m[ae]n", p)
    people = [f"man{i}" for i in range(men)] + [f"woman{i}" for i in range(women)]
    named = {"Alex": "man0", "Dev": "man1", "Blair": "woman0", "Cora": "woman1"}
    feud = re.search(r"(?:Two|One) of the .*? refuse to serve", p).group()
    pair = {named[name] for name in named if name in feud}
    assert len(pair) == 2
    count = 0
    for group in itertools.combinations(people, k):
        w = sum(1 for person in group if person.startswith("woman"))
        if w >= min_w and k - w >= min_m and not pair <= set(group):
            count += 1
    return Fraction(count)


def solve_marbles(p: str) -> Fraction:
    red, blue, green, k, j = ints(
        r"(\d+) red, (\d+) blue and (\d+) green marbles\. (\d+) marbles are drawn.*exactly "
        r"(\d+) of",
        p,
    )
    bag = ["r"] * red + ["b"] * blue + ["g"] * green
    good = total = 0
    for draw in itertools.combinations(range(len(bag)), k):
        colours = [bag[i] for i in draw]
        total += 1
        good += colours.count("r") == j and "g" in colours
    return Fraction(good, total)


def solve_dice_sum(p: str) -> Fraction:
    m = re.search(
        r"(\d+) fair (\d+)-sided dice.*? the sum of the numbers shown is (\d+)\?", p, re.S
    )
    n, s, target = (int(g) for g in m.groups())
    (banned,) = ints(r"no die shows a (\d+) and", p)
    good = sum(
        1
        for roll in itertools.product(range(1, s + 1), repeat=n)
        if banned not in roll and sum(roll) == target
    )
    return Fraction(good, s**n)


def solve_power_sum(p: str) -> Fraction:
    m = re.search(r"a \+ b = (-?\d+) and a\^2 \+ b\^2 = (\d+)\. Find the value of a\^(\d+)", p)
    total, squares, n = (int(g) for g in m.groups())
    a, b = sp.symbols("a b")
    solutions = sp.solve([a + b - total, a**2 + b**2 - squares], [a, b], dict=True)
    values = {sp.nsimplify(sp.expand(s[a] ** n + s[b] ** n)) for s in solutions}
    assert len(values) == 1
    value = sp.Rational(values.pop())
    return Fraction(int(value.p), int(value.q))


def solve_lattice_paths(p: str) -> Fraction:
    m, n, a, b, c, d = ints(
        r"from \(0, 0\) to \((\d+), (\d+)\).*through the point \((\d+), (\d+)\) but do not "
        r"pass through the point \((\d+), (\d+)\)\?",
        p,
    )
    count = 0
    for rights in itertools.combinations(range(m + n), m):
        x = y = 0
        visited = {(0, 0)}
        right_steps = set(rights)
        for step in range(m + n):
            if step in right_steps:
                x += 1
            else:
                y += 1
            visited.add((x, y))
        count += (a, b) in visited and (c, d) not in visited
    return Fraction(count)


def solve_square_divisors(p: str) -> Fraction:
    (n,) = ints(r"Let N = (\d+)\.", p)
    square = n * n
    return Fraction(sum(1 for d in range(1, n) if square % d == 0 and n % d != 0))


def solve_coin_runs(p: str) -> Fraction:
    n, k = ints(r"flipped (\d+) times\. .*exactly (\d+) of the flips are heads", p)
    m = re.search(r"lands heads with probability (\d+)/(\d+)", p)
    heads = Fraction(int(m.group(1)), int(m.group(2))) if m else Fraction(1, 2)
    assert m or p.startswith("A fair coin")
    banned = "HHH" if "three heads occur" in p else "HH"
    total = Fraction(0)
    for flips in itertools.product("HT", repeat=n):
        if flips.count("H") == k and banned not in "".join(flips):
            total += heads**k * (1 - heads) ** (n - k)
    return total


def solve_digit_sum(p: str) -> Fraction:
    d, top, target = ints(
        r"How many (\d+)-digit .* every digit between 1 and (\d+) inclusive, .* sum to (\d+)\?", p
    )
    parity = 1 if "integers are odd" in p else 0
    assert parity or "integers are even" in p
    count = 0
    for value in range(10 ** (d - 1), 10**d):
        digits = [int(c) for c in str(value)]
        if value % 2 == parity and min(digits) >= 1 and max(digits) <= top:
            count += sum(digits) == target
    return Fraction(count)


def solve_arithmetic_sequence(p: str) -> Fraction:
    i, u, j, v, n = ints(
        r"term number (\d+) is (-?\d+) and term number (\d+) is (-?\d+)\. What is the sum of "
        r"the first (\d+) terms",
        p,
    )
    a, d = sp.symbols("a d")
    sol = sp.solve([a + (i - 1) * d - u, a + (j - 1) * d - v], [a, d])
    total = sum(sol[a] + k * sol[d] for k in range(n))
    total = sp.Rational(total)
    return Fraction(int(total.p), int(total.q))


def solve_dice_order(p: str) -> Fraction:
    (s,) = ints(r"A fair (\d+)-sided die", p)
    m = re.search(r"rolled (two|three|four) times\. .*expected value of (.*) of the \w+ numbers", p)
    rolls = {"two": 2, "three": 3, "four": 4}[m.group(1)]
    pick = {
        "the largest": max,
        "the smallest": min,
        "the middle": lambda r: sorted(r)[1],
        "the difference between the largest and the smallest": lambda r: max(r) - min(r),
    }[m.group(2)]
    total = sum(pick(roll) for roll in itertools.product(range(1, s + 1), repeat=rolls))
    return Fraction(total, s**rolls)


SOLVERS = {
    "divisibility_count": solve_divisibility_count,
    "crt": solve_crt,
    "committee": solve_committee,
    "marbles": solve_marbles,
    "dice_sum": solve_dice_sum,
    "power_sum": solve_power_sum,
    "lattice_paths": solve_lattice_paths,
    "square_divisors": solve_square_divisors,
    "coin_runs": solve_coin_runs,
    "digit_sum": solve_digit_sum,
    "arithmetic_sequence": solve_arithmetic_sequence,
    "dice_order": solve_dice_order,
}


# ---------------------------------------------------------------- ground truth


def test_at_least_eight_templates_and_all_have_a_solver() -> None:
    assert len(TEMPLATES) >= 8
    assert set(SOLVERS) == set(TEMPLATES)


def test_ground_truth_rederived_from_prompt() -> None:
    seen = set()
    for i in INDICES:
        q = make(i)
        seen.add(q.subtask)
        assert SOLVERS[q.subtask](q.prompt) == Fraction(q.ground_truth), (i, q.prompt)
    assert len(seen) >= 10  # 64 questions cover nearly every template


@pytest.mark.parametrize("subtask", sorted(TEMPLATES))
def test_every_template_rederived(subtask: str) -> None:
    """Three questions per template, drawn straight from the template."""
    import random

    for seed in range(3):
        problem, answer = TEMPLATES[subtask](random.Random(seed), TASK.config)
        assert SOLVERS[subtask](problem) == answer, problem


# ---------------------------------------------------------------- formats


def test_alternative_formats_score_one() -> None:
    for i in INDICES:
        q = make(i)
        value = Fraction(q.ground_truth)
        num, den = value.numerator, value.denominator
        variants = [f"The answer is {q.ground_truth}.", f"$\\boxed{{{q.ground_truth}}}$"]
        if den == 1:
            variants += [f"<solution>{num:,}</solution>", f"<solution>{num} ways</solution>"]
        else:
            sign = "-" if num < 0 else ""
            variants += [
                f"<solution>{sign}\\frac{{{abs(num)}}}{{{den}}}</solution>",
                f"<solution>$\\dfrac{{{num}}}{{{den}}}$</solution>",
                f"<solution>{3 * num}/{3 * den}</solution>",
                f"<solution>P = {num}/{den} \\approx {float(value):.4f}</solution>",
            ]
            if 10**6 % den == 0:  # a terminating decimal is an exact equivalent
                variants.append(f"<solution>{float(value)}</solution>")
        for text in variants:
            assert TASK.score(record(q), text).score == 1.0, (text, q.ground_truth)


def test_wrong_answers_score_zero() -> None:
    for i in INDICES:
        q = make(i)
        value = Fraction(q.ground_truth)
        wrong = [value + 1, value - 1, -value if value else Fraction(1), value * 2]
        for w in wrong:
            assert TASK.score(record(q), f"<solution>{w}</solution>").score == 0.0
        if value.denominator > 1:
            rounded = f"{float(value):.6f}"
            if Fraction(rounded) != value:
                assert TASK.score(record(q), f"<solution>{rounded}</solution>").score == 0.0
            flipped = str(1 / value) if value else "1"
            if Fraction(flipped) != value:
                assert TASK.score(record(q), f"<solution>{flipped}</solution>").score == 0.0
        hedged = f"<solution>{value} or {value + 1}</solution>"
        assert TASK.score(record(q), hedged).score == 0.0
        retracted = f"<solution>{value}</solution> Hmm, no: <solution>{value + 1}</solution>"
        assert TASK.score(record(q), retracted).score == 0.0


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("17/42", Fraction(17, 42)),
        (r"\frac{17}{42}", Fraction(17, 42)),
        (r"-\dfrac{17}{42}", Fraction(-17, 42)),
        (r"\frac{-17}{42}", Fraction(-17, 42)),
        ("34/84", Fraction(17, 42)),
        ("1,234,567", Fraction(1234567)),
        (r"1\,234", Fraction(1234)),
        ("−3", Fraction(-3)),
        ("0.25", Fraction(1, 4)),
        ("25%", Fraction(1, 4)),
        ("n = 42", Fraction(42)),
        (r"\text{42 committees}", Fraction(42)),
        ("17 / 42", Fraction(17, 42)),
        (r"\frac12", Fraction(1, 2)),
    ],
)
def test_parse_number_reads_common_forms(text: str, value: Fraction) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize(
    "text",
    ["", "abc", "1/0", "3 - 1", "2^{10}", "17/42 or 5/6", "1 234", r"1\frac{1}{2}", "(17)(42)"],
)
def test_parse_number_refuses_non_answers(text: str) -> None:
    assert parse_number(text) is None


# ---------------------------------------------------------------- robustness


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "1",
                "7",
                "0",
                "/",
                "-",
                ",",
                ".",
                "%",
                "\\frac",
                "{",
                "}",
                " ",
                "=",
                "(",
                ")",
                "<solution>",
                "</solution>",
                "\\boxed{",
                "e",
                "\\approx",
            ]
        ),
        max_size=30,
    )
)
def test_score_never_raises_on_number_like_text(parts: list[str]) -> None:
    checks.assert_scores_in_range(TASK, [record(make(1))], ["".join(parts)])


def test_malformed_record_scores_zero() -> None:
    assert TASK.score({}, "<solution>1</solution>").score == 0.0
    assert TASK.score({"ground_truth": "x/y"}, "<solution>1</solution>").score == 0.0
    assert TASK.score({"ground_truth": None}, "<solution>1</solution>").score == 0.0
    assert math.isclose(TASK.score({"ground_truth": "3"}, "<solution>3</solution>").score, 1.0)


# ---------------------------------------------------------------- difficulty

SEEDS = range(4)


def solve_prompt(prompt: str) -> Fraction:
    """The answer re-derived from the prompt alone: a single problem goes to the solver whose
    pattern it matches, a combined one is split into its parts and their answers summed."""
    parts = re.split(r"\n\nProblem \d+\. ", prompt.split("\n\nGive the exact answer")[0])
    if len(parts) > 1:
        count = int(re.search(r"each of the following (\d+) problems", parts[0]).group(1))
        assert len(parts) - 1 == count
        return sum((solve_one(part) for part in parts[1:]), Fraction(0))
    return solve_one(parts[0])


def solve_one(text: str) -> Fraction:
    """The one solver whose template the text comes from (each template has its own wording)."""
    keys = {
        "divisible by exactly one of": "divisibility_count",
        "leaves a remainder of": "crt",
        "A committee of": "committee",
        "marbles are drawn": "marbles",
        "-sided dice, each with faces": "dice_sum",
        "(possibly complex)": "power_sum",
        "using unit steps": "lattice_paths",
        "divisors of N^2": "square_divisors",
        "times. What is the probability that exactly": "coin_runs",
        "-digit positive integers": "digit_sum",
        "arithmetic sequence": "arithmetic_sequence",
        "What is the expected value of": "dice_order",
    }
    found = [name for key, name in keys.items() if key in text]
    assert len(found) == 1, text
    return SOLVERS[found[0]](text)


@pytest.mark.parametrize("difficulty", [*range(9), 12, 20])
def test_ground_truth_rederived_at_every_difficulty(difficulty: int) -> None:
    seeds = SEEDS if difficulty <= 8 else range(2)
    for seed in seeds:
        q = make_question(TASK, seed, difficulty=difficulty)
        assert solve_prompt(q.prompt) == Fraction(q.ground_truth), (difficulty, seed, q.prompt)


def test_difficulty_zero_is_v1() -> None:
    for i in range(16):
        assert make_question(TASK, i, difficulty=0) == make(i)
    assert at_difficulty(0) == CompetitionConfig()


def test_difficulty_grows() -> None:
    """More parts to get right, and no range shrinks, as d grows; the parts grow unbounded."""
    configs = [at_difficulty(d) for d in range(0, 21)]
    assert [c.parts for c in configs[::4]] == [1, 3, 5, 7, 9, 11]
    for low, high in itertools.pairwise(configs):
        assert high.parts >= low.parts
        assert high.dice_count >= low.dice_count and high.grid >= low.grid
        assert high.coin_flips >= low.coin_flips and high.crt_floor > low.crt_floor
    lengths = [len(make_question(TASK, 0, difficulty=d).prompt) for d in (0, 4, 8, 12, 20)]
    assert lengths == sorted(lengths) and lengths[-1] > 4 * lengths[0]


def test_combined_questions_name_their_parts() -> None:
    q = make_question(TASK, 3, difficulty=6)
    assert q.subtask == "combined" and len(q.fields["parts"]) == 4
    assert len(set(q.fields["parts"])) == 4
    assert TASK.score(record(q), TASK.reference(record(q))).score == 1.0


# ---------------------------------------------------------------- fetched problems


def problem_file(**changes) -> str:
    data = {
        "kind": "competition",
        "source": "aops",
        "url": "https://example.org/p1",
        "title": "Contest 2026 Problem 7",
        "published": "2026-11-20",
        "licence": "CC BY 4.0",
        "statement": "What is the least prime greater than 50?",
        "answer": "53",
        "choices": None,
        "tests": None,
    }
    data.update(changes)
    return json.dumps(data)


def fetched_sources(**files: str) -> Sources:
    dates = {name: json.loads(text).get("published", "") for name, text in files.items()}
    return Sources(problems=dict(files), dates=dates)


CHOICES = {"A": "$\\frac{1}{2}$", "B": "$\\frac{2}{3}$", "C": "$1$", "D": "$\\sqrt{2}$"}


def test_fetched_problems_drawn_newest_first_and_only_fresh() -> None:
    sources = fetched_sources(
        **{
            "old.json": problem_file(published="2026-10-01", statement="Old problem?"),
            "new.json": problem_file(published="2026-11-25", statement="New problem?"),
        }
    )
    first = make_question(TASK, 0, sources=sources)
    assert first.material == ("New problem?",) and first.subtask == "fetched_answer"
    assert first.prompt.startswith("New problem?")
    second = make_question(TASK, 1, sources=sources.using(first.material))
    assert second.material == ("Old problem?",)
    with pytest.raises(UserError, match="every fetched competition problem"):
        make_question(TASK, 2, sources=sources.using(["New problem?", "Old problem?"]))


def test_undated_folder_falls_back_on_the_files_published_dates() -> None:
    sources = Sources(
        problems={
            "a.json": problem_file(published="2026-09-01", statement="September?"),
            "b.json": problem_file(published="2026-11-01", statement="November?"),
        }
    )
    assert make_question(TASK, 0, sources=sources).material == ("November?",)


def test_templates_are_the_fallback_without_competition_problems() -> None:
    coding = problem_file(kind="coding", answer=None, tests=[{"input": "1", "output": "1"}])
    q = make_question(TASK, 0, sources=fetched_sources(**{"c.json": coding}))
    assert q == make(0)


def test_fetched_free_answer_scored_by_math_equivalence() -> None:
    sources = fetched_sources(p=problem_file(answer="\\frac{3\\sqrt{2}}{2}"))
    rec = record(make_question(TASK, 0, sources=sources))
    good = ["<solution>3\\sqrt{2}/2</solution>", "<solution>\\frac{3}{\\sqrt{2}}</solution>"]
    for text in [*good, TASK.reference(rec)]:
        assert TASK.score(rec, text).score == 1.0, text
    for text in ["<solution>2.1213</solution>", "<solution>3\\sqrt{2}</solution>", "no"]:
        assert TASK.score(rec, text).score == 0.0, text
    integer = record(make_question(TASK, 0, sources=fetched_sources(p=problem_file())))
    assert TASK.score(integer, "<solution>53</solution>").score == 1.0
    assert TASK.score(integer, "<solution>59</solution>").score == 0.0


def test_fetched_choice_scored_by_letter_or_text() -> None:
    sources = fetched_sources(p=problem_file(answer="B", choices=CHOICES))
    q = make_question(TASK, 0, sources=sources)
    rec = record(q)
    assert "(B) $\\frac{2}{3}$" in q.prompt and q.subtask == "fetched_choice"
    for text in ["<solution>B</solution>", "<solution>(B)</solution>", "The answer is B."]:
        assert TASK.score(rec, text).score == 1.0, text
    assert TASK.score(rec, "<solution>$\\frac{2}{3}$</solution>").score == 1.0
    for text in ["<solution>A</solution>", "<solution>$1$</solution>", "<solution>E</solution>"]:
        assert TASK.score(rec, text).score == 0.0, text


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"kind": "essay"}, "kind"),
        ({"statement": ""}, "statement"),
        ({"answer": None}, "answer"),
        ({"choices": {"A": "1", "B": "2"}, "answer": "C"}, "answer"),
        ({"choices": {"a": "1"}, "answer": "a"}, "choices"),
        ({"title": 7}, "title"),
    ],
)
def test_malformed_problem_file_is_one_line_naming_file_and_field(changes, field) -> None:
    sources = fetched_sources(**{"bad.json": problem_file(**changes)})
    with pytest.raises(UserError) as error:
        make_question(TASK, 0, sources=sources)
    message = str(error.value)
    assert "\n" not in message and message.startswith("bad.json") and repr(field) in message


def test_unreadable_problem_file_names_the_file() -> None:
    with pytest.raises(UserError, match=r"^broken\.json: not valid JSON"):
        make_question(TASK, 0, sources=Sources(problems={"broken.json": "{"}))
