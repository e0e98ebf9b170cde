"""proof_fill: every ground truth re-derived from the prompt text alone, by an evaluator written
apart from the generator (it parses the rendered expressions into Python and checks each step's
equation chain as a polynomial identity at more points than any degree involved), the filling
proved unique, and LiveBench's edit-distance scoring."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import pairwise

import pytest
from task_checks import RELEASE, make_question, record

from ladderbench.live.tasks.proof_fill import ProofFill, config_at, fill_score, read_ids

TASK = ProofFill()
SEEDS = range(12)
DIFFICULTIES = (*range(9), 12, 20)
POINTS = [Fraction(t, 3) for t in range(-30, 31)]  # 61 points: above any degree used here

SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def make(index: int, release: str = RELEASE, difficulty: int = 0):
    return make_question(TASK, index, release, difficulty=difficulty)


# ---------------------------------------------------------------- an independent evaluator


def to_python(text: str) -> str:
    """A rendered expression ("3k² − 2k + 1", "(x + 2)(2x − 3)", "12·S(k + 1)") as Python."""
    s = text.replace("−", "-").replace("·", "*")
    s = re.sub(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+", lambda m: "**" + m.group().translate(SUPERSCRIPTS), s)
    s = re.sub(r"(\d)\s*(?=[A-Za-z(])", r"\1*", s)
    s = re.sub(r"\)\s*(?=[A-Za-z(\d])", ")*", s)
    return re.sub(r"(?<![\w.])(\d+)", r"F(\1)", s)


def evaluator(definitions: list[str]):
    """``value(expr, t)``: the expression at variable = t, with the prompt's functions."""
    env: dict = {"F": Fraction}
    for line in definitions:
        m = re.fullmatch(r"(\w)\((\w)\) = (.+)", line)
        assert m, line
        name, var, body = m.groups()
        code = compile(to_python(body), name, "eval")
        env[name] = lambda v, code=code, var=var: eval(code, {"F": Fraction, var: v})

    def value(expr: str, t: Fraction) -> Fraction:
        return eval(compile(to_python(expr), "expr", "eval"), {**env, "k": t, "x": t})

    return value


def parse(prompt: str):
    definitions = prompt.split("Definitions:\n")[1].split("\n\n")[0].splitlines()
    proof = prompt.split("Proof:\n")[1].split("\n\n")[0].splitlines()
    block = prompt.split("Candidate expressions:\n")[1].split("\n\n")[0].splitlines()
    candidates = {}
    for line in block:
        m = re.fullmatch(r"<expression_(\d+)> (.+)", line)
        assert m, line
        candidates[int(m.group(1))] = m.group(2)
    return definitions, proof, candidates


def chain_holds(value, parts: list[str]) -> bool:
    return all(len({value(part, t) for part in parts}) == 1 for t in POINTS)


def solve(prompt: str) -> list[int]:
    """The unique filling, from the prompt alone; asserts every step checks and no mask has a
    second fitting candidate (each masked step holds exactly one mask, so the masks are
    independent and per-step uniqueness is uniqueness of the whole filling)."""
    definitions, proof, candidates = parse(prompt)
    value = evaluator(definitions)
    filled: dict[int, int] = {}
    for line in proof:
        if ": " not in line:
            continue
        parts = line.rsplit(": ", 1)[1].removesuffix(".").split(" = ")
        masks = [int(m) for m in re.findall(r"<mask_(\d+)>", line)]
        if not masks:
            assert chain_holds(value, parts), line
            continue
        assert len(masks) == 1 and parts[-1] == f"<mask_{masks[0]}>", line
        fits = [n for n, c in candidates.items() if chain_holds(value, [*parts[:-1], c])]
        assert len(fits) == 1, (line, fits)
        filled[masks[0]] = fits[0]
    assert sorted(filled) == list(range(1, len(filled) + 1))
    assert len(set(candidates.values())) == len(candidates)
    return [filled[m] for m in sorted(filled)]


def truth(q) -> list[int]:
    return [int(n) for n in q.ground_truth.split(", ")]


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_ground_truth_rederived_and_unique(difficulty: int) -> None:
    seeds = SEEDS if difficulty <= 12 else range(4)
    for index in seeds:
        q = make(index, difficulty=difficulty)
        assert solve(q.prompt) == truth(q), (difficulty, index)


def test_both_proof_kinds_appear() -> None:
    assert {make(i).subtask for i in range(16)} == {"sum_induction", "product_expansion"}


def test_difficulty_grows() -> None:
    """More masks, more candidates and higher degrees at every step up (averaged over seeds)."""

    def size(d: int) -> tuple[float, float]:
        qs = [make(i, difficulty=d) for i in range(8)]
        return (
            sum(q.fields["masks"] for q in qs) / len(qs),
            sum(q.fields["candidates"] for q in qs) / len(qs),
        )

    sizes = [size(d) for d in (0, 2, 4, 8, 12, 20)]
    for lower, higher in pairwise(sizes):
        assert higher[0] > lower[0] and higher[1] > lower[1], sizes
    degrees = [config_at(d).degree for d in range(30)]
    assert degrees == sorted(degrees) and degrees[-1] > degrees[0]


# ---------------------------------------------------------------- scoring


def test_livebench_edit_distance_credit() -> None:
    assert fill_score([1, 2, 3, 4], [1, 2, 3, 4]) == 1.0
    assert fill_score([2, 1, 3, 4], [1, 2, 3, 4]) == pytest.approx(0.5)
    assert fill_score([1, 2, 3], [1, 2, 3, 4]) == pytest.approx(0.75)
    assert fill_score([1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4]) == pytest.approx(0.5)
    assert fill_score(None, [1, 2]) == 0.0
    assert fill_score([9, 9], [1, 2]) == 0.0


def test_reply_formats() -> None:
    q = make(3, difficulty=2)
    ids = truth(q)
    joined = ", ".join(map(str, ids))
    replies = [
        f"<solution>{joined}</solution>",
        f"<solution>{','.join(map(str, ids))}</solution>",
        f"Working...\n\nAnswer: {joined}",
        "<solution>" + ", ".join(f"<mask_{m}>: {n}" for m, n in enumerate(ids, 1)) + "</solution>",
        "<solution>" + "; ".join(f"mask_{m} = {n}" for m, n in enumerate(ids, 1)) + "</solution>",
    ]
    for reply in replies:
        assert TASK.score(record(q), reply).score == 1.0, reply
    swapped = [ids[1], ids[0], *ids[2:]]
    partial = TASK.score(record(q), f"<solution>{', '.join(map(str, swapped))}</solution>")
    assert partial.score == pytest.approx(1 - 2 / len(ids))


def test_non_answers_and_malformed_records_score_zero() -> None:
    q = make(0)
    for reply in ("", "I cannot tell.", "<solution></solution>"):
        assert TASK.score(record(q), reply).score == 0.0
    assert TASK.score({}, "<solution>1</solution>").score == 0.0
    assert TASK.score({"ground_truth": "a, b"}, "<solution>1</solution>").score == 0.0
    assert read_ids("<mask_1>: 4, <mask_2>: 2") == [4, 2]


def test_generation_works_at_high_difficulty() -> None:
    """How fast is bench/README section 8's; a hang is caught by pytest's timeout."""
    for difficulty in (12, 20):
        for index in range(6):
            assert make(index, difficulty=difficulty).prompt, (difficulty, index)
