"""Run the real command line in a subprocess, as a user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def ladderbench(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    full_env = {
        "COLUMNS": "200",
        **os.environ,
        "LADDERBENCH_CACHE": os.environ.get("LADDERBENCH_CACHE", ""),
        **(env or {}),
    }
    if not full_env["LADDERBENCH_CACHE"]:
        full_env.pop("LADDERBENCH_CACHE")
    return subprocess.run(
        [sys.executable, "-m", "ladderbench", *args],
        capture_output=True,
        text=True,
        env=full_env,
        cwd=cwd,
        timeout=timeout,
    )


def read_jsonl(path: Path) -> tuple[list[dict], dict | None]:
    rows, summary = [], None
    for line in path.read_text().splitlines():
        obj = json.loads(line)
        if obj.get("type") == "summary":
            summary = obj
        else:
            rows.append(obj)
    return rows, summary
