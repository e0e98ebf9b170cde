"""Run model-written Python functions against hidden tests, contained.

The coding tasks must execute code that a model wrote. This module is the only place that does.

Design (one answer = one run):

1. **What crosses the boundary.** The untrusted process receives the code and the test *inputs*
   only; it sends back the value the function returned for each input. The trusted parent compares
   them with the expected outputs, which never enter the sandbox. So the untrusted code cannot
   forge a pass: printing a fake verdict, overwriting the harness or writing into the result file
   can only misreport its own return values, and reporting the right ones is solving the problem.
   The result line carries a random per-run nonce ("RESULT <nonce> <values>") only to tell it
   from anything else that lands in the file; soundness does not rest on the nonce being secret.

2. **Processes.** ``[unshare --net --pid --mount --fork --kill-child --mount-proc --]
   [sh -c MOUNT-STEP] [setpriv --no-new-privs --] python -I -S -B -c HARNESS JOB_FD RESULT_FD
   RUN_DIR`` runs in a new session (its own process group) with a fresh empty directory as cwd
   (in the run's own mount namespace, a tmpfs mounted on it: see 3), stdin and stdout/stderr on
   /dev/null and a minimal environment (no inherited secrets such as OPENAI_API_KEY). The job
   and the result file are open descriptors it inherits (a sealed run cannot see its run
   directory on the host); RUN_DIR only names the run. The harness is a *supervisor*: it reads
   the job, pre-imports the allowed standard-library modules the code names, and forks one
   *worker* that sets the resource limits, drops privileges, installs an audit hook, and only
   then compiles and runs the model's code on each input (its prints go to a buffer).

   In the namespaces the supervisor is PID 1: when it exits, or is killed (``--kill-child`` sends
   it SIGKILL when ``unshare`` dies), the kernel kills every process left in the namespace, so
   nothing the code forks, daemonises or ``setsid()``-s survives the run. The parent waits for the
   run without reaping it, kills the whole process group (``os.killpg``, SIGKILL) on the
   wall-clock timeout and also after every run, then reaps, reads the result file (capped) and
   removes the temporary directory. Should the parent die first, the supervisor's own alarm (the
   wall-clock limit plus 2 s) kills the worker, and the namespace ends with the supervisor.

3. **Limits** (set by the worker with ``setrlimit``, soft = hard, so the code cannot raise them):
   RLIMIT_CPU (CPU seconds; SIGXCPU then SIGKILL), RLIMIT_AS (address space, 512 MiB:
   allocations beyond it raise MemoryError), RLIMIT_FSIZE (1 MiB per file; Python ignores
   SIGXFSZ so writes fail with EFBIG), RLIMIT_NPROC (16 processes of the sandbox user),
   RLIMIT_NOFILE (32), RLIMIT_CORE (0); plus the parent's wall-clock timeout. The total written
   is capped by the filesystem: the work directory is a tmpfs of ``Limits.disk_bytes`` (32 MiB,
   4096 files) mounted by the mount step inside the run's own mount namespace, so writes beyond
   it fail with ENOSPC, nothing reaches the host's disk, and the mount is gone with the namespace.
   The run's /proc is its own too (``--mount-proc``): it shows the run's processes only. None of
   these limits lives in state the code can reach: the hook's count of files opened for writing
   (below) can be rewritten from inside (its frame is in the traceback of its own
   PermissionError), so it is a tripwire, not the cap.

4. **The file boundary (issue #19): a sealed root.** The run's mount namespace gets a root of
   its own. The parent lays out a skeleton under the run directory (empty folders and files, mount
   points only) and an fstab; the mount step (``mount --all --fstab``) binds the skeleton onto
   itself read-only (nosuid, nodev, noexec), binds read-only at their own paths what the
   interpreter needs and nothing else (the interpreter, the standard library, the loader and the
   folders of the shared libraries that ``ldd`` lists for the interpreter, ``setpriv`` and
   ``umount``, found once per process), binds /dev/null, zero, random and urandom, mounts the
   tmpfs work directory at /work and a fresh /proc of the run's PID namespace; then
   ``pivot_root . .`` makes the skeleton the root and ``umount -l .`` detaches the host's root,
   so no path, ``..`` or /proc link leads back to it. The run sees /work, /proc, /dev and the
   interpreter's read-only files: no home directories, /tmp, /dev/shm, /etc, other users' files,
   the working tree or the results folder. The interpreter is the base installation's (never a
   virtual environment: ``-I -S`` needs no site-packages), at its own path: under /root for a
   pyenv Python, where the run then sees the folders leading to the installation and the
   installation itself, read-only, and nothing else of /root.

   What each layer guarantees, and for whom:

   =====================  ==================================  ================================
   layer                  as root (CI, this machine)          as an ordinary user
   =====================  ==================================  ================================
   sealed root            the files above only, read-only     the same, via ``unshare --user
                          but /work (pivot_root, old root     --map-root-user``; the caller is
                          detached)                           root inside, with no capability
   user                   the worker drops to ``nobody``      the caller's uid (no other is
                          (checked: it cannot regain root),   mapped); setpriv empties the
                          so it can neither signal nor        bounding set, so neither the
                          trace the supervisor; setpriv       supervisor nor the code can
                          --no-new-privs                      mount, unmount or pivot
   tmpfs /work            a cap on all bytes and files written, for both
   PID namespace, /proc   nothing survives the run; only the run's processes are visible
   network namespace      no network (loopback, down), for both
   rlimits                CPU, memory, file size, files, processes (as root per ``nobody``)
   audit hook             defence in depth only: its absence (``audit_hook=False``, a switch for
                          the tests) is what the escape corpus runs under
   =====================  ==================================  ================================

5. **Falling back, and refusing.** Which isolation this machine allows is found once per process
   with a probe (it must see PID 1, a network namespace other than ours, only its own process in
   /proc, a tmpfs of the size it asked for and, sealed, not its run directory) and cached in
   ``isolation()``. Tried in order: the sealed root; the mount namespace with the tmpfs work
   directory but the host's files in sight (the boundary before issue #19); ``--net --pid``
   alone; nothing. ``Isolation.note`` says, in one line, how runs are made and why each stronger
   way failed. Only the sealed root is a file boundary: below it, running untrusted code raises
   a one-line ``UserError`` naming what is missing (util-linux ``unshare``, ``mount``,
   ``umount``, ``pivot_root``, ``setpriv``; ``ldd``; user namespaces allowed by the kernel)
   unless the caller passes ``allow_unsafe=True`` or runs inside ``unsafe_allowed(True)`` (the
   live suite does, when its config says ``--unsafe-allow-code``); then the run has whatever the
   lower step gives, the user switch, the limits and the hook. bubblewrap is neither needed nor
   used (util-linux is on every Linux, and one way to build the boundary is enough); nor is
   Landlock, which Python reaches only through ctypes, a module the harness must not load.

6. **Audit hook** (defence in depth, installed before the model's code is compiled; its
   constants are compiled into it and the builtins it calls are bound when it is made, so
   patching modules or ``builtins`` does not loosen it): ``open`` only of plain ``str``/``bytes``
   paths inside the work directory (at most 32 opens for writing); every ``os.*`` event
   (``system``, ``exec*``, ``fork``, ``posix_spawn``, ``kill``, ``killpg``, ``chdir``...),
   ``socket.*``, ``subprocess.*``, ``ctypes.*``, ``_thread.*``, ``signal.*``, ``resource.*``,
   ``gc.*``, ``marshal.*``, ``code.__new__``, ``sys.settrace``/``setprofile``/``addaudithook`` and
   every import that would load a module are refused. A module already in ``sys.modules`` is
   handed out without that event, so the code can import what the interpreter and the harness
   loaded (``os``, ``posix``, ``_thread``, ``_imp``, ``gc``, ``io``, ``marshal``, ``resource``...):
   their audited functions are refused by event, the rest (``os.getpid``, say) are not. The
   supervisor pre-imports, before the fork, the modules of ``ALLOWED_MODULES`` that the code
   names (so a user that cannot read the standard library, such as ``nobody`` when Python lives
   under /root, still has them); any module not loaded raises ModuleNotFoundError, in every
   environment alike. Paths are normalised lexically
   (relative ones against the work directory); no symlink can be made to lead elsewhere, since
   ``os.symlink`` is refused.

What the hook cannot stop, the operating system does: code that gets past the hook (a crafted
interpreter crash, say) is still in its sealed root, without network, limited by rlimits and the
tmpfs, without capabilities (as root: ``nobody``), and killed with its namespace. The escape
corpus (tests/live/sandbox_escapes.py) runs as root and as an unprivileged user, with and
without the hook.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import functools
import marshal
import math
import os
import pwd
import re
import secrets
import select
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ladderbench.errors import UserError

__all__ = [
    "ALLOWED_MODULES",
    "Isolation",
    "Limits",
    "Outcome",
    "RunResult",
    "TestReport",
    "isolation",
    "outputs_match",
    "run_function",
    "run_tests",
    "unsafe_allowed",
]

# Standard-library modules the code may import (pre-imported by the supervisor when named).
ALLOWED_MODULES: tuple[str, ...] = (
    "abc",
    "array",
    "bisect",
    "calendar",
    "cmath",
    "collections",
    "collections.abc",
    "contextlib",
    "copy",
    "dataclasses",
    "datetime",
    "decimal",
    "enum",
    "fractions",
    "functools",
    "graphlib",
    "heapq",
    "itertools",
    "json",
    "keyword",
    "math",
    "numbers",
    "operator",
    "random",
    "re",
    "statistics",
    "string",
    "textwrap",
    "time",
    "types",
    "typing",
    "unicodedata",
)
# Modules that an allowed module imports lazily, at call time (Counter.most_common -> heapq).
_LAZY_IMPORTS: dict[str, tuple[str, ...]] = {
    "collections": ("heapq",),
    "functools": ("types", "weakref"),
    "statistics": ("heapq",),
}
_IMPORT = re.compile(r"\b(?:from\s+([A-Za-z_][\w.]*)\s+import\b|import\s+([^\n;#]+))")


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run."""

    cpu_seconds: int = 2
    wall_seconds: float = 6.0
    memory_bytes: int = 512 * 2**20
    file_bytes: int = 2**20
    disk_bytes: int = 32 * 2**20  # all files together: the size of the run's own tmpfs
    processes: int = 16
    open_files: int = 32
    result_bytes: int = 2 * 2**20  # the most the parent reads back

    def __post_init__(self) -> None:
        if self.cpu_seconds < 1 or self.wall_seconds <= 0:
            raise ValueError("sandbox limits: cpu_seconds must be >= 1 and wall_seconds > 0")
        sizes = (self.memory_bytes, self.file_bytes, self.disk_bytes, self.processes)
        if min(*sizes, self.open_files) < 1:
            raise ValueError("sandbox limits must be positive")


@dataclass(frozen=True)
class Outcome:
    """What one call returned: its value (ok) or the name and message of what it raised."""

    ok: bool
    value: Any = None
    error: str = ""


Status = Literal[
    "completed", "syntax_error", "missing_function", "load_error", "timeout", "cpu_limit", "crashed"
]


@dataclass(frozen=True)
class RunResult:
    """One run.

    status: "completed" (every input was tried; see outcomes), "syntax_error",
    "missing_function", "load_error" (the module body raised), "timeout" (wall clock),
    "cpu_limit", "crashed" (the worker died without a result).
    """

    status: Status
    outcomes: tuple[Outcome, ...] = ()
    detail: str = ""
    seconds: float = 0.0


@dataclass(frozen=True)
class TestReport:
    """Hidden tests run against one answer."""

    passed: bool
    passed_count: int
    total: int
    run: RunResult
    failures: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Isolation:
    """How runs are isolated on this machine (found once per process)."""

    prefix: tuple[str, ...]  # the command put before the interpreter (unshare ... --, setpriv)
    namespaces: bool  # own network and PID namespace
    drop_to: tuple[int, int] | None  # (uid, gid) the worker switches to, when running as root
    note: str  # why there are no namespaces, or how they are made
    # The mount step, when the run has its own mount namespace: a shell that mounts a tmpfs of
    # the run's size on the work directory, enters it and execs the rest. Empty: no such step,
    # and then the work directory is on the host's disk (note says why).
    mount: tuple[str, ...] = ()
    # The paths bound read-only into the run's own root (the interpreter, its standard library,
    # the shared libraries it and the tools of the mount step load). Empty: the run sees the
    # host's filesystem (guarded by the user switch and the audit hook only).
    sealed_binds: tuple[str, ...] = ()
    interpreter: str = sys.executable  # the interpreter's path as the run sees it

    @property
    def private_mounts(self) -> bool:
        """A tmpfs of limited size as the work directory and a /proc of the run's processes."""
        return bool(self.mount)

    @property
    def sealed(self) -> bool:
        """The operating-system file boundary: the run sees only its own minimal root."""
        return bool(self.sealed_binds)

    def command(self, base: Path, limits: Limits) -> list[str]:
        """What runs the interpreter in the run directory ``base`` (its work directory is
        ``base/work``): the namespaces, the mount step, then the rest of prefix."""
        if not self.mount:
            return list(self.prefix)
        cut = self.prefix.index("--") + 1
        options = _tmpfs_options(limits.disk_bytes, self.drop_to)
        if self.sealed:
            _build_root(base, self.sealed_binds, options)
            return [*self.prefix[:cut], *self.mount, str(base), *self.prefix[cut:]]
        return [*self.prefix[:cut], *self.mount, str(base / "work"), options, *self.prefix[cut:]]

    def work_path(self, base: Path) -> str:
        """The work directory's path as the run sees it."""
        return SEALED_WORK if self.sealed else str(base / "work")


# ---------------------------------------------------------------- the harness (runs in the child)

# The child side lives in harness.py (stdlib only: it runs with ``python -I -S -B``); each run gets
# its own copy, readable by the supervisor only.
HARNESS = (Path(__file__).parent / "harness.py").read_text(encoding="utf-8")

# Event-name prefixes the worker's audit hook refuses.
DENIED_EVENTS: tuple[str, ...] = (
    "os.",
    "posix.",
    "socket.",
    "subprocess.",
    "ctypes.",
    "_ctypes",
    "_thread.",
    "signal.",
    "resource.",
    "gc.",
    "marshal.",
    "code.__new__",
    "import",
    "mmap.",
    "pty.",
    "fcntl.",
    "shutil.",
    "tempfile.",
    "glob.",
    "sys.settrace",
    "sys.setprofile",
    "sys.addaudithook",
    "sys._current_frames",
    "sys._current_exceptions",
    "sys.unraisablehook",
    "sys.excepthook",
    "urllib.",
    "http.",
    "ftplib.",
    "smtplib.",
    "poplib.",
    "imaplib.",
    "nntplib.",
    "telnetlib.",
    "socketserver.",
    "webbrowser.",
    "sqlite3.",
    "syslog.",
    "winreg.",
    "msvcrt.",
    "ensurepip.",
    "pdb.",
)

# ---------------------------------------------------------------- isolation, found once

_UNSAFE_ALLOWED: ContextVar[bool] = ContextVar("ladderbench_unsafe_allowed", default=False)
_ISOLATION: Isolation | None = None
RUN_ROOT: str | None = None  # where run directories are made (None: the system's temp folder)
_LOCK = threading.Lock()
_SEARCH_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"
# The probe prints its PID, network namespace, how many processes its /proc shows, the size of
# the filesystem of its working directory and whether it can see its run directory on the host.
_PROBE = (
    "import os, sys; v = os.statvfs('.'); "
    "print(os.getpid(), os.readlink('/proc/self/ns/net'), "
    "sum(p.isdigit() for p in os.listdir('/proc')), v.f_blocks * v.f_frsize, "
    "os.path.exists(sys.argv[1]))"
)
_PROBE_ARGS = ("-I", "-S", "-B", "-c", _PROBE)
_PROBE_BYTES = 2**20
# The mount step (see Isolation.mount): $1 the work directory, $2 the tmpfs options.
_MOUNT_STEP = 'MOUNT -t tmpfs -o "$2" ladderbench "$1" && cd "$1" && shift 2 && exec "$@"'
# The sealed mount step: $1 the run directory, holding the skeleton of the run's root and the
# fstab that fills it (see _build_root). It mounts everything, makes the skeleton the root
# (pivot_root) and detaches the host's root, so no path leads back to it.
_SEALED_STEP = (
    '@MOUNT@ --all --fstab "$1/fstab" && cd "$1/root" && @PIVOT@ . . && @UMOUNT@ -l . '
    '&& cd @WORK@ && shift && exec "$@"'
)
SEALED_WORK = "/work"  # the work directory's path inside the sealed root
_DEVICES = ("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom")


def _tmpfs_options(size: int, owner: tuple[int, int] | None) -> str:
    """A tmpfs of ``size`` bytes, a few thousand files at most, nothing executable or set-uid."""
    options = f"size={size},nr_inodes=4096,mode=0700,nosuid,nodev,noexec"
    if owner is not None:
        options += f",uid={owner[0]},gid={owner[1]}"
    return options


@contextlib.contextmanager
def unsafe_allowed(flag: bool) -> Iterator[None]:
    """Within this block (this thread or task only), runs go ahead without namespaces where the
    machine cannot make them: how a suite configured with ``--unsafe-allow-code`` grades."""
    token = _UNSAFE_ALLOWED.set(bool(flag))
    try:
        yield
    finally:
        _UNSAFE_ALLOWED.reset(token)


def _sandbox_user() -> tuple[int, int]:
    try:
        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return 65534, 65534


def _probe(iso: Isolation) -> str | None:
    """None when iso gives a new PID and network namespace (and, with a mount step, a private
    /proc and a tmpfs of the asked size as working directory; sealed, no sight of the host's
    files), else why not."""
    limits = Limits(disk_bytes=_PROBE_BYTES)
    try:
        ours = os.readlink("/proc/self/ns/net")
        with tempfile.TemporaryDirectory(prefix="ladderbench-probe-", dir=RUN_ROOT) as base:
            os.chmod(base, 0o755)
            os.mkdir(Path(base) / "work", 0o755)
            done = subprocess.run(
                [*iso.command(Path(base), limits), iso.interpreter, *_PROBE_ARGS, base],
                capture_output=True,
                text=True,
                timeout=20,
                stdin=subprocess.DEVNULL,
                env={"PATH": _SEARCH_PATH},
                cwd=Path(base) / "work",
            )
    except (OSError, subprocess.SubprocessError) as exc:
        return str(exc)
    if done.returncode != 0:
        lines = (done.stderr or "").strip().splitlines()
        return lines[-1] if lines else f"exit status {done.returncode}"
    fields = done.stdout.split()
    if len(fields) != 5 or fields[0] != "1" or fields[1] == ours:
        return "the probe was not isolated"
    if iso.mount and (fields[2] not in ("1", "2") or fields[3] != str(_PROBE_BYTES)):
        return f"the probe saw {fields[2]} processes and a {fields[3]}-byte work directory"
    if iso.sealed and fields[4] != "False":
        return "the probe could still see the host's files"
    return None


def isolation() -> Isolation:
    """How this machine isolates runs: found on first use with a probe, then cached."""
    global _ISOLATION
    with _LOCK:
        if _ISOLATION is None:
            _ISOLATION = _find_isolation()
        return _ISOLATION


def _find_isolation() -> Isolation:
    """The strongest isolation this machine allows: a sealed root (the file boundary), then,
    refused unless unsafe runs are allowed, namespaces with a tmpfs work directory, namespaces
    alone, or none (each step down says why in ``note``)."""
    root = os.geteuid() == 0
    drop = _sandbox_user() if root else None
    setpriv = shutil.which("setpriv", path=_SEARCH_PATH)
    tail = [setpriv, "--no-new-privs", "--"] if setpriv else []
    unshare = shutil.which("unshare", path=_SEARCH_PATH)
    if unshare is None:
        return Isolation(tuple(tail), False, drop, "util-linux 'unshare' is not installed")
    sealed = _sealed_root(unshare, setpriv, drop)
    if isinstance(sealed, Isolation):
        return sealed
    private = _private_mounts(unshare, setpriv, drop)
    if isinstance(private, Isolation):
        return dataclasses.replace(private, note=f"{private.note} (no private root: {sealed})")
    flags = ["--net", "--pid", "--fork", "--kill-child"]
    if not root:
        flags = ["--user", *flags]
    made = (
        "unshare " + " ".join(flags) + f" (no private root: {sealed}; no private mounts: {private})"
    )
    candidates = [Isolation((unshare, *flags, "--", *tail), True, drop, made)]
    if tail:  # setpriv may be the trouble
        candidates.append(
            Isolation((unshare, *flags, "--"), True, drop, made + ", without setpriv")
        )
    problem = ""
    for candidate in candidates:
        problem = _probe(candidate) or ""
        if not problem:
            return candidate
    return Isolation(tuple(tail), False, drop, f"{made} failed: {problem}")


def _mount_namespace(setpriv: str, drop: tuple[int, int] | None) -> tuple[list[str], list[str]]:
    """The unshare flags of a run with its own mount namespace, and the setpriv that follows
    the mount step. Without root the user namespace maps the caller to root, so that the mount
    step may mount; setpriv then empties the capability bounding set, so that nothing after it
    (the supervisor, the code) holds a capability: it can neither unmount nor mount."""
    flags = ["--net", "--pid", "--mount", "--fork", "--kill-child", "--mount-proc"]
    tail = [setpriv, "--no-new-privs", "--"]
    if drop is None:
        flags = ["--user", "--map-root-user", *flags]
        tail = [setpriv, "--no-new-privs", "--bounding-set=-all", "--inh-caps=-all", "--"]
    return flags, tail


def _private_mounts(
    unshare: str, setpriv: str | None, drop: tuple[int, int] | None
) -> Isolation | str:
    """Namespaces with a mount namespace of the run's own: a size-limited tmpfs as its work
    directory and a /proc that shows only its processes, the host's files still in sight (the
    boundary before issue #19, kept as a fallback and as the benchmark's baseline); else why
    not."""
    mount = shutil.which("mount", path=_SEARCH_PATH)
    shell = shutil.which("sh", path=_SEARCH_PATH)
    if mount is None or shell is None or setpriv is None:
        return "util-linux 'mount', 'setpriv' or a shell is missing"
    flags, tail = _mount_namespace(setpriv, drop)
    step = (shell, "-c", _MOUNT_STEP.replace("MOUNT", shlex.quote(mount)), "ladderbench-mount")
    made = "unshare " + " ".join(flags) + ", a tmpfs work directory"
    iso = Isolation((unshare, *flags, "--", *tail), True, drop, made, step)
    return _probe(iso) or iso


def _sealed_root(
    unshare: str, setpriv: str | None, drop: tuple[int, int] | None
) -> Isolation | str:
    """Namespaces whose mount namespace has a root of its own (pivot_root into a read-only
    skeleton holding only what the interpreter needs, the tmpfs work directory and a fresh
    /proc); else why not."""
    tools = {name: shutil.which(name, path=_SEARCH_PATH) for name in _SEAL_TOOLS}
    missing = [name for name, path in tools.items() if path is None]
    if setpriv is None:
        missing.append("setpriv")
    if missing:
        return "missing " + ", ".join(missing) + " (util-linux, libc-bin)"
    assert setpriv is not None
    interpreter = os.path.realpath(getattr(sys, "_base_executable", "") or sys.executable)
    binds = _sealed_binds(str(tools["ldd"]), [interpreter, setpriv, str(tools["umount"])])
    if isinstance(binds, str):
        return binds
    flags, tail = _mount_namespace(setpriv, drop)
    script = _SEALED_STEP.replace("@WORK@", SEALED_WORK)
    for name, word in (("mount", "@MOUNT@"), ("pivot_root", "@PIVOT@"), ("umount", "@UMOUNT@")):
        script = script.replace(word, shlex.quote(str(tools[name])))
    step = (str(tools["sh"]), "-c", script, "ladderbench-root")
    made = "unshare " + " ".join(flags) + ", pivot_root into a read-only root of its own"
    iso = Isolation((unshare, *flags, "--", *tail), True, drop, made, step, binds, interpreter)
    return _probe(iso) or iso


_SEAL_TOOLS = ("mount", "umount", "pivot_root", "sh", "ldd")


def _sealed_binds(ldd: str, programs: Sequence[str]) -> tuple[str, ...] | str:
    """What the sealed root binds read-only: the programs that run inside it (the interpreter,
    setpriv, umount), their loader, the folders of the libraries they load (the standard
    library's extension modules load theirs from there too) and the standard library; each at
    the path it is looked up by, none inside another; else why not."""
    platbase = {"platbase": sys.base_exec_prefix}  # not a virtual environment's folder
    wanted = {
        *programs,
        sysconfig.get_path("stdlib"),
        sysconfig.get_path("platstdlib", vars=platbase),
    }
    for program in programs:
        try:
            done = subprocess.run(
                [ldd, program], capture_output=True, text=True, timeout=20, env={"LC_ALL": "C"}
            )
        except (OSError, subprocess.SubprocessError) as exc:
            return f"ldd {program}: {exc}"
        found = _ldd_paths(done.stdout)
        if done.returncode != 0 or not found:
            return f"ldd could not list the libraries of {program}"
        wanted.update(found)
    paths = sorted(p for p in wanted if p and os.path.exists(p))
    return tuple(p for p in paths if not any(p.startswith(q + "/") for q in paths))


def _ldd_paths(listing: str) -> set[str]:
    """From ldd's output: the loader ("/lib64/ld-linux-x86-64.so.2 (0x...)") and the folder of
    every library ("libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)")."""
    found = set()
    for line in listing.splitlines():
        name, arrow, target = line.strip().partition("=>")
        words = (target if arrow else name).split()
        if words and words[0].startswith("/"):
            found.add(os.path.dirname(words[0]) if arrow else words[0])
    return found


def _fstab_path(path: str) -> str:
    return "".join(f"\\{ord(c):03o}" if c in " \t\n\\#" else c for c in path)


@functools.lru_cache(maxsize=8)
def _root_plan(binds: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The skeleton of a sealed root, worked out once: its folders (each after its parent), its
    empty files and the fstab lines that fill them, paths relative to the skeleton (``@ROOT@``
    in the fstab lines)."""
    folders: set[str] = {SEALED_WORK, "/proc"}
    files: set[str] = set()
    lines: list[str] = []
    points = [(path, "bind,ro,nosuid,nodev") for path in binds]
    points += [(device, "bind") for device in _DEVICES if os.path.exists(device)]
    for path, options in points:
        source = os.path.realpath(path)
        (folders if os.path.isdir(source) else files).add(path)
        lines.append(f"{_fstab_path(source)} @ROOT@{_fstab_path(path)} none {options}")
    lines.append(f"ladderbench @ROOT@{SEALED_WORK} tmpfs @WORK_OPTIONS@")
    lines.append("ladderbench @ROOT@/proc proc nosuid,nodev,noexec")
    for path in [*folders, *files]:
        parent = os.path.dirname(path)
        while parent != "/":
            folders.add(parent)
            parent = os.path.dirname(parent)
    return tuple(sorted(folders)), tuple(sorted(files)), tuple(lines)


def _build_root(base: Path, binds: tuple[str, ...], work_options: str) -> None:
    """The skeleton of a sealed run's root, under ``base/root`` (mount points only: empty
    folders and files), and ``base/fstab``, which mounts into it: the skeleton itself read-only,
    the binds read-only at their own paths, the devices, the tmpfs work directory and /proc."""
    folders, files, lines = _root_plan(binds)
    root = str(base / "root")
    for folder in ("", *folders):
        os.mkdir(root + folder)
        os.chmod(root + folder, 0o755)  # whatever the umask
    for name in files:
        os.close(os.open(root + name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    mounts = [f"{_fstab_path(root)} {_fstab_path(root)} none bind,ro,nosuid,nodev,noexec"]
    for line in lines:
        line = line.replace("@ROOT@", _fstab_path(root))
        mounts.append(line.replace("@WORK_OPTIONS@", work_options))
    (base / "fstab").write_text("\n".join(mounts) + "\n", encoding="utf-8")


def _check_allowed(iso: Isolation, allow_unsafe: bool | None) -> None:
    allowed = _UNSAFE_ALLOWED.get() if allow_unsafe is None else allow_unsafe
    if not iso.sealed and not allowed:
        raise UserError(
            f"refusing to run model-written code without an operating-system file boundary "
            f"({iso.note}); it needs util-linux (unshare, mount, umount, pivot_root, setpriv), "
            "ldd and a kernel that allows user namespaces (sysctl user.max_user_namespaces > 0, "
            "kernel.unprivileged_userns_clone=1 where it exists), or rerun with "
            "--unsafe-allow-code to run it anyway"
        )


# ---------------------------------------------------------------- one run


def _preload(sources: Sequence[str]) -> list[str]:
    """The allowed modules the sources name (plus what those import lazily), sorted."""
    wanted: set[str] = set()
    for source in sources:
        for m in _IMPORT.finditer(source):
            names = [m.group(1)] if m.group(1) else m.group(2).split(",")
            for name in names:
                name = name.strip().split()[0] if name.strip() else ""
                parts = name.split(".")
                for i in range(1, len(parts) + 1):
                    if ".".join(parts[:i]) in ALLOWED_MODULES:
                        wanted.add(".".join(parts[:i]))
    for name in list(wanted):
        wanted.update(_LAZY_IMPORTS.get(name, ()))
    return sorted(wanted)


def _pidfd(pid: int) -> int:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return -1


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as handle:
            return [int(n) for n in handle.read().split()]
    except (OSError, ValueError):
        return []


def _wait_exit(pid: int, timeout: float, fd: int | None = None) -> bool:
    """Wait for pid to exit without reaping it (its pid and group id stay reserved)."""
    owned = fd is None
    if fd is None:
        fd = _pidfd(pid)
    if fd >= 0:
        try:
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            return bool(poller.poll(max(0, int(timeout * 1000))))
        finally:
            if owned:
                os.close(fd)
    deadline = time.monotonic() + timeout
    while True:
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.005)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _remove_tree(path: Path) -> None:
    """Remove the run's directory, whatever modes the code left in it."""

    def fix(function: Any, name: str, _info: Any) -> None:
        parent = os.path.dirname(name)
        try:
            os.chmod(parent, stat.S_IRWXU)
            if os.path.isdir(name) and not os.path.islink(name):
                os.chmod(name, stat.S_IRWXU)
        except OSError:
            pass
        with contextlib.suppress(FileNotFoundError):
            function(name)

    if path.exists():
        shutil.rmtree(path, onerror=fix)
    if path.exists():
        shutil.rmtree(path, ignore_errors=True)


def _read_capped(path: Path, limit: int) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(limit)


def _parse(data: bytes, nonce: str) -> tuple[dict[str, Any] | None, int | None, str]:
    """The harness's RESULT payload, the worker's wait status, and any CRASH note."""
    result = status = None
    crash = ""
    for line in data.split(b"\n"):
        kind, _, rest = line.partition(b" ")
        tag, _, payload = rest.partition(b" ")
        if tag != nonce.encode():
            continue
        if kind == b"RESULT":
            result = payload
        elif kind == b"STATUS" and payload.strip().isdigit():
            status = int(payload)
        elif kind == b"CRASH":
            crash = payload.decode("utf-8", "replace")[:200]
    parsed = None
    if result is not None:
        try:
            value = ast.literal_eval(result.decode("utf-8", "surrogateescape"))
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            value = None
        if isinstance(value, dict) and isinstance(value.get("outcomes"), list):
            parsed = value
    return parsed, status, crash


def _outcomes(items: list[Any]) -> tuple[Outcome, ...]:
    out = []
    for item in items:
        if isinstance(item, list) and len(item) == 2 and item[0] is True:
            out.append(Outcome(True, item[1]))
        else:
            error = item[1] if isinstance(item, list) and len(item) == 2 else "bad outcome"
            out.append(Outcome(False, None, str(error)[:200]))
    return tuple(out)


def run_function(
    sources: str | Sequence[str],
    entry_point: str,
    inputs: Sequence[Sequence[Any]],
    *,
    limits: Limits | None = None,
    allow_unsafe: bool | None = None,
    audit_hook: bool = True,
    extra_modules: Sequence[str] = (),
) -> RunResult:
    """Call ``entry_point`` from the first of ``sources`` that compiles, once per argument list.

    The inputs must be plain data (ints, floats, strings, lists, dicts...). Returns what each
    call returned or raised; raises UserError when the machine cannot isolate the run and unsafe
    runs are not allowed. ``audit_hook=False`` and ``extra_modules`` (more modules to pre-import)
    are for tests of the operating-system layers only.
    """
    limits = limits or Limits()
    iso = isolation()
    _check_allowed(iso, allow_unsafe)
    if isinstance(sources, str):
        sources = [sources]
    nonce = secrets.token_hex(16)
    job = {
        "nonce": nonce,
        "sources": [str(s) for s in sources],
        "entry": entry_point,
        "inputs": [repr(list(args)) for args in inputs],
        "preload": [*_preload(sources), *extra_modules],
        "limits": {
            "cpu": limits.cpu_seconds,
            "memory": limits.memory_bytes,
            "file": limits.file_bytes,
            "files": limits.open_files,
            "procs": limits.processes,
            "wall": math.ceil(limits.wall_seconds) + 2,
        },
        "drop": iso.drop_to,
        "audit": audit_hook,
        "denied": DENIED_EVENTS,
    }
    try:
        base = Path(tempfile.mkdtemp(prefix="ladderbench-sandbox-", dir=RUN_ROOT))
    except OSError as exc:
        raise UserError(f"sandbox: cannot make a temporary directory ({exc})") from None
    started = time.monotonic()
    try:
        os.chmod(base, 0o711)
        work = base / "work"
        work.mkdir(mode=0o700)
        if iso.drop_to is not None:
            os.chown(work, *iso.drop_to)
        (base / "job").write_bytes(marshal.dumps(job))
        result_path = base / "result"
        result_path.touch(mode=0o600)
        os.chmod(base / "job", 0o600)
        # The job and the result file travel as open descriptors, the harness on the command
        # line (which also names the run directory, for ps): a sealed run cannot see base.
        channels = (
            os.open(base / "job", os.O_RDONLY),
            os.open(result_path, os.O_WRONLY | os.O_APPEND),
        )
        command = [
            *iso.command(base, limits),
            iso.interpreter,
            "-I",
            "-S",
            "-B",
            "-c",
            HARNESS,
            *map(str, channels),
            str(base),
        ]
        env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "HOME": iso.work_path(base)}
        try:
            proc = subprocess.Popen(
                command,
                cwd=work,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                pass_fds=channels,
            )
        except OSError as exc:
            raise UserError(f"sandbox: cannot start {command[0]} ({exc})") from None
        finally:
            for fd in channels:
                os.close(fd)
        init = -1
        try:
            finished = _wait_exit(proc.pid, limits.wall_seconds)
            if not finished:  # the namespace's PID 1 (the supervisor), to wait for below
                init = next((fd for fd in map(_pidfd, _children(proc.pid)) if fd >= 0), -1)
        finally:
            _kill_group(proc.pid)  # stragglers too; the group id is still reserved here
            if init >= 0:  # it exits only once every process of its namespace is gone
                _wait_exit(-1, 5.0, init)
                os.close(init)
            proc.wait()
        data = _read_capped(result_path, limits.result_bytes)
    finally:
        _remove_tree(base)
    seconds = time.monotonic() - started
    parsed, status, crash = _parse(data, nonce)
    if not finished:
        return RunResult("timeout", (), f"killed after {limits.wall_seconds:g} s", seconds)
    if parsed is not None and parsed.get("load") != "ok":
        load = parsed.get("load")
        kind: Status = "crashed"
        if load in ("syntax_error", "missing_function", "load_error"):
            kind = load
        return RunResult(kind, (), str(parsed.get("detail", ""))[:200], seconds)
    if parsed is not None:
        outcomes = _outcomes(parsed["outcomes"])
        if len(outcomes) == len(inputs):
            return RunResult("completed", outcomes, "", seconds)
        return RunResult("crashed", (), "wrong number of results", seconds)
    if status is not None and os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number == signal.SIGXCPU or (number == signal.SIGKILL and not crash):
            return RunResult("cpu_limit", (), f"CPU limit ({signal.Signals(number).name})", seconds)
        return RunResult("crashed", (), f"killed by {signal.Signals(number).name}", seconds)
    return RunResult("crashed", (), crash or "no result", seconds)


# ---------------------------------------------------------------- comparing with the truth


def outputs_match(actual: Any, expected: Any) -> bool:
    """Whether a returned value equals the expected one (tuples count as lists; 2 == 2.0;
    True is not 1)."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(actual) is type(expected) and actual == expected
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return actual == expected
    if isinstance(expected, (list, tuple)):
        return (
            isinstance(actual, (list, tuple))
            and len(actual) == len(expected)
            and all(outputs_match(a, e) for a, e in zip(actual, expected))
        )
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and set(actual) == set(expected)
            and all(outputs_match(actual[k], expected[k]) for k in expected)
        )
    return type(actual) is type(expected) and actual == expected


def run_tests(
    sources: str | Sequence[str],
    entry_point: str,
    tests: Sequence[tuple[Sequence[Any], Any]],
    *,
    limits: Limits | None = None,
    allow_unsafe: bool | None = None,
    audit_hook: bool = True,
    extra_modules: Sequence[str] = (),
) -> TestReport:
    """Run the hidden tests (arguments, expected output) in the sandbox; compare here."""
    run = run_function(
        sources,
        entry_point,
        [args for args, _ in tests],
        limits=limits,
        allow_unsafe=allow_unsafe,
        audit_hook=audit_hook,
        extra_modules=extra_modules,
    )
    if run.status != "completed":
        return TestReport(False, 0, len(tests), run, (f"{run.status}: {run.detail}",))
    failures = []
    for i, ((_, expected), outcome) in enumerate(zip(tests, run.outcomes)):
        if not outcome.ok:
            failures.append(f"test {i}: raised {outcome.error}")
        elif not outputs_match(outcome.value, expected):
            failures.append(f"test {i}: wrong value")
    return TestReport(
        not failures and bool(tests), len(tests) - len(failures), len(tests), run, tuple(failures)
    )
