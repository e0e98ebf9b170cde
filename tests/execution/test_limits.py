"""The process-based time limit: runaway work is killed, results and errors come back, and the
pool of warm workers recovers after a timeout (bounds leave room for a loaded machine)."""

from __future__ import annotations

import contextlib
import os
import threading
import time

import pytest

from ladderbench.execution import limits
from ladderbench.execution.limits import TimeLimitExceeded, call_with_time_limit
from ladderbench.live.tasks import amps_hard
from ladderbench.live.tasks.amps_hard import AmpsHard, AmpsHardConfig

# Generous: the worker is killed after 0.2-0.3 s; a loaded machine may take far longer to notice.
KILLED_WITHIN_S = 20.0


def spin(seconds: float) -> None:
    """Busy CPU work that never looks at signals."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def add(a: int, b: int) -> int:
    return a + b


def pid() -> int:
    return os.getpid()


def fail(message: str) -> None:
    raise ValueError(message)


def unpicklable_result() -> object:
    return threading.Lock()


def exit_hard() -> None:
    os._exit(3)


def test_results_come_back() -> None:
    assert call_with_time_limit(add, 41, 1, seconds=5) == 42
    assert call_with_time_limit(pid, seconds=5) != os.getpid()  # run in another process


def test_a_runaway_computation_is_killed() -> None:
    start = time.monotonic()
    with pytest.raises(TimeLimitExceeded, match=r"limit of 0\.3 s"):  # would spin for 60 s
        call_with_time_limit(spin, 60, seconds=0.3)
    assert time.monotonic() - start < KILLED_WITHIN_S


def test_a_timeout_is_a_timeout_error() -> None:
    """Callers that catch TimeoutError keep working."""
    with pytest.raises(TimeoutError):
        call_with_time_limit(time.sleep, 60, seconds=0.2)


def test_the_killed_worker_is_gone_and_the_next_call_gets_a_fresh_one() -> None:
    limits.shutdown()  # one idle worker at most, so the spinning call gets the one asked about
    before = call_with_time_limit(pid, seconds=5)
    with pytest.raises(TimeLimitExceeded):
        call_with_time_limit(spin, 60, seconds=0.3)
    assert not _exists(before)  # killed and reaped, not left spinning
    after = call_with_time_limit(pid, seconds=5)
    assert after != before
    assert call_with_time_limit(add, 1, 2, seconds=5) == 3


def _exists(process_id: int) -> bool:
    try:
        os.kill(process_id, 0)
    except ProcessLookupError:
        return False
    return True


def test_warm_workers_are_reused() -> None:
    first = call_with_time_limit(pid, seconds=5)
    assert call_with_time_limit(pid, seconds=5) == first


def test_exceptions_come_back_with_the_remote_traceback() -> None:
    with pytest.raises(ValueError, match="bad input") as info:
        call_with_time_limit(fail, "bad input", seconds=5)
    assert isinstance(info.value.__cause__, limits.RemoteTraceback)
    assert "fail" in str(info.value.__cause__)
    assert call_with_time_limit(add, 2, 2, seconds=5) == 4  # the worker survived


def test_an_unpicklable_result_is_an_error_not_a_hang() -> None:
    with pytest.raises(TypeError, match="cannot be sent back"):
        call_with_time_limit(unpicklable_result, seconds=5)


def test_an_unpicklable_function_is_refused() -> None:
    with pytest.raises(Exception):  # noqa: B017 (pickle's error types vary by version)
        call_with_time_limit(lambda: 1, seconds=5)
    assert call_with_time_limit(add, 1, 1, seconds=5) == 2


def test_a_worker_that_dies_is_reported_and_replaced() -> None:
    with pytest.raises(limits.WorkerDied, match="exit code 3"):
        call_with_time_limit(exit_hard, seconds=5)
    assert call_with_time_limit(add, 1, 1, seconds=5) == 2


def test_works_off_the_main_thread_and_concurrently() -> None:
    out: dict[int, object] = {}

    def body(k: int) -> None:
        try:
            out[k] = call_with_time_limit(add, k, 100, seconds=10)
            call_with_time_limit(time.sleep, 60, seconds=0.3)
        except TimeoutError:
            out[-k - 1] = "timeout"

    workers = [threading.Thread(target=body, args=(k,)) for k in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
    assert out == {0: 100, 1: 101, 2: 102, -1: "timeout", -2: "timeout", -3: "timeout"}


def test_a_bad_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="positive"):
        call_with_time_limit(add, 1, 1, seconds=0)


def test_shutdown_stops_idle_workers() -> None:
    call_with_time_limit(add, 1, 1, seconds=5)
    limits.shutdown()
    assert call_with_time_limit(add, 1, 1, seconds=5) == 2  # a fresh worker starts


def _pipe_inodes(pid: int) -> set[int]:
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            inodes.add(os.stat(f"/proc/{pid}/fd/{fd}").st_ino)
    return inodes


def test_children_never_hold_the_parents_other_pipes() -> None:
    """A warm child must not keep another pipe of this process open (its reader would hang)."""
    limits.shutdown()
    read_end, write_end = os.pipe()  # as a sandbox run or the model worker would hold
    try:
        assert call_with_time_limit(add, 2, 3, seconds=30) == 5  # a fresh child
        children = [w.process.pid for w in limits._idle]
        assert children
        pipe = os.fstat(write_end).st_ino
        for pid in children:
            assert pipe not in _pipe_inodes(pid)
    finally:
        os.close(read_end)
        os.close(write_end)


def test_a_fresh_child_imports_before_the_clock_starts() -> None:
    """The first call of a fresh child is not charged for importing the function's module."""
    limits.shutdown()
    assert call_with_time_limit(amps_hard.check_answer, {"subtask": "gcd", "ground_truth": "6"},
                                "6", seconds=5)  # fmt: skip


# ---------------------------------------------------------------- amps_hard through the limit


def amps_record(subtask: str, truth: str, **fields: object) -> dict:
    return {"subtask": subtask, "ground_truth": truth, **fields}


def test_amps_hard_scores_equal_and_different_expressions_through_the_worker() -> None:
    task = AmpsHard()
    square = amps_record("complete_square", "2*(x - 3/4)**2 + 7/8", polynomial="2*x**2 - 3*x + 2")
    assert (
        task.score(
            square, "<solution>2\\left(x-\\frac{3}{4}\\right)^2+\\frac{7}{8}</solution>"
        ).score
        == 1.0
    )
    assert task.score(square, "<solution>2(x-3/4)^2 + 1</solution>").score == 0.0
    integral = amps_record("integral", "-cos(x)", integrand="sin(x)")
    assert task.score(integral, "<solution>-\\cos x + C</solution>").score == 1.0
    assert task.score(integral, "<solution>\\cos x</solution>").score == 0.0


def slow_check(record: dict, answer: str) -> bool:
    spin(60)
    return True


def test_amps_hard_scores_zero_when_the_comparison_runs_out_of_time(monkeypatch) -> None:
    rec = amps_record("gcd", "42", numbers=[42, 84])
    task = AmpsHard(AmpsHardConfig(time_limit_s=0.3))
    assert task.score(rec, "<solution>42</solution>").score == 1.0
    monkeypatch.setattr(amps_hard, "check_answer", slow_check)
    start = time.monotonic()
    assert task.score(rec, "<solution>42</solution>").score == 0.0
    assert time.monotonic() - start < KILLED_WITHIN_S
