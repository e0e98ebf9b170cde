"""An LLM judge as a grader: a judge prompt sent through any model adapter, its score parsed.

Judge calls go through the harness runner, so they are concurrent, cached and resumable like any
run: each rung is an item, each repeat a sample, and the calls land in a results file.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ladderbench.analysis.summary import summarise
from ladderbench.errors import UserError
from ladderbench.items import Item, ResultRow, Verdict
from ladderbench.probe.probe import Ledger, ledger_from_scores
from ladderbench.probe.rungs import Rung
from ladderbench.summaries import LevelSummary

DEFAULT_JUDGE_PROMPT = """\
You are grading an answer to a question. Judge only whether the answer is correct with \
respect to the reference answer. Ignore style, length and how confident the answer sounds.

Question:
{question}

Reference answer:
{reference}

Answer to grade:
{answer}

First write one sentence of reasoning that quotes the decisive part of the answer. Then, on \
the last line, write "Score: N" where N is a whole number from 0 (wrong) to 10 (fully correct)."""

_SCORE = re.compile(r"score\s*[:=]?\s*\**\s*(\d+(?:\.\d+)?)\s*(?:/\s*(\d+))?", re.I)
FIELDS = ("question", "reference", "answer")


def parse_score(reply: str) -> float | None:
    """The last "Score: N" (or "N/10") in a judge reply, scaled to [0, 1]; None if unreadable."""
    matches = list(_SCORE.finditer(reply or ""))
    if not matches:
        return None
    value, scale = float(matches[-1].group(1)), matches[-1].group(2)
    top = float(scale) if scale else (1.0 if value <= 1.0 and "." in matches[-1].group(1) else 10.0)
    if top <= 0 or value > top:
        return None
    return value / top


def reference_text(context: dict[str, Any]) -> str:
    """The gold answer as a judge should see it, from whatever the ladder's cases carry."""
    if context.get("reference"):
        return str(context["reference"])
    if context.get("gold") and context.get("choices"):
        letter = str(context["gold"])
        choices = list(context["choices"])
        index = "ABCD".find(letter)
        return f"({letter}) {choices[index]}" if 0 <= index < len(choices) else letter
    return str(context.get("expected") or context.get("gold") or "")


def load_template(path: Path | None) -> str:
    if path is None:
        return DEFAULT_JUDGE_PROMPT
    try:
        template = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"--judge-prompt {path}: cannot read ({exc.strerror or exc})") from None
    try:
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError as exc:
        raise UserError(f"--judge-prompt {path}: not a valid template ({exc})") from None
    unknown = names - set(FIELDS)
    if unknown or "answer" not in names:
        raise UserError(
            f"--judge-prompt {path}: use the fields {{question}}, {{reference}}, {{answer}} "
            f"({'{answer} is missing' if 'answer' not in names else f'unknown: {sorted(unknown)}'})"
        )
    return template


class JudgeSuite:
    """The rungs as a suite: one item per rung, scored by parsing the judge's reply."""

    name = "probe-judge"

    def __init__(self, rungs: list[Rung], template: str) -> None:
        self.rungs = rungs
        self.template = template

    def items(self) -> list[Item]:
        items = []
        for rung in self.rungs:
            context = rung.context
            prompt = self.template.format(
                question=context.get("question", ""),
                reference=reference_text(context),
                answer=rung.answer,
            )
            items.append(
                Item(
                    id=f"{rung.case_id}#{rung.level}",
                    prompt=prompt,
                    expected="",
                    reference="Score: 10",
                    level=rung.level,
                    category=rung.case_id,
                )
            )
        return items

    def grade(self, item: Item, response: str) -> Verdict:
        score = parse_score(response)
        return Verdict(
            extracted=None if score is None else f"{score:g}",
            score=score or 0.0,
            passed=score is not None,
        )

    def summarise(self, rows: Iterable[ResultRow], samples: int) -> LevelSummary:
        return LevelSummary.model_validate(
            summarise(rows, rung="level", group="category", samples=samples)
        )

    def settings(self) -> dict[str, Any]:
        return {"rungs": len(self.rungs)}


def ledger_from_rows(rungs: list[Rung], rows: list[Any], repeats: int, name: str) -> Ledger:
    """Turn the judge's result rows back into a ledger (errored calls leave the rung ungraded)."""
    scores: dict[tuple[str, int], list[tuple[float | None, str]]] = {}
    for row in sorted(rows, key=lambda r: (r.id, r.sample)):
        case_id, _, level = row.id.rpartition("#")
        if row.error is not None:
            continue
        score = None if row.extracted is None else float(row.extracted)
        scores.setdefault((case_id, int(level)), []).append((score, row.response or ""))
    return ledger_from_scores(rungs, scores, repeats, name)
