"""Array problems: partition and rotate, the next jump in a window, divisible subarrays."""

from __future__ import annotations

import random
from typing import Any

from ladderbench.live.tasks._code_templates.base import Args, Cases, Template, ints

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
    typical = [[ints(rng, rng.randint(6, 11), -20, 30)] for _ in range(6)]
    edges: list[Args] = [
        [[]],
        [[m * 3]],
        [[m, 2 * m, -m, 0]],
        [[1, 2 * m + 1, 3 * m + 1]],
        [ints(rng, max(2, c["r"] - 1), -9, 9)],
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
    typical = [[ints(rng, rng.randint(7, 12), -5, 15)] for _ in range(6)]
    d, w = c["d"], c["w"]
    edges: list[Args] = [
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
    typical = [[ints(rng, rng.randint(6, 12), -9, 12)] for _ in range(6)]
    m = c["m"]
    edges: list[Args] = [
        [[]],
        [[m]],
        [[0] * (c["length"] + 2)],
        [[m, -m] * 3],
        [[1] * (c["length"] - 1)],
    ]
    return typical, edges


PARTITION_ROTATE = Template(
    "arrays", PARTITION_DESCRIPTION, PARTITION_REFERENCE, _partition_constants, _partition_cases
)
NEXT_JUMP = Template("arrays", NEXT_DESCRIPTION, NEXT_REFERENCE, _next_constants, _next_cases)
COUNT_DIVISIBLE = Template(
    "arrays", SUBARRAY_DESCRIPTION, SUBARRAY_REFERENCE, _subarray_constants, _subarray_cases
)
TEMPLATES: tuple[Template, ...] = (
    PARTITION_ROTATE,
    NEXT_JUMP,
    COUNT_DIVISIBLE,
)
