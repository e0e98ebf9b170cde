"""Integer sets written as ranges ("1-3,7"): how seeds, tiers and levels are given and recorded."""

from __future__ import annotations

import re

from ladderbench.errors import UserError


def parse_ranges(text: str, what: str) -> list[int]:
    """``"4,5"``, ``"0-3"`` or ``"1-3,7"`` -> sorted unique ints; a bad spec is a UserError."""
    values: set[int] = set()
    for part in text.split(","):
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not match:
            raise UserError(f"{what} {text!r}: expected numbers and ranges like 1,3 or 0-3")
        lo, hi = int(match.group(1)), int(match.group(2) or match.group(1))
        if hi < lo:
            raise UserError(f"{what} {text!r}: range {lo}-{hi} runs backwards")
        if hi - lo > 1_000_000:
            raise UserError(f"{what} {text!r}: range {lo}-{hi} is too large")
        values.update(range(lo, hi + 1))
    return sorted(values)


def format_ranges(values: list[int]) -> str:
    """[1, 2, 3, 7] -> ``"1-3,7"``."""
    spans: list[list[int]] = []
    for v in sorted(set(values)):
        if spans and v == spans[-1][1] + 1:
            spans[-1][1] = v
        else:
            spans.append([v, v])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)
