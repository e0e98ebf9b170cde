"""Paired tests between models, cross-model analyses, and tier/level calibration."""

import pytest

from ladderbench.analysis.calibrate import (
    calibrate_levels,
    calibrate_tiers,
    class_of,
    load_classes,
    misplaced_items,
    suite_version,
)
from ladderbench.analysis.compare import (
    compare,
    mcnemar,
    paired_bootstrap,
    pearson_table,
    residuals,
)
from ladderbench.errors import UserError
from ladderbench.summaries import LevelSummary, TierSummary


def test_mcnemar_counts_discordant_pairs():
    a = {f"q{i}": 1.0 for i in range(20)}
    b = {f"q{i}": 1.0 if i < 5 else 0.0 for i in range(20)}
    a_only, b_only, p = mcnemar(a, b)
    assert (a_only, b_only) == (15, 0) and p < 0.001
    assert mcnemar(a, a)[2] == 1.0


def test_compare_picks_the_test_by_score_kind():
    a = {f"q{i}": 1.0 for i in range(10)}
    assert compare("a", a, "b", a, "static").method == "McNemar exact"
    partial = {f"q{i}": 0.5 for i in range(10)}
    test = compare("a", a, "b", partial, "live")
    assert (
        test.method == "paired bootstrap" and test.differ and test.difference == pytest.approx(0.5)
    )


def test_paired_bootstrap_interval_covers_the_mean():
    a = {f"q{i}": (i % 3) / 2 for i in range(60)}
    b = {f"q{i}": ((i + 1) % 3) / 2 for i in range(60)}
    mean, (lo, hi) = paired_bootstrap(a, b)
    assert lo <= mean <= hi


def test_pearson_and_residuals_need_three_models():
    scores = {"m1": {"x": 0.1, "y": 0.2}, "m2": {"x": 0.5, "y": 0.6}, "m3": {"x": 0.9, "y": 0.7}}
    table = pearson_table(scores)
    assert table["x"]["x"] == pytest.approx(1.0) and table["x"]["y"] > 0.9
    assert pearson_table({"m1": {"x": 0.1}, "m2": {"x": 0.2}})["x"]["x"] is None
    out = residuals(scores, {"m1": 0.15, "m2": 0.55, "m3": 0.8})
    assert set(out) == {"m1", "m2", "m3"} and set(out["m1"]) == {"over", "under"}


def bucket(rate, **extra):
    return {"n": 30, "passed": 0, "rate": rate, "ci95": [0, 1], "errors": 0, "unparsed": 0, **extra}


def summary(tiers_cleared):
    return TierSummary.model_validate(
        {"byTier": {str(t): bucket(float(c), cleared=c) for t, c in tiers_cleared.items()}}
    )


def test_tier_verdicts():
    verdicts = {
        v.tier: v.verdict
        for v in calibrate_tiers(
            {
                "baseline": [summary({0: False, 1: False, 2: False})],
                "tiny": [summary({0: True, 1: True, 2: False})],
                "small": [summary({0: True, 1: True, 2: True, 3: True})],
            }
        )
    }
    assert verdicts[0] == verdicts[1] == verdicts[2] == "verified"
    assert verdicts[3] == "unverified"  # no mid-class run
    contradicted = calibrate_tiers({"tiny": [summary({2: True})], "small": [summary({2: True})]})
    assert (
        contradicted[2].verdict == "contradicted" and "tiny model clears it" in contradicted[2].why
    )


def test_levels_and_misplaced_items():
    def s(rates):
        return LevelSummary.model_validate(
            {
                "adapter": "m",
                "model": "x",
                "byLevel": {str(k): bucket(r) for k, r in rates.items()},
            }
        )

    checks = calibrate_levels([s({1: 0.9, 2: 0.8, 3: 0.95})])
    assert [c.calibrated for c in checks] == [True, False]
    outcomes = [
        {"a": 1.0, "b": 0.0, "c": 1.0},
        {"a": 1.0, "b": 0.0, "c": 1.0},
        {"a": 1.0, "b": 0.0, "c": 0.0},
    ]
    flagged = misplaced_items(outcomes, {"a": 1, "b": 1, "c": 2})
    # level 1 averages 0.5 and level 2 0.67: b (level 1, nobody) reads as harder than level 2,
    # c (level 2, two of three) reads as easier than level 1
    assert flagged == [
        {"id": "b", "level": 1, "share": 0.0, "reads_as": "harder"},
        {"id": "c", "level": 2, "share": pytest.approx(2 / 3), "reads_as": "easier"},
    ]


def test_classes_file_errors(tmp_path):
    path = tmp_path / "classes.toml"
    path.write_text('[models]\nsmol = "gigantic"\n')
    with pytest.raises(UserError, match="classes are baseline, tiny"):
        load_classes(path)
    path.write_text("not = [toml")
    with pytest.raises(UserError, match="not valid TOML"):
        load_classes(path)
    path.write_text('[models]\nsmol = "tiny"\n')
    assert load_classes(path) == {"smol": "tiny"}


def test_v2_reads_tier_0_as_the_small_class_floor():
    runs = {
        "baseline": [summary({t: False for t in range(7)})],
        "tiny": [summary({t: False for t in range(7)})],
        "frontier": [summary({t: t < 6 for t in range(7)})],
    }
    v1 = {v.tier: (v.claimed, v.verdict) for v in calibrate_tiers(runs, "1")}
    v2 = {v.tier: (v.claimed, v.verdict) for v in calibrate_tiers(runs, "2")}
    assert v1[0] == ("tiny", "contradicted")  # the tiny model fails what v1 calls tiny
    assert v2[0] == ("small", "unverified") and v2[1] == ("small", "unverified")
    assert v2[5] == ("frontier", "unverified") and v2[6] == (None, "verified")
    with pytest.raises(UserError, match="v9"):
        calibrate_tiers(runs, "9")


def test_a_run_is_classed_by_adapter_and_model_first_then_by_model_alone():
    run = TierSummary.model_validate({"adapter": "openai", "model": "smol", "byTier": {}})
    assert class_of(run, {"openai:smol": "tiny", "smol": "small"}) == "tiny"
    assert class_of(run, {"llama:smol": "mid", "smol": "small"}) == "small"
    assert class_of(run, {"llama:smol": "mid"}) is None
    echo = TierSummary.model_validate({"adapter": "echo", "model": "echo", "byTier": {}})
    assert class_of(echo, {"echo": "baseline"}) == "baseline"


def test_the_suite_version_of_a_run_is_read_from_its_settings_and_v1_without_one():
    def run(settings):
        return TierSummary.model_validate({"settings": settings, "byTier": {}})

    assert suite_version(run({"suiteVersion": "2"})) == "2"
    assert suite_version(run({"suiteVersion": 2})) == "2"
    assert suite_version(run({"seeds": [1]})) == "1"
    assert suite_version(run(None)) == "1"
