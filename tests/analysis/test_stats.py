import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladderbench.analysis.stats import pass_at_k, wilson


def test_wilson_known_values():
    # 27/30: Wilson 95% interval, as computed by statsmodels' proportion_confint(method="wilson")
    lo, hi = wilson(27, 30)
    assert lo == pytest.approx(0.7438, abs=1e-4)
    assert hi == pytest.approx(0.9654, abs=1e-4)


def test_wilson_edges_are_honest():
    assert wilson(0, 30)[0] == 0.0 and wilson(0, 30)[1] > 0.1
    assert wilson(30, 30)[1] == pytest.approx(1.0) and wilson(30, 30)[0] < 0.9
    assert wilson(0, 0) == (0.0, 1.0)


@given(st.integers(1, 500), st.data())
def test_wilson_contains_the_estimate(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_pass_at_k_matches_brute_force():
    # pass@k = P(at least one correct among k drawn without replacement)
    n, c, k = 10, 3, 4
    assert pass_at_k(n, c, k) == pytest.approx(1 - math.comb(7, 4) / math.comb(10, 4))
    assert pass_at_k(5, 0, 3) == 0.0
    assert pass_at_k(5, 3, 3) == 1.0
    assert pass_at_k(4, 1, 1) == pytest.approx(0.25)


def test_pass_at_k_rejects_nonsense():
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 4)
