"""Many models, one view: per suite, models x rungs, ranked by overall score, with the paired test
of ``compare`` between each two neighbours in the ranking.

A rank alone says nothing about noise: two neighbours whose paired test finds no difference
beyond noise are a tie in all but order, and the board says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from ladderbench.analysis.compare import PairedTest, compare
from ladderbench.analysis.digest import Digest, digest
from ladderbench.errors import UserError
from ladderbench.summaries import (
    BreakingPoint,
    Bucket,
    LadderSummary,
    LiveSummary,
    LiveTaskScore,
    Summary,
    TierSummary,
)


@dataclass(frozen=True)
class Cell:
    """One model's result on one rung: the rate (None: nothing scored) and its 95% interval."""

    rate: float | None
    low: float
    high: float
    n: int


@dataclass
class Standing:
    """One results file on the board."""

    label: str
    path: Path
    overall: float | None
    ci95: tuple[float, float] | None
    rungs: dict[str, Cell]
    ladder_level: int | None = None
    breaking_points: dict[str, BreakingPoint] = field(default_factory=dict)
    total: int = 0
    errors: int = 0
    finished: bool = True
    item_outcome: dict[str, float] = field(default_factory=dict)


@dataclass
class Board:
    """One suite's models, best first; ``tests[i]`` compares ``standings[i]`` with ``[i + 1]``."""

    suite: str
    rung: str  # what the columns are: level, tier or task
    columns: list[str]
    standings: list[Standing]
    tests: list[PairedTest]

    @property
    def has_ladder_level(self) -> bool:
        return self.rung == "tier"

    @property
    def families(self) -> list[str]:
        """Puzzle families with a breaking point for some model."""
        return sorted({f for s in self.standings for f in s.breaking_points})


def overall(summary: Summary) -> tuple[float | None, tuple[float, float] | None]:
    """A summary's headline score and its 95% interval (None when nothing was scored)."""
    if isinstance(summary, LiveSummary):
        ci = summary.overall.ci95
        return summary.overall.score, (ci[0], ci[1]) if ci else None
    if isinstance(summary, LadderSummary):
        if summary.rate is None:
            return None, None
        return summary.rate, (summary.ci95[0], summary.ci95[1])
    return None, None


def _bucket_cell(bucket: Bucket) -> Cell:
    return Cell(bucket.rate, bucket.ci95[0], bucket.ci95[1], bucket.n)


def _live_cell(score: LiveTaskScore) -> Cell:
    low, high = score.ci95 or (0.0, 0.0)
    return Cell(score.score, low, high, score.n)


def rung_cells(summary: Summary) -> tuple[str, dict[str, Cell]]:
    """What a suite's rungs are called and each one's cell, labelled as in the report."""
    if isinstance(summary, LiveSummary):
        return "task", {task: _live_cell(s) for task, s in summary.by_task.items()}
    if isinstance(summary, TierSummary):
        if summary.tier_estimates and not summary.by_tier:  # an adaptive run: from the fits
            return "tier", {
                f"T{t}": Cell(
                    e.rate, max(e.rate - 2 * e.sd, 0.0), min(e.rate + 2 * e.sd, 1.0), e.of
                )
                for t, e in summary.tier_estimates.items()
            }
        return "tier", {f"T{t}": _bucket_cell(b) for t, b in summary.by_tier.items()}
    if isinstance(summary, LadderSummary):
        prefix = "L" if summary.rung == "level" else ""
        return summary.rung, {f"{prefix}{k}": _bucket_cell(b) for k, b in summary.rungs.items()}
    return "", {}


def standing(d: Digest) -> Standing:
    if d.summary is None:
        raise UserError(f"{d.path}: no result rows")
    score, ci = overall(d.summary)
    _, cells = rung_cells(d.summary)
    result = Standing(
        label=d.label,
        path=d.path,
        overall=score,
        ci95=ci,
        rungs=cells,
        total=d.summary.total,
        errors=d.summary.errors,
        finished=d.finished,
        item_outcome=d.item_outcome,
    )
    if isinstance(d.summary, TierSummary):
        result.ladder_level = d.summary.ladder_level
        result.breaking_points = dict(d.summary.breaking_points or {})
    return result


def rank_key(s: Standing) -> tuple[float, int, str]:
    """Best first: higher overall, then higher ladder level (none below tier 0), then name."""
    level = -1 if s.ladder_level is None else s.ladder_level
    return (-(s.overall if s.overall is not None else -1.0), -level, s.label)


def _ordered_columns(boards: list[dict[str, Cell]], rung: str) -> list[str]:
    names = list(dict.fromkeys(name for cells in boards for name in cells))
    if rung in ("level", "tier"):
        return sorted(names, key=lambda name: (int(name.lstrip("LT")), name))
    return sorted(names)


def board(suite: str, digests: list[Digest]) -> Board:
    standings = sorted((standing(d) for d in digests), key=rank_key)
    _unique_labels(standings)
    rung = rung_cells(digests[0].summary)[0] if digests[0].summary else ""
    tests = [
        compare(a.label, a.item_outcome, b.label, b.item_outcome, suite)
        for a, b in pairwise(standings)
    ]
    columns = _ordered_columns([s.rungs for s in standings], rung)
    return Board(suite, rung, columns, standings, tests)


def _unique_labels(standings: list[Standing]) -> None:
    """Two files of one model are told apart by their file names."""
    labels = [s.label for s in standings]
    for s in standings:
        if labels.count(s.label) > 1:
            s.label = f"{s.label} [{s.path.name}]"


def leaderboards(paths: list[Path]) -> list[Board]:
    """One board per suite present, in the order the suites first appear among ``paths``."""
    if not paths:
        raise UserError("leaderboard: give one or more results files")
    by_suite: dict[str, list[Digest]] = {}
    for path in paths:
        d = digest(path, sample_size=0, summarise=True)
        if d.summary is None:
            raise UserError(f"{path}: no result rows")
        by_suite.setdefault(d.suite, []).append(d)
    return [board(suite, digests) for suite, digests in by_suite.items()]


def _cell_json(cell: Cell) -> dict[str, object]:
    return {"rate": cell.rate, "ci95": [cell.low, cell.high], "n": cell.n}


def board_json(b: Board) -> dict[str, object]:
    """A board as JSON: models best first, each with its rungs, and the neighbours' tests."""
    return {
        "suite": b.suite,
        "rung": b.rung,
        "columns": b.columns,
        "models": [
            {
                "rank": i,
                "model": s.label,
                "file": str(s.path),
                "overall": s.overall,
                "ci95": list(s.ci95) if s.ci95 else None,
                "ladderLevel": s.ladder_level,
                "rungs": {name: _cell_json(cell) for name, cell in s.rungs.items()},
                "breakingPoints": {
                    f: bp.model_dump(by_alias=True) for f, bp in s.breaking_points.items()
                },
                "total": s.total,
                "errors": s.errors,
                "finished": s.finished,
            }
            for i, s in enumerate(b.standings, start=1)
        ],
        "neighbourTests": [
            {
                "a": t.a,
                "b": t.b,
                "shared": t.shared,
                "method": t.method,
                "difference": t.difference,
                "pValue": t.p_value,
                "ci95": list(t.ci95) if t.ci95 else None,
                "aOnly": t.a_only,
                "bOnly": t.b_only,
                "differ": t.differ,
            }
            for t in b.tests
        ],
    }


def evidence(t: PairedTest) -> str:
    """A paired test's evidence in words (as ``compare`` prints it)."""
    if t.p_value is not None:
        return f"p = {t.p_value:.3g} ({t.a_only} vs {t.b_only} discordant)"
    assert t.ci95 is not None  # a test without a p-value is a bootstrap: it has its CI
    return f"95% CI {100 * t.ci95[0]:+.1f} to {100 * t.ci95[1]:+.1f} pts"


def verdict(t: PairedTest) -> str:
    if t.shared == 0:
        return "no shared items"
    return "differ beyond noise" if t.differ else "within noise"
