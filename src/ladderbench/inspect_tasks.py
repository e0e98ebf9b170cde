"""LadderBench's suites as Inspect tasks: ``inspect eval ladderbench/static --model openai/NAME``.

Registered through Inspect's entry point (``pip install 'ladderbench[inspect]'``); nothing else in
the package imports this module, so ``import ladderbench`` never loads Inspect. Each task asks
what ``ladderbench run`` asks (the suite's items, one user message, temperature 0, at most 512
tokens unless ``--temperature`` / ``--max-tokens`` say otherwise) and scores with the suite's own
grader, so its per-rung accuracies equal a ``ladderbench run`` given the same replies; the
``.eval`` log it writes is read back by ``ladderbench report`` (``inspect_log.py``).

Task arguments (``-T name=value``) are the ``ladderbench run`` options of the suite. Secret puzzle
seeds come from ``LADDERBENCH_SECRET`` only: Inspect writes task arguments into its log.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Score, Scorer, Target, accuracy, grouped, scorer, stderr
from inspect_ai.solver import Solver, TaskState, generate, system_message

from ladderbench.errors import UserError
from ladderbench.grading.scorer import guarded
from ladderbench.inspect_log import METADATA_KEY, SCORER
from ladderbench.items import Item
from ladderbench.ranges import parse_ranges
from ladderbench.suites import Suite, make_suite

MAX_TOKENS = 512  # ladderbench run's default --max-tokens

# A task argument of integers, as Inspect parses -T: 1, "0-3", or a list (-T levels=1,2).
IntsArg = int | str | list[int] | list[str] | None


def ints(value: IntsArg, what: str) -> list[int] | None:
    """A task argument of integers as Inspect parses ``-T``: ``1``, ``"0-3"``, ``[1, 2]`` or
    ``["1", "2"]`` (``-T levels=1,2``); ranges as in ``ladderbench run``."""
    if value is None:
        return None
    parts = value if isinstance(value, list) else [value]
    return parse_ranges(",".join(str(part) for part in parts), what)


def names(value: str | list[str] | None) -> list[str] | None:
    """A task argument of names: ``"sudoku"`` or ``["sudoku", "caesar"]`` (``-T families=a,b``)."""
    if value is None:
        return None
    parts = value if isinstance(value, list) else str(value).split(",")
    return [str(part).strip() for part in parts if str(part).strip()]


def item_sample(suite: Suite, item: Item) -> Sample:
    """One item as an Inspect sample: its prompt as the user message, its gold answer as the
    target, and the item itself (with its rung and groups at the top, for grouped metrics)."""
    return Sample(
        id=item.id,
        input=item.prompt,
        target=item.expected,
        metadata={
            "suite": suite.name,
            "level": item.level,
            "tier": item.tier,
            "difficulty": item.difficulty,
            "family": item.family,
            "category": item.category,
            "task": item.task,
            "item": item.model_dump(mode="json"),
        },
    )


@scorer(metrics=[accuracy(), stderr()], name=SCORER)
def ladder_scorer(suite: Suite) -> Scorer:
    """The suite's own grader on the model's reply: the score (1/0, or partial credit for live
    tasks), the text it read as the answer, and why."""
    slow = bool(getattr(suite, "grades_slowly", False))  # sympy, sandboxed code runs

    async def score(state: TaskState, target: Target) -> Score:
        item = Item.model_validate(state.metadata["item"])
        reply = state.output.completion
        if slow:
            verdict = await asyncio.to_thread(guarded, suite.grade, item, reply)
        else:
            verdict = guarded(suite.grade, item, reply)
        return Score(
            value=verdict.score,
            answer=verdict.extracted,
            explanation=verdict.explanation,
            metadata={"passed": verdict.passed},
        )

    return score


def ladder_task(suite: Suite, breakdowns: list[str], system_prompt: str | None) -> Task:
    """A task asking every item of ``suite`` once, scored per rung and group (``breakdowns``,
    metadata keys) besides overall; the suite and its settings ride in the task's metadata."""
    solver: list[Solver] = [system_message(system_prompt)] if system_prompt else []
    metrics = [
        grouped(accuracy(), key, all=False, name_template=f"{key} {{group_name}}")
        for key in breakdowns
    ]
    return Task(
        dataset=MemoryDataset([item_sample(suite, item) for item in suite.items()]),
        solver=[*solver, generate()],
        scorer=ladder_scorer(suite),
        metrics=[accuracy(), stderr(), *metrics],
        config=GenerateConfig(temperature=0.0, max_tokens=MAX_TOKENS),
        metadata={
            METADATA_KEY: {
                "suite": suite.name,
                "settings": suite.settings(),
                "systemPrompt": system_prompt,
            }
        },
    )


@task
def static(
    levels: IntsArg = None,
    limit: int | None = None,
    data: str | None = None,
    system_prompt: str | None = None,
) -> Task:
    """The static ladder: 150 four-choice questions in five levels (``-T levels=4,5``,
    ``-T limit=10`` per level, ``-T data=DIR`` for your own question files)."""
    suite = make_suite(
        "static",
        levels=ints(levels, "levels"),
        limit=limit,
        data=Path(data) if data else None,
    )
    return ladder_task(suite, ["level", "category"], system_prompt)


@task
def puzzles(
    tiers: IntsArg = None,
    seeds: IntsArg = None,
    families: str | list[str] | None = None,
    suite_version: str | int | None = None,
    difficulties: IntsArg = None,
    limit: int | None = None,
    system_prompt: str | None = None,
) -> Task:
    """The puzzle ladder: tiers 0-6 of seeded puzzle families (``-T tiers=0-3``,
    ``-T seeds=1-32``, ``-T families=sudoku,caesar``, ``-T suite_version=2``,
    ``-T difficulties=0-12``); secret seeds from ``LADDERBENCH_SECRET``."""
    grid = ints(difficulties, "difficulties")
    suite = make_suite(
        "puzzles",
        tiers=ints(tiers, "tiers"),
        seeds=ints(seeds, "seeds"),
        families=names(families),
        suite_version=None if suite_version is None else str(suite_version),
        difficulties=grid,
        limit=limit,
    )
    return ladder_task(
        suite, ["difficulty" if grid is not None else "tier", "family"], system_prompt
    )


@task
def live(
    live_dir: str | None = None,
    release: str | None = None,
    tasks: str | list[str] | None = None,
    categories: str | list[str] | None = None,
    limit: int | None = None,
    unsafe_allow_code: bool = False,
    system_prompt: str | None = None,
) -> Task:
    """A live release (``-T live_dir=DIR``, made by ``ladderbench live build``; ``-T
    release=YYYY-MM-DD``, default the latest), scored with partial credit per task."""
    if live_dir is None:
        raise UserError("ladderbench/live needs -T live_dir=DIR (made by 'ladderbench live build')")
    suite = make_suite(
        "live",
        live_dir=Path(live_dir),
        release=None if release is None else str(release),
        tasks=names(tasks),
        categories=names(categories),
        limit=limit,
        unsafe_allow_code=unsafe_allow_code,
    )
    return ladder_task(suite, ["task", "category"], system_prompt)
