"""The live suite: the questions active at a release, scored against ground truth."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ladderbench.analysis.live import live_summary
from ladderbench.errors import UserError
from ladderbench.execution.sandbox import unsafe_allowed
from ladderbench.items import Item, ResultRow, Verdict
from ladderbench.live.registry import get_task, tasks
from ladderbench.live.release import Store, check_date
from ladderbench.suites import SUITES, SuiteSpec
from ladderbench.summaries import LiveSummary


def summarise_live(rows: Iterable[ResultRow], samples: int) -> LiveSummary:
    return live_summary(rows, samples)


class LiveSuite:
    name = "live"

    def __init__(
        self,
        root: Path,
        release: str | None = None,
        names: list[str] | None = None,
        categories: list[str] | None = None,
        limit: int | None = None,
        unsafe_allow_code: bool = False,
    ) -> None:
        store = Store.load(root)
        self.unsafe_allow_code = unsafe_allow_code
        self.root = root
        self.release = check_date(release) if release else store.latest
        records = store.active(self.release)
        if names:
            unknown = sorted(set(names) - set(store.categories))
            if unknown:
                raise UserError(f"--tasks: {unknown[0]!r} is not in {root}")
            records = [r for r in records if r["task"] in names]
        if categories:
            records = [r for r in records if r["category"] in categories]
        if limit is not None:
            taken: dict[str, int] = {}
            kept = []
            for record in records:
                if taken.get(record["task"], 0) < limit:
                    taken[record["task"]] = taken.get(record["task"], 0) + 1
                    kept.append(record)
            records = kept
        if not records:
            raise UserError(f"{root}: no live questions active at {self.release} in this selection")
        self.records = {r["question_id"]: r for r in records}
        self.where = store.where
        self._check_tasks()

    def _check_tasks(self) -> None:
        """A question of a task this ladderbench lacks is one line naming its file and line."""
        installed = tasks()
        for qid, record in self.records.items():
            if record["task"] not in installed:
                raise UserError(
                    f"{self.where[qid]}: field 'task': live task {record['task']!r} is not "
                    "installed in this ladderbench"
                )

    def _reference(self, qid: str, record: dict[str, Any]) -> str:
        """The task's perfect reply; a record lacking what its task reads is one line."""
        try:
            return get_task(record["task"]).reference(record)
        except KeyError as exc:
            raise UserError(f"{self.where[qid]}: field {exc.args[0]!r} missing") from None
        except (TypeError, ValueError, AttributeError, IndexError) as exc:
            raise UserError(f"{self.where[qid]}: a field is malformed ({exc})") from None

    def items(self) -> list[Item]:
        return [
            Item(
                id=qid,
                prompt=record["prompt"],
                expected=record["ground_truth"],
                reference=self._reference(qid, record),
                category=record["category"],
                task=record["task"],
                difficulty=record.get("difficulty"),
                record=record,
            )
            for qid, record in self.records.items()
        ]

    def grade(self, item: Item, response: str) -> Verdict:
        with unsafe_allowed(self.unsafe_allow_code):  # this grade's thread only
            return get_task(item.task or "").score(item.record, response)

    def summarise(self, rows: Iterable[ResultRow], samples: int) -> LiveSummary:
        return summarise_live(rows, samples)

    def settings(self) -> dict[str, Any]:
        return {"liveDir": str(self.root), "release": self.release, "questions": len(self.records)}


@dataclass(frozen=True)
class LiveConfig:
    """The live suite's options (named as the CLI flags); ``unsafe_allow_code`` lets the coding
    tasks run model-written code where the sandbox cannot seal it off from the user's files."""

    live_dir: Path | None = None
    release: str | None = None
    tasks: list[str] | None = None
    categories: list[str] | None = None
    limit: int | None = None
    unsafe_allow_code: bool = False


def live_suite(c: LiveConfig) -> LiveSuite:
    if c.live_dir is None:
        raise UserError("--suite live needs --live-dir DIR (made by 'ladderbench live build')")
    return LiveSuite(c.live_dir, c.release, c.tasks, c.categories, c.limit, c.unsafe_allow_code)


SUITES.add(
    "live",
    SuiteSpec(
        name="live",
        config=LiveConfig,
        build=live_suite,
        summary=LiveSummary,
        summarise=summarise_live,
    ),
)
