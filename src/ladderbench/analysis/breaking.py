"""Breaking points: where a model's pass rate falls along a family's difficulty ``d``.

A model's pass rate on a family is taken to fall logistically with difficulty,
``p(d) = 1 / (1 + exp(-slope * (d50 - d)))``, with ``d50`` the difficulty where it crosses 50%.
The fit is Bayesian on a grid (flat prior on ``d50``, log-flat on ``slope``), which stays honest
where maximum likelihood does not: a model that passes everything up to some ``d`` and fails
everything after it (the usual case at temperature 0) gives a perfectly separable sample, whose
likelihood has no maximum; the posterior simply puts ``d50`` in the gap, as wide as the gap.

Two numbers per family, each with a 95% credible interval:
- ``cleared``: the highest difficulty the model clears (``p(d) >= 0.9``; ``-1``: none);
- ``d50``: where its pass rate crosses 50%.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ladderbench.analysis.summary import CLEARED, RowTally
from ladderbench.items import ResultRow

# logit(0.9): a model clears d when d50 - d >= LOGIT_CLEARED / slope
LOGIT_CLEARED = math.log(CLEARED / (1 - CLEARED))
_SLOPES = np.geomspace(0.3, 12.0, 36)  # from a gentle fall over ~15 steps to a cliff
_STEP = 0.1  # grid spacing of d50
_MARGIN = 6.0  # how far outside 0..the hardest difficulty tried d50 may lie


@dataclass(frozen=True)
class Curve:
    """The fitted fall of one model's pass rate on one family."""

    cleared: int  # posterior median of the highest cleared difficulty (-1: none)
    cleared_ci: tuple[int, int]
    d50: float  # posterior median
    d50_ci: tuple[float, float]
    tested: tuple[int, int]  # lowest and highest difficulty observed
    calls: int  # scored attempts the fit stands on

    def as_dict(self) -> dict[str, object]:
        return {
            "cleared": self.cleared,
            "clearedCi95": list(self.cleared_ci),
            "d50": round(self.d50, 2),
            "d50Ci95": [round(x, 2) for x in self.d50_ci],
            "tested": list(self.tested),
            "calls": self.calls,
        }


Counts = Mapping[int, tuple[int, int]]  # difficulty -> (scored, passed)


def tally(observations: Iterable[tuple[int, bool]]) -> dict[int, tuple[int, int]]:
    """(difficulty, passed) pairs as difficulty -> (scored, passed)."""
    counts: dict[int, tuple[int, int]] = {}
    for d, passed in observations:
        n, k = counts.get(d, (0, 0))
        counts[d] = (n + 1, k + bool(passed))
    return counts


class Posterior:
    """The grid posterior over (d50, slope) given pass counts per difficulty."""

    def __init__(self, counts: Counts) -> None:
        if not counts:
            raise ValueError("a breaking point needs at least one scored attempt")
        self.counts = dict(counts)
        # d50 from below the easiest difficulty to a margin above the hardest one tried
        self.d50s = np.round(np.arange(-_MARGIN, max(counts) + _MARGIN + _STEP / 2, _STEP), 2)
        m = self.d50s[:, None]
        log_post = np.zeros((len(self.d50s), len(_SLOPES)))
        for d, (n, k) in counts.items():
            z = _SLOPES[None, :] * (m - d)
            # log p = -log(1 + e^-z), log(1 - p) = -log(1 + e^z), computed stably
            log_post += -k * np.logaddexp(0, -z) - (n - k) * np.logaddexp(0, z)
        weights = np.exp(log_post - log_post.max())
        self.weights = weights / weights.sum()

    def pass_rate(self, d: float) -> tuple[float, float]:
        """Posterior mean and variance of the pass rate at ``d``."""
        p = 1.0 / (1.0 + np.exp(-_SLOPES[None, :] * (self.d50s[:, None] - d)))
        mean = float((self.weights * p).sum())
        return mean, float((self.weights * p * p).sum()) - mean * mean

    def d50(self) -> tuple[float, tuple[float, float]]:
        marginal = self.weights.sum(axis=1)
        return (
            _quantile(self.d50s, marginal, 0.5),
            (_quantile(self.d50s, marginal, 0.025), _quantile(self.d50s, marginal, 0.975)),
        )

    def cleared(self) -> tuple[int, tuple[int, int]]:
        """Quantiles of floor(d90), the highest integer difficulty with p >= 0.9: at least -1, at
        most the hardest difficulty tried (no credit for clearing what was never asked)."""
        d90 = self.d50s[:, None] - LOGIT_CLEARED / _SLOPES[None, :]
        top = np.clip(np.floor(d90), -1, max(self.counts)).ravel()
        order = np.argsort(top, kind="stable")
        values, weights = top[order], self.weights.ravel()[order]
        return (
            int(_quantile(values, weights, 0.5)),
            (int(_quantile(values, weights, 0.025)), int(_quantile(values, weights, 0.975))),
        )

    def curve(self) -> Curve:
        cleared, cleared_ci = self.cleared()
        d50, d50_ci = self.d50()
        return Curve(
            cleared=cleared,
            cleared_ci=cleared_ci,
            d50=d50,
            d50_ci=d50_ci,
            tested=(min(self.counts), max(self.counts)),
            calls=sum(n for n, _ in self.counts.values()),
        )


def _quantile(values: np.ndarray, weights: np.ndarray, q: float) -> float:
    """The weighted ``q`` quantile of sorted ``values``."""
    cumulative = np.cumsum(weights)
    index = int(np.searchsorted(cumulative, q * cumulative[-1]))
    return float(values[min(index, len(values) - 1)])


def fit(counts: Counts) -> Curve:
    """The breaking point of one model on one family from its pass counts per difficulty."""
    return Posterior(counts).curve()


Cells = Mapping[int, Sequence[tuple[str, int]]]  # tier -> its (family, difficulty) anchors


def tier_estimate(
    cells: Sequence[tuple[str, int]],
    answers: Mapping[tuple[str, int], Sequence[bool]],
    posteriors: Mapping[str, Posterior],
    pool: int,
) -> tuple[float, float]:
    """Mean and standard deviation of a tier's pass rate over all ``pool`` instances of each of
    its cells: the answers seen, and the fitted pass rate (with its binomial and fit
    uncertainty) for the instances not asked. With every instance asked it is the plain rate."""
    passed = variance = 0.0
    for family, d in cells:
        seen = answers.get((family, d), ())
        rest = max(pool - len(seen), 0)
        mean, spread = posteriors[family].pass_rate(d)
        passed += sum(seen) + rest * mean
        variance += rest * mean * (1 - mean) + (rest * rest) * spread
    total = pool * len(cells)
    return passed / total, variance**0.5 / total


@dataclass(frozen=True)
class BreakingPoints:
    """What a run's rows say about each family's fall along its difficulty."""

    by_difficulty: dict[str, dict[str, dict[str, Any]]]  # family -> d -> bucket stats
    curves: dict[str, dict[str, Any]]  # family -> Curve.as_dict()
    tiers: dict[str, dict[str, Any]]  # tier -> estimate (tiers whose families were all fitted)
    ladder_level: int | None


def breaking_points(rows: Iterable[ResultRow], anchors: Cells, pool: int) -> BreakingPoints:
    """Per-family pass rates per difficulty, fitted breaking points, and each anchored tier's
    estimated pass rate over ``pool`` instances per cell (for a run that did not ask them all)."""
    tallies: dict[str, dict[int, RowTally]] = {}
    answers: dict[tuple[str, int], list[bool]] = {}
    for row in rows:
        if row.family is None or row.difficulty is None:
            continue
        tallies.setdefault(row.family, {}).setdefault(row.difficulty, RowTally()).add(row)
        if row.error is None:
            answers.setdefault((row.family, row.difficulty), []).append(bool(row.passed))
    posteriors: dict[str, Posterior] = {}
    for family in tallies:
        counts = {d: (len(v), sum(v)) for (f, d), v in answers.items() if f == family}
        if counts:
            posteriors[family] = Posterior(counts)
    tiers: dict[str, dict[str, Any]] = {}
    for tier, cells in sorted(anchors.items()):
        if all(family in posteriors for family, _ in cells):
            rate, sd = tier_estimate(cells, answers, posteriors, pool)
            tiers[str(tier)] = {
                "rate": round(rate, 4),
                "sd": round(sd, 4),
                "seen": sum(len(answers.get(cell, ())) for cell in cells),
                "of": pool * len(cells),
                "cleared": rate >= CLEARED,
            }
    cleared = [int(t) for t, e in tiers.items() if e["cleared"]]
    return BreakingPoints(
        by_difficulty={
            family: {str(d): tallies[family][d].stats(1) for d in sorted(tallies[family])}
            for family in sorted(tallies)
        },
        curves={family: posteriors[family].curve().as_dict() for family in sorted(posteriors)},
        tiers=tiers,
        ladder_level=max(cleared) if cleared else None,
    )


def counts_by_family(rows: Iterable[ResultRow]) -> dict[str, dict[int, tuple[int, int]]]:
    """Scored attempts per family and difficulty (errors left out), for fits and comparisons."""
    counts: dict[str, dict[int, tuple[int, int]]] = {}
    for row in rows:
        if row.family is None or row.difficulty is None or row.error is not None:
            continue
        n, k = counts.setdefault(row.family, {}).get(row.difficulty, (0, 0))
        counts[row.family][row.difficulty] = (n + 1, k + bool(row.passed))
    return counts


def prob_higher(a: Posterior, b: Posterior) -> float:
    """Posterior probability that model A's 50% crossing lies above model B's (independent fits;
    a tie on the grid counts half)."""
    mass_a, mass_b = a.weights.sum(axis=1), b.weights.sum(axis=1)
    cumulative = np.concatenate([[0.0], np.cumsum(mass_b)])
    below = cumulative[np.searchsorted(b.d50s, a.d50s, side="left")]  # P(B < x)
    at_most = cumulative[np.searchsorted(b.d50s, a.d50s, side="right")]  # P(B <= x)
    return float((mass_a * (below + at_most) / 2).sum())


@dataclass(frozen=True)
class Ranking:
    """Two models' breaking points family by family, and who ranks higher."""

    a: str
    b: str
    families: dict[str, tuple[float, float, float]]  # family -> (A's d50, B's d50, P(A > B))

    def ahead(self, p: float = 0.975) -> tuple[list[str], list[str]]:
        """Families where A's crossing is above B's with probability >= p, and the reverse."""
        a = [f for f, (_, _, q) in self.families.items() if q >= p]
        b = [f for f, (_, _, q) in self.families.items() if q <= 1 - p]
        return a, b

    def verdict(self) -> str:
        a, b = self.ahead()
        if len(a) > len(b):
            return f"{self.a} ranks above {self.b}: higher on {len(a)} families, lower on {len(b)}"
        if len(b) > len(a):
            return f"{self.b} ranks above {self.a}: higher on {len(b)} families, lower on {len(a)}"
        return f"{self.a} and {self.b} rank level: higher on {len(a)} families each"


def rank(
    a_label: str, a_rows: Iterable[ResultRow], b_label: str, b_rows: Iterable[ResultRow]
) -> Ranking | None:
    """Rank two models by their breaking points on the families both were tried on (None: no
    family in common)."""
    a_counts, b_counts = counts_by_family(a_rows), counts_by_family(b_rows)
    shared = sorted(a_counts.keys() & b_counts.keys())
    if not shared:
        return None
    families = {}
    for family in shared:
        pa, pb = Posterior(a_counts[family]), Posterior(b_counts[family])
        families[family] = (pa.d50()[0], pb.d50()[0], prob_higher(pa, pb))
    return Ranking(a_label, b_label, families)
