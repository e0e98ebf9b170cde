"""Small, exact statistics: Wilson and Clopper-Pearson intervals, the unbiased pass@k estimator."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(passed: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; honest at 0%, 100% and small n.

    ``passed`` may be fractional (a mean of per-item pass rates times n items), and so may ``n``
    (an effective sample size).
    """
    if n <= 0:
        return (0.0, 1.0)
    p = min(max(passed / n, 0.0), 1.0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if p == 0.0 else max(0.0, centre - half)  # exact at the edges, no rounding dust
    hi = 1.0 if p == 1.0 else min(1.0, centre + half)
    return (lo, hi)


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper-Pearson) interval for k successes of n; never narrower than it should be.

    For a gate that counts a few whole cases: at 0 of n (or n of n) it still bounds the rate,
    where a bootstrap of all-equal data collapses to a point.
    """
    if not 0 <= k <= n:
        raise ValueError(f"clopper_pearson needs 0 <= k <= n, got k={k} n={n}")
    if n == 0:
        return (0.0, 1.0)
    from scipy.stats import beta  # lazy: scipy costs a second to import

    tail = (1 - confidence) / 2
    lo = 0.0 if k == 0 else float(beta.ppf(tail, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - tail, k + 1, n - k))
    return (lo, hi)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k (Chen et al. 2021): chance that k of n samples hold a correct one."""
    if not 0 <= c <= n or k < 1:
        raise ValueError(f"pass_at_k needs 0 <= c <= n and k >= 1, got n={n} c={c} k={k}")
    if k > n:
        raise ValueError(f"pass_at_k needs k <= n, got n={n} k={k}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)
