"""How the report scales: time and peak memory to render results files of 10k, 100k and 1M rows.

Each size is rendered in a fresh process (so peak RSS is the report's own), from a synthetic
results file of static-ladder-shaped rows with ~300-character prompts. The baseline in the same
run is `wc -l` over the same file: the cost of merely reading it.

    .venv/bin/python bench/report_scale.py [--sizes 10000,100000,1000000]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RENDER = """
import resource, sys, time
from pathlib import Path
from ladderbench.report.html import render_report
started = time.perf_counter()
html = render_report([Path(sys.argv[1])])
elapsed = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{elapsed:.3f} {peak:.1f} {len(html)}")
"""


def write_rows(path: Path, n: int) -> None:
    rng = random.Random(n)
    prompt = "Answer the following multiple-choice question. " * 6
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            ok = rng.random() < 0.6
            row = {
                "run": "bench",
                "adapter": "openai",
                "model": "bench",
                "suite": "static",
                "id": f"q{i}",
                "family": None,
                "task": None,
                "category": "math",
                "level": 1 + i % 5,
                "tier": None,
                "seed": None,
                "sample": 0,
                "prompt": prompt + str(i),
                "expected": "A",
                "response": "A" if ok else "B",
                "extracted": "A" if ok else "B",
                "score": float(ok),
                "pass": ok,
                "latencyMs": 12.5,
                "usage": {"total_tokens": 99},
                "error": None,
            }
            fh.write(json.dumps(row) + "\n")


def add_summary(path: Path) -> None:
    """Finish the file the way a run does: its summary row last."""
    from ladderbench.runner.results import iter_results
    from ladderbench.suites import summarise_rows

    summary = summarise_rows(iter_results(path), "static", 1)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "summary", **summary}) + "\n")


def render(path: Path) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-c", RENDER, str(path)], check=True, capture_output=True, text=True
    ).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--make", nargs=2, metavar=("PATH", "STEP"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.make:  # a child process, so that the parent's peak memory never grows (maxrss is
        path, step = Path(args.make[0]), args.make[1]  # inherited across fork and exec)
        write_rows(path, int(step)) if step.isdigit() else add_summary(path)
        return
    print(
        "| rows | file MB | `wc -l` s | report, finished run s | / wc | peak RSS MB "
        "| report, run cut short s | peak RSS MB |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.sizes.split(",")):
            path = Path(tmp) / f"rows{n}.jsonl"
            make = [sys.executable, __file__, "--make", str(path)]
            subprocess.run([*make, str(n)], check=True)
            cut_s, cut_mb = render(path)
            subprocess.run([*make, "summary"], check=True)
            started = time.perf_counter()
            subprocess.run(["wc", "-l", str(path)], check=True, capture_output=True)
            wc = time.perf_counter() - started
            seconds, peak = render(path)
            size_mb = path.stat().st_size / 1e6
            print(
                f"| {n:,} | {size_mb:.0f} | {wc:.3f} | {seconds:.2f} | {seconds / wc:.0f}x "
                f"| {peak:.0f} | {cut_s:.2f} | {cut_mb:.0f} |"
            )
            path.unlink()


if __name__ == "__main__":
    main()
