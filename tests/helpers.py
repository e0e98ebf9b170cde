"""Small builders shared by tests."""

from __future__ import annotations

from ladderbench.items import ResultRow


def make_row(id: str = "q1", sample: int = 0, **fields) -> ResultRow:
    base = dict(
        run="r1",
        adapter="oracle",
        model="oracle",
        suite="static",
        id=id,
        sample=sample,
        prompt="p",
        expected="A",
        response="A",
        extracted="A",
        score=1.0,
        passed=True,
        latency_ms=1.0,
        level=1,
        category="math",
    )
    base.update(fields)
    return ResultRow(**base)
