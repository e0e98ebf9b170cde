"""An Inspect ``.eval`` log of LadderBench's tasks, read as a results file.

``ladderbench report``, ``compare`` and ``load_results`` read results through
``runner.results.stream``; for a ``.eval`` path it yields what this module converts: a run header,
one attempt row per sample and epoch (epoch 1 is sample 0), and, for an eval that finished, the
summary its suite computes from those rows. Rows are read one sample at a time, twice for a
finished eval (rows, then the summary), so a large log is read in bounded memory.

A row is what ``ladderbench run`` writes for the same reply: the item (prompt, gold answer, rung)
is the one the task put in the sample's metadata, the verdict is the task's scorer's (the suite's
own grader), and a sample that errored is an errored attempt, never a wrong answer. The adapter is
``inspect`` and the model Inspect's name for it (``openai/NAME``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ladderbench.analysis.usage import UsageTally
from ladderbench.errors import UserError
from ladderbench.items import Item, ResultRow, RunHeader, asked
from ladderbench.summaries import Summary

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog, EvalSample
    from inspect_ai.model import ModelUsage

SUFFIX = ".eval"
METADATA_KEY = "ladderbench"  # the task metadata naming the suite (set by inspect_tasks.py)
SCORER = "ladder_scorer"  # the tasks' scorer: its scores are the suite's verdicts
TASKS = "ladderbench/static, ladderbench/puzzles, ladderbench/live"
ERROR_CHARS = 300  # an errored sample's reason, as short as the runner's


def is_eval_log(path: Path) -> bool:
    """Whether ``path`` names an Inspect log (read through this module, not as JSONL)."""
    return path.suffix == SUFFIX


def _read_header(path: Path) -> EvalLog:
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise UserError(
            f"{path}: reading an Inspect log needs inspect_ai: pip install 'ladderbench[inspect]'"
        ) from None
    if not path.is_file():
        raise UserError(f"{path}: no such file")
    try:
        return read_eval_log(str(path), header_only=True)
    except Exception as exc:  # a zip that is not a log, a log of another schema: one line
        raise UserError(f"{path}: not a readable Inspect log ({_reason(exc)})") from None


def _reason(exc: Exception) -> str:
    return _one_line(str(exc)) or type(exc).__name__


def _one_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[0][:ERROR_CHARS] if lines else ""


def _task_metadata(path: Path, log: EvalLog) -> dict[str, Any]:
    found = (log.eval.metadata or {}).get(METADATA_KEY)
    if not isinstance(found, dict) or not isinstance(found.get("suite"), str):
        raise UserError(
            f"{path}: an Inspect log of task {log.eval.task!r}, not of a LadderBench task ({TASKS})"
        )
    return found


def run_header(path: Path, log: EvalLog) -> RunHeader:
    """The run header a ``ladderbench run`` with the eval's settings would have written."""
    task = _task_metadata(path, log)
    config = log.plan.config.merge(log.eval.model_generate_config)
    return RunHeader(
        run=log.eval.run_id or log.eval.eval_id,
        suite=task["suite"],
        adapter="inspect",
        model=log.eval.model,
        settings={
            "adapter": "inspect",
            "model": log.eval.model,
            "endpoint": log.eval.model_base_url,
            "temperature": config.temperature,
            "maxTokens": config.max_tokens,
            "seed": config.seed,
            "systemPrompt": task.get("systemPrompt"),
        },
        provenance={
            "inspect": {
                "version": log.eval.packages.get("inspect_ai"),
                "task": log.eval.task,
                "taskArgs": log.eval.task_args,
                "status": log.status,
                "log": str(path),
            },
            "created": log.eval.created,
        },
    )


def _samples(path: Path) -> Iterator[EvalSample]:
    from inspect_ai.log import read_eval_log_samples

    try:
        yield from read_eval_log_samples(
            str(path),
            all_samples_required=False,
            resolve_attachments=True,
            exclude_fields={"events", "messages", "store"},
        )
    except Exception as exc:
        raise UserError(f"{path}: a sample cannot be read ({_reason(exc)})") from None


def sample_row(path: Path, header: RunHeader, sample: EvalSample) -> ResultRow:
    """One sample at one epoch as the attempt row ``ladderbench run`` writes for that reply."""
    try:
        item = Item.model_validate(sample.metadata.get("item"))
    except ValidationError:
        raise UserError(
            f"{path}: sample {sample.id!r} carries no LadderBench item; not a log of {TASKS}"
        ) from None
    score = (sample.scores or {}).get(SCORER)
    error = None
    if sample.error is not None:
        error = _one_line(sample.error.message) or "error"
    elif score is None:
        error = "not scored"
    verdict = score if error is None else None  # an errored attempt is never scored
    output = sample.output
    return ResultRow(
        run=header.run,
        adapter=header.adapter,
        model=header.model,
        suite=header.suite,
        **asked(item),
        sample=sample.epoch - 1,
        response=None if verdict is None else output.completion,
        extracted=None if verdict is None else verdict.answer,
        score=None if verdict is None else _value(path, sample, verdict.value),
        passed=None if verdict is None else bool((verdict.metadata or {}).get("passed")),
        latency_ms=round(1000 * (output.time or 0.0), 1),
        usage=_usage(output.usage),
        error=error,
    )


def _usage(usage: ModelUsage | None) -> dict[str, int]:
    """Token counts under the names an OpenAI-compatible server gives them."""
    if usage is None:
        return {}
    return {
        "prompt_tokens": usage.input_tokens,
        "completion_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens,
    }


def _value(path: Path, sample: EvalSample, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UserError(f"{path}: sample {sample.id!r} has a score {value!r}, not a number")
    return float(value)


def _rows(path: Path, header: RunHeader, visit: Callable[[ResultRow], None]) -> Iterator[ResultRow]:
    for sample in _samples(path):
        row = sample_row(path, header, sample)
        visit(row)
        yield row


def eval_log_lines(path: Path) -> Iterator[tuple[int, RunHeader | ResultRow | Summary]]:
    """What ``runner.results.stream`` yields for a results file, for an Inspect log: the header
    (line 1), an attempt row per sample and epoch, and the summary if the eval finished."""
    log = _read_header(path)
    header = run_header(path, log)
    yield 1, header
    epochs = 1

    def seen(row: ResultRow) -> None:
        nonlocal epochs
        epochs = max(epochs, row.sample + 1)

    lineno = 1
    for lineno, row in enumerate(_rows(path, header, seen), start=2):
        yield lineno, row
    if log.status == "success" and lineno > 1:
        yield lineno + 1, _summary(path, log, header, epochs)


def _summary(path: Path, log: EvalLog, header: RunHeader, epochs: int) -> Summary:
    """The suite's summary of the eval's rows (a second pass), with the settings, token usage,
    time and provenance ``ladderbench run`` adds."""
    from ladderbench.suites import summarise_rows

    tally = UsageTally()
    summary = summarise_rows(_rows(path, header, tally.add), header.suite, epochs)
    task = _task_metadata(path, log)
    summary.settings = {**header.settings, **task.get("settings", {}), "samples": epochs}
    summary.usage = tally.usage()
    started, finished = log.stats.started_at, log.stats.completed_at
    if started and finished:
        elapsed = datetime.fromisoformat(finished) - datetime.fromisoformat(started)
        summary.elapsed_s = round(elapsed.total_seconds(), 3)
    summary.provenance = {**header.provenance, "finished": finished}
    return summary
