"""Function-level coding problems shared by the code_generation and code_completion tasks.

Each template is a parameterised problem (strings, arrays, maps, intervals, simulation) with a
twist that textbook versions lack. A release draws fresh constants for it from the question's
rng; the template's reference solution (Python source text in this module, with the constants
written into it) is trusted code: the generator runs it in-process to compute the expected
outputs of 8 to 15 inputs (two shown as examples, the rest hidden, edge cases included).

Answers are read from the reply's last fenced code block (``extract_code``) and run in the
sandbox (``ladderbench.live.sandbox``) against the hidden tests: 1.0 when every test passes,
else 0.0.
"""

from __future__ import annotations

import copy
import json
import random
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from string import Template as _Text
from typing import Any

from ladderbench.grading.extract import strip_think
from ladderbench.live.sandbox import ALLOWED_MODULES, Limits, run_tests

Args = list[Any]
Cases = tuple[list[Args], list[Args]]  # (typical inputs, edge-case inputs)

VOCABULARY: tuple[str, ...] = (
    "apple", "river", "stone", "quiet", "lantern", "meadow", "copper", "violet", "harbor",
    "pepper", "glacier", "ember", "falcon", "orbit", "tunnel", "saddle", "thunder", "kettle",
    "marble", "window", "cactus", "velvet", "island", "rocket", "bridge", "cobalt", "maple",
    "oyster", "puzzle", "silver", "sunset", "walnut", "zephyr", "anchor", "banjo", "cinder",
    "dragon", "eagle", "fossil", "garnet", "hollow", "indigo", "jigsaw", "koala", "lemon",
    "mosaic", "nectar", "onion", "parrot", "quartz", "raven", "sphinx", "tulip", "umbra",
    "vortex", "wizard", "yonder", "zinc", "ax", "by", "ok", "go", "it", "up", "art", "sky",
)  # fmt: skip
ITEMS: tuple[str, ...] = (
    "bolt", "cable", "drill", "fuse", "gear", "hinge", "lens", "nail", "pump", "rope",
    "screw", "valve", "wire", "clamp", "spring",
)  # fmt: skip


@dataclass(frozen=True)
class Template:
    """One parameterised problem. ``description`` and ``reference`` are string.Template texts
    filled with the drawn constants ($name)."""

    key: str
    category: str  # strings | arrays | maps | intervals | simulation
    entry: str
    signature: str  # the reference's def line
    description: str
    reference: str
    constants: Callable[[random.Random], dict[str, Any]]
    cases: Callable[[random.Random, dict[str, Any]], Cases]


@dataclass(frozen=True)
class Problem:
    """A generated problem: the prompt material and the tests (inputs with expected outputs)."""

    template: str
    category: str
    entry: str
    signature: str
    description: str
    reference: str
    examples: tuple[tuple[Args, Any], ...]
    tests: tuple[tuple[Args, Any], ...]  # the examples first, then the hidden ones


# ---------------------------------------------------------------- helpers for inputs


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 22nd..."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _cased(rng: random.Random, word: str) -> str:
    r = rng.random()
    if r < 0.45:
        return word
    if r < 0.7:
        return word.capitalize()
    if r < 0.8:
        return word.upper()
    return "".join(c.upper() if rng.random() < 0.4 else c for c in word)


def _sentence(rng: random.Random, words: int, marks: tuple[str, ...]) -> str:
    out = ""
    for i in range(words):
        if i:
            out += rng.choice(marks)
        out += _cased(rng, rng.choice(VOCABULARY))
    return out


def _runs(rng: random.Random, alphabet: str, runs: int, longest: int) -> str:
    out, last = [], ""
    for _ in range(runs):
        letter = rng.choice([c for c in alphabet if c != last] or alphabet)
        out.append(letter * rng.randint(1, longest))
        last = letter
    return "".join(out)


def _ints(rng: random.Random, n: int, low: int, high: int) -> list[int]:
    return [rng.randint(low, high) for _ in range(n)]


# ---------------------------------------------------------------- strings

ROTATE_DESCRIPTION = """\
A word is a maximal run of ASCII letters (a-z, A-Z); every other character (spaces, digits, \
punctuation, apostrophes...) separates words and stays exactly where it is. Rotate the letters of \
every word cyclically to the $direction by $k positions: a word of n letters is rotated by $k mod \
n positions ($demo). Letter case stays with the position, not with the letter: position i of the \
rotated word is upper case exactly when position i of the original word was upper case. Return \
the resulting string."""

ROTATE_REFERENCE = """\
def rotate_words(text: str) -> str:
    k = $k
    out = []
    i = 0
    while i < len(text):
        if text[i].isascii() and text[i].isalpha():
            j = i
            while j < len(text) and text[j].isascii() and text[j].isalpha():
                j += 1
            word = text[i:j].lower()
            s = k % len(word)
            rotated = $rotation
            out.append("".join(c.upper() if o.isupper() else c for c, o in zip(rotated, text[i:j])))
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)
"""


def _rotate_constants(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(2, 9)
    if rng.random() < 0.5:
        return {
            "k": k,
            "direction": "right",
            "demo": 'rotating "abcd" right by 1 gives "dabc"',
            "rotation": "word[len(word) - s:] + word[:len(word) - s]",
        }
    return {
        "k": k,
        "direction": "left",
        "demo": 'rotating "abcd" left by 1 gives "bcda"',
        "rotation": "word[s:] + word[:s]",
    }


def _rotate_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    marks = (" ", " ", ", ", "! ", " - ", "'s ", "42", "  ")
    typical = [[_sentence(rng, rng.randint(3, 6), marks)] for _ in range(6)]
    k = c["k"]
    exact = "".join(rng.choice("abcdefghij") for _ in range(k))
    edges = [
        [""],
        ["a"],
        ["   "],
        ["12 + 34 = 46?!"],
        [exact.capitalize() + " " + exact.upper()],
        [_cased(rng, rng.choice(VOCABULARY)) + "'t STOP"],
        ["x" + "Yz" * rng.randint(2, 5) + "9Ab"],
    ]
    return typical, edges


RLE_DESCRIPTION = """\
Compress a string of lowercase letters. Split it into maximal runs of one repeated letter. Cut \
every run, from left to right, into pieces of at most $cap letters (a run of $demo_len letters \
gives pieces of $demo_pieces letters). Write each piece of at least $t letters as its length \
followed by the letter (for example "${t}q" for $t q's), and each shorter piece as the letters \
themselves. Return the concatenation of all pieces, in order."""

RLE_REFERENCE = """\
def compress_runs(s: str) -> str:
    t = $t
    cap = $cap
    out = []
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        run = j - i
        while run > 0:
            piece = min(run, cap)
            if piece >= t:
                out.append(str(piece) + s[i])
            else:
                out.append(s[i] * piece)
            run -= piece
        i = j
    return "".join(out)
"""


def _rle_constants(rng: random.Random) -> dict[str, Any]:
    t = rng.randint(2, 4)
    cap = rng.randint(t + 2, 9)
    return {
        "t": t,
        "cap": cap,
        "demo_len": 2 * cap + 1,
        "demo_pieces": f"{cap}, {cap} and 1",
    }


def _rle_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    t, cap = c["t"], c["cap"]
    typical = [[_runs(rng, rng.choice(("ab", "abc", "xyz")), rng.randint(4, 8), cap + 3)]]
    typical += [[_runs(rng, "abcd", rng.randint(3, 7), 2 * cap + 2)] for _ in range(5)]
    edges = [
        [""],
        ["q"],
        ["m" * cap],
        ["m" * (cap + 1)],
        ["k" * t + "j" * (t - 1)],
        ["z" * (2 * cap + t)],
        ["abab" * 3],
    ]
    return typical, edges


JUSTIFY_DESCRIPTION = """\
Fully justify a list of words into lines of exactly $width characters. Fill lines greedily: each \
line takes as many of the remaining words as fit with one space between words. Then pad every \
line except the last one: the spaces are spread over the gaps between its words as evenly as \
possible, and when they do not divide evenly, the $side gaps get one extra space each. The last \
line, and any line holding a single word, is left-aligned (one space between words) and padded \
with spaces on the right to $width characters. Every word has at most $width letters. Return the \
list of lines (an empty list for no words)."""

JUSTIFY_REFERENCE = """\
def justify(words: list[str]) -> list[str]:
    width = $width
    lines = []
    i = 0
    while i < len(words):
        j = i
        length = 0
        while j < len(words) and length + len(words[j]) + (j - i) <= width:
            length += len(words[j])
            j += 1
        line = words[i:j]
        if j == len(words) or len(line) == 1:
            text = " ".join(line)
            lines.append(text + " " * (width - len(text)))
        else:
            gaps = len(line) - 1
            base, extra = divmod(width - length, gaps)
            text = line[0]
            for g in range(gaps):
                wide = $wide
                text += " " * (base + (1 if wide else 0)) + line[g + 1]
            lines.append(text)
        i = j
    return lines
"""


def _justify_constants(rng: random.Random) -> dict[str, Any]:
    side = rng.choice(("leftmost", "rightmost"))
    return {
        "width": rng.randint(12, 22),
        "side": side,
        "wide": "g < extra" if side == "leftmost" else "g >= gaps - extra",
    }


def _justify_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    width = c["width"]
    pool = [w for w in VOCABULARY if len(w) <= width]
    typical = [[[rng.choice(pool) for _ in range(rng.randint(6, 12))]] for _ in range(6)]
    long_word = "".join(rng.choice("abcdefgh") for _ in range(width))
    edges = [
        [[]],
        [["solo"]],
        [[long_word, "a", "b"]],
        [["a"] * (width // 2 + 2)],
        [[rng.choice(pool), long_word, rng.choice(pool), rng.choice(pool)]],
    ]
    return typical, edges


VOWEL_DESCRIPTION = """\
The input consists of words separated by single spaces; words hold letters and digits. First \
replace every vowel by the vowel $k_places later in the cycle a -> e -> i -> o -> u -> a, keeping \
its case (only a, e, i, o, u are vowels; y is not). Then, counting only the words that contain at \
least one vowel (1, 2, 3, ... from the left), reverse the characters of the $m_ord, $m2_ord, \
$m3_ord, ... such word. Return the resulting string."""

VOWEL_REFERENCE = """\
def shift_vowels(text: str) -> str:
    k = $k
    m = $m
    cycle = "aeiou"
    words = text.split(" ")
    seen = 0
    for n, word in enumerate(words):
        chars = []
        for ch in word:
            low = ch.lower()
            if low in cycle:
                new = cycle[(cycle.index(low) + k) % 5]
                chars.append(new.upper() if ch.isupper() else new)
            else:
                chars.append(ch)
        shifted = "".join(chars)
        if any(ch in cycle for ch in shifted.lower()):
            seen += 1
            if seen % m == 0:
                shifted = shifted[::-1]
        words[n] = shifted
    return " ".join(words)
"""


def _vowel_constants(rng: random.Random) -> dict[str, Any]:
    m = rng.randint(2, 4)
    k = rng.randint(1, 4)
    return {
        "k": k,
        "k_places": f"{k} place" if k == 1 else f"{k} places",
        "m": m,
        "m_ord": ordinal(m),
        "m2_ord": ordinal(2 * m),
        "m3_ord": ordinal(3 * m),
    }


def _vowel_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    typical = [[_sentence(rng, rng.randint(5, 9), (" ",))] for _ in range(6)]
    edges = [
        [""],
        ["rhythm"],
        ["sky by fly " + _sentence(rng, c["m"] + 2, (" ",))],
        [" ".join(["AEIOU"] * (c["m"] + 1))],
        ["b4 2day " + _sentence(rng, 2 * c["m"], (" ",))],
    ]
    return typical, edges


# ---------------------------------------------------------------- arrays

PARTITION_DESCRIPTION = """\
Given a list of integers, move every element divisible by $m (0 and negative multiples such as \
-$m included) to the end, keeping the relative order within the moved elements and within the \
others. Then rotate the whole list to the left by $r positions, cyclically ($r mod n positions \
for a list of n elements). Finally, negate every element whose new index is a multiple of $step \
(index 0 included). Return the new list."""

PARTITION_REFERENCE = """\
def partition_rotate(nums: list[int]) -> list[int]:
    m = $m
    r = $r
    step = $step
    if not nums:
        return []
    keep = [x for x in nums if x % m != 0]
    moved = [x for x in nums if x % m == 0]
    merged = keep + moved
    shift = r % len(merged)
    rotated = merged[shift:] + merged[:shift]
    for i in range(0, len(rotated), step):
        rotated[i] = -rotated[i]
    return rotated
"""


def _partition_constants(rng: random.Random) -> dict[str, Any]:
    return {"m": rng.randint(2, 6), "r": rng.randint(1, 9), "step": rng.randint(2, 4)}


def _partition_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    m = c["m"]
    typical = [[_ints(rng, rng.randint(6, 11), -20, 30)] for _ in range(6)]
    edges = [
        [[]],
        [[m * 3]],
        [[m, 2 * m, -m, 0]],
        [[1, 2 * m + 1, 3 * m + 1]],
        [_ints(rng, max(2, c["r"] - 1), -9, 9)],
    ]
    return typical, edges


NEXT_DESCRIPTION = """\
Given a list of integers nums, compute for every index i the distance j - i to the nearest index \
j with i < j <= i + $w and nums[j] >= nums[i] + $d (at most $w places ahead, and larger by at \
least $d), or 0 when there is no such index. Return the list of these distances."""

NEXT_REFERENCE = """\
def next_jump(nums: list[int]) -> list[int]:
    w = $w
    d = $d
    result = []
    for i in range(len(nums)):
        found = 0
        for j in range(i + 1, min(len(nums), i + w + 1)):
            if nums[j] >= nums[i] + d:
                found = j - i
                break
        result.append(found)
    return result
"""


def _next_constants(rng: random.Random) -> dict[str, Any]:
    return {"w": rng.randint(2, 6), "d": rng.randint(1, 5)}


def _next_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    typical = [[_ints(rng, rng.randint(7, 12), -5, 15)] for _ in range(6)]
    d, w = c["d"], c["w"]
    edges = [
        [[]],
        [[7]],
        [[0] + [d - 1] * w + [d]],
        [[0] + [-1] * (w - 1) + [d]],
        [[5, 5 + d]],
        [list(range(10, 0, -1))],
        [[-d, 0, -d, 0]],
    ]
    return typical, edges


SUBARRAY_DESCRIPTION = """\
Count the contiguous subarrays (non-empty slices nums[i:j]) of length at least $length whose sum \
is divisible by $m; a sum of 0 or a negative multiple of $m counts as divisible. Return the \
count."""

SUBARRAY_REFERENCE = """\
def count_divisible(nums: list[int]) -> int:
    m = $m
    least = $length
    count = 0
    for i in range(len(nums)):
        total = 0
        for j in range(i, len(nums)):
            total += nums[j]
            if j - i + 1 >= least and total % m == 0:
                count += 1
    return count
"""


def _subarray_constants(rng: random.Random) -> dict[str, Any]:
    return {"m": rng.randint(3, 7), "length": rng.randint(2, 4)}


def _subarray_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    typical = [[_ints(rng, rng.randint(6, 12), -9, 12)] for _ in range(6)]
    m = c["m"]
    edges = [
        [[]],
        [[m]],
        [[0] * (c["length"] + 2)],
        [[m, -m] * 3],
        [[1] * (c["length"] - 1)],
    ]
    return typical, edges


# ---------------------------------------------------------------- maps

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
    edges = [
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
        out += (rng.choice(marks) if i else "") + _cased(rng, word)
    return out


def _topwords_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    typical = [[_topwords_text(rng)] for _ in range(6)]
    short = [w for w in VOCABULARY if len(w) < c["short"]]
    long = [w for w in VOCABULARY if len(w) >= c["short"]]
    a, b, d = rng.sample(long, 3)

    def letters(n: int) -> str:
        return "".join(rng.choice("bcdfghklmnprst") for _ in range(n))

    x, y, z = letters(c["short"] - 1), letters(c["short"]), letters(c["short"] + 1)
    edges = [
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
    edges = [
        [{}],
        [{"solo": -1}],
        [{"b": m, "a": m, "c": 0, "d": -m}],
        [{"x": -1, "y": m - 1, "z": 2 * m - 1}],
    ]
    return typical, edges


# ---------------------------------------------------------------- intervals

COVER_DESCRIPTION = """\
Given closed intervals [a, b] of the number line (integers, a <= b, in any order, possibly \
nested or overlapping; [a, a] has length 0), merge them: sort by start, and an interval joins \
the current merged block when its start is at most $g past the block's end (the gap between \
them, if any, then counts as covered). Return the total length of the merged blocks (the sum of \
end - start over the blocks)."""

COVER_REFERENCE = """\
def covered_length(intervals: list[list[int]]) -> int:
    g = $g
    spans = sorted((a, b) for a, b in intervals)
    total = 0
    start = end = None
    for a, b in spans:
        if start is None:
            start, end = a, b
        elif a - end <= g:
            end = max(end, b)
        else:
            total += end - start
            start, end = a, b
    if start is not None:
        total += end - start
    return total
"""


def _cover_constants(rng: random.Random) -> dict[str, Any]:
    return {"g": rng.randint(0, 3)}


def _intervals(rng: random.Random, n: int, span: int, longest: int) -> list[list[int]]:
    out = []
    for _ in range(n):
        a = rng.randint(-span // 4, span)
        out.append([a, a + rng.randint(0, longest)])
    return out


def _cover_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    g = c["g"]
    typical = [[_intervals(rng, rng.randint(4, 8), 40, 9)] for _ in range(6)]
    edges = [
        [[]],
        [[[3, 3]]],
        [[[0, 5], [5 + g, 9]]],
        [[[0, 5], [6 + g, 9]]],
        [[[0, 20], [3, 4], [5, 19]]],
        [[[10, 12], [12 + g, 12 + g], [12 + 2 * g, 15 + 2 * g]]],
    ]
    return typical, edges


ROOMS_DESCRIPTION = """\
Meetings are half-open intervals [start, end) of minutes with start < end. A room needs $c \
minutes of cleaning after each meeting: a meeting starting at minute s may use a room only if the \
room's previous meeting ended at or before s - $c. Return the smallest number of rooms that can \
hold all the meetings (0 for no meetings)."""

ROOMS_REFERENCE = """\
def rooms_needed(meetings: list[list[int]]) -> int:
    c = $c
    events = []
    for start, end in meetings:
        events.append((start, 1))
        events.append((end + c, -1))
    events.sort()
    rooms = 0
    busy = 0
    for _, change in events:
        busy += change
        rooms = max(rooms, busy)
    return rooms
"""


def _rooms_constants(rng: random.Random) -> dict[str, Any]:
    return {"c": rng.randint(1, 6)}


def _rooms_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    gap = c["c"]
    typical = [
        [[[a, a + rng.randint(5, 40)] for a in _ints(rng, rng.randint(4, 8), 0, 90)]]
        for _ in range(6)
    ]
    edges = [
        [[]],
        [[[0, 10]]],
        [[[0, 10], [10 + gap, 20]]],
        [[[0, 10], [9 + gap, 20]]],
        [[[0, 10], [10, 20], [20 + gap, 30]]],
        [[[5, 6]] * 3],
    ]
    return typical, edges


FREE_DESCRIPTION = """\
Busy periods are half-open intervals [a, b) of minutes (a < b, any order, possibly overlapping, \
possibly reaching outside the working day). The working day is [$start, $end). Return the free \
periods inside the working day that are at least $shortest minutes long, as [a, b] lists in \
increasing order (a free period runs from the end of one busy stretch to the start of the next, \
or to the edges of the working day)."""

FREE_REFERENCE = """\
def free_slots(busy: list[list[int]]) -> list[list[int]]:
    day_start = $start
    day_end = $end
    shortest = $shortest
    free = []
    cursor = day_start
    for a, b in sorted(busy):
        a, b = max(a, day_start), min(b, day_end)
        if a >= b:
            continue
        if a - cursor >= shortest:
            free.append([cursor, a])
        cursor = max(cursor, b)
    if day_end - cursor >= shortest:
        free.append([cursor, day_end])
    return free
"""


def _free_constants(rng: random.Random) -> dict[str, Any]:
    start = rng.choice((480, 510, 540))
    return {
        "start": start,
        "end": start + rng.choice((420, 480, 540)),
        "shortest": rng.randint(15, 45),
    }


def _free_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    s, e, short = c["start"], c["end"], c["shortest"]

    def busy(n: int) -> list[list[int]]:
        out = []
        for _ in range(n):
            a = rng.randint(s - 60, e)
            out.append([a, a + rng.randint(10, 120)])
        return out

    typical = [[busy(rng.randint(3, 7))] for _ in range(6)]
    edges = [
        [[]],
        [[[s - 30, e + 30]]],
        [[[s - 100, s - 50], [e + 10, e + 20]]],
        [[[s + short, s + 2 * short], [s + 2 * short + short - 1, e - short]]],
        [[[s + 50, s + 90], [s + 60, s + 70], [s + 90, s + 100]]],
    ]
    return typical, edges


# ---------------------------------------------------------------- simulation

TASKS_DESCRIPTION = """\
Tasks wait in a queue, given as a string of capital letters from front to back. In each time \
unit the processor looks at the first $d tasks of the queue (fewer if the queue is shorter), \
from the front, and runs the first of them whose letter was not run in any of the previous $n \
time units; that task leaves the queue and the others keep their order. If none of them may run, \
the processor is idle for that unit. Return the schedule as a string with one character per \
time unit (the letter run, or "." when idle), ending with the unit in which the last task \
runs."""

TASKS_REFERENCE = """\
def schedule(tasks: str) -> str:
    n = $n
    d = $d
    queue = list(tasks)
    out = []
    while queue:
        recent = out[-n:]
        chosen = -1
        for i in range(min(d, len(queue))):
            if queue[i] not in recent:
                chosen = i
                break
        if chosen < 0:
            out.append(".")
        else:
            out.append(queue.pop(chosen))
    return "".join(out)
"""


def _tasks_constants(rng: random.Random) -> dict[str, Any]:
    return {"n": rng.randint(1, 4), "d": rng.randint(2, 4)}


def _tasks_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    def queue(n: int, letters: str) -> str:
        return "".join(rng.choice(letters) for _ in range(n))

    typical = [[queue(rng.randint(6, 12), rng.choice(("AB", "ABC", "ABCD")))] for _ in range(6)]
    edges = [
        [""],
        ["A"],
        ["A" * 4],
        ["AB" * 3],
        ["A" * (c["d"] + 1) + "B"],
        ["ABCDEFG"],
    ]
    return typical, edges


BANK_DESCRIPTION = """\
An account starts at balance 0 and processes operations in order: "deposit X" adds X; \
"withdraw X" is rejected (nothing changes) when it would take the balance below -$limit, \
otherwise X is subtracted and, if the balance is then negative, an overdraft fee of $fee is \
subtracted as well (even when the fee takes the balance below -$limit). After the $every_ord, \
$every2_ord, $every3_ord, ... operation (rejected ones count) comes a monthly charge: when the \
balance is negative at that moment, the fee of $fee is charged once more. X is a positive \
integer. Return [final balance, rejected withdrawals, fees charged]."""

BANK_REFERENCE = """\
def run_account(ops: list[str]) -> list[int]:
    limit = $limit
    fee = $fee
    every = $every
    balance = rejected = fees = 0
    for count, op in enumerate(ops, 1):
        kind, amount = op.split()
        amount = int(amount)
        if kind == "deposit":
            balance += amount
        elif balance - amount < -limit:
            rejected += 1
        else:
            balance -= amount
            if balance < 0:
                balance -= fee
                fees += 1
        if count % every == 0 and balance < 0:
            balance -= fee
            fees += 1
    return [balance, rejected, fees]
"""


def _bank_constants(rng: random.Random) -> dict[str, Any]:
    every = rng.randint(3, 5)
    return {
        "limit": rng.choice((20, 30, 50, 75, 100)),
        "fee": rng.randint(2, 9),
        "every": every,
        "every_ord": ordinal(every),
        "every2_ord": ordinal(2 * every),
        "every3_ord": ordinal(3 * every),
    }


def _bank_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    limit = c["limit"]

    def ops(n: int) -> list[str]:
        return [
            f"{'deposit' if rng.random() < 0.4 else 'withdraw'} {rng.randint(5, limit)}"
            for _ in range(n)
        ]

    typical = [[ops(rng.randint(5, 10))] for _ in range(6)]
    edges = [
        [[]],
        [[f"withdraw {limit}"]],
        [[f"withdraw {limit + 1}"]],
        [[f"deposit {limit}", f"withdraw {2 * limit}", f"withdraw {limit}"]],
        [["withdraw 1"] * (2 * c["every"])],
    ]
    return typical, edges


AUTOMATON_DESCRIPTION = """\
A row of cells is a string of "#" (alive) and "." (dead). One step updates all cells at once from \
each cell's left neighbour, the cell itself and its right neighbour, wrapping around (the first \
cell's left neighbour is the last cell, and a row of one cell is its own neighbour on both \
sides). Read the three cells as a 3-bit binary number, alive = 1, left neighbour most \
significant; the new cell is alive exactly when bit number (that value) of $rule is 1 \
(elementary rule $rule, bit 0 being the least significant). Return the row after $steps steps."""

AUTOMATON_REFERENCE = """\
def evolve(row: str) -> str:
    rule = $rule
    steps = $steps
    cells = [1 if ch == "#" else 0 for ch in row]
    n = len(cells)
    for _ in range(steps):
        nxt = []
        for i in range(n):
            value = 4 * cells[i - 1] + 2 * cells[i] + cells[(i + 1) % n]
            nxt.append((rule >> value) & 1)
        cells = nxt
    return "".join("#" if c else "." for c in cells)
"""


def _automaton_constants(rng: random.Random) -> dict[str, Any]:
    return {
        "rule": rng.choice((30, 45, 54, 60, 90, 105, 110, 150, 184)),
        "steps": rng.randint(2, 5),
    }


def _automaton_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    def row(n: int) -> str:
        return "".join(rng.choice("#..") for _ in range(n))

    typical = [[row(rng.randint(7, 14))] for _ in range(6)]
    edges = [[""], ["#"], ["."], ["##"], ["#" * 9], ["." * 8 + "#"]]
    return typical, edges


# ---------------------------------------------------------------- the templates

TEMPLATES: tuple[Template, ...] = (
    Template(
        "rotate_words",
        "strings",
        "rotate_words",
        "def rotate_words(text: str) -> str:",
        ROTATE_DESCRIPTION,
        ROTATE_REFERENCE,
        _rotate_constants,
        _rotate_cases,
    ),
    Template(
        "compress_runs",
        "strings",
        "compress_runs",
        "def compress_runs(s: str) -> str:",
        RLE_DESCRIPTION,
        RLE_REFERENCE,
        _rle_constants,
        _rle_cases,
    ),
    Template(
        "justify",
        "strings",
        "justify",
        "def justify(words: list[str]) -> list[str]:",
        JUSTIFY_DESCRIPTION,
        JUSTIFY_REFERENCE,
        _justify_constants,
        _justify_cases,
    ),
    Template(
        "shift_vowels",
        "strings",
        "shift_vowels",
        "def shift_vowels(text: str) -> str:",
        VOWEL_DESCRIPTION,
        VOWEL_REFERENCE,
        _vowel_constants,
        _vowel_cases,
    ),
    Template(
        "partition_rotate",
        "arrays",
        "partition_rotate",
        "def partition_rotate(nums: list[int]) -> list[int]:",
        PARTITION_DESCRIPTION,
        PARTITION_REFERENCE,
        _partition_constants,
        _partition_cases,
    ),
    Template(
        "next_jump",
        "arrays",
        "next_jump",
        "def next_jump(nums: list[int]) -> list[int]:",
        NEXT_DESCRIPTION,
        NEXT_REFERENCE,
        _next_constants,
        _next_cases,
    ),
    Template(
        "count_divisible",
        "arrays",
        "count_divisible",
        "def count_divisible(nums: list[int]) -> int:",
        SUBARRAY_DESCRIPTION,
        SUBARRAY_REFERENCE,
        _subarray_constants,
        _subarray_cases,
    ),
    Template(
        "run_store",
        "maps",
        "run_store",
        "def run_store(ops: list[str]) -> list[str]:",
        INVENTORY_DESCRIPTION,
        INVENTORY_REFERENCE,
        _inventory_constants,
        _inventory_cases,
    ),
    Template(
        "top_words",
        "maps",
        "top_words",
        "def top_words(text: str) -> list[list]:",
        TOPWORDS_DESCRIPTION,
        TOPWORDS_REFERENCE,
        _topwords_constants,
        _topwords_cases,
    ),
    Template(
        "group_by_remainder",
        "maps",
        "group_by_remainder",
        "def group_by_remainder(values: dict[str, int]) -> dict[str, list[str]]:",
        GROUPS_DESCRIPTION,
        GROUPS_REFERENCE,
        _groups_constants,
        _groups_cases,
    ),
    Template(
        "covered_length",
        "intervals",
        "covered_length",
        "def covered_length(intervals: list[list[int]]) -> int:",
        COVER_DESCRIPTION,
        COVER_REFERENCE,
        _cover_constants,
        _cover_cases,
    ),
    Template(
        "rooms_needed",
        "intervals",
        "rooms_needed",
        "def rooms_needed(meetings: list[list[int]]) -> int:",
        ROOMS_DESCRIPTION,
        ROOMS_REFERENCE,
        _rooms_constants,
        _rooms_cases,
    ),
    Template(
        "free_slots",
        "intervals",
        "free_slots",
        "def free_slots(busy: list[list[int]]) -> list[list[int]]:",
        FREE_DESCRIPTION,
        FREE_REFERENCE,
        _free_constants,
        _free_cases,
    ),
    Template(
        "schedule",
        "simulation",
        "schedule",
        "def schedule(tasks: str) -> str:",
        TASKS_DESCRIPTION,
        TASKS_REFERENCE,
        _tasks_constants,
        _tasks_cases,
    ),
    Template(
        "run_account",
        "simulation",
        "run_account",
        "def run_account(ops: list[str]) -> list[int]:",
        BANK_DESCRIPTION,
        BANK_REFERENCE,
        _bank_constants,
        _bank_cases,
    ),
    Template(
        "evolve",
        "simulation",
        "evolve",
        "def evolve(row: str) -> str:",
        AUTOMATON_DESCRIPTION,
        AUTOMATON_REFERENCE,
        _automaton_constants,
        _automaton_cases,
    ),
)
TEMPLATE_BY_KEY: dict[str, Template] = {t.key: t for t in TEMPLATES}
CATEGORIES: tuple[str, ...] = ("strings", "arrays", "maps", "intervals", "simulation")
MIN_TESTS, MAX_TESTS = 8, 15


def _plain(value: Any) -> Any:
    """value as JSON gives it back (tuples become lists); raises on anything else."""
    text = json.dumps(value, sort_keys=False, allow_nan=False)
    return json.loads(text)


def _compile_reference(source: str, entry: str) -> Callable[..., Any]:
    space: dict[str, Any] = {"__name__": "reference"}
    exec(compile(source, f"<reference {entry}>", "exec"), space)  # trusted: this module's text
    return space[entry]


def make_problem(rng: random.Random, template: Template | None = None) -> Problem:
    """Draw a template (unless given), its constants and its tests; run the reference."""
    template = template or rng.choice(TEMPLATES)
    constants = template.constants(rng)
    description = _Text(template.description).substitute(constants)
    reference = _Text(template.reference).substitute(constants)
    if not reference.startswith(template.signature + "\n"):
        raise ValueError(f"template {template.key}: reference does not start with its signature")
    solve = _compile_reference(reference, template.entry)
    typical, edges = template.cases(rng, constants)
    examples_in = typical[:2]
    hidden = typical[2:] + edges
    rng.shuffle(hidden)
    seen: set[str] = set()
    tests: list[tuple[Args, Any]] = []
    for args in examples_in + hidden:
        key = json.dumps(args)
        if key in seen:
            continue
        seen.add(key)
        tests.append((_plain(args), _plain(solve(*copy.deepcopy(args)))))
        if len(tests) == MAX_TESTS:
            break
    if len(tests) < MIN_TESTS:
        raise ValueError(f"template {template.key}: only {len(tests)} distinct tests")
    return Problem(
        template=template.key,
        category=template.category,
        entry=template.entry,
        signature=template.signature,
        description=description,
        reference=reference,
        examples=tuple(tests[:2]),
        tests=tuple(tests),
    )


def call_text(entry: str, args: Args) -> str:
    """How a call is shown in the prompt: rotate_words('ab c') (Python literals)."""
    return f"{entry}({', '.join(repr(a) for a in args)})"


def examples_text(problem: Problem) -> str:
    return "\n".join(
        f"{call_text(problem.entry, args)} == {out!r}" for args, out in problem.examples
    )


def tests_field(problem: Problem) -> list[dict[str, Any]]:
    return [{"input": args, "output": out} for args, out in problem.tests]


def read_tests(record: dict[str, Any]) -> list[tuple[Args, Any]] | None:
    """The hidden tests stored in a record, or None when they are malformed."""
    tests = record.get("tests")
    if not isinstance(tests, list) or not tests:
        return None
    out = []
    for test in tests:
        if not isinstance(test, dict) or not isinstance(test.get("input"), list):
            return None
        if "output" not in test:
            return None
        out.append((test["input"], test["output"]))
    return out


# ---------------------------------------------------------------- reading code out of replies

_OPENER = re.compile(r"(`{3,}|~{3,})[ \t]*([A-Za-z0-9_+#.-]*)[^\n`]*\n")
_PYTHON_TAGS = frozenset({"", "python", "py", "python3", "py3", "python3.11", "pycon", "ipython"})
_TAG_BLOCK = re.compile(r"<(solution|answer)>(.*?)(?:</\1>|\Z)", re.I | re.S)
_CODE_START = re.compile(r"(?:def|class|import|from|async\s+def)\b|@\w|#")


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """Every fenced block as (language tag, body), in order; an unclosed last one runs to the
    end of the text."""
    blocks = []
    pos = 0
    while True:
        m = _OPENER.search(text, pos)
        if m is None:
            return blocks
        fence = m.group(1)
        closer = re.compile(
            r"^[ \t]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$"
            r"|" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$",
            re.M,
        )
        c = closer.search(text, m.end())
        lang = m.group(2).lower()
        if c is None:
            blocks.append((lang, text[m.end() :]))
            return blocks
        blocks.append((lang, text[m.end() : c.start()]))
        pos = c.end()


def _defines(code: str, entry: str | None) -> bool:
    return entry is not None and bool(
        re.search(rf"^[ \t]*def[ \t]+{re.escape(entry)}\b", code, re.M)
    )


def extract_code(response: str, entry: str | None = None) -> str | None:
    """The code a reply gives: its last fenced code block.

    Python-tagged or untagged blocks are preferred to blocks tagged with another language, and,
    when ``entry`` is given, the last block that defines ``def entry(`` wins over later blocks
    that do not (a usage example after the solution). Without any fence, the content of the
    last <solution>/<answer> tag is used, else the whole reply when it starts like code (def,
    class, import, from, a decorator or a comment). None when there is no code. Never raises.
    """
    if not isinstance(response, str):
        return None
    text = strip_think(response)
    if not text:
        return None
    blocks = fenced_blocks(text)
    if blocks:
        pythonic = [body for lang, body in blocks if lang in _PYTHON_TAGS] or [b for _, b in blocks]
        defining = [body for body in pythonic if _defines(body, entry)]
        code = (defining or pythonic)[-1]
        return code if code.strip() else None
    tags = list(_TAG_BLOCK.finditer(text))
    if tags:
        code = textwrap.dedent(tags[-1].group(2)).strip("\n")
        return code + "\n" if code.strip() else None
    stripped = text.strip()
    if _CODE_START.match(stripped):
        return stripped + "\n"
    return None


def split_prefix(reference: str, fraction: float) -> tuple[str, str]:
    """The first ``fraction`` of the reference's lines (at least 2, leaving at least 2), and the
    rest."""
    lines = reference.splitlines(keepends=True)
    cut = min(max(2, round(len(lines) * fraction)), len(lines) - 2)
    return "".join(lines[:cut]), "".join(lines[cut:])


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _shift_to(code: str, indent: str) -> str | None:
    """code moved sideways so that its first line starts at ``indent`` (relative indentation
    kept), or None when a line would have to move left of column 0."""
    lines = code.expandtabs(4).splitlines()
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        return None
    delta = len(indent.expandtabs(4)) - len(_indent_of(first))
    out = []
    for line in lines:
        if not line.strip():
            out.append("")
        elif delta >= 0:
            out.append(" " * delta + line)
        elif len(_indent_of(line)) >= -delta:
            out.append(line[-delta:])
        else:
            return None
    return "\n".join(out) + "\n"


def completion_sources(prefix: str, code: str, entry: str, indent: str) -> list[str]:
    """Programs to try, in order, for a completion answer.

    An answer that defines the function itself is used alone (after the lines, such as imports,
    that the given prefix has before its def line); otherwise it is the continuation: the prefix
    followed by the answer, with any repeated last lines of the prefix dropped, then the same
    moved sideways so that its first line has the continuation's indentation (for answers
    written flush left or indented for another nesting level).
    """
    if not prefix.endswith("\n"):
        prefix += "\n"
    if _defines(code, entry):
        head = prefix.split("def ", 1)[0] if prefix.lstrip().startswith(("import", "from")) else ""
        return [head + code]
    lines = code.splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    tail = [line.strip() for line in prefix.splitlines() if line.strip()]
    body = lines
    for k in range(min(len(tail), len(lines)), 0, -1):
        if [line.strip() for line in lines[:k]] == tail[-k:]:
            body = lines[k:]
            break
    continuation = "\n".join(body) + "\n"
    sources = [prefix + continuation]
    shifted = _shift_to(continuation, indent)
    if shifted is not None and shifted != continuation:
        sources.append(prefix + shifted)
    return sources


# ---------------------------------------------------------------- scoring

# Generous for these small inputs: a correct solution runs in milliseconds.
LIMITS = Limits(cpu_seconds=2, wall_seconds=6.0)


def modules_text() -> str:
    return ", ".join(m for m in ALLOWED_MODULES if "." not in m)


def passes(sources: list[str], entry: str, tests: list[tuple[Args, Any]]) -> bool:
    """Whether the first compiling source passes every hidden test, run in the sandbox."""
    if not sources or not any(s.strip() for s in sources):
        return False
    return run_tests(sources, entry, tests, limits=LIMITS).passed


def record_parts(record: Any) -> tuple[str, list[tuple[Args, Any]]] | None:
    """(entry point, tests) of a well-formed record, else None."""
    if not isinstance(record, dict):
        return None
    entry = record.get("entry_point")
    tests = read_tests(record)
    if not isinstance(entry, str) or not entry.isidentifier() or tests is None:
        return None
    return entry, tests
