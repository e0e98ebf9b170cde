"""The puzzle ladder as a suite: tiers of (family, rung) cells, public or secret seeds, exact match.

Two suite versions. In v1 a cell is (family, tier) and the tier picks the family's config; its
instances are frozen (golden manifest). From v2 on a cell is (family, difficulty ``d``): tiers are
named anchors on each family's open-ended difficulty, placed by calibration evidence
(``calibration/``), and a run may instead walk a grid of difficulties (``--difficulties``) or
search each family's breaking point (``--adaptive``, ``puzzles/adaptive.py``).

An instance is a pure function of (suite version, family, rung, seed). Public seeds are recorded
in every row; with a secret key, each instance's seed is an HMAC of the key and the instance's
place (family, rung, index), and rows record only the index: neither the key nor the derived
seed appears in any output.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ladderbench.analysis.breaking import breaking_points
from ladderbench.analysis.summary import summarise
from ladderbench.errors import UserError
from ladderbench.grading.extract import extract_answer
from ladderbench.items import Item, ResultRow, Verdict
from ladderbench.puzzles import registry
from ladderbench.puzzles.adaptive import Answer, SearchConfig, next_round
from ladderbench.puzzles.base import Puzzle, instance_rng
from ladderbench.ranges import format_ranges
from ladderbench.suites import SUITES, SuiteSpec
from ladderbench.summaries import BreakingPoint, Bucket, TierEstimate, TierSummary

SUITE_VERSIONS = ("1", "2")
SUITE_VERSION = "1"  # the default
TIERS = range(7)
DEFAULT_SEEDS = range(1, 17)

# The v1 suite: which families stand on which tier (v1's labels were hypotheses; see
# calibration/v1-pilot: a frontier model clears all of it).
V1_CELLS: dict[int, tuple[str, ...]] = {
    0: ("text", "arithmetic"),
    1: ("arithmetic", "text"),
    2: ("arithmetic", "sequence", "caesar", "anagram"),
    3: ("sudoku", "shortest_path", "knights_knaves", "register_vm", "weighted_ordering"),
    4: ("sudoku", "cryptarithm", "knights_knaves", "automaton"),
    5: ("sudoku", "cryptarithm", "automaton", "hidden_function", "grid_transform"),
    6: ("hidden_function", "grid_transform"),
}

# The v2 suite: each tier's (family, difficulty) anchors, placed by the tuning runs in
# calibration/v2 (seeds 101-116: the frontier model's adaptive search cleared d = 15 in every family
# and failed only text and automaton at d = 31; the tiny model cleared no cell) and reported on
# seeds 201-205 (README there). Tiers 0-5 stand on d = 0, 1, 3, 5, 7, 15; tier 6 on the only cells
# the frontier model failed. Tier 5 first stood on text 15 and automaton 15 too; a first report
# found them at the frontier's edge (3 of 10 failed), so it stands on families the frontier also
# passed at d = 31.
V2_CELLS: dict[int, tuple[tuple[str, int], ...]] = {
    0: (("text", 0), ("arithmetic", 0), ("sequence", 0), ("anagram", 0)),
    1: (("caesar", 1), ("weighted_ordering", 1), ("shortest_path", 1), ("grid_transform", 1)),
    2: (("hidden_function", 3), ("sudoku", 3), ("knights_knaves", 3), ("register_vm", 3)),
    3: (("arithmetic", 5), ("caesar", 5), ("cryptarithm", 5), ("grid_transform", 5)),
    4: (("sudoku", 7), ("hidden_function", 7), ("shortest_path", 7), ("weighted_ordering", 7)),
    5: (("register_vm", 15), ("knights_knaves", 15), ("cryptarithm", 15), ("caesar", 15)),
    6: (("text", 31), ("automaton", 31)),
}


@dataclass(frozen=True)
class Cell:
    """A family at one rung: a v1 tier, or a v2 difficulty (and the tier it anchors, if any)."""

    family: str
    tier: int | None
    difficulty: int | None = None

    @property
    def rung(self) -> int | str:
        """What an instance's rng is keyed by: the v1 tier, or ``d<difficulty>``."""
        if self.difficulty is None:
            assert self.tier is not None
            return self.tier
        return f"d{self.difficulty}"

    @property
    def label(self) -> str:
        return f"{self.family}/{'t' if self.difficulty is None else ''}{self.rung}"


def anchor_tiers() -> dict[tuple[str, int], int]:
    """(family, difficulty) -> the v2 tier it anchors."""
    return {cell: tier for tier, cells in V2_CELLS.items() for cell in cells}


@dataclass(frozen=True)
class Instance:
    cell: Cell
    seed: int  # the public seed, or the index within the secret seed set
    puzzle: Puzzle
    secret: bool = False

    @property
    def family(self) -> str:
        return self.cell.family

    @property
    def tier(self) -> int | None:
        return self.cell.tier

    @property
    def id(self) -> str:
        return f"{self.cell.label}/{'k' if self.secret else 's'}{self.seed}"


def secret_seed(key: str, version: str, family: str, rung: int | str, index: int) -> int:
    """An admission seed: unpredictable without the key, reproducible with it."""
    message = f"{version}|{family}|{rung}|{index}".encode()
    return int.from_bytes(hmac.new(key.encode(), message, hashlib.sha256).digest()[:8], "big")


def _check_selection(tiers: list[int] | None, names: list[str] | None) -> None:
    for tier in tiers or []:
        if tier not in TIERS:
            raise UserError(f"--tiers: tier {tier} is out of range 0-6")
    known = registry.families()
    for name in names or []:
        if name not in known:
            raise UserError(
                f"--families: unknown family {name!r}; known: {', '.join(sorted(known))}"
            )


def cells(
    tiers: list[int] | None = None,
    names: list[str] | None = None,
    version: str = SUITE_VERSION,
    difficulties: list[int] | None = None,
) -> list[Cell]:
    """The selected cells in tier (or difficulty) order; a bad selection is a UserError."""
    _check_selection(tiers, names)
    if difficulties is not None:
        anchors = anchor_tiers()
        chosen_names = names or sorted(registry.families())
        return [
            Cell(family, anchors.get((family, d)), d)
            for family in chosen_names
            for d in difficulties
        ]
    table: Mapping[int, Sequence[tuple[str, int | None]]] = (
        {t: [(f, None) for f in fs] for t, fs in V1_CELLS.items()} if version == "1" else V2_CELLS
    )
    chosen = [
        Cell(family, tier, d)
        for tier, members in table.items()
        for family, d in members
        if (not tiers or tier in tiers) and (not names or family in names)
    ]
    if not chosen:
        raise UserError(
            f"no v{version} puzzle cells for families {','.join(names or ['all'])} "
            f"at tiers {','.join(map(str, tiers or TIERS))}"
        )
    return chosen


def generate(
    cell: Cell, seed: int, version: str = SUITE_VERSION, key: str | None = None
) -> Instance:
    """One instance; with ``key``, ``seed`` is an index into the secret seed set."""
    real_seed = secret_seed(key, version, cell.family, cell.rung, seed) if key else seed
    family = registry.get_family(cell.family)
    if cell.difficulty is None:
        assert cell.tier is not None
        cfg = family.config(cell.tier)
    else:
        cfg = family.difficulty(cell.difficulty)
    puzzle = family.generate(instance_rng(version, cell.family, cell.rung, real_seed), cfg)
    return Instance(cell, seed, puzzle, secret=key is not None)


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


def summarise_puzzles(
    rows: Iterable[ResultRow], samples: int, pool: int | None = None
) -> TierSummary:
    """Per tier and per family; rows with difficulties add pass rates per difficulty and each
    family's breaking point, and without tiers (an adaptive run) a ladder level from the fits.

    ``pool`` is the number of seeds per cell the run drew from (for a run cut short, read from
    its rows: the most seeds asked at one cell, at least the default 16).
    """
    rows = list(rows)
    if pool is None:
        seen: dict[tuple[str | None, int | None], set[int | None]] = {}
        for row in rows:
            seen.setdefault((row.family, row.difficulty), set()).add(row.seed)
        pool = max([len(DEFAULT_SEEDS), *map(len, seen.values())])
    summary = TierSummary.model_validate(
        summarise(rows, rung="tier", group="family", samples=samples)
    )
    if any(row.difficulty is not None for row in rows):
        points = breaking_points(rows, V2_CELLS, pool)
        summary.by_difficulty = {
            family: {d: Bucket.model_validate(b) for d, b in per_d.items()}
            for family, per_d in points.by_difficulty.items()
        }
        summary.breaking_points = {
            family: BreakingPoint.model_validate(curve) for family, curve in points.curves.items()
        }
        if not summary.by_tier:
            summary.tier_estimates = {
                tier: TierEstimate.model_validate(e) for tier, e in points.tiers.items()
            }
            summary.ladder_level = points.ladder_level
    return summary


class PuzzleSuite:
    name = "puzzles"

    def __init__(
        self,
        tiers: list[int] | None = None,
        seeds: list[int] | None = None,
        names: list[str] | None = None,
        secret_key: str | None = None,
        version: str = SUITE_VERSION,
        difficulties: list[int] | None = None,
        adaptive: bool = False,
        limit: int | None = None,
    ) -> None:
        if version not in SUITE_VERSIONS:
            raise UserError(
                f"--suite-version {version}: not known; versions: {', '.join(SUITE_VERSIONS)}"
            )
        if version == "1" and (difficulties is not None or adaptive):
            flag = "--adaptive" if adaptive else "--difficulties"
            raise UserError(f"{flag} needs --suite-version 2 (v1 has tiers only)")
        if adaptive and (difficulties is not None or tiers):
            raise UserError("--adaptive chooses difficulties itself: drop --tiers/--difficulties")
        if tiers and difficulties is not None:
            raise UserError("--tiers and --difficulties are two selections: give one")
        if limit is not None and (limit < 1 or adaptive):
            raise UserError(
                "--adaptive chooses its instances itself: drop --limit"
                if adaptive
                else f"--limit {limit}: must be at least 1"
            )
        for d in difficulties or []:
            if d < 0:
                raise UserError(f"--difficulties: {d} is negative")
        self.version = version
        self.adaptive = adaptive
        self.difficulties = difficulties
        self.cells = [] if adaptive else cells(tiers, names, version, difficulties)
        _check_selection(None, names)
        self.names = names or sorted(registry.families())
        self.seeds = list(seeds) if seeds else list(DEFAULT_SEEDS)
        self.secret_key = secret_key
        self.limit = limit
        self.search = SearchConfig()

    def instance(self, cell: Cell, seed: int) -> Instance:
        return generate(cell, seed, self.version, self.secret_key)

    def selection(self) -> list[tuple[Cell, int]]:
        """Every cell at every seed; with ``limit``, at most that many per rung (a tier, or in
        a difficulty grid one family at one difficulty), seed by seed with its families in turn,
        so a limited tier still asks every family."""
        if self.limit is None:
            return [(cell, seed) for cell in self.cells for seed in self.seeds]
        rungs: dict[object, list[Cell]] = {}
        for cell in self.cells:
            rung = cell.tier if self.difficulties is None else (cell.family, cell.difficulty)
            rungs.setdefault(rung, []).append(cell)
        chosen = {
            pair
            for members in rungs.values()
            for pair in [(cell, seed) for seed in self.seeds for cell in members][: self.limit]
        }
        return [
            (cell, seed) for cell in self.cells for seed in self.seeds if (cell, seed) in chosen
        ]

    def instances(self) -> list[Instance]:
        return [self.instance(cell, seed) for cell, seed in self.selection()]

    def _item(self, inst: Instance) -> Item:
        return Item(
            id=inst.id,
            prompt=inst.puzzle.prompt,
            expected=inst.puzzle.answer,
            reference=f"<answer>{inst.puzzle.answer}</answer>",
            family=inst.family,
            tier=inst.tier,
            difficulty=inst.cell.difficulty,
            seed=inst.seed,
        )

    def items(self) -> list[Item]:
        """Every item of a full run (an adaptive run has none up front: see ``next_round``)."""
        return [self._item(inst) for inst in self.instances()]

    def next_round(self, rows: Sequence[ResultRow]) -> list[Item] | None:
        """An adaptive run's next items given the rows of its earlier rounds ([] when done);
        None for a run whose items are all known up front."""
        if not self.adaptive:
            return None
        index = {seed: i for i, seed in enumerate(self.seeds)}
        answers: list[Answer] = [
            (row.family, row.difficulty, index[row.seed], row.passed)
            for row in rows
            if row.family and row.difficulty is not None and row.seed in index
        ]
        asks = next_round(self.names, answers, len(self.seeds), self.search, V2_CELLS)
        return [
            self._item(self.instance(Cell(family, None, d), self.seeds[i])) for family, d, i in asks
        ]

    def planned_total(self) -> int:
        """How many attempts a run makes at most (an adaptive run: its budget)."""
        if self.adaptive:
            anchored = sum(len(c) for c in V2_CELLS.values()) * len(self.seeds)
            return len(self.names) * self.search.budget + anchored
        return len(self.selection())

    def grade(self, item: Item, response: str) -> Verdict:
        return score_puzzle(item, response)

    def summarise(self, rows: Iterable[ResultRow], samples: int) -> TierSummary:
        return summarise_puzzles(rows, samples, pool=None if self.limit else len(self.seeds))

    def settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = {
            "suiteVersion": self.version,
            "seedSet": "secret" if self.secret_key else "public",
            "seeds": format_ranges(self.seeds),
        }
        if self.limit is not None:
            settings["limit"] = self.limit
        if self.adaptive:
            settings["adaptive"] = {
                "families": self.names,
                "batch": self.search.batch,
                "budgetPerFamily": self.search.budget,
            }
        else:
            settings["cells"] = [cell.label for cell in self.cells]
        return settings


@dataclass(frozen=True)
class PuzzleConfig:
    """The puzzle ladder's options (named as the CLI flags)."""

    tiers: list[int] | None = None
    seeds: list[int] | None = None
    families: list[str] | None = None
    secret_key: str | None = None
    suite_version: str | None = None
    difficulties: list[int] | None = None
    adaptive: bool | None = None
    limit: int | None = None


def puzzle_suite(config: PuzzleConfig) -> PuzzleSuite:
    key = config.secret_key or os.environ.get("LADDERBENCH_SECRET") or None
    return PuzzleSuite(
        tiers=config.tiers,
        seeds=config.seeds,
        names=config.families,
        secret_key=key,
        version=config.suite_version or SUITE_VERSION,
        difficulties=config.difficulties,
        adaptive=bool(config.adaptive),
        limit=config.limit,
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
