"""Terminal tables: per rung and per group, with intervals, errors, baseline and flags."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

RUNG_TITLES = {"byLevel": "level", "byTier": "tier"}
GROUP_TITLES = {"byCategory": "category", "byFamily": "family", "byTask": "task"}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _passed(x: float) -> str:
    return str(x) if isinstance(x, int) else f"{x:.2f}"


def _table(title: str, label: str, buckets: dict[str, Any], summary: dict[str, Any]) -> Table:
    samples = summary.get("samples", 1)
    tiers = label == "tier"
    table = Table(title=title, title_justify="left")
    table.add_column(label.capitalize())
    for name in ("n", "passed", "rate", "95% CI", "errors", "unparsed"):
        table.add_column(name, justify="right")
    if samples > 1:
        table.add_column(f"pass@{samples}", justify="right")
    if tiers:
        table.add_column("cleared", justify="center")
    for key, s in [*buckets.items(), ("all", summary)]:
        lo, hi = s["ci95"]
        cells = [
            key,
            str(s["n"]),
            _passed(s["passed"]),
            _pct(s["rate"]),
            f"{_pct(lo)}–{_pct(hi)}",
            str(s["errors"]),
            str(s["unparsed"]),
        ]
        if samples > 1:
            cells.append(_pct(s.get(f"pass@{samples}")))
        if tiers:
            cells.append("" if key == "all" else ("yes" if s.get("cleared") else "no"))
        table.add_row(*cells, end_section=key == list(buckets)[-1] if buckets else False)
    return table


def print_summary(summary: dict[str, Any], console: Console | None = None) -> None:
    """The run's tables and calibration checks, as printed after every run and by ``report``."""
    console = console or Console()
    who = f"{summary.get('adapter')}:{summary.get('model')}"
    for key, label in RUNG_TITLES.items():
        if key in summary:
            title = f"{summary.get('suite')} suite · {who} · per {label}"
            console.print(_table(title, label, summary[key], summary))
    for key, label in GROUP_TITLES.items():
        if key in summary:
            console.print(_table(f"per {label}", label, summary[key], summary))
    if summary.get("baseline") is not None:
        console.print(f"guessing baseline: {_pct(summary['baseline'])}")
    if "ladderLevel" in summary:
        level = summary["ladderLevel"]
        console.print(
            f"ladder level: {'none (no tier cleared)' if level is None else f'tier {level}'}"
        )
    if summary.get("errors"):
        console.print(
            f"[yellow]{summary['errors']} attempt(s) ended in an error and were not scored; "
            "re-run the same command to retry them[/yellow]"
        )
    for flag in summary.get("flags", []):
        console.print(f"[bold red]flag:[/bold red] {flag}")
    for note in summary.get("notes", []):
        console.print(f"note: {note}")
    if summary.get("flags") or summary.get("notes"):
        console.print(f"rule: {summary.get('rule')}")
