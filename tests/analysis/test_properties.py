"""Formulas against their brute-force twins (issue #20): pass@k against enumerating every draw,
Wilson against the score test it inverts and the exact binomial interval's ordering, tier
clearing against a direct count."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import make_row
from ladderbench.analysis.stats import Z95, pass_at_k, wilson
from ladderbench.analysis.summary import summarise

# ---------------------------------------------------------------- pass@k


def enumerated_pass_at_k(n: int, c: int, k: int) -> Fraction:
    """Share of the k-subsets of n samples (the first c correct) that hold a correct one."""
    draws = list(combinations(range(n), k))
    return Fraction(sum(any(i < c for i in draw) for draw in draws), len(draws))


@pytest.mark.parametrize("n", range(1, 9))
def test_pass_at_k_equals_enumeration_for_every_small_case(n):
    for c in range(n + 1):
        for k in range(1, n + 1):
            assert pass_at_k(n, c, k) == pytest.approx(float(enumerated_pass_at_k(n, c, k)))


# ---------------------------------------------------------------- Wilson


def score_test_accepts(passed: int, n: int, p: float, z: float = Z95) -> bool:
    """The Wilson interval is every p that the score test does not reject at z."""
    return (passed / n - p) ** 2 <= z * z * p * (1 - p) / n


def binomial_cdf(k: int, n: int, p: float) -> float:
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def exact_interval(passed: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """Clopper-Pearson, by bisection on the binomial tails (no scipy)."""

    def solve(f, want_high: bool) -> float:
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if f(mid) == want_high:
                hi = mid
            else:
                lo = mid
        return (lo + hi) / 2

    lower = (
        0.0
        if passed == 0
        else solve(lambda p: 1 - binomial_cdf(passed - 1, n, p) > alpha / 2, True)
    )
    upper = 1.0 if passed == n else solve(lambda p: binomial_cdf(passed, n, p) < alpha / 2, True)
    return lower, upper


@given(st.integers(1, 200), st.data())
def test_wilson_is_the_set_the_score_test_accepts(n, data):
    passed = data.draw(st.integers(0, n))
    lo, hi = wilson(passed, n)
    eps = 1e-9
    inside = [lo + (hi - lo) * t for t in (0.001, 0.25, 0.5, 0.75, 0.999)]
    assert all(score_test_accepts(passed, n, p) for p in inside)
    if lo > eps:
        assert not score_test_accepts(passed, n, lo - 1e-6)
        assert score_test_accepts(passed, n, lo + eps)
    if hi < 1 - eps:
        assert not score_test_accepts(passed, n, hi + 1e-6)
        assert score_test_accepts(passed, n, hi - eps)


@given(st.integers(1, 60), st.data())
def test_wilson_orders_outcomes_as_the_exact_interval_does(n, data):
    a, b = sorted(data.draw(st.lists(st.integers(0, n), min_size=2, max_size=2, unique=True)))
    wa, wb = wilson(a, n), wilson(b, n)
    ea, eb = exact_interval(a, n), exact_interval(b, n)
    assert ea[0] < eb[0] and ea[1] < eb[1]  # the twin orders them
    assert wa[0] < wb[0] and wa[1] < wb[1]  # and so does Wilson
    for (w_lo, w_hi), (e_lo, e_hi), k in ((wa, ea, a), (wb, eb, b)):
        assert w_lo <= k / n <= w_hi and e_lo <= k / n <= e_hi
        assert e_lo < w_hi and w_lo < e_hi  # two readings of one interval overlap


@given(st.integers(1, 200), st.data())
def test_wilson_is_symmetric_and_shrinks_towards_a_half(n, data):
    passed = data.draw(st.integers(0, n))
    lo, hi = wilson(passed, n)
    mirror = wilson(n - passed, n)
    assert mirror[0] == pytest.approx(1 - hi, abs=1e-12)
    assert mirror[1] == pytest.approx(1 - lo, abs=1e-12)
    centre, p = (lo + hi) / 2, passed / n
    if 0 < passed < n:
        assert min(p, 0.5) - 1e-12 <= centre <= max(p, 0.5) + 1e-12


# ---------------------------------------------------------------- tier clearing

tiers = st.dictionaries(
    st.integers(0, 6),
    st.lists(st.lists(st.booleans(), min_size=1, max_size=3), min_size=1, max_size=25),
    min_size=1,
)


def rows_of(passes_by_tier: dict[int, list[list[bool]]]) -> list:
    return [
        make_row(
            f"t{tier}-{item}",
            sample=s,
            suite="puzzles",
            level=None,
            category=None,
            tier=tier,
            family="toy",
            passed=ok,
            score=float(ok),
        )
        for tier, items in passes_by_tier.items()
        for item, samples in enumerate(items)
        for s, ok in enumerate(samples)
    ]


@given(tiers)
def test_tier_clearing_matches_a_direct_count(passes_by_tier):
    summary = summarise(rows_of(passes_by_tier), rung="tier", group="family")
    expected_cleared = {}
    for tier, items in passes_by_tier.items():
        # pass@1: per item the share of its samples that passed, averaged over items, exactly
        rate = sum(Fraction(sum(s), len(s)) for s in items) / len(items)
        expected_cleared[str(tier)] = rate >= Fraction(9, 10)
        assert summary["byTier"][str(tier)]["n"] == len(items)
    assert {t: b["cleared"] for t, b in summary["byTier"].items()} == expected_cleared
    cleared = [int(t) for t, ok in expected_cleared.items() if ok]
    assert summary["ladderLevel"] == (max(cleared) if cleared else None)
