"""The scaffolding the puzzle-family tests share.

The test files import this module by its plain name (``import family_checks as checks``, ``SEEDS``
and ``make_puzzle`` also by name): pytest puts the folder of each test file on ``sys.path`` (the
folders have no ``__init__.py``); ``puzzles.family_checks`` would load a second copy. What holds
for every family (determinism in process and byte for byte under other ``PYTHONHASHSEED``s, the
answer tags, undeclared tiers, a normaliser that never raises) is checked once, over the registry,
in ``test_family_contracts.py``. What is particular to a family stays in its own file: the
independent solver that re-derives every answer from the prompt text alone (deliberately written
apart from the generator), and the answer variants and near misses its normaliser must accept or
refuse. This module holds what both need: building an instance, the digests behind the
cross-interpreter check, and the accept/reject/normalise helpers.
"""

from __future__ import annotations

import hashlib
import json
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
    return family.generate(
        instance_rng(SUITE_VERSION, family.name, tier, seed), family.config(tier)
    )


def make_at(family: Family, d: int, seed: int) -> Puzzle:
    """Instance (suite version 2, family, difficulty ``d``, seed), as suite v2 generates it."""
    return family.generate(instance_rng("2", family.name, f"d{d}", seed), family.difficulty(d))


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


V2_DIGEST_DIFFICULTIES = (0, 2, 5, 9)  # the difficulties whose v2 bytes are compared
V2_DIGEST_SEEDS = range(1, 4)


def difficulty_digest(family: Family) -> str:
    """sha256 over (d, seed, prompt, answer) of v2 instances at ``V2_DIGEST_DIFFICULTIES``."""
    h = hashlib.sha256()
    for d in V2_DIGEST_DIFFICULTIES:
        for seed in V2_DIGEST_SEEDS:
            puzzle = make_at(family, d, seed)
            h.update(repr((d, seed, puzzle.prompt, puzzle.answer)).encode() + b"\n")
    return h.hexdigest()


def fresh_registry_digests() -> str:
    """JSON of ``{family: puzzle_digest over all its tiers}`` and ``{family/v2:
    difficulty_digest}`` for every registered family, built afresh (run in a child interpreter
    by ``registry_digests_under``)."""
    from ladderbench.puzzles.registry import FAMILIES

    digests = {}
    for name in FAMILIES.names():
        family = FAMILIES.get(name)
        digests[name] = puzzle_digest(family, sorted(family.tiers))
        digests[f"{name}/v2"] = difficulty_digest(family)
    return json.dumps(digests)


def registry_digests_under(hash_seed: str) -> dict[str, str]:
    """``fresh_registry_digests`` as a fresh interpreter whose ``PYTHONHASHSEED`` is
    ``hash_seed`` computes it: one child for all families."""
    code = "import family_checks\nprint(family_checks.fresh_registry_digests())\n"
    return json.loads(python_output(code, hash_seed=hash_seed, path=[Path(__file__).parent]))


# ---------------------------------------------------------------- prompts and answers


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
