"""proof_order: the true order is re-derived from the prompt (fixed proofs by their canonical
text, numeric derivations by chaining each step's result into the next), and partial credit
follows the documented Levenshtein formula."""

from __future__ import annotations

import itertools
import json
import random
import re
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import INDICES, RELEASE, make_question, record

from ladderbench.live.base import Question
from ladderbench.live.tasks.proof_order import BUILDERS, PROOFS, ProofOrder, parse_order

TASK = ProofOrder()
KINDS = {"contradiction", "induction", "number_theory", "derivation"}


@cache
def make(index: int, release: str = RELEASE) -> Question:
    return make_question(TASK, index, release)


def truth(q: Question) -> list[str]:
    return json.loads(q.ground_truth)


def levenshtein(a: list[str], b: list[str]) -> int:
    """Edit distance by the textbook dynamic programme (independent of rapidfuzz)."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


# ---------------------------------------------------------------- reading the prompt


def parse_prompt(prompt: str) -> tuple[str, dict[str, str]]:
    claim = re.search(r"^Claim: (.+)$", prompt, re.M).group(1)
    steps = dict(re.findall(r"^([A-I])\. (.+)$", prompt, re.M))
    count = int(re.search(r"List all (\d+) labels", prompt).group(1))
    assert len(steps) == count
    return claim, steps


def result_of(step: str) -> str:
    """What a numeric derivation step establishes: the text after its last ': '."""
    return step.rsplit(": ", 1)[-1].rstrip(".").split(", the claimed")[0].split(", which")[0]


def chain_orders(steps: dict[str, str]) -> list[list[str]]:
    """Every order in which each step's result is quoted by the step that follows it."""
    labels = sorted(steps)
    link = {
        (a, b): bool(
            re.search(re.escape(result_of(steps[a])) + r"(?![\w²])", steps[b].rsplit(": ", 1)[0])
        )
        for a in labels
        for b in labels
        if a != b
    }
    return [
        list(order)
        for order in itertools.permutations(labels)
        if all(link[(x, y)] for x, y in itertools.pairwise(order))
    ]


def rederive(prompt: str) -> list[str]:
    claim, steps = parse_prompt(prompt)
    by_claim = {p.claim: p for p in PROOFS}
    if claim in by_claim:
        canonical = by_claim[claim].steps
        label_of = {text: label for label, text in steps.items()}
        assert set(label_of) == set(canonical)
        return [label_of[text] for text in canonical]
    orders = chain_orders(steps)
    assert len(orders) == 1, (claim, orders)
    return orders[0]


# ---------------------------------------------------------------- the proof set


def test_built_in_set() -> None:
    assert len(PROOFS) >= 12
    assert len({p.name for p in PROOFS}) == len(PROOFS)
    assert len({p.claim for p in PROOFS}) == len(PROOFS)
    for proof in PROOFS:
        assert 5 <= len(proof.steps) <= 9, proof.name
        assert len(set(proof.steps)) == len(proof.steps)
        assert proof.kind in KINDS


@pytest.mark.parametrize("builder", BUILDERS, ids=lambda b: b.__name__)
def test_numeric_derivations_have_exactly_one_chain(builder) -> None:
    for seed in range(40):
        proof = builder(random.Random(seed))
        assert 5 <= len(proof.steps) <= 9 and proof.kind in KINDS
        labels = "ABCDEFGHI"[: len(proof.steps)]
        orders = chain_orders(dict(zip(labels, proof.steps)))
        assert orders == [list(labels)], (proof.claim, orders)


def test_ground_truth_rederived_from_prompt() -> None:
    names = set()
    for i in INDICES:
        q = make(i)
        names.add(q.fields["proof"])
        assert rederive(q.prompt) == truth(q), (i, q.prompt)
        assert q.subtask in KINDS
    assert len(names) >= 12  # 64 questions visit most of the set


def test_shown_order_differs_from_the_true_one() -> None:
    for i in INDICES:
        q = make(i)
        assert truth(q) != sorted(truth(q))
        assert sum(a == b for a, b in zip(truth(q), sorted(truth(q)))) <= 1
        assert sorted(truth(q)) == q.fields["labels"]


# ---------------------------------------------------------------- partial credit


def test_partial_credit_is_the_documented_formula() -> None:
    for i in INDICES:
        q = make(i)
        order = truth(q)
        n = len(order)
        swapped = order[:]
        swapped[1], swapped[2] = swapped[2], swapped[1]
        two_swaps = swapped[:]
        two_swaps[-1], two_swaps[-2] = two_swaps[-2], two_swaps[-1]
        cases = {
            "swap": (swapped, 1 - 2 / n),
            "two swaps": (two_swaps, 1 - levenshtein(two_swaps, order) / n),
            "missing last": (order[:-1], 1 - 1 / n),
            "reversed": (order[::-1], max(0.0, 1 - levenshtein(order[::-1], order) / n)),
            "shown order": (sorted(order), 1 - levenshtein(sorted(order), order) / n),
        }
        for name, (given_order, expected) in cases.items():
            s = TASK.score(record(q), f"<solution>{', '.join(given_order)}</solution>").score
            assert s == pytest.approx(expected), (name, given_order, order)
            assert s < 1.0
        assert cases["swap"][1] > cases["two swaps"][1]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("ABCDEFGHIJ")), max_size=12), st.integers(0, 63))
def test_score_matches_an_independent_levenshtein(answer: list[str], index: int) -> None:
    q = make(index)
    order = truth(q)
    labels = set(q.fields["labels"])
    kept = [a for a in answer if a in labels]
    expected = 0.0 if not kept else max(0.0, 1 - levenshtein(kept, order) / len(order))
    s = TASK.score(record(q), f"<solution>{', '.join(answer)}</solution>").score
    assert s == pytest.approx(expected)


# ---------------------------------------------------------------- formats


def test_alternative_formats_score_one() -> None:
    for i in INDICES:
        q = make(i)
        order = truth(q)
        variants = [
            " ".join(order),
            " -> ".join(order),
            " → ".join(order),
            ", ".join(o.lower() for o in order),
            ", ".join(f"Step {o}" for o in order),
            "[" + ", ".join(f'"{o}"' for o in order) + "]",
            ", ".join(f"({o})" for o in order),
            ", ".join(f"**{o}**" for o in order),
            "".join(order),
            "\n".join(f"{k}. {o}" for k, o in enumerate(order, 1)),
        ]
        for text in variants:
            assert TASK.score(record(q), f"<solution>{text}</solution>").score == 1.0, text
        assert TASK.score(record(q), f"The order is:\n\nAnswer: {', '.join(order)}").score == 1.0


def test_non_answers_score_zero() -> None:
    q = make(0)
    for text in ("", "I am not sure.", "<solution></solution>", "<solution>1, 2, 3</solution>"):
        assert TASK.score(record(q), text).score == 0.0


def test_parse_order_keeps_only_capital_labels_in_prose() -> None:
    labels = list("ABCDEF")
    assert parse_order("First C, then A, and finally B", labels) == ["C", "A", "B"]
    assert parse_order("c, a, b", labels) == ["C", "A", "B"]
    assert parse_order("a proof goes C, A, B", labels) == ["C", "A", "B"]
    assert parse_order("nothing here", labels) is None


# ---------------------------------------------------------------- robustness


def test_malformed_record_scores_zero() -> None:
    assert TASK.score({}, "<solution>A, B</solution>").score == 0.0
    assert TASK.score({"ground_truth": "not json"}, "<solution>A</solution>").score == 0.0
    assert TASK.score({"ground_truth": "[1, 2]"}, "<solution>A</solution>").score == 0.0
    assert (
        TASK.score({"ground_truth": '["A"]', "labels": [1, None]}, "<solution>A</solution>").score
        == 0.0
    )
    assert TASK.score({"ground_truth": '["B", "A"]'}, "<solution>B, A</solution>").score == 1.0
