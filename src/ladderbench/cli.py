"""The ``ladderbench`` command: run, report, export, suites.

User mistakes surface as one line on stderr and exit code 2 (``UserError``); anything else is a
bug and keeps its traceback.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from ladderbench.errors import UserError
from ladderbench.ranges import parse_ranges

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


def parse_int_list(text: str | None, flag: str) -> list[int] | None:
    return None if text is None else parse_ranges(text, flag)


def _names(text: str | None) -> list[str] | None:
    return None if text is None else [n.strip() for n in text.split(",") if n.strip()]


def default_out(model: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", model).strip("_") or "model"
    return Path("results") / f"{safe}_{datetime.now().strftime('%Y%m%d-%H%M%S')}.jsonl"


@app.command()
def run(
    model: Annotated[
        str, typer.Option(help="local, local:PATH.gguf, openai:NAME, oracle, echo, random")
    ] = "local",
    suite: Annotated[str, typer.Option(help="Which suite to run.")] = "static",
    out: Annotated[
        Path | None, typer.Option(help="Results JSONL; an existing one is resumed.")
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible endpoint (or OPENAI_BASE_URL).")
    ] = None,
    api_key: Annotated[
        str | None, typer.Option(help="API key (or OPENAI_API_KEY); never written anywhere.")
    ] = None,
    temperature: Annotated[float, typer.Option(min=0.0)] = 0.0,
    max_tokens: Annotated[int, typer.Option(min=1, help="Token limit per answer.")] = 512,
    timeout: Annotated[float, typer.Option(min=0.1, help="Seconds per request.")] = 120.0,
    retries: Annotated[
        int, typer.Option(min=0, help="Retries per request on transient failures.")
    ] = 5,
    retry_wait: Annotated[
        float, typer.Option(min=0.0, help="Base seconds of the exponential backoff.")
    ] = 1.0,
    samples: Annotated[
        int, typer.Option(min=1, help="Attempts per item (pass@k as a diagnostic).")
    ] = 1,
    concurrency: Annotated[int, typer.Option(min=1, help="Requests in flight at once.")] = 8,
    seed: Annotated[int, typer.Option(help="Seed for sampling and the random baseline.")] = 0,
    levels: Annotated[str | None, typer.Option(help="Static levels, e.g. 4,5.")] = None,
    limit: Annotated[
        int | None, typer.Option(min=1, help="At most this many items per level.")
    ] = None,
    tiers: Annotated[str | None, typer.Option(help="Puzzle tiers, e.g. 0-3.")] = None,
    seeds: Annotated[
        str | None, typer.Option(help="Puzzle seeds, e.g. 1-32 (default 1-16).")
    ] = None,
    families: Annotated[
        str | None, typer.Option(help="Puzzle families, e.g. sudoku,caesar.")
    ] = None,
    secret_key: Annotated[
        str | None,
        typer.Option(help="Admission seeds from this key (or LADDERBENCH_SECRET); never written."),
    ] = None,
    data: Annotated[
        Path | None, typer.Option(help="Folder of your own levelN_NAME.jsonl files.")
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Do not read or write the response cache.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Evaluate a model on a suite; with no options, the embedded model on the static ladder."""
    from ladderbench.models.base import Sampling
    from ladderbench.models.registry import EndpointOptions, make_adapter
    from ladderbench.runner.run import RunConfig, run_suite
    from ladderbench.suites import make_suite

    target = make_suite(
        suite,
        data_dir=data,
        levels=parse_int_list(levels, "--levels"),
        limit=limit,
        tiers=parse_int_list(tiers, "--tiers"),
        seeds=parse_int_list(seeds, "--seeds"),
        families=_names(families),
        secret_key=secret_key,
    )
    adapter = make_adapter(
        model,
        EndpointOptions(
            base_url=base_url,
            api_key=api_key,
            timeout=timeout,
            retries=retries,
            retry_wait=retry_wait,
        ),
        seed=seed,
    )
    config = RunConfig(
        out=out or default_out(model),
        samples=samples,
        concurrency=concurrency,
        sampling=Sampling(temperature=temperature, max_tokens=max_tokens, seed=seed),
    )
    cache = None
    if not no_cache and adapter.cacheable:
        from ladderbench.runner.cache import ResponseCache, default_cache_path

        cache = ResponseCache(default_cache_path())
    summary = _run_with_progress(run_suite, target, adapter, config, cache, quiet or json_out)
    _show(summary, json_out)
    if not json_out:
        typer.echo(f"results: {config.out} (run again with --out {config.out} to resume)")


def _run_with_progress(
    run_suite: Any, target: Any, adapter: Any, config: Any, cache: Any, quiet: bool
) -> dict[str, Any]:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            return Text(f"{task.speed:.1f}/s" if task.speed else "-/s")

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        disable=quiet,
        transient=False,
    )
    task = progress.add_task(f"{adapter.kind}:{adapter.model}", total=None)

    def on_start(total: int, done: int) -> None:
        progress.update(task, total=total, completed=done)
        if done and not quiet:
            progress.console.print(
                f"resuming {config.out}: {done} of {total} attempts already done"
            )

    def advance(n: int) -> None:
        progress.advance(task, n)

    try:
        with progress:
            return asyncio.run(run_suite(target, adapter, config, cache, advance, on_start))
    except KeyboardInterrupt:
        typer.echo(
            f"interrupted; the rows so far are in {config.out}: "
            f"run the same command with --out {config.out} to resume",
            err=True,
        )
        raise typer.Exit(130) from None
    finally:
        if cache is not None:
            cache.close()


def _show(summary: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    from ladderbench.report.table import print_summary

    print_summary(summary)


@app.command()
def report(
    results: Annotated[list[Path], typer.Argument(help="Results JSONL file(s).")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Print the tables again from results files (a run cut short is summarised from its rows)."""
    from ladderbench.analysis.summary import summarise
    from ladderbench.runner.results import read_results

    for path in results:
        data = read_results(path)
        summary = data.summary
        if summary is None:
            if not data.rows:
                raise UserError(f"{path}: no result rows")
            tiers = any(r.tier is not None for r in data.rows)
            summary = summarise(
                data.rows,
                rung="tier" if tiers else "level",
                group="family" if tiers else "category",
                samples=max(r.sample for r in data.rows) + 1,
            )
            typer.echo(
                f"{path}: the run did not finish; summary computed from its {len(data.rows)} rows",
                err=True,
            )
        _show(summary, json_out)


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


@suite_app.command("export")
def suite_export(
    directory: Annotated[
        Path, typer.Argument(help="Folder for the JSONL files and manifest.json.")
    ],
    suite: Annotated[str, typer.Option(help="Only 'puzzles' is generated from seeds.")] = "puzzles",
    seeds: Annotated[str, typer.Option(help="Public seeds, e.g. 1-64.")] = "1-64",
    tiers: Annotated[str | None, typer.Option(help="Tiers, e.g. 0-3.")] = None,
    families: Annotated[str | None, typer.Option(help="Families, e.g. sudoku,caesar.")] = None,
) -> None:
    """Write a reproducible suite: instances as JSONL and a sha256 manifest."""
    from ladderbench.puzzles.export import export_suite
    from ladderbench.puzzles.suite import PuzzleSuite

    if suite != "puzzles":
        raise UserError(f"--suite {suite}: only the puzzles suite is exported from seeds")
    target = PuzzleSuite(
        tiers=parse_int_list(tiers, "--tiers"),
        seeds=parse_ranges(seeds, "--seeds"),
        names=_names(families),
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


def main() -> None:
    try:
        app()
    except UserError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)
