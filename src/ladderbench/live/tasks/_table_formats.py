"""The table formats of table_reformat, one object each: name, prompt wording, writer, reader.

A :class:`TableFormat` holds everything about one format: what the prompt calls it and how it
describes the layout, how a table is written in it (the source table and the ground truth), and
how an answer is read back as (column names, rows), with pandas for the delimited and JSON
formats, the standard library's ``html.parser`` for HTML (pandas' ``read_html`` needs lxml or
BeautifulSoup, which are not dependencies) and a small pipe-table reader for Markdown. A new
format is one definition in ``ALL_FORMATS``.
"""

from __future__ import annotations

import ast
import html
import io
import json
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, Literal

from ladderbench.live.tasks._tables import Cell, cell_text, csv_text

Columns = list[str]
Rows = list[list[Cell]]
Orient = Literal["records", "index", "columns", "split"]  # the pandas JSON layouts read here


@dataclass(frozen=True)
class TableFormat:
    """One table format.

    ``positional``: rows have no keys, so a writer may add a leading index column (pandas does),
    which the comparison then ignores. ``collapses_space``: a reader of the format sees runs of
    whitespace inside a cell as one space (HTML, as browsers do).
    """

    name: str
    title: str
    description: str
    render: Callable[[Columns, Rows], str] = field(repr=False)
    read: Callable[[str], Parsed | None] = field(repr=False)
    positional: bool = False
    collapses_space: bool = False


# ---------------------------------------------------------------- writing


def _json_cell(v: Cell) -> str:
    return json.dumps(v, ensure_ascii=False)


def _json_object(columns: list[str], row: list[Cell]) -> str:
    return "{" + ", ".join(f"{_json_cell(c)}: {_json_cell(v)}" for c, v in zip(columns, row)) + "}"


def _markdown_cell(v: Cell) -> str:
    return cell_text(v).replace("|", "\\|")


def _render_json_records(columns: Columns, rows: Rows) -> str:
    return "[\n" + ",\n".join("  " + _json_object(columns, r) for r in rows) + "\n]"


def _render_json_index(columns: Columns, rows: Rows) -> str:
    body = ",\n".join(f'  "{i}": {_json_object(columns, r)}' for i, r in enumerate(rows))
    return "{\n" + body + "\n}"


def _render_json_columns(columns: Columns, rows: Rows) -> str:
    lines = []
    for j, name in enumerate(columns):
        inner = ", ".join(f'"{i}": {_json_cell(r[j])}' for i, r in enumerate(rows))
        lines.append(f"  {_json_cell(name)}: {{{inner}}}")
    return "{\n" + ",\n".join(lines) + "\n}"


def _render_json_split(columns: Columns, rows: Rows) -> str:
    data = ",\n".join("    [" + ", ".join(_json_cell(v) for v in r) + "]" for r in rows)
    return (
        "{\n"
        f'  "columns": [{", ".join(_json_cell(c) for c in columns)}],\n'
        f'  "index": [{", ".join(str(i) for i in range(len(rows)))}],\n'
        f'  "data": [\n{data}\n  ]\n'
        "}"
    )


def _render_jsonl(columns: Columns, rows: Rows) -> str:
    return "\n".join(_json_object(columns, r) for r in rows)


def _render_html(columns: Columns, rows: Rows) -> str:
    esc = lambda v: html.escape(cell_text(v), quote=False)  # noqa: E731
    lines = ["<table>", "  <thead>"]
    lines.append("    <tr>" + "".join(f"<th>{esc(c)}</th>" for c in columns) + "</tr>")
    lines += ["  </thead>", "  <tbody>"]
    lines += ["    <tr>" + "".join(f"<td>{esc(v)}</td>" for v in r) + "</tr>" for r in rows]
    lines += ["  </tbody>", "</table>"]
    return "\n".join(lines)


def _render_markdown(columns: Columns, rows: Rows) -> str:
    lines = ["| " + " | ".join(_markdown_cell(c) for c in columns) + " |"]
    lines.append("|" + "|".join(" --- " for _ in columns) + "|")
    lines += ["| " + " | ".join(_markdown_cell(v) for v in r) + " |" for r in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------- reading

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


def _json_frame(buffer: str, orient: Orient, lines: bool) -> Parsed:
    import pandas as pd

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
        labels = [_int_key(label) for label in frame.index]
        keys = [k for k in labels if k is not None]
        if len(keys) == len(labels):
            frame = frame.iloc[sorted(range(len(keys)), key=lambda i: keys[i])]
    return [str(c) for c in frame.columns], frame.to_numpy().tolist()


def _json_reader(orient: Orient) -> Callable[[str], Parsed | None]:
    """A reader of one pandas orient: the value must be an array (records) or an object."""

    def read(text: str) -> Parsed | None:
        value = _json_value(text)
        expected_type = list if orient == "records" else dict
        if not isinstance(value, expected_type):
            return None
        return _json_frame(json.dumps(value), orient, False)

    return read


def _read_jsonl(text: str) -> Parsed | None:
    values = [_json_value(line) for line in text.splitlines() if line.strip()]
    if not values or not all(isinstance(v, dict) for v in values):
        return None
    return _json_frame("\n".join(json.dumps(v) for v in values), "records", True)


# ---------------------------------------------------------------- the formats

CSV = TableFormat(
    "csv",
    "CSV",
    (
        "CSV: a header line of column names, then one line per row, values separated by "
        "commas; a value holding a comma, a double quote or a line break is enclosed in double "
        'quotes, with each double quote inside it written twice ("")'
    ),
    render=lambda columns, rows: csv_text(columns, rows),
    read=lambda text: _read_delimited(text, ","),
    positional=True,
)
TSV = TableFormat(
    "tsv",
    "TSV",
    (
        "TSV: a header line of column names, then one line per row, values separated by single "
        "tab characters; a value holding a tab or a double quote is enclosed in double quotes, "
        "with each double quote inside it written twice"
    ),
    render=lambda columns, rows: csv_text(columns, rows, sep="\t"),
    read=lambda text: _read_delimited(text, "\t"),
    positional=True,
)
JSON_RECORDS = TableFormat(
    "json_records",
    'JSON (pandas orient="records")',
    (
        'JSON in pandas\' orient="records" layout: an array with one object per row, mapping '
        "each column name to the row's value"
    ),
    render=_render_json_records,
    read=_json_reader("records"),
)
JSON_INDEX = TableFormat(
    "json_index",
    'JSON (pandas orient="index")',
    (
        'JSON in pandas\' orient="index" layout: an object mapping each row key ("0", "1", '
        "...) to an object that maps each column name to the row's value"
    ),
    render=_render_json_index,
    read=_json_reader("index"),
)
JSON_COLUMNS = TableFormat(
    "json_columns",
    'JSON (pandas orient="columns")',
    (
        'JSON in pandas\' orient="columns" layout: an object mapping each column name to an '
        'object that maps each row key ("0", "1", ...) to the value in that row'
    ),
    render=_render_json_columns,
    read=_json_reader("columns"),
)
JSON_SPLIT = TableFormat(
    "json_split",
    'JSON (pandas orient="split")',
    (
        'JSON in pandas\' orient="split" layout: an object with "columns" (the list of column '
        'names), "index" (the list of row keys 0, 1, ...) and "data" (one list of values per '
        "row, in column order)"
    ),
    render=_render_json_split,
    read=_json_reader("split"),
)
JSONL = TableFormat(
    "jsonl",
    "JSON Lines",
    (
        "JSON Lines: one JSON object per line, one line per row, each mapping every column "
        "name to the row's value (no enclosing array, no commas between lines)"
    ),
    render=_render_jsonl,
    read=_read_jsonl,
)
HTML = TableFormat(
    "html",
    "HTML",
    (
        "an HTML table: a <table> element whose first row holds one <th> cell per column "
        "name, followed by one <tr> per row with one <td> cell per value (escape &, < and >)"
    ),
    render=_render_html,
    read=_read_html,
    positional=True,
    collapses_space=True,
)
MARKDOWN = TableFormat(
    "markdown",
    "Markdown",
    (
        "a Markdown pipe table: a header row of column names, a separator row of dashes, then "
        "one row per line, cells separated by | (write a | inside a value as \\|)"
    ),
    render=_render_markdown,
    read=_read_markdown,
    positional=True,
)

# In the order questions draw them.
ALL_FORMATS: tuple[TableFormat, ...] = (
    CSV,
    TSV,
    JSON_RECORDS,
    JSON_INDEX,
    JSON_COLUMNS,
    JSON_SPLIT,
    JSONL,
    HTML,
    MARKDOWN,
)
FORMAT_BY_NAME: dict[str, TableFormat] = {f.name: f for f in ALL_FORMATS}
FORMATS: tuple[str, ...] = tuple(FORMAT_BY_NAME)


def table_format(name: str) -> TableFormat:
    """The format called ``name``; ValueError naming the known ones otherwise."""
    found = FORMAT_BY_NAME.get(name)
    if found is None:
        raise ValueError(f"unknown table format {name!r}; known: {', '.join(FORMATS)}")
    return found
