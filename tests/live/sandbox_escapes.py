"""The escape corpus of issue #19, run as whoever runs this file (test_sandbox_boundary.py runs it
as root in-process and as an unprivileged user in a child: ``python sandbox_escapes.py SPEC``).

Every attack is run twice, with the audit hook and with it switched off (``audit_hook=False``,
the sandbox's test-only switch), so that the operating-system boundary is shown to hold alone.
An attack is contained when its hidden test (f(3) == 9) fails and nothing it aimed at changed:
the canary in the user's home was never read, ~/.bashrc is as it was, no file appeared outside the
work directory, the listener got no connection, this process and its parent live, and no run's
process or directory is left behind.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ladderbench.execution import sandbox
from ladderbench.execution.sandbox import Limits, run_tests

FAST = Limits(cpu_seconds=1, wall_seconds=3.0)


@dataclass
class Targets:
    """What the attacks aim at: a home with a canary and a .bashrc, a world-writable folder
    outside, a results folder; files that must not appear are listed in ``forbidden``."""

    home: Path
    outside: Path
    results: Path
    token: str
    port: int = 0
    forbidden: list[Path] = field(default_factory=list)


def file_attacks(t: Targets) -> dict[str, str]:
    """Attacks on the user's files (each returns 9, passing the test, only if it got through)."""
    canary, bashrc = t.home / "canary.txt", t.home / ".bashrc"
    tag = os.urandom(4).hex()
    t.forbidden += [t.outside / f"escaped-{tag}", Path(f"/tmp/escaped-{tag}")]
    t.forbidden += [Path(f"/dev/shm/escaped-{tag}"), t.results / f"escaped-{tag}"]
    return {
        "read the canary": f"def f(x):\n    return open({str(canary)!r}).read()\n",
        "read the canary (os)": (
            "import os\ndef f(x):\n"
            f"    return os.read(os.open({str(canary)!r}, os.O_RDONLY), 99).decode()\n"
        ),
        "read the canary (..)": (
            "def f(x):\n    return open('../../../../../../"
            + str(canary).lstrip("/")
            + "').read()\n"
        ),
        "write ~/.bashrc": (
            f"def f(x):\n    open({str(bashrc)!r}, 'a').write('echo pwned\\n')\n    return 9\n"
        ),
        "list /home": "import os\ndef f(x):\n    os.listdir('/home')\n    return 9\n",
        "list the home": f"import os\ndef f(x):\n    os.listdir({str(t.home)!r})\n    return 9\n",
        "list the results": f"import os\ndef f(x):\n    return os.listdir({str(t.results)!r})\n",
        "list /root": "import os\ndef f(x):\n    return os.listdir('/root')\n",
        "list /tmp": "import os\ndef f(x):\n    os.listdir('/tmp')\n    return 9\n",
        "read /etc/passwd": "def f(x):\n    return open('/etc/passwd').read() and 9\n",
        "read a parent's environment": (
            "import os\ndef f(x):\n"
            "    return [open('/proc/%s/environ' % p, 'rb').read() for p in os.listdir('/proc')\n"
            "            if p.isdigit() and int(p) > os.getpid()] and 9\n"
        ),
        **{
            f"write {path.parent}": (
                f"def f(x):\n    open({str(path)!r}, 'w').write('x')\n    return 9\n"
            )
            for path in t.forbidden
        },
        "write into the root": (
            "import os\ndef f(x):\n"
            "    for folder in ('/', '/usr/bin', '/dev', os.path.dirname(os.__file__)):\n"
            "        try:\n"
            "            open(os.path.join(folder, 'escaped'), 'w').close()\n"
            "            return 9\n"
            "        except OSError:\n"
            "            pass\n"
        ),
        "mkdir outside": (
            f"import os\ndef f(x):\n    os.mkdir({str(t.outside / f'dir-{tag}')!r})\n    return 9\n"
        ),
        "remount the root writable": (
            "import os\ndef f(x):\n    return os.system('mount -o remount,rw / && touch /x') or 9\n"
        ),
    }


def limit_attacks(t: Targets) -> dict[str, str]:
    """The classes the sandbox contained before issue #19: processes, memory, time, network,
    signals."""
    return {
        "fork bomb": (
            "import os\ndef f(x):\n    while True:\n        try:\n            os.fork()\n"
            "        except Exception:\n            pass\n"
        ),
        "memory": "def f(x):\n    return len(bytearray(10 * 2**30)) and 9\n",
        "cpu": "def f(x):\n    while True:\n        pass\n",
        "wall clock": "import time\ndef f(x):\n    time.sleep(60)\n",
        "network": (
            "import socket\ndef f(x):\n"
            f"    socket.create_connection(('127.0.0.1', {t.port}), timeout=1).sendall(b'x')\n"
            "    return 9\n"
        ),
        "kill the parent": "import os\ndef f(x):\n    os.kill(os.getppid(), 9)\n    return 9\n",
        "kill everything": "import os\ndef f(x):\n    os.kill(-1, 9)\n    return 9\n",
    }


# Inside the run's PID namespace its init (the supervisor) ignores SIGKILL sent from within, and
# an unprivileged run's worker is allowed to send it: the call can succeed and do nothing. What
# counts for these is that this process and its parent live and nothing is left behind.
HARMLESS_CALLS = ("kill the parent", "kill everything")

EXPECTED_STATUS = {
    "fork bomb": ("cpu_limit", "timeout"),
    "cpu": ("cpu_limit",),
    "wall clock": ("timeout",),
}


def _leftovers(root: str) -> list[str]:
    """Run directories or processes of runs under root that outlived their run."""
    found = [f"directory {name}" for name in os.listdir(root)]
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if entry.isdigit() and root.encode() in handle.read():
                    found.append(f"process {entry}")
        except OSError:
            continue
    return found


def _seen_in_root(label: str, run: Any) -> list[str]:
    """What a listing of /root showed beyond the way to the interpreter (which a sealed run
    binds at its own path: under /root for a pyenv Python, say)."""
    shown = run.outcomes[0].value if run.outcomes and run.outcomes[0].ok else []
    binds = getattr(sandbox.isolation(), "sealed_binds", ())  # absent before issue #19
    path_to_binds = {p.split("/")[2] for p in binds if p.startswith("/root/")}
    extra = sorted(set(shown) - path_to_binds)
    return [f"{label}: saw {extra}"] if extra else []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except PermissionError:  # there, but not ours (runuser's, say)
        return True
    except ProcessLookupError:
        return False
    return True


def run_corpus(t: Targets, kind: str) -> dict[str, Any]:
    """Run the file attacks (kind "files") or the limit attacks ("limits"), each with and
    without the hook; the problems found, the attacks run and the mechanism used."""
    bashrc = (t.home / ".bashrc").read_bytes()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.setblocking(False)
    t.port = listener.getsockname()[1]
    attacks = file_attacks(t) if kind == "files" else limit_attacks(t)
    root = tempfile.mkdtemp(prefix="sandbox-escape-runs-")
    os.chmod(root, 0o755)
    saved, sandbox.RUN_ROOT = sandbox.RUN_ROOT, root
    parent, problems, runs = os.getppid(), [], 0
    try:
        for name, code in attacks.items():
            for hook in (True, False):
                report = run_tests(code, "f", [([3], 9)], limits=FAST, audit_hook=hook)
                runs += 1
                label = f"{name} (hook {'on' if hook else 'off'})"
                if report.passed and name not in HARMLESS_CALLS:
                    problems.append(f"{label}: got through: {report.run}")
                if name == "list /root":
                    problems += _seen_in_root(label, report.run)
                if t.token in repr(report):
                    problems.append(f"{label}: read the canary")
                wanted = EXPECTED_STATUS.get(name)
                if wanted and report.run.status not in wanted:
                    problems.append(f"{label}: status {report.run.status}, not {wanted}")
                if name == "memory" and "MemoryError" not in repr(report.run):
                    problems.append(f"{label}: no MemoryError: {report.run}")
                problems += [f"{label}: left {what}" for what in _leftovers(root)]
                if os.getppid() != parent or not _alive(parent):
                    problems.append(f"{label}: killed this process's parent")
        time.sleep(0.1)
        try:
            listener.accept()
            problems.append("network: the listener got a connection")
        except BlockingIOError:
            pass
    finally:
        sandbox.RUN_ROOT = saved
        listener.close()
        if not os.listdir(root):
            os.rmdir(root)
    if (t.home / ".bashrc").read_bytes() != bashrc:
        problems.append("~/.bashrc changed")
    for path in t.forbidden:
        if path.exists():
            problems.append(f"{path} was written")
            path.unlink()  # not left in /tmp or /dev/shm
    outside = [p.name for p in t.outside.iterdir()]
    problems += [f"{name} appeared outside" for name in outside]
    iso = sandbox.isolation()
    sealed = getattr(iso, "sealed", False)  # the corpus runs against older sandboxes too
    return {"problems": problems, "runs": runs, "mechanism": iso.note, "sealed": sealed}


def make_targets(base: Path, owner: tuple[int, int] | None = None) -> Targets:
    """The home (with canary.txt and .bashrc, owner-only), outside (world-writable) and results
    folders under base, owned by ``owner`` (uid, gid) when given."""
    home, outside, results = base / "home", base / "outside", base / "results"
    token = "CANARY-" + os.urandom(8).hex()
    for folder in (home, outside, results):
        folder.mkdir()
    (home / "canary.txt").write_text(token)
    (home / ".bashrc").write_text("# the user's\n")
    (results / "run.jsonl").write_text("{}\n")
    for path in (home, results, home / "canary.txt", results / "run.jsonl"):
        if owner is not None:
            os.chown(path, *owner)
        path.chmod(0o700 if path.is_dir() else 0o600)
    if owner is not None:
        os.chown(home / ".bashrc", *owner)
    outside.chmod(0o777)
    return Targets(home, outside, results, token)


if __name__ == "__main__":  # SPEC: {"home", "outside", "results", "token", "kind"} as JSON
    spec = json.loads(sys.argv[1])
    targets = Targets(
        Path(spec["home"]), Path(spec["outside"]), Path(spec["results"]), spec["token"]
    )
    print(json.dumps(run_corpus(targets, spec["kind"])))
