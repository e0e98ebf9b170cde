"""Cryptarithm: recover the digits hidden behind the letters of an addition.

Each letter stands for a different digit, no word starts with zero, and the words add up. The
generator picks random numbers, writes them with a random letter-per-digit cipher, and keeps
the instance only when a column-wise solver finds exactly one digit assignment.

Why the tiers get harder: tier 4 adds two words of 4-5 letters (6-9 distinct letters, like
SEND + MORE = MONEY), so every carry is 0 or 1 and the sum's extra leading letter must be 1.
Tier 5 adds three words over at least 8 distinct letters: carries can reach 2, the leading
letter is 1 or 2, and far more partial assignments survive each column before the digits are
pinned down.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register

PROMPT_TEMPLATE = """\
Solve this cryptarithm (a letter-arithmetic addition puzzle). Each letter stands for one digit \
from 0 to 9; different letters stand for different digits, and the same letter is always the \
same digit. No word starts with the digit 0. The addition is:

{layout}

Written on one line: {equation}

Exactly one assignment of digits to letters makes the addition correct. Find it.

Give the digit of every letter that appears, as comma-separated Letter=digit pairs in \
alphabetical order of the letters. Put the final answer inside <answer></answer> tags, for \
example: <answer>A=7,B=0,C=3,D=9</answer>"""


@dataclass(frozen=True)
class CryptarithmConfig:
    """Difficulty parameters.

    ``addends`` words of ``min_len``..``max_len`` letters each; the addends' digits come from a
    random pool of ``pool_min``..``pool_max`` digits (repeated letters tie the columns together,
    which is what makes a unique solution likely); at least ``min_letters`` distinct letters.
    The sum is always one letter longer than the longest addend, as in SEND + MORE = MONEY.
    """

    addends: int
    min_len: int
    max_len: int
    pool_min: int
    pool_max: int
    min_letters: int
    max_attempts: int = 5000


TIERS: dict[int, CryptarithmConfig] = {
    4: CryptarithmConfig(addends=2, min_len=4, max_len=5, pool_min=5, pool_max=7, min_letters=6),
    5: CryptarithmConfig(addends=3, min_len=4, max_len=5, pool_min=6, pool_max=7, min_letters=8),
}


# Multiplicative inverses mod 10: a column term k*x with k coprime to 10 determines x.
_INVERSE = {1: 1, 3: 7, 7: 3, 9: 9}


def count_solutions(addends: Sequence[str], total: str, limit: int = 2) -> list[dict[str, int]]:
    """Up to ``limit`` digit assignments solving ``sum(addends) == total``, column by column.

    Columns are filled from the right. In each column the letters not seen before are tried
    digit by digit, except the last one when the column's sum letter is already known: the
    column equation then forces it. The sum letter itself is forced by the column sum and the
    carry, so most branches die within their column. The leading sum digit is capped by the
    largest possible total (it is 1 for two addends), which prunes the search further.
    """
    width = len(total)
    if width == 0 or any(len(word) > width for word in addends):
        return []
    letters = set("".join(addends) + total)
    low = dict.fromkeys(letters, 0)
    high = dict.fromkeys(letters, 9)
    for word in [*addends, total]:
        if len(word) > 1:
            low[word[0]] = 1
    top = sum(10 ** len(word) - 1 for word in addends) // 10 ** (width - 1)
    high[total[0]] = min(9, top)

    # plan[col]: (letters known before the column with their counts, new letters with counts,
    # the column's sum letter, whether the last new letter is forced by the column equation)
    plan: list[tuple[list[tuple[str, int]], list[tuple[str, int]], str, bool]] = []
    known: set[str] = set()
    for col in range(width):
        count: dict[str, int] = {}
        for word in addends:
            if col < len(word):
                count[word[-1 - col]] = count.get(word[-1 - col], 0) + 1
        fresh = [(letter, k) for letter, k in count.items() if letter not in known]
        fixed = [(letter, k) for letter, k in count.items() if letter in known]
        out = total[-1 - col]
        forced = out in known and bool(fresh) and fresh[-1][1] % 10 in _INVERSE
        plan.append((fixed, fresh, out, forced))
        known.update(count)
        known.add(out)

    value: dict[str, int] = {}
    used = [False] * 10
    found: list[dict[str, int]] = []

    def column(col: int, carry: int) -> None:
        if len(found) >= limit:
            return
        if col == width:
            if carry == 0:
                found.append(dict(value))
            return
        fixed = plan[col][0]
        branch(col, 0, carry + sum(value[letter] * k for letter, k in fixed))

    def branch(col: int, i: int, acc: int) -> None:
        _, fresh, out, forced = plan[col]
        if i == len(fresh):  # every addend letter of the column is set: check the sum letter
            digit = acc % 10
            if out in value:
                if value[out] == digit:
                    column(col + 1, acc // 10)
            elif not used[digit] and low[out] <= digit <= high[out]:
                value[out] = digit
                used[digit] = True
                column(col + 1, acc // 10)
                used[digit] = False
                del value[out]
            return
        letter, k = fresh[i]
        if forced and i == len(fresh) - 1:
            digits: Sequence[int] = [(value[out] - acc) * _INVERSE[k % 10] % 10]
        else:
            digits = range(low[letter], high[letter] + 1)
        for digit in digits:
            if not used[digit] and low[letter] <= digit <= high[letter]:
                value[letter] = digit
                used[digit] = True
                branch(col, i + 1, acc + k * digit)
                used[digit] = False
                del value[letter]

    column(0, 0)
    return found


def _draw_number(rng: random.Random, pool: Sequence[str], length: int) -> int | None:
    """A ``length``-digit number written with digits from ``pool`` (None if the pool is just 0)."""
    leads = sorted(d for d in pool if d != "0")
    if not leads:
        return None
    return int(rng.choice(leads) + "".join(rng.choice(pool) for _ in range(length - 1)))


def _layout(addends: Sequence[str], total: str) -> str:
    """The addition written in columns, right-aligned, with a rule above the sum."""
    width = len(total) + 2
    lines = [word.rjust(width) for word in addends[:-1]]
    lines.append("+ " + addends[-1].rjust(width - 2))
    lines.append("-" * width)
    lines.append(total.rjust(width))
    return "\n".join(lines)


@register
class Cryptarithm(Family):
    name = "cryptarithm"
    tiers = TIERS

    def generate(self, rng: random.Random, cfg: CryptarithmConfig) -> Puzzle:
        for _ in range(cfg.max_attempts):
            cipher = rng.sample(string.ascii_uppercase, 10)  # cipher[d] is the letter of digit d
            pool = rng.sample(string.digits, rng.randint(cfg.pool_min, cfg.pool_max))
            drawn = [
                _draw_number(rng, pool, rng.randint(cfg.min_len, cfg.max_len))
                for _ in range(cfg.addends)
            ]
            numbers = [n for n in drawn if n is not None]
            if len(numbers) < len(drawn):
                continue
            addends = ["".join(cipher[int(d)] for d in str(n)) for n in numbers]
            total = "".join(cipher[int(d)] for d in str(sum(numbers)))
            if len(total) <= max(map(len, addends)):
                continue
            if len(set("".join(addends) + total)) < cfg.min_letters:
                continue
            solutions = count_solutions(addends, total)
            if len(solutions) == 1:
                break
        else:  # pragma: no cover - a unique instance turns up within a few dozen draws
            raise ValueError("cryptarithm: no unique puzzle found; raise max_attempts")
        prompt = PROMPT_TEMPLATE.format(
            layout=_layout(addends, total),
            equation=" + ".join(addends) + " = " + total,
        )
        answer = ",".join(f"{letter}={digit}" for letter, digit in sorted(solutions[0].items()))
        return Puzzle(prompt=prompt, answer=answer)

    def normalise(self, text: str) -> str | None:
        """Read Letter=digit pairs in any order and case, with ``=``, ``:``, ``->`` or "is".

        Pairs may be separated by commas, semicolons, spaces or new lines; each letter may
        appear only once. Returns the pairs sorted by letter, upper case, comma-separated.
        """
        cleaned = re.sub(r"[*_`\"'{}()\[\]]|\band\b", " ", text, flags=re.IGNORECASE)
        found: dict[str, str] = {}
        pos = 0
        for match in _PAIR.finditer(cleaned):
            if cleaned[pos : match.start()].strip(_GAP):
                return None
            letter = match.group("letter").upper()
            if letter in found:
                return None
            found[letter] = match.group("digit")
            pos = match.end()
        if not found or cleaned[pos:].strip(_GAP):
            return None
        return ",".join(f"{letter}={found[letter]}" for letter in sorted(found))


_GAP = " \t\r\n,;.&"
_PAIR = re.compile(
    r"(?<![A-Za-z0-9])(?P<letter>[A-Za-z])\s*(?:=|:|->|→|\bis\b)?\s*(?P<digit>[0-9])(?![0-9])"
)
