"""zebra: every answer is re-derived from the prompt text by brute force over permutations."""

from __future__ import annotations

import itertools
import math
import re
from functools import cache

import pytest
import task_checks as checks
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import INDICES, RELEASE, make_question, record

from ladderbench.live.base import Question
from ladderbench.live.tasks.zebra import Zebra

TASK = Zebra()


@cache
def make(index: int, release: str = RELEASE) -> Question:
    return make_question(TASK, index, release)


# ---------------------------------------------------------------- an independent solver

CLUE_PATTERNS = [
    (r"(.+) does not live in house (\d+)", "not_house"),
    (r"(.+) lives in house (\d+)", "house"),
    (r"(.+) lives somewhere to the left of (.+)", "left"),
    (r"(.+) lives directly to the left of (.+)", "directly_left"),
    (r"(.+) lives next to (.+)", "next"),
    (r"(.+) lives somewhere between (.+) and (.+)", "between"),
    (r"(.+) is not (.+)", "different"),
    (r"(.+) is (.+)", "same"),
]


def parse(prompt: str):
    n = int(re.search(r"There are (\d+) houses", prompt).group(1))
    headings, values = [], []
    for heading, listed in re.findall(r"^- ([A-Z][a-z ]+): (.+)$", prompt, re.M):
        headings.append(heading)
        values.append(listed.split(", "))
        assert len(values[-1]) == n
    owner = {}  # value word -> (attribute, value index)
    for a, vals in enumerate(values):
        for v, word in enumerate(vals):
            assert word.casefold() not in owner, f"value {word} listed twice"
            owner[word.casefold()] = (a, v)

    def person(phrase: str) -> tuple[int, int]:
        hits = [owner[w] for w in re.findall(r"[a-z]+", phrase.casefold()) if w in owner]
        assert len(hits) == 1, phrase
        return hits[0]

    block = prompt.split("Clues:\n", 1)[1].split("\n\n", 1)[0]
    clues = []
    for line in block.splitlines():
        text = re.fullmatch(r"\d+\. (.+)\.", line).group(1)
        for pattern, kind in CLUE_PATTERNS:
            m = re.fullmatch(pattern, text)
            if m:
                args = m.groups()
                if kind in ("house", "not_house"):
                    clues.append((kind, (person(args[0]),), int(args[1]) - 1))
                else:
                    if kind == "between":  # "Y lives somewhere between X and Z" -> (X, Y, Z)
                        args = (args[1], args[0], args[2])
                    clues.append((kind, tuple(person(x) for x in args), None))
                break
        else:
            raise AssertionError(f"unparsed clue {text!r}")
    questions = []
    for label, ref in re.findall(r"^Q\d+\. What is the (.+?) of (.+)\?$", prompt, re.M):
        m = re.fullmatch(r"the person in house (\d+)", ref)
        ref_parsed = ("house", int(m.group(1)) - 1) if m else ("item", person(ref))
        if label == "house number":
            target = None
        else:
            (target,) = [a for a, h in enumerate(headings) if h.lower().startswith(label)]
        questions.append((target, ref_parsed))
    return n, values, clues, questions


def holds(kind, houses, house) -> bool:
    if kind == "house":
        return houses[0] == house
    if kind == "not_house":
        return houses[0] != house
    if kind == "same":
        return houses[0] == houses[1]
    if kind == "different":
        return houses[0] != houses[1]
    if kind == "left":
        return houses[0] < houses[1]
    if kind == "directly_left":
        return houses[0] + 1 == houses[1]
    if kind == "next":
        return abs(houses[0] - houses[1]) == 1
    if kind == "between":
        return houses[0] < houses[1] < houses[2] or houses[2] < houses[1] < houses[0]
    raise AssertionError(kind)


def all_solutions(n: int, n_attr: int, clues) -> list[list[tuple[int, ...]]]:
    """Every assignment (per attribute: value index -> house) satisfying every clue."""

    def attrs_of(clue) -> set[int]:
        return {item[0] for item in clue[1]}

    perms = list(itertools.permutations(range(n)))
    candidates = {}  # attribute -> permutations meeting the clues about it alone
    for a in range(n_attr):
        own = [c for c in clues if attrs_of(c) == {a}]
        candidates[a] = [
            p for p in perms if all(holds(k, [p[v] for _, v in items], h) for k, items, h in own)
        ]
    # Greedy order: next the attribute most tied by clues to those already placed.
    order: list[int] = []
    while len(order) < n_attr:
        placed = set(order)

        def tied(a: int, placed: set[int] = placed) -> tuple[int, int, int]:
            links = [c for c in clues if a in attrs_of(c) and len(attrs_of(c)) > 1]
            close = sum(attrs_of(c) <= placed | {a} for c in links)
            return (-close, -len(links), len(candidates[a]))

        order.append(min((a for a in range(n_attr) if a not in placed), key=tied))
    ready = {}  # attribute -> the multi-attribute clues checkable once it is assigned
    done: set[int] = set()
    for a in order:
        done.add(a)
        ready[a] = [
            c for c in clues if a in attrs_of(c) and len(attrs_of(c)) > 1 and attrs_of(c) <= done
        ]
    found = []
    assignment: dict[int, tuple[int, ...]] = {}

    def go(k: int) -> None:
        if k == n_attr:
            found.append([assignment[a] for a in range(n_attr)])
            return
        a = order[k]
        for perm in candidates[a]:
            assignment[a] = perm
            if all(
                holds(kind, [assignment[x][v] for x, v in items], house)
                for kind, items, house in ready[a]
            ):
                go(k + 1)
        del assignment[a]

    go(0)
    return found


def csp_solutions(n: int, n_attr: int, clues, limit: int = 2) -> list[list[tuple[int, ...]]]:
    """Up to ``limit`` solutions (as ``all_solutions`` gives them) for grids too big to walk
    permutation by permutation: each person (attribute, value) gets a set of possible houses,
    narrowed by keeping only houses some choice of the clue's other people supports and by
    each house holding one value per attribute; then the smallest set is split, depth first."""
    people = [(a, v) for a in range(n_attr) for v in range(n)]
    found: list[dict] = []

    def supported(kind, items, house, dom, i: int, h: int) -> bool:
        others = [dom[x] if k != i else {h} for k, x in enumerate(items)]
        return any(holds(kind, list(c), house) for c in itertools.product(*others))

    def narrow(dom: dict) -> bool:
        changed = True
        while changed:
            changed = False
            for kind, items, house in clues:
                for i, x in enumerate(items):
                    keep = {h for h in dom[x] if supported(kind, items, house, dom, i, h)}
                    if not keep:
                        return False
                    if keep != dom[x]:
                        dom[x], changed = keep, True
            for a in range(n_attr):
                row = [(a, v) for v in range(n)]
                for x in row:
                    if len(dom[x]) == 1:
                        for y in row:
                            if y != x and dom[x] & dom[y]:
                                dom[y] = dom[y] - dom[x]
                                changed = True
                                if not dom[y]:
                                    return False
                for h in range(n):
                    holders = [x for x in row if h in dom[x]]
                    if not holders:
                        return False
                    if len(holders) == 1 and len(dom[holders[0]]) > 1:
                        dom[holders[0]], changed = {h}, True
        return True

    def go(dom: dict) -> None:
        if len(found) >= limit or not narrow(dom):
            return
        open_people = [x for x in people if len(dom[x]) > 1]
        if not open_people:
            found.append({x: next(iter(dom[x])) for x in people})
            return
        x = min(open_people, key=lambda p: (len(dom[p]), p))
        for h in sorted(dom[x]):
            go({**dom, x: {h}})

    go({x: set(range(n)) for x in people})
    return [[tuple(sol[(a, v)] for v in range(n)) for a in range(n_attr)] for sol in found]


def derive(prompt: str) -> list[str]:
    n, values, clues, questions = parse(prompt)
    if n * len(values) <= 25:
        solutions = all_solutions(n, len(values), clues)
    else:
        solutions = csp_solutions(n, len(values), clues)
    assert len(solutions) == 1, f"{len(solutions)} solutions"
    (sol,) = solutions
    answers = []
    for target, (kind, ref) in questions:
        house = ref if kind == "house" else sol[ref[0]][ref[1]]
        if target is None:
            answers.append(str(house + 1))
        else:
            answers.append(values[target][sol[target].index(house)])
    return answers


# ---------------------------------------------------------------- tests


def test_ground_truth_rederived_from_prompt() -> None:
    for index in INDICES:
        q = make(index)
        assert derive(q.prompt) == q.ground_truth.split(", "), index


def test_clue_sets_are_minimal_on_small_grids() -> None:
    checked = 0
    for index in INDICES:
        q = make(index)
        if q.subtask not in ("3x3", "4x4"):
            continue
        n, values, clues, _ = parse(q.prompt)
        for k in range(len(clues)):
            rest = clues[:k] + clues[k + 1 :]
            assert len(all_solutions(n, len(values), rest)) > 1, (index, k)
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_sizes_and_question_counts() -> None:
    seen = set()
    for index in INDICES:
        q = make(index)
        n, values, _, questions = parse(q.prompt)
        assert q.subtask == f"{n}x{len(values)}"
        assert 3 <= len(questions) == len(q.ground_truth.split(", ")) <= 5
        assert "<solution>" in q.prompt
        seen.add(q.subtask)
    assert seen == {"3x3", "4x4", "5x4", "5x5"}


# ---------------------------------------------------------------- difficulty

LEVELS = checks.HARDER_LEVELS


@cache
def make_at(difficulty: int, index: int) -> Question:
    return make_question(TASK, index, difficulty=difficulty)


def seeds(difficulty: int) -> range:
    return range(4 if difficulty <= 6 else 2)


@pytest.mark.parametrize("difficulty", LEVELS)
def test_harder_puzzles_rederived_and_unique(difficulty: int) -> None:
    """The independent solver finds exactly one solution, and it answers every question."""
    for index in seeds(difficulty):
        q = make_at(difficulty, index)
        assert derive(q.prompt) == q.ground_truth.split(", "), (difficulty, index)
        n, values, clues, questions = parse(q.prompt)
        assert q.subtask == f"{n}x{len(values)}" and q.fields["clues"] == len(clues)
        assert len(questions) == n + max(0, difficulty - 7)
        assert q.fields["search_space_log10"] == round(
            len(values) * math.log10(math.factorial(n)), 1
        )
        rec = record(q)
        assert TASK.score(rec, TASK.reference(rec)).score == 1.0


def test_both_solvers_agree_on_small_grids() -> None:
    for index in range(12):
        n, values, clues, _ = parse(make(index).prompt)
        assert csp_solutions(n, len(values), clues, limit=5) == all_solutions(
            n, len(values), clues
        ), index


def test_harder_clue_sets_are_minimal() -> None:
    """At d = 1 (5x5) every clue is needed: without any one, a second solution appears."""
    for index in range(2):
        n, values, clues, _ = parse(make_at(1, index).prompt)
        for k in range(len(clues)):
            rest = clues[:k] + clues[k + 1 :]
            assert len(csp_solutions(n, len(values), rest)) == 2, (index, k)


def test_search_grows_with_difficulty() -> None:
    """The search space, the clues and the solver's guesses grow with d (means over seeds)."""

    def mean(d: int, key: str) -> float:
        return sum(make_at(d, i).fields[key] for i in range(2)) / 2

    for key in ("search_space_log10", "clues"):
        means = [mean(d, key) for d in (1, 3, 5, 7, 12)]
        assert means == sorted(means) and means[0] < means[-1], (key, means)
    assert mean(1, "search_guesses") < mean(7, "search_guesses")
    assert mean(1, "search_space_log10") > 7  # past ZebraLogic's ~10^7 collapse point


def test_harder_questions_avoid_stated_facts() -> None:
    """At d >= 1 no question is answered by one clue alone ("X is Y", "X lives in house k")."""
    for d in (1, 4, 7):
        q = make_at(d, 0)
        block = q.prompt.split("Clues:\n", 1)[1].split("\n\n", 1)[0]
        for (label, ref), answer in zip(
            re.findall(r"^Q\d+\. What is the (.+?) of (.+)\?$", q.prompt, re.M),
            q.ground_truth.split(", "),
        ):
            if label == "house number":
                assert f"{ref[0].upper()}{ref[1:]} lives in house {answer}." not in block
                continue
            for line in block.splitlines():
                same = re.fullmatch(r"\d+\. (.+) is (?!not )(.+)\.", line)
                if same and ref.casefold() in map(str.casefold, same.groups()):
                    assert not re.search(rf"\b{re.escape(answer)}\b", line), (d, line)


def test_difficulty_zero_is_v1() -> None:
    for index in range(8):
        q = make(index)
        assert q == make_question(TASK, index, difficulty=0)
        assert set(q.fields) == {"values", "asked", "houses"}


def _variants(truth: list[str]) -> list[str]:
    def house_word(v: str) -> str:
        return f"house {v}" if v.isdigit() else v

    return [
        "Answer: " + ", ".join(truth),
        "<solution>" + "; ".join(truth).upper() + "</solution>",
        "<solution>\n" + "\n".join(f"{i}. {v}" for i, v in enumerate(truth, 1)) + "\n</solution>",
        "<solution>" + ", ".join(f"**{v}**" for v in truth) + "</solution>",
        "<solution>(" + ", ".join(truth) + ")</solution>",
        "<solution>" + ", ".join(f"Q{i}: {house_word(v)}" for i, v in enumerate(truth, 1)),
        "I worked it out.\n\\boxed{" + ", ".join(truth) + "}",
        "<solution>" + ", ".join(truth[:-1]) + " and " + truth[-1] + "</solution>",
        "<solution>" + ", ".join(truth[:-1]) + ", and " + truth[-1] + "</solution>",
        "<solution>" + " ".join(f"{i}. {v}" for i, v in enumerate(truth, 1)) + "</solution>",
        "**Answer:** " + ", ".join(f"{v} (Q{i})" for i, v in enumerate(truth, 1)),
        "<think>guess: nothing</think><solution> " + " , ".join(truth) + " . </solution>",
    ]


def test_alternative_formats_score_one() -> None:
    for index in range(16):
        q = make(index)
        for variant in _variants(q.ground_truth.split(", ")):
            assert TASK.score(record(q), variant).score == 1.0, (index, variant)


def test_partial_credit_is_documented_formula() -> None:
    for index in INDICES:
        q = make(index)
        rec = record(q)
        truth = q.ground_truth.split(", ")
        k = len(truth)
        n = q.fields["houses"]
        wrong = []
        for key, t in zip(q.fields["asked"], truth):
            pool = [str(h) for h in range(1, n + 1)] if key == "house" else q.fields["values"][key]
            wrong.append(next(v for v in pool if v != t))
        for n_wrong in range(k + 1):
            answer = truth[: k - n_wrong] + wrong[k - n_wrong :]
            expected = (float(n_wrong == 0) + (k - n_wrong) / k) / 2
            got = TASK.score(rec, f"<solution>{', '.join(answer)}</solution>").score
            assert got == pytest.approx(expected), (index, answer)


def test_wrong_shapes_score_below_one() -> None:
    q = make(3)
    rec = record(q)
    truth = q.ground_truth.split(", ")
    bad = [
        "",
        "I cannot solve this.",
        "<solution></solution>",
        "<solution>" + ", ".join(truth + truth) + "</solution>",  # too many answers
        "<solution>" + ", ".join(truth[:-1]) + "</solution>",  # one missing
        "<solution>" + ", ".join(reversed(truth)) + "</solution>",
    ]
    for answer in bad:
        assert TASK.score(rec, answer).score < 1.0, answer
    assert TASK.score(rec, bad[3]).score == 0.0
    assert (
        TASK.score(
            rec, "<solution>" + ", ".join(truth) + "</solution> no wait <solution>x</solution>"
        ).score
        == 0.0
    )


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["Alice", "red", "3", ",", " ", "\n", "(", "<solution>", "and"])))
def test_score_never_raises_on_answer_like_text(parts: list[str]) -> None:
    checks.assert_scores_in_range(TASK, [record(make(1))], ["".join(parts)])


def test_malformed_record_scores_zero() -> None:
    assert TASK.score({}, "<solution>a, b, c</solution>").score == 0.0
    assert TASK.score({"ground_truth": 3, "asked": None}, "x").score == 0.0
