"""How wrong would an LLM judge have been? The judge-versus-ground-truth study.

For answers already scored against ground truth, an LLM judge rates each one 0 or 1 with a
correctness-only prompt; per task we count how often it disagrees with the ground truth: false
accepts (judge 1, truth wrong) and false rejects (judge 0, truth right). The judge's calls go
through the runner, so they are concurrent, cached and resumable like any run.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from ladderbench.analysis.summary import summarise
from ladderbench.errors import UserError
from ladderbench.items import Item, ResultRow, Verdict
from ladderbench.summaries import JudgeStudySummary

JUDGE_PROMPT = """\
You are checking whether an answer to a question is correct. Compare it with the reference \
answer and judge correctness only: ignore style, length, formatting and confidence.

Question:
{question}

Reference answer:
{reference}

Answer to check:
{answer}

Reply with one short sentence of reasoning, then "Verdict: 1" if the answer is correct or \
"Verdict: 0" if it is not, on the last line."""

_VERDICT = re.compile(r"verdict\s*[:=]?\s*\**\s*([01])\b", re.I)


def parse_verdict(reply: str) -> int | None:
    """The last "Verdict: 0/1" in the judge's reply; None when it gave none."""
    found = _VERDICT.findall(reply or "")
    return int(found[-1]) if found else None


class JudgeStudySuite:
    """Each scored answer becomes one judge item; the ground-truth verdict rides along by id."""

    name = "judge-study"

    def __init__(self, rows: list[ResultRow]) -> None:
        scored = [r for r in rows if r.error is None and r.score is not None and r.task]
        if not scored:
            raise UserError("judge-study: the results hold no scored live-suite answers")
        self.rows = {f"{r.id}#{r.sample}": r for r in scored}

    def items(self) -> list[Item]:
        return [
            Item(
                id=key,
                prompt=JUDGE_PROMPT.format(
                    question=row.prompt, reference=row.expected, answer=row.response or ""
                ),
                expected="1" if (row.score or 0.0) >= 1.0 else "0",
                reference="Verdict: " + ("1" if (row.score or 0.0) >= 1.0 else "0"),
                task=row.task,
                category=row.category,
            )
            for key, row in self.rows.items()
        ]

    def grade(self, item: Item, response: str) -> Verdict:
        verdict = parse_verdict(response)
        agrees = verdict is not None and str(verdict) == item.expected
        return Verdict(
            extracted=None if verdict is None else str(verdict),
            score=1.0 if agrees else 0.0,
            passed=agrees,
        )

    def summarise(self, rows: Iterable[ResultRow], samples: int) -> JudgeStudySummary:
        kept = list(rows)
        summary = summarise(kept, rung="level", group="task", samples=samples)
        return JudgeStudySummary.model_validate({**summary, "study": disagreement(kept)})

    def settings(self) -> dict[str, Any]:
        return {"answers": len(self.rows)}


def disagreement(rows: list[ResultRow]) -> dict[str, Any]:
    """Per task: answers judged, agreement, false accepts, false rejects, unreadable verdicts."""
    table: dict[str, dict[str, int]] = defaultdict(
        lambda: {"n": 0, "agree": 0, "falseAccept": 0, "falseReject": 0, "noVerdict": 0}
    )
    for row in rows:
        if row.error is not None:
            continue
        entry = table[row.task or "?"]
        entry["n"] += 1
        if row.extracted is None:
            entry["noVerdict"] += 1
        elif row.extracted == row.expected:
            entry["agree"] += 1
        elif row.extracted == "1":
            entry["falseAccept"] += 1
        else:
            entry["falseReject"] += 1
    return {task: dict(v) for task, v in sorted(table.items())}
