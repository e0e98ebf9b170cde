"""Load and validate static-ladder level files (``levelN_NAME.jsonl``), line by line.

A bad file is rejected whole with file, line and field: a silently skipped question would
change a level's score without anyone noticing.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ladderbench.errors import UserError
from ladderbench.jsonl import field_error, json_objects, read_text

LETTERS = "ABCD"
LEVEL_FILE = re.compile(r"^level(\d+)_([a-z0-9_-]+)\.jsonl$")
CATEGORIES = (
    "arithmetic",
    "knowledge",
    "common-sense",
    "reading",
    "math",
    "logic",
    "sequence",
    "probability",
    "trick",
    "reasoning",
    "safety",
)


class Question(BaseModel):
    """One four-choice question. ``check`` optionally recomputes the gold option's text."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^\S+$")
    level: int = Field(ge=1, strict=True)  # true is not level 1
    category: str = Field(min_length=1)
    question: str = Field(min_length=1)
    choices: tuple[str, ...]
    answer: Literal["A", "B", "C", "D"]
    check: str | None = None

    @field_validator("choices")
    @classmethod
    def _four_distinct(cls, choices: tuple[str, ...]) -> tuple[str, ...]:
        if len(choices) != len(LETTERS):
            raise ValueError(f"must be a list of exactly 4 strings, got {len(choices)}")
        if any(not c.strip() for c in choices):
            raise ValueError("a choice is empty")
        folded = [c.strip().casefold() for c in choices]
        if len(set(folded)) != len(folded):
            raise ValueError("two choices are the same")
        return choices

    @property
    def gold_text(self) -> str:
        return self.choices[LETTERS.index(self.answer)]


def default_data_dir() -> Path:
    return Path(str(resources.files("ladderbench.static") / "data"))


def level_files(data_dir: Path) -> dict[int, Path]:
    """The level files in a folder, by level; dropping ``level6_x.jsonl`` in adds level 6."""
    if not data_dir.is_dir():
        raise UserError(f"--data {data_dir}: no such folder")
    files: dict[int, Path] = {}
    for path in sorted(data_dir.glob("*.jsonl")):
        match = LEVEL_FILE.match(path.name)
        if not match:
            continue
        level = int(match.group(1))
        if level in files:
            raise UserError(
                f"{data_dir}: two files for level {level}: {files[level].name}, {path.name}"
            )
        files[level] = path
    if not files:
        raise UserError(f"{data_dir}: no level files (expected names like level1_easy.jsonl)")
    return dict(sorted(files.items()))


HINTS = {
    "extra_forbidden": "unknown field; allowed: "
    "id, level, category, question, choices, answer, check",
    "literal_error": "must be one of A, B, C, D",
    "string_type": "must be a string",
    "tuple_type": "must be a list of exactly 4 strings",
}


def load_level_file(path: Path, level: int) -> list[Question]:
    questions: list[Question] = []
    for lineno, obj in json_objects(path, read_text(path)):
        try:
            question = Question.model_validate(obj)
        except ValidationError as exc:
            raise field_error(path, lineno, exc, HINTS) from None
        if question.level != level:
            raise UserError(
                f"{path}:{lineno}: field 'level': {question.level} in a level-{level} file"
            )
        questions.append(question)
    if not questions:
        raise UserError(f"{path}: no questions")
    return questions


def load_questions(data_dir: Path | None = None) -> list[Question]:
    """Every question of every level file, validated, ids unique across files."""
    data_dir = data_dir or default_data_dir()
    seen: dict[str, Path] = {}
    questions: list[Question] = []
    for level, path in level_files(data_dir).items():
        for question in load_level_file(path, level):
            if question.id in seen:
                raise UserError(
                    f"{path}: field 'id': {question.id!r} already used in {seen[question.id].name}"
                )
            seen[question.id] = path
            questions.append(question)
    return questions
