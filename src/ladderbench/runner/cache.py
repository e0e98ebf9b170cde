"""SQLite response cache: the same request to the same model is never paid for twice."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ladderbench.errors import UserError
from ladderbench.items import Completion
from ladderbench.models.base import Request


def default_cache_path() -> Path:
    """``$LADDERBENCH_CACHE`` or ``~/.cache/ladderbench/responses.sqlite``."""
    env = os.environ.get("LADDERBENCH_CACHE")
    if env:
        return Path(env)
    return Path.home() / ".cache" / "ladderbench" / "responses.sqlite"


def cache_key(adapter_settings: dict[str, Any], request: Request) -> str:
    """Hash of the adapter (kind, model, endpoint or file), the request and sampling parameters."""
    blob = json.dumps(
        {"adapter": adapter_settings, "request": request.cache_payload()},
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(blob.encode()).hexdigest()


class ResponseCache:
    """Successful completions only: an error is always retried on the next run.

    The cache only ever saves money: a row it cannot read is a miss, and a cache another process
    holds locked past ``BUSY_MS`` is skipped for that request, never a crashed run. A file that
    is not this cache (another schema, not SQLite) is refused at the start in one line.
    """

    BUSY_MS = 5000

    def __init__(self, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute(f"PRAGMA busy_timeout={self.BUSY_MS}")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, completion TEXT)"
            )
            columns = [row[1] for row in self._db.execute("PRAGMA table_info(responses)")]
        except (OSError, sqlite3.Error) as exc:
            raise UserError(f"response cache {path}: {exc}; pass --no-cache or fix it") from exc
        if columns != ["key", "completion"]:
            self._db.close()
            raise UserError(
                f"response cache {path}: not a LadderBench cache (its responses table has "
                f"columns {', '.join(columns)}); pass --no-cache or set LADDERBENCH_CACHE"
            )

    def get(self, key: str) -> Completion | None:
        try:
            row = self._db.execute(
                "SELECT completion FROM responses WHERE key = ?", (key,)
            ).fetchone()
            completion = None if row is None else Completion.model_validate_json(row[0])
        except (sqlite3.Error, ValidationError, TypeError):
            return None  # locked, or a row this version cannot read: ask the model again
        return None if completion is None else completion.model_copy(update={"cached": True})

    def put(self, key: str, completion: Completion) -> None:
        if completion.error is not None:
            return
        with contextlib.suppress(sqlite3.Error):  # locked or full: the answer is in the results
            self._db.execute(
                "INSERT OR REPLACE INTO responses VALUES (?, ?)",
                (key, completion.model_dump_json(exclude={"cached"})),
            )

    def close(self) -> None:
        self._db.close()
