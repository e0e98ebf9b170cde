"""The puzzle suite in-process: seeding, cell selection and its errors, items, settings, limits,
adaptive rounds, scoring and summaries (the CLI tests in test_suite*.py run in a child process)."""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import random
from typing import Any, ClassVar

import pytest

from helpers import make_row
from ladderbench.analysis.breaking import breaking_points
from ladderbench.errors import UserError
from ladderbench.items import Item
from ladderbench.puzzles.base import Family, Puzzle, instance_rng
from ladderbench.puzzles.registry import families, get_family
from ladderbench.puzzles.suite import (
    V2_CELLS,
    Cell,
    PuzzleConfig,
    PuzzleSuite,
    cells,
    generate,
    puzzle_suite,
    score_puzzle,
    secret_seed,
    summarise_puzzles,
)

ALL = sorted(families())


def digest(items: list[Item]) -> str:
    """The sha256 of every item's id, prompt, answer, reference and place, in order."""
    fields = ("id", "prompt", "expected", "reference", "family", "tier", "difficulty", "seed")
    records = [[getattr(item, f) for f in fields] for item in items]
    return hashlib.sha256(json.dumps(records).encode()).hexdigest()


# Small slices of the suites, pinned (the golden manifests pin the whole published suites, but take
# seconds): any change to how an instance is derived or generated changes one of these.
PINNED = {
    "v1 seeds 1-2": (
        dict(seeds=[1, 2]),
        "fffc2f2d8034ba5ace21ced858ac1d902e4b1d9a7ced4e2fa02776ff06a99aa3",
    ),
    "v2 seeds 1-2": (
        dict(seeds=[1, 2], version="2"),
        "7428b167323350552ea1cba9219271f6fc347f73b2f3574566f25abcbcecf8ac",
    ),
    "v1 secret": (
        dict(seeds=[1, 2], secret_key="k-1", tiers=[2, 3]),
        "fa9d1d502d98b3858bcb0b3b6aec18a1e10c80a621586e8eac2a119fa8b2115a",
    ),
    "v2 grid": (
        dict(seeds=[5], version="2", difficulties=[0, 2, 7]),
        "75c69346a63cd89bc9aa5c1e4062b5f5e4d74941a4523598fc109c6d6ffbda70",
    ),
    "v2 secret grid": (
        dict(seeds=[3], version="2", difficulties=[1], secret_key="k-2"),
        "7bcf8f163279bf721b6e8741da57e2485d471dd3c7133caca5e0913bade570c8",
    ),
}


@pytest.mark.parametrize("name", PINNED)
def test_a_slice_of_the_suite_regenerates_exactly(name):
    options, pinned = PINNED[name]
    assert digest(PuzzleSuite(**options).items()) == pinned


def test_the_instance_stream_is_a_sha256_of_version_family_rung_and_seed():
    key = hashlib.sha256(b"ladderbench-puzzles|2|sudoku|d3|7").digest()
    expected = random.Random(int.from_bytes(key, "big"))
    rng = instance_rng("2", "sudoku", "d3", 7)
    assert [rng.random() for _ in range(3)] == [expected.random() for _ in range(3)]


def test_a_secret_seed_is_the_first_8_bytes_of_an_hmac_of_the_place():
    mac = hmac.new(b"key", b"1|caesar|2|3", hashlib.sha256).digest()
    assert secret_seed("key", "1", "caesar", 2, 3) == int.from_bytes(mac[:8], "big")


def test_a_secret_instance_uses_the_derived_seed_and_records_the_index():
    cell = Cell("caesar", 2)
    secret = generate(cell, 3, "1", key="key")
    public = generate(cell, secret_seed("key", "1", "caesar", 2, 3), "1")
    assert secret.puzzle == public.puzzle and secret.seed == 3
    assert secret.id == "caesar/t2/k3" and public.id.startswith("caesar/t2/s")
    assert generate(cell, 3, "1").puzzle != secret.puzzle


def test_a_v2_instance_is_keyed_by_its_difficulty_and_built_at_that_config():
    family = get_family("sudoku")
    inst = generate(Cell("sudoku", 2, 3), 4, "2")
    assert inst.puzzle == family.generate(
        instance_rng("2", "sudoku", "d3", 4), family.difficulty(3)
    )
    assert inst.id == "sudoku/d3/s4" and inst.tier == 2 and inst.family == "sudoku"
    v1 = generate(Cell("sudoku", 3), 4, "1")
    assert v1.puzzle == family.generate(instance_rng("1", "sudoku", 3, 4), family.config(3))
    assert v1.id == "sudoku/t3/s4" and v1.tier == 3


def test_cells_in_tier_order_filtered_by_tier_and_family():
    chosen = cells([2, 3], ["sudoku", "caesar"])
    assert [c.label for c in chosen] == ["caesar/t2", "sudoku/t3"]
    assert [c.label for c in cells([6], version="2")] == ["text/d31", "automaton/d31"]
    assert [(c.tier, c.difficulty) for c in cells([6], version="2")] == [(6, 31), (6, 31)]
    assert len(cells()) == 24 and len(cells(version="2")) == 26
    edges = cells([0, 6], ["text", "grid_transform"])
    assert [c.label for c in edges] == ["text/t0", "grid_transform/t6"]


def test_a_difficulty_grid_is_every_family_at_every_difficulty_with_its_anchor_tier():
    grid = cells(names=["caesar", "text"], difficulties=[1, 2])
    assert [(c.label, c.tier) for c in grid] == [
        ("caesar/d1", 1), ("caesar/d2", None), ("text/d1", None), ("text/d2", None)
    ]  # fmt: skip
    assert [c.family for c in cells(difficulties=[0])] == ALL


@pytest.mark.parametrize(
    "tiers, names, message",
    [
        ([7], None, "--tiers: tier 7 is out of range 0-6"),
        ([-1], None, "--tiers: tier -1 is out of range 0-6"),
        (None, ["chess"], "--families: unknown family 'chess'; known: anagram, arithmetic, "),
        ([0], ["sudoku"], "no v1 puzzle cells for families sudoku at tiers 0"),
    ],
)
def test_a_bad_selection_names_the_flag(tiers, names, message):
    with pytest.raises(UserError) as raised:
        cells(tiers, names)
    assert str(raised.value).startswith(message)


def test_an_empty_selection_names_the_families_and_tiers_asked():
    with pytest.raises(UserError, match=r"^no v2 puzzle cells for families automaton at tiers 0$"):
        cells([0], ["automaton"], "2")
    with pytest.raises(UserError, match=r"families automaton,sudoku at tiers 0,1,5$"):
        cells([0, 1, 5], ["automaton", "sudoku"], "2")


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(version="7"), "--suite-version 7: not known; versions: 1, 2"),
        (dict(adaptive=True), "--adaptive needs --suite-version 2 (v1 has tiers only)"),
        (dict(difficulties=[1]), "--difficulties needs --suite-version 2 (v1 has tiers only)"),
        (dict(difficulties=[], version="1"), "--difficulties needs --suite-version 2"),
        (
            dict(version="2", adaptive=True, tiers=[1]),
            "--adaptive chooses difficulties itself: drop --tiers/--difficulties",
        ),
        (
            dict(version="2", adaptive=True, difficulties=[]),
            "--adaptive chooses difficulties itself",
        ),
        (
            dict(version="2", tiers=[1], difficulties=[2]),
            "--tiers and --difficulties are two selections: give one",
        ),
        (dict(version="2", tiers=[1], difficulties=[]), "--tiers and --difficulties are two"),
        (dict(limit=0), "--limit 0: must be at least 1"),
        (dict(version="2", adaptive=True, limit=3), "--adaptive chooses its instances itself"),
        (dict(version="2", difficulties=[2, -1]), "--difficulties: -1 is negative"),
        (dict(version="2", adaptive=True, names=["chess"]), "--families: unknown family 'chess'"),
    ],
)
def test_a_bad_suite_option_is_one_user_error(options, message):
    with pytest.raises(UserError) as raised:
        PuzzleSuite(**options)
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


def test_good_edge_options_are_accepted():
    assert PuzzleSuite(limit=1).limit == 1
    assert PuzzleSuite(version="2", difficulties=[0]).cells[0].difficulty == 0
    assert PuzzleSuite(version="2", adaptive=True, tiers=[]).adaptive
    assert PuzzleSuite(version="2", tiers=[], difficulties=[3]).difficulties == [3]


def test_defaults_are_v1_every_family_and_seeds_1_to_16():
    suite = PuzzleSuite()
    assert suite.version == "1" and suite.names == ALL and suite.seeds == list(range(1, 17))
    assert suite.secret_key is None and suite.limit is None and not suite.adaptive
    assert len(suite.selection()) == 24 * 16 == suite.planned_total()
    assert PuzzleSuite(seeds=[]).seeds == list(range(1, 17))


def test_every_cell_at_every_seed_in_cell_then_seed_order():
    suite = PuzzleSuite(tiers=[2], seeds=[4, 9], names=["caesar", "sequence"])
    assert [(c.label, s) for c, s in suite.selection()] == [
        ("sequence/t2", 4), ("sequence/t2", 9), ("caesar/t2", 4), ("caesar/t2", 9)
    ]  # fmt: skip


def test_an_item_carries_the_instance_and_its_reference_answer():
    (item,) = PuzzleSuite(version="2", difficulties=[3], seeds=[2], names=["caesar"]).items()
    inst = generate(Cell("caesar", None, 3), 2, "2")
    assert item == Item(
        id="caesar/d3/s2",
        prompt=inst.puzzle.prompt,
        expected=inst.puzzle.answer,
        reference=f"<answer>{inst.puzzle.answer}</answer>",
        family="caesar",
        tier=None,
        difficulty=3,
        seed=2,
    )
    assert score_puzzle(item, item.reference).passed


def test_a_limit_asks_each_tier_seed_by_seed_with_its_families_in_turn():
    suite = PuzzleSuite(tiers=[0, 2], seeds=[1, 2, 3], limit=5)
    assert [(c.label, s) for c, s in suite.selection()] == [
        ("text/t0", 1), ("text/t0", 2), ("text/t0", 3),
        ("arithmetic/t0", 1), ("arithmetic/t0", 2),
        ("arithmetic/t2", 1), ("arithmetic/t2", 2),
        ("sequence/t2", 1), ("caesar/t2", 1), ("anagram/t2", 1),
    ]  # fmt: skip
    assert suite.planned_total() == 10 and len(suite.items()) == 10
    assert len(PuzzleSuite(tiers=[0], seeds=[1, 2], limit=4).selection()) == 4
    assert len(PuzzleSuite(tiers=[0], seeds=[1, 2], limit=9).selection()) == 4


def test_a_limit_on_a_grid_counts_per_family_and_difficulty():
    suite = PuzzleSuite(
        version="2", difficulties=[1, 2], names=["caesar", "text"], seeds=[1, 2, 3], limit=2
    )
    assert [(c.label, s) for c, s in suite.selection()] == [
        ("caesar/d1", 1), ("caesar/d1", 2), ("caesar/d2", 1), ("caesar/d2", 2),
        ("text/d1", 1), ("text/d1", 2), ("text/d2", 1), ("text/d2", 2),
    ]  # fmt: skip
    v2_tiers = PuzzleSuite(version="2", tiers=[0], seeds=[1, 2], limit=3)
    assert [(c.label, s) for c, s in v2_tiers.selection()] == [
        ("text/d0", 1), ("arithmetic/d0", 1), ("sequence/d0", 1)
    ]  # fmt: skip


def test_settings_name_version_seed_set_seeds_and_cells():
    assert PuzzleSuite(tiers=[6], seeds=[1, 2, 3, 7]).settings() == {
        "suiteVersion": "1",
        "seedSet": "public",
        "seeds": "1-3,7",
        "cells": ["hidden_function/t6", "grid_transform/t6"],
    }
    limited = PuzzleSuite(version="2", tiers=[6], secret_key="k", limit=2).settings()
    assert limited == {
        "suiteVersion": "2",
        "seedSet": "secret",
        "seeds": "1-16",
        "limit": 2,
        "cells": ["text/d31", "automaton/d31"],
    }


def test_adaptive_settings_name_the_families_batch_and_budget():
    suite = PuzzleSuite(version="2", adaptive=True, names=["text", "caesar"], seeds=[1, 2])
    assert suite.settings() == {
        "suiteVersion": "2",
        "seedSet": "public",
        "seeds": "1-2",
        "adaptive": {"families": ["text", "caesar"], "batch": 4, "budgetPerFamily": 48},
    }
    assert suite.cells == [] and suite.items() == []
    anchored = sum(len(c) for c in V2_CELLS.values()) * 2
    assert suite.planned_total() == 2 * 48 + anchored
    assert PuzzleSuite(version="2", adaptive=True).planned_total() == 14 * 48 + 26 * 16


def test_a_run_with_all_items_up_front_has_no_next_round():
    assert PuzzleSuite(tiers=[0], seeds=[1]).next_round([]) is None


def answered(items: list[Item], passed: bool) -> list:
    return [
        make_row(
            item.id, suite="puzzles", family=item.family, difficulty=item.difficulty,
            seed=item.seed, tier=None, level=None, category=None, passed=passed,
        )
        for item in items
    ]  # fmt: skip


def test_an_adaptive_run_asks_every_family_at_difficulty_zero_then_climbs():
    suite = PuzzleSuite(version="2", adaptive=True, names=["caesar", "text"], seeds=[11, 12, 13])
    first = suite.next_round([])
    assert first is not None
    assert [i.id for i in first] == [
        f"{family}/d0/s{seed}" for family in ("caesar", "text") for seed in (11, 12, 13)
    ]
    assert (
        first[0]
        == PuzzleSuite(version="2", difficulties=[0], names=["caesar"], seeds=[11]).items()[0]
    )
    second = suite.next_round(answered(first, True))
    assert [i.id for i in second or []] == [
        f"{family}/d1/s{seed}" for family in ("caesar", "text") for seed in (11, 12, 13)
    ]
    third = suite.next_round(answered(first, True) + answered(second or [], True))
    assert {i.difficulty for i in third or []} == {3}


def test_adaptive_rows_of_other_seeds_or_without_a_difficulty_are_not_answers():
    suite = PuzzleSuite(version="2", adaptive=True, names=["caesar"], seeds=[11, 12])
    first = suite.next_round([])
    assert first
    stray = [
        make_row("x", suite="puzzles", family="caesar", difficulty=0, seed=99, level=None),
        make_row("y", suite="puzzles", family="caesar", difficulty=None, seed=11, level=None),
        make_row("z", suite="puzzles", family=None, difficulty=0, seed=11, level=None),
    ]
    assert [i.id for i in suite.next_round(stray) or []] == [i.id for i in first]


def test_score_puzzle_reads_normalises_and_explains():
    item = Item(id="s", prompt="", expected="7", reference="", family="arithmetic")
    right = score_puzzle(item, "<answer> 7 </answer>")
    assert (right.extracted, right.score, right.passed) == ("7", 1.0, True)
    assert right.explanation == "read 7; expected 7"
    wrong = score_puzzle(item, "<answer>8</answer>")
    assert (wrong.extracted, wrong.score, wrong.passed) == ("8", 0.0, False)
    assert wrong.explanation == "read 8; expected 7"
    none = score_puzzle(item, "no tags at all, nothing")
    assert (none.extracted, none.score, none.passed) == (None, 0.0, False)
    assert none.explanation == "read no answer; expected 7"
    unreadable = score_puzzle(item, "<answer>seven</answer>")
    assert (unreadable.extracted, unreadable.passed) == (None, False)
    assert unreadable.explanation == "read no answer; expected 7"


def grid_rows(seeds: int, cell_seeds: dict[tuple[str, int], int] | None = None) -> list:
    """Rows of every v2 anchor cell at ``seeds`` seeds (all passed but for d = 31)."""
    rows = []
    for members in V2_CELLS.values():
        for family, d in members:
            for seed in range(1, (cell_seeds or {}).get((family, d), seeds) + 1):
                rows.append(
                    make_row(
                        f"{family}/d{d}/s{seed}", suite="puzzles", family=family, difficulty=d,
                        seed=seed, tier=None, level=None, category=None, passed=d < 31,
                    )
                )  # fmt: skip
    return rows


def test_an_adaptive_summary_estimates_every_tier_from_the_fits():
    rows = grid_rows(3)
    summary = summarise_puzzles(rows, samples=1)
    points = breaking_points(rows, V2_CELLS, 16)
    assert summary.by_tier == {} and set(summary.by_family) == set(ALL)
    assert summary.tier_estimates is not None
    assert {t: e.model_dump(by_alias=True) for t, e in summary.tier_estimates.items()} == {
        t: e for t, e in points.tiers.items()
    }
    assert summary.ladder_level == points.ladder_level
    assert summary.by_difficulty is not None and summary.breaking_points is not None
    assert summary.by_difficulty["caesar"]["1"].n == 3
    assert set(summary.breaking_points) == set(ALL)
    assert summary.tier_estimates["6"].of == 32


def test_the_pool_is_the_most_seeds_asked_at_one_cell_at_least_16():
    rows = grid_rows(3, {("caesar", 1): 20})
    pooled = summarise_puzzles(rows, samples=1)
    assert pooled.tier_estimates is not None and pooled.tier_estimates["1"].of == 80
    assert pooled == summarise_puzzles(rows, samples=1, pool=20)
    assert summarise_puzzles(rows, samples=1, pool=16) != pooled


def test_a_suite_summary_pools_its_seeds_unless_limited():
    rows = grid_rows(3)
    full = PuzzleSuite(version="2", adaptive=True, seeds=list(range(1, 21)))
    estimates = full.summarise(rows, 1).tier_estimates
    assert estimates is not None and estimates["6"].of == 40
    limited = PuzzleSuite(version="2", difficulties=[0], seeds=list(range(1, 21)), limit=1)
    estimates = limited.summarise(rows, 1).tier_estimates
    assert estimates is not None and estimates["6"].of == 32


def test_a_tiered_summary_has_no_estimates_and_no_difficulty_breakdown_in_v1():
    v1 = [
        make_row(f"caesar/t2/s{s}", suite="puzzles", family="caesar", tier=2, seed=s, level=None)
        for s in (1, 2)
    ]
    summary = summarise_puzzles(v1, samples=1)
    assert summary.by_difficulty is None and summary.breaking_points is None
    assert summary.tier_estimates is None and summary.by_tier["2"].n == 2
    tiered = [r.model_copy(update={"difficulty": 1, "tier": 1}) for r in v1]
    summary = summarise_puzzles(tiered, samples=1)
    assert summary.by_difficulty is not None and summary.tier_estimates is None


def test_puzzle_suite_from_config_defaults_and_the_secret_from_the_environment(monkeypatch):
    monkeypatch.delenv("LADDERBENCH_SECRET", raising=False)
    suite = puzzle_suite(PuzzleConfig())
    assert suite.version == "1" and suite.secret_key is None and not suite.adaptive
    assert suite.seeds == list(range(1, 17)) and suite.limit is None
    monkeypatch.setenv("LADDERBENCH_SECRET", "from-env")
    assert puzzle_suite(PuzzleConfig()).secret_key == "from-env"
    assert puzzle_suite(PuzzleConfig(secret_key="given")).secret_key == "given"
    monkeypatch.setenv("LADDERBENCH_SECRET", "")
    assert puzzle_suite(PuzzleConfig(secret_key="")).secret_key is None
    built = puzzle_suite(
        PuzzleConfig(tiers=None, seeds=[3, 4], families=["text"], suite_version="2",
                     difficulties=[2], adaptive=None, limit=1)
    )  # fmt: skip
    assert [c.label for c in built.cells] == ["text/d2"] and built.seeds == [3, 4]
    assert built.version == "2" and built.limit == 1 and built.adaptive is False
    adaptive = puzzle_suite(PuzzleConfig(suite_version="2", adaptive=True, families=["text"]))
    assert adaptive.adaptive is True and adaptive.names == ["text"]
    tiered = puzzle_suite(PuzzleConfig(tiers=[6]))
    assert [c.label for c in tiered.cells] == ["hidden_function/t6", "grid_transform/t6"]


class Toy(Family):
    name = "toy"
    tiers: ClassVar[dict[int, Any]] = {1: "cfg"}

    def normalise(self, text: str) -> str | None:
        return text.strip() or None


def test_a_family_without_the_tier_says_which_it_has():
    assert Toy().config(1) == "cfg"
    with pytest.raises(ValueError, match=r"^toy has no tier 2; tiers: \[1\]$"):
        Toy().config(2)


def test_a_family_checks_the_normalised_reading():
    puzzle = Puzzle(prompt="p", answer="x")
    assert Toy().check(puzzle, " x ") is True
    assert Toy().check(puzzle, "y") is False
    assert Toy().check(puzzle, "   ") is False
    assert Toy().check(puzzle, None) is False
    assert Toy().matches("x", "x") and not Toy().matches("X", "x")


def test_the_base_family_leaves_generation_to_each_family():
    with pytest.raises(NotImplementedError):
        Family().generate(random.Random(0), None)
    with pytest.raises(NotImplementedError):
        Family().difficulty(0)
    with pytest.raises(NotImplementedError):
        Family().normalise("x")


def falls_at(d50: float, item: Item) -> bool:
    """A model whose pass rate falls logistically around ``d50``; each answer fixed by a hash."""
    assert item.difficulty is not None
    p = 1 / (1 + math.exp(-2 * (d50 - item.difficulty)))
    draw = hashlib.sha256(f"{item.family}|{item.difficulty}|{item.seed}".encode()).digest()
    return int.from_bytes(draw[:8], "big") / 2**64 < p


def test_once_the_searches_settle_an_adaptive_run_asks_a_tier_left_in_doubt():
    """A fall near d = 0 leaves tier 0 (four families at d = 0) in doubt after each family's
    search: its cells are asked at more instances than the search's one batch there."""
    tier_0 = V2_CELLS[0]
    suite = PuzzleSuite(version="2", adaptive=True, names=[f for f, _ in tier_0])
    rows: list = []
    while items := suite.next_round(rows):
        rows += [
            r.model_copy(update={"passed": falls_at(0.5, i)})
            for r, i in zip(answered(items, True), items)
        ]
    for family, d in tier_0:
        asked = [r for r in rows if (r.family, r.difficulty) == (family, d)]
        assert len(asked) > suite.search.batch, family
    assert len(rows) <= suite.planned_total()


def test_a_suite_grades_as_score_puzzle():
    suite = PuzzleSuite(tiers=[2], seeds=[1], names=["caesar"])
    (item,) = suite.items()
    assert suite.grade(item, item.reference) == score_puzzle(item, item.reference)
    assert suite.grade(item, item.reference).passed
    assert suite.grade(item, "<answer>nope</answer>") == score_puzzle(item, "<answer>nope</answer>")


@pytest.mark.parametrize("family", ["caesar", "text", "automaton", "knights_knaves"])
def test_a_reply_without_an_answer_fails_in_every_family(family):
    item = Item(id="x", prompt="", expected="a", reference="", family=family)
    verdict = score_puzzle(item, "<think>unfinished")
    assert (verdict.extracted, verdict.passed, verdict.score) == (None, False, 0.0)
    assert verdict.explanation == "read no answer; expected a"


def test_the_pool_counts_seeds_per_cell_not_across_cells():
    """caesar d1 asked at seeds 11-20 and text d0 at 1-10: 20 seeds seen, at most 10 at a cell."""
    ten = {("caesar", 1): 0, ("text", 0): 0}
    rows = [r for r in grid_rows(3) if (r.family, r.difficulty) not in ten]
    rows += [r for r in grid_rows(10) if (r.family, r.difficulty) == ("text", 0)]
    rows += [
        r.model_copy(update={"seed": 10 + (r.seed or 0)})
        for r in grid_rows(10)
        if (r.family, r.difficulty) == ("caesar", 1)
    ]
    pooled = summarise_puzzles(rows, samples=1)
    assert pooled == summarise_puzzles(rows, samples=1, pool=16)
    assert pooled.tier_estimates is not None and pooled.tier_estimates["1"].of == 64


def test_a_summary_records_the_samples_per_item():
    rows = [
        make_row("caesar/t2/s1", sample=s, suite="puzzles", family="caesar", tier=2, seed=1,
                 level=None)
        for s in (0, 1, 2)
    ]  # fmt: skip
    summary = summarise_puzzles(rows, samples=3)
    assert summary.samples == 3
    assert summary == PuzzleSuite(tiers=[2], names=["caesar"], seeds=[1]).summarise(rows, 3)
