"""What a run records about where its results came from: versions, revision, date, command.

lm-eval and Inspect logs carry the same; a results file read a year later should say which code,
which questions and which command produced it. Secrets never enter: the command line is scrubbed
of the values of secret options and of secret environment variables.
"""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from ladderbench.items import Item

SECRET_OPTIONS = ("--api-key", "--secret-key")
SECRET_ENVIRONMENT = ("OPENAI_API_KEY", "LADDERBENCH_SECRET", "LADDERBENCH_LIVE_SECRET")
HIDDEN = "***"


def package_version() -> str:
    try:
        return version("ladderbench")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def git_revision() -> str | None:
    """The commit of the source tree ladderbench runs from (``+dirty`` if changed), if any."""
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5
        )
        if head.returncode != 0:
            return None
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", "."],
            cwd=here.parent,
            capture_output=True,
            text=True,
            timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def scrub_command(argv: Sequence[str]) -> list[str]:
    """The command line with every secret replaced: option values and known secret variables."""
    secrets = [os.environ[name] for name in SECRET_ENVIRONMENT if os.environ.get(name)]
    scrubbed: list[str] = []
    hide_next = False
    for arg in argv:
        if hide_next:
            scrubbed.append(HIDDEN)
            hide_next = False
            continue
        option, eq, _ = arg.partition("=")
        if option in SECRET_OPTIONS:
            if eq:
                scrubbed.append(f"{option}={HIDDEN}")
            else:
                scrubbed.append(arg)
                hide_next = True
            continue
        for secret in secrets:
            arg = arg.replace(secret, HIDDEN)
        scrubbed.append(arg)
    return scrubbed


def questions_digest(items: Iterable[Item]) -> str:
    """SHA-256 over the questions a run asks (id, prompt, gold answer), in id order: two runs
    with the same digest asked the same questions, whatever the suite version says."""
    digest = hashlib.sha256()
    for item in sorted(items, key=lambda item: item.id):
        for part in (item.id, item.prompt, item.expected):
            digest.update(part.encode("utf-8"))
            digest.update(b"\0")
    return digest.hexdigest()


def provenance(items: Iterable[Item] | None, command: Sequence[str] | None) -> dict[str, Any]:
    """The provenance block of a run header; ``items`` None for a suite that picks its items as
    it goes (an adaptive search), whose questions are in its rows."""
    record: dict[str, Any] = {
        "ladderbench": package_version(),
        "revision": git_revision(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    if items is not None:
        record["questionsSha256"] = questions_digest(items)
    if command is not None:
        record["command"] = scrub_command(command)
    return record
