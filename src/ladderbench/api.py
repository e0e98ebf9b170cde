"""The Python API, for notebooks and scripts: run a suite, read a results file as a DataFrame.

``evaluate`` runs exactly what ``ladderbench run`` runs: both build the job with ``prepare_run``
and run it with ``run_job``, so the same options give the same rows, summary and cache entries.
Importing this module stays light (pandas, pydantic and the suites are imported when called).
"""

from __future__ import annotations

import asyncio
import math
import os
import re
import threading
import types
import typing
import warnings
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from ladderbench.errors import UserError
from ladderbench.models.endpoints import MAX_RESPONSE_BYTES

if TYPE_CHECKING:
    import pandas as pd

    from ladderbench.items import ResultRow
    from ladderbench.models.base import ModelAdapter
    from ladderbench.models.registry import EndpointOptions
    from ladderbench.runner.cache import ResponseCache
    from ladderbench.runner.run import RunConfig
    from ladderbench.suites import Suite
    from ladderbench.summaries import Summary

__all__ = ["Evaluation", "SuiteName", "evaluate", "load_results", "load_summary"]

SuiteName = Literal["live", "puzzles", "static"]
"""The suites this installation registers (``ladderbench suites``)."""

T = TypeVar("T")

# ---------------------------------------------------------------------------------------------
# Reading results

# The nullable dtype of each scalar field type: a missing value is NA, never False, 0 or "".
_DTYPES: dict[Any, str] = {bool: "boolean", int: "Int64", float: "Float64", str: "string"}
# Token counts every OpenAI-compatible server reports: columns even when no row has them.
_USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")


def _alternatives(hint: Any) -> list[Any]:
    """The types a hint allows besides None: ``int | None`` -> ``[int]``."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return [a for a in typing.get_args(hint) if a is not type(None)]
    return [hint]


def _field_kind(annotation: Any) -> Any:
    """A row field's type without ``| None``: ``int | None`` -> ``int``."""
    kinds = _alternatives(annotation)
    return kinds[0] if len(kinds) == 1 else annotation


def _row_columns() -> dict[str, Any]:
    """Each attempt-row field as written (its JSON key) and its type, read off ``ResultRow``:
    a field added there is a column here."""
    from ladderbench.items import ResultRow

    return {
        field.alias or name: _field_kind(field.annotation)
        for name, field in ResultRow.model_fields.items()
    }


def _is_counts(kind: Any) -> bool:
    return typing.get_origin(kind) is dict and typing.get_args(kind) == (str, int)


def _count_columns(name: str, records: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """A ``{key: int}`` field (``usage``) as one column per key, ``usage.total_tokens``..."""
    keys = dict.fromkeys(_USAGE_KEYS if name == "usage" else ())
    for record in records:
        keys.update(dict.fromkeys(record[name]))
    return {f"{name}.{key}": [record[name].get(key) for record in records] for key in keys}


def load_results(path: str | os.PathLike[str]) -> pd.DataFrame:
    """The attempt rows of a results file, one per attempt, as a DataFrame.

    Columns are the JSONL keys (``pass``, ``latencyMs``...) with nullable dtypes: ``pass`` is
    ``boolean`` (an errored attempt is NA, never False), ``score`` and ``latencyMs``
    ``Float64``, ``level``, ``tier``, ``difficulty``, ``seed`` and ``sample`` ``Int64``, text
    ``string``; ``usage`` becomes ``Int64`` token columns ``usage.prompt_tokens``,
    ``usage.completion_tokens``, ``usage.total_tokens`` (and any other key a server reported).
    A run cut short loads the rows it wrote. A file that is not a LadderBench results file
    raises ``UserError`` naming the file and line.
    """
    import pandas as pd

    from ladderbench.runner.results import read_results

    records = [row.to_json_dict() for row in read_results(Path(path)).rows]
    columns: dict[str, Any] = {}
    for name, kind in _row_columns().items():
        if _is_counts(kind):
            for column, values in _count_columns(name, records).items():
                columns[column] = pd.array(values, dtype="Int64")
        else:
            values = [record[name] for record in records]
            columns[name] = pd.array(values, dtype=_DTYPES.get(kind, object))
    return pd.DataFrame(columns)


def load_summary(path: str | os.PathLike[str]) -> Summary:
    """The summary of a results file, typed as its suite writes it (``.to_json_dict()`` gives
    the JSON): the file's own summary row or, for a run cut short, the summary computed from its
    rows (what ``ladderbench report`` prints), with a warning saying so."""
    from ladderbench.runner.results import scan

    result = scan(Path(path))
    if result.summary is None:  # not reached: scan summarises a run cut short, or raises
        raise UserError(f"{path}: no result rows")
    if not result.finished:
        warnings.warn(
            f"{path}: the run did not finish; summary computed from its "
            f"{result.summary.total} rows",
            stacklevel=2,
        )
    return result.summary


# ---------------------------------------------------------------------------------------------
# Running: one code path with ``ladderbench run``


def file_stem(model: str) -> str:
    """A model spec as a file name: ``openai:gpt-4o`` -> ``openai_gpt-4o``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", model).strip("_") or "model"


def default_out(model: str) -> Path:
    """``results/<model>_<timestamp>.jsonl``: where a run writes when not told."""
    return Path("results") / f"{file_stem(model)}_{datetime.now().strftime('%Y%m%d-%H%M%S')}.jsonl"


@dataclass
class Job:
    """A run ready to start: the suite, the model adapter, the run settings, the open cache."""

    suite: Suite
    adapter: ModelAdapter
    config: RunConfig
    cache: ResponseCache | None


def open_cache(adapter: ModelAdapter) -> ResponseCache | None:
    """The response cache, for an adapter whose answers are worth keeping (not the baselines)."""
    if not adapter.cacheable:
        return None
    from ladderbench.runner.cache import ResponseCache, default_cache_path

    return ResponseCache(default_cache_path())


def prepare_run(
    model: str,
    suite: str,
    suite_options: Mapping[str, Any],
    endpoint: EndpointOptions,
    config: RunConfig,
    *,
    seed: int,
    cache: bool,
    workers: int = 1,
    executor: str = "local",
    ray_address: str | None = None,
) -> Job:
    """Build a run by names: the suite from the options given (None is not given; an option the
    suite does not take is a UserError), the adapter from the model spec, the response cache.

    ``workers`` model workers: processes on this machine (``local`` models), or with
    ``executor="ray"`` Ray actors on the cluster at ``ray_address`` (or RAY_ADDRESS; else a
    local one).
    """
    from functools import partial

    from ladderbench.models.registry import make_adapter
    from ladderbench.suites import make_suite

    if executor not in ("local", "ray"):
        raise UserError(f"--executor {executor}: use local or ray")
    if ray_address and executor != "ray":
        raise UserError("--ray-address: only with --executor ray")
    target = make_suite(suite, **{k: v for k, v in suite_options.items() if v is not None})
    if executor == "ray":
        from ladderbench.runner.ray_executor import ray_adapter

        adapter = ray_adapter(partial(make_adapter, model, endpoint, seed), workers, ray_address)
    else:
        adapter = make_adapter(model, endpoint, seed=seed, workers=workers)
    if workers > 1 and adapter.concurrency_limit:  # every worker busy, whatever --concurrency
        config = replace(config, concurrency=max(config.concurrency, adapter.concurrency_limit))
    return Job(target, adapter, config, open_cache(adapter) if cache else None)


def run_job(job: Job, progress: bool = False) -> Summary:
    """Run every missing attempt of ``job`` into its results file; the summary comes back.

    With ``progress`` a progress bar (running pass rate and errors, speed, ETA) is shown on
    stderr, when stderr is a terminal: stdout stays the tables or the JSON alone. Ctrl-C stops
    the run and keeps its rows (KeyboardInterrupt is raised on); the cache is closed in any case.
    """
    from contextlib import nullcontext

    from rich.console import Console

    from ladderbench.runner.run import run_suite

    label = f"{job.adapter.kind}:{job.adapter.model}"
    progress = progress and Console(stderr=True).is_terminal  # a bar only where someone watches
    bar, advance, on_start = (
        _progress_bar(label, job.config.out) if progress else (nullcontext(), None, None)
    )
    try:
        with bar:
            return _run_coroutine(
                lambda: run_suite(job.suite, job.adapter, job.config, job.cache, advance, on_start)
            )
    finally:
        if job.cache is not None:
            job.cache.close()


@dataclass
class Tally:
    """The running counts the progress bar shows, so a failing endpoint shows in the first
    seconds (errors climbing, no pass rate) rather than in the summary at the end."""

    passed: int = 0
    scored: int = 0
    errors: int = 0

    def add(self, row: ResultRow) -> None:
        if row.error is not None:
            self.errors += 1
        elif row.passed is not None:
            self.scored += 1
            self.passed += bool(row.passed)

    def describe(self) -> str:
        """``pass 72% · errors 3`` (rich markup: errors in red once there is one)."""
        rate = f"{100 * self.passed / self.scored:.0f}%" if self.scored else "-"
        errors = f"errors {self.errors}"
        return f"pass {rate} · " + (f"[bold red]{errors}[/bold red]" if self.errors else errors)


def _progress_bar(label: str, out: Path) -> Any:
    """A rich progress bar with the running pass rate, errors, speed and ETA, and the two
    callbacks the runner drives it with (``advance`` takes each row as it is written)."""
    from rich.console import Console
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

    tally = Tally()
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[tally]}"),
        RateColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    )
    task = progress.add_task(label, total=None, tally=tally.describe())

    def on_start(total: int, done: int) -> None:
        progress.update(task, total=total, completed=done)
        if done:
            progress.console.print(f"resuming {out}: {done} of {total} attempts already done")

    def advance(row: ResultRow) -> None:
        tally.add(row)
        progress.update(task, advance=1, tally=tally.describe())

    return progress, advance, on_start


def _run_coroutine(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to the end from synchronous code.

    Inside a running event loop (Jupyter, ``asyncio.run``) this thread cannot wait on a
    coroutine, so it runs in a worker thread with its own loop. Ctrl-C there cancels the run,
    waits for it to close its file and model, and raises KeyboardInterrupt here.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_as_coroutine(make))
    worker = _Worker(make)
    worker.start()
    try:
        worker.finished.wait()
    except KeyboardInterrupt:
        worker.cancel()
        worker.finished.wait()
        raise
    return worker.outcome()


async def _as_coroutine(make: Callable[[], Awaitable[T]]) -> T:
    return await make()


class _Worker(threading.Thread, typing.Generic[T]):
    """A thread running one coroutine in its own event loop, cancellable from outside."""

    def __init__(self, make: Callable[[], Awaitable[T]]) -> None:
        super().__init__(name="ladderbench-run", daemon=True)
        self._make = make
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[T] | None = None
        self._result: T | None = None
        self._error: BaseException | None = None
        self.finished = threading.Event()  # not join(): an interrupted join can return early

    def run(self) -> None:
        try:
            self._result = asyncio.run(self._main())
        except BaseException as exc:  # handed to the caller's thread, raised there
            self._error = exc
        finally:
            self.finished.set()

    async def _main(self) -> T:
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.current_task()
        return await self._make()

    def cancel(self) -> None:
        if self._loop is not None and self._task is not None:
            self._loop.call_soon_threadsafe(self._task.cancel)

    def outcome(self) -> T:
        if self._error is not None:
            raise self._error
        return self._result  # type: ignore[return-value]


@dataclass(frozen=True)
class Evaluation:
    """What ``evaluate`` gives back: the run's summary and its results file."""

    summary: Summary
    path: Path

    def rows(self) -> pd.DataFrame:
        """The attempt rows as a DataFrame (``load_results(self.path)``)."""
        return load_results(self.path)


def _at_least(name: str, value: float, low: float) -> None:
    if not math.isfinite(value):  # inf and nan pass a comparison with low
        raise UserError(f"{name}={value}: must be a finite number")
    if value < low:
        raise UserError(f"{name}={value}: must be at least {low}")


def _suite_options(suite: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Options as Python gives them, in the types the suite's config takes: a str for a path,
    a tuple or range for a list. Names are checked by ``make_suite``."""
    from ladderbench.suites import SUITES

    hints = typing.get_type_hints(SUITES.get(suite).config)
    coerced = dict(options)
    for name, value in options.items():
        takes = {typing.get_origin(kind) or kind for kind in _alternatives(hints.get(name))}
        if isinstance(value, (str, os.PathLike)) and Path in takes:
            coerced[name] = Path(value)
        elif isinstance(value, (tuple, range)) and list in takes:
            coerced[name] = list(value)
    return coerced


def evaluate(
    model: str = "local",
    suite: SuiteName = "static",
    *,
    out: str | os.PathLike[str] | None = None,
    samples: int = 1,
    concurrency: int = 8,
    workers: int = 1,
    executor: str = "local",
    ray_address: str | None = None,
    temperature: float = 0.0,
    max_tokens: int = 512,
    seed: int = 0,
    system_prompt: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: float = 120.0,
    retries: int = 5,
    retry_wait: float = 1.0,
    max_response_bytes: int = MAX_RESPONSE_BYTES,
    price_in: float | None = None,
    price_out: float | None = None,
    cache: bool = True,
    progress: bool = False,
    **suite_options: Any,
) -> Evaluation:
    """Evaluate ``model`` on ``suite``, as ``ladderbench run`` does with the same options.

    ``model`` is a model spec (``local``, ``local:PATH.gguf``, ``openai:NAME``, ``ollama:NAME``,
    ``oracle``, ``echo``, ``random``). ``suite_options`` are the suite's own options, named as
    its flags (``levels=[4, 5]``, ``limit=5``; ``tiers``, ``seeds``, ``families`` for
    puzzles...); one the suite does not take is a UserError. ``out`` defaults to
    ``results/<model>_<timestamp>.jsonl``; an existing file is resumed. ``cache=False`` is
    ``--no-cache``; ``max_response_bytes`` is ``--max-response-bytes`` (8 MiB: a longer
    answer is an error row); ``workers``, ``executor`` (``"local"`` or ``"ray"``) and
    ``ray_address`` are ``--workers``, ``--executor`` and ``--ray-address``;
    ``price_in``/``price_out`` (US dollars per million prompt and completion tokens) add an
    estimated cost to the summary's usage. Works inside a running
    event loop (Jupyter): the run then goes to a worker thread. Attempts that ended in an error
    are not scored; a warning says how many.
    """
    from ladderbench.models.base import Sampling
    from ladderbench.models.registry import EndpointOptions
    from ladderbench.runner.run import RunConfig

    for name, value, low in (
        ("samples", samples, 1),
        ("concurrency", concurrency, 1),
        ("workers", workers, 1),
        ("temperature", temperature, 0.0),
        ("max_tokens", max_tokens, 1),
        ("timeout", timeout, 0.1),
        ("retries", retries, 0),
        ("retry_wait", retry_wait, 0.0),
        ("max_response_bytes", max_response_bytes, 1),
        ("price_in", 0.0 if price_in is None else price_in, 0.0),
        ("price_out", 0.0 if price_out is None else price_out, 0.0),
    ):
        _at_least(name, value, low)
    config = RunConfig(
        out=Path(out) if out is not None else default_out(model),
        samples=samples,
        concurrency=concurrency,
        sampling=Sampling(temperature=temperature, max_tokens=max_tokens, seed=seed),
        system_prompt=system_prompt or None,
        price_in=price_in,
        price_out=price_out,
    )
    endpoint = EndpointOptions(
        base_url=base_url,
        api_key=api_key,
        timeout=timeout,
        retries=retries,
        retry_wait=retry_wait,
        max_response_bytes=max_response_bytes,
    )
    options = _suite_options(suite, suite_options)
    job = prepare_run(
        model,
        suite,
        options,
        endpoint,
        config,
        seed=seed,
        cache=cache,
        workers=workers,
        executor=executor,
        ray_address=ray_address,
    )
    summary = run_job(job, progress=progress)
    if summary.errors:
        warnings.warn(
            f"{summary.errors} of {summary.total} attempts ended in an error and were not scored "
            f"(the rates are over the {summary.total - summary.errors} scored); call evaluate "
            f"again with out={str(config.out)!r} to retry them",
            stacklevel=2,
        )
    return Evaluation(summary, config.out)
