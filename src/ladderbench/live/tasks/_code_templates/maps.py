"""Map problems: a capped stock, the most frequent words, groups by remainder."""

from __future__ import annotations

import random
from typing import Any

from ladderbench.live.tasks._code_templates.base import (
    ITEMS,
    VOCABULARY,
    Args,
    Cases,
    Template,
    cased,
)

INVENTORY_DESCRIPTION = """\
Simulate a store's stock. Each operation is a string: "add NAME QTY", "remove NAME QTY" or \
"rename OLD NEW" (QTY a positive integer). No item may hold more than $cap units: an add keeps \
only what fits under $cap and discards the rest. A remove of more units than the item holds (or \
of an item not in stock) is ignored entirely. A rename of an item not in stock, or to its own \
name, is ignored; if NEW is already in stock, the two quantities are merged (again at most $cap) \
under NEW. An item that reaches 0 units is no longer in stock. Return the stock as a list of \
"NAME:QTY" strings sorted by name."""

INVENTORY_REFERENCE = """\
def run_store(ops: list[str]) -> list[str]:
    cap = $cap
    stock = {}
    for op in ops:
        parts = op.split()
        if parts[0] == "add":
            stock[parts[1]] = min(cap, stock.get(parts[1], 0) + int(parts[2]))
        elif parts[0] == "remove":
            have = stock.get(parts[1], 0)
            qty = int(parts[2])
            if qty <= have:
                stock[parts[1]] = have - qty
                if stock[parts[1]] == 0:
                    del stock[parts[1]]
        elif parts[0] == "rename":
            old, new = parts[1], parts[2]
            if old in stock and old != new:
                stock[new] = min(cap, stock.get(new, 0) + stock.pop(old))
    return [f"{name}:{qty}" for name, qty in sorted(stock.items())]
"""


def _inventory_constants(rng: random.Random) -> dict[str, Any]:
    return {"cap": rng.randint(8, 25)}


def _inventory_ops(rng: random.Random, n: int, cap: int) -> list[str]:
    names = rng.sample(ITEMS, 4)
    ops = []
    for _ in range(n):
        r = rng.random()
        if r < 0.45:
            ops.append(f"add {rng.choice(names)} {rng.randint(1, cap)}")
        elif r < 0.8:
            ops.append(f"remove {rng.choice(names)} {rng.randint(1, cap // 2)}")
        else:
            ops.append(f"rename {rng.choice(names)} {rng.choice(names)}")
    return ops


def _inventory_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    cap = c["cap"]
    typical = [[_inventory_ops(rng, rng.randint(6, 10), cap)] for _ in range(6)]
    a, b = rng.sample(ITEMS, 2)
    edges: list[Args] = [
        [[]],
        [[f"add {a} {cap + 5}"]],
        [[f"add {a} 3", f"remove {a} 3", f"remove {a} 1"]],
        [[f"add {a} 2", f"remove {a} 5"]],
        [[f"add {a} {cap - 1}", f"add {b} 4", f"rename {a} {b}", f"rename {a} {b}"]],
        [[f"add {a} 4", f"rename {a} {a}", f"rename {b} {a}"]],
    ]
    return typical, edges


TOPWORDS_DESCRIPTION = """\
Split the text into words: maximal runs of ASCII letters, compared case-insensitively (report \
them in lower case). Ignore words shorter than $short letters. Return the $k most frequent of the \
remaining words as [word, count] pairs, most frequent first; ties are broken by where the word \
first occurs in the text (earlier first). With fewer than $k distinct words, return them all."""

TOPWORDS_REFERENCE = """\
def top_words(text: str) -> list[list]:
    k = $k
    short = $short
    counts = {}
    first = {}
    word = ""
    for pos, ch in enumerate(text + " "):
        if ch.isascii() and ch.isalpha():
            word += ch.lower()
            continue
        if len(word) >= short:
            counts[word] = counts.get(word, 0) + 1
            first.setdefault(word, pos)
        word = ""
    ranked = sorted(counts, key=lambda w: (-counts[w], first[w]))
    return [[w, counts[w]] for w in ranked[:k]]
"""


def _topwords_constants(rng: random.Random) -> dict[str, Any]:
    return {"k": rng.randint(2, 4), "short": rng.randint(3, 5)}


def _topwords_text(rng: random.Random) -> str:
    pool = rng.sample(VOCABULARY, 7)
    return _sentence_from(rng, [rng.choice(pool) for _ in range(rng.randint(10, 18))])


def _sentence_from(rng: random.Random, words: list[str]) -> str:
    marks = (" ", " ", ", ", ". ", "; ", " - ")
    out = ""
    for i, word in enumerate(words):
        out += (rng.choice(marks) if i else "") + cased(rng, word)
    return out


def _topwords_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    typical = [[_topwords_text(rng)] for _ in range(6)]
    short = [w for w in VOCABULARY if len(w) < c["short"]]
    long = [w for w in VOCABULARY if len(w) >= c["short"]]
    a, b, d = rng.sample(long, 3)

    def letters(n: int) -> str:
        return "".join(rng.choice("bcdfghklmnprst") for _ in range(n))

    x, y, z = letters(c["short"] - 1), letters(c["short"]), letters(c["short"] + 1)
    edges: list[Args] = [
        [""],
        [" ".join(rng.sample(short, 3))],
        [f"{a} {b} {b.upper()} {a.title()} {d}"],
        [f"{a}42{b}-{a}"],
        [f"{b}, {a}!"],
        [f"{x} {y}, {x}. {z} {y} {x.upper()}"],
    ]
    return typical, edges


GROUPS_DESCRIPTION = """\
Given a dict mapping names to integers, group the names by the remainder of their value modulo \
$m (always 0 to $m_less, also for negative values: -1 has remainder $m_less). Return a dict that \
maps each remainder that occurs, written as a decimal string ("0", "1", ...), to the list of its \
names sorted by value, names with equal values in alphabetical order."""

GROUPS_REFERENCE = """\
def group_by_remainder(values: dict[str, int]) -> dict[str, list[str]]:
    m = $m
    groups = {}
    for name, value in values.items():
        key = str(value % m)
        groups.setdefault(key, []).append(name)
    result = {}
    for key, names in groups.items():
        names.sort(key=lambda n: (values[n], n))
        result[key] = names
    return result
"""


def _groups_constants(rng: random.Random) -> dict[str, Any]:
    m = rng.randint(3, 7)
    return {"m": m, "m_less": m - 1}


def _groups_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    def table(n: int) -> dict[str, int]:
        names = rng.sample(VOCABULARY[:58], n)
        return {name: rng.randint(-15, 25) for name in names}

    typical = [[table(rng.randint(5, 9))] for _ in range(6)]
    m = c["m"]
    edges: list[Args] = [
        [{}],
        [{"solo": -1}],
        [{"b": m, "a": m, "c": 0, "d": -m}],
        [{"x": -1, "y": m - 1, "z": 2 * m - 1}],
    ]
    return typical, edges


RUN_STORE = Template(
    "maps", INVENTORY_DESCRIPTION, INVENTORY_REFERENCE, _inventory_constants, _inventory_cases
)
TOP_WORDS = Template(
    "maps", TOPWORDS_DESCRIPTION, TOPWORDS_REFERENCE, _topwords_constants, _topwords_cases
)
GROUP_BY_REMAINDER = Template(
    "maps", GROUPS_DESCRIPTION, GROUPS_REFERENCE, _groups_constants, _groups_cases
)
TEMPLATES: tuple[Template, ...] = (
    RUN_STORE,
    TOP_WORDS,
    GROUP_BY_REMAINDER,
)
