"""Reading JSONL input line by line, with errors that name the file, the line and the field."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ladderbench.errors import UserError


def json_object(path: Path, lineno: int, line: str | bytes) -> dict[str, Any]:
    """One line parsed as a JSON object; anything else is a one-line UserError naming the line."""
    try:
        obj = json.loads(line)
    except RecursionError:
        raise UserError(f"{path}:{lineno}: JSON nested too deeply") from None
    except ValueError as exc:
        reason = getattr(exc, "msg", None)
        raise UserError(
            f"{path}:{lineno}: not valid JSON" + (f" ({reason})" if reason else "")
        ) from None
    if not isinstance(obj, dict):
        raise UserError(f"{path}:{lineno}: expected a JSON object")
    return obj


def json_objects(path: Path, text: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line; anything but a JSON object is an error.

    Lines split on ``\n`` only: a string may hold U+2028, which ``str.splitlines`` would split.
    """
    for lineno, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            yield lineno, json_object(path, lineno, line)


def field_error(
    path: Path, lineno: int, exc: ValidationError, hints: dict[str, str] | None = None
) -> UserError:
    """The first validation error as ``file:line: field 'x': message``.

    ``hints`` maps a pydantic error type to a clearer message for this kind of file.
    """
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"]) or "line"
    message = (hints or {}).get(err["type"]) or err["msg"].removeprefix("Value error, ")
    return UserError(f"{path}:{lineno}: field {loc!r}: {message}")


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise UserError(f"{path}: cannot read ({reason})") from None
