"""A time limit for slow graders that kills runaway work instead of abandoning it.

Python cannot stop a thread, and a signal timer fires only on the main thread, while the runner
grades in worker threads. So the timed call runs in a child process, and the child is killed when
the time is up. Forking a process per call would cost milliseconds on every grade; a release
makes hundreds of them, so children are kept warm and reused: each serves one call at a time over
a pipe, a killed one is simply replaced on the next call, and a few idle ones are kept for the
next callers (one per concurrent caller while calls overlap).

Each child is a fresh interpreter (``python -m ladderbench.execution.limits``) talking over its
own two pipes, never a fork of this process: a fork would copy whatever file descriptors the parent
holds at that moment, such as the pipes of a sandbox run or of the model worker that another thread
is starting, and a warm child would keep them open for good (a reader waiting for EOF would hang);
and a fork server or spawn would run a caller's unguarded ``__main__`` again. A fresh child is made
ready before its first timed call (the module of the function it is sent is imported then,
untimed), so the limit measures the call alone. A child runs only what it is sent; it ignores
Ctrl-C (the parent's to handle) and exits when its parent is gone.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

T = TypeVar("T")

MAX_IDLE_WORKERS = 4
WARM_UP_S = 120.0  # a fresh child's untimed import of the function's module, on a loaded machine
_PARENT_CHECK_S = 1.0  # how often an idle child looks for its parent


class TimeLimitExceeded(TimeoutError):
    """The call ran past its time limit; the process running it was killed."""


class WorkerDied(RuntimeError):
    """The process running the call ended without an answer (killed, out of memory, crashed)."""


class RemoteTraceback(Exception):
    """The traceback of an exception raised in the child, attached as the exception's cause."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0]) if self.args else ""


def _serve(requests: Connection, replies: Connection, parent: int) -> None:
    """A child's loop: receive (fn, args), send back (True, result) or (False, exception, tb).

    ``args`` None is the warm-up: unpickling ``fn`` imported its module; answer that it is ready.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        if not requests.poll(_PARENT_CHECK_S):
            if os.getppid() != parent:
                return
            continue
        try:
            fn, args = requests.recv()
            reply: tuple[Any, ...] = (True, None if args is None else fn(*args))
        except EOFError:
            return
        except Exception as exc:
            reply = (False, exc, traceback.format_exc())
        try:
            replies.send(reply)
        except Exception as exc:  # a result or exception that cannot be pickled
            kind = "result" if reply[0] else f"exception {type(reply[1]).__name__}"
            replies.send((False, TypeError(f"the {kind} cannot be sent back: {exc}"), ""))


def _child_main() -> None:
    """The child's entry: the parent's import path, then requests on stdin, replies on a private
    copy of stdout (fd 1 goes to stderr, so that what ``fn`` prints cannot corrupt a reply)."""
    replies = Connection(os.dup(1), readable=False)
    os.dup2(2, 1)
    requests = Connection(0, writable=False)
    sys.path[:] = requests.recv()
    _serve(requests, replies, os.getppid())


class _Worker:
    """One child process and the parent's ends of its two pipes (requests in, replies out)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", __name__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,  # Ctrl-C at the terminal is the parent's to handle
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.requests = Connection(os.dup(self.process.stdin.fileno()), readable=False)
        self.replies = Connection(os.dup(self.process.stdout.fileno()), writable=False)
        self.process.stdin.close()
        self.process.stdout.close()
        self.requests.send(list(sys.path))
        self.ready: set[str] = set()  # modules whose functions this child has imported

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...], seconds: float) -> Any:
        """The child's reply to fn(*args): (True, result) or (False, exception, traceback text).

        Kills the child and raises when it does not answer in time or dies first.
        """
        module = getattr(fn, "__module__", "")
        if module not in self.ready:  # untimed: the child imports fn's module (sympy, say)
            self._exchange(fn, None, WARM_UP_S)
            self.ready.add(module)
        return self._exchange(fn, args, seconds)

    def _exchange(
        self, fn: Callable[..., Any], args: tuple[Any, ...] | None, seconds: float
    ) -> Any:
        self.requests.send((fn, args))
        if not self.replies.poll(seconds):
            self.kill()
            raise TimeLimitExceeded(f"{_name(fn)} ran past its limit of {seconds:g} s")
        try:
            return self.replies.recv()
        except EOFError:
            self.kill()
            raise WorkerDied(
                f"{_name(fn)}: the worker process ended (exit code {self.process.returncode})"
            ) from None

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.requests.close()
        self.replies.close()


def _name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__qualname__", None) or repr(fn)


_idle: list[_Worker] = []
_idle_lock = threading.Lock()


def _take() -> _Worker:
    with _idle_lock:
        while _idle:
            worker = _idle.pop()
            if worker.alive():
                return worker
            worker.kill()
    return _Worker()


def _put_back(worker: _Worker) -> None:
    with _idle_lock:
        if len(_idle) < MAX_IDLE_WORKERS:
            _idle.append(worker)
            return
    worker.kill()


def call_with_time_limit(fn: Callable[..., T], *args: Any, seconds: float) -> T:
    """``fn(*args)`` run in a child process; TimeLimitExceeded when it takes over ``seconds``.

    ``fn`` must be a module-level function of an importable module (not a script's ``__main__``)
    and its arguments and result picklable. Exceptions
    raised by ``fn`` are raised here (the child's traceback as their cause). The limit is wall
    time, counted from when the call reaches the child; a child that runs out of time is killed,
    so nothing keeps running (or holding the GIL) after the caller has moved on.
    """
    if not seconds > 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    worker = _take()
    try:
        reply = worker.call(fn, args, seconds)
    except BaseException:
        worker.kill()  # timed out, died, not sent, or interrupted while waiting: start afresh
        raise
    _put_back(worker)
    if reply[0]:
        return reply[1]
    _, exc, remote = reply
    raise exc from (RemoteTraceback(remote) if remote else None)


def shutdown() -> None:
    """Stop the idle children now (they also stop when this process exits)."""
    with _idle_lock:
        workers, _idle[:] = list(_idle), []
    for worker in workers:
        worker.kill()


if __name__ == "__main__":
    _child_main()
