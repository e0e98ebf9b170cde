"""Audit a ledger case by case: inversions, Kendall tau-b, spread, stability, citations.

An inversion is a better rung scored lower than a worse one by more than the noise of the two
rungs (how far each rung's repeats disagree). Adjacent inversions name the defect the grader
rewarded: the ``defect`` of the lower rung is what separates it from the rung above.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from itertools import combinations, pairwise
from typing import Any

from ladderbench.probe.probe import Ledger, LedgerRow

EPSILON = 1e-9


@dataclass
class Inversion:
    worse_level: int
    better_level: int
    worse_score: float
    better_score: float
    rewarded: str | None  # the defect the grader rewarded (adjacent rungs only)


@dataclass
class CaseAudit:
    case_id: str
    rungs: int
    inversions: list[Inversion] = field(default_factory=list)
    adjacent: list[Inversion] = field(default_factory=list)
    tau: float | None = None
    spread: float = 0.0
    flat: bool = False
    unstable: bool = False
    uncited: int = 0
    errors: int = 0

    @property
    def inverted(self) -> bool:
        return bool(self.inversions)


@dataclass
class AuditReport:
    cases: list[CaseAudit]
    min_spread: float

    @property
    def inversion_rate(self) -> float:
        return sum(c.inverted for c in self.cases) / len(self.cases) if self.cases else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "minSpread": self.min_spread,
            "cases": len(self.cases),
            "invertedCases": sum(c.inverted for c in self.cases),
            "inversionRate": self.inversion_rate,
            "flatCases": sum(c.flat for c in self.cases),
            "unstableCases": sum(c.unstable for c in self.cases),
            "uncitedRungs": sum(c.uncited for c in self.cases),
            "erroredRungs": sum(c.errors for c in self.cases),
            "byCase": [asdict(c) for c in self.cases],
        }


def _kendall_tau_b(levels: list[int], scores: list[float]) -> float | None:
    from scipy.stats import kendalltau

    if len(set(levels)) < 2 or len(set(scores)) < 2:
        return None  # tau-b is undefined (NaN) without two levels and two scores
    return float(kendalltau(levels, scores).statistic)


def _inversion(worse: LedgerRow, better: LedgerRow, adjacent: bool) -> Inversion | None:
    w, b = worse.median, better.median
    assert w is not None and b is not None  # only graded rows are compared
    if w - b > max(worse.noise, better.noise) + EPSILON:
        return Inversion(worse.level, better.level, w, b, worse.defect if adjacent else None)
    return None


def audit_case(case_id: str, rows: list[LedgerRow], min_spread: float) -> CaseAudit:
    rows = sorted(rows, key=lambda r: r.level)
    graded = [r for r in rows if r.median is not None]
    result = CaseAudit(case_id, rungs=len(rows), errors=len(rows) - len(graded))
    for worse, better in combinations(graded, 2):
        if worse.level < better.level and (inv := _inversion(worse, better, adjacent=False)):
            result.inversions.append(inv)
    for worse, better in pairwise(graded):
        if worse.level < better.level and (inv := _inversion(worse, better, adjacent=True)):
            result.adjacent.append(inv)
    medians = [r.median for r in graded if r.median is not None]
    result.tau = _kendall_tau_b([r.level for r in graded], medians)
    result.spread = 0.0
    if len(graded) >= 2:
        top = max(graded, key=lambda r: r.level).median
        bottom = min(graded, key=lambda r: r.level).median
        assert top is not None and bottom is not None  # graded: every median is set
        result.spread = top - bottom
    result.flat = result.spread < min_spread
    result.unstable = any(not r.stable for r in graded)
    result.uncited = sum(not r.cited for r in graded if any(x.strip() for x in r.reasons))
    return result


def audit(ledger: Ledger, min_spread: float = 0.3) -> AuditReport:
    """Per-case audit of a ledger (cases in first-seen order)."""
    by_case: dict[str, list[LedgerRow]] = defaultdict(list)
    for row in ledger.rows:
        by_case[row.case_id].append(row)
    return AuditReport([audit_case(c, rows, min_spread) for c, rows in by_case.items()], min_spread)
