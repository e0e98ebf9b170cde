"""The contract every live task implements.

A live task generates fresh questions for each dated release and scores answers against ground
truth only: no judge model. Each question's randomness comes from one ``random.Random`` seeded by
an HMAC of the maintainer's secret and (release date, task, index): with the secret a release
rebuilds byte for byte; without it nobody can generate a question before it is published. The
seed is published with the question, so a published question stays re-derivable.

``difficulty`` is a task's open-ended knob (0 = the v1 mix of subtasks; every step up is harder
without bound), as for the puzzle families. A question names the material it draws on (a
passage, a story, a fetched table): a release never serves the same material twice.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
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
    material: tuple[str, ...] = ()  # the texts it is made from (passages, stories, tables...)


def material_digest(text: str) -> str:
    """A text's identity as material, blind to spacing and case."""
    return hashlib.sha256(" ".join(text.split()).lower().encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Sources:
    """Material for new questions: fresh outside material from ``--sources DIR`` (``*.txt``
    passages, ``*.csv`` tables, ``*.json`` problems, by file name; ``dates`` from the folder's
    ``provenance.jsonl``), and ``used``: digests of material earlier questions already drew on."""

    texts: dict[str, str] = field(default_factory=dict)
    tables: dict[str, str] = field(default_factory=dict)  # file name -> CSV text
    problems: dict[str, str] = field(default_factory=dict)  # file name -> JSON text
    dates: dict[str, str] = field(default_factory=dict)  # file name -> published date
    used: frozenset[str] = frozenset()

    @classmethod
    def empty(cls) -> Sources:
        return cls()

    def newest_first(self, names: Iterable[str]) -> list[str]:
        """File names, newest first (undated last), ties by name: the order tasks draw in."""
        ordered = sorted(names)
        return sorted(ordered, key=lambda name: self.dates.get(name, ""), reverse=True)

    def is_fresh(self, text: str) -> bool:
        return material_digest(text) not in self.used

    def fresh(self, texts: Iterable[str]) -> list[str]:
        """The texts no earlier question drew on, in the order given."""
        return [text for text in texts if self.is_fresh(text)]

    def using(self, material: Iterable[str]) -> Sources:
        """These sources with ``material`` (texts) marked used."""
        return replace(self, used=self.used | {material_digest(t) for t in material})


def _place(release: str, task: str, index: int) -> bytes:
    """A question's place, the message both seeds are made from."""
    return f"ladderbench-live|{release}|{task}|{index}".encode()


def question_seed(secret: str, release: str, task: str, index: int) -> str:
    """A question's seed: unpredictable without the maintainer's secret, reproducible with it."""
    return hmac.new(secret.encode(), _place(release, task, index), hashlib.sha256).hexdigest()[:32]


def seeded_rng(seed: str) -> random.Random:
    """The only source of randomness for one question (``seed`` from ``question_seed``)."""
    return random.Random(int(seed, 16))


def question_rng(release: str, task: str, index: int) -> random.Random:
    """A public, secret-less rng for question ``index``: for tests and development only (anyone
    can rebuild it, so a release never uses it)."""
    return random.Random(
        int.from_bytes(hashlib.sha256(_place(release, task, index)).digest(), "big")
    )


class Task:
    """A live task. Subclass, set ``name`` and ``category``, implement the three methods.

    ``generate`` draws every random choice from ``rng``; ``difficulty`` 0 is the v1 mix, and each
    step up makes questions harder without bound. Material (passages, stories, tables) comes from
    ``sources`` newest first when given, else from the packaged pools, and only fresh material
    (``sources.fresh``) is drawn; the question lists what it drew on in ``material``.

    ``score`` reads a response to one question and returns its ``Verdict``: ``extracted`` is the
    text the task actually graded, the score is in [0, 1], and a response or a record it cannot
    read scores 0 (a raise is a bug, recorded by the runner as an error row). ``record`` is the
    question as written to the release (``ground_truth`` plus the task's ``fields``); it is the
    ``record`` of the live suite's ``Item``. ``reference`` is a perfect reply in the prompt's
    primary format (what the oracle answers).
    """

    name: ClassVar[str]
    category: ClassVar[Category]
    uses_sources: ClassVar[bool] = False

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
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


PROVENANCE = "provenance.jsonl"


def load_sources(directory: Path | None) -> Sources:
    """Read ``--sources DIR``: *.txt passages, *.csv tables and *.json problems (the tasks
    validate them), dated by ``provenance.jsonl`` where ``live fetch`` wrote one."""
    import json

    from ladderbench.errors import UserError

    if directory is None:
        return Sources.empty()
    if not directory.is_dir():
        raise UserError(f"--sources {directory}: no such folder")
    kinds: dict[str, dict[str, str]] = {".txt": {}, ".csv": {}, ".json": {}}
    dates: dict[str, str] = {}
    for path in sorted(directory.iterdir()):
        try:
            if path.name == PROVENANCE:
                for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if not line.strip():
                        continue
                    entry = json.loads(line)
                    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
                        raise UserError(f"{path}:{lineno}: field 'file' missing")
                    dates[entry["file"]] = str(entry.get("published") or "")
            elif path.suffix in kinds:
                kinds[path.suffix][path.name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise UserError(f"{path}: not UTF-8 text ({exc.reason})") from None
        except ValueError as exc:
            raise UserError(f"{path}: not valid JSON Lines ({exc})") from None
        except OSError as exc:
            raise UserError(f"{path}: cannot read ({exc})") from None
    return Sources(kinds[".txt"], kinds[".csv"], kinds[".json"], dates)
