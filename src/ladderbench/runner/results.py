"""The one results writer and reader: JSONL, one row per attempt, the summary row last.

Rows are appended one whole line per write and flushed, so a run killed at any moment leaves at
most a torn last line; reopening for resume cuts it off (and any old summary) before appending.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ladderbench.errors import UserError
from ladderbench.items import ResultRow
from ladderbench.jsonl import field_error, json_objects, read_text


@dataclass
class Results:
    """A results file read back: attempt rows, and the summary (None if the run stopped early)."""

    rows: list[ResultRow] = field(default_factory=list)
    summary: dict[str, Any] | None = None


def parse_results(path: Path, text: str) -> Results:
    """Parse complete lines; a malformed one is a UserError naming file, line and field."""
    results = Results()
    seen: dict[tuple[str, int], int] = {}
    for lineno, obj in json_objects(path, text):
        if results.summary is not None:
            raise UserError(f"{path}:{lineno}: a row after the summary row; not a LadderBench file")
        if obj.get("type") == "summary":
            results.summary = obj
            continue
        try:
            row = ResultRow.model_validate(obj)
        except ValidationError as exc:
            raise field_error(path, lineno, exc) from None
        if row.key in seen:
            raise UserError(
                f"{path}:{lineno}: attempt {row.id!r} sample {row.sample} already at line "
                f"{seen[row.key]}; the file was edited or concatenated"
            )
        seen[row.key] = lineno
        results.rows.append(row)
    return results


def read_results(path: Path) -> Results:
    """Read a results file for a report; a torn last line (killed run) is ignored."""
    text = read_text(path)
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
    return parse_results(path, text)


def iter_results(path: Path) -> Iterator[ResultRow]:
    """Stream the attempt rows of a results file, validated one by one (bounded memory)."""
    from ladderbench.analysis.digest import iter_objects

    for lineno, obj in iter_objects(path):
        if obj.get("type") == "summary":
            continue
        try:
            yield ResultRow.model_validate(obj)
        except ValidationError as exc:
            raise field_error(path, lineno, exc) from None


class ResultWriter:
    """Appends rows to ``path``, resuming whatever a previous run of the same job wrote."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: Any = None

    def open(self, suite: str, adapter: str, model: str) -> list[ResultRow]:
        """Repair and read what is there, check it belongs to this job, and open for appending.

        Returns the rows already written: the attempts to skip. Errored attempts are dropped
        from the file so that this run retries them (each attempt still appears exactly once).
        """
        existing = Results()
        if self.path.exists():
            raw = self.path.read_bytes()
            whole = raw[: raw.rfind(b"\n") + 1]  # cut a torn last line
            existing = parse_results(self.path, whole.decode("utf-8", errors="replace"))
            for row in existing.rows[:1]:
                if (row.suite, row.adapter, row.model) != (suite, adapter, model):
                    raise UserError(
                        f"{self.path} holds a {row.suite} run of {row.adapter}:{row.model}, "
                        f"not {suite} with {adapter}:{model}; choose another --out to start anew"
                    )
            kept = [row for row in existing.rows if row.error is None]
            if len(kept) != len(existing.rows) or existing.summary is not None or whole != raw:
                self._rewrite(kept)
            existing.rows = kept
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (closed in close())
        except OSError as exc:
            raise UserError(f"cannot write --out {self.path}: {exc.strerror or exc}") from None
        return existing.rows

    def _rewrite(self, rows: list[ResultRow]) -> None:
        """Replace the file atomically (write aside, then rename): safe against SIGKILL."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                for row in rows:
                    fh.write(json.dumps(row.to_json_dict(), ensure_ascii=False) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            raise UserError(f"cannot write --out {self.path}: {exc.strerror or exc}") from None

    def append(self, row: ResultRow) -> None:
        self._write(row.to_json_dict())

    def write_summary(self, summary: dict[str, Any]) -> None:
        self._write({"type": "summary", **summary})
        os.fsync(self._file.fileno())

    def _write(self, obj: dict[str, Any]) -> None:
        self._file.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
