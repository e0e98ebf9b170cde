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

Difficulty (0 = the v1 questions above): each step up draws a bigger table (rows 8+4d to 12+6d,
columns up to 7+d/2, as many as the table has) and asks for the table *transformed* before it is
written in the target format, with numbered steps applied in order (what each step adds):

- d >= 1: convert one numeric column (multiply by a stated factor, round half away from zero to
  a stated number of places: exact decimal arithmetic on every cell);
- d >= 3: also filter the rows on a numeric threshold (rows with a missing value go too);
- d >= 5: also sort the remaining rows on a numeric column (stable; missing values last);
- d >= 7: also keep only some columns, in a new order;
- every 4 steps beyond (d = 9, 13, ...): one more column converted.

Every step is stated in the prompt, so the result is unique; the ground truth is the transformed
table, and scoring is as above (every cell exact, the rows in the transformed order). What grows
is the state a reader must carry without tools: cells to recompute and rows to track
(``fields["effort"]``: cells in the result, plus the cells recomputed and compared).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
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
    fresh_source_tables,
    generate_table,
    sample_indices,
)

__all__ = [
    "FORMATS",
    "ReformatConfig",
    "TableReformat",
    "difficulty",
    "parse_table",
    "render",
    "transform",
]


@dataclass(frozen=True)
class ReformatConfig:
    """Table size, drawn uniformly from the inclusive ranges."""

    min_rows: int = 6
    max_rows: int = 15
    min_cols: int = 4
    max_cols: int = 7
    steps: int = 0  # transform steps before writing (0 = a plain conversion, v1)
    conversions: int = 1  # numeric columns the "convert" step rewrites

    def __post_init__(self) -> None:
        if not 1 <= self.min_rows <= self.max_rows:
            raise ValueError(f"bad row range {self.min_rows}..{self.max_rows}")
        if not 2 <= self.min_cols <= self.max_cols:
            raise ValueError(f"bad column range {self.min_cols}..{self.max_cols}")
        if not 0 <= self.steps <= len(STEP_KINDS) or self.conversions < 1:
            raise ValueError(f"steps must be in 0..{len(STEP_KINDS)}, conversions at least 1")


STEP_KINDS = ("convert", "filter", "sort", "select")  # in the order a question applies them
CONFIG = ReformatConfig()


def difficulty(d: int) -> ReformatConfig:
    """The config of difficulty ``d`` (0 = v1; see the module docstring for each step)."""
    if d < 0:
        raise ValueError(f"difficulty must be >= 0, got {d}")
    if d == 0:
        return CONFIG
    return ReformatConfig(
        min_rows=8 + 4 * d,
        max_rows=12 + 6 * d,
        min_cols=5,
        max_cols=7 + d // 2,
        steps=min(len(STEP_KINDS), (d + 1) // 2),
        conversions=1 + max(0, d - 5) // 4,
    )


_config_at = difficulty  # ``generate``'s argument shadows the name

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

TRANSFORM_TEMPLATE = """\
Transform the table below, given as {source_name}, and write the result as {target_name}.

The table has {n_rows} rows and {n_cols} columns. Here it is as {source_name}:

{table}

Apply these steps, in this order, each to the result of the one before:
{steps}

Write the resulting table as {target_description}.
Keep the remaining rows in their order after the steps and every column name exactly as it is; \
copy every value not changed by a step exactly, numbers as numbers and text unchanged, and write \
a missing value as an empty cell (null in JSON). Row keys, in the layouts that have them, are the \
row positions in the result counted from 0; do not add an index column to the other formats.
Put your final answer inside <solution></solution> tags, with nothing but the table inside them."""


# ---------------------------------------------------------------- drawing a table

_TRICKY = re.compile(r'[,"]')


def _is_tricky(col: Column) -> bool:
    return any(isinstance(v, str) and _TRICKY.search(v) for v in col.values)


def _is_decimal(col: Column) -> bool:
    return col.numeric and not col.integral


def draw_table(rng: random.Random, sources: Sources, cfg: ReformatConfig = CONFIG) -> Table:
    """The question's table: a sample of a source table, or a generated one."""
    return draw_table_and_material(rng, sources, cfg)[0]


def draw_table_and_material(
    rng: random.Random, sources: Sources, cfg: ReformatConfig = CONFIG
) -> tuple[Table, tuple[str, ...]]:
    """The question's table and its material: the newest fresh source table's CSV text (a
    sample of its rows and columns is shown), or a generated table (no material)."""
    n_rows = rng.randint(cfg.min_rows, cfg.max_rows)
    n_cols = rng.randint(cfg.min_cols, cfg.max_cols)
    if sources.tables:
        base = fresh_source_tables(sources, "table_reformat")[0]
        rows = sample_indices(rng, base.n_rows, n_rows)
        cols = sample_indices(rng, len(base.columns), n_cols)
        return base.select(rows, cols), (sources.tables[base.name],)
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
    return base.select(range(n_rows), chosen), ()


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


# ---------------------------------------------------------------- transforming (d >= 1)

# (factor, places): factors with few digits, so each product is exact in decimal arithmetic.
FACTORS = ("0.3048", "0.4536", "1.8", "2.54", "0.621", "1.609", "3.6", "0.9144", "1.25", "0.85")


def _number(v: Cell) -> Decimal | None:
    return None if v is None else Decimal(cell_text(v))


def converted(v: Cell, factor: str, places: int) -> Cell:
    """``v * factor`` rounded half away from zero to ``places`` decimals (exact decimals)."""
    x = _number(v)
    if x is None:
        return None
    exact = (x * Decimal(factor)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return int(exact) if places == 0 else float(exact)


@dataclass(frozen=True)
class Step:
    """One transform step: its sentence in the prompt and what it does to (columns, rows)."""

    text: str
    kind: str
    column: str = ""
    argument: str = ""


def _numeric_columns(columns: list[str], rows: list[list[Cell]]) -> list[int]:
    def is_number(v: Cell) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    return [
        j
        for j in range(len(columns))
        if any(r[j] is not None for r in rows)
        and all(r[j] is None or is_number(r[j]) for r in rows)
    ]


def _convert(
    rng: random.Random, columns: list[str], rows: list[list[Cell]], done: set[str]
) -> tuple[Step, list[list[Cell]]] | None:
    options = [j for j in _numeric_columns(columns, rows) if columns[j] not in done]
    if not options:
        return None
    j = rng.choice(options)
    factor, places = rng.choice(FACTORS), rng.randint(1, 3)
    text = (
        f"Multiply every value of {columns[j]} by {factor} and round the product to {places} "
        f"decimal place{'s' if places > 1 else ''}, halves away from zero (an empty cell stays "
        "empty)."
    )
    out = [[converted(v, factor, places) if k == j else v for k, v in enumerate(r)] for r in rows]
    return Step(text, "convert", columns[j], f"{factor}:{places}"), out


COMPARISONS = {
    "greater than": lambda x, t: x > t,
    "greater than or equal to": lambda x, t: x >= t,
    "less than": lambda x, t: x < t,
    "less than or equal to": lambda x, t: x <= t,
}


def _filter(
    rng: random.Random, columns: list[str], rows: list[list[Cell]]
) -> tuple[Step, list[list[Cell]]] | None:
    options = _numeric_columns(columns, rows)
    rng.shuffle(options)
    for j in options:
        present = sorted({float(v) for r in rows if isinstance(v := r[j], (int, float))})
        if len(present) < 4:
            continue
        threshold = present[rng.randrange(len(present) // 4, 3 * len(present) // 4)]
        word = rng.choice(sorted(COMPARISONS))
        holds = COMPARISONS[word]
        kept = [
            r for r in rows if isinstance(v := r[j], (int, float)) and holds(float(v), threshold)
        ]
        if 2 <= len(kept) < len(rows):
            shown = cell_text(int(threshold) if threshold.is_integer() else threshold)
            text = (
                f"Keep only the rows whose {columns[j]} is {word} {shown}; "
                "drop the others, and any row where it is empty."
            )
            return Step(text, "filter", columns[j], shown), kept
    return None


def _sort(
    rng: random.Random, columns: list[str], rows: list[list[Cell]]
) -> tuple[Step, list[list[Cell]]] | None:
    options = _numeric_columns(columns, rows)
    if not options:
        return None
    j = rng.choice(options)
    descending = rng.random() < 0.5
    present = [r for r in rows if r[j] is not None]
    missing = [r for r in rows if r[j] is None]
    # sorted() is stable, and stays so with reverse=True: equal rows keep their order.
    ordered = sorted(present, key=lambda r: float(r[j]), reverse=descending)  # type: ignore[arg-type]
    way = "largest first" if descending else "smallest first"
    text = (
        f"Sort the rows by {columns[j]}, {way}; rows with equal {columns[j]} keep their order, "
        "and rows where it is empty go last, in their order."
    )
    return Step(text, "sort", columns[j], way), ordered + missing


def _select(
    rng: random.Random, columns: list[str], rows: list[list[Cell]]
) -> tuple[Step, list[str], list[list[Cell]]]:
    k = rng.randint(max(2, len(columns) // 2), max(2, len(columns) - 1))
    picked = rng.sample(range(len(columns)), k)
    names = [columns[j] for j in picked]
    text = "Keep only these columns, in this order: " + ", ".join(names) + "."
    return Step(text, "select", "", "|".join(names)), names, [[r[j] for j in picked] for r in rows]


def transform(
    rng: random.Random, columns: list[str], rows: list[list[Cell]], cfg: ReformatConfig
) -> tuple[list[Step], list[str], list[list[Cell]]]:
    """The steps of a question of ``cfg`` and the table they make (see the module docstring)."""
    steps: list[Step] = []
    for kind in STEP_KINDS[: cfg.steps]:
        made: tuple[Step, list[list[Cell]]] | None
        if kind == "select":
            step, columns, rows = _select(rng, columns, rows)
            steps.append(step)
            continue
        if kind == "convert":
            for _ in range(cfg.conversions):
                made = _convert(rng, columns, rows, {s.column for s in steps})
                if made is not None:
                    steps.append(made[0])
                    rows = made[1]
            continue
        made = (_filter if kind == "filter" else _sort)(rng, columns, rows)
        if made is not None:
            steps.append(made[0])
            rows = made[1]
    return steps, columns, rows


def effort(table: Table, steps: list[Step], rows: list[list[Cell]]) -> int:
    """The state a reader tracks: every cell written, plus one per row a step reads."""
    written = sum(len(r) for r in rows)
    return written + table.n_rows * len(steps)


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
        cfg = self.config if difficulty == 0 else _config_at(difficulty)
        source = rng.choice(FORMATS)
        target = rng.choice([f for f in FORMATS if f != source])
        source_format, target_format = table_format(source), table_format(target)
        table, material = draw_table_and_material(rng, sources, cfg)
        columns, rows = table.names, table.rows()
        shown = source_format.render(columns, rows)
        if cfg.steps == 0:
            prompt = PROMPT_TEMPLATE.format(
                source_name=source_format.title,
                target_name=target_format.title,
                n_rows=len(rows),
                n_cols=len(columns),
                table=shown,
                target_description=target_format.description,
            )
            fields: dict[str, Any] = {}
        else:
            steps, columns, rows = transform(rng, columns, rows, cfg)
            prompt = TRANSFORM_TEMPLATE.format(
                source_name=source_format.title,
                target_name=target_format.title,
                n_rows=len(table.rows()),
                n_cols=len(table.names),
                table=shown,
                steps="\n".join(f"{i}. {step.text}" for i, step in enumerate(steps, 1)),
                target_description=target_format.description,
            )
            fields = {"steps": [step.kind for step in steps], "effort": effort(table, steps, rows)}
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
                **fields,
            },
            material=material,
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
