import pytest

from helpers import make_row
from ladderbench.analysis.summary import summarise


def rows_for(rates: dict[int, tuple[int, int]], rung="level"):
    rows = []
    for rung_value, (passed, n) in rates.items():
        for i in range(n):
            ok = i < passed
            rows.append(
                make_row(
                    f"{rung_value}-{i}",
                    passed=ok,
                    score=float(ok),
                    extracted="A" if ok else "B",
                    **{rung: rung_value, "level": rung_value if rung == "level" else None},
                    family="f" if rung == "tier" else None,
                )
            )
    return rows


def test_per_level_counts_and_interval():
    s = summarise(rows_for({1: (30, 30), 2: (15, 30)}), rung="level", group="category")
    assert s["byLevel"]["1"]["passed"] == 30 and s["byLevel"]["2"]["rate"] == 0.5
    assert s["total"] == 60 and s["passed"] == 45
    lo, hi = s["byLevel"]["2"]["ci95"]
    assert lo < 0.5 < hi
    assert s["flags"] == [] and s["notes"] == []


def test_level_above_lower_level_is_flagged_or_called_noise():
    s = summarise(rows_for({4: (10, 30), 5: (20, 30)}), rung="level", group="category")
    assert s["flags"] == [
        "level 5 above level 4 by 33 points: too few samples or a miscalibrated level"
    ]
    s = summarise(rows_for({4: (10, 30), 5: (12, 30)}), rung="level", group="category")
    assert s["flags"] == [] and "within noise" in s["notes"][0] and "3.3 points" in s["notes"][0]


def test_errors_are_not_scored():
    rows = rows_for({1: (1, 2)})
    rows.append(
        make_row("err", level=1, response=None, extracted=None, score=None, passed=None, error="x")
    )
    s = summarise(rows, rung="level", group="category")
    assert s["byLevel"]["1"]["n"] == 2 and s["byLevel"]["1"]["errors"] == 1
    assert s["rate"] == 0.5


def test_unparsed_is_counted_apart():
    rows = [make_row("a", extracted=None, passed=False, score=0.0), make_row("b")]
    s = summarise(rows, rung="level", group="category")
    assert s["unparsed"] == 1 and s["passed"] == 1


def test_tiers_cleared_and_ladder_level():
    s = summarise(
        rows_for({0: (10, 10), 1: (9, 10), 2: (5, 10), 3: (10, 10)}, rung="tier"),
        rung="tier",
        group="family",
    )
    assert [s["byTier"][k]["cleared"] for k in "0123"] == [True, True, False, True]
    assert s["ladderLevel"] == 3
    assert "tier 3 cleared above failed tier 2" in s["flags"]


def test_samples_give_mean_pass1_and_pass_at_k():
    rows = [make_row("a", sample=i, passed=i == 0, score=float(i == 0)) for i in range(3)]
    rows += [make_row("b", sample=i) for i in range(3)]
    s = summarise(rows, rung="level", group="category", samples=3)
    assert s["rate"] == pytest.approx((1 / 3 + 1) / 2)
    assert s["pass@3"] == 1.0


def test_a_model_at_the_guessing_baseline_is_called_out():
    s = summarise(rows_for({1: (7, 30), 2: (8, 30)}), rung="level", group="category", baseline=0.25)
    assert any("within noise of the 25% guessing baseline" in n for n in s["notes"])
    s = summarise(
        rows_for({1: (29, 30), 2: (28, 30)}), rung="level", group="category", baseline=0.25
    )
    assert not any("guessing baseline" in n for n in s["notes"])
