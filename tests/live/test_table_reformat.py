"""table_reformat: the table re-read from the prompt, pandas' writers accepted, near misses not."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from decimal import Decimal

import pandas as pd
import pytest
import task_checks as checks
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import INDICES, RELEASE, make_question, record

from ladderbench.errors import UserError
from ladderbench.live.base import Question, Sources
from ladderbench.live.registry import get_task
from ladderbench.live.tasks.table_reformat import (
    FORMATS,
    ReformatConfig,
    TableReformat,
    difficulty,
    render,
)

TASK = TableReformat()


def make(
    index: int, release: str = RELEASE, sources: Sources | None = None, difficulty: int = 0
) -> Question:
    return make_question(TASK, index, release, sources, difficulty)


QUESTIONS = [make(i) for i in INDICES]
RECORDS = [record(q) for q in QUESTIONS]


# ------------------------------------------------------------ re-reading the prompt

NAMES = {
    "CSV": "csv",
    "TSV": "tsv",
    'JSON (pandas orient="records")': "json_records",
    'JSON (pandas orient="index")': "json_index",
    'JSON (pandas orient="columns")': "json_columns",
    'JSON (pandas orient="split")': "json_split",
    "JSON Lines": "jsonl",
    "HTML": "html",
    "Markdown": "markdown",
}


def typed(s: str):
    """A text cell as the value it stands for: int, float, None for empty, else the text."""
    if s == "":
        return None
    if re.fullmatch(r"-?(0|[1-9]\d*)", s):
        return int(s)
    if re.fullmatch(r"-?\d+\.\d+", s):
        return float(s)
    return s


def read_prompt(prompt: str) -> tuple[str, str, list[str], list[list]]:
    """(source format, target format, columns, rows), read from the prompt text alone."""
    m = re.match(r"Convert the table below from (.+) to (.+)\.\n", prompt) or re.match(
        r"Transform the table below, given as (.+), and write the result as (.+)\.\n", prompt
    )
    source, target = NAMES[m.group(1)], NAMES[m.group(2)]
    block = re.search(
        r"Here it is as .+?:\n\n(.*?)\n\n(?:Write the same table|Apply these steps)", prompt, re.S
    ).group(1)
    if source in ("csv", "tsv"):
        lines = list(csv.reader(io.StringIO(block), delimiter="," if source == "csv" else "\t"))
        return source, target, lines[0], [[typed(c) for c in row] for row in lines[1:]]
    if source == "html":
        rows = [
            [html.unescape(c) for c in re.findall(r"<t[hd]>(.*?)</t[hd]>", tr)]
            for tr in re.findall(r"<tr>(.*?)</tr>", block)
        ]
        return source, target, rows[0], [[typed(c) for c in row] for row in rows[1:]]
    if source == "markdown":
        rows = []
        for line in block.splitlines():
            cells = re.split(r"(?<!\\)\|", line.strip()[1:-1])
            rows.append([c.strip().replace("\\|", "|") for c in cells])
        return source, target, rows[0], [[typed(c) for c in row] for row in rows[2:]]
    if source == "jsonl":
        objs = [json.loads(line) for line in block.splitlines()]
        return source, target, list(objs[0]), [list(o.values()) for o in objs]
    obj = json.loads(block)
    if source == "json_records":
        return source, target, list(obj[0]), [list(o.values()) for o in obj]
    if source == "json_index":
        keys = sorted(obj, key=int)
        return source, target, list(obj[keys[0]]), [list(obj[k].values()) for k in keys]
    if source == "json_columns":
        cols = list(obj)
        keys = sorted(obj[cols[0]], key=int)
        return source, target, cols, [[obj[c][k] for c in cols] for k in keys]
    return source, target, obj["columns"], obj["data"]


def pandas_answer(target: str, columns: list[str], rows: list[list]) -> str:
    """The table written by pandas' own writers (or tabulate for Markdown)."""
    frame = pd.DataFrame(rows, columns=columns)
    if target in ("json_records", "json_index", "json_columns", "json_split"):
        return frame.to_json(orient=target.removeprefix("json_"), force_ascii=False)
    if target == "jsonl":
        return frame.to_json(orient="records", lines=True, force_ascii=False)
    if target == "csv":
        return frame.to_csv(index=False)
    if target == "tsv":
        return frame.to_csv(index=False, sep="\t")
    if target == "html":
        return frame.to_html(index=False, float_format=lambda x: repr(float(x)), na_rep="")
    pytest.importorskip("tabulate")
    return frame.astype(str).replace("None", "").to_markdown(index=False)


def test_table_rederived_from_prompt_and_pandas_writers_accepted() -> None:
    seen = set()
    for q, rec in zip(QUESTIONS, RECORDS):
        source, target, columns, rows = read_prompt(q.prompt)
        assert q.subtask == f"{source}_to_{target}" and source != target
        assert columns == rec["columns"]
        assert rows == rec["rows"], q.subtask
        assert 6 <= len(rows) <= 15 and 4 <= len(columns) <= 7
        answer = pandas_answer(target, columns, rows)
        assert TASK.score(rec, f"<solution>\n{answer}\n</solution>").score == 1.0, q.subtask
        seen.add(target)
    assert seen == set(FORMATS)


def test_tables_are_mixed_and_tricky() -> None:
    for rec in RECORDS:
        cells = [v for row in rec["rows"] for v in row]
        assert any(isinstance(v, float) for v in cells), rec["table_name"]
        assert any(isinstance(v, str) and ("," in v or '"' in v) for v in cells)


# ------------------------------------------------------------ alternatives and near misses


def rec_for(target: str) -> dict:
    return next(r for r in RECORDS if r["target_format"] == target)


def answer(target: str, rows: list[list] | None = None, columns: list[str] | None = None) -> str:
    rec = rec_for(target)
    return render(target, columns or rec["columns"], rows if rows is not None else rec["rows"])


@pytest.mark.parametrize("target", FORMATS)
def test_reasonable_wrappings_score_one(target: str) -> None:
    rec, text = rec_for(target), answer(target)
    for reply in (
        f"Here is the table:\n\n```\n{text}\n```",
        f"Converted.\n```{target.split('_')[0]}\n{text}\n```\nDone.",
        f"<solution>\n```{target.split('_')[0]}\n{text}\n```\n</solution>",
        f"<think>It is {text[:30]}</think>\n<solution>{text}</solution>",
        f"<solution>{text.replace(chr(10), chr(13) + chr(10))}</solution>",
        f"<answer>\n{text}\n</answer>",
    ):
        assert TASK.score(rec, reply).score == 1.0, reply[:80]


def test_format_specific_alternatives_score_one() -> None:
    rec = rec_for("json_records")
    objs = [dict(zip(rec["columns"], row)) for row in rec["rows"]]
    compact = json.dumps(objs, separators=(",", ":"))
    assert TASK.score(rec, f"<solution>{compact}</solution>").score == 1.0
    as_python = repr(objs)  # single quotes, None
    assert TASK.score(rec, f"<solution>{as_python}</solution>").score == 1.0
    numbers_as_text = [{k: (str(v) if v is not None else v) for k, v in o.items()} for o in objs]
    assert TASK.score(rec, f"<solution>{json.dumps(numbers_as_text)}</solution>").score == 1.0
    reordered = [dict(reversed(list(o.items()))) for o in objs]
    assert TASK.score(rec, f"<solution>{json.dumps(reordered)}</solution>").score == 1.0

    rec = rec_for("json_index")
    obj = {str(i + 1): dict(zip(rec["columns"], row)) for i, row in enumerate(rec["rows"])}
    assert TASK.score(rec, f"<solution>{json.dumps(obj, indent=2)}</solution>").score == 1.0

    rec = rec_for("csv")
    frame = pd.DataFrame(rec["rows"], columns=rec["columns"])
    with_index = frame.to_csv()  # pandas' unnamed index column
    assert TASK.score(rec, f"<solution>{with_index}</solution>").score == 1.0
    quoted_all = frame.to_csv(index=False, quoting=csv.QUOTE_ALL)
    assert TASK.score(rec, f"<solution>{quoted_all}</solution>").score == 1.0

    rec = rec_for("markdown")
    bare = "\n".join(line.strip().strip("|") for line in answer("markdown").splitlines())
    assert TASK.score(rec, f"<solution>{bare}</solution>").score == 1.0

    rec = rec_for("html")
    no_head = answer("html").replace("<thead>", "").replace("</thead>", "")
    no_head = no_head.replace("<th>", "<td>").replace("</th>", "</td>")
    assert TASK.score(rec, f"<solution>{no_head}</solution>").score == 1.0
    with_index = pd.DataFrame(rec["rows"], columns=rec["columns"]).to_html(
        float_format=lambda x: repr(float(x))
    )
    assert TASK.score(rec, f"<solution>{with_index}</solution>").score == 1.0


def _changed(value):
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return "x"
    return value + 1


@pytest.mark.parametrize("target", FORMATS)
def test_near_misses_score_zero(target: str) -> None:
    rec = rec_for(target)
    rows, columns = rec["rows"], rec["columns"]
    one_cell = [list(r) for r in rows]
    one_cell[len(rows) // 2][1] = _changed(one_cell[len(rows) // 2][1])
    swapped = [rows[1], rows[0], *rows[2:]]
    renamed = [columns[0] + "_", *columns[1:]]
    wrong_format = next(f for f in FORMATS if f != target and f != rec["source_format"])
    for bad in (
        answer(target, one_cell),
        answer(target, rows[:-1]),
        answer(target, swapped),
        answer(target, [r[:-1] for r in rows], columns[:-1]),
        answer(target, rows, renamed),
        render(wrong_format, columns, rows),
        "",
        "I cannot do this.",
    ):
        assert TASK.score(rec, f"<solution>{bad}</solution>").score == 0.0, bad[:80]


def test_unquoted_csv_scores_zero() -> None:
    rec = rec_for("csv")
    sloppy = "\n".join(
        ",".join("" if v is None else str(v) for v in row) for row in [rec["columns"], *rec["rows"]]
    )
    has_comma = any(isinstance(v, str) and "," in v for row in rec["rows"] for v in row)
    assert TASK.score(rec, f"<solution>{sloppy}</solution>").score == (0.0 if has_comma else 1.0)


def test_float_tolerance() -> None:
    rec = rec_for("json_records")
    j = next(i for i, v in enumerate(rec["rows"][0]) if isinstance(v, float))
    rows = [list(r) for r in rec["rows"]]
    rows[0][j] = rows[0][j] * (1 + 1e-9)
    assert TASK.score(
        rec, f"<solution>{render('json_records', rec['columns'], rows)}</solution>"
    ).score
    rows[0][j] = rec["rows"][0][j] * (1 + 1e-4)
    assert not TASK.score(
        rec, f"<solution>{render('json_records', rec['columns'], rows)}</solution>"
    ).score


# ------------------------------------------------------------ sources

SOURCE_CSV = '''\
city,country,population,area_km2,mayor,note
Paris,France,2102650,105.4,"Hidalgo, Anne","river ""Seine"""
Berlin,Germany,3850809,891.7,"Wegner, Kai",
Madrid,Spain,3332035,604.3,"Almeida, José Luis",capital | seat
Rome,Italy,2748109,1285.0,"Gualtieri, Roberto",ancient
'''


def test_sources_are_drawn_from() -> None:
    """Newest table first (undated: by name), each only while unused; its CSV is the material."""
    lyon = SOURCE_CSV.replace("Paris", "Lyon")
    sources = Sources(
        tables={"b.csv": SOURCE_CSV, "a.csv": lyon, "c.csv": SOURCE_CSV.replace("Rome", "Bari")},
        dates={"c.csv": "2026-11-30"},
    )
    for i in range(24):
        for d in (0, 3, 8):
            q = make(i, sources=sources, difficulty=d)
            rec = record(q)
            assert rec["table_name"] == "c.csv" and q.material == (sources.tables["c.csv"],)
            assert TASK.score(rec, TASK.reference(rec)).score == 1.0, q.subtask
            if d == 0:
                assert len(rec["rows"]) == 4 and 4 <= len(rec["columns"]) <= 6
            else:
                assert solve(q.prompt)[1:] == (rec["columns"], rec["rows"])
    after_c = sources.using([sources.tables["c.csv"]])
    assert make(0, sources=after_c).material == (lyon,)
    with pytest.raises(UserError, match=r"already served.*live fetch.*--sources"):
        make(0, sources=after_c.using([lyon, SOURCE_CSV]))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("a\n1\n2\n3\n", "at least 2 columns"),
        ("a,b\n1,2\n3,4\n", "at least 3 rows"),
        ('a,b\n1,2\n"3,4\n5,6\n', "pandas cannot parse"),
        ("", "pandas cannot parse"),
    ],
)
def test_bad_sources_raise_user_error(text: str, reason: str) -> None:
    with pytest.raises(UserError, match=rf"bad\.csv: .*{reason}"):
        make(0, sources=Sources(tables={"bad.csv": text}))


# ------------------------------------------------------------ determinism and robustness


def test_registered() -> None:
    assert get_task("table_reformat").category == "data_analysis"


def test_bad_config() -> None:
    with pytest.raises(ValueError, match="row range"):
        ReformatConfig(min_rows=5, max_rows=2)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet='{}[]",:|\t\n<>/tdrhable0123abc ', max_size=200))
def test_score_never_raises_on_table_soup(text: str) -> None:
    records = [rec_for(target) for target in FORMATS]
    checks.assert_scores_in_range(TASK, records, [f"<solution>{text}</solution>"])


# ------------------------------------------------------------ difficulty: transform steps

HARD = (1, 2, 3, 4, 5, 6, 7, 8, 12, 20)
SEEDS = range(6)


def make_hard(index: int, d: int) -> Question:
    return make_question(TASK, index, difficulty=d)


def half_away(x: Decimal, places: int) -> Decimal:
    """Round half away from zero, written out by hand (not with the decimal module's modes)."""
    scaled = x * (Decimal(10) ** places)
    whole = int(abs(scaled))
    if abs(scaled) - whole >= Decimal("0.5"):
        whole += 1
    return Decimal(-whole if scaled < 0 else whole) / (Decimal(10) ** places)


def apply_step(step: str, columns: list[str], rows: list[list]) -> tuple[list[str], list[list]]:
    """One numbered step of the prompt, read from its sentence and applied here."""
    m = re.fullmatch(
        r"Multiply every value of (.+) by ([\d.]+) and round the product to (\d) "
        r"decimal places?, halves away from zero \(an empty cell stays empty\)\.",
        step,
    )
    if m:
        j, factor, places = columns.index(m.group(1)), Decimal(m.group(2)), int(m.group(3))
        for r in rows:
            if r[j] is not None:
                r[j] = float(half_away(Decimal(repr(r[j])) * factor, places))
        return columns, rows
    m = re.fullmatch(
        r"Keep only the rows whose (.+) is (greater|less) than( or equal to)? "
        r"(-?[\d.]+); drop the others, and any row where it is empty\.",
        step,
    )
    if m:
        j, t = columns.index(m.group(1)), float(m.group(4))

        def ok(v) -> bool:
            if v is None:
                return False
            if v == t:
                return m.group(3) is not None
            return (v > t) == (m.group(2) == "greater")

        return columns, [r for r in rows if ok(r[j])]
    m = re.fullmatch(
        r"Sort the rows by (.+), (largest|smallest) first; rows with equal \1 keep "
        r"their order, and rows where it is empty go last, in their order\.",
        step,
    )
    if m:
        j = columns.index(m.group(1))
        present = [r for r in rows if r[j] is not None]
        sign = -1 if m.group(2) == "largest" else 1
        keyed = sorted(range(len(present)), key=lambda i: (sign * present[i][j], i))
        return columns, [present[i] for i in keyed] + [r for r in rows if r[j] is None]
    m = re.fullmatch(r"Keep only these columns, in this order: (.+)\.", step)
    assert m, step
    names = m.group(1).split(", ")
    assert all(n in columns for n in names), (names, columns)
    return names, [[r[columns.index(n)] for n in names] for r in rows]


def solve(prompt: str) -> tuple[str, list[str], list[list]]:
    """(target format, columns, rows) of the transformed table, from the prompt text alone."""
    _, target, columns, rows = read_prompt(prompt)
    block = re.search(r"Apply these steps.*?:\n(.*?)\n\nWrite the resulting", prompt, re.S)
    for line in block.group(1).splitlines():
        number, _, step = line.partition(". ")
        assert number.isdigit(), line
        columns, rows = apply_step(step, columns, [list(r) for r in rows])
    return target, columns, rows


@pytest.mark.parametrize("d", HARD)
def test_transformed_table_rederived_from_prompt(d: int) -> None:
    for i in SEEDS:
        q = make_hard(i, d)
        rec = record(q)
        target, columns, rows = solve(q.prompt)
        assert target == rec["target_format"]
        assert columns == rec["columns"] and rows == rec["rows"], (d, i, q.prompt)
        answer = pandas_answer(target, columns, rows)
        assert TASK.score(rec, f"<solution>\n{answer}\n</solution>").score == 1.0
        assert TASK.score(rec, TASK.reference(rec)).score == 1.0


def test_one_changed_cell_fails_a_transformed_question() -> None:
    q = make_hard(2, 5)
    rec = record(q)
    rows = [list(r) for r in rec["rows"]]
    j = next(j for j, v in enumerate(rows[-1]) if isinstance(v, float))
    rows[-1][j] = rows[-1][j] + 0.01
    assert (
        TASK.score(
            rec, f"<solution>{render(rec['target_format'], rec['columns'], rows)}</solution>"
        ).score
        == 0.0
    )
    untransformed = solve_untransformed(q.prompt)
    assert TASK.score(rec, f"<solution>{untransformed}</solution>").score == 0.0


def solve_untransformed(prompt: str) -> str:
    _, target, columns, rows = read_prompt(prompt)
    return render(target, columns, rows)


def test_steps_and_effort_grow_with_difficulty() -> None:
    def mean_effort(d: int) -> float:
        return sum(record(make_hard(i, d))["effort"] for i in SEEDS) / len(SEEDS)

    steps = [len(record(make_hard(0, d))["steps"]) for d in (1, 3, 5, 7, 9, 13)]
    assert steps == sorted(steps) and steps[0] == 1 and steps[-1] >= 6
    efforts = [mean_effort(d) for d in (1, 4, 8, 12, 20)]
    assert efforts == sorted(efforts) and efforts[-1] > 4 * efforts[0]
    assert difficulty(0) == ReformatConfig()
    assert difficulty(30).min_rows > difficulty(12).min_rows


def test_hard_questions_generate() -> None:
    """How fast is bench/README section 8's; a hang is caught by pytest's timeout."""
    for d in (12, 20):
        assert make_hard(7, d).prompt


# The digest of questions 0..15 at d = 0 (references included) as v1 (commit 607738d) made them:
# difficulty 0 stays byte for byte the v1 question.
V1_DIGEST = "4946c0dae8210289b2ce525e2748357da64d3e07e6e50aca6bd8a6ea918c1014"


def test_difficulty_zero_is_v1_byte_for_byte() -> None:
    questions = [make_question(TASK, i, difficulty=0) for i in range(checks.DIGEST_COUNT)]
    assert checks.question_digest(TASK, questions, with_reference=True) == V1_DIGEST
