"""Small, exact statistics: Wilson intervals and the unbiased pass@k estimator."""

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


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k (Chen et al. 2021): chance that k of n samples hold a correct one."""
    if not 0 <= c <= n or k < 1:
        raise ValueError(f"pass_at_k needs 0 <= c <= n and k >= 1, got n={n} c={c} k={k}")
    if k > n:
        raise ValueError(f"pass_at_k needs k <= n, got n={n} k={k}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)
