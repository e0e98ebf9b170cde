"""The static ladder as a suite: one prompt template, letter extraction, exact-letter scoring."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ladderbench.analysis.summary import summarise
from ladderbench.errors import UserError
from ladderbench.grading.choice import score_choice
from ladderbench.items import Item, ResultRow, Verdict
from ladderbench.static.loader import LETTERS, Question, default_data_dir, load_questions
from ladderbench.suites import SUITES, SuiteSpec
from ladderbench.summaries import LevelSummary

PROMPT_TEMPLATE = """\
Answer the following multiple-choice question.

{question}

{options}

Reply with the letter of the correct option only (A, B, C or D)."""


def render_prompt(question: str, choices: tuple[str, ...] | list[str]) -> str:
    """The one prompt of the static ladder (also used by the standalone runner)."""
    options = "\n".join(f"({letter}) {text}" for letter, text in zip(LETTERS, choices))
    return PROMPT_TEMPLATE.format(question=question, options=options)


def question_item(question: Question) -> Item:
    return Item(
        id=question.id,
        prompt=render_prompt(question.question, question.choices),
        expected=question.answer,
        reference=question.answer,
        choices=question.choices,
        level=question.level,
        category=question.category,
    )


def select(
    questions: list[Question], levels: list[int] | None = None, limit: int | None = None
) -> list[Question]:
    """Keep the asked levels, and at most ``limit`` questions of each (in file order)."""
    present = sorted({q.level for q in questions})
    if levels:
        missing = sorted(set(levels) - set(present))
        if missing:
            raise UserError(
                f"--levels: no level {', '.join(map(str, missing))}; "
                f"available: {', '.join(map(str, present))}"
            )
    if limit is not None and limit < 1:
        raise UserError(f"--limit {limit}: must be at least 1")
    taken: dict[int, int] = {}
    chosen = []
    for q in questions:
        if levels and q.level not in levels:
            continue
        if limit is not None and taken.get(q.level, 0) >= limit:
            continue
        taken[q.level] = taken.get(q.level, 0) + 1
        chosen.append(q)
    return chosen


BASELINE = 0.25  # a uniform guess among four options


def summarise_static(rows: Iterable[ResultRow], samples: int) -> LevelSummary:
    return LevelSummary.model_validate(
        summarise(rows, rung="level", group="category", samples=samples, baseline=BASELINE)
    )


class StaticSuite:
    name = "static"
    baseline = BASELINE

    def __init__(
        self,
        data_dir: Path | None = None,
        levels: list[int] | None = None,
        limit: int | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.questions = select(load_questions(data_dir), levels, limit)
        self.levels = levels
        self.limit = limit

    def items(self) -> list[Item]:
        return [question_item(q) for q in self.questions]

    def grade(self, item: Item, response: str) -> Verdict:
        return score_choice(item, response)

    def summarise(self, rows: Iterable[ResultRow], samples: int) -> LevelSummary:
        return summarise_static(rows, samples)

    def settings(self) -> dict[str, Any]:
        return {
            "data": str(self.data_dir or default_data_dir()),
            "levels": self.levels,
            "limit": self.limit,
        }


@dataclass(frozen=True)
class StaticConfig:
    """The static ladder's options (named as the CLI flags)."""

    levels: list[int] | None = None
    limit: int | None = None
    data: Path | None = None


SUITES.add(
    "static",
    SuiteSpec(
        name="static",
        config=StaticConfig,
        build=lambda c: StaticSuite(data_dir=c.data, levels=c.levels, limit=c.limit),
        summary=LevelSummary,
        summarise=summarise_static,
    ),
)
