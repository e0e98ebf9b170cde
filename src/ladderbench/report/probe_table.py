"""The probe's verdict in the terminal: the worst cases with the defects rewarded, then the gate."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ladderbench.probe.audit import AuditReport
from ladderbench.probe.gate import GateResult
from ladderbench.probe.probe import Ledger

WORST = 10


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def print_probe(
    ledger: Ledger, report: AuditReport, verdict: GateResult, console: Console | None = None
) -> None:
    console = console or Console()
    worst = sorted(
        report.cases,
        key=lambda c: (-len(c.inversions), c.tau if c.tau is not None else 2.0, c.case_id),
    )[:WORST]
    table = Table(
        title=f"grader probe · {escape(ledger.grader)} · worst cases", title_justify="left"
    )
    for name in ("case", "rungs", "inversions", "rewarded defects", "tau-b", "spread", "flags"):
        table.add_column(name, justify="left" if name in ("case", "rewarded defects") else "right")
    for case in worst:
        flags = [
            name
            for name, on in (
                ("flat", case.flat),
                ("unstable", case.unstable),
                (f"uncited {case.uncited}", case.uncited),
                (f"errors {case.errors}", case.errors),
            )
            if on
        ]
        rewarded = "; ".join(
            f"{inv.rewarded or 'level ' + str(inv.worse_level)} "
            f"({inv.worse_score:g} > {inv.better_score:g})"
            for inv in case.adjacent
        )
        table.add_row(
            escape(case.case_id),
            str(case.rungs),
            f"{len(case.inversions)} ({len(case.adjacent)} adjacent)",
            escape(rewarded) or "-",
            "-" if case.tau is None else f"{case.tau:.2f}",
            f"{case.spread:.2f}",
            ", ".join(flags) or "-",
        )
    console.print(table)
    errored = [row for row in ledger.rows if row.error]
    if errored:
        first = errored[0]
        console.print(
            f"[yellow]{len(errored)} rung(s) could not be graded; first: case "
            f"{escape(first.case_id)} level {first.level}: {escape(first.error or '')}[/yellow]"
        )
    parts = [
        f"{verdict.describe_inversions()}, limit {_pct(verdict.max_inversion_rate)}",
        "cited: n/a (no reasons)"
        if verdict.cited_ratio is None
        else f"cited {_pct(verdict.cited_ratio)} (min {_pct(verdict.min_cited_ratio)})",
    ]
    if verdict.coverage is not None:
        parts.append(f"coverage {_pct(verdict.coverage)} of the suite's cases")
    state = "[bold green]PASS[/bold green]" if verdict.passed else "[bold red]HOLD[/bold red]"
    console.print(f"{state}: " + "; ".join(parts))
    for reason in verdict.reasons:
        console.print(f"  hold: {escape(reason)}")
