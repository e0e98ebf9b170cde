"""The graders audit themselves: every built-in grader passes the probe on its shipped ladders."""

from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from ladderbench.probe import audit, builtin_graders, gate, load_rungs, probe, resolve

LADDERS = Path(str(resources.files("ladderbench.probe") / "ladders"))
GRADERS = sorted(builtin_graders())


def test_every_builtin_grader_has_a_ladder_file():
    shipped = sorted(p.name.removesuffix(".jsonl") for p in LADDERS.glob("*.jsonl"))
    assert shipped == GRADERS


@pytest.mark.parametrize("name", GRADERS)
def test_builtin_grader_passes_its_ladders(name):
    rungs, warnings = load_rungs(LADDERS / f"{name}.jsonl")
    assert warnings == []
    per_case = Counter(r.case_id for r in rungs)
    assert len(per_case) >= 5 and all(4 <= n <= 6 for n in per_case.values())
    for rung in rungs:
        top = max(r.level for r in rungs if r.case_id == rung.case_id)
        assert rung.level == top or rung.defect, f"{rung.case_id} level {rung.level}: no defect"
    ledger = probe(rungs, resolve(name), repeats=3, name=name)
    report = audit(ledger)
    verdict = gate(ledger, report)
    assert [row for row in ledger.rows if row.error] == []
    assert [c.case_id for c in report.cases if c.flat] == []
    assert verdict.passed, (verdict.reasons, [c for c in report.cases if c.inverted])


@pytest.mark.parametrize("name", ["static.choice", "puzzles.sudoku"])
def test_a_length_rewarding_grader_is_caught_on_the_shipped_ladders(name):
    rungs, _ = load_rungs(LADDERS / f"{name}.jsonl")
    ledger = probe(rungs, lambda case, answer: min(1.0, len(answer) / 400), repeats=1)
    assert not gate(ledger, audit(ledger)).passed
