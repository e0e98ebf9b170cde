"""The ``ladderbench`` command: run, report, export, suites.

User mistakes surface as one line on stderr and exit code 2 (``UserError``); anything else is a
bug and keeps its traceback.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ladderbench.errors import UserError
from ladderbench.models.endpoints import MAX_RESPONSE_BYTES
from ladderbench.ranges import parse_ranges

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ladderbench.analysis.digest import Digest
    from ladderbench.api import Job
    from ladderbench.runner.results import Scan
    from ladderbench.summaries import Summary

app = typer.Typer(
    add_completion=False,
    no_args_is_help=False,
    pretty_exceptions_enable=False,
    help="Measure where a language model's abilities break down, rung by rung.",
)
export_app = typer.Typer(help="Write suites and runners out for use elsewhere.")
app.add_typer(export_app, name="export")
suite_app = typer.Typer(help="Publish generated suites and verify published copies.")
app.add_typer(suite_app, name="suite")
live_app = typer.Typer(help="Build and refresh dated releases of the live suite.")
app.add_typer(live_app, name="live")


def _print_version(value: bool) -> None:
    if value:
        from ladderbench.runner.provenance import package_version

        typer.echo(f"ladderbench {package_version()}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Measure where a language model's abilities break down, rung by rung."""


def parse_int_list(text: str | None, flag: str) -> list[int] | None:
    return None if text is None else parse_ranges(text, flag)


def _names(text: str | None) -> list[str] | None:
    return None if text is None else [n.strip() for n in text.split(",") if n.strip()]


@app.command()
def run(
    model: Annotated[
        list[str] | None,
        typer.Option(
            help="local, local:PATH.gguf, openai:NAME, ollama:NAME, oracle, echo, random; "
            "repeat for several models, run one after another (default: local)."
        ),
    ] = None,
    suite: Annotated[str, typer.Option(help="Which suite to run.")] = "static",
    out: Annotated[
        Path | None,
        typer.Option(
            help="Results JSONL; an existing one is resumed. With several models, a folder: "
            "one OUT/<model>.jsonl each."
        ),
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible endpoint (or OPENAI_BASE_URL).")
    ] = None,
    api_key: Annotated[
        str | None, typer.Option(help="API key (or OPENAI_API_KEY); never written anywhere.")
    ] = None,
    temperature: Annotated[float, typer.Option(min=0.0)] = 0.0,
    max_tokens: Annotated[int, typer.Option(min=1, help="Token limit per answer.")] = 512,
    system_prompt: Annotated[
        str | None, typer.Option(help="A system message sent before every question.")
    ] = None,
    price_in: Annotated[
        float | None,
        typer.Option(min=0.0, help="US dollars per million prompt tokens, for a cost estimate."),
    ] = None,
    price_out: Annotated[
        float | None,
        typer.Option(min=0.0, help="US dollars per million completion tokens."),
    ] = None,
    timeout: Annotated[float, typer.Option(min=0.1, help="Seconds per request.")] = 120.0,
    retries: Annotated[
        int, typer.Option(min=0, help="Retries per request on transient failures.")
    ] = 5,
    retry_wait: Annotated[
        float, typer.Option(min=0.0, help="Base seconds of the exponential backoff.")
    ] = 1.0,
    max_response_bytes: Annotated[
        int, typer.Option(min=1, help="Cap on one response body; over it, an error row.")
    ] = MAX_RESPONSE_BYTES,
    samples: Annotated[
        int, typer.Option(min=1, help="Attempts per item (pass@k as a diagnostic).")
    ] = 1,
    concurrency: Annotated[int, typer.Option(min=1, help="Requests in flight at once.")] = 8,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="Model workers: processes for --model local, or Ray actors with --executor ray.",
        ),
    ] = 1,
    executor: Annotated[
        str, typer.Option(help="Where the model runs: local (this process) or ray (a cluster).")
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(help="Ray cluster to join (or RAY_ADDRESS); default a local one."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed for sampling and the random baseline.")] = 0,
    levels: Annotated[str | None, typer.Option(help="Static levels, e.g. 4,5.")] = None,
    limit: Annotated[
        int | None,
        typer.Option(min=1, help="At most this many items per rung: level, tier or live task."),
    ] = None,
    tiers: Annotated[str | None, typer.Option(help="Puzzle tiers, e.g. 0-3.")] = None,
    seeds: Annotated[
        str | None, typer.Option(help="Puzzle seeds, e.g. 1-32 (default 1-16).")
    ] = None,
    families: Annotated[
        str | None, typer.Option(help="Puzzle families, e.g. sudoku,caesar.")
    ] = None,
    suite_version: Annotated[
        str | None, typer.Option(help="Puzzle suite version: 1, or 2 (difficulty anchors).")
    ] = None,
    difficulties: Annotated[
        str | None, typer.Option(help="Puzzle v2: a grid of difficulties, e.g. 0-12.")
    ] = None,
    adaptive: Annotated[
        bool,
        typer.Option(
            "--adaptive", help="Puzzle v2: search each family's breaking point, not a full grid."
        ),
    ] = False,
    secret_key: Annotated[
        str | None,
        typer.Option(help="Admission seeds from this key (or LADDERBENCH_SECRET); never written."),
    ] = None,
    live_dir: Annotated[
        Path | None, typer.Option(help="Live store made by 'ladderbench live build'.")
    ] = None,
    release: Annotated[
        str | None, typer.Option(help="Live questions active at this release (default latest).")
    ] = None,
    tasks: Annotated[str | None, typer.Option(help="Live tasks, e.g. zebra,amps_hard.")] = None,
    categories: Annotated[str | None, typer.Option(help="Live categories, e.g. math.")] = None,
    data: Annotated[
        Path | None, typer.Option(help="Folder of your own levelN_NAME.jsonl files.")
    ] = None,
    unsafe_allow_code: Annotated[
        bool,
        typer.Option(
            "--unsafe-allow-code",
            help="Run model-written code where the sandbox cannot seal it off from your files.",
        ),
    ] = False,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Do not read or write the response cache.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Evaluate a model on a suite; with no options, the embedded model on the static ladder."""
    from ladderbench.api import default_out, prepare_run
    from ladderbench.models.base import Sampling
    from ladderbench.models.registry import EndpointOptions
    from ladderbench.runner.run import RunConfig

    _check_finite(
        {
            "--temperature": temperature,
            "--price-in": price_in,
            "--price-out": price_out,
            "--timeout": timeout,
            "--retry-wait": retry_wait,
        }
    )
    options = {
        "data": data,
        "levels": parse_int_list(levels, "--levels"),
        "limit": limit,
        "tiers": parse_int_list(tiers, "--tiers"),
        "seeds": parse_int_list(seeds, "--seeds"),
        "families": _names(families),
        "suite_version": suite_version,
        "difficulties": parse_int_list(difficulties, "--difficulties"),
        "adaptive": adaptive or None,
        "secret_key": secret_key,
        "live_dir": live_dir,
        "release": release,
        "tasks": _names(tasks),
        "categories": _names(categories),
        "unsafe_allow_code": unsafe_allow_code or None,
    }
    endpoint = EndpointOptions(
        base_url=base_url,
        api_key=api_key,
        timeout=timeout,
        retries=retries,
        retry_wait=retry_wait,
        max_response_bytes=max_response_bytes,
    )
    models = model or ["local"]
    outs = [out or default_out(models[0])] if len(models) == 1 else _model_outs(models, out)
    summaries: list[Summary] = []
    worst = 0
    for name, path in zip(models, outs):  # one after another, sharing the response cache
        config = RunConfig(
            out=path,
            samples=samples,
            concurrency=concurrency,
            sampling=Sampling(temperature=temperature, max_tokens=max_tokens, seed=seed),
            system_prompt=system_prompt or None,
            command=["ladderbench", *sys.argv[1:]],
            price_in=price_in,
            price_out=price_out,
        )
        # only the options given: one the suite does not take is an error, not silently ignored
        job = prepare_run(
            name,
            suite,
            options,
            endpoint,
            config,
            seed=seed,
            cache=not no_cache,
            workers=workers,
            executor=executor,
            ray_address=ray_address,
        )
        summary = _run_with_progress(job, quiet or json_out)
        summaries.append(summary)
        if len(models) > 1 and not json_out:
            typer.echo(f"model {name}:")
        if len(models) == 1 or not json_out:
            _show(summary, json_out)
        if not json_out:
            typer.echo(f"results: {config.out} (run again with --out {config.out} to resume)")
        try:
            _exit_on_errors(summary, config.out)
        except typer.Exit as exc:
            if len(models) == 1:
                raise
            worst = max(worst, exc.exit_code)
    if len(models) > 1:
        _side_by_side(models, outs, summaries, json_out)
    if worst:
        raise typer.Exit(worst)


def _model_outs(models: list[str], out: Path | None) -> list[Path]:
    """Each model's results file: ``OUT/<model>.jsonl`` (resumable by the same command), or
    ``results/<model>_<timestamp>.jsonl`` without --out. Two models never share a file."""
    from ladderbench.api import default_out, file_stem

    if out is not None and out.exists() and not out.is_dir():
        raise UserError(
            f"--out {out}: with several models --out names a folder (one results file per "
            "model), and this is a file"
        )
    paths = [out / f"{file_stem(m)}.jsonl" if out else default_out(m) for m in models]
    for i, path in enumerate(paths):
        if path in paths[:i]:
            raise UserError(
                f"--model {models[i]}: its results file {path} is another --model's "
                f"({models[paths.index(path)]}); give each model once"
            )
    return paths


def _side_by_side(
    models: list[str], outs: list[Path], summaries: list[Summary], as_json: bool
) -> None:
    """After the runs: all summaries as one JSON list, or one line comparing the models."""
    from ladderbench.analysis.leaderboard import overall

    if as_json:
        typer.echo(json.dumps([s.to_json_dict() for s in summaries], indent=2))
        return
    parts = []
    for name, summary in zip(models, summaries):
        score, ci = overall(summary)
        text = "-" if score is None else f"{100 * score:.1f}%"
        if score is not None and ci is not None:
            text += f" ({100 * ci[0]:.1f}–{100 * ci[1]:.1f})"
        parts.append(f"{name} {text}")
    typer.echo("side by side: " + " | ".join(parts))
    typer.echo("tests between them: ladderbench leaderboard " + " ".join(map(str, outs)))


def _check_finite(flags: dict[str, float | None]) -> None:
    """inf and nan get past typer's ``min=``; one line for them, before any request is sent."""
    for flag, value in flags.items():
        if value is not None and not math.isfinite(value):
            raise UserError(f"{flag} {value}: must be a finite number")


# Exit codes: 0 every attempt scored; 1 a check failed (probe gate, suite verify, a live fetch
# source); 2 bad input (UserError); 3 some attempts ended in errors (rates are over the scored
# ones only); 130 interrupted.
EXIT_ERRORS = 3


def _exit_on_errors(summary: Summary, out: Path) -> None:
    """A run with errored attempts is not a success: one line on stderr and exit code 3."""
    if summary.errors:
        scored = summary.total - summary.errors
        typer.echo(
            f"{summary.errors} of {summary.total} attempts ended in an error and were not scored "
            f"(the rates are over the {scored} scored); run the same command with --out {out} "
            "to retry them",
            err=True,
        )
        raise typer.Exit(EXIT_ERRORS)


def _run_with_progress(job: Job, quiet: bool) -> Summary:
    """Run with a progress bar (none with --quiet); Ctrl-C keeps the rows for a resume."""
    from ladderbench.api import run_job

    out = job.config.out
    try:
        return run_job(job, progress=not quiet)
    except KeyboardInterrupt:
        typer.echo(
            f"interrupted; the rows so far are in {out}: "
            f"run the same command with --out {out} to resume",
            err=True,
        )
        raise typer.Exit(130) from None


def _show(summary: Summary, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(summary.to_json_dict(), indent=2))
        return
    from ladderbench.report.table import print_summary

    print_summary(summary)


@app.command()
def report(
    results: Annotated[
        list[Path], typer.Argument(help="Results JSONL file(s) or Inspect .eval logs.")
    ],
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the summary as JSON (a list for several files).")
    ] = False,
    html: Annotated[
        Path | None, typer.Option(help="Also write a self-contained HTML report here.")
    ] = None,
) -> None:
    """Print the tables again from results files (a run cut short is summarised from its rows)."""
    from ladderbench.analysis.digest import digest_runs
    from ladderbench.runner.results import scan

    # One pass per file: its tail alone for the tables; the whole file once with --html.
    digests = digest_runs(results) if html is not None else None
    runs: Sequence[Digest | Scan] = digests or []
    if not runs:
        runs = [scan(p) for p in results]
    documents = []
    for path, run in zip(results, runs):
        if run.summary is None:
            raise UserError(f"{path}: no result rows")
        if not run.finished:
            typer.echo(
                f"{path}: the run did not finish; summary computed from its "
                f"{run.summary.total} rows",
                err=True,
            )
        if json_out:
            documents.append(run.summary.to_json_dict())
        else:
            _show(run.summary, False)
    if json_out:  # one JSON document: the summary, or a list of them for several files
        typer.echo(json.dumps(documents[0] if len(documents) == 1 else documents, indent=2))
    if html is not None and digests is not None:
        from ladderbench.report.html import write_report

        typer.echo(f"report: {write_report(digests, html)}", err=json_out)


@app.command()
def compare(
    results: Annotated[list[Path], typer.Argument(help="Two or more results files or .eval logs.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the tests as JSON.")] = False,
) -> None:
    """Do models differ beyond noise? Paired tests over the items each pair answered, and for
    puzzle runs with difficulties, a ranking by breaking points family by family."""
    from dataclasses import asdict
    from itertools import combinations

    from rich.console import Console
    from rich.table import Table

    from ladderbench.analysis.compare import compare as paired
    from ladderbench.analysis.digest import digest

    if len(results) < 2:
        raise UserError("compare: give two or more results files")
    digests = [digest(path, sample_size=0) for path in results]
    tests = [
        paired(a.label, a.item_outcome, b.label, b.item_outcome, a.suite)
        for a, b in combinations(digests, 2)
        if a.suite == b.suite
    ]
    if not tests:
        raise UserError("compare: no two files are runs of the same suite")
    rankings = _breaking_point_rankings(results, digests)
    if json_out:
        out = {
            "pairedTests": [{**asdict(t), "differ": t.differ} for t in tests],
            "breakingPoints": [
                {**asdict(r), "ahead": r.ahead(), "verdict": r.verdict()} for r in rankings
            ],
        }
        typer.echo(json.dumps(out, indent=2))
        return
    table = Table(title="paired tests over shared items", title_justify="left")
    for name in ("A", "B", "suite", "shared", "A − B", "test", "evidence", "verdict"):
        table.add_column(name)
    for t in tests:
        if t.p_value is not None:
            evidence = f"p = {t.p_value:.3g} (A only {t.a_only}, B only {t.b_only})"
        else:
            assert t.ci95 is not None  # a test without a p-value is a bootstrap: it has its CI
            evidence = f"95% CI {100 * t.ci95[0]:+.1f} to {100 * t.ci95[1]:+.1f}"
        table.add_row(
            t.a,
            t.b,
            t.suite,
            str(t.shared),
            f"{100 * t.difference:+.1f} pts",
            t.method,
            evidence,
            "differ beyond noise" if t.differ else "within noise",
        )
    console = Console()
    console.print(table)
    for ranking in rankings:
        console.print(_ranking_table(ranking))
        console.print(ranking.verdict())


@app.command()
def leaderboard(
    results: Annotated[list[Path], typer.Argument(help="Results files, one per model and suite.")],
    html: Annotated[
        Path | None, typer.Option(help="Also write the boards as a self-contained HTML page.")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the boards as JSON.")] = False,
) -> None:
    """Many models, one view: per suite, models x rungs ranked by overall score (ties by ladder
    level), breaking points, and the paired test between each two neighbours in the ranking."""
    from ladderbench.analysis.leaderboard import board_json, leaderboards

    boards = leaderboards(results)
    if json_out:
        typer.echo(json.dumps([board_json(b) for b in boards], indent=2))
    else:
        from ladderbench.report.leaderboard import print_boards

        print_boards(boards)
    if html is not None:
        from ladderbench.report.leaderboard import write_boards

        typer.echo(f"leaderboard: {write_boards(boards, html)}", err=json_out)


def _breaking_point_rankings(paths: list[Path], digests: list[Any]) -> list[Any]:
    """Every two puzzle runs with difficulties, ranked by their breaking points."""
    from itertools import combinations

    from ladderbench.analysis.breaking import rank
    from ladderbench.runner.results import iter_results

    runs = [
        (d.label, list(iter_results(path)))
        for path, d in zip(paths, digests)
        if d.suite == "puzzles"
    ]
    runs = [(label, rows) for label, rows in runs if any(r.difficulty is not None for r in rows)]
    rankings = [rank(a, a_rows, b, b_rows) for (a, a_rows), (b, b_rows) in combinations(runs, 2)]
    return [r for r in rankings if r is not None]


def _ranking_table(ranking: Any) -> Any:
    from rich.table import Table

    table = Table(
        title=f"breaking points: {ranking.a} (A) vs {ranking.b} (B)", title_justify="left"
    )
    for name in ("family", "A: d at 50%", "B: d at 50%", "P(A's above B's)", "verdict"):
        table.add_column(name)
    for family, (a, b, p) in ranking.families.items():
        verdict = "A higher" if p >= 0.975 else "B higher" if p <= 0.025 else "within noise"
        table.add_row(family, f"{a:.1f}", f"{b:.1f}", f"{p:.3f}", verdict)
    return table


@app.command()
def calibrate(
    results: Annotated[list[Path], typer.Argument(help="Results files of several models.")],
    classes: Annotated[Path, typer.Option(help="TOML: model name -> tiny, small, mid, ...")],
    out: Annotated[Path | None, typer.Option(help="Write the verdicts as JSON.")] = None,
) -> None:
    """Check tier labels and static levels against models of claimed class."""
    from rich.console import Console
    from rich.table import Table

    from ladderbench.analysis.calibrate import (
        calibrate_levels,
        calibrate_tiers,
        class_of,
        load_classes,
        misplaced_items,
        suite_version,
    )
    from ladderbench.analysis.digest import digest
    from ladderbench.models.registry import BASELINES
    from ladderbench.summaries import LevelSummary, TierSummary

    claimed = load_classes(classes)
    digests = [digest(path, sample_size=0) for path in results]
    by_class: dict[str, list[TierSummary]] = {}
    static_summaries: list[LevelSummary] = []
    static_outcomes: list[dict[str, float]] = []
    for d in digests:
        if d.summary is None:
            raise UserError(f"{d.path}: the run did not finish (no summary row); finish it first")
        summary = d.summary  # already its suite's typed summary (read or computed by digest)
        if isinstance(summary, TierSummary) and summary.by_tier:
            who = class_of(summary, claimed)
            if who is None:
                typer.echo(f"warning: {d.path}: {d.label} has no class in {classes}", err=True)
            else:
                by_class.setdefault(who, []).append(summary)
        if isinstance(summary, LevelSummary) and summary.by_level and d.adapter not in BASELINES:
            static_summaries.append(summary)
            static_outcomes.append(d.item_outcome)
    from ladderbench.static.loader import load_questions

    level_of = {q.id: q.level for q in load_questions()}
    versions = sorted({suite_version(s) for runs in by_class.values() for s in runs})
    if len(versions) > 1:
        listed = ", ".join(f"v{v}" for v in versions)
        raise UserError(f"calibrate one puzzle suite version at a time: these runs are of {listed}")
    version = versions[0] if versions else "1"
    tiers = calibrate_tiers(by_class, version)
    levels = calibrate_levels(static_summaries)
    items = misplaced_items(static_outcomes, level_of)
    console = Console()
    table = Table(title=f"tier calibration (puzzle suite v{version})", title_justify="left")
    for name in ("tier", "reads as", "verdict", "why"):
        table.add_column(name)
    for v in tiers:
        table.add_row(str(v.tier), v.claimed or "beyond", v.verdict, v.why)
    console.print(table)
    if levels:
        table = Table(title="static levels", title_justify="left")
        for name in ("level", "calibrated", "rises above the level below"):
            table.add_column(name)
        for check in levels:
            table.add_row(
                str(check.level), "yes" if check.calibrated else "no", "; ".join(check.rises) or "-"
            )
        console.print(table)
    for item in items:
        console.print(
            f"item {item['id']} (level {item['level']}) reads as {item['reads_as']}: "
            f"{100 * item['share']:.0f}% of models answer it"
        )
    if out is not None:
        payload = {
            "suiteVersion": version,
            "tiers": [vars(v) for v in tiers],
            "levels": [vars(c) for c in levels],
            "misplacedItems": items,
        }
        try:
            out.write_text(json.dumps(payload, indent=2) + "\n")
        except OSError as exc:
            raise UserError(f"cannot write --out {out}: {exc.strerror or exc}") from None


@app.command("probe")
def probe_command(
    ladders: Annotated[Path, typer.Option(help="Rungs JSONL: answers of known, ordered quality.")],
    grade: Annotated[
        str | None, typer.Option(help="module:function, or a built-in grader (static.choice).")
    ] = None,
    judge_model: Annotated[
        str | None, typer.Option(help="Probe an LLM judge: local, openai:NAME, ...")
    ] = None,
    judge_prompt: Annotated[
        Path | None, typer.Option(help="Judge template with {question} {reference} {answer}.")
    ] = None,
    repeats: Annotated[int, typer.Option(min=1, help="Grades per rung.")] = 3,
    grader_timeout: Annotated[
        float,
        typer.Option(
            min=0.01, help="Seconds one call of a module:function grader may take (then: error)."
        ),
    ] = 30.0,
    out: Annotated[
        Path | None, typer.Option(help="Write the ledger, audit and gate as JSON.")
    ] = None,
    max_inversion_rate: Annotated[float, typer.Option(min=0.0, max=1.0)] = 0.05,
    min_cited_ratio: Annotated[float, typer.Option(min=0.0, max=1.0)] = 0.9,
    min_spread: Annotated[float, typer.Option(min=0.0, max=1.0)] = 0.3,
    suite: Annotated[
        str | None, typer.Option(help="Report coverage: share of this suite's cases laddered.")
    ] = None,
    base_url: Annotated[str | None, typer.Option(help="Judge endpoint (openai: judges).")] = None,
    api_key: Annotated[str | None, typer.Option(help="Judge API key; never written.")] = None,
    temperature: Annotated[float, typer.Option(min=0.0, help="Judge temperature.")] = 0.0,
    max_tokens: Annotated[int, typer.Option(min=1, help="Judge token limit.")] = 256,
    concurrency: Annotated[int, typer.Option(min=1)] = 4,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Audit a grader for monotonicity on answer ladders; exit 0 pass, 1 hold, 2 bad input."""
    from ladderbench.probe import audit, gate, load_rungs
    from ladderbench.report.probe_table import print_probe

    if (grade is None) == (judge_model is None):
        raise UserError("probe: give exactly one of --grade (a grader) or --judge-model (a judge)")
    rungs, warnings = load_rungs(ladders)
    for warning in warnings:
        typer.echo(f"warning: {ladders}: {warning}", err=True)
    if grade is not None:
        from ladderbench.probe import probe, resolve

        ledger = probe(rungs, resolve(grade, grader_timeout), repeats, grade)
    else:
        ledger = _judge_ledger(
            rungs,
            judge_model or "",
            judge_prompt,
            repeats,
            out,
            base_url,
            api_key,
            temperature,
            max_tokens,
            concurrency,
            quiet,
        )
    report = audit(ledger, min_spread=min_spread)
    coverage = _coverage(suite, {r.case_id for r in rungs}) if suite else None
    verdict = gate(ledger, report, max_inversion_rate, min_cited_ratio, coverage=coverage)
    print_probe(ledger, report, verdict)
    if out is not None:
        payload = {"ledger": ledger.to_dict(), "audit": report.to_dict(), "gate": verdict.to_dict()}
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
        except OSError as exc:
            raise UserError(f"cannot write --out {out}: {exc.strerror or exc}") from None
    raise typer.Exit(0 if verdict.passed else 1)


def _judge_ledger(
    rungs: Any,
    judge_model: str,
    judge_prompt: Path | None,
    repeats: int,
    out: Path | None,
    base_url: str | None,
    api_key: str | None,
    temperature: float,
    max_tokens: int,
    concurrency: int,
    quiet: bool,
) -> Any:
    """Grade the rungs with an LLM judge through the runner (concurrent, cached, resumable)."""
    from ladderbench.api import Job, default_out, open_cache
    from ladderbench.models.base import Sampling
    from ladderbench.models.registry import EndpointOptions, make_adapter
    from ladderbench.probe.judge import JudgeSuite, ledger_from_rows, load_template
    from ladderbench.runner.results import read_results
    from ladderbench.runner.run import RunConfig

    suite = JudgeSuite(rungs, load_template(judge_prompt))
    adapter = make_adapter(judge_model, EndpointOptions(base_url=base_url, api_key=api_key))
    calls = out.with_suffix(".calls.jsonl") if out else default_out(f"probe-{judge_model}")
    config = RunConfig(
        out=calls,
        samples=repeats,
        concurrency=concurrency,
        sampling=Sampling(temperature=temperature, max_tokens=max_tokens),
    )
    _run_with_progress(Job(suite, adapter, config, open_cache(adapter)), quiet)
    return ledger_from_rows(rungs, read_results(calls).rows, repeats, f"judge {judge_model}")


def _coverage(suite_name: str, case_ids: set[str]) -> float:
    from ladderbench.suites import make_suite

    ids = {item.id for item in make_suite(suite_name).items()}
    return len(ids & case_ids) / len(ids) if ids else 0.0


@app.command()
def suites() -> None:
    """List the suites this installation knows."""
    from ladderbench.suites import suite_names

    for name in suite_names():
        typer.echo(name)


@export_app.command("standalone")
def export_standalone(
    directory: Annotated[
        Path, typer.Argument(help="Folder to write run_ladderbench.py and the level files into.")
    ],
    data: Annotated[
        Path | None, typer.Option(help="Use these level files instead of the shipped ones.")
    ] = None,
) -> None:
    """A zero-dependency script (Python 3.8+ stdlib) running the static ladder on any endpoint."""
    from ladderbench.static.standalone import export_standalone as write

    written = write(directory, data)
    for path in written:
        typer.echo(str(path))


@export_app.command("prompts")
def export_prompts(
    out: Annotated[Path, typer.Argument(help="JSONL file: one {id, prompt} per item.")],
    suite: Annotated[str, typer.Option(help="Which suite's prompts.")] = "puzzles",
    levels: Annotated[str | None, typer.Option(help="Static levels, e.g. 4,5.")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="At most this many per level.")] = None,
    tiers: Annotated[str | None, typer.Option(help="Puzzle tiers, e.g. 5-6.")] = None,
    seeds: Annotated[str | None, typer.Option(help="Puzzle seeds, e.g. 17-20.")] = None,
    families: Annotated[str | None, typer.Option(help="Puzzle families.")] = None,
    suite_version: Annotated[str | None, typer.Option(help="Puzzle suite version.")] = None,
    difficulties: Annotated[
        str | None, typer.Option(help="Puzzle v2: a grid of difficulties, e.g. 0-12.")
    ] = None,
    live_dir: Annotated[
        Path | None, typer.Option(help="Live store made by 'ladderbench live build'.")
    ] = None,
    release: Annotated[str | None, typer.Option(help="Live release date (else latest).")] = None,
    tasks: Annotated[str | None, typer.Option(help="Live tasks.")] = None,
) -> None:
    """The prompts of a selection, without answers: what a model answering elsewhere is shown.

    Its replies, written as {id, prompt, reply} lines, are scored by serving them with
    ``python -m ladderbench.testing.replay`` and running ``openai:NAME`` against it.
    """
    from ladderbench.files import atomic_write
    from ladderbench.suites import make_suite

    options = {
        "levels": parse_int_list(levels, "--levels"),
        "limit": limit,
        "tiers": parse_int_list(tiers, "--tiers"),
        "seeds": parse_int_list(seeds, "--seeds"),
        "families": _names(families),
        "suite_version": suite_version,
        "difficulties": parse_int_list(difficulties, "--difficulties"),
        "live_dir": live_dir,
        "release": release,
        "tasks": _names(tasks),
    }
    items = make_suite(suite, **{k: v for k, v in options.items() if v is not None}).items()
    lines = "".join(
        json.dumps({"id": item.id, "prompt": item.prompt}, ensure_ascii=False) + "\n"
        for item in items
    )
    atomic_write(out, lines.encode("utf-8"))
    typer.echo(f"{len(items)} prompts (no answers) in {out}")


@suite_app.command("export")
def suite_export(
    directory: Annotated[
        Path, typer.Argument(help="Folder for the data files, the manifest (and the card).")
    ],
    suite: Annotated[
        str, typer.Option(help="puzzles; with --format hf also static, or live (--live-dir).")
    ] = "puzzles",
    format_: Annotated[
        str,
        typer.Option(
            "--format",
            help="files: JSONL per family and a sha256 manifest ('suite verify' checks it); "
            "hf: a Hugging Face dataset folder (datasets.load_dataset(DIR)) with a dataset card.",
        ),
    ] = "files",
    seeds: Annotated[str | None, typer.Option(help="Public seeds (default 1-64).")] = None,
    tiers: Annotated[str | None, typer.Option(help="Tiers, e.g. 0-3.")] = None,
    families: Annotated[str | None, typer.Option(help="Families, e.g. sudoku,caesar.")] = None,
    suite_version: Annotated[
        str | None, typer.Option(help="Puzzle suite version: 1 (default) or 2.")
    ] = None,
    difficulties: Annotated[
        str | None, typer.Option(help="Suite v2: a grid of difficulties, e.g. 0-12.")
    ] = None,
    levels: Annotated[str | None, typer.Option(help="Static levels, e.g. 4,5 (hf).")] = None,
    limit: Annotated[
        int | None, typer.Option(min=1, help="At most this many items per rung (hf).")
    ] = None,
    live_dir: Annotated[
        Path | None, typer.Option(help="Live store (hf): its published questions only.")
    ] = None,
    release: Annotated[str | None, typer.Option(help="Live release date (else latest).")] = None,
    tasks: Annotated[str | None, typer.Option(help="Live tasks (hf).")] = None,
) -> None:
    """Write a suite out: reproducible JSONL files with a sha256 manifest, or a Hugging Face
    dataset (a live store's published part only; its private hold-back never)."""
    if format_ not in ("files", "hf"):
        raise UserError(f"--format {format_}: expected files or hf")
    if format_ == "hf":
        given = {
            "levels": parse_int_list(levels, "--levels"),
            "limit": limit,
            "tiers": parse_int_list(tiers, "--tiers"),
            "seeds": parse_ranges(seeds or "1-64", "--seeds") if suite == "puzzles" else None,
            "families": _names(families),
            "suite_version": suite_version,
            "difficulties": parse_int_list(difficulties, "--difficulties"),
            "live_dir": live_dir,
            "release": release,
            "tasks": _names(tasks),
        }
        _export_hub(suite, given, directory)
        return
    if any(v is not None for v in (levels, limit, live_dir, release, tasks)):
        raise UserError("--levels, --limit, --live-dir, --release, --tasks go with --format hf")
    _export_files(suite, seeds, tiers, families, suite_version, difficulties, directory)


def _export_hub(suite: str, given: dict[str, Any], directory: Path) -> None:
    from ladderbench.hub import CARD, describe, export_hub
    from ladderbench.suites import make_suite

    target = make_suite(suite, **{k: v for k, v in given.items() if v is not None})
    items, export = describe(target)
    manifest = export_hub(items, export, directory)
    typer.echo(
        f"wrote {manifest['rows']} rows ({export.suite}, {export.version}) as a Hugging Face "
        f"dataset in {directory}; card: {directory / CARD}"
    )


def _export_files(
    suite: str,
    seeds: str | None,
    tiers: str | None,
    families: str | None,
    suite_version: str | None,
    difficulties: str | None,
    directory: Path,
) -> None:
    from ladderbench.puzzles.export import export_suite
    from ladderbench.puzzles.suite import PuzzleSuite

    if suite != "puzzles":
        raise UserError(
            f"--suite {suite}: only the puzzles suite is exported from seeds "
            "(--format hf exports static and live too)"
        )
    target = PuzzleSuite(
        tiers=parse_int_list(tiers, "--tiers"),
        seeds=parse_ranges(seeds or "1-64", "--seeds"),
        names=_names(families),
        version=suite_version or "1",
        difficulties=parse_int_list(difficulties, "--difficulties"),
    )
    manifest = export_suite(target, directory)
    typer.echo(
        f"wrote {manifest['total']} instances in {len(manifest['sha256'])} files "
        f"(suite v{manifest['version']}, seeds {manifest['seeds']}) to {directory}"
    )


@suite_app.command("verify")
def suite_verify(
    directory: Annotated[Path, typer.Argument(help="A folder written by 'suite export'.")],
) -> None:
    """Regenerate a published suite from its manifest and compare byte for byte (exit 1 if not)."""
    from ladderbench.puzzles.export import verify_suite

    result = verify_suite(directory)
    for problem in result.problems:
        typer.echo(f"mismatch: {problem}", err=True)
    if not result.ok:
        raise typer.Exit(1)
    typer.echo(
        f"verified: {result.manifest['total']} instances regenerate byte for byte "
        f"(suite v{result.manifest['version']}, seeds {result.manifest['seeds']})"
    )


@live_app.command("build")
def live_build(
    directory: Annotated[Path, typer.Argument(help="Folder for the release (the live store).")],
    release: Annotated[str, typer.Option(help="Release date, e.g. 2026-12-01.")],
    sources: Annotated[
        Path | None, typer.Option(help="Fresh material: *.txt passages, *.csv tables.")
    ] = None,
    per_task: Annotated[int, typer.Option(min=1, help="Questions per task.")] = 50,
    private_fraction: Annotated[
        str, typer.Option(help="Share held back privately until the next release.")
    ] = "1/6",
    tasks: Annotated[str | None, typer.Option(help="Only these tasks.")] = None,
    difficulty: Annotated[
        str | None,
        typer.Option(help="Per-task difficulty, e.g. zebra=3,typos=2 (else calibrated)."),
    ] = None,
) -> None:
    """Generate the first release: JSONL per category/task, a manifest, a private hold-back.

    Needs the maintainer's secret in LADDERBENCH_LIVE_SECRET (it is never written anywhere)."""
    from ladderbench.live.base import load_sources
    from ladderbench.live.release import build, parse_difficulty, parse_fraction

    manifest = build(
        directory,
        release,
        load_sources(sources),
        per_task=per_task,
        private_share=parse_fraction(private_fraction),
        names=_names(tasks),
        difficulty=parse_difficulty(difficulty),
    )
    if sources is None:
        typer.echo(
            "note: no --sources, so passages, stories and tables come from the packaged pools, "
            "which anyone can read; 'ladderbench live fetch DIR' gathers fresh material",
            err=True,
        )
    _echo_release(directory, manifest)


@live_app.command("refresh")
def live_refresh(
    directory: Annotated[Path, typer.Argument(help="A live store made by 'live build'.")],
    release: Annotated[str, typer.Option(help="The new release date.")],
    results: Annotated[
        list[Path] | None, typer.Option(help="Recent results: the easiest tasks go first.")
    ] = None,
    sources: Annotated[
        Path | None, typer.Option(help="Fresh material for the new questions.")
    ] = None,
    difficulty: Annotated[
        str | None, typer.Option(help="Per-task difficulty of new questions, e.g. zebra=4.")
    ] = None,
) -> None:
    """Make the next release: publish the hold-back, replace about a sixth of the questions.

    Needs the secret the store was built with, in LADDERBENCH_LIVE_SECRET."""
    from ladderbench.live.base import load_sources
    from ladderbench.live.release import parse_difficulty, refresh
    from ladderbench.runner.results import read_results

    rows = [row for path in results or [] for row in read_results(path).rows]
    manifest = refresh(
        directory, release, load_sources(sources), rows, parse_difficulty(difficulty)
    )
    typer.echo(f"replaced {manifest['replaced']} questions")
    _echo_release(directory, manifest)


@live_app.command("fetch")
def live_fetch(
    directory: Annotated[Path, typer.Argument(help="Folder for the material (kept, added to).")],
    since: Annotated[str, typer.Option(help="Only material published on or after YYYY-MM-DD.")],
    sources: Annotated[
        str, typer.Option(help="Comma-separated: arxiv, wikipedia, news, competition, coding.")
    ] = "arxiv,wikipedia,news,competition,coding",
    limit: Annotated[int, typer.Option(min=1, help="New files per source at most.")] = 20,
    base_url: Annotated[
        list[str] | None,
        typer.Option(help="SOURCE=URL: another endpoint (a mirror); news=URL adds a feed."),
    ] = None,
    pause: Annotated[
        float | None,
        typer.Option(min=0, help="Seconds between requests to a host (default: the source's)."),
    ] = None,
) -> None:
    """Fetch dated fresh material (passages, problems) into DIR, with provenance.jsonl.

    Newest first, incremental: files already in DIR are kept, and no text is written twice.
    Pass DIR to 'live build --sources' or 'live refresh --sources'."""
    from ladderbench.live.fetch import (
        FetchOptions,
        fetch,
        parse_base_urls,
        parse_since,
        parse_source_names,
    )

    options = FetchOptions(
        since=parse_since(since),
        sources=parse_source_names(sources),
        limit=limit,
        base_urls=parse_base_urls(base_url or []),
        pause=pause,
    )
    reports = fetch(directory, options, on_source=lambda report: typer.echo(report.line()))
    written = sum(report.written for report in reports)
    typer.echo(
        f"{written} new files in {directory}; provenance in {directory / 'provenance.jsonl'}"
    )
    if any(report.error for report in reports):
        raise typer.Exit(1)


@live_app.command("judge-study")
def live_judge_study(
    results: Annotated[list[Path], typer.Argument(help="Live-suite results, scored.")],
    judge_model: Annotated[str, typer.Option(help="The judge: local, openai:NAME, ...")],
    out: Annotated[
        Path | None, typer.Option(help="The judge's calls (resumable) as results JSONL.")
    ] = None,
    base_url: Annotated[str | None, typer.Option(help="Judge endpoint.")] = None,
    api_key: Annotated[str | None, typer.Option(help="Judge API key; never written.")] = None,
    max_tokens: Annotated[int, typer.Option(min=1)] = 128,
    concurrency: Annotated[int, typer.Option(min=1)] = 4,
    quiet: Annotated[bool, typer.Option("--quiet", "-q")] = False,
    json_out: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Ask an LLM judge about answers scored against ground truth; count where it is wrong."""
    from rich.console import Console
    from rich.table import Table

    from ladderbench.api import Job, default_out, open_cache
    from ladderbench.live.judge_study import JudgeStudySuite
    from ladderbench.models.base import Sampling
    from ladderbench.models.registry import EndpointOptions, make_adapter
    from ladderbench.runner.results import read_results
    from ladderbench.runner.run import RunConfig
    from ladderbench.summaries import JudgeStudySummary

    rows = [row for path in results for row in read_results(path).rows]
    suite = JudgeStudySuite(rows)
    adapter = make_adapter(judge_model, EndpointOptions(base_url=base_url, api_key=api_key))
    config = RunConfig(
        out=out or default_out(f"judge-study-{judge_model}"),
        concurrency=concurrency,
        sampling=Sampling(temperature=0.0, max_tokens=max_tokens),
    )
    summary = _run_with_progress(
        Job(suite, adapter, config, open_cache(adapter)), quiet or json_out
    )
    assert isinstance(summary, JudgeStudySummary)
    study = summary.study
    if json_out:
        typer.echo(json.dumps(study, indent=2))
        return
    table = Table(title=f"judge {judge_model} against ground truth", title_justify="left")
    for name in ("task", "answers", "agree", "false accepts", "false rejects", "no verdict"):
        table.add_column(name, justify="left" if name == "task" else "right")
    for task, s in study.items():
        table.add_row(
            task,
            str(s["n"]),
            f"{100 * s['agree'] / s['n']:.0f}%" if s["n"] else "-",
            str(s["falseAccept"]),
            str(s["falseReject"]),
            str(s["noVerdict"]),
        )
    Console().print(table)
    typer.echo(f"judge calls: {config.out}")


def _echo_release(directory: Path, manifest: dict[str, Any]) -> None:
    counts = manifest["counts"]
    active = sum(c["active"] for c in counts.values())
    private = sum(c["private"] for c in counts.values())
    typer.echo(
        f"release {manifest['latest']} in {directory}: {len(counts)} tasks, {active} published "
        f"questions active, {private} held back in {directory / 'private'} (do not publish it)"
    )


@app.command()
def doctor(
    model: Annotated[
        str, typer.Option(help="local or local:PATH.gguf: the embedded model to check.")
    ] = "local",
) -> None:
    """Check that the embedded model runs on this machine: a few tokens in its worker process."""
    from ladderbench.models.local import smoke_check

    kind, _, path = model.partition(":")
    if kind != "local":
        raise UserError(f"doctor --model {model}: only local or local:PATH.gguf can be checked")
    typer.echo(smoke_check(path or None))


def main() -> None:
    try:
        app()
    except UserError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)
