"""Grade every rung ``repeats`` times and keep the ledger: the probe's per-rung record."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from ladderbench.items import Item
from ladderbench.probe.graders import GradeFn, Grader, as_grader
from ladderbench.probe.rungs import Rung


@dataclass
class LedgerRow:
    case_id: str
    level: int
    answer: str
    defect: str | None
    evidence: str | None
    scores: list[float] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def median(self) -> float | None:
        return statistics.median(self.scores) if self.scores and not self.error else None

    @property
    def stable(self) -> bool:
        return len(set(self.scores)) <= 1

    @property
    def noise(self) -> float:
        """How far the repeats of this rung disagree: the smallest drop worth believing."""
        return max(self.scores) - min(self.scores) if self.scores else 0.0

    @property
    def cited(self) -> bool:
        """The evidence token appears in some reason (case-insensitive)."""
        if not self.evidence:
            return True
        token = self.evidence.casefold()
        return any(token in reason.casefold() for reason in self.reasons)

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "median": self.median,
            "stable": self.stable,
            "cited": self.cited,
        }


@dataclass
class Ledger:
    grader: str
    repeats: int
    rows: list[LedgerRow]

    @property
    def gives_reasons(self) -> bool:
        """Only graders that explain themselves are held to the cited ratio."""
        return any(reason.strip() for row in self.rows for reason in row.reasons)

    def to_dict(self) -> dict[str, Any]:
        return {
            "grader": self.grader,
            "repeats": self.repeats,
            "givesReasons": self.gives_reasons,
            "rows": [row.to_dict() for row in self.rows],
        }


def _row(rung: Rung) -> LedgerRow:
    return LedgerRow(rung.case_id, rung.level, rung.answer, rung.defect, rung.evidence)


def case_item(rung: Rung) -> Item:
    """A rung's case as the item a scorer reads: the gold answer (``gold``, ``expected`` or
    ``ground_truth``, whichever the ladder gives), the choices, and the whole context as record."""
    context = {**rung.context, "case_id": rung.case_id}
    gold = next((context[k] for k in ("gold", "expected", "ground_truth") if k in context), "")
    return Item(
        id=rung.case_id,
        prompt=str(context.get("question", "")),
        expected=str(gold),
        reference="",
        choices=tuple(str(c) for c in context.get("choices") or ()),
        record=context,
    )


def probe(
    rungs: Iterable[Rung], grade: Grader | GradeFn, repeats: int = 3, name: str = ""
) -> Ledger:
    """Grade each rung ``repeats`` times; an exception or a bad score is recorded, not raised
    (auditing graders is the probe's job, so a crash is a finding here, never a score)."""
    if repeats < 1:
        raise ValueError("repeats must be at least 1")
    grader = as_grader(grade)
    rows = []
    for rung in rungs:
        row = _row(rung)
        item = case_item(rung)
        for _ in range(repeats):
            try:
                verdict = grader.scorer(item, rung.answer)
            except Exception as exc:
                row.error = f"{type(exc).__name__}: {exc}"[:300]
                break
            row.scores.append(verdict.score)
            row.reasons.append(verdict.explanation)
        rows.append(row)
    return Ledger(name or grader.name, repeats, rows)


def ledger_from_scores(
    rungs: Iterable[Rung],
    scores: dict[tuple[str, int], list[tuple[float | None, str]]],
    repeats: int,
    name: str,
) -> Ledger:
    """A ledger from grades made elsewhere (the judge's calls through the runner)."""
    rows = []
    for rung in rungs:
        row = _row(rung)
        for score, reason in scores.get((rung.case_id, rung.level), []):
            if score is None:
                row.error = f"no score could be read: {reason[:200]!r}"
                break
            row.scores.append(score)
            row.reasons.append(reason)
        if not row.scores and row.error is None:
            row.error = "not graded"
        rows.append(row)
    return Ledger(name, repeats, rows)
