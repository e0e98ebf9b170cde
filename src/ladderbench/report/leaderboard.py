"""``ladderbench leaderboard``: the boards of ``analysis/leaderboard.py`` as terminal tables and as
one self-contained HTML page (Jinja2 autoescaping, inline SVG from ``charts``; no scripts)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from rich.console import Console
from rich.table import Table

from ladderbench import __version__
from ladderbench.analysis.leaderboard import Board, Cell, Standing, evidence, verdict
from ladderbench.files import atomic_write
from ladderbench.report.charts import heatmap


def pct(rate: float | None) -> str:
    return "-" if rate is None else f"{100 * rate:.1f}%"


def overall_text(s: Standing) -> str:
    if s.overall is None or s.ci95 is None:
        return pct(s.overall)
    return f"{pct(s.overall)} ({100 * s.ci95[0]:.1f}–{100 * s.ci95[1]:.1f})"


def level_text(s: Standing) -> str:
    return "none" if s.ladder_level is None else f"tier {s.ladder_level}"


def breaking_text(s: Standing, family: str) -> str:
    bp = s.breaking_points.get(family)
    if bp is None:
        return "-"
    cleared = "none" if bp.cleared < 0 else f"d {bp.cleared}"
    return f"cleared {cleared}, 50% at {bp.d50:.1f} ({bp.d50_ci95[0]:.1f}–{bp.d50_ci95[1]:.1f})"


def _cell_text(cell: Cell | None) -> str:
    return "" if cell is None else pct(cell.rate)


def board_tables(b: Board) -> list[Table]:
    """The models x rungs table, the breaking points (where any), the neighbours' tests."""
    table = Table(
        title=f"leaderboard: {b.suite} suite, per {b.rung}, best first", title_justify="left"
    )
    table.add_column("#", justify="right")
    table.add_column("model")
    for column in b.columns:
        table.add_column(column, justify="right")
    if b.has_ladder_level:
        table.add_column("ladder level", justify="right")
    table.add_column("overall (95% CI)", justify="right")
    for rank, s in enumerate(b.standings, start=1):
        cells = [_cell_text(s.rungs.get(column)) for column in b.columns]
        level = [level_text(s)] if b.has_ladder_level else []
        table.add_row(str(rank), s.label, *cells, *level, overall_text(s))
    tables = [table]
    if b.families:
        points = Table(title=f"breaking points ({b.suite})", title_justify="left")
        points.add_column("model")
        for family in b.families:
            points.add_column(family, justify="right")
        for s in b.standings:
            points.add_row(s.label, *(breaking_text(s, f) for f in b.families))
        tables.append(points)
    if b.tests:
        tests = Table(title="neighbours in the ranking: paired tests", title_justify="left")
        for name in ("higher", "lower", "shared", "difference", "test", "evidence", "verdict"):
            tests.add_column(name)
        for t in b.tests:
            tests.add_row(
                t.a,
                t.b,
                str(t.shared),
                f"{100 * t.difference:+.1f} pts",
                t.method,
                evidence(t),
                verdict(t),
            )
        tables.append(tests)
    return tables


def print_boards(boards: list[Board], console: Console | None = None) -> None:
    console = console or Console()
    for b in boards:
        for table in board_tables(b):
            console.print(table)


def board_heatmap(b: Board) -> Markup:
    labels = [s.label for s in b.standings]
    value: dict[tuple[str, str], str | None] = {}
    shade: dict[tuple[str, str], float] = {}
    for s in b.standings:
        for column, cell in s.rungs.items():
            value[(s.label, column)] = pct(cell.rate) if cell.rate is not None else "-"
            shade[(s.label, column)] = cell.rate or 0.0
    return heatmap(f"{b.suite}: models x {b.rung}", labels, b.columns, value, shade)


def render_boards(boards: list[Board]) -> str:
    env = Environment(
        loader=PackageLoader("ladderbench.report", "templates"),
        autoescape=select_autoescape(["html", "j2"], default=True),
    )
    env.filters.update(
        pct=pct, overall=overall_text, level=level_text, evidence=evidence, verdict=verdict
    )
    env.globals["breaking"] = breaking_text
    return env.get_template("leaderboard.html.j2").render(
        boards=[(b, board_heatmap(b)) for b in boards],
        generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        version=__version__,
    )


def write_boards(boards: list[Board], out: Path) -> Path:
    atomic_write(out, render_boards(boards).encode("utf-8"))
    return out
