"""``ladderbench report --html`` on the demo-size results: whole command, and where the time goes.

A benchmark, not a test: it measures and prints Markdown tables, and asserts nothing.

The results are made the way the README's demo makes them, with the ``random`` model (no model
file needed): the static ladder (150 rows) and the puzzles at seeds 1-2 (48 rows). Measured in
the same run, each the median of ``--reps`` repetitions, interleaved (a, b, c, a, b, c, ...):

  (a) ``ladderbench report A P``: the tables only (start-up, each file's tail): the baseline;
  (b) ``ladderbench report A P --html OUT``, warm: the grader-probe verdicts already cached;
  (c) the same, cold: an empty probe cache, so every grader used is probed (as before the cache,
      on every render).

Then, in one process after the imports: reading the two files (one pass each), the probe
verdicts from the cache and probed afresh, and rendering the page.

Usage: ``.venv/bin/python bench/report_demo.py [--reps 5]``
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine_load import OtherLoad
from timing import median_time

LADDERBENCH = [sys.executable, "-m", "ladderbench"]


def make_results(folder: Path, env: dict[str, str]) -> list[Path]:
    static, puzzles = folder / "A.jsonl", folder / "P.jsonl"
    for extra, out in (([], static), (["--suite", "puzzles", "--seeds", "1-2"], puzzles)):
        cmd = [*LADDERBENCH, "run", "--model", "random", *extra, "--out", str(out), "--quiet"]
        subprocess.run(cmd, check=True, env=env, capture_output=True)
    return [static, puzzles]


def timed(cmd: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, OtherLoad() as load:
        folder = Path(tmp)
        env = {**os.environ, "LADDERBENCH_CACHE": str(folder / "responses.sqlite")}
        warm_env = {**env, "LADDERBENCH_PROBE_CACHE": str(folder / "probe-warm")}
        paths = make_results(folder, env)
        rows = sum(len(p.read_text().splitlines()) - 1 for p in paths)
        files = [str(p) for p in paths]
        html = ["--html", str(folder / "report.html")]
        timed([*LADDERBENCH, "report", *files, *html], warm_env)  # fills the warm cache
        runs: dict[str, list[float]] = {"a": [], "b": [], "c": []}
        for rep in range(args.reps):
            cold_env = {**env, "LADDERBENCH_PROBE_CACHE": str(folder / f"probe-cold-{rep}")}
            runs["a"].append(timed([*LADDERBENCH, "report", *files], warm_env))
            runs["b"].append(timed([*LADDERBENCH, "report", *files, *html], warm_env))
            runs["c"].append(timed([*LADDERBENCH, "report", *files, *html], cold_env))

        os.environ["LADDERBENCH_PROBE_CACHE"] = warm_env["LADDERBENCH_PROBE_CACHE"]
        from ladderbench.analysis.digest import digest_runs
        from ladderbench.probe.verdicts import (
            ladder_path,
            probe_builtin,
            shipped_verdicts,
            source_fingerprint,
        )
        from ladderbench.report.html import _probe_verdicts, _section, render

        digests = digest_runs(paths)
        graders = [v.grader for v in _probe_verdicts([_section(d) for d in digests])]
        phases = {
            "read both files (`digest_runs`, one pass each)": median_time(
                args.reps, lambda: digest_runs(paths)
            ),
            "source fingerprint of the graders (first call; memoised after)": median_time(
                args.reps, lambda: source_fingerprint.__wrapped__()
            ),
            f"probe verdicts of the {len(graders)} graders used, from the cache": median_time(
                args.reps, lambda: shipped_verdicts(graders)
            ),
            f"probe verdicts of the {len(graders)} graders used, probed afresh": median_time(
                args.reps, lambda: [probe_builtin(g, ladder_path(g)) for g in graders]
            ),
            "render the page (`render`, verdicts cached)": median_time(
                args.reps, lambda: render(digests)
            ),
        }

    print(
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}. {load.note()}\n"
    )
    print(f"Results: {rows} rows in 2 files ({', '.join(p.name for p in paths)}).\n")
    print("| command | median s | min s | vs (a) |")
    print("|---|---:|---:|---:|")
    names = {
        "a": "(a) `ladderbench report A P`: tables only — baseline",
        "b": "(b) `ladderbench report A P --html OUT`, probe verdicts cached (warm)",
        "c": "(c) the same, empty probe cache (cold: every grader probed, as before the cache)",
    }
    base = statistics.median(runs["a"])
    for key, label in names.items():
        median = statistics.median(runs[key])
        print(f"| {label} | {median:.3f} | {min(runs[key]):.3f} | {median / base:.2f}x |")
    print("\n| in one process, after the imports | median s |")
    print("|---|---:|")
    for label, seconds in phases.items():
        print(f"| {label} | {seconds:.4f} |")


if __name__ == "__main__":
    main()
