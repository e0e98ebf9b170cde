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


def tier_rows(tier: int, passed: int, n: int) -> list[ResultRow]:
    """``n`` puzzle rows at ``tier`` (family "toy"), the first ``passed`` of them right."""
    return [
        make_row(
            f"t{tier}-{i}",
            suite="puzzles",
            level=None,
            category=None,
            tier=tier,
            family="toy",
            passed=i < passed,
            score=float(i < passed),
        )
        for i in range(n)
    ]
