"""Column type annotation: say which column of a table a handful of values come from.

Each question draws a table (a generated one of 20 rows, or a ``--sources`` CSV file), one of
its columns, and 5-10 of that column's values; the prompt lists the values and the table's
column names, and the answer is the name of the column. The subtask is the kind of the column:
number, date, code (IDs, airport codes, ISBNs...) or text.

Why it is hard: the names are bare (``gate``, ``flight_no``, ``origin``; ``stock``, ``rating``,
``weight_kg``), and telling them apart takes reading the values for what they are: "B12" is a
gate, "JFK" an airport, "AA1234" a flight; 4.3 a rating and 12.75 a weight.

Uniqueness: a candidate whose values could pass for the sample's is not offered. Generated
columns carry a family (two date columns, two prices, origin and destination airports share
one); a column of the target's family is dropped, and so is any numeric column of the same kind
(whole numbers or decimals) whose range overlaps the target's. Source columns have no family:
two text columns are indistinguishable when they share a value or a shape ("Aa 9" for
"Gate 12"), two numeric columns as above, and two date columns always.

Scoring (1 or 0): the answer names the column, matched ignoring case, surrounding quotes and
markdown, and the difference between spaces, hyphens and underscores; an answer that is a
sentence is read when exactly one candidate name appears in it.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

from ladderbench.errors import UserError
from ladderbench.grading.extract import extract_answer, normalise_text
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register
from ladderbench.live.tasks._tables import (
    Column,
    Table,
    generate_table,
    indistinguishable,
    source_tables,
)


@dataclass(frozen=True)
class ColumnTypeConfig:
    """How many values are shown and how many rows a generated table has."""

    min_values: int = 5
    max_values: int = 10
    table_rows: int = 20
    min_candidates: int = 2

    def __post_init__(self) -> None:
        if not 1 <= self.min_values <= self.max_values <= self.table_rows:
            raise ValueError(
                f"need 1 <= min_values <= max_values <= table_rows, got "
                f"{self.min_values}, {self.max_values}, {self.table_rows}"
            )
        if self.min_candidates < 2:
            raise ValueError("min_candidates must be at least 2")


CONFIG = ColumnTypeConfig()
SUBTASKS = ("number", "date", "code", "text")

PROMPT_TEMPLATE = """\
These {n_values} values were taken from one column of a table (as a JSON array: text in quotes, \
numbers without):

{values}

The table's columns include:
{candidates}

Which of these columns do the values come from? Exactly one fits. Answer with the column name \
exactly as written above.
Put your final answer inside <solution></solution> tags."""


def _key(name: str) -> str:
    """A name as compared: casefolded, with spaces, hyphens and underscores alike."""
    return re.sub(r"[\s_\-]+", " ", normalise_text(name)).strip(" .,:;!?\"'`()[]{}<>")


def _candidates(table: Table, target: Column) -> list[Column]:
    keep, keys = [], set()
    for col in table.columns:
        if col is not target and (not col.present or indistinguishable(col, target)):
            continue
        if _key(col.name) in keys or not _key(col.name):
            if col is target:
                return []
            continue
        keys.add(_key(col.name))
        keep.append(col)
    return keep


def _pick(
    rng: random.Random, table: Table, cfg: ColumnTypeConfig
) -> tuple[Column, list[Column]] | None:
    """A target column with enough values and candidates, or None if the table has none."""
    order = list(table.columns)
    rng.shuffle(order)
    for target in order:
        if len(target.present) < cfg.min_values:
            continue
        candidates = _candidates(table, target)
        if len(candidates) >= cfg.min_candidates:
            return target, candidates
    return None


def draw(
    rng: random.Random, sources: Sources, cfg: ColumnTypeConfig = CONFIG
) -> tuple[Column, list[Column], str]:
    """(target column, candidate columns in table order, table name)."""
    if sources.tables:
        tables = list(source_tables(sources))
        first = rng.randrange(len(tables))
        for table in tables[first:] + tables[:first]:
            picked = _pick(rng, table, cfg)
            if picked:
                return picked[0], picked[1], table.name
        raise UserError(
            f"--sources: no table has a column with {cfg.min_values}+ values that can be told "
            f"apart from another column ({', '.join(t.name for t in tables)})"
        )
    table = generate_table(rng, cfg.table_rows)
    picked = _pick(rng, table, cfg)
    if picked is None:  # every schema has several distinguishable columns
        raise ValueError(f"schema {table.name!r} gave no usable column")
    return picked[0], picked[1], table.name


@register
class ColumnType(Task):
    name = "column_type"
    category = "data_analysis"
    uses_sources = True

    def __init__(self, config: ColumnTypeConfig = CONFIG) -> None:
        self.config = config

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        target, candidates, table_name = draw(rng, sources, self.config)
        present = target.present
        k = min(len(present), rng.randint(self.config.min_values, self.config.max_values))
        values = [present[i] for i in rng.sample(range(len(present)), k)]
        names = [c.name for c in candidates]
        prompt = PROMPT_TEMPLATE.format(
            n_values=k,
            values=json.dumps(values, ensure_ascii=False),
            candidates="\n".join(f"- {name}" for name in names),
        )
        return Question(
            prompt=prompt,
            ground_truth=target.name,
            subtask=target.role,
            fields={"table_name": table_name, "candidates": names, "values": values},
        )

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        chosen = read_choice(extract_answer(response), record["candidates"])
        right = chosen is not None and _key(chosen) == _key(record["ground_truth"])
        return verdict(chosen, 1.0 if right else 0.0)


def _words(s: str) -> str:
    return " ".join(re.sub(r"[\W_]+", " ", s).split())


def read_choice(text: str | None, candidates: list[str]) -> str | None:
    """The candidate an answer names: the whole answer, else the one candidate it mentions."""
    if not text:
        return None
    said = _key(text)
    for name in candidates:
        if _key(name) == said:
            return name
    padded = f" {_words(said)} "
    mentioned = [name for name in candidates if f" {_words(_key(name))} " in padded]
    # "order date" inside "order date" and "date": keep the longest mentions only.
    mentioned = [m for m in mentioned if not any(m != o and _key(m) in _key(o) for o in mentioned)]
    return mentioned[0] if len(mentioned) == 1 else None
