"""Run the real command line in a subprocess, as a user would (or a snippet in a fresh Python)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import ladderbench as _package


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


def python_output(code: str, *, hash_seed: str, path: list[Path]) -> str:
    """What ``code`` prints (stripped) in a fresh interpreter with ``PYTHONHASHSEED=hash_seed``.

    ``path`` goes in front of ``PYTHONPATH``, after the source tree of the ladderbench imported
    here and this folder (so the child imports the same code, and these helpers). A non-zero exit
    fails with the child's stderr.
    """
    src = Path(_package.__file__).resolve().parents[1]
    env = {
        **os.environ,
        "PYTHONHASHSEED": hash_seed,
        "PYTHONPATH": os.pathsep.join(str(p) for p in [src, Path(__file__).parent, *path]),
    }
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def read_jsonl(path: Path) -> tuple[list[dict], dict | None]:
    """A results file's attempt rows and its summary (the run header is left out)."""
    rows, summary = [], None
    for line in path.read_text(encoding="utf-8").split("\n"):  # an answer may hold U+2028
        if not line:
            continue
        obj = json.loads(line)
        if obj.get("type") == "summary":
            summary = obj
        elif obj.get("type") != "run":
            rows.append(obj)
    return rows, summary
