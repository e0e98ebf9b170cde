"""The shipped ladder: schema, balance, and every gold answer verified independently.

Computable answers are recomputed from each question's ``check`` expression; the rest were solved
by a second, independent pass that saw the questions without the key (independent_answers.json).
"""

import fractions
import functools
import itertools
import json
import math
from collections import Counter
from pathlib import Path

import pytest

from ladderbench.static.loader import CATEGORIES, LETTERS, default_data_dir, load_questions

QUESTIONS = load_questions()
INDEPENDENT = json.loads((Path(__file__).parent / "independent_answers.json").read_text())
NAMESPACE = {
    "__builtins__": {},
    "math": math,
    "itertools": itertools,
    "functools": functools,
    "Fraction": fractions.Fraction,
    "comb": math.comb,
    "perm": math.perm,
    "factorial": math.factorial,
    "gcd": math.gcd,
    "lcm": math.lcm,
    "isqrt": math.isqrt,
    **{
        f.__name__: f
        for f in (
            sum,
            min,
            max,
            abs,
            round,
            range,
            len,
            sorted,
            str,
            int,
            float,
            pow,
            divmod,
            any,
            all,
            list,
            set,
            map,
            filter,
            zip,
            enumerate,
            tuple,
            dict,
            reversed,
            chr,
            ord,
        )
    },
}


def test_five_levels_of_thirty():
    files = sorted(p.name for p in default_data_dir().glob("*.jsonl"))
    assert files == [
        "level1_easy.jsonl",
        "level2_basic.jsonl",
        "level3_intermediate.jsonl",
        "level4_hard.jsonl",
        "level5_expert.jsonl",
    ]
    assert Counter(q.level for q in QUESTIONS) == {1: 30, 2: 30, 3: 30, 4: 30, 5: 30}


def test_ids_and_categories():
    for q in QUESTIONS:
        assert q.id == f"l{q.level}_{int(q.id.split('_')[1]):02d}"
        assert q.category in CATEGORIES


@pytest.mark.parametrize("level", range(1, 6))
def test_gold_letters_are_balanced_without_long_runs(level):
    letters = [q.answer for q in QUESTIONS if q.level == level]
    assert set(Counter(letters).values()) <= {7, 8}
    longest = max(len(list(g)) for _, g in itertools.groupby(letters))
    assert longest <= 3


@pytest.mark.parametrize("q", [q for q in QUESTIONS if q.check], ids=lambda q: q.id)
def test_check_recomputes_the_gold_option(q):
    value = str(eval(q.check, dict(NAMESPACE)))
    assert value == q.gold_text
    assert [c for c in q.choices if c == value] == [q.gold_text]


@pytest.mark.parametrize("q", QUESTIONS, ids=lambda q: q.id)
def test_every_gold_answer_verified(q):
    """Either a check recomputes it, or the independent solving pass agreed."""
    independent = INDEPENDENT.get(q.id)
    assert q.check or independent, f"{q.id}: no check and no independent answer"
    if independent:
        assert independent == q.answer, f"{q.id}: independent pass chose {independent}"


def test_no_choice_is_letter_prefixed():
    for q in QUESTIONS:
        for choice in q.choices:
            assert not any(
                choice.startswith(f"{x})") or choice.startswith(f"({x})") for x in LETTERS
            )
