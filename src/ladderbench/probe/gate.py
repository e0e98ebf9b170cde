"""The gate: does a grader's ledger hold up well enough to trust its scores?"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from ladderbench.probe.audit import AuditReport
from ladderbench.probe.probe import Ledger


@dataclass
class GateResult:
    passed: bool
    inversion_rate: float
    inversion_ci95: tuple[float, float]
    cited_ratio: float | None  # None: the grader gives no reasons
    coverage: float | None  # share of the suite's cases that have a ladder, when known
    max_inversion_rate: float
    min_cited_ratio: float
    reasons: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def bootstrap_rate(flags: list[bool], resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95% percentile interval of a share, resampling whole cases with replacement."""
    if not flags:
        return (0.0, 0.0)
    rng = random.Random(seed)
    n = len(flags)
    rates = sorted(sum(rng.choices(flags, k=n)) / n for _ in range(resamples))
    return (rates[int(0.025 * resamples)], rates[min(resamples - 1, int(0.975 * resamples))])


def gate(
    ledger: Ledger,
    report: AuditReport,
    max_inversion_rate: float = 0.05,
    min_cited_ratio: float = 0.9,
    coverage: float | None = None,
) -> GateResult:
    """Hold when too many cases invert, or (for graders that give reasons) too few cite evidence."""
    graded = [row for row in ledger.rows if row.median is not None]
    cited = (
        sum(row.cited for row in graded) / len(graded) if ledger.gives_reasons and graded else None
    )
    rate = report.inversion_rate
    reasons = []
    if rate > max_inversion_rate:
        reasons.append(
            f"inversion rate {100 * rate:.1f}% of cases exceeds {100 * max_inversion_rate:.1f}%"
        )
    if cited is not None and cited < min_cited_ratio:
        reasons.append(f"cited ratio {100 * cited:.1f}% is below {100 * min_cited_ratio:.1f}%")
    if not graded:
        reasons.append("no rung could be graded")
    return GateResult(
        passed=not reasons,
        inversion_rate=rate,
        inversion_ci95=bootstrap_rate([c.inverted for c in report.cases]),
        cited_ratio=cited,
        coverage=coverage,
        max_inversion_rate=max_inversion_rate,
        min_cited_ratio=min_cited_ratio,
        reasons=reasons,
    )
