"""Table reformatting: rewrite a table given in one format in another.

Each question draws a table (6-15 rows, 4-7 columns: a generated table with at least one
decimal column and one text column whose values hold commas or double quotes, or a sample of a
``--sources`` CSV file) and two different formats among nine: CSV, TSV, JSON in pandas' four
orients (records, index, columns, split), JSON Lines, HTML and Markdown. The subtask is
``<from>_to_<to>``, e.g. ``csv_to_json_index``.

Why it is hard: every cell must survive the trip. Commas and quotes must be quoted and escaped
the target's way (doubled quotes in CSV, backslashes in JSON, entities in HTML), numbers must
stay numbers, and the JSON orients nest rows and columns differently; one slip in about a
hundred cells fails the question.

Scoring (1 or 0): the answer (inside <solution></solution>; a fenced code block, with or without a
language tag, is also read) is parsed as the target format (each format, with its prompt wording,
writer and reader, is one object in ``_table_formats``). It scores 1 when it has the same columns
(by name, in any order), the same number of rows in the same order, and every cell matches: numbers
within a relative tolerance of 1e-6 (a number written as a string counts), text equal after
stripping surrounding whitespace (HTML also collapses inner whitespace, as browsers do), a missing
value as null, NaN or an empty cell. An extra leading index column (unnamed or named "index", as
pandas writes one) is ignored in the formats without row keys; in the keyed JSON layouts the key
values are not checked, only the order they give (integer keys are read in numeric order). The
bottom-right cell may lose a trailing ".", "*" or "`", which answer extraction strips from the end
of a reply.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Any

from ladderbench.grading.extract import extract_table_text
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register
from ladderbench.live.tasks._table_formats import FORMAT_BY_NAME, FORMATS, Parsed, table_format
from ladderbench.live.tasks._tables import (
    Cell,
    Column,
    Table,
    cell_text,
    generate_table,
    sample_indices,
    source_tables,
)

__all__ = ["FORMATS", "ReformatConfig", "TableReformat", "parse_table", "render"]


@dataclass(frozen=True)
class ReformatConfig:
    """Table size, drawn uniformly from the inclusive ranges."""

    min_rows: int = 6
    max_rows: int = 15
    min_cols: int = 4
    max_cols: int = 7

    def __post_init__(self) -> None:
        if not 1 <= self.min_rows <= self.max_rows:
            raise ValueError(f"bad row range {self.min_rows}..{self.max_rows}")
        if not 2 <= self.min_cols <= self.max_cols:
            raise ValueError(f"bad column range {self.min_cols}..{self.max_cols}")


CONFIG = ReformatConfig()

PROMPT_TEMPLATE = """\
Convert the table below from {source_name} to {target_name}.

The table has {n_rows} rows and {n_cols} columns. Here it is as {source_name}:

{table}

Write the same table as {target_description}.
Keep the rows in their order and every column name exactly as it is; copy every value exactly, \
numbers as numbers and text unchanged, and write a missing value as an empty cell (null in \
JSON). Row keys, in the layouts that have them, are the row positions counted from 0; do not add \
an index column to the other formats.
Put your final answer inside <solution></solution> tags, with nothing but the table inside them."""


# ---------------------------------------------------------------- drawing a table

_TRICKY = re.compile(r'[,"]')


def _is_tricky(col: Column) -> bool:
    return any(isinstance(v, str) and _TRICKY.search(v) for v in col.values)


def _is_decimal(col: Column) -> bool:
    return col.numeric and not col.integral


def draw_table(rng: random.Random, sources: Sources, cfg: ReformatConfig = CONFIG) -> Table:
    """The question's table: a sample of a source table, or a generated one."""
    n_rows = rng.randint(cfg.min_rows, cfg.max_rows)
    n_cols = rng.randint(cfg.min_cols, cfg.max_cols)
    if sources.tables:
        base = rng.choice(source_tables(sources))
        rows = sample_indices(rng, base.n_rows, n_rows)
        cols = sample_indices(rng, len(base.columns), n_cols)
        return base.select(rows, cols)
    base = generate_table(rng, n_rows)
    columns = list(base.columns)
    # One decimal column and one column with commas or quotes, then the rest at random.
    must: list[int] = []
    for wanted in (_is_decimal, _is_tricky):
        options = [j for j, c in enumerate(columns) if wanted(c) and j not in must]
        if options and not any(wanted(columns[j]) for j in must):
            must.append(rng.choice(options))
    rest = [j for j in range(len(columns)) if j not in must]
    chosen = sorted(must + rng.sample(rest, max(0, min(n_cols, len(columns)) - len(must))))
    return base.select(range(n_rows), chosen)


def render(fmt: str, columns: list[str], rows: list[list[Cell]]) -> str:
    """The table written in ``fmt`` (one row or column per line where the format allows)."""
    return table_format(fmt).render(columns, rows)


def parse_table(text: str, fmt: str) -> Parsed | None:
    """Read ``text`` as a table in ``fmt``: (column names, rows), or None if it is not one."""
    reader = table_format(fmt).read
    try:
        return reader(text)
    except Exception:  # pandas, json and ast raise many kinds; all mean "not a table"
        return None


# ---------------------------------------------------------------- comparing

_MISSING = {"", "nan", "null", "none"}
_FINAL_STRIP = ".*`"


def _missing(v: Any) -> bool:
    if v is None:
        return True
    if isinstance(v, float) and math.isnan(v):
        return True
    return isinstance(v, str) and v.strip().casefold() in _MISSING


def _as_number(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            x = float(v.strip())
        except ValueError:
            return None
        return x if math.isfinite(x) else None
    try:
        return float(v)  # numpy scalars
    except (TypeError, ValueError):
        return None


def _got_text(v: Any) -> str:
    if hasattr(v, "item") and not isinstance(v, str):  # a numpy scalar
        v = v.item()
    if isinstance(v, bool):
        return str(v).lower()
    return cell_text(v) if isinstance(v, (int, float, str)) else str(v)


def cells_equal(expected: Cell, got: Any, *, last: bool = False, collapse: bool = False) -> bool:
    """Whether an answer's cell holds the expected value (see the module docstring)."""
    if expected is None:
        return _missing(got)
    if _missing(got) and not (isinstance(got, str) and isinstance(expected, str)):
        return False
    if isinstance(expected, (int, float)):
        x = _as_number(got)
        return x is not None and math.isclose(x, float(expected), rel_tol=1e-6, abs_tol=1e-12)
    want, have = expected.strip(), _got_text(got).strip()
    if collapse:
        want, have = " ".join(want.split()), " ".join(have.split())
    if want == have:
        return True
    return last and want.rstrip(_FINAL_STRIP) == have.rstrip(_FINAL_STRIP)


def _drop_index_column(columns: list[str], rows: list[list[Any]], width: int) -> Parsed:
    """Drop a leading pandas-style index column (unnamed or "index") when there is one extra."""
    if len(columns) == width + 1:
        first = columns[0].strip().casefold()
        if first in ("", "index", "#") or first.startswith("unnamed:"):
            return columns[1:], [r[1:] for r in rows]
    return columns, rows


def tables_match(
    columns: list[str], rows: list[list[Cell]], parsed: Parsed, *, fmt: str = ""
) -> bool:
    got_columns, got_rows = parsed
    got_columns = [str(c).strip() for c in got_columns]
    target = FORMAT_BY_NAME.get(fmt)
    if target is not None and target.positional:
        got_columns, got_rows = _drop_index_column(got_columns, got_rows, len(columns))
    if len(got_columns) != len(columns) or len(set(got_columns)) != len(got_columns):
        return False
    if sorted(got_columns) != sorted(c.strip() for c in columns):
        return False
    if len(got_rows) != len(rows) or any(len(r) != len(got_columns) for r in got_rows):
        return False
    where = {name: j for j, name in enumerate(got_columns)}
    collapse = target is not None and target.collapses_space
    for i, row in enumerate(rows):
        for name, want in zip(columns, row):
            j = where[name.strip()]
            last = i == len(rows) - 1 and j == len(got_columns) - 1
            if not cells_equal(want, got_rows[i][j], last=last, collapse=collapse):
                return False
    return True


# ---------------------------------------------------------------- the task


@register
class TableReformat(Task):
    name = "table_reformat"
    category = "data_analysis"
    uses_sources = True

    def __init__(self, config: ReformatConfig = CONFIG) -> None:
        self.config = config

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        source = rng.choice(FORMATS)
        target = rng.choice([f for f in FORMATS if f != source])
        source_format, target_format = table_format(source), table_format(target)
        table = draw_table(rng, sources, self.config)
        columns, rows = table.names, table.rows()
        prompt = PROMPT_TEMPLATE.format(
            source_name=source_format.title,
            target_name=target_format.title,
            n_rows=len(rows),
            n_cols=len(columns),
            table=source_format.render(columns, rows),
            target_description=target_format.description,
        )
        return Question(
            prompt=prompt,
            ground_truth=target_format.render(columns, rows),
            subtask=f"{source}_to_{target}",
            fields={
                "source_format": source,
                "target_format": target,
                "table_name": table.name,
                "columns": columns,
                "rows": rows,
            },
        )

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        text = extract_table_text(response)
        if text is None:
            return verdict(None, 0.0)
        fmt = record["target_format"]
        parsed = parse_table(text, fmt)
        if parsed is None:
            return verdict(text, 0.0)
        ok = tables_match(record["columns"], record["rows"], parsed, fmt=fmt)
        return verdict(text, 1.0 if ok else 0.0)
