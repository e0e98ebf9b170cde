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

Scoring (1 or 0): the answer (inside <solution></solution>; a fenced code block, with or without
a language tag, is also read) is parsed as the target format with pandas (``read_json`` with the
orient, ``read_csv`` with the separator); HTML with a small reader on the standard library's
``html.parser`` (pandas' ``read_html`` needs lxml or BeautifulSoup, which are not dependencies)
and Markdown with a small pipe-table reader. It scores 1 when it has the same columns (by name,
in any order), the same number of rows in the same order, and every cell matches: numbers within
a relative tolerance of 1e-6 (a number written as a string counts), text equal after stripping
surrounding whitespace (HTML also collapses inner whitespace, as browsers do), a missing value
as null, NaN or an empty cell. An extra leading index column (unnamed or named "index", as
pandas writes one) is ignored in the formats without row keys; in the keyed JSON layouts the key
values are not checked, only the order they give (integer keys are read in numeric order). The
bottom-right cell may lose a trailing ".", "*" or "`", which answer extraction strips from the
end of a reply.
"""

from __future__ import annotations

import ast
import html
import io
import json
import math
import random
import re
import warnings
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from ladderbench.grading.extract import extract_answer, strip_think
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register
from ladderbench.live.tasks._tables import (
    Cell,
    Column,
    Table,
    cell_text,
    csv_text,
    generate_table,
    sample_indices,
    source_tables,
)


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

FORMATS = (
    "csv",
    "tsv",
    "json_records",
    "json_index",
    "json_columns",
    "json_split",
    "jsonl",
    "html",
    "markdown",
)
FORMAT_NAMES = {
    "csv": "CSV",
    "tsv": "TSV",
    "json_records": 'JSON (pandas orient="records")',
    "json_index": 'JSON (pandas orient="index")',
    "json_columns": 'JSON (pandas orient="columns")',
    "json_split": 'JSON (pandas orient="split")',
    "jsonl": "JSON Lines",
    "html": "HTML",
    "markdown": "Markdown",
}
FORMAT_DESCRIPTIONS = {
    "csv": (
        "CSV: a header line of column names, then one line per row, values separated by "
        "commas; a value holding a comma, a double quote or a line break is enclosed in double "
        'quotes, with each double quote inside it written twice ("")'
    ),
    "tsv": (
        "TSV: a header line of column names, then one line per row, values separated by single "
        "tab characters; a value holding a tab or a double quote is enclosed in double quotes, "
        "with each double quote inside it written twice"
    ),
    "json_records": (
        'JSON in pandas\' orient="records" layout: an array with one object per row, mapping '
        "each column name to the row's value"
    ),
    "json_index": (
        'JSON in pandas\' orient="index" layout: an object mapping each row key ("0", "1", '
        "...) to an object that maps each column name to the row's value"
    ),
    "json_columns": (
        'JSON in pandas\' orient="columns" layout: an object mapping each column name to an '
        'object that maps each row key ("0", "1", ...) to the value in that row'
    ),
    "json_split": (
        'JSON in pandas\' orient="split" layout: an object with "columns" (the list of column '
        'names), "index" (the list of row keys 0, 1, ...) and "data" (one list of values per '
        "row, in column order)"
    ),
    "jsonl": (
        "JSON Lines: one JSON object per line, one line per row, each mapping every column "
        "name to the row's value (no enclosing array, no commas between lines)"
    ),
    "html": (
        "an HTML table: a <table> element whose first row holds one <th> cell per column "
        "name, followed by one <tr> per row with one <td> cell per value (escape &, < and >)"
    ),
    "markdown": (
        "a Markdown pipe table: a header row of column names, a separator row of dashes, then "
        "one row per line, cells separated by | (write a | inside a value as \\|)"
    ),
}

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


# ---------------------------------------------------------------- writing each format


def _json_cell(v: Cell) -> str:
    return json.dumps(v, ensure_ascii=False)


def _json_object(columns: list[str], row: list[Cell]) -> str:
    return "{" + ", ".join(f"{_json_cell(c)}: {_json_cell(v)}" for c, v in zip(columns, row)) + "}"


def _markdown_cell(v: Cell) -> str:
    return cell_text(v).replace("|", "\\|")


def render(fmt: str, columns: list[str], rows: list[list[Cell]]) -> str:
    """The table written in ``fmt`` (one row or column per line where the format allows)."""
    if fmt == "csv":
        return csv_text(columns, rows)
    if fmt == "tsv":
        return csv_text(columns, rows, sep="\t")
    if fmt == "json_records":
        return "[\n" + ",\n".join("  " + _json_object(columns, r) for r in rows) + "\n]"
    if fmt == "json_index":
        body = ",\n".join(f'  "{i}": {_json_object(columns, r)}' for i, r in enumerate(rows))
        return "{\n" + body + "\n}"
    if fmt == "json_columns":
        lines = []
        for j, name in enumerate(columns):
            inner = ", ".join(f'"{i}": {_json_cell(r[j])}' for i, r in enumerate(rows))
            lines.append(f"  {_json_cell(name)}: {{{inner}}}")
        return "{\n" + ",\n".join(lines) + "\n}"
    if fmt == "json_split":
        data = ",\n".join("    [" + ", ".join(_json_cell(v) for v in r) + "]" for r in rows)
        return (
            "{\n"
            f'  "columns": [{", ".join(_json_cell(c) for c in columns)}],\n'
            f'  "index": [{", ".join(str(i) for i in range(len(rows)))}],\n'
            f'  "data": [\n{data}\n  ]\n'
            "}"
        )
    if fmt == "jsonl":
        return "\n".join(_json_object(columns, r) for r in rows)
    if fmt == "html":
        esc = lambda v: html.escape(cell_text(v), quote=False)  # noqa: E731
        lines = ["<table>", "  <thead>"]
        lines.append("    <tr>" + "".join(f"<th>{esc(c)}</th>" for c in columns) + "</tr>")
        lines += ["  </thead>", "  <tbody>"]
        lines += ["    <tr>" + "".join(f"<td>{esc(v)}</td>" for v in r) + "</tr>" for r in rows]
        lines += ["  </tbody>", "</table>"]
        return "\n".join(lines)
    if fmt == "markdown":
        lines = ["| " + " | ".join(_markdown_cell(c) for c in columns) + " |"]
        lines.append("|" + "|".join(" --- " for _ in columns) + "|")
        lines += ["| " + " | ".join(_markdown_cell(v) for v in r) + " |" for r in rows]
        return "\n".join(lines)
    raise ValueError(f"unknown table format {fmt!r}; known: {', '.join(FORMATS)}")


# ---------------------------------------------------------------- reading an answer

Parsed = tuple[list[str], list[list[Any]]]


class _HtmlTableReader(HTMLParser):
    """The rows of the first <table> in a text: lists of cell texts (th and td alike)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self.depth = 0  # nesting of <table>
        self.done = False
        self.row: list[str] | None = None
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done:
            return
        if tag == "table":
            self.depth += 1
        elif self.depth == 1 and tag == "tr":
            self._end_row()
            self.row = []
        elif self.depth == 1 and tag in ("td", "th"):
            self._end_cell()
            if self.row is None:
                self.row = []
            self.cell = []
        elif self.cell is not None and tag == "br":
            self.cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if self.done:
            return
        if tag == "table":
            self.depth -= 1
            if self.depth <= 0:
                self._end_row()
                self.done = True
        elif self.depth == 1 and tag in ("td", "th"):
            self._end_cell()
        elif self.depth == 1 and tag == "tr":
            self._end_row()

    def handle_data(self, data: str) -> None:
        if self.cell is not None and self.depth == 1:
            self.cell.append(data)

    def _end_cell(self) -> None:
        if self.cell is not None and self.row is not None:
            self.row.append(" ".join("".join(self.cell).split()))
        self.cell = None

    def _end_row(self) -> None:
        self._end_cell()
        if self.row is not None:
            self.rows.append(self.row)
        self.row = None


def _read_html(text: str) -> Parsed | None:
    reader = _HtmlTableReader()
    reader.feed(text)
    reader.close()
    if reader.row is not None:  # an unclosed last row
        reader._end_row()
    rows = [r for r in reader.rows if r]
    if not rows:
        return None
    return rows[0], rows[1:]


_PIPE_SPLIT = re.compile(r"(?<!\\)\|")
_SEPARATOR_CELL = re.compile(r":?-+:?")


def _read_markdown(text: str) -> Parsed | None:
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if "|" not in line:
            continue
        if line.startswith("|"):
            line = line[1:]
        if line.endswith("|") and not line.endswith("\\|"):
            line = line[:-1]
        cells = [c.strip().replace("\\|", "|") for c in _PIPE_SPLIT.split(line)]
        if all(_SEPARATOR_CELL.fullmatch(c.replace(" ", "")) for c in cells):
            continue
        rows.append(cells)
    if not rows:
        return None
    return rows[0], rows[1:]


def _read_delimited(text: str, sep: str) -> Parsed | None:
    import pandas as pd

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = pd.read_csv(
            io.StringIO(text),
            sep=sep,
            dtype=str,
            keep_default_na=False,
            index_col=False,
            skipinitialspace=sep == ",",
        )
    return [str(c) for c in frame.columns], frame.to_numpy().tolist()


def _json_value(text: str) -> Any:
    """JSON, or the same structure written as a Python literal (single quotes, None, True)."""
    try:
        return json.loads(text)
    except ValueError:
        return ast.literal_eval(text)


def _int_key(label: Any) -> int | None:
    try:
        return int(str(label).strip())
    except ValueError:
        return None


def _read_json(text: str, fmt: str) -> Parsed | None:
    import pandas as pd

    orient = fmt.removeprefix("json_")
    if fmt == "jsonl":
        values = [_json_value(line) for line in text.splitlines() if line.strip()]
        if not values or not all(isinstance(v, dict) for v in values):
            return None
        buffer, lines = "\n".join(json.dumps(v) for v in values), True
        orient = "records"
    else:
        value = _json_value(text)
        expected_type = list if orient == "records" else dict
        if not isinstance(value, expected_type):
            return None
        buffer, lines = json.dumps(value), False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = pd.read_json(
            io.StringIO(buffer),
            orient=orient,
            lines=lines,
            dtype=False,
            convert_axes=False,
            precise_float=True,
        )
    if orient in ("index", "columns"):
        keys = [_int_key(label) for label in frame.index]
        if all(k is not None for k in keys):
            frame = frame.iloc[sorted(range(len(keys)), key=lambda i: keys[i])]
    return [str(c) for c in frame.columns], frame.to_numpy().tolist()


def parse_table(text: str, fmt: str) -> Parsed | None:
    """Read ``text`` as a table in ``fmt``: (column names, rows), or None if it is not one."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown table format {fmt!r}")
    try:
        return _parse_table(text, fmt)
    except Exception:  # pandas, json and ast raise many kinds; all mean "not a table"
        return None


def _parse_table(text: str, fmt: str) -> Parsed | None:
    if fmt in ("csv", "tsv"):
        return _read_delimited(text, "," if fmt == "csv" else "\t")
    if fmt in ("json_records", "json_index", "json_columns", "json_split", "jsonl"):
        return _read_json(text, fmt)
    if fmt == "html":
        return _read_html(text)
    return _read_markdown(text)


# ---------------------------------------------------------------- comparing

_MISSING = {"", "nan", "null", "none"}
_FENCE = re.compile(r"```[^\n`]*\n(.*?)(?:```|\Z)", re.S)
_LANGUAGE_TAG = re.compile(
    r"(?:csv|tsv|json|jsonl|ndjson|json5|html|markdown|md|text|txt|plaintext|plain|table)",
    re.I,
)
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
    if fmt in ("csv", "tsv", "html", "markdown"):
        got_columns, got_rows = _drop_index_column(got_columns, got_rows, len(columns))
    if len(got_columns) != len(columns) or len(set(got_columns)) != len(got_columns):
        return False
    if sorted(got_columns) != sorted(c.strip() for c in columns):
        return False
    if len(got_rows) != len(rows) or any(len(r) != len(got_columns) for r in got_rows):
        return False
    where = {name: j for j, name in enumerate(got_columns)}
    collapse = fmt == "html"
    for i, row in enumerate(rows):
        for name, want in zip(columns, row):
            j = where[name.strip()]
            last = i == len(rows) - 1 and j == len(got_columns) - 1
            if not cells_equal(want, got_rows[i][j], last=last, collapse=collapse):
                return False
    return True


def answer_text(response: str) -> str | None:
    """The table text of a reply: the <solution> block, else the last fenced code block.

    A fence inside the solution block is unwrapped too, and a leading language tag that answer
    extraction left behind (```csv) is dropped.
    """
    text = strip_think(response) if isinstance(response, str) else None
    if text is None:
        return None
    tagged = re.search(r"<(?:solution|answer)>", text, re.I)
    if tagged:
        found = extract_answer(response)
    else:
        fences = _FENCE.findall(text)
        found = fences[-1] if fences else extract_answer(response)
    if found is None:
        return None
    fences = _FENCE.findall(found)
    if fences:
        found = fences[-1]
    lines = found.strip("\n").split("\n")
    if len(lines) > 1 and _LANGUAGE_TAG.fullmatch(lines[0].strip()):
        lines = lines[1:]
    found = "\n".join(lines).strip("\n")
    return found if found.strip() else None


# ---------------------------------------------------------------- the task


@register
class TableReformat(Task):
    name = "table_reformat"
    category = "data_analysis"
    uses_sources = True

    def __init__(self, config: ReformatConfig = CONFIG) -> None:
        self.config = config

    def generate(self, rng: random.Random, sources: Sources) -> Question:
        source = rng.choice(FORMATS)
        target = rng.choice([f for f in FORMATS if f != source])
        table = draw_table(rng, sources, self.config)
        columns, rows = table.names, table.rows()
        prompt = PROMPT_TEMPLATE.format(
            source_name=FORMAT_NAMES[source],
            target_name=FORMAT_NAMES[target],
            n_rows=len(rows),
            n_cols=len(columns),
            table=render(source, columns, rows),
            target_description=FORMAT_DESCRIPTIONS[target],
        )
        return Question(
            prompt=prompt,
            ground_truth=render(target, columns, rows),
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
        text = answer_text(response)
        if text is None:
            return verdict(None, 0.0)
        fmt = record["target_format"]
        parsed = parse_table(text, fmt)
        if parsed is None:
            return verdict(text, 0.0)
        ok = tables_match(record["columns"], record["rows"], parsed, fmt=fmt)
        return verdict(text, 1.0 if ok else 0.0)
