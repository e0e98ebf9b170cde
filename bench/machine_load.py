"""How much of the machine other processes used while a benchmark ran (Linux ``/proc/stat``).

Wall-clock figures on a shared 2-core machine are skewed by whatever else runs (another
engineer's test suite, a demo): the benchmarks report this so that a skewed run is visible.
"""

from __future__ import annotations

import os
import resource
import time


def _busy_seconds() -> float | None:
    """CPU seconds the whole machine spent busy since boot, or None off Linux."""
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            fields = [int(x) for x in fh.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields) - idle) / os.sysconf("SC_CLK_TCK")


def _own_seconds() -> float:
    """CPU seconds of this process and its waited-for children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


class OtherLoad:
    """Context manager: CPU seconds used by other processes between enter and exit.

    Children must have been waited for before exit, or their CPU counts as other work.
    """

    def __enter__(self) -> OtherLoad:
        self.busy0 = _busy_seconds()
        self.own0 = _own_seconds()
        self.wall0 = time.perf_counter()
        self.other: float | None = None
        self.wall = 0.0
        return self

    def __exit__(self, *exc: object) -> None:
        busy = _busy_seconds()
        self.wall = time.perf_counter() - self.wall0
        if busy is not None and self.busy0 is not None:
            self.other = max(0.0, busy - self.busy0 - (_own_seconds() - self.own0))

    @property
    def share(self) -> float | None:
        """Other processes' CPU as a share of the machine's capacity over the run."""
        if self.other is None or self.wall <= 0:
            return None
        return self.other / (self.wall * (os.cpu_count() or 1))

    def note(self, threshold: float = 0.05) -> str:
        """A sentence for the report, with a warning when others used more than ``threshold``."""
        if self.share is None:
            return "Other processes' CPU use could not be read (no /proc/stat)."
        text = (
            f"Other processes used {self.other:.1f} CPU-s during the {self.wall:.0f} s run "
            f"({self.share:.0%} of the machine)."
        )
        if self.share > threshold:
            text += (
                " **Warning:** the machine was not quiet, so the wall-clock figures are skewed;"
                " rerun on a quiet machine."
            )
        return text
