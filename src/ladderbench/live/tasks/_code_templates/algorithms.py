"""Algorithmic problems for coding difficulty d >= 1: a naive solution times out on the largest
hidden inputs, so the model must find the efficient algorithm and still get every detail right.

Each template is built for a ``Scale`` (from ``scale(d)``):

- ``count_windows``: count slices of length >= L whose sum meets ``conditions`` remainders
  (1 + d // 4 moduli) among up to ``n`` elements: O(n^2) pairs naively, O(n) with prefix
  residues.
- ``longest_chain``: the longest subsequence whose every element exceeds the one before by at
  least ``gap``, among up to ``n`` elements: O(n^2) naively, O(n log n) with sorted tails.
- ``count_calm``: count the slices whose largest minus smallest element is at most ``t``,
  among up to ``n`` elements: O(n^2) naively, O(n) with two monotonic queues.
- ``best_meetings``: the largest total value of meetings, no two overlapping and each next one
  starting at least ``c`` after the previous ends, among up to ``n / 4`` meetings: O(n^2) with a
  plain DP, O(n log n) with a sorted DP and binary search.
- ``count_strings``: strings of length N (up to 10^(5 + d)) over ``q`` letters with no run longer
  than ``k`` (k from 2 + d // 3 to two more), modulo 1_000_000_007: O(N k) naively,
  O(k^3 log N) by matrix powers.

The largest inputs (``stress`` of them) are hidden tests; the examples stay small.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ladderbench.live.tasks._code_templates.base import Args, Cases, Template, ints

MAX_LENGTH = 20_000  # the longest hidden list (records stay a few hundred kB at most)


@dataclass(frozen=True)
class Scale:
    """How big the hidden inputs of the algorithmic templates are at one difficulty."""

    length: int  # elements in the largest hidden lists
    stress: int  # how many of the largest inputs are hidden tests
    conditions: int  # remainder conditions in count_windows
    run_limit: int  # the longest run allowed in count_strings
    string_digits: int  # count_strings' largest n has this many digits


def scale(d: int) -> Scale:
    """Each step doubles the lists every two steps (capped at ``MAX_LENGTH``), multiplies the
    string length by ten, and every few steps adds a condition, a longer allowed run and a
    stress test."""
    d = max(1, d)
    return Scale(
        length=min(MAX_LENGTH, 1000 * 2 ** ((d + 1) // 2)),
        stress=min(3, 1 + d // 4),
        conditions=1 + d // 4,
        run_limit=2 + d // 3,
        string_digits=6 + d,
    )


# ---------------------------------------------------------------- count_windows

WINDOWS_DESCRIPTION = """\
Given a list of integers nums, count the pairs (i, j) with 0 <= i < j <= len(nums) and \
j - i >= $least such that the sum nums[i] + ... + nums[j - 1] $conditions (remainders as \
Python's % gives them: between 0 and the divisor minus 1, also for negative sums). Return the \
count. The hidden tests include lists of $length elements, and each test must finish within \
about a second."""

WINDOWS_REFERENCE = """\
def count_windows(nums: list[int]) -> int:
    mods = $mods
    rems = $rems
    least = $least
    keys = [tuple(0 for _ in mods)]
    total = 0
    for x in nums:
        total += x
        keys.append(tuple(total % m for m in mods))
    seen: dict[tuple[int, ...], int] = {}
    count = 0
    for j in range(least, len(keys)):
        start = keys[j - least]
        seen[start] = seen.get(start, 0) + 1
        want = tuple((keys[j][t] - rems[t]) % mods[t] for t in range(len(mods)))
        count += seen.get(want, 0)
    return count
"""


def _windows_constants(size: Scale) -> Any:
    def draw(rng: random.Random) -> dict[str, Any]:
        mods = [rng.randint(3, 9) for _ in range(size.conditions)]
        rems = [rng.randrange(m) for m in mods]
        phrases = [f"leaves remainder {r} when divided by {m}" for m, r in zip(mods, rems)]
        return {
            "mods": mods,
            "rems": rems,
            "least": rng.randint(2, 5),
            "conditions": ", and ".join(phrases),
            "length": size.length,
        }

    return draw


def _windows_cases(size: Scale) -> Any:
    def draw(rng: random.Random, c: dict[str, Any]) -> Cases:
        typical = [[ints(rng, rng.randint(7, 12), -20, 30)] for _ in range(5)]
        edges: list[Args] = [
            [[]],
            [ints(rng, c["least"] - 1, -9, 9)],
            [[0] * (c["least"] + 4)],
            [ints(rng, 30, -(10**9), 10**9)],
        ]
        stress = [[ints(rng, size.length, -999, 999)] for _ in range(size.stress)]
        return typical, edges + stress

    return draw


# ---------------------------------------------------------------- longest_chain

CHAIN_DESCRIPTION = """\
Given a list of integers nums, return the length of the longest subsequence (elements taken in \
their order in the list, not necessarily next to each other) in which every element is at \
least $gap greater than the element chosen just before it. An empty list gives 0. The hidden \
tests include lists of $length elements, and each test must finish within about a second."""

CHAIN_REFERENCE = """\
def longest_chain(nums: list[int]) -> int:
    import bisect

    gap = $gap
    tails: list[int] = []
    for x in nums:
        size = bisect.bisect_right(tails, x - gap)
        if size == len(tails):
            tails.append(x)
        elif x < tails[size]:
            tails[size] = x
    return len(tails)
"""


def _chain_constants(size: Scale) -> Any:
    def draw(rng: random.Random) -> dict[str, Any]:
        return {"gap": rng.randint(2, 6), "length": size.length}

    return draw


def _chain_cases(size: Scale) -> Any:
    def draw(rng: random.Random, c: dict[str, Any]) -> Cases:
        typical = [[ints(rng, rng.randint(7, 12), -10, 25)] for _ in range(5)]
        gap = c["gap"]
        edges: list[Args] = [
            [[]],
            [[4]],
            [[0, gap - 1, 2 * gap - 2, 3 * gap]],
            [list(range(20, 0, -1))],
        ]
        stress = [[ints(rng, size.length, 0, 4 * size.length)] for _ in range(size.stress)]
        return typical, edges + stress

    return draw


# ---------------------------------------------------------------- count_calm

CALM_DESCRIPTION = """\
Given a list of integers nums, count the non-empty slices nums[i:j] (0 <= i < j <= len(nums)) \
in which the largest element minus the smallest element is at most $t. Return the count. The \
hidden tests include lists of $length elements, and each test must finish within about a \
second."""

CALM_REFERENCE = """\
def count_calm(nums: list[int]) -> int:
    from collections import deque

    t = $t
    highs: deque[int] = deque()  # indices of the window, values decreasing
    lows: deque[int] = deque()  # indices of the window, values increasing
    start = 0
    count = 0
    for end, x in enumerate(nums):
        while highs and nums[highs[-1]] <= x:
            highs.pop()
        highs.append(end)
        while lows and nums[lows[-1]] >= x:
            lows.pop()
        lows.append(end)
        while nums[highs[0]] - nums[lows[0]] > t:
            start += 1
            if highs[0] < start:
                highs.popleft()
            if lows[0] < start:
                lows.popleft()
        count += end - start + 1
    return count
"""


def _calm_constants(size: Scale) -> Any:
    def draw(rng: random.Random) -> dict[str, Any]:
        return {"t": rng.randint(3, 12), "length": size.length}

    return draw


def _calm_cases(size: Scale) -> Any:
    def draw(rng: random.Random, c: dict[str, Any]) -> Cases:
        typical = [[ints(rng, rng.randint(7, 12), -10, 20)] for _ in range(5)]
        t = c["t"]
        edges: list[Args] = [
            [[]],
            [[5]],
            [[0, t, 0, t + 1, 0]],
            [[7] * 12],
        ]
        stress = [[_walk(rng, size.length, t)] for _ in range(size.stress)]
        return typical, edges + stress

    return draw


def _walk(rng: random.Random, length: int, t: int) -> list[int]:
    """A few long stretches whose values stay within about t of each other (a naive count
    scans each stretch once per start), separated by jumps."""
    out: list[int] = []
    base = 0
    while len(out) < length:
        stretch = rng.randint(length // 6, length // 3)
        for _ in range(min(stretch, length - len(out))):
            spike = rng.random() < 0.002  # now and then a value that breaks the stretch
            out.append(base + (rng.randint(t + 1, 2 * t) if spike else rng.randint(0, t)))
        base += rng.choice([-1, 1]) * rng.randint(t + 2, 3 * t)
    return out


# ---------------------------------------------------------------- best_meetings

MEETINGS_DESCRIPTION = """\
Given a list of meetings [start, end, value] (integers, start < end), choose some of them so \
that for any two chosen meetings, the later-starting one starts at least $c time units after \
the other one ends (start >= end + $c; two meetings with the same start cannot both be chosen). \
Return the largest possible sum of the chosen meetings' values (0 when the list is empty). Values \
are positive. The hidden tests include $count meetings, and each test must finish within about \
a second."""

MEETINGS_REFERENCE = """\
def best_meetings(meetings: list[list[int]]) -> int:
    import bisect

    c = $c
    ordered = sorted(meetings, key=lambda m: m[1])
    ends = [m[1] for m in ordered]
    best = [0]  # best[i]: the best total using the first i meetings by end
    for start, end, value in ordered:
        before = bisect.bisect_right(ends, start - c)
        best.append(max(best[-1], best[before] + value))
    return best[-1]
"""


def _meetings_constants(size: Scale) -> Any:
    def draw(rng: random.Random) -> dict[str, Any]:
        return {"c": rng.randint(1, 5), "count": size.length // 4}

    return draw


def _meetings(rng: random.Random, count: int, horizon: int) -> list[list[int]]:
    out = []
    for _ in range(count):
        start = rng.randint(0, horizon)
        out.append([start, start + rng.randint(1, 12), rng.randint(1, 50)])
    return out


def _meetings_cases(size: Scale) -> Any:
    def draw(rng: random.Random, c: dict[str, Any]) -> Cases:
        typical = [[_meetings(rng, rng.randint(5, 9), 40)] for _ in range(5)]
        gap = c["c"]
        edges: list[Args] = [
            [[]],
            [[[3, 5, 10]]],
            [[[0, 4, 5], [4 + gap - 1, 9, 7], [4 + gap, 10, 6]]],
            [[[0, 10, 8], [0, 10, 9], [1, 2, 5]]],
        ]
        count = size.length // 4
        stress = [[_meetings(rng, count, 3 * count)] for _ in range(size.stress)]
        return typical, edges + stress

    return draw


# ---------------------------------------------------------------- count_strings

STRINGS_DESCRIPTION = """\
Count the strings of length n (n >= 1) over an alphabet of $q letters in which no letter \
appears more than $k times in a row. Return the count modulo 1000000007. The hidden tests \
include values of n with $digits digits, and each test must finish within about a second."""

STRINGS_REFERENCE = """\
def count_strings(n: int) -> int:
    q = $q
    k = $k
    mod = 1_000_000_007

    def multiply(a: list[list[int]], b: list[list[int]]) -> list[list[int]]:
        size = len(a)
        return [
            [sum(a[i][t] * b[t][j] for t in range(size)) % mod for j in range(size)]
            for i in range(size)
        ]

    # state: the length of the string's last run (1..k); one step appends a letter
    step = [[0] * k for _ in range(k)]
    for run in range(k):
        step[run][0] = q - 1
        if run + 1 < k:
            step[run][run + 1] = 1
    power = [[int(i == j) for j in range(k)] for i in range(k)]
    base, left = step, n - 1
    while left:
        if left & 1:
            power = multiply(power, base)
        base = multiply(base, base)
        left >>= 1
    return sum(q * power[0][j] for j in range(k)) % mod
"""


def _strings_constants(size: Scale) -> Any:
    def draw(rng: random.Random) -> dict[str, Any]:
        k = rng.randint(size.run_limit, size.run_limit + 2)
        return {"q": rng.randint(2, 9), "k": k, "digits": size.string_digits}

    return draw


def _strings_cases(size: Scale) -> Any:
    def draw(rng: random.Random, c: dict[str, Any]) -> Cases:
        typical = [[rng.randint(3, 30)] for _ in range(5)]
        edges: list[Args] = [[1], [c["k"]], [c["k"] + 1], [2]]
        low = 10 ** (size.string_digits - 1)
        stress = [[rng.randrange(low, 10 * low)] for _ in range(size.stress)]
        return typical, edges + stress

    return draw


def templates(size: Scale) -> tuple[Template, ...]:
    """The algorithmic templates with hidden inputs of ``size``."""
    return (
        Template(
            "algorithms",
            WINDOWS_DESCRIPTION,
            WINDOWS_REFERENCE,
            _windows_constants(size),
            _windows_cases(size),
        ),
        Template(
            "algorithms",
            CHAIN_DESCRIPTION,
            CHAIN_REFERENCE,
            _chain_constants(size),
            _chain_cases(size),
        ),
        Template(
            "algorithms",
            CALM_DESCRIPTION,
            CALM_REFERENCE,
            _calm_constants(size),
            _calm_cases(size),
        ),
        Template(
            "algorithms",
            MEETINGS_DESCRIPTION,
            MEETINGS_REFERENCE,
            _meetings_constants(size),
            _meetings_cases(size),
        ),
        Template(
            "algorithms",
            STRINGS_DESCRIPTION,
            STRINGS_REFERENCE,
            _strings_constants(size),
            _strings_cases(size),
        ),
    )
