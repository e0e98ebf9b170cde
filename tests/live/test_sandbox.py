"""The sandbox: right and wrong answers, and escape attempts that must all be contained.

Every escape is tried with the full sandbox and, where it tests an operating-system layer, also
with the audit hook switched off (``audit_hook=False``, a test-only switch), so each layer is shown
to hold on its own. After every test the host is checked: this process and its parent are alive,
no process of the test's runs is left (as root those are the sandbox user's: the worker and all
it forked keep the harness's command line), the runs' directories are gone, and the escapes that
write check that nothing appeared outside.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest

from ladderbench.errors import UserError
from ladderbench.execution import sandbox
from ladderbench.execution.sandbox import Limits, isolation, outputs_match, run_function, run_tests

FAST = Limits(cpu_seconds=1, wall_seconds=3.0)
ISO = isolation()
ROOT = os.geteuid() == 0
needs_namespaces = pytest.mark.skipif(not ISO.namespaces, reason=f"no namespaces: {ISO.note}")
needs_root = pytest.mark.skipif(not ROOT, reason="the user switch happens only as root")
needs_private_mounts = pytest.mark.skipif(
    not ISO.private_mounts, reason=f"no private mounts: {ISO.note}"
)

# One hidden test: f(3) must return 9. Every escape attempt below returns something else.
SQUARE = [([3], 9)]


def _processes_under(root: str) -> set[int]:
    """Processes of runs made under root: the supervisor, the worker and anything it forked
    (they all keep the harness's command line, which names the run's directory)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if root.encode() in handle.read():
                    found.add(int(entry))
        except OSError:
            continue
    return found


@pytest.fixture(autouse=True)
def host_unharmed(monkeypatch: pytest.MonkeyPatch):
    """Runs go to a folder of this test's own (so other runs on the machine do not count); after
    the test, this process and its parent live, no run's process is left, no run folder either."""
    root = tempfile.mkdtemp(prefix="sandbox-test-runs-")
    os.chmod(root, 0o755)
    monkeypatch.setattr(sandbox, "RUN_ROOT", root)
    parent = os.getppid()
    try:
        yield
        os.kill(os.getpid(), 0)  # still here
        with contextlib.suppress(PermissionError):  # (runuser's, as an unprivileged user)
            os.kill(parent, 0)  # and so is whoever started us
        assert os.getppid() == parent
        assert not _processes_under(root), "sandbox processes left behind"
        assert os.listdir(root) == [], "a run's temporary directory was not removed"
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(autouse=True)
def unsafe_only_without_a_sealed_root():
    """Where the machine cannot seal a run's root, the tests still run (the rest of the sandbox
    holds); the tests that need namespaces are skipped."""
    with sandbox.unsafe_allowed(not ISO.sealed):
        yield


def check(code: str, tests=SQUARE, **kwargs):
    return run_tests(code, "f", tests, limits=FAST, **kwargs)


def both_layers(code: str, **kwargs):
    """The run with the audit hook, and (testing the OS layers alone) without it; the latter only
    inside namespaces, where a stray os.kill(-1, 9) cannot reach this machine's processes."""
    reports = [check(code, **kwargs)]
    if ISO.namespaces:
        reports.append(check(code, audit_hook=False, **kwargs))
    return reports


# ---------------------------------------------------------------- ordinary answers


def test_correct_solution_passes() -> None:
    report = check("def f(x):\n    print('working...')\n    return x * x\n")
    assert report.passed and report.passed_count == 1
    assert report.run.status == "completed"


def test_wrong_solution_fails() -> None:
    report = check("def f(x):\n    return x + x\n")
    assert not report.passed and report.failures == ("test 0: wrong value",)


def test_several_tests_and_imports() -> None:
    code = (
        "from collections import Counter\n"
        "import heapq, itertools as it\n"
        "def f(xs):\n"
        "    return [w for w, _ in Counter(xs).most_common(2)] + heapq.nsmallest(1, xs)\n"
    )
    tests = [([["b", "a", "b", "c", "c", "c"]], ["c", "b", "a"]), ([["z"]], ["z", "z"])]
    assert check(code, tests).passed


def test_load_failures_are_reported() -> None:
    assert check("def f(x) return x\n").run.status == "syntax_error"
    assert check("def g(x):\n    return x * x\n").run.status == "missing_function"
    assert check("raise RuntimeError('at import')\n").run.status == "load_error"
    assert check("import numpy\ndef f(x):\n    return x * x\n").run.status == "load_error"
    assert check("").run.status == "missing_function"


def test_first_compiling_source_is_used() -> None:
    assert check(["def f(x) return 1\n", "def f(x):\n    return x * x\n"]).passed


def test_solution_class_is_accepted() -> None:
    assert check("class Solution:\n    def f(self, x):\n        return x ** 2\n").passed


def test_exceptions_and_odd_return_values_fail() -> None:
    assert not check("def f(x):\n    raise SystemExit(0)\n").passed
    assert not check("def f(x):\n    return {9}\n").passed
    weird = (
        "class N(int):\n    def __eq__(self, o):\n        return True\ndef f(x):\n    return N(1)\n"
    )
    assert not check(weird).passed


def test_outputs_match() -> None:
    assert outputs_match((1, [2, 3]), [1, [2, 3]])
    assert outputs_match(2.0, 2)
    assert not outputs_match(True, 1) and not outputs_match(1, True)
    assert not outputs_match("1", 1)
    assert outputs_match({"a": [1]}, {"a": [1]}) and not outputs_match({"a": 1}, {"b": 1})
    assert not outputs_match([1, 2], [1, 2, 3])


# ---------------------------------------------------------------- escapes


def test_reading_a_file_outside_fails(tmp_path: Path) -> None:
    token = "TOKEN-" + os.urandom(8).hex()
    secret = tmp_path / "secret.txt"
    secret.write_text(token)
    attempts = [
        f"def f(x):\n    return open({str(secret)!r}).read()\n",
        f"import os\ndef f(x):\n    return os.open({str(secret)!r}, os.O_RDONLY)\n",
        "def f(x):\n    return open('../../../../../../" + str(secret).lstrip("/") + "').read()\n",
        "def f(x):\n    return open('/etc/passwd').read()\n",
    ]
    for code in attempts:
        reports = both_layers(code) if ROOT else [check(code)]  # nobody cannot read it
        for report in reports:
            assert not report.passed
            assert token not in repr(report)


@needs_namespaces
def test_no_network_connection() -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.setblocking(False)
    port = listener.getsockname()[1]
    code = (
        "import socket\n"
        "def f(x):\n"
        f"    s = socket.create_connection(('127.0.0.1', {port}), timeout=1)\n"
        "    s.sendall(b'escaped')\n"
        "    return 9\n"
    )
    try:
        reports = [check(code), check(code, audit_hook=False, extra_modules=["socket"])]
        for report in reports:
            assert not report.passed
        time.sleep(0.1)
        with pytest.raises(BlockingIOError):
            listener.accept()
    finally:
        listener.close()


def test_fork_bomb_is_contained() -> None:
    code = (
        "import os\n"
        "def f(x):\n"
        "    while True:\n"
        "        try:\n"
        "            os.fork()\n"
        "        except Exception:\n"
        "            pass\n"
    )
    for report in both_layers(code):
        assert not report.passed
        assert report.run.status in ("cpu_limit", "timeout")
        assert report.run.seconds < FAST.wall_seconds + 10  # killed at the limits, load allowed for


def test_huge_allocation_fails() -> None:
    for code in (
        "def f(x):\n    return len(bytearray(2**30)) and 9\n",
        "def f(x):\n    a = [0] * (2**30 // 8)\n    return 9\n",
    ):
        for report in both_layers(code):
            assert not report.passed
            assert "MemoryError" in repr(report.run)


def test_infinite_loop_hits_the_cpu_limit() -> None:
    for report in both_layers("def f(x):\n    while True:\n        pass\n"):
        assert not report.passed and report.run.status == "cpu_limit"


def test_sleeping_hits_the_wall_clock_timeout() -> None:
    report = check("import time\ndef f(x):\n    time.sleep(60)\n")
    assert not report.passed and report.run.status == "timeout"
    assert FAST.wall_seconds <= report.run.seconds < FAST.wall_seconds + 10


def test_huge_file_is_cut_short() -> None:
    code = (
        "def f(x):\n"
        "    with open('big.bin', 'wb') as h:\n"
        "        for _ in range(200):\n"
        "            h.write(b'x' * 2**20)\n"
        "    return 9\n"
    )
    for report in both_layers(code):
        assert not report.passed
        assert "File too large" in repr(report.run)


# The attack of issue #16: the hook's PermissionError carries its frame in the traceback, and
# there the counter of files opened for writing; rewritten, 200 files of 1 MiB each follow.
LIFT_THE_COUNTER_AND_FILL = """
def f(x):
    try:
        for i in range(40):
            open("probe%d" % i, "w").close()
    except PermissionError as exc:
        tb = exc.__traceback__
        while tb is not None:
            cell = tb.tb_frame.f_locals.get("writes")
            if type(cell) is list:
                cell[0] = -10**9
            tb = tb.tb_next
    written = 0
    for i in range(200):
        try:
            with open("fill%d" % i, "wb") as h:
                h.write(b"x" * 2**20)
                h.flush()
        except OSError:
            break
        written += 2**20
    return written
"""


def _peak_bytes_under(root: str, stop: threading.Event, peak: list[int]) -> None:
    while not stop.is_set():
        total = 0
        for folder, _dirs, files in os.walk(root):
            for name in files:
                with contextlib.suppress(OSError):
                    total += os.lstat(os.path.join(folder, name)).st_size
        peak[0] = max(peak[0], total)
        time.sleep(0.01)


@needs_private_mounts
def test_the_write_cap_holds_when_the_hook_counter_is_rewritten() -> None:
    """The total written is capped by the run's own tmpfs, which the code cannot reach: the
    attack writes no more than the cap, and nothing of it lands on the host's disk."""
    cap = 8 * 2**20
    limits = Limits(cpu_seconds=2, wall_seconds=6.0, disk_bytes=cap)
    for audit_hook in (True, False):
        stop, peak = threading.Event(), [0]
        watcher = threading.Thread(
            target=_peak_bytes_under, args=(sandbox.RUN_ROOT, stop, peak), daemon=True
        )
        watcher.start()
        try:
            run = run_function(
                LIFT_THE_COUNTER_AND_FILL, "f", [[3]], limits=limits, audit_hook=audit_hook
            )
        finally:
            stop.set()
            watcher.join()
        assert run.status == "completed", run
        assert 0 < run.outcomes[0].value <= cap, run
        assert peak[0] < 2**20, f"{peak[0]} bytes reached the host's temporary folder"


@needs_private_mounts
def test_proc_shows_only_the_runs_processes() -> None:
    code = "import os\ndef f():\n    return [p for p in os.listdir('/proc') if p.isdigit()]\n"
    run = run_function(code, "f", [[]], limits=FAST, audit_hook=False, extra_modules=["os"])
    pids = run.outcomes[0].value
    assert "1" in pids and len(pids) <= 2, pids  # the supervisor and the worker


def test_writing_outside_fails() -> None:
    target = Path(tempfile.mkdtemp(prefix="sandbox-canary-"))
    try:
        target.chmod(0o777)  # even a world-writable place is out of bounds
        canary = target / "escaped.txt"
        code = f"def f(x):\n    open({str(canary)!r}, 'w').write('x')\n    return 9\n"
        assert not check(code).passed
        assert not canary.exists()
        assert not check(f"import os\ndef f(x):\n    os.mkdir({str(canary)!r})\n").passed
        assert not canary.exists()
    finally:
        for child in target.iterdir():
            child.unlink()
        target.rmdir()


def test_killing_the_parent_fails() -> None:
    for code in (
        "import os\ndef f(x):\n    os.kill(os.getppid(), 9)\n    return 9\n",
        "import os\ndef f(x):\n    os.killpg(os.getpgid(0), 9)\n    return 9\n",
        "import os\ndef f(x):\n    os.kill(-1, 9)\n    return 9\n",
    ):
        with_hook, *without = both_layers(code)
        assert not with_hook.passed  # the parent is checked by the fixture
        for report in without:  # unprivileged, the worker may signal the namespace's init,
            assert not report.passed or not ROOT  # which ignores SIGKILL sent from within


def test_subprocess_and_exec_fail() -> None:
    for code in (
        "import os\ndef f(x):\n    return os.system('true') or 9\n",
        "import os\ndef f(x):\n    os.execv('/bin/true', ['true'])\n",
        "import subprocess\ndef f(x):\n    return 9\n",
        "def f(x):\n    __import__('ctypes')\n    return 9\n",
    ):
        assert not check(code).passed


def test_forged_verdict_does_not_pass() -> None:
    forge = (
        "import os, sys\n"
        "def f(x):\n"
        "    main = sys.modules['__main__']\n"
        "    print('VERDICT pass 1/1')\n"
        "    claim = {'load': 'ok', 'outcomes': [[True, 'PASS']]}\n"
        "    line = 'RESULT %s %r\\n' % (main.NONCE, claim)\n"
        "    os.write(main.OUT, line.encode())\n"
        "    os.write(1, b'RESULT 0 {}\\n')\n"
        "    os._exit(0)\n"
    )
    for report in both_layers(forge):
        assert not report.passed


def test_environment_has_no_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-for-the-test")
    run = run_function("import os\ndef f():\n    return dict(os.environ)\n", "f", [[]], limits=FAST)
    assert run.status == "completed" and run.outcomes[0].ok
    env = run.outcomes[0].value
    assert "OPENAI_API_KEY" not in env and "sk-secret-for-the-test" not in repr(env)


def test_stdin_is_closed() -> None:
    run = run_function("def f():\n    return input()\n", "f", [[]], limits=FAST)
    assert not run.outcomes[0].ok and "EOFError" in run.outcomes[0].error


@needs_root
def test_root_runs_as_nobody() -> None:
    code = (
        "import os\ndef f():\n    return [os.getuid(), os.geteuid(), os.getgid(), os.getgroups()]\n"
    )
    for audit in (True, False) if ISO.namespaces else (True,):
        run = run_function(code, "f", [[]], limits=FAST, audit_hook=audit)
        uid, gid = ISO.drop_to
        assert run.outcomes[0].value == [uid, uid, gid, []]


@needs_namespaces
def test_runs_in_own_namespaces() -> None:
    code = "import os\ndef f():\n    return os.getpid()\n"
    run = run_function(code, "f", [[]], limits=FAST)
    assert run.outcomes[0].value > 1  # the worker; the supervisor is PID 1
    assert ISO.prefix[0].endswith("unshare") and "--net" in ISO.prefix


@needs_namespaces
@pytest.mark.parametrize("broken", ["no mount program", "the mount fails"])
def test_without_private_mounts_runs_fall_back_and_say_why(
    monkeypatch: pytest.MonkeyPatch, broken: str
) -> None:
    if broken == "no mount program":
        which = shutil.which
        monkeypatch.setattr(
            shutil,
            "which",
            lambda name, path=None: None if name == "mount" else which(name, path=path),
        )
    else:
        failing = "echo 'mount: permission denied' >&2; exit 32"
        monkeypatch.setattr(sandbox, "_MOUNT_STEP", failing)
        monkeypatch.setattr(sandbox, "_SEALED_STEP", failing)
    iso = sandbox._find_isolation()
    assert iso.namespaces and not iso.private_mounts and not iso.sealed
    assert "no private root: " in iso.note and "no private mounts: " in iso.note, iso.note
    assert "\n" not in iso.note
    assert ("mount" if broken == "no mount program" else "permission denied") in iso.note
    monkeypatch.setattr(sandbox, "_ISOLATION", iso)
    with sandbox.unsafe_allowed(False), pytest.raises(UserError) as info:
        check("def f(x):\n    return x * x\n")  # no file boundary: refused
    assert "file boundary" in str(info.value) and "util-linux" in str(info.value)
    with sandbox.unsafe_allowed(True):
        assert check("def f(x):\n    return x * x\n").passed


# ---------------------------------------------------------------- no namespaces


def test_refuses_without_network_isolation(monkeypatch: pytest.MonkeyPatch) -> None:
    tail = tuple(p for p in ISO.prefix if "setpriv" in p or p in ("--no-new-privs",))
    tail = (*tail, "--") if tail else ()
    plain = sandbox.Isolation(tail, False, ISO.drop_to, "unshare --net failed: not permitted")
    monkeypatch.setattr(sandbox, "_ISOLATION", plain)
    with sandbox.unsafe_allowed(False), pytest.raises(UserError) as info:
        check("def f(x):\n    return x * x\n")
    assert "\n" not in str(info.value) and "--unsafe-allow-code" in str(info.value)
    with sandbox.unsafe_allowed(False):
        assert check("def f(x):\n    return x * x\n", allow_unsafe=True).passed
    with sandbox.unsafe_allowed(True):
        assert check("def f(x):\n    return x * x\n").passed
        assert not check("import os\ndef f(x):\n    os.kill(os.getppid(), 9)\n").passed
    with sandbox.unsafe_allowed(False), pytest.raises(UserError):
        check("def f(x):\n    return x * x\n")
