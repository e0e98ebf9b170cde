"""Terminal tables: per rung and per group, with intervals, errors, baseline and flags."""

from __future__ import annotations

from functools import singledispatch
from typing import Any

from rich.console import Console
from rich.table import Table

from ladderbench.summaries import LadderSummary, LiveSummary, Summary, TierSummary


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
        scored = bool(s["n"])  # never a percentage over nothing
        cells = [
            key,
            str(s["n"]),
            _passed(s["passed"]),
            _pct(s["rate"]) if scored else "-",
            f"{_pct(lo)}–{_pct(hi)}" if scored else "-",
            str(s["errors"]),
            str(s["unparsed"]),
        ]
        if samples > 1:
            cells.append(_pct(s.get(f"pass@{samples}")))
        if tiers:
            cells.append("" if key == "all" else ("yes" if s.get("cleared") else "no"))
        table.add_row(*cells, end_section=key == list(buckets)[-1] if buckets else False)
    return table


def _live_tables(summary: dict[str, Any], who: str) -> list[Table]:
    """Score tables for the live suite: tasks, categories, overall (each category weighs alike)."""

    def interval(ci: list[float] | None) -> str:
        return "-" if ci is None else f"{_pct(ci[0])}–{_pct(ci[1])}"

    tasks = Table(title=f"live suite · {who} · per task", title_justify="left")
    for name in ("task", "category", "d", "n", "score", "95% CI", "perfect", "errors"):
        tasks.add_column(name, justify="left" if name in ("task", "category") else "right")
    for name, s in summary["byTask"].items():
        tasks.add_row(
            name,
            s["category"],
            ",".join(map(str, s.get("difficulties") or [])) or "-",
            str(s["n"]),
            _pct(s["score"]),
            interval(s["ci95"]),
            str(s["perfect"]),
            str(s["errors"]),
        )
    cats = Table(title="per category (mean of its tasks) and overall", title_justify="left")
    for name in ("category", "tasks", "score", "95% CI"):
        cats.add_column(name, justify="left" if name == "category" else "right")
    for name, s in summary["byCategory"].items():
        cats.add_row(name, str(s["tasks"]), _pct(s["score"]), interval(s["ci95"]))
    overall = summary["overall"]
    cats.add_row(
        "overall",
        str(overall["categories"]),
        _pct(overall["score"]),
        interval(overall["ci95"]),
        end_section=True,
    )
    return [tasks, cats]


def _breaking_tables(summary: TierSummary, who: str) -> list[Table]:
    """Each family's breaking point; for an adaptive run, each tier's estimated pass rate."""
    tables = []
    if summary.breaking_points:
        table = Table(
            title=f"breaking points · {who} (95% credible intervals)", title_justify="left"
        )
        for name in ("family", "highest d cleared", "95% CI", "d at 50%", "95% CI", "tested d"):
            table.add_column(name, justify="left" if name == "family" else "right")
        table.add_column("calls", justify="right")

        def rung(d: int) -> str:
            return "none" if d < 0 else str(d)

        for family, point in summary.breaking_points.items():
            lo, hi = point.cleared_ci95
            table.add_row(
                family,
                rung(point.cleared),
                rung(lo) if lo == hi else f"{rung(lo)}–{rung(hi)}",
                f"{point.d50:.1f}",
                f"{point.d50_ci95[0]:.1f}–{point.d50_ci95[1]:.1f}",
                f"{point.tested[0]}–{point.tested[1]}",
                str(point.calls),
            )
        tables.append(table)
    if summary.tier_estimates:
        table = Table(title="tiers, estimated from the fits", title_justify="left")
        for name in ("tier", "rate", "± sd", "answers seen", "cleared"):
            table.add_column(name, justify="left" if name == "tier" else "right")
        for tier, e in summary.tier_estimates.items():
            table.add_row(
                tier, _pct(e.rate), _pct(e.sd), f"{e.seen} of {e.of}", "yes" if e.cleared else "no"
            )
        tables.append(table)
    return tables


def usage_line(summary: Summary) -> str | None:
    """Tokens, cached answers and the estimated cost, in one line (None before runs kept them)."""
    usage = summary.usage
    if usage is None:
        return None
    line = f"tokens: {usage.prompt_tokens:,} prompt, {usage.completion_tokens:,} completion"
    if usage.cached_answers:
        line += f"; {usage.cached_answers} answer(s) from the response cache"
    if usage.cost_usd is not None:
        line += (
            f"; estimated cost ${usage.cost_usd:,.4f} at ${usage.price_in:g} in / "
            f"${usage.price_out:g} out per million tokens"
        )
    return line


@singledispatch
def print_summary(summary: Summary, console: Console | None = None) -> None:
    """The run's tables and checks, as printed after every run and by ``report``; a summary of
    a suite this installation does not know is printed as its totals."""
    console = console or Console()
    console.print(
        f"{summary.suite} suite · {summary.adapter}:{summary.model} · {summary.total} rows"
    )


@print_summary.register
def _(summary: LiveSummary, console: Console | None = None) -> None:
    console = console or Console()
    data = summary.to_json_dict()
    for table in _live_tables(data, f"{summary.adapter}:{summary.model}"):
        console.print(table)
    if line := usage_line(summary):
        console.print(line)
    if summary.errors:
        console.print(f"[yellow]{summary.errors} attempt(s) ended in an error[/yellow]")


@print_summary.register
def _(summary: LadderSummary, console: Console | None = None) -> None:
    console = console or Console()
    who = f"{summary.adapter}:{summary.model}"
    data = summary.to_json_dict()
    rungs = {k: b.model_dump(exclude_unset=True) for k, b in summary.rungs.items()}
    groups = {k: b.model_dump(exclude_unset=True) for k, b in summary.groups.items()}
    title = f"{summary.suite} suite · {who} · per {summary.rung}"
    if rungs or not isinstance(summary, TierSummary) or not summary.tier_estimates:
        console.print(_table(title, summary.rung, rungs, data))
    console.print(_table(f"per {summary.group}", summary.group, groups, data))
    if summary.baseline is not None:
        console.print(f"guessing baseline: {_pct(summary.baseline)}")
    if isinstance(summary, TierSummary):
        for table in _breaking_tables(summary, who):
            console.print(table)
        level = summary.ladder_level
        basis = " (estimated from the fits)" if summary.tier_estimates else ""
        console.print(
            f"ladder level: {'none (no tier cleared)' if level is None else f'tier {level}'}"
            + basis
        )
    if line := usage_line(summary):
        console.print(line)
    if summary.errors:
        console.print(
            f"[yellow]{summary.errors} attempt(s) ended in an error and were not scored; "
            "re-run the same command to retry them[/yellow]"
        )
    for flag in summary.flags:
        console.print(f"[bold red]flag:[/bold red] {flag}")
    for note in summary.notes:
        console.print(f"note: {note}")
    if summary.flags or summary.notes:
        console.print(f"rule: {summary.rule}")
