"""One streaming pass over a results file: what reports and comparisons need, in bounded memory.

A results file can hold millions of rows; the digest keeps the summary, per-item outcomes (for
paired tests between models), family x tier counts, and a seeded reservoir sample of rows for the
audit table — never the rows themselves.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ladderbench.errors import UserError

AUDIT_SAMPLE = 400
TEXT_LIMIT = 1500


@dataclass
class Digest:
    path: Path
    summary: dict[str, Any] | None = None
    rows: int = 0
    samples: int = 1
    suite: str = ""
    adapter: str = ""
    model: str = ""
    item_outcome: dict[str, float] = field(default_factory=dict)  # mean score per item
    cells: dict[tuple[str, int], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )
    sample: list[dict[str, Any]] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.adapter}:{self.model}"

    @property
    def sampled(self) -> bool:
        return self.rows > len(self.sample)


def iter_objects(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Stream a results file's objects; a torn last line is skipped, a malformed one is an error."""
    try:
        handle = open(path, encoding="utf-8")  # noqa: SIM115 (closed by the with below)
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror or exc})") from None
    with handle:
        for lineno, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                if not line.endswith("\n"):
                    return  # the torn last line of a killed run
                raise UserError(f"{path}:{lineno}: not valid JSON") from None
            if not isinstance(obj, dict):
                raise UserError(f"{path}:{lineno}: expected a JSON object")
            yield lineno, obj


def final_summary(path: Path) -> dict[str, Any] | None:
    """The summary row of a finished run, read from the end of the file (no full parse)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - 1_000_000))
            tail = handle.read().decode("utf-8", errors="replace")
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror or exc})") from None
    lines = [line for line in tail.splitlines() if line.strip()]
    if not lines:
        return None
    try:
        obj = json.loads(lines[-1])
    except ValueError:
        return None
    return obj if isinstance(obj, dict) and obj.get("type") == "summary" else None


def _clip(value: Any) -> Any:
    if isinstance(value, str) and len(value) > TEXT_LIMIT:
        return value[:TEXT_LIMIT] + f"… [{len(value) - TEXT_LIMIT} more characters]"
    return value


def first_suite(path: Path) -> str:
    """The suite a results file belongs to, from its first row."""
    for _, obj in iter_objects(path):
        return str(obj.get("suite", ""))
    return ""


def digest(
    path: Path, sample_size: int = AUDIT_SAMPLE, seed: int = 0, keep_items: bool = True
) -> Digest:
    """Read ``path`` once; rows beyond the reservoir are counted, not kept.

    ``keep_items`` keeps each item's outcome (memory grows with the number of distinct items):
    needed only to compare runs of the same suite.
    """
    result = Digest(path)
    rng = random.Random(seed)
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for lineno, obj in iter_objects(path):
        if obj.get("type") == "summary":
            result.summary = obj
            continue
        for key in ("id", "suite", "adapter", "model"):
            if not isinstance(obj.get(key), str):
                raise UserError(f"{path}:{lineno}: field {key!r} missing; not a LadderBench row")
        result.rows += 1
        result.samples = max(result.samples, int(obj.get("sample") or 0) + 1)
        if result.rows == 1:
            result.suite, result.adapter, result.model = obj["suite"], obj["adapter"], obj["model"]
        if obj.get("error") is None:
            if keep_items:
                entry = sums[obj["id"]]
                entry[0] += float(obj.get("score") or 0.0)
                entry[1] += 1
            if obj.get("family") is not None and obj.get("tier") is not None:
                cell = result.cells[(obj["family"], obj["tier"])]
                cell[0] += 1
                cell[1] += bool(obj.get("pass"))
        slot = result.rows - 1 if result.rows <= sample_size else rng.randrange(result.rows)
        if slot < sample_size:
            kept = {k: _clip(v) for k, v in obj.items() if k != "usage"}
            if slot == len(result.sample):
                result.sample.append(kept)
            else:
                result.sample[slot] = kept
    result.item_outcome = {item: total / n for item, (total, n) in sums.items() if n}
    return result
