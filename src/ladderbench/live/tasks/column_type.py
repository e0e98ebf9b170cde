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

Sources: the newest ``--sources`` table no earlier question drew on (its CSV text is the
question's material, so no table is served twice).

Difficulty (0 = the questions above): from d = 1 the columns all look alike (digit codes of one
length: zip codes, phone extensions, member IDs...) and the prompt gives the table's data
dictionary, a few rules per column (first digit, parity, digit sum modulo m, a weighted check
digit, no repeated neighbours, a digit present or absent, a two-digit field's range). Each entry
is the entry of another column with one rule changed, so the entries differ in one rule each;
the values keep the target's rules and break every other entry, each value breaking as few
entries as can be found (ideally one), so every value must be checked against every entry. What
each step adds: one more candidate column and one more value (3 + d columns, capped at the 40
names; 4 + d values), a digit of code length every 3 steps (5 + d // 3), a rule per entry every
4 steps (2 + d // 4, up to 4). ``fields["effort"]`` counts the rule checks: rules in the
dictionary times values. The answer is unique by construction: the target keeps every rule for
every value, and each other entry is broken by at least one shown value. These questions come
from the rng alone (no table is drawn, so no ``--sources`` material is used).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
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
    fresh_source_tables,
    generate_table,
    indistinguishable,
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
SUBTASKS = ("number", "date", "code", "text", "dictionary")

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
) -> tuple[Column, list[Column], str, tuple[str, ...]]:
    """(target column, candidate columns in table order, table name, material): the newest
    fresh source table with a usable column (its CSV text is the material), else a generated
    table (no material)."""
    if sources.tables:
        tables = fresh_source_tables(sources, "column_type")
        for table in tables:
            picked = _pick(rng, table, cfg)
            if picked:
                return picked[0], picked[1], table.name, (sources.tables[table.name],)
        raise UserError(
            f"--sources: no table has a column with {cfg.min_values}+ values that can be told "
            f"apart from another column ({', '.join(t.name for t in tables)})"
        )
    table = generate_table(rng, cfg.table_rows)
    picked = _pick(rng, table, cfg)
    if picked is None:  # every schema has several distinguishable columns
        raise ValueError(f"schema {table.name!r} gave no usable column")
    return picked[0], picked[1], table.name, ()


# ---------------------------------------------------------------- d >= 1: a data dictionary

# Look-alike code columns: every one holds digit strings of one length.
CODE_COLUMNS = (
    "zip_code",
    "postal_code",
    "phone_ext",
    "account_no",
    "member_id",
    "order_ref",
    "invoice_no",
    "sku_code",
    "tracking_no",
    "badge_id",
    "route_code",
    "branch_code",
    "meter_id",
    "ticket_no",
    "voucher_code",
    "batch_no",
    "locker_no",
    "serial_no",
    "pin_code",
    "customer_no",
    "policy_no",
    "claim_no",
    "patient_id",
    "employee_no",
    "vehicle_id",
    "parcel_id",
    "room_code",
    "plot_no",
    "case_no",
    "permit_no",
    "licence_no",
    "store_id",
    "terminal_id",
    "shelf_code",
    "lot_no",
    "card_suffix",
    "dock_code",
    "seat_code",
    "crate_id",
    "tag_no",
)


@dataclass(frozen=True)
class Rule:
    """One rule of a column's data dictionary, over a code's digits: its kind and parameters.

    Kinds: ``first`` (the first digit is one of ``digits``), ``last`` (the last digit is even or
    odd), ``sum`` (the digit sum leaves remainder ``b`` mod ``a``), ``check`` (the last digit is
    the sum of the others, weighted ``a`` and 1 alternately from the left, mod 10), ``norepeat``
    (no two neighbouring digits equal), ``has`` / ``lacks`` (digit ``a`` appears / does not),
    ``pair`` (digits ``a`` and ``a+1``, 1-based, read as a number, are at most ``b``).
    """

    kind: str
    a: int = 0
    b: int = 0
    digits: tuple[int, ...] = ()

    def holds(self, code: str) -> bool:
        ds = _digits(code)
        if self.kind == "first":
            return ds[0] in self.digits
        if self.kind == "last":
            return ds[-1] % 2 == self.a
        if self.kind == "sum":
            return sum(ds) % self.a == self.b
        if self.kind == "check":
            weighted = sum(d * (self.a if i % 2 == 0 else 1) for i, d in enumerate(ds[:-1]))
            return weighted % 10 == ds[-1]
        if self.kind == "norepeat":
            return all(x != y for x, y in itertools.pairwise(ds))
        if self.kind == "has":
            return self.a in ds
        if self.kind == "lacks":
            return self.a not in ds
        return 10 * ds[self.a - 1] + ds[self.a] <= self.b  # pair

    def text(self) -> str:
        if self.kind == "first":
            return "the first digit is " + _or_list(self.digits)
        if self.kind == "last":
            return "the last digit is " + ("odd" if self.a else "even")
        if self.kind == "sum":
            if self.b == 0:
                return f"the digits add up to a multiple of {self.a}"
            return (
                f"the digits add up to a number that leaves remainder {self.b} when divided "
                f"by {self.a}"
            )
        if self.kind == "check":
            return (
                "the last digit is a check digit: multiply the 1st, 3rd, 5th... digits by "
                f"{self.a}, add the 2nd, 4th, 6th... digits (all but the last digit), and take the "
                "last digit of the total"
            )
        if self.kind == "norepeat":
            return "no two neighbouring digits are equal"
        if self.kind == "has":
            return f"the digit {self.a} appears at least once"
        if self.kind == "lacks":
            return f"the digit {self.a} never appears"
        return (
            f"digits {self.a} and {self.a + 1}, read as a two-digit number, make at most "
            f"{self.b:02d}"
        )


@lru_cache(maxsize=1 << 16)
def _digits(code: str) -> tuple[int, ...]:
    return tuple(map(int, code))


def _or_list(digits: Sequence[int]) -> str:
    words = [str(d) for d in digits]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


RULE_KINDS = ("first", "last", "sum", "check", "norepeat", "has", "lacks", "pair")
MAX_RULES = 4  # more rules per entry leave too few codes that keep them all to draw from
CHECK_KINDS = ("sum", "check")  # the selective kinds: a dictionary entry has at most one


def draw_rule(rng: random.Random, length: int, kind: str) -> Rule:
    if kind == "first":
        return Rule(kind, digits=tuple(sorted(rng.sample(range(1, 10), rng.randint(3, 6)))))
    if kind == "last":
        return Rule(kind, a=rng.randrange(2))
    if kind == "sum":
        m = rng.randint(3, 7)
        return Rule(kind, a=m, b=rng.randrange(m))
    if kind == "check":
        return Rule(kind, a=rng.choice((2, 3, 7)))
    if kind == "norepeat":
        return Rule(kind)
    if kind in ("has", "lacks"):
        return Rule(kind, a=rng.randrange(10))
    return Rule(kind, a=rng.randint(1, length - 2), b=rng.randint(20, 79))


@dataclass(frozen=True)
class DictionaryConfig:
    """A dictionary question: candidate columns, values shown, code length, rules per column."""

    candidates: int
    values: int
    length: int
    rules: int

    def __post_init__(self) -> None:
        if not 2 <= self.candidates <= len(CODE_COLUMNS):
            raise ValueError(f"candidates must be in 2..{len(CODE_COLUMNS)}")
        if self.values < 1 or self.length < 4 or not 1 <= self.rules <= len(RULE_KINDS) - 1:
            raise ValueError("need values >= 1, length >= 4, rules in 1..7")


def difficulty(d: int) -> DictionaryConfig | ColumnTypeConfig:
    """The config of difficulty ``d``: 0 is v1, then a growing data dictionary (see above)."""
    if d < 0:
        raise ValueError(f"difficulty must be >= 0, got {d}")
    if d == 0:
        return CONFIG
    return DictionaryConfig(
        candidates=min(len(CODE_COLUMNS), 3 + d),
        values=4 + d,
        length=5 + d // 3,
        rules=min(MAX_RULES, 2 + d // 4),
    )


_config_at = difficulty  # ``generate``'s argument shadows the name


def _draw_spec(rng: random.Random, cfg: DictionaryConfig) -> tuple[Rule, ...]:
    kinds = list(RULE_KINDS)
    rng.shuffle(kinds)
    picked: list[str] = []
    for kind in kinds:
        if len(picked) == cfg.rules:
            break
        if kind in CHECK_KINDS and any(k in CHECK_KINDS for k in picked):
            continue
        picked.append(kind)
    return tuple(draw_rule(rng, cfg.length, kind) for kind in picked)


def _mutate(rng: random.Random, spec: tuple[Rule, ...], cfg: DictionaryConfig) -> tuple[Rule, ...]:
    """``spec`` with one rule replaced: a near twin of another column's entry."""
    i = rng.randrange(len(spec))
    others = [r.kind for k, r in enumerate(spec) if k != i]
    kinds = [
        k
        for k in RULE_KINDS
        if k not in others and not (k in CHECK_KINDS and any(o in CHECK_KINDS for o in others))
    ]
    new = draw_rule(rng, cfg.length, rng.choice(kinds))
    return (*spec[:i], new, *spec[i + 1 :])


def _code(rng: random.Random, length: int) -> str:
    return f"{rng.randrange(10**length):0{length}d}"


@dataclass(frozen=True)
class Dictionary:
    """A dictionary question: the entries (names and rules), the target's index, the values."""

    names: list[str]
    specs: list[tuple[Rule, ...]]
    target: int
    values: list[str]

    def fits(self, k: int, code: str) -> bool:
        return all(rule.holds(code) for rule in self.specs[k])


POOL_SIZE = 120
MAX_DRAWS = 40_000  # per POOL_SIZE codes wanted


def _pool(rng: random.Random, spec: tuple[Rule, ...], length: int, size: int) -> list[str]:
    """Up to ``size`` distinct codes that keep every rule of ``spec``."""
    pool: dict[str, None] = {}
    for _ in range(MAX_DRAWS * -(-size // POOL_SIZE)):
        code = _code(rng, length)
        if all(rule.holds(code) for rule in spec):
            pool[code] = None
            if len(pool) == size:
                break
    return list(pool)


def build_dictionary(rng: random.Random, cfg: DictionaryConfig) -> Dictionary:
    """Candidate entries, each a one-rule mutation of another, a target among them, and values
    that keep the target's rules. Every other entry accepts at least half the codes that keep
    the target's (a near twin) and rejects at least one; the values break every other entry,
    each value as few as can be found (ideally one), so every value must be checked against
    every entry."""
    while True:
        specs = [_draw_spec(rng, cfg)]
        while len(specs) < cfg.candidates:
            spec = _mutate(rng, rng.choice(specs), cfg)
            if spec not in specs:
                specs.append(spec)
        target = rng.randrange(len(specs))
        pool = _pool(rng, specs[target], cfg.length, max(POOL_SIZE, 2 * cfg.values))
        if len(pool) < cfg.values:
            continue
        if not _make_near_twins(rng, specs, target, pool, cfg):
            continue
        decoys = [k for k in range(len(specs)) if k != target]
        values = _pick_values(rng, pool, specs, decoys, cfg.values)
        if values is None:
            continue
        names = rng.sample(CODE_COLUMNS, len(specs))
        return Dictionary(names, specs, target, values)


def _make_near_twins(
    rng: random.Random,
    specs: list[tuple[Rule, ...]],
    target: int,
    pool: list[str],
    cfg: DictionaryConfig,
    tries: int = 20,
) -> bool:
    """Redraw (in place) each other entry that rejects none or over half of ``pool`` (the codes
    that keep the target's rules), from the entries that already pass."""

    def twin(spec: tuple[Rule, ...]) -> bool:
        rejected = sum(not all(r.holds(c) for r in spec) for c in pool)
        return 0 < rejected <= len(pool) // 2

    fine = [target] + [k for k in range(len(specs)) if k != target and twin(specs[k])]
    for k in range(len(specs)):
        if k in fine:
            continue
        for _ in range(tries):  # a mutation of the target or of an entry already a near twin
            spec = _mutate(rng, specs[rng.choice(fine)], cfg)
            if spec not in specs and twin(spec):
                specs[k] = spec
                fine.append(k)
                break
        else:
            return False
    return True


def _pick_values(
    rng: random.Random,
    pool: list[str],
    specs: list[tuple[Rule, ...]],
    decoys: list[int],
    n: int,
) -> list[str] | None:
    """At least ``n`` codes of ``pool`` breaking every decoy, each breaking as few as it can
    (more than ``n`` only when ``n`` codes cannot break them all)."""

    def breaks(code: str) -> set[int]:
        return {k for k in decoys if not all(r.holds(code) for r in specs[k])}

    by_code = {code: breaks(code) for code in pool}
    values: list[str] = []
    unbroken = list(decoys)
    rng.shuffle(unbroken)
    while unbroken:  # greedy: for each unbroken decoy, the code breaking it and fewest others
        k = unbroken[0]
        options = [c for c in pool if k in by_code[c] and c not in values]
        best = min(len(by_code[c]) for c in options)
        code = rng.choice([c for c in options if len(by_code[c]) == best])
        values.append(code)
        unbroken = [j for j in unbroken if j not in by_code[code]]
    quiet = [c for c in pool if c not in values]
    rng.shuffle(quiet)
    quiet.sort(key=lambda c: len(by_code[c]))  # stable: random among equals, fewest breaks first
    values += quiet[: n - len(values)]
    if len(values) < n:
        return None
    rng.shuffle(values)
    return values


def dictionary_question(rng: random.Random, cfg: DictionaryConfig) -> Question:
    """A question of difficulty >= 1: which dictionary entry do the values keep?"""
    book = build_dictionary(rng, cfg)
    lines = []
    for name, spec in zip(book.names, book.specs):
        shown = list(spec)
        rng.shuffle(shown)  # each entry lists its rules in its own order
        lines.append(f"- {name}: " + "; ".join(rule.text() for rule in shown) + ".")
    entries = "\n".join(lines)
    prompt = DICTIONARY_TEMPLATE.format(
        length=cfg.length,
        entries=entries,
        n_values=len(book.values),
        values=json.dumps(book.values),
    )
    checks = sum(len(spec) for spec in book.specs) * len(book.values)
    return Question(
        prompt=prompt,
        ground_truth=book.names[book.target],
        subtask="dictionary",
        fields={
            "table_name": "dictionary",
            "candidates": book.names,
            "values": book.values,
            "effort": checks,
        },
    )


DICTIONARY_TEMPLATE = """\
Every column of a table holds {length}-digit codes (written as text, leading zeros \
kept). The table's data dictionary gives the rules each column's codes keep:

{entries}

These {n_values} values were taken from one of these columns (as a JSON array):

{values}

Which column do the values come from? Exactly one column's rules hold for every value. Answer \
with the column name exactly as written above.
Put your final answer inside <solution></solution> tags."""


@register
class ColumnType(Task):
    name = "column_type"
    category = "data_analysis"
    uses_sources = True

    def __init__(self, config: ColumnTypeConfig = CONFIG) -> None:
        self.config = config

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        if difficulty > 0:
            cfg = _config_at(difficulty)
            assert isinstance(cfg, DictionaryConfig)
            return dictionary_question(rng, cfg)
        target, candidates, table_name, material = draw(rng, sources, self.config)
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
            material=material,
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
