"""The one results module: JSONL, a run header first, one row per attempt, the summary row last.

Writing: rows are appended one whole line per write and flushed, so a run killed at any moment
leaves at most a torn last line. Reading: every reader goes through ``stream``, with one policy for
that line: a last line without its newline that does not parse is torn, ignored on read and cut
off on resume (one that parses is whole; only its newline is missing). A malformed line anywhere
else is a UserError naming the file, the line and the field. Lines split on ``\\n`` only (a model's
answer may hold U+2028, which ``str.splitlines`` would split).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import IO, Any

from pydantic import ValidationError

from ladderbench.errors import UserError
from ladderbench.files import ExclusiveLock, atomic_writer
from ladderbench.inspect_log import eval_log_lines, is_eval_log
from ladderbench.items import ResultRow, RunHeader
from ladderbench.jsonl import field_error, json_object
from ladderbench.summaries import Summary

TAIL_CHUNK = 1 << 16


def _open(path: Path) -> IO[bytes]:
    try:
        return open(path, "rb")
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror or exc})") from None


Line = ResultRow | Summary | RunHeader


def _parse(path: Path, lineno: int, raw: bytes) -> Line:
    """A row, validated straight from its bytes; anything else is read again to say what it is."""
    try:
        return ResultRow.model_validate_json(raw)
    except ValidationError:
        obj = json_object(path, lineno, raw)
    if obj.get("type") == "summary":
        return _summary(path, lineno, obj)
    if obj.get("type") == "run":
        try:
            return RunHeader.model_validate(obj)
        except ValidationError as exc:
            raise field_error(path, lineno, exc) from None
    try:
        return ResultRow.model_validate(obj)
    except ValidationError as exc:
        raise field_error(path, lineno, exc) from None


def _summary(path: Path, lineno: int, obj: dict[str, Any]) -> Summary:
    """A summary row as its suite's typed summary."""
    from ladderbench.suites import parse_summary

    try:
        return parse_summary(obj)
    except ValidationError as exc:
        raise field_error(path, lineno, exc) from None


def stream(path: Path) -> Iterator[tuple[int, Line]]:
    """(line number, header, attempt row or summary row) for every line, in one pass, in bounded
    memory. Files written before run headers existed have none. An Inspect ``.eval`` log of
    LadderBench's tasks reads as one (``inspect_log.py``)."""
    if is_eval_log(path):
        yield from eval_log_lines(path)
        return
    summary_at = 0
    lines = 0
    seen: dict[tuple[str, int], int] = {}  # each attempt once: a second is an edit or a concat
    with _open(path) as handle:
        for lineno, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            if not raw.endswith(b"\n"):  # the last line: whole, or torn by a killed run
                try:
                    json.loads(raw)
                except (ValueError, RecursionError):
                    return
            if summary_at:
                raise UserError(
                    f"{path}:{lineno}: a row after the summary row (line {summary_at}); "
                    "not a LadderBench file"
                )
            item = _parse(path, lineno, raw)
            lines += 1
            if isinstance(item, RunHeader) and lines > 1:
                raise UserError(
                    f"{path}:{lineno}: a run header after the first line; the file was "
                    "concatenated from several runs"
                )
            if isinstance(item, Summary):
                summary_at = lineno
            elif isinstance(item, ResultRow):
                if item.key in seen:
                    raise UserError(
                        f"{path}:{lineno}: attempt {item.id!r} sample {item.sample} already at "
                        f"line {seen[item.key]}; the file was edited or concatenated"
                    )
                seen[item.key] = lineno
            yield lineno, item


def iter_results(path: Path) -> Iterator[ResultRow]:
    """Stream the attempt rows of a results file, validated one by one (bounded memory)."""
    for _, item in stream(path):
        if isinstance(item, ResultRow):
            yield item


def read_summary(path: Path) -> Summary | None:
    """The summary row of a finished run, read from the end of the file (no full pass)."""
    if is_eval_log(path):  # computed from the log's samples
        return next((item for _, item in stream(path) if isinstance(item, Summary)), None)
    with _open(path) as handle:
        start = handle.seek(0, os.SEEK_END)
        body = b""
        while start > 0:
            start = max(0, start - TAIL_CHUNK)
            handle.seek(start)
            body = handle.read().rstrip()
            if b"\n" in body or start == 0:
                break
    last = body.rpartition(b"\n")[2]
    try:
        obj = json.loads(last)
    except (ValueError, RecursionError):
        return None  # empty, torn, or malformed: the full pass says which
    if not (isinstance(obj, dict) and obj.get("type") == "summary"):
        return None
    from ladderbench.suites import parse_summary

    try:
        return parse_summary(obj)
    except ValidationError:
        return None  # a malformed summary row: the full pass names its line and field


def summarise_run(path: Path, rows: Iterable[ResultRow]) -> Summary:
    """The summary of a run cut short, computed from its rows as its suite would write it.

    ``rows`` is read once. The number of samples is known only after the last row: a run of
    several samples, cut short, takes a second pass so that pass@k uses the right k.
    """
    from ladderbench.suites import summarise_rows

    remaining = iter(rows)
    first = next(remaining, None)
    if first is None:
        raise UserError(f"{path}: no result rows")
    top = 0

    def counted() -> Iterator[ResultRow]:
        nonlocal top
        for row in chain([first], remaining):
            top = max(top, row.sample)
            yield row

    summary = summarise_rows(counted(), first.suite, 1)
    if top:
        summary = summarise_rows(iter_results(path), first.suite, top + 1)
    return summary


@dataclass
class Scan:
    """One pass over a results file: its summary, and whether the run wrote it (finished)."""

    summary: Summary | None
    finished: bool


def scan(
    path: Path, visit: Callable[[ResultRow], None] | None = None, summarise: bool = True
) -> Scan:
    """Read ``path`` once: every attempt row goes to ``visit``; the summary comes back.

    The summary is the file's own or, for a run cut short and with ``summarise``, computed from the
    same pass. Without ``visit`` a finished run is read from its tail only.
    """
    own = read_summary(path)
    if own is not None and visit is None:
        return Scan(own, True)
    rows = iter_results(path)
    if visit is not None:
        rows = _visiting(rows, visit)
    if own is None and summarise:
        return Scan(summarise_run(path, rows), False)
    for _ in rows:  # each to visit
        pass
    return Scan(own, own is not None)


def _visiting(rows: Iterator[ResultRow], visit: Callable[[ResultRow], None]) -> Iterator[ResultRow]:
    for row in rows:
        visit(row)
        yield row


@dataclass
class Results:
    """A results file read back: its header (None in files older than headers), attempt rows,
    and the summary (None if the run stopped early)."""

    rows: list[ResultRow] = field(default_factory=list)
    summary: Summary | None = None
    header: RunHeader | None = None


def read_results(path: Path) -> Results:
    """Read a whole results file into memory; each attempt must appear once."""
    results = Results()
    for _, item in stream(path):
        if isinstance(item, RunHeader):
            results.header = item
            continue
        if isinstance(item, Summary):
            results.summary = item
            continue
        results.rows.append(item)
    return results


def _ends_with_newline(path: Path) -> bool:
    """Whether a file holding at least a header or a row ends its last line."""
    with _open(path) as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read() == b"\n"


def check_same_job(
    path: Path, existing: Results, header: RunHeader, flags: dict[str, str] | None = None
) -> None:
    """Refuse to resume ``existing`` with a run it does not belong to, before anything changes.

    The suite, adapter and model must match, and every setting in the header (``flags`` maps a
    setting to the option that sets it, for the message). A file whose attempts all errored holds
    no answer to keep comparable: it is taken over with the new settings (a run that stopped at
    a wrong --base-url is re-run with the right one).
    """
    owner = existing.header or (existing.rows[0] if existing.rows else None)
    if owner is not None and (owner.suite, owner.adapter, owner.model) != (
        header.suite,
        header.adapter,
        header.model,
    ):
        raise UserError(
            f"{path} holds a {owner.suite} run of {owner.adapter}:{owner.model}, not "
            f"{header.suite} with {header.adapter}:{header.model}; "
            "choose another --out to start anew"
        )
    if existing.header is None or not any(row.error is None for row in existing.rows):
        return
    old, new = existing.header.settings, header.settings
    differing = [key for key in sorted(old.keys() | new.keys()) if old.get(key) != new.get(key)]
    if differing:
        named = flags or {}
        said = "; ".join(
            f"{named.get(key, key)}: {_shown(old.get(key))} there, {_shown(new.get(key))} now"
            for key in differing
        )
        raise UserError(
            f"{path} was written with other settings ({said}); its answers would not be "
            "comparable: resume with the same settings or choose another --out"
        )


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


class ResultWriter:
    """Appends rows to ``path``, resuming whatever a previous run of the same job wrote.

    ``read`` takes the file's lock and changes nothing, so a resume the caller refuses leaves the
    file as it was; ``start`` then repairs and opens it; ``close`` lets it go.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None
        self._header: RunHeader | None = None  # written just before the first row
        self._lock: ExclusiveLock | None = None

    def read(self) -> Results:
        """Take the file (one writer at a time) and read what a previous run wrote to it
        (nothing if there is no file yet)."""
        if self.path.exists() and not self.path.is_file():
            kind = "a directory" if self.path.is_dir() else "not a regular file"
            raise UserError(f"--out {self.path} is {kind}; name a .jsonl file")
        if self._lock is None:
            lock = ExclusiveLock(self.path, f"--out {self.path}")
            lock.acquire()  # a second run on the file would answer and pay twice
            self._lock = lock
        return read_results(self.path) if self.path.exists() else Results()

    def start(self, header: RunHeader, existing: Results) -> tuple[RunHeader, list[ResultRow]]:
        """Open for appending, after the caller has checked ``existing`` (``check_same_job``).

        Returns the header in force and the rows to keep: the attempts to skip. Errored attempts
        are dropped from the file so that this run retries them (each attempt still appears
        exactly once); the old summary and a torn last line are cut; the header stays the first
        run's (or this one's, new).
        """
        kept = [row for row in existing.rows if row.error is None]
        head = existing.header if existing.header is not None and kept else header
        if not (existing.rows or existing.header):
            self._header = head  # a run that fails its first check leaves no header behind
            if self.path.is_file() and self.path.stat().st_size:
                self._rewrite(None, [])  # only a torn first line, or a summary: start clean
        elif (
            head is not existing.header
            or len(kept) != len(existing.rows)
            or existing.summary is not None
            or not _ends_with_newline(self.path)  # cut the torn last line
        ):
            self._rewrite(head, kept)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (closed in close())
        except OSError as exc:
            raise UserError(f"cannot write --out {self.path}: {exc.strerror or exc}") from None
        return head, kept

    def _rewrite(self, header: RunHeader | None, rows: list[ResultRow]) -> None:
        """Replace the file whole (written aside, then renamed): safe against SIGKILL."""
        with atomic_writer(self.path) as handle:
            if header is not None:
                handle.write((json.dumps(header.model_dump(), ensure_ascii=False) + "\n").encode())
            for row in rows:
                handle.write((json.dumps(row.to_json_dict(), ensure_ascii=False) + "\n").encode())

    def append(self, row: ResultRow) -> None:
        self._write(row.to_json_dict())

    def write_summary(self, summary: Summary) -> None:
        self._write({"type": "summary", **summary.to_json_dict()})
        if self._file is not None:
            with contextlib.suppress(OSError):  # written and flushed; durability is best effort
                os.fsync(self._file.fileno())

    def _write(self, obj: dict[str, Any]) -> None:
        if self._file is None:
            raise RuntimeError("ResultWriter.start() must be called before writing")
        lines = json.dumps(obj, ensure_ascii=False) + "\n"
        if self._header is not None:
            lines = json.dumps(self._header.model_dump(), ensure_ascii=False) + "\n" + lines
        try:
            self._file.write(lines)
            self._file.flush()
        except OSError as exc:  # a full disk: the rows written so far are whole, and kept
            raise UserError(
                f"cannot write --out {self.path}: {exc.strerror or exc}; the rows written so far "
                "are kept: make room and run the same command to resume"
            ) from None
        self._header = None

    def close(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):  # a full disk was already reported by _write
                self._file.close()
            self._file = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None
