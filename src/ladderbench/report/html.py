"""``ladderbench report --html``: one self-contained page per set of results files.

Everything a model wrote goes through Jinja2's autoescaping (the template never marks model text
safe); charts are inline SVG built from numbers and escaped labels; the small filter script reads
data attributes only. Results are streamed: the audit table shows a seeded sample when a file is
larger than the sample, and says so.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from datetime import datetime, timezone
from itertools import combinations
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from ladderbench import __version__
from ladderbench.analysis.compare import PairedTest, compare, pearson_table, residuals
from ladderbench.analysis.digest import AUDIT_SAMPLE, Digest, digest_runs
from ladderbench.errors import UserError
from ladderbench.probe.verdicts import ProbeVerdict, shipped_verdicts
from ladderbench.report.charts import difficulty_chart, heatmap, profile_chart
from ladderbench.summaries import LevelSummary, LiveSummary, Summary, TierSummary

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


@dataclass
class ModelSection:
    digest: Digest
    typed: Summary
    summary: dict[str, Any]  # as written to the file, for the template
    charts: list[Any] = field(default_factory=list)
    groups: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    audit_rows: list[dict[str, Any]] = field(default_factory=list)
    rung_name: str = ""
    rung_values: list[str] = field(default_factory=list)
    group_values: list[str] = field(default_factory=list)
    curves: list[Any] = field(default_factory=list)  # per family: pass rate against difficulty


def _points(buckets: dict[str, Any], prefix: str) -> list[tuple[str, float | None, float, float]]:
    return [(f"{prefix}{k}", b["rate"], b["ci95"][0], b["ci95"][1]) for k, b in buckets.items()]


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
    section.settings = _without_secrets(summary.get("settings") or {})
    section.settings.update(_record(typed))
    if isinstance(typed, LevelSummary):
        section.rung_name = "level"
        section.charts.append(
            profile_chart(
                f"{d.label}: static ladder per level",
                _points(summary["byLevel"], "L"),
                baseline=summary.get("baseline"),
            )
        )
        section.groups.append(("category", summary.get("byCategory", {})))
    if isinstance(typed, TierSummary):
        section.rung_name = "tier"
        if typed.tier_estimates and not typed.by_tier:
            estimates = [
                (f"T{t}", e.rate, max(e.rate - 2 * e.sd, 0), min(e.rate + 2 * e.sd, 1))
                for t, e in typed.tier_estimates.items()
            ]
            title = f"{d.label}: puzzle tiers estimated from the fits (±2 sd)"
            section.charts.append(profile_chart(title, estimates, threshold=0.9))
        else:
            section.charts.append(
                profile_chart(
                    f"{d.label}: puzzle ladder per tier",
                    _points(summary["byTier"], "T"),
                    threshold=0.9,
                )
            )
        section.curves = _difficulty_charts(typed)
        families = sorted({f for f, _ in d.cells})
        tiers = sorted({t for _, t in d.cells})
        values = {(f, f"T{t}"): f"{100 * p / n:.0f}%" for (f, t), (n, p) in d.cells.items() if n}
        shade = {(f, f"T{t}"): p / n for (f, t), (n, p) in d.cells.items() if n}
        if families:
            section.charts.append(
                heatmap(
                    f"{d.label}: family x tier pass rate",
                    families,
                    [f"T{t}" for t in tiers],
                    values,
                    shade,
                )
            )
        section.groups.append(("family", summary.get("byFamily", {})))
    if isinstance(typed, LiveSummary):
        section.rung_name = "task"
        tasks = summary["byTask"]
        section.charts.append(
            profile_chart(
                f"{d.label}: live task scores",
                [
                    (name, t["score"], *t["ci95"])
                    for name, t in tasks.items()
                    if t["score"] is not None
                ],
            )
        )
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


def _difficulty_charts(summary: TierSummary) -> list[Any]:
    """Per family: pass rate against difficulty, with the fitted breaking point marked."""
    charts = []
    points = summary.breaking_points or {}
    for family, per_d in (summary.by_difficulty or {}).items():
        fit = points.get(family)
        charts.append(
            difficulty_chart(
                family,
                [
                    (int(k), b.rate, b.ci95[0], b.ci95[1], b.n)
                    for k, b in per_d.items()
                    if b.rate is not None
                ],
                cleared=fit.cleared if fit else None,
                d50=(fit.d50, fit.d50_ci95[0], fit.d50_ci95[1]) if fit else None,
            )
        )
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
    return {
        "chart": heatmap(
            "Pearson correlation between categories across models", names, names, values, shade
        ),
        "residuals": residuals(tasks, overall),
        "tasks": pearson_table(tasks),
    }


def render_report(paths: list[Path], sample_size: int = AUDIT_SAMPLE) -> str:
    """The page for these results files, each read once."""
    if not paths:
        raise UserError("report: give at least one results file")
    return render(digest_runs(paths, sample_size), sample_size)


def _pct(rate: float | None) -> str:
    """A rate as a percentage; "-" for a rung where nothing was scored."""
    return "-" if rate is None else f"{100 * rate:.1f}%"


def render(digests: list[Digest], sample_size: int = AUDIT_SAMPLE) -> str:
    sections = [_section(d) for d in digests]
    env = Environment(
        loader=PackageLoader("ladderbench.report", "templates"),
        autoescape=select_autoescape(["html", "j2"], default=True),
    )
    env.filters["pct"] = _pct
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
