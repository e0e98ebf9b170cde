"""Answer ladders: for one case, answers of known, ordered quality (level 0 = worst).

Each rung differs from the one below it by exactly one nameable defect; a grader must never score
a higher rung lower than a lower one. Fields beyond the fixed ones are the context the grader
needs (the question, the gold answer, the choices...).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ladderbench.errors import UserError
from ladderbench.jsonl import field_error, json_objects, read_text


class Rung(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    case_id: str = Field(min_length=1)
    level: int = Field(ge=0, strict=True)  # true is not level 1, nor "2" level 2
    answer: str
    evidence: str | None = None
    defect: str | None = None

    @property
    def context(self) -> dict[str, Any]:
        """What the grader may read besides the answer."""
        return dict(self.model_extra or {})


def load_rungs(path: Path) -> tuple[list[Rung], list[str]]:
    """Read a rungs JSONL file; returns the rungs and warnings (thin or tied cases)."""
    rungs: list[Rung] = []
    for lineno, obj in json_objects(path, read_text(path)):
        try:
            rungs.append(Rung.model_validate(obj))
        except ValidationError as exc:
            raise field_error(path, lineno, exc) from None
    if not rungs:
        raise UserError(f"{path}: no rungs")
    return rungs, ladder_warnings(rungs)


def ladder_warnings(rungs: list[Rung]) -> list[str]:
    by_case: dict[str, list[int]] = defaultdict(list)
    for rung in rungs:
        by_case[rung.case_id].append(rung.level)
    warnings = []
    for case, levels in by_case.items():
        if len(levels) < 3:
            warnings.append(f"case {case!r} has only {len(levels)} rung(s); 3 or more tell more")
        tied = sorted(level for level, n in Counter(levels).items() if n > 1)
        if tied:
            warnings.append(f"case {case!r} has two rungs at level {tied[0]}")
    return warnings
