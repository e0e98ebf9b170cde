"""The contract every registered puzzle family keeps, checked over ``FAMILIES``: a family added to
the registry is held to it without a line of test code. Its own test file keeps what is particular
to it (the independent solver, its answer variants and near misses); ``tests/test_contracts.py``
holds the scoring contract shared with suites, tasks, adapters and graders."""

from __future__ import annotations

import re
from functools import cache

import family_checks as checks
import pytest
from family_checks import SEEDS, make_puzzle
from hypothesis import given, settings
from hypothesis import strategies as st

from ladderbench.puzzles.registry import FAMILIES

NAMES = FAMILIES.names()
TIERS = [(name, tier) for name in NAMES for tier in sorted(FAMILIES.get(name).tiers)]
# Tiers that no family may take: every small one not declared, and two far out.
BAD_TIERS = [
    (name, tier)
    for name in NAMES
    for tier in (*range(-1, 8), 99, 100)
    if tier not in FAMILIES.get(name).tiers
]
# The child interpreters' PYTHONHASHSEEDs (each family's file used to pick one of these).
HASH_SEEDS = ("777", "987", "2718", "4242", "12345", "31337")
# Tiers so small that seeds 1..64 may repeat a prompt, and how often at most; every other tier
# gives 64 different prompts.
REPEATED_PROMPTS = {("arithmetic", 0): 4, ("sequence", 2): 1, ("text", 0): 5}


def ids(case: tuple[str, int]) -> str:
    return f"{case[0]}-{case[1]}"


@cache
def digests_under(hash_seed: str) -> dict[str, str]:
    """Every family's digest as a fresh interpreter under ``hash_seed`` makes it (one child per
    seed, shared by the families' tests)."""
    return checks.registry_digests_under(hash_seed)


# ---------------------------------------------------------------- determinism


@pytest.mark.parametrize("case", TIERS, ids=ids)
def test_regenerates_in_process(case: tuple[str, int]) -> None:
    name, tier = case
    checks.assert_regenerates(FAMILIES.get(name), tier, SEEDS)


@pytest.mark.parametrize("case", TIERS, ids=ids)
def test_seeds_give_other_prompts(case: tuple[str, int]) -> None:
    name, tier = case
    family = FAMILIES.get(name)
    assert make_puzzle(family, tier, 1).prompt != make_puzzle(family, tier, 2).prompt
    repeats = REPEATED_PROMPTS.get(case, 0)
    assert checks.distinct_prompts(family, tier, SEEDS) >= len(SEEDS) - repeats


@pytest.mark.parametrize("name", NAMES)
def test_same_bytes_under_other_hash_seeds(name: str) -> None:
    """Every tier x seeds 1..16 comes out byte for byte the same in fresh interpreters under
    other ``PYTHONHASHSEED``s: no generator leans on set order or ``hash()``."""
    family = FAMILIES.get(name)
    here = checks.puzzle_digest(family, sorted(family.tiers))
    for hash_seed in HASH_SEEDS:
        assert digests_under(hash_seed)[name] == here, hash_seed


@pytest.mark.parametrize("name", NAMES)
def test_v2_same_bytes_under_other_hash_seeds(name: str) -> None:
    """The same for suite v2's instances at a few difficulties."""
    here = checks.difficulty_digest(FAMILIES.get(name))
    for hash_seed in HASH_SEEDS[:2]:
        assert digests_under(hash_seed)[f"{name}/v2"] == here, hash_seed


# ---------------------------------------------------------------- difficulty (suite v2)

DIFFICULTIES = (0, 1, 2, 4, 7, 11)


@pytest.mark.parametrize("name", NAMES)
def test_every_difficulty_regenerates_asks_for_tags_and_reads_its_own_answer(name: str) -> None:
    family = FAMILIES.get(name)
    for d in DIFFICULTIES:
        for seed in (1, 2, 3):
            puzzle = checks.make_at(family, d, seed)
            assert puzzle == checks.make_at(family, d, seed), (d, seed)
            assert "<answer>" in puzzle.prompt and "</answer>" in puzzle.prompt, (d, seed)
            assert family.check(puzzle, puzzle.answer), (d, seed, puzzle.answer)
        assert checks.make_at(family, d, 1).prompt != checks.make_at(family, d, 2).prompt, d


@pytest.mark.parametrize("name", NAMES)
def test_the_v2_format_example_is_never_read_as_the_answer(name: str) -> None:
    """A tiny model copies the prompt's example: in v2 it must not pass."""
    family = FAMILIES.get(name)
    for d in DIFFICULTIES:
        for seed in (1, 2):
            puzzle = checks.make_at(family, d, seed)
            examples = re.findall(r"<answer>(.*?)</answer>", puzzle.prompt, re.DOTALL)
            for example in examples:
                assert not family.check(puzzle, example), (d, seed, example)


@pytest.mark.parametrize("name", NAMES)
def test_far_difficulties_still_generate(name: str) -> None:
    """The search climbs to d = 31; past every family's caps instances still come out."""
    family = FAMILIES.get(name)
    for d in (31, 64):
        puzzle = checks.make_at(family, d, 1)
        assert family.check(puzzle, puzzle.answer), d


@pytest.mark.parametrize("name", NAMES)
def test_negative_difficulty_raises(name: str) -> None:
    with pytest.raises(ValueError):
        FAMILIES.get(name).difficulty(-1)


# ---------------------------------------------------------------- prompts and tiers


@pytest.mark.parametrize("case", TIERS, ids=ids)
def test_prompt_asks_for_answer_tags(case: tuple[str, int]) -> None:
    name, tier = case
    for seed in SEEDS:
        prompt = make_puzzle(FAMILIES.get(name), tier, seed).prompt
        assert "<answer>" in prompt and "</answer>" in prompt, (seed, prompt)


@pytest.mark.parametrize("case", BAD_TIERS, ids=ids)
def test_undeclared_tier_raises(case: tuple[str, int]) -> None:
    name, tier = case
    with pytest.raises(ValueError, match="tier"):
        make_puzzle(FAMILIES.get(name), tier, 1)


# ---------------------------------------------------------------- the normaliser


@pytest.mark.parametrize("case", TIERS, ids=ids)
def test_nothing_extracted_never_passes(case: tuple[str, int]) -> None:
    name, tier = case
    family = FAMILIES.get(name)
    checks.assert_rejects(family, make_puzzle(family, tier, 1), [None])
    checks.assert_unreadable(family, ["", "   "])


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=300, deadline=None)
@given(text=st.text())
def test_normalise_never_raises(name: str, text: str) -> None:
    checks.assert_normalise_total(FAMILIES.get(name), text)
