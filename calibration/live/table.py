"""The per-task table of the live calibration: one column per results file (its summary row).

.venv/bin/python calibration/live/table.py NAME=RESULTS.jsonl ... > calibration/live/per-task.md
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def summary(path: Path) -> dict:
    last = path.read_text(encoding="utf-8").splitlines()[-1]
    row = json.loads(last)
    assert row.get("type") == "summary", f"{path}: no summary row"
    return row


def cell(entry: dict | None) -> str:
    if not entry or entry.get("score") is None:
        return "-"
    lo, hi = entry["ci95"]
    return f"{entry['score']:.0%} ({lo:.0%}-{hi:.0%})"


def main(args: list[str]) -> None:
    columns = [(name, summary(Path(path))) for name, path in (a.split("=", 1) for a in args)]
    tasks = sorted({t for _, s in columns for t in s["byTask"]})
    first = columns[0][1]["byTask"]
    print("| task | category | d | n | " + " | ".join(name for name, _ in columns) + " |")
    print("|---|---|---|---|" + "---|" * len(columns))
    for task in tasks:
        info = first.get(task, {})
        d = ",".join(map(str, info.get("difficulties", []))) or "-"
        cells = " | ".join(cell(s["byTask"].get(task)) for _, s in columns)
        print(f"| {task} | {info.get('category', '?')} | {d} | {info.get('n', '-')} | {cells} |")
    categories = sorted({c for _, s in columns for c in s["byCategory"]})
    for category in categories:
        cells = " | ".join(cell(s["byCategory"].get(category)) for _, s in columns)
        print(f"| *{category}* | | | | {cells} |")
    print("| **overall** | | | | " + " | ".join(cell(s["overall"]) for _, s in columns) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
