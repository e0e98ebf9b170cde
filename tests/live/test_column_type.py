"""column_type: the column re-derived from the sample by recognisers written here; exact match."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable

import pytest
import task_checks as checks
from faker.providers.address.en_US import Provider as AddressProvider
from faker.providers.job.en_US import Provider as JobProvider
from faker.providers.person.en_US import Provider as PersonProvider
from task_checks import INDICES, RELEASE, make_question, record

from ladderbench.errors import UserError
from ladderbench.live.base import Question, Sources
from ladderbench.live.registry import get_task
from ladderbench.live.tasks import _tables as vocab
from ladderbench.live.tasks.column_type import SUBTASKS, ColumnType, ColumnTypeConfig

TASK = ColumnType()


def make(index: int, release: str = RELEASE, sources: Sources | None = None) -> Question:
    return make_question(TASK, index, release, sources)


QUESTIONS = [make(i) for i in INDICES]
RECORDS = [record(q) for q in QUESTIONS]


# ------------------------------------------------------------ recognisers, one per column

FIRST = set(PersonProvider.first_names)
JOBS = set(JobProvider.jobs)
COUNTRIES = set(AddressProvider.countries)
CITY_PREFIXES = tuple(p + " " for p in AddressProvider.city_prefixes)
CITY_SUFFIXES = tuple(AddressProvider.city_suffixes)


def text(pattern: str) -> Callable[[object], bool]:
    return lambda v: isinstance(v, str) and re.fullmatch(pattern, v) is not None


def one_of(values) -> Callable[[object], bool]:
    allowed = set(values)
    return lambda v: v in allowed


def whole(lo: int, hi: int) -> Callable[[object], bool]:
    return lambda v: isinstance(v, int) and lo <= v <= hi


def decimal(lo: float, hi: float) -> Callable[[object], bool]:
    return lambda v: isinstance(v, float) and lo <= v <= hi


def iso_date(v: object) -> bool:
    try:
        return isinstance(v, str) and dt.date.fromisoformat(v).isoformat() == v
    except ValueError:
        return False


def city(v: object) -> bool:
    return isinstance(v, str) and (v.startswith(CITY_PREFIXES) or v.endswith(CITY_SUFFIXES))


def first_last(v: object) -> bool:
    return isinstance(v, str) and len(v.split(" ")) == 2 and v.split(" ")[0] in FIRST


def last_first(v: object) -> bool:
    return isinstance(v, str) and len(v.split(", ")) == 2 and v.split(", ")[1] in FIRST


def company(v: object) -> bool:
    return isinstance(v, str) and bool(
        re.fullmatch(
            r"{n} (Inc|and Sons|LLC|Group|PLC|Ltd)|{n}-{n}|{n}, {n} and {n}".format(
                n=r"[A-Z][\w']+"
            ),
            v,
        )
    )


def title(v: object) -> bool:
    return isinstance(v, str) and bool(
        re.fullmatch(r"The \w+ \w+|\w+, \w+ and \w+|Letters to \"\w+ \w+\"|\w+: A \w+ Story", v)
    )


DATES = ("birth_date", "member_since", "order_date", "ship_date", "released", "date")
RECOGNISE: dict[str, Callable[[object], bool]] = {
    **{name: iso_date for name in DATES},
    "person_id": text(r"P-\d{4}"),
    "full_name": first_last,
    "email": text(r"[^@\s]+@[^@\s]+\.[a-z]+"),
    "city": city,
    "job": one_of(JOBS),
    "address": text(r".+, .*[A-Z]{2} \d{5}"),
    "height_cm": whole(150, 200),
    "weight_kg": decimal(0.05, 130),
    "annual_income": whole(18000, 250000),
    "order_id": text(r"ORD-\d{5}"),
    "customer": last_first,
    "author": last_first,
    "product": one_of(vocab.PRODUCTS),
    "product_name": one_of(vocab.PRODUCTS),
    "quantity": whole(1, 24),
    "unit_price": decimal(2, 400),
    "total": decimal(2, 9600),
    "status": one_of(vocab.ORDER_STATUSES + vocab.FLIGHT_STATUSES),
    "country": one_of(COUNTRIES),
    "sku": text(r"SKU-\d{5}"),
    "category": one_of(vocab.PRODUCT_CATEGORIES),
    "brand": company,
    "publisher": company,
    "price": decimal(1, 900),
    "stock": whole(0, 500),
    "rating": decimal(1, 5),
    "discontinued": one_of(("yes", "no")),
    "flight_no": text(r"[A-Z]{2}\d{3,4}"),
    "airline": one_of(name for _, name in vocab.AIRLINES),
    "origin": text(r"[A-Z]{3}"),
    "destination": text(r"[A-Z]{3}"),
    "aircraft": one_of(vocab.AIRCRAFT),
    "departure": text(r"\d{4}-\d\d-\d\d \d\d:\d\d"),
    "duration_min": whole(45, 960),
    "distance_km": whole(1000, 15000),
    "fare": decimal(39, 2500),
    "gate": text(r"[A-F]\d{1,2}"),
    "reading_id": text(r"W-\d{6}"),
    "station": lambda v: isinstance(v, str) and bool(re.fullmatch(r".+, [A-Z]{2}", v)),
    "temp_max_c": decimal(-5, 38),
    "temp_min_c": decimal(-17, 36),
    "humidity_pct": whole(15, 100),
    "precip_mm": decimal(0, 60),
    "wind_kph": decimal(0, 90),
    "conditions": one_of(vocab.CONDITIONS),
    "isbn": text(r"978-[\d-]{13}"),
    "title": title,
    "year": whole(1950, 2025),
    "pages": whole(90, 1200),
    "genre": one_of(vocab.GENRES),
}


def read_prompt(prompt: str) -> tuple[list, list[str]]:
    values = json.loads(re.search(r"numbers without\):\n\n(.*?)\n\n", prompt, re.S).group(1))
    candidates = re.findall(r"^- (.+)$", prompt, re.M)
    return values, candidates


def test_column_rederived_from_prompt() -> None:
    for q, rec in zip(QUESTIONS, RECORDS):
        values, candidates = read_prompt(q.prompt)
        assert values == rec["values"] and candidates == rec["candidates"]
        assert 5 <= len(values) <= 10 and q.ground_truth in candidates
        fits = [c for c in candidates if all(RECOGNISE[c](v) for v in values)]
        assert fits == [q.ground_truth], (fits, values)


def test_questions_vary() -> None:
    assert {q.subtask for q in QUESTIONS} == set(SUBTASKS) - {"dictionary"}
    assert len({q.ground_truth for q in QUESTIONS}) >= 25
    assert min(len(r["candidates"]) for r in RECORDS) >= 4


# ------------------------------------------------------------ formats and near misses


def test_reasonable_formats_score_one() -> None:
    rec = next(r for r in RECORDS if "_" in r["ground_truth"])
    gold = rec["ground_truth"]
    for reply in (
        f"<solution>{gold}</solution>",
        f"<solution> `{gold}` </solution>",
        f"<solution>**{gold.upper()}**</solution>",
        f"<solution>{gold.replace('_', ' ')}</solution>",
        f'<solution>"{gold}"</solution>',
        f"<solution>The values come from the {gold} column.</solution>",
        f"Looking at the values... Answer: {gold}",
        f"<think>not {rec['candidates'][0]}?</think>\n\\boxed{{{gold}}}",
        f"{gold}",
    ):
        assert TASK.score(rec, reply).score == 1.0, reply


def test_wrong_answers_score_zero() -> None:
    for rec in RECORDS:
        gold = rec["ground_truth"]
        other = next(c for c in rec["candidates"] if c != gold)
        for reply in (
            f"<solution>{other}</solution>",
            f"<solution>{gold}</solution> Hmm, no: <solution>{other}</solution>",
            f"<solution>either {gold} or {other}</solution>",
            f"<solution>{gold}x</solution>",
            "<solution></solution>",
            "I am not sure.",
        ):
            assert TASK.score(rec, reply).score == 0.0, reply


def test_longest_mention_wins() -> None:
    rec = {"ground_truth": "order_date", "candidates": ["order_date", "date", "total"]}
    assert TASK.score(rec, "<solution>it is order date</solution>").score == 1.0
    assert TASK.score(rec, "<solution>date</solution>").score == 0.0


# ------------------------------------------------------------ sources

SOURCE_CSV = """\
city,country,population,area_km2,founded,mayor,code
Paris,France,2102650,105.4,0250-01-01,"Hidalgo, Anne",FR-75
Berlin,Germany,3850809,891.7,1237-01-01,"Wegner, Kai",DE-11
Madrid,Spain,3332035,604.3,0865-01-01,"Almeida, José Luis",ES-28
Rome,Italy,2748109,1285.0,0753-04-21,"Gualtieri, Roberto",IT-58
Vienna,Austria,1982097,414.8,1155-01-01,"Ludwig, Michael",AT-9
Lisbon,Portugal,545796,100.1,1179-01-01,"Moedas, Carlos",PT-11
"""


def test_sources_are_drawn_from() -> None:
    sources = Sources(tables={"cities.csv": SOURCE_CSV})
    seen = set()
    for i in range(24):
        q = make(i, sources=sources)
        rec = record(q)
        assert rec["table_name"] == "cities.csv"
        assert TASK.score(rec, TASK.reference(rec)).score == 1.0
        # city and country share a shape ("Aa"): one is never offered for the other.
        if q.ground_truth in ("city", "country"):
            assert not {"city", "country"} <= set(rec["candidates"])
        seen.add(q.ground_truth)
    assert {"city", "population", "code"} <= seen


def test_sources_without_a_usable_column() -> None:
    same = "a,b\nx,y\nz,w\nq,r\n"  # two text columns of one shape, too few values
    with pytest.raises(UserError, match="no table has a column"):
        make(0, sources=Sources(tables={"same.csv": same}))
    with pytest.raises(UserError, match=r"bad\.csv: .*at least 3 rows"):
        make(0, sources=Sources(tables={"bad.csv": "a,b\n1,2\n"}))


# ------------------------------------------------------------ determinism and robustness


def test_registered() -> None:
    assert get_task("column_type").category == "data_analysis"


def test_bad_config() -> None:
    with pytest.raises(ValueError, match="min_values"):
        ColumnTypeConfig(min_values=12, max_values=10)


# ------------------------------------------------------------ difficulty: a data dictionary

HARD = (1, 2, 3, 4, 5, 6, 7, 8, 12, 20)
SEEDS = range(5)


def make_hard(index: int, d: int) -> Question:
    return make_question(TASK, index, difficulty=d)


def rule_check(phrase: str) -> Callable[[str], bool]:
    """One dictionary rule, read from its wording, as a test on a code's digits."""
    if m := re.fullmatch(r"the first digit is ([\d, or]+)", phrase):
        allowed = set(re.findall(r"\d", m.group(1)))
        return lambda code: code[0] in allowed
    if m := re.fullmatch(r"the last digit is (odd|even)", phrase):
        want = m.group(1) == "odd"
        return lambda code: (int(code[-1]) % 2 == 1) == want
    if m := re.fullmatch(r"the digits add up to a multiple of (\d+)", phrase):
        k = int(m.group(1))
        return lambda code: sum(map(int, code)) % k == 0
    if m := re.fullmatch(
        r"the digits add up to a number that leaves remainder (\d+) when divided by (\d+)", phrase
    ):
        r, k = int(m.group(1)), int(m.group(2))
        return lambda code: sum(map(int, code)) % k == r
    if m := re.fullmatch(
        r"the last digit is a check digit: multiply the 1st, 3rd, 5th\.\.\. "
        r"digits by (\d), add the 2nd, 4th, 6th\.\.\. digits \(all but the last "
        r"digit\), and take the last digit of the total",
        phrase,
    ):
        w = int(m.group(1))

        def check(code: str) -> bool:
            body = code[:-1]
            total = w * sum(int(c) for c in body[0::2]) + sum(int(c) for c in body[1::2])
            return str(total)[-1] == code[-1]

        return check
    if phrase == "no two neighbouring digits are equal":
        return lambda code: re.search(r"(\d)\1", code) is None
    if m := re.fullmatch(r"the digit (\d) appears at least once", phrase):
        return lambda code, d=m.group(1): d in code
    if m := re.fullmatch(r"the digit (\d) never appears", phrase):
        return lambda code, d=m.group(1): d not in code
    m = re.fullmatch(
        r"digits (\d+) and (\d+), read as a two-digit number, make at most (\d+)", phrase
    )
    assert m, phrase
    i, j, top = int(m.group(1)), int(m.group(2)), int(m.group(3))
    assert j == i + 1
    return lambda code: int(code[i - 1 : j]) <= top


def read_dictionary(prompt: str) -> tuple[int, dict[str, list[Callable[[str], bool]]], list[str]]:
    length = int(re.search(r"holds (\d+)-digit codes", prompt).group(1))
    entries = {}
    for name, rules in re.findall(r"^- (\w+): (.+)\.$", prompt, re.M):
        entries[name] = [rule_check(p) for p in rules.split("; ")]
    values = json.loads(re.search(r"^\[.*\]$", prompt, re.M).group(0))
    return length, entries, values


@pytest.mark.parametrize("d", HARD)
def test_dictionary_answer_rederived_and_unique(d: int) -> None:
    for i in SEEDS:
        q = make_hard(i, d)
        rec = record(q)
        length, entries, values = read_dictionary(q.prompt)
        assert list(entries) == rec["candidates"] and values == rec["values"]
        assert all(len(v) == length and v.isdigit() for v in values)
        fits = [name for name, rules in entries.items() if all(r(v) for r in rules for v in values)]
        assert fits == [q.ground_truth], (d, i)
        assert q.subtask == "dictionary" and q.subtask in SUBTASKS
        assert TASK.score(rec, TASK.reference(rec)).score == 1.0
        wrong = next(n for n in entries if n != q.ground_truth)
        assert TASK.score(rec, f"<solution>{wrong}</solution>").score == 0.0


def test_dictionary_decoys_are_near_misses() -> None:
    """Most decoys are broken by only one or two of the shown values: no skimming."""
    few = total = 0
    for i in SEEDS:
        q = make_hard(i, 8)
        _, entries, values = read_dictionary(q.prompt)
        for name, rules in entries.items():
            if name == q.ground_truth:
                continue
            broken = sum(not all(r(v) for r in rules) for v in values)
            assert broken >= 1
            few += broken <= 2
            total += 1
    assert few >= total * 0.6, (few, total)


def test_dictionary_grows_with_difficulty() -> None:
    efforts = [record(make_hard(0, d))["effort"] for d in (1, 2, 4, 8, 12, 20)]
    assert efforts == sorted(efforts) and efforts[-1] > 40 * efforts[0]
    sizes = [len(record(make_hard(0, d))["candidates"]) for d in (1, 4, 8, 12)]
    assert sizes == [4, 7, 11, 15]


def test_dictionary_generates_at_high_difficulty() -> None:
    """How fast is bench/README section 8's; a hang is caught by pytest's timeout."""
    for d in (12, 20):
        assert make_hard(3, d).prompt


def test_d0_questions_name_no_material_and_sources_do() -> None:
    assert QUESTIONS[0].material == ()
    old = SOURCE_CSV.replace("Paris", "Lyon")
    dates = {"cities.csv": "2026-11-01", "a_old.csv": "2020-01-01"}
    sources = Sources(tables={"cities.csv": SOURCE_CSV, "a_old.csv": old}, dates=dates)
    q = make(0, sources=sources)
    assert q.material == (SOURCE_CSV,) and record(q)["table_name"] == "cities.csv"
    q = make(0, sources=sources.using([SOURCE_CSV]))
    assert q.material == (old,) and record(q)["table_name"] == "a_old.csv"
    with pytest.raises(UserError, match=r"already served.*live fetch"):
        make(0, sources=sources.using([SOURCE_CSV, old]))


# The digest of questions 0..15 at d = 0 (references included) as v1 (commit 607738d) made them:
# difficulty 0 stays byte for byte the v1 question.
V1_DIGEST = "886e6412aeafac5ee022bf2e3f184cc414bcb055a033e0955e683fdf36799ea0"


def test_difficulty_zero_is_v1_byte_for_byte() -> None:
    questions = [make_question(TASK, i, difficulty=0) for i in range(checks.DIGEST_COUNT)]
    assert checks.question_digest(TASK, questions, with_reference=True) == V1_DIGEST
