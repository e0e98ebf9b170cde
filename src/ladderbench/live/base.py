"""The contract every live task implements.

A live task generates fresh questions for each dated release and scores answers against ground
truth only: no judge model. Each question's randomness comes from one ``random.Random`` seeded by
a hash of (release date, task, index), so a release rebuilds byte for byte and a new release
means new questions.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

from ladderbench.grading.scorer import Scorer
from ladderbench.items import Item, Verdict

# The six live categories; every task belongs to one.
Category = Literal[
    "math", "reasoning", "language", "data_analysis", "instruction_following", "coding"
]


@dataclass(frozen=True)
class Question:
    """One generated question.

    ``ground_truth`` is a string (JSON-encode structured truths); ``fields`` holds the
    task-specific fields written beside it (everything the scorer needs besides the answer).
    ``subtask`` names the variant where a task has several.
    """

    prompt: str
    ground_truth: str
    subtask: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Sources:
    """Fresh outside material from ``--sources DIR``: text passages and CSV tables, by file name."""

    texts: dict[str, str] = field(default_factory=dict)
    tables: dict[str, str] = field(default_factory=dict)  # file name -> CSV text

    @classmethod
    def empty(cls) -> Sources:
        return cls()


def question_rng(release: str, task: str, index: int) -> random.Random:
    """The only source of randomness for one question of one release."""
    key = f"ladderbench-live|{release}|{task}|{index}".encode()
    return random.Random(int.from_bytes(hashlib.sha256(key).digest(), "big"))


class Task:
    """A live task. Subclass, set ``name`` and ``category``, implement the three methods.

    ``generate`` draws every random choice from ``rng`` (sources, when given, are material to draw
    from, in sorted order). ``score`` reads a response to one question and returns its ``Verdict``:
    ``extracted`` is the text the task actually graded, the score is in [0, 1], and a response or a
    record it cannot read scores 0 (a raise is a bug, recorded by the runner as an error row).
    ``record`` is the question as written to the release (``ground_truth`` plus the task's
    ``fields``); it is the ``record`` of the live suite's ``Item``. ``reference`` is a perfect reply
    in the prompt's primary format (what the oracle answers).
    """

    name: ClassVar[str]
    category: ClassVar[Category]
    uses_sources: ClassVar[bool] = False

    def generate(self, rng: random.Random, sources: Sources) -> Question:
        raise NotImplementedError

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        raise NotImplementedError

    def scorer(self) -> Scorer:
        """This task's scorer in the one shape: it reads the question from ``item.record``."""

        def score(item: Item, response: str) -> Verdict:
            return self.score(item.record, response)

        return score

    def reference(self, record: dict[str, Any]) -> str:
        return f"<solution>{record['ground_truth']}</solution>"


CATEGORIES = (
    "math",
    "reasoning",
    "data_analysis",
    "language",
    "instruction_following",
    "coding",
)


def load_sources(directory: Path | None) -> Sources:
    """Read ``--sources DIR``: *.txt passages and *.csv tables (the tasks validate them)."""
    from ladderbench.errors import UserError

    if directory is None:
        return Sources.empty()
    if not directory.is_dir():
        raise UserError(f"--sources {directory}: no such folder")
    texts, tables = {}, {}
    for path in sorted(directory.iterdir()):
        try:
            if path.suffix == ".txt":
                texts[path.name] = path.read_text(encoding="utf-8")
            elif path.suffix == ".csv":
                tables[path.name] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"{path}: cannot read ({exc})") from None
    return Sources(texts, tables)
