"""Table join mapping: say which columns of two tables hold the same information.

Each question starts from one table (a generated one of 7-12 rows, or a sample of a
``--sources`` CSV file) and cuts two tables from it. A keeps all the rows and 4-6 columns; B
keeps a shuffled subset of the rows (60-100%), some of A's columns (at least two, and, for a
generated table, always its ID) and 1-3 columns that A lacks. In B every column is renamed and
most are rewritten: another date format, an ID without its prefix ("C-0042" -> 42),
"Last, First" for "First Last", a currency sign, other letter case. In subtask ``renamed`` B's
names are plausible synonyms (CustID for customer_id); in subtask ``opaque`` they are
meaningless codes, so the columns can only be matched by their values.

Why it is hard: a name that sounds right can be a decoy (B may hold ship dates where A holds
order dates), so each pair has to be confirmed by lining up rows through the ID and comparing
values across formats; and columns without a counterpart must be left out.

Uniqueness: every column chosen for either table differs from every other chosen column on at
least half of B's rows (and in its set of values), before and after B's rewriting, so only the
intended pairs hold the same values. The ground truth is the mapping by construction.

Scoring: the answer is a JSON object (or a Python dict, or "A -> B" / "A: B" lines) mapping
columns of A to columns of B; names are matched exactly, else ignoring case. Entries mapped to
null or "" are ignored, and an object written the other way round (B's names as keys) is read
the right way round. The score is the F1 of the predicted pairs against the true ones.

Sources: the newest ``--sources`` table no earlier question drew on; its CSV text is the
question's material, so no table is served twice.

Difficulty (0 = the questions above; ``difficulty(d)``). What each step adds: about 2-3 more
rows (8+2d to 10+3d), up to one more column in A (4+d/2 to 5+d) and more columns only B has
(1+d/3 to 2+d/2); a near-twin decoy every two steps (1 + d/2): a copy of a column (the ID
first, so there are several candidate join keys) that keeps its look but differs on 60-75% of
the rows, so a pair can only be confirmed by lining up rows and checking most of them; a rising
share of meaningless B names (all of them from d = 5); and from d = 2 harder key
transformations, named in the prompt: spaces around values, "Last First" without the comma,
an ID's prefix moved behind its number ("42/ORD") or replaced by "#". Uniqueness holds as at
d = 0: every chosen column differs from every other on at least half of B's rows (twins
included), before and after rewriting. ``fields["effort"]`` counts the cells a reader compares:
A's columns x B's columns x B's rows.
"""

from __future__ import annotations

import ast
import datetime as dt
import json
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ladderbench.errors import UserError
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
    fresh_source_tables,
    generate_table,
    sample_indices,
)


@dataclass(frozen=True)
class JoinConfig:
    """Sizes, drawn uniformly from the inclusive ranges."""

    min_rows: int = 7
    max_rows: int = 12
    min_left_cols: int = 4
    max_left_cols: int = 6
    min_shared: int = 2
    min_right_only: int = 1
    max_right_only: int = 3
    min_kept_fraction: float = 0.6  # the share of A's rows that B keeps
    opaque_share: float = 0.3  # the share of questions whose B has meaningless column names
    max_source_columns: int = 10
    twins: int = 0  # near copies of columns added to the table before cutting (decoys)
    hard_rewrites: bool = False  # also pad, reorder and re-prefix B's keys and names

    def __post_init__(self) -> None:
        if not 3 <= self.min_rows <= self.max_rows:
            raise ValueError(f"bad row range {self.min_rows}..{self.max_rows}")
        if not 2 <= self.min_left_cols <= self.max_left_cols:
            raise ValueError(f"bad column range {self.min_left_cols}..{self.max_left_cols}")
        if not 1 <= self.min_shared <= self.min_left_cols:
            raise ValueError(f"min_shared must be in 1..{self.min_left_cols}")
        if not 0 <= self.min_right_only <= self.max_right_only:
            raise ValueError(f"bad range {self.min_right_only}..{self.max_right_only}")
        if not 0 < self.min_kept_fraction <= 1 or not 0 <= self.opaque_share <= 1:
            raise ValueError("min_kept_fraction must be in (0, 1], opaque_share in [0, 1]")


CONFIG = JoinConfig()
SUBTASKS = ("renamed", "opaque")


def difficulty(d: int) -> JoinConfig:
    """The config of difficulty ``d`` (0 = v1; see the module docstring for each step)."""
    if d < 0:
        raise ValueError(f"difficulty must be >= 0, got {d}")
    if d == 0:
        return CONFIG
    return JoinConfig(
        min_rows=8 + 2 * d,
        max_rows=10 + 3 * d,
        min_left_cols=4 + d // 2,
        max_left_cols=5 + d,
        min_right_only=1 + d // 3,
        max_right_only=2 + d // 2,
        opaque_share=min(1.0, 0.3 + 0.15 * d),
        max_source_columns=10 + d,
        twins=1 + d // 2,
        hard_rewrites=d >= 2,
    )


_config_at = difficulty  # ``generate``'s argument shadows the name

PROMPT_TEMPLATE = """\
Below are two tables, A and B, as CSV. B describes some of the same records as A (not \
necessarily all of them, and in another order). Some columns of B hold the same information as \
a column of A, under another name and often written differently: another date format, an ID with \
or without its prefix or leading zeros, "Last, First" instead of "First Last", other letter case, \
a currency sign. The other columns of either table have no counterpart in the other.

Table A:
{left}

Table B:
{right}

Which columns correspond? Answer with a JSON object that maps the name of each column of A that \
has a counterpart in B to the name of that column of B, like {{"name in A": "name in B"}}. Each \
column has at most one counterpart; leave out the columns of A that have none.
Put your final answer inside <solution></solution> tags."""

# Difficulty >= 2 also rewrites keys and names more ways: said where the prompt lists them.
HARD_REWRITES = (
    "a currency sign.",
    "a currency sign, extra spaces around a value, name parts in another order with or without a "
    'comma, an ID\'s prefix moved after its number or replaced by a "#".',
)


# ---------------------------------------------------------------- rewriting B's values

# Written by hand, not with strftime, whose month names and AM/PM follow the process locale.
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
DATE_STYLES = ("m/d/Y", "d.m.Y", "Mon d, Y", "d Month Y", "Ymd")
DATETIME_STYLES = ("m/d/Y h:M p", "d.m.Y H:M", "Y-m-dTH:M:S")


def write_date(day: dt.date, style: str) -> str:
    y, m, d = f"{day.year:04d}", f"{day.month:02d}", f"{day.day:02d}"
    month = MONTHS[day.month - 1]
    return {
        "m/d/Y": f"{m}/{d}/{y}",
        "d.m.Y": f"{d}.{m}.{y}",
        "Mon d, Y": f"{month[:3]} {d}, {y}",
        "d Month Y": f"{d} {month} {y}",
        "Ymd": f"{y}{m}{d}",
    }[style]


def write_datetime(moment: dt.datetime, style: str) -> str:
    hour12 = f"{(moment.hour - 1) % 12 + 1:02d}"
    minute = f"{moment.minute:02d}"
    if style == "m/d/Y h:M p":
        noon = "PM" if moment.hour >= 12 else "AM"
        return f"{write_date(moment.date(), 'm/d/Y')} {hour12}:{minute} {noon}"
    if style == "d.m.Y H:M":
        return f"{write_date(moment.date(), 'd.m.Y')} {moment.hour:02d}:{minute}"
    return f"{moment.date().isoformat()}T{moment.hour:02d}:{minute}:00"


_ID = re.compile(r"([A-Za-z]*)\W*(\d+)")


def _restyle_text(values: Sequence[Cell], rng: random.Random) -> list[Cell]:
    style = rng.choice(("upper", "lower", "same"))
    if style == "same":
        return list(values)
    return [getattr(v, style)() if isinstance(v, str) else v for v in values]


def rewrite(col: Column, rng: random.Random, hard: bool = False) -> list[Cell]:
    """B's version of a column: the same information, usually written another way (``hard``:
    also the ways of :func:`rewrite_hard`, for the keys, names and text)."""
    if hard and col.fmt in HARD_FORMATS and rng.random() < 0.6:
        return rewrite_hard(col, rng)
    values = list(col.values)
    fmt = col.fmt

    def each(fn: Any) -> list[Cell]:
        return [None if v is None else fn(v) for v in values]

    if fmt == "id":
        style = rng.randrange(3)

        def id_value(v: Cell) -> Cell:
            m = _ID.search(str(v))
            if not m:
                return v
            prefix, num = m.group(1), int(m.group(2))
            return (num, f"{prefix}{num}", f"{prefix.lower()}_{num:07d}")[style]

        return each(id_value)
    if fmt == "date":
        date_style = rng.choice(DATE_STYLES)
        return each(lambda v: write_date(dt.date.fromisoformat(str(v)), date_style))
    if fmt == "datetime":
        datetime_style = rng.choice(DATETIME_STYLES)
        return each(
            lambda v: write_datetime(dt.datetime.strptime(str(v), "%Y-%m-%d %H:%M"), datetime_style)
        )
    if fmt == "person":  # First Last -> Last, First
        upper = rng.random() < 0.4

        def person(v: Cell) -> Cell:
            first, _, last = str(v).partition(" ")
            return f"{last.upper() if upper else last}, {first}"

        return each(person)
    if fmt == "person_lf":  # Last, First -> First Last
        upper = rng.random() < 0.4

        def person_lf(v: Cell) -> Cell:
            last, _, first = str(v).partition(", ")
            text = f"{first} {last}"
            return text.upper() if upper else text

        return each(person_lf)
    if fmt == "money":
        pattern = rng.choice(("${:,.2f}", "{:.2f} USD", "USD {:,.2f}"))
        return each(lambda v: pattern.format(float(v)))
    if fmt == "float":  # two fixed decimals, where that loses nothing
        numbers = [float(v) for v in col.present]  # type: ignore[arg-type]
        if any(round(x, 2) != x for x in numbers) or rng.random() >= 0.5:
            return values
        return each(lambda v: f"{float(v):.2f}")
    if fmt == "int":
        big = any(abs(v) >= 1000 for v in col.present)  # type: ignore[arg-type]
        return each(lambda v: f"{v:,}") if big and rng.random() < 0.6 else values
    if fmt == "yesno":
        pair = rng.choice((("True", "False"), ("Y", "N"), ("1", "0")))
        return each(lambda v: pair[0] if v == "yes" else pair[1])
    if fmt == "flight":
        if rng.random() < 0.5:
            return each(lambda v: re.sub(r"^([A-Z]+)(\d+)$", r"\1 \2", str(v)))
        return each(lambda v: str(v).lower())
    if fmt == "isbn":
        return each(lambda v: str(v).replace("-", ""))
    return _restyle_text(values, rng)


HARD_FORMATS = ("id", "person", "person_lf", "text", "category")


def rewrite_hard(col: Column, rng: random.Random) -> list[Cell]:
    """Key transformations a second system makes: an ID's prefix moved behind its number or
    replaced by "#", name parts reordered without the comma, spaces around values."""

    def each(fn: Any) -> list[Cell]:
        return [None if v is None else fn(v) for v in col.values]

    if col.fmt == "id":
        style = rng.randrange(3)

        def id_value(v: Cell) -> Cell:
            m = _ID.search(str(v))
            if not m:
                return v
            prefix, digits = m.group(1), m.group(2)
            return (f"{int(digits)}/{prefix}", f"#{digits}", f"  {prefix.lower()} {digits} ")[style]

        return each(id_value)
    if col.fmt in ("person", "person_lf"):
        upper = rng.random() < 0.5

        def person(v: Cell) -> Cell:
            text = str(v)
            if col.fmt == "person":
                first, _, last = text.partition(" ")
            else:
                last, _, first = text.partition(", ")
            out = f"{last} {first}"
            return out.upper() if upper else out

        return each(person)
    pad = rng.choice(("  {} ", " {}", "{}   "))
    case = rng.choice(("upper", "lower", "title"))
    return each(lambda v: pad.format(getattr(str(v), case)()) if isinstance(v, str) else v)


# ---------------------------------------------------------------- decoy twins

TWIN_PREFIXES = ("alt", "prev", "orig", "billing", "backup", "old", "est", "second", "ref", "last")
TWIN_FORMATS = ("id", "date", "money", "float", "int", "person", "person_lf", "text", "category")


def _decimals(v: float) -> int:
    text = repr(v)
    return len(text.partition(".")[2]) if "." in text and "e" not in text else 2


def _changed(col: Column, i: int, rng: random.Random, taken: set[str]) -> Cell:
    """Another value for row ``i`` of ``col``, of the same kind and look."""
    v = col.values[i]
    if v is None:
        return None
    if col.fmt == "id":
        m = _ID.search(str(v))
        if m:
            width = len(m.group(2))
            for _ in range(100):
                digits = f"{rng.randrange(1, 10**width):0{width}d}"
                new = str(v)[: m.start(2)] + digits + str(v)[m.end(2) :]
                if new not in taken:
                    return new
        return v
    if col.fmt == "date":
        day = dt.date.fromisoformat(str(v)) + dt.timedelta(
            days=rng.choice((-1, 1)) * rng.randint(1, 60)
        )
        return day.isoformat()
    if isinstance(v, (int, float)):
        for _ in range(20):
            if isinstance(v, float):
                places = _decimals(v)
                number: float = round(v * rng.uniform(0.7, 1.3) + 10**-places, places)
            else:
                number = v + rng.choice((-1, 1)) * rng.randint(1, max(2, abs(v) // 5))
            inside = col.lo is None or col.hi is None or col.lo <= number <= col.hi
            if number != v and inside:
                return number
        return v
    others = [str(w) for w in col.values if w is not None and w != v]
    if col.fmt == "person" and others:  # First Last: another row's last name
        return f"{str(v).partition(' ')[0]} {rng.choice(others).partition(' ')[2]}"
    if col.fmt == "person_lf" and others:  # Last, First: another row's last name
        return f"{rng.choice(others).partition(', ')[0]}, {str(v).partition(', ')[2]}"
    return rng.choice(others) if others else v


def twin(col: Column, name: str, rng: random.Random) -> Column:
    """A near copy of ``col``: the same look, equal on a quarter to two fifths of the rows."""
    n = len(col.values)
    changed = set(rng.sample(range(n), max(1, round(n * rng.uniform(0.6, 0.75)))))
    taken = {str(v) for v in col.values}
    values: list[Cell] = []
    for i in range(n):
        value = _changed(col, i, rng, taken) if i in changed else col.values[i]
        taken.add(str(value))
        values.append(value)
    return Column(name, tuple(values), col.fmt, "", col.role, col.lo, col.hi)


def add_twins(base: Table, key: int | None, count: int, rng: random.Random) -> Table:
    """``base`` with ``count`` decoy twins of its columns (the key's twin first), placed at
    random after the key."""
    able = [j for j, c in enumerate(base.columns) if c.fmt in TWIN_FORMATS and c.present]
    if not able or count == 0:
        return base
    columns = list(base.columns)
    names = {c.name.casefold() for c in columns}
    prefixes = list(TWIN_PREFIXES)
    rng.shuffle(prefixes)
    for t in range(count):
        j = key if t == 0 and key is not None and key in able else rng.choice(able)
        name = next(
            (
                f"{p}_{base.columns[j].name}"
                for p in prefixes
                if f"{p}_{base.columns[j].name}".casefold() not in names
            ),
            f"{base.columns[j].name}_{t + 2}",
        )
        names.add(name.casefold())
        columns.insert(rng.randint(1, len(columns)), twin(base.columns[j], name, rng))
    return Table(base.name, tuple(columns))


# ---------------------------------------------------------------- renaming B's columns

_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def _key(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.casefold())


def _abbreviate(word: str) -> str:
    if len(word) <= 4:
        return word
    return word[0] + re.sub(r"[aeiou]", "", word[1:])[:3]


def restyle_name(name: str, rng: random.Random) -> list[str]:
    """Other spellings of a column name, in random order (for source columns)."""
    words = [w.lower() for w in _WORDS.findall(name)] or [re.sub(r"\W", "", name) or "col"]
    camel = words[0] + "".join(w.capitalize() for w in words[1:])
    options = [
        "".join(_abbreviate(w).capitalize() for w in words),
        "_".join(w.upper() for w in words) + "_VAL",
        "b_" + camel,
        camel + "Field",
        ".".join(_abbreviate(w) for w in words),
    ]
    rng.shuffle(options)
    return options


def _opaque_name(rng: random.Random) -> str:
    return f"col_{rng.randrange(16**4):04x}"


def _right_names(
    columns: Sequence[Column], left_names: Sequence[str], opaque: bool, rng: random.Random
) -> list[str]:
    taken = {_key(n) for n in left_names}
    names: list[str] = []
    for col in columns:
        if opaque:
            options = [_opaque_name(rng) for _ in range(8)]
        else:
            synonyms = list(col.synonyms)
            rng.shuffle(synonyms)
            options = synonyms + restyle_name(col.name, rng)
        options.append(f"{_key(col.name) or 'col'}_{len(names) + 1}_b")
        name = next(o for o in options if _key(o) not in taken and _key(o) != _key(col.name))
        taken.add(_key(name))
        names.append(name)
    return names


# ---------------------------------------------------------------- building the pair


def _texts(values: Sequence[Cell], rows: Sequence[int]) -> list[str]:
    return [cell_text(values[i]).casefold() for i in rows]


def _alike(a: Sequence[str], b: Sequence[str]) -> bool:
    """Two columns (as texts on the same rows) that agree on half the rows or as sets."""
    agree = sum(x == y and x != "" for x, y in zip(a, b))
    return 2 * agree >= len(a) or sorted(a) == sorted(b)


@dataclass(frozen=True)
class JoinPair:
    left: Table
    right: Table
    mapping: dict[str, str]
    material: tuple[str, ...] = ()
    effort: int = 0  # cells to compare: A's columns x B's columns x B's rows


def _bases(
    rng: random.Random, sources: Sources, cfg: JoinConfig
) -> Iterator[tuple[Table, int | None, tuple[str, ...]]]:
    """Tables to cut both sides from, in the order to try them, with their ID column's index
    and their material (a source table's CSV text), decoy twins added (``cfg.twins``).

    Without sources, one generated table (its first column is the ID). With sources, a sample of
    each fresh source table in turn, newest first (a source table has no known ID).
    """
    n_rows = rng.randint(cfg.min_rows, cfg.max_rows)
    if not sources.tables:
        yield add_twins(generate_table(rng, n_rows), 0, cfg.twins, rng), 0, ()
        return
    for base in fresh_source_tables(sources, "table_join"):
        rows = sample_indices(rng, base.n_rows, n_rows)
        cols = sample_indices(rng, len(base.columns), cfg.max_source_columns)
        sample = add_twins(base.select(rows, cols), None, cfg.twins, rng)
        yield sample, None, (sources.tables[base.name],)


def _usable(base: Table, key: int | None, right_rows: list[int], rng: random.Random) -> list[int]:
    """Columns (ID first) that differ from each other on B's rows, and are not empty there."""
    order = list(range(len(base.columns)))
    rng.shuffle(order)
    if key is not None:
        order.remove(key)
        order.insert(0, key)
    usable: list[int] = []
    for j in order:
        texts = _texts(base.columns[j].values, right_rows)
        if all(t == "" for t in texts):
            continue
        if any(_alike(texts, _texts(base.columns[k].values, right_rows)) for k in usable):
            continue
        usable.append(j)
    return usable


def build_pair(rng: random.Random, sources: Sources, cfg: JoinConfig, opaque: bool) -> JoinPair:
    for drawn in _bases(rng, sources, cfg):
        base, key, material = drawn
        n = base.n_rows
        kept_rows = max(2, min(n, round(n * rng.uniform(cfg.min_kept_fraction, 1.0))))
        right_rows = rng.sample(range(n), kept_rows)
        usable = _usable(base, key, right_rows, rng)
        if len(usable) >= 2:
            break
    else:
        known = ", ".join(sorted(sources.tables))
        raise UserError(f"--sources: no table has two columns that differ ({known})")

    n_left = min(rng.randint(cfg.min_left_cols, cfg.max_left_cols), max(2, len(usable) - 1))
    n_left = min(n_left, len(usable))
    if cfg.twins:  # leave room for B's own columns
        n_left = min(n_left, max(2, len(usable) - cfg.min_right_only))
    n_right_only = min(rng.randint(cfg.min_right_only, cfg.max_right_only), len(usable) - n_left)
    low = min(cfg.min_shared, n_left)
    n_shared = rng.randint(low, max(low, n_left - 1))
    if key is not None:
        others = [j for j in usable if j != key]
        left = [key, *rng.sample(others, n_left - 1)]
        shared = [key, *rng.sample(left[1:], n_shared - 1)]
    else:
        left = rng.sample(usable, n_left)
        shared = rng.sample(left, n_shared)
    right_only = rng.sample([j for j in usable if j not in left], n_right_only)
    left.sort()
    right = shared + right_only
    rng.shuffle(right)

    # B's values: rewritten, unless the rewriting makes them look like another column of A.
    right_values: list[list[Cell]] = []
    for j in right:
        values = rewrite(base.columns[j], rng, cfg.hard_rewrites)
        texts = _texts(values, right_rows)
        if any(k != j and _alike(texts, _texts(base.columns[k].values, right_rows)) for k in left):
            values = list(base.columns[j].values)
        right_values.append([values[i] for i in right_rows])

    left_table = base.select(range(n), left)
    names = _right_names([base.columns[j] for j in right], left_table.names, opaque, rng)
    right_table = Table(
        base.name,
        tuple(Column(name, tuple(values)) for name, values in zip(names, right_values)),
    )
    by_base = dict(zip(right, names))
    mapping = {base.columns[j].name: by_base[j] for j in left if j in by_base}
    effort = len(left) * len(right) * len(right_rows)
    return JoinPair(left_table, right_table, mapping, material, effort)


# ---------------------------------------------------------------- reading an answer

_OBJECT = re.compile(r"\{[^{}]*\}", re.S)
_LINE_PAIR = re.compile(
    r"""^\s*(?:[-*+]|\d+[.)])?\s*["'`]*(?P<a>[^"'`:=>→]+?)["'`]*\s*"""
    r"""(?:->|=>|→|:|=)\s*["'`]*(?P<b>[^"'`,]+?)["'`]*\s*,?\s*$"""
)
_NOTHING = {"", "none", "null", "nan", "n/a", "-"}


def _literal(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _pairs_from_object(obj: Any) -> list[tuple[str, str]] | None:
    if not isinstance(obj, dict):
        return None
    pairs = []
    for k, v in obj.items():
        if isinstance(v, (list, tuple)) and len(v) == 1:
            v = v[0]
        if v is None or isinstance(v, bool) or str(v).strip().casefold() in _NOTHING:
            continue
        pairs.append((str(k).strip(), str(v).strip()))
    return pairs


def read_pairs(text: str) -> list[tuple[str, str]] | None:
    """The (A name, B name) pairs an answer text gives, or None if it gives no mapping."""
    pairs = _pairs_from_object(_literal(text.strip()))
    if pairs is not None:
        return pairs
    objects = _OBJECT.findall(text)
    if objects:
        pairs = _pairs_from_object(_literal(objects[-1]))
        if pairs is not None:
            return pairs
    found = []
    for line in text.splitlines():
        m = _LINE_PAIR.match(line)
        if m and m.group("b").strip().casefold() not in _NOTHING:
            found.append((m.group("a").strip(), m.group("b").strip()))
    return found or None


def _resolve(name: str, known: Sequence[str]) -> str | None:
    if name in known:
        return name
    folded = [k for k in known if k.casefold() == name.casefold()]
    return folded[0] if len(folded) == 1 else None


def mapping_f1(
    pairs: Sequence[tuple[str, str]],
    truth: dict[str, str],
    left: Sequence[str],
    right: Sequence[str],
) -> float:
    """F1 of the predicted pairs (read with names resolved) against the true mapping."""
    if not pairs or not truth:
        return 0.0
    forward = [(_resolve(a, left), _resolve(b, right)) for a, b in pairs]
    backward = [(_resolve(b, left), _resolve(a, right)) for a, b in pairs]
    fits = lambda ps: sum(a is not None and b is not None for a, b in ps)  # noqa: E731
    resolved = backward if fits(backward) > fits(forward) else forward
    predicted = {(a, b) for (a, b), raw in zip(resolved, pairs) if a and b} | {
        raw for (a, b), raw in zip(resolved, pairs) if not (a and b)
    }
    hits = len(predicted & set(truth.items()))
    if hits == 0:
        return 0.0
    precision, recall = hits / len(predicted), hits / len(truth)
    return 2 * precision * recall / (precision + recall)


# ---------------------------------------------------------------- the task


@register
class TableJoin(Task):
    name = "table_join"
    category = "data_analysis"
    uses_sources = True

    def __init__(self, config: JoinConfig = CONFIG) -> None:
        self.config = config

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        cfg = self.config if difficulty == 0 else _config_at(difficulty)
        opaque = rng.random() < cfg.opaque_share
        pair = build_pair(rng, sources, cfg, opaque)
        left, right = pair.left, pair.right
        prompt = PROMPT_TEMPLATE.format(
            left=csv_text(left.names, left.rows()), right=csv_text(right.names, right.rows())
        )
        if cfg.hard_rewrites:
            prompt = prompt.replace(HARD_REWRITES[0], HARD_REWRITES[1], 1)
        extra = {"effort": pair.effort} if difficulty else {}
        return Question(
            prompt=prompt,
            ground_truth=json.dumps(pair.mapping, ensure_ascii=False),
            subtask="opaque" if opaque else "renamed",
            fields={
                "table_name": left.name,
                "left_columns": left.names,
                "right_columns": right.names,
                "mapping": pair.mapping,
                **extra,
            },
            material=pair.material,
        )

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        text = extract_answer(response)
        pairs = read_pairs(text) if text else None
        if pairs is None:  # no tags and a multi-line object: read the last object in the reply
            whole = strip_think(response) if isinstance(response, str) else None
            objects = _OBJECT.findall(whole or "")
            text = objects[-1] if objects else text
            pairs = _pairs_from_object(_literal(objects[-1])) if objects else None
        if not pairs:
            return verdict(text, 0.0)
        f1 = mapping_f1(pairs, record["mapping"], record["left_columns"], record["right_columns"])
        return verdict(text, f1)
