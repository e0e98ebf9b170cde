"""The async runner: every (item, sample) attempt exactly once, resumable, cached, concurrent."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ladderbench.analysis.usage import usage_totals
from ladderbench.errors import UserError
from ladderbench.grading.scorer import GraderCrash, guarded
from ladderbench.items import Completion, Item, ResultRow, RunHeader, Verdict, asked
from ladderbench.models.base import ModelAdapter, ModelCrash, Request, Sampling
from ladderbench.models.endpoints import writable
from ladderbench.runner.cache import ResponseCache, cache_key
from ladderbench.runner.provenance import provenance
from ladderbench.runner.results import Results, ResultWriter, check_same_job
from ladderbench.suites import SequentialSuite, Suite
from ladderbench.summaries import Summary

Progress = Callable[[ResultRow], None]  # called with each row as it is written


@dataclass(frozen=True)
class RunConfig:
    """How to run: where to write, how often to ask, and what the record should say.

    ``command`` (the command line, scrubbed of secrets before it is written) and the prices (US
    dollars per million tokens, for the cost estimate) go into the record only.
    """

    out: Path
    samples: int = 1
    concurrency: int = 8
    sampling: Sampling = field(default_factory=Sampling)
    system_prompt: str | None = None
    command: Sequence[str] | None = None
    price_in: float | None = None
    price_out: float | None = None


# The options that set each answer-changing setting, for a refused resume's message.
SETTING_FLAGS = {
    "endpoint": "--base-url",
    "path": "--model",
    "backend": "the llama-cpp-python build",
    "temperature": "--temperature",
    "maxTokens": "--max-tokens",
    "seed": "--seed",
    "systemPrompt": "--system-prompt",
}


def answer_settings(adapter: ModelAdapter, config: RunConfig) -> dict[str, Any]:
    """Everything besides the prompt that changes an answer: a resume must match all of it."""
    return {
        **adapter.settings(),
        "temperature": config.sampling.temperature,
        "maxTokens": config.sampling.max_tokens,
        "seed": config.sampling.seed,
        "systemPrompt": config.system_prompt,
    }


def new_run_id() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(3)


def _writable(completion: Completion) -> Completion:
    """The completion as the results file and the cache can write it (``endpoints.writable``)."""
    try:
        completion.text.encode("utf-8")
    except UnicodeEncodeError:
        return completion.model_copy(update={"text": writable(completion.text)})
    return completion


def _request(item: Item, sample: int, config: RunConfig) -> Request:
    messages: list[dict[str, str]] = []
    if config.system_prompt:
        messages.append({"role": "system", "content": config.system_prompt})
    messages.append({"role": "user", "content": item.prompt})
    return Request(
        item_id=item.id,
        messages=tuple(messages),
        sampling=config.sampling,
        sample=sample,
        reference=item.reference,
        choices=item.choices,
    )


class _Attempts:
    """Runs attempts and writes their rows; shared by the workers of one run."""

    def __init__(
        self,
        suite: Suite,
        adapter: ModelAdapter,
        config: RunConfig,
        writer: ResultWriter,
        cache: ResponseCache | None,
        run_id: str,
        progress: Progress | None,
    ) -> None:
        self.suite = suite
        self.adapter = adapter
        self.config = config
        self.writer = writer
        self.cache = cache if adapter.cacheable else None
        self.run_id = run_id
        self.progress = progress
        self.settings = adapter.settings()
        self.rows: list[ResultRow] = []
        # The first attempt checks the configuration; others may run alongside it but write
        # nothing until it has succeeded, so a wrong endpoint leaves one error, not a file of them.
        self.checked: asyncio.Future[None] | None = None

    async def one(self, item: Item, sample: int, first: bool = False) -> None:
        request = _request(item, sample, self.config)
        key = cache_key(self.settings, request) if self.cache else ""
        completion = self.cache.get(key) if self.cache else None
        if completion is None:
            call = self.adapter.check if first else self.adapter.complete
            completion = _writable(await call(request))
            if self.cache:
                self.cache.put(key, completion)
        if not first and self.checked is not None:
            await asyncio.shield(self.checked)
        verdict = None
        if completion.error is None:
            try:
                # Off the event loop, always: a reply that is slow to read (or a sympy or
                # sandbox grader) must not stall the other requests in flight. The adapter
                # decides where (a thread; under Ray, a task on the cluster).
                verdict = await self.adapter.offload(
                    guarded, self.suite.grade, item, completion.text
                )
            except GraderCrash as crash:  # a harness bug: an error row, never a wrong answer
                completion = completion.model_copy(update={"error": str(crash)})
        row = self._row(item, sample, completion, verdict)
        self.writer.append(row)
        self.rows.append(row)
        if self.progress:
            self.progress(row)

    def _row(
        self, item: Item, sample: int, completion: Completion, verdict: Verdict | None
    ) -> ResultRow:
        if verdict is not None:
            extracted, score, passed = verdict.extracted, verdict.score, verdict.passed
            response: str | None = completion.text
        else:  # never scored: an error is not a wrong answer
            extracted, score, passed, response = None, None, None, None
        return ResultRow(
            run=self.run_id,
            adapter=self.adapter.kind,
            model=self.adapter.model,
            suite=self.suite.name,
            **asked(item),
            sample=sample,
            response=response,
            extracted=extracted,
            score=score,
            passed=passed,
            latency_ms=round(completion.latency_ms, 1),
            server_ms=None if completion.server_ms is None else round(completion.server_ms, 1),
            cached=completion.cached,
            usage=completion.usage,
            error=completion.error,
        )


async def _drain(attempts: _Attempts, pending: Iterator[tuple[Item, int]], workers: int) -> None:
    """``workers`` coroutines taking attempts from one shared iterator until it runs dry."""

    async def worker() -> None:
        for item, sample in pending:
            await attempts.one(item, sample)

    await asyncio.gather(*(worker() for _ in range(workers)))


def plan(suite: Suite, samples: int) -> list[tuple[Item, int]]:
    if samples < 1:
        raise UserError(f"--samples {samples}: must be at least 1")
    return [(item, s) for item in suite.items() for s in range(samples)]


async def _attempt_all(
    attempts: _Attempts,
    adapter: ModelAdapter,
    config: RunConfig,
    todo: list[tuple[Item, int]],
    check_first: bool = True,
) -> None:
    """Run ``todo``: the first attempt checks the configuration (unless ``check_first`` is off:
    a later round of a sequential run); ``workers`` in flight."""
    workers = min(config.concurrency, adapter.concurrency_limit or config.concurrency)
    if not check_first:
        await _drain(attempts, iter(todo), workers)
        return
    pending = iter(todo[1:])
    if todo and workers == 1:
        await attempts.one(*todo[0], first=True)
        await _drain(attempts, pending, 1)
    elif todo:
        check = asyncio.ensure_future(attempts.one(*todo[0], first=True))
        attempts.checked = check
        # the check's slot joins the others once it has passed: `workers` in flight throughout
        rest = asyncio.ensure_future(_drain(attempts, pending, workers - 1))

        async def then_drain() -> None:
            await check
            await _drain(attempts, pending, 1)

        checker = asyncio.ensure_future(then_drain())
        try:
            await check
            await rest
            await checker
        finally:
            for task in (check, rest, checker):
                task.cancel()
            await asyncio.gather(check, rest, checker, return_exceptions=True)


def _replay(
    suite: SequentialSuite, done: dict[tuple[str, int], ResultRow]
) -> tuple[list[ResultRow], list[Item]]:
    """The rows of the rounds a resumed sequential run completed, recomputed from its rows, and
    every item those rounds and the next one ask.

    Rounds are a pure function of the rows before them, so replaying from the start meets the
    same rounds; the first one with an attempt missing is where the run carries on.
    """
    history: list[ResultRow] = []
    asked: list[Item] = []
    while True:
        items = suite.next_round(history) or []
        asked += items
        if not items or any((item.id, 0) not in done for item in items):
            return history, asked
        history += [done[(item.id, 0)] for item in items]


def _check_rows_belong(
    done_rows: list[ResultRow],
    planned_keys: set[tuple[str, int]],
    asked: list[Item],
    out: Path,
) -> None:
    """Refuse a resume whose kept rows are outside this selection, or answered a question that
    has changed since (another ladderbench version, another --data): mixing them would mis-score."""
    stray = [row.key for row in done_rows if row.key not in planned_keys]
    if stray:
        raise UserError(
            f"{out} holds attempts outside this selection (e.g. {stray[0][0]!r} "
            f"sample {stray[0][1]}); resume with the same options or choose another --out"
        )
    questions = {item.id: item for item in asked}
    for row in done_rows:
        item = questions.get(row.id)
        if item is not None and (row.prompt, row.expected) != (item.prompt, item.expected):
            what = "prompt" if row.prompt != item.prompt else "gold answer"
            raise UserError(
                f"{out}: the {what} of {row.id!r} is not the one its rows answered (the "
                "questions changed since they were written); choose another --out"
            )


def _header(
    suite: Suite,
    adapter: ModelAdapter,
    config: RunConfig,
    existing: Results,
    asked: list[Item] | None,
) -> RunHeader:
    """This run's header: the run id of the file it resumes, if any, else a new one."""
    scored = [row for row in existing.rows if row.error is None]
    if existing.header is not None and scored:
        run_id = existing.header.run
    else:
        run_id = scored[0].run if scored else new_run_id()
    return RunHeader(
        run=run_id,
        suite=suite.name,
        adapter=adapter.kind,
        model=adapter.model,
        settings=answer_settings(adapter, config),
        provenance=provenance(asked, config.command),
    )


async def run_suite(
    suite: Suite,
    adapter: ModelAdapter,
    config: RunConfig,
    cache: ResponseCache | None = None,
    progress: Progress | None = None,
    on_start: Callable[[int, int], None] | None = None,
) -> Summary:
    """Run the missing attempts of ``suite`` into ``config.out`` and return the summary.

    A sequential suite (an adaptive search) is run round by round, each round's items chosen
    from the rows of the rounds before. ``on_start(total, already_done)`` is called once the
    plan (for a sequential suite, its most attempts) and the resumed rows are known.
    """
    if config.concurrency < 1:
        raise UserError(f"--concurrency {config.concurrency}: must be at least 1")
    sequential = isinstance(suite, SequentialSuite) and suite.next_round([]) is not None
    if sequential and config.samples != 1:
        raise UserError(f"--samples {config.samples}: an adaptive run asks each instance once")
    attempts_planned = [] if sequential else plan(suite, config.samples)
    writer = ResultWriter(config.out)
    try:
        # every check before anything is written: a refused resume leaves the file as it was
        existing = writer.read()
        done = {row.key: row for row in existing.rows if row.error is None}
        if isinstance(suite, SequentialSuite) and sequential:
            history, asked = _replay(suite, done)
            current = suite.next_round(history) or []
            planned_keys = {row.key for row in history} | {(item.id, 0) for item in current}
            total = max(suite.planned_total(), len(done))
        else:
            asked = list({item.id: item for item, _ in attempts_planned}.values())
            planned_keys = {(item.id, s) for item, s in attempts_planned}
            total = len(attempts_planned)
        header = _header(suite, adapter, config, existing, None if sequential else asked)
        check_same_job(config.out, existing, header, SETTING_FLAGS)
        _check_rows_belong(list(done.values()), planned_keys, asked, config.out)
        header, done_rows = writer.start(header, existing)
        if on_start:
            on_start(total, len(done))
        attempts = _Attempts(suite, adapter, config, writer, cache, header.run, progress)
        started = time.perf_counter()
        try:
            if isinstance(suite, SequentialSuite) and sequential:
                await _attempt_rounds(suite, attempts, adapter, config, done, history)
            else:
                todo = [(item, s) for item, s in attempts_planned if (item.id, s) not in done]
                await _attempt_all(attempts, adapter, config, todo)
        except ModelCrash as exc:
            kept = len(done_rows) + len(attempts.rows)
            of = "" if sequential else f" of {len(attempts_planned)}"
            raise ModelCrash(
                f"{exc}. {kept}{of} attempts are kept in {config.out}: "
                "run the same command to resume"
            ) from None
        rows = [*done_rows, *attempts.rows]
        summary = suite.summarise(rows, config.samples)
        summary.settings = {**header.settings, **suite.settings(), "samples": config.samples}
        summary.elapsed_s = round(time.perf_counter() - started, 3)
        summary.usage = usage_totals(rows, config.price_in, config.price_out)
        summary.provenance = {
            **header.provenance,
            "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        writer.write_summary(summary)
        return summary
    finally:
        writer.close()
        await adapter.aclose()


async def _attempt_rounds(
    suite: SequentialSuite,
    attempts: _Attempts,
    adapter: ModelAdapter,
    config: RunConfig,
    done: dict[tuple[str, int], ResultRow],
    history: list[ResultRow],
) -> None:
    """Run a sequential suite's rounds until it asks for nothing more, or until a round ends
    with errored attempts: the next round is chosen from this one's answers, so the run stops
    there and a re-run retries them (then carries on)."""
    first = True
    while items := suite.next_round(history):
        todo = [(item, 0) for item in items if (item.id, 0) not in done]
        written = len(attempts.rows)
        await _attempt_all(attempts, adapter, config, todo, check_first=first)
        first = False
        done.update((row.key, row) for row in attempts.rows[written:])
        round_rows = [done[(item.id, 0)] for item in items]
        if any(row.error is not None for row in round_rows):
            return
        history += round_rows
