"""Interval problems: covered length, rooms needed, free slots."""

from __future__ import annotations

import random
from typing import Any

from ladderbench.live.tasks._code_templates.base import Args, Cases, Template, ints

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
    edges: list[Args] = [
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
        [[[a, a + rng.randint(5, 40)] for a in ints(rng, rng.randint(4, 8), 0, 90)]]
        for _ in range(6)
    ]
    edges: list[Args] = [
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
    edges: list[Args] = [
        [[]],
        [[[s - 30, e + 30]]],
        [[[s - 100, s - 50], [e + 10, e + 20]]],
        [[[s + short, s + 2 * short], [s + 2 * short + short - 1, e - short]]],
        [[[s + 50, s + 90], [s + 60, s + 70], [s + 90, s + 100]]],
    ]
    return typical, edges


COVERED_LENGTH = Template(
    "intervals", COVER_DESCRIPTION, COVER_REFERENCE, _cover_constants, _cover_cases
)
ROOMS_NEEDED = Template(
    "intervals", ROOMS_DESCRIPTION, ROOMS_REFERENCE, _rooms_constants, _rooms_cases
)
FREE_SLOTS = Template("intervals", FREE_DESCRIPTION, FREE_REFERENCE, _free_constants, _free_cases)
TEMPLATES: tuple[Template, ...] = (
    COVERED_LENGTH,
    ROOMS_NEEDED,
    FREE_SLOTS,
)
