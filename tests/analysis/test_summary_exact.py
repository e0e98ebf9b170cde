"""The summary row and the calibration verdicts, field by field (issue #20: the mutants of
analysis/ that the suite let through were fields and boundaries no test read exactly)."""

from __future__ import annotations

import pytest

from helpers import make_row, tier_rows
from ladderbench.analysis.calibrate import (
    calibrate_levels,
    calibrate_tiers,
    load_classes,
    misplaced_items,
)
from ladderbench.analysis.stats import pass_at_k, wilson
from ladderbench.analysis.summary import RULE, summarise
from ladderbench.errors import UserError
from ladderbench.summaries import LevelSummary, TierSummary


def static_row(id, level, passed=True, sample=0, **extra):
    score = None if passed is None else float(passed)
    return make_row(id, sample=sample, level=level, passed=passed, score=score, **extra)


def test_the_summary_row_field_by_field():
    rows = [
        static_row("a", 1),
        static_row("b", 1, passed=False, extracted=None, category="logic"),
        static_row("c", 2, error="HTTP 500", passed=None),
        static_row("c", 2, sample=1, error="HTTP 500", passed=None),
    ]
    out = summarise(rows, rung="level", group="category", baseline=0.25, extra={"x": 1})
    by_level, by_category = out.pop("byLevel"), out.pop("byCategory")
    assert out == {
        "run": "r1",
        "suite": "static",
        "adapter": "oracle",
        "model": "oracle",
        "total": 4,
        "n": 2,
        "passed": 1,
        "rate": 0.5,
        "ci95": list(wilson(1, 2)),
        "errors": 2,  # both errored attempts, counted apart
        "unparsed": 1,
        "samples": 1,  # one sample: no pass@k
        "baseline": 0.25,
        "flags": [],
        "notes": [
            "overall 50.0% is within noise of the 25% guessing baseline: differences between "
            "rungs say little"
        ],
        "rule": RULE,
        "x": 1,
    }
    assert list(by_level) == ["1", "2"]
    assert by_level["2"] == {
        "n": 0, "passed": 0, "rate": None, "ci95": [0.0, 1.0], "errors": 2, "unparsed": 0
    }  # fmt: skip
    assert {k: v["n"] for k, v in by_category.items()} == {"logic": 1, "math": 1}


def test_a_summary_of_nothing_names_nothing():
    out = summarise([], rung="tier", group="family")
    assert (out["run"], out["suite"], out["adapter"], out["model"]) == (None, None, None, None)
    assert out["total"] == 0 and out["rate"] is None and out["ladderLevel"] is None


def test_several_samples_average_per_item_and_add_pass_at_k():
    rows = [
        static_row("a", 1, passed=True, sample=0),
        static_row("a", 1, passed=False, sample=1),
        static_row("b", 1, passed=True, sample=0),
        static_row("b", 1, passed=True, sample=1),
    ]
    out = summarise(rows, rung="level", group="category", samples=2)
    assert out["passed"] == 1.5 and out["rate"] == 0.75  # not rounded: items have 2 samples
    assert out["pass@2"] == pytest.approx((pass_at_k(2, 1, 2) + pass_at_k(2, 2, 2)) / 2)
    assert out["byLevel"]["1"]["pass@2"] == out["pass@2"]
    short = summarise(rows[:1], rung="level", group="category", samples=2)
    assert short["pass@2"] is None  # no item has both samples yet


def test_rungs_sort_as_numbers_and_rises_are_read_between_neighbours():
    rows = tier_rows(2, 10, 10) + tier_rows(10, 0, 10) + tier_rows(9, 0, 10)
    out = summarise(rows, rung="tier", group="family")
    assert list(out["byTier"]) == ["2", "9", "10"]
    assert out["ladderLevel"] == 2 and out["flags"] == [] and out["notes"] == []


@pytest.mark.parametrize(
    "lower, upper, flags, notes",
    [
        ((20, 20), (20, 20), 0, 0),  # level: no rise, no note
        ((1, 10), (2, 10), 0, 1),  # exactly 10 points: within noise
        ((90, 200), (91, 200), 0, 1),  # half a point still rises
        ((8, 20), (11, 20), 1, 0),  # 15 points: flagged
    ],
)
def test_rises_between_rungs(lower, upper, flags, notes):
    rows = [
        static_row(f"{level}-{i}", level, passed=i < passed)
        for level, (passed, n) in ((1, lower), (2, upper))
        for i in range(n)
    ]
    out = summarise(rows, rung="level", group="category")
    assert (len(out["flags"]), len(out["notes"])) == (flags, notes)


def test_a_rung_with_nothing_scored_is_skipped_not_the_end_of_the_reading():
    rows = [
        static_row("e", 1, error="HTTP 500", passed=None),
        *(static_row(f"2-{i}", 2, passed=i < 5) for i in range(20)),
        *(static_row(f"3-{i}", 3, passed=True) for i in range(20)),
    ]
    out = summarise(rows, rung="level", group="category")
    assert out["flags"] == ["level 3 above level 2 by 75 points: too few samples or a "
                            "miscalibrated level"]  # fmt: skip


def tiers(clears):
    bucket = {"n": 30, "passed": 0, "ci95": [0, 1], "errors": 0, "unparsed": 0}
    return TierSummary.model_validate(
        {"byTier": {str(t): {**bucket, "rate": float(c), "cleared": c} for t, c in clears.items()}}
    )


def test_tier_verdicts_say_why():
    verdicts = {
        v.tier: (v.claimed, v.verdict, v.why)
        for v in calibrate_tiers(
            {
                "baseline": [tiers({0: False, 1: False})],
                "tiny": [tiers({0: False, 1: True, 2: True})],
                "small": [tiers({2: True, 3: False})],
                "mid": [tiers({3: True, 4: False})],
                "strong": [tiers({4: True, 5: False})],
                "frontier": [tiers({5: True, 6: True})],
            }
        )
    }
    assert verdicts == {
        0: ("tiny", "contradicted", "a tiny model fails it"),
        1: ("tiny", "verified", "tiny clears it, baseline fails it"),
        2: ("small", "contradicted", "a tiny model clears it"),
        3: ("mid", "verified", "mid clears it, small fails it"),
        4: ("strong", "verified", "strong clears it, mid fails it"),
        5: ("frontier", "verified", "frontier clears it, strong fails it"),
        6: (None, "contradicted", "a frontier model clears it"),
    }
    none = calibrate_tiers({})
    assert none[3].why == "no runs of mid, small"
    beyond = calibrate_tiers({"frontier": [tiers({6: False})]})
    assert (beyond[6].verdict, beyond[6].why) == ("verified", "frontier fails it")


def levels(model, rates):
    bucket = {"n": 30, "passed": 0, "ci95": [0, 1], "errors": 0, "unparsed": 0}
    return LevelSummary.model_validate(
        {
            "adapter": "a",
            "model": model,
            "byLevel": {str(k): {**bucket, "rate": r} for k, r in rates.items()},
        }
    )


def test_level_checks_read_each_model_and_the_noise_boundary():
    checks = calibrate_levels(
        [
            levels("m", {1: 0.5, 2: 0.6, 3: 0.75}),  # +10 (noise), then +15
            levels("n", {1: 0.5, 3: 0.9}),  # no level 2: nothing to compare there
        ]
    )
    assert [(c.level, c.calibrated, c.rises) for c in checks] == [
        (2, True, []),
        (3, False, ["a:m +15 points"]),
    ]


def test_misplaced_items_at_the_boundaries():
    # an item answered by exactly half of a model's attempts counts as answered
    outcomes = [{"a": 0.5, "b": 1.0}, {"a": 0.5, "b": 1.0}, {"a": 0.5, "b": 1.0}]
    assert misplaced_items(outcomes, {"a": 1, "b": 2}) == []  # level 2 as easy: not "easier"
    assert misplaced_items(outcomes, {"a": 2, "b": 1}) == []  # and not "harder"


def test_classes_file_read_as_utf8_and_top_level_tables(tmp_path):
    path = tmp_path / "classes.toml"
    path.write_bytes('"modèle" = "tiny"\n'.encode())
    assert load_classes(path) == {"modèle": "tiny"}
    with pytest.raises(UserError, match=r"--classes .*: cannot read \(No such file"):
        load_classes(tmp_path / "missing.toml")


def test_pass_at_k_and_wilson_edges():
    with pytest.raises(ValueError, match="0 <= c <= n and k >= 1, got n=3 c=4 k=1"):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError, match="k <= n, got n=3 k=4"):
        pass_at_k(3, 1, 4)
    assert pass_at_k(5, 1, 3) == pytest.approx(0.6)
    assert wilson(10 + 1e-9, 10) == wilson(10, 10)  # rounding dust above n is clamped
    assert wilson(2.5, 3)[1] <= 1.0


def test_unparsed_counts_every_unparsed_attempt():
    rows = [
        static_row("a", 1, passed=False, extracted=None),
        static_row("a", 1, passed=False, extracted=None, sample=1),
        static_row("b", 1, sample=0),
        static_row("b", 1, sample=1),
        static_row("c", 1, sample=0),
    ]
    assert summarise(rows, rung="level", group="category", samples=2)["unparsed"] == 2


@pytest.mark.parametrize("passed, baseline", [(0, 0.0), (10, 1.0)])
def test_a_baseline_on_the_interval_edge_is_within_noise(passed, baseline):
    rows = [static_row(f"q{i}", 1, passed=i < passed) for i in range(10)]
    out = summarise(rows, rung="level", group="category", baseline=baseline)
    assert out["notes"] == [
        f"overall {100 * passed / 10:.1f}% is within noise of the {100 * baseline:.0f}% guessing "
        "baseline: differences between rungs say little"
    ]


def test_a_level_rise_of_exactly_the_noise_points_is_calibrated():
    checks = calibrate_levels([levels("m", {1: 0.0, 2: 0.1})])
    assert [(c.calibrated, c.rises) for c in checks] == [(True, [])]
