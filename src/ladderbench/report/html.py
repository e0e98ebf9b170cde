"""``ladderbench report --html``: one self-contained page per set of results files.

Everything a model wrote goes through Jinja2's autoescaping (the template never marks model text
safe); charts are inline SVG built from numbers and escaped labels; the small filter script reads
data attributes only. Results are streamed: the audit table shows a seeded sample when a file is
larger than the sample, and says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from itertools import combinations
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from ladderbench import __version__
from ladderbench.analysis.compare import PairedTest, compare, pearson_table, residuals
from ladderbench.analysis.digest import Digest, digest, first_suite
from ladderbench.errors import UserError
from ladderbench.report.charts import heatmap, profile_chart
from ladderbench.suites import parse_summary, summarise_rows
from ladderbench.summaries import LevelSummary, LiveSummary, Summary, TierSummary

SECRET_KEYS = ("api_key", "apiKey", "secret", "secret_key", "authorization")


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


def _summary_for(d: Digest) -> Summary:
    if d.summary is not None:
        return parse_summary(d.summary)
    from ladderbench.runner.results import iter_results

    if not d.rows:
        raise UserError(f"{d.path}: no result rows")
    return summarise_rows(iter_results(d.path), d.suite, d.samples)


def _points(buckets: dict[str, Any], prefix: str) -> list[tuple[str, float, float, float]]:
    return [(f"{prefix}{k}", b["rate"], b["ci95"][0], b["ci95"][1]) for k, b in buckets.items()]


def _section(d: Digest) -> ModelSection:
    typed = _summary_for(d)
    summary = typed.to_json_dict()
    section = ModelSection(d, typed, summary)
    section.settings = {
        k: v for k, v in (summary.get("settings") or {}).items() if k not in SECRET_KEYS
    }
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
        section.charts.append(
            profile_chart(
                f"{d.label}: puzzle ladder per tier", _points(summary["byTier"], "T"), threshold=0.9
            )
        )
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


def _probe_verdicts(sections: list[ModelSection]) -> list[dict[str, Any]]:
    """The shipped-ladder probe of every built-in grader these results were scored with."""
    from importlib import resources

    from ladderbench.probe import audit, builtin_graders, gate, load_rungs, probe

    used: set[str] = set()
    for s in sections:
        summary = s.typed
        if isinstance(summary, LevelSummary):
            used.add("static.choice")
        if isinstance(summary, TierSummary):
            used.update(f"puzzles.{f}" for f in summary.by_family)
        if isinstance(summary, LiveSummary):
            used.update(f"live.{t}" for t in summary.by_task)
    known = builtin_graders()
    ladders = Path(str(resources.files("ladderbench.probe") / "ladders"))
    verdicts = []
    for name in sorted(used):
        path = ladders / f"{name}.jsonl"
        if name not in known or not path.exists():
            verdicts.append({"grader": name, "state": "no ladder", "detail": "not probed"})
            continue
        rungs, _ = load_rungs(path)
        ledger = probe(rungs, known[name], repeats=1, name=name)
        report = audit(ledger)
        result = gate(ledger, report)
        verdicts.append(
            {
                "grader": name,
                "state": "pass" if result.passed else "hold",
                "detail": f"{len(report.cases)} cases, inversion rate "
                f"{100 * result.inversion_rate:.1f}%",
            }
        )
    return verdicts


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


def render_report(paths: list[Path], sample_size: int = 400) -> str:
    if not paths:
        raise UserError("report: give at least one results file")
    suites = [first_suite(p) for p in paths]
    sections = [
        _section(digest(p, sample_size, keep_items=suites.count(suite) > 1))
        for p, suite in zip(paths, suites)
    ]
    env = Environment(
        loader=PackageLoader("ladderbench.report", "templates"),
        autoescape=select_autoescape(["html", "j2"], default=True),
    )
    template = env.get_template("report.html.j2")
    return template.render(
        sections=sections,
        comparisons=_comparisons(sections),
        cross=_cross(sections),
        probes=_probe_verdicts(sections),
        generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        version=__version__,
        sample_size=sample_size,
    )


def write_report(paths: list[Path], out: Path, sample_size: int = 400) -> Path:
    html = render_report(paths, sample_size)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(html, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write --html {out}: {exc.strerror or exc}") from None
    return out
