"""The gate: does a grader's ledger hold up well enough to trust its scores?"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ladderbench.probe.audit import AuditReport
from ladderbench.probe.probe import Ledger


@dataclass
class GateResult:
    passed: bool
    inversion_rate: float
    inverted_cases: int
    cases: int
    inversion_ci95: tuple[float, float]  # exact (Clopper-Pearson): honest at 0 of n and n of n
    cited_ratio: float | None  # None: the grader gives no reasons
    coverage: float | None  # share of the suite's cases that have a ladder, when known
    max_inversion_rate: float
    min_cited_ratio: float
    reasons: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def describe_inversions(self) -> str:
        """The inverted share with what n cases can say of it: "0 of 7 cases inverted (95% upper
        bound 41.0%)"; at 0 of n or n of n only one bound is informative."""
        lo, hi = self.inversion_ci95
        counted = f"{self.inverted_cases} of {self.cases} cases inverted"
        if not self.cases:
            return counted
        if self.inverted_cases == 0:
            return f"{counted} (95% upper bound {100 * hi:.1f}%)"
        if self.inverted_cases == self.cases:
            return f"{counted} (95% lower bound {100 * lo:.1f}%)"
        return (
            f"{counted}: {100 * self.inversion_rate:.1f}% (95% CI {100 * lo:.1f}%–{100 * hi:.1f}%)"
        )


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper-Pearson) interval for k inverted cases of n.

    A gate counts a few whole cases: at 0 of n (or n of n) this still bounds the rate, where a
    bootstrap of all-equal data collapses to a point. scipy, like the audit's; analysis/stats.py
    stays standard-library only because the standalone script inlines it.
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


def gate(
    ledger: Ledger,
    report: AuditReport,
    max_inversion_rate: float = 0.05,
    min_cited_ratio: float = 0.9,
    coverage: float | None = None,
) -> GateResult:
    """Hold when too many cases invert, when (for graders that give reasons) too few cite
    evidence, or when any rung could not be graded: a grader that raised or returned a non-score
    has no score to audit there, so its other rungs cannot vouch for it (the threshold is 0)."""
    graded = [row for row in ledger.rows if row.median is not None]
    cited = (
        sum(row.cited for row in graded) / len(graded) if ledger.gives_reasons and graded else None
    )
    rate = report.inversion_rate
    inverted = sum(case.inverted for case in report.cases)
    reasons = []
    if rate > max_inversion_rate:
        reasons.append(
            f"inversion rate {100 * rate:.1f}% of cases exceeds {100 * max_inversion_rate:.1f}%"
        )
    if cited is not None and cited < min_cited_ratio:
        reasons.append(f"cited ratio {100 * cited:.1f}% is below {100 * min_cited_ratio:.1f}%")
    if not graded:
        reasons.append("no rung could be graded")
    errored = [row for row in ledger.rows if row.error]
    if errored:
        first = errored[0]
        reasons.append(
            f"{len(errored)} of {len(ledger.rows)} rungs errored (first: case {first.case_id} "
            f"level {first.level}: {' '.join((first.error or '').split())})"
        )
    return GateResult(
        passed=not reasons,
        inversion_rate=rate,
        inverted_cases=inverted,
        cases=len(report.cases),
        inversion_ci95=clopper_pearson(inverted, len(report.cases)),
        cited_ratio=cited,
        coverage=coverage,
        max_inversion_rate=max_inversion_rate,
        min_cited_ratio=min_cited_ratio,
        reasons=reasons,
    )
