"""String problems: rotating words, run-length pieces, full justification, shifted vowels."""

from __future__ import annotations

import random
from typing import Any

from ladderbench.live.tasks._code_templates.base import (
    VOCABULARY,
    Args,
    Cases,
    Template,
    cased,
    letter_runs,
    ordinal,
    sentence,
)

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
    typical = [[sentence(rng, rng.randint(3, 6), marks)] for _ in range(6)]
    k = c["k"]
    exact = "".join(rng.choice("abcdefghij") for _ in range(k))
    edges: list[Args] = [
        [""],
        ["a"],
        ["   "],
        ["12 + 34 = 46?!"],
        [exact.capitalize() + " " + exact.upper()],
        [cased(rng, rng.choice(VOCABULARY)) + "'t STOP"],
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
    typical = [[letter_runs(rng, rng.choice(("ab", "abc", "xyz")), rng.randint(4, 8), cap + 3)]]
    typical += [[letter_runs(rng, "abcd", rng.randint(3, 7), 2 * cap + 2)] for _ in range(5)]
    edges: list[Args] = [
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
    edges: list[Args] = [
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
    typical = [[sentence(rng, rng.randint(5, 9), (" ",))] for _ in range(6)]
    edges: list[Args] = [
        [""],
        ["rhythm"],
        ["sky by fly " + sentence(rng, c["m"] + 2, (" ",))],
        [" ".join(["AEIOU"] * (c["m"] + 1))],
        ["b4 2day " + sentence(rng, 2 * c["m"], (" ",))],
    ]
    return typical, edges


ROTATE_WORDS = Template(
    "strings", ROTATE_DESCRIPTION, ROTATE_REFERENCE, _rotate_constants, _rotate_cases
)
COMPRESS_RUNS = Template("strings", RLE_DESCRIPTION, RLE_REFERENCE, _rle_constants, _rle_cases)
JUSTIFY = Template(
    "strings", JUSTIFY_DESCRIPTION, JUSTIFY_REFERENCE, _justify_constants, _justify_cases
)
SHIFT_VOWELS = Template(
    "strings", VOWEL_DESCRIPTION, VOWEL_REFERENCE, _vowel_constants, _vowel_cases
)
TEMPLATES: tuple[Template, ...] = (
    ROTATE_WORDS,
    COMPRESS_RUNS,
    JUSTIFY,
    SHIFT_VOWELS,
)
