"""Breaking points: the grid posterior over (d50, slope) and what it says about a family."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from ladderbench.analysis.breaking import Posterior, breaking_points, fit, tally, tier_estimate
from ladderbench.items import ResultRow


def test_a_clean_fall_puts_the_crossing_in_the_gap_and_clears_below_it():
    curve = fit({0: (4, 4), 1: (4, 4), 3: (4, 4), 4: (8, 8), 5: (8, 0), 7: (4, 0)})
    assert 4.0 <= curve.d50_ci[0] <= curve.d50 <= curve.d50_ci[1] <= 5.0
    assert curve.cleared == 4 and curve.cleared_ci[1] == 4
    assert curve.tested == (0, 7) and curve.calls == 32


def test_a_model_that_fails_the_easiest_rung_clears_nothing():
    curve = fit({0: (8, 0)})
    assert curve.cleared == -1 and curve.cleared_ci == (-1, -1)
    assert curve.d50 < 0


def test_a_model_that_passes_everything_seen_is_placed_at_or_above_the_top():
    curve = fit({0: (4, 4), 7: (4, 4), 15: (4, 4)})
    assert curve.cleared == 15 and curve.cleared_ci[1] == 15  # never past what was asked
    assert curve.d50_ci[0] >= 15


def test_a_shallow_fall_gives_wide_intervals():
    steep = fit({d: (8, 8 if d < 5 else 0) for d in range(10)})
    shallow = fit({d: (8, round(8 * (1 - d / 10))) for d in range(10)})
    assert shallow.d50_ci[1] - shallow.d50_ci[0] > steep.d50_ci[1] - steep.d50_ci[0]


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(
        st.integers(0, 12), st.tuples(st.integers(1, 6), st.integers(0, 6)), min_size=1
    ),
    st.integers(0, 12),
)
def test_one_more_pass_never_lowers_the_breaking_point(raw, d):
    counts = {k: (n, min(p, n)) for k, (n, p) in raw.items()}
    d = min(d, max(counts))  # a new hardest difficulty widens the prior's range: not this test
    before = Posterior(counts)
    n, p = counts.get(d, (0, 0))
    after = Posterior({**counts, d: (n + 1, p + 1)})
    assert after.d50()[0] >= before.d50()[0] - 0.1 - 1e-9  # one grid step of slack
    assert after.pass_rate(d)[0] >= before.pass_rate(d)[0] - 1e-9


def test_tier_estimate_is_the_plain_rate_once_every_instance_is_seen():
    posteriors = {"a": Posterior({0: (4, 4), 5: (4, 0)}), "b": Posterior({0: (4, 4)})}
    answers = {("a", 2): [True] * 3 + [False], ("b", 1): [True] * 4}
    rate, sd = tier_estimate([("a", 2), ("b", 1)], answers, posteriors, pool=4)
    assert rate == 7 / 8 and sd == 0.0
    rate, sd = tier_estimate([("a", 2), ("b", 1)], answers, posteriors, pool=8)
    assert 7 / 16 < rate < 1 and sd > 0


def row(family, d, seed, passed, tier=None, error=None):
    return ResultRow(
        run="r", adapter="x", model="m", suite="puzzles", id=f"{family}/d{d}/s{seed}",
        family=family, tier=tier, difficulty=d, seed=seed, prompt="p", expected="e",
        response=None if error else "r", extracted=None, score=None if error else float(passed),
        passed=None if error else passed, latency_ms=0.0, error=error,
    )  # fmt: skip


def test_breaking_points_from_rows_per_family_and_tier_estimates():
    rows = [row("a", d, s, d < 3) for d in (0, 1, 3, 7) for s in range(1, 5)]
    rows += [row("b", 0, s, True) for s in range(1, 5)] + [row("b", 1, 1, False, error="boom")]
    points = breaking_points(rows, {0: [("a", 0), ("b", 0)], 1: [("a", 9), ("b", 9)]}, pool=4)
    assert set(points.curves) == {"a", "b"}
    assert (
        points.by_difficulty["a"]["3"]["passed"] == 0
        and points.by_difficulty["b"]["1"]["errors"] == 1
    )
    assert points.curves["a"]["cleared"] in (1, 2) and points.curves["b"]["calls"] == 4
    assert points.tiers["0"]["rate"] == 1.0 and points.tiers["0"]["cleared"]
    assert not points.tiers["1"]["cleared"] and points.ladder_level == 0


def test_tally_counts_passes_per_difficulty():
    assert tally([(0, True), (0, False), (2, True)]) == {0: (2, 1), 2: (1, 1)}
    assert math.isclose(Posterior(tally([(0, True)])).pass_rate(-50)[0], 1.0, abs_tol=1e-6)


def test_prob_higher_is_near_one_for_a_clearly_stronger_model_and_half_for_twins():
    strong = Posterior({d: (8, 8 if d < 9 else 0) for d in range(12)})
    weak = Posterior({d: (8, 8 if d < 3 else 0) for d in range(12)})
    from ladderbench.analysis.breaking import prob_higher

    assert prob_higher(strong, weak) > 0.99 and prob_higher(weak, strong) < 0.01
    assert abs(prob_higher(weak, weak) - 0.5) < 0.05


def test_rank_names_the_model_with_more_families_ahead():
    from ladderbench.analysis.breaking import rank

    a = [row(f, d, s, d < 8) for f in "xyz" for d in (0, 3, 6, 9, 12) for s in range(4)]
    b = [row(f, d, s, d < 2) for f in "xy" for d in (0, 3, 6, 9, 12) for s in range(4)]
    ranking = rank("A", a, "B", b)
    assert ranking is not None and set(ranking.families) == {"x", "y"}
    assert ranking.ahead() == (["x", "y"], [])
    assert ranking.verdict().startswith("A ranks above B: higher on 2 families")
    assert rank("A", a, "C", [row("w", 0, 1, True)]) is None
