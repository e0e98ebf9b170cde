"""table_join: the mapping re-derived from the two tables in the prompt, F1 partial credit."""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import io
import json
import re

import pytest
import task_checks as checks
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import INDICES, RELEASE, make_question, record

from ladderbench.errors import UserError
from ladderbench.live.base import Question, Sources
from ladderbench.live.registry import get_task
from ladderbench.live.tasks.table_join import SUBTASKS, JoinConfig, TableJoin, difficulty

TASK = TableJoin()


def make(
    index: int, release: str = RELEASE, sources: Sources | None = None, difficulty: int = 0
) -> Question:
    return make_question(TASK, index, release, sources, difficulty)


QUESTIONS = [make(i) for i in INDICES]
RECORDS = [record(q) for q in QUESTIONS]


# ------------------------------------------------------------ an independent solver

DATE_PATTERNS = (
    "%Y-%m-%d",
    "%m/%d/%Y",
    "%d.%m.%Y",
    "%b %d, %Y",
    "%d %B %Y",
    "%Y%m%d",
    "%Y-%m-%d %H:%M",
    "%m/%d/%Y %I:%M %p",
    "%d.%m.%Y %H:%M",
    "%Y-%m-%dT%H:%M:%S",
)
TRUE, FALSE = {"yes", "true", "y", "1"}, {"no", "false", "n", "0"}


def readings(value: str) -> set[str]:
    """Every canonical form a cell could stand for (a date, a number, an ID, a name...)."""
    v = value.strip()
    low = v.casefold()
    out = {low}
    for pattern in DATE_PATTERNS:
        with contextlib.suppress(ValueError):
            out.add("date:" + dt.datetime.strptime(v, pattern).isoformat())
    money = re.sub(r"^\$|^usd\s*|\s*usd$", "", low).replace(",", "")
    with contextlib.suppress(ValueError):
        out.add(f"num:{float(money):.6f}")
    m = re.fullmatch(r"([a-z]*)[\s#_-]*(\d+)", low) or re.fullmatch(r"()(\d+)\s*/\s*[a-z]+", low)
    if m:
        out.add(f"id:{int(m.group(2))}")
    if re.fullmatch(r"[\d-]{10,}", low):
        out.add("digits:" + low.replace("-", ""))
    words = re.findall(r"[^\s,]+", low)
    if len(words) >= 2:
        out.add("words:" + " ".join(sorted(words)))
    if low in TRUE:
        out.add("bool:1")
    if low in FALSE:
        out.add("bool:0")
    return out


def same(a: str, b: str) -> bool:
    if a == "" or b == "":
        return a == b
    return bool(readings(a) & readings(b))


def read_tables(prompt: str) -> tuple[list[str], list[list[str]], list[str], list[list[str]]]:
    left = re.search(r"Table A:\n(.*?)\n\nTable B:", prompt, re.S).group(1)
    right = re.search(r"Table B:\n(.*?)\n\nWhich columns", prompt, re.S).group(1)
    a = list(csv.reader(io.StringIO(left)))
    b = list(csv.reader(io.StringIO(right)))
    return a[0], a[1:], b[0], b[1:]


def solve(prompt: str) -> dict[str, str]:
    """Align B's rows with A's through a column that is unique and matches, then pair columns."""
    a_names, a_rows, b_names, b_rows = read_tables(prompt)
    a_cols = list(zip(*a_rows))
    b_cols = list(zip(*b_rows))
    alignment = None
    for i in range(len(a_names)):
        for j in range(len(b_names)):
            if len(set(a_cols[i])) < len(a_rows) or len(set(b_cols[j])) < len(b_rows):
                continue
            rows = []
            for value in b_cols[j]:
                hits = [r for r, other in enumerate(a_cols[i]) if same(other, value)]
                if len(hits) != 1:
                    break
                rows.append(hits[0])
            else:
                if alignment is None or len(set(rows)) == len(rows):
                    alignment = rows
                    break
        if alignment:
            break
    assert alignment is not None, "no column lines the rows up"
    mapping = {}
    for i, name in enumerate(a_names):
        matches = [
            b_names[j]
            for j in range(len(b_names))
            if all(same(a_cols[i][r], b_cols[j][k]) for k, r in enumerate(alignment))
        ]
        assert len(matches) <= 1, (name, matches)
        if matches:
            mapping[name] = matches[0]
    return mapping


def test_mapping_rederived_from_prompt() -> None:
    for q, rec in zip(QUESTIONS, RECORDS):
        assert solve(q.prompt) == rec["mapping"], (q.subtask, q.prompt)
        assert json.loads(q.ground_truth) == rec["mapping"]


def test_shape_of_questions() -> None:
    subtasks = set()
    for q, rec in zip(QUESTIONS, RECORDS):
        a_names, a_rows, b_names, b_rows = read_tables(q.prompt)
        assert a_names == rec["left_columns"] and b_names == rec["right_columns"]
        assert 7 <= len(a_rows) <= 12 and 4 <= len(a_names) <= 6
        assert len(b_rows) <= len(a_rows)
        assert len(rec["mapping"]) >= 2
        assert len(a_names) - len(rec["mapping"]) >= 1  # a column of A without a counterpart
        assert len(b_names) - len(rec["mapping"]) >= 1  # and one of B
        assert not {n.casefold() for n in a_names} & {n.casefold() for n in b_names}
        if q.subtask == "opaque":
            assert all(re.fullmatch(r"col_[0-9a-f]{4}", n) for n in b_names)
        subtasks.add(q.subtask)
    assert subtasks == set(SUBTASKS)


# ------------------------------------------------------------ formats and partial credit


def test_reasonable_formats_score_one() -> None:
    rec = RECORDS[0]
    m = rec["mapping"]
    lines = "\n".join(f"{a} -> {b}" for a, b in m.items())
    colons = "\n".join(f"- `{a}`: `{b}`" for a, b in m.items())
    for reply in (
        f"<solution>{json.dumps(m, indent=2)}</solution>",
        f"<solution>{m!r}</solution>",  # a Python dict
        f"<solution>```json\n{json.dumps(m)}\n```</solution>",
        f"The mapping:\n```python\n{json.dumps(m, indent=4)}\n```",
        f"Answer: {json.dumps(m)}",
        f"<solution>{json.dumps({k.upper(): v.lower() for k, v in m.items()})}</solution>",
        f"<solution>{json.dumps({b: a for a, b in m.items()})}</solution>",  # turned round
        f"<solution>{json.dumps({**m, 'not_there': None})}</solution>",
        f"<solution>\n{lines}\n</solution>",
        f"<solution>\n{colons}\n</solution>",
        f"<think>maybe {{}}</think><solution>{json.dumps(m)}</solution>",
    ):
        assert TASK.score(rec, reply).score == 1.0, reply


def f1(hits: int, predicted: int, truth: int) -> float:
    p, r = hits / predicted, hits / truth
    return 2 * p * r / (p + r)


def test_partial_credit_is_f1() -> None:
    for rec in RECORDS[:16]:
        m = rec["mapping"]
        items = list(m.items())
        n = len(items)
        one_missing = dict(items[:-1])
        assert TASK.score(
            rec, f"<solution>{json.dumps(one_missing)}</solution>"
        ).score == pytest.approx(f1(n - 1, n - 1, n))
        spare_a = next(c for c in rec["left_columns"] if c not in m)
        spare_b = next(c for c in rec["right_columns"] if c not in m.values())
        extra = {**m, spare_a: spare_b}
        assert TASK.score(rec, f"<solution>{json.dumps(extra)}</solution>").score == pytest.approx(
            f1(n, n + 1, n)
        )
        swapped = dict(m)
        (a1, b1), (a2, b2) = items[0], items[1]
        swapped[a1], swapped[a2] = b2, b1
        assert TASK.score(
            rec, f"<solution>{json.dumps(swapped)}</solution>"
        ).score == pytest.approx(f1(n - 2, n, n) if n > 2 else 0.0)
        by_name = {a: rec["right_columns"][0] for a in rec["left_columns"]}
        assert TASK.score(rec, f"<solution>{json.dumps(by_name)}</solution>").score < 0.5
        for bad in ("{}", "no idea", "", "[1, 2]", '{"x": "y"}'):
            assert TASK.score(rec, f"<solution>{bad}</solution>").score == 0.0


# ------------------------------------------------------------ sources

SOURCE_CSV = """\
student,score,grade,passed,code,joined
Ann,91,A,yes,X-12,2024-09-01
Bob,78,C,yes,X-13,2024-09-03
Cid,55,F,no,X-14,2024-10-11
Dee,88,B,yes,X-15,2025-01-07
Eve,67,D,no,X-16,2025-02-17
"""


def test_sources_are_drawn_from() -> None:
    sources = Sources(tables={"s.csv": SOURCE_CSV})
    for i in range(24):
        q = make(i, sources=sources)
        rec = record(q)
        assert rec["table_name"] == "s.csv"
        assert TASK.score(rec, TASK.reference(rec)).score == 1.0
        assert solve(q.prompt) == rec["mapping"], q.prompt


def test_bad_sources_raise_user_error() -> None:
    with pytest.raises(UserError, match=r"bad\.csv: .*at least 2 columns"):
        make(0, sources=Sources(tables={"bad.csv": "a\n1\n2\n3\n"}))


# ------------------------------------------------------------ determinism and robustness


def test_registered() -> None:
    assert get_task("table_join").category == "data_analysis"


def test_bad_config() -> None:
    with pytest.raises(ValueError, match="row range"):
        JoinConfig(min_rows=9, max_rows=8)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.sampled_from(RECORDS[0]["left_columns"] + ["x", ""]), st.text(max_size=12))
)
def test_score_never_raises_on_mappings(m: dict) -> None:
    checks.assert_scores_in_range(TASK, RECORDS[:1], [f"<solution>{json.dumps(m)}</solution>"])


def test_pathological_answers_score_zero() -> None:
    rec = RECORDS[0]
    for reply in ("[" * 50_000, "<solution>" + "{" * 50_000 + "</solution>", "{" + "}" * 9):
        assert TASK.score(rec, reply).score == 0.0


def test_sources_without_two_different_columns() -> None:
    same = "a,b\n1,1\n2,2\n3,3\n"
    with pytest.raises(UserError, match=r"no table has two columns that differ \(same\.csv\)"):
        make(0, sources=Sources(tables={"same.csv": same}))


# ------------------------------------------------------------ difficulty: twins, more columns, keys

HARD = (1, 2, 3, 4, 5, 6, 7, 8, 12, 20)
SEEDS = range(6)


@pytest.mark.parametrize("d", HARD)
def test_hard_mapping_rederived_from_prompt(d: int) -> None:
    """The independent solver finds the one mapping (it asserts no A column matches two of B's
    columns), through near-twin decoys and rewritten keys."""
    for i in SEEDS:
        q = make(i, difficulty=d)
        rec = record(q)
        assert solve(q.prompt) == rec["mapping"], (d, i, q.prompt)
        assert TASK.score(rec, TASK.reference(rec)).score == 1.0


def near_twins(prompt: str) -> int:
    """Pairs of A's columns that agree on some rows but not most: decoys that need checking."""
    names, rows, _, _ = read_tables(prompt)
    cols = list(zip(*rows))
    count = 0
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            agree = sum(a == b and a != "" for a, b in zip(cols[i], cols[j]))
            count += 0 < agree < len(rows)
    return count


def test_difficulty_grows() -> None:
    def mean(d: int, measure) -> float:
        return sum(measure(make(i, difficulty=d)) for i in SEEDS) / len(SEEDS)

    efforts = [mean(d, lambda q: record(q)["effort"]) for d in (1, 4, 8, 12, 20)]
    assert efforts == sorted(efforts) and efforts[-1] > 10 * efforts[0]
    assert mean(8, lambda q: near_twins(q.prompt)) > mean(0, lambda q: near_twins(q.prompt))
    assert {make(i, difficulty=6).subtask for i in SEEDS} == {"opaque"}
    assert difficulty(0) == JoinConfig() and difficulty(30).twins > difficulty(12).twins


def test_hard_prompts_name_the_new_rewrites() -> None:
    assert 'replaced by a "#"' in make(0, difficulty=2).prompt
    assert "replaced by a" not in make(0, difficulty=1).prompt


def test_hard_questions_generate() -> None:
    """How fast is bench/README section 8's; a hang is caught by pytest's timeout."""
    for d in (12, 20):
        assert make(5, difficulty=d).prompt


def test_source_tables_are_material_served_once() -> None:
    other = SOURCE_CSV.replace("Ann", "Ada")
    sources = Sources(tables={"s.csv": SOURCE_CSV, "t.csv": other}, dates={"t.csv": "2026-11-02"})
    for d in (0, 4):
        q = make(1, sources=sources, difficulty=d)
        assert q.material == (other,) and record(q)["table_name"] == "t.csv"
        assert solve(q.prompt) == record(q)["mapping"]
    assert make(1, sources=sources.using([other])).material == (SOURCE_CSV,)
    with pytest.raises(UserError, match=r"already served.*live fetch"):
        make(1, sources=sources.using([other, SOURCE_CSV]))


# The digest of questions 0..15 at d = 0 (references included) as v1 (commit 607738d) made them:
# difficulty 0 stays byte for byte the v1 question.
V1_DIGEST = "2de612daab8aca1b1a8be55aeb51cb545c19202a97e7cfad82f6800bd9d09a19"


def test_difficulty_zero_is_v1_byte_for_byte() -> None:
    questions = [make_question(TASK, i, difficulty=0) for i in range(checks.DIGEST_COUNT)]
    assert checks.question_digest(TASK, questions, with_reference=True) == V1_DIGEST
