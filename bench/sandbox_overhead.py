"""Sandbox overhead per answer: the sealed root of issue #19 against the boundary before it.

A benchmark, not a test: it prints a Markdown table and asserts nothing.

Both boundaries are built on this machine in the same run and timed interleaved (one answer with
one, then one with the other), so that the machine's load falls on both alike:

  before: namespaces with a private tmpfs work directory and /proc, the host's files in sight
          (``sandbox._private_mounts``, today's fallback);
  sealed: the same plus pivot_root into a read-only root holding only what the interpreter needs
          (``sandbox.isolation()`` where it is sealed).

An answer is a short solution run against 10 hidden tests (``run_tests``), the unit the coding
tasks grade; the figure is the median wall time per answer, and the ratio sealed / before.
Run it as root and as an ordinary user (``runuser -u nobody -- ...`` with an interpreter that
user may run) to see both ways of making the namespaces.

Usage: ``.venv/bin/python bench/sandbox_overhead.py [--answers 40]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import time

from machine_load import OtherLoad

from ladderbench.execution import sandbox
from ladderbench.execution.sandbox import Isolation, run_tests

ANSWER = (
    "from collections import Counter\ndef f(xs):\n    return Counter(xs).most_common(1)[0][0]\n"
)
TESTS = [([[i % 3, i % 5, i % 3]], i % 3) for i in range(10)]


def _boundaries() -> dict[str, Isolation]:
    sealed = sandbox.isolation()
    if not sealed.sealed:
        raise SystemExit(f"no sealed root on this machine: {sealed.note}")
    unshare, setpriv = shutil.which("unshare"), shutil.which("setpriv")
    assert unshare and setpriv
    drop = sealed.drop_to
    before = sandbox._private_mounts(unshare, setpriv, drop)
    if isinstance(before, str):
        raise SystemExit(f"the boundary before issue #19 does not work here: {before}")
    return {"before": before, "sealed": sealed}


def _one_answer(iso: Isolation) -> float:
    sandbox._ISOLATION = iso
    started = time.perf_counter()
    report = run_tests(ANSWER, "f", TESTS, allow_unsafe=True)  # "before" has no file boundary
    seconds = time.perf_counter() - started
    if not report.passed:
        raise SystemExit(f"the answer failed under {iso.note}: {report.failures}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=40, help="answers per boundary")
    args = parser.parse_args()
    boundaries = _boundaries()
    times: dict[str, list[float]] = {name: [] for name in boundaries}
    for iso in boundaries.values():  # warm-up, untimed
        _one_answer(iso)
    with OtherLoad() as load:
        for _ in range(args.answers):
            for name, iso in boundaries.items():
                times[name].append(_one_answer(iso))
    median = {name: statistics.median(values) * 1000 for name, values in times.items()}
    user = "root" if os.geteuid() == 0 else f"uid {os.geteuid()}"
    print(f"As {user}, {args.answers} answers each (10 hidden tests per answer), interleaved.\n")
    print("| boundary | how | median ms per answer | p90 ms |")
    print("|---|---|---:|---:|")
    for name, iso in boundaries.items():
        p90 = statistics.quantiles(times[name], n=10)[-1] * 1000
        print(f"| {name} | {iso.note} | {median[name]:.1f} | {p90:.1f} |")
    ratio = median["sealed"] / median["before"]
    extra = median["sealed"] - median["before"]
    print(f"\nsealed / before: {ratio:.2f}x ({extra:+.1f} ms per answer). {load.note()}")


if __name__ == "__main__":
    main()
