"""Helper for the benchmarks: the median wall time of repeated calls."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median_time(reps: int, fn: Callable[[], Any]) -> float:
    """Median seconds of ``reps`` calls of ``fn``, each timed on its own."""
    times = []
    for _ in range(reps):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)
