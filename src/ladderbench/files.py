"""Writing files safely: whole or not at all, and one writer at a time.

A file LadderBench replaces (a results file on resume, a live store's files, an export, the
manifest) is written aside, fsynced and renamed over the old one, so a kill or a full disk leaves
the old file or the new one, never half of one; the file aside is removed when writing fails. A
file one process is writing (a results file, a live store being refreshed) is held by an
exclusive lock, so a second process stops with one line naming the holder instead of interleaving.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from ladderbench.errors import UserError


def _failed(path: Path, exc: OSError) -> UserError:
    return UserError(f"cannot write {path}: {exc.strerror or exc}")


@contextlib.contextmanager
def atomic_writer(path: Path) -> Iterator[IO[bytes]]:
    """A binary file to write ``path``'s new content into; on leaving the block it replaces
    ``path`` in one step (fsync, rename). On any error the old file stays and the temporary one
    is removed; an OSError becomes a one-line UserError naming ``path``."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        raise _failed(path, exc) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data``, whole or not at all."""
    with atomic_writer(path) as handle:
        handle.write(data)


class Locked(UserError):
    """Another process holds the lock: one line naming it."""


class ExclusiveLock:
    """An advisory lock on ``target`` (held through ``target`` + ``.lock``, which records the
    holder's PID) for as long as this process needs it; released on ``release`` or exit.

    The lock lives on a separate file because the target itself is replaced by renames, which
    would leave a lock on the old inode behind.
    """

    def __init__(self, target: Path, what: str) -> None:
        self.path = target.with_name(target.name + ".lock")
        self.what = what
        self._handle: IO[str] | None = None

    def acquire(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 (closed in release)
        except OSError as exc:
            raise UserError(f"cannot write {self.what}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise Locked(
                f"{self.what} is in use by another ladderbench process (PID {holder}); wait for "
                f"it to finish or stop it (lock: {self.path})"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._handle = handle

    def release(self) -> None:
        if self._handle is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
            self._handle.close()
            self._handle = None

    def __enter__(self) -> ExclusiveLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
