"""Cryptarithm: recover the digits hidden behind the letters of an addition.

Each letter stands for a different digit, no word starts with zero, and the words add up. The
generator picks random numbers, writes them with a random letter-per-digit cipher, and keeps
the instance only when a column-wise solver finds exactly one digit assignment.

Why the tiers get harder: tier 4 adds two words of 4-5 letters (6-9 distinct letters, like
SEND + MORE = MONEY), so every carry is 0 or 1 and the sum's extra leading letter must be 1.
Tier 5 adds three words over at least 8 distinct letters: carries can reach 2, the leading
letter is 1 or 2, and far more partial assignments survive each column before the digits are
pinned down.

Suite v2 (``difficulty(d)``): d 0 is AB + CD = EFG-sized (two 2-letter words), d 1 two 3-letter
words, d 2 two 4-5-letter words, d 3 three 4-5-letter words, d 4 three 5-6-letter words, d 5 four
5-6-letter words (more addends: bigger carries, more letters per column). From d 6 on the puzzle
is a product, A x B = C: a product's digits depend on every pair of factor digits, so no column
can be settled alone. The factors grow one letter at a time (d 6: 3 x 2 letters, d 7: 3 x 3,
d 8: 4 x 3, d 9: 4 x 4, ...), so each step lengthens the long multiplication to check, with at
least 6, 7, 8, 9, then all 10 distinct letters. (2 x 2 products are rarely unique with more than
five letters, so products start at 3 x 2.)
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable, Sequence
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

V2_PROMPT_TEMPLATE = """\
Solve this cryptarithm (a letter-arithmetic {kind} puzzle). Each letter stands for one digit \
from 0 to 9; different letters stand for different digits, and the same letter is always the \
same digit. No word starts with the digit 0. The {kind} is:

{layout}

Written on one line: {equation}

Exactly one assignment of digits to letters makes the {kind} correct. Find it.

Give the digit of every letter that appears, as comma-separated Letter=digit pairs in \
alphabetical order of the letters (each ? below stands for a digit). Put the final answer inside \
<answer></answer> tags, in this form: <answer>{placeholder}</answer>"""

# The multiplication sign of v2 product puzzles (letters are upper case, so no clash with x).
TIMES = "×"


@dataclass(frozen=True)
class CryptarithmConfig:
    """Difficulty parameters.

    ``addends`` words of ``min_len``..``max_len`` letters each; the addends' digits come from a
    random pool of ``pool_min``..``pool_max`` digits (repeated letters tie the columns together,
    which is what makes a unique solution likely); at least ``min_letters`` distinct letters.
    The sum is always one letter longer than the longest addend, as in SEND + MORE = MONEY.
    With ``product`` (v2) the puzzle is instead A x B = C with a ``max_len``-letter A and a
    ``min_len``-letter B, both written with digits of the pool (``addends`` is unused).
    ``v2_prompt`` words the prompt for v2 with a placeholder answer example. Defaults are v1's.
    """

    addends: int
    min_len: int
    max_len: int
    pool_min: int
    pool_max: int
    min_letters: int
    max_attempts: int = 5000
    product: bool = False
    v2_prompt: bool = False


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


def product_solutions(left: str, right: str, total: str, limit: int = 2) -> list[dict[str, int]]:
    """Up to ``limit`` digit assignments with ``left * right == total``.

    Digit positions are filled from the right: the letters at position k of both factors, then
    the low k+1 letters of the product are forced, since (a mod 10^j) * (b mod 10^j) agrees with
    a * b in its low j digits. A product letter that clashes ends the branch at once.
    """
    width = max(len(left), len(right))
    if len(total) < width:
        return []
    leads = {word[0] for word in (left, right, total) if len(word) > 1}
    value: dict[str, int] = {}
    used = [False] * 10
    found: list[dict[str, int]] = []

    def low(word: str, k: int) -> int:
        """The number written by the last k letters of ``word`` (all of it when k is larger)."""
        return int("".join(str(value[c]) for c in word[-k:]))

    def assign(letters: list[str], then: Callable[[], None]) -> None:
        if len(found) >= limit:
            return
        if not letters:
            then()
            return
        letter, rest = letters[0], letters[1:]
        if letter in value:
            assign(rest, then)
            return
        for digit in range(1 if letter in leads else 0, 10):
            if not used[digit]:
                value[letter] = digit
                used[digit] = True
                assign(rest, then)
                used[digit] = False
                del value[letter]

    def settle(k: int, then: Callable[[], None]) -> None:
        """Set or check the product's low k letters (all of it when k = its length)."""
        product = low(left, k) * low(right, k)
        if k < len(total):
            text = str(product % 10**k).zfill(k)
        else:
            text = str(product)
            if len(text) != len(total):
                return
        placed: list[str] = []
        for letter, char in zip(total[::-1], text[::-1], strict=False):
            digit = int(char)
            if letter in value:
                if value[letter] != digit:
                    break
            elif used[digit] or (digit == 0 and letter in leads):
                break
            else:
                value[letter] = digit
                used[digit] = True
                placed.append(letter)
        else:
            then()
        for letter in placed:
            used[value.pop(letter)] = False

    def position(k: int) -> None:
        if k == width:
            settle(len(total), lambda: found.append(dict(value)))
            return
        fresh = [word[-1 - k] for word in (left, right) if k < len(word)]
        assign(fresh, lambda: settle(k + 1, lambda: position(k + 1)))

    position(0)
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


# v2 sums, d = 0..5: (addends, min_len, max_len, pool_min, pool_max, min_letters).
_V2_SUMS: list[tuple[int, int, int, int, int, int]] = [
    (2, 2, 2, 4, 6, 4),
    (2, 3, 3, 4, 6, 5),
    (2, 4, 5, 5, 7, 7),
    (3, 4, 5, 6, 7, 8),
    (3, 5, 6, 6, 8, 9),
    (4, 5, 6, 7, 8, 9),
]


def _draw_sum(rng: random.Random, cfg: CryptarithmConfig) -> tuple[list[str], str, dict[str, int]]:
    """A sum puzzle with one solution: (addends, total, solution). v1's draw order, unchanged."""
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
            return addends, total, solutions[0]
    raise ValueError("cryptarithm: no unique puzzle found; raise max_attempts")


def _draw_product(
    rng: random.Random, cfg: CryptarithmConfig
) -> tuple[str, str, str, dict[str, int]]:
    """A product puzzle with one solution: (left factor, right factor, product, solution)."""
    for _ in range(cfg.max_attempts):
        cipher = rng.sample(string.ascii_uppercase, 10)
        pool = rng.sample(string.digits, rng.randint(cfg.pool_min, cfg.pool_max))
        a = _draw_number(rng, pool, cfg.max_len)
        b = _draw_number(rng, pool, cfg.min_len)
        if a is None or b is None:
            continue
        left, right, total = ("".join(cipher[int(d)] for d in str(n)) for n in (a, b, a * b))
        if len(set(left + right + total)) < cfg.min_letters:
            continue
        solutions = product_solutions(left, right, total)
        if len(solutions) == 1:
            return left, right, total, solutions[0]
    raise ValueError("cryptarithm: no unique product found; raise max_attempts")


def _product_layout(left: str, right: str, total: str) -> str:
    """The product written as a right-aligned column sum, with a rule above the result."""
    width = len(total) + 2
    rule = "-" * width
    return "\n".join(
        [left.rjust(width), f"{TIMES} " + right.rjust(width - 2), rule, total.rjust(width)]
    )


@register
class Cryptarithm(Family):
    name = "cryptarithm"
    tiers = TIERS

    def generate(self, rng: random.Random, cfg: CryptarithmConfig) -> Puzzle:
        if cfg.product:
            left, right, total, solution = _draw_product(rng, cfg)
            layout = _product_layout(left, right, total)
            equation = f"{left} {TIMES} {right} = {total}"
            kind = "multiplication"
        else:
            addends, total, solution = _draw_sum(rng, cfg)
            layout = _layout(addends, total)
            equation = " + ".join(addends) + " = " + total
            kind = "addition"
        if cfg.v2_prompt:
            placeholder = ",".join(f"{letter}=?" for letter in sorted(solution))
            prompt = V2_PROMPT_TEMPLATE.format(
                kind=kind, layout=layout, equation=equation, placeholder=placeholder
            )
        else:
            prompt = PROMPT_TEMPLATE.format(layout=layout, equation=equation)
        answer = ",".join(f"{letter}={digit}" for letter, digit in sorted(solution.items()))
        return Puzzle(prompt=prompt, answer=answer)

    def difficulty(self, d: int) -> CryptarithmConfig:
        """The v2 config at ``d`` (see the module docstring): sums up to d 5, then products whose
        factors gain a letter each step."""
        if d < 0:
            raise ValueError(f"cryptarithm: difficulty must be >= 0, got {d}")
        if d < len(_V2_SUMS):
            addends, min_len, max_len, pool_min, pool_max, min_letters = _V2_SUMS[d]
            return CryptarithmConfig(
                addends, min_len, max_len, pool_min, pool_max, min_letters, v2_prompt=True
            )
        k = d - len(_V2_SUMS)
        return CryptarithmConfig(
            addends=2,
            min_len=2 + (k + 1) // 2,
            max_len=3 + k // 2,
            pool_min=min(10, 4 + k),
            pool_max=min(10, 6 + k),
            min_letters=min(10, 6 + k),
            product=True,
            v2_prompt=True,
        )

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
# "\s*(?:sep)?\s*" would split a long run of blanks between its two "\s*" in every way.
_PAIR = re.compile(
    r"(?<![A-Za-z0-9])(?P<letter>[A-Za-z])\s*(?:(?:=|:|->|→|\bis\b)\s*)?(?P<digit>[0-9])(?![0-9])"
)
