"""The scaffolding every puzzle family's tests share.

A family's test file imports this module by its plain name (``import family_checks as checks``,
``SEEDS`` and ``make_puzzle`` also by name): pytest puts the folder of each test file on
``sys.path`` (the folders have no ``__init__.py``); ``puzzles.family_checks`` would load a second
copy. What is particular to a family stays in its own file: the independent solver that re-derives
every answer from the prompt text alone (deliberately written apart from the generator), and the
answer variants and near misses its normaliser must accept or refuse. This module holds only what
repeats around them: building an instance, the determinism checks (in process, and byte for byte in
a fresh interpreter under another ``PYTHONHASHSEED``), the answer-tag check and the checks behind
the normaliser's property tests.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from collections.abc import Iterable
from pathlib import Path

from cli_helpers import python_output
from ladderbench.puzzles.base import Family, Puzzle, instance_rng

SUITE_VERSION = "1"
SEEDS = range(1, 65)  # the seeds every re-derivation test walks
DIGEST_SEEDS = range(1, 17)  # the seeds whose bytes are compared across interpreters


def make_puzzle(family: Family, tier: int, seed: int) -> Puzzle:
    """Instance (suite version 1, family, tier, seed), drawn from its own hash-seeded rng."""
    return family.generate(instance_rng(SUITE_VERSION, family.name, tier, seed), tier)


# ---------------------------------------------------------------- determinism


def assert_regenerates(family: Family, tier: int, seeds: Iterable[int]) -> None:
    """Generating each seed's instance twice in this process gives equal puzzles."""
    for seed in seeds:
        assert make_puzzle(family, tier, seed) == make_puzzle(family, tier, seed), (tier, seed)


def distinct_prompts(family: Family, tier: int, seeds: Iterable[int]) -> int:
    """How many different prompts ``seeds`` give at ``tier``."""
    return len({make_puzzle(family, tier, seed).prompt for seed in seeds})


def puzzle_digest(family: Family, tiers: Iterable[int], seeds: Iterable[int] = DIGEST_SEEDS) -> str:
    """sha256 over (tier, seed, prompt, answer) of every instance of ``tiers`` x ``seeds``."""
    seeds = list(seeds)
    h = hashlib.sha256()
    for tier in tiers:
        for seed in seeds:
            puzzle = make_puzzle(family, tier, seed)
            h.update(repr((tier, seed, puzzle.prompt, puzzle.answer)).encode() + b"\n")
    return h.hexdigest()


def fresh_puzzle_digest(module: str, qualname: str, tiers: list[int]) -> str:
    """``puzzle_digest`` of a newly built family ``module.qualname`` (run in the child)."""
    family = getattr(importlib.import_module(module), qualname)()
    return puzzle_digest(family, tiers)


def assert_same_bytes_under_another_hash_seed(
    family: Family, tiers: Iterable[int], hash_seed: str
) -> None:
    """The instances of ``tiers`` x seeds 1..16 come out byte for byte the same in a fresh
    interpreter whose ``PYTHONHASHSEED`` is ``hash_seed``: no generator leans on the iteration
    order of a set or on ``hash()``."""
    tiers = sorted(tiers)
    cls = type(family)
    code = (
        "import family_checks\n"
        f"print(family_checks.fresh_puzzle_digest({cls.__module__!r}, {cls.__qualname__!r}, "
        f"{tiers!r}))\n"
    )
    child = python_output(code, hash_seed=hash_seed, path=[Path(__file__).parent])
    assert child == puzzle_digest(family, tiers)


# ---------------------------------------------------------------- prompts and answers


def assert_prompts_ask_for_answer_tags(family: Family, tiers: Iterable[int]) -> list[str]:
    """Each tier's seed-1 prompt asks for ``<answer>...</answer>``; returns those prompts."""
    prompts = [make_puzzle(family, tier, 1).prompt for tier in tiers]
    for prompt in prompts:
        assert "<answer>" in prompt and "</answer>" in prompt, prompt
    return prompts


def assert_accepts(family: Family, puzzle: Puzzle, texts: Iterable[str]) -> None:
    """Every text passes ``family.check`` against ``puzzle``."""
    for text in texts:
        assert family.check(puzzle, text), (text, puzzle.answer)


def assert_rejects(family: Family, puzzle: Puzzle, texts: Iterable[str | None]) -> None:
    """No text (``None``: nothing extracted) passes ``family.check`` against ``puzzle``."""
    for text in texts:
        assert not family.check(puzzle, text), (text, puzzle.answer)


def assert_unreadable(family: Family, texts: Iterable[str]) -> None:
    """``family.normalise`` reads none of the texts (returns ``None``)."""
    for text in texts:
        assert family.normalise(text) is None, text


def assert_normalise_total(
    family: Family, text: str, *, pattern: str | None = None, idempotent: bool = False
) -> None:
    """The body of a normaliser property test: ``normalise(text)`` returns ``None`` or a string
    and never raises; with ``pattern`` that string matches it in full, and with ``idempotent``
    normalising it again gives it back."""
    result = family.normalise(text)
    assert result is None or isinstance(result, str), repr(result)
    if result is None:
        return
    if pattern is not None:
        assert re.fullmatch(pattern, result), (text, result)
    if idempotent:
        assert family.normalise(result) == result, (text, result)
