"""The puzzle ladder as a suite: the v1 (family, tier) cells, public or secret seeds, exact match.

An instance is a pure function of (suite version, family, tier, seed). Public seeds are recorded
in every row; with a secret key, each instance's seed is an HMAC of the key and the instance's
place (family, tier, index), and rows record only the index: neither the key nor the derived
seed appears in any output.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ladderbench.analysis.summary import summarise
from ladderbench.errors import UserError
from ladderbench.grading.extract import extract_answer
from ladderbench.items import Item, ResultRow, Verdict
from ladderbench.puzzles import registry
from ladderbench.puzzles.base import Puzzle, instance_rng
from ladderbench.ranges import format_ranges
from ladderbench.suites import SUITES, SuiteSpec
from ladderbench.summaries import TierSummary

SUITE_VERSION = "1"
TIERS = range(7)
DEFAULT_SEEDS = range(1, 17)

# The v1 suite: which families stand on which tier (tier labels are hypotheses until calibrated).
V1_CELLS: dict[int, tuple[str, ...]] = {
    0: ("text", "arithmetic"),
    1: ("arithmetic", "text"),
    2: ("arithmetic", "sequence", "caesar", "anagram"),
    3: ("sudoku", "shortest_path", "knights_knaves", "register_vm", "weighted_ordering"),
    4: ("sudoku", "cryptarithm", "knights_knaves", "automaton"),
    5: ("sudoku", "cryptarithm", "automaton", "hidden_function", "grid_transform"),
    6: ("hidden_function", "grid_transform"),
}


@dataclass(frozen=True)
class Instance:
    family: str
    tier: int
    seed: int  # the public seed, or the index within the secret seed set
    puzzle: Puzzle
    secret: bool = False

    @property
    def id(self) -> str:
        return f"{self.family}/t{self.tier}/{'k' if self.secret else 's'}{self.seed}"


def secret_seed(key: str, version: str, family: str, tier: int, index: int) -> int:
    """An admission seed: unpredictable without the key, reproducible with it."""
    message = f"{version}|{family}|{tier}|{index}".encode()
    return int.from_bytes(hmac.new(key.encode(), message, hashlib.sha256).digest()[:8], "big")


def cells(tiers: list[int] | None = None, names: list[str] | None = None) -> list[tuple[str, int]]:
    """The selected v1 (family, tier) cells in tier order; a bad selection is a UserError."""
    for tier in tiers or []:
        if tier not in TIERS:
            raise UserError(f"--tiers: tier {tier} is out of range 0-6")
    known = registry.families()
    for name in names or []:
        if name not in known:
            raise UserError(
                f"--families: unknown family {name!r}; known: {', '.join(sorted(known))}"
            )
    chosen = [
        (family, tier)
        for tier, members in V1_CELLS.items()
        for family in members
        if (not tiers or tier in tiers) and (not names or family in names)
    ]
    if not chosen:
        raise UserError(
            f"no v1 puzzle cells for families {','.join(names or ['all'])} "
            f"at tiers {','.join(map(str, tiers or TIERS))}"
        )
    return chosen


def generate(
    family: str, tier: int, seed: int, version: str = SUITE_VERSION, key: str | None = None
) -> Instance:
    """One instance; with ``key``, ``seed`` is an index into the secret seed set."""
    real_seed = secret_seed(key, version, family, tier, seed) if key else seed
    chosen = registry.get_family(family)
    puzzle = chosen.generate(instance_rng(version, family, tier, real_seed), chosen.config(tier))
    return Instance(family, tier, seed, puzzle, secret=key is not None)


def score_puzzle(item: Item, response: str) -> Verdict:
    """The final answer, normalised the way ``item.family`` reads answers, matches
    ``item.expected`` (``Family.matches``: exact, but for forms the prompt accepts);
    ``extracted`` is the canonical reading."""
    family = registry.get_family(item.family or "")
    raw = extract_answer(response)
    reading = family.normalise(raw) if raw is not None else None
    passed = reading is not None and family.matches(reading, item.expected)
    read = reading if reading is not None else "no answer"
    return Verdict(
        extracted=reading,
        score=1.0 if passed else 0.0,
        passed=passed,
        explanation=f"read {read}; expected {item.expected}",
    )


def summarise_puzzles(rows: Iterable[ResultRow], samples: int) -> TierSummary:
    return TierSummary.model_validate(summarise(rows, rung="tier", group="family", samples=samples))


class PuzzleSuite:
    name = "puzzles"

    def __init__(
        self,
        tiers: list[int] | None = None,
        seeds: list[int] | None = None,
        names: list[str] | None = None,
        secret_key: str | None = None,
        version: str = SUITE_VERSION,
    ) -> None:
        if version != SUITE_VERSION:
            raise UserError(
                f"puzzle suite version {version!r} is not known; this is v{SUITE_VERSION}"
            )
        self.cells = cells(tiers, names)
        self.seeds = list(seeds) if seeds else list(DEFAULT_SEEDS)
        self.secret_key = secret_key
        self.version = version
        self.names = names

    def instances(self) -> list[Instance]:
        return [
            generate(family, tier, seed, self.version, self.secret_key)
            for family, tier in self.cells
            for seed in self.seeds
        ]

    def items(self) -> list[Item]:
        return [
            Item(
                id=inst.id,
                prompt=inst.puzzle.prompt,
                expected=inst.puzzle.answer,
                reference=f"<answer>{inst.puzzle.answer}</answer>",
                family=inst.family,
                tier=inst.tier,
                seed=inst.seed,
            )
            for inst in self.instances()
        ]

    def grade(self, item: Item, response: str) -> Verdict:
        return score_puzzle(item, response)

    def summarise(self, rows: Iterable[ResultRow], samples: int) -> TierSummary:
        return summarise_puzzles(rows, samples)

    def settings(self) -> dict[str, Any]:
        return {
            "suiteVersion": self.version,
            "seedSet": "secret" if self.secret_key else "public",
            "seeds": format_ranges(self.seeds),
            "cells": [f"{family}/t{tier}" for family, tier in self.cells],
        }


@dataclass(frozen=True)
class PuzzleConfig:
    """The puzzle ladder's options (named as the CLI flags)."""

    tiers: list[int] | None = None
    seeds: list[int] | None = None
    families: list[str] | None = None
    secret_key: str | None = None


def puzzle_suite(config: PuzzleConfig) -> PuzzleSuite:
    key = config.secret_key or os.environ.get("LADDERBENCH_SECRET") or None
    return PuzzleSuite(
        tiers=config.tiers, seeds=config.seeds, names=config.families, secret_key=key
    )


SUITES.add(
    "puzzles",
    SuiteSpec(
        name="puzzles",
        config=PuzzleConfig,
        build=puzzle_suite,
        summary=TierSummary,
        summarise=summarise_puzzles,
    ),
)
