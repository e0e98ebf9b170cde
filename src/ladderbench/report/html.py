"""``ladderbench report --html``: one self-contained page per set of results files.

Model results come first (the overview, then each model's ladder), the grader probe last. Every
chart is a ``Figure``: the SVG and, right under it, the table of the numbers it draws, one row per
rung in the chart's order, so nothing is only a tooltip. Everything a model wrote goes through
Jinja2's autoescaping (the template never marks model text safe); charts are inline SVG built from
numbers and escaped labels; the small filter script reads data attributes only. Results are
streamed: the audit table shows a seeded sample when a file is larger than the sample, and says so.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from itertools import combinations
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from ladderbench import __version__
from ladderbench.analysis.compare import PairedTest, compare, pearson_table, residuals
from ladderbench.analysis.digest import AUDIT_SAMPLE, Digest, digest_runs
from ladderbench.analysis.summary import CLEARED
from ladderbench.errors import UserError
from ladderbench.probe.verdicts import ProbeVerdict, shipped_verdicts
from ladderbench.ranges import format_ranges
from ladderbench.report.charts import difficulty_chart, heatmap, profile_chart
from ladderbench.summaries import Bucket, LevelSummary, LiveSummary, Summary, TierSummary

SECRET_WORDS = ("apikey", "secret", "authorization", "password", "token", "credential")


def _is_secret(key: str) -> bool:
    """A settings key that may hold a credential, however it is spelt (``API_Key``, ``x-api-key``,
    ``secretKey``); token *counts* (``promptTokens``) are not credentials."""
    flat = "".join(ch for ch in key.lower() if ch.isalnum())
    if flat.endswith("tokens") or flat in ("maxtokens", "tokens"):
        return False
    return any(word in flat for word in SECRET_WORDS)


def _without_secrets(value: Any) -> Any:
    """``value`` with every secret-named key dropped, at any depth."""
    if isinstance(value, dict):
        return {k: _without_secrets(v) for k, v in value.items() if not _is_secret(str(k))}
    if isinstance(value, list):
        return [_without_secrets(v) for v in value]
    return value


# Settings that select a part of the suite: absent (None) means all of it.
SELECTIONS = ("levels", "tiers", "families", "tasks", "categories", "limit")
BUCKET_COLUMNS = ["n", "passed", "rate", "95% CI", "errors", "unparsed"]


@dataclass
class Figure:
    """A chart and the table of its numbers (first cell of each row: the rung's chart label;
    the first ``words`` columns are text, the rest numbers)."""

    chart: Markup
    columns: list[str]
    rows: list[list[str]]
    words: int = 1


@dataclass
class ModelSection:
    digest: Digest
    typed: Summary
    summary: dict[str, Any]  # as written to the file, for the template
    charts: list[Figure] = field(default_factory=list)
    groups: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    settings: dict[str, list[str]] = field(default_factory=dict)  # key -> its lines of text
    audit_rows: list[dict[str, Any]] = field(default_factory=list)
    rung_name: str = ""
    rung_values: list[str] = field(default_factory=list)
    group_values: list[str] = field(default_factory=list)
    curves: list[Figure] = field(default_factory=list)  # per family: pass rate against difficulty


def _pct(rate: float | None) -> str:
    """A rate as a percentage; "-" for a rung where nothing was scored."""
    return "-" if rate is None else f"{100 * rate:.1f}%"


def _ci(ci95: Sequence[float] | None, rate: float | None = 0.0) -> str:
    """A 95% interval as percentages; "-" where nothing was scored."""
    if rate is None or not ci95:
        return "-"
    return f"{100 * ci95[0]:.1f}–{100 * ci95[1]:.1f}%"


def _count(value: float) -> str:
    """A count as written (partial credit sums are not integers: ``2.5``)."""
    return f"{value:g}"


def _bucket_cells(b: Bucket) -> list[str]:
    """n, passed, rate, 95% CI, errors, unparsed: the number-table cells of one rung."""
    counts = (b.n, b.passed, b.errors, b.unparsed)
    n, passed, errors, unparsed = map(_count, counts)
    return [n, passed, _pct(b.rate), _ci(b.ci95, b.rate), errors, unparsed]


def _bucket_figure(
    title: str, buckets: Mapping[str, Bucket], prefix: str, **lines: float | None
) -> Figure:
    """A profile chart of ladder buckets (levels, tiers) with its number table."""
    labels = {key: f"{prefix}{key}" for key in buckets}
    points = [(labels[k], b.rate, b.ci95[0], b.ci95[1]) for k, b in buckets.items()]
    tiers = any(b.cleared is not None for b in buckets.values())
    rows = []
    for key, b in buckets.items():
        cells = _bucket_cells(b)
        if tiers:
            cells.append("-" if b.cleared is None else ("yes" if b.cleared else "no"))
        rows.append([labels[key], *cells])
    columns = ["tier" if prefix == "T" else "level", *BUCKET_COLUMNS]
    if tiers:
        columns.append("cleared")
    return Figure(profile_chart(title, points, **lines), columns, rows)


def setting_lines(key: str, value: Any) -> list[str]:
    """A setting as a person writes it: ``all`` for no selection, ranges for runs of numbers,
    lists joined, "—" for nothing, a nested mapping as "k: v" lines."""
    if value is None:
        return ["all" if key in SELECTIONS else "—"]
    if isinstance(value, bool):
        return ["yes" if value else "no"]
    if isinstance(value, float):
        return [f"{value:g}"]
    if isinstance(value, dict):
        if not value:
            return ["—"]
        lines = []
        for k, v in value.items():
            inner = setting_lines(str(k), v)
            if len(inner) == 1:
                lines.append(f"{k}: {inner[0]}")
            else:
                lines += [f"{k}:", *(f"  {line}" for line in inner)]
        return lines
    if isinstance(value, list):
        if not value:
            return ["none"]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return [format_ranges(value).replace(",", ", ")]
        return [", ".join(" ".join(setting_lines(key, v)) for v in value)]
    return [str(value)]


def _record(summary: Summary) -> dict[str, str]:
    """Tokens, cost and provenance as settings rows (a run from before they were kept has none)."""
    from ladderbench.report.table import usage_line

    rows: dict[str, str] = {}
    if line := usage_line(summary):
        rows["tokens"] = line.removeprefix("tokens: ")
    made = summary.provenance or {}
    for key in ("ladderbench", "revision", "questionsSha256", "started", "finished"):
        if made.get(key):
            rows[key] = str(made[key])
    if made.get("command"):
        rows["command"] = shlex.join(made["command"])  # secrets were replaced when it was written
    return rows


def _section(d: Digest) -> ModelSection:
    typed = d.summary
    assert typed is not None, "digest_runs summarises every file"
    summary = typed.to_json_dict()
    section = ModelSection(d, typed, summary)
    settings = _without_secrets(summary.get("settings") or {})
    section.settings = {str(k): setting_lines(str(k), v) for k, v in settings.items()}
    section.settings.update({k: [v] for k, v in _record(typed).items()})
    if isinstance(typed, LevelSummary):
        section.rung_name = "level"
        title = f"{d.label}: static ladder per level"
        section.charts.append(_bucket_figure(title, typed.by_level, "L", baseline=typed.baseline))
        section.groups.append(("category", summary.get("byCategory", {})))
    if isinstance(typed, TierSummary):
        section.rung_name = "tier"
        if typed.tier_estimates and not typed.by_tier:
            section.charts.append(_estimates_figure(d.label, typed))
        elif typed.by_tier:  # an adaptive run of families without tier anchors has neither
            title = f"{d.label}: puzzle ladder per tier"
            section.charts.append(_bucket_figure(title, typed.by_tier, "T", threshold=CLEARED))
        section.curves = _difficulty_charts(typed)
        if d.cells:
            section.charts.append(_cells_figure(d))
        section.groups.append(("family", summary.get("byFamily", {})))
    if isinstance(typed, LiveSummary):
        section.rung_name = "task"
        section.charts.append(_live_figure(d.label, typed))
    for row in d.sample:
        verdict = "error" if row.get("error") else ("pass" if row.get("pass") else "fail")
        rung = row.get("level") if row.get("level") is not None else row.get("tier")
        rung = rung if rung is not None else row.get("task")
        section.audit_rows.append(
            {
                **row,
                "rung": "" if rung is None else str(rung),
                "group": row.get("family") or row.get("category") or "",
                "verdict": verdict,
            }
        )
    section.rung_values = sorted({r["rung"] for r in section.audit_rows})
    section.group_values = sorted({r["group"] for r in section.audit_rows})
    return section


def _estimates_figure(label: str, summary: TierSummary) -> Figure:
    """An adaptive run's tiers, estimated from the per-family fits (±2 sd)."""
    estimates = summary.tier_estimates or {}
    points = [
        (f"T{t}", e.rate, max(e.rate - 2 * e.sd, 0), min(e.rate + 2 * e.sd, 1))
        for t, e in estimates.items()
    ]
    rows = [
        [f"T{t}", _pct(e.rate), _ci((lo, hi)), f"{e.seen} of {e.of}", "yes" if e.cleared else "no"]
        for (t, e), (_, _, lo, hi) in zip(estimates.items(), points)
    ]
    title = f"{label}: puzzle tiers estimated from the fits (±2 sd)"
    return Figure(
        profile_chart(title, points, threshold=CLEARED),
        ["tier", "estimated rate", "±2 sd", "instances seen", "cleared"],
        rows,
    )


def _cells_figure(d: Digest) -> Figure:
    """Family x tier pass rates as a heatmap, and the same grid as a table of counts."""
    families = sorted({f for f, _ in d.cells})
    tiers = sorted({t for _, t in d.cells})
    values = {(f, f"T{t}"): f"{100 * p / n:.0f}%" for (f, t), (n, p) in d.cells.items() if n}
    shade = {(f, f"T{t}"): p / n for (f, t), (n, p) in d.cells.items() if n}
    columns = [f"T{t}" for t in tiers]
    title = f"{d.label}: family x tier pass rate"
    rows = []
    for family in families:
        cells = []
        for t in tiers:
            n, passed = d.cells.get((family, t), (0, 0))
            cells.append(f"{values[(family, f'T{t}')]} ({passed}/{n})" if n else "")
        rows.append([family, *cells])
    return Figure(heatmap(title, families, columns, values, shade), ["family", *columns], rows)


def _live_figure(label: str, summary: LiveSummary) -> Figure:
    """Per live task: the mean score with its interval; a task with nothing scored shows "-"."""
    tasks = summary.by_task
    points = [(name, t.score, *(t.ci95 or (0.0, 0.0))) for name, t in tasks.items()]
    rows = []
    for name, t in tasks.items():
        cells = [_count(t.n), _count(t.perfect), _pct(t.score), _ci(t.ci95, t.score)]
        rows.append([name, t.category, *cells, _count(t.errors)])
    return Figure(
        profile_chart(f"{label}: live task scores", points),
        ["task", "category", "n", "perfect", "score", "95% CI", "errors"],
        rows,
        words=2,
    )


def _difficulty_charts(summary: TierSummary) -> list[Figure]:
    """Per family: pass rate against difficulty, with the fitted breaking point marked."""
    charts = []
    points = summary.breaking_points or {}
    for family, per_d in (summary.by_difficulty or {}).items():
        fit = points.get(family)
        chart = difficulty_chart(
            family,
            [(int(k), b.rate, b.ci95[0], b.ci95[1], b.n) for k, b in per_d.items()],
            cleared=fit.cleared if fit else None,
            d50=(fit.d50, fit.d50_ci95[0], fit.d50_ci95[1]) if fit else None,
        )
        rows = [[k, *_bucket_cells(b)] for k, b in per_d.items()]
        charts.append(Figure(chart, ["d", *BUCKET_COLUMNS], rows))
    return charts


def _breaking_overview(sections: list[ModelSection]) -> dict[str, Any]:
    """Families x models: each model's highest cleared difficulty and 50% crossing."""
    fitted = [
        (s, s.typed.breaking_points)
        for s in sections
        if isinstance(s.typed, TierSummary) and s.typed.breaking_points
    ]
    return {
        "models": [s for s, _ in fitted],
        "families": sorted({family for _, points in fitted for family in points}),
    }


def _probe_verdicts(sections: list[ModelSection]) -> list[ProbeVerdict]:
    """The shipped-ladder probe of every built-in grader these results were scored with."""
    used: set[str] = set()
    for s in sections:
        summary = s.typed
        if isinstance(summary, LevelSummary):
            used.add("static.choice")
        if isinstance(summary, TierSummary):
            used.update(f"puzzles.{f}" for f in summary.by_family)
        if isinstance(summary, LiveSummary):
            used.update(f"live.{t}" for t in summary.by_task)
    return shipped_verdicts(used)


def _comparisons(sections: list[ModelSection]) -> list[PairedTest]:
    tests = []
    for a, b in combinations(sections, 2):
        if a.digest.suite == b.digest.suite and a.digest.item_outcome and b.digest.item_outcome:
            tests.append(
                compare(
                    a.digest.label,
                    a.digest.item_outcome,
                    b.digest.label,
                    b.digest.item_outcome,
                    a.digest.suite,
                )
            )
    return tests


def _cross(sections: list[ModelSection]) -> dict[str, Any]:
    live = [
        s
        for s in sections
        if isinstance(s.typed, LiveSummary) and s.typed.overall.score is not None
    ]
    if len(live) < 3:
        return {}
    tasks = {
        s.digest.label: {
            t: v["score"] for t, v in s.summary["byTask"].items() if v["score"] is not None
        }
        for s in live
    }
    categories = {
        s.digest.label: {c: v["score"] for c, v in s.summary["byCategory"].items()} for s in live
    }
    overall = {s.digest.label: s.summary["overall"]["score"] for s in live}
    table = pearson_table(categories)
    names = sorted(table)
    values = {
        (x, y): "-" if table[x][y] is None else f"{table[x][y]:.2f}" for x in names for y in names
    }
    shade = {(x, y): ((table[x][y] or 0.0) + 1) / 2 for x in names for y in names}
    title = "Pearson correlation between categories across models"
    return {
        "chart": Figure(
            heatmap(title, names, names, values, shade),
            ["category", *names],
            [[x, *(values[(x, y)] for y in names)] for x in names],
        ),
        "residuals": residuals(tasks, overall),
        "tasks": pearson_table(tasks),
    }


def render_report(paths: list[Path], sample_size: int = AUDIT_SAMPLE) -> str:
    """The page for these results files, each read once."""
    if not paths:
        raise UserError("report: give at least one results file")
    return render(digest_runs(paths, sample_size), sample_size)


def render(digests: list[Digest], sample_size: int = AUDIT_SAMPLE) -> str:
    sections = [_section(d) for d in digests]
    env = Environment(
        loader=PackageLoader("ladderbench.report", "templates"),
        autoescape=select_autoescape(["html", "j2"], default=True),
    )
    env.filters["pct"] = _pct
    env.filters["ci"] = _ci
    template = env.get_template("report.html.j2")
    return template.render(
        sections=sections,
        comparisons=_comparisons(sections),
        cross=_cross(sections),
        breaking=_breaking_overview(sections),
        probes=_probe_verdicts(sections),
        generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        version=__version__,
        sample_size=sample_size,
    )


def write_report(digests: list[Digest], out: Path, sample_size: int = AUDIT_SAMPLE) -> Path:
    """Write the page for digests already read (``digest_runs``), so no file is read again."""
    html = render(digests, sample_size)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(html, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write --html {out}: {exc.strerror or exc}") from None
    return out
