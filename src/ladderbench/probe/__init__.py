"""The grader probe: audit any grader for monotonicity on answer ladders.

``probe(rungs, grade, repeats)`` grades each rung; ``audit(ledger)`` finds inversions, flat and
unstable cases; ``gate(ledger, report, ...)`` decides whether to trust the grader.
"""

from ladderbench.probe.audit import AuditReport, CaseAudit, audit
from ladderbench.probe.gate import GateResult, gate
from ladderbench.probe.graders import Grade, Grader, builtin_graders, resolve
from ladderbench.probe.probe import Ledger, LedgerRow, probe
from ladderbench.probe.rungs import Rung, load_rungs

__all__ = [
    "AuditReport",
    "CaseAudit",
    "GateResult",
    "Grade",
    "Grader",
    "Ledger",
    "LedgerRow",
    "Rung",
    "audit",
    "builtin_graders",
    "gate",
    "load_rungs",
    "probe",
    "resolve",
]
